//! Launch, memory and thread limits (issue 12): ND-ranges checked without wrapping, any group
//! count run lazily, allocations that fail as errors rather than aborts, `__local`,
//! `__constant` and program-scope memory held to the device's limits, `--threads` capped, and
//! one host copy per run-file buffer.

use oclc::{BuildError, Device, Error, KernelArg, NdRange, Program};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn device() -> Device {
    Device::cpu().with_printf_echo(false)
}

fn launch_error(p: &Program, d: &Device, args: &[KernelArg], range: &NdRange) -> Error {
    let mut k = p.kernel("k").expect("kernel");
    for (i, a) in args.iter().enumerate() {
        k.set_arg(i, a.clone()).expect("arg");
    }
    d.launch(&k, range).expect_err("the launch fails")
}

#[test]
fn nd_range_products_that_wrap_are_errors() {
    let p = Program::build(
        "kernel void k(global int *a) { a[0] = 1; }",
        "-cl-std=CL2.0",
    )
    .expect("builds");
    let d = device();
    let a = KernelArg::Buffer(d.buffer::<i32>(1).expect("buffer"));
    let big = 1u64 << 32;
    let e = launch_error(
        &p,
        &d,
        std::slice::from_ref(&a),
        &NdRange::new(&[big, big, big]),
    );
    assert_eq!(
        e.to_string(),
        "launch failed: invalid ND-range: global: 4294967296 x 4294967296 x 4294967296 \
         work-items are more than size_t counts (2^64 - 1)"
    );
    let r = NdRange::new(&[big, big / 2, 1]).local(&[big, big, 1]);
    let e = launch_error(&p, &d, std::slice::from_ref(&a), &r);
    assert_eq!(
        e.to_string(),
        "launch failed: invalid ND-range: local: 4294967296 x 4294967296 x 1 work-items per \
         work-group, more than the cpu device's 1024 (CL_DEVICE_MAX_WORK_GROUP_SIZE)"
    );
    // Beyond what the cpu device runs in one launch (2^31 work-items by default).
    let e = launch_error(&p, &d, std::slice::from_ref(&a), &NdRange::new(&[1 << 40]));
    assert_eq!(
        e.to_string(),
        "launch failed: invalid ND-range: global: 1099511627776 work-items are more than the \
         cpu device runs in one launch, 2147483648 (OCLC_MAX_WORK_ITEMS sets it)"
    );
    let r = NdRange::new(&[4]).offset(&[u64::MAX - 2]);
    let e = launch_error(&p, &d, &[a], &r);
    assert!(
        e.to_string().starts_with(
            "launch failed: invalid ND-range: offset: offset 18446744073709551613 + global size 4"
        ),
        "{e}"
    );
}

#[test]
fn huge_group_counts_run_lazily_and_stop_at_the_first_fault() {
    // One result slot per group used to be allocated up front: 2^32 groups aborted, 2^40
    // asked for 400 GB. Now the groups before the fault run and the rest never start.
    let p = Program::build(
        "kernel void k(global int *a, ulong bad) {
             if (get_group_id(0) == bad) a[-1] = 1;
         }",
        "-cl-std=CL2.0",
    )
    .expect("builds");
    let d = device().with_threads(2).with_max_work_items(u64::MAX);
    let a = KernelArg::Buffer(d.buffer::<i32>(1).expect("buffer"));
    for (global, bad) in [(1u64 << 32, 5u64), (1 << 40, 0), (u64::MAX, 3)] {
        let r = NdRange::new(&[global]).local(&[1]);
        match launch_error(&p, &d, &[a.clone(), KernelArg::from(bad)], &r) {
            Error::Runtime(f) => assert_eq!(f.group_id, [bad, 0, 0], "{global}"),
            e => panic!("{global}: {e:?}"),
        }
    }
    // Three dimensions of 2^21 groups each: 2^63 groups; the fault is the first in order.
    let p3 = Program::build(
        "kernel void k(global int *a, ulong bad) {
             if (get_group_id(2) == 0 && get_group_id(1) == 1 && get_group_id(0) == bad) a[-1] = 1;
         }",
        "-cl-std=CL2.0",
    )
    .expect("builds");
    let n = 1u64 << 21;
    let r = NdRange::new(&[n, n, n]).local(&[1, 1, 1]);
    match launch_error(&p3, &d, &[a, KernelArg::from(2u64)], &r) {
        Error::Runtime(f) => assert_eq!(f.group_id, [2, 1, 0]),
        e => panic!("{e:?}"),
    }
}

#[test]
fn printf_output_keeps_group_order_across_lazy_workers() {
    let p = Program::build(
        "kernel void k(global int *a) {
             if (get_group_id(0) % 50 == 7) printf(\"g%d\\n\", (int)get_group_id(0));
         }",
        "",
    )
    .expect("builds");
    let d = device().with_threads(2);
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, d.buffer::<i32>(1).expect("buffer"))
        .expect("a");
    let out = d
        .launch(&k, &NdRange::new(&[1000]).local(&[1]))
        .expect("launch");
    let want: String = (0..1000)
        .filter(|g| g % 50 == 7)
        .map(|g| format!("g{g}\n"))
        .collect();
    assert_eq!(out.printf, want);
}

#[test]
fn buffers_beyond_the_device_are_errors_not_aborts() {
    let d = device();
    let e = d.buffer::<u8>(usize::MAX / 2).expect_err("too large");
    assert!(matches!(e, Error::Memory(_)), "{e:?}");
    let e = e.to_string();
    assert!(
        e.starts_with(&format!(
            "device memory: a buffer of {} bytes is larger than the cpu device's largest \
             allocation, ",
            usize::MAX / 2
        )),
        "{e}"
    );
    assert!(
        e.ends_with(" bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE; OCLC_MAX_ALLOC_SIZE sets it)"),
        "{e}"
    );
    // 32 TiB: beyond the 1 TiB the cpu device's pointers address, whatever the machine.
    assert!(matches!(d.buffer::<u8>(1 << 45), Err(Error::Memory(_))));
    assert_eq!(
        d.buffer::<f32>(usize::MAX / 2)
            .map(|b| b.len())
            .unwrap_err()
            .to_string(),
        format!(
            "device memory: a buffer of {} elements of 4 bytes is larger than size_t counts",
            usize::MAX / 2
        )
    );
    let small = device().with_max_alloc_size(1024);
    assert_eq!(small.cpu_limits().map(|l| l.max_alloc_size), Some(1024));
    assert_eq!(small.buffer::<u8>(1024).map(|b| b.len()).ok(), Some(1024));
    assert!(matches!(small.buffer::<u8>(1025), Err(Error::Memory(_))));
    assert!(matches!(
        small.buffer_from_slice(&[0u32; 257]),
        Err(Error::Memory(_))
    ));
    let b = small.buffer_from_slice(&[7u32; 256]).expect("1 KiB");
    assert_eq!(b.read::<u32>().expect("read"), vec![7; 256]);
}

#[test]
fn local_memory_is_held_to_the_device_limit() {
    let p = Program::build(
        "kernel void k(global int *out, local float *tmp) {
             local int tile[20000];
             tile[get_local_id(0)] = 1;
             tmp[0] = 2.0f;
             barrier(CLK_LOCAL_MEM_FENCE);
             out[0] = tile[0] + (int)tmp[0];
         }",
        "",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(1).expect("buffer");
    let args = [KernelArg::from(&out), KernelArg::local::<f32>(4)];
    let e = launch_error(&p, &d, &args, &NdRange::new(&[1]));
    assert_eq!(
        e.to_string(),
        "launch failed: kernel `k` needs 80016 bytes of __local memory per work-group \
         (variable `tile`: 80000, argument `tmp`: 16), more than the cpu device's 65536 \
         (CL_DEVICE_LOCAL_MEM_SIZE; OCLC_LOCAL_MEM_SIZE sets it)"
    );
    // A huge `__local` argument is the same error, not an allocation of its size.
    let big = device().with_local_mem_size(1 << 20);
    let args = [
        KernelArg::from(&out),
        KernelArg::local::<f32>(usize::MAX / 2),
    ];
    let e = launch_error(&p, &big, &args, &NdRange::new(&[1])).to_string();
    assert!(
        e.contains("argument `tmp`: 18446744073709551615), more than the cpu device's 1048576"),
        "{e}"
    );
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("out");
    k.set_arg(1, KernelArg::local::<f32>(4)).expect("tmp");
    big.launch(&k, &NdRange::new(&[1])).expect("fits 1 MiB");
    assert_eq!(out.read::<i32>().expect("read"), vec![3]);
}

#[test]
fn constant_memory_is_held_to_the_device_limit() {
    let p = Program::build(
        "constant int bias = 1;
         kernel void k(global int *out, constant int *table) { out[0] = table[0] + bias; }",
        "",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(1).expect("buffer");
    let table = d.buffer_from_slice(&[5i32; 32768]).expect("128 KiB");
    let args = [KernelArg::from(&out), KernelArg::from(&table)];
    let e = launch_error(&p, &d, &args, &NdRange::new(&[1]));
    assert_eq!(
        e.to_string(),
        "launch failed: kernel `k` needs 131076 bytes of __constant memory (program-scope \
         constants: 4, argument `table`: 131072), more than the cpu device's 65536 \
         (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE; OCLC_CONSTANT_MEM_SIZE sets it)"
    );
    let big = device().with_constant_mem_size(1 << 20);
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out)
        .expect("out")
        .set_arg(1, &table)
        .expect("table");
    big.launch(&k, &NdRange::new(&[1])).expect("fits 1 MiB");
    assert_eq!(out.read::<i32>().expect("read"), vec![6]);
}

#[test]
fn program_scope_variables_beyond_the_limit_fail_the_build() {
    let e = Program::build(
        "global int g[1 << 29];
         kernel void k(global int *out) { g[get_global_id(0)] = 1; out[0] = g[3]; }",
        "-cl-std=CL2.0",
    )
    .expect_err("2 GiB variable");
    assert!(matches!(e, BuildError::Device(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "program-scope variable `g` of 2147483648 bytes is larger than the cpu device's largest \
         program-scope variable, 1073741824 bytes (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE; \
         OCLC_MAX_GLOBAL_VARIABLE_SIZE sets it)"
    );
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oclc-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `oclc ARGS` with extra environment variables; `prefix` (e.g. `prlimit --as=N`) runs
/// it under another command.
fn oclc(prefix: &[&str], args: &[&str], env: &[(&str, &str)]) -> Output {
    let bin = env!("CARGO_BIN_EXE_oclc");
    let mut cmd = match prefix.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    cmd.args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("oclc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write_job(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).expect("job written");
    path.display().to_string()
}

#[test]
fn run_file_nd_ranges_that_wrap_are_errors_at_their_position() {
    let dir = scratch("ndrange");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"kernel void k(global int *a) { a[0] = 1; }\"\nkernel = \"k\"\n\
         global = [4294967296, 4294967296, 4294967296]\nlocal = [4294967296, 4294967296, 1]\n\
         options = \"-cl-std=CL2.0\"\n[args]\na = { buffer = \"int\", len = 1 }\n",
    );
    let o = oclc(&[], &["run", &job], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "{job}:3:10: error: global: invalid ND-range: 4294967296 x 4294967296 x 4294967296 \
             work-items are more than size_t counts (2^64 - 1)\n\
             {job}:4:9: error: local: invalid ND-range: 4294967296 x 4294967296 x 1 work-items \
             per work-group, more than the devices allow (1024, CL_DEVICE_MAX_WORK_GROUP_SIZE)\n"
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn init_files_that_are_devices_give_exactly_the_buffer_bytes() {
    let dir = scratch("devices");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"kernel void k(global uchar *a, global uchar *b) { b[0] = a[0] - a[0]; }\"\n\
         kernel = \"k\"\nglobal = [1]\n[args]\n\
         a = { buffer = \"uchar\", len = 64, init = { file = \"/dev/urandom\" } }\n\
         b = { buffer = \"uchar\", len = 64, init = { file = \"/dev/zero\" } }\n\
         [expect]\nb = { equals = { file = \"/dev/zero\" } }\n",
    );
    let o = oclc(&[], &["run", &job], &[]);
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (
            Some(0),
            "expect b: ok (64 elements)\n".into(),
            String::new()
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn threads_beyond_the_cores_are_capped_with_a_note() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let job = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/memcpy.toml");
    let o = oclc(&[], &["run", job, "--threads", "10000"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        format!("oclc: note: --threads 10000 capped at {cores} (available cores)\n")
    );
    assert!(text(&o.stdout).contains("expect from_local: ok"));
}

#[test]
fn local_memory_limit_from_the_environment() {
    let dir = scratch("localenv");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"kernel void k(global int *o, local int *t) { t[0] = 4; o[0] = t[0]; }\"\n\
         kernel = \"k\"\nglobal = [1]\n[args]\no = { buffer = \"int\", len = 1 }\n\
         t = { local = \"int\", len = 100000 }\n[expect]\no = { equals = [4] }\n",
    );
    let o = oclc(&[], &["run", &job], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "oclc: error: launch failed: kernel `k` needs 400000 bytes of __local memory per \
         work-group (argument `t`: 400000), more than the cpu device's 65536 \
         (CL_DEVICE_LOCAL_MEM_SIZE; OCLC_LOCAL_MEM_SIZE sets it)\n"
    );
    let o = oclc(&[], &["run", &job], &[("OCLC_LOCAL_MEM_SIZE", "1M")]);
    assert_eq!(
        (o.status.code(), text(&o.stdout)),
        (Some(0), "expect o: ok (1 elements)\n".into())
    );
    let o = oclc(&[], &["run", &job], &[("OCLC_LOCAL_MEM_SIZE", "lots")]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "oclc: error: invalid device setting: OCLC_LOCAL_MEM_SIZE must be a size in bytes such as 65536, 64K, 512M or \
         2G, not `lots`\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn allocation_failures_under_an_address_space_limit_are_clean_errors() {
    // Eight 128 MiB buffers under a 512 MiB address-space limit: the allocation that does
    // not fit is an error naming it (exit 2), never an abort.
    let dir = scratch("aslimit");
    let params: Vec<String> = (0..8).map(|i| format!("global uchar *b{i}")).collect();
    let args: String = (0..8)
        .map(|i| format!("b{i} = {{ buffer = \"uchar\", len = 134217728 }}\n"))
        .collect();
    let job = write_job(
        &dir,
        "job.toml",
        &format!(
            "code = \"kernel void k({}) {{ }}\"\nkernel = \"k\"\nglobal = [1]\n[args]\n{args}",
            params.join(", ")
        ),
    );
    let o = oclc(&["prlimit", "--as=536870912", "--"], &["run", &job], &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.ends_with(
            ": device memory: cannot allocate a buffer of 134217728 bytes: out of memory\n"
        ) && err.starts_with(&format!("{job}:")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Peak resident memory (VmHWM, in bytes) of a running process.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("a number");
    kib * 1024
}

#[test]
fn each_run_file_buffer_is_held_once() {
    // Two 256 MiB buffers with expectations used to be held four times (initial bytes,
    // device copy, expected bytes, contents read back): 2 GiB. Now about 512 MiB.
    let dir = scratch("rss");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"kernel void k(global ulong *a, global ulong *b, global uint *c) { b[0] = a[0]; }\"\n\
         kernel = \"k\"\nglobal = [1]\n[args]\n\
         a = { buffer = \"ulong\", len = 33554432, init = { fill = 3 } }\n\
         b = { buffer = \"ulong\", len = 33554432, init = { fill = 3 } }\n\
         c = { buffer = \"uint\", len = 40000, init = \"range\" }\n\
         [expect]\na = { equals = { fill = 3 } }\nb = { equals = { fill = 3 } }\n",
    );
    // `--dump c` makes the output larger than a pipe holds: once its first byte arrives,
    // oclc has done all its work and waits, alive, until the rest is read.
    let mut child = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .args(["run", &job, "--dump", "c"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("oclc starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).expect("output");
    let peak = peak_rss(child.id());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).expect("output");
    let status = child.wait().expect("exit");
    let out = text(&[&first[..], &rest].concat());
    assert_eq!(status.code(), Some(0));
    assert!(out.starts_with(
        "expect a: ok (33554432 elements)\nexpect b: ok (33554432 elements)\nc: uint[40000]\n"
    ));
    let buffers = 512u64 << 20;
    assert!(
        peak > buffers && peak < buffers * 3 / 2,
        "peak RSS {peak} bytes for {buffers} bytes of buffers"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn printf_before_a_fault_is_printed_up_to_the_faulting_group() {
    let dir = scratch("printf");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"\"\"kernel void k(global int *a) {\n  int g = get_global_id(0);\n  \
         printf(\"g%d\\\\n\", g);\n  if (g == 2) a[-1] = 1;\n}\"\"\"\n\
         kernel = \"k\"\nglobal = [6]\nlocal = [1]\n[args]\na = { buffer = \"int\", len = 1 }\n",
    );
    let o = oclc(&[], &["run", &job, "--threads", "1"], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "g0\ng1\ng2\n");
    assert!(text(&o.stderr).contains("out-of-bounds write"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_file_that_never_ends_is_an_error() {
    let o = oclc(&[], &["run", "/dev/zero"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "/dev/zero: error: the run file is larger than 67108864 bytes, the limit for run files\n"
    );
}

#[test]
fn private_memory_the_host_cannot_give_is_a_runtime_error() {
    // 256 work-items meeting at a barrier, each with a 64 MB private array, under a 512 MiB
    // address-space limit: the work-item whose array does not fit stops the launch cleanly.
    let dir = scratch("private");
    let job = write_job(
        &dir,
        "job.toml",
        "code = \"\"\"kernel void k(global int *o) {\n  int a[16000000];\n  \
         a[get_local_id(0)] = 1;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  \
         o[get_local_id(0) % 16] = a[get_local_id(0)];\n}\"\"\"\n\
         kernel = \"k\"\nglobal = [256]\nlocal = [256]\n[args]\no = { buffer = \"int\", len = 16 }\n",
    );
    let o = oclc(
        &["prlimit", "--as=536870912", "--"],
        &["run", &job, "--threads", "1"],
        &[],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("error: private memory exhausted: cannot allocate 64000000 bytes"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
