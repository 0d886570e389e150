//! Issue 13's warning differences against clang-19: each source below was checked with
//! `clang-19 -cc1 -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only
//! -cl-std=CL1.2 [FLAGS] -` and its output is the expected text, byte for byte.

use oclc::cli::check_command;

#[path = "../../../test-support/oclc_bin.rs"]
mod oclc_bin;

/// `oclc check` with `flags` on `src` (as `<stdin>`, spir64 like the clang runs): stderr.
fn check(src: &str, flags: &[&str]) -> String {
    let mut args: Vec<String> = vec!["-triple".into(), "spir64-unknown-unknown".into()];
    args.extend(flags.iter().map(|f| f.to_string()));
    args.push("-".into());
    check_command(args, &mut src.as_bytes()).stderr
}

/// Item 1: malformed `#pragma OPENCL EXTENSION`/`FP_CONTRACT` pragmas (clang's lex-time warnings).
#[test]
fn pragma_malformed() {
    let src = r#"#pragma OPENCL EXTENSION cl_khr_fp64 : bogus
#pragma OPENCL EXTENSION cl_khr_fp64 enable
#pragma OPENCL EXTENSION cl_khr_fp64
#pragma OPENCL EXTENSION
#pragma OPENCL EXTENSION 3 : disable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable extra
#pragma OPENCL EXTENSION all : begin2
#pragma OPENCL FP_CONTRACT bogus
#pragma OPENCL FP_CONTRACT
#pragma OPENCL FP_CONTRACT ON
#define EN enable
#pragma OPENCL EXTENSION cl_khr_fp64 : EN
kernel void k(global int *o) { o[0] = 1; }
"#;
    let expected = r#"<stdin>:1:40: warning: expected 'enable', 'disable', 'begin' or 'end' - ignoring [-Wignored-pragmas]
    1 | #pragma OPENCL EXTENSION cl_khr_fp64 : bogus
      |                                        ^
<stdin>:2:38: warning: missing ':' after 'cl_khr_fp64' - ignoring [-Wignored-pragmas]
    2 | #pragma OPENCL EXTENSION cl_khr_fp64 enable
      |                                      ^
<stdin>:3:37: warning: missing ':' after 'cl_khr_fp64' - ignoring [-Wignored-pragmas]
    3 | #pragma OPENCL EXTENSION cl_khr_fp64
      |                                     ^
<stdin>:4:25: warning: expected identifier in '#pragma OPENCL' - ignored [-Wignored-pragmas]
    4 | #pragma OPENCL EXTENSION
      |                         ^
<stdin>:5:26: warning: expected identifier in '#pragma OPENCL' - ignored [-Wignored-pragmas]
    5 | #pragma OPENCL EXTENSION 3 : disable
      |                          ^
<stdin>:6:47: warning: extra tokens at end of '#pragma OPENCL EXTENSION' - ignored [-Wignored-pragmas]
    6 | #pragma OPENCL EXTENSION cl_khr_fp64 : enable extra
      |                                               ^
<stdin>:7:32: warning: expected 'disable' - ignoring [-Wignored-pragmas]
    7 | #pragma OPENCL EXTENSION all : begin2
      |                                ^
<stdin>:8:28: warning: expected 'ON' or 'OFF' or 'DEFAULT' in pragma [-Wunknown-pragmas]
    8 | #pragma OPENCL FP_CONTRACT bogus
      |                            ^
<stdin>:9:27: warning: expected 'ON' or 'OFF' or 'DEFAULT' in pragma [-Wunknown-pragmas]
    9 | #pragma OPENCL FP_CONTRACT
      |                           ^
9 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 1: unknown, unsupported and `all` extension pragmas (clang's parser-time warnings).
#[test]
fn pragma_unknown_and_unsupported_extensions() {
    let src = r#"#pragma OPENCL EXTENSION foo : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION all : enable
#pragma OPENCL EXTENSION all : disable
#pragma OPENCL EXTENSION cl_khr_gl_sharing : enable
#pragma OPENCL EXTENSION cl_amd_printf : enable
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_mipmap_image : disable
#pragma OPENCL EXTENSION __opencl_c_fp64 : enable
#pragma OPENCL EXTENSION myext : begin
#pragma OPENCL EXTENSION myext : enable
#pragma OPENCL EXTENSION myext : end
#pragma OPENCL EXTENSION all : end
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void k(global int *o) {
#pragma OPENCL EXTENSION foo2 : enable
  o[0] = 1;
}
"#;
    let expected = r#"<stdin>:1:26: warning: OpenCL extension 'foo' unknown or does not require pragma - ignoring [-Wignored-pragmas]
    1 | #pragma OPENCL EXTENSION foo : enable
      |                          ^
<stdin>:3:26: warning: expected 'disable' - ignoring [-Wignored-pragmas]
    3 | #pragma OPENCL EXTENSION all : enable
      |                          ^
<stdin>:5:26: warning: OpenCL extension 'cl_khr_gl_sharing' unknown or does not require pragma - ignoring [-Wignored-pragmas]
    5 | #pragma OPENCL EXTENSION cl_khr_gl_sharing : enable
      |                          ^
<stdin>:6:26: warning: OpenCL extension 'cl_amd_printf' unknown or does not require pragma - ignoring [-Wignored-pragmas]
    6 | #pragma OPENCL EXTENSION cl_amd_printf : enable
      |                          ^
<stdin>:7:26: warning: unsupported OpenCL extension 'cl_khr_subgroups' - ignoring [-Wignored-pragmas]
    7 | #pragma OPENCL EXTENSION cl_khr_subgroups : enable
      |                          ^
<stdin>:8:26: warning: unsupported OpenCL extension 'cl_khr_mipmap_image' - ignoring [-Wignored-pragmas]
    8 | #pragma OPENCL EXTENSION cl_khr_mipmap_image : disable
      |                          ^
<stdin>:9:26: warning: OpenCL extension '__opencl_c_fp64' unknown or does not require pragma - ignoring [-Wignored-pragmas]
    9 | #pragma OPENCL EXTENSION __opencl_c_fp64 : enable
      |                          ^
<stdin>:13:26: warning: expected 'disable' - ignoring [-Wignored-pragmas]
   13 | #pragma OPENCL EXTENSION all : end
      |                          ^
<stdin>:16:26: warning: OpenCL extension 'foo2' unknown or does not require pragma - ignoring [-Wignored-pragmas]
   16 | #pragma OPENCL EXTENSION foo2 : enable
      |                          ^
9 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 1: an extension pragma in a struct or union is an error.
#[test]
fn pragma_in_struct_or_union() {
    let src = r#"struct S { int a;
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
int b; };
union U { int a;
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
float b; };
kernel void k(global int *o) { o[0] = 1; }
"#;
    let expected = r#"<stdin>:2:26: error: this pragma cannot appear in struct declaration
    2 | #pragma OPENCL EXTENSION cl_khr_fp64 : enable
      |                          ^
<stdin>:5:26: error: this pragma cannot appear in union declaration
    5 | #pragma OPENCL EXTENSION cl_khr_fp16 : disable
      |                          ^
2 errors generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 1: `#pragma message`, `GCC warning`, STDC, system_header; unknown pragmas are quiet by default.
#[test]
fn pragma_messages_and_unknown_pragmas() {
    let src = r#"#pragma OPENCL
#pragma OPENCL SELECT_ROUNDING_MODE rte
#pragma foo bar
#pragma clang xyz
#pragma GCC xyz
#pragma STDC xyz
#pragma omp parallel
#pragma once
#pragma message("hello" " world")
#define MSG "from a macro"
#pragma message(MSG)
#pragma GCC warning "careful"
#pragma GCC system_header
kernel void k(global int *o) { o[0] = 1; }
"#;
    let expected = r#"<stdin>:6:14: warning: unknown pragma in STDC namespace [-Wunknown-pragmas]
    6 | #pragma STDC xyz
      |              ^
<stdin>:8:9: warning: #pragma once in main file [-Wpragma-once-outside-header]
    8 | #pragma once
      |         ^
<stdin>:9:9: warning: hello world [-W#pragma-messages]
    9 | #pragma message("hello" " world")
      |         ^
<stdin>:11:9: warning: from a macro [-W#pragma-messages]
   11 | #pragma message(MSG)
      |         ^
<stdin>:12:13: warning: careful [-W#pragma-messages]
   12 | #pragma GCC warning "careful"
      |             ^
<stdin>:13:13: warning: #pragma system_header ignored in main file [-Wpragma-system-header-outside-header]
   13 | #pragma GCC system_header
      |             ^
6 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 1: with -Wall, "unknown pragma ignored".
#[test]
fn pragma_unknown_with_wall() {
    let src = r#"#pragma OPENCL
#pragma OPENCL SELECT_ROUNDING_MODE rte
#pragma foo bar
#pragma clang xyz
#pragma GCC xyz
#pragma STDC xyz
#pragma omp parallel
#pragma once
#pragma message("hello" " world")
#define MSG "from a macro"
#pragma message(MSG)
#pragma GCC warning "careful"
#pragma GCC system_header
kernel void k(global int *o) { o[0] = 1; }
"#;
    let expected = r#"<stdin>:1:15: warning: unknown pragma ignored [-Wunknown-pragmas]
    1 | #pragma OPENCL
      |               ^
<stdin>:2:16: warning: unknown pragma ignored [-Wunknown-pragmas]
    2 | #pragma OPENCL SELECT_ROUNDING_MODE rte
      |                ^
<stdin>:3:9: warning: unknown pragma ignored [-Wunknown-pragmas]
    3 | #pragma foo bar
      |         ^
<stdin>:4:15: warning: unknown pragma ignored [-Wunknown-pragmas]
    4 | #pragma clang xyz
      |               ^
<stdin>:5:13: warning: unknown pragma ignored [-Wunknown-pragmas]
    5 | #pragma GCC xyz
      |             ^
<stdin>:6:14: warning: unknown pragma in STDC namespace [-Wunknown-pragmas]
    6 | #pragma STDC xyz
      |              ^
<stdin>:8:9: warning: #pragma once in main file [-Wpragma-once-outside-header]
    8 | #pragma once
      |         ^
<stdin>:9:9: warning: hello world [-W#pragma-messages]
    9 | #pragma message("hello" " world")
      |         ^
<stdin>:11:9: warning: from a macro [-W#pragma-messages]
   11 | #pragma message(MSG)
      |         ^
<stdin>:12:13: warning: careful [-W#pragma-messages]
   12 | #pragma GCC warning "careful"
      |             ^
<stdin>:13:13: warning: #pragma system_header ignored in main file [-Wpragma-system-header-outside-header]
   13 | #pragma GCC system_header
      |             ^
11 warnings generated.
"#;
    assert_eq!(check(src, &["-Wall"]), expected);
}

/// Item 2: the left operand of a comma, and what clang counts as unused.
#[test]
fn comma_left_operand() {
    let src = r#"int f(void);
#define SEQ_IN_BODY(x) (1, x)
kernel void k(global int *o) {
  int a = 0, b = 1;
  a, b;
  a = 1, b = 2;
  (a, b);
  o[0] = (a, b);
  o[1] = (a + 1, b);
  o[2] = (f(), b);
  o[3] = (a = 2, b);
  for (a = 0, b = 0; a < 3; a++, b++) {}
  for (a + 1, b = 0; a < 3; a++, b + 1) {}
  (void)(a, b);
  a + 1, f();
  f(), a + 1;
  o[4] = (1, 2);
  o[5] = ((void)0, 3);
  o[6] = (o[0], 4);
  o[8] = (a++, b);
  o[9] = SEQ_IN_BODY(a);
  o[11] = (a == b, b);
  o[12] = ((int)a, b);
  o[16] = (b, a, b);
  int c = (a, b);
  while (a, b < 4) { b++; }
  if (a, b) {}
  o[17] = ((a, b), b);
  o[18] = (a, 0);
}
"#;
    let expected = r#"<stdin>:22:14: warning: equality comparison result unused [-Wunused-comparison]
   22 |   o[11] = (a == b, b);
      |            ~~^~~~
<stdin>:22:14: note: use '=' to turn this equality comparison into an assignment
   22 |   o[11] = (a == b, b);
      |              ^~
      |              =
<stdin>:5:3: warning: left operand of comma operator has no effect [-Wunused-value]
    5 |   a, b;
      |   ^
<stdin>:5:6: warning: expression result unused [-Wunused-value]
    5 |   a, b;
      |      ^
<stdin>:7:4: warning: left operand of comma operator has no effect [-Wunused-value]
    7 |   (a, b);
      |    ^
<stdin>:7:7: warning: expression result unused [-Wunused-value]
    7 |   (a, b);
      |       ^
<stdin>:8:11: warning: left operand of comma operator has no effect [-Wunused-value]
    8 |   o[0] = (a, b);
      |           ^
<stdin>:9:13: warning: left operand of comma operator has no effect [-Wunused-value]
    9 |   o[1] = (a + 1, b);
      |           ~ ^ ~
<stdin>:13:10: warning: left operand of comma operator has no effect [-Wunused-value]
   13 |   for (a + 1, b = 0; a < 3; a++, b + 1) {}
      |        ~ ^ ~
<stdin>:13:36: warning: expression result unused [-Wunused-value]
   13 |   for (a + 1, b = 0; a < 3; a++, b + 1) {}
      |                                  ~ ^ ~
<stdin>:14:10: warning: left operand of comma operator has no effect [-Wunused-value]
   14 |   (void)(a, b);
      |          ^
<stdin>:15:5: warning: left operand of comma operator has no effect [-Wunused-value]
   15 |   a + 1, f();
      |   ~ ^ ~
<stdin>:16:10: warning: expression result unused [-Wunused-value]
   16 |   f(), a + 1;
      |        ~ ^ ~
<stdin>:17:11: warning: left operand of comma operator has no effect [-Wunused-value]
   17 |   o[4] = (1, 2);
      |           ^
<stdin>:19:14: warning: left operand of comma operator has no effect [-Wunused-value]
   19 |   o[6] = (o[0], 4);
      |           ~ ~^
<stdin>:23:12: warning: left operand of comma operator has no effect [-Wunused-value]
   23 |   o[12] = ((int)a, b);
      |            ^    ~
<stdin>:24:12: warning: left operand of comma operator has no effect [-Wunused-value]
   24 |   o[16] = (b, a, b);
      |            ^
<stdin>:24:15: warning: left operand of comma operator has no effect [-Wunused-value]
   24 |   o[16] = (b, a, b);
      |               ^
<stdin>:25:12: warning: left operand of comma operator has no effect [-Wunused-value]
   25 |   int c = (a, b);
      |            ^
<stdin>:26:10: warning: left operand of comma operator has no effect [-Wunused-value]
   26 |   while (a, b < 4) { b++; }
      |          ^
<stdin>:27:7: warning: left operand of comma operator has no effect [-Wunused-value]
   27 |   if (a, b) {}
      |       ^
<stdin>:28:13: warning: left operand of comma operator has no effect [-Wunused-value]
   28 |   o[17] = ((a, b), b);
      |             ^
<stdin>:28:16: warning: left operand of comma operator has no effect [-Wunused-value]
   28 |   o[17] = ((a, b), b);
      |                ^
<stdin>:29:12: warning: left operand of comma operator has no effect [-Wunused-value]
   29 |   o[18] = (a, 0);
      |            ^
23 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 2: clang's isUnusedResultAWarning over expression forms, const/pure builtins and calls.
#[test]
fn unused_result_forms() {
    let src = r#"typedef struct { int a; float b; } S;
int f(void);
__attribute__((const)) int cf(int);
__attribute__((pure)) int pf(int);
__attribute__((warn_unused_result)) int wf(int);
kernel void k(global int *o, global S *ps, float4 v, int a, int b) {
  int x = 0, y = 1, arr[4];
  float fl = 1.0f;
  S s;
  *o;
  o[0];
  v.x;
  s.a;
  ps->a;
  (float)x;
  -x;
  !x;
  x ? 1 : 2;
  x ? f() : 1;
  (a == b);
  a != b;
  a < b;
  (void)x;
  sizeof(x);
  (float4)(1.0f);
  a && b;
  a && f();
  a || (b = 1);
  (int)f();
  (uint)f();
  get_global_id(0);
  sin(fl);
  vload4(0, (global float *)o);
  cf(1);
  pf(1);
  wf(1);
  __builtin_popcount(3u);
  sizeof(x + 1, 2);
  (a, b) == 1;
}
"#;
    let expected = r#"<stdin>:21:5: warning: inequality comparison result unused [-Wunused-comparison]
   21 |   a != b;
      |   ~~^~~~
<stdin>:21:5: note: use '|=' to turn this inequality comparison into an or-assignment
   21 |   a != b;
      |     ^~
      |     |=
<stdin>:22:5: warning: relational comparison result unused [-Wunused-comparison]
   22 |   a < b;
      |   ~~^~~
<stdin>:31:3: warning: ignoring return value of function declared with const attribute [-Wunused-value]
   31 |   get_global_id(0);
      |   ^~~~~~~~~~~~~ ~
<stdin>:32:3: warning: ignoring return value of function declared with const attribute [-Wunused-value]
   32 |   sin(fl);
      |   ^~~ ~~
<stdin>:33:3: warning: ignoring return value of function declared with pure attribute [-Wunused-value]
   33 |   vload4(0, (global float *)o);
      |   ^~~~~~ ~~~~~~~~~~~~~~~~~~~~
<stdin>:34:3: warning: ignoring return value of function declared with const attribute [-Wunused-value]
   34 |   cf(1);
      |   ^~ ~
<stdin>:35:3: warning: ignoring return value of function declared with pure attribute [-Wunused-value]
   35 |   pf(1);
      |   ^~ ~
<stdin>:36:3: warning: ignoring return value of function declared with 'warn_unused_result' attribute [-Wunused-result]
   36 |   wf(1);
      |   ^~ ~
<stdin>:37:3: warning: ignoring return value of function declared with const attribute [-Wunused-value]
   37 |   __builtin_popcount(3u);
      |   ^~~~~~~~~~~~~~~~~~ ~~
<stdin>:39:10: warning: equality comparison result unused [-Wunused-comparison]
   39 |   (a, b) == 1;
      |   ~~~~~~~^~~~
<stdin>:10:3: warning: expression result unused [-Wunused-value]
   10 |   *o;
      |   ^~
<stdin>:11:6: warning: expression result unused [-Wunused-value]
   11 |   o[0];
      |   ~ ~^
<stdin>:12:3: warning: expression result unused [-Wunused-value]
   12 |   v.x;
      |   ^~~
<stdin>:13:5: warning: expression result unused [-Wunused-value]
   13 |   s.a;
      |   ~ ^
<stdin>:14:7: warning: expression result unused [-Wunused-value]
   14 |   ps->a;
      |   ~~  ^
<stdin>:15:3: warning: expression result unused [-Wunused-value]
   15 |   (float)x;
      |   ^      ~
<stdin>:16:3: warning: expression result unused [-Wunused-value]
   16 |   -x;
      |   ^~
<stdin>:17:3: warning: expression result unused [-Wunused-value]
   17 |   !x;
      |   ^~
<stdin>:18:11: warning: expression result unused [-Wunused-value]
   18 |   x ? 1 : 2;
      |           ^
<stdin>:20:6: warning: expression result unused [-Wunused-value]
   20 |   (a == b);
      |    ~ ^  ~
<stdin>:24:3: warning: expression result unused [-Wunused-value]
   24 |   sizeof(x);
      |   ^~~~~~~~~
<stdin>:25:3: warning: expression result unused [-Wunused-value]
   25 |   (float4)(1.0f);
      |   ^        ~~~~
<stdin>:26:5: warning: expression result unused [-Wunused-value]
   26 |   a && b;
      |   ~ ^  ~
<stdin>:29:3: warning: expression result unused [-Wunused-value]
   29 |   (int)f();
      |   ^    ~~~
<stdin>:30:3: warning: expression result unused [-Wunused-value]
   30 |   (uint)f();
      |   ^     ~~~
<stdin>:38:3: warning: expression result unused [-Wunused-value]
   38 |   sizeof(x + 1, 2);
      |   ^~~~~~~~~~~~~~~~
<stdin>:39:4: warning: left operand of comma operator has no effect [-Wunused-value]
   39 |   (a, b) == 1;
      |    ^
27 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 7: an expression from a macro body is not diagnosed, one from a macro argument is.
#[test]
fn unused_result_in_macro_bodies() {
    let src = r#"#define STMT(x) x;
#define EXPR_BODY a + 1
#define CMP(x) x == 1
#define ADD1(x) x + 1
#define CALLC(x) get_local_id(x)
kernel void k(global int *o) {
  int a = 0;
  EXPR_BODY;
  CMP(a);
  ADD1(a);
  CALLC(0);
  a + 2;
  a;
}
"#;
    let expected = r#"<stdin>:12:5: warning: expression result unused [-Wunused-value]
   12 |   a + 2;
      |   ~ ^ ~
<stdin>:13:3: warning: expression result unused [-Wunused-value]
   13 |   a;
      |   ^
2 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Items 2, 7: run-time warnings come at the end of the function and not from unreachable code.
#[test]
fn unused_result_reachability() {
    let src = r#"void g(void);
kernel void k(global int *o, int n) {
  int x = 1;
  int arr[4];
  if (0) { x + 1; arr[5] = 0; }
  if (1) { } else { x + 2; }
  if (sizeof(int) == 8) { x + 3; }
  while (0) { x + 4; }
  for (;0;) { x + 5; }
  switch (n) { x + 6; case 1: x + 7; break; }
  if (n) { return; x + 8; }
  do { break; x + 9; } while (1);
  while (1) { if (n) break; }
  x + 10;
  0 ? x + 11 : x;
  (0 && (x + 12, 1));
  if (0 && n) { x + 13; }
  if (n || 1) { } else { x + 14; }
  const int c = 0;
  if (c) { x + 15; }
  switch (2) { case 1: x + 19; break; case 2: x + 20; break; default: x + 21; }
  x = x / 0;
  goto L;
  x + 16;
L:
  x + 17;
  for (;;) { }
  x + 18;
}
void h(int n) {
  __builtin_unreachable();
  n + 1;
}
"#;
    let expected = r#"<stdin>:10:33: warning: expression result unused [-Wunused-value]
   10 |   switch (n) { x + 6; case 1: x + 7; break; }
      |                               ~ ^ ~
<stdin>:14:5: warning: expression result unused [-Wunused-value]
   14 |   x + 10;
      |   ~ ^ ~~
<stdin>:15:16: warning: expression result unused [-Wunused-value]
   15 |   0 ? x + 11 : x;
      |           ~~   ^
<stdin>:16:6: warning: expression result unused [-Wunused-value]
   16 |   (0 && (x + 12, 1));
      |    ~ ^  ~~~~~~~~~~~
<stdin>:21:49: warning: expression result unused [-Wunused-value]
   21 |   switch (2) { case 1: x + 19; break; case 2: x + 20; break; default: x + 21; }
      |                                               ~ ^ ~~
<stdin>:22:9: warning: division by zero is undefined [-Wdivision-by-zero]
   22 |   x = x / 0;
      |         ^ ~
<stdin>:26:5: warning: expression result unused [-Wunused-value]
   26 |   x + 17;
      |   ~ ^ ~~
7 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 3: -Wbitwise-conditional-parentheses and the rest of -Wparentheses, with notes and fix-its.
#[test]
fn bitwise_conditional_and_precedence() {
    let src = r#"kernel void k(global int *o, int a, int b, int c, global int *p) {
  o[0] = a | b > 0 ? 1 : 2;
  o[1] = a & (b == c) ? 1 : 2;
  o[2] = a ^ !b ? 1 : 2;
  o[3] = a + (b < c) ? 1 : 2;
  o[4] = a * (b != 0) ? 1 : 2;
  o[5] = a - !b ? 1 : 2;
  o[6] = a << (b > 1) ? 1 : 2;
  o[7] = a | (b && c) ? 1 : 2;
  o[8] = (a | b > 0) ? 1 : 2;
  o[9] = a % (b > 1) ? 1 : 2;
  o[10] = c + a | b > 0 ? 1 : 2;
  o[11] = (a + (b < c)) ? 1 : 2;
  o[12] = a + b ? 1 : 2;
  o[13] = a << b + c;
  o[14] = a >> b - c;
  o[15] = a & b == c;
  o[16] = a < b < c;
  o[17] = a <= b >= c;
  o[18] = (a & b) == c;
  o[19] = a + b << c;
  o[20] = a && b || c;
  o[21] = a | b & c;
}
"#;
    let expected = r#"<stdin>:2:12: warning: | has lower precedence than >; > will be evaluated first [-Wparentheses]
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |            ^~~~~~~
<stdin>:2:12: note: place parentheses around the '>' expression to silence this warning
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |            ^
      |              (    )
<stdin>:2:12: note: place parentheses around the | expression to evaluate it first
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |            ^
      |          (    )
<stdin>:2:20: warning: operator '?:' has lower precedence than '|'; '|' will be evaluated first [-Wbitwise-conditional-parentheses]
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |          ~~~~~~~~~ ^
<stdin>:2:20: note: place parentheses around the '|' expression to silence this warning
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |                    ^
      |          (        )
<stdin>:2:20: note: place parentheses around the '?:' expression to evaluate it first
    2 |   o[0] = a | b > 0 ? 1 : 2;
      |                    ^      
      |              (            )
<stdin>:3:23: warning: operator '?:' has lower precedence than '&'; '&' will be evaluated first [-Wbitwise-conditional-parentheses]
    3 |   o[1] = a & (b == c) ? 1 : 2;
      |          ~~~~~~~~~~~~ ^
<stdin>:3:23: note: place parentheses around the '&' expression to silence this warning
    3 |   o[1] = a & (b == c) ? 1 : 2;
      |                       ^
      |          (           )
<stdin>:3:23: note: place parentheses around the '?:' expression to evaluate it first
    3 |   o[1] = a & (b == c) ? 1 : 2;
      |                       ^      
      |              (               )
<stdin>:5:22: warning: operator '?:' has lower precedence than '+'; '+' will be evaluated first [-Wparentheses]
    5 |   o[3] = a + (b < c) ? 1 : 2;
      |          ~~~~~~~~~~~ ^
<stdin>:5:22: note: place parentheses around the '+' expression to silence this warning
    5 |   o[3] = a + (b < c) ? 1 : 2;
      |                      ^
      |          (          )
<stdin>:5:22: note: place parentheses around the '?:' expression to evaluate it first
    5 |   o[3] = a + (b < c) ? 1 : 2;
      |                      ^      
      |              (              )
<stdin>:6:23: warning: operator '?:' has lower precedence than '*'; '*' will be evaluated first [-Wparentheses]
    6 |   o[4] = a * (b != 0) ? 1 : 2;
      |          ~~~~~~~~~~~~ ^
<stdin>:6:23: note: place parentheses around the '*' expression to silence this warning
    6 |   o[4] = a * (b != 0) ? 1 : 2;
      |                       ^
      |          (           )
<stdin>:6:23: note: place parentheses around the '?:' expression to evaluate it first
    6 |   o[4] = a * (b != 0) ? 1 : 2;
      |                       ^      
      |              (               )
<stdin>:7:17: warning: operator '?:' has lower precedence than '-'; '-' will be evaluated first [-Wparentheses]
    7 |   o[5] = a - !b ? 1 : 2;
      |          ~~~~~~ ^
<stdin>:7:17: note: place parentheses around the '-' expression to silence this warning
    7 |   o[5] = a - !b ? 1 : 2;
      |                 ^
      |          (     )
<stdin>:7:17: note: place parentheses around the '?:' expression to evaluate it first
    7 |   o[5] = a - !b ? 1 : 2;
      |                 ^      
      |              (         )
<stdin>:8:23: warning: operator '?:' has lower precedence than '<<'; '<<' will be evaluated first [-Wparentheses]
    8 |   o[6] = a << (b > 1) ? 1 : 2;
      |          ~~~~~~~~~~~~ ^
<stdin>:8:23: note: place parentheses around the '<<' expression to silence this warning
    8 |   o[6] = a << (b > 1) ? 1 : 2;
      |                       ^
      |          (           )
<stdin>:8:23: note: place parentheses around the '?:' expression to evaluate it first
    8 |   o[6] = a << (b > 1) ? 1 : 2;
      |                       ^      
      |               (              )
<stdin>:9:23: warning: operator '?:' has lower precedence than '|'; '|' will be evaluated first [-Wbitwise-conditional-parentheses]
    9 |   o[7] = a | (b && c) ? 1 : 2;
      |          ~~~~~~~~~~~~ ^
<stdin>:9:23: note: place parentheses around the '|' expression to silence this warning
    9 |   o[7] = a | (b && c) ? 1 : 2;
      |                       ^
      |          (           )
<stdin>:9:23: note: place parentheses around the '?:' expression to evaluate it first
    9 |   o[7] = a | (b && c) ? 1 : 2;
      |                       ^      
      |              (               )
<stdin>:10:13: warning: | has lower precedence than >; > will be evaluated first [-Wparentheses]
   10 |   o[8] = (a | b > 0) ? 1 : 2;
      |             ^~~~~~~
<stdin>:10:13: note: place parentheses around the '>' expression to silence this warning
   10 |   o[8] = (a | b > 0) ? 1 : 2;
      |             ^      
      |               (    )
<stdin>:10:13: note: place parentheses around the | expression to evaluate it first
   10 |   o[8] = (a | b > 0) ? 1 : 2;
      |             ^
      |           (    )
<stdin>:11:22: warning: operator '?:' has lower precedence than '%'; '%' will be evaluated first [-Wparentheses]
   11 |   o[9] = a % (b > 1) ? 1 : 2;
      |          ~~~~~~~~~~~ ^
<stdin>:11:22: note: place parentheses around the '%' expression to silence this warning
   11 |   o[9] = a % (b > 1) ? 1 : 2;
      |                      ^
      |          (          )
<stdin>:11:22: note: place parentheses around the '?:' expression to evaluate it first
   11 |   o[9] = a % (b > 1) ? 1 : 2;
      |                      ^      
      |              (              )
<stdin>:12:17: warning: | has lower precedence than >; > will be evaluated first [-Wparentheses]
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |                 ^~~~~~~
<stdin>:12:17: note: place parentheses around the '>' expression to silence this warning
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |                 ^
      |                   (    )
<stdin>:12:17: note: place parentheses around the | expression to evaluate it first
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |                 ^
      |           (        )
<stdin>:12:25: warning: operator '?:' has lower precedence than '|'; '|' will be evaluated first [-Wbitwise-conditional-parentheses]
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |           ~~~~~~~~~~~~~ ^
<stdin>:12:25: note: place parentheses around the '|' expression to silence this warning
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |                         ^
      |           (            )
<stdin>:12:25: note: place parentheses around the '?:' expression to evaluate it first
   12 |   o[10] = c + a | b > 0 ? 1 : 2;
      |                         ^      
      |                   (            )
<stdin>:15:18: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]
   15 |   o[13] = a << b + c;
      |             ~~ ~~^~~
<stdin>:15:18: note: place parentheses around the '+' expression to silence this warning
   15 |   o[13] = a << b + c;
      |                  ^  
      |                (    )
<stdin>:16:18: warning: operator '>>' has lower precedence than '-'; '-' will be evaluated first [-Wshift-op-parentheses]
   16 |   o[14] = a >> b - c;
      |             ~~ ~~^~~
<stdin>:16:18: note: place parentheses around the '-' expression to silence this warning
   16 |   o[14] = a >> b - c;
      |                  ^  
      |                (    )
<stdin>:17:13: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]
   17 |   o[15] = a & b == c;
      |             ^~~~~~~~
<stdin>:17:13: note: place parentheses around the '==' expression to silence this warning
   17 |   o[15] = a & b == c;
      |             ^       
      |               (     )
<stdin>:17:13: note: place parentheses around the & expression to evaluate it first
   17 |   o[15] = a & b == c;
      |             ^
      |           (    )
<stdin>:18:17: warning: comparisons like 'X<=Y<=Z' don't have their mathematical meaning [-Wparentheses]
   18 |   o[16] = a < b < c;
      |                 ^
<stdin>:19:18: warning: comparisons like 'X<=Y<=Z' don't have their mathematical meaning [-Wparentheses]
   19 |   o[17] = a <= b >= c;
      |                  ^
<stdin>:21:13: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]
   21 |   o[19] = a + b << c;
      |           ~~^~~ ~~
<stdin>:21:13: note: place parentheses around the '+' expression to silence this warning
   21 |   o[19] = a + b << c;
      |             ^
      |           (    )
18 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 3: -Wall adds '&&' within '||' and '&' within '|'.
#[test]
fn logical_and_bitwise_op_parentheses_with_wall() {
    let src = r#"kernel void k(global int *o, int a, int b, int c) {
  o[0] = a && b || c;
  o[1] = a || b && c;
  o[2] = a | b & c;
  o[3] = a ^ b & c;
  o[4] = a | b ^ c;
  o[5] = (a && b) || c;
}
"#;
    let expected = r#"<stdin>:2:12: warning: '&&' within '||' [-Wlogical-op-parentheses]
    2 |   o[0] = a && b || c;
      |          ~~^~~~ ~~
<stdin>:2:12: note: place parentheses around the '&&' expression to silence this warning
    2 |   o[0] = a && b || c;
      |            ^
      |          (     )
<stdin>:3:17: warning: '&&' within '||' [-Wlogical-op-parentheses]
    3 |   o[1] = a || b && c;
      |            ~~ ~~^~~~
<stdin>:3:17: note: place parentheses around the '&&' expression to silence this warning
    3 |   o[1] = a || b && c;
      |                 ^   
      |               (     )
<stdin>:4:16: warning: '&' within '|' [-Wbitwise-op-parentheses]
    4 |   o[2] = a | b & c;
      |            ~ ~~^~~
<stdin>:4:16: note: place parentheses around the '&' expression to silence this warning
    4 |   o[2] = a | b & c;
      |                ^  
      |              (    )
<stdin>:5:16: warning: '&' within '^' [-Wbitwise-op-parentheses]
    5 |   o[3] = a ^ b & c;
      |            ~ ~~^~~
<stdin>:5:16: note: place parentheses around the '&' expression to silence this warning
    5 |   o[3] = a ^ b & c;
      |                ^  
      |              (    )
<stdin>:6:16: warning: '^' within '|' [-Wbitwise-op-parentheses]
    6 |   o[4] = a | b ^ c;
      |            ~ ~~^~~
<stdin>:6:16: note: place parentheses around the '^' expression to silence this warning
    6 |   o[4] = a | b ^ c;
      |                ^  
      |              (    )
5 warnings generated.
"#;
    assert_eq!(check(src, &["-Wall"]), expected);
}

/// Item 3: '&&' within '||' is off by default.
#[test]
fn logical_and_bitwise_op_parentheses_default_off() {
    let src = r#"kernel void k(global int *o, int a, int b, int c) {
  o[0] = a && b || c;
  o[1] = a || b && c;
  o[2] = a | b & c;
  o[3] = a ^ b & c;
  o[4] = a | b ^ c;
  o[5] = (a && b) || c;
}
"#;
    let expected = r#""#;
    assert_eq!(check(src, &[]), expected);
}

/// Items 4, 8: integer constant conversions and -Wimplicit-const-int-float-conversion on operands.
#[test]
fn constant_conversions() {
    let src = r#"void fc(char c);
char rc(void) { return 300; }
kernel void k(global char *o, global float *fo, float f, int i) {
  int x = 0xffffffff;
  char c = 0xff;
  short s = 0xffff;
  int y = 0x1ffffffff;
  uint u = -1;
  uchar uc2 = 256;
  char c2 = 128;
  char c3 = -129;
  int w = 2147483648;
  c = 255;
  c = 0x1ff;
  char c4 = 'a' + 200;
  int q = 3000000000u;
  short s2 = 40000;
  short s3 = (short)40000;
  bool bb = 2;
  fc(300);
  char a[2] = {300, 1};
  char cp = (300);
  c = i ? 300 : 2;
  char4 v4 = 300;
  const int big = 70000;
  short sh = big;
  char yy = 100 + 100;
  if (0) { c = 1000; }
  fo[0] = f * 0x7fffffff;
  fo[1] = f < 16777217;
  fo[2] = 16777217 + f;
  fo[3] = f * 16777216;
  float g = 16777217;
  f += 16777217;
  f = 16777217;
  fo[4] = f * (1 << 30 | 1);
  fo[5] = f * 2147483647L;
  fo[6] = f * -16777217;
  float4 fv = (float4)(1.0f);
  fv = fv * 16777217;
  fo[7] = f == 0xffffffff;
  fo[8] = f * 100000001;
  fo[9] = f * 10000000001L;
  fo[10] = f * 0xffffffffffffffffUL;
  fo[11] = f ? 16777217 : f;
  fo[12] = f * big;
}
"#;
    let expected = r#"<stdin>:2:24: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44 [-Wconstant-conversion]
    2 | char rc(void) { return 300; }
      |                 ~~~~~~ ^~~
<stdin>:10:13: warning: implicit conversion from 'int' to 'char' changes value from 128 to -128 [-Wconstant-conversion]
   10 |   char c2 = 128;
      |        ~~   ^~~
<stdin>:12:11: warning: implicit conversion from 'long' to 'int' changes value from 2147483648 to -2147483648 [-Wconstant-conversion]
   12 |   int w = 2147483648;
      |       ~   ^~~~~~~~~~
<stdin>:13:7: warning: implicit conversion from 'int' to 'char' changes value from 255 to -1 [-Wconstant-conversion]
   13 |   c = 255;
      |     ~ ^~~
<stdin>:17:14: warning: implicit conversion from 'int' to 'short' changes value from 40000 to -25536 [-Wconstant-conversion]
   17 |   short s2 = 40000;
      |         ~~   ^~~~~
<stdin>:27:17: warning: implicit conversion from 'int' to 'char' changes value from 200 to -56 [-Wconstant-conversion]
   27 |   char yy = 100 + 100;
      |        ~~   ~~~~^~~~~
<stdin>:45:14: error: used type 'float' where floating point type is not allowed
   45 |   fo[11] = f ? 16777217 : f;
      |            ~ ^
<stdin>:7:11: warning: implicit conversion from 'long' to 'int' changes value from 8589934591 to -1 [-Wconstant-conversion]
    7 |   int y = 0x1ffffffff;
      |       ~   ^~~~~~~~~~~
<stdin>:9:15: warning: implicit conversion from 'int' to 'uchar' (aka 'unsigned char') changes value from 256 to 0 [-Wconstant-conversion]
    9 |   uchar uc2 = 256;
      |         ~~~   ^~~
<stdin>:11:13: warning: implicit conversion from 'int' to 'char' changes value from -129 to 127 [-Wconstant-conversion]
   11 |   char c3 = -129;
      |        ~~   ^~~~
<stdin>:14:7: warning: implicit conversion from 'int' to 'char' changes value from 511 to -1 [-Wconstant-conversion]
   14 |   c = 0x1ff;
      |     ~ ^~~~~
<stdin>:15:17: warning: implicit conversion from 'int' to 'char' changes value from 297 to 41 [-Wconstant-conversion]
   15 |   char c4 = 'a' + 200;
      |        ~~   ~~~~^~~~~
<stdin>:20:6: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44 [-Wconstant-conversion]
   20 |   fc(300);
      |   ~~ ^~~
<stdin>:21:16: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44 [-Wconstant-conversion]
   21 |   char a[2] = {300, 1};
      |               ~^~~
<stdin>:22:14: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44 [-Wconstant-conversion]
   22 |   char cp = (300);
      |        ~~    ^~~
<stdin>:23:11: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44 [-Wconstant-conversion]
   23 |   c = i ? 300 : 2;
      |     ~     ^~~
<stdin>:24:14: warning: implicit conversion from 'int' to 'char4' (vector of 4 'char' values) changes value from 300 to 44 [-Wconstant-conversion]
   24 |   char4 v4 = 300;
      |         ~~   ^~~
<stdin>:26:14: warning: implicit conversion from 'const __private int' to 'short' changes value from 70000 to 4464 [-Wconstant-conversion]
   26 |   short sh = big;
      |         ~~   ^~~
<stdin>:28:16: warning: implicit conversion from 'int' to 'char' changes value from 1000 to -24 [-Wconstant-conversion]
   28 |   if (0) { c = 1000; }
      |              ~ ^~~~
<stdin>:29:15: warning: implicit conversion from 'int' to 'float' changes value from 2147483647 to 2147483648 [-Wimplicit-const-int-float-conversion]
   29 |   fo[0] = f * 0x7fffffff;
      |             ~ ^~~~~~~~~~
<stdin>:30:15: warning: implicit conversion from 'int' to 'float' changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   30 |   fo[1] = f < 16777217;
      |             ~ ^~~~~~~~
<stdin>:31:11: warning: implicit conversion from 'int' to 'float' changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   31 |   fo[2] = 16777217 + f;
      |           ^~~~~~~~ ~
<stdin>:33:13: warning: implicit conversion from 'int' to 'float' changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   33 |   float g = 16777217;
      |         ~   ^~~~~~~~
<stdin>:34:8: warning: implicit conversion from 'int' to 'float' changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   34 |   f += 16777217;
      |     ~~ ^~~~~~~~
<stdin>:35:7: warning: implicit conversion from 'int' to 'float' changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   35 |   f = 16777217;
      |     ~ ^~~~~~~~
<stdin>:36:24: warning: implicit conversion from 'int' to 'float' changes value from 1073741825 to 1073741824 [-Wimplicit-const-int-float-conversion]
   36 |   fo[4] = f * (1 << 30 | 1);
      |             ~  ~~~~~~~~^~~
<stdin>:37:15: warning: implicit conversion from 'long' to 'float' changes value from 2147483647 to 2147483648 [-Wimplicit-const-int-float-conversion]
   37 |   fo[5] = f * 2147483647L;
      |             ~ ^~~~~~~~~~~
<stdin>:38:15: warning: implicit conversion from 'int' to 'float' changes value from -16777217 to -16777216 [-Wimplicit-const-int-float-conversion]
   38 |   fo[6] = f * -16777217;
      |             ~ ^~~~~~~~~
<stdin>:40:13: warning: implicit conversion from 'int' to 'float4' (vector of 4 'float' values) changes value from 16777217 to 16777216 [-Wimplicit-const-int-float-conversion]
   40 |   fv = fv * 16777217;
      |           ~ ^~~~~~~~
<stdin>:41:16: warning: implicit conversion from 'unsigned int' to 'float' changes value from 4294967295 to 4294967296 [-Wimplicit-const-int-float-conversion]
   41 |   fo[7] = f == 0xffffffff;
      |             ~~ ^~~~~~~~~~
<stdin>:42:15: warning: implicit conversion from 'int' to 'float' changes value from 100000001 to 1.0E+8 [-Wimplicit-const-int-float-conversion]
   42 |   fo[8] = f * 100000001;
      |             ~ ^~~~~~~~~
<stdin>:43:15: warning: implicit conversion from 'long' to 'float' changes value from 10000000001 to 1.0E+10 [-Wimplicit-const-int-float-conversion]
   43 |   fo[9] = f * 10000000001L;
      |             ~ ^~~~~~~~~~~~
<stdin>:44:16: warning: implicit conversion from 'unsigned long' to 'float' changes value from 18446744073709551615 to 18446744073709551616 [-Wimplicit-const-int-float-conversion]
   44 |   fo[10] = f * 0xffffffffffffffffUL;
      |              ~ ^~~~~~~~~~~~~~~~~~~~
32 warnings and 1 error generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Items 4, 8: -w silences them.
#[test]
fn constant_conversions_silenced_by_w() {
    let src = r#"void fc(char c);
char rc(void) { return 300; }
kernel void k(global char *o, global float *fo, float f, int i) {
  int x = 0xffffffff;
  char c = 0xff;
  short s = 0xffff;
  int y = 0x1ffffffff;
  uint u = -1;
  uchar uc2 = 256;
  char c2 = 128;
  char c3 = -129;
  int w = 2147483648;
  c = 255;
  c = 0x1ff;
  char c4 = 'a' + 200;
  int q = 3000000000u;
  short s2 = 40000;
  short s3 = (short)40000;
  bool bb = 2;
  fc(300);
  char a[2] = {300, 1};
  char cp = (300);
  c = i ? 300 : 2;
  char4 v4 = 300;
  const int big = 70000;
  short sh = big;
  char yy = 100 + 100;
  if (0) { c = 1000; }
  fo[0] = f * 0x7fffffff;
  fo[1] = f < 16777217;
  fo[2] = 16777217 + f;
  fo[3] = f * 16777216;
  float g = 16777217;
  f += 16777217;
  f = 16777217;
  fo[4] = f * (1 << 30 | 1);
  fo[5] = f * 2147483647L;
  fo[6] = f * -16777217;
  float4 fv = (float4)(1.0f);
  fv = fv * 16777217;
  fo[7] = f == 0xffffffff;
  fo[8] = f * 100000001;
  fo[9] = f * 10000000001L;
  fo[10] = f * 0xffffffffffffffffUL;
  fo[11] = f ? 16777217 : f;
  fo[12] = f * big;
}
"#;
    let expected = r#"<stdin>:45:14: error: used type 'float' where floating point type is not allowed
   45 |   fo[11] = f ? 16777217 : f;
      |            ~ ^
1 error generated.
"#;
    assert_eq!(check(src, &["-w"]), expected);
}

/// Item 5: -Wunknown-attributes in every place attributes go.
#[test]
fn unknown_attributes() {
    let src = r#"__attribute__((foo)) int g1(int x) { return x; }
int __attribute__((bar(1, 2))) g2(int x) { return x; }
__attribute__((always_inline, baz, noinline)) int g3(int x) { return x; }
__attribute__((__unknown_thing__)) void g4(void) {}
typedef int T __attribute__((qux));
struct __attribute__((quux)) S { int a __attribute__((zz)); };
kernel __attribute__((reqd_work_group_size(1,1,1), frob)) void k(global int *o __attribute__((yy))) {
  int v __attribute__((ww)) = 0;
  __attribute__((stmtattr)) for (int i = 0; i < 2; i++) o[i] = v;
  int __attribute__((loc1)) x = 0, __attribute__((loc2)) y = 1;
  o[0] = x + y;
}
void g5(void) __attribute__((vv));
__attribute__((vec_type_hint(int), work_group_size_hint(1,1,1), hot)) kernel void k2(global int *o) {}
[[foo]] void g7(void);
[[gnu::hot]] void g8(void);
[[clang::xyz]] void g9(void);
enum __attribute__((e1)) E { EA __attribute__((e2)) };
__attribute__((unknown1(1, "x", undeclared_y))) void g10(void);
__attribute__((__noinline__, __weird__)) void g11(void);
"#;
    let expected = r#"<stdin>:1:16: warning: unknown attribute 'foo' ignored [-Wunknown-attributes]
    1 | __attribute__((foo)) int g1(int x) { return x; }
      |                ^~~
<stdin>:2:20: warning: unknown attribute 'bar' ignored [-Wunknown-attributes]
    2 | int __attribute__((bar(1, 2))) g2(int x) { return x; }
      |                    ^~~~~~~~~
<stdin>:3:31: warning: unknown attribute 'baz' ignored [-Wunknown-attributes]
    3 | __attribute__((always_inline, baz, noinline)) int g3(int x) { return x; }
      |                               ^~~
<stdin>:4:16: warning: unknown attribute '__unknown_thing__' ignored [-Wunknown-attributes]
    4 | __attribute__((__unknown_thing__)) void g4(void) {}
      |                ^~~~~~~~~~~~~~~~~
<stdin>:5:30: warning: unknown attribute 'qux' ignored [-Wunknown-attributes]
    5 | typedef int T __attribute__((qux));
      |                              ^~~
<stdin>:6:23: warning: unknown attribute 'quux' ignored [-Wunknown-attributes]
    6 | struct __attribute__((quux)) S { int a __attribute__((zz)); };
      |                       ^~~~
<stdin>:6:55: warning: unknown attribute 'zz' ignored [-Wunknown-attributes]
    6 | struct __attribute__((quux)) S { int a __attribute__((zz)); };
      |                                                       ^~
<stdin>:7:95: warning: unknown attribute 'yy' ignored [-Wunknown-attributes]
    7 | kernel __attribute__((reqd_work_group_size(1,1,1), frob)) void k(global int *o __attribute__((yy))) {
      |                                                                                               ^~
<stdin>:7:52: warning: unknown attribute 'frob' ignored [-Wunknown-attributes]
    7 | kernel __attribute__((reqd_work_group_size(1,1,1), frob)) void k(global int *o __attribute__((yy))) {
      |                                                    ^~~~
<stdin>:8:24: warning: unknown attribute 'ww' ignored [-Wunknown-attributes]
    8 |   int v __attribute__((ww)) = 0;
      |                        ^~
<stdin>:9:18: warning: unknown attribute 'stmtattr' ignored [-Wunknown-attributes]
    9 |   __attribute__((stmtattr)) for (int i = 0; i < 2; i++) o[i] = v;
      |                  ^~~~~~~~
<stdin>:10:22: warning: unknown attribute 'loc1' ignored [-Wunknown-attributes]
   10 |   int __attribute__((loc1)) x = 0, __attribute__((loc2)) y = 1;
      |                      ^~~~
<stdin>:10:22: warning: unknown attribute 'loc1' ignored [-Wunknown-attributes]
   10 |   int __attribute__((loc1)) x = 0, __attribute__((loc2)) y = 1;
      |                      ^~~~
<stdin>:10:51: warning: unknown attribute 'loc2' ignored [-Wunknown-attributes]
   10 |   int __attribute__((loc1)) x = 0, __attribute__((loc2)) y = 1;
      |                                                   ^~~~
<stdin>:13:30: warning: unknown attribute 'vv' ignored [-Wunknown-attributes]
   13 | void g5(void) __attribute__((vv));
      |                              ^~
<stdin>:15:3: warning: unknown attribute 'foo' ignored [-Wunknown-attributes]
   15 | [[foo]] void g7(void);
      |   ^~~
<stdin>:17:3: warning: unknown attribute 'xyz' ignored [-Wunknown-attributes]
   17 | [[clang::xyz]] void g9(void);
      |   ^~~~~~~~~~
<stdin>:18:21: warning: unknown attribute 'e1' ignored [-Wunknown-attributes]
   18 | enum __attribute__((e1)) E { EA __attribute__((e2)) };
      |                     ^~
<stdin>:18:48: warning: unknown attribute 'e2' ignored [-Wunknown-attributes]
   18 | enum __attribute__((e1)) E { EA __attribute__((e2)) };
      |                                                ^~
<stdin>:19:33: error: use of undeclared identifier 'undeclared_y'
   19 | __attribute__((unknown1(1, "x", undeclared_y))) void g10(void);
      |                                 ^
<stdin>:20:30: warning: unknown attribute '__weird__' ignored [-Wunknown-attributes]
   20 | __attribute__((__noinline__, __weird__)) void g11(void);
      |                              ^~~~~~~~~
20 warnings and 1 error generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 6: in the main file -Wstatic-in-inline is an extension (shown with -pedantic).
#[test]
fn static_in_inline_main_file_pedantic() {
    let src = r#"static int sf(int x) { return x; }
static __constant int scv = 2;
__constant int gcv = 3;
static inline int si(int x) { return x; }
__attribute__((const)) static int sc(int x) { return x; }
extern inline int e1(int x) { return sf(x); }
inline int g1(int x) { return sf(x) + sf(x); }
inline int g2(int x);
inline int g2(int x) { return scv + gcv + sc(x) + si(x); }
int plain(int x) { return sf(x); }
static int sf2(int x);
inline int g3(int x) { return sf2(x); }
static int sf2(int x) { return x; }
extern int g6(int x);
inline int g6(int x) { return sf(x); }
static inline int g7(int x) { return sf(x); }
kernel void k(global int *o) { o[0] = g1(1) + g2(1) + e1(1) + plain(1) + g3(1) + g6(1) + g7(1); }
"#;
    let expected = r#"<stdin>:6:38: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    6 | extern inline int e1(int x) { return sf(x); }
      |                                      ^
<stdin>:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
<stdin>:7:31: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      |                               ^
<stdin>:7:1: note: use 'static' to give inline function 'g1' internal linkage
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      | ^
      | static 
<stdin>:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
<stdin>:7:39: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      |                                       ^
<stdin>:7:1: note: use 'static' to give inline function 'g1' internal linkage
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      | ^
      | static 
<stdin>:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
<stdin>:9:31: warning: static variable 'scv' is used in an inline function with external linkage [-Wstatic-in-inline]
    9 | inline int g2(int x) { return scv + gcv + sc(x) + si(x); }
      |                               ^
<stdin>:8:1: note: use 'static' to give inline function 'g2' internal linkage
    8 | inline int g2(int x);
      | ^
      | static 
<stdin>:2:23: note: 'scv' declared here
    2 | static __constant int scv = 2;
      |                       ^
<stdin>:9:43: warning: static function 'sc' is used in an inline function with external linkage [-Wstatic-in-inline]
    9 | inline int g2(int x) { return scv + gcv + sc(x) + si(x); }
      |                                           ^
<stdin>:8:1: note: use 'static' to give inline function 'g2' internal linkage
    8 | inline int g2(int x);
      | ^
      | static 
<stdin>:5:35: note: 'sc' declared here
    5 | __attribute__((const)) static int sc(int x) { return x; }
      |                                   ^
<stdin>:9:51: warning: static function 'si' is used in an inline function with external linkage [-Wstatic-in-inline]
    9 | inline int g2(int x) { return scv + gcv + sc(x) + si(x); }
      |                                                   ^
<stdin>:8:1: note: use 'static' to give inline function 'g2' internal linkage
    8 | inline int g2(int x);
      | ^
      | static 
<stdin>:4:19: note: 'si' declared here
    4 | static inline int si(int x) { return x; }
      |                   ^
<stdin>:12:31: warning: static function 'sf2' is used in an inline function with external linkage [-Wstatic-in-inline]
   12 | inline int g3(int x) { return sf2(x); }
      |                               ^
<stdin>:12:1: note: use 'static' to give inline function 'g3' internal linkage
   12 | inline int g3(int x) { return sf2(x); }
      | ^
      | static 
<stdin>:11:12: note: 'sf2' declared here
   11 | static int sf2(int x);
      |            ^
<stdin>:15:31: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
   15 | inline int g6(int x) { return sf(x); }
      |                               ^
<stdin>:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
8 warnings generated.
"#;
    assert_eq!(check(src, &["-pedantic"]), expected);
}

/// Item 6: ... and quiet by default.
#[test]
fn static_in_inline_main_file_default() {
    let src = r#"static int sf(int x) { return x; }
static __constant int scv = 2;
__constant int gcv = 3;
static inline int si(int x) { return x; }
__attribute__((const)) static int sc(int x) { return x; }
extern inline int e1(int x) { return sf(x); }
inline int g1(int x) { return sf(x) + sf(x); }
inline int g2(int x);
inline int g2(int x) { return scv + gcv + sc(x) + si(x); }
int plain(int x) { return sf(x); }
static int sf2(int x);
inline int g3(int x) { return sf2(x); }
static int sf2(int x) { return x; }
extern int g6(int x);
inline int g6(int x) { return sf(x); }
static inline int g7(int x) { return sf(x); }
kernel void k(global int *o) { o[0] = g1(1) + g2(1) + e1(1) + plain(1) + g3(1) + g6(1) + g7(1); }
"#;
    let expected = r#""#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 6: -Wstatic-local-in-inline.
#[test]
fn static_local_in_inline_cl20() {
    let src = r#"inline int g3(int x) { static __constant int z = 3; return z + x; }
static inline int g4(int x) { static __constant int z = 3; return z + x; }
inline int g5(int x) { static const __constant int z = 3; return z + x; }
kernel void k(global int *o) { o[0] = g3(1) + g4(1) + g5(1); }
"#;
    let expected = r#"<stdin>:1:24: warning: non-constant static local variable in inline function may be different in different files [-Wstatic-local-in-inline]
    1 | inline int g3(int x) { static __constant int z = 3; return z + x; }
      |                        ^
<stdin>:1:1: note: use 'static' to give inline function 'g3' internal linkage
    1 | inline int g3(int x) { static __constant int z = 3; return z + x; }
      | ^
      | static 
1 warning generated.
"#;
    assert_eq!(check(src, &["-cl-std=CL2.0"]), expected);
}

/// Item 9: -Wpointer-sign prints types with their typedef sugar, and clang-19's plain-char wording.
#[test]
fn pointer_sign_typedef_sugar() {
    let src = r#"typedef unsigned char u8;
typedef u8 *u8p;
typedef uint u32;
typedef int s32;
typedef struct { u8 a[4]; u32 v; } S;
void f(char *p);
void g(__global u32 *p);
void h(s32 *p);
kernel void k(global char *o, global u8 *q, global u32 *r, global S *s) {
  u8 b[4];
  u8 x;
  u32 y;
  S ls;
  f(b);
  f(&x);
  h(&y);
  char *c1 = &x;
  s32 *p2 = &ls.v;
  f(ls.a);
  f(&b[1]);
  f(b + 1);
  __private u8 *pq = 0;
  f(pq);
  const u8 *cq = 0;
  const char *cc = cq;
  h((u32 *)0);
  signed char sc[2];
  char *q2 = sc;
  uchar *u2 = sc;
  __global int *w = r;
  w = r;
}
"#;
    let expected = r#"<stdin>:14:5: warning: passing '__private u8[4]' (aka '__private unsigned char[4]') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   14 |   f(b);
      |     ^
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:15:5: warning: passing '__private u8 *' (aka '__private unsigned char *') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   15 |   f(&x);
      |     ^~
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:16:5: warning: passing '__private u32 *' (aka '__private unsigned int *') to parameter of type '__private s32 *' (aka '__private int *') converts between pointers to integer types with different sign [-Wpointer-sign]
   16 |   h(&y);
      |     ^~
<stdin>:8:13: note: passing argument to parameter 'p' here
    8 | void h(s32 *p);
      |             ^
<stdin>:17:9: warning: initializing '__private char *__private' with an expression of type '__private u8 *' (aka '__private unsigned char *') converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   17 |   char *c1 = &x;
      |         ^    ~~
<stdin>:18:8: warning: initializing '__private s32 *__private' (aka '__private int *__private') with an expression of type '__private u32 *' (aka '__private unsigned int *') converts between pointers to integer types with different sign [-Wpointer-sign]
   18 |   s32 *p2 = &ls.v;
      |        ^    ~~~~~
<stdin>:19:5: warning: passing '__private u8[4]' (aka '__private unsigned char[4]') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   19 |   f(ls.a);
      |     ^~~~
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:20:5: warning: passing '__private u8 *' (aka '__private unsigned char *') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   20 |   f(&b[1]);
      |     ^~~~~
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:21:5: warning: passing '__private u8 *' (aka '__private unsigned char *') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   21 |   f(b + 1);
      |     ^~~~~
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:23:5: warning: passing '__private u8 *__private' (aka '__private unsigned char *__private') to parameter of type '__private char *' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   23 |   f(pq);
      |     ^~
<stdin>:6:14: note: passing argument to parameter 'p' here
    6 | void f(char *p);
      |              ^
<stdin>:25:15: warning: initializing 'const __private char *__private' with an expression of type 'const __private u8 *__private' (aka 'const __private unsigned char *__private') converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   25 |   const char *cc = cq;
      |               ^    ~~
<stdin>:26:5: warning: passing '__private u32 *' (aka '__private unsigned int *') to parameter of type '__private s32 *' (aka '__private int *') converts between pointers to integer types with different sign [-Wpointer-sign]
   26 |   h((u32 *)0);
      |     ^~~~~~~~
<stdin>:8:13: note: passing argument to parameter 'p' here
    8 | void h(s32 *p);
      |             ^
<stdin>:28:9: warning: initializing '__private char *__private' with an expression of type '__private signed char[2]' converts between pointers to integer types where one is of the unique plain 'char' type and the other is not [-Wpointer-sign]
   28 |   char *q2 = sc;
      |         ^    ~~
<stdin>:29:10: warning: initializing '__private uchar *__private' (aka '__private unsigned char *__private') with an expression of type '__private signed char[2]' converts between pointers to integer types with different sign [-Wpointer-sign]
   29 |   uchar *u2 = sc;
      |          ^    ~~
<stdin>:30:17: warning: initializing '__global int *__private' with an expression of type '__global u32 *__private' (aka '__global unsigned int *__private') converts between pointers to integer types with different sign [-Wpointer-sign]
   30 |   __global int *w = r;
      |                 ^   ~
<stdin>:31:5: warning: assigning to '__global int *__private' from '__global u32 *__private' (aka '__global unsigned int *__private') converts between pointers to integer types with different sign [-Wpointer-sign]
   31 |   w = r;
      |     ^ ~
15 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Flags: -Werror=unused-value applies to the held run-time warnings.
#[test]
fn comma_unused_value_as_error() {
    let src = r#"int f(void);
#define SEQ_IN_BODY(x) (1, x)
kernel void k(global int *o) {
  int a = 0, b = 1;
  a, b;
  a = 1, b = 2;
  (a, b);
  o[0] = (a, b);
  o[1] = (a + 1, b);
  o[2] = (f(), b);
  o[3] = (a = 2, b);
  for (a = 0, b = 0; a < 3; a++, b++) {}
  for (a + 1, b = 0; a < 3; a++, b + 1) {}
  (void)(a, b);
  a + 1, f();
  f(), a + 1;
  o[4] = (1, 2);
  o[5] = ((void)0, 3);
  o[6] = (o[0], 4);
  o[8] = (a++, b);
  o[9] = SEQ_IN_BODY(a);
  o[11] = (a == b, b);
  o[12] = ((int)a, b);
  o[16] = (b, a, b);
  int c = (a, b);
  while (a, b < 4) { b++; }
  if (a, b) {}
  o[17] = ((a, b), b);
  o[18] = (a, 0);
}
"#;
    let expected = r#"<stdin>:22:14: error: equality comparison result unused [-Werror,-Wunused-comparison]
   22 |   o[11] = (a == b, b);
      |            ~~^~~~
<stdin>:22:14: note: use '=' to turn this equality comparison into an assignment
   22 |   o[11] = (a == b, b);
      |              ^~
      |              =
<stdin>:5:3: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
    5 |   a, b;
      |   ^
<stdin>:5:6: error: expression result unused [-Werror,-Wunused-value]
    5 |   a, b;
      |      ^
<stdin>:7:4: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
    7 |   (a, b);
      |    ^
<stdin>:7:7: error: expression result unused [-Werror,-Wunused-value]
    7 |   (a, b);
      |       ^
<stdin>:8:11: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
    8 |   o[0] = (a, b);
      |           ^
<stdin>:9:13: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
    9 |   o[1] = (a + 1, b);
      |           ~ ^ ~
<stdin>:13:10: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   13 |   for (a + 1, b = 0; a < 3; a++, b + 1) {}
      |        ~ ^ ~
<stdin>:13:36: error: expression result unused [-Werror,-Wunused-value]
   13 |   for (a + 1, b = 0; a < 3; a++, b + 1) {}
      |                                  ~ ^ ~
<stdin>:14:10: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   14 |   (void)(a, b);
      |          ^
<stdin>:15:5: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   15 |   a + 1, f();
      |   ~ ^ ~
<stdin>:16:10: error: expression result unused [-Werror,-Wunused-value]
   16 |   f(), a + 1;
      |        ~ ^ ~
<stdin>:17:11: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   17 |   o[4] = (1, 2);
      |           ^
<stdin>:19:14: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   19 |   o[6] = (o[0], 4);
      |           ~ ~^
<stdin>:23:12: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   23 |   o[12] = ((int)a, b);
      |            ^    ~
<stdin>:24:12: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   24 |   o[16] = (b, a, b);
      |            ^
<stdin>:24:15: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   24 |   o[16] = (b, a, b);
      |               ^
<stdin>:25:12: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   25 |   int c = (a, b);
      |            ^
<stdin>:26:10: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   26 |   while (a, b < 4) { b++; }
      |          ^
<stdin>:27:7: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   27 |   if (a, b) {}
      |       ^
<stdin>:28:13: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   28 |   o[17] = ((a, b), b);
      |             ^
<stdin>:28:16: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   28 |   o[17] = ((a, b), b);
      |                ^
<stdin>:29:12: error: left operand of comma operator has no effect [-Werror,-Wunused-value]
   29 |   o[18] = (a, 0);
      |            ^
23 errors generated.
"#;
    assert_eq!(check(src, &["-Werror=unused-value"]), expected);
}

/// Item 6: in an included header -Wstatic-in-inline is on by default (for a function that is
/// neither `inline` nor `const`), with the `static` fix-it note where the function's first
/// declaration has no storage class. (oclc prints no "In file included from" line: that line
/// is left out of the comparison.)
#[test]
fn static_in_inline_from_a_header() {
    let dir = std::env::temp_dir().join(format!("oclc-rw-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("h.h"),
        r#"static int sf(int x) { return x; }
static __constant int scv = 2;
__constant int gcv = 3;
static inline int si(int x) { return x; }
__attribute__((const)) static int sc(int x) { return x; }
extern inline int e1(int x) { return sf(x); }
inline int g1(int x) { return sf(x) + sf(x); }
inline int g2(int x);
inline int g2(int x) { return scv + gcv + sc(x); }
int plain(int x) { return sf(x); }
static int sf2(int x);
inline int g3(int x) { return sf2(x); }
static int sf2(int x) { return x; }
__attribute__((always_inline)) int g4(int x) { return sf(x); }
extern int g6(int x);
inline int g6(int x) { return sf(x); }
"#,
    )
    .expect("header");
    let main = dir.join("main.cl");
    std::fs::write(
        &main,
        r#"#include "h.h"
kernel void k(global int *o) { o[0] = g1(1) + g2(1) + e1(1) + plain(1) + g3(1) + g6(1); }
"#,
    )
    .expect("main");
    let main_s = main.to_string_lossy().into_owned();
    let r = oclc_bin::oclc(
        &["check", "-triple", "spir64-unknown-unknown", &main_s],
        b"",
    );
    let d = dir.to_string_lossy().into_owned();
    let got = r.stderr.replace(&format!("{d}/"), "DIR/");
    let expected = r#"In file included from DIR/main.cl:1:
DIR/h.h:6:38: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    6 | extern inline int e1(int x) { return sf(x); }
      |                                      ^
DIR/h.h:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
DIR/h.h:7:31: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      |                               ^
DIR/h.h:7:1: note: use 'static' to give inline function 'g1' internal linkage
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      | ^
      | static 
DIR/h.h:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
DIR/h.h:7:39: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      |                                       ^
DIR/h.h:7:1: note: use 'static' to give inline function 'g1' internal linkage
    7 | inline int g1(int x) { return sf(x) + sf(x); }
      | ^
      | static 
DIR/h.h:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
DIR/h.h:9:31: warning: static variable 'scv' is used in an inline function with external linkage [-Wstatic-in-inline]
    9 | inline int g2(int x) { return scv + gcv + sc(x); }
      |                               ^
DIR/h.h:8:1: note: use 'static' to give inline function 'g2' internal linkage
    8 | inline int g2(int x);
      | ^
      | static 
DIR/h.h:2:23: note: 'scv' declared here
    2 | static __constant int scv = 2;
      |                       ^
DIR/h.h:12:31: warning: static function 'sf2' is used in an inline function with external linkage [-Wstatic-in-inline]
   12 | inline int g3(int x) { return sf2(x); }
      |                               ^
DIR/h.h:12:1: note: use 'static' to give inline function 'g3' internal linkage
   12 | inline int g3(int x) { return sf2(x); }
      | ^
      | static 
DIR/h.h:11:12: note: 'sf2' declared here
   11 | static int sf2(int x);
      |            ^
DIR/h.h:16:31: warning: static function 'sf' is used in an inline function with external linkage [-Wstatic-in-inline]
   16 | inline int g6(int x) { return sf(x); }
      |                               ^
DIR/h.h:1:12: note: 'sf' declared here
    1 | static int sf(int x) { return x; }
      |            ^
6 warnings generated.
"#;
    assert_eq!(got, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run-time warnings held to the end of the function: -Warray-bounds underlines the index
/// (without its parentheses) and notes the declaration where it starts.
#[test]
fn array_bounds_range_and_note() {
    let src = r#"kernel void k(global int *o) {
  __local int la[4];
  int a[3], b[2];
  static __constant int c[2] = {1,2};
  la[4] = 0;
  b[2] = 1;
  o[0] = a[(3)];
  for (int z[2], i = 0; i < 1; i++) z[5] = 0;
}
"#;
    let expected = r#"<stdin>:4:25: error: variables in function scope cannot be declared static
    4 |   static __constant int c[2] = {1,2};
      |                         ^
<stdin>:5:3: warning: array index 4 is past the end of the array (that has type '__local int[4]') [-Warray-bounds]
    5 |   la[4] = 0;
      |   ^  ~
<stdin>:2:3: note: array 'la' declared here
    2 |   __local int la[4];
      |   ^
<stdin>:6:3: warning: array index 2 is past the end of the array (that has type '__private int[2]') [-Warray-bounds]
    6 |   b[2] = 1;
      |   ^ ~
<stdin>:3:3: note: array 'b' declared here
    3 |   int a[3], b[2];
      |   ^
<stdin>:7:10: warning: array index 3 is past the end of the array (that has type '__private int[3]') [-Warray-bounds]
    7 |   o[0] = a[(3)];
      |          ^  ~
<stdin>:3:3: note: array 'a' declared here
    3 |   int a[3], b[2];
      |   ^
<stdin>:8:37: warning: array index 5 is past the end of the array (that has type '__private int[2]') [-Warray-bounds]
    8 |   for (int z[2], i = 0; i < 1; i++) z[5] = 0;
      |                                     ^ ~
<stdin>:8:8: note: array 'z' declared here
    8 |   for (int z[2], i = 0; i < 1; i++) z[5] = 0;
      |        ^
4 warnings and 1 error generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// Item 5: vendor attributes of real kernels (FPGA, Intel, OpenCL 1.0's `endian(host)`, whose
/// lone identifier argument is no expression) are unknown to clang-19; GNU ones are known.
#[test]
fn unknown_attributes_vendor() {
    let src = r#"kernel void k(global int *p __attribute__((endian(host))), constant int *c __attribute__((max_constant_size(16)))) {}
__attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
typedef int v2 __attribute__((vector_size(8)));
struct __attribute__((aligned(16), packed)) S { int x; };
"#;
    let expected = r#"<stdin>:1:44: warning: unknown attribute 'endian' ignored [-Wunknown-attributes]
    1 | kernel void k(global int *p __attribute__((endian(host))), constant int *c __attribute__((max_constant_size(16)))) {}
      |                                            ^~~~~~~~~~~~
<stdin>:1:91: warning: unknown attribute 'max_constant_size' ignored [-Wunknown-attributes]
    1 | kernel void k(global int *p __attribute__((endian(host))), constant int *c __attribute__((max_constant_size(16)))) {}
      |                                                                                           ^~~~~~~~~~~~~~~~~~~~~
<stdin>:2:16: warning: unknown attribute 'num_simd_work_items' ignored [-Wunknown-attributes]
    2 | __attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
      |                ^~~~~~~~~~~~~~~~~~~~~~
<stdin>:2:40: warning: unknown attribute 'max_work_group_size' ignored [-Wunknown-attributes]
    2 | __attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
      |                                        ^~~~~~~~~~~~~~~~~~~~~~~
<stdin>:2:65: warning: unknown attribute 'xcl_zero_global_work_offset' ignored [-Wunknown-attributes]
    2 | __attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
      |                                                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~
<stdin>:2:142: warning: unknown attribute 'xcl_pipeline_loop' ignored [-Wunknown-attributes]
    2 | __attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
      |                                                                                                                                              ^~~~~~~~~~~~~~~~~
<stdin>:2:215: warning: unknown attribute 'nounroll' ignored [-Wunknown-attributes]
    2 | __attribute__((num_simd_work_items(4), max_work_group_size(64), xcl_zero_global_work_offset)) kernel void k2(global int *p) { __attribute__((xcl_pipeline_loop)) for (int i = 0; i < 4; i++) p[i] = 0; __attribute__((nounroll)) for (int i = 0; i < 4; i++) p[i] = 0; }
      |                                                                                                                                                                                                                       ^~~~~~~~
7 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// -Wliteral-conversion: a floating literal (or `-literal`) converted to an integer, `bool` or
/// integer vector type in an initializer, assignment, argument or return: the changed value as
/// clang prints it (16 or 8 significant digits, `1.0E-4`), or "out of range ... is undefined";
/// nothing for an exact value or a compound assignment.
#[test]
fn literal_conversion() {
    let src = r#"int r(void) { return 2.5; }
int g(int x) { return x; }
kernel void k(global int *w, global bool *bo) {
  int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
  char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
  int4 v = 1.5; w[0] = 3.25; w[1] = g(7.5); a += 1.5; int a8 = 1.0e-20; int a9 = 3.0;
  int a10 = 1234567.25f; ulong g1 = 1.8e19; uint f = 4294967295.5; int e = -0.25;
  w[2] = a + a2 + a3 + a4 + a5 + c1 + u1 + a6 + a7 + v.x + a8 + a9 + a10 + g1 + f + e; bo[0] = b1;
}
"#;
    let expected = r#"<stdin>:1:22: warning: implicit conversion from 'double' to 'int' changes value from 2.5 to 2 [-Wliteral-conversion]
    1 | int r(void) { return 2.5; }
      |               ~~~~~~ ^~~
<stdin>:4:11: warning: implicit conversion from 'double' to 'int' changes value from 1.5 to 1 [-Wliteral-conversion]
    4 |   int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
      |       ~   ^~~
<stdin>:4:25: warning: implicit conversion from 'double' to 'int' changes value from 0.1 to 0 [-Wliteral-conversion]
    4 |   int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
      |                    ~~   ^~~
<stdin>:4:39: warning: implicit conversion from 'double' to 'int' changes value from 123456.789 to 123456 [-Wliteral-conversion]
    4 |   int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
      |                                  ~~   ^~~~~~~~~~
<stdin>:4:60: warning: implicit conversion from 'double' to 'int' changes value from 1.0E-4 to 0 [-Wliteral-conversion]
    4 |   int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
      |                                                       ~~   ^~~~~~
<stdin>:4:77: warning: implicit conversion of out of range value from 'double' to 'int' is undefined [-Wliteral-conversion]
    4 |   int a = 1.5; int a2 = 0.1; int a3 = 123456.789; int a4 = 0.0001; int a5 = 1e10;
      |                                                                        ~~   ^~~~
<stdin>:5:13: warning: implicit conversion of out of range value from 'double' to 'char' is undefined [-Wliteral-conversion]
    5 |   char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
      |        ~~   ^~~~~
<stdin>:5:30: warning: implicit conversion of out of range value from 'double' to 'uint' (aka 'unsigned int') is undefined [-Wliteral-conversion]
    5 |   char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
      |                         ~~   ^~~~
<stdin>:5:46: warning: implicit conversion from 'double' to 'int' changes value from 2.75 to 2 [-Wliteral-conversion]
    5 |   char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
      |                                        ~~    ^~~~
<stdin>:5:62: warning: implicit conversion from 'float' to 'int' changes value from 1.5 to 1 [-Wliteral-conversion]
    5 |   char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
      |                                                         ~~   ^~~~
<stdin>:5:78: warning: implicit conversion from 'double' to 'bool' changes value from 0.5 to true [-Wliteral-conversion]
    5 |   char c1 = 300.5; uint u1 = -1.5; int a6 = (2.75); int a7 = 1.5f; bool b1 = 0.5;
      |                                                                         ~~   ^~~
<stdin>:6:12: warning: implicit conversion from 'double' to 'int4' (vector of 4 'int' values) changes value from 1.5 to 1 [-Wliteral-conversion]
    6 |   int4 v = 1.5; w[0] = 3.25; w[1] = g(7.5); a += 1.5; int a8 = 1.0e-20; int a9 = 3.0;
      |        ~   ^~~
<stdin>:6:24: warning: implicit conversion from 'double' to 'int' changes value from 3.25 to 3 [-Wliteral-conversion]
    6 |   int4 v = 1.5; w[0] = 3.25; w[1] = g(7.5); a += 1.5; int a8 = 1.0e-20; int a9 = 3.0;
      |                      ~ ^~~~
<stdin>:6:39: warning: implicit conversion from 'double' to 'int' changes value from 7.5 to 7 [-Wliteral-conversion]
    6 |   int4 v = 1.5; w[0] = 3.25; w[1] = g(7.5); a += 1.5; int a8 = 1.0e-20; int a9 = 3.0;
      |                                     ~ ^~~
<stdin>:6:64: warning: implicit conversion from 'double' to 'int' changes value from 9.999999999999999E-21 to 0 [-Wliteral-conversion]
    6 |   int4 v = 1.5; w[0] = 3.25; w[1] = g(7.5); a += 1.5; int a8 = 1.0e-20; int a9 = 3.0;
      |                                                           ~~   ^~~~~~~
<stdin>:7:13: warning: implicit conversion from 'float' to 'int' changes value from 1234567.3 to 1234567 [-Wliteral-conversion]
    7 |   int a10 = 1234567.25f; ulong g1 = 1.8e19; uint f = 4294967295.5; int e = -0.25;
      |       ~~~   ^~~~~~~~~~~
<stdin>:7:54: warning: implicit conversion from 'double' to 'uint' (aka 'unsigned int') changes value from 4294967295.5 to 4294967295 [-Wliteral-conversion]
    7 |   int a10 = 1234567.25f; ulong g1 = 1.8e19; uint f = 4294967295.5; int e = -0.25;
      |                                                  ~   ^~~~~~~~~~~~
<stdin>:7:76: warning: implicit conversion from 'double' to 'int' changes value from -0.25 to 0 [-Wliteral-conversion]
    7 |   int a10 = 1234567.25f; ulong g1 = 1.8e19; uint f = 4294967295.5; int e = -0.25;
      |                                                                        ~   ^~~~~
18 warnings generated.
"#;
    assert_eq!(check(src, &["-cl-std=CL2.0"]), expected);
}

/// Parboil's sad kernel: a cast of a non-constant integer narrower than the pointer
/// (-Wint-to-pointer-cast, -Wint-to-void-pointer-cast to `void *`); none for `bool`, constants
/// or integers as wide as the pointer.
#[test]
fn int_to_pointer_cast() {
    let src = r#"typedef unsigned int U;
kernel void k(global int *o, int x, U u, long l, char c, bool b) {
  global unsigned short *p = (global unsigned short *) x;
  global void *q = (global void *) u;
  global int *r = (global int *) l;
  global int *s = (global int *) (x + 1);
  global int *t = (global int *) 5;
  global int *w = (global int *) c;
  global int *z = (global int *) b;
  o[0] = 0;
}
"#;
    let expected = r#"<stdin>:2:63: error: '__private bool' cannot be used as the type of a kernel parameter
    2 | kernel void k(global int *o, int x, U u, long l, char c, bool b) {
      |                                                               ^
<stdin>:3:30: warning: cast to '__global unsigned short *' from smaller integer type 'int' [-Wint-to-pointer-cast]
    3 |   global unsigned short *p = (global unsigned short *) x;
      |                              ^~~~~~~~~~~~~~~~~~~~~~~~~~~
<stdin>:4:20: warning: cast to '__global void *' from smaller integer type 'U' (aka 'unsigned int') [-Wint-to-void-pointer-cast]
    4 |   global void *q = (global void *) u;
      |                    ^~~~~~~~~~~~~~~~~
<stdin>:6:19: warning: cast to '__global int *' from smaller integer type 'int' [-Wint-to-pointer-cast]
    6 |   global int *s = (global int *) (x + 1);
      |                   ^~~~~~~~~~~~~~~~~~~~~~
<stdin>:8:19: warning: cast to '__global int *' from smaller integer type 'char' [-Wint-to-pointer-cast]
    8 |   global int *w = (global int *) c;
      |                   ^~~~~~~~~~~~~~~~
4 warnings and 1 error generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// VC4C's libxcam kernel: clang checks array bounds through struct members but not through a
/// vector's components (`in[3].s0` is not diagnosed; `loc[3]` and `s[2].x` are).
#[test]
fn array_bounds_not_through_vector_components() {
    let src = r#"typedef struct { float x; } S;
void f(float8 in[3], global float *o) {
  float8 loc[3];
  S s[2];
  o[0] = loc[3].s0 + in[3].s1 + loc[3].lo.x;
  float8 t = loc[3];
  o[1] = s[2].x;
}
kernel void k(global float *o) { }
"#;
    let expected = r#"<stdin>:6:14: warning: array index 3 is past the end of the array (that has type '__private float8[3]') [-Warray-bounds]
    6 |   float8 t = loc[3];
      |              ^   ~
<stdin>:3:3: note: array 'loc' declared here
    3 |   float8 loc[3];
      |   ^
<stdin>:7:10: warning: array index 2 is past the end of the array (that has type '__private S[2]') [-Warray-bounds]
    7 |   o[1] = s[2].x;
      |          ^ ~
<stdin>:4:3: note: array 's' declared here
    4 |   S s[2];
      |   ^
2 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}

/// clspv's tests: a pointer cast to a narrower integer (-Wpointer-to-int-cast,
/// -Wvoid-pointer-to-int-cast from `void *`); none to `bool` or to an integer as wide.
#[test]
fn pointer_to_int_cast() {
    let src = r#"typedef unsigned int U;
kernel void k(global int *o, global void *v, local char *l) {
  o[0] = (int) o;
  o[1] = (U) v;
  o[2] = (long) o;
  o[3] = (bool) o;
  o[4] = (char) l;
  o[5] = (uint) (o + 1);
}
"#;
    let expected = r#"<stdin>:3:10: warning: cast to smaller integer type 'int' from '__global int *' [-Wpointer-to-int-cast]
    3 |   o[0] = (int) o;
      |          ^~~~~~~
<stdin>:4:10: warning: cast to smaller integer type 'U' (aka 'unsigned int') from '__global void *' [-Wvoid-pointer-to-int-cast]
    4 |   o[1] = (U) v;
      |          ^~~~~
<stdin>:7:10: warning: cast to smaller integer type 'char' from '__local char *' [-Wpointer-to-int-cast]
    7 |   o[4] = (char) l;
      |          ^~~~~~~~
<stdin>:8:10: warning: cast to smaller integer type 'uint' (aka 'unsigned int') from '__global int *' [-Wpointer-to-int-cast]
    8 |   o[5] = (uint) (o + 1);
      |          ^~~~~~~~~~~~~~
4 warnings generated.
"#;
    assert_eq!(check(src, &[]), expected);
}
