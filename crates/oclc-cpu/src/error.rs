//! Errors of the cpu device: launch problems (bad arguments, unknown kernel) and runtime check
//! failures, which carry the source span and the failing work-item's ids.

pub use oclc_ir::fault::{CheckKind, RuntimeError};

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
    /// An allocation the host refused, or one larger than the device allows.
    #[error("{0}")]
    Memory(String),
    /// A kernel needs more `__local` or `__constant` memory than the device has.
    #[error("{0}")]
    Resources(String),
    /// An environment variable that sets a device limit has an invalid value.
    #[error("invalid device setting: {0}")]
    Setting(String),
    #[error(transparent)]
    Runtime(Box<RuntimeError>),
}

impl From<RuntimeError> for DeviceError {
    fn from(e: RuntimeError) -> DeviceError {
        DeviceError::Runtime(Box::new(e))
    }
}
