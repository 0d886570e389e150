typedef int myint;
void f(void) {
  flot x;
  myintt y;
  int myvar = 1;
  myvarr = 2;
  myvarr z;
  floatt w;
}
