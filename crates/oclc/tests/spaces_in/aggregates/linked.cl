// A linked structure in private memory: nodes pointing to the next node and to data.
typedef struct node { struct node *next; global float *data; float *w; } node;

kernel void k(global float *x, global float *out) {
  float wts[3] = { 0.25f, 0.5f, 0.25f };
  node n[3];
  for (int j = 0; j < 3; j++) {
    n[j].data = x + j;
    n[j].w = &wts[j];
    n[j].next = j < 2 ? &n[j + 1] : 0;
  }
  float t = 0;
  size_t i = get_global_id(0);
  for (node *p = &n[0]; p; p = p->next) t += p->data[i] * *p->w;
  out[i] = t;
}
