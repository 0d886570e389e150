// A struct of pointers returned by value, then indexed.
typedef struct { float *p; int n; } span;

static span make(float *p, int n) { span s = { p, n }; return s; }
static span tail(span s, int k) { span t = { s.p + k, s.n - k }; return t; }

kernel void k(global float *x, global float *out) {
  span s = tail(make(x, 64), 4);
  size_t i = get_global_id(0);
  out[i] = s.p[i % s.n];
}
