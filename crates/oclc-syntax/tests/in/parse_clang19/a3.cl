typedef struct { int a; } T
T t;
enum E { A B, C = };
void f(int, );
void g(void) { int x = 08; float y = 1.0q; char c = 'ab'; }
static y;
foo bar;
int x == 1;
struct { int q; };
struct;
