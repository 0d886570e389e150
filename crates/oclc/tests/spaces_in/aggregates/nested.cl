// Pointers in nested structs, read through a field path.
typedef struct { float *p; int n; } span;
typedef struct { span inner; float *out; int stride; } job;

kernel void k(global float *x, global float *y, local float *scratch) {
  job a;
  a.inner.p = x;
  a.inner.n = 16;
  a.out = scratch;
  a.stride = 2;
  size_t i = get_local_id(0);
  a.out[i] = a.inner.p[i * a.stride] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  y[get_global_id(0)] = a.out[(i + 1) % 16] + a.inner.p[0];
}
