// FLAGS: -cl-std=CL2.0 -Wconversion
kernel void k(global int *g) {
  int x = 0;
  global int *p = to_global(&x);
  generic int *q = g;
  constant int *c = q;
}
