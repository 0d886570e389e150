//! Issue 13's real-world repros: constructs clang-19 accepts in real kernels. Each check
//! output is compared with clang-19's exact text (`-cc1 -triple spir64-unknown-unknown
//! -finclude-default-header -fsyntax-only`); the constructs that run are run on the cpu device.

use oclc::cli::check_command;
use oclc::{Device, NdRange, Program};

/// `oclc check` on `src` (as `<stdin>`), returning exit code and stderr.
fn check(src: &str) -> (i32, String) {
    let out = check_command(vec!["-".to_string()], &mut src.as_bytes());
    (out.code, out.stderr)
}

#[path = "../../../test-support/run_once.rs"]
mod run_once;

/// [`run_once::run_once`] with u32 buffers.
fn run_u32(src: &str, bufs: &[Vec<u32>]) -> Vec<Vec<u32>> {
    run_once::run_once(src, bufs)
}

// Cause 1: a cast of a parenthesized expression followed by a postfix operator.

#[test]
fn cast_operand_takes_postfix_operators() {
    let src = "kernel void k(global uint *o, global const uchar *b) { o[0] = (uint) (b)[1]; }\n";
    assert_eq!(check(src), (0, String::new()));
}

#[test]
fn cast_operand_postfix_values_and_vector_literals() {
    let src = "typedef float4 V;\n\
        typedef float __attribute__((ext_vector_type(2))) F2;\n\
        kernel void k(global uint *o, global const uint *b) {\n\
          o[0] = (uint) (b)[1];\n\
          o[1] = (uchar) (b)[2] + 1;\n\
          o[2] = (uint) ((float4)(1.0f, 2.0f, 3.0f, 4.0f).y);\n\
          o[3] = (uint) (float4)((float)b[0]).z;\n\
          o[4] = (uint) (V)((float)b[1]).w;\n\
          o[5] = (uint) (F2)(5.0f, 6.0f).y;\n\
          o[6] = (ushort) -(b)[0];\n\
        }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_u32(src, &[vec![0; 7], vec![7, 300, 511]]);
    assert_eq!(out[0], vec![300, 256, 2, 7, 300, 6, 65529]);
}

#[test]
fn cast_of_a_non_vector_keeps_the_subscript_on_the_pointer() {
    // `(uint)(b)[1]` is `(uint)((b)[1])`; a subscript on the cast would be an error.
    let src = "kernel void k(global uint *o, global const uchar *b) { o[0] = ((uint) (b))[1]; }\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    assert!(
        err.contains("error: subscripted value is not an array, pointer, or vector"),
        "{err}"
    );
}

// Causes 4 and 5: incompatible pointer types: clang-19's text (no aka for a vector typedef,
// the source range, the parameter note; a pointer to an array is an incompatible pointer, not
// an address-space change) and clang-19's severity, a warning (the SemaOpenCL corpus's
// pointer-to-pointer and `to_X` cases stay errors, as the newer clang it follows gives).

#[test]
fn incompatible_pointer_types_match_clang_text() {
    let src = concat!(
        "void f(const float4 *v);\n",
        "kernel void k(global ulong *o) {\n",
        "  ulong8 d = 0; ulong *p = &d; o[0] = *p;\n",
        "  float4 v[3]; f(&v);\n",
        "  int i; float *q; q = &i;\n",
        "}\n",
    );
    let expected = concat!(
        "<stdin>:3:24: warning: incompatible pointer types initializing '__private ulong *__private' (aka '__private unsigned long *__private') with an expression of type '__private ulong8 *' [-Wincompatible-pointer-types]\n",
        "    3 |   ulong8 d = 0; ulong *p = &d; o[0] = *p;\n",
        "      |                        ^   ~~\n",
        "<stdin>:4:18: warning: incompatible pointer types passing '__private float4 (*)[3]' to parameter of type 'const __private float4 *' [-Wincompatible-pointer-types]\n",
        "    4 |   float4 v[3]; f(&v);\n",
        "      |                  ^~\n",
        "<stdin>:1:22: note: passing argument to parameter 'v' here\n",
        "    1 | void f(const float4 *v);\n",
        "      |                      ^\n",
        "<stdin>:5:22: warning: incompatible pointer types assigning to '__private float *__private' from '__private int *' [-Wincompatible-pointer-types]\n",
        "    5 |   int i; float *q; q = &i;\n",
        "      |                      ^ ~~\n",
        "3 warnings generated.\n",
    );
    assert_eq!(check(src), (0, expected.to_string()));
}

// Cause 6: an array typedef parameter decays to a pointer to `const __private` elements, and
// a `T10` variable decays to `__private uint *` (the typedef's qualifiers go to the element).

#[test]
fn array_typedef_parameter_keeps_private() {
    let src = "typedef uint T10[10]; void g(const T10 b) { } kernel void k(global uint *o) { T10 v; v[0] = o[0]; g(v); }\n";
    assert_eq!(check(src), (0, String::new()));
}

#[test]
fn array_typedef_parameter_runs_and_stays_read_only() {
    let src = "typedef uint T10[10];\n\
        uint sum(const T10 b) { uint s = 0; for (int i = 0; i < 10; i++) s += b[i]; return s; }\n\
        kernel void k(global uint *o) { T10 v; for (int i = 0; i < 10; i++) v[i] = o[i]; o[0] = sum(v); }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_u32(src, &[(1..=10).collect()]);
    assert_eq!(out[0][0], 55);
    let (code, err) = check("typedef uint T10[10];\nvoid g(const T10 b) { b[0] = 1; }\n");
    assert_eq!(code, 1);
    assert!(
        err.starts_with("<stdin>:2:28: error: read-only variable is not assignable\n"),
        "{err}"
    );
}

// Cause 8: a `__constant` variable read in another's initializer is a constant, as clang folds
// it; a non-constant global stays an error.

#[test]
fn constant_variables_fold_in_constant_initializers() {
    let src = "__constant float A = 16.0f; __constant float B = 255.0f; __constant float C = A / B;\n\
        __constant int I = 3; __constant int J = I * 2; __constant float D = -C * 2.0f + J;\n\
        kernel void k(global float *o) { o[0] = C; o[1] = J; o[2] = D; }\n";
    assert_eq!(check(src), (0, String::new()));
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let o = d.buffer::<f32>(3).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    let v = o.read::<f32>().expect("read");
    assert_eq!(
        v,
        vec![16.0f32 / 255.0, 6.0, -(16.0f32 / 255.0) * 2.0 + 6.0]
    );
}

#[test]
fn a_global_variable_is_still_not_a_constant_initializer() {
    let src = "global float G = 1.0f; global float H = G;\n__constant float C = 2.0f; global float K = C;\n";
    let out = check_command(
        vec!["-cl-std=CL2.0".to_string(), "-".to_string()],
        &mut src.as_bytes(),
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        concat!(
            "<stdin>:1:41: error: initializer element is not a compile-time constant\n",
            "    1 | global float G = 1.0f; global float H = G;\n",
            "      |                                         ^\n",
            "1 error generated.\n",
        )
    );
}

// Cause 9: plain assignment of an event is valid (clang); `e = 0`, samplers and images are not.

#[test]
fn event_assignment_checks_as_clang() {
    assert_eq!(
        check("kernel void k(global int *o) { event_t a, b; a = b; }\n"),
        (0, String::new())
    );
    let (code, err) = check("kernel void k(global int *o) { event_t a; a = 0; }\n");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "<stdin>:1:45: error: assigning to '__private event_t' from incompatible type 'int'\n"
        ),
        "{err}"
    );
    let (code, err) = check("kernel void k(global int *o) { sampler_t s = 0, t = 0; s = t; }\n");
    assert_eq!(code, 1);
    assert!(
        err.contains("error: invalid operands to binary expression ('sampler_t' and 'sampler_t')"),
        "{err}"
    );
}

#[test]
fn an_assigned_event_is_waited_on() {
    let src = "kernel void k(global uint *o, global const uint *b) {\n\
        local uint t[4]; event_t a, e;\n\
        a = async_work_group_copy(t, b, 4, 0); e = a;\n\
        wait_group_events(1, &e);\n\
        o[0] = t[0] + t[3];\n\
        }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_u32(src, &[vec![0], vec![5, 6, 7, 8]]);
    assert_eq!(out[0], vec![13]);
}
