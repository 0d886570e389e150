//! The library front door of `oclc check`: source text and options in, the source map, the
//! diagnostics (after the warning policy) and the checked program out.

use std::path::PathBuf;

use oclc_syntax::pp::PpOutput;
use oclc_syntax::{Diagnostics, FileId, LangOptions, Level, SourceMap, Span};

use crate::pipeline::{self, FrontEnd, Program};
use crate::render;
use crate::verify;
use crate::warnings::{Reported, WarningPolicy};

pub use crate::pipeline::MacroArg;

/// Everything `check` needs besides the source: language mode, `-D`/`-U`, `-I`, the warning
/// policy and (for `-verify`) the directive prefixes.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub lang: LangOptions,
    /// `-D`/`-U` in command-line order.
    pub macros: Vec<MacroArg>,
    /// `-I` directories, searched in order.
    pub include_dirs: Vec<PathBuf>,
    pub warnings: WarningPolicy,
    /// `-verify[=prefixes]`: the sorted prefixes, or `None` without `-verify`.
    pub verify: Option<Vec<String>>,
    /// Never free the syntax tree: for a process that exits right after the check (freeing a
    /// large file's tree node by node only costs time).
    pub leak_syntax_tree: bool,
    /// Only the diagnostics are wanted: unless the address-space cast warnings need them
    /// (generic address space), function bodies are freed as soon as they are checked, and
    /// [`CheckOutcome::program`] has none.
    pub diagnostics_only: bool,
    /// How parsing and sema share the work (tests compare the ways; the result is the same).
    pub schedule: Schedule,
}

/// How [`check_source`] runs the parser and sema over the preprocessed tokens. Every way gives
/// the same diagnostics and program; they differ in time and memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// In order for small inputs; for large ones [`Schedule::TwoThreads`] on a machine with
    /// cores to spare, otherwise [`Schedule::Interleaved`].
    #[default]
    Auto,
    /// Parse everything, then check everything (the tree exists whole).
    InOrder,
    /// Each top-level item is checked as soon as it is parsed, on one thread, then freed.
    Interleaved,
    /// The parser runs on its own thread and sends items to sema in batches.
    TwoThreads,
}

impl CheckOptions {
    /// Whether sema keeps the function bodies it checks.
    pub(crate) fn bodies(&self) -> oclc_sema::Bodies {
        if self.diagnostics_only && !self.lang.generic_address_space() {
            oclc_sema::Bodies::Discard
        } else {
            oclc_sema::Bodies::Keep
        }
    }
}

/// The result of checking one translation unit.
#[derive(Debug)]
pub struct CheckOutcome {
    /// Every file read (the main file first) and the macro expansions.
    pub sm: SourceMap,
    pub main: FileId,
    /// Diagnostics in emission order, after the warning policy.
    pub diagnostics: Vec<Reported>,
    /// Source ranges the preprocessor skipped (`#if 0` groups).
    pub skipped: Vec<Span>,
    /// The typed program; `None` when there were errors.
    pub program: Option<Program>,
}

impl CheckOutcome {
    /// True if any diagnostic is an error (after the warning policy).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|r| r.diag.level >= Level::Error)
    }

    /// `(errors, warnings)` as clang counts them.
    pub fn counts(&self) -> (usize, usize) {
        render::counts(&self.diagnostics)
    }

    /// The diagnostics in clang's text format, with the summary line.
    pub fn render_text(&self) -> String {
        render::render_text(&self.sm, &self.diagnostics)
    }

    /// Runs `-verify` with `prefixes`: clang's verification errors and problem count.
    pub fn verify(&self, prefixes: &[String]) -> verify::VerifyReport {
        verify::verify(&self.sm, &self.diagnostics, &self.skipped, prefixes)
    }
}

/// Stack size for the front end: its recursion is depth-limited, and the limits fit in this.
pub const FRONT_END_STACK_SIZE: usize = 256 << 20;

/// Most tokens (after preprocessing) parsed and checked on the main thread: nothing nests
/// deeper than its token count, and [`MAIN_THREAD_STACK`] takes this depth of the deepest
/// constructs with room to spare (`tests/small_input_stack.rs`). Debug builds have larger
/// frames.
pub const MAIN_THREAD_TOKENS: usize = if cfg!(debug_assertions) { 128 } else { 2048 };

/// Stack the main thread must be allowed (its `RLIMIT_STACK`) to check anything on it: the
/// usual default, 8 MiB.
pub const MAIN_THREAD_STACK: u64 = 8 << 20;

/// Checks one translation unit named `name` (a path, or `<stdin>`): preprocess, parse, sema,
/// then the warning policy. Never panics on any input.
///
/// The front end recurses as deep as the input nests (within its limits), so it runs on a
/// thread with a [`FRONT_END_STACK_SIZE`] stack, except on the main thread of a process
/// allowed [`MAIN_THREAD_STACK`]: there the preprocessor (bounded by its own limits) runs in
/// place, and so do the later stages for at most [`MAIN_THREAD_TOKENS`] tokens, which spares
/// small inputs (most of them) the thread.
pub fn check_source(name: &str, bytes: &[u8], opts: &CheckOptions) -> CheckOutcome {
    if !main_thread_with_stack() {
        return on_big_stack(&mut || check_on_this_thread(name, bytes, opts));
    }
    let mut sm = SourceMap::new();
    let main = sm.add_file(name, bytes);
    let mut diags = Diagnostics::default();
    if bytes.len() >= WARM_UP_BYTES
        && let Some(done) = with_warm_front_end(&mut sm, main, bytes.len(), opts, &mut diags)
    {
        return outcome(sm, main, diags, done, opts);
    }
    let out = pipeline::preprocess(&mut sm, main, opts, &mut diags);
    let fe = if out.tokens.len() <= MAIN_THREAD_TOKENS {
        after_preprocess(&out, &sm, opts, &mut diags)
    } else {
        on_big_stack(&mut || after_preprocess(&out, &sm, opts, &mut diags))
    };
    outcome(sm, main, diags, fe, opts)
}

/// Inputs from which the front end's thread is started before preprocessing, to take the
/// page faults of sema's allocations while the preprocessor (which runs alone) works.
const WARM_UP_BYTES: usize = 1 << 20;

/// Heap the front-end thread touches in advance per source byte: about what sema allocates
/// (measured on large generated files), so that little of it is wasted.
const WARM_UP_BYTES_PER_SOURCE_BYTE: usize = 24;

/// Preprocesses on this thread while the front end's thread (started first) maps the heap
/// sema will use, then runs the later stages there, as [`check_source`] does. `None`
/// (nothing done) when no thread can be started.
fn with_warm_front_end(
    sm: &mut SourceMap,
    main: FileId,
    source_bytes: usize,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> Option<FrontEnd> {
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<(PpOutput, SourceMap, Diagnostics)>();
        let worker = std::thread::Builder::new()
            .name("oclc-check".into())
            .stack_size(FRONT_END_STACK_SIZE)
            .spawn_scoped(s, move || {
                oclc_syntax::heap::prefault(
                    source_bytes.saturating_mul(WARM_UP_BYTES_PER_SOURCE_BYTE),
                );
                // A closed channel: the preprocessor panicked (resumed on join).
                let (out, sm, mut diags) = rx.recv().ok()?;
                let fe = after_preprocess(&out, &sm, opts, &mut diags);
                Some((fe, sm, diags))
            })
            .ok()?;
        let out = pipeline::preprocess(sm, main, opts, diags);
        let moved = (out, std::mem::take(sm), std::mem::take(diags));
        if let Err(back) = tx.send(moved) {
            // The thread is gone (it panicked): put things back and let the join report it.
            let (_, m, d) = back.0;
            (*sm, *diags) = (m, d);
        }
        match worker.join() {
            Ok(Some((fe, m, d))) => {
                (*sm, *diags) = (m, d);
                Some(fe)
            }
            Ok(None) => None,
            // A panic in a stage is a bug; keep it visible to tests and fuzzers.
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// [`check_source`] entirely on the current thread, whose stack must take the front end's
/// limits ([`FRONT_END_STACK_SIZE`]) or the input's nesting.
pub fn check_on_this_thread(name: &str, bytes: &[u8], opts: &CheckOptions) -> CheckOutcome {
    let mut sm = SourceMap::new();
    let main = sm.add_file(name, bytes);
    let mut diags = Diagnostics::default();
    let out = pipeline::preprocess(&mut sm, main, opts, &mut diags);
    let fe = after_preprocess(&out, &sm, opts, &mut diags);
    outcome(sm, main, diags, fe, opts)
}

/// Runs `f` on a thread with a [`FRONT_END_STACK_SIZE`] stack (on this one if none can be
/// started); a panic in it is resumed here.
fn on_big_stack<T: Send>(f: &mut (dyn FnMut() -> T + Send)) -> T {
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("oclc-check".into())
            .stack_size(FRONT_END_STACK_SIZE)
            .spawn_scoped(s, &mut *f)
            .map(|h| h.join())
    });
    match spawned {
        Ok(Ok(v)) => v,
        // A panic in a stage is a bug; keep it visible to tests and fuzzers.
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        Err(_) => f(),
    }
}

/// Whether this is the process's main thread and may grow its stack to [`MAIN_THREAD_STACK`].
fn main_thread_with_stack() -> bool {
    std::thread::current().name() == Some("main")
        && stack_limit().is_some_and(|l| l >= MAIN_THREAD_STACK)
}

/// The soft `RLIMIT_STACK` of this process, from Linux's `/proc/self/limits` (`None` where
/// that is not available).
fn stack_limit() -> Option<u64> {
    use std::io::Read;
    // Room for the whole file up front: one read instead of a doubling series of them (the
    // file reports its size as 0).
    let mut text = String::with_capacity(4096);
    std::fs::File::open("/proc/self/limits")
        .ok()?
        .read_to_string(&mut text)
        .ok()?;
    let line = text.lines().find(|l| l.starts_with("Max stack size"))?;
    match line.split_whitespace().nth(3)? {
        "unlimited" => Some(u64::MAX),
        n => n.parse().ok(),
    }
}

/// Parse, sema and, on a clean program, the address-space cast warnings.
fn after_preprocess(
    out: &PpOutput,
    sm: &SourceMap,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> FrontEnd {
    let pp_end = diags.list.len();
    let fe = pipeline::parse_and_check(out, sm, opts, diags);
    // The preprocessor ends its tokens with the main file's end of file.
    if let Some(eof) = out.tokens.last() {
        let bounds = [pp_end, fe.parse_end];
        crate::order::merge_stages(
            &mut diags.list,
            bounds,
            eof.span.file,
            &out.includes,
            &out.tokens,
            sm,
        );
    }
    if let Some(p) = fe.program.as_ref().filter(|_| !diags.has_errors()) {
        diags
            .list
            .extend(crate::spaces_cmd::cast_warnings(p, sm, &opts.lang));
    }
    fe
}

/// Applies the warning policy and packages the result.
fn outcome(
    sm: SourceMap,
    main: FileId,
    diags: Diagnostics,
    fe: FrontEnd,
    opts: &CheckOptions,
) -> CheckOutcome {
    let diagnostics = opts.warnings.apply_all(diags.list);
    let has_errors = diagnostics.iter().any(|r| r.diag.level >= Level::Error);
    CheckOutcome {
        sm,
        main,
        diagnostics,
        skipped: fe.skipped,
        program: if has_errors { None } else { fe.program },
    }
}
