//! Repros from a third real-world round (clRNG, VC4C's test kernels, OpenCL-CTS, FFmpeg,
//! darktable, OpenCV, DeepCL, mandelbulber2, libclc): each case's diagnostics (location,
//! severity, text and group) are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -`
//! on the same source.

use oclc::cli::check_command;

/// `oclc check -` on `src`: its diagnostic lines (`<stdin>:L:C: level: text`), without the
/// source excerpts, without notes located in clang's headers (oclc prints those unlocated)
/// and without oclc's own notes beyond clang ("implicit address space: ...").
fn diagnostics(src: &[u8]) -> Vec<String> {
    let out = check_command(vec!["-".to_string()], &mut &src[..]);
    out.stderr
        .lines()
        .filter(|l| {
            l.starts_with("<stdin>:")
                && !l.contains(": note: implicit address space: ")
                && [": error: ", ": warning: ", ": note: "]
                    .iter()
                    .any(|k| l.contains(k))
        })
        .map(str::to_string)
        .collect()
}

/// Asserts oclc's diagnostics for `src` are clang's `want`.
fn assert_clang(name: &str, src: &[u8], want: &[&str]) {
    assert_eq!(
        diagnostics(src),
        want,
        "{name}: oclc's diagnostics differ from clang-19's"
    );
}

/// clRNG's `modMatVec(cl_uint A[N][N], ...)` called with a `__constant` matrix: an array
/// parameter decays to a pointer to its element as written, typedef sugar kept, and a pointer
/// to a typedef of an array desugars to `(*)[3]`.
#[test]
fn array_parameter_keeps_element_typedef() {
    let src = br#"typedef unsigned int cl_uint;
typedef cl_uint row3[3];
__constant cl_uint M[3][3] = {{1,2,3},{4,5,6},{7,8,9}};
static void f(cl_uint s[3]) { }
static void h(row3 s[3]) { }
static void j(row3 s) { }
kernel void k() { f(M[0]); h(M); j(M[1]); }
"#;
    assert_clang(
        "array_parameter_keeps_element_typedef",
        src,
        &[
            "<stdin>:7:21: error: passing '__constant cl_uint *' (aka '__constant unsigned int *') to parameter of type '__private cl_uint *' (aka '__private unsigned int *') changes address space of pointer",
            "<stdin>:4:23: note: passing argument to parameter 's' here",
            "<stdin>:7:30: error: passing '__constant cl_uint (*)[3]' (aka '__constant unsigned int (*)[3]') to parameter of type '__private row3 *' (aka '__private unsigned int (*)[3]') changes address space of pointer",
            "<stdin>:5:20: note: passing argument to parameter 's' here",
            "<stdin>:7:36: error: passing '__constant cl_uint *' (aka '__constant unsigned int *') to parameter of type '__private cl_uint *' (aka '__private unsigned int *') changes address space of pointer",
            "<stdin>:6:20: note: passing argument to parameter 's' here",
        ],
    );
}

/// VC4C's rendergirl/FXAA.cl has old Mac line ends: a lone `\r` ends a `//` comment (so a
/// `/*` after it opens a block comment) and a directive, and counts as a line for positions.
#[test]
fn lone_carriage_return_ends_a_line() {
    let src = b"kernel void k(global int *p) {\r\t// comment\r\t/* block\r\n int x = 1.0 + ; */\r\n  p[0] = 1;\r  int y = q;\r\n}\n";
    assert_clang(
        "lone_carriage_return_ends_a_line",
        src,
        &["<stdin>:6:11: error: use of undeclared identifier 'q'"],
    );
    let src = b"#define X 1\rint y = X;\rkernel void k(global int *p) { p[0] = y + Z; }\r";
    assert_clang(
        "lone_carriage_return_ends_a_directive",
        src,
        &[
            "<stdin>:2:5: error: program scope variable must reside in constant address space",
            "<stdin>:3:43: error: use of undeclared identifier 'Z'",
        ],
    );
}

/// OpenCL-CTS test_half.cl calls `vloada_half`: opencl-c.h declares the aligned half loads
/// and stores for 2 to 16 elements only, so the scalar ones are undeclared.
#[test]
fn no_scalar_aligned_half_load_store() {
    let src = br#"kernel void k(global float *f, const global half *p) {
  f[0] = vloada_half(0, p);
  vstorea_half(f[0], 0, (global half *)p);
  vstorea_half_rte(f[0], 0, (global half *)p);
  f[1] = vloada_half2(0, p).x + vload_half(0, p);
}
"#;
    assert_clang(
        "no_scalar_aligned_half_load_store",
        src,
        &[
            "<stdin>:2:10: error: use of undeclared identifier 'vloada_half'",
            "<stdin>:3:3: error: use of undeclared identifier 'vstorea_half'",
            "<stdin>:4:3: error: use of undeclared identifier 'vstorea_half_rte'",
        ],
    );
}

/// VC4C's example/test.cl initializes an `int` with `&i`: clang's fix-it hint ("; remove &",
/// "; dereference with *") when the destination is the pointee type at least as qualified,
/// none for a null pointer constant, another type, or a destination without its space.
#[test]
fn pointer_as_integer_hints() {
    let src = br#"typedef int myint;
kernel void k(global int *p, local int *l) {
  const int ci = 1; int a = 0;
  int x1 = &ci;
  const int x2 = &a;
  int x3 = (int *)0;
  int x4 = (int *)(0);
  int *gp = &a;
  int x5 = gp;
  myint x6 = &a;
  unsigned x7 = &a;
  x1 = (int*)0;
  char c; char x8 = &c;
  volatile int x9 = &a;
  int x10 = &*gp;
  int x11 = &(a);
  int x12 = (&a);
  x12 = p;
}
void f(int x);
void g(global int *p) { int a; f(&a); f(p); }
"#;
    assert_clang(
        "pointer_as_integer_hints",
        src,
        &[
            "<stdin>:4:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type 'const __private int *' [-Wint-conversion]",
            "<stdin>:5:13: error: incompatible pointer to integer conversion initializing 'const __private int' with an expression of type '__private int *'; remove & [-Wint-conversion]",
            "<stdin>:6:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *' [-Wint-conversion]",
            "<stdin>:7:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *' [-Wint-conversion]",
            "<stdin>:9:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *__private'; dereference with * [-Wint-conversion]",
            "<stdin>:10:9: error: incompatible pointer to integer conversion initializing '__private myint' (aka '__private int') with an expression of type '__private int *'; remove & [-Wint-conversion]",
            "<stdin>:11:12: error: incompatible pointer to integer conversion initializing '__private unsigned int' with an expression of type '__private int *' [-Wint-conversion]",
            "<stdin>:12:6: error: incompatible pointer to integer conversion assigning to '__private int' from '__private int *' [-Wint-conversion]",
            "<stdin>:13:16: error: incompatible pointer to integer conversion initializing '__private char' with an expression of type '__private char *'; remove & [-Wint-conversion]",
            "<stdin>:14:16: error: incompatible pointer to integer conversion initializing 'volatile __private int' with an expression of type '__private int *'; remove & [-Wint-conversion]",
            "<stdin>:15:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *'; remove & [-Wint-conversion]",
            "<stdin>:16:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *'; remove & [-Wint-conversion]",
            "<stdin>:17:7: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private int *'; dereference with * [-Wint-conversion]",
            "<stdin>:18:7: error: incompatible pointer to integer conversion assigning to '__private int' from '__global int *__private' [-Wint-conversion]",
            "<stdin>:21:34: error: incompatible pointer to integer conversion passing '__private int *' to parameter of type 'int' [-Wint-conversion]",
            "<stdin>:20:12: note: passing argument to parameter 'x' here",
            "<stdin>:21:41: error: incompatible pointer to integer conversion passing '__global int *__private' to parameter of type 'int' [-Wint-conversion]",
            "<stdin>:20:12: note: passing argument to parameter 'x' here",
        ],
    );
}
