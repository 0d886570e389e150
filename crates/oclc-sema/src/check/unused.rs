//! clang's unused-result warnings (`Sema::DiagnoseUnusedExprResult`): an expression statement,
//! a `for` clause or the left operand of a comma whose value is computed for nothing.
//!
//! Which expressions warn follows `Expr::isUnusedResultAWarning`: operators other than
//! assignments and `++`/`--`, names, literals, member accesses, subscripts and casts (not
//! calls, except of `const`/`pure`/`warn_unused_result` functions); a comma looks at its right
//! operand, `?:` at both branches, `&&`/`||` only when one side has no side effects. Where the
//! expression comes from a macro's body (not from a macro argument) clang stays quiet, except
//! for `warn_unused_result` calls. "expression result unused" is held until the end of the
//! function ([`Checker::warn_runtime`]); comparisons and calls are reported at once.

use oclc_syntax::ast::{self, BinOp as AB, ExprKind as AK, UnaryOp};
use oclc_syntax::{Diagnostic, ExpnId, Note, Span};

use super::Checker;
use crate::hir::{Expr, ExprKind};
use crate::types::Quals;

/// Which unused result is diagnosed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unused {
    /// An expression statement or a `for` clause: "expression result unused".
    Statement,
    /// The left operand of `,`: "left operand of comma operator has no effect".
    CommaLeft,
    /// The right operand of a comma that is itself the left operand of `,` (`b` in the
    /// parenthesized list `(a, b, c)`), checked as its comma would be.
    CommaLeftTail,
}

/// The function attributes that calls care about: those that make an unused call result worth
/// a warning, and `noreturn` (`__attribute__((noreturn))`, `_Noreturn`), after which a call's
/// code cannot go on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CallAttrs {
    pub is_const: bool,
    pub is_pure: bool,
    pub warn_unused_result: bool,
    pub noreturn: bool,
}

/// What `isUnusedResultAWarning` found: the location, the ranges, and the expression the
/// warning is about (with its checked form when known).
struct Found<'a> {
    loc: Span,
    ranges: Vec<Span>,
    node: &'a ast::Expr,
    hir: Option<&'a Expr>,
}

/// Whether `span` was written in a macro's replacement list (clang's `isMacroBodyExpansion`;
/// tokens of a macro argument keep their own location).
fn in_macro_body(span: Span) -> bool {
    span.expn != ExpnId::NONE
}

/// `e` without the parentheses around it.
pub(crate) fn strip_parens_pub(e: &ast::Expr) -> &ast::Expr {
    strip_parens(e)
}

fn strip_parens(e: &ast::Expr) -> &ast::Expr {
    let mut x = e;
    while let AK::Paren(i) = &x.kind {
        x = i;
    }
    x
}

/// clang's `getExprLoc`: the operator of an operator expression, the member name of a member
/// access, the start otherwise.
pub(crate) fn expr_loc(e: &ast::Expr) -> Span {
    let e = strip_parens(e);
    match &e.kind {
        AK::Binary { op_span, .. } | AK::Assign { op_span, .. } | AK::Unary { op_span, .. } => {
            *op_span
        }
        AK::Member { name, .. } => name.span,
        AK::Index { base, .. } => expr_loc(base),
        _ => e.span.start(),
    }
}

/// The checked expression under the implicit conversions sema added (explicit casts span
/// their parentheses, implicit ones the operand's span).
fn strip_implicit(e: &Expr) -> &Expr {
    let mut x = e;
    while let ExprKind::Cast(_, inner) = &x.kind {
        if inner.span != x.span {
            break;
        }
        x = inner;
    }
    x
}

impl Checker<'_> {
    /// clang's `DiagnoseUnusedExprResult` for `e` (checked as `x`).
    pub(crate) fn diagnose_unused(&mut self, e: &ast::Expr, x: Option<&Expr>, kind: Unused) {
        if x.is_some_and(Expr::is_error) || self.unevaluated > 0 {
            return;
        }
        let suppress = in_macro_body(expr_loc(e));
        let Some(found) = self.unused_result_warning(e, x, 0) else {
            return;
        };
        if kind != Unused::CommaLeftTail && self.unused_comparison(e, x) {
            return;
        }
        // A cast that changes nothing (`(int)f()` of an `int` call) looks through.
        let (mut node, mut hir) = (found.node, found.hir);
        if let AK::Cast { expr, .. } = &node.kind
            && let Some(h) = hir
            && let ExprKind::Cast(_, inner) = &h.kind
        {
            let inner = strip_implicit(inner);
            let types = &self.prog.types;
            let same = types.canonical(h.ty).id == types.canonical(inner.ty).id;
            let ints = types.is_integer(h.ty) && types.is_integer(inner.ty);
            if same || ints {
                node = strip_parens(expr);
                hir = Some(inner);
            }
        }
        if let AK::Call { .. } = &node.kind {
            let Some(h) = hir.map(strip_implicit) else {
                return;
            };
            if self.prog.types.is_void(h.ty) {
                return;
            }
            let attrs = match &node.kind {
                AK::Call { callee, .. } => self.call_node_attrs(callee, h),
                _ => self.call_attrs(h),
            };
            let which = if attrs.warn_unused_result {
                let d = Diagnostic::warning(
                    found.loc,
                    "ignoring return value of function declared with 'warn_unused_result' attribute",
                )
                .with_group("unused-result");
                self.emit(with_ranges(d, &found.ranges));
                return;
            } else if suppress {
                return;
            } else if attrs.is_pure {
                Some("pure")
            } else if attrs.is_const {
                Some("const")
            } else {
                // A plain call under a cast: the cast's result is what goes unused.
                None
            };
            if let Some(which) = which {
                let d = Diagnostic::warning(
                    found.loc,
                    format!("ignoring return value of function declared with {which} attribute"),
                )
                .with_group("unused-value");
                self.emit(with_ranges(d, &found.ranges));
                return;
            }
        }
        if suppress {
            return;
        }
        let msg = match kind {
            Unused::Statement => "expression result unused",
            Unused::CommaLeft | Unused::CommaLeftTail => {
                "left operand of comma operator has no effect"
            }
        };
        let d = Diagnostic::warning(found.loc, msg).with_group("unused-value");
        self.warn_runtime(with_ranges(d, &found.ranges));
    }

    /// clang's `DiagnoseUnusedComparison`: a comparison (not in parentheses) whose result is
    /// unused, reported at once with a note suggesting the assignment it may have meant.
    fn unused_comparison(&mut self, e: &ast::Expr, x: Option<&Expr>) -> bool {
        let AK::Binary {
            op, op_span, lhs, ..
        } = &e.kind
        else {
            return false;
        };
        let what = match op {
            AB::Eq => "equality",
            AB::Ne => "inequality",
            AB::Lt | AB::Gt | AB::Le | AB::Ge => "relational",
            _ => return false,
        };
        if in_macro_body(*op_span) {
            return false;
        }
        let d = Diagnostic::warning(*op_span, format!("{what} comparison result unused"))
            .with_group("unused-comparison")
            .with_range(self.source_range(e));
        let lhs_lvalue = match x.map(strip_implicit).map(|h| &h.kind) {
            Some(ExprKind::Binary(_, l, _)) => strip_implicit(l).lvalue,
            _ => matches!(
                strip_parens(lhs).kind,
                AK::Ident(_) | AK::Index { .. } | AK::Member { .. }
            ),
        };
        let d = match op {
            AB::Eq if lhs_lvalue => d.with_full_note(
                Note::new(
                    *op_span,
                    "use '=' to turn this equality comparison into an assignment",
                )
                .with_fixit(*op_span, "="),
            ),
            AB::Ne if lhs_lvalue => d.with_full_note(
                Note::new(
                    *op_span,
                    "use '|=' to turn this inequality comparison into an or-assignment",
                )
                .with_fixit(*op_span, "|="),
            ),
            _ => d,
        };
        self.emit(d);
        true
    }

    /// clang's `Expr::isUnusedResultAWarning` on `e` (checked as `x` when known).
    fn unused_result_warning<'a>(
        &self,
        e: &'a ast::Expr,
        x: Option<&'a Expr>,
        depth: u32,
    ) -> Option<Found<'a>> {
        if depth > 256 {
            return None;
        }
        let d = depth + 1;
        // Reading a volatile object is a side effect.
        if let Some(h) = x
            && h.lvalue
            && self.prog.types.canonical(h.ty).quals.cvr & Quals::VOLATILE != 0
        {
            return None;
        }
        let found = |loc: Span, ranges: Vec<Span>| Found {
            loc,
            ranges,
            node: e,
            hir: x,
        };
        match &e.kind {
            AK::Paren(inner) => self.unused_result_warning(inner, x, d),
            AK::Unary { op, op_span, expr } => match op {
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => None,
                _ => Some(found(*op_span, vec![expr.span])),
            },
            AK::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => match op {
                AB::Comma => {
                    // `((x = ...), 0)` hides a result on purpose.
                    if let AK::IntLit(l) = &strip_parens(rhs).kind
                        && l.value == 0
                    {
                        return None;
                    }
                    let r = match x.map(strip_implicit).map(|h| &h.kind) {
                        Some(ExprKind::Comma(_, r)) => Some(&**r),
                        _ => None,
                    };
                    self.unused_result_warning(rhs, r, d)
                }
                AB::LogAnd | AB::LogOr => {
                    // Either side's effects make the whole worth evaluating.
                    if let Some(ExprKind::Binary(_, a, b)) = x.map(strip_implicit).map(|h| &h.kind)
                        && (self.may_have_side_effects(a) || self.may_have_side_effects(b))
                    {
                        return None;
                    }
                    Some(found(*op_span, vec![lhs.span, rhs.span]))
                }
                _ => Some(found(
                    *op_span,
                    vec![self.source_range(lhs), self.source_range(rhs)],
                )),
            },
            AK::Assign { .. } => None,
            AK::Cond { then, else_, .. } => {
                let (t, f) = match x.map(strip_implicit).map(|h| &h.kind) {
                    Some(ExprKind::Cond(_, t, f)) => (Some(&**t), Some(&**f)),
                    _ => (None, None),
                };
                let first = self.unused_result_warning(then, t, d)?;
                let mut second = self.unused_result_warning(else_, f, d)?;
                // clang's second range is left over from the first branch when the second
                // sets none.
                if second.ranges.len() < 2
                    && let Some(&r2) = first.ranges.get(1)
                {
                    second.ranges.truncate(1);
                    second.ranges.push(r2);
                }
                Some(second)
            }
            // A vector swizzle is no member access for clang.
            AK::Member { .. } if x.is_some_and(|h| matches!(h.kind, ExprKind::Swizzle { .. })) => {
                Some(found(e.span.start(), vec![e.span]))
            }
            AK::Member { name, base, .. } => Some(found(name.span, vec![name.span, base.span])),
            AK::Index {
                base,
                index,
                brackets,
            } => {
                let rb = Span {
                    lo: brackets.hi.saturating_sub(1),
                    ..*brackets
                };
                Some(found(rb, vec![base.span, index.span]))
            }
            AK::Call { callee, args, .. } => {
                let h = x.map(strip_implicit)?;
                let a = self.call_node_attrs(callee, h);
                if !(a.is_const || a.is_pure || a.warn_unused_result) {
                    return None;
                }
                let mut ranges = vec![callee.span];
                if let (Some(f), Some(l)) = (args.first(), args.last()) {
                    ranges.push(f.span.to(l.span));
                }
                Some(found(callee.span.start(), ranges))
            }
            AK::Cast { parens, expr, .. } => {
                if x.is_some_and(|h| self.prog.types.is_void(h.ty)) {
                    return None;
                }
                // A vector literal's operand is its element list, without the parentheses.
                let vector = x.is_some_and(|h| self.prog.types.as_vector(h.ty).is_some());
                let range = match &expr.kind {
                    AK::Paren(i) if vector => i.span,
                    AK::ParenList(items) if vector => match (items.first(), items.last()) {
                        (Some(f), Some(l)) => f.span.to(l.span),
                        _ => expr.span,
                    },
                    _ => expr.span,
                };
                Some(found(parens.start(), vec![range]))
            }
            AK::ChooseExpr { .. } => None,
            _ => {
                if x.is_some_and(|h| self.prog.types.is_void(h.ty)) {
                    return None;
                }
                Some(found(expr_loc(e), vec![e.span]))
            }
        }
    }

    /// The source range of `e` as clang underlines it: from its first to its last token, each
    /// taken at the macro use it comes from when the two are in different expansions.
    pub(crate) fn source_range(&self, e: &ast::Expr) -> Span {
        let (first, last) = (edge(e, true), edge(e, false));
        if first.expn == last.expn {
            return first.to(last);
        }
        let (a, b) = (self.sm.report_span(first), self.sm.report_span(last));
        if a.file == b.file && b.hi >= a.lo {
            Span { hi: b.hi, ..a }
        } else {
            e.span
        }
    }

    /// The attributes of the function a call (callee `callee`, checked as `h`) calls; a GNU
    /// builtin call folded to its value is still a call of a `const` builtin.
    fn call_node_attrs(&self, callee: &ast::Expr, h: &Expr) -> CallAttrs {
        if !matches!(h.kind, ExprKind::Call { .. } | ExprKind::BuiltinCall { .. })
            && let AK::Ident(n) = &strip_parens(callee).kind
        {
            return gnu_builtin_attrs(n.as_str());
        }
        self.call_attrs(h)
    }

    /// The attributes of the function a checked call calls.
    pub(crate) fn call_attrs(&self, h: &Expr) -> CallAttrs {
        match &h.kind {
            ExprKind::Call { callee, .. } => {
                self.func_attrs.get(callee).copied().unwrap_or_default()
            }
            ExprKind::BuiltinCall { builtin, .. } => {
                let name = builtin.name.as_str();
                if name.starts_with("__builtin_") {
                    return gnu_builtin_attrs(name);
                }
                let a = self.builtins.attrs(builtin.overload);
                CallAttrs {
                    is_const: a.is_const,
                    is_pure: a.is_pure,
                    ..CallAttrs::default()
                }
            }
            _ => CallAttrs::default(),
        }
    }

    /// Records the attributes of function `f` that matter for its calls (`noreturn` also comes
    /// from the `_Noreturn` specifier).
    pub(crate) fn record_call_attrs<'x>(
        &mut self,
        f: crate::hir::FuncId,
        specs: &ast::DeclSpecs,
        attrs: impl Iterator<Item = &'x ast::Attribute>,
    ) {
        let mut a = self.func_attrs.get(&f).copied().unwrap_or_default();
        a.noreturn |= specs
            .items
            .iter()
            .any(|d| matches!(d.kind, ast::DeclSpecKind::Func(ast::FuncSpec::Noreturn)));
        for at in attrs {
            match at.name.name.as_str().trim_matches('_') {
                "const" => a.is_const = true,
                "pure" => a.is_pure = true,
                "warn_unused_result" => a.warn_unused_result = true,
                "noreturn" => a.noreturn = true,
                _ => {}
            }
        }
        if a != CallAttrs::default() {
            self.func_attrs.insert(f, a);
        }
    }
}

/// The span of the first (or last) token-level part of an operator expression.
fn edge(e: &ast::Expr, first: bool) -> Span {
    let mut x = e;
    for _ in 0..4096 {
        let next = match &x.kind {
            AK::Binary { lhs, rhs, .. } | AK::Assign { lhs, rhs, .. } => {
                if first {
                    lhs
                } else {
                    rhs
                }
            }
            AK::Cond { cond, else_, .. } => {
                if first {
                    cond
                } else {
                    else_
                }
            }
            _ => return x.span,
        };
        x = next;
    }
    x.span
}

/// clang's GNU builtins are `const`, but for these.
fn gnu_builtin_attrs(name: &str) -> CallAttrs {
    let not_const = !name.starts_with("__builtin_")
        || matches!(
            name,
            "__builtin_trap"
                | "__builtin_unreachable"
                | "__builtin_assume"
                | "__builtin_assume_aligned"
                | "__builtin_nan"
                | "__builtin_nanf"
                | "__builtin_prefetch"
                | "__builtin_printf"
                | "__builtin_readcyclecounter"
                | "__builtin_frexp"
                | "__builtin_frexpf"
                | "__builtin_frexpf16"
                | "__builtin_modf"
                | "__builtin_modff"
        );
    CallAttrs {
        is_const: !not_const,
        noreturn: matches!(name, "__builtin_trap" | "__builtin_unreachable"),
        ..CallAttrs::default()
    }
}

fn with_ranges(mut d: Diagnostic, ranges: &[Span]) -> Diagnostic {
    for r in ranges {
        d = d.with_range(*r);
    }
    d
}
