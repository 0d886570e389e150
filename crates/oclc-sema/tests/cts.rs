//! Every CTS generic-address-space kernel checks with zero diagnostics under
//! `-cl-std=CL3.0 -cl-ext=+all` and under `-cl-std=CL2.0` (clang accepts all of them).

mod common;
#[path = "../../../test-support/conformance.rs"]
mod conformance;

use std::path::PathBuf;

use oclc_syntax::ClStd;

fn cts_files() -> Option<Vec<PathBuf>> {
    let dir = conformance::dir("cts-generic", "the CTS check tests")?;
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cl") {
                out.push(p);
            }
        }
    }
    out.sort();
    Some(out)
}

fn run(std: ClStd, ext: &str) {
    let Some(files) = cts_files() else {
        return;
    };
    assert!(
        files.len() >= 400,
        "expected the CTS corpus, found {} files",
        files.len()
    );
    let lang = common::lang(std, ext);
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap_or_default();
        let (d, prog) = common::check(&src, &lang);
        if !d.is_empty() {
            failures.push(format!("{}: {:?}", f.display(), d));
        }
        assert!(
            prog.kernels().count() >= 1 || f.to_string_lossy().contains(".lib."),
            "{}: no kernel",
            f.display()
        );
    }
    assert!(
        failures.is_empty(),
        "{} files with diagnostics:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn cts_kernels_check_cleanly_cl30_all() {
    run(ClStd::Cl30, "+all");
}

#[test]
fn cts_kernels_check_cleanly_cl20() {
    run(ClStd::Cl20, "");
}
