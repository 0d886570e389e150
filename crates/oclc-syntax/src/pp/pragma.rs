//! What clang's pragma handlers say while lexing a `#pragma` (clang's `PragmaHandler`s):
//! malformed `#pragma OPENCL EXTENSION` and `FP_CONTRACT` pragmas are ignored with a warning
//! [-Wignored-pragmas]/[-Wunknown-pragmas], `#pragma message` and `#pragma GCC warning/error`
//! print their text, and (with -Wall) a pragma no handler knows is "unknown pragma ignored".
//! Whether a well-formed `OPENCL EXTENSION` names an extension is sema's question: clang
//! answers it when the parser reaches the pragma.

use super::{Pp, Pragma, PragmaKind};
use crate::source::Span;
use crate::token::{Punct, Token, TokenKind};

/// Top-level pragma names some clang handler takes (so -Wunknown-pragmas stays quiet).
const KNOWN_TOP: &[&str] = &[
    "once",
    "mark",
    "poison",
    "system_header",
    "dependency",
    "push_macro",
    "pop_macro",
    "message",
    "clang",
    "GCC",
    "STDC",
    "OPENCL",
    "omp",
    "unroll",
    "nounroll",
    "unroll_and_jam",
    "nounroll_and_jam",
    "pack",
    "align",
    "options",
    "weak",
    "redefine_extname",
    "ms_struct",
    "unused",
    "region",
    "endregion",
    "comment",
    "detect_mismatch",
    "float_control",
    "fenv_access",
    "execution_character_set",
    "include_alias",
    "intrinsic",
    "function",
    "optimize",
    "alloc_text",
    "strict_gs_check",
    "init_seg",
    "section",
    "data_seg",
    "bss_seg",
    "const_seg",
    "code_seg",
    "vtordisp",
    "pointers_to_members",
    "warning",
];

/// `#pragma clang ...` names clang knows.
const KNOWN_CLANG: &[&str] = &[
    "poison",
    "system_header",
    "dependency",
    "diagnostic",
    "loop",
    "optimize",
    "fp",
    "attribute",
    "section",
    "max_tokens_here",
    "max_tokens_total",
    "arc_cf_code_audited",
    "assume_nonnull",
    "module",
    "riscv",
    "unsafe_buffer_usage",
    "deprecated",
    "restrict_expansion",
    "final",
    "__debug",
    "include_instead",
];

/// `#pragma GCC ...` names clang knows.
const KNOWN_GCC: &[&str] = &[
    "poison",
    "system_header",
    "dependency",
    "warning",
    "error",
    "diagnostic",
    "visibility",
];

impl Pp<'_> {
    /// Classifies a pragma's tokens (clang's handlers) and records it for the parser.
    pub(crate) fn record_pragma(&mut self, span: Span, toks: &[Token]) {
        let kind = self.pragma_kind(span, toks);
        self.out.pragmas.push(Pragma {
            before_token: self.out.tokens.len(),
            span,
            kind,
        });
    }

    fn pragma_kind(&mut self, span: Span, toks: &[Token]) -> PragmaKind {
        let texts: Vec<String> = toks.iter().map(Token::text).collect();
        let other = PragmaKind::Other(texts.join(" "));
        // Where the directive's end is, for a missing token.
        let eod = toks.last().map_or(span, |t| Span {
            lo: t.span.hi,
            ..t.span
        });
        let at = |i: usize| toks.get(i).map_or(eod, |t| t.span);
        let Some(first) = toks.first() else {
            return other;
        };
        match texts[0].as_str() {
            "OPENCL" => match texts.get(1).map(String::as_str) {
                Some("EXTENSION") => self.opencl_extension(toks, &texts, at).unwrap_or(other),
                Some("FP_CONTRACT") => {
                    if !matches!(
                        texts.get(2).map(String::as_str),
                        Some("ON" | "OFF" | "DEFAULT")
                    ) {
                        self.warning(
                            at(2),
                            "expected 'ON' or 'OFF' or 'DEFAULT' in pragma",
                            "unknown-pragmas",
                        );
                    }
                    other
                }
                _ => {
                    self.unknown_pragma(at(1));
                    other
                }
            },
            "message" => {
                self.pragma_message(toks, "message", Some(1), at);
                other
            }
            "system_header" => {
                self.system_header_in_main(first.span);
                other
            }
            "GCC" | "clang" if texts.get(1).is_some_and(|n| n == "system_header") => {
                self.system_header_in_main(at(1));
                other
            }
            "GCC" => {
                match texts.get(1).map(String::as_str) {
                    Some("warning") => self.pragma_message(toks, "warning", None, at),
                    Some("error") => self.pragma_message(toks, "error", None, at),
                    Some(n) if KNOWN_GCC.contains(&n) => {}
                    _ => self.unknown_pragma(at(1)),
                }
                other
            }
            "clang" => {
                if !texts
                    .get(1)
                    .is_some_and(|n| KNOWN_CLANG.contains(&n.as_str()))
                {
                    self.unknown_pragma(at(1));
                }
                other
            }
            "STDC" => {
                match texts.get(1).map(String::as_str) {
                    Some("FP_CONTRACT" | "CX_LIMITED_RANGE" | "FENV_ROUND") => {}
                    Some("FENV_ACCESS") => self.warning(
                        at(1),
                        "'#pragma FENV_ACCESS' is not supported on this target - ignored",
                        "ignored-pragmas",
                    ),
                    _ => self.warning(at(1), "unknown pragma in STDC namespace", "unknown-pragmas"),
                }
                other
            }
            n if matches!(first.kind, TokenKind::Ident(_)) && KNOWN_TOP.contains(&n) => other,
            _ => {
                self.unknown_pragma(first.span);
                other
            }
        }
    }

    /// `#pragma system_header` outside an included file.
    fn system_header_in_main(&mut self, at: Span) {
        if self.files.len() <= 1 {
            self.warning(
                at,
                "#pragma system_header ignored in main file",
                "pragma-system-header-outside-header",
            );
        }
    }

    /// "unknown pragma ignored": off by default, on with -Wall (-Wunknown-pragmas).
    fn unknown_pragma(&mut self, at: Span) {
        self.warning(at, "unknown pragma ignored", "unknown-pragmas-off");
    }

    /// `#pragma OPENCL EXTENSION name : state` as clang's handler reads it; `None` (after its
    /// warning) when clang ignores it.
    fn opencl_extension(
        &mut self,
        toks: &[Token],
        texts: &[String],
        at: impl Fn(usize) -> Span,
    ) -> Option<PragmaKind> {
        let name = match toks.get(2) {
            Some(t) if matches!(t.kind, TokenKind::Ident(_)) => t,
            _ => {
                self.warning(
                    at(2),
                    "expected identifier in '#pragma OPENCL' - ignored",
                    "ignored-pragmas",
                );
                return None;
            }
        };
        if !toks.get(3).is_some_and(|t| t.is_punct(Punct::Colon)) {
            self.warning(
                at(3),
                format!("missing ':' after '{}' - ignoring", texts[2]),
                "ignored-pragmas",
            );
            return None;
        }
        // The state is read with macro expansion (clang's `PP.Lex`).
        let state = toks.get(4).map(|t| self.expand_pragma_word(t));
        let all = texts[2] == "all";
        let expected = if all {
            "expected 'disable' - ignoring"
        } else {
            "expected 'enable', 'disable', 'begin' or 'end' - ignoring"
        };
        let Some(Some(state)) = state else {
            let msg = if toks
                .get(4)
                .is_some_and(|t| matches!(t.kind, TokenKind::Ident(_)))
            {
                expected
            } else {
                "expected 'enable', 'disable', 'begin' or 'end' - ignoring"
            };
            self.warning(at(4), msg, "ignored-pragmas");
            return None;
        };
        if !matches!(state.as_str(), "enable" | "disable" | "begin" | "end") {
            self.warning(at(4), expected, "ignored-pragmas");
            return None;
        }
        if toks.len() > 5 {
            self.warning(
                at(5),
                "extra tokens at end of '#pragma OPENCL EXTENSION' - ignored",
                "ignored-pragmas",
            );
            return None;
        }
        let (n, name_span) = (texts[2].clone(), name.span);
        Some(match state.as_str() {
            "enable" | "disable" => PragmaKind::OpenclExtension {
                name: n,
                enable: state == "enable",
                name_span,
            },
            _ => PragmaKind::OpenclExtensionScope {
                name: n,
                begin: state == "begin",
                name_span,
            },
        })
    }

    /// An identifier as a pragma handler lexing with macro expansion sees it: the name an
    /// object-like macro expands to (one identifier), or the identifier itself. `None` for
    /// anything else.
    fn expand_pragma_word(&mut self, t: &Token) -> Option<String> {
        let sym = t.ident()?;
        let mut cur = sym;
        for _ in 0..16 {
            let Some(m) = self.macros.get(cur) else { break };
            if m.function_like {
                break;
            }
            match m.body.as_slice() {
                [one] => match one.ident() {
                    Some(s) => cur = s,
                    None => return None,
                },
                _ => return None,
            }
        }
        Some(cur.as_str().to_string())
    }

    /// The operand tokens with object-like macros replaced by their bodies (clang's handler
    /// reads them with macro expansion); `None` where a function-like macro would need its
    /// arguments.
    fn expand_strings(&mut self, toks: &[Token]) -> Option<Vec<Token>> {
        let mut out = Vec::with_capacity(toks.len());
        let mut todo: Vec<(Token, u32)> = toks.iter().rev().map(|t| (*t, 0)).collect();
        while let Some((t, depth)) = todo.pop() {
            if let Some(sym) = t.ident()
                && let Some(m) = self.macros.get(sym)
            {
                if m.function_like || depth > 16 {
                    return None;
                }
                todo.extend(m.body.iter().rev().map(|b| (*b, depth + 1)));
                continue;
            }
            out.push(t);
        }
        Some(out)
    }

    /// `#pragma message("text")` / `#pragma message "text"` and `#pragma GCC warning|error
    /// "text"`: the text as a warning [-W#pragma-messages] or an error. `skip` is the index
    /// of the first operand token (after `message`; after `GCC warning` it is 2). An operand
    /// that needs macro expansion is left alone.
    fn pragma_message(
        &mut self,
        toks: &[Token],
        what: &str,
        skip: Option<usize>,
        at: impl Fn(usize) -> Span,
    ) {
        let start = skip.unwrap_or(2);
        let kw = at(start - 1);
        let expanded = self.expand_strings(toks.get(start..).unwrap_or(&[]));
        let Some(ops) = expanded.as_deref() else {
            return;
        };
        if ops.is_empty() {
            self.error(kw, format!("pragma {what} requires parenthesized string"));
            return;
        }
        let paren = ops.first().is_some_and(|t| t.is_punct(Punct::LParen));
        let inner: &[Token] = if paren {
            match ops.last() {
                Some(t) if ops.len() >= 2 && t.is_punct(Punct::RParen) => &ops[1..ops.len() - 1],
                _ => {
                    self.error(
                        at(start + ops.len()),
                        format!("pragma {what} requires parenthesized string"),
                    );
                    return;
                }
            }
        } else {
            ops
        };
        let mut text = String::new();
        for (i, t) in inner.iter().enumerate() {
            let TokenKind::Str(s) = t.kind else {
                let msg = if paren && i == 0 {
                    format!("expected string literal in pragma {what}")
                } else {
                    format!("pragma {what} requires parenthesized string")
                };
                self.error(t.span, msg);
                return;
            };
            let s = s.as_str();
            if !s.starts_with('"') {
                self.error(t.span, format!("expected string literal in pragma {what}"));
                return;
            }
            text.push_str(unquote(s));
        }
        if inner.is_empty() {
            let msg = if paren {
                format!("expected string literal in pragma {what}")
            } else {
                format!("pragma {what} requires parenthesized string")
            };
            self.error(at(start + usize::from(paren)), msg);
            return;
        }
        if what == "error" {
            self.error(kw, text);
        } else {
            self.warning(kw, text, "#pragma-messages");
        }
    }
}

/// A plain string literal's contents (escapes as written, as clang prints them).
fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(s)
}
