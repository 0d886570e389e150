// Plain copy of uints, one element per work-item, with named-space pointers only.

kernel void copy(global const uint *src, global uint *dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
