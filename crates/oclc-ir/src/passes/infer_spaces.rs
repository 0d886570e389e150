//! Address-space inference: a forward dataflow over one function's SSA graph with the lattice
//! `unknown < {private, global, local} < generic`, then a rewrite that gives every resolved
//! generic pointer its named type, so loads, stores, atomics and comparisons through it use
//! the named space; `from_generic`, `space_test` and `get_fence` fold where the space is
//! known, and `to_generic` is re-inserted only where a generic value is still required.

use super::report::{CastKind, GenericReason};
use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Type};
use oclc_syntax::Span;
use oclc_syntax::fxhash::FxHashMap;
use std::rc::Rc;

/// What a pointer value is known to point into.
#[derive(Clone, Debug, PartialEq)]
pub enum Lat {
    /// No pointer reaches it (NULL, undefined, or not yet visited).
    Unknown,
    /// Always this named space; the span is where the pointer entered the generic space.
    Named(AddrSpace, Span),
    /// More than one space, or a source the analysis cannot see through (shared: lattice
    /// values are copied at every step).
    Generic(Rc<GenericReason>),
}

impl Lat {
    fn rank(&self) -> u8 {
        match self {
            Lat::Unknown => 0,
            Lat::Named(..) => 1,
            Lat::Generic(_) => 2,
        }
    }

    /// The named space, if resolved.
    pub fn space(&self) -> Option<AddrSpace> {
        match self {
            Lat::Named(s, _) => Some(*s),
            _ => None,
        }
    }

    /// Least upper bound; `at` is where the two meet (for the merge reason).
    pub fn join(&self, other: &Lat, at: Span) -> Lat {
        match (self, other) {
            (Lat::Unknown, x) | (x, Lat::Unknown) => x.clone(),
            (Lat::Generic(r), _) | (_, Lat::Generic(r)) => Lat::Generic(r.clone()),
            (Lat::Named(a, sa), Lat::Named(b, sb)) => {
                if a == b {
                    self.clone()
                } else {
                    Lat::Generic(Rc::new(GenericReason::Merge {
                        first: (*a, *sa),
                        second: (*b, *sb),
                        at,
                    }))
                }
            }
        }
    }
}

/// The result of the analysis of one function: a lattice value and a non-NULL fact per
/// value (indexed by [`Value::index`]), and for each parameter the generic pointers the
/// function stores through it (`Unknown` when none, or when it is no pointer).
pub struct Analysis {
    pub lat: Vec<Lat>,
    pub nonnull: Vec<bool>,
    pub param_stored: Vec<Lat>,
}

/// Gives the lattice value of a call's generic result from the callee, the lattice values of
/// the arguments and the call's span; `None` treats it as an unknown pointer.
pub type CallHook<'a> = dyn Fn(FuncId, &[Lat], Span) -> Option<Lat> + 'a;

/// Gives the generic pointers a callee stores through its parameter `k` (the private object
/// a call passes there), from the callee, `k`, the lattice values of the arguments and the
/// call's span; `None` treats them as unknown.
pub type StoredHook<'a> = dyn Fn(FuncId, usize, &[Lat], Span) -> Option<Lat> + 'a;

/// What the analysis of one function assumes about its boundaries.
pub struct Hooks<'a> {
    /// The lattice value of generic entry parameter `i`.
    pub param: &'a dyn Fn(usize) -> Lat,
    /// The lattice value of a call's generic result.
    pub call: &'a CallHook<'a>,
    /// What a callee stores into a private object the call passes it.
    pub stored: &'a StoredHook<'a>,
}

/// A hook for [`Hooks::stored`] that knows nothing about callees.
pub fn no_stored(_: FuncId, _: usize, _: &[Lat], _: Span) -> Option<Lat> {
    None
}

/// Where what a private object holds comes from, besides the pointers stored into it.
#[derive(Clone, Debug)]
enum Source {
    /// Copied from another followed object.
    Object(usize),
    /// Copied from memory the analysis does not follow (or written with something else than a
    /// pointer that may be read back as one).
    Memory(Span),
    /// Written by a callee the object is passed to (as argument `k` of the call `inst`).
    Call { inst: Inst, k: usize, span: Span },
}

/// A private object the analysis follows: a slot whose address leaves the function at most as
/// a call argument (what is loaded from it is what was stored into it), or a pointer
/// parameter (what the function stores through it is part of its summary).
#[derive(Clone, Debug)]
struct Object {
    /// Declaration (the slot's span; the function's for a parameter).
    span: Span,
    /// Where the address escapes: the object is then not followed.
    escaped: Option<Span>,
    /// Generic pointers stored into it.
    stores: Vec<Value>,
    sources: Vec<Source>,
}

/// The followed objects of a function.
struct Objects {
    /// The object each value points into, by value index (`u32::MAX`: none known).
    of: Vec<u32>,
    objs: Vec<Object>,
    /// The object of each pointer parameter, by parameter index.
    params: Vec<Option<usize>>,
}

impl Objects {
    fn object_of(&self, v: Value) -> Option<usize> {
        match self.of.get(v.index()) {
            Some(&o) if o != u32::MAX => Some(o as usize),
            _ => None,
        }
    }
}

/// Finds the slots and pointer parameters of `f` and how each is used.
fn objects(f: &Function) -> Objects {
    let mut of = vec![u32::MAX; f.values.len()];
    let mut objs = Vec::new();
    let mut bases: Vec<(Value, Span, Option<usize>)> = Vec::new();
    for (_, i) in placed_insts(f) {
        if let Some(d) = f.insts.get(i.index())
            && let (Op::StackAlloc { .. }, Some(r)) = (&d.op, d.result)
        {
            bases.push((r, d.span, None));
        }
    }
    let mut params = vec![None; f.params.len()];
    for (k, p) in f.params_of(Block(0)).iter().enumerate() {
        if matches!(
            f.value_type(*p),
            Some(Type::Ptr(AddrSpace::Private | AddrSpace::Generic))
        ) {
            bases.push((*p, f.span, Some(k)));
        }
    }
    if bases.is_empty() {
        return Objects { of, objs, params };
    }
    let users = crate::lists::FlatLists::from_emitter(f.values.len(), |push| {
        for &i in f.blocks.iter().flat_map(|bd| &bd.insts) {
            if let Some(d) = f.insts.get(i.index()) {
                d.op.for_each_operand(|v| push(v.index(), i));
            }
        }
    });
    let generic = Type::Ptr(AddrSpace::Generic);
    let mut memcpy_from: Vec<(usize, Value, Span)> = Vec::new();
    for (base, span, param) in bases {
        let o = objs.len();
        let mut obj = Object {
            span,
            escaped: None,
            stores: Vec::new(),
            sources: Vec::new(),
        };
        let mut work = vec![base];
        'walk: while let Some(p) = work.pop() {
            if of.get(p.index()).is_some_and(|&x| x != u32::MAX) {
                continue;
            }
            if let Some(x) = of.get_mut(p.index()) {
                *x = o as u32;
            }
            for &i in users.of(p.index()) {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let mut count = 0;
                d.op.for_each_operand(|v| count += u32::from(v == p));
                let ok = match &d.op {
                    Op::PtrAdd(b, _) | Op::ToGeneric(b) | Op::FromGeneric(b, _) if *b == p => {
                        work.extend(d.result);
                        count == 1
                    }
                    Op::Load(_) | Op::Cmp(..) | Op::PtrDiff(..) | Op::GetFence(_) => true,
                    Op::Store { ptr, value } if *ptr == p && *value != p => {
                        match f.value_type(*value) {
                            Some(t) if t == generic => obj.stores.push(*value),
                            Some(t) if !t.is_ptr() && t.store_size() >= 8 => {
                                obj.sources.push(Source::Memory(d.span))
                            }
                            _ => {}
                        }
                        true
                    }
                    Op::Memset { dst, byte, .. } if *dst == p => {
                        if const_int(f, *byte).is_none_or(|b| b & 0xff != 0) {
                            obj.sources.push(Source::Memory(d.span));
                        }
                        count == 1
                    }
                    Op::Memcpy { dst, src, .. } => {
                        if *dst == p && *src != p {
                            memcpy_from.push((o, *src, d.span));
                        }
                        true
                    }
                    Op::Call(_, args) if count == 1 => {
                        if let Some(k) = args.iter().position(|a| *a == p) {
                            obj.sources.push(Source::Call {
                                inst: i,
                                k,
                                span: d.span,
                            });
                        }
                        true
                    }
                    Op::CallBuiltin(..) => true,
                    _ => false,
                };
                if !ok {
                    obj.escaped = Some(d.span);
                    break 'walk;
                }
            }
        }
        if let Some(k) = param
            && let Some(x) = params.get_mut(k)
        {
            *x = Some(o);
        }
        objs.push(obj);
    }
    for (o, src, span) in memcpy_from {
        let s = match of.get(src.index()) {
            Some(&x) if x != u32::MAX => Source::Object(x as usize),
            _ => Source::Memory(span),
        };
        if let Some(obj) = objs.get_mut(o) {
            obj.sources.push(s);
        }
    }
    Objects { of, objs, params }
}

/// What object `o` holds, from the current lattice values: `Generic` with the reason when it
/// is not followed or gets something unknown. Unless `strict`, a call with a generic pointer
/// argument of no known value yet adds nothing.
#[allow(clippy::too_many_arguments)]
fn content(
    m: &Module,
    f: &Function,
    hooks: &Hooks,
    objs: &Objects,
    o: usize,
    lat: &[Lat],
    held: &[Lat],
    strict: bool,
) -> Lat {
    let Some(obj) = objs.objs.get(o) else {
        return Lat::Unknown;
    };
    if let Some(at) = obj.escaped {
        return Lat::Generic(Rc::new(GenericReason::AddressEscapes { at }));
    }
    let l = |v: &Value| lat.get(v.index()).cloned().unwrap_or(Lat::Unknown);
    let mut acc = Lat::Unknown;
    for v in &obj.stores {
        acc = acc.join(&l(v), obj.span);
    }
    for s in &obj.sources {
        let x = match s {
            Source::Object(x) => held.get(*x).cloned().unwrap_or(Lat::Unknown),
            Source::Memory(at) => {
                Lat::Generic(Rc::new(GenericReason::LoadedFromMemory { at: *at }))
            }
            Source::Call { inst, k, span } => {
                let Some(Op::Call(c, args)) = f.insts.get(inst.index()).map(|d| &d.op) else {
                    continue;
                };
                let lats: Vec<Lat> = args.iter().map(l).collect();
                let pending = args.iter().zip(&lats).any(|(a, x)| {
                    *x == Lat::Unknown && f.value_type(*a) == Some(Type::Ptr(AddrSpace::Generic))
                });
                if pending && !strict {
                    continue;
                }
                (hooks.stored)(*c, *k, &lats, *span).unwrap_or_else(|| {
                    let callee = m.function(*c).map_or(String::new(), |cf| cf.name.clone());
                    Lat::Generic(Rc::new(GenericReason::StoredByCall { callee, at: *span }))
                })
            }
        };
        acc = acc.join(&x, obj.span);
    }
    acc
}

/// Runs the dataflow to its fixpoint.
pub fn analyze(m: &Module, f: &Function, hooks: &Hooks) -> Analysis {
    let nv = f.values.len();
    let mut lat = vec![Lat::Unknown; nv];
    let mut nonnull = vec![true; nv];
    let generic = Type::Ptr(AddrSpace::Generic);
    // Entry parameters.
    for (k, p) in f.params_of(Block(0)).iter().enumerate() {
        let Some(t) = f.value_type(*p) else { continue };
        let param = f.params.get(k);
        lat[p.index()] = match t {
            Type::Ptr(AddrSpace::Generic) => (hooks.param)(k),
            Type::Ptr(s) => Lat::Named(s, f.span),
            _ => Lat::Unknown,
        };
        nonnull[p.index()] = f.is_kernel()
            && matches!(
                param.map(|p| &p.kind),
                Some(ParamKind::Buffer(_) | ParamKind::Aggregate { .. })
            );
    }
    // Incoming arguments of each non-entry block parameter.
    let mut incoming: Vec<Vec<Vec<Value>>> = f
        .blocks
        .iter()
        .map(|bd| vec![Vec::new(); bd.params.len()])
        .collect();
    for bd in &f.blocks {
        if let Some(d) = bd.insts.last().and_then(|i| f.insts.get(i.index())) {
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
    }
    let rpo = reverse_postorder(f);
    let objs = objects(f);
    let mut held = vec![Lat::Unknown; objs.objs.len()];
    // Every update only raises a value (or lowers a non-NULL fact), so this terminates, and
    // it must run to the fixpoint: a partial result would be unsound. The first fixpoint
    // leaves out what callees store when an argument is not known yet (it would make the
    // object generic for good); the second one takes everything.
    let mut strict = false;
    loop {
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &rpo {
                let Some(bd) = f.blocks.get(b.index()) else {
                    continue;
                };
                let join_at = bd
                    .insts
                    .first()
                    .and_then(|i| f.insts.get(i.index()))
                    .map_or(f.span, |d| d.span);
                if b.index() != 0 {
                    for (k, p) in bd.params.iter().enumerate() {
                        if f.value_type(*p) != Some(generic) {
                            if let Some(Type::Ptr(s)) = f.value_type(*p) {
                                changed |= update(
                                    &mut lat,
                                    &mut nonnull,
                                    *p,
                                    Lat::Named(s, join_at),
                                    None,
                                );
                            }
                            let nn = incoming[b.index()][k].iter().all(|a| nonnull[a.index()]);
                            changed |= update(&mut lat, &mut nonnull, *p, Lat::Unknown, Some(nn));
                            continue;
                        }
                        let mut acc = Lat::Unknown;
                        let mut nn = true;
                        for a in &incoming[b.index()][k] {
                            acc = acc.join(&lat[a.index()], join_at);
                            nn &= nonnull[a.index()];
                        }
                        changed |= update(&mut lat, &mut nonnull, *p, acc, Some(nn));
                    }
                }
                for i in &bd.insts {
                    let Some(d) = f.insts.get(i.index()) else {
                        continue;
                    };
                    let Some(r) = d.result else { continue };
                    let Some(rt) = f.value_type(r) else { continue };
                    if !rt.is_ptr() {
                        continue;
                    }
                    let (l, nn) = match &d.op {
                        Op::Load(p) if rt == generic => (loaded(&objs, &held, *p, d.span), false),
                        op => transfer(m, f, hooks, op, rt, d.span, &lat, &nonnull),
                    };
                    changed |= update(&mut lat, &mut nonnull, r, l, Some(nn));
                }
            }
            for o in 0..objs.objs.len() {
                let new = content(m, f, hooks, &objs, o, &lat, &held, strict);
                changed |= raise(&mut held[o], new);
            }
        }
        if strict {
            break;
        }
        strict = true;
    }
    let param_stored = objs
        .params
        .iter()
        .map(|o| o.and_then(|o| held.get(o).cloned()).unwrap_or(Lat::Unknown))
        .collect();
    Analysis {
        lat,
        nonnull,
        param_stored,
    }
}

/// The lattice value of a generic pointer loaded through `p`: what the object `p` points
/// into holds, when it is a followed slot; else unknown memory.
fn loaded(objs: &Objects, held: &[Lat], p: Value, span: Span) -> Lat {
    match objs.object_of(p) {
        Some(o) => match objs.objs.get(o) {
            Some(Object {
                escaped: Some(at), ..
            }) => Lat::Generic(Rc::new(GenericReason::AddressEscapes { at: *at })),
            Some(_) if !objs.params.contains(&Some(o)) => {
                held.get(o).cloned().unwrap_or(Lat::Unknown)
            }
            _ => Lat::Generic(Rc::new(GenericReason::LoadedFromMemory { at: span })),
        },
        None => Lat::Generic(Rc::new(GenericReason::LoadedFromMemory { at: span })),
    }
}

/// Raises `cur` to `new` as [`update`] does; true if it changed.
fn raise(cur: &mut Lat, new: Lat) -> bool {
    if new.rank() > cur.rank() {
        *cur = new;
        return true;
    }
    if let (Lat::Named(a, _), Lat::Named(b, at)) = (&*cur, &new)
        && a != b
    {
        *cur = cur.join(&new, *at);
        return true;
    }
    false
}

/// Raises `v`'s lattice value to `new` (never lowers it, so the fixpoint terminates) and
/// lowers its non-NULL fact to `nn`.
fn update(lat: &mut [Lat], nonnull: &mut [bool], v: Value, new: Lat, nn: Option<bool>) -> bool {
    let mut changed = false;
    if let Some(cur) = lat.get_mut(v.index()) {
        if new.rank() > cur.rank() {
            *cur = new;
            changed = true;
        } else if let (Lat::Named(a, _), Lat::Named(b, at)) = (&*cur, &new)
            && a != b
        {
            *cur = cur.join(&new, *at);
            changed = true;
        }
    }
    if let (Some(nn), Some(cur)) = (nn, nonnull.get_mut(v.index()))
        && *cur
        && !nn
    {
        *cur = false;
        changed = true;
    }
    changed
}

#[allow(clippy::too_many_arguments)]
fn transfer(
    m: &Module,
    f: &Function,
    hooks: &Hooks,
    op: &Op,
    rt: Type,
    span: Span,
    lat: &[Lat],
    nonnull: &[bool],
) -> (Lat, bool) {
    let l = |v: &Value| lat.get(v.index()).cloned().unwrap_or(Lat::Unknown);
    let nn = |v: &Value| nonnull.get(v.index()).copied().unwrap_or(false);
    if let Type::Ptr(s) = rt
        && s != AddrSpace::Generic
    {
        let nonnull = match op {
            Op::StackAlloc { .. } | Op::GlobalAddr(_) | Op::LocalAddr(_) => true,
            Op::PtrAdd(p, _) | Op::FromGeneric(p, _) => nn(p),
            Op::Select(_, a, b) => nn(a) && nn(b),
            _ => false,
        };
        return (Lat::Named(s, span), nonnull);
    }
    match op {
        Op::Const(_) | Op::Undef => (Lat::Unknown, false),
        Op::ToGeneric(p) => match f.value_type(*p) {
            Some(Type::Ptr(s)) => (Lat::Named(s, span), nn(p)),
            _ => (
                Lat::Generic(Rc::new(GenericReason::IntegerCast { at: span })),
                false,
            ),
        },
        Op::PtrAdd(p, _) => (l(p), nn(p)),
        Op::Select(_, a, b) => (l(a).join(&l(b), span), nn(a) && nn(b)),
        Op::Load(_) => (
            Lat::Generic(Rc::new(GenericReason::LoadedFromMemory { at: span })),
            false,
        ),
        Op::IntToPtr(_) => (
            Lat::Generic(Rc::new(GenericReason::IntegerCast { at: span })),
            false,
        ),
        Op::Call(c, args) => {
            let lats: Vec<Lat> = args.iter().map(l).collect();
            if let Some(x) = (hooks.call)(*c, &lats, span) {
                return (x, false);
            }
            let callee = m.function(*c).map_or(String::new(), |cf| cf.name.clone());
            (
                Lat::Generic(Rc::new(GenericReason::ReturnedByCall { callee, at: span })),
                false,
            )
        }
        Op::CallBuiltin(b, _) => {
            let callee = m
                .builtins
                .get(b.index())
                .map_or(String::new(), |d| d.name.clone());
            (
                Lat::Generic(Rc::new(GenericReason::ReturnedByCall { callee, at: span })),
                false,
            )
        }
        _ => (
            Lat::Generic(Rc::new(GenericReason::LoadedFromMemory { at: span })),
            false,
        ),
    }
}

/// What the rewrite proved about one explicit cast or `to_X` call.
#[derive(Clone, Debug, PartialEq)]
pub enum CastVerdict {
    /// The pointer may point into the target space (or the analysis cannot tell).
    Possible,
    /// The pointer always points into `actual` (first entering the generic space at
    /// `origin`), never into the target space.
    Impossible {
        kind: CastKind,
        actual: AddrSpace,
        origin: Span,
        target: AddrSpace,
        span: Span,
    },
}

/// The verdict on the space cast `d` (a `from_generic` or `space_test`) under the analysis:
/// impossible when its operand always points into one other named space.
fn cast_verdict(d: &InstData, a: &Analysis) -> CastVerdict {
    let (Op::FromGeneric(v, t) | Op::SpaceTest(v, t)) = &d.op else {
        return CastVerdict::Possible;
    };
    let kind = if matches!(d.op, Op::FromGeneric(..)) {
        CastKind::Explicit
    } else {
        CastKind::SpaceTest
    };
    match a.lat.get(v.index()) {
        Some(Lat::Named(s, origin)) if s != t => CastVerdict::Impossible {
            kind,
            actual: *s,
            origin: *origin,
            target: *t,
            span: d.span,
        },
        _ => CastVerdict::Possible,
    }
}

/// The verdicts [`rewrite`] gives, without rewriting: for `oclc check`, which only reports
/// the impossible casts.
pub fn cast_verdicts(f: &Function, a: &Analysis) -> Vec<(Inst, CastVerdict)> {
    let mut out = Vec::new();
    for bd in &f.blocks {
        for &i in &bd.insts {
            if let Some(d) = f.insts.get(i.index())
                && matches!(d.op, Op::FromGeneric(..) | Op::SpaceTest(..))
            {
                out.push((i, cast_verdict(d, a)));
            }
        }
    }
    out
}

/// Rewrites `f` (taken out of `m`) with the analysis; returns the verdict on every space
/// cast, by instruction.
pub fn rewrite(m: &mut Module, f: &mut Function, a: &Analysis) -> Vec<(Inst, CastVerdict)> {
    let orig_ty: Vec<Type> = f.values.iter().map(|v| v.ty).collect();
    let mut orig_ops = OrigOps {
        run: vec![(u32::MAX, 0); f.insts.len()],
        types: Vec::new(),
    };
    // Only instructions with a pointer operand can need a conversion.
    for (_, i) in placed_insts(f) {
        if let Some(d) = f.insts.get(i.index()) {
            let mut any_ptr = false;
            d.op.for_each_operand(|v| {
                any_ptr |= orig_ty.get(v.index()).is_some_and(|t| t.is_ptr())
            });
            if any_ptr {
                let start = orig_ops.types.len();
                let types = &mut orig_ops.types;
                d.op.for_each_operand(|v| {
                    types.push(orig_ty.get(v.index()).copied().unwrap_or(Type::I1))
                });
                orig_ops.run[i.index()] = (start as u32, (types.len() - start) as u32);
            }
        }
    }
    let generic = Type::Ptr(AddrSpace::Generic);
    let lat_of = |v: Value| a.lat.get(v.index()).cloned().unwrap_or(Lat::Unknown);
    // 1. Resolved generic values take their named type.
    let mut retype: Vec<(Value, AddrSpace)> = Vec::new();
    for bd in f.blocks.iter().skip(1) {
        for p in &bd.params {
            if orig_ty.get(p.index()) == Some(&generic)
                && let Some(s) = lat_of(*p).space()
            {
                retype.push((*p, s));
            }
        }
    }
    for (_, i) in placed_insts(f) {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        if let (Op::PtrAdd(..) | Op::Select(..), Some(r)) = (&d.op, d.result)
            && orig_ty.get(r.index()) == Some(&generic)
            && let Some(s) = lat_of(r).space()
        {
            retype.push((r, s));
        }
        // A callee specialized to return a named pointer: its result takes that type.
        if let (Op::Call(c, _), Some(r)) = (&d.op, d.result)
            && orig_ty.get(r.index()) == Some(&generic)
            && let Some(Some(Type::Ptr(s))) = m.function(*c).map(|cf| cf.ret)
            && s != AddrSpace::Generic
        {
            retype.push((r, s));
        }
    }
    for (v, s) in retype {
        if let Some(vd) = f.values.get_mut(v.index()) {
            vd.ty = Type::Ptr(s);
        }
    }
    // Builtins taking a resolved generic pointer use the overload for its named space.
    for (_, i) in placed_insts(f) {
        let Some(Op::CallBuiltin(bid, args)) = f.insts.get(i.index()).map(|d| &d.op) else {
            continue;
        };
        let Some(decl) = m.builtins.get(bid.index()) else {
            continue;
        };
        let resolved = |(k, arg): (usize, &Value)| {
            decl.params.get(k) == Some(&generic)
                && decl.pointee.get(k).is_some_and(Option::is_some)
                && lat_of(*arg).space().is_some()
        };
        if !args.iter().enumerate().any(resolved) {
            continue;
        }
        let args = args.clone();
        let mut new = decl.clone();
        for (k, arg) in args.iter().enumerate() {
            if decl.params.get(k) == Some(&generic)
                && decl.pointee.get(k).is_some_and(Option::is_some)
                && let Some(s) = lat_of(*arg).space()
                && let Some(t) = new.params.get_mut(k)
            {
                *t = Type::Ptr(s);
            }
        }
        if new != *decl {
            let nid = m.builtin(new);
            if let Some(d) = f.insts.get_mut(i.index()) {
                d.op = Op::CallBuiltin(nid, args);
            }
        }
    }
    // 2. Casts of resolved pointers fold.
    let mut map = ValueMap::for_function(f);
    let mut verdicts = Vec::new();
    for (_, i) in placed_insts(f) {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        let result = d.result;
        let mut new_op = None;
        match &d.op {
            Op::ToGeneric(p) => {
                if let Some(r) = result {
                    map.insert(r, *p);
                }
            }
            Op::FromGeneric(v, t) | Op::SpaceTest(v, t) => {
                let verdict = cast_verdict(d, a);
                match &verdict {
                    CastVerdict::Possible => {
                        if lat_of(*v).space() == Some(*t)
                            && let Some(r) = result
                        {
                            map.insert(r, *v);
                        }
                    }
                    CastVerdict::Impossible { kind, .. } => {
                        if *kind == CastKind::SpaceTest {
                            new_op = Some(Op::Const(Const::Null));
                        }
                    }
                }
                verdicts.push((i, verdict));
            }
            Op::GetFence(v) => {
                let space = match orig_ty.get(v.index()) {
                    Some(Type::Ptr(AddrSpace::Generic)) => lat_of(*v).space(),
                    Some(Type::Ptr(s)) => Some(*s),
                    _ => None,
                };
                let nn = a.nonnull.get(v.index()).copied().unwrap_or(false);
                let flags = match space {
                    Some(AddrSpace::Private | AddrSpace::Constant) => Some(0),
                    Some(AddrSpace::Global) if nn => Some(CLK_GLOBAL_MEM_FENCE),
                    Some(AddrSpace::Local) if nn => Some(CLK_LOCAL_MEM_FENCE),
                    _ => None,
                };
                if let Some(x) = flags {
                    new_op = Some(Op::Const(Const::Int(x)));
                }
            }
            _ => {}
        }
        if let (Some(op), Some(dm)) = (new_op, f.insts.get_mut(i.index())) {
            dm.op = op;
        }
    }
    replace_uses(f, &map);
    // 3. Pointers loaded from private objects that only ever hold one named space are cast to
    // it right after the load.
    cast_loads(f, &orig_ty, a);
    // 4. Operands whose type no longer fits get a conversion.
    fixup(m, f, &orig_ops, a);
    verdicts
}

/// Follows each load of a generic pointer whose value the analysis resolved with a
/// `from_generic` to its space, used instead of the load's result everywhere.
fn cast_loads(f: &mut Function, orig_ty: &[Type], a: &Analysis) {
    let generic = Type::Ptr(AddrSpace::Generic);
    let mut map = ValueMap::for_function(f);
    let mut casts: Vec<(Inst, Value)> = Vec::new();
    for bi in 0..f.blocks.len() {
        let resolved = |d: &InstData| match (&d.op, d.result) {
            (Op::Load(_), Some(r)) if orig_ty.get(r.index()) == Some(&generic) => a
                .lat
                .get(r.index())
                .and_then(Lat::space)
                .map(|s| (r, s, d.span)),
            _ => None,
        };
        let any = f.blocks[bi]
            .insts
            .iter()
            .any(|i| f.insts.get(i.index()).and_then(resolved).is_some());
        if !any {
            continue;
        }
        let old = std::mem::take(&mut f.blocks[bi].insts);
        let mut out = Vec::with_capacity(old.len() + 1);
        for i in old {
            out.push(i);
            let Some((r, s, span)) = f.insts.get(i.index()).and_then(resolved) else {
                continue;
            };
            let (c, v) = new_inst(f, Op::FromGeneric(r, s), Some(Type::Ptr(s)), span);
            out.push(c);
            if let Some(v) = v {
                map.insert(r, v);
                casts.push((c, r));
            }
        }
        f.blocks[bi].insts = out;
    }
    if casts.is_empty() {
        return;
    }
    replace_uses(f, &map);
    for (c, r) in casts {
        if let Some(d) = f.insts.get_mut(c.index())
            && let Op::FromGeneric(v, _) = &mut d.op
        {
            *v = r;
        }
    }
}

/// The operand types of each instruction with a pointer operand before the rewrite, in one
/// list (instruction `i`'s are `run[i]`: start and count; start `u32::MAX`: none recorded).
struct OrigOps {
    run: Vec<(u32, u32)>,
    types: Vec<Type>,
}

impl OrigOps {
    /// The recorded operand types of `i`.
    fn get(&self, i: Inst) -> Option<&[Type]> {
        let (s, n) = *self.run.get(i.index())?;
        if s == u32::MAX {
            return None;
        }
        self.types.get(s as usize..(s + n) as usize)
    }
}

/// `CLK_GLOBAL_MEM_FENCE` and `CLK_LOCAL_MEM_FENCE`, as the OpenCL headers define them.
pub const CLK_LOCAL_MEM_FENCE: u64 = 1;
pub const CLK_GLOBAL_MEM_FENCE: u64 = 2;

/// Inserts `to_generic` (or a NULL of the right space for an unresolved NULL) wherever an
/// operand's new type differs from the type its user requires.
fn fixup(m: &Module, f: &mut Function, orig_ops: &OrigOps, a: &Analysis) {
    let generic = Type::Ptr(AddrSpace::Generic);
    let mut cache: FxHashMap<(Value, Type), Value> = FxHashMap::default();
    // Scratch lists, reused for every instruction.
    let mut ops: Vec<Value> = Vec::new();
    let mut want: Vec<Option<Type>> = Vec::new();
    let mut new_ops: Vec<Value> = Vec::new();
    for bi in 0..f.blocks.len() {
        let b = Block(bi as u32);
        cache.clear();
        let mut pos = 0;
        while pos < f.blocks[bi].insts.len() {
            let i = f.blocks[bi].insts[pos];
            let (Some(d), Some(orig)) = (f.insts.get(i.index()), orig_ops.get(i)) else {
                pos += 1;
                continue;
            };
            ops.clear();
            d.op.for_each_operand(|x| ops.push(x));
            let ty = |v: Value| f.value_type(v).unwrap_or(Type::I1);
            let rty = d.result.map(ty);
            want.clear();
            want.extend((0..ops.len()).map(|k| orig.get(k).copied()));
            match &d.op {
                Op::Load(_) | Op::AtomicLoad { .. } => want[0] = None,
                Op::Store { .. }
                | Op::AtomicRmw { .. }
                | Op::AtomicStore { .. }
                | Op::AtomicCmpXchg { .. } => want[0] = None,
                Op::Memcpy { .. } => {
                    want[0] = None;
                    want[1] = None;
                }
                Op::Memset { .. } => want[0] = None,
                Op::GetFence(_) | Op::ToGeneric(_) => want[0] = None,
                Op::PtrAdd(..) => want[0] = rty,
                Op::Select(..) => {
                    want[1] = rty;
                    want[2] = rty;
                }
                Op::Cmp(_, x, y) | Op::PtrDiff(x, y) if ty(*x).is_ptr() => {
                    let (tx, ty_) = (ty(*x), ty(*y));
                    let unknown = |v: Value| {
                        ty(v) == generic && a.lat.get(v.index()).is_none_or(|l| *l == Lat::Unknown)
                    };
                    let w = if tx == ty_ {
                        None
                    } else if tx != generic && unknown(*y) {
                        Some(tx)
                    } else if ty_ != generic && unknown(*x) {
                        Some(ty_)
                    } else {
                        Some(generic)
                    };
                    want[0] = w;
                    want[1] = w;
                }
                Op::Call(c, _) => {
                    if let Some(cf) = m.function(*c) {
                        for (k, p) in cf.params.iter().enumerate() {
                            if let Some(w) = want.get_mut(k) {
                                *w = Some(p.ty);
                            }
                        }
                    }
                }
                Op::CallBuiltin(bid, _) => {
                    if let Some(bd) = m.builtins.get(bid.index()) {
                        for (k, t) in bd.params.iter().enumerate() {
                            if let Some(w) = want.get_mut(k) {
                                *w = Some(*t);
                            }
                        }
                    }
                }
                Op::Ret(Some(_)) => want[0] = f.ret,
                Op::Br(_) | Op::CondBr(..) | Op::Switch(..) => {
                    let mut k = if matches!(d.op, Op::Br(_)) { 0 } else { 1 };
                    for s in d.op.successors() {
                        for p in f.params_of(s.block) {
                            if let Some(w) = want.get_mut(k) {
                                *w = f.value_type(*p);
                            }
                            k += 1;
                        }
                    }
                }
                _ => {}
            }
            let span = d.span;
            new_ops.clear();
            new_ops.extend_from_slice(&ops);
            let mut inserted = 0;
            for (k, v) in ops.iter().enumerate() {
                let Some(w) = want[k] else { continue };
                let have = f.value_type(*v).unwrap_or(Type::I1);
                if have == w || !have.is_ptr() || !w.is_ptr() {
                    continue;
                }
                let nv = match cache.get(&(*v, w)) {
                    Some(x) => *x,
                    None => {
                        let (x, n) = convert(f, b, pos + inserted, *v, have, w, span);
                        inserted += n;
                        cache.insert((*v, w), x);
                        x
                    }
                };
                new_ops[k] = nv;
            }
            pos += inserted;
            if new_ops != ops
                && let Some(dm) = f.insts.get_mut(i.index())
            {
                let mut it = new_ops.iter().copied();
                for_each_operand_mut(&mut dm.op, |v| {
                    if let Some(n) = it.next() {
                        *v = n;
                    }
                });
            }
            pos += 1;
        }
    }
}

/// Converts `v` from `have` to `want` with instructions inserted at `pos` of `b`; returns
/// the converted value and the number of instructions inserted.
fn convert(
    f: &mut Function,
    b: Block,
    pos: usize,
    v: Value,
    have: Type,
    want: Type,
    span: Span,
) -> (Value, usize) {
    let generic = Type::Ptr(AddrSpace::Generic);
    let bad = Value(u32::MAX);
    // A conversion points at the pointer's own source, not at its use.
    let span = match f.values.get(v.index()).map(|d| d.def) {
        Some(ValueDef::Inst(i)) => f.insts.get(i.index()).map_or(span, |d| d.span),
        _ => span,
    };
    let Type::Ptr(ws) = want else {
        return (v, 0);
    };
    if want == generic {
        let (_, x) = insert_inst(f, b, pos, Op::ToGeneric(v), Some(generic), span);
        return (x.unwrap_or(bad), 1);
    }
    match def_op(f, v) {
        Some(Op::Const(Const::Null)) => {
            let (_, x) = insert_inst(f, b, pos, Op::Const(Const::Null), Some(want), span);
            return (x.unwrap_or(bad), 1);
        }
        Some(Op::Undef) => {
            let (_, x) = insert_inst(f, b, pos, Op::Undef, Some(want), span);
            return (x.unwrap_or(bad), 1);
        }
        _ => {}
    }
    if have == generic {
        let (_, x) = insert_inst(f, b, pos, Op::FromGeneric(v, ws), Some(want), span);
        return (x.unwrap_or(bad), 1);
    }
    let (_, g) = insert_inst(f, b, pos, Op::ToGeneric(v), Some(generic), span);
    let g = g.unwrap_or(bad);
    let (_, x) = insert_inst(f, b, pos + 1, Op::FromGeneric(g, ws), Some(want), span);
    (x.unwrap_or(bad), 2)
}

/// Memory accesses through generic pointers in `f`: loads, stores, atomics, copies and
/// builtin calls with a generic pointer argument.
pub fn generic_accesses(m: &Module, f: &Function) -> usize {
    let generic = Some(Type::Ptr(AddrSpace::Generic));
    let g = |v: &Value| f.value_type(*v) == generic;
    let mut n = 0;
    for bd in &f.blocks {
        for i in &bd.insts {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            let hit = match &d.op {
                Op::Load(p)
                | Op::Store { ptr: p, .. }
                | Op::AtomicRmw { ptr: p, .. }
                | Op::AtomicCmpXchg { ptr: p, .. }
                | Op::AtomicLoad { ptr: p, .. }
                | Op::AtomicStore { ptr: p, .. }
                | Op::Memset { dst: p, .. } => g(p),
                Op::Memcpy { dst, src, .. } => g(dst) || g(src),
                Op::CallBuiltin(b, args) => {
                    args.iter().any(g)
                        && m.builtins
                            .get(b.index())
                            .is_some_and(|d| d.pointee.iter().any(|p| p.is_some()))
                }
                _ => false,
            };
            n += hit as usize;
        }
    }
    n
}
