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
//!
//! # Lowering conventions
//!
//! How OpenCL C maps onto the IR (what the cpu device and the later backends expect):
//!
//! - **Scalars.** `bool` is `i1` as a value and one byte (0 or 1) in memory: load `i8` and
//!   `tobool`, store `zext` to `i8`. `char`..`long` are `i8`..`i64`, `half`/`float`/`double`
//!   are `f16`/`f32`/`f64`; signedness lives in the operations (`sdiv`/`udiv`, `ashr`/`lshr`,
//!   `slt`/`ult`, `sext`/`zext`, `stof`/`utof`, `ftos`/`ftou`). `size_t` is [`SIZE_T`] (`i64`).
//! - **Comparisons.** `cmp` gives `i1` (or `<n x i1>`). A scalar C comparison is `int`:
//!   `zext` to `i32`. A vector comparison gives -1/0 lanes: `sext` to the signed integer
//!   vector of the operands' width. `&&`, `||` and `?:` on scalars branch (block arguments
//!   carry the result); vector `?:` and `select()` use `select` with an `i1` vector made by
//!   comparing the condition's lanes (MSB for `select`, non-zero for `?:`).
//! - **Variables.** Every automatic variable whose address is taken, and every array, struct
//!   or union, gets a `stack_alloc_named` slot in the entry block; other scalars may stay in
//!   SSA values (block arguments at joins) or use slots that a later mem2reg removes.
//!   Kernel-scope `__local` variables are [`LocalVar`]s (`local_addr`); program-scope,
//!   function-scope `static` and kernel-scope `__constant` variables are [`GlobalVar`]s
//!   (`global_addr`), initializers as bytes plus [`Reloc`]s for pointers. String literals
//!   are constant `GlobalVar`s.
//! - **Aggregates.** Member access is `ptradd` by the field's byte offset from sema's layout;
//!   by-value struct assignment, argument passing and returns copy with `memcpy` into a slot
//!   (a function returning a struct takes a hidden first `ptr<private>` parameter to the
//!   caller's slot and returns nothing). Bit-fields do not exist in OpenCL C.
//! - **Pointers.** `p + i` is `ptradd p, i * sizeof(*p)` (`i` sign- or zero-extended to `i64`);
//!   `p - q` is `ptrdiff` divided (`sdiv`) by the element size; `&a[i]` and `a[i]` likewise.
//!   Implicit named→generic conversion is `to_generic`; an explicit generic→named cast is
//!   `from_generic`; `to_global`/`to_local`/`to_private` are `space_test`; `get_fence` is
//!   `get_fence`; pointer↔integer casts are `ptrtoint`/`inttoptr`; NULL is `null`.
//! - **Vectors.** Swizzle reads are `shuffle` (`extract` for one lane); swizzle writes are
//!   `insert`s (or a `shuffle` of old and new lanes) then a store of the whole vector;
//!   `v[i]` with a variable index is `extract_dyn`. Vector literals are `build` (after
//!   `extract`ing the lanes of vector parts), scalar-to-vector is `splat`. `as_T` is `bitcast`.
//!   3-component vectors occupy 4 lanes' room in memory but loads and stores touch 3.
//! - **Builtins.** Work-item functions are `work_item`; `barrier`/`work_group_barrier` are
//!   `barrier`; `mem_fence`/`read_mem_fence`/`write_mem_fence`/`atomic_work_item_fence` are
//!   `fence`; `atomic_*`/`atom_*` and the C11 `atomic_*_explicit` family are `atomic_rmw`,
//!   `atomic_cmpxchg`, `atomic_load`, `atomic_store` (`atomic_inc` is `add 1`,
//!   `atomic_flag_test_and_set` is `xchg 1`); `printf` is `printf`; `work_group_all`/`any`/
//!   `broadcast`/`reduce_*`/`scan_*` are `work_group` (signed, unsigned or float [`WgArith`]). Everything else is
//!   `call_builtin` with a [`BuiltinDecl`] naming the OpenCL function, its IR parameter types,
//!   the pointee type of each pointer parameter (`vload4`'s `float`, `frexp`'s `int`) and the
//!   C signedness of integer parameters and result. `convert_T[_sat][_rtX]` calls keep their
//!   full name; plain C casts use `conv`.
//! - **Kernels.** [`Function::kernel`] is set; each [`Param`] says how the host passes it
//!   ([`ParamKind`]), with its C type spelled for messages; a by-value struct parameter is a
//!   `ptr<private>` to the device's copy. Kernels return nothing.
//! - **Spans.** Give each instruction the span of the expression or statement it implements
//!   (a load the span of the lvalue read, a store the assignment), so device errors point at
//!   the right line.

pub mod builder;
pub mod fault;
pub mod ir;
pub mod link;
pub mod lists;
pub mod par;
pub mod passes;
pub mod print;
pub mod printf;
pub mod types;
pub mod verify;

pub use builder::Builder;
pub use ir::*;
pub use print::print_module;
pub use types::{AddrSpace, SIZE_T, Scalar, Type, pointer_bytes};
pub use verify::{VerifyError, debug_verify, verify_function, verify_module};
