//! IR passes: mem2reg, fold, address-space inference and per-call-site specialization, dce.
//!
//! Each keeps the crate invariants; run [`crate::debug_verify`] after each in debug builds.

pub mod dce;
pub mod mem2reg;

pub use dce::{dce, dce_module};
pub use mem2reg::{mem2reg, mem2reg_module};

/// The standard pipeline before running: promote slots to SSA values, then drop dead code.
pub fn optimize(m: &mut crate::Module) {
    mem2reg_module(m);
    dce_module(m);
}
