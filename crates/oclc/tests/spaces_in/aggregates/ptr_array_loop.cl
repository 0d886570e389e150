// An array of global pointers walked by a small loop: every element points to global memory.
kernel void k(global float *a, global float *b, global float *c, global float *out) {
  float *srcs[3] = { a, b, c };
  size_t i = get_global_id(0);
  float t = 0;
  for (int k = 0; k < 3; k++) t += srcs[k][i];
  out[i] = t;
}
