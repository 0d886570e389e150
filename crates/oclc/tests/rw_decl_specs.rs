//! Declaration specifiers as clang's parser and `DeclSpec` see them: the names in "cannot
//! combine", `pipe` after a type, declarations without declarators, redefinitions with another
//! type. Each case's diagnostics are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir-unknown-unknown -finclude-default-header -fsyntax-only
//! -cl-std=CL2.0 -` on the same source.

#[path = "../../../test-support/stdin_check.rs"]
mod stdin_check;
use stdin_check::assert_clang_with;

/// Asserts oclc's diagnostics for `src` under `-cl-std=CL2.0` are clang's `want`.
fn assert_clang(name: &str, src: &str, want: &[&str]) {
    assert_clang_with(name, &["-cl-std=CL2.0"], src.as_bytes(), want);
}

/// A type specifier after a typedef name, an OpenCL type (`float4`, `sampler_t`, `event_t`) or `pipe` "cannot combine" with clang's 'type-name'; an image type keeps its keyword's name.
#[test]
fn typedef_names_print_as_type_name() {
    assert_clang(
        "typedef_names_print_as_type_name 0",
        r#"typedef int T;
kernel void k(global int *o) { T int x; float4 int y; T pipe z; struct S {int a;} pipe w; o[0]=1; }
"#,
        &[
            "<stdin>:2:34: error: cannot combine with previous 'type-name' declaration specifier",
            "<stdin>:2:48: error: cannot combine with previous 'type-name' declaration specifier",
            "<stdin>:2:57: error: cannot combine with previous 'type-name' declaration specifier",
            "<stdin>:2:82: error: expected ';' after struct",
            "<stdin>:2:88: error: missing actual type specifier for pipe",
        ],
    );
    assert_clang(
        "typedef_names_print_as_type_name 1",
        r#"kernel void k(global int *o) { image2d_t int a; sampler_t int b; event_t int c; o[0]=1; }
"#,
        &[
            "<stdin>:1:42: error: cannot combine with previous 'image2d_t' declaration specifier",
            "<stdin>:1:46: error: type '__private __read_only image2d_t' can only be used as a function parameter in OpenCL",
            "<stdin>:1:59: error: cannot combine with previous 'type-name' declaration specifier",
            "<stdin>:1:74: error: cannot combine with previous 'type-name' declaration specifier",
        ],
    );
}

/// A block-scope variable redeclared with another type names both types.
#[test]
fn redefinition_with_a_different_type() {
    assert_clang(
        "redefinition_with_a_different_type 0",
        r#"typedef float F;
kernel void k(global int *o) { long F x; unsigned F y; long float4 z; unsigned sampler_t s; o[0]=1; }
"#,
        &[
            "<stdin>:2:38: error: expected ';' at end of declaration",
            "<stdin>:2:51: error: redefinition of 'F' with a different type: '__private unsigned int' vs '__private long'",
            "<stdin>:2:37: note: previous definition is here",
            "<stdin>:2:52: error: expected ';' at end of declaration",
            "<stdin>:2:67: error: expected ';' at end of declaration",
            "<stdin>:2:89: error: expected ';' at end of declaration",
        ],
    );
}

/// clang's `ParsedFreeStandingDeclSpec`: a declaration of nothing warns, a named tag or an enumeration does not, a typedef without a name "requires a name".
#[test]
fn declarations_without_declarators() {
    assert_clang(
        "declarations_without_declarators 0",
        r#"int;
struct S;
struct T { int a; };
struct { int b; };
enum E { A };
typedef int;
const int;
__global int;
unsigned;
float4;
union { int c; };
kernel void k(global int *o) { int; struct { int d; }; struct S2; o[0] = 1; }
"#,
        &[
            "<stdin>:1:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:4:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:6:1: warning: typedef requires a name [-Wmissing-declarations]",
            "<stdin>:7:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:8:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:9:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:10:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:11:1: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:12:32: warning: declaration does not declare anything [-Wmissing-declarations]",
            "<stdin>:12:37: warning: declaration does not declare anything [-Wmissing-declarations]",
        ],
    );
    assert_clang(
        "declarations_without_declarators 1",
        r#"typedef struct S {int a;};
typedef struct {int a;};
typedef enum {Q} ;
"#,
        &[
            "<stdin>:1:1: warning: typedef requires a name [-Wmissing-declarations]",
            "<stdin>:2:1: warning: typedef requires a name [-Wmissing-declarations]",
            "<stdin>:3:1: warning: typedef requires a name [-Wmissing-declarations]",
        ],
    );
}

/// clspv's tests: a definition's unnamed parameter is a C23 extension clang warns of by default, at the place the name would be (`float (*)(int)`: the `)`); `(void)` and declarations are fine.
#[test]
fn omitted_parameter_names() {
    assert_clang(
        "omitted_parameter_names",
        r#"float f(float, int *) { return 0.f; }
void g(void) {}
void h(int a, float (*)(int)) {}
void d(int, float);
kernel void k0(int v, local int *, global int* b) {}
int m(int x[], int [3]) { return 0; }
"#,
        &[
            "<stdin>:1:14: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
            "<stdin>:1:21: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
            "<stdin>:3:22: error: pointers to functions are not allowed",
            "<stdin>:3:23: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
            "<stdin>:5:34: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
            "<stdin>:6:20: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
        ],
    );
}

/// "pointers to functions are not allowed" is at the `*`, named or not.
#[test]
fn function_pointers_reported_at_the_star() {
    assert_clang(
        "function_pointers_reported_at_the_star",
        r#"void h(int a, float (*fp)(int)) {}
void h2(int a, float (*)(int));
void h3(int a, float (  *  )(int)) {}
kernel void k(global int *o) { int (*q)(int); }
"#,
        &[
            "<stdin>:1:22: error: pointers to functions are not allowed",
            "<stdin>:2:23: error: pointers to functions are not allowed",
            "<stdin>:3:25: error: pointers to functions are not allowed",
            "<stdin>:3:28: warning: omitting the parameter name in a function definition is a C23 extension [-Wc23-extensions]",
            "<stdin>:4:37: error: pointers to functions are not allowed",
        ],
    );
}

/// clspv's pipe tests under OpenCL C 1.2: `pipe` is a keyword clang turns back into an
/// identifier the first time declaration specifiers meet it, ending them (`const pipe int x`
/// declares an implicit-int `pipe`); afterwards it is an ordinary name.
#[test]
fn pipe_is_a_name_before_opencl_2() {
    assert_clang_with(
        "pipe_is_a_name_before_opencl_2",
        &["-cl-std=CL1.2"],
        b"void g(const pipe int x) {}\nkernel void k(global int *o) { int pipe = 3; o[0] = pipe; }\n",
        &[
            "<stdin>:1:14: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:1:19: error: expected ')'",
            "<stdin>:1:7: note: to match this '('",
        ],
    );
}
