//! Where the conformance corpora live (`../shared/conformance` beside the repository, or
//! `OCLC_CONFORMANCE_DIR`), and what a test does when they are absent: a fresh clone skips
//! with one line; CI (`OCLC_REQUIRE_CONFORMANCE=1`) fails. Included by path from test crates.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The conformance root, whether or not it exists.
pub fn root() -> PathBuf {
    match std::env::var_os("OCLC_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance"),
    }
}

/// Whether a missing corpus must fail the test rather than skip it.
pub fn required() -> bool {
    std::env::var("OCLC_REQUIRE_CONFORMANCE").is_ok_and(|v| v == "1")
}

/// `root()/sub` if it exists; else one "skipping" line for `test` (or a panic when
/// [`required`]).
pub fn dir(sub: &str, test: &str) -> Option<PathBuf> {
    let d = root().join(sub);
    if d.exists() {
        return Some(d);
    }
    missing(&d, test);
    None
}

/// Reports a corpus that is not there: a panic when [`required`], else one line on stderr.
pub fn missing(path: &Path, test: &str) {
    if required() {
        panic!(
            "{test}: {} not found, and OCLC_REQUIRE_CONFORMANCE=1",
            path.display()
        );
    }
    // Written to the stream itself, not through `eprintln!`, which the test harness captures:
    // the one line must show in a plain `cargo test`.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipping {test}: {} not found (the conformance corpora live in ../shared; \
         OCLC_REQUIRE_CONFORMANCE=1 makes this a failure)",
        path.display()
    );
}
