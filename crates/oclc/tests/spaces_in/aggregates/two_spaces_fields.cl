// One struct, two pointer fields in different spaces, passed by value to a helper.
typedef struct { const float *src; float *dst; } move;

static void run(move m, size_t i) { m.dst[i] = m.src[i] * 3.0f; }

kernel void k(global const float *in, global float *out) {
  local float tmp[64];
  size_t i = get_local_id(0);
  move a = { in + get_group_id(0) * 64, tmp };
  run(a, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  move b = { tmp, out + get_group_id(0) * 64 };
  run(b, 63 - i);
}
