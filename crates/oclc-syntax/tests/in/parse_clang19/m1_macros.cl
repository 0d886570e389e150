#define X 1
#define F(a) (a + 1)
#define SEMI_LESS int q = 1
void f(int a) {
  a = X
  a = F(2)
  SEMI_LESS
  a = 3;
}
