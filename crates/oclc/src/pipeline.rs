//! The one place that calls the front-end stages (preprocess → parse → sema), so the rest of
//! the driver does not depend on their signatures.

use oclc_syntax::pp::{self, PpOptions};
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

/// Runs the stages on `main`, pushing their diagnostics into `diags`.
pub fn front_end(
    sm: &mut SourceMap,
    main: FileId,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> FrontEnd {
    let pp_opts = PpOptions {
        lang: opts.lang.clone(),
        macros: opts.macros.clone(),
        include_dirs: opts.include_dirs.clone(),
    };
    let out = pp::preprocess(sm, main, &pp_opts, diags);
    let tu = oclc_syntax::parse::parse(&out, sm, &opts.lang, diags);
    let program = oclc_sema::check(&tu, sm, &opts.lang, diags);
    // Freeing a large file's syntax tree takes a tenth of its check: another thread does it.
    if tu.items.len() >= BACKGROUND_DROP_ITEMS {
        // (Not on a rayon pool, whose workers a caller may keep busy.)
        let _ = std::thread::Builder::new()
            .name("oclc-free".into())
            .spawn(move || drop(tu));
    }
    FrontEnd {
        skipped: out.skipped,
        program: Some(program),
    }
}
