//! Every CTS generic-address-space kernel (../shared/conformance/cts-generic) checks with no
//! diagnostics at all under `-cl-std=CL3.0 -cl-ext=+all` and under `-cl-std=CL2.0`.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::{Path, PathBuf};

use oclc::args::parse_check_args;
use oclc::check_source;
use rayon::prelude::*;

fn corpus_dir() -> Option<PathBuf> {
    conformance::dir("cts-generic", "cts_check")
}

fn kernels(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            kernels(&p, out);
        } else if p.extension().is_some_and(|x| x == "cl")
            && !p.to_string_lossy().ends_with(".lib.cl")
        {
            out.push(p);
        }
    }
}

/// The source checked for `path`: the kernel, or for a kernel linked with a library
/// (`X.cl` + `X.lib.cl`) the concatenation library + kernel, as the manifest describes.
fn source_for(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    let lib = path.with_extension("lib.cl");
    if lib.is_file() {
        bytes.extend(std::fs::read(&lib).expect("library source is readable"));
        bytes.push(b'\n');
    }
    bytes.extend(std::fs::read(path).expect("kernel source is readable"));
    bytes
}

fn check_all(flags: &[&str]) -> (usize, Vec<String>) {
    let Some(dir) = corpus_dir() else {
        return (0, Vec::new());
    };
    let mut files = Vec::new();
    kernels(&dir, &mut files);
    files.sort();
    let parsed = parse_check_args(flags.iter().copied()).expect("flags parse");
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|p| {
            let name = p
                .strip_prefix(&dir)
                .unwrap_or(p)
                .to_string_lossy()
                .into_owned();
            let outcome = check_source(&name, &source_for(p), &parsed.options);
            if outcome.diagnostics.is_empty() {
                None
            } else {
                let text = outcome.render_text();
                Some(format!(
                    "{name}:\n{}",
                    text.lines().take(8).collect::<Vec<_>>().join("\n")
                ))
            }
        })
        .collect();
    (files.len(), failures)
}

fn report(flags: &[&str]) {
    let (total, failures) = check_all(flags);
    if total == 0 {
        return;
    }
    assert!(
        total >= 400,
        "expected the corpus's 491 kernels, found {total}"
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "cts-generic {}: {} passed, {} failed",
        flags.join(" "),
        total - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} CTS kernels have diagnostics under {flags:?}",
        failures.len()
    );
}

#[test]
fn cts_kernels_clean_cl30_all_features() {
    report(&["-cl-std=CL3.0", "-cl-ext=+all"]);
}

#[test]
fn cts_kernels_clean_cl20() {
    report(&["-cl-std=CL2.0"]);
}
