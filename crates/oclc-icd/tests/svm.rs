//! Coarse-grained SVM through the platform (`tests/c/svm.c`, calling the library's dispatch
//! table): a linked list the host builds with host pointers in two SVM allocations is walked
//! and reversed by a kernel through the pointers it reads from SVM memory, and the host walks
//! the pointers the kernel wrote; an access one past an allocation's end is out of its bounds,
//! and an allocation the launch was not given is named as such. Needs a C compiler and the
//! OpenCL headers: without them a test says what is missing and skips, or fails when
//! OCLC_REQUIRE_CONFORMANCE=1. Also large buffer transfers (`tests/c/xfer.c`), which move
//! chunk by chunk through the library.

mod common;

use common::{compile, library};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The test program, compiled once; `None` (skipped) without a C compiler or headers.
fn program() -> Option<PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| compile("svm")).clone()
}

/// The output of `svm.c` in `mode` (stdout, stderr; it exits 0 unless its set-up failed).
fn run(mode: &str) -> Option<(String, String)> {
    let bin = program()?;
    let out = Command::new(bin)
        .arg(library())
        .arg(mode)
        .output()
        .expect("svm test program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    Some((stdout, stderr))
}

/// The addresses of allocations `a` and `b` from the program's first line.
fn addresses(stdout: &str) -> (String, String) {
    let first = stdout.lines().next().unwrap_or("");
    let field = |name: &str| {
        first
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {first:?}"))
            .to_string()
    };
    (field("a="), field("b="))
}

#[test]
fn a_kernel_walks_and_relinks_a_host_built_linked_list_in_svm() {
    let Some((out, err)) = run("list") else {
        return;
    };
    let (a, b) = addresses(&out);
    assert_eq!(
        out,
        format!(
            "a={a} b={b} status complete\n\
             sum 28 count 7 head is a[3]: yes at_sum is &sum: yes\n\
             reversed: 70a 60b 50a 40b 30a 20b 10a\n"
        ),
        "{err}"
    );
}

#[test]
fn a_use_host_ptr_buffer_over_svm_memory_is_addressed_as_that_memory() {
    let Some((out, err)) = run("membuf") else {
        return;
    };
    let (a, b) = addresses(&out);
    // CL_INVALID_BUFFER_SIZE (-61) for a buffer larger than its SVM allocation.
    assert_eq!(
        out,
        format!(
            "a={a} b={b} status complete\noversized buffer over SVM: -61\n\
             sum 28 count 7 head is a[3]: yes at_sum is &sum: yes\n\
             reversed: 70a 60b 50a 40b 30a 20b 10a\n"
        ),
        "{err}"
    );
}

#[test]
fn an_empty_svm_pointer_list_unsets_the_named_allocations() {
    let Some((out, err)) = run("unset") else {
        return;
    };
    let (a, b) = addresses(&out);
    assert_eq!(out, format!("a={a} b={b} status negative\nunset: 0\n"));
    assert!(err.contains("which the launch was not given"), "{err}");
}

#[test]
fn one_past_an_svm_allocation_is_out_of_its_bounds() {
    let Some((out, err)) = run("oob") else { return };
    let (a, _) = addresses(&out);
    assert!(out.ends_with("status negative\n"), "{out}");
    assert!(
        err.contains(&format!(
            "error: out-of-bounds read of 8 bytes at offset 72 of __global SVM allocation at \
             {a} (64 bytes)"
        )),
        "{err}"
    );
    assert!(err.contains("global node *next = n->next;"), "{err}");
}

#[test]
fn an_svm_allocation_the_launch_was_not_given_is_named() {
    let Some((out, err)) = run("unbound") else {
        return;
    };
    let (_, b) = addresses(&out);
    assert!(out.ends_with("status negative\n"), "{out}");
    let addr = u64::from_str_radix(b.trim_start_matches("0x"), 16).expect("hex address");
    assert!(
        err.contains(&format!(
            "error: read through __global pointer {:#x}, at offset 8 of the SVM allocation at \
             {b} (48 bytes), which the launch was not given: pass it as a kernel argument or \
             name it with clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)",
            addr + 8
        )),
        "{err}"
    );
}

#[test]
fn large_transfers_cross_chunks_intact() {
    let Some(bin) = compile("xfer") else { return };
    let out = Command::new(bin)
        .arg(library())
        .output()
        .expect("xfer test program runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "copy_host_ptr: 0, 0 bytes differ\nwrite 0 read 0: 0 bytes differ\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
