//! How checked C types map onto IR value types, sizes and signedness.

use oclc_ir::{AddrSpace, Scalar as IrScalar, Type};
use oclc_sema::types::{ArrayLen, Opaque, QualType, Scalar, TypeKind, TypeTable};

/// What kind of object a C type describes, as lowering sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `void`.
    Void,
    /// Held in an SSA value of this IR type (scalars, vectors, pointers, enums, handles).
    Value(Type),
    /// Lives only in memory (structs, unions, arrays); values are pointers to it.
    Aggregate,
}

/// IR element type of a C scalar (`bool` is `i1`).
pub fn ir_scalar(s: Scalar) -> IrScalar {
    match s {
        Scalar::Bool => IrScalar::I1,
        Scalar::Char | Scalar::SChar | Scalar::UChar => IrScalar::I8,
        Scalar::Short | Scalar::UShort => IrScalar::I16,
        Scalar::Int | Scalar::UInt => IrScalar::I32,
        Scalar::Long | Scalar::ULong | Scalar::LongLong | Scalar::ULongLong => IrScalar::I64,
        Scalar::Half => IrScalar::F16,
        Scalar::Float => IrScalar::F32,
        Scalar::Double => IrScalar::F64,
    }
}

/// The address space a pointer to `pointee` points into. Sema always deduces one; private is
/// the OpenCL 1.x default if it ever did not.
pub fn pointee_space(types: &TypeTable, pointee: QualType) -> AddrSpace {
    types
        .object_space(pointee)
        .and_then(|s| s.named())
        .unwrap_or(AddrSpace::Private)
}

/// The space an object of type `qt` lives in (its own qualifier).
pub fn object_space(types: &TypeTable, qt: QualType) -> Option<AddrSpace> {
    types.object_space(qt).and_then(|s| s.named())
}

pub fn shape(types: &TypeTable, qt: QualType) -> Shape {
    shape_depth(types, qt, 0)
}

fn shape_depth(types: &TypeTable, qt: QualType, depth: u32) -> Shape {
    match types.ckind(qt) {
        TypeKind::Void => Shape::Void,
        TypeKind::Scalar(s) => Shape::Value(Type::Scalar(ir_scalar(*s))),
        TypeKind::Enum(_) => Shape::Value(Type::I32),
        TypeKind::Vector(s, n) => Shape::Value(Type::vec(ir_scalar(*s), *n)),
        TypeKind::Pointer(p) => Shape::Value(Type::Ptr(pointee_space(types, *p))),
        TypeKind::Array(..) | TypeKind::Record(_) => Shape::Aggregate,
        TypeKind::Atomic(e) if depth < 8 => shape_depth(types, *e, depth + 1),
        TypeKind::Opaque(Opaque::Sampler) => Shape::Value(Type::I32),
        TypeKind::Opaque(_) | TypeKind::Image(..) | TypeKind::Pipe(..) => Shape::Value(Type::I64),
        TypeKind::Atomic(_) | TypeKind::Function(_) | TypeKind::Typedef(_) | TypeKind::Error => {
            Shape::Void
        }
    }
}

/// The IR value type of `qt`, if it is held in values.
pub fn value_type(types: &TypeTable, qt: QualType) -> Option<Type> {
    match shape(types, qt) {
        Shape::Value(t) => Some(t),
        _ => None,
    }
}

/// The C element scalar of a scalar or vector type (looking through `_Atomic`); enums are
/// `int`.
pub fn elem_scalar(types: &TypeTable, qt: QualType) -> Option<Scalar> {
    match types.ckind(qt) {
        TypeKind::Scalar(s) => Some(*s),
        TypeKind::Vector(s, _) => Some(*s),
        TypeKind::Enum(_) => Some(Scalar::Int),
        TypeKind::Atomic(e) => match types.ckind(*e) {
            TypeKind::Scalar(s) | TypeKind::Vector(s, _) => Some(*s),
            TypeKind::Enum(_) => Some(Scalar::Int),
            _ => None,
        },
        _ => None,
    }
}

/// Whether integer operations on `qt` read its bits as signed (pointers are unsigned).
pub fn is_signed(types: &TypeTable, qt: QualType) -> bool {
    elem_scalar(types, qt).is_some_and(|s| s.is_signed() && !s.is_float())
}

/// Whether `qt` is an unsigned integer (or vector of them); `bool` counts as unsigned.
pub fn is_unsigned_int(types: &TypeTable, qt: QualType) -> bool {
    elem_scalar(types, qt).is_some_and(|s| s.is_integer() && !s.is_signed())
}

/// `sizeof(qt)` in bytes (0 when incomplete).
pub fn size_of(types: &TypeTable, qt: QualType) -> u64 {
    types.size_of(qt).unwrap_or(0)
}

/// `_Alignof(qt)`, at least 1 and a power of two.
pub fn align_of(types: &TypeTable, qt: QualType) -> u64 {
    let a = types.align_of(qt).unwrap_or(1).max(1);
    if a.is_power_of_two() {
        a
    } else {
        a.next_power_of_two()
    }
}

/// Element type and count of an array type.
pub fn array_elem(types: &TypeTable, qt: QualType) -> Option<(QualType, u64)> {
    match types.array_elem(qt)? {
        (e, ArrayLen::Fixed(n)) => Some((e, n)),
        (e, _) => Some((e, 0)),
    }
}

/// Number of lanes of a vector type (1 otherwise).
pub fn lanes(types: &TypeTable, qt: QualType) -> u8 {
    types.as_vector(qt).map_or(1, |(_, n)| n)
}

/// The C spelling of a scalar as OpenCL writes it (`uchar`, `ulong`).
pub fn opencl_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "bool",
        Scalar::Char | Scalar::SChar => "char",
        Scalar::UChar => "uchar",
        Scalar::Short => "short",
        Scalar::UShort => "ushort",
        Scalar::Int => "int",
        Scalar::UInt => "uint",
        Scalar::Long | Scalar::LongLong => "long",
        Scalar::ULong | Scalar::ULongLong => "ulong",
        Scalar::Half => "half",
        Scalar::Float => "float",
        Scalar::Double => "double",
    }
}
