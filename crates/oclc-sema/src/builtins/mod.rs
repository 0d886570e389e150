//! The OpenCL C builtin library: declarations from a table, with gentype expansion, gating and overload resolution.
