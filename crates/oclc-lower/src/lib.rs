//! Lowering of the checked HIR (`oclc_sema::hir`) to the SSA IR (`oclc_ir`).
//!
//! - Every function with a body becomes an IR function; a struct or union returned by value
//!   goes through a hidden first pointer parameter, one passed by value as a private pointer
//!   to a copy the caller makes.
//! - Private scalars, vectors and pointers whose address is never taken are SSA values
//!   (block parameters at merges, see [`func`]); every other variable has a stack slot, so
//!   no later pass is needed for correctness.
//! - Program-scope and `static` variables become IR globals with their initial bytes
//!   evaluated here ([`constant`]); kernel-scope `__local` variables become IR locals.
//! - Recursion is rejected with an error at each recursive call ([`recursion`]).

mod builtin;
mod cleanup;
pub mod constant;
mod expr;
mod func;
mod gnu_atomic;
mod module;
mod recursion;
pub mod signature;
pub mod subset;
pub mod ty;

use oclc_ir::link::Symbol;
use oclc_ir::{FuncId, Module};
use oclc_sema::hir;
use oclc_syntax::{Diagnostics, SourceMap};
use rayon::prelude::*;

pub use signature::{ElemDesc, KernelParam, KernelParamKind, KernelSignature, kernel_signatures};

use oclc_syntax::fxhash::FxHashMap;

/// A hash set with Fx hashing, as [`FxHashMap`]: keys are ids, where SipHash's DoS
/// resistance buys nothing and costs a tenth of the lowering's time.
type FxHashSet<T> =
    std::collections::HashSet<T, std::hash::BuildHasherDefault<oclc_syntax::fxhash::FxHasher>>;

/// Options of [`lower_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct LowerOptions {
    /// Keep every variable in memory (no SSA variables); the results must not change.
    pub all_in_memory: bool,
}

/// Lowers a checked program without errors to an IR module; `None` when it reported errors
/// (recursion, calls of undefined functions, initializers that are not constant).
pub fn lower(program: &hir::Program, sm: &SourceMap, diags: &mut Diagnostics) -> Option<Module> {
    lower_with(program, sm, diags, LowerOptions::default())
}

/// [`lower`] with options.
pub fn lower_with(
    program: &hir::Program,
    sm: &SourceMap,
    diags: &mut Diagnostics,
    opts: LowerOptions,
) -> Option<Module> {
    // Spans already carry their files; the source map is part of the API for messages that
    // may need to look at expansions.
    let _ = sm;
    lower_bodies(program, diags, opts, None, false).map(|(m, _, _)| m)
}

/// Lowers one translation unit of a separately compiled program (`clCompileProgram`): as
/// [`lower`], except that a call of a function declared (not `static`) but not defined here
/// is a call of an undefined symbol another unit must define, and the result says which
/// functions and globals are external, internal (`static`) or undefined (`extern`).
pub fn lower_unit(
    program: &hir::Program,
    name: &str,
    diags: &mut Diagnostics,
) -> Option<oclc_ir::link::Unit> {
    let (module, funcs, globals) =
        lower_bodies(program, diags, LowerOptions::default(), None, true)?;
    Some(oclc_ir::link::Unit {
        name: name.to_string(),
        module,
        funcs,
        globals,
    })
}

/// Fewer bodies than this are lowered on one thread.
const PARALLEL_MIN: usize = 64;

/// Runs of bodies per thread when lowering in parallel (more runs balance uneven bodies).
const BATCHES_PER_THREAD: usize = 4;

/// Source bytes per IR instruction of a lowered body, about (typical kernels: 8 to 12).
const SOURCE_BYTES_PER_INST: usize = 10;

/// Most instructions reserved from a body's size (a long body grows past it as needed).
const MAX_RESERVED_INSTS: usize = 1 << 14;

/// Lowers one function body into its declared IR function `irf`.
fn lower_one(
    cx: &mut module::Ctx<'_>,
    f: &hir::Function,
    id: FuncId,
    irf: oclc_ir::Function,
    opts: LowerOptions,
) -> oclc_ir::Function {
    let abi = cx.abi.get(id.index()).cloned().unwrap_or(module::FnAbi {
        sret: false,
        ret: None,
    });
    let mut irf = irf;
    if let Some(body) = &f.body {
        // Sized from the source up front: growing the lists by doubling copies them and
        // leaves the smaller blocks behind.
        let bytes = body.span.hi.saturating_sub(body.span.lo) as usize;
        let insts = (bytes / SOURCE_BYTES_PER_INST).min(MAX_RESERVED_INSTS);
        irf.insts.reserve(insts);
        irf.values.reserve(insts);
    }
    let mut fx = func::FnCx::new(cx, id, irf, abi);
    fx.plan_vars(f);
    if opts.all_in_memory {
        fx.all_in_memory();
    }
    fx.lower_body(f);
    fx.f
}

/// Lowers the bodies of the HIR functions `want` selects (by index; every one when `None`);
/// every other defined function is declared with a body that is only `unreachable`.
fn lower_bodies(
    program: &hir::Program,
    diags: &mut Diagnostics,
    opts: LowerOptions,
    want: Option<&[bool]>,
    unit: bool,
) -> Option<(Module, Vec<Symbol>, Vec<Symbol>)> {
    if recursion::check(program, diags) {
        return None;
    }
    if let Some((span, why)) = program.unsupported.first() {
        diags.push(oclc_syntax::Diagnostic::error(*span, why.clone()));
        return None;
    }
    let mut cx = module::Ctx::new(program, diags);
    cx.declare_functions();
    let defined = cx.m.functions.len();
    if unit {
        cx.declare_external_functions();
    }
    cx.declare_globals();
    // The bodies to lower, in order: the first definition of each function `want` selects.
    let mut done = vec![false; cx.m.functions.len()];
    let mut todo: Vec<(usize, FuncId)> = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        if f.body.is_none() {
            continue;
        }
        let Some(id) = cx.funcs.get(i).copied().flatten() else {
            continue;
        };
        if done.get(id.index()).copied().unwrap_or(true) {
            continue;
        }
        done[id.index()] = true;
        let Some(irf) = cx.m.functions.get_mut(id.index()) else {
            continue;
        };
        if want.is_some_and(|w| !w.get(i).copied().unwrap_or(false)) {
            if !irf.blocks.is_empty() {
                let span = irf.span;
                irf.push_inst(oclc_ir::Block(0), oclc_ir::Op::Unreachable, None, span);
            }
            continue;
        }
        todo.push((i, id));
    }
    let threads = oclc_ir::par::install(rayon::current_num_threads);
    if threads < 2 || todo.len() < PARALLEL_MIN {
        for &(i, id) in &todo {
            let Some(irf) = cx.m.functions.get(id.index()).cloned() else {
                continue;
            };
            let built = lower_one(&mut cx, &program.functions[i], id, irf, opts);
            if let Some(slot) = cx.m.functions.get_mut(id.index()) {
                *slot = built;
            }
        }
    } else {
        // Runs of consecutive bodies are lowered in parallel, each into a scratch module;
        // merging them in order gives every string, `__local` variable and builtin the id
        // (and name) lowering them one after the other gives.
        let decls = std::mem::take(&mut cx.m.functions);
        let per = todo.len().div_ceil(threads * BATCHES_PER_THREAD);
        let batches: Vec<module::Batch> = oclc_ir::par::install(|| {
            todo.par_chunks(per.max(1))
                .map(|run| {
                    let mut d = Diagnostics::default();
                    let mut bcx = cx.batch(&mut d, &decls);
                    let mut built = Vec::with_capacity(run.len());
                    for &(i, id) in run {
                        let Some(irf) = decls.get(id.index()).cloned() else {
                            continue;
                        };
                        built.push((
                            id,
                            lower_one(&mut bcx, &program.functions[i], id, irf, opts),
                        ));
                    }
                    bcx.into_batch(built)
                })
                .collect()
        });
        cx.m.functions = decls;
        for b in batches {
            cx.absorb(b);
        }
    }
    if cx.errors {
        return None;
    }
    let (funcs, globals) = if unit {
        unit_symbols(program, &cx, defined)
    } else {
        (Vec::new(), Vec::new())
    };
    Some((cx.m, funcs, globals))
}

/// The linkage of each IR function and global of a unit: functions past the first
/// `defined` are declarations, `inline` ones (not `static`) inline definitions; a global is undefined when only `extern` declarations name
/// it, internal when `static` (or not program-scope: strings, function-scope `static`s).
fn unit_symbols(
    program: &hir::Program,
    cx: &module::Ctx<'_>,
    defined: usize,
) -> (Vec<Symbol>, Vec<Symbol>) {
    let mut funcs: Vec<Symbol> = (0..cx.m.functions.len())
        .map(|i| {
            if i < defined {
                Symbol::EXTERNAL
            } else {
                Symbol::UNDEFINED
            }
        })
        .collect();
    for (set, sym) in [
        (&program.inline_functions, Symbol::INLINE),
        (&program.static_functions, Symbol::INTERNAL),
    ] {
        for f in set {
            if let Some(Some(id)) = cx.funcs.get(f.0 as usize)
                && let Some(s) = funcs.get_mut(id.index())
                && s.defined
            {
                *s = sym;
            }
        }
    }
    let mut globals = vec![Symbol::INTERNAL; cx.m.globals.len()];
    // Whether each global of a program-scope variable has a definition (not only `extern`).
    let mut has_def: FxHashMap<oclc_ir::GlobalId, bool> = FxHashMap::default();
    for (i, v) in program.vars.iter().enumerate() {
        let id = hir::VarId(i as u32);
        if v.storage != hir::Storage::Program {
            continue;
        }
        let Some(g) = cx.global_of(id) else { continue };
        *has_def.entry(g).or_insert(false) |= !v.is_extern;
    }
    for (g, def) in has_def {
        if let Some(s) = globals.get_mut(g.index()) {
            *s = if def {
                Symbol::EXTERNAL
            } else {
                Symbol::UNDEFINED
            };
        }
    }
    for v in &program.static_vars {
        if let Some(g) = cx.global_of(*v)
            && let Some(s) = globals.get_mut(g.index())
        {
            *s = Symbol::INTERNAL;
        }
    }
    (funcs, globals)
}
