// Every statement form.
void stmts(__global int *out, int n) {
  int i, j = 0, *p = &j;
  ;
  for (i = 0; i < n; ++i) {
    if (i % 2) continue;
    else if (i > 10) break;
    else { j += i; }
  }
  for (int k = 0, m = 1; k < 3; k++, m <<= 1) out[k] = m;
  for (;;) { break; }
  while (n--) *p += 1;
  do { j--; } while (j > 0);
  switch (n) {
  case 0:
  case 1: out[0] = 1; break;
  case 2 + 1: { int x = 3; out[1] = x; }
  default: out[2] = n ? n : -n;
  }
  goto done;
done:
  __attribute__((opencl_unroll_hint(2))) for (int u = 0; u < 4; u++) out[u] = u;
  return;
}

int expr_forms(int a, int b) {
  int r = a = b += 3, s = (a, b);
  r = a > b ? a : b;
  r = !a && b || ~a & b | a ^ b;
  r = (a << 2) >> 1;
  r = -a + +b - (int)(float)a;
  r = a++ + --b;
  r = sizeof a + sizeof(int) + _Alignof(float4) + __alignof__(r);
  return r;
}
