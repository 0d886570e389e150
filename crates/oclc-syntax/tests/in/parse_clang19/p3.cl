struct S { int a; } s
int t;
