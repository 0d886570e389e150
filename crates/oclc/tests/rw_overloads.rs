//! Issue 13, false positives and negatives found on the real-world corpus after the first
//! fixes (pocl's tests, john's kernels, LuxCore's CUDA emulation header): user functions
//! overloaded with `__attribute__((overloadable))`, an unknown attribute's identifier
//! argument, and redefinitions of the OpenCL header's typedefs. Expected lines are clang-19's
//! (`-cc1 -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only`).

use oclc::cli::check_command;
use oclc::{Device, NdRange, Program};

/// `oclc check` on `src` (as `<stdin>`), returning exit code and the diagnostic lines
/// (errors, warnings and notes with a location).
fn check(src: &str) -> (i32, Vec<String>) {
    let out = check_command(vec!["-".to_string()], &mut src.as_bytes());
    let lines = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("<stdin>:") || l.starts_with("note:"))
        .map(str::to_string)
        .collect();
    (out.code, lines)
}

/// Builds `src` with `opts`, runs kernel `k` on one work-item with an int and a float buffer.
fn run(src: &str, opts: &str, ints: usize) -> (Vec<i32>, Vec<f32>) {
    let p = Program::build(src, opts).expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let o = d.buffer_from_slice(&vec![0i32; ints]).expect("buffer");
    let fo = d.buffer_from_slice(&[0f32]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    k.set_arg(1, &fo).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    (
        o.read::<i32>().expect("read"),
        fo.read::<f32>().expect("read"),
    )
}

const OVERLOADS: &str = "int __attribute__((overloadable)) f(int a) { return a + 1; }\n\
    int __attribute__((overloadable)) f(int2 a) { return a.x * 10 + a.y; }\n\
    float __attribute__((__overloadable__)) f(float a) { return a * 2.0f; }\n\
    int __attribute__((overloadable)) g(int a);\n\
    int __attribute__((overloadable)) g(short a);\n\
    int __attribute__((overloadable)) g(int a) { return 7; }\n\
    int __attribute__((overloadable)) g(short a) { return 8; }\n\
    int h(int a) { return 100; }\n\
    int __attribute__((overloadable)) h(float a) { return 200; }\n\
    kernel void k(global int *o, global float *fo) {\n\
      o[0] = f(4);\n\
      o[1] = f((int2)(3, 5));\n\
      fo[0] = f(1.5f);\n\
      o[2] = g(1);\n\
      o[3] = g((short)1);\n\
      o[4] = f((char)2);\n\
      o[5] = h(1) + h(1.0f);\n\
    }\n";

#[test]
fn overloadable_user_functions_check_clean_and_each_call_runs_its_overload() {
    assert_eq!(check(OVERLOADS), (0, vec![]));
    for opts in ["", "-O0", "-cl-std=CL2.0"] {
        let (o, fo) = run(OVERLOADS, opts, 6);
        assert_eq!(o, [5, 35, 7, 8, 3, 300], "options {opts:?}");
        assert_eq!(fo, [3.0], "options {opts:?}");
    }
    let p = Program::build(OVERLOADS, "-cl-std=CL2.0").expect("builds");
    let ptx = p.ptx_text("sm_80", false).expect("ptx");
    assert!(ptx.contains(".entry k("), "{ptx}");
}

#[test]
fn overload_errors_are_clangs() {
    let src = "int __attribute__((overloadable)) q(int a);\n\
        int __attribute__((overloadable)) q(int a) { return 1; }\n\
        int __attribute__((overloadable)) q(int a) { return 2; }\n\
        int __attribute__((overloadable)) r(int a);\n\
        float __attribute__((overloadable)) r(int a);\n\
        int __attribute__((overloadable)) s(int a);\n\
        int __attribute__((overloadable)) s(float a);\n\
        kernel void k(global int *o) { o[0] = s(1u); o[1] = s(1); }\n";
    assert_eq!(
        check(src),
        (
            1,
            [
                "<stdin>:3:35: error: redefinition of 'q'",
                "<stdin>:2:35: note: previous definition is here",
                "<stdin>:5:37: error: conflicting types for 'r'",
                "<stdin>:4:35: note: previous declaration is here",
                "<stdin>:8:39: error: call to 's' is ambiguous",
                "<stdin>:6:35: note: candidate function",
                "<stdin>:7:35: note: candidate function",
            ]
            .map(String::from)
            .to_vec()
        )
    );
    // Without the attribute on either declaration, a second signature conflicts.
    let (code, lines) = check("int t(int a);\nint t(float a);\n");
    assert_eq!(code, 1);
    assert_eq!(lines[0], "<stdin>:2:5: error: conflicting types for 't'");
}

#[test]
fn an_unknown_attributes_lone_identifier_argument_is_no_expression() {
    let src = "kernel void k(constant int *p __attribute__((max_constant_size(SALT_BUFFER_SIZE)))) {}\n\
        kernel void k2(constant int *p __attribute__((max_constant_size((U))))) {}\n\
        kernel void k3(constant int *p __attribute__((max_constant_size(V+1)))) {}\n";
    assert_eq!(
        check(src),
        (
            1,
            [
                "<stdin>:1:46: warning: unknown attribute 'max_constant_size' ignored [-Wunknown-attributes]",
                "<stdin>:2:66: error: use of undeclared identifier 'U'",
                "<stdin>:3:65: error: use of undeclared identifier 'V'",
            ]
            .map(String::from)
            .to_vec()
        )
    );
}

#[test]
fn redefining_a_header_typedef_with_another_type_is_an_error() {
    let src = "typedef unsigned long long ulong;\n\
        typedef unsigned int uint;\n\
        typedef unsigned long long u64;\n\
        typedef unsigned long u64;\n";
    let (code, lines) = check(src);
    assert_eq!(code, 1);
    assert_eq!(
        lines,
        [
            "<stdin>:1:28: error: typedef redefinition with different types ('unsigned long long' vs 'unsigned long')",
            "note: previous definition is here",
            "<stdin>:4:23: error: typedef redefinition with different types ('unsigned long' vs 'unsigned long long')",
            "<stdin>:3:28: note: previous definition is here",
        ]
    );
    // The same type again is a valid redefinition, at file scope and in a function.
    assert_eq!(
        check(
            "typedef unsigned long ulong;\ntypedef float float4 __attribute__((ext_vector_type(4)));\nkernel void k() { typedef int ulong; ulong x = 0; }\n"
        ),
        (0, vec![])
    );
}
