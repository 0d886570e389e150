//! Why a module could not be turned into PTX.

use oclc_syntax::Span;

/// An emission failure: never partial or wrong PTX, always one of these.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PtxError {
    /// An IR operation or builtin the PTX backend does not implement yet.
    #[error("{location}: the cuda device does not support {what} yet")]
    Unsupported {
        what: String,
        span: Span,
        /// `file:line:col` of the span, or `function NAME` without a source map.
        location: String,
    },
    /// The module breaks an IR invariant the backend relies on.
    #[error("{location}: invalid IR for PTX: {message}")]
    Invalid {
        message: String,
        span: Span,
        location: String,
    },
}

impl PtxError {
    pub fn span(&self) -> Span {
        match self {
            PtxError::Unsupported { span, .. } | PtxError::Invalid { span, .. } => *span,
        }
    }
}
