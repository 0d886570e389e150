//! Parse errors compared with clang: every `tests/in/parse_clang19/NAME.cl` is preprocessed
//! and parsed as OpenCL C 2.0, and the parser's diagnostics must equal `NAME.expected`.
//!
//! The expectations are clang-19's own output for the file (`clang-19 -x cl -cl-std=CL2.0
//! -fsyntax-only`, or the mode a first line `// -cl-std=CLx.y` names) restricted to what the parser owns: sema's diagnostics are left out;
//! `-pedantic`-only extensions (which clang printed only with `-pedantic`) are listed with
//! their group in brackets; notes about names from clang's OpenCL headers have no location.
//! Set `PARSE_CLANG19_BLESS=1` to rewrite the expectations from the parser's output.

use std::path::Path;

use oclc_syntax::lang::{ClStd, LangOptions};
use oclc_syntax::parse::parse;
use oclc_syntax::pp::{PpOptions, preprocess};
use oclc_syntax::{Diagnostics, SourceMap};

fn render(name: &str, bytes: &[u8]) -> String {
    // A first line `// -cl-std=CLx.y` selects another language mode.
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let std = std::str::from_utf8(first)
        .ok()
        .and_then(|l| l.strip_prefix("// -cl-std="))
        .and_then(|v| ClStd::parse(v.trim()))
        .unwrap_or(ClStd::Cl20);
    let lang = LangOptions::new(std);
    let mut sm = SourceMap::new();
    let f = sm.add_file(name, bytes);
    let mut pp_diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        ..PpOptions::default()
    };
    let out = preprocess(&mut sm, f, &opts, &mut pp_diags);
    let mut d = Diagnostics::default();
    let _ = parse(&out, &sm, &lang, &mut d);
    let loc = |s| match sm.location(s) {
        Some((_, l, c)) => format!("{l}:{c}: "),
        None => String::new(),
    };
    let mut s = String::new();
    for x in &d.list {
        s.push_str(&format!(
            "{}{}: {}",
            loc(x.span),
            x.level.as_str(),
            x.message
        ));
        if let Some(g) = x.group.filter(|_| x.level == oclc_syntax::Level::Warning) {
            s.push_str(&format!(" [{g}]"));
        }
        s.push('\n');
        for n in &x.notes {
            s.push_str(&format!("  {}note: {}\n", loc(n.span), n.message));
        }
    }
    s
}

#[test]
fn parse_errors_match_clang_19() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in/parse_clang19");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect()
        })
        .unwrap_or_default();
    inputs.sort();
    assert!(
        inputs.len() >= 40,
        "only {} inputs in {}",
        inputs.len(),
        dir.display()
    );
    let bless = std::env::var_os("PARSE_CLANG19_BLESS").is_some();
    let mut failures = Vec::new();
    for input in &inputs {
        let bytes = std::fs::read(input).unwrap_or_default();
        let name = input
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let got = render(&name, &bytes);
        let expected_path = input.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got)
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("{name}:\n--- expected\n{want}--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
