//! 32-bit index arithmetic: `i64` (`size_t`) operations that the value-range facts prove
//! exact in 32 bits are done there (NVIDIA's compiler does the same), products of 32-bit
//! bounded operands use `mul.wide.u32`, and division or remainder by a power of two is a
//! shift or a mask.
//!
//! A *narrow* `i64` value lives in `%r{v}`; its 64-bit register `%rd{v}` is the
//! zero-extension, emitted after the definition only when something reads it. Any `i64`
//! value's low half is available through [`FnEmitter::low32`]; it stands for the whole value
//! only where the facts bound the value below 2^32.

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::passes::util::def_op;
use oclc_ir::*;

/// Whether `op`'s `i64` result, known below 2^32, can be computed on 32-bit halves given
/// whether its operands are below 2^32 (`a_fits`, `b_fits`) and the shift amount's bound.
fn bin_narrows(op: BinOp, a_fits: bool, b_fits: bool, amount_hi: Option<u64>) -> bool {
    match op {
        // The low 32 bits of these depend only on the operands' low 32 bits.
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => true,
        BinOp::Shl => amount_hi.is_some_and(|h| h < 32),
        BinOp::LShr | BinOp::AShr => a_fits && amount_hi.is_some_and(|h| h < 32),
        // Both operands below 2^32 are non-negative as i64: signed and unsigned agree.
        BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem => a_fits && b_fits,
        _ => false,
    }
}

/// `k` if `x` is `2^k`.
fn log2_exact(x: u64) -> Option<u32> {
    x.is_power_of_two().then(|| x.trailing_zeros())
}

impl<'a> FnEmitter<'a> {
    pub(crate) fn is_narrow(&self, v: Value) -> bool {
        self.narrow.get(v.index()).copied().unwrap_or(false)
    }

    /// Places the zero-extension of narrow `v` here if its 64-bit register is read anywhere.
    pub(crate) fn mark_wide(&mut self, v: Value) {
        self.body.push_str(crate::emit::WIDE_MARK);
        self.body.push_str(&v.0.to_string());
        self.body.push('\n');
    }

    fn is_i64(&self, v: Value) -> bool {
        self.f.value_type(v) == Some(Type::I64)
    }

    fn fits_in(&self, b: Block, v: Value) -> bool {
        self.ranges.fits_u32_at(b, v)
    }

    /// Decides which `i64` values are computed in 32 bits.
    pub(crate) fn plan_narrow(mut self) -> Self {
        let f = self.f;
        let mut narrow = vec![false; f.values.len()];
        // Uses of each value: whether every one is a pointer offset (a product then goes
        // straight to `mul.wide.u32`, with no 32-bit copy).
        let mut uses = vec![0u32; f.values.len()];
        let mut offset_uses = vec![0u32; f.values.len()];
        for d in &f.insts {
            d.op.for_each_operand(|v| {
                if let Some(u) = uses.get_mut(v.index()) {
                    *u += 1;
                }
            });
            if let Op::PtrAdd(_, o) = d.op
                && let Some(u) = offset_uses.get_mut(o.index())
            {
                *u += 1;
            }
        }
        for (bi, bd) in f.blocks.iter().enumerate() {
            let b = Block(bi as u32);
            if bi > 0 {
                for p in &bd.params {
                    if self.is_i64(*p) && self.fits_in(b, *p) {
                        narrow[p.index()] = true;
                    }
                }
            }
            for i in &bd.insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let Some(r) = d.result else { continue };
                if !self.is_i64(r) || !self.fits_in(b, r) {
                    continue;
                }
                let only_offsets = uses.get(r.index()) == offset_uses.get(r.index());
                narrow[r.index()] = match &d.op {
                    Op::Bin(op, x, y) => {
                        let amount = self.ranges.at(b, *y).map(|r| r.hi);
                        let wide_product = matches!(op, BinOp::Mul | BinOp::Shl)
                            && only_offsets
                            && self.wide_product(b, *op, *x, *y).is_some();
                        !wide_product
                            && bin_narrows(*op, self.fits_in(b, *x), self.fits_in(b, *y), amount)
                    }
                    Op::Select(_, x, y) => self.fits_in(b, *x) && self.fits_in(b, *y),
                    Op::WorkItem(WorkItemQuery::LocalLinearId, _) => true,
                    Op::WorkItem(q, Some(dim)) => {
                        self.const_dim(*dim).is_some_and(|k| k < 3) && Self::special_query(*q)
                    }
                    _ => false,
                };
            }
        }
        self.narrow = narrow;
        self
    }

    fn special_query(q: WorkItemQuery) -> bool {
        matches!(
            q,
            WorkItemQuery::LocalId
                | WorkItemQuery::GroupId
                | WorkItemQuery::LocalSize
                | WorkItemQuery::EnqueuedLocalSize
                | WorkItemQuery::NumGroups
                | WorkItemQuery::GlobalId
                | WorkItemQuery::GlobalSize
                | WorkItemQuery::GlobalOffset
        )
    }

    /// A constant dimension operand, read at its type's width.
    fn const_dim(&self, dim: Value) -> Option<u64> {
        let k = self.const_int(dim)?;
        match self.f.value_type(dim)? {
            Type::Scalar(Scalar::I64) => Some(k),
            _ => Some(k & 0xffff_ffff),
        }
    }

    /// For `x * y` or `x << k` whose operands are below 2^32 in block `b`: the 32-bit
    /// multiplier (`y`, or `2^k`) to use with `mul.wide.u32`.
    fn wide_product(&self, b: Block, op: BinOp, x: Value, y: Value) -> Option<Option<u64>> {
        if !self.is_i64(x) || !self.fits_in(b, x) {
            return None;
        }
        match op {
            BinOp::Mul if self.fits_in(b, y) => Some(None),
            BinOp::Shl => {
                let k = self.const_int(y)?;
                (k < 32).then_some(Some(1u64 << k))
            }
            _ => None,
        }
    }

    /// The low 32 bits of `i64` value `v` as a register (or, with `imm`, an immediate for a
    /// constant).
    pub(crate) fn low32(&mut self, v: Value, imm: bool) -> R<String> {
        if self.is_narrow(v) {
            return Ok(format!("%r{}", v.0));
        }
        if let Some(c) = self.const_int(v) {
            let c = c & 0xffff_ffff;
            if imm {
                return Ok(c.to_string());
            }
            let t = self.tmp(Rc::B32);
            self.ins(format!("mov.b32 {t}, {c}"));
            return Ok(t);
        }
        if let Some(Op::Conv(ConvOp::ZExt | ConvOp::SExt, a)) = def_op(self.f, v)
            && self.f.value_type(*a) == Some(Type::I32)
        {
            return self.reg(*a, 0);
        }
        let wide = self.reg(v, 0)?;
        let t = self.tmp(Rc::B32);
        self.ins(format!("cvt.u32.u64 {t}, {wide}"));
        Ok(t)
    }

    /// Integer binary operators done better than lane by lane at full width: narrow `i64`
    /// results in 32 bits, `mul.wide.u32` products, power-of-two division and remainder.
    /// Returns false when the generic code should emit it.
    pub(crate) fn int_bin(&mut self, op: BinOp, a: Value, b: Value, r: Value) -> R<bool> {
        let Some(Type::Scalar(s)) = self.f.value_type(r) else {
            return Ok(false);
        };
        if !s.is_int() || s == Scalar::I1 {
            return Ok(false);
        }
        let blk = self.cur_block;
        // A constant goes second (as an immediate) in commutative operations.
        let commutes = matches!(
            op,
            BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        );
        let (a, b) = if commutes && self.const_int(a).is_some() && self.const_int(b).is_none() {
            (b, a)
        } else {
            (a, b)
        };
        if self.is_narrow(r) {
            let (x, y) = (self.low32(a, false)?, self.low32(b, true)?);
            let d = format!("%r{}", r.0);
            let pow2 = self.const_int(b).and_then(log2_exact);
            let line = match (op, pow2) {
                (BinOp::Add, _) => format!("add.s32 {d}, {x}, {y}"),
                (BinOp::Sub, _) => format!("sub.s32 {d}, {x}, {y}"),
                (BinOp::Mul, _) => format!("mul.lo.s32 {d}, {x}, {y}"),
                (BinOp::And, _) => format!("and.b32 {d}, {x}, {y}"),
                (BinOp::Or, _) => format!("or.b32 {d}, {x}, {y}"),
                (BinOp::Xor, _) => format!("xor.b32 {d}, {x}, {y}"),
                (BinOp::Shl, _) => format!("shl.b32 {d}, {x}, {y}"),
                (BinOp::LShr | BinOp::AShr, _) => format!("shr.u32 {d}, {x}, {y}"),
                (BinOp::UDiv | BinOp::SDiv, Some(k)) => format!("shr.u32 {d}, {x}, {k}"),
                (BinOp::URem | BinOp::SRem, Some(k)) => {
                    format!("and.b32 {d}, {x}, {}", (1u64 << k) - 1)
                }
                (BinOp::UDiv | BinOp::SDiv, None) => format!("div.u32 {d}, {x}, {y}"),
                (BinOp::URem | BinOp::SRem, None) => format!("rem.u32 {d}, {x}, {y}"),
                _ => return Err(self.invalid(format!("narrow `{}`", op.name()))),
            };
            self.ins(line);
            self.mark_wide(r);
            return Ok(true);
        }
        if s == Scalar::I64
            && let Some(mult) = self.wide_product(blk, op, a, b)
        {
            let x = self.low32(a, false)?;
            let y = match mult {
                Some(m) => m.to_string(),
                None => self.low32(b, true)?,
            };
            let d = self.reg(r, 0)?;
            self.ins(format!("mul.wide.u32 {d}, {x}, {y}"));
            return Ok(true);
        }
        let sz = if s.bits() == 64 { 64 } else { 32 };
        if op == BinOp::Mul
            && let Some(k) = self.const_int(b).and_then(log2_exact)
        {
            let (d, x) = (self.reg(r, 0)?, self.reg(a, 0)?);
            self.ins(format!("shl.b{sz} {d}, {x}, {k}"));
            return Ok(true);
        }
        // Division and remainder by 2^k: unsigned always, signed for a non-negative
        // dividend (and a positive divisor).
        let Some(k) = self.const_int(b).and_then(log2_exact) else {
            return Ok(false);
        };
        let bits = s.bits();
        if k >= bits {
            return Ok(false);
        }
        let dividend_non_negative = self.ranges.at(blk, a).is_some_and(|x| x.non_negative(bits));
        let signed_ok = dividend_non_negative && k + 1 < bits;
        let div = match op {
            BinOp::UDiv => true,
            BinOp::SDiv if signed_ok => true,
            BinOp::URem => false,
            BinOp::SRem if signed_ok => false,
            _ => return Ok(false),
        };
        let (d, ar) = (self.reg(r, 0)?, self.reg(a, 0)?);
        let x = self.zext32(&ar, bits);
        if div {
            self.ins(format!("shr.u{sz} {d}, {x}, {k}"));
        } else {
            self.ins(format!("and.b{sz} {d}, {x}, {}", (1u64 << k) - 1));
        }
        Ok(true)
    }

    /// Compares `i64` operands both below 2^32 with a 32-bit `setp` (as non-negative values,
    /// signed and unsigned orders agree).
    pub(crate) fn int_cmp(&mut self, op: CmpOp, a: Value, b: Value, r: Value) -> R<bool> {
        let blk = self.cur_block;
        if op.is_float() || !self.is_i64(a) || !self.fits_in(blk, a) || !self.fits_in(blk, b) {
            return Ok(false);
        }
        let cc = match op {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Slt | CmpOp::Ult => "lt",
            CmpOp::Sle | CmpOp::Ule => "le",
            CmpOp::Sgt | CmpOp::Ugt => "gt",
            _ => "ge",
        };
        let (x, y) = (self.low32(a, false)?, self.low32(b, true)?);
        let d = self.reg(r, 0)?;
        self.ins(format!("setp.{cc}.u32 {d}, {x}, {y}"));
        Ok(true)
    }

    /// Conversions reading a narrow `i64` operand: truncation, `!= 0` and int-to-float take
    /// its 32-bit register.
    pub(crate) fn int_conv(&mut self, op: ConvOp, a: Value, r: Value) -> R<bool> {
        if !self.is_narrow(a) {
            return Ok(false);
        }
        let to = match self.f.value_type(r) {
            Some(Type::Scalar(s)) => s,
            _ => return Ok(false),
        };
        let x = format!("%r{}", a.0);
        let d = self.reg(r, 0)?;
        match (op, to) {
            (ConvOp::Trunc, Scalar::I8 | Scalar::I16 | Scalar::I32) => {
                self.ins(format!("mov.b32 {d}, {x}"))
            }
            (ConvOp::Trunc, Scalar::I1) => {
                let t = self.tmp(Rc::B32);
                self.ins(format!("and.b32 {t}, {x}, 1"));
                self.ins(format!("setp.ne.u32 {d}, {t}, 0"));
            }
            (ConvOp::ToBool, Scalar::I1) => self.ins(format!("setp.ne.u32 {d}, {x}, 0")),
            // Below 2^32, so non-negative: signed and unsigned conversions agree.
            (ConvOp::UToF | ConvOp::SToF, Scalar::F32 | Scalar::F64) => {
                let ft = crate::emit::float_ty(to);
                self.ins(format!("cvt.rn.{ft}.u32 {d}, {x}"));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `select` into a narrow result: `selp.b32` of the arms' 32-bit forms.
    pub(crate) fn int_select(&mut self, c: Value, a: Value, b: Value, r: Value) -> R<bool> {
        if !self.is_narrow(r) {
            return Ok(false);
        }
        let cr = self.reg(c, 0)?;
        let (x, y) = (self.low32(a, false)?, self.low32(b, true)?);
        self.ins(format!("selp.b32 %r{}, {x}, {y}, {cr}", r.0));
        self.mark_wide(r);
        Ok(true)
    }

    /// Work-item queries into a narrow result: 32-bit special registers, and the global id
    /// as `mad.lo.u32` plus the offset's low half (exact under the launch bound).
    pub(crate) fn work_item32(
        &mut self,
        q: WorkItemQuery,
        dim: Option<Value>,
        r: Value,
    ) -> R<bool> {
        if !self.is_narrow(r) {
            return Ok(false);
        }
        let d = format!("%r{}", r.0);
        if q == WorkItemQuery::LocalLinearId {
            let (x, y, z) = (
                self.special("tid", 0),
                self.special("tid", 1),
                self.special("tid", 2),
            );
            let (nx, ny) = (self.special("ntid", 0), self.special("ntid", 1));
            self.ins(format!("mad.lo.u32 {d}, {z}, {ny}, {y}"));
            self.ins(format!("mad.lo.u32 {d}, {d}, {nx}, {x}"));
            self.mark_wide(r);
            return Ok(true);
        }
        let Some(k) = dim.and_then(|v| self.const_dim(v)).filter(|k| *k < 3) else {
            return Err(self.invalid("narrow work-item query without a constant dimension"));
        };
        let k = k as u32;
        // Group ids, enqueued sizes and group counts come from the ND-range registers the
        // prologue sets per launch region (and per coarsened copy), as in `wi_dim`.
        let src = match q {
            WorkItemQuery::LocalId => self.special("tid", k),
            WorkItemQuery::LocalSize => self.special("ntid", k),
            WorkItemQuery::GroupId => format!("%nd_grp{k}"),
            WorkItemQuery::EnqueuedLocalSize => format!("%nd_el{k}"),
            WorkItemQuery::NumGroups => format!("%nd_ng{k}"),
            WorkItemQuery::GlobalId => {
                let t = self.special("tid", k);
                let o = self.tmp(Rc::B32);
                self.ins(format!("cvt.u32.u64 {o}, %nd_o{k}"));
                self.ins(format!("mad.lo.u32 {d}, %nd_grp{k}, %nd_el{k}, {t}"));
                self.ins(format!("add.u32 {d}, {d}, {o}"));
                self.mark_wide(r);
                return Ok(true);
            }
            WorkItemQuery::GlobalSize => format!("%nd_g{k}"),
            WorkItemQuery::GlobalOffset => format!("%nd_o{k}"),
            _ => return Err(self.invalid(format!("narrow work-item query `{}`", q.name()))),
        };
        let wide_src = matches!(q, WorkItemQuery::GlobalSize | WorkItemQuery::GlobalOffset);
        if wide_src {
            self.ins(format!("cvt.u32.u64 {d}, {src}"));
        } else {
            self.ins(format!("mov.u32 {d}, {src}"));
        }
        self.mark_wide(r);
        Ok(true)
    }
}
