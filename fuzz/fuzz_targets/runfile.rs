//! Fuzz target: the run-file parser and everything that reads a parsed run file (the program
//! source, preparing arguments against a real kernel's signature, expectations, dumps) must
//! never panic or allocate without bound, whatever the text.
//!
//! Run with `cargo +nightly fuzz run runfile` from the repository root.

#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use oclc::Program;
use oclc::run_cmd::run_signature;
use oclc::runfile::{RunFile, format_dump, npy_bytes};

/// A kernel with every kind of parameter a run file can describe.
const KERNEL: &str = "kernel void k(global float4 *a, constant uchar *b, local half *c, float3 d,
                                   global ulong3 *e, global int *f, int n, global double *g) {
    size_t i = get_global_id(0);
    if (i < n) f[i] = b[i] + (int)d.x;
}";

fn program() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(|| {
        Program::build(KERNEL, "-cl-std=CL2.0 -cl-ext=+cl_khr_fp64,+cl_khr_fp16")
            .unwrap_or_else(|e| panic!("the fuzz kernel must build: {e}"))
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(job) = RunFile::parse(text, Path::new("/nonexistent/job.toml")) else { return };
    let _ = job.source_text();
    let _ = job.kernel_not_found(&["k"]);
    let Some(sig) = program().signature("k") else { return };
    let Ok(launch) = job.prepare(&run_signature(sig)) else { return };
    for e in &launch.expectations {
        let _ = e.check(&[0; 8]).to_string();
        // Materializing is bounded by the run file's buffer limit; skip what the fuzzer's
        // memory limit would not hold.
        if e.len > 1 << 20 {
            continue;
        }
        let Ok(want) = e.want.materialize(e.elem, e.len) else { continue };
        let _ = e.check(&want).to_string();
        let _ = format_dump(&e.name, e.elem, e.len, &want);
        let _ = npy_bytes(e.elem, e.len, &want);
    }
});
