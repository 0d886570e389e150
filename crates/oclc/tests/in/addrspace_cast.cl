// FLAGS: -cl-std=CL1.2
kernel void k(global int *g, local int *l) {
  g = (global int *)l;
  local int *q = g;
  constant int *c = 0;
  *c = 1;
}
