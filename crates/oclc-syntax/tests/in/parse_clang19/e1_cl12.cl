// -cl-std=CL1.2
int generic = 1;
int pipe = 2;
void f(int *generic p);
kernel void k(global int *p) { int private = 1; }
auto int a;
static generic float g = 0;
