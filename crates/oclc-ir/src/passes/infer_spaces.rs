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
/// value (indexed by [`Value::index`]).
pub struct Analysis {
    pub lat: Vec<Lat>,
    pub nonnull: Vec<bool>,
}

/// Gives the lattice value of a call's generic result from the callee, the lattice values of
/// the arguments and the call's span; `None` treats it as an unknown pointer.
pub type CallHook<'a> = dyn Fn(FuncId, &[Lat], Span) -> Option<Lat> + 'a;

/// What the analysis of one function assumes about its boundaries.
pub struct Hooks<'a> {
    /// The lattice value of generic entry parameter `i`.
    pub param: &'a dyn Fn(usize) -> Lat,
    /// The lattice value of a call's generic result.
    pub call: &'a CallHook<'a>,
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
    let mut changed = true;
    // Every update only raises a value (or lowers a non-NULL fact), so this terminates, and
    // it must run to the fixpoint: a partial result would be unsound.
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
                            changed |=
                                update(&mut lat, &mut nonnull, *p, Lat::Named(s, join_at), None);
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
                let (l, nn) = transfer(m, f, hooks, &d.op, rt, d.span, &lat, &nonnull);
                changed |= update(&mut lat, &mut nonnull, r, l, Some(nn));
            }
        }
    }
    Analysis { lat, nonnull }
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
    // 3. Operands whose type no longer fits get a conversion.
    fixup(m, f, &orig_ops, a);
    verdicts
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
