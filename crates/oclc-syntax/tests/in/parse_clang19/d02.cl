void f(void) {
  int x = 1;
  x = x @ 2;
  @;
  x = 3;
}
