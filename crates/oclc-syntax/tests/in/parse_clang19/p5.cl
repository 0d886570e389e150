typedef struct { int a; } T T t;
