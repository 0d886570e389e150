int a[3] = { 1, 2, 3 ;
int b[2] = { [0] 1 };
int c[2] = { .x };
struct P { int x; } p = { .x = 1, .y };
