//! Semantic analysis of OpenCL C: types, the address-space rules (`space`), name lookup,
//! builtin tables and checking with clang-worded diagnostics.

pub mod builtins;
mod check;
mod fxhash;
pub mod hir;
pub mod space;
pub mod types;

pub use check::{DEFAULT_OFF_GROUPS, PEDANTIC_GROUPS, check};
pub use space::AddrSpace;
