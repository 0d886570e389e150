void f(void) {
  int a = 1;
  a = sizeof(a)
  a = 2;
  if (a) a = 1 else a = 2;
  while (a) a--
}
