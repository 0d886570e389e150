// A view kept in local memory: its pointer is loaded from memory (generic for everyone).
typedef struct { float *p; int n; } span;
kernel void k(global float *x, global float *out) {
  local span s;
  if (get_local_id(0) == 0) { s.p = x; s.n = 4; }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s.p[get_local_id(0) % s.n];
}
