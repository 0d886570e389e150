//! Element types of run-file buffers and scalar arguments: the OpenCL C scalar types and their
//! vector forms, with sizes, ranges and NPY type strings.

use std::fmt;

/// An OpenCL C scalar type a run file can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    pub const ALL: [ScalarType; 11] = [
        ScalarType::Char,
        ScalarType::UChar,
        ScalarType::Short,
        ScalarType::UShort,
        ScalarType::Int,
        ScalarType::UInt,
        ScalarType::Long,
        ScalarType::ULong,
        ScalarType::Half,
        ScalarType::Float,
        ScalarType::Double,
    ];

    /// The OpenCL C spelling.
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

    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ScalarType::Char | ScalarType::UChar => 1,
            ScalarType::Short | ScalarType::UShort | ScalarType::Half => 2,
            ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
            ScalarType::Long | ScalarType::ULong | ScalarType::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::Half | ScalarType::Float | ScalarType::Double
        )
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::Char | ScalarType::Short | ScalarType::Int | ScalarType::Long
        )
    }

    /// Smallest and largest value of an integer type (for floats, the finite range).
    pub fn int_range(self) -> (i128, i128) {
        let bits = 8 * self.size() as u32;
        if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// NumPy's array-interface type string (`descr`) for little-endian data.
    pub fn npy_descr(self) -> &'static str {
        match self {
            ScalarType::Char => "|i1",
            ScalarType::UChar => "|u1",
            ScalarType::Short => "<i2",
            ScalarType::UShort => "<u2",
            ScalarType::Int => "<i4",
            ScalarType::UInt => "<u4",
            ScalarType::Long => "<i8",
            ScalarType::ULong => "<u8",
            ScalarType::Half => "<f2",
            ScalarType::Float => "<f4",
            ScalarType::Double => "<f8",
        }
    }
}

/// The vector widths OpenCL C has (1 means a scalar).
pub const VECTOR_WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

/// A scalar or vector element type such as `uchar` or `float4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ElemType {
    pub scalar: ScalarType,
    /// 1, 2, 3, 4, 8 or 16.
    pub width: u8,
}

impl ElemType {
    pub fn scalar(scalar: ScalarType) -> ElemType {
        ElemType { scalar, width: 1 }
    }

    /// Parses `float`, `uchar16`, ...; `None` for anything else.
    pub fn parse(name: &str) -> Option<ElemType> {
        let digits = name
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let (base, suffix) = name.split_at(name.len() - digits);
        let scalar = ScalarType::from_name(base)?;
        if suffix.is_empty() {
            return Some(ElemType::scalar(scalar));
        }
        let width: u8 = suffix.parse().ok()?;
        (width != 1 && VECTOR_WIDTHS.contains(&width) && !suffix.starts_with('0'))
            .then_some(ElemType { scalar, width })
    }

    /// Components that hold data.
    pub fn comps(self) -> usize {
        self.width as usize
    }

    /// Components in memory: a 3-vector is stored like a 4-vector (its size and alignment are
    /// those of the 4-vector), the fourth component being padding.
    pub fn storage_comps(self) -> usize {
        if self.width == 3 {
            4
        } else {
            self.width as usize
        }
    }

    /// `sizeof` of the type.
    pub fn size(self) -> usize {
        self.scalar.size() * self.storage_comps()
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.width == 1 {
            f.write_str(self.scalar.name())
        } else {
            write!(f, "{}{}", self.scalar.name(), self.width)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names() {
        assert_eq!(
            ElemType::parse("uchar"),
            Some(ElemType::scalar(ScalarType::UChar))
        );
        assert_eq!(
            ElemType::parse("float4"),
            Some(ElemType {
                scalar: ScalarType::Float,
                width: 4
            })
        );
        assert_eq!(
            ElemType::parse("half16"),
            Some(ElemType {
                scalar: ScalarType::Half,
                width: 16
            })
        );
        for bad in [
            "float1", "float5", "float04", "int32", "uint8_t", "", "4", "Float", "bool",
        ] {
            assert_eq!(ElemType::parse(bad), None, "{bad}");
        }
        for t in ScalarType::ALL {
            for w in VECTOR_WIDTHS {
                let e = ElemType {
                    scalar: t,
                    width: w,
                };
                assert_eq!(ElemType::parse(&e.to_string()), Some(e));
            }
        }
    }

    #[test]
    fn sizes_and_ranges() {
        assert_eq!(ElemType::parse("float3").map(ElemType::size), Some(16));
        assert_eq!(ElemType::parse("double16").map(ElemType::size), Some(128));
        assert_eq!(ElemType::parse("half").map(ElemType::size), Some(2));
        assert_eq!(ScalarType::Char.int_range(), (-128, 127));
        assert_eq!(ScalarType::UShort.int_range(), (0, 65535));
        assert_eq!(ScalarType::ULong.int_range(), (0, u64::MAX as i128));
        assert_eq!(
            ScalarType::Long.int_range(),
            (i64::MIN as i128, i64::MAX as i128)
        );
    }
}
