void f(void) {
  for (int i = 0; i < 3; i++ {}
  for (int i = 0; i < 3) {}
  for (;;;) {}
}
