//! clang's typo correction for unknown type names: the closest visible type name by edit
//! distance, within clang's bounds (distance at most `(len + 2) / 3`, and at most a third of
//! the name's length).

use super::core::{NameKind, Parser};
use super::names::is_image_type_name;
use crate::diag::Diagnostic;
use crate::intern::Symbol;
use crate::source::Span;

/// Levenshtein distance between `a` and `b`, or `None` once it exceeds `bound` (clang's
/// `StringRef::edit_distance` with replacements).
pub fn edit_distance(a: &[u8], b: &[u8], bound: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > bound || shared_bytes_bound(a, b) > bound {
        return None;
    }
    // Two rows of the table; names are short, so they live on the stack.
    let mut rows = [0usize; 2 * ROW];
    let mut heap;
    let (prev, cur) = if b.len() < ROW {
        let (p, c) = rows.split_at_mut(ROW);
        (&mut p[..=b.len()], &mut c[..=b.len()])
    } else {
        heap = vec![0usize; 2 * (b.len() + 1)];
        heap.split_at_mut(b.len() + 1)
    };
    for (j, x) in prev.iter_mut().enumerate() {
        *x = j;
    }
    let (mut prev, mut cur) = (prev, cur);
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut row_min = cur[0];
        for (j, &cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
            row_min = row_min.min(cur[j + 1]);
        }
        if row_min > bound {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= bound).then_some(d)
}

/// A lower bound of the edit distance from the bytes the two strings share: the bytes an
/// edit keeps are common to both, so at least the longer string's other bytes change. Cheap
/// next to the table, and most candidates of a typo share too few bytes to be in reach.
fn shared_bytes_bound(a: &[u8], b: &[u8]) -> usize {
    let mut counts = [0u32; 256];
    for &c in a {
        counts[usize::from(c)] += 1;
    }
    let mut shared = 0;
    for &c in b {
        let n = &mut counts[usize::from(c)];
        if *n > 0 {
            *n -= 1;
            shared += 1;
        }
    }
    a.len().max(b.len()) - shared
}

/// Row length of [`edit_distance`]'s table on the stack (longer names use the heap).
const ROW: usize = 64;

/// Whether clang would offer `candidate` for the typo `typo`, and at what distance.
pub(crate) fn typo_distance(typo: &str, candidate: &str) -> Option<usize> {
    // clang takes distances up to `(len + 2) / 3` with `len / d >= 3`: together, up to a
    // third of the length, rounded down (the tighter bound ends the search sooner).
    let bound = typo.len() / 3;
    let d = edit_distance(typo.as_bytes(), candidate.as_bytes(), bound)?;
    (d > 0).then_some(d)
}

/// Keywords clang offers as corrections for a type name (`AddKeywordsToConsumer` with type
/// specifiers wanted, C99 with `bool`).
const TYPE_KEYWORDS: &[&str] = &[
    "char", "const", "double", "enum", "float", "int", "long", "short", "signed", "struct",
    "union", "unsigned", "void", "volatile", "_Complex", "extern", "inline", "static", "typedef",
    "restrict", "bool",
];

/// Further keywords offered at the start of a statement.
const STMT_KEYWORDS: &[&str] = &[
    "do", "else", "for", "goto", "if", "return", "switch", "while", "break", "continue", "case",
    "default", "sizeof",
];

/// Where a typo is corrected, which decides the candidates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypoCtx {
    /// An unknown type name in declaration specifiers.
    TypeName,
    /// An undeclared name starting a statement.
    Statement,
}

/// clang's default `-fspell-checking-limit`.
const SPELL_CHECKING_LIMIT: u32 = 50;

/// What a typo correction found: a declared name (with what it names) or a keyword.
#[derive(Clone, Copy)]
pub(crate) struct Correction {
    pub name: Symbol,
    /// `None` for a keyword.
    pub kind: Option<NameKind>,
}

impl Correction {
    /// Whether the correction names a type (a type name or a type keyword).
    pub(crate) fn is_type(&self) -> bool {
        match self.kind {
            Some(k) => matches!(k, NameKind::Typedef(_) | NameKind::Builtin),
            None => TYPE_KEYWORDS.contains(&self.name.as_str()),
        }
    }
}

impl Parser<'_> {
    /// clang's typo correction: the unique closest candidate, or none when the closest are
    /// tied.
    pub(crate) fn correct_typo(&mut self, typo: Symbol, ctx: TypoCtx) -> Option<Correction> {
        if !self.typo_attempt() {
            return None;
        }
        let t = typo.as_str();
        let mut best: Option<(usize, Correction)> = None;
        let mut tied = false;
        let mut consider = |d: usize, c: Correction| match &best {
            Some((bd, _)) if d > *bd => {}
            Some((bd, _)) if d == *bd => tied = true,
            _ => {
                best = Some((d, c));
                tied = false;
            }
        };
        for (sym, s, kind) in self.typo_candidates() {
            let is_type = matches!(kind, NameKind::Typedef(_) | NameKind::Builtin);
            if ctx == TypoCtx::TypeName && !is_type {
                continue;
            }
            // Image types are keywords in clang, not declared names.
            if kind == NameKind::Builtin && is_image_type_name(s) {
                continue;
            }
            if let Some(d) = typo_distance(t, s) {
                consider(
                    d,
                    Correction {
                        name: sym,
                        kind: Some(kind),
                    },
                );
            }
        }
        let extra: &[&str] = if ctx == TypoCtx::Statement {
            STMT_KEYWORDS
        } else {
            &[]
        };
        for k in TYPE_KEYWORDS.iter().chain(extra) {
            if let Some(d) = typo_distance(t, k) {
                consider(
                    d,
                    Correction {
                        name: Symbol::intern(k),
                        kind: None,
                    },
                );
            }
        }
        if tied {
            return None;
        }
        best.map(|(_, c)| c)
    }

    /// Whether clang's delayed typo correction of an undeclared name in an expression would
    /// find any candidate (ties included); without one the expression is invalid at once.
    pub(crate) fn has_typo_candidate(&mut self, typo: Symbol) -> bool {
        if !self.typo_attempt() {
            return false;
        }
        let t = typo.as_str();
        self.typo_candidates()
            .any(|(_, s, _)| typo_distance(t, s).is_some())
            || TYPE_KEYWORDS
                .iter()
                .chain(&["sizeof", "true", "false"])
                .any(|k| typo_distance(t, k).is_some())
    }

    /// Counts a typo-correction attempt against clang's `-fspell-checking-limit` (50 per
    /// translation unit, which also bounds the cost on garbage input); false past it.
    fn typo_attempt(&mut self) -> bool {
        if self.typo_attempts >= SPELL_CHECKING_LIMIT {
            return false;
        }
        self.typo_attempts += 1;
        true
    }

    /// Reports a corrected typo with clang's wording and note.
    pub(crate) fn typo_diag(
        &mut self,
        span: Span,
        typo: Symbol,
        fix: Option<Correction>,
        unknown_type: bool,
    ) {
        let Some(c) = fix else {
            self.error(span, format!("unknown type name '{typo}'"));
            return;
        };
        let msg = if unknown_type {
            format!("unknown type name '{typo}'; did you mean '{}'?", c.name)
        } else {
            format!(
                "use of undeclared identifier '{typo}'; did you mean '{}'?",
                c.name
            )
        };
        let mut d = Diagnostic::error(span, msg).with_fixit(span, c.name.as_str());
        match c.kind {
            Some(NameKind::Typedef(at)) => {
                d = d.with_note(at, format!("'{}' declared here", c.name))
            }
            Some(_) => d = d.with_note(Span::DUMMY, format!("'{}' declared here", c.name)),
            None => {}
        }
        self.emit(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clang_bounds() {
        assert_eq!(typo_distance("Float4", "float4"), Some(1));
        assert_eq!(typo_distance("myintt", "myint"), Some(1));
        assert_eq!(typo_distance("sampler", "sampler_t"), Some(2));
        assert_eq!(typo_distance("size_tt", "size_t"), Some(1));
        // Too far for clang: two edits in five letters, and transpositions count twice.
        assert_eq!(typo_distance("myitn", "myint"), None);
        assert_eq!(typo_distance("flaot", "float"), None);
        assert_eq!(typo_distance("uitn", "uint"), None);
        assert_eq!(typo_distance("same", "same"), None);
    }

    /// The plain Levenshtein distance, for checking the bounded one.
    fn levenshtein(a: &[u8], b: &[u8]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, &ca) in a.iter().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, &cb) in b.iter().enumerate() {
                cur[j + 1] = (prev[j] + usize::from(ca != cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    proptest::proptest! {
        /// The shared-bytes bound and the early exits never drop a distance within the bound.
        #[test]
        fn bounded_distance_is_exact(a in "[a-d_]{0,12}", b in "[a-d_]{0,12}", bound in 0usize..6) {
            let d = levenshtein(a.as_bytes(), b.as_bytes());
            let want = (d <= bound).then_some(d);
            proptest::prop_assert_eq!(edit_distance(a.as_bytes(), b.as_bytes(), bound), want);
        }
    }
}
