// Plain copy of uints, one element per work-item, through a function with generic pointers.

void copy_elem(const uint *src, uint *dst, size_t i)
{
    dst[i] = src[i];
}

kernel void copy(global const uint *src, global uint *dst)
{
    copy_elem(src, dst, get_global_id(0));
}
