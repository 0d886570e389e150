//! `--format json`: diagnostics as one JSON document for editors and tools.
//!
//! ```json
//! {"diagnostics": [{"file": "k.cl", "line": 3, "col": 5, "severity": "error",
//!   "message": "...", "group": "conversion", "option": "-Werror,-Wconversion",
//!   "notes": [{"file": .., "line": .., "col": .., "message": ..}],
//!   "fixits": [{"file": .., "line": .., "col": .., "end_line": .., "end_col": .., "text": ..}],
//!   "expansions": [{"file": .., "line": .., "col": .., "message": "expanded from macro 'M'"}]}],
//!  "errors": 1, "warnings": 0}
//! ```
//! Locations are 1-based; columns count bytes, as clang's do. A diagnostic without a location
//! has `null` file, line and col.

use oclc_syntax::{SourceMap, Span};
use serde::Serialize;

use crate::warnings::Reported;

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonNote {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonFixit {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub end_line: Option<u32>,
    pub end_col: Option<u32>,
    pub text: String,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonDiagnostic {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub severity: &'static str,
    pub message: String,
    /// The clang warning group (without `-W`), if the diagnostic has one.
    pub group: Option<&'static str>,
    /// The option text clang prints in brackets, e.g. `-Werror,-Wconversion`.
    pub option: Option<String>,
    pub notes: Vec<JsonNote>,
    pub fixits: Vec<JsonFixit>,
    /// Macro expansions the diagnostic came through, outermost first.
    pub expansions: Vec<JsonNote>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonReport {
    pub diagnostics: Vec<JsonDiagnostic>,
    pub errors: usize,
    pub warnings: usize,
}

fn loc(sm: &SourceMap, span: Span, expand: bool) -> (Option<String>, Option<u32>, Option<u32>) {
    if span.is_dummy() {
        return (None, None, None);
    }
    let s = if expand { sm.report_span(span) } else { span };
    match sm.file(s.file) {
        Some(f) => {
            let (l, c) = f.line_col(s.lo);
            let (name, l) = sm.presumed(s.file, l);
            (Some(name.to_string()), Some(l), Some(c))
        }
        None => (None, None, None),
    }
}

/// Converts one compilation's diagnostics.
pub fn diagnostics(sm: &SourceMap, reported: &[Reported]) -> Vec<JsonDiagnostic> {
    reported
        .iter()
        .map(|r| {
            let d = &r.diag;
            let (file, line, col) = loc(sm, d.span, true);
            let notes = d
                .notes
                .iter()
                .map(|n| {
                    let (file, line, col) = loc(sm, n.span, true);
                    JsonNote {
                        file,
                        line,
                        col,
                        message: n.message.clone(),
                    }
                })
                .collect();
            let fixits = d
                .fixits
                .iter()
                .map(|fx| {
                    let (file, line, col) = loc(sm, fx.span, true);
                    let end = Span {
                        lo: fx.span.hi,
                        ..fx.span
                    };
                    let (_, end_line, end_col) = loc(sm, end, true);
                    JsonFixit {
                        file,
                        line,
                        col,
                        end_line,
                        end_col,
                        text: fx.text.clone(),
                    }
                })
                .collect();
            let mut expansions = Vec::new();
            let mut s = d.span;
            while let Some(e) = sm.expansion(s.expn) {
                let (file, line, col) = loc(sm, s, false);
                expansions.push(JsonNote {
                    file,
                    line,
                    col,
                    message: format!("expanded from macro '{}'", e.macro_name),
                });
                s = e.call_site;
                if expansions.len() > 10_000 {
                    break;
                }
            }
            expansions.reverse();
            JsonDiagnostic {
                file,
                line,
                col,
                severity: d.level.as_str(),
                message: d.message.clone(),
                group: d.group.map(crate::warnings::shown),
                option: r.option.clone(),
                notes,
                fixits,
                expansions,
            }
        })
        .collect()
}

/// One document for several compilations (in input order).
pub fn report(parts: Vec<Vec<JsonDiagnostic>>) -> JsonReport {
    let diagnostics: Vec<JsonDiagnostic> = parts.into_iter().flatten().collect();
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == "error" || d.severity == "fatal error")
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == "warning")
        .count();
    JsonReport {
        diagnostics,
        errors,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_syntax::Diagnostic;

    #[test]
    fn shape() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("k.cl", "int x\n".into());
        let d = Diagnostic::error(Span::new(f, 5, 5), "expected ';'")
            .with_fixit(Span::new(f, 5, 5), ";")
            .with_note(Span::new(f, 4, 5), "here");
        let r = report(vec![diagnostics(
            &sm,
            &[Reported {
                diag: d,
                option: None,
            }],
        )]);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["errors"], 1);
        assert_eq!(v["diagnostics"][0]["line"], 1);
        assert_eq!(v["diagnostics"][0]["col"], 6);
        assert_eq!(v["diagnostics"][0]["severity"], "error");
        assert_eq!(v["diagnostics"][0]["fixits"][0]["text"], ";");
        assert_eq!(v["diagnostics"][0]["notes"][0]["col"], 5);
        assert!(v["diagnostics"][0]["group"].is_null());
    }
}
