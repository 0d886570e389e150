typedef struct { int a; } T
int t;
