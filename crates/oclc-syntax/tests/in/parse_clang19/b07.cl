void f(void) {
  int a = 1, b = 2
  int c;
  a = b c;
  goto;
  break
}
