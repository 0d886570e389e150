// One Jacobi sweep of a 5-point stencil on an n x n grid; the border is copied.

kernel void jacobi(global const float *in, global float *out, uint n)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}
