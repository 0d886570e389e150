// A cursor struct advanced in a loop: its pointer field keeps its space across iterations.
typedef struct { global float *base; float *cur; int left; } cursor;

static cursor step(cursor c) { c.cur += 1; c.left -= 1; return c; }

kernel void k(global float *x, global float *out) {
  cursor c = { x, x + get_global_id(0) * 4, 4 };
  float t = 0;
  while (c.left > 0) { t += *c.cur; c = step(c); }
  out[get_global_id(0)] = t;
}
