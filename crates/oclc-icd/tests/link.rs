//! Separate compilation through the platform (`tests/c/link.c`, calling the library's
//! dispatch table): clCompileProgram keeps each unit's IR and clLinkProgram links the IR, so
//! units that are legal C apart but not as one file link (the same struct type defined in
//! both, `static` functions of one name), `extern` variables resolve to their definition, and
//! duplicate or undefined symbols are link errors with a linker's log. Needs a C compiler and
//! the OpenCL headers: without them a test says what is missing and skips, or fails when
//! OCLC_REQUIRE_CONFORMANCE=1.

mod common;

use common::{compile, library};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The test program, compiled once; `None` (skipped) without a C compiler or headers.
fn program() -> Option<PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| compile("link")).clone()
}

/// The output of `link.c` in `mode` (it exits 0 unless its set-up failed).
fn run(mode: &str) -> Option<String> {
    let bin = program()?;
    let out = Command::new(bin)
        .arg(library())
        .arg(mode)
        .output()
        .expect("link test program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(stdout)
}

#[test]
fn units_defining_the_same_struct_type_link_and_call_each_other() {
    let Some(out) = run("struct") else { return };
    assert_eq!(out, "use_pair: 42\n");
}

#[test]
fn extern_program_scope_variables_resolve_to_the_one_definition() {
    let Some(out) = run("extern") else { return };
    // `bump` adds 10 to the definition's 5; the other unit's `extern` reads the same object.
    assert_eq!(out, "bump: 15\nread_counter: 15 4\n");
}

#[test]
fn static_functions_and_variables_stay_per_unit() {
    let Some(out) = run("static") else { return };
    assert_eq!(out, "ka: 1 100\nkb: 2 200\n");
}

#[test]
fn two_definitions_of_one_function_are_a_duplicate_symbol() {
    let Some(out) = run("dup") else { return };
    assert_eq!(
        out,
        "link: CL_LINK_PROGRAM_FAILURE (-17)\n\
         oclc: error: duplicate symbol 'twice' in 'input 1' and 'input 2'\n"
    );
}

#[test]
fn declarations_nothing_defines_are_undefined_references() {
    let Some(out) = run("undef") else { return };
    assert_eq!(
        out,
        "link: CL_LINK_PROGRAM_FAILURE (-17)\n\
         oclc: error: undefined reference to 'missing' in 'input 1'\n\
         oclc: error: undefined reference to 'nowhere' in 'input 1'\n"
    );
}

#[test]
fn a_library_keeps_its_undefined_symbols_for_the_final_link() {
    let Some(out) = run("library") else { return };
    assert_eq!(out, "library binary type: LIBRARY\nuse_pair: 42\n");
}

#[test]
fn a_compiled_object_loaded_from_its_binary_links_with_its_input_header() {
    let Some(out) = run("binary") else { return };
    assert_eq!(out, "loaded: 0 0\nuse_pair: 42\n");
}

#[test]
fn bad_compile_and_link_options_have_their_own_codes() {
    let Some(out) = run("options") else { return };
    assert_eq!(
        out,
        "compile: CL_INVALID_COMPILER_OPTIONS\nlink: CL_INVALID_LINKER_OPTIONS\n"
    );
}
