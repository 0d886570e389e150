//! Snapshot tests of rendered diagnostics (clang's text format and JSON) for the inputs in
//! tests/in/*.cl. The first line of an input may be `// FLAGS: ...` with `oclc check` flags.

use std::path::Path;

use oclc::args::parse_check_args;
use oclc::check_source;

fn inputs() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("tests/in exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .map(|p| {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("?")
                .to_string();
            (name, std::fs::read(&p).expect("readable input"))
        })
        .collect();
    v.sort();
    v
}

fn flags(src: &[u8]) -> Vec<String> {
    let first = src.split(|&b| b == b'\n').next().unwrap_or(b"");
    let first = String::from_utf8_lossy(first);
    first
        .strip_prefix("// FLAGS:")
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

#[test]
fn rendered_diagnostics() {
    let inputs = inputs();
    assert!(inputs.len() >= 5, "expected snapshot inputs in tests/in");
    for (name, src) in inputs {
        let parsed = parse_check_args(flags(&src)).expect("FLAGS line parses");
        let outcome = check_source(&name, &src, &parsed.options);
        let stem = name.trim_end_matches(".cl");
        insta::assert_snapshot!(format!("{stem}.text"), outcome.render_text());
        let json = oclc::json::report(vec![oclc::json::diagnostics(
            &outcome.sm,
            &outcome.diagnostics,
        )]);
        let json = serde_json::to_string_pretty(&json).expect("serializable");
        insta::assert_snapshot!(format!("{stem}.json"), json);
    }
}
