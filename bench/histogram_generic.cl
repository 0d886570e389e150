// histogram_named.cl with the input read through a generic pointer in a helper function (the
// OpenCL 1.x atomics have no generic overload, so the bins stay a __local pointer).

#define BINS 256

void count_bytes(const uchar *data, uint n, size_t first, size_t stride, local uint *bins)
{
    for (size_t i = first; i < n; i += stride)
        atomic_inc(&bins[data[i]]);
}

kernel void histogram(global const uchar *data, uint n, global uint *hist)
{
    local uint bins[BINS];
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);

    for (size_t b = lid; b < BINS; b += lsz)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    count_bytes(data, n, get_global_id(0), get_global_size(0), bins);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t b = lid; b < BINS; b += lsz)
        atomic_add(&hist[b], bins[b]);
}
