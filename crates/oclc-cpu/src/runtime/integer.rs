//! 6.15.3 integer functions, for every integer type.
//!
//! Values travel as i128 (every 8–64-bit value fits exactly) together with their `ScalarType`;
//! results are built with `Scalar::from_i128`, which wraps like C unsigned arithmetic.

use super::scalar::{Scalar, ScalarType};

/// The smallest value of an integer type.
pub fn min_of(ty: ScalarType) -> i128 {
    if ty.is_signed_int() {
        -(1i128 << (ty.bits() - 1))
    } else {
        0
    }
}

/// The largest value of an integer type.
pub fn max_of(ty: ScalarType) -> i128 {
    if ty.is_signed_int() {
        (1i128 << (ty.bits() - 1)) - 1
    } else {
        (1i128 << ty.bits()) - 1
    }
}

/// `v` clamped to the range of `ty`.
pub fn saturate(ty: ScalarType, v: i128) -> Scalar {
    Scalar::from_i128(ty, v.clamp(min_of(ty), max_of(ty)))
}

/// The bits of `v` as an unsigned number of `ty`'s width.
fn ubits(ty: ScalarType, v: i128) -> u128 {
    (v as u128) & ((1u128 << ty.bits()) - 1)
}

/// |x|, as the unsigned type of the same size.
pub fn abs(ty: ScalarType, x: i128) -> Scalar {
    Scalar::from_i128(ty.unsigned_of_size(), x.abs())
}

/// |x − y| without overflow, as the unsigned type of the same size.
pub fn abs_diff(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty.unsigned_of_size(), (x - y).abs())
}

/// x + y, saturated.
pub fn add_sat(ty: ScalarType, x: i128, y: i128) -> Scalar {
    saturate(ty, x + y)
}

/// x − y, saturated.
pub fn sub_sat(ty: ScalarType, x: i128, y: i128) -> Scalar {
    saturate(ty, x - y)
}

/// (x + y) >> 1 without overflow.
pub fn hadd(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, (x + y) >> 1)
}

/// (x + y + 1) >> 1 without overflow.
pub fn rhadd(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, (x + y + 1) >> 1)
}

/// min(max(x, lo), hi).
pub fn clamp(ty: ScalarType, x: i128, lo: i128, hi: i128) -> Scalar {
    Scalar::from_i128(ty, x.max(lo).min(hi))
}

/// The larger of x and y.
pub fn max(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, x.max(y))
}

/// The smaller of x and y.
pub fn min(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, x.min(y))
}

/// Number of leading zero bits; the width for 0.
pub fn clz(ty: ScalarType, x: i128) -> Scalar {
    let lz = ubits(ty, x).leading_zeros() - (128 - ty.bits());
    Scalar::from_i128(ty, lz.into())
}

/// Number of trailing zero bits; the width for 0.
pub fn ctz(ty: ScalarType, x: i128) -> Scalar {
    let tz = ubits(ty, x).trailing_zeros().min(ty.bits());
    Scalar::from_i128(ty, tz.into())
}

/// Number of set bits.
pub fn popcount(ty: ScalarType, x: i128) -> Scalar {
    Scalar::from_i128(ty, ubits(ty, x).count_ones().into())
}

/// The high half of the full product x * y.
pub fn mul_hi(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, mul_hi_raw(ty, x, y))
}

fn mul_hi_raw(ty: ScalarType, x: i128, y: i128) -> i128 {
    if ty.is_signed_int() {
        (x * y) >> ty.bits()
    } else {
        // Unsigned 64 x 64 needs the full 128-bit unsigned product.
        ((x as u128).wrapping_mul(y as u128) >> ty.bits()) as i128
    }
}

/// mul_hi(a, b) + c, wrapping.
pub fn mad_hi(ty: ScalarType, a: i128, b: i128, c: i128) -> Scalar {
    Scalar::from_i128(ty, mul_hi_raw(ty, a, b).wrapping_add(c))
}

/// a * b + c, saturated.
pub fn mad_sat(ty: ScalarType, a: i128, b: i128, c: i128) -> Scalar {
    match a.checked_mul(b).and_then(|p| p.checked_add(c)) {
        Some(v) => saturate(ty, v),
        // Only an unsigned 64-bit product can exceed i128; it is then far above the maximum.
        None => Scalar::from_i128(ty, max_of(ty)),
    }
}

/// The bits of v rotated left by `i` modulo the width.
pub fn rotate(ty: ScalarType, v: i128, i: i128) -> Scalar {
    let bits = ty.bits();
    let n = (i.rem_euclid(i128::from(bits))) as u32;
    let u = ubits(ty, v);
    let r = if n == 0 {
        u
    } else {
        ((u << n) | (u >> (bits - n))) & ((1u128 << bits) - 1)
    };
    Scalar::from_bits(ty, r as u64)
}

/// (hi << width) | lo, in the type twice as wide with hi's signedness; `None` for 64-bit hi.
pub fn upsample(ty: ScalarType, hi: i128, lo: i128) -> Option<Scalar> {
    let wide = match ty {
        ScalarType::Char => ScalarType::Short,
        ScalarType::UChar => ScalarType::UShort,
        ScalarType::Short => ScalarType::Int,
        ScalarType::UShort => ScalarType::UInt,
        ScalarType::Int => ScalarType::Long,
        ScalarType::UInt => ScalarType::ULong,
        _ => return None,
    };
    let v = (hi << ty.bits()) | ubits(ty, lo) as i128;
    Some(Scalar::from_i128(wide, v))
}

/// Low 24 bits of x and y multiplied (32-bit types only; the spec leaves wider inputs
/// undefined, here they are used in full and the product wraps).
pub fn mul24(ty: ScalarType, x: i128, y: i128) -> Scalar {
    Scalar::from_i128(ty, x.wrapping_mul(y))
}

/// mul24(x, y) + z, wrapping.
pub fn mad24(ty: ScalarType, x: i128, y: i128, z: i128) -> Scalar {
    Scalar::from_i128(ty, x.wrapping_mul(y).wrapping_add(z))
}

/// The integer dot product of cl_khr_integer_dot_product over two char4/uchar4 vectors,
/// plus `acc` with saturation (`dot_acc_sat`). The result is uint when both vectors are
/// unsigned, int otherwise; `None` for other lane types or counts, or a wrong `acc` type.
pub fn dot(a: &[Scalar], b: &[Scalar], acc: Option<Scalar>) -> Option<Scalar> {
    if a.len() != 4 || b.len() != 4 {
        return None;
    }
    let ta = a.first()?.ty();
    let tb = b.first()?.ty();
    if ta.is_float() || tb.is_float() || ta.size() != 1 || tb.size() != 1 {
        return None;
    }
    let rty = if ta.is_unsigned_int() && tb.is_unsigned_int() {
        ScalarType::UInt
    } else {
        ScalarType::Int
    };
    let mut sum: i128 = 0;
    for (x, y) in a.iter().zip(b) {
        if x.ty() != ta || y.ty() != tb {
            return None;
        }
        sum += x.as_i128()? * y.as_i128()?;
    }
    match acc {
        None => Some(Scalar::from_i128(rty, sum)),
        Some(acc) if acc.ty() == rty => Some(saturate(rty, sum + acc.as_i128()?)),
        Some(_) => None,
    }
}

/// The four bytes of a packed `uint`, lowest first, as uchar or char lanes.
pub fn unpack_4x8(v: u32, signed: bool) -> [Scalar; 4] {
    v.to_le_bytes().map(|b| {
        if signed {
            Scalar::I8(b as i8)
        } else {
            Scalar::U8(b)
        }
    })
}
