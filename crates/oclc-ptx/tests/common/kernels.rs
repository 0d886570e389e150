//! OpenCL C kernels shared by the snapshot tests and the GPU tests.

pub const REDUCE: &str = "
kernel void reduce(global const int *in, global int *out, local int *tmp) {
    local int first[1];
    size_t l = get_local_id(0);
    tmp[l] = in[get_global_id(0) - get_global_offset(0)];
    if (l == 0) first[0] = tmp[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) { out[2 * get_group_id(0)] = tmp[0]; out[2 * get_group_id(0) + 1] = first[0]; }
}";

pub const HIST: &str = "
kernel void hist(global const uint *in, global uint *bins, global int *total) {
    local uint h[16];
    size_t l = get_local_id(0);
    if (l < 16) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)] % 16]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) atomic_add(&bins[l], h[l]);
    atomic_add(total, 1);
    atomic_max(total + 1, (int)get_global_id(0));
}";

pub const GENERIC: &str = "
int sum3(const int *p) { return p[0] + p[1] + p[2]; }
kernel void gen(global int *g, global int *out) {
    local int l[3];
    int priv[3] = {100, 200, 300};
    if (get_local_id(0) == 0) { l[0] = 10; l[1] = 20; l[2] = 30; }
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *ln = 0;
    int *gn = ln;
    int *gl = l;
    int *gg = g;
    out[0] = sum3(g);
    out[1] = sum3(l);
    out[2] = sum3(priv);
    out[3] = gn == 0;
    out[4] = to_local(gl) != 0;
    out[5] = to_global(gl) == 0;
    out[6] = to_global(gg) == g;
    out[7] = to_private(gl) == 0;
    out[8] = get_fence(gg);
    out[9] = get_fence(gl);
}";

pub const MATH: &str = "
kernel void m(global const float *x, global int *o, global float *f) {
    float a = x[0], b = x[1];
    o[0] = convert_int_sat_rte(a * 1e10f);
    o[1] = convert_int_rte(2.5f);
    o[2] = convert_uchar_sat(-5);
    o[3] = clz(1u);
    o[4] = popcount(0xF0F0u);
    o[5] = rotate(0x80000001u, 1u);
    o[6] = mul_hi(0x40000000, 8);
    o[7] = add_sat(0x7fffffff, 5);
    o[8] = isnan(b - b * 0.0f + NAN);
    o[9] = as_int(1.0f);
    o[10] = (int)(short)70000;
    o[11] = (uchar)300 + (char)-1;
    o[12] = -17 / 5;
    o[13] = -17 % 5;
    o[14] = 0x80000000u >> 31;
    o[15] = -8 >> 1;
    f[0] = sqrt(a);
    f[1] = fma(a, b, 1.0f);
    f[2] = rint(2.5f);
    f[3] = round(-2.5f);
    f[4] = a / b;
    f[5] = floor(-1.5f);
    f[6] = (float)(2147483647);
    f[7] = fmin(a, b);
    float4 v = vload4(0, x);
    vstore4(v.wzyx, 2, f);
}";

pub const GLOBALS: &str = "
global int counter = 40;
constant int table[3] = {1, 2, 3};
kernel void bump(global int *out) { counter += table[1]; out[0] = counter; }";

pub const COPY: &str = "kernel void copy(global const float4 *s, global float4 *t) { size_t i = get_global_id(0); t[i] = s[i] * 2.0f; }";

pub const ARGS: &str = "kernel void k(global int *a, int b) { a[0] = b; }";

pub const OUTPUTS: &str = "
kernel void outs(global const float *x, global float *f, global int *e, global double *d) {
    float ip;
    f[0] = fract(x[0], &ip);
    f[1] = ip;
    f[2] = modf(x[1], &ip);
    f[3] = ip;
    int ex;
    f[4] = frexp(x[2], &ex);
    e[0] = ex;
    f[5] = frexp(x[3], &ex);
    e[1] = ex;
    int2 e2;
    float2 m2 = frexp((float2)(x[4], x[5]), &e2);
    f[6] = m2.x;
    f[7] = m2.y;
    e[2] = e2.x;
    e[3] = e2.y;
    int de;
    d[0] = frexp((double)x[2], &de);
    e[4] = de;
}";

pub const EXP_LOG: &str = "
kernel void el(global const float *x, global float *o) {
    size_t i = get_global_id(0);
    float v = x[i];
    o[6 * i] = exp(v);
    o[6 * i + 1] = exp2(v);
    o[6 * i + 2] = exp10(v);
    o[6 * i + 3] = log(v);
    o[6 * i + 4] = log2(v);
    o[6 * i + 5] = log10(v);
}";

pub const TRIG: &str = "
kernel void trig(global const float *x, global float *o) {
    size_t i = get_global_id(0);
    float v = x[i];
    float c;
    o[5 * i] = sin(v);
    o[5 * i + 1] = cos(v);
    o[5 * i + 2] = tan(v);
    o[5 * i + 3] = sincos(v, &c);
    o[5 * i + 4] = c;
}";
