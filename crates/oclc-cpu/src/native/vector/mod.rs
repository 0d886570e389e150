//! Work-items as SIMD lanes: a second work-group function for kernels whose accesses and
//! branches depend only on the work-item ids and the arguments (not on memory), without
//! loops, calls or private variables. It runs a group in chunks of consecutive work-items
//! along dimension 0 (16, 8, 4 or 1: [`WIDTHS`]). Each chunk is first tested whole without
//! touching memory (every access's bounds, alignment and writability, every branch's lanes
//! agreeing, the lanes' order of accesses to one buffer), then runs with no test left (one
//! fused pass where every store ends its path). A chunk that fails runs again narrower; a
//! single work-item that fails runs on the scalar code ([`super::lower`]), which finds and
//! reports the fault exactly as before. With barriers the whole group is tested first (all
//! regions) and runs on the scalar code on any failure, since nothing has been written yet.

mod emit;
mod plan;

use super::layout::*;
use super::roots::Root;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{self, InstBuilder, MemFlagsData, types};
use cranelift_frontend::FunctionBuilder;
use emit::{Emit, RootW, Span, VV, Val};
use oclc_ir::{Module, Scalar, Type};
pub use plan::Plan;

/// Work-items per chunk: a group's rows run in chunks of [`WIDE`] where they can, else
/// (and where a chunk fails its tests) of [`MID`], then [`NARROW`], then single ones.
pub const WIDE: usize = 16;
pub const MID: usize = 8;
pub const NARROW: usize = 4;
/// The chunk widths, widest first.
const WIDTHS: [usize; 4] = [WIDE, MID, NARROW, 1];
/// The most lanes of a chunk, and SIMD registers (4 lanes each) of a value.
pub const MAX_LANES: usize = WIDE;
pub const MAX_REGS: usize = WIDE / 4;
/// The narrowest chunk: the groups the vector code runs are at least this wide.
pub const LANES: usize = NARROW;

/// Status of a group that must run on the scalar code whole: its roots fail the per-group
/// tests (overlap, size, alignment), or a kernel with barriers failed its check pass.
pub const GROUP_FALLBACK: u64 = u64::MAX;

/// The linear index of the work-item a status hands back to the scalar code (the status is
/// that index plus one: 0 means the group is done).
pub fn handed_item(status: u64) -> u64 {
    status.saturating_sub(1)
}

/// Words of the launch table the vector function reads.
pub struct Words {
    /// First argument word of each kernel parameter.
    pub params: Vec<usize>,
    pub roots_word: usize,
    /// The linear index of the work-item to start from (a chunk's first).
    pub start_word: usize,
}

/// Builds the vector work-group function of `plan` into `b` (its signature: launch table,
/// io image, returning a status: 0 done, [`GROUP_FALLBACK`], or a chunk fallback).
pub fn build(
    b: &mut FunctionBuilder,
    m: &Module,
    kernel: usize,
    plan: &Plan,
    roots: &[(Root, u64)],
    words: &Words,
) -> Result<(), String> {
    let f = m.functions.get(kernel).ok_or("no such kernel")?;
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let env = b.block_params(entry)[0];
    let fixed = MemFlagsData::trusted().with_readonly();
    let ld =
        |b: &mut FunctionBuilder, w: usize| b.ins().load(types::I64, fixed, env, (w * 8) as i32);
    let size: [ir::Value; 3] = std::array::from_fn(|k| ld(b, E_SIZE + k));
    let gbase: [ir::Value; 3] = std::array::from_fn(|k| ld(b, E_GBASE + k));
    let mut args = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let w = words.params.get(i).copied().ok_or("bad parameter words")?;
        let x = ld(b, w);
        let v = match p.ty {
            Type::Scalar(s) => {
                let t = emit::cl_ty(s);
                Some(match s {
                    Scalar::F32 => {
                        let i = b.ins().ireduce(types::I32, x);
                        b.ins().bitcast(types::F32, MemFlagsData::new(), i)
                    }
                    Scalar::F64 => b.ins().bitcast(types::F64, MemFlagsData::new(), x),
                    _ if t == types::I64 => x,
                    Scalar::I1 => {
                        let i = b.ins().ireduce(types::I8, x);
                        b.ins().band_imm_s(i, 1)
                    }
                    _ => b.ins().ireduce(t, x),
                })
            }
            _ => None,
        };
        args.push(v);
    }
    let root_words: Vec<Option<RootW>> = (0..roots.len())
        .map(|k| {
            let at = words.roots_word + ROOT_WORDS * k;
            Some(RootW {
                base: ld(b, at + 1),
                size_ld: ld(b, at + 2),
                size_st: ld(b, at + 3),
                soff: ld(b, at + 4),
            })
        })
        .collect();
    // The start's local ids (the driver's division, not one per group here).
    let x0 = ld(b, words.start_word);
    let y0 = ld(b, words.start_word + 1);
    let z0 = ld(b, words.start_word + 2);
    let (xv, yv, zv) = (
        b.declare_var(types::I64),
        b.declare_var(types::I64),
        b.declare_var(types::I64),
    );
    b.def_var(xv, x0);
    b.def_var(yv, y0);
    b.def_var(zv, z0);
    let mut e = Emit {
        b,
        plan,
        n: NARROW,
        env,
        test: true,
        work: false,
        pending: Vec::new(),
        caps: Default::default(),
        fail: entry,
        lid: [x0; 3],
        gbase,
        roots: root_words,
        args,
        vals: Default::default(),
        seen: Default::default(),
    };
    let zero = e.b.ins().iconst(types::I64, 0);
    // Roots the lanes may reach in one another's order must not overlap: else the group
    // runs on the scalar code.
    let mut whole_group = e.b.ins().iconst(types::I8, 0);
    for &(r1, r2) in &plan.disjoint {
        let (Some(a), Some(c)) = (
            e.roots.get(r1 as usize).copied().flatten(),
            e.roots.get(r2 as usize).copied().flatten(),
        ) else {
            return Err("a root without words".into());
        };
        let a_end = e.b.ins().iadd(a.base, a.size_ld);
        let c_end = e.b.ins().iadd(c.base, c.size_ld);
        let x = e.b.ins().icmp(IntCC::UnsignedLessThan, a.base, c_end);
        let y = e.b.ins().icmp(IntCC::UnsignedLessThan, c.base, a_end);
        let both = e.b.ins().band(x, y);
        whole_group = e.b.ins().bor(whole_group, both);
    }
    // The bounds each chunk width compares with; a root too small for a narrow chunk's
    // accesses, or whose offset breaks the alignment they rely on, runs the group on the
    // scalar code; one too small for wider chunks' accesses, in narrower chunks.
    let no0 = e.b.ins().iconst(types::I8, 0);
    let mut too_small = [no0; WIDTHS.len()];
    for &(root, store, bytes, stride) in &plan.caps {
        let Some(rw) = e.roots.get(root as usize).copied().flatten() else {
            return Err("a root without words".into());
        };
        let size = if store { rw.size_st } else { rw.size_ld };
        for (wi, n) in WIDTHS.into_iter().enumerate() {
            let need = bytes + stride.saturating_mul(n as i64 - 1).abs();
            if e.caps.contains_key(&(root, store, need)) {
                continue;
            }
            let small = e.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, size, need);
            let cap = e.b.ins().iadd_imm_s(size, -need);
            // Only a narrow chunk's need decides for the group (wider chunks give way to
            // narrower ones, single work-items test their own).
            let small = match n {
                NARROW => {
                    whole_group = e.b.ins().bor(whole_group, small);
                    None
                }
                1 => Some(small),
                _ => {
                    too_small[wi] = e.b.ins().bor(too_small[wi], small);
                    None
                }
            };
            e.caps.insert((root, store, need), (cap, small));
        }
    }
    for &(root, bytes) in &plan.align {
        let Some(rw) = e.roots.get(root as usize).copied().flatten() else {
            return Err("a root without words".into());
        };
        if bytes > 1 {
            let m = e.b.ins().band_imm_s(rw.soff, bytes as i64 - 1);
            let mis = e.b.ins().icmp_imm_s(IntCC::NotEqual, m, 0);
            whole_group = e.b.ins().bor(whole_group, mis);
        }
    }
    let scalar_group = e.b.create_block();
    let go = e.b.create_block();
    e.b.set_cold_block(scalar_group);
    e.b.ins().brif(whole_group, scalar_group, &[], go, &[]);
    e.b.seal_block(scalar_group);
    e.b.seal_block(go);
    e.b.switch_to_block(scalar_group);
    let g = e.b.ins().iconst(types::I64, GROUP_FALLBACK as i64);
    e.b.ins().return_(&[g]);
    e.b.switch_to_block(go);
    let v = Vars {
        x: xv,
        y: yv,
        z: zv,
        size,
        zero,
        too_small,
    };
    if plan.barriers.is_empty() {
        chunks(&mut e, f, &v)
    } else {
        // A group runs in the widest chunks its width is a multiple of (at least NARROW:
        // the driver's condition).
        for (wi, n) in WIDTHS.into_iter().enumerate() {
            if n == NARROW {
                return groupwise(&mut e, f, &v, NARROW);
            }
            let odd = e.b.ins().band_imm_s(size[0], n as i64 - 1);
            let odd = e.b.ins().icmp_imm_s(IntCC::NotEqual, odd, 0);
            let not = e.b.ins().bor(odd, v.too_small[wi]);
            let (this, next) = (e.b.create_block(), e.b.create_block());
            e.b.ins().brif(not, next, &[], this, &[]);
            e.b.seal_block(this);
            e.b.seal_block(next);
            e.b.switch_to_block(this);
            groupwise(&mut e, f, &v, n)?;
            e.b.switch_to_block(next);
        }
        Err("no chunk width".into())
    }
}

/// The chunk loop's variables (local ids of the chunk's first work-item) and the group's
/// size.
struct Vars {
    x: cranelift_frontend::Variable,
    y: cranelift_frontend::Variable,
    z: cranelift_frontend::Variable,
    size: [ir::Value; 3],
    zero: ir::Value,
    /// Per width of [`WIDTHS`]: whether a root is too small for such chunks (they are not
    /// used then).
    too_small: [ir::Value; WIDTHS.len()],
}

/// One chunk of `n` lanes at the current ids: tested and run (fused, or a check pass and
/// a fast pass); to `fail` when a test fails (nothing written yet), to `exit` when done.
fn chunk_body(
    e: &mut Emit,
    f: &oclc_ir::Function,
    v: &Vars,
    n: usize,
    fail: ir::Block,
    exit: ir::Block,
) -> Result<(), String> {
    let whole = Span {
        start: (f.entry(), 0),
        stop: None,
    };
    let (x, y, z) = (e.b.use_var(v.x), e.b.use_var(v.y), e.b.use_var(v.z));
    e.lid = [x, y, z];
    e.n = n;
    e.fail = fail;
    if e.plan.fusable {
        // One pass: tests as they come, stores once all passed.
        e.test = true;
        e.work = true;
        e.vals.clear();
        e.seen.clear();
        seed(e, f)?;
        return e.emit(&whole, exit);
    }
    let checked = e.b.create_block();
    e.test = true;
    e.work = false;
    e.vals.clear();
    e.seen.clear();
    seed(e, f)?;
    e.emit(&whole, checked)?;
    e.b.switch_to_block(checked);
    e.b.seal_block(checked);
    e.test = false;
    e.work = true;
    e.vals.clear();
    seed(e, f)?;
    e.emit(&whole, exit)
}

/// A kernel without barriers: chunk after chunk from the start ids, each the widest of
/// [`WIDTHS`] that fits at x and passes its tests (a failed chunk runs again narrower);
/// a single work-item that fails goes back to the driver for the scalar code, which
/// reports its fault.
fn chunks(e: &mut Emit, f: &oclc_ir::Function, v: &Vars) -> Result<(), String> {
    let size = v.size;
    let head = e.b.create_block();
    let fallback = e.b.create_block();
    let done = e.b.create_block();
    e.b.set_cold_block(fallback);
    e.b.ins().jump(head, &[]);
    e.b.switch_to_block(head);
    let z = e.b.use_var(v.z);
    let end =
        e.b.ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, z, size[2]);
    let body = e.b.create_block();
    e.b.ins().brif(end, done, &[], body, &[]);
    e.b.seal_block(body);
    e.b.switch_to_block(body);
    let mut ends = Vec::new();
    // Each width in turn: where it fits (x a multiple of it, that many work-items left in
    // the row, no root too small for it), a chunk of it; where it does not fit or fails its
    // tests, the next; a single work-item that fails goes to the driver.
    for (wi, n) in WIDTHS.into_iter().enumerate() {
        let next = if n == 1 { fallback } else { e.b.create_block() };
        let this_done = e.b.create_block();
        if n > 1 {
            let x = e.b.use_var(v.x);
            let xn = e.b.ins().iadd_imm_s(x, n as i64);
            let room = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, xn, size[0]);
            let al = e.b.ins().band_imm_s(x, n as i64 - 1);
            let aligned = e.b.ins().icmp_imm_s(IntCC::Equal, al, 0);
            let mut ok = e.b.ins().band(room, aligned);
            if n != NARROW {
                let can = e.b.ins().bxor_imm_s(v.too_small[wi], 1);
                ok = e.b.ins().band(ok, can);
            }
            let this = e.b.create_block();
            e.b.ins().brif(ok, this, &[], next, &[]);
            e.b.seal_block(this);
            e.b.switch_to_block(this);
        }
        chunk_body(e, f, v, n, next, this_done)?;
        ends.push((this_done, n));
        if n > 1 {
            e.b.switch_to_block(next);
            e.b.seal_block(next);
        }
    }
    for (blk, n) in ends {
        e.b.switch_to_block(blk);
        e.b.seal_block(blk);
        next_chunk(e, v, n, head);
    }
    e.b.switch_to_block(fallback);
    e.b.seal_block(fallback);
    let st = status(e, v);
    e.b.ins().return_(&[st]);
    e.b.seal_block(head);
    e.b.switch_to_block(done);
    e.b.seal_block(done);
    e.b.ins().return_(&[v.zero]);
    Ok(())
}

/// A kernel with barriers, in chunks of `n` lanes: every chunk of the group is checked
/// (all regions at once) before any runs, then each region runs over every chunk; a failed
/// check sends the whole group to the scalar code (nothing written yet).
fn groupwise(e: &mut Emit, f: &oclc_ir::Function, v: &Vars, n: usize) -> Result<(), String> {
    let plan = e.plan;
    let size = v.size;
    let fallback = e.b.create_block();
    e.b.set_cold_block(fallback);
    e.n = n;
    let regions = plan.barriers.len() + 1;
    for r in 0..=regions {
        let check = r == 0;
        let span = if check {
            Span {
                start: (f.entry(), 0),
                stop: None,
            }
        } else {
            let k = r - 1;
            Span {
                start: if k == 0 {
                    (f.entry(), 0)
                } else {
                    let (bb, i) = plan.barriers[k - 1];
                    (bb, i + 1)
                },
                stop: plan.barriers.get(k).copied(),
            }
        };
        e.b.def_var(v.x, v.zero);
        e.b.def_var(v.y, v.zero);
        e.b.def_var(v.z, v.zero);
        let head = e.b.create_block();
        let body = e.b.create_block();
        let advance = e.b.create_block();
        let after = e.b.create_block();
        e.b.ins().jump(head, &[]);
        e.b.switch_to_block(head);
        let (x, y, z) = (e.b.use_var(v.x), e.b.use_var(v.y), e.b.use_var(v.z));
        let end =
            e.b.ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, z, size[2]);
        e.b.ins().brif(end, after, &[], body, &[]);
        e.b.seal_block(body);
        e.b.switch_to_block(body);
        e.lid = [x, y, z];
        e.test = check;
        e.work = !check;
        e.fail = fallback;
        e.vals.clear();
        e.seen.clear();
        seed(e, f)?;
        if !check {
            remat(e, &span)?;
        }
        e.emit(&span, advance)?;
        e.b.switch_to_block(advance);
        e.b.seal_block(advance);
        next_chunk(e, v, n, head);
        e.b.seal_block(head);
        e.b.switch_to_block(after);
        e.b.seal_block(after);
    }
    e.b.ins().return_(&[v.zero]);
    e.b.switch_to_block(fallback);
    e.b.seal_block(fallback);
    let g = e.b.ins().iconst(types::I64, GROUP_FALLBACK as i64);
    e.b.ins().return_(&[g]);
    Ok(())
}

/// After a chunk of `n`: x on by `n`, or (at the row's end) x back to 0 and y on (z when y
/// wraps); then to `head`.
fn next_chunk(e: &mut Emit, v: &Vars, n: usize, head: ir::Block) {
    let x = e.b.use_var(v.x);
    let xn = e.b.ins().iadd_imm_s(x, n as i64);
    let wrap =
        e.b.ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, xn, v.size[0]);
    let (same_row, next_row) = (e.b.create_block(), e.b.create_block());
    e.b.ins().brif(wrap, next_row, &[], same_row, &[]);
    e.b.seal_block(same_row);
    e.b.seal_block(next_row);
    e.b.switch_to_block(same_row);
    e.b.def_var(v.x, xn);
    e.b.ins().jump(head, &[]);
    e.b.switch_to_block(next_row);
    e.b.def_var(v.x, v.zero);
    let y = e.b.use_var(v.y);
    let y1 = e.b.ins().iadd_imm_s(y, 1);
    let wrap =
        e.b.ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, y1, v.size[1]);
    let z = e.b.use_var(v.z);
    let z1 = e.b.ins().iadd_imm_s(z, 1);
    let ny = e.b.ins().select(wrap, v.zero, y1);
    let nz = e.b.ins().select(wrap, z1, z);
    e.b.def_var(v.y, ny);
    e.b.def_var(v.z, nz);
    e.b.ins().jump(head, &[]);
}

/// The status that hands the work-item at the current ids to the scalar code (see
/// [`handed_item`]).
fn status(e: &mut Emit, v: &Vars) -> ir::Value {
    let (x, y, z) = (e.b.use_var(v.x), e.b.use_var(v.y), e.b.use_var(v.z));
    let zy = e.b.ins().imul(z, v.size[1]);
    let row = e.b.ins().iadd(zy, y);
    let rx = e.b.ins().imul(row, v.size[0]);
    let lin = e.b.ins().iadd(rx, x);
    e.b.ins().iadd_imm_s(lin, 1)
}

/// The kernel's parameters as values: uniform arguments and pointer roots.
fn seed(e: &mut Emit, f: &oclc_ir::Function) -> Result<(), String> {
    for (i, &v) in f.params_of(f.entry()).iter().enumerate() {
        let val = match e.plan.kinds[v.index()] {
            plan::K::P(root, _) => {
                let z = e.b.ins().iconst(types::I64, 0);
                Val::Ptr(root, VV::U(z))
            }
            plan::K::N(_) => match e.args.get(i).copied().flatten() {
                Some(x) => Val::N(VV::U(x)),
                None => return Err("a parameter without a value".into()),
            },
        };
        e.vals.insert(v, val);
    }
    Ok(())
}

/// Recomputes, at a region's start, the values it uses from earlier regions (the plan
/// allows only ids, constants and arguments there).
fn remat(e: &mut Emit, span: &Span) -> Result<(), String> {
    let f = e.plan.f;
    let regions = e.plan.regions();
    let here = regions
        .get(&(
            span.start.0,
            f.blocks[span.start.0.index()]
                .insts
                .get(span.start.1)
                .copied()
                .unwrap_or(oclc_ir::Inst(0)),
        ))
        .copied()
        .unwrap_or(0);
    let mut defined_here = std::collections::HashSet::new();
    let mut used = Vec::new();
    for &b in &e.plan.cfg.order {
        for &i in &f.blocks[b.index()].insts {
            if regions.get(&(b, i)).copied() != Some(here) {
                continue;
            }
            if let Some(d) = f.insts.get(i.index()) {
                if let Some(r) = d.result {
                    defined_here.insert(r);
                }
                d.op.for_each_operand(|v| used.push(v));
            }
            for &p in f.params_of(b) {
                defined_here.insert(p);
            }
        }
    }
    for v in used {
        if !defined_here.contains(&v) {
            remat_value(e, v, 0)?;
        }
    }
    Ok(())
}

fn remat_value(e: &mut Emit, v: oclc_ir::Value, depth: usize) -> Result<(), String> {
    if e.vals.contains_key(&v) {
        return Ok(());
    }
    if depth > 64 {
        return Err("values nested too deeply".into());
    }
    let f = e.plan.f;
    let Some(oclc_ir::ValueDef::Inst(i)) = f.values.get(v.index()).map(|d| d.def) else {
        return Err("a block parameter used after a barrier".into());
    };
    let d = f.insts.get(i.index()).ok_or("bad instruction")?;
    let mut ops = Vec::new();
    d.op.for_each_operand(|o| ops.push(o));
    for o in ops {
        remat_value(e, o, depth + 1)?;
    }
    e.inst(i, &d.op, d.result)
}
