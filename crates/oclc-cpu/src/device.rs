//! The public face of the cpu device: load a module, make buffers, launch kernels over an
//! ND-range with work-groups running in parallel.
//!
//! ND-ranges are checked with checked arithmetic (every product and `offset + global` fits
//! size_t); work-groups are handed out lazily from a counter, so memory does not grow with the
//! group count. Memory is held to [`Limits`] (local and constant memory, the largest buffer and
//! program-scope variable, work-items per launch), set by `OCLC_*` environment variables or the
//! builder, and every allocation a user's size reaches is fallible: an error, never an abort.

use crate::decode::{self, I, Program as Code, WgInfo};
use crate::error::{CheckKind, DeviceError, RuntimeError};
use crate::exec::{self, BoundArg, Group, Item, LaunchCtx, Nd, Stop};
use crate::memory::{GlobalMem, Storage, SvmRange};
use crate::native::{self, NativeKernel, Unsupported};
use crate::ops;
use crate::printf::{self, PrintfBuffer};
use crate::ptr::{self, Tag};
use crate::races::GlobalRaces;
use oclc_ir::{AddrSpace, FuncId, Module, Param, ParamKind};
use oclc_ir::{BinOp, Scalar, WgArith, WgOp};
use oclc_syntax::{Span, Symbol};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Most work-items in one work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE).
pub const MAX_WORK_GROUP_SIZE: u64 = 1024;

/// Default `--max-steps`: branches and calls one work-item may take.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 28;

/// Default CL_DEVICE_LOCAL_MEM_SIZE: `__local` bytes one work-group may use, kernel-scope
/// variables and `__local` arguments together (as on most GPUs; `OCLC_LOCAL_MEM_SIZE`).
pub const DEFAULT_LOCAL_MEM_SIZE: u64 = 64 << 10;

/// Default CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: `__constant` bytes one launch may use,
/// program-scope constants and `__constant` buffer arguments together (the OpenCL minimum and
/// NVIDIA's constant bank; `OCLC_CONSTANT_MEM_SIZE`).
pub const DEFAULT_CONSTANT_MEM_SIZE: u64 = 64 << 10;

/// Default CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest program-scope variable (1 GiB, or
/// CL_DEVICE_MAX_MEM_ALLOC_SIZE when smaller; `OCLC_MAX_GLOBAL_VARIABLE_SIZE`).
pub const DEFAULT_MAX_GLOBAL_VARIABLE_SIZE: u64 = 1 << 30;

/// Default most work-items of one launch: 2^31, a few minutes of a trivial kernel on a few
/// cores (the interpreter runs some 10^7 work-items a second per core); larger ranges are an
/// error naming `OCLC_MAX_WORK_ITEMS` rather than a launch that cannot end.
pub const DEFAULT_MAX_WORK_ITEMS: u64 = 1 << 31;

/// The ceiling of CL_DEVICE_MAX_MEM_ALLOC_SIZE: 1 TiB, the most a pointer's 40 offset bits
/// address.
pub const MAX_ALLOC_CEILING: u64 = 1 << 40;

/// The cpu device's memory limits, as OpenCL's device queries name them. Launches and
/// allocations beyond them are errors that name the limit, not host aborts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CL_DEVICE_LOCAL_MEM_SIZE (env `OCLC_LOCAL_MEM_SIZE`, default [`DEFAULT_LOCAL_MEM_SIZE`]).
    pub local_mem_size: u64,
    /// CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE (env `OCLC_CONSTANT_MEM_SIZE`, default
    /// [`DEFAULT_CONSTANT_MEM_SIZE`]).
    pub constant_mem_size: u64,
    /// CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest buffer (env `OCLC_MAX_ALLOC_SIZE`; default
    /// half the physical memory, at least 128 MiB, at most [`MAX_ALLOC_CEILING`]).
    pub max_alloc_size: u64,
    /// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest program-scope variable, allocated when
    /// the program is loaded (env `OCLC_MAX_GLOBAL_VARIABLE_SIZE`; default
    /// [`DEFAULT_MAX_GLOBAL_VARIABLE_SIZE`]).
    pub max_global_variable_size: u64,
    /// Most work-items of one launch (env `OCLC_MAX_WORK_ITEMS`, default
    /// [`DEFAULT_MAX_WORK_ITEMS`]); an oclc limit, not an OpenCL query.
    pub max_work_items: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            local_mem_size: DEFAULT_LOCAL_MEM_SIZE,
            constant_mem_size: DEFAULT_CONSTANT_MEM_SIZE,
            max_alloc_size: default_max_alloc(),
            max_global_variable_size: DEFAULT_MAX_GLOBAL_VARIABLE_SIZE,
            max_work_items: DEFAULT_MAX_WORK_ITEMS,
        }
    }
}

impl Limits {
    /// The defaults, overridden by the environment variables `OCLC_LOCAL_MEM_SIZE`,
    /// `OCLC_CONSTANT_MEM_SIZE`, `OCLC_MAX_ALLOC_SIZE`, `OCLC_MAX_GLOBAL_VARIABLE_SIZE` and
    /// `OCLC_MAX_WORK_ITEMS` (a count; the sizes are bytes, or with a K, M, G or T
    /// suffix for KiB, MiB, GiB, TiB). An invalid value is an error naming the variable.
    pub fn from_env() -> Result<Limits, String> {
        let mut l = Limits::default();
        let var = |name: &str| std::env::var(name).ok();
        if let Some(v) = var("OCLC_LOCAL_MEM_SIZE") {
            l.local_mem_size = parse_size("OCLC_LOCAL_MEM_SIZE", &v)?;
        }
        if let Some(v) = var("OCLC_CONSTANT_MEM_SIZE") {
            l.constant_mem_size = parse_size("OCLC_CONSTANT_MEM_SIZE", &v)?;
        }
        if let Some(v) = var("OCLC_MAX_ALLOC_SIZE") {
            let n = parse_size("OCLC_MAX_ALLOC_SIZE", &v)?;
            if n > MAX_ALLOC_CEILING {
                return Err(format!(
                    "OCLC_MAX_ALLOC_SIZE is {n} bytes; the cpu device allows at most \
                     {MAX_ALLOC_CEILING} (1T), the most its pointers address"
                ));
            }
            l.max_alloc_size = n;
        }
        if let Some(v) = var("OCLC_MAX_GLOBAL_VARIABLE_SIZE") {
            l.max_global_variable_size = parse_size("OCLC_MAX_GLOBAL_VARIABLE_SIZE", &v)?;
        }
        if let Some(v) = var("OCLC_MAX_WORK_ITEMS") {
            l.max_work_items = parse_size("OCLC_MAX_WORK_ITEMS", &v)?;
        }
        Ok(l)
    }
}

/// Parses a size setting: decimal bytes, or a number with a K, M, G or T suffix (powers of
/// 1024; `KiB`, `KB` and lower case also read), at least 1.
pub fn parse_size(name: &str, value: &str) -> Result<u64, String> {
    let bad =
        || format!("{name} must be a size in bytes such as 65536, 64K, 512M or 2G, not `{value}`");
    let v = value.trim();
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    let (num, unit) = v.split_at(digits);
    let n: u64 = num.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit
        .strip_suffix("ib")
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    match n.checked_mul(1 << shift) {
        Some(b) if b > 0 => Ok(b),
        _ => Err(bad()),
    }
}

/// Half the physical memory (from /proc/meminfo; 8 GiB assumed where it cannot be read),
/// between 128 MiB and [`MAX_ALLOC_CEILING`].
fn default_max_alloc() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line
                .trim_start_matches("MemTotal:")
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()?;
            kib.checked_mul(1024)
        })
        .unwrap_or(8 << 30);
    (total / 2).clamp(128 << 20, MAX_ALLOC_CEILING)
}

/// A device memory buffer, or a region of one ([`Buffer::region`], OpenCL's sub-buffers).
/// Clones share the same storage.
#[derive(Clone, Debug)]
pub struct Buffer {
    storage: Arc<Storage>,
    /// Where this buffer starts in `storage`, and its length: the whole storage except for
    /// a region.
    offset: usize,
    len: usize,
}

impl Buffer {
    fn whole(storage: Storage) -> Buffer {
        let len = storage.len();
        Buffer {
            storage: Arc::new(storage),
            offset: 0,
            len,
        }
    }

    /// A copy of `bytes`; aborts when the host has no memory for it (devices' checked
    /// [`Device::buffer_from_bytes`] does not).
    pub fn from_bytes(bytes: &[u8]) -> Buffer {
        Buffer::whole(Storage::from_bytes(bytes))
    }

    /// `len` zero bytes; aborts when the host has no memory for them (devices' checked
    /// [`Device::buffer`] does not).
    pub fn zeroed(len: usize) -> Buffer {
        Buffer::whole(Storage::zeroed(len))
    }

    /// `len` zero bytes, or an error when the host cannot provide them.
    pub fn try_zeroed(len: usize) -> Result<Buffer, DeviceError> {
        Storage::try_zeroed(len).map(Buffer::whole).map_err(|_| {
            DeviceError::Memory(format!(
                "cannot allocate a buffer of {len} bytes: out of memory"
            ))
        })
    }

    /// The `len` bytes at `offset` of this buffer as a buffer of their own that shares its
    /// memory (OpenCL's sub-buffers); `None` when the range is not inside the buffer. A
    /// kernel given a region is bounds-checked against the whole underlying buffer.
    pub fn region(&self, offset: usize, len: usize) -> Option<Buffer> {
        let end = offset.checked_add(len)?;
        (end <= self.len).then(|| Buffer {
            storage: self.storage.clone(),
            offset: self.offset + offset,
            len,
        })
    }

    /// Whether `other` shares memory with this buffer (the same storage, overlapping bytes).
    pub fn overlaps(&self, other: &Buffer) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
            && self.offset < other.offset + other.len
            && other.offset < self.offset + self.len
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn read(&self) -> Vec<u8> {
        let mut v = vec![0; self.len];
        self.storage.read(self.offset, &mut v);
        v
    }

    /// The contents, or an error when the host has no room for a copy.
    pub fn try_read(&self) -> Result<Vec<u8>, DeviceError> {
        let mut v = Vec::new();
        v.try_reserve_exact(self.len).map_err(|_| {
            DeviceError::Memory(format!(
                "cannot allocate {} bytes to read a buffer into: out of memory",
                self.len
            ))
        })?;
        v.resize(self.len, 0);
        self.storage.read(self.offset, &mut v);
        Ok(v)
    }

    /// Copies `out.len()` bytes from `offset` into `out`; false (and nothing read) when the
    /// range is not inside the buffer.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> bool {
        if offset
            .checked_add(out.len())
            .is_none_or(|end| end > self.len)
        {
            return false;
        }
        self.storage.read(self.offset + offset, out);
        true
    }

    /// Overwrites the buffer's start with `bytes` (at most its length).
    pub fn write(&self, bytes: &[u8]) {
        let n = bytes.len().min(self.len);
        self.storage.write(self.offset, &bytes[..n]);
    }

    /// Writes `bytes` at `offset`; false (and nothing written) when they do not fit.
    pub fn write_at(&self, offset: usize, bytes: &[u8]) -> bool {
        if offset
            .checked_add(bytes.len())
            .is_none_or(|end| end > self.len)
        {
            return false;
        }
        self.storage.write(self.offset + offset, bytes);
        true
    }
}

/// A kernel argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// For `__global` and `__constant` pointer parameters.
    Buffer(Buffer),
    /// For `__local` pointer parameters: the size in bytes of the group's allocation.
    Local(usize),
    /// For scalars, vectors and by-value structs: the value's bytes (little-endian).
    Bytes(Vec<u8>),
    /// For `__global` and `__constant` pointer parameters: a NULL pointer (OpenCL's
    /// `clSetKernelArg` with a NULL buffer).
    Null,
    /// For `__global` pointer parameters: a raw address into one of the launch's SVM
    /// allocations ([`Svm`], OpenCL's `clSetKernelArgSVMPointer`).
    Address(u64),
    /// For image parameters: the image's format and extent, and its pixels (`desc.data` is
    /// filled in at launch). The kernel's image value points to a copy of the descriptor.
    Image {
        desc: crate::runtime::image::ImageDesc,
        data: Buffer,
    },
}

/// A shared virtual memory allocation of a launch ([`Device::launch_svm`]): the kernel
/// addresses `buffer` by the host addresses `addr..addr + buffer.len()`, so pointers the host
/// stored in memory work in the kernel, and pointers the kernel stores are host pointers.
/// Without a buffer, the allocation (`len` bytes) exists but the launch was not given it: an
/// access to it is reported as such.
#[derive(Clone, Debug)]
pub struct Svm {
    pub addr: u64,
    pub len: u64,
    pub buffer: Option<Buffer>,
}

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

/// What a launch produced besides buffer contents.
#[derive(Clone, Debug, Default)]
pub struct LaunchOutput {
    /// Everything `printf` wrote, in work-group order.
    pub printf: String,
    /// Whether the printf buffer filled up and later output was dropped (see
    /// [`Device::with_printf_buffer`]; [`printf::cut_message`] words the warning).
    pub printf_truncated: bool,
    /// The work-group size used (the device's choice when the range gave none), one entry
    /// per dimension.
    pub local_size: Vec<u64>,
}

/// Whether native code runs work-items as SIMD lanes where it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VectorMode {
    On,
    Off,
    Require,
}

/// The embedded cpu device.
pub struct Device {
    pool: Option<rayon::ThreadPool>,
    max_steps: u64,
    races: bool,
    /// Whether kernels run on the interpreter even when they compile to native code
    /// (`OCLC_CPU_BACKEND=interp`, [`Device::with_interpreter`]).
    interp_only: bool,
    /// Whether a kernel that cannot run natively is an error (`OCLC_CPU_BACKEND=native`).
    native_only: bool,
    /// Native code's use of SIMD lanes (`OCLC_CPU_VECTOR`): `off` runs one work-item at a
    /// time, `require` makes a kernel without a vector function an error (for tests).
    vector: VectorMode,
    echo_printf: bool,
    limits: Limits,
    /// An invalid limit in the environment: reported by every load, allocation and launch.
    setting_error: Option<String>,
    /// The printf buffer size in bytes, or why `OCLC_PRINTF_BUFFER_SIZE` is invalid.
    printf_buffer: Result<usize, String>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("max_steps", &self.max_steps)
            .field("races", &self.races)
            .field("limits", &self.limits)
            .finish()
    }
}

/// A module loaded onto the device: decoded code plus its program-scope variables, which
/// persist between launches.
pub struct Program {
    module: Arc<Module>,
    code: Arc<Code>,
    globals: Vec<GlobalMem>,
    /// Native code of each kernel launched so far (by function index), or why it runs on
    /// the interpreter: compiled once per program and kernel.
    native: Mutex<HashMap<u32, Result<Arc<NativeKernel>, Unsupported>>>,
}

thread_local! {
    static NATIVE_LAUNCHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many launches made from this thread ran native code (for tests that must know which
/// back end ran).
pub fn native_launches() -> u64 {
    NATIVE_LAUNCHES.with(|c| c.get())
}

/// The cores this process may use (1 when unknown).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Device {
    /// The cpu device using every core, with the [`Limits`] the environment sets.
    pub fn cpu() -> Device {
        let (limits, setting_error) = match Limits::from_env() {
            Ok(l) => (l, None),
            Err(e) => (Limits::default(), Some(e)),
        };
        Device {
            pool: None,
            max_steps: DEFAULT_MAX_STEPS,
            races: false,
            interp_only: std::env::var("OCLC_CPU_BACKEND").is_ok_and(|v| v == "interp"),
            native_only: std::env::var("OCLC_CPU_BACKEND").is_ok_and(|v| v == "native"),
            vector: match std::env::var("OCLC_CPU_VECTOR").as_deref() {
                Ok("off") => VectorMode::Off,
                Ok("require") => VectorMode::Require,
                _ => VectorMode::On,
            },
            echo_printf: true,
            limits,
            setting_error,
            printf_buffer: printf::buffer_size_from_env(),
        }
    }

    /// Runs every kernel on the interpreter (`true`) or natively where it compiles (`false`,
    /// the default unless `OCLC_CPU_BACKEND=interp`). Race detection always interprets.
    pub fn with_interpreter(mut self, on: bool) -> Device {
        self.interp_only = on;
        self
    }

    /// Runs work-groups on `n` threads (0: every core). More threads than cores only slow
    /// launches down, so `n` is capped at [`available_cores`]; a launch also uses no more
    /// threads than it has work-groups.
    pub fn with_threads(mut self, n: usize) -> Device {
        self.pool = if n == 0 {
            None
        } else {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.min(available_cores()))
                .build()
                .ok()
        };
        self
    }

    /// Steps (branches and calls) one work-item may take before it is reported as runaway.
    pub fn with_max_steps(mut self, n: u64) -> Device {
        self.max_steps = n.max(1);
        self
    }

    /// Turns on data-race detection on local and global memory.
    pub fn with_race_detection(mut self, on: bool) -> Device {
        self.races = on;
        self
    }

    /// Whether `printf` output is also written to standard output (default: yes).
    pub fn with_printf_echo(mut self, on: bool) -> Device {
        self.echo_printf = on;
        self
    }

    /// Sets every limit (and forgets an invalid environment setting).
    pub fn with_limits(mut self, limits: Limits) -> Device {
        self.limits = Limits {
            max_alloc_size: limits.max_alloc_size.min(MAX_ALLOC_CEILING),
            ..limits
        };
        self.setting_error = None;
        self
    }

    /// Sets CL_DEVICE_LOCAL_MEM_SIZE: `__local` bytes per work-group.
    pub fn with_local_mem_size(self, bytes: u64) -> Device {
        let l = self.limits;
        self.with_limits(Limits {
            local_mem_size: bytes,
            ..l
        })
    }

    /// Sets CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: `__constant` bytes per launch.
    pub fn with_constant_mem_size(self, bytes: u64) -> Device {
        let l = self.limits;
        self.with_limits(Limits {
            constant_mem_size: bytes,
            ..l
        })
    }

    /// Sets CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest buffer or program-scope variable (at
    /// most [`MAX_ALLOC_CEILING`]).
    pub fn with_max_alloc_size(self, bytes: u64) -> Device {
        let l = self.limits;
        self.with_limits(Limits {
            max_alloc_size: bytes,
            ..l
        })
    }

    /// Sets the most work-items one launch may have (default [`DEFAULT_MAX_WORK_ITEMS`]).
    pub fn with_max_work_items(self, n: u64) -> Device {
        let l = self.limits;
        self.with_limits(Limits {
            max_work_items: n,
            ..l
        })
    }

    /// The device's limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn settings_ok(&self) -> Result<(), DeviceError> {
        match &self.setting_error {
            Some(e) => Err(DeviceError::Setting(e.clone())),
            None => Ok(()),
        }
    }

    /// Checks an allocation of `bytes` for `what` against CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    fn check_alloc(&self, bytes: u64, what: impl FnOnce() -> String) -> Result<(), DeviceError> {
        self.settings_ok()?;
        let max = self.limits.max_alloc_size;
        if bytes > max {
            return Err(DeviceError::Memory(format!(
                "{} of {bytes} bytes is larger than the cpu device's largest allocation, \
                 {max} bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE; OCLC_MAX_ALLOC_SIZE sets it)",
                what()
            )));
        }
        Ok(())
    }

    /// A zeroed buffer of `len` bytes: an error beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE or when
    /// the host cannot provide the memory.
    pub fn buffer(&self, len: usize) -> Result<Buffer, DeviceError> {
        self.check_alloc(len as u64, || "a buffer".into())?;
        Buffer::try_zeroed(len)
    }

    /// A buffer holding a copy of `bytes`, checked as [`Device::buffer`] is.
    pub fn buffer_from_bytes(&self, bytes: &[u8]) -> Result<Buffer, DeviceError> {
        let b = self.buffer(bytes.len())?;
        b.write(bytes);
        Ok(b)
    }

    /// Bytes of `printf` output one launch may hold (CL_DEVICE_PRINTF_BUFFER_SIZE; default
    /// 1 MiB, or `OCLC_PRINTF_BUFFER_SIZE`); later output is dropped, printf returns -1 and
    /// the launch reports `printf_truncated`.
    pub fn with_printf_buffer(mut self, bytes: usize) -> Device {
        self.printf_buffer = Ok(bytes);
        self
    }

    /// The printf buffer size (bytes) launches use, or why the environment's is invalid.
    pub fn printf_buffer_size(&self) -> Result<usize, DeviceError> {
        self.printf_buffer.clone().map_err(DeviceError::Setting)
    }

    /// Verifies and decodes `module` and creates its program-scope variables (each checked
    /// against CL_DEVICE_MAX_MEM_ALLOC_SIZE and allocated fallibly).
    pub fn load(&self, module: Module) -> Result<Program, DeviceError> {
        if let Err(errs) = oclc_ir::verify_module(&module) {
            let msg = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(DeviceError::InvalidProgram(msg));
        }
        let mut module = module;
        // Sub-groups of one work-item: their builtins need no other work-item.
        oclc_ir::passes::subgroups::one_item(&mut module);
        // Byte-copy loops copy 16 bytes at a time where both whole ranges are in bounds (the
        // byte loop, and its exact fault report, otherwise).
        oclc_ir::passes::optimize_for_device_opts(
            &mut module,
            &oclc_ir::passes::inline::InlineBudget::from_env(),
            oclc_ir::passes::copies::Widening::Checked,
        );
        if let Err(errs) = oclc_ir::debug_verify(&module) {
            let msg = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(DeviceError::InvalidProgram(format!(
                "after optimization: {msg}"
            )));
        }
        let code = decode::decode_module(&module);
        let mut globals: Vec<GlobalMem> = Vec::with_capacity(module.globals.len());
        self.settings_ok()?;
        let max = self
            .limits
            .max_global_variable_size
            .min(self.limits.max_alloc_size);
        for g in &module.globals {
            let what = || format!("program-scope variable `{}`", g.name);
            if g.size > max {
                return Err(DeviceError::Memory(format!(
                    "{} of {} bytes is larger than the cpu device's largest program-scope \
                     variable, {max} bytes (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE; \
                     OCLC_MAX_GLOBAL_VARIABLE_SIZE sets it)",
                    what(),
                    g.size
                )));
            }
            let storage = Storage::try_zeroed(g.size as usize).map_err(|_| {
                DeviceError::Memory(format!(
                    "cannot allocate {} bytes for {}: out of memory",
                    g.size,
                    what()
                ))
            })?;
            let init = g
                .init
                .get(..g.init.len().min(g.size as usize))
                .unwrap_or_default();
            storage.write(0, init);
            globals.push(GlobalMem {
                name: Symbol::intern(&format!("variable `{}`", g.name)),
                storage: Arc::new(storage),
            });
        }
        for (gv, mem) in module.globals.iter().zip(&globals) {
            for r in &gv.relocs {
                let tag = match module.globals.get(r.target.index()).map(|t| t.space) {
                    Some(AddrSpace::Constant) => Tag::Constant,
                    _ => Tag::Global,
                };
                let p = ptr::add(ptr::make(tag, r.target.0, 0), r.addend);
                mem.storage.write_scalar(r.offset as usize, 8, p);
            }
        }
        Ok(Program {
            module: Arc::new(module),
            code: Arc::new(code),
            globals,
            native: Mutex::new(HashMap::new()),
        })
    }

    /// Runs `kernel` over `range` with `args` (one per parameter, in order).
    ///
    /// Work-groups are handed out in order from a shared counter to at most one worker per
    /// thread (and no more workers than groups), so any group count the ND-range allows runs
    /// in bounded memory. The first fault in group order is reported, with the `printf`
    /// output of the groups before it.
    pub fn launch(
        &self,
        prog: &Program,
        kernel: &str,
        args: &[Arg],
        range: &NdRange,
    ) -> Result<LaunchOutput, DeviceError> {
        self.launch_svm(prog, kernel, args, &[], range)
    }

    /// [`Device::launch`] with SVM allocations the kernel may reach through raw addresses
    /// (arguments [`Arg::Address`] and pointers read from memory). Allocations must not
    /// overlap (an overlapping one is refused).
    pub fn launch_svm(
        &self,
        prog: &Program,
        kernel: &str,
        args: &[Arg],
        svm: &[Svm],
        range: &NdRange,
    ) -> Result<LaunchOutput, DeviceError> {
        self.settings_ok()?;
        let kid = prog
            .kernel_id(kernel)
            .ok_or_else(|| DeviceError::NoSuchKernel(kernel.to_string()))?;
        let kf = prog
            .module
            .function(kid)
            .ok_or_else(|| DeviceError::NoSuchKernel(kernel.to_string()))?;
        if args.len() != kf.params.len() {
            return Err(DeviceError::ArgCount {
                kernel: kernel.into(),
                expected: kf.params.len(),
                given: args.len(),
            });
        }
        let nd = make_nd(
            range,
            kf.kernel.as_ref().and_then(|k| k.reqd_work_group_size),
        )?;
        let items = nd.global.iter().product::<u64>(); // make_nd checked that it fits
        let max_items = self.limits.max_work_items;
        if items > max_items {
            return Err(DeviceError::BadRange(format!(
                "global: {} work-items are more than the cpu device runs in one launch, \
                 {max_items} (OCLC_MAX_WORK_ITEMS sets it)",
                dims_text(&range.global)
            )));
        }
        let mut globals = prog.globals.clone();
        let mut local_layout: Vec<(usize, usize, Symbol)> = prog
            .module
            .locals
            .iter()
            .filter(|l| l.kernel == kid)
            .map(|l| {
                (
                    l.size as usize,
                    l.align as usize,
                    Symbol::intern(&format!("variable `{}`", l.name)),
                )
            })
            .collect();
        let mut bound = Vec::with_capacity(args.len());
        for (i, (p, a)) in kf.params.iter().zip(args).enumerate() {
            bound.push(bind_arg(i, p, a, &mut globals, &mut local_layout)?);
        }
        let svm = bind_svm(svm, &mut globals)?;
        self.check_local(kernel, &local_layout)?;
        self.check_constant(prog, kernel, kf.params.iter().zip(args))?;
        let group_races = GlobalRaces::default();
        let printf_buffer = PrintfBuffer::new(self.printf_buffer_size()?);
        let ctx = LaunchCtx {
            prog: &prog.code,
            kernel: kid.0,
            globals: &globals,
            svm: &svm,
            nd,
            max_steps: self.max_steps,
            args: &bound,
            local_layout: &local_layout,
            races: self.races,
            group_races: self.races.then_some(&group_races),
            groups_linear: |id, n| (id[2] * n[1] + id[1]) * n[0] + id[0],
            printf: &printf_buffer,
            vector: self.vector != VectorMode::Off,
        };
        let has_barrier = prog
            .code
            .funcs
            .get(kid.index())
            .is_some_and(|f| f.has_barrier);
        // make_nd checked that the groups' product fits.
        let total = nd.groups[0]
            .saturating_mul(nd.groups[1])
            .saturating_mul(nd.groups[2]);
        let native = if self.interp_only || self.races {
            None
        } else {
            prog.native_kernel(kid.0)
        };
        // Native code without step checks (a kernel without loops) runs only where the
        // step limit covers its longest path; the interpreter reports the limit otherwise.
        let below_bound = native
            .as_ref()
            .and_then(|nk| nk.step_bound)
            .filter(|&b| b > self.max_steps);
        let native = native.filter(|_| below_bound.is_none());
        if native.is_none() && self.native_only {
            let why = match below_bound {
                Some(b) => Some(format!(
                    "the step limit {} is below the {b} branches and calls of its longest path",
                    self.max_steps
                )),
                None => prog.native_status(kernel).and_then(|r| r.err()),
            };
            return Err(DeviceError::Setting(format!(
                "OCLC_CPU_BACKEND=native: kernel `{kernel}` does not run natively ({})",
                why.as_deref().unwrap_or(if self.races {
                    "--races interprets"
                } else {
                    "interpreter selected"
                })
            )));
        }
        if let (Some(nk), VectorMode::Require) = (&native, self.vector)
            && let Err(why) = &nk.vector
        {
            return Err(DeviceError::Setting(format!(
                "OCLC_CPU_VECTOR=require: kernel `{kernel}` does not run as SIMD lanes ({why})"
            )));
        }
        if native.is_some() {
            NATIVE_LAUNCHES.with(|c| c.set(c.get() + 1));
        }
        let run_all = || run_groups(&ctx, total, has_barrier, native.as_deref());
        let (printed, failed) = match &self.pool {
            Some(p) => p.install(run_all),
            None => run_all(),
        };
        let mut out = LaunchOutput {
            printf: String::new(),
            printf_truncated: printf_buffer.truncated(),
            local_size: nd.local[..nd.dims as usize].to_vec(),
        };
        for s in printed.into_values() {
            out.printf.push_str(&s);
        }
        self.echo(&out.printf);
        match failed {
            // The output before the fault: earlier groups', then the failing one's.
            Some(mut e) => {
                e.printf = out.printf;
                e.printf_truncated = out.printf_truncated;
                Err(DeviceError::Runtime(e))
            }
            None => Ok(out),
        }
    }

    /// The `__local` bytes one work-group needs, against CL_DEVICE_LOCAL_MEM_SIZE.
    fn check_local(
        &self,
        kernel: &str,
        layout: &[(usize, usize, Symbol)],
    ) -> Result<(), DeviceError> {
        let mut end: Option<u64> = Some(0);
        for &(size, align, _) in layout {
            end = end
                .and_then(|e| e.checked_next_multiple_of(align.max(1) as u64))
                .and_then(|b| b.checked_add(size as u64));
        }
        let limit = self.limits.local_mem_size;
        if end.is_some_and(|e| e <= limit) {
            return Ok(());
        }
        let needs = end.map_or("more than 2^64".into(), |e| e.to_string());
        let parts: Vec<String> = layout
            .iter()
            .map(|(size, _, label)| format!("{label}: {size}"))
            .collect();
        Err(DeviceError::Resources(format!(
            "kernel `{kernel}` needs {needs} bytes of __local memory per work-group ({}), \
             more than the cpu device's {limit} (CL_DEVICE_LOCAL_MEM_SIZE; \
             OCLC_LOCAL_MEM_SIZE sets it)",
            parts.join(", ")
        )))
    }

    /// The `__constant` bytes of a launch (the program's constants and the `__constant`
    /// buffer arguments), against CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE.
    fn check_constant<'a>(
        &self,
        prog: &Program,
        kernel: &str,
        params: impl Iterator<Item = (&'a Param, &'a Arg)>,
    ) -> Result<(), DeviceError> {
        let mut parts = Vec::new();
        let program: u64 = prog
            .module
            .globals
            .iter()
            .filter(|g| g.space == AddrSpace::Constant)
            .map(|g| g.size)
            .sum();
        if program > 0 {
            parts.push(format!("program-scope constants: {program}"));
        }
        let mut total = program;
        for (p, a) in params {
            if let (ParamKind::Buffer(AddrSpace::Constant), Arg::Buffer(b)) = (&p.kind, a) {
                total = total.saturating_add(b.len() as u64);
                parts.push(format!("argument `{}`: {}", p.name, b.len()));
            }
        }
        let limit = self.limits.constant_mem_size;
        if total <= limit {
            return Ok(());
        }
        Err(DeviceError::Resources(format!(
            "kernel `{kernel}` needs {total} bytes of __constant memory ({}), more than the \
             cpu device's {limit} (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE; OCLC_CONSTANT_MEM_SIZE \
             sets it)",
            parts.join(", ")
        )))
    }

    fn echo(&self, s: &str) {
        if self.echo_printf && !s.is_empty() {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            let _ = o.write_all(s.as_bytes());
            let _ = o.flush();
        }
    }
}

impl Program {
    /// The native code of kernel function `kid`, compiled on first use; `None` when it runs
    /// on the interpreter.
    fn native_kernel(&self, kid: u32) -> Option<Arc<NativeKernel>> {
        let mut cache = self.native.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(kid)
            .or_insert_with(|| {
                // A code generator panic (a bug there) must not end the host's process: the
                // kernel then runs on the interpreter, as one the back end cannot compile.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    native::compile(&self.module, &self.code, kid)
                }))
                .unwrap_or_else(|_| Err(native::Unsupported("the code generator failed".into())))
                .map(Arc::new);
                if std::env::var_os("OCLC_CPU_BACKEND_TRACE").is_some() {
                    let name = self.code.funcs.get(kid as usize).map_or("?", |f| &f.name);
                    match &r {
                        Ok(nk) => eprintln!(
                            "oclc-cpu: kernel `{name}` compiled natively in {} us ({} state words; {})",
                            nk.compile_time.as_micros(),
                            nk.state_words,
                            match &nk.vector {
                                Ok(_) => "work-items as SIMD lanes".to_string(),
                                Err(why) => format!("one work-item at a time: {why}"),
                            }
                        ),
                        Err(u) => eprintln!("oclc-cpu: kernel `{name}` interpreted ({u})"),
                    }
                }
                r
            })
            .as_ref()
            .ok()
            .cloned()
    }

    /// How kernel `name` runs on a native-enabled device, once launched: its compile time,
    /// or why it runs on the interpreter; `None` before its first launch.
    pub fn native_status(&self, name: &str) -> Option<Result<std::time::Duration, String>> {
        let kid = self.kernel_id(name)?;
        let cache = self.native.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(&kid.0).map(|r| match r {
            Ok(nk) => Ok(nk.compile_time),
            Err(u) => Err(u.0.clone()),
        })
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    fn kernel_id(&self, name: &str) -> Option<FuncId> {
        self.module
            .functions
            .iter()
            .position(|f| f.is_kernel() && f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// Names of the program's kernels, in definition order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.module
            .functions
            .iter()
            .filter(|f| f.is_kernel())
            .map(|f| f.name.as_str())
            .collect()
    }

    /// The parameters of kernel `name`.
    pub fn kernel_params(&self, name: &str) -> Option<&[Param]> {
        self.kernel_id(name)
            .and_then(|k| self.module.function(k))
            .map(|f| f.params.as_slice())
    }

    /// Current bytes of a program-scope variable.
    pub fn read_global(&self, name: &str) -> Option<Vec<u8>> {
        let i = self.module.globals.iter().position(|g| g.name == name)?;
        self.globals.get(i).map(|g| g.storage.to_vec())
    }
}

/// `a x b x c`, as ND-range errors show sizes.
fn dims_text(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ")
}

/// Validates `range` with checked arithmetic, as clEnqueueNDRangeKernel does: every product
/// and every `offset + global` must fit size_t (64 bits), and a work-group holds at most
/// [`MAX_WORK_GROUP_SIZE`] work-items. Errors name the field.
fn make_nd(range: &NdRange, reqd: Option<[u32; 3]>) -> Result<Nd, DeviceError> {
    let bad = |m: String| DeviceError::BadRange(m);
    let dims = range.global.len();
    if !(1..=3).contains(&dims) {
        return Err(bad(format!("global: {dims} dimensions (1 to 3 allowed)")));
    }
    let mut nd = Nd {
        dims: dims as u32,
        global: [1; 3],
        local: [1; 3],
        offset: [0; 3],
        groups: [1; 3],
    };
    for (k, &g) in range.global.iter().enumerate() {
        if g == 0 {
            return Err(bad(format!("global: size {k} is 0")));
        }
        nd.global[k] = g;
    }
    if nd
        .global
        .iter()
        .try_fold(1u64, |a, &g| a.checked_mul(g))
        .is_none()
    {
        return Err(bad(format!(
            "global: {} work-items are more than size_t counts (2^64 - 1)",
            dims_text(&range.global)
        )));
    }
    if let Some(off) = &range.offset {
        if off.len() != dims {
            return Err(bad(format!(
                "offset has {} dimensions, global has {dims}",
                off.len()
            )));
        }
        nd.offset[..dims].copy_from_slice(off);
        for k in 0..dims {
            if nd.offset[k].checked_add(nd.global[k]).is_none() {
                return Err(bad(format!(
                    "offset: offset {} + global size {} in dimension {k} is more than size_t \
                     holds (2^64 - 1)",
                    nd.offset[k], nd.global[k]
                )));
            }
        }
    }
    match (&range.local, reqd) {
        (Some(l), _) => {
            if l.len() != dims {
                return Err(bad(format!(
                    "local has {} dimensions, global has {dims}",
                    l.len()
                )));
            }
            for (k, &x) in l.iter().enumerate() {
                if x == 0 {
                    return Err(bad(format!("local: size {k} is 0")));
                }
                nd.local[k] = x;
            }
            if let Some(r) = reqd
                && (0..3).any(|k| nd.local[k] != r[k] as u64)
            {
                return Err(bad(format!(
                    "local size ({}, {}, {}) differs from reqd_work_group_size({}, {}, {})",
                    nd.local[0], nd.local[1], nd.local[2], r[0], r[1], r[2]
                )));
            }
        }
        (None, Some(r)) => {
            nd.local = r.map(|x| (x as u64).max(1));
        }
        (None, None) => {
            // The largest divisor of the first dimension up to 64; 1 elsewhere.
            nd.local[0] = (1..=64u64.min(nd.global[0]))
                .rev()
                .find(|d| nd.global[0].is_multiple_of(*d))
                .unwrap_or(1);
        }
    }
    let items = nd.local.iter().try_fold(1u64, |a, &l| a.checked_mul(l));
    if items.is_none_or(|n| n > MAX_WORK_GROUP_SIZE) {
        let shown = range.local.as_deref().unwrap_or(&nd.local[..dims]);
        return Err(bad(format!(
            "local: {} work-items per work-group, more than the cpu device's \
             {MAX_WORK_GROUP_SIZE} (CL_DEVICE_MAX_WORK_GROUP_SIZE)",
            dims_text(shown)
        )));
    }
    for k in 0..3 {
        nd.groups[k] = nd.global[k].div_ceil(nd.local[k]);
    }
    Ok(nd)
}

/// What the groups of a launch left: `printf` output by group (only groups that printed,
/// before the failing one), and the fault of the lowest failing group.
type GroupsOutcome = (BTreeMap<u64, String>, Option<Box<RuntimeError>>);

/// Runs work-groups `0..total` of `ctx` on the current rayon pool, lazily: workers take
/// chunks of consecutive group ids from a shared counter, so nothing is allocated per group.
/// Groups after a failed one are skipped; every group before it runs, so the fault reported
/// is the first in group order.
/// A value alone on its cache line (128 bytes: adjacent-line prefetch pairs them).
#[repr(align(128))]
struct Padded<T>(T);

fn run_groups(
    ctx: &LaunchCtx,
    total: u64,
    has_barrier: bool,
    native: Option<&NativeKernel>,
) -> GroupsOutcome {
    let workers = (rayon::current_num_threads() as u64).clamp(1, total.max(1));
    // Small chunks keep the workers balanced; more than one group per claim keeps the
    // counter off the profile when groups are tiny.
    let chunk = (total / (workers * 64)).clamp(1, 64);
    // On cache lines of their own: the claim counter is written on every claim, the first
    // failure read before every group (sharing a line, each read missed).
    let next = Padded(AtomicU64::new(0));
    let first_err = Padded(AtomicU64::new(u64::MAX));
    let (next, first_err) = (&next.0, &first_err.0);
    let printed: Mutex<BTreeMap<u64, String>> = Mutex::new(BTreeMap::new());
    let failed: Mutex<Option<(u64, Box<RuntimeError>)>> = Mutex::new(None);
    let worker = || {
        let mut scratch = Scratch::default();
        let mut nw = native.map(|nk| (nk, native::group::Worker::new(ctx, nk)));
        loop {
            let claim = next.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < total).then(|| n.saturating_add(chunk).min(total))
            });
            let Ok(start) = claim else { break };
            let end = start.saturating_add(chunk).min(total);
            for gi in start..end {
                if gi > first_err.load(Ordering::Relaxed) {
                    return;
                }
                let res = match &mut nw {
                    Some((nk, w)) => native::group::run_group(ctx, nk, gi, w),
                    None => run_group(ctx, gi, has_barrier, &mut scratch),
                };
                match res {
                    Ok(s) if s.is_empty() => {}
                    Ok(s) => {
                        let mut p = printed.lock().unwrap_or_else(|e| e.into_inner());
                        p.insert(gi, s);
                    }
                    Err(mut e) => {
                        first_err.fetch_min(gi, Ordering::Relaxed);
                        // What the failing group printed before its fault is kept.
                        let partial = std::mem::take(&mut e.printf);
                        if !partial.is_empty() {
                            let mut p = printed.lock().unwrap_or_else(|e| e.into_inner());
                            p.insert(gi, partial);
                        }
                        let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
                        if f.as_ref().is_none_or(|(at, _)| gi < *at) {
                            *f = Some((gi, e));
                        }
                        return;
                    }
                }
            }
        }
    };
    if workers == 1 {
        worker();
    } else {
        // The calling thread works from the start, the pool's threads join as they wake: a
        // short launch does not wait for a sleeping thread's wake-up (tens of microseconds
        // on a virtual machine) before any group runs.
        rayon::in_place_scope(|s| {
            for _ in 1..workers {
                s.spawn(|_| worker());
            }
            worker();
        });
    }
    let failed = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut printed = printed.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some((at, _)) = &failed {
        // Output of groups after the failing one (which ran before it failed) is dropped.
        printed.retain(|gi, _| gi <= at);
    }
    (printed, failed.map(|(_, e)| e))
}

/// Adds the SVM allocations to the launch's global allocations; their address table,
/// sorted by address.
fn bind_svm(svm: &[Svm], globals: &mut Vec<GlobalMem>) -> Result<Vec<SvmRange>, DeviceError> {
    let mut table: Vec<SvmRange> = Vec::with_capacity(svm.len());
    for s in svm {
        let name = format!("SVM allocation at {:#x}", s.addr);
        let len = s.buffer.as_ref().map_or(s.len, |b| b.len as u64);
        if ptr::raw(s.addr) != Some(s.addr)
            || s.addr.checked_add(len).is_none_or(|e| e > ptr::RAW_MASK)
        {
            return Err(DeviceError::Memory(format!(
                "{name} ({len} bytes) is outside the addresses the cpu device maps"
            )));
        }
        let (id, start) = match &s.buffer {
            Some(b) => {
                if globals.len() >= ptr::MAX_ALLOCS {
                    return Err(DeviceError::Memory(format!(
                        "too many buffers and SVM allocations for one launch (at most {})",
                        ptr::MAX_ALLOCS
                    )));
                }
                globals.push(GlobalMem {
                    name: Symbol::intern(&name),
                    storage: b.storage.clone(),
                });
                (Some(globals.len() - 1), b.offset)
            }
            None => (None, 0),
        };
        table.push(SvmRange {
            addr: s.addr,
            len,
            id,
            start,
        });
    }
    table.sort_by_key(|r| (r.addr, r.id.is_none()));
    // One entry per address: a bound allocation wins over the same one listed unbound.
    table.dedup_by_key(|r| r.addr);
    if let Some(w) = table.windows(2).find(|w| w[0].addr + w[0].len > w[1].addr) {
        return Err(DeviceError::Memory(format!(
            "SVM allocations at {:#x} ({} bytes) and {:#x} overlap",
            w[0].addr, w[0].len, w[1].addr
        )));
    }
    Ok(table)
}

fn bind_arg(
    i: usize,
    p: &Param,
    a: &Arg,
    globals: &mut Vec<GlobalMem>,
    local_layout: &mut Vec<(usize, usize, Symbol)>,
) -> Result<BoundArg, DeviceError> {
    let bad = |message: String| DeviceError::BadArg {
        index: i,
        name: p.name.clone(),
        message,
    };
    match (&p.kind, a) {
        (ParamKind::Value, Arg::Bytes(b)) => {
            let want = p.ty.store_size() as usize;
            if b.len() != want && b.len() != p.ty.access_size() as usize {
                return Err(bad(format!(
                    "expects {want} bytes ({}), got {}",
                    p.c_type,
                    b.len()
                )));
            }
            let n = p.ty.lanes() as usize;
            let mut lanes = vec![0u64; n];
            let elem = p.ty.elem().unwrap_or(oclc_ir::Scalar::I64);
            let sz = elem.bytes() as usize;
            for (k, l) in lanes.iter_mut().enumerate() {
                for j in 0..sz {
                    *l |= (b.get(k * sz + j).copied().unwrap_or(0) as u64) << (8 * j);
                }
                if elem == oclc_ir::Scalar::I1 {
                    *l = (*l != 0) as u64;
                }
            }
            Ok(BoundArg::Lanes(lanes))
        }
        (
            ParamKind::Buffer(space @ (AddrSpace::Global | AddrSpace::Constant)),
            Arg::Buffer(buf),
        ) => {
            if globals.len() >= ptr::MAX_ALLOCS {
                return Err(bad("too many buffers".into()));
            }
            let id = globals.len() as u32;
            globals.push(GlobalMem {
                name: Symbol::intern(&format!("buffer `{}`", p.name)),
                storage: buf.storage.clone(),
            });
            let tag = if *space == AddrSpace::Constant {
                Tag::Constant
            } else {
                Tag::Global
            };
            // A region points into its underlying buffer.
            Ok(BoundArg::Lanes(vec![ptr::make(tag, id, buf.offset as u64)]))
        }
        (ParamKind::Buffer(AddrSpace::Global | AddrSpace::Constant), Arg::Null) => {
            Ok(BoundArg::Lanes(vec![0]))
        }
        (ParamKind::Value, Arg::Image { desc, data }) if p.ty == oclc_ir::Type::I64 => {
            desc.check().map_err(bad)?;
            if globals.len() + 1 >= ptr::MAX_ALLOCS {
                return Err(bad("too many buffers".into()));
            }
            let id = globals.len() as u32;
            globals.push(GlobalMem {
                name: Symbol::intern(&format!("image `{}`", p.name)),
                storage: data.storage.clone(),
            });
            let mut d = *desc;
            d.data = ptr::make(Tag::Global, id, data.offset as u64);
            globals.push(GlobalMem {
                name: Symbol::intern(&format!("descriptor of image `{}`", p.name)),
                storage: Arc::new(Storage::from_bytes(&d.to_bytes())),
            });
            Ok(BoundArg::Lanes(vec![ptr::make(Tag::Constant, id + 1, 0)]))
        }
        (ParamKind::Buffer(AddrSpace::Global), Arg::Address(a)) => Ok(BoundArg::Lanes(vec![*a])),
        (ParamKind::Buffer(AddrSpace::Local), Arg::Local(size)) => {
            if *size == 0 {
                return Err(bad("a __local argument needs a size greater than 0".into()));
            }
            let id = local_layout.len() as u32;
            local_layout.push((*size, 16, Symbol::intern(&format!("argument `{}`", p.name))));
            Ok(BoundArg::Lanes(vec![ptr::make(Tag::Local, id, 0)]))
        }
        (ParamKind::Aggregate { size, align }, Arg::Bytes(b)) => {
            if b.len() != *size as usize {
                return Err(bad(format!(
                    "expects {size} bytes ({}), got {}",
                    p.c_type,
                    b.len()
                )));
            }
            Ok(BoundArg::Aggregate {
                bytes: b.clone(),
                align: *align,
                label: Symbol::intern(&format!("kernel argument `{}`", p.name)),
            })
        }
        (kind, _) => {
            let want = match kind {
                ParamKind::Value | ParamKind::Aggregate { .. } => "a value (bytes)",
                ParamKind::Buffer(AddrSpace::Local) => "a __local size",
                ParamKind::Buffer(_) => "a buffer",
            };
            Err(bad(format!("expects {want} for `{}`", p.c_type)))
        }
    }
}

/// Per-thread state reused across the groups a thread runs.
#[derive(Default)]
struct Scratch {
    items: Vec<Item>,
    group: Group,
}

fn ids_of(linear: u64, counts: [u64; 3]) -> [u64; 3] {
    [
        linear % counts[0],
        (linear / counts[0]) % counts[1],
        linear / (counts[0] * counts[1]),
    ]
}

fn run_group(
    ctx: &LaunchCtx,
    gi: u64,
    has_barrier: bool,
    s: &mut Scratch,
) -> Result<String, Box<RuntimeError>> {
    let nd = &ctx.nd;
    let gid3 = ids_of(gi, nd.groups);
    let g = &mut s.group;
    g.id = gid3;
    g.size = [0, 1, 2].map(|k| nd.local[k].min(nd.global[k] - gid3[k] * nd.local[k]));
    g.local.clear();
    for &(size, align, label) in ctx.local_layout {
        if let Err(e) = g.local.try_alloc(size, align, label) {
            // The launch checked the total against CL_DEVICE_LOCAL_MEM_SIZE; the host still
            // may refuse a large limit's memory.
            return Err(Box::new(RuntimeError {
                kind: CheckKind::Other,
                message: format!("__local {label} of work-group {gid3:?}: {e}"),
                span: Span::DUMMY,
                global_id: [0; 3],
                local_id: [0; 3],
                group_id: gid3,
                note: None,
                ..RuntimeError::default()
            }));
        }
    }
    g.out.clear();
    g.races.clear();
    let n = (g.size[0] * g.size[1] * g.size[2]) as usize;
    let start = |it: &mut Item, k: usize, g: &Group| {
        let lid = ids_of(k as u64, g.size);
        let gid = [0, 1, 2].map(|d| nd.offset[d] + g.id[d] * nd.local[d] + lid[d]);
        it.start(ctx, lid, gid, k as u32);
    };
    if !has_barrier {
        if s.items.is_empty() {
            s.items.push(Item::default());
        }
        let it = &mut s.items[0];
        for k in 0..n {
            start(it, k, g);
            exec::run(ctx, g, it)?;
        }
        return Ok(std::mem::take(&mut g.out));
    }
    if s.items.len() < n {
        s.items.resize_with(n, Item::default);
    }
    let items = &mut s.items[..n];
    for (k, it) in items.iter_mut().enumerate() {
        start(it, k, g);
    }
    loop {
        for it in items.iter_mut() {
            let stop = exec::run(ctx, g, it)?;
            it.stop = Some(stop);
        }
        let first = items.first().and_then(|it| it.stop).unwrap_or(Stop::Done);
        let diverged = items.iter().find(|it| it.stop != Some(first));
        if let Some(other) = diverged {
            let mut e = divergence(ctx, g, &items[0], other);
            e.printf = std::mem::take(&mut g.out);
            return Err(e);
        }
        match first {
            Stop::Done => return Ok(std::mem::take(&mut g.out)),
            Stop::Barrier { func, pc } => {
                g.races.clear();
                let wg =
                    ctx.prog
                        .funcs
                        .get(func as usize)
                        .and_then(|f| match f.code.get(pc as usize) {
                            Some(I::WorkGroup { info, .. }) => f.wgs.get(*info as usize),
                            _ => None,
                        });
                if let Some(w) = wg {
                    collective(w, g.size, items);
                }
            }
        }
    }
}

fn barrier_span(ctx: &LaunchCtx, s: Stop) -> Option<Span> {
    match s {
        Stop::Barrier { func, pc } => ctx
            .prog
            .funcs
            .get(func as usize)?
            .spans
            .get(pc as usize)
            .copied(),
        Stop::Done => None,
    }
}

pub(crate) fn divergence(
    ctx: &LaunchCtx,
    g: &Group,
    first: &Item,
    other: &Item,
) -> Box<RuntimeError> {
    let (a, b) = (
        first.stop.unwrap_or(Stop::Done),
        other.stop.unwrap_or(Stop::Done),
    );
    let lid = |it: &Item| format!("({}, {}, {})", it.lid[0], it.lid[1], it.lid[2]);
    // Report at a barrier: the one `other` waits at, else the one `first` waits at.
    let (at, message) = match (a, b) {
        (Stop::Barrier { .. }, Stop::Done) => (
            a,
            format!(
                "barrier divergence: work-item with local id {} finished without reaching the barrier that work-item {} waits at",
                lid(other),
                lid(first)
            ),
        ),
        (Stop::Done, Stop::Barrier { .. }) => (
            b,
            format!(
                "barrier divergence: work-item with local id {} waits at a barrier that work-item {} finished without reaching",
                lid(other),
                lid(first)
            ),
        ),
        _ => (
            b,
            format!(
                "barrier divergence: work-item with local id {} reached a different barrier than work-item {}",
                lid(other),
                lid(first)
            ),
        ),
    };
    let note = match (a, b) {
        (Stop::Barrier { .. }, Stop::Barrier { .. }) => barrier_span(ctx, a)
            .map(|s| (s, format!("work-item {} waits at this barrier", lid(first)))),
        _ => None,
    };
    Box::new(RuntimeError {
        kind: CheckKind::BarrierDivergence,
        message,
        span: barrier_span(ctx, at).unwrap_or(Span::DUMMY),
        global_id: other.gid,
        local_id: other.lid,
        group_id: g.id,
        note,
        ..RuntimeError::default()
    })
}

fn wg_identity(a: WgArith, s: Scalar) -> u64 {
    let w = s.bits();
    match a {
        WgArith::IAdd | WgArith::UMax => 0,
        WgArith::UMin => ops::mask(w),
        WgArith::SMin => ops::mask(w) >> 1,
        WgArith::SMax => 1 << (w - 1),
        WgArith::FAdd => ops::fput(s, 0.0),
        WgArith::FMin => ops::fput(s, f64::INFINITY),
        WgArith::FMax => ops::fput(s, f64::NEG_INFINITY),
    }
}

fn wg_combine(a: WgArith, s: Scalar, x: u64, y: u64) -> u64 {
    let w = s.bits();
    match a {
        WgArith::IAdd => ops::bin(BinOp::Add, s, x, y),
        WgArith::FAdd => ops::bin(BinOp::FAdd, s, x, y),
        WgArith::SMin => {
            if ops::sext(y, w) < ops::sext(x, w) {
                y
            } else {
                x
            }
        }
        WgArith::SMax => {
            if ops::sext(y, w) > ops::sext(x, w) {
                y
            } else {
                x
            }
        }
        WgArith::UMin => x.min(y),
        WgArith::UMax => x.max(y),
        WgArith::FMin | WgArith::FMax => {
            let (fx, fy) = (ops::fget(s, x), ops::fget(s, y));
            let take_y =
                fx.is_nan() || (!fy.is_nan() && if a == WgArith::FMin { fy < fx } else { fy > fx });
            if take_y { y } else { x }
        }
    }
}

/// Computes a work-group collective from every item's contribution (in local linear id
/// order) and hands each item its result.
fn collective(w: &WgInfo, size: [u64; 3], items: &mut [Item]) {
    let vals: Vec<u64> = items.iter().map(|it| it.wg_in.map_or(0, |c| c.0)).collect();
    let results: Vec<u64> = match w.op {
        WgOp::All => vec![vals.iter().all(|v| *v & 0xffff_ffff != 0) as u64; vals.len()],
        WgOp::Any => vec![vals.iter().any(|v| *v & 0xffff_ffff != 0) as u64; vals.len()],
        WgOp::Broadcast => {
            let ids = items
                .first()
                .and_then(|it| it.wg_in)
                .map_or([0; 3], |c| c.1);
            let k = (ids[2] * size[1] + ids[1]) * size[0] + ids[0];
            let v = if ids.iter().zip(size).all(|(i, n)| *i < n) {
                vals.get(k as usize).copied().unwrap_or(0)
            } else {
                0
            };
            vec![v; vals.len()]
        }
        WgOp::Reduce(a) => {
            let r = vals
                .iter()
                .fold(wg_identity(a, w.s), |acc, v| wg_combine(a, w.s, acc, *v));
            vec![r; vals.len()]
        }
        WgOp::ScanInclusive(a) | WgOp::ScanExclusive(a) => {
            let mut acc = wg_identity(a, w.s);
            let inclusive = matches!(w.op, WgOp::ScanInclusive(_));
            vals.iter()
                .map(|v| {
                    let before = acc;
                    acc = wg_combine(a, w.s, acc, *v);
                    if inclusive { acc } else { before }
                })
                .collect()
        }
    };
    for (it, r) in items.iter_mut().zip(results) {
        it.wg_in = None;
        it.wg_out = Some(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range_err(r: NdRange) -> String {
        match make_nd(&r, None) {
            Err(DeviceError::BadRange(m)) => m,
            other => panic!("expected a range error for {r:?}, got {other:?}"),
        }
    }

    #[test]
    fn nd_range_products_are_checked() {
        let big = 1u64 << 32;
        assert_eq!(
            range_err(NdRange::new(&[big, big, big])),
            "global: 4294967296 x 4294967296 x 4294967296 work-items are more than size_t \
             counts (2^64 - 1)"
        );
        assert_eq!(
            range_err(NdRange::new(&[big, big / 2, 1]).local(&[big, big, 1])),
            "local: 4294967296 x 4294967296 x 1 work-items per work-group, more than the cpu \
             device's 1024 (CL_DEVICE_MAX_WORK_GROUP_SIZE)"
        );
        assert!(range_err(NdRange::new(&[64, 64]).local(&[64, 32])).starts_with("local: 64 x 32"));
        assert_eq!(
            range_err(NdRange::new(&[2]).offset(&[u64::MAX - 1])),
            "offset: offset 18446744073709551614 + global size 2 in dimension 0 is more than \
             size_t holds (2^64 - 1)"
        );
        // The largest range: every product fits.
        let nd = make_nd(&NdRange::new(&[u64::MAX]).local(&[1]), None).expect("fits");
        assert_eq!(nd.groups, [u64::MAX, 1, 1]);
        let nd = make_nd(&NdRange::new(&[u64::MAX - 1]).offset(&[1]), None).expect("fits");
        assert_eq!(nd.offset[0] + nd.global[0], u64::MAX);
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("X", "65536"), Ok(65536));
        assert_eq!(parse_size("X", "64K"), Ok(65536));
        assert_eq!(parse_size("X", "64kib"), Ok(65536));
        assert_eq!(parse_size("X", "2G"), Ok(2 << 30));
        assert_eq!(parse_size("X", "1 TiB"), Ok(1 << 40));
        for bad in [
            "",
            "0",
            "-1",
            "1.5G",
            "12Q",
            "99999999999999999999",
            "16777216T",
        ] {
            let e = parse_size("OCLC_LOCAL_MEM_SIZE", bad).expect_err(bad);
            assert_eq!(
                e,
                format!(
                    "OCLC_LOCAL_MEM_SIZE must be a size in bytes such as 65536, 64K, 512M or \
                     2G, not `{bad}`"
                )
            );
        }
    }

    #[test]
    fn buffers_beyond_the_largest_allocation_are_errors() {
        let d = Device::cpu().with_max_alloc_size(1 << 20);
        assert_eq!(d.buffer(1 << 20).map(|b| b.len()), Ok(1 << 20));
        let e = d.buffer(usize::MAX / 2).map(|b| b.len());
        assert_eq!(
            e,
            Err(DeviceError::Memory(format!(
                "a buffer of {} bytes is larger than the cpu device's largest allocation, \
                 1048576 bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE; OCLC_MAX_ALLOC_SIZE sets it)",
                usize::MAX / 2
            )))
        );
        // Even a limit at the ceiling refuses what pointers cannot address.
        let d = Device::cpu().with_max_alloc_size(u64::MAX);
        assert_eq!(d.limits().max_alloc_size, MAX_ALLOC_CEILING);
        assert!(d.buffer(1 << 45).is_err());
        let b = d.buffer_from_bytes(&[1, 2, 3, 4]).expect("4 bytes");
        let mut two = [0; 2];
        assert!(b.read_at(2, &mut two));
        assert_eq!(two, [3, 4]);
        assert!(!b.read_at(3, &mut two));
        assert!(!b.read_at(usize::MAX, &mut two));
        assert!(b.write_at(1, &[9]));
        assert!(!b.write_at(4, &[9]));
        assert_eq!(b.try_read(), Ok(vec![1, 9, 3, 4]));
    }
}
