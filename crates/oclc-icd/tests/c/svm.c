/* Coarse-grained SVM through liboclc_icd.so's dispatch table (dlopen, no loader): a linked
 * list the host builds in two SVM allocations with host pointers, walked and reversed by a
 * kernel that reaches the nodes through pointers read from SVM memory (the allocations named
 * by clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)); the host then walks the reversed
 * list with the pointers the kernel wrote. Usage: svm /path/to/liboclc_icd.so MODE, MODE one of
 * list (the walk), oob (the last node points one past its allocation's end), unbound (one
 * allocation is not named), unset (the named list is unset by an empty one), membuf (the list
 * header is a USE_HOST_PTR buffer over SVM memory; an oversized one is refused). Prints what
 * it finds; exit 0 unless set-up fails. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct node {
    cl_int value;
    struct node *next;
} node;

typedef struct {
    node *head;
    cl_int sum;
    cl_int count;
    cl_int *at_sum;
} list;

static const char *src =
    "typedef struct node { int value; global struct node *next; } node;\n"
    "typedef struct { global node *head; int sum; int count; global int *at_sum; } list;\n"
    "kernel void walk(global list *l, int limit) {\n"
    "    int sum = 0, count = 0;\n"
    "    global node *prev = 0, *n = l->head;\n"
    "    while (n && count < limit) {\n"
    "        global node *next = n->next;\n"
    "        sum += n->value;\n"
    "        n->value *= 10;\n"
    "        n->next = prev;\n"
    "        prev = n;\n"
    "        n = next;\n"
    "        count++;\n"
    "    }\n"
    "    l->head = prev;\n"
    "    l->sum = sum;\n"
    "    l->count = count;\n"
    "    l->at_sum = &l->sum;\n"
    "}\n";

int main(int argc, char **argv) {
    if (argc < 3) return 2;
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
    cl_program p = D->clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (D->clBuildProgram(p, 1, &dev, "-cl-std=CL2.0", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        D->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build failed\n%s", log);
        return 2;
    }
    cl_kernel k = D->clCreateKernel(p, "walk", &e);
    if (e != CL_SUCCESS) return 2;
    const char *mode = argv[2];

    /* Nodes 1..7 alternate between allocation a (4 nodes) and b (3 nodes). */
    node *a = D->clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4 * sizeof(node), 0);
    node *b = D->clSVMAlloc(ctx, CL_MEM_READ_WRITE, 3 * sizeof(node), 0);
    list *l = D->clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof(list), 0);
    if (!a || !b || !l) { printf("clSVMAlloc failed\n"); return 2; }
    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 4 * sizeof(node), 0, NULL, NULL);
    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, b, 3 * sizeof(node), 0, NULL, NULL);
    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, l, sizeof(list), 0, NULL, NULL);
    node *order[7];
    for (int i = 0; i < 7; i++) order[i] = i % 2 == 0 ? &a[i / 2] : &b[i / 2];
    for (int i = 0; i < 7; i++) {
        order[i]->value = i + 1;
        order[i]->next = i < 6 ? order[i + 1] : NULL;
    }
    /* One past the end of a: the walk reads a node that is not there. */
    if (strcmp(mode, "oob") == 0) order[6]->next = &a[4];
    l->head = order[0];
    l->sum = l->count = -1;
    D->clEnqueueSVMUnmap(q, a, 0, NULL, NULL);
    D->clEnqueueSVMUnmap(q, b, 0, NULL, NULL);
    D->clEnqueueSVMUnmap(q, l, 0, NULL, NULL);

    void *named[2] = {a, b};
    size_t n_named = strcmp(mode, "unbound") == 0 ? 1 : 2;
    e = D->clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, n_named * sizeof(void *), named);
    if (e != CL_SUCCESS) { printf("clSetKernelExecInfo: %d\n", e); return 2; }
    cl_int extra = 0;
    if (strcmp(mode, "unset") == 0)
        extra = D->clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL);
    if (strcmp(mode, "membuf") == 0) {
        /* Larger than its SVM allocation: refused. */
        D->clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 2 * sizeof(list), l, &extra);
        cl_mem m = D->clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof(list), l, &e);
        if (e != CL_SUCCESS) { printf("clCreateBuffer: %d\n", e); return 2; }
        D->clSetKernelArg(k, 0, sizeof m, &m);
    } else {
        D->clSetKernelArgSVMPointer(k, 0, l);
    }
    cl_int limit = 10;
    D->clSetKernelArg(k, 1, sizeof limit, &limit);
    size_t one = 1;
    cl_event ev;
    e = D->clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, &ev);
    if (e != CL_SUCCESS) { printf("launch: %d\n", e); return 2; }
    D->clFinish(q);
    cl_int status = 0;
    D->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    printf("a=%p b=%p status %s\n", (void *)a, (void *)b, status < 0 ? "negative" : "complete");
    if (strcmp(mode, "unset") == 0) printf("unset: %d\n", extra);
    if (strcmp(mode, "membuf") == 0) printf("oversized buffer over SVM: %d\n", extra);
    if (status < 0) return 0;

    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, l, sizeof(list), 0, NULL, NULL);
    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 4 * sizeof(node), 0, NULL, NULL);
    D->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, b, 3 * sizeof(node), 0, NULL, NULL);
    printf("sum %d count %d head is a[3]: %s at_sum is &sum: %s\n", l->sum, l->count,
           l->head == &a[3] ? "yes" : "no", l->at_sum == &l->sum ? "yes" : "no");
    printf("reversed:");
    int steps = 0;
    for (node *n = l->head; n && steps < 10; n = n->next, steps++) {
        int in_a = n >= a && n < a + 4, in_b = n >= b && n < b + 3;
        printf(" %d%s", n->value, in_a ? "a" : in_b ? "b" : "?");
    }
    printf("\n");
    return 0;
}
