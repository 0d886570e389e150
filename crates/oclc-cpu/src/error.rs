//! Errors of the cpu device: launch problems (bad arguments, unknown kernel) and runtime check
//! failures, which carry the source span and the failing work-item's ids.

use oclc_syntax::Span;

/// Which runtime check failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// An access at an address not aligned for its type (an atomic, `*(float4 *)p` with `p`
    /// not 16-byte aligned, an `int` at an odd offset): undefined, and a fault on GPUs.
    Misaligned,
    /// A dereferenced pointer to the private memory of another work-item.
    OtherPrivate,
    /// `unreachable` reached, an unsupported builtin, resource exhaustion.
    #[default]
    Other,
}

/// A kernel fault found while running, located at a source span and a work-item.
#[derive(Clone, Debug, Default, PartialEq, thiserror::Error)]
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
    /// What `printf` wrote before the fault: the output of the work-groups before the
    /// failing one, then the failing group's up to the fault (as a launch orders it).
    pub printf: String,
    /// Whether the launch's printf buffer filled up before the fault, so that some output
    /// was dropped.
    pub printf_truncated: bool,
}

impl RuntimeError {
    /// The error as a diagnostic for the driver's renderer: the message at the span, a note
    /// with the work-item's ids, and the explaining note (the other barrier) if any.
    pub fn to_diagnostic(&self) -> oclc_syntax::Diagnostic {
        let mut d = oclc_syntax::Diagnostic::error(self.span, self.message.clone());
        d.notes.push(oclc_syntax::Note::new(
            Span::DUMMY,
            format!("in the work-item with {}", self.ids()),
        ));
        if let Some((span, message)) = &self.note {
            d.notes.push(oclc_syntax::Note::new(*span, message.clone()));
        }
        d
    }

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
