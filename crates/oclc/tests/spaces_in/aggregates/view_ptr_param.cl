// Helpers taking a pointer to a private view (a "method" receiver).
typedef struct { float *p; int n; } span;

static float get(const span *s, int i) { return s->p[i % s->n]; }
static void put(span *s, int i, float v) { s->p[i % s->n] = v; }

kernel void k(global float *x, global float *out) {
  local float t[64];
  span g = { x, 1024 }, l = { t, 64 };
  int i = (int)get_local_id(0);
  put(&l, i, get(&g, (int)get_global_id(0)));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = get(&l, 63 - i);
}
