//! Dead-code elimination: removes instructions without side effects whose results are
//! never used. Loads stay (they can fault, and faults are reported).

use crate::ir::*;

fn is_pure(op: &Op) -> bool {
    matches!(
        op,
        Op::Const(_)
            | Op::Undef
            | Op::Bin(..)
            | Op::Un(..)
            | Op::Cmp(..)
            | Op::Conv(..)
            | Op::Bitcast(_)
            | Op::IntToPtr(_)
            | Op::Splat(_)
            | Op::Build(_)
            | Op::Extract(..)
            | Op::ExtractDyn(..)
            | Op::Insert(..)
            | Op::InsertDyn(..)
            | Op::Shuffle(..)
            | Op::Select(..)
            | Op::PtrAdd(..)
            | Op::PtrDiff(..)
            | Op::ToGeneric(_)
            | Op::FromGeneric(..)
            | Op::SpaceTest(..)
            | Op::GetFence(_)
            | Op::StackAlloc { .. }
            | Op::GlobalAddr(_)
            | Op::LocalAddr(_)
            | Op::WorkItem(..)
    )
}

/// Removes dead pure instructions from `f`; returns how many.
pub fn dce(f: &mut Function) -> usize {
    let mut uses = vec![0u32; f.values.len()];
    let mut live_inst = vec![false; f.insts.len()];
    for bd in &f.blocks {
        for i in &bd.insts {
            if let Some(d) = f.insts.get(i.index()) {
                live_inst[i.index()] = true;
                d.op.for_each_operand(|v| {
                    if let Some(u) = uses.get_mut(v.index()) {
                        *u += 1;
                    }
                });
            }
        }
    }
    let mut removed = 0;
    let mut work: Vec<Inst> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .collect();
    while let Some(i) = work.pop() {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        if !live_inst[i.index()] || !is_pure(&d.op) {
            continue;
        }
        if d.result
            .is_some_and(|r| uses.get(r.index()).copied().unwrap_or(0) > 0)
        {
            continue;
        }
        live_inst[i.index()] = false;
        removed += 1;
        d.op.for_each_operand(|v| {
            if let Some(u) = uses.get_mut(v.index()) {
                *u = u.saturating_sub(1);
                if *u == 0
                    && let Some(ValueData {
                        def: ValueDef::Inst(di),
                        ..
                    }) = f.values.get(v.index())
                {
                    work.push(*di);
                }
            }
        });
    }
    for bd in f.blocks.iter_mut() {
        bd.insts
            .retain(|i| live_inst.get(i.index()).copied().unwrap_or(true));
    }
    removed
}

/// Runs [`dce`] on every function.
pub fn dce_module(m: &mut Module) -> usize {
    m.functions.iter_mut().map(dce).sum()
}
