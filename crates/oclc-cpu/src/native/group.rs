//! The work-group driver of native code: builds the launch table, installs the slow path's
//! per-thread state, runs a group's work-items through the compiled function and turns its
//! fault codes into the interpreter's reports.

use super::NativeKernel;
use super::layout::*;
use super::lower::{CODE_FELL_OFF, CODE_SHIM, CODE_STEPS, CODE_UNREACHABLE};
use super::lower::{STATE_STOP, STOP_BARRIER, STOP_DONE, index_range, lid_access_ok};
use super::roots::Root;
use super::slow::{self, Aggregate, Env};
use crate::error::{CheckKind, RuntimeError};
use crate::exec::{BoundArg, Group, Item, LaunchCtx, Stop};
use crate::memory::Arena;
use crate::ptr;
use oclc_ir::WorkItemQuery as Q;
use oclc_syntax::Span;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One worker thread's state for a launch; dropping it uninstalls the slow path's state.
pub struct Worker {
    table: Vec<u64>,
    io: Arc<[AtomicU64]>,
    /// State words of the group's work-items (see `lower::STATE_STOP`).
    state: Vec<AtomicU64>,
    /// The group's `__local` table: (address, size) per allocation.
    ltab: Vec<u64>,
    /// Whether the launch-wide words (queries, roots outside `__local` memory) are filled:
    /// after the first group, only the group's own are rewritten.
    filled: bool,
    /// The roots in `__local` memory (their words change with the group's arena).
    local_roots: Vec<usize>,
}

impl Worker {
    pub fn new(ctx: &LaunchCtx, nk: &NativeKernel) -> Worker {
        let nd = &ctx.nd;
        // One (0, 0) entry past the last allocation: native code reads the entry of a clamped
        // index before it checks the index, and that entry fails every bounds check.
        let mut table = vec![0u64; nk.gt_word + 2 * ctx.globals.len() + 2];
        table[E_DIMS] = nd.dims as u64;
        table[E_MAX_STEPS] = ctx.max_steps;
        table[E_OFFSET..E_OFFSET + 3].copy_from_slice(&nd.offset);
        table[E_GSIZE..E_GSIZE + 3].copy_from_slice(&nd.global);
        table[E_NGLOB] = ctx.globals.len() as u64;
        let kf = nk.prog.funcs.get(ctx.kernel as usize);
        let params = kf.map(|f| f.params.clone()).unwrap_or_default();
        let mut w = E_ARGS;
        let mut aggregates = Vec::new();
        for (arg, &(slot, n)) in ctx.args.iter().zip(&params) {
            match arg {
                BoundArg::Lanes(v) => {
                    for (k, x) in v.iter().take(n as usize).enumerate() {
                        if let Some(t) = table.get_mut(w + k) {
                            *t = *x;
                        }
                    }
                }
                BoundArg::Aggregate {
                    bytes,
                    align,
                    label,
                } => aggregates.push(Aggregate {
                    slot,
                    bytes: bytes.clone(),
                    align: *align,
                    label: *label,
                }),
            }
            w += n as usize;
        }
        for (i, g) in ctx.globals.iter().enumerate() {
            table[nk.gt_word + 2 * i] = g.storage.words_addr();
            table[nk.gt_word + 2 * i + 1] = g.storage.len() as u64;
        }
        let io: Arc<[AtomicU64]> = (0..nk.io_words).map(|_| AtomicU64::new(0)).collect();
        slow::install(Env {
            prog: nk.prog.clone(),
            sites: nk.sites.clone(),
            site_slots: nk.site_slots.clone(),
            globals: ctx.globals.to_vec(),
            svm: ctx.svm.to_vec(),
            local: Arena::default(),
            privates: Vec::new(),
            io: io.clone(),
            regs: Vec::new(),
            buf: Vec::new(),
            marks: Vec::new(),
            aggregates,
            nd: ctx.nd,
            group_id: [0; 3],
            group_size: [1; 3],
            fault: None,
        });
        table[E_STATE_W] = nk.state_words as u64;
        Worker {
            table,
            io,
            state: Vec::new(),
            ltab: Vec::new(),
            filled: false,
            local_roots: Vec::new(),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = slow::take();
    }
}

/// A pointer root's words for native code: its bits above the offset field, the base
/// address of its allocation, the bytes a load and a store through it may reach (0 where
/// it is no buffer or `__local` allocation of this group the access may use: NULL, a raw
/// address, a wrong cast, `__private` memory, an allocation not in the tables), and its
/// offset, sign-extended.
pub fn root_entry(p: u64, gtab: &[u64], ltab: &[u64]) -> [u64; ROOT_WORDS] {
    let soff = ptr::signed_offset(p) as u64;
    let top = p >> ptr::BAD_SHIFT;
    let (tab, st_ok) = match top {
        8 => (gtab, true),
        16 => (gtab, false),
        24 => (ltab, true),
        _ => return [p >> ptr::ALLOC_SHIFT, 0, 0, 0, soff],
    };
    let idx = ((p >> ptr::ALLOC_SHIFT) & ptr::ALLOC_MASK) as usize;
    // `ltab` ends with a (0, 0) entry, `gtab` (as sliced) does not: both are bounded here.
    let (base, size) = match (tab.get(2 * idx), tab.get(2 * idx + 1)) {
        (Some(&b), Some(&s)) => (b, s),
        _ => (0, 0),
    };
    [
        p >> ptr::ALLOC_SHIFT,
        base,
        size,
        if st_ok { size } else { 0 },
        soff,
    ]
}

fn ids_of(linear: u64, counts: [u64; 3]) -> [u64; 3] {
    if linear == 0 {
        return [0; 3];
    }
    [
        linear % counts[0],
        (linear / counts[0]) % counts[1],
        linear / (counts[0] * counts[1]),
    ]
}

/// Runs work-group `gi` natively; its printf output (none: kernels with printf run on the
/// interpreter) or the first fault, as the interpreter reports it.
pub fn run_group(
    ctx: &LaunchCtx,
    nk: &NativeKernel,
    gi: u64,
    w: &mut Worker,
) -> Result<String, Box<RuntimeError>> {
    let nd = &ctx.nd;
    let gid3 = ids_of(gi, nd.groups);
    let size = [0, 1, 2].map(|k| nd.local[k].min(nd.global[k] - gid3[k] * nd.local[k]));
    let ltab = &mut w.ltab;
    let local_err = slow::with(|env| {
        env.group_id = gid3;
        env.group_size = size;
        env.fault = None;
        env.local.clear();
        for &(sz, align, label) in ctx.local_layout {
            if let Err(e) = env.local.try_alloc(sz, align, label) {
                return Some(format!("__local {label} of work-group {gid3:?}: {e}"));
            }
        }
        // The arena does not grow while the group runs: its addresses stay valid.
        let at = env.local.bytes.as_ptr() as u64;
        ltab.clear();
        for al in &env.local.allocs {
            ltab.push(at + al.base as u64);
            ltab.push(al.size as u64);
        }
        // The (0, 0) entry past the last one (see `Worker::new`).
        ltab.extend([0, 0]);
        None
    })
    .flatten();
    if let Some(message) = local_err {
        return Err(Box::new(RuntimeError {
            kind: CheckKind::Other,
            message,
            span: Span::DUMMY,
            group_id: gid3,
            ..RuntimeError::default()
        }));
    }
    let t = &mut w.table;
    let size3 = size;
    let gbase = [0, 1, 2].map(|k| nd.offset[k] + gid3[k] * nd.local[k]);
    t[E_SIZE..E_SIZE + 3].copy_from_slice(&size);
    t[E_GBASE..E_GBASE + 3].copy_from_slice(&gbase);
    let dims = nd.dims as u64;
    let pick = |a: [u64; 3], dflt: u64, d: usize| {
        if (d as u64) < dims && d < 3 {
            a[d]
        } else {
            dflt
        }
    };
    let all_queries = [
        (Q::GroupId, gid3, 0),
        (Q::LocalSize, size, 1),
        (Q::GlobalSize, nd.global, 1),
        (Q::EnqueuedLocalSize, nd.local, 1),
        (Q::NumGroups, nd.groups, 1),
        (Q::GlobalOffset, nd.offset, 0),
        (Q::WorkDim, [dims; 3], dims),
    ];
    // The group's own (its id and size) always, the launch's once per worker.
    let queries = if w.filled {
        &all_queries[..2]
    } else {
        &all_queries[..]
    };
    for &(q, a, dflt) in queries {
        for d in 0..4 {
            let v = if q == Q::WorkDim {
                dims
            } else {
                pick(a, dflt, d)
            };
            t[E_QUERY + 4 * query_index(q) + d] = v;
        }
    }
    let n = (size[0] * size[1] * size[2]) as usize;
    // Without barriers only eager stores (none) could use the state words: the work-items
    // need no stop words scanned when they finish.
    let words = if nk.barriers { n * nk.state_words } else { 0 };
    if w.state.len() < words {
        w.state.resize_with(words, || AtomicU64::new(0));
    }
    let nglob = ctx.globals.len();
    let root_value = |t: &[u64], k: usize| match nk.roots.get(k) {
        Some(&(Root::Param(_), v)) => t.get(v as usize).copied().unwrap_or(0),
        Some(&(Root::Const(_), v)) => v,
        None => 0,
    };
    let fill_root = |t: &mut [u64], k: usize, ltab: &[u64]| {
        let p = root_value(t, k);
        let gtab = t.get(nk.gt_word..nk.gt_word + 2 * nglob).unwrap_or(&[]);
        let e = root_entry(p, gtab, ltab);
        let at = nk.roots_word + ROOT_WORDS * k;
        if let Some(d) = t.get_mut(at..at + ROOT_WORDS) {
            d.copy_from_slice(&e);
        }
        p >> ptr::BAD_SHIFT == 24
    };
    if w.filled {
        for &k in &w.local_roots {
            fill_root(t, k, &w.ltab);
        }
    } else {
        w.local_roots.clear();
        for k in 0..nk.roots.len() {
            if fill_root(t, k, &w.ltab) {
                w.local_roots.push(k);
            }
        }
        w.filled = true;
    }
    t[E_STATE] = w.state.as_ptr() as u64;
    t[E_LTAB] = w.ltab.as_ptr() as u64;
    t[E_NLOC] = (w.ltab.len() / 2).saturating_sub(1) as u64;
    let stop_of = |w: &Worker, k: usize| {
        w.state
            .get(k * nk.state_words + STATE_STOP)
            .map_or(STOP_DONE, |s| s.load(Relaxed))
    };
    // The vector function, where the kernel has one and the group's width allows: the
    // chunks it hands back (a failed check, lanes that disagree, a row's last work-items)
    // run on the scalar code, which reports their faults as always.
    let mut handed = None;
    let mut scalar_ready = false;
    if let (Ok(&(ventry, with_barriers)), true) = (nk.vector.as_ref(), ctx.vector) {
        let lanes = super::vector::LANES as u64;
        if size3[0] >= lanes && (!with_barriers || size3[0] % lanes == 0) {
            let mut start = 0;
            loop {
                let at = nk.item_word + ITEM_START;
                if let Some(t) = w.table.get_mut(at..at + 3) {
                    t.copy_from_slice(&ids_of(start, size3));
                }
                let st = super::call::run(ventry, &w.table, &w.io, &w.state);
                if st == 0 {
                    return Ok(String::new());
                }
                if with_barriers || st == super::vector::GROUP_FALLBACK {
                    break;
                }
                let lin = super::vector::handed_item(st);
                if !scalar_ready {
                    scalar_words(&mut w.table, nk, size3);
                    scalar_ready = true;
                }
                set_items(w, nk, lin, lin + 1, size3);
                w.table[E_FRESH] = 1;
                let st = super::call::run(nk.entry, &w.table, &w.io, &w.state);
                if st != 0 {
                    handed = Some(st);
                    break;
                }
                start = lin + 1;
            }
        }
    }
    if !scalar_ready {
        scalar_words(&mut w.table, nk, size3);
    }
    // The whole group on the scalar code (unless a handed-back chunk faulted).
    if handed.is_none() {
        set_items(w, nk, 0, n as u64, size3);
    }
    // The first call starts every work-item (it reads no stop word), the later ones
    // resume them.
    w.table[E_FRESH] = 1;
    let status = if let Some(st) = handed {
        st
    } else {
        loop {
            let status = super::call::run(nk.entry, &w.table, &w.io, &w.state);
            w.table[E_FRESH] = 0;
            if status != 0 {
                break status;
            }
            if !nk.barriers {
                return Ok(String::new());
            }
            // Every work-item stopped: all returned, or all wait at one barrier.
            let at = |code: u64| -> Stop {
                if code < STOP_BARRIER {
                    return Stop::Done;
                }
                let (func, pc) = nk
                    .sites
                    .get((code - STOP_BARRIER) as usize)
                    .copied()
                    .unwrap_or((0, 0));
                Stop::Barrier { func, pc }
            };
            let first_word = stop_of(w, 0);
            let first = at(first_word);
            // Equal words stop at the same place: only a group whose words differ (rare: all
            // returned, or a divergence) compares their stops.
            let sw = nk.state_words.max(1);
            let same = w
                .state
                .iter()
                .skip(STATE_STOP)
                .take(n * sw)
                .step_by(sw)
                .all(|s| s.load(Relaxed) == first_word);
            if let Some(k) = (1..n)
                .filter(|_| !same)
                .find(|&k| at(stop_of(w, k)) != first)
            {
                let item = |k: usize, stop: Stop| {
                    let lid = ids_of(k as u64, size);
                    let mut it = Item::default();
                    it.lid = lid;
                    it.gid = [0, 1, 2].map(|d| gbase[d] + lid[d]);
                    it.stop = Some(stop);
                    it
                };
                let g = Group {
                    id: gid3,
                    ..Group::default()
                };
                let other = at(stop_of(w, k));
                return Err(crate::device::divergence(
                    ctx,
                    &g,
                    &item(0, first),
                    &item(k, other),
                ));
            }
            if first == Stop::Done {
                return Ok(String::new());
            }
        }
    };
    let io = |k: usize| w.io.get(k).map_or(0, |c| c.load(Relaxed));
    let lid = [io(IO_LID), io(IO_LID + 1), io(IO_LID + 2)];
    let gid = [0, 1, 2].map(|k| gbase[k] + lid[k]);
    let site = (status >> 8) as usize;
    let (fi, pc) = nk.sites.get(site).copied().unwrap_or((0, 0));
    let span = nk
        .prog
        .funcs
        .get(fi as usize)
        .and_then(|f| f.spans.get(pc as usize))
        .copied()
        .unwrap_or(Span::DUMMY);
    let (kind, message) = match status & 0xff {
        CODE_SHIM => slow::with(|env| env.fault.take()).flatten().unwrap_or((
            CheckKind::Other,
            "native code: fault without a report".into(),
        )),
        CODE_STEPS => (
            CheckKind::StepLimit,
            format!(
                "work-item exceeded the step limit of {} (a runaway loop?); raise it with --max-steps",
                ctx.max_steps
            ),
        ),
        CODE_UNREACHABLE => (CheckKind::Other, "reached unreachable code".into()),
        CODE_FELL_OFF => (CheckKind::Other, "fell off the end of a function".into()),
        _ => (
            CheckKind::Other,
            format!("native code: bad status {status:#x}"),
        ),
    };
    Err(Box::new(RuntimeError {
        kind,
        message,
        span,
        global_id: gid,
        local_id: lid,
        group_id: gid3,
        note: None,
        ..RuntimeError::default()
    }))
}

/// Sets the work-items the scalar function runs: linear indices `first..end` of a group of
/// `size`.
fn set_items(w: &mut Worker, nk: &NativeKernel, first: u64, end: u64, size: [u64; 3]) {
    let lid = ids_of(first, size.map(|s| s.max(1)));
    let at = nk.item_word;
    if let Some(t) = w.table.get_mut(at..at + ITEM_WORDS) {
        t[ITEM_FIRST] = first;
        t[ITEM_LID..ITEM_LID + 3].copy_from_slice(&lid);
        t[ITEM_END] = end;
    }
}

/// The words only the scalar function reads: the index ranges of accesses through the roots
/// (see `lower::index_range`) and whether the group's accesses at local ids all pass (see
/// `lower::lid_access_ok`); filled before the group's first scalar call.
fn scalar_words(t: &mut [u64], nk: &NativeKernel, size3: [u64; 3]) {
    for (i, req) in nk.ranges.iter().enumerate() {
        let at = nk.roots_word + ROOT_WORDS * req.root;
        let word = |j: usize| t.get(at + j).copied().unwrap_or(0);
        let size = if req.store { word(3) } else { word(2) };
        let (first, count) = index_range(req, word(4) as i64, size as i64);
        let w = nk.ranges_word + 2 * i;
        if let Some(d) = t.get_mut(w..w + 2) {
            d.copy_from_slice(&[first, count]);
        }
    }
    for (i, req) in nk.lid_reqs.iter().enumerate() {
        let at = nk.roots_word + ROOT_WORDS * req.root;
        let word = |j: usize| t.get(at + j).copied().unwrap_or(0);
        let size = if req.store { word(3) } else { word(2) };
        let ok = lid_access_ok(req, word(4) as i64, size as i64, size3);
        if let Some(d) = t.get_mut(nk.lid_word + i) {
            *d = ok as u64;
        }
    }
}
