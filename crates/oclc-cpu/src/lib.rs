//! The embedded cpu device.

pub mod runtime;
