// A helper filling a view through a pointer: what it stores is part of its summary.
typedef struct { float *p; int n; } span;
static void init(span *s, float *p, int n) { s->p = p; s->n = n; }
kernel void k(global float *x, global float *out) {
  local float t[64];
  span a, b;
  init(&a, x, 64);
  init(&b, t, 64);
  size_t i = get_local_id(0);
  b.p[i] = a.p[i] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b.p[63 - i];
}
