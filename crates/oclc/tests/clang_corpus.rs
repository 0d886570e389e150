//! clang's SemaOpenCL `-verify` tests (../shared/conformance/clang-sema), every OpenCL C RUN
//! line run in-process through `check_source` + `-verify`, as clang-parity selects them.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::{Path, PathBuf};

use oclc::args::parse_check_args;
use oclc::check_source;
use oclc::runlines::verify_configs;

fn corpus_dir() -> Option<PathBuf> {
    conformance::dir("clang-sema", "clang_sema_verify")
}

/// Result of one configuration: label, and clang's verification errors (empty = pass).
fn run_corpus(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "cl"));
    files.sort();
    let mut results = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).expect("corpus file is readable");
        let text = String::from_utf8_lossy(&bytes);
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        for cfg in verify_configs(&text) {
            let label = format!("{name} [{}]", cfg.args.join(" "));
            let parsed = match parse_check_args(cfg.args.iter().cloned()) {
                Ok(p) => p,
                Err(e) => {
                    results.push((label, vec![format!("command line: {e}")]));
                    continue;
                }
            };
            let prefixes = parsed
                .options
                .verify
                .clone()
                .unwrap_or_else(|| vec!["expected".into()]);
            let outcome = check_source(&name, &bytes, &parsed.options);
            results.push((label, outcome.verify(&prefixes).messages));
        }
    }
    results
}

#[test]
fn clang_sema_verify() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let results = run_corpus(&dir);
    let mut failed = 0;
    for (label, errors) in &results {
        if errors.is_empty() {
            println!("PASS {label}");
        } else {
            failed += 1;
            println!("FAIL {label}");
            for e in errors {
                for line in e.lines().take(6) {
                    println!("    {line}");
                }
            }
        }
    }
    let passed = results.len() - failed;
    println!(
        "clang-sema -verify: {passed} passed, {failed} failed ({} configurations)",
        results.len()
    );
    assert!(
        results.len() >= 40,
        "expected the corpus's ~50 OpenCL C configurations"
    );
    assert_eq!(
        failed, 0,
        "{failed} clang-sema configurations failed -verify"
    );
}
