int f(int a) {
  if (a) else a = 1;
  return a
}
int g(void) { return; }
