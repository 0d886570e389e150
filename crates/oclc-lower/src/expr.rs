//! Lowering of expressions: rvalues, places (lvalues), conversions, operators, calls.

use oclc_ir::{
    AddrSpace, BinOp as IrBin, CmpOp, ConvOp, Op, Scalar as IrScalar, Type, UnOp as IrUn, Value,
};
use oclc_sema::hir::{BinOp, CastKind, Expr, ExprKind, UnOp};
use oclc_sema::types::QualType;

use crate::constant::{norm_int, round_float};
use crate::func::{FnCx, Loc, MAX_DEPTH};
use crate::ty::{self, Shape};

/// The result of an expression.
#[derive(Clone, Copy, Debug)]
pub enum RV {
    /// A scalar, vector or pointer value.
    V(Value),
    /// A struct, union or array: the address of its bytes.
    Agg(Value),
    Void,
}

impl RV {
    /// The value or address (a placeholder for `void`).
    pub fn value(self) -> Value {
        match self {
            RV::V(v) | RV::Agg(v) => v,
            RV::Void => Value(u32::MAX),
        }
    }
}

/// An lvalue.
#[derive(Clone, Debug)]
pub enum Place {
    /// A whole object.
    Obj(Loc),
    /// Some lanes of a vector object (a swizzle); lanes past the vector's width (`.hi` of a
    /// 3-vector) read as undefined and are not written.
    Lanes(Loc, Type, Vec<u8>),
    /// One lane chosen at run time (`v[i]`); the index is an `i64`.
    Dyn(Loc, Type, Value),
}

impl FnCx<'_, '_> {
    /// Lowers an expression for its value.
    pub fn rvalue(&mut self, e: &Expr) -> RV {
        if self.depth > MAX_DEPTH {
            if self.depth == MAX_DEPTH + 1 {
                self.cx.error(e.span, "expression is nested too deeply");
            }
            return self.undef_rv(e.ty);
        }
        self.warn_wide(e);
        self.depth += 1;
        let saved = self.span;
        self.span = e.span;
        let r = self.rvalue_inner(e);
        self.span = saved;
        self.depth -= 1;
        r
    }

    /// `long long` is a 128-bit integer on clang's SPIR targets (as sema lays it out, so
    /// `oclc check` agrees with clang), but 64-bit for the GPU compilers real kernels are
    /// written for (NVIDIA's, AMD's), and the devices have no 128-bit integers: a body
    /// computing with one computes in 64 bits, with a warning at its first such expression.
    /// A narrower value widened and narrowed again needs no warning.
    fn warn_wide(&mut self, e: &Expr) {
        if self.wide_reported {
            return;
        }
        let types = self.cx.types;
        let wide = |t: QualType| types.as_scalar(t).filter(|s| s.is_wide());
        let found = match &e.kind {
            ExprKind::Cast(CastKind::Integral, src) if wide(src.ty).is_none() => None,
            ExprKind::Cast(CastKind::IntToFloat, src) => wide(src.ty),
            // A 64-bit counter, whatever clang's `unsigned long long` type for it.
            ExprKind::BuiltinCall { builtin, .. }
                if builtin.name.as_str() == "__builtin_readcyclecounter" =>
            {
                None
            }
            ExprKind::Binary(_, a, b) => wide(e.ty).or(wide(a.ty)).or(wide(b.ty)),
            _ => wide(e.ty),
        };
        let Some(s) = found else { return };
        self.wide_reported = true;
        self.cx.diags.push(
            oclc_syntax::Diagnostic::warning(
                e.span,
                format!(
                    "'{}' is a 128-bit integer type on the SPIR target; oclc's devices compute \
                     it in 64 bits, as GPU OpenCL compilers do",
                    s.name()
                ),
            )
            .with_group("long-long-64"),
        );
    }

    fn undef_rv(&mut self, qt: QualType) -> RV {
        match ty::shape(self.cx.types, qt) {
            Shape::Value(t) => RV::V(self.undef(t)),
            Shape::Aggregate => {
                let size = ty::size_of(self.cx.types, qt);
                RV::Agg(self.temp(size, 8))
            }
            Shape::Void => RV::Void,
        }
    }

    fn vt(&self, qt: QualType) -> Option<Type> {
        ty::value_type(self.cx.types, qt)
    }

    pub fn ty_of(&self, v: Value) -> Type {
        self.f.value_type(v).unwrap_or(Type::I32)
    }

    /// The value of `rv` (an undefined value of `t` if it has none).
    pub fn rv_value(&mut self, rv: RV, t: Type) -> Value {
        match rv {
            RV::V(v) => v,
            _ => self.undef(t),
        }
    }

    /// The address of an aggregate result (a scratch slot if it has none).
    pub fn rv_ptr(&mut self, rv: RV, qt: QualType) -> Value {
        match rv {
            RV::Agg(p) => p,
            RV::V(v) if self.ty_of(v).is_ptr() => v,
            _ => {
                let size = ty::size_of(self.cx.types, qt);
                self.temp(size, 8)
            }
        }
    }

    fn rvalue_inner(&mut self, e: &Expr) -> RV {
        let types = self.cx.types;
        match &e.kind {
            ExprKind::IntLit(v) => self.int_const(e.ty, *v),
            ExprKind::Const(v) => self.int_const(e.ty, *v as u64),
            ExprKind::FloatLit(x) => match self.vt(e.ty) {
                Some(t) if t.is_float() => {
                    let s = t.elem().unwrap_or(IrScalar::F64);
                    RV::V(self.b().fconst(t, round_float(*x, s)))
                }
                Some(t) => RV::V(self.b().iconst(t, *x as i64 as u64)),
                None => RV::Void,
            },
            ExprKind::StrLit(_)
            | ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::Member { .. } => {
                let p = self.place(e);
                self.load(&p, e.ty)
            }
            ExprKind::Index { base, index } => {
                if e.lvalue || types.is_pointer(base.ty) {
                    let p = self.place(e);
                    return self.load(&p, e.ty);
                }
                // A lane of a vector rvalue.
                let b = self.rvalue(base);
                let vt = self.vt(base.ty).unwrap_or(Type::I32);
                let bv = self.rv_value(b, vt);
                let i = self.index_i64(index);
                RV::V(self.b().extract_dyn(bv, i))
            }
            ExprKind::Swizzle { base, comps } => {
                if e.lvalue || base.lvalue {
                    let p = self.place(e);
                    return self.load(&p, e.ty);
                }
                let b = self.rvalue(base);
                let vt = self.vt(base.ty).unwrap_or(Type::I32);
                let bv = self.rv_value(b, vt);
                RV::V(self.swizzle_value(bv, comps))
            }
            ExprKind::Func(_) => {
                self.cx
                    .error(e.span, "function pointers are not supported in OpenCL");
                RV::Void
            }
            ExprKind::Unary(op, x) => self.unary(*op, x, e),
            ExprKind::Binary(_, a, _) | ExprKind::Comma(a, _) if is_link(a) => {
                self.spine(e, Mode::Value).rv()
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
            ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, e),
            ExprKind::Cond(c, t, f) => self.conditional(c, t, f, e),
            ExprKind::Comma(a, b) => {
                self.rvalue(a);
                self.rvalue(b)
            }
            ExprKind::Call { callee, args } => self.call(*callee, args, e),
            ExprKind::BuiltinCall { builtin, args } => self.builtin_call(*builtin, args, e),
            ExprKind::ToAddrSpace { target, arg } => {
                let a = self.rvalue(arg);
                let v = self.rv_value(a, Type::Ptr(AddrSpace::Generic));
                let r = match self.ty_of(v) {
                    Type::Ptr(s) if s == *target => v,
                    Type::Ptr(AddrSpace::Generic) => self.b().space_test(v, *target),
                    Type::Ptr(AddrSpace::Constant) | Type::Ptr(_) => self.b().null(*target),
                    _ => self.b().null(*target),
                };
                let want = self.vt(e.ty).unwrap_or(Type::Ptr(*target));
                RV::V(self.coerce(r, want))
            }
            ExprKind::GetFence(x) => {
                let a = self.rvalue(x);
                let v = self.rv_value(a, Type::Ptr(AddrSpace::Generic));
                let r = self.b().get_fence(v);
                let want = self.vt(e.ty).unwrap_or(Type::I32);
                RV::V(self.coerce(r, want))
            }
            ExprKind::AddrOf(x) => {
                let p = self.place(x);
                let a = match p {
                    Place::Obj(Loc::Mem(a)) => a,
                    _ => {
                        self.cx
                            .error(e.span, "cannot take the address of this expression");
                        self.undef(Type::Ptr(AddrSpace::Private))
                    }
                };
                match self.vt(e.ty) {
                    Some(t) => RV::V(self.coerce(a, t)),
                    None => RV::V(a),
                }
            }
            ExprKind::VectorLit(parts) => self.vector_lit(parts, e),
            ExprKind::Cast(kind, x) => self.cast(*kind, x, e),
            ExprKind::InitList(init) => {
                let size = ty::size_of(types, e.ty);
                let align = ty::align_of(types, e.ty);
                let p = self.temp(size, align);
                self.init_mem(p, e.ty, init, false);
                match ty::shape(types, e.ty) {
                    Shape::Value(t) => RV::V(self.b().load(t, p)),
                    Shape::Aggregate => RV::Agg(p),
                    Shape::Void => RV::Void,
                }
            }
            ExprKind::StmtExpr { body, value } => {
                self.block(body);
                match value {
                    Some(v) => self.rvalue(v),
                    None => RV::Void,
                }
            }
            ExprKind::Error => self.undef_rv(e.ty),
        }
    }

    fn int_const(&mut self, qt: QualType, bits: u64) -> RV {
        match self.vt(qt) {
            Some(t) if t.is_float() => RV::V(self.b().fconst(t, bits as i64 as f64)),
            Some(Type::Ptr(s)) => RV::V(self.b().null(s)),
            Some(t) => {
                let s = t.elem().unwrap_or(IrScalar::I32);
                RV::V(self.b().iconst(t, norm_int(bits, s, false)))
            }
            None => RV::Void,
        }
    }

    /// An index expression as an `i64` (sign- or zero-extended by its type).
    pub fn index_i64(&mut self, index: &Expr) -> Value {
        let r = self.rvalue(index);
        let v = self.rv_value(r, Type::I64);
        let signed = ty::is_signed(self.cx.types, index.ty);
        self.int_cast(v, Type::I64, signed)
    }

    // ---- places ----

    pub fn place(&mut self, e: &Expr) -> Place {
        self.warn_wide(e);
        let saved = self.span;
        self.span = e.span;
        let p = self.place_inner(e);
        self.span = saved;
        p
    }

    fn place_inner(&mut self, e: &Expr) -> Place {
        if self.depth > MAX_DEPTH {
            self.too_deep(e.span, "expression");
            let u = self.undef(Type::Ptr(AddrSpace::Private));
            return Place::Obj(Loc::Mem(u));
        }
        self.depth += 1;
        let r = self.place_kind(e);
        self.depth -= 1;
        r
    }

    fn place_kind(&mut self, e: &Expr) -> Place {
        let types = self.cx.types;
        match &e.kind {
            ExprKind::Var(v) => Place::Obj(self.var_loc(*v)),
            ExprKind::Deref(p) => {
                let r = self.rvalue(p);
                let v = self.rv_value(r, Type::Ptr(AddrSpace::Private));
                Place::Obj(Loc::Mem(v))
            }
            ExprKind::StrLit(bytes) => {
                let g = self.cx.string_literal(bytes, e.span);
                let p = self.b().global_addr(g, AddrSpace::Constant);
                Place::Obj(Loc::Mem(p))
            }
            ExprKind::Index { base, index } if types.is_pointer(base.ty) => {
                let r = self.rvalue(base);
                let p = self.rv_value(r, Type::Ptr(AddrSpace::Private));
                let es = ty::size_of(types, e.ty).max(1);
                let i = self.index_i64(index);
                let off = self.scale(i, es);
                let q = self.b().ptr_add(p, off);
                self.derive_align(p, q, es, false);
                Place::Obj(Loc::Mem(q))
            }
            ExprKind::Index { base, index } => {
                let vt = self.vt(base.ty).unwrap_or(Type::I32);
                let loc = self.object_loc(base);
                let i = self.index_i64(index);
                Place::Dyn(loc, vt, i)
            }
            ExprKind::Member {
                base,
                record,
                field,
            } => {
                let off = types
                    .record(*record)
                    .and_then(|r| r.layout.offsets.get(*field as usize).copied())
                    .unwrap_or(0);
                let packed = types.record(*record).is_some_and(|r| r.packed);
                let p = self.object_addr(base);
                let q = if off == 0 {
                    p
                } else {
                    self.b().ptr_add_const(p, off as i64)
                };
                self.derive_align(p, q, off, packed);
                Place::Obj(Loc::Mem(q))
            }
            ExprKind::Swizzle { base, comps } => {
                let vt = self.vt(base.ty).unwrap_or(Type::I32);
                if base.lvalue {
                    match self.place(base) {
                        Place::Obj(loc) => Place::Lanes(loc, vt, comps.clone()),
                        Place::Lanes(loc, vt, inner) => {
                            let c = comps
                                .iter()
                                .map(|c| inner.get(*c as usize).copied().unwrap_or(0))
                                .collect();
                            Place::Lanes(loc, vt, c)
                        }
                        Place::Dyn(loc, vt, i) => Place::Dyn(loc, vt, i),
                    }
                } else {
                    let loc = self.object_loc(base);
                    Place::Lanes(loc, vt, comps.clone())
                }
            }
            ExprKind::InitList(init) => {
                let size = ty::size_of(types, e.ty);
                let align = ty::align_of(types, e.ty);
                let p = self.temp(size, align);
                self.init_mem(p, e.ty, init, false);
                Place::Obj(Loc::Mem(p))
            }
            ExprKind::Cast(CastKind::NoOp, x) if x.lvalue => self.place(x),
            ExprKind::Comma(a, b) => {
                self.rvalue(a);
                self.place(b)
            }
            _ => {
                let loc = self.object_loc(e);
                Place::Obj(loc)
            }
        }
    }

    /// Where the object `e` designates is (an rvalue is spilled to a temporary).
    fn object_loc(&mut self, e: &Expr) -> Loc {
        if e.lvalue
            && let Place::Obj(loc) = self.place(e)
        {
            return loc;
        }
        Loc::Mem(self.object_addr(e))
    }

    /// The address of the object `e` designates (spilling rvalues to a temporary).
    fn object_addr(&mut self, e: &Expr) -> Value {
        if e.lvalue {
            match self.place(e) {
                Place::Obj(Loc::Mem(p)) => return p,
                p => {
                    let v = self.load(&p, e.ty);
                    return self.spill(v, e.ty);
                }
            }
        }
        let r = self.rvalue(e);
        self.spill(r, e.ty)
    }

    fn spill(&mut self, r: RV, qt: QualType) -> Value {
        match r {
            RV::Agg(p) => p,
            RV::V(v) => {
                let types = self.cx.types;
                let t = self.ty_of(v);
                let size = ty::size_of(types, qt).max(u64::from(t.store_size()));
                let p = self.temp(size, u64::from(t.align()));
                self.b().store(p, v);
                p
            }
            RV::Void => self.temp(1, 1),
        }
    }

    fn load_loc(&mut self, loc: Loc, t: Type) -> Value {
        match loc {
            Loc::Mem(p) => self.load_mem(t, p),
            Loc::Ssa(v) => self.read_var(v),
        }
    }

    fn store_loc(&mut self, loc: Loc, v: Value) {
        match loc {
            Loc::Mem(p) => self.store_mem(p, v),
            Loc::Ssa(var) => self.write_var(var, v),
        }
    }

    pub fn load(&mut self, p: &Place, qt: QualType) -> RV {
        let types = self.cx.types;
        match p {
            Place::Obj(loc) => match (ty::shape(types, qt), *loc) {
                (Shape::Value(t), loc) => RV::V(self.load_loc(loc, t)),
                (Shape::Aggregate, Loc::Mem(a)) => RV::Agg(a),
                (Shape::Aggregate, Loc::Ssa(_)) => self.undef_rv(qt),
                (Shape::Void, _) => RV::Void,
            },
            Place::Lanes(loc, vt, comps) => {
                let v = self.load_loc(*loc, *vt);
                RV::V(self.swizzle_value(v, comps))
            }
            Place::Dyn(loc, vt, i) => match *loc {
                Loc::Mem(a) => {
                    let es = vt.elem().unwrap_or(IrScalar::I32);
                    let off = self.scale(*i, u64::from(es.bytes()));
                    let q = self.b().ptr_add(a, off);
                    self.derive_align(a, q, u64::from(es.bytes()), false);
                    RV::V(self.load_mem(Type::Scalar(es), q))
                }
                Loc::Ssa(var) => {
                    let v = self.read_var(var);
                    RV::V(self.b().extract_dyn(v, *i))
                }
            },
        }
    }

    pub fn store(&mut self, p: &Place, qt: QualType, r: RV) {
        let types = self.cx.types;
        match p {
            Place::Obj(loc) => match (ty::shape(types, qt), r, *loc) {
                (Shape::Aggregate, r, Loc::Mem(dst)) => {
                    let src = self.rv_ptr(r, qt);
                    let size = ty::size_of(types, qt);
                    if src != dst {
                        let n = self.byte_count(size);
                        self.b().memcpy(dst, src, n);
                    }
                }
                (Shape::Value(t), RV::V(v), loc) => {
                    let v = self.coerce(v, t);
                    self.store_loc(loc, v);
                }
                _ => {}
            },
            Place::Lanes(loc, vt, comps) => {
                let RV::V(x) = r else { return };
                let n = vt.lanes() as u8;
                let mut v = self.load_loc(*loc, *vt);
                let single = comps.len() == 1;
                for (i, c) in comps.iter().enumerate() {
                    if *c >= n {
                        continue;
                    }
                    let lane = if single {
                        x
                    } else {
                        self.b().extract(x, i as u8)
                    };
                    v = self.b().insert(v, lane, *c);
                }
                self.store_loc(*loc, v);
            }
            Place::Dyn(loc, vt, i) => {
                let RV::V(x) = r else { return };
                match *loc {
                    Loc::Mem(a) => {
                        let es = vt.elem().unwrap_or(IrScalar::I32);
                        let off = self.scale(*i, u64::from(es.bytes()));
                        let q = self.b().ptr_add(a, off);
                        self.derive_align(a, q, u64::from(es.bytes()), false);
                        self.store_mem(q, x);
                    }
                    Loc::Ssa(var) => {
                        let v = self.read_var(var);
                        let nv = self.b().insert_dyn(v, x, *i);
                        self.write_var(var, nv);
                    }
                }
            }
        }
    }

    /// Lanes `comps` of vector `v` (a scalar for one lane).
    fn swizzle_value(&mut self, v: Value, comps: &[u8]) -> Value {
        let n = self.ty_of(v).lanes() as u8;
        if n <= 1 {
            return v;
        }
        let c: Vec<u8> = comps.iter().map(|c| if *c < n { *c } else { 0 }).collect();
        if c.len() == 1 {
            return self.b().extract(v, c[0]);
        }
        if c.len() == n as usize && c.iter().enumerate().all(|(i, x)| i == *x as usize) {
            return v;
        }
        self.b().shuffle(v, c)
    }

    /// `i * size` as an `i64` byte offset.
    pub fn scale(&mut self, i: Value, size: u64) -> Value {
        if size == 1 {
            return i;
        }
        let s = self.b().i64(size as i64);
        self.b().bin(IrBin::Mul, i, s)
    }

    // ---- conversions ----

    /// Converts `v` of C type `from` to C type `to` (C's conversion rules).
    pub fn convert(&mut self, v: Value, from: QualType, to: QualType) -> Value {
        let types = self.cx.types;
        let Some(tt) = self.vt(to) else { return v };
        let fs = ty::is_signed(types, from);
        let ts = ty::is_signed(types, to);
        self.conv_raw(v, tt, fs, ts)
    }

    /// Converts `v` to IR type `to`, reading integers as signed per `fs` and producing
    /// signed integers from floats per `ts`.
    pub fn conv_raw(&mut self, v: Value, to: Type, fs: bool, ts: bool) -> Value {
        let from = self.ty_of(v);
        if from == to {
            return v;
        }
        match (from, to) {
            (Type::Ptr(_), Type::Ptr(_)) => self.coerce(v, to),
            (Type::Ptr(s), Type::Scalar(IrScalar::I1)) => {
                let z = self.b().null(s);
                self.b().cmp(CmpOp::Ne, v, z)
            }
            (Type::Ptr(_), Type::Scalar(_)) => self.b().conv(ConvOp::PtrToInt, v, to),
            (Type::Scalar(_), Type::Ptr(s)) => {
                let i = self.conv_raw(v, Type::I64, fs, false);
                self.b().int_to_ptr(i, s)
            }
            (Type::Scalar(_), Type::Vector(e, n)) => {
                let l = self.conv_raw(v, Type::Scalar(e), fs, ts);
                self.b().splat(l, n)
            }
            (Type::Vector(..), Type::Scalar(e)) => {
                let l = self.b().extract(v, 0);
                self.conv_raw(l, Type::Scalar(e), fs, ts)
            }
            _ => {
                if from.lanes() != to.lanes() {
                    return self.b().bitcast(v, to);
                }
                let (Some(fe), Some(te)) = (from.elem(), to.elem()) else {
                    return v;
                };
                if te == IrScalar::I1 {
                    return self.b().conv(ConvOp::ToBool, v, to);
                }
                match (fe.is_float(), te.is_float()) {
                    (false, false) => self.int_cast(v, to, fs),
                    (false, true) => {
                        let v = if fe == IrScalar::I1 {
                            self.int_cast(v, to.with_elem(IrScalar::I32), false)
                        } else {
                            v
                        };
                        let op = if fs && fe != IrScalar::I1 {
                            ConvOp::SToF
                        } else {
                            ConvOp::UToF
                        };
                        self.b().conv(op, v, to)
                    }
                    (true, false) => {
                        let op = if ts { ConvOp::FToS } else { ConvOp::FToU };
                        self.b().conv(op, v, to)
                    }
                    (true, true) => {
                        let op = if fe.bits() < te.bits() {
                            ConvOp::FExt
                        } else {
                            ConvOp::FTrunc
                        };
                        self.b().conv(op, v, to)
                    }
                }
            }
        }
    }

    /// Integer to integer of the same shape: extend (by `signed`) or truncate.
    pub fn int_cast(&mut self, v: Value, to: Type, signed: bool) -> Value {
        let from = self.ty_of(v);
        if from == to {
            return v;
        }
        let (Some(fe), Some(te)) = (from.elem(), to.elem()) else {
            return v;
        };
        if te == IrScalar::I1 {
            return self.b().conv(ConvOp::ToBool, v, to);
        }
        if let (Some(x), Type::Scalar(_)) = (self.int_const_of(v), to) {
            let ext = norm_int(x, fe, signed && fe != IrScalar::I1);
            return self.b().iconst(to, norm_int(ext, te, false));
        }
        let op = if fe.bits() < te.bits() {
            if signed && fe != IrScalar::I1 {
                ConvOp::SExt
            } else {
                ConvOp::ZExt
            }
        } else if fe.bits() > te.bits() {
            ConvOp::Trunc
        } else {
            return v;
        };
        self.b().conv(op, v, to)
    }

    /// Makes `v` have IR type `t` where only the pointer space (or nothing) differs: the
    /// explicit space casts of the IR.
    pub fn coerce(&mut self, v: Value, t: Type) -> Value {
        let from = self.ty_of(v);
        if from == t {
            return v;
        }
        match (from, t) {
            (Type::Ptr(a), Type::Ptr(b)) => match (a, b) {
                (AddrSpace::Private | AddrSpace::Global | AddrSpace::Local, AddrSpace::Generic) => {
                    self.b().to_generic(v)
                }
                (AddrSpace::Generic, AddrSpace::Private | AddrSpace::Global | AddrSpace::Local) => {
                    self.b().from_generic(v, b)
                }
                _ => {
                    let i = self.b().conv(ConvOp::PtrToInt, v, Type::I64);
                    self.b().int_to_ptr(i, b)
                }
            },
            (Type::Ptr(_), _) | (_, Type::Ptr(_)) => self.conv_raw(v, t, false, false),
            (a, b) if a.store_size() == b.store_size() && a.lanes() == b.lanes() => {
                self.conv_raw(v, t, true, true)
            }
            _ => self.conv_raw(v, t, true, true),
        }
    }

    /// Two pointers brought to one space for comparison or subtraction.
    fn unify_ptrs(&mut self, a: Value, b: Value) -> (Value, Value) {
        let (ta, tb) = (self.ty_of(a), self.ty_of(b));
        if ta == tb {
            return (a, b);
        }
        let named = |t: Type| {
            matches!(
                t,
                Type::Ptr(AddrSpace::Private | AddrSpace::Global | AddrSpace::Local)
            )
        };
        let generic = Type::Ptr(AddrSpace::Generic);
        if (named(ta) || ta == generic) && (named(tb) || tb == generic) {
            let a = self.coerce(a, generic);
            let b = self.coerce(b, generic);
            return (a, b);
        }
        let a = self.b().conv(ConvOp::PtrToInt, a, Type::I64);
        let b = self.b().conv(ConvOp::PtrToInt, b, Type::I64);
        (a, b)
    }

    fn cast(&mut self, kind: CastKind, x: &Expr, e: &Expr) -> RV {
        let types = self.cx.types;
        match kind {
            CastKind::LValueToRValue => {
                let p = self.place(x);
                self.load(&p, x.ty)
            }
            CastKind::ArrayToPointer => {
                let a = self.object_addr(x);
                let r = match self.vt(e.ty) {
                    Some(t) => self.coerce(a, t),
                    None => a,
                };
                // An array inside a packed record decays to an under-aligned pointer.
                self.derive_align(a, r, 0, false);
                RV::V(r)
            }
            CastKind::FunctionToPointer => {
                self.cx
                    .error(e.span, "function pointers are not supported in OpenCL");
                self.undef_rv(e.ty)
            }
            CastKind::ToVoid => {
                self.rvalue(x);
                RV::Void
            }
            CastKind::NullToPointer => {
                self.rvalue(x);
                match self.vt(e.ty) {
                    Some(Type::Ptr(s)) => RV::V(self.b().null(s)),
                    Some(t) => RV::V(self.zero(t)),
                    None => RV::Void,
                }
            }
            CastKind::NoOp if x.lvalue && ty::shape(types, x.ty) == Shape::Aggregate => {
                let p = self.place(x);
                self.load(&p, x.ty)
            }
            // `as_uint(uchar[4])`: the array's bytes read as the target type.
            CastKind::Reinterpret if x.lvalue && ty::shape(types, x.ty) == Shape::Aggregate => {
                let p = self.place(x);
                self.load(&p, e.ty)
            }
            CastKind::Reinterpret => {
                let r = self.rvalue(x);
                let Some(t) = self.vt(e.ty) else { return r };
                let v = self.rv_value(r, t);
                let from = self.ty_of(v);
                if from == t {
                    return RV::V(v);
                }
                if from.is_ptr() || t.is_ptr() {
                    return RV::V(self.conv_raw(v, t, false, false));
                }
                RV::V(self.b().bitcast(v, t))
            }
            _ => {
                let r = self.rvalue(x);
                let Some(t) = self.vt(e.ty) else {
                    return match r {
                        RV::Agg(p) => RV::Agg(p),
                        _ => RV::Void,
                    };
                };
                let v = match r {
                    RV::V(v) => v,
                    _ => return RV::V(self.undef(t)),
                };
                let fs = ty::is_signed(types, x.ty);
                let ts = ty::is_signed(types, e.ty);
                RV::V(match kind {
                    CastKind::ToGeneric | CastKind::FromGeneric(_) | CastKind::BitCast => {
                        self.coerce(v, t)
                    }
                    CastKind::VectorSplat => {
                        let (Type::Vector(es, n), false) = (t, self.ty_of(v).lanes() > 1) else {
                            return RV::V(self.conv_raw(v, t, fs, ts));
                        };
                        let l = self.conv_raw(v, Type::Scalar(es), fs, ts);
                        self.b().splat(l, n)
                    }
                    _ => self.conv_raw(v, t, fs, ts),
                })
            }
        }
    }

    // ---- operators ----

    /// A condition as an `i1` (comparisons and `&&`/`||` branch directly).
    pub fn cond(&mut self, e: &Expr) -> Value {
        let saved = self.span;
        self.span = e.span;
        let r = self.cond_inner(e);
        self.span = saved;
        r
    }

    fn cond_inner(&mut self, e: &Expr) -> Value {
        let types = self.cx.types;
        match &e.kind {
            ExprKind::Binary(_, a, _) | ExprKind::Comma(a, _) if is_link(a) => {
                self.spine(e, Mode::Cond).cond()
            }
            ExprKind::Binary(op, a, b)
                if is_cmp(*op) && types.as_vector(a.ty).is_none() && self.depth < MAX_DEPTH =>
            {
                self.depth += 1;
                let r = self.compare(*op, a, b);
                self.depth -= 1;
                r
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b)
                if types.as_vector(e.ty).is_none() && self.depth < MAX_DEPTH =>
            {
                self.depth += 1;
                let r = self.short_circuit(*op, a, b);
                self.depth -= 1;
                r
            }
            ExprKind::Unary(UnOp::LogNot, x)
                if types.as_vector(e.ty).is_none() && self.depth < MAX_DEPTH =>
            {
                self.depth += 1;
                let c = self.cond(x);
                self.depth -= 1;
                let t = self.b().iconst(Type::I1, 1);
                self.b().bin(IrBin::Xor, c, t)
            }
            // Conversions that keep whether the value is zero.
            ExprKind::Cast(kind @ (CastKind::Integral | CastKind::ToBool | CastKind::NoOp), x)
                if types.as_vector(e.ty).is_none()
                    && types.as_vector(x.ty).is_none()
                    && (*kind != CastKind::Integral
                        || ty::size_of(types, e.ty) >= ty::size_of(types, x.ty))
                    && self.depth < MAX_DEPTH =>
            {
                self.depth += 1;
                let r = self.cond(x);
                self.depth -= 1;
                r
            }
            _ => {
                let r = self.rvalue(e);
                let v = self.rv_value(r, Type::I1);
                self.truth(v)
            }
        }
    }

    /// `v != 0` as an `i1` of the same shape.
    fn truth(&mut self, v: Value) -> Value {
        let t = self.ty_of(v);
        match t {
            Type::Scalar(IrScalar::I1) => v,
            Type::Ptr(s) => {
                let z = self.b().null(s);
                self.b().cmp(CmpOp::Ne, v, z)
            }
            t if t.is_float() => {
                let z = self.b().fconst(t, 0.0);
                self.b().cmp(CmpOp::FUne, v, z)
            }
            t => {
                let z = self.b().iconst(t, 0);
                self.b().cmp(CmpOp::Ne, v, z)
            }
        }
    }

    fn short_circuit(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Value {
        let ca = self.cond(a);
        self.short_circuit_rest(op, ca, b)
    }

    /// [`Self::short_circuit`] once the left operand's condition `ca` is known.
    fn short_circuit_rest(&mut self, op: BinOp, ca: Value, b: &Expr) -> Value {
        let rhs = self.new_block();
        let (join, ps) = self.new_block_with(&[Type::I1]);
        if op == BinOp::LogAnd {
            self.cond_br(ca, rhs, Vec::new(), join, vec![ca]);
        } else {
            self.cond_br(ca, join, vec![ca], rhs, Vec::new());
        }
        self.seal(rhs);
        self.switch_to(rhs);
        let cb = self.cond(b);
        self.br(join, vec![cb]);
        self.seal(join);
        self.switch_to(join);
        ps.first().copied().unwrap_or(ca)
    }

    /// A scalar comparison as an `i1`.
    fn compare(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Value {
        let ra = self.rvalue(a);
        self.compare_rest(op, ra, a, b)
    }

    /// [`Self::compare`] once the left operand's value `ra` is known.
    fn compare_rest(&mut self, op: BinOp, ra: RV, a: &Expr, b: &Expr) -> Value {
        let types = self.cx.types;
        let rb = self.rvalue(b);
        let va = self.rv_value(ra, Type::I32);
        let vb = self.rv_value(rb, Type::I32);
        let signed = ty::is_signed(types, a.ty);
        self.cmp_values(op, va, vb, signed)
    }

    fn cmp_values(&mut self, op: BinOp, va: Value, vb: Value, signed: bool) -> Value {
        let (va, vb) = if self.ty_of(va).is_ptr() || self.ty_of(vb).is_ptr() {
            let (x, y) = (self.ptr_or_int(va), self.ptr_or_int(vb));
            self.unify_ptrs(x, y)
        } else if self.ty_of(va) != self.ty_of(vb) {
            let t = self.ty_of(va);
            let y = self.conv_raw(vb, t, signed, signed);
            (va, y)
        } else {
            (va, vb)
        };
        let t = self.ty_of(va);
        let float = t.is_float();
        let unsigned = t.is_ptr() || !signed;
        let c = match (op, float, unsigned) {
            (BinOp::Eq, true, _) => CmpOp::FOeq,
            (BinOp::Ne, true, _) => CmpOp::FUne,
            (BinOp::Lt, true, _) => CmpOp::FOlt,
            (BinOp::Le, true, _) => CmpOp::FOle,
            (BinOp::Gt, true, _) => CmpOp::FOgt,
            (BinOp::Ge, true, _) => CmpOp::FOge,
            (BinOp::Eq, false, _) => CmpOp::Eq,
            (BinOp::Ne, false, _) => CmpOp::Ne,
            (BinOp::Lt, false, true) => CmpOp::Ult,
            (BinOp::Le, false, true) => CmpOp::Ule,
            (BinOp::Gt, false, true) => CmpOp::Ugt,
            (BinOp::Ge, false, true) => CmpOp::Uge,
            (BinOp::Lt, false, false) => CmpOp::Slt,
            (BinOp::Le, false, false) => CmpOp::Sle,
            (BinOp::Gt, false, false) => CmpOp::Sgt,
            _ => CmpOp::Sge,
        };
        self.b().cmp(c, va, vb)
    }

    /// A pointer operand, or an integer made into one (a comparison with `0`).
    fn ptr_or_int(&mut self, v: Value) -> Value {
        match self.ty_of(v) {
            Type::Ptr(_) => v,
            _ => {
                let i = self.conv_raw(v, Type::I64, false, false);
                self.b().int_to_ptr(i, AddrSpace::Generic)
            }
        }
    }

    /// An `i1` (or `i1` vector) as the C result type: `0/1` for scalars, `0/-1` lanes for
    /// vectors.
    fn bool_result(&mut self, c: Value, qt: QualType) -> Value {
        let t = self.vt(qt).unwrap_or(Type::I32);
        if t == self.ty_of(c) {
            return c;
        }
        if t.lanes() > 1 {
            if t.elem() == Some(IrScalar::I1) {
                return c;
            }
            self.b().conv(ConvOp::SExt, c, t)
        } else {
            self.int_cast(c, t, false)
        }
    }

    fn unary(&mut self, op: UnOp, x: &Expr, e: &Expr) -> RV {
        let types = self.cx.types;
        match op {
            UnOp::Neg | UnOp::BitNot => {
                let r = self.rvalue(x);
                let t = self.vt(e.ty).unwrap_or(Type::I32);
                let v = self.rv_value(r, t);
                let v = self.convert(v, x.ty, e.ty);
                let iop = match (op, self.ty_of(v).is_float()) {
                    (UnOp::Neg, true) => IrUn::FNeg,
                    (UnOp::Neg, false) => IrUn::Neg,
                    _ => IrUn::Not,
                };
                RV::V(self.b().un(iop, v))
            }
            UnOp::LogNot => {
                if types.as_vector(x.ty).is_some() {
                    let r = self.rvalue(x);
                    let v = self.rv_value(r, Type::I32);
                    let t = self.ty_of(v);
                    let z = self.zero(t);
                    let c = if t.is_float() {
                        self.b().cmp(CmpOp::FOeq, v, z)
                    } else {
                        self.b().cmp(CmpOp::Eq, v, z)
                    };
                    return RV::V(self.bool_result(c, e.ty));
                }
                let c = self.cond(x);
                let one = self.b().iconst(Type::I1, 1);
                let n = self.b().bin(IrBin::Xor, c, one);
                RV::V(self.bool_result(n, e.ty))
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let p = self.place(x);
                let old = self.load(&p, x.ty);
                let t = self.vt(x.ty).unwrap_or(Type::I32);
                let ov = self.rv_value(old, t);
                let inc = matches!(op, UnOp::PreInc | UnOp::PostInc);
                let nv = self.step(ov, x.ty, inc);
                self.store(&p, x.ty, RV::V(nv));
                if matches!(op, UnOp::PreInc | UnOp::PreDec) {
                    RV::V(nv)
                } else {
                    RV::V(ov)
                }
            }
        }
    }

    /// `v + 1` or `v - 1` for `++`/`--` on integers, floats, vectors and pointers.
    fn step(&mut self, v: Value, qt: QualType, inc: bool) -> Value {
        let types = self.cx.types;
        let t = self.ty_of(v);
        match t {
            Type::Ptr(_) => {
                let es = types
                    .pointee(qt)
                    .map_or(1, |p| ty::size_of(types, p).max(1)) as i64;
                let d = self.b().i64(if inc { es } else { -es });
                self.b().ptr_add(v, d)
            }
            Type::Scalar(IrScalar::I1) => {
                if inc {
                    self.b().iconst(t, 1)
                } else {
                    let one = self.b().iconst(t, 1);
                    self.b().bin(IrBin::Xor, v, one)
                }
            }
            t if t.is_float() => {
                let one = self.b().fconst(t, 1.0);
                self.b()
                    .bin(if inc { IrBin::FAdd } else { IrBin::FSub }, v, one)
            }
            t => {
                let one = self.b().iconst(t, 1);
                self.b()
                    .bin(if inc { IrBin::Add } else { IrBin::Sub }, v, one)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, e: &Expr) -> RV {
        let lhs = if self.lhs_is_cond(op, e) {
            Done::Cond(self.cond(a))
        } else {
            Done::Value(self.rvalue(a))
        };
        self.binary_rest(op, lhs, a, b, e)
    }

    /// Whether [`Self::binary`] takes its left operand as a condition (scalar `&&`, `||`).
    fn lhs_is_cond(&self, op: BinOp, e: &Expr) -> bool {
        matches!(op, BinOp::LogAnd | BinOp::LogOr) && self.cx.types.as_vector(e.ty).is_none()
    }

    /// [`Self::binary`] once its left operand is lowered: a condition when
    /// [`Self::lhs_is_cond`], else a value.
    fn binary_rest(&mut self, op: BinOp, lhs: Done, a: &Expr, b: &Expr, e: &Expr) -> RV {
        let types = self.cx.types;
        let vector = types.as_vector(e.ty).is_some();
        match op {
            BinOp::LogAnd | BinOp::LogOr if !vector => {
                let ca = lhs.cond();
                let c = self.short_circuit_rest(op, ca, b);
                RV::V(self.bool_result(c, e.ty))
            }
            BinOp::LogAnd | BinOp::LogOr => {
                let ra = lhs.rv();
                let rb = self.rvalue(b);
                let va = self.rv_value(ra, Type::I32);
                let vb = self.rv_value(rb, Type::I32);
                let ca = self.truth(va);
                let cb = self.truth(vb);
                let (ca, cb) = self.match_lanes(ca, cb);
                let iop = if op == BinOp::LogAnd {
                    IrBin::And
                } else {
                    IrBin::Or
                };
                let c = self.b().bin(iop, ca, cb);
                RV::V(self.bool_result(c, e.ty))
            }
            _ if is_cmp(op) => {
                let ra = lhs.rv();
                let rb = self.rvalue(b);
                let va = self.rv_value(ra, Type::I32);
                let vb = self.rv_value(rb, Type::I32);
                let signed = ty::is_signed(types, a.ty);
                let c = self.cmp_values(op, va, vb, signed);
                RV::V(self.bool_result(c, e.ty))
            }
            BinOp::PtrAdd | BinOp::PtrSub => {
                let ra = lhs.rv();
                let p = self.rv_value(ra, Type::Ptr(AddrSpace::Private));
                let i = self.index_i64(b);
                RV::V(self.ptr_offset(p, i, a.ty, op == BinOp::PtrSub))
            }
            BinOp::PtrDiff => {
                let ra = lhs.rv();
                let rb = self.rvalue(b);
                let pa = self.rv_value(ra, Type::Ptr(AddrSpace::Private));
                let pb = self.rv_value(rb, Type::Ptr(AddrSpace::Private));
                let (pa, pb) = self.unify_ptrs(pa, pb);
                let d = if self.ty_of(pa).is_ptr() {
                    self.b().ptr_diff(pa, pb)
                } else {
                    self.b().bin(IrBin::Sub, pa, pb)
                };
                let es = types
                    .pointee(a.ty)
                    .map_or(1, |p| ty::size_of(types, p).max(1));
                let q = if es == 1 {
                    d
                } else {
                    let s = self.b().i64(es as i64);
                    self.b().bin(IrBin::SDiv, d, s)
                };
                let t = self.vt(e.ty).unwrap_or(Type::I64);
                RV::V(self.int_cast(q, t, true))
            }
            _ => {
                let ra = lhs.rv();
                let rb = self.rvalue(b);
                let t = self.vt(e.ty).unwrap_or(Type::I32);
                let va = self.rv_value(ra, t);
                let vb = self.rv_value(rb, t);
                let signed = ty::is_signed(types, e.ty);
                let va = self.conv_raw(va, t, ty::is_signed(types, a.ty), signed);
                let vb = self.conv_raw(vb, t, ty::is_signed(types, b.ty), signed);
                RV::V(self.arith(op, va, vb, signed))
            }
        }
    }

    /// Lowers `e`, the root of a left spine of binary operators and commas (`a + b + c`,
    /// any length), in `mode`: the innermost operand first, then each link outwards, with
    /// the instructions, spans and order recursion would give. A chain's length is not
    /// nesting, so it takes no stack and counts against no depth limit.
    fn spine(&mut self, e: &Expr, mode: Mode) -> Done {
        // Down the spine: each link and how it is lowered; how the leaf is wanted.
        let mut links: Vec<(&Expr, Link)> = Vec::new();
        let (mut node, mut want) = (e, mode);
        let leaf_mode = loop {
            let link = match (&node.kind, want) {
                (ExprKind::Binary(op, a, _), Mode::Cond)
                    if is_cmp(*op) && self.cx.types.as_vector(a.ty).is_none() =>
                {
                    Link::Compare
                }
                (ExprKind::Binary(op, _, _), Mode::Cond) if self.lhs_is_cond(*op, node) => {
                    Link::ShortCircuit
                }
                (ExprKind::Binary(..) | ExprKind::Comma(..), Mode::Cond) => Link::Truth,
                (ExprKind::Binary(..) | ExprKind::Comma(..), Mode::Value) => Link::Value,
                _ => break want,
            };
            let (ExprKind::Binary(_, a, _) | ExprKind::Comma(a, _)) = &node.kind else {
                break want;
            };
            links.push((node, link));
            want = match (&node.kind, link) {
                (_, Link::ShortCircuit) => Mode::Cond,
                (ExprKind::Binary(op, _, _), Link::Value | Link::Truth)
                    if self.lhs_is_cond(*op, node) =>
                {
                    Mode::Cond
                }
                _ => Mode::Value,
            };
            node = a;
        };
        let mut done = match leaf_mode {
            Mode::Value => Done::Value(self.rvalue(node)),
            Mode::Cond => Done::Cond(self.cond(node)),
        };
        let saved = self.span;
        for (n, link) in links.into_iter().rev() {
            self.span = n.span;
            done = match (&n.kind, link) {
                (ExprKind::Binary(op, a, b), Link::Compare) => {
                    Done::Cond(self.compare_rest(*op, done.rv(), a, b))
                }
                (ExprKind::Binary(op, _, b), Link::ShortCircuit) => {
                    Done::Cond(self.short_circuit_rest(*op, done.cond(), b))
                }
                (ExprKind::Binary(op, a, b), Link::Value | Link::Truth) => {
                    Done::Value(self.binary_rest(*op, done, a, b, n))
                }
                (ExprKind::Comma(_, b), _) => Done::Value(self.rvalue(b)),
                _ => done,
            };
            if link == Link::Truth {
                let v = self.rv_value(done.rv(), Type::I1);
                done = Done::Cond(self.truth(v));
            }
        }
        self.span = saved;
        done
    }

    /// Brings two `i1` shapes together (a scalar against a vector is splatted).
    fn match_lanes(&mut self, a: Value, b: Value) -> (Value, Value) {
        let (ta, tb) = (self.ty_of(a), self.ty_of(b));
        match (ta, tb) {
            (Type::Vector(_, n), Type::Scalar(_)) => {
                let s = self.b().splat(b, n);
                (a, s)
            }
            (Type::Scalar(_), Type::Vector(_, n)) => {
                let s = self.b().splat(a, n);
                (s, b)
            }
            _ => (a, b),
        }
    }

    /// `p ± i` elements of `p`'s pointee.
    pub fn ptr_offset(&mut self, p: Value, i: Value, pty: QualType, sub: bool) -> Value {
        let types = self.cx.types;
        let es = types
            .pointee(pty)
            .map_or(1, |q| ty::size_of(types, q).max(1));
        let off = self.scale(i, es);
        let off = if sub {
            self.b().un(IrUn::Neg, off)
        } else {
            off
        };
        if !self.ty_of(p).is_ptr() {
            return p;
        }
        self.b().ptr_add(p, off)
    }

    /// The integer bits of `v` if an `iconst` defines it.
    pub fn int_const_of(&self, v: Value) -> Option<u64> {
        let d = self.f.values.get(v.index())?;
        let oclc_ir::ValueDef::Inst(i) = d.def else {
            return None;
        };
        match self.f.insts.get(i.index())?.op {
            Op::Const(oclc_ir::Const::Int(x)) if d.ty.is_int() && d.ty.lanes() == 1 => Some(x),
            _ => None,
        }
    }

    /// An arithmetic operator on two values of one type.
    pub fn arith(&mut self, op: BinOp, a: Value, b: Value, signed: bool) -> Value {
        let t = self.ty_of(a);
        let b = if self.ty_of(b) != t {
            self.conv_raw(b, t, signed, signed)
        } else {
            b
        };
        if let (Some(x), Some(y), Type::Scalar(s)) = (self.int_const_of(a), self.int_const_of(b), t)
            && let Some(r) = fold_int(op, x, y, s, signed)
        {
            return self.b().iconst(t, r);
        }
        let float = t.is_float();
        let iop = match (op, float) {
            (BinOp::Add, true) => IrBin::FAdd,
            (BinOp::Sub, true) => IrBin::FSub,
            (BinOp::Mul, true) => IrBin::FMul,
            (BinOp::Div, true) => IrBin::FDiv,
            (BinOp::Rem, true) => IrBin::FRem,
            (BinOp::Add, false) => IrBin::Add,
            (BinOp::Sub, false) => IrBin::Sub,
            (BinOp::Mul, false) => IrBin::Mul,
            (BinOp::Div, false) if signed => IrBin::SDiv,
            (BinOp::Div, false) => IrBin::UDiv,
            (BinOp::Rem, false) if signed => IrBin::SRem,
            (BinOp::Rem, false) => IrBin::URem,
            (BinOp::Shl, _) => IrBin::Shl,
            (BinOp::Shr, _) if signed => IrBin::AShr,
            (BinOp::Shr, _) => IrBin::LShr,
            (BinOp::BitAnd, _) => IrBin::And,
            (BinOp::BitOr, _) => IrBin::Or,
            _ => IrBin::Xor,
        };
        self.b().bin(iop, a, b)
    }

    fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr, e: &Expr) -> RV {
        let types = self.cx.types;
        let Some(op) = op else {
            let r = self.rvalue(rhs);
            let r = match (r, self.vt(lhs.ty)) {
                (RV::V(v), Some(t)) => RV::V(self.convert_to(v, rhs.ty, lhs.ty, t)),
                (r, _) => r,
            };
            let p = self.place(lhs);
            self.store(&p, lhs.ty, r);
            return r;
        };
        let p = self.place(lhs);
        let old = self.load(&p, lhs.ty);
        let lt = self.vt(lhs.ty).unwrap_or(Type::I32);
        let ov = self.rv_value(old, lt);
        let r = self.rvalue(rhs);
        let rt = self.vt(rhs.ty).unwrap_or(lt);
        let rv = self.rv_value(r, rt);
        let nv = match op {
            BinOp::PtrAdd | BinOp::PtrSub => {
                let signed = ty::is_signed(types, rhs.ty);
                let i = self.int_cast(rv, Type::I64, signed);
                self.ptr_offset(ov, i, lhs.ty, op == BinOp::PtrSub)
            }
            BinOp::Shl | BinOp::Shr => {
                // The computation type is the promoted left operand.
                let ct = match lt {
                    Type::Scalar(s) if s.bits() < 32 && s.is_int() => Type::I32,
                    t => t,
                };
                let ls = ty::is_signed(types, lhs.ty) || (ct != lt && lt != Type::I1);
                let a = self.int_cast(ov, ct, ty::is_signed(types, lhs.ty));
                let amount = self.conv_raw(rv, ct, ty::is_signed(types, rhs.ty), false);
                let res = self.arith(op, a, amount, ls);
                self.conv_raw(res, lt, ls, ty::is_signed(types, lhs.ty))
            }
            _ => {
                // The computation type is the right operand's (already converted by sema).
                let cs = ty::is_signed(types, rhs.ty);
                let a = self.conv_raw(ov, rt, ty::is_signed(types, lhs.ty), cs);
                let res = self.arith(op, a, rv, cs);
                self.conv_raw(res, lt, cs, ty::is_signed(types, lhs.ty))
            }
        };
        self.store(&p, lhs.ty, RV::V(nv));
        let _ = e;
        RV::V(nv)
    }

    fn convert_to(&mut self, v: Value, from: QualType, to: QualType, t: Type) -> Value {
        if self.ty_of(v) == t {
            return v;
        }
        let c = self.convert(v, from, to);
        self.coerce(c, t)
    }

    fn conditional(&mut self, c: &Expr, t: &Expr, f: &Expr, e: &Expr) -> RV {
        let types = self.cx.types;
        if types.as_vector(c.ty).is_some() {
            // Lane-wise selection by the most significant bit of each condition lane.
            let rc = self.rvalue(c);
            let rt = self.rvalue(t);
            let rf = self.rvalue(f);
            let ty_ = self.vt(e.ty).unwrap_or(Type::I32);
            let cv = self.rv_value(rc, Type::I32);
            let tv = self.rv_value(rt, ty_);
            let fv = self.rv_value(rf, ty_);
            let tv = self.coerce(tv, ty_);
            let fv = self.coerce(fv, ty_);
            let ct = self.ty_of(cv);
            let mask = if ct.is_float() {
                let z = self.zero(ct);
                self.b().cmp(CmpOp::FUne, cv, z)
            } else {
                let z = self.zero(ct);
                self.b().cmp(CmpOp::Slt, cv, z)
            };
            return RV::V(self.b().select(mask, tv, fv));
        }
        let shape = ty::shape(types, e.ty);
        if let Shape::Value(rt) = shape
            && is_cheap(t, 0)
            && is_cheap(f, 0)
        {
            let cv = self.cond(c);
            let a = self.rvalue(t);
            let b = self.rvalue(f);
            let av = self.rv_value(a, rt);
            let bv = self.rv_value(b, rt);
            let av = self.convert_to(av, t.ty, e.ty, rt);
            let bv = self.convert_to(bv, f.ty, e.ty, rt);
            return RV::V(self.b().select(cv, av, bv));
        }
        let cv = self.cond(c);
        let tb = self.new_block();
        let fb = self.new_block();
        let (params, agg) = match shape {
            Shape::Value(t) => (vec![t], None),
            Shape::Aggregate => {
                let size = ty::size_of(types, e.ty);
                (Vec::new(), Some((self.temp(size, 8), size)))
            }
            Shape::Void => (Vec::new(), None),
        };
        let (join, ps) = self.new_block_with(&params);
        self.cond_br(cv, tb, Vec::new(), fb, Vec::new());
        for (blk, arm) in [(tb, t), (fb, f)] {
            self.seal(blk);
            self.switch_to(blk);
            let r = self.rvalue(arm);
            let args = match (shape, r, agg) {
                (Shape::Value(rt), RV::V(v), _) => vec![self.convert_to(v, arm.ty, e.ty, rt)],
                (Shape::Value(rt), _, _) => vec![self.undef(rt)],
                (Shape::Aggregate, r, Some((tmp, size))) => {
                    let src = self.rv_ptr(r, arm.ty);
                    let n = self.byte_count(size);
                    self.b().memcpy(tmp, src, n);
                    Vec::new()
                }
                _ => Vec::new(),
            };
            self.br(join, args);
        }
        self.seal(join);
        self.switch_to(join);
        match (shape, agg) {
            (Shape::Value(_), _) => RV::V(ps.first().copied().unwrap_or(Value(u32::MAX))),
            (Shape::Aggregate, Some((tmp, _))) => RV::Agg(tmp),
            _ => RV::Void,
        }
    }

    fn vector_lit(&mut self, parts: &[Expr], e: &Expr) -> RV {
        let types = self.cx.types;
        let Some(t) = self.vt(e.ty) else {
            return RV::Void;
        };
        let Type::Vector(es, n) = t else {
            let r = parts.first().map(|p| self.rvalue(p));
            return match r {
                Some(RV::V(v)) => RV::V(self.coerce(v, t)),
                _ => RV::V(self.undef(t)),
            };
        };
        let ts = ty::is_signed(types, e.ty);
        let mut lanes = Vec::new();
        for p in parts {
            let r = self.rvalue(p);
            let v = self.rv_value(r, Type::Scalar(es));
            let pt = self.ty_of(v);
            let ps = ty::is_signed(types, p.ty);
            if parts.len() == 1 && pt.lanes() == u32::from(n) {
                let v = self.conv_raw(v, t, ps, ts);
                return RV::V(v);
            }
            match pt {
                Type::Vector(_, m) => {
                    for k in 0..m {
                        let l = self.b().extract(v, k);
                        lanes.push(self.conv_raw(l, Type::Scalar(es), ps, ts));
                    }
                }
                _ => lanes.push(self.conv_raw(v, Type::Scalar(es), ps, ts)),
            }
        }
        if lanes.len() == 1 {
            let l = lanes[0];
            return RV::V(self.b().splat(l, n));
        }
        while lanes.len() < n as usize {
            let u = self.undef(Type::Scalar(es));
            lanes.push(u);
        }
        lanes.truncate(n as usize);
        RV::V(self.b().build(lanes))
    }

    fn call(&mut self, callee: oclc_sema::hir::FuncId, args: &[Expr], e: &Expr) -> RV {
        let types = self.cx.types;
        let Some(fid) = self.cx.funcs.get(callee.0 as usize).copied().flatten() else {
            let name = self
                .cx
                .prog
                .function(callee)
                .map_or_else(String::new, |f| f.name.as_str().to_string());
            self.cx.error(
                e.span,
                format!("function '{name}' is called but never defined"),
            );
            return self.undef_rv(e.ty);
        };
        let abi = self.cx.abi.get(fid.index()).cloned();
        let param_tys: Vec<Type> = self
            .cx
            .function(fid)
            .map(|f| f.params.iter().map(|p| p.ty).collect())
            .unwrap_or_default();
        let mut vals = Vec::new();
        let sret = abi.as_ref().is_some_and(|a| a.sret);
        let ret_tmp = if sret {
            let size = ty::size_of(types, e.ty);
            let p = self.temp(size, ty::align_of(types, e.ty));
            vals.push(p);
            Some(p)
        } else {
            None
        };
        for a in args {
            let r = self.rvalue(a);
            let want = param_tys.get(vals.len()).copied();
            let v = match r {
                RV::Agg(p) => {
                    let size = ty::size_of(types, a.ty);
                    let t = self.temp(size, ty::align_of(types, a.ty));
                    let n = self.byte_count(size);
                    self.b().memcpy(t, p, n);
                    t
                }
                RV::V(v) => match want {
                    Some(t) => self.coerce(v, t),
                    None => v,
                },
                RV::Void => continue,
            };
            vals.push(v);
        }
        while vals.len() < param_tys.len() {
            let t = param_tys[vals.len()];
            let u = self.undef(t);
            vals.push(u);
        }
        vals.truncate(param_tys.len());
        let ret = abi.and_then(|a| a.ret);
        let r = self.b().call(fid, vals, ret);
        match (r, ret_tmp) {
            (_, Some(p)) => RV::Agg(p),
            (Some(v), None) => RV::V(v),
            (None, None) => RV::Void,
        }
    }
}

/// Folds an integer operator on constants (`None` for division by zero).
fn fold_int(op: BinOp, x: u64, y: u64, s: IrScalar, signed: bool) -> Option<u64> {
    let w = s.bits();
    let (sx, sy) = (norm_int(x, s, true) as i64, norm_int(y, s, true) as i64);
    let (ux, uy) = (norm_int(x, s, false), norm_int(y, s, false));
    let sh = (uy % u64::from(w.max(1))) as u32;
    let r = match op {
        BinOp::Add => ux.wrapping_add(uy),
        BinOp::Sub => ux.wrapping_sub(uy),
        BinOp::Mul => ux.wrapping_mul(uy),
        BinOp::Div | BinOp::Rem if uy == 0 => return None,
        BinOp::Div if signed => sx.wrapping_div(sy) as u64,
        BinOp::Div => ux / uy,
        BinOp::Rem if signed => sx.wrapping_rem(sy) as u64,
        BinOp::Rem => ux % uy,
        BinOp::Shl => ux.wrapping_shl(sh),
        BinOp::Shr if signed => sx.wrapping_shr(sh) as u64,
        BinOp::Shr => ux.wrapping_shr(sh),
        BinOp::BitAnd => ux & uy,
        BinOp::BitOr => ux | uy,
        BinOp::BitXor => ux ^ uy,
        _ => return None,
    };
    Some(norm_int(r, s, false))
}

/// Whether `e` is a link of a left spine (a binary operator or a comma).
fn is_link(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Binary(..) | ExprKind::Comma(..))
}

/// How a spine's node is wanted: its value ([`FnCx::rvalue`]) or an `i1` ([`FnCx::cond`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Value,
    Cond,
}

/// How one link of a spine is lowered, as recursion would: `rvalue`'s [`FnCx::binary`] or
/// comma, or one of `cond`'s cases (a comparison, `&&`/`||`, or the value tested against 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Value,
    Compare,
    ShortCircuit,
    Truth,
}

/// A lowered operand: a value, or an `i1` condition.
#[derive(Clone, Copy, Debug)]
enum Done {
    Value(RV),
    Cond(Value),
}

impl Done {
    fn rv(self) -> RV {
        match self {
            Done::Value(r) => r,
            // Not reached: each link is given the form it asked for.
            Done::Cond(c) => RV::V(c),
        }
    }

    fn cond(self) -> Value {
        match self {
            Done::Cond(c) => c,
            Done::Value(r) => r.value(),
        }
    }
}

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// Whether an arm of `?:` can be evaluated unconditionally: no side effects, no memory
/// access that could fault, no division.
fn is_cheap(e: &Expr, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::IntLit(_) | ExprKind::FloatLit(_) | ExprKind::Const(_) => true,
        ExprKind::Cast(CastKind::LValueToRValue, x) => matches!(x.kind, ExprKind::Var(_)),
        ExprKind::Cast(CastKind::FromGeneric(_) | CastKind::IntToPtr, _) => false,
        ExprKind::Cast(_, x) => is_cheap(x, d),
        ExprKind::Unary(UnOp::Neg | UnOp::BitNot | UnOp::LogNot, x) => is_cheap(x, d),
        ExprKind::Binary(op, a, b) => {
            !matches!(
                op,
                BinOp::Div | BinOp::Rem | BinOp::LogAnd | BinOp::LogOr | BinOp::PtrDiff
            ) && is_cheap(a, d)
                && is_cheap(b, d)
        }
        _ => false,
    }
}

#[allow(dead_code)]
fn _unused(_: Op) {}
