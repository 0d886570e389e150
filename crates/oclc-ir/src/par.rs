//! The thread pool the compiler's own parallel work runs on. It is not rayon's global pool:
//! a caller may check programs from global-pool workers and block them (each joins the
//! thread its check runs on), and work queued behind them would then never run.

use std::sync::OnceLock;

/// Runs `f` (which may use rayon's parallel iterators) on the compiler's pool: one thread per
/// core, whose jobs never block on other threads. On a worker of a rayon pool already (whose
/// parallel iterators then help rather than block), or without a pool (no thread could be
/// started), `f` runs on the calling thread.
pub fn install<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        return f();
    }
    match pool() {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// Makes room for about `bytes` of allocations, spread over the pool's threads (see
/// [`oclc_syntax::heap::reserve`]); nothing on a worker of another pool or without a pool.
pub fn reserve_heaps(bytes: usize) {
    if rayon::current_thread_index().is_some() {
        return;
    }
    if let Some(p) = pool() {
        let each = bytes / p.current_num_threads().max(1);
        if each >= oclc_syntax::heap::BLOCK {
            p.broadcast(|_| oclc_syntax::heap::reserve(each));
        }
    }
}

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("oclc-par-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}
