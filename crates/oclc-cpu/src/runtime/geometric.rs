//! 6.15.5 geometric functions on vectors of 1–4 lanes of half, float or double.
//!
//! Computed in f64. For float and half, squares cannot overflow or underflow in f64, so the
//! plain formulas are exact enough; for double, `length` and `normalize` scale by the largest
//! component first, as the spec requires of them (no overflow or underflow in intermediates).
//! Vectors longer than 4 lanes are cut to their first 4 (the dispatcher rejects them).

use super::float::Fp;
use super::math::{frexp_f64, ldexp_f64};

/// Up to 4 lanes widened to f64, and how many there are.
fn widen<T: Fp>(p: &[T]) -> ([f64; 4], usize) {
    let mut v = [0.0; 4];
    let n = p.len().min(4);
    for (d, s) in v.iter_mut().zip(p) {
        *d = s.to_f64();
    }
    (v, n)
}

/// The dot product of two vectors of equal length.
pub fn dot<T: Fp>(p0: &[T], p1: &[T]) -> T {
    let s: f64 = p0
        .iter()
        .zip(p1)
        .map(|(a, b)| a.to_f64() * b.to_f64())
        .sum();
    T::from_f64(s)
}

/// Euclidean length of a vector in f64, avoiding overflow and underflow.
fn length_f64(p: &[f64]) -> f64 {
    if p.iter().any(|v| v.is_infinite()) {
        return f64::INFINITY;
    }
    if p.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let m = p.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if m == 0.0 {
        return 0.0;
    }
    // Scale by a power of two near the largest component: exact, and keeps squares in range.
    let (_, e) = frexp_f64(m);
    let sum: f64 = p
        .iter()
        .map(|&v| {
            let t = ldexp_f64(v, -e);
            t * t
        })
        .sum();
    ldexp_f64(sum.sqrt(), e)
}

/// sqrt(p.x² + p.y² + …), without undue overflow or underflow.
pub fn length<T: Fp>(p: &[T]) -> T {
    let (v, n) = widen(p);
    T::from_f64(length_f64(&v[..n]))
}

/// length(p0 − p1), the difference taken in `T` as the spec's definition does.
pub fn distance<T: Fp>(p0: &[T], p1: &[T]) -> T {
    let mut v = [0.0; 4];
    let mut n = 0;
    for ((d, a), b) in v.iter_mut().zip(p0).zip(p1) {
        *d = T::from_f64(a.to_f64() - b.to_f64()).to_f64();
        n += 1;
    }
    T::from_f64(length_f64(&v[..n]))
}

/// p scaled to length 1, written to `out` (same length as `p`). All-zero stays as it is; a NaN
/// lane gives all NaN; infinite lanes become ±1 and finite ones ±0 before normalizing (the
/// spec's rules).
pub fn normalize<T: Fp>(p: &[T], out: &mut [T]) {
    let (mut v, n) = widen(p);
    let v = &mut v[..n];
    if v.iter().any(|x| x.is_nan()) {
        out.iter_mut().for_each(|o| *o = T::from_f64(f64::NAN));
        return;
    }
    if v.iter().any(|x| x.is_infinite()) {
        for x in v.iter_mut() {
            *x = if x.is_infinite() {
                1.0f64.copysign(*x)
            } else {
                0.0 * *x
            };
        }
    }
    let len = length_f64(v);
    for ((o, x), orig) in out.iter_mut().zip(v.iter()).zip(p) {
        *o = if len == 0.0 {
            *orig
        } else {
            T::from_f64(x / len)
        };
    }
}

/// The cross product of two 3-vectors (for 4-vectors the caller appends w = 0).
pub fn cross<T: Fp>(p0: &[T], p1: &[T]) -> [T; 3] {
    let (a, _) = widen(p0);
    let (b, _) = widen(p1);
    [
        T::from_f64(a[1] * b[2] - a[2] * b[1]),
        T::from_f64(a[2] * b[0] - a[0] * b[2]),
        T::from_f64(a[0] * b[1] - a[1] * b[0]),
    ]
}
