//! Run files (`oclc run job.toml`): parsing, validation against the kernel's signature, value
//! specs, expectations, and the outputs of `oclc run` that need no device.
//!
//! A run file describes one launch:
//!
//! ```toml
//! source = "memcpy.cl"            # OpenCL C file, relative to this file; or code = """...""" inline
//! options = "-cl-std=CL2.0"       # build options, as for oclc check
//! kernel = "copy"
//! global = [1024]                 # 1 to 3 dimensions
//! local = [64]                    # optional; the device picks a size if absent
//! offset = [0]                    # optional
//!
//! [args]                          # every kernel parameter, by its name
//! src = { buffer = "uchar", len = 1024, init = "range" }
//! dst = { buffer = "uchar", len = 1024 }          # no init: zero
//! tmp = { local = "uchar", len = 64 }             # a __local pointer parameter
//! n   = { value = 1024 }                          # scalar; a vector is a list of values
//!
//! [expect]                        # optional, by parameter name
//! dst = { equals = "range" }      # floats may add tol = 1e-6 or ulp = 2
//! ```
//!
//! The flow: [`RunFile::load`] checks every field that needs no kernel; the driver builds the
//! program, fills a [`KernelSignature`] and calls [`RunFile::prepare`] for the argument bytes
//! and expected contents; after the launch, [`PreparedExpectation::check`] gives each report
//! line. Errors name the file, line, column and field:
//! `job.toml:5:22: error: args.src.len: expected a positive integer`.
//!
//! Value specs (`init`, `equals`) for `len` elements of a type: `"zero"`, `"range"` (component
//! k is k, integers wrapping to the type's width), a list of exactly `len` values (vector
//! elements as lists of their components, or all components flat), `{ fill = V }`,
//! `{ range = [START, STEP] }` (START must fit the type; integers wrap), `{ random = SEED }`
//! (see [`random`]) and `{ file = "x.bin" }` (the buffer's exact bytes, little-endian, a
//! 3-vector taking the room of a 4-vector: a regular file must have exactly the buffer's size;
//! from a device or FIFO such as `/dev/urandom` exactly the buffer's bytes are read, once).
//! Literal values out of the type's range are errors.
//!
//! ND-ranges are checked as clEnqueueNDRangeKernel checks them: the work-items of `global`
//! must fit size_t (2^64 - 1), and a work-group (`local`) holds at most 1024 work-items.

mod elem;
mod error;
mod expect;
mod half;
mod job;
mod node;
mod output;
pub mod random;
mod signature;
mod value;

pub use elem::{ElemType, ScalarType, VECTOR_WIDTHS};
pub use error::{JobErrors, LineCol, RunFileError};
pub use expect::{ExpectOutcome, components_match, format_component, format_element, ulp_distance};
pub use half::{f16_bits_to_f64, f64_to_f16_bits};
pub use job::{
    ArgKind, ArgSpec, Expectation, MAX_BUFFER_BYTES, MAX_RUN_FILE_BYTES, ProgramSource, RunFile,
    ScalarValue, Tolerance,
};
pub use output::{
    DUMP_ROW_COMPONENTS, TimingSummary, format_dump, npy_bytes, write_npy, write_npy_from,
};
pub use signature::{
    BufferSpace, KernelSignature, Launch, LaunchArg, ParamInfo, ParamKind, Pointee,
    PreparedExpectation,
};
pub use value::{CHUNK_BYTES, Lit, ValueSpec, component};

/// The exit status of `oclc run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// The launch ran and every expectation holds.
    Passed,
    /// The launch ran and at least one expectation fails.
    ExpectationFailed,
    /// The program did not build, or the run file was rejected: nothing ran.
    BuildError,
    /// A runtime check (out-of-bounds access, barrier divergence, ...) stopped the launch.
    RuntimeCheck,
}

impl RunStatus {
    pub const PASSED: u8 = 0;
    pub const EXPECTATION_FAILED: u8 = 1;
    pub const BUILD_ERROR: u8 = 2;
    pub const RUNTIME_CHECK: u8 = 3;

    pub fn code(self) -> u8 {
        match self {
            RunStatus::Passed => Self::PASSED,
            RunStatus::ExpectationFailed => Self::EXPECTATION_FAILED,
            RunStatus::BuildError => Self::BUILD_ERROR,
            RunStatus::RuntimeCheck => Self::RUNTIME_CHECK,
        }
    }

    /// `Passed` when every outcome passed, else `ExpectationFailed`.
    pub fn from_outcomes(outcomes: &[ExpectOutcome]) -> RunStatus {
        if outcomes.iter().all(ExpectOutcome::passed) {
            RunStatus::Passed
        } else {
            RunStatus::ExpectationFailed
        }
    }
}

impl From<RunStatus> for std::process::ExitCode {
    fn from(s: RunStatus) -> Self {
        std::process::ExitCode::from(s.code())
    }
}
