//! The OpenCL C address-space system: every rule about `__global`, `__local`, `__constant`,
//! `__private` and the generic space lives here, each citing its `spec-rules.md` number.

/// The five address spaces of OpenCL C (rules 6 and 8). Defined once; every later stage
/// re-exports this enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    /// The spelling clang uses when printing types: `__global`, `__generic`, ...
    pub fn clang_name(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }
}
