typedef int T;
T (x);
T (*y)[3];
int f(T);
int g(T t, T);
int h(int (T));
