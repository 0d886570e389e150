//! The cpu device's vector code (work-items as SIMD lanes, `native/vector`) against the
//! interpreter: the same bytes in every buffer, and the same fault report (line, message,
//! work-item), over shapes that exercise wide, narrow and single-lane chunks, rows that are
//! not a multiple of the chunk width, types and conversions, lanes that touch one
//! another's memory, affine values that wrap, and kernels with barriers.
//! `OCLC_CPU_VECTOR=require` makes a kernel that does not run as lanes an error, so a test
//! cannot pass on the scalar code alone.

use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-vector-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Where a job runs: on the vector code (required), on native code with or without it
/// (its trace on stderr: whether the kernel ran as lanes), or on the interpreter.
#[derive(Clone, Copy, PartialEq)]
enum On {
    Lanes,
    Native,
    Interp,
}

/// `oclc run JOB ARGS` on `on`.
fn run(job: &PathBuf, args: &[&str], on: On) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_oclc"));
    c.arg("run").arg(job).args(args);
    match on {
        On::Lanes => {
            c.env("OCLC_CPU_BACKEND", "native")
                .env("OCLC_CPU_VECTOR", "require");
        }
        On::Native => {
            c.env("OCLC_CPU_BACKEND", "native")
                .env("OCLC_CPU_BACKEND_TRACE", "1")
                .env_remove("OCLC_CPU_VECTOR");
        }
        On::Interp => {
            c.env_remove("OCLC_CPU_BACKEND")
                .env_remove("OCLC_CPU_VECTOR")
                .args(["--device", "cpu-interp"]);
        }
    }
    let out = c.output().expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A run file for `code`'s kernel `k` over `global`/`local`, with `args` (TOML lines).
fn job(code: &str, global: &[u64], local: &[u64], args: &str) -> String {
    let dims = |d: &[u64]| {
        d.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "code = \"\"\"\n{code}\n\"\"\"\nkernel = \"k\"\nglobal = [{}]\nlocal = [{}]\n[args]\n{args}\n",
        dims(global),
        dims(local)
    )
}

/// Runs `text` on both and compares every buffer saved.
fn same_bytes(name: &str, text: &str) {
    same_bytes_on(name, text, On::Lanes);
}

/// Runs `text` on `on` and on the interpreter and compares every buffer saved; `on`'s stderr.
fn same_bytes_on(name: &str, text: &str, on: On) -> String {
    let dir = temp_dir(name);
    let path = dir.join("job.toml");
    std::fs::write(&path, text).expect("write run file");
    let (dv, di) = (dir.join("v"), dir.join("i"));
    let (code, out, on_err) = run(&path, &["--save", &dv.to_string_lossy()], on);
    assert_eq!(code, 0, "{name} vector: {out}\n{on_err}\n{text}");
    let (code, out, err) = run(&path, &["--save", &di.to_string_lossy()], On::Interp);
    assert_eq!(code, 0, "{name} interpreted: {out}\n{err}");
    let mut files: Vec<_> = std::fs::read_dir(&dv)
        .expect("saved")
        .map(|e| e.expect("entry").file_name())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{name}: nothing saved");
    for f in &files {
        let a = std::fs::read(dv.join(f)).expect("vector buffer");
        let b = std::fs::read(di.join(f)).expect("interpreted buffer");
        assert!(a == b, "{name}: {f:?} differs\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    on_err
}

/// Runs `text` on both: both fail with the same report, which contains `what`.
fn same_fault(name: &str, text: &str, what: &str) {
    let dir = temp_dir(name);
    let path = dir.join("job.toml");
    std::fs::write(&path, text).expect("write run file");
    let (cv, ov, ev) = run(&path, &[], On::Lanes);
    let (ci, oi, ei) = run(&path, &[], On::Interp);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(cv, 3, "{name} vector should fault: {ov}\n{ev}");
    assert_eq!(ci, 3, "{name} interpreted should fault: {oi}\n{ei}");
    assert_eq!(ev, ei, "{name}: the reports differ");
    assert!(ev.contains(what), "{name}: {ev}");
}

const STENCIL: &str = "kernel void k(global const float *in, global float *out, uint n, uint m) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == m - 1) { out[i] = in[i]; return; }
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]) - (float)x;
}";

const STENCIL_ORDERED: &str =
    "kernel void k(global const float *in, global float *out, uint n, uint m) {
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * (int)n + x;
    if (x > 0 && y >= 1 && x < (int)n - 1 && y <= (int)m - 2) {
        out[i] = in[i - 1] + in[i + 1] - in[i - (int)n] * in[i + (int)n];
    } else {
        uint j = (uint)x - 3u;
        out[i] = j < 20u ? 1.0f : in[i];
    }
}";

/// A stencil over rows that are and are not multiples of the chunk widths, in groups of
/// every width from one work-item up; its border test as equalities, then as ordered
/// comparisons on signed ids (and an unsigned one that wraps within a chunk).
#[test]
fn stencil_shapes() {
    for (n, m, lx, ly) in [
        (64, 6, 16, 2),
        (64, 5, 32, 1),
        (37, 5, 37, 1),
        (40, 4, 20, 2),
        (24, 3, 8, 3),
        (21, 4, 7, 2),
        (12, 4, 4, 4),
        (9, 3, 3, 1),
        (16, 4, 1, 4),
        (48, 2, 16, 1),
    ] {
        let len = n * m;
        let args = format!(
            "in = {{ buffer = \"float\", len = {len}, init = \"range\" }}\nout = {{ buffer = \"float\", len = {len} }}\nn = {{ value = {n} }}\nm = {{ value = {m} }}"
        );
        for (k, code) in [STENCIL, STENCIL_ORDERED].iter().enumerate() {
            same_bytes(
                &format!("stencil{k}-{n}x{m}-{lx}x{ly}"),
                &job(code, &[n, m], &[lx, ly], &args),
            );
        }
    }
}

/// Non-uniform groups (OpenCL 2.0): the last group of each dimension is narrower, and the
/// launch has a global offset.
#[test]
fn stencil_non_uniform_groups() {
    for (n, m, lx, ly) in [(40, 6, 16, 4), (70, 3, 32, 2), (18, 5, 8, 2)] {
        let len = n * m;
        let args = format!(
            "in = {{ buffer = \"float\", len = {len}, init = \"range\" }}\nout = {{ buffer = \"float\", len = {len} }}\nn = {{ value = {n} }}\nm = {{ value = {m} }}"
        );
        let text = format!(
            "options = \"-cl-std=CL2.0\"\n{}",
            job(STENCIL, &[n, m], &[lx, ly], &args)
        );
        same_bytes(&format!("nonuniform-{n}x{m}-{lx}x{ly}"), &text);
    }
}

/// Every element type through loads, arithmetic, comparisons, selects, shifts and
/// conversions, lane by lane where no SIMD register holds them.
#[test]
fn types_and_conversions() {
    let code = "kernel void k(global const int *a, global char *c, global short *s,
        global long *l, global uint *u, global float *f, global double *d, global uchar *b) {
    size_t i = get_global_id(0);
    int x = a[i];
    c[i] = (char)(x * 7) ^ (char)i;
    s[i] = (short)(x << 3) >> 1;
    l[i] = (long)x * -3000000001L + (long)(i >> 1);
    u[i] = (uint)x / 1u + ((uint)x >> (i & 7)) - (uint)(x < 17);
    float g = (float)x * 0.5f - 3.0f;
    f[i] = g / 3.0f - (float)(x > 20) * g + (float)(uint)(x < 30);
    d[i] = (double)g * 1.25 + (double)l[i];
    b[i] = (uchar)(x != 9) + (uchar)((float)x >= 11.5f) + (uchar)(int)(g * 100.0f);
}";
    for (g, loc) in [(64, 16), (50, 25), (7, 7), (36, 12)] {
        let args = format!(
            "a = {{ buffer = \"int\", len = {g}, init = \"range\" }}\nc = {{ buffer = \"char\", len = {g} }}\ns = {{ buffer = \"short\", len = {g} }}\nl = {{ buffer = \"long\", len = {g} }}\nu = {{ buffer = \"uint\", len = {g} }}\nf = {{ buffer = \"float\", len = {g} }}\nd = {{ buffer = \"double\", len = {g} }}\nb = {{ buffer = \"uchar\", len = {g} }}"
        );
        same_bytes(&format!("types-{g}-{loc}"), &job(code, &[g], &[loc], &args));
    }
}

/// Work-items that write what their neighbours read or write, and all writing one
/// element: the lanes must leave what work-items run one after another leave.
#[test]
fn lanes_touching_each_others_memory() {
    let bodies = [
        "out[i + 1] = in[i]; out[i] = 2.0f * in[i];",
        "out[i] = in[i]; out[i + 1] = out[i] + 1.0f;",
        "out[0] = in[i]; out[i + 1] = out[0];",
        "global float *q = out + i; q[1] = in[i]; q[0] = 3.0f;",
        "out[63 - i] = in[i]; out[i] += 1.0f;",
        "out[i] = in[i]; out[i / 2] = out[i] * 2.0f;",
    ];
    for (k, body) in bodies.iter().enumerate() {
        let code = format!(
            "kernel void k(global const float *in, global float *out) {{ size_t i = get_global_id(0); {body} }}"
        );
        let args = "in = { buffer = \"float\", len = 64, init = \"range\" }\nout = { buffer = \"float\", len = 65 }";
        // One group: work-items of different groups touching one element would race
        // on any device (groups run in parallel).
        same_bytes(&format!("touch-{k}"), &job(&code, &[64], &[64], args));
    }
}

/// Out-of-bounds accesses in the middle of a wide chunk, at a group's last work-item and
/// behind a negative stride, a misaligned access, and an unsigned index that wraps inside a
/// chunk (its extension to 64 bits is affine only up to the wrap): the report is the
/// interpreter's.
#[test]
fn faults_report_the_same() {
    let cases = [
        (
            "kernel void k(global float *out) { size_t i = get_global_id(0); out[i] = 1.0f; }",
            "out = { buffer = \"float\", len = 37 }",
            [48, 16],
            "out-of-bounds write of 4 bytes at offset 148",
        ),
        (
            "kernel void k(global float *out) { size_t i = get_global_id(0); out[i] = 1.0f; }",
            "out = { buffer = \"float\", len = 31 }",
            [32, 32],
            "out-of-bounds write of 4 bytes at offset 124",
        ),
        (
            "kernel void k(global const float *in, global float *out) { size_t i = get_global_id(0); out[i] = in[40 - i]; }",
            "in = { buffer = \"float\", len = 64 }\nout = { buffer = \"float\", len = 64 }",
            [64, 16],
            "out-of-bounds read of 4 bytes at offset -4",
        ),
        (
            "kernel void k(global float *out) { size_t i = get_global_id(0); global int *p = (global int *)((global char *)out + 2); p[i] = 1; }",
            "out = { buffer = \"float\", len = 64 }",
            [32, 16],
            "misaligned",
        ),
        (
            "kernel void k(global float *out) { uint j = (uint)get_global_id(0) + 0xfffffff8u; size_t k = j; out[k - 0xfffffff8ul] = 1.0f; }",
            "out = { buffer = \"float\", len = 64 }",
            [32, 16],
            "out-of-bounds write",
        ),
    ];
    for (k, (code, args, [g, l], what)) in cases.iter().enumerate() {
        same_fault(&format!("fault-{k}"), &job(code, &[*g], &[*l], args), what);
    }
}

const TRANSPOSE: &str = "kernel void k(global float *odata, global const float *idata, uint width, uint height, local float *block) {
    uint xIndex = get_global_id(0);
    uint yIndex = get_global_id(1);
    if ((xIndex < width) && (yIndex < height)) {
        uint index_in = yIndex * width + xIndex;
        block[get_local_id(1) * (get_local_size(0) + 1) + get_local_id(0)] = idata[index_in];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    xIndex = get_group_id(1) * get_local_size(1) + get_local_id(0);
    yIndex = get_group_id(0) * get_local_size(0) + get_local_id(1);
    if ((xIndex < height) && (yIndex < width)) {
        uint index_out = yIndex * height + xIndex;
        odata[index_out] = block[get_local_id(0) * (get_local_size(0) + 1) + get_local_id(1)];
    }
}";

/// A tiled transpose with a `__local` argument, bounds tests and a barrier, in square
/// groups of 16, 8 and 4, over matrices whose sides are not all multiples of the group.
#[test]
fn transpose_with_barrier() {
    for (w, h, t) in [
        (64, 32, 16),
        (48, 16, 16),
        (24, 16, 8),
        (20, 12, 4),
        (32, 32, 4),
    ] {
        let len = w * h;
        let args = format!(
            "odata = {{ buffer = \"float\", len = {len} }}\nidata = {{ buffer = \"float\", len = {len}, init = \"range\" }}\nwidth = {{ value = {w} }}\nheight = {{ value = {h} }}\nblock = {{ local = \"float\", len = {} }}",
            t * (t + 1)
        );
        same_bytes(
            &format!("transpose-{w}x{h}-{t}"),
            &job(TRANSPOSE, &[w, h], &[t, t], &args),
        );
    }
}

/// A tile one element too small faults after the barrier, on the vector code's group
/// check: the report is the interpreter's.
#[test]
fn barrier_kernel_fault_reports_the_same() {
    let code = "kernel void k(global const float *in, global float *out) {
    local float tile[16][16];
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[y * 32 + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[y * 32 + x] = tile[lx][ly + 1];
}";
    let args = "in = { buffer = \"float\", len = 1024, init = \"range\" }\nout = { buffer = \"float\", len = 1024 }";
    same_fault(
        "barrier-fault",
        &job(code, &[32, 32], &[16, 16], args),
        "out-of-bounds read",
    );
}

/// `OCLC_CPU_VECTOR=require` names why a kernel does not run as lanes.
#[test]
fn require_names_why() {
    let code = "kernel void k(global float *out, int n) { for (int j = 0; j < n; j++) out[get_global_id(0) * 4 + j] = 1.0f; }";
    let dir = temp_dir("why");
    let path = dir.join("job.toml");
    std::fs::write(
        &path,
        job(
            code,
            &[16],
            &[16],
            "out = { buffer = \"float\", len = 64 }\nn = { value = 4 }",
        ),
    )
    .expect("write");
    let (code, _, err) = run(&path, &[], On::Lanes);
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(code, 0);
    assert!(err.contains("does not run as SIMD lanes (loops)"), "{err}");
}

/// A small deterministic generator (xorshift) for the random kernels below.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// An index into the 64-element inputs, affine in the id (sometimes out of bounds).
    fn index(&mut self) -> String {
        match self.pick(8) {
            0 => "g".into(),
            1 => format!("g + {}", self.pick(3)),
            2 => "63 - g".into(),
            3 => "g / 2".into(),
            4 => "(g * 3) % 64".into(),
            5 => format!("(g + {}) & 63", self.pick(64)),
            6 => "(size_t)((uint)g * 2u) % 61u".into(),
            _ => format!("{}", self.pick(64)),
        }
    }
    fn int(&mut self, depth: u32) -> String {
        if depth == 0 {
            return match self.pick(5) {
                0 => "x".into(),
                1 => "u".into(),
                2 => format!("{}", self.pick(200) as i64 - 100),
                3 => format!("a[{}]", self.index()),
                _ => "(int)get_local_id(0)".into(),
            };
        }
        let (l, r) = (self.int(depth - 1), self.int(depth - 1));
        match self.pick(17) {
            14 => format!("min({l}, {r})"),
            15 => format!("max({l}, (int){})", self.pick(50)),
            16 => format!("(int)clamp((uint)({l}), 3u, (uint)({r}))"),
            0 => format!("({l} + {r})"),
            1 => format!("({l} - {r})"),
            2 => format!("({l} * {r})"),
            3 => format!("({l} & {r})"),
            4 => format!("({l} | {r})"),
            5 => format!("({l} ^ {r})"),
            6 => format!(
                "({l} << {})",
                ["x", "3", "(x & 7)", "u"][self.pick(4) as usize]
            ),
            7 => format!("({l} >> {})", self.pick(31)),
            8 => format!("({l} / {})", self.pick(9) + 1),
            9 => format!("({l} % {})", self.pick(9) + 2),
            10 => format!("(int)(short)({l})"),
            11 => format!("(int)(uchar)({l})"),
            12 => format!("(int)({l} < {r})"),
            _ => format!("(int)({})", self.float(depth - 1)),
        }
    }
    fn float(&mut self, depth: u32) -> String {
        if depth == 0 {
            return match self.pick(3) {
                0 => format!("f[{}]", self.index()),
                1 => format!("{}.5f", self.pick(20)),
                _ => "(float)x".into(),
            };
        }
        let (l, r) = (self.float(depth - 1), self.float(depth - 1));
        match self.pick(13) {
            6 => format!("sqrt({l})"),
            7 => format!("floor({l})"),
            8 => format!("ceil({l} * 0.3f)"),
            9 => format!("trunc({l})"),
            10 => format!("fabs({l} - {r})"),
            11 => format!("fma({l}, {r}, 0.5f)"),
            12 => format!("mad({l}, 1.5f, {r})"),
            0 => format!("({l} + {r})"),
            1 => format!("({l} - {r})"),
            2 => format!("({l} * {r})"),
            3 => format!("({l} / {r})"),
            4 => format!("(-{l})"),
            _ => format!("(float)({})", self.int(depth - 1)),
        }
    }
}

/// Random kernels of id-indexed loads, integer and float arithmetic, conversions and a
/// branch on the id: the vector code leaves the interpreter's bytes, or the same fault.
#[test]
fn random_kernels_match() {
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    let (mut lanes, mut faults) = (0, 0);
    let total = 60;
    for case in 0..total {
        let (e0, e1, f0) = (g.int(3), g.int(2), g.float(2));
        let cond = match g.pick(3) {
            0 => format!("g < {}", g.pick(70)),
            1 => format!("x == {}", g.pick(64)),
            _ => format!("(uint)x - {}u < 9u", g.pick(64)),
        };
        let code = format!(
            "kernel void k(global const int *a, global const float *f, global int *oi, global float *of, global long *ol, int u) {{
    size_t g = get_global_id(0);
    int x = (int)g;
    int e = {e0};
    if ({cond}) {{ oi[g] = e; ol[g] = (long)e * {e1} + ((long)g << 33); }}
    else {{ oi[g] = {e1}; ol[g] = (long)(uint)e; }}
    of[g] = {f0};
}}"
        );
        let (glob, loc) = [(64, 16), (64, 64), (61, 61), (48, 8)][case % 4];
        let args = format!(
            "a = {{ buffer = \"int\", len = 64, init = \"range\" }}\nf = {{ buffer = \"float\", len = 64, init = \"range\" }}\noi = {{ buffer = \"int\", len = {glob} }}\nof = {{ buffer = \"float\", len = {glob} }}\nol = {{ buffer = \"long\", len = {glob} }}\nu = {{ value = {} }}",
            g.pick(1000) as i64 - 500
        );
        let text = job(&code, &[glob], &[loc], &args);
        let dir = temp_dir(&format!("random-{case}"));
        let path = dir.join("job.toml");
        std::fs::write(&path, &text).expect("write");
        let (dv, di) = (dir.join("v"), dir.join("i"));
        let (cv, _, ev) = run(&path, &["--save", &dv.to_string_lossy()], On::Native);
        if ev.contains("work-items as SIMD lanes") {
            lanes += 1;
        }
        let (ci, _, ei) = run(&path, &["--save", &di.to_string_lossy()], On::Interp);
        assert_eq!(cv, ci, "case {case}: exit codes differ\n{ev}\n{ei}\n{code}");
        if cv == 3 {
            faults += 1;
            let strip = |s: &str| {
                s.lines()
                    .filter(|l| !l.starts_with("oclc-cpu:"))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            assert_eq!(
                strip(&ev),
                strip(&ei),
                "case {case}: reports differ\n{code}"
            );
        } else {
            assert_eq!(cv, 0, "case {case}: {ev}\n{code}");
            for f in ["oi.npy", "of.npy", "ol.npy"] {
                let a = std::fs::read(dv.join(f)).expect("vector buffer");
                let b = std::fs::read(di.join(f)).expect("interpreted buffer");
                assert!(a == b, "case {case}: {f} differs\n{code}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    eprintln!("{lanes} of {total} random kernels ran as lanes, {faults} faulted");
    assert!(
        lanes * 10 >= total * 8,
        "only {lanes} of {total} ran as lanes"
    );
}

/// A kernel whose vector function would be too large to compile quickly (a long chain of
/// `double` arithmetic, lane by lane) runs one work-item at a time, says why, and leaves the
/// interpreter's bytes.
#[test]
fn large_kernels_run_one_work_item_at_a_time() {
    let mut code = String::from(
        "kernel void k(global const double *a, global double *o) { size_t i = get_global_id(0); double x = a[i];\n",
    );
    for k in 0..60 {
        code += &format!(
            "  x = x * 1.0000001 + (double)(long)(x * {}.0) - a[(i + {k}) & 63];\n",
            k % 7 + 1
        );
    }
    code += "  o[i] = x; }";
    let text = job(
        &code,
        &[64],
        &[16],
        "a = { buffer = \"double\", len = 64, init = \"range\" }\no = { buffer = \"double\", len = 64 }",
    );
    let err = same_bytes_on("large", &text, On::Native);
    assert!(
        err.contains("one work-item at a time: about") && err.contains("instructions as lanes"),
        "{err}"
    );
}

/// Builtins computed in line give the runtime's bits, NaNs included: a signaling NaN
/// through `fabs` stays signaling, arithmetic on it makes it quiet, `sqrt` of a negative is
/// the default NaN; `double` and integer forms too.
#[test]
fn builtins_in_line_match_the_runtime() {
    let code =
        "kernel void k(global const uint *bits, global float *o, global double *d, global int *m) {
    size_t i = get_global_id(0);
    global const float *f = (global const float *)bits;
    float x = f[i];
    o[i * 4] = fabs(x);
    o[i * 4 + 1] = sqrt(x - 1.0f);
    o[i * 4 + 2] = floor(x) + ceil(-x) + trunc(x * 0.5f);
    o[i * 4 + 3] = mad(x, 2.0f, fma(x, x, -1.0f));
    d[i] = fabs((double)x - 3.0) + sqrt((double)i);
    m[i] = min((int)i - 5, 3) + max((int)i, 7) + clamp((int)i * 3, 4, 20);
}";
    for fill in [2141192192u32, 4290772992, 1065353216, 2139095040] {
        let args = format!(
            "bits = {{ buffer = \"uint\", len = 32, init = {{ fill = {fill} }} }}\no = {{ buffer = \"float\", len = 128 }}\nd = {{ buffer = \"double\", len = 32 }}\nm = {{ buffer = \"int\", len = 32 }}"
        );
        same_bytes(&format!("builtins-{fill}"), &job(code, &[32], &[16], &args));
    }
}
