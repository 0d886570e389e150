//! Include-guard detection, as far as clang's `-Wheader-guard` needs it: clang's
//! `MultipleIncludeOpt` state machine for one file, and the check at the file's end
//! ("'X' is used as a header guard here, followed by #define of a different macro").
//!
//! A file is guarded when its first directive (nothing before it) is `#ifndef X` or
//! `#if !defined(X)` with `X` undefined, and nothing follows the matching `#endif`. When the
//! directive right after it is an empty `#define Y` with `Y` not `X`, `X` is still undefined
//! at the end and the names are within half their length in edit distance, the guard was
//! misspelled.

use super::Pp;
use crate::diag::{Diagnostic, Note};
use crate::intern::Symbol;
use crate::source::Span;

/// clang's `MultipleIncludeOpt` for one file being lexed.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Guard {
    /// A token or directive was read outside the guard (before its `#ifndef` or after its
    /// `#endif`).
    read_any: bool,
    /// The last directive was the guard's `#ifndef`.
    immediately_after: bool,
    /// The guard macro and where its `#ifndef` names it.
    controlling: Option<(Symbol, Span)>,
    /// The macro an empty `#define` right after the `#ifndef` defined, and where.
    defined: Option<(Symbol, Span)>,
}

impl Guard {
    /// A token returned to the parser, or a directive that is not part of the guard.
    pub(super) fn read_token(&mut self) {
        self.read_any = true;
        self.immediately_after = false;
    }

    /// Permanently not a guarded file.
    fn invalidate(&mut self) {
        *self = Guard {
            read_any: true,
            ..Guard::default()
        };
    }

    /// Whether nothing has been read outside the guard so far (a directive about to start
    /// asks this before its own tokens count).
    pub(super) fn nothing_read(&self) -> bool {
        !self.read_any
    }

    /// Takes the "right after the guard's `#ifndef`" state: a directive starts.
    pub(super) fn take_immediately_after(&mut self) -> bool {
        std::mem::take(&mut self.immediately_after)
    }

    /// Restores `read_any` for a null directive (`#` alone), which clang lets stand outside
    /// a guard.
    pub(super) fn set_read_any(&mut self, v: bool) {
        self.read_any = v;
    }

    /// A top-level `#ifndef X` (or `#if !defined(X)`) with `X` undefined and nothing before.
    pub(super) fn enter_ifndef(&mut self, name: Symbol, at: Span) {
        if self.controlling.is_some() {
            return self.invalidate();
        }
        self.read_any = true;
        self.immediately_after = true;
        self.controlling = Some((name, at));
    }

    /// Any other top-level conditional, or a top-level `#else`/`#elif`: part of the file is
    /// not under the guard.
    pub(super) fn enter_conditional(&mut self) {
        self.invalidate();
    }

    /// The top-level `#endif`: from here nothing may follow.
    pub(super) fn exit_conditional(&mut self) {
        if self.controlling.is_none() {
            return self.invalidate();
        }
        self.read_any = false;
        self.immediately_after = false;
    }

    /// An empty `#define` right after the guard's `#ifndef`.
    pub(super) fn set_defined(&mut self, name: Symbol, at: Span) {
        self.defined = Some((name, at));
    }

    /// At the end of the file: the guard macro and the macro defined after it, when the whole
    /// file is guarded and a different macro was defined.
    fn mismatch(&self) -> Option<((Symbol, Span), (Symbol, Span))> {
        if self.read_any {
            return None;
        }
        let c = self.controlling?;
        let d = self.defined?;
        (c.0 != d.0).then_some((c, d))
    }
}

/// Levenshtein distance of `a` and `b` (replacements allowed), as LLVM's `edit_distance`.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if ca == cb {
                prev
            } else {
                1 + prev.min(up).min(row[j])
            };
            prev = up;
        }
    }
    row[b.len()]
}

impl Pp<'_> {
    /// clang's `-Wheader-guard` at the end `end` of a file lexed with `g` (for the first time
    /// when `first_time`).
    pub(super) fn check_header_guard(&mut self, g: Guard, first_time: bool, end: Span) {
        let Some(((guard, guard_at), (def, def_at))) = g.mismatch() else {
            return;
        };
        if !first_time || self.is_defined(guard) {
            return;
        }
        let (gs, ds) = (guard.as_str(), def.as_str());
        let half = gs.len().max(ds.len()) / 2;
        if edit_distance(gs.as_bytes(), ds.as_bytes()) > half {
            return;
        }
        let mut d = Diagnostic::warning(
            guard_at,
            format!(
                "'{gs}' is used as a header guard here, followed by #define of a different macro"
            ),
        )
        .with_group("header-guard")
        .with_range(guard_at)
        .emitted_at(end);
        d.notes.push(
            Note::new(
                def_at,
                format!("'{ds}' is defined here; did you mean '{gs}'?"),
            )
            .with_fixit(def_at, gs),
        );
        self.diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_replacements() {
        assert_eq!(edit_distance(b"_LBM_MARCOS_H", b"_LBM_MACROS_H"), 2);
        assert_eq!(edit_distance(b"", b"abc"), 3);
        assert_eq!(edit_distance(b"kitten", b"sitting"), 3);
        assert_eq!(edit_distance(b"same", b"same"), 0);
    }
}
