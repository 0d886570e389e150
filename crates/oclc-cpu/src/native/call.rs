//! The one place native code is entered.

use std::sync::atomic::AtomicU64;

/// Runs the compiled work-group function at code address `entry` over the launch table
/// `env` and the io image `io`; returns its status (0: every work-item finished).
#[allow(unsafe_code)]
pub(crate) fn run(entry: usize, env: &[u64], io: &[AtomicU64], state: &[AtomicU64]) -> u64 {
    // `env` holds `state`'s address (E_STATE): the borrow keeps it alive for the call.
    let _ = state;
    let env_ptr = env.as_ptr();
    let io_ptr = io.as_ptr().cast::<u64>().cast_mut();
    // SAFETY: `entry` is the finalized address of a function we generated with the
    // signature `extern "C" fn(*const u64, *mut u64) -> u64`, and its JIT module is kept
    // alive by the compiled kernel that the caller borrows. The code reads `env` only
    // within the layout the driver built for this launch (the global table sized by the
    // launch's allocations), writes `io` only within the slot image sized for the kernel's
    // functions and `state` within the words of the group's work-items (`AtomicU64`s, so the shims' concurrent use through the same thread is
    // interior mutability), and every memory access it makes is checked against the
    // (base, size) tables that `env` names: the launch's global storages (atomic words)
    // and the group's `__local` arena, which does not grow while the group runs; all of
    // them outlive this call. Private memory and everything else go through the shims,
    // which use safe Rust on the same per-thread state.
    unsafe {
        let f = std::mem::transmute::<usize, extern "C" fn(*const u64, *mut u64) -> u64>(entry);
        f(env_ptr, io_ptr)
    }
}
