//! Byte-copy loops widened to 16-byte accesses: a counted loop whose body copies one byte,
//! `dst[j] = src[i]` with `i` and `j` stepped by one (the seed article's memcpy), first copies
//! 16 bytes per iteration when, at run time, both ends are 16-byte aligned and the indices
//! stay contiguous once extended; the original
//! loop copies what is left (and everything when a condition fails). For the cuda device.
//! Under `--checks` ([`Widening::Checked`]) the 16-byte copy also needs both whole ranges to
//! pass the checks (`Op::InBounds`): otherwise the byte loop runs and reports the first
//! faulting byte, as the cpu device does.

use super::unroll::{
    Loop, Rel, defined_in, entering_edges, header_like_params, header_span, remat, term_op,
    transform_loops,
};
use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Scalar, Type};

/// Fewest bytes worth the run-time tests (one 16-byte access).
const MIN_BYTES: u64 = 16;

/// How an access's `i64` byte offset comes from a header parameter: `ext(param + add)`.
#[derive(Clone, Copy)]
struct Index {
    /// The parameter's position among the header's.
    param: usize,
    /// A loop-invariant addend of the parameter's type (`tmp[lid * chunk + i]`).
    add: Option<Value>,
    /// The extension to `i64`: `None` when the sum is one already.
    ext: Option<ConvOp>,
}

/// A matched byte copy `dst[..] = src[..]`.
struct Copy {
    lp: Loop,
    src: Value,
    dst: Value,
    si: Index,
    di: Index,
}

/// Whether and how byte-copy loops are widened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widening {
    Off,
    /// Behind the alignment and index tests.
    Plain,
    /// Behind them and `Op::InBounds` of both ranges (code run with `--checks`).
    Checked,
}

/// Widens every byte-copy loop of `f` as `how` says; returns how many.
pub fn widen_copies(f: &mut Function, how: Widening) -> usize {
    if how == Widening::Off {
        return 0;
    }
    let checked = how == Widening::Checked;
    transform_loops(f, |f, lp| {
        match_copy(f, lp).is_some_and(|c| widen(f, &c, checked))
    })
}

/// The header parameter `p` is stepped by one on the back edge `back`.
fn steps_by_one(f: &Function, back: &BlockCall, hparams: &[Value], k: usize) -> bool {
    let (Some(&p), Some(&next)) = (hparams.get(k), back.args.get(k)) else {
        return false;
    };
    match def_op(f, next) {
        Some(Op::Bin(BinOp::Add, x, y)) => {
            (*x == p && const_int(f, *y) == Some(1)) || (*y == p && const_int(f, *x) == Some(1))
        }
        _ => false,
    }
}

/// `ptradd base, ext(param + add)`: the base and the index.
fn byte_address(
    f: &Function,
    blocks: &[Block],
    hparams: &[Value],
    p: Value,
) -> Option<(Value, Index)> {
    let Some(Op::PtrAdd(base, off)) = def_op(f, p) else {
        return None;
    };
    if defined_in(f, blocks, *base) {
        return None;
    }
    let (sum, ext) = match def_op(f, *off) {
        Some(Op::Conv(c @ (ConvOp::SExt | ConvOp::ZExt), x)) => (*x, Some(*c)),
        _ => (*off, None),
    };
    let param = |v: Value| hparams.iter().position(|h| *h == v);
    if let Some(k) = param(sum) {
        return Some((
            *base,
            Index {
                param: k,
                add: None,
                ext,
            },
        ));
    }
    let Some(Op::Bin(BinOp::Add, x, y)) = def_op(f, sum) else {
        return None;
    };
    let (k, add) = match (param(*x), param(*y)) {
        (Some(k), None) => (k, *y),
        (None, Some(k)) => (k, *x),
        _ => return None,
    };
    if defined_in(f, blocks, add) {
        return None;
    }
    Some((
        *base,
        Index {
            param: k,
            add: Some(add),
            ext,
        },
    ))
}

fn match_copy(f: &Function, lp: Loop) -> Option<Copy> {
    if lp.step != 1 || lp.step_value.is_some() || !matches!(lp.rel, Rel::Ult | Rel::Slt | Rel::Ne) {
        return None;
    }
    let blocks: Vec<Block> = std::iter::once(lp.header)
        .chain(lp.chain.iter().copied())
        .collect();
    let hparams = f.params_of(lp.header).to_vec();
    let latch = *lp.chain.last()?;
    let Some(Op::Br(back)) = term_op(f, latch) else {
        return None;
    };
    // One byte load, one store of it, and nothing else with an effect.
    let (mut load, mut store) = (None, None);
    for &b in &blocks {
        let bd = f.blocks.get(b.index())?;
        for i in bd.insts.iter().take(bd.insts.len().saturating_sub(1)) {
            let d = f.insts.get(i.index())?;
            match &d.op {
                Op::Load(p)
                    if load.is_none()
                        && d.result.and_then(|r| f.value_type(r)) == Some(Type::I8) =>
                {
                    load = Some((*p, d.result?));
                }
                Op::Store { ptr, value } if store.is_none() => store = Some((*ptr, *value)),
                Op::StackAlloc { .. } => return None,
                op if is_removable(op) => {}
                _ => return None,
            }
        }
    }
    let ((lp_ptr, loaded), (sp_ptr, stored)) = (load?, store?);
    if loaded != stored {
        return None;
    }
    let (src, si) = byte_address(f, &blocks, &hparams, lp_ptr)?;
    let (dst, di) = byte_address(f, &blocks, &hparams, sp_ptr)?;
    // An addend has the parameter's type (the loop's arithmetic wraps in it).
    for ix in [si, di] {
        if let Some(a) = ix.add
            && f.value_type(a) != f.value_type(*hparams.get(ix.param)?)
        {
            return None;
        }
    }
    // Every header parameter is an index stepped by one or passed on unchanged.
    for (k, p) in hparams.iter().enumerate() {
        let stepped = k == si.param || k == di.param || k == lp.iv;
        if stepped {
            if !steps_by_one(f, back, &hparams, k) {
                return None;
            }
        } else if back.args.get(k) != Some(p) {
            return None;
        }
    }
    // The indices have the induction variable's type.
    let ity = f.value_type(*hparams.get(lp.iv)?)?;
    for k in [si.param, di.param] {
        if f.value_type(*hparams.get(k)?)? != ity {
            return None;
        }
    }
    if matches!(f.value_type(dst), Some(Type::Ptr(AddrSpace::Constant))) {
        return None;
    }
    Some(Copy {
        lp,
        src,
        dst,
        si,
        di,
    })
}

fn go(block: Block, args: Vec<Value>) -> BlockCall {
    BlockCall { block, args }
}

/// Builds instructions at the end of block `b`.
struct At<'a> {
    f: &'a mut Function,
    b: Block,
    span: oclc_syntax::Span,
}

impl At<'_> {
    fn push(&mut self, op: Op, ty: Type) -> Option<Value> {
        self.f.push_inst(self.b, op, Some(ty), self.span).1
    }
    fn int(&mut self, ty: Type, v: u64) -> Option<Value> {
        self.push(Op::Const(Const::Int(v)), ty)
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value, ty: Type) -> Option<Value> {
        self.push(Op::Bin(op, a, b), ty)
    }
    fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Option<Value> {
        self.push(Op::Cmp(op, a, b), Type::I1)
    }
    /// An index as the `i64` byte offset the loop computes from it.
    fn offset(&mut self, x: Value, ext: Option<ConvOp>) -> Option<Value> {
        match ext {
            Some(c) => self.push(Op::Conv(c, x), Type::I64),
            None => Some(x),
        }
    }
    fn br(&mut self, to: BlockCall) {
        self.f.push_inst(self.b, Op::Br(to), None, self.span);
    }
    fn cond_br(&mut self, c: Value, t: BlockCall, e: BlockCall) {
        self.f
            .push_inst(self.b, Op::CondBr(c, t, e), None, self.span);
    }
    fn widen_i64(&mut self, x: Value, ity: Type) -> Option<Value> {
        if ity == Type::I64 {
            Some(x)
        } else {
            self.push(Op::Conv(ConvOp::ZExt, x), Type::I64)
        }
    }
}

/// Puts the widened copy in front of the loop; false leaves `f` as it was (everything
/// [`widen_inner`] makes is appended, and the loop is entered through it only at its end).
fn widen(f: &mut Function, c: &Copy, checked: bool) -> bool {
    let (nb, ni, nv) = (f.blocks.len(), f.insts.len(), f.values.len());
    if widen_inner(f, c, checked).is_some() {
        return true;
    }
    f.blocks.truncate(nb);
    f.insts.truncate(ni);
    f.values.truncate(nv);
    false
}

fn widen_inner(f: &mut Function, c: &Copy, checked: bool) -> Option<()> {
    let lp = &c.lp;
    let span = header_span(f, lp);
    let entering = entering_edges(f, lp);
    let blocks: Vec<Block> = std::iter::once(lp.header)
        .chain(lp.chain.iter().copied())
        .collect();
    let ity = f.value_type(*f.params_of(lp.header).get(lp.iv)?)?;
    let bits = match ity {
        Type::Scalar(s) if s.is_int() && s != Scalar::I1 => s.bits(),
        _ => return None,
    };
    let pre = f.add_block();
    let q = header_like_params(f, lp, pre);
    let bound = remat(f, &blocks, lp.bound, pre)?;
    let iv0 = *q.get(lp.iv)?;
    let sty = f.value_type(c.src)?;
    let dty = f.value_type(c.dst)?;
    let (vhead, vbody, vexit) = (f.add_block(), f.add_block(), f.add_block());
    let mut a = At { f, b: pre, span };
    // n = bound - iv0 iterations (when the loop runs at all).
    let n = a.bin(BinOp::Sub, bound, iv0, ity)?;
    let runs = match lp.rel {
        Rel::Ult => a.cmp(CmpOp::Ult, iv0, bound)?,
        Rel::Slt => a.cmp(CmpOp::Slt, iv0, bound)?,
        _ => a.cmp(CmpOp::Ne, iv0, bound)?,
    };
    let n64 = a.widen_i64(n, ity)?;
    let min = a.int(Type::I64, MIN_BYTES)?;
    let enough = a.cmp(CmpOp::Uge, n64, min)?;
    let mut ok = a.bin(BinOp::And, runs, enough, Type::I1)?;
    // Each extended index runs through n consecutive offsets: ext(k0 + n - 1) - ext(k0) == n - 1.
    let one = a.int(ity, 1)?;
    let last = a.bin(BinOp::Sub, n, one, ity)?;
    let last64 = a.widen_i64(last, ity)?;
    let mut starts = Vec::new();
    for ix in [c.si, c.di] {
        let k0 = *q.get(ix.param)?;
        let first = match ix.add {
            Some(x) => a.bin(BinOp::Add, k0, x, ity)?,
            None => k0,
        };
        let kl = a.bin(BinOp::Add, first, last, ity)?;
        let (o0, ol) = (a.offset(first, ix.ext)?, a.offset(kl, ix.ext)?);
        let span64 = a.bin(BinOp::Sub, ol, o0, Type::I64)?;
        let contiguous = a.cmp(CmpOp::Eq, span64, last64)?;
        ok = a.bin(BinOp::And, ok, contiguous, Type::I1)?;
        starts.push(o0);
    }
    let ps = a.push(Op::PtrAdd(c.src, *starts.first()?), sty)?;
    let pd = a.push(Op::PtrAdd(c.dst, *starts.get(1)?), dty)?;
    let is = a.push(Op::Conv(ConvOp::PtrToInt, ps), Type::I64)?;
    let id = a.push(Op::Conv(ConvOp::PtrToInt, pd), Type::I64)?;
    // Both ends 16-byte aligned. Overlap needs no test: the distance between the ends is then
    // a multiple of 16, so every byte a 16-byte read takes was written by an earlier chunk
    // exactly when the byte loop wrote it before reading it (and is not yet written when the
    // byte loop reads it first).
    let both = a.bin(BinOp::Or, is, id, Type::I64)?;
    let m15 = a.int(Type::I64, 15)?;
    let low = a.bin(BinOp::And, both, m15, Type::I64)?;
    let zero = a.int(Type::I64, 0)?;
    let aligned = a.cmp(CmpOp::Eq, low, zero)?;
    ok = a.bin(BinOp::And, ok, aligned, Type::I1)?;
    let four = a.int(Type::I64, 4)?;
    let chunks = a.bin(BinOp::LShr, n64, four, Type::I64)?;
    if checked {
        // Every byte the 16-byte copy reads and writes passes the checks.
        let bytes = a.bin(BinOp::Shl, chunks, four, Type::I64)?;
        for p in [ps, pd] {
            let inside = a.push(Op::InBounds { ptr: p, len: bytes }, Type::I1)?;
            ok = a.bin(BinOp::And, ok, inside, Type::I1)?;
        }
    }
    a.cond_br(ok, go(vhead, vec![zero]), go(lp.header, q.clone()));
    // vhead(k): k < chunks ? vbody : vexit.
    let k = a.f.add_block_param(vhead, Type::I64);
    a.b = vhead;
    let more = a.cmp(CmpOp::Ult, k, chunks)?;
    a.cond_br(more, go(vbody, Vec::new()), go(vexit, Vec::new()));
    // vbody: 16 bytes as four 32-bit lanes.
    a.b = vbody;
    let off = a.bin(BinOp::Shl, k, four, Type::I64)?;
    let from = a.push(Op::PtrAdd(ps, off), sty)?;
    let to = a.push(Op::PtrAdd(pd, off), dty)?;
    let x = a.push(Op::Load(from), Type::vec(Scalar::I32, 4))?;
    a.f.push_inst(vbody, Op::Store { ptr: to, value: x }, None, span);
    let one64 = a.int(Type::I64, 1)?;
    let k1 = a.bin(BinOp::Add, k, one64, Type::I64)?;
    a.br(go(vhead, vec![k1]));
    // vexit: the loop goes on 16 * chunks iterations later.
    a.b = vexit;
    let done64 = a.bin(BinOp::Shl, chunks, four, Type::I64)?;
    let done = if bits == 64 {
        done64
    } else {
        a.push(Op::Conv(ConvOp::Trunc, done64), ity)?
    };
    let mut args = q.clone();
    for idx in [lp.iv, c.si.param, c.di.param] {
        if let (Some(slot), Some(&q0)) = (args.get(idx).copied(), q.get(idx))
            && slot == q0
        {
            let moved = a.bin(BinOp::Add, q0, done, ity)?;
            if let Some(s) = args.get_mut(idx) {
                *s = moved;
            }
        }
    }
    a.br(go(lp.header, args));
    // Last, so that a failure above leaves the loop's entries as they were.
    for (b, k) in entering {
        if let Some(t) = terminator(a.f, b)
            && let Some(d) = a.f.insts.get_mut(t.index())
            && let Some(s) = successors_mut(&mut d.op).nth(k)
        {
            s.block = pre;
        }
    }
    Some(())
}
