void f(int x) {
  x = (static int)x;
  x = (inline int)x;
  x = sizeof(int y);
  x = (const)x;
  x = (int[)x;
  x = (int (*)(int)0;
  x = _Alignof(int);
  x = _Alignof x;
  x = vec_step(int, 2);
}
