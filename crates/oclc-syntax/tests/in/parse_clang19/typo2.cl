flaot x;
Float4 y;
uitn z;
typedef int myint;
myitn w;
void f(flaot a);
floatt x;
myintt w;
void f(void) { myintt q; }
void g(myintt a);
struct S { myintt m; };
size_tt s;
sampler s2;
