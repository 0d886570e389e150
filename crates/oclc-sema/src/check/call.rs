//! Calls: user functions (argument conversion with clang's "passing ..." diagnostics and
//! parameter notes), the address-space qualifier functions (rules 55–59) and builtins from the
//! builtin table.

use oclc_syntax::ast::{self, ExprKind as AK};
use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use crate::hir::{Expr, ExprKind, FuncId};
use crate::space::{self, AddrSpace, ToAddrArg};
use crate::types::{LangAs, QualType, Scalar, TypeTable};

impl Checker<'_> {
    pub(crate) fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Expr {
        // clang underlines the callee's first token for the conversion of an argument.
        let cc = match &super::unused::strip_parens_pub(callee).kind {
            AK::Ident(_) => super::unused::strip_parens_pub(callee).span,
            _ => callee.span.start(),
        };
        let saved = self.conv_cc.replace(cc);
        let r = self.call_inner(callee, args, span);
        self.conv_cc = saved;
        let noreturn = match &r.kind {
            ExprKind::Call { callee, .. } => {
                self.func_attrs.get(callee).is_some_and(|a| a.noreturn)
            }
            ExprKind::BuiltinCall { builtin, .. } => self.noreturn_builtins.contains(&builtin.name),
            _ => false,
        };
        if noreturn {
            self.flow_abort();
        }
        r
    }

    fn call_inner(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Expr {
        // A name that is not declared may be a builtin function.
        let mut inner = callee;
        while let AK::Paren(x) = &inner.kind {
            inner = x;
        }
        if let AK::Ident(name) = inner.kind
            && self.scopes.lookup(name).is_none()
        {
            return self.builtin_call(name, inner.span, args, span);
        }
        let f = self.expr(callee);
        if f.is_error() {
            for a in args {
                let _ = self.expr(a);
            }
            return Expr::error(span);
        }
        let fid = match &f.kind {
            ExprKind::Func(id) => Some(*id),
            _ => None,
        };
        // The signature is kept as its type (interned: it stays put while the checks below
        // add types), not cloned for every call.
        let types = &self.prog.types;
        let sig = match types.fn_sig(f.ty) {
            Some(_) => Some(f.ty),
            None => types.pointee(f.ty).filter(|&p| types.fn_sig(p).is_some()),
        };
        let Some(sig) = sig else {
            let r = self.rvalue(f);
            let t = self.prog.types.quoted(r.ty);
            self.err(
                span,
                format!("called object type {t} is not a function or function pointer"),
            );
            return Expr::error(span);
        };
        let mut checked = crate::hir::expr_list();
        checked.extend(args.iter().map(|a| self.expr(a)));
        let (fid, sig) = match fid.and_then(|id| self.pick_overload(id, &checked)) {
            Some(Pick::Ambiguous(cands)) => {
                let name = fid
                    .and_then(|f| self.prog.function(f))
                    .map_or(String::new(), |f| f.name.to_string());
                let mut d = oclc_syntax::Diagnostic::error(
                    self.conv_cc.unwrap_or(span),
                    format!("call to '{name}' is ambiguous"),
                );
                for c in cands {
                    if let Some(f) = self.prog.function(c) {
                        d = d.with_note(f.span, "candidate function");
                    }
                }
                self.emit(d);
                return Expr::error(span);
            }
            Some(Pick::Best(best)) => {
                let s = self
                    .prog
                    .function(best)
                    .map(|f| QualType::new(f.ty))
                    .filter(|&t| self.prog.types.fn_sig(t).is_some());
                (Some(best), s.unwrap_or(sig))
            }
            None => (fid, sig),
        };
        let Some((n, has_proto, variadic, ret)) = self
            .prog
            .types
            .fn_sig(sig)
            .map(|s| (s.params.len(), s.has_proto, s.variadic, s.ret))
        else {
            return Expr::error(span);
        };
        if has_proto && (checked.len() < n || (checked.len() > n && !variadic)) {
            let few = checked.len() < n;
            let at = arity_at(&checked.iter().map(|a| a.span).collect::<Vec<_>>(), n, span);
            self.err(
                at,
                format!(
                    "too {} arguments to function call, expected {}{n}, have {}",
                    if few { "few" } else { "many" },
                    if variadic { "at least " } else { "" },
                    checked.len()
                ),
            );
            return Expr::error(span);
        }
        // Converted in place: the list becomes the call's.
        let mut failed = false;
        for (i, slot) in checked.iter_mut().enumerate() {
            let a = std::mem::replace(slot, Expr::error(span));
            if a.is_error() {
                failed = true;
                continue;
            }
            let param = self
                .prog
                .types
                .fn_sig(sig)
                .and_then(|s| s.params.get(i).copied());
            match param {
                Some(p) => {
                    let at = a.span;
                    // The parameter as declared keeps its typedef sugar for the message.
                    let declared = fid
                        .and_then(|f| self.prog.function(f))
                        .and_then(|f| f.params.get(i).copied())
                        .and_then(|v| self.prog.var(v))
                        .map(|v| v.ty)
                        .filter(|&t| {
                            let ty = &self.prog.types;
                            ty.canonical(t).with_space(None) == ty.canonical(p).with_space(None)
                        });
                    let dst_print = declared.unwrap_or(p).with_space(None);
                    let before = self.diags.list.len();
                    let c = self.assign_convert(p, dst_print, a, Action::Passing, at);
                    if !c.is_error() && self.diags.list.len() > before {
                        // clang notes the parameter after a conversion warning too.
                        self.param_note(fid, i);
                    }
                    if c.is_error() {
                        // clang stops checking a call at its first argument that does not
                        // convert (Sema::GatherArgumentsForCall), so later ones get no error.
                        self.param_note(fid, i);
                        return Expr::error(span);
                    }
                    *slot = c;
                }
                None => {
                    let r = self.rvalue(a);
                    *slot = self.default_arg_promotion(r);
                }
            }
        }
        if failed {
            return Expr::error(span);
        }
        let ret = ret.unqualified();
        match fid {
            Some(id) => self.mk(
                ExprKind::Call {
                    callee: id,
                    args: checked,
                },
                ret,
                span,
            ),
            None => {
                self.err(span, "calls through function pointers are not supported");
                Expr::error(span)
            }
        }
    }

    /// clang's "passing argument to parameter 'x' here" note.
    fn param_note(&mut self, fid: Option<crate::hir::FuncId>, i: usize) {
        let Some(fid) = fid else { return };
        let Some(f) = self.prog.function(fid) else {
            return;
        };
        let Some(&vid) = f.params.get(i) else { return };
        let Some(v) = self.prog.var(vid) else { return };
        let (span, name) = (v.span, v.name.as_str());
        let msg = if name.is_empty() {
            "passing argument to parameter here".to_string()
        } else {
            format!("passing argument to parameter '{name}' here")
        };
        self.note_last(span, msg);
    }

    /// Variadic arguments: float becomes double, small integers int.
    fn default_arg_promotion(&mut self, e: Expr) -> Expr {
        match self.prog.types.as_scalar(e.ty) {
            Some(Scalar::Float | Scalar::Half) if self.lang.fp64() => {
                self.convert_scalar(e, Scalar::Double)
            }
            Some(_) => self.promote(e),
            None => e,
        }
    }

    /// The parser's deferred "expected ')'" at `at` for a call whose `)` is missing: clang
    /// reports it unless the callee is undeclared (then the call is invalid and the rest of
    /// the argument list is skipped silently).
    pub(crate) fn unclosed_call(&mut self, callee: &ast::Expr, at: Span, parens: Span) {
        if let AK::Ident(name) = callee.kind
            && self.scopes.lookup(name).is_none()
        {
            let s = name.as_str();
            let space_fn = (space::to_addr_target(s).is_some() || s == "get_fence")
                && space::addr_space_builtins_available(&self.lang);
            if !space_fn && !self.is_builtin_name(name) {
                return;
            }
        }
        let open = Span {
            hi: parens.lo.saturating_add(1),
            ..parens
        };
        self.emit(
            Diagnostic::error(at, "expected ')'")
                .with_note(open, "to match this '('")
                .emitted_at(at),
        );
    }

    /// A call of an undeclared name: the address-space functions (rules 55–59), or a builtin
    /// from the builtin table, or an undeclared identifier.
    fn builtin_call(
        &mut self,
        name: Symbol,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let s = name.as_str();
        let is_space_fn = space::to_addr_target(s).is_some() || s == "get_fence";
        if is_space_fn {
            if !space::addr_space_builtins_available(&self.lang) {
                self.err(name_span, format!("use of undeclared identifier '{name}'"));
                for a in args {
                    let _ = self.expr(a);
                }
                return Expr::error(span);
            }
            return self.space_fn_call(s, args, span);
        }
        // GNU builtins convert their arguments as C calls do, which name an lvalue argument
        // by its own type ('__global int *__private'), and `as_*` names its operand so too;
        // the others take rvalues.
        let lvalue_args = self.builtins.lookup(name).is_some_and(|id| {
            matches!(
                self.builtins.special(id),
                Some(crate::builtins::Special::Gnu | crate::builtins::Special::AsType(_))
            )
        });
        let mark = self.pending_typos.len();
        let checked: Vec<Expr> = args
            .iter()
            .map(|a| {
                if lvalue_args {
                    self.expr(a)
                } else {
                    self.rexpr(a)
                }
            })
            .collect();
        if checked.iter().any(Expr::is_error) {
            // Still report an unknown name.
            if !self.is_builtin_name(name) {
                self.uncorrect_typos_since(mark);
                // clang reports the callee first (its typo was seen first).
                let at = mark.min(self.pending_typos.len());
                self.pending_typos.insert(at, (name, name_span, None));
            }
            return Expr::error(span);
        }
        let format_args = matches!(s, "printf" | "__builtin_printf").then(|| checked.clone());
        let r = self.resolve_builtin_call(name, name_span, checked, span);
        if let Some(checked) = format_args
            && !r.is_error()
        {
            self.check_printf_format(args, &checked);
        }
        if let Some(&(n, s, fix)) = self.pending_typos.last()
            && n == name
            && s == name_span
            && mark < self.pending_typos.len()
        {
            // clang reports the callee first (its typo was seen first); with no correction
            // the call cannot be valid, so no typo in its arguments is corrected either.
            let callee = self.pending_typos.pop();
            if fix.is_none() {
                self.uncorrect_typos_since(mark);
            }
            if let Some(c) = callee {
                self.pending_typos.insert(mark, c);
            }
        }
        r
    }

    /// `to_global`/`to_local`/`to_private`/`get_fence` (rules 56–59).
    fn space_fn_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        if args.len() != 1 {
            let checked: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
            let few = checked.is_empty();
            let at = arity_at(&checked.iter().map(|a| a.span).collect::<Vec<_>>(), 1, span);
            self.err(
                at,
                format!(
                    "too {} arguments to function call, expected 1, have {}",
                    if few { "few" } else { "many" },
                    checked.len()
                ),
            );
            return Expr::error(span);
        }
        let a = self.rexpr(&args[0]);
        if a.is_error() {
            return Expr::error(span);
        }
        let pointee = self.prog.types.pointee_sugared(a.ty);
        let kind = space::to_addr_argument(
            pointee.is_some(),
            pointee.and_then(|p| self.prog.types.object_space(p)),
        );
        if name == "get_fence" {
            if kind == ToAddrArg::Invalid {
                self.err(span, "no matching function for call to 'get_fence'");
                return Expr::error(span);
            }
            let ty = self.predef_named("cl_mem_fence_flags", QualType::new(TypeTable::UINT));
            return self.mk(ExprKind::GetFence(crate::hir::boxed(a)), ty, span);
        }
        let target = space::to_addr_target(name).unwrap_or(AddrSpace::Generic);
        match kind {
            ToAddrArg::Invalid => {
                let text = format!("'{}'", self.snippet(a.span));
                self.err(a.span, space::to_addr_invalid_message(&text, name));
                return Expr::error(span);
            }
            ToAddrArg::NamedWarn => {
                self.warn(a.span, space::to_addr_named_warning(name), "conversion");
            }
            ToAddrArg::Generic => {}
        }
        let Some(p) = pointee else {
            return Expr::error(span);
        };
        let np = self
            .prog
            .types
            .set_object_space(p, Some(LangAs::Named(target)));
        let ty = QualType::new(self.prog.types.pointer(np));
        // The argument itself is passed as a generic pointer.
        let gp = self.prog.types.set_object_space(p, Some(LangAs::GENERIC));
        let gty = QualType::new(self.prog.types.pointer(gp));
        let a = self.implicit_to(a, gty);
        self.mk(
            ExprKind::ToAddrSpace {
                target,
                arg: crate::hir::boxed(a),
            },
            ty,
            span,
        )
    }
}

/// Where clang reports a wrong argument count: the first extra argument, or the closing
/// parenthesis when arguments are missing.
pub(crate) fn arity_at(args: &[Span], expected: usize, call: Span) -> Span {
    match args.get(expected) {
        Some(&s) => s,
        None => Span {
            lo: call.hi.saturating_sub(1),
            ..call
        },
    }
}

/// What overload resolution over a user overload set found.
enum Pick {
    /// The best viable function.
    Best(FuncId),
    /// Several viable functions, none better than the others (clang: "call to 'f' is
    /// ambiguous").
    Ambiguous(Vec<FuncId>),
}

impl Checker<'_> {
    /// For a function of an overload set (`__attribute__((overloadable))`), the member the
    /// checked arguments select as clang does: among the viable ones (right arity, every
    /// argument converts), the one whose every conversion ranks no worse than each other's
    /// and one better. `None`: not an overload set, or nothing viable (the call is then
    /// checked against the declaration the name found, which reports why).
    fn pick_overload(&self, fid: FuncId, args: &[Expr]) -> Option<Pick> {
        let name = self.prog.function(fid)?.name;
        let set = self.fn_overloads.get(&name)?;
        if !set.contains(&fid) {
            return None;
        }
        let bargs = self.builtin_args(args);
        let mut viable: Vec<(FuncId, Vec<crate::builtins::Conv>)> = Vec::new();
        for &g in set {
            let Some(sig) = self
                .prog
                .function(g)
                .and_then(|f| self.prog.types.fn_sig(QualType::new(f.ty)))
            else {
                continue;
            };
            if sig.params.len() != bargs.len() && !(sig.variadic && bargs.len() >= sig.params.len())
            {
                continue;
            }
            let convs: Option<Vec<_>> = sig
                .params
                .iter()
                .zip(&bargs)
                .map(|(p, a)| crate::builtins::convert(a, self.to_bty(*p)).ok())
                .collect();
            if let Some(c) = convs {
                viable.push((g, c));
            }
        }
        // clang's `isBetterOverloadCandidate`: by rank, then (`f(T *)` over `f(const T *)`
        // for a `T *`) by qualification.
        let better = |a: &[crate::builtins::Conv], b: &[crate::builtins::Conv]| {
            crate::builtins::better_candidate(&bargs, a, b)
        };
        let best = viable
            .iter()
            .find(|(g, r)| viable.iter().all(|(h, q)| h == g || better(r, q)));
        match best {
            Some((g, _)) => Some(Pick::Best(*g)),
            None if viable.len() > 1 => Some(Pick::Ambiguous(viable.iter().map(|v| v.0).collect())),
            None => viable.first().map(|v| Pick::Best(v.0)),
        }
    }
}
