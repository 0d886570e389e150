// An array of pointers into different spaces, indexed with constants only.
kernel void k(global int *g, global int *out) {
  local int l[64];
  int priv[4] = { 1, 2, 3, 4 };
  int *ptrs[3] = { g, l, priv };
  size_t i = get_local_id(0);
  ptrs[1][i] = ptrs[0][i] + ptrs[2][i & 3];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ptrs[1][63 - i];
}
