//! Tidying after SSA construction: block parameters that always receive the same value (or
//! themselves) are replaced by that value, and unreachable blocks are emptied to a single
//! `unreachable`. Neither changes what the function computes.

use crate::FxHashMap;

use oclc_ir::passes::util::for_each_operand_mut;
use oclc_ir::{Block, Function, Op, Value, ValueDef};

/// Branch targets of `op` with their argument lists, mutably.
fn calls_mut(op: &mut Op) -> Vec<&mut oclc_ir::BlockCall> {
    match op {
        Op::Br(t) => vec![t],
        Op::CondBr(_, t, e) => vec![t, e],
        Op::Switch(_, cases, d) => cases.iter_mut().map(|(_, c)| c).chain([d]).collect(),
        _ => Vec::new(),
    }
}

/// Removes trivial block parameters until none is left.
pub fn simplify(f: &mut Function, reachable: &[bool]) {
    empty_unreachable(f, reachable);
    loop {
        // Incoming arguments of every parameter: (block, index) -> values; and the
        // parameters each value is passed to.
        let mut incoming: FxHashMap<(Block, usize), Vec<Value>> = FxHashMap::default();
        let mut users: FxHashMap<Value, Vec<(Block, usize)>> = FxHashMap::default();
        for d in &f.insts {
            for c in d.op.successors() {
                for (i, a) in c.args.iter().enumerate() {
                    incoming.entry((c.block, i)).or_default().push(*a);
                    users.entry(*a).or_default().push((c.block, i));
                }
            }
        }
        // A work list, not rounds: a parameter is looked at again when one it receives is
        // replaced, so a chain of them (an `else if` chain's joins) takes linear time.
        let mut repl: FxHashMap<Value, Value> = FxHashMap::default();
        let mut work: Vec<(Block, usize)> = Vec::new();
        for (bi, bd) in f.blocks.iter().enumerate().skip(1).rev() {
            work.extend((0..bd.params.len()).rev().map(|pi| (Block(bi as u32), pi)));
        }
        while let Some((b, pi)) = work.pop() {
            let Some(&p) = f.blocks.get(b.index()).and_then(|bd| bd.params.get(pi)) else {
                continue;
            };
            if repl.contains_key(&p) {
                continue;
            }
            let Some(args) = incoming.get(&(b, pi)) else {
                continue;
            };
            let mut same: Option<Value> = None;
            let mut trivial = true;
            for &a in args {
                let a = resolve_in(&repl, a);
                if a == p || Some(a) == same {
                    continue;
                }
                if same.is_some() {
                    trivial = false;
                    break;
                }
                same = Some(a);
            }
            if let (true, Some(v)) = (trivial, same) {
                repl.insert(p, v);
                // Whatever received `p` now receives `v`: look at it again, and again when
                // `v` is replaced.
                if let Some(us) = users.remove(&p) {
                    work.extend(us.iter().copied());
                    users.entry(v).or_default().extend(us);
                }
            }
        }
        if repl.is_empty() {
            return;
        }
        let resolve = |v: Value| resolve_in(&repl, v);
        // Drop the arguments of removed parameters, then the parameters themselves.
        let removed: Vec<(Block, Vec<usize>)> = f
            .blocks
            .iter()
            .enumerate()
            .map(|(bi, bd)| {
                let idx = bd
                    .params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| repl.contains_key(p))
                    .map(|(i, _)| i)
                    .collect();
                (Block(bi as u32), idx)
            })
            .collect();
        for d in &mut f.insts {
            for c in calls_mut(&mut d.op) {
                if let Some((_, idx)) = removed.get(c.block.index())
                    && !idx.is_empty()
                {
                    let mut k = 0;
                    c.args.retain(|_| {
                        let keep = !idx.contains(&k);
                        k += 1;
                        keep
                    });
                }
            }
            for_each_operand_mut(&mut d.op, |v| *v = resolve(*v));
        }
        for (bi, bd) in f.blocks.iter_mut().enumerate() {
            bd.params.retain(|p| !repl.contains_key(p));
            for (i, p) in bd.params.iter().enumerate() {
                if let Some(vd) = f.values.get_mut(p.index()) {
                    vd.def = ValueDef::Param(Block(bi as u32), i as u32);
                }
            }
        }
    }
}

/// `v` after the replacements in `repl` (followed to the end).
fn resolve_in(repl: &FxHashMap<Value, Value>, mut v: Value) -> Value {
    let mut n = 0;
    while let Some(r) = repl.get(&v) {
        v = *r;
        n += 1;
        if n > repl.len() {
            break;
        }
    }
    v
}

/// Replaces the body of every unreachable block with `unreachable`, so dead code neither
/// runs nor feeds block arguments.
fn empty_unreachable(f: &mut Function, reachable: &[bool]) {
    for (bi, bd) in f.blocks.iter_mut().enumerate() {
        if bi == 0 || reachable.get(bi).copied().unwrap_or(true) {
            continue;
        }
        let Some(last) = bd.insts.last().copied() else {
            continue;
        };
        if let Some(d) = f.insts.get_mut(last.index()) {
            d.op = Op::Unreachable;
            d.result = None;
        }
        bd.insts = vec![last];
    }
}

/// Which blocks are reachable from the entry.
pub fn reachable(f: &Function) -> Vec<bool> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    if n > 0 {
        seen[0] = true;
    }
    while let Some(b) = stack.pop() {
        let Some(last) = f.blocks.get(b).and_then(|bd| bd.insts.last()) else {
            continue;
        };
        let Some(d) = f.insts.get(last.index()) else {
            continue;
        };
        for c in d.op.successors() {
            let t = c.block.index();
            if t < n && !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    seen
}
