//! oclc: OpenCL C compiler and kernel runner built around the address-space system.
//!
//! The `check` front door ([`check_source`]) runs preprocess → parse → sema and applies the
//! warning policy; [`render`] prints diagnostics as clang does, [`json`] as JSON, and [`verify`]
//! implements clang's `-verify` annotation checking.

pub mod regex;
pub mod render;
pub mod runfile;
pub mod verify;
pub mod warnings;
