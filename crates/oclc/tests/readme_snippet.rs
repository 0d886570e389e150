//! The README's library snippet is the doctest of `program.rs` (which `cargo test` compiles
//! and runs): every code line of the README's `rust` block must appear there, in order, so
//! the README cannot drift from code that compiles.

fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match l.find("// ") {
            Some(i) if !l[..i].contains('"') => l[..i].trim_end(),
            _ => l.trim_end(),
        })
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn readme_library_snippet_is_the_doctest() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).expect("README.md");
    let block = readme
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a rust block in README.md");
    let program = std::fs::read_to_string(root.join("src/program.rs")).expect("program.rs");
    let doc: String = program
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .filter(|l| !l.starts_with("# "))
        .collect::<Vec<_>>()
        .join("\n");
    let want = code_lines(block);
    let have = code_lines(&doc);
    let mut at = 0;
    for line in &want {
        match have[at..].iter().position(|h| h == line) {
            Some(i) => at += i + 1,
            None => panic!("README line not in program.rs's doctest (in order): {line}"),
        }
    }
    assert!(want.len() >= 10, "README snippet too short: {want:?}");
}
