struct S;
struct S { struct S *next; int v; };
union U { struct { int a; }; int b; };
enum E : int { A };
