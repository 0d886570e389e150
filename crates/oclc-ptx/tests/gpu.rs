//! Kernels run on a real GPU (feature `cuda`). Each test skips, saying why, when there is no
//! CUDA driver or GPU.
#![cfg(feature = "cuda")]

mod common;
use common::kernels;
use oclc_ptx::FloatMode;
use oclc_ptx::cuda::{Arg, CudaDevice, CudaError, NdRange};

fn device() -> Option<CudaDevice> {
    match CudaDevice::new(0) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn load(d: &CudaDevice, src: &str) -> oclc_ptx::cuda::Program {
    let (m, sm) = common::module(src);
    match d.load(&m, Some(&sm), false) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn vector_copy() {
    let Some(d) = device() else { return };
    let p = load(&d, kernels::COPY);
    let n = 4096;
    let input: Vec<f32> = (0..n * 4).map(|i| i as f32).collect();
    let s = d.buffer_from_bytes(&bytes_f32(&input)).expect("buffer");
    let t = d.zeroed(n * 16).expect("buffer");
    let tm = d
        .launch(
            &p,
            "copy",
            &[Arg::Buffer(s), Arg::Buffer(t.clone())],
            &NdRange::new(&[n as u64]).local(&[128]),
        )
        .expect("launch");
    assert!(tm.kernel_ms >= 0.0);
    let out = f32s(&t.read().expect("read"));
    assert_eq!(out, input.iter().map(|x| x * 2.0).collect::<Vec<_>>());
}

#[test]
fn local_reduction_with_barriers_and_offset() {
    let Some(d) = device() else { return };
    let src = kernels::REDUCE;
    let p = load(&d, src);
    let input: Vec<i32> = (0..1024).collect();
    let inb = d.buffer_from_bytes(&bytes_i32(&input)).expect("buffer");
    let out = d.zeroed(8 * 4 * 2).expect("buffer");
    d.launch(
        &p,
        "reduce",
        &[
            Arg::Buffer(inb),
            Arg::Buffer(out.clone()),
            Arg::Local(128 * 4),
        ],
        &NdRange::new(&[1024]).local(&[128]).offset(&[5]),
    )
    .expect("launch");
    let got = i32s(&out.read().expect("read"));
    for g in 0..8 {
        let want: i32 = (g * 128..(g + 1) * 128).sum();
        assert_eq!(got[2 * g as usize], want, "group {g}");
        assert_eq!(got[2 * g as usize + 1], g * 128, "group {g}");
    }
}

#[test]
fn atomics_global_and_local() {
    let Some(d) = device() else { return };
    let src = kernels::HIST;
    let p = load(&d, src);
    let input: Vec<i32> = (0..2048).map(|i| (i * 7) % 37).collect();
    let inb = d.buffer_from_bytes(&bytes_i32(&input)).expect("buffer");
    let bins = d.zeroed(64).expect("buffer");
    let total = d.zeroed(8).expect("buffer");
    d.launch(
        &p,
        "hist",
        &[
            Arg::Buffer(inb),
            Arg::Buffer(bins.clone()),
            Arg::Buffer(total.clone()),
        ],
        &NdRange::new(&[2048]).local(&[64]),
    )
    .expect("launch");
    let mut want = [0i32; 16];
    for x in &input {
        want[(*x as usize) % 16] += 1;
    }
    assert_eq!(i32s(&bins.read().expect("read")), want.to_vec());
    assert_eq!(i32s(&total.read().expect("read")), vec![2048, 2047]);
}

#[test]
fn generic_pointers_keep_null_and_spaces() {
    let Some(d) = device() else { return };
    let src = kernels::GENERIC;
    let p = load(&d, src);
    let g = d.buffer_from_bytes(&bytes_i32(&[1, 2, 3])).expect("buffer");
    let out = d.zeroed(40).expect("buffer");
    d.launch(
        &p,
        "gen",
        &[Arg::Buffer(g), Arg::Buffer(out.clone())],
        &NdRange::new(&[1]),
    )
    .expect("launch");
    assert_eq!(
        i32s(&out.read().expect("read")),
        vec![6, 60, 600, 1, 1, 1, 1, 1, 2, 1]
    );
}

#[test]
fn math_and_conversions() {
    let Some(d) = device() else { return };
    let src = kernels::MATH;
    let p = load(&d, src);
    let xs = [2.0f32, 3.0, 5.0, 7.0];
    let x = d.buffer_from_bytes(&bytes_f32(&xs)).expect("buffer");
    let o = d.zeroed(16 * 4).expect("buffer");
    let f = d.zeroed(12 * 4).expect("buffer");
    d.launch(
        &p,
        "m",
        &[
            Arg::Buffer(x),
            Arg::Buffer(o.clone()),
            Arg::Buffer(f.clone()),
        ],
        &NdRange::new(&[1]),
    )
    .expect("launch");
    let oi = i32s(&o.read().expect("read"));
    assert_eq!(
        oi,
        vec![
            i32::MAX,
            2,
            0,
            31,
            8,
            3,
            2,
            i32::MAX,
            1,
            0x3f80_0000,
            4464,
            43,
            -3,
            -2,
            1,
            -4
        ]
    );
    let fo = f32s(&f.read().expect("read"));
    assert_eq!(fo[0], 2.0f32.sqrt());
    assert_eq!(fo[1], 7.0);
    assert_eq!(fo[2], 2.0);
    assert_eq!(fo[3], -3.0);
    assert_eq!(fo[4], 2.0f32 / 3.0);
    assert_eq!(fo[5], -2.0);
    assert_eq!(fo[6], 2147483648.0);
    assert_eq!(fo[7], 2.0);
    assert_eq!(&fo[8..12], &[7.0, 5.0, 3.0, 2.0]);
}

#[test]
fn program_scope_globals_persist_between_launches() {
    let Some(d) = device() else { return };
    let src = kernels::GLOBALS;
    let p = load(&d, src);
    let out = d.zeroed(4).expect("buffer");
    for _ in 0..3 {
        d.launch(&p, "bump", &[Arg::Buffer(out.clone())], &NdRange::new(&[1]))
            .expect("launch");
    }
    assert_eq!(i32s(&out.read().expect("read")), vec![46]);
    assert_eq!(
        d.read_global(&p, "counter").expect("read"),
        Some(46i32.to_le_bytes().to_vec())
    );
}

#[test]
fn ptxas_errors_come_back_as_text() {
    let Some(d) = device() else { return };
    let bad = oclc_ptx::PtxModule {
        text: format!(
            ".version 7.8\n.target {}\n.address_size 64\n.visible .entry k() {{ bogus.instr; }}\n",
            d.target()
        ),
        kernels: Vec::new(),
        globals: Vec::new(),
        printf: Vec::new(),
        checks: Vec::new(),
    };
    match d.load_ptx(bad) {
        Err(CudaError::Ptxas(log)) => assert!(!log.is_empty()),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("bogus PTX loaded"),
    }
}

#[test]
fn argument_errors() {
    let Some(d) = device() else { return };
    let p = load(&d, kernels::ARGS);
    let a = d.zeroed(4).expect("buffer");
    let r = d.launch(&p, "k", &[Arg::Buffer(a.clone())], &NdRange::new(&[1]));
    assert!(matches!(r, Err(CudaError::ArgCount { .. })), "{r:?}");
    let r = d.launch(&p, "nope", &[], &NdRange::new(&[1]));
    assert!(matches!(r, Err(CudaError::NoSuchKernel(_))), "{r:?}");
    d.launch(
        &p,
        "k",
        &[
            Arg::Buffer(a.clone()),
            Arg::Bytes(7i32.to_le_bytes().to_vec()),
        ],
        &NdRange::new(&[1]),
    )
    .expect("launch");
    assert_eq!(i32s(&a.read().expect("read")), vec![7]);
}

#[test]
fn builtins_with_output_pointers() {
    let Some(d) = device() else { return };
    let p = load(&d, kernels::OUTPUTS);
    let xs = [-1.25f32, -2.75, 12.0, 1.0e-40, 0.0, f32::INFINITY];
    let x = d.buffer_from_bytes(&bytes_f32(&xs)).expect("buffer");
    let f = d.zeroed(8 * 4).expect("buffer");
    let e = d.zeroed(5 * 4).expect("buffer");
    let dd = d.zeroed(8).expect("buffer");
    d.launch(
        &p,
        "outs",
        &[
            Arg::Buffer(x),
            Arg::Buffer(f.clone()),
            Arg::Buffer(e.clone()),
            Arg::Buffer(dd.clone()),
        ],
        &NdRange::new(&[1]),
    )
    .expect("launch");
    let fo = f32s(&f.read().expect("read"));
    assert_eq!(&fo[..4], &[0.75, -2.0, -0.75, -2.0]);
    assert_eq!(fo[4], 0.75);
    let (m, ex) = frexp_ref(1.0e-40);
    assert_eq!(fo[5], m);
    assert_eq!(fo[6], 0.0);
    assert_eq!(fo[7], f32::INFINITY);
    let eo = i32s(&e.read().expect("read"));
    assert_eq!(eo, vec![4, ex, 0, 0, 4]);
    let dv = dd.read().expect("read");
    assert_eq!(f64::from_le_bytes(dv[..8].try_into().expect("8")), 0.75);
}

/// Reference frexp for a positive subnormal or normal float.
fn frexp_ref(x: f32) -> (f32, i32) {
    let mut e = 0;
    let mut m = x;
    while m < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    while m >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    (m, e)
}

/// Error of `got` in units of the last place of the f32 nearest to `want`.
fn ulps(got: f32, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    let w = want as f32;
    if w.is_infinite() || got.is_infinite() {
        return if got == w { 0.0 } else { f64::INFINITY };
    }
    let exp = if w == 0.0 {
        -126
    } else {
        (w.abs().log2().floor() as i32).max(-126)
    };
    let ulp = 2f64.powi(exp - 23);
    (got as f64 - want).abs() / ulp
}

#[test]
fn exp_and_log_within_three_ulps() {
    let Some(d) = device() else { return };
    let p = load(&d, kernels::EXP_LOG);
    let mut xs: Vec<f32> = (-2000..2000).map(|i| i as f32 * 0.0573).collect();
    // Around 1, where the logarithm's result is small (its series carries it).
    xs.extend((0..4000).map(|i| 0.6 + i as f32 * 0.0002));
    // Every 8 191st float of either sign: each binade, subnormals and the overflow edges;
    // every 1 021st below 104 in magnitude, where exp's result is neither 0 nor infinite.
    for sign in [0, 0x8000_0000u32] {
        xs.extend(
            (0..0x7F80_0000u32)
                .step_by(8191)
                .map(|b| f32::from_bits(b | sign)),
        );
        xs.extend(
            (0..0x42D0_0000u32)
                .step_by(1021)
                .map(|b| f32::from_bits(b | sign)),
        );
    }
    xs.extend([
        0.0,
        -0.0,
        1.0,
        1.0 + f32::EPSILON,
        1.0 - f32::EPSILON / 2.0,
        1e-40,
        1e-30,
        3.0e38,
        88.7,
        -103.0,
        -150.0,
        1e-8,
    ]);
    xs.extend([
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        0.5,
        2.0,
        10.0,
        1000.0,
        7.3e-3,
    ]);
    while !xs.len().is_multiple_of(64) {
        xs.push(1.5);
    }
    let x = d.buffer_from_bytes(&bytes_f32(&xs)).expect("buffer");
    let o = d.zeroed(xs.len() * 24).expect("buffer");
    d.launch(
        &p,
        "el",
        &[Arg::Buffer(x), Arg::Buffer(o.clone())],
        &NdRange::new(&[xs.len() as u64]).local(&[64]),
    )
    .expect("launch");
    let out = f32s(&o.read().expect("read"));
    let mut worst = [0f64; 6];
    for (i, v) in xs.iter().enumerate() {
        let v64 = *v as f64;
        let want = [
            v64.exp(),
            v64.exp2(),
            10f64.powf(v64),
            v64.ln(),
            v64.log2(),
            v64.log10(),
        ];
        for k in 0..6 {
            let e = ulps(out[6 * i + k], want[k]);
            assert!(
                e <= 3.0,
                "function {k} of {v:e}: got {:e}, want {:e} ({e} ulp)",
                out[6 * i + k],
                want[k]
            );
            worst[k] = worst[k].max(e);
        }
    }
    eprintln!("worst ulp errors (exp, exp2, exp10, log, log2, log10): {worst:?}");
}

#[test]
fn trigonometry_within_spec_ulps() {
    let Some(d) = device() else { return };
    let p = load(&d, kernels::TRIG);
    let mut xs: Vec<f32> = (-3000..3000).map(|i| i as f32 * 0.01234).collect();
    xs.extend((0..2000).map(|i| 1.37f32.powi(i % 280) * if i % 2 == 0 { 1.0 } else { -1.0 }));
    // The floats nearest multiples of π/2 up to the fast reduction's bound (2^17) and past
    // it: the remainder cancels most there.
    for k in (1..90_000u32).step_by(89) {
        let x = (f64::from(k) * std::f64::consts::FRAC_PI_2) as f32;
        xs.extend([
            x,
            f32::from_bits(x.to_bits() + 1),
            f32::from_bits(x.to_bits() - 1),
        ]);
    }
    xs.extend([131_071.99, 131_072.0, 131_072.02, -131_071.99]);
    // Every 4 099th float of either sign below 2^17 (single-precision reduction below
    // 105 615, double above).
    for sign in [0, 0x8000_0000u32] {
        xs.extend(
            (0..0x4800_0000u32)
                .step_by(4099)
                .map(|b| f32::from_bits(b | sign)),
        );
    }
    xs.extend([105_614.99, 105_615.0, 105_615.01, -105_615.0]);
    xs.extend([
        0.0,
        -0.0,
        1e-40,
        -1e-30,
        0.78,
        std::f32::consts::FRAC_PI_4,
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::PI,
        1e5,
        1e10,
        3.4e38,
        -3.4e38,
    ]);
    xs.extend([
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        16_777_216.0,
        102_940.73,
        2.2e25,
    ]);
    while !xs.len().is_multiple_of(64) {
        xs.push(0.5);
    }
    let x = d.buffer_from_bytes(&bytes_f32(&xs)).expect("buffer");
    let o = d.zeroed(xs.len() * 20).expect("buffer");
    d.launch(
        &p,
        "trig",
        &[Arg::Buffer(x), Arg::Buffer(o.clone())],
        &NdRange::new(&[xs.len() as u64]).local(&[64]),
    )
    .expect("launch");
    let out = f32s(&o.read().expect("read"));
    let mut worst = [0f64; 5];
    for (i, v) in xs.iter().enumerate() {
        let v64 = *v as f64;
        let want = [v64.sin(), v64.cos(), v64.tan(), v64.sin(), v64.cos()];
        let limit = [4.0, 4.0, 5.0, 4.0, 4.0];
        for k in 0..5 {
            let e = ulps(out[5 * i + k], want[k]);
            assert!(
                e <= limit[k],
                "function {k} of {v:e}: got {:e}, want {:e} ({e} ulp)",
                out[5 * i + k],
                want[k]
            );
            worst[k] = worst[k].max(e);
        }
        if *v == 0.0 {
            assert_eq!(out[5 * i].to_bits(), v.to_bits(), "sin(±0) keeps the sign");
        }
    }
    eprintln!("worst ulp errors (sin, cos, tan, sincos.sin, sincos.cos): {worst:?}");
}

fn median(mut v: Vec<f32>) -> f32 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// 64 MiB copies: a `uint` kernel, a `float4` kernel and a generic-pointer kernel against
/// `cuMemcpyDtoD` (median of 20 runs after a warm-up).
#[test]
fn copy_bandwidth_against_memcpy() {
    let Some(d) = device() else { return };
    let src = "
kernel void copy_u(global const uint *s, global uint *t) { size_t i = get_global_id(0); t[i] = s[i]; }
kernel void copy_v(global const uint4 *s, global uint4 *t) { size_t i = get_global_id(0); t[i] = s[i]; }
void cp(const uint *s, uint *t, size_t i) { t[i] = s[i]; }
kernel void copy_g(global const uint *s, global uint *t) { cp(s, t, get_global_id(0)); }";
    let p = load(&d, src);
    const BYTES: usize = 64 << 20;
    let init: Vec<u8> = (0..BYTES).map(|i| (i % 251) as u8).collect();
    let s = d.buffer_from_bytes(&init).expect("buffer");
    let t = d.zeroed(BYTES).expect("buffer");
    let run = |f: &dyn Fn() -> f32| {
        f();
        median((0..20).map(|_| f()).collect())
    };
    let memcpy = run(&|| d.copy(&s, &t).expect("copy").kernel_ms);
    let mut times = Vec::new();
    for (k, n) in [
        ("copy_u", BYTES / 4),
        ("copy_v", BYTES / 16),
        ("copy_g", BYTES / 4),
    ] {
        let ms = run(&|| {
            d.launch(
                &p,
                k,
                &[Arg::Buffer(s.clone()), Arg::Buffer(t.clone())],
                &NdRange::new(&[n as u64]).local(&[256]),
            )
            .expect("launch")
            .kernel_ms
        });
        assert_eq!(t.read().expect("read"), init, "{k}");
        times.push((k, ms));
    }
    let gbs = |ms: f32| 2.0 * BYTES as f64 / (ms as f64 * 1e-3) / 1e9;
    eprintln!("cuMemcpyDtoD: {memcpy:.4} ms, {:.0} GB/s", gbs(memcpy));
    for (k, ms) in &times {
        eprintln!(
            "{k}: {ms:.4} ms, {:.0} GB/s ({:.0}% of memcpy)",
            gbs(*ms),
            100.0 * memcpy / ms
        );
        assert!(*ms < memcpy * 2.0, "{k} is far slower than memcpy");
    }
}

/// A file of the repository's examples/ (from the source tree, or the current directory when
/// the test binary runs elsewhere).
fn example(name: &str) -> Vec<u8> {
    let mut p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    if !p.exists() {
        p = std::path::Path::new("examples").join(name);
    }
    match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) => panic!("{}: {e}", p.display()),
    }
}

/// examples/reduce.toml, examples/histogram.toml and examples/matmul.toml on the GPU.
#[test]
fn repository_examples_match_their_run_files() {
    let Some(d) = device() else { return };
    let text = |n: &str| String::from_utf8(example(n)).expect("utf-8");

    let p = load(&d, &text("reduce.cl"));
    let values: Vec<u8> = (0..1u32 << 20).flat_map(|i| i.to_le_bytes()).collect();
    let v = d.buffer_from_bytes(&values).expect("buffer");
    let partial = d.zeroed(64 * 8).expect("buffer");
    d.launch(
        &p,
        "reduce",
        &[
            Arg::Buffer(v),
            Arg::Buffer(partial.clone()),
            Arg::Local(256 * 8),
            Arg::Bytes(64u32.to_le_bytes().to_vec()),
        ],
        &NdRange::new(&[16384]).local(&[256]),
    )
    .expect("launch reduce");
    let got: Vec<u64> = partial
        .read()
        .expect("read")
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8")))
        .collect();
    let want: Vec<u64> = (0..64).map(|g| 134_209_536 + 268_435_456 * g).collect();
    assert_eq!(got, want);

    let p = load(&d, &text("histogram.cl"));
    let data = example("histogram_data.bin");
    let mut want = vec![0i32; 256];
    for b in &data {
        want[*b as usize] += 1;
    }
    let db = d.buffer_from_bytes(&data).expect("buffer");
    let hist = d.zeroed(256 * 4).expect("buffer");
    d.launch(
        &p,
        "histogram",
        &[
            Arg::Buffer(db),
            Arg::Bytes((data.len() as u32).to_le_bytes().to_vec()),
            Arg::Buffer(hist.clone()),
        ],
        &NdRange::new(&[4096]).local(&[128]),
    )
    .expect("launch histogram");
    assert_eq!(i32s(&hist.read().expect("read")), want);

    let p = load(&d, &text("matmul.cl"));
    let a = d
        .buffer_from_bytes(&example("matmul_a.bin"))
        .expect("buffer");
    let b = d
        .buffer_from_bytes(&example("matmul_b.bin"))
        .expect("buffer");
    let c = d.zeroed(128 * 128 * 4).expect("buffer");
    d.launch(
        &p,
        "matmul",
        &[
            Arg::Buffer(a),
            Arg::Buffer(b),
            Arg::Buffer(c.clone()),
            Arg::Bytes(128u32.to_le_bytes().to_vec()),
        ],
        &NdRange::new(&[128, 128]).local(&[16, 16]),
    )
    .expect("launch matmul");
    assert_eq!(c.read().expect("read"), example("matmul_c.bin"));
}

#[test]
fn work_group_collectives() {
    let Some(d) = device() else { return };
    let m = common::collectives_module();
    let p = d.load(&m, None, false).expect("load");
    let o = d.zeroed(128 * 20).expect("buffer");
    d.launch(
        &p,
        "wg",
        &[Arg::Buffer(o.clone())],
        &NdRange::new(&[128]).local(&[64]),
    )
    .expect("launch");
    let got = i32s(&o.read().expect("read"));
    for g in 0..128 {
        let v = (g % 64) as i32 + 1;
        let row = &got[5 * g..5 * g + 5];
        assert_eq!(
            row,
            &[
                64 * 65 / 2,
                v * (v + 1) / 2,
                if v == 1 { i32::MIN } else { v - 1 },
                4,
                1
            ],
            "item {g}"
        );
    }
}

/// `vload4`/`vstore4` through parameters: whole 16-byte accesses when the arguments are
/// aligned (a launch variant), per lane when an SVM address is only 4-byte aligned (a
/// 16-byte access there would fault).
#[test]
fn vector_loads_and_stores_at_any_alignment() {
    let Some(d) = device() else { return };
    let src = "kernel void vmove(global const float *a, global float *o) {\n\
        size_t i = get_global_id(0);\n\
        vstore4(vload4(i, a) * 2.0f, i, o);\n\
    }\n";
    let p = load(&d, src);
    let n = 1024usize;
    let input: Vec<f32> = (0..n * 4).map(|i| i as f32 - 7.5).collect();
    let want: Vec<f32> = input.iter().map(|x| x * 2.0).collect();
    let range = NdRange::new(&[n as u64]).local(&[64]);
    let a = d.buffer_from_bytes(&bytes_f32(&input)).expect("buffer");
    let o = d.zeroed(n * 16).expect("buffer");
    d.launch(
        &p,
        "vmove",
        &[Arg::Buffer(a), Arg::Buffer(o.clone())],
        &range,
    )
    .expect("aligned launch");
    assert_eq!(f32s(&o.read().expect("read")), want);
    let (sa, so) = match (d.managed(n * 16 + 16), d.managed(n * 16 + 16)) {
        (Ok(a), Ok(o)) => (a, o),
        _ => {
            eprintln!("skipping the misaligned half: no managed memory");
            return;
        }
    };
    sa.write_at(4, &bytes_f32(&input)).expect("write");
    let args = [
        Arg::Address(sa.address() + 4),
        Arg::Address(so.address() + 4),
    ];
    d.launch(&p, "vmove", &args, &range)
        .expect("misaligned launch");
    let mut out = vec![0u8; n * 16];
    so.read_at(4, &mut out).expect("read");
    assert_eq!(f32s(&out), want);
}

/// Single-precision `/` and `sqrt`: within OpenCL's 2.5 and 3 ulp by default (`div.full`,
/// `sqrt.approx`), correctly rounded under `-cl-fp32-correctly-rounded-divide-sqrt`.
#[test]
fn division_and_sqrt_within_spec_or_exact() {
    let Some(d) = device() else { return };
    let src = "kernel void ds(global const float *a, global const float *b, global float *o) {\n\
        size_t i = get_global_id(0);\n\
        o[2 * i] = a[i] / b[i];\n\
        o[2 * i + 1] = sqrt(a[i]);\n\
    }\n";
    let mut a: Vec<f32> = Vec::new();
    let mut b: Vec<f32> = Vec::new();
    // Every 65 521st float as the dividend against divisors across the range, subnormal
    // quotients and operands included.
    let divisors = [
        1.0f32, 3.0, 0.1, 7.0e-39, 1.0e-30, 6.0e20, 3.0e38, 1.0e-45, 255.0,
    ];
    for (k, bits) in (0..0x7F80_0000u32).step_by(65_521).enumerate() {
        a.push(f32::from_bits(bits));
        b.push(divisors[k % divisors.len()] * if k % 3 == 0 { -1.0 } else { 1.0 });
    }
    a.extend([0.0, 1.0, f32::INFINITY, 5.0, f32::NAN, 1.0e-40]);
    b.extend([0.0, 0.0, f32::INFINITY, f32::INFINITY, 2.0, 3.0e-39]);
    while !a.len().is_multiple_of(64) {
        a.push(2.0);
        b.push(3.0);
    }
    let (m, sm) = common::module(src);
    for exact in [false, true] {
        let mode = FloatMode {
            fast_math: false,
            exact_div_sqrt: exact,
        };
        let p = d.load(&m, Some(&sm), mode).expect("load");
        let ab = d.buffer_from_bytes(&bytes_f32(&a)).expect("buffer");
        let bb = d.buffer_from_bytes(&bytes_f32(&b)).expect("buffer");
        let o = d.zeroed(a.len() * 8).expect("buffer");
        d.launch(
            &p,
            "ds",
            &[Arg::Buffer(ab), Arg::Buffer(bb), Arg::Buffer(o.clone())],
            &NdRange::new(&[a.len() as u64]).local(&[64]),
        )
        .expect("launch");
        let out = f32s(&o.read().expect("read"));
        let mut worst = [0f64; 2];
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            let (q, r) = (out[2 * i], out[2 * i + 1]);
            if exact {
                // Correctly rounded: the host's result (any NaN for a NaN).
                let same = |got: f32, want: f32| {
                    got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan()
                };
                assert!(same(q, x / y), "{x:e} / {y:e}: got {q:e}");
                assert!(same(r, x.sqrt()), "sqrt {x:e}: got {r:e}");
                continue;
            }
            let (eq, er) = (
                ulps(q, f64::from(*x) / f64::from(*y)),
                ulps(r, f64::from(*x).sqrt()),
            );
            assert!(eq <= 2.5, "{x:e} / {y:e}: got {q:e} ({eq} ulp)");
            assert!(er <= 3.0, "sqrt {x:e}: got {r:e} ({er} ulp)");
            worst = [worst[0].max(eq), worst[1].max(er)];
        }
        if !exact {
            eprintln!("worst ulp errors (division, sqrt): {worst:?}");
        }
    }
}
