//! oclc as an OpenCL platform: `liboclc_icd.so`, an installable client driver that the
//! Khronos ICD loader and ocl-icd load, so unmodified host programs (C, C++, Python) run
//! their kernels on oclc's devices with its address-space semantics and runtime checks.
//!
//! Layers, as in Mesa's Rusticl:
//! - [`api`]: the entry points, reached through the dispatch table ([`api::DISPATCH`]) that
//!   is the first field of every handle; each is a `Result<_, cl_int>` body wrapped by one
//!   macro that catches panics;
//! - [`ffi`]: the only code that touches the application's raw pointers, turning them into
//!   slices, strings, host-memory regions and callbacks;
//! - [`handle`]: handles as checked addresses of reference-counted objects;
//! - [`info`]: the answers of every `clGet*Info` query, copied out by one function;
//! - the objects: [`platform`] (platform and devices), [`context`], [`queue`] (queues, events,
//!   the worker that runs commands), [`mem`] (buffers), [`program`] (programs, kernels).
//!
//! It holds no compiler or device logic: programs build through [`oclc::Program`], buffers
//! and launches go through [`oclc::Device`], and runtime-check reports are `oclc run`'s.
//!
//! Devices: the cpu device, and with feature `cuda` one device per GPU the CUDA driver
//! opens, each run by a worker thread that owns its CUDA objects ([`cuda`]).
//!
//! Environment: `OCLC_DEVICE` (`cpu`, `cuda`, `all`), `OCLC_CUDA_EMULATE=1` (feature `cuda`,
//! testing only: one more GPU device that runs on the cpu device through the cuda path's
//! worker), `OCLC_RACES=1` (race detection),
//! `OCLC_MAX_STEPS=N` (step limit per work-item), and the library's `OCLC_*` limits.

pub mod api;
pub mod context;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod ffi;
pub mod handle;
pub mod info;
pub mod mem;
pub mod platform;
pub mod program;
pub mod queue;
