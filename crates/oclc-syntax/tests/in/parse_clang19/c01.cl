void f(pipe p);
void g(read_only int x);
int __attribute__((address_space)) *q;
int (*fp)(int) = 0;
void h(int x[static]);
