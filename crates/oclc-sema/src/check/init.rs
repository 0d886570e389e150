//! Initializers: expressions converted to the declared type, braced lists against arrays,
//! structs, unions and vectors (with designators), unsized arrays sized by their initializer,
//! and the constant-initializer rules of program-scope and `__constant` objects (28, 34).

use oclc_syntax::Span;
use oclc_syntax::ast;

use super::Checker;
use super::conv::Action;
use super::expr::scalar_id;
use crate::hir::{BinOp, CastKind, Expr, ExprKind, Init};
use crate::space;
use crate::types::{ArrayLen, LangAs, QualType, TypeKind};

/// Largest element index an array initializer may name (bounds memory on absurd designators).
const MAX_INIT_ELEMENTS: usize = 1 << 24;

/// A braced-list item checked but not yet used.
enum Pending<'a> {
    List(&'a ast::InitList),
    Expr(Expr),
}

struct Item<'a> {
    item: &'a ast::InitItem,
    pending: Option<Pending<'a>>,
}

/// The items of one braced list and how many have been used.
struct Cursor<'a> {
    items: Vec<Item<'a>>,
    pos: usize,
}

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
                let x = self.expr(e);
                if x.is_error() {
                    return None;
                }
                self.init_from_expr(ty, x, must_be_const, at)
            }
            ast::Initializer::List(list) => self.init_list(ty, list, must_be_const),
        }
    }

    /// Initializes an object of type `ty` from one checked expression.
    fn init_from_expr(
        &mut self,
        ty: QualType,
        x: Expr,
        must_be_const: bool,
        at: Span,
    ) -> Option<Init> {
        // `char s[] = "abc"` and `constant char s[] = "abc"`.
        if self.is_string_init(ty, &x) {
            return Some(Init::Expr(x));
        }
        if self.prog.types.is_array(ty) {
            self.err(x.span, "array initializer must be an initializer list");
            return None;
        }
        let span = x.span;
        // clang reports initialization errors at the declared name.
        let c = self.assign_convert(ty, ty, x, Action::Initializing, at);
        if c.is_error() {
            return None;
        }
        if must_be_const && !self.is_constant_initializer(&c) {
            self.err(span, "initializer element is not a compile-time constant");
            return None;
        }
        Some(Init::Expr(c))
    }

    /// A string literal initializing an array of 1-byte characters.
    fn is_string_init(&self, ty: QualType, x: &Expr) -> bool {
        matches!(x.kind, ExprKind::StrLit(_))
            && self
                .prog
                .types
                .array_elem(ty)
                .is_some_and(|(e, _)| self.prog.types.as_scalar(e).is_some_and(|s| s.size() == 1))
    }

    /// A braced list: its items are checked once, then distributed over `ty`'s sub-objects,
    /// with C's brace elision (`int m[2][2] = {1, 2, 3, 4}`).
    fn init_list(
        &mut self,
        ty: QualType,
        list: &ast::InitList,
        must_be_const: bool,
    ) -> Option<Init> {
        let mut items = Vec::with_capacity(list.items.len());
        for it in &list.items {
            let pending = match &it.init {
                ast::Initializer::List(l) => Pending::List(l),
                ast::Initializer::Expr(e) => Pending::Expr(self.expr(e)),
            };
            items.push(Item {
                item: it,
                pending: Some(pending),
            });
        }
        let mut cur = Cursor { items, pos: 0 };
        let lbrace = Span {
            hi: list.span.lo + 1,
            ..list.span
        };
        let saved = self.list_cc.replace(lbrace);
        let init = self.init_list_items(ty, list, &mut cur, must_be_const);
        self.list_cc = saved;
        init
    }

    /// [`Self::init_list`] once the items are checked.
    fn init_list_items(
        &mut self,
        ty: QualType,
        list: &ast::InitList,
        cur: &mut Cursor,
        must_be_const: bool,
    ) -> Option<Init> {
        if !self.prog.types.is_array(ty)
            && self.prog.types.as_record(ty).is_none()
            && self.prog.types.as_vector(ty).is_none()
        {
            // A scalar in braces.
            if cur.items.is_empty() {
                self.err(list.span, "scalar initializer cannot be empty");
                return None;
            }
            let v = self.sub_init(ty, cur, must_be_const);
            if let Some(extra) = cur.items.get(cur.pos) {
                self.warn(
                    extra.item.span,
                    "excess elements in scalar initializer",
                    "excess-initializers",
                );
            }
            return v;
        }
        let init = self.fill(ty, cur, must_be_const, true);
        if let Some(extra) = cur.items.get(cur.pos) {
            let what = match self.prog.types.ckind(ty) {
                TypeKind::Array(..) => "array",
                TypeKind::Vector(..) => "vector",
                TypeKind::Record(r) if self.prog.types.record(*r).is_some_and(|d| d.is_union) => {
                    "union"
                }
                _ => "struct",
            };
            self.warn(
                extra.item.span,
                format!("excess elements in {what} initializer"),
                "excess-initializers",
            );
        }
        init
    }

    /// Initializes one sub-object of type `ty` from the cursor: a nested braced list, an
    /// expression of that type, or (brace elision) as many items as the aggregate takes.
    fn sub_init(&mut self, ty: QualType, cur: &mut Cursor, must_be_const: bool) -> Option<Init> {
        let slot = cur.items.get_mut(cur.pos)?;
        let span = slot.item.span;
        match slot.pending.take() {
            Some(Pending::List(l)) => {
                cur.pos += 1;
                self.init_list(ty, l, must_be_const)
            }
            Some(Pending::Expr(x)) => {
                let aggregate =
                    self.prog.types.is_array(ty) || self.prog.types.as_record(ty).is_some();
                let direct = x.is_error()
                    || self.is_string_init(ty, &x)
                    || self.prog.types.canonical(x.ty).id == self.prog.types.canonical(ty).id;
                if aggregate && !direct {
                    if let Some(slot) = cur.items.get_mut(cur.pos) {
                        slot.pending = Some(Pending::Expr(x));
                    }
                    return self.fill(ty, cur, must_be_const, false);
                }
                cur.pos += 1;
                if x.is_error() {
                    return None;
                }
                self.init_from_expr(ty, x, must_be_const, span)
            }
            None => {
                cur.pos += 1;
                None
            }
        }
    }

    /// Fills an aggregate from the cursor. `braced` is true for the aggregate a braced list
    /// belongs to (designators apply there); an elided aggregate stops at a designator.
    fn fill(
        &mut self,
        ty: QualType,
        cur: &mut Cursor,
        must_be_const: bool,
        braced: bool,
    ) -> Option<Init> {
        let types = &self.prog.types;
        let mut items: Vec<Option<Init>> = Vec::new();
        let mut union_field = None;
        match types.ckind(ty).clone() {
            TypeKind::Array(elem, len) => {
                let n = if let ArrayLen::Fixed(n) = len {
                    Some(n)
                } else {
                    None
                };
                let mut idx = 0usize;
                while let Some(it) = cur.items.get(cur.pos) {
                    match it.item.designators.first() {
                        Some(ast::Designator::Index { index, .. }) if braced => {
                            let he = self.expr(index);
                            if let Some(v) = self.const_int(&he) {
                                idx = v.max(0) as usize;
                            }
                        }
                        Some(_) if !braced || idx > 0 || !items.is_empty() => break,
                        _ => {}
                    }
                    if n.is_some_and(|n| idx as u64 >= n) || idx >= MAX_INIT_ELEMENTS {
                        if idx >= MAX_INIT_ELEMENTS {
                            self.err(
                                it.item.span,
                                format!("array initializer index {idx} is too large"),
                            );
                            cur.pos = cur.items.len();
                        }
                        break;
                    }
                    let v = self.sub_init(elem, cur, must_be_const);
                    if items.len() <= idx {
                        items.resize_with(idx + 1, || None);
                    }
                    if let Some(slot) = items.get_mut(idx) {
                        *slot = v;
                    }
                    idx += 1;
                }
            }
            TypeKind::Vector(s, n) => {
                let elem = QualType::new(scalar_id(s));
                for _ in 0..n {
                    if cur.pos >= cur.items.len() {
                        break;
                    }
                    items.push(self.sub_init(elem, cur, must_be_const));
                }
            }
            TypeKind::Record(rid) => {
                let (fields, is_union) = match self.prog.types.record(rid) {
                    Some(d) => (
                        d.fields.iter().map(|f| (f.name, f.ty)).collect::<Vec<_>>(),
                        d.is_union,
                    ),
                    None => (Vec::new(), false),
                };
                items.resize_with(fields.len(), || None);
                let mut idx = 0usize;
                while let Some(it) = cur.items.get(cur.pos) {
                    match it.item.designators.first() {
                        Some(ast::Designator::Field { name, .. }) if braced => {
                            match fields.iter().position(|(n, _)| *n == Some(name.name)) {
                                Some(p) => idx = p,
                                None => {
                                    let t = self.prog.types.print(ty.unqualified());
                                    self.err(
                                        name.span,
                                        format!("field designator '{}' does not refer to any field in type '{t}'", name.name),
                                    );
                                    cur.pos = cur.items.len();
                                    return None;
                                }
                            }
                        }
                        Some(_) if !braced || idx > 0 => break,
                        _ => {}
                    }
                    let Some(&(_, fty)) = fields.get(idx) else {
                        break;
                    };
                    if self.is_opaque_field(fty) {
                        // Already reported on the field; skip its initializer.
                        cur.pos += 1;
                        idx += 1;
                        continue;
                    }
                    let v = self.sub_init(fty, cur, must_be_const);
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
            _ => return self.sub_init(ty, cur, must_be_const),
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
            ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, ..) => {
                // `p + 1 + 1 ...`: a loop down the chain.
                let mut x = e;
                while let ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, a, b) = &x.kind {
                    if self.const_int(b).is_none() {
                        return false;
                    }
                    x = a;
                }
                self.is_constant_initializer(x)
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
