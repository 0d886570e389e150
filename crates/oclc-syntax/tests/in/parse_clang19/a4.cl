kernel void k(global float4 *out) {
  float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f;
  out[0] = v.;
  out[1] = (float4)(;
  out[2] = sizeof(;
  int z = vec_step(;
  l: 
}
