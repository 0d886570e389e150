// Full-precision single-precision math on float4 lanes: sin, cos, exp, sqrt, log, fma and a
// division per element (each within its OpenCL ULP limit on every device).

kernel void vector_math(global const float *a, global const float *b, global float *o)
{
    size_t i = get_global_id(0);
    float4 x = vload4(i, a), y = vload4(i, b);
    vstore4(sin(x) * cos(y) + exp(-x) * sqrt(y) + log(x + 1.0f) + fma(x, y, 0.5f) / (y + 1.0f),
            i, o);
}
