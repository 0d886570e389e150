//! Semantic analysis of OpenCL C: types, the address-space rules, name lookup, the builtin
//! library and checking with clang-worded diagnostics.
//!
//! - [`check`] turns a parsed translation unit into a [`hir::Program`] (typed, name-resolved,
//!   every implicit conversion explicit), reporting diagnostics as clang words them.
//! - [`space`] holds every address-space rule, one cited function each; start reading there.
//! - [`types`] is the interned type representation and clang's type printing.
//! - [`builtins`] is the OpenCL builtin function table with overload resolution.
//!
//! Warnings carry their clang `-W` group in `Diagnostic::group`; [`DEFAULT_OFF_GROUPS`] and
//! [`PEDANTIC_GROUPS`] list the ones sema emits that clang does not show by default. Notes
//! that go beyond clang start with [`space::BEYOND_CLANG_NOTE_PREFIX`].

pub mod builtins;
mod check;
use oclc_syntax::fxhash;
pub mod hir;
pub mod space;
pub mod types;

pub use check::{
    Bodies, DEFAULT_OFF_GROUPS, ItemChecker, MAX_DEPTH, PEDANTIC_GROUPS, check, check_items,
    check_with,
};
pub use space::AddrSpace;
