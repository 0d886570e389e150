void copy_internal(uchar *in, uchar *out, uint from, uint to, uint len) {
    for (uint i = from; i < from + len;)
        out[to++] = in[i++];
}

kernel void copy(global uchar *src, global uchar *dst, local uchar *tmp) {
    uint l = get_local_id(0);
    tmp[l] = src[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    copy_internal(tmp, dst, l, get_global_id(0), 1);
    if (to_global(dst) == NULL)
        dst[0] = 0;
}
