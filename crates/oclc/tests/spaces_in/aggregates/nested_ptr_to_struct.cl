// A struct holding a pointer to another struct holding the data pointer.
typedef struct { float *p; int n; } span;
typedef struct { span *v; int k; } holder;
static float get(holder h, int i) { return h.v->p[i % h.v->n]; }
kernel void k(global float *x, global float *out) {
  span s = { x, 16 };
  holder h = { &s, 1 };
  out[get_global_id(0)] = get(h, (int)get_global_id(0));
}
