/* Images and samplers through liboclc_icd.so's dispatch table (dlopen, no loader): device
 * limits, formats, an RGBA8 image written from the host, read by a kernel with a sampler and
 * written to a float image, read back, mapped, filled and copied; sampler queries; the
 * specification's error codes; and a kernel reading outside an image without a sampler.
 * Usage: image /path/to/liboclc_icd.so. Prints what it finds; exit 0 unless set-up fails. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *src =
    "kernel void k(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
    "    int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float4 v = read_imagef(src, s, (float2)(c.x + 1.5f, c.y + 0.5f));\n"
    "    write_imagef(dst, c, v * 255.0f);\n"
    "}\n"
    "kernel void oob(read_only image2d_t src, global uint4 *out) {\n"
    "    out[0] = read_imageui(src, (int2)(get_global_id(0), 0));\n"
    "}\n"
    "kernel void buf(global float *p) { p[0] = 1; }\n";

#define W 4
#define H 3

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
    cl_bool support = 0;
    size_t w2 = 0;
    cl_uint samplers = 0;
    D->clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
    D->clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w2, &w2, NULL);
    D->clGetDeviceInfo(dev, CL_DEVICE_MAX_SAMPLERS, sizeof samplers, &samplers, NULL);
    printf("support %u max2d %zu samplers %u\n", support, w2, samplers);

    cl_context ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = D->clCreateCommandQueue(ctx, dev, 0, &e);
    cl_uint nf = 0;
    D->clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nf);
    cl_image_format fmts[64];
    D->clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 64, fmts, NULL);
    int rgba8 = 0;
    for (cl_uint i = 0; i < nf && i < 64; i++)
        rgba8 |= fmts[i].image_channel_order == CL_RGBA && fmts[i].image_channel_data_type == CL_UNORM_INT8;
    printf("formats %s rgba8 %d\n", nf > 20 ? "many" : "few", rgba8);

    cl_program p = D->clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (D->clBuildProgram(p, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        D->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build failed\n%s", log);
        return 2;
    }
    cl_kernel k = D->clCreateKernel(p, "k", &e);

    /* Source: pixel (x, y) = (10x, 10y, x + y, 255), with host rows 4 bytes longer. */
    unsigned char pix[H][W * 4 + 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            pix[y][4 * x] = 10 * x;
            pix[y][4 * x + 1] = 10 * y;
            pix[y][4 * x + 2] = x + y;
            pix[y][4 * x + 3] = 255;
        }
    cl_image_format rgba8f = {CL_RGBA, CL_UNORM_INT8}, rgbaf = {CL_RGBA, CL_FLOAT};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = W;
    d.image_height = H;
    d.image_row_pitch = sizeof pix[0];
    cl_mem a = D->clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8f, &d, pix, &e);
    printf("create a %d\n", e);
    d.image_row_pitch = 0;
    cl_mem b = D->clCreateImage(ctx, CL_MEM_WRITE_ONLY, &rgbaf, &d, NULL, &e);
    printf("create b %d\n", e);
    size_t rp = 0, es = 0, wi = 0;
    cl_mem_object_type ty = 0;
    D->clGetImageInfo(a, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, NULL);
    D->clGetImageInfo(a, CL_IMAGE_ELEMENT_SIZE, sizeof es, &es, NULL);
    D->clGetImageInfo(a, CL_IMAGE_WIDTH, sizeof wi, &wi, NULL);
    D->clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof ty, &ty, NULL);
    printf("info pitch %zu elem %zu width %zu 2d %d\n", rp, es, wi, ty == CL_MEM_OBJECT_IMAGE2D);

    cl_sampler s = D->clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
    cl_addressing_mode am = 0;
    D->clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL);
    printf("sampler %d clamp %d\n", e, am == CL_ADDRESS_CLAMP);
    D->clSetKernelArg(k, 0, sizeof a, &a);
    D->clSetKernelArg(k, 1, sizeof b, &b);
    D->clSetKernelArg(k, 2, sizeof s, &s);
    size_t g[2] = {W, H};
    e = D->clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL);
    printf("launch %d\n", e);
    /* Each pixel reads its right neighbour; column 3 reads the border (0, 0, 0, 0). */
    float out[H][W][4];
    size_t o0[3] = {0, 0, 0}, reg[3] = {W, H, 1};
    e = D->clEnqueueReadImage(q, b, CL_TRUE, o0, reg, 0, 0, out, 0, NULL, NULL);
    printf("read %d\n", e);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            printf(" (%g %g %g %g)", out[y][x][0], out[y][x][1], out[y][x][2], out[y][x][3]);
        printf("\n");
    }

    /* Map a 2x2 region at (1, 1) of the source: its own pitch. */
    size_t mo[3] = {1, 1, 0}, mr[3] = {2, 2, 1}, mrp = 0;
    unsigned char *m = D->clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ, mo, mr, &mrp, NULL, 0, NULL, NULL, &e);
    printf("map %d pitch %zu: %u %u | %u %u\n", e, mrp, m[0], m[4], m[mrp + 1], m[mrp + 5]);
    D->clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL);

    /* Fill a region, copy it to a buffer and back into another image. */
    float color[4] = {0.25f, 0.5f, 1.0f, 2.0f};
    size_t fo[3] = {1, 0, 0}, fr[3] = {2, 1, 1};
    e = D->clEnqueueFillImage(q, b, color, fo, fr, 0, NULL, NULL);
    cl_mem buf = D->clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, NULL);
    cl_int e2 = D->clEnqueueCopyImageToBuffer(q, b, buf, fo, fr, 16, 0, NULL, NULL);
    float back[16];
    D->clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
    printf("fill %d copy %d: %g %g %g %g\n", e, e2, back[4], back[5], back[6], back[11]);
    cl_mem c = D->clCreateImage(ctx, CL_MEM_READ_WRITE, &rgbaf, &d, NULL, &e);
    e = D->clEnqueueCopyBufferToImage(q, buf, c, 16, o0, fr, 0, NULL, NULL);
    e2 = D->clEnqueueCopyImage(q, c, b, o0, o0, fr, 0, NULL, NULL);
    float px[4];
    size_t one[3] = {1, 1, 1};
    D->clEnqueueReadImage(q, b, CL_TRUE, o0, one, 0, 0, px, 0, NULL, NULL);
    printf("to image %d copy image %d: %g %g\n", e, e2, px[0], px[3]);

    /* Errors. */
    cl_image_format rgbf = {CL_RGB, CL_FLOAT}, badf = {0, CL_FLOAT};
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &rgbf, &d, NULL, &e);
    printf("rgb float %d\n", e == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &badf, &d, NULL, &e);
    printf("bad format %d\n", e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.image_width = 0;
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &rgbaf, &d, NULL, &e);
    printf("width 0 %d\n", e == CL_INVALID_IMAGE_DESCRIPTOR);
    d.image_width = 1 << 20;
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &rgbaf, &d, NULL, &e);
    printf("too wide %d\n", e == CL_INVALID_IMAGE_SIZE);
    d.image_width = W;
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &rgbaf, &d, pix, &e);
    printf("host ptr without flag %d\n", e == CL_INVALID_HOST_PTR);
    D->clCreateImage(ctx, CL_MEM_READ_ONLY, &rgbaf, NULL, NULL, &e);
    printf("no desc %d\n", e == CL_INVALID_IMAGE_DESCRIPTOR);
    e = D->clEnqueueReadBuffer(q, a, CL_TRUE, 0, 4, back, 0, NULL, NULL);
    printf("read buffer of image %d\n", e == CL_INVALID_MEM_OBJECT);
    e = D->clEnqueueReadImage(q, buf, CL_TRUE, o0, one, 0, 0, back, 0, NULL, NULL);
    printf("read image of buffer %d\n", e == CL_INVALID_MEM_OBJECT);
    size_t big[3] = {W + 1, 1, 1};
    e = D->clEnqueueReadImage(q, a, CL_TRUE, o0, big, 0, 0, back, 0, NULL, NULL);
    printf("region outside %d\n", e == CL_INVALID_VALUE);
    e = D->clEnqueueCopyImage(q, a, b, o0, o0, one, 0, NULL, NULL);
    printf("format mismatch %d\n", e == CL_IMAGE_FORMAT_MISMATCH);
    e = D->clSetKernelArg(k, 0, sizeof buf, &buf);
    printf("buffer for image %d\n", e == CL_INVALID_MEM_OBJECT);
    e = D->clSetKernelArg(k, 2, sizeof buf, NULL);
    printf("null sampler %d\n", e == CL_INVALID_SAMPLER);
    cl_kernel kb = D->clCreateKernel(p, "buf", &e);
    e = D->clSetKernelArg(kb, 0, sizeof a, &a);
    printf("image for buffer %d\n", e == CL_INVALID_MEM_OBJECT);
    D->clCreateSampler(ctx, CL_FALSE, 0x9999, CL_FILTER_NEAREST, &e);
    printf("bad sampler %d\n", e == CL_INVALID_VALUE);
    e = D->clRetainSampler(s);
    e2 = D->clReleaseSampler(s);
    cl_uint refs = 0;
    D->clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    printf("retain %d release %d refs %u\n", e, e2, refs);
    D->clReleaseSampler(s);
    e = D->clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    printf("released %d\n", e == CL_INVALID_SAMPLER);

    /* A sampler-less read outside the image: the launch fails with the report. */
    cl_image_format r8 = {CL_R, CL_UNSIGNED_INT8};
    d.image_width = 2;
    d.image_height = 1;
    cl_mem small = D->clCreateImage(ctx, CL_MEM_READ_ONLY, &r8, &d, NULL, &e);
    cl_kernel ko = D->clCreateKernel(p, "oob", &e);
    D->clSetKernelArg(ko, 0, sizeof small, &small);
    D->clSetKernelArg(ko, 1, sizeof buf, &buf);
    size_t g3 = 3;
    cl_event ev;
    D->clEnqueueNDRangeKernel(q, ko, 1, NULL, &g3, NULL, 0, NULL, &ev);
    D->clFinish(q);
    cl_int st = 0;
    D->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    printf("oob status negative %d\n", st < 0);
    fflush(stdout);
    return 0;
}
