/* API validation of liboclc_icd.so, called through its dispatch table (dlopen, no loader:
 * a loader would itself reject or crash on some of the bad handles tested here).
 * Usage: validate /path/to/liboclc_icd.so. Prints one line per check; exit 0 when all pass. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>

static int failed = 0, passed = 0;
static struct _cl_icd_dispatch *D;

#define EXPECT(what, got, want)                                                   \
    do {                                                                          \
        long long g_ = (long long)(got), w_ = (long long)(want);                  \
        if (g_ == w_) {                                                           \
            passed++;                                                             \
        } else {                                                                  \
            failed++;                                                             \
            printf("FAIL %s:%d: %s: got %lld, want %lld\n", __FILE__, __LINE__, what, g_, w_); \
        }                                                                         \
    } while (0)

static cl_context ctx;
static cl_device_id dev;

static const char *src =
    "kernel void twice(global int *p, int k) { size_t i = get_global_id(0); p[i] = 2 * p[i] + k; }\n";

static void *worker(void *arg) {
    int id = (int)(size_t)arg;
    cl_int err;
    for (int round = 0; round < 4; round++) {
        cl_command_queue q = D->clCreateCommandQueue(ctx, dev, 0, &err);
        /* The device's macros: its OpenCL version, images, its extensions and features. */
    const char *macros =
        "#if __OPENCL_VERSION__ != 300\n#error version\n#endif\n"
        "#ifndef __IMAGE_SUPPORT__\n#error images\n#endif\n"
        "#if !defined(cl_khr_fp64) || !defined(cl_khr_3d_image_writes)\n#error extensions\n#endif\n"
        "#if !defined(__opencl_c_images) || defined(__opencl_c_pipes) || !defined(__opencl_c_generic_address_space)\n"
        "#error features\n#endif\n"
        "kernel void m(global int *p) {}\n";
    cl_program mp = D->clCreateProgramWithSource(ctx, 1, &macros, NULL, &err);
    EXPECT("Build(device macros)", D->clBuildProgram(mp, 0, NULL, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
    D->clReleaseProgram(mp);
    cl_program p = D->clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        if (D->clBuildProgram(p, 0, NULL, "", NULL, NULL) != CL_SUCCESS) { failed++; return NULL; }
        cl_kernel k = D->clCreateKernel(p, "twice", &err);
        int host[256];
        for (int i = 0; i < 256; i++) host[i] = i + id;
        cl_mem m = D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
        int kk = id;
        D->clSetKernelArg(k, 0, sizeof m, &m);
        D->clSetKernelArg(k, 1, sizeof kk, &kk);
        size_t g = 256;
        D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
        int out[256];
        D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        for (int i = 0; i < 256; i++)
            if (out[i] != 2 * (i + id) + id) { failed++; printf("FAIL thread %d: out[%d] = %d\n", id, i, out[i]); break; }
        D->clReleaseMemObject(m);
        D->clReleaseKernel(k);
        D->clReleaseProgram(p);
        D->clReleaseCommandQueue(q);
    }
    return NULL;
}

static int callbacks = 0;
static int notified = 0;
static int destroyed = 0;
static void CL_CALLBACK on_destroy(cl_mem m, void *data) {
    (void)m;
    (void)data;
    __atomic_add_fetch(&destroyed, 1, __ATOMIC_SEQ_CST);
}
static void CL_CALLBACK on_notify(const char *errinfo, const void *priv, size_t cb, void *data) {
    (void)priv;
    (void)cb;
    (void)data;
    if (strstr(errinfo, "data race on __local variable `x`")) notified = 1;
}
static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data) {
    (void)e;
    (void)data;
    if (status == CL_COMPLETE) __atomic_add_fetch(&callbacks, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { printf("dlopen: %s\n", dlerror()); return 2; }
    cl_int (*getids)(cl_uint, cl_platform_id *, cl_uint *) =
        (cl_int (*)(cl_uint, cl_platform_id *, cl_uint *))dlsym(lib, "clIcdGetPlatformIDsKHR");
    cl_platform_id plat;
    EXPECT("clIcdGetPlatformIDsKHR", getids(1, &plat, NULL), CL_SUCCESS);
    EXPECT("clIcdGetPlatformIDsKHR(0, NULL, NULL)", getids(0, NULL, NULL), CL_INVALID_VALUE);
    D = *(struct _cl_icd_dispatch **)plat;

    if (argc > 2 && strcmp(argv[2], "race") == 0) {
        /* Every work-item writes the same __local int: a race when OCLC_RACES=1. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, on_notify, NULL, &e);
        cl_command_queue rq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        const char *race =
            "kernel void race(global int *p) {\n"
            "    local int x;\n"
            "    x = (int)get_local_id(0);\n"
            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
            "    p[get_global_id(0)] = x;\n"
            "}\n";
        cl_program rp = D->clCreateProgramWithSource(ctx, 1, &race, NULL, &e);
        D->clBuildProgram(rp, 0, NULL, "", NULL, NULL);
        cl_kernel rk = D->clCreateKernel(rp, "race", &e);
        cl_mem rm = D->clCreateBuffer(ctx, 0, 64 * sizeof(int), NULL, &e);
        D->clSetKernelArg(rk, 0, sizeof rm, &rm);
        size_t g = 64, l = 64;
        cl_event re;
        D->clEnqueueNDRangeKernel(rq, rk, 1, NULL, &g, &l, 0, NULL, &re);
        D->clFinish(rq);
        cl_int status = 0;
        D->clGetEventInfo(re, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        printf("race status: %d\nnotified: %d\n", status, notified);
        return 0;
    }

    if (argc > 2 && strcmp(argv[2], "attrs") == 0) {
        /* CL_KERNEL_ATTRIBUTES: the work-group size attributes and the vector type hint. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        const char *attrs =
            "__attribute__((vec_type_hint(uchar2))) __attribute__((work_group_size_hint(4,1,1)))\n"
            "__attribute__((reqd_work_group_size(2, 3, 1))) kernel void a(void) {}\n"
            "__attribute__((vec_type_hint(double16))) kernel void b(void) {}\n"
            "__attribute__((vec_type_hint(ulong3))) kernel void c(void) {}\n"
            "__attribute__((vec_type_hint(float))) kernel void d(void) {}\n"
            "kernel void e(void) {}\n";
        cl_program ap = D->clCreateProgramWithSource(ctx, 1, &attrs, NULL, &e);
        EXPECT("Build(attrs)", D->clBuildProgram(ap, 0, NULL, "", NULL, NULL), CL_SUCCESS);
        const char *names[] = {"a", "b", "c", "d", "e"};
        for (int i = 0; i < 5; i++) {
            cl_kernel ak = D->clCreateKernel(ap, names[i], &e);
            char text[256] = "?";
            size_t len = 0;
            D->clGetKernelInfo(ak, CL_KERNEL_ATTRIBUTES, sizeof text, text, &len);
            printf("%s: '%s' (%zu)\n", names[i], text, len);
            D->clReleaseKernel(ak);
        }
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "fgsvm") == 0) {
        /* Fine-grained buffer SVM: the host writes and reads it without map/unmap. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        cl_device_svm_capabilities caps = 0;
        D->clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
        printf("caps: coarse %d fine %d atomics %d\n", !!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER),
               !!(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER), !!(caps & CL_DEVICE_SVM_ATOMICS));
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue fq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        int *p = D->clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int), 0);
        void *atomics = D->clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0);
        printf("alloc: %s, with atomics: %s\n", p ? "ok" : "NULL", atomics ? "ok" : "NULL");
        if (!p) return 1;
        for (int i = 0; i < 64; i++) p[i] = i;
        const char *evens = "kernel void evens(global int *p) { size_t i = get_global_id(0); p[2 * i] *= 10; }\n";
        cl_program fp = D->clCreateProgramWithSource(ctx, 1, &evens, NULL, &e);
        D->clBuildProgram(fp, 0, NULL, "", NULL, NULL);
        cl_kernel fk = D->clCreateKernel(fp, "evens", &e);
        D->clSetKernelArgSVMPointer(fk, 0, p);
        size_t g = 32;
        EXPECT("launch(fine-grained)", D->clEnqueueNDRangeKernel(fq, fk, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
        D->clFinish(fq);
        printf("p[0..6]: %d %d %d %d %d %d, p[62] %d p[63] %d\n", p[0], p[1], p[2], p[3], p[4], p[5], p[62], p[63]);
        D->clSVMFree(ctx, p);
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "vec3") == 0) {
        /* .hi and .odd of a 3-component vector: lane 2 / lane 1, then the padding lane. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue vq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        const char *v3 =
            "kernel void k(global int *o) {\n"
            "    int3 v = (int3)(10, 11, 12);\n"
            "    int2 h = v.hi, od = v.odd, lo = v.lo, ev = v.even;\n"
            "    v.hi = (int2)(42, 43);\n"
            "    o[0] = h.x; o[1] = od.x; o[2] = lo.x; o[3] = lo.y; o[4] = ev.x; o[5] = ev.y;\n"
            "    o[6] = v.x; o[7] = v.y; o[8] = v.z;\n"
            "}\n";
        cl_program vp = D->clCreateProgramWithSource(ctx, 1, &v3, NULL, &e);
        cl_int built = D->clBuildProgram(vp, 0, NULL, "", NULL, NULL);
        char blog[1024] = "";
        D->clGetProgramBuildInfo(vp, dev, CL_PROGRAM_BUILD_LOG, sizeof blog, blog, NULL);
        printf("build: %d%s%s\n", built, blog[0] ? "\n" : "", blog);
        if (built != CL_SUCCESS) return 1;
        cl_kernel vk = D->clCreateKernel(vp, "k", &e);
        cl_mem vm = D->clCreateBuffer(ctx, 0, 9 * sizeof(int), NULL, &e);
        D->clSetKernelArg(vk, 0, sizeof vm, &vm);
        size_t one = 1;
        D->clEnqueueNDRangeKernel(vq, vk, 1, NULL, &one, NULL, 0, NULL, NULL);
        int o[9] = {0};
        D->clEnqueueReadBuffer(vq, vm, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
        printf("hi.x %d odd.x %d lo %d %d even %d %d; after v.hi = (42, 43): %d %d %d\n",
               o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8]);
        return 0;
    }

    if (argc > 2 && strcmp(argv[2], "async") == 0) {
        /* async_work_group_copy is one copy per work-group, made when the group reaches it:
         * work-item 0 changing the source afterwards does not reach the local copy. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue aq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        const char *ac =
            "kernel void k(global int *src, global int *out, local int *l) {\n"
            "    size_t i = get_local_id(0);\n"
            "    event_t ev = async_work_group_copy(l, src + 8 * get_group_id(0), 8, 0);\n"
            "    wait_group_events(1, &ev);\n"
            "    if (i == 0) src[8 * get_group_id(0)] = 99;\n"
            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
            "    out[get_global_id(0)] = l[i];\n"
            "}\n";
        cl_program ap = D->clCreateProgramWithSource(ctx, 1, &ac, NULL, &e);
        EXPECT("Build(async)", D->clBuildProgram(ap, 0, NULL, "", NULL, NULL), CL_SUCCESS);
        cl_kernel ak = D->clCreateKernel(ap, "k", &e);
        int in[16];
        for (int i = 0; i < 16; i++) in[i] = i + 1;
        cl_mem src_m = D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
        cl_mem out_m = D->clCreateBuffer(ctx, 0, sizeof in, NULL, &e);
        D->clSetKernelArg(ak, 0, sizeof src_m, &src_m);
        D->clSetKernelArg(ak, 1, sizeof out_m, &out_m);
        D->clSetKernelArg(ak, 2, 8 * sizeof(int), NULL);
        size_t g = 16, l = 8;
        EXPECT("launch(async)", D->clEnqueueNDRangeKernel(aq, ak, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
        int o[16] = {0};
        D->clEnqueueReadBuffer(aq, out_m, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
        for (int i = 0; i < 16; i++) printf("%d%s", o[i], i == 15 ? "\n" : " ");
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "hostptr") == 0) {
        /* Small host-side commands on a large USE_HOST_PTR buffer move only the bytes they
         * touch: no command copies (and so touches every page of) the whole buffer. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue hq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        size_t big = 64 << 20;
        unsigned char *host = malloc(big);
        if (!host) return 2;
        memset(host, 1, big);
        cl_mem hm = D->clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, big, host, &e);
        EXPECT("CreateBuffer(USE_HOST_PTR)", e, CL_SUCCESS);
        unsigned char four[4] = {1, 2, 3, 4}, back[4] = {0};
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        long before = ru.ru_minflt;
        EXPECT("WriteBuffer", D->clEnqueueWriteBuffer(hq, hm, CL_TRUE, 100, 4, four, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < 8; i++) {
            D->clEnqueueWriteBuffer(hq, hm, CL_FALSE, 1000 + 4 * i, 4, four, 0, NULL, NULL);
            D->clEnqueueCopyBuffer(hq, hm, hm, 1000 + 4 * i, big - 64 + 4 * i, 4, 0, NULL, NULL);
            int zero = 0;
            D->clEnqueueFillBuffer(hq, hm, &zero, 4, 2000 + 4 * i, 4, 0, NULL, NULL);
            size_t bo[3] = {0, 0, 0}, ho[3] = {0, 0, 0}, rg[3] = {4, 1, 1};
            D->clEnqueueReadBufferRect(hq, hm, CL_TRUE, bo, ho, rg, 0, 0, 0, 0, back, 0, NULL, NULL);
        }
        D->clEnqueueReadBuffer(hq, hm, CL_TRUE, big - 64 + 28, 4, back, 0, NULL, NULL);
        D->clFinish(hq);
        getrusage(RUSAGE_SELF, &ru);
        long after = ru.ru_minflt;
        printf("copied: %d %d %d %d, host[100..104]: %d %d %d %d, host[2000]: %d\n", back[0], back[1], back[2],
               back[3], host[100], host[101], host[102], host[103], host[2000]);
        /* Copying the whole buffer would touch its 16384 pages at least once per command. */
        printf("page faults fewer than 4096: %s\n", after - before < 4096 ? "yes" : "no");
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "link") == 0) {
        /* clLinkProgram keeps each input's -D options to that input. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        const char *ab = "kernel void a(global int *p) { p[0] = 1; }\n"
                         "#ifdef USE_B\nkernel void b(global int *p) { p[0] = 2; }\n#endif\n";
        const char *cd = "kernel void c(global int *p) { p[0] = 3; }\n"
                         "#ifdef USE_D\nkernel void d(global int *p) { p[0] = VAL; }\n#endif\n";
        cl_program pab = D->clCreateProgramWithSource(ctx, 1, &ab, NULL, &e);
        cl_program pcd = D->clCreateProgramWithSource(ctx, 1, &cd, NULL, &e);
        EXPECT("Compile(ab)", D->clCompileProgram(pab, 0, NULL, "-DUSE_B", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
        EXPECT("Compile(cd)", D->clCompileProgram(pcd, 0, NULL, "-DUSE_D -D VAL=4", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
        cl_program ins[2] = {pab, pcd};
        cl_program linked = D->clLinkProgram(ctx, 0, NULL, "", 2, ins, NULL, NULL, &e);
        EXPECT("LinkProgram", e, CL_SUCCESS);
        size_t nk = 0;
        char names[256] = "";
        D->clGetProgramInfo(linked, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL);
        D->clGetProgramInfo(linked, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
        printf("kernels: %zu (%s)\n", nk, names);
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "inclink") == 0) {
        /* A header found through -I at clCompileProgram, deleted before clLinkProgram. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue iq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        char dir[64], hdr[96], opt[80];
        snprintf(dir, sizeof dir, "/tmp/oclc-validate-inc-%d", (int)getpid());
        snprintf(hdr, sizeof hdr, "%s/answer.h", dir);
        snprintf(opt, sizeof opt, "-I%s", dir);
        mkdir(dir, 0700);
        FILE *hf = fopen(hdr, "w");
        if (!hf) return 2;
        fputs("#define ANSWER 42\n", hf);
        fclose(hf);
        const char *is = "#include \"answer.h\"\nkernel void k(global int *p) { p[0] = ANSWER; }\n";
        cl_program ip = D->clCreateProgramWithSource(ctx, 1, &is, NULL, &e);
        EXPECT("Compile(-I)", D->clCompileProgram(ip, 0, NULL, opt, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
        unlink(hdr);
        rmdir(dir);
        cl_program linked = D->clLinkProgram(ctx, 0, NULL, "", 1, &ip, NULL, NULL, &e);
        EXPECT("LinkProgram(deleted header)", e, CL_SUCCESS);
        if (e != CL_SUCCESS) return 1;
        cl_kernel ik = D->clCreateKernel(linked, "k", &e);
        cl_mem im = D->clCreateBuffer(ctx, 0, sizeof(int), NULL, &e);
        D->clSetKernelArg(ik, 0, sizeof im, &im);
        size_t one = 1;
        D->clEnqueueNDRangeKernel(iq, ik, 1, NULL, &one, NULL, 0, NULL, NULL);
        int v = 0;
        D->clEnqueueReadBuffer(iq, im, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
        printf("answer: %d\n", v);
        return failed ? 1 : 0;
    }

    if (argc > 2 && strcmp(argv[2], "steps") == 0) {
        /* A runaway loop under OCLC_MAX_STEPS: the launch fails, the host goes on. */
        cl_int e;
        D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
        ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        cl_command_queue sq = D->clCreateCommandQueue(ctx, dev, 0, &e);
        const char *spin =
            "kernel void spin(global int *p, int n) {\n"
            "    int acc = 0;\n"
            "    for (int i = 0; i < n; i++) acc += i;\n"
            "    p[get_global_id(0)] = acc;\n"
            "}\n";
        cl_program sp = D->clCreateProgramWithSource(ctx, 1, &spin, NULL, &e);
        D->clBuildProgram(sp, 0, NULL, "-O0", NULL, NULL);
        cl_kernel sk = D->clCreateKernel(sp, "spin", &e);
        cl_mem sm = D->clCreateBuffer(ctx, 0, 64, NULL, &e);
        int big = 1 << 20;
        D->clSetKernelArg(sk, 0, sizeof sm, &sm);
        D->clSetKernelArg(sk, 1, sizeof big, &big);
        size_t one = 1;
        cl_event se;
        D->clEnqueueNDRangeKernel(sq, sk, 1, NULL, &one, &one, 0, NULL, &se);
        D->clFinish(sq);
        cl_int status = 0;
        D->clGetEventInfo(se, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        printf("spin status: %d\n", status);
        return status == CL_OUT_OF_RESOURCES ? 0 : 1;
    }

    char buf[64];
    size_t size_ret = 0;
    cl_int err;
    int not_a_handle = 42;
    EXPECT("GetDeviceIDs", D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
    EXPECT("GetDeviceIDs(GPU)", D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL), CL_DEVICE_NOT_FOUND);
    EXPECT("GetDeviceIDs(bad type)", D->clGetDeviceIDs(plat, 1 << 20, 1, &dev, NULL), CL_INVALID_DEVICE_TYPE);
    D->clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);

    /* Bad handles: NULL, a pointer to other memory, a small integer, another kind. */
    EXPECT("GetDeviceInfo(NULL)", D->clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    EXPECT("GetDeviceInfo(stack)", D->clGetDeviceInfo((cl_device_id)&not_a_handle, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    EXPECT("GetDeviceInfo(0x10)", D->clGetDeviceInfo((cl_device_id)0x10, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    EXPECT("GetDeviceInfo(platform)", D->clGetDeviceInfo((cl_device_id)plat, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);

    /* The clGet*Info size rules. */
    EXPECT("GetDeviceInfo(size query)", D->clGetDeviceInfo(dev, CL_DEVICE_NAME, 0, NULL, &size_ret), CL_SUCCESS);
    EXPECT("CL_DEVICE_NAME size", size_ret, strlen("oclc cpu") + 1);
    size_ret = 0;
    EXPECT("GetDeviceInfo(too small)", D->clGetDeviceInfo(dev, CL_DEVICE_NAME, 3, buf, &size_ret), CL_INVALID_VALUE);
    EXPECT("size_ret when too small", size_ret, strlen("oclc cpu") + 1);
    EXPECT("GetDeviceInfo(bad param)", D->clGetDeviceInfo(dev, 0xdead, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    cl_uint u = 0;
    EXPECT("CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", D->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof u, &u, NULL), CL_SUCCESS);
    EXPECT("3 dimensions", u, 3);

    /* Contexts. */
    ctx = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    EXPECT("CreateContext", err, CL_SUCCESS);
    D->clCreateContext(NULL, 0, &dev, NULL, NULL, &err);
    EXPECT("CreateContext(0 devices)", err, CL_INVALID_VALUE);
    cl_device_id bad_dev = (cl_device_id)&not_a_handle;
    EXPECT("CreateContext(bad device) returns NULL", D->clCreateContext(NULL, 1, &bad_dev, NULL, NULL, &err) == NULL, 1);
    EXPECT("CreateContext(bad device)", err, CL_INVALID_DEVICE);
    cl_context gone = D->clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    EXPECT("ReleaseContext", D->clReleaseContext(gone), CL_SUCCESS);
    EXPECT("GetContextInfo(released)", D->clGetContextInfo(gone, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
    EXPECT("ReleaseContext(released)", D->clReleaseContext(gone), CL_INVALID_CONTEXT);

    cl_command_queue q = D->clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    EXPECT("CreateCommandQueue", err, CL_SUCCESS);
    D->clCreateCommandQueue((cl_context)q, dev, 0, &err);
    EXPECT("CreateCommandQueue(queue as context)", err, CL_INVALID_CONTEXT);
    D->clCreateCommandQueue(ctx, dev, 1 << 30, &err);
    EXPECT("CreateCommandQueue(bad properties)", err, CL_INVALID_VALUE);

    /* Buffers. */
    int host[64];
    for (int i = 0; i < 64; i++) host[i] = i;
    D->clCreateBuffer(ctx, 0, 0, NULL, &err);
    EXPECT("CreateBuffer(size 0)", err, CL_INVALID_BUFFER_SIZE);
    D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, NULL, &err);
    EXPECT("CreateBuffer(COPY_HOST_PTR, NULL)", err, CL_INVALID_HOST_PTR);
    D->clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
    EXPECT("CreateBuffer(READ_ONLY|WRITE_ONLY)", err, CL_INVALID_VALUE);
    cl_mem m = D->clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    EXPECT("CreateBuffer", err, CL_SUCCESS);
    int out[64];
    EXPECT("ReadBuffer(past the end)", D->clEnqueueReadBuffer(q, m, CL_TRUE, 8, sizeof out, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT("ReadBuffer(NULL ptr)", D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT("ReadBuffer(NULL wait list, count 1)", D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, out, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT("ReadBuffer(bad queue)", D->clEnqueueReadBuffer((cl_command_queue)m, m, CL_TRUE, 0, 4, out, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT("ReadBuffer(bad buffer)", D->clEnqueueReadBuffer(q, (cl_mem)&not_a_handle, CL_TRUE, 0, 4, out, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cl_buffer_region region = {64, 64};
    cl_mem sub = D->clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT("CreateSubBuffer(misaligned)", err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    region.origin = 128;
    region.size = 128;
    sub = D->clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT("CreateSubBuffer", err, CL_SUCCESS);
    EXPECT("ReadBuffer(sub)", D->clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 8, out, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("sub-buffer contents", out[1], 33);
    region.origin = 0;
    region.size = 1024;
    D->clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT("CreateSubBuffer(too large)", err, CL_INVALID_VALUE);
    int pattern = 7;
    EXPECT("FillBuffer(pattern size 3)", D->clEnqueueFillBuffer(q, m, &pattern, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT("CopyBuffer(overlap)", D->clEnqueueCopyBuffer(q, m, m, 0, 4, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    void *mapped = D->clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof host, 0, NULL, NULL, &err);
    EXPECT("MapBuffer", err, CL_SUCCESS);
    EXPECT("mapped contents", ((int *)mapped)[5], 5);
    ((int *)mapped)[5] = 500;
    EXPECT("Unmap(bad pointer)", D->clEnqueueUnmapMemObject(q, m, host, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT("Unmap", D->clEnqueueUnmapMemObject(q, m, mapped, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("ReadBuffer", D->clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("written through the map", out[5], 500);

    /* Programs and kernels. */
    const char *broken = "kernel void k(global int *p) { p[0] = undeclared; }\n";
    cl_program bp = D->clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
    EXPECT("Build(error)", D->clBuildProgram(bp, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[2048] = "";
    D->clGetProgramBuildInfo(bp, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    EXPECT("build log in clang's format", strstr(log, "<source>:1:39: error: use of undeclared identifier 'undeclared'") != NULL, 1);
    cl_build_status bs;
    D->clGetProgramBuildInfo(bp, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL);
    EXPECT("build status", bs, CL_BUILD_ERROR);
    D->clCreateKernel(bp, "k", &err);
    EXPECT("CreateKernel(unbuilt)", err, CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT("Build(bad option)", D->clBuildProgram(bp, 0, NULL, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    cl_program p = D->clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    EXPECT("Build", D->clBuildProgram(p, 1, &dev, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
    D->clCreateKernel(p, "nope", &err);
    EXPECT("CreateKernel(bad name)", err, CL_INVALID_KERNEL_NAME);
    cl_kernel k = D->clCreateKernel(p, "twice", &err);
    EXPECT("CreateKernel", err, CL_SUCCESS);
    EXPECT("Build(with kernels)", D->clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    size_t g = 64, l = 2048;
    EXPECT("NDRange(args not set)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT("SetKernelArg(bad index)", D->clSetKernelArg(k, 2, sizeof m, &m), CL_INVALID_ARG_INDEX);
    EXPECT("SetKernelArg(bad size)", D->clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
    cl_mem bogus = (cl_mem)&not_a_handle;
    EXPECT("SetKernelArg(bad buffer)", D->clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
    EXPECT("SetKernelArg(int size 2)", D->clSetKernelArg(k, 1, 2, &pattern), CL_INVALID_ARG_SIZE);
    EXPECT("SetKernelArg", D->clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    EXPECT("SetKernelArg", D->clSetKernelArg(k, 1, sizeof pattern, &pattern), CL_SUCCESS);
    EXPECT("NDRange(work_dim 0)", D->clEnqueueNDRangeKernel(q, k, 0, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    EXPECT("NDRange(local 2048)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
    l = 48;
    EXPECT("NDRange(non-uniform, CL2.0)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
    size_t multiple = 0;
    EXPECT("GetKernelWorkGroupInfo", D->clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple, &multiple, NULL), CL_SUCCESS);
    EXPECT("preferred work-group size multiple", multiple, 8);
    EXPECT("GetKernelWorkGroupInfo(bad param)", D->clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof multiple, &multiple, NULL), CL_INVALID_VALUE);
    char arg_name[16] = "";
    EXPECT("GetKernelArgInfo", D->clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL), CL_SUCCESS);
    EXPECT("argument name", strcmp(arg_name, "k"), 0);
    char type_name[16] = "";
    D->clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type_name, type_name, NULL);
    EXPECT("argument type", strcmp(type_name, "int*"), 0);

    /* Events: a user event holds a launch back; callbacks; profiling. */
    cl_event user = D->clCreateUserEvent(ctx, &err);
    EXPECT("CreateUserEvent", err, CL_SUCCESS);
    cl_event launched;
    g = 64;
    EXPECT("NDRange(after user event)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 1, &user, &launched), CL_SUCCESS);
    EXPECT("SetEventCallback", D->clSetEventCallback(launched, CL_COMPLETE, on_complete, NULL), CL_SUCCESS);
    cl_int st;
    D->clGetEventInfo(launched, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    EXPECT("held back by the user event", st > CL_RUNNING, 1);
    EXPECT("SetUserEventStatus", D->clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    EXPECT("SetUserEventStatus(twice)", D->clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    EXPECT("WaitForEvents", D->clWaitForEvents(1, &launched), CL_SUCCESS);
    EXPECT("Finish", D->clFinish(q), CL_SUCCESS);
    EXPECT("callback called once", callbacks, 1);
    cl_ulong t0 = 0, t1 = 0;
    EXPECT("profiling START", D->clGetEventProfilingInfo(launched, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL), CL_SUCCESS);
    EXPECT("profiling END", D->clGetEventProfilingInfo(launched, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL), CL_SUCCESS);
    EXPECT("START <= END", t0 <= t1 && t0 > 0, 1);
    EXPECT("ReleaseEvent", D->clReleaseEvent(launched), CL_SUCCESS);
    EXPECT("ReleaseEvent(again)", D->clReleaseEvent(launched), CL_INVALID_EVENT);
    cl_event lone = D->clCreateUserEvent(ctx, &err);
    EXPECT("ReleaseEvent(user)", D->clReleaseEvent(lone), CL_SUCCESS);
    EXPECT("WaitForEvents(released)", D->clWaitForEvents(1, &lone), CL_INVALID_EVENT);

    /* A kernel argument does not keep a buffer alive (clSetKernelArg does not retain). */
    cl_mem tmp = D->clCreateBuffer(ctx, 0, 64, NULL, &err);
    EXPECT("SetMemObjectDestructorCallback", D->clSetMemObjectDestructorCallback(tmp, on_destroy, NULL), CL_SUCCESS);
    EXPECT("SetKernelArg(tmp)", D->clSetKernelArg(k, 0, sizeof tmp, &tmp), CL_SUCCESS);
    EXPECT("ReleaseMemObject(tmp)", D->clReleaseMemObject(tmp), CL_SUCCESS);
    EXPECT("destructor called at release", destroyed, 1);
    EXPECT("NDRange(released buffer argument)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT("SetKernelArg", D->clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);

    /* OpenCL 3.0 rules: an empty launch (NULL global size) succeeds; no device queues. */
    EXPECT("NDRange(NULL global size)", D->clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("SetDefaultDeviceCommandQueue", D->clSetDefaultDeviceCommandQueue(ctx, dev, NULL), CL_INVALID_OPERATION);
    cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    D->clCreateContext(sync, 1, &dev, NULL, NULL, &err);
    EXPECT("CreateContext(bad INTEROP_USER_SYNC)", err, CL_INVALID_PROPERTY);

    /* The cpu device has images (tests/c/image.c tests them); pipes are not supported. */
    cl_image_format fmt = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, 0, 0, {NULL}};
    cl_mem img = D->clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    EXPECT("CreateImage", err, CL_SUCCESS);
    EXPECT("ReleaseMemObject(image)", D->clReleaseMemObject(img), CL_SUCCESS);
    D->clCreatePipe(ctx, 0, 4, 4, NULL, &err);
    EXPECT("CreatePipe", err, CL_INVALID_OPERATION);
    cl_uint nformats = 0;
    EXPECT("GetSupportedImageFormats", D->clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nformats), CL_SUCCESS);
    EXPECT("image formats", nformats > 0, 1);

    /* Many host threads at once. */
    pthread_t th[8];
    for (int i = 0; i < 8; i++) pthread_create(&th[i], NULL, worker, (void *)(size_t)i);
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL);

    EXPECT("ReleaseMemObject", D->clReleaseMemObject(sub), CL_SUCCESS);
    EXPECT("ReleaseMemObject", D->clReleaseMemObject(m), CL_SUCCESS);
    EXPECT("ReleaseMemObject(again)", D->clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    D->clReleaseKernel(k);
    D->clReleaseProgram(p);
    D->clReleaseProgram(bp);
    D->clReleaseCommandQueue(q);
    D->clReleaseContext(ctx);
    printf("validate: %d checks passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
