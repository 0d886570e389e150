//! 6.15.6 relational functions: per-lane predicates, `any`/`all`, `bitselect` and `select`.
//!
//! Predicates return a bool per lane; `dispatch` turns it into int 1/0 for a scalar call and
//! into -1/0 of the signed integer type the size of the lane for a vector call.

use super::builtin::Builtin;
use super::scalar::Scalar;

/// Evaluates a relational predicate on one lane (floating-point arguments, already checked).
/// `None` when `b` is not a predicate.
pub fn predicate(b: Builtin, x: f64, y: f64, x_sign: bool) -> Option<bool> {
    Some(match b {
        Builtin::IsEqual => x == y,
        Builtin::IsNotEqual => x != y,
        Builtin::IsGreater => x > y,
        Builtin::IsGreaterEqual => x >= y,
        Builtin::IsLess => x < y,
        Builtin::IsLessEqual => x <= y,
        Builtin::IsLessGreater => !x.is_nan() && !y.is_nan() && x != y,
        Builtin::IsFinite => x.is_finite(),
        Builtin::IsInf => x.is_infinite(),
        Builtin::IsNan => x.is_nan(),
        Builtin::IsNormal => x.is_finite() && x != 0.0 && !is_subnormal(x, y),
        Builtin::IsOrdered => !x.is_nan() && !y.is_nan(),
        Builtin::IsUnordered => x.is_nan() || y.is_nan(),
        Builtin::Signbit => x_sign,
        _ => return None,
    })
}

/// `y` carries the smallest normal of the argument type for `isnormal` (see `dispatch`).
fn is_subnormal(x: f64, min_normal: f64) -> bool {
    x.abs() < min_normal
}

/// True when every lane's most significant bit is set (`all`); for a scalar, its MSB.
pub fn all(v: &[Scalar]) -> bool {
    v.iter().all(|s| s.msb())
}

/// True when some lane's most significant bit is set (`any`).
pub fn any(v: &[Scalar]) -> bool {
    v.iter().any(|s| s.msb())
}

/// Each result bit from b where c's bit is 1, else from a: `(a & !c) | (b & c)`.
pub fn bitselect(a: Scalar, b: Scalar, c: Scalar) -> Scalar {
    let bits = (a.to_bits() & !c.to_bits()) | (b.to_bits() & c.to_bits());
    Scalar::from_bits(a.ty(), bits)
}

/// `select(a, b, c)` for one lane: b when the condition holds, else a. A scalar call tests
/// c != 0; a vector call tests the MSB of c's lane.
pub fn select(a: Scalar, b: Scalar, c: Scalar, vector: bool) -> Scalar {
    let take_b = if vector { c.msb() } else { c.to_bits() != 0 };
    if take_b { b } else { a }
}
