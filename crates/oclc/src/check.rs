//! The library front door of `oclc check`: source text and options in, the source map, the
//! diagnostics (after the warning policy) and the checked program out.

use std::path::PathBuf;

use oclc_syntax::{Diagnostics, FileId, LangOptions, Level, SourceMap, Span};

use crate::pipeline::{self, Program};
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

/// Checks one translation unit named `name` (a path, or `<stdin>`): preprocess, parse, sema,
/// then the warning policy. Never panics on any input. Runs on a thread of its own with a
/// large stack, so deeply nested input cannot overflow the caller's stack.
pub fn check_source(name: &str, bytes: &[u8], opts: &CheckOptions) -> CheckOutcome {
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("oclc-check".into())
            .stack_size(FRONT_END_STACK_SIZE)
            .spawn_scoped(s, || check_on_this_thread(name, bytes, opts))
            .map(|h| h.join())
    });
    match spawned {
        Ok(Ok(outcome)) => outcome,
        // A panic in a stage is a bug; keep it visible to tests and fuzzers.
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        // No thread could be started: check on the caller's stack.
        Err(_) => check_on_this_thread(name, bytes, opts),
    }
}

/// [`check_source`] on the current thread's stack.
pub fn check_on_this_thread(name: &str, bytes: &[u8], opts: &CheckOptions) -> CheckOutcome {
    let mut sm = SourceMap::new();
    let main = sm.add_file(name, bytes);
    let mut diags = Diagnostics::default();
    let fe = pipeline::front_end(&mut sm, main, opts, &mut diags);
    if let Some(p) = fe.program.as_ref().filter(|_| !diags.has_errors()) {
        diags
            .list
            .extend(crate::spaces_cmd::cast_warnings(p, &sm, &opts.lang));
    }
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
