//! 6.15.5 geometric functions on vectors of 1–4 lanes of half, float or double.
//!
//! Computed in f64. For float and half, squares cannot overflow or underflow in f64, so the
//! plain formulas are exact enough; for double, `length` and `normalize` scale by the largest
//! component first, as the spec requires of them (no overflow or underflow in intermediates).

use super::float::Fp;

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
    let m = p.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if m.is_nan() || p.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    if m == 0.0 {
        return 0.0;
    }
    // Scale by a power of two near the largest component: exact, and keeps squares in range.
    let (_, e) = super::math::frexp_f64(m);
    let sum: f64 = p
        .iter()
        .map(|&v| {
            let t = super::math::ldexp_f64(v, -e);
            t * t
        })
        .sum();
    super::math::ldexp_f64(sum.sqrt(), e)
}

/// sqrt(p.x² + p.y² + …), without undue overflow or underflow.
pub fn length<T: Fp>(p: &[T]) -> T {
    let v: Vec<f64> = p.iter().map(|x| x.to_f64()).collect();
    T::from_f64(length_f64(&v))
}

/// length(p0 − p1).
pub fn distance<T: Fp>(p0: &[T], p1: &[T]) -> T {
    let v: Vec<f64> = p0
        .iter()
        .zip(p1)
        .map(|(a, b)| T::from_f64(a.to_f64() - b.to_f64()).to_f64())
        .collect();
    T::from_f64(length_f64(&v))
}

/// p scaled to length 1. All-zero stays zero; a NaN lane gives all NaN; infinite lanes become
/// ±1 and finite ones ±0 before normalizing (the spec's rules).
pub fn normalize<T: Fp>(p: &[T]) -> Vec<T> {
    let mut v: Vec<f64> = p.iter().map(|x| x.to_f64()).collect();
    if v.iter().any(|x| x.is_nan()) {
        return vec![T::from_f64(f64::NAN); p.len()];
    }
    if v.iter().any(|x| x.is_infinite()) {
        for x in &mut v {
            *x = if x.is_infinite() {
                1.0f64.copysign(*x)
            } else {
                0.0 * *x
            };
        }
    }
    let len = length_f64(&v);
    if len == 0.0 {
        return p.to_vec();
    }
    v.iter().map(|x| T::from_f64(x / len)).collect()
}

/// The cross product of two 3-vectors (or 4-vectors, whose w result is 0).
pub fn cross<T: Fp>(p0: &[T], p1: &[T]) -> Vec<T> {
    let g = |v: &[T], i: usize| v.get(i).map_or(0.0, |x| x.to_f64());
    let (ax, ay, az) = (g(p0, 0), g(p0, 1), g(p0, 2));
    let (bx, by, bz) = (g(p1, 0), g(p1, 1), g(p1, 2));
    let mut out = vec![
        T::from_f64(ay * bz - az * by),
        T::from_f64(az * bx - ax * bz),
        T::from_f64(ax * by - ay * bx),
    ];
    if p0.len() == 4 {
        out.push(T::from_f64(0.0));
    }
    out
}
