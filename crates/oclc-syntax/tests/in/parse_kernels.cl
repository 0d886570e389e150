// Kernels with every address-space spelling, vector literals and swizzles.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__constant float scale = 2.0f;

float4 helper(__global const float4 *src, int i) {
  return src[i].wzyx * scale + (float4)(1.0f, 2.0f, src[i].s01);
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void k(__global float4 *out, global const float4 *in, __local float *tmp,
       local int *t2, constant uint *c, int n) {
  size_t gid = get_global_id(0);
  __private float acc = 0;
  private int *p = &t2[0];
  tmp[get_local_id(0)] = in[gid].x;
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 v = (float4)(tmp[0]);
  v.lo = v.hi;
  v.even += (float2)(acc, (float)c[0]);
  out[gid] = helper(in, gid) + v * (float)vec_step(float4) + (float4)(sizeof(int4), 0, 0, 0);
  half h = 1.0h;
  uchar16 bytes = as_uchar16(v);
}
