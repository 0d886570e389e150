// memcpy_generic.cl with the copy function specialised to named address spaces: the
// reference the generic version is measured against.

void GlobalToGlobal_internal(global unsigned char *in, global unsigned char *out,
                             unsigned int startFrom, unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

void LocalToGlobal_internal(local unsigned char *in, global unsigned char *out,
                            unsigned int startFrom, unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

kernel void copy_global(global unsigned char *src, global unsigned char *dst, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    GlobalToGlobal_internal(src, dst, gid * chunk, gid * chunk, chunk);
}

kernel void copy_local(global unsigned char *src, global unsigned char *dst,
                       local unsigned char *tmp, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    unsigned int lid = get_local_id(0);
    for (unsigned int i = 0; i < chunk; i++)
        tmp[lid * chunk + i] = src[gid * chunk + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    LocalToGlobal_internal(tmp, dst, lid * chunk, gid * chunk, chunk);
}
