//! The one place that calls the front-end stages (preprocess → parse → sema), so the rest of
//! the driver does not depend on their signatures.

use oclc_syntax::pp::{self, PpOptions, PpOutput};
use oclc_syntax::{Diagnostics, FileId, SourceMap, Span};

use crate::check::CheckOptions;

pub use oclc_sema::hir::Program;
pub use oclc_syntax::pp::MacroArg;

/// Syntax trees of at least this many top-level items are freed on another thread.
const BACKGROUND_DROP_ITEMS: usize = 1024;

/// What the stages hand back besides diagnostics.
pub struct FrontEnd {
    pub skipped: Vec<Span>,
    pub program: Option<Program>,
}

/// The first stage: its recursion is bounded by the preprocessor's own limits, while the later
/// stages ([`parse_and_check`]) nest as deep as the tokens it produces.
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> PpOutput {
    let pp_opts = PpOptions {
        lang: opts.lang.clone(),
        macros: opts.macros.clone(),
        include_dirs: opts.include_dirs.clone(),
    };
    pp::preprocess(sm, main, &pp_opts, diags)
}

/// The stages after [`preprocess`], on the caller's thread: its stack must take the nesting
/// of `out` (any input, on [`crate::check::FRONT_END_STACK_SIZE`]).
pub fn parse_and_check(
    out: &PpOutput,
    sm: &SourceMap,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> FrontEnd {
    let tu = oclc_syntax::parse::parse_on_this_thread(out, sm, &opts.lang, diags);
    let program = oclc_sema::check(&tu, sm, &opts.lang, diags);
    // Freeing a large file's syntax tree takes a tenth of its check: another thread does it.
    if tu.items.len() >= BACKGROUND_DROP_ITEMS {
        // (Not on a rayon pool, whose workers a caller may keep busy.)
        let _ = std::thread::Builder::new()
            .name("oclc-free".into())
            .spawn(move || drop(tu));
    }
    FrontEnd {
        skipped: out.skipped.clone(),
        program: Some(program),
    }
}
