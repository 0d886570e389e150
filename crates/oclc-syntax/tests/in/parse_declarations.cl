// Declaration forms: typedefs, structs, unions, enums, bit-fields, arrays, pointers to
// pointers, function pointers, designated initializers.
typedef unsigned int uint_t;
typedef struct Point { float x, y; } Point;
struct Flags { unsigned a : 1, b : 3; int : 0; uint_t c; };
union U { int i; float f; char bytes[4]; };
enum Color { RED, GREEN = 4, BLUE, };
typedef enum { A = 1 << 2, B = A | 1 } AB;

__constant Point origin = { .x = 0.0f, .y = 0.0f };
__constant int table[2][3] = { { 1, 2, 3 }, [1] = { [2] = 9 } };
__constant struct Flags f = { 1, 2 };
__global int *__constant gp = 0;
int *(*fp)(int, float *);
void (*handlers[4])(void);
const volatile int *restrict const *pp;

int sum(int n, ...);
static inline float sq(float x) { return x * x; }
extern int ext_var;
int kr(a, b) int a; float b; { return a; }
_Static_assert(sizeof(Point) == 8, "Point is two floats");
