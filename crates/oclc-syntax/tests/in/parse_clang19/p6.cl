struct S { int a; }
foo t;
