// FLAGS: -pedantic -Werror
kernel void k(global int *p) {
  int a[0];
  constant int *c = (constant int *)p;
}
