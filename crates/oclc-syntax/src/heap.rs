//! Room for a thread's allocations, made in large steps. glibc's malloc grows the heap of
//! every thread but the main one with one `mprotect` call per page it needs, so a thread
//! that builds a large tree makes tens of thousands of such calls (the parser of a
//! 100 000-line file: 50 000, a fifth of its time). [`reserve`] allocates the room in large
//! blocks and frees it: the heap keeps it, and later growth into it makes no call. Other
//! allocators just recycle the blocks. [`prefault`] also touches every page, so a thread with
//! nothing else to do yet can take the page faults of the allocations it will make later.

/// Block size: under glibc's default mmap threshold (128 KiB), so blocks come from the heap.
pub const BLOCK: usize = 120 << 10;

/// Most room reserved at once.
const MAX: usize = 512 << 20;

/// Makes room for about `bytes` of allocations on this thread (nothing under a block).
pub fn reserve(bytes: usize) {
    make_room(bytes, false);
}

/// [`reserve`], writing every byte of the room once: the kernel maps its pages now rather
/// than on first use.
pub fn prefault(bytes: usize) {
    make_room(bytes, true);
}

fn make_room(bytes: usize, touch: bool) {
    let n = bytes.min(MAX) / BLOCK;
    if n == 0 {
        return;
    }
    let mut blocks: Vec<Vec<u8>> = (0..n)
        .map(|_| {
            let mut b = Vec::with_capacity(BLOCK);
            if touch {
                b.resize(BLOCK, 0);
            }
            b
        })
        .collect();
    // The last block stays allocated (a few KiB, never freed): were the heap's last piece
    // empty, glibc would unmap it (its pieces are at most 64 MiB) and the room with it.
    if let Some(last) = blocks.pop() {
        std::mem::forget(last);
    }
    // Freed first to last, each block merges with the free one before it.
    drop(blocks);
}
