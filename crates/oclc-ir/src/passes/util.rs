//! Helpers shared by the passes: operand rewriting, use counts, instruction placement,
//! predecessor lists, dominance frontiers and unreachable-block removal.

use crate::ir::*;
use crate::types::Type;
use crate::verify::dominators;
use oclc_syntax::Span;
use std::collections::HashMap;

/// Calls `f` on every value operand of `op`, mutably, in the order of [`Op::for_each_operand`].
pub fn for_each_operand_mut(op: &mut Op, mut f: impl FnMut(&mut Value)) {
    match op {
        Op::Const(_)
        | Op::Undef
        | Op::StackAlloc { .. }
        | Op::GlobalAddr(_)
        | Op::LocalAddr(_)
        | Op::Unreachable => {}
        Op::Bin(_, a, b)
        | Op::Cmp(_, a, b)
        | Op::PtrAdd(a, b)
        | Op::PtrDiff(a, b)
        | Op::InBounds { ptr: a, len: b }
        | Op::ExtractDyn(a, b)
        | Op::Insert(a, b, _) => {
            f(a);
            f(b)
        }
        Op::Un(_, a)
        | Op::Conv(_, a)
        | Op::Bitcast(a)
        | Op::IntToPtr(a)
        | Op::Splat(a)
        | Op::Extract(a, _)
        | Op::Shuffle(a, _)
        | Op::Load(a)
        | Op::ToGeneric(a)
        | Op::FromGeneric(a, _)
        | Op::SpaceTest(a, _)
        | Op::GetFence(a) => f(a),
        Op::Build(vs) | Op::Call(_, vs) | Op::CallBuiltin(_, vs) => vs.iter_mut().for_each(f),
        Op::Select(a, b, c) | Op::InsertDyn(a, b, c) => {
            f(a);
            f(b);
            f(c)
        }
        Op::WorkGroup { value, ids, .. } => {
            f(value);
            ids.iter_mut().for_each(f)
        }
        Op::Store { ptr, value } => {
            f(ptr);
            f(value)
        }
        Op::Memcpy { dst, src, len } => {
            f(dst);
            f(src);
            f(len)
        }
        Op::Memset { dst, byte, len } => {
            f(dst);
            f(byte);
            f(len)
        }
        Op::AtomicRmw { ptr, value, .. } | Op::AtomicStore { ptr, value, .. } => {
            f(ptr);
            f(value)
        }
        Op::AtomicCmpXchg {
            ptr,
            expected,
            desired,
            ..
        } => {
            f(ptr);
            f(expected);
            f(desired)
        }
        Op::AtomicLoad { ptr, .. } => f(ptr),
        Op::Barrier { flags, .. } | Op::Fence { flags, .. } => f(flags),
        Op::WorkItem(_, d) => {
            if let Some(d) = d {
                f(d)
            }
        }
        Op::Printf(fmt, args) => {
            f(fmt);
            args.iter_mut().for_each(f)
        }
        Op::Ret(v) => {
            if let Some(v) = v {
                f(v)
            }
        }
        Op::Br(t) => t.args.iter_mut().for_each(f),
        Op::CondBr(c, t, e) => {
            f(c);
            t.args.iter_mut().chain(e.args.iter_mut()).for_each(f)
        }
        Op::Switch(x, cases, d) => {
            f(x);
            for (_, c) in cases.iter_mut() {
                c.args.iter_mut().for_each(&mut f);
            }
            d.args.iter_mut().for_each(f)
        }
    }
}

/// Mutable branch targets of a terminator.
pub fn successors_mut(op: &mut Op) -> impl Iterator<Item = &mut BlockCall> {
    let (head, cases, tail): ([Option<&mut BlockCall>; 2], &mut [(u64, BlockCall)], _) = match op {
        Op::Br(t) => ([Some(t), None], &mut [], None),
        Op::CondBr(_, t, e) => ([Some(t), Some(e)], &mut [], None),
        Op::Switch(_, cases, d) => ([None, None], cases, Some(d)),
        _ => ([None, None], &mut [], None),
    };
    head.into_iter()
        .flatten()
        .chain(cases.iter_mut().map(|(_, c)| c))
        .chain(tail)
}

/// A replacement map from values to values, as [`resolve`] and [`replace_uses`] read it.
pub trait ValueLookup {
    fn lookup(&self, v: Value) -> Option<Value>;
    /// How many values are mapped.
    fn mapped(&self) -> usize;
}

impl<S: std::hash::BuildHasher> ValueLookup for HashMap<Value, Value, S> {
    fn lookup(&self, v: Value) -> Option<Value> {
        self.get(&v).copied()
    }
    fn mapped(&self) -> usize {
        self.len()
    }
}

/// A replacement map indexed by value number: a flat table, for passes that map many of a
/// function's values (no hashing, one allocation).
#[derive(Clone, Debug, Default)]
pub struct ValueMap {
    to: Vec<Option<Value>>,
    len: usize,
}

impl ValueMap {
    /// An empty map with room for the values of `f`.
    pub fn for_function(f: &Function) -> Self {
        ValueMap {
            to: vec![None; f.values.len()],
            len: 0,
        }
    }

    pub fn insert(&mut self, from: Value, to: Value) {
        let i = from.index();
        if i >= self.to.len() {
            self.to.resize(i + 1, None);
        }
        if self.to[i].replace(to).is_none() {
            self.len += 1;
        }
    }

    pub fn get(&self, v: Value) -> Option<Value> {
        self.to.get(v.index()).copied().flatten()
    }

    pub fn contains(&self, v: Value) -> bool {
        self.get(v).is_some()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl ValueLookup for ValueMap {
    fn lookup(&self, v: Value) -> Option<Value> {
        self.get(v)
    }
    fn mapped(&self) -> usize {
        self.len
    }
}

/// Follows a replacement map to its end (maps never contain cycles; the step limit guards
/// against a bug turning into a hang).
pub fn resolve<M: ValueLookup + ?Sized>(map: &M, mut v: Value) -> Value {
    let mut steps = 0;
    while let Some(n) = map.lookup(v) {
        if n == v || steps > map.mapped() {
            break;
        }
        v = n;
        steps += 1;
    }
    v
}

/// Rewrites every operand of every placed instruction through `map`.
pub fn replace_uses<M: ValueLookup + ?Sized>(f: &mut Function, map: &M) {
    if map.mapped() == 0 {
        return;
    }
    let Function { blocks, insts, .. } = f;
    for b in blocks.iter() {
        for i in &b.insts {
            if let Some(d) = insts.get_mut(i.index()) {
                for_each_operand_mut(&mut d.op, |v| *v = resolve(map, *v));
            }
        }
    }
}

/// The instructions of every block, in order (a snapshot).
pub fn placed_insts(f: &Function) -> Vec<(Block, Inst)> {
    f.blocks
        .iter()
        .enumerate()
        .flat_map(|(b, bd)| bd.insts.iter().map(move |i| (Block(b as u32), *i)))
        .collect()
}

/// How many times each value is used as an operand by a placed instruction.
pub fn use_counts(f: &Function) -> Vec<u32> {
    let mut n = vec![0u32; f.values.len()];
    for bd in &f.blocks {
        for i in &bd.insts {
            if let Some(d) = f.insts.get(i.index()) {
                d.op.for_each_operand(|v| {
                    if let Some(c) = n.get_mut(v.index()) {
                        *c += 1;
                    }
                });
            }
        }
    }
    n
}

/// The instruction defining `v`, if it is an instruction result.
pub fn def_op(f: &Function, v: Value) -> Option<&Op> {
    match f.values.get(v.index())?.def {
        ValueDef::Inst(i) => f.insts.get(i.index()).map(|d| &d.op),
        ValueDef::Param(..) => None,
    }
}

/// The integer constant `v` is defined as, if any.
pub fn const_int(f: &Function, v: Value) -> Option<u64> {
    match def_op(f, v)? {
        Op::Const(Const::Int(x)) => Some(*x),
        _ => None,
    }
}

/// Creates an instruction that belongs to no block yet.
pub fn new_inst(f: &mut Function, op: Op, ty: Option<Type>, span: Span) -> (Inst, Option<Value>) {
    f.push_inst(Block(u32::MAX), op, ty, span)
}

/// Creates an instruction and places it at `pos` in block `b`.
pub fn insert_inst(
    f: &mut Function,
    b: Block,
    pos: usize,
    op: Op,
    ty: Option<Type>,
    span: Span,
) -> (Inst, Option<Value>) {
    let (i, v) = new_inst(f, op, ty, span);
    if let Some(bd) = f.blocks.get_mut(b.index()) {
        let pos = pos.min(bd.insts.len());
        bd.insts.insert(pos, i);
    }
    (i, v)
}

/// The terminator of `b`.
pub fn terminator(f: &Function, b: Block) -> Option<Inst> {
    f.blocks.get(b.index())?.insts.last().copied()
}

/// Successor blocks of each block (by index).
pub fn successors(f: &Function) -> Vec<Vec<Block>> {
    f.blocks
        .iter()
        .map(|bd| {
            bd.insts
                .last()
                .and_then(|i| f.insts.get(i.index()))
                .map(|d| d.op.successors().map(|s| s.block).collect())
                .unwrap_or_default()
        })
        .collect()
}

/// Predecessor blocks of each block (one entry per edge).
pub fn predecessors(f: &Function) -> Vec<Vec<Block>> {
    let mut p = vec![Vec::new(); f.blocks.len()];
    for (b, ss) in successors(f).iter().enumerate() {
        for s in ss {
            if let Some(l) = p.get_mut(s.index()) {
                l.push(Block(b as u32));
            }
        }
    }
    p
}

/// Reachable blocks in reverse postorder from the entry.
pub fn reverse_postorder(f: &Function) -> Vec<Block> {
    let succ = successors(f);
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return post;
    }
    seen[0] = true;
    let mut stack = vec![(0usize, 0usize)];
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        if let Some(s) = succ[b].get(*k) {
            *k += 1;
            let s = s.index();
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(Block(b as u32));
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Reverse postorder, immediate dominators and dominance frontiers of reachable blocks.
pub struct DomInfo {
    pub rpo: Vec<Block>,
    pub idom: Vec<Option<Block>>,
    pub frontier: Vec<Vec<Block>>,
    pub children: Vec<Vec<Block>>,
}

pub fn dom_info(f: &Function) -> DomInfo {
    let (rpo, idom) = dominators(f);
    let n = f.blocks.len();
    let preds = predecessors(f);
    let mut frontier: Vec<Vec<Block>> = vec![Vec::new(); n];
    for &b in &rpo {
        let ps: Vec<Block> = preds[b.index()]
            .iter()
            .copied()
            .filter(|p| idom.get(p.index()).copied().flatten().is_some())
            .collect();
        if ps.len() < 2 {
            continue;
        }
        let Some(target) = idom[b.index()] else {
            continue;
        };
        for p in ps {
            let mut runner = p;
            let mut guard = 0;
            while runner != target && guard <= n {
                if !frontier[runner.index()].contains(&b) {
                    frontier[runner.index()].push(b);
                }
                match idom[runner.index()] {
                    Some(d) if d != runner => runner = d,
                    _ => break,
                }
                guard += 1;
            }
        }
    }
    let mut children = vec![Vec::new(); n];
    for &b in &rpo {
        if let Some(d) = idom[b.index()]
            && d != b
        {
            children[d.index()].push(b);
        }
    }
    DomInfo {
        rpo,
        idom,
        frontier,
        children,
    }
}

/// Deletes blocks that the entry cannot reach, renumbering the others. Values they defined
/// become unused entries of the value table.
pub fn remove_unreachable_blocks(f: &mut Function) -> bool {
    let n = f.blocks.len();
    let succ = successors(f);
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    if n > 0 {
        seen[0] = true;
    }
    while let Some(b) = stack.pop() {
        for s in &succ[b] {
            if let Some(x) = seen.get_mut(s.index())
                && !*x
            {
                *x = true;
                stack.push(s.index());
            }
        }
    }
    if seen.iter().all(|&s| s) {
        return false;
    }
    let mut new_index = vec![u32::MAX; n];
    let mut next = 0u32;
    for (b, &s) in seen.iter().enumerate() {
        if s {
            new_index[b] = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut f.blocks);
    for (b, bd) in old.into_iter().enumerate() {
        if seen[b] {
            f.blocks.push(bd);
        }
    }
    for (nb, bd) in f.blocks.iter().enumerate() {
        for (pi, p) in bd.params.iter().enumerate() {
            if let Some(vd) = f.values.get_mut(p.index()) {
                vd.def = ValueDef::Param(Block(nb as u32), pi as u32);
            }
        }
    }
    let placed: Vec<Inst> = f.blocks.iter().flat_map(|b| b.insts.clone()).collect();
    for i in placed {
        if let Some(d) = f.insts.get_mut(i.index()) {
            for s in successors_mut(&mut d.op) {
                if let Some(&ni) = new_index.get(s.block.index()) {
                    s.block = Block(ni);
                }
            }
        }
    }
    true
}

/// Removes the parameters of each block whose `keep` flag is false, with the matching
/// arguments of every branch (one pass over the function).
pub fn remove_block_params(f: &mut Function, keep: &[Vec<bool>]) {
    for (b, bd) in f.blocks.iter_mut().enumerate() {
        if let Some(kb) = keep.get(b) {
            let mut k = kb.iter();
            bd.params.retain(|_| *k.next().unwrap_or(&true));
        }
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        for (pi, p) in bd.params.iter().enumerate() {
            if let Some(vd) = f.values.get_mut(p.index()) {
                vd.def = ValueDef::Param(Block(b as u32), pi as u32);
            }
        }
    }
    let terms: Vec<Inst> = f
        .blocks
        .iter()
        .filter_map(|bd| bd.insts.last().copied())
        .collect();
    for t in terms {
        if let Some(d) = f.insts.get_mut(t.index()) {
            for s in successors_mut(&mut d.op) {
                if let Some(kb) = keep.get(s.block.index()) {
                    let mut k = kb.iter();
                    s.args.retain(|_| *k.next().unwrap_or(&true));
                }
            }
        }
    }
}

/// A zero constant of `ty`: 0, 0.0 or NULL (vectors splat).
pub fn zero_const(ty: Type) -> Op {
    match ty {
        Type::Ptr(_) => Op::Const(Const::Null),
        t if t.is_float() => Op::Const(Const::Float(0.0)),
        _ => Op::Const(Const::Int(0)),
    }
}

/// Whether an instruction can be deleted when its result is unused: no memory writes, no
/// control flow, no calls, no device checks other than undefined behaviour of C.
pub fn is_removable(op: &Op) -> bool {
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
            | Op::InBounds { .. }
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

/// The value of the `i64` offset `v` when it is computed from constants only (`add`, `sub`,
/// `mul`, `shl` of `i64`s, `sext`/`zext` of narrower integer constants): what the lowering
/// makes of `a[2]` or `s.f` before constants are folded.
pub fn const_offset(f: &Function, v: Value) -> Option<i64> {
    const_offset_depth(f, v, 0)
}

fn const_offset_depth(f: &Function, v: Value, depth: u32) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    let ty = f.value_type(v)?;
    match def_op(f, v)? {
        Op::Const(Const::Int(x)) if ty == Type::I64 => Some(*x as i64),
        Op::Bin(op, a, b) if ty == Type::I64 => {
            let x = const_offset_depth(f, *a, depth + 1)?;
            let y = const_offset_depth(f, *b, depth + 1)?;
            match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Shl if (0..63).contains(&y) => x.checked_mul(1i64 << y),
                _ => None,
            }
        }
        Op::Conv(op @ (ConvOp::SExt | ConvOp::ZExt), a) if ty == Type::I64 => {
            let Type::Scalar(s) = f.value_type(*a)? else {
                return None;
            };
            let bits = s.bits();
            if !s.is_int() || bits >= 64 {
                return None;
            }
            let Op::Const(Const::Int(x)) = def_op(f, *a)? else {
                return None;
            };
            let low = x & ((1u64 << bits) - 1);
            match op {
                ConvOp::SExt if bits > 1 && low >> (bits - 1) == 1 => {
                    Some((low | !((1u64 << bits) - 1)) as i64)
                }
                _ => Some(low as i64),
            }
        }
        _ => None,
    }
}
