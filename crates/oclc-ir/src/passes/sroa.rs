//! Scalar replacement of aggregates. Private objects (`stack_alloc` slots, and the by-value
//! struct parameters of helper functions) that are only read and written at constant offsets,
//! zeroed by `memset`, copied by `memcpy` or passed to a helper are split into typed fields:
//! each copy becomes one load and store per field, each zeroing one store per field, and a
//! helper's by-value parameter one parameter per field (its callers pass the fields). Then
//! mem2reg makes each field its own SSA value, the space inference follows each pointer field
//! on its own, and a helper is specialized by the spaces of the pointer fields it receives.
//!
//! Objects linked by copies and calls agree on the fields of what they exchange: each object's
//! layout is its own typed accesses plus those of the objects it copies from or to (and integer
//! chunks for bytes copied out to other memory that no access types), so a copy never splits a
//! field. Linked objects that disagree on a layout stay in memory.

use super::util::*;
use crate::ir::*;
use crate::lists::FlatLists;
use crate::types::{AddrSpace, Type};
use oclc_syntax::Symbol;
use std::collections::{BTreeMap, HashMap};

/// Most fields one group of linked objects is split into; larger groups stay in memory (a copy
/// of a big array is better left a `memcpy`).
pub const MAX_FIELDS: usize = 64;

/// What [`sroa_module`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SroaStats {
    /// Copies, zeroings, parameters and call arguments rewritten.
    pub rewrites: usize,
    /// Generic pointer parameters split, by function index and the parameter's old value,
    /// which now holds the generic address of the function's own private copy.
    pub split_generic: Vec<(usize, Value)>,
}

/// Splits the private objects of every function of `m`, by-value parameters of helpers
/// included.
pub fn sroa_module(m: &mut Module) -> SroaStats {
    run(&mut m.functions, true)
}

/// Splits the slots of `f` alone (a slot passed to a call stays in memory); returns the
/// number of rewrites.
pub fn sroa_function(f: &mut Function) -> usize {
    run(std::slice::from_mut(f), false).rewrites
}

/// The name of field `offset` (of type size `size`) of variable `var` whose object has
/// `object_size` bytes: the variable's own name when the field is the whole object, else
/// `var+offset` (the report turns it into a field path).
pub fn field_name(var: &str, offset: u32, size: u32, object_size: u32) -> String {
    if offset == 0 && size == object_size {
        var.to_string()
    } else {
        format!("{var}+{offset}")
    }
}

/// The placed instructions using each value, with repeats.
struct Users(FlatLists<Inst>);

impl Users {
    fn new(f: &Function) -> Users {
        Users(FlatLists::from_emitter(f.values.len(), |push| {
            for &i in f.blocks.iter().flat_map(|bd| &bd.insts) {
                if let Some(d) = f.insts.get(i.index()) {
                    d.op.for_each_operand(|v| push(v.index(), i));
                }
            }
        }))
    }

    fn of(&self, v: Value) -> &[Inst] {
        self.0.of(v.index())
    }
}

/// What an object is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Slot,
    /// Parameter `k` of a helper, a `ptr<private>` to the caller's object.
    Param(usize),
}

/// How an object is used, through its address and the constant offsets from it.
#[derive(Default)]
struct Uses {
    /// Typed accesses: offset and type.
    fields: Vec<(u32, Type)>,
    reads: bool,
    writes: bool,
    /// `memcpy`s: instruction, whether the object is the destination, offset, length.
    copies: Vec<(Inst, bool, u32, u32)>,
    /// Zeroing `memset`s: instruction, offset, length.
    sets: Vec<(Inst, u32, u32)>,
    /// Calls passing the object's address: instruction and argument position.
    calls: Vec<(Inst, usize)>,
    /// Addresses derived from the object, with their offsets (the base included).
    derived: Vec<(Value, u32)>,
    /// One past the last byte touched.
    extent: u32,
}

/// One object: a slot or a parameter of one function.
struct Node {
    func: usize,
    kind: Kind,
    /// Bytes (a parameter's: the smallest object its callers pass).
    size: u32,
    align: u32,
    /// `None`: the object stays in memory.
    uses: Option<Uses>,
}

/// The uses of the object at `base` if it can be split: every derived address (by constant
/// `ptradd`s and `to_generic`) is used only as the pointer of a load or store, by `memcpy`s
/// and zeroing `memset`s of constant length, or (with `calls_ok`, at offset 0) as a call
/// argument; everything stays within `size` bytes when it is known.
fn walk(
    f: &Function,
    users: &Users,
    base: Value,
    size: Option<u32>,
    calls_ok: bool,
) -> Option<Uses> {
    let mut u = Uses::default();
    let mut work = vec![(base, 0u32)];
    let within = |end: u64| size.is_none_or(|s| end <= u64::from(s));
    while let Some((p, off)) = work.pop() {
        u.derived.push((p, off));
        for &i in users.of(p) {
            let d = f.insts.get(i.index())?;
            let mut count = 0;
            d.op.for_each_operand(|v| count += u32::from(v == p));
            if count != 1 {
                return None;
            }
            let touch = |u: &mut Uses, len: u32| -> Option<()> {
                let end = u64::from(off) + u64::from(len);
                if !within(end) {
                    return None;
                }
                u.extent = u.extent.max(u32::try_from(end).ok()?);
                Some(())
            };
            match &d.op {
                Op::Load(_) => {
                    let ty = f.value_type(d.result?)?;
                    touch(&mut u, ty.store_size())?;
                    u.fields.push((off, ty));
                    u.reads = true;
                }
                Op::Store { ptr, value } if *ptr == p => {
                    let ty = f.value_type(*value)?;
                    touch(&mut u, ty.store_size())?;
                    u.fields.push((off, ty));
                    u.writes = true;
                }
                Op::PtrAdd(b, o) if *b == p => {
                    let c = const_offset(f, *o)?;
                    let n = i64::from(off).checked_add(c)?;
                    if n < 0 || size.is_some_and(|s| n >= i64::from(s)) {
                        return None;
                    }
                    work.push((d.result?, u32::try_from(n).ok()?));
                }
                Op::Memcpy { dst, len, .. } => {
                    let len = u32::try_from(const_int(f, *len)?).ok()?;
                    touch(&mut u, len)?;
                    let is_dst = *dst == p;
                    u.copies.push((i, is_dst, off, len));
                    if is_dst {
                        u.writes = true;
                    } else {
                        u.reads = true;
                    }
                }
                Op::Memset { dst, byte, len } if *dst == p => {
                    if const_int(f, *byte)? & 0xff != 0 {
                        return None;
                    }
                    let len = u32::try_from(const_int(f, *len)?).ok()?;
                    touch(&mut u, len)?;
                    u.sets.push((i, off, len));
                    u.writes = true;
                }
                Op::ToGeneric(_) => work.push((d.result?, off)),
                Op::Call(_, args) if calls_ok && off == 0 => {
                    let k = args.iter().position(|a| *a == p)?;
                    u.calls.push((i, k));
                }
                _ => return None,
            }
        }
    }
    Some(u)
}

/// The fields of one object: type by offset.
type Layout = BTreeMap<u32, Type>;

/// Adds field `(pos, ty)` to `layout`: false when it overlaps another field or the same
/// offset has another type.
fn add_field(layout: &mut Layout, pos: u32, ty: Type) -> Option<bool> {
    let end = u64::from(pos) + u64::from(ty.store_size());
    if let Some((&p, t)) = layout.range(..=pos).next_back() {
        if p == pos {
            return (*t == ty).then_some(false);
        }
        if u64::from(p) + u64::from(t.store_size()) > u64::from(pos) {
            return None;
        }
    }
    if let Some((&p, _)) = layout.range(pos..).next()
        && u64::from(p) < end
    {
        return None;
    }
    layout.insert(pos, ty);
    Some(true)
}

/// Fields of `layout` within `[start, start + len)`, by offset from `start`.
fn fields_in(layout: &Layout, start: u32, len: u32) -> Vec<(u32, Type)> {
    let end = u64::from(start) + u64::from(len);
    layout
        .range(start..)
        .take_while(|(p, _)| u64::from(**p) < end)
        .map(|(p, t)| (p - start, *t))
        .collect()
}

/// Byte `pa..pa + len` of object `a` are exchanged with `pb..pb + len` of object `b` (a copy
/// between them, or a call passing `a` to parameter `b`).
#[derive(Clone, Copy)]
struct Edge {
    a: usize,
    pa: u32,
    b: usize,
    pb: u32,
    len: u32,
}

/// Every object's layout, agreed along the edges (see the module doc).
struct Layouts {
    fields: Vec<Layout>,
    bad: Vec<bool>,
    edges: Vec<Edge>,
    /// Edges of each object, by index into `edges`.
    incident: Vec<Vec<usize>>,
}

impl Layouts {
    /// Marks `n` and everything linked to it bad.
    fn spoil(&mut self, n: usize) {
        let mut work = vec![n];
        while let Some(x) = work.pop() {
            if std::mem::replace(&mut self.bad[x], true) {
                continue;
            }
            for &e in &self.incident[x] {
                let Edge { a, b, .. } = self.edges[e];
                work.push(if a == x { b } else { a });
            }
        }
    }

    /// Copies fields along the edges from the objects in `work` until every edge agrees.
    fn propagate(&mut self, mut work: Vec<usize>) {
        while let Some(x) = work.pop() {
            if self.bad[x] {
                continue;
            }
            for ei in 0..self.incident[x].len() {
                let e = self.edges[self.incident[x][ei]];
                let (from, pf, to, pt) = if e.a == x {
                    (e.a, e.pa, e.b, e.pb)
                } else {
                    (e.b, e.pb, e.a, e.pa)
                };
                if self.bad[to] {
                    continue;
                }
                let mut grew = false;
                let mut ok = true;
                for (off, ty) in fields_in(&self.fields[from], pf, e.len) {
                    if off + ty.store_size() > e.len {
                        ok = false;
                        break;
                    }
                    match add_field(&mut self.fields[to], pt + off, ty) {
                        Some(g) => grew |= g,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok || self.fields[to].len() > MAX_FIELDS {
                    self.spoil(x);
                    break;
                }
                if grew {
                    work.push(to);
                }
            }
        }
    }
}

/// What to do to the instructions of one function.
#[derive(Default)]
struct Plan {
    /// `memcpy`s to expand: the fields of the copied range, by offset from its start.
    copies: HashMap<Inst, Vec<(u32, Type)>>,
    /// Zeroing `memset`s to expand.
    sets: HashMap<Inst, Vec<(u32, Type)>>,
    /// Parameters to split.
    params: Vec<SplitParam>,
}

/// A parameter to split: its index, its fields, and its object's size and alignment.
struct SplitParam {
    index: usize,
    fields: Vec<(u32, Type)>,
    size: u32,
    align: u32,
}

fn run(funcs: &mut [Function], interproc: bool) -> SroaStats {
    // 1. Objects and their uses.
    let mut nodes: Vec<Node> = Vec::new();
    let mut param_node: HashMap<(usize, usize), usize> = HashMap::new();
    let mut sites: Vec<Vec<(usize, Inst)>> = vec![Vec::new(); funcs.len()];
    for (fi, f) in funcs.iter().enumerate() {
        for (_, i) in placed_insts(f) {
            if let Some(Op::Call(c, _)) = f.insts.get(i.index()).map(|d| &d.op)
                && let Some(s) = sites.get_mut(c.index())
            {
                s.push((fi, i));
            }
        }
    }
    for (fi, f) in funcs.iter().enumerate() {
        let has_slot = f.blocks.iter().flat_map(|bd| &bd.insts).any(|i| {
            f.insts
                .get(i.index())
                .is_some_and(|d| matches!(d.op, Op::StackAlloc { .. }))
        });
        let split_params = interproc && !f.is_kernel() && !f.is_stub() && !sites[fi].is_empty();
        let splittable = |t: Type| matches!(t, Type::Ptr(AddrSpace::Private | AddrSpace::Generic));
        if !(has_slot || split_params && f.params.iter().any(|p| splittable(p.ty))) {
            continue;
        }
        let users = Users::new(f);
        for (_, i) in placed_insts(f) {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            let (Op::StackAlloc { size, align, .. }, Some(base)) = (&d.op, d.result) else {
                continue;
            };
            nodes.push(Node {
                func: fi,
                kind: Kind::Slot,
                size: *size,
                align: *align,
                uses: walk(f, &users, base, Some(*size), interproc),
            });
        }
        if split_params {
            for (k, p) in f.params.iter().enumerate() {
                let Some(&base) = f.params_of(Block(0)).get(k) else {
                    continue;
                };
                if !splittable(p.ty) {
                    continue;
                }
                param_node.insert((fi, k), nodes.len());
                nodes.push(Node {
                    func: fi,
                    kind: Kind::Param(k),
                    size: u32::MAX,
                    align: 1,
                    uses: walk(f, &users, base, None, true),
                });
            }
        }
    }
    if nodes.iter().all(|n| n.uses.is_none()) {
        return SroaStats::default();
    }
    // Every address derived from an object: the object and the offset.
    let mut derived: HashMap<(usize, Value), (usize, u32)> = HashMap::new();
    for (n, node) in nodes.iter().enumerate() {
        if let Some(u) = &node.uses {
            for &(v, off) in &u.derived {
                derived.insert((node.func, v), (n, off));
            }
        }
    }
    // 2. A parameter splits only if every caller passes a splittable object; an object passed
    // to a call only if the parameter splits (and, where the callee writes it, only if the
    // object is a temporary the caller never reads). Parameter sizes shrink to the smallest
    // object passed, so this settles.
    // What each object's verdict depends on: a parameter on the objects its callers pass, an
    // object passed to a call on the parameter (each is the other's dependent).
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (n, node) in nodes.iter().enumerate() {
        let Some(u) = &node.uses else { continue };
        for &(i, k) in &u.calls {
            if let Some(Op::Call(c, _)) = funcs[node.func].insts.get(i.index()).map(|d| &d.op)
                && let Some(&p) = param_node.get(&(c.index(), k))
            {
                dependents[n].push(p);
                dependents[p].push(n);
            }
        }
    }
    let mut work: Vec<usize> = (0..nodes.len()).rev().collect();
    let mut queued = vec![true; nodes.len()];
    while let Some(n) = work.pop() {
        queued[n] = false;
        let Some(u) = &nodes[n].uses else { continue };
        let fi = nodes[n].func;
        let (mut ok, mut size, mut align) = (true, nodes[n].size, nodes[n].align);
        if let Kind::Param(k) = nodes[n].kind {
            size = u32::MAX;
            align = 1;
            for &(caller, i) in &sites[fi] {
                let arg = match funcs[caller].insts.get(i.index()).map(|d| &d.op) {
                    Some(Op::Call(_, args)) => args.get(k).copied(),
                    _ => None,
                };
                match arg.and_then(|a| derived.get(&(caller, a))) {
                    Some(&(s, 0)) if nodes[s].uses.is_some() => {
                        size = size.min(nodes[s].size);
                        align = align.max(nodes[s].align);
                    }
                    _ => ok = false,
                }
            }
            ok &= u.extent <= size;
        }
        ok &= u.calls.iter().all(|&(i, k)| {
            let callee = match funcs[fi].insts.get(i.index()).map(|d| &d.op) {
                Some(Op::Call(c, _)) => c.index(),
                _ => return false,
            };
            match param_node
                .get(&(callee, k))
                .and_then(|&p| nodes[p].uses.as_ref())
            {
                Some(pu) => !pu.writes || (!u.reads && u.calls.len() == 1),
                None => false,
            }
        });
        let changed = if !ok {
            nodes[n].uses = None;
            true
        } else if (size, align) != (nodes[n].size, nodes[n].align) {
            nodes[n].size = size;
            nodes[n].align = align;
            true
        } else {
            false
        };
        if changed {
            for &d in &dependents[n] {
                if !queued[d] {
                    queued[d] = true;
                    work.push(d);
                }
            }
        }
    }
    // 3. Edges between objects: copies from one into another, calls passing one to a
    // parameter.
    derived.retain(|_, (n, _)| nodes[*n].uses.is_some());
    let mut edges = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        let Some(u) = &node.uses else { continue };
        for &(i, is_dst, off, len) in &u.copies {
            if is_dst
                && let Some(Op::Memcpy { src, .. }) =
                    funcs[node.func].insts.get(i.index()).map(|d| &d.op)
                && let Some(&(s, soff)) = derived.get(&(node.func, *src))
            {
                edges.push(Edge {
                    a: n,
                    pa: off,
                    b: s,
                    pb: soff,
                    len,
                });
            }
        }
        for &(i, k) in &u.calls {
            if let Some(Op::Call(c, _)) = funcs[node.func].insts.get(i.index()).map(|d| &d.op)
                && let Some(&p) = param_node.get(&(c.index(), k))
            {
                edges.push(Edge {
                    a: n,
                    pa: 0,
                    b: p,
                    pb: 0,
                    len: nodes[p].size,
                });
            }
        }
    }
    let mut incident = vec![Vec::new(); nodes.len()];
    for (k, e) in edges.iter().enumerate() {
        incident[e.a].push(k);
        if e.b != e.a {
            incident[e.b].push(k);
        }
    }
    let mut lay = Layouts {
        fields: vec![Layout::new(); nodes.len()],
        bad: nodes.iter().map(|n| n.uses.is_none()).collect(),
        edges,
        incident,
    };
    // 4. Layouts: each object's typed accesses, then its partners', then integer chunks for
    // the bytes it copies out to other memory that nothing types. No field may straddle a
    // copy, zeroing or exchange boundary.
    for (n, node) in nodes.iter().enumerate() {
        let Some(u) = &node.uses else { continue };
        for &(off, ty) in &u.fields {
            if add_field(&mut lay.fields[n], off, ty).is_none() || lay.fields[n].len() > MAX_FIELDS
            {
                lay.spoil(n);
                break;
            }
        }
    }
    lay.propagate((0..nodes.len()).collect());
    let cuts: Vec<Vec<u32>> = nodes
        .iter()
        .enumerate()
        .map(|(n, node)| {
            let mut c = vec![0, node.size];
            if let Some(u) = &node.uses {
                for &(_, _, off, len) in &u.copies {
                    c.extend([off, off.saturating_add(len)]);
                }
                for &(_, off, len) in &u.sets {
                    c.extend([off, off.saturating_add(len)]);
                }
            }
            for &e in &lay.incident[n] {
                let Edge { a, pa, pb, len, .. } = lay.edges[e];
                let p = if a == n { pa } else { pb };
                c.extend([p, p.saturating_add(len)]);
            }
            c.sort_unstable();
            c.dedup();
            c
        })
        .collect();
    for (n, node) in nodes.iter().enumerate() {
        let Some(u) = &node.uses else { continue };
        if lay.bad[n] {
            continue;
        }
        let mut filled = false;
        for &(i, is_dst, off, len) in &u.copies {
            let out = !is_dst
                && match funcs[node.func].insts.get(i.index()).map(|d| &d.op) {
                    Some(Op::Memcpy { dst, .. }) => !derived.contains_key(&(node.func, *dst)),
                    _ => false,
                };
            if out {
                filled |= fill_gaps(
                    &mut lay.fields[n],
                    off,
                    off.saturating_add(len),
                    &cuts[n],
                    node.align,
                );
            }
        }
        if filled {
            lay.propagate(vec![n]);
        }
    }
    for (n, cut_at) in cuts.iter().enumerate() {
        if lay.bad[n] {
            continue;
        }
        let layout = &lay.fields[n];
        let cut = layout.len() > MAX_FIELDS
            || layout.iter().any(|(&p, t)| {
                let end = p.saturating_add(t.store_size());
                cut_at.iter().any(|&c| p < c && c < end)
            });
        if cut {
            lay.spoil(n);
        }
    }
    // 5. The plans.
    let mut plans: Vec<Plan> = (0..funcs.len()).map(|_| Plan::default()).collect();
    let mut split: HashMap<(usize, usize), Vec<(u32, Type)>> = HashMap::new();
    let mut stats = SroaStats::default();
    for (n, node) in nodes.iter().enumerate() {
        let Some(u) = &node.uses else { continue };
        if lay.bad[n] {
            continue;
        }
        let layout = &lay.fields[n];
        let plan = &mut plans[node.func];
        for &(i, _, off, len) in &u.copies {
            plan.copies
                .entry(i)
                .or_insert_with(|| fields_in(layout, off, len));
        }
        for &(i, off, len) in &u.sets {
            plan.sets
                .entry(i)
                .or_insert_with(|| fields_in(layout, off, len));
        }
        if let Kind::Param(k) = node.kind {
            let fields = fields_in(layout, 0, node.size);
            split.insert((node.func, k), fields.clone());
            if funcs[node.func].params.get(k).map(|p| p.ty) == Some(Type::Ptr(AddrSpace::Generic))
                && let Some(&v) = funcs[node.func].params_of(Block(0)).get(k)
            {
                stats.split_generic.push((node.func, v));
            }
            plan.params.push(SplitParam {
                index: k,
                fields,
                size: node.size,
                align: node.align,
            });
        }
    }
    // 6. Rewrite.
    let mut calls_split = vec![false; funcs.len()];
    for (c, _) in split.keys() {
        for (caller, _) in sites.get(*c).map_or(&[][..], |v| &v[..]) {
            calls_split[*caller] = true;
        }
    }
    for (fi, plan) in plans.iter_mut().enumerate() {
        if plan.copies.is_empty()
            && plan.sets.is_empty()
            && plan.params.is_empty()
            && !calls_split[fi]
        {
            continue;
        }
        plan.params.sort_by_key(|p| p.index);
        stats.rewrites += rewrite(&mut funcs[fi], plan, &split);
    }
    stats
}

/// Adds integer chunks for the bytes of `[start, stop)` no field covers, never across a cut
/// (a copy or object boundary), each aligned to its size from `start` and at most `align`
/// bytes (the memory copied to is no better aligned than the objects); true if any was added.
fn fill_gaps(layout: &mut Layout, start: u32, stop: u32, cuts: &[u32], align: u32) -> bool {
    let mut pos = start;
    let mut added = false;
    // Past MAX_FIELDS the object stays in memory anyway: stop there.
    while pos < stop && layout.len() <= MAX_FIELDS {
        if let Some((&p, t)) = layout.range(..=pos).next_back()
            && p.saturating_add(t.store_size()) > pos
        {
            pos = p.saturating_add(t.store_size());
            continue;
        }
        let next_field = layout.range(pos..).next().map_or(u32::MAX, |(p, _)| *p);
        let next_cut = cuts.iter().copied().find(|&c| c > pos).unwrap_or(u32::MAX);
        let end = stop.min(next_field).min(next_cut);
        let mut size = 8u32;
        while size > 1 && (size > align || !(pos - start).is_multiple_of(size) || pos + size > end)
        {
            size /= 2;
        }
        let ty = match size {
            8 => Type::I64,
            4 => Type::I32,
            2 => Type::I16,
            _ => Type::I8,
        };
        layout.insert(pos, ty);
        added = true;
        pos += size;
    }
    added
}

/// Applies `plan` to `f`; `split` gives the fields of every split parameter of the module (by
/// function and index), whose calls pass fields. Returns the rewrites made.
fn rewrite(
    f: &mut Function,
    plan: &Plan,
    split: &HashMap<(usize, usize), Vec<(u32, Type)>>,
) -> usize {
    let mut count = 0;
    let i64t = Type::I64;
    for bi in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[bi].insts);
        let mut out = Vec::with_capacity(old.len());
        for i in old {
            let Some(d) = f.insts.get(i.index()) else {
                out.push(i);
                continue;
            };
            let span = d.span;
            let at = |f: &mut Function, out: &mut Vec<Inst>, p: Value, off: u32| -> Value {
                if off == 0 {
                    return p;
                }
                let ty = f.value_type(p).unwrap_or(Type::Ptr(AddrSpace::Private));
                let (ci, c) = new_inst(f, Op::Const(Const::Int(u64::from(off))), Some(i64t), span);
                out.push(ci);
                let (ai, a) = new_inst(f, Op::PtrAdd(p, c.unwrap_or(p)), Some(ty), span);
                out.push(ai);
                a.unwrap_or(p)
            };
            match (&d.op, plan.copies.get(&i), plan.sets.get(&i)) {
                (Op::Memcpy { dst, src, .. }, Some(fields), _) => {
                    let (dst, src) = (*dst, *src);
                    for &(off, ty) in fields {
                        let s = at(f, &mut out, src, off);
                        let (li, v) = new_inst(f, Op::Load(s), Some(ty), span);
                        out.push(li);
                        let t = at(f, &mut out, dst, off);
                        if let Some(v) = v {
                            let (si, _) = new_inst(f, Op::Store { ptr: t, value: v }, None, span);
                            out.push(si);
                        }
                    }
                    count += 1;
                }
                (Op::Memset { dst, .. }, _, Some(fields)) => {
                    let dst = *dst;
                    for &(off, ty) in fields {
                        let t = at(f, &mut out, dst, off);
                        let (zi, z) = new_inst(f, zero_const(ty), Some(ty), span);
                        out.push(zi);
                        if let Some(z) = z {
                            let (si, _) = new_inst(f, Op::Store { ptr: t, value: z }, None, span);
                            out.push(si);
                        }
                    }
                    count += 1;
                }
                (Op::Call(c, args), _, _)
                    if (0..args.len()).any(|k| split.contains_key(&(c.index(), k))) =>
                {
                    let (c, args) = (*c, args.clone());
                    let mut new_args = Vec::with_capacity(args.len());
                    for (k, a) in args.iter().enumerate() {
                        match split.get(&(c.index(), k)) {
                            Some(fields) => {
                                for &(off, ty) in fields {
                                    let p = at(f, &mut out, *a, off);
                                    let (li, v) = new_inst(f, Op::Load(p), Some(ty), span);
                                    out.push(li);
                                    new_args.extend(v);
                                }
                                count += 1;
                            }
                            None => new_args.push(*a),
                        }
                    }
                    if let Some(dm) = f.insts.get_mut(i.index()) {
                        dm.op = Op::Call(c, new_args);
                    }
                    out.push(i);
                }
                _ => out.push(i),
            }
        }
        f.blocks[bi].insts = out;
    }
    if !plan.params.is_empty() {
        split_params(f, plan);
    }
    count
}

/// Whether parameter `p` is a struct or union passed by value (a private pointer to the
/// callee's copy), rather than a pointer the source declares.
pub fn is_object_param(p: &Param) -> bool {
    p.ty == Type::Ptr(AddrSpace::Private) && !p.c_type.contains('*')
}

/// Replaces each split parameter by one parameter per field; the old parameter's value
/// becomes a fresh slot of the same name (or, for a generic parameter, that slot's generic
/// address), filled from the new parameters on entry.
fn split_params(f: &mut Function, plan: &Plan) {
    let Some(entry) = f.blocks.first() else {
        return;
    };
    let old_values = entry.params.clone();
    let mut params = Vec::with_capacity(f.params.len());
    let mut values = Vec::with_capacity(old_values.len());
    let mut prologue = Vec::new();
    let mut stores: Vec<(Value, u32, Value)> = Vec::new();
    let mut casts = Vec::new();
    let span = f.span;
    let private = Type::Ptr(AddrSpace::Private);
    let old_params = std::mem::take(&mut f.params);
    for (k, p) in old_params.into_iter().enumerate() {
        let Some(&old) = old_values.get(k) else {
            continue;
        };
        let Some(SplitParam {
            fields,
            size,
            align,
            ..
        }) = plan.params.iter().find(|x| x.index == k)
        else {
            params.push(p);
            values.push(old);
            continue;
        };
        // A pointer parameter's fields are those of what it points to (`*p`); a struct passed
        // by value is the parameter itself.
        let var = if is_object_param(&p) {
            p.name.clone()
        } else {
            format!("*{}", p.name)
        };
        let name = Symbol::intern(&var);
        let alloc = Op::StackAlloc {
            size: *size,
            align: *align,
            name,
        };
        let slot = if p.ty == private {
            let i = Inst(f.insts.len() as u32);
            f.insts.push(InstData {
                op: alloc,
                result: Some(old),
                span,
            });
            if let Some(vd) = f.values.get_mut(old.index()) {
                vd.def = ValueDef::Inst(i);
            }
            prologue.push(i);
            old
        } else {
            let (i, slot) = new_inst(f, alloc, Some(private), span);
            prologue.push(i);
            let slot = slot.unwrap_or(old);
            let c = Inst(f.insts.len() as u32);
            f.insts.push(InstData {
                op: Op::ToGeneric(slot),
                result: Some(old),
                span,
            });
            if let Some(vd) = f.values.get_mut(old.index()) {
                vd.def = ValueDef::Inst(c);
            }
            casts.push(c);
            slot
        };
        for &(off, ty) in fields {
            let v = Value(f.values.len() as u32);
            f.values.push(ValueData {
                ty,
                def: ValueDef::Param(Block(0), 0),
            });
            params.push(Param {
                name: field_name(&var, off, ty.store_size(), *size),
                ty,
                kind: ParamKind::Value,
                c_type: p.c_type.clone(),
            });
            values.push(v);
            stores.push((slot, off, v));
        }
    }
    for (idx, v) in values.iter().enumerate() {
        if let Some(vd) = f.values.get_mut(v.index()) {
            vd.def = ValueDef::Param(Block(0), idx as u32);
        }
    }
    f.params = params;
    for (slot, off, v) in stores {
        let mut p = slot;
        if off != 0 {
            let (ci, c) = new_inst(
                f,
                Op::Const(Const::Int(u64::from(off))),
                Some(Type::I64),
                span,
            );
            prologue.push(ci);
            let (ai, a) = new_inst(f, Op::PtrAdd(slot, c.unwrap_or(slot)), Some(private), span);
            prologue.push(ai);
            p = a.unwrap_or(slot);
        }
        let (si, _) = new_inst(f, Op::Store { ptr: p, value: v }, None, span);
        prologue.push(si);
    }
    prologue.append(&mut casts);
    if let Some(bd) = f.blocks.first_mut() {
        bd.params = values;
        prologue.append(&mut bd.insts);
        bd.insts = prologue;
    }
}
