// The seed's memcpy with one kernel per source space.
void GenericXToY_internal(unsigned char *in, unsigned char *out, unsigned int startFrom,
                          unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

kernel void global_to_global(global unsigned char *src, global unsigned char *dst,
                             unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    GenericXToY_internal(src, dst, gid * chunk, gid * chunk, chunk);
}

kernel void local_to_global(global unsigned char *src, global unsigned char *dst,
                            local unsigned char *tmp, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    unsigned int lid = get_local_id(0);
    for (unsigned int i = 0; i < chunk; i++)
        tmp[lid * chunk + i] = src[gid * chunk + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    GenericXToY_internal(tmp, dst, lid * chunk, gid * chunk, chunk);
}
