//! The front end's limits as the `oclc` binary applies them (issue 12): the source size limit
//! (`OCLC_MAX_SOURCE_BYTES`), `-fbracket-depth=N`, `--target=`, long flat operator and
//! `else if` chains, arrays too large for the target, and source bytes that are not UTF-8.
//! Big inputs are generated here, never checked in.

use std::path::PathBuf;

#[path = "../../../test-support/oclc_bin.rs"]
mod oclc_bin;

use oclc_bin::{oclc, oclc_env};

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "oclc-frontend-limits-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &std::path::Path, name: &str, contents: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("write temp file");
    p.display().to_string()
}

// ---- the source size limit ----------------------------------------------------------------

#[test]
fn sources_over_the_limit_are_an_error_naming_file_and_limit() {
    let dir = temp_dir("limit");
    let limit = [("OCLC_MAX_SOURCE_BYTES", "4K")];
    // Exactly at the limit: read and checked.
    let mut at = b"kernel void k() {}\n".to_vec();
    at.resize(4096, b' ');
    let at = write(&dir, "at.cl", &at);
    let r = oclc_env(&["check", &at], b"", &limit);
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    // One byte over.
    let mut over = b"kernel void k() {}\n".to_vec();
    over.resize(4097, b' ');
    let over = write(&dir, "over.cl", &over);
    let msg = format!("'{over}' is larger than the 4 KiB source limit (OCLC_MAX_SOURCE_BYTES)");
    for cmd in [
        &["check", over.as_str()][..],
        &["build", "--emit", "ir", over.as_str()],
        &["spaces", over.as_str()],
    ] {
        let r = oclc_env(cmd, b"", &limit);
        assert_eq!(r.code, Some(1), "{cmd:?}: {}", r.stderr);
        assert_eq!(r.stderr, format!("oclc: error: {msg}\n"), "{cmd:?}");
    }
    // Standard input.
    let r = oclc_env(&["check", "-"], &[b' '; 5000], &limit);
    assert_eq!(
        r.stderr,
        "oclc: error: standard input is larger than the 4 KiB source limit \
         (OCLC_MAX_SOURCE_BYTES)\n"
    );
    // An #include: a fatal error at the directive.
    let inc = write(&dir, "inc.cl", format!("#include \"{over}\"\n").as_bytes());
    let r = oclc_env(&["check", &inc], b"", &limit);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .starts_with(&format!("{inc}:1:10: fatal error: {msg}\n")),
        "{}",
        r.stderr
    );
    // A run file's source.
    let job = write(
        &dir,
        "job.toml",
        b"source = \"over.cl\"\nkernel = \"k\"\nglobal = [1]\n[args]\n",
    );
    let r = oclc_env(&["run", &job], b"", &limit);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!(
            "{job}: error: source: 'over.cl' is larger than the 4 KiB source limit \
             (OCLC_MAX_SOURCE_BYTES)\n"
        )
    );
    let r = oclc_env(&["check", &at], b"", &[("OCLC_MAX_SOURCE_BYTES", "lots")]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .starts_with("oclc: error: invalid OCLC_MAX_SOURCE_BYTES value 'lots'"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file claiming 4.3 GB (sparse: it takes no disk) is refused after the limit's bytes, and
/// nothing is reserved for what it claims.
#[test]
fn huge_files_are_refused_at_the_limit() {
    let dir = temp_dir("huge");
    let path = dir.join("huge.cl");
    let f = std::fs::File::create(&path).expect("create");
    f.set_len(4_300_000_000).expect("sparse file");
    drop(f);
    let p = path.display().to_string();
    for limit in ["1M", "256M"] {
        let r = oclc_env(&["check", &p], b"", &[("OCLC_MAX_SOURCE_BYTES", limit)]);
        assert_eq!(r.code, Some(1));
        assert!(
            r.stderr
                .starts_with(&format!("oclc: error: '{p}' is larger than the ")),
            "{}",
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Devices that never end are read up to the limit (256 MiB by default), not forever.
#[cfg(target_os = "linux")]
#[test]
fn endless_devices_end_at_the_limit() {
    let limit = [("OCLC_MAX_SOURCE_BYTES", "1M")];
    let r = oclc_env(&["check", "/dev/zero"], b"", &limit);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            Some(1),
            "oclc: error: '/dev/zero' is larger than the 1 MiB source limit \
             (OCLC_MAX_SOURCE_BYTES)\n"
        )
    );
    let r = oclc_env(&["check", "/dev/urandom"], b"", &limit);
    assert!(
        r.stderr.contains("is larger than the 1 MiB"),
        "{}",
        r.stderr
    );
    let r = oclc(&["check", "-"], b"#include \"/dev/zero\"\n");
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.starts_with(
            "<stdin>:1:10: fatal error: '/dev/zero' is larger than the 256 MiB source limit \
             (OCLC_MAX_SOURCE_BYTES)\n"
        ),
        "{}",
        r.stderr
    );
    // The run file itself has its own limit.
    let r = oclc(&["run", "/dev/zero"], b"");
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stderr,
        "/dev/zero: error: the run file is larger than the 64 MiB limit on run files\n"
    );
    let _ = r.stdout;
}

// ---- -fbracket-depth and --target ------------------------------------------------------------

#[test]
fn bracket_depth_flag_is_honoured_and_validated() {
    let src = format!(
        "constant int x = {}1{};\n",
        "(".repeat(300),
        ")".repeat(300)
    );
    let r = oclc(&["check", "-"], src.as_bytes());
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.starts_with(
            "<stdin>:1:274: fatal error: bracket nesting level exceeded maximum of 256\n"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("note: use -fbracket-depth=N to increase maximum nesting level")
    );
    for flag in [&["-fbracket-depth=300"][..], &["-fbracket-depth", "300"]] {
        let args: Vec<&str> = ["check"]
            .iter()
            .chain(flag)
            .chain(&["-"])
            .copied()
            .collect();
        let r = oclc(&args, src.as_bytes());
        assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""), "{flag:?}");
    }
    let r = oclc(&["check", "-fbracket-depth=299", "-"], src.as_bytes());
    assert!(
        r.stderr
            .contains("fatal error: bracket nesting level exceeded maximum of 299"),
        "{}",
        r.stderr
    );
    // The flag reaches `build` and run files' options too.
    let r = oclc(
        &["build", "--emit", "ir", "-fbracket-depth=300", "-"],
        src.as_bytes(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // Deeper blocks than lowering takes (2000) are an error there, never dropped code.
    let dir = temp_dir("blocks");
    let n = 2100;
    write(
        &dir,
        "b.cl",
        format!(
            "kernel void k(global int *p) {{ {}p[0] = 7;{} }}\n",
            "{".repeat(n),
            "}".repeat(n)
        )
        .as_bytes(),
    );
    let job = write(
        &dir,
        "b.toml",
        b"source = \"b.cl\"\noptions = \"-fbracket-depth=3000\"\nkernel = \"k\"\n\
          global = [1]\n[args]\np = { buffer = \"int\", len = 1 }\n",
    );
    let r = oclc(&["run", &job], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("error: statement is nested too deeply"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
    for bad in ["x", "", "-1", "99999999999"] {
        let flag = format!("-fbracket-depth={bad}");
        let r = oclc(&["check", &flag, "-"], src.as_bytes());
        assert_eq!(
            (r.code, r.stderr),
            (
                Some(1),
                format!("oclc: error: invalid integral value '{bad}' in '-fbracket-depth={bad}'\n")
            )
        );
    }
}

#[test]
fn build_target_is_validated() {
    let src = b"kernel void k(global int *p) { p[0] = 1; }\n";
    let r = oclc(&["build", "--emit", "ptx", "--target=sm_90", "-"], src);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains(".target sm_90\n"), "{}", r.stdout);
    let r = oclc(&["build", "--emit", "ptx", "--target", "sm_70", "-"], src);
    assert!(r.stdout.contains(".target sm_70\n"), "{}", r.stdout);
    for bad in ["sm_1000", "sm_90a", "sm_", "bogus", ""] {
        let flag = format!("--target={bad}");
        let r = oclc(&["build", "--emit", "ptx", &flag, "-"], src);
        assert_eq!(r.code, Some(1), "{bad}");
        assert_eq!(
            r.stderr,
            format!(
                "oclc: error: invalid value '{bad}' in '--target={bad}' (expected a PTX target: \
                 sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90; or \
                 spir-unknown-unknown, spir64-unknown-unknown)\n"
            )
        );
        assert_eq!(r.stdout, "");
    }
    // A spir triple still picks the front end's target.
    let r = oclc(
        &[
            "build",
            "--emit",
            "ir",
            "--target=spir-unknown-unknown",
            "-",
        ],
        src,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

// ---- nested macro arguments (row 5) -------------------------------------------------------

#[test]
fn nested_macro_arguments_stop_at_the_limit() {
    let n = 200_000;
    let src = format!(
        "#define P(x) x\nint y = {}1{};\n",
        "P(".repeat(n),
        ")".repeat(n)
    );
    assert!(src.len() > 600_000);
    let r = oclc(&["check", "-"], src.as_bytes());
    assert_eq!(r.code, Some(1));
    // The 258th `P`, found while the outermost arguments are read.
    assert!(
        r.stderr.starts_with(
            "<stdin>:2:523: fatal error: macro arguments nested too deeply (limit 256)\n"
        ),
        "{}",
        &r.stderr[..r.stderr.len().min(300)]
    );
}

// ---- long flat chains (row 8) -------------------------------------------------------------

/// A kernel writing `a + a + ... + a` (`n` terms) to `out[0]`.
fn sum_kernel(n: usize) -> String {
    format!(
        "kernel void k(global int *out, int a) {{\n  out[0] = {};\n}}\n",
        vec!["a"; n].join(" + ")
    )
}

/// A kernel writing, through an `else if` chain of `n` tests, `a` (when below `n`) to `out[0]`.
fn else_if_kernel(n: usize) -> String {
    let mut s = String::from("kernel void k(global int *out, int a) {\n  int r = -1;\n");
    s.push_str("  if (a == 0) r = 0;\n");
    for i in 1..n {
        s.push_str(&format!("  else if (a == {i}) r = {i};\n"));
    }
    s.push_str("  out[0] = r;\n}\n");
    s
}

/// Runs `src` as kernel `k` with `a`, expecting `out[0] == want`.
fn run_kernel(dir: &std::path::Path, name: &str, src: &str, a: i32, want: i64) {
    write(dir, &format!("{name}.cl"), src.as_bytes());
    let job = write(
        dir,
        &format!("{name}.toml"),
        format!(
            "source = \"{name}.cl\"\nkernel = \"k\"\nglobal = [1]\n[args]\n\
             out = {{ buffer = \"int\", len = 1 }}\na = {{ value = {a} }}\n\
             [expect]\nout = {{ equals = [{want}] }}\n"
        )
        .as_bytes(),
    );
    let r = oclc(&["run", &job], b"");
    assert_eq!(r.code, Some(0), "{name}: {}", r.stderr);
    assert!(r.stdout.contains("expect out: ok"), "{name}: {}", r.stdout);
}

#[test]
fn long_chains_are_not_nesting() {
    // clang accepts both; the old limit was "nesting level exceeded maximum of 4096".
    for src in [
        format!("int f(int a) {{ return {}; }}\n", vec!["a"; 4097].join("+")),
        else_if_kernel(5000),
        sum_kernel(100_000),
        else_if_kernel(100_000),
        format!(
            "constant int c = {};\nkernel void k(global int *p) {{ p[0] = c; }}\n",
            vec!["1"; 5000].join(" + ")
        ),
        format!(
            "kernel void k(global int *p, int a) {{ if ({}) p[0] = 1; }}\n",
            (0..5000)
                .map(|i| format!("a == {i}"))
                .collect::<Vec<_>>()
                .join(" || ")
        ),
    ] {
        let r = oclc(&["check", "-"], src.as_bytes());
        assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""), "{}", &src[..80]);
    }
    // Real nesting still has its limit.
    let src = format!("int f(int a) {{ return {}a; }}\n", "- ".repeat(5000));
    let r = oclc(&["check", "-"], src.as_bytes());
    assert!(
        r.stderr
            .contains("fatal error: nesting level exceeded maximum of 4096"),
        "{}",
        r.stderr
    );
}

#[test]
fn long_chains_build_and_run() {
    let dir = temp_dir("chains");
    run_kernel(&dir, "sum", &sum_kernel(100_000), 3, 300_000);
    run_kernel(&dir, "elif", &else_if_kernel(5000), 4321, 4321);
    run_kernel(&dir, "elif_miss", &else_if_kernel(5000), 6000, -1);
    let src = else_if_kernel(5000);
    let r = oclc(&["build", "--emit", "ptx", "-"], src.as_bytes());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains(".entry"), "{}", &r.stdout[..200]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The library builds and runs long chains on a thread with a small (1 MiB) stack: the
/// stages after the front end take them in loops.
#[test]
fn long_chains_through_the_library_on_a_small_stack() {
    let done = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let mut got = Vec::new();
            for (src, a) in [(sum_kernel(100_000), 2), (else_if_kernel(20_000), 19_999)] {
                let program = oclc::Program::build(&src, "").map_err(|e| e.to_string())?;
                let device = oclc::Device::cpu();
                let out = device.buffer::<i32>(1).map_err(|e| e.to_string())?;
                let mut kernel = program.kernel("k").map_err(|e| e.to_string())?;
                kernel.set_arg(0, &out).map_err(|e| e.to_string())?;
                kernel.set_arg(1, a).map_err(|e| e.to_string())?;
                device
                    .launch(&kernel, &oclc::NdRange::new(&[1]))
                    .map_err(|e| e.to_string())?;
                got.push(out.read::<i32>().map_err(|e| e.to_string())?[0]);
            }
            Ok::<_, String>(got)
        })
        .expect("thread starts")
        .join()
        .expect("no panic, no overflow");
    assert_eq!(done, Ok(vec![200_000, 19_999]));
}

// ---- arrays too large for the target (row 9, compile time) --------------------------------

#[test]
fn arrays_too_large_are_clangs_error() {
    let src = "constant int t[9223372036854775807] = {1};\n\
               global int g[1L<<40];\n\
               kernel void k(global int *p) { local long a[1L<<40]; p[0] = a[0]; }\n\
               constant char max32[4294967295] = {1};\n\
               constant char over32[4294967296] = {1};\n\
               constant char big[0xFFFFFFFFFFFFFFFFUL] = {1};\n\
               constant int nest[1<<20][1<<20] = {{1}};\n\
               struct S { int a[1<<30]; int b[1<<30]; };\n\
               constant char over61[1L<<61] = {1};\n\
               constant char max61[(1L<<61)-1] = {1};\n";
    let errors = |triple: &str| -> Vec<String> {
        let r = oclc(
            &["check", "-cl-std=CL2.0", "-triple", triple, "-"],
            src.as_bytes(),
        );
        r.stderr
            .lines()
            .filter(|l| l.contains("error:"))
            .map(String::from)
            .collect()
    };
    let e = |l: u32, c: u32, n: &str| {
        format!("<stdin>:{l}:{c}: error: array is too large ({n} elements)")
    };
    // spir: size_t is 32 bits, so an object has fewer than 2^32 bytes.
    assert_eq!(
        errors("spir-unknown-unknown"),
        [
            e(1, 16, "9223372036854775807"),
            e(2, 14, "1099511627776"),
            e(3, 45, "1099511627776"),
            e(5, 22, "4294967296"),
            e(6, 19, "18446744073709551615"),
            e(7, 19, "1048576"),
            e(8, 18, "1073741824"),
            e(8, 32, "1073741824"),
            e(9, 22, "2305843009213693952"),
            e(10, 21, "2305843009213693951"),
        ]
    );
    // spir64: clang's limit is 61 bits.
    assert_eq!(
        errors("spir64-unknown-unknown"),
        [
            e(1, 16, "9223372036854775807"),
            e(6, 19, "18446744073709551615"),
            e(9, 22, "2305843009213693952"),
        ]
    );
    // Fields each small enough can add up to too much.
    let r = oclc(
        &["check", "-"],
        b"struct S { char a[1u<<31]; char b[1u<<31]; };\n",
    );
    assert_eq!(
        r.stderr.lines().next(),
        Some(
            "<stdin>:1:8: error: structure 'S' is too large, which exceeds maximum allowed \
             size of 4294967295 bytes"
        )
    );
}

// ---- source bytes that are not UTF-8 (row 10) ---------------------------------------------

#[test]
fn invalid_utf8_stays_bytes() {
    // A raw 0xFF in a string literal is one byte, as in clang; columns after it count bytes.
    let r = oclc(
        &["check", "-"],
        b"constant char s[] = \"\xff\"; constant int z = ;\n",
    );
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines[0],
        "<stdin>:1:22: warning: illegal character encoding in string literal \
         [-Winvalid-source-encoding]"
    );
    assert_eq!(
        lines[1],
        "    1 | constant char s[] = \"<FF>\"; constant int z = ;"
    );
    assert_eq!(lines[2], "      |                      ^");
    assert_eq!(lines[3], "<stdin>:1:43: error: expected expression");
    // The caret under the `;`: `<FF>` takes four columns of the snippet.
    assert_eq!(lines[5], format!("      | {}^", " ".repeat(45)));
    // Through `oclc run`: sizeof(s) == 2 and s[0] == (char)0xff.
    let dir = temp_dir("utf8");
    write(
        &dir,
        "k.cl",
        b"kernel void k(global int *out) {\n\
          constant char s[] = \"\xff\";\n\
          out[0] = sizeof(s); out[1] = s[0]; out[2] = '\xfe';\n\
          out[3] = sizeof(\"a\xff\xfe\\n\xfd\");\n}\n",
    );
    let job = write(
        &dir,
        "k.toml",
        b"source = \"k.cl\"\nkernel = \"k\"\noptions = \"-w\"\nglobal = [1]\n[args]\n\
          out = { buffer = \"int\", len = 4 }\n[expect]\nout = { equals = [2, -1, -2, 6] }\n",
    );
    let r = oclc(&["run", &job], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("expect out: ok"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
