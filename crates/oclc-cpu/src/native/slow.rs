//! The slow path of native code: instructions it does not compile inline (and inline fast
//! paths that miss) run here, through the interpreter's own functions on the interpreter's
//! memory model, so values and fault messages are identical. Native code reaches this state
//! through `extern "C"` shims and a per-thread [`Env`] installed by the work-group driver.

use super::layout::{IO_INDEX, IO_SLOTS};
use crate::builtins::{self, CallFault};
use crate::decode::{DFunc, I, Program};
use crate::error::CheckKind;
use crate::exec::{self, Access, Nd};
use crate::memory::{Arena, GlobalMem, Mem, SvmRange};
use crate::ops;
use crate::ptr;
use oclc_ir::Type;
use oclc_syntax::Symbol;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A by-value aggregate kernel argument: copied into each work-item's private memory.
#[derive(Clone, Debug)]
pub(crate) struct Aggregate {
    pub slot: u32,
    pub bytes: Vec<u8>,
    pub align: u32,
    pub label: Symbol,
}

/// The state the shims of one worker thread work on during a launch.
pub(crate) struct Env {
    pub prog: Arc<Program>,
    /// (function, pc) of each call site of the slow path.
    pub sites: Arc<[(u32, u32)]>,
    /// The slots each site's instruction reads and writes.
    pub site_slots: Arc<[(Slots, Slots)]>,
    pub globals: Vec<GlobalMem>,
    pub svm: Vec<SvmRange>,
    pub local: Arena,
    /// Private memory of each work-item of the group (by local linear index): kept across
    /// barriers.
    pub privates: Vec<Arena>,
    /// The slot image shared with native code (see [`super::layout`]).
    pub io: Arc<[AtomicU64]>,
    pub regs: Vec<u64>,
    pub buf: Vec<u8>,
    /// Private-memory marks of the calls each work-item is in.
    pub marks: Vec<Vec<(usize, usize)>>,
    pub aggregates: Vec<Aggregate>,
    pub nd: Nd,
    pub group_id: [u64; 3],
    pub group_size: [u64; 3],
    /// The fault the last failing shim found.
    pub fault: Option<(CheckKind, String)>,
}

thread_local! {
    static ENV: RefCell<Option<Env>> = const { RefCell::new(None) };
}

/// Installs `env` for the current thread (the driver takes it back with [`take`]).
pub(crate) fn install(env: Env) {
    ENV.with(|e| *e.borrow_mut() = Some(env));
}

pub(crate) fn take() -> Option<Env> {
    ENV.with(|e| e.borrow_mut().take())
}

/// Runs `f` on the installed environment (`None` when there is none).
pub(crate) fn with<R>(f: impl FnOnce(&mut Env) -> R) -> Option<R> {
    ENV.with(|e| e.borrow_mut().as_mut().map(f))
}

fn io_get(io: &[AtomicU64], slot: u32) -> u64 {
    io.get(IO_SLOTS + slot as usize)
        .map_or(0, |c| c.load(Relaxed))
}

fn io_set(io: &[AtomicU64], slot: u32, v: u64) {
    if let Some(c) = io.get(IO_SLOTS + slot as usize) {
        c.store(v, Relaxed);
    }
}

/// Slot ranges: (first slot, lanes).
pub(crate) type Slots = Vec<(u32, u32)>;

/// The slots an instruction run on the slow path reads and writes.
pub(crate) fn uses_defs(f: &DFunc, ins: &I) -> (Slots, Slots) {
    let n1 = |x: u32| (x, 1u32);
    match *ins {
        I::Bin { n, d, a, b, .. } | I::Cmp { n, d, a, b, .. } => {
            (vec![(a, n as u32), (b, n as u32)], vec![(d, n as u32)])
        }
        I::Un { n, d, a, .. } | I::Conv { n, d, a, .. } => {
            (vec![(a, n as u32)], vec![(d, n as u32)])
        }
        I::Bitcast { d, a, info } => {
            let (from, to) = f
                .bitcasts
                .get(info as usize)
                .copied()
                .unwrap_or((Type::I64, Type::I64));
            (vec![(a, from.lanes())], vec![(d, to.lanes())])
        }
        I::PtrDiff { d, a, b } => (vec![n1(a), n1(b)], vec![n1(d)]),
        I::InBounds { d, p, len } => (vec![n1(p), n1(len)], vec![n1(d)]),
        I::Load { n, d, p, .. } => (vec![n1(p)], vec![(d, n as u32)]),
        I::Store { n, p, v, .. } => (vec![n1(p), (v, n as u32)], vec![]),
        I::Load4 { d, p } | I::Load8 { d, p } | I::AtomicLoad { d, p, .. } => {
            (vec![n1(p)], vec![n1(d)])
        }
        I::Store4 { p, v } | I::Store8 { p, v } | I::AtomicStore { p, v, .. } => {
            (vec![n1(p), n1(v)], vec![])
        }
        I::Memcpy { dst, src, len } => (vec![n1(dst), n1(src), n1(len)], vec![]),
        I::Memset { dst, b, len } => (vec![n1(dst), n1(b), n1(len)], vec![]),
        I::FromGeneric { d, a, .. } | I::SpaceTest { d, a, .. } | I::GetFence { d, a } => {
            (vec![n1(a)], vec![n1(d)])
        }
        I::StackAlloc { d, .. } => (vec![], vec![n1(d)]),
        I::Builtin { d, info } => match f.builtins.get(info as usize) {
            Some(c) => (
                c.args.iter().map(|(s, t)| (*s, t.lanes())).collect(),
                c.ret.map_or(vec![], |t| vec![(d, t.lanes())]),
            ),
            None => (vec![], vec![]),
        },
        I::Rmw { d, p, v, .. } => (vec![n1(p), n1(v)], vec![n1(d)]),
        I::CmpXchg { d, info, .. } => {
            let (p, e, v) = f.cmpxchgs.get(info as usize).copied().unwrap_or((0, 0, 0));
            (vec![n1(p), n1(e), n1(v)], vec![n1(d)])
        }
        _ => (vec![], vec![]),
    }
}

/// Shim: runs the instruction of call site `site` on the slots native code stored in the io
/// image; 0 when it completed, 1 on a fault (kept in the environment).
pub(crate) extern "C" fn shim_exec(site: u64) -> u64 {
    with(|env| match exec_site(env, site) {
        Ok(()) => 0,
        Err(f) => {
            env.fault = Some(f);
            1
        }
    })
    .unwrap_or(1)
}

fn exec_site(env: &mut Env, site: u64) -> Result<(), (CheckKind, String)> {
    let Env {
        prog,
        sites,
        site_slots,
        globals,
        svm,
        local,
        privates,
        io,
        regs,
        buf,
        nd,
        group_id,
        group_size,
        ..
    } = env;
    let missing = || {
        (
            CheckKind::Other,
            "native code: unknown call site".to_string(),
        )
    };
    let &(fi, pc) = sites.get(site as usize).ok_or_else(missing)?;
    let f = prog.funcs.get(fi as usize).ok_or_else(missing)?;
    let ins = *f.code.get(pc as usize).ok_or_else(missing)?;
    let (uses, defs) = site_slots.get(site as usize).ok_or_else(missing)?;
    if regs.len() < f.nregs as usize {
        regs.resize(f.nregs as usize, 0);
    }
    for &(s, n) in uses {
        for k in s..s + n {
            if let Some(r) = regs.get_mut(k as usize) {
                *r = io_get(io, k);
            }
        }
    }
    let index = io.get(IO_INDEX).map_or(0, |c| c.load(Relaxed)) as u32;
    if privates.len() <= index as usize {
        privates.resize_with(index as usize + 1, Arena::default);
    }
    let private = privates.get_mut(index as usize).ok_or_else(missing)?;
    let (gid3, gsize, ndv) = (*group_id, *group_size, *nd);
    let owner_ids = move |k: u32| -> Option<[u64; 3]> {
        let n = gsize;
        let k = k as u64;
        (k < n[0] * n[1] * n[2]).then(|| {
            let l = [k % n[0], (k / n[0]) % n[1], k / (n[0] * n[1])];
            [0, 1, 2].map(|d| ndv.offset[d] + gid3[d] * ndv.local[d] + l[d])
        })
    };
    let mut mem = Mem {
        globals,
        svm,
        local,
        private,
    };
    exec_one(f, ins, regs, &mut mem, buf, index, &owner_ids)?;
    for &(s, n) in defs {
        for k in s..s + n {
            io_set(io, k, regs.get(k as usize).copied().unwrap_or(0));
        }
    }
    Ok(())
}

/// One instruction as the interpreter runs it (without race detection, which selects the
/// interpreter).
fn exec_one(
    f: &DFunc,
    ins: I,
    r: &mut [u64],
    mem: &mut Mem,
    buf: &mut Vec<u8>,
    index: u32,
    owner_ids: &dyn Fn(u32) -> Option<[u64; 3]>,
) -> Result<(), (CheckKind, String)> {
    let g = |r: &[u64], s: u32| r.get(s as usize).copied().unwrap_or(0);
    let set = |r: &mut [u64], s: u32, v: u64| {
        if let Some(x) = r.get_mut(s as usize) {
            *x = v;
        }
    };
    let ft = |f: crate::memory::Fault, what: &str| exec::fault_message(&f, what, owner_ids);
    let align = |mem: &mut Mem, a: u64, len: usize, al: u64, write: bool, what: &str, v: u32| {
        if a & (al - 1) != 0 {
            let acc = Access {
                len,
                align: al,
                write,
                what,
                vector: v,
            };
            return Err(exec::misaligned(mem, a, acc, owner_ids));
        }
        Ok(())
    };
    match ins {
        I::Bin { op, s, n, d, a, b } => {
            for k in 0..n as u32 {
                let v = ops::bin(op, s, g(r, a + k), g(r, b + k));
                set(r, d + k, v);
            }
        }
        I::Cmp { op, s, n, d, a, b } => {
            for k in 0..n as u32 {
                let v = ops::cmp(op, s, g(r, a + k), g(r, b + k)) as u64;
                set(r, d + k, v);
            }
        }
        I::Un { op, s, n, d, a } => {
            for k in 0..n as u32 {
                let v = ops::un(op, s, g(r, a + k));
                set(r, d + k, v);
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
            for k in 0..n as u32 {
                let v = ops::conv(op, from, to, g(r, a + k));
                set(r, d + k, v);
            }
        }
        I::Bitcast { d, a, info } => {
            let Some(&(from, to)) = f.bitcasts.get(info as usize) else {
                return Ok(());
            };
            let mut bytes = [0u8; 128];
            let nf = from.lanes() as usize;
            let src: Vec<u64> = (0..nf as u32).map(|k| g(r, a + k)).collect();
            exec::pack(from, &src, &mut bytes);
            let nt = to.lanes() as usize;
            let mut lanes = [0u64; 16];
            exec::unpack(to, &bytes, &mut lanes[..nt.min(16)]);
            for (k, v) in lanes.iter().take(nt).enumerate() {
                set(r, d + k as u32, *v);
            }
        }
        I::PtrDiff { d, a, b } => set(r, d, ptr::diff(g(r, a), g(r, b)) as u64),
        I::InBounds { d, p, len } => set(r, d, mem.in_bounds(g(r, p), g(r, len)) as u64),
        I::Load4 { d, p } => {
            let a = g(r, p);
            align(mem, a, 4, 4, false, "read", 0)?;
            let v = mem.read_scalar(a, 4).map_err(|e| ft(e, "read"))?;
            set(r, d, v);
        }
        I::Load8 { d, p } => {
            let a = g(r, p);
            align(mem, a, 8, 8, false, "read", 0)?;
            let v = mem.read_scalar(a, 8).map_err(|e| ft(e, "read"))?;
            set(r, d, v);
        }
        I::Store4 { p, v } => {
            let a = g(r, p);
            align(mem, a, 4, 4, true, "write", 0)?;
            mem.write_scalar(a, 4, g(r, v))
                .map_err(|e| ft(e, "write"))?;
        }
        I::Store8 { p, v } => {
            let a = g(r, p);
            align(mem, a, 8, 8, true, "write", 0)?;
            mem.write_scalar(a, 8, g(r, v))
                .map_err(|e| ft(e, "write"))?;
        }
        I::Load { s, n, d, p } => {
            let t = Type::vec(s, n);
            let len = (t.access_size() as usize).min(128);
            let mut bytes = [0u8; 128];
            let a = g(r, p);
            align(mem, a, len, t.align() as u64, false, "read", n as u32)?;
            mem.read(a, &mut bytes[..len]).map_err(|e| ft(e, "read"))?;
            let mut lanes = [0u64; 16];
            let nl = (n as usize).min(16);
            exec::unpack(t, &bytes[..len], &mut lanes[..nl]);
            for (k, v) in lanes.iter().take(nl).enumerate() {
                set(r, d + k as u32, *v);
            }
        }
        I::Store { s, n, p, v } => {
            let t = Type::vec(s, n);
            let len = (t.access_size() as usize).min(128);
            let mut bytes = [0u8; 128];
            let src: Vec<u64> = (0..n as u32).map(|k| g(r, v + k)).collect();
            exec::pack(t, &src, &mut bytes);
            let a = g(r, p);
            align(mem, a, len, t.align() as u64, true, "write", n as u32)?;
            mem.write(a, &bytes[..len]).map_err(|e| ft(e, "write"))?;
        }
        I::Memcpy { dst, src, len } => {
            let n = g(r, len) as usize;
            if n > 0 {
                if n > 1 << 30 {
                    return Err((CheckKind::Other, format!("copy of {n} bytes is too large")));
                }
                buf.resize(n, 0);
                let (ds, ss) = (g(r, dst), g(r, src));
                mem.read(ss, &mut buf[..n]).map_err(|e| ft(e, "read"))?;
                mem.write(ds, &buf[..n]).map_err(|e| ft(e, "write"))?;
            }
        }
        I::Memset { dst, b, len } => {
            let n = g(r, len) as usize;
            if n > 0 {
                if n > 1 << 30 {
                    return Err((CheckKind::Other, format!("fill of {n} bytes is too large")));
                }
                buf.clear();
                buf.resize(n, g(r, b) as u8);
                mem.write(g(r, dst), &buf[..n])
                    .map_err(|e| ft(e, "write"))?;
            }
        }
        I::FromGeneric { s, d, a } => set(r, d, ptr::from_generic(g(r, a), s)),
        I::SpaceTest { s, d, a } => set(r, d, ptr::space_test(g(r, a), s)),
        I::GetFence { d, a } => set(r, d, ptr::get_fence(g(r, a))),
        I::StackAlloc { d, info } => {
            let Some(&(size, align, label)) = f.allocs.get(info as usize) else {
                return Ok(());
            };
            let limit = exec::PRIVATE_LIMIT;
            if mem.private.bytes.len() + size as usize > limit {
                return Err((
                    CheckKind::Other,
                    format!("private memory exhausted (a work-item may use {limit} bytes)"),
                ));
            }
            let most = mem.private.key.max_allocs();
            if mem.private.allocs.len() >= most {
                return Err((
                    CheckKind::Other,
                    format!(
                        "private memory exhausted (a work-item may have {most} variables in memory at once in a work-group of this size)"
                    ),
                ));
            }
            let Ok(id) = mem.private.try_alloc(size as usize, align as usize, label) else {
                return Err((
                    CheckKind::Other,
                    format!("private memory exhausted: cannot allocate {size} bytes"),
                ));
            };
            set(r, d, mem.private.key.make(id as u32, 0));
        }
        I::Builtin { d, info } => {
            let Some(c) = f.builtins.get(info as usize) else {
                return Ok(());
            };
            match builtins::call(c, r, d, mem, index == 0) {
                Ok(()) => {}
                Err(CallFault::Mem(fault)) => {
                    return Err(exec::fault_message(
                        &fault,
                        &format!("access by `{}`", c.name),
                        owner_ids,
                    ));
                }
                Err(CallFault::Runtime(m)) => {
                    return Err((CheckKind::Other, format!("builtin `{}`: {m}", c.name)));
                }
                Err(CallFault::Check(k, m)) => return Err((k, m)),
                Err(CallFault::Unsupported) => {
                    return Err((
                        CheckKind::Other,
                        format!("builtin `{}` is not supported by the cpu device", c.name),
                    ));
                }
            }
        }
        I::Rmw { op, s, d, p, v } => {
            let (a, x) = (g(r, p), g(r, v));
            let n = s.bytes() as usize;
            align(mem, a, n, n as u64, true, "atomic operation", 0)?;
            let old = mem
                .atomic(a, n, |old| exec::rmw(op, s, old, x))
                .map_err(|e| ft(e, "atomic operation"))?;
            set(r, d, old);
        }
        I::CmpXchg { s, d, info } => {
            let (p, e, v) = f.cmpxchgs.get(info as usize).copied().unwrap_or((0, 0, 0));
            let (a, want, new) = (g(r, p), g(r, e), g(r, v));
            let n = s.bytes() as usize;
            align(mem, a, n, n as u64, true, "atomic operation", 0)?;
            let old = mem
                .atomic(a, n, |old| if old == want { new } else { old })
                .map_err(|e| ft(e, "atomic operation"))?;
            set(r, d, old);
        }
        I::AtomicLoad { s, d, p } => {
            let a = g(r, p);
            let n = s.bytes() as usize;
            align(mem, a, n, n as u64, false, "atomic load", 0)?;
            let v = mem.read_scalar(a, n).map_err(|e| ft(e, "atomic load"))?;
            set(r, d, v);
        }
        I::AtomicStore { s, p, v } => {
            let (a, x) = (g(r, p), g(r, v));
            let n = s.bytes() as usize;
            align(mem, a, n, n as u64, true, "atomic store", 0)?;
            mem.atomic(a, n, |_| x).map_err(|e| ft(e, "atomic store"))?;
        }
        _ => {
            return Err((
                CheckKind::Other,
                "native code: instruction has no slow path".to_string(),
            ));
        }
    }
    Ok(())
}

/// Shim: starts work-item `index` of the group: clears its private memory and copies the
/// by-value aggregate arguments into it (their pointers go to the io image); 0 or 1 (fault).
pub(crate) extern "C" fn shim_item(index: u64) -> u64 {
    with(|env| {
        let items = env.nd.local.iter().product();
        let i = index as usize;
        if env.privates.len() <= i {
            env.privates.resize_with(i + 1, Arena::default);
            env.marks.resize_with(i + 1, Vec::new);
        }
        let (Some(private), Some(marks)) = (env.privates.get_mut(i), env.marks.get_mut(i)) else {
            return 1;
        };
        private.clear();
        private.key = ptr::PrivKey::new(index as u32, items);
        marks.clear();
        for a in &env.aggregates {
            let id = private.alloc(a.bytes.len(), a.align as usize, a.label);
            if let Some(al) = private.allocs.get(id).copied()
                && let Some(dst) = private.bytes.get_mut(al.base..al.base + al.size)
            {
                dst.copy_from_slice(&a.bytes);
            }
            io_set(&env.io, a.slot, private.key.make(id as u32, 0));
        }
        0
    })
    .unwrap_or(1)
}

/// The local linear index of the running work-item.
fn current(env: &Env) -> usize {
    env.io.get(IO_INDEX).map_or(0, |c| c.load(Relaxed)) as usize
}

/// Shim: a call into a function with private variables begins (its frame's mark).
pub(crate) extern "C" fn shim_mark(_unused: u64) -> u64 {
    with(|env| {
        let i = current(env);
        if let (Some(p), Some(m)) = (env.privates.get(i), env.marks.get_mut(i)) {
            m.push(p.mark());
        }
        0
    })
    .unwrap_or(1)
}

/// Shim: that call returns; its private variables are released.
pub(crate) extern "C" fn shim_release(_unused: u64) -> u64 {
    with(|env| {
        let i = current(env);
        if let (Some(p), Some(m)) = (env.privates.get_mut(i), env.marks.get_mut(i))
            && let Some(mark) = m.pop()
        {
            p.release(mark);
        }
        0
    })
    .unwrap_or(1)
}

/// Shim: `ptr::add` (pointer plus signed bytes).
pub(crate) extern "C" fn shim_ptr_add(p: u64, delta: u64) -> u64 {
    ptr::add(p, delta as i64)
}

/// Shim: `ptr::add_scaled` (pointer plus index times scale).
pub(crate) extern "C" fn shim_ptr_scaled(p: u64, index: u64, scale: u64) -> u64 {
    ptr::add_scaled(p, index as i64, scale)
}
