//! oclc: OpenCL C compiler and kernel runner built around the address-space system.

pub mod runfile;
