// Pointers loaded from global memory (a table of addresses): no compiler can resolve these.
typedef struct { float *p; int n; } span;

kernel void k(global span *views, global float *out) {
  size_t i = get_global_id(0);
  span s = views[i];
  out[i] = s.p[0] + s.p[s.n - 1];
}
