//! Double-precision math on a real GPU (feature `cuda`): every double builtin over the host
//! tests' inputs, asserting the OpenCL ULP limits against the cpu device's runtime and
//! bit-for-bit agreement with `oclc_ptx::dmath::eval` (the host model of the same PTX).
//! Skips, saying why, without a CUDA driver or GPU.
#![cfg(feature = "cuda")]

mod common;
mod dmath_support;
use dmath_support::*;
use oclc_ptx::cuda::{Arg, CudaDevice, NdRange};
use oclc_ptx::dmath::eval;

fn kernel_source() -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    for (name, args, _) in FUNCTIONS {
        let call = match args {
            Args::X => format!("{name}(x[i])"),
            Args::XY => format!("{name}(x[i], y[i])"),
            Args::XN => format!("{name}(x[i], n[i])"),
        };
        s.push_str(&format!(
            "kernel void k_{name}(global const double *x, global const double *y, \
             global const int *n, global double *o, global int *q) {{\n\
             size_t i = get_global_id(0); o[i] = {call}; }}\n"
        ));
    }
    s.push_str(
        "kernel void k_outs(global const double *x, global const double *y, global double *o,\n\
         global int *q) {\n\
         size_t i = get_global_id(0);\n\
         int a, b; double c;\n\
         o[4 * i] = remquo(x[i], y[i], &a);\n\
         o[4 * i + 1] = lgamma_r(x[i], &b);\n\
         o[4 * i + 2] = sincos(x[i], &c);\n\
         o[4 * i + 3] = c;\n\
         q[2 * i] = a; q[2 * i + 1] = b; }\n",
    );
    s
}

fn bytes<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|x| f(*x)).collect()
}

fn f64s(v: Vec<u8>) -> Vec<f64> {
    v.chunks_exact(8)
        .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect()
}

fn i32s(v: Vec<u8>) -> Vec<i32> {
    v.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Same value bit for bit (any NaN matches any NaN).
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn double_precision_math_on_the_gpu() {
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let (m, sm) = common::module(&kernel_source());
    let p = d
        .load(&m, Some(&sm), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let xs = inputs(30_000, 0xd0b1e);
    let len = xs.len();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let xb = d
        .buffer_from_bytes(&bytes(&xs, f64::to_le_bytes))
        .expect("buffer");
    for (name, args, limit) in FUNCTIONS {
        // The host test's partners and int arguments, drawn the same way.
        let mut r = Lcg(17);
        let mut ys = Vec::with_capacity(len);
        let mut ns = Vec::with_capacity(len);
        for i in 0..len {
            ys.push(partner(&xs, i, &mut r));
            ns.push(int_arg(name, i, &mut r));
        }
        let yb = d
            .buffer_from_bytes(&bytes(&ys, f64::to_le_bytes))
            .expect("buffer");
        let nb = d
            .buffer_from_bytes(&bytes(&ns, i32::to_le_bytes))
            .expect("buffer");
        let o = d.zeroed(len * 8).expect("buffer");
        let q = d.zeroed(len * 4).expect("buffer");
        d.launch(
            &p,
            &format!("k_{name}"),
            &[
                Arg::Buffer(xb.clone()),
                Arg::Buffer(yb),
                Arg::Buffer(nb),
                Arg::Buffer(o.clone()),
                Arg::Buffer(q),
            ],
            &NdRange::new(&[len as u64]),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = f64s(o.read().expect("read"));
        let (mut worst, mut bad, mut differ) = (0f64, 0usize, 0usize);
        for i in 0..len {
            let (x, y, n, got) = (xs[i], ys[i], ns[i], out[i]);
            let model = eval(name, x, y, n).expect("implemented").value;
            if !same(got, model) {
                differ += 1;
                if differ <= 3 {
                    failures.push(format!(
                        "{name}({x:e}, {y:e}, {n}): GPU {got:e} but host model {model:e}"
                    ));
                }
            }
            let (want, _) = cpu(name, *args, x, y, n);
            let (ok, err) = accept(name, got, want, *limit);
            let ok = ok || snan_pow_one(name, x, y, got, want);
            // Where the cpu runtime is inexact, the host model (checked against
            // high-precision values by the host tests) is the reference above.
            if ok || cpu_inexact(name, x) {
                worst = worst.max(if ok { err } else { 0.0 });
            } else {
                bad += 1;
                if bad <= 3 {
                    failures.push(format!(
                        "{name}({x:e}, {y:e}, {n}): got {got:e}, want {want:e} ({err} ulp)"
                    ));
                }
            }
        }
        report.push(format!(
            "{name}: max {worst:.3} ulp (limit {limit}), {bad} bad, {differ} differ from the host model"
        ));
    }
    eprintln!("{len} inputs per function\n{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn double_pointer_outputs_on_the_gpu() {
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let (m, sm) = common::module(&kernel_source());
    let p = d
        .load(&m, Some(&sm), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let xs = inputs(20_000, 0x5eed);
    let mut r = Lcg(3);
    let ys: Vec<f64> = (0..xs.len()).map(|i| partner(&xs, i, &mut r)).collect();
    let len = xs.len();
    let xb = d
        .buffer_from_bytes(&bytes(&xs, f64::to_le_bytes))
        .expect("buffer");
    let yb = d
        .buffer_from_bytes(&bytes(&ys, f64::to_le_bytes))
        .expect("buffer");
    let o = d.zeroed(len * 32).expect("buffer");
    let q = d.zeroed(len * 8).expect("buffer");
    d.launch(
        &p,
        "k_outs",
        &[
            Arg::Buffer(xb),
            Arg::Buffer(yb),
            Arg::Buffer(o.clone()),
            Arg::Buffer(q.clone()),
        ],
        &NdRange::new(&[len as u64]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (o, q) = (f64s(o.read().expect("read")), i32s(q.read().expect("read")));
    let mut failures = Vec::new();
    for i in 0..len {
        let (x, y) = (xs[i], ys[i]);
        let rq = eval("remquo", x, y, 0).expect("remquo");
        let lg = eval("lgamma_r", x, 0.0, 0).expect("lgamma_r");
        let sc = eval("sincos", x, 0.0, 0).expect("sincos");
        let checks = [
            (
                "remquo",
                same(o[4 * i], rq.value) && Some(q[2 * i]) == rq.int,
            ),
            (
                "lgamma_r",
                same(o[4 * i + 1], lg.value) && Some(q[2 * i + 1]) == lg.int,
            ),
            ("sincos", same(o[4 * i + 2], sc.value)),
            (
                "sincos's cosine",
                sc.second.is_some_and(|c| same(o[4 * i + 3], c)),
            ),
        ];
        for (name, ok) in checks {
            if !ok && failures.len() < 20 {
                failures.push(format!("{name}({x:e}, {y:e}) differs from the host model"));
            }
        }
        // The ints against the cpu runtime too.
        let (_, cq) = cpu("remquo", Args::XY, x, y, 0);
        let (_, cs) = cpu("lgamma_r", Args::X, x, 0.0, 0);
        if (cq != Some(q[2 * i]) || cs != Some(q[2 * i + 1])) && failures.len() < 20 {
            failures.push(format!(
                "ints of ({x:e}, {y:e}): GPU ({}, {}), cpu ({cq:?}, {cs:?})",
                q[2 * i],
                q[2 * i + 1]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn double_geometric_on_the_gpu() {
    use oclc_ptx::dmath::eval_geometric;
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
               kernel void g(global const double4 *a, global const double4 *b, global double *o,\n\
               global double4 *n) {\n\
               size_t i = get_global_id(0);\n\
               o[2 * i] = length(a[i]);\n\
               o[2 * i + 1] = distance(a[i], b[i]);\n\
               n[i] = normalize(a[i]);\n\
               }\n";
    let (m, sm) = common::module(src);
    let p = d
        .load(&m, Some(&sm), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let xs = inputs(8_000, 0x9e0);
    let mut r = Lcg(5);
    let count = 4096;
    let mut pick = |k: usize| {
        let v = xs[(r.next() % xs.len() as u64) as usize];
        match r.next() % 8 {
            0 => v,
            1 => v.clamp(-1e300, 1e300),
            _ => (r.unit() - 0.5) * 10f64.powi((k % 40) as i32 - 20),
        }
    };
    let a: Vec<f64> = (0..count * 4).map(|k| pick(k / 4)).collect();
    let b: Vec<f64> = (0..count * 4).map(|k| pick(k / 4)).collect();
    let ab = d
        .buffer_from_bytes(&bytes(&a, f64::to_le_bytes))
        .expect("buffer");
    let bb = d
        .buffer_from_bytes(&bytes(&b, f64::to_le_bytes))
        .expect("buffer");
    let o = d.zeroed(count * 16).expect("buffer");
    let n = d.zeroed(count * 32).expect("buffer");
    d.launch(
        &p,
        "g",
        &[
            Arg::Buffer(ab),
            Arg::Buffer(bb),
            Arg::Buffer(o.clone()),
            Arg::Buffer(n.clone()),
        ],
        &NdRange::new(&[count as u64]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (o, n) = (f64s(o.read().expect("read")), f64s(n.read().expect("read")));
    for i in 0..count {
        let (pa, pb) = (&a[4 * i..4 * i + 4], &b[4 * i..4 * i + 4]);
        let len = eval_geometric("length", pa, pb).expect("length");
        let dist = eval_geometric("distance", pa, pb).expect("distance");
        let norm = eval_geometric("normalize", pa, pb).expect("normalize");
        assert!(
            same(o[2 * i], len[0]),
            "length({pa:?}): GPU {:e}, host {:e}",
            o[2 * i],
            len[0]
        );
        assert!(
            same(o[2 * i + 1], dist[0]),
            "distance({pa:?}, {pb:?}): GPU {:e}, host {:e}",
            o[2 * i + 1],
            dist[0]
        );
        for k in 0..4 {
            assert!(
                same(n[4 * i + k], norm[k]),
                "normalize({pa:?}) lane {k}: GPU {:e}, host {:e}",
                n[4 * i + k],
                norm[k]
            );
        }
    }
}

/// Half-precision builtins with pointer outputs, `dot` and the geometric functions: the other
/// builtins the cpu device runs on half that PTX once reported unsupported.
#[test]
fn half_outputs_dot_and_geometric_on_the_gpu() {
    use oclc_cpu::runtime::builtin::Builtin;
    use oclc_cpu::runtime::dispatch::{call, call_scalar};
    use oclc_cpu::runtime::half::Half;
    use oclc_cpu::runtime::scalar::{Lanes, Scalar};
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
               kernel void h(global const half *x, global const half *y, global half *o,\n\
               global int *q, global const half4 *a, global const half4 *b, global half4 *n) {\n\
               size_t i = get_global_id(0);\n\
               half f, m, c; int e, s, t;\n\
               o[8 * i] = fract(x[i], &f); o[8 * i + 1] = f;\n\
               o[8 * i + 2] = modf(x[i], &m); o[8 * i + 3] = m;\n\
               o[8 * i + 4] = frexp(x[i], &e);\n\
               o[8 * i + 5] = remquo(x[i], y[i], &s);\n\
               o[8 * i + 6] = sincos(x[i], &c); o[8 * i + 7] = c;\n\
               (void)lgamma_r(x[i], &t);\n\
               q[3 * i] = e; q[3 * i + 1] = s; q[3 * i + 2] = t;\n\
               n[3 * i] = normalize(a[i]);\n\
               n[3 * i + 1] = (half4)(dot(a[i], b[i]), length(a[i]), distance(a[i], b[i]), 0);\n\
               }\n";
    let (m, sm) = common::module(src);
    let p = d
        .load(&m, Some(&sm), false)
        .unwrap_or_else(|e| panic!("{e}"));
    // Every half bit pattern as x, partners from a generator.
    let count = 65536usize;
    let mut r = Lcg(9);
    let xs: Vec<u16> = (0..count).map(|k| k as u16).collect();
    let ys: Vec<u16> = (0..count).map(|_| r.next() as u16).collect();
    let vs: Vec<u16> = (0..count * 4)
        .map(|_| {
            let b = r.next() as u16;
            // Mostly finite lanes (exponent below 31).
            if b & 0x7c00 == 0x7c00 && !r.next().is_multiple_of(4) {
                b & 0xbfff
            } else {
                b
            }
        })
        .collect();
    let ws: Vec<u16> = (0..count * 4).map(|_| r.next() as u16 & 0xbbff).collect();
    let buf = |v: &[u16]| {
        d.buffer_from_bytes(&bytes(v, u16::to_le_bytes))
            .expect("buffer")
    };
    let (xb, yb, ab, bb) = (buf(&xs), buf(&ys), buf(&vs), buf(&ws));
    let o = d.zeroed(count * 16).expect("buffer");
    let q = d.zeroed(count * 12).expect("buffer");
    let n = d.zeroed(count * 8 * 3).expect("buffer");
    d.launch(
        &p,
        "h",
        &[
            Arg::Buffer(xb),
            Arg::Buffer(yb),
            Arg::Buffer(o.clone()),
            Arg::Buffer(q.clone()),
            Arg::Buffer(ab),
            Arg::Buffer(bb),
            Arg::Buffer(n.clone()),
        ],
        &NdRange::new(&[count as u64]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let h16 = |v: Vec<u8>| -> Vec<u16> {
        v.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let (o, q, n) = (
        h16(o.read().expect("read")),
        i32s(q.read().expect("read")),
        h16(n.read().expect("read")),
    );
    let hv = |b: u16| Scalar::F16(Half(b));
    let bits = |s: Scalar| match s {
        Scalar::F16(h) => h.0,
        other => panic!("not half: {other:?}"),
    };
    let int = |s: Option<Scalar>| match s {
        Some(Scalar::I32(v)) => v,
        other => panic!("not int: {other:?}"),
    };
    let same_h = |a: u16, b: u16| a == b || (Half(a).is_nan() && Half(b).is_nan());
    let ulps = |a: u16, b: u16| (f64::from(a & 0x7fff) - f64::from(b & 0x7fff)).abs();
    let mut failures = Vec::new();
    let mut fail = |msg: String| {
        if failures.len() < 30 {
            failures.push(msg);
        }
    };
    let scalar = |name: &str, args: &[Scalar]| {
        call_scalar(Builtin::from_name(name).expect("builtin"), args).expect("cpu call")
    };
    for i in 0..count {
        let (x, y) = (xs[i], ys[i]);
        let (fr, fl) = scalar("fract", &[hv(x)]);
        let (mf, mi) = scalar("modf", &[hv(x)]);
        let (fm, fe) = scalar("frexp", &[hv(x)]);
        let (rq, rn) = scalar("remquo", &[hv(x), hv(y)]);
        let (sn, cs) = scalar("sincos", &[hv(x)]);
        let (_, lgs) = scalar("lgamma_r", &[hv(x)]);
        let exact = [
            ("fract", o[8 * i], bits(fr)),
            ("fract's floor", o[8 * i + 1], fl.map_or(0, bits)),
            ("modf", o[8 * i + 2], bits(mf)),
            ("modf's integral part", o[8 * i + 3], mi.map_or(0, bits)),
            ("frexp", o[8 * i + 4], bits(fm)),
            ("remquo", o[8 * i + 5], bits(rq)),
        ];
        for (name, got, want) in exact {
            if !same_h(got, want) {
                fail(format!(
                    "{name}({x:#06x}, {y:#06x}): GPU {got:#06x}, cpu {want:#06x}"
                ));
            }
        }
        for (name, got, want) in [
            ("sin", o[8 * i + 6], bits(sn)),
            ("cos", o[8 * i + 7], cs.map_or(0, bits)),
        ] {
            if !(same_h(got, want) || ulps(got, want) <= 2.0 && (got ^ want) & 0x8000 == 0) {
                fail(format!(
                    "sincos's {name}({x:#06x}): GPU {got:#06x}, cpu {want:#06x}"
                ));
            }
        }
        let ints = [
            ("frexp", q[3 * i], int(fe)),
            ("remquo", q[3 * i + 1], int(rn)),
            ("lgamma_r", q[3 * i + 2], int(lgs)),
        ];
        for (name, got, want) in ints {
            if got != want {
                fail(format!(
                    "{name}'s int of ({x:#06x}, {y:#06x}): GPU {got}, cpu {want}"
                ));
            }
        }
        // Geometric functions and dot: the cpu's double computation rounded once, bit for bit.
        let la = Lanes::from_fn(4, |k| hv(vs[4 * i + k]));
        let lb = Lanes::from_fn(4, |k| hv(ws[4 * i + k]));
        let one = |name: &str, args: &[Lanes]| -> Vec<u16> {
            let out = call(Builtin::from_name(name).expect("builtin"), args).expect("cpu call");
            out.value.as_slice().iter().map(|s| bits(*s)).collect()
        };
        let norm = one("normalize", &[la]);
        for k in 0..4 {
            if !same_h(n[12 * i + k], norm[k]) {
                fail(format!(
                    "normalize lane {k} of {:?}: GPU {:#06x}, cpu {:#06x}",
                    &vs[4 * i..4 * i + 4],
                    n[12 * i + k],
                    norm[k]
                ));
            }
        }
        let want = [
            one("dot", &[la, lb])[0],
            one("length", &[la])[0],
            one("distance", &[la, lb])[0],
        ];
        for (k, (name, w)) in ["dot", "length", "distance"].iter().zip(want).enumerate() {
            let got = n[12 * i + 4 + k];
            if !same_h(got, w) {
                fail(format!(
                    "{name} of {:?}, {:?}: GPU {got:#06x}, cpu {w:#06x}",
                    &vs[4 * i..4 * i + 4],
                    &ws[4 * i..4 * i + 4]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `cross` on float3, double4 and half4, and `ilogb` on half, bit for bit against the cpu
/// runtime (both compute in double and round once).
#[test]
fn cross_and_half_ilogb_on_the_gpu() {
    use oclc_cpu::runtime::builtin::Builtin;
    use oclc_cpu::runtime::dispatch::{call, call_scalar};
    use oclc_cpu::runtime::half::Half;
    use oclc_cpu::runtime::scalar::{Lanes, Scalar};
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
               #pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
               kernel void c(global const float *f, global const double4 *dv, global const half4 *hv,\n\
               global float *fo, global double4 *dout, global half4 *ho, global int *il) {\n\
               size_t i = get_global_id(0);\n\
               vstore3(cross(vload3(2 * i, f), vload3(2 * i + 1, f)), i, fo);\n\
               dout[i] = cross(dv[2 * i], dv[2 * i + 1]);\n\
               ho[i] = cross(hv[2 * i], hv[2 * i + 1]);\n\
               il[i] = ilogb(hv[2 * i].x);\n\
               }\n";
    let (m, sm) = common::module(src);
    let p = d
        .load(&m, Some(&sm), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let count = 4096usize;
    let xs = inputs(8_000, 0xc055);
    let mut r = Lcg(21);
    let mut pick = || match r.next() % 4 {
        0 => xs[(r.next() % xs.len() as u64) as usize],
        _ => (r.unit() - 0.5) * 1e3,
    };
    let fs: Vec<f32> = (0..count * 6).map(|_| pick() as f32).collect();
    let ds: Vec<f64> = (0..count * 8).map(|_| pick()).collect();
    let hs: Vec<u16> = (0..count * 8).map(|_| r.next() as u16).collect();
    let fb = d
        .buffer_from_bytes(&bytes(&fs, f32::to_le_bytes))
        .expect("buffer");
    let db = d
        .buffer_from_bytes(&bytes(&ds, f64::to_le_bytes))
        .expect("buffer");
    let hb = d
        .buffer_from_bytes(&bytes(&hs, u16::to_le_bytes))
        .expect("buffer");
    let (fo, dout, ho, il) = (
        d.zeroed(count * 12).expect("buffer"),
        d.zeroed(count * 32).expect("buffer"),
        d.zeroed(count * 8).expect("buffer"),
        d.zeroed(count * 4).expect("buffer"),
    );
    d.launch(
        &p,
        "c",
        &[
            Arg::Buffer(fb),
            Arg::Buffer(db),
            Arg::Buffer(hb),
            Arg::Buffer(fo.clone()),
            Arg::Buffer(dout.clone()),
            Arg::Buffer(ho.clone()),
            Arg::Buffer(il.clone()),
        ],
        &NdRange::new(&[count as u64]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let fo: Vec<f32> = fo
        .read()
        .expect("read")
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let dout = f64s(dout.read().expect("read"));
    let ho: Vec<u16> = ho
        .read()
        .expect("read")
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let il = i32s(il.read().expect("read"));
    let cross = |a: Lanes, b: Lanes| -> Vec<Scalar> {
        let out = call(Builtin::from_name("cross").expect("cross"), &[a, b]).expect("cpu cross");
        out.value.as_slice().to_vec()
    };
    let bits = |s: &Scalar| match s {
        Scalar::F32(v) => u64::from(v.to_bits()),
        Scalar::F64(v) => v.to_bits(),
        Scalar::F16(h) => u64::from(h.0),
        other => panic!("{other:?}"),
    };
    for i in 0..count {
        let fa = Lanes::from_fn(3, |k| Scalar::F32(fs[6 * i + k]));
        let fb = Lanes::from_fn(3, |k| Scalar::F32(fs[6 * i + 3 + k]));
        let want = cross(fa, fb);
        for k in 0..3 {
            let got = fo[3 * i + k];
            let w = bits(&want[k]);
            assert!(
                u64::from(got.to_bits()) == w || got.is_nan() && f32::from_bits(w as u32).is_nan(),
                "float cross {i} lane {k}: GPU {got:e}, cpu {:?}",
                want[k]
            );
        }
        let da = Lanes::from_fn(4, |k| Scalar::F64(ds[8 * i + k]));
        let dbv = Lanes::from_fn(4, |k| Scalar::F64(ds[8 * i + 4 + k]));
        let want = cross(da, dbv);
        for k in 0..4 {
            let got = dout[4 * i + k];
            let w = want.get(k).map_or(0, bits);
            assert!(
                got.to_bits() == w || got.is_nan() && f64::from_bits(w).is_nan(),
                "double cross {i} lane {k}: GPU {got:e}, cpu {:?}",
                want.get(k)
            );
        }
        let ha = Lanes::from_fn(4, |k| Scalar::F16(Half(hs[8 * i + k])));
        let hbv = Lanes::from_fn(4, |k| Scalar::F16(Half(hs[8 * i + 4 + k])));
        let want = cross(ha, hbv);
        for k in 0..4 {
            let got = ho[4 * i + k];
            let w = want.get(k).map_or(0, bits) as u16;
            assert!(
                got == w || Half(got).is_nan() && Half(w).is_nan(),
                "half cross {i} lane {k}: GPU {got:#06x}, cpu {w:#06x}"
            );
        }
        let Ok((Scalar::I32(want), _)) = call_scalar(
            Builtin::from_name("ilogb").expect("ilogb"),
            &[Scalar::F16(Half(hs[8 * i]))],
        ) else {
            panic!("cpu ilogb");
        };
        assert_eq!(il[i], want, "ilogb of half {:#06x}", hs[8 * i]);
    }
}
