#define INNER undefined_var
#define OUTER(x) (INNER + (x))
kernel void k(global int *p) {
  *p = OUTER(1);
}
