void f(int a,, int b);
void g(...);
void h(int a ...);
int (x;
int *;
