//! GNU extensions real code uses (SPIRV-LLVM-Translator's tests, pocl's kernels): inline
//! assembly statements, `__builtin_printf`, imaginary constants, `__builtin_frexp`/`modf`/
//! `readcyclecounter`, unnamed struct types in messages and typo corrections to builtins.
//! Each case's diagnostics are clang-19's, recorded with
//! `clang-19 -cc1 -x cl -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only -`
//! on the same source; the run cases check values computed on the cpu device.

#[path = "../../../test-support/stdin_check.rs"]
mod stdin_check;
use stdin_check::{assert_clang_with, diagnostics_with};

/// Asserts oclc's diagnostics for `src` are clang's `want`.
fn assert_clang(name: &str, src: &[u8], want: &[&str]) {
    assert_clang_with(name, &[], src, want);
}
use oclc::{Device, NdRange, Program};
use std::path::PathBuf;
use std::process::Command;

/// `oclc run` of a job file holding `code` (kernel `k`, one `uint` buffer `o`): exit status
/// and stderr.
fn run_code(name: &str, code: &str) -> (i32, String) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("oclc-rw-gnu-ext-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let job = format!(
        "code = \"\"\"\n{code}\"\"\"\nkernel = \"k\"\nglobal = [1]\n[args]\no = {{ buffer = \"uint\", len = 4 }}\n"
    );
    std::fs::write(dir.join("job.toml"), job).expect("write job");
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .current_dir(&dir)
        .args(["run", "job.toml"])
        .output()
        .expect("run oclc");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Well-formed asm statements and a top-level asm block are accepted, as clang accepts them
/// for spir (tied operands of one size, memory operands, `goto` labels, named operands).
#[test]
fn asm_statements_accepted() {
    let src = br#"__asm__(".globl sym");
float f(float x) __asm("fname");
kernel void k(global int *in, global int *out, global float *fo) {
  int i = 0, y;
  __asm__ volatile ("");
  __asm__ volatile ("intcommand %0 %1" : "=r"(out[i]) : "r"(in[i]));
  __asm ("%0 %1 %2" : "=r"(y), "+m"(out[1]) : "0"(fo[0]) : "memory", "cc");
  __asm__ ("%[o] %[a]" : [o] "=r"(y) : [a] "r"(in[2]) : "memory");
  __asm__ inline ("%% %= %{ %}" ::: "unwind");
  __asm__ goto ("jmp %l0" :::: done);
done:
  out[2] = y;
}
"#;
    assert_clang("asm_statements_accepted", src, &[]);
}

/// clang's errors for malformed asm statements: constraints, lvalues, clobbers, the template's
/// escapes and operand numbers, qualifiers, and plain `asm` (no keyword in OpenCL C).
#[test]
fn asm_statement_errors() {
    let src = br#"struct S { int a; };
kernel void k(global int *p, global float *f) {
  int x = 1, y;
  const int c = 2;
  __asm__ ("mov %0, %1" : "=r"(3) : "r"(x));
  __asm__ ("mov %0" : "r"(y));
  __asm__ ("mov %0" : "=x"(y));
  __asm__ ("" : "=r"(c));
  __asm__ ("mov %0" : "=r"(y) : "r"(x) : "foo");
  __asm ("%0 %1 %2" : "=r"(y) : "r"(x));
  __asm ("%" : "=r"(y) : "r"(x));
  __asm ("" : "=m"(y) : "m"(x+1));
  __asm ("" : "=r"(y) : "r"((void)0));
  __asm__ ("%[o] %[z]" : [o] "=r"(y) : [i] "r"(x));
  __asm ("" : "=&r"(y), "=r"(x) : "1"(x), "2"(x));
  __asm ("" : "=r"(y) : "0"(x), "0"(x));
  __asm ("" : "=r" (y) : "");
  __asm (L"x");
  __asm (x);
  __asm__ volatile volatile ("");
  __asm__ const ("");
  __asm__ ("")
  asm("nop");
}
"#;
    assert_clang(
        "asm_statement_errors",
        src,
        &[
            "<stdin>:5:32: error: invalid lvalue in asm output",
            "<stdin>:6:23: error: invalid output constraint 'r' in asm",
            "<stdin>:7:23: error: invalid output constraint '=x' in asm",
            "<stdin>:8:22: error: invalid lvalue in asm output",
            "<stdin>:9:42: error: unknown register name 'foo' in asm",
            "<stdin>:10:18: error: invalid operand number in inline asm string",
            "<stdin>:11:11: error: invalid % escape in inline assembly string",
            "<stdin>:12:29: error: invalid lvalue in asm input for constraint 'm'",
            "<stdin>:13:29: error: invalid type 'void' in asm input for constraint 'r'",
            "<stdin>:14:20: error: unknown symbolic operand name in inline assembly string",
            "<stdin>:15:43: error: invalid input constraint '2' in asm",
            "<stdin>:16:37: error: more than one input constraint matches the same output '0'",
            "<stdin>:16:29: note: constraint '0' is already present here",
            "<stdin>:17:28: error: expected '(' after 'asm operand'",
            "<stdin>:18:14: error: cannot use wide string literal in 'asm'",
            "<stdin>:19:10: error: expected string literal in 'asm'",
            "<stdin>:20:20: error: duplicate asm qualifier 'volatile'",
            "<stdin>:21:11: error: expected 'volatile', 'inline', 'goto', or '('",
            "<stdin>:22:15: error: expected ';' after asm statement",
        ],
    );
}

/// A kernel reaching an asm statement cannot run: a located error, no panic, no skipping.
#[test]
fn asm_statement_does_not_run() {
    let (code, err) = run_code(
        "asm",
        "kernel void k(global uint *o) {\n  uint y = 1;\n  __asm__ volatile (\"add %0, %1\" : \"=r\"(y) : \"r\"(o[1]));\n  o[0] = y;\n}\n",
    );
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains(":3:3: error: inline assembly (`__asm__`) cannot be run"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// `__builtin_printf` is `int (const char *, ...)`: the format's space is the argument's, at
/// least one argument; it prints as `printf`.
#[test]
fn builtin_printf() {
    let src = br#"kernel void k(global int *p) {
  __builtin_printf("hi %d\n", 3);
  int r = __builtin_printf("x");
  private char *t = 0;
  __builtin_printf(t);
  __builtin_printf();
  __builtin_printf(3);
}
"#;
    let d = diagnostics_with(&[], src);
    for want in [
        "<stdin>:6:20: error: too few arguments to function call, expected at least 1, have 0",
        "<stdin>:7:20: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'const char *' [-Wint-conversion]",
    ] {
        assert!(d.iter().any(|l| l == want), "missing {want} in {d:#?}");
    }
    assert!(
        d.iter().filter(|l| l.contains("error")).count() == 2,
        "{d:#?}"
    );
    let program = Program::build(
        "kernel void k(global int *o) { o[0] = __builtin_printf(\"v=%d\\n\", 7); }",
        "",
    )
    .expect("build");
    let device = Device::cpu();
    let o = device.buffer_from_slice(&[5i32]).expect("o");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    device.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<i32>().expect("o"), vec![0]);
}

/// GNU imaginary constants: accepted, warned about under -pedantic only; a program using one
/// cannot run (no complex types on the devices).
#[test]
fn imaginary_constants() {
    let src = br#"kernel void k(global int *p, global float *f) {
  p[0] = 1i;
  f[0] = 2.0if;
  int x = 3j;
  double d = 2.5i;
  long l = 1li;
}
"#;
    assert_eq!(diagnostics_with(&[], src), Vec::<String>::new());
    assert_eq!(
        diagnostics_with(&["-pedantic"], src),
        [
            "<stdin>:2:10: warning: imaginary constants are a GNU extension [-Wgnu-imaginary-constant]",
            "<stdin>:3:10: warning: imaginary constants are a GNU extension [-Wgnu-imaginary-constant]",
            "<stdin>:4:11: warning: imaginary constants are a GNU extension [-Wgnu-imaginary-constant]",
            "<stdin>:5:14: warning: imaginary constants are a GNU extension [-Wgnu-imaginary-constant]",
            "<stdin>:6:12: warning: imaginary constants are a GNU extension [-Wgnu-imaginary-constant]",
        ]
    );
    let (code, err) = run_code(
        "imaginary",
        "kernel void k(global uint *o) {\n  o[0] = 2i;\n}\n",
    );
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains(":2:10: error: imaginary constants (GNU `_Complex` values) cannot be run"),
        "{err}"
    );
}

/// `__builtin_frexp[f|f16]`, `__builtin_modf[f]` and `__builtin_readcyclecounter` as clang
/// declares them: the pointer parameter takes the argument's address space (any of them).
#[test]
fn frexp_modf_readcyclecounter_declared_as_clang() {
    let src = br#"kernel void k(global float *f, global int *e, global double *d) {
  int pe; float pf;
  constant int *ci = 0;
  f[0] = __builtin_frexpf(f[1], e);
  f[1] = __builtin_frexpf(f[1], &pe);
  f[2] = __builtin_frexpf(f[1], ci);
  d[0] = __builtin_frexp(d[1], e);
  f[3] = __builtin_modff(f[1], &pf);
  d[1] = __builtin_modf(d[1], d);
  ulong c = __builtin_readcyclecounter();
  f[4] = __builtin_frexpf(f[1], f);
  f[5] = __builtin_modff(f[1], e);
  f[6] = __builtin_frexpf(f[1]);
  f[8] = __builtin_modff(f[1], 1);
  c = __builtin_readcyclecounter(1);
  f[10] = __builtin_frexpf(f[1], (global uint*)e);
  __builtin_frexpf(f[1], e);
}
"#;
    assert_clang(
        "frexp_modf_readcyclecounter_declared_as_clang",
        src,
        &[
            "<stdin>:11:33: warning: incompatible pointer types passing '__global float *__private' to parameter of type '__global int *' [-Wincompatible-pointer-types]",
            "<stdin>:12:32: warning: incompatible pointer types passing '__global int *__private' to parameter of type '__global float *' [-Wincompatible-pointer-types]",
            "<stdin>:13:31: error: too few arguments to function call, expected 2, have 1",
            "<stdin>:14:32: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'float *' [-Wint-conversion]",
            "<stdin>:15:34: error: too many arguments to function call, expected 0, have 1",
            "<stdin>:16:34: warning: passing '__global uint *' (aka '__global unsigned int *') to parameter of type '__global int *' converts between pointers to integer types with different sign [-Wpointer-sign]",
        ],
    );
}

/// Their values on the cpu device (frexp of 12 is 0.75 with exponent 4, through a global
/// and a private pointer; modf splits 2.75), a counter that grows, and PTX's `%clock64`.
#[test]
fn frexp_modf_readcyclecounter_run() {
    let src = r#"kernel void k(global float *f, global int *e) {
  int pe;
  float ip;
  f[0] = __builtin_frexpf(12.0f, e);
  f[1] = __builtin_frexpf(-3.0f, &pe);
  e[1] = pe;
  f[2] = __builtin_modff(2.75f, &ip);
  f[3] = ip;
  f[4] = __builtin_modff(-1.5f, f + 5);
  ulong a = __builtin_readcyclecounter();
  ulong b = __builtin_readcyclecounter();
  e[2] = b > a;
}
"#;
    for opts in ["", "-O0"] {
        let program = Program::build(src, opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
        let device = Device::cpu();
        let f = device.buffer_from_slice(&[0f32; 6]).expect("f");
        let e = device.buffer_from_slice(&[0i32; 3]).expect("e");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &f)
            .and_then(|k| k.set_arg(1, &e))
            .expect("args");
        device.launch(&k, &NdRange::new(&[1])).expect("launch");
        assert_eq!(
            f.read::<f32>().expect("f"),
            vec![0.75, -0.75, 0.75, 2.0, -0.5, -1.0],
            "{opts}"
        );
        assert_eq!(e.read::<i32>().expect("e"), vec![4, 2, 1], "{opts}");
    }
    let program = Program::build(src, "").expect("build");
    let ptx = program.ptx_text("sm_80", false).expect("ptx");
    assert!(ptx.contains("%clock64"), "no %clock64 in\n{ptx}");
}

/// clang names an unnamed struct, union or enum by where it is declared.
#[test]
fn unnamed_tag_types_named_by_location() {
    let src = br#"typedef struct { int a; } T;
kernel void k(global int *p) {
  struct { int a; } s;
  s = 1;
  T t;
  t = 2;
  union { int x; } u;
  u = 3;
  p[0] = s;
}
"#;
    assert_clang(
        "unnamed_tag_types_named_by_location",
        src,
        &[
            "<stdin>:4:5: error: assigning to '__private struct (unnamed struct at <stdin>:3:3)' from incompatible type 'int'",
            "<stdin>:6:5: error: assigning to '__private T' from incompatible type 'int'",
            "<stdin>:8:5: error: assigning to '__private union (unnamed union at <stdin>:7:3)' from incompatible type 'int'",
            "<stdin>:9:8: error: assigning to '__global int' from incompatible type '__private struct (unnamed struct at <stdin>:3:3)'",
        ],
    );
}

/// Typo correction to builtins: an overloaded one is tried with its last declaration in
/// clang's header (`half dot(half4, half4)`: scalars splat to it, `float4`s do not).
#[test]
fn typo_correction_to_builtins() {
    let src = br#"kernel void k(global float *p, global float4 *q) {
  float4 a = q[0], b = q[1];
  p[0] = dstT(a, b);
  p[1] = dstT(1.0f, 2.0f);
  p[2] = dstT(1, 2);
  p[3] = dstT(a);
  ncos(1.0f, 2.0f);
}
"#;
    let d = diagnostics_with(&[], src);
    let errors: Vec<&String> = d.iter().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(
        errors,
        [
            "<stdin>:3:10: error: use of undeclared identifier 'dstT'",
            "<stdin>:4:10: error: use of undeclared identifier 'dstT'; did you mean 'dot'?",
            "<stdin>:5:10: error: use of undeclared identifier 'dstT'; did you mean 'dot'?",
            "<stdin>:6:10: error: use of undeclared identifier 'dstT'",
            "<stdin>:7:3: error: use of undeclared identifier 'ncos'",
        ],
        "{d:#?}"
    );
}
