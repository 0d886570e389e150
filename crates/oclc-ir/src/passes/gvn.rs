//! Global value numbering over the dominator tree: a pure instruction that repeats one
//! dominating it (same operation, operands and result type) is replaced by the earlier one.
//! Unrolled loops and inlined helpers recompute the same addresses (`ta[ly][k]` computes
//! `ta + ly*64` once per `k`); sharing them is what lets the PTX address `[base+4k]` and the
//! cpu device skip the repeats.

use super::util::*;
use crate::ir::*;
use crate::types::Type;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Whether `op` computes its result from its operands alone: a removable operation
/// ([`is_removable`]) other than `undef` (each is its own value), a stack slot (each is a
/// fresh object) and `from_generic` (checked where accessed, naming the cast's own line).
fn pure(op: &Op) -> bool {
    is_removable(op) && !matches!(op, Op::Undef | Op::StackAlloc { .. } | Op::FromGeneric(..))
}

/// A hash of what makes two pure instructions equal; equal hashes are confirmed by [`same`].
fn key(op: &Op, ty: Type) -> u64 {
    let mut h = DefaultHasher::new();
    std::mem::discriminant(op).hash(&mut h);
    ty.hash(&mut h);
    match op {
        Op::Const(Const::Int(x)) => x.hash(&mut h),
        Op::Const(Const::Float(x)) => x.to_bits().hash(&mut h),
        _ => op.for_each_operand(|v| v.hash(&mut h)),
    }
    h.finish()
}

/// Whether two pure operations compute the same value (floats compare by bits: `0.0` and
/// `-0.0` differ, and a NaN constant equals itself).
fn same(a: &Op, b: &Op) -> bool {
    match (a, b) {
        (Op::Const(Const::Float(x)), Op::Const(Const::Float(y))) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// The scoped table of available pure instructions, by [`key`].
#[derive(Default)]
struct Table {
    entries: HashMap<u64, Vec<(Inst, Value)>>,
}

impl Table {
    /// The earlier value `i` (result `r`) repeats, or None after recording `i` (its key goes
    /// to `mine`, to be forgotten when the dominator subtree is done).
    fn number(&mut self, f: &Function, i: Inst, r: Value, mine: &mut Vec<u64>) -> Option<Value> {
        let d = f.insts.get(i.index())?;
        let ty = f.values.get(r.index())?.ty;
        if !pure(&d.op) {
            return None;
        }
        let k = key(&d.op, ty);
        let list = self.entries.entry(k).or_default();
        let found = list.iter().rev().find(|(j, v)| {
            f.values.get(v.index()).map(|vd| vd.ty) == Some(ty)
                && f.insts.get(j.index()).is_some_and(|e| same(&e.op, &d.op))
        });
        if let Some(&(_, v)) = found {
            return Some(v);
        }
        list.push((i, r));
        mine.push(k);
        None
    }

    fn forget(&mut self, keys: Vec<u64>) {
        for k in keys {
            if let Some(list) = self.entries.get_mut(&k) {
                list.pop();
            }
        }
    }
}

/// For `ptradd (ptradd q, C), x` with a constant `C` and a variable `x`: inserts
/// `ptradd q, x` in front of `i` and returns it, so that `i` can become `ptradd (that), C`.
/// Constant offsets move outwards, where the PTX addressing mode absorbs them and the
/// variable part is shared (`tb[k][lx]` for k = 0..15 is one `tb + 4*lx` plus 64*k).
fn reassociate(f: &mut Function, b: Block, i: Inst) -> Option<(Inst, Value, Value)> {
    let Op::PtrAdd(p, x) = f.insts.get(i.index())?.op else {
        return None;
    };
    if const_int(f, x).is_some() {
        return None;
    }
    let Some(&Op::PtrAdd(q, c)) = def_op(f, p) else {
        return None;
    };
    const_int(f, c)?;
    let ty = f.values.get(p.index())?.ty;
    let span = f.insts[i.index()].span;
    let pos = f
        .blocks
        .get(b.index())?
        .insts
        .iter()
        .position(|&j| j == i)?;
    let (ni, nv) = insert_inst(f, b, pos, Op::PtrAdd(q, x), Some(ty), span);
    Some((ni, nv?, c))
}

/// Replaces repeated pure instructions of `f` by the dominating first one; returns how many
/// were replaced (they are left unused, for dce to remove).
pub fn gvn(f: &mut Function) -> usize {
    let dom = dom_info(f);
    let Some(&entry) = dom.rpo.first() else {
        return 0;
    };
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut table = Table::default();
    // Keys added by each open dominator-tree node, forgotten when its subtree is done.
    let mut added: Vec<Vec<u64>> = Vec::new();
    // Explicit stack (no recursion depth limit on deep trees): (block, entered).
    let mut stack = vec![(entry, false)];
    let mut replaced = 0;
    while let Some((b, entered)) = stack.pop() {
        if entered {
            table.forget(added.pop().unwrap_or_default());
            continue;
        }
        let mut mine = Vec::new();
        let insts = f.blocks.get(b.index()).map(|bd| bd.insts.clone());
        for i in insts.unwrap_or_default() {
            let Some(d) = f.insts.get_mut(i.index()) else {
                continue;
            };
            for_each_operand_mut(&mut d.op, |v| *v = resolve(&map, *v));
            let Some(r) = d.result else { continue };
            if let Some((ni, nv, c)) = reassociate(f, b, i) {
                let base = match table.number(f, ni, nv, &mut mine) {
                    Some(old) => {
                        map.insert(nv, old);
                        old
                    }
                    None => nv,
                };
                f.insts[i.index()].op = Op::PtrAdd(base, c);
            }
            if let Some(v) = table.number(f, i, r, &mut mine) {
                map.insert(r, v);
                replaced += 1;
            }
        }
        added.push(mine);
        stack.push((b, true));
        if let Some(children) = dom.children.get(b.index()) {
            for &c in children.iter().rev() {
                stack.push((c, false));
            }
        }
    }
    // Uses in blocks the walk does not reach (none in a verified function) follow too.
    replace_uses(f, &map);
    replaced
}
