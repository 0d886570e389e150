//! OpenCL C `printf` on the cpu device: the formatting and the printf buffer are shared with
//! the cuda device ([`oclc_ir::printf`]); this module reads `%s` strings from device memory.

use crate::memory::{Fault, Mem};
use oclc_ir::Type;
pub use oclc_ir::printf::{
    DEFAULT_PRINTF_BUFFER_SIZE, PRINTF_BUFFER_ENV, PrintfBuffer, buffer_size_from_env, cut_message,
};

/// Formats `fmt` with the argument lanes in `args` (each `(lanes, type)`), reading `%s`
/// strings (at most 1 MiB each) from `mem`; `None` for a malformed format.
pub fn format(
    fmt: &[u8],
    args: &[(Vec<u64>, Type)],
    mem: &mut Mem,
) -> Result<Option<String>, Fault> {
    oclc_ir::printf::format(fmt, args, &mut |p| mem.read_cstr(p, 1 << 20))
}
