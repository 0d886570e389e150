//! `oclc spaces`: snapshots of the text and JSON reports, and the facts the issue asks for
//! (no generic access left in the seed memcpy; `bar`'s pointer reported with both origins at
//! the lines a user expects).

use oclc::spaces_cmd::spaces_command;
use serde_json::Value;

fn spaces(args: &[&str]) -> oclc::cli::CliOutput {
    spaces_command(
        args.iter().map(|s| s.to_string()).collect(),
        &mut std::io::empty(),
    )
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let out = spaces(&a);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

fn kernels(v: &Value) -> Vec<(String, u64, u64)> {
    v["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| {
            (
                k["kernel"].as_str().unwrap_or("").to_string(),
                k["generic_accesses_before"].as_u64().unwrap_or(99),
                k["generic_accesses_after"].as_u64().unwrap_or(99),
            )
        })
        .collect()
}

const MEMCPY: &str = "../../examples/memcpy.cl";
const MEMCPY2: &str = "tests/spaces_in/memcpy2.cl";
const BAR: &str = "tests/spaces_in/bar.cl";
const REASONS: &str = "tests/spaces_in/reasons.cl";

#[test]
fn memcpy_text() {
    let out = spaces(&["-cl-std=CL2.0", MEMCPY]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    insta::assert_snapshot!("memcpy_text", out.stdout);
}

#[test]
fn memcpy_json() {
    let out = spaces(&["-cl-std=CL2.0", MEMCPY, "--format=json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("memcpy_json", out.stdout);
    assert_eq!(
        kernels(&json(&["-cl-std=CL2.0", MEMCPY])),
        [("copy".into(), 2, 0)]
    );
}

#[test]
fn memcpy_two_kernels_have_no_generic_access_left() {
    let v = json(&["-cl-std=CL2.0", MEMCPY2]);
    assert_eq!(
        kernels(&v),
        [
            ("global_to_global".into(), 2, 0),
            ("local_to_global".into(), 2, 0)
        ]
    );
    let out = spaces(&["-cl-std=CL2.0", MEMCPY2]);
    insta::assert_snapshot!("memcpy2_text", out.stdout);
}

#[test]
fn bar_text() {
    let out = spaces(&["-cl-std=CL2.0", BAR]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    insta::assert_snapshot!("bar_text", out.stdout);
    // Declared on line 6, assigned __global on line 9 and __local on line 11, merged for the
    // store on line 12.
    assert!(
        out.stdout.contains(
            "var (line 6): stays generic: merges __global (line 9) and __local (line 11) at line 12"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn bar_json() {
    let out = spaces(&["-cl-std=CL2.0", BAR, "--format", "json"]);
    insta::assert_snapshot!("bar_json", out.stdout);
    let v: Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let bar = v["functions"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == "bar"))
        .expect("bar reported");
    let var = &bar["pointers"][0];
    assert_eq!(var["name"], "var");
    assert_eq!(var["line"], 6);
    assert_eq!(var["resolved"], false);
    let reason = &var["reasons"][0];
    assert_eq!(reason["kind"], "merge");
    assert_eq!(reason["spaces"][0]["space"], "global");
    assert_eq!(reason["spaces"][0]["line"], 9);
    assert_eq!(reason["spaces"][1]["space"], "local");
    assert_eq!(reason["spaces"][1]["line"], 11);
    // The store through `var` is split by space at run time, so no generic access is left.
    assert_eq!(kernels(&v), [("bar".into(), 1, 0)]);
}

#[test]
fn bar_without_versioning_keeps_the_generic_store() {
    let v = json(&["-cl-std=CL2.0", BAR, "-O1"]);
    assert_eq!(kernels(&v), [("bar".into(), 1, 1)]);
}

#[test]
fn other_reasons_text() {
    let out = spaces(&["-cl-std=CL2.0", REASONS]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("reasons_text", out.stdout);
    assert!(
        out.stdout.contains(
            "from_int (line 6): stays generic: escapes through an integer cast at line 6"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn o0_resolves_nothing() {
    for flag in ["-O0", "-cl-opt-disable"] {
        let out = spaces(&["-cl-std=CL2.0", MEMCPY, flag]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(
            out.stdout,
            "address-space passes off (-O0): no pointer is resolved\n\
             function GenericXToY_internal (line 7)\n\
             \x20 generic accesses left: 2\n\
             \x20   line 11: load through in: the address-space passes are off (-O0)\n\
             \x20   line 11: store through out: the address-space passes are off (-O0)\n\
             generic memory accesses per kernel (before -> after):\n  copy: 2 -> 2\n"
        );
    }
}

#[test]
fn errors_exit_1_without_report() {
    let out = spaces_command(
        vec!["-cl-std=CL2.0".into(), "-".into()],
        &mut "kernel void k(global int *p) { *p = x; }".as_bytes(),
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("error: use of undeclared identifier 'x'"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors() {
    let out = spaces(&[]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (1, "oclc: error: no input files\n")
    );
    let out = spaces(&[BAR, MEMCPY]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (1, "oclc: error: oclc spaces takes one input file\n")
    );
    let out = spaces(&["--help"]);
    assert_eq!(
        (out.code, out.stdout.starts_with("Usage: oclc spaces")),
        (0, true)
    );
}
