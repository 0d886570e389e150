//! `oclc build --emit ir` after the address-space passes, and before them with `-O0`, for two
//! small kernels: the seed memcpy and `bar`.

use oclc::build_cmd::build_command;

fn emit(file: &str, extra: &[&str]) -> String {
    let mut args: Vec<String> = ["--emit", "ir", "-cl-std=CL2.0"]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
    args.push(file.into());
    let out = build_command(args, &mut std::io::empty());
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    out.stdout
}

const MEMCPY: &str = "../../examples/memcpy.cl";
const BAR: &str = "tests/spaces_in/bar.cl";

#[test]
fn memcpy_ir_after_the_passes() {
    let ir = emit(MEMCPY, &[]);
    insta::assert_snapshot!("memcpy_O2", ir);
}

#[test]
fn memcpy_ir_without_the_passes() {
    let ir = emit(MEMCPY, &["-O0"]);
    insta::assert_snapshot!("memcpy_O0", ir);
    assert_eq!(ir, emit(MEMCPY, &["-cl-opt-disable"]));
}

#[test]
fn bar_ir_after_the_passes() {
    insta::assert_snapshot!("bar_O2", emit(BAR, &[]));
}

#[test]
fn bar_ir_without_the_passes() {
    insta::assert_snapshot!("bar_O0", emit(BAR, &["-O0"]));
}
