//! clang's typo correction in sema: an undeclared identifier in an expression
//! (`Sema::CorrectTypoDelayed`: the closest visible name that makes the expression valid, up to
//! `(len + 2) / 3` edits) and an unknown member name (`Sema::CorrectTypo`: the unique closest
//! field, up to a third of the name's length). Computed only when the error is reported, at
//! most [`SPELL_CHECKING_LIMIT`] times per translation unit, over at most
//! [`MAX_CANDIDATES`] names each time.

use oclc_syntax::parse::edit_distance;
use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::scope::Binding;
use crate::types::RecordId;

/// clang's default `-fspell-checking-limit`: corrections attempted per translation unit.
pub const SPELL_CHECKING_LIMIT: u32 = 50;

/// Names scanned per correction at most (bounds the cost in a huge scope).
pub const MAX_CANDIDATES: usize = 1 << 16;

/// How the undeclared name is used, which decides the candidates that make it valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameUse<'a> {
    /// As a value (a variable or enumerator fits).
    Value,
    /// Called with these arguments (a function taking them fits; a builtin must accept
    /// their types, as clang type-checks the corrected call).
    Call(&'a [crate::builtins::Arg]),
}

/// The correction chosen for a typo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Correction {
    pub name: Symbol,
    /// Where the correction is declared (`None`: a keyword); `Span::DUMMY` for builtin
    /// functions, whose declarations are in clang's header.
    pub decl: Option<Span>,
}

/// Keywords clang offers in an expression (`AddKeywordsToConsumer` for a
/// `CastExpressionIdValidator`): the expression keywords, then (unless a `)` follows) the
/// statement keywords of a function body.
const EXPR_KEYWORDS: &[&str] = &["sizeof", "true", "false"];
const STMT_KEYWORDS: &[&str] = &[
    "do", "else", "for", "goto", "if", "return", "switch", "while",
];

/// The distance of `candidate` from `typo` if clang's delayed correction considers it:
/// within `(len + 2) / 3` edits, a length difference of at most a third, no typo shorter
/// than 3.
fn delayed_distance(typo: &str, candidate: &str) -> Option<usize> {
    let len = typo.len();
    if len < 3 || candidate == typo {
        return None;
    }
    let min = len.abs_diff(candidate.len());
    if min > 0 && len / min < 3 {
        return None;
    }
    edit_distance(typo.as_bytes(), candidate.as_bytes(), len.div_ceil(3))
}

/// The distance of `candidate` if clang's immediate correction accepts it: at most a third
/// of the typo's length.
fn immediate_distance(typo: &str, candidate: &str) -> Option<usize> {
    let len = typo.len();
    if len < 3 || candidate == typo {
        return None;
    }
    let d = edit_distance(typo.as_bytes(), candidate.as_bytes(), len / 3)?;
    (d > 0 && len / d >= 3).then_some(d)
}

impl Checker<'_> {
    /// Counts a correction against clang's spell-checking limit; false past it.
    fn typo_attempt(&mut self) -> bool {
        if self.typo_attempts >= SPELL_CHECKING_LIMIT {
            return false;
        }
        self.typo_attempts += 1;
        true
    }

    /// Reports the undeclared `name` at `span` as clang does, with its correction when clang
    /// finds one, and returns the correction. clang reports it when the full expression is
    /// done (or a `)`, `[]` or `.` forces the correction): see [`Checker::flush_typos`].
    pub(crate) fn undeclared(
        &mut self,
        name: Symbol,
        span: Span,
        used: NameUse<'_>,
    ) -> Option<Correction> {
        let fix = self.correct_undeclared(name, span, used);
        self.pending_typos.push((name, span, fix));
        fix
    }

    /// Drops the corrections of the typos reported since `mark` (a length of
    /// `pending_typos`): in an expression that cannot be valid (a call of an undeclared
    /// function), no correction makes it valid, so clang offers none.
    pub(crate) fn uncorrect_typos_since(&mut self, mark: usize) {
        for t in self.pending_typos.iter_mut().skip(mark) {
            t.2 = None;
        }
    }

    /// Emits the typo diagnostics of the expression just finished, as emitted at the end of
    /// `at` (ordering them after the parser's diagnostics inside it).
    pub(crate) fn flush_typos(&mut self, at: Option<Span>) {
        self.flush_typos_from(0, at);
    }

    /// [`Checker::flush_typos`] for the typos reported since `mark` (a length of
    /// `pending_typos`) only: a `)`, `[]` or `.` corrects the typos of its own operands,
    /// while those seen before it wait for the end of their full expression.
    #[inline]
    pub(crate) fn flush_typos_from(&mut self, mark: usize, at: Option<Span>) {
        // Nearly always nothing to do: asked at every subscript, call and member access.
        if self.pending_typos.len() > mark {
            self.flush_typo_batch(mark, at);
        }
    }

    /// [`Checker::flush_typos_from`] when there are typos since `mark`.
    fn flush_typo_batch(&mut self, mark: usize, at: Option<Span>) {
        let mut batch = self.pending_typos.split_off(mark);
        // clang corrects the batch together: when one name has no correction, no choice of
        // corrections makes the expression valid, and none is offered.
        if batch.iter().any(|t| t.2.is_none()) {
            for t in &mut batch {
                t.2 = None;
            }
        }
        for (name, span, fix) in batch {
            let msg = match fix {
                Some(c) => format!(
                    "use of undeclared identifier '{name}'; did you mean '{}'?",
                    c.name
                ),
                None => format!("use of undeclared identifier '{name}'"),
            };
            let mut d = Diagnostic::error(span, msg);
            if let Some(c) = fix {
                d = d.with_fixit(span, c.name.as_str());
                if let Some(decl) = c.decl {
                    d = d.with_note(decl, format!("'{}' declared here", c.name));
                }
            }
            if let Some(a) = at {
                d = d.emitted_at(Span {
                    lo: a.hi.saturating_sub(1),
                    ..a
                });
            }
            self.emit(d);
        }
    }

    /// clang's delayed correction of an undeclared name: among the visible names close
    /// enough, the closest that fits the use (a variable or enumerator as a value, a function
    /// taking the arguments when called), unless two fit at that distance; a keyword when it
    /// is closer than every name.
    fn correct_undeclared(
        &mut self,
        name: Symbol,
        span: Span,
        used: NameUse<'_>,
    ) -> Option<Correction> {
        let typo = name.as_str();
        if typo.len() < 3 || !self.typo_attempt() {
            return None;
        }
        // The closest name of any kind but a type (clang's first candidate), and the closest
        // fitting ones.
        let mut nearest = usize::MAX;
        let mut best: Option<(usize, Correction)> = None;
        let mut tied = false;
        let mut consider = |d: usize, fits: bool, c: Correction| {
            nearest = nearest.min(d);
            if !fits {
                return;
            }
            match &best {
                Some((bd, b)) if d == *bd && b.name != c.name => tied = true,
                Some((bd, _)) if d >= *bd => {}
                _ => {
                    best = Some((d, c));
                    tied = false;
                }
            }
        };
        let mut scanned = 0usize;
        for (n, e) in self.scopes.visible() {
            scanned += 1;
            if scanned > MAX_CANDIDATES {
                break;
            }
            if matches!(e.binding, Binding::Typedef(_)) || Some(n) == self.initializing {
                continue;
            }
            let Some(d) = delayed_distance(typo, n.as_str()) else {
                continue;
            };
            let fits = match (used, e.binding) {
                (NameUse::Value, Binding::Var(_) | Binding::EnumConst(..)) => !e.invalid,
                (NameUse::Call(args), Binding::Func(f)) => self.takes_args(f, args.len()),
                _ => false,
            };
            let decl = (!e.span.is_dummy()).then_some(e.span);
            consider(d, fits, Correction { name: n, decl });
        }
        // The builtin functions of clang's header. An overloaded one is tried with its last
        // declaration in the header only (`dstT(1.0f, 2.0f)` is corrected to `dot`, whose last
        // declaration is `half dot(half4, half4)`; `dstT(a, b)` of `float4`s is not), and
        // only when its result is a scalar (`o[1] = maxx(1.0f, 2.0f)` is not corrected to
        // `max`, whose `half16` result would not assign): the table keeps the header's order.
        if let NameUse::Call(args) = used {
            // Measured by name first: only a close name's declarations are parsed.
            for id in self.builtins.table_ids() {
                let bname = self.builtins.name(id);
                let Some(d) = delayed_distance(typo, bname) else {
                    continue;
                };
                if !self.builtins.declared(id) {
                    continue;
                }
                let Some(sym) = self.builtins.symbol(id) else {
                    continue;
                };
                if self.scopes.lookup(sym).is_some() {
                    continue;
                }
                // clang's type-generic atomics are variadic ("v." with custom checking): any
                // call fits them, once a call has declared them.
                let fits = if super::gnu_atomic::is_generic_atomic(bname) {
                    self.atomics_called.contains(&sym)
                } else {
                    let single = self.builtins.overload_count(id) == 1;
                    self.builtins.special(id).is_none()
                        && self.builtins.overloads(id).last().is_some_and(|o| {
                            let sig = self.builtins.signature(o);
                            let scalar_ret = matches!(sig.ret, crate::builtins::BTy::Scalar(_));
                            let params = sig.params();
                            (single || scalar_ret)
                                && (params.len() == args.len()
                                    || (sig.variadic && args.len() >= params.len()))
                                && args
                                    .iter()
                                    .zip(params)
                                    .all(|(a, &p)| crate::builtins::convert(a, p).is_ok())
                        })
                };
                consider(
                    d,
                    fits,
                    Correction {
                        name: sym,
                        decl: Some(Span::DUMMY),
                    },
                );
            }
        }
        // A keyword closer than every name: clang's parser takes it at once (unless a `)`
        // follows, where only names are tried).
        if !self.next_is_rparen(span) {
            let in_fn = self.func.is_some();
            let mut kws: Vec<&str> = EXPR_KEYWORDS.to_vec();
            if in_fn {
                kws.extend_from_slice(STMT_KEYWORDS);
                if self.loop_depth > 0 {
                    kws.push("break");
                    kws.push("continue");
                } else if self.switch_depth > 0 {
                    kws.push("break");
                }
                if self.switch_depth > 0 {
                    kws.push("case");
                    kws.push("default");
                }
            } else {
                kws.push("typedef");
            }
            let kw = kws
                .iter()
                .filter_map(|k| delayed_distance(typo, k).map(|d| (d, *k)))
                .min_by_key(|(d, _)| *d);
            if let Some((d, k)) = kw
                && d < nearest
                && typo.len() / d >= 3
            {
                return Some(Correction {
                    name: Symbol::intern(k),
                    decl: None,
                });
            }
        }
        if tied {
            return None;
        }
        best.map(|(_, c)| c)
    }

    /// Whether function `f` can be called with `args` arguments.
    fn takes_args(&self, f: crate::hir::FuncId, args: usize) -> bool {
        let Some(func) = self.prog.function(f) else {
            return false;
        };
        match self.prog.types.fn_sig(crate::types::QualType::new(func.ty)) {
            Some(sig) => {
                !sig.has_proto
                    || sig.params.len() == args
                    || (sig.variadic && args >= sig.params.len())
            }
            None => false,
        }
    }

    /// Whether the source right after `span` (past blanks) is a `)`.
    fn next_is_rparen(&self, span: Span) -> bool {
        let s = self.sm.report_span(span);
        let Some(f) = self.sm.file(s.file) else {
            return false;
        };
        f.text
            .get(s.hi as usize..)
            .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()))
            == Some(&b')')
    }

    /// clang's correction of an unknown member `name` of record `rid`: the unique closest
    /// field within a third of the name's length.
    pub(crate) fn correct_member(&mut self, name: Symbol, rid: RecordId) -> Option<(Symbol, Span)> {
        let typo = name.as_str();
        if typo.len() < 3 || !self.typo_attempt() {
            return None;
        }
        let rec = self.prog.types.record(rid)?;
        let mut best: Option<(usize, Symbol, Span)> = None;
        let mut tied = false;
        for f in rec.fields.iter().take(MAX_CANDIDATES) {
            let Some(n) = f.name else { continue };
            let Some(d) = immediate_distance(typo, n.as_str()) else {
                continue;
            };
            match &best {
                Some((bd, bn, _)) if d == *bd && *bn != n => tied = true,
                Some((bd, _, _)) if d >= *bd => {}
                _ => {
                    best = Some((d, n, f.span));
                    tied = false;
                }
            }
        }
        if tied {
            return None;
        }
        best.map(|(_, n, s)| (n, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clang_bounds() {
        // Delayed (expressions): up to (len + 2) / 3 edits.
        assert_eq!(delayed_distance("valeu", "vxlez"), Some(2));
        assert_eq!(delayed_distance("qwxyz", "qwert"), None);
        assert_eq!(delayed_distance("qw", "qe"), None);
        assert_eq!(delayed_distance("mixtab0", "mixtab0_c"), Some(2));
        // Immediate (members): a third of the length.
        assert_eq!(immediate_distance("cout", "count"), Some(1));
        assert_eq!(immediate_distance("valeu", "value"), None);
        assert_eq!(immediate_distance("alpah", "alpha"), None);
    }
}
