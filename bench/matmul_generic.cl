// matmul_named.cl with the tile loads and the tile dot product in functions taking generic
// pointers (to __global and to __local memory).

#define TILE 16

float load_elem(const float *m, size_t i)
{
    return m[i];
}

// Adds the tile's products to the running sum in the order matmul_named.cl does, so the two
// versions differ only in their pointers.
float tile_dot(float sum, const float *row, const float *col)
{
    for (uint k = 0; k < TILE; k++)
        sum += row[k] * col[k * TILE];
    return sum;
}

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
        ta[ly][lx] = load_elem(a, row * n + t + lx);
        tb[ly][lx] = load_elem(b, (t + ly) * n + col);
        barrier(CLK_LOCAL_MEM_FENCE);
        sum = tile_dot(sum, &ta[ly][0], &tb[0][lx]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = sum;
}
