//! Shared by the double-precision math tests (host and GPU): the builtins with their shapes
//! and OpenCL ULP limits, the inputs, the cpu runtime's results and the ulp measure.
#![allow(dead_code)]

use oclc_cpu::runtime::builtin::Builtin;
use oclc_cpu::runtime::dispatch::call_scalar;
use oclc_cpu::runtime::scalar::Scalar;

/// How a builtin is called: (double), (double, double), (double, int).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Args {
    X,
    XY,
    XN,
}

/// (name, arguments, limit in ulps) from the OpenCL C spec's table for double precision;
/// lgamma has no limit there and gets [`LGAMMA_LIMIT`]'s test instead.
pub const FUNCTIONS: &[(&str, Args, f64)] = &[
    ("exp", Args::X, 3.0),
    ("exp2", Args::X, 3.0),
    ("exp10", Args::X, 3.0),
    ("expm1", Args::X, 3.0),
    ("log", Args::X, 3.0),
    ("log2", Args::X, 3.0),
    ("log10", Args::X, 3.0),
    ("log1p", Args::X, 2.0),
    ("logb", Args::X, 0.0),
    ("sin", Args::X, 4.0),
    ("cos", Args::X, 4.0),
    ("tan", Args::X, 5.0),
    ("sinpi", Args::X, 4.0),
    ("cospi", Args::X, 4.0),
    ("tanpi", Args::X, 6.0),
    ("asin", Args::X, 4.0),
    ("acos", Args::X, 4.0),
    ("atan", Args::X, 5.0),
    ("asinpi", Args::X, 5.0),
    ("acospi", Args::X, 5.0),
    ("atanpi", Args::X, 5.0),
    ("sinh", Args::X, 4.0),
    ("cosh", Args::X, 4.0),
    ("tanh", Args::X, 5.0),
    ("asinh", Args::X, 4.0),
    ("acosh", Args::X, 4.0),
    ("atanh", Args::X, 5.0),
    ("cbrt", Args::X, 2.0),
    ("erf", Args::X, 16.0),
    ("erfc", Args::X, 16.0),
    ("tgamma", Args::X, 16.0),
    ("lgamma", Args::X, f64::INFINITY),
    ("atan2", Args::XY, 6.0),
    ("atan2pi", Args::XY, 6.0),
    ("pow", Args::XY, 16.0),
    ("powr", Args::XY, 16.0),
    ("hypot", Args::XY, 4.0),
    ("fmod", Args::XY, 0.0),
    ("remainder", Args::XY, 0.0),
    ("nextafter", Args::XY, 0.0),
    ("pown", Args::XN, 16.0),
    ("rootn", Args::XN, 16.0),
    ("ldexp", Args::XN, 0.0),
];

/// lgamma (no spec limit) must agree with the cpu runtime to this relative error, or to
/// this many ulps.
pub const LGAMMA_LIMIT: (f64, f64) = (1e-13, 16.0);

/// Special and boundary values every function sees.
pub fn specials() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        2.5,
        -2.5,
        10.0,
        -10.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        f64::MAX,
        f64::MIN,
        1.0 - f64::EPSILON / 2.0,
        1.0 + f64::EPSILON,
        -(1.0 - f64::EPSILON / 2.0),
        0.999,
        1e-8,
        -1e-8,
        1e-300,
        0.35,
        0.34657359027997264,
        -0.3466,
        22.0,
        27.3,
        -6.0,
        6.0,
        709.78,
        710.4,
        -708.4,
        -745.1,
        -745.2,
        1024.0,
        -1074.0,
        -1075.0,
        170.5,
        171.6,
        -171.5,
        -180.5,
        9007199254740992.0,
        4503599627370497.0,
        1e22,
        5.0e15,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::FRAC_PI_4,
        0.7853981633974484,
        6381956970095103.0 * 2f64.powi(797),
        268435456.0,
        0.4375,
        0.6875,
        1.1875,
        2.4375,
    ];
    for k in [
        -1074, -1022, -600, -100, -30, -1, 1, 30, 100, 600, 1000, 1023,
    ] {
        v.push(pow2(k));
        v.push(-1.3 * pow2(k));
    }
    v
}

/// A small deterministic generator (PCG-style LCG).
pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(0xBF58476D1CE4E5B9) ^ (x >> 32)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / 9007199254740992.0
    }
}

/// `count` inputs: the specials, dense ranges, every exponent, random bit patterns.
pub fn inputs(count: usize, seed: u64) -> Vec<f64> {
    let mut v = specials();
    let mut r = Lcg(seed);
    let n = count.saturating_sub(v.len());
    for i in 0..n {
        let x = match i % 5 {
            0 => (r.unit() - 0.5) * 8.0,
            1 => (r.unit() - 0.5) * 60.0,
            2 => (r.unit() - 0.5) * 2000.0,
            3 => {
                let e = (r.next() % 2098) as i32 - 1074;
                let s = if r.next().is_multiple_of(2) {
                    1.0
                } else {
                    -1.0
                };
                s * (1.0 + r.unit()) * pow2(e.clamp(-1074, 1023))
            }
            _ => f64::from_bits(r.next()),
        };
        v.push(x);
    }
    v
}

/// The int argument of `pown`/`rootn`/`ldexp` for input `i`.
pub fn int_arg(name: &str, i: usize, r: &mut Lcg) -> i32 {
    match (name, i % 11) {
        (_, 0) => 0,
        (_, 1) => 1,
        (_, 2) => -1,
        (_, 3) => 2,
        (_, 4) => 3,
        ("ldexp", 5) => i32::MAX,
        ("ldexp", 6) => i32::MIN,
        ("ldexp", _) => (r.next() % 4400) as i32 - 2200,
        _ => (r.next() % 81) as i32 - 40,
    }
}

/// The second double argument for input `i` (a partner from the same inputs).
pub fn partner(xs: &[f64], i: usize, r: &mut Lcg) -> f64 {
    let k = (r.next() % xs.len() as u64) as usize;
    let y = xs.get(k).copied().unwrap_or(1.0);
    match i % 4 {
        0 => y,
        1 => (r.unit() - 0.5) * 40.0,
        2 => (r.unit() * 4.0).round() * 0.5 - 1.0,
        _ => xs.get(i ^ 1).copied().unwrap_or(y),
    }
}

/// The cpu runtime's (value, int output) for double builtin `name`.
pub fn cpu(name: &str, args: Args, x: f64, y: f64, n: i32) -> (f64, Option<i32>) {
    let b = Builtin::from_name(name).unwrap_or_else(|| panic!("no cpu builtin {name}"));
    let a = match args {
        Args::X => vec![Scalar::F64(x)],
        Args::XY => vec![Scalar::F64(x), Scalar::F64(y)],
        Args::XN => vec![Scalar::F64(x), Scalar::I32(n)],
    };
    match call_scalar(b, &a) {
        Ok((Scalar::F64(v), out)) => (
            v,
            out.and_then(|o| match o {
                Scalar::I32(i) => Some(i),
                _ => None,
            }),
        ),
        Ok((Scalar::I32(i), _)) => (f64::from(i), None),
        other => panic!("cpu {name}: {other:?}"),
    }
}

/// |got - want| in ulps of `want` (0 when both are NaN or equal, ∞ for a NaN/infinity
/// mismatch).
pub fn ulp_error(got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if got == want {
        return if got == 0.0 && got.is_sign_negative() != want.is_sign_negative() {
            f64::INFINITY
        } else {
            0.0
        };
    }
    if want.is_infinite() || got.is_infinite() {
        // Infinity for a value beyond the largest double is within half an ulp of it.
        let other = if want.is_infinite() { got } else { want };
        return if other.abs() == f64::MAX && got.signum() == want.signum() {
            1.0
        } else {
            f64::INFINITY
        };
    }
    let e = if want == 0.0 {
        -1022
    } else {
        (want.abs().log2().floor() as i32).clamp(-1022, 1023)
    };
    (got - want).abs() / pow2(e) * pow2(52)
}

/// 2^k for k in [-1074, 1023], exactly.
pub fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074).clamp(0, 51))
    }
}

/// Whether `got` is acceptable for `name` against the cpu's `want` with `limit` ulps. The
/// cpu runtime may itself be 1 ulp off the true value (the platform libm), so a limit of 2 or
/// more is checked as limit - 1 against it: within the spec's limit of the true value.
pub fn accept(name: &str, got: f64, want: f64, limit: f64) -> (bool, f64) {
    let limit = if limit >= 2.0 { limit - 1.0 } else { limit };
    let err = ulp_error(got, want);
    if name == "lgamma" {
        let (rel, ulps) = LGAMMA_LIMIT;
        let ok = err <= ulps || (got - want).abs() <= rel * want.abs().max(1.0);
        return (ok, if ok { err.min(1e9) } else { err });
    }
    (err <= limit, err)
}

/// Inputs where the cpu runtime itself is off by more than the spec allows, checked against
/// high-precision values instead (`huge_trig_arguments`, `rootn_of_subnormals`): the
/// platform libm's sin/cos/tan of arguments beyond 1e15 (8 ulp off at 0x7506AC5B262CA1FF),
/// and rootn's Newton step, which loses precision when x is subnormal.
pub fn cpu_inexact(name: &str, x: f64) -> bool {
    match name {
        "sin" | "cos" | "tan" => x.abs() > 1e15 && x.is_finite(),
        "rootn" => x != 0.0 && x.abs() < f64::MIN_POSITIVE,
        _ => false,
    }
}

/// pow(x, 0) and pown(x, 0) are 1 for every x, a NaN included (C99 F.9.4.4, OpenCL 7.5.1);
/// the platform libm the cpu runtime calls gives NaN when x is a signaling NaN. 1 is
/// accepted there.
pub fn snan_pow_one(name: &str, x: f64, y: f64, got: f64, want: f64) -> bool {
    let signaling = |v: f64| v.is_nan() && v.to_bits() & (1 << 51) == 0;
    matches!(name, "pow" | "pown") && got == 1.0 && want.is_nan() && (signaling(x) || signaling(y))
}
