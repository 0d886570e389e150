// reduce_named.cl with the strided sum and the tree step in functions taking generic
// pointers (to __global and to __local memory).

ulong strided_sum(const uint *values, size_t first, size_t stride, uint count)
{
    ulong sum = 0;
    for (uint j = 0; j < count; j++)
        sum += values[first + j * stride];
    return sum;
}

void tree_step(ulong *scratch, size_t lid, size_t s)
{
    if (lid < s)
        scratch[lid] += scratch[lid + s];
}

kernel void reduce(global const uint *values, global ulong *partial, local ulong *scratch,
                   uint per_item)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    size_t grp = get_group_id(0);
    size_t base = grp * lsz * per_item;

    scratch[lid] = strided_sum(values, base + lid, lsz, per_item);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t s = lsz / 2; s > 0; s >>= 1) {
        tree_step(scratch, lid, s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[grp] = scratch[0];
}
