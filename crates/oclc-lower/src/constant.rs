//! Compile-time evaluation of initializers of program-scope and `static` variables into bytes
//! and relocations, and of the small constant operands lowering needs (memory orders, scopes).

use oclc_ir::{AddrSpace, GlobalId, Reloc};
use oclc_sema::hir::{BinOp, CastKind, Expr, ExprKind, Init, UnOp};
use oclc_sema::types::QualType;

use crate::module::Ctx;
use crate::ty::{self, Shape};
use oclc_ir::{Scalar as IrScalar, Type};

/// A constant value. Integers hold their bits truncated to the type and sign-extended when
/// the type is signed, so `as i64` and `as u64` both read them right.
#[derive(Clone, Debug, PartialEq)]
pub enum CVal {
    Int(u64),
    Float(f64),
    Vec(Vec<CVal>),
    /// The address of a memory object plus a byte offset.
    Addr {
        g: GlobalId,
        off: i64,
        space: AddrSpace,
    },
    Null,
}

impl CVal {
    fn is_true(&self) -> bool {
        match self {
            CVal::Int(v) => *v != 0,
            CVal::Float(f) => *f != 0.0,
            CVal::Addr { .. } => true,
            CVal::Null => false,
            CVal::Vec(_) => false,
        }
    }
}

/// An initializer that could not be evaluated at compile time.
pub struct NotConstant(pub oclc_syntax::Span);

/// Bytes of one memory object being initialized.
pub struct Image {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
}

impl Image {
    pub fn new(size: usize) -> Image {
        Image {
            bytes: vec![0; size],
            relocs: Vec::new(),
        }
    }

    fn put(&mut self, off: u64, data: &[u8]) {
        let Ok(start) = usize::try_from(off) else {
            return;
        };
        for (i, b) in data.iter().enumerate() {
            if let Some(slot) = self.bytes.get_mut(start + i) {
                *slot = *b;
            }
        }
    }

    /// The bytes with trailing zeros dropped (the IR zero-fills the rest).
    pub fn trimmed(mut self) -> (Vec<u8>, Vec<Reloc>) {
        while self.bytes.last() == Some(&0) {
            self.bytes.pop();
        }
        (self.bytes, self.relocs)
    }
}

/// Truncates `bits` to the width of the scalar and sign-extends signed types.
pub fn norm_int(bits: u64, s: IrScalar, signed: bool) -> u64 {
    let w = s.bits();
    if s == IrScalar::I1 {
        return u64::from(bits != 0);
    }
    if w >= 64 {
        return bits;
    }
    let m = bits & ((1u64 << w) - 1);
    if signed && (m >> (w - 1)) & 1 == 1 {
        m | !((1u64 << w) - 1)
    } else {
        m
    }
}

/// Rounds to the precision of a float type.
pub fn round_float(x: f64, s: IrScalar) -> f64 {
    match s {
        IrScalar::F32 => x as f32 as f64,
        IrScalar::F16 => f16_to_f64(f64_to_f16(x)),
        _ => x,
    }
}

/// `x` rounded to the nearest half (ties to even), as its bits.
pub fn f64_to_f16(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() || a >= 65520.0 {
        return sign | 0x7c00;
    }
    let min_normal = 2f64.powi(-14);
    if a < min_normal {
        let m = (a * 2f64.powi(24)).round_ties_even() as u16;
        return sign | m;
    }
    let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mant = a / 2f64.powi(e);
    let mut m = ((mant - 1.0) * 1024.0).round_ties_even() as u32;
    if m == 1024 {
        e += 1;
        m = 0;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | m as u16
}

pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

fn scalar_bytes(v: &CVal, t: IrScalar, signed: bool) -> Vec<u8> {
    let n = t.bytes() as usize;
    let bits = match (v, t.is_float()) {
        (CVal::Int(i), false) => *i,
        (CVal::Float(f), true) => float_bits(*f, t),
        (CVal::Int(i), true) => {
            let f = if signed { *i as i64 as f64 } else { *i as f64 };
            float_bits(f, t)
        }
        (CVal::Float(f), false) => *f as i64 as u64,
        _ => 0,
    };
    bits.to_le_bytes().get(..n).unwrap_or(&[]).to_vec()
}

fn float_bits(f: f64, t: IrScalar) -> u64 {
    match t {
        IrScalar::F16 => u64::from(f64_to_f16(f)),
        IrScalar::F32 => u64::from((f as f32).to_bits()),
        _ => f.to_bits(),
    }
}

impl Ctx<'_> {
    /// Writes the value of `init` for an object of type `qt` at byte `off` of `img`.
    pub fn write_init(
        &mut self,
        img: &mut Image,
        off: u64,
        qt: QualType,
        init: &Init,
        depth: u32,
    ) -> Result<(), NotConstant> {
        if depth > 256 {
            return Ok(());
        }
        match init {
            Init::Expr(e) => self.write_expr(img, off, qt, e),
            Init::List {
                items, union_field, ..
            } => {
                let types = self.types;
                if let Some((elem, _)) = ty::array_elem(types, qt) {
                    let es = ty::size_of(types, elem);
                    for (i, it) in items.iter().enumerate() {
                        if let Some(it) = it {
                            self.write_init(img, off + es * i as u64, elem, it, depth + 1)?;
                        }
                    }
                    return Ok(());
                }
                if let Some(r) = types.as_record(qt) {
                    let Some(def) = types.record(r) else {
                        return Ok(());
                    };
                    let fields: Vec<(u64, QualType)> = def
                        .fields
                        .iter()
                        .zip(&def.layout.offsets)
                        .map(|(f, o)| (*o, f.ty))
                        .collect();
                    if def.is_union {
                        let fi = union_field.unwrap_or(0) as usize;
                        if let (Some((fo, fty)), Some(it)) = (fields.get(fi), union_item(items, fi))
                        {
                            self.write_init(img, off + fo, *fty, it, depth + 1)?;
                        }
                        return Ok(());
                    }
                    for ((fo, fty), it) in fields.iter().zip(items) {
                        if let Some(it) = it {
                            self.write_init(img, off + fo, *fty, it, depth + 1)?;
                        }
                    }
                    return Ok(());
                }
                if let Some((s, n)) = types.as_vector(qt) {
                    let es = s.size();
                    let eq = QualType::new(elem_type_id(s));
                    let mut lane = 0u64;
                    for it in items {
                        if lane >= u64::from(n) {
                            break;
                        }
                        match it {
                            Some(Init::Expr(e)) => {
                                let v = self.const_eval(e).ok_or(NotConstant(e.span))?;
                                let parts = match v {
                                    CVal::Vec(vs) => vs,
                                    v => vec![v],
                                };
                                for p in parts {
                                    let b = scalar_bytes(&p, ty::ir_scalar(s), s.is_signed());
                                    img.put(off + lane * es, &b);
                                    lane += 1;
                                }
                            }
                            Some(sub @ Init::List { .. }) => {
                                self.write_init(img, off + lane * es, eq, sub, depth + 1)?;
                                lane += 1;
                            }
                            None => lane += 1,
                        }
                    }
                    return Ok(());
                }
                // A scalar in braces: `int x = { 5 };`.
                if let Some(Some(first)) = items.first() {
                    self.write_init(img, off, qt, first, depth + 1)?;
                }
                Ok(())
            }
        }
    }

    fn write_expr(
        &mut self,
        img: &mut Image,
        off: u64,
        qt: QualType,
        e: &Expr,
    ) -> Result<(), NotConstant> {
        let types = self.types;
        if let ExprKind::StrLit(bytes) = &e.kind
            && types.is_array(qt)
        {
            let n = ty::size_of(types, qt) as usize;
            let take = bytes.len().min(n);
            img.put(off, bytes.get(..take).unwrap_or(&[]));
            return Ok(());
        }
        if let ExprKind::InitList(init) = &e.kind {
            return self.write_init(img, off, qt, init, 1);
        }
        if let ExprKind::Cast(CastKind::NoOp | CastKind::LValueToRValue, inner) = &e.kind
            && matches!(ty::shape(types, qt), Shape::Aggregate)
        {
            return self.write_expr(img, off, qt, inner);
        }
        let v = self.const_eval(e).ok_or(NotConstant(e.span))?;
        self.write_value(img, off, qt, &v);
        Ok(())
    }

    fn write_value(&mut self, img: &mut Image, off: u64, qt: QualType, v: &CVal) {
        let types = self.types;
        match ty::shape(types, qt) {
            Shape::Value(Type::Ptr(space)) => match v {
                CVal::Addr { g, off: add, .. } => img.relocs.push(Reloc {
                    offset: off as u32,
                    target: *g,
                    addend: *add,
                    space,
                }),
                CVal::Int(i) => img.put(off, &i.to_le_bytes()),
                _ => {}
            },
            Shape::Value(t) => {
                let signed = ty::is_signed(types, qt);
                let Some(s) = t.elem() else { return };
                match v {
                    CVal::Vec(vs) => {
                        for (i, lane) in vs.iter().enumerate() {
                            let b = scalar_bytes(lane, s, signed);
                            img.put(off + (i as u64) * u64::from(s.bytes()), &b);
                        }
                    }
                    v => {
                        let b = scalar_bytes(v, s, signed);
                        for i in 0..t.lanes() {
                            img.put(off + u64::from(i * s.bytes()), &b);
                        }
                    }
                }
            }
            Shape::Aggregate | Shape::Void => {}
        }
    }

    /// Evaluates a constant expression; `None` if it is not one.
    pub fn const_eval(&mut self, e: &Expr) -> Option<CVal> {
        self.const_eval_depth(e, 0)
    }

    fn const_eval_depth(&mut self, e: &Expr, depth: u32) -> Option<CVal> {
        if depth > 512 {
            return None;
        }
        let d = depth + 1;
        let types = self.types;
        let shape = ty::shape(types, e.ty);
        let vt = match shape {
            Shape::Value(t) => Some(t),
            _ => None,
        };
        let signed = ty::is_signed(types, e.ty);
        let norm = |v: CVal| -> CVal { normalize(v, vt, signed) };
        Some(match &e.kind {
            ExprKind::IntLit(v) => norm(CVal::Int(*v)),
            ExprKind::Const(v) => norm(CVal::Int(*v as u64)),
            ExprKind::FloatLit(f) => norm(CVal::Float(*f)),
            ExprKind::Cast(kind, x) => {
                let from = x.ty;
                match kind {
                    CastKind::ArrayToPointer | CastKind::FunctionToPointer => {
                        let (g, off, space) = self.const_place(x, d)?;
                        CVal::Addr { g, off, space }
                    }
                    CastKind::NullToPointer => CVal::Null,
                    // A program-scope `__constant` variable (immutable, initialized earlier in
                    // definition order), which sema accepts in constant initializers as clang.
                    CastKind::LValueToRValue => {
                        let ExprKind::Var(v) = &x.kind else {
                            return None;
                        };
                        let g = self.global_of(*v)?;
                        let gv = self.m.globals.get(g.index())?;
                        let Shape::Value(t) = ty::shape(types, from) else {
                            return None;
                        };
                        if gv.space != AddrSpace::Constant
                            || !gv.relocs.is_empty()
                            || t.elem().is_none()
                        {
                            return None;
                        }
                        norm(read_value(&gv.init, t, ty::is_signed(types, from)))
                    }
                    CastKind::ToVoid => CVal::Int(0),
                    CastKind::BitCast
                    | CastKind::NoOp
                    | CastKind::ToGeneric
                    | CastKind::FromGeneric(_) => {
                        let v = self.const_eval_depth(x, d)?;
                        match v {
                            CVal::Addr { g, off, .. } => CVal::Addr {
                                g,
                                off,
                                space: match vt {
                                    Some(Type::Ptr(s)) => s,
                                    _ => AddrSpace::Generic,
                                },
                            },
                            v => norm(v),
                        }
                    }
                    CastKind::PtrToInt => match self.const_eval_depth(x, d)? {
                        CVal::Null => norm(CVal::Int(0)),
                        CVal::Int(i) => norm(CVal::Int(i)),
                        _ => return None,
                    },
                    CastKind::IntToPtr => match self.const_eval_depth(x, d)? {
                        CVal::Int(0) => CVal::Null,
                        CVal::Int(i) => CVal::Int(i),
                        _ => return None,
                    },
                    CastKind::VectorSplat => {
                        let v = self.const_eval_depth(x, d)?;
                        let n = ty::lanes(types, e.ty);
                        let es = vt.and_then(Type::elem);
                        let lane = convert(v, ty::is_signed(types, from), es, signed);
                        CVal::Vec(vec![lane; n as usize])
                    }
                    CastKind::Reinterpret => {
                        let v = self.const_eval_depth(x, d)?;
                        let size = ty::size_of(types, from).max(ty::size_of(types, e.ty));
                        let mut img = Image::new(size as usize);
                        self.write_value(&mut img, 0, from, &v);
                        read_value(&img.bytes, vt?, signed)
                    }
                    _ => {
                        let v = self.const_eval_depth(x, d)?;
                        let fs = ty::is_signed(types, from);
                        match (v, vt) {
                            (CVal::Vec(vs), Some(t)) => CVal::Vec(
                                vs.into_iter()
                                    .map(|l| convert(l, fs, t.elem(), signed))
                                    .collect(),
                            ),
                            (CVal::Null, Some(Type::Scalar(_))) => CVal::Int(0),
                            (CVal::Addr { .. }, Some(Type::Scalar(IrScalar::I1))) => CVal::Int(1),
                            (v, t) => convert(v, fs, t.and_then(Type::elem), signed),
                        }
                    }
                }
            }
            ExprKind::Unary(op, x) => {
                let v = self.const_eval_depth(x, d)?;
                let xf = vt.is_some_and(Type::is_float);
                match op {
                    UnOp::Neg => norm(map_lanes(v, &|l| match l {
                        CVal::Int(i) => CVal::Int(i.wrapping_neg()),
                        CVal::Float(f) => CVal::Float(-f),
                        o => o,
                    })),
                    UnOp::BitNot => norm(map_lanes(v, &|l| match l {
                        CVal::Int(i) => CVal::Int(!i),
                        o => o,
                    })),
                    UnOp::LogNot => {
                        let _ = xf;
                        match v {
                            CVal::Vec(vs) => CVal::Vec(
                                vs.iter()
                                    .map(|l| CVal::Int(if l.is_true() { 0 } else { u64::MAX }))
                                    .collect(),
                            ),
                            v => CVal::Int(u64::from(!v.is_true())),
                        }
                    }
                    _ => return None,
                }
            }
            ExprKind::Binary(op, a, b) if !matches!(a.kind, ExprKind::Binary(..)) => {
                let av = self.const_eval_depth(a, d)?;
                return self.const_binary(e, *op, a, av, b, d);
            }
            ExprKind::Binary(..) => {
                // A chain (`1 + 2 + 3 ...`) is folded in a loop: its length is not nesting.
                let mut links = Vec::new();
                let mut leaf = e;
                while let ExprKind::Binary(op, a, b) = &leaf.kind {
                    links.push((leaf, *op, &**a, &**b));
                    leaf = a;
                }
                let mut v = self.const_eval_depth(leaf, d)?;
                for (node, op, a, b) in links.into_iter().rev() {
                    v = self.const_binary(node, op, a, v, b, d)?;
                }
                v
            }
            ExprKind::Cond(c, t, f) => {
                let cv = self.const_eval_depth(c, d)?;
                if cv.is_true() {
                    self.const_eval_depth(t, d)?
                } else {
                    self.const_eval_depth(f, d)?
                }
            }
            ExprKind::Comma(_, b) => self.const_eval_depth(b, d)?,
            ExprKind::VectorLit(parts) => {
                let mut lanes = Vec::new();
                let es = vt.and_then(Type::elem);
                for p in parts {
                    let ps = ty::is_signed(types, p.ty);
                    match self.const_eval_depth(p, d)? {
                        CVal::Vec(vs) => {
                            lanes.extend(vs.into_iter().map(|l| convert(l, ps, es, signed)))
                        }
                        v => lanes.push(convert(v, ps, es, signed)),
                    }
                }
                let n = ty::lanes(types, e.ty) as usize;
                if lanes.len() == 1 && n > 1 {
                    let l = lanes.pop()?;
                    lanes = vec![l; n];
                }
                CVal::Vec(lanes)
            }
            ExprKind::AddrOf(x) => {
                let (g, off, space) = self.const_place(x, d)?;
                CVal::Addr { g, off, space }
            }
            _ => return None,
        })
    }

    /// `e` (the binary operator `op` on `a` and `b`) once `a`'s value `av` is known.
    fn const_binary(
        &mut self,
        e: &Expr,
        op: BinOp,
        a: &Expr,
        av: CVal,
        b: &Expr,
        d: u32,
    ) -> Option<CVal> {
        let types = self.types;
        let vt = match ty::shape(types, e.ty) {
            Shape::Value(t) => Some(t),
            _ => None,
        };
        let signed = ty::is_signed(types, e.ty);
        let norm = |v: CVal| -> CVal { normalize(v, vt, signed) };
        let op = &op;
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) && !matches!(av, CVal::Vec(_)) {
            let at = av.is_true();
            if (*op == BinOp::LogAnd && !at) || (*op == BinOp::LogOr && at) {
                return Some(CVal::Int(u64::from(at)));
            }
            let bv = self.const_eval_depth(b, d)?;
            return Some(CVal::Int(u64::from(bv.is_true())));
        }
        let bv = self.const_eval_depth(b, d)?;
        Some(match op {
            BinOp::PtrAdd | BinOp::PtrSub => {
                let CVal::Addr { g, off, space } = av else {
                    return None;
                };
                let CVal::Int(i) = bv else { return None };
                let es = types
                    .pointee(a.ty)
                    .map_or(1, |p| ty::size_of(types, p).max(1)) as i64;
                // Integers are held sign-extended when signed, so the bits are the
                // index either way.
                let delta = (i as i64).wrapping_mul(es);
                let off = if *op == BinOp::PtrAdd {
                    off.wrapping_add(delta)
                } else {
                    off.wrapping_sub(delta)
                };
                CVal::Addr { g, off, space }
            }
            BinOp::PtrDiff => match (av, bv) {
                (CVal::Addr { g, off, .. }, CVal::Addr { g: g2, off: o2, .. }) if g == g2 => {
                    let es = types
                        .pointee(a.ty)
                        .map_or(1, |p| ty::size_of(types, p).max(1))
                        as i64;
                    norm(CVal::Int((off.wrapping_sub(o2) / es) as u64))
                }
                _ => return None,
            },
            _ => {
                let os = ty::is_signed(types, a.ty);
                let is_cmp = matches!(
                    op,
                    BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
                );
                let r = zip_lanes(av, bv, &|x, y| bin_lane(*op, x, y, os))?;
                if is_cmp {
                    match r {
                        CVal::Vec(vs) => CVal::Vec(
                            vs.into_iter()
                                .map(|l| CVal::Int(if l.is_true() { u64::MAX } else { 0 }))
                                .collect(),
                        ),
                        v => v,
                    }
                } else {
                    norm(r)
                }
            }
        })
    }

    /// The address of a constant lvalue: a program-scope object plus an offset.
    fn const_place(&mut self, e: &Expr, depth: u32) -> Option<(GlobalId, i64, AddrSpace)> {
        if depth > 512 {
            return None;
        }
        let d = depth + 1;
        let types = self.types;
        match &e.kind {
            ExprKind::Var(v) => {
                let g = self.global_of(*v)?;
                let space = self.m.globals.get(g.index())?.space;
                Some((g, 0, space))
            }
            ExprKind::StrLit(bytes) => {
                let g = self.string_literal(bytes, e.span);
                Some((g, 0, AddrSpace::Constant))
            }
            ExprKind::Member {
                base,
                record,
                field,
            } => {
                let (g, off, sp) = self.const_place(base, d)?;
                let fo = types
                    .record(*record)
                    .and_then(|r| r.layout.offsets.get(*field as usize).copied())?;
                Some((g, off + fo as i64, sp))
            }
            ExprKind::Index { base, index } => {
                let CVal::Addr { g, off, space } = self.const_eval_depth(base, d)? else {
                    return None;
                };
                let CVal::Int(i) = self.const_eval_depth(index, d)? else {
                    return None;
                };
                let es = ty::size_of(types, e.ty).max(1) as i64;
                Some((g, off.wrapping_add((i as i64).wrapping_mul(es)), space))
            }
            ExprKind::Deref(p) => match self.const_eval_depth(p, d)? {
                CVal::Addr { g, off, space } => Some((g, off, space)),
                _ => None,
            },
            ExprKind::Cast(CastKind::NoOp, x) => self.const_place(x, d),
            _ => None,
        }
    }
}

/// The initialized member of a union's list: at the member's index, or first.
pub fn union_item(items: &[Option<Init>], field: usize) -> Option<&Init> {
    items
        .get(field)
        .and_then(Option::as_ref)
        .or_else(|| items.first().and_then(Option::as_ref))
}

/// Reads a value of IR type `t` from little-endian bytes.
fn read_value(bytes: &[u8], t: Type, signed: bool) -> CVal {
    let Some(s) = t.elem() else {
        return CVal::Null;
    };
    let n = s.bytes() as usize;
    let lane = |i: usize| -> CVal {
        let mut b = [0u8; 8];
        for (k, slot) in b.iter_mut().enumerate().take(n) {
            *slot = bytes.get(i * n + k).copied().unwrap_or(0);
        }
        let bits = u64::from_le_bytes(b);
        match s {
            IrScalar::F16 => CVal::Float(f16_to_f64(bits as u16)),
            IrScalar::F32 => CVal::Float(f64::from(f32::from_bits(bits as u32))),
            IrScalar::F64 => CVal::Float(f64::from_bits(bits)),
            _ => CVal::Int(norm_int(bits, s, signed)),
        }
    };
    match t {
        Type::Vector(_, l) => CVal::Vec((0..l as usize).map(lane).collect()),
        _ => lane(0),
    }
}

fn normalize(v: CVal, t: Option<Type>, signed: bool) -> CVal {
    let Some(s) = t.and_then(Type::elem) else {
        return v;
    };
    map_lanes(v, &|l| match l {
        CVal::Int(i) if s.is_int() => CVal::Int(norm_int(i, s, signed)),
        CVal::Float(f) if s.is_float() => CVal::Float(round_float(f, s)),
        o => o,
    })
}

/// Converts one scalar to element type `to` (C conversion rules).
fn convert(v: CVal, from_signed: bool, to: Option<IrScalar>, to_signed: bool) -> CVal {
    let Some(to) = to else { return v };
    match v {
        CVal::Int(i) if to.is_float() => {
            let f = if from_signed {
                i as i64 as f64
            } else {
                i as f64
            };
            CVal::Float(round_float(f, to))
        }
        CVal::Int(i) => CVal::Int(norm_int(i, to, to_signed)),
        CVal::Float(f) if to.is_float() => CVal::Float(round_float(f, to)),
        CVal::Float(f) if to == IrScalar::I1 => CVal::Int(u64::from(f != 0.0)),
        CVal::Float(f) => {
            let i = if to_signed || f < 0.0 {
                f as i64 as u64
            } else {
                f as u64
            };
            CVal::Int(norm_int(i, to, to_signed))
        }
        CVal::Vec(vs) => CVal::Vec(
            vs.into_iter()
                .map(|l| convert(l, from_signed, Some(to), to_signed))
                .collect(),
        ),
        o => o,
    }
}

fn map_lanes(v: CVal, f: &dyn Fn(CVal) -> CVal) -> CVal {
    match v {
        CVal::Vec(vs) => CVal::Vec(vs.into_iter().map(f).collect()),
        v => f(v),
    }
}

fn zip_lanes(a: CVal, b: CVal, f: &dyn Fn(CVal, CVal) -> Option<CVal>) -> Option<CVal> {
    match (a, b) {
        (CVal::Vec(x), CVal::Vec(y)) => Some(CVal::Vec(
            x.into_iter()
                .zip(y)
                .map(|(p, q)| f(p, q))
                .collect::<Option<Vec<_>>>()?,
        )),
        (CVal::Vec(x), y) => Some(CVal::Vec(
            x.into_iter()
                .map(|p| f(p, y.clone()))
                .collect::<Option<Vec<_>>>()?,
        )),
        (x, CVal::Vec(y)) => Some(CVal::Vec(
            y.into_iter()
                .map(|q| f(x.clone(), q))
                .collect::<Option<Vec<_>>>()?,
        )),
        (x, y) => f(x, y),
    }
}

fn bin_lane(op: BinOp, a: CVal, b: CVal, signed: bool) -> Option<CVal> {
    Some(match (a, b) {
        (CVal::Int(x), CVal::Int(y)) => {
            let (sx, sy) = (x as i64, y as i64);
            let r = match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div if y == 0 => return None,
                BinOp::Rem if y == 0 => return None,
                BinOp::Div if signed => sx.wrapping_div(sy) as u64,
                BinOp::Div => x / y,
                BinOp::Rem if signed => sx.wrapping_rem(sy) as u64,
                BinOp::Rem => x % y,
                BinOp::Shl => x.wrapping_shl(y as u32),
                BinOp::Shr if signed => sx.wrapping_shr(y as u32) as u64,
                BinOp::Shr => x.wrapping_shr(y as u32),
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Lt => u64::from(if signed { sx < sy } else { x < y }),
                BinOp::Gt => u64::from(if signed { sx > sy } else { x > y }),
                BinOp::Le => u64::from(if signed { sx <= sy } else { x <= y }),
                BinOp::Ge => u64::from(if signed { sx >= sy } else { x >= y }),
                BinOp::Eq => u64::from(x == y),
                BinOp::Ne => u64::from(x != y),
                BinOp::LogAnd => u64::from(x != 0 && y != 0),
                BinOp::LogOr => u64::from(x != 0 || y != 0),
                BinOp::PtrAdd | BinOp::PtrSub | BinOp::PtrDiff => return None,
            };
            CVal::Int(r)
        }
        (CVal::Float(x), CVal::Float(y)) => match op {
            BinOp::Add => CVal::Float(x + y),
            BinOp::Sub => CVal::Float(x - y),
            BinOp::Mul => CVal::Float(x * y),
            BinOp::Div => CVal::Float(x / y),
            BinOp::Lt => CVal::Int(u64::from(x < y)),
            BinOp::Gt => CVal::Int(u64::from(x > y)),
            BinOp::Le => CVal::Int(u64::from(x <= y)),
            BinOp::Ge => CVal::Int(u64::from(x >= y)),
            BinOp::Eq => CVal::Int(u64::from(x == y)),
            BinOp::Ne => CVal::Int(u64::from(x != y)),
            BinOp::LogAnd => CVal::Int(u64::from(x != 0.0 && y != 0.0)),
            BinOp::LogOr => CVal::Int(u64::from(x != 0.0 || y != 0.0)),
            _ => return None,
        },
        (CVal::Null, CVal::Null) => match op {
            BinOp::Eq => CVal::Int(1),
            BinOp::Ne => CVal::Int(0),
            _ => return None,
        },
        _ => return None,
    })
}

/// The fixed type id of a C scalar (sema interns every scalar at a fixed id).
fn elem_type_id(s: oclc_sema::types::Scalar) -> oclc_sema::types::TypeId {
    use oclc_sema::types::{Scalar as S, TypeTable as T};
    match s {
        S::Bool => T::BOOL,
        S::Char => T::CHAR,
        S::SChar => T::SCHAR,
        S::UChar => T::UCHAR,
        S::Short => T::SHORT,
        S::UShort => T::USHORT,
        S::Int => T::INT,
        S::UInt => T::UINT,
        S::Long => T::LONG,
        S::ULong => T::ULONG,
        S::LongLong => T::LONGLONG,
        S::ULongLong => T::ULONGLONG,
        S::Half => T::HALF,
        S::Float => T::FLOAT,
        S::Double => T::DOUBLE,
    }
}

pub(crate) fn scalar_qt(s: oclc_sema::types::Scalar) -> QualType {
    QualType::new(elem_type_id(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding_is_to_nearest_even() {
        assert_eq!(f64_to_f16(1.0), 0x3c00);
        assert_eq!(f64_to_f16(-2.0), 0xc000);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000);
        // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert!(f16_to_f64(f64_to_f16(f64::NAN)).is_nan());
        for h in [0x0001u16, 0x03ff, 0x0400, 0x3555, 0x7bff, 0x8001, 0xfbff] {
            assert_eq!(f64_to_f16(f16_to_f64(h)), h, "{h:#06x}");
        }
    }

    #[test]
    fn integers_are_normalized_to_their_width() {
        assert_eq!(norm_int(0x1ff, IrScalar::I8, false), 0xff);
        assert_eq!(norm_int(0xff, IrScalar::I8, true), u64::MAX);
        assert_eq!(norm_int(0x7f, IrScalar::I8, true), 0x7f);
        assert_eq!(norm_int(2, IrScalar::I1, false), 1);
        assert_eq!(norm_int(0x1_0000_0000, IrScalar::I32, true), 0);
    }
}
