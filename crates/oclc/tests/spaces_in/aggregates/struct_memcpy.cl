// A struct of pointers copied field by field through a second struct, then assigned back.
typedef struct { int *a; int *b; } ab;

kernel void k(global int *g, global int *out) {
  local int l[64];
  ab s = { g, l };
  ab t;
  t = s;
  int *tmp = t.a;
  t.a = t.b;
  t.b = tmp;
  s = t;
  size_t i = get_local_id(0);
  s.a[i] = s.b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s.a[63 - i];
}
