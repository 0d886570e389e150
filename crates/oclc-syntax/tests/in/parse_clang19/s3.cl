__attribute__((aligned)) int a;
int __attribute__((aligned(8))) b;
int c __attribute__((aligned(16), unused));
__kernel __attribute__((reqd_work_group_size(1,1,1))) void k1(void) {}
__attribute__((reqd_work_group_size(1,1,1))) __kernel void k2(void) {}
void __attribute__((overloadable)) f(int);
void g(int x __attribute__((unused)));
__attribute__((
int d;
