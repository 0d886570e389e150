// A struct mixing vectors, scalars and pointers, copied and passed by value.
typedef struct { float4 scale; float *p; int n; float bias; } affine;

static float4 apply(affine a, int i) { return vload4(i, a.p) * a.scale + a.bias; }

kernel void k(global float *x, global float4 *out) {
  affine a = { (float4)(1, 2, 3, 4), x, 4, 0.5f };
  affine b = a;
  b.bias = 1.5f;
  int i = (int)get_global_id(0);
  out[i] = apply(a, i) + apply(b, i + 1);
}
