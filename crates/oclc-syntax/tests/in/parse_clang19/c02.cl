void f(void) {
  int x = (int)(float)1;
  x = (int)(x, x);
  x = ((int)x)++;
  x = (x)(1);
  int y[2] = (int[2]){1,2};
}
