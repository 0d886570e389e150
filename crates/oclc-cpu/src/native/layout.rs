//! What native code and the driver share: the read-only launch table (`env`, `u64`s) and the
//! io image (relaxed atomic `u64`s the shims also reach).

/// io: local linear index of the running work-item.
pub const IO_INDEX: usize = 0;
/// io: local ids of the work-item that faulted (3 words).
pub const IO_LID: usize = 1;
/// io: the result of the last shim called through its trampoline.
pub const IO_RET: usize = 4;
/// io: start of the slot image the slow path reads operands from and writes results to.
pub const IO_SLOTS: usize = 8;

/// env: work dimensions.
pub const E_DIMS: usize = 0;
/// env: the step limit of a work-item.
pub const E_MAX_STEPS: usize = 1;
/// env: the group's size (3 words).
pub const E_SIZE: usize = 2;
/// env: global id of the group's first work-item (3 words).
pub const E_GBASE: usize = 5;
/// env: global offset (3 words).
pub const E_OFFSET: usize = 8;
/// env: global size (3 words).
pub const E_GSIZE: usize = 11;
/// env: number of global allocations in the table.
pub const E_NGLOB: usize = 14;
/// env: 1 on a group's first call (every work-item starts fresh: no stop word is read, so
/// the driver need not clear them), else 0.
pub const E_FRESH: usize = 15;
/// env: work-item queries that are the same for the whole group, 4 words each (dims 0..3,
/// then the value for any other dimension).
pub const E_QUERY: usize = 16;
/// env: address of the per-work-item state words (see `lower::STATE_STOP`).
pub const E_STATE: usize = 60;
/// env: state words per work-item.
pub const E_STATE_W: usize = 61;
/// env: address of the group's `__local` table: (address, size) per allocation.
pub const E_LTAB: usize = 62;
/// env: number of entries in the `__local` table.
pub const E_NLOC: usize = 63;
/// env: the kernel's argument lanes, in parameter order.
pub const E_ARGS: usize = 64;

/// The index of a group-wide query in the `E_QUERY` table.
pub fn query_index(q: oclc_ir::WorkItemQuery) -> usize {
    use oclc_ir::WorkItemQuery as Q;
    match q {
        Q::GlobalId => 0,
        Q::LocalId => 1,
        Q::GroupId => 2,
        Q::GlobalSize => 3,
        Q::LocalSize => 4,
        Q::EnqueuedLocalSize => 5,
        Q::NumGroups => 6,
        Q::GlobalOffset => 7,
        Q::WorkDim => 8,
        Q::GlobalLinearId => 9,
        Q::LocalLinearId => 10,
    }
}

/// Words per pointer root in the launch table: the root's bits above the offset field, the
/// base address of its allocation, the bytes a load and a store may reach, and the root's
/// own offset (sign-extended).
pub const ROOT_WORDS: usize = 5;

/// Words of the work-item range in the launch table: the scalar function runs the group's
/// work-items `ITEM_FIRST..ITEM_END` (linear indices), starting at the local ids at
/// `ITEM_LID` (3 words); the vector function starts at the chunk whose first work-item is
/// `ITEM_START` (its local ids, 3 words).
pub const ITEM_WORDS: usize = 8;
pub const ITEM_FIRST: usize = 0;
pub const ITEM_LID: usize = 1;
pub const ITEM_END: usize = 4;
pub const ITEM_START: usize = 5;
