void f(int a) {
  a = (a + 1;
  a = a + 1);
  a = [1];
  a = a[1;
}
