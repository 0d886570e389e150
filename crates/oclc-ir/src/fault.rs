//! Runtime faults of a kernel, shared by the devices: which check failed ([`CheckKind`]), the
//! memory fault behind it ([`Fault`]), its message as every device words it
//! ([`fault_message`]) and the located error a launch ends with ([`RuntimeError`]).

use crate::AddrSpace;
use oclc_syntax::{Span, Symbol};

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

/// Why an access failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    Null,
    OutOfBounds {
        name: Symbol,
        space: AddrSpace,
        size: u64,
        /// Byte offset from the allocation's start; negative below it.
        offset: i64,
        len: u64,
    },
    WrongSpace {
        cast_to: AddrSpace,
        points_to: AddrSpace,
    },
    WriteConstant {
        name: Symbol,
    },
    /// A pointer to an allocation that no longer (or never) existed.
    Dangling {
        space: AddrSpace,
    },
    /// A `__private` pointer of another work-item of the group (its local linear index).
    OtherPrivate {
        owner: u32,
    },
    /// A raw address (an SVM pointer, see raw SVM address) that no SVM allocation of the
    /// launch holds or is near.
    Unmapped {
        addr: u64,
    },
    /// A raw address inside an SVM allocation (`base`, `size` bytes) that the launch was
    /// not given (neither an argument nor named by CL_KERNEL_EXEC_INFO_SVM_PTRS).
    Unbound {
        addr: u64,
        base: u64,
        size: u64,
    },
}

/// A space as messages name it (`__global`, ...).
pub fn space_label(s: AddrSpace) -> &'static str {
    s.clang_name()
}

/// The message for a memory fault on a `what` ("read", "write", "atomic operation");
/// `owner_ids` gives the ids of a work-item of the group by its local linear index (`None`
/// when there is no such work-item).
pub fn fault_message(
    f: &Fault,
    what: &str,
    owner_ids: &dyn Fn(u32) -> Option<[u64; 3]>,
) -> (CheckKind, String) {
    match f {
        Fault::Null => (
            CheckKind::NullDereference,
            format!("{what} through a NULL pointer"),
        ),
        Fault::OutOfBounds {
            name,
            space,
            size,
            offset,
            len,
        } => (
            CheckKind::OutOfBounds,
            format!(
                "out-of-bounds {what} of {len} byte{} at offset {offset} of {} {} ({size} bytes)",
                if *len == 1 { "" } else { "s" },
                space_label(*space),
                name.as_str()
            ),
        ),
        Fault::WrongSpace { cast_to, points_to } => (
            CheckKind::WrongSpace,
            format!(
                "{what} through a pointer cast from generic to `{}`, but it points into {} memory",
                space_label(*cast_to),
                space_label(*points_to)
            ),
        ),
        Fault::WriteConstant { name } => (
            CheckKind::WriteToConstant,
            format!("{what} to __constant memory ({})", name.as_str()),
        ),
        Fault::Dangling { space } => (
            CheckKind::InvalidPointer,
            format!(
                "{what} through an invalid {} pointer (its allocation does not exist)",
                space_label(*space)
            ),
        ),
        Fault::OtherPrivate { owner } => match owner_ids(*owner) {
            Some(g) => (
                CheckKind::OtherPrivate,
                format!(
                    "{what} of the private memory of another work-item (global id ({}, {}, {})): a __private pointer is valid only in the work-item that made it",
                    g[0], g[1], g[2]
                ),
            ),
            None => fault_message(
                &Fault::Dangling {
                    space: AddrSpace::Private,
                },
                what,
                owner_ids,
            ),
        },
        Fault::Unmapped { addr } => (
            CheckKind::InvalidPointer,
            format!(
                "{what} through __global pointer {addr:#x}, which is in no buffer or SVM \
                 allocation of the launch (an SVM allocation reached through memory must be \
                 a kernel argument or named by clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS))"
            ),
        ),
        Fault::Unbound { addr, base, size } => (
            CheckKind::InvalidPointer,
            format!(
                "{what} through __global pointer {addr:#x}, at offset {} of the SVM allocation \
                 at {base:#x} ({size} bytes), which the launch was not given: pass it as a \
                 kernel argument or name it with \
                 clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)",
                addr - base
            ),
        ),
    }
}
