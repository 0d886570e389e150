//! clang's GNU `__builtin_*` functions in OpenCL C (issue 13, cause 2): clang-19's diagnostics
//! for wrong calls (recorded from `clang-19 -cc1 -triple spir64-unknown-unknown
//! -finclude-default-header -fsyntax-only`), a file using every one of them that both accept
//! in every mode, their values computed on the cpu device (at -O2 and -O0), and the cpu
//! device's reports for `__builtin_trap`, a reached `__builtin_unreachable`, a false
//! `__builtin_assume`, `__builtin_clz(0)` and a misaligned `__builtin_assume_aligned`.

use oclc::{Device, NdRange, Program};
use std::path::PathBuf;
use std::process::Command;

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-gnu-builtins-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `oclc ARGS` in `dir`: exit status, stdout, stderr.
fn oclc(dir: &PathBuf, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each case: a file name, its source, and clang-19's `file:line:col: level: message` lines.
const CASES: &[(&str, &str, &str)] = &[
    (
        "arity",
        r#"kernel void k(global uint *o, global float *f) {
  o[0] = __builtin_popcount();
  o[1] = __builtin_popcount(1, 2);
  f[0] = __builtin_inff(1);
  o[2] = __builtin_expect(o[0]);
  o[3] = __builtin_isnan();
  o[4] = __builtin_isnan(f[0], f[1]);
  __builtin_unreachable(1);
  __builtin_trap(1);
  o[5] = __builtin_constant_p();
  o[6] = __builtin_constant_p(1, 2);
  o[7] = __builtin_rotateleft32(o[0]);
  o[8] = __builtin_assume_aligned(o);
  o[9] = __builtin_assume_aligned(o, 16, 1, 2);
}
"#,
        r#"arity.cl:2:29: error: too few arguments to function call, expected 1, have 0
arity.cl:3:32: error: too many arguments to function call, expected 1, have 2
arity.cl:4:25: error: too many arguments to function call, expected 0, have 1
arity.cl:5:31: error: too few arguments to function call, expected 2, have 1
arity.cl:6:26: error: too few arguments to function call, expected 1, have 0
arity.cl:7:32: error: too many arguments to function call, expected 1, have 2
arity.cl:8:25: error: too many arguments to function call, expected 0, have 1
arity.cl:9:18: error: too many arguments to function call, expected 0, have 1
arity.cl:10:31: error: too few arguments to function call, expected 1, have 0
arity.cl:11:34: error: too many arguments to function call, expected 1, have 2
arity.cl:12:37: error: too few arguments to function call, expected 2, have 1
arity.cl:13:36: error: too few arguments to function call, expected 2, have 1
arity.cl:14:46: error: too many arguments to function call, expected at most 3, have 4
"#,
    ),
    (
        "types",
        r#"kernel void k(global uint *o, global float *f) {
  o[0] = __builtin_popcount(o);
  o[1] = __builtin_popcountll(f);
  f[0] = __builtin_nanf(1);
  o[2] = __builtin_isnan(o[0]);
  o[3] = __builtin_isfinite((float4)(1.0f));
  f[1] = __builtin_fabsf(o);
  o[4] = __builtin_expect_with_probability(o[0], 1, f[0]);
  o[5] = __builtin_expect_with_probability(o[0], 1, 2.0);
  o[6] = __builtin_expect_with_probability(o[0], 1, 0.5 + f[0]);
  o[7] = __builtin_expect_with_probability(o[0], 1, 0.0 / 0.0);
  int x = 4;
  o[8] = __builtin_assume_aligned(o, 3);
  o[9] = __builtin_assume_aligned(o, x);
}
"#,
        r#"types.cl:2:29: error: incompatible pointer to integer conversion passing '__global uint *__private' (aka '__global unsigned int *__private') to parameter of type 'unsigned int' [-Wint-conversion]
types.cl:3:31: error: incompatible pointer to integer conversion passing '__global float *__private' to parameter of type 'unsigned long long' [-Wint-conversion]
types.cl:4:25: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'const char *' [-Wint-conversion]
types.cl:5:26: error: floating point classification requires argument of floating point type (passed in 'uint' (aka 'unsigned int'))
types.cl:6:29: error: floating point classification requires argument of floating point type (passed in 'float4' (vector of 4 'float' values))
types.cl:7:26: error: passing '__global uint *__private' (aka '__global unsigned int *__private') to parameter of incompatible type 'float'
types.cl:8:53: error: probability argument to __builtin_expect_with_probability must be constant floating-point expression
types.cl:8:53: note: subexpression not valid in a constant expression
types.cl:9:53: error: probability argument to __builtin_expect_with_probability is outside the range [0.0, 1.0]
types.cl:10:53: error: probability argument to __builtin_expect_with_probability must be constant floating-point expression
types.cl:10:59: note: subexpression not valid in a constant expression
types.cl:11:53: error: probability argument to __builtin_expect_with_probability must be constant floating-point expression
types.cl:11:57: note: division by zero
types.cl:13:35: error: requested alignment is not a power of 2
types.cl:14:35: error: argument to '__builtin_assume_aligned' must be a constant integer
"#,
    ),
    (
        "keywords",
        r#"struct In { int c; short d[3]; };
struct S { int a; struct In in[2]; float4 v; };
typedef struct { int m; } T;
kernel void k(global int *q, int n) {
  q[0] = __builtin_choose_expr(q[1], 1, 2);
  q[1] = __builtin_bit_cast(long, 1.0f);
  q[2] = __builtin_offsetof(int, a);
  q[3] = __builtin_offsetof(struct S, b);
  q[4] = __builtin_offsetof(T, z);
  q[5] = __builtin_offsetof(struct S, a[1]);
  q[6] = __builtin_offsetof(struct S, in.c);
  q[7] = __builtin_offsetof(struct S, v.x);
  q[8] = __builtin_offsetof(struct S, in[1.0f]);
  q[9] = __builtin_offsetof(struct Z, a);
  q[10] = __builtin_offsetof(float4, x);
}
"#,
        r#"keywords.cl:5:32: error: '__builtin_choose_expr' requires a constant expression
keywords.cl:6:10: error: __builtin_bit_cast source size does not equal destination size (4 vs 8)
keywords.cl:7:10: error: offsetof requires struct, union, or class type, 'int' invalid
keywords.cl:8:10: error: no member named 'b' in 'S'
keywords.cl:9:10: error: no member named 'z' in 'T'
keywords.cl:10:42: error: offsetof requires array type, 'int' invalid
keywords.cl:11:42: error: offsetof requires struct, union, or class type, 'struct In[2]' invalid
keywords.cl:12:41: error: offsetof requires struct, union, or class type, 'float4' (vector of 4 'float' values) invalid
keywords.cl:13:42: error: array subscript is not an integer
keywords.cl:14:10: error: offsetof of incomplete type 'struct Z'
keywords.cl:14:36: note: forward declaration of 'struct Z'
keywords.cl:15:11: error: offsetof requires struct, union, or class type, 'float4' (vector of 4 'float' values) invalid
"#,
    ),
    (
        "syntax",
        r#"struct S { int a; int b[2]; };
kernel void k(global int *q) {
  q[0] = __builtin_offsetof;
  q[1] = __builtin_offsetof(struct S, a;
  q[2] = __builtin_choose_expr(1, 2, 3;
  q[3] = __builtin_bit_cast(int, 1.0f;
  q[4] = __builtin_offsetof(struct S, b[1);
  q[5] = __builtin_offsetof(struct S, b.);
  q[6] = __builtin_choose_expr;
  q[7] = __builtin_bit_cast;
  q[8] = __builtin_choose_expr(1, 2);
  q[9] = __builtin_offsetof(struct S);
  q[10] = __builtin_offsetof(struct S, 3);
  q[11] = __builtin_bit_cast(int);
}
"#,
        r#"syntax.cl:3:28: error: expected '(' after '__builtin_offsetof'
syntax.cl:4:40: error: expected ')'
syntax.cl:4:28: note: to match this '('
syntax.cl:5:39: error: expected ')'
syntax.cl:6:38: error: expected ')'
syntax.cl:6:28: note: to match this '('
syntax.cl:7:42: error: expected ']'
syntax.cl:7:40: note: to match this '['
syntax.cl:8:41: error: expected identifier
syntax.cl:9:31: error: expected '(' after '__builtin_choose_expr'
syntax.cl:10:28: error: expected '(' after '__builtin_bit_cast'
syntax.cl:11:36: error: expected ','
syntax.cl:12:37: error: expected ','
syntax.cl:13:40: error: expected identifier
syntax.cl:14:33: error: expected ','
syntax.cl:14:33: error: expected ','
"#,
    ),
    (
        "absval",
        r#"kernel void k(global int *q, global long *l, global uint *u, global double *d, global float *f) {
  q[0] = __builtin_abs(l[0]);
  q[1] = __builtin_abs(u[0]);
  q[2] = __builtin_abs(d[0]);
  f[0] = __builtin_fabsf(d[0]);
  f[1] = __builtin_fabsf(q[0]);
  d[1] = __builtin_fabs(l[0]);
  d[2] = __builtin_fabs(f[0]);
  q[3] = __builtin_abs((short)q[0]);
  q[4] = __builtin_abs(q);
}
"#,
        r#"absval.cl:2:10: warning: absolute value function '__builtin_abs' given an argument of type '__global long' but has parameter of type 'int' which may cause truncation of value [-Wabsolute-value]
absval.cl:2:10: note: use function '__builtin_labs' instead
absval.cl:3:10: warning: taking the absolute value of unsigned type '__global uint' (aka '__global unsigned int') has no effect [-Wabsolute-value]
absval.cl:3:10: note: remove the call to '__builtin_abs' since unsigned values cannot be negative
absval.cl:4:10: warning: using integer absolute value function '__builtin_abs' when argument is of floating point type [-Wabsolute-value]
absval.cl:4:10: note: use function '__builtin_fabs' instead
absval.cl:5:10: warning: absolute value function '__builtin_fabsf' given an argument of type '__global double' but has parameter of type 'float' which may cause truncation of value [-Wabsolute-value]
absval.cl:5:10: note: use function '__builtin_fabs' instead
absval.cl:6:10: warning: using floating point absolute value function '__builtin_fabsf' when argument is of integer type [-Wabsolute-value]
absval.cl:6:10: note: use function '__builtin_abs' instead
absval.cl:7:10: warning: using floating point absolute value function '__builtin_fabs' when argument is of integer type [-Wabsolute-value]
absval.cl:7:10: note: use function '__builtin_labs' instead
absval.cl:10:24: error: incompatible pointer to integer conversion passing '__global int *__private' to parameter of type 'int' [-Wint-conversion]
absval.cl:10:10: warning: taking the absolute value of pointer type '__global int *__private' is suspicious [-Wabsolute-value]
"#,
    ),
    (
        "assume",
        r#"kernel void k(global int *q) {
  __builtin_assume(q[0]++ > 0);
  __builtin_assume(q[1] > 0 && __builtin_isnan((float)q[2]) == 0);
  q[2] = __builtin_popcnt(q[0]);
}
"#,
        r#"assume.cl:2:20: warning: assumption is ignored because it contains (potential) side-effects [-Wassume]
assume.cl:4:10: error: use of undeclared identifier '__builtin_popcnt'
"#,
    ),
    // What clang-19's constant evaluator folds (and what it does not).
    (
        "constants",
        r#"__constant uint X = __builtin_bswap32(0x12345678u);
__constant long E = __builtin_expect(5, 1);
__constant int P = __builtin_popcount(7) + __builtin_clzll(1ul) + __builtin_ctz(8u);
__constant float F = __builtin_fabsf(-2.0f) + __builtin_isnan(1.0f) + INFINITY;
__constant uint R = __builtin_rotateright32(1u, 1);
__constant int Z = __builtin_clz(0);
__constant int A = __builtin_abs(-3);
__constant float S = __builtin_sqrtf(4.0f);
kernel void k(global int *q) {
  int a[__builtin_popcount(7)];
  switch (q[0]) { case __builtin_expect(3, 1): break; case __builtin_bswap16(1): break; }
  q[0] = sizeof(a);
}
"#,
        r#"constants.cl:6:20: error: initializer element is not a compile-time constant
constants.cl:7:20: error: initializer element is not a compile-time constant
constants.cl:8:22: error: initializer element is not a compile-time constant
"#,
    ),
    (
        "prefetch",
        r#"kernel void k(global float *f, int n) {
  __builtin_prefetch(f);
  __builtin_prefetch(f, 1, 3);
  __builtin_prefetch();
  __builtin_prefetch(f, 1, 3, 4);
  __builtin_prefetch(f, n);
  __builtin_prefetch(f, 2);
  __builtin_prefetch(f, 0, 4);
  __builtin_prefetch(1);
  int x = __builtin_prefetch(f);
}
"#,
        r#"prefetch.cl:4:22: error: too few arguments to function call, expected at least 1, have 0
prefetch.cl:5:32: error: too many arguments to function call, expected at most 3, have 4
prefetch.cl:6:22: error: argument to '__builtin_prefetch' must be a constant integer
prefetch.cl:7:22: error: argument value 2 is outside the valid range [0, 1]
prefetch.cl:8:22: error: argument value 4 is outside the valid range [0, 3]
prefetch.cl:9:22: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'const void *' [-Wint-conversion]
prefetch.cl:10:7: error: initializing '__private int' with an expression of incompatible type 'void'
"#,
    ),
    (
        "folding",
        r#"__constant float A = __builtin_fminf(1.0f, 2.0f);
__constant float B = __builtin_copysignf(1.0f, -2.0f);
__constant float C = __builtin_floorf(1.5f);
__constant float D = __builtin_fmaf(1.0f, 2.0f, 3.0f);
__constant int E = __builtin_isnormal(1.0f);
__constant int F = __builtin_signbit(-1.0f);
__constant long G = __builtin_labs(-3);
__constant int H = __builtin_ffs(8);
__constant int I = __builtin_parity(7u);
__constant int J = __builtin_clrsb(1);
__constant float K = __builtin_roundf(1.5f);
__constant float L = __builtin_expf(0.0f);
__constant float M = __builtin_fmaxf(1.0f, 2.0f);
__constant float N = __builtin_truncf(1.5f);
kernel void k(global float *f) { f[0] = A + B + C + D + E + F + G + H + I + J + K + L + M + N; }
"#,
        r#"folding.cl:3:22: error: initializer element is not a compile-time constant
folding.cl:4:22: error: initializer element is not a compile-time constant
folding.cl:6:20: error: initializer element is not a compile-time constant
folding.cl:7:21: error: initializer element is not a compile-time constant
folding.cl:11:22: error: initializer element is not a compile-time constant
folding.cl:12:22: error: initializer element is not a compile-time constant
folding.cl:14:22: error: initializer element is not a compile-time constant
"#,
    ),
];

/// The diagnostic lines (not snippets or carets) of `oclc check` on `src`.
fn check_lines(dir: &PathBuf, name: &str, src: &str, flags: &[&str]) -> Vec<String> {
    let file = format!("{name}.cl");
    std::fs::write(dir.join(&file), src).expect("write source");
    let mut args = vec!["check"];
    args.extend_from_slice(flags);
    args.push(&file);
    let (_, _, err) = oclc(dir, &args);
    err.lines()
        .filter(|l| l.starts_with(&format!("{file}:")))
        .map(str::to_string)
        .collect()
}

#[test]
fn diagnostics_match_clang() {
    let dir = temp_dir("diag");
    for (name, src, want) in CASES {
        let got = check_lines(&dir, name, src, &["-triple", "spir64-unknown-unknown"]);
        let want: Vec<&str> = want.lines().collect();
        assert_eq!(
            got, want,
            "{name}.cl: oclc's diagnostics differ from clang-19's"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every builtin of the issue, used as clang accepts it (clang-19: no diagnostic in any of
/// these modes).
const CLEAN: &str = r#"kernel void k(global float *p, global int *q, global uint *u, global ulong *l, global double *d, global long *sl) {
  p[0] = INFINITY; p[1] = NAN; p[2] = HUGE_VALF; d[0] = HUGE_VAL;
  p[3] = __builtin_inff(); d[1] = __builtin_inf(); p[4] = __builtin_huge_valf(); d[2] = __builtin_huge_val();
  p[5] = __builtin_nanf(""); d[3] = __builtin_nan("0x7");
  q[0] = __builtin_expect(q[1], 1); q[1] = __builtin_expect_with_probability(q[1], 1, 0.5);
  q[2] = __builtin_popcount(u[0]); q[3] = __builtin_popcountl(l[0]); q[4] = __builtin_popcountll(l[0]);
  q[5] = __builtin_clz(u[0]) + __builtin_clzl(l[0]) + __builtin_clzll(l[0]);
  q[6] = __builtin_ctz(u[0]) + __builtin_ctzl(l[0]) + __builtin_ctzll(l[0]);
  u[1] = __builtin_bswap16(u[0]) + __builtin_bswap32(u[0]); l[1] = __builtin_bswap64(l[0]);
  u[2] = __builtin_rotateleft8(u[0],1) + __builtin_rotateleft16(u[0],1) + __builtin_rotateleft32(u[0],1); l[2] = __builtin_rotateleft64(l[0], 3);
  u[3] = __builtin_rotateright8(u[0],1) + __builtin_rotateright16(u[0],1) + __builtin_rotateright32(u[0],1); l[3] = __builtin_rotateright64(l[0], 3);
  q[7] = __builtin_constant_p(q[0]) + __builtin_constant_p(3);
  q[8] = __builtin_isnan(p[0]) + __builtin_isinf(p[0]) + __builtin_isfinite(p[0]) + __builtin_isnan(d[0]);
  p[6] = __builtin_fabsf(p[0]); d[4] = __builtin_fabs(d[0]); p[7] = __builtin_sqrtf(p[0]); d[5] = __builtin_sqrt(d[0]);
  q[9] = __builtin_abs(q[0]);
  q[10] = __builtin_choose_expr(1, q[0], p[0]);
  if (q[0] == 5) __builtin_unreachable();
  __builtin_assume(q[0] > 0);
  if (q[0] == 7) __builtin_trap();
  struct S { int a; int b[4]; struct { int c; } in; };
  q[11] = __builtin_offsetof(struct S, b[2]) + __builtin_offsetof(struct S, in.c);
  q[12] = __builtin_bit_cast(int, p[0]);
  (void)__builtin_assume_aligned(q, 16);
  bool al = __builtin_assume_aligned(q, 16, 4);
  q[13] = __builtin_choose_expr(__builtin_constant_p(1), 1, 2) + __builtin_offsetof(struct S, in);
}
"#;

/// The other C library builtins real kernels use (clang-19: no diagnostic).
const CLEAN_MORE: &str = r#"kernel void k(global float *f, global double *d, global int *q, global long *l) {
  f[0] = __builtin_floorf(f[1]) + __builtin_ceilf(f[1]) + __builtin_truncf(f[1]) + __builtin_roundf(f[1]);
  d[0] = __builtin_floor(d[1]) + __builtin_ceil(d[1]) + __builtin_trunc(d[1]) + __builtin_round(d[1]);
  f[2] = __builtin_fminf(f[1], f[2]) + __builtin_fmaxf(f[1], f[2]) + __builtin_copysignf(f[1], f[2]) + __builtin_fmaf(f[1], f[2], f[3]);
  d[2] = __builtin_fmin(d[1], d[2]) + __builtin_fmax(d[1], d[2]) + __builtin_copysign(d[1], d[2]) + __builtin_fma(d[1], d[2], d[3]);
  f[4] = __builtin_expf(f[1]) + __builtin_logf(f[1]) + __builtin_powf(f[1], f[2]) + __builtin_sinf(f[1]) + __builtin_cosf(f[1]) + __builtin_exp2f(f[1]) + __builtin_log2f(f[1]);
  d[4] = __builtin_exp(d[1]) + __builtin_log(d[1]) + __builtin_pow(d[1], d[2]) + __builtin_sin(d[1]) + __builtin_cos(d[1]) + __builtin_exp2(d[1]) + __builtin_log2(d[1]);
  l[0] = __builtin_labs(l[1]);
  q[0] = __builtin_isnormal(f[1]) + __builtin_signbit(f[1]) + __builtin_signbit(d[1]);
  q[1] = __builtin_ffs(q[2]) + __builtin_parity(q[2]) + __builtin_clrsb(q[2]);
  __builtin_prefetch(f);
}
"#;

#[test]
fn every_builtin_checks_clean_in_every_mode() {
    let dir = temp_dir("clean");
    for std in ["CL1.2", "CL2.0", "CL3.0"] {
        for triple in ["spir-unknown-unknown", "spir64-unknown-unknown"] {
            let cl_std = format!("-cl-std={std}");
            let file = "clean.cl";
            for src in [CLEAN, CLEAN_MORE] {
                std::fs::write(dir.join(file), src).expect("write source");
                let (code, _, err) = oclc(&dir, &["check", "-triple", triple, &cl_std, file]);
                assert_eq!((code, err.as_str()), (0, ""), "{std} {triple}");
            }
        }
    }
    // The macros of the default header expand to them.
    let src = "kernel void k(global float *p) { p[0] = INFINITY; p[1] = HUGE_VALF; p[2] = NAN; }";
    let got = check_lines(&dir, "macros", src, &[]);
    assert!(got.is_empty(), "{got:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kernel computing each builtin on the inputs in `o[0]`, `f`, `l[1]`, `si[1]`.
const VALUES: &str = r#"
struct S { int a; short b[3]; float c; };
kernel void k(global uint *o, global float *f, global ulong *l, global int *si) {
  uint x = o[0];
  o[1] = __builtin_popcount(x);
  o[2] = __builtin_clz(x);
  o[3] = __builtin_ctz(x);
  o[4] = __builtin_bswap32(x);
  o[5] = __builtin_bswap16((ushort)x);
  o[6] = __builtin_rotateleft32(x, 8);
  o[7] = __builtin_rotateright32(x, 8);
  o[8] = __builtin_rotateleft8((uchar)x, 3);
  o[9] = __builtin_expect(x, 1) + __builtin_expect_with_probability(x, 1, 0.25);
  o[10] = __builtin_offsetof(struct S, b[2]);
  o[11] = __builtin_offsetof(struct S, c);
  o[12] = __builtin_choose_expr(1, 7, 2.0f);
  o[13] = __builtin_constant_p(x) * 10 + __builtin_constant_p(3);
  o[14] = __builtin_bit_cast(uint, f[0]);
  o[15] = __builtin_isnan(f[1]) + 2 * __builtin_isinf(f[2]) + 4 * __builtin_isfinite(f[0]);
  o[16] = as_uint(__builtin_nanf("0x7"));
  o[17] = __builtin_rotateright16((ushort)x, 4);
  o[18] = __builtin_offsetof(struct S, b[x & 1]);
  f[3] = __builtin_fabsf(-f[0]) + __builtin_sqrtf(16.0f);
  f[4] = INFINITY;
  f[5] = HUGE_VALF;
  f[6] = __builtin_bit_cast(float, 0x40490fdbu);
  struct S s = __builtin_bit_cast(struct S, (uint4)(1, 0x00030002, 4, 0x3fc00000));
  f[7] = s.c + s.b[1];
  si[0] = __builtin_abs(si[1]);
  l[0] = __builtin_bswap64(l[1]);
  l[2] = __builtin_clzll(l[1]);
  l[3] = __builtin_popcountll((long)-1);
  l[4] = __builtin_clzl(l[1]) + __builtin_ctzll(l[1]);
  l[5] = __builtin_rotateright64(l[1], 4);
  l[6] = __builtin_clzll((long)-2);
  __builtin_assume(x > 0);
  if (x == 0) __builtin_trap();
}
"#;

#[test]
fn values_on_the_cpu_device() {
    for opts in ["", "-O0"] {
        let program = Program::build(VALUES, opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
        let device = Device::cpu();
        let mut o_init = vec![0u32; 19];
        o_init[0] = 0x1234_5678;
        let o = device.buffer_from_slice(&o_init).expect("o");
        let f = device
            .buffer_from_slice(&[1.5f32, f32::NAN, f32::INFINITY, 0.0, 0.0, 0.0, 0.0, 0.0])
            .expect("f");
        let l = device
            .buffer_from_slice(&[0u64, 0x0102_0304_0506_0708, 0, 0, 0, 0, 0])
            .expect("l");
        let si = device.buffer_from_slice(&[0i32, -5]).expect("si");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &o)
            .and_then(|k| k.set_arg(1, &f))
            .and_then(|k| k.set_arg(2, &l))
            .and_then(|k| k.set_arg(3, &si))
            .expect("args");
        device.launch(&k, &NdRange::new(&[1])).expect("launch");
        let o = o.read::<u32>().expect("read o");
        assert_eq!(
            o,
            vec![
                0x1234_5678,
                13,
                3,
                3,
                0x7856_3412,
                0x7856,
                0x3456_7812,
                0x7812_3456,
                0xc3,
                2 * 0x1234_5678,
                8,
                12,
                7,
                1,
                0x3fc0_0000,
                7,
                0x7fc0_0007,
                0x8567,
                4,
            ],
            "{opts}"
        );
        let f = f.read::<f32>().expect("read f");
        assert_eq!(f[3], 5.5, "{opts}");
        assert_eq!((f[4], f[5]), (f32::INFINITY, f32::INFINITY), "{opts}");
        assert_eq!(f[6], std::f32::consts::PI, "{opts}");
        assert_eq!(f[7], 4.5, "{opts}");
        assert_eq!(si.read::<i32>().expect("read si"), vec![5, -5], "{opts}");
        // `long long` is 128-bit on SPIR in clang: clzll of a ulong counts 64 more zeros,
        // popcountll of -1L and clzll of -2L see the sign-extended high half.
        assert_eq!(
            l.read::<u64>().expect("read l"),
            vec![
                0x0807_0605_0403_0201,
                0x0102_0304_0506_0708,
                71,
                128,
                7 + 3,
                0x8010_2030_4050_6070,
                0,
            ],
            "{opts}"
        );
    }
}

const MATH: &str = r#"
kernel void k(global float *f, global int *q, global long *l) {
  float x = f[0], y = f[1];
  f[2] = __builtin_floorf(x);
  f[3] = __builtin_ceilf(x);
  f[4] = __builtin_truncf(x);
  f[5] = __builtin_roundf(x);
  f[6] = __builtin_fminf(x, y);
  f[7] = __builtin_fmaxf(x, y);
  f[8] = __builtin_copysignf(3.0f, x);
  f[9] = __builtin_fmaf(x, y, 1.0f);
  f[10] = __builtin_exp2f(3.0f) + __builtin_log2f(8.0f);
  f[11] = (float)__builtin_floor((double)x) + (float)__builtin_pow(2.0, 3.0);
  __builtin_prefetch(f);
  q[0] = __builtin_ffs(q[4]);
  q[1] = __builtin_parity((uint)q[4]);
  q[2] = __builtin_clrsb(q[4]);
  q[3] = __builtin_isnormal(x) + 2 * __builtin_signbit(x) + 4 * __builtin_isnormal(f[12]);
  l[0] = __builtin_labs(l[1]);
}
"#;

#[test]
fn math_and_bit_builtins_on_the_cpu_device() {
    let program = Program::build(MATH, "").expect("build");
    let device = Device::cpu();
    let mut init = vec![0f32; 13];
    init[0] = -2.5;
    init[1] = 4.0;
    init[12] = 1e-40;
    let f = device.buffer_from_slice(&init).expect("f");
    let q = device.buffer_from_slice(&[0i32, 0, 0, 0, -24]).expect("q");
    let l = device.buffer_from_slice(&[0i64, i64::MIN + 1]).expect("l");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &f)
        .and_then(|k| k.set_arg(1, &q))
        .and_then(|k| k.set_arg(2, &l))
        .expect("args");
    device.launch(&k, &NdRange::new(&[1])).expect("launch");
    let f = f.read::<f32>().expect("f");
    assert_eq!(
        &f[2..12],
        &[-3.0, -2.0, -2.0, -3.0, -2.5, 4.0, -3.0, -9.0, 11.0, 5.0]
    );
    // ffs(-24) = 4, parity(0xffffffe8) = 0 (28 ones), clrsb(-24) = 26; -2.5 is normal and
    // negative, 1e-40f is subnormal.
    assert_eq!(q.read::<i32>().expect("q"), vec![4, 0, 26, 3, -24]);
    assert_eq!(l.read::<i64>().expect("l"), vec![i64::MAX, i64::MIN + 1]);
}

/// Runs `body` in a one-work-item kernel through `oclc run`; returns exit status and stderr.
fn run_body(name: &str, body: &str) -> (i32, String) {
    let dir = temp_dir(name);
    let job = format!(
        "code = \"\"\"\nkernel void k(global uint *o) {{\n  {body}\n}}\n\"\"\"\nkernel = \"k\"\nglobal = [2]\n[args]\no = {{ buffer = \"uint\", len = 4 }}\n"
    );
    std::fs::write(dir.join("job.toml"), job).expect("write job");
    let (code, _, err) = oclc(&dir, &["run", "job.toml"]);
    let _ = std::fs::remove_dir_all(&dir);
    (code, err)
}

#[test]
fn undefined_behaviour_is_reported_with_line_and_work_item() {
    for (name, body, col, msg) in [
        (
            "trap",
            "if (o[0] == 0) __builtin_trap(); o[1] = 1;",
            18,
            "kernel called __builtin_trap",
        ),
        (
            "unreachable",
            "if (o[0] == 0) __builtin_unreachable(); o[1] = 1;",
            18,
            "reached __builtin_unreachable",
        ),
        (
            "assume",
            "__builtin_assume(o[0] != 0); o[1] = 1;",
            3,
            "the assumption of __builtin_assume is false",
        ),
        (
            "clz",
            "o[1] = __builtin_clz(o[0]);",
            10,
            "`__builtin_clz` of 0 is undefined",
        ),
        (
            "ctz",
            "o[1] = __builtin_ctzl(o[0]);",
            10,
            "`__builtin_ctzl` of 0 is undefined",
        ),
        (
            "aligned",
            "global uint *p = o + 1; __builtin_assume_aligned(p, 8); o[1] = 2;",
            52,
            "the pointer given to __builtin_assume_aligned is not 8-byte aligned",
        ),
    ] {
        let (code, err) = run_body(name, body);
        assert_eq!(code, 3, "{name}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.ends_with(&format!(":2:{col}: error: {msg}")),
            "{name}: {first}"
        );
        assert!(
            err.contains("global id (0, 0, 0)"),
            "{name}: no work-item\n{err}"
        );
    }
    // Undefined only when reached: the same calls on good operands run.
    let (code, err) = run_body(
        "fine",
        "o[2] = 1; __builtin_assume(o[2] != 0); if (o[2] == 0) __builtin_unreachable(); o[1] = __builtin_clz(o[2]);",
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn ptx_for_the_cuda_device() {
    let program = Program::build(VALUES, "").expect("build");
    let ptx = program.ptx_text("sm_80", false).expect("ptx");
    for ins in [
        "popc.b32", "clz.b32", "brev.b32", "prmt.b32", "clz.b64", "trap;",
    ] {
        assert!(ptx.contains(ins), "no {ins} in\n{ptx}");
    }
}

/// The 16-bit counts and the `ilogb`, `ldexp` and `powi` builtins pocl's library calls: clean
/// under clang-19 and computed on the cpu device (`__builtin_clzs` of a truncated 65536 is
/// the count of a zero `ushort`, 16).
#[test]
fn short_counts_and_exponent_builtins() {
    let src = "kernel void k(global int *o, global float *f) {
  o[0] = __builtin_clzs((ushort)1);
  o[1] = __builtin_ctzs((ushort)8);
  o[2] = __builtin_clzs((ushort)0x8000);
  o[3] = __builtin_ilogbf(f[0]);
  f[1] = __builtin_ldexpf(f[0], 3);
  f[2] = __builtin_powif(f[0], 3);
  o[4] = __builtin_clzs(o[5]);
}";
    for opts in ["", "-O0"] {
        let program = Program::build(src, opts).expect("build");
        let device = Device::cpu();
        let o = device
            .buffer_from_slice(&[0i32, 0, 0, 0, 0, 65536])
            .expect("o");
        let f = device.buffer_from_slice(&[10.0f32, 0.0, 0.0]).expect("f");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &o)
            .and_then(|k| k.set_arg(1, &f))
            .expect("args");
        device.launch(&k, &NdRange::new(&[1])).expect("launch");
        assert_eq!(
            o.read::<i32>().expect("o"),
            vec![15, 3, 0, 3, 16, 65536],
            "{opts}"
        );
        assert_eq!(
            f.read::<f32>().expect("f"),
            vec![10.0, 80.0, 1000.0],
            "{opts}"
        );
    }
}

/// The `_Float16` math builtins (`half` on SPIR, usable without cl_khr_fp16; pocl's library
/// tests for them with `__has_builtin`): clean under clang-19 as `__has_builtin` says, and
/// computed on the cpu device in `half` (`exp2f16(0.5)` rounds to half precision).
#[test]
fn half_math_builtins() {
    let src = "#if !__has_builtin(__builtin_sqrtf16) || !__has_builtin(__builtin_fmaf16)
#error no half builtins
#endif
kernel void k(global float *f) {
  f[0] = __builtin_sqrtf16(f[0]);
  f[1] = __builtin_fmaf16(f[1], 2.0f, 1.0f);
  f[2] = __builtin_ldexpf16(f[2], 2);
  f[3] = __builtin_exp10f16(f[3]);
  f[4] = __builtin_powf16(f[4], 10.0f);
  f[5] = __builtin_fmodf16(f[5], 2.0f);
  f[6] = __builtin_fabsf16(f[6]) + __builtin_copysignf16(1.0f, f[6]);
  f[7] = __builtin_floorf16(f[7]) + __builtin_rintf16(f[7]) + __builtin_truncf16(f[7]);
  f[8] = __builtin_exp2f16(f[8]);
  f[9] = __builtin_log2f16(f[9]) + __builtin_fmaxf16(f[9], 3.0f) + __builtin_fminf16(f[9], 3.0f);
}";
    for opts in ["", "-O0"] {
        let program = Program::build(src, opts).expect("build");
        let device = Device::cpu();
        let f = device
            .buffer_from_slice(&[2.25f32, 1.5, 3.0, 2.0, 2.0, 7.5, -2.5, 2.5, 0.5, 4.0])
            .expect("f");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &f).expect("args");
        device.launch(&k, &NdRange::new(&[1])).expect("launch");
        assert_eq!(
            f.read::<f32>().expect("f"),
            vec![
                1.5,
                4.0,
                12.0,
                100.0,
                1024.0,
                1.5,
                1.5,
                6.0,
                1.4140625,
                2.0 + 4.0 + 3.0
            ],
            "{opts}"
        );
    }
}

/// The C library's trigonometric, hyperbolic, base-10, `rint`/`nearbyint` and `fmod`
/// builtins for `float` and `double` (clang declares them on SPIR; `__has_builtin` says so):
/// clean under clang-19, and computed on the cpu device.
#[test]
fn float_math_builtins() {
    let src = "#if !__has_builtin(__builtin_exp10) || !__has_builtin(__builtin_tanhf)
#error missing
#endif
kernel void k(global float *f, global double *d) {
  f[0] = __builtin_tanf(f[0]) + __builtin_asinf(f[0]) + __builtin_atanf(f[0]) + __builtin_sinhf(f[0]) + __builtin_tanhf(f[0]);
  f[1] = __builtin_acosf(f[1]) + __builtin_coshf(f[1] - 1.0f);
  f[2] = __builtin_exp10f(f[2]) + __builtin_log10f(1000.0f);
  f[3] = __builtin_rintf(f[3]) + __builtin_nearbyintf(f[3] + 1.0f) + __builtin_fmodf(7.5f, f[3]);
  d[0] = __builtin_exp10(d[0]) + __builtin_log10(100.0) + __builtin_cosh(0.0) + __builtin_fmod(d[0], 1.5)
       + __builtin_tan(0.0) + __builtin_asin(0.0) + __builtin_acos(1.0) + __builtin_atan(0.0)
       + __builtin_sinh(0.0) + __builtin_tanh(0.0) + __builtin_rint(2.5) + __builtin_nearbyint(3.5);
}";
    for opts in ["", "-O0"] {
        let program = Program::build(src, opts).expect("build");
        let device = Device::cpu();
        let f = device
            .buffer_from_slice(&[0.0f32, 1.0, 2.0, 2.5])
            .expect("f");
        let d = device.buffer_from_slice(&[2.0f64]).expect("d");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &f)
            .and_then(|k| k.set_arg(1, &d))
            .expect("args");
        device.launch(&k, &NdRange::new(&[1])).expect("launch");
        assert_eq!(
            f.read::<f32>().expect("f"),
            vec![0.0, 1.0, 103.0, 2.0 + 4.0 + 0.0],
            "{opts}"
        );
        assert_eq!(
            d.read::<f64>().expect("d"),
            vec![100.0 + 2.0 + 1.0 + 0.5 + 2.0 + 4.0],
            "{opts}"
        );
    }
}
