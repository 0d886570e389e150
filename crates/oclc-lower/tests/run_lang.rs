//! End-to-end: OpenCL C kernels lowered and run on the cpu device, with their outputs
//! checked. Every kernel runs twice (SSA variables, and every variable in memory) and the
//! two runs must agree.

mod common;
use common::*;

/// The seed article's memcpy: one generic helper called with a global and a local source.
#[test]
fn seed_generic_memcpy() {
    let src = r#"
void GenericXToY_internal(unsigned char *in, unsigned char *out, unsigned int startFrom,
                          unsigned int startTo, unsigned int length) {
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

kernel void global_to_global(global uchar *src, global uchar *dst) {
    uint g = get_global_id(0);
    GenericXToY_internal(src, dst, g * 4, g * 4, 4);
}

kernel void via_local(global uchar *src, global uchar *dst, local uchar *tmp) {
    uint l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    GenericXToY_internal(src, tmp, g * 2, l * 2, 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint base = get_group_id(0) * n * 2;
    GenericXToY_internal(tmp, dst, (n - 1 - l) * 2, base + l * 2, 2);
}
"#;
    let input: Vec<u8> = (0..64u8).map(|x| x.wrapping_mul(7)).collect();
    let out = run(
        src,
        "global_to_global",
        &[16],
        None,
        &[ArgSpec::Buf(input.clone()), ArgSpec::Buf(zeros(64))],
    );
    assert_eq!(out[1], input);
    let out = run(
        src,
        "via_local",
        &[32],
        Some(&[8]),
        &[
            ArgSpec::Buf(input.clone()),
            ArgSpec::Buf(zeros(64)),
            ArgSpec::Local(16),
        ],
    );
    // Each group of 8 work-items reverses its 8 pairs of bytes.
    let mut want = Vec::new();
    for g in 0..4 {
        for l in 0..8 {
            let s = (g * 8 + (7 - l)) * 2;
            want.extend_from_slice(&input[s..s + 2]);
        }
    }
    assert_eq!(out[1], want);
}

#[test]
fn reduction_with_local_memory() {
    let src = r#"
kernel void reduce(global const float *in, global float *out, local float *scratch) {
    uint l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
"#;
    let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let out = run(
        src,
        "reduce",
        &[256],
        Some(&[64]),
        &[
            ArgSpec::Buf(bytes_f32(&input)),
            ArgSpec::Buf(zeros(16)),
            ArgSpec::Local(256),
        ],
    );
    let want: Vec<f32> = (0..4)
        .map(|g| (g * 64..(g + 1) * 64).map(|i| i as f32).sum())
        .collect();
    assert_eq!(f32s(&out[1]), want);
}

#[test]
fn kernel_scope_local_and_static_and_program_globals() {
    let src = r#"
global int counter_init = 40;
constant int table[4] = { 3, 1, 4, 1 };
global int arr[3] = { 7, 8 };
int next(void) { static global int calls = 100; return calls++; }
kernel void k(global int *out) {
    local int shared[4];
    uint l = get_local_id(0);
    shared[l] = table[l] * 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = shared[3 - l] + counter_init + arr[l % 3];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == 0) {
        out[4] = next();
        out[5] = next();
    }
}
"#;
    let out = run(src, "k", &[4], Some(&[4]), &[ArgSpec::Buf(zeros(24))]);
    assert_eq!(
        i32s(&out[0]),
        vec![10 + 40 + 7, 40 + 40 + 8, (10 + 40), 30 + 40 + 7, 100, 101]
    );
}

#[test]
fn control_flow() {
    let src = r#"
int classify(int x) {
    switch (x) {
    case 0: return 10;
    case 1:
    case 2: x += 5;
    default: x *= 2; break;
    case 7: { x = -1; break; }
    }
    return x > 4 && x < 20 ? x : -x;
}
kernel void k(global int *out) {
    int i = get_global_id(0);
    out[i] = classify(i);
    int s = 0, j = 0;
    do { s += j; } while (++j < i);
    int t = 0;
    for (int a = 0; a < 10; a++) {
        if (a == i) continue;
        if (a > 7) break;
        t += a;
    }
    int g = 0;
again:
    g++;
    if (g < i) goto again;
    out[10 + i] = s * 1000 + t * 10 + g;
}
"#;
    let out = run(src, "k", &[10], None, &[ArgSpec::Buf(zeros(80))]);
    let classify = |x: i32| -> i32 {
        let mut x = x;
        match x {
            0 => return 10,
            7 => x = -1,
            1 | 2 => x = (x + 5) * 2,
            _ => x *= 2,
        }
        if x > 4 && x < 20 { x } else { -x }
    };
    let got = i32s(&out[0]);
    for i in 0..10 {
        assert_eq!(got[i as usize], classify(i), "classify({i})");
        let s: i32 = (0..i.max(1)).sum();
        let t: i32 = (0..8).filter(|a| *a != i).sum();
        let g = i.max(1);
        assert_eq!(got[10 + i as usize], s * 1000 + t * 10 + g, "loops for {i}");
    }
}

#[test]
fn structs_unions_by_value_and_in_memory() {
    let src = r#"
typedef struct { int a; float4 v; char c; } S;
typedef union { int i; float f; uchar b[4]; } U;
struct Pair { S first; S second; };
S make(int a) {
    S s = { a, (float4)(1.0f, 2.0f, 3.0f, 4.0f), 'x' };
    return s;
}
float sum(S s) { s.a += 1000; return s.v.x + s.v.y + s.v.z + s.v.w + s.a; }
kernel void k(global float *out, global S *buf) {
    S s = make(3);
    struct Pair p = { s, make(5) };
    p.second.v.w = 9.0f;
    out[0] = sum(p.second);
    out[1] = p.first.a;
    U u;
    u.f = 1.0f;
    out[2] = u.i == 0x3f800000 ? 1.0f : 0.0f;
    out[3] = u.b[3];
    buf[1] = p.second;
    buf[0] = buf[1];
    buf[0].a = 42;
    out[4] = buf[1].a + buf[0].a;
    S copy = buf[0];
    out[5] = copy.c;
    S arr[2];
    arr[1] = s;
    arr[0] = arr[1];
    arr[0].v.z = 0.5f;
    out[6] = arr[0].v.z + arr[1].v.z;
}
"#;
    let out = run(
        src,
        "k",
        &[1],
        None,
        &[ArgSpec::Buf(zeros(28)), ArgSpec::Buf(zeros(96))],
    );
    assert_eq!(
        f32s(&out[0]),
        vec![
            1.0 + 2.0 + 3.0 + 9.0 + 1005.0,
            3.0,
            1.0,
            63.0,
            47.0,
            120.0,
            3.5
        ]
    );
}

#[test]
fn vectors_and_swizzles() {
    let src = r#"
kernel void k(global int *out, global float *fout) {
    int4 v = (int4)(1, 2, 3, 4);
    int8 w = (int8)(v, v.wzyx);
    v.xy = v.yx;
    v.s3 = 10;
    int2 lo = w.lo.hi;
    int4 ev = w.even;
    int4 od = w.odd;
    int3 t = (int3)(7, 8, 9);
    int th = t.z;
    uint i = get_global_id(0);
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
    out[4] = lo.x; out[5] = lo.y;
    out[6] = ev.s0 + ev.s1 * 10 + ev.s2 * 100 + ev.s3 * 1000;
    out[7] = od.s0 + od.s1 * 10 + od.s2 * 100 + od.s3 * 1000;
    out[8] = th;
    int4 c = v > (int4)(2);
    out[9] = c.x; out[10] = c.w;
    int4 s = v * 2 + 1;
    out[11] = s.s3;
    int idx = i + 2;
    out[12] = w[idx];
    w[idx] = 99;
    out[13] = w.s2;
    float4 f = (float4)(1.5f);
    f.odd = (float2)(-2.0f, 3.0f);
    fout[0] = f.x + f.y + f.z + f.w;
    int4 sel = c ? (int4)(1) : (int4)(-1);
    out[14] = sel.x * 10 + sel.w;
    out[15] = !(v.x == 2);
    int4 m = -v;
    out[16] = m.y;
    v++;
    out[17] = v.x + v.w;
    uchar16 bytes = as_uchar16(v);
    out[18] = bytes.s4;
    int4 sh = shuffle(v, (uint4)(3, 2, 1, 0));
    out[19] = sh.x;
}
"#;
    let out = run(
        src,
        "k",
        &[1],
        None,
        &[ArgSpec::Buf(zeros(80)), ArgSpec::Buf(zeros(4))],
    );
    let o = i32s(&out[0]);
    assert_eq!(&o[0..4], &[2, 1, 3, 10]);
    assert_eq!(&o[4..6], &[3, 4]);
    assert_eq!(o[6], 1 + 3 * 10 + 4 * 100 + 2 * 1000);
    assert_eq!(o[7], 2 + 4 * 10 + 3 * 100 + 1000);
    assert_eq!(o[8], 9);
    assert_eq!((o[9], o[10]), (0, -1));
    assert_eq!(o[11], 21);
    assert_eq!(o[12], 3);
    assert_eq!(o[13], 99);
    assert_eq!(f32s(&out[1]), vec![1.5 - 2.0 + 1.5 + 3.0]);
    assert_eq!(o[14], -10 + 1);
    assert_eq!(o[15], 0);
    assert_eq!(o[16], -1);
    assert_eq!(o[17], 3 + 11);
    assert_eq!(o[18], 2);
    assert_eq!(o[19], 11);
}

#[test]
fn operators_and_conversions() {
    let src = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global long *out, int n) {
    char c = 200;
    uchar uc = 200;
    short sh = -3;
    uint u = 0xFFFFFFFFu;
    out[0] = c;
    out[1] = uc;
    out[2] = u + 1;
    out[3] = (long)u + 1;
    out[4] = -7 / 2;
    out[5] = -7 % 2;
    out[6] = 7u >> 1;
    out[7] = -16 >> 2;
    out[8] = (int)3.99f;
    out[9] = (int)-3.99f;
    out[10] = (uint)(float)n;
    float f = n;
    f /= 4;
    out[11] = (long)(f * 100);
    int x = 5;
    x <<= 3; x |= 1; x ^= 0xF; x %= 7;
    out[12] = x;
    c += 100;
    out[13] = c;
    sh *= sh;
    out[14] = sh;
    int a = 0, b = 0;
    int r = (a++, b += 2, a + b);
    out[15] = r * 100 + a * 10 + b;
    out[16] = (n > 3) + (n < 3) * 2 + (n == 10) * 4 + (n != 10) * 8;
    out[17] = 0 || n;
    out[18] = n && 0;
    long big = 1L << 40;
    out[19] = big >> 38;
    double d = 1.0 / 3.0;
    out[20] = (long)(d * 3e9);
    bool bb = n;
    out[21] = bb + bb;
    out[22] = ~0u;
    half h = 1.5h;
    out[23] = (long)(h * 4.0h);
    long wide = 0x100000000L;
    if ((int)wide) out[24] = 1; else out[24] = 2;
    if ((bool)wide) out[25] = 3;
}
"#;
    let out = run(
        src,
        "k",
        &[1],
        None,
        &[
            ArgSpec::Buf(zeros(26 * 8)),
            ArgSpec::Val(10i32.to_le_bytes().to_vec()),
        ],
    );
    let o: Vec<i64> = out[0]
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(o[0], -56);
    assert_eq!(o[1], 200);
    assert_eq!(o[2], 0);
    assert_eq!(o[3], 0x1_0000_0000);
    assert_eq!((o[4], o[5], o[6], o[7]), (-3, -1, 3, -4));
    assert_eq!((o[8], o[9], o[10]), (3, -3, 10));
    assert_eq!(o[11], 250);
    assert_eq!(o[12], ((5 << 3 | 1) ^ 0xF) % 7);
    assert_eq!(o[13], 44);
    assert_eq!(o[14], 9);
    assert_eq!(o[15], 312);
    assert_eq!(o[16], 1 + 4);
    assert_eq!((o[17], o[18]), (1, 0));
    assert_eq!(o[19], 4);
    assert_eq!(o[20], 1_000_000_000);
    assert_eq!(o[21], 2);
    assert_eq!(o[22], 0xFFFF_FFFF);
    assert_eq!(o[23], 6);
    assert_eq!((o[24], o[25]), (2, 3));
}

#[test]
fn pointers_and_address_spaces() {
    let src = r#"
int load_any(const int *p, int i) { return p[i]; }
kernel void k(global int *out, global int *data) {
    local int lbuf[4];
    int priv[4] = { 5, 6, 7, 8 };
    uint l = get_local_id(0);
    lbuf[l] = 100 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    global int *p = data + 2;
    global int *q = &data[5];
    out[0] = q - p;
    out[1] = *(p + 1);
    p++;
    out[2] = *p;
    out[3] = load_any(data, 1) + load_any(lbuf, 2) + load_any(priv, 3);
    int *g = lbuf;
    out[4] = to_local(g) != NULL;
    out[5] = to_global(g) != NULL;
    out[6] = to_private(g) == NULL;
    g = priv;
    out[7] = get_fence(g) == 0;
    g = data;
    out[8] = get_fence(g) == CLK_GLOBAL_MEM_FENCE;
    out[9] = *(global int *)g;
    int *n = 0;
    out[10] = n == NULL && to_global(n) == NULL;
    out[11] = (p > data) + (p >= q) * 2;
    int *pp = &priv[1];
    *pp += 10;
    out[12] = priv[1];
    int x = 3;
    int *px = &x;
    *px = 4;
    out[13] = x;
    int (*row)[2] = (int (*)[2])priv;
    out[14] = row[1][0];
}
"#;
    let data: Vec<i32> = (0..8).map(|i| i * 11).collect();
    let out = run(
        src,
        "k",
        &[4],
        Some(&[4]),
        &[ArgSpec::Buf(zeros(60)), ArgSpec::Buf(bytes_i32(&data))],
    );
    let o = i32s(&out[0]);
    assert_eq!(o[0], 3);
    assert_eq!(o[1], 33);
    assert_eq!(o[2], 33);
    assert_eq!(o[3], 11 + 102 + 8);
    assert_eq!(&o[4..11], &[1, 0, 1, 1, 1, 0, 1]);
    assert_eq!(o[11], 1);
    assert_eq!(o[12], 16);
    assert_eq!(o[13], 4);
    assert_eq!(o[14], 7);
}

#[test]
fn atomics_and_printf() {
    let src = r#"
kernel void k(global int *counter, global uint *mx, local int *lc) {
    uint l = get_local_id(0);
    if (l == 0) *lc = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(counter, 2);
    atomic_inc(lc);
    atomic_max(mx, get_global_id(0));
    atom_min(&mx[1], (uint)get_global_id(0) + 5);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        atomic_add(&counter[1], *lc);
        // One work-item of one group: which group came first must not matter (the test
        // runs the kernel twice and compares). The first exchange succeeds, the second fails.
        if (get_group_id(0) == 0) {
            int first = atomic_cmpxchg(&counter[2], 0, 7);
            int second = atomic_cmpxchg(&counter[2], 0, 9);
            counter[3] = first + 10 * second;
        }
    }
}
kernel void c11(global atomic_int *a, global int *out) {
    atomic_fetch_add_explicit(a, 3, memory_order_relaxed, memory_scope_device);
    atomic_fetch_or(&a[1], 1 << get_global_id(0));
    if (get_global_id(0) == 0) {
        int expected = 5;
        out[0] = atomic_compare_exchange_strong(&a[2], &expected, 9);
        out[1] = expected;
        atomic_store(&a[3], 77);
        out[2] = atomic_load(&a[3]);
        printf("hello %d %s\n", 42, "there");
    }
}
"#;
    let out = run(
        src,
        "k",
        &[16],
        Some(&[8]),
        &[
            ArgSpec::Buf(zeros(16)),
            ArgSpec::Buf(bytes_i32(&[0, 1000])),
            ArgSpec::Local(4),
        ],
    );
    let c = i32s(&out[0]);
    // counter, local count summed per group, exchanged value, old values 0 then 7.
    assert_eq!(c, vec![32, 16, 7, 70]);
    assert_eq!(u32s(&out[1]), vec![15, 5]);
    let out = run(
        src,
        "c11",
        &[4],
        None,
        &[ArgSpec::Buf(zeros(16)), ArgSpec::Buf(zeros(12))],
    );
    assert_eq!(i32s(&out[0]), vec![12, 15, 0, 77]);
    assert_eq!(i32s(&out[1]), vec![0, 0, 77]);
}

#[test]
fn math_builtins_through_the_runtime() {
    let src = r#"
kernel void k(global float *out, global int *iout) {
    float x = 2.0f;
    out[0] = sqrt(x * 8.0f);
    out[1] = fmax(1.0f, x);
    float ip;
    out[2] = fract(3.25f, &ip);
    out[3] = ip;
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[4] = dot(v, v);
    iout[0] = abs(-5);
    iout[1] = max(3u, 7u);
    iout[2] = clamp(15, 0, 10);
    int4 cv = convert_int4(v * 1.5f);
    iout[3] = cv.w;
    iout[4] = convert_uchar_sat(300);
    iout[5] = all((int4)(1, 1, 1, -1) != 0);
    iout[6] = isnan(x);
    iout[7] = popcount(0xF0u);
}
"#;
    let out = run(
        src,
        "k",
        &[1],
        None,
        &[ArgSpec::Buf(zeros(20)), ArgSpec::Buf(zeros(32))],
    );
    assert_eq!(f32s(&out[0]), vec![4.0, 2.0, 0.25, 3.0, 30.0]);
    assert_eq!(i32s(&out[1]), vec![5, 7, 10, 6, 255, 1, 0, 4]);
}

#[test]
fn work_group_collectives() {
    let src = r#"
kernel void k(global int *out, global float *fout) {
    int l = get_local_id(0);
    int g = get_group_id(0);
    int sum = work_group_reduce_add(l);
    int mx = work_group_reduce_max(-l);
    int pre = work_group_scan_inclusive_add(1);
    int ex = work_group_scan_exclusive_add(2);
    int b = work_group_broadcast(l * 3, 2);
    int all = work_group_all(l < 100);
    int any = work_group_any(l == 5);
    float fs = work_group_reduce_add((float)l * 0.5f);
    out[get_global_id(0)] = sum * 1000000 + mx * 100000 + pre * 1000 + ex * 10 + b + all * 100 + any * 200;
    if (l == 0) fout[g] = fs;
}
"#;
    let out = run(
        src,
        "k",
        &[16],
        Some(&[8]),
        &[ArgSpec::Buf(zeros(64)), ArgSpec::Buf(zeros(8))],
    );
    let o = i32s(&out[0]);
    for (i, v) in o.iter().enumerate() {
        let l = (i % 8) as i32;
        assert_eq!(
            *v,
            28 * 1000000 + (l + 1) * 1000 + 2 * l * 10 + 6 + 100 + 200,
            "item {i}"
        );
    }
    assert_eq!(f32s(&out[1]), vec![14.0, 14.0]);
}

#[test]
fn dynamic_vector_index_writes() {
    let src = r#"
kernel void k(global int *out, int i) {
    int4 v = (int4)(0);
    v[i] = 7;
    v[(i + 1) & 3] += 2;
    int4 m[1];
    m[0] = (int4)(1);
    m[0][i] = 9;
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
    out[4] = m[0].s2;
}
"#;
    let out = run(
        src,
        "k",
        &[1],
        None,
        &[
            ArgSpec::Buf(zeros(20)),
            ArgSpec::Val(2i32.to_le_bytes().to_vec()),
        ],
    );
    assert_eq!(i32s(&out[0]), vec![0, 0, 7, 2, 9]);
}

#[test]
fn printf_output() {
    let src = r#"
kernel void k(global int *o) {
    int i = get_global_id(0);
    printf("item %d of %d: %s %.2f\n", i, (int)get_global_size(0), "ok", 0.5f * i);
}
"#;
    let out = run(src, "k", &[2], Some(&[1]), &[ArgSpec::Buf(zeros(4))]);
    let text = String::from_utf8(out[1].clone()).expect("utf-8");
    assert_eq!(text, "item 0 of 2: ok 0.00\nitem 1 of 2: ok 0.50\n");
}

#[test]
fn compound_literals_and_struct_conditionals() {
    let src = r#"
typedef struct { int x, y; } P;
P pick(int c, P a, P b) { return c ? a : b; }
int area(P p) { return p.x * p.y; }
kernel void k(global int *o) {
    P a = (P){ 2, 3 };
    P b = { .y = 7 };
    o[0] = area(pick(1, a, b)) + area(pick(0, a, b));
    o[1] = ((P){ 4, 5 }).y;
    int arr[] = { 9, 8, 7 };
    o[2] = arr[2];
    P ps[3] = { a, b, { 1, 1 } };
    o[3] = ps[1].y + ps[2].x;
    global P *gp = (global P *)(o + 4);
    *gp = ps[0];
    gp->y += 10;
}
"#;
    let out = run(src, "k", &[1], None, &[ArgSpec::Buf(zeros(24))]);
    assert_eq!(i32s(&out[0]), vec![6, 5, 7, 8, 2, 13]);
}

#[test]
fn struct_and_constant_kernel_arguments() {
    let src = r#"
typedef struct { int scale; float bias; } Params;
kernel void k(global float *out, constant float *in, Params p) {
    int i = get_global_id(0);
    out[i] = in[i] * p.scale + p.bias;
    p.scale = 0;
}
"#;
    let mut params = 3i32.to_le_bytes().to_vec();
    params.extend_from_slice(&0.5f32.to_le_bytes());
    let out = run(
        src,
        "k",
        &[4],
        None,
        &[
            ArgSpec::Buf(zeros(16)),
            ArgSpec::Buf(bytes_f32(&[1.0, 2.0, 3.0, 4.0])),
            ArgSpec::Val(params),
        ],
    );
    assert_eq!(f32s(&out[0]), vec![3.5, 6.5, 9.5, 12.5]);
}
