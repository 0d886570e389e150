//! Glue of the tests that run C host programs (`tests/c/*.c`) against this profile's library.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `target/<profile>`: the directory of this test's executable's `deps`.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

/// The ICD library of this profile, built once (a no-op when up to date).
pub fn library() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = target_dir();
            let mut cmd = Command::new(env!("CARGO"));
            cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
                .args(["build", "-q", "-p", "oclc-icd", "--lib"]);
            if dir.file_name().is_some_and(|n| n == "release") {
                cmd.arg("--release");
            }
            assert!(
                cmd.status().expect("cargo runs").success(),
                "cargo build failed"
            );
            dir.join("liboclc_icd.so")
        })
        .clone()
}

/// `tests/c/NAME.c` compiled; `None` (skipped) without a C compiler or headers.
pub fn compile(name: &str) -> Option<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
    let out = std::env::temp_dir().join(format!("oclc-icd-{name}-{}", std::process::id()));
    let r = Command::new("cc")
        .arg("-O1")
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .arg("-ldl")
        .output();
    let why = match r {
        Ok(o) if o.status.success() => return Some(out),
        Ok(o) => format!(
            "cannot compile {} (apt-get install ocl-icd-opencl-dev): {}",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ),
        Err(e) => format!("no C compiler (cc): {e}"),
    };
    if std::env::var("OCLC_REQUIRE_CONFORMANCE").is_ok_and(|v| v == "1") {
        panic!("{why} (OCLC_REQUIRE_CONFORMANCE=1; .ci/run installs it)");
    }
    eprintln!("skipped: {why}");
    None
}
