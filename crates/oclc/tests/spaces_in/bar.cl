// The seed's `bar`: one generic pointer takes a __global and a __local pointer.
int is_even(size_t x) { return (x & 1) == 0; }

kernel void bar(global int *g, local int *l)
{
    int *var;

    if (is_even(get_global_id(0)))
        var = g;
    else
        var = l;
    *var = 42;
}
