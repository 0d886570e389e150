//! `oclc build --emit ptx` never reports an internal compiler error or panics on what
//! `oclc check` accepts: constructs the cuda device lacks (printf, sub-groups, images, device
//! enqueue, ...) give a located "the cuda device does not support X" error with exit status 1,
//! like any build error. Runs over a list of constructs, every kernel of the repository's test
//! inputs and the CTS corpus (../shared/conformance/cts-generic; skipped with one line when
//! absent, a failure when OCLC_REQUIRE_CONFORMANCE=1).

#[path = "../../../test-support/conformance.rs"]
mod conformance;

use oclc::build_cmd::build_command;
use std::path::{Path, PathBuf};

/// `oclc build ARGS` in this process (the source on stdin when the file is `-`); a panic is
/// returned as `Err`.
fn build(args: &[&str], stdin: &str) -> Result<oclc::cli::CliOutput, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let input = stdin.as_bytes().to_vec();
    std::panic::catch_unwind(move || build_command(args, &mut input.as_slice())).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

/// The problems with one build's output: a panic, an internal error, an odd exit status, or
/// an error without a source location.
fn problems(what: &str, r: Result<oclc::cli::CliOutput, String>) -> Vec<String> {
    let out = match r {
        Ok(o) => o,
        Err(p) => return vec![format!("{what}: panicked: {p}")],
    };
    let mut bad = Vec::new();
    if out.stderr.contains("internal compiler error") || out.stderr.contains("panicked") {
        bad.push(format!("{what}: {}", out.stderr.trim_end()));
    }
    if out.code != 0 && out.code != 1 {
        bad.push(format!("{what}: exit status {}", out.code));
    }
    // Each of the backend's errors carries a `file:line:col` location.
    for line in out.stderr.lines() {
        if line.contains("the cuda device does not support")
            && !line
                .split_once(": error: the cuda device")
                .is_some_and(|(at, _)| at.rsplit(':').take(2).all(|n| n.parse::<u32>().is_ok()))
        {
            bad.push(format!("{what}: unlocated: {line}"));
        }
    }
    bad
}

/// OpenCL C constructs the PTX backend has had trouble with, and what the build must say:
/// `None` for PTX, else a piece of the (located) error.
const CONSTRUCTS: &[(&str, &str, Option<&str>)] = &[
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o)\n{\n    printf(\"%d\\n\", o[0]);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o)\n{\n    constant char *f = o[0] ? \"a%d\" : \"b%d\";\n    printf(f, o[1]);\n}\n",
        Some(
            "<stdin>:4:5: error: the cuda device does not support printf with a format that is not a string literal yet",
        ),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o)\n{\n    o[0] = get_sub_group_size();\n}\n",
        // Sub-groups are warps.
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o)\n{\n    o[0] = get_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id();\n}\n",
        // Sub-groups are warps.
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o)\n{\n    o[1] = sub_group_reduce_add(o[0]) + sub_group_broadcast(o[0], 0);\n}\n",
        // Sub-groups are warps.
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global float *o)\n{\n    o[1] = sub_group_scan_inclusive_max(o[0]);\n    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n}\n",
        // Sub-groups are warps.
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o, global float *f, global double *d)\n{\n    int i = get_local_id(0);\n    o[i] = work_group_reduce_add(o[i]) + work_group_scan_exclusive_min(o[i])\n        + work_group_broadcast(o[i], 0) + work_group_all(o[i]) + work_group_any(o[i]);\n    f[i] = work_group_reduce_max(f[i]) + work_group_scan_inclusive_add(f[i]);\n    d[i] = work_group_reduce_min(d[i]);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *g, global long *l, global float *f)\n{\n    local int li[4];\n    local long ll[4];\n    li[0] = 0;\n    barrier(CLK_LOCAL_MEM_FENCE);\n    atomic_add(g, 1); atomic_sub(li, 1); atomic_inc(g); atomic_dec(li);\n    atomic_min(g, 3); atomic_max(li, 3); atomic_and(g, 1); atomic_or(li, 1); atomic_xor(g, 1);\n    atomic_xchg(g, 2); atomic_cmpxchg(li, 0, 1); atomic_xchg(f, 1.5f);\n    atom_add(l, 1L); atom_cmpxchg(ll, 0L, 1L); atom_max(l, 2L);\n    g[1] = li[0];\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global atomic_int *a, global int *o, int ord)\n{\n    memory_order mo = ord ? memory_order_acquire : memory_order_relaxed;\n    o[0] = atomic_fetch_add_explicit(a, 1, mo, memory_scope_device);\n    atomic_store(a, 3);\n    o[1] = atomic_load_explicit(a, memory_order_seq_cst);\n    int e = 3;\n    o[2] = atomic_compare_exchange_strong(a, &e, 4);\n    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);\n}\n",
        None,
    ),
    (
        "-cl-std=CL3.0 -cl-ext=+all",
        "kernel void k(global atomic_float *a, global atomic_double *d, global float *o)\n{\n    o[0] = atomic_fetch_add(a, 1.0f) + atomic_fetch_sub(a, 2.0f)\n        + atomic_fetch_min(a, 0.5f) + atomic_fetch_max(a, 4.0f);\n    o[1] = (float)(atomic_fetch_min(d, 1.0) + atomic_fetch_max(d, 2.0) + atomic_fetch_sub(d, 1.0));\n}\n",
        None,
    ),
    (
        "-cl-std=CL3.0 -cl-ext=+all",
        "kernel void k(global atomic_half *a, global half *o)\n{\n    o[0] = atomic_load(a);\n}\n",
        Some("<stdin>:3:12: error: `atomic_load` on a half value is not supported"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global const float *src, global float *dst)\n{\n    local float tile[64];\n    event_t e = async_work_group_copy(tile, src, 64, 0);\n    event_t e2 = async_work_group_strided_copy(tile, src, 8, 2, e);\n    wait_group_events(1, &e2);\n    prefetch(src, 16);\n    dst[get_local_id(0)] = tile[get_local_id(0)];\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global half *h, global float *f)\n{\n    float4 v = vload_half4(0, h) + vloada_half4(1, h) + (float4)vload_half(3, h);\n    vstore_half4_rte(v, 2, h);\n    vstorea_half2_rtz(v.xy, 5, h);\n    vstore_half(f[0], 7, h);\n    f[1] = v.w;\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o, int flags)\n{\n    mem_fence(CLK_GLOBAL_MEM_FENCE);\n    read_mem_fence(CLK_LOCAL_MEM_FENCE);\n    write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);\n    o[0] = get_fence(o) + (to_global(o) != 0) + (to_local(o) != 0) + (to_private(o) != 0);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o, uint d)\n{\n    o[0] = get_global_id(d) + get_local_size(d) + get_num_groups(d) + get_work_dim()\n        + get_global_linear_id() + get_enqueued_local_size(d);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(read_only image2d_t img, sampler_t s, global float4 *o)\n{\n    o[0] = read_imagef(img, s, (int2)(0, 0));\n}\n",
        Some("does not support images (`read_imagef`)"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(write_only image2d_t img, global int *o)\n{\n    write_imagef(img, (int2)(0, 0), (float4)(1.0f));\n    o[0] = get_image_width(img);\n}\n",
        Some("does not support images (`write_imagef`)"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global uint *o)\n{\n    o[0] = popcount(o[0]) + clz(o[1]) + ctz(o[2]) + rotate(o[3], 3u) + mad_sat(o[0], o[1], o[2])\n        + hadd(o[0], o[1]) + mul_hi(o[1], o[2]) + upsample((ushort)o[0], (ushort)o[1]);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "typedef struct { int a; float b[3]; } S;\nS make(int x) { S s = { x, { 1, 2, 3 } }; return s; }\nconstant int tab[4] = { 1, 2, 3, 4 };\nglobal int counter = 0;\nkernel void k(global int *o, S in)\n{\n    static global int seen;\n    S s = make(in.a);\n    o[0] = s.a + (int)s.b[2] + tab[o[1] & 3] + counter++ + seen;\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "int f(int n) { return n <= 0 ? 0 : f(n - 1) + 1; }\nkernel void k(global int *o)\n{\n    o[0] = f(o[0]);\n}\n",
        Some("error:"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global double *d, global half *h)\n{\n    double x = d[0];\n    d[1] = sin(x) + pow(x, 2.5) + lgamma(x) + fma(x, x, 1.0) + remquo(x, 3.0, (private int *)0);\n    h[0] = (half)(x * 2);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global float8 *o, global uint8 *m)\n{\n    float16 v = (float16)(1.0f);\n    o[0] = shuffle(v, m[0]) + shuffle2(o[1], o[2], m[1]);\n    o[3] = as_float8(m[2]);\n}\n",
        None,
    ),
    (
        "-cl-std=CL2.0",
        "void child(global int *o) { o[0] = 1; }\nkernel void k(global int *o)\n{\n    queue_t q = get_default_queue();\n    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ child(o); });\n}\n",
        Some("error:"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(read_only pipe int p, global int *o)\n{\n    read_pipe(p, o);\n}\n",
        Some("error:"),
    ),
    (
        "-cl-std=CL2.0",
        "kernel void k(global int *o, int n)\n{\n    int s = 0;\n    switch (n) { case 0: s = 1; break; case 7: s = 5; default: s += 2; }\n    for (int i = 0; i < n; i++) { if (i == 3) continue; s += i; if (s > 100) break; }\n    goto done;\ndone:\n    o[0] = s;\n}\n",
        None,
    ),
];

#[test]
fn constructs_give_ptx_or_a_located_error() {
    let mut bad = Vec::new();
    for (i, (opts, src, want)) in CONSTRUCTS.iter().enumerate() {
        for level in ["", "-O0"] {
            let mut args = vec!["--emit", "ptx"];
            args.extend(opts.split_whitespace());
            if !level.is_empty() {
                args.push(level);
            }
            args.push("-");
            let what = format!("construct {i} ({opts} {level})");
            let r = build(&args, src);
            if let Ok(out) = &r {
                match want {
                    None if out.code != 0 => {
                        bad.push(format!("{what}: failed:\n{}\n{src}", out.stderr))
                    }
                    Some(w) if out.code != 1 || !out.stderr.contains(w) => bad.push(format!(
                        "{what}: exit {} without {w:?}:\n{}\n{src}",
                        out.code, out.stderr
                    )),
                    _ => {}
                }
            }
            bad.extend(problems(&what, r));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

/// The binary itself: exit status 1 and the rendered diagnostic, as for other build errors.
#[test]
fn the_binary_reports_printf_as_a_build_error() {
    let dir = std::env::temp_dir().join(format!("oclc-ptx-no-ice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("k.cl");
    std::fs::write(
        &file,
        "kernel void k(global int *o)\n{\n    printf(o[0] ? \"a%d\" : \"b%d\", o[0]);\n}\n",
    )
    .expect("writes");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oclc"))
        .args(["build", "--emit", "ptx"])
        .arg(&file)
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("k.cl:3:5: error: the cuda device does not support printf with a format that is not a string literal yet\n")
            && stderr.contains("printf(o[0] ? \"a%d\" : \"b%d\", o[0]);")
            && stderr.ends_with("1 error generated.\n"),
        "{stderr}"
    );
}

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target" || n == ".git") {
                continue;
            }
            cl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "cl") {
            out.push(p);
        }
    }
}

/// Every `.cl` file of the repository and of the CTS corpus, at the default level and -O0.
#[test]
fn repository_and_cts_kernels_never_give_internal_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    cl_files(&root.join("crates"), &mut files);
    cl_files(&root.join("examples"), &mut files);
    cl_files(&root.join("bench"), &mut files);
    let repo = files.len();
    assert!(repo >= 50, "only {repo} kernels in the repository");
    if let Some(cts) = conformance::dir(
        "cts-generic",
        "repository_and_cts_kernels_never_give_internal_errors (CTS part)",
    ) {
        cl_files(&cts, &mut files);
        assert!(files.len() > repo, "no kernels in {}", cts.display());
    }
    let mut bad = Vec::new();
    let mut emitted = 0;
    for f in &files {
        let path = f.to_string_lossy().to_string();
        for (std, level) in [("-cl-std=CL2.0", ""), ("-cl-std=CL3.0", "-O0")] {
            let mut args = vec!["--emit", "ptx", std, path.as_str()];
            if !level.is_empty() {
                args.push(level);
            }
            let r = build(&args, "");
            if r.as_ref().is_ok_and(|o| o.code == 0) {
                emitted += 1;
            }
            bad.extend(problems(&format!("{path} {std} {level}"), r));
        }
    }
    eprintln!(
        "{} builds of {} files: {emitted} gave PTX",
        2 * files.len(),
        files.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
