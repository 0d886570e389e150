//! The casts that can never succeed, found with as little work as possible (for `oclc check`,
//! which must stay fast on large files): only the functions that can change a verdict are
//! optimized and analysed, every other body is replaced by a stub.

use super::report::ImpossibleCast;
use super::{dce, fold, mem2reg, specialize};
use crate::ir::{Function, Module, Op};

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
        if !k {
            *f = stub(f);
        }
    }
    let mut vars: Vec<_> = m
        .functions
        .iter_mut()
        .zip(&keep)
        .map(|(f, &k)| {
            if !k {
                return Vec::new();
            }
            let v = mem2reg::mem2reg(f);
            dce::dce(f);
            fold::fold(f);
            dce::dce(f);
            v
        })
        .collect();
    if crate::verify::debug_verify(m).is_err() {
        return Vec::new();
    }
    specialize::specialize(m, &mut vars).0.impossible_casts
}

/// Functions that hold a cast or `to_X` test, every function that calls one of them
/// (transitively: they decide the spaces of its parameters), and every function those call
/// that returns a pointer (transitively: its result may reach a cast).
fn relevant(m: &Module) -> Vec<bool> {
    let n = m.functions.len();
    let calls: Vec<Vec<usize>> = m
        .functions
        .iter()
        .map(|f| {
            f.insts
                .iter()
                .filter_map(|d| match d.op {
                    Op::Call(c, _) if c.index() < n => Some(c.index()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, cs) in calls.iter().enumerate() {
        for &c in cs {
            if let Some(list) = callers.get_mut(c) {
                list.push(i);
            }
        }
    }
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
        for &c in &callers[i] {
            if !keep[c] {
                keep[c] = true;
                stack.push(c);
            }
        }
    }
    let mut stack: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in &calls[i] {
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
