//! Errors of the cpu device: launch problems (bad arguments, unknown kernel) and runtime check
//! failures, which carry the source span and the failing work-item's ids.

use oclc_syntax::Span;

/// Which runtime check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    OutOfBounds,
    NullDereference,
    /// Access through a pointer explicitly cast from generic to a space it does not point into.
    WrongSpace,
    WriteToConstant,
    BarrierDivergence,
    StepLimit,
    DataRace,
    /// A pointer to an allocation that does not exist (freed private memory, forged bits).
    InvalidPointer,
    /// `unreachable` reached, an unsupported builtin, resource exhaustion.
    Other,
}

/// A kernel fault found while running, located at a source span and a work-item.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct RuntimeError {
    pub kind: CheckKind,
    pub message: String,
    pub span: Span,
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
    /// A second location that explains the error (the other barrier, the other access).
    pub note: Option<(Span, String)>,
}

impl RuntimeError {
    /// `global id (x, y, z), local id (...), group id (...)`.
    pub fn ids(&self) -> String {
        let f = |a: [u64; 3]| format!("({}, {}, {})", a[0], a[1], a[2]);
        format!(
            "global id {}, local id {}, group id {}",
            f(self.global_id),
            f(self.local_id),
            f(self.group_id)
        )
    }
}

/// Everything a launch can fail with.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DeviceError {
    #[error("no kernel named `{0}` in the program")]
    NoSuchKernel(String),
    #[error("kernel `{kernel}` takes {expected} arguments, {given} given")]
    ArgCount {
        kernel: String,
        expected: usize,
        given: usize,
    },
    #[error("argument {index} (`{name}`): {message}")]
    BadArg {
        index: usize,
        name: String,
        message: String,
    },
    #[error("invalid ND-range: {0}")]
    BadRange(String),
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    #[error(transparent)]
    Runtime(Box<RuntimeError>),
}

impl From<RuntimeError> for DeviceError {
    fn from(e: RuntimeError) -> DeviceError {
        DeviceError::Runtime(Box::new(e))
    }
}
