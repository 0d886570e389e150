void f(void) {
  int a = 0x;
  int b = 1e+;
  float c = 0x1.0;
  int d = 0b102;
  char e = '\q';
  char g = '';
}
