//! The cuda device: runs PTX from [`crate::emit_module`] on an NVIDIA GPU through the CUDA
//! driver API (cudarc, `libcuda` loaded at run time, so nothing here is needed to build).
//!
//! The shape follows the cpu device (`oclc_cpu::Device`): load a module, launch a kernel by
//! name with one [`Arg`] per parameter over an [`NdRange`], read buffers back. Every driver
//! failure is a [`CudaError`]; ptxas diagnostics come back as text, and a kernel fault
//! (illegal address, trap) is an error rather than an abort.
//!
//! `unsafe` appears only where the driver's C API is called; each block says why the call
//! is sound.

use crate::{KernelAbi, ND_PARAM_BYTES, ParamAbi, PtxError, PtxModule, PtxOptions};
use cudarc::driver::{result, sys};
use oclc_ir::Module;
use oclc_syntax::SourceMap;
use std::ffi::{CString, c_void};
use std::rc::Rc;

/// An ND-range: 1 to 3 dimensions; `local` absent lets the device choose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NdRange {
    pub global: Vec<u64>,
    pub local: Option<Vec<u64>>,
    pub offset: Option<Vec<u64>>,
}

impl NdRange {
    pub fn new(global: &[u64]) -> NdRange {
        NdRange {
            global: global.to_vec(),
            local: None,
            offset: None,
        }
    }

    pub fn local(mut self, local: &[u64]) -> NdRange {
        self.local = Some(local.to_vec());
        self
    }

    pub fn offset(mut self, offset: &[u64]) -> NdRange {
        self.offset = Some(offset.to_vec());
        self
    }
}

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
    /// The kernel faulted (e.g. an illegal address); the device cannot be used afterwards.
    #[error("kernel `{kernel}` faulted on the GPU: {message}")]
    Fault { kernel: String, message: String },
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
}

impl Context {
    fn bind(&self) -> Result<(), CudaError> {
        // SAFETY: `ctx` is the primary context retained in `CudaDevice::new` and released
        // only when this `Context` drops, so it is valid here.
        unsafe { result::ctx::set_current(self.ctx) }.map_err(drv("cuCtxSetCurrent"))
    }
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
}

impl std::fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaDevice")
            .field("name", &self.name)
            .field("target", &self.target)
            .finish()
    }
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
        self.0.cx.bind()?;
        let mut out = vec![0u8; self.0.len];
        if self.0.len > 0 {
            // SAFETY: `out` has exactly `len` bytes and `ptr` an allocation of `len` bytes.
            unsafe { result::memcpy_dtoh_sync(&mut out, self.0.ptr) }
                .map_err(drv("cuMemcpyDtoH"))?;
        }
        Ok(out)
    }

    /// Overwrites the buffer's start with `bytes` (at most its length).
    pub fn write(&self, bytes: &[u8]) -> Result<(), CudaError> {
        self.0.cx.bind()?;
        let n = bytes.len().min(self.0.len);
        if n > 0 {
            // SAFETY: `n` bytes fit both the host slice and the device allocation.
            unsafe { result::memcpy_htod_sync(self.0.ptr, &bytes[..n]) }
                .map_err(drv("cuMemcpyHtoD"))?;
        }
        Ok(())
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
}

/// A module loaded on the GPU; its program-scope variables keep their values between
/// launches.
pub struct Program {
    cx: Rc<Context>,
    module: sys::CUmodule,
    ptx: PtxModule,
}

impl Drop for Program {
    fn drop(&mut self) {
        if self.cx.bind().is_ok() {
            // SAFETY: `module` was loaded in this context and is unloaded only here.
            let _ = unsafe { result::module::unload(self.module) };
        }
    }
}

/// Timing of one launch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaunchTiming {
    /// Kernel time measured with CUDA events around the launch, in milliseconds.
    pub kernel_ms: f32,
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
        let cx = Rc::new(Context { dev, ctx });
        cx.bind()?;
        let name = result::device::get_name(dev).map_err(drv("cuDeviceGetName"))?;
        use sys::CUdevice_attribute::*;
        // SAFETY: `dev` is valid and the attributes are plain integers.
        let (major, minor) = unsafe {
            (
                result::device::get_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                result::device::get_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
            )
        };
        let major = major.map_err(drv("cuDeviceGetAttribute"))?;
        let minor = minor.map_err(drv("cuDeviceGetAttribute"))?;
        Ok(CudaDevice {
            cx,
            name,
            target: format!("sm_{major}{minor}"),
        })
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

    /// Verifies `module`, runs the device's always-safe IR pipeline on a copy (as the cpu
    /// device's `load` does), generates PTX for this GPU and loads it.
    pub fn load(
        &self,
        module: &Module,
        sm: Option<&SourceMap>,
        fast_math: bool,
    ) -> Result<Program, CudaError> {
        if let Err(errs) = oclc_ir::verify_module(module) {
            let msg: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            return Err(CudaError::InvalidProgram(msg.join("; ")));
        }
        let mut module = module.clone();
        oclc_ir::passes::optimize_for_device(&mut module);
        let opts = PtxOptions {
            target: self.target.clone(),
            fast_math,
            ids_32bit: true,
        };
        let ptx = crate::emit_module(&module, sm, &opts)?;
        self.load_ptx(ptx)
    }

    /// Loads emitted PTX; ptxas errors come back as [`CudaError::Ptxas`] with its log.
    pub fn load_ptx(&self, ptx: PtxModule) -> Result<Program, CudaError> {
        self.cx.bind()?;
        let image = CString::new(ptx.text.clone())
            .map_err(|_| CudaError::Ptxas("the PTX text contains a NUL byte".into()))?;
        const LOG: usize = 16 * 1024;
        let mut log = vec![0u8; LOG];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG as *mut c_void];
        let mut module = std::mem::MaybeUninit::<sys::CUmodule>::uninit();
        // SAFETY: `image` is a NUL-terminated PTX string; the option arrays have the same
        // length (2) and the log buffer is valid for LOG bytes while the call runs (the size
        // option is passed by value in the pointer, as the driver API specifies).
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
        let module = unsafe { module.assume_init() };
        Ok(Program {
            cx: self.cx.clone(),
            module,
            ptx,
        })
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
        let (grid, block, nd) = geometry(abi, range)?;
        let (mut storage, shared) = pack_args(abi, args, &nd)?;
        let cname = CString::new(kernel).map_err(|_| CudaError::NoSuchKernel(kernel.into()))?;
        // SAFETY: `module` is loaded in the bound context; the name is NUL-terminated.
        let func = unsafe { result::module::get_function(prog.module, cname) }
            .map_err(drv("cuModuleGetFunction"))?;
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
        let mut ptrs: Vec<*mut c_void> =
            storage.iter_mut().map(|s| s.as_mut_ptr().cast()).collect();
        let start = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let end = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(drv("cuEventCreate"))?;
        let stream = std::ptr::null_mut();
        // SAFETY: the events were just created; `ptrs` holds one pointer per kernel
        // parameter (the IR's plus the hidden ND-range), each to a buffer of exactly the
        // parameter's declared size that lives until after the synchronize below; buffers
        // are device allocations of this context.
        let launched = unsafe {
            result::event::record(start, stream)
                .and_then(|_| result::launch_kernel(func, grid, block, shared, stream, &mut ptrs))
                .and_then(|_| result::event::record(end, stream))
        };
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
        drop(storage);
        match timing {
            Ok(ms) => Ok(LaunchTiming { kernel_ms: ms }),
            Err(e) => Err(CudaError::Fault {
                kernel: kernel.into(),
                message: e.to_string(),
            }),
        }
    }

    /// Copies `src` into `dst` (the shorter length) with `cuMemcpyDtoD`, timed with events:
    /// the bandwidth reference for copy kernels.
    pub fn copy(&self, src: &Buffer, dst: &Buffer) -> Result<LaunchTiming, CudaError> {
        self.cx.bind()?;
        let n = src.len().min(dst.len());
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
        ms.map(|kernel_ms| LaunchTiming { kernel_ms })
            .map_err(drv("cuMemcpyDtoD"))
    }

    /// Current bytes of a program-scope variable.
    pub fn read_global(&self, prog: &Program, name: &str) -> Result<Option<Vec<u8>>, CudaError> {
        self.cx.bind()?;
        let Some((_, sym)) = prog.ptx.globals.iter().find(|(n, _)| n == name) else {
            return Ok(None);
        };
        let cname = CString::new(sym.as_str()).map_err(|_| CudaError::NoSuchKernel(name.into()))?;
        // SAFETY: `module` is loaded; the symbol name is NUL-terminated.
        let (ptr, len) = unsafe { result::module::get_global(prog.module, cname) }
            .map_err(drv("cuModuleGetGlobal"))?;
        let mut out = vec![0u8; len];
        if len > 0 {
            // SAFETY: the global has exactly `len` bytes, as does `out`.
            unsafe { result::memcpy_dtoh_sync(&mut out, ptr) }.map_err(drv("cuMemcpyDtoH"))?;
        }
        Ok(Some(out))
    }
}

impl Program {
    /// The PTX this program was loaded from.
    pub fn ptx(&self) -> &PtxModule {
        &self.ptx
    }
}

type Dim3 = (u32, u32, u32);

/// Grid and block sizes of a launch, and the hidden ND-range parameter's bytes.
fn geometry(abi: &KernelAbi, range: &NdRange) -> Result<(Dim3, Dim3, Vec<u8>), CudaError> {
    let dims = range.global.len();
    if !(1..=3).contains(&dims) {
        return Err(CudaError::BadRange(format!(
            "{dims} dimensions (1 to 3 allowed)"
        )));
    }
    let mut global = [1u64; 3];
    global[..dims].copy_from_slice(&range.global);
    let mut offset = [0u64; 3];
    if let Some(o) = &range.offset {
        if o.len() != dims {
            return Err(CudaError::BadRange(
                "the offset has a different dimension count".into(),
            ));
        }
        offset[..dims].copy_from_slice(o);
    }
    let mut local = [1u64; 3];
    match (&range.local, abi.reqd_work_group_size) {
        (Some(l), _) => {
            if l.len() != dims {
                return Err(CudaError::BadRange(
                    "the local size has a different dimension count".into(),
                ));
            }
            local[..dims].copy_from_slice(l);
        }
        (None, Some(r)) => {
            for (d, x) in local.iter_mut().zip(r) {
                *d = x as u64;
            }
        }
        (None, None) => {
            // The largest divisor of the first dimension up to 256; 1 elsewhere.
            local[0] = (1..=256u64.min(global[0].max(1)))
                .rev()
                .find(|d| global[0] % d == 0)
                .unwrap_or(1);
        }
    }
    if let Some(r) = abi.reqd_work_group_size
        && local != [r[0] as u64, r[1] as u64, r[2] as u64]
    {
        return Err(CudaError::BadRange(format!(
            "local size {local:?} differs from reqd_work_group_size {r:?}"
        )));
    }
    abi.admits(&global, &offset).map_err(CudaError::BadRange)?;
    let mut groups = [1u32; 3];
    for k in 0..3 {
        if local[k] == 0 || global[k] == 0 {
            return Err(CudaError::BadRange("zero-sized dimension".into()));
        }
        if global[k] % local[k] != 0 {
            return Err(CudaError::BadRange(format!(
                "global size {} is not a multiple of local size {} in dimension {k}",
                global[k], local[k]
            )));
        }
        let n = global[k] / local[k];
        let max = if k == 0 { u32::MAX as u64 } else { 65535 };
        if n > max {
            return Err(CudaError::BadRange(format!(
                "{n} work-groups in dimension {k}"
            )));
        }
        groups[k] = n as u32;
    }
    if local.iter().product::<u64>() > 1024 {
        return Err(CudaError::BadRange(format!(
            "work-group of {local:?} exceeds 1024 work-items"
        )));
    }
    let mut nd = Vec::with_capacity(ND_PARAM_BYTES as usize);
    for x in offset.iter().chain(&global) {
        nd.extend_from_slice(&x.to_le_bytes());
    }
    nd.extend_from_slice(&(dims as u32).to_le_bytes());
    nd.resize(ND_PARAM_BYTES as usize, 0);
    Ok((
        (groups[0], groups[1], groups[2]),
        (local[0] as u32, local[1] as u32, local[2] as u32),
        nd,
    ))
}

/// One host buffer per kernel parameter (8-byte aligned words) and the dynamic shared size.
fn pack_args(abi: &KernelAbi, args: &[Arg], nd: &[u8]) -> Result<(Vec<Vec<u64>>, u32), CudaError> {
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
            (ParamAbi::LocalOffset, Arg::Local(n)) => {
                shared = shared.div_ceil(16) * 16;
                out.push(vec![shared]);
                shared += (*n as u64).max(1);
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
        }
    }

    #[test]
    fn geometry_picks_a_dividing_local_size() {
        let (g, b, nd) = geometry(&abi(vec![]), &NdRange::new(&[1000])).expect("range");
        assert_eq!(b, (250, 1, 1));
        assert_eq!(g, (4, 1, 1));
        assert_eq!(nd.len(), ND_PARAM_BYTES as usize);
        assert_eq!(u64::from_le_bytes(nd[24..32].try_into().expect("8")), 1000);
        assert_eq!(u32::from_le_bytes(nd[48..52].try_into().expect("4")), 1);
    }

    #[test]
    fn geometry_rejects_non_uniform_groups() {
        let r = geometry(&abi(vec![]), &NdRange::new(&[10]).local(&[4]));
        assert!(matches!(r, Err(CudaError::BadRange(_))), "{r:?}");
    }

    #[test]
    fn local_arguments_follow_the_static_block() {
        let a = abi(vec![
            ParamAbi::LocalOffset,
            ParamAbi::LocalOffset,
            ParamAbi::Bytes { size: 4, align: 4 },
        ]);
        let args = [Arg::Local(100), Arg::Local(8), Arg::Bytes(vec![1, 2, 3, 4])];
        let (bufs, shared) = pack_args(&a, &args, &[0; 56]).expect("pack");
        assert_eq!(bufs[0], vec![16]);
        assert_eq!(bufs[1], vec![128]);
        assert_eq!(bufs[2], vec![0x0403_0201]);
        assert_eq!(shared, 136);
        assert_eq!(bufs.len(), 4);
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
