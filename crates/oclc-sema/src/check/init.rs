//! Initializers: expressions converted to the declared type, braced lists against arrays,
//! structs, unions and vectors (with designators), unsized arrays sized by their initializer,
//! and the constant-initializer rules of program-scope and `__constant` objects (28, 34).

use oclc_syntax::Span;
use oclc_syntax::ast::{self, ExprKind as AK};

use super::Checker;
use super::conv::Action;
use super::expr::{scalar_id, strip_parens};
use crate::hir::{BinOp, CastKind, Expr, ExprKind, Init};
use crate::space;
use crate::types::{ArrayLen, LangAs, QualType, TypeKind};

impl Checker<'_> {
    /// Checks an initializer against `ty`. `must_be_const` requires a constant initializer
    /// (program scope, `static`, `__constant`: rules 28, 34).
    pub(crate) fn initializer(
        &mut self,
        ty: QualType,
        init: &ast::Initializer,
        must_be_const: bool,
        at: Span,
    ) -> Option<Init> {
        match init {
            ast::Initializer::Expr(e) => {
                // `char s[] = "abc"` and `constant char s[] = "abc"`.
                if let (Some((elem, _)), AK::StrLit(sl)) =
                    (self.prog.types.array_elem(ty), &strip_parens(e).kind)
                    && self
                        .prog
                        .types
                        .as_scalar(elem)
                        .is_some_and(|s| s.size() == 1)
                {
                    let x = self.expr(e);
                    let _ = sl;
                    return Some(Init::Expr(x));
                }
                if self.prog.types.is_array(ty) {
                    let x = self.expr(e);
                    if !x.is_error() {
                        self.err(e.span, "array initializer must be an initializer list");
                    }
                    return None;
                }
                let x = self.expr(e);
                if x.is_error() {
                    return None;
                }
                // clang reports initialization errors at the declared name.
                let c = self.assign_convert(ty, ty, x, Action::Initializing, at);
                if c.is_error() {
                    return None;
                }
                if must_be_const && !self.is_constant_initializer(&c) {
                    self.err(e.span, "initializer element is not a compile-time constant");
                    return None;
                }
                Some(Init::Expr(c))
            }
            ast::Initializer::List(list) => self.init_list(ty, list, must_be_const),
        }
    }

    fn init_list(
        &mut self,
        ty: QualType,
        list: &ast::InitList,
        must_be_const: bool,
    ) -> Option<Init> {
        let types = &self.prog.types;
        // Element types in order (for arrays, the element repeated).
        enum Shape {
            Array(QualType, Option<u64>),
            Fields(Vec<QualType>, bool),
            Vector(QualType, u8),
            Scalar,
        }
        let shape = match types.ckind(ty) {
            TypeKind::Array(e, n) => Shape::Array(
                *e,
                if let ArrayLen::Fixed(n) = n {
                    Some(*n)
                } else {
                    None
                },
            ),
            TypeKind::Record(r) => {
                let d = types.record(*r);
                let fields = d
                    .map(|d| d.fields.iter().map(|f| f.ty).collect())
                    .unwrap_or_default();
                Shape::Fields(fields, d.is_some_and(|d| d.is_union))
            }
            TypeKind::Vector(s, n) => Shape::Vector(QualType::new(scalar_id(*s)), *n),
            _ => Shape::Scalar,
        };
        let mut items: Vec<Option<Init>> = Vec::new();
        let mut union_field = None;
        match shape {
            Shape::Scalar => {
                if let Some(first) = list.items.first() {
                    if list.items.len() > 1 {
                        self.warn(
                            list.items[1].span,
                            "excess elements in scalar initializer",
                            "excess-initializers",
                        );
                    }
                    return self.initializer(ty, &first.init, must_be_const, first.span);
                }
                self.err(list.span, "scalar initializer cannot be empty");
                return None;
            }
            Shape::Array(elem, n) => {
                let mut idx = 0usize;
                for it in &list.items {
                    if let Some(ast::Designator::Index { index, .. }) = it.designators.first() {
                        let he = self.expr(index);
                        if let Some(v) = self.const_int(&he) {
                            idx = v.max(0) as usize;
                        }
                    }
                    if let Some(n) = n
                        && idx as u64 >= n
                    {
                        self.warn(
                            it.span,
                            "excess elements in array initializer",
                            "excess-initializers",
                        );
                        break;
                    }
                    let v = self.initializer(elem, &it.init, must_be_const, it.span);
                    if items.len() <= idx {
                        items.resize_with(idx + 1, || None);
                    }
                    items[idx] = v;
                    idx += 1;
                }
                if let Some(n) = n {
                    items.resize_with((n as usize).min(1 << 20), || None);
                }
            }
            Shape::Vector(elem, n) => {
                for it in list.items.iter().take(n as usize) {
                    items.push(self.initializer(elem, &it.init, must_be_const, it.span));
                }
                items.resize_with(n as usize, || None);
            }
            Shape::Fields(fields, is_union) => {
                let rid = self.prog.types.as_record(ty);
                let mut idx = 0usize;
                items.resize_with(fields.len(), || None);
                for it in &list.items {
                    if let Some(ast::Designator::Field { name, .. }) = it.designators.first()
                        && let Some(r) = rid
                    {
                        match self
                            .prog
                            .types
                            .record(r)
                            .and_then(|d| d.fields.iter().position(|f| f.name == Some(name.name)))
                        {
                            Some(p) => idx = p,
                            None => {
                                let t = self.prog.types.print(ty.unqualified());
                                self.err(name.span, format!("field designator '{}' does not refer to any field in type '{t}'", name.name));
                                return None;
                            }
                        }
                    }
                    let Some(&fty) = fields.get(idx) else {
                        self.warn(
                            it.span,
                            "excess elements in struct initializer",
                            "excess-initializers",
                        );
                        break;
                    };
                    if self.is_opaque_field(fty) {
                        idx += 1;
                        continue;
                    }
                    let v = self.initializer(fty, &it.init, must_be_const, it.span);
                    if let Some(slot) = items.get_mut(idx) {
                        *slot = v;
                    }
                    if is_union {
                        union_field = Some(idx as u32);
                        break;
                    }
                    idx += 1;
                }
            }
        }
        Some(Init::List {
            ty,
            items,
            union_field,
        })
    }

    fn is_opaque_field(&self, ty: QualType) -> bool {
        matches!(
            self.prog.types.ckind(ty),
            TypeKind::Opaque(_) | TypeKind::Image(..)
        )
    }

    /// An unsized array variable takes its length from its initializer.
    pub(crate) fn complete_array_from_init(&mut self, ty: QualType, init: &Init) -> QualType {
        let Some((elem, ArrayLen::Incomplete)) = self.prog.types.array_elem(ty) else {
            return ty;
        };
        let n = match init {
            Init::List { items, .. } => items.len() as u64,
            Init::Expr(e) => match &e.kind {
                ExprKind::StrLit(s) => s.len() as u64 + 1,
                _ => return ty,
            },
        };
        QualType::new(self.prog.types.array(elem, ArrayLen::Fixed(n)))
    }

    /// Rules 28, 34: constants, addresses of objects with static storage, and string literals.
    fn is_constant_initializer(&self, e: &Expr) -> bool {
        if self.const_int(e).is_some() || self.const_float(e).is_some() {
            return true;
        }
        match &e.kind {
            ExprKind::StrLit(_) => true,
            ExprKind::Cast(CastKind::ArrayToPointer, x) => self.is_static_object(x),
            ExprKind::Cast(_, x) => self.is_constant_initializer(x),
            ExprKind::AddrOf(x) => self.is_static_object(x),
            ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, a, b) => {
                self.is_constant_initializer(a) && self.const_int(b).is_some()
            }
            ExprKind::VectorLit(parts) => parts.iter().all(|p| self.is_constant_initializer(p)),
            ExprKind::InitList(_) => true,
            _ => false,
        }
    }

    /// An lvalue designating an object with static storage (its address is a constant).
    fn is_static_object(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.prog.var(*v).is_some_and(|v| {
                space::address_is_constant(
                    self.prog.types.object_space(v.ty),
                    matches!(
                        v.storage,
                        crate::hir::Storage::Program | crate::hir::Storage::StaticLocal
                    ),
                ) && !(v.storage == crate::hir::Storage::KernelScope
                    && self.prog.types.object_space(v.ty) == Some(LangAs::LOCAL))
            }),
            ExprKind::StrLit(_) => true,
            ExprKind::Member { base, .. } => self.is_static_object(base),
            ExprKind::Index { base, index } => {
                self.const_int(index).is_some()
                    && matches!(&base.kind, ExprKind::Cast(CastKind::ArrayToPointer, a) if self.is_static_object(a))
            }
            _ => false,
        }
    }
}
