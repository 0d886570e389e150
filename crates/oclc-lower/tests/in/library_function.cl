// OpenCL-CTS conformance kernel, extracted verbatim (see manifest.toml / README.md).
// Repository: https://github.com/KhronosGroup/OpenCL-CTS
// Commit:     b8f8906c251926b1b3679323bfbf3df730b40fb8
// CTS file:   test_conformance/generic_address_space/advanced_tests.cpp
// CTS test:   library_function
// Built from: library program: common::CONFORMANCE_VERIFY_FENCE (base.h) + helperFunction; clCompileProgram -cl-std=CL3.0, then clLinkProgram -create-library
// License:    Apache-2.0, Copyright (c) 2017 The Khronos Group Inc.
// Everything after the BEGIN line below is byte-identical to the string the CTS
// hands to clCreateProgramWithSource (string concatenation, sprintf templates and the
// shared prologue from base.h already expanded).
// ==== CTS SOURCE BEGINS ====


// current spec says get_fence can return any valid fence
bool isFenceValid(cl_mem_fence_flags fence) {
    if ((fence == 0) || (fence == CLK_GLOBAL_MEM_FENCE) || (fence == CLK_LOCAL_MEM_FENCE) 
        || (fence == (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)))
        return true;
    else
        return false;
}


bool helperFunction(float *floatp, float val) {
    if (!isFenceValid(get_fence(floatp)))
        return false;

    if (*floatp != val)
        return false;

    return true;
}
// OpenCL-CTS conformance kernel, extracted verbatim (see manifest.toml / README.md).
// Repository: https://github.com/KhronosGroup/OpenCL-CTS
// Commit:     b8f8906c251926b1b3679323bfbf3df730b40fb8
// CTS file:   test_conformance/generic_address_space/advanced_tests.cpp
// CTS test:   library_function
// Built from: kernel program (test text only); clCompileProgram -cl-std=CL3.0, then linked with library_function.lib.cl
// License:    Apache-2.0, Copyright (c) 2017 The Khronos Group Inc.
// Everything after the BEGIN line below is byte-identical to the string the CTS
// hands to clCreateProgramWithSource (string concatenation, sprintf templates and the
// shared prologue from base.h already expanded). Kernel entry point: testKernel.
// ==== CTS SOURCE BEGINS ====

extern bool helperFunction(float *floatp, float val);

#ifdef __opencl_c_program_scope_global_variables
__global float gfloat = 1.0f;
#endif

__kernel void testKernel(__global uint *results) {
    uint tid = get_global_id(0);

#ifdef __opencl_c_program_scope_global_variables
    __global float *gfloatp = &gfloat;
#endif
    __local float lfloat;
    lfloat = 2.0f;
    __local float *lfloatp = &lfloat;
    float pfloat = 3.0f;
    __private float *pfloatp = &pfloat;

    uint failures = 0;

#ifdef __opencl_c_program_scope_global_variables
    failures += helperFunction(gfloatp, gfloat) ? 0 : 1;
#endif
    failures += helperFunction(lfloatp, lfloat) ? 0 : 1;
    failures += helperFunction(pfloatp, pfloat) ? 0 : 1;

    results[tid] = failures == 0;
};
