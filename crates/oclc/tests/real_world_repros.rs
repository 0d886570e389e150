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

/// Builds `src`, runs kernel `k` once with `bufs` (u32 buffers, one work-item) and returns them.
fn run_u32(src: &str, bufs: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let buffers: Vec<_> = bufs
        .iter()
        .map(|b| d.buffer_from_slice(b).expect("buffer"))
        .collect();
    let mut k = p.kernel("k").expect("kernel");
    for (i, b) in buffers.iter().enumerate() {
        k.set_arg(i, b).expect("arg");
    }
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    buffers
        .iter()
        .map(|b| b.read::<u32>().expect("read"))
        .collect()
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
// an address-space change). The severity stays an error: clang-19 warns, but the SemaOpenCL
// conformance corpus (newer clang) expects an error (address-spaces.cl:147).

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
        "<stdin>:3:24: error: incompatible pointer types initializing '__private ulong *__private' (aka '__private unsigned long *__private') with an expression of type '__private ulong8 *' [-Wincompatible-pointer-types]\n",
        "    3 |   ulong8 d = 0; ulong *p = &d; o[0] = *p;\n",
        "      |                        ^   ~~\n",
        "<stdin>:4:18: error: incompatible pointer types passing '__private float4 (*)[3]' to parameter of type 'const __private float4 *' [-Wincompatible-pointer-types]\n",
        "    4 |   float4 v[3]; f(&v);\n",
        "      |                  ^~\n",
        "<stdin>:1:22: note: passing argument to parameter 'v' here\n",
        "    1 | void f(const float4 *v);\n",
        "      |                      ^\n",
        "<stdin>:5:22: error: incompatible pointer types assigning to '__private float *__private' from '__private int *' [-Wincompatible-pointer-types]\n",
        "    5 |   int i; float *q; q = &i;\n",
        "      |                      ^ ~~\n",
        "3 errors generated.\n",
    );
    assert_eq!(check(src), (1, expected.to_string()));
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
