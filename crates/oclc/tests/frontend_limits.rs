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
