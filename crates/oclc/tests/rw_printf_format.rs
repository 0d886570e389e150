//! clang's printf format checks (-Wformat, -Wformat-insufficient-args, -Wformat-extra-args,
//! -Wformat-invalid-specifier, -Wformat-security) on OpenCL's `printf`, found missing on real
//! code (pocl's printf tests; `printf("%d", get_global_id(0))` in debugging kernels). Each
//! case's diagnostic lines are clang-19's, recorded with `clang-19 -cc1 -x cl -triple
//! spir64-unknown-unknown -finclude-default-header -fsyntax-only
//! -cl-ext=+cl_khr_fp16,+cl_khr_fp64 -` on the same source.

#[path = "../../../test-support/stdin_check.rs"]
mod stdin_check;
use stdin_check::diagnostics_with;

/// `oclc check` (spir64, fp16 and fp64) on `src` as `<stdin>`: its diagnostic lines.
fn diagnostics(src: &str) -> Vec<String> {
    let flags = [
        "-triple",
        "spir64-unknown-unknown",
        "-cl-ext=+cl_khr_fp16,+cl_khr_fp64",
    ];
    diagnostics_with(&flags, src.as_bytes())
}

/// The common mistakes: `%d` for `size_t`, counts, vectors without `hl`, flags, an invalid conversion.
#[test]
fn conversions_against_argument_types() {
    let src = r#"kernel void k(global int *o, global float *f) {
  size_t i = get_global_id(0);
  printf("%d\n", i);
  printf("%f %d\n", f[0], o[0]);
  printf("%s\n", 3);
  printf("%d %d\n", 1);
  printf("%d\n", 1, 2);
  printf("%v4f\n", (float4)(1.0f));
  printf("%v4hlf\n", (float4)(1.0f));
  printf("%lu\n", i);
  printf("%-05d\n", 3);
  printf("%c %x %u\n", 'a', 3u, 4);
  printf("%ld\n", 3);
  printf("%p\n", o);
  printf("%q\n", 1);
}
"#;
    let want = [
        "<stdin>:3:18: warning: format specifies type 'int' but the argument has type 'size_t' (aka 'unsigned long') [-Wformat]",
        "<stdin>:5:18: warning: format specifies type 'char *' but the argument has type 'int' [-Wformat]",
        "<stdin>:6:15: warning: more '%' conversions than data arguments [-Wformat-insufficient-args]",
        "<stdin>:7:21: warning: data argument not used by format string [-Wformat-extra-args]",
        "<stdin>:8:20: warning: format specifies type 'double __attribute__((ext_vector_type(4)))' but the argument has type 'float4' (vector of 4 'float' values) [-Wformat]",
        "<stdin>:11:13: warning: flag '0' is ignored when flag '-' is present [-Wformat]",
        "<stdin>:13:19: warning: format specifies type 'long' but the argument has type 'int' [-Wformat]",
        "<stdin>:15:13: warning: invalid conversion specifier '\\x0a' [-Wformat-invalid-specifier]",
    ];
    assert_eq!(diagnostics(src), want);
}

/// Length modifiers against arguments (`%hd` takes any `int`; `%ld`, `%lld`, `%td`, `%jd` want their own types), OpenCL's vector lengths, `%s`/`%p`/`%ls`, flags, `hl`/`l`/`h` where they mean nothing, `%n`, a non-literal format.
#[test]
fn length_modifiers_vectors_and_pointers() {
    let src = r#"kernel void k(global int *o, global float *f, global char *s, constant char *cs, long l, short sh, uchar uc, half h, double d) {
  printf("%hd %hhd %hu\n", 300, 300, o[0]);
  printf("%d %d %d\n", sh, uc, l);
  printf("%u %x\n", -1, l);
  printf("%s %s %s\n", s, cs, o);
  printf("%p %p\n", 3, f);
  printf("%c %c\n", l, 2.0f);
  printf("%f %f %e\n", 1, l, d);
  printf("%v4d %v4hd %v2hlu\n", (int4)(1), (short4)(1), (uint2)(1));
  printf("%v4hld %v3ld %v16hhx\n", (int4)(1), (long3)(1), (uchar16)(1));
  printf("%v4hf %v4lf %v4hlf\n", (half4)(1), (double4)(1), (int4)(1));
  printf("%zu %td %jd %lld %Lf\n", get_global_id(0), 1, 1, 1, 1.0);
  printf("%5.2f %*d %.*f\n", 1.0f, 3, 4, 2, 1.0);
  printf("%*d\n", 3L, 4);
  printf("%+ d % +d %#d\n", 1, 2, 3);
  printf("%v5d\n", (int4)(1));
  printf("%hlf %hld\n", 1.0f, 1);
  printf("%n %%\n", o);
  printf("%ls %lc\n", s, 1);
  printf(cs);
  printf(cs, 1);
  printf("no newline");
  printf("%", 1);
}
"#;
    let want = [
        "<stdin>:1:115: error: declaring function parameter of type '__private half' is not allowed; did you forget * ?",
        "<stdin>:3:32: warning: format specifies type 'int' but the argument has type 'long' [-Wformat]",
        "<stdin>:4:25: warning: format specifies type 'unsigned int' but the argument has type 'long' [-Wformat]",
        "<stdin>:5:31: warning: format specifies type 'char *' but the argument has type '__global int *' [-Wformat]",
        "<stdin>:6:21: warning: format specifies type 'void *' but the argument has type 'int' [-Wformat]",
        "<stdin>:7:21: warning: format specifies type 'int' but the argument has type 'long' [-Wformat]",
        "<stdin>:7:24: warning: format specifies type 'int' but the argument has type 'float' [-Wformat]",
        "<stdin>:8:24: warning: format specifies type 'double' but the argument has type 'int' [-Wformat]",
        "<stdin>:8:27: warning: format specifies type 'double' but the argument has type 'long' [-Wformat]",
        "<stdin>:11:60: warning: format specifies type 'float __attribute__((ext_vector_type(4)))' but the argument has type 'int4' (vector of 4 'int' values) [-Wformat]",
        "<stdin>:12:54: warning: format specifies type 'ptrdiff_t' (aka 'long') but the argument has type 'int' [-Wformat]",
        "<stdin>:12:57: warning: format specifies type 'intmax_t' (aka 'long long') but the argument has type 'int' [-Wformat]",
        "<stdin>:12:60: warning: format specifies type 'long long' but the argument has type 'int' [-Wformat]",
        "<stdin>:12:63: warning: format specifies type 'long double' but the argument has type 'double' [-Wformat]",
        "<stdin>:14:13: warning: field width should have type 'int', but argument has type 'long' [-Wformat]",
        "<stdin>:15:13: warning: flag ' ' is ignored when flag '+' is present [-Wformat]",
        "<stdin>:15:17: warning: flag ' ' is ignored when flag '+' is present [-Wformat]",
        "<stdin>:15:22: warning: flag '#' results in undefined behavior with 'd' conversion specifier [-Wformat]",
        "<stdin>:16:20: warning: format specifies type 'int __attribute__((ext_vector_type(5)))' but the argument has type 'int4' (vector of 4 'int' values) [-Wformat]",
        "<stdin>:17:12: warning: length modifier 'hl' results in undefined behavior or no effect with 'f' conversion specifier [-Wformat]",
        "<stdin>:17:17: warning: length modifier 'hl' results in undefined behavior or no effect with 'd' conversion specifier [-Wformat]",
        "<stdin>:18:12: warning: invalid conversion specifier 'n' [-Wformat-invalid-specifier]",
        "<stdin>:19:23: warning: format specifies type 'wchar_t *' (aka 'int *') but the argument has type '__global char *' [-Wformat]",
        "<stdin>:20:10: warning: format string is not a string literal (potentially insecure) [-Wformat-security]",
        "<stdin>:20:10: note: treat the string as an argument to avoid this",
        "<stdin>:23:11: warning: incomplete format specifier [-Wformat]",
    ];
    assert_eq!(diagnostics(src), want);
}

/// `*` widths and precisions, flags and precision that mean nothing with their conversion, an invalid conversion (it takes an argument's place without using it), vectors matched exactly (signedness too), concatenated literals.
#[test]
fn amounts_flags_and_exact_vectors() {
    let src = r#"kernel void k(global int *o) {
  printf("%d %*d\n", 1, 3L, 2);
  printf("%.*f\n", 3L, 2.0);
  printf("%*d\n");
  printf("%.*d\n");
  printf("%+x %0s %#c % u %.3c %.2p\n", 1u, "a", 1, 1u, 1, o);
  printf("%-5s %05d %0-5d\n", "x", 1, 1);
  printf("%lf %hf %lp %hc %ls\n", 1.0, 1.0, o, 1, "a");
  printf("%5%\n");
  printf("%y %d\n", 1, 2);
  printf("%y\n");
  printf("%1$d\n", 1);
  printf("%v4hhd %vd\n", (char4)(1), 1);
  printf("%v4s\n", "a");
  printf("%v4c\n", (char4)(1));
  printf("%v2hd\n", (ushort2)(1));
  printf("%v2hld %v2lu\n", (uint2)(1), (long2)(1));
  printf("%v2hu\n", (int2)(1));
  printf("%d\n", (int2)(1));
  printf("%v2d\n", 1);
  printf("ab" "%d" "\t%s\n", 1.0, 2);
  printf("%c\n", "s");
  printf("%x\n", o);
  printf("%u %d\n", 1.0f, (char)1);
  printf("%s\n", (constant char*)0);
  printf("%s\n", (global uchar*)0);
  printf("%s\n", (global char2*)0);
}
"#;
    let want = [
        "<stdin>:2:16: warning: field width should have type 'int', but argument has type 'long' [-Wformat]",
        "<stdin>:3:13: warning: field precision should have type 'int', but argument has type 'long' [-Wformat]",
        "<stdin>:4:13: warning: '*' specified field width is missing a matching 'int' argument [-Wformat]",
        "<stdin>:5:13: warning: '.*' specified field precision is missing a matching 'int' argument [-Wformat]",
        "<stdin>:6:12: warning: flag '+' results in undefined behavior with 'x' conversion specifier [-Wformat]",
        "<stdin>:6:16: warning: flag '0' results in undefined behavior with 's' conversion specifier [-Wformat]",
        "<stdin>:6:20: warning: flag '#' results in undefined behavior with 'c' conversion specifier [-Wformat]",
        "<stdin>:6:24: warning: flag ' ' results in undefined behavior with 'u' conversion specifier [-Wformat]",
        "<stdin>:6:28: warning: precision used with 'c' conversion specifier, resulting in undefined behavior [-Wformat]",
        "<stdin>:6:33: warning: precision used with 'p' conversion specifier, resulting in undefined behavior [-Wformat]",
        "<stdin>:7:22: warning: flag '0' is ignored when flag '-' is present [-Wformat]",
        "<stdin>:8:12: warning: length modifier 'l' results in undefined behavior or no effect with 'f' conversion specifier [-Wformat]",
        "<stdin>:8:16: warning: length modifier 'h' results in undefined behavior or no effect with 'f' conversion specifier [-Wformat]",
        "<stdin>:8:20: warning: length modifier 'l' results in undefined behavior or no effect with 'p' conversion specifier [-Wformat]",
        "<stdin>:8:24: warning: length modifier 'h' results in undefined behavior or no effect with 'c' conversion specifier [-Wformat]",
        "<stdin>:8:51: warning: format specifies type 'wchar_t *' (aka 'int *') but the argument has type '__constant char *' [-Wformat]",
        "<stdin>:10:12: warning: invalid conversion specifier 'y' [-Wformat-invalid-specifier]",
        "<stdin>:10:24: warning: data argument not used by format string [-Wformat-extra-args]",
        "<stdin>:11:12: warning: invalid conversion specifier 'y' [-Wformat-invalid-specifier]",
        "<stdin>:13:19: warning: incomplete format specifier [-Wformat]",
        "<stdin>:15:20: warning: format specifies type 'int __attribute__((ext_vector_type(4)))' but the argument has type 'char4' (vector of 4 'char' values) [-Wformat]",
        "<stdin>:16:21: warning: format specifies type 'short __attribute__((ext_vector_type(2)))' but the argument has type 'ushort2' (vector of 2 'ushort' values) [-Wformat]",
        "<stdin>:17:28: warning: format specifies type 'int __attribute__((ext_vector_type(2)))' but the argument has type 'uint2' (vector of 2 'uint' values) [-Wformat]",
        "<stdin>:17:40: warning: format specifies type 'unsigned long __attribute__((ext_vector_type(2)))' but the argument has type 'long2' (vector of 2 'long' values) [-Wformat]",
        "<stdin>:18:21: warning: format specifies type 'unsigned short __attribute__((ext_vector_type(2)))' but the argument has type 'int2' (vector of 2 'int' values) [-Wformat]",
        "<stdin>:19:18: warning: format specifies type 'int' but the argument has type 'int2' (vector of 2 'int' values) [-Wformat]",
        "<stdin>:20:20: warning: format specifies type 'int __attribute__((ext_vector_type(2)))' but the argument has type 'int' [-Wformat]",
        "<stdin>:21:30: warning: format specifies type 'int' but the argument has type 'double' [-Wformat]",
        "<stdin>:21:35: warning: format specifies type 'char *' but the argument has type 'int' [-Wformat]",
        "<stdin>:22:18: warning: format specifies type 'int' but the argument has type '__constant char *' [-Wformat]",
        "<stdin>:23:18: warning: format specifies type 'unsigned int' but the argument has type '__global int *' [-Wformat]",
        "<stdin>:24:21: warning: format specifies type 'unsigned int' but the argument has type 'float' [-Wformat]",
        "<stdin>:27:18: warning: format specifies type 'char *' but the argument has type '__global char2 *' [-Wformat]",
    ];
    assert_eq!(diagnostics(src), want);
}
