// Genuinely mixed: a global and a local pointer in one array, picked by a run-time index.
kernel void k(global int *g, global int *out, int which) {
  local int l[64];
  int *ptrs[2] = { g, l };
  size_t i = get_local_id(0);
  l[i] = (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ptrs[which & 1][i];
}
