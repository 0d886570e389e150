//! Lane arithmetic on the interpreter's value representation: every lane is a `u64` holding
//! an integer zero-extended from its width, a float's bits, or an encoded pointer.

use oclc_ir::{BinOp, CmpOp, ConvOp, Scalar, UnOp};

/// All-ones mask of `w` bits (1..=64).
#[inline(always)]
pub fn mask(w: u32) -> u64 {
    u64::MAX >> (64 - w.clamp(1, 64))
}

/// Sign-extends the low `w` bits.
#[inline(always)]
pub fn sext(x: u64, w: u32) -> i64 {
    let sh = 64 - w.clamp(1, 64);
    ((x << sh) as i64) >> sh
}

/// Half-precision bits to f64 (exact).
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// f64 to half-precision bits, rounding to nearest even.
pub fn f64_to_f16(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let mant = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return sign
            | 0x7c00
            | if mant != 0 {
                0x200 | (mant >> 42) as u16
            } else {
                0
            };
    }
    if exp == 0 {
        return sign;
    }
    let e = exp - 1023 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let m = mant | (1u64 << 52);
    let shift = if e >= 1 { 42 } else { 42 + (1 - e) as u32 };
    if shift > 62 {
        return sign;
    }
    let mut q = m >> shift;
    let r = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if r > half || (r == half && q & 1 == 1) {
        q += 1;
    }
    let bits = if e >= 1 {
        ((e as u64) << 10) + q - 0x400
    } else {
        q
    };
    sign | bits.min(0x7c00) as u16
}

/// The float in a lane, widened to f64 (exact).
#[inline(always)]
pub fn fget(s: Scalar, x: u64) -> f64 {
    match s {
        Scalar::F16 => f16_to_f64(x as u16),
        Scalar::F32 => f32::from_bits(x as u32) as f64,
        _ => f64::from_bits(x),
    }
}

/// An f64 rounded to the lane's float type (one rounding).
#[inline(always)]
pub fn fput(s: Scalar, v: f64) -> u64 {
    match s {
        Scalar::F16 => f64_to_f16(v) as u64,
        Scalar::F32 => (v as f32).to_bits() as u64,
        _ => v.to_bits(),
    }
}

fn fbin32(op: BinOp, a: f32, b: f32) -> f32 {
    match op {
        BinOp::FAdd => a + b,
        BinOp::FSub => a - b,
        BinOp::FMul => a * b,
        BinOp::FDiv => a / b,
        _ => a % b,
    }
}

fn fbin64(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::FAdd => a + b,
        BinOp::FSub => a - b,
        BinOp::FMul => a * b,
        BinOp::FDiv => a / b,
        _ => a % b,
    }
}

/// One lane of a binary operator. Integer division by zero gives 0 (C leaves it undefined;
/// the device must not trap).
#[inline]
pub fn bin(op: BinOp, s: Scalar, a: u64, b: u64) -> u64 {
    if op.is_float() {
        return match s {
            Scalar::F64 => fbin64(op, f64::from_bits(a), f64::from_bits(b)).to_bits(),
            Scalar::F32 => {
                fbin32(op, f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u64
            }
            _ => {
                let r = fbin32(op, fget(s, a) as f32, fget(s, b) as f32);
                f64_to_f16(r as f64) as u64
            }
        };
    }
    let w = s.bits();
    let m = mask(w);
    let sh = (b % w as u64) as u32;
    (match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a.checked_div(b).unwrap_or(0),
        BinOp::URem => a.checked_rem(b).unwrap_or(0),
        BinOp::SDiv => {
            let (x, y) = (sext(a, w), sext(b, w));
            if y == 0 { 0 } else { x.wrapping_div(y) as u64 }
        }
        BinOp::SRem => {
            let (x, y) = (sext(a, w), sext(b, w));
            if y == 0 { 0 } else { x.wrapping_rem(y) as u64 }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => a << sh,
        BinOp::LShr => a >> sh,
        BinOp::AShr => (sext(a, w) >> sh) as u64,
        _ => 0,
    }) & m
}

#[inline]
pub fn un(op: UnOp, s: Scalar, a: u64) -> u64 {
    match op {
        UnOp::Neg => a.wrapping_neg() & mask(s.bits()),
        UnOp::Not => !a & mask(s.bits()),
        UnOp::FNeg => match s {
            Scalar::F16 => a ^ 0x8000,
            Scalar::F32 => a ^ 0x8000_0000,
            _ => a ^ (1 << 63),
        },
    }
}

#[inline(always)]
pub fn cmp(op: CmpOp, s: Scalar, a: u64, b: u64) -> bool {
    let w = s.bits();
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Slt => sext(a, w) < sext(b, w),
        CmpOp::Sle => sext(a, w) <= sext(b, w),
        CmpOp::Sgt => sext(a, w) > sext(b, w),
        CmpOp::Sge => sext(a, w) >= sext(b, w),
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Ugt => a > b,
        CmpOp::Uge => a >= b,
        _ => {
            let (x, y) = (fget(s, a), fget(s, b));
            match op {
                CmpOp::FOeq => x == y,
                CmpOp::FUne => x != y,
                CmpOp::FOlt => x < y,
                CmpOp::FOle => x <= y,
                CmpOp::FOgt => x > y,
                _ => x >= y,
            }
        }
    }
}

/// One lane of a conversion from `from` to `to`.
pub fn conv(op: ConvOp, from: Scalar, to: Scalar, x: u64) -> u64 {
    let tw = to.bits();
    match op {
        ConvOp::ZExt | ConvOp::Trunc | ConvOp::PtrToInt => x & mask(tw),
        ConvOp::SExt => sext(x, from.bits()) as u64 & mask(tw),
        ConvOp::SToF => {
            let i = sext(x, from.bits());
            match to {
                Scalar::F32 => (i as f32).to_bits() as u64,
                Scalar::F64 => (i as f64).to_bits(),
                _ => f64_to_f16(i as f64) as u64,
            }
        }
        ConvOp::UToF => match to {
            Scalar::F32 => (x as f32).to_bits() as u64,
            Scalar::F64 => (x as f64).to_bits(),
            _ => f64_to_f16(x as f64) as u64,
        },
        ConvOp::FToS => {
            let f = fget(from, x);
            let i = match tw {
                8 => f as i8 as i64,
                16 => f as i16 as i64,
                32 => f as i32 as i64,
                1 => (f != 0.0) as i64,
                _ => f as i64,
            };
            i as u64 & mask(tw)
        }
        ConvOp::FToU => {
            let f = fget(from, x);
            let u = match tw {
                8 => f as u8 as u64,
                16 => f as u16 as u64,
                32 => f as u32 as u64,
                1 => (f != 0.0) as u64,
                _ => f as u64,
            };
            u & mask(tw)
        }
        ConvOp::FExt | ConvOp::FTrunc => fput(to, fget(from, x)),
        ConvOp::ToBool => {
            if from.is_float() {
                (fget(from, x) != 0.0) as u64
            } else {
                (x != 0) as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions() {
        assert_eq!(f64_to_f16(1.0), 0x3c00);
        assert_eq!(f64_to_f16(-2.0), 0xc000);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(5.960464477539063e-8), 0x0001);
        assert_eq!(f64_to_f16(2.9802322387695312e-8), 0x0000);
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f16_to_f64(0x3555), 0.333251953125);
        assert!(f16_to_f64(0x7e00).is_nan());
        for h in 0..0x7c00u16 {
            assert_eq!(f64_to_f16(f16_to_f64(h)), h);
        }
    }

    #[test]
    fn integer_semantics() {
        assert_eq!(bin(BinOp::Add, Scalar::I32, 0xffff_ffff, 1), 0);
        assert_eq!(
            bin(BinOp::SDiv, Scalar::I32, (-7i32) as u32 as u64, 2),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            bin(BinOp::SRem, Scalar::I32, (-7i32) as u32 as u64, 2),
            (-1i32) as u32 as u64
        );
        assert_eq!(
            bin(BinOp::SDiv, Scalar::I32, 0x8000_0000, 0xffff_ffff),
            0x8000_0000
        );
        assert_eq!(bin(BinOp::UDiv, Scalar::I32, 5, 0), 0);
        assert_eq!(bin(BinOp::Shl, Scalar::I8, 1, 9), 2);
        assert_eq!(bin(BinOp::AShr, Scalar::I16, 0x8000, 15), 0xffff);
        assert!(cmp(CmpOp::Slt, Scalar::I32, 0xffff_ffff, 0));
        assert!(!cmp(CmpOp::Ult, Scalar::I32, 0xffff_ffff, 0));
        assert_eq!(
            conv(ConvOp::SExt, Scalar::I8, Scalar::I32, 0x80),
            0xffff_ff80
        );
        assert_eq!(
            conv(
                ConvOp::FToS,
                Scalar::F32,
                Scalar::I32,
                (-2.7f32).to_bits() as u64
            ),
            (-2i32) as u32 as u64
        );
        assert_eq!(
            conv(ConvOp::UToF, Scalar::I32, Scalar::F32, 3),
            3.0f32.to_bits() as u64
        );
    }

    #[test]
    fn float_semantics() {
        let nan = f32::NAN.to_bits() as u64;
        assert!(!cmp(CmpOp::FOeq, Scalar::F32, nan, nan));
        assert!(cmp(CmpOp::FUne, Scalar::F32, nan, nan));
        let h = bin(BinOp::FAdd, Scalar::F16, 0x3c00, 0x3c00);
        assert_eq!(h, 0x4000);
        assert_eq!(
            un(UnOp::FNeg, Scalar::F32, 1.0f32.to_bits() as u64),
            (-1.0f32).to_bits() as u64
        );
    }
}
