// A view handed down two levels by value, with global and local views.
typedef struct { float *p; int n; } span;

static float at(span s, int i) { return s.p[i % s.n]; }
static float avg2(span s, int i) { return (at(s, i) + at(s, i + 1)) * 0.5f; }

kernel void k(global float *x, global float *out) {
  local float t[64];
  size_t l = get_local_id(0);
  t[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  span g = { x, 1024 }, s = { t, 64 };
  out[get_global_id(0)] = avg2(g, (int)l) + avg2(s, (int)l);
}
