//! Run-file errors: each names the file, the field (a path like `args.src.len`) and, where the
//! TOML reader gave a span, the line and column.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A 1-based line and column (the column counts bytes, as clang's do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

impl LineCol {
    /// The line and column of byte offset `pos` in `text` (clamped to the text).
    pub fn of(text: &str, pos: usize) -> LineCol {
        let pos = pos.min(text.len());
        let before = text.as_bytes().get(..pos).unwrap_or_default();
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        LineCol {
            line,
            col: pos - line_start + 1,
        }
    }
}

/// One problem with a run file.
///
/// Displayed as `FILE:LINE:COL: error: FIELD: MESSAGE`; the location part is `FILE:` alone when
/// no position is known, and `FIELD: ` is left out for errors about the file as a whole (TOML
/// syntax, an unreadable file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFileError {
    pub file: PathBuf,
    pub at: Option<LineCol>,
    /// Dotted path of the offending field, e.g. `args.src.init[3]`; empty for the whole file.
    pub field: String,
    pub message: String,
}

impl RunFileError {
    pub fn new(
        file: &Path,
        at: Option<LineCol>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        RunFileError {
            file: file.to_path_buf(),
            at,
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for RunFileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:", self.file.display())?;
        if let Some(at) = self.at {
            write!(f, "{}:{}:", at.line, at.col)?;
        }
        f.write_str(" error: ")?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunFileError {}

/// Every problem found in a run file, in file order; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobErrors(pub Vec<RunFileError>);

impl fmt::Display for JobErrors {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for JobErrors {}

impl From<RunFileError> for JobErrors {
    fn from(e: RunFileError) -> Self {
        JobErrors(vec![e])
    }
}

/// Where errors go while a file is checked: the file's name and text, for positions.
#[derive(Debug)]
pub(crate) struct Sink<'a> {
    pub file: &'a Path,
    pub text: &'a str,
    pub errors: Vec<RunFileError>,
}

impl<'a> Sink<'a> {
    pub fn new(file: &'a Path, text: &'a str) -> Self {
        Sink {
            file,
            text,
            errors: Vec::new(),
        }
    }

    pub fn at(&self, span: &Option<Range<usize>>) -> Option<LineCol> {
        span.as_ref().map(|r| LineCol::of(self.text, r.start))
    }

    pub fn error_at(&mut self, at: Option<LineCol>, field: &str, message: impl Into<String>) {
        self.errors
            .push(RunFileError::new(self.file, at, field, message));
    }

    pub fn error(&mut self, span: &Option<Range<usize>>, field: &str, message: impl Into<String>) {
        let at = self.at(span);
        self.errors
            .push(RunFileError::new(self.file, at, field, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column() {
        let text = "ab\ncde\n\nf";
        assert_eq!(LineCol::of(text, 0), LineCol { line: 1, col: 1 });
        assert_eq!(LineCol::of(text, 2), LineCol { line: 1, col: 3 });
        assert_eq!(LineCol::of(text, 3), LineCol { line: 2, col: 1 });
        assert_eq!(LineCol::of(text, 5), LineCol { line: 2, col: 3 });
        assert_eq!(LineCol::of(text, 8), LineCol { line: 4, col: 1 });
        assert_eq!(LineCol::of(text, 100), LineCol { line: 4, col: 2 });
    }

    #[test]
    fn display_forms() {
        let p = Path::new("job.toml");
        let e = RunFileError::new(
            p,
            Some(LineCol { line: 3, col: 7 }),
            "args.src.len",
            "expected a positive integer",
        );
        assert_eq!(
            e.to_string(),
            "job.toml:3:7: error: args.src.len: expected a positive integer"
        );
        let e = RunFileError::new(p, None, "", "cannot read the file: gone");
        assert_eq!(e.to_string(), "job.toml: error: cannot read the file: gone");
    }
}
