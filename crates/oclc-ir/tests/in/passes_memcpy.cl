// The seed article's memcpy: one generic copy function, called from one kernel with a
// __global source and from another with a __local source.
void GenericXToY_internal(unsigned char *in, unsigned char *out, unsigned int startFrom,
                          unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

kernel void from_global(global unsigned char *src, global unsigned char *dst)
{
    unsigned int gid = get_global_id(0);
    GenericXToY_internal(src, dst, gid * 4, gid * 4, 4);
}

kernel void from_local(global unsigned char *src, global unsigned char *dst,
                       local unsigned char *tmp)
{
    unsigned int gid = get_global_id(0);
    unsigned int lid = get_local_id(0);
    for (int k = 0; k < 4; k++)
        tmp[lid * 4 + k] = src[gid * 4 + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    GenericXToY_internal(tmp, dst, lid * 4, gid * 4, 4);
}
