//! Snapshot tests: each `tests/in/parse_*.cl` is preprocessed and parsed (OpenCL C 2.0); the
//! snapshot holds the parser's diagnostics and the compact AST dump.

use std::path::Path;

use oclc_syntax::lang::{ClStd, LangOptions};
use oclc_syntax::parse::{dump, parse};
use oclc_syntax::pp::{PpOptions, preprocess};
use oclc_syntax::{Diagnostics, SourceMap};

fn render(name: &str, text: &str) -> String {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let f = sm.add_text(name, text.to_string());
    let mut pd = Diagnostics::default();
    let out = preprocess(
        &mut sm,
        f,
        &PpOptions {
            lang: lang.clone(),
            ..PpOptions::default()
        },
        &mut pd,
    );
    assert!(
        pd.list.is_empty(),
        "preprocessor diagnostics in {name}: {:?}",
        pd.list
    );
    let mut d = Diagnostics::default();
    let tu = parse(&out, &sm, &lang, &mut d);
    let mut s = String::new();
    for x in &d.list {
        let (file, l, c) = sm.location(x.span).unwrap_or(("?", 0, 0));
        s.push_str(&format!(
            "{file}:{l}:{c}: {}: {}\n",
            x.level.as_str(),
            x.message
        ));
        for n in &x.notes {
            let (file, l, c) = sm.location(n.span).unwrap_or(("?", 0, 0));
            s.push_str(&format!("  {file}:{l}:{c}: note: {}\n", n.message));
        }
    }
    s.push_str("----\n");
    s.push_str(&dump(&tu));
    s
}

fn check(stem: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/in")
        .join(format!("{stem}.cl"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    insta::assert_snapshot!(stem, render(&format!("{stem}.cl"), &text));
}

#[test]
fn kernels() {
    check("parse_kernels");
}

#[test]
fn declarations() {
    check("parse_declarations");
}

#[test]
fn statements() {
    check("parse_statements");
}

#[test]
fn attributes() {
    check("parse_attributes");
}

#[test]
fn errors() {
    check("parse_errors");
}
