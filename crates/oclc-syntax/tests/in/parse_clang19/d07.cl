kernel void k(global int *p) {
  p[0] = 1
  p[1] = 2;
  int x
  x = 1;
  float y = 2.0f
}
