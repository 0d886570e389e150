//! The cpu device's native back end against its interpreter: every example and bench job
//! whose kernel compiles natively leaves the same bytes in every buffer on both (`--save`),
//! the jobs that fall back are the ones with barriers, and each runtime check reports the
//! same text (line, message, work-item) on both. `OCLC_CPU_BACKEND=native` makes a kernel
//! that cannot run natively an error, so a test can't pass by silently interpreting.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-native-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `oclc run` with `args`; `native` forces the native back end (an error if the kernel does
/// not compile), else `--device cpu-interp`.
fn oclc(args: &[&str], native: bool) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_oclc"));
    c.current_dir(root()).arg("run").args(args);
    if native {
        c.env("OCLC_CPU_BACKEND", "native");
    } else {
        c.env_remove("OCLC_CPU_BACKEND")
            .args(["--device", "cpu-interp"]);
    }
    let out = c.output().expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `job` on both back ends with `--save` and compares every saved buffer; false when
/// the kernel does not run natively (nothing to compare).
fn same_bytes(job: &str) -> bool {
    let name = job.replace(['/', '.'], "_");
    let (dn, di) = (
        temp_dir(&format!("{name}-n")),
        temp_dir(&format!("{name}-i")),
    );
    let (code, out, err) = oclc(&[job, "--save", &dn.to_string_lossy()], true);
    if code != 0 && err.contains("does not run natively") {
        return false;
    }
    assert_eq!(code, 0, "{job} native: {out}\n{err}");
    let (code, out_i, err) = oclc(&[job, "--save", &di.to_string_lossy()], false);
    assert_eq!(code, 0, "{job} interpreted: {out_i}\n{err}");
    let mut files: Vec<_> = std::fs::read_dir(&dn)
        .expect("saved")
        .map(|e| e.expect("entry").file_name())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{job}: --save wrote nothing");
    for f in &files {
        let a = std::fs::read(dn.join(f)).expect("native buffer");
        let b = std::fs::read(di.join(f)).expect("interpreted buffer");
        assert!(
            a == b,
            "{job}: {f:?} differs between native and interpreted runs"
        );
    }
    let _ = std::fs::remove_dir_all(&dn);
    let _ = std::fs::remove_dir_all(&di);
    true
}

/// The examples (all with barriers and `__local` memory) run natively.
#[test]
fn examples_match() {
    for job in ["memcpy", "matmul", "reduce", "histogram"] {
        assert!(same_bytes(&format!("examples/{job}.toml")), "{job}");
    }
}

#[test]
fn bench_copy_jobs_match() {
    for job in ["bench/copy_named.toml", "bench/copy_generic.toml"] {
        assert!(same_bytes(job), "{job} should run natively");
    }
}

#[test]
fn bench_memcpy_global_named_matches() {
    assert!(same_bytes("bench/memcpy_global_named.toml"));
}

#[test]
fn bench_memcpy_global_generic_matches() {
    assert!(same_bytes("bench/memcpy_global_generic.toml"));
}

/// Kernels that use printf still run on the interpreter; `OCLC_CPU_BACKEND=native` says so.
#[test]
fn printf_falls_back() {
    let dir = temp_dir("printf");
    let path = dir.join("printf.toml");
    let job = r#"
code = """
kernel void k(global int *out) { printf("%d\\n", 1); out[0] = 1; }
"""
kernel = "k"
global = [1]
[args]
out = { buffer = "int", len = 1 }
"#;
    std::fs::write(&path, job).expect("write run file");
    let (code, _, err) = oclc(&[&path.to_string_lossy()], true);
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(code, 0);
    assert!(err.contains("does not run natively (printf)"), "{err}");
}

/// Runs an inline-code job on both back ends: both must fail with exit 3 and the same
/// report (message, source line, caret, ids).
fn same_fault(name: &str, job: &str, flags: &[&str], fragment: &str) {
    let dir = temp_dir(name);
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, job).expect("write run file");
    let p = path.to_string_lossy().into_owned();
    let mut args = vec![p.as_str()];
    args.extend_from_slice(flags);
    let (cn, _, en) = oclc(&args, true);
    let (ci, _, ei) = oclc(&args, false);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(cn, 3, "{name} native:\n{en}");
    assert_eq!(ci, 3, "{name} interpreted:\n{ei}");
    assert!(en.contains(fragment), "{name}: {en}");
    assert_eq!(en, ei, "{name}: reports differ");
}

#[test]
fn out_of_bounds_write_reports_the_same() {
    let job = r#"
code = """
kernel void k(global int *out, int shift) {
    size_t i = get_global_id(0);
    out[i + shift] = 1;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 16 }
shift = { value = 1 }
"#;
    same_fault(
        "oob",
        job,
        &[],
        "out-of-bounds write of 4 bytes at offset 64",
    );
    // A byte store, a vector load and a private array take other paths.
    let job = r#"
code = """
kernel void k(global uchar *out, global int *v, int n) {
    int priv[4] = {1, 2, 3, 4};
    size_t i = get_global_id(0);
    out[i] = (uchar)(((global int4 *)v)[i].y + vload4(i, v).z + priv[i % 4]);
    if (i == 5) out[i + n] = priv[n];
}
"""
kernel = "k"
global = [8]
[args]
out = { buffer = "uchar", len = 8 }
v = { buffer = "int", len = 32, init = "range" }
n = { value = 7 }
"#;
    same_fault("oob_priv", job, &[], "out-of-bounds read of 4 bytes");
}

#[test]
fn null_dereference_reports_the_same() {
    let job = r#"
code = """
kernel void k(global int *out, int use_null) {
    global int *p = use_null ? 0 : out;
    if (get_global_id(0) == 3)
        out[1] = *p + 1;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 2 }
use_null = { value = 1 }
"#;
    same_fault("null", job, &[], "NULL");
}

#[test]
fn write_to_constant_reports_the_same() {
    let job = r#"
code = """
kernel void k(constant int *c, global int *out, int cheat) {
    global int *p = cheat ? (global int *)(size_t)c : out;
    p[get_global_id(0)] = c[get_global_id(0)] + 1;
}
"""
kernel = "k"
global = [4]
[args]
c = { buffer = "int", len = 4, init = "range" }
out = { buffer = "int", len = 4 }
cheat = { value = 1 }
"#;
    same_fault("constant", job, &[], "__constant");
}

#[test]
fn wrong_space_cast_reports_the_same() {
    let job = r#"
options = "-cl-std=CL2.0"
code = """
kernel void k(global int *out, int from_private) {
    int tmp[16];
    tmp[get_global_id(0)] = 2;
    generic int *g = from_private ? (generic int *)tmp : (generic int *)out;
    global int *p = (global int *)g;
    p[get_global_id(0)] = 1;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 16 }
from_private = { value = 1 }
"#;
    same_fault("space", job, &[], "__global");
}

#[test]
fn barrier_divergence_reports_the_same() {
    let job = r#"
code = """
void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
kernel void k(global int *out, int limit) {
    local int tmp[4];
    tmp[get_local_id(0)] = 1;
    if (get_local_id(0) < limit)
        sync();
    else
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[3 - get_local_id(0)];
    if (get_local_id(0) < limit)
        barrier(CLK_LOCAL_MEM_FENCE);
}
"""
kernel = "k"
global = [8]
local = [4]
[args]
out = { buffer = "int", len = 8 }
limit = { value = 2 }
"#;
    same_fault("divergence", job, &[], "barrier divergence");
}

#[test]
fn step_limit_reports_the_same() {
    let job = r#"
code = """
int spin(int i, int n) {
    while (i < n) { i += 0; }
    return i;
}
kernel void k(global int *out, int n) {
    int i = 0;
    for (int j = 0; j < 3; j++) out[j] = j;
    out[0] = spin(i, n);
}
"""
kernel = "k"
global = [2]
[args]
out = { buffer = "int", len = 4 }
n = { value = 1000 }
"#;
    same_fault(
        "loop",
        job,
        &["--max-steps", "100000"],
        "step limit of 100000",
    );
}

/// 32- and 64-bit atomics (read-modify-write, compare-and-exchange loops, atomic load,
/// store and exchange, on buffers and `__local` variables) run inline in native code: the
/// order-independent results are the expected values, and the bytes match the interpreter's.
#[test]
fn atomics_run_inline_and_match() {
    let dir = temp_dir("atomics");
    let path = dir.join("atomics.toml");
    let job = r#"
code = """
kernel void k(global atomic_ulong *sum, global atomic_long *mn, global atomic_ulong *mx,
              global atomic_ulong *cas64, global atomic_uint *cnt, global long *out,
              global float *fout) {
    size_t g = get_global_id(0), l = get_local_id(0), w = get_group_id(0);
    local atomic_int lc;
    local atomic_long l64;
    local atomic_float lf;
    if (l == 0) {
        atomic_store(&lc, 0);
        atomic_store(&l64, 0);
        atomic_store(&lf, 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add(sum, (ulong)g << 33);
    atomic_fetch_min(mn, (long)g - 1000000000000L);
    atomic_fetch_max(mx, (ulong)g * 0x100000001UL);
    ulong e = atomic_load(cas64);
    while (!atomic_compare_exchange_weak(cas64, &e, e + 0x100000001UL))
        ;
    int f = atomic_load(&lc);
    while (!atomic_compare_exchange_strong(&lc, &f, f + 3))
        ;
    atomic_fetch_sub(&l64, 5);
    atomic_exchange(&lf, 1.5f);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        atomic_fetch_add(cnt, (uint)atomic_load(&lc));
        out[w] = atomic_exchange(&l64, 7);
        fout[w] = atomic_load(&lf);
    }
}
"""
options = "-cl-std=CL2.0"
kernel = "k"
global = [256]
local = [64]
[args]
sum = { buffer = "ulong", len = 1 }
mn = { buffer = "long", len = 1 }
mx = { buffer = "ulong", len = 1 }
cas64 = { buffer = "ulong", len = 1 }
cnt = { buffer = "uint", len = 1 }
out = { buffer = "long", len = 4 }
fout = { buffer = "float", len = 4 }
[expect]
sum = { equals = [280375465082880] }
mn = { equals = [-1000000000000] }
mx = { equals = [1095216660735] }
cas64 = { equals = [1099511628032] }
cnt = { equals = [768] }
out = { equals = [-320, -320, -320, -320] }
fout = { equals = [1.5, 1.5, 1.5, 1.5] }
"#;
    std::fs::write(&path, job).expect("write run file");
    let ran = same_bytes(&path.to_string_lossy());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ran, "the atomics kernel should run natively");
}

/// An atomic compare-and-exchange out of bounds leaves the inline path: the same report.
#[test]
fn atomic_out_of_bounds_reports_the_same() {
    let job = r#"
code = """
kernel void k(global atomic_long *a) {
    long e = 0;
    atomic_compare_exchange_strong(&a[get_global_id(0) + 2], &e, 1L);
}
"""
options = "-cl-std=CL2.0"
kernel = "k"
global = [4]
[args]
a = { buffer = "long", len = 4 }
"#;
    same_fault(
        "atomic_oob",
        job,
        &[],
        "out-of-bounds atomic operation of 8 bytes at offset 32",
    );
}

/// Accesses checked against a pointer's root (kernel argument or address constant), with the
/// pointer arithmetic folded into the check, report what the interpreter reports when the
/// check fails: a negative offset reached through two indexing steps, an index past the
/// 32-bit range (the offset field saturates), a pointer chosen at run time (no root), a
/// root pointer passed to a helper function, and accesses checked as a group.
#[test]
fn root_checked_accesses_report_the_same() {
    let job = r#"
code = """
kernel void k(global float *out, int d) {
    local float t[4][4];
    int x = get_local_id(0), y = get_local_id(1);
    t[y][x] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[y * 4 + x] = t[y][x - d];
}
"""
kernel = "k"
global = [4, 4]
local = [4, 4]
[args]
out = { buffer = "float", len = 16 }
d = { value = 1 }
"#;
    same_fault("root_neg", job, &[], "out-of-bounds read of 4 bytes");
    let job = r#"
code = """
kernel void k(global int *out, long shift) {
    size_t i = get_global_id(0);
    out[i + shift] = 1;
}
"""
kernel = "k"
global = [4]
[args]
out = { buffer = "int", len = 16 }
shift = { value = 35184372088832 }
"#;
    same_fault("root_huge", job, &[], "out-of-bounds write of 4 bytes");
    let job = r#"
code = """
kernel void k(global int *a, global int *b) {
    size_t i = get_global_id(0);
    global int *p = (i & 1) ? a : b;
    p[i * 3] = 1;
}
"""
kernel = "k"
global = [8]
[args]
a = { buffer = "int", len = 16 }
b = { buffer = "int", len = 8 }
"#;
    same_fault("root_none", job, &[], "out-of-bounds write of 4 bytes");
    let job = r#"
code = """
void put(global int *p, int i) { p[i] = i; }
kernel void k(global int *out) {
    int i = get_global_id(0);
    put(out + 2, i);
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "int", len = 16 }
"#;
    same_fault("root_call", job, &["-O0"], "out-of-bounds write of 4 bytes");
    // Accesses at constant offsets from one pointer are checked together; when one of
    // them is out of bounds, each is checked and the right one reports.
    let job = r#"
code = """
kernel void k(global float *out, global const float *in) {
    size_t i = get_global_id(0);
    global const float *p = in + i;
    out[i] = p[0] + p[1] + p[2] + p[3];
    global float *q = out + i;
    q[0] = 1; q[1] = 2; q[2] = 3;
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "float", len = 17 }
in = { buffer = "float", len = 16 }
"#;
    same_fault(
        "root_group",
        job,
        &[],
        "out-of-bounds read of 4 bytes at offset 64",
    );
    let job = job.replace("len = 16 }", "len = 19 }");
    same_fault(
        "root_group_st",
        &job,
        &[],
        "out-of-bounds write of 4 bytes at offset 68",
    );
    // Groups indexed by one index plus constants (64-bit and sign-extended 32-bit).
    let job = r#"
code = """
kernel void k(global float *out, global const float *in, int s) {
    size_t i = get_global_id(0);
    int j = get_global_id(0) + s;
    out[i] = in[i - 1] + in[i] + in[i + 1] + in[j + 1] + in[j + 2];
}
"""
kernel = "k"
global = [16]
[args]
out = { buffer = "float", len = 16 }
in = { buffer = "float", len = 16 }
s = { value = 0 }
"#;
    same_fault(
        "root_group_idx",
        job,
        &[],
        "out-of-bounds read of 4 bytes at offset -4",
    );
    let job = job
        .replace("in[i - 1] + ", "")
        .replace("global = [16]", "global = [14]")
        .replace("value = 0", "value = 1");
    same_fault(
        "root_group_idx32",
        &job,
        &[],
        "out-of-bounds read of 4 bytes at offset 64",
    );
}

/// Accesses through a kernel's unchanged pointer argument at a scaled index test the index
/// against a range the driver computes per work-group; at each end of the buffer, for
/// loads and stores of 2-, 4- and 8-byte elements, they report what the interpreter does,
/// and the accesses just inside pass on both.
#[test]
fn index_range_accesses_report_the_same() {
    let job = |ty: &str, len: u32, load: &str, store: &str, global: u32| {
        format!(
            r#"
code = """
kernel void k(global {ty} *out, global const {ty} *in, uint n, int s) {{
    size_t i = get_global_id(0);
    int j = (int)i + s;
    {ty} v = {load};
    {store} = v;
}}
"""
kernel = "k"
global = [{global}]
[args]
out = {{ buffer = "{ty}", len = {len} }}
in = {{ buffer = "{ty}", len = {len}, init = "range" }}
n = {{ value = 4 }}
s = {{ value = 0 }}
"#
        )
    };
    for (ty, b) in [("short", 2), ("float", 4), ("long", 8)] {
        // Below the start: in[i - n] (size_t) and in[j - 1] (int, sign-extended).
        let j = job(ty, 16, "in[i - n] + in[i]", "out[i]", 16);
        same_fault(
            &format!("range_lo_{ty}"),
            &j,
            &[],
            &format!("out-of-bounds read of {b} bytes at offset -{}", 4 * b),
        );
        let j = job(ty, 16, "in[j - 1] + in[j + 1]", "out[i]", 15);
        same_fault(
            &format!("range_lo32_{ty}"),
            &j,
            &[],
            &format!("out-of-bounds read of {b} bytes at offset -{b}"),
        );
        // Past the end: a load and a store one element past it.
        let j = job(ty, 16, "in[i + n]", "out[i]", 13);
        same_fault(
            &format!("range_hi_{ty}"),
            &j,
            &[],
            &format!("out-of-bounds read of {b} bytes at offset {}", 16 * b),
        );
        let j = job(ty, 16, "in[i]", "out[j + 1]", 16);
        same_fault(
            &format!("range_st_{ty}"),
            &j,
            &[],
            &format!("out-of-bounds write of {b} bytes at offset {}", 16 * b),
        );
        // Just inside at both ends: the same bytes on both back ends.
        let j = job(ty, 16, "in[i + n] + in[j]", "out[j + 3]", 12);
        let dir = temp_dir(&format!("range_in_{ty}"));
        let path = dir.join("in.toml");
        std::fs::write(&path, &j).expect("write run file");
        assert!(same_bytes(&path.to_string_lossy()), "{ty}: not native");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// An access through a group's base pointer itself is the group's member at offset 0:
/// when it is the one out of bounds (below the start for a load, past the end for a
/// store), it reports what the interpreter does.
#[test]
fn group_base_member_reports_the_same() {
    let job = |body: &str, global: u32| {
        format!(
            r#"
code = """
kernel void k(global float *out, global const float *in) {{
    size_t i = get_global_id(0);
    {body}
}}
"""
kernel = "k"
global = [{global}]
[args]
out = {{ buffer = "float", len = 16 }}
in = {{ buffer = "float", len = 16, init = "range" }}
"#
        )
    };
    let j = job(
        "global const float *p = in + i - 1; out[i] = p[0] + p[1] + p[2];",
        14,
    );
    same_fault(
        "base_lo",
        &j,
        &[],
        "out-of-bounds read of 4 bytes at offset -4",
    );
    let j = job(
        "global float *q = out + i + 1; q[0] = in[i]; q[-1] = 2;",
        16,
    );
    same_fault(
        "base_hi",
        &j,
        &[],
        "out-of-bounds write of 4 bytes at offset 64",
    );
    let j = job(
        "global float *q = out + i; out[i] = in[i]; q[0] = in[i] + 1; q[1] = 2;",
        15,
    );
    let dir = temp_dir("base_in");
    let path = dir.join("in.toml");
    std::fs::write(&path, &j).expect("write run file");
    assert!(same_bytes(&path.to_string_lossy()), "not native");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `job` to a temporary run file and compares the bytes of both back ends' buffers;
/// whether it ran natively.
fn same_bytes_inline(name: &str, job: &str) -> bool {
    let dir = temp_dir(name);
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, job).expect("write run file");
    let native = same_bytes(&path.to_string_lossy());
    let _ = std::fs::remove_dir_all(&dir);
    native
}

/// The stencil and the tiled transpose (whose `__local` accesses at local ids are checked
/// once per group) leave the same bytes as the interpreter.
#[test]
fn bench_stencil_and_transpose_match() {
    for job in ["bench/jacobi.toml", "bench/transpose_tiled.toml"] {
        assert!(same_bytes(job), "{job} should run natively");
    }
}

/// Ids of dimensions past the launch's (and a partial last group) read as the interpreter
/// reads them: 0 for the ids, without a test of the launch's dimensions in native code.
#[test]
fn ids_beyond_the_launch_dimensions_match() {
    let job = r#"
code = """
kernel void k(global ulong *out) {
    size_t i = get_global_id(0);
    out[i] = get_global_id(1) * 1000 + get_local_id(2) * 100 + get_local_id(0) * 7 + i;
    out[i + 40] = get_global_id(2) + get_local_id(1) + get_group_id(0);
}
"""
options = "-cl-std=CL2.0"
kernel = "k"
global = [37]
local = [8]
[args]
out = { buffer = "ulong", len = 80, init = { fill = 9 } }
"#;
    assert!(same_bytes_inline("ids", job), "not native");
}

/// A tile at local ids too small for the group: the per-group test fails, and the accesses'
/// own checks report the same access and work-item as the interpreter (the write before
/// the barrier, the read after it; a partial last group that fits runs the fast path).
#[test]
fn local_tile_at_local_ids_reports_the_same() {
    let job = |rows: u32, cols: u32, global: [u32; 2]| {
        format!(
            r#"
code = """
kernel void k(global const float *in, global float *out, uint n) {{
    local float a[{rows}][17];
    local float b[16][{cols}];
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t lx = get_local_id(0), ly = get_local_id(1);
    a[ly][lx] = in[y * n + x];
    b[ly][lx] = 2 * in[y * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[y * n + x] = a[lx][ly] + b[ly][lx] + (float)lx;
}}
"""
options = "-cl-std=CL2.0"
kernel = "k"
global = [{}, {}]
local = [16, 16]
[args]
in = {{ buffer = "float", len = 1024, init = "range" }}
out = {{ buffer = "float", len = 1024 }}
n = {{ value = 32 }}
"#,
            global[0], global[1]
        )
    };
    same_fault(
        "tile_write",
        &job(15, 17, [32, 32]),
        &[],
        "out-of-bounds write of 4 bytes",
    );
    same_fault(
        "tile_b",
        &job(16, 15, [32, 32]),
        &[],
        "out-of-bounds write of 4 bytes",
    );
    // Read only after the barrier: `c` has 15 rows, so work-item (15, 0) reads past it.
    let read = job(16, 17, [32, 32])
        .replace(
            "local float b[16]",
            "local float c[15][16];\n    local float b[16]",
        )
        .replace("a[lx][ly] +", "a[lx][ly] + c[lx][ly] * 0 +");
    same_fault("tile_read", &read, &[], "out-of-bounds read of 4 bytes");
    assert!(
        same_bytes_inline("tile_ok", &job(16, 17, [32, 24])),
        "not native"
    );
}

/// A kernel without loops has no step checks in native code; a launch whose step limit is
/// below its longest path runs on the interpreter and reports the limit as it does (and
/// `OCLC_CPU_BACKEND=native` says why it does not run natively).
#[test]
fn step_limit_below_a_loop_free_kernel_reports_the_same() {
    let job = r#"
code = """
kernel void k(global int *out) {
    size_t i = get_global_id(0);
    if (i > 0) out[i] = 1;
    if (i > 1) out[i] = 2;
    if (i > 2) out[i] = 3;
}
"""
kernel = "k"
global = [4]
[args]
out = { buffer = "int", len = 4 }
"#;
    let dir = temp_dir("steps_acyclic");
    let path = dir.join("steps.toml");
    std::fs::write(&path, job).expect("write run file");
    let p = path.to_string_lossy().into_owned();
    let run = |env: Option<&str>, args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_oclc"));
        c.current_dir(root()).arg("run").arg(&p).args(args);
        match env {
            Some(v) => c.env("OCLC_CPU_BACKEND", v),
            None => c.env_remove("OCLC_CPU_BACKEND"),
        };
        let out = c.output().expect("run oclc");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (cd, ed) = run(None, &["--max-steps", "2"]);
    let (ci, ei) = run(None, &["--max-steps", "2", "--device", "cpu-interp"]);
    let (cn, en) = run(Some("native"), &["--max-steps", "2"]);
    let (ck, ek) = run(Some("native"), &["--max-steps", "3"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(cd, 3, "{ed}");
    assert_eq!(ci, 3, "{ei}");
    assert!(ed.contains("step limit of 2"), "{ed}");
    assert_eq!(ed, ei, "reports differ");
    assert_ne!(cn, 0);
    assert!(
        en.contains("the step limit 2 is below the 3 branches and calls of its longest path"),
        "{en}"
    );
    assert_eq!(ck, 0, "{ek}");
}
