//! Unrolling of small counted loops, so a device has several iterations' independent loads in
//! flight at once. A loop qualifies when its header ends in a comparison of an induction
//! variable (a header parameter stepped by a constant or loop-invariant `add` on the back
//! edge, e.g. a grid-stride loop's `i += get_global_size(0)`) with a loop-invariant bound, and
//! its body is a straight chain of blocks back to the header.
//! With a constant trip count of at most [`FULL_TRIPS`] it is replaced by straight-line code;
//! otherwise a copy running [`FACTOR`] iterations per trip goes first, while at least that
//! many remain, and the original loop runs the remainder.

use super::util::*;
use crate::ir::*;
use crate::types::Type;
use std::collections::HashMap;

/// Iterations per trip of the unrolled copy.
pub const FACTOR: u64 = 8;
/// Largest loop (header and body instructions) that is unrolled.
pub const MAX_BODY: usize = 80;
/// Largest constant trip count that is unrolled completely.
pub const FULL_TRIPS: u64 = 16;
/// Largest number of instructions complete unrolling may produce.
pub const FULL_BUDGET: usize = 400;

/// When the loop continues: `iv REL bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    Ult,
    Slt,
    Ule,
    Sle,
    Ne,
}

/// A loop of the shape this pass handles.
#[derive(Clone, Debug)]
pub(super) struct Loop {
    pub(super) header: Block,
    /// Body blocks in order; the last branches back to the header.
    pub(super) chain: Vec<Block>,
    /// Index of the induction variable among the header's parameters.
    pub(super) iv: usize,
    pub(super) step: u64,
    /// The step's value when it is not a constant (`step` is then 0): loop-invariant.
    pub(super) step_value: Option<Value>,
    pub(super) bits: u32,
    pub(super) bound: Value,
    pub(super) rel: Rel,
    /// The header's branch into the body and out of the loop.
    pub(super) body_edge: BlockCall,
    pub(super) exit_edge: BlockCall,
    /// Number of header and body instructions (terminators excluded).
    pub(super) size: usize,
}

/// The largest factor [`unroll_by`] takes.
pub const MAX_FACTOR: u64 = 16;

/// The factor the device pipeline uses: `OCLC_UNROLL` when it names 0..=16 (0 and 1 turn
/// partial unrolling off; full unrolling of short constant loops stays), else [`FACTOR`].
pub fn factor_from_env() -> u64 {
    std::env::var("OCLC_UNROLL")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&k| k <= MAX_FACTOR)
        .unwrap_or(FACTOR)
}

/// Unrolls every qualifying innermost loop of `f` by [`FACTOR`]; returns how many were
/// unrolled.
pub fn unroll(f: &mut Function) -> usize {
    unroll_by(f, FACTOR)
}

/// [`unroll`] with partial unrolling by `factor` (at most [`MAX_FACTOR`]; below 2: none).
pub fn unroll_by(f: &mut Function, factor: u64) -> usize {
    let factor = factor.min(MAX_FACTOR);
    transform_loops(f, |f, lp| match constant_trips(f, &lp) {
        Some(t) if t <= FULL_TRIPS && (t as usize + 1) * lp.size <= FULL_BUDGET => {
            unroll_fully(f, &lp, t)
        }
        _ if factor >= 2 => {
            // A loop that only reads memory (a reduction) gains most from loads in flight:
            // twice the factor (measured on an H200: the bench reduction 26.4 -> 23.0 us
            // going from 4 to 16, while a load+store copy loop is best at 8).
            let k = if only_reads(f, &lp) {
                (factor * 2).min(MAX_FACTOR)
            } else {
                factor
            };
            unroll_by_factor(f, &lp, k)
        }
        _ => false,
    })
}

/// Offers each qualifying loop of `f` once to `transform` (64 at most) and returns how many
/// it transformed. Each transformation adds blocks; the original loop stays (as the
/// remainder) and is skipped by `tried`, and the blocks added are no chain loop.
pub(super) fn transform_loops(
    f: &mut Function,
    mut transform: impl FnMut(&mut Function, Loop) -> bool,
) -> usize {
    let mut done = 0;
    let mut tried: Vec<Block> = Vec::new();
    for _ in 0..64 {
        let Some(lp) = find_loop(f, &tried) else {
            break;
        };
        tried.push(lp.header);
        if transform(f, lp) {
            done += 1;
        }
    }
    done
}

/// Whether the loop's header and body neither write memory nor call anything.
fn only_reads(f: &Function, lp: &Loop) -> bool {
    std::iter::once(lp.header)
        .chain(lp.chain.iter().copied())
        .filter_map(|b| f.blocks.get(b.index()))
        .flat_map(|bd| bd.insts.iter())
        .filter_map(|i| f.insts.get(i.index()))
        .all(|d| {
            !matches!(
                d.op,
                Op::Store { .. }
                    | Op::Memcpy { .. }
                    | Op::Memset { .. }
                    | Op::Call(..)
                    | Op::CallBuiltin(..)
                    | Op::AtomicRmw { .. }
                    | Op::AtomicCmpXchg { .. }
                    | Op::AtomicStore { .. }
                    | Op::Barrier { .. }
                    | Op::WorkGroup { .. }
                    | Op::Fence { .. }
                    | Op::Printf(..)
            )
        })
}

/// The first qualifying loop whose header is not in `skip`.
fn find_loop(f: &Function, skip: &[Block]) -> Option<Loop> {
    let preds = predecessors(f);
    (0..f.blocks.len())
        .map(|h| Block(h as u32))
        .filter(|h| !skip.contains(h))
        .find_map(|h| match_loop(f, &preds, h))
}

/// The op of `b`'s terminator.
pub(super) fn term_op(f: &Function, b: Block) -> Option<&Op> {
    terminator(f, b)
        .and_then(|t| f.insts.get(t.index()))
        .map(|d| &d.op)
}

fn match_loop(f: &Function, preds: &[Vec<Block>], h: Block) -> Option<Loop> {
    if h.index() == 0 {
        return None;
    }
    let Some(Op::CondBr(cond, t, e)) = term_op(f, h) else {
        return None;
    };
    // Follow each branch as a chain of single-predecessor blocks ending in `br h`.
    let follow = |start: Block| -> Option<Vec<Block>> {
        let mut chain = vec![start];
        let mut b = start;
        loop {
            if b == h || preds.get(b.index())?.len() != 1 || chain.len() > 8 {
                return None;
            }
            match term_op(f, b)? {
                Op::Br(c) if c.block == h => return Some(chain),
                Op::Br(c) => {
                    b = c.block;
                    chain.push(b);
                }
                _ => return None,
            }
        }
    };
    let (chain, body_edge, exit_edge, continue_on_true) = if let Some(c) = follow(t.block) {
        (c, t.clone(), e.clone(), true)
    } else {
        (follow(e.block)?, e.clone(), t.clone(), false)
    };
    if chain.contains(&exit_edge.block) || exit_edge.block == h {
        return None;
    }
    let latch = *chain.last()?;
    // The header's predecessors: the latch once, every other one outside the loop.
    if preds
        .get(h.index())?
        .iter()
        .filter(|&&p| p == latch)
        .count()
        != 1
        || preds
            .get(h.index())?
            .iter()
            .any(|p| *p != latch && chain.contains(p))
    {
        return None;
    }
    let mut size = 0;
    for b in std::iter::once(h).chain(chain.iter().copied()) {
        let bd = f.blocks.get(b.index())?;
        for i in bd.insts.iter().take(bd.insts.len().saturating_sub(1)) {
            let op = &f.insts.get(i.index())?.op;
            if matches!(
                op,
                Op::Barrier { .. } | Op::WorkGroup { .. } | Op::StackAlloc { .. } | Op::Call(..)
            ) {
                return None;
            }
            size += 1;
        }
    }
    if size > MAX_BODY {
        return None;
    }
    let blocks: Vec<Block> = std::iter::once(h).chain(chain.iter().copied()).collect();
    let hparams = f.params_of(h);
    let Some(Op::Cmp(op, a, b)) = def_op(f, *cond) else {
        return None;
    };
    // Bounds computed in the loop from invariant values are made again in front of it.
    let invariant = |v: Value| invariant(f, &blocks, v, 5);
    let (iv_val, bound, op) = if hparams.contains(a) && invariant(*b) {
        (*a, *b, *op)
    } else if hparams.contains(b) && invariant(*a) {
        (*b, *a, swap(*op)?)
    } else {
        return None;
    };
    let op = if continue_on_true { op } else { negate(op)? };
    let rel = match op {
        CmpOp::Ult => Rel::Ult,
        CmpOp::Slt => Rel::Slt,
        CmpOp::Ule => Rel::Ule,
        CmpOp::Sle => Rel::Sle,
        CmpOp::Ne => Rel::Ne,
        _ => return None,
    };
    let iv = hparams.iter().position(|p| *p == iv_val)?;
    let bits = match f.value_type(iv_val)? {
        Type::Scalar(s) if s.is_int() => s.bits(),
        _ => return None,
    };
    // The back edge's argument for the induction variable: iv + constant step.
    let Some(Op::Br(back)) = term_op(f, latch) else {
        return None;
    };
    let next = *back.args.get(iv)?;
    let step_operand = match def_op(f, next)? {
        Op::Bin(BinOp::Add, x, y) if *x == iv_val => *y,
        Op::Bin(BinOp::Add, x, y) if *y == iv_val => *x,
        _ => return None,
    };
    let (step, step_value) = match const_int(f, step_operand) {
        Some(c) => (c & mask(bits), None),
        // A variable step: only for `<`/`<=` exits, and checked at run time (unroll_by_factor).
        None if rel != Rel::Ne && invariant(step_operand) => (0, Some(step_operand)),
        None => return None,
    };
    // Steps up to 1/32 of the range keep MAX_FACTOR iterations' span representable.
    if step_value.is_none()
        && (step == 0 || step > mask(bits) >> 5 || (rel == Rel::Ne && step != 1))
    {
        return None;
    }
    Some(Loop {
        header: h,
        chain,
        iv,
        step,
        step_value,
        bits,
        bound,
        rel,
        body_edge,
        exit_edge,
        size,
    })
}

/// Whether `v` is a block parameter or instruction result of one of `blocks`.
pub(super) fn defined_in(f: &Function, blocks: &[Block], v: Value) -> bool {
    match f.values.get(v.index()).map(|d| d.def) {
        Some(ValueDef::Param(b, _)) => blocks.contains(&b),
        Some(ValueDef::Inst(i)) => blocks.iter().any(|b| {
            f.blocks
                .get(b.index())
                .is_some_and(|bd| bd.insts.contains(&i))
        }),
        None => true,
    }
}

/// Whether `v` is defined outside `blocks` or computed from such values by at most `depth`
/// levels of arithmetic, so that it can be computed again in front of the loop.
fn invariant(f: &Function, blocks: &[Block], v: Value, depth: u32) -> bool {
    if !defined_in(f, blocks, v) {
        return true;
    }
    match def_op(f, v) {
        Some(Op::Const(_)) => true,
        // Work-item queries (`get_global_size(0)` in a grid-stride loop) are pure and fixed for
        // the work-item's whole run.
        Some(op @ (Op::Bin(..) | Op::Un(..) | Op::Conv(..) | Op::WorkItem(..))) if depth > 0 => {
            let mut ok = true;
            op.for_each_operand(|x| ok &= invariant(f, blocks, x, depth - 1));
            ok
        }
        _ => false,
    }
}

/// `v` as computed at the end of `dst`: itself when defined outside `blocks`, else a copy
/// of its (invariant) computation appended to `dst`.
pub(super) fn remat(f: &mut Function, blocks: &[Block], v: Value, dst: Block) -> Option<Value> {
    if !defined_in(f, blocks, v) {
        return Some(v);
    }
    let ValueDef::Inst(i) = f.values.get(v.index())?.def else {
        return None;
    };
    let d = f.insts.get(i.index())?;
    let (mut op, span, ty) = (d.op.clone(), d.span, f.value_type(v));
    let mut ok = true;
    let mut operands = Vec::new();
    op.for_each_operand(|x| operands.push(x));
    let mut copies = Vec::new();
    for x in operands {
        match remat(f, blocks, x, dst) {
            Some(c) => copies.push(c),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    let mut it = copies.into_iter();
    for_each_operand_mut(&mut op, |x| *x = it.next().unwrap_or(*x));
    f.push_inst(dst, op, ty, span).1
}

pub(super) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The comparison with its operands swapped.
fn swap(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Ne => CmpOp::Ne,
        CmpOp::Slt => CmpOp::Sgt,
        CmpOp::Sle => CmpOp::Sge,
        CmpOp::Sgt => CmpOp::Slt,
        CmpOp::Sge => CmpOp::Sle,
        CmpOp::Ult => CmpOp::Ugt,
        CmpOp::Ule => CmpOp::Uge,
        CmpOp::Ugt => CmpOp::Ult,
        CmpOp::Uge => CmpOp::Ule,
        _ => return None,
    })
}

/// The integer comparison that is true exactly when `op` is false.
fn negate(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Slt => CmpOp::Sge,
        CmpOp::Sle => CmpOp::Sgt,
        CmpOp::Sgt => CmpOp::Sle,
        CmpOp::Sge => CmpOp::Slt,
        CmpOp::Ult => CmpOp::Uge,
        CmpOp::Ule => CmpOp::Ugt,
        CmpOp::Ugt => CmpOp::Ule,
        CmpOp::Uge => CmpOp::Ult,
        _ => return None,
    })
}

/// Whether `iv REL bound` holds for `bits`-wide integers.
fn holds(rel: Rel, iv: u64, bound: u64, bits: u32) -> bool {
    let sext = |x: u64| -> i64 {
        if bits >= 64 {
            x as i64
        } else {
            ((x << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    match rel {
        Rel::Ult => iv < bound,
        Rel::Ule => iv <= bound,
        Rel::Slt => sext(iv) < sext(bound),
        Rel::Sle => sext(iv) <= sext(bound),
        Rel::Ne => iv != bound,
    }
}

/// The trip count when the start (the one entering edge's argument) and the bound are
/// constants and it is at most [`FULL_TRIPS`].
fn constant_trips(f: &Function, lp: &Loop) -> Option<u64> {
    if lp.step_value.is_some() {
        return None;
    }
    let bound = const_int(f, lp.bound)? & mask(lp.bits);
    let entering = entering_edges(f, lp);
    let [(p, k)] = entering.as_slice() else {
        return None;
    };
    let t = term_op(f, *p)?;
    let start = *t.successors().nth(*k)?.args.get(lp.iv)?;
    let mut iv = const_int(f, start)? & mask(lp.bits);
    for n in 0..=FULL_TRIPS {
        if !holds(lp.rel, iv, bound, lp.bits) {
            return Some(n);
        }
        iv = iv.wrapping_add(lp.step) & mask(lp.bits);
    }
    None
}

/// Every edge into the header from outside the loop: (block, successor index).
pub(super) fn entering_edges(f: &Function, lp: &Loop) -> Vec<(Block, usize)> {
    let latch = lp.chain.last().copied();
    let mut out = Vec::new();
    for b in 0..f.blocks.len() {
        let b = Block(b as u32);
        if Some(b) == latch {
            continue;
        }
        if let Some(op) = term_op(f, b) {
            for (k, s) in op.successors().enumerate() {
                if s.block == lp.header {
                    out.push((b, k));
                }
            }
        }
    }
    out
}

/// Points every entering edge at `to` instead of the header (same arguments).
pub(super) fn redirect_entering(f: &mut Function, lp: &Loop, to: Block) {
    for (b, k) in entering_edges(f, lp) {
        if let Some(t) = terminator(f, b)
            && let Some(d) = f.insts.get_mut(t.index())
            && let Some(s) = successors_mut(&mut d.op).nth(k)
        {
            s.block = to;
        }
    }
}

/// Copies the non-terminator instructions of `src` to the end of `dst`, operands through
/// `map` (which receives the copies' results).
fn copy_insts(f: &mut Function, src: Block, dst: Block, map: &mut HashMap<Value, Value>) {
    let insts: Vec<Inst> = f.blocks.get(src.index()).map_or(Vec::new(), |bd| {
        bd.insts[..bd.insts.len().saturating_sub(1)].to_vec()
    });
    for i in insts {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        let mut op = d.op.clone();
        let (result, span) = (d.result, d.span);
        for_each_operand_mut(&mut op, |v| *v = map.get(v).copied().unwrap_or(*v));
        let ty = result.and_then(|r| f.value_type(r));
        let (_, nv) = f.push_inst(dst, op, ty, span);
        if let (Some(r), Some(nv)) = (result, nv) {
            map.insert(r, nv);
        }
    }
}

/// Appends one iteration (header then body) to `dst`, starting from header arguments `cur`;
/// returns the header arguments of the next iteration.
fn copy_iteration(f: &mut Function, lp: &Loop, dst: Block, cur: &[Value]) -> Vec<Value> {
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (p, a) in f.params_of(lp.header).to_vec().iter().zip(cur) {
        map.insert(*p, *a);
    }
    copy_insts(f, lp.header, dst, &mut map);
    let mut edge = lp.body_edge.clone();
    for b in lp.chain.clone() {
        for (p, a) in f.params_of(b).to_vec().iter().zip(&edge.args) {
            let a = map.get(a).copied().unwrap_or(*a);
            map.insert(*p, a);
        }
        copy_insts(f, b, dst, &mut map);
        edge = match term_op(f, b) {
            Some(Op::Br(c)) => c.clone(),
            _ => break,
        };
    }
    edge.args
        .iter()
        .map(|a| map.get(a).copied().unwrap_or(*a))
        .collect()
}

/// New parameters for `b` of the header's parameter types.
pub(super) fn header_like_params(f: &mut Function, lp: &Loop, b: Block) -> Vec<Value> {
    let types: Vec<Type> = f
        .params_of(lp.header)
        .iter()
        .filter_map(|p| f.value_type(*p))
        .collect();
    types.into_iter().map(|t| f.add_block_param(b, t)).collect()
}

pub(super) fn header_span(f: &Function, lp: &Loop) -> oclc_syntax::Span {
    terminator(f, lp.header)
        .and_then(|t| f.insts.get(t.index()))
        .map_or(f.span, |d| d.span)
}

/// Replaces a loop of `trips` iterations by straight-line code that ends on the exit edge.
fn unroll_fully(f: &mut Function, lp: &Loop, trips: u64) -> bool {
    let span = header_span(f, lp);
    let nb = f.add_block();
    let mut cur = header_like_params(f, lp, nb);
    for _ in 0..trips {
        cur = copy_iteration(f, lp, nb, &cur);
    }
    // The last header evaluation, whose comparison fails: leave by the exit edge.
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (p, a) in f.params_of(lp.header).to_vec().iter().zip(&cur) {
        map.insert(*p, *a);
    }
    copy_insts(f, lp.header, nb, &mut map);
    let exit = BlockCall {
        block: lp.exit_edge.block,
        args: lp
            .exit_edge
            .args
            .iter()
            .map(|a| map.get(a).copied().unwrap_or(*a))
            .collect(),
    };
    f.push_inst(nb, Op::Br(exit), None, span);
    redirect_entering(f, lp, nb);
    // Code after the loop may use header values directly (the header dominated it): it now
    // uses their last copies. The loop itself is unreachable.
    replace_uses(f, &map);
    true
}

/// Puts a loop running `factor` iterations per trip in front of the loop, entered while at
/// least that many iterations remain; the original loop runs what is left.
fn unroll_by_factor(f: &mut Function, lp: &Loop, factor: u64) -> bool {
    let span = header_span(f, lp);
    let ity = Type::Scalar(match f.value_type(lp.bound) {
        Some(Type::Scalar(s)) => s,
        _ => return false,
    });
    let test = f.add_block();
    let q = header_like_params(f, lp, test);
    // A bound computed inside the loop is computed again for the tests.
    let blocks: Vec<Block> = std::iter::once(lp.header)
        .chain(lp.chain.iter().copied())
        .collect();
    let (Some(&iv), Some(bound)) = (q.get(lp.iv), remat(f, &blocks, lp.bound, test)) else {
        // Nothing branches to the new block: it stays unreachable.
        f.push_inst(test, Op::Unreachable, None, span);
        return false;
    };
    let test2 = f.add_block();
    let body = f.add_block();
    redirect_entering(f, lp, test);
    let to_header = BlockCall {
        block: lp.header,
        args: q.clone(),
    };
    // test: iv REL bound, so that bound - iv is the exact number of values left.
    let op = match lp.rel {
        Rel::Ult | Rel::Ne => CmpOp::Ult,
        Rel::Slt => CmpOp::Slt,
        Rel::Ule => CmpOp::Ule,
        Rel::Sle => CmpOp::Sle,
    };
    let op = if lp.rel == Rel::Ne { CmpOp::Ne } else { op };
    let (_, c1) = f.push_inst(test, Op::Cmp(op, iv, bound), Some(Type::I1), span);
    let Some(c1) = c1 else { return false };
    f.push_inst(
        test,
        Op::CondBr(
            c1,
            BlockCall {
                block: test2,
                args: Vec::new(),
            },
            to_header.clone(),
        ),
        None,
        span,
    );
    // test2: the next FACTOR values of iv all satisfy REL: bound - iv > (FACTOR - 1) * step.
    let (d, k) = match lp.step_value {
        None => {
            let (_, d) = f.push_inst(test2, Op::Bin(BinOp::Sub, bound, iv), Some(ity), span);
            let span_k = (factor - 1) * lp.step;
            let (_, k) = f.push_inst(test2, Op::Const(Const::Int(span_k)), Some(ity), span);
            (d, k)
        }
        Some(sv) => {
            // A variable step: (FACTOR - 1) * step must not wrap, and the step must be one
            // the unrolled copy can take (1 ..= 1/32 of the range, as for constant steps);
            // otherwise the original loop runs every iteration.
            let Some(sv) = remat(f, &blocks, sv, test2) else {
                return false;
            };
            let guard = f.add_block();
            let (_, lim) = f.push_inst(
                test2,
                Op::Const(Const::Int(mask(lp.bits) >> 5)),
                Some(ity),
                span,
            );
            let (_, one) = f.push_inst(test2, Op::Const(Const::Int(1)), Some(ity), span);
            let (Some(lim), Some(one)) = (lim, one) else {
                return false;
            };
            let (_, m1) = f.push_inst(test2, Op::Bin(BinOp::Sub, sv, one), Some(ity), span);
            let Some(m1) = m1 else { return false };
            // step - 1 < lim  <=>  1 <= step <= lim (unsigned, step 0 wraps to the top).
            let (_, ok) = f.push_inst(test2, Op::Cmp(CmpOp::Ult, m1, lim), Some(Type::I1), span);
            let Some(ok) = ok else { return false };
            f.push_inst(
                test2,
                Op::CondBr(
                    ok,
                    BlockCall {
                        block: guard,
                        args: Vec::new(),
                    },
                    to_header.clone(),
                ),
                None,
                span,
            );
            // The rest of the test continues in `guard`.
            let (_, d2) = f.push_inst(guard, Op::Bin(BinOp::Sub, bound, iv), Some(ity), span);
            let (_, fk) = f.push_inst(guard, Op::Const(Const::Int(factor - 1)), Some(ity), span);
            let (Some(d2), Some(fk)) = (d2, fk) else {
                return false;
            };
            let (_, k) = f.push_inst(guard, Op::Bin(BinOp::Mul, sv, fk), Some(ity), span);
            let Some(k) = k else { return false };
            return finish_unrolled(f, lp, test, guard, body, to_header, d2, k, factor, span);
        }
    };
    let (Some(d), Some(k)) = (d, k) else {
        return false;
    };
    finish_unrolled(f, lp, test, test2, body, to_header, d, k, factor, span)
}

/// Ends `test2` with `d > k` (`>=` for `<=` loops) into `body`, else into the original loop,
/// and fills `body` with `factor` iterations that branch back to `test`.
#[allow(clippy::too_many_arguments)]
fn finish_unrolled(
    f: &mut Function,
    lp: &Loop,
    test: Block,
    test2: Block,
    body: Block,
    to_header: BlockCall,
    d: Value,
    k: Value,
    factor: u64,
    span: oclc_syntax::Span,
) -> bool {
    let q = to_header.args.clone();
    let strict = matches!(lp.rel, Rel::Ult | Rel::Slt | Rel::Ne);
    let cmp = if strict { CmpOp::Ugt } else { CmpOp::Uge };
    let (_, c2) = f.push_inst(test2, Op::Cmp(cmp, d, k), Some(Type::I1), span);
    let Some(c2) = c2 else { return false };
    f.push_inst(
        test2,
        Op::CondBr(
            c2,
            BlockCall {
                block: body,
                args: Vec::new(),
            },
            to_header,
        ),
        None,
        span,
    );
    let mut cur = q;
    for _ in 0..factor {
        cur = copy_iteration(f, lp, body, &cur);
    }
    f.push_inst(
        body,
        Op::Br(BlockCall {
            block: test,
            args: cur,
        }),
        None,
        span,
    );
    true
}
