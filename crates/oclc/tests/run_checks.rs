//! `oclc run` on small kernels that trip each runtime check of the cpu device: exit status 3,
//! a clang-style error naming the right line with a caret, and the work-item's ids; and the
//! corrected kernel of each passes its expectation with every check on (`--races` included).

use std::path::PathBuf;
use std::process::Command;

/// Writes `job` (a run file with inline code) to a fresh directory and runs `oclc run` on it.
fn run(name: &str, job: &str, flags: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("oclc-run-checks-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(format!("{name}.toml"));
    std::fs::write(&path, job).expect("write run file");
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .arg("run")
        .arg(&path)
        .args(flags)
        .output()
        .expect("run oclc");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts a runtime-check report: exit 3, `(code):LINE:` with the message fragment, the
/// faulting source line and a caret under it, and the ids.
fn assert_check(name: &str, job: &str, flags: &[&str], line: u32, fragment: &str, src_line: &str) {
    let (code, _, err) = run(name, job, flags);
    assert_eq!(code, 3, "{name}: exit status; stderr:\n{err}");
    let head = format!("{name}.toml (code):{line}:");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.contains(&head),
        "{name}: first line {first:?} should name line {line}\n{err}"
    );
    assert!(
        first.contains(": error: "),
        "{name}: not an error line: {first:?}"
    );
    assert!(
        first.contains(fragment),
        "{name}: {first:?} should say {fragment:?}"
    );
    let mut lines = err.lines();
    let snippet = lines.nth(1).unwrap_or("");
    assert!(
        snippet.contains(&format!("{line} |")) && snippet.contains(src_line),
        "{name}: snippet {snippet:?}"
    );
    assert!(
        lines.next().is_some_and(|l| l.contains('^')),
        "{name}: no caret\n{err}"
    );
    assert!(
        err.contains("global id (") && err.contains("local id (") && err.contains("group id ("),
        "{name}: no work-item ids\n{err}"
    );
}

fn assert_ok(name: &str, job: &str, flags: &[&str]) {
    let (code, out, err) = run(name, job, flags);
    assert_eq!(code, 0, "{name}: stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains(": ok ("), "{name}: {out}");
}

const OOB: &str = r#"
code = """
kernel void k(global int *out, int shift) {
    size_t i = get_global_id(0);
    out[i + shift] = 1;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 16 }
shift = { value = SHIFT }
[expect]
out = { equals = { fill = 1 } }
"#;

#[test]
fn out_of_bounds_names_the_buffer_size_and_offset() {
    let bad = OOB.replace("SHIFT", "1");
    assert_check(
        "oob",
        &bad,
        &[],
        3,
        "out-of-bounds write",
        "out[i + shift] = 1;",
    );
    let (_, _, err) = run("oob2", &bad, &[]);
    assert!(
        err.contains("`out`") && err.contains("64 bytes") && err.contains("offset 64"),
        "{err}"
    );
    assert!(err.contains("global id (15, 0, 0)"), "{err}");
    assert_ok("oob_ok", &OOB.replace("SHIFT", "0"), &["--races"]);
}

const NULL: &str = r#"
code = """
kernel void k(global int *out, int use_null) {
    global int *p = use_null ? 0 : out;
    if (get_global_id(0) == 3)
        out[1] = *p + 1;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 2 }
use_null = { value = USE }
[expect]
out = { equals = [0, 1] }
"#;

#[test]
fn null_dereference() {
    assert_check(
        "null",
        &NULL.replace("USE", "1"),
        &[],
        4,
        "NULL",
        "out[1] = *p + 1;",
    );
    let (_, _, err) = run("null2", &NULL.replace("USE", "1"), &[]);
    assert!(err.contains("global id (3, 0, 0)"), "{err}");
    assert_ok("null_ok", &NULL.replace("USE", "0"), &["--races"]);
}

const SPACE: &str = r#"
options = "-cl-std=CL2.0"
code = """
kernel void k(global int *out, int from_local) {
    local int tmp[16];
    generic int *g = from_local ? (generic int *)tmp : (generic int *)out;
    global int *p = (global int *)g;
    p[get_local_id(0)] = 1;
}
"""
kernel = "k"
global = [16]
local = [16]
[args]
out = { buffer = "int", len = 16 }
from_local = { value = LOCAL }
[expect]
out = { equals = { fill = 1 } }
"#;

#[test]
fn wrong_space_through_an_explicit_generic_cast() {
    assert_check(
        "space",
        &SPACE.replace("LOCAL", "1"),
        &[],
        5,
        "__global",
        "p[get_local_id(0)] = 1;",
    );
    assert_ok("space_ok", &SPACE.replace("LOCAL", "0"), &["--races"]);
}

const CONSTANT: &str = r#"
code = """
kernel void k(constant int *c, global int *out, int cheat) {
    global int *p = cheat ? (global int *)(size_t)c : out;
    p[get_global_id(0)] = c[get_global_id(0)] + 1;
}
"""
kernel = "k"
global = [4]
[args]
c = { buffer = "int", len = 4, init = "range" }
out = { buffer = "int", len = 4 }
cheat = { value = CHEAT }
[expect]
out = { equals = { range = [1, 1] } }
"#;

#[test]
fn write_to_constant() {
    assert_check(
        "constant",
        &CONSTANT.replace("CHEAT", "1"),
        &[],
        3,
        "__constant",
        "p[get_global_id(0)] = c[get_global_id(0)] + 1;",
    );
    assert_ok("constant_ok", &CONSTANT.replace("CHEAT", "0"), &["--races"]);
}

const BARRIER: &str = r#"
code = """
kernel void k(global int *out, int limit) {
    if (get_local_id(0) < limit)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}
"""
kernel = "k"
global = [8]
local = [4]
[args]
out = { buffer = "int", len = 8 }
limit = { value = LIMIT }
[expect]
out = { equals = { fill = 1 } }
"#;

#[test]
fn barrier_divergence() {
    assert_check(
        "barrier",
        &BARRIER.replace("LIMIT", "2"),
        &[],
        3,
        "barrier",
        "barrier(CLK_LOCAL_MEM_FENCE);",
    );
    assert_ok("barrier_ok", &BARRIER.replace("LIMIT", "4"), &["--races"]);
}

const LOOP: &str = r#"
code = """
kernel void k(global int *out, int n) {
    int i = 0;
    while (i < n) { i += STEP; }
    out[0] = i;
}
"""
kernel = "k"
global = [1]
[args]
out = { buffer = "int", len = 1 }
n = { value = 1000 }
[expect]
out = { equals = [1000] }
"#;

#[test]
fn runaway_loop_with_max_steps() {
    assert_check(
        "loop",
        &LOOP.replace("STEP", "0"),
        &["--max-steps", "100000"],
        3,
        "step limit",
        "while (i < n) { i += STEP; }".replace("STEP", "0").as_str(),
    );
    assert_ok(
        "loop_ok",
        &LOOP.replace("STEP", "1"),
        &["--max-steps", "100000"],
    );
    // The same loop over the limit is a runaway, within it is not.
    let (code, _, err) = run(
        "loop_small",
        &LOOP.replace("STEP", "1"),
        &["--max-steps", "100"],
    );
    assert_eq!(code, 3, "{err}");
}

const RACE: &str = r#"
code = """
kernel void k(global int *out) {
    local int x[4];
    x[WHERE] = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = x[get_local_id(0)];
}
"""
kernel = "k"
global = [8]
local = [4]
[args]
out = { buffer = "int", len = 8 }
[expect]
out = { equals = [0, 1, 2, 3, 0, 1, 2, 3] }
"#;

#[test]
fn data_race_with_races() {
    let bad = RACE.replace("WHERE", "0");
    assert_check(
        "race",
        &bad,
        &["--races"],
        3,
        "data race",
        "x[0] = get_local_id(0);",
    );
    // Without --races the race goes unreported (and the result is wrong).
    let (code, _, err) = run("race_off", &bad, &[]);
    assert_eq!(code, 1, "{err}");
    assert_ok(
        "race_ok",
        &RACE.replace("WHERE", "get_local_id(0)"),
        &["--races"],
    );
}

#[test]
fn global_race_between_groups_is_reported() {
    let job = r#"
code = """
kernel void k(global int *out) {
    out[0] = get_global_id(0);
}
"""
kernel = "k"
global = [8]
local = [4]
[args]
out = { buffer = "int", len = 1 }
"#;
    let (code, _, err) = run("grace", job, &["--races"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("(code):2:") && err.contains("race"), "{err}");
}

/// An index far beyond the buffer (2^44 elements) is out of bounds too: pointer arithmetic
/// saturates instead of wrapping back into the allocation.
#[test]
fn huge_index_is_out_of_bounds_not_wrapped() {
    let job = r#"
code = """
kernel void k(global int *o) {
  o[0x100000000000] = 7;
}
"""
kernel = "k"
global = [1]
[args]
o = { buffer = "int", len = 1 }
"#;
    assert_check(
        "huge_index",
        job,
        &[],
        2,
        "out-of-bounds write of 4 bytes",
        "o[0x100000000000] = 7;",
    );
}
