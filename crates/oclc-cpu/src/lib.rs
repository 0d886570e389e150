//! The embedded cpu device: runs IR kernels in pure safe Rust with every address space
//! implemented exactly and every access checked.
//!
//! - Pointers are 64-bit values carrying their space, allocation and offset ([`ptr`]), so
//!   generic pointers know where they point and `to_global`/`to_local`/`to_private` are exact.
//! - Global memory is relaxed-atomic words shared by the threads running work-groups; local
//!   and private memory are plain per-group and per-work-item arenas ([`memory`]).
//! - Modules are optimized on load (mem2reg, fold, dce), then each function is pre-decoded
//!   into a register machine over dense `u64` lane slots ([`decode`]: constants hoisted to a
//!   prologue, compare-and-branch and index-scale-add fused, blocks laid out as traces with
//!   fall-through and jump threading) and interpreted ([`exec`]) with fast paths for aligned
//!   scalar access. Work-items of a group run one at a time until each reaches a barrier (or a
//!   work-group collective) or returns; groups run in parallel with rayon ([`device`]).
//! - Faults (out of bounds, NULL, wrong-space casts, writes to `__constant`, misaligned
//!   atomics and loads/stores, another work-item's private memory, barrier divergence,
//!   runaway loops, opt-in data races) are [`RuntimeError`]s with the source span and the
//!   work-item's ids, and the printf output written before them.
//! - `printf` output goes to a bounded per-launch buffer ([`printf::PrintfBuffer`], 1 MiB
//!   unless `OCLC_PRINTF_BUFFER_SIZE` or [`Device::with_printf_buffer`] says otherwise).

pub mod builtins;
pub mod decode;
pub mod device;
pub mod error;
pub mod exec;
pub mod memory;
pub mod native;
pub mod ops;
pub mod printf;
pub mod ptr;
pub mod races;
pub mod runtime;

pub use device::{
    Arg, Buffer, DEFAULT_CONSTANT_MEM_SIZE, DEFAULT_LOCAL_MEM_SIZE,
    DEFAULT_MAX_GLOBAL_VARIABLE_SIZE, DEFAULT_MAX_STEPS, DEFAULT_MAX_WORK_ITEMS, Device,
    LaunchOutput, Limits, MAX_ALLOC_CEILING, MAX_WORK_GROUP_SIZE, NdRange, Program, Svm,
    available_cores, native_launches, parse_size,
};
pub use error::{CheckKind, DeviceError, RuntimeError};
