//! The `Fp` trait: what the generic math code needs from half, float and double.
//!
//! Transcendental functions are evaluated in f64 (accurate to a few f64 ulp) and rounded once to
//! the target type, so float and half results are within about half an ulp plus a hair; double
//! results carry the f64 routine's own error. Exact operations (fma, nextafter) are per type.

use super::half::Half;
use super::round::{Rounding, f64_to_f32, round_to_odd};
use super::scalar::{Scalar, ScalarType};

/// A floating-point type the builtins operate on.
pub trait Fp: Copy + std::fmt::Debug + PartialEq {
    /// The matching scalar type.
    const TYPE: ScalarType;
    /// Precision in bits, hidden bit included (11, 24, 53).
    const PRECISION: u32;
    /// Exponent of the smallest normal value (-14, -126, -1022).
    const MIN_EXP: i32;
    /// Exponent of the largest finite value (15, 127, 1023).
    const MAX_EXP: i32;

    /// The exact value as f64.
    fn to_f64(self) -> f64;
    /// `x` rounded to nearest even.
    fn from_f64(x: f64) -> Self;
    /// `x` correctly rounded with `mode`.
    fn from_f64_mode(x: f64, mode: Rounding) -> Self;
    /// `a * b + c` with a single rounding.
    fn fma(a: Self, b: Self, c: Self) -> Self;
    /// The next representable value after `self` in the direction of `toward` (C99 nextafter).
    fn next_after(self, toward: Self) -> Self;
    /// A quiet NaN whose mantissa carries `payload` (the `nan` builtin).
    fn nan_with(payload: u64) -> Self;
    /// Wraps the value as a `Scalar`.
    fn to_scalar(self) -> Scalar;
    /// Unwraps a `Scalar` of this type.
    fn from_scalar(s: Scalar) -> Option<Self>;

    /// The largest value below 1 (the cap on `fract`).
    fn one_below() -> Self {
        Self::from_f64(1.0 - f64::powi(2.0, -(Self::PRECISION as i32)))
    }
}

/// nextafter on sign-magnitude bits of width `bits` (sign bit at `bits - 1`).
fn next_after_bits(x: u64, y: u64, bits: u32, x_nan: bool, y_nan: bool, eq: bool) -> u64 {
    let sign = 1u64 << (bits - 1);
    if x_nan {
        return x;
    }
    if y_nan {
        return y;
    }
    if eq {
        return y;
    }
    let mag = x & !sign;
    if mag == 0 {
        return (y & sign) | 1;
    }
    // Moving away from zero increments the magnitude; toward zero decrements it.
    let x_neg = x & sign != 0;
    let y_gt_x = if x_neg {
        // x < 0: y > x when y is positive or has smaller magnitude.
        y & sign == 0 || (y & !sign) < mag
    } else {
        y & sign == 0 && (y & !sign) > mag
    };
    let away = y_gt_x != x_neg;
    if away { x + 1 } else { x - 1 }
}

impl Fp for f64 {
    const TYPE: ScalarType = ScalarType::Double;
    const PRECISION: u32 = 53;
    const MIN_EXP: i32 = -1022;
    const MAX_EXP: i32 = 1023;

    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(x: f64) -> Self {
        x
    }
    fn from_f64_mode(x: f64, _mode: Rounding) -> Self {
        x
    }
    fn fma(a: Self, b: Self, c: Self) -> Self {
        a.mul_add(b, c)
    }
    fn next_after(self, toward: Self) -> Self {
        f64::from_bits(next_after_bits(
            self.to_bits(),
            toward.to_bits(),
            64,
            self.is_nan(),
            toward.is_nan(),
            self == toward,
        ))
    }
    fn nan_with(payload: u64) -> Self {
        f64::from_bits(0x7ff8_0000_0000_0000 | (payload & 0x0007_ffff_ffff_ffff))
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F64(self)
    }
    fn from_scalar(s: Scalar) -> Option<Self> {
        match s {
            Scalar::F64(v) => Some(v),
            _ => None,
        }
    }
}

impl Fp for f32 {
    const TYPE: ScalarType = ScalarType::Float;
    const PRECISION: u32 = 24;
    const MIN_EXP: i32 = -126;
    const MAX_EXP: i32 = 127;

    fn to_f64(self) -> f64 {
        self.into()
    }
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn from_f64_mode(x: f64, mode: Rounding) -> Self {
        f64_to_f32(x, mode)
    }
    fn fma(a: Self, b: Self, c: Self) -> Self {
        a.mul_add(b, c)
    }
    fn next_after(self, toward: Self) -> Self {
        f32::from_bits(next_after_bits(
            self.to_bits().into(),
            toward.to_bits().into(),
            32,
            self.is_nan(),
            toward.is_nan(),
            self == toward,
        ) as u32)
    }
    fn nan_with(payload: u64) -> Self {
        f32::from_bits(0x7fc0_0000 | (payload as u32 & 0x003f_ffff))
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F32(self)
    }
    fn from_scalar(s: Scalar) -> Option<Self> {
        match s {
            Scalar::F32(v) => Some(v),
            _ => None,
        }
    }
}

impl Fp for Half {
    const TYPE: ScalarType = ScalarType::Half;
    const PRECISION: u32 = 11;
    const MIN_EXP: i32 = -14;
    const MAX_EXP: i32 = 15;

    fn to_f64(self) -> f64 {
        Half::to_f64(self)
    }
    fn from_f64(x: f64) -> Self {
        Half::from_f64(x)
    }
    fn from_f64_mode(x: f64, mode: Rounding) -> Self {
        Half::from_f64_mode(x, mode)
    }
    fn fma(a: Self, b: Self, c: Self) -> Self {
        // The product of two halves is exact in f64; the sum's error is recovered exactly
        // (TwoSum) and folded in by rounding to odd, so the final rounding to half is single.
        let p = a.to_f64() * b.to_f64();
        let c = c.to_f64();
        let s = p + c;
        if !s.is_finite() {
            return Half::from_f64(s);
        }
        let bp = s - c;
        let err = (p - bp) + (c - (s - bp));
        Half::from_f64(round_to_odd(s, err))
    }
    fn next_after(self, toward: Self) -> Self {
        let (x, y) = (self.to_f64(), toward.to_f64());
        Half(next_after_bits(
            self.0.into(),
            toward.0.into(),
            16,
            x.is_nan(),
            y.is_nan(),
            x == y,
        ) as u16)
    }
    fn nan_with(payload: u64) -> Self {
        Half(0x7e00 | (payload as u16 & 0x01ff))
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F16(self)
    }
    fn from_scalar(s: Scalar) -> Option<Self> {
        match s {
            Scalar::F16(v) => Some(v),
            _ => None,
        }
    }
}
