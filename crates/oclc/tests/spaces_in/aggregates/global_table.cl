// Views read from global memory whose pointers are declared __global: nothing to infer.
typedef struct { global float *p; int n; } gspan;
kernel void k(global gspan *views, global float *out) {
  size_t i = get_global_id(0);
  gspan s = views[i];
  out[i] = s.p[0];
}
