//! Inlining of calls to ordinary (non-kernel) functions, so a device runs helpers without
//! call overhead and the space inference sees the caller's pointers in the helper's accesses.
//!
//! Top-down: the functions that stay (kernels first, then their callees in call-graph order)
//! take their callees' original bodies, and then the calls inside those copies, breadth first.
//! Each instruction is copied once per place it ends up in, so a chain of N one-line helpers
//! costs O(N) time and memory (bottom-up, every helper would first absorb the whole chain
//! below it: O(N²)). An [`InlineBudget`] bounds the growth: small callees are inlined at every
//! call site and a callee's last remaining call takes its body (moved, not copied), while the
//! caller stays under a size limit and the module under a growth limit; calls past the budget
//! stay calls (so a diamond call graph, 2^N code if inlined fully, stays small). Functions on
//! a call cycle (recursion, which OpenCL C forbids but the passes must survive) are never
//! inlined.

use super::util::*;
use crate::ir::*;
use std::collections::VecDeque;

/// Callees with at most this many instructions are inlined at every call site.
pub const SMALL_CALLEE: usize = 200;
/// A function receives no inlined body that would take it past this many instructions.
pub const CALLER_LIMIT: usize = 20_000;
/// Instructions inlining may add to a module (copies only; a moved body adds nothing), or the
/// module's own size when that is larger.
pub const MODULE_GROWTH: usize = 100_000;

/// Limits of [`inline_module_with`], in instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineBudget {
    /// Callees at most this large are inlined at every call site; larger ones only at
    /// their last remaining one.
    pub small_callee: usize,
    /// No function grows past this by inlining (0: nothing is inlined).
    pub caller_limit: usize,
    /// Instructions copies may add to the module (at least the module's own size).
    pub module_growth: usize,
}

impl Default for InlineBudget {
    fn default() -> InlineBudget {
        InlineBudget {
            small_callee: SMALL_CALLEE,
            caller_limit: CALLER_LIMIT,
            module_growth: MODULE_GROWTH,
        }
    }
}

impl InlineBudget {
    /// The device pipeline's budget: `OCLC_INLINE_LIMIT=N` sets the caller limit to N
    /// instructions (0 turns inlining off) and the module growth to 5 N; else the defaults.
    pub fn from_env() -> InlineBudget {
        Self::from_setting(std::env::var("OCLC_INLINE_LIMIT").ok().as_deref())
    }

    /// [`from_env`](Self::from_env) for the variable's value (`None`, or not a number: the
    /// defaults).
    pub fn from_setting(v: Option<&str>) -> InlineBudget {
        match v.and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(n) => InlineBudget {
                small_callee: SMALL_CALLEE.min(n),
                caller_limit: n,
                module_growth: n.saturating_mul(5),
            },
            None => InlineBudget::default(),
        }
    }
}

/// What [`inline_module`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    /// Call sites replaced by the callee's body.
    pub inlined: usize,
    /// Functions deleted because inlining left them without callers.
    pub removed: usize,
    /// Indices (after removal) of the functions that received inlined bodies.
    pub changed: Vec<usize>,
    /// Call sites the budget left as calls.
    pub over_budget: usize,
}

/// [`inline_module_with`] the default budget.
pub fn inline_module(m: &mut Module) -> InlineStats {
    inline_module_with(m, &InlineBudget::default())
}

/// Inlines calls to non-kernel functions in every function of `m`, within `budget`, and
/// deletes the functions whose every call was inlined.
pub fn inline_module_with(m: &mut Module, budget: &InlineBudget) -> InlineStats {
    let n = m.functions.len();
    let callees: Vec<Vec<usize>> = m.functions.iter().map(|f| callees_of(f, n)).collect();
    let cyclic = on_cycles(&callees);
    let mut st = State {
        // Call sites of each function in the functions still alive.
        live_sites: vec![0; n],
        dead: vec![false; n],
        growth: 0,
        growth_limit: budget.module_growth.max(module_size(m)),
        cyclic,
        stats: InlineStats::default(),
        inlined_into: vec![false; n],
    };
    for f in &m.functions {
        for_each_call(f, n, |c| st.live_sites[c] += 1);
    }
    if budget.caller_limit > 0 {
        // Callers before callees: a callee is still its original body when it is copied.
        for fi in post_order(&callees).into_iter().rev() {
            if !st.dead[fi] {
                inline_into(m, fi, budget, &mut st);
            }
        }
    }
    let mut stats = std::mem::take(&mut st.stats);
    remove_dead(m, &st.dead);
    stats.removed = st.dead.iter().filter(|&&d| d).count();
    stats.changed = st
        .inlined_into
        .iter()
        .zip(&st.dead)
        .filter(|&(_, &d)| !d)
        .enumerate()
        .filter(|&(_, (&c, _))| c)
        .map(|(i, _)| i)
        .collect();
    stats
}

/// The inliner's bookkeeping over the whole module.
struct State {
    live_sites: Vec<usize>,
    /// Functions whose body moved into their last caller (deleted at the end).
    dead: Vec<bool>,
    growth: usize,
    growth_limit: usize,
    cyclic: Vec<bool>,
    stats: InlineStats,
    inlined_into: Vec<bool>,
}

/// Instructions placed in blocks of `f`.
fn size_of(f: &Function) -> usize {
    f.blocks.iter().map(|b| b.insts.len()).sum()
}

/// Instructions placed in blocks of every function of `m`.
fn module_size(m: &Module) -> usize {
    m.functions.iter().map(size_of).sum()
}

/// Calls `visit` with the callee of every placed call of `f` to a function below `n`.
fn for_each_call(f: &Function, n: usize, mut visit: impl FnMut(usize)) {
    for bd in &f.blocks {
        for i in &bd.insts {
            if let Some(Op::Call(c, _)) = f.insts.get(i.index()).map(|d| &d.op)
                && c.index() < n
            {
                visit(c.index());
            }
        }
    }
}

/// Inlines, breadth first, the calls of function `fi` and then those of the bodies it
/// receives, as long as the budget allows.
fn inline_into(m: &mut Module, fi: usize, budget: &InlineBudget, st: &mut State) {
    let n = m.functions.len();
    let Some(slot) = m.functions.get_mut(fi) else {
        return;
    };
    let placeholder = Function::placeholder(slot.span);
    let mut f = std::mem::replace(slot, placeholder);
    let mut size = size_of(&f);
    let mut hoisted: Vec<Inst> = Vec::new();
    let mut queue: VecDeque<Block> = (0..f.blocks.len() as u32).map(Block).collect();
    while let Some(b) = queue.pop_front() {
        let Some(bd) = f.blocks.get(b.index()) else {
            continue;
        };
        let sites: Vec<(usize, usize)> = bd
            .insts
            .iter()
            .enumerate()
            .filter_map(|(pos, i)| match f.insts.get(i.index()).map(|d| &d.op) {
                Some(Op::Call(c, _)) if c.index() < n => Some((pos, c.index())),
                _ => None,
            })
            .collect();
        // Last first: inlining splits the block after the call, so the positions of the
        // earlier calls stay valid and the instructions after it move only once.
        for (pos, c) in sites.into_iter().rev() {
            if c == fi || st.cyclic[c] || st.dead[c] || m.functions[c].is_kernel() {
                continue;
            }
            let csize = size_of(&m.functions[c]);
            let last = st.live_sites[c] == 1;
            if size + csize > budget.caller_limit
                || (!last && (csize > budget.small_callee || st.growth + csize > st.growth_limit))
            {
                st.stats.over_budget += 1;
                continue;
            }
            let done = if last {
                // The last call takes the body itself: no copy stays behind.
                let span = m.functions[c].span;
                let callee = std::mem::replace(&mut m.functions[c], Function::placeholder(span));
                let done = inline_body(&mut f, b, pos, &callee);
                if done.is_some() {
                    st.dead[c] = true;
                } else {
                    m.functions[c] = callee;
                }
                done
            } else {
                let callee = &m.functions[c];
                let done = inline_body(&mut f, b, pos, callee);
                if done.is_some() {
                    // The copy's calls are new call sites of their callees.
                    for_each_call(callee, n, |d| st.live_sites[d] += 1);
                    st.growth += csize;
                }
                done
            };
            let Some((blocks, slots)) = done else {
                continue;
            };
            st.live_sites[c] = st.live_sites[c].saturating_sub(1);
            size += csize;
            hoisted.extend(slots);
            queue.extend(blocks.map(Block));
            st.stats.inlined += 1;
            st.inlined_into[fi] = true;
        }
    }
    place_first(&mut f, hoisted);
    m.functions[fi] = f;
}

/// Puts `insts` first in `f`'s entry block, in their order.
fn place_first(f: &mut Function, insts: Vec<Inst>) {
    if insts.is_empty() {
        return;
    }
    let Some(entry) = f.blocks.first_mut() else {
        return;
    };
    let rest = std::mem::take(&mut entry.insts);
    entry.insts = insts;
    entry.insts.extend(rest);
}

/// The distinct callees of `f` (indices below `n`).
fn callees_of(f: &Function, n: usize) -> Vec<usize> {
    let mut c = Vec::new();
    for_each_call(f, n, |x| c.push(x));
    c.sort_unstable();
    c.dedup();
    c
}

/// Whether each function lies on a call cycle (a strongly connected component of more than
/// one function, or a function calling itself): Kosaraju's algorithm, without recursion.
fn on_cycles(callees: &[Vec<usize>]) -> Vec<bool> {
    let n = callees.len();
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, cs) in callees.iter().enumerate() {
        for &c in cs {
            if let Some(v) = callers.get_mut(c) {
                v.push(a);
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut comp_size: Vec<usize> = Vec::new();
    for root in post_order(callees).into_iter().rev() {
        if comp[root] != usize::MAX {
            continue;
        }
        let id = comp_size.len();
        comp_size.push(0);
        comp[root] = id;
        let mut stack = vec![root];
        while let Some(x) = stack.pop() {
            comp_size[id] += 1;
            for &p in &callers[x] {
                if comp[p] == usize::MAX {
                    comp[p] = id;
                    stack.push(p);
                }
            }
        }
    }
    (0..n)
        .map(|f| comp_size[comp[f]] > 1 || callees[f].binary_search(&f).is_ok())
        .collect()
}

/// Functions in callees-first order (a depth-first post-order; cycles are cut anywhere).
fn post_order(callees: &[Vec<usize>]) -> Vec<usize> {
    let n = callees.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (f, ref mut k)) = stack.last_mut() {
            if let Some(&c) = callees[f].get(*k) {
                *k += 1;
                if c < n && !seen[c] {
                    seen[c] = true;
                    stack.push((c, 0));
                }
            } else {
                post.push(f);
                stack.pop();
            }
        }
    }
    post
}

/// Replaces the call at `pos` of block `b` in `f` with a copy of `callee`'s body: the block
/// splits after the call, the callee's returns branch to the second half, whose parameter
/// is the call's result. The callee's `stack_alloc`s move to `f`'s entry block, so a call in
/// a loop does not allocate a slot per iteration. Returns false (changing nothing) when the
/// call does not match the callee or the callee uses a value it does not define.
pub fn inline_call(f: &mut Function, b: Block, pos: usize, callee: &Function) -> bool {
    match inline_body(f, b, pos, callee) {
        Some((_, slots)) => {
            place_first(f, slots);
            true
        }
        None => false,
    }
}

/// [`inline_call`] without placing the callee's `stack_alloc`s: returns the indices of the
/// blocks copied from the callee and those instructions, still in no block.
fn inline_body(
    f: &mut Function,
    b: Block,
    pos: usize,
    callee: &Function,
) -> Option<(std::ops::Range<u32>, Vec<Inst>)> {
    let &call = f.blocks.get(b.index())?.insts.get(pos)?;
    let cd = f.insts.get(call.index())?;
    let Op::Call(_, args) = &cd.op else {
        return None;
    };
    let (args, result, call_span) = (args.clone(), cd.result, cd.span);
    let entry_params = callee.params_of(Block(0));
    if callee.blocks.is_empty() || args.len() != entry_params.len() {
        return None;
    }
    // Every value the callee uses must be defined by a placed instruction or a parameter.
    let mut defined = vec![false; callee.values.len()];
    for bd in &callee.blocks {
        for p in &bd.params {
            if let Some(d) = defined.get_mut(p.index()) {
                *d = true;
            }
        }
        for i in &bd.insts {
            if let Some(r) = callee.insts.get(i.index()).and_then(|d| d.result)
                && let Some(d) = defined.get_mut(r.index())
            {
                *d = true;
            }
        }
    }
    let mut complete = true;
    for bd in &callee.blocks {
        for i in &bd.insts {
            match callee.insts.get(i.index()) {
                Some(d) => d.op.for_each_operand(|v| {
                    complete &= defined.get(v.index()).copied().unwrap_or(false)
                }),
                None => complete = false,
            }
        }
    }
    if !complete {
        return None;
    }

    // Split: the instructions after the call move to `join`, whose parameter is the result.
    let join = f.add_block();
    let tail: Vec<Inst> = f.blocks[b.index()].insts.split_off(pos + 1);
    f.blocks[b.index()].insts.pop();
    // The call leaves the function (the verifier also reads instructions in no block).
    if let Some(d) = f.insts.get_mut(call.index()) {
        d.op = Op::Unreachable;
        d.result = None;
    }
    f.blocks[join.index()].insts = tail;
    if let Some(r) = result
        && let Some(vd) = f.values.get_mut(r.index())
    {
        vd.def = ValueDef::Param(join, 0);
        f.blocks[join.index()].params.push(r);
    }

    // Blocks and values of the copy: `vmap[v]` is the caller's value for callee value `v`.
    let mut vmap: Vec<Option<Value>> = vec![None; callee.values.len()];
    for (p, a) in entry_params.iter().zip(&args) {
        if let Some(slot) = vmap.get_mut(p.index()) {
            *slot = Some(*a);
        }
    }
    let base = f.blocks.len() as u32;
    let bmap = |cb: Block| Block(base + cb.0);
    for (cb, bd) in callee.blocks.iter().enumerate() {
        let nb = f.add_block();
        if cb > 0 {
            for p in &bd.params {
                if let Some(ty) = callee.value_type(*p) {
                    let np = f.add_block_param(nb, ty);
                    if let Some(slot) = vmap.get_mut(p.index()) {
                        *slot = Some(np);
                    }
                }
            }
        }
    }
    let mut hoisted: Vec<Inst> = Vec::new();
    let first_copied = f.insts.len();
    for (cb, bd) in callee.blocks.iter().enumerate() {
        let nb = bmap(Block(cb as u32));
        for i in &bd.insts {
            let Some(d) = callee.insts.get(i.index()) else {
                continue;
            };
            let ty = d.result.and_then(|r| callee.value_type(r));
            let op = d.op.clone();
            let (_, nv) = if matches!(op, Op::StackAlloc { .. }) {
                let (ni, nv) = new_inst(f, op, ty, d.span);
                hoisted.push(ni);
                (ni, nv)
            } else {
                f.push_inst(nb, op, ty, d.span)
            };
            if let (Some(r), Some(nv)) = (d.result, nv)
                && let Some(slot) = vmap.get_mut(r.index())
            {
                *slot = Some(nv);
            }
        }
    }
    // The copied instructions are the ones created since `first_copied`.
    for d in f.insts.iter_mut().skip(first_copied) {
        for_each_operand_mut(&mut d.op, |v| {
            if let Some(Some(n)) = vmap.get(v.index()) {
                *v = *n;
            }
        });
        for s in successors_mut(&mut d.op) {
            s.block = bmap(s.block);
        }
        if let Op::Ret(v) = &d.op {
            let args = match (v, result) {
                (Some(v), Some(_)) => vec![*v],
                _ => Vec::new(),
            };
            d.op = Op::Br(BlockCall { block: join, args });
        }
    }
    f.push_inst(
        b,
        Op::Br(BlockCall {
            block: bmap(Block(0)),
            args: Vec::new(),
        }),
        None,
        call_span,
    );
    let end = base + callee.blocks.len() as u32;
    Some((base..end, hoisted))
}

/// Deletes the functions marked `dead`; renumbers calls and local variables.
fn remove_dead(m: &mut Module, dead: &[bool]) {
    if !dead.iter().any(|&r| r) {
        return;
    }
    let n = m.functions.len();
    let mut new_id = vec![u32::MAX; n];
    let mut next = 0;
    for (i, slot) in new_id.iter_mut().enumerate() {
        if !dead.get(i).copied().unwrap_or(false) {
            *slot = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut m.functions);
    m.functions = old
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !dead.get(*i).copied().unwrap_or(false))
        .map(|(_, f)| f)
        .collect();
    for f in m.functions.iter_mut() {
        for d in f.insts.iter_mut() {
            if let Op::Call(c, _) = &mut d.op
                && let Some(&nid) = new_id.get(c.index())
            {
                *c = FuncId(nid);
            }
        }
    }
    for l in m.locals.iter_mut() {
        if let Some(&nid) = new_id.get(l.kernel.index()) {
            l.kernel = FuncId(nid);
        }
    }
}

/// Cleans up function `fi` after inlining and infers its pointers' spaces again: a generic
/// pointer the callee received may now be seen to come from one named space.
pub fn simplify_inlined(m: &mut Module, fi: usize) {
    use super::infer_spaces::{Hooks, Lat, analyze, no_stored, rewrite};
    use super::report::GenericReason;
    use std::rc::Rc;
    let Some(slot) = m.functions.get_mut(fi) else {
        return;
    };
    let placeholder = Function::placeholder(slot.span);
    let mut f = std::mem::replace(slot, placeholder);
    super::mem2reg::mem2reg(&mut f);
    super::dce::dce(&mut f);
    super::fold::fold(&mut f);
    super::dce::dce(&mut f);
    let name = f.name.clone();
    let param = |_: usize| {
        Lat::Generic(Rc::new(GenericReason::Parameter {
            function: name.clone(),
            generic_callers: Vec::new(),
        }))
    };
    let call = |_: FuncId, _: &[Lat], _: oclc_syntax::Span| None;
    let analysis = analyze(
        m,
        &f,
        &Hooks {
            param: &param,
            call: &call,
            stored: &no_stored,
        },
    );
    rewrite(m, &mut f, &analysis);
    super::fold::fold(&mut f);
    super::dce::dce(&mut f);
    m.functions[fi] = f;
}
