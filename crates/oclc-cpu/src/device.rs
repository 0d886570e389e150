//! The public face of the cpu device: load a module, make buffers, launch kernels over an
//! ND-range with work-groups running in parallel.

use crate::decode::{self, I, Program as Code, WgInfo};
use crate::error::{CheckKind, DeviceError, RuntimeError};
use crate::exec::{self, BoundArg, Group, Item, LaunchCtx, Nd, Stop};
use crate::memory::{GlobalMem, Storage};
use crate::ops;
use crate::ptr::{self, Tag};
use crate::races::GlobalRaces;
use oclc_ir::{AddrSpace, FuncId, Module, Param, ParamKind};
use oclc_ir::{BinOp, Scalar, WgArith, WgOp};
use oclc_syntax::{Span, Symbol};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Most work-items in one work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE).
pub const MAX_WORK_GROUP_SIZE: u64 = 1024;

/// Default `--max-steps`: branches and calls one work-item may take.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 28;

/// A device memory buffer. Clones share the same storage.
#[derive(Clone, Debug)]
pub struct Buffer(Arc<Storage>);

impl Buffer {
    pub fn from_bytes(bytes: &[u8]) -> Buffer {
        Buffer(Arc::new(Storage::from_bytes(bytes)))
    }

    pub fn zeroed(len: usize) -> Buffer {
        Buffer(Arc::new(Storage::zeroed(len)))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn read(&self) -> Vec<u8> {
        self.0.to_vec()
    }

    /// Overwrites the buffer's start with `bytes` (at most its length).
    pub fn write(&self, bytes: &[u8]) {
        let n = bytes.len().min(self.len());
        self.0.write(0, &bytes[..n]);
    }
}

/// A kernel argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// For `__global` and `__constant` pointer parameters.
    Buffer(Buffer),
    /// For `__local` pointer parameters: the size in bytes of the group's allocation.
    Local(usize),
    /// For scalars, vectors and by-value structs: the value's bytes (little-endian).
    Bytes(Vec<u8>),
}

/// An ND-range: 1 to 3 dimensions; `local` absent lets the device choose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NdRange {
    pub global: Vec<u64>,
    pub local: Option<Vec<u64>>,
    pub offset: Option<Vec<u64>>,
}

impl NdRange {
    pub fn new(global: &[u64]) -> NdRange {
        NdRange {
            global: global.to_vec(),
            local: None,
            offset: None,
        }
    }

    pub fn local(mut self, local: &[u64]) -> NdRange {
        self.local = Some(local.to_vec());
        self
    }

    pub fn offset(mut self, offset: &[u64]) -> NdRange {
        self.offset = Some(offset.to_vec());
        self
    }
}

/// What a launch produced besides buffer contents.
#[derive(Clone, Debug, Default)]
pub struct LaunchOutput {
    /// Everything `printf` wrote, in work-group order.
    pub printf: String,
    /// The work-group size used (the device's choice when the range gave none), one entry
    /// per dimension.
    pub local_size: Vec<u64>,
}

/// The embedded cpu device.
pub struct Device {
    pool: Option<rayon::ThreadPool>,
    max_steps: u64,
    races: bool,
    echo_printf: bool,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("max_steps", &self.max_steps)
            .field("races", &self.races)
            .finish()
    }
}

/// A module loaded onto the device: decoded code plus its program-scope variables, which
/// persist between launches.
pub struct Program {
    module: Arc<Module>,
    code: Code,
    globals: Vec<GlobalMem>,
}

impl Device {
    /// The cpu device using every core.
    pub fn cpu() -> Device {
        Device {
            pool: None,
            max_steps: DEFAULT_MAX_STEPS,
            races: false,
            echo_printf: true,
        }
    }

    /// Runs work-groups on `n` threads (0: every core).
    pub fn with_threads(mut self, n: usize) -> Device {
        self.pool = if n == 0 {
            None
        } else {
            rayon::ThreadPoolBuilder::new().num_threads(n).build().ok()
        };
        self
    }

    /// Steps (branches and calls) one work-item may take before it is reported as runaway.
    pub fn with_max_steps(mut self, n: u64) -> Device {
        self.max_steps = n.max(1);
        self
    }

    /// Turns on data-race detection on local and global memory.
    pub fn with_race_detection(mut self, on: bool) -> Device {
        self.races = on;
        self
    }

    /// Whether `printf` output is also written to standard output (default: yes).
    pub fn with_printf_echo(mut self, on: bool) -> Device {
        self.echo_printf = on;
        self
    }

    /// Verifies and decodes `module` and creates its program-scope variables.
    pub fn load(&self, module: Module) -> Result<Program, DeviceError> {
        if let Err(errs) = oclc_ir::verify_module(&module) {
            let msg = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(DeviceError::InvalidProgram(msg));
        }
        let mut module = module;
        oclc_ir::passes::optimize_for_device(&mut module);
        if let Err(errs) = oclc_ir::debug_verify(&module) {
            let msg = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(DeviceError::InvalidProgram(format!(
                "after optimization: {msg}"
            )));
        }
        let code = decode::decode_module(&module);
        let globals: Vec<GlobalMem> = module
            .globals
            .iter()
            .map(|g| {
                // Sizes are exact (u64): one this process cannot allocate is an error, not
                // an abort.
                let n = usize::try_from(g.size).map_or(usize::MAX, |n| n.max(g.init.len()));
                let mut bytes = Vec::new();
                if bytes.try_reserve_exact(n).is_err() {
                    return Err(DeviceError::InvalidProgram(format!(
                        "program-scope variable `{}` needs {} bytes: more than this device \
                         can allocate",
                        g.name, g.size
                    )));
                }
                bytes.extend_from_slice(&g.init);
                bytes.resize(n, 0);
                Ok(GlobalMem {
                    name: Symbol::intern(&format!("variable `{}`", g.name)),
                    storage: Arc::new(Storage::from_bytes(&bytes)),
                })
            })
            .collect::<Result<_, _>>()?;
        for (gv, mem) in module.globals.iter().zip(&globals) {
            for r in &gv.relocs {
                let tag = match module.globals.get(r.target.index()).map(|t| t.space) {
                    Some(AddrSpace::Constant) => Tag::Constant,
                    _ => Tag::Global,
                };
                let p = ptr::add(ptr::make(tag, r.target.0, 0), r.addend);
                mem.storage.write_scalar(r.offset as usize, 8, p);
            }
        }
        Ok(Program {
            module: Arc::new(module),
            code,
            globals,
        })
    }

    /// Runs `kernel` over `range` with `args` (one per parameter, in order).
    pub fn launch(
        &self,
        prog: &Program,
        kernel: &str,
        args: &[Arg],
        range: &NdRange,
    ) -> Result<LaunchOutput, DeviceError> {
        let kid = prog
            .kernel_id(kernel)
            .ok_or_else(|| DeviceError::NoSuchKernel(kernel.to_string()))?;
        let kf = prog
            .module
            .function(kid)
            .ok_or_else(|| DeviceError::NoSuchKernel(kernel.to_string()))?;
        if args.len() != kf.params.len() {
            return Err(DeviceError::ArgCount {
                kernel: kernel.into(),
                expected: kf.params.len(),
                given: args.len(),
            });
        }
        let nd = make_nd(
            range,
            kf.kernel.as_ref().and_then(|k| k.reqd_work_group_size),
        )?;
        let mut globals = prog.globals.clone();
        let mut local_layout: Vec<(usize, usize, Symbol)> = prog
            .module
            .locals
            .iter()
            .filter(|l| l.kernel == kid)
            .map(|l| {
                (
                    l.size as usize,
                    l.align as usize,
                    Symbol::intern(&format!("variable `{}`", l.name)),
                )
            })
            .collect();
        let mut bound = Vec::with_capacity(args.len());
        for (i, (p, a)) in kf.params.iter().zip(args).enumerate() {
            bound.push(bind_arg(i, p, a, &mut globals, &mut local_layout)?);
        }
        let group_races = GlobalRaces::default();
        let ctx = LaunchCtx {
            prog: &prog.code,
            kernel: kid.0,
            globals: &globals,
            nd,
            max_steps: self.max_steps,
            args: &bound,
            local_layout: &local_layout,
            races: self.races,
            group_races: self.races.then_some(&group_races),
            groups_linear: |id, n| (id[2] * n[1] + id[1]) * n[0] + id[0],
        };
        let has_barrier = prog
            .code
            .funcs
            .get(kid.index())
            .is_some_and(|f| f.has_barrier);
        let total = nd.groups[0] * nd.groups[1] * nd.groups[2];
        let first_err = AtomicU64::new(u64::MAX);
        let run_all = || -> Vec<Option<Result<String, Box<RuntimeError>>>> {
            (0..total)
                .into_par_iter()
                .map_init(Scratch::default, |scratch, gi| {
                    if gi > first_err.load(Ordering::Relaxed) {
                        return None;
                    }
                    let r = run_group(&ctx, gi, has_barrier, scratch);
                    if r.is_err() {
                        first_err.fetch_min(gi, Ordering::Relaxed);
                    }
                    Some(r)
                })
                .collect()
        };
        let results = match &self.pool {
            Some(p) => p.install(run_all),
            None => run_all(),
        };
        let mut out = LaunchOutput {
            printf: String::new(),
            local_size: nd.local[..nd.dims as usize].to_vec(),
        };
        for r in results.into_iter().flatten() {
            match r {
                Ok(s) => out.printf.push_str(&s),
                Err(e) => {
                    self.echo(&out.printf);
                    return Err(DeviceError::Runtime(e));
                }
            }
        }
        self.echo(&out.printf);
        Ok(out)
    }

    fn echo(&self, s: &str) {
        if self.echo_printf && !s.is_empty() {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            let _ = o.write_all(s.as_bytes());
            let _ = o.flush();
        }
    }
}

impl Program {
    pub fn module(&self) -> &Module {
        &self.module
    }

    fn kernel_id(&self, name: &str) -> Option<FuncId> {
        self.module
            .functions
            .iter()
            .position(|f| f.is_kernel() && f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// Names of the program's kernels, in definition order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.module
            .functions
            .iter()
            .filter(|f| f.is_kernel())
            .map(|f| f.name.as_str())
            .collect()
    }

    /// The parameters of kernel `name`.
    pub fn kernel_params(&self, name: &str) -> Option<&[Param]> {
        self.kernel_id(name)
            .and_then(|k| self.module.function(k))
            .map(|f| f.params.as_slice())
    }

    /// Current bytes of a program-scope variable.
    pub fn read_global(&self, name: &str) -> Option<Vec<u8>> {
        let i = self.module.globals.iter().position(|g| g.name == name)?;
        self.globals.get(i).map(|g| g.storage.to_vec())
    }
}

fn make_nd(range: &NdRange, reqd: Option<[u32; 3]>) -> Result<Nd, DeviceError> {
    let dims = range.global.len();
    if !(1..=3).contains(&dims) {
        return Err(DeviceError::BadRange(format!(
            "{dims} dimensions (1 to 3 allowed)"
        )));
    }
    let mut nd = Nd {
        dims: dims as u32,
        global: [1; 3],
        local: [1; 3],
        offset: [0; 3],
        groups: [1; 3],
    };
    for (k, &g) in range.global.iter().enumerate() {
        if g == 0 {
            return Err(DeviceError::BadRange(format!("global size {k} is 0")));
        }
        nd.global[k] = g;
    }
    if let Some(off) = &range.offset {
        if off.len() != dims {
            return Err(DeviceError::BadRange(format!(
                "offset has {} dimensions, global has {dims}",
                off.len()
            )));
        }
        nd.offset[..dims].copy_from_slice(off);
    }
    match (&range.local, reqd) {
        (Some(l), _) => {
            if l.len() != dims {
                return Err(DeviceError::BadRange(format!(
                    "local has {} dimensions, global has {dims}",
                    l.len()
                )));
            }
            for (k, &x) in l.iter().enumerate() {
                if x == 0 {
                    return Err(DeviceError::BadRange(format!("local size {k} is 0")));
                }
                nd.local[k] = x;
            }
            if let Some(r) = reqd
                && (0..3).any(|k| nd.local[k] != r[k] as u64)
            {
                return Err(DeviceError::BadRange(format!(
                    "local size ({}, {}, {}) differs from reqd_work_group_size({}, {}, {})",
                    nd.local[0], nd.local[1], nd.local[2], r[0], r[1], r[2]
                )));
            }
        }
        (None, Some(r)) => {
            nd.local = r.map(|x| (x as u64).max(1));
        }
        (None, None) => {
            // The largest divisor of the first dimension up to 64; 1 elsewhere.
            nd.local[0] = (1..=64u64.min(nd.global[0]))
                .rev()
                .find(|d| nd.global[0].is_multiple_of(*d))
                .unwrap_or(1);
        }
    }
    let items: u64 = nd.local.iter().product();
    if items > MAX_WORK_GROUP_SIZE {
        return Err(DeviceError::BadRange(format!(
            "{items} work-items per group (the cpu device allows at most {MAX_WORK_GROUP_SIZE})"
        )));
    }
    for k in 0..3 {
        nd.groups[k] = nd.global[k].div_ceil(nd.local[k]);
    }
    if nd.groups.iter().product::<u64>() > 1 << 40 {
        return Err(DeviceError::BadRange("too many work-groups".into()));
    }
    Ok(nd)
}

fn bind_arg(
    i: usize,
    p: &Param,
    a: &Arg,
    globals: &mut Vec<GlobalMem>,
    local_layout: &mut Vec<(usize, usize, Symbol)>,
) -> Result<BoundArg, DeviceError> {
    let bad = |message: String| DeviceError::BadArg {
        index: i,
        name: p.name.clone(),
        message,
    };
    match (&p.kind, a) {
        (ParamKind::Value, Arg::Bytes(b)) => {
            let want = p.ty.store_size() as usize;
            if b.len() != want && b.len() != p.ty.access_size() as usize {
                return Err(bad(format!(
                    "expects {want} bytes ({}), got {}",
                    p.c_type,
                    b.len()
                )));
            }
            let n = p.ty.lanes() as usize;
            let mut lanes = vec![0u64; n];
            let elem = p.ty.elem().unwrap_or(oclc_ir::Scalar::I64);
            let sz = elem.bytes() as usize;
            for (k, l) in lanes.iter_mut().enumerate() {
                for j in 0..sz {
                    *l |= (b.get(k * sz + j).copied().unwrap_or(0) as u64) << (8 * j);
                }
                if elem == oclc_ir::Scalar::I1 {
                    *l = (*l != 0) as u64;
                }
            }
            Ok(BoundArg::Lanes(lanes))
        }
        (
            ParamKind::Buffer(space @ (AddrSpace::Global | AddrSpace::Constant)),
            Arg::Buffer(buf),
        ) => {
            if globals.len() >= ptr::MAX_ALLOCS {
                return Err(bad("too many buffers".into()));
            }
            let id = globals.len() as u32;
            globals.push(GlobalMem {
                name: Symbol::intern(&format!("buffer `{}`", p.name)),
                storage: buf.0.clone(),
            });
            let tag = if *space == AddrSpace::Constant {
                Tag::Constant
            } else {
                Tag::Global
            };
            Ok(BoundArg::Lanes(vec![ptr::make(tag, id, 0)]))
        }
        (ParamKind::Buffer(AddrSpace::Local), Arg::Local(size)) => {
            if *size == 0 {
                return Err(bad("a __local argument needs a size greater than 0".into()));
            }
            let id = local_layout.len() as u32;
            local_layout.push((*size, 16, Symbol::intern(&format!("argument `{}`", p.name))));
            Ok(BoundArg::Lanes(vec![ptr::make(Tag::Local, id, 0)]))
        }
        (ParamKind::Aggregate { size, align }, Arg::Bytes(b)) => {
            if b.len() != *size as usize {
                return Err(bad(format!(
                    "expects {size} bytes ({}), got {}",
                    p.c_type,
                    b.len()
                )));
            }
            Ok(BoundArg::Aggregate {
                bytes: b.clone(),
                align: *align,
                label: Symbol::intern(&format!("kernel argument `{}`", p.name)),
            })
        }
        (kind, _) => {
            let want = match kind {
                ParamKind::Value | ParamKind::Aggregate { .. } => "a value (bytes)",
                ParamKind::Buffer(AddrSpace::Local) => "a __local size",
                ParamKind::Buffer(_) => "a buffer",
            };
            Err(bad(format!("expects {want} for `{}`", p.c_type)))
        }
    }
}

/// Per-thread state reused across the groups a thread runs.
#[derive(Default)]
struct Scratch {
    items: Vec<Item>,
    group: Group,
}

fn ids_of(linear: u64, counts: [u64; 3]) -> [u64; 3] {
    [
        linear % counts[0],
        (linear / counts[0]) % counts[1],
        linear / (counts[0] * counts[1]),
    ]
}

fn run_group(
    ctx: &LaunchCtx,
    gi: u64,
    has_barrier: bool,
    s: &mut Scratch,
) -> Result<String, Box<RuntimeError>> {
    let nd = &ctx.nd;
    let gid3 = ids_of(gi, nd.groups);
    let g = &mut s.group;
    g.id = gid3;
    g.size = [0, 1, 2].map(|k| nd.local[k].min(nd.global[k] - gid3[k] * nd.local[k]));
    g.local.clear();
    for &(size, align, label) in ctx.local_layout {
        g.local.alloc(size, align, label);
    }
    g.out.clear();
    g.races.clear();
    let n = (g.size[0] * g.size[1] * g.size[2]) as usize;
    let start = |it: &mut Item, k: usize, g: &Group| {
        let lid = ids_of(k as u64, g.size);
        let gid = [0, 1, 2].map(|d| nd.offset[d] + g.id[d] * nd.local[d] + lid[d]);
        it.start(ctx, lid, gid, k as u32);
    };
    if !has_barrier {
        if s.items.is_empty() {
            s.items.push(Item::default());
        }
        let it = &mut s.items[0];
        for k in 0..n {
            start(it, k, g);
            exec::run(ctx, g, it)?;
        }
        return Ok(std::mem::take(&mut g.out));
    }
    if s.items.len() < n {
        s.items.resize_with(n, Item::default);
    }
    let items = &mut s.items[..n];
    for (k, it) in items.iter_mut().enumerate() {
        start(it, k, g);
    }
    loop {
        for it in items.iter_mut() {
            let stop = exec::run(ctx, g, it)?;
            it.stop = Some(stop);
        }
        let first = items.first().and_then(|it| it.stop).unwrap_or(Stop::Done);
        let diverged = items.iter().find(|it| it.stop != Some(first));
        if let Some(other) = diverged {
            return Err(divergence(ctx, g, &items[0], other));
        }
        match first {
            Stop::Done => return Ok(std::mem::take(&mut g.out)),
            Stop::Barrier { func, pc } => {
                g.races.clear();
                let wg =
                    ctx.prog
                        .funcs
                        .get(func as usize)
                        .and_then(|f| match f.code.get(pc as usize) {
                            Some(I::WorkGroup { info, .. }) => f.wgs.get(*info as usize),
                            _ => None,
                        });
                if let Some(w) = wg {
                    collective(w, g.size, items);
                }
            }
        }
    }
}

fn barrier_span(ctx: &LaunchCtx, s: Stop) -> Option<Span> {
    match s {
        Stop::Barrier { func, pc } => ctx
            .prog
            .funcs
            .get(func as usize)?
            .spans
            .get(pc as usize)
            .copied(),
        Stop::Done => None,
    }
}

fn divergence(ctx: &LaunchCtx, g: &Group, first: &Item, other: &Item) -> Box<RuntimeError> {
    let (a, b) = (
        first.stop.unwrap_or(Stop::Done),
        other.stop.unwrap_or(Stop::Done),
    );
    let lid = |it: &Item| format!("({}, {}, {})", it.lid[0], it.lid[1], it.lid[2]);
    // Report at a barrier: the one `other` waits at, else the one `first` waits at.
    let (at, message) = match (a, b) {
        (Stop::Barrier { .. }, Stop::Done) => (
            a,
            format!(
                "barrier divergence: work-item with local id {} finished without reaching the barrier that work-item {} waits at",
                lid(other),
                lid(first)
            ),
        ),
        (Stop::Done, Stop::Barrier { .. }) => (
            b,
            format!(
                "barrier divergence: work-item with local id {} waits at a barrier that work-item {} finished without reaching",
                lid(other),
                lid(first)
            ),
        ),
        _ => (
            b,
            format!(
                "barrier divergence: work-item with local id {} reached a different barrier than work-item {}",
                lid(other),
                lid(first)
            ),
        ),
    };
    let note = match (a, b) {
        (Stop::Barrier { .. }, Stop::Barrier { .. }) => barrier_span(ctx, a)
            .map(|s| (s, format!("work-item {} waits at this barrier", lid(first)))),
        _ => None,
    };
    Box::new(RuntimeError {
        kind: CheckKind::BarrierDivergence,
        message,
        span: barrier_span(ctx, at).unwrap_or(Span::DUMMY),
        global_id: other.gid,
        local_id: other.lid,
        group_id: g.id,
        note,
    })
}

fn wg_identity(a: WgArith, s: Scalar) -> u64 {
    let w = s.bits();
    match a {
        WgArith::IAdd | WgArith::UMax => 0,
        WgArith::UMin => ops::mask(w),
        WgArith::SMin => ops::mask(w) >> 1,
        WgArith::SMax => 1 << (w - 1),
        WgArith::FAdd => ops::fput(s, 0.0),
        WgArith::FMin => ops::fput(s, f64::INFINITY),
        WgArith::FMax => ops::fput(s, f64::NEG_INFINITY),
    }
}

fn wg_combine(a: WgArith, s: Scalar, x: u64, y: u64) -> u64 {
    let w = s.bits();
    match a {
        WgArith::IAdd => ops::bin(BinOp::Add, s, x, y),
        WgArith::FAdd => ops::bin(BinOp::FAdd, s, x, y),
        WgArith::SMin => {
            if ops::sext(y, w) < ops::sext(x, w) {
                y
            } else {
                x
            }
        }
        WgArith::SMax => {
            if ops::sext(y, w) > ops::sext(x, w) {
                y
            } else {
                x
            }
        }
        WgArith::UMin => x.min(y),
        WgArith::UMax => x.max(y),
        WgArith::FMin | WgArith::FMax => {
            let (fx, fy) = (ops::fget(s, x), ops::fget(s, y));
            let take_y =
                fx.is_nan() || (!fy.is_nan() && if a == WgArith::FMin { fy < fx } else { fy > fx });
            if take_y { y } else { x }
        }
    }
}

/// Computes a work-group collective from every item's contribution (in local linear id
/// order) and hands each item its result.
fn collective(w: &WgInfo, size: [u64; 3], items: &mut [Item]) {
    let vals: Vec<u64> = items.iter().map(|it| it.wg_in.map_or(0, |c| c.0)).collect();
    let results: Vec<u64> = match w.op {
        WgOp::All => vec![vals.iter().all(|v| *v & 0xffff_ffff != 0) as u64; vals.len()],
        WgOp::Any => vec![vals.iter().any(|v| *v & 0xffff_ffff != 0) as u64; vals.len()],
        WgOp::Broadcast => {
            let ids = items
                .first()
                .and_then(|it| it.wg_in)
                .map_or([0; 3], |c| c.1);
            let k = (ids[2] * size[1] + ids[1]) * size[0] + ids[0];
            let v = if ids.iter().zip(size).all(|(i, n)| *i < n) {
                vals.get(k as usize).copied().unwrap_or(0)
            } else {
                0
            };
            vec![v; vals.len()]
        }
        WgOp::Reduce(a) => {
            let r = vals
                .iter()
                .fold(wg_identity(a, w.s), |acc, v| wg_combine(a, w.s, acc, *v));
            vec![r; vals.len()]
        }
        WgOp::ScanInclusive(a) | WgOp::ScanExclusive(a) => {
            let mut acc = wg_identity(a, w.s);
            let inclusive = matches!(w.op, WgOp::ScanInclusive(_));
            vals.iter()
                .map(|v| {
                    let before = acc;
                    acc = wg_combine(a, w.s, acc, *v);
                    if inclusive { acc } else { before }
                })
                .collect()
        }
    };
    for (it, r) in items.iter_mut().zip(results) {
        it.wg_in = None;
        it.wg_out = Some(r);
    }
}
