struct S { int a; int b }; struct T { int ; };
union U { };
enum E { X = , Y };
enum F { P = 1 Q };
enum { };
enum G;
