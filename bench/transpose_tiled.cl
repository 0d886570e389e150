// Matrix transpose through 16x16 __local tiles (one extra column against bank conflicts).

#define TILE 16

kernel void transpose(global const float *in, global float *out, uint n)
{
    local float tile[TILE][TILE + 1];
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[y * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t ox = get_group_id(1) * TILE + lx;
    size_t oy = get_group_id(0) * TILE + ly;
    out[oy * n + ox] = tile[lx][ly];
}
