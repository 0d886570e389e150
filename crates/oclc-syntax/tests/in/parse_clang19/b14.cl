typedef int T;
void f(void) {
  T x = 1;
  T;
  int T = 2;
  T * x;
}
