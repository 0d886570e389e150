// FLAGS: -cl-std=CL3.0 -cl-ext=+all
__global int counter = 0;
kernel void k(global int *p, local int *l) {
  int *g = get_local_id(0) ? (int *)l : (int *)p;
  global int *gp = to_global(g);
  if (gp) *gp = atomic_inc(&counter);
}
