//! The GNU builtins with their own syntax: `__builtin_offsetof` (a `size_t` constant, or an
//! expression when an array index is not constant), `__builtin_choose_expr` (the chosen arm
//! itself, lvalue and type included) and `__builtin_bit_cast` (a reinterpretation of the
//! operand's bytes, carried to lowering as a call of `__builtin_bit_cast`), with clang's
//! diagnostics (`Sema::BuildBuiltinOffsetOf`, `ActOnChooseExpr`, `BuildBuiltinBitCastExpr`).

use oclc_syntax::ast::{self, OffsetOfPart};
use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use crate::builtins::OverloadId;
use crate::hir::{BinOp, BuiltinRef, Expr, ExprKind};
use crate::types::{QualType, Scalar, TypeKind};

impl Checker<'_> {
    /// The canonical `size_t` (`unsigned long` on spir64, `unsigned int` on spir), as clang
    /// types `offsetof`.
    fn size_type(&mut self) -> (QualType, Scalar) {
        let t = self.size_t();
        let c = QualType::new(self.prog.types.canonical(t).id);
        let s = self.prog.types.as_scalar(c).unwrap_or(Scalar::ULong);
        (c, s)
    }

    /// How clang names a record in "no member named" (the declaration's name, the typedef
    /// that names an anonymous one, or `struct (unnamed at FILE:LINE:COL)`).
    fn record_decl_name(&self, t: QualType, rid: crate::types::RecordId) -> String {
        let Some(d) = self.prog.types.record(rid) else {
            return String::new();
        };
        if let Some(n) = d.name {
            return n.to_string();
        }
        if let TypeKind::Typedef(td) = self.prog.types.kind(t.id)
            && let Some(def) = self.prog.types.typedef(*td)
        {
            return def.name.to_string();
        }
        let kw = if d.is_union { "union" } else { "struct" };
        match self.sm.location(self.sm.report_span(d.span)) {
            Some((file, line, col)) => format!("{kw} (unnamed at {file}:{line}:{col})"),
            None => format!("{kw} (unnamed)"),
        }
    }

    /// `__builtin_offsetof(type, designator)`.
    pub(crate) fn offsetof(
        &mut self,
        ty: &ast::TypeName,
        path: &[OffsetOfPart],
        span: Span,
    ) -> Expr {
        let t = self.type_name(ty);
        if self.prog.types.is_error(t) {
            return Expr::error(span);
        }
        let (size_ty, size_scalar) = self.size_type();
        let kw = Span {
            hi: span.lo.saturating_add("__builtin_offsetof".len() as u32),
            ..span
        };
        let mut cur = t;
        let mut offset: u64 = 0;
        let mut dynamic: Option<Expr> = None;
        for (i, part) in path.iter().enumerate() {
            match part {
                OffsetOfPart::Field { name, span: pspan } => {
                    if i == 0
                        && !self.prog.types.is_complete(cur)
                        && let Some(rid) = self.prog.types.as_record(cur)
                    {
                        {
                            let q = self.prog.types.quoted(cur);
                            let decl = self.prog.types.record(rid).map(|d| d.span);
                            let mut d =
                                Diagnostic::error(kw, format!("offsetof of incomplete type {q}"))
                                    .with_range(ty.span);
                            if let Some(at) = decl {
                                d = d.with_note(at, format!("forward declaration of {q}"));
                            }
                            self.emit(d);
                            return Expr::error(span);
                        }
                    }
                    let Some(rid) = self.prog.types.as_record(cur) else {
                        let q = self.prog.types.quoted(cur);
                        let msg =
                            format!("offsetof requires struct, union, or class type, {q} invalid");
                        let d = if i == 0 {
                            Diagnostic::error(kw, msg).with_range(ty.span)
                        } else {
                            Diagnostic::error(name.span, msg)
                        };
                        self.emit(d);
                        return Expr::error(span);
                    };
                    let Some(steps) = self.find_field(rid, name.name, 0) else {
                        let rn = self.record_decl_name(cur, rid);
                        self.emit(
                            Diagnostic::error(
                                kw,
                                format!("no member named '{}' in '{rn}'", name.name),
                            )
                            .with_range(*pspan),
                        );
                        return Expr::error(span);
                    };
                    for (r, idx, fty) in steps {
                        let layout_off = {
                            self.prog.types.layout_record(r);
                            self.prog.types.record(r).and_then(|d| {
                                if d.fields
                                    .get(idx as usize)
                                    .and_then(|f| f.bit_width)
                                    .is_some()
                                {
                                    return None;
                                }
                                d.layout.offsets.get(idx as usize).copied()
                            })
                        };
                        let Some(o) = layout_off else {
                            // Without __cl_clang_bitfields the field was already an error.
                            if !self.ext("__cl_clang_bitfields") {
                                return Expr::error(span);
                            }
                            self.emit(
                                Diagnostic::error(
                                    kw,
                                    format!("cannot compute offset of bit-field '{}'", name.name),
                                )
                                .with_range(*pspan),
                            );
                            return Expr::error(span);
                        };
                        offset = offset.wrapping_add(o);
                        cur = fty.unqualified();
                    }
                }
                OffsetOfPart::Index { index, close } => {
                    let Some((elem, _)) = self.prog.types.array_elem(cur) else {
                        let q = self.prog.types.quoted(cur);
                        self.err(*close, format!("offsetof requires array type, {q} invalid"));
                        return Expr::error(span);
                    };
                    let x = self.rexpr(index);
                    if x.is_error() {
                        return Expr::error(span);
                    }
                    if !self.prog.types.is_integer(x.ty) {
                        self.emit(
                            Diagnostic::error(x.span, "array subscript is not an integer")
                                .with_range(x.span),
                        );
                        return Expr::error(span);
                    }
                    let size = self.prog.types.size_of(elem).unwrap_or(0);
                    match self.const_int(&x) {
                        Some(v) => offset = offset.wrapping_add((v as u64).wrapping_mul(size)),
                        None => {
                            let xs = x.span;
                            let idx = self.convert_scalar(x, size_scalar);
                            let sz = self.mk(ExprKind::IntLit(size), size_ty, xs);
                            let term = self.mk(
                                ExprKind::Binary(BinOp::Mul, Box::new(idx), Box::new(sz)),
                                size_ty,
                                xs,
                            );
                            dynamic = Some(match dynamic.take() {
                                Some(d) => self.mk(
                                    ExprKind::Binary(BinOp::Add, Box::new(d), Box::new(term)),
                                    size_ty,
                                    xs,
                                ),
                                None => term,
                            });
                        }
                    }
                    cur = elem.unqualified();
                }
            }
        }
        let bits = size_scalar.size() * 8;
        if bits < 64 {
            offset &= (1u64 << bits) - 1;
        }
        let lit = self.mk(ExprKind::IntLit(offset), size_ty, span);
        match dynamic {
            None => lit,
            Some(d) => self.mk(
                ExprKind::Binary(BinOp::Add, Box::new(lit), Box::new(d)),
                size_ty,
                span,
            ),
        }
    }

    /// `__builtin_choose_expr(cond, a, b)`: both arms are checked, the chosen one is the
    /// result.
    pub(crate) fn choose_expr(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        els: &ast::Expr,
        span: Span,
    ) -> Expr {
        let c = self.rexpr(cond);
        let a = self.expr(then);
        let b = self.expr(els);
        if c.is_error() {
            return Expr::error(span);
        }
        let Some(v) = self.const_int(&c) else {
            self.emit(
                Diagnostic::error(
                    c.span,
                    "'__builtin_choose_expr' requires a constant expression",
                )
                .with_range(c.span),
            );
            return Expr::error(span);
        };
        let mut chosen = if v != 0 { a } else { b };
        if !chosen.is_error() {
            chosen.span = span;
        }
        chosen
    }

    /// `__builtin_bit_cast(type, expr)`: the operand's bytes as `type`, which must have the
    /// same size.
    pub(crate) fn bit_cast(&mut self, ty: &ast::TypeName, expr: &ast::Expr, span: Span) -> Expr {
        let to = self.type_name(ty);
        let x = self.rexpr(expr);
        if x.is_error() || self.prog.types.is_error(to) {
            return Expr::error(span);
        }
        let (fs, ts) = (self.prog.types.size_of(x.ty), self.prog.types.size_of(to));
        let (Some(fs), Some(ts)) = (fs, ts) else {
            let q = self.prog.types.quoted(if fs.is_none() { x.ty } else { to });
            self.err(
                span,
                format!("incomplete type {q} used in type trait expression"),
            );
            return Expr::error(span);
        };
        if fs != ts {
            self.err(
                span,
                format!(
                    "__builtin_bit_cast source size does not equal destination size ({fs} vs {ts})"
                ),
            );
            return Expr::error(span);
        }
        let name = Symbol::intern("__builtin_bit_cast");
        let Some(id) = self.builtins.lookup(name) else {
            return Expr::error(span);
        };
        let builtin = BuiltinRef {
            name,
            overload: OverloadId {
                builtin: id,
                decl: 0,
                index: 0,
            },
        };
        self.mk(
            ExprKind::BuiltinCall {
                builtin,
                args: vec![x],
            },
            to.unqualified(),
            span,
        )
    }
}
