//! `-Wreturn-type` (a non-void function that can fall off its end) and `-Winvalid-noreturn`, as
//! clang's `CheckFallThroughForBody` gives them: each source below was checked with `clang-19
//! -cc1 -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -x cl -` and its
//! output is the expected text, byte for byte.

use oclc::cli::check_command;

/// `oclc check` on `src` (as `<stdin>`, spir64 like the clang runs): stderr.
fn check(src: &str) -> String {
    let args: Vec<String> = vec![
        "-triple".into(),
        "spir64-unknown-unknown".into(),
        "-".into(),
    ];
    check_command(args, &mut src.as_bytes()).stderr
}

/// Falling off the end through `if`, loops (constant conditions do not fall through), `switch`, `goto`/labels, unreachable code, and `__builtin_trap()`/`__builtin_unreachable()` in statements and in `?:`, `&&`, `||` operands.
#[test]
fn statements() {
    let src = r#"int f1(int a) { if (a) { return 1; } }
int f2(int a) { }
int f3(int a) { for (;;) { } }
int f4(int a) { while (1) { if (a) break; } }
int f5(int a) { while (1) { if (a) return 2; } }
int f6(int a) { switch (a) { case 1: return 1; default: return 2; } }
int f7(int a) { switch (a) { case 1: return 1; case 2: return 2; } }
int f8(int a) { if (a) return 1; __builtin_unreachable(); }
int f9(int a) { if (a) return 1; __builtin_trap(); }
int f10(int a) { if (a) __builtin_trap(); }
int f11(int a) { goto x; x: return 1; }
int f12(int a) { x: if (a) goto x; }
int f13(int a) { return 1; x: ; }
int f14(int a) { do { } while (1); }
int f15(int a) { do { if (a) break; } while (1); }
int f16(int a) { if (0) return 1; }
int f17(int a) { if (1) return 1; }
int f18(int a) { if (a) return 1; else return 2; }
float4 f19(int a) { while (a) { return (float4)(1.0f); } }
int f20(int a) { switch (a) { default: return 1; } }
int f21(int a) { switch (1) { case 1: return 1; } }
int f22(int a) { return a ? 1 : 2; ; }
int f23(int a) { { return 1; } }
int f24(int a) { for (int i = 0; ; i++) { if (i > a) return i; } }
int f25(int a) { for (int i = 0; i < a; i++) { return i; } }
int f26(int a) { if (a) goto end; return 1; end: ; }
int f27(int a) { while (1 || a) {} }
int f28(int a) { int x = a ? 1 : (__builtin_unreachable(), 0); }
int f29(int a) { if (a) return 1; int q = (__builtin_trap(), 0); }
int f30(int a) { a ? __builtin_trap() : __builtin_trap(); }
int f31(int a) { a ? __builtin_trap() : (void)0; }
int f32(int a) { a || (__builtin_trap(), 0); }
int f33(int a) { 1 && (__builtin_trap(), 0); }
void v1(int a) { if (a) return; }
kernel void k(global int *o) { if (o[1]) return; o[0] = f1(1); }
"#;
    let expected = r#"<stdin>:1:38: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    1 | int f1(int a) { if (a) { return 1; } }
      |                                      ^
<stdin>:2:17: warning: non-void function does not return a value [-Wreturn-type]
    2 | int f2(int a) { }
      |                 ^
<stdin>:4:45: warning: non-void function does not return a value [-Wreturn-type]
    4 | int f4(int a) { while (1) { if (a) break; } }
      |                                             ^
<stdin>:7:68: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    7 | int f7(int a) { switch (a) { case 1: return 1; case 2: return 2; } }
      |                                                                    ^
<stdin>:10:43: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   10 | int f10(int a) { if (a) __builtin_trap(); }
      |                                           ^
<stdin>:12:36: warning: non-void function does not return a value [-Wreturn-type]
   12 | int f12(int a) { x: if (a) goto x; }
      |                                    ^
<stdin>:15:50: warning: non-void function does not return a value [-Wreturn-type]
   15 | int f15(int a) { do { if (a) break; } while (1); }
      |                                                  ^
<stdin>:16:35: warning: non-void function does not return a value [-Wreturn-type]
   16 | int f16(int a) { if (0) return 1; }
      |                                   ^
<stdin>:19:58: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   19 | float4 f19(int a) { while (a) { return (float4)(1.0f); } }
      |                                                          ^
<stdin>:25:60: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   25 | int f25(int a) { for (int i = 0; i < a; i++) { return i; } }
      |                                                            ^
<stdin>:26:52: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   26 | int f26(int a) { if (a) goto end; return 1; end: ; }
      |                                                    ^
<stdin>:28:64: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   28 | int f28(int a) { int x = a ? 1 : (__builtin_unreachable(), 0); }
      |                                                                ^
<stdin>:31:50: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   31 | int f31(int a) { a ? __builtin_trap() : (void)0; }
      |                                                  ^
<stdin>:32:46: warning: non-void function does not return a value in all control paths [-Wreturn-type]
   32 | int f32(int a) { a || (__builtin_trap(), 0); }
      |                                              ^
14 warnings generated.
"#;
    assert_eq!(check(src), expected);
}

/// A `switch` on an enum whose every enumerator has a `case` enters neither `default` nor the code after it (clang's `isAllEnumCasesCovered`): no warning there, and the runtime warnings there are dropped.
#[test]
fn enum_switches() {
    let src = r#"typedef enum { A, B } E;
int g1(E e) { switch (e) { case A: return 1; case B: return 2; } }
int g2(E e) { switch (e) { case A: return 1; case B: return 2; } int x; }
int g3(E e, int a) { if (a) { switch (e) { case A: return 1; case B: return 2; } } }
int g4(E e) { switch (e) { case A: return 1; case B: break; } }
int g5(E e) { switch ((int)e) { case A: return 1; case B: return 2; } }
int g6(E e, int a) { while (a) { switch (e) { case A: return 1; case B: return 2; } } }
int g7(E e) { switch (e) { case A: case B: return 2; } }
int g8(E e) { switch (e) { case A: return 1; case B: return 2; default: return 1 / 0; } }
int g9(E e) { switch (e) { case A: return 1; case B: return 2; } return 1 / 0; }
int g10(const E e) { switch (e) { case A: return 1; case B: return 2; } }
int g11(E e) { switch (A) { case A: return 1; case B: return 2; } }
"#;
    let expected = r#"<stdin>:4:84: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    4 | int g3(E e, int a) { if (a) { switch (e) { case A: return 1; case B: return 2; } } }
      |                                                                                    ^
<stdin>:5:63: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    5 | int g4(E e) { switch (e) { case A: return 1; case B: break; } }
      |                                                               ^
<stdin>:6:71: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    6 | int g5(E e) { switch ((int)e) { case A: return 1; case B: return 2; } }
      |                                                                       ^
<stdin>:7:87: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    7 | int g6(E e, int a) { while (a) { switch (e) { case A: return 1; case B: return 2; } } }
      |                                                                                       ^
4 warnings generated.
"#;
    assert_eq!(check(src), expected);
}

/// Calls to functions declared `noreturn` (attribute, `_Noreturn`) end the path; a `noreturn` function that can return gets `-Winvalid-noreturn`, at its `return`s and its end.
#[test]
fn noreturn_functions() {
    let src = r#"__attribute__((noreturn)) void die(void);
_Noreturn void die2(void);
void die3(void) __attribute__((noreturn));
int f1(int a) { if (a) return 1; die(); }
int f2(int a) { if (a) die(); }
int f3(int a) { if (a) return 1; die2(); }
int f4(int a) { if (a) return 1; die3(); }
_Noreturn void d1(void) {}
__attribute__((noreturn)) void d2(int a) { if (a) __builtin_trap(); }
__attribute__((noreturn)) int d3(int a) { if (a) return 1; }
_Noreturn void d4(void) { return; }
_Noreturn void d5(void) { for (;;); }
_Noreturn void d6(void) { die(); }
"#;
    let expected = r#"<stdin>:5:31: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    5 | int f2(int a) { if (a) die(); }
      |                               ^
<stdin>:8:26: warning: function declared 'noreturn' should not return [-Winvalid-noreturn]
    8 | _Noreturn void d1(void) {}
      |                          ^
<stdin>:9:69: warning: function declared 'noreturn' should not return [-Winvalid-noreturn]
    9 | __attribute__((noreturn)) void d2(int a) { if (a) __builtin_trap(); }
      |                                                                     ^
<stdin>:10:50: warning: function 'd3' declared 'noreturn' should not return [-Winvalid-noreturn]
   10 | __attribute__((noreturn)) int d3(int a) { if (a) return 1; }
      |                                                  ^
<stdin>:10:60: warning: function declared 'noreturn' should not return [-Winvalid-noreturn]
   10 | __attribute__((noreturn)) int d3(int a) { if (a) return 1; }
      |                                                            ^
<stdin>:11:27: warning: function 'd4' declared 'noreturn' should not return [-Winvalid-noreturn]
   11 | _Noreturn void d4(void) { return; }
      |                           ^
6 warnings generated.
"#;
    assert_eq!(check(src), expected);
}

/// After an error clang skips the analysis: the function checked before the error warns, the one after does not.
#[test]
fn not_after_errors() {
    let src = r#"int f(int a) { if (a) return 1; }
kernel void k(global int *o) { o[0] = undeclared; }
int g(int a) { }
"#;
    let expected = r#"<stdin>:1:33: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    1 | int f(int a) { if (a) return 1; }
      |                                 ^
<stdin>:2:39: error: use of undeclared identifier 'undeclared'
    2 | kernel void k(global int *o) { o[0] = undeclared; }
      |                                       ^
1 warning and 1 error generated.
"#;
    assert_eq!(check(src), expected);
}

/// The `}` may come from a macro; the warning follows the body's runtime warnings.
#[test]
fn macros_and_order() {
    let src = r#"#define DEF(n) int n(int a) { if (a) return 1; }
DEF(m1)
#define END }
int m2(int a) { if (a) return 2; END
int m3(int a) { int x = a / 0; if (a) return x; }
int m4(int a) { if (a) { return 1; } else { while (a) {} } }
int m5(int a) { if (a) return 1; return 1 / 0; }
int m6(int a) { while (1) {} return 1 / 0; }
"#;
    let expected = r#"<stdin>:2:1: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    2 | DEF(m1)
      | ^
<stdin>:1:48: note: expanded from macro 'DEF'
    1 | #define DEF(n) int n(int a) { if (a) return 1; }
      |                                                ^
<stdin>:4:34: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    4 | int m2(int a) { if (a) return 2; END
      |                                  ^
<stdin>:3:13: note: expanded from macro 'END'
    3 | #define END }
      |             ^
<stdin>:5:27: warning: division by zero is undefined [-Wdivision-by-zero]
    5 | int m3(int a) { int x = a / 0; if (a) return x; }
      |                           ^ ~
<stdin>:5:49: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    5 | int m3(int a) { int x = a / 0; if (a) return x; }
      |                                                 ^
<stdin>:6:60: warning: non-void function does not return a value in all control paths [-Wreturn-type]
    6 | int m4(int a) { if (a) { return 1; } else { while (a) {} } }
      |                                                            ^
<stdin>:7:43: warning: division by zero is undefined [-Wdivision-by-zero]
    7 | int m5(int a) { if (a) return 1; return 1 / 0; }
      |                                           ^ ~
6 warnings generated.
"#;
    assert_eq!(check(src), expected);
}
