kernel void k(global int *p) {
  if (p[0] == 1 {
    p[0] = 2;
  }
  p[1] = 3;
}
