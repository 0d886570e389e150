//! The diagnostic type every stage reports to users: clang's severities, a primary span, notes
//! (each with its own span, as clang prints them), fix-its, and the warning group that controls it.

use crate::source::Span;

/// Severity, as clang prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Note,
    Remark,
    Warning,
    Error,
    Fatal,
}

impl Level {
    /// The word clang prints: `error`, `warning`, `note`, `remark`, `fatal error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Remark => "remark",
            Level::Warning => "warning",
            Level::Error => "error",
            Level::Fatal => "fatal error",
        }
    }
}

/// A replacement of the text at `span` by `text` (an insertion when the span is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixIt {
    pub span: Span,
    pub text: String,
}

/// A note attached to a diagnostic; printed after it as `FILE:LINE:COL: note: ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// DUMMY when the note has no location (printed as `note: ...`).
    pub span: Span,
    pub message: String,
    /// Ranges underlined with `~`, as for a diagnostic.
    pub ranges: Vec<Span>,
    /// Fix-its printed under the note's snippet (`static `, `(`, `)`, `=`).
    pub fixits: Vec<FixIt>,
}

impl Note {
    pub fn new(span: Span, message: impl Into<String>) -> Note {
        Note {
            span,
            message: message.into(),
            ranges: Vec::new(),
            fixits: Vec::new(),
        }
    }

    pub fn with_range(mut self, span: Span) -> Note {
        self.ranges.push(span);
        self
    }

    pub fn with_fixit(mut self, span: Span, text: impl Into<String>) -> Note {
        self.fixits.push(FixIt {
            span,
            text: text.into(),
        });
        self
    }
}

/// One diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub level: Level,
    pub message: String,
    /// Primary location; DUMMY for diagnostics about the command line.
    pub span: Span,
    /// Extra ranges underlined with `~` in the caret line, as clang does.
    pub ranges: Vec<Span>,
    pub notes: Vec<Note>,
    pub fixits: Vec<FixIt>,
    /// The `-W` group (without `-W`) that controls a warning, e.g. `"conversion"` or
    /// `"pedantic"`; `None` for errors and ungrouped warnings.
    pub group: Option<&'static str>,
    /// Where clang emits it when that is later than its location (at the end of the
    /// function for -Warray-bounds): what orders it among the other stages' diagnostics.
    pub order: Option<Span>,
    /// The parser's place in the preprocessed token stream when it reported this (clang's
    /// emission point): orders it among sema's diagnostics inside a macro expansion.
    pub token: Option<u32>,
}

impl Diagnostic {
    pub fn new(level: Level, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            level,
            message: message.into(),
            span,
            ranges: Vec::new(),
            notes: Vec::new(),
            fixits: Vec::new(),
            group: None,
            order: None,
            token: None,
        }
    }

    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Level::Error, span, message)
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Level::Warning, span, message)
    }

    /// Attaches a located note.
    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note::new(span, message));
        self
    }

    /// Attaches a located note that underlines `range` too.
    pub fn with_note_range(
        mut self,
        span: Span,
        message: impl Into<String>,
        range: Span,
    ) -> Diagnostic {
        self.notes.push(Note::new(span, message).with_range(range));
        self
    }

    /// Attaches a note built with its ranges and fix-its.
    pub fn with_full_note(mut self, note: Note) -> Diagnostic {
        self.notes.push(note);
        self
    }

    pub fn with_range(mut self, span: Span) -> Diagnostic {
        self.ranges.push(span);
        self
    }

    pub fn with_fixit(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.fixits.push(FixIt {
            span,
            text: text.into(),
        });
        self
    }

    pub fn with_group(mut self, group: &'static str) -> Diagnostic {
        self.group = Some(group);
        self
    }

    /// Emitted by clang at `at` (see [`Diagnostic::order`]).
    pub fn emitted_at(mut self, at: Span) -> Diagnostic {
        self.order = Some(at);
        self
    }

    pub fn is_error(&self) -> bool {
        self.level >= Level::Error
    }
}

/// A sink stages push diagnostics into.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }
}
