//! The cuda devices of the platform, through the entry points of the dispatch table (no ICD
//! loader needed): without a CUDA driver (or without the `cuda` feature) the platform lists
//! only the cpu device, and `OCLC_DEVICE=cuda` lists none; with one (`--features cuda` on a
//! GPU machine, run by scripts/gpu_validate.sh) a kernel using the generic address space runs
//! on the GPU through contexts, buffers, programs and queues, or the test says why it skipped.
//!
//! The OpenCL API is C: each call goes through the library's `extern "C"` functions, so the
//! calls are `unsafe`; every pointer handed over is to a live local of the right size.

use std::ffi::{CString, c_void};
use std::process::Command;
use std::ptr::{null, null_mut};

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;

/// The library's dispatch table (what the ICD loaders call).
fn d() -> &'static cl_icd_dispatch {
    &oclc_icd::api::DISPATCH
}

fn platform() -> cl_platform_id {
    let mut p: cl_platform_id = null_mut();
    let mut n: cl_uint = 0;
    // SAFETY: one writable handle and one writable count.
    let rc = unsafe { oclc_icd::api::clIcdGetPlatformIDsKHR(1, &mut p, &mut n) };
    assert_eq!((rc, n), (CL_SUCCESS, 1));
    p
}

/// The devices of type `ty`, or the error code.
fn devices(ty: cl_device_type) -> Result<Vec<cl_device_id>, cl_int> {
    let f = d().clGetDeviceIDs.expect("clGetDeviceIDs");
    let mut list: Vec<cl_device_id> = vec![null_mut(); 32];
    let mut n: cl_uint = 0;
    // SAFETY: `list` has room for 32 handles; `n` is writable.
    let rc = unsafe { f(platform(), ty, 32, list.as_mut_ptr(), &mut n) };
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    list.truncate(n as usize);
    Ok(list)
}

fn info_bytes(dev: cl_device_id, param: cl_device_info) -> Vec<u8> {
    let f = d().clGetDeviceInfo.expect("clGetDeviceInfo");
    let mut size = 0usize;
    // SAFETY: a size query: NULL value, writable size.
    assert_eq!(
        unsafe { f(dev, param, 0, null_mut(), &mut size) },
        CL_SUCCESS
    );
    let mut out = vec![0u8; size];
    // SAFETY: `out` has `size` bytes.
    let rc = unsafe { f(dev, param, size, out.as_mut_ptr().cast(), null_mut()) };
    assert_eq!(rc, CL_SUCCESS);
    out
}

fn info_string(dev: cl_device_id, param: cl_device_info) -> String {
    let b = info_bytes(dev, param);
    String::from_utf8_lossy(&b)
        .trim_end_matches('\0')
        .to_string()
}

fn info_u64(dev: cl_device_id, param: cl_device_info) -> u64 {
    let b = info_bytes(dev, param);
    let mut v = [0u8; 8];
    v[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
    u64::from_le_bytes(v)
}

/// Run by [`oclc_device_cuda_without_a_gpu_lists_no_device`] in a child process with
/// `OCLC_DEVICE` set: prints the devices the platform lists, one word per device.
#[test]
fn child_prints_the_device_list() {
    let list = devices(CL_DEVICE_TYPE_ALL).unwrap_or_default();
    let kinds: Vec<&str> = list
        .iter()
        .map(|&dv| {
            if info_u64(dv, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_GPU {
                "gpu"
            } else {
                "cpu"
            }
        })
        .collect();
    println!("devices: [{}]", kinds.join(","));
}

/// The device list of a child process run with `OCLC_DEVICE=choice`.
fn listing_with(choice: &str) -> String {
    let exe = std::env::current_exe().expect("test executable");
    let out = Command::new(exe)
        .args(["--exact", "child_prints_the_device_list", "--nocapture"])
        .env("OCLC_DEVICE", choice)
        .output()
        .expect("the test binary runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .find_map(|l| {
            l.strip_prefix("devices: ")
                .map(|s| s.trim_matches(['[', ']']).to_string())
        })
        .unwrap_or_else(|| panic!("no device list in the child's output:\n{text}"))
}

fn have_gpu() -> bool {
    devices(CL_DEVICE_TYPE_GPU).is_ok_and(|l| !l.is_empty())
}

#[test]
fn the_cpu_device_is_always_listed_first_and_gpus_only_with_a_driver() {
    let all = devices(CL_DEVICE_TYPE_ALL).expect("at least the cpu device");
    assert!(!all.is_empty());
    assert_eq!(info_u64(all[0], CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
    assert_eq!(info_string(all[0], CL_DEVICE_NAME), "oclc cpu");
    let default = devices(CL_DEVICE_TYPE_DEFAULT).expect("a default device");
    assert_eq!(default, vec![all[0]]);
    for &g in &all[1..] {
        assert_eq!(info_u64(g, CL_DEVICE_TYPE), CL_DEVICE_TYPE_GPU);
        assert!(info_string(g, CL_DEVICE_NAME).starts_with("oclc cuda "));
    }
    if all.len() == 1 {
        assert_eq!(devices(CL_DEVICE_TYPE_GPU), Err(CL_DEVICE_NOT_FOUND));
        assert_eq!(listing_with("all"), "cpu");
        assert_eq!(listing_with("cpu"), "cpu");
    }
}

#[test]
fn oclc_device_cuda_without_a_gpu_lists_no_device() {
    if have_gpu() {
        eprintln!("skipped: this machine has a GPU (the GPU test covers OCLC_DEVICE=cuda)");
        assert!(listing_with("cuda").split(',').all(|k| k == "gpu"));
        assert_eq!(listing_with("cpu"), "cpu");
        return;
    }
    assert_eq!(listing_with("cuda"), "");
}

/// Generic pointers to global, local and private memory: `a[i] = 2 * a[i] + b[i]`, over a
/// range that is not a multiple of the work-group size.
const SOURCE: &str = r#"
void add_to(int *p, int v) { *p += v; }
kernel void k(global int *a, global const int *b) {
    size_t i = get_global_id(0);
    local int l[64];
    l[get_local_id(0)] = b[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = a[i];
    add_to(&x, l[get_local_id(0)]);
    add_to(&a[i], x);
}
"#;

fn check(rc: cl_int, what: &str) {
    assert_eq!(rc, CL_SUCCESS, "{what} failed with {rc}");
}

#[test]
fn a_kernel_with_generic_pointers_runs_on_the_cpu_device() {
    let cpu = devices(CL_DEVICE_TYPE_CPU).expect("the cpu device")[0];
    generic_kernel_through_the_api(cpu);
}

#[test]
fn a_kernel_with_generic_pointers_runs_on_the_gpu() {
    let gpu = match devices(CL_DEVICE_TYPE_GPU) {
        Ok(l) if !l.is_empty() => l[0],
        _ => {
            eprintln!(
                "skipped: no cuda device (needs --features cuda and a CUDA driver with a GPU)"
            );
            return;
        }
    };
    assert!(info_u64(gpu, CL_DEVICE_MAX_COMPUTE_UNITS) as u32 > 0);
    assert!(info_u64(gpu, CL_DEVICE_GLOBAL_MEM_SIZE) > 1 << 30);
    assert!(info_u64(gpu, CL_DEVICE_LOCAL_MEM_SIZE) >= 16 << 10);
    assert!(info_u64(gpu, CL_DEVICE_MAX_WORK_GROUP_SIZE) >= 256);
    assert_eq!(
        info_u64(gpu, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) as u32,
        1
    );
    // A context may not mix the GPU with the cpu device.
    let cpu = devices(CL_DEVICE_TYPE_CPU).expect("cpu")[0];
    let both = [cpu, gpu];
    let mut err = CL_SUCCESS;
    // SAFETY: two device handles; `err` is writable.
    let mixed = unsafe {
        d().clCreateContext.expect("fn")(null(), 2, both.as_ptr(), None, null_mut(), &mut err)
    };
    assert!(mixed.is_null());
    assert_eq!(err, CL_DEVICE_NOT_AVAILABLE);
    generic_kernel_through_the_api(gpu);
}

/// Context, queue, program, buffers, kernel, launch and reads on `dev`, checking each result.
fn generic_kernel_through_the_api(dev: cl_device_id) {
    let t = d();
    let n = 1000usize;
    let a: Vec<i32> = (0..n as i32).collect();
    let b: Vec<i32> = (0..n as i32).map(|x| 3 * x + 1).collect();
    let src = CString::new(SOURCE).expect("no NUL");
    let opts = CString::new("-cl-std=CL3.0").expect("no NUL");
    let name = CString::new("k").expect("no NUL");
    let mut err = CL_SUCCESS;
    // SAFETY: every pointer is to a live local of the size passed with it; handles come
    // from the calls before.
    unsafe {
        let ctx = t.clCreateContext.expect("fn")(null(), 1, &dev, None, null_mut(), &mut err);
        check(err, "clCreateContext");
        let q = t.clCreateCommandQueueWithProperties.expect("fn")(ctx, dev, null(), &mut err);
        check(err, "clCreateCommandQueueWithProperties");
        let mut src_ptr = src.as_ptr();
        let prog = t.clCreateProgramWithSource.expect("fn")(ctx, 1, &mut src_ptr, null(), &mut err);
        check(err, "clCreateProgramWithSource");
        let rc = t.clBuildProgram.expect("fn")(prog, 1, &dev, opts.as_ptr(), None, null_mut());
        if rc != CL_SUCCESS {
            let mut log = vec![0u8; 1 << 16];
            t.clGetProgramBuildInfo.expect("fn")(
                prog,
                dev,
                CL_PROGRAM_BUILD_LOG,
                log.len(),
                log.as_mut_ptr().cast(),
                null_mut(),
            );
            panic!("build failed ({rc}): {}", String::from_utf8_lossy(&log));
        }
        let kernel = t.clCreateKernel.expect("fn")(prog, name.as_ptr(), &mut err);
        check(err, "clCreateKernel");
        let bytes = n * 4;
        let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        let buf_a =
            t.clCreateBuffer.expect("fn")(ctx, flags, bytes, a.as_ptr() as *mut c_void, &mut err);
        check(err, "clCreateBuffer a");
        let buf_b =
            t.clCreateBuffer.expect("fn")(ctx, flags, bytes, b.as_ptr() as *mut c_void, &mut err);
        check(err, "clCreateBuffer b");
        let sz = std::mem::size_of::<cl_mem>();
        check(
            t.clSetKernelArg.expect("fn")(kernel, 0, sz, (&raw const buf_a).cast()),
            "clSetKernelArg 0",
        );
        check(
            t.clSetKernelArg.expect("fn")(kernel, 1, sz, (&raw const buf_b).cast()),
            "clSetKernelArg 1",
        );
        let (global, local) = (n, 64usize);
        let mut ev: cl_event = null_mut();
        check(
            t.clEnqueueNDRangeKernel.expect("fn")(
                q,
                kernel,
                1,
                null(),
                &global,
                &local,
                0,
                null(),
                &mut ev,
            ),
            "clEnqueueNDRangeKernel",
        );
        check(t.clWaitForEvents.expect("fn")(1, &ev), "clWaitForEvents");
        let mut out = vec![0i32; n];
        check(
            t.clEnqueueReadBuffer.expect("fn")(
                q,
                buf_a,
                CL_TRUE,
                0,
                bytes,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueReadBuffer",
        );
        let mut want: Vec<i32> = (0..n).map(|i| 2 * a[i] + b[i]).collect();
        assert_eq!(out, want);
        // Again on a sub-buffer of `a` (256 elements from element 128): only those change.
        let region = cl_buffer_region {
            origin: 128 * 4,
            size: 256 * 4,
        };
        let sub = t.clCreateSubBuffer.expect("fn")(
            buf_a,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&raw const region).cast(),
            &mut err,
        );
        check(err, "clCreateSubBuffer");
        check(
            t.clSetKernelArg.expect("fn")(kernel, 0, sz, (&raw const sub).cast()),
            "clSetKernelArg sub-buffer",
        );
        let sub_global = 256usize;
        check(
            t.clEnqueueNDRangeKernel.expect("fn")(
                q,
                kernel,
                1,
                null(),
                &sub_global,
                &local,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueNDRangeKernel on a sub-buffer",
        );
        check(
            t.clEnqueueReadBuffer.expect("fn")(
                q,
                buf_a,
                CL_TRUE,
                0,
                bytes,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueReadBuffer after the sub-buffer launch",
        );
        for j in 0..256 {
            want[128 + j] = 2 * want[128 + j] + b[j];
        }
        assert_eq!(out, want);
        t.clReleaseMemObject.expect("fn")(sub);
        // A partial write then read at an offset moves only those bytes.
        let seven = [7i32; 4];
        check(
            t.clEnqueueWriteBuffer.expect("fn")(
                q,
                buf_b,
                CL_TRUE,
                40,
                16,
                seven.as_ptr().cast(),
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueWriteBuffer",
        );
        let mut back = [0i32; 6];
        check(
            t.clEnqueueReadBuffer.expect("fn")(
                q,
                buf_b,
                CL_TRUE,
                36,
                24,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueReadBuffer b",
        );
        assert_eq!(back, [b[9], 7, 7, 7, 7, b[14]]);
        for obj in [buf_a, buf_b] {
            t.clReleaseMemObject.expect("fn")(obj);
        }
        t.clReleaseEvent.expect("fn")(ev);
        t.clReleaseKernel.expect("fn")(kernel);
        t.clReleaseProgram.expect("fn")(prog);
        t.clReleaseCommandQueue.expect("fn")(q);
        t.clReleaseContext.expect("fn")(ctx);
    }
}

/// The GPU test in a child process with `OCLC_CUDA_EMULATE=1`: a GPU device whose worker
/// thread owns the library's cpu device, so that buffers, builds and launches go through the
/// worker as on a GPU on machines without one.
#[cfg(feature = "cuda")]
#[test]
fn the_gpu_path_runs_on_an_emulated_gpu() {
    let exe = std::env::current_exe().expect("test executable");
    let out = Command::new(exe)
        .args([
            "--exact",
            "a_kernel_with_generic_pointers_runs_on_the_gpu",
            "--nocapture",
        ])
        .env("OCLC_CUDA_EMULATE", "1")
        .env_remove("OCLC_DEVICE")
        .output()
        .expect("the test binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
    assert!(!text.contains("skipped"), "{text}");
}

const SVM_SOURCE: &str = r#"
kernel void s(global int *a, global int *global *slot) {
    size_t i = get_global_id(0);
    global int *b = *slot;
    b[i] = a[i] * 3 + 1;
    a[i] += 100;
}
"#;

/// Coarse-grained SVM on the GPU (managed memory): SVM pointers as arguments, a pointer
/// stored in SVM memory, fill, map, memcpy and a USE_HOST_PTR buffer over SVM memory.
#[test]
fn coarse_grained_svm_runs_on_the_gpu() {
    let gpu = match devices(CL_DEVICE_TYPE_GPU) {
        Ok(l) if !l.is_empty() => l[0],
        _ => {
            eprintln!(
                "skipped: no cuda device (needs --features cuda and a CUDA driver with a GPU)"
            );
            return;
        }
    };
    let caps = info_u64(gpu, CL_DEVICE_SVM_CAPABILITIES);
    if caps == 0 {
        eprintln!("skipped: this GPU has no managed memory with concurrent access (no SVM)");
        return;
    }
    assert_eq!(caps, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    let t = d();
    let n = 256usize;
    let half = n / 2;
    let bytes = n * 4;
    let src = CString::new(SVM_SOURCE).expect("no NUL");
    let opts = CString::new("-cl-std=CL3.0").expect("no NUL");
    let name = CString::new("s").expect("no NUL");
    let mut err = CL_SUCCESS;
    // SAFETY: every pointer is to a live local of the size passed with it, or an SVM
    // allocation of the size asked for, touched by the host only while mapped or after a
    // blocking command; handles come from the calls before.
    unsafe {
        let ctx = t.clCreateContext.expect("fn")(null(), 1, &gpu, None, null_mut(), &mut err);
        check(err, "clCreateContext");
        let q = t.clCreateCommandQueueWithProperties.expect("fn")(ctx, gpu, null(), &mut err);
        check(err, "clCreateCommandQueueWithProperties");
        // Fine-grained buffers are not offered.
        let fine = t.clSVMAlloc.expect("fn")(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0);
        assert!(fine.is_null());
        let a = t.clSVMAlloc.expect("fn")(ctx, CL_MEM_READ_WRITE, bytes, 0) as *mut i32;
        let b = t.clSVMAlloc.expect("fn")(ctx, CL_MEM_READ_WRITE, bytes, 0) as *mut i32;
        let slot = t.clSVMAlloc.expect("fn")(ctx, CL_MEM_READ_WRITE, 8, 0) as *mut *mut i32;
        assert!(!a.is_null() && !b.is_null() && !slot.is_null());
        let seven = 7i32;
        check(
            t.clEnqueueSVMMemFill.expect("fn")(
                q,
                a.cast(),
                (&raw const seven).cast(),
                4,
                bytes,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMemFill",
        );
        check(
            t.clEnqueueSVMMap.expect("fn")(
                q,
                CL_TRUE,
                CL_MAP_WRITE,
                a.cast(),
                bytes,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMap a",
        );
        for i in 0..half {
            *a.add(i) = i as i32;
        }
        check(
            t.clEnqueueSVMUnmap.expect("fn")(q, a.cast(), 0, null(), null_mut()),
            "unmap a",
        );
        check(
            t.clEnqueueSVMMap.expect("fn")(
                q,
                CL_TRUE,
                CL_MAP_WRITE,
                slot.cast(),
                8,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMap slot",
        );
        *slot = b;
        check(
            t.clEnqueueSVMUnmap.expect("fn")(q, slot.cast(), 0, null(), null_mut()),
            "unmap slot",
        );
        let mut src_ptr = src.as_ptr();
        let prog = t.clCreateProgramWithSource.expect("fn")(ctx, 1, &mut src_ptr, null(), &mut err);
        check(err, "clCreateProgramWithSource");
        check(
            t.clBuildProgram.expect("fn")(prog, 1, &gpu, opts.as_ptr(), None, null_mut()),
            "clBuildProgram",
        );
        let kernel = t.clCreateKernel.expect("fn")(prog, name.as_ptr(), &mut err);
        check(err, "clCreateKernel");
        check(
            t.clSetKernelArgSVMPointer.expect("fn")(kernel, 0, a.cast()),
            "arg 0",
        );
        check(
            t.clSetKernelArgSVMPointer.expect("fn")(kernel, 1, slot.cast()),
            "arg 1",
        );
        let used = [b];
        check(
            t.clSetKernelExecInfo.expect("fn")(
                kernel,
                CL_KERNEL_EXEC_INFO_SVM_PTRS,
                std::mem::size_of_val(&used),
                used.as_ptr().cast(),
            ),
            "clSetKernelExecInfo",
        );
        let local = 64usize;
        check(
            t.clEnqueueNDRangeKernel.expect("fn")(
                q,
                kernel,
                1,
                null(),
                &n,
                &local,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueNDRangeKernel",
        );
        let mut got_b = vec![0i32; n];
        check(
            t.clEnqueueSVMMemcpy.expect("fn")(
                q,
                CL_TRUE,
                got_b.as_mut_ptr().cast(),
                b.cast(),
                bytes,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMemcpy",
        );
        let start: Vec<i32> = (0..n)
            .map(|i| if i < half { i as i32 } else { 7 })
            .collect();
        let want_b: Vec<i32> = start.iter().map(|x| x * 3 + 1).collect();
        assert_eq!(got_b, want_b);
        check(
            t.clEnqueueSVMMap.expect("fn")(
                q,
                CL_TRUE,
                CL_MAP_READ,
                a.cast(),
                bytes,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMap a to read",
        );
        let got_a: Vec<i32> = (0..n).map(|i| *a.add(i)).collect();
        let want_a: Vec<i32> = start.iter().map(|x| x + 100).collect();
        assert_eq!(got_a, want_a);
        check(
            t.clEnqueueSVMUnmap.expect("fn")(q, a.cast(), 0, null(), null_mut()),
            "unmap a",
        );
        // A USE_HOST_PTR buffer over A's upper half is that memory.
        let upper = t.clCreateBuffer.expect("fn")(
            ctx,
            CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
            half * 4,
            a.add(half).cast(),
            &mut err,
        );
        check(err, "clCreateBuffer over SVM");
        let sz = std::mem::size_of::<cl_mem>();
        check(
            t.clSetKernelArg.expect("fn")(kernel, 0, sz, (&raw const upper).cast()),
            "arg 0 buffer",
        );
        check(
            t.clEnqueueNDRangeKernel.expect("fn")(
                q,
                kernel,
                1,
                null(),
                &half,
                &local,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueNDRangeKernel over SVM buffer",
        );
        check(t.clFinish.expect("fn")(q), "clFinish");
        check(
            t.clEnqueueSVMMap.expect("fn")(
                q,
                CL_TRUE,
                CL_MAP_READ,
                a.cast(),
                bytes,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMap a again",
        );
        assert_eq!(*a.add(half), 207);
        assert_eq!(*a.add(n - 1), 207);
        assert_eq!(*a.add(half - 1), half as i32 - 1 + 100);
        assert_eq!(*b, 107 * 3 + 1);
        assert_eq!(*b.add(half), 7 * 3 + 1);
        check(
            t.clEnqueueSVMUnmap.expect("fn")(q, a.cast(), 0, null(), null_mut()),
            "unmap a",
        );
        check(t.clFinish.expect("fn")(q), "clFinish");
        t.clReleaseMemObject.expect("fn")(upper);
        t.clReleaseKernel.expect("fn")(kernel);
        t.clReleaseProgram.expect("fn")(prog);
        for p in [a.cast(), b.cast(), slot.cast::<c_void>()] {
            t.clSVMFree.expect("fn")(ctx, p);
        }
        t.clReleaseCommandQueue.expect("fn")(q);
        t.clReleaseContext.expect("fn")(ctx);
    }
}
