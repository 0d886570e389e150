// A struct of pointers copied with `=`, the copy then modified and used.
typedef struct { const float *src; float *dst; int n; } pair;

kernel void k(global const float *in, global float *out) {
  local float buf[64];
  pair a = { in, buf, 64 };
  pair b = a;
  b.dst = out;
  size_t i = get_local_id(0);
  a.dst[i] = a.src[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  b.dst[get_global_id(0)] = a.dst[63 - i] + b.src[get_global_id(0)];
}
