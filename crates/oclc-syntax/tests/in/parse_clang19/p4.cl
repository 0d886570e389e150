struct S { int a; } s t;
