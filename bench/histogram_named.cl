// 256-bin histogram of bytes: each work-group counts into its own bins in __local memory
// with local atomics, then adds them to the global histogram; named-space pointers only.

#define BINS 256

kernel void histogram(global const uchar *data, uint n, global uint *hist)
{
    local uint bins[BINS];
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);

    for (size_t b = lid; b < BINS; b += lsz)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t b = lid; b < BINS; b += lsz)
        atomic_add(&hist[b], bins[b]);
}
