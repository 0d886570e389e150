//! PTX register classes and the type names instructions use for IR scalars.

use oclc_ir::{Scalar, Type};

/// The register class holding one lane of an IR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rc {
    Pred,
    /// `f16`, as raw bits.
    B16,
    /// `i8`, `i16`, `i32` (narrow integers keep unspecified high bits).
    B32,
    /// `i64` and pointers.
    B64,
    F32,
    F64,
}

impl Rc {
    pub fn of_scalar(s: Scalar) -> Rc {
        match s {
            Scalar::I1 => Rc::Pred,
            Scalar::I8 | Scalar::I16 | Scalar::I32 => Rc::B32,
            Scalar::I64 => Rc::B64,
            Scalar::F16 => Rc::B16,
            Scalar::F32 => Rc::F32,
            Scalar::F64 => Rc::F64,
        }
    }

    pub fn of_type(t: Type) -> Rc {
        t.elem().map_or(Rc::B64, Rc::of_scalar)
    }

    /// `.reg` type.
    pub fn decl(self) -> &'static str {
        match self {
            Rc::Pred => ".pred",
            Rc::B16 => ".b16",
            Rc::B32 => ".b32",
            Rc::B64 => ".b64",
            Rc::F32 => ".f32",
            Rc::F64 => ".f64",
        }
    }

    /// Register name prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            Rc::Pred => "p",
            Rc::B16 => "h",
            Rc::B32 => "r",
            Rc::B64 => "rd",
            Rc::F32 => "f",
            Rc::F64 => "fd",
        }
    }

    /// Type suffix of `mov` (and of `.param` declarations, where predicates travel as
    /// `.b32`).
    pub fn mov(self) -> &'static str {
        match self {
            Rc::Pred => "pred",
            Rc::B16 => "b16",
            Rc::B32 => "b32",
            Rc::B64 => "b64",
            Rc::F32 => "f32",
            Rc::F64 => "f64",
        }
    }

    pub fn param(self) -> &'static str {
        match self {
            Rc::Pred => "b32",
            other => other.mov(),
        }
    }
}

/// Memory access type of `ld`/`st` for one lane (`i1` is a byte in memory).
pub fn mem_type(t: Type) -> &'static str {
    match t.elem() {
        None => "u64",
        Some(Scalar::I1) | Some(Scalar::I8) => "u8",
        Some(Scalar::I16) => "u16",
        Some(Scalar::I32) => "u32",
        Some(Scalar::I64) => "u64",
        Some(Scalar::F16) => "b16",
        Some(Scalar::F32) => "f32",
        Some(Scalar::F64) => "f64",
    }
}

/// PTX float literal of `x` rounded to the scalar type (`0f...` for f32, `0d...` for f64).
pub fn float_literal(s: Scalar, x: f64) -> String {
    match s {
        Scalar::F64 => format!("0d{:016X}", x.to_bits()),
        Scalar::F16 => format!("0x{:04X}", f32_to_f16_bits(x as f32)),
        _ => format!("0f{:08X}", (x as f32).to_bits()),
    }
}

/// IEEE binary16 bits of `x`, rounding to nearest even.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let rest = man & 0x1fff;
    let mut r = ((e as u32) << 10) | (man >> 13);
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_bits() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f32_to_f16_bits(5.960_464_5e-8), 0x0001);
        assert_eq!(f32_to_f16_bits(0.0), 0);
        assert_eq!(float_literal(Scalar::F32, 1.0), "0f3F800000");
        assert_eq!(float_literal(Scalar::F64, 1.0), "0d3FF0000000000000");
    }
}
