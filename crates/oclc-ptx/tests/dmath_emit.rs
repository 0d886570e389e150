//! Every double-precision math builtin turns into PTX (scalar and vector, with their pointer
//! outputs), and the sequence is the one `dmath::eval` runs: the PTX has the operations the
//! host evaluator models and the 2/π table the reduction reads.

mod common;

/// One kernel calling every double builtin dmath implements.
const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void all(global const double *x, global const double *y, global const int *n,
                global double *o, global int *q, global const double2 *v, global double2 *w) {
    size_t i = get_global_id(0);
    double a = x[i], b = y[i];
    int k = n[i], s, t;
    double c;
    o[0] = exp(a) + exp2(a) + exp10(a) + expm1(a) + log(a) + log2(a) + log10(a) + log1p(a);
    o[1] = logb(a) + sin(a) + cos(a) + tan(a) + sinpi(a) + cospi(a) + tanpi(a);
    o[2] = asin(a) + acos(a) + atan(a) + asinpi(a) + acospi(a) + atanpi(a);
    o[3] = sinh(a) + cosh(a) + tanh(a) + asinh(a) + acosh(a) + atanh(a) + cbrt(a);
    o[4] = erf(a) + erfc(a) + tgamma(a) + lgamma(a);
    o[5] = atan2(a, b) + atan2pi(a, b) + pow(a, b) + powr(a, b) + hypot(a, b);
    o[6] = fmod(a, b) + remainder(a, b) + nextafter(a, b);
    o[7] = pown(a, k) + rootn(a, k) + ldexp(a, k) + nan((ulong)k);
    o[8] = remquo(a, b, &s) + lgamma_r(a, &t) + sincos(a, &c) + c;
    q[0] = ilogb(a) + s + t;
    double2 cc;
    w[0] = sin(v[i]) + pow(v[i], v[i]) + sincos(v[i], &cc) + cc + ldexp(v[i], k);
}
"#;

#[test]
fn every_double_builtin_emits_ptx() {
    let p = common::ptx(SRC);
    common::save("dmath_all", &p.text);
    let t = &p.text;
    assert!(t.contains(".const .align 8 .u64 __oclc_2_over_pi_d[23]"));
    // Only double trigonometry here: the f32 table stays out.
    assert!(!t.contains("__oclc_2_over_pi[12]"));
    assert!(t.contains("ld.const.u64"), "the reduction reads the table");
    for op in [
        "fma.rn.f64",
        "div.rn.f64",
        "sqrt.rn.f64",
        "mul.hi.u64",
        "rem.u64",
        "clz.b64",
        "cvt.rni.s32.f64",
        "testp.notanumber.f64",
    ] {
        assert!(t.contains(op), "no {op} in the PTX");
    }
    // The counted loops (fmod's long division, erfc's continued fraction) branch back.
    assert!(t.matches("bra $L").count() >= 4);
    // No approximate instruction in full-precision double math.
    assert!(!t.contains(".approx.f64"));
}

#[test]
fn double_fmod_operator_and_ilogb_vector() {
    let p = common::ptx(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
         kernel void k(global double4 *x, global int4 *e) { x[0] = fmod(x[0], x[1]); e[0] = ilogb(x[2]); }\n",
    );
    assert!(p.text.contains("rem.u64"));
}

#[test]
fn half_pointer_outputs_dot_and_geometric_emit_ptx() {
    let p = common::ptx(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         kernel void h(global half *x, global half4 *v, global int *q) {\n\
         half a = x[0], i; int s, t;\n\
         x[1] = fract(a, &i) + i + modf(a, &i) + i + frexp(a, &s) + sincos(a, &i) + i;\n\
         x[2] = remquo(a, x[3], &t) + lgamma_r(a, &t);\n\
         x[4] = dot(v[0], v[1]) + length(v[0]) + distance(v[0], v[1]);\n\
         v[2] = normalize(v[0]);\n\
         q[0] = s + t;\n\
         }\n",
    );
    assert!(
        p.text.contains("cvt.rn.f16.f64"),
        "half results rounded once from double"
    );
    assert!(p.text.contains("st.global.b16") || p.text.contains("st.b16"));
}

#[test]
fn cross_and_half_ilogb_emit_ptx() {
    let p = common::ptx(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         kernel void c(global float4 *f, global double3 *d, global half4 *h, global int *n) {\n\
         f[0] = cross(f[1], f[2]); d[0] = cross(d[1], d[2]); h[0] = cross(h[1], h[2]);\n\
         n[0] = ilogb(h[3].x);\n\
         }\n",
    );
    // float: exact products in double, one rounding to float.
    assert!(p.text.contains("cvt.rn.f32.f64"));
    assert!(p.text.contains("cvt.rn.f16.f64"));
}

#[test]
fn half_pown_rootn_ldexp_keep_their_int_operand() {
    let p = common::ptx(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         kernel void k(global half *x, global int *n) {\n\
         x[0] = pown(x[1], n[0]) + rootn(x[2], n[1]) + ldexp(x[3], n[2]);\n\
         }\n",
    );
    // Only half (b16) registers are widened from f16.
    for line in p.text.lines().filter(|l| l.contains("cvt.f32.f16")) {
        let src = line.rsplit(',').next().unwrap_or("");
        assert!(src.trim().starts_with("%h"), "{line}");
    }
    assert!(p.text.contains("cvt.rn.f16.f32"));
}
