//! `oclc run --device cuda` on ranges whose local size does not divide the global size, and
//! with every coarsening factor (`OCLC_CUDA_COARSEN`): the same report and dump as the cpu
//! device. Skips, saying why, without the feature `cuda` or a GPU.
#![cfg(feature = "cuda")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    // OCLC_ROOT: the repository on a GPU machine that runs a prebuilt copy of this test.
    match std::env::var_os("OCLC_ROOT") {
        Some(r) => PathBuf::from(r),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

fn oclc(args: &[&str], coarsen: Option<&str>) -> (i32, String, String) {
    let mut c = Command::new(
        std::env::var_os("OCLC_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_oclc").into()),
    );
    c.current_dir(root()).args(args);
    if let Some(k) = coarsen {
        c.env("OCLC_CUDA_COARSEN", k);
    }
    let out = c.output().expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn gpu() -> bool {
    match oclc::Device::cuda(0) {
        Ok(_) => true,
        Err(e) => {
            println!("skipped: no usable GPU ({e})");
            false
        }
    }
}

/// The report without its timing lines.
fn report(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("kernel time"))
        .collect::<Vec<_>>()
        .join("\n")
}

const QUERIES: &str = r#"
code = """
kernel void q(global uint *o) {
    size_t i = get_global_linear_id();
    o[4 * i + 0] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
    o[4 * i + 1] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2);
    o[4 * i + 2] = get_num_groups(0) + 100 * get_num_groups(1) + 10000 * get_num_groups(2);
    o[4 * i + 3] = get_enqueued_local_size(0) * get_enqueued_local_size(1) + get_global_id(0);
}
"""
options = "-cl-std=CL2.0"
kernel = "q"
"#;

#[test]
fn non_uniform_ranges_report_the_same_as_on_the_cpu() {
    if !gpu() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("oclc-cuda-launch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, (global, local, offset)) in [
        ("[10]", "[4]", "[0]"),
        ("[1000]", "[64]", "[5]"),
        ("[10, 7]", "[4, 3]", "[1, 1]"),
        ("[9, 6, 5]", "[2, 4, 3]", "[0, 0, 2]"),
    ]
    .into_iter()
    .enumerate()
    {
        let n: u64 = global
            .trim_matches(['[', ']'])
            .split(',')
            .map(|x| x.trim().parse::<u64>().expect("size"))
            .product();
        let job = format!(
            "{QUERIES}global = {global}\nlocal = {local}\noffset = {offset}\n[args]\no = {{ buffer = \"uint\", len = {} }}\n",
            4 * n
        );
        let path = dir.join(format!("q{i}.toml"));
        std::fs::write(&path, job).expect("write");
        let p = path.to_string_lossy().into_owned();
        let (code, cpu, err) = oclc(&["run", &p, "--dump", "o"], None);
        assert_eq!(code, 0, "{global}/{local} on the cpu: {cpu}{err}");
        for k in ["1", "4"] {
            let (code, gpu, err) = oclc(&["run", &p, "--device", "cuda", "--dump", "o"], Some(k));
            assert_eq!(code, 0, "{global}/{local} on the gpu: {gpu}{err}");
            assert_eq!(
                report(&gpu),
                report(&cpu),
                "{global}/{local}, coarsening {k}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_copies_pass_with_every_coarsening_factor() {
    if !gpu() {
        return;
    }
    for k in ["1", "2", "4", "8"] {
        for job in ["bench/copy_named.toml", "bench/copy_generic.toml"] {
            let (code, out, err) = oclc(&["run", job, "--device", "cuda"], Some(k));
            assert_eq!(code, 0, "{job} with OCLC_CUDA_COARSEN={k}: {out}{err}");
            assert!(out.contains(": ok ("), "{job}: {out}");
        }
    }
}

#[test]
fn a_bad_coarsening_setting_is_a_clear_error() {
    if !gpu() {
        return;
    }
    let (code, out, err) = oclc(
        &["run", "examples/reduce.toml", "--device", "cuda"],
        Some("many"),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("OCLC_CUDA_COARSEN must be a number from 1 (no coarsening) to 64, not `many`"),
        "{err}"
    );
}
