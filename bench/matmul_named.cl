// C = A * B for square row-major float matrices, in 16x16 tiles staged through __local
// memory; named-space pointers only. n must be a multiple of TILE, the work-group TILE x TILE.

#define TILE 16

kernel void matmul(global const float *a, global const float *b, global float *c, uint n)
{
    local float ta[TILE][TILE];
    local float tb[TILE][TILE];

    size_t col = get_global_id(0);
    size_t row = get_global_id(1);
    size_t lx = get_local_id(0);
    size_t ly = get_local_id(1);

    float sum = 0.0f;
    for (uint t = 0; t < n; t += TILE) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE; k++)
            sum += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = sum;
}
