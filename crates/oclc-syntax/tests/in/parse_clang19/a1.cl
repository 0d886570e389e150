int a = ;
int b int c;
void f(int x, int y) {
  x = 1 y = 2;
  return 3
}
struct S { int m } s;
void g(void) {
  if (a { }
  int d = (1 + ;
}
int ok_after_errors = 1;
void h(void) x
int last;
