//! More runtime checks of the cpu device (issue 12, rows 7 and 11): misaligned atomics and
//! loads/stores, a dereferenced pointer to another work-item's private memory, and the
//! bounded printf buffer, whose output before a fault is still printed. Each fault names its
//! exact line and column and the work-item; the corrected kernels pass.

use std::path::PathBuf;
use std::process::Command;

use oclc::program::{CheckKind, RuntimeFault};
use oclc::{Device, Error, NdRange, Program};

fn device() -> Device {
    Device::cpu().with_printf_echo(false)
}

/// Builds `src` with `options` and runs kernel `k` over 8 work-items in groups of 4, with an
/// int buffer of 16 elements as its only argument; returns the launch's result and the buffer.
fn launch(src: &str, options: &str) -> (Result<oclc::LaunchOutput, Error>, Vec<i32>) {
    launch_on(&device(), src, options)
}

fn launch_on(
    d: &Device,
    src: &str,
    options: &str,
) -> (Result<oclc::LaunchOutput, Error>, Vec<i32>) {
    let p = Program::build(src, options).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let out = d.buffer::<i32>(16).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    let r = d.launch(&k, &NdRange::new(&[8]).local(&[4]));
    (r, out.read::<i32>().expect("read"))
}

/// The runtime fault of launching `src`; panics if it ran cleanly.
fn fault(src: &str, options: &str) -> RuntimeFault {
    match launch(src, options).0 {
        Err(Error::Runtime(f)) => *f,
        other => panic!("expected a runtime fault, got {other:?}\n{src}"),
    }
}

/// Asserts a fault of `kind` with exactly `message`, at `line:col` of `<source>`, in the
/// work-item with global id `gid` (groups of 4 in one dimension).
fn assert_fault(f: &RuntimeFault, kind: CheckKind, message: &str, line: u32, col: u32, gid: u64) {
    assert_eq!(f.kind, kind, "{}", f.rendered);
    assert_eq!(f.message, message, "{}", f.rendered);
    assert_eq!(
        f.location,
        Some(("<source>".to_string(), line, col)),
        "{}",
        f.rendered
    );
    assert_eq!(f.global_id, [gid, 0, 0]);
    assert_eq!(f.local_id, [gid % 4, 0, 0]);
    assert_eq!(f.group_id, [gid / 4, 0, 0]);
    assert!(
        f.rendered
            .starts_with(&format!("<source>:{line}:{col}: error: {message}")),
        "{}",
        f.rendered
    );
    assert!(
        f.rendered.contains(&format!(
            "in the work-item with global id ({gid}, 0, 0), local id ({}, 0, 0), group id ({}, 0, 0)",
            gid % 4,
            gid / 4
        )),
        "{}",
        f.rendered
    );
}

/// A kernel whose work-item 5 runs `stmt` with `p` = the buffer's start plus `off` bytes
/// (as `global T *`), on line 4 at column 9.
fn at_offset(ty: &str, off: u32, stmt: &str) -> String {
    format!(
        "kernel void k(global int *c) {{\n    global {ty} *p = (global {ty} *)((global char *)c + {off});\n    if (get_global_id(0) == 5)\n        {stmt};\n}}\n"
    )
}

#[test]
fn misaligned_atomics_of_every_form() {
    let cases: &[(&str, &str, u32, &str, u32)] = &[
        ("int", "atomic_add(p, 1)", 2, "atomic operation", 4),
        ("int", "atomic_inc(p)", 6, "atomic operation", 4),
        ("int", "atomic_cmpxchg(p, 0, 1)", 1, "atomic operation", 4),
        ("uint", "atom_xchg(p, 1u)", 3, "atomic operation", 4),
        ("long", "atom_add(p, 1L)", 4, "atomic operation", 8),
        (
            "atomic_int",
            "atomic_fetch_add(p, 1)",
            2,
            "atomic operation",
            4,
        ),
        (
            "atomic_int",
            "atomic_exchange(p, 1)",
            2,
            "atomic operation",
            4,
        ),
        ("atomic_int", "atomic_load(p)", 2, "atomic load", 4),
        ("atomic_int", "atomic_store(p, 1)", 2, "atomic store", 4),
    ];
    let opts = "-cl-std=CL2.0 -cl-ext=+cl_khr_int64_base_atomics";
    for (ty, stmt, off, what, n) in cases {
        let src = at_offset(ty, *off, stmt);
        let f = fault(&src, opts);
        let msg = format!(
            "misaligned {what} of {n} bytes at offset {off} of __global buffer `c` (requires {n}-byte alignment)"
        );
        assert_fault(&f, CheckKind::Misaligned, &msg, 4, 9, 5);
        // Aligned, the same operation runs.
        let ok = at_offset(ty, 8, stmt);
        assert!(launch(&ok, opts).0.is_ok(), "{ok}");
    }
    // compare-exchange (C11) on local memory.
    let src = "kernel void k(global int *c) {
    local int tile[4];
    local atomic_int *a = (local atomic_int *)((local char *)tile + 2);
    int want = 0;
    if (get_local_id(0) == 2)
        atomic_compare_exchange_strong(a, &want, 1);
}
";
    let f = fault(src, "-cl-std=CL2.0");
    assert_fault(
        &f,
        CheckKind::Misaligned,
        "misaligned atomic operation of 4 bytes at offset 2 of __local variable `tile` (requires 4-byte alignment)",
        6,
        9,
        2,
    );
}

#[test]
fn misaligned_vector_and_scalar_accesses() {
    let v = |stmt: &str| {
        format!(
            "kernel void k(global int *c) {{\n    global float *f = (global float *)c;\n    if (get_global_id(0) == 6)\n        {stmt};\n}}\n"
        )
    };
    let f = fault(&v("*(global float4 *)(f + 1) = (float4)(1.0f)"), "");
    assert_fault(
        &f,
        CheckKind::Misaligned,
        "misaligned write of 16 bytes at offset 4 of __global buffer `c` (a 4-element vector requires 16-byte alignment; vload4/vstore4 need only element alignment)",
        4,
        9,
        6,
    );
    let f = fault(&v("c[0] = (int)((*(global float4 *)(f + 2)).x)"), "");
    assert_eq!(
        f.message,
        "misaligned read of 16 bytes at offset 8 of __global buffer `c` (a 4-element vector requires 16-byte alignment; vload4/vstore4 need only element alignment)"
    );
    // The cast's operand is the parenthesized expression `((*...).x)` (issue 13: C's
    // cast-expression), so the read is located at its `(`.
    assert_eq!(f.location, Some(("<source>".to_string(), 4, 21)));
    // A 3-vector is aligned as a 4-vector but touches 12 bytes.
    let f = fault(&v("*(global float3 *)(f + 4 + 1) = (float3)(1.0f)"), "");
    assert_eq!(
        f.message,
        "misaligned write of 12 bytes at offset 20 of __global buffer `c` (a 3-element vector requires 16-byte alignment; vload3/vstore3 need only element alignment)"
    );
    // vloadn/vstoren need element alignment only; aligned vector accesses are fine.
    let (r, out) = launch(
        &v(
            "vstore4(vload4(0, f + 5) + (float4)(1.0f), 0, f + 1); *(global float4 *)(f + 8) = (float4)(2.0f)",
        ),
        "",
    );
    r.expect("element-aligned vload/vstore");
    assert_eq!(out[1], 1.0f32.to_bits() as i32);
    assert_eq!(out[8], 2.0f32.to_bits() as i32);

    // Scalars: an int at an odd offset, a long at offset 4, a short at offset 1.
    let f = fault(&at_offset("int", 2, "c[1] = *p"), "");
    assert_fault(
        &f,
        CheckKind::Misaligned,
        "misaligned read of 4 bytes at offset 2 of __global buffer `c` (requires 4-byte alignment)",
        4,
        16,
        5,
    );
    let f = fault(&at_offset("long", 4, "*p = 1"), "");
    assert_fault(
        &f,
        CheckKind::Misaligned,
        "misaligned write of 8 bytes at offset 4 of __global buffer `c` (requires 8-byte alignment)",
        4,
        9,
        5,
    );
    let f = fault(&at_offset("short", 1, "*p = 1"), "");
    assert_eq!(
        f.message,
        "misaligned write of 2 bytes at offset 1 of __global buffer `c` (requires 2-byte alignment)"
    );
    // Private memory; chars anywhere are fine.
    let src = "kernel void k(global int *c) {
    char buf[16];
    for (int i = 0; i < 16; i++) buf[i] = (char)i;
    c[get_global_id(0)] = buf[3] + buf[5];
    if (get_global_id(0) == 7)
        c[0] = *(int *)(buf + 1);
}
";
    let f = fault(src, "");
    assert_fault(
        &f,
        CheckKind::Misaligned,
        "misaligned read of 4 bytes at offset 1 of __private variable `buf` (requires 4-byte alignment)",
        6,
        16,
        7,
    );
    // An out-of-bounds misaligned access reports the bounds.
    let f = fault(&at_offset("int", 66, "*p = 1"), "");
    assert_eq!(f.kind, CheckKind::OutOfBounds);
}

#[test]
fn packed_records_are_not_misaligned() {
    let src =
        "typedef struct __attribute__((packed)) { char c; int i; float4 v; short s; long l[2]; } P;
typedef struct { char c; P p; } Outer;
typedef struct __attribute__((packed)) { char c; struct { short a; int b; } in; } Q;
kernel void k(global int *out, global P *ps, P byval) {
    P p = { 1, 2, (float4)(3.0f), 4, { 5, 6 } };
    p.i += 5;
    p.v.y = 7.0f;
    p.l[1] += 1;
    out[0] = p.c; out[1] = p.i; out[2] = (int)p.v.y; out[3] = p.s; out[4] = (int)p.l[1];
    ps[1].i = 9; ps[1].v = (float4)(1.0f); ps[1].s = 3; ps[1].l[0] = 40;
    ps[1].v.z = 2.0f; ps[1].v[3] = 5.0f;
    out[5] = ps[1].i + (int)ps[1].v.w + (int)ps[1].v.z + ps[1].s + (int)ps[1].l[0];
    Outer o; o.p = ps[1]; o.p.i++;
    out[6] = o.p.i;
    Q q = { 1, { 2, 3 } };
    q.in.b *= 10;
    out[7] = q.in.a + q.in.b;
    out[8] = byval.i + byval.s;
    out[9] = (int)(ps[2].l[1] = 77);
}
";
    let p = Program::build(src, "").expect("builds");
    let d = device();
    let out = d.buffer::<i32>(10).expect("buffer");
    let ps = d.buffer::<u8>(3 * 39).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    let mut byval = vec![0u8; 39];
    byval[1..5].copy_from_slice(&20i32.to_le_bytes());
    byval[21..23].copy_from_slice(&2i16.to_le_bytes());
    k.set_arg(0, &out).expect("out");
    k.set_arg(1, &ps).expect("ps");
    k.set_arg(2, oclc::KernelArg::Value(byval)).expect("byval");
    d.launch(&k, &NdRange::new(&[1]))
        .expect("packed accesses run");
    assert_eq!(
        out.read::<i32>().expect("read"),
        vec![1, 7, 7, 4, 7, 9 + 5 + 2 + 3 + 40, 10, 32, 22, 77]
    );
    let bytes = ps.read::<u8>().expect("read");
    assert_eq!(&bytes[39 + 1..39 + 5], &9i32.to_le_bytes());
    assert_eq!(&bytes[78 + 31..78 + 39], &77i64.to_le_bytes());
}

#[test]
fn another_work_items_private_memory() {
    let src = "typedef private int *pint;
kernel void k(global int *out) {
    local pint ptrs[4];
    int mine = (int)get_global_id(0) * 10;
    size_t l = get_local_id(0);
    ptrs[l] = &mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = *ptrs[(l + SHIFT) % 4];
    barrier(CLK_LOCAL_MEM_FENCE);
}
";
    let f = fault(&src.replace("SHIFT", "1"), "");
    assert_fault(
        &f,
        CheckKind::OtherPrivate,
        "read of the private memory of another work-item (global id (1, 0, 0)): a __private pointer is valid only in the work-item that made it",
        8,
        29,
        0,
    );
    let (r, out) = launch(&src.replace("SHIFT", "0"), "");
    r.expect("own private memory");
    assert_eq!(&out[..8], &[0, 10, 20, 30, 40, 50, 60, 70]);

    // Through global memory, without a barrier: work-item 6 writes through the pointer of 5.
    let src = "kernel void k(global int *out) {
    int mine = 1;
    size_t g = get_global_id(0);
    ((global ulong *)out)[g] = (ulong)&mine;
    if (g == 6)
        *(private int *)(((global ulong *)out)[g - 1]) = 2;
}
";
    let p = Program::build(src, "").expect("builds");
    let d = device();
    let out = d.buffer::<u64>(8).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    let Err(Error::Runtime(f)) = d.launch(&k, &NdRange::new(&[8]).local(&[4])) else {
        panic!("expected a fault")
    };
    assert_fault(
        &f,
        CheckKind::OtherPrivate,
        "write of the private memory of another work-item (global id (5, 0, 0)): a __private pointer is valid only in the work-item that made it",
        6,
        9,
        6,
    );
}

#[test]
fn printf_output_before_a_fault_is_kept() {
    // Work-item 6 (group 1) faults after printing; groups run on two threads.
    let src = "kernel void k(global int *out) {
    size_t g = get_global_id(0);
    printf(\"item %d\\n\", (int)g);
    if (g == 6)
        out[g + 100] = 1;
    printf(\"after %d\\n\", (int)g);
}
";
    let d = device().with_threads(2);
    let Err(Error::Runtime(f)) = launch_on(&d, src, "").0 else {
        panic!("expected a fault")
    };
    let mut want = String::new();
    for g in 0..4 {
        want += &format!("item {g}\nafter {g}\n");
    }
    want += "item 4\nafter 4\nitem 5\nafter 5\nitem 6\n";
    assert_eq!(f.printf, want);
    assert!(!f.printf_truncated);
    assert_eq!(f.location, Some(("<source>".to_string(), 5, 9)));

    // `oclc run` prints that output, then the error.
    let job = format!(
        "code = \"\"\"\n{}\"\"\"\nkernel = \"k\"\nglobal = [8]\nlocal = [4]\n[args]\nout = {{ buffer = \"int\", len = 8 }}\n",
        src.replace("\\n", "\\\\n")
    );
    let (code, stdout, stderr) = run_cli("fault_printf", &job, &["--threads", "2"], None);
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(stdout, want);
    assert!(
        stderr.contains("fault_printf.toml (code):5:9: error: out-of-bounds write"),
        "{stderr}"
    );
}

const PRINT_LOOP: &str = "kernel void k(global int *out) {
    for (int i = 0; i < 10; i++)
        out[i] = printf(\"line %d\\n\", i);
}
";

#[test]
fn printf_buffer_is_bounded() {
    // 20 bytes hold two 7-byte lines; the third does not fit and the buffer is then full.
    let d = device().with_printf_buffer(20);
    let p = Program::build(PRINT_LOOP, "").expect("builds");
    let out = d.buffer::<i32>(10).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    let o = d.launch(&k, &NdRange::new(&[1])).expect("runs");
    assert_eq!(o.printf, "line 0\nline 1\n");
    assert!(o.printf_truncated);
    assert_eq!(
        out.read::<i32>().expect("read"),
        vec![0, 0, -1, -1, -1, -1, -1, -1, -1, -1]
    );
    // The default (1 MiB) holds it all.
    let d = device();
    let o = d.launch(&k, &NdRange::new(&[1])).expect("runs");
    assert!(!o.printf_truncated);
    assert_eq!(o.printf.lines().count(), 10);

    // Many work-groups on several threads share one buffer: exactly the limit is kept.
    let src = "kernel void k(global int *out) { printf(\"%05d\\n\", (int)get_global_id(0)); }";
    let p = Program::build(src, "").expect("builds");
    let d = device().with_printf_buffer(6000).with_threads(4);
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    let o = d
        .launch(&k, &NdRange::new(&[4096]).local(&[16]))
        .expect("runs");
    assert!(o.printf_truncated);
    assert_eq!(o.printf.len(), 6000);
    assert!(o.printf.lines().all(|l| l.len() == 5));
}

#[test]
fn printf_buffer_from_the_environment_and_the_cli_warning() {
    let job = format!(
        "code = \"\"\"\n{}\"\"\"\nkernel = \"k\"\nglobal = [1]\n[args]\nout = {{ buffer = \"int\", len = 10 }}\n[expect]\nout = {{ equals = [0, 0, -1, -1, -1, -1, -1, -1, -1, -1] }}\n",
        PRINT_LOOP.replace("\\n", "\\\\n")
    );
    let (code, stdout, stderr) = run_cli("cut", &job, &[], Some("20"));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("line 0\nline 1\nexpect out: ok"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "oclc: warning: printf output of kernel 'k' was cut at 20 bytes: the printf buffer is full (set OCLC_PRINTF_BUFFER_SIZE to enlarge it)\n"
    );
    let (code, _, stderr) = run_cli("bad_env", &job, &[], Some("lots"));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "oclc: error: invalid device setting: OCLC_PRINTF_BUFFER_SIZE='lots' is not a number of bytes (the default is 1048576)\n"
    );

    // `for (;;) printf(...)`: 1 MiB of output, the warning, then the step limit.
    let job = "code = \"\"\"\nkernel void k(global int *out) {\n    for (;;) printf(\"x\\\\n\");\n}\n\"\"\"\nkernel = \"k\"\nglobal = [1]\n[args]\nout = { buffer = \"int\", len = 1 }\n";
    let (code, stdout, stderr) = run_cli("forever", job, &["--max-steps", "1000000"], None);
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(stdout.len(), 1 << 20);
    assert!(stdout.bytes().step_by(2).all(|b| b == b'x'));
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(
            "oclc: warning: printf output of kernel 'k' was cut at 1048576 bytes: the printf buffer is full (set OCLC_PRINTF_BUFFER_SIZE to enlarge it)"
        )
    );
    assert!(
        lines.next().is_some_and(
            |l| l.contains("forever.toml (code):2:5: error: work-item exceeded the step limit")
        ),
        "{stderr}"
    );
}

/// Writes `job` to a fresh directory and runs `oclc run` on it with `flags`, and with
/// `OCLC_PRINTF_BUFFER_SIZE` set to `printf_buffer` if given (else unset).
fn run_cli(
    name: &str,
    job: &str,
    flags: &[&str],
    printf_buffer: Option<&str>,
) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "oclc-run-checks-more-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(format!("{name}.toml"));
    std::fs::write(&path, job).expect("write run file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oclc"));
    cmd.arg("run").arg(&path).args(flags);
    match printf_buffer {
        Some(v) => cmd.env("OCLC_PRINTF_BUFFER_SIZE", v),
        None => cmd.env_remove("OCLC_PRINTF_BUFFER_SIZE"),
    };
    let out = cmd.output().expect("run oclc");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
