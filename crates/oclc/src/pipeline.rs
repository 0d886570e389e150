//! The one place that calls the front-end stages (preprocess → parse → sema), so the rest of
//! the driver does not depend on their signatures.

use oclc_syntax::{Diagnostics, FileId, SourceMap, Span};

use crate::check::CheckOptions;

/// `-D`/`-U` option (the preprocessor's type once it lands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroArg {
    Define(String, String),
    Undef(String),
}

/// The typed program sema produces.
#[derive(Clone, Debug)]
pub struct Program;

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
    let _ = (sm, main, opts, diags);
    FrontEnd {
        skipped: Vec::new(),
        program: None,
    }
}
