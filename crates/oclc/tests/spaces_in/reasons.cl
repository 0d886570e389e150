// Pointers that stay generic for other reasons.
int *pick(int *a, int *b, int c) { return c ? a : b; }

kernel void reasons(global int *g, global long *addrs, global int *out)
{
    int *from_int = (int *)addrs[0];
    *from_int = 1;
    local int l[4];
    int *r = pick(g, l, out[0]);
    *r = 2;
}
