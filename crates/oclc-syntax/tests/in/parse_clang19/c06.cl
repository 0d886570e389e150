struct S { int a : ; int : 3; int b : 2 };
struct T { int x, };
struct U { int y; } u = { 1 }
int z;
