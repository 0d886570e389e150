int f(void) {
  return (1, 2;
}
int g(void) {
  return;
}
int h(void) { return 1 + ; }
