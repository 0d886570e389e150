//! Every kernel of the CTS generic-address-space corpus (../shared/conformance/cts-generic)
//! must turn into PTX. Skips, saying why, where the corpus is not checked out beside the repo.

mod common;
#[path = "../../../test-support/conformance.rs"]
mod conformance;
use oclc_ptx::{PtxOptions, emit_module};
use std::path::{Path, PathBuf};

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "cl") {
            out.push(p);
        }
    }
}

#[test]
fn every_cts_kernel_emits_ptx() {
    let Some(root) = conformance::dir("cts-generic", "every_cts_kernel_emits_ptx") else {
        return;
    };
    let mut files = Vec::new();
    cl_files(&root, &mut files);
    assert!(!files.is_empty(), "no kernels in {}", root.display());
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/ptx-cts");
    let _ = std::fs::create_dir_all(&out_dir);
    // Builtins once reported as not supported (precise transcendental kernels); none is now.
    const PENDING: [&str; 3] = ["`lgamma_r`", "`sincos`", "`remquo`"];
    let (mut emitted, mut pending) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let name = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('/', "__");
        let Ok((m, sm)) = std::panic::catch_unwind(|| common::module(&src)) else {
            // Front-end or lowering failures belong to other crates' tests.
            continue;
        };
        match emit_module(&m, Some(&sm), &PtxOptions::default()) {
            Ok(p) => {
                emitted += 1;
                let _ = std::fs::write(out_dir.join(format!("{name}.ptx")), p.text);
            }
            Err(e @ oclc_ptx::PtxError::Unsupported { .. })
                if PENDING.iter().any(|b| e.to_string().contains(b)) =>
            {
                pending += 1
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("{emitted} emitted, {pending} pending of {}", files.len());
    assert_eq!(pending, 0, "{pending} kernels use pending builtins");
    assert!(
        emitted >= 491,
        "only {emitted} of {} kernels emitted",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} kernels failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
