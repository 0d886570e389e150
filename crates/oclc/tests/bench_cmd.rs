//! `oclc bench` on the cpu device: table rows, verdicts, exit codes, the bandwidth rule, and
//! the bench set's kernels building and checking out at a small size.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oclc::bench_cmd::{BenchArgs, BenchRow, bench_command, format_table};
use oclc::runfile::TimingSummary;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn args(jobs: Vec<PathBuf>, device: &str, repeat: usize) -> BenchArgs {
    BenchArgs {
        jobs,
        device: device.into(),
        repeat,
        cache: "warm".into(),
        checks: false,
    }
}

/// A temporary folder holding `files` (name, contents).
fn temp_jobs(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oclc_bench_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

const COPY: &str = r#"
code = "kernel void copy(global const uint *s, global uint *d) { d[get_global_id(0)] = s[get_global_id(0)]; }"
kernel = "copy"
global = [256]
local = [64]
[args]
s = { buffer = "uint", len = 256, init = "range" }
d = { buffer = "uint", len = 256 }
[expect]
d = { equals = "range" }
"#;

/// Each launch adds one: correct only when the buffers are reset before every launch.
const ACCUMULATE: &str = r#"
code = "kernel void bump(global uint *h) { atomic_inc(&h[get_global_id(0) % 4]); }"
kernel = "bump"
global = [64]
[args]
h = { buffer = "uint", len = 4 }
[expect]
h = { equals = { fill = 16 } }
"#;

const WRONG: &str = r#"
code = "kernel void zero(global uint *d) { d[get_global_id(0)] = 0; }"
kernel = "zero"
global = [16]
[args]
d = { buffer = "uint", len = 16 }
[expect]
d = { equals = { fill = 1 } }
"#;

fn rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn table_has_one_row_per_job_with_verdicts() {
    let dir = temp_jobs(
        "rows",
        &[("copy.toml", COPY), ("accumulate.toml", ACCUMULATE)],
    );
    let out = bench_command(&args(
        vec![dir.join("copy.toml"), dir.join("accumulate.toml")],
        "cpu",
        3,
    ));
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.starts_with("job "), "{}", out.stdout);
    let r = rows(&out.stdout);
    assert_eq!(r.len(), 2, "{}", out.stdout);
    assert_eq!(r[0][0], "copy");
    assert_eq!(r[0][4], "ok");
    assert_eq!(r[1][0], "accumulate");
    assert_eq!(r[1][4], "ok", "buffers are reset before each launch");
    let min: f64 = r[0][1].parse().unwrap();
    let median: f64 = r[0][2].parse().unwrap();
    assert!(min > 0.0 && min <= median, "{}", out.stdout);
}

/// In both cache modes the accumulating job is checked on buffers that started from their
/// initial contents (warm: after a reset following the timed launches; cold: before each).
#[test]
fn accumulating_job_checks_out_warm_and_cold() {
    let dir = temp_jobs("modes", &[("accumulate.toml", ACCUMULATE)]);
    for mode in ["warm", "cold"] {
        let mut a = args(vec![dir.join("accumulate.toml")], "cpu", 4);
        a.cache = mode.into();
        let out = bench_command(&a);
        assert_eq!(out.code, 0, "{mode}: {}{}", out.stdout, out.stderr);
        let r = rows(&out.stdout);
        assert_eq!(r[0][4], "ok", "{mode}: {}", out.stdout);
    }
}

#[test]
fn failing_expectation_is_fail_and_exit_1() {
    let dir = temp_jobs("fail", &[("wrong.toml", WRONG), ("copy.toml", COPY)]);
    let out = bench_command(&args(
        vec![dir.join("wrong.toml"), dir.join("copy.toml")],
        "cpu",
        1,
    ));
    assert_eq!(out.code, 1);
    let r = rows(&out.stdout);
    assert_eq!(r[0][0], "wrong");
    assert_eq!(r[0][4], "FAIL");
    assert_eq!(r[1][4], "ok");
}

#[test]
fn broken_job_is_reported_and_the_rest_still_run() {
    let dir = temp_jobs(
        "broken",
        &[
            (
                "bad.toml",
                "code = \"kernel void k(global int *p) { p[0] = ; }\"\nkernel = \"k\"\nglobal = [1]\n[args]\np = { buffer = \"int\", len = 1 }\n",
            ),
            ("copy.toml", COPY),
        ],
    );
    let out = bench_command(&args(
        vec![dir.join("bad.toml"), dir.join("copy.toml")],
        "cpu",
        1,
    ));
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("bad.toml"), "{}", out.stderr);
    assert!(out.stderr.contains("expected expression"), "{}", out.stderr);
    let r = rows(&out.stdout);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0][0], "copy");
}

#[test]
fn repeat_zero_and_unknown_device_are_errors() {
    let dir = temp_jobs("args", &[("copy.toml", COPY)]);
    let out = bench_command(&args(vec![dir.join("copy.toml")], "cpu", 0));
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--repeat must be at least 1"));
    let out = bench_command(&args(vec![dir.join("copy.toml")], "tpu", 1));
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("unknown device 'tpu'"),
        "{}",
        out.stderr
    );
}

#[cfg(not(feature = "cuda"))]
#[test]
fn cuda_without_the_feature_is_a_clear_error() {
    let dir = temp_jobs("nocuda", &[("copy.toml", COPY)]);
    let out = bench_command(&args(vec![dir.join("copy.toml")], "cuda", 1));
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--features cuda"), "{}", out.stderr);
}

#[test]
fn bandwidth_is_buffer_bytes_over_median() {
    let row = BenchRow {
        job: "copy".into(),
        timing: TimingSummary {
            min: Duration::from_micros(90),
            median: Duration::from_micros(100),
            launches: 5,
        },
        bytes: 2 * (64 << 20),
        passed: Some(true),
    };
    // 134217728 bytes in 100 us = 1342.17728 GB/s.
    assert!((row.bandwidth_gbs() - 1342.17728).abs() < 1e-6);
    let table = format_table(&[row], None);
    let line = table.lines().nth(1).unwrap();
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f, ["copy", "90.0", "100.0", "1342.177", "ok"]);
}

/// The bench set's kernels at a small size: each job's kernel with its run file's arguments,
/// shrunk, must meet the expectation of the same formula (the full 64 MiB jobs are GPU-sized).
#[test]
fn bench_set_jobs_pass_shrunk() {
    let bench = root().join("bench");
    let mut shrunk = Vec::new();
    let dir = temp_jobs("set", &[]);
    for (job, from, to) in [
        // 64 MiB -> 64 KiB of bytes: 4096 work-items of 16 bytes.
        (
            "memcpy_global_generic",
            &["67108864", "4194304"][..],
            &["65536", "4096"][..],
        ),
        (
            "memcpy_global_named",
            &["67108864", "4194304"],
            &["65536", "4096"],
        ),
        (
            "memcpy_local_generic",
            &["67108864", "4194304"],
            &["65536", "4096"],
        ),
        (
            "memcpy_local_named",
            &["67108864", "4194304"],
            &["65536", "4096"],
        ),
        ("copy_generic", &["16777216"], &["16384"]),
        ("copy_named", &["16777216"], &["16384"]),
        // 1024 -> 64: C = 64 * 1.5 = 96.
        (
            "matmul_generic",
            &["1048576", "1024, 1024", "value = 1024", "fill = 1536"],
            &["4096", "64, 64", "value = 64", "fill = 96"],
        ),
        (
            "matmul_named",
            &["1048576", "1024, 1024", "value = 1024", "fill = 1536"],
            &["4096", "64, 64", "value = 64", "fill = 96"],
        ),
        // 16 groups instead of 4096: same per-group sums.
        (
            "reduce_generic",
            &["len = 16777216", "[1048576]", "len = 4096"],
            &["len = 65536", "[4096]", "len = 16"],
        ),
        (
            "reduce_named",
            &["len = 16777216", "[1048576]", "len = 4096"],
            &["len = 65536", "[4096]", "len = 16"],
        ),
        // 64 KiB of bytes in 4 groups: 256 per bin.
        (
            "histogram_generic",
            &[
                "len = 67108864",
                "value = 67108864",
                "[65536]",
                "fill = 262144",
            ],
            &["len = 65536", "value = 65536", "[1024]", "fill = 256"],
        ),
        (
            "histogram_named",
            &[
                "len = 67108864",
                "value = 67108864",
                "[65536]",
                "fill = 262144",
            ],
            &["len = 65536", "value = 65536", "[1024]", "fill = 256"],
        ),
    ] {
        let mut text = std::fs::read_to_string(bench.join(format!("{job}.toml"))).unwrap();
        for (a, b) in from.iter().zip(to) {
            assert!(text.contains(a), "{job}: no '{a}'");
            text = text.replace(a, b);
        }
        let src = text
            .lines()
            .find_map(|l| l.strip_prefix("source = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap()
            .to_string();
        std::fs::copy(bench.join(&src), dir.join(&src)).unwrap();
        let path = dir.join(format!("{job}.toml"));
        std::fs::write(&path, text).unwrap();
        shrunk.push(path);
    }
    let out = bench_command(&args(shrunk, "cpu", 1));
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let r = rows(&out.stdout);
    assert_eq!(r.len(), 12);
    for row in &r {
        assert_eq!(row[4], "ok", "{}", out.stdout);
    }
}
