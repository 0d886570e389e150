//! 6.15.4 common functions for half, float and double (integer `clamp`/`max`/`min` are in
//! `integer`). Computed in f64 and rounded once, so they are at least as accurate as the spec's
//! reference formulas.

use super::float::Fp;
use super::math::{fmax_f64, fmin_f64};

/// min(max(x, lo), hi) with fmax/fmin semantics.
pub fn clamp<T: Fp>(x: T, lo: T, hi: T) -> T {
    T::from_f64(fmin_f64(fmax_f64(x.to_f64(), lo.to_f64()), hi.to_f64()))
}

/// Radians to degrees: x · 180/π.
pub fn degrees<T: Fp>(x: T) -> T {
    T::from_f64(x.to_f64() * (180.0 / std::f64::consts::PI))
}

/// Degrees to radians: x · π/180.
pub fn radians<T: Fp>(x: T) -> T {
    T::from_f64(x.to_f64() * (std::f64::consts::PI / 180.0))
}

/// y if x < y, else x (the spec leaves NaN and infinities undefined; this is fmax).
pub fn max<T: Fp>(x: T, y: T) -> T {
    T::from_f64(fmax_f64(x.to_f64(), y.to_f64()))
}

/// y if y < x, else x (fmin).
pub fn min<T: Fp>(x: T, y: T) -> T {
    T::from_f64(fmin_f64(x.to_f64(), y.to_f64()))
}

/// x + (y − x) · a.
pub fn mix<T: Fp>(x: T, y: T, a: T) -> T {
    let (x, y, a) = (x.to_f64(), y.to_f64(), a.to_f64());
    T::from_f64(x + (y - x) * a)
}

/// 0.0 if x < edge, else 1.0.
pub fn step<T: Fp>(edge: T, x: T) -> T {
    T::from_f64(if x.to_f64() < edge.to_f64() { 0.0 } else { 1.0 })
}

/// Hermite interpolation between 0 and 1 when edge0 < x < edge1: t·t·(3 − 2t) with
/// t = clamp((x − edge0)/(edge1 − edge0), 0, 1).
pub fn smoothstep<T: Fp>(edge0: T, edge1: T, x: T) -> T {
    let (e0, e1, x) = (edge0.to_f64(), edge1.to_f64(), x.to_f64());
    let t = fmin_f64(fmax_f64((x - e0) / (e1 - e0), 0.0), 1.0);
    T::from_f64(t * t * (3.0 - 2.0 * t))
}

/// 1.0 for x > 0, −1.0 for x < 0, x itself for ±0, 0.0 for NaN.
pub fn sign<T: Fp>(x: T) -> T {
    let v = x.to_f64();
    T::from_f64(if v.is_nan() {
        0.0
    } else if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        v
    })
}
