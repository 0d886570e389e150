//! 6.4.3 explicit conversions `convert_T[_sat][_rte|_rtz|_rtp|_rtn]` between all scalar types.
//!
//! Defaults: toward zero to an integer type, to nearest even to a floating-point type.
//! Integer results without `_sat` wrap (as C's casts do). Floating-point to integer without
//! `_sat` is undefined out of range in the spec; here it saturates (NaN → 0), the same as `_sat`.

use super::half::Half;
use super::integer::saturate;
use super::round::{Rounding, f64_to_f32, int_to_f32, int_to_f64};
use super::scalar::{Scalar, ScalarType};

/// Converts `x` to `to` with optional saturation and rounding mode (`None`: the default).
pub fn convert(x: Scalar, to: ScalarType, sat: bool, rounding: Option<Rounding>) -> Scalar {
    if to.is_float() {
        let mode = rounding.unwrap_or(Rounding::Rte);
        match x.as_f64() {
            Some(f) => float_to_float(x, f, to, mode),
            None => int_to_float(x.as_i128().unwrap_or(0), to, mode),
        }
    } else {
        let mode = rounding.unwrap_or(Rounding::Rtz);
        match x.as_f64() {
            Some(f) => float_to_int(f, to, mode),
            None => {
                let v = x.as_i128().unwrap_or(0);
                if sat {
                    saturate(to, v)
                } else {
                    Scalar::from_i128(to, v)
                }
            }
        }
    }
}

/// A float (given exactly as f64) rounded in `mode` to an integer, saturated to `to`.
pub fn float_to_int(f: f64, to: ScalarType, mode: Rounding) -> Scalar {
    if f.is_nan() {
        return to.zero();
    }
    // f64 → i128 saturates at i128's bounds, far beyond every target's.
    saturate(to, mode.round_integral(f) as i128)
}

/// An integer correctly rounded in `mode` to a floating-point type.
pub fn int_to_float(v: i128, to: ScalarType, mode: Rounding) -> Scalar {
    match to {
        ScalarType::Double => Scalar::F64(int_to_f64(v, mode)),
        ScalarType::Float => Scalar::F32(int_to_f32(v, mode)),
        // Every integer small enough to be a finite half is exact in f64; larger ones overflow
        // whatever f64 rounding did.
        _ => Scalar::F16(Half::from_f64_mode(v as f64, mode)),
    }
}

/// A floating-point value (exact in `f`) correctly rounded in `mode` to another float type.
fn float_to_float(x: Scalar, f: f64, to: ScalarType, mode: Rounding) -> Scalar {
    match to {
        ScalarType::Double => Scalar::F64(f),
        ScalarType::Float => match x {
            Scalar::F32(v) => Scalar::F32(v),
            _ => Scalar::F32(f64_to_f32(f, mode)),
        },
        _ => match x {
            Scalar::F16(h) => Scalar::F16(h),
            _ => Scalar::F16(Half::from_f64_mode(f, mode)),
        },
    }
}
