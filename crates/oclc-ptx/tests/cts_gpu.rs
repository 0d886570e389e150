//! Runs the CTS generic-address-space kernels whose only argument is the `results` buffer on
//! the GPU (16384 work-items, groups of 256) and checks the CTS verdict: every element is 1.
//! Skips, saying why, without a GPU or without the corpus.
#![cfg(feature = "cuda")]

mod common;
use oclc_ir::{AddrSpace, ParamKind};
use oclc_ptx::cuda::{Arg, CudaDevice, NdRange};
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
fn cts_kernels_pass_on_the_gpu() {
    let root = std::env::var("OCLC_CTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/cts-generic")
        });
    let mut files = Vec::new();
    cl_files(&root, &mut files);
    if files.is_empty() {
        eprintln!("skipping: no CTS corpus at {}", root.display());
        return;
    }
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    const N: usize = 16384;
    let (mut pass, mut skipped) = (0, Vec::new());
    let mut failures = Vec::new();
    for f in &files {
        let name = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok((m, sm)) = std::panic::catch_unwind(|| common::module(&src)) else {
            skipped.push(format!("{name}: front end"));
            continue;
        };
        let Some(k) = m.functions.iter().find(|f| f.name == "testKernel") else {
            skipped.push(format!("{name}: no testKernel"));
            continue;
        };
        if k.params.len() != 1 || k.params[0].kind != ParamKind::Buffer(AddrSpace::Global) {
            skipped.push(format!("{name}: takes more than the results buffer"));
            continue;
        }
        let p = match d.load(&m, Some(&sm), false) {
            Ok(p) => p,
            Err(e @ oclc_ptx::cuda::CudaError::Ptx(oclc_ptx::PtxError::Unsupported { .. })) => {
                // Reported clearly at load time: a builtin the backend does not have yet.
                skipped.push(format!("{name}: {e}"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let results = d.zeroed(N * 4).expect("buffer");
        let r = d.launch(
            &p,
            "testKernel",
            &[Arg::Buffer(results.clone())],
            &NdRange::new(&[N as u64]).local(&[256]),
        );
        if let Err(e) = r {
            failures.push(format!("{name}: {e}"));
            break;
        }
        let out = results.read().expect("read");
        let ones = out.chunks_exact(4).filter(|c| *c == [1, 0, 0, 0]).count();
        if ones == N {
            pass += 1;
        } else {
            failures.push(format!("{name}: {ones} of {N} results are 1"));
        }
    }
    eprintln!(
        "CTS on GPU: {pass} passed, {} failed, {} skipped",
        failures.len(),
        skipped.len()
    );
    for s in &skipped {
        eprintln!("  skipped {s}");
    }
    assert!(pass >= 480, "only {pass} CTS kernels passed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
