//! Which kernels run with work-items as SIMD lanes, and how each IR value varies across the
//! lanes of a chunk (consecutive work-items along dimension 0): uniform, affine in the lane
//! (`base + lane * stride`), or varying; which values come from memory; and where the
//! barriers split the kernel into regions.

use crate::native::roots::Root;
use crate::ptr::{self, Tag};
use oclc_ir::passes::util;
use oclc_ir::{
    AddrSpace, BinOp, Block, ConvOp, Function, Module, Op, Scalar, Type, UnOp, Value, ValueDef,
    WorkItemQuery as Q,
};

/// How a value varies over the lanes of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sub {
    /// The same in every lane.
    U,
    /// Integer `base + lane * stride` (wrapping in its width).
    A(i64),
    /// Anything else, lane by lane.
    V,
}

/// A value's kind: an integer/float [`Sub`], or a pointer: a root plus a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum K {
    N(Sub),
    /// Root `r` (an index into the kernel's roots) plus an `i64` byte offset.
    P(u32, Sub),
}

/// Largest stride kept affine (larger ones become varying).
const MAX_STRIDE: i64 = 1 << 20;

/// Most blocks a vectorized kernel may have (the analyses are quadratic in them).
const MAX_BLOCKS: usize = 256;

/// The most code the vector function may take, in units of [`Plan::code_estimate`] (every
/// chunk width repeats the kernel, and a lane-by-lane value costs one instruction per lane):
/// Cranelift's compile time grows faster than it (measured on a chain of `double`
/// arithmetic: 8 500 units 0.12 s, 17 000 0.37 s, 67 000 8 s), so larger kernels run one
/// work-item at a time.
const MAX_CODE: usize = 10_000;

fn join_sub(a: Sub, b: Sub) -> Sub {
    match (a, b) {
        (Sub::U, Sub::U) => Sub::U,
        (Sub::A(x), Sub::A(y)) if x == y => Sub::A(x),
        _ => Sub::V,
    }
}

/// A kernel the vector back end compiles.
pub struct Plan<'m> {
    pub f: &'m Function,
    /// The module's builtin declarations (for the builtins computed in line, [`Bi`]).
    pub builtins: &'m [oclc_ir::BuiltinDecl],
    pub kinds: Vec<K>,
    /// Values computed from memory (loads): never an address, a branch condition or a
    /// guard, so the check pass need not load them.
    pub data: Vec<bool>,
    /// Integer constants.
    pub consts: Vec<Option<u64>>,
    /// The CFG: its blocks in a topological order (it has no cycle), reachability,
    /// dominance.
    pub cfg: Cfg,
    /// The barriers, in order: (block, index in its instructions).
    pub barriers: Vec<(Block, usize)>,
    /// Root index of each kernel parameter (pointers) and of each `LocalAddr`/`GlobalAddr`.
    pub param_roots: Vec<Option<u32>>,
    pub local_roots: Vec<Option<u32>>,
    pub global_roots: Vec<Option<u32>>,
    /// Whether a pointer value is an operand of another `ptradd` (its offset is then
    /// checked against the pointer's offset field, as the interpreter's arithmetic does).
    pub inner_ptr: Vec<bool>,
    /// Per load/store instruction: the earlier accesses of the same root (in its region,
    /// one of the two a store) that the check pass tests it against, so that no lane reads
    /// or writes what another lane wrote or reads out of the work-items' order.
    pub earlier: std::collections::HashMap<oclc_ir::Inst, Vec<oclc_ir::Inst>>,
    /// Pairs of roots accessed in one region (one of them stored through) that must not
    /// overlap for the vector code to run the group: tested once per group.
    pub disjoint: Vec<(u32, u32)>,
    /// Per (root, store, bytes, stride of the offset across lanes): the bounds the check
    /// pass compares with, computed once per group for each chunk width.
    pub caps: Vec<(u32, bool, i64, i64)>,
    /// Per root: the largest access through it whose offset from the root is a multiple of
    /// its size; the root's own offset is tested once per group for that alignment.
    pub align: Vec<(u32, u32)>,
    /// Whether one pass can test and run a chunk: every store comes after every test of
    /// its path (stores only in blocks that return, with no load after them), so the
    /// stores can wait until the tests passed.
    pub fusable: bool,
}

/// A load or store: its instruction, block, index there, root, space, whether it writes
/// and its region.
struct Access {
    inst: oclc_ir::Inst,
    block: Block,
    idx: usize,
    root: u32,
    local: bool,
    store: bool,
    region: usize,
}

fn ty_ok(t: Type) -> bool {
    match t {
        Type::Scalar(s) => s != Scalar::F16,
        Type::Ptr(sp) => matches!(
            sp,
            AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
        ),
        Type::Vector(..) => false,
    }
}

impl<'m> Plan<'m> {
    /// The plan for kernel `kernel` of `m`, or why it runs one work-item at a time.
    /// `roots` are the native kernel's pointer roots (their index is their table slot).
    pub fn new(m: &'m Module, kernel: usize, roots: &[(Root, u64)]) -> Result<Plan<'m>, String> {
        let f = m.functions.get(kernel).ok_or("no such kernel")?;
        if f.blocks.len() > MAX_BLOCKS {
            return Err(format!("more than {MAX_BLOCKS} blocks"));
        }
        let root_of = |r: Root| roots.iter().position(|(x, _)| *x == r).map(|i| i as u32);
        let param_roots = (0..f.params.len())
            .map(|i| root_of(Root::Param(i as u32)))
            .collect();
        // A kernel-scope `__local`'s allocation id is its position among its kernel's.
        let mut local_roots = vec![None; m.locals.len()];
        let mut k = 0u32;
        for (i, l) in m.locals.iter().enumerate() {
            if l.kernel.index() == kernel {
                local_roots[i] = root_of(Root::Const(ptr::make(Tag::Local, k, 0)));
                k += 1;
            }
        }
        let global_roots = m
            .globals
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let tag = if g.space == AddrSpace::Constant {
                    Tag::Constant
                } else {
                    Tag::Global
                };
                root_of(Root::Const(ptr::make(tag, i as u32, 0)))
            })
            .collect();
        let cfg = Cfg::new(f)?;
        let mut p = Plan {
            f,
            builtins: &m.builtins,
            kinds: vec![K::N(Sub::V); f.values.len()],
            data: vec![false; f.values.len()],
            consts: vec![None; f.values.len()],
            barriers: Vec::new(),
            param_roots,
            local_roots,
            global_roots,
            inner_ptr: vec![false; f.values.len()],
            cfg,
            earlier: Default::default(),
            disjoint: Vec::new(),
            caps: Vec::new(),
            align: Vec::new(),
            fusable: false,
        };
        p.analyse()?;
        p.find_barriers()?;
        p.order_accesses()?;
        let cost = p.code_estimate();
        if cost > MAX_CODE {
            return Err(format!(
                "about {cost} instructions as lanes, more than {MAX_CODE}"
            ));
        }
        Ok(p)
    }

    fn kind(&self, v: Value) -> K {
        self.kinds.get(v.index()).copied().unwrap_or(K::N(Sub::V))
    }

    fn sub(&self, v: Value) -> Sub {
        match self.kind(v) {
            K::N(s) => s,
            K::P(..) => Sub::V,
        }
    }

    pub fn ty(&self, v: Value) -> Type {
        self.f.value_type(v).unwrap_or(Type::I64)
    }

    pub fn konst(&self, v: Value) -> Option<u64> {
        self.consts.get(v.index()).copied().flatten()
    }

    pub fn is_data(&self, v: Value) -> bool {
        self.data.get(v.index()).copied().unwrap_or(true)
    }

    /// Kinds, data flags and constants of every value, in topological block order.
    fn analyse(&mut self) -> Result<(), String> {
        let f = self.f;
        // Incoming (kind, data) per block parameter, joined as predecessors are visited.
        let mut incoming: Vec<Vec<Option<(K, bool)>>> = f
            .blocks
            .iter()
            .map(|b| vec![None; b.params.len()])
            .collect();
        for (i, p) in f.params.iter().enumerate() {
            let v = f
                .params_of(f.entry())
                .get(i)
                .copied()
                .ok_or("bad parameters")?;
            if !ty_ok(p.ty) {
                return Err(format!("parameter `{}` of type {:?}", p.name, p.ty));
            }
            self.kinds[v.index()] = match p.ty {
                Type::Ptr(_) => match self.param_roots.get(i).copied().flatten() {
                    Some(r) => K::P(r, Sub::U),
                    None => return Err(format!("pointer parameter `{}` without a root", p.name)),
                },
                _ => K::N(Sub::U),
            };
        }
        let order = self.cfg.order.clone();
        for &b in &order {
            let bd = f.blocks.get(b.index()).ok_or("bad block")?;
            if b != f.entry() {
                for (k, &pv) in bd.params.iter().enumerate() {
                    let (kd, data) = incoming[b.index()]
                        .get(k)
                        .copied()
                        .flatten()
                        .unwrap_or((K::N(Sub::U), false));
                    if !ty_ok(self.ty(pv)) {
                        return Err("a block parameter of an unsupported type".into());
                    }
                    self.kinds[pv.index()] = kd;
                    self.data[pv.index()] = data;
                }
            }
            for &inst in &bd.insts {
                let d = f.insts.get(inst.index()).ok_or("bad instruction")?;
                if let Some(r) = d.result {
                    if !ty_ok(self.ty(r)) {
                        return Err(format!("a value of type {:?}", self.ty(r)));
                    }
                    let (k, data) = self.rule(&d.op, r)?;
                    self.kinds[r.index()] = k;
                    self.data[r.index()] = data;
                    if let Op::Const(oclc_ir::Const::Int(c)) = d.op {
                        self.consts[r.index()] = Some(c);
                    }
                } else {
                    self.check_effect(&d.op)?;
                }
                if let Op::PtrAdd(p, _) = d.op {
                    self.inner_ptr[p.index()] = true;
                }
                // Edges: a branch's condition is uniform on each of its edges (a chunk
                // whose lanes disagree never takes them).
                let cond = match &d.op {
                    Op::CondBr(c, ..) => Some(*c),
                    _ => None,
                };
                for bc in d.op.successors() {
                    let slot = incoming
                        .get_mut(bc.block.index())
                        .ok_or("a branch to a missing block")?;
                    for (k, &a) in bc.args.iter().enumerate() {
                        let mut ka = self.kind(a);
                        if Some(a) == cond {
                            ka = K::N(Sub::U);
                        }
                        let da = self.is_data(a);
                        let cur = slot.get_mut(k).ok_or("a branch with extra arguments")?;
                        *cur = Some(match *cur {
                            None => (ka, da),
                            Some((kb, db)) => (join(ka, kb)?, da || db),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Kind and data flag of the result of `op`.
    fn rule(&self, op: &Op, r: Value) -> Result<(K, bool), String> {
        let any_data = |vs: &[Value]| vs.iter().any(|&v| self.is_data(v));
        let n = |s: Sub| K::N(s);
        let ty = self.ty(r);
        Ok(match op {
            Op::Const(_) | Op::Undef => (n(Sub::U), false),
            Op::WorkItem(q, dim) => {
                let d = match dim {
                    Some(v) => self
                        .konst(*v)
                        .ok_or("a work-item query of a run-time dimension")?,
                    None => 0,
                };
                if d >= 3 {
                    return Err("a work-item query of dimension 3 or more".into());
                }
                let k = match q {
                    Q::GlobalId | Q::LocalId if d == 0 => Sub::A(1),
                    Q::GlobalId
                    | Q::LocalId
                    | Q::GroupId
                    | Q::GlobalSize
                    | Q::LocalSize
                    | Q::EnqueuedLocalSize
                    | Q::NumGroups
                    | Q::GlobalOffset
                    | Q::WorkDim => Sub::U,
                    Q::GlobalLinearId | Q::LocalLinearId => {
                        return Err("linear id queries".into());
                    }
                };
                (n(k), false)
            }
            Op::Bin(o, a, b) => {
                // Integer division only by a constant that cannot trap (zero, or -1 for a
                // signed division, would).
                let signed = matches!(o, BinOp::SDiv | BinOp::SRem);
                let safe_divisor = self.konst(*b).is_some_and(|c| {
                    let bits = ty.elem().map_or(64, |s| s.bits());
                    let m = if bits >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    c & m != 0 && !(signed && c & m == m)
                });
                if *o == BinOp::FRem
                    || (matches!(o, BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem)
                        && !safe_divisor)
                {
                    return Err(format!("`{}`", o.name()));
                }
                let (sa, sb) = (self.sub(*a), self.sub(*b));
                let cb = self.konst(*b);
                let ca = self.konst(*a);
                let k = match (o, sa, sb) {
                    (_, Sub::U, Sub::U) => Sub::U,
                    (BinOp::Add, Sub::A(s), Sub::U) | (BinOp::Add, Sub::U, Sub::A(s)) => Sub::A(s),
                    (BinOp::Add, Sub::A(s), Sub::A(t)) => affine(s.wrapping_add(t)),
                    (BinOp::Sub, Sub::A(s), Sub::U) => Sub::A(s),
                    (BinOp::Sub, Sub::U, Sub::A(s)) => affine(s.wrapping_neg()),
                    (BinOp::Sub, Sub::A(s), Sub::A(t)) => affine(s.wrapping_sub(t)),
                    (BinOp::Mul, Sub::A(s), Sub::U) if cb.is_some() => {
                        affine(s.wrapping_mul(sext(cb.unwrap_or(0), ty)))
                    }
                    (BinOp::Mul, Sub::U, Sub::A(s)) if ca.is_some() => {
                        affine(s.wrapping_mul(sext(ca.unwrap_or(0), ty)))
                    }
                    (BinOp::Shl, Sub::A(s), Sub::U) if cb.is_some_and(|c| c < 32) => {
                        affine(s.wrapping_shl(cb.unwrap_or(0) as u32))
                    }
                    _ => Sub::V,
                };
                (n(k), any_data(&[*a, *b]))
            }
            Op::Un(o, a) => {
                let k = match (o, self.sub(*a)) {
                    (_, Sub::U) => Sub::U,
                    (UnOp::Neg | UnOp::Not, Sub::A(s)) => affine(s.wrapping_neg()),
                    _ => Sub::V,
                };
                (n(k), any_data(&[*a]))
            }
            Op::Cmp(_, a, b) => {
                if self.ty(*a).is_ptr() {
                    return Err("pointer comparisons".into());
                }
                let k = match (self.sub(*a), self.sub(*b)) {
                    (Sub::U, Sub::U) => Sub::U,
                    _ => Sub::V,
                };
                (n(k), any_data(&[*a, *b]))
            }
            Op::Conv(o, a) => {
                let from = self.ty(*a);
                let data = any_data(&[*a]);
                let k = match (o, self.sub(*a)) {
                    (ConvOp::PtrToInt, _) => return Err("pointer to integer".into()),
                    (ConvOp::FToS | ConvOp::FToU, _)
                        if !matches!(ty, Type::Scalar(Scalar::I32 | Scalar::I64)) =>
                    {
                        return Err("float conversions to narrow integers".into());
                    }
                    (_, Sub::U) => Sub::U,
                    (ConvOp::Trunc, Sub::A(s)) => affine(sext(s as u64, ty)),
                    // Exact while no lane wraps in the narrow type: a guard the check
                    // pass tests (so not for values from memory).
                    (ConvOp::ZExt | ConvOp::SExt, Sub::A(s)) if !data && from != Type::I1 => {
                        Sub::A(s)
                    }
                    _ => Sub::V,
                };
                (n(k), data)
            }
            Op::Select(c, a, b) => {
                if self.ty(*a).is_ptr() {
                    return Err("pointer selects".into());
                }
                let k = match (self.sub(*c), self.sub(*a), self.sub(*b)) {
                    (Sub::U, Sub::U, Sub::U) => Sub::U,
                    _ => Sub::V,
                };
                (n(k), any_data(&[*c, *a, *b]))
            }
            Op::PtrAdd(p, o) => {
                if self.is_data(*o) {
                    return Err("an address computed from memory".into());
                }
                match self.kind(*p) {
                    K::P(root, s) => {
                        let k = match (s, self.sub(*o)) {
                            (Sub::U, Sub::U) => Sub::U,
                            (Sub::A(x), Sub::U) | (Sub::U, Sub::A(x)) => Sub::A(x),
                            (Sub::A(x), Sub::A(y)) => affine(x.wrapping_add(y)),
                            _ => Sub::V,
                        };
                        (K::P(root, k), false)
                    }
                    K::N(_) => return Err("pointer arithmetic on a non-pointer".into()),
                }
            }
            Op::Load(p) => {
                let (K::P(_, s), Type::Scalar(_)) = (self.kind(*p), ty) else {
                    return Err("a load through an unknown pointer".into());
                };
                if self.is_data(*p) {
                    return Err("an address loaded from memory".into());
                }
                (n(if s == Sub::U { Sub::U } else { Sub::V }), true)
            }
            Op::CallBuiltin(id, args) => {
                self.builtin(*id).ok_or(
                    "builtin calls (other than min, max, clamp on integers; sqrt, floor, ceil, trunc, fabs, fma, mad)",
                )?;
                let all_u = args.iter().all(|&a| self.sub(a) == Sub::U);
                (n(if all_u { Sub::U } else { Sub::V }), any_data(args))
            }
            Op::LocalAddr(l) => match self.local_roots.get(l.index()).copied().flatten() {
                Some(r) => (K::P(r, Sub::U), false),
                None => return Err("a __local variable without a root".into()),
            },
            Op::GlobalAddr(g) => match self.global_roots.get(g.index()).copied().flatten() {
                Some(r) => (K::P(r, Sub::U), false),
                None => return Err("a program-scope variable without a root".into()),
            },
            other => return Err(op_name(other).to_string()),
        })
    }

    /// Instructions without a result: stores, barriers and terminators.
    fn check_effect(&self, op: &Op) -> Result<(), String> {
        match op {
            Op::Store { ptr, value } => {
                if !matches!(self.kind(*ptr), K::P(..)) || self.is_data(*ptr) {
                    return Err("a store through an unknown pointer".into());
                }
                if !matches!(self.ty(*value), Type::Scalar(_)) {
                    return Err("a store of a non-scalar".into());
                }
                Ok(())
            }
            Op::Barrier { .. } | Op::Fence { .. } | Op::Br(_) => Ok(()),
            Op::Ret(None) => Ok(()),
            Op::CondBr(c, ..) => {
                if self.is_data(*c) {
                    Err("a branch on a value from memory".into())
                } else {
                    Ok(())
                }
            }
            other => Err(op_name(other).to_string()),
        }
    }

    /// The barriers, each of which must lie on every path through the kernel (so every
    /// work-item meets the same ones in the same order), and the values that cross them.
    fn find_barriers(&mut self) -> Result<(), String> {
        let f = self.f;
        let mut list = Vec::new();
        for &b in &self.cfg.order {
            let bd = &f.blocks[b.index()];
            for (k, &i) in bd.insts.iter().enumerate() {
                if let Some(Op::Barrier { .. }) = f.insts.get(i.index()).map(|d| &d.op) {
                    list.push((b, k));
                }
            }
        }
        let mut blocks: Vec<Block> = list.iter().map(|&(b, _)| b).collect();
        blocks.dedup();
        for &b in &blocks {
            if !self.cfg.on_every_path(b) {
                return Err("a barrier not on every path".into());
            }
        }
        self.barriers = list;
        if self.barriers.is_empty() {
            return Ok(());
        }
        // Values used in a later region than their own are recomputed there: only pure
        // values of the work-item ids and the arguments.
        let region = self.regions();
        for &b in &self.cfg.order {
            for &i in &f.blocks[b.index()].insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let here = region.get(&(b, i)).copied().unwrap_or(0);
                let mut bad = None;
                d.op.for_each_operand(|v| {
                    if self.def_region(v, &region) < here && !self.remat_ok(v, 0) {
                        bad = Some(v);
                    }
                });
                if bad.is_some() {
                    return Err("a value from memory used after a barrier".into());
                }
            }
        }
        Ok(())
    }

    /// Which accesses the check pass compares (see [`Plan::earlier`]): lanes run each
    /// instruction in turn where work-items run one after another, so a lane must not touch
    /// what another one wrote (or write what it reads) between two accesses; accesses that
    /// may run one after the other must then be in blocks that dominate each other (their
    /// addresses are at hand), and different roots must not overlap.
    fn order_accesses(&mut self) -> Result<(), String> {
        let f = self.f;
        let regions = self.regions();
        let mut list = Vec::new();
        for &b in &self.cfg.order {
            for (k, &i) in f.blocks[b.index()].insts.iter().enumerate() {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let (p, store) = match d.op {
                    Op::Load(p) => (p, false),
                    Op::Store { ptr, .. } => (ptr, true),
                    _ => continue,
                };
                let K::P(root, _) = self.kind(p) else {
                    continue;
                };
                list.push(Access {
                    inst: i,
                    block: b,
                    idx: k,
                    root,
                    local: self.ty(p) == Type::Ptr(AddrSpace::Local),
                    store,
                    region: regions.get(&(b, i)).copied().unwrap_or(0),
                });
            }
        }
        for a in &list {
            let Some(d) = f.insts.get(a.inst.index()) else {
                continue;
            };
            let (p, ty) = match d.op {
                Op::Load(p) => (p, d.result.map(|r| self.ty(r))),
                Op::Store { ptr, value } => (ptr, Some(self.ty(value))),
                _ => continue,
            };
            let bytes = ty.and_then(|t| t.elem()).map_or(1, |s| s.bytes());
            let stride = match self.kind(p) {
                K::P(_, Sub::A(s)) => s,
                _ => 0,
            };
            let req = (a.root, a.store, bytes as i64, stride);
            if !self.caps.contains(&req) {
                self.caps.push(req);
            }
            if self.tz(p, 0) >= bytes.trailing_zeros() {
                match self.align.iter_mut().find(|(r, _)| *r == a.root) {
                    Some((_, b)) => *b = (*b).max(bytes),
                    None => self.align.push((a.root, bytes)),
                }
            }
        }
        // Fusable: stores only in returning blocks, no load after the block's first store.
        self.fusable = self.barriers.is_empty()
            && self.cfg.order.iter().all(|&b| {
                let insts = &f.blocks[b.index()].insts;
                let ops: Vec<&Op> = insts
                    .iter()
                    .filter_map(|i| f.insts.get(i.index()))
                    .map(|d| &d.op)
                    .collect();
                match ops.iter().position(|o| matches!(o, Op::Store { .. })) {
                    None => true,
                    Some(k) => {
                        matches!(ops.last(), Some(Op::Ret(_)))
                            && !ops[k..].iter().any(|o| matches!(o, Op::Load(_)))
                    }
                }
            });
        let dominates = |a: Block, b: Block| self.cfg.dominates(a, b);
        for y in &list {
            for x in &list {
                let before = if x.block == y.block {
                    x.idx < y.idx
                } else {
                    self.cfg.reaches(x.block, y.block)
                };
                if !before || x.region != y.region || !(x.store || y.store) || x.local != y.local {
                    continue;
                }
                if x.root != y.root {
                    let pair = (x.root.min(y.root), x.root.max(y.root));
                    if !x.local && !self.disjoint.contains(&pair) {
                        self.disjoint.push(pair);
                    }
                    continue;
                }
                if x.block != y.block && !dominates(x.block, y.block) {
                    return Err("accesses of one buffer in branches that join".into());
                }
                self.earlier.entry(y.inst).or_default().push(x.inst);
            }
        }
        Ok(())
    }

    /// The vector function's size, about, in instructions: each instruction once per chunk
    /// width and pass, times the lanes it is computed for one by one (a value in SIMD
    /// registers: a quarter of them; a uniform or affine one: once).
    fn code_estimate(&self) -> usize {
        let f = self.f;
        let passes = if self.fusable { 1 } else { 2 };
        let widths: &[usize] = if self.barriers.is_empty() {
            &[16, 8, 4, 1]
        } else {
            &[16, 8, 4]
        };
        let mut per_lane_units = 0usize;
        for &b in &self.cfg.order {
            for &i in &f.blocks[b.index()].insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let varying = |v: Value| match self.kind(v) {
                    K::N(Sub::V) => {
                        let packed = matches!(self.ty(v), Type::Scalar(Scalar::F32 | Scalar::I32));
                        if packed { 1 } else { 4 }
                    }
                    K::P(_, Sub::V) => 4,
                    _ => 0,
                };
                // Loads and stores of varying addresses go lane by lane too.
                let u = match (&d.op, d.result) {
                    (Op::Load(p), Some(r)) => varying(r).max(varying(*p)),
                    (Op::Store { ptr, value }, _) => varying(*ptr).max(varying(*value)),
                    (_, Some(r)) => varying(r),
                    _ => 0,
                };
                per_lane_units += u.max(1) * 2;
            }
        }
        // A unit is a quarter lane: one instruction of a 4-lane chunk.
        widths
            .iter()
            .map(|w| per_lane_units * w.max(&4) / 8)
            .sum::<usize>()
            * passes
    }

    /// A builtin computed in line, exactly as the cpu runtime computes it: scalar
    /// arguments and result of one type.
    pub fn builtin(&self, id: oclc_ir::BuiltinId) -> Option<Bi> {
        let d = self.builtins.get(id.index())?;
        let t = d.ret?;
        let Type::Scalar(s) = t else {
            return None;
        };
        if d.params.iter().any(|&p| p != t) {
            return None;
        }
        let unsigned = d.unsigned.first().copied().unwrap_or(false);
        let n = d.params.len();
        Some(match (d.name.as_str(), s.is_int() && s != Scalar::I1, n) {
            ("min", true, 2) => Bi::Min(unsigned),
            ("max", true, 2) => Bi::Max(unsigned),
            ("clamp", true, 3) => Bi::Clamp(unsigned),
            ("sqrt" | "half_sqrt" | "native_sqrt", false, 1) => Bi::Sqrt,
            ("floor", false, 1) => Bi::Floor,
            ("ceil", false, 1) => Bi::Ceil,
            ("trunc", false, 1) => Bi::Trunc,
            ("fabs", false, 1) => Bi::Fabs,
            ("fma" | "mad", false, 3) => Bi::Fma,
            _ => return None,
        })
        .filter(|_| s != Scalar::F16)
    }

    /// Low bits known to be zero in integer `v`, or in a pointer's offset from its root.
    pub fn tz(&self, v: Value, depth: usize) -> u32 {
        let f = self.f;
        if depth > 32 {
            return 0;
        }
        // A pointer parameter is a root: its offset from itself is 0.
        if let Some(ValueDef::Param(b, _)) = f.values.get(v.index()).map(|d| d.def) {
            return if b == f.entry() && matches!(self.kind(v), K::P(..)) {
                64
            } else {
                0
            };
        }
        let Some(ValueDef::Inst(i)) = f.values.get(v.index()).map(|d| d.def) else {
            return 0;
        };
        let Some(d) = f.insts.get(i.index()) else {
            return 0;
        };
        let t = |x: Value| self.tz(x, depth + 1);
        match &d.op {
            Op::Const(oclc_ir::Const::Int(c)) => c.trailing_zeros().min(64),
            Op::LocalAddr(_) | Op::GlobalAddr(_) => 64,
            Op::PtrAdd(p, o) | Op::Bin(BinOp::Add | BinOp::Sub, p, o) => t(*p).min(t(*o)),
            Op::Bin(BinOp::Mul, a, b) => (t(*a) + t(*b)).min(64),
            Op::Bin(BinOp::And, a, b) => t(*a).max(t(*b)),
            Op::Bin(BinOp::Shl, a, b) => match self.konst(*b) {
                Some(c) if c < 64 => (t(*a) + c as u32).min(64),
                _ => 0,
            },
            Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) => t(*a),
            Op::Conv(ConvOp::Trunc, a) => t(*a).min(self.ty(v).elem().map_or(64, |s| s.bits())),
            _ => 0,
        }
    }

    /// Region of every instruction (the number of barriers before it).
    pub fn regions(&self) -> std::collections::HashMap<(Block, oclc_ir::Inst), usize> {
        let f = self.f;
        let mut out = std::collections::HashMap::new();
        for &b in &self.cfg.order {
            // Barriers in blocks that reach this one, then those earlier in it.
            let before = self
                .barriers
                .iter()
                .filter(|&&(bb, _)| bb != b && self.cfg.reaches(bb, b))
                .count();
            let mut k = before;
            for &i in &f.blocks[b.index()].insts {
                out.insert((b, i), k);
                if let Some(Op::Barrier { .. }) = f.insts.get(i.index()).map(|d| &d.op) {
                    k += 1;
                }
            }
        }
        out
    }

    fn def_region(
        &self,
        v: Value,
        region: &std::collections::HashMap<(Block, oclc_ir::Inst), usize>,
    ) -> usize {
        let f = self.f;
        match f.values.get(v.index()).map(|d| d.def) {
            Some(ValueDef::Inst(i)) => {
                let b = self
                    .cfg
                    .order
                    .iter()
                    .find(|b| f.blocks[b.index()].insts.contains(&i));
                b.and_then(|&b| region.get(&(b, i)).copied()).unwrap_or(0)
            }
            Some(ValueDef::Param(b, _)) if b == f.entry() => 0,
            Some(ValueDef::Param(b, _)) => region
                .get(&(
                    b,
                    f.blocks[b.index()]
                        .insts
                        .first()
                        .copied()
                        .unwrap_or(oclc_ir::Inst(0)),
                ))
                .copied()
                .unwrap_or(0),
            None => 0,
        }
    }

    /// Whether `v` can be recomputed from the ids, constants and arguments alone.
    pub fn remat_ok(&self, v: Value, depth: usize) -> bool {
        if depth > 64 || self.is_data(v) {
            return false;
        }
        let f = self.f;
        match f.values.get(v.index()).map(|d| d.def) {
            Some(ValueDef::Param(b, _)) => b == f.entry(),
            Some(ValueDef::Inst(i)) => {
                let Some(d) = f.insts.get(i.index()) else {
                    return false;
                };
                let pure = matches!(
                    d.op,
                    Op::Const(_)
                        | Op::Undef
                        | Op::WorkItem(..)
                        | Op::Bin(..)
                        | Op::Un(..)
                        | Op::Cmp(..)
                        | Op::Conv(..)
                        | Op::Select(..)
                        | Op::PtrAdd(..)
                        | Op::LocalAddr(_)
                        | Op::GlobalAddr(_)
                );
                let mut ok = pure;
                d.op.for_each_operand(|o| ok = ok && self.remat_ok(o, depth + 1));
                ok
            }
            None => false,
        }
    }
}

fn join(a: K, b: K) -> Result<K, String> {
    match (a, b) {
        (K::N(x), K::N(y)) => Ok(K::N(join_sub(x, y))),
        (K::P(r, x), K::P(q, y)) if r == q => Ok(K::P(r, join_sub(x, y))),
        _ => Err("a pointer that may come from two roots".into()),
    }
}

fn affine(s: i64) -> Sub {
    if s == 0 {
        Sub::U
    } else if s.unsigned_abs() <= MAX_STRIDE as u64 {
        Sub::A(s)
    } else {
        Sub::V
    }
}

/// `c` (bits of a constant of type `t`) sign-extended to `i64`.
fn sext(c: u64, t: Type) -> i64 {
    let bits = t.elem().map_or(64, |s| s.bits());
    if bits >= 64 {
        c as i64
    } else {
        let sh = 64 - bits;
        ((c << sh) as i64) >> sh
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Call(..) => "calls",
        Op::StackAlloc { .. } => "private variables",
        Op::Barrier { .. } => "barriers",
        Op::WorkGroup { .. } => "work-group functions",
        Op::Printf(..) => "printf",
        Op::Switch(..) => "switch",
        Op::Ret(Some(_)) => "a value returned",
        Op::Unreachable => "unreachable",
        Op::AtomicRmw { .. }
        | Op::AtomicCmpXchg { .. }
        | Op::AtomicLoad { .. }
        | Op::AtomicStore { .. } => "atomics",
        Op::Memcpy { .. } | Op::Memset { .. } => "memcpy/memset",
        Op::InBounds { .. } => "in-bounds queries",
        Op::ToGeneric(_) | Op::FromGeneric(..) | Op::SpaceTest(..) | Op::GetFence(_) => {
            "generic pointers"
        }
        Op::Build(_)
        | Op::Extract(..)
        | Op::ExtractDyn(..)
        | Op::InsertDyn(..)
        | Op::Insert(..)
        | Op::Shuffle(..)
        | Op::Splat(_) => "vector values",
        Op::Bitcast(_) => "bitcasts",
        Op::IntToPtr(_) => "integer to pointer",
        _ => "an operation",
    }
}

/// The CFG facts the plan and the emitter ask for: successors, a topological order (the CFG
/// has no cycle), reachability between any two blocks, and immediate dominators.
pub struct Cfg {
    pub succ: Vec<Vec<Block>>,
    pub order: Vec<Block>,
    /// `reach[a][b]`: `b` is reachable from `a` through at least one edge.
    reach: Vec<Vec<bool>>,
    idom: Vec<Option<Block>>,
}

impl Cfg {
    /// The CFG of `f`, or an error where it has a cycle (a loop).
    fn new(f: &Function) -> Result<Cfg, String> {
        let succ = util::successors(f);
        let order = util::reverse_postorder(f);
        let n = f.blocks.len();
        let mut pos = vec![usize::MAX; n];
        for (k, b) in order.iter().enumerate() {
            pos[b.index()] = k;
        }
        for &b in &order {
            if succ[b.index()]
                .iter()
                .any(|s| pos[s.index()] <= pos[b.index()])
            {
                return Err("loops".into());
            }
        }
        // Reachability in reverse topological order: a block reaches its successors and
        // what they reach.
        let mut reach = vec![vec![false; n]; n];
        for &b in order.iter().rev() {
            let mut row = vec![false; n];
            for s in &succ[b.index()] {
                row[s.index()] = true;
                for (r, &x) in row.iter_mut().zip(&reach[s.index()]) {
                    *r |= x;
                }
            }
            reach[b.index()] = row;
        }
        let idom = util::dom_info(f).idom;
        Ok(Cfg {
            succ,
            order,
            reach,
            idom,
        })
    }

    /// Whether `to` is reachable from `from` through at least one edge.
    pub fn reaches(&self, from: Block, to: Block) -> bool {
        self.reach
            .get(from.index())
            .and_then(|r| r.get(to.index()))
            .copied()
            .unwrap_or(false)
    }

    /// Whether `a` dominates `b` (every path from the entry to `b` passes `a`).
    fn dominates(&self, a: Block, b: Block) -> bool {
        let mut x = b;
        for _ in 0..=self.idom.len() {
            if x == a {
                return true;
            }
            match self.idom.get(x.index()).copied().flatten() {
                Some(d) if d != x => x = d,
                _ => return false,
            }
        }
        false
    }

    /// Whether every path from the entry to a return passes through `b`.
    fn on_every_path(&self, b: Block) -> bool {
        // No exit is reachable from the entry once `b` is taken out.
        let n = self.succ.len();
        let mut seen = vec![false; n];
        let mut work = vec![Block(0)];
        while let Some(x) = work.pop() {
            if x == b || seen.get(x.index()).copied().unwrap_or(true) {
                continue;
            }
            seen[x.index()] = true;
            let s = &self.succ[x.index()];
            if s.is_empty() {
                return false;
            }
            work.extend(s.iter().copied());
        }
        true
    }
}

/// The builtins the vector code computes in line (see [`Plan::builtin`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bi {
    /// Integer min, max, clamp (`max(x, lo)` then `min(_, hi)`); whether unsigned.
    Min(bool),
    Max(bool),
    Clamp(bool),
    Sqrt,
    Floor,
    Ceil,
    Trunc,
    Fabs,
    /// `fma` and `mad` (the runtime computes `mad` fused too).
    Fma,
}
