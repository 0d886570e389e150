struct S { x; };
struct T { static int a; extern int b; inline int c; kernel int d; };
void f(void) { int q = (static int)1 + (inline int)2 + (kernel int)3 + (static extern int)4; }
