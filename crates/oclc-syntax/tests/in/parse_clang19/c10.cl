void f(int a) {
  a = a +
}
void g(int a) {
  a = (a
}
