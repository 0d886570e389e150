//! The casts that can never succeed, found with as little work as possible (for `oclc check`,
//! which must stay fast on large files): only the functions that can change a verdict are
//! optimized and analysed, every other body is replaced by a stub; functions are optimized in
//! parallel, and the call graph's independent parts are specialized in parallel.

use std::collections::HashMap;

use super::report::ImpossibleCast;
use super::{VarRecord, dce, fold, mem2reg, specialize};
use crate::ir::{FuncId, Function, Module, Op};
use crate::lists::FlatLists;
use rayon::prelude::*;

/// The explicit generic→named casts and `to_X` tests of `m` that fail in every version of
/// their function. `m` is consumed as scratch: functions that cannot affect a verdict become
/// stubs. An invalid module gives no verdicts.
pub fn impossible_casts(m: &mut Module) -> Vec<ImpossibleCast> {
    if crate::verify::verify_module(m).is_err() {
        return Vec::new();
    }
    let keep = relevant(m);
    if !keep.iter().any(|&k| k) {
        return Vec::new();
    }
    for (f, &k) in m.functions.iter_mut().zip(&keep) {
        if !k && !f.is_stub() {
            *f = stub(f);
        }
    }
    super::sroa::sroa_module(m);
    // Functions are independent here: optimize them in parallel (collected in order, so the
    // result does not depend on the scheduling).
    let mut vars: Vec<_> = crate::par::install(|| {
        m.functions
            .par_iter_mut()
            .zip(&keep)
            .map(|(f, &k)| {
                if !k {
                    return Vec::new();
                }
                let v = mem2reg::mem2reg(f);
                fold::fold(f);
                dce::dce(f);
                v
            })
            .collect()
    });
    if crate::verify::debug_verify(m).is_err() {
        return Vec::new();
    }
    let Some(parts) = split(m, &mut vars) else {
        return specialize::impossible_casts(m, &mut vars);
    };
    let mut all: Vec<ImpossibleCast> = crate::par::install(|| {
        parts
            .into_par_iter()
            .map(|(mut sub, mut vars)| specialize::impossible_casts(&mut sub, &mut vars))
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .collect()
    });
    // As `specialize` orders them (stable: equal positions are never in two parts).
    all.sort_by_key(|c| (c.span.file.0, c.span.lo));
    all
}

/// Parts of the call graph specialized on their own, in parallel: the verdicts of a function
/// depend only on the functions it is connected to by calls (its callers decide its
/// parameters, its callees its calls' results; clones stay with their originals).
const PARTS_PER_THREAD: usize = 4;

/// Splits `m`'s functions (and `vars`, in step) into modules of whole connected components of
/// the call graph, numbered in their original order, so [`specialize::specialize`] on each
/// makes exactly the decisions it makes on `m` (each component's functions keep their relative
/// order, hence their processing order and clone numbering). `None` (and `m` untouched) when
/// there is nothing to split, or when two parts hold casts at one source position (the
/// verdicts' order by position would then depend on the split).
fn split(
    m: &mut Module,
    vars: &mut [Vec<VarRecord>],
) -> Option<Vec<(Module, Vec<Vec<VarRecord>>)>> {
    let n = m.functions.len();
    let threads = crate::par::install(rayon::current_num_threads);
    if threads < 2 || n < 2 {
        return None;
    }
    // Union-find over call edges (of every instruction, placed or not).
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (i, f) in m.functions.iter().enumerate() {
        for d in &f.insts {
            if let Op::Call(c, _) = d.op
                && c.index() < n
            {
                let (a, b) = (find(&mut parent, i), find(&mut parent, c.index()));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    // Components in order of their first function; parts are consecutive runs of them of
    // about equal size (in instructions).
    let mut comp_of = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let r = find(&mut parent, i);
        if comp_of[r] == usize::MAX {
            comp_of[r] = comps.len();
            comps.push(Vec::new());
        }
        comps[comp_of[r]].push(i);
    }
    if comps.len() < 2 {
        return None;
    }
    let size = |c: &Vec<usize>| {
        c.iter()
            .map(|&i| m.functions[i].insts.len() + 1)
            .sum::<usize>()
    };
    let total: usize = comps.iter().map(size).sum();
    let target = total.div_ceil(threads * PARTS_PER_THREAD).max(1);
    let mut part_of = vec![0usize; n];
    let mut parts = 0usize;
    let mut filled = 0usize;
    for c in &comps {
        if filled >= target {
            parts += 1;
            filled = 0;
        }
        filled += size(c);
        for &i in c {
            part_of[i] = parts;
        }
    }
    let parts = parts + 1;
    if parts < 2 {
        return None;
    }
    // Casts at one position in two parts: their relative order would follow the split.
    let mut seen: HashMap<(u32, u32), usize> = HashMap::new();
    for (i, f) in m.functions.iter().enumerate() {
        for d in &f.insts {
            if matches!(d.op, Op::FromGeneric(..) | Op::SpaceTest(..))
                && *seen.entry((d.span.file.0, d.span.lo)).or_insert(part_of[i]) != part_of[i]
            {
                return None;
            }
        }
    }
    let mut out: Vec<(Module, Vec<Vec<VarRecord>>)> = (0..parts)
        .map(|_| {
            let sub = Module {
                functions: Vec::new(),
                globals: Vec::new(),
                locals: Vec::new(),
                builtins: m.builtins.clone(),
            };
            (sub, Vec::new())
        })
        .collect();
    let mut new_id = vec![0u32; n];
    for i in 0..n {
        let (sub, _) = &mut out[part_of[i]];
        new_id[i] = sub.functions.len() as u32;
        sub.functions
            .push(Function::placeholder(oclc_syntax::Span::DUMMY));
    }
    for (i, f) in m.functions.iter_mut().enumerate() {
        let placeholder = Function::placeholder(f.span);
        let mut f = std::mem::replace(f, placeholder);
        for d in &mut f.insts {
            if let Op::Call(c, _) = &mut d.op {
                *c = FuncId(new_id.get(c.index()).copied().unwrap_or(u32::MAX));
            }
        }
        let (sub, sub_vars) = &mut out[part_of[i]];
        sub.functions[new_id[i] as usize] = f;
        sub_vars.push(vars.get_mut(i).map(std::mem::take).unwrap_or_default());
    }
    Some(out)
}

/// Functions that hold a cast or `to_X` test, every function that calls one of them
/// (transitively: they decide the spaces of its parameters), and every function those call
/// that returns a pointer (transitively: its result may reach a cast).
fn relevant(m: &Module) -> Vec<bool> {
    let n = m.functions.len();
    // Call edges (of placed and unplaced instructions alike), both ways, as flat lists.
    let edges = crate::verify::call_edges(m);
    let calls = FlatLists::from_pairs(n, edges.clone());
    let callers = FlatLists::from_pairs(n, edges.map(|(a, b)| (b, a)));
    let mut keep = vec![false; n];
    let mut stack: Vec<usize> = m
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.insts
                .iter()
                .any(|d| matches!(d.op, Op::FromGeneric(..) | Op::SpaceTest(..)))
        })
        .map(|(i, _)| i)
        .collect();
    for &i in &stack {
        keep[i] = true;
    }
    while let Some(i) = stack.pop() {
        for &c in callers.of(i) {
            if !keep[c] {
                keep[c] = true;
                stack.push(c);
            }
        }
    }
    let mut stack: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in calls.of(i) {
            let returns_ptr = m.functions[c].ret.is_some_and(|t| t.is_ptr());
            if returns_ptr && !keep[c] {
                keep[c] = true;
                stack.push(c);
            }
        }
    }
    keep
}

/// `f` with its signature and a body that never returns.
fn stub(f: &Function) -> Function {
    let mut s = Function::new(f.name.clone(), f.params.clone(), f.ret, f.span);
    s.kernel = f.kernel.clone();
    if !s.blocks.is_empty() {
        s.push_inst(crate::ir::Block(0), Op::Unreachable, None, f.span);
    }
    s
}
