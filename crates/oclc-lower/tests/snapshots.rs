//! Printed IR of small kernels (inputs in tests/in/*.cl), compared with insta snapshots.

mod common;

fn snapshot(name: &str) {
    let path = format!("{}/tests/in/{name}.cl", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("input file");
    let c = common::compile(&src);
    insta::assert_snapshot!(name, oclc_ir::print_module(&c.module, None));
}

#[test]
fn copy_loop() {
    snapshot("copy_loop");
}

#[test]
fn control() {
    snapshot("control");
}

#[test]
fn structs() {
    snapshot("structs");
}

#[test]
fn generic_memcpy() {
    snapshot("generic_memcpy");
}

#[test]
fn matmul() {
    snapshot("matmul");
}

#[test]
fn library_function() {
    snapshot("library_function");
}
