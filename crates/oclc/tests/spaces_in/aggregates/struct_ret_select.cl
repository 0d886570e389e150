// A struct returned by a helper choosing between two views of one space.
typedef struct { float *p; int n; } span;
static span pick(span a, span b, int c) { return c ? a : b; }
kernel void k(global float *x, global float *y, global float *out, int c) {
  span a = { x, 4 }, b = { y, 8 };
  span s = pick(a, b, c);
  out[get_global_id(0)] = s.p[get_global_id(0) % s.n];
}
