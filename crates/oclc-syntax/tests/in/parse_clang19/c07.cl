int f(int a b);
int g(int a, float b c);
int h(int a) int;
