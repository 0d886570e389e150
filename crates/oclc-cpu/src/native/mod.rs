//! The native back end of the cpu device: kernels compiled to machine code with Cranelift,
//! with every check of the interpreter kept (compare-and-branch to cold fault paths, or the
//! interpreter's own code on the slow path). Kernels it cannot compile yet (barriers,
//! work-group collectives, printf) run on the interpreter: [`compile`] says
//! [`Unsupported`].

mod call;
pub mod group;
pub mod layout;
mod live;
mod lower;
pub(crate) mod roots;
mod slow;
mod vector;

use crate::decode::Program;
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlagsData, UserFuncName, types};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module as _, default_libcall_names};
use layout::*;
use oclc_ir::{Module, ParamKind};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a kernel runs on the interpreter instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not compiled natively: {}", self.0)
    }
}

/// A kernel compiled to native code.
pub struct NativeKernel {
    /// Code address of the work-group function.
    entry: usize,
    /// Keeps the code alive.
    _module: Mutex<JITModule>,
    pub(crate) prog: Arc<Program>,
    pub(crate) sites: Arc<[(u32, u32)]>,
    /// The slots each site's instruction reads and writes (computed once, not per call).
    pub(crate) site_slots: Arc<[(slow::Slots, slow::Slots)]>,
    /// Words of the io image.
    pub(crate) io_words: usize,
    /// Where the global table starts in the launch table.
    pub(crate) gt_word: usize,
    /// Where the pointer roots' words start in the launch table.
    pub(crate) roots_word: usize,
    /// The index ranges native code reads, two words each at `ranges_word`.
    pub(crate) ranges: Vec<lower::RangeReq>,
    pub(crate) ranges_word: usize,
    /// The per-group flags of accesses at local ids, one word each at `lid_word`.
    pub(crate) lid_reqs: Vec<lower::LidReq>,
    pub(crate) lid_word: usize,
    /// Where the work-item range words start (see `layout::ITEM_WORDS`).
    pub(crate) item_word: usize,
    /// The vector work-group function (its code address) and whether the kernel has
    /// barriers (see [`vector`]), or why the kernel has none.
    pub vector: Result<(usize, bool), String>,
    /// The pointer roots: a parameter's argument word in the launch table, or an address
    /// constant's value.
    pub(crate) roots: Vec<(roots::Root, u64)>,
    /// State words per work-item (1 without barriers: where it stopped).
    pub(crate) state_words: usize,
    /// Whether the kernel (or a callee) has a barrier: without one, every work-item runs
    /// to its end in one call and the state words are not used.
    pub(crate) barriers: bool,
    /// The most steps a work-item can take, where no function it runs has a loop: its code
    /// has no step checks, and a launch with a lower step limit runs on the interpreter.
    pub step_bound: Option<u64>,
    /// How long compiling took.
    pub compile_time: Duration,
}

impl std::fmt::Debug for NativeKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeKernel")
            .field("compile_time", &self.compile_time)
            .finish()
    }
}

fn cl_err(e: impl std::fmt::Display) -> Unsupported {
    Unsupported(format!("code generator: {e}"))
}

/// Compiles kernel `kernel` of `prog` (decoded from `module`).
pub fn compile(
    module: &Module,
    prog: &Arc<Program>,
    kernel: u32,
) -> Result<NativeKernel, Unsupported> {
    let t0 = Instant::now();
    let kf = prog
        .funcs
        .get(kernel as usize)
        .ok_or_else(|| Unsupported("no such kernel".into()))?;
    let (size, depth) = lower::inlined_size(prog, kernel);
    if size > lower::MAX_INLINED {
        return Err(Unsupported(format!(
            "{} decoded instructions once calls are inlined (at most {})",
            if size == u64::MAX {
                "too many".to_string()
            } else {
                size.to_string()
            },
            lower::MAX_INLINED
        )));
    }
    if depth > lower::MAX_DEPTH {
        return Err(Unsupported("calls nested too deeply to inline".into()));
    }
    let mut fb = settings::builder();
    fb.set("opt_level", "speed").map_err(cl_err)?;
    fb.set("is_pic", "false").map_err(cl_err)?;
    let isa = cranelift_native::builder()
        .map_err(cl_err)?
        .finish(settings::Flags::new(fb))
        .map_err(cl_err)?;
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    let shims: [(&str, *const u8, usize); 6] = [
        ("oclc_exec", slow::shim_exec as *const u8, 1),
        ("oclc_item", slow::shim_item as *const u8, 1),
        ("oclc_mark", slow::shim_mark as *const u8, 1),
        ("oclc_release", slow::shim_release as *const u8, 1),
        ("oclc_ptr_add", slow::shim_ptr_add as *const u8, 2),
        ("oclc_ptr_scaled", slow::shim_ptr_scaled as *const u8, 3),
    ];
    for (name, p, _) in shims {
        jb.symbol(name, p);
    }
    let mut m = JITModule::new(jb);
    let cc = m.isa().default_call_conv();
    // Native code calls each shim through a trampoline that preserves every register and
    // leaves the shim's result in the io image (`IO_RET`): a slow path's call, cold as it
    // is, then clobbers no register of the hot code around it (float registers included,
    // which the system ABI does not preserve), so values live across it stay in registers.
    let mut ids = Vec::new();
    let mut ctx = m.make_context();
    let mut fctx = FunctionBuilderContext::new();
    for (k, (name, _, n)) in shims.into_iter().enumerate() {
        let imp = m
            .declare_function(name, Linkage::Import, &lower::shim_sig(cc, n))
            .map_err(cl_err)?;
        let tsig = lower::tramp_sig(n);
        let id = m
            .declare_function(&format!("{name}_tramp"), Linkage::Local, &tsig)
            .map_err(cl_err)?;
        ctx.func.signature = tsig;
        ctx.func.name = UserFuncName::user(1, k as u32);
        {
            let tc = m.target_config();
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let blk = b.create_block();
            b.append_block_params_for_function_params(blk);
            b.switch_to_block(blk);
            b.seal_block(blk);
            let ps = b.block_params(blk).to_vec();
            let fr = m.declare_func_in_func(imp, b.func);
            let (args, io) = ps.split_at(n);
            let call = b.ins().call(fr, args);
            let r = b.inst_results(call)[0];
            if let Some(&io) = io.first() {
                b.ins()
                    .store(MemFlagsData::trusted(), r, io, (IO_RET * 8) as i32);
            }
            b.ins().return_(&[]);
            b.finalize(tc);
        }
        m.define_function(id, &mut ctx).map_err(cl_err)?;
        m.clear_context(&mut ctx);
        ids.push(id);
    }
    let sig = group_fn_sig(&m);
    let fid = m
        .declare_function("oclc_kernel", Linkage::Local, &sig)
        .map_err(cl_err)?;
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, fid.as_u32());
    let kparams = module
        .functions
        .get(kernel as usize)
        .map(|f| f.params.clone())
        .unwrap_or_default();
    let arg_lanes: u32 = kf.params.iter().map(|&(_, n)| n).sum();
    // Pointer roots: the kernel's one-lane parameters and every address constant; the
    // driver fills `ROOT_WORDS` words per root (see `group::root_entry`) before the global table.
    let mut roots_list: Vec<(roots::Root, u64)> = Vec::new();
    {
        let mut w = E_ARGS as u64;
        for (i, &(_, n)) in kf.params.iter().enumerate() {
            let agg = module
                .functions
                .get(kernel as usize)
                .and_then(|f| f.params.get(i))
                .is_some_and(|p| matches!(p.kind, ParamKind::Aggregate { .. }));
            if n == 1 && !agg {
                roots_list.push((roots::Root::Param(i as u32), w));
            }
            w += n as u64;
        }
        for r in roots::const_roots(prog.funcs.iter()) {
            if let roots::Root::Const(c) = r {
                roots_list.push((r, c));
            }
        }
    }
    let roots_word = E_ARGS + arg_lanes as usize;
    let param_words: Vec<usize> = kf
        .params
        .iter()
        .scan(E_ARGS, |w, &(_, n)| {
            let at = *w;
            *w += n as usize;
            Some(at)
        })
        .collect();
    let ranges_word = roots_word + ROOT_WORDS * roots_list.len();
    let lid_word = ranges_word + 2 * lower::MAX_RANGES;
    let item_word = lid_word + lower::MAX_LID_REQS;
    let gt_word = item_word + ITEM_WORDS;
    let private = lower::private_users(prog);
    let aggregate: Vec<bool> = (0..kf.params.len())
        .map(|i| {
            kparams
                .get(i)
                .is_some_and(|p| matches!(p.kind, ParamKind::Aggregate { .. }))
        })
        .collect();
    let needs_item = private.get(kernel as usize) == Some(&true) || aggregate.iter().any(|a| *a);
    let max_regs = prog.funcs.iter().map(|f| f.nregs).max().unwrap_or(0) as usize;
    let barriers = kf.has_barrier;
    let step_bound = lower::step_bound(prog, kernel);
    let sites;
    let ranges;
    let lid_reqs;
    let state_words;
    let tc = m.target_config();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        // The trampolines are called through their absolute address (not colocated): the
        // JIT places each function in memory of its own, which may lie more than 2 GiB from
        // the kernel's (a GPU driver's reservations in between), out of a 32-bit call's reach.
        let mut fr = Vec::with_capacity(ids.len());
        for id in &ids {
            let f = m.declare_func_in_func(*id, b.func);
            if let Some(ext) = b.func.dfg.ext_funcs.get_mut(f) {
                ext.colocated = false;
            }
            fr.push(f);
        }
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let env = b.block_params(entry)[0];
        let io = b.block_params(entry)[1];
        let fl = MemFlagsData::trusted();
        // Not movable: loaded once per call here, not again in the work-item loop (which
        // Cranelift does not hoist them out of).
        let fixed = MemFlagsData::trusted().with_readonly();
        let ld = |b: &mut FunctionBuilder, w: usize| {
            b.ins().load(types::I64, fixed, env, (w * 8) as i32)
        };
        let dims = ld(&mut b, E_DIMS);
        let max_steps = ld(&mut b, E_MAX_STEPS);
        let size = [
            ld(&mut b, E_SIZE),
            ld(&mut b, E_SIZE + 1),
            ld(&mut b, E_SIZE + 2),
        ];
        let gbase = [
            ld(&mut b, E_GBASE),
            ld(&mut b, E_GBASE + 1),
            ld(&mut b, E_GBASE + 2),
        ];
        let nglob = ld(&mut b, E_NGLOB);
        let fresh_call = ld(&mut b, E_FRESH);
        let ltab = ld(&mut b, E_LTAB);
        let nloc = ld(&mut b, E_NLOC);
        let state = ld(&mut b, E_STATE);
        let state_w = ld(&mut b, E_STATE_W);
        let gtab = b.ins().iadd_imm_s(env, (gt_word * 8) as i64);
        let zero0 = b.ins().iconst(types::I64, 0);
        let mut arg_vals = Vec::new();
        let mut w = E_ARGS;
        for &(_, n) in &kf.params {
            let lanes: Vec<_> = (0..n as usize).map(|k| ld(&mut b, w + k)).collect();
            arg_vals.push(lanes);
            w += n as usize;
        }
        // The roots' words, loaded once per call (not movable: they stay out of the loops).
        let mut root_vals = std::collections::HashMap::new();
        for (k, &(r, _)) in roots_list.iter().enumerate() {
            let at = |j: usize| ((roots_word + ROOT_WORDS * k + j) * 8) as i32;
            let mut w = [zero0; ROOT_WORDS];
            for (j, x) in w.iter_mut().enumerate() {
                *x = b.ins().load(types::I64, fixed, env, at(j));
            }
            root_vals.insert(
                r,
                lower::RootVals {
                    hi: w[0],
                    base: w[1],
                    size_ld: w[2],
                    size_st: w[3],
                    soff: w[4],
                    val: match r {
                        roots::Root::Param(i) => {
                            arg_vals.get(i as usize).and_then(|l| l.first()).copied()
                        }
                        roots::Root::Const(_) => None,
                    },
                    index: k,
                },
            );
        }
        let kroots: Vec<Option<roots::Root>> = (0..kf.params.len())
            .map(|i| {
                let r = roots::Root::Param(i as u32);
                root_vals.contains_key(&r).then_some(r)
            })
            .collect();
        let steps = b.declare_var(types::I64);
        let sbase = b.declare_var(types::I64);
        let code = b.declare_var(types::I64);
        let index = b.declare_var(types::I64);
        let lid = [
            b.declare_var(types::I64),
            b.declare_var(types::I64),
            b.declare_var(types::I64),
        ];
        let zero = b.ins().iconst(types::I64, 0);
        b.def_var(steps, zero);
        b.def_var(code, zero);
        // The work-items to run: linear indices `first..end` of the group, `first` at the
        // local ids given (all of them but for chunks the vector code hands over).
        let first = ld(&mut b, item_word + ITEM_FIRST);
        b.def_var(index, first);
        for (k, l) in lid.iter().enumerate() {
            let v = ld(&mut b, item_word + ITEM_LID + k);
            b.def_var(*l, v);
        }
        let n = ld(&mut b, item_word + ITEM_END);
        let head = b.create_block();
        let body = b.create_block();
        let done = b.create_block();
        let fault = b.create_block();
        let item_end = b.create_block();
        let advance = b.create_block();
        b.set_cold_block(fault);
        b.ins().jump(head, &[]);
        b.switch_to_block(head);
        let idx = b.use_var(index);
        let more = b.ins().icmp(
            cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThan,
            idx,
            n,
        );
        b.ins().brif(more, body, &[], done, &[]);
        b.seal_block(body);
        b.switch_to_block(body);
        b.ins().store(fl, idx, io, (IO_INDEX * 8) as i32);
        let fresh = b.create_block();
        let dispatch = b.create_block();
        // Without barriers a work-item is always fresh here and needs no state words.
        let stop = if barriers {
            let sw = b.ins().imul(idx, state_w);
            let sw = b.ins().ishl_imm_s(sw, 3);
            let sb = b.ins().iadd(state, sw);
            b.def_var(sbase, sb);
            // On the group's first call every work-item is fresh (its stop word is stale).
            let resume = b.create_block();
            b.ins().brif(fresh_call, fresh, &[], resume, &[]);
            b.seal_block(resume);
            b.switch_to_block(resume);
            let stop = b
                .ins()
                .load(types::I64, fl, sb, (lower::STATE_STOP * 8) as i32);
            b.ins().brif(stop, dispatch, &[], fresh, &[]);
            stop
        } else {
            b.def_var(sbase, state);
            b.ins().jump(fresh, &[]);
            zero
        };
        b.seal_block(fresh);
        b.switch_to_block(fresh);
        b.def_var(steps, zero);
        let kvars: Vec<Variable> = (0..kf.nregs).map(|_| b.declare_var(types::I64)).collect();
        // The kernel's one-lane arguments by variable index (see `Lower::arg_vals`).
        let mut arg_slot_vals = std::collections::HashMap::new();
        if needs_item {
            b.ins().call(fr[1], &[idx, io]);
        }
        for (i, (&(slot, n), lanes)) in kf.params.iter().zip(&arg_vals).enumerate() {
            if aggregate.get(i) == Some(&true) {
                let v = b
                    .ins()
                    .load(types::I64, fl, io, ((IO_SLOTS + slot as usize) * 8) as i32);
                if let Some(x) = kvars.get(slot as usize) {
                    b.def_var(*x, v);
                }
                continue;
            }
            for k in 0..n {
                if let (Some(x), Some(v)) = (kvars.get((slot + k) as usize), lanes.get(k as usize))
                {
                    b.def_var(*x, *v);
                    if n == 1 {
                        use cranelift_codegen::entity::EntityRef;
                        arg_slot_vals.insert(x.index(), *v);
                    }
                }
            }
        }
        let mut lw = lower::Lower {
            b: &mut b,
            prog,
            shims: lower::Shims {
                exec: fr[0],
                mark: fr[2],
                release: fr[3],
                ptr_add: fr[4],
                ptr_scaled: fr[5],
            },
            env,
            io,
            sites: Vec::new(),
            steps,
            max_steps,
            step_checks: step_bound.is_none(),
            code,
            fault,
            lid,
            gbase,
            nglob,
            dims,
            size,
            item_end,
            private,
            inlined: 0,
            active: Vec::new(),
            liveness: Default::default(),
            sbase,
            advance,
            resumes: Vec::new(),
            max_var: 0,
            state_slots: Default::default(),
            gtab,
            ltab,
            nloc,
            root_vals,
            deferred: Default::default(),
            restored: Default::default(),
            anchor: None,
            eager: Vec::new(),
            floats: Default::default(),
            ranges: Vec::new(),
            ranges_word,
            lid_reqs: Vec::new(),
            lid_word,
            roots_word,
            arg_vals: arg_slot_vals,
        };
        lw.function(kernel, &kvars, None, 0, &kroots)?;
        sites = std::mem::take(&mut lw.sites);
        ranges = std::mem::take(&mut lw.ranges);
        lid_reqs = std::mem::take(&mut lw.lid_reqs);
        let resumes = std::mem::take(&mut lw.resumes);
        // Eager stores use the state words too (even where no barrier was compiled: one
        // in code that cannot run still makes its function's slots eager).
        state_words = if resumes.is_empty() && lw.max_var == 0 {
            1
        } else {
            lower::STATE_VARS + lw.max_var
        };
        // A work-item stopped at a barrier resumes after it.
        b.switch_to_block(dispatch);
        for (c, rb) in &resumes {
            let is = b.ins().icmp_imm_s(
                cranelift_codegen::ir::condcodes::IntCC::Equal,
                stop,
                *c as i64,
            );
            let next = b.create_block();
            b.ins().brif(is, *rb, &[], next, &[]);
            b.seal_block(next);
            b.seal_block(*rb);
            b.switch_to_block(next);
        }
        // Returned already (the driver resumes only groups stopped at barriers).
        b.ins().jump(advance, &[]);
        b.seal_block(dispatch);
        b.switch_to_block(item_end);
        b.seal_block(item_end);
        if barriers {
            let sb = b.use_var(sbase);
            let done_code = b.ins().iconst(types::I64, lower::STOP_DONE as i64);
            b.ins()
                .store(fl, done_code, sb, (lower::STATE_STOP * 8) as i32);
        }
        b.ins().jump(advance, &[]);
        // The next work-item: local ids advance in x, then y, then z.
        b.switch_to_block(advance);
        b.seal_block(advance);
        let idx = b.use_var(index);
        let idx1 = b.ins().iadd_imm_s(idx, 1);
        b.def_var(index, idx1);
        // Branches, not selects: x wraps once per row, y once per plane.
        use cranelift_codegen::ir::condcodes::IntCC;
        let x = b.use_var(lid[0]);
        let x1 = b.ins().iadd_imm_s(x, 1);
        b.def_var(lid[0], x1);
        let wrap = b.ins().icmp(IntCC::Equal, x1, size[0]);
        let (wx, wy) = (b.create_block(), b.create_block());
        b.set_cold_block(wx);
        b.set_cold_block(wy);
        b.ins().brif(wrap, wx, &[], head, &[]);
        b.seal_block(wx);
        b.switch_to_block(wx);
        b.def_var(lid[0], zero);
        let y = b.use_var(lid[1]);
        let y1 = b.ins().iadd_imm_s(y, 1);
        b.def_var(lid[1], y1);
        let wrap2 = b.ins().icmp(IntCC::Equal, y1, size[1]);
        b.ins().brif(wrap2, wy, &[], head, &[]);
        b.seal_block(wy);
        b.switch_to_block(wy);
        b.def_var(lid[1], zero);
        let z = b.use_var(lid[2]);
        let z1 = b.ins().iadd_imm_s(z, 1);
        b.def_var(lid[2], z1);
        b.ins().jump(head, &[]);
        b.seal_block(head);
        b.switch_to_block(done);
        b.seal_block(done);
        b.ins().return_(&[zero]);
        b.switch_to_block(fault);
        b.seal_block(fault);
        for (k, l) in lid.iter().enumerate() {
            let v = b.use_var(*l);
            b.ins().store(fl, v, io, ((IO_LID + k) * 8) as i32);
        }
        let c = b.use_var(code);
        b.ins().return_(&[c]);
        b.finalize(tc);
    }
    define_dumped(&mut m, fid, &mut ctx, kernel, "native").map_err(cl_err)?;
    // The vector function, where the kernel allows (else every group runs on the scalar one).
    // A code generator panic here (a bug) costs only the vector function.
    let vector = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        build_vector(
            &mut m,
            &mut ctx,
            &mut fctx,
            module,
            kernel,
            &roots_list,
            vector::Words {
                params: param_words,
                roots_word,
                start_word: item_word + ITEM_START,
            },
        )
    }))
    .unwrap_or_else(|_| {
        m.clear_context(&mut ctx);
        Err("the code generator failed".into())
    });
    m.finalize_definitions().map_err(cl_err)?;
    let entry = m.get_finalized_function(fid) as usize;
    let vector = vector.map(|(id, barriers)| (m.get_finalized_function(id) as usize, barriers));
    if std::env::var_os("OCLC_NATIVE_DUMP").is_some_and(|v| v == "1") {
        eprintln!("; kernel {kernel} at {entry:#x}");
    }
    let site_slots = sites
        .iter()
        .map(|&(fi, pc)| {
            let f = prog.funcs.get(fi as usize);
            match f.and_then(|f| f.code.get(pc as usize).map(|i| (f, i))) {
                Some((f, ins)) => slow::uses_defs(f, ins),
                None => (Vec::new(), Vec::new()),
            }
        })
        .collect();
    Ok(NativeKernel {
        site_slots,
        entry,
        _module: Mutex::new(m),
        prog: prog.clone(),
        sites: sites.into(),
        io_words: IO_SLOTS + max_regs + 8,
        state_words,
        barriers,
        gt_word,
        roots_word,
        ranges,
        ranges_word,
        lid_reqs,
        lid_word,
        item_word,
        vector,
        roots: roots_list,
        step_bound,
        compile_time: t0.elapsed(),
    })
}

/// Declares and defines the vector work-group function of `kernel` ([`vector`]): its id
/// and whether the kernel has barriers, or why the kernel has none.
#[allow(clippy::too_many_arguments)]
fn build_vector(
    m: &mut JITModule,
    ctx: &mut cranelift_codegen::Context,
    fctx: &mut FunctionBuilderContext,
    module: &Module,
    kernel: u32,
    roots: &[(roots::Root, u64)],
    words: vector::Words,
) -> Result<(cranelift_module::FuncId, bool), String> {
    let plan = vector::Plan::new(module, kernel as usize, roots)?;
    let sig = group_fn_sig(m);
    let id = m
        .declare_function("oclc_vector", Linkage::Local, &sig)
        .map_err(|e| e.to_string())?;
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(2, id.as_u32());
    let tc = m.target_config();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        vector::build(&mut b, module, kernel as usize, &plan, roots, &words)?;
        b.finalize(tc);
    }
    define_dumped(m, id, ctx, kernel, "vector")?;
    Ok((id, !plan.barriers.is_empty()))
}

/// The signature of a work-group function: launch table, io image -> status.
fn group_fn_sig(m: &JITModule) -> cranelift_codegen::ir::Signature {
    let mut sig = m.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I64));
    sig
}

/// Defines `id` from `ctx` and clears it. With `OCLC_NATIVE_DUMP=1`, prints the optimized
/// Cranelift IR and machine code to stderr and writes the code to
/// `$TMPDIR/oclc-WHAT-KERNEL.bin` (for `objdump -D -b binary -mi386:x86-64`).
fn define_dumped(
    m: &mut JITModule,
    id: cranelift_module::FuncId,
    ctx: &mut cranelift_codegen::Context,
    kernel: u32,
    what: &str,
) -> Result<(), String> {
    let dump = std::env::var_os("OCLC_NATIVE_DUMP").is_some_and(|v| v == "1");
    if dump {
        ctx.set_disasm(true);
    }
    let r = m.define_function(id, ctx).map_err(|e| e.to_string());
    if dump {
        eprintln!("; {what} code of kernel {kernel}\n{}", ctx.func.display());
        if let Some(c) = ctx.compiled_code() {
            if let Some(v) = c.vcode.as_ref() {
                eprintln!("{v}");
            }
            let path = std::env::temp_dir().join(format!("oclc-{what}-{kernel}.bin"));
            if std::fs::write(&path, c.code_buffer()).is_ok() {
                eprintln!("; machine code in {}", path.display());
            }
        }
    }
    m.clear_context(ctx);
    r
}
