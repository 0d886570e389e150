// A pointer advanced through a pointer to it.
static void advance(float **pp, int k) { *pp += k; }
kernel void k(global float *x, global float *out) {
  float *p = x;
  advance(&p, 2);
  advance(&p, 3);
  out[get_global_id(0)] = p[get_global_id(0)];
}
