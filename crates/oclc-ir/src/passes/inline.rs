//! Inlining of calls to ordinary (non-kernel) functions, bottom-up over the call graph, so a
//! device runs helpers without call overhead and the space inference sees the caller's
//! pointers in the helper's accesses. Functions on a call cycle (recursion, which OpenCL C
//! forbids but the passes must survive) are never inlined; callees above a size budget are
//! inlined only at their single call site.

use super::util::*;
use crate::ir::*;
use std::collections::HashMap;

/// Callees with at most this many instructions are inlined at every call site.
pub const SMALL_CALLEE: usize = 200;
/// A caller stops growing by inlining (other than of single-call-site callees) past this.
pub const CALLER_LIMIT: usize = 20_000;

/// What [`inline_module`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    /// Call sites replaced by the callee's body.
    pub inlined: usize,
    /// Functions deleted because inlining left them without callers.
    pub removed: usize,
    /// Indices (after removal) of the functions that received inlined bodies.
    pub changed: Vec<usize>,
}

/// Inlines calls to non-kernel functions in every function of `m` and deletes the functions
/// left without callers by it.
pub fn inline_module(m: &mut Module) -> InlineStats {
    let n = m.functions.len();
    let callees: Vec<Vec<usize>> = m.functions.iter().map(|f| callees_of(f, n)).collect();
    let reach = reachability(&callees);
    let mut sites = vec![0usize; n];
    for cs in m.functions.iter().map(|f| call_sites(f, n)) {
        for (_, _, c) in cs {
            sites[c] += 1;
        }
    }
    let mut stats = InlineStats::default();
    let mut inlined_into = vec![false; n];
    let mut was_inlined = vec![false; n];
    for fi in post_order(&callees) {
        loop {
            // One call site at a time: positions move as blocks split.
            let size = placed_insts(&m.functions[fi]).len();
            let next = call_sites(&m.functions[fi], n)
                .into_iter()
                .find(|&(_, _, c)| {
                    let callee = &m.functions[c];
                    let csize = placed_insts(callee).len();
                    !callee.is_kernel()
                        && !reach[c][c]
                        && !reach[c][fi]
                        && (sites[c] == 1
                            || (csize <= SMALL_CALLEE && size + csize <= CALLER_LIMIT))
                });
            let Some((b, pos, c)) = next else { break };
            let callee = m.functions[c].clone();
            if !inline_call(&mut m.functions[fi], b, pos, &callee) {
                break;
            }
            stats.inlined += 1;
            inlined_into[fi] = true;
            was_inlined[c] = true;
        }
    }
    let removed = remove_dead(m, &was_inlined);
    stats.removed = removed.iter().filter(|&&r| r).count();
    stats.changed = inlined_into
        .iter()
        .zip(&removed)
        .filter(|&(_, &r)| !r)
        .enumerate()
        .filter(|&(_, (&c, _))| c)
        .map(|(i, _)| i)
        .collect();
    stats
}

/// The distinct callees of `f` (indices below `n`).
fn callees_of(f: &Function, n: usize) -> Vec<usize> {
    let mut c: Vec<usize> = call_sites(f, n).into_iter().map(|(_, _, c)| c).collect();
    c.sort_unstable();
    c.dedup();
    c
}

/// Every call of `f` to a function below `n`: its block, position and callee.
fn call_sites(f: &Function, n: usize) -> Vec<(Block, usize, usize)> {
    let mut out = Vec::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        for (pos, i) in bd.insts.iter().enumerate() {
            if let Some(Op::Call(c, _)) = f.insts.get(i.index()).map(|d| &d.op)
                && c.index() < n
            {
                out.push((Block(b as u32), pos, c.index()));
            }
        }
    }
    out
}

/// `reach[a][b]`: `b` can be reached from `a` by one or more calls.
fn reachability(callees: &[Vec<usize>]) -> Vec<Vec<bool>> {
    let n = callees.len();
    let mut reach = vec![vec![false; n]; n];
    for (a, row) in reach.iter_mut().enumerate() {
        let mut stack: Vec<usize> = callees[a].clone();
        while let Some(x) = stack.pop() {
            if x < n && !row[x] {
                row[x] = true;
                stack.extend(callees[x].iter().copied());
            }
        }
    }
    reach
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
    let Some(&call) = f.blocks.get(b.index()).and_then(|bd| bd.insts.get(pos)) else {
        return false;
    };
    let Some(cd) = f.insts.get(call.index()) else {
        return false;
    };
    let Op::Call(_, args) = &cd.op else {
        return false;
    };
    let (args, result, call_span) = (args.clone(), cd.result, cd.span);
    let entry_params = callee.params_of(Block(0));
    if callee.blocks.is_empty() || args.len() != entry_params.len() {
        return false;
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
    let mut complete = callee.values.len() == defined.len();
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
        return false;
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

    // Blocks and values of the copy.
    let mut vmap: HashMap<Value, Value> = HashMap::new();
    for (p, a) in entry_params.iter().zip(&args) {
        vmap.insert(*p, *a);
    }
    let base = f.blocks.len() as u32;
    let bmap = |cb: Block| Block(base + cb.0);
    for (cb, bd) in callee.blocks.iter().enumerate() {
        let nb = f.add_block();
        if cb > 0 {
            for p in &bd.params {
                if let Some(ty) = callee.value_type(*p) {
                    let np = f.add_block_param(nb, ty);
                    vmap.insert(*p, np);
                }
            }
        }
    }
    let mut hoisted: Vec<Inst> = Vec::new();
    let mut copied: Vec<Inst> = Vec::new();
    for (cb, bd) in callee.blocks.iter().enumerate() {
        let nb = bmap(Block(cb as u32));
        for i in &bd.insts {
            let Some(d) = callee.insts.get(i.index()) else {
                continue;
            };
            let ty = d.result.and_then(|r| callee.value_type(r));
            let op = d.op.clone();
            let (ni, nv) = if matches!(op, Op::StackAlloc { .. }) {
                let (ni, nv) = new_inst(f, op, ty, d.span);
                hoisted.push(ni);
                (ni, nv)
            } else {
                f.push_inst(nb, op, ty, d.span)
            };
            if let (Some(r), Some(nv)) = (d.result, nv) {
                vmap.insert(r, nv);
            }
            copied.push(ni);
        }
    }
    for ni in copied {
        if let Some(d) = f.insts.get_mut(ni.index()) {
            for_each_operand_mut(&mut d.op, |v| {
                if let Some(&n) = vmap.get(v) {
                    *v = n;
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
    // Hoisted slots go first in the entry block, in their original order.
    let entry = &mut f.blocks[0].insts;
    let rest = std::mem::take(entry);
    entry.extend(hoisted);
    entry.extend(rest);
    true
}

/// Deletes non-kernel functions that were inlined somewhere and have no call left
/// (repeatedly); renumbers calls and local variables. Returns the removed flags.
fn remove_dead(m: &mut Module, was_inlined: &[bool]) -> Vec<bool> {
    let n = m.functions.len();
    let mut removed = vec![false; n];
    loop {
        let mut called = vec![false; n];
        for (fi, f) in m.functions.iter().enumerate() {
            if removed[fi] {
                continue;
            }
            for (_, _, c) in call_sites(f, n) {
                called[c] = true;
            }
        }
        let mut any = false;
        for fi in 0..n {
            if !removed[fi] && !called[fi] && was_inlined[fi] && !m.functions[fi].is_kernel() {
                removed[fi] = true;
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    if !removed.iter().any(|&r| r) {
        return removed;
    }
    let mut new_id = vec![u32::MAX; n];
    let mut next = 0;
    for (i, slot) in new_id.iter_mut().enumerate() {
        if !removed[i] {
            *slot = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut m.functions);
    m.functions = old
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !removed[*i])
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
    removed
}

/// Cleans up function `fi` after inlining and infers its pointers' spaces again: a generic
/// pointer the callee received may now be seen to come from one named space.
pub fn simplify_inlined(m: &mut Module, fi: usize) {
    use super::infer_spaces::{Hooks, Lat, analyze, rewrite};
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
        },
    );
    rewrite(m, &mut f, &analysis);
    super::fold::fold(&mut f);
    super::dce::dce(&mut f);
    m.functions[fi] = f;
}
