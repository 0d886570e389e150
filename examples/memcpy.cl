// The memcpy of "The Generic Address Space in OpenCL 2.0" (Lake and Ioffe, Intel, 2015):
// one copy function whose pointers are generic, called with a __global source and with a
// __local source. Needs -cl-std=CL2.0 (or CL3.0 with __opencl_c_generic_address_space);
// under CL1.2 the calls are errors: passing '__global unsigned char *' to parameter of type
// 'unsigned char *' changes address space of pointer.

void GenericXToY_internal(unsigned char *in, unsigned char *out, unsigned int startFrom,
                          unsigned int startTo, unsigned int length)
{
    for (int i = startFrom; i < startFrom + length;)
        out[startTo++] = in[i++];
}

// Each work-item copies `chunk` bytes of `src` twice: straight from global memory into
// `from_global`, and through the work-group's __local staging buffer into `from_local`.
kernel void copy(global unsigned char *src, global unsigned char *from_global,
                 global unsigned char *from_local, local unsigned char *tmp, unsigned int chunk)
{
    unsigned int gid = get_global_id(0);
    unsigned int lid = get_local_id(0);

    GenericXToY_internal(src, from_global, gid * chunk, gid * chunk, chunk);

    for (unsigned int i = 0; i < chunk; i++)
        tmp[lid * chunk + i] = src[gid * chunk + i];
    barrier(CLK_LOCAL_MEM_FENCE);

    GenericXToY_internal(tmp, from_local, lid * chunk, gid * chunk, chunk);
}
