//! Repros from a fifth real-world round (OpenCV's modules, darktable, BVLC caffe's greentea
//! kernels, MIOpen, gpuowl, clBLAS, PolyBench-ACC, Hetero-Mark, OpenDwarfs, cgminer): each
//! case's diagnostics (location, severity, text and group) are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -`
//! on the same source.

#[path = "../../../test-support/stdin_check.rs"]
mod stdin_check;
use stdin_check::{assert_clang_with, diagnostics_with};

/// Asserts oclc's diagnostics for `src` are clang's `want`.
fn assert_clang(name: &str, src: &[u8], want: &[&str]) {
    assert_clang_with(name, &[], src, want);
}

/// caffe's `void TEMPLATE(matvec_mul, Dtype)(params) {...}` without its macro: a function
/// with a K&R identifier list returning a function. clang reports the undeclared identifiers
/// last to first as it reaches the body (after the parser's errors in the parameter list),
/// then the function returning a function (at its `(`, the parameters' unknown type as
/// `int`), and warns of the missing prototype as it finishes the body.
#[test]
fn kr_list_returning_function() {
    let src = b"void T(a,b)(Foo M, float q)
{
  int r = M;
  undeclared_x;
}
int V(a)[3] {}
int W(a, b) int a; { return a; }
void D(a,b)(int M, float q);
";
    assert_clang(
        "kr_list_returning_function",
        src,
        &[
            "<stdin>:1:13: error: unknown type name 'Foo'",
            "<stdin>:1:10: error: parameter 'b' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:1:8: error: parameter 'a' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:1:7: error: function cannot return function type 'void (__private int, __private float)'",
            "<stdin>:3:11: error: use of undeclared identifier 'M'",
            "<stdin>:4:3: error: use of undeclared identifier 'undeclared_x'",
            "<stdin>:1:6: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:6:7: error: parameter 'a' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:6:6: error: function cannot return array type 'int[3]'",
            "<stdin>:6:5: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:7:10: error: parameter 'b' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:7:5: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:8:7: error: function cannot return function type 'void (__private int, __private float)'",
            "<stdin>:8:8: error: a parameter list without types is only allowed in a function definition",
        ],
    );
}

/// clDNN's kernels without their host's `-D` flags: `KERNEL(name)(params)` is a K&R list
/// returning a function. clang parses the attributes' arguments (with their undeclared names)
/// with the declaration specifiers, reports the missing type specifier as the definition
/// starts at its `{` (after the K&R list's check), warns of an unknown attribute once the
/// declarator is parsed, and prints the returned function type with its `aka`.
#[test]
fn kernel_macro_without_flags() {
    let src = b"__attribute__((intel_reqd_sub_group_size(SGS)))
__attribute__((reqd_work_group_size(LWS, 1, 1)))
__attribute__((foo(1)))
KERNEL(conv)(const __global UNIT_TYPE* input, uint split)
{
}
KERNEL(plain)(__global float* out) __attribute__((reqd_work_group_size(R1, 1, 1)))
{
  out[0] = 1;
}
";
    assert_clang(
        "kernel_macro_without_flags",
        src,
        &[
            "<stdin>:1:42: error: use of undeclared identifier 'SGS'",
            "<stdin>:2:37: error: use of undeclared identifier 'LWS'",
            "<stdin>:4:29: error: unknown type name 'UNIT_TYPE'",
            "<stdin>:4:8: error: parameter 'conv' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:4:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:4:7: error: function cannot return function type 'int (const __global int *__private, __private uint)' (aka 'int (const __global int *__private, __private unsigned int)')",
            "<stdin>:3:16: warning: unknown attribute 'foo' ignored [-Wunknown-attributes]",
            "<stdin>:4:1: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:7:72: error: use of undeclared identifier 'R1'",
            "<stdin>:7:8: error: parameter 'plain' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:7:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:7:7: error: function cannot return function type 'int (__global float *__private)'",
            "<stdin>:9:3: error: use of undeclared identifier 'out'",
            "<stdin>:7:1: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
        ],
    );
}

/// clDNN's `get_raw(__global neural_memory *)` next to `get_raw(const __global
/// neural_memory *)`: for a non-const argument the first is better (the second adds a
/// qualifier), as clang ranks overloads; overloads better for different arguments stay
/// ambiguous.
#[test]
fn overload_prefers_fewer_added_qualifiers() {
    let src = b"typedef struct { unsigned n; unsigned data[1]; } mem_t;
__attribute__((overloadable)) __global unsigned* get_raw(__global mem_t* m) { return &m->data[0]; }
__attribute__((overloadable)) const __global unsigned* get_raw(const __global mem_t* m) { return &m->data[0]; }
__attribute__((overloadable)) void g(__global int *p, const __global int *q) {}
__attribute__((overloadable)) void g(const __global int *p, __global int *q) {}
kernel void k(__global mem_t* m, const __global mem_t* c, __global int *p) {
  __global unsigned *a = get_raw(m);
  const __global unsigned *b = get_raw(c);
  g(p, p);
}
";
    assert_clang(
        "overload_prefers_fewer_added_qualifiers",
        src,
        &[
            "<stdin>:9:3: error: call to 'g' is ambiguous",
            "<stdin>:4:36: note: candidate function",
            "<stdin>:5:36: note: candidate function",
        ],
    );
}

/// caffe's `Dtype4 dot[3] = ...` where `Dtype4` is unknown declares nothing, so later uses
/// of `dot` name opencl-c.h's overload set: as an operand (a condition, a subscript, a cast
/// to void, a comparison) clang cannot resolve it (recorded with `-finclude-default-header`).
#[test]
fn overloaded_builtin_used_as_a_value() {
    let src = b"kernel void k(global float4 *p) {
  int a = 0;
  if (max) a = 1;
  a += dot[3];
  (void)max;
  for (int i = 0; i < max; i++) {}
}
";
    let msg =
        "error: reference to overloaded function could not be resolved; did you mean to call it?";
    let want: Vec<String> = ["3:7", "4:8", "5:9", "6:23"]
        .iter()
        .map(|at| format!("<stdin>:{at}: {msg}"))
        .collect();
    assert_eq!(
        diagnostics_with(&["-finclude-default-header"], src),
        want,
        "with the default header, oclc's diagnostics differ from clang-19's"
    );
    // Without it clang declares no library builtins: the names are undeclared.
    assert_eq!(
        diagnostics_with(&[], b"kernel void k(void) { int a = 0; if (max) a = 1; }\n"),
        ["<stdin>:1:38: error: use of undeclared identifier 'max'"]
    );
}
