//! The interpreter: runs one work-item over decoded code until it returns or reaches a
//! barrier. A work-item is an explicit frame stack over one register vector, so it can be
//! suspended at a barrier without a thread.

use crate::builtins::{self, CallFault};
use crate::decode::{DFunc, I, Program};
use crate::error::{CheckKind, RuntimeError};
use crate::memory::{Arena, GlobalMem, Mem};
use crate::ops::{self, mask, sext};
use crate::printf::PrintfBuffer;
use crate::ptr;
use crate::races::{GlobalRaces, GroupRace, Race, Races};
pub use oclc_ir::fault::{Fault, fault_message, space_label};
use oclc_ir::{AddrSpace, BinOp, RmwOp, Scalar, Type, WorkItemQuery};
use oclc_syntax::{Span, Symbol};

/// The ND-range of a launch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nd {
    pub dims: u32,
    pub global: [u64; 3],
    /// The enqueued work-group size.
    pub local: [u64; 3],
    pub offset: [u64; 3],
    pub groups: [u64; 3],
}

/// A kernel argument as the work-item sees it.
#[derive(Clone, Debug)]
pub enum BoundArg {
    /// Lane values for the parameter's slots (scalars, vectors, pointers).
    Lanes(Vec<u64>),
    /// A by-value aggregate: copied into private memory of each work-item.
    Aggregate {
        bytes: Vec<u8>,
        align: u32,
        label: Symbol,
    },
}

/// Everything shared by the work-groups of one launch.
pub struct LaunchCtx<'a> {
    pub prog: &'a Program,
    pub kernel: u32,
    pub globals: &'a [GlobalMem],
    /// The launch's SVM allocations by address (see [`crate::memory::SvmRange`]).
    pub svm: &'a [crate::memory::SvmRange],
    pub nd: Nd,
    pub max_steps: u64,
    pub args: &'a [BoundArg],
    /// Local allocations of each work-group: (size, align, label).
    pub local_layout: &'a [(usize, usize, Symbol)],
    pub races: bool,
    /// Cross-group global race tracking (with `races`).
    pub group_races: Option<&'a GlobalRaces>,
    /// Linear id of each work-group is `group_linear(group id)`; used for race messages.
    pub groups_linear: fn([u64; 3], [u64; 3]) -> u64,
    /// The launch's printf buffer, shared by its work-groups.
    pub printf: &'a PrintfBuffer,
    /// Whether native code may run work-items as SIMD lanes (`OCLC_CPU_VECTOR=off` not set).
    pub vector: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    func: u32,
    pc: u32,
    base: u32,
    ret_d: u32,
    ret_n: u32,
    mark: (usize, usize),
}

/// Where a work-item stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Done,
    /// Waiting at the barrier instruction `pc` of function `func`.
    Barrier {
        func: u32,
        pc: u32,
    },
}

/// One work-item's state.
#[derive(Default)]
pub struct Item {
    regs: Vec<u64>,
    frames: Vec<Frame>,
    cur: Frame,
    private: Arena,
    buf: Vec<u8>,
    pub lid: [u64; 3],
    pub gid: [u64; 3],
    /// Linear local id.
    pub index: u32,
    steps: u64,
    pub stop: Option<Stop>,
    /// This item's contribution to a pending work-group collective: value and local ids.
    pub wg_in: Option<(u64, [u64; 3])>,
    /// The collective's result for this item, set by the scheduler before it resumes.
    pub wg_out: Option<u64>,
}

/// One work-group's state.
#[derive(Default)]
pub struct Group {
    pub id: [u64; 3],
    pub size: [u64; 3],
    pub local: Arena,
    pub out: String,
    pub races: Races,
}

/// The ids of a work-group the interpreter reads while the group's memory is borrowed.
struct GroupView {
    id: [u64; 3],
    size: [u64; 3],
}

/// Most bytes of private memory one work-item may use.
pub(crate) const PRIVATE_LIMIT: usize = 64 << 20;
/// Deepest call nesting (OpenCL C has no recursion; this bounds forged IR).
const MAX_DEPTH: usize = 4096;

impl Item {
    /// Resets the item to the start of the kernel with its arguments.
    pub fn start(&mut self, ctx: &LaunchCtx, lid: [u64; 3], gid: [u64; 3], index: u32) {
        self.lid = lid;
        self.gid = gid;
        self.index = index;
        self.steps = 0;
        self.stop = None;
        self.wg_in = None;
        self.wg_out = None;
        self.frames.clear();
        self.private.clear();
        self.private.key = ptr::PrivKey::new(index, ctx.nd.local.iter().product());
        self.cur = Frame {
            func: ctx.kernel,
            ..Frame::default()
        };
        let Some(f) = ctx.prog.funcs.get(ctx.kernel as usize) else {
            return;
        };
        self.regs.clear();
        self.regs.resize(f.nregs as usize, 0);
        for (arg, &(slot, n)) in ctx.args.iter().zip(&f.params) {
            let slot = slot as usize;
            match arg {
                BoundArg::Lanes(v) => {
                    for (k, x) in v.iter().take(n as usize).enumerate() {
                        if let Some(r) = self.regs.get_mut(slot + k) {
                            *r = *x;
                        }
                    }
                }
                BoundArg::Aggregate {
                    bytes,
                    align,
                    label,
                } => {
                    let id = self.private.alloc(bytes.len(), *align as usize, *label);
                    if let Some(al) = self.private.allocs.get(id).copied()
                        && let Some(dst) = self.private.bytes.get_mut(al.base..al.base + al.size)
                    {
                        dst.copy_from_slice(bytes);
                    }
                    if let Some(r) = self.regs.get_mut(slot) {
                        *r = self.private.key.make(id as u32, 0);
                    }
                }
            }
        }
    }
}

enum Action {
    Call {
        d: u32,
        info: u32,
    },
    Ret {
        v: u32,
        n: u32,
    },
    /// Suspends at the barrier (or collective) at this pc.
    Barrier(usize),
    Fail(CheckKind, String),
}

/// A memory access as alignment messages describe it.
pub(crate) struct Access<'s> {
    pub(crate) len: usize,
    /// The alignment it needs.
    pub(crate) align: u64,
    pub(crate) write: bool,
    /// "read", "write", "atomic operation", ...
    pub(crate) what: &'s str,
    /// The lane count of a vector access; 0 for others.
    pub(crate) vector: u32,
}

/// The message for an access at `p` that lacks the alignment it needs; an access that is
/// invalid anyway (out of bounds, NULL, ...) gets that fault's message instead.
#[cold]
#[inline(never)]
pub(crate) fn misaligned(
    mem: &mut Mem,
    p: u64,
    acc: Access,
    owner_ids: &dyn Fn(u32) -> Option<[u64; 3]>,
) -> (CheckKind, String) {
    let Access {
        len,
        align,
        write,
        what,
        vector,
    } = acc;
    if let Err(f) = mem.place(p, len, write) {
        return fault_message(&f, what, owner_ids);
    }
    let space = ptr::tag(p).map_or(AddrSpace::Global, |t| t.space());
    // A raw (SVM) address: its allocation and offset in it.
    let svm = ptr::raw(p).and_then(|a| mem.svm_at(a).ok());
    let name = match ptr::tag(p) {
        _ if svm.is_some() => svm
            .and_then(|(r, _)| r.id.and_then(|id| mem.globals.get(id)))
            .map(|g| g.name),
        Some(ptr::Tag::Local) => mem.local.allocs.get(ptr::alloc(p)).map(|a| a.name),
        Some(ptr::Tag::Private) => mem
            .private
            .allocs
            .get(mem.private.key.id(p))
            .map(|a| a.name),
        _ => mem.globals.get(ptr::alloc(p)).map(|g| g.name),
    }
    .map_or_else(|| "memory".to_string(), |s| s.as_str().to_string());
    let why = if vector > 1 {
        format!(
            "a {vector}-element vector requires {align}-byte alignment; vload{vector}/vstore{vector} need only element alignment"
        )
    } else {
        format!("requires {align}-byte alignment")
    };
    (
        CheckKind::Misaligned,
        format!(
            "misaligned {what} of {len} bytes at offset {} of {} {name} ({why})",
            svm.map_or(ptr::offset(p) as i64, |(_, off)| off),
            space_label(space)
        ),
    )
}

pub(crate) fn rmw(op: RmwOp, s: Scalar, old: u64, v: u64) -> u64 {
    let w = s.bits();
    let m = mask(w);
    match op {
        RmwOp::Add => old.wrapping_add(v) & m,
        RmwOp::Sub => old.wrapping_sub(v) & m,
        RmwOp::Xchg => v,
        RmwOp::And => old & v,
        RmwOp::Or => old | v,
        RmwOp::Xor => old ^ v,
        RmwOp::SMin => {
            if sext(v, w) < sext(old, w) {
                v
            } else {
                old
            }
        }
        RmwOp::SMax => {
            if sext(v, w) > sext(old, w) {
                v
            } else {
                old
            }
        }
        RmwOp::UMin => old.min(v),
        RmwOp::UMax => old.max(v),
        RmwOp::FAdd => ops::bin(BinOp::FAdd, s, old, v),
    }
}

/// Packs lanes of type `t` into little-endian bytes (3-lane vectors take 4 lanes' room).
pub(crate) fn pack(t: Type, lanes: &[u64], out: &mut [u8]) {
    let s = t.elem().unwrap_or(Scalar::I64);
    let b = s.bytes() as usize;
    for (k, x) in lanes.iter().enumerate() {
        for j in 0..b {
            if let Some(o) = out.get_mut(k * b + j) {
                *o = (x >> (8 * j)) as u8;
            }
        }
    }
}

pub(crate) fn unpack(t: Type, bytes: &[u8], out: &mut [u64]) {
    let s = t.elem().unwrap_or(Scalar::I64);
    let b = s.bytes() as usize;
    for (k, o) in out.iter_mut().enumerate() {
        let mut v = 0u64;
        for j in 0..b {
            v |= (bytes.get(k * b + j).copied().unwrap_or(0) as u64) << (8 * j);
        }
        *o = if s == Scalar::I1 { v & 1 } else { v };
    }
}

fn query(
    q: WorkItemQuery,
    d: u64,
    ctx: &LaunchCtx,
    g: &GroupView,
    lid: [u64; 3],
    gid: [u64; 3],
) -> u64 {
    let nd = &ctx.nd;
    let i = d as usize;
    let inr = d < nd.dims as u64;
    let pick = |a: [u64; 3], dflt: u64| {
        if inr {
            a.get(i).copied().unwrap_or(dflt)
        } else {
            dflt
        }
    };
    match q {
        WorkItemQuery::GlobalId => pick(gid, 0),
        WorkItemQuery::LocalId => pick(lid, 0),
        WorkItemQuery::GroupId => pick(g.id, 0),
        WorkItemQuery::GlobalSize => pick(nd.global, 1),
        WorkItemQuery::LocalSize => pick(g.size, 1),
        WorkItemQuery::EnqueuedLocalSize => pick(nd.local, 1),
        WorkItemQuery::NumGroups => pick(nd.groups, 1),
        WorkItemQuery::GlobalOffset => pick(nd.offset, 0),
        WorkItemQuery::WorkDim => nd.dims as u64,
        WorkItemQuery::GlobalLinearId => {
            let r = |k: usize| gid[k] - nd.offset[k];
            (r(2) * nd.global[1] + r(1)) * nd.global[0] + r(0)
        }
        WorkItemQuery::LocalLinearId => (lid[2] * g.size[1] + lid[1]) * g.size[0] + lid[0],
    }
}

/// Runs `it` until it returns or reaches a barrier. A fault carries the group's printf
/// output up to it.
pub fn run(ctx: &LaunchCtx, g: &mut Group, it: &mut Item) -> Result<Stop, Box<RuntimeError>> {
    match run_item(ctx, g, it) {
        Err(mut e) => {
            e.printf = std::mem::take(&mut g.out);
            Err(e)
        }
        ok => ok,
    }
}

fn run_item(ctx: &LaunchCtx, g: &mut Group, it: &mut Item) -> Result<Stop, Box<RuntimeError>> {
    let (lid, gid, index) = (it.lid, it.gid, it.index);
    let group_view = GroupView {
        id: g.id,
        size: g.size,
    };
    let Item {
        regs,
        frames,
        cur,
        private,
        buf,
        steps,
        wg_in,
        wg_out,
        ..
    } = it;
    let Group {
        local, out, races, ..
    } = g;
    let mut mem = Mem {
        globals: ctx.globals,
        svm: ctx.svm,
        local,
        private,
    };
    // The ids of the group's work-item with local linear index `k`.
    let owner_ids = |k: u32| -> Option<[u64; 3]> {
        let n = group_view.size;
        let k = k as u64;
        (k < n[0] * n[1] * n[2]).then(|| {
            let l = [k % n[0], (k / n[0]) % n[1], k / (n[0] * n[1])];
            [0, 1, 2].map(|d| ctx.nd.offset[d] + group_view.id[d] * ctx.nd.local[d] + l[d])
        })
    };
    let funcs = &ctx.prog.funcs;
    let mut func = cur.func;
    let mut pc = cur.pc as usize;
    let mut base = cur.base as usize;
    let max_steps = ctx.max_steps;
    let err = |f: &DFunc, pc: usize, kind: CheckKind, message: String| {
        Box::new(RuntimeError {
            kind,
            message,
            span: f
                .spans
                .get(pc.wrapping_sub(1))
                .copied()
                .unwrap_or(Span::DUMMY),
            global_id: gid,
            local_id: lid,
            group_id: group_view.id,
            note: None,
            ..RuntimeError::default()
        })
    };
    loop {
        let Some(f) = funcs.get(func as usize) else {
            return Err(Box::new(RuntimeError {
                kind: CheckKind::Other,
                message: "call of a missing function".into(),
                span: Span::DUMMY,
                global_id: gid,
                local_id: lid,
                group_id: group_view.id,
                note: None,
                ..RuntimeError::default()
            }));
        };
        let code = &f.code[..];
        let end = base + f.nregs as usize;
        if regs.len() < end {
            regs.resize(end, 0);
        }
        let r = &mut regs[base..end];
        macro_rules! mem_try {
            ($e:expr, $what:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(fault) => {
                        let (k, m) = fault_message(&fault, $what, &owner_ids);
                        break Action::Fail(k, m);
                    }
                }
            };
        }
        // An access of `$len` bytes at `$a` needing `$align`-byte alignment.
        macro_rules! check_align {
            ($a:expr, $len:expr, $align:expr, $write:expr, $what:expr, $vector:expr) => {
                if $a & ($align - 1) != 0 {
                    let acc = Access {
                        len: $len,
                        align: $align,
                        write: $write,
                        what: $what,
                        vector: $vector,
                    };
                    let (k, m) = misaligned(&mut mem, $a, acc, &owner_ids);
                    break Action::Fail(k, m);
                }
            };
        }
        macro_rules! step {
            () => {
                *steps += 1;
                if *steps > max_steps {
                    break Action::Fail(
                        CheckKind::StepLimit,
                        format!("work-item exceeded the step limit of {max_steps} (a runaway loop?); raise it with --max-steps"),
                    );
                }
            };
        }
        macro_rules! race {
            ($kind:ident, $a:expr, $len:expr, $what:expr) => {
                if ctx.races {
                    if let Some(race) = races.read($a, $len, index) {
                        break Action::Fail(
                            CheckKind::DataRace,
                            race_message(&race, $what, index, &mem),
                        );
                    }
                    if let Some(gr) = ctx.group_races {
                        let me = (ctx.groups_linear)(group_view.id, ctx.nd.groups);
                        if let Some(race) = gr.access($a, $len, me, None) {
                            break Action::Fail(
                                CheckKind::DataRace,
                                group_race_message(&race, $what, ctx, &mem),
                            );
                        }
                    }
                }
            };
        }
        // A write is checked before it happens, against the bytes it replaces: rewriting the
        // value already there (every work-item storing the same constant) is not a race.
        macro_rules! race_w {
            ($a:expr, $new:expr) => {
                if ctx.races {
                    let new: &[u8] = $new;
                    let mut old = vec![0u8; new.len()];
                    if mem.read($a, &mut old).is_ok() {
                        if let Some(race) = races.write($a, &old, new, index) {
                            break Action::Fail(
                                CheckKind::DataRace,
                                race_message(&race, "write", index, &mem),
                            );
                        }
                        if let Some(gr) = ctx.group_races {
                            let me = (ctx.groups_linear)(group_view.id, ctx.nd.groups);
                            if let Some(race) = gr.access($a, new.len(), me, Some((&old, new))) {
                                break Action::Fail(
                                    CheckKind::DataRace,
                                    group_race_message(&race, "write", ctx, &mem),
                                );
                            }
                        }
                    }
                }
            };
        }
        macro_rules! take_edge {
            ($e:expr) => {{
                let e = f.edges[$e as usize];
                for &(dst, src) in &f.moves[e.mv as usize..(e.mv + e.n) as usize] {
                    r[dst as usize] = r[src as usize];
                }
                pc = e.pc as usize;
            }};
        }
        let action = loop {
            let Some(&ins) = code.get(pc) else {
                break Action::Fail(CheckKind::Other, "fell off the end of a function".into());
            };
            pc += 1;
            match ins {
                I::Imm { d, v } => r[d as usize] = v,
                I::Splat { d, s, n } => {
                    let x = r[s as usize];
                    r[d as usize..(d + n) as usize].fill(x);
                }
                I::Copy { d, s, n } => {
                    if n == 1 {
                        r[d as usize] = r[s as usize];
                    } else {
                        r.copy_within(s as usize..(s + n) as usize, d as usize);
                    }
                }
                I::Add { w, d, a, b } => {
                    r[d as usize] = r[a as usize].wrapping_add(r[b as usize]) & mask(w as u32)
                }
                I::Sub { w, d, a, b } => {
                    r[d as usize] = r[a as usize].wrapping_sub(r[b as usize]) & mask(w as u32)
                }
                I::Mul { w, d, a, b } => {
                    r[d as usize] = r[a as usize].wrapping_mul(r[b as usize]) & mask(w as u32)
                }
                I::And { d, a, b } => r[d as usize] = r[a as usize] & r[b as usize],
                I::Or { d, a, b } => r[d as usize] = r[a as usize] | r[b as usize],
                I::Xor { d, a, b } => r[d as usize] = r[a as usize] ^ r[b as usize],
                I::FAdd32 { d, a, b } => {
                    r[d as usize] = (f32::from_bits(r[a as usize] as u32)
                        + f32::from_bits(r[b as usize] as u32))
                    .to_bits() as u64
                }
                I::FSub32 { d, a, b } => {
                    r[d as usize] = (f32::from_bits(r[a as usize] as u32)
                        - f32::from_bits(r[b as usize] as u32))
                    .to_bits() as u64
                }
                I::FMul32 { d, a, b } => {
                    r[d as usize] = (f32::from_bits(r[a as usize] as u32)
                        * f32::from_bits(r[b as usize] as u32))
                    .to_bits() as u64
                }
                I::FDiv32 { d, a, b } => {
                    r[d as usize] = (f32::from_bits(r[a as usize] as u32)
                        / f32::from_bits(r[b as usize] as u32))
                    .to_bits() as u64
                }
                I::FAdd64 { d, a, b } => {
                    r[d as usize] =
                        (f64::from_bits(r[a as usize]) + f64::from_bits(r[b as usize])).to_bits()
                }
                I::FMul64 { d, a, b } => {
                    r[d as usize] =
                        (f64::from_bits(r[a as usize]) * f64::from_bits(r[b as usize])).to_bits()
                }
                I::Bin { op, s, n, d, a, b } => {
                    for k in 0..n as usize {
                        r[d as usize + k] = ops::bin(op, s, r[a as usize + k], r[b as usize + k]);
                    }
                }
                I::ICmp { op, w, d, a, b } => {
                    r[d as usize] = ops::cmp(op, int_scalar(w), r[a as usize], r[b as usize]) as u64
                }
                I::Cmp { op, s, n, d, a, b } => {
                    for k in 0..n as usize {
                        r[d as usize + k] =
                            ops::cmp(op, s, r[a as usize + k], r[b as usize + k]) as u64;
                    }
                }
                I::BrICmp { op, w, a, b, info } => {
                    step!();
                    let (t, e) = f.brcmps[info as usize];
                    let c = ops::cmp(op, int_scalar(w), r[a as usize], r[b as usize]);
                    take_edge!(if c { t } else { e });
                }
                I::Un { op, s, n, d, a } => {
                    for k in 0..n as usize {
                        r[d as usize + k] = ops::un(op, s, r[a as usize + k]);
                    }
                }
                I::Conv {
                    op,
                    from,
                    to,
                    n,
                    d,
                    a,
                } => {
                    for k in 0..n as usize {
                        r[d as usize + k] = ops::conv(op, from, to, r[a as usize + k]);
                    }
                }
                I::Bitcast { d, a, info } => {
                    let (from, to) = f.bitcasts[info as usize];
                    let mut bytes = [0u8; 128];
                    let nf = from.lanes() as usize;
                    pack(from, &r[a as usize..a as usize + nf], &mut bytes);
                    let nt = to.lanes() as usize;
                    let mut lanes = [0u64; 16];
                    unpack(to, &bytes, &mut lanes[..nt]);
                    r[d as usize..d as usize + nt].copy_from_slice(&lanes[..nt]);
                }
                I::InsertDyn { n, d, x, i } => {
                    let k = (r[i as usize] % n.max(1) as u64) as usize;
                    r[d as usize + k] = r[x as usize];
                }
                I::ExtractDyn { n, d, v, i } => {
                    let k = (r[i as usize] % n.max(1) as u64) as usize;
                    r[d as usize] = r[v as usize + k];
                }
                I::Select { n, vc, d, c, info } => {
                    let (a, b) = f.selects[info as usize];
                    for k in 0..n as usize {
                        let cond = r[c as usize + if vc { k } else { 0 }] & 1 != 0;
                        r[d as usize + k] = if cond {
                            r[a as usize + k]
                        } else {
                            r[b as usize + k]
                        };
                    }
                }
                I::PtrAdd { d, p, o } => {
                    r[d as usize] = ptr::add(r[p as usize], r[o as usize] as i64)
                }
                I::PtrIndex { sw, scale, d, p, i } => {
                    let mut x = r[i as usize];
                    if sw != 0 {
                        x = sext(x, sw as u32) as u64;
                    }
                    r[d as usize] = ptr::add_scaled(r[p as usize], x as i64, scale as u64);
                }
                I::PtrDiff { d, a, b } => {
                    r[d as usize] = ptr::diff(r[a as usize], r[b as usize]) as u64
                }
                I::InBounds { d, p, len } => {
                    r[d as usize] = mem.in_bounds(r[p as usize], r[len as usize]) as u64
                }
                I::Load4 { d, p } => {
                    let a = r[p as usize];
                    if !ctx.races
                        && let Some(v) = mem.global_fast(a).and_then(|(s, off)| s.word(off))
                    {
                        r[d as usize] = v as u64;
                        continue;
                    }
                    if !ctx.races
                        && a & 3 == 0
                        && let Some(b) = mem.arena_fast(a, 4)
                    {
                        r[d as usize] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
                        continue;
                    }
                    check_align!(a, 4, 4, false, "read", 0);
                    race!(read, a, 4, "read");
                    r[d as usize] = mem_try!(mem.read_scalar(a, 4), "read");
                }
                I::Load8 { d, p } => {
                    let a = r[p as usize];
                    if !ctx.races
                        && a & 7 == 0
                        && let Some(b) = mem.arena_fast(a, 8)
                    {
                        let mut w = [0u8; 8];
                        w.copy_from_slice(b);
                        r[d as usize] = u64::from_le_bytes(w);
                        continue;
                    }
                    check_align!(a, 8, 8, false, "read", 0);
                    race!(read, a, 8, "read");
                    r[d as usize] = mem_try!(mem.read_scalar(a, 8), "read");
                }
                I::Store4 { p, v } => {
                    let a = r[p as usize];
                    if !ctx.races
                        && mem
                            .global_fast(a)
                            .is_some_and(|(s, off)| s.set_word(off, r[v as usize] as u32))
                    {
                        continue;
                    }
                    if !ctx.races
                        && a & 3 == 0
                        && let Some(b) = mem.arena_fast(a, 4)
                    {
                        b.copy_from_slice(&(r[v as usize] as u32).to_le_bytes());
                        continue;
                    }
                    check_align!(a, 4, 4, true, "write", 0);
                    race_w!(a, &(r[v as usize] as u32).to_le_bytes());
                    mem_try!(mem.write_scalar(a, 4, r[v as usize]), "write");
                }
                I::Store8 { p, v } => {
                    let a = r[p as usize];
                    if !ctx.races
                        && a & 7 == 0
                        && let Some(b) = mem.arena_fast(a, 8)
                    {
                        b.copy_from_slice(&r[v as usize].to_le_bytes());
                        continue;
                    }
                    check_align!(a, 8, 8, true, "write", 0);
                    race_w!(a, &r[v as usize].to_le_bytes());
                    mem_try!(mem.write_scalar(a, 8, r[v as usize]), "write");
                }
                I::Load { s, n, d, p } => {
                    let t = Type::vec(s, n);
                    let len = t.access_size() as usize;
                    let mut bytes = [0u8; 128];
                    let a = r[p as usize];
                    check_align!(a, len, t.align() as u64, false, "read", n as u32);
                    mem_try!(mem.read(a, &mut bytes[..len]), "read");
                    race!(read, a, len, "read");
                    unpack(
                        t,
                        &bytes[..len],
                        &mut r[d as usize..d as usize + n as usize],
                    );
                }
                I::Store { s, n, p, v } => {
                    let t = Type::vec(s, n);
                    let len = t.access_size() as usize;
                    let mut bytes = [0u8; 128];
                    pack(t, &r[v as usize..v as usize + n as usize], &mut bytes);
                    let a = r[p as usize];
                    check_align!(a, len, t.align() as u64, true, "write", n as u32);
                    race_w!(a, &bytes[..len]);
                    mem_try!(mem.write(a, &bytes[..len]), "write");
                }
                I::Memcpy { dst, src, len } => {
                    let n = r[len as usize] as usize;
                    if n > 0 {
                        if n > 1 << 30 {
                            break Action::Fail(
                                CheckKind::Other,
                                format!("copy of {n} bytes is too large"),
                            );
                        }
                        buf.resize(n, 0);
                        let (ds, ss) = (r[dst as usize], r[src as usize]);
                        mem_try!(mem.read(ss, &mut buf[..n]), "read");
                        race!(read, ss, n, "read");
                        race_w!(ds, &buf[..n]);
                        mem_try!(mem.write(ds, &buf[..n]), "write");
                    }
                }
                I::Memset { dst, b, len } => {
                    let n = r[len as usize] as usize;
                    if n > 0 {
                        if n > 1 << 30 {
                            break Action::Fail(
                                CheckKind::Other,
                                format!("fill of {n} bytes is too large"),
                            );
                        }
                        buf.clear();
                        buf.resize(n, r[b as usize] as u8);
                        let ds = r[dst as usize];
                        race_w!(ds, &buf[..n]);
                        mem_try!(mem.write(ds, &buf[..n]), "write");
                    }
                }
                I::FromGeneric { s, d, a } => r[d as usize] = ptr::from_generic(r[a as usize], s),
                I::SpaceTest { s, d, a } => r[d as usize] = ptr::space_test(r[a as usize], s),
                I::GetFence { d, a } => r[d as usize] = ptr::get_fence(r[a as usize]),
                I::StackAlloc { d, info } => {
                    let (size, align, label) = f.allocs[info as usize];
                    if mem.private.bytes.len() + size as usize > PRIVATE_LIMIT {
                        break Action::Fail(
                            CheckKind::Other,
                            format!(
                                "private memory exhausted (a work-item may use {PRIVATE_LIMIT} bytes)"
                            ),
                        );
                    }
                    let most = mem.private.key.max_allocs();
                    if mem.private.allocs.len() >= most {
                        break Action::Fail(
                            CheckKind::Other,
                            format!(
                                "private memory exhausted (a work-item may have {most} variables in memory at once in a work-group of this size)"
                            ),
                        );
                    }
                    let Ok(id) = mem.private.try_alloc(size as usize, align as usize, label) else {
                        break Action::Fail(
                            CheckKind::Other,
                            format!("private memory exhausted: cannot allocate {size} bytes"),
                        );
                    };
                    r[d as usize] = mem.private.key.make(id as u32, 0);
                }
                I::Call { d, info } => {
                    step!();
                    break Action::Call { d, info };
                }
                I::Builtin { d, info } => {
                    let c = &f.builtins[info as usize];
                    match builtins::call(c, r, d, &mut mem, index == 0) {
                        Ok(()) => {}
                        Err(CallFault::Mem(fault)) => {
                            let (k, m) = fault_message(
                                &fault,
                                &format!("access by `{}`", c.name),
                                &owner_ids,
                            );
                            break Action::Fail(k, m);
                        }
                        Err(CallFault::Runtime(m)) => {
                            break Action::Fail(
                                CheckKind::Other,
                                format!("builtin `{}`: {m}", c.name),
                            );
                        }
                        Err(CallFault::Check(k, m)) => break Action::Fail(k, m),
                        Err(CallFault::Unsupported) => {
                            break Action::Fail(
                                CheckKind::Other,
                                format!("builtin `{}` is not supported by the cpu device", c.name),
                            );
                        }
                    }
                }
                I::Rmw { op, s, d, p, v } => {
                    let (a, x) = (r[p as usize], r[v as usize]);
                    let n = s.bytes() as usize;
                    check_align!(a, n, n as u64, true, "atomic operation", 0);
                    r[d as usize] = mem_try!(
                        mem.atomic(a, s.bytes() as usize, |old| rmw(op, s, old, x)),
                        "atomic operation"
                    );
                }
                I::CmpXchg { s, d, info } => {
                    let (p, e, v) = f.cmpxchgs[info as usize];
                    let (a, want, new) = (r[p as usize], r[e as usize], r[v as usize]);
                    let n = s.bytes() as usize;
                    check_align!(a, n, n as u64, true, "atomic operation", 0);
                    r[d as usize] = mem_try!(
                        mem.atomic(a, s.bytes() as usize, |old| if old == want {
                            new
                        } else {
                            old
                        }),
                        "atomic operation"
                    );
                }
                I::AtomicLoad { s, d, p } => {
                    let a = r[p as usize];
                    let n = s.bytes() as usize;
                    check_align!(a, n, n as u64, false, "atomic load", 0);
                    r[d as usize] = mem_try!(mem.read_scalar(a, s.bytes() as usize), "atomic load");
                }
                I::AtomicStore { s, p, v } => {
                    let (a, x) = (r[p as usize], r[v as usize]);
                    let n = s.bytes() as usize;
                    check_align!(a, n, n as u64, true, "atomic store", 0);
                    mem_try!(mem.atomic(a, s.bytes() as usize, |_| x), "atomic store");
                }
                I::Barrier { .. } => break Action::Barrier(pc - 1),
                I::WorkGroup { d, info } => {
                    if let Some(v) = wg_out.take() {
                        r[d as usize] = v;
                    } else {
                        let w = &f.wgs[info as usize];
                        let ids = [0, 1, 2].map(|k| w.ids.get(k).map_or(0, |s| r[*s as usize]));
                        *wg_in = Some((r[w.value as usize], ids));
                        pc -= 1;
                        break Action::Barrier(pc);
                    }
                }
                I::WorkItem { q, d, dim } => {
                    let dv = if dim == u32::MAX {
                        0
                    } else {
                        r[dim as usize] & 0xffff_ffff
                    };
                    r[d as usize] = query(q, dv, ctx, &group_view, lid, gid);
                }
                I::Printf { d, info } => {
                    if ctx.printf.truncated() {
                        // The buffer is full: the call is dropped unformatted.
                        r[d as usize] = 0xffff_ffff;
                        continue;
                    }
                    let pi = &f.printfs[info as usize];
                    let fmt = mem_try!(
                        mem.read_cstr(r[pi.fmt as usize], 1 << 16),
                        "printf format read"
                    );
                    let args: Vec<(Vec<u64>, Type)> = pi
                        .args
                        .iter()
                        .map(|(s, t)| (r[*s as usize..(*s + t.lanes()) as usize].to_vec(), *t))
                        .collect();
                    let text = mem_try!(
                        crate::printf::format(&fmt, &args, &mut mem),
                        "printf %s read"
                    );
                    // 0 on success; -1 for a malformed format or output the full printf
                    // buffer drops (OpenCL C 6.15.14.3).
                    r[d as usize] = match text {
                        Some(t) if ctx.printf.reserve(t.len()) => {
                            out.push_str(&t);
                            0
                        }
                        _ => 0xffff_ffff,
                    };
                }
                I::Ret { v, n } => break Action::Ret { v, n },
                I::Br { e } => {
                    step!();
                    take_edge!(e);
                }
                I::CondBr { c, t, f: e } => {
                    step!();
                    take_edge!(if r[c as usize] & 1 != 0 { t } else { e });
                }
                I::Switch { x, info } => {
                    step!();
                    let sw = &f.switches[info as usize];
                    let v = r[x as usize];
                    let e = sw
                        .cases
                        .iter()
                        .find(|(k, _)| *k == v)
                        .map_or(sw.default, |(_, e)| *e);
                    take_edge!(e);
                }
                I::Unreachable => {
                    break Action::Fail(CheckKind::Other, "reached unreachable code".into());
                }
            }
        };
        match action {
            Action::Fail(kind, message) => return Err(err(f, pc, kind, message)),
            Action::Barrier(at) => {
                *cur = Frame {
                    func,
                    pc: pc as u32,
                    base: base as u32,
                    ..Frame::default()
                };
                return Ok(Stop::Barrier {
                    func,
                    pc: at as u32,
                });
            }
            Action::Call { d, info } => {
                let ci = &f.calls[info as usize];
                let Some(callee) = funcs.get(ci.func as usize) else {
                    return Err(err(
                        f,
                        pc,
                        CheckKind::Other,
                        "call of a missing function".into(),
                    ));
                };
                if frames.len() >= MAX_DEPTH {
                    return Err(err(f, pc, CheckKind::Other, "call nesting too deep".into()));
                }
                let nb = base + f.nregs as usize;
                let need = nb + callee.nregs as usize;
                if regs.len() < need {
                    regs.resize(need, 0);
                }
                for (&(src, n), &(pslot, _)) in ci.args.iter().zip(&callee.params) {
                    let s = base + src as usize;
                    regs.copy_within(s..s + n as usize, nb + pslot as usize);
                }
                frames.push(Frame {
                    func,
                    pc: pc as u32,
                    base: base as u32,
                    ret_d: d,
                    ret_n: ci.ret_n,
                    mark: mem.private.mark(),
                });
                func = ci.func;
                pc = 0;
                base = nb;
            }
            Action::Ret { v, n } => {
                let Some(fr) = frames.pop() else {
                    *cur = Frame {
                        func,
                        pc: pc as u32,
                        base: base as u32,
                        ..Frame::default()
                    };
                    return Ok(Stop::Done);
                };
                if n > 0 && fr.ret_n == n {
                    let s = base + v as usize;
                    regs.copy_within(s..s + n as usize, fr.base as usize + fr.ret_d as usize);
                }
                mem.private.release(fr.mark);
                func = fr.func;
                pc = fr.pc as usize;
                base = fr.base as usize;
            }
        }
    }
}

pub(crate) fn int_scalar(w: u8) -> Scalar {
    match w {
        1 => Scalar::I1,
        8 => Scalar::I8,
        16 => Scalar::I16,
        32 => Scalar::I32,
        _ => Scalar::I64,
    }
}

fn race_message(r: &Race, what: &str, me: u32, mem: &Mem) -> String {
    let space = ptr::tag(r.at).map_or(AddrSpace::Global, |t| t.space());
    let id = ptr::alloc(r.at);
    let label = match ptr::tag(r.at) {
        Some(ptr::Tag::Local) => mem.local.allocs.get(id).map(|a| a.name),
        _ => mem.globals.get(id).map(|g| g.name),
    }
    .map_or_else(|| "memory".to_string(), |s| s.as_str().to_string());
    let earlier = if r.other == u32::MAX {
        "other work-items".to_string()
    } else {
        format!("work-item with local linear id {}", r.other)
    };
    format!(
        "data race on {} {} at offset {}: work-item with local linear id {me} {what}s a byte that {earlier} {} since the last barrier",
        space.clang_name(),
        label,
        ptr::offset(r.at),
        if r.earlier_write { "wrote" } else { "read" }
    )
}

fn group_race_message(r: &GroupRace, what: &str, ctx: &LaunchCtx, mem: &Mem) -> String {
    let label = mem
        .globals
        .get(ptr::alloc(r.at))
        .map_or_else(|| "memory".to_string(), |g| g.name.as_str().to_string());
    let other = if r.other_group == u64::MAX {
        "other work-groups".to_string()
    } else {
        let n = ctx.nd.groups;
        let g = r.other_group;
        format!(
            "work-group ({}, {}, {})",
            g % n[0],
            (g / n[0]) % n[1],
            g / (n[0] * n[1])
        )
    };
    format!(
        "data race on __global {label} at offset {}: this work-item {what}s a byte that {other} {} (work-groups are not ordered)",
        ptr::offset(r.at),
        if r.earlier_write { "wrote" } else { "read" }
    )
}
