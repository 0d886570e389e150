struct S { int a; }
static int t;
