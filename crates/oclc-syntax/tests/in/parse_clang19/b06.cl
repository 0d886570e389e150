kernel void k(global int *p) {
  p[0] = (int)(;
  p[1] = (int) ;
  p[2] = (float4)(1, 2;
  p[3] = sizeof(int;
  p[4] = (int x)3;
}
