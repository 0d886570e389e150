int a @ b;
int c = 1 $ 2;
@
int d;
