//! Value-range facts: an unsigned interval for every scalar integer value of a function, so
//! that a backend can do provably narrow arithmetic in narrower registers (64-bit `size_t`
//! index math in 32 bits). A pure analysis: it never changes the function.
//!
//! Intervals are inclusive, unsigned, within the value's type width. Seeds are constants,
//! comparisons, extensions and the work-item queries, bounded by what the device guarantees
//! ([`WorkItemBounds`]). Transfer functions give the full range whenever the operation may
//! wrap (no reliance on signed-overflow UB). Block parameters (loop-carried values) join
//! their incoming arguments and are widened to the type's bounds after a few growths; a
//! block entered only when a comparison holds refines its operands (`i < n` bounds `i` by
//! `n - 1`) in every block it dominates. Integer division or remainder by zero is undefined
//! in OpenCL C, so a divisor's zero is ignored.

use crate::ir::*;
use crate::types::Type;
use crate::verify::dominators;

/// Dominators whose guards [`Analysis::block_facts`] looks at, nearest first.
const MAX_DOMINATOR_STEPS: usize = 128;

/// An inclusive unsigned interval `[lo, hi]` of a value's bits (zero-extended to 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: u64,
    pub hi: u64,
}

impl Range {
    pub fn new(lo: u64, hi: u64) -> Range {
        Range { lo, hi }
    }

    /// Every value of a `bits`-wide integer.
    pub fn full(bits: u32) -> Range {
        Range::new(0, mask(bits))
    }

    pub fn constant(c: u64) -> Range {
        Range::new(c, c)
    }

    /// Whether every value fits in an unsigned 32-bit integer.
    pub fn fits_u32(self) -> bool {
        self.hi <= u32::MAX as u64
    }

    /// Whether every value is non-negative read as a signed `bits`-wide integer.
    pub fn non_negative(self, bits: u32) -> bool {
        bits > 0 && self.hi < 1u64 << (bits - 1).min(63)
    }

    fn join(self, o: Range) -> Range {
        Range::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    fn meet(self, o: Range) -> Option<Range> {
        let (lo, hi) = (self.lo.max(o.lo), self.hi.min(o.hi));
        (lo <= hi).then_some(Range::new(lo, hi))
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bounds the device guarantees for the work-item queries (inclusive maxima; `None`: any
/// value of the query's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WorkItemBounds {
    /// Largest work-group size in one dimension (local ids are below it).
    pub max_local_size: Option<u64>,
    /// Largest number of work-groups in one dimension (group ids are below it).
    pub max_groups: Option<u64>,
    /// Bound on global offset + global size in every dimension (global ids, sizes and
    /// offsets are below it).
    pub max_global_end: Option<u64>,
    /// The launch's enqueued local size per dimension, when code is compiled for one launch
    /// shape (local ids are below it, local sizes at most it).
    pub local_size: Option<[u64; 3]>,
}

impl WorkItemBounds {
    /// No assumption about the launch (the cpu device, or any host).
    pub fn none() -> WorkItemBounds {
        WorkItemBounds::default()
    }
}

/// The facts of one function, by value.
#[derive(Clone, Debug, Default)]
pub struct Ranges {
    values: Vec<Option<Range>>,
    /// Per block: operand ranges refined by the comparisons guarding the block.
    refined: Vec<Vec<(Value, Range)>>,
}

impl Ranges {
    /// The interval of scalar integer `v` (its full range when nothing is known); `None`
    /// for non-integers, vectors and unknown values.
    pub fn of(&self, v: Value) -> Option<Range> {
        self.values.get(v.index()).copied().flatten()
    }

    /// The interval of `v` where it is used in block `b` (tighter than [`Ranges::of`] inside
    /// a block that only runs when a comparison on `v` holds).
    pub fn at(&self, b: Block, v: Value) -> Option<Range> {
        let base = self.of(v)?;
        let refined = self
            .refined
            .get(b.index())
            .and_then(|l| l.iter().find(|(x, _)| *x == v))
            .map(|(_, r)| *r);
        Some(refined.and_then(|r| r.meet(base)).unwrap_or(base))
    }

    /// Whether `v` (an integer) is below 2^32 where block `b` uses it.
    pub fn fits_u32_at(&self, b: Block, v: Value) -> bool {
        self.at(b, v).is_some_and(Range::fits_u32)
    }
}

/// Integer bit width of a scalar integer type (`None` for anything else).
fn int_bits(t: Option<Type>) -> Option<u32> {
    match t? {
        Type::Scalar(s) if s.is_int() => Some(s.bits()),
        _ => None,
    }
}

/// Growths of one value's interval before it is widened to its type's bounds.
const WIDEN_AFTER: u8 = 3;

/// Computes the facts of `f` (verified IR) under `bounds`, its parameters unknown.
pub fn analyze(f: &Function, bounds: &WorkItemBounds) -> Ranges {
    analyze_with_params(f, bounds, &[])
}

/// The facts of every function of `m` (same order). A function that is not a kernel is only
/// called from the module, so its parameters get the join of its call sites' arguments
/// (callers are analyzed first: the call graph is acyclic).
pub fn analyze_module(m: &Module, bounds: &WorkItemBounds) -> Vec<Ranges> {
    let n = m.functions.len();
    // Call sites by callee: (caller, block, arguments).
    let mut sites: Vec<Vec<(usize, Block, Vec<Value>)>> = vec![Vec::new(); n];
    let mut callers_left = vec![0usize; n];
    // Each function's callees, once per call site (a callee is ready when all are done).
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, bd) in f.blocks.iter().enumerate() {
            for i in &bd.insts {
                if let Some(Op::Call(c, args)) = f.insts.get(i.index()).map(|d| &d.op)
                    && let Some(s) = sites.get_mut(c.index())
                {
                    s.push((fi, Block(bi as u32), args.clone()));
                    callers_left[c.index()] += 1;
                    callees[fi].push(c.index());
                }
            }
        }
    }
    let mut out: Vec<Option<Ranges>> = vec![None; n];
    let mut ready: Vec<usize> = (0..n).filter(|i| callers_left[*i] == 0).collect();
    while let Some(fi) = ready.pop() {
        let f = &m.functions[fi];
        let params = if f.is_kernel() || sites[fi].is_empty() {
            Vec::new()
        } else {
            let mut joined: Vec<Option<Range>> = vec![None; f.params.len()];
            for (caller, b, args) in &sites[fi] {
                for (k, a) in args.iter().enumerate() {
                    let r = out[*caller].as_ref().and_then(|r| r.at(*b, *a));
                    if let Some(slot) = joined.get_mut(k) {
                        *slot = match (*slot, r) {
                            (Some(x), Some(y)) => Some(x.join(y)),
                            (None, y) => y,
                            (x, None) => x,
                        };
                    }
                }
            }
            joined
        };
        out[fi] = Some(analyze_with_params(f, bounds, &params));
        for &ci in &callees[fi] {
            callers_left[ci] -= 1;
            if callers_left[ci] == 0 {
                ready.push(ci);
            }
        }
    }
    // A call cycle (never in verified IR) leaves functions unanalyzed: no parameter facts.
    m.functions
        .iter()
        .zip(out)
        .map(|(f, r)| r.unwrap_or_else(|| analyze(f, bounds)))
        .collect()
}

/// [`analyze`] with known intervals for the parameters (`None` or missing: unknown).
pub fn analyze_with_params(
    f: &Function,
    bounds: &WorkItemBounds,
    params: &[Option<Range>],
) -> Ranges {
    let n = f.blocks.len();
    let (rpo, idom) = dominators(f);
    let mut a = Analysis {
        f,
        bounds,
        values: vec![None; f.values.len()],
        growths: vec![0; f.values.len()],
        guards: vec![None; n],
        thresholds: thresholds(f),
    };
    a.find_guards();
    // The function's parameters: what the call sites pass, else anything.
    for (k, p) in f.params_of(Block(0)).iter().enumerate() {
        if let Some(bits) = a.bits(*p) {
            let r = params.get(k).copied().flatten();
            a.update(*p, r.unwrap_or(Range::full(bits)));
        }
    }
    let parent = |b: Block| -> Option<Block> {
        match idom.get(b.index()).copied().flatten() {
            Some(d) if d != b => Some(d),
            _ => None,
        }
    };
    // The fixed point: intervals only grow (joins), and widening bounds the growths, so this
    // terminates; the final state satisfies every transfer function.
    let mut refined: Vec<Vec<(Value, Range)>> = vec![Vec::new(); n];
    loop {
        let mut changed = false;
        for &b in &rpo {
            refined[b.index()] = a.block_facts(b, &parent);
            let Some(bd) = f.blocks.get(b.index()) else {
                continue;
            };
            for &i in &bd.insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let env = &refined[b.index()];
                if let Some(r) = d.result
                    && let Some(new) = a.transfer(&d.op, r, env)
                {
                    changed |= a.update(r, new);
                }
                for call in d.op.successors() {
                    let params = f.params_of(call.block);
                    for (p, arg) in params.iter().zip(&call.args) {
                        if let Some(x) = a.get(*arg, env) {
                            changed |= a.update(*p, x);
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Function parameters and values never reached keep no interval but are full.
    for (vi, vd) in f.values.iter().enumerate() {
        if let (Some(bits), Some(slot)) = (int_bits(Some(vd.ty)), a.values.get_mut(vi))
            && slot.is_none()
        {
            *slot = Some(Range::full(bits));
        }
    }
    for &b in &rpo {
        refined[b.index()] = a.block_facts(b, &parent);
    }
    Ranges {
        values: a.values,
        refined,
    }
}

/// A block entered only when `cmp op x, y` is `holds`.
#[derive(Clone, Copy)]
struct Guard {
    op: CmpOp,
    x: Value,
    y: Value,
    holds: bool,
}

struct Analysis<'a> {
    f: &'a Function,
    bounds: &'a WorkItemBounds,
    values: Vec<Option<Range>>,
    growths: Vec<u8>,
    guards: Vec<Option<Guard>>,
    /// Where widening stops first: the constants compared against (and one past them).
    thresholds: Vec<u64>,
}

/// Constants that integer comparisons test against, and their successors, sorted.
fn thresholds(f: &Function) -> Vec<u64> {
    let mut t = Vec::new();
    for d in &f.insts {
        if let Op::Cmp(op, x, y) = d.op
            && !op.is_float()
        {
            for v in [x, y] {
                if let Some(c) = crate::passes::util::const_int(f, v) {
                    t.push(c);
                    t.push(c.saturating_add(1));
                }
            }
        }
    }
    t.sort_unstable();
    t.dedup();
    t
}

impl Analysis<'_> {
    fn bits(&self, v: Value) -> Option<u32> {
        int_bits(self.f.value_type(v))
    }

    /// The interval of `v` in a block whose refinements are `env` (`None`: not known yet).
    fn get(&self, v: Value, env: &[(Value, Range)]) -> Option<Range> {
        let base = self.values.get(v.index()).copied().flatten()?;
        match env.iter().find(|(x, _)| *x == v) {
            Some((_, r)) => Some(r.meet(base).unwrap_or(base)),
            None => Some(base),
        }
    }

    /// Joins `new` into `v`'s interval, widening a block parameter (the only values on
    /// cycles) after repeated growth. Returns whether it changed.
    fn update(&mut self, v: Value, new: Range) -> bool {
        let is_param = matches!(
            self.f.values.get(v.index()).map(|d| d.def),
            Some(ValueDef::Param(..))
        );
        let Some(bits) = self.bits(v) else {
            return false;
        };
        let new = Range::new(new.lo.min(mask(bits)), new.hi.min(mask(bits)));
        let Some(current) = self.values.get(v.index()).copied() else {
            return false;
        };
        let joined = match current {
            None => new,
            Some(old) => {
                let j = old.join(new);
                if j == old {
                    return false;
                }
                let g = self.growths.get_mut(v.index());
                let count = g.map_or(WIDEN_AFTER, |g| {
                    *g = g.saturating_add(1);
                    *g
                });
                if is_param && count >= WIDEN_AFTER {
                    Range::new(
                        if j.lo < old.lo { 0 } else { j.lo },
                        if j.hi > old.hi {
                            self.widen_hi(j.hi, bits)
                        } else {
                            j.hi
                        },
                    )
                } else {
                    j
                }
            }
        };
        if let Some(slot) = self.values.get_mut(v.index()) {
            *slot = Some(joined);
        }
        true
    }

    /// The next stop at or above `hi`: a compared constant, the signed maximum, the
    /// unsigned maximum.
    fn widen_hi(&self, hi: u64, bits: u32) -> u64 {
        let smax = mask(bits) >> 1;
        self.thresholds
            .iter()
            .copied()
            .chain([smax, mask(bits)])
            .filter(|t| *t >= hi && *t <= mask(bits))
            .min()
            .unwrap_or(mask(bits))
    }

    /// Records, for each block with a single incoming edge from a conditional branch on an
    /// integer comparison, the comparison and whether it holds there.
    fn find_guards(&mut self) {
        let f = self.f;
        let mut incoming = vec![0u32; f.blocks.len()];
        for bd in &f.blocks {
            if let Some(t) = bd.insts.last().and_then(|i| f.insts.get(i.index())) {
                for s in t.op.successors() {
                    if let Some(c) = incoming.get_mut(s.block.index()) {
                        *c += 1;
                    }
                }
            }
        }
        for bd in &f.blocks {
            let Some(Op::CondBr(c, t, e)) = bd
                .insts
                .last()
                .and_then(|i| f.insts.get(i.index()))
                .map(|d| &d.op)
            else {
                continue;
            };
            if t.block == e.block {
                continue;
            }
            let Some(Op::Cmp(op, x, y)) = crate::passes::util::def_op(f, *c) else {
                continue;
            };
            if op.is_float() || self.bits(*x).is_none() {
                continue;
            }
            for (target, holds) in [(t.block, true), (e.block, false)] {
                if incoming.get(target.index()) == Some(&1)
                    && target != Block(0)
                    && let Some(g) = self.guards.get_mut(target.index())
                {
                    *g = Some(Guard {
                        op: *op,
                        x: *x,
                        y: *y,
                        holds,
                    });
                }
            }
        }
    }

    /// Refined operand intervals in `b`: the guards of `b` and of its nearest
    /// [`MAX_DOMINATOR_STEPS`] dominators.
    fn block_facts(
        &self,
        b: Block,
        parent: &dyn Fn(Block) -> Option<Block>,
    ) -> Vec<(Value, Range)> {
        let mut chain = Vec::new();
        let mut cur = Some(b);
        let mut steps = 0;
        while let Some(x) = cur {
            // The nearest dominators only: every guard refines, so fewer give wider (still
            // sound) ranges, and a deep dominator tree (a long `else if` chain) then costs
            // linear time rather than its depth per block.
            if steps > self.f.blocks.len() || steps >= MAX_DOMINATOR_STEPS {
                break;
            }
            if let Some(Some(g)) = self.guards.get(x.index()) {
                chain.push(*g);
            }
            cur = parent(x);
            steps += 1;
        }
        // Outermost guards first, so inner ones refine what outer ones established.
        let mut env: Vec<(Value, Range)> = Vec::new();
        for g in chain.into_iter().rev() {
            self.refine(g, &mut env);
        }
        env
    }

    fn refine(&self, g: Guard, env: &mut Vec<(Value, Range)>) {
        let Some(bits) = self.bits(g.x) else { return };
        let (Some(x), Some(y)) = (self.get(g.x, env), self.get(g.y, env)) else {
            return;
        };
        let op = if g.holds { g.op } else { negate(g.op) };
        // Signed comparisons order like unsigned ones when both sides are non-negative.
        let unsigned = match op {
            CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge => {
                if !(x.non_negative(bits) && y.non_negative(bits)) {
                    return;
                }
                match op {
                    CmpOp::Slt => CmpOp::Ult,
                    CmpOp::Sle => CmpOp::Ule,
                    CmpOp::Sgt => CmpOp::Ugt,
                    _ => CmpOp::Uge,
                }
            }
            o => o,
        };
        let (nx, ny) = match unsigned {
            CmpOp::Ult if y.hi > 0 => (
                Range::new(x.lo, x.hi.min(y.hi - 1)),
                Range::new(y.lo.max(x.lo.saturating_add(1)), y.hi),
            ),
            CmpOp::Ule => (
                Range::new(x.lo, x.hi.min(y.hi)),
                Range::new(y.lo.max(x.lo), y.hi),
            ),
            CmpOp::Ugt if x.hi > 0 => (
                Range::new(x.lo.max(y.lo.saturating_add(1)), x.hi),
                Range::new(y.lo, y.hi.min(x.hi - 1)),
            ),
            CmpOp::Uge => (
                Range::new(x.lo.max(y.lo), x.hi),
                Range::new(y.lo, y.hi.min(x.hi)),
            ),
            CmpOp::Eq => match x.meet(y) {
                Some(m) => (m, m),
                None => return,
            },
            CmpOp::Ne => {
                let drop_end = |r: Range, k: Range| -> Range {
                    if k.lo != k.hi || r.lo == r.hi {
                        r
                    } else if r.lo == k.lo {
                        Range::new(r.lo + 1, r.hi)
                    } else if r.hi == k.lo {
                        Range::new(r.lo, r.hi - 1)
                    } else {
                        r
                    }
                };
                (drop_end(x, y), drop_end(y, x))
            }
            _ => return,
        };
        for (v, r) in [(g.x, nx), (g.y, ny)] {
            if r.lo > r.hi {
                continue;
            }
            match env.iter_mut().find(|(w, _)| *w == v) {
                Some(e) => e.1 = e.1.meet(r).unwrap_or(e.1),
                None => env.push((v, r)),
            }
        }
    }

    /// The interval of result `r` of `op`; `None` while an operand is not known yet or for
    /// non-integer results.
    fn transfer(&self, op: &Op, r: Value, env: &[(Value, Range)]) -> Option<Range> {
        let bits = self.bits(r)?;
        let full = Range::full(bits);
        let m = mask(bits);
        Some(match op {
            Op::Const(Const::Int(c)) => Range::constant(c & m),
            Op::Cmp(..) => Range::new(0, 1),
            Op::Bin(b, x, y) => {
                let (x, y) = (self.get(*x, env)?, self.get(*y, env)?);
                bin(*b, bits, x, y)
            }
            Op::Un(UnOp::Not, x) => {
                let x = self.get(*x, env)?;
                Range::new(m - x.hi, m - x.lo)
            }
            Op::Un(UnOp::Neg, x) => {
                let x = self.get(*x, env)?;
                if x == Range::constant(0) {
                    x
                } else if x.lo > 0 {
                    Range::new((m - x.hi) + 1, (m - x.lo) + 1)
                } else {
                    full
                }
            }
            Op::Conv(c, x) => {
                let from = self.bits(*x);
                let xr = self.get(*x, env);
                match (c, from, xr) {
                    (ConvOp::ZExt, Some(_), Some(xr)) => xr,
                    (ConvOp::SExt, Some(fb), Some(xr)) => {
                        if xr.non_negative(fb) {
                            xr
                        } else if !Range::new(0, xr.lo).non_negative(fb) {
                            // Every value negative: the high bits are all ones.
                            let ext = m & !mask(fb);
                            Range::new(xr.lo | ext, xr.hi | ext)
                        } else {
                            full
                        }
                    }
                    (ConvOp::Trunc, Some(_), Some(xr)) if xr.hi <= m => xr,
                    (ConvOp::ToBool, ..) => Range::new(0, 1),
                    (ConvOp::ZExt | ConvOp::SExt | ConvOp::Trunc, Some(_), None) => return None,
                    _ => full,
                }
            }
            Op::Select(_, x, y) => {
                let (x, y) = (self.get(*x, env)?, self.get(*y, env)?);
                x.join(y)
            }
            Op::WorkItem(q, dim) => {
                let dim = dim.and_then(|d| self.get(d, env)).filter(|r| r.lo == r.hi);
                self.work_item(*q, dim.map(|r| r.lo), bits)
            }
            _ => full,
        })
    }

    /// The range of work-item query `q` (of dimension `dim` when it is a known constant).
    fn work_item(&self, q: WorkItemQuery, dim: Option<u64>, bits: u32) -> Range {
        let full = Range::full(bits);
        let b = self.bounds;
        let below = |max: Option<u64>| max.map_or(full, |m| Range::new(0, m.saturating_sub(1)));
        // Sizes and counts are at least 1.
        let upto = |max: Option<u64>| max.map_or(full, |m| Range::new(1, m.max(1)));
        // The launch's local size in `dim` (the largest of the three for an unknown one;
        // a dimension past the third has local id 0 and size 1).
        let local = match (b.local_size, dim) {
            (Some(ls), Some(d)) => Some(ls.get(d as usize).copied().unwrap_or(1)),
            (Some(ls), None) => ls.iter().copied().max(),
            (None, _) => b.max_local_size,
        };
        let r = match q {
            WorkItemQuery::LocalId => below(local),
            WorkItemQuery::LocalSize | WorkItemQuery::EnqueuedLocalSize => upto(local),
            WorkItemQuery::GroupId => below(b.max_groups),
            WorkItemQuery::NumGroups => upto(b.max_groups),
            WorkItemQuery::GlobalId | WorkItemQuery::GlobalOffset => below(b.max_global_end),
            WorkItemQuery::GlobalSize => upto(b.max_global_end),
            WorkItemQuery::WorkDim => Range::new(1, 3),
            WorkItemQuery::LocalLinearId => {
                // The product of the three local sizes is bounded by the same maximum.
                let total = match b.local_size {
                    Some(ls) => Some(ls.iter().fold(1u64, |a, &x| a.saturating_mul(x))),
                    None => b.max_local_size,
                };
                match total {
                    Some(m) => Range::new(0, m.saturating_sub(1)),
                    None => full,
                }
            }
            WorkItemQuery::GlobalLinearId => full,
        };
        r.meet(full).unwrap_or(full)
    }
}

/// The comparison that holds when `op` does not.
fn negate(op: CmpOp) -> CmpOp {
    match op {
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
        // Float comparisons never become guards.
        o => o,
    }
}

/// Smallest `2^k - 1` at least `x`.
fn ones_upto(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        u64::MAX >> x.leading_zeros()
    }
}

/// Transfer function of an integer binary operator on `bits`-wide operands.
fn bin(op: BinOp, bits: u32, x: Range, y: Range) -> Range {
    let m = mask(bits);
    let full = Range::full(bits);
    let fits = |lo: u128, hi: u128| {
        if hi <= m as u128 {
            Range::new(lo as u64, hi as u64)
        } else {
            full
        }
    };
    match op {
        BinOp::Add => fits(x.lo as u128 + y.lo as u128, x.hi as u128 + y.hi as u128),
        BinOp::Sub => {
            if x.lo >= y.hi {
                Range::new(x.lo - y.hi, x.hi - y.lo)
            } else {
                full
            }
        }
        BinOp::Mul => fits(x.lo as u128 * y.lo as u128, x.hi as u128 * y.hi as u128),
        BinOp::UDiv => match x.lo.checked_div(y.hi) {
            Some(lo) => Range::new(lo, x.hi / y.lo.max(1)),
            None => full,
        },
        BinOp::URem => {
            if y.hi == 0 {
                full
            } else if x.hi < y.lo {
                x
            } else {
                Range::new(0, x.hi.min(y.hi - 1))
            }
        }
        BinOp::SDiv | BinOp::SRem if x.non_negative(bits) && y.non_negative(bits) => {
            let u = if op == BinOp::SDiv {
                BinOp::UDiv
            } else {
                BinOp::URem
            };
            bin(u, bits, x, y)
        }
        BinOp::And => Range::new(0, x.hi.min(y.hi)),
        BinOp::Or => Range::new(x.lo.max(y.lo), ones_upto(x.hi.max(y.hi))),
        BinOp::Xor => Range::new(0, ones_upto(x.hi.max(y.hi))),
        // Shift amounts are taken modulo the width; only amounts known below it are used.
        BinOp::Shl if y.hi < bits as u64 => fits((x.lo as u128) << y.lo, (x.hi as u128) << y.hi),
        BinOp::LShr if y.hi < bits as u64 => Range::new(x.lo >> y.hi, x.hi >> y.lo),
        BinOp::LShr => Range::new(0, x.hi),
        BinOp::AShr if x.non_negative(bits) => {
            if y.hi < bits as u64 {
                Range::new(x.lo >> y.hi, x.hi >> y.lo)
            } else {
                Range::new(0, x.hi)
            }
        }
        _ => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_arithmetic_is_never_narrowed() {
        let u32max = Range::new(0, u32::MAX as u64);
        // u32 + 1 may wrap in 32 bits, but not in 64.
        assert_eq!(
            bin(BinOp::Add, 32, u32max, Range::constant(1)),
            Range::full(32)
        );
        assert_eq!(
            bin(BinOp::Add, 64, u32max, Range::constant(1)),
            Range::new(1, 1 << 32)
        );
        // 0 - 1 wraps; 5 - [0, 3] does not.
        assert_eq!(
            bin(BinOp::Sub, 64, Range::new(0, 5), Range::constant(1)),
            Range::full(64)
        );
        assert_eq!(
            bin(BinOp::Sub, 64, Range::constant(5), Range::new(0, 3)),
            Range::new(2, 5)
        );
        // A product past 2^64 is the full range; one below is exact.
        let big = Range::new(0, 1 << 41);
        assert_eq!(bin(BinOp::Mul, 64, big, u32max), Range::full(64));
        assert_eq!(
            bin(BinOp::Mul, 64, Range::new(0, 1023), Range::constant(8)),
            Range::new(0, 8184)
        );
        // Shifts by amounts that may reach the width say nothing.
        assert_eq!(
            bin(BinOp::Shl, 32, Range::constant(1), Range::new(0, 40)),
            Range::full(32)
        );
        assert_eq!(
            bin(BinOp::Shl, 64, Range::new(0, 1023), Range::constant(3)),
            Range::new(0, 8184)
        );
        // Signed division of possibly negative values is not read as unsigned.
        assert_eq!(
            bin(BinOp::SDiv, 32, Range::full(32), Range::constant(2)),
            Range::full(32)
        );
    }

    #[test]
    fn division_remainder_and_bit_operations() {
        let lsz = Range::new(1, 1024);
        assert_eq!(
            bin(BinOp::UDiv, 64, lsz, Range::constant(2)),
            Range::new(0, 512)
        );
        assert_eq!(
            bin(BinOp::LShr, 64, lsz, Range::constant(1)),
            Range::new(0, 512)
        );
        assert_eq!(
            bin(BinOp::URem, 64, Range::full(64), Range::constant(16)),
            Range::new(0, 15)
        );
        assert_eq!(
            bin(BinOp::URem, 64, Range::new(3, 9), Range::constant(16)),
            Range::new(3, 9)
        );
        assert_eq!(
            bin(BinOp::And, 64, Range::full(64), Range::constant(255)),
            Range::new(0, 255)
        );
        assert_eq!(
            bin(BinOp::Or, 32, Range::new(4, 5), Range::new(0, 9)),
            Range::new(4, 15)
        );
        assert_eq!(
            bin(BinOp::SRem, 64, Range::new(0, 100), Range::constant(7)),
            Range::new(0, 6)
        );
        assert!(Range::new(0, (1 << 31) - 1).non_negative(32));
        assert!(!Range::new(0, 1 << 31).non_negative(32));
    }
}
