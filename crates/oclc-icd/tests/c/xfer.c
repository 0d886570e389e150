/* Large buffer transfers through liboclc_icd.so's dispatch table (dlopen, no loader): a
 * COPY_HOST_PTR buffer of 1 MiB + 13 bytes, a write at an odd offset and a read of a range
 * that crosses the library's transfer chunks, each checked byte by byte. Usage: xfer
 * /path/to/liboclc_icd.so. Prints one line per check; exit 0 unless set-up fails. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { printf("dlopen: %s\n", dlerror()); return 2; }
    cl_int (*getids)(cl_uint, cl_platform_id *, cl_uint *) =
        (cl_int (*)(cl_uint, cl_platform_id *, cl_uint *))dlsym(lib, "clIcdGetPlatformIDsKHR");
    cl_platform_id plat;
    if (!getids || getids(1, &plat, NULL) != CL_SUCCESS) return 2;
    struct _cl_icd_dispatch *D = *(struct _cl_icd_dispatch **)plat;
    cl_device_id dev;
    cl_int e;
    D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    cl_context ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = D->clCreateCommandQueue(ctx, dev, 0, &e);
    size_t n = (1 << 20) + 13;
    unsigned char *in = malloc(n), *out = malloc(n), *patch = malloc(n);
    for (size_t i = 0; i < n; i++) { in[i] = (unsigned char)(i * 7 + 3); patch[i] = (unsigned char)(i * 13 + 1); }
    cl_mem m = D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, in, &e);
    if (e != CL_SUCCESS) { printf("create: %d\n", e); return 2; }
    e = D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, out, 0, NULL, NULL);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += out[i] != in[i];
    printf("copy_host_ptr: %d, %zu bytes differ\n", e, bad);
    /* Write 600000 bytes at offset 333333; read back 700001 bytes from offset 300000. */
    size_t woff = 333333, wlen = 600000, roff = 300000, rlen = 700001;
    e = D->clEnqueueWriteBuffer(q, m, CL_TRUE, woff, wlen, patch, 0, NULL, NULL);
    cl_int r = D->clEnqueueReadBuffer(q, m, CL_TRUE, roff, rlen, out, 0, NULL, NULL);
    bad = 0;
    for (size_t i = 0; i < rlen; i++) {
        size_t at = roff + i;
        unsigned char want = at >= woff && at < woff + wlen ? patch[at - woff] : in[at];
        bad += out[i] != want;
    }
    printf("write %d read %d: %zu bytes differ\n", e, r, bad);
    return 0;
}
