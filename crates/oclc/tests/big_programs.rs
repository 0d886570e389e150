//! The `oclc` binary on generated programs that used to exhaust memory in the inliner (a
//! chain of one-line helpers: 1.5 GB for 2 000, over 16 GB for 10 000) or would inline to
//! 2^40 copies (a diamond call graph): `oclc run` at the default level and `-O0`, and
//! `oclc build --emit ir|ptx`, finish with the right values.

use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("oclc-big-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn oclc(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("oclc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `int fN(int x){return fN+1(x)+1;}` for N < n - 1; the last returns x.
fn chain(n: usize) -> String {
    let mut s = format!("int f{}(int x){{return x;}}\n", n - 1);
    for i in (0..n - 1).rev() {
        s += &format!("int f{i}(int x){{return f{}(x)+1;}}\n", i + 1);
    }
    s + "kernel void k(global int *o){ o[0] = f0(o[0]); }\n"
}

/// Each level calls the next twice, on one branch or the other.
fn diamond(n: usize) -> String {
    let mut s = format!("uint f{n}(uint x) {{ return x; }}\n");
    for i in (0..n).rev() {
        s += &format!(
            "uint f{i}(uint x) {{ if (x & 1u) return f{j}(x * 3u + 1u); return f{j}(x >> 1) + 1u; }}\n",
            j = i + 1
        );
    }
    s + "kernel void k(global uint *o) { o[0] = f0(o[0]); }\n"
}

fn check_program(tag: &str, src: &str, ty: &str, init: u32, want: u32) {
    let dir = TempDir::new(tag);
    std::fs::write(dir.0.join("k.cl"), src).expect("writes");
    std::fs::write(
        dir.0.join("job.toml"),
        format!(
            "source = \"k.cl\"\nkernel = \"k\"\nglobal = [1]\n[args]\n\
             o = {{ buffer = \"{ty}\", len = 1, init = [{init}] }}\n[expect]\no = {{ equals = [{want}] }}\n"
        ),
    )
    .expect("writes");
    for level in [None, Some("-O0")] {
        let mut args = vec!["run"];
        args.extend(level);
        args.push("job.toml");
        let (code, out, err) = oclc(&args, &dir.0);
        assert_eq!(
            (code, out.as_str()),
            (0, "expect o: ok (1 elements)\n"),
            "{tag} {level:?}: {err}"
        );
    }
    for emit in ["ir", "ptx"] {
        let (code, out, err) = oclc(&["build", "--emit", emit, "k.cl"], &dir.0);
        assert_eq!(code, 0, "{tag} --emit {emit}: {err}");
        assert!(out.contains("k"), "{tag} --emit {emit}");
    }
}

#[test]
fn chains_of_2000_and_10000_helpers_run_and_build() {
    for n in [2000, 10_000] {
        check_program(&format!("chain{n}"), &chain(n), "int", 5, 5 + n as u32 - 1);
    }
}

#[test]
fn a_diamond_of_40_levels_runs_and_builds() {
    // 5 -> 29 through 40 levels (see diamond()).
    check_program("diamond40", &diamond(40), "uint", 5, 29);
}
