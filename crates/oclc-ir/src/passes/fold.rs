//! Constant folding of scalar integer arithmetic, comparisons and conversions, selects and
//! branches on constants, zero-offset `ptradd`, space casts of `to_generic` results, and
//! removal of block parameters that always receive one value.

use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Type};

/// Folds `f` until nothing changes; returns whether anything did.
pub fn fold(f: &mut Function) -> bool {
    let mut any = false;
    for _ in 0..8 {
        let mut changed = fold_once(f);
        changed |= merge_blocks(f);
        changed |= remove_unreachable_blocks(f);
        changed |= simplify_block_params(f);
        any |= changed;
        if !changed {
            break;
        }
    }
    any
}

fn fold_once(f: &mut Function) -> bool {
    let mut map = ValueMap::for_function(f);
    let mut changed = false;
    let mut dead: Vec<Inst> = Vec::new();
    for (b, i) in placed_insts(f) {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        let mut remapped = false;
        if !map.is_empty() {
            d.op.for_each_operand(|v| remapped |= map.contains(v));
        }
        let owned;
        let op = if remapped {
            let mut op = d.op.clone();
            for_each_operand_mut(&mut op, |v| *v = resolve(&map, *v));
            owned = op;
            &owned
        } else {
            &d.op
        };
        let result = d.result;
        let span = d.span;
        let rty = result.and_then(|r| f.value_type(r));
        match fold_op(f, op, rty) {
            Some(Folded::Value(v)) => {
                if let Some(r) = result {
                    map.insert(r, v);
                    dead.push(i);
                    changed = true;
                }
            }
            Some(Folded::Const(c)) => {
                if let Some(dm) = f.insts.get_mut(i.index()) {
                    dm.op = Op::Const(c);
                    changed = true;
                }
            }
            Some(Folded::Op(new)) => {
                if let Some(dm) = f.insts.get_mut(i.index()) {
                    dm.op = new;
                    changed = true;
                }
            }
            Some(Folded::NullOf(space)) => {
                let pos = f.blocks[b.index()]
                    .insts
                    .iter()
                    .position(|x| *x == i)
                    .unwrap_or(0);
                let (_, v) = insert_inst(
                    f,
                    b,
                    pos,
                    Op::Const(Const::Null),
                    Some(Type::Ptr(space)),
                    span,
                );
                if let (Some(r), Some(v)) = (result, v) {
                    map.insert(r, v);
                    dead.push(i);
                    changed = true;
                }
            }
            None => {}
        }
    }
    if !dead.is_empty() {
        let mut is_dead = vec![false; f.insts.len()];
        for i in dead {
            if let Some(x) = is_dead.get_mut(i.index()) {
                *x = true;
            }
        }
        for bd in f.blocks.iter_mut() {
            bd.insts
                .retain(|i| !is_dead.get(i.index()).copied().unwrap_or(false));
        }
    }
    replace_uses(f, &map);
    changed
}

enum Folded {
    /// The result equals an existing value.
    Value(Value),
    /// The result is this constant.
    Const(Const),
    /// The instruction becomes this one (a branch on a constant).
    Op(Op),
    /// The result is NULL of this space.
    NullOf(AddrSpace),
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let s = 64 - bits;
        ((x << s) as i64) >> s
    }
}

/// The bit width of a scalar integer type.
fn int_bits(t: Option<Type>) -> Option<u32> {
    match t? {
        Type::Scalar(s) if s.is_int() => Some(s.bits()),
        _ => None,
    }
}

fn fold_op(f: &Function, op: &Op, rty: Option<Type>) -> Option<Folded> {
    let c = |v: &Value| const_int(f, *v);
    let vt = |v: &Value| f.value_type(*v);
    match op {
        Op::Bin(o, a, b) => {
            let w = int_bits(rty)?;
            let (x, y) = (c(a)? & mask(w), c(b)? & mask(w));
            let r = match o {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::And => x & y,
                BinOp::Or => x | y,
                BinOp::Xor => x ^ y,
                BinOp::Shl => x << (y % w as u64),
                BinOp::LShr => x >> (y % w as u64),
                BinOp::AShr => (sext(x, w) >> (y % w as u64)) as u64,
                BinOp::UDiv if y != 0 => x / y,
                BinOp::URem if y != 0 => x % y,
                BinOp::SDiv | BinOp::SRem => {
                    let (sx, sy) = (sext(x, w), sext(y, w));
                    if sy == 0 || (sy == -1 && sx == sext(1u64 << (w - 1), w)) {
                        return None;
                    }
                    if *o == BinOp::SDiv {
                        (sx / sy) as u64
                    } else {
                        (sx % sy) as u64
                    }
                }
                _ => return None,
            };
            Some(Folded::Const(Const::Int(r & mask(w))))
        }
        Op::Un(o, a) => {
            let w = int_bits(rty)?;
            let x = c(a)?;
            let r = match o {
                UnOp::Neg => x.wrapping_neg(),
                UnOp::Not => !x,
                UnOp::FNeg => return None,
            };
            Some(Folded::Const(Const::Int(r & mask(w))))
        }
        Op::Cmp(o @ (CmpOp::Eq | CmpOp::Ne), a, b)
            if matches!(def_op(f, *a), Some(Op::Const(Const::Null)))
                && matches!(def_op(f, *b), Some(Op::Const(Const::Null))) =>
        {
            Some(Folded::Const(Const::Int((*o == CmpOp::Eq) as u64)))
        }
        Op::Cmp(o, a, b) => {
            let w = int_bits(vt(a))?;
            let (x, y) = (c(a)? & mask(w), c(b)? & mask(w));
            let (sx, sy) = (sext(x, w), sext(y, w));
            let r = match o {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::Ult => x < y,
                CmpOp::Ule => x <= y,
                CmpOp::Ugt => x > y,
                CmpOp::Uge => x >= y,
                CmpOp::Slt => sx < sy,
                CmpOp::Sle => sx <= sy,
                CmpOp::Sgt => sx > sy,
                CmpOp::Sge => sx >= sy,
                _ => return None,
            };
            Some(Folded::Const(Const::Int(r as u64)))
        }
        Op::Conv(o, a) => {
            let to = int_bits(rty)?;
            let from = int_bits(vt(a))?;
            let x = c(a)? & mask(from);
            let r = match o {
                ConvOp::ZExt | ConvOp::Trunc => x,
                ConvOp::SExt => sext(x, from) as u64,
                ConvOp::ToBool => (x != 0) as u64,
                _ => return None,
            };
            Some(Folded::Const(Const::Int(r & mask(to))))
        }
        Op::Select(cond, a, b) => {
            if a == b {
                return Some(Folded::Value(*a));
            }
            if vt(cond) != Some(Type::I1) {
                return None;
            }
            Some(Folded::Value(if c(cond)? & 1 != 0 { *a } else { *b }))
        }
        Op::PtrAdd(p, o) if c(o)? == 0 => Some(Folded::Value(*p)),
        // `(T *)(intptr_t)p` with no bits lost is `p` (through `to_generic` into generic).
        Op::IntToPtr(x) => {
            let Some(Op::Conv(ConvOp::PtrToInt, p)) = def_op(f, *x) else {
                return None;
            };
            if vt(x) != Some(Type::I64) {
                return None;
            }
            match (vt(p)?, rty?) {
                (a, b) if a == b => Some(Folded::Value(*p)),
                (
                    Type::Ptr(AddrSpace::Private | AddrSpace::Global | AddrSpace::Local),
                    Type::Ptr(AddrSpace::Generic),
                ) => Some(Folded::Op(Op::ToGeneric(*p))),
                _ => None,
            }
        }
        Op::FromGeneric(p, s) => match def_op(f, *p)? {
            Op::ToGeneric(q) if vt(q) == Some(Type::Ptr(*s)) => Some(Folded::Value(*q)),
            _ => None,
        },
        // A test that fails is left to the space inference, which warns about it.
        Op::SpaceTest(p, s) => match def_op(f, *p)? {
            Op::ToGeneric(q) if vt(q) == Some(Type::Ptr(*s)) => Some(Folded::Value(*q)),
            Op::Const(Const::Null) => Some(Folded::NullOf(*s)),
            _ => None,
        },
        Op::CondBr(cond, t, e) => {
            let x = c(cond)?;
            Some(Folded::Op(Op::Br(if x & 1 != 0 {
                t.clone()
            } else {
                e.clone()
            })))
        }
        Op::Switch(x, cases, d) => {
            let w = int_bits(vt(x))?;
            let x = c(x)? & mask(w);
            let t = cases
                .iter()
                .find(|(k, _)| k & mask(w) == x)
                .map_or(d, |(_, t)| t);
            Some(Folded::Op(Op::Br(t.clone())))
        }
        _ => None,
    }
}

/// Appends each block reached only by an unconditional branch from one predecessor to that
/// predecessor (its parameters become the branch's arguments); the emptied blocks are then
/// unreachable and removed.
pub fn merge_blocks(f: &mut Function) -> bool {
    let n = f.blocks.len();
    let mut preds = vec![0usize; n];
    for ss in successors(f) {
        for s in ss {
            if let Some(p) = preds.get_mut(s.index()) {
                *p += 1;
            }
        }
    }
    let mut map = ValueMap::for_function(f);
    let mut changed = false;
    for a in 0..n {
        let mut guard = 0;
        loop {
            guard += 1;
            let Some(t) = terminator(f, Block(a as u32)) else {
                break;
            };
            let Some(Op::Br(call)) = f.insts.get(t.index()).map(|d| d.op.clone()) else {
                break;
            };
            let b = call.block.index();
            if b == a || b == 0 || b >= n || preds[b] != 1 || guard > n {
                break;
            }
            let params = std::mem::take(&mut f.blocks[b].params);
            for (p, arg) in params.iter().zip(&call.args) {
                map.insert(*p, *arg);
            }
            let moved = std::mem::take(&mut f.blocks[b].insts);
            f.blocks[a].insts.pop();
            f.blocks[a].insts.extend(moved);
            preds[b] = 0;
            changed = true;
        }
    }
    if changed {
        replace_uses(f, &map);
        // Emptied blocks get a placeholder terminator until unreachable-block removal.
        for b in 0..n {
            if f.blocks[b].insts.is_empty() {
                let span = f.span;
                let (i, _) = new_inst(f, Op::Unreachable, None, span);
                f.blocks[b].insts.push(i);
            }
        }
        remove_unreachable_blocks(f);
    }
    changed
}

/// Removes block parameters whose every incoming argument (other than the parameter itself)
/// is one value, replacing them with that value.
pub fn simplify_block_params(f: &mut Function) -> bool {
    let mut any = false;
    loop {
        let mut incoming: Vec<Vec<Vec<Value>>> = f
            .blocks
            .iter()
            .map(|bd| vec![Vec::new(); bd.params.len()])
            .collect();
        for bd in &f.blocks {
            let Some(d) = bd.insts.last().and_then(|i| f.insts.get(i.index())) else {
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
        }
        let mut map = ValueMap::for_function(f);
        let mut drop: Vec<(Block, usize)> = Vec::new();
        for (b, bd) in f.blocks.iter().enumerate().skip(1) {
            for (k, p) in bd.params.iter().enumerate() {
                let mut only: Option<Value> = None;
                let mut unique = true;
                for a in &incoming[b][k] {
                    if a == p {
                        continue;
                    }
                    match only {
                        None => only = Some(*a),
                        Some(o) if o == *a => {}
                        Some(_) => unique = false,
                    }
                }
                if unique
                    && let Some(o) = only
                    && resolve(&map, o) != *p
                {
                    map.insert(*p, o);
                    drop.push((Block(b as u32), k));
                }
            }
        }
        if drop.is_empty() {
            return any;
        }
        replace_uses(f, &map);
        let mut keep: Vec<Vec<bool>> = f
            .blocks
            .iter()
            .map(|bd| vec![true; bd.params.len()])
            .collect();
        for (b, k) in drop {
            if let Some(x) = keep.get_mut(b.index()).and_then(|kb| kb.get_mut(k)) {
                *x = false;
            }
        }
        remove_block_params(f, &keep);
        any = true;
    }
}

/// Jump threading of short-circuit joins: an edge into a block whose only instruction
/// branches on one of its parameters goes straight to that branch's target when the edge's
/// argument is known there (a constant, or the condition of the branch taking the edge).
/// `a || b || c` then tests each operand once instead of rebuilding and testing its 0/1
/// join value at every step. Returns whether any edge changed.
pub fn thread_jumps(f: &mut Function) -> bool {
    let uses = use_counts(f);
    // Per block: (parameter index branched on, the branch) when the block is only that
    // branch and its parameters are used nowhere else.
    let cand: Vec<Option<(usize, Value, BlockCall, BlockCall)>> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(b, bd)| {
            let [i] = bd.insts.as_slice() else {
                return None;
            };
            let Op::CondBr(c, t, e) = &f.insts.get(i.index())?.op else {
                return None;
            };
            let k = bd.params.iter().position(|p| p == c)?;
            let mut here = vec![0u32; f.values.len()];
            f.insts.get(i.index())?.op.for_each_operand(|v| {
                if let Some(n) = here.get_mut(v.index()) {
                    *n += 1;
                }
            });
            let local = bd
                .params
                .iter()
                .all(|p| uses.get(p.index()) == here.get(p.index()));
            (b != 0 && local).then(|| (k, *c, t.clone(), e.clone()))
        })
        .collect();
    let mut changed = false;
    for a in 0..f.blocks.len() {
        let Some(t) = terminator(f, Block(a as u32)) else {
            continue;
        };
        let Some(mut op) = f.insts.get(t.index()).map(|d| d.op.clone()) else {
            continue;
        };
        let cond = match &op {
            Op::CondBr(c, ..) => Some(*c),
            _ => None,
        };
        let mut any = false;
        for (edge, call) in successors_mut(&mut op).enumerate() {
            for _ in 0..8 {
                let Some(Some((k, _, bt, be))) = cand.get(call.block.index()) else {
                    break;
                };
                let Some(&arg) = call.args.get(*k) else {
                    break;
                };
                let known = match (const_int(f, arg), cond) {
                    (Some(x), _) => x & 1 != 0,
                    (None, Some(c)) if c == arg && edge < 2 => edge == 0,
                    _ => break,
                };
                let params = &f.blocks[call.block.index()].params;
                let next = if known { bt } else { be };
                let args = next
                    .args
                    .iter()
                    .map(|v| match params.iter().position(|p| p == v) {
                        Some(j) => call.args.get(j).copied().unwrap_or(*v),
                        None => *v,
                    })
                    .collect();
                *call = BlockCall {
                    block: next.block,
                    args,
                };
                any = true;
            }
        }
        if any && let Some(d) = f.insts.get_mut(t.index()) {
            d.op = op;
            changed = true;
        }
    }
    changed
}
