// A struct chosen with ?: between two views of the same space.
typedef struct { float *p; int n; } span;

kernel void k(global float *a, global float *b, global float *out, int flag) {
  span x = { a, 8 }, y = { b, 8 };
  span s = flag ? x : y;
  size_t i = get_global_id(0);
  out[i] = s.p[i % s.n];
}
