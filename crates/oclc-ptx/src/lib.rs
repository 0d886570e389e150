//! IR to PTX text, and (behind cargo feature `cuda`) the cuda device that loads it through
//! the CUDA driver.
//!
//! - [`emit_module`] turns a verified IR module (after the IR passes) into one PTX module:
//!   every kernel an `.entry`, every called function a `.func`, one PTX line per IR
//!   operation where possible, with the source line of each statement as a comment.
//! - Values are scalarized into virtual registers named after the IR value (`v7` of type
//!   `f32` is `%f7`, lane 2 of a vector is `%f7_2`); `i8`/`i16` live in 32-bit registers
//!   whose high bits are unspecified and are normalized where an operation reads them.
//! - Pointers are 64-bit addresses of their state space: `ptr<global>`/`ptr<constant>` are
//!   global-window addresses, `ptr<local>` shared-window addresses, `ptr<private>` local-window
//!   addresses and `ptr<generic>` generic addresses; NULL is 0 in every space and stays 0
//!   through every conversion.
//! - All `__local` memory of a kernel lives in one dynamic `.extern .shared` block: 16 bytes
//!   that are never handed out (so no `__local` object has address 0 and NULL stays
//!   distinct), then the kernel-scope `__local` variables at fixed offsets, then the `__local`
//!   parameters at offsets the host passes. [`KernelAbi`] tells the host how to launch.
//! - The hidden last kernel parameter carries the ND-range ([`launch::NdParam`]): global
//!   offset and size, work dimension, the launch's first work-group, the enqueued local size
//!   and the group count, so one kernel serves every launch of a non-uniform range
//!   ([`launch::plan`]). A launch may instead run a [`KernelVariant`]: coarsened (each CUDA
//!   thread runs the work-items of several work-groups) and with `ld.global.nc` for buffers
//!   that [`readonly`] proves no argument writes.
//! - Single-precision math without fast-relaxed-math stays within the full-profile ULP
//!   limits: `exp*`/`log*`/`sin`/`cos`/`tan` in `math`, everything else (hyperbolic and
//!   inverse trigonometric functions, the `pow` family, `erf`, gamma, `cbrt`, `hypot`, `*pi`,
//!   exact `fmod`/`remainder`/`remquo`, geometric functions) in `fmath` through
//!   double-precision cores rounded once. Double-precision math (every builtin the cpu
//!   device has) is in `dmath`: algorithms written once against a small trait of PTX
//!   operations, emitted as PTX or evaluated on the host with PTX's semantics
//!   ([`dmath::eval`]), so the GPU's sequences are tested without a GPU.

mod async_copy;
mod atomic_narrow;
mod bitcast;
mod builtins;
pub mod checks;
mod collective;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod dmath;
mod dmath_core;
mod dmath_fns;
mod dmath_ptx;
mod dmath_special;
mod emit;
mod error;
mod fmath;
pub mod launch;
mod math;
mod math_single;
mod narrow;
pub mod printf;
pub mod readonly;
mod regs;
pub mod subgroup;
mod variant;
mod vendor;

pub use emit::emit_module;
pub use error::PtxError;

/// How the PTX is generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxOptions {
    /// The `.target` (`sm_80` unless the device says otherwise).
    pub target: String,
    /// `-cl-fast-relaxed-math`: approximate division and transcendental instructions, and
    /// no `.rn` on add/mul so that ptxas may contract them into `fma`.
    pub fast_math: bool,
    /// Assume every launch keeps global offset + global size below 2^32 in each dimension,
    /// so work-item ids and the index arithmetic bounded by them are done in 32 bits. Each
    /// kernel then says so in [`KernelAbi::max_global_end`], and the cuda device rejects a
    /// launch that breaks it.
    pub ids_32bit: bool,
    /// Thread coarsening: the most work-groups one CUDA block may run one after the other
    /// (1 turns it off). Recorded with the program; the cuda device decides per launch from
    /// its own setting (`OCLC_CUDA_COARSEN`, else [`DEFAULT_COARSEN`]), and the code is
    /// coarsened only in a [`PtxOptions::variant`].
    pub coarsen: u32,
    /// Emit only this launch variant of one kernel (and the functions it calls).
    pub variant: Option<KernelVariant>,
    /// `--checks`: every access and barrier checked in the kernel, faults recorded for the
    /// host ([`checks`]).
    pub checks: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`: single-precision `/` and `sqrt` correctly
    /// rounded (`div.rn`, `sqrt.rn`). Otherwise `div.full.f32` (2 ulp) and `sqrt.approx.f32`,
    /// within OpenCL's 2.5 and 3 ulp, as NVIDIA's driver compiles them.
    pub exact_div_sqrt: bool,
}

/// The build options that choose floating-point instructions (a plain `bool` is
/// `-cl-fast-relaxed-math` alone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatMode {
    /// `-cl-fast-relaxed-math`.
    pub fast_math: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`.
    pub exact_div_sqrt: bool,
}

impl From<bool> for FloatMode {
    fn from(fast_math: bool) -> FloatMode {
        FloatMode {
            fast_math,
            exact_div_sqrt: false,
        }
    }
}

/// The coarsening factor the cuda device uses unless `OCLC_CUDA_COARSEN` says otherwise.
pub const DEFAULT_COARSEN: u32 = 4;

impl Default for PtxOptions {
    fn default() -> Self {
        PtxOptions {
            target: "sm_80".into(),
            fast_math: false,
            ids_32bit: true,
            coarsen: DEFAULT_COARSEN,
            variant: None,
            checks: false,
            exact_div_sqrt: false,
        }
    }
}

/// Largest global offset + global size per dimension under [`PtxOptions::ids_32bit`].
pub const MAX_GLOBAL_END_32: u64 = u32::MAX as u64;
/// A kernel compiled for one kind of launch: each CUDA thread runs `coarsen` work-items of
/// consecutive work-groups, loads that read only the buffers of the `nc` parameters use
/// `ld.global.nc`, and `vloadN`/`vstoreN` through the `aligned` parameters move whole vectors.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelVariant {
    pub kernel: String,
    /// Work-groups per CUDA block in dimension 0 (1: none); only for
    /// [`KernelAbi::coarsenable`] kernels.
    pub coarsen: u32,
    /// Parameter indices, each [`KernelAbi::read_only`] and not sharing its buffer with
    /// another argument of the launch.
    pub nc: Vec<usize>,
    /// Parameter indices, each [`KernelAbi::vector_params`], whose argument address is a
    /// multiple of 16 in this launch.
    pub aligned: Vec<usize>,
    /// The launch's enqueued local size, for code specialised to it (under `--checks`: the
    /// value ranges of local ids then prove most `__local` accesses in bounds).
    pub local: Option<[u32; 3]>,
}

/// Bytes of the dynamic shared block that are never handed out, so no `__local` object sits
/// at shared address 0 (which is NULL).
pub const SHARED_RESERVED: u32 = 16;

/// Size in bytes of the hidden last kernel parameter ([`launch::NdParam`]): the global
/// offset (3 × u64), the global size (3 × u64), the work dimension (u32, padded to 8), then,
/// as 3 × u32 each, the first work-group of the launch, the enqueued local size and the
/// number of work-groups, padded to 8.
pub const ND_PARAM_BYTES: u32 = 96;

/// How the host passes one kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamAbi {
    /// A `__global`/`__constant` buffer: its device address as `.u64`.
    Pointer,
    /// A `__local` buffer: its byte offset in the dynamic shared block as `.u64` (the host
    /// lays the buffers out after [`KernelAbi::shared_static`] bytes).
    LocalOffset,
    /// A scalar, vector or by-value struct: its bytes, in a `.b8` array of this size and
    /// alignment.
    Bytes { size: u32, align: u32 },
}

/// What the host needs to launch one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelAbi {
    pub name: String,
    /// One per IR parameter, in order; the hidden ND-range parameter follows them.
    pub params: Vec<ParamAbi>,
    /// Bytes of the dynamic shared block used before the `__local` parameters: the reserved
    /// head plus the kernel-scope `__local` variables.
    pub shared_static: u32,
    /// `reqd_work_group_size`, if given.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// The PTX assumes global offset + global size is at most this in every dimension
    /// ([`PtxOptions::ids_32bit`]); a launch beyond it must be rejected.
    pub max_global_end: Option<u64>,
    /// Per parameter: a `__global` buffer the kernel provably never writes
    /// ([`readonly`]).
    pub read_only: Vec<bool>,
    /// Per parameter: the kernel passes it unchanged to `vloadN`/`vstoreN` of 8 or more
    /// bytes, which a launch variant can make whole-vector accesses when the argument is
    /// 16-byte aligned ([`KernelVariant::aligned`]).
    pub vector_params: Vec<bool>,
    /// No barrier, `__local` memory, work-group function or async copy, in the kernel or
    /// what it calls, and a body small enough to repeat: each CUDA thread may run several
    /// work-groups' work-items.
    pub coarsenable: bool,
    /// The kernel (or a function it calls) uses a program-scope `__global` variable, so it
    /// must run from the program's one module (a variant module has its own copy).
    pub uses_globals: bool,
    /// Whether the kernel reaches `printf`: it then takes the printf buffer as a hidden
    /// `u64` parameter after the ND-range ([`printf`]).
    pub printf: bool,
}

impl KernelAbi {
    /// Checks a launch's global size and offset (per dimension) against
    /// [`KernelAbi::max_global_end`].
    pub fn admits(&self, global: &[u64], offset: &[u64]) -> Result<(), String> {
        let Some(max) = self.max_global_end else {
            return Ok(());
        };
        for (k, g) in global.iter().enumerate() {
            let o = offset.get(k).copied().unwrap_or(0);
            if o.checked_add(*g).is_none_or(|end| end > max) {
                return Err(format!(
                    "global offset {o} + global size {g} in dimension {k} exceeds {max}, \
                     the bound this PTX computes work-item ids under"
                ));
            }
        }
        Ok(())
    }
}

/// The emitted PTX text and the launch description of its kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxModule {
    pub text: String,
    pub kernels: Vec<KernelAbi>,
    /// PTX symbol of each IR global (`Module::globals`, same order), for reading them back.
    pub globals: Vec<(String, String)>,
    /// The module's `printf` formats; a record's format id indexes this ([`printf`]).
    pub printf: Vec<printf::PrintfSite>,
    /// The checked operations by site id (empty without [`PtxOptions::checks`]).
    pub checks: Vec<checks::CheckSite>,
}
