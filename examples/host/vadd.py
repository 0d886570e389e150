"""Vector addition and a local-memory reduction with PyOpenCL: an ordinary script that runs
on any OpenCL platform, and under `oclc exec` on oclc's devices with their runtime checks.

    oclc exec -- python3 vadd.py          # prints the checks, exits 0 when all hold
    oclc exec -- python3 vadd.py oob      # a kernel reads past its buffer: oclc reports
                                          # it, the launch fails, the script goes on

Needs `pip install pyopencl` (which brings numpy).
"""

import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void vadd(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

kernel void sum(global const uint *in, global uint *out, local uint *tmp) {
    size_t l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0];
}

kernel void shifted(global const float *a, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i + 1];   /* the last work-item reads past a */
}
"""


def main() -> int:
    oob = len(sys.argv) > 1 and sys.argv[1] == "oob"
    platform = cl.get_platforms()[0]
    device = platform.get_devices()[0]
    print(f"platform: {platform.name}, device: {device.name}")
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    mf = cl.mem_flags

    n = 1 << 12
    a = np.arange(n, dtype=np.float32)
    b = 2 * np.arange(n, dtype=np.float32)
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)

    if oob:
        try:
            prg.shifted(queue, (n,), (64,), da, dc).wait()
            print("launch failed as expected: no")
            return 1
        except cl.Error as e:
            print(f"launch failed as expected: yes ({e.code})")
        # The host keeps running: the next launch works.

    prg.vadd(queue, (n,), (64,), da, db, dc)
    c = np.empty_like(a)
    cl.enqueue_copy(queue, c, dc)
    ok_add = bool(np.array_equal(c, a + b))
    print(f"vadd: c[1] = {c[1]}, c[{n - 1}] = {c[n - 1]}, {'ok' if ok_add else 'WRONG'}")

    group = 256
    data = np.arange(n, dtype=np.uint32)
    din = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    dout = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * (n // group))
    prg.sum(queue, (n,), (group,), din, dout, cl.LocalMemory(4 * group))
    sums = np.empty(n // group, dtype=np.uint32)
    cl.enqueue_copy(queue, sums, dout)
    want = data.reshape(-1, group).sum(axis=1, dtype=np.uint32)
    ok_sum = bool(np.array_equal(sums, want))
    print(f"sum: {sums[:3].tolist()}..., {'ok' if ok_sum else 'WRONG'}")

    ok = ok_add and ok_sum
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
