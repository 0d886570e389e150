// The seed article's memcpy (Lake and Ioffe, "The Generic Address Space in OpenCL 2.0"):
// GenericXToY_internal takes generic pointers and is called with a __global source
// (copy_global) and with a __local source (copy_local). Each work-item copies `chunk` bytes.

void GenericXToY_internal(unsigned char *in, unsigned char *out, unsigned int startFrom,
                          unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

kernel void copy_global(global unsigned char *src, global unsigned char *dst, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    GenericXToY_internal(src, dst, gid * chunk, gid * chunk, chunk);
}

kernel void copy_local(global unsigned char *src, global unsigned char *dst,
                       local unsigned char *tmp, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    unsigned int lid = get_local_id(0);
    for (unsigned int i = 0; i < chunk; i++)
        tmp[lid * chunk + i] = src[gid * chunk + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    GenericXToY_internal(tmp, dst, lid * chunk, gid * chunk, chunk);
}
