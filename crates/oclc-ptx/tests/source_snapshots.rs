//! PTX of OpenCL C sources (front end → lowering → IR passes → emitter), as snapshots. Each
//! module is also written to `target/ptx-out/` so `ptxas` can check it on a CUDA machine.

mod common;
use common::{kernels, ptx, ptx_with, save};
use oclc_ptx::PtxOptions;

fn snap(name: &str, src: &str) -> String {
    let p = ptx(src);
    save(name, &p.text);
    p.text
}

#[test]
fn memcpy_global_named_spaces() {
    let t = snap(
        "memcpy_global",
        "kernel void copy(global const float4 *src, global float4 *dst) {\n\
         size_t i = get_global_id(0);\n\
         dst[i] = src[i];\n\
         }\n",
    );
    assert!(t.contains("ld.global.v4.f32"), "{t}");
    assert!(t.contains("st.global.v4.f32"), "{t}");
    assert!(!t.contains("cvta.global"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn vector_copy_kernel() {
    let t = snap("copy", kernels::COPY);
    assert!(t.contains("mul.rn.f32"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn local_reduction_uses_shared_block() {
    let t = snap("reduce", kernels::REDUCE);
    assert!(t.contains("ld.shared.u32"), "{t}");
    assert!(t.contains("st.shared.u32"), "{t}");
    assert!(t.contains("bar.sync 0"), "{t}");
    assert!(
        t.contains("mov.u64 %rd") && t.contains("__oclc_shared"),
        "{t}"
    );
    insta::assert_snapshot!(t);
}

#[test]
fn histogram_atomics() {
    let t = snap("hist", kernels::HIST);
    assert!(t.contains(".shared.add.u32"), "{t}");
    assert!(t.contains(".global.add.u32"), "{t}");
    assert!(t.contains(".global.max.s32"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn generic_pointers_resolved_to_named_spaces() {
    // The IR passes resolve every generic pointer here: named-space code only.
    let t = snap("generic", kernels::GENERIC);
    assert!(!t.contains("isspacep"), "{t}");
    assert!(
        !t.contains("cvta.shared") && !t.contains("cvta.local"),
        "{t}"
    );
    assert!(t.contains("__f2_sum3__local"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn math_and_conversions() {
    let t = snap("math", kernels::MATH);
    assert!(t.contains("cvt.rni.s32.f32"), "{t}");
    // `/` and sqrt within OpenCL's limits by default, correctly rounded on request.
    assert!(t.contains("sqrt.approx.f32"), "{t}");
    assert!(t.contains("div.full.f32"), "{t}");
    let exact = ptx_with(
        kernels::MATH,
        &PtxOptions {
            exact_div_sqrt: true,
            ..PtxOptions::default()
        },
    )
    .text;
    assert!(exact.contains("sqrt.rn.f32"), "{exact}");
    assert!(exact.contains("div.rn.f32"), "{exact}");
    assert!(
        !exact.contains(".approx") && !exact.contains("div.full"),
        "{exact}"
    );
    insta::assert_snapshot!(t);
}

#[test]
fn program_scope_globals() {
    let t = snap("globals", kernels::GLOBALS);
    assert!(
        t.contains(".global .align 4 .b8 __g0_counter[4] = {40, 0, 0, 0};"),
        "{t}"
    );
    assert!(
        t.contains("ld.global.nc.u32") || t.contains("ld.global.u32"),
        "{t}"
    );
    insta::assert_snapshot!(t);
}

#[test]
fn scalar_value_arguments() {
    let t = snap("args", kernels::ARGS);
    assert!(t.contains(".param .align 4 .b8 __p1[4]"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn fast_math_uses_approximate_instructions() {
    let src =
        "kernel void k(global float *x) { x[0] = exp(x[1]) + native_sin(x[2]) + x[3] / x[4]; }";
    let p = ptx_with(
        src,
        &PtxOptions {
            target: "sm_90".into(),
            fast_math: true,
            ..PtxOptions::default()
        },
    );
    save("fast_math", &p.text);
    assert!(p.text.contains(".target sm_90"), "{}", p.text);
    assert!(p.text.contains("ex2.approx.f32"), "{}", p.text);
    assert!(p.text.contains("sin.approx.f32"), "{}", p.text);
    assert!(p.text.contains("div.full.f32"), "{}", p.text);
}

#[test]
fn printf_appends_records_to_the_hidden_buffer() {
    // printf (issue 17): the kernel and the helper that reach it take the buffer; the format
    // and argument types travel in the module, not the PTX.
    let src = "void show(float4 v) { printf(\"%v4f %s\\n\", v, \"end\"); }\n\
               kernel void k(global double *x) {\n\
               int r = printf(\"%f %d\\n\", x[1], (int)get_local_id(0));\n\
               show((float4)(1.0f, 2.0f, 3.0f, 4.0f));\n\
               x[0] = r;\n\
               }\n\
               kernel void quiet(global int *o) { o[0] = 1; }";
    let p = common::ptx(src);
    save("printf", &p.text);
    let k = p.kernels.iter().find(|k| k.name == "k").expect("kernel k");
    let quiet = p
        .kernels
        .iter()
        .find(|k| k.name == "quiet")
        .expect("kernel quiet");
    assert!(k.printf && !quiet.printf);
    assert_eq!(p.printf.len(), 2, "{:?}", p.printf);
    assert_eq!(p.printf[0].format, b"%v4f %s\n".to_vec());
    assert_eq!(p.printf[0].record_size(), 40 + 5 * 8);
    assert_eq!(p.printf[1].format, b"%f %d\n".to_vec());
    assert_eq!(
        p.printf[1].args,
        vec![oclc_ir::Type::F64, oclc_ir::Type::I32]
    );
    assert_eq!(
        p.text.matches(".param .u64 __pf\n").count(),
        1,
        "{}",
        p.text
    );
    assert!(
        p.text.contains(".param .b64 __pfp, .param .b64 __pfq)"),
        "{}",
        p.text
    );
    assert!(
        p.text.contains("st.param.b64 [__apf], %pf_buf"),
        "{}",
        p.text
    );
    assert_eq!(
        p.text.matches("atom.global.add.u64").count(),
        2,
        "{}",
        p.text
    );
    assert!(p.text.contains("st.global.u32 [%pf_buf+16]"), "{}", p.text);
}

#[test]
fn printf_with_a_malformed_format_returns_minus_one_without_a_record() {
    // As on the cpu device: `%v3d` of an int4 is malformed whatever the values.
    let p = common::ptx(
        "kernel void k(global int *o) { o[0] = printf(\"%v3d\\n\", (int4)(1, 2, 3, 4)); }",
    );
    save("printf_malformed", &p.text);
    assert!(!p.text.contains("atom.global.add.u64"), "{}", p.text);
    assert!(p.text.contains(", -1;"), "{}", p.text);
}

#[test]
fn printf_format_must_be_known_when_compiling() {
    // A format chosen at run time has no id the host could format it by.
    let (m, sm) = common::module(
        "kernel void k(global int *x) {\n constant char *f = x[0] ? \"a%d\" : \"b%d\";\n printf(f, 1);\n}",
    );
    match oclc_ptx::emit_module(&m, Some(&sm), &PtxOptions::default()) {
        Ok(_) => panic!("a run-time format must be rejected"),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("test.cl:3:"), "{msg}");
            assert!(
                msg.contains("the cuda device does not support printf with a format that is not a string literal yet"),
                "{msg}"
            );
        }
    }
}

#[test]
fn private_arrays_live_in_local_state_space() {
    let t = snap(
        "private_array",
        "kernel void k(global int *o, int n) {\n\
         int a[8];\n\
         for (int i = 0; i < 8; i++) a[i] = i * n;\n\
         o[get_global_id(0)] = a[o[0] & 7];\n\
         }\n",
    );
    assert!(t.contains(".local .align 16 .b8 __frame[48]"), "{t}");
    assert!(t.contains("st.local.u32"), "{t}");
    assert!(t.contains("ld.local.u32"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn vectors_swizzles_and_conversions() {
    let t = snap(
        "vectors",
        "kernel void k(global float4 *f, global int4 *i, global uchar4 *c, global double2 *d) {\n\
         float4 v = f[0];\n\
         f[1] = v.wzyx + (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n\
         i[0] = v > (float4)2.0f;\n\
         i[1] = convert_int4_rtz(v);\n\
         c[0] = convert_uchar4_sat(i[2]);\n\
         i[3] = as_int4(v);\n\
         d[0] = convert_double2(v.xy);\n\
         i[4] = select(i[5], i[6], i[7]);\n\
         }\n",
    );
    assert!(t.contains("ld.global.v4.f32"), "{t}");
    assert!(t.contains("st.global.v4.u8"), "{t}");
    assert!(t.contains("st.global.v2.f64"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn control_flow_switch_and_calls() {
    let t = snap(
        "control",
        "int pick(int x) {\n\
         switch (x) { case 1: return 10; case 7: return 70; default: return -1; }\n\
         }\n\
         float2 twice(float2 v) { return v * 2.0f; }\n\
         kernel void k(global int *o, global float2 *f) {\n\
         int s = 0;\n\
         for (int i = 0; i < o[0]; i++) { if (i % 3 == 0) continue; s += pick(i); }\n\
         o[1] = s;\n\
         f[0] = twice(f[1]);\n\
         o[2] = get_work_dim() + get_global_size(0) + get_num_groups(0) + get_local_linear_id();\n\
         }\n",
    );
    assert!(t.contains(".func (.param .b32 __ret) __f0_pick("), "{t}");
    assert!(t.contains("call (__r), __f0_pick"), "{t}");
    assert!(
        t.contains(".func (.param .align 8 .b8 __ret[8]) __f1_twice("),
        "{t}"
    );
    insta::assert_snapshot!(t);
}

#[test]
fn c11_atomics_scopes_and_fences() {
    let t = snap(
        "c11_atomics",
        "kernel void k(global atomic_int *a, local atomic_int *l, global int *o) {\n\
         atomic_store_explicit(a, 1, memory_order_release, memory_scope_device);\n\
         o[0] = atomic_load_explicit(a, memory_order_acquire, memory_scope_work_group);\n\
         o[1] = atomic_fetch_add_explicit(l, 2, memory_order_relaxed, memory_scope_work_group);\n\
         int e = 0;\n\
         o[2] = atomic_compare_exchange_strong(a, &e, 5);\n\
         atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n\
         work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);\n\
         }\n",
    );
    assert!(t.contains("st.release.gpu.global.u32"), "{t}");
    assert!(t.contains("ld.acquire.cta.global.u32"), "{t}");
    assert!(t.contains("atom.relaxed.cta.shared.add.u32"), "{t}");
    assert!(t.contains(".global.cas.b32"), "{t}");
    assert!(t.contains("fence.sc.gpu"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn output_pointer_builtins() {
    let t = snap("outputs", kernels::OUTPUTS);
    assert!(t.contains("cvt.rmi.f32.f32"), "{t}");
    assert!(t.contains("bfe.u32"), "{t}");
    assert!(t.contains("bfe.u64"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn precise_exp_and_log() {
    let t = snap("exp_log", kernels::EXP_LOG);
    assert!(t.contains("ex2.approx.f32"), "{t}");
    assert!(t.contains("cvt.rni.f64.f64"), "{t}");
    // lg2.approx only gives log, log2 and log10 their special results (±0, x < 0, +∞);
    // the values come from the single-precision polynomial.
    assert_eq!(t.matches("lg2.approx.f32").count(), 3, "{t}");
    assert!(t.contains("0x3F2AAAAB") && !t.contains("rcp.approx"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn precise_trigonometry() {
    let t = snap("trig", kernels::TRIG);
    assert!(
        t.contains(".const .align 4 .u32 __oclc_2_over_pi[12]"),
        "{t}"
    );
    assert!(t.contains("shf.l.clamp.b32"), "{t}");
    assert!(!t.contains("sin.approx"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn repository_examples_emit_ptx() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut n = 0;
    for name in ["memcpy", "histogram", "matmul", "reduce"] {
        let Ok(src) = std::fs::read_to_string(dir.join(format!("{name}.cl"))) else {
            continue;
        };
        let p = ptx(&src);
        save(&format!("example_{name}"), &p.text);
        assert!(!p.kernels.is_empty(), "{name}");
        n += 1;
    }
    assert_eq!(n, 4, "examples missing from {}", dir.display());
}

/// Every full-precision single-precision function built on the double-precision cores.
const DOUBLE_CORE_FUNCTIONS: &[&str] = &[
    "expm1", "log1p", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "atan", "asin", "acos",
    "atanpi", "asinpi", "acospi", "cbrt", "erf", "erfc", "tgamma", "lgamma", "sinpi", "cospi",
    "tanpi",
];

#[test]
fn full_precision_math_avoids_approximate_instructions() {
    let mut src = String::new();
    for f in DOUBLE_CORE_FUNCTIONS {
        src.push_str(&format!(
            "kernel void k_{f}(global float *x) {{ x[0] = {f}(x[1]); }}\n"
        ));
    }
    src.push_str(
        "kernel void k_two(global float *x, global int *n) {\n\
         x[0] = atan2(x[1], x[2]) + atan2pi(x[3], x[4]) + hypot(x[5], x[6]) + pow(x[7], x[8])\n\
              + powr(x[9], x[10]) + pown(x[11], n[0]) + rootn(x[12], n[1]);\n\
         }\n",
    );
    let t = snap("double_core_math", &src);
    assert!(!t.contains(".approx"), "{t}");
    assert_eq!(t.matches(".entry").count(), DOUBLE_CORE_FUNCTIONS.len() + 1);
    assert!(t.contains("cvt.rn.f32.f64"), "{t}");
}

#[test]
fn pow_and_atan2_in_double_precision() {
    let t = snap(
        "pow_atan2",
        "kernel void k(global float2 *x, global float *o) {\n\
         float2 v = x[get_global_id(0)];\n\
         o[0] = pow(v.x, v.y);\n\
         o[1] = atan2(v.x, v.y);\n\
         o[2] = cbrt(v.x);\n\
         }\n",
    );
    assert!(t.contains("cvt.rni.f64.f64"), "{t}");
    assert!(t.contains("copysign.f32"), "{t}");
    assert!(!t.contains(".approx"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn geometric_functions_in_double_precision() {
    let t = snap(
        "geometric",
        "kernel void k(global float4 *v, global float *o) {\n\
         float4 a = v[0], b = v[1];\n\
         o[0] = length(a) + distance(a, b) + fast_length(b.xy);\n\
         v[2] = normalize(a);\n\
         }\n",
    );
    assert!(t.contains("sqrt.rn.f64"), "{t}");
    assert!(t.contains("testp.infinite.f32"), "{t}");
    assert!(!t.contains(".approx"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn exact_remainders_and_int_outputs() {
    let t = snap(
        "remainders",
        "kernel void k(global float *x, global int *q) {\n\
         int a, b;\n\
         x[0] = fmod(x[1], x[2]) + remainder(x[3], x[4]);\n\
         x[5] = remquo(x[6], x[7], &a) + lgamma_r(x[8], &b);\n\
         q[0] = a; q[1] = b;\n\
         }\n",
    );
    assert!(t.contains("rem.u64"), "{t}");
    assert!(t.contains("div.u64"), "{t}");
    assert!(!t.contains(".approx"), "{t}");
}

#[test]
fn shuffles_and_mad_sat() {
    let t = snap(
        "shuffle_mad_sat",
        "kernel void k(global float4 *v, global uint4 *m, global int *i, global long *l,\n\
         global uchar *c) {\n\
         v[0] = shuffle(v[1], m[0]);\n\
         v[2] = shuffle2(v[3], v[4], m[1]).s0123;\n\
         i[0] = mad_sat(i[1], i[2], i[3]);\n\
         l[0] = mad_sat(l[1], l[2], l[3]);\n\
         c[0] = mad_sat(c[1], c[2], c[3]);\n\
         }\n",
    );
    assert!(t.contains("and.b32"), "{t}");
    assert!(t.contains("mul.hi.s64"), "{t}");
    assert!(t.contains("addc.u64"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn async_copies_are_cooperative_loops() {
    let t = snap(
        "async_copy",
        "kernel void k(global const float4 *in, global float *out, local float4 *tile,\n\
         local float *flat) {\n\
         event_t ev = async_work_group_copy(tile, in + 64 * get_group_id(0), 64, 0);\n\
         wait_group_events(1, &ev);\n\
         flat[get_local_id(0)] = tile[get_local_id(0)].x;\n\
         barrier(CLK_LOCAL_MEM_FENCE);\n\
         prefetch(in, 16);\n\
         event_t ev2 = async_work_group_strided_copy(out + get_group_id(0), flat, 64, 3, 0);\n\
         wait_group_events(1, &ev2);\n\
         }\n",
    );
    assert!(t.contains("ld.global.u64"), "{t}");
    assert!(t.contains("st.shared.u64"), "{t}");
    assert!(t.contains("ld.shared.u32"), "{t}");
    assert!(t.contains("st.global.u32"), "{t}");
    assert!(t.matches("bar.sync 0").count() >= 3, "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn private_atomics_are_plain_accesses() {
    let t = snap(
        "private_atomics",
        "kernel void k(global int *o) {\n\
         int p = o[0];\n\
         atomic_int a;\n\
         atomic_init(&a, 3);\n\
         o[1] = atomic_fetch_add(&a, 4);\n\
         o[2] = atomic_compare_exchange_strong(&a, &p, 9);\n\
         o[3] = atomic_load(&a) + p;\n\
         }\n",
    );
    assert!(t.contains("ld.local"), "{t}");
    assert!(t.contains("st.local"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn exponent_and_bit_level_float_functions() {
    let t = snap(
        "exponent_bits",
        "kernel void k(global float *x, global int *n, global uint *c) {\n\
         n[0] = ilogb(x[0]);\n\
         x[1] = logb(x[2]) + ldexp(x[3], n[1]) + nextafter(x[4], x[5]) + nan(c[0]);\n\
         }\n",
    );
    assert!(t.contains("0x7FC00000"), "{t}");
    assert!(t.contains("0x80000000"), "{t}");
    insta::assert_snapshot!(t);
}
