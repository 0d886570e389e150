void f(void) {
  float4 v;
  v.xyzw = v.s0123;
  v.lo = v.hi;
  v.s0 = v.even.x;
  float2 w = v.odd;
  int n = vec_step(v) + vec_step(float4);
}
