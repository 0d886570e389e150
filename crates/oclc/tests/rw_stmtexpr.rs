//! Issue 13, GNU statement expressions (cause 7) and the other front-end features of the
//! `h-stmtexpr` task: each check output is compared with clang-19's exact text (`-cc1 -triple
//! spir64-unknown-unknown -finclude-default-header -fsyntax-only`); what runs is run on the
//! cpu device, and what builds is built to PTX.

use oclc::cli::check_command;
use oclc::{Device, NdRange, Program};

/// `oclc check` on `src` (as `<stdin>`) with `flags`, returning exit code and stderr.
fn check_with(flags: &[&str], src: &str) -> (i32, String) {
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    args.push("-".to_string());
    let out = check_command(args, &mut src.as_bytes());
    (out.code, out.stderr)
}

fn check(src: &str) -> (i32, String) {
    check_with(&[], src)
}

#[path = "../../../test-support/run_once.rs"]
mod run_once;

/// [`run_once::run_once`] with i32 buffers.
fn run_i32(src: &str, bufs: &[Vec<i32>]) -> Vec<Vec<i32>> {
    run_once::run_once(src, bufs)
}

/// PTX for `src`, or the build error.
fn ptx(src: &str) -> Result<String, String> {
    let p = Program::build(src, "").map_err(|e| e.to_string())?;
    p.ptx_text("sm_80", false).map_err(|e| e.to_string())
}

// ---- cause 7: statement expressions ----

/// A kernel using statement expressions in most places clang allows them.
const RUN_SRC: &str = "#define INC(x) ({ int _t = (x); _t + 1; })\n\
    #define MAX(a, b) ({ int _a = (a), _b = (b); _a > _b ? _a : _b; })\n\
    typedef struct { int a; float b; } S;\n\
    int twice(int x) { return ({ int y = x; y * 2; }); }\n\
    kernel void k(global int *o) {\n\
      o[0] = ({ int y = o[1]; y + 1; });\n\
      o[2] = INC(o[3]);\n\
      o[4] = MAX(o[5], o[6]);\n\
      int acc = 0;\n\
      for (int i = 0; i < 10; i++) {\n\
        acc += ({ if (i == 3) continue; if (i == 6) break; i * 10; });\n\
      }\n\
      o[7] = acc;\n\
      S s = ({ S t = {3, 4.0f}; t.a += 1; t; });\n\
      o[8] = s.a + (int)s.b;\n\
      o[9] = ({ int arr[3] = {7, 8, 9}; arr; })[2];\n\
      o[10] = twice(21);\n\
      float4 v = ({ float4 q = (float4)(1, 2, 3, 4); q * 2; });\n\
      o[11] = (int)v.w;\n\
      int j = 0;\n\
      while (({ j++; j < 5; })) {}\n\
      o[12] = j;\n\
      int w = 0;\n\
      for (int i = 0; ({ if (i > 7) break; 1; }); i++) w++;\n\
      o[13] = w;\n\
      ({ o[14] = 99; });\n\
      int n = 0;\n\
      do { n++; } while (({ if (n >= 4) break; 1; }));\n\
      o[15] = n;\n\
      o[16] = ({ goto skip; 5; });\n\
    skip:\n\
      o[17] = ({ int z = 0; for (int q = 0; q < 4; q++) z += q; z; });\n\
      int sh = 1;\n\
      o[18] = ({ int sh = 40; sh + 2; }) + sh;\n\
      o[19] = ({ int c = 0; switch (o[1]) { case 41: c = 7; break; default: c = 8; } c; });\n\
    }\n";

#[test]
fn statement_expressions_check_clean() {
    assert_eq!(check(RUN_SRC), (0, String::new()));
}

#[test]
fn statement_expressions_run_on_the_cpu_device() {
    let mut o = vec![0i32; 20];
    o[1] = 41;
    o[3] = 9;
    o[5] = -4;
    o[6] = 12;
    o[16] = -1;
    let out = run_i32(RUN_SRC, &[o]);
    let r = &out[0];
    assert_eq!(r[0], 42);
    assert_eq!(r[2], 10);
    assert_eq!(r[4], 12);
    // 0 + 10 + 20, then 3 is skipped, 40 + 50, and the loop stops at 6.
    assert_eq!(r[7], 120);
    assert_eq!(r[8], 8);
    assert_eq!(r[9], 9);
    assert_eq!(r[10], 42);
    assert_eq!(r[11], 8);
    assert_eq!(r[12], 5);
    // The `break` in the condition ends this loop (clang binds it to the current loop).
    assert_eq!(r[13], 8);
    assert_eq!(r[14], 99);
    assert_eq!(r[15], 4);
    // `goto` out of a statement expression: the store never happens.
    assert_eq!(r[16], -1);
    assert_eq!(r[17], 6);
    assert_eq!(r[18], 43);
    assert_eq!(r[19], 7);
}

#[test]
fn statement_expressions_build_to_ptx() {
    let text = ptx(RUN_SRC).expect("ptx");
    assert!(text.contains(".entry k"), "{text}");
}

#[test]
fn statement_expression_type_and_value_errors_match_clang() {
    let src = "kernel void k(global int *o) {\n\
        int v = ({ });\n\
        o[4] = ({ if (o[0]) 5; });\n\
        ({ int z = 1; z; }) = 3;\n\
        int *p = &({ int z = 1; z; });\n\
        }\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    for line in [
        "<stdin>:2:5: error: initializing '__private int' with an expression of incompatible type 'void'\n",
        "<stdin>:3:6: error: assigning to '__global int' from incompatible type 'void'\n",
        "<stdin>:3:21: warning: expression result unused [-Wunused-value]\n",
        "<stdin>:4:21: error: expression is not assignable\n",
        "<stdin>:5:10: error: cannot take the address of an rvalue of type 'int'\n",
        "1 warning and 4 errors generated.",
    ] {
        assert!(err.contains(line), "missing {line:?} in\n{err}");
    }
}

#[test]
fn unused_statement_expression_warns_at_its_last_expression() {
    let src = "kernel void k(global int *o) {\n\
        ({ 1; });\n\
        ({ o; });\n\
        ({ (void)0; });\n\
        ({ int w = 2; w += 1; });\n\
        (void)({ 3; });\n\
        for (({ 4; }); o[0]; ({ 5; })) {}\n\
        }\n";
    let expected = "<stdin>:2:4: warning: expression result unused [-Wunused-value]\n\
        \x20   2 | ({ 1; });\n\
        \x20     |    ^\n\
        <stdin>:3:4: warning: expression result unused [-Wunused-value]\n\
        \x20   3 | ({ o; });\n\
        \x20     |    ^\n\
        <stdin>:7:9: warning: expression result unused [-Wunused-value]\n\
        \x20   7 | for (({ 4; }); o[0]; ({ 5; })) {}\n\
        \x20     |         ^\n\
        <stdin>:7:25: warning: expression result unused [-Wunused-value]\n\
        \x20   7 | for (({ 4; }); o[0]; ({ 5; })) {}\n\
        \x20     |                         ^\n\
        4 warnings generated.\n";
    assert_eq!(check(src), (0, expected.to_string()));
}

#[test]
fn statement_expression_at_file_scope_is_an_error() {
    let src = "constant int g = ({ 1; });\n\
        kernel void k(global int *o) { o[0] = g; }\n";
    let expected = "<stdin>:1:18: error: statement expression not allowed at file scope\n\
        \x20   1 | constant int g = ({ 1; });\n\
        \x20     |                  ^\n\
        1 error generated.\n";
    assert_eq!(check(src), (1, expected.to_string()));
}

#[test]
fn pedantic_statement_expression_extension_warnings() {
    let src = "#define SE(x) ({ x; })\n\
        kernel void k(global int *o) { o[0] = ({ 1; }); o[1] = SE(2); }\n";
    let (code, err) = check_with(&["-pedantic"], src);
    assert_eq!(code, 0);
    assert!(
        err.contains(
            "<stdin>:2:40: warning: use of GNU statement expression extension [-Wgnu-statement-expression]\n"
        ),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:2:56: warning: use of GNU statement expression extension from macro expansion [-Wgnu-statement-expression-from-macro-expansion]\n"),
        "{err}"
    );
    assert_eq!(check(src), (0, String::new()));
}

#[test]
fn jumps_into_statement_expressions_are_errors() {
    let src = "kernel void k(global int *o) {\n\
        \x20 switch (o[0]) {\n\
        \x20   case 0: ({ case 1: 2; });\n\
        \x20 }\n\
        \x20 int t = ({ goto out; 1; });\n\
        \x20 ({ inner: 1; });\n\
        \x20 goto inner;\n\
        out:\n\
        \x20 ({ break; });\n\
        }\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    let expected_errors = "<stdin>:9:6: error: 'break' statement not in loop or switch statement\n\
        \x20   9 |   ({ break; });\n\
        \x20     |      ^\n\
        <stdin>:7:3: error: cannot jump from this goto statement to its label\n\
        \x20   7 |   goto inner;\n\
        \x20     |   ^\n\
        <stdin>:6:3: note: jump enters a statement expression\n\
        \x20   6 |   ({ inner: 1; });\n\
        \x20     |   ^\n\
        <stdin>:3:16: error: cannot jump from switch statement to this case label\n\
        \x20   3 |     case 0: ({ case 1: 2; });\n\
        \x20     |                ^\n\
        <stdin>:3:13: note: jump enters a statement expression\n\
        \x20   3 |     case 0: ({ case 1: 2; });\n\
        \x20     |             ^\n";
    assert!(err.contains(expected_errors), "{err}");
    // The `case 1: 2;` ending a statement expression is its result for clang: not "unused".
    assert!(!err.contains("<stdin>:3:24"), "{err}");
    assert!(
        err.ends_with("1 warning and 3 errors generated.\n"),
        "{err}"
    );
}

#[test]
fn loop_control_in_a_loop_condition_binds_to_that_loop() {
    let src = "kernel void k(global int *o) {\n\
        \x20 for (;;) {\n\
        \x20   for (int i = 0; i < ({ if (o[0]) break; 3; }); i++) {}\n\
        \x20   while (({ if (o[0]) continue; 1; })) {}\n\
        \x20   do {} while (({ if (o[0]) break; 1; }));\n\
        \x20   for (int i = 0; i < 3; i += ({ if (o[0]) continue; 1; })) {}\n\
        \x20   while (({ switch (o[0]) { case 1: break; } 1; })) {}\n\
        \x20 }\n\
        \x20 switch (o[1]) {\n\
        \x20 case 0:\n\
        \x20   while (({ if (o[0]) break; 1; })) {}\n\
        \x20   o[2] = ({ if (o[0]) break; 1; });\n\
        \x20 }\n\
        \x20 while (({ if (o[0]) break; 1; })) {}\n\
        }\n";
    let (code, err) = check(src);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(
        lines,
        [
            "<stdin>:3:38: warning: 'break' is bound to current loop, GCC binds it to the enclosing loop [-Wgcc-compat]",
            "<stdin>:4:25: warning: 'continue' is bound to current loop, GCC binds it to the enclosing loop [-Wgcc-compat]",
            "<stdin>:5:31: warning: 'break' is bound to current loop, GCC binds it to the enclosing loop [-Wgcc-compat]",
            "<stdin>:6:46: warning: 'continue' is bound to current loop, GCC binds it to the enclosing loop [-Wgcc-compat]",
            "<stdin>:11:25: warning: 'break' is bound to loop, GCC binds it to switch [-Wgcc-compat]",
        ]
    );
}

/// clang-19's exact output for statement expressions split across macro expansions.
#[test]
fn compound_token_split_by_macro_matches_clang() {
    let src = "#define LP (\n\
        #define RP )\n\
        #define BLK(b) (b)\n\
        #define SE(x) ({ x; })\n\
        #define ID(x) x\n\
        kernel void k(global int *o) {\n\
        \x20 o[0] = BLK({ int y = o[1]; y + 1; });\n\
        \x20 o[1] = LP{ 2; }RP;\n\
        \x20 o[2] = SE(3) + ID(({ 4; }));\n\
        }\n";
    let expected = "\
<stdin>:7:10: warning: '(' and '{' tokens introducing statement expression appear in different macro expansion contexts [-Wcompound-token-split-by-macro]
    7 |   o[0] = BLK({ int y = o[1]; y + 1; });
      |          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
<stdin>:3:16: note: expanded from macro 'BLK'
    3 | #define BLK(b) (b)
      |                ^
<stdin>:7:14: note: '{' token is here
    7 |   o[0] = BLK({ int y = o[1]; y + 1; });
      |              ^
<stdin>:3:17: note: expanded from macro 'BLK'
    3 | #define BLK(b) (b)
      |                 ^
<stdin>:7:37: warning: '}' and ')' tokens terminating statement expression appear in different macro expansion contexts [-Wcompound-token-split-by-macro]
    7 |   o[0] = BLK({ int y = o[1]; y + 1; });
      |                                     ^
<stdin>:3:17: note: expanded from macro 'BLK'
    3 | #define BLK(b) (b)
      |                 ^
<stdin>:7:10: note: ')' token is here
    7 |   o[0] = BLK({ int y = o[1]; y + 1; });
      |          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
<stdin>:3:18: note: expanded from macro 'BLK'
    3 | #define BLK(b) (b)
      |                  ^
<stdin>:8:10: warning: '(' and '{' tokens introducing statement expression appear in different macro expansion contexts [-Wcompound-token-split-by-macro]
    8 |   o[1] = LP{ 2; }RP;
      |          ^~
<stdin>:1:12: note: expanded from macro 'LP'
    1 | #define LP (
      |            ^
<stdin>:8:12: note: '{' token is here
    8 |   o[1] = LP{ 2; }RP;
      |            ^
<stdin>:8:17: warning: '}' and ')' tokens terminating statement expression appear in different macro expansion contexts [-Wcompound-token-split-by-macro]
    8 |   o[1] = LP{ 2; }RP;
      |                 ^
<stdin>:8:18: note: ')' token is here
    8 |   o[1] = LP{ 2; }RP;
      |                  ^~
<stdin>:2:12: note: expanded from macro 'RP'
    2 | #define RP )
      |            ^
4 warnings generated.
";
    assert_eq!(check(src), (0, expected.to_string()));
    // The values are the same as without the macros.
    let out = run_i32(src, &[vec![0, 5, 0]]);
    assert_eq!(out[0], vec![6, 2, 7]);
    // `-Wno-compound-token-split` silences them.
    assert_eq!(
        check_with(&["-Wno-compound-token-split"], src),
        (0, String::new())
    );
}

// ---- `cl_clang_storage_class_specifiers` ----

/// The error lines (`FILE:L:C: error: ...`) of a check output.
fn error_lines(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .collect()
}

/// Storage classes switched on and off by the pragma (clang-19's errors, per OpenCL C version).
const STORAGE_SRC: &str = "#pragma OPENCL EXTENSION cl_clang_storage_class_specifiers : enable\n\
    void f(void) { register int r = 1; auto int a = 2; }\n\
    kernel void k(global int *o) { static constant int z = 4; o[0] = z; register int q = 3; o[1] = q; }\n\
    #pragma OPENCL EXTENSION cl_clang_storage_class_specifiers : disable\n\
    void g(void) { register int r2 = 1; static constant int y = 2; }\n";

#[test]
fn storage_class_pragma_enables_storage_classes_until_disabled() {
    let (_, err) = check_with(&["-cl-std=CL1.1"], STORAGE_SRC);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:5:16: error: OpenCL C version 1.1 does not support the 'register' storage class specifier",
            "<stdin>:5:37: error: OpenCL C version 1.1 does not support the 'static' storage class specifier",
            "<stdin>:5:57: error: non-kernel function variable cannot be declared in constant address space",
        ]
    );
    let (_, err) = check_with(&["-cl-std=CL1.2"], STORAGE_SRC);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:5:16: error: OpenCL C version 1.2 does not support the 'register' storage class specifier",
            "<stdin>:5:57: error: variables in function scope cannot be declared static",
        ]
    );
    for std in ["-cl-std=CL2.0", "-cl-std=CL3.0"] {
        let (_, err) = check_with(&[std], STORAGE_SRC);
        assert_eq!(error_lines(&err).len(), 1, "{err}");
        assert!(
            err.contains("5:16: error: OpenCL C version ") && err.contains("'register'"),
            "{err}"
        );
    }
}

#[test]
fn storage_class_pragma_rules_for_globals_parameters_and_static_locals() {
    let src = "#pragma OPENCL EXTENSION cl_clang_storage_class_specifiers : enable\n\
        register int gr;\n\
        auto constant int ga = 1;\n\
        static void sf(void) {}\n\
        extern void ef(void);\n\
        void f(register int p, auto int q) { static int sl; }\n\
        kernel void k(global int *o) { extern constant int ec; static local int sl2; }\n";
    let (_, err) = check_with(&["-cl-std=CL1.2"], src);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:2:14: error: illegal storage class on file-scoped variable",
            "<stdin>:3:19: error: illegal storage class on file-scoped variable",
            "<stdin>:6:24: error: invalid storage class specifier in function declarator",
            "<stdin>:6:49: error: static local variable must reside in constant address space",
            "<stdin>:7:73: error: static local variable must reside in constant address space",
        ]
    );
    let (_, err) = check_with(&["-cl-std=CL2.0"], src);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:2:14: error: illegal storage class on file-scoped variable",
            "<stdin>:3:19: error: illegal storage class on file-scoped variable",
            "<stdin>:6:24: error: invalid storage class specifier in function declarator",
            "<stdin>:7:73: error: static local variable must reside in global or constant address space",
        ]
    );
}

#[test]
fn storage_class_pragma_static_constant_locals_run() {
    let src = "#pragma OPENCL EXTENSION cl_clang_storage_class_specifiers : enable\n\
        int helper(int x) { static constant int tbl[4] = {10, 20, 30, 40}; register int r = tbl[x & 3]; return r + 1; }\n\
        kernel void k(global int *o) { static constant int z = 4; auto int a = 5; o[0] = z + a; o[1] = helper(2); }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_i32(src, &[vec![0, 0]]);
    assert_eq!(out[0], vec![9, 31]);
    ptx(src).expect("ptx");
}

// ---- user functions named like builtins ----

#[test]
fn redeclaring_a_builtin_needs_overloadable_as_in_clang() {
    // clang's notes point into opencl-c.h; oclc has no header text, so they have no location.
    let src = "float dot(float4 a, float4 b) { return a.x * b.x; }\n\
        int mad24(int a, int b, int c) { return a * b + c + 1; }\n\
        static float4 normalize(float4 v) { return v; }\n\
        float fma2(float a) { return a; }\n\
        int abs(int x) { return x; }\n\
        float fract(float x, float *p) { return x; }\n\
        __attribute__((overloadable)) int clz(int x) { return x; }\n";
    let expected = "<stdin>:1:7: error: redeclaration of 'dot' must have the 'overloadable' attribute\n\
        \x20   1 | float dot(float4 a, float4 b) { return a.x * b.x; }\n\
        \x20     |       ^\n\
        note: previous overload of function is here\n\
        <stdin>:2:5: error: redeclaration of 'mad24' must have the 'overloadable' attribute\n\
        \x20   2 | int mad24(int a, int b, int c) { return a * b + c + 1; }\n\
        \x20     |     ^\n\
        note: previous overload of function is here\n\
        <stdin>:3:15: error: static declaration of 'normalize' follows non-static declaration\n\
        \x20   3 | static float4 normalize(float4 v) { return v; }\n\
        \x20     |               ^\n\
        note: previous declaration is here\n\
        <stdin>:5:5: error: redeclaration of 'abs' must have the 'overloadable' attribute\n\
        \x20   5 | int abs(int x) { return x; }\n\
        \x20     |     ^\n\
        note: previous overload of function is here\n\
        <stdin>:5:5: error: conflicting types for 'abs'\n\
        \x20   5 | int abs(int x) { return x; }\n\
        \x20     |     ^\n\
        note: previous declaration is here\n\
        <stdin>:6:7: error: redeclaration of 'fract' must have the 'overloadable' attribute\n\
        \x20   6 | float fract(float x, float *p) { return x; }\n\
        \x20     |       ^\n\
        note: previous overload of function is here\n\
        6 errors generated.\n";
    assert_eq!(check(src), (1, expected.to_string()));
}

#[test]
fn builtin_name_collisions_match_clang() {
    for (src, want) in [
        (
            "int max(int a, int b, int c) { return a; } int max(float a) { return 1; }\n",
            vec![
                "<stdin>:1:48: error: at most one overload for a given name may lack the 'overloadable' attribute",
                "<stdin>:1:5: note: previous unmarked overload of function is here",
            ],
        ),
        (
            "int max(int a, int b, int c) { return a; } int max(int a, int b, int c) { return b; }\n",
            vec![
                "<stdin>:1:48: error: redefinition of 'max'",
                "<stdin>:1:5: note: previous definition is here",
            ],
        ),
        (
            "__attribute__((overloadable)) float max(int a, int b, int c); __attribute__((overloadable)) int max(int a, int b, int c);\n",
            vec![
                "<stdin>:1:97: error: conflicting types for 'max'",
                "<stdin>:1:37: note: previous declaration is here",
            ],
        ),
        (
            "typedef int dot;\n",
            vec![
                "<stdin>:1:13: error: redefinition of 'dot' as different kind of symbol",
                "note: previous definition is here",
            ],
        ),
        (
            "constant int mad24 = 1;\n",
            vec![
                "<stdin>:1:14: error: redefinition of 'mad24' as different kind of symbol",
                "note: previous definition is here",
            ],
        ),
        (
            "kernel void k(global float *o) { int dot(float4 a, float4 b); o[0] = 1; }\n",
            vec![
                "<stdin>:1:38: error: redeclaration of 'dot' must have the 'overloadable' attribute",
                "note: previous overload of function is here",
                "<stdin>:1:38: error: conflicting types for 'dot'",
                "note: previous declaration is here",
            ],
        ),
    ] {
        let (_, err) = check(src);
        let got: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("error: ") || l.contains("note: "))
            .collect();
        assert_eq!(got, want, "{src}");
    }
    // Accepted by clang: new overloads, definitions of builtin overloads, shadowing locals.
    for src in [
        "int to_global(int x) { return x; }\n",
        "int get_global_id(int x) { return x; }\n",
        "static int max(int a, int b, int c) { return a; }\n",
        "__attribute__((overloadable)) float4 normalize(float4 v); __attribute__((overloadable)) float4 normalize(float4 v) { return v; }\n",
        "int max(int a, int b, int c) { return a; } int max(int a, int b, int c);\n",
        "kernel void k(global int *o) { int dot = 3; o[0] = dot; }\n",
        "enum { dot };\n",
        // A prototype repeating a builtin exactly declares the builtin (clang's tests, run
        // without the default header, do this; with it clang wants `overloadable`).
        "float4 read_imagef(read_only image1d_t, sampler_t, float);\n",
    ] {
        assert_eq!(check(src), (0, String::new()), "{src}");
    }
}

/// Which function a call runs when the program declares functions named like builtins.
const OVERLOAD_SRC: &str = "__attribute__((overloadable)) float4 normalize(float4 v) { return v * 2.0f; }\n\
    int max(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }\n\
    int get_global_id(int x) { return 100 + x; }\n\
    __attribute__((overloadable)) float dot(float8 a, float8 b) { return a.s0 * b.s0 + 1000.0f; }\n\
    __attribute__((overloadable)) uint abs(int x) { return 7; }\n\
    kernel void k(global float *o) {\n\
      o[0] = normalize((float4)(3, 0, 0, 0)).x;\n\
      o[1] = normalize((float3)(3, 0, 4)).z;\n\
      o[2] = max(1, 5, 3);\n\
      o[3] = max(2, 9);\n\
      o[4] = get_global_id(0);\n\
      o[5] = get_global_id(0u);\n\
      o[6] = dot((float8)(2), (float8)(3));\n\
      o[7] = dot((float4)(1, 2, 3, 4), (float4)(1, 1, 1, 1));\n\
      o[8] = abs(-3);\n\
      o[9] = abs(-3l);\n\
    }\n";

#[test]
fn calls_pick_the_program_function_or_the_builtin_as_clang_resolves_them() {
    assert_eq!(check(OVERLOAD_SRC), (0, String::new()));
    let p = Program::build(OVERLOAD_SRC, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let o = d.buffer::<f32>(10).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    let r = o.read::<f32>().expect("read");
    // The program's normalize(float4), the builtin normalize(float3); the 3-argument max,
    // the builtin max; get_global_id(int) for an int, the builtin for a uint; the program's
    // dot(float8) and the builtin dot(float4); the program's definition of abs(int), the
    // builtin abs(long).
    assert_eq!(
        r,
        vec![6.0, 0.8, 5.0, 9.0, 100.0, 0.0, 1006.0, 10.0, 7.0, 3.0]
    );
    ptx(OVERLOAD_SRC).expect("ptx");
}

// ---- cl_intel_device_side_avc_motion_estimation ----

/// Uses of the AVC types and builtins clang-19 accepts (the image ones need
/// `__opencl_c_images`: OpenCL C 2.0 on).
const AVC_SRC: &str = "#pragma OPENCL EXTENSION cl_intel_device_side_avc_motion_estimation : enable\n\
    kernel void k(global uint *o, read_only image2d_t src, read_only image2d_t ref, sampler_t s) {\n\
      intel_sub_group_avc_ime_result_t r0 = CLK_AVC_IME_RESULT_INITIALIZE_INTEL;\n\
      o[0] = CLK_AVC_ME_PARTITION_MASK_8x8_INTEL + CLK_AVC_ME_SKIP_BLOCK_8x8_DUAL_ENABLE_INTEL;\n\
      if (o[1] == 0) return;\n\
      intel_sub_group_avc_ime_payload_t p = intel_sub_group_avc_ime_initialize((ushort2)(0, 0), CLK_AVC_ME_PARTITION_MASK_ALL_INTEL, CLK_AVC_ME_SAD_ADJUST_MODE_NONE_INTEL);\n\
      p = intel_sub_group_avc_ime_set_single_reference((short2)(0, 0), CLK_AVC_ME_SEARCH_WINDOW_EXHAUSTIVE_INTEL, p);\n\
      intel_sub_group_avc_ime_result_t r = intel_sub_group_avc_ime_evaluate_with_single_reference(src, ref, s, p);\n\
      o[2] = intel_sub_group_avc_ime_get_inter_major_shape(r);\n\
      intel_sub_group_avc_mce_result_t m = intel_sub_group_avc_ime_convert_to_mce_result(r);\n\
      o[3] = intel_sub_group_avc_mce_get_best_inter_distortion(m);\n\
      intel_sub_group_avc_sic_payload_t sp = intel_sub_group_avc_sic_configure_ipe(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, intel_sub_group_avc_sic_initialize((ushort2)(0, 0)));\n\
    }\n";

#[test]
fn avc_types_and_builtins_check_clean() {
    assert_eq!(check_with(&["-cl-std=CL2.0"], AVC_SRC), (0, String::new()));
    assert_eq!(check_with(&["-cl-std=CL3.0"], AVC_SRC), (0, String::new()));
    // OpenCL C 1.2 has no `__opencl_c_images`: the image evaluations are not declared.
    let (code, err) = check_with(&["-cl-std=CL1.2"], AVC_SRC);
    assert_eq!(code, 1);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:8:38: error: use of undeclared identifier 'intel_sub_group_avc_ime_evaluate_with_single_reference'"
        ]
    );
    // Before OpenCL C 1.2 the types are not declared at all.
    let (_, err) = check_with(
        &["-cl-std=CL1.1"],
        "kernel void k(global uint *o) { intel_sub_group_avc_ime_payload_t r; }\n",
    );
    assert_eq!(
        error_lines(&err),
        ["<stdin>:1:33: error: use of undeclared identifier 'intel_sub_group_avc_ime_payload_t'"]
    );
}

#[test]
fn avc_type_misuse_matches_clang() {
    let src = "#pragma OPENCL EXTENSION cl_intel_device_side_avc_motion_estimation : enable\n\
        kernel void k(global uint *o) {\n\
          intel_sub_group_avc_ime_payload_t p = 0;\n\
          p = 0;\n\
          intel_sub_group_avc_sic_result_t sr = 0;\n\
          intel_sub_group_avc_mce_result_t mr = 0;\n\
          intel_sub_group_avc_ime_payload_t q = (intel_sub_group_avc_ime_payload_t)0;\n\
          intel_sub_group_avc_mce_payload_t y = p;\n\
          int z = p + 1;\n\
        }\n";
    let (_, err) = check(src);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:4:3: error: assigning to '__private intel_sub_group_avc_ime_payload_t' from incompatible type 'int'",
            "<stdin>:6:34: error: initializing '__private intel_sub_group_avc_mce_result_t' with an expression of incompatible type 'int'",
            "<stdin>:7:39: error: used type 'intel_sub_group_avc_ime_payload_t' where arithmetic or pointer type is required",
            "<stdin>:8:35: error: initializing '__private intel_sub_group_avc_mce_payload_t' with an expression of incompatible type '__private intel_sub_group_avc_ime_payload_t'",
            "<stdin>:9:11: error: invalid operands to binary expression ('intel_sub_group_avc_ime_payload_t' and 'int')",
        ]
    );
    // Without the pragma, `0` initializes none of them (clang's isAvailableOption).
    let (_, err) =
        check("kernel void k(global uint *o) { intel_sub_group_avc_ime_payload_t p = 0; }\n");
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:1:67: error: initializing '__private intel_sub_group_avc_ime_payload_t' with an expression of incompatible type 'int'"
        ]
    );
}

#[test]
fn avc_builtins_are_located_errors_on_the_devices() {
    let src = "#pragma OPENCL EXTENSION cl_intel_device_side_avc_motion_estimation : enable\n\
        kernel void k(global uint *o) {\n\
          intel_sub_group_avc_sic_payload_t z = CLK_AVC_SIC_PAYLOAD_INITIALIZE_INTEL;\n\
          o[0] = CLK_AVC_ME_PARTITION_MASK_8x8_INTEL;\n\
          if (o[1] == 0) return;\n\
          intel_sub_group_avc_ime_payload_t p = intel_sub_group_avc_ime_initialize((ushort2)(0, 0), 0, 0);\n\
          o[2] = intel_sub_group_avc_mce_get_default_inter_base_multi_reference_penalty(0, 0);\n\
        }\n";
    assert_eq!(check(src), (0, String::new()));
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let o = d.buffer_from_slice(&[0u32, 0, 0]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    // Not reaching the builtins, the kernel runs.
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<u32>().expect("read"), vec![0x77, 0, 0]);
    let o = d.buffer_from_slice(&[0u32, 1, 0]).expect("buffer");
    k.set_arg(0, &o).expect("arg");
    let err = d
        .launch(&k, &NdRange::new(&[1]))
        .expect_err("the cpu device has no AVC engine")
        .to_string();
    assert!(
        err.contains(":6:39: error: builtin `intel_sub_group_avc_ime_initialize` is not supported by the cpu device"),
        "{err}"
    );
    let err = ptx(src).expect_err("nor the cuda device");
    assert!(
        err.contains(
            ":6:39: error: the cuda device does not support builtin `intel_sub_group_avc_ime_initialize`"
        ),
        "{err}"
    );
}

// ---- cause 4: -Wincompatible-pointer-types severity ----

#[test]
fn incompatible_pointer_types_warn_as_clang_19_and_run() {
    let src = "kernel void k(global ulong *o) {\n\
        ulong8 d = (ulong8)(1, 2, 3, 4, 5, 6, 7, 8);\n\
        ulong *p = &d;\n\
        o[0] = p[0] + p[7];\n\
        global uint *g = o;\n\
        o[1] = g[0];\n\
        }\n";
    let (code, err) = check(src);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:3:8: warning: incompatible pointer types initializing '__private ulong *__private' (aka '__private unsigned long *__private') with an expression of type '__private ulong8 *' [-Wincompatible-pointer-types]",
            "<stdin>:5:14: warning: incompatible pointer types initializing '__global uint *__private' (aka '__global unsigned int *__private') with an expression of type '__global ulong *__private' (aka '__global unsigned long *__private') [-Wincompatible-pointer-types]",
        ]
    );
    // `-Werror=incompatible-pointer-types` makes them errors, `-Wno-...` silences them.
    let (code, err) = check_with(&["-Werror=incompatible-pointer-types"], src);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        check_with(&["-Wno-incompatible-pointer-types"], src),
        (0, String::new())
    );
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let o = d.buffer::<u64>(2).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<u64>().expect("read"), vec![9, 9]);
}

#[test]
fn incompatible_pointers_to_pointers_and_to_x_results_stay_errors() {
    // The SemaOpenCL corpus (newer clang, where the diagnostic defaults to an error) pins
    // these two shapes; clang-19 warns on them too.
    let src = "void f(global int *__private *gg, global float *__private *gf) {\n\
        gg = gf;\n\
        }\n\
        kernel void k(global int *o) { global char *c = to_global((generic int *)o); }\n";
    let (code, err) = check_with(&["-cl-std=CL2.0"], src);
    assert_eq!(code, 1);
    assert_eq!(
        error_lines(&err),
        [
            "<stdin>:2:4: error: incompatible pointer types assigning to '__global int *__private *__private' from '__global float *__private *__private' [-Wincompatible-pointer-types]",
            "<stdin>:4:45: error: incompatible pointer types initializing '__global char *__private' with an expression of type '__global int *' [-Wincompatible-pointer-types]",
        ]
    );
}

#[test]
fn continue_in_a_loop_condition_or_step_reruns_it_as_clang_does() {
    // The values are what clang-19 gives for the same loops in C on the host.
    let src = "kernel void k(global int *o) {\n\
        int n = 0, i;\n\
        for (i = 0; i < 10; i += ({ if (i == 3) { i = 5; continue; } 1; })) n++;\n\
        int m = 0, j = 0;\n\
        do { m++; j++; } while (({ if (j == 2) { j = 4; continue; } j < 6; }));\n\
        int w = 0, k = 0;\n\
        while (({ k++; if (k == 2) continue; k < 5; })) w++;\n\
        o[0] = n; o[1] = i; o[2] = m; o[3] = j; o[4] = w; o[5] = k;\n\
        }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_i32(src, &[vec![0; 6]]);
    assert_eq!(out[0], vec![8, 10, 4, 6, 3, 5]);
}
