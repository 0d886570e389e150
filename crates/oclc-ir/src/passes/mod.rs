//! IR passes: scalar replacement of aggregates ([`sroa`]), mem2reg, fold, address-space
//! inference and per-call-site specialization, dce; and the `oclc spaces` report they produce
//! ([`explain`] attributes every generic access left to a source expression and a reason). The devices
//! then run [`optimize_for_device`] on load, which also inlines helpers
//! ([`inline`](inline::inline_module)), unrolls small counted loops
//! ([`unroll`](unroll::unroll)) and shares repeated pure computations ([`gvn`](gvn::gvn)).
//!
//! For `oclc spaces`, lower with `oclc_lower::LowerOptions { all_in_memory: true }`: every
//! variable then has a named slot, which mem2reg turns into the per-variable entries of the
//! report (variables the lowering keeps in SSA values carry no names in the IR):
//!
//! ```text
//! let mut m = oclc_lower::lower_with(&hir, &sm, &mut diags, LowerOptions { all_in_memory: true })?;
//! let report = passes::run_default(&mut m, &PassOptions::from_flags(build_flags));
//! print!("{}", passes::render_text(&report.spaces, &sm));   // or render_json
//! diags.list.extend(report.spaces.warnings);                 // also for `oclc check`
//! ```
//!
//! [`run_default`] runs the pipeline: [`sroa`] on the whole module (struct copies split by
//! field, by-value struct and private-pointer parameters split into one parameter per field),
//! mem2reg (then sroa and mem2reg again, for pointer parameters now in SSA values) → fold →
//! dce on every function, then [`specialize`](specialize::specialize) (which infers spaces
//! callers first, clones callees per argument space signature, pointer fields included, and
//! rewrites each function), then, at `-O2`, [`version`](version::version) (accesses through
//! pointers merging known spaces are split per space), then fold → dce again, and last the
//! explanation of the generic accesses left. In debug
//! builds the module is verified after each stage; a stage whose output fails verification is
//! undone and the errors are returned in the [`PassReport`].

pub mod casts;
pub mod copies;
pub mod dce;
pub mod explain;
pub mod fold;
pub mod gvn;
pub mod infer_spaces;
pub mod inline;
pub mod mem2reg;
pub mod range;
pub mod report;
pub mod specialize;
pub mod sroa;
pub mod subgroups;
pub mod unroll;
pub mod util;
pub mod version;

use crate::ir::{FuncId, Module, Op, Value};
use crate::verify::{VerifyError, debug_verify};
use oclc_syntax::Span;
pub use report::{
    AccessKind, CastKind, FunctionSpaces, GenericAccess, GenericReason, ImpossibleCast,
    KernelAccesses, PointerInfo, Resolution, SourcePath, SpacesReport, Step, render_json,
    render_text,
};

/// A source variable that held generic pointers, with every SSA value it took after mem2reg.
#[derive(Clone, Debug, PartialEq)]
pub struct VarRecord {
    /// The variable's name; a struct field is `name+offset`.
    pub name: String,
    /// Its declaration (the span of its `stack_alloc`).
    pub span: Span,
    pub values: Vec<Value>,
    /// Where its address escapes, when it could not be promoted.
    pub escaped: Option<Span>,
    /// Values among `values` that point to a private object split into fields (a pointer
    /// parameter whose every caller passes the address of its own private variable).
    pub private: Vec<Value>,
}

/// Which passes run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassOptions {
    /// 0 runs nothing (`-O0`, `-cl-opt-disable`); 1 runs everything but space versioning;
    /// 2 and above (the default) also split accesses through pointers merging known spaces.
    pub opt_level: u8,
}

impl Default for PassOptions {
    fn default() -> PassOptions {
        PassOptions { opt_level: 2 }
    }
}

impl PassOptions {
    /// No passes (`-O0`).
    pub fn none() -> PassOptions {
        PassOptions { opt_level: 0 }
    }

    /// From build options: `-O0` and clang's `-cl-opt-disable` turn the passes off, `-ON`
    /// sets the level; the last one given wins.
    pub fn from_flags<'a>(flags: impl IntoIterator<Item = &'a str>) -> PassOptions {
        let mut o = PassOptions::default();
        for f in flags {
            if f == "-cl-opt-disable" {
                o.opt_level = 0;
            } else if let Some(n) = f.strip_prefix("-O") {
                o.opt_level = match n {
                    "" | "s" | "z" | "fast" => 2,
                    n => n.parse().unwrap_or(2),
                };
            }
        }
        o
    }
}

/// What the pipeline did.
#[derive(Clone, Debug, Default)]
pub struct PassReport {
    /// The `oclc spaces` report (only the access counts at `-O0`).
    pub spaces: SpacesReport,
    /// Number of specialized clones created.
    pub clones: usize,
    /// Generic accesses split into one access per possible space (at `-O2` and above).
    pub versioned: usize,
    /// Verifier errors after a stage, which was then undone (a bug in a pass).
    pub verify_errors: Vec<(String, VerifyError)>,
}

/// Runs the default pipeline on `m`. A module that fails verification is left as it is,
/// with the errors in [`PassReport::verify_errors`] under the stage name `input`.
pub fn run_default(m: &mut Module, opts: &PassOptions) -> PassReport {
    let before = kernel_accesses(m);
    let mut report = PassReport::default();
    let mut split: Vec<(String, usize)> = Vec::new();
    let mut vars: Vec<Vec<VarRecord>> = Vec::new();
    let mut passes_off = true;
    // The passes index by the module's ids: an invalid module is reported, never transformed.
    if opts.opt_level > 0
        && let Err(errs) = crate::verify::verify_module(m)
    {
        report
            .verify_errors
            .extend(errs.into_iter().map(|e| ("input".to_string(), e)));
    } else if opts.opt_level > 0 {
        stage(m, "mem2reg", &mut report, |m| {
            sroa::sroa_module(m);
            vars = m.functions.iter_mut().map(mem2reg::mem2reg).collect();
            // Parameters kept in named slots (`all_in_memory`) are SSA values only now: the
            // pointers to private structs among them can be split in turn.
            let again = sroa::sroa_module(m);
            if again.rewrites > 0 {
                for (fi, value) in again.split_generic {
                    for r in vars.get_mut(fi).into_iter().flatten() {
                        if r.values.contains(&value) {
                            r.private.push(value);
                        }
                    }
                }
                for (f, v) in m.functions.iter_mut().zip(vars.iter_mut()) {
                    v.extend(mem2reg::mem2reg(f));
                }
            }
            for f in m.functions.iter_mut() {
                dce::dce(f);
                fold::fold(f);
                dce::dce(f);
            }
        });
        let mut spec = None;
        let ok = stage(m, "specialize", &mut report, |m| {
            spec = Some(specialize::specialize(m, &mut vars));
        });
        if let (true, Some((spaces, clones))) = (ok, spec) {
            report.spaces = spaces;
            report.clones = clones;
            passes_off = false;
        }
        if opts.opt_level >= 2 {
            let mut per_fn = Vec::new();
            let ok = stage(m, "version", &mut report, |m| {
                for i in 0..m.functions.len() {
                    let placeholder = crate::ir::Function::placeholder(Span::DUMMY);
                    let mut f = std::mem::replace(&mut m.functions[i], placeholder);
                    per_fn.push(version::version(m, &mut f));
                    m.functions[i] = f;
                }
            });
            if ok {
                report.versioned = per_fn.iter().sum();
                split = per_kernel(m, &per_fn);
            }
        }
        stage(m, "cleanup", &mut report, |m| {
            for f in m.functions.iter_mut() {
                fold::fold(f);
                dce::dce(f);
            }
        });
    }
    let after = kernel_accesses(m);
    explain_all(m, &vars, passes_off, &mut report.spaces);
    report.spaces.reached = reached(m)
        .into_iter()
        .map(|(k, fs)| {
            let names = fs
                .iter()
                .filter_map(|&i| m.functions.get(i).map(|f| f.name.clone()))
                .collect();
            (k, names)
        })
        .collect();
    report.spaces.kernels = before
        .into_iter()
        .map(|(kernel, b)| {
            let a = after
                .iter()
                .find(|(k, _)| *k == kernel)
                .map_or(b, |(_, a)| *a);
            let s = split
                .iter()
                .find(|(k, _)| *k == kernel)
                .map_or(0, |(_, s)| *s);
            KernelAccesses {
                kernel,
                before: b,
                after: a,
                split: s,
            }
        })
        .collect();
    report
}

/// Runs one stage; in debug builds, verifies the result and undoes the stage on failure
/// (returning false).
fn stage(
    m: &mut Module,
    name: &str,
    report: &mut PassReport,
    run: impl FnOnce(&mut Module),
) -> bool {
    if !cfg!(debug_assertions) {
        run(m);
        return true;
    }
    let backup = m.clone();
    run(m);
    match debug_verify(m) {
        Ok(()) => true,
        Err(errs) => {
            *m = backup;
            report
                .verify_errors
                .extend(errs.into_iter().map(|e| (name.to_string(), e)));
            false
        }
    }
}

/// Generic memory accesses of each kernel and every function it calls (each counted once).
pub fn kernel_accesses(m: &Module) -> Vec<(String, usize)> {
    let per: Vec<usize> = m
        .functions
        .iter()
        .map(|f| infer_spaces::generic_accesses(m, f))
        .collect();
    per_kernel(m, &per)
}

/// Sums a per-function figure over each kernel and the functions it calls (each once).
fn per_kernel(m: &Module, per: &[usize]) -> Vec<(String, usize)> {
    reached(m)
        .into_iter()
        .map(|(k, fs)| {
            let total = fs.iter().map(|&fi| per.get(fi).copied().unwrap_or(0)).sum();
            (k, total)
        })
        .collect()
}

/// Each kernel and the functions it reaches through calls (each once, the kernel first).
fn reached(m: &Module) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    for (ki, k) in m.functions.iter().enumerate() {
        if !k.is_kernel() {
            continue;
        }
        let mut seen = vec![false; m.functions.len()];
        let mut stack = vec![ki];
        seen[ki] = true;
        let mut list = Vec::new();
        while let Some(fi) = stack.pop() {
            list.push(fi);
            let f = &m.functions[fi];
            for bd in &f.blocks {
                for i in &bd.insts {
                    if let Some(Op::Call(FuncId(c), _)) = f.insts.get(i.index()).map(|d| &d.op)
                        && let Some(s) = seen.get_mut(*c as usize)
                        && !*s
                    {
                        *s = true;
                        stack.push(*c as usize);
                    }
                }
            }
        }
        out.push((k.name.clone(), list));
    }
    out
}

/// Fills in the generic accesses of every function of `m` (after the passes), adding report
/// entries for functions the report has none for (all of them with the passes off).
fn explain_all(m: &Module, vars: &[Vec<VarRecord>], passes_off: bool, r: &mut SpacesReport) {
    let source_names: std::collections::HashMap<String, String> = r
        .functions
        .iter()
        .map(|f| (f.name.clone(), f.source_name.clone()))
        .collect();
    let mut added = false;
    for (i, f) in m.functions.iter().enumerate() {
        let entry = r.functions.iter().position(|x| x.name == f.name);
        let param_reasons = entry.map_or(&[][..], |e| &r.functions[e].param_reasons[..]);
        let accesses = explain::explain_function(
            m,
            f,
            vars.get(i).map_or(&[][..], |v| &v[..]),
            param_reasons,
            &source_names,
            passes_off,
        );
        match entry {
            Some(e) => r.functions[e].accesses = accesses,
            None if !accesses.is_empty() => {
                added = true;
                r.functions.push(FunctionSpaces {
                    name: f.name.clone(),
                    source_name: f.name.clone(),
                    kernel: f.is_kernel(),
                    span: f.span,
                    specialized: Vec::new(),
                    pointers: Vec::new(),
                    accesses,
                    param_reasons: Vec::new(),
                });
            }
            None => {}
        }
    }
    if added {
        r.functions.sort_by(|a, b| {
            (a.span.file.0, a.span.lo, &a.name).cmp(&(b.span.file.0, b.span.lo, &b.name))
        });
    }
}

/// The always-safe pipeline a device runs on load (also at `-O0`): promote private slots to
/// SSA values, fold constants, drop dead code; then inline helpers (inferring the spaces of
/// the pointers they received again) and unroll small counted loops. It runs after
/// [`run_default`], so the `oclc spaces` report and the printed IR describe the source
/// functions, and the specialised clones are what gets inlined. The inlining budget is
/// [`inline::InlineBudget::from_env`] (`OCLC_INLINE_LIMIT`).
pub fn optimize_for_device(m: &mut Module) {
    optimize_for_device_with(m, &inline::InlineBudget::from_env());
}

/// [`optimize_for_device`] with the inlining budget `budget`; calls past it stay calls.
pub fn optimize_for_device_with(m: &mut Module, budget: &inline::InlineBudget) {
    optimize_for_device_opts(m, budget, copies::Widening::Off);
}

/// The device pipeline for the cuda device: byte-copy loops also copy 16 bytes at a time
/// where they can ([`copies`]; with `checks`, where both ranges pass the checks).
pub fn optimize_for_gpu(m: &mut Module, checks: bool) {
    let how = if checks {
        copies::Widening::Checked
    } else {
        copies::Widening::Plain
    };
    optimize_for_device_opts(m, &inline::InlineBudget::from_env(), how);
}

/// [`optimize_for_device_with`], widening byte-copy loops before unrolling as `wide_copies`
/// says.
pub fn optimize_for_device_opts(
    m: &mut Module,
    budget: &inline::InlineBudget,
    wide_copies: copies::Widening,
) {
    sroa::sroa_module(m);
    for f in m.functions.iter_mut() {
        mem2reg::mem2reg(f);
    }
    if sroa::sroa_module(m).rewrites > 0 {
        for f in m.functions.iter_mut() {
            mem2reg::mem2reg(f);
        }
    }
    for f in m.functions.iter_mut() {
        dce::dce(f);
        fold::fold(f);
        dce::dce(f);
    }
    let stats = inline::inline_module_with(m, budget);
    for fi in stats.changed {
        inline::simplify_inlined(m, fi);
    }
    for f in m.functions.iter_mut() {
        copies::widen_copies(f, wide_copies);
    }
    let factor = unroll::factor_from_env();
    let mut unrolled = Vec::new();
    for (fi, f) in m.functions.iter_mut().enumerate() {
        if unroll::unroll_by(f, factor) > 0 {
            fold::fold(f);
            dce::dce(f);
            unrolled.push(fi);
        }
    }
    // Unrolled loops index their arrays with constants: arrays of pointers split into
    // variables, whose spaces the inference then follows one by one.
    for fi in unrolled {
        inline::simplify_inlined(m, fi);
    }
    for f in m.functions.iter_mut() {
        if gvn::gvn(f) > 0 {
            dce::dce(f);
        }
        // After gvn: `||` and `&&` chains whose joins it made identical thread through;
        // folding the threaded blocks away can leave a join that is only a branch in turn.
        for _ in 0..4 {
            if !fold::thread_jumps(f) {
                break;
            }
            fold::fold(f);
            dce::dce(f);
        }
    }
}
