/* Separate compilation through liboclc_icd.so's dispatch table (dlopen, no loader):
 * clCompileProgram of each unit, clLinkProgram of the objects (and of libraries, and of
 * objects loaded from their binaries). Usage: link /path/to/liboclc_icd.so MODE.
 * Prints what each mode computes (or the link status and log); exit 0 unless set-up fails. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct _cl_icd_dispatch *D;
static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

/* A compiled object of `src` with `opts` (exit 2 when it does not compile). */
static cl_program compile(const char *src, const char *opts) {
    cl_int e;
    cl_program p = D->clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    cl_int r = D->clCompileProgram(p, 0, NULL, opts, 0, NULL, NULL, NULL, NULL);
    if (r != CL_SUCCESS) {
        char log[4096] = "";
        D->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("compile failed: %d\n%s", r, log);
        exit(2);
    }
    return p;
}

/* Links `n` programs with `opts`; prints the status and log when it fails. */
static cl_program link_all(int n, cl_program *ins, const char *opts) {
    cl_int e;
    cl_program p = D->clLinkProgram(ctx, 0, NULL, opts, n, ins, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        char log[4096] = "";
        if (p) D->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("link: %s (%d)\n%s", e == CL_LINK_PROGRAM_FAILURE ? "CL_LINK_PROGRAM_FAILURE" : "error", e,
               log);
        return NULL;
    }
    return p;
}

/* Runs kernel `name` of `p` on one work-item with an int buffer of `n` elements (zeroed);
 * prints them. */
static void run(cl_program p, const char *name, int n) {
    cl_int e;
    cl_kernel k = D->clCreateKernel(p, name, &e);
    if (e != CL_SUCCESS) { printf("%s: CreateKernel %d\n", name, e); exit(2); }
    int *buf = calloc(n, sizeof(int));
    cl_mem m = D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof(int), buf, &e);
    D->clSetKernelArg(k, 0, sizeof m, &m);
    size_t one = 1;
    e = D->clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (e != CL_SUCCESS) { printf("%s: launch %d\n", name, e); exit(2); }
    D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), buf, 0, NULL, NULL);
    printf("%s:", name);
    for (int i = 0; i < n; i++) printf(" %d", buf[i]);
    printf("\n");
    free(buf);
    D->clReleaseMemObject(m);
    D->clReleaseKernel(k);
}

/* The same struct type defined in both units; a function of one called with it by the other. */
static const char *struct_a =
    "typedef struct { int a; float b; } pair_t;\n"
    "int sum_pair(pair_t *p);\n"
    "kernel void use_pair(global int *out) {\n"
    "    pair_t p = { 40, 2.0f };\n"
    "    out[0] = sum_pair(&p);\n"
    "}\n";
static const char *struct_b =
    "typedef struct { int a; float b; } pair_t;\n"
    "int sum_pair(pair_t *p) { return p->a + (int)p->b; }\n";

/* A program-scope variable defined in one unit, `extern` in the other. */
static const char *extern_a =
    "global int counter = 5;\n"
    "global int table[4] = { 1, 2, 3, 4 };\n"
    "kernel void bump(global int *out) { counter += 10; out[0] = counter; }\n";
static const char *extern_b =
    "extern global int counter;\n"
    "extern global int table[];\n"
    "kernel void read_counter(global int *out) { out[0] = counter; out[1] = table[3]; }\n";

/* `static` functions and variables of one name in two units stay two. */
static const char *static_a =
    "static int helper(void) { return 1; }\n"
    "static global int own = 100;\n"
    "kernel void ka(global int *out) { out[0] = helper(); out[1] = own; }\n";
static const char *static_b =
    "static int helper(void) { return 2; }\n"
    "static global int own = 200;\n"
    "kernel void kb(global int *out) { out[0] = helper(); out[1] = own; }\n";

static const char *dup_a = "int twice(int x) { return 2 * x; }\nkernel void k1(global int *o) { o[0] = twice(1); }\n";
static const char *dup_b = "int twice(int x) { return x + x; }\nkernel void k2(global int *o) { o[0] = twice(2); }\n";
static const char *undef_a =
    "int missing(int x);\nextern global int nowhere;\n"
    "kernel void k(global int *o) { o[0] = missing(1) + nowhere; }\n";

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { printf("dlopen: %s\n", dlerror()); return 2; }
    cl_int (*getids)(cl_uint, cl_platform_id *, cl_uint *) =
        (cl_int (*)(cl_uint, cl_platform_id *, cl_uint *))dlsym(lib, "clIcdGetPlatformIDsKHR");
    cl_platform_id plat;
    if (getids(1, &plat, NULL) != CL_SUCCESS) return 2;
    D = *(struct _cl_icd_dispatch **)plat;
    cl_int e;
    D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    q = D->clCreateCommandQueue(ctx, dev, 0, &e);
    const char *mode = argv[2];

    if (strcmp(mode, "struct") == 0) {
        cl_program ins[2] = {compile(struct_a, ""), compile(struct_b, "")};
        cl_program p = link_all(2, ins, "");
        if (p) run(p, "use_pair", 1);
    } else if (strcmp(mode, "extern") == 0) {
        cl_program ins[2] = {compile(extern_a, "-cl-std=CL2.0"), compile(extern_b, "-cl-std=CL2.0")};
        cl_program p = link_all(2, ins, "");
        if (p) {
            run(p, "bump", 1);
            run(p, "read_counter", 2);
        }
    } else if (strcmp(mode, "static") == 0) {
        cl_program ins[2] = {compile(static_a, "-cl-std=CL2.0"), compile(static_b, "-cl-std=CL2.0")};
        cl_program p = link_all(2, ins, "");
        if (p) {
            run(p, "ka", 2);
            run(p, "kb", 2);
        }
    } else if (strcmp(mode, "dup") == 0) {
        cl_program ins[2] = {compile(dup_a, ""), compile(dup_b, "")};
        link_all(2, ins, "");
    } else if (strcmp(mode, "undef") == 0) {
        cl_program ins[1] = {compile(undef_a, "-cl-std=CL2.0")};
        link_all(1, ins, "");
    } else if (strcmp(mode, "library") == 0) {
        /* A library of the unit calling sum_pair (undefined there), linked later with the
         * unit defining it. */
        cl_program a = compile(struct_a, "");
        cl_program libp = link_all(1, &a, "-create-library");
        if (!libp) return 1;
        cl_program_binary_type t = 0;
        D->clGetProgramBuildInfo(libp, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL);
        printf("library binary type: %s\n", t == CL_PROGRAM_BINARY_TYPE_LIBRARY ? "LIBRARY" : "other");
        cl_program ins[2] = {libp, compile(struct_b, "")};
        cl_program p = link_all(2, ins, "");
        if (p) run(p, "use_pair", 1);
    } else if (strcmp(mode, "binary") == 0) {
        /* A compiled object saved as a binary and loaded again links as the object does; the
         * binary carries the input header the object was compiled with. */
        const char *hsrc = "typedef struct { int a; float b; } pair_t;\n";
        const char *bsrc = "#include \"pair.h\"\nint sum_pair(pair_t *p) { return p->a + (int)p->b; }\n";
        cl_program hp = D->clCreateProgramWithSource(ctx, 1, &hsrc, NULL, &e);
        cl_program b = D->clCreateProgramWithSource(ctx, 1, &bsrc, NULL, &e);
        const char *hname = "pair.h";
        if (D->clCompileProgram(b, 0, NULL, "", 1, &hp, &hname, NULL, NULL) != CL_SUCCESS) return 2;
        size_t n = 0;
        D->clGetProgramInfo(b, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL);
        unsigned char *bin = malloc(n);
        D->clGetProgramInfo(b, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
        cl_int st;
        cl_program loaded = D->clCreateProgramWithBinary(ctx, 1, &dev, &n, (const unsigned char **)&bin, &st, &e);
        printf("loaded: %d %d\n", e, st);
        cl_program ins[2] = {compile(struct_a, ""), loaded};
        cl_program p = link_all(2, ins, "");
        if (p) run(p, "use_pair", 1);
        free(bin);
    } else if (strcmp(mode, "options") == 0) {
        /* Bad compile options and bad link options have their own error codes. */
        cl_program p = D->clCreateProgramWithSource(ctx, 1, &struct_b, NULL, &e);
        cl_int r = D->clCompileProgram(p, 0, NULL, "-no-such-option", 0, NULL, NULL, NULL, NULL);
        printf("compile: %s\n", r == CL_INVALID_COMPILER_OPTIONS ? "CL_INVALID_COMPILER_OPTIONS" : "other");
        cl_program b = compile(struct_b, "");
        cl_program l = D->clLinkProgram(ctx, 0, NULL, "-no-such-option", 1, &b, NULL, NULL, &e);
        printf("link: %s\n", e == CL_INVALID_LINKER_OPTIONS ? "CL_INVALID_LINKER_OPTIONS" : "other");
        (void)l;
    } else {
        return 2;
    }
    return 0;
}
