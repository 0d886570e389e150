//! Issue 13, clang parity of diagnostics on real code (findings F, G, H, J, K, L, U, W, X of
//! the real-world corpus): each test's expected text is clang-19's output for the same input
//! (`clang-19 -cc1 -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only`).

use oclc::cli::check_command;
use oclc::{Device, NdRange, Program};

/// `oclc check -triple spir64-unknown-unknown ARGS -` on `src`: exit code, stderr.
fn check_args(args: &[&str], src: &str) -> (i32, String) {
    let mut a: Vec<String> = vec!["-triple".into(), "spir64-unknown-unknown".into()];
    a.extend(args.iter().map(|s| s.to_string()));
    a.push("-".into());
    let out = check_command(a, &mut src.as_bytes());
    (out.code, out.stderr)
}

fn check(src: &str) -> (i32, String) {
    check_args(&[], src)
}

/// The `error:` lines of a check's output.
fn error_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.contains(": error: ")).collect()
}

/// G: a struct/union tag used without its keyword: clang's error with the keyword as a fix-it, in parameters, at the start of a statement and after a qualifier; parsed as if the keyword were there.
#[test]
fn tag_name_without_its_keyword() {
    let src = r#"typedef struct s { int a; } s_t;
union u { int a; float b; };
enum e { A, B };
void f(s *p) {}
kernel void k(global int *o) {
  s x;
  x.a = 1;
  const u y = { 1 };
  enum e z = A;
  o[0] = x.a + y.a + z;
}
"#;
    let expected = r#"<stdin>:4:8: error: must use 'struct' tag to refer to type 's'
    4 | void f(s *p) {}
      |        ^
      |        struct 
<stdin>:6:3: error: must use 'struct' tag to refer to type 's'
    6 |   s x;
      |   ^
      |   struct 
<stdin>:8:9: error: must use 'union' tag to refer to type 'u'
    8 |   const u y = { 1 };
      |         ^
      |         union 
3 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// F: a `)` missing after the arguments: clang skips to it silently when the callee is undeclared, and reports it for a builtin.
#[test]
fn call_of_undeclared_callee_skips_its_arguments() {
    let src = r#"void f(void) { asm("" ::: "memory"); }
kernel void k(global int *o) {
  o[0] = max(o[1], o[2] o[3]);
  o[1] = undeclared_fn(o[1] o[2]);
}
"#;
    let expected = r#"<stdin>:1:16: error: use of undeclared identifier 'asm'
    1 | void f(void) { asm("" ::: "memory"); }
      |                ^
<stdin>:3:25: error: expected ')'
    3 |   o[0] = max(o[1], o[2] o[3]);
      |                         ^
<stdin>:3:13: note: to match this '('
    3 |   o[0] = max(o[1], o[2] o[3]);
      |             ^
<stdin>:4:10: error: use of undeclared identifier 'undeclared_fn'
    4 |   o[1] = undeclared_fn(o[1] o[2]);
      |          ^
3 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// J: array sizes are diagnosed left to right.
#[test]
fn array_sizes_left_to_right() {
    let src = r#"kernel void k(global float *o) { local float t[U1][U2]; }
"#;
    let expected = r#"<stdin>:1:48: error: use of undeclared identifier 'U1'
    1 | kernel void k(global float *o) { local float t[U1][U2]; }
      |                                                ^
<stdin>:1:52: error: use of undeclared identifier 'U2'
    1 | kernel void k(global float *o) { local float t[U1][U2]; }
      |                                                    ^
2 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// J: each array size is a constant expression of its own: its undeclared names are reported
/// at its end, before the next declaration's (john's cryptmd5 key type).
#[test]
fn array_size_typos_reported_per_size() {
    let src = r#"typedef struct {
  union {
    uchar c[LEN];
    uint w[(LEN + 3) / 4];
  } v;
} key_t;
"#;
    let expected = r#"<stdin>:3:13: error: use of undeclared identifier 'LEN'
    3 |     uchar c[LEN];
      |             ^
<stdin>:4:13: error: use of undeclared identifier 'LEN'
    4 |     uint w[(LEN + 3) / 4];
      |             ^
2 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// K: kernel attribute arguments are checked with the declaration, before the body.
#[test]
fn kernel_attribute_args_before_body() {
    let src = r#"__attribute__((reqd_work_group_size(W, 1, 1)))
kernel void k(global int *o) { o[0] = U; }
"#;
    let expected = r#"<stdin>:1:37: error: use of undeclared identifier 'W'
    1 | __attribute__((reqd_work_group_size(W, 1, 1)))
      |                                     ^
<stdin>:2:39: error: use of undeclared identifier 'U'
    2 | kernel void k(global int *o) { o[0] = U; }
      |                                       ^
2 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// L: undeclared names wait for the end of their full expression, except that a parenthesized expression, a subscript, a cast and sizeof correct their own operands first (member access, unary and conditional operators do not).
#[test]
fn delayed_typos_order() {
    let src = r#"int fn(int a, int b);
void f(global int *o, int4 v) {
  *A1 = A2 ? A3 : A4;
  o[0] = B1 + fn(B2, B3);
  o[1] = C1 + sizeof(C2);
  o[2] = D1 + (int)D2;
  o[3] = E1 + (int4)(E2, E3, 1, 2).x;
  o[4] = F1 + F2.x;
  o[5] = G1 + -G2 + !G3;
  o[6] = H1 + (H2 = H3);
  o[7] = I1 + (float)(I2) + I3;
  o[8] = J1 + J2++ + J3;
  o[9] = K1 + fn(K2 + K3, K4) + K5;
}
"#;
    let expected = r#"<stdin>:3:4: error: use of undeclared identifier 'A1'
    3 |   *A1 = A2 ? A3 : A4;
      |    ^
<stdin>:3:9: error: use of undeclared identifier 'A2'
    3 |   *A1 = A2 ? A3 : A4;
      |         ^
<stdin>:3:14: error: use of undeclared identifier 'A3'
    3 |   *A1 = A2 ? A3 : A4;
      |              ^
<stdin>:3:19: error: use of undeclared identifier 'A4'
    3 |   *A1 = A2 ? A3 : A4;
      |                   ^
<stdin>:4:10: error: use of undeclared identifier 'B1'
    4 |   o[0] = B1 + fn(B2, B3);
      |          ^
<stdin>:4:18: error: use of undeclared identifier 'B2'
    4 |   o[0] = B1 + fn(B2, B3);
      |                  ^
<stdin>:4:22: error: use of undeclared identifier 'B3'
    4 |   o[0] = B1 + fn(B2, B3);
      |                      ^
<stdin>:5:22: error: use of undeclared identifier 'C2'
    5 |   o[1] = C1 + sizeof(C2);
      |                      ^
<stdin>:5:10: error: use of undeclared identifier 'C1'
    5 |   o[1] = C1 + sizeof(C2);
      |          ^
<stdin>:6:20: error: use of undeclared identifier 'D2'
    6 |   o[2] = D1 + (int)D2;
      |                    ^
<stdin>:6:10: error: use of undeclared identifier 'D1'
    6 |   o[2] = D1 + (int)D2;
      |          ^
<stdin>:7:22: error: use of undeclared identifier 'E2'
    7 |   o[3] = E1 + (int4)(E2, E3, 1, 2).x;
      |                      ^
<stdin>:7:26: error: use of undeclared identifier 'E3'
    7 |   o[3] = E1 + (int4)(E2, E3, 1, 2).x;
      |                          ^
<stdin>:7:10: error: use of undeclared identifier 'E1'
    7 |   o[3] = E1 + (int4)(E2, E3, 1, 2).x;
      |          ^
<stdin>:8:10: error: use of undeclared identifier 'F1'
    8 |   o[4] = F1 + F2.x;
      |          ^
<stdin>:8:15: error: use of undeclared identifier 'F2'
    8 |   o[4] = F1 + F2.x;
      |               ^
<stdin>:9:10: error: use of undeclared identifier 'G1'
    9 |   o[5] = G1 + -G2 + !G3;
      |          ^
<stdin>:9:16: error: use of undeclared identifier 'G2'
    9 |   o[5] = G1 + -G2 + !G3;
      |                ^
<stdin>:9:22: error: use of undeclared identifier 'G3'
    9 |   o[5] = G1 + -G2 + !G3;
      |                      ^
<stdin>:10:16: error: use of undeclared identifier 'H2'
   10 |   o[6] = H1 + (H2 = H3);
      |                ^
<stdin>:10:21: error: use of undeclared identifier 'H3'
   10 |   o[6] = H1 + (H2 = H3);
      |                     ^
<stdin>:10:10: error: use of undeclared identifier 'H1'
   10 |   o[6] = H1 + (H2 = H3);
      |          ^
<stdin>:11:23: error: use of undeclared identifier 'I2'
   11 |   o[7] = I1 + (float)(I2) + I3;
      |                       ^
<stdin>:11:10: error: use of undeclared identifier 'I1'
   11 |   o[7] = I1 + (float)(I2) + I3;
      |          ^
<stdin>:11:29: error: use of undeclared identifier 'I3'
   11 |   o[7] = I1 + (float)(I2) + I3;
      |                             ^
<stdin>:12:10: error: use of undeclared identifier 'J1'
   12 |   o[8] = J1 + J2++ + J3;
      |          ^
<stdin>:12:15: error: use of undeclared identifier 'J2'
   12 |   o[8] = J1 + J2++ + J3;
      |               ^
<stdin>:12:22: error: use of undeclared identifier 'J3'
   12 |   o[8] = J1 + J2++ + J3;
      |                      ^
<stdin>:13:10: error: use of undeclared identifier 'K1'
   13 |   o[9] = K1 + fn(K2 + K3, K4) + K5;
      |          ^
<stdin>:13:18: error: use of undeclared identifier 'K2'
   13 |   o[9] = K1 + fn(K2 + K3, K4) + K5;
      |                  ^
<stdin>:13:23: error: use of undeclared identifier 'K3'
   13 |   o[9] = K1 + fn(K2 + K3, K4) + K5;
      |                       ^
<stdin>:13:27: error: use of undeclared identifier 'K4'
   13 |   o[9] = K1 + fn(K2 + K3, K4) + K5;
      |                           ^
<stdin>:13:33: error: use of undeclared identifier 'K5'
   13 |   o[9] = K1 + fn(K2 + K3, K4) + K5;
      |                                 ^
33 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// L: names corrected together get no suggestion when one of them has none.
#[test]
fn delayed_typos_batch_without_correction() {
    let src = r#"struct S { int x; };
void f(global int *o, struct S value, int count) {
  o[0] = valeu.x + A1;
  o[1] = valeu.x + cuont;
  o[2] = (A1) + valeu.x;
  o[3] = cuont + Abc;
  o[4] = cuont + (Abc);
  o[5] = cuont;
}
"#;
    let expected = r#"<stdin>:3:10: error: use of undeclared identifier 'valeu'
    3 |   o[0] = valeu.x + A1;
      |          ^
<stdin>:3:20: error: use of undeclared identifier 'A1'
    3 |   o[0] = valeu.x + A1;
      |                    ^
<stdin>:4:10: error: use of undeclared identifier 'valeu'; did you mean 'value'?
    4 |   o[1] = valeu.x + cuont;
      |          ^~~~~
      |          value
<stdin>:2:32: note: 'value' declared here
    2 | void f(global int *o, struct S value, int count) {
      |                                ^
<stdin>:4:20: error: use of undeclared identifier 'cuont'; did you mean 'count'?
    4 |   o[1] = valeu.x + cuont;
      |                    ^~~~~
      |                    count
<stdin>:2:43: note: 'count' declared here
    2 | void f(global int *o, struct S value, int count) {
      |                                           ^
<stdin>:5:11: error: use of undeclared identifier 'A1'
    5 |   o[2] = (A1) + valeu.x;
      |           ^
<stdin>:5:17: error: use of undeclared identifier 'valeu'; did you mean 'value'?
    5 |   o[2] = (A1) + valeu.x;
      |                 ^~~~~
      |                 value
<stdin>:2:32: note: 'value' declared here
    2 | void f(global int *o, struct S value, int count) {
      |                                ^
<stdin>:6:10: error: use of undeclared identifier 'cuont'
    6 |   o[3] = cuont + Abc;
      |          ^
<stdin>:6:18: error: use of undeclared identifier 'Abc'
    6 |   o[3] = cuont + Abc;
      |                  ^
<stdin>:7:19: error: use of undeclared identifier 'Abc'
    7 |   o[4] = cuont + (Abc);
      |                   ^
<stdin>:7:10: error: use of undeclared identifier 'cuont'; did you mean 'count'?
    7 |   o[4] = cuont + (Abc);
      |          ^~~~~
      |          count
<stdin>:2:43: note: 'count' declared here
    2 | void f(global int *o, struct S value, int count) {
      |                                           ^
<stdin>:8:10: error: use of undeclared identifier 'cuont'; did you mean 'count'?
    8 |   o[5] = cuont;
      |          ^~~~~
      |          count
<stdin>:2:43: note: 'count' declared here
    2 | void f(global int *o, struct S value, int count) {
      |                                           ^
11 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
}

/// H: a block pointer and a block literal in OpenCL C 1.2 (blocks disabled): clang's error at
/// each `^`. (clang goes on with block types and adds "incompatible block pointer types
/// initializing ..." for the initializer; oclc has no block types: the declaration is invalid
/// and silent.)
#[test]
fn blocks_disabled_before_cl20() {
    let src = r#"kernel void k(global int *o) {
  int (^b)(int) = ^(int x) { return x + 1; };
  o[0] = b(1);
}
"#;
    let expected = r#"<stdin>:2:8: error: blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with __opencl_c_device_enqueue feature
    2 |   int (^b)(int) = ^(int x) { return x + 1; };
      |        ^
<stdin>:2:19: error: blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with __opencl_c_device_enqueue feature
    2 |   int (^b)(int) = ^(int x) { return x + 1; };
      |                   ^
2 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
    let (_, out) = check_args(
        &["-cl-std=CL3.0", "-cl-ext=-__opencl_c_device_enqueue"],
        src,
    );
    assert!(
        out.starts_with("<stdin>:2:8: error: blocks support disabled"),
        "{out}"
    );
}

/// X: clang-19's predefined macros that oclc lacked, with clang's values (CL1.2: the C ones
/// and clang's own; CL2.0: opencl-c-base.h's SPIR extension and feature macros, undefined
/// before 2.0).
#[test]
fn predefined_macros_as_clang() {
    let src = r#"#define S_(x) #x
#define XS(x) S_(x)
_Static_assert(0, "__cl_clang_function_pointers=" XS(__cl_clang_function_pointers));
_Static_assert(0, "__cl_clang_variadic_functions=" XS(__cl_clang_variadic_functions));
_Static_assert(0, "__cl_clang_non_portable_kernel_param_types=" XS(__cl_clang_non_portable_kernel_param_types));
_Static_assert(0, "__cl_clang_bitfields=" XS(__cl_clang_bitfields));
_Static_assert(0, "cles_khr_int64=" XS(cles_khr_int64));
_Static_assert(0, "__OPTIMIZE__=" XS(__OPTIMIZE__));
_Static_assert(0, "__FLT_MAX__=" XS(__FLT_MAX__));
_Static_assert(0, "__DBL_EPSILON__=" XS(__DBL_EPSILON__));
_Static_assert(0, "__INT32_TYPE__=" XS(__INT32_TYPE__));
_Static_assert(0, "__UINT64_MAX__=" XS(__UINT64_MAX__));
_Static_assert(0, "__INT_LEAST8_TYPE__=" XS(__INT_LEAST8_TYPE__));
_Static_assert(0, "__SIZE_FMTu__=" XS(__SIZE_FMTu__));
_Static_assert(0, "__BOOL_WIDTH__=" XS(__BOOL_WIDTH__));
_Static_assert(0, "__conv=" XS(__conv));
_Static_assert(0, "__WCHAR_TYPE__=" XS(__WCHAR_TYPE__));
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
_Static_assert(0, "cl_khr_subgroup_rotate=" XS(cl_khr_subgroup_rotate));
_Static_assert(0, "__opencl_c_kernel_clock_scope_device=" XS(__opencl_c_kernel_clock_scope_device));
_Static_assert(0, "__opencl_c_integer_dot_product_input_4x8bit=" XS(__opencl_c_integer_dot_product_input_4x8bit));
_Static_assert(0, "__opencl_c_ext_fp32_global_atomic_add=" XS(__opencl_c_ext_fp32_global_atomic_add));
_Static_assert(0, "CLK_UNSIGNED_INT_RAW10_EXT=" XS(CLK_UNSIGNED_INT_RAW10_EXT));
_Static_assert(0, "cl_khr_srgb_image_writes=" XS(cl_khr_srgb_image_writes));
#else
#ifdef cl_khr_subgroup_rotate
#error cl_khr_subgroup_rotate
#endif
#ifdef __opencl_c_kernel_clock_scope_device
#error __opencl_c_kernel_clock_scope_device
#endif
#ifdef __opencl_c_integer_dot_product_input_4x8bit
#error __opencl_c_integer_dot_product_input_4x8bit
#endif
#ifdef __opencl_c_ext_fp32_global_atomic_add
#error __opencl_c_ext_fp32_global_atomic_add
#endif
#ifdef CLK_UNSIGNED_INT_RAW10_EXT
#error CLK_UNSIGNED_INT_RAW10_EXT
#endif
#ifdef cl_khr_srgb_image_writes
#error cl_khr_srgb_image_writes
#endif
#endif
"#;
    let (code, out) = check_args(&["-cl-std=CL1.2"], src);
    assert_eq!(code, 1);
    assert_eq!(
        error_lines(&out),
        vec![
            r#"<stdin>:3:16: error: static assertion failed: __cl_clang_function_pointers=1"#,
            r#"<stdin>:4:16: error: static assertion failed: __cl_clang_variadic_functions=1"#,
            r#"<stdin>:5:16: error: static assertion failed: __cl_clang_non_portable_kernel_param_types=1"#,
            r#"<stdin>:6:16: error: static assertion failed: __cl_clang_bitfields=1"#,
            r#"<stdin>:7:16: error: static assertion failed: cles_khr_int64=1"#,
            r#"<stdin>:8:16: error: static assertion failed: __OPTIMIZE__=1"#,
            r#"<stdin>:9:16: error: static assertion failed: __FLT_MAX__=3.40282347e+38F"#,
            r#"<stdin>:10:16: error: static assertion failed: __DBL_EPSILON__=2.2204460492503131e-16"#,
            r#"<stdin>:11:16: error: static assertion failed: __INT32_TYPE__=int"#,
            r#"<stdin>:12:16: error: static assertion failed: __UINT64_MAX__=18446744073709551615UL"#,
            r#"<stdin>:13:16: error: static assertion failed: __INT_LEAST8_TYPE__=signed char"#,
            r#"<stdin>:14:16: error: static assertion failed: __SIZE_FMTu__="lu""#,
            r#"<stdin>:15:16: error: static assertion failed: __BOOL_WIDTH__=8"#,
            r#"<stdin>:16:16: error: static assertion failed: __conv=__attribute__((convergent))"#,
            r#"<stdin>:17:16: error: static assertion failed: __WCHAR_TYPE__=int"#,
        ]
    );
    let (code, out) = check_args(&["-cl-std=CL2.0"], src);
    assert_eq!(code, 1);
    assert_eq!(
        error_lines(&out),
        vec![
            r#"<stdin>:3:16: error: static assertion failed: __cl_clang_function_pointers=1"#,
            r#"<stdin>:4:16: error: static assertion failed: __cl_clang_variadic_functions=1"#,
            r#"<stdin>:5:16: error: static assertion failed: __cl_clang_non_portable_kernel_param_types=1"#,
            r#"<stdin>:6:16: error: static assertion failed: __cl_clang_bitfields=1"#,
            r#"<stdin>:7:16: error: static assertion failed: cles_khr_int64=1"#,
            r#"<stdin>:8:16: error: static assertion failed: __OPTIMIZE__=1"#,
            r#"<stdin>:9:16: error: static assertion failed: __FLT_MAX__=3.40282347e+38F"#,
            r#"<stdin>:10:16: error: static assertion failed: __DBL_EPSILON__=2.2204460492503131e-16"#,
            r#"<stdin>:11:16: error: static assertion failed: __INT32_TYPE__=int"#,
            r#"<stdin>:12:16: error: static assertion failed: __UINT64_MAX__=18446744073709551615UL"#,
            r#"<stdin>:13:16: error: static assertion failed: __INT_LEAST8_TYPE__=signed char"#,
            r#"<stdin>:14:16: error: static assertion failed: __SIZE_FMTu__="lu""#,
            r#"<stdin>:15:16: error: static assertion failed: __BOOL_WIDTH__=8"#,
            r#"<stdin>:16:16: error: static assertion failed: __conv=__attribute__((convergent))"#,
            r#"<stdin>:17:16: error: static assertion failed: __WCHAR_TYPE__=int"#,
            r#"<stdin>:19:16: error: static assertion failed: cl_khr_subgroup_rotate=1"#,
            r#"<stdin>:20:16: error: static assertion failed: __opencl_c_kernel_clock_scope_device=1"#,
            r#"<stdin>:21:16: error: static assertion failed: __opencl_c_integer_dot_product_input_4x8bit=1"#,
            r#"<stdin>:22:16: error: static assertion failed: __opencl_c_ext_fp32_global_atomic_add=1"#,
            r#"<stdin>:23:16: error: static assertion failed: CLK_UNSIGNED_INT_RAW10_EXT=0x10E3"#,
            r#"<stdin>:24:16: error: static assertion failed: cl_khr_srgb_image_writes=1"#,
        ]
    );
}

/// W: `clock_read_*` (cl_khr_kernel_clock) and `sub_group_rotate`/`_clustered_rotate`
/// (cl_khr_subgroup_rotate) exist from OpenCL C 2.0 on, as in clang-19's header.
#[test]
fn kernel_clock_and_rotate_declared_from_cl20() {
    let src = r#"kernel void k(global ulong *o, global int *p) {
  o[0] = clock_read_device();
  o[1] = clock_read_work_group() + clock_read_sub_group();
  uint2 h = clock_read_hilo_device() + clock_read_hilo_work_group() + clock_read_hilo_sub_group();
  o[2] = h.x;
  p[0] = sub_group_rotate(p[1], 1) + sub_group_clustered_rotate(p[2], 1, 2u);
#ifdef cl_khr_subgroup_rotate
  p[3] = 1;
#endif
}
"#;
    let expected = r#"<stdin>:2:10: error: use of undeclared identifier 'clock_read_device'
    2 |   o[0] = clock_read_device();
      |          ^
<stdin>:3:10: error: use of undeclared identifier 'clock_read_work_group'
    3 |   o[1] = clock_read_work_group() + clock_read_sub_group();
      |          ^
<stdin>:3:36: error: use of undeclared identifier 'clock_read_sub_group'
    3 |   o[1] = clock_read_work_group() + clock_read_sub_group();
      |                                    ^
<stdin>:4:13: error: use of undeclared identifier 'clock_read_hilo_device'
    4 |   uint2 h = clock_read_hilo_device() + clock_read_hilo_work_group() + clock_read_hilo_sub_group();
      |             ^
<stdin>:4:40: error: use of undeclared identifier 'clock_read_hilo_work_group'
    4 |   uint2 h = clock_read_hilo_device() + clock_read_hilo_work_group() + clock_read_hilo_sub_group();
      |                                        ^
<stdin>:4:71: error: use of undeclared identifier 'clock_read_hilo_sub_group'
    4 |   uint2 h = clock_read_hilo_device() + clock_read_hilo_work_group() + clock_read_hilo_sub_group();
      |                                                                       ^
<stdin>:6:10: error: use of undeclared identifier 'sub_group_rotate'
    6 |   p[0] = sub_group_rotate(p[1], 1) + sub_group_clustered_rotate(p[2], 1, 2u);
      |          ^
<stdin>:6:38: error: use of undeclared identifier 'sub_group_clustered_rotate'
    6 |   p[0] = sub_group_rotate(p[1], 1) + sub_group_clustered_rotate(p[2], 1, 2u);
      |                                      ^
8 errors generated.
"#;
    assert_eq!(check(src), (1, expected.to_string()));
    assert_eq!(check_args(&["-cl-std=CL2.0"], src), (0, String::new()));
    assert_eq!(check_args(&["-cl-std=CL3.0"], src), (0, String::new()));
}

/// W: on the cpu device the clock reads grow monotonically; the hilo form is the same
/// counter split in 32-bit halves.
#[test]
fn kernel_clock_runs_monotonic() {
    let src = r"kernel void k(global uint *o) {
  ulong a = clock_read_device();
  ulong b = clock_read_work_group();
  uint2 h = clock_read_hilo_sub_group();
  ulong c = clock_read_sub_group();
  ulong hv = ((ulong)h.y << 32) | h.x;
  o[0] = b > a;
  o[1] = hv > b && c > hv;
  o[2] = a > 0;
}";
    let p = Program::build(src, "-cl-std=CL2.0").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let buf = d.buffer_from_slice(&[7u32; 3]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &buf).expect("arg");
    d.launch(&k, &NdRange::new(&[4])).expect("launch");
    assert_eq!(buf.read::<u32>().expect("read"), vec![1, 1, 1]);
}

/// U: "In file included from" lines before a diagnostic in an included file (outermost
/// first, again when the include site changes, not for notes), a header included a second
/// time reported at its second `#include`.
#[test]
fn include_stack_lines() {
    let dir = std::env::temp_dir().join(format!("oclc-rw-diag-inc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc")).expect("dir");
    std::fs::write(
        dir.join("inc/a.h"),
        r#"int bad1 = ;
#include "b.h"
"#,
    )
    .expect("a.h");
    std::fs::write(
        dir.join("inc/b.h"),
        r#"void g(void) { undefined_b(); }
"#,
    )
    .expect("b.h");
    std::fs::write(
        dir.join("inc/m.h"),
        r#"#define M(x) (x + zz)
"#,
    )
    .expect("m.h");
    let main = dir.join("main.cl");
    std::fs::write(
        &main,
        r#"#include "inc/a.h"
#include "inc/m.h"
kernel void k(global int *o) { o[0] = M(1); o[1] = qq; }
#include "inc/b.h"
"#,
    )
    .expect("main");
    let args = vec![
        "-triple".to_string(),
        "spir64-unknown-unknown".to_string(),
        main.to_string_lossy().into_owned(),
    ];
    let out = check_command(args, &mut &b""[..]);
    let d = dir.to_string_lossy().into_owned();
    let got = out.stderr.replace(&format!("{d}/"), "DIR/");
    let expected = r#"In file included from DIR/main.cl:1:
DIR/inc/a.h:1:5: error: program scope variable must reside in constant address space
    1 | int bad1 = ;
      |     ^
DIR/inc/a.h:1:12: error: expected expression
    1 | int bad1 = ;
      |            ^
In file included from DIR/main.cl:1:
In file included from DIR/inc/a.h:2:
DIR/inc/b.h:1:16: error: use of undeclared identifier 'undefined_b'
    1 | void g(void) { undefined_b(); }
      |                ^
DIR/main.cl:3:39: error: use of undeclared identifier 'zz'
    3 | kernel void k(global int *o) { o[0] = M(1); o[1] = qq; }
      |                                       ^
DIR/inc/m.h:1:19: note: expanded from macro 'M'
    1 | #define M(x) (x + zz)
      |                   ^
DIR/main.cl:3:52: error: use of undeclared identifier 'qq'
    3 | kernel void k(global int *o) { o[0] = M(1); o[1] = qq; }
      |                                                    ^
In file included from DIR/main.cl:4:
DIR/inc/b.h:1:6: error: redefinition of 'g'
    1 | void g(void) { undefined_b(); }
      |      ^
DIR/inc/b.h:1:6: note: previous definition is here
    1 | void g(void) { undefined_b(); }
      |      ^
In file included from DIR/main.cl:4:
DIR/inc/b.h:1:16: error: use of undeclared identifier 'undefined_b'
    1 | void g(void) { undefined_b(); }
      |                ^
7 errors generated.
"#;
    assert_eq!(got, expected);
    let _ = std::fs::remove_dir_all(&dir);
}
