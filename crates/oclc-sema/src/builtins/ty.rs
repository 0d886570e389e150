//! The small, `Copy` type language of builtin signatures (`BTy`), also used to describe call
//! arguments to overload resolution. Sema maps its own types onto it (and back).
//!
//! Typedef sugar (`size_t`, `cl_mem_fence_flags`, `atomic_flag`, ...) is kept so signatures print
//! as clang prints them; comparisons go through [`Scalar::canon`].

use crate::space::AddrSpace;
use std::fmt;

/// Scalar types, including the typedef names builtin signatures use. `size_t` and friends are
/// 64-bit (the spir64/x86_64 data layout the project targets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
    /// `size_t` (typedef of `ulong`).
    Size,
    /// `ptrdiff_t` (typedef of `long`).
    PtrDiff,
    /// `intptr_t` (typedef of `long`).
    IntPtr,
    /// `uintptr_t` (typedef of `ulong`).
    UIntPtr,
    /// `cl_mem_fence_flags` (typedef of `uint`).
    MemFenceFlags,
    /// `clk_profiling_info` (typedef of `int`).
    ProfilingInfo,
}

impl Scalar {
    /// The element types a vector may have, in clang's `TLAll` order.
    pub const VECTOR_ELEMS: [Scalar; 11] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Float,
        Scalar::Double,
        Scalar::Half,
    ];

    /// The type with typedef sugar removed.
    pub fn canon(self) -> Scalar {
        match self {
            Scalar::Size | Scalar::UIntPtr => Scalar::ULong,
            Scalar::PtrDiff | Scalar::IntPtr => Scalar::Long,
            Scalar::MemFenceFlags => Scalar::UInt,
            Scalar::ProfilingInfo => Scalar::Int,
            s => s,
        }
    }

    /// The spelling clang prints.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
            Scalar::Size => "size_t",
            Scalar::PtrDiff => "ptrdiff_t",
            Scalar::IntPtr => "intptr_t",
            Scalar::UIntPtr => "uintptr_t",
            Scalar::MemFenceFlags => "cl_mem_fence_flags",
            Scalar::ProfilingInfo => "clk_profiling_info",
        }
    }

    /// Parses a scalar or typedef spelling (`uint`, `size_t`, ...).
    pub fn from_name(s: &str) -> Option<Scalar> {
        Some(match s {
            "bool" => Scalar::Bool,
            "char" => Scalar::Char,
            "uchar" => Scalar::UChar,
            "short" => Scalar::Short,
            "ushort" => Scalar::UShort,
            "int" => Scalar::Int,
            "uint" => Scalar::UInt,
            "long" => Scalar::Long,
            "ulong" => Scalar::ULong,
            "half" => Scalar::Half,
            "float" => Scalar::Float,
            "double" => Scalar::Double,
            "size_t" => Scalar::Size,
            "ptrdiff_t" => Scalar::PtrDiff,
            "intptr_t" => Scalar::IntPtr,
            "uintptr_t" => Scalar::UIntPtr,
            "cl_mem_fence_flags" => Scalar::MemFenceFlags,
            "clk_profiling_info" => Scalar::ProfilingInfo,
            _ => return None,
        })
    }

    /// Size in bytes.
    pub fn size(self) -> u32 {
        match self.canon() {
            Scalar::Bool | Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            _ => 8,
        }
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self.canon(),
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        ) || self.is_float()
    }

    /// Integer conversion rank (C 6.3.1.1): bool < char < short < int < long.
    fn int_rank(self) -> u8 {
        match self.canon() {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::Int | Scalar::UInt => 3,
            _ => 4,
        }
    }

    /// Whether C's integral promotion turns `self` into `int` (every integer type of lower rank
    /// than `int`: all their values fit in `int`).
    pub fn promotes_to_int(self) -> bool {
        self.is_integer() && self.int_rank() < 3
    }
}

/// The image types, without their access qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageKind {
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image2dDepth,
    Image2dArrayDepth,
    Image2dMsaa,
    Image2dArrayMsaa,
    Image2dMsaaDepth,
    Image2dArrayMsaaDepth,
    Image3d,
}

impl ImageKind {
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Image1d => "image1d_t",
            ImageKind::Image1dArray => "image1d_array_t",
            ImageKind::Image1dBuffer => "image1d_buffer_t",
            ImageKind::Image2d => "image2d_t",
            ImageKind::Image2dArray => "image2d_array_t",
            ImageKind::Image2dDepth => "image2d_depth_t",
            ImageKind::Image2dArrayDepth => "image2d_array_depth_t",
            ImageKind::Image2dMsaa => "image2d_msaa_t",
            ImageKind::Image2dArrayMsaa => "image2d_array_msaa_t",
            ImageKind::Image2dMsaaDepth => "image2d_msaa_depth_t",
            ImageKind::Image2dArrayMsaaDepth => "image2d_array_msaa_depth_t",
            ImageKind::Image3d => "image3d_t",
        }
    }

    pub fn from_name(s: &str) -> Option<ImageKind> {
        const ALL: [ImageKind; 12] = [
            ImageKind::Image1d,
            ImageKind::Image1dArray,
            ImageKind::Image1dBuffer,
            ImageKind::Image2d,
            ImageKind::Image2dArray,
            ImageKind::Image2dDepth,
            ImageKind::Image2dArrayDepth,
            ImageKind::Image2dMsaa,
            ImageKind::Image2dArrayMsaa,
            ImageKind::Image2dMsaaDepth,
            ImageKind::Image2dArrayMsaaDepth,
            ImageKind::Image3d,
        ];
        ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Image access qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::ReadOnly => "__read_only",
            Access::WriteOnly => "__write_only",
            Access::ReadWrite => "__read_write",
        }
    }
}

/// An `_Atomic` type: `atomic_int` is `Atomic { value: Int, flag: false }`; `atomic_flag` is the
/// typedef of `atomic_int` clang declares, kept apart for printing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    pub value: Scalar,
    pub flag: bool,
}

impl Atomic {
    pub fn name(self) -> &'static str {
        if self.flag {
            return "atomic_flag";
        }
        match self.value {
            Scalar::Int => "atomic_int",
            Scalar::UInt => "atomic_uint",
            Scalar::Long => "atomic_long",
            Scalar::ULong => "atomic_ulong",
            Scalar::Float => "atomic_float",
            Scalar::Double => "atomic_double",
            Scalar::Half => "atomic_half",
            Scalar::IntPtr => "atomic_intptr_t",
            Scalar::UIntPtr => "atomic_uintptr_t",
            Scalar::Size => "atomic_size_t",
            Scalar::PtrDiff => "atomic_ptrdiff_t",
            _ => "_Atomic",
        }
    }

    fn canon_eq(self, other: Atomic) -> bool {
        self.value.canon() == other.value.canon()
    }
}

/// What a pointer points to. `Other(id)` stands for any type builtins never name (structs,
/// unions, pointers, arrays): sema passes an identity so equal types compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pointee {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Atomic(Atomic),
    Event,
    ClkEvent,
    /// A function type: not an object type, so not convertible to `void *`.
    Function(u32),
    Other(u32),
}

/// A pointer type: pointee, its qualifiers and its address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ptr {
    pub pointee: Pointee,
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

/// A type in a builtin signature, or the type of a call argument (after array and function
/// decay, top-level qualifiers dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BTy {
    Void,
    Scalar(Scalar),
    /// An OpenCL vector (`float4`): element and width 2, 3, 4, 8 or 16.
    Vector(Scalar, u8),
    Ptr(Ptr),
    Image(ImageKind, Access),
    Sampler,
    Event,
    ClkEvent,
    Queue,
    ReserveId,
    /// `ndrange_t` (a struct typedef in opencl-c-base.h).
    NDRange,
    /// The `memory_order` enum.
    MemoryOrder,
    /// The `memory_scope` enum.
    MemoryScope,
    Atomic(Atomic),
    /// A `cl_intel_device_side_avc_motion_estimation` type.
    Avc(crate::types::Avc),
    /// A user enum (argument only): identity and the type it promotes to (`int` or `uint`).
    Enum(u32, Scalar),
    /// Any other argument type (struct, union, pipe, ...): identity for equality.
    Other(u32),
}

impl BTy {
    /// Shorthand for a scalar or, with `width > 1`, a vector.
    pub fn vec(elem: Scalar, width: u8) -> BTy {
        if width <= 1 {
            BTy::Scalar(elem)
        } else {
            BTy::Vector(elem, width)
        }
    }

    /// Arithmetic (C 6.2.5): integer, floating and enum types.
    pub fn is_arithmetic(self) -> bool {
        matches!(
            self,
            BTy::Scalar(_) | BTy::Enum(..) | BTy::MemoryOrder | BTy::MemoryScope
        )
    }

    /// The size in bytes, where it has one a builtin cares about (`as_T` checks). Vectors of 3
    /// occupy 4 elements.
    pub fn size(self) -> Option<u32> {
        match self {
            BTy::Scalar(s) => Some(s.size()),
            BTy::Vector(s, n) => Some(s.size() * if n == 3 { 4 } else { n as u32 }),
            BTy::Ptr(_) | BTy::Event | BTy::ClkEvent | BTy::Queue | BTy::ReserveId => Some(8),
            BTy::Sampler => Some(4),
            BTy::MemoryOrder | BTy::MemoryScope | BTy::Enum(..) => Some(4),
            BTy::Atomic(a) => Some(a.value.size()),
            BTy::Avc(_) => Some(8),
            _ => None,
        }
    }
}

impl fmt::Display for Pointee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pointee::Void => f.write_str("void"),
            Pointee::Scalar(s) => f.write_str(s.name()),
            Pointee::Vector(s, n) => write!(f, "{}{}", s.name(), n),
            Pointee::Atomic(a) => f.write_str(a.name()),
            Pointee::Event => f.write_str("event_t"),
            Pointee::ClkEvent => f.write_str("clk_event_t"),
            Pointee::Function(id) => write!(f, "<function #{id}>"),
            Pointee::Other(id) => write!(f, "<type #{id}>"),
        }
    }
}

/// Prints as clang prints the type (`const __global float *`, `__read_only image2d_t`).
impl fmt::Display for BTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BTy::Void => f.write_str("void"),
            BTy::Scalar(s) => f.write_str(s.name()),
            BTy::Vector(s, n) => write!(f, "{}{}", s.name(), n),
            BTy::Ptr(p) => {
                if p.is_const {
                    f.write_str("const ")?;
                }
                if p.is_volatile {
                    f.write_str("volatile ")?;
                }
                write!(f, "{} {} *", p.space.clang_name(), p.pointee)
            }
            BTy::Image(k, a) => write!(f, "{} {}", a.name(), k.name()),
            BTy::Sampler => f.write_str("sampler_t"),
            BTy::Event => f.write_str("event_t"),
            BTy::ClkEvent => f.write_str("clk_event_t"),
            BTy::Queue => f.write_str("queue_t"),
            BTy::ReserveId => f.write_str("reserve_id_t"),
            BTy::NDRange => f.write_str("ndrange_t"),
            BTy::MemoryOrder => f.write_str("memory_order"),
            BTy::MemoryScope => f.write_str("memory_scope"),
            BTy::Atomic(a) => f.write_str(a.name()),
            BTy::Avc(a) => f.write_str(a.name()),
            BTy::Enum(id, _) => write!(f, "<enum #{id}>"),
            BTy::Other(id) => write!(f, "<type #{id}>"),
        }
    }
}

/// Type identity ignoring typedef sugar (clang's canonical-type equality).
pub fn same_canon(a: BTy, b: BTy) -> bool {
    match (a, b) {
        (BTy::Scalar(x), BTy::Scalar(y)) => x.canon() == y.canon(),
        (BTy::Vector(x, n), BTy::Vector(y, m)) => x.canon() == y.canon() && n == m,
        (BTy::Ptr(p), BTy::Ptr(q)) => {
            p.space == q.space
                && p.is_const == q.is_const
                && p.is_volatile == q.is_volatile
                && same_pointee(p.pointee, q.pointee)
        }
        (BTy::Atomic(x), BTy::Atomic(y)) => x.canon_eq(y),
        _ => a == b,
    }
}

/// Pointee identity ignoring typedef sugar.
pub fn same_pointee(a: Pointee, b: Pointee) -> bool {
    match (a, b) {
        (Pointee::Scalar(x), Pointee::Scalar(y)) => x.canon() == y.canon(),
        (Pointee::Vector(x, n), Pointee::Vector(y, m)) => x.canon() == y.canon() && n == m,
        (Pointee::Atomic(x), Pointee::Atomic(y)) => x.canon_eq(y),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_clang() {
        let p = BTy::Ptr(Ptr {
            pointee: Pointee::Scalar(Scalar::Float),
            space: AddrSpace::Global,
            is_const: true,
            is_volatile: false,
        });
        assert_eq!(p.to_string(), "const __global float *");
        assert_eq!(BTy::Vector(Scalar::UInt, 4).to_string(), "uint4");
        assert_eq!(
            BTy::Image(ImageKind::Image2d, Access::ReadOnly).to_string(),
            "__read_only image2d_t"
        );
    }

    #[test]
    fn sugar_is_transparent() {
        assert!(same_canon(
            BTy::Scalar(Scalar::Size),
            BTy::Scalar(Scalar::ULong)
        ));
        assert!(!same_canon(
            BTy::Scalar(Scalar::Size),
            BTy::Scalar(Scalar::Long)
        ));
        assert_eq!(BTy::Vector(Scalar::Float, 3).size(), Some(16));
    }
}
