/* Vector addition through the OpenCL API: an ordinary host program that runs on any OpenCL
 * platform, and under `oclc exec` on oclc's devices with their runtime checks.
 *
 *   cc vadd.c -o vadd -lOpenCL
 *   oclc exec -- ./vadd          # c[i] = a[i] + b[i] for 1024 floats, checked on the host
 *   oclc exec -- ./vadd oob      # the kernel writes one element past c: oclc reports it
 *
 * Exit status: 0 when the results are right (and, for `oob`, when the launch was reported
 * as failed and the host went on), 1 otherwise. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "kernel void vadd(global const float *a, global const float *b,\n"
    "                 global float *c, uint n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i <= n)  /* with n = N this is the bug: i == N writes past c */\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

#define N 1024

#define CHECK(call)                                                        \
    do {                                                                   \
        cl_int err_ = (call);                                              \
        if (err_ != CL_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

int main(int argc, char **argv) {
    int oob = argc > 1 && strcmp(argv[1], "oob") == 0;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    char name[256];
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    printf("platform: %s\n", name);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        char log[4096];
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "vadd", &err);
    CHECK(err);

    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i;
        c[i] = -1.0f;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
    CHECK(err);
    /* The correct launch passes n = N - 1 (the last index); `oob` passes N. */
    cl_uint n = oob ? N : N - 1;
    CHECK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    /* One more work-item than elements, so that `oob` reaches past the end. */
    size_t global = N + 64, local = 64;
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &done));
    CHECK(clFinish(q));
    cl_int status;
    CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    printf("kernel status: %d\n", status);
    CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));

    int bad = 0;
    for (int i = 0; i < N; i++)
        if (c[i] != 3.0f * i)
            bad++;
    if (oob) {
        /* The launch failed: the host is told through the event and keeps running. */
        printf("launch failed as expected: %s\n", status < 0 ? "yes" : "no");
        bad = status < 0 ? 0 : 1;
    } else {
        printf("c[1] = %g, c[%d] = %g, %d wrong\n", c[1], N - 1, c[N - 1], bad);
    }
    clReleaseEvent(done);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
