//! Host programs through the platform: the C example (`examples/host/vadd.c`) compiled with
//! `cc -lOpenCL` and run by `oclc exec`, the PyOpenCL example, and the API validation program
//! (`tests/c/validate.c`) calling the library's dispatch table with bad handles, NULLs and
//! wrong sizes. Each needs system tools (a C compiler, the ICD loader and its headers,
//! PyOpenCL): without them a test says what is missing and skips, or fails when
//! OCLC_REQUIRE_CONFORMANCE=1 (CI installs them in `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `target/<profile>`: the directory of this test's executable's `deps`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

/// Builds the `oclc` binary and the ICD library of this profile (a no-op when up to date);
/// returns the binary's path.
fn oclc_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = target_dir();
            let release = dir.file_name().is_some_and(|n| n == "release");
            let mut cmd = Command::new(env!("CARGO"));
            cmd.current_dir(root()).args([
                "build", "-q", "-p", "oclc", "--bin", "oclc", "-p", "oclc-icd", "--lib",
            ]);
            if release {
                cmd.arg("--release");
            }
            // With the cuda feature (GPU bundle, or testing the no-driver path), the host
            // programs run on a library built with it.
            if cfg!(feature = "cuda") {
                cmd.args(["--features", "cuda"]);
            }
            let st = cmd.status().expect("cargo runs");
            assert!(st.success(), "cargo build of oclc and oclc-icd failed");
            let bin = dir.join("oclc");
            assert!(bin.is_file(), "{} is missing", bin.display());
            assert!(
                dir.join("liboclc_icd.so").is_file(),
                "liboclc_icd.so is missing"
            );
            bin
        })
        .clone()
}

/// Skips (returns false) or, under OCLC_REQUIRE_CONFORMANCE=1, fails with one line.
fn unavailable(what: &str) -> bool {
    if std::env::var("OCLC_REQUIRE_CONFORMANCE").is_ok_and(|v| v == "1") {
        panic!("{what} (OCLC_REQUIRE_CONFORMANCE=1; .ci/run installs it)");
    }
    eprintln!("skipped: {what}");
    false
}

/// Compiles `src` with `cc ... -lOpenCL` (or `extra` libraries) into a temporary file.
fn compile_c(src: &Path, name: &str, libs: &[&str]) -> Option<PathBuf> {
    let out = std::env::temp_dir().join(format!("oclc-icd-test-{}-{name}", std::process::id()));
    let r = Command::new("cc")
        .arg("-O1")
        .arg(src)
        .arg("-o")
        .arg(&out)
        .args(libs)
        .output();
    match r {
        Ok(o) if o.status.success() => Some(out),
        Ok(o) => {
            unavailable(&format!(
                "cannot compile {} (apt-get install ocl-icd-opencl-dev): {}",
                src.display(),
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .next()
                    .unwrap_or("")
            ));
            None
        }
        Err(e) => {
            unavailable(&format!("no C compiler (cc): {e}"));
            None
        }
    }
}

fn exec(args: &[&str]) -> Output {
    Command::new(oclc_binary())
        .arg("exec")
        .arg("--")
        .args(args)
        .current_dir(root().join("examples/host"))
        .output()
        .expect("oclc exec runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn c_vector_add_runs_on_oclc() {
    let Some(bin) = compile_c(&root().join("examples/host/vadd.c"), "vadd", &["-lOpenCL"]) else {
        return;
    };
    let out = exec(&[bin.to_str().expect("utf-8 path")]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("platform: oclc\n"), "{stdout}");
    assert!(stdout.contains("kernel status: 0\n"), "{stdout}");
    assert!(
        stdout.contains("c[1] = 3, c[1023] = 3069, 0 wrong\n"),
        "{stdout}"
    );
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn c_out_of_bounds_is_reported_and_the_host_goes_on() {
    let Some(bin) = compile_c(
        &root().join("examples/host/vadd.c"),
        "vadd-oob",
        &["-lOpenCL"],
    ) else {
        return;
    };
    let out = exec(&[bin.to_str().expect("utf-8 path"), "oob"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    // The event ends with CL_OUT_OF_RESOURCES; the program reads the buffer and exits.
    assert!(stdout.contains("kernel status: -5\n"), "{stdout}");
    assert!(
        stdout.contains("launch failed as expected: yes\nPASS\n"),
        "{stdout}"
    );
    // The same report as `oclc run`: location, source line, caret, work-item.
    let want = "<source>:5:16: error: out-of-bounds read of 4 bytes at offset 4096 of __global buffer `a` (4096 bytes)\n    5 |         c[i] = a[i] + b[i];\n      |                ^~~~\nnote: in the work-item with global id (1024, 0, 0), local id (0, 0, 0), group id (16, 0, 0)\n";
    assert_eq!(stderr, want);
}

#[test]
fn exec_reports_a_missing_program_and_forwards_exit_status() {
    let out = exec(&["/nonexistent/program"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "oclc exec: error: cannot run '/nonexistent/program': No such file or directory (os error 2)\n"
    );
    let out = exec(&["sh", "-c", "exit 7"]);
    assert_eq!(out.status.code(), Some(7));
    // The platform is the only one the loader sees.
    let out = exec(&[
        "sh",
        "-c",
        "cat \"$OCL_ICD_VENDORS\"/*.icd; echo \"${OCL_ICD_FILENAMES-unset}\"",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.trim_end().ends_with("liboclc_icd.so\nunset"),
        "{stdout}"
    );
}

#[test]
fn exec_names_a_wrong_library_path() {
    let out = Command::new(oclc_binary())
        .args(["exec", "--", "true"])
        .env("OCLC_ICD_PATH", "/nonexistent/dir")
        .output()
        .expect("oclc exec runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "oclc exec: error: OCLC_ICD_PATH names /nonexistent/dir, which is not liboclc_icd.so or a directory holding it\n"
    );
}

#[test]
fn api_validation_bad_handles_nulls_sizes_threads() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/validate.c");
    let Some(bin) = compile_c(&src, "validate", &["-ldl", "-lpthread"]) else {
        return;
    };
    oclc_binary();
    let lib = target_dir().join("liboclc_icd.so");
    let out = Command::new(&bin)
        .arg(&lib)
        .output()
        .expect("validate runs");
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.ends_with("checks passed, 0 failed\n"), "{stdout}");
}

/// Runs the validation program in `mode` with the environment `env`.
fn validate_mode(mode: &str, env: &[(&str, &str)]) -> Option<Output> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/validate.c");
    let bin = compile_c(&src, &format!("validate-{mode}"), &["-ldl", "-lpthread"])?;
    oclc_binary();
    let lib = target_dir().join("liboclc_icd.so");
    let out = Command::new(&bin)
        .arg(&lib)
        .arg(mode)
        .env_remove("OCLC_RACES")
        .env_remove("OCLC_MAX_STEPS")
        .envs(env.iter().copied())
        .output()
        .expect("validate runs");
    Some(out)
}

#[test]
fn oclc_max_steps_stops_a_runaway_loop_and_the_host_goes_on() {
    let Some(out) = validate_mode("steps", &[("OCLC_MAX_STEPS", "1000")]) else {
        return;
    };
    assert_eq!(text(&out.stdout), "spin status: -5\n");
    assert_eq!(
        text(&out.stderr),
        "<source>:3:5: error: work-item exceeded the step limit of 1000 (a runaway loop?); raise it with --max-steps\n    3 |     for (int i = 0; i < n; i++) acc += i;\n      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nnote: in the work-item with global id (0, 0, 0), local id (0, 0, 0), group id (0, 0, 0)\n"
    );
    // An invalid value is named, and the default applies (the loop then ends normally).
    let Some(out) = validate_mode("steps", &[("OCLC_MAX_STEPS", "many")]) else {
        return;
    };
    assert_eq!(text(&out.stdout), "spin status: 0\n");
    assert_eq!(
        text(&out.stderr),
        "oclc: OCLC_MAX_STEPS='many' is not a positive integer; using the default 268435456\n"
    );
}

#[test]
fn kernel_attributes_list_hints_and_required_sizes() {
    let Some(out) = validate_mode("attrs", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "a: 'reqd_work_group_size(2,3,1) work_group_size_hint(4,1,1) vec_type_hint(uchar2)' (78)\n\
         b: 'vec_type_hint(double16)' (24)\n\
         c: 'vec_type_hint(ulong3)' (22)\n\
         d: 'vec_type_hint(float)' (21)\n\
         e: '' (1)\n",
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn fine_grained_svm_needs_no_map() {
    let Some(out) = validate_mode("fgsvm", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "caps: coarse 1 fine 1 atomics 0\nalloc: ok, with atomics: NULL\n\
         p[0..6]: 0 1 20 3 40 5, p[62] 620 p[63] 63\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn hi_and_odd_of_a_three_component_vector() {
    let Some(out) = validate_mode("vec3", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "build: 0\nhi.x 12 odd.x 11 lo 10 11 even 10 12; after v.hi = (42, 43): 10 11 42\n",
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn async_work_group_copy_copies_once_per_group() {
    let Some(out) = validate_mode("async", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn use_host_ptr_commands_move_only_the_bytes_they_touch() {
    let Some(out) = validate_mode("hostptr", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "copied: 1 2 3 4, host[100..104]: 1 2 3 4, host[2000]: 0\n\
         page faults fewer than 4096: yes\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn link_keeps_each_inputs_macro_options() {
    let Some(out) = validate_mode("link", &[]) else {
        return;
    };
    assert_eq!(
        text(&out.stdout),
        "kernels: 4 (a;b;c;d)\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn link_finds_headers_deleted_after_compile() {
    let Some(out) = validate_mode("inclink", &[]) else {
        return;
    };
    assert_eq!(text(&out.stdout), "answer: 42\n", "{}", text(&out.stderr));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn oclc_races_reports_a_local_memory_race() {
    let Some(out) = validate_mode("race", &[("OCLC_RACES", "1")]) else {
        return;
    };
    // The report also reaches the context's pfn_notify.
    assert_eq!(text(&out.stdout), "race status: -5\nnotified: 1\n");
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("<source>:3:5: error: data race on __local variable `x` at offset 0: work-item with local linear id 1 writes a byte that work-item with local linear id 0 wrote since the last barrier\n"),
        "{stderr}"
    );
    // Without OCLC_RACES the same launch completes.
    let Some(out) = validate_mode("race", &[]) else {
        return;
    };
    assert_eq!(text(&out.stdout), "race status: 0\nnotified: 0\n");
    assert_eq!(text(&out.stderr), "");
}

/// PyOpenCL, installed with pip when missing; `None` (after skipping or failing) when it
/// cannot be had.
fn pyopencl() -> Option<()> {
    let import = || {
        Command::new("python3")
            .args(["-c", "import pyopencl, numpy"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if import() {
        return Some(());
    }
    let _ = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "pyopencl"])
        .output();
    if import() {
        return Some(());
    }
    unavailable("PyOpenCL is not installed and `python3 -m pip install pyopencl` failed");
    None
}

#[test]
fn pyopencl_script_runs_on_oclc() {
    if pyopencl().is_none() {
        return;
    }
    let out = exec(&["python3", "vadd.py"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(
        stdout,
        "platform: oclc, device: oclc cpu\nvadd: c[1] = 3.0, c[4095] = 12285.0, ok\n\
         sum: [32640, 98176, 163712]..., ok\nPASS\n"
    );
    let out = exec(&["python3", "vadd.py", "oob"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stdout.contains("launch failed as expected: yes (-14)\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("PASS\n"), "{stdout}");
    assert!(
        stderr.starts_with(
            "<source>:22:12: error: out-of-bounds read of 4 bytes at offset 16384 of __global buffer `a` (16384 bytes)\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("note: in the work-item with global id (4095, 0, 0), local id (63, 0, 0), group id (63, 0, 0)\n"),
        "{stderr}"
    );
}
