// The issue's view: a span passed by value, once over global and once over local memory.
typedef struct { float *p; int n; } span;

static float sum(span s) {
  float t = 0;
  for (int i = 0; i < s.n; i++) t += s.p[i];
  return t;
}

kernel void k(global float *x, global float *out) {
  local float tile[64];
  tile[get_local_id(0)] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  span a = { x, 64 }, b = { tile, 64 };
  out[get_global_id(0)] = sum(a) + sum(b);
}
