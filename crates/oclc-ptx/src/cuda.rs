//! The cuda device: runs PTX from [`crate::emit_module`] on an NVIDIA GPU through the CUDA
//! driver API (cudarc, `libcuda` loaded at run time, so nothing here is needed to build).
//!
//! The shape follows the cpu device (`oclc_cpu::Device`): load a module, launch a kernel by
//! name with one [`Arg`] per parameter over an [`NdRange`], read buffers back. Every driver
//! failure is a [`CudaError`]; ptxas diagnostics come back as text, and a kernel fault
//! (illegal address, trap) is an error rather than an abort.
//!
//! A launch becomes one CUDA launch per region of [`crate::launch::plan`] (non-uniform
//! work-groups take up to 2^dims). Per launch, the device may run a variant of the kernel
//! ([`KernelVariant`]): coarsened, and with `ld.global.nc` for buffers no argument writes.
//! Variants are compiled on first use into their own module and cached by the program; a
//! kernel that touches program-scope `__global` variables always runs from the program's
//! module, which owns them.
//!
//! Register tuning: where a kernel needs a few registers more than would let one more block
//! of the launch's size run on a multiprocessor (36 registers at 256 threads: 6 blocks instead
//! of 8), the launch runs a variant compiled with the register cap of that occupancy, if
//! ptxas fits it without spilling to local memory. This is `__launch_bounds__` chosen at
//! launch time, when the block size is known.
//!
//! `unsafe` appears only where the driver's C API is called; each block says why the call
//! is sound.

pub use crate::launch::NdRange;
use crate::{KernelAbi, KernelVariant, ParamAbi, PtxError, PtxModule, PtxOptions};
use cudarc::driver::{result, sys};
use oclc_ir::Module;
use oclc_syntax::SourceMap;
use std::cell::{Cell, RefCell};
use std::ffi::{CString, c_void};
use std::rc::Rc;

/// A compiled launch variant: the variant and the register cap it was compiled with (0: none).
type VariantKey = (KernelVariant, u32);

/// A register-tuning decision's launch shape: variant, threads per block, dynamic shared bytes.
type TuneKey = (KernelVariant, u32, u32);

/// A register-capped function and its cap.
type Capped = (sys::CUfunction, u32);

/// Everything the cuda device can fail with.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CudaError {
    #[error("the cuda device is not available: {0}")]
    NoDriver(String),
    #[error("CUDA driver call `{call}` failed: {message}")]
    Driver { call: &'static str, message: String },
    #[error("ptxas rejected the generated PTX:\n{0}")]
    Ptxas(String),
    #[error(transparent)]
    Ptx(#[from] PtxError),
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    #[error("no kernel named `{0}` in the program")]
    NoSuchKernel(String),
    #[error("kernel `{kernel}` takes {expected} arguments, {given} given")]
    ArgCount {
        kernel: String,
        expected: usize,
        given: usize,
    },
    #[error("argument {index}: {message}")]
    BadArg { index: usize, message: String },
    #[error("invalid ND-range: {0}")]
    BadRange(String),
    #[error("invalid setting: {0}")]
    Setting(String),
    /// The host had no memory for a copy of device memory.
    #[error("{0}")]
    HostMemory(String),
    /// The kernel faulted (e.g. an illegal address); `message` says whether the GPU can
    /// still be used in this process.
    #[error("kernel `{kernel}` faulted on the GPU: {message}")]
    Fault { kernel: String, message: String },
    /// Any use of the GPU after kernel `0` faulted in a way that CUDA keeps until the
    /// process ends (no context of the GPU can be made again in this process).
    #[error(
        "the GPU is unusable in this process: kernel `{0}` faulted on it earlier, and CUDA keeps such a fault until the process ends (run the kernel with --checks, or on the cpu device, to see where it faults)"
    )]
    Unusable(String),
    /// A check of [`crate::PtxOptions::checks`] failed: the fault as the cpu device words
    /// it. The context stays usable.
    #[error("{0}")]
    Check(Box<oclc_ir::fault::RuntimeError>),
}

fn drv(call: &'static str) -> impl FnOnce(result::DriverError) -> CudaError {
    move |e| CudaError::Driver {
        call,
        message: e.to_string(),
    }
}

/// The driver context of one GPU; released when the last handle goes.
struct Context {
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    /// The kernel whose fault poisoned the context, if one did: every later driver call of
    /// the process would fail with that fault (measured on an H200, driver 580: neither a
    /// primary-context reset nor a new context clears it), so none is made.
    poisoned: RefCell<Option<String>>,
}

impl Context {
    fn bind(&self) -> Result<(), CudaError> {
        if let Some(k) = self.poisoned.borrow().as_ref() {
            return Err(CudaError::Unusable(k.clone()));
        }
        // SAFETY: `ctx` is the primary context retained in `CudaDevice::new` and released
        // only when this `Context` drops, so it is valid here.
        unsafe { result::ctx::set_current(self.ctx) }.map_err(drv("cuCtxSetCurrent"))
    }
}

/// Whether a driver error poisons the context (the CUDA "sticky" errors of a faulting
/// kernel): every later call of the process fails the same way.
fn poisons_context(e: &result::DriverError) -> bool {
    use sys::CUresult::*;
    matches!(
        e.0,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_LAUNCH_TIMEOUT
    )
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: `dev` was retained exactly once in `CudaDevice::new`; every buffer and
        // module holds an `Rc<Context>`, so none outlives this release.
        let _ = unsafe { result::primary_ctx::release(self.dev) };
    }
}

/// One NVIDIA GPU.
pub struct CudaDevice {
    cx: Rc<Context>,
    name: String,
    target: String,
    /// The most work-groups a coarsened block runs (1: no coarsening).
    coarsen: Cell<u32>,
    /// Coarsening stops where fewer threads than this would be left (two full waves).
    min_threads: Cell<u64>,
    /// Whether launches may load read-only buffers with `ld.global.nc`.
    nc: Cell<bool>,
    /// Whether launches may run a register-capped variant for more blocks per multiprocessor.
    tune_regs: Cell<bool>,
    /// Bytes of printf output one launch may hold, or why `OCLC_PRINTF_BUFFER_SIZE` is
    /// invalid (as on the cpu device; the GPU's record area has the same size).
    printf_buffer: RefCell<Result<usize, String>>,
    /// Whether printf output is also written to standard output (default: yes).
    printf_echo: Cell<bool>,
    /// Whether programs loaded from now on check every access and barrier (`--checks`,
    /// `OCLC_CUDA_CHECKS=1`).
    checks: Cell<bool>,
    /// Microseconds the GPU spins before a timed launch (0: none), and the spin kernel once
    /// loaded: see [`CudaDevice::set_pace`].
    pace_us: Cell<u32>,
    pacer: Cell<Option<sys::CUfunction>>,
    /// 32-bit registers and threads per multiprocessor.
    regs_per_sm: u32,
    threads_per_sm: u32,
    info: DeviceInfo,
}

/// What the driver reports about a GPU: its name and the limits an OpenCL platform lists
/// (`clGetDeviceInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub name: String,
    /// `sm_XY`, the PTX target.
    pub target: String,
    /// Multiprocessors.
    pub compute_units: u32,
    pub clock_mhz: u32,
    /// Bytes of device memory.
    pub global_mem: u64,
    /// Bytes of `__shared__` memory a block may use (without the opt-in to more).
    pub shared_mem_per_block: u64,
    pub constant_mem: u64,
    pub max_threads_per_block: u32,
    pub max_block_dims: [u32; 3],
    pub l2_cache: u64,
    /// Whether the GPU can back coarse-grained SVM: managed memory
    /// (`cuMemAllocManaged`, one address on host and device) that the host may touch while
    /// kernels run (`CONCURRENT_MANAGED_ACCESS`).
    pub managed_svm: bool,
}

/// Device attribute `a` of `dev`.
fn attribute(dev: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, CudaError> {
    // SAFETY: `dev` comes from `cuDeviceGet` and attributes are plain integers.
    unsafe { result::device::get_attribute(dev, a) }.map_err(drv("cuDeviceGetAttribute"))
}

impl std::fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaDevice")
            .field("name", &self.name)
            .field("target", &self.target)
            .finish()
    }
}

/// `len` zero bytes of host memory for a copy from the GPU, or an error naming the size when
/// the host has no room.
fn host_bytes(len: usize) -> Result<Vec<u8>, CudaError> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        CudaError::HostMemory(format!(
            "cannot allocate {len} bytes of host memory: out of memory"
        ))
    })?;
    out.resize(len, 0);
    Ok(out)
}

/// Device memory for `__global`/`__constant` arguments. Clones share the allocation.
#[derive(Clone)]
pub struct Buffer(Rc<Alloc>);

struct Alloc {
    cx: Rc<Context>,
    ptr: sys::CUdeviceptr,
    len: usize,
}

impl Drop for Alloc {
    fn drop(&mut self) {
        if self.cx.bind().is_ok() {
            // SAFETY: `ptr` came from `cuMemAlloc` in this context and is freed only here.
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes)", self.0.len)
    }
}

impl Buffer {
    pub fn len(&self) -> usize {
        self.0.len
    }

    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// The buffer's bytes, after every launch so far has finished.
    pub fn read(&self) -> Result<Vec<u8>, CudaError> {
        let mut out = host_bytes(self.0.len)?;
        self.read_at(0, &mut out)?;
        Ok(out)
    }

    /// Copies the `out.len()` bytes at `offset` to `out` (only those cross the bus); a
    /// [`CudaError::BadArg`] when they are not inside the buffer.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result<(), CudaError> {
        self.check_range(offset, out.len())?;
        self.0.cx.bind()?;
        if !out.is_empty() {
            // SAFETY: `out.len()` bytes at `offset` are inside the allocation (checked above)
            // and `out` has exactly that many bytes.
            unsafe { result::memcpy_dtoh_sync(out, self.0.ptr + offset as u64) }
                .map_err(drv("cuMemcpyDtoH"))?;
        }
        Ok(())
    }

    /// Overwrites the buffer's start with `bytes` (at most its length).
    pub fn write(&self, bytes: &[u8]) -> Result<(), CudaError> {
        let n = bytes.len().min(self.0.len);
        self.write_at(0, &bytes[..n])
    }

    /// Writes `bytes` at `offset` (only those cross the bus); a [`CudaError::BadArg`] when
    /// they are not inside the buffer.
    pub fn write_at(&self, offset: usize, bytes: &[u8]) -> Result<(), CudaError> {
        self.check_range(offset, bytes.len())?;
        self.0.cx.bind()?;
        if !bytes.is_empty() {
            // SAFETY: `bytes.len()` bytes at `offset` are inside the allocation (checked
            // above) and come from a host slice of that length.
            unsafe { result::memcpy_htod_sync(self.0.ptr + offset as u64, bytes) }
                .map_err(drv("cuMemcpyHtoD"))?;
        }
        Ok(())
    }

    /// The buffer's device address (for a managed buffer, also its host address).
    pub fn address(&self) -> u64 {
        self.0.ptr
    }

    fn check_range(&self, offset: usize, len: usize) -> Result<(), CudaError> {
        match offset.checked_add(len) {
            Some(end) if end <= self.0.len => Ok(()),
            _ => Err(CudaError::BadArg {
                index: 0,
                message: format!(
                    "{len} bytes at offset {offset} are not inside the buffer of {} bytes",
                    self.0.len
                ),
            }),
        }
    }
}

/// A kernel argument, as for the cpu device.
#[derive(Clone, Debug)]
pub enum Arg {
    /// For `__global` and `__constant` pointer parameters.
    Buffer(Buffer),
    /// For `__local` pointer parameters: the size in bytes of the group's allocation.
    Local(usize),
    /// For scalars, vectors and by-value structs: the value's bytes (little-endian).
    Bytes(Vec<u8>),
    /// For `__global` and `__constant` pointer parameters: a raw device address (an SVM
    /// pointer into managed memory, see [`CudaDevice::managed`]).
    Address(u64),
}

/// A launch's `--checks` state: its fault record and check table.
struct CheckTable {
    record: Buffer,
    /// The table's bytes, written to the launched module's table before each region.
    bytes: Vec<u8>,
    entries: Vec<(u64, u64)>,
}

/// The device address of `module`'s check table, which must have `len` bytes.
fn check_table_at(module: sys::CUmodule, len: usize) -> Result<sys::CUdeviceptr, CudaError> {
    let table = crate::checks::TABLE;
    let cname = CString::new(table).map_err(|_| CudaError::NoSuchKernel(table.into()))?;
    // SAFETY: `module` is loaded in the bound context; the name is NUL-terminated.
    let (at, n) =
        unsafe { result::module::get_global(module, cname) }.map_err(drv("cuModuleGetGlobal"))?;
    if n != len {
        return Err(CudaError::InvalidProgram(format!(
            "the check table has {n} bytes, not {len}"
        )));
    }
    Ok(at)
}

/// A module loaded on the GPU; its program-scope variables keep their values between
/// launches.
pub struct Program {
    cx: Rc<Context>,
    module: sys::CUmodule,
    ptx: PtxModule,
    /// The optimized IR and options the PTX came from, for emitting launch variants.
    ir: Module,
    opts: PtxOptions,
    /// Launch variants compiled so far; `None` where ptxas rejected one (the program's own
    /// module runs instead).
    variants: RefCell<Vec<(VariantKey, Option<sys::CUmodule>)>>,
    /// The check sites of each launch variant's module (by module handle), under
    /// `--checks`.
    variant_sites: RefCell<Vec<(usize, Rc<Vec<crate::checks::CheckSite>>)>>,
    /// Register-tuning decisions made so far, by variant, threads per block and dynamic
    /// shared bytes: the capped function and its cap, or `None` (run uncapped).
    tuned: RefCell<Vec<(TuneKey, Option<Capped>)>>,
}

impl Drop for Program {
    fn drop(&mut self) {
        if self.cx.bind().is_ok() {
            for (_, m) in self.variants.borrow().iter() {
                if let Some(m) = m {
                    // SAFETY: each variant module was loaded in this context and is
                    // unloaded only here.
                    let _ = unsafe { result::module::unload(*m) };
                }
            }
            // SAFETY: `module` was loaded in this context and is unloaded only here.
            let _ = unsafe { result::module::unload(self.module) };
        }
    }
}

/// Timing of one launch.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchTiming {
    /// Kernel time measured with CUDA events around the launch, in milliseconds.
    pub kernel_ms: f32,
    /// CUDA launches the ND-range took (more than 1 for non-uniform work-groups).
    pub launches: u32,
    /// The largest coarsening factor a launch used (1: none).
    pub coarsen: u32,
    /// Parameters loaded with `ld.global.nc`.
    pub nc_params: u32,
    /// The register cap of the variant that ran (0: uncapped; see the module docs).
    pub reg_cap: u32,
    /// Everything `printf` wrote, in the cpu device's order (work-group, work-item).
    pub printf: String,
    /// Whether the printf buffer filled up and output was dropped.
    pub printf_truncated: bool,
}

impl CudaDevice {
    /// GPU number `ordinal`; a clear error when there is no driver or no such GPU.
    pub fn new(ordinal: usize) -> Result<CudaDevice, CudaError> {
        // SAFETY: only tries to open the driver library; no driver state is touched.
        if !unsafe { sys::is_culib_present() } {
            return Err(CudaError::NoDriver(
                "the CUDA driver library (libcuda.so) was not found".into(),
            ));
        }
        result::init().map_err(drv("cuInit"))?;
        let count = result::device::get_count().map_err(drv("cuDeviceGetCount"))?;
        if ordinal >= count.max(0) as usize {
            return Err(CudaError::NoDriver(format!(
                "no GPU number {ordinal} ({count} found)"
            )));
        }
        let dev = result::device::get(ordinal as i32).map_err(drv("cuDeviceGet"))?;
        // SAFETY: `dev` is a valid device handle from `cuDeviceGet`.
        let ctx =
            unsafe { result::primary_ctx::retain(dev) }.map_err(drv("cuDevicePrimaryCtxRetain"))?;
        let cx = Rc::new(Context {
            dev,
            ctx,
            poisoned: RefCell::new(None),
        });
        cx.bind()?;
        let name = result::device::get_name(dev).map_err(drv("cuDeviceGetName"))?;
        use sys::CUdevice_attribute::*;
        let major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let sms = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?;
        let regs_per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?;
        // SAFETY: `dev` is a valid device handle; the call only reads its memory size.
        let global_mem =
            unsafe { result::device::total_mem(dev) }.map_err(drv("cuDeviceTotalMem"))?;
        // The limits below only inform device queries: an attribute a driver does not report
        // (CLOCK_RATE is deprecated in CUDA 13) takes the value common to current GPUs
        // rather than failing the device.
        let or = |a, default: u32| attribute(dev, a).map_or(default, |v| v.max(0) as u32);
        let info = DeviceInfo {
            name: name.clone(),
            compute_units: sms.max(1) as u32,
            clock_mhz: or(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1_000_000) / 1000,
            global_mem: global_mem as u64,
            shared_mem_per_block: u64::from(or(
                CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                48 << 10,
            )),
            constant_mem: u64::from(or(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 64 << 10)),
            max_threads_per_block: or(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024),
            max_block_dims: [
                or(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024),
                or(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024),
                or(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64),
            ],
            l2_cache: u64::from(or(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0)),
            managed_svm: or(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0) != 0
                && or(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0) != 0,
            target: format!("sm_{major}{minor}"),
        };
        Ok(CudaDevice {
            cx,
            name,
            target: format!("sm_{major}{minor}"),
            coarsen: Cell::new(coarsen_setting(std::env::var("OCLC_CUDA_COARSEN").ok())?),
            min_threads: Cell::new(2 * sms.max(1) as u64 * per_sm.max(1) as u64),
            nc: Cell::new(nc_setting(std::env::var("OCLC_CUDA_NC").ok())?),
            tune_regs: Cell::new(tune_setting(std::env::var("OCLC_CUDA_REGS").ok())?),
            printf_buffer: RefCell::new(oclc_ir::printf::buffer_size_from_env()),
            printf_echo: Cell::new(true),
            checks: Cell::new(checks_setting(std::env::var("OCLC_CUDA_CHECKS").ok())?),
            pace_us: Cell::new(0),
            pacer: Cell::new(None),
            regs_per_sm: regs_per_sm.max(0) as u32,
            threads_per_sm: per_sm.max(0) as u32,
            info,
        })
    }

    /// Bytes of printf output one launch may hold (default 1 MiB or
    /// `OCLC_PRINTF_BUFFER_SIZE`); later output is dropped and printf returns -1.
    pub fn set_printf_buffer(&self, bytes: usize) {
        *self.printf_buffer.borrow_mut() = Ok(bytes);
    }

    /// Whether printf output is also written to standard output (default: yes).
    pub fn set_printf_echo(&self, on: bool) {
        self.printf_echo.set(on);
    }

    /// What the driver reports about this GPU (name, limits), for device queries.
    /// Keeps the GPU busy for `us` microseconds before each timed launch or copy (0, the
    /// default, turns it off), so that the start event is processed when the launch is already
    /// queued: the time measured is then the kernel's own, as OpenCL's profiling counters
    /// report it, and not the host's submission latency after an idle GPU took the event
    /// (`oclc bench` sets it).
    pub fn set_pace(&self, us: u32) {
        self.pace_us.set(us);
    }

    /// Launches the spin kernel of [`CudaDevice::set_pace`] on the null stream (if set).
    fn pace(&self) -> Result<(), CudaError> {
        let us = self.pace_us.get();
        if us == 0 {
            return Ok(());
        }
        let func = match self.pacer.get() {
            Some(f) => f,
            None => {
                let text = format!(
                    ".version 7.8\n.target {}\n.address_size 64\n\
                     .visible .entry oclc_pace(.param .u64 ns)\n{{\n\
                     .reg .u64 %t<4>;\n.reg .pred %p;\n\
                     ld.param.u64 %t3, [ns];\nmov.u64 %t0, %globaltimer;\n\
                     $L: mov.u64 %t1, %globaltimer;\nsub.u64 %t2, %t1, %t0;\n\
                     setp.lt.u64 %p, %t2, %t3;\n@%p bra $L;\nret;\n}}\n",
                    self.target
                );
                let module = self.load_text(&text, 0)?;
                // SAFETY: `module` was just loaded and defines `oclc_pace`; the module is
                // never unloaded while the device lives.
                let f =
                    unsafe { result::module::get_function(module, CString::from(c"oclc_pace")) }
                        .map_err(drv("cuModuleGetFunction"))?;
                self.pacer.set(Some(f));
                f
            }
        };
        let mut ns = u64::from(us) * 1000;
        let mut ptrs: Vec<*mut c_void> = vec![(&raw mut ns).cast()];
        // SAFETY: one parameter, a u64 that outlives the (asynchronous) launch call, which
        // copies parameter values before it returns.
        unsafe {
            result::launch_kernel(
                func,
                (1, 1, 1),
                (1, 1, 1),
                0,
                std::ptr::null_mut(),
                &mut ptrs,
            )
        }
        .map_err(drv("cuLaunchKernel"))
    }

    /// Turns `--checks` on or off for programs loaded from now on.
    pub fn set_checks(&self, on: bool) {
        self.checks.set(on);
    }

    /// Whether programs loaded now get `--checks`.
    pub fn checks(&self) -> bool {
        self.checks.get()
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Turns `ld.global.nc` for read-only buffers on or off.
    pub fn set_read_only_loads(&self, on: bool) {
        self.nc.set(on);
    }

    /// Turns register tuning (a register-capped variant where it raises occupancy) on or off.
    pub fn set_register_tuning(&self, on: bool) {
        self.tune_regs.set(on);
    }

    /// Sets thread coarsening: at most `max` work-groups per block (1 turns it off), and
    /// only where at least `min_threads` threads are left to run.
    pub fn set_coarsening(&self, max: u32, min_threads: u64) {
        self.coarsen.set(max.clamp(1, MAX_COARSEN));
        self.min_threads.set(min_threads);
    }

    /// The most work-groups a coarsened block runs (1: coarsening is off).
    pub fn coarsening(&self) -> u32 {
        self.coarsen.get()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The PTX `.target` of this GPU (`sm_90` for an H100).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// A buffer holding `bytes`.
    pub fn buffer_from_bytes(&self, bytes: &[u8]) -> Result<Buffer, CudaError> {
        let b = self.zeroed(bytes.len())?;
        b.write(bytes)?;
        Ok(b)
    }

    /// A zero-filled buffer of `len` bytes.
    pub fn zeroed(&self, len: usize) -> Result<Buffer, CudaError> {
        self.cx.bind()?;
        // SAFETY: allocating has no preconditions beyond a current context (bound above).
        let ptr = unsafe { result::malloc_sync(len.max(1)) }.map_err(drv("cuMemAlloc"))?;
        let buf = Buffer(Rc::new(Alloc {
            cx: self.cx.clone(),
            ptr,
            len,
        }));
        // SAFETY: `ptr` is a fresh allocation of at least `len.max(1)` bytes.
        unsafe { result::memset_d8_sync(ptr, 0, len.max(1)) }.map_err(drv("cuMemsetD8"))?;
        Ok(buf)
    }

    /// A zero-filled buffer of `len` bytes in managed memory (`cuMemAllocManaged`): its
    /// [`Buffer::address`] is valid on the host and on the GPU, which is what coarse-grained
    /// SVM needs. Launches synchronize before returning, so between them the host may use
    /// the bytes directly.
    pub fn managed(&self, len: usize) -> Result<Buffer, CudaError> {
        if !self.info.managed_svm {
            return Err(CudaError::Driver {
                call: "cuMemAllocManaged",
                message: "the GPU has no managed memory with concurrent host access".into(),
            });
        }
        self.cx.bind()?;
        // SAFETY: allocating has no preconditions beyond a current context (bound above);
        // GLOBAL attaches the memory to every stream, as launches on any stream need.
        let ptr = unsafe {
            result::malloc_managed(len.max(1), sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL)
        }
        .map_err(drv("cuMemAllocManaged"))?;
        let buf = Buffer(Rc::new(Alloc {
            cx: self.cx.clone(),
            ptr,
            len,
        }));
        // SAFETY: `ptr` is a fresh allocation of at least `len.max(1)` bytes.
        unsafe { result::memset_d8_sync(ptr, 0, len.max(1)) }.map_err(drv("cuMemsetD8"))?;
        // The fill may still be running for managed memory: the host reads the bytes next.
        result::ctx::synchronize().map_err(drv("cuCtxSynchronize"))?;
        Ok(buf)
    }

    /// Verifies `module`, runs the device's always-safe IR pipeline on a copy (as the cpu
    /// device's `load` does), generates PTX for this GPU and loads it.
    pub fn load(
        &self,
        module: &Module,
        sm: Option<&SourceMap>,
        float: impl Into<crate::FloatMode>,
    ) -> Result<Program, CudaError> {
        let float = float.into();
        if let Err(errs) = oclc_ir::verify_module(module) {
            let msg: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            return Err(CudaError::InvalidProgram(msg.join("; ")));
        }
        let mut module = module.clone();
        oclc_ir::passes::optimize_for_gpu(&mut module, self.checks.get());
        let opts = PtxOptions {
            target: self.target.clone(),
            fast_math: float.fast_math,
            ids_32bit: true,
            coarsen: self.coarsen.get(),
            variant: None,
            checks: self.checks.get(),
            exact_div_sqrt: float.exact_div_sqrt,
        };
        let ptx = crate::emit_module(&module, sm, &opts)?;
        let cu = self.load_text(&ptx.text, 0)?;
        Ok(Program {
            cx: self.cx.clone(),
            module: cu,
            ptx,
            ir: module,
            opts,
            variants: RefCell::new(Vec::new()),
            variant_sites: RefCell::new(Vec::new()),
            tuned: RefCell::new(Vec::new()),
        })
    }

    /// Loads emitted PTX; ptxas errors come back as [`CudaError::Ptxas`] with its log. The
    /// program runs no launch variants (it has no IR to make them from).
    pub fn load_ptx(&self, ptx: PtxModule) -> Result<Program, CudaError> {
        let cu = self.load_text(&ptx.text, 0)?;
        Ok(Program {
            cx: self.cx.clone(),
            module: cu,
            ptx,
            ir: Module::new(),
            opts: PtxOptions {
                coarsen: 1,
                ..PtxOptions::default()
            },
            variants: RefCell::new(Vec::new()),
            variant_sites: RefCell::new(Vec::new()),
            tuned: RefCell::new(Vec::new()),
        })
    }

    /// The module of `v`, compiling it on first use; `None` when it cannot be made.
    fn variant(&self, prog: &Program, v: &KernelVariant) -> Option<sys::CUmodule> {
        self.variant_capped(prog, v, 0)
    }

    /// Variant `v` compiled with at most `max_regs` registers per thread (0: no cap).
    fn variant_capped(
        &self,
        prog: &Program,
        v: &KernelVariant,
        max_regs: u32,
    ) -> Option<sys::CUmodule> {
        let key = (v.clone(), max_regs);
        if let Some((_, m)) = prog.variants.borrow().iter().find(|(k, _)| *k == key) {
            return *m;
        }
        let opts = PtxOptions {
            variant: Some(v.clone()),
            ..prog.opts.clone()
        };
        let m = crate::emit_module(&prog.ir, None, &opts)
            .ok()
            .and_then(|ptx| {
                let m = self.load_text(&ptx.text, max_regs).ok()?;
                if opts.checks {
                    prog.variant_sites
                        .borrow_mut()
                        .push((m as usize, Rc::new(ptx.checks)));
                }
                Some(m)
            });
        prog.variants.borrow_mut().push((key, m));
        m
    }

    /// For a launch of `func` (compiled from variant `v`) in blocks of `threads` threads with
    /// `shared` bytes of dynamic shared memory: the same kernel compiled with the register
    /// cap at which one more block fits on a multiprocessor, when that cap trims at most a
    /// quarter of its registers, ptxas needs no more local memory for it, and the occupancy
    /// does rise. Returns the function and its cap.
    /// Decided once per launch shape (cached in the program): repeated launches make no
    /// driver queries.
    fn register_capped(
        &self,
        prog: &Program,
        v: &KernelVariant,
        func: sys::CUfunction,
        name: &CString,
        threads: u32,
        shared: u32,
    ) -> Option<Capped> {
        let key = (v.clone(), threads, shared);
        if let Some((_, d)) = prog.tuned.borrow().iter().find(|(k, _)| *k == key) {
            return *d;
        }
        let d = self.decide_register_cap(prog, v, func, name, threads, shared);
        prog.tuned.borrow_mut().push((key, d));
        d
    }

    fn decide_register_cap(
        &self,
        prog: &Program,
        v: &KernelVariant,
        func: sys::CUfunction,
        name: &CString,
        threads: u32,
        shared: u32,
    ) -> Option<Capped> {
        use sys::CUfunction_attribute::*;
        let attr = |f, a| {
            // SAFETY: `f` is a function of a module loaded in the bound context.
            unsafe { result::function::get_function_attribute(f, a) }.ok()
        };
        let blocks = |f| {
            // SAFETY: as above; the block size and shared bytes are those of the launch.
            unsafe {
                result::occupancy::max_active_block_per_multiprocessor(
                    f,
                    threads as i32,
                    shared as usize,
                )
            }
            .ok()
        };
        let regs = attr(func, CU_FUNC_ATTRIBUTE_NUM_REGS)?.max(0) as u32;
        let local = attr(func, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?;
        let now = blocks(func)?.max(0) as u32;
        let cap = register_cap(self.regs_per_sm, self.threads_per_sm, threads, now, regs)?;
        let m = self.variant_capped(prog, v, cap)?;
        // SAFETY: `m` is loaded in the bound context; the name is NUL-terminated.
        let f = unsafe { result::module::get_function(m, name.clone()) }.ok()?;
        let better = blocks(f)?.max(0) as u32 > now;
        let no_spill = attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)? <= local;
        (better && no_spill).then_some((f, cap))
    }

    /// Loads a PTX module; `max_regs` > 0 caps the registers per thread ptxas may use.
    fn load_text(&self, text: &str, max_regs: u32) -> Result<sys::CUmodule, CudaError> {
        self.cx.bind()?;
        let image = CString::new(text)
            .map_err(|_| CudaError::Ptxas("the PTX text contains a NUL byte".into()))?;
        const LOG: usize = 16 * 1024;
        let mut log = vec![0u8; LOG];
        let mut options = vec![
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values: Vec<*mut c_void> = vec![log.as_mut_ptr().cast(), LOG as *mut c_void];
        if max_regs > 0 {
            options.push(sys::CUjit_option::CU_JIT_MAX_REGISTERS);
            values.push(max_regs as usize as *mut c_void);
        }
        let mut module = std::mem::MaybeUninit::<sys::CUmodule>::uninit();
        // SAFETY: `image` is a NUL-terminated PTX string; the option and value arrays have the
        // same length and the log buffer is valid for LOG bytes while the call runs (the size
        // and the register cap are passed by value in the pointer, as the driver API
        // specifies).
        let rc = unsafe {
            sys::cuModuleLoadDataEx(
                module.as_mut_ptr(),
                image.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if rc != sys::CUresult::CUDA_SUCCESS {
            let end = log.iter().position(|b| *b == 0).unwrap_or(log.len());
            let text = String::from_utf8_lossy(&log[..end]).trim().to_string();
            let why = result::DriverError(rc).to_string();
            return Err(CudaError::Ptxas(if text.is_empty() { why } else { text }));
        }
        // SAFETY: the call succeeded, so it wrote the module handle.
        Ok(unsafe { module.assume_init() })
    }

    /// Runs `kernel` over `range` with `args` (one per parameter) and waits for it.
    pub fn launch(
        &self,
        prog: &Program,
        kernel: &str,
        args: &[Arg],
        range: &NdRange,
    ) -> Result<LaunchTiming, CudaError> {
        self.cx.bind()?;
        let abi = prog
            .ptx
            .kernels
            .iter()
            .find(|k| k.name == kernel)
            .ok_or_else(|| CudaError::NoSuchKernel(kernel.into()))?;
        if args.len() != abi.params.len() {
            return Err(CudaError::ArgCount {
                kernel: kernel.into(),
                expected: abi.params.len(),
                given: args.len(),
            });
        }
        // A printf kernel runs the program's own module: its `%s` pointers are addresses of
        // that module's globals.
        let checks = prog.opts.checks;
        let variants = !abi.uses_globals && !abi.printf && !prog.ir.functions.is_empty();
        let printf_buf = if abi.printf {
            let limit = self
                .printf_buffer
                .borrow()
                .clone()
                .map_err(CudaError::Setting)?;
            let b = self.zeroed(crate::printf::HEADER.saturating_add(limit))?;
            b.write_at(8, &(limit as u64).to_le_bytes())?;
            Some((b, limit))
        } else {
            None
        };
        let coarsen = if variants { self.coarsen.get() } else { 1 };
        let plan = crate::launch::plan(abi, range, coarsen, self.min_threads.get())
            .map_err(CudaError::BadRange)?;
        // A raw address may reach any buffer (through pointers stored in SVM memory), so no
        // buffer counts as read-only then.
        let raw = args.iter().any(|a| matches!(a, Arg::Address(_)));
        let nc = if variants && self.nc.get() && !raw {
            let bufs: Vec<Option<u64>> = args
                .iter()
                .map(|a| match a {
                    Arg::Buffer(b) => Some(b.0.ptr),
                    _ => None,
                })
                .collect();
            nc_params(&abi.read_only, &bufs)
        } else {
            Vec::new()
        };
        let aligned: Vec<usize> = if variants {
            aligned_params(&abi.vector_params, args)
        } else {
            Vec::new()
        };
        // Under --checks, code for the launch's local size: the local ids' ranges then prove
        // most `__local` accesses in bounds, and their checks go.
        let local =
            (variants && checks).then(|| plan.local.map(|x| u32::try_from(x).unwrap_or(u32::MAX)));
        let cname = CString::new(kernel).map_err(|_| CudaError::NoSuchKernel(kernel.into()))?;
        let mut launches = Vec::with_capacity(plan.regions.len());
        let mut used = (1, 0, 0);
        for region in &plan.regions {
            let mut r = region.clone();
            let mut module = prog.module;
            let mut v = KernelVariant {
                kernel: kernel.into(),
                coarsen: r.coarsen,
                nc: nc.clone(),
                aligned: aligned.clone(),
                local,
            };
            if r.coarsen > 1 || !nc.is_empty() || !aligned.is_empty() || local.is_some() {
                match self.variant(prog, &v) {
                    Some(m) => {
                        module = m;
                        used = (used.0.max(r.coarsen), nc.len() as u32, used.2);
                    }
                    None => {
                        r.grid[0] *= r.coarsen;
                        r.coarsen = 1;
                        v.coarsen = 1;
                        v.nc.clear();
                        v.aligned.clear();
                        v.local = None;
                    }
                }
            }
            // SAFETY: `module` is loaded in the bound context; the name is NUL-terminated.
            let mut func = unsafe { result::module::get_function(module, cname.clone()) }
                .map_err(drv("cuModuleGetFunction"))?;
            let pf = printf_buf.as_ref().map(|(b, _)| b.0.ptr);
            let (storage, shared) = pack_args(abi, args, &plan.nd_param(region).0, pf)?;
            let threads = r.block.iter().product::<u32>();
            // Under --checks the launched module must be the variant's own (its check table).
            if variants
                && !checks
                && self.tune_regs.get()
                && let Some((f, cap)) =
                    self.register_capped(prog, &v, func, &cname, threads, shared)
            {
                func = f;
                used.2 = cap;
            }
            if shared > 48 * 1024 {
                // SAFETY: `func` is valid; the attribute takes a byte count.
                unsafe {
                    result::function::set_function_attribute(
                        func,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        shared as i32,
                    )
                }
                .map_err(drv("cuFuncSetAttribute"))?;
            }
            launches.push((func, r, storage, shared, module));
        }
        let mut check = if checks {
            Some(self.check_table(prog, args)?)
        } else {
            None
        };
        // The first region's check table goes up before the timed part (a synchronous copy
        // there would be timed with the host's latency).
        if let (Some(c), Some(first)) = (check.as_mut(), launches.first()) {
            c.bytes[8..16].copy_from_slice(&0u64.to_le_bytes());
            let at = check_table_at(first.4, c.bytes.len())?;
            // SAFETY: `at` is the module's table of exactly `c.bytes.len()` bytes.
            unsafe { result::memcpy_htod_sync(at, &c.bytes) }.map_err(drv("cuMemcpyHtoD"))?;
        }
        self.pace()?;
        let start = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let end = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let stream = std::ptr::null_mut();
        // SAFETY: the events were just created.
        let mut launched = unsafe { result::event::record(start, stream) };
        for (ri, (func, r, storage, shared, module)) in launches.iter_mut().enumerate() {
            if let Some(c) = check.as_mut().filter(|_| ri > 0) {
                // The region index, for the faulting work-item's ids.
                c.bytes[8..16].copy_from_slice(&(ri as u64).to_le_bytes());
                let at = check_table_at(*module, c.bytes.len())?;
                // SAFETY: `at` is the module's table of exactly `c.bytes.len()` bytes
                // (`cuModuleGetGlobal`); the copy is ordered after earlier launches.
                launched = launched.and_then(|_| unsafe { result::memcpy_htod_sync(at, &c.bytes) });
            }
            let mut ptrs: Vec<*mut c_void> =
                storage.iter_mut().map(|s| s.as_mut_ptr().cast()).collect();
            let dim = |d: [u32; 3]| (d[0], d[1], d[2]);
            // SAFETY: `ptrs` holds one pointer per kernel parameter (the IR's plus the hidden
            // ND-range), each to a buffer of exactly the parameter's declared size that lives
            // (in `launches`) until after the synchronize below; buffers are device
            // allocations of this context.
            launched = launched.and_then(|_| unsafe {
                result::launch_kernel(*func, dim(r.grid), dim(r.block), *shared, stream, &mut ptrs)
            });
        }
        // SAFETY: `end` is a valid event; recording it after a failed launch is harmless.
        let launched = launched.and_then(|_| unsafe { result::event::record(end, stream) });
        // SAFETY: `end` is a valid event (recorded or not).
        let synced = launched.and_then(|_| unsafe { result::event::synchronize(end) });
        let timing = synced.and_then(|_| {
            // SAFETY: both events were recorded and have completed.
            unsafe { result::event::elapsed(start, end) }
        });
        // SAFETY: the events are not used after this point.
        unsafe {
            let _ = result::event::destroy(start);
            let _ = result::event::destroy(end);
        }
        let count = launches.len() as u32;
        let launches_modules: Vec<sys::CUmodule> = launches.iter().map(|l| l.4).collect();
        drop(launches);
        if let (Ok(_), Some(c)) = (&timing, check.as_ref()) {
            let mut bytes = [0u8; crate::checks::RECORD_BYTES];
            c.record.read_at(0, &mut bytes)?;
            if let Some(rec) = crate::checks::Record::decode(&bytes) {
                // The sites of the module the faulting region ran (a launch variant's own).
                let module = launches_modules.get(rec.region as usize).copied();
                let variant_sites = module.filter(|m| *m != prog.module).and_then(|m| {
                    prog.variant_sites
                        .borrow()
                        .iter()
                        .find(|(k, _)| *k == m as usize)
                        .map(|(_, s)| s.clone())
                });
                let sites: &[crate::checks::CheckSite] = match &variant_sites {
                    Some(s) => s,
                    None => &prog.ptx.checks,
                };
                let kf = prog
                    .ir
                    .function_by_name(kernel)
                    .and_then(|k| prog.ir.function(k));
                let mut e = crate::checks::runtime_error(
                    &rec,
                    &crate::checks::FaultContext {
                        module: &prog.ir,
                        kernel: kf,
                        sites,
                        plan: &plan,
                        entries: &c.entries,
                    },
                );
                if let Some((b, limit)) = &printf_buf
                    && let Ok(out) = self.printf_output(prog, kernel, b, *limit)
                {
                    e.printf = out.text;
                    e.printf_truncated = out.truncated;
                }
                return Err(CudaError::Check(Box::new(e)));
            }
        }
        match timing {
            Ok(ms) => {
                let out = match &printf_buf {
                    Some((b, limit)) => self.printf_output(prog, kernel, b, *limit)?,
                    None => crate::printf::PrintfOutput::default(),
                };
                if self.printf_echo.get() && !out.text.is_empty() {
                    use std::io::Write;
                    let mut o = std::io::stdout().lock();
                    let _ = o.write_all(out.text.as_bytes());
                    let _ = o.flush();
                }
                Ok(LaunchTiming {
                    kernel_ms: ms,
                    launches: count,
                    coarsen: used.0,
                    nc_params: used.1,
                    reg_cap: used.2,
                    printf: out.text,
                    printf_truncated: out.truncated,
                })
            }
            Err(e) => Err(CudaError::Fault {
                kernel: kernel.into(),
                message: self.after_fault(kernel, &e),
            }),
        }
    }

    /// The check table of a launch of `prog` with `args` (the region index is set per
    /// region), with a fresh fault record.
    fn check_table(&self, prog: &Program, args: &[Arg]) -> Result<CheckTable, CudaError> {
        use crate::checks::{HEADER_BYTES, MAX_ENTRIES, TABLE_BYTES};
        let record = self.buffer_from_bytes(&crate::checks::empty_record())?;
        let mut entries: Vec<(u64, u64)> = args
            .iter()
            .map(|a| match a {
                Arg::Buffer(b) => (b.0.ptr, b.0.len as u64),
                // An SVM pointer: its allocation's size is not known here.
                Arg::Address(p) => (*p, u64::MAX - *p),
                Arg::Local(n) => (0, *n as u64),
                Arg::Bytes(_) => (0, 0),
            })
            .collect();
        for (_, sym) in &prog.ptx.globals {
            let cname =
                CString::new(sym.as_str()).map_err(|_| CudaError::NoSuchKernel(sym.clone()))?;
            // SAFETY: `module` is loaded in the bound context; the name is NUL-terminated.
            let (ptr, len) = unsafe { result::module::get_global(prog.module, cname) }
                .map_err(drv("cuModuleGetGlobal"))?;
            entries.push((ptr, len as u64));
        }
        if entries.len() > MAX_ENTRIES as usize {
            return Err(CudaError::Setting(format!(
                "--checks handles at most {MAX_ENTRIES} kernel arguments and program-scope variables, this launch has {}",
                entries.len()
            )));
        }
        let mut bytes = vec![0u8; TABLE_BYTES as usize];
        bytes[0..8].copy_from_slice(&record.0.ptr.to_le_bytes());
        bytes[16..24].copy_from_slice(&(entries.len() as u64).to_le_bytes());
        for (k, (b, s)) in entries.iter().enumerate() {
            let at = HEADER_BYTES as usize + 16 * k;
            bytes[at..at + 8].copy_from_slice(&b.to_le_bytes());
            bytes[at + 8..at + 16].copy_from_slice(&s.to_le_bytes());
        }
        Ok(CheckTable {
            record,
            bytes,
            entries,
        })
    }

    /// The printf output of a finished launch of `kernel`: the records in `buf` formatted as
    /// the cpu device formats them; a `%s` argument must point into a program-scope
    /// variable of the module (string literals are), else the launch is a fault naming it.
    fn printf_output(
        &self,
        prog: &Program,
        kernel: &str,
        buf: &Buffer,
        limit: usize,
    ) -> Result<crate::printf::PrintfOutput, CudaError> {
        let mut head = [0u8; crate::printf::HEADER];
        buf.read_at(0, &mut head)?;
        let used = u64::from_le_bytes(head[0..8].try_into().unwrap_or([0; 8]));
        let n = usize::try_from(used)
            .unwrap_or(usize::MAX)
            .min(limit)
            .saturating_add(crate::printf::HEADER)
            .min(buf.len());
        let mut bytes = host_bytes(n)?;
        buf.read_at(0, &mut bytes)?;
        // Each global's device range and bytes, read once, for `%s` arguments.
        let mut globals: Option<Vec<(u64, Vec<u8>)>> = None;
        let mut read_str = |p: u64| -> Result<Vec<u8>, String> {
            if globals.is_none() {
                let mut all = Vec::new();
                for (_, sym) in &prog.ptx.globals {
                    let g =
                        global_bytes(prog, sym).map_err(|e| format!("reading a %s string: {e}"))?;
                    all.push(g);
                }
                globals = Some(all);
            }
            let hit = globals
                .iter()
                .flatten()
                .find(|(at, b)| p >= *at && p - *at < b.len() as u64);
            match hit {
                Some((at, b)) => {
                    let s = &b[(p - at) as usize..];
                    let end = s.iter().position(|c| *c == 0).unwrap_or(s.len());
                    Ok(s[..end.min(1 << 20)].to_vec())
                }
                None => Err(format!(
                    "printf %s argument {p:#x} is not a string in a program-scope variable (the cuda device prints only string literals and __constant/__global program-scope strings)"
                )),
            }
        };
        crate::printf::decode(&bytes, &prog.ptx.printf, limit, &mut read_str).map_err(|message| {
            CudaError::Fault {
                kernel: kernel.into(),
                message,
            }
        })
    }

    /// The message of kernel `kernel`'s launch that failed with `e`; marks the context
    /// poisoned when `e` is a fault CUDA keeps, so that later calls fail with a clear error
    /// instead of the driver's.
    fn after_fault(&self, kernel: &str, e: &result::DriverError) -> String {
        let hint = "rerun with --checks (OCLC_CUDA_CHECKS=1 under the OpenCL platform), or on the cpu device, to see the faulting line and work-item";
        if !poisons_context(e) {
            return format!("{e} ({hint})");
        }
        *self.cx.poisoned.borrow_mut() = Some(kernel.to_string());
        format!(
            "{e}; CUDA keeps this fault until the process ends, so the GPU is unusable in this process from now on ({hint})"
        )
    }

    /// Copies `src` into `dst` (the shorter length) with `cuMemcpyDtoD`, timed with events:
    /// the bandwidth reference for copy kernels.
    pub fn copy(&self, src: &Buffer, dst: &Buffer) -> Result<LaunchTiming, CudaError> {
        self.cx.bind()?;
        let n = src.len().min(dst.len());
        self.pace()?;
        let start = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let end = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let stream = std::ptr::null_mut();
        // SAFETY: both allocations hold at least `n` bytes in this context; the events were
        // just created and are destroyed below, after the synchronize.
        let ms = unsafe {
            result::event::record(start, stream)
                .and_then(|_| result::memcpy_dtod_async(dst.0.ptr, src.0.ptr, n, stream))
                .and_then(|_| result::event::record(end, stream))
                .and_then(|_| result::event::synchronize(end))
                .and_then(|_| result::event::elapsed(start, end))
        };
        // SAFETY: the events are not used after this point.
        unsafe {
            let _ = result::event::destroy(start);
            let _ = result::event::destroy(end);
        }
        ms.map(|kernel_ms| LaunchTiming {
            kernel_ms,
            launches: 1,
            coarsen: 1,
            nc_params: 0,
            reg_cap: 0,
            printf: String::new(),
            printf_truncated: false,
        })
        .map_err(drv("cuMemcpyDtoD"))
    }

    /// Current bytes of a program-scope variable.
    pub fn read_global(&self, prog: &Program, name: &str) -> Result<Option<Vec<u8>>, CudaError> {
        self.cx.bind()?;
        let Some((_, sym)) = prog.ptx.globals.iter().find(|(n, _)| n == name) else {
            return Ok(None);
        };
        Ok(Some(global_bytes(prog, sym)?.1))
    }
}

/// The device address and current bytes of the program-scope variable `sym` of `prog`
/// (whose context is bound).
fn global_bytes(prog: &Program, sym: &str) -> Result<(u64, Vec<u8>), CudaError> {
    let cname = CString::new(sym).map_err(|_| CudaError::NoSuchKernel(sym.into()))?;
    // SAFETY: `module` is loaded; the symbol name is NUL-terminated.
    let (ptr, len) = unsafe { result::module::get_global(prog.module, cname) }
        .map_err(drv("cuModuleGetGlobal"))?;
    let mut out = host_bytes(len)?;
    if len > 0 {
        // SAFETY: the global has exactly `len` bytes, as does `out`.
        unsafe { result::memcpy_dtoh_sync(&mut out, ptr) }.map_err(drv("cuMemcpyDtoH"))?;
    }
    Ok((ptr, out))
}

impl Program {
    /// The PTX this program was loaded from.
    pub fn ptx(&self) -> &PtxModule {
        &self.ptx
    }
}

/// The most work-groups one coarsened block may run.
pub const MAX_COARSEN: u32 = 64;

/// The coarsening factor from `OCLC_CUDA_COARSEN` (absent: [`crate::DEFAULT_COARSEN`]).
fn coarsen_setting(var: Option<String>) -> Result<u32, CudaError> {
    let Some(v) = var else {
        return Ok(crate::DEFAULT_COARSEN);
    };
    match v.trim().parse::<u32>() {
        Ok(k) if (1..=MAX_COARSEN).contains(&k) => Ok(k),
        _ => Err(CudaError::Setting(format!(
            "OCLC_CUDA_COARSEN must be a number from 1 (no coarsening) to {MAX_COARSEN}, not `{v}`"
        ))),
    }
}

/// Whether `OCLC_CUDA_NC` leaves `ld.global.nc` on (absent or `1`) or turns it off (`0`).
/// The register cap (a multiple of 8, the allocation unit) at which one more block of
/// `threads` threads fits in `regs_per_sm` registers than the `blocks` that fit now with
/// `regs` per thread; None when one more block would exceed `threads_per_sm`, or the cap
/// would trim more than a quarter of the registers (spills likely) or leave fewer than 24.
fn register_cap(
    regs_per_sm: u32,
    threads_per_sm: u32,
    threads: u32,
    blocks: u32,
    regs: u32,
) -> Option<u32> {
    if threads == 0 || (blocks + 1).saturating_mul(threads) > threads_per_sm {
        return None;
    }
    let warps = threads.div_ceil(32);
    let cap = regs_per_sm / ((blocks + 1) * warps * 32) / 8 * 8;
    (cap >= 24 && cap < regs && (regs - cap) * 4 <= regs).then_some(cap)
}

/// An on/off setting from environment variable `name`: unset or `1` is on, `0` off; `off`
/// and `on` say what each does, for the error on any other value.
fn switch_setting(var: Option<String>, name: &str, off: &str, on: &str) -> Result<bool, CudaError> {
    match var.as_deref().map(str::trim) {
        None | Some("1") => Ok(true),
        Some("0") => Ok(false),
        Some(v) => Err(CudaError::Setting(format!(
            "{name} must be 0 ({off}) or 1 ({on}), not `{v}`"
        ))),
    }
}

/// `OCLC_CUDA_CHECKS`: unset or `0` off, `1` on.
fn checks_setting(var: Option<String>) -> Result<bool, CudaError> {
    match var.as_deref().map(str::trim) {
        None | Some("0") | Some("") => Ok(false),
        Some("1") => Ok(true),
        Some(v) => Err(CudaError::Setting(format!(
            "OCLC_CUDA_CHECKS must be 1 (check every access and barrier) or 0, not `{v}`"
        ))),
    }
}

fn tune_setting(var: Option<String>) -> Result<bool, CudaError> {
    switch_setting(
        var,
        "OCLC_CUDA_REGS",
        "registers as ptxas chooses",
        "capped where that raises occupancy",
    )
}

fn nc_setting(var: Option<String>) -> Result<bool, CudaError> {
    switch_setting(
        var,
        "OCLC_CUDA_NC",
        "plain loads",
        "ld.global.nc for read-only buffers",
    )
}

/// The parameters a launch may read with `ld.global.nc`: read-only in the kernel, and not
/// sharing their buffer with an argument the kernel may write through. `bufs` holds each
/// argument's device address (`None` for non-buffers).
fn nc_params(read_only: &[bool], bufs: &[Option<u64>]) -> Vec<usize> {
    let ro = |k: usize| read_only.get(k).copied().unwrap_or(false);
    bufs.iter()
        .enumerate()
        .filter(|(k, b)| {
            ro(*k)
                && b.is_some_and(|p| {
                    bufs.iter()
                        .enumerate()
                        .all(|(j, c)| j == *k || ro(j) || *c != Some(p))
                })
        })
        .map(|(k, _)| k)
        .collect()
}

/// The [`KernelAbi::vector_params`] whose argument in `args` is a 16-byte aligned address.
fn aligned_params(vector_params: &[bool], args: &[Arg]) -> Vec<usize> {
    args.iter()
        .enumerate()
        .filter(|(k, a)| {
            vector_params.get(*k).copied().unwrap_or(false)
                && match a {
                    Arg::Buffer(b) => b.0.ptr % 16 == 0,
                    Arg::Address(p) => p % 16 == 0,
                    _ => false,
                }
        })
        .map(|(k, _)| k)
        .collect()
}

/// One host buffer per kernel parameter (8-byte aligned words) and the dynamic shared size.
fn pack_args(
    abi: &KernelAbi,
    args: &[Arg],
    nd: &[u8],
    printf: Option<u64>,
) -> Result<(Vec<Vec<u64>>, u32), CudaError> {
    let words = |bytes: &[u8], size: usize| {
        let mut w = vec![0u64; size.div_ceil(8).max(1)];
        for (i, b) in bytes.iter().take(size).enumerate() {
            w[i / 8] |= (*b as u64) << ((i % 8) * 8);
        }
        w
    };
    let mut shared = abi.shared_static as u64;
    let mut out = Vec::with_capacity(args.len() + 1);
    for (index, (p, a)) in abi.params.iter().zip(args).enumerate() {
        match (p, a) {
            (ParamAbi::Pointer, Arg::Buffer(b)) => out.push(vec![b.0.ptr]),
            (ParamAbi::Pointer, Arg::Address(a)) => out.push(vec![*a]),
            (ParamAbi::LocalOffset, Arg::Local(n)) => {
                shared = shared.div_ceil(16) * 16;
                out.push(vec![shared]);
                // A size that wraps would launch with too little shared memory.
                shared = shared
                    .checked_add((*n as u64).max(1))
                    .filter(|s| *s <= u64::from(u32::MAX))
                    .ok_or_else(|| CudaError::BadArg {
                        index,
                        message: format!("__local size of {n} bytes is larger than the GPU has"),
                    })?;
            }
            (ParamAbi::Bytes { size, .. }, Arg::Bytes(b)) => {
                if b.len() != *size as usize {
                    return Err(CudaError::BadArg {
                        index,
                        message: format!("{} bytes given, the parameter takes {size}", b.len()),
                    });
                }
                out.push(words(b, *size as usize));
            }
            (p, a) => {
                let want = match p {
                    ParamAbi::Pointer => "a buffer",
                    ParamAbi::LocalOffset => "a __local size",
                    ParamAbi::Bytes { .. } => "a value",
                };
                return Err(CudaError::BadArg {
                    index,
                    message: format!("expected {want}, got {a:?}"),
                });
            }
        }
    }
    out.push(words(nd, nd.len()));
    if abi.printf {
        let Some(p) = printf else {
            return Err(CudaError::BadArg {
                index: args.len(),
                message: "a printf kernel launched without its printf buffer".into(),
            });
        };
        out.push(vec![p]);
    }
    let shared =
        u32::try_from(shared).map_err(|_| CudaError::BadRange("too much __local memory".into()))?;
    Ok((out, shared))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abi(params: Vec<ParamAbi>) -> KernelAbi {
        KernelAbi {
            name: "k".into(),
            params,
            shared_static: 16,
            reqd_work_group_size: None,
            max_global_end: None,
            read_only: vec![],
            vector_params: vec![],
            coarsenable: false,
            uses_globals: false,
            printf: false,
        }
    }

    #[test]
    fn nc_only_where_no_written_argument_shares_the_buffer() {
        let ro = [true, true, false, true, false];
        // 0 and 1 share a buffer no one writes; 3 shares with the written 2; 4 is a value.
        let bufs = [Some(10), Some(10), Some(30), Some(30), None];
        assert_eq!(nc_params(&ro, &bufs), vec![0, 1]);
        assert_eq!(
            nc_params(&ro, &[Some(1), Some(2), Some(3), Some(4)]),
            vec![0, 1, 3]
        );
        assert!(nc_params(&[], &[Some(1)]).is_empty());
    }

    #[test]
    fn nc_setting_from_the_environment() {
        assert_eq!(nc_setting(None), Ok(true));
        assert_eq!(nc_setting(Some("1".into())), Ok(true));
        assert_eq!(nc_setting(Some("0".into())), Ok(false));
        assert!(matches!(
            nc_setting(Some("no".into())),
            Err(CudaError::Setting(_))
        ));
    }

    #[test]
    fn register_caps_raise_occupancy_by_one_block() {
        // 36 registers at 256 threads: 6 blocks of 65536 registers; 32 lets 7 (and 8) fit.
        assert_eq!(register_cap(65536, 2048, 256, 6, 36), Some(32));
        // 40 at 128 threads: 12 blocks; 13 need 39 -> 32, a trim of 8 of 40 (a fifth).
        assert_eq!(register_cap(65536, 2048, 128, 12, 40), Some(32));
        // 120 at 256 threads: 2 blocks; 3 need 80, a trim of a third: left to ptxas.
        assert_eq!(register_cap(65536, 2048, 256, 2, 120), None);
        // The threads of a multiprocessor are all in use, or none are launched.
        assert_eq!(register_cap(65536, 2048, 256, 8, 32), None);
        assert_eq!(register_cap(65536, 2048, 1024, 2, 32), None);
        assert_eq!(register_cap(65536, 2048, 0, 0, 40), None);
        // Fewer than 24 would be left.
        assert_eq!(register_cap(65536, 2048, 32, 60, 24), None);
        assert_eq!(tune_setting(None), Ok(true));
        assert_eq!(tune_setting(Some("0".into())), Ok(false));
        assert!(matches!(
            tune_setting(Some("x".into())),
            Err(CudaError::Setting(_))
        ));
    }

    #[test]
    fn coarsening_setting_from_the_environment() {
        assert_eq!(coarsen_setting(None), Ok(crate::DEFAULT_COARSEN));
        assert_eq!(coarsen_setting(Some("1".into())), Ok(1));
        assert_eq!(coarsen_setting(Some(" 8".into())), Ok(8));
        for bad in ["0", "65", "four", ""] {
            let e = coarsen_setting(Some(bad.into()));
            assert!(matches!(e, Err(CudaError::Setting(_))), "{bad}: {e:?}");
        }
    }

    #[test]
    fn local_arguments_follow_the_static_block() {
        let a = abi(vec![
            ParamAbi::LocalOffset,
            ParamAbi::LocalOffset,
            ParamAbi::Bytes { size: 4, align: 4 },
        ]);
        let args = [Arg::Local(100), Arg::Local(8), Arg::Bytes(vec![1, 2, 3, 4])];
        let (bufs, shared) = pack_args(&a, &args, &[0; 56], None).expect("pack");
        assert_eq!(bufs[0], vec![16]);
        assert_eq!(bufs[1], vec![128]);
        assert_eq!(bufs[2], vec![0x0403_0201]);
        assert_eq!(shared, 136);
        assert_eq!(bufs.len(), 4);
    }

    #[test]
    fn only_the_sticky_errors_of_a_faulting_kernel_poison_the_context() {
        use sys::CUresult::*;
        let e = result::DriverError;
        for c in [
            CUDA_ERROR_ILLEGAL_ADDRESS,
            CUDA_ERROR_ILLEGAL_INSTRUCTION,
            CUDA_ERROR_MISALIGNED_ADDRESS,
            CUDA_ERROR_LAUNCH_FAILED,
        ] {
            assert!(poisons_context(&e(c)), "{c:?}");
        }
        for c in [
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
            CUDA_ERROR_INVALID_VALUE,
            CUDA_ERROR_OUT_OF_MEMORY,
        ] {
            assert!(!poisons_context(&e(c)), "{c:?}");
        }
    }

    #[test]
    fn no_driver_is_an_error_not_a_panic() {
        // On machines without CUDA this is the NoDriver path; with a GPU it succeeds.
        match CudaDevice::new(0) {
            Ok(d) => assert!(d.target().starts_with("sm_")),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}
