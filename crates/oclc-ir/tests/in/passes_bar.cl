// The seed's bar: one generic pointer that points to global or local memory.
kernel void bar(global int *g, local int *l)
{
    int *var;

    if (get_global_id(0) % 2 == 0)
        var = g + get_global_id(0);
    else
        var = l + get_local_id(0);
    *var = 42;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) % 2 == 1)
        g[get_global_id(0)] = l[get_local_id(0)] + 1;
}

// Casts the analysis proves: to_global succeeds, to_local and (local int *) never do.
kernel void casts(global int *g, global int *out)
{
    int *p = g;
    out[0] = to_global(p) != 0;
    out[1] = to_local(p) == 0;
    out[2] = get_fence(p);
    out[3] = *(global int *)p;
    if (out[3] == 12345)
        *(local int *)p = 1;
}

int *pick(int *a, int *b, int c) { return c ? a : b; }

// Pointers through a private struct, a helper returning a pointer, and an integer cast.
struct S { int *p; int n; };

kernel void misc(global int *g, local int *l)
{
    struct S s = { g + get_global_id(0), 1 };
    *s.p += s.n;
    int *q = pick(g, g + 1, get_global_id(0) == 0);
    q[2] += 1;
    int *r = (int *)((ulong)g + 12);
    *r += 1;
    l[get_local_id(0)] = 0;
}
