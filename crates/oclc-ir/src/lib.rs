//! SSA IR with address-space-typed pointers: the form every OpenCL C program is lowered to
//! before it runs on a device.
//!
//! # Invariants
//!
//! These hold for every [`Module`] that [`verify::verify_module`] accepts, and every pass keeps
//! them:
//!
//! - **SSA with block parameters.** Each [`Value`] is defined once, by an instruction result
//!   or a block parameter; there are no phi nodes. Every use is dominated by its definition.
//!   A branch passes exactly one argument per parameter of its target, of the same type.
//! - **Blocks.** Every block is non-empty and ends in exactly one terminator (`ret`, `br`,
//!   `cond_br`, `switch`, `unreachable`), which appears nowhere else. Block 0 is the entry;
//!   its parameters are the function's parameters and no branch targets it.
//! - **Types.** Values are scalars (`i1`..`i64`, `f16`..`f64`), vectors of 2, 3, 4, 8 or 16
//!   scalars, or opaque pointers `ptr<space>`. Integers are sign-less; the operation says
//!   how bits are read. Aggregates (structs, unions, arrays) exist only in memory and are
//!   reached by byte offsets (`ptradd`) with layouts fixed by the front end; by-value copies
//!   are `memcpy`.
//! - **Address spaces.** A pointer's type names its space ([`AddrSpace`]). Loads and stores
//!   take the space from the pointer. The only ways to change a pointer's space are
//!   `to_generic` (private/global/local → generic), `from_generic` (an explicit cast, checked
//!   by the device when the pointer is used) and `space_test` (`to_global`/`to_local`/
//!   `to_private`: the pointer or NULL); `inttoptr` makes a pointer from an integer.
//!   Nothing converts to or from `constant` except `inttoptr`. NULL is `null` of any space.
//! - **Spans.** Every instruction carries the source [`Span`](oclc_syntax::Span) it was
//!   lowered from, so device errors point at a source line.
//! - **Calls.** The call graph is acyclic (OpenCL C forbids recursion). Builtins are called
//!   by a [`BuiltinDecl`]: name plus resolved signature.
//! - **Memory objects.** Program-scope and function-scope `static` variables are
//!   [`GlobalVar`]s (global or constant space) whose contents persist across launches;
//!   kernel-scope `__local` variables are [`LocalVar`]s, instantiated per work-group;
//!   everything private lives in `stack_alloc` slots, freed when the function returns.

pub mod builder;
pub mod ir;
pub mod print;
pub mod types;
pub mod verify;

pub use builder::Builder;
pub use ir::*;
pub use print::print_module;
pub use types::{AddrSpace, SIZE_T, Scalar, Type, pointer_bytes};
pub use verify::{VerifyError, debug_verify, verify_function, verify_module};
