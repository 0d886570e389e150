//! `oclc run` on the examples in examples/ and `oclc build`: every example passes, with and
//! without the IR passes and with identical buffers; the seed memcpy fails to build under
//! CL1.2 with clang's message; `--dump`, `--save`, `--repeat`, `--device` and errors.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn oclc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-run-examples-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

const EXAMPLES: &[(&str, &[&str])] = &[
    ("memcpy", &["from_global", "from_local"]),
    ("matmul", &["c"]),
    ("reduce", &["partial"]),
    ("histogram", &["hist"]),
];

#[test]
fn every_example_passes_with_and_without_the_passes() {
    for (name, expected) in EXAMPLES {
        let job = format!("examples/{name}.toml");
        let opt_dir = temp_dir(&format!("{name}-opt"));
        let o0_dir = temp_dir(&format!("{name}-o0"));
        let opt_s = opt_dir.to_string_lossy().into_owned();
        let o0_s = o0_dir.to_string_lossy().into_owned();
        let (code, out, err) = oclc(&["run", &job, "--save", &opt_s]);
        assert_eq!(code, 0, "{name}: {out}\n{err}");
        for e in *expected {
            assert!(out.contains(&format!("expect {e}: ok (")), "{name}: {out}");
        }
        let (code, out0, err) = oclc(&["run", &job, "-O0", "--save", &o0_s]);
        assert_eq!(code, 0, "{name} -O0: {out0}\n{err}");
        assert_eq!(out, out0, "{name}: -O0 reports differ");
        let mut files: Vec<_> = std::fs::read_dir(&opt_dir)
            .expect("saved")
            .map(|e| e.expect("entry").file_name())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{name}: --save wrote nothing");
        for f in &files {
            let a = std::fs::read(opt_dir.join(f)).expect("read");
            let b = std::fs::read(o0_dir.join(f)).expect("read -O0");
            assert!(a == b, "{name}: {f:?} differs between default and -O0");
        }
        let _ = std::fs::remove_dir_all(&opt_dir);
        let _ = std::fs::remove_dir_all(&o0_dir);
    }
}

#[test]
fn memcpy_under_cl12_exits_2_with_clangs_message() {
    let dir = temp_dir("memcpy12");
    let job = std::fs::read_to_string(root().join("examples/memcpy.toml")).expect("memcpy.toml");
    let src = root().join("examples/memcpy.cl");
    let job = job
        .replace("-cl-std=CL2.0", "-cl-std=CL1.2")
        .replace("\"memcpy.cl\"", &format!("{:?}", src.to_string_lossy()));
    let path = dir.join("memcpy12.toml");
    std::fs::write(&path, job).expect("write");
    let (code, out, err) = oclc(&["run", &path.to_string_lossy()]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(out.is_empty(), "nothing ran, nothing reported: {out}");
    assert!(
        err.contains("memcpy.cl:22:26: error: passing '__global unsigned char *__private' to parameter of type '__private unsigned char *' changes address space of pointer"),
        "{err}"
    );
    // clang-19 reports the first bad argument of each of the two calls.
    assert!(err.contains("2 errors generated."), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeat_prints_the_kernel_time() {
    let (code, out, err) = oclc(&[
        "run",
        "examples/reduce.toml",
        "--repeat",
        "3",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().last().unwrap_or("");
    assert!(
        line.starts_with("kernel time: min ") && line.ends_with(" us over 3 launches"),
        "{out}"
    );
    assert!(out.contains("expect partial: ok (64 elements)"), "{out}");
}

#[test]
fn dump_prints_a_buffer() {
    let (code, out, err) = oclc(&["run", "examples/reduce.toml", "--dump", "partial"]);
    assert_eq!(code, 0, "{err}");
    // Group 0 sums 0..16383.
    assert!(out.contains("134209536"), "{out}");
    assert!(out.contains("partial"), "{out}");
    let (code, _, err) = oclc(&["run", "examples/reduce.toml", "--dump", "nothing"]);
    assert_eq!(code, 2);
    assert!(err.contains("no buffer argument named 'nothing'"), "{err}");
}

#[test]
fn failing_expectation_exits_1() {
    let dir = temp_dir("fail");
    let path = dir.join("fail.toml");
    std::fs::write(
        &path,
        r#"
code = "kernel void k(global uint *o) { o[get_global_id(0)] = get_global_id(0) * 2; }"
kernel = "k"
global = [8]
[args]
o = { buffer = "uint", len = 8 }
[expect]
o = { equals = "range" }
"#,
    )
    .expect("write");
    let (code, out, _) = oclc(&["run", &path.to_string_lossy()]);
    assert_eq!(code, 1);
    assert_eq!(
        out.trim(),
        "expect o: FAIL, 7 of 8 differ; first at [1]: got 2, want 1"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rejected_run_files_and_devices_exit_2() {
    let dir = temp_dir("bad");
    let path = dir.join("bad.toml");
    std::fs::write(
        &path,
        r#"
code = "kernel void k(global uint *o, uint n) { o[0] = n; }"
kernel = "k"
global = [1]
[args]
o = { buffer = "float", len = 1 }
n = { value = 1 }
extra = { value = 2 }
"#,
    )
    .expect("write");
    let p = path.to_string_lossy().into_owned();
    let (code, _, err) = oclc(&["run", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("args.o.buffer"), "{err}");
    assert!(
        err.contains("args.extra: kernel 'k' has no parameter named 'extra'"),
        "{err}"
    );
    let (code, _, err) = oclc(&["run", "examples/reduce.toml", "--device", "gpu"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown device 'gpu'"), "{err}");
    std::fs::write(
        &path,
        "code = \"kernel void k(global int *o) { o[0] = 1; }\"\nkernel = \"q\"\nglobal = [1]\n[args]\n",
    )
    .expect("write");
    let (code, _, err) = oclc(&["run", &p]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no kernel named 'q' in the program (kernels: k)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_emits_ir_after_the_passes_or_before_with_o0() {
    let (code, ir, err) = oclc(&[
        "build",
        "--emit",
        "ir",
        "-cl-std=CL2.0",
        "examples/memcpy.cl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(ir.contains("copy"), "{ir}");
    let (code, ir0, err) = oclc(&[
        "build",
        "--emit=ir",
        "-cl-std=CL2.0",
        "-O0",
        "examples/memcpy.cl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(ir, ir0, "-O0 must skip the passes");
    assert!(ir0.contains("GenericXToY_internal"), "{ir0}");
    let (code, _, err) = oclc(&[
        "build",
        "--emit",
        "ir",
        "-cl-std=CL1.2",
        "examples/memcpy.cl",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("changes address space of pointer"), "{err}");
    let (code, ptx, err) = oclc(&[
        "build",
        "--emit",
        "ptx",
        "-cl-std=CL2.0",
        "examples/memcpy.cl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        ptx.contains(".target sm_80") && ptx.contains(".entry copy("),
        "{ptx}"
    );
    let (code, ptx, err) = oclc(&[
        "build",
        "--emit=ptx",
        "--target=sm_90",
        "examples/matmul.cl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        ptx.contains(".target sm_90") && ptx.contains(".entry matmul("),
        "{ptx}"
    );
    let (code, _, err) = oclc(&["build", "--emit", "asm", "examples/memcpy.cl"]);
    assert_eq!(code, 1);
    assert!(err.contains("invalid value 'asm' in '--emit'"), "{err}");
}
