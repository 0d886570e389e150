// An array of views with constant indices, each passed by value.
typedef struct { float *p; int n; } span;

static float first(span s) { return s.p[0] + s.p[s.n - 1]; }

kernel void k(global float *x, global float *out) {
  local float t[8];
  size_t l = get_local_id(0);
  if (l < 8) t[l] = x[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  span v[2] = { { x, 16 }, { t, 8 } };
  out[get_global_id(0)] = first(v[0]) * first(v[1]);
}
