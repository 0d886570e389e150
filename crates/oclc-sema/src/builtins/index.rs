//! The compile-time index of the builtin table, written by `build.rs`: gentype lines,
//! section lines, signatures, names and each name's declaring lines.

include!(concat!(env!("OUT_DIR"), "/builtin_index.rs"));
