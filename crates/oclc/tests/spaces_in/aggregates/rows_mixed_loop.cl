// Rows in two spaces walked by a loop: resolved once the loop is unrolled.
typedef struct { float *rows[2]; } pair;
static float both(pair p, int j) { float t = 0; for (int i = 0; i < 2; i++) t += p.rows[i][j]; return t; }
kernel void k(global float *a, global float *out) {
  local float l[64];
  l[get_local_id(0)] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  pair p = { { a, l } };
  out[get_global_id(0)] = both(p, (int)get_local_id(0));
}
