void f(void) {
  struct S { int a; } s = { 1 };
  struct S t = s;
  enum E { X, Y } e = Y;
  union U { int i; float f; } u;
  u.i = 1;
  struct S *p = &t;
  p->a = 2;
  struct { int q; } anon;
}
