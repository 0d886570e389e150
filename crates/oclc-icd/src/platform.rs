//! The platform "oclc" and its devices: what they report to `clGetPlatformInfo` and
//! `clGetDeviceInfo`, and the library device each stands for.

use std::sync::{Mutex, OnceLock};

use opencl_sys::*;

use crate::handle::{self, ClObject, Kind, Ref};
use crate::info::{Info, version};

/// The one platform.
pub struct Platform {
    pub devices: Vec<Ref<Device>>,
}

impl ClObject for Platform {
    const KIND: Kind = Kind::Platform;
}

/// A device of the platform: the embedded cpu device (one per process), or a GPU.
pub struct Device {
    pub backend: Backend,
    /// The memory limits checked before commands reach the device (for a GPU: from the
    /// driver).
    pub limits: oclc_cpu::Limits,
    pub printf_buffer: usize,
}

/// What runs a device's commands.
pub enum Backend {
    /// The cpu device, held directly (a library `oclc::Device` built with `cuda` may not
    /// cross threads); launches hold the lock (one kernel at a time, each using every core).
    Cpu(Mutex<oclc_cpu::Device>),
    /// A GPU, through the worker thread that owns its CUDA objects.
    #[cfg(feature = "cuda")]
    Cuda(std::sync::Arc<crate::cuda::Worker>),
}

impl Device {
    /// CL_DEVICE_SVM_CAPABILITIES.
    pub fn svm_capabilities(&self) -> cl_device_svm_capabilities {
        facts(self).svm
    }

    /// Host memory and device buffer of a new SVM allocation of `size` bytes aligned to
    /// `align`: on a GPU, managed memory (one address for both); `None` when it cannot be.
    pub fn new_svm(
        &self,
        size: usize,
        align: usize,
    ) -> Option<(crate::ffi::HostAlloc, crate::mem::Store)> {
        match &self.backend {
            Backend::Cpu(_) => Some((
                crate::ffi::HostAlloc::new(size, align)?,
                self.new_buffer(size).ok()?,
            )),
            #[cfg(feature = "cuda")]
            Backend::Cuda(w) => {
                let (buf, addr) = w.alloc_managed(size).ok()?;
                let addr = usize::try_from(addr).ok()?;
                if align != 0 && !addr.is_multiple_of(align) {
                    return None;
                }
                let host = crate::ffi::HostAlloc::managed(addr, size, buf.clone())?;
                Some((
                    host,
                    crate::mem::Store::Cuda {
                        buf,
                        offset: 0,
                        len: size,
                    },
                ))
            }
        }
    }

    /// Whether this is a GPU.
    pub fn is_cuda(&self) -> bool {
        !matches!(self.backend, Backend::Cpu(_))
    }

    /// CL_DEVICE_MAX_WORK_GROUP_SIZE.
    pub fn max_work_group(&self) -> usize {
        match &self.backend {
            Backend::Cpu(_) => MAX_WORK_GROUP,
            #[cfg(feature = "cuda")]
            Backend::Cuda(w) => w.info.max_threads_per_block.max(1) as usize,
        }
    }

    /// CL_DEVICE_MAX_WORK_ITEM_SIZES.
    pub fn max_work_item_sizes(&self) -> [usize; 3] {
        facts(self).max_work_item_sizes
    }

    /// CL_DEVICE_TYPE.
    pub fn device_type(&self) -> cl_device_type {
        if self.is_cuda() {
            CL_DEVICE_TYPE_GPU
        } else {
            CL_DEVICE_TYPE_CPU
        }
    }

    /// A zeroed buffer of `size` bytes in the device's memory.
    pub fn new_buffer(&self, size: usize) -> Result<crate::mem::Store, cl_int> {
        match &self.backend {
            Backend::Cpu(d) => d
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .buffer(size)
                .map(crate::mem::Store::Cpu)
                .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE),
            #[cfg(feature = "cuda")]
            Backend::Cuda(w) => w.alloc(size).map(|buf| crate::mem::Store::Cuda {
                buf,
                offset: 0,
                len: size,
            }),
        }
    }
}

/// Whether a device of type `ty` (the first listed: `first`) is one `clGetDeviceIDs` and
/// `clCreateContextFromType` with `wanted` return: CL_DEVICE_TYPE_DEFAULT is the first device.
pub fn type_matches(ty: cl_device_type, first: bool, wanted: cl_device_type) -> bool {
    wanted == CL_DEVICE_TYPE_ALL
        || wanted & ty != 0
        || (first && wanted & CL_DEVICE_TYPE_DEFAULT != 0)
}

impl ClObject for Device {
    const KIND: Kind = Kind::Device;
}

/// The platform's name, vendor and ICD suffix.
pub const PLATFORM_NAME: &str = "oclc";
pub const VENDOR: &str = "oclc project";
pub const ICD_SUFFIX: &str = "oclc";
pub const PLATFORM_VERSION: &str = "OpenCL 3.0 oclc";
pub const PLATFORM_EXTENSIONS: &[&str] = &["cl_khr_icd"];

/// Extensions of the devices' OpenCL C (and the API): the ones oclc's front end and the cpu
/// device implement.
pub const DEVICE_EXTENSIONS: &[&str] = &[
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_icd",
];

/// OpenCL C 3.0 optional features the devices support.
pub const DEVICE_FEATURES: &[&str] = &[
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_int64",
    "__opencl_c_fp64",
    // Sub-groups as the OpenCL 3.0 feature only: `cl_khr_subgroups` also demands independent
    // forward progress of sub-groups, which the cpu device (work-items run in turn between
    // barriers) does not give.
    "__opencl_c_subgroups",
];

/// Image extensions: the cpu device's, not the GPUs'.
pub const IMAGE_EXTENSIONS: &[&str] = &["cl_khr_3d_image_writes", "cl_khr_image2d_from_buffer"];

/// OpenCL C 3.0 image features: the cpu device's, not the GPUs'.
pub const IMAGE_FEATURES: &[&str] = &[
    "__opencl_c_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_read_write_images",
];

/// Image limits of the cpu device (CL_DEVICE_IMAGE2D_MAX_WIDTH, ...): an image is one
/// allocation, so these only keep sizes ordinary; the allocation limit is checked too.
pub const IMAGE2D_MAX: usize = 16384;
pub const IMAGE3D_MAX: usize = 2048;
pub const IMAGE_MAX_ARRAY: usize = 2048;
pub const IMAGE_MAX_BUFFER: usize = 1 << 27;
pub const MAX_READ_IMAGE_ARGS: u32 = 128;
pub const MAX_WRITE_IMAGE_ARGS: u32 = 64;
pub const MAX_SAMPLERS: u32 = 16;

/// The `-cl-ext=` option every build gets first, so the macros a program sees are the
/// device's extensions and features, not every one the front end knows; `images` adds the
/// image features (programs for the cpu device only).
pub fn cl_ext_option(images: bool) -> String {
    let mut items: Vec<String> = Vec::new();
    for e in oclc_syntax::lang::EXTENSIONS {
        if !(DEVICE_EXTENSIONS.contains(e) || images && IMAGE_EXTENSIONS.contains(e)) {
            items.push(format!("-{e}"));
        }
    }
    for (f, _) in oclc_syntax::lang::FEATURES {
        if !(DEVICE_FEATURES.contains(f) || images && IMAGE_FEATURES.contains(f)) {
            items.push(format!("-{f}"));
        }
    }
    format!("-cl-ext={}", items.join(","))
}

/// Sub-groups: on a GPU a warp of 32 work-items; on the cpu device one work-item.
pub const GPU_SUB_GROUP: usize = 32;

/// The size of the sub-groups of a work-group of `n` work-items on `dev` (the largest one).
pub fn sub_group_size(dev: &Device, n: usize) -> usize {
    n.min(if dev.is_cuda() { GPU_SUB_GROUP } else { 1 })
}

/// CL_DEVICE_MAX_NUM_SUB_GROUPS: the sub-groups of the largest work-group.
pub fn max_sub_groups(dev: &Device) -> u32 {
    let n = dev.max_work_group();
    n.div_ceil(sub_group_size(dev, n).max(1)) as u32
}

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: any size runs as well on the cpu device;
/// 8, as CPU implementations commonly report, keeps host programs that size work-groups by
/// it (and assume an even size, as the CTS's generic_atomics_variant does) on ordinary sizes.
pub const PREFERRED_MULTIPLE: usize = 8;

/// `CL_DEVICE_MAX_WORK_GROUP_SIZE`.
pub const MAX_WORK_GROUP: usize = oclc_cpu::MAX_WORK_GROUP_SIZE as usize;

/// The platform, made on first use with its devices.
pub fn platform() -> &'static (Ref<Platform>, usize) {
    static PLATFORM: OnceLock<(Ref<Platform>, usize)> = OnceLock::new();
    PLATFORM.get_or_init(|| {
        let mut devices = Vec::new();
        let choice = device_choice();
        if choice.allows_cpu() {
            let cpu = make_cpu();
            let _ = handle::register(&cpu);
            devices.push(cpu);
        }
        #[cfg(feature = "cuda")]
        if choice != DeviceChoice::Cpu {
            for w in crate::cuda::Worker::start_all(choice == DeviceChoice::Cuda) {
                let gpu = make_cuda(w);
                let _ = handle::register(&gpu);
                devices.push(gpu);
            }
        }
        #[cfg(not(feature = "cuda"))]
        if choice == DeviceChoice::Cuda {
            eprintln!(
                "oclc: OCLC_DEVICE=cuda: this liboclc_icd.so was built without the cuda \
                 feature (cargo build --release -p oclc-icd --features cuda); it lists no device"
            );
        }
        let (p, h) = handle::create(Platform { devices });
        (p, h as usize)
    })
}

/// Which devices the platform lists: `OCLC_DEVICE` (`cpu`, `cuda`, or unset for all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    All,
    Cpu,
    Cuda,
}

impl DeviceChoice {
    fn allows_cpu(self) -> bool {
        self != DeviceChoice::Cuda
    }
}

/// `OCLC_DEVICE`; an unknown value is reported on stderr once and means all devices.
pub fn device_choice() -> DeviceChoice {
    match std::env::var("OCLC_DEVICE").as_deref() {
        Err(_) | Ok("") | Ok("all") => DeviceChoice::All,
        Ok("cpu") => DeviceChoice::Cpu,
        Ok("cuda") => DeviceChoice::Cuda,
        Ok(other) => {
            eprintln!("oclc: OCLC_DEVICE='{other}' is not cpu, cuda or all; listing all devices");
            DeviceChoice::All
        }
    }
}

/// The cpu device with the environment's settings: `OCLC_RACES=1` turns on race
/// detection, `OCLC_MAX_STEPS=N` sets the step limit (the `OCLC_*` memory limits are read
/// by the library itself).
fn make_cpu() -> Ref<Device> {
    let mut dev = oclc_cpu::Device::cpu();
    match std::env::var("OCLC_RACES").as_deref() {
        Ok("1") | Ok("on") | Ok("yes") | Ok("true") => dev = dev.with_race_detection(true),
        Ok("0") | Ok("off") | Ok("no") | Ok("false") | Ok("") | Err(_) => {}
        Ok(v) => eprintln!("oclc: OCLC_RACES='{v}' is not 1 or 0; race detection stays off"),
    }
    if let Ok(v) = std::env::var("OCLC_MAX_STEPS") {
        match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => dev = dev.with_max_steps(n),
            _ => eprintln!(
                "oclc: OCLC_MAX_STEPS='{v}' is not a positive integer; using the default {}",
                oclc_cpu::DEFAULT_MAX_STEPS
            ),
        }
    }
    let limits = dev.limits();
    let printf_buffer = oclc_cpu::printf::buffer_size_from_env()
        .unwrap_or(oclc_cpu::printf::DEFAULT_PRINTF_BUFFER_SIZE);
    handle::new(Device {
        backend: Backend::Cpu(Mutex::new(dev)),
        limits,
        printf_buffer,
    })
}

/// A GPU's device: limits from the driver. Buffers may take a quarter of the memory
/// (OpenCL's minimum CL_DEVICE_MAX_MEM_ALLOC_SIZE); `__local` is the block's static shared
/// memory; program-scope variables share the constant bank's size as a bound.
#[cfg(feature = "cuda")]
fn make_cuda(w: std::sync::Arc<crate::cuda::Worker>) -> Ref<Device> {
    let i = &w.info;
    let limits = oclc_cpu::Limits {
        local_mem_size: i.shared_mem_per_block,
        constant_mem_size: i.constant_mem,
        max_alloc_size: (i.global_mem / 4).max(1 << 27),
        max_global_variable_size: oclc_cpu::Limits::default().max_global_variable_size,
        ..oclc_cpu::Limits::default()
    };
    handle::new(Device {
        backend: Backend::Cuda(w),
        limits,
        // The cuda device runs printf too (issue 17), with the cpu device's buffer size.
        printf_buffer: oclc_cpu::printf::buffer_size_from_env()
            .unwrap_or(oclc_cpu::printf::DEFAULT_PRINTF_BUFFER_SIZE),
    })
}

/// What a device says of itself that differs between the cpu device and a GPU.
struct Facts {
    name: String,
    compute_units: u32,
    clock_mhz: u32,
    global_mem: u64,
    max_work_item_sizes: [usize; 3],
    local_mem_type: cl_device_local_mem_type,
    cache_size: u64,
    cacheline: u32,
    host_unified: bool,
    svm: cl_device_svm_capabilities,
    preferred_multiple: usize,
}

fn facts(dev: &Device) -> Facts {
    match &dev.backend {
        Backend::Cpu(_) => Facts {
            name: "oclc cpu".into(),
            compute_units: cores(),
            clock_mhz: 1000,
            global_mem: host_memory().max(dev.limits.max_alloc_size),
            max_work_item_sizes: [MAX_WORK_GROUP; 3],
            local_mem_type: CL_GLOBAL,
            cache_size: 1 << 20,
            cacheline: 64,
            host_unified: true,
            // Fine-grained buffers too: launches copy in and write back only changed bytes.
            svm: CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER,
            preferred_multiple: PREFERRED_MULTIPLE,
        },
        #[cfg(feature = "cuda")]
        Backend::Cuda(w) => {
            let i = &w.info;
            let max = dev.max_work_group();
            Facts {
                name: format!("oclc cuda {} ({})", i.name, i.target),
                compute_units: i.compute_units,
                clock_mhz: i.clock_mhz,
                global_mem: i.global_mem,
                max_work_item_sizes: i.max_block_dims.map(|d| (d as usize).min(max)),
                local_mem_type: CL_LOCAL,
                cache_size: i.l2_cache,
                cacheline: 128,
                host_unified: false,
                // Coarse-grained buffers in managed memory, where the GPU has it.
                svm: if i.managed_svm {
                    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
                } else {
                    0
                },
                preferred_multiple: 32,
            }
        }
    }
}

/// `clGetPlatformInfo`.
pub fn platform_info(param: cl_platform_info) -> Result<Info, cl_int> {
    Ok(match param {
        CL_PLATFORM_PROFILE => Info::str("FULL_PROFILE"),
        CL_PLATFORM_VERSION => Info::str(PLATFORM_VERSION),
        CL_PLATFORM_NUMERIC_VERSION => Info::u32(version(3, 0, 0)),
        CL_PLATFORM_NAME => Info::str(PLATFORM_NAME),
        CL_PLATFORM_VENDOR => Info::str(VENDOR),
        CL_PLATFORM_EXTENSIONS => Info::str(&PLATFORM_EXTENSIONS.join(" ")),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => {
            Info::name_versions(&[(version(1, 0, 0), "cl_khr_icd")])
        }
        CL_PLATFORM_HOST_TIMER_RESOLUTION => Info::u64(1),
        CL_PLATFORM_ICD_SUFFIX_KHR => Info::str(ICD_SUFFIX),
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// Nanoseconds on the host's monotonic clock (event profiling, host timers).
pub fn now_ns() -> u64 {
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    // Starts at 1 s so that no timestamp is 0.
    1_000_000_000 + start.elapsed().as_nanos() as u64
}

fn cores() -> u32 {
    oclc_cpu::available_cores() as u32
}

fn host_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            kib.checked_mul(1024)
        })
        .unwrap_or(8 << 30)
}

/// `CL_DEVICE_SINGLE_FP_CONFIG` etc.: round to nearest, denormals, inf/NaN, FMA.
const FP_CONFIG: u64 = CL_FP_DENORM
    | CL_FP_INF_NAN
    | CL_FP_ROUND_TO_NEAREST
    | CL_FP_ROUND_TO_ZERO
    | CL_FP_ROUND_TO_INF
    | CL_FP_FMA;

/// Whether `param` is an image limit (0 on devices without images).
fn is_image_limit(param: cl_device_info) -> bool {
    is_image_count(param)
        || matches!(
            param,
            CL_DEVICE_IMAGE2D_MAX_WIDTH
                | CL_DEVICE_IMAGE2D_MAX_HEIGHT
                | CL_DEVICE_IMAGE3D_MAX_WIDTH
                | CL_DEVICE_IMAGE3D_MAX_HEIGHT
                | CL_DEVICE_IMAGE3D_MAX_DEPTH
                | CL_DEVICE_IMAGE_MAX_BUFFER_SIZE
                | CL_DEVICE_IMAGE_MAX_ARRAY_SIZE
        )
}

/// The `cl_uint` image limits.
fn is_image_count(param: cl_device_info) -> bool {
    matches!(
        param,
        CL_DEVICE_MAX_READ_IMAGE_ARGS
            | CL_DEVICE_MAX_WRITE_IMAGE_ARGS
            | CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS
            | CL_DEVICE_MAX_SAMPLERS
            | CL_DEVICE_IMAGE_PITCH_ALIGNMENT
            | CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT
    )
}

/// `clGetDeviceInfo`.
pub fn device_info(dev: &Device, param: cl_device_info) -> Result<Info, cl_int> {
    let (_, platform_handle) = platform();
    let platform_handle = *platform_handle as *mut std::ffi::c_void;
    let l = &dev.limits;
    let f = facts(dev);
    let image_ext = if dev.is_cuda() {
        &[][..]
    } else {
        IMAGE_EXTENSIONS
    };
    let extensions: Vec<&str> = DEVICE_EXTENSIONS.iter().chain(image_ext).copied().collect();
    let ext = extensions.join(" ");
    let v12 = version(1, 2, 0);
    let v10 = version(1, 0, 0);
    Ok(match param {
        CL_DEVICE_TYPE => Info::u64(dev.device_type()),
        CL_DEVICE_VENDOR_ID => Info::u32(0),
        CL_DEVICE_MAX_COMPUTE_UNITS => Info::u32(f.compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => Info::u32(3),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => Info::usizes(&f.max_work_item_sizes),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => Info::usize(dev.max_work_group()),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => Info::u32(1),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => Info::u32(f.clock_mhz),
        CL_DEVICE_ADDRESS_BITS => Info::u32(64),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => Info::u64(l.max_alloc_size),
        CL_DEVICE_IMAGE_SUPPORT => Info::bool(!dev.is_cuda()),
        _ if dev.is_cuda() && is_image_limit(param) => {
            if is_image_count(param) {
                Info::u32(0)
            } else {
                Info::usize(0)
            }
        }
        CL_DEVICE_MAX_READ_IMAGE_ARGS => Info::u32(MAX_READ_IMAGE_ARGS),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS | CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => {
            Info::u32(MAX_WRITE_IMAGE_ARGS)
        }
        CL_DEVICE_MAX_SAMPLERS => Info::u32(MAX_SAMPLERS),
        // In pixels: any row pitch and any base address of a buffer work.
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT | CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => Info::u32(1),
        CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => Info::usize(IMAGE2D_MAX),
        CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH => Info::usize(IMAGE3D_MAX),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => Info::usize(IMAGE_MAX_BUFFER),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => Info::usize(IMAGE_MAX_ARRAY),
        CL_DEVICE_MAX_PARAMETER_SIZE => Info::usize(1024),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => Info::u32((crate::ffi::HOST_ALIGN * 8) as u32),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => Info::u32(128),
        CL_DEVICE_SINGLE_FP_CONFIG => Info::u64(FP_CONFIG | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT),
        CL_DEVICE_DOUBLE_FP_CONFIG => Info::u64(FP_CONFIG),
        CL_DEVICE_HALF_FP_CONFIG => Info::u64(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => Info::u32(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => Info::u32(f.cacheline),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => Info::u64(f.cache_size),
        CL_DEVICE_GLOBAL_MEM_SIZE => Info::u64(f.global_mem),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => Info::u64(l.constant_mem_size),
        CL_DEVICE_MAX_CONSTANT_ARGS => Info::u32(8),
        CL_DEVICE_LOCAL_MEM_TYPE => Info::u32(f.local_mem_type),
        CL_DEVICE_LOCAL_MEM_SIZE => Info::u64(l.local_mem_size),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => Info::bool(false),
        CL_DEVICE_HOST_UNIFIED_MEMORY => Info::bool(f.host_unified),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => Info::usize(1),
        CL_DEVICE_ENDIAN_LITTLE => Info::bool(true),
        CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            Info::bool(true)
        }
        CL_DEVICE_EXECUTION_CAPABILITIES => Info::u64(CL_EXEC_KERNEL),
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => {
            Info::u64(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
        }
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => Info::u64(0),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS => Info::u32(0),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => Info::u64(0),
        CL_DEVICE_BUILT_IN_KERNELS => Info::str(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => Info::empty(),
        CL_DEVICE_PLATFORM => Info::ptr(platform_handle),
        CL_DEVICE_NAME => Info::str(&f.name),
        CL_DEVICE_VENDOR => Info::str(VENDOR),
        CL_DRIVER_VERSION => Info::str(env!("CARGO_PKG_VERSION")),
        CL_DEVICE_PROFILE => Info::str("FULL_PROFILE"),
        CL_DEVICE_VERSION => Info::str("OpenCL 3.0 oclc"),
        CL_DEVICE_NUMERIC_VERSION => Info::u32(version(3, 0, 0)),
        CL_DEVICE_OPENCL_C_VERSION => Info::str("OpenCL C 1.2 oclc"),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => Info::name_versions(&[
            (v10, "OpenCL C"),
            (version(1, 1, 0), "OpenCL C"),
            (v12, "OpenCL C"),
            (version(2, 0, 0), "OpenCL C"),
            (version(3, 0, 0), "OpenCL C"),
        ]),
        CL_DEVICE_OPENCL_C_FEATURES => {
            let images = if dev.is_cuda() {
                &[][..]
            } else {
                IMAGE_FEATURES
            };
            let list: Vec<(u32, &str)> = DEVICE_FEATURES
                .iter()
                .chain(images)
                .map(|f| (version(3, 0, 0), *f))
                .collect();
            Info::name_versions(&list)
        }
        CL_DEVICE_EXTENSIONS => Info::str(&ext),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => {
            let list: Vec<(u32, &str)> = extensions.iter().map(|e| (v10, *e)).collect();
            Info::name_versions(&list)
        }
        CL_DEVICE_ILS_WITH_VERSION => Info::empty(),
        CL_DEVICE_IL_VERSION => Info::str(""),
        CL_DEVICE_PRINTF_BUFFER_SIZE => Info::usize(dev.printf_buffer),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => Info::bool(true),
        CL_DEVICE_PARENT_DEVICE => Info::ptr(std::ptr::null_mut()),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => Info::u32(0),
        CL_DEVICE_PARTITION_PROPERTIES | CL_DEVICE_PARTITION_TYPE => Info::isizes(&[0]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => Info::u64(0),
        CL_DEVICE_REFERENCE_COUNT => Info::u32(1),
        CL_DEVICE_SVM_CAPABILITIES => Info::u64(f.svm),
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => Info::u32(0),
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => Info::usize(l.max_global_variable_size as usize),
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            Info::usize(l.max_global_variable_size as usize)
        }
        CL_DEVICE_MAX_PIPE_ARGS
        | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
        | CL_DEVICE_PIPE_MAX_PACKET_SIZE => Info::u32(0),
        CL_DEVICE_PIPE_SUPPORT => Info::bool(false),
        CL_DEVICE_MAX_NUM_SUB_GROUPS => Info::u32(max_sub_groups(dev)),
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => Info::bool(false),
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES | CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => Info::u64(
            CL_DEVICE_ATOMIC_ORDER_RELAXED
                | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
                | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
                | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM
                | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
                | CL_DEVICE_ATOMIC_SCOPE_DEVICE
                | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES,
        ),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT
        | CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT
        | CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => Info::bool(true),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Info::usize(f.preferred_multiple),
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => Info::str("v0000-01-01-00"),
        _ => return Err(CL_INVALID_VALUE),
    })
}
