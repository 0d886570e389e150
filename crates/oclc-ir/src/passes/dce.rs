//! Dead-code elimination by liveness: an instruction is kept when it has an effect or its
//! result feeds one; a block parameter is kept when a kept instruction uses it, and the
//! branch arguments of dropped parameters go with them (dead loops of parameters included).

use super::util::*;
use crate::ir::*;

/// Removes dead instructions and block parameters of `f`; returns whether anything changed.
pub fn dce(f: &mut Function) -> bool {
    let nv = f.values.len();
    let mut live = vec![false; nv];
    let mut work: Vec<Value> = Vec::new();
    let mark = |v: Value, live: &mut Vec<bool>, work: &mut Vec<Value>| {
        if let Some(l) = live.get_mut(v.index())
            && !*l
        {
            *l = true;
            work.push(v);
        }
    };
    // Incoming arguments of each (block, parameter).
    let mut incoming: Vec<Vec<Vec<Value>>> = f
        .blocks
        .iter()
        .map(|bd| vec![Vec::new(); bd.params.len()])
        .collect();
    for (_, i) in placed_insts(f) {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        for s in d.op.successors() {
            if let Some(ps) = incoming.get_mut(s.block.index()) {
                for (k, a) in s.args.iter().enumerate() {
                    if let Some(l) = ps.get_mut(k) {
                        l.push(*a);
                    }
                }
            }
        }
        if is_removable(&d.op) && d.result.is_some() {
            continue;
        }
        match &d.op {
            Op::Br(_) => {}
            Op::CondBr(c, ..) => mark(*c, &mut live, &mut work),
            Op::Switch(x, ..) => mark(*x, &mut live, &mut work),
            op => op.for_each_operand(|v| mark(v, &mut live, &mut work)),
        }
    }
    // Entry parameters are the function's parameters: always kept.
    for p in f.params_of(Block(0)).to_vec() {
        mark(p, &mut live, &mut work);
    }
    while let Some(v) = work.pop() {
        match f.values.get(v.index()).map(|d| d.def) {
            Some(ValueDef::Inst(i)) => {
                if let Some(d) = f.insts.get(i.index()) {
                    d.op.for_each_operand(|x| mark(x, &mut live, &mut work));
                }
            }
            Some(ValueDef::Param(b, k)) => {
                if let Some(args) = incoming.get(b.index()).and_then(|ps| ps.get(k as usize)) {
                    for &a in args {
                        mark(a, &mut live, &mut work);
                    }
                }
            }
            None => {}
        }
    }
    let mut changed = false;
    // Drop dead instructions.
    let Function { blocks, insts, .. } = &mut *f;
    for bd in blocks.iter_mut() {
        let before = bd.insts.len();
        bd.insts.retain(|i| match insts.get(i.index()) {
            Some(d) => match d.result {
                Some(r) if is_removable(&d.op) => live.get(r.index()).copied().unwrap_or(true),
                _ => true,
            },
            None => false,
        });
        changed |= bd.insts.len() != before;
    }
    // Drop dead parameters of non-entry blocks with their arguments.
    let keep: Vec<Vec<bool>> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(b, bd)| {
            bd.params
                .iter()
                .map(|p| b == 0 || live.get(p.index()).copied().unwrap_or(true))
                .collect()
        })
        .collect();
    if keep.iter().any(|k| k.iter().any(|x| !x)) {
        changed = true;
        remove_block_params(f, &keep);
    }
    changed
}
