//! Issue 13, "where both reject a file the first diagnostics differ": each case's
//! diagnostics (location, severity, text and group) are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -`
//! on the same source: typo correction, source order across stages, unknown type names in
//! casts, uses of invalid declarations, the 128-bit `long long` of SPIR and arrays of an
//! over-aligned element.

use oclc::cli::check_command;
use oclc::{Device, NdRange, Program};

/// `oclc check -` on `src`: its diagnostic lines (`<stdin>:L:C: level: text`), without the
/// source excerpts and without notes located in clang's headers (oclc prints those unlocated).
fn diagnostics(src: &str) -> Vec<String> {
    let out = check_command(vec!["-".to_string()], &mut src.as_bytes());
    out.stderr
        .lines()
        .filter(|l| {
            l.starts_with("<stdin>:")
                && [": error: ", ": warning: ", ": note: "]
                    .iter()
                    .any(|k| l.contains(k))
        })
        .map(str::to_string)
        .collect()
}

/// Asserts oclc's diagnostics for `src` are clang's `want`.
fn assert_clang(name: &str, src: &str, want: &[&str]) {
    assert_eq!(
        diagnostics(src),
        want,
        "{name}: oclc's diagnostics differ from clang-19's"
    );
}

/// Typo correction of variables, functions, types, parameters and locals; members need a third of the length.
#[test]
fn typo_names() {
    let src = r#"__constant uint mixtab0_c[4] = {1,2,3,4};
int helper_fn(int x) { return x; }
typedef struct { int alpha; int beta; } Pair;
struct S { int yy; int count; };
kernel void k(global uint *o, int total) {
  o[0] = mixtab0[1];
  o[1] = helper_fm(2);
  Par p;
  struct S s;
  s.coutn = 1;
  o[2] = totl;
  int localvar = 3;
  o[3] = localvr;
  Pair q; q.alfa = 1;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:6:10: error: use of undeclared identifier 'mixtab0'; did you mean 'mixtab0_c'?"#,
        r#"<stdin>:1:17: note: 'mixtab0_c' declared here"#,
        r#"<stdin>:7:10: error: use of undeclared identifier 'helper_fm'; did you mean 'helper_fn'?"#,
        r#"<stdin>:2:5: note: 'helper_fn' declared here"#,
        r#"<stdin>:8:3: error: unknown type name 'Par'; did you mean 'Pair'?"#,
        r#"<stdin>:3:41: note: 'Pair' declared here"#,
        r#"<stdin>:10:5: error: no member named 'coutn' in 'struct S'"#,
        r#"<stdin>:11:10: error: use of undeclared identifier 'totl'; did you mean 'total'?"#,
        r#"<stdin>:5:35: note: 'total' declared here"#,
        r#"<stdin>:13:10: error: use of undeclared identifier 'localvr'; did you mean 'localvar'?"#,
        r#"<stdin>:12:7: note: 'localvar' declared here"#,
        r#"<stdin>:14:13: error: no member named 'alfa' in 'Pair'"#,
    ];
    assert_clang("typo_names", src, want);
}

/// Builtins declared once in the header are offered; overloaded ones (`max`, `sqrt`) are not, nor a call with the wrong arity.
#[test]
fn typo_builtins() {
    let src = r#"kernel void k(global float *o) {
  o[0] = get_global_idd(0);
  o[1] = maxx(1.0f, 2.0f);
  o[2] = sqrtt(o[1]);
  o[3] = get_local_sizee(0, 1);
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:10: error: use of undeclared identifier 'get_global_idd'; did you mean 'get_global_id'?"#,
        r#"<stdin>:3:10: error: use of undeclared identifier 'maxx'"#,
        r#"<stdin>:4:10: error: use of undeclared identifier 'sqrtt'"#,
        r#"<stdin>:5:10: error: use of undeclared identifier 'get_local_sizee'"#,
    ];
    assert_clang("typo_builtins", src, want);
}

/// Expression typos take up to (len+2)/3 edits; ties, arity mismatches and the variable being initialized give none; `tru` is `true`.
#[test]
fn typo_bounds() {
    let src = r#"int helper(int x) { return x; }
kernel void k(global int *o) {
  int vxlez = 2, qwert = 3, value1 = 1, value2 = 2;
  o[0] = valeu;
  o[1] = qwxyz;
  o[2] = qw;
  o[3] = value;
  o[5] = helpr(1, 2);
  o[6] = helpr(1);
  int selfref = selfrf + 1;
  o[7] = tru;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:4:10: error: use of undeclared identifier 'valeu'"#,
        r#"<stdin>:5:10: error: use of undeclared identifier 'qwxyz'"#,
        r#"<stdin>:6:10: error: use of undeclared identifier 'qw'"#,
        r#"<stdin>:7:10: error: use of undeclared identifier 'value'"#,
        r#"<stdin>:8:10: error: use of undeclared identifier 'helpr'"#,
        r#"<stdin>:9:10: error: use of undeclared identifier 'helpr'; did you mean 'helper'?"#,
        r#"<stdin>:1:5: note: 'helper' declared here"#,
        r#"<stdin>:10:17: error: use of undeclared identifier 'selfrf'"#,
        r#"<stdin>:11:10: error: use of undeclared identifier 'tru'; did you mean 'true'?"#,
    ];
    assert_clang("typo_bounds", src, want);
}

/// Member typos: within a third of the length, unique; an anonymous struct is named by its typedef.
#[test]
fn typo_members() {
    let src = r#"struct S { int yy; int count; float value; };
typedef struct { int alpha; } P;
kernel void k(global int *o) {
  struct S s; P p; struct S *ps = &s;
  s.cout = 1;
  s.valeu = 2;
  ps->coun = 3;
  p.alpah = 1;
  p.alph = 1;
  o[0] = s.yx;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:5:5: error: no member named 'cout' in 'struct S'; did you mean 'count'?"#,
        r#"<stdin>:1:24: note: 'count' declared here"#,
        r#"<stdin>:6:5: error: no member named 'valeu' in 'struct S'"#,
        r#"<stdin>:7:7: error: no member named 'coun' in 'struct S'; did you mean 'count'?"#,
        r#"<stdin>:1:24: note: 'count' declared here"#,
        r#"<stdin>:8:5: error: no member named 'alpah' in 'P'"#,
        r#"<stdin>:9:5: error: no member named 'alph' in 'P'; did you mean 'alpha'?"#,
        r#"<stdin>:2:22: note: 'alpha' declared here"#,
        r#"<stdin>:10:12: error: no member named 'yx' in 'struct S'"#,
    ];
    assert_clang("typo_members", src, want);
}

/// Preprocessor, parser and sema diagnostics in source order; -Warray-bounds and -Wdivision-by-zero after the function, after a #warning before the next item.
#[test]
fn order_stages() {
    let src = r#"kernel void k(global int *o) {
  int a[2];
  o[0] = a[3];
  o[1] = o[2] / 0;
  o[2] = 1 << 40;
  o[3] = (int*)0 + 1.5f;
}
#warning hello
kernel void k2(global int *o) {
  o[0] = 1 +;
}
__constant int q = 1 + undeclared_q;
#warning second
"#;
    let want: &[&str] = &[
        r#"<stdin>:6:18: error: invalid operands to binary expression ('__private int *' and 'float')"#,
        r#"<stdin>:8:2: warning: hello [-W#warnings]"#,
        r#"<stdin>:3:10: warning: array index 3 is past the end of the array (that has type '__private int[2]') [-Warray-bounds]"#,
        r#"<stdin>:2:3: note: array 'a' declared here"#,
        r#"<stdin>:4:15: warning: division by zero is undefined [-Wdivision-by-zero]"#,
        r#"<stdin>:10:13: error: expected expression"#,
        r#"<stdin>:12:24: error: use of undeclared identifier 'undeclared_q'"#,
        r#"<stdin>:13:2: warning: second [-W#warnings]"#,
    ];
    assert_clang("order_stages", src, want);
}

/// Undeclared-identifier errors come at the end of their full expression (after the other errors in it); an undeclared callee leaves its arguments uncorrected.
#[test]
fn order_typos() {
    let src = r#"kernel void k(global int *o) {
  int value = 1;
  o[0] = valeu + (1.0f % 2);
  o[1] = (1.0f % 2) + valeu;
  o[2] = helper(valeu, 1.0f % 2);
  o[3] = *(valeu + 1 +);
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:3:24: error: invalid operands to binary expression ('float' and 'int')"#,
        r#"<stdin>:3:10: error: use of undeclared identifier 'valeu'; did you mean 'value'?"#,
        r#"<stdin>:2:7: note: 'value' declared here"#,
        r#"<stdin>:4:16: error: invalid operands to binary expression ('float' and 'int')"#,
        r#"<stdin>:4:23: error: use of undeclared identifier 'valeu'; did you mean 'value'?"#,
        r#"<stdin>:2:7: note: 'value' declared here"#,
        r#"<stdin>:5:29: error: invalid operands to binary expression ('float' and 'int')"#,
        r#"<stdin>:5:10: error: use of undeclared identifier 'helper'"#,
        r#"<stdin>:5:17: error: use of undeclared identifier 'valeu'"#,
        r#"<stdin>:6:23: error: expected expression"#,
        r#"<stdin>:6:12: error: use of undeclared identifier 'valeu'; did you mean 'value'?"#,
        r#"<stdin>:2:7: note: 'value' declared here"#,
    ];
    assert_clang("order_typos", src, want);
}

/// `*(__global T *)(o)` with `T` unknown: "unknown type name", nothing else.
#[test]
fn cast_unknown_type() {
    let src = r#"kernel void k(global uint *o) {
  uint a = *(__global T *)(o);
  o[1] = a;
}
"#;
    let want: &[&str] = &[r#"<stdin>:2:23: error: unknown type name 'T'"#];
    assert_clang("cast_unknown_type", src, want);
}

/// Casts and sizeof with an unknown name: unknown type name before `*`, undeclared identifier in parentheses (invalid, no "expected ';'"), implicit int before `)`.
#[test]
fn cast_unknown_type2() {
    let src = r#"kernel void k(global uint *o) {
  o[0] = *(__global T *)(o) + 1;
  o[1] = (T)3;
  o[2] = sizeof(T);
  o[3] = *(T *)o;
  o[4] = (const T)1;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:21: error: unknown type name 'T'"#,
        r#"<stdin>:3:11: error: use of undeclared identifier 'T'"#,
        r#"<stdin>:4:17: error: use of undeclared identifier 'T'"#,
        r#"<stdin>:5:15: error: expected expression"#,
        r#"<stdin>:5:12: error: use of undeclared identifier 'T'"#,
        r#"<stdin>:6:17: error: expected ')'"#,
        r#"<stdin>:6:10: note: to match this '('"#,
        r#"<stdin>:6:17: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
    ];
    assert_clang("cast_unknown_type2", src, want);
}

/// sizeof/cast type names: implicit int after the missing `)`, unknown type name before `*`.
#[test]
fn cast_unknown_type3() {
    let src = r#"kernel void k(global uint *o) {
  o[0] = sizeof(const T);
  o[1] = sizeof(__global T *);
  o[2] = sizeof(const T) + 1;
  o[3] = (const T *)o == 0;
  o[4] = (volatile Uunk)1;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:23: error: expected ')'"#,
        r#"<stdin>:2:16: note: to match this '('"#,
        r#"<stdin>:2:23: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
        r#"<stdin>:3:26: error: unknown type name 'T'"#,
        r#"<stdin>:4:23: error: expected ')'"#,
        r#"<stdin>:4:16: note: to match this '('"#,
        r#"<stdin>:4:23: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
        r#"<stdin>:5:17: error: unknown type name 'T'"#,
        r#"<stdin>:6:20: error: expected ')'"#,
        r#"<stdin>:6:10: note: to match this '('"#,
        r#"<stdin>:6:20: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
    ];
    assert_clang("cast_unknown_type3", src, want);
}

/// Uses of an invalid declaration (over-aligned array, negative size) are silent; an initializer error keeps the variable.
#[test]
fn invalid_decl_uses() {
    let src = r#"typedef ulong u64a __attribute__((aligned(128)));
__constant u64a T[2] = {1, 2};
__constant uint U[2] = {1, 2} + 1;
__constant uint V = 1 +;
__constant uint W[-1] = {1};
kernel void k(global ulong *o) {
  o[0] = T[5] + T[0];
  o[1] = U[5] + V + W[3];
  uint x = { 1, 2 } + 1;
  uint y = 1 +;
  uint z = y + x;
  u64a loc[4];
  o[2] = loc[9] + z;
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:18: error: size of array element of type '__constant u64a' (aka '__constant unsigned long') (8 bytes) isn't a multiple of its alignment (128 bytes)"#,
        r#"<stdin>:3:30: error: expected ';' after top level declarator"#,
        r#"<stdin>:4:24: error: expected expression"#,
        r#"<stdin>:5:19: error: 'W' declared as an array with a negative size"#,
        r#"<stdin>:9:17: warning: excess elements in scalar initializer [-Wexcess-initializers]"#,
        r#"<stdin>:9:20: error: expected ';' at end of declaration"#,
        r#"<stdin>:10:15: error: expected expression"#,
        r#"<stdin>:12:11: error: size of array element of type 'u64a' (aka 'unsigned long') (8 bytes) isn't a multiple of its alignment (128 bytes)"#,
        r#"<stdin>:8:10: warning: array index 5 is past the end of the array (that has type '__constant uint[2]' (aka '__constant unsigned int[2]')) [-Warray-bounds]"#,
        r#"<stdin>:3:1: note: array 'U' declared here"#,
    ];
    assert_clang("invalid_decl_uses", src, want);
}

/// `long long` is 128-bit on SPIR: `as_ulong` of it is a size mismatch, `as_uint4` of it is accepted.
#[test]
fn long_long() {
    let src = r#"kernel void k(global ulong *o, global uint *p) {
  unsigned long long x = o[0];
  o[0] = sizeof(unsigned long long);
  o[1] = sizeof(long long);
  o[2] = as_ulong((unsigned long long)x);
  o[3] = __alignof__(long long);
  p[0] = as_uint4(x);
}
_Static_assert(sizeof(long long) == 16, "ll");
_Static_assert(sizeof(unsigned long long) == 16, "ull");
_Static_assert(__alignof__(long long) == 16, "a");
"#;
    let want: &[&str] = &[
        r#"<stdin>:5:10: error: invalid reinterpretation: sizes of 'ulong' (aka 'unsigned long') and 'unsigned long long' must match"#,
        r#"<stdin>:7:8: error: assigning to '__global uint' (aka '__global unsigned int') from incompatible type 'uint4' (vector of 4 'uint' values)"#,
    ];
    assert_clang("long_long", src, want);
}

/// Arrays of an over-aligned typedef, at file scope, in a body and as a parameter.
#[test]
fn overaligned() {
    let src = r#"typedef ulong u64a __attribute__((aligned(128)));
__constant u64a T[2] = {1, 2};
typedef struct { int a; } __attribute__((aligned(16))) S16;
typedef int i8a __attribute__((aligned(8)));
kernel void k(global ulong *o) {
  u64a loc[4];
  i8a arr[3];
  S16 s[2];
  o[0] = T[0] + sizeof(u64a) + sizeof(i8a);
  u64a single = 3;
}
void f(u64a p[2]) {}
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:18: error: size of array element of type '__constant u64a' (aka '__constant unsigned long') (8 bytes) isn't a multiple of its alignment (128 bytes)"#,
        r#"<stdin>:6:11: error: size of array element of type 'u64a' (aka 'unsigned long') (8 bytes) isn't a multiple of its alignment (128 bytes)"#,
        r#"<stdin>:7:10: error: size of array element of type 'i8a' (aka 'int') (4 bytes) isn't a multiple of its alignment (8 bytes)"#,
        r#"<stdin>:12:14: error: size of array element of type 'u64a' (aka 'unsigned long') (8 bytes) isn't a multiple of its alignment (128 bytes)"#,
    ];
    assert_clang("overaligned", src, want);
}

/// A typedef's aligned(N) sets the alignment (raised or lowered), so records are laid out as clang lays them out.
#[test]
fn overaligned_layout() {
    let src = r#"typedef ulong u64a __attribute__((aligned(128)));
typedef int i2 __attribute__((aligned(2)));
struct W { char c; u64a v; };
struct X { char c; i2 v; };
_Static_assert(__alignof__(u64a) == 128, "a");
_Static_assert(sizeof(struct W) == 256, "b");
_Static_assert(sizeof(struct X) == 6, "c");
_Static_assert(__alignof__(i2) == 2, "d");
kernel void k(global int *o) { i2 a[2]; o[0] = sizeof(a); }
"#;
    let want: &[&str] = &[];
    assert_clang("overaligned_layout", src, want);
}
/// clang's spell-checking limit: 50 corrections per translation unit, then none.
#[test]
fn typo_spell_checking_limit() {
    let mut src = String::from("kernel void k(global int *o) { int value = 1;\n");
    for i in 0..55 {
        src.push_str(&format!("  o[{i}] = valeu;\n"));
    }
    src.push_str("}\n");
    let got = diagnostics(&src);
    let errors: Vec<&String> = got.iter().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 55, "{got:?}");
    let corrected = errors
        .iter()
        .filter(|l| l.ends_with("did you mean 'value'?"))
        .count();
    assert_eq!(corrected, 50, "{got:?}");
    assert_eq!(
        errors[50].as_str(),
        "<stdin>:52:11: error: use of undeclared identifier 'valeu'"
    );
    assert_eq!(
        errors[0].as_str(),
        "<stdin>:2:10: error: use of undeclared identifier 'valeu'; did you mean 'value'?"
    );
}

/// A header's diagnostics come where it is included (here between two functions' errors).
#[test]
fn order_through_include() {
    let dir = std::env::temp_dir().join(format!("oclc-rw-first-error-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("h.h"),
        "#warning in header\nint hfun(void) { return 1 + ; }\n",
    )
    .expect("header");
    let main = dir.join("m.cl");
    std::fs::write(
        &main,
        "kernel void k0(global int *o) { o[0] = (int*)0 + 1.5f; }\n#include \"h.h\"\nkernel void k(global int *o) { o[0] = undefined_z; }\n#warning after\n",
    )
    .expect("main");
    let out = check_command(vec![main.to_string_lossy().into_owned()], &mut &b""[..]);
    let _ = std::fs::remove_dir_all(&dir);
    // clang-19: the same messages in this order.
    let want = [
        "1:48: error: invalid operands to binary expression ('__private int *' and 'float')",
        "1:2: warning: in header [-W#warnings]",
        "2:29: error: expected expression",
        "3:39: error: use of undeclared identifier 'undefined_z'",
        "4:2: warning: after [-W#warnings]",
    ];
    let got: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .collect();
    assert_eq!(got.len(), want.len(), "{}", out.stderr);
    for (g, w) in got.iter().zip(want) {
        assert!(g.ends_with(w), "{g} is not ...{w}\n{}", out.stderr);
    }
}

/// Computing with a 128-bit `long long` runs in 64 bits (as GPU OpenCL compilers compute it),
/// with a located warning in the build log; a widened value narrowed again, or counted by
/// `__builtin_clzll`, needs no warning.
#[test]
fn long_long_computes_in_64_bits_and_what_runs() {
    let src = "kernel void k(global ulong *o) {\n  unsigned long long x = o[1];\n  o[0] = x * 3 + (1ULL << 40);\n}\n";
    let p = Program::build(src, "").expect("builds");
    assert!(
        p.build_log().contains(
            ":3:10: warning: 'unsigned long long' is a 128-bit integer type on the SPIR target; oclc's devices compute it in 64 bits, as GPU OpenCL compilers do [-Wlong-long-64]"
        ),
        "{}",
        p.build_log()
    );
    let d = Device::cpu();
    let o = d.buffer_from_slice(&[0u64, 5]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<u64>().expect("read"), vec![15 + (1u64 << 40), 5]);
    let src = "kernel void k(global ulong *o) {\n  o[0] = (ulong)(unsigned long long)o[1] + sizeof(long long) + __alignof__(unsigned long long);\n  o[2] = __builtin_clzll(o[1]);\n}\n";
    assert!(diagnostics(src).is_empty());
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu();
    let o = d.buffer_from_slice(&[0u64, 5, 0]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    // clzll of a ulong counts the 64 zero bits of the high half too (clang: 128-bit).
    assert_eq!(
        o.read::<u64>().expect("read"),
        vec![5 + 16 + 16, 5, 64 + 61]
    );
}

/// Inside one macro expansion, where every token reports the use site, the parser's and sema's errors come in the order of the tokens they are at (an undefined function-like macro wrapping definitions).
#[test]
fn macro_stream_order() {
    let src = r#"#define IMPL(NAME, T) T __attribute__((overloadable)) NAME(T a) { return a; }
#define DEF(NAME) WRAP(IMPL(NAME, half) IMPL(NAME, half2)) IMPL(NAME, float)
DEF(myfn)
"#;
    let want: &[&str] = &[
        r#"<stdin>:3:5: error: declaring function return value of type 'half' is not allowed ; did you forget * ?"#,
        r#"<stdin>:3:1: error: declaring function parameter of type '__private half' is not allowed; did you forget * ?"#,
        r#"<stdin>:2:24: note: expanded from macro 'DEF'"#,
        r#"<stdin>:1:62: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:3:1: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:2:24: note: expanded from macro 'DEF'"#,
        r#"<stdin>:1:40: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:3:1: error: expected ')'"#,
        r#"<stdin>:2:24: note: expanded from macro 'DEF'"#,
        r#"<stdin>:1:65: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:3:1: note: to match this '('"#,
        r#"<stdin>:2:23: note: expanded from macro 'DEF'"#,
        r#"<stdin>:3:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
        r#"<stdin>:2:19: note: expanded from macro 'DEF'"#,
        r#"<stdin>:3:1: error: expected ';' after top level declarator"#,
        r#"<stdin>:2:71: note: expanded from macro 'DEF'"#,
    ];
    assert_clang("macro_stream_order", src, want);
}

/// `overloadable` on a variable, parameter, field or typedef: one error per attribute, before the declaration's other errors.
#[test]
fn overloadable_not_on_function() {
    let src = r#"int __attribute__((overloadable)) gx;
__constant int __attribute__((overloadable)) gy = 1;
typedef int __attribute__((overloadable)) T;
struct S { int __attribute__((overloadable)) f; };
void g(int __attribute__((overloadable)) p, float q __attribute__((overloadable)));
void h(int __attribute__((overloadable)) p(int));
kernel void k() { int __attribute__((overloadable)) l = 0; int m __attribute__((overloadable)), *__attribute__((overloadable)) n; }
int __attribute__((overloadable)) fn(int), v2 __attribute__((overloadable));
typedef int __attribute__((overloadable)) F(int);
"#;
    let want: &[&str] = &[
        r#"<stdin>:1:20: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:1:35: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:2:31: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:3:28: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:4:31: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:5:27: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:5:68: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:6:27: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:7:38: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:7:81: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:7:113: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:8:20: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:8:62: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:8:44: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:9:28: error: 'overloadable' attribute only applies to functions"#,
    ];
    assert_clang("overloadable_not_on_function", src, want);
}

/// `__has_builtin` answers as clang-19 does on spir64: its GNU and library builtins (`__builtin_acosf16`, `sqrt`), not OpenCL's header functions nor other targets' builtins.
#[test]
fn has_builtin_is_clangs() {
    let src = r#"#if __has_builtin(__builtin_popcount) && __has_builtin(__builtin_expect)
#warning popcount and expect
#endif
#if __has_builtin(sqrt) && __has_builtin(__c11_atomic_load)
#warning sqrt and __c11_atomic_load
#endif
#if __has_builtin(get_global_id) || __has_builtin(__builtin_amdgcn_ds_bpermute) || __has_builtin(__builtin_nope)
#warning wrong
#endif
#if defined(__has_builtin) && !__has_builtin(int)
#warning defined
#endif
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:2: warning: popcount and expect [-W#warnings]"#,
        r#"<stdin>:5:2: warning: sqrt and __c11_atomic_load [-W#warnings]"#,
        r#"<stdin>:11:2: warning: defined [-W#warnings]"#,
    ];
    assert_clang("has_builtin_is_clangs", src, want);
}

/// A builtin clang has but oclc does not declare (`__builtin_canonicalizef16`, `__builtin_alloca`)
/// answers 0, unlike clang: code testing for it takes its fallback, not a call oclc rejects.
#[test]
fn has_builtin_only_for_what_oclc_declares() {
    let src = r#"#if __has_builtin(__builtin_canonicalizef16) || __has_builtin(__builtin_alloca)
#error taken
#endif
kernel void k(global uint *o) {
#if __has_builtin(__builtin_alloca)
  o[0] = *(uint *)__builtin_alloca(4);
#else
  o[0] = __builtin_popcount(o[1]);
#endif
}
"#;
    assert_clang("has_builtin_only_for_what_oclc_declares", src, &[]);
}

/// A `half` parameter's error comes when the function type is built, at the `)` (after a parse error inside the list and the missing type specifier's error).
#[test]
fn half_parameter_reported_at_close() {
    let src = r#"#define WRAP_NAME MARK
WRAP_NAME( half OVL acos(half a) { return a; } float2 f(float2 x) { return x; })
void g(half h, int b c) { }
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:21: error: expected ')'"#,
        r#"<stdin>:2:10: note: to match this '('"#,
        r#"<stdin>:2:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
        r#"<stdin>:1:19: note: expanded from macro 'WRAP_NAME'"#,
        r#"<stdin>:2:17: error: declaring function parameter of type '__private half' is not allowed; did you forget * ?"#,
        r#"<stdin>:2:81: error: expected ';' after top level declarator"#,
        r#"<stdin>:3:22: error: expected ')'"#,
        r#"<stdin>:3:7: note: to match this '('"#,
        r#"<stdin>:3:13: error: declaring function parameter of type '__private half' is not allowed; did you forget * ?"#,
    ];
    assert_clang("half_parameter_reported_at_close", src, want);
}

/// GNU asm labels after a declarator (`__asm("name")`, `__asm__`) are taken, a non-string one is clang's error; plain `asm` is no keyword. After an unknown type name further type specifiers combine silently.
#[test]
fn asm_labels() {
    let src = r#"float inner(float a) __asm("llvm.copysign.f32"); OVL float outer(float a) { return inner(a); } float2 OVL outer(float2 a) { return a; }
float f1(float a) __asm("x1");
float f2(float a) __asm__("x2") __attribute__((const));
float f3(float a) asm("x3");
int v __asm("v");
float f4(float a) __asm(x4);
float f5(float a) __asm("a" "b"), f6(float) __asm("c");
kernel void k(global float *p) { p[0] = f1(p[1]) + f2(1) + f5(2) + f6(3); }
"#;
    let want: &[&str] = &[
        r#"<stdin>:1:50: error: unknown type name 'OVL'"#,
        r#"<stdin>:1:103: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:1:106: error: expected ';' after top level declarator"#,
        r#"<stdin>:4:19: error: expected function body after function declarator"#,
        r#"<stdin>:5:5: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:6:25: error: expected string literal in 'asm'"#,
    ];
    assert_clang("asm_labels", src, want);
}

/// After a missing `;` that does not start another declaration, clang skips a malformed declaration (a braced group ends it), at file and block scope.
#[test]
fn missing_semi_skips_malformed_decl() {
    let src = r#"constant int a b { int c; } constant float d e; constant int f g;
kernel void k() { int a b { int c; } float d e; int f g; }
kernel void k2() { int a b (1) c; int x y; }
"#;
    let want: &[&str] = &[
        r#"<stdin>:1:14: error: variable in constant address space must be initialized"#,
        r#"<stdin>:1:15: error: expected ';' after top level declarator"#,
        r#"<stdin>:1:44: error: variable in constant address space must be initialized"#,
        r#"<stdin>:1:45: error: expected ';' after top level declarator"#,
        r#"<stdin>:1:62: error: variable in constant address space must be initialized"#,
        r#"<stdin>:1:63: error: expected ';' after top level declarator"#,
        r#"<stdin>:2:24: error: expected ';' at end of declaration"#,
        r#"<stdin>:2:45: error: expected ';' at end of declaration"#,
        r#"<stdin>:2:54: error: expected ';' at end of declaration"#,
        r#"<stdin>:3:25: error: expected ';' at end of declaration"#,
        r#"<stdin>:3:40: error: expected ';' at end of declaration"#,
    ];
    assert_clang("missing_semi_skips_malformed_decl", src, want);
}

/// A missing `;` after a macro body token followed by an argument of the same invocation is reported at that argument, not at the invocation's end.
#[test]
fn missing_semi_inside_expansion() {
    let src = r#"#define IMPL(NAME, T) T OVL NAME(T a) { return a; }
IMPL(myname, float2)
constant int after = 1;
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:1: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:1:25: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:6: error: expected ';' after top level declarator"#,
    ];
    assert_clang("missing_semi_inside_expansion", src, want);
}

/// A function declarator with no body is dropped, but clang acted on its parameters as parsed: `__kernel` on one (a kernel wrapped in an undefined macro) is reported; the end of file is at the last line break.
#[test]
fn dropped_declarator_params() {
    let src = r#"STRINGIFY(
__kernel void k1(global float *o)
{
  o[0] = 1.0f;
}
)
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:1: error: '__kernel' attribute only applies to functions"#,
        r#"<stdin>:3:1: error: expected ')'"#,
        r#"<stdin>:1:10: note: to match this '('"#,
        r#"<stdin>:6:2: error: expected function body after function declarator"#,
    ];
    assert_clang("dropped_declarator_params", src, want);
}

/// A name pasted from an argument (`NAME##_helper`) is located at the parameter in the macro body (reported at the use site); a parameter's storage class is reported before its type.
#[test]
fn pasted_name_and_param_storage() {
    let src = r#"#define IMPL(NAME, T) static T __attribute__((overloadable)) NAME##_helper(T a) { return a; }
WRAP( IMPL(my, half) int x; )
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:7: error: invalid storage class specifier in function declarator"#,
        r#"<stdin>:1:23: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:7: error: declaring function return value of type 'half' is not allowed ; did you forget * ?"#,
        r#"<stdin>:1:62: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:7: error: declaring function parameter of type '__private half' is not allowed; did you forget * ?"#,
        r#"<stdin>:1:78: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:7: error: 'overloadable' attribute only applies to functions"#,
        r#"<stdin>:1:47: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:7: error: expected ')'"#,
        r#"<stdin>:1:81: note: expanded from macro 'IMPL'"#,
        r#"<stdin>:2:5: note: to match this '('"#,
        r#"<stdin>:2:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]"#,
        r#"<stdin>:2:29: error: expected identifier or '('"#,
    ];
    assert_clang("pasted_name_and_param_storage", src, want);
}

/// The end of file is where clang puts it, at the final line break: a missing `}` is reported after the last token of the last line.
#[test]
fn end_of_file_at_last_line_break() {
    let src = r#"kernel void k() {
  int x = 1;
"#;
    let want: &[&str] = &[
        r#"<stdin>:2:13: error: expected '}'"#,
        r#"<stdin>:1:17: note: to match this '{'"#,
    ];
    assert_clang("end_of_file_at_last_line_break", src, want);
}

/// A `void` variable gets no deduced address space: at program scope (or static, extern) the address-space error comes first; otherwise it is incomplete, named with its written space.
#[test]
fn void_variable_after_space_checks() {
    let src = r#"void a;
constant void b;
half h;
global void c;
extern void d;
static void e;
kernel void k() { void x; static void y; }
"#;
    let want: &[&str] = &[
        r#"<stdin>:1:6: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:2:15: error: variable has incomplete type '__constant void'"#,
        r#"<stdin>:3:6: error: declaring variable of type '__private half' is not allowed"#,
        r#"<stdin>:4:13: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:5:13: error: extern variable must reside in constant address space"#,
        r#"<stdin>:6:13: error: program scope variable must reside in constant address space"#,
        r#"<stdin>:7:24: error: variable has incomplete type 'void'"#,
        r#"<stdin>:7:39: error: variables in function scope cannot be declared static"#,
    ];
    assert_clang("void_variable_after_space_checks", src, want);
}

/// A binary operator's type keeps the typedef of the operand whose type is the common one (`U64 + 1` is a `U64`), and `__builtin_astype` names an lvalue operand's type with its address space.
#[test]
fn astype_operand_types() {
    let src = r#"typedef unsigned long long U64;
kernel void k(global ulong *o) {
  U64 t = 1;
  o[0] = as_ulong(t + 1024);
  o[2] = __builtin_astype(t + 1, ulong);
  o[3] = __builtin_astype(t, ulong);
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:4:10: error: invalid reinterpretation: sizes of 'ulong' (aka 'unsigned long') and 'U64' (aka 'unsigned long long') must match"#,
        r#"<stdin>:5:10: error: invalid reinterpretation: sizes of 'ulong' (aka 'unsigned long') and 'U64' (aka 'unsigned long long') must match"#,
        r#"<stdin>:6:10: error: invalid reinterpretation: sizes of 'ulong' (aka 'unsigned long') and '__private U64' (aka '__private unsigned long long') must match"#,
    ];
    assert_clang("astype_operand_types", src, want);
}

/// `as_*` names an lvalue operand's type as declared, with its qualifiers and address space (sgminer's `as_uchar8(h)` on a 16-byte `sph_u64`); an rvalue's without them.
#[test]
fn as_type_lvalue_operand() {
    let src = r#"typedef unsigned long long U;
kernel void k(global U *g, global uchar8 *o, const global U *c) {
  U v = g[0];
  o[0] = as_uchar8(v);
  o[1] = as_uchar8(c[1]);
  o[2] = as_uchar8(v + 1);
  uint2 w = as_uint2(v);
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:4:10: error: invalid reinterpretation: sizes of 'uchar8' (vector of 8 'uchar' values) and '__private U' (aka '__private unsigned long long') must match"#,
        r#"<stdin>:5:10: error: invalid reinterpretation: sizes of 'uchar8' (vector of 8 'uchar' values) and 'const __global U' (aka 'const __global unsigned long long') must match"#,
        r#"<stdin>:6:10: error: invalid reinterpretation: sizes of 'uchar8' (vector of 8 'uchar' values) and 'U' (aka 'unsigned long long') must match"#,
        r#"<stdin>:7:13: error: invalid reinterpretation: sizes of 'uint2' (vector of 2 'uint' values) and '__private U' (aka '__private unsigned long long') must match"#,
    ];
    assert_clang("as_type_lvalue_operand", src, want);
    // An array operand is reinterpreted whole, as clang checks it (its size, not a pointer's).
    let src = r#"kernel void k(global uint *o, global uchar *i) {
  uchar a[4] = {i[0], i[1], i[2], i[3]};
  uchar b[8];
  o[0] = as_uint(a);
  o[1] = as_uint(b);
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:5:10: error: invalid reinterpretation: sizes of 'uint' (aka 'unsigned int') and '__private uchar[8]' (aka '__private unsigned char[8]') must match"#,
    ];
    assert_clang("as_type_array_operand", src, want);
    let src = "kernel void k(global uint *o, global uchar *i) {\n  uchar a[4] = {i[0], i[1], i[2], i[3]};\n  o[0] = as_uint(a);\n  private uchar *p = a;\n  o[1] = as_uint(a) + p[3];\n}\n";
    assert!(diagnostics(src).is_empty(), "{:?}", diagnostics(src));
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu();
    let o = d.buffer_from_slice(&[0u32, 0]).expect("buffer");
    let i = d.buffer_from_slice(&[1u8, 2, 3, 4]).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    k.set_arg(1, &i).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(
        o.read::<u32>().expect("read"),
        vec![0x0403_0201, 0x0403_0201 + 4]
    );
}

/// Access qualifiers as clang checks them: only on images and pipes, one per declaration, only on parameters and typedefs, against a typedef's own access; `read_write` images only from OpenCL C 2.0 (pocl's `imagefill.cl`); images outside parameters named with their deduced address space.
#[test]
fn access_qualifiers() {
    let src = r#"typedef write_only image2d_t wi;
kernel void k1(read_only int a, write_only global int *p, read_only read_write image2d_t i, read_only read_only image2d_t j, read_only wi w, write_only wi x) {}
void f2(read_write image1d_t a);
kernel void k4(image2d_t i) { read_write image2d_t l = i; }
read_only int g;
"#;
    let common: &[&str] = &[
        r#"<stdin>:2:16: error: access qualifier can only be used for pipe and image type"#,
        r#"<stdin>:2:33: error: access qualifier can only be used for pipe and image type"#,
        r#"<stdin>:2:69: error: multiple access qualifiers"#,
        r#"<stdin>:2:103: warning: duplicate 'read_only' declaration specifier [-Wduplicate-decl-specifier]"#,
        r#"<stdin>:2:126: error: multiple access qualifiers"#,
        r#"<stdin>:1:1: note: previously declared 'write_only' here"#,
        r#"<stdin>:2:142: warning: duplicate 'write_only' declaration specifier [-Wduplicate-decl-specifier]"#,
        r#"<stdin>:1:1: note: previously declared 'write_only' here"#,
    ];
    let cl12: &[&str] = &[
        r#"<stdin>:3:9: error: access qualifier 'read_write' can not be used for '__read_write image1d_t' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature"#,
        r#"<stdin>:4:31: error: 'read_write' attribute only applies to parameters and typedefs"#,
        r#"<stdin>:4:52: error: type '__private __read_write image2d_t' can only be used as a function parameter in OpenCL"#,
        r#"<stdin>:5:1: error: access qualifier can only be used for pipe and image type"#,
        r#"<stdin>:5:15: error: program scope variable must reside in constant address space"#,
    ];
    assert_clang("access_qualifiers", src, &[common, cl12].concat());
    let cl20 = format!("#if __OPENCL_C_VERSION__ < 200\n#error\n#endif\n{src}");
    let out = check_command(
        vec!["-cl-std=CL2.0".to_string(), "-".to_string()],
        &mut cl20.as_bytes(),
    );
    let got: Vec<String> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("<stdin>:") && !l.contains(": note: "))
        .map(|l| {
            // Three lines of the version guard precede the source.
            let rest = &l["<stdin>:".len()..];
            let (line, tail) = rest.split_once(':').expect("a located diagnostic");
            format!(
                "<stdin>:{}:{tail}",
                line.parse::<u32>().expect("a line number") - 3
            )
        })
        .collect();
    let want: Vec<&str> = [common, &cl12[1..4]]
        .concat()
        .into_iter()
        .filter(|l| !l.contains(": note: "))
        .collect();
    assert_eq!(got, want, "CL2.0: read_write image parameters are allowed");
    // A pipe is named as clang prints it, read-only until the attribute applies.
    let src = "kernel void k3(read_write pipe int p) {}\n";
    let out = check_command(
        vec!["-cl-std=CL2.0".to_string(), "-".to_string()],
        &mut src.as_bytes(),
    );
    assert!(
        out.stderr.contains("<stdin>:1:16: error: access qualifier 'read_write' can not be used for 'read_only pipe int' \n"),
        "{}",
        out.stderr
    );
}

/// With `-finclude-default-header` (as the real-world comparison runs clang) a prototype repeating a builtin's declaration needs `overloadable`, as clang says of libclc's `size_t get_global_size(uint dim);`; without it the prototype declares the builtin (clang's own tests, run without the header, declare builtins so).
#[test]
fn builtin_prototype_with_the_default_header() {
    let src = "size_t get_global_size(uint dim);\nfloat sqrt(float x);\nint helper(int);\nkernel void k(global int *o) { o[0] = get_global_size(0) + helper(1); }\nint helper(int x) { return x; }\n";
    let run = |flags: &[&str]| {
        let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        args.push("-".to_string());
        let out = check_command(args, &mut src.as_bytes());
        out.stderr
            .lines()
            .filter(|l| l.starts_with("<stdin>:") && l.contains(": error: "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        run(&[
            "-triple",
            "spir64-unknown-unknown",
            "-finclude-default-header"
        ]),
        [
            "<stdin>:1:8: error: redeclaration of 'get_global_size' must have the 'overloadable' attribute",
            "<stdin>:2:7: error: redeclaration of 'sqrt' must have the 'overloadable' attribute",
        ]
    );
    assert!(run(&["-triple", "spir64-unknown-unknown"]).is_empty());
}

/// Loading a `half` lvalue (a member, a dereference, an element) without cl_khr_fp16 is clang's error at the expression's location (a member's name).
#[test]
fn half_load_without_fp16() {
    let src = r#"typedef union { half f; ushort u; } U;
kernel void k(global half *p, global float *o) {
  U v; v.u = 1;
  o[0] = v.f;
  o[1] = *p;
  o[2] = p[1];
}
"#;
    let want: &[&str] = &[
        r#"<stdin>:4:12: error: loading directly from pointer to type '__private half' requires cl_khr_fp16. Use vector data load builtin functions instead"#,
        r#"<stdin>:5:10: error: loading directly from pointer to type '__global half' requires cl_khr_fp16. Use vector data load builtin functions instead"#,
        r#"<stdin>:6:10: error: loading directly from pointer to type '__global half' requires cl_khr_fp16. Use vector data load builtin functions instead"#,
    ];
    assert_clang("half_load_without_fp16", src, want);
}
