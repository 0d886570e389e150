//! Pre-decoding: each IR function becomes a flat array of compact register-machine
//! instructions over dense `u64` slots (one per vector lane), with branch targets resolved
//! to instruction indices and block arguments turned into slot moves.

use crate::builtins::{self, Builtin};
use crate::ops::mask;
use crate::ptr::{self, Tag};
use oclc_ir::*;
use oclc_syntax::{Span, Symbol};

/// A decoded instruction. Register operands are slot indices relative to the frame base;
/// `info` fields index the function's side tables.
#[derive(Clone, Copy, Debug)]
pub enum I {
    Imm {
        d: u32,
        v: u64,
    },
    Splat {
        d: u32,
        s: u32,
        n: u32,
    },
    Copy {
        d: u32,
        s: u32,
        n: u32,
    },
    Add {
        w: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    Sub {
        w: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    Mul {
        w: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    And {
        d: u32,
        a: u32,
        b: u32,
    },
    Or {
        d: u32,
        a: u32,
        b: u32,
    },
    Xor {
        d: u32,
        a: u32,
        b: u32,
    },
    FAdd32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FSub32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FMul32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FDiv32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FAdd64 {
        d: u32,
        a: u32,
        b: u32,
    },
    FMul64 {
        d: u32,
        a: u32,
        b: u32,
    },
    /// Any binary operator over `n` lanes of `s`.
    Bin {
        op: BinOp,
        s: Scalar,
        n: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    /// Scalar integer comparison of width `w`.
    ICmp {
        op: CmpOp,
        w: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    Cmp {
        op: CmpOp,
        s: Scalar,
        n: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    /// Compare two integer slots and branch (a fused `cmp` + `cond_br`).
    BrICmp {
        op: CmpOp,
        w: u8,
        a: u32,
        b: u32,
        info: u32,
    },
    Un {
        op: UnOp,
        s: Scalar,
        n: u8,
        d: u32,
        a: u32,
    },
    Conv {
        op: ConvOp,
        from: Scalar,
        to: Scalar,
        n: u8,
        d: u32,
        a: u32,
    },
    Bitcast {
        d: u32,
        a: u32,
        info: u32,
    },
    ExtractDyn {
        n: u8,
        d: u32,
        v: u32,
        i: u32,
    },
    InsertDyn {
        n: u8,
        d: u32,
        x: u32,
        i: u32,
    },
    Select {
        n: u8,
        vc: bool,
        d: u32,
        c: u32,
        info: u32,
    },
    PtrAdd {
        d: u32,
        p: u32,
        o: u32,
    },
    /// `p + ext(i) * scale` (a fused `sext`/`zext`, `mul` or `shl` by a constant, and
    /// `ptradd`); `sw` is the width to sign-extend from, 0 for none.
    PtrIndex {
        sw: u8,
        scale: u16,
        d: u32,
        p: u32,
        i: u32,
    },
    PtrDiff {
        d: u32,
        a: u32,
        b: u32,
    },
    /// 1 when `len` bytes at `p` can be read and written without a fault, else 0.
    InBounds {
        d: u32,
        p: u32,
        len: u32,
    },
    Load4 {
        d: u32,
        p: u32,
    },
    Load8 {
        d: u32,
        p: u32,
    },
    Store4 {
        p: u32,
        v: u32,
    },
    Store8 {
        p: u32,
        v: u32,
    },
    Load {
        s: Scalar,
        n: u8,
        d: u32,
        p: u32,
    },
    Store {
        s: Scalar,
        n: u8,
        p: u32,
        v: u32,
    },
    Memcpy {
        dst: u32,
        src: u32,
        len: u32,
    },
    Memset {
        dst: u32,
        b: u32,
        len: u32,
    },
    FromGeneric {
        s: AddrSpace,
        d: u32,
        a: u32,
    },
    SpaceTest {
        s: AddrSpace,
        d: u32,
        a: u32,
    },
    GetFence {
        d: u32,
        a: u32,
    },
    StackAlloc {
        d: u32,
        info: u32,
    },
    Call {
        d: u32,
        info: u32,
    },
    Builtin {
        d: u32,
        info: u32,
    },
    Rmw {
        op: RmwOp,
        s: Scalar,
        d: u32,
        p: u32,
        v: u32,
    },
    CmpXchg {
        s: Scalar,
        d: u32,
        info: u32,
    },
    AtomicLoad {
        s: Scalar,
        d: u32,
        p: u32,
    },
    AtomicStore {
        s: Scalar,
        p: u32,
        v: u32,
    },
    WorkGroup {
        d: u32,
        info: u32,
    },
    Barrier {
        flags: u32,
    },
    WorkItem {
        q: WorkItemQuery,
        d: u32,
        dim: u32,
    },
    Printf {
        d: u32,
        info: u32,
    },
    Ret {
        v: u32,
        n: u32,
    },
    Br {
        e: u32,
    },
    CondBr {
        c: u32,
        t: u32,
        f: u32,
    },
    Switch {
        x: u32,
        info: u32,
    },
    Unreachable,
}

/// A resolved branch: target instruction and the slot moves that pass block arguments.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub pc: u32,
    pub mv: u32,
    pub n: u32,
}

#[derive(Clone, Debug)]
pub struct CallInfo {
    pub func: u32,
    /// (source slot, lane count) per argument.
    pub args: Vec<(u32, u32)>,
    pub ret_n: u32,
}

#[derive(Clone, Debug)]
pub struct BuiltinCall {
    pub imp: Builtin,
    pub name: String,
    pub args: Vec<(u32, Type)>,
    pub ret: Option<Type>,
}

#[derive(Clone, Debug)]
pub struct PrintfInfo {
    pub fmt: u32,
    pub args: Vec<(u32, Type)>,
}

#[derive(Clone, Debug)]
pub struct WgInfo {
    pub op: WgOp,
    pub s: Scalar,
    pub value: u32,
    pub ids: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct SwitchInfo {
    pub cases: Vec<(u64, u32)>,
    pub default: u32,
}

#[derive(Clone, Debug, Default)]
pub struct DFunc {
    pub name: String,
    pub code: Vec<I>,
    pub spans: Vec<Span>,
    pub nregs: u32,
    /// Slot and lane count of each parameter.
    pub params: Vec<(u32, u32)>,
    pub moves: Vec<(u32, u32)>,
    pub edges: Vec<Edge>,
    pub calls: Vec<CallInfo>,
    pub builtins: Vec<BuiltinCall>,
    pub printfs: Vec<PrintfInfo>,
    pub allocs: Vec<(u32, u32, Symbol)>,
    pub bitcasts: Vec<(Type, Type)>,
    /// (pointer, expected, desired) slots of compare-exchanges.
    pub cmpxchgs: Vec<(u32, u32, u32)>,
    /// (a, b) slots of selects.
    pub selects: Vec<(u32, u32)>,
    /// Fused compare-branches: (true edge, false edge).
    pub brcmps: Vec<(u32, u32)>,
    pub switches: Vec<SwitchInfo>,
    /// Work-group collectives: operation, element type, value slot, local-id slots.
    pub wgs: Vec<WgInfo>,
    /// Whether this function or a callee contains a barrier.
    pub has_barrier: bool,
}

/// A decoded module.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub funcs: Vec<DFunc>,
}

fn lanes_of(t: Type) -> u32 {
    t.lanes()
}

fn elem_of(t: Type) -> Scalar {
    t.elem().unwrap_or(Scalar::I64)
}

/// Decodes every function of a verified module.
pub fn decode_module(m: &Module) -> Program {
    // Position of each kernel-scope local among its kernel's locals (its allocation id).
    let mut local_index = vec![0u32; m.locals.len()];
    let mut counts = vec![0u32; m.functions.len()];
    for (i, l) in m.locals.iter().enumerate() {
        if let Some(c) = counts.get_mut(l.kernel.index()) {
            local_index[i] = *c;
            *c += 1;
        }
    }
    let mut funcs: Vec<DFunc> = m
        .functions
        .iter()
        .map(|f| decode_function(m, f, &local_index))
        .collect();
    // Propagate `has_barrier` through calls (the call graph is acyclic).
    let callees: Vec<Vec<usize>> = funcs
        .iter()
        .map(|f| f.calls.iter().map(|c| c.func as usize).collect())
        .collect();
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds <= funcs.len() {
        changed = false;
        rounds += 1;
        for i in 0..funcs.len() {
            if !funcs[i].has_barrier
                && callees[i]
                    .iter()
                    .any(|&c| funcs.get(c).is_some_and(|f| f.has_barrier))
            {
                funcs[i].has_barrier = true;
                changed = true;
            }
        }
    }
    Program { funcs }
}

struct Dec<'a> {
    f: &'a Function,
    slot: Vec<u32>,
    out: DFunc,
    /// Edges whose `pc` still holds a block index.
    pending_edges: Vec<usize>,
    /// For blocks that only branch on (no parameters, no other instructions): that branch.
    thread: Vec<Option<BlockCall>>,
    /// The block emitted after the current one (a `br` there with no moves falls through).
    next_in_layout: Option<Block>,
}

impl Dec<'_> {
    fn s(&self, v: Value) -> u32 {
        self.slot.get(v.index()).copied().unwrap_or(0)
    }
    fn t(&self, v: Value) -> Type {
        self.f.value_type(v).unwrap_or(Type::I64)
    }
    fn emit(&mut self, i: I, span: Span) {
        self.out.code.push(i);
        self.out.spans.push(span);
    }
    fn temp(&mut self) -> u32 {
        self.out.nregs += 1;
        self.out.nregs - 1
    }
    fn edge(&mut self, bc: &BlockCall) -> u32 {
        let mut bc = bc.clone();
        for _ in 0..8 {
            match self.thread.get(bc.block.index()) {
                Some(Some(t)) if bc.args.is_empty() && t.block != bc.block => bc = t.clone(),
                _ => break,
            }
        }
        self.edge_to(&bc)
    }

    fn edge_to(&mut self, bc: &BlockCall) -> u32 {
        let params = self.f.params_of(bc.block);
        let mut pairs = Vec::new();
        for (p, a) in params.iter().zip(&bc.args) {
            let n = lanes_of(self.t(*p));
            let (dp, sa) = (self.s(*p), self.s(*a));
            for k in 0..n {
                if dp + k != sa + k {
                    pairs.push((dp + k, sa + k));
                }
            }
        }
        let conflict = pairs
            .iter()
            .enumerate()
            .any(|(i, (d, _))| pairs[i + 1..].iter().any(|(_, s)| s == d));
        let mv = self.out.moves.len() as u32;
        if conflict {
            let temps: Vec<u32> = pairs.iter().map(|_| self.temp()).collect();
            for ((_, s), t) in pairs.iter().zip(&temps) {
                self.out.moves.push((*t, *s));
            }
            for ((d, _), t) in pairs.iter().zip(&temps) {
                self.out.moves.push((*d, *t));
            }
        } else {
            self.out.moves.extend_from_slice(&pairs);
        }
        let n = self.out.moves.len() as u32 - mv;
        self.out.edges.push(Edge {
            pc: bc.block.0,
            mv,
            n,
        });
        self.pending_edges.push(self.out.edges.len() - 1);
        self.out.edges.len() as u32 - 1
    }
}

fn decode_function(m: &Module, f: &Function, local_index: &[u32]) -> DFunc {
    let mut slot = Vec::with_capacity(f.values.len());
    let mut next = 0u32;
    for v in &f.values {
        slot.push(next);
        next += lanes_of(v.ty);
    }
    let mut d = Dec {
        f,
        slot,
        out: DFunc {
            name: f.name.clone(),
            nregs: next,
            ..DFunc::default()
        },
        pending_edges: Vec::new(),
        thread: Vec::new(),
        next_in_layout: None,
    };
    d.out.params = f
        .params_of(Block(0))
        .iter()
        .map(|v| (d.s(*v), lanes_of(d.t(*v))))
        .collect();
    let mut uses = vec![0u32; f.values.len()];
    for i in &f.insts {
        i.op.for_each_operand(|v| {
            if let Some(u) = uses.get_mut(v.index()) {
                *u += 1;
            }
        });
    }
    let mut skip = vec![false; f.insts.len()];
    // Constants and addresses go to a prologue run once per call.
    for bd in &f.blocks {
        for i in &bd.insts {
            if let Some(inst) = f.insts.get(i.index())
                && matches!(
                    inst.op,
                    Op::Const(_) | Op::Undef | Op::GlobalAddr(_) | Op::LocalAddr(_)
                )
            {
                decode_inst(m, &mut d, inst, local_index);
                skip[i.index()] = true;
            }
        }
    }
    let fused = plan_ptr_index(f, &uses, &mut skip);
    // Blocks that only branch on are threaded through.
    d.thread = f
        .blocks
        .iter()
        .map(|bd| {
            if !bd.params.is_empty() {
                return None;
            }
            let mut rest = bd
                .insts
                .iter()
                .filter(|i| !skip.get(i.index()).copied().unwrap_or(false));
            match (
                rest.next().and_then(|i| f.insts.get(i.index())),
                rest.next(),
            ) {
                (Some(InstData { op: Op::Br(t), .. }), None) => Some(t.clone()),
                _ => None,
            }
        })
        .collect();
    let order = layout(f, &d.thread);
    let mut block_pc = vec![0u32; f.blocks.len()];
    for (oi, &bi) in order.iter().enumerate() {
        let Some(bd) = f.blocks.get(bi) else { continue };
        d.next_in_layout = order.get(oi + 1).map(|b| Block(*b as u32));
        block_pc[bi] = d.out.code.len() as u32;
        let mut k = 0;
        while k < bd.insts.len() {
            let Some(inst) = f.insts.get(bd.insts[k].index()) else {
                break;
            };
            if skip.get(bd.insts[k].index()).copied().unwrap_or(false) {
                k += 1;
                continue;
            }
            if let Some(&(sw, scale, p, i)) = fused.get(&bd.insts[k].index()) {
                let rd = inst.result.map_or(0, |r| d.s(r));
                let (p, i) = (d.s(p), d.s(i));
                d.emit(
                    I::PtrIndex {
                        sw,
                        scale,
                        d: rd,
                        p,
                        i,
                    },
                    inst.span,
                );
                k += 1;
                continue;
            }
            // Fuse `cmp` + `cond_br` on its result when the compare has no other use here.
            if let (Op::Cmp(op, a, b), Some(r)) = (&inst.op, inst.result) {
                let next = bd.insts.get(k + 1).and_then(|i| f.insts.get(i.index()));
                if let Some(InstData {
                    op: Op::CondBr(c, t, e),
                    span,
                    ..
                }) = next
                {
                    let ty = d.t(*a);
                    let scalar_int = matches!(ty, Type::Scalar(s) if s.is_int()) || ty.is_ptr();
                    if *c == r && scalar_int && !op.is_float() && uses.get(r.index()) == Some(&1) {
                        let w = elem_of(ty).bits() as u8;
                        let (te, ee) = (d.edge(t), d.edge(e));
                        let info = d.out.brcmps.len() as u32;
                        d.out.brcmps.push((te, ee));
                        let (sa, sb) = (d.s(*a), d.s(*b));
                        d.emit(
                            I::BrICmp {
                                op: *op,
                                w,
                                a: sa,
                                b: sb,
                                info,
                            },
                            *span,
                        );
                        k += 2;
                        continue;
                    }
                }
            }
            decode_inst(m, &mut d, inst, local_index);
            k += 1;
        }
    }
    for &e in &d.pending_edges {
        if let Some(edge) = d.out.edges.get_mut(e) {
            edge.pc = block_pc.get(edge.pc as usize).copied().unwrap_or(0);
        }
    }
    d.out
}

/// Block emission order: traces that follow unconditional branches (through threaded
/// blocks), so a `br` to the next block becomes a fall-through.
fn layout(f: &Function, thread: &[Option<BlockCall>]) -> Vec<usize> {
    let n = f.blocks.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let target = |b: usize| -> Option<usize> {
        let last = f.blocks.get(b)?.insts.last()?;
        let Op::Br(t) = &f.insts.get(last.index())?.op else {
            return None;
        };
        let mut t = t;
        for _ in 0..8 {
            match thread.get(t.block.index()) {
                Some(Some(next)) if t.args.is_empty() && next.block != t.block => t = next,
                _ => break,
            }
        }
        Some(t.block.index())
    };
    for start in 0..n {
        let mut b = start;
        while b < n && !placed[b] {
            placed[b] = true;
            order.push(b);
            match target(b) {
                Some(c) if c != 0 => b = c,
                _ => break,
            }
        }
    }
    order
}

/// Finds `ptradd p, (ext(i) * const)` chains whose intermediate values have no other use;
/// marks the intermediate instructions skipped and returns, per `ptradd`, (sign-extend
/// width, scale, pointer, index).
fn plan_ptr_index(
    f: &Function,
    uses: &[u32],
    skip: &mut [bool],
) -> std::collections::HashMap<usize, (u8, u16, Value, Value)> {
    let def = |v: Value| match f.values.get(v.index()).map(|d| d.def) {
        Some(ValueDef::Inst(i)) => f.insts.get(i.index()).map(|d| (i, d)),
        _ => None,
    };
    let const_of = |v: Value| match def(v) {
        Some((
            _,
            InstData {
                op: Op::Const(Const::Int(k)),
                ..
            },
        )) => Some(*k),
        _ => None,
    };
    let single = |v: Value| uses.get(v.index()) == Some(&1);
    let mut out = std::collections::HashMap::new();
    for bd in &f.blocks {
        for pi in &bd.insts {
            let Some(InstData {
                op: Op::PtrAdd(p, o),
                ..
            }) = f.insts.get(pi.index())
            else {
                continue;
            };
            let mut dead = Vec::new();
            let (mut idx, mut scale) = (*o, 1u64);
            if single(*o)
                && let Some((mi, md)) = def(*o)
            {
                let found = match &md.op {
                    Op::Bin(BinOp::Mul, x, c) if const_of(*c).is_some() => {
                        const_of(*c).map(|k| (*x, k))
                    }
                    Op::Bin(BinOp::Mul, c, x) => const_of(*c).map(|k| (*x, k)),
                    Op::Bin(BinOp::Shl, x, c) => {
                        const_of(*c).filter(|k| *k < 16).map(|k| (*x, 1u64 << k))
                    }
                    _ => None,
                };
                if let Some((x, k)) = found.filter(|(_, k)| *k >= 1 && *k <= u16::MAX as u64) {
                    idx = x;
                    scale = k;
                    dead.push(mi);
                }
            }
            let mut sw = 0u8;
            if single(idx)
                && let Some((ci, cd)) = def(idx)
                && let Op::Conv(op @ (ConvOp::SExt | ConvOp::ZExt), y) = &cd.op
                && let Some(Type::Scalar(ys)) = f.value_type(*y)
                && ys.is_int()
                && ys.bits() >= 8
            {
                if *op == ConvOp::SExt {
                    sw = ys.bits() as u8;
                }
                idx = *y;
                dead.push(ci);
            }
            if dead.is_empty() {
                continue;
            }
            for i in dead {
                if let Some(s) = skip.get_mut(i.index()) {
                    *s = true;
                }
            }
            out.insert(pi.index(), (sw, scale as u16, *p, idx));
        }
    }
    out
}

fn decode_inst(m: &Module, d: &mut Dec, inst: &InstData, local_index: &[u32]) {
    let span = inst.span;
    let rd = inst.result.map(|r| d.s(r)).unwrap_or(0);
    let rty = inst.result.map(|r| d.t(r)).unwrap_or(Type::I64);
    let n = lanes_of(rty);
    match &inst.op {
        Op::Const(c) => {
            let s = elem_of(rty);
            let v = match c {
                Const::Int(x) => x & mask(s.bits()),
                Const::Float(x) => crate::ops::fput(s, *x),
                Const::Null => 0,
            };
            d.emit(I::Imm { d: rd, v }, span);
            if n > 1 {
                d.emit(I::Splat { d: rd, s: rd, n }, span);
            }
        }
        Op::Undef => {
            d.emit(I::Imm { d: rd, v: 0 }, span);
            if n > 1 {
                d.emit(I::Splat { d: rd, s: rd, n }, span);
            }
        }
        Op::Bin(op, a, b) => {
            let (a, b) = (d.s(*a), d.s(*b));
            let s = elem_of(rty);
            let w = s.bits() as u8;
            let i = match (n, op, s) {
                (1, BinOp::Add, _) if s.is_int() => I::Add { w, d: rd, a, b },
                (1, BinOp::Sub, _) if s.is_int() => I::Sub { w, d: rd, a, b },
                (1, BinOp::Mul, _) if s.is_int() => I::Mul { w, d: rd, a, b },
                (1, BinOp::And, _) => I::And { d: rd, a, b },
                (1, BinOp::Or, _) => I::Or { d: rd, a, b },
                (1, BinOp::Xor, _) => I::Xor { d: rd, a, b },
                (1, BinOp::FAdd, Scalar::F32) => I::FAdd32 { d: rd, a, b },
                (1, BinOp::FSub, Scalar::F32) => I::FSub32 { d: rd, a, b },
                (1, BinOp::FMul, Scalar::F32) => I::FMul32 { d: rd, a, b },
                (1, BinOp::FDiv, Scalar::F32) => I::FDiv32 { d: rd, a, b },
                (1, BinOp::FAdd, Scalar::F64) => I::FAdd64 { d: rd, a, b },
                (1, BinOp::FMul, Scalar::F64) => I::FMul64 { d: rd, a, b },
                _ => I::Bin {
                    op: *op,
                    s,
                    n: n as u8,
                    d: rd,
                    a,
                    b,
                },
            };
            d.emit(i, span);
        }
        Op::Un(op, a) => {
            let a = d.s(*a);
            d.emit(
                I::Un {
                    op: *op,
                    s: elem_of(rty),
                    n: n as u8,
                    d: rd,
                    a,
                },
                span,
            );
        }
        Op::Cmp(op, a, b) => {
            let ty = d.t(*a);
            let s = elem_of(ty);
            let (a, b) = (d.s(*a), d.s(*b));
            if n == 1 && !op.is_float() {
                d.emit(
                    I::ICmp {
                        op: *op,
                        w: s.bits() as u8,
                        d: rd,
                        a,
                        b,
                    },
                    span,
                );
            } else {
                d.emit(
                    I::Cmp {
                        op: *op,
                        s,
                        n: n as u8,
                        d: rd,
                        a,
                        b,
                    },
                    span,
                );
            }
        }
        Op::Conv(op, a) => {
            let from = elem_of(d.t(*a));
            let a = d.s(*a);
            d.emit(
                I::Conv {
                    op: *op,
                    from,
                    to: elem_of(rty),
                    n: n as u8,
                    d: rd,
                    a,
                },
                span,
            );
        }
        Op::Bitcast(a) => {
            let from = d.t(*a);
            let a = d.s(*a);
            let info = d.out.bitcasts.len() as u32;
            d.out.bitcasts.push((from, rty));
            d.emit(I::Bitcast { d: rd, a, info }, span);
        }
        Op::IntToPtr(a) | Op::ToGeneric(a) => {
            let a = d.s(*a);
            d.emit(I::Copy { d: rd, s: a, n: 1 }, span);
        }
        Op::Splat(a) => {
            let a = d.s(*a);
            d.emit(I::Splat { d: rd, s: a, n }, span);
        }
        Op::Build(vs) => {
            for (k, v) in vs.iter().enumerate() {
                let s = d.s(*v);
                d.emit(
                    I::Copy {
                        d: rd + k as u32,
                        s,
                        n: 1,
                    },
                    span,
                );
            }
        }
        Op::Extract(v, lane) => {
            let s = d.s(*v) + *lane as u32;
            d.emit(I::Copy { d: rd, s, n: 1 }, span);
        }
        Op::InsertDyn(v, x, i) => {
            let (v, x, i) = (d.s(*v), d.s(*x), d.s(*i));
            d.emit(I::Copy { d: rd, s: v, n }, span);
            d.emit(
                I::InsertDyn {
                    n: n as u8,
                    d: rd,
                    x,
                    i,
                },
                span,
            );
        }
        Op::ExtractDyn(v, i) => {
            let vn = lanes_of(d.t(*v)) as u8;
            let (v, i) = (d.s(*v), d.s(*i));
            d.emit(I::ExtractDyn { n: vn, d: rd, v, i }, span);
        }
        Op::Insert(v, x, lane) => {
            let (v, x) = (d.s(*v), d.s(*x));
            d.emit(I::Copy { d: rd, s: v, n }, span);
            d.emit(
                I::Copy {
                    d: rd + *lane as u32,
                    s: x,
                    n: 1,
                },
                span,
            );
        }
        Op::Shuffle(v, mask) => {
            let v = d.s(*v);
            for (k, l) in mask.iter().enumerate() {
                d.emit(
                    I::Copy {
                        d: rd + k as u32,
                        s: v + *l as u32,
                        n: 1,
                    },
                    span,
                );
            }
        }
        Op::Select(c, a, b) => {
            let vc = lanes_of(d.t(*c)) > 1;
            let (c, a, b) = (d.s(*c), d.s(*a), d.s(*b));
            let info = d.out.selects.len() as u32;
            d.out.selects.push((a, b));
            d.emit(
                I::Select {
                    n: n as u8,
                    vc,
                    d: rd,
                    c,
                    info,
                },
                span,
            );
        }
        Op::PtrAdd(p, o) => {
            let (p, o) = (d.s(*p), d.s(*o));
            d.emit(I::PtrAdd { d: rd, p, o }, span);
        }
        Op::PtrDiff(a, b) => {
            let (a, b) = (d.s(*a), d.s(*b));
            d.emit(I::PtrDiff { d: rd, a, b }, span);
        }
        Op::InBounds { ptr, len } => {
            let (p, len) = (d.s(*ptr), d.s(*len));
            d.emit(I::InBounds { d: rd, p, len }, span);
        }
        Op::Load(p) => {
            let p = d.s(*p);
            let i = match rty {
                Type::Ptr(_) => I::Load8 { d: rd, p },
                Type::Scalar(s) if s.bits() == 32 => I::Load4 { d: rd, p },
                Type::Scalar(s) if s.bits() == 64 => I::Load8 { d: rd, p },
                t => I::Load {
                    s: elem_of(t),
                    n: n as u8,
                    d: rd,
                    p,
                },
            };
            d.emit(i, span);
        }
        Op::Store { ptr, value } => {
            let vt = d.t(*value);
            let (p, v) = (d.s(*ptr), d.s(*value));
            let i = match vt {
                Type::Ptr(_) => I::Store8 { p, v },
                Type::Scalar(s) if s.bits() == 32 => I::Store4 { p, v },
                Type::Scalar(s) if s.bits() == 64 => I::Store8 { p, v },
                t => I::Store {
                    s: elem_of(t),
                    n: lanes_of(t) as u8,
                    p,
                    v,
                },
            };
            d.emit(i, span);
        }
        Op::Memcpy { dst, src, len } => {
            let (dst, src, len) = (d.s(*dst), d.s(*src), d.s(*len));
            d.emit(I::Memcpy { dst, src, len }, span);
        }
        Op::Memset { dst, byte, len } => {
            let (dst, b, len) = (d.s(*dst), d.s(*byte), d.s(*len));
            d.emit(I::Memset { dst, b, len }, span);
        }
        Op::FromGeneric(a, s) => {
            let a = d.s(*a);
            d.emit(I::FromGeneric { s: *s, d: rd, a }, span);
        }
        Op::SpaceTest(a, s) => {
            let a = d.s(*a);
            d.emit(I::SpaceTest { s: *s, d: rd, a }, span);
        }
        Op::GetFence(a) => {
            let a = d.s(*a);
            d.emit(I::GetFence { d: rd, a }, span);
        }
        Op::StackAlloc { size, align, name } => {
            let info = d.out.allocs.len() as u32;
            let label = if name.as_str().is_empty() {
                Symbol::intern("a temporary")
            } else {
                Symbol::intern(&format!("variable `{}`", name.as_str()))
            };
            d.out.allocs.push((*size, *align, label));
            d.emit(I::StackAlloc { d: rd, info }, span);
        }
        Op::GlobalAddr(g) => {
            let tag = match m.globals.get(g.index()).map(|g| g.space) {
                Some(AddrSpace::Constant) => Tag::Constant,
                _ => Tag::Global,
            };
            d.emit(
                I::Imm {
                    d: rd,
                    v: ptr::make(tag, g.0, 0),
                },
                span,
            );
        }
        Op::LocalAddr(l) => {
            let idx = local_index.get(l.index()).copied().unwrap_or(u32::MAX);
            d.emit(
                I::Imm {
                    d: rd,
                    v: ptr::make(Tag::Local, idx, 0),
                },
                span,
            );
        }
        Op::Call(fid, args) => {
            let args = args.iter().map(|a| (d.s(*a), lanes_of(d.t(*a)))).collect();
            let ret_n = inst.result.map_or(0, |_| n);
            let info = d.out.calls.len() as u32;
            d.out.calls.push(CallInfo {
                func: fid.0,
                args,
                ret_n,
            });
            d.emit(I::Call { d: rd, info }, span);
        }
        Op::CallBuiltin(b, args) => {
            let decl = m.builtins.get(b.index());
            let name = decl.map_or(String::new(), |b| b.name.clone());
            let imp = decl.map_or(Builtin::Unsupported, builtins::resolve);
            let args = args.iter().map(|a| (d.s(*a), d.t(*a))).collect();
            let info = d.out.builtins.len() as u32;
            d.out.builtins.push(BuiltinCall {
                imp,
                name,
                args,
                ret: inst.result.map(|_| rty),
            });
            d.emit(I::Builtin { d: rd, info }, span);
        }
        Op::AtomicRmw { op, ptr, value, .. } => {
            let s = elem_of(d.t(*value));
            let (p, v) = (d.s(*ptr), d.s(*value));
            d.emit(
                I::Rmw {
                    op: *op,
                    s,
                    d: rd,
                    p,
                    v,
                },
                span,
            );
        }
        Op::AtomicCmpXchg {
            ptr,
            expected,
            desired,
            ..
        } => {
            let s = elem_of(d.t(*desired));
            let info = d.out.cmpxchgs.len() as u32;
            let t = (d.s(*ptr), d.s(*expected), d.s(*desired));
            d.out.cmpxchgs.push(t);
            d.emit(I::CmpXchg { s, d: rd, info }, span);
        }
        Op::AtomicLoad { ptr, .. } => {
            let p = d.s(*ptr);
            d.emit(
                I::AtomicLoad {
                    s: elem_of(rty),
                    d: rd,
                    p,
                },
                span,
            );
        }
        Op::AtomicStore { ptr, value, .. } => {
            let s = elem_of(d.t(*value));
            let (p, v) = (d.s(*ptr), d.s(*value));
            d.emit(I::AtomicStore { s, p, v }, span);
        }
        Op::WorkGroup { op, value, ids } => {
            d.out.has_barrier = true;
            let s = elem_of(d.t(*value));
            let info = d.out.wgs.len() as u32;
            let w = WgInfo {
                op: *op,
                s,
                value: d.s(*value),
                ids: ids.iter().map(|v| d.s(*v)).collect(),
            };
            d.out.wgs.push(w);
            d.emit(I::WorkGroup { d: rd, info }, span);
        }
        Op::Barrier { flags, .. } => {
            d.out.has_barrier = true;
            let flags = d.s(*flags);
            d.emit(I::Barrier { flags }, span);
        }
        Op::Fence { .. } => {}
        Op::WorkItem(q, dim) => {
            let dim = dim.map_or(u32::MAX, |v| d.s(v));
            d.emit(I::WorkItem { q: *q, d: rd, dim }, span);
        }
        Op::Printf(fmt, args) => {
            let fmt = d.s(*fmt);
            let args = args.iter().map(|a| (d.s(*a), d.t(*a))).collect();
            let info = d.out.printfs.len() as u32;
            d.out.printfs.push(PrintfInfo { fmt, args });
            d.emit(I::Printf { d: rd, info }, span);
        }
        Op::Ret(v) => {
            let (v, n) = match v {
                Some(v) => (d.s(*v), lanes_of(d.t(*v))),
                None => (u32::MAX, 0),
            };
            d.emit(I::Ret { v, n }, span);
        }
        Op::Br(t) => {
            let e = d.edge(t);
            let falls_through = d
                .out
                .edges
                .get(e as usize)
                .is_some_and(|edge| edge.n == 0 && Some(Block(edge.pc)) == d.next_in_layout);
            if !falls_through {
                d.emit(I::Br { e }, span);
            }
        }
        Op::CondBr(c, t, e) => {
            let c = d.s(*c);
            let (t, f) = (d.edge(t), d.edge(e));
            d.emit(I::CondBr { c, t, f }, span);
        }
        Op::Switch(x, cases, def) => {
            let m = mask(elem_of(d.t(*x)).bits());
            let x = d.s(*x);
            let cases = cases.iter().map(|(k, bc)| (*k & m, d.edge(bc))).collect();
            let default = d.edge(def);
            let info = d.out.switches.len() as u32;
            d.out.switches.push(SwitchInfo { cases, default });
            d.emit(I::Switch { x, info }, span);
        }
        Op::Unreachable => d.emit(I::Unreachable, span),
    }
}
