//! 6.15.2 math functions, generic over half, float and double.
//!
//! Each function computes in f64 and rounds once to the argument type (see `float`). The f64
//! routines come from std (the platform libm) where it has them, and are written here where it
//! does not: the `*pi` functions (exact argument reduction), `exp10`, `rootn`, `powr`, `remquo`,
//! `acosh` near 1, and `erf`/`erfc`/`lgamma`/`tgamma` (in `special`). Special values follow C99
//! Annex F plus the OpenCL C edge-case rules (spec 7.5).
//!
//! `half_*` and `native_*` variants are the full-precision functions: the spec allows more error
//! for them, never less accuracy, so being exact within the full functions' bounds is conforming.

use super::float::Fp;
use super::special;
use std::f64::consts::PI;

/// `ilogb(0)` (the spec's `FP_ILOGB0`).
pub const FP_ILOGB0: i32 = i32::MIN;
/// `ilogb(NaN)` (the spec's `FP_ILOGBNAN`).
pub const FP_ILOGBNAN: i32 = i32::MAX;

/// Applies an f64 function and rounds the result to `T`.
#[inline]
fn map1<T: Fp>(x: T, f: impl Fn(f64) -> f64) -> T {
    T::from_f64(f(x.to_f64()))
}

#[inline]
fn map2<T: Fp>(x: T, y: T, f: impl Fn(f64, f64) -> f64) -> T {
    T::from_f64(f(x.to_f64(), y.to_f64()))
}

macro_rules! via_f64 {
    ($($(#[$doc:meta])* $name:ident => $f:expr;)*) => {
        $( $(#[$doc])* pub fn $name<T: Fp>(x: T) -> T { map1(x, $f) } )*
    };
}

via_f64! {
    /// Arc cosine.
    acos => f64::acos;
    /// Inverse hyperbolic cosine.
    acosh => acosh_f64;
    /// acos(x) / π.
    acospi => |x: f64| x.acos() / PI;
    /// Arc sine.
    asin => f64::asin;
    /// Inverse hyperbolic sine.
    asinh => asinh_f64;
    /// asin(x) / π.
    asinpi => |x: f64| x.asin() / PI;
    /// Arc tangent.
    atan => f64::atan;
    /// Inverse hyperbolic tangent.
    atanh => atanh_f64;
    /// atan(x) / π.
    atanpi => |x: f64| x.atan() / PI;
    /// Cube root.
    cbrt => f64::cbrt;
    /// Round toward +∞.
    ceil => f64::ceil;
    /// Cosine.
    cos => f64::cos;
    /// Hyperbolic cosine.
    cosh => f64::cosh;
    /// cos(πx), with exact argument reduction.
    cospi => cospi_f64;
    /// Complementary error function.
    erfc => special::erfc;
    /// Error function.
    erf => special::erf;
    /// e^x.
    exp => f64::exp;
    /// 2^x.
    exp2 => f64::exp2;
    /// 10^x.
    exp10 => exp10_f64;
    /// e^x - 1.
    expm1 => f64::exp_m1;
    /// Absolute value.
    fabs => f64::abs;
    /// Round toward -∞.
    floor => f64::floor;
    /// log(Γ(x)) (of |Γ(x)|).
    lgamma => |x| special::lgamma_r(x).0;
    /// Natural logarithm.
    log => f64::ln;
    /// Base-2 logarithm.
    log2 => f64::log2;
    /// Base-10 logarithm.
    log10 => f64::log10;
    /// log(1 + x).
    log1p => f64::ln_1p;
    /// The exponent of x as a floating-point value.
    logb => logb_f64;
    /// Round to integral, ties to even (the only rounding mode of the builtins).
    rint => f64::round_ties_even;
    /// Round to integral, ties away from zero.
    round => f64::round;
    /// 1 / sqrt(x).
    rsqrt => |x: f64| 1.0 / x.sqrt();
    /// Sine.
    sin => f64::sin;
    /// Hyperbolic sine.
    sinh => f64::sinh;
    /// sin(πx), with exact argument reduction.
    sinpi => sinpi_f64;
    /// Square root (correctly rounded).
    sqrt => f64::sqrt;
    /// Tangent.
    tan => f64::tan;
    /// Hyperbolic tangent.
    tanh => f64::tanh;
    /// tan(πx), with exact argument reduction.
    tanpi => tanpi_f64;
    /// Γ(x).
    tgamma => special::tgamma;
    /// Round toward zero.
    trunc => f64::trunc;
    /// 1 / x (`half_recip`, `native_recip`).
    recip => |x: f64| 1.0 / x;
}

/// Arc tangent of y/x in the quadrant of (x, y).
pub fn atan2<T: Fp>(y: T, x: T) -> T {
    map2(y, x, f64::atan2)
}

/// atan2(y, x) / π, exact at the spec's special points.
pub fn atan2pi<T: Fp>(y: T, x: T) -> T {
    map2(y, x, atan2pi_f64)
}

/// x with the sign of y.
pub fn copysign<T: Fp>(x: T, y: T) -> T {
    map2(x, y, f64::copysign)
}

/// x - y if x > y, +0 otherwise; NaN if either is NaN.
pub fn fdim<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            x - y
        } else {
            0.0
        }
    })
}

/// a * b + c, rounded once.
pub fn fma<T: Fp>(a: T, b: T, c: T) -> T {
    T::fma(a, b, c)
}

/// a * b + c; computed fused (the spec lets `mad` trade accuracy, this never does).
pub fn mad<T: Fp>(a: T, b: T, c: T) -> T {
    T::fma(a, b, c)
}

/// IEEE maxNum: the larger, a NaN argument ignored; +0 is larger than -0.
pub fn fmax<T: Fp>(x: T, y: T) -> T {
    map2(x, y, fmax_f64)
}

/// IEEE minNum: the smaller, a NaN argument ignored; -0 is smaller than +0.
pub fn fmin<T: Fp>(x: T, y: T) -> T {
    map2(x, y, fmin_f64)
}

pub(crate) fn fmax_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && x.is_sign_positive()) {
        x
    } else {
        y
    }
}

pub(crate) fn fmin_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// C99 fmod: x - y * trunc(x / y), exact.
pub fn fmod<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| x % y)
}

/// (fract, floor): `fmin(x - floor(x), largest value below 1)` and `floor(x)`.
pub fn fract<T: Fp>(x: T) -> (T, T) {
    let xf = x.to_f64();
    if xf.is_nan() {
        return (x, x);
    }
    let fl = xf.floor();
    if xf.is_infinite() {
        return (T::from_f64(0.0f64.copysign(xf)), x);
    }
    let fr = T::from_f64(xf - fl);
    let cap = T::one_below();
    let fr = if fr.to_f64() > cap.to_f64() { cap } else { fr };
    // fract(-0) is -0 (x - floor(x) would give +0).
    let fr = if xf == 0.0 { x } else { fr };
    (fr, T::from_f64(fl))
}

/// (mantissa in [0.5, 1), exponent) with x = mantissa * 2^exponent; (x, 0) for 0, ∞ and NaN.
pub fn frexp<T: Fp>(x: T) -> (T, i32) {
    let (m, e) = frexp_f64(x.to_f64());
    (T::from_f64(m), e)
}

pub(crate) fn frexp_f64(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, bias) = if x.abs() < f64::MIN_POSITIVE {
        (x * f64::powi(2.0, 64), 64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, e - bias)
}

/// sqrt(x² + y²) without undue overflow or underflow.
pub fn hypot<T: Fp>(x: T, y: T) -> T {
    map2(x, y, f64::hypot)
}

/// The unbiased exponent as an int; `FP_ILOGB0` for 0, `FP_ILOGBNAN` for NaN, INT_MAX for ∞.
pub fn ilogb<T: Fp>(x: T) -> i32 {
    let x = x.to_f64();
    if x.is_nan() {
        FP_ILOGBNAN
    } else if x.is_infinite() {
        i32::MAX
    } else if x == 0.0 {
        FP_ILOGB0
    } else {
        frexp_f64(x).1 - 1
    }
}

/// x * 2^n, correctly rounded.
pub fn ldexp<T: Fp>(x: T, n: i32) -> T {
    map1(x, |x| ldexp_f64(x, n))
}

pub(crate) fn ldexp_f64(x: f64, n: i32) -> f64 {
    let mut y = x;
    let mut n = n.clamp(-2300, 2300);
    if n > 1023 {
        y *= f64::powi(2.0, 1023);
        n -= 1023;
        if n > 1023 {
            y *= f64::powi(2.0, 1023);
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        // Scale down in steps that stay normal (keeping 53 spare bits) so only the last rounds.
        y *= f64::powi(2.0, -1022 + 53);
        n += 1022 - 53;
        if n < -1022 {
            y *= f64::powi(2.0, -1022 + 53);
            n = (n + 1022 - 53).max(-1022);
        }
    }
    y * f64::from_bits(((0x3ff + n) as u64) << 52)
}

/// (log|Γ(x)|, sign of Γ(x) as ±1, or 0 when x is zero or a negative integer... see `special`).
pub fn lgamma_r<T: Fp>(x: T) -> (T, i32) {
    let (v, s) = special::lgamma_r(x.to_f64());
    (T::from_f64(v), s)
}

/// x if |x| > |y|, y if |y| > |x|, else fmax(x, y).
pub fn maxmag<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| {
        if x.abs() > y.abs() {
            x
        } else if y.abs() > x.abs() {
            y
        } else {
            fmax_f64(x, y)
        }
    })
}

/// x if |x| < |y|, y if |y| < |x|, else fmin(x, y).
pub fn minmag<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| {
        if x.abs() < y.abs() {
            x
        } else if y.abs() < x.abs() {
            y
        } else {
            fmin_f64(x, y)
        }
    })
}

/// (fractional part, integral part), both with the sign of x; modf(±∞) = (±0, ±∞).
pub fn modf<T: Fp>(x: T) -> (T, T) {
    let xf = x.to_f64();
    if xf.is_nan() {
        return (x, x);
    }
    let i = xf.trunc();
    let f = if xf.is_infinite() { 0.0 } else { xf - i };
    (T::from_f64(f.copysign(xf)), T::from_f64(i))
}

/// A quiet NaN carrying `code` in its mantissa.
pub fn nan<T: Fp>(code: u64) -> T {
    T::nan_with(code)
}

/// The next representable value after x toward y.
pub fn nextafter<T: Fp>(x: T, y: T) -> T {
    x.next_after(y)
}

/// x^y (C99 pow).
pub fn pow<T: Fp>(x: T, y: T) -> T {
    map2(x, y, f64::powf)
}

/// x^n for integer n; pown(x, 0) is 1 for every x.
pub fn pown<T: Fp>(x: T, n: i32) -> T {
    map1(x, |x| x.powf(f64::from(n)))
}

/// x^y for x ≥ 0, defined as exp2(y * log2(x)); NaN for x < 0 (spec 7.5.1 special cases).
pub fn powr<T: Fp>(x: T, y: T) -> T {
    map2(x, y, powr_f64)
}

/// IEEE remainder: x - n*y with n = x/y rounded to nearest even.
pub fn remainder<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| remquo_f64(x, y).0)
}

/// (remainder(x, y), the low seven bits of the rounded quotient with the sign of x/y).
pub fn remquo<T: Fp>(x: T, y: T) -> (T, i32) {
    let (r, q) = remquo_f64(x.to_f64(), y.to_f64());
    (T::from_f64(r), q)
}

/// x^(1/n), for integer n (spec 7.5.1 special cases).
pub fn rootn<T: Fp>(x: T, n: i32) -> T {
    map1(x, |x| rootn_f64(x, n))
}

/// (sin x, cos x).
pub fn sincos<T: Fp>(x: T) -> (T, T) {
    let xf = x.to_f64();
    (T::from_f64(xf.sin()), T::from_f64(xf.cos()))
}

/// x / y (`half_divide`, `native_divide`), correctly rounded.
pub fn divide<T: Fp>(x: T, y: T) -> T {
    map2(x, y, |x, y| x / y)
}

pub(crate) fn acosh_f64(x: f64) -> f64 {
    if x.is_nan() || x < 1.0 {
        return f64::NAN;
    }
    if x < 2.0 {
        // x - 1 is exact here; log1p keeps precision near 1.
        let t = x - 1.0;
        (t + (2.0 * t + t * t).sqrt()).ln_1p()
    } else if x < f64::powi(2.0, 28) {
        (2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt())).ln()
    } else {
        x.ln() + std::f64::consts::LN_2
    }
}

pub(crate) fn asinh_f64(x: f64) -> f64 {
    // On |x|; std's formula overflows to ∞ for |x| near the largest double.
    let a = x.abs();
    let r = if a.is_nan() || a < f64::powi(2.0, -28) {
        a
    } else if a > f64::powi(2.0, 28) {
        a.ln() + std::f64::consts::LN_2
    } else if a > 2.0 {
        (2.0 * a + 1.0 / ((a * a + 1.0).sqrt() + a)).ln()
    } else {
        let t = a * a;
        (a + t / (1.0 + (1.0 + t).sqrt())).ln_1p()
    };
    r.copysign(x)
}

pub(crate) fn atanh_f64(x: f64) -> f64 {
    // On |x|, where 1 - |x| is exact for |x| ≥ 1/2; the split keeps log1p's argument accurate.
    let a = x.abs();
    let t = if a < 0.5 {
        let d = 2.0 * a;
        0.5 * (d + d * a / (1.0 - a)).ln_1p()
    } else {
        0.5 * (2.0 * a / (1.0 - a)).ln_1p()
    };
    t.copysign(x)
}

pub(crate) fn exp10_f64(x: f64) -> f64 {
    // pow with an exact base and exponent is correctly rounded or nearly so in glibc/musl.
    10f64.powf(x)
}

fn logb_f64(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        f64::INFINITY
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        f64::from(frexp_f64(x).1 - 1)
    }
}

/// π·r as an unevaluated sum hi + lo, for |r| ≤ 1/4 (π split into two doubles).
fn pi_times(r: f64) -> (f64, f64) {
    const PI_LO: f64 = 1.2246467991473532e-16;
    let hi = PI * r;
    let lo = PI.mul_add(r, -hi) + PI_LO * r;
    (hi, lo)
}

/// sin(πr) for |r| ≤ 1/4.
fn sin_pi_small(r: f64) -> f64 {
    let (h, l) = pi_times(r);
    h.sin() + l * h.cos()
}

/// cos(πr) for |r| ≤ 1/4.
fn cos_pi_small(r: f64) -> f64 {
    let (h, l) = pi_times(r);
    h.cos() - l * h.sin()
}

pub(crate) fn sinpi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    // |x| mod 2 is exact; each branch's subtraction is exact (Sterbenz).
    let a = x.abs() % 2.0;
    let v = if a <= 0.25 {
        sin_pi_small(a)
    } else if a <= 0.75 {
        cos_pi_small(0.5 - a)
    } else if a <= 1.25 {
        sin_pi_small(1.0 - a)
    } else if a <= 1.75 {
        -cos_pi_small(a - 1.5)
    } else {
        -sin_pi_small(2.0 - a)
    };
    // sinpi(n) is +0 for positive integers n and -0 for negative ones (sign of x).
    let v = if v == 0.0 { 0.0 } else { v };
    if x.is_sign_negative() { -v } else { v }
}

pub(crate) fn cospi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let a = x.abs() % 2.0;
    let v = if a <= 0.25 {
        cos_pi_small(a)
    } else if a <= 0.75 {
        sin_pi_small(0.5 - a)
    } else if a <= 1.25 {
        -cos_pi_small(1.0 - a)
    } else if a <= 1.75 {
        sin_pi_small(a - 1.5)
    } else {
        cos_pi_small(2.0 - a)
    };
    // cospi(n + 0.5) is +0.
    if v == 0.0 { 0.0 } else { v }
}

pub(crate) fn tanpi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    // sinpi/cospi carry the spec's signs of zeros and infinities: tanpi(n) = ±0 by the parity
    // of n, tanpi(n + 0.5) = ±∞.
    sinpi_f64(x) / cospi_f64(x)
}

pub(crate) fn atan2pi_f64(y: f64, x: f64) -> f64 {
    if y.is_infinite() && x.is_infinite() {
        let v: f64 = if x > 0.0 { 0.25 } else { 0.75 };
        return v.copysign(y);
    }
    y.atan2(x) / PI
}

pub(crate) fn powr_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y == 0.0 {
            f64::NAN
        } else if y < 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
    }
    if x.is_infinite() {
        return if y == 0.0 {
            f64::NAN
        } else if y < 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x == 1.0 {
        return if y.is_infinite() { f64::NAN } else { 1.0 };
    }
    x.powf(y)
}

pub(crate) fn rootn_f64(x: f64, n: i32) -> f64 {
    if n == 0 || x.is_nan() {
        return f64::NAN;
    }
    let odd = n % 2 != 0;
    if x < 0.0 && !odd {
        return f64::NAN;
    }
    if x == 0.0 {
        let mag = if n < 0 { f64::INFINITY } else { 0.0 };
        return if odd { mag.copysign(x) } else { mag };
    }
    if x.is_infinite() {
        let mag = if n < 0 { 0.0 } else { f64::INFINITY };
        return mag.copysign(x);
    }
    let ax = x.abs();
    let r = match n {
        1 => ax,
        -1 => 1.0 / ax,
        2 => ax.sqrt(),
        3 => ax.cbrt(),
        _ => {
            let r0 = ax.powf(1.0 / f64::from(n));
            // One Newton step on r^n = ax fixes the error from rounding 1/n.
            let q = r0.powi(n) / ax;
            if q.is_finite() && q != 0.0 {
                r0 - r0 * (q - 1.0) / f64::from(n)
            } else {
                r0
            }
        }
    };
    r.copysign(x)
}

/// Exact IEEE remainder and the low seven bits of the quotient (signed as x/y).
pub(crate) fn remquo_f64(x: f64, y: f64) -> (f64, i32) {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return (f64::NAN, 0);
    }
    let neg_q = x.is_sign_negative() != y.is_sign_negative();
    if y.is_infinite() {
        return (x, 0);
    }
    let ax = x.abs();
    let ay = y.abs();
    let big = ay * 128.0;
    let mut r = if big.is_finite() { ax % big } else { ax };
    let mut q: i32 = 0;
    for i in (0..7).rev() {
        let step = ay * f64::from(1u32 << i);
        if r >= step {
            r -= step;
            q |= 1 << i;
        }
    }
    let twice = 2.0 * r;
    if twice > ay || (twice == ay && q & 1 == 1) {
        r -= ay;
        q += 1;
    }
    let q = q & 0x7f;
    let r = if r == 0.0 { 0.0 } else { r };
    let r = if x.is_sign_negative() { -r } else { r };
    (r, if neg_q { -q } else { q })
}
