// Sum of a uint array: each work-item adds `per_item` elements (strided by the group size),
// then the group adds its work-items' sums in a tree in __local memory. One partial sum per
// group; named-space pointers only. The local size must be a power of two.

kernel void reduce(global const uint *values, global ulong *partial, local ulong *scratch,
                   uint per_item)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    size_t grp = get_group_id(0);
    size_t base = grp * lsz * per_item;

    ulong sum = 0;
    for (uint j = 0; j < per_item; j++)
        sum += values[base + j * lsz + lid];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[grp] = scratch[0];
}
