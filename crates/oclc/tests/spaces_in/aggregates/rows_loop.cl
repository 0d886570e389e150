// An array of row pointers in a struct passed by value, walked by a small loop.
typedef struct { float *rows[4]; int n; } mat;
static float trace(mat m) { float t = 0; for (int i = 0; i < 4; i++) t += m.rows[i][i]; return t; }
kernel void k(global float *a, global float *b, global float *out) {
  mat m = { { a, b, a + 8, b + 8 }, 4 };
  out[get_global_id(0)] = trace(m);
}
