//! Runs the front end (preprocess → parse → sema) on source text for the integration tests.

use oclc_syntax::ast::PragmaItem;
use oclc_syntax::parse::{TokPragma, parse_tokens};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, Level, SourceMap};

/// The language mode for `-cl-std=` and `-cl-ext=` values.
pub fn lang(std: ClStd, ext: &str) -> LangOptions {
    let mut l = LangOptions::new(std);
    if !ext.is_empty() {
        l.apply_cl_ext(ext).expect("valid -cl-ext in a test");
    }
    l
}

/// Diagnostics shown by default (errors and warnings, notes left out) as
/// `LINE: severity: message`, and the checked program.
pub fn check(src: &str, lang: &LangOptions) -> (Vec<String>, oclc_sema::hir::Program) {
    let mut sm = SourceMap::new();
    let main = sm.add_text("t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let pragmas: Vec<TokPragma> = out
        .pragmas
        .iter()
        .map(|p| TokPragma {
            before_token: p.before_token,
            item: PragmaItem {
                span: p.span,
                kind: p.kind.clone(),
            },
        })
        .collect();
    let tu = parse_tokens(&out.tokens, &pragmas, &sm, lang, &mut diags);
    let prog = oclc_sema::check(&tu, &sm, lang, &mut diags);
    let lines = diags
        .list
        .iter()
        .filter(|d| d.level != Level::Note)
        // clang's default warning policy: default-off and -pedantic-only groups are hidden.
        .filter(|d| {
            !d.group.is_some_and(|g| {
                oclc_sema::DEFAULT_OFF_GROUPS.contains(&g)
                    || oclc_sema::PEDANTIC_GROUPS.contains(&g)
            })
        })
        .map(|d| {
            let line = sm.location(d.span).map_or(0, |(_, l, _)| l);
            format!("{line}: {}: {}", d.level.as_str(), d.message)
        })
        .collect();
    (lines, prog)
}

/// Diagnostics only.
#[allow(dead_code)]
pub fn diags(src: &str, lang: &LangOptions) -> Vec<String> {
    check(src, lang).0
}
