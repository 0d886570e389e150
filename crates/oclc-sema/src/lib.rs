//! Semantic analysis of OpenCL C: types, the address-space rules (`space`), name lookup,
//! builtin tables and checking with clang-worded diagnostics.

pub mod builtins;
mod check;
pub mod hir;
pub mod space;
pub mod types;

pub use check::check;
pub use space::AddrSpace;
