//! The `oclc` binary: exit codes, flags, stdin, output order, and bad input that must end in
//! diagnostics (never a panic, a hang or a stack overflow).

use std::path::PathBuf;

#[path = "../../../test-support/oclc_bin.rs"]
mod oclc_bin;

use oclc_bin::oclc;

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oclc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("write temp file");
    p
}

const CLEAN: &str = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n";

#[test]
fn clean_file_exits_zero_with_no_output() {
    let f = temp_file("clean.cl", CLEAN.as_bytes());
    let r = oclc(&["check", f.to_str().unwrap()], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stderr, "");
}

#[test]
fn error_exits_one_with_clang_format() {
    let r = oclc(
        &["check", "-cl-std=CL1.2", "-"],
        b"kernel void k(global int *p) {\n  local int *q = p;\n}\n",
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.starts_with("<stdin>:2:"), "{}", r.stderr);
    assert!(r.stderr.contains(": error: "), "{}", r.stderr);
    assert!(r.stderr.ends_with("1 error generated.\n"), "{}", r.stderr);
}

#[test]
fn unknown_flag_is_an_error() {
    let r = oclc(&["check", "-fbogus", "x.cl"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stderr, "oclc: error: unknown argument: '-fbogus'\n");
    let r = oclc(&["check", "-cl-std=CL9.9", "x.cl"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "oclc: error: invalid value 'CL9.9' in '-cl-std=CL9.9'\n"
    );
}

#[test]
fn missing_file_and_no_input() {
    let r = oclc(&["check", "/nonexistent/dir/k.cl"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "oclc: error: no such file or directory: '/nonexistent/dir/k.cl'\n"
    );
    let r = oclc(&["check"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stderr, "oclc: error: no input files\n");
}

#[test]
fn help_lists_ignored_flags() {
    let r = oclc(&["check", "--help"], b"");
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("-fdeclare-opencl-builtins"));
    assert!(r.stdout.contains("-verify"));
}

#[test]
fn verify_pass_and_fail() {
    let ok = temp_file(
        "v_ok.cl",
        b"// expected-no-diagnostics\nkernel void k(global int *p) { *p = 1; }\n",
    );
    let r = oclc(&["check", "-verify", ok.to_str().unwrap()], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stderr, "");

    let bad = temp_file(
        "v_bad.cl",
        b"kernel void k(global int *p) { *p = 1; } // expected-error {{nope}}\n",
    );
    let name = bad.to_str().unwrap();
    let r = oclc(&["check", "-verify", name], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        format!(
            "error: 'expected-error' diagnostics expected but not seen: \n  File {name} Line 1: nope\n1 error generated.\n"
        )
    );
}

#[test]
fn several_files_keep_input_order() {
    let names: Vec<PathBuf> = (0..6)
        .map(|i| {
            temp_file(
                &format!("order{i}.cl"),
                format!("// expected-warning {{{{w{i}}}}}\n").as_bytes(),
            )
        })
        .collect();
    let mut args = vec!["check", "-verify"];
    args.extend(names.iter().map(|p| p.to_str().unwrap()));
    let r = oclc(&args, b"");
    assert_eq!(r.code, Some(1));
    let positions: Vec<usize> = (0..6)
        .map(|i| {
            r.stderr
                .find(&format!(": w{i}\n"))
                .expect("each file reported")
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{}", r.stderr);
}

#[test]
fn json_format_is_one_document() {
    let r = oclc(
        &["check", "--format", "json", "-", "-"],
        b"kernel void k() { undeclared_thing = 1; }\n",
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    let diags = v["diagnostics"].as_array().expect("diagnostics array");
    assert_eq!(diags.len(), 2, "stdin checked twice: {}", r.stdout);
    assert_eq!(diags[0]["file"], "<stdin>");
    assert_eq!(diags[0]["line"], 1);
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(v["errors"], 2);
}

/// Bad input ends in diagnostics (exit 0 or 1), never a crash.
fn survives(name: &str, input: &[u8]) {
    let r = oclc(&["check", "-"], input);
    assert!(
        matches!(r.code, Some(0 | 1)),
        "{name}: exit {:?}\n{}",
        r.code,
        &r.stderr[..r.stderr.len().min(2000)]
    );
    assert!(
        !r.stderr.contains("panicked"),
        "{name}: {}",
        &r.stderr[..r.stderr.len().min(2000)]
    );
}

#[test]
fn invalid_utf8_and_nul_bytes() {
    survives(
        "invalid utf-8",
        b"kernel void k() { int \xff\xfe x = 1; }\n\xc3\x28 \"\xa0\xa1\"\n",
    );
    survives("nul bytes", b"kernel\0 void k() {\0 int x = '\0'; }\0\n");
    survives("only nul", &[0u8; 1000]);
    survives("empty", b"");
}

#[test]
fn deep_nesting() {
    let mut s = String::from("kernel void k(global int *p) { *p = ");
    s.push_str(&"(".repeat(100_000));
    s.push('1');
    s.push_str(&")".repeat(100_000));
    s.push_str("; }\n");
    survives("100000 nested parentheses", s.as_bytes());
    let braces = format!(
        "kernel void k() {}{}\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    survives("100000 nested blocks", braces.as_bytes());
    let unclosed = format!("int x = {};\n", "(".repeat(100_000));
    survives("100000 unclosed parentheses", unclosed.as_bytes());
}

#[test]
fn recursive_and_exploding_macros() {
    survives(
        "self-referential",
        b"#define A A\n#define B(x) B(x)\nint a = A; int b = B(1);\n",
    );
    survives("mutual", b"#define A B\n#define B A\nint x = A;\n");
    let mut s = String::from("#define X0 1\n");
    for i in 1..40 {
        s.push_str(&format!("#define X{i} X{p} X{p}\n", p = i - 1));
    }
    s.push_str("int x = X39;\n");
    survives("exponential expansion", s.as_bytes());
    survives("include itself", b"#include \"/dev/stdin\"\n");
    survives(
        "unterminated",
        b"#if 1\n#define F(x\n/* unterminated comment\n\"unterminated string\n",
    );
}

/// `oclc check` checks for 32-bit SPIR unless told otherwise, as clang's OpenCL tests do.
#[test]
fn check_target_defaults_to_spir_and_follows_triple() {
    let src = b"kernel void k(size_t n) {}\n";
    let r = oclc(&["check", "-"], src);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains(
            "(aka '__private unsigned int') cannot be used as the type of a kernel parameter"
        ),
        "{}",
        r.stderr
    );
    let r = oclc(&["check", "-triple", "spir64-unknown-unknown", "-"], src);
    assert!(
        r.stderr
            .contains("(aka '__private unsigned long') cannot be used"),
        "{}",
        r.stderr
    );
}
