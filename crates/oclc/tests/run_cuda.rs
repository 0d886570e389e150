//! `oclc run --device cuda`: without the cargo feature `cuda` a clear error (exit 2); with it,
//! every example gives the same report as on the cpu device, a GPU fault exits 3, and the
//! cpu-only flags are refused. GPU tests skip, saying why, when no driver or GPU is present.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    // OCLC_ROOT: the repository on a GPU machine that runs a prebuilt copy of this test.
    match std::env::var_os("OCLC_ROOT") {
        Some(r) => PathBuf::from(r),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

fn oclc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(
        std::env::var_os("OCLC_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_oclc").into()),
    )
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

#[test]
fn cpu_only_flags_are_refused_on_the_cuda_device() {
    for flag in [
        &["--races"][..],
        &["--threads", "2"],
        &["--max-steps", "10"],
    ] {
        let mut args = vec!["run", "examples/reduce.toml", "--device", "cuda"];
        args.extend_from_slice(flag);
        let (code, out, err) = oclc(&args);
        assert_eq!(code, 2, "{flag:?}: {out}{err}");
        assert!(
            err.contains(&format!("{} applies to the cpu device only", flag[0])),
            "{err}"
        );
    }
}

#[cfg(not(feature = "cuda"))]
#[test]
fn without_the_feature_the_cuda_device_is_a_clear_error() {
    let (code, out, err) = oclc(&["run", "examples/reduce.toml", "--device", "cuda"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "oclc: error: device not available: cuda device 0: oclc was built without CUDA support; \
         rebuild with --features cuda\n"
    );
}

/// Whether GPU 0 can be used; prints why not when it cannot.
#[cfg(feature = "cuda")]
fn gpu() -> bool {
    match oclc::Device::cuda(0) {
        Ok(_) => true,
        Err(e) => {
            println!("skipped: no usable GPU ({e})");
            false
        }
    }
}

#[cfg(feature = "cuda")]
#[test]
fn without_a_driver_the_cuda_device_is_a_clear_error() {
    if gpu() {
        return;
    }
    let (code, out, err) = oclc(&["run", "examples/reduce.toml", "--device", "cuda"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.starts_with("oclc: error: device not available: cuda device 0: "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[cfg(feature = "cuda")]
#[test]
fn every_example_reports_the_same_on_the_gpu_as_on_the_cpu() {
    if !gpu() {
        return;
    }
    for name in ["memcpy", "matmul", "reduce", "histogram"] {
        let job = format!("examples/{name}.toml");
        let (code, cpu, err) = oclc(&["run", &job, "--device", "cpu"]);
        assert_eq!(code, 0, "{name} on the cpu: {cpu}{err}");
        let (code, gpu, err) = oclc(&["run", &job, "--device", "cuda"]);
        assert_eq!(code, 0, "{name} on the gpu: {gpu}{err}");
        assert_eq!(gpu, cpu, "{name}: reports differ");
        assert!(gpu.contains(": ok ("), "{name}: {gpu}");
    }
}

#[cfg(feature = "cuda")]
#[test]
fn repeat_reports_event_times_and_the_dump_matches_the_cpu() {
    if !gpu() {
        return;
    }
    let (code, out, err) = oclc(&[
        "run",
        "examples/reduce.toml",
        "--device",
        "cuda",
        "--repeat",
        "5",
        "--dump",
        "partial",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" over 5 launches\n"), "{out}");
    let (_, cpu, _) = oclc(&["run", "examples/reduce.toml", "--dump", "partial"]);
    let dump = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("kernel time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(dump(&out), dump(&cpu));
}

#[cfg(feature = "cuda")]
#[test]
fn a_gpu_fault_exits_3_with_an_error() {
    if !gpu() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("oclc-run-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("fault.toml");
    std::fs::write(
        &path,
        r#"
code = "kernel void k(global int *o, ulong far) { o[far] = 1; }"
kernel = "k"
global = [1]
[args]
o = { buffer = "int", len = 1 }
far = { value = 0x100000000000 }
"#,
    )
    .expect("write");
    let p = path.to_string_lossy().into_owned();
    let (code, out, err) = oclc(&["run", &p, "--device", "cuda"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.starts_with("oclc: error: kernel 'k' faulted on cuda device 0: "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kernels that trip each check `--checks` makes on the GPU, as run files (inline code).
#[cfg(feature = "cuda")]
const FAULT_JOBS: [(&str, &str); 5] = [
    (
        "oob",
        "code = \"\"\"\nkernel void k(global int *out, int shift) {\n    size_t i = get_global_id(0);\n    out[i + shift] = 1;\n}\n\"\"\"\nkernel = \"k\"\nglobal = [64]\nlocal = [16]\n[args]\nout = { buffer = \"int\", len = 64 }\nshift = { value = 3 }\n",
    ),
    (
        "null",
        "code = \"\"\"\nkernel void k(global int *out) {\n    global int *p = get_global_id(0) == 9 ? 0 : out;\n    p[get_global_id(0)] = 1;\n}\n\"\"\"\nkernel = \"k\"\nglobal = [32]\nlocal = [8]\n[args]\nout = { buffer = \"int\", len = 32 }\n",
    ),
    (
        "divergent",
        "code = \"\"\"\nkernel void k(global int *out) {\n    if (get_local_id(0) != 3)\n        barrier(CLK_LOCAL_MEM_FENCE);\n    out[get_global_id(0)] = 1;\n}\n\"\"\"\nkernel = \"k\"\nglobal = [32]\nlocal = [8]\n[args]\nout = { buffer = \"int\", len = 32 }\n",
    ),
    (
        "wrong_space",
        "code = \"\"\"\nkernel void k(global int *out) {\n    generic int *g = out + get_global_id(0);\n    local int *l = (local int *)g;\n    *l = 1;\n}\n\"\"\"\noptions = \"-cl-std=CL2.0\"\nkernel = \"k\"\nglobal = [32]\nlocal = [8]\n[args]\nout = { buffer = \"int\", len = 32 }\n",
    ),
    (
        "local_oob",
        "code = \"\"\"\nkernel void k(global int *out) {\n    local float tile[8];\n    tile[get_local_id(0) * 2] = 1.0f;\n    barrier(CLK_LOCAL_MEM_FENCE);\n    out[get_global_id(0)] = (int)tile[0];\n}\n\"\"\"\nkernel = \"k\"\nglobal = [32]\nlocal = [8]\n[args]\nout = { buffer = \"int\", len = 32 }\n",
    ),
];

#[cfg(feature = "cuda")]
#[test]
fn checks_report_gpu_faults_as_the_cpu_device_does() {
    let (code, _, err) = oclc(&[
        "run",
        "examples/reduce.toml",
        "--device",
        "cuda",
        "--checks",
    ]);
    if code == 2 && err.contains("device not available") {
        println!("skipped: no usable GPU ({})", err.trim());
        return;
    }
    assert_eq!(code, 0, "{err}");
    let dir = std::env::temp_dir().join(format!("oclc-gpu-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, job) in FAULT_JOBS {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, job).expect("write run file");
        let p = path.to_str().expect("utf-8 path");
        let cpu = oclc(&["run", p]);
        let gpu = oclc(&["run", p, "--device", "cuda", "--checks"]);
        assert_eq!(cpu.0, 3, "{name}: {}", cpu.2);
        assert_eq!(
            gpu, cpu,
            "{name}: the GPU's report differs from the cpu device's"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
