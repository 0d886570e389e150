_Static_assert(1, "x")
int a;
_Static_assert 1;
_Static_assert(1 "x");
