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
