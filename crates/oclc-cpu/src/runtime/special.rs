//! erf, erfc, lgamma and tgamma in f64 (std has none of them on stable).
//!
//! Method, per function:
//! - erf: for |x| < 1 the all-positive series erf(x) = (2/√π)·e^(−x²)·Σ 2ⁿx^(2n+1)/(2n+1)!!
//!   (no cancellation), with x² split exactly so e^(−x²) keeps full precision; beyond, 1 − erfc.
//! - erfc: 1 − erf below 0.5 (at most a 2x loss), else the continued fraction
//!   √π·e^(x²)·erfc(x) = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))) evaluated bottom-up.
//! - lgamma: Taylor series of log Γ about 1 and 2 (coefficients ζ(k)), the recurrence
//!   Γ(x+1) = xΓ(x) to reach them, Stirling's series for x ≥ 10, reflection for x < 0.
//! - tgamma: exp of those series on (0, 2.5) (the exponent is small, so exp keeps the
//!   accuracy), the recurrence up to 10, and Stirling's formula as a product of correctly rounded
//!   pow/exp factors above (no exp of a large, inexact logarithm).

use super::math::sinpi_f64;
use std::f64::consts::PI;

/// Euler–Mascheroni constant γ.
const EULER_GAMMA: f64 = 0.5772156649015329;
/// 2/√π.
const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
/// ln(2π)/2.
const HALF_LN_2PI: f64 = 0.9189385332046728;

/// ζ(k) − 1 for k = 2..=30.
const ZETA_M1: [f64; 29] = [
    0.6449340668482264,
    0.2020569031595943,
    0.08232323371113819,
    0.03692775514336993,
    0.01734306198444914,
    0.008349277381922827,
    0.00407735619794434,
    0.0020083928260822143,
    0.0009945751278180853,
    0.0004941886041194645,
    0.0002460865533080483,
    0.00012271334757848915,
    6.124813505870483e-05,
    3.058823630702049e-05,
    1.528225940865187e-05,
    7.637197637899763e-06,
    3.81729326499984e-06,
    1.908212716553939e-06,
    9.539620338727962e-07,
    4.769329867878064e-07,
    2.38450502727733e-07,
    1.1921992596531106e-07,
    5.960818905125948e-08,
    2.980350351465228e-08,
    1.4901554828365043e-08,
    7.45071178983543e-09,
    3.725334024788457e-09,
    1.862659723513049e-09,
    9.313274324196682e-10,
];

/// ζ(k) − 1 for k ≥ 2 (beyond the table, 2⁻ᵏ + 3⁻ᵏ is exact to double precision).
fn zeta_m1(k: usize) -> f64 {
    match ZETA_M1.get(k.wrapping_sub(2)) {
        Some(&v) => v,
        None => f64::powi(2.0, -(k as i32)) + f64::powi(3.0, -(k as i32)),
    }
}

/// Sums Σ_{k≥2} (−1)^k c(k) z^k / k until the terms stop mattering (|z| ≤ 1/2 here).
fn log_gamma_series(z: f64, c: impl Fn(usize) -> f64) -> f64 {
    let mut sum = 0.0;
    // (−z)^k, so the sign (−1)^k is folded in.
    let mut zk = -z;
    for k in 2..120usize {
        zk *= -z;
        let term = c(k) * zk / k as f64;
        sum += term;
        if term.abs() <= sum.abs() * 1e-18 {
            break;
        }
    }
    sum
}

/// log Γ(1 + z) for |z| ≤ 1/2.
fn lgamma1p(z: f64) -> f64 {
    -EULER_GAMMA * z + log_gamma_series(z, |k| 1.0 + zeta_m1(k))
}

/// log Γ(2 + z) for |z| ≤ 1/2.
fn lgamma2p(z: f64) -> f64 {
    (1.0 - EULER_GAMMA) * z + log_gamma_series(z, zeta_m1)
}

/// Stirling's correction series Σ B₂ₖ / (2k(2k−1)x^(2k−1)) for x ≥ 10.
fn stirling_series(x: f64) -> f64 {
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360360.0,
        1.0 / 156.0,
        -3617.0 / 122400.0,
    ];
    let r = 1.0 / x;
    let r2 = r * r;
    let mut acc = 0.0;
    for c in C.iter().rev() {
        acc = acc * r2 + c;
    }
    acc * r
}

/// log Γ(x) for finite x > 0.
fn lgamma_pos(x: f64) -> f64 {
    if x < 0.5 {
        lgamma1p(x) - x.ln()
    } else if x < 1.5 {
        lgamma1p(x - 1.0)
    } else if x < 2.5 {
        lgamma2p(x - 2.0)
    } else if x < 10.0 {
        // x - k is exact for integer k < x; shift down into [1.5, 2.5).
        let mut y = x;
        let mut prod = 1.0;
        while y >= 2.5 {
            y -= 1.0;
            prod *= y;
        }
        lgamma2p(y - 2.0) + prod.ln()
    } else {
        (x - 0.5) * x.ln() - x + HALF_LN_2PI + stirling_series(x)
    }
}

/// (log|Γ(x)|, sign of Γ(x)); the sign is 0 for NaN, zero and negative integers (where Γ has a
/// pole), as the OpenCL spec asks of `lgamma_r`.
pub fn lgamma_r(x: f64) -> (f64, i32) {
    if x.is_nan() {
        return (x, 0);
    }
    if x.is_infinite() {
        return (f64::INFINITY, if x > 0.0 { 1 } else { 0 });
    }
    if x <= 0.0 && x == x.floor() {
        return (f64::INFINITY, 0);
    }
    if x > 0.0 {
        return (lgamma_pos(x), 1);
    }
    // Γ(x) = π / (sin(πx) · (−x) · Γ(−x)); −x is exact.
    let s = sinpi_f64(x);
    let sign = if s < 0.0 { -1 } else { 1 };
    let v = PI.ln() - s.abs().ln() - (-x).ln() - lgamma_pos(-x);
    (v, sign)
}

/// Γ(x) for finite x > 0.
fn tgamma_pos(x: f64) -> f64 {
    if x < 0.5 {
        lgamma1p(x).exp() / x
    } else if x < 1.5 {
        lgamma1p(x - 1.0).exp()
    } else if x < 2.5 {
        lgamma2p(x - 2.0).exp()
    } else if x < 10.0 {
        let mut y = x;
        let mut prod = 1.0;
        while y >= 2.5 {
            y -= 1.0;
            prod *= y;
        }
        lgamma2p(y - 2.0).exp() * prod
    } else if x > 171.7 {
        f64::INFINITY
    } else {
        // Γ(x) = √(2π/x) · (x^(x/2) · e^(−x/2))² · e^S(x); x/2 is exact, so pow and exp see
        // exact arguments.
        let h = 0.5 * x;
        let a = x.powf(h) * (-h).exp();
        let c = (2.0 * PI / x).sqrt() * stirling_series(x).exp();
        (a * c) * a
    }
}

/// Γ(x), with Γ(±0) = ±∞, NaN at negative integers and −∞, +∞ at +∞.
pub fn tgamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x > 0.0 && x <= 23.0 && x == x.floor() {
        // (x-1)! is exact in f64 up to 22!, and so is every partial product.
        return (1..x as u32).fold(1.0, |p, k| p * f64::from(k));
    }
    if x > 0.0 {
        return tgamma_pos(x);
    }
    if x == x.floor() {
        return f64::NAN;
    }
    let s = sinpi_f64(x);
    let g = tgamma_pos(-x);
    if g.is_finite() {
        PI / (s * -x * g)
    } else {
        // Γ(−x) overflows: go through logarithms (the result is tiny or zero).
        let sign = if s < 0.0 { -1.0 } else { 1.0 };
        sign * (PI.ln() - s.abs().ln() - (-x).ln() - lgamma_pos(-x)).exp()
    }
}

/// The error function.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let v = if ax < f64::powi(2.0, -28) {
        return TWO_OVER_SQRT_PI * x;
    } else if ax < 1.0 {
        erf_series(ax)
    } else if ax < 6.0 {
        1.0 - erfc_cf(ax)
    } else {
        1.0
    };
    v.copysign(x)
}

/// The complementary error function, 1 − erf(x).
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < -6.0 {
        return 2.0;
    }
    if x.abs() < 0.5 {
        return 1.0 - erf(x);
    }
    if x < 0.0 {
        return 2.0 - erfc_cf(-x);
    }
    if x > 27.3 {
        return 0.0;
    }
    erfc_cf(x)
}

/// e^(−x²) with x² split into an exact sum so the rounding of x² costs nothing.
fn exp_neg_sq(x: f64) -> f64 {
    let hi = x * x;
    let lo = x.mul_add(x, -hi);
    (-hi).exp() * (1.0 - lo)
}

/// erf for 0 ≤ x < 1 by the positive series.
fn erf_series(x: f64) -> f64 {
    let two_x2 = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while n < 200.0 {
        n += 1.0;
        term *= two_x2 / (2.0 * n + 1.0);
        sum += term;
        if term < sum * 1e-18 {
            break;
        }
    }
    TWO_OVER_SQRT_PI * exp_neg_sq(x) * sum
}

/// erfc for x ≥ 0.5 by the continued fraction, with enough terms for full precision.
fn erfc_cf(x: f64) -> f64 {
    let n = (20.0 + 500.0 / (x * x)).min(2100.0) as usize;
    let mut t = x;
    for k in (1..=n).rev() {
        t = x + (k as f64 * 0.5) / t;
    }
    exp_neg_sq(x) / (PI.sqrt() * t)
}
