//! Value types of the IR: integer, float and pointer scalars, and short vectors of them.
//! Aggregates never appear as values; they live in memory (see the crate invariants).

pub use oclc_sema::AddrSpace;

/// A scalar element type. Integers carry no signedness: operations say how they read bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
}

impl Scalar {
    /// Width in bits (1 for `i1`).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::I1 => 1,
            Scalar::I8 => 8,
            Scalar::I16 | Scalar::F16 => 16,
            Scalar::I32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::F64 => 64,
        }
    }

    /// Size in memory in bytes (`i1` is stored as one byte).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::I1 => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F16 => "f16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
        }
    }
}

/// The type of an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(Scalar),
    /// `lanes` is one of 2, 3, 4, 8, 16.
    Vector(Scalar, u8),
    /// An opaque pointer into the given address space.
    Ptr(AddrSpace),
}

impl Type {
    pub const I1: Type = Type::Scalar(Scalar::I1);
    pub const I8: Type = Type::Scalar(Scalar::I8);
    pub const I16: Type = Type::Scalar(Scalar::I16);
    pub const I32: Type = Type::Scalar(Scalar::I32);
    pub const I64: Type = Type::Scalar(Scalar::I64);
    pub const F16: Type = Type::Scalar(Scalar::F16);
    pub const F32: Type = Type::Scalar(Scalar::F32);
    pub const F64: Type = Type::Scalar(Scalar::F64);

    pub fn vec(s: Scalar, lanes: u8) -> Type {
        if lanes == 1 {
            Type::Scalar(s)
        } else {
            Type::Vector(s, lanes)
        }
    }

    /// Element type of a scalar or vector; `None` for pointers.
    pub fn elem(self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(s),
            Type::Ptr(_) => None,
        }
    }

    /// Number of lanes: 1 for scalars and pointers.
    pub fn lanes(self) -> u32 {
        match self {
            Type::Vector(_, n) => n as u32,
            _ => 1,
        }
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    pub fn is_int(self) -> bool {
        self.elem().is_some_and(Scalar::is_int)
    }

    pub fn is_float(self) -> bool {
        self.elem().is_some_and(Scalar::is_float)
    }

    /// The same shape with a different element type.
    pub fn with_elem(self, s: Scalar) -> Type {
        Type::vec(s, self.lanes() as u8)
    }

    /// Size in memory in bytes, following OpenCL C: 3-lane vectors occupy 4 lanes; pointers
    /// take [`pointer_bytes`].
    pub fn store_size(self) -> u32 {
        match self {
            Type::Scalar(s) => s.bytes(),
            Type::Vector(s, n) => s.bytes() * if n == 3 { 4 } else { n as u32 },
            Type::Ptr(sp) => pointer_bytes(sp),
        }
    }

    /// Bytes actually read or written by a load or store of this type (3-lane vectors touch 3
    /// lanes, as `vload3` does).
    pub fn access_size(self) -> u32 {
        match self {
            Type::Vector(s, n) => s.bytes() * n as u32,
            t => t.store_size(),
        }
    }

    /// Natural alignment in bytes (the store size, as OpenCL C requires for vectors).
    pub fn align(self) -> u32 {
        self.store_size().next_power_of_two()
    }
}

/// Valid vector lane counts.
pub fn valid_lanes(n: u32) -> bool {
    matches!(n, 2 | 3 | 4 | 8 | 16)
}

/// The target description: pointer size in bytes of each address space. The cpu device is a
/// spir64 target, so every space uses 8-byte pointers. The one number lives in sema
/// (`oclc_sema::types::POINTER_SIZE`, which `sizeof` reads); the IR's memory layouts and the
/// device's pointer encoding read it through this function.
pub fn pointer_bytes(space: AddrSpace) -> u32 {
    match space {
        AddrSpace::Private
        | AddrSpace::Global
        | AddrSpace::Local
        | AddrSpace::Constant
        | AddrSpace::Generic => oclc_sema::types::POINTER_SIZE as u32,
    }
}

/// `size_t` / `ptrdiff_t` / `intptr_t` width: the IR type work-item queries and pointer
/// differences produce.
pub const SIZE_T: Type = Type::I64;

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Vector(s, n) => write!(f, "<{} x {}>", n, s.name()),
            Type::Ptr(sp) => write!(f, "ptr<{}>", space_name(*sp)),
        }
    }
}

/// Short space name used by the printer: `global`, `local`, ...
pub fn space_name(sp: AddrSpace) -> &'static str {
    match sp {
        AddrSpace::Private => "private",
        AddrSpace::Global => "global",
        AddrSpace::Local => "local",
        AddrSpace::Constant => "constant",
        AddrSpace::Generic => "generic",
    }
}
