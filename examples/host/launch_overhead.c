/* Per-launch API overhead: an empty kernel enqueued N times (one work-item each), then
 * clFinish; prints microseconds per launch. A benchmark, not a test.
 *
 *   cc launch_overhead.c -o launch_overhead -lOpenCL
 *   oclc exec -- ./launch_overhead 10000        # on oclc
 *   ./launch_overhead 10000                     # on the system's platform (e.g. PoCL) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    const char *src = "kernel void empty(global int *p) {}\n";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) return 1;
    cl_kernel k = clCreateKernel(prog, "empty", &err);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t one = 1;
    for (int i = 0; i < 100; i++) clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    clFinish(q);
    double t0 = now();
    for (int i = 0; i < n; i++) clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    clFinish(q);
    double t1 = now();
    char name[128];
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    printf("%s: %d launches, %.2f us per launch\n", name, n, (t1 - t0) * 1e6 / n);
    return 0;
}
