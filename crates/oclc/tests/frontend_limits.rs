//! The front end's limits as the `oclc` binary applies them (issue 12): the source size limit
//! (`OCLC_MAX_SOURCE_BYTES`), `-fbracket-depth=N`, `--target=`, long flat operator and
//! `else if` chains, arrays too large for the target, and source bytes that are not UTF-8.
//! Big inputs are generated here, never checked in.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `oclc ARGS` with `stdin` and the environment variables `env`, killing it after 120 s.
fn oclc_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .args(args)
        .env_remove("OCLC_MAX_SOURCE_BYTES")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("oclc starts");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out_reader = drain(Box::new(child.stdout.take().expect("stdout")));
    let err_reader = drain(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("oclc {args:?} did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned(),
    }
}

fn oclc(args: &[&str], stdin: &[u8]) -> Run {
    oclc_env(args, stdin, &[])
}

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
