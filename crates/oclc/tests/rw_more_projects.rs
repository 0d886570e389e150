//! Repros from a third real-world round (clRNG, VC4C's test kernels, OpenCL-CTS, FFmpeg,
//! darktable, OpenCV, DeepCL, mandelbulber2, libclc): each case's diagnostics (location,
//! severity, text and group) are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -`
//! on the same source.

#[path = "../../../test-support/stdin_check.rs"]
mod stdin_check;
use stdin_check::{assert_clang_with, diagnostics_with};

/// Asserts oclc's diagnostics for `src` are clang's `want`.
fn assert_clang(name: &str, src: &[u8], want: &[&str]) {
    assert_clang_with(name, &[], src, want);
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

/// clspv's and the SPIR-V translator's tests use OpenCL C 2.0 names: clang declares
/// `memory_order`/`memory_scope` with their enumerators and the device-enqueue, pipe and
/// atomic type names from 2.0 on only, so in 1.2 they are undeclared identifiers.
#[test]
fn cl20_names_are_undeclared_in_cl12() {
    let src = br#"kernel void k(global uint *o) {
  o[0] = memory_order_relaxed;
  o[1] = memory_scope_device;
}
void f(void) {
  queue_t q;
  clk_event_t e;
  reserve_id_t r;
  memory_order mo = 1;
}
"#;
    assert_eq!(
        diagnostics_with(&[], src),
        [
            "<stdin>:2:10: error: use of undeclared identifier 'memory_order_relaxed'",
            "<stdin>:3:10: error: use of undeclared identifier 'memory_scope_device'",
            "<stdin>:6:3: error: use of undeclared identifier 'queue_t'",
            "<stdin>:7:3: error: use of undeclared identifier 'clk_event_t'",
            "<stdin>:8:3: error: use of undeclared identifier 'reserve_id_t'",
            "<stdin>:9:3: error: use of undeclared identifier 'memory_order'",
        ],
        "OpenCL C 1.2"
    );
    assert_eq!(
        diagnostics_with(&["-cl-std=CL2.0"], src),
        Vec::<String>::new(),
        "OpenCL C 2.0"
    );
}

/// opencl-c-base.h's device-enqueue typedefs (`ndrange_t`, `kernel_enqueue_flags_t`,
/// `clk_profiling_info`) exist from 2.0 on, and the header defines 2.0's optional features
/// (so `memory_order_seq_cst`, `memory_scope_all_svm_devices`) whatever -cl-ext says.
#[test]
fn cl20_header_typedefs_and_features() {
    let src = br#"kernel void k(global int *o) {
  ndrange_t n = ndrange_1D(16);
  o[0] = n.workDimension + sizeof(ndrange_t) + n.globalWorkSize[0];
  kernel_enqueue_flags_t f = CLK_ENQUEUE_FLAGS_NO_WAIT;
  clk_profiling_info pi = CLK_PROFILING_COMMAND_EXEC_TIME;
  o[1] = memory_order_seq_cst + memory_scope_all_svm_devices;
  int x = n;
}
"#;
    let want = [
        "<stdin>:7:7: error: initializing '__private int' with an expression of incompatible type '__private ndrange_t'",
    ];
    for flags in [
        &["-cl-std=CL2.0"][..],
        &["-cl-std=CL2.0", "-cl-ext=-all"],
        &["-cl-std=CL3.0"],
    ] {
        assert_eq!(diagnostics_with(flags, src), want, "{flags:?}");
    }
}

/// `typedef struct { ... } S;`: clang names the unnamed struct `S` for linkage, so its type
/// prints `'S'` with no "aka" (a typedef of a typedef still has one).
#[test]
fn typedef_named_unnamed_tags_print_bare() {
    let src = br#"typedef struct { int a; } S;
typedef struct { int b; } T, *PT;
typedef S S2;
typedef enum { EA, EB } E;
typedef union { int u; float f; } U;
kernel void k(global int *o) { S s; T t; PT pt = 0; S2 s2; E e = EA; U u;
  int x1 = s; int x2 = t; int x3 = s2; int x4 = u; float4 f = s; s.zz = 1; int x6 = pt;
  E *pe = &s; }
"#;
    assert_clang(
        "typedef_named_unnamed_tags_print_bare",
        src,
        &[
            "<stdin>:7:7: error: initializing '__private int' with an expression of incompatible type '__private S'",
            "<stdin>:7:19: error: initializing '__private int' with an expression of incompatible type '__private T'",
            "<stdin>:7:31: error: initializing '__private int' with an expression of incompatible type '__private S2' (aka '__private S')",
            "<stdin>:7:44: error: initializing '__private int' with an expression of incompatible type '__private U'",
            "<stdin>:7:59: error: initializing '__private float4' (vector of 4 'float' values) with an expression of incompatible type '__private S'",
            "<stdin>:7:68: error: no member named 'zz' in 'S'",
            "<stdin>:7:80: error: incompatible pointer to integer conversion initializing '__private int' with an expression of type '__private PT' (aka '__private T *__private') [-Wint-conversion]",
            "<stdin>:8:6: warning: incompatible pointer types initializing '__private E *__private' with an expression of type '__private S *' [-Wincompatible-pointer-types]",
        ],
    );
}

/// clspv's kernel-arg-info tests take `read_write image3d_t` parameters: before OpenCL C 2.0
/// clang refuses the qualifier on a parameter, spelled as written, and the parameter is then
/// invalid (its uses report nothing more); a typedef is not checked.
#[test]
fn read_write_image_parameters_before_cl20() {
    let src = br#"kernel void a(__read_write image2d_t i) { }
kernel void b(read_write image1d_buffer_t i, int x) { int y = x + q; }
typedef read_write image2d_t rwi;
kernel void c(rwi i) {}
kernel void d(__read_write image3d_t i) { read_imagef(i, (int4)(0)); }
"#;
    assert_clang(
        "read_write_image_parameters_before_cl20",
        src,
        &[
            "<stdin>:1:15: error: access qualifier '__read_write' can not be used for '__read_write image2d_t' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature",
            "<stdin>:2:15: error: access qualifier 'read_write' can not be used for '__read_write image1d_buffer_t' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature",
            "<stdin>:2:67: error: use of undeclared identifier 'q'",
            "<stdin>:5:15: error: access qualifier '__read_write' can not be used for '__read_write image3d_t' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature",
        ],
    );
    assert_eq!(
        diagnostics_with(&["-cl-std=CL2.0"], src),
        [
            "<stdin>:2:67: error: use of undeclared identifier 'q'",
            "<stdin>:5:43: warning: ignoring return value of function declared with pure attribute [-Wunused-value]",
        ],
        "OpenCL C 2.0"
    );
}
