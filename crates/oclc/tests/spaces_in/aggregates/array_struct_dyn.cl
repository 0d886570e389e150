// An array of views of one space indexed at run time: the loaded pointers are global.
typedef struct { float *p; int n; } span;
kernel void k(global float *x, global float *y, global float *out) {
  span v[4] = { { x, 1 }, { y, 2 }, { x + 4, 3 }, { y + 4, 4 } };
  size_t i = get_global_id(0);
  out[i] = v[i & 3].p[0] * v[i & 3].n;
}
