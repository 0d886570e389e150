//! Typed scalar values as the builtins see them, and fixed-capacity vectors of them.

use super::half::Half;

/// The OpenCL C scalar types a builtin can take or return.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
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
}

impl ScalarType {
    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ScalarType::Char | ScalarType::UChar => 1,
            ScalarType::Short | ScalarType::UShort | ScalarType::Half => 2,
            ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
            ScalarType::Long | ScalarType::ULong | ScalarType::Double => 8,
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// True for half, float and double.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::Half | ScalarType::Float | ScalarType::Double
        )
    }

    /// True for the signed integer types.
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ScalarType::Char | ScalarType::Short | ScalarType::Int | ScalarType::Long
        )
    }

    /// True for the unsigned integer types.
    pub fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            ScalarType::UChar | ScalarType::UShort | ScalarType::UInt | ScalarType::ULong
        )
    }

    /// The signed integer type of the same size (what relational builtins return per lane).
    pub fn signed_of_size(self) -> ScalarType {
        match self.size() {
            1 => ScalarType::Char,
            2 => ScalarType::Short,
            4 => ScalarType::Int,
            _ => ScalarType::Long,
        }
    }

    /// The unsigned integer type of the same size (what `abs` and `abs_diff` return).
    pub fn unsigned_of_size(self) -> ScalarType {
        match self.size() {
            1 => ScalarType::UChar,
            2 => ScalarType::UShort,
            4 => ScalarType::UInt,
            _ => ScalarType::ULong,
        }
    }

    /// The OpenCL C spelling (`uchar`, `half`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Char => "char",
            ScalarType::UChar => "uchar",
            ScalarType::Short => "short",
            ScalarType::UShort => "ushort",
            ScalarType::Int => "int",
            ScalarType::UInt => "uint",
            ScalarType::Long => "long",
            ScalarType::ULong => "ulong",
            ScalarType::Half => "half",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
        }
    }

    /// Parses an OpenCL C scalar type name; `size_t`-like typedefs are not accepted.
    pub fn from_name(name: &str) -> Option<ScalarType> {
        Some(match name {
            "char" => ScalarType::Char,
            "uchar" => ScalarType::UChar,
            "short" => ScalarType::Short,
            "ushort" => ScalarType::UShort,
            "int" => ScalarType::Int,
            "uint" => ScalarType::UInt,
            "long" => ScalarType::Long,
            "ulong" => ScalarType::ULong,
            "half" => ScalarType::Half,
            "float" => ScalarType::Float,
            "double" => ScalarType::Double,
            _ => return None,
        })
    }

    /// The zero value of this type.
    pub fn zero(self) -> Scalar {
        Scalar::from_i128(self, 0)
    }
}

/// One value of an OpenCL C scalar type. Half values are kept as their IEEE binary16 bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F16(Half),
    F32(f32),
    F64(f64),
}

impl Default for Scalar {
    fn default() -> Self {
        Scalar::I32(0)
    }
}

impl Scalar {
    /// The type of this value.
    pub fn ty(self) -> ScalarType {
        match self {
            Scalar::I8(_) => ScalarType::Char,
            Scalar::U8(_) => ScalarType::UChar,
            Scalar::I16(_) => ScalarType::Short,
            Scalar::U16(_) => ScalarType::UShort,
            Scalar::I32(_) => ScalarType::Int,
            Scalar::U32(_) => ScalarType::UInt,
            Scalar::I64(_) => ScalarType::Long,
            Scalar::U64(_) => ScalarType::ULong,
            Scalar::F16(_) => ScalarType::Half,
            Scalar::F32(_) => ScalarType::Float,
            Scalar::F64(_) => ScalarType::Double,
        }
    }

    /// The integer value, exactly, or `None` for a floating-point value.
    pub fn as_i128(self) -> Option<i128> {
        Some(match self {
            Scalar::I8(v) => v.into(),
            Scalar::U8(v) => v.into(),
            Scalar::I16(v) => v.into(),
            Scalar::U16(v) => v.into(),
            Scalar::I32(v) => v.into(),
            Scalar::U32(v) => v.into(),
            Scalar::I64(v) => v.into(),
            Scalar::U64(v) => v.into(),
            Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_) => return None,
        })
    }

    /// The floating-point value widened exactly to f64, or `None` for an integer.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Scalar::F16(h) => Some(h.to_f64()),
            Scalar::F32(v) => Some(v.into()),
            Scalar::F64(v) => Some(v),
            _ => None,
        }
    }

    /// The raw bits, zero-extended (two's complement for signed integers, IEEE for floats).
    pub fn to_bits(self) -> u64 {
        match self {
            Scalar::I8(v) => u64::from(v as u8),
            Scalar::U8(v) => v.into(),
            Scalar::I16(v) => u64::from(v as u16),
            Scalar::U16(v) => v.into(),
            Scalar::I32(v) => u64::from(v as u32),
            Scalar::U32(v) => v.into(),
            Scalar::I64(v) => v as u64,
            Scalar::U64(v) => v,
            Scalar::F16(h) => h.0.into(),
            Scalar::F32(v) => v.to_bits().into(),
            Scalar::F64(v) => v.to_bits(),
        }
    }

    /// A value of type `ty` from the low `ty.bits()` bits of `bits` (the inverse of `to_bits`).
    pub fn from_bits(ty: ScalarType, bits: u64) -> Scalar {
        match ty {
            ScalarType::Char => Scalar::I8(bits as u8 as i8),
            ScalarType::UChar => Scalar::U8(bits as u8),
            ScalarType::Short => Scalar::I16(bits as u16 as i16),
            ScalarType::UShort => Scalar::U16(bits as u16),
            ScalarType::Int => Scalar::I32(bits as u32 as i32),
            ScalarType::UInt => Scalar::U32(bits as u32),
            ScalarType::Long => Scalar::I64(bits as i64),
            ScalarType::ULong => Scalar::U64(bits),
            ScalarType::Half => Scalar::F16(Half(bits as u16)),
            ScalarType::Float => Scalar::F32(f32::from_bits(bits as u32)),
            ScalarType::Double => Scalar::F64(f64::from_bits(bits)),
        }
    }

    /// An integer of type `ty` holding `v` modulo 2^bits (C's conversion to unsigned, and
    /// two's-complement wrapping for signed). For a float type, `v` converted to nearest.
    pub fn from_i128(ty: ScalarType, v: i128) -> Scalar {
        match ty {
            ScalarType::Half => Scalar::F16(Half::from_f64(v as f64)),
            ScalarType::Float => Scalar::F32(v as f32),
            ScalarType::Double => Scalar::F64(v as f64),
            _ => Scalar::from_bits(ty, v as u64),
        }
    }

    /// True when the value's sign bit (most significant bit) is set; what `select`, `any` and
    /// `all` test on vector lanes.
    pub fn msb(self) -> bool {
        let bits = self.ty().bits();
        (self.to_bits() >> (bits - 1)) & 1 == 1
    }

    /// True when the value is nonzero (C truth; -0.0 is false).
    pub fn is_true(self) -> bool {
        match self.as_f64() {
            Some(f) => f != 0.0,
            None => self.to_bits() != 0,
        }
    }
}

/// Maximum number of lanes in an OpenCL C vector.
pub const MAX_LANES: usize = 16;

/// A scalar (one lane) or a vector (2, 3, 4, 8 or 16 lanes) of one scalar type, stored inline
/// so that builtin calls never allocate. Equality compares the lanes in use.
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    len: u8,
    vals: [Scalar; MAX_LANES],
}

impl Lanes {
    /// A single scalar value.
    pub fn scalar(v: Scalar) -> Lanes {
        let mut vals = [v; MAX_LANES];
        vals[0] = v;
        Lanes { len: 1, vals }
    }

    /// Lanes copied from a slice; `None` when it is empty or longer than 16.
    pub fn from_slice(s: &[Scalar]) -> Option<Lanes> {
        let first = *s.first()?;
        if s.len() > MAX_LANES {
            return None;
        }
        let mut vals = [first; MAX_LANES];
        vals[..s.len()].copy_from_slice(s);
        Some(Lanes {
            len: s.len() as u8,
            vals,
        })
    }

    /// `n` lanes (1..=16, clamped) computed by `f` from the lane index.
    pub fn from_fn(n: usize, mut f: impl FnMut(usize) -> Scalar) -> Lanes {
        let n = n.clamp(1, MAX_LANES);
        let mut vals = [Scalar::default(); MAX_LANES];
        for (i, v) in vals.iter_mut().enumerate().take(n) {
            *v = f(i);
        }
        Lanes { len: n as u8, vals }
    }

    /// Number of lanes (1 for a scalar).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true: a `Lanes` holds at least one value. Present for API symmetry with slices.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True for a single scalar (OpenCL C has no one-lane vectors).
    pub fn is_scalar(&self) -> bool {
        self.len == 1
    }

    /// The lanes as a slice.
    pub fn as_slice(&self) -> &[Scalar] {
        &self.vals[..self.len()]
    }

    /// Lane `i`, or lane 0 when the value is a scalar (so scalar arguments broadcast).
    pub fn lane(&self, i: usize) -> Scalar {
        if self.len == 1 {
            self.vals[0]
        } else {
            self.as_slice().get(i).copied().unwrap_or(self.vals[0])
        }
    }

    /// The type of the lanes.
    pub fn ty(&self) -> ScalarType {
        self.vals[0].ty()
    }

    /// `as_<to><lanes>`: the same bytes (little-endian, lanes in order) read as `lanes` lanes of
    /// `to`. A 3-lane vector has the storage of 4 lanes (spec 6.1.5), the fourth undefined, here
    /// zero. `None` when the sizes differ or `lanes` is not 1, 2, 3, 4, 8 or 16.
    pub fn reinterpret(&self, to: ScalarType, lanes: usize) -> Option<Lanes> {
        if !matches!(lanes, 1 | 2 | 3 | 4 | 8 | 16) {
            return None;
        }
        let storage = |n: usize| if n == 3 { 4 } else { n };
        let from_size = self.ty().size();
        if from_size * storage(self.len()) != to.size() * storage(lanes) {
            return None;
        }
        let mut bytes = [0u8; 16 * 8];
        for (i, v) in self.iter().enumerate() {
            let b = v.to_bits().to_le_bytes();
            bytes[i * from_size..(i + 1) * from_size].copy_from_slice(&b[..from_size]);
        }
        let size = to.size();
        Some(Lanes::from_fn(lanes, |i| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(&bytes[i * size..(i + 1) * size]);
            Scalar::from_bits(to, u64::from_le_bytes(b))
        }))
    }
}

impl PartialEq for Lanes {
    fn eq(&self, other: &Lanes) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::ops::Deref for Lanes {
    type Target = [Scalar];
    fn deref(&self) -> &[Scalar] {
        self.as_slice()
    }
}

impl From<Scalar> for Lanes {
    fn from(v: Scalar) -> Lanes {
        Lanes::scalar(v)
    }
}
