// A struct holding two views passed by value; each view keeps its own space.
typedef struct { float *p; int n; } span;
typedef struct { span a; span b; } two;

static float dot(two v) {
  float t = 0;
  for (int i = 0; i < v.a.n; i++) t += v.a.p[i] * v.b.p[i];
  return t;
}

kernel void k(global float *x, global float *out) {
  local float w[16];
  size_t l = get_local_id(0);
  if (l < 16) w[l] = (float)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  two v = { { x + get_group_id(0) * 16, 16 }, { w, 16 } };
  out[get_global_id(0)] = dot(v);
}
