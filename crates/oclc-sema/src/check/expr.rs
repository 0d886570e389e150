//! Expressions: literals, names, operators (with OpenCL vector semantics and the address-space
//! rules for pointer comparison, subtraction and `?:`), calls, member access and swizzles,
//! casts and vector literals, `sizeof`/`vec_step`/`_Alignof`.

use oclc_syntax::ast::{self, BinOp as AB, ExprKind as AK, FloatSuffix, UnaryOp};
use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use super::flow::Reach;
use super::scope::Binding;
use super::unused::Unused;
use crate::hir::{BinOp, CastKind, Expr, ExprKind, UnOp};
use crate::space::{self, PointerOp};
use crate::types::{ArrayLen, LangAs, Opaque, QualType, Quals, Scalar, TypeKind, TypeTable};

impl Checker<'_> {
    /// Checks an expression; the result is not yet converted to an rvalue.
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Expr {
        if !self.enter(e.span) {
            return Expr::error(e.span);
        }
        let r = self.expr_inner(e);
        self.leave();
        r
    }

    /// Checks an expression and converts it to an rvalue.
    pub(crate) fn rexpr(&mut self, e: &ast::Expr) -> Expr {
        let x = self.expr(e);
        self.rvalue(x)
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            AK::Error => Expr::error(span),
            AK::IntLit(l) => {
                self.imaginary_constant(l.spelling, span);
                self.int_lit(l, span)
            }
            AK::FloatLit(f) => {
                self.imaginary_constant(f.spelling, span);
                let s = match f.suffix {
                    FloatSuffix::F => Scalar::Float,
                    FloatSuffix::H => Scalar::Half,
                    FloatSuffix::None | FloatSuffix::L => {
                        if self.lang.fp64() {
                            Scalar::Double
                        } else {
                            let what = if self.lang.std >= oclc_syntax::ClStd::Cl30 {
                                "cl_khr_fp64 and __opencl_c_fp64"
                            } else {
                                "cl_khr_fp64"
                            };
                            // An ungrouped warning in clang (no -W flag controls it).
                            self.emit(oclc_syntax::Diagnostic::warning(
                                span,
                                format!("double precision constant requires {what}, casting to single precision"),
                            ));
                            Scalar::Float
                        }
                    }
                };
                let ty = self.scalar_ty(s);
                self.mk(ExprKind::FloatLit(f.value), ty, span)
            }
            AK::CharLit(c) => self.mk(ExprKind::IntLit(c.value as u64), self.int_ty(), span),
            AK::BoolLit(b) => {
                let ty = self.scalar_ty(Scalar::Bool);
                self.mk(ExprKind::IntLit(u64::from(*b)), ty, span)
            }
            AK::StrLit(s) => {
                let ty = self.string_type(s.value.len() as u64 + 1, false);
                Expr {
                    kind: ExprKind::StrLit(s.value.clone()),
                    ty,
                    span,
                    lvalue: true,
                }
            }
            AK::FuncName => {
                let name = self.func.as_ref().map(|f| f.name.as_str()).unwrap_or("");
                let ty = self.string_type(name.len() as u64 + 1, true);
                Expr {
                    kind: ExprKind::StrLit(name.as_bytes().to_vec()),
                    ty,
                    span,
                    lvalue: true,
                }
            }
            AK::Ident(name) => self.ident(*name, span),
            AK::Paren(inner) => {
                let mark = self.pending_typos.len();
                let mut x = self.expr(inner);
                // C corrects typos at the `)` (clang's `ParseParenExpression`).
                self.flush_typos_from(mark, Some(span));
                x.span = span;
                x
            }
            AK::ParenList(items) => {
                // Outside a cast: a parenthesized comma expression.
                self.comma_list(items, span)
            }
            AK::Unary { op, op_span, expr } => self.unary(*op, *op_span, expr, span),
            AK::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(*op, *op_span, lhs, rhs, span),
            AK::Assign {
                op,
                op_span,
                lhs,
                rhs,
            } => self.assign(*op, *op_span, lhs, rhs, span),
            AK::Cond {
                cond,
                then,
                else_,
                question,
                ..
            } => self.conditional(cond, then, else_, *question, span),
            AK::Call {
                callee,
                args,
                parens,
                unclosed,
            } => {
                if let Some(at) = *unclosed {
                    self.unclosed_call(callee, at, *parens);
                }
                self.call(callee, args, span)
            }
            AK::Index { base, index, .. } => self.index(base, index, span),
            AK::Member {
                base,
                arrow,
                name,
                op_span,
            } => self.member(base, *arrow, *name, *op_span, span),
            AK::Cast { ty, parens, expr } => self.cast_expr(ty, *parens, expr, span),
            AK::CompoundLit { ty, init } => {
                let t = self.type_name(ty);
                let init = ast::Initializer::List(init.clone());
                match self.initializer(t, &init, false, span) {
                    Some(i) => {
                        let t = self.complete_array_from_init(t, &i);
                        Expr {
                            kind: ExprKind::InitList(Box::new(i)),
                            ty: t,
                            span,
                            lvalue: true,
                        }
                    }
                    None => Expr::error(span),
                }
            }
            AK::SizeOf(arg) => {
                let t = self.type_or_expr_type(arg);
                if self.prog.types.is_error(t) {
                    return Expr::error(span);
                }
                match self.prog.types.size_of(t) {
                    Some(n) if !self.prog.types.is_void(t) => {
                        let ty = self.size_t();
                        self.mk(ExprKind::IntLit(n), ty, span)
                    }
                    _ => {
                        let q = self.prog.types.quoted(t);
                        if self.prog.types.fn_sig(t).is_some() {
                            self.err(span, "invalid application of 'sizeof' to a function type");
                        } else if self.prog.types.is_void(t) {
                            self.err(span, "invalid application of 'sizeof' to a void type");
                        } else {
                            self.err(
                                span,
                                format!(
                                    "invalid application of 'sizeof' to an incomplete type {q}"
                                ),
                            );
                        }
                        Expr::error(span)
                    }
                }
            }
            AK::VecStep(arg) => {
                let t = self.type_or_expr_type(arg);
                let n = match self.prog.types.as_vector(t) {
                    Some((_, n)) => {
                        if n == 3 {
                            4
                        } else {
                            u64::from(n)
                        }
                    }
                    None if self.prog.types.is_arithmetic(t) => 1,
                    None => {
                        if !self.prog.types.is_error(t) {
                            let q = self.prog.types.quoted(t);
                            self.err(span, format!("'vec_step' requires built-in scalar or vector type, {q} invalid"));
                        }
                        return Expr::error(span);
                    }
                };
                self.mk(ExprKind::IntLit(n), self.int_ty(), span)
            }
            AK::OffsetOf { ty, path } => self.offsetof(ty, path, span),
            AK::BitCast { ty, expr } => self.bit_cast(ty, expr, span),
            AK::ChooseExpr { cond, then, els } => self.choose_expr(cond, then, els, span),
            AK::StmtExpr { body, parens } => self.stmt_expr(body, *parens, span),
            AK::AsType { expr, ty } => {
                let to = self.type_name(ty);
                let x = self.expr(expr);
                // clang names the operand's type as written, an lvalue's with its qualifiers
                // and address space (`'__private U64'`).
                let written = x.ty;
                let x = self.rvalue(x);
                if x.is_error() || self.prog.types.is_error(to) {
                    return Expr::error(span);
                }
                let (fs, ts) = (self.prog.types.size_of(x.ty), self.prog.types.size_of(to));
                if fs.is_none() || fs != ts {
                    let (a, b) = (self.prog.types.quoted(to), self.prog.types.quoted(written));
                    self.err(
                        span,
                        format!("invalid reinterpretation: sizes of {a} and {b} must match"),
                    );
                    return Expr::error(span);
                }
                let mut c = self.cast(CastKind::Reinterpret, x, to.unqualified());
                c.span = span;
                c
            }
            AK::AlignOf { arg, .. } => {
                let t = self.type_or_expr_type(arg);
                match self.prog.types.align_of(t) {
                    Some(n) => {
                        let ty = self.size_t();
                        self.mk(ExprKind::IntLit(n), ty, span)
                    }
                    None => {
                        if !self.prog.types.is_error(t) {
                            let q = self.prog.types.quoted(t);
                            self.err(
                                span,
                                format!(
                                    "invalid application of 'alignof' to an incomplete type {q}"
                                ),
                            );
                        }
                        Expr::error(span)
                    }
                }
            }
        }
    }

    pub(crate) fn size_t(&mut self) -> QualType {
        self.predef_named("size_t", QualType::new(TypeTable::ULONG))
    }

    /// String literals are `__constant char[N]` (rule 38); `__func__` is also `const`.
    fn string_type(&mut self, n: u64, is_const: bool) -> QualType {
        let cvr = if is_const { Quals::CONST } else { 0 };
        let c = QualType::new(TypeTable::CHAR).with_quals(Quals {
            cvr,
            space: Some(LangAs::Named(space::string_literal_space())),
        });
        QualType::new(self.prog.types.array(c, ArrayLen::Fixed(n)))
    }

    /// The type of a `sizeof`/`vec_step`/`_Alignof` operand; an expression operand is not
    /// evaluated (no run-time warnings in it).
    fn type_or_expr_type(&mut self, arg: &ast::TypeOrExpr) -> QualType {
        match arg {
            ast::TypeOrExpr::Type(tn) => self.type_name(tn),
            ast::TypeOrExpr::Expr(e) => {
                self.unevaluated += 1;
                let t = self.expr(e).ty;
                self.unevaluated -= 1;
                t
            }
        }
    }

    fn int_lit(&mut self, l: &ast::IntLit, span: Span) -> Expr {
        let v = l.value;
        let decimal = l.radix == 10;
        let cands: &[Scalar] = match (l.unsigned, l.long) {
            (false, 0) if decimal => &[Scalar::Int, Scalar::Long, Scalar::LongLong],
            (false, 0) => &[
                Scalar::Int,
                Scalar::UInt,
                Scalar::Long,
                Scalar::ULong,
                Scalar::LongLong,
                Scalar::ULongLong,
            ],
            (true, 0) => &[Scalar::UInt, Scalar::ULong, Scalar::ULongLong],
            (false, 1) if decimal => &[Scalar::Long, Scalar::LongLong],
            (false, 1) => &[
                Scalar::Long,
                Scalar::ULong,
                Scalar::LongLong,
                Scalar::ULongLong,
            ],
            (true, 1) => &[Scalar::ULong, Scalar::ULongLong],
            (false, _) if decimal => &[Scalar::LongLong],
            (false, _) => &[Scalar::LongLong, Scalar::ULongLong],
            (true, _) => &[Scalar::ULongLong],
        };
        let fits = |s: Scalar| {
            let bits = s.size() * 8;
            // A literal's value has 64 bits: a wider type always holds it.
            if bits > 64 {
                return true;
            }
            if s.is_signed() {
                v < (1u64 << (bits - 1))
            } else {
                bits >= 64 || v < (1u64 << bits)
            }
        };
        let s = cands
            .iter()
            .copied()
            .find(|&s| fits(s))
            .unwrap_or(Scalar::ULongLong);
        let ty = self.scalar_ty(s);
        self.mk(ExprKind::IntLit(v), ty, span)
    }

    pub(crate) fn ident(&mut self, name: Symbol, span: Span) -> Expr {
        let entry = self.scopes.lookup(name);
        // clang makes no expression of an invalid declaration (`Sema::BuildDeclarationNameExpr`
        // "only create DeclRefExpr's for valid Decl's"): its uses are silently invalid.
        if entry.is_some_and(|e| e.invalid && matches!(e.binding, Binding::Var(_))) {
            return Expr::error(span);
        }
        let binding = entry.map(|e| e.binding);
        // Only an inline function with external linkage can misuse a static name.
        if self.any_inline_external
            && let Some(b) = &binding
        {
            self.check_internal_use(b, span);
        }
        match binding {
            Some(Binding::Var(v)) => {
                let ty = self
                    .prog
                    .var(v)
                    .map_or(QualType::new(TypeTable::ERROR), |x| x.ty);
                Expr {
                    kind: ExprKind::Var(v),
                    ty,
                    span,
                    lvalue: true,
                }
            }
            Some(Binding::Func(f)) => {
                if self.unevaluated == 0 {
                    self.fn_uses.used(f, span);
                }
                let ty = self
                    .prog
                    .function(f)
                    .map_or(QualType::new(TypeTable::ERROR), |x| QualType::new(x.ty));
                Expr {
                    kind: ExprKind::Func(f),
                    ty,
                    span,
                    lvalue: false,
                }
            }
            Some(Binding::EnumConst(v, ty)) => self.mk(ExprKind::Const(v), ty, span),
            Some(Binding::Typedef(_)) => {
                self.err(
                    span,
                    format!("unexpected type name '{name}': expected expression"),
                );
                Expr::error(span)
            }
            None if self.overloaded_builtin(name) => {
                // opencl-c.h declares it several times: a use that does not call it
                // names an overload set.
                let mut d = Diagnostic::error(
                    span,
                    "reference to overloaded function could not be resolved; did you mean to call it?",
                );
                if let Some(id) = self.builtins.lookup(name) {
                    for _ in self.builtins.overloads(id) {
                        d = d.with_note(Span::DUMMY, "possible target for call");
                    }
                }
                self.emit(d);
                Expr::error(span)
            }
            None => {
                let fix = self.undeclared(name, span, super::typo::NameUse::Value);
                match fix {
                    // clang goes on with the correction.
                    Some(c) if c.decl.is_some() && self.scopes.lookup(c.name).is_some() => {
                        self.ident(c.name, span)
                    }
                    Some(c) if c.name.as_str() == "true" || c.name.as_str() == "false" => {
                        let ty = self.predef_named("bool", QualType::new(TypeTable::BOOL));
                        let v = i64::from(c.name.as_str() == "true");
                        self.mk(ExprKind::Const(v), ty, span)
                    }
                    _ => Expr::error(span),
                }
            }
        }
    }

    /// Whether `name` is a builtin the default header declares more than once (`max`,
    /// `dot`): without the header clang declares no library builtins.
    fn overloaded_builtin(&self, name: Symbol) -> bool {
        self.lang.default_header
            && self.builtins.lookup(name).is_some_and(|id| {
                self.builtins.special(id).is_none() && self.builtins.overloads(id).nth(1).is_some()
            })
    }

    fn comma_list(&mut self, items: &[ast::Expr], span: Span) -> Expr {
        let mut acc: Option<Expr> = None;
        for (i, it) in items.iter().enumerate() {
            let x = self.rexpr(it);
            acc = Some(match acc {
                None => x,
                Some(prev) => {
                    if prev.is_error() || x.is_error() {
                        Expr::error(span)
                    } else {
                        if i > 0 {
                            // `(a, b, c)` is `((a, b), c)`: the left operand is the last item
                            // before this one as far as the unused-value check goes.
                            let left = &items[i - 1];
                            let lh = match &prev.kind {
                                ExprKind::Comma(_, r) => &**r,
                                _ => &prev,
                            };
                            let kind = if i == 1 {
                                Unused::CommaLeft
                            } else {
                                Unused::CommaLeftTail
                            };
                            self.diagnose_unused(left, Some(lh), kind);
                        }
                        let ty = x.ty;
                        self.mk(
                            ExprKind::Comma(crate::hir::boxed(prev), crate::hir::boxed(x)),
                            ty,
                            span,
                        )
                    }
                }
            });
        }
        acc.unwrap_or_else(|| Expr::error(span))
    }

    // ---- unary ----

    fn invalid_unary(&mut self, at: Span, ty: QualType) -> Expr {
        let t = self.prog.types.quoted(ty);
        self.err(at, format!("invalid argument type {t} to unary expression"));
        Expr::error(at)
    }

    fn unary(&mut self, op: UnaryOp, op_span: Span, operand: &ast::Expr, span: Span) -> Expr {
        // `&a[n]` (one past the end) is valid; -Warray-bounds must not fire under `&`.
        let saved = self.in_addr_of;
        self.in_addr_of = op == UnaryOp::AddrOf;
        let x = self.expr(operand);
        self.in_addr_of = saved;
        if x.is_error() {
            return Expr::error(span);
        }
        // Events may have their address taken (`wait_group_events(1, &e)`); samplers and
        // images may not.
        let addr_of_event = op == UnaryOp::AddrOf && self.prog.types.is_opaque(x.ty, Opaque::Event);
        if self.is_opaque_value(x.ty) && op != UnaryOp::LogNot && !addr_of_event {
            return self.invalid_unary(op_span, x.ty);
        }
        match op {
            UnaryOp::AddrOf => self.address_of(x, op_span, span),
            UnaryOp::Deref => {
                let r = self.rvalue(x);
                if r.is_error() {
                    return Expr::error(span);
                }
                match self.prog.types.pointee(r.ty) {
                    Some(p) => {
                        let p = self.prog.types.pointee_sugared(r.ty).unwrap_or(p);
                        if self.prog.types.is_void(p) {
                            let t = self.prog.types.quoted(r.ty);
                            self.err(
                                op_span,
                                format!("indirection requires pointer operand ({t} invalid)"),
                            );
                            return Expr::error(span);
                        }
                        let is_fn = self.prog.types.fn_sig(p).is_some();
                        Expr {
                            kind: ExprKind::Deref(crate::hir::boxed(r)),
                            ty: p,
                            span,
                            lvalue: !is_fn,
                        }
                    }
                    None => {
                        let t = self.prog.types.quoted(r.ty);
                        self.err(
                            op_span,
                            format!("indirection requires pointer operand ({t} invalid)"),
                        );
                        Expr::error(span)
                    }
                }
            }
            UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => {
                let r = self.rvalue(x);
                let types = &self.prog.types;
                let ok = if op == UnaryOp::BitNot {
                    types.elem_scalar(r.ty).is_some_and(Scalar::is_integer)
                } else {
                    types.elem_scalar(r.ty).is_some()
                };
                if !ok {
                    return self.invalid_unary(op_span, r.ty);
                }
                let r = if self.prog.types.as_vector(r.ty).is_none() {
                    self.promote(r)
                } else {
                    r
                };
                if op == UnaryOp::Plus {
                    let mut r = r;
                    r.span = span;
                    return r;
                }
                let ty = r.ty;
                let u = if op == UnaryOp::Minus {
                    UnOp::Neg
                } else {
                    UnOp::BitNot
                };
                self.mk(ExprKind::Unary(u, crate::hir::boxed(r)), ty, span)
            }
            UnaryOp::LogNot => {
                let r = self.rvalue(x);
                if self.is_opaque_value(r.ty)
                    || (!self.prog.types.is_scalar_type(r.ty)
                        && self.prog.types.as_vector(r.ty).is_none())
                {
                    return self.invalid_unary(op_span, r.ty);
                }
                let ty = self.logical_result(r.ty);
                self.mk(
                    ExprKind::Unary(UnOp::LogNot, crate::hir::boxed(r)),
                    ty,
                    span,
                )
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                if !self.check_modifiable(&x, op_span) {
                    return Expr::error(span);
                }
                let types = &self.prog.types;
                if types.elem_scalar(x.ty).is_none() && !types.is_pointer(x.ty) {
                    return self.invalid_unary(op_span, x.ty);
                }
                let u = match op {
                    UnaryOp::PreInc => UnOp::PreInc,
                    UnaryOp::PreDec => UnOp::PreDec,
                    UnaryOp::PostInc => UnOp::PostInc,
                    _ => UnOp::PostDec,
                };
                let ty = x.ty.unqualified();
                self.mk(ExprKind::Unary(u, crate::hir::boxed(x)), ty, span)
            }
        }
    }

    /// Rule 54: `&E` points into the space `E` lives in.
    fn address_of(&mut self, x: Expr, op_span: Span, span: Span) -> Expr {
        if let ExprKind::Func(_) = x.kind {
            if !self.ext("__cl_clang_function_pointers") {
                self.err(op_span, "taking address of function is not allowed");
                return Expr::error(span);
            }
            let pid = self.prog.types.pointer(x.ty);
            return self.mk(
                ExprKind::AddrOf(crate::hir::boxed(x)),
                QualType::new(pid),
                span,
            );
        }
        if !x.lvalue {
            let t = self.prog.types.quoted(x.ty);
            self.err(
                op_span,
                format!("cannot take the address of an rvalue of type {t}"),
            );
            return Expr::error(span);
        }
        if let ExprKind::Swizzle { .. } = x.kind {
            self.err(op_span, "address of vector element requested");
            return Expr::error(span);
        }
        let sp = space::address_of_space(self.prog.types.object_space(x.ty));
        let pointee = self.prog.types.set_object_space(x.ty, Some(sp));
        let pid = self.prog.types.pointer(pointee);
        self.mk(
            ExprKind::AddrOf(crate::hir::boxed(x)),
            QualType::new(pid),
            span,
        )
    }

    /// The type of `!x` and of comparisons: `int`, or for vectors a signed integer vector whose
    /// elements have the operand's element size.
    fn logical_result(&mut self, operand: QualType) -> QualType {
        match self.prog.types.as_vector(operand) {
            Some((s, n)) => {
                let e = match s.size() {
                    1 => Scalar::Char,
                    2 => Scalar::Short,
                    4 => Scalar::Int,
                    _ => Scalar::Long,
                };
                QualType::new(self.prog.types.vector(e, n))
            }
            None => self.int_ty(),
        }
    }

    /// Samplers and events cannot be operands of ordinary operators.
    fn is_opaque_value(&self, ty: QualType) -> bool {
        matches!(
            self.prog.types.ckind(ty),
            TypeKind::Opaque(Opaque::Sampler | Opaque::Event) | TypeKind::Image(..)
        )
    }

    /// A GNU imaginary constant (`1i`, `2.0if`): clang types it `_Complex T` and warns only
    /// under `-pedantic`. oclc has no complex types: it checks the constant as its real type
    /// and records it, so that running the program fails there with a clear error.
    fn imaginary_constant(&mut self, spelling: oclc_syntax::Symbol, span: Span) {
        if !oclc_syntax::parse::literal::is_imaginary(spelling.as_str()) {
            return;
        }
        self.warn(
            span,
            "imaginary constants are a GNU extension",
            "gnu-imaginary-constant",
        );
        self.prog.unsupported.push((
            span,
            "imaginary constants (GNU `_Complex` values) cannot be run: oclc's devices have no complex types".to_string(),
        ));
    }

    /// Rule 19 and C's modifiable-lvalue rules; reports clang's message and returns false.
    pub(crate) fn check_modifiable(&mut self, x: &Expr, at: Span) -> bool {
        if x.is_error() {
            return false;
        }
        if !x.lvalue {
            self.err(at, "expression is not assignable");
            return false;
        }
        let types = &self.prog.types;
        if types.is_array(x.ty) {
            let t = types.quoted(x.ty);
            self.err(at, format!("array type {t} is not assignable"));
            return false;
        }
        let c = types.canonical(x.ty);
        if c.quals.is_const() {
            let t = types.quoted(x.ty);
            match &x.kind {
                ExprKind::Var(v) => {
                    let n = self
                        .prog
                        .var(*v)
                        .map(|v| v.name.to_string())
                        .unwrap_or_default();
                    self.err(
                        at,
                        format!("cannot assign to variable '{n}' with const-qualified type {t}"),
                    );
                }
                _ => self.err(at, "read-only variable is not assignable"),
            }
            return false;
        }
        if space::is_read_only_space(types.object_space(x.ty)) {
            self.err(at, "read-only variable is not assignable");
            return false;
        }
        if let ExprKind::Swizzle { comps, .. } = &x.kind {
            let mut seen = [false; 16];
            for &c in comps {
                if let Some(s) = seen.get_mut(c as usize) {
                    if *s {
                        self.err(
                            at,
                            "vector is not assignable (contains duplicate components)",
                        );
                        return false;
                    }
                    *s = true;
                }
            }
        }
        true
    }

    // ---- binary ----

    fn invalid_binary(&mut self, at: Span, l: QualType, r: QualType) -> Expr {
        let (a, b) = (self.prog.types.quoted(l), self.prog.types.quoted(r));
        self.err(
            at,
            format!("invalid operands to binary expression ({a} and {b})"),
        );
        Expr::error(at)
    }

    fn binary(
        &mut self,
        op: AB,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Expr {
        if !matches!(lhs.kind, AK::Binary { .. }) {
            let l = self.rexpr(lhs);
            return self.binary_step(op, op_span, lhs, l, rhs, span);
        }
        // A chain (`a + b + c ...`, a left spine of any length) is checked in a loop, leftmost
        // operand first, as recursion would: its length is not nesting.
        let mut links = vec![(op, op_span, lhs, rhs, span)];
        let mut leaf = lhs;
        while let AK::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } = &leaf.kind
        {
            links.push((*op, *op_span, &**lhs, &**rhs, leaf.span));
            leaf = lhs;
        }
        let mut acc = self.rexpr(leaf);
        let mut first = true;
        for (op, op_span, lhs, rhs, span) in links.into_iter().rev() {
            if !first {
                acc = self.rvalue(acc);
            }
            first = false;
            acc = self.binary_step(op, op_span, lhs, acc, rhs, span);
        }
        acc
    }

    /// One link of a chain: `l` (already an rvalue, checked from `lhs`) `op` the operand
    /// `rhs`. The right operand of `&&`/`||` runs only when the left one lets it.
    fn binary_step(
        &mut self,
        op: AB,
        op_span: Span,
        lhs: &ast::Expr,
        l: Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Expr {
        let r = if matches!(op, AB::LogAnd | AB::LogOr) {
            let truth = self.known_truth(&l);
            let here = self.flow.reach.clone();
            self.flow.reach = here.when(truth, op == AB::LogAnd);
            let r = self.rexpr(rhs);
            // Past the operator: from the right operand's end, or from a short circuit.
            let end = std::mem::replace(&mut self.flow.reach, Reach::No);
            self.flow.reach = end.or(here.when(truth, op != AB::LogAnd));
            r
        } else {
            self.rexpr(rhs)
        };
        if l.is_error() || r.is_error() {
            return Expr::error(span);
        }
        if op == AB::Comma {
            self.diagnose_unused(lhs, Some(&l), Unused::CommaLeft);
            let ty = r.ty;
            return self.mk(
                ExprKind::Comma(crate::hir::boxed(l), crate::hir::boxed(r)),
                ty,
                span,
            );
        }
        self.binop_precedence(op, op_span, lhs, rhs, &l);
        let x = self.binary_values(op, op_span, l, r, span);
        self.consecutive_comparison(op, op_span, lhs);
        x
    }

    /// A binary operator on two rvalues (shared with compound assignment).
    pub(crate) fn binary_values(
        &mut self,
        op: AB,
        op_span: Span,
        l: Expr,
        r: Expr,
        span: Span,
    ) -> Expr {
        if self.is_opaque_value(l.ty)
            || self.is_opaque_value(r.ty)
            || self.prog.types.is_opaque(l.ty, Opaque::ClkEvent)
            || self.prog.types.is_opaque(r.ty, Opaque::ClkEvent)
        {
            let clk = |c: &Checker, t: QualType| c.prog.types.is_opaque(t, Opaque::ClkEvent);
            if !(clk(self, l.ty) && clk(self, r.ty) && matches!(op, AB::Eq | AB::Ne)) {
                return self.invalid_binary(op_span, l.ty, r.ty);
            }
            let bop = if op == AB::Eq { BinOp::Eq } else { BinOp::Ne };
            let int = self.int_ty();
            return self.mk(
                ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                int,
                span,
            );
        }
        let types = &self.prog.types;
        let (lp, rp) = (types.is_pointer(l.ty), types.is_pointer(r.ty));
        match op {
            AB::LogAnd | AB::LogOr => {
                let ok = |c: &Checker, t: QualType| {
                    c.prog.types.is_scalar_type(t) || c.prog.types.as_vector(t).is_some()
                };
                if !ok(self, l.ty) || !ok(self, r.ty) {
                    return self.invalid_binary(op_span, l.ty, r.ty);
                }
                let bop = if op == AB::LogAnd {
                    BinOp::LogAnd
                } else {
                    BinOp::LogOr
                };
                let ty = if self.prog.types.as_vector(l.ty).is_some() {
                    self.logical_result(l.ty)
                } else if self.prog.types.as_vector(r.ty).is_some() {
                    self.logical_result(r.ty)
                } else {
                    self.int_ty()
                };
                self.mk(
                    ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                    ty,
                    span,
                )
            }
            AB::Eq | AB::Ne | AB::Lt | AB::Gt | AB::Le | AB::Ge if lp || rp => {
                self.pointer_compare(op, op_span, l, r, span)
            }
            AB::Add | AB::Sub if lp || rp => self.pointer_arith(op, op_span, l, r, span),
            _ => {
                let is_int_op = matches!(
                    op,
                    AB::Rem | AB::Shl | AB::Shr | AB::BitAnd | AB::BitOr | AB::BitXor
                );
                let types = &self.prog.types;
                let (le, re) = (types.elem_scalar(l.ty), types.elem_scalar(r.ty));
                let (Some(le), Some(re)) = (le, re) else {
                    return self.invalid_binary(op_span, l.ty, r.ty);
                };
                if is_int_op && (le.is_float() || re.is_float()) {
                    return self.invalid_binary(op_span, l.ty, r.ty);
                }
                let bop = match op {
                    AB::Mul => BinOp::Mul,
                    AB::Div => BinOp::Div,
                    AB::Rem => BinOp::Rem,
                    AB::Add => BinOp::Add,
                    AB::Sub => BinOp::Sub,
                    AB::Shl => BinOp::Shl,
                    AB::Shr => BinOp::Shr,
                    AB::Lt => BinOp::Lt,
                    AB::Gt => BinOp::Gt,
                    AB::Le => BinOp::Le,
                    AB::Ge => BinOp::Ge,
                    AB::Eq => BinOp::Eq,
                    AB::Ne => BinOp::Ne,
                    AB::BitAnd => BinOp::BitAnd,
                    AB::BitXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                if matches!(op, AB::Shl | AB::Shr) {
                    // Shifts: the result has the (promoted) left type; a scalar count is splatted.
                    let lt = self.prog.types.as_vector(l.ty);
                    let l = if lt.is_none() { self.promote(l) } else { l };
                    let ty = l.ty;
                    let r = if lt.is_some() && self.prog.types.as_vector(r.ty).is_none() {
                        let c = self.convert_scalar(r, le);
                        self.cast(CastKind::VectorSplat, c, ty)
                    } else if lt.is_none() && self.prog.types.as_vector(r.ty).is_some() {
                        return self.invalid_binary(op_span, l.ty, r.ty);
                    } else {
                        self.promote(r)
                    };
                    return self.mk(
                        ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                        ty,
                        span,
                    );
                }
                if !self.vector_scalar_rank_ok(&l, &r, op_span) {
                    return Expr::error(span);
                }
                self.binary_warnings(op, op_span, &l, &r);
                match self.arith_convert(l, r) {
                    Ok((l, r, common)) => {
                        self.check_constant_conversion(&l, op_span);
                        self.check_constant_conversion(&r, op_span);
                        let ty =
                            if matches!(op, AB::Lt | AB::Gt | AB::Le | AB::Ge | AB::Eq | AB::Ne) {
                                self.logical_result(common)
                            } else {
                                common
                            };
                        self.mk(
                            ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                            ty,
                            span,
                        )
                    }
                    Err(b) => self.invalid_binary(op_span, b.0.ty, b.1.ty),
                }
            }
        }
    }

    /// clang's `tryVectorConvertAndSplat` for OpenCL: a scalar meeting a vector may not have a
    /// greater rank than the vector's element (`char4 + 1` is an error, `uint4 * 2` is not).
    fn vector_scalar_rank_ok(&mut self, l: &Expr, r: &Expr, op_span: Span) -> bool {
        let types = &self.prog.types;
        let (elem, scalar) = match (types.as_vector(l.ty), types.as_vector(r.ty)) {
            (Some((e, _)), None) => (e, types.as_scalar(r.ty)),
            (None, Some((e, _))) => (e, types.as_scalar(l.ty)),
            _ => return true,
        };
        let Some(s) = scalar else { return true };
        let bad = if elem.is_integer() {
            s.is_float() || integer_order(elem, s) < 0
        } else {
            s.is_float() && s.rank() > elem.rank()
        };
        if bad {
            let (a, b) = (types.quoted(l.ty), types.quoted(r.ty));
            self.err(
                op_span,
                format!("scalar operand type has greater rank than the type of the vector element. ({a} and {b})"),
            );
        }
        !bad
    }

    /// clang's default-on warnings for self-comparison and integer division by zero.
    fn binary_warnings(&mut self, op: AB, op_span: Span, l: &Expr, r: &Expr) {
        fn var_of(e: &Expr) -> Option<crate::hir::VarId> {
            let mut x = e;
            while let ExprKind::Cast(_, i) = &x.kind {
                x = i;
            }
            match x.kind {
                ExprKind::Var(v) => Some(v),
                _ => None,
            }
        }
        let cmp = matches!(op, AB::Eq | AB::Ne | AB::Lt | AB::Gt | AB::Le | AB::Ge);
        if cmp
            && self.prog.types.as_vector(l.ty).is_none()
            && var_of(l).is_some()
            && var_of(l) == var_of(r)
        {
            let v = if matches!(op, AB::Eq | AB::Le | AB::Ge) {
                "true"
            } else {
                "false"
            };
            self.warn(
                op_span,
                format!("self-comparison always evaluates to {v}"),
                "tautological-compare",
            );
        }
        if matches!(op, AB::Div | AB::Rem)
            && self.prog.types.is_integer(r.ty)
            && self.prog.types.is_integer(l.ty)
            && self.const_int(r) == Some(0)
        {
            let what = if op == AB::Div {
                "division"
            } else {
                "remainder"
            };
            self.warn_runtime(
                Diagnostic::warning(op_span, format!("{what} by zero is undefined"))
                    .with_group("division-by-zero")
                    .with_range(r.span),
            );
        }
    }

    /// Rules 48, 49: pointer comparisons need overlapping spaces; NULL compares with anything.
    fn pointer_compare(&mut self, op: AB, op_span: Span, l: Expr, r: Expr, span: Span) -> Expr {
        let bop = match op {
            AB::Eq => BinOp::Eq,
            AB::Ne => BinOp::Ne,
            AB::Lt => BinOp::Lt,
            AB::Gt => BinOp::Gt,
            AB::Le => BinOp::Le,
            _ => BinOp::Ge,
        };
        let types = &self.prog.types;
        let (lp, rp) = (types.pointee(l.ty), types.pointee(r.ty));
        let int = self.int_ty();
        match (lp, rp) {
            (Some(a), Some(b)) => {
                let (ln, rn) = (self.is_null_constant(&l), self.is_null_constant(&r));
                if !ln && !rn {
                    let (sa, sb) = (
                        self.prog.types.object_space(a),
                        self.prog.types.object_space(b),
                    );
                    if !space::pointer_operands_compatible(sa, sb) {
                        let (x, y) = (self.prog.types.quoted(l.ty), self.prog.types.quoted(r.ty));
                        self.err(
                            op_span,
                            space::nonoverlapping_message(PointerOp::Comparison, &x, &y),
                        );
                        return Expr::error(span);
                    }
                    let (ca, cb) = (self.prog.types.canonical(a), self.prog.types.canonical(b));
                    let void = self.prog.types.is_void(a) || self.prog.types.is_void(b);
                    if ca.id != cb.id && !void {
                        let (x, y) = (self.prog.types.quoted(l.ty), self.prog.types.quoted(r.ty));
                        self.warn(
                            op_span,
                            format!("comparison of distinct pointer types ({x} and {y})"),
                            "compare-distinct-pointer-types",
                        );
                    }
                }
                self.mk(
                    ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                    int,
                    span,
                )
            }
            _ => {
                let (ptr, other) = if lp.is_some() { (&l, &r) } else { (&r, &l) };
                if !self.prog.types.is_integer(other.ty) {
                    return self.invalid_binary(op_span, l.ty, r.ty);
                }
                let other_null = self.is_null_constant(other);
                if !other_null {
                    let (x, y) = (self.prog.types.quoted(l.ty), self.prog.types.quoted(r.ty));
                    self.warn(
                        op_span,
                        format!("comparison between pointer and integer ({x} and {y})"),
                        "pointer-integer-compare",
                    );
                }
                let pty = ptr.ty;
                let (l, r) = if lp.is_some() {
                    let r = self.cast(CastKind::NullToPointer, r, pty);
                    (l, r)
                } else {
                    let l = self.cast(CastKind::NullToPointer, l, pty);
                    (l, r)
                };
                self.mk(
                    ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                    int,
                    span,
                )
            }
        }
    }

    /// Pointer arithmetic: `p ± i`, `i + p`, and `p - q` (which needs overlapping spaces).
    fn pointer_arith(&mut self, op: AB, op_span: Span, l: Expr, r: Expr, span: Span) -> Expr {
        let types = &self.prog.types;
        let (lp, rp) = (types.pointee(l.ty), types.pointee(r.ty));
        match (lp, rp) {
            (Some(a), Some(b)) if op == AB::Sub => {
                let (sa, sb) = (types.object_space(a), types.object_space(b));
                if !space::pointer_operands_compatible(sa, sb) {
                    let (x, y) = (types.quoted(l.ty), types.quoted(r.ty));
                    self.err(
                        op_span,
                        space::nonoverlapping_message(PointerOp::Subtraction, &x, &y),
                    );
                    return Expr::error(span);
                }
                if types.canonical(a).id != types.canonical(b).id {
                    let (x, y) = (types.quoted(l.ty), types.quoted(r.ty));
                    self.err(
                        op_span,
                        format!("{x} and {y} are not pointers to compatible types"),
                    );
                    return Expr::error(span);
                }
                let ty = self.predef_named("ptrdiff_t", QualType::new(TypeTable::LONG));
                self.mk(
                    ExprKind::Binary(BinOp::PtrDiff, crate::hir::boxed(l), crate::hir::boxed(r)),
                    ty,
                    span,
                )
            }
            (Some(_), None) if types.is_integer(r.ty) => {
                let ty = l.ty;
                let r = self.promote(r);
                let bop = if op == AB::Add {
                    BinOp::PtrAdd
                } else {
                    BinOp::PtrSub
                };
                self.mk(
                    ExprKind::Binary(bop, crate::hir::boxed(l), crate::hir::boxed(r)),
                    ty,
                    span,
                )
            }
            (None, Some(_)) if op == AB::Add && types.is_integer(l.ty) => {
                let ty = r.ty;
                let l = self.promote(l);
                self.mk(
                    ExprKind::Binary(BinOp::PtrAdd, crate::hir::boxed(r), crate::hir::boxed(l)),
                    ty,
                    span,
                )
            }
            _ => self.invalid_binary(op_span, l.ty, r.ty),
        }
    }

    // ---- assignment ----

    fn assign(
        &mut self,
        op: Option<AB>,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Expr {
        let l = self.expr(lhs);
        let r = self.expr(rhs);
        if l.is_error() || r.is_error() {
            return Expr::error(span);
        }
        // clang allows plain assignment of an event (`a = b`), not of samplers or images.
        let plain_event = op.is_none() && self.prog.types.is_opaque(l.ty, Opaque::Event);
        if (self.is_opaque_value(l.ty) && !plain_event)
            || (op.is_some() && self.is_opaque_value(r.ty))
        {
            let rr = self.rvalue(r);
            return self.invalid_binary(op_span, l.ty, rr.ty);
        }
        if !self.check_modifiable(&l, op_span) {
            return Expr::error(span);
        }
        let lty = l.ty;
        match op {
            None => {
                let rc = self.assign_convert(lty, lty, r, Action::Assigning, op_span);
                if rc.is_error() {
                    return Expr::error(span);
                }
                let ty = lty.unqualified();
                self.mk(
                    ExprKind::Assign {
                        op: None,
                        lhs: crate::hir::boxed(l),
                        rhs: crate::hir::boxed(rc),
                    },
                    ty,
                    span,
                )
            }
            Some(bop) => {
                // Compute `l op r` on rvalues to type-check, then keep the lhs as the target.
                let lv = self.rvalue(l.clone());
                let rv = self.rvalue(r);
                let res = self.binary_values(bop, op_span, lv, rv, span);
                if res.is_error() {
                    return Expr::error(span);
                }
                let (hop, rhs) = match res.kind {
                    ExprKind::Binary(h, _, rr) => (h, *rr),
                    _ => return Expr::error(span),
                };
                let ty = lty.unqualified();
                self.mk(
                    ExprKind::Assign {
                        op: Some(hop),
                        lhs: crate::hir::boxed(l),
                        rhs: crate::hir::boxed(rhs),
                    },
                    ty,
                    span,
                )
            }
        }
    }

    // ---- conditional ----

    fn conditional(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        else_: &ast::Expr,
        question: Span,
        span: Span,
    ) -> Expr {
        let x = self.conditional_operands(cond, then, else_, question, span);
        if let ExprKind::Cond(c, ..) = &x.kind {
            self.conditional_precedence(question, cond, c, else_);
        }
        x
    }

    fn conditional_operands(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        else_: &ast::Expr,
        question: Span,
        span: Span,
    ) -> Expr {
        let c = self.expr(cond);
        let c = self.condition(c);
        let truth = self.known_truth(&c);
        let here = self.flow.reach.clone();
        self.flow.reach = here.when(truth, true);
        let t = self.rexpr(then);
        let then_end = std::mem::replace(&mut self.flow.reach, here.when(truth, false));
        let e = self.rexpr(else_);
        // Past the operator: from the end of either branch.
        self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(then_end);
        if c.is_error() || t.is_error() || e.is_error() {
            return Expr::error(span);
        }
        // OpenCL: a floating-point condition is an error (clang's
        // err_typecheck_cond_expect_nonfloat).
        if self
            .prog
            .types
            .as_scalar(c.ty)
            .is_some_and(|s| s.is_float())
        {
            let t = self.prog.types.quoted(c.ty);
            self.emit(
                oclc_syntax::Diagnostic::error(
                    question,
                    format!("used type {t} where floating point type is not allowed"),
                )
                .with_range(cond.span),
            );
            return Expr::error(span);
        }
        let types = &self.prog.types;
        let (tp, ep) = (types.pointee(t.ty), types.pointee(e.ty));
        let result = |c2: &mut Checker, c: Expr, t: Expr, e: Expr, ty: QualType| {
            c2.mk(
                ExprKind::Cond(
                    crate::hir::boxed(c),
                    crate::hir::boxed(t),
                    crate::hir::boxed(e),
                ),
                ty,
                span,
            )
        };
        match (tp, ep) {
            (Some(a), Some(b)) => {
                let (tn, en) = (self.is_null_constant(&t), self.is_null_constant(&e));
                if tn && !en {
                    let ty = e.ty;
                    let t = self.implicit_to(t, ty);
                    return result(self, c, t, e, ty);
                }
                if en && !tn {
                    let ty = t.ty;
                    let e = self.implicit_to(e, ty);
                    return result(self, c, t, e, ty);
                }
                let types = &self.prog.types;
                let (sa, sb) = (types.object_space(a), types.object_space(b));
                if !space::pointer_operands_compatible(sa, sb) {
                    let (x, y) = (types.quoted(t.ty), types.quoted(e.ty));
                    self.err(
                        question,
                        space::nonoverlapping_message(PointerOp::Conditional, &x, &y),
                    );
                    return Expr::error(span);
                }
                let rs = space::conditional_result_space(sa, sb);
                let (ca, cb) = (types.canonical(a), types.canonical(b));
                let (av, bv) = (types.is_void(a), types.is_void(b));
                let cvr = ca.quals.cvr | cb.quals.cvr;
                let pointee = if av || bv {
                    QualType::new(TypeTable::VOID)
                } else if ca.id == cb.id {
                    QualType::new(ca.id)
                } else {
                    let (x, y) = (types.quoted(t.ty), types.quoted(e.ty));
                    self.warn(
                        question,
                        format!("pointer type mismatch ({x} and {y})"),
                        "pointer-type-mismatch",
                    );
                    QualType::new(TypeTable::VOID)
                };
                let pointee = self
                    .prog
                    .types
                    .set_object_space(self.with_cvr(pointee, cvr), rs);
                let ty = QualType::new(self.prog.types.pointer(pointee));
                let t = self.implicit_to(t, ty);
                let e = self.implicit_to(e, ty);
                result(self, c, t, e, ty)
            }
            (Some(_), None) | (None, Some(_)) => {
                let (ptr_is_t, other) = if tp.is_some() {
                    (true, &e)
                } else {
                    (false, &t)
                };
                if self.prog.types.is_integer(other.ty) {
                    let null = self.is_null_constant(other);
                    let ty = if ptr_is_t { t.ty } else { e.ty };
                    if !null {
                        let (x, y) = (self.prog.types.quoted(t.ty), self.prog.types.quoted(e.ty));
                        self.warn(question, format!("pointer/integer type mismatch in conditional expression ({x} and {y})"), "conditional-type-mismatch");
                    }
                    let (t, e) = if ptr_is_t {
                        let e = self.cast(CastKind::NullToPointer, e, ty);
                        (t, e)
                    } else {
                        let t = self.cast(CastKind::NullToPointer, t, ty);
                        (t, e)
                    };
                    return result(self, c, t, e, ty);
                }
                let (x, y) = (self.prog.types.quoted(t.ty), self.prog.types.quoted(e.ty));
                self.err(
                    question,
                    format!("incompatible operand types ({x} and {y})"),
                );
                Expr::error(span)
            }
            (None, None) => {
                let types = &self.prog.types;
                let arith = |x: &Expr| types.elem_scalar(x.ty).is_some();
                if arith(&t) && arith(&e) {
                    return match self.arith_convert(t, e) {
                        Ok((t, e, ty)) => {
                            self.check_constant_conversion(&t, question);
                            self.check_constant_conversion(&e, question);
                            result(self, c, t, e, ty)
                        }
                        Err(b) => {
                            let (t, e) = *b;
                            let (x, y) =
                                (self.prog.types.quoted(t.ty), self.prog.types.quoted(e.ty));
                            self.err(
                                question,
                                format!("incompatible operand types ({x} and {y})"),
                            );
                            Expr::error(span)
                        }
                    };
                }
                let (ct, ce) = (types.canonical(t.ty), types.canonical(e.ty));
                if ct.id == ce.id {
                    let ty = t.ty.unqualified();
                    return result(self, c, t, e, ty);
                }
                let (x, y) = (types.quoted(t.ty), types.quoted(e.ty));
                self.err(
                    question,
                    format!("incompatible operand types ({x} and {y})"),
                );
                Expr::error(span)
            }
        }
    }

    // ---- postfix ----

    fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> Expr {
        let under_addr_of = std::mem::replace(&mut self.in_addr_of, false);
        let mark = self.pending_typos.len();
        let b = self.expr(base);
        let i = self.rexpr(index);
        // Subscripts correct the typos in their operands at once.
        self.flush_typos_from(mark, Some(span));
        if b.is_error() || i.is_error() {
            return Expr::error(span);
        }
        self.array_bounds(&b, &i, span, under_addr_of);
        // Vector element: v[i].
        if let Some((s, _)) = self.prog.types.as_vector(b.ty) {
            let lvalue = b.lvalue;
            let ety = QualType::new(self.prog.types.scalar(s));
            let ety = QualType {
                id: ety.id,
                quals: Quals {
                    space: self.prog.types.object_space(b.ty),
                    ..b.ty.quals
                },
            };
            if let Some(k) = self.const_int(&i) {
                return Expr {
                    kind: ExprKind::Swizzle {
                        base: crate::hir::boxed(b),
                        comps: vec![k.clamp(0, 15) as u8],
                    },
                    ty: ety,
                    span,
                    lvalue,
                };
            }
            return Expr {
                kind: ExprKind::Index {
                    base: crate::hir::boxed(b),
                    index: crate::hir::boxed(i),
                },
                ty: ety,
                span,
                lvalue,
            };
        }
        let b = self.rvalue(b);
        if b.is_error() {
            return Expr::error(span);
        }
        let (b, i) = if self.prog.types.is_pointer(b.ty) {
            (b, i)
        } else if self.prog.types.is_pointer(i.ty) {
            (i, b)
        } else {
            self.err(
                span,
                "subscripted value is not an array, pointer, or vector",
            );
            return Expr::error(span);
        };
        if !self.prog.types.is_integer(i.ty) {
            self.err(i.span, "array subscript is not an integer");
            return Expr::error(span);
        }
        let Some(p) = self.prog.types.pointee_sugared(b.ty) else {
            return Expr::error(span);
        };
        if self.prog.types.is_void(p) {
            let t = self.prog.types.quoted(b.ty);
            self.err(span, format!("subscript of pointer to incomplete type {t}"));
            return Expr::error(span);
        }
        Expr {
            kind: ExprKind::Index {
                base: crate::hir::boxed(b),
                index: crate::hir::boxed(i),
            },
            ty: p,
            span,
            lvalue: true,
        }
    }

    /// clang's -Warray-bounds for a constant index into an array of known size.
    /// Takes back the -Warray-bounds warning of the subscript at `at` reported since `marks`
    /// (held, emitted).
    fn drop_array_bounds(&mut self, marks: (usize, usize), at: Span) {
        let this = |d: &Diagnostic| d.group == Some("array-bounds") && d.span == at;
        if self.flow.held.len() > marks.0 {
            let kept: Vec<_> = self
                .flow
                .held
                .drain(marks.0..)
                .filter(|(d, _)| !this(d))
                .collect();
            self.flow.held.extend(kept);
        }
        if self.diags.list.len() > marks.1 {
            let kept: Vec<_> = self
                .diags
                .list
                .drain(marks.1..)
                .filter(|d| !this(d))
                .collect();
            self.diags.list.extend(kept);
        }
    }

    fn array_bounds(&mut self, b: &Expr, i: &Expr, span: Span, under_addr_of: bool) {
        let Some((_, ArrayLen::Fixed(n))) = self.prog.types.array_elem(b.ty) else {
            return;
        };
        let Some(k) = self.const_int(i) else { return };
        let msg = if k < 0 {
            format!("array index {k} is before the beginning of the array")
        } else if (k as u64) > n || ((k as u64) == n && !under_addr_of) {
            let t = self.prog.types.quoted(b.ty);
            format!("array index {k} is past the end of the array (that has type {t})")
        } else {
            return;
        };
        let mut d = Diagnostic::warning(span, msg)
            .with_group("array-bounds")
            .with_range(self.unparenthesized(i.span));
        if let ExprKind::Var(v) = &b.kind
            && let Some(var) = self.prog.var(*v)
        {
            // clang points at the declaration's start (its first specifier).
            let vs = self.var_starts.get(v).copied().unwrap_or(var.span);
            let name = var.name;
            d = d.with_note(vs, format!("array '{name}' declared here"));
        }
        self.warn_runtime(d);
    }

    fn member(
        &mut self,
        base: &ast::Expr,
        arrow: bool,
        name: ast::Ident,
        op_span: Span,
        span: Span,
    ) -> Expr {
        // (Member access leaves the typos of its base to the end of the full expression.)
        let marks = (self.flow.held.len(), self.diags.list.len());
        let b = self.expr(base);
        if b.is_error() {
            return Expr::error(span);
        }
        // clang checks array bounds through member accesses but not through a vector's
        // components: `a[3].s0` is not diagnosed (`CheckArrayAccess` stops there).
        if !arrow && self.prog.types.as_vector(b.ty).is_some() {
            self.drop_array_bounds(marks, b.span);
        }
        let (obj, lvalue, obj_ty) = if arrow {
            let r = self.rvalue(b);
            if r.is_error() {
                return Expr::error(span);
            }
            match self.prog.types.pointee_sugared(r.ty) {
                Some(p) => {
                    let d = Expr {
                        kind: ExprKind::Deref(crate::hir::boxed(r)),
                        ty: p,
                        span,
                        lvalue: true,
                    };
                    (d, true, p)
                }
                None => {
                    // clang: at the `->` with a fix-it for a struct or union, else at the
                    // member name.
                    let t = self.prog.types.quoted(r.ty);
                    let msg = format!("member reference type {t} is not a pointer");
                    let d = if self.prog.types.as_record(r.ty).is_some() {
                        Diagnostic::error(op_span, format!("{msg}; did you mean to use '.'?"))
                            .with_range(base.span)
                            .with_range(op_span)
                            .with_fixit(op_span, ".")
                    } else {
                        Diagnostic::error(name.span, msg).with_range(base.span)
                    };
                    self.diags.push(d);
                    return Expr::error(span);
                }
            }
        } else {
            let ty = b.ty;
            let lv = b.lvalue;
            (b, lv, ty)
        };
        // `p->x` on a pointer to a vector is `(*p).x`, as in clang.
        if let Some((s, n)) = self.prog.types.as_vector(obj_ty) {
            return self.swizzle(obj, s, n, name, op_span, span);
        }
        let Some(rid) = self.prog.types.as_record(obj_ty) else {
            let t = self.prog.types.quoted(obj_ty);
            self.err(
                op_span,
                format!("member reference base type {t} is not a structure or union"),
            );
            return Expr::error(span);
        };
        let outer = self.prog.types.canonical(obj_ty).quals;
        let outer_space = self.prog.types.object_space(obj_ty);
        match self.find_field(rid, name.name, 0) {
            Some(path) => {
                let mut cur = obj;
                for (r, idx, fty) in path {
                    let fty = QualType {
                        id: fty.id,
                        quals: Quals {
                            cvr: fty.quals.cvr | outer.cvr,
                            space: outer_space.or(fty.quals.space),
                        },
                    };
                    let fty = if self.prog.types.is_array(fty) {
                        let f = self.prog.types.set_object_space(fty, outer_space);
                        self.prog.types.add_quals(
                            f,
                            Quals {
                                cvr: outer.cvr,
                                space: None,
                            },
                        )
                    } else {
                        fty
                    };
                    cur = Expr {
                        kind: ExprKind::Member {
                            base: crate::hir::boxed(cur),
                            record: r,
                            field: idx,
                        },
                        ty: fty,
                        span,
                        lvalue,
                    };
                }
                cur
            }
            None => {
                let rq = QualType::new(self.prog.types.intern(TypeKind::Record(rid)));
                // clang names the base's type as written: a typedef of an anonymous record
                // by the typedef.
                let named = self
                    .prog
                    .types
                    .record(rid)
                    .is_some_and(|r| r.name.is_some());
                let t = match self.prog.types.kind(obj_ty.id) {
                    TypeKind::Typedef(td) if !named => self
                        .prog
                        .types
                        .typedef(*td)
                        .map_or_else(|| self.prog.types.print(rq), |d| d.name.to_string()),
                    _ => self.prog.types.print(rq),
                };
                let fix = self.correct_member(name.name, rid);
                let mut d = Diagnostic::error(
                    name.span,
                    match fix {
                        Some((f, _)) => format!(
                            "no member named '{}' in '{t}'; did you mean '{f}'?",
                            name.name
                        ),
                        None => format!("no member named '{}' in '{t}'", name.name),
                    },
                );
                // clang underlines the base when it has no suggestion.
                if fix.is_none() {
                    d = d.with_range(base.span);
                }
                if let Some((f, at)) = fix {
                    d = d
                        .with_fixit(name.span, f.as_str())
                        .with_note(at, format!("'{f}' declared here"));
                }
                self.emit(d);
                Expr::error(span)
            }
        }
    }

    /// Finds a field by name, looking into anonymous struct/union members.
    pub(crate) fn find_field(
        &self,
        rid: crate::types::RecordId,
        name: Symbol,
        depth: u32,
    ) -> Option<Vec<(crate::types::RecordId, u32, QualType)>> {
        if depth > 32 {
            return None;
        }
        let def = self.prog.types.record(rid)?;
        for (i, f) in def.fields.iter().enumerate() {
            if f.name == Some(name) {
                return Some(vec![(rid, i as u32, f.ty)]);
            }
        }
        for (i, f) in def.fields.iter().enumerate() {
            if f.name.is_none()
                && let Some(inner) = self.prog.types.as_record(f.ty)
                && let Some(mut rest) = self.find_field(inner, name, depth + 1)
            {
                rest.insert(0, (rid, i as u32, f.ty));
                return Some(rest);
            }
        }
        None
    }

    /// Decodes a swizzle (`.xyzw`, `.rgba`, `.s0123`, `.lo`/`.hi`/`.even`/`.odd`).
    /// Vector component selection `base.name`; errors are reported at the `.` or `->`
    /// (`op_span`), as clang reports them.
    fn swizzle(
        &mut self,
        base: Expr,
        s: Scalar,
        n: u8,
        name: ast::Ident,
        op_span: Span,
        span: Span,
    ) -> Expr {
        let text = name.name.as_str();
        let comps: Option<Vec<u8>> = match text {
            "lo" | "hi" | "even" | "odd" => {
                let m = if n == 3 { 4 } else { n };
                let half = m / 2;
                Some(match text {
                    "lo" => (0..half).collect(),
                    "hi" => (half..m).collect(),
                    "even" => (0..half).map(|i| i * 2).collect(),
                    _ => (0..half).map(|i| i * 2 + 1).collect(),
                })
            }
            _ if (text.starts_with('s') || text.starts_with('S')) && text.len() > 1 => {
                let mut v = Vec::new();
                for ch in text[1..].chars() {
                    match ch.to_digit(16) {
                        Some(d) => v.push(d as u8),
                        None => {
                            self.diags.push(
                                Diagnostic::error(
                                    op_span,
                                    format!("illegal vector component name '{ch}'"),
                                )
                                .with_range(name.span),
                            );
                            return Expr::error(span);
                        }
                    }
                }
                Some(v)
            }
            _ => {
                let mut v = Vec::new();
                let xyzw = text.chars().all(|c| "xyzw".contains(c));
                let rgba = text.chars().all(|c| "rgba".contains(c));
                if !xyzw && !rgba {
                    let bad = text
                        .chars()
                        .find(|c| !"xyzwrgba".contains(*c))
                        .unwrap_or('?');
                    self.diags.push(
                        Diagnostic::error(
                            op_span,
                            format!("illegal vector component name '{bad}'"),
                        )
                        .with_range(name.span),
                    );
                    return Expr::error(span);
                }
                for ch in text.chars() {
                    let i = if xyzw {
                        "xyzw".find(ch)
                    } else {
                        "rgba".find(ch)
                    };
                    v.push(i.unwrap_or(0) as u8);
                }
                Some(v)
            }
        };
        let comps = comps.unwrap_or_default();
        // `.hi`/`.odd` of a 3-component vector name its 4th (padding) lane, as in clang:
        // reading it gives an unspecified value and writing it does nothing.
        let halving = matches!(text, "lo" | "hi" | "even" | "odd");
        if !halving && comps.iter().any(|&c| c >= n) {
            let vt = self.prog.types.quoted(base.ty);
            self.diags.push(
                Diagnostic::error(
                    op_span,
                    format!("vector component access exceeds type {vt}"),
                )
                .with_range(name.span),
            );
            return Expr::error(span);
        }
        let k = comps.len() as u8;
        let elem_q = Quals {
            cvr: base.ty.quals.cvr,
            space: self.prog.types.object_space(base.ty),
        };
        let ty = if k == 1 {
            QualType::new(self.prog.types.scalar(s)).with_quals(elem_q)
        } else if matches!(k, 2 | 3 | 4 | 8 | 16) {
            let vid = self.prog.types.vector(s, k);
            let t = self.vector_named(QualType::new(vid));
            t.with_quals(elem_q)
        } else {
            self.diags.push(
                Diagnostic::error(
                    op_span,
                    format!(
                        "vector component access has invalid length {k}; supported lengths are: 1,2,3,4,8,16"
                    ),
                )
                .with_range(name.span),
            );
            return Expr::error(span);
        };
        let lvalue = base.lvalue;
        Expr {
            kind: ExprKind::Swizzle {
                base: crate::hir::boxed(base),
                comps,
            },
            ty,
            span,
            lvalue,
        }
    }

    // ---- casts and vector literals ----

    fn cast_expr(
        &mut self,
        tn: &ast::TypeName,
        parens: Span,
        operand: &ast::Expr,
        span: Span,
    ) -> Expr {
        let to = self.type_name(tn);
        if self.prog.types.is_error(to) {
            return Expr::error(span);
        }
        // C corrects the typos of a cast's operand at once (clang's `ActOnCastExpr`).
        let mark = self.pending_typos.len();
        let r = self.cast_operand(to, parens, operand, span);
        self.flush_typos_from(mark, Some(span));
        r
    }

    /// [`Checker::cast_expr`] once the type is known.
    fn cast_operand(
        &mut self,
        to: QualType,
        parens: Span,
        operand: &ast::Expr,
        span: Span,
    ) -> Expr {
        if let AK::ParenList(items) = &operand.kind {
            if let Some((s, n)) = self.prog.types.as_vector(to) {
                return self.vector_literal(to, s, n, items, operand.span, span);
            }
            let x = self.comma_list(items, operand.span);
            return self.explicit_cast(to, x, parens, span);
        }
        if let Some((s, n)) = self.prog.types.as_vector(to)
            && let AK::Paren(inner) = &operand.kind
        {
            // `(float4)(x)`: one element, splat or same-type vector.
            return self.vector_literal(to, s, n, std::slice::from_ref(inner), operand.span, span);
        }
        let x = self.expr(operand);
        self.explicit_cast(to, x, parens, span)
    }

    /// `(T)(a, b, ...)` with T a vector: the parts' components must add up to T's length, or
    /// one scalar is splatted.
    fn vector_literal(
        &mut self,
        to: QualType,
        s: Scalar,
        n: u8,
        items: &[ast::Expr],
        list_span: Span,
        span: Span,
    ) -> Expr {
        let mut parts = Vec::new();
        let mut count = 0u32;
        let mut bad = false;
        for it in items {
            let x = self.rexpr(it);
            if x.is_error() {
                bad = true;
                continue;
            }
            match self.prog.types.as_vector(x.ty) {
                Some((_, m)) => {
                    count += u32::from(m);
                    parts.push(x);
                }
                None if self.prog.types.is_arithmetic(x.ty) => {
                    count += 1;
                    parts.push(self.convert_scalar(x, s));
                }
                None => {
                    let t = self.prog.types.quoted(x.ty);
                    let v = self.prog.types.quoted(to);
                    self.err(
                        x.span,
                        format!("initializing {v} with an expression of incompatible type {t}"),
                    );
                    bad = true;
                }
            }
        }
        if bad {
            return Expr::error(span);
        }
        if parts.len() == 1 && count == 1 {
            let p = parts
                .pop()
                .map(|p| self.cast(CastKind::VectorSplat, p, to.unqualified()));
            return p.map_or_else(
                || Expr::error(span),
                |mut p| {
                    p.span = span;
                    p
                },
            );
        }
        if parts.len() == 1 && count == u32::from(n) {
            let p = parts.pop();
            return p.map_or_else(
                || Expr::error(span),
                |p| self.cast(CastKind::NoOp, p, to.unqualified()),
            );
        }
        if count < u32::from(n) {
            self.err(list_span, format!("too few elements in vector initialization (expected {n} elements, have {count})"));
            return Expr::error(span);
        }
        if count > u32::from(n) {
            self.err(
                list_span,
                format!(
                    "excess elements in vector initialization (expected {n} elements, have {count})"
                ),
            );
            return Expr::error(span);
        }
        self.mk(ExprKind::VectorLit(parts), to.unqualified(), span)
    }
}

pub(crate) fn scalar_id(s: Scalar) -> crate::types::TypeId {
    match s {
        Scalar::Bool => TypeTable::BOOL,
        Scalar::Char => TypeTable::CHAR,
        Scalar::SChar => TypeTable::SCHAR,
        Scalar::UChar => TypeTable::UCHAR,
        Scalar::Short => TypeTable::SHORT,
        Scalar::UShort => TypeTable::USHORT,
        Scalar::Int => TypeTable::INT,
        Scalar::UInt => TypeTable::UINT,
        Scalar::Long => TypeTable::LONG,
        Scalar::ULong => TypeTable::ULONG,
        Scalar::LongLong => TypeTable::LONGLONG,
        Scalar::ULongLong => TypeTable::ULONGLONG,
        Scalar::Half => TypeTable::HALF,
        Scalar::Float => TypeTable::FLOAT,
        Scalar::Double => TypeTable::DOUBLE,
    }
}

/// clang's `getIntegerTypeOrder`: -1, 0 or 1 as `a`'s rank is below, equal to or above `b`'s,
/// an unsigned type winning a tie with a signed one.
fn integer_order(a: Scalar, b: Scalar) -> i32 {
    if a == b {
        return 0;
    }
    let (au, bu) = (!a.is_signed(), !b.is_signed());
    let (ar, br) = (a.rank(), b.rank());
    let ord = |x: u8, y: u8| if x > y { 1 } else { -1 };
    if au == bu {
        if ar == br { 0 } else { ord(ar, br) }
    } else if au {
        if ar >= br { 1 } else { -1 }
    } else if br >= ar {
        -1
    } else {
        1
    }
}
