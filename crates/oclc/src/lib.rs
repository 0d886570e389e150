//! oclc: OpenCL C compiler and kernel runner built around the address-space system.
//!
//! [`check_source`] runs preprocess → parse → sema and applies the warning policy; [`render`]
//! prints diagnostics as clang does, [`json`] as JSON, and [`verify`] implements clang's
//! `-verify` annotation checking. [`cli`] is `oclc check` as a function.

pub mod args;
pub mod bench_cmd;
pub mod build_cmd;
pub mod check;
pub mod cli;
pub mod exec_cmd;
pub mod json;
mod order;
mod pipeline;
pub mod program;
pub mod regex;
pub mod render;
pub mod run_cmd;
pub mod runfile;
pub mod runlines;
pub mod spaces_cmd;
pub mod verify;
pub mod warnings;

pub use check::{CheckOptions, CheckOutcome, MacroArg, Schedule, check_source};
/// What the driver reports about a GPU (`Device::cuda_info`).
#[cfg(feature = "cuda")]
pub use oclc_ptx::cuda::DeviceInfo as CudaDeviceInfo;
pub use program::{
    Buffer, BuildError, CompiledUnit, Device, Element, Error, Kernel, KernelArg, LaunchOutput,
    NdRange, Program, RuntimeFault,
};
pub use warnings::{Reported, WarningPolicy};
