//! Pure-Rust implementations of the OpenCL builtin math, integer, common and conversion functions for the cpu device.
