//! Special values of the math builtins (C99 Annex F and the OpenCL C edge-case rules of spec
//! section 7.5), checked bit-exactly (so ±0 count) for float, double and, where every value is
//! representable, half — through the dispatcher, as the interpreter calls them.

use oclc_cpu::runtime::{Builtin, Half, Scalar, call_scalar};

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;

#[derive(Clone, Copy)]
enum A {
    F(f64),
    I(i32),
}

#[derive(Clone, Copy, Debug)]
enum Ty {
    Half,
    Float,
    Double,
}

fn typed(ty: Ty, x: f64) -> Option<Scalar> {
    let s = match ty {
        Ty::Half => Scalar::F16(Half::from_f64(x)),
        Ty::Float => Scalar::F32(x as f32),
        Ty::Double => Scalar::F64(x),
    };
    let back = s.as_f64().unwrap_or(0.0);
    (x.is_nan() || back.to_bits() == x.to_bits()).then_some(s)
}

fn same(got: f64, want: f64) -> bool {
    if want.is_nan() {
        got.is_nan()
    } else {
        got.to_bits() == want.to_bits()
    }
}

/// Runs `name(args)` in each type where everything is representable; checks the value and,
/// when given, the pointer output.
fn check(name: &str, args: &[A], want: f64, want_out: Option<f64>) {
    let b = Builtin::from_name(name).unwrap_or_else(|| panic!("unknown builtin {name}"));
    let mut ran = 0;
    for ty in [Ty::Half, Ty::Float, Ty::Double] {
        let mut scalars = Vec::new();
        let mut ok = typed(ty, want).is_some();
        if let Some(o) = want_out {
            ok &= typed(ty, o).is_some();
        }
        for a in args {
            match *a {
                A::F(x) => match typed(ty, x) {
                    Some(s) => scalars.push(s),
                    None => ok = false,
                },
                A::I(i) => scalars.push(Scalar::I32(i)),
            }
        }
        if !ok {
            continue;
        }
        ran += 1;
        let (v, out) = call_scalar(b, &scalars).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = v
            .as_f64()
            .unwrap_or_else(|| v.as_i128().unwrap_or(0) as f64);
        assert!(
            same(got, want),
            "{name}{:?} as {ty:?} = {got:?} ({v:?}), want {want:?}",
            scalars
        );
        if let Some(wo) = want_out {
            let o = out.unwrap_or_else(|| panic!("{name}: no pointer output"));
            let go = o
                .as_f64()
                .unwrap_or_else(|| o.as_i128().unwrap_or(0) as f64);
            assert!(
                same(go, wo),
                "{name}{scalars:?} as {ty:?}: out {go:?}, want {wo:?}"
            );
        }
    }
    assert!(ran > 0, "{name}: no type could represent the case");
}

macro_rules! t {
    ($name:literal ($($a:expr),*) => $want:expr) => {
        check($name, &[$(a($a)),*], $want, None)
    };
    ($name:literal ($($a:expr),*) => $want:expr, out $o:expr) => {
        check($name, &[$(a($a)),*], $want, Some($o))
    };
}

trait IntoA {
    fn into_a(self) -> A;
}
impl IntoA for f64 {
    fn into_a(self) -> A {
        A::F(self)
    }
}
impl IntoA for i32 {
    fn into_a(self) -> A {
        A::I(self)
    }
}
fn a(x: impl IntoA) -> A {
    x.into_a()
}

#[test]
fn inverse_trig_and_hyperbolic() {
    t!("acos"(1.0) => 0.0);
    t!("acos"(1.5) => NAN);
    t!("acosh"(1.0) => 0.0);
    t!("acosh"(0.5) => NAN);
    t!("acosh"(INF) => INF);
    t!("asin"(-0.0) => -0.0);
    t!("asin"(2.0) => NAN);
    t!("asinh"(-0.0) => -0.0);
    t!("asinh"(-INF) => -INF);
    t!("atan"(-0.0) => -0.0);
    t!("atanh"(-0.0) => -0.0);
    t!("atanh"(1.0) => INF);
    t!("atanh"(-1.0) => -INF);
    t!("atanh"(2.0) => NAN);
    t!("acospi"(1.0) => 0.0);
    t!("acospi"(-1.0) => 1.0);
    t!("acospi"(0.0) => 0.5);
    t!("asinpi"(-0.0) => -0.0);
    t!("asinpi"(1.0) => 0.5);
    t!("asinpi"(-1.0) => -0.5);
    t!("atanpi"(0.0) => 0.0);
    t!("atanpi"(-0.0) => -0.0);
    t!("atanpi"(INF) => 0.5);
    t!("atanpi"(-INF) => -0.5);
    t!("atanpi"(1.0) => 0.25);
    t!("atan2pi"(0.0, -0.0) => 1.0);
    t!("atan2pi"(-0.0, -0.0) => -1.0);
    t!("atan2pi"(0.0, 0.0) => 0.0);
    t!("atan2pi"(-0.0, 0.0) => -0.0);
    t!("atan2pi"(0.0, -3.0) => 1.0);
    t!("atan2pi"(-0.0, -3.0) => -1.0);
    t!("atan2pi"(-0.0, 3.0) => -0.0);
    t!("atan2pi"(-2.0, 0.0) => -0.5);
    t!("atan2pi"(2.0, -0.0) => 0.5);
    t!("atan2pi"(2.0, -INF) => 1.0);
    t!("atan2pi"(-2.0, -INF) => -1.0);
    t!("atan2pi"(-2.0, INF) => -0.0);
    t!("atan2pi"(INF, 5.0) => 0.5);
    t!("atan2pi"(-INF, -INF) => -0.75);
    t!("atan2pi"(INF, -INF) => 0.75);
    t!("atan2pi"(INF, INF) => 0.25);
    t!("atan2pi"(-INF, INF) => -0.25);
    t!("atan2pi"(1.0, 1.0) => 0.25);
    t!("atan2pi"(NAN, 1.0) => NAN);
}

#[test]
fn pi_functions() {
    t!("sinpi"(0.0) => 0.0);
    t!("sinpi"(-0.0) => -0.0);
    t!("sinpi"(1.0) => 0.0);
    t!("sinpi"(3.0) => 0.0);
    t!("sinpi"(1e30) => 0.0);
    t!("sinpi"(-1.0) => -0.0);
    t!("sinpi"(-2.0) => -0.0);
    t!("sinpi"(0.5) => 1.0);
    t!("sinpi"(-0.5) => -1.0);
    t!("sinpi"(1.5) => -1.0);
    t!("sinpi"(2.5) => 1.0);
    t!("sinpi"(INF) => NAN);
    t!("sinpi"(NAN) => NAN);
    t!("cospi"(0.0) => 1.0);
    t!("cospi"(-0.0) => 1.0);
    t!("cospi"(0.5) => 0.0);
    t!("cospi"(-1.5) => 0.0);
    t!("cospi"(2.5) => 0.0);
    t!("cospi"(1.0) => -1.0);
    t!("cospi"(-3.0) => -1.0);
    t!("cospi"(2.0) => 1.0);
    t!("cospi"(1e30) => 1.0);
    t!("cospi"(-INF) => NAN);
    t!("tanpi"(0.0) => 0.0);
    t!("tanpi"(-0.0) => -0.0);
    t!("tanpi"(2.0) => 0.0);
    t!("tanpi"(-2.0) => -0.0);
    t!("tanpi"(1.0) => -0.0);
    t!("tanpi"(3.0) => -0.0);
    t!("tanpi"(-1.0) => 0.0);
    t!("tanpi"(0.5) => INF);
    t!("tanpi"(1.5) => -INF);
    t!("tanpi"(2.5) => INF);
    t!("tanpi"(-0.5) => -INF);
    t!("tanpi"(-1.5) => INF);
    t!("tanpi"(INF) => NAN);
}

#[test]
fn exponentials_and_logarithms() {
    t!("exp"(-INF) => 0.0);
    t!("exp"(INF) => INF);
    t!("exp"(0.0) => 1.0);
    t!("exp2"(3.0) => 8.0);
    t!("exp2"(-1.0) => 0.5);
    t!("exp10"(0.0) => 1.0);
    t!("exp10"(-0.0) => 1.0);
    t!("exp10"(2.0) => 100.0);
    t!("exp10"(-INF) => 0.0);
    t!("exp10"(INF) => INF);
    t!("expm1"(-0.0) => -0.0);
    t!("expm1"(-INF) => -1.0);
    t!("log"(0.0) => -INF);
    t!("log"(-0.0) => -INF);
    t!("log"(1.0) => 0.0);
    t!("log"(-1.0) => NAN);
    t!("log"(INF) => INF);
    t!("log2"(8.0) => 3.0);
    t!("log2"(0.25) => -2.0);
    t!("log10"(1000.0) => 3.0);
    t!("log1p"(-1.0) => -INF);
    t!("log1p"(-0.0) => -0.0);
    t!("log1p"(-2.0) => NAN);
    t!("logb"(0.0) => -INF);
    t!("logb"(-0.0) => -INF);
    t!("logb"(8.0) => 3.0);
    t!("logb"(0.1) => -4.0);
    t!("logb"(-INF) => INF);
    t!("logb"(NAN) => NAN);
    t!("pow"(NAN, 0.0) => 1.0);
    t!("pow"(NAN, -0.0) => 1.0);
    t!("pow"(1.0, NAN) => 1.0);
    t!("pow"(-1.0, INF) => 1.0);
    t!("pow"(0.0, -1.0) => INF);
    t!("pow"(-0.0, -1.0) => -INF);
    t!("pow"(-0.0, -2.0) => INF);
    t!("pow"(-INF, 3.0) => -INF);
    t!("pow"(-8.0, 0.5) => NAN);
    t!("pow"(2.0, 10.0) => 1024.0);
    t!("pown"(NAN, 0) => 1.0);
    t!("pown"(0.0, -3) => INF);
    t!("pown"(-0.0, -3) => -INF);
    t!("pown"(-0.0, -2) => INF);
    t!("pown"(-0.0, 3) => -0.0);
    t!("pown"(-0.0, 2) => 0.0);
    t!("pown"(2.0, 10) => 1024.0);
    t!("pown"(-2.0, 3) => -8.0);
    t!("pown"(2.0, -2) => 0.25);
    t!("powr"(-1.0, 2.0) => NAN);
    t!("powr"(0.0, 0.0) => NAN);
    t!("powr"(INF, 0.0) => NAN);
    t!("powr"(1.0, INF) => NAN);
    t!("powr"(1.0, -INF) => NAN);
    t!("powr"(0.0, -1.0) => INF);
    t!("powr"(-0.0, -INF) => INF);
    t!("powr"(0.0, 1.0) => 0.0);
    t!("powr"(INF, -1.0) => 0.0);
    t!("powr"(INF, 1.0) => INF);
    t!("powr"(4.0, 0.5) => 2.0);
    t!("powr"(1.0, 5.0) => 1.0);
    t!("powr"(3.0, 0.0) => 1.0);
    t!("powr"(NAN, 0.0) => NAN);
    t!("rootn"(8.0, 3) => 2.0);
    t!("rootn"(-8.0, 3) => -2.0);
    t!("rootn"(-8.0, 2) => NAN);
    t!("rootn"(8.0, 0) => NAN);
    t!("rootn"(0.0, -3) => INF);
    t!("rootn"(-0.0, -3) => -INF);
    t!("rootn"(-0.0, -2) => INF);
    t!("rootn"(-0.0, 3) => -0.0);
    t!("rootn"(-0.0, 2) => 0.0);
    t!("rootn"(16.0, -4) => 0.5);
    t!("rootn"(1024.0, 10) => 2.0);
    t!("rootn"(INF, 2) => INF);
    t!("rootn"(INF, -2) => 0.0);
    t!("rootn"(-INF, 3) => -INF);
    t!("rootn"(-INF, -3) => -0.0);
    t!("rsqrt"(0.0) => INF);
    t!("rsqrt"(-0.0) => -INF);
    t!("rsqrt"(INF) => 0.0);
    t!("rsqrt"(4.0) => 0.5);
    t!("rsqrt"(-1.0) => NAN);
    t!("sqrt"(-0.0) => -0.0);
    t!("sqrt"(-1.0) => NAN);
    t!("sqrt"(6.25) => 2.5);
    t!("cbrt"(-27.0) => -3.0);
    t!("cbrt"(-0.0) => -0.0);
    t!("cbrt"(-INF) => -INF);
    t!("hypot"(3.0, 4.0) => 5.0);
    t!("hypot"(INF, NAN) => INF);
    t!("hypot"(NAN, -INF) => INF);
}

#[test]
fn trig_hyperbolic_and_special_functions() {
    t!("sin"(-0.0) => -0.0);
    t!("cos"(0.0) => 1.0);
    t!("tan"(-0.0) => -0.0);
    t!("sin"(INF) => NAN);
    t!("sinh"(-0.0) => -0.0);
    t!("cosh"(-0.0) => 1.0);
    t!("tanh"(-INF) => -1.0);
    t!("tanh"(INF) => 1.0);
    t!("erf"(-0.0) => -0.0);
    t!("erf"(INF) => 1.0);
    t!("erf"(-INF) => -1.0);
    t!("erfc"(-INF) => 2.0);
    t!("erfc"(INF) => 0.0);
    t!("erfc"(0.0) => 1.0);
    t!("tgamma"(0.0) => INF);
    t!("tgamma"(-0.0) => -INF);
    t!("tgamma"(-1.0) => NAN);
    t!("tgamma"(-INF) => NAN);
    t!("tgamma"(INF) => INF);
    t!("tgamma"(5.0) => 24.0);
    t!("tgamma"(1.0) => 1.0);
    t!("tgamma"(11.0) => 3628800.0);
    t!("tgamma"(23.0) => 1124000727777607680000.0);
    t!("tgamma"(200.0) => INF);
    t!("tgamma"(-200.5) => -0.0);
    t!("tgamma"(-201.5) => 0.0);
    t!("lgamma"(1.0) => 0.0);
    t!("lgamma"(2.0) => 0.0);
    t!("lgamma"(0.0) => INF);
    t!("lgamma"(-1.0) => INF);
    t!("lgamma"(-INF) => INF);
    t!("lgamma"(INF) => INF);
    t!("lgamma_r"(2.0) => 0.0, out 1.0);
    t!("lgamma_r"(0.0) => INF, out 0.0);
    t!("lgamma_r"(-3.0) => INF, out 0.0);
    t!("lgamma_r"(-0.5) => 1.2655121234846454, out -1.0);
    t!("lgamma_r"(-1.5) => 0.860047015376481, out 1.0);
}

#[test]
fn exact_functions() {
    t!("ceil"(-0.5) => -0.0);
    t!("ceil"(1.25) => 2.0);
    t!("floor"(-0.5) => -1.0);
    t!("floor"(-0.0) => -0.0);
    t!("trunc"(-0.5) => -0.0);
    t!("trunc"(2.75) => 2.0);
    t!("round"(2.5) => 3.0);
    t!("round"(-2.5) => -3.0);
    t!("round"(-0.25) => -0.0);
    t!("rint"(2.5) => 2.0);
    t!("rint"(3.5) => 4.0);
    t!("rint"(-0.5) => -0.0);
    t!("fabs"(-0.0) => 0.0);
    t!("fabs"(-INF) => INF);
    t!("copysign"(2.0, -0.0) => -2.0);
    t!("copysign"(-INF, 1.0) => INF);
    t!("fdim"(1.0, 2.0) => 0.0);
    t!("fdim"(5.0, 2.0) => 3.0);
    t!("fdim"(NAN, 1.0) => NAN);
    t!("fdim"(1.0, NAN) => NAN);
    t!("fma"(2.0, 3.0, 1.0) => 7.0);
    t!("fma"(INF, 0.0, 1.0) => NAN);
    t!("mad"(2.0, 3.0, -6.0) => 0.0);
    t!("fmax"(NAN, 1.0) => 1.0);
    t!("fmax"(1.0, NAN) => 1.0);
    t!("fmax"(NAN, NAN) => NAN);
    t!("fmax"(-0.0, 0.0) => 0.0);
    t!("fmax"(-3.0, -4.0) => -3.0);
    t!("fmin"(NAN, 1.0) => 1.0);
    t!("fmin"(0.0, -0.0) => -0.0);
    t!("fmin"(-3.0, -4.0) => -4.0);
    t!("fmod"(0.0, 1.0) => 0.0);
    t!("fmod"(-0.0, 1.0) => -0.0);
    t!("fmod"(1.0, 0.0) => NAN);
    t!("fmod"(INF, 1.0) => NAN);
    t!("fmod"(5.5, INF) => 5.5);
    t!("fmod"(-5.5, 2.0) => -1.5);
    t!("maxmag"(-3.0, 2.0) => -3.0);
    t!("maxmag"(-2.0, 2.0) => 2.0);
    t!("maxmag"(NAN, 2.0) => 2.0);
    t!("minmag"(-3.0, 2.0) => 2.0);
    t!("minmag"(-2.0, 2.0) => -2.0);
    t!("remainder"(5.0, 3.0) => -1.0);
    t!("remainder"(7.0, 2.0) => -1.0);
    t!("remainder"(5.0, 2.0) => 1.0);
    t!("remainder"(-0.0, 1.0) => -0.0);
    t!("remainder"(-4.0, 2.0) => -0.0);
    t!("remainder"(1.0, 0.0) => NAN);
    t!("remainder"(INF, 1.0) => NAN);
    t!("remainder"(1.0, INF) => 1.0);
    t!("remquo"(7.0, 2.0) => -1.0, out 4.0);
    t!("remquo"(-7.0, 2.0) => 1.0, out -4.0);
    t!("remquo"(7.0, -2.0) => -1.0, out -4.0);
    t!("remquo"(5.0, 3.0) => -1.0, out 2.0);
    t!("remquo"(1000.0, 1.0) => 0.0, out 104.0);
    t!("remquo"(-1000.0, 1.0) => -0.0, out -104.0);
    t!("remquo"(1.0, 0.0) => NAN, out 0.0);
    t!("remquo"(3.0, INF) => 3.0, out 0.0);
    t!("fract"(-0.0) => -0.0, out -0.0);
    t!("fract"(INF) => 0.0, out INF);
    t!("fract"(-INF) => -0.0, out -INF);
    t!("fract"(NAN) => NAN, out NAN);
    t!("fract"(1.5) => 0.5, out 1.0);
    t!("fract"(-1.25) => 0.75, out -2.0);
    t!("frexp"(0.0) => 0.0, out 0.0);
    t!("frexp"(-0.0) => -0.0, out 0.0);
    t!("frexp"(8.0) => 0.5, out 4.0);
    t!("frexp"(-3.0) => -0.75, out 2.0);
    t!("frexp"(-INF) => -INF, out 0.0);
    t!("frexp"(NAN) => NAN, out 0.0);
    t!("modf"(-3.5) => -0.5, out -3.0);
    t!("modf"(-INF) => -0.0, out -INF);
    t!("modf"(2.0) => 0.0, out 2.0);
    t!("modf"(-2.0) => -0.0, out -2.0);
    t!("modf"(NAN) => NAN, out NAN);
    t!("ldexp"(3.0, 2) => 12.0);
    t!("ldexp"(1.0, -1) => 0.5);
    t!("ldexp"(-0.0, 5) => -0.0);
    t!("ldexp"(INF, -5) => INF);
    t!("ldexp"(1.0, 100_000) => INF);
    t!("ldexp"(-1.0, 100_000) => -INF);
    t!("ldexp"(1.0, -100_000) => 0.0);
    t!("sincos"(0.0) => 0.0, out 1.0);
    t!("sincos"(-0.0) => -0.0, out 1.0);
    t!("ilogb"(1.0) => 1.0 - 1.0);
    t!("ilogb"(0.1) => -4.0);
    t!("ilogb"(0.0) => f64::from(i32::MIN));
    t!("ilogb"(NAN) => f64::from(i32::MAX));
    t!("ilogb"(-INF) => f64::from(i32::MAX));
    t!("nextafter"(1.0, 1.0) => 1.0);
    t!("nextafter"(NAN, 1.0) => NAN);
    t!("nextafter"(1.0, NAN) => NAN);
    t!("nextafter"(0.0, -0.0) => -0.0);
}

/// Results that depend on the type's precision.
#[test]
fn per_type_limits() {
    let f = |name: &str, args: &[Scalar]| {
        call_scalar(Builtin::from_name(name).unwrap(), args)
            .unwrap()
            .0
    };
    assert_eq!(
        f("nextafter", &[Scalar::F32(0.0), Scalar::F32(1.0)]),
        Scalar::F32(f32::from_bits(1))
    );
    assert_eq!(
        f("nextafter", &[Scalar::F64(0.0), Scalar::F64(-1.0)]),
        Scalar::F64(-f64::from_bits(1))
    );
    assert_eq!(
        f(
            "nextafter",
            &[Scalar::F16(Half::ZERO), Scalar::F16(Half::ONE)]
        ),
        Scalar::F16(Half(1))
    );
    assert_eq!(
        f(
            "nextafter",
            &[Scalar::F16(Half::ONE), Scalar::F16(Half::INFINITY)]
        ),
        Scalar::F16(Half(0x3c01))
    );
    assert_eq!(
        f(
            "nextafter",
            &[Scalar::F16(Half(0x8001)), Scalar::F16(Half::ONE)]
        ),
        Scalar::F16(Half(0x8000))
    );
    assert_eq!(
        f("nextafter", &[Scalar::F32(f32::INFINITY), Scalar::F32(0.0)]),
        Scalar::F32(f32::MAX)
    );
    assert_eq!(
        f("nextafter", &[Scalar::F64(-1.0), Scalar::F64(-2.0)]),
        Scalar::F64(-(1.0f64.next_up()))
    );
    assert_eq!(
        f("nextafter", &[Scalar::F32(-1.0), Scalar::F32(0.0)]),
        Scalar::F32((-1.0f32).next_up())
    );
    // fract never returns 1.0.
    assert_eq!(
        f("fract", &[Scalar::F32(-1e-30)]),
        Scalar::F32(f32::from_bits(0x3f7f_ffff))
    );
    assert_eq!(
        f("fract", &[Scalar::F64(-1e-300)]),
        Scalar::F64(1.0f64.next_down())
    );
    assert_eq!(
        f("fract", &[Scalar::F16(Half(0x8001))]),
        Scalar::F16(Half(0x3bff))
    );
    // Subnormals.
    assert_eq!(
        f("ilogb", &[Scalar::F32(f32::from_bits(1))]),
        Scalar::I32(-149)
    );
    assert_eq!(
        f("ilogb", &[Scalar::F64(f64::from_bits(1))]),
        Scalar::I32(-1074)
    );
    assert_eq!(f("ilogb", &[Scalar::F16(Half(1))]), Scalar::I32(-24));
    assert_eq!(
        f("logb", &[Scalar::F16(Half(0x0200))]),
        Scalar::F16(Half::from_f64(-15.0))
    );
    let fx = call_scalar(Builtin::Frexp, &[Scalar::F32(f32::from_bits(1))]).unwrap();
    assert_eq!(fx, (Scalar::F32(0.5), Some(Scalar::I32(-148))));
    let fx = call_scalar(Builtin::Frexp, &[Scalar::F64(f64::from_bits(3))]).unwrap();
    assert_eq!(fx, (Scalar::F64(0.75), Some(Scalar::I32(-1072))));
    // ldexp rounds once into the subnormals: 1.5 units is a tie, to even (2 units).
    assert_eq!(
        f("ldexp", &[Scalar::F64(1.5), Scalar::I32(-1074)]),
        Scalar::F64(f64::from_bits(2))
    );
    assert_eq!(
        f("ldexp", &[Scalar::F64(1.0), Scalar::I32(-1074)]),
        Scalar::F64(f64::from_bits(1))
    );
    assert_eq!(
        f("ldexp", &[Scalar::F64(f64::MAX), Scalar::I32(-2097)]),
        Scalar::F64(f64::from_bits(2))
    );
    assert_eq!(
        f(
            "ldexp",
            &[Scalar::F64(f64::from_bits(1)), Scalar::I32(2097)]
        ),
        Scalar::F64(f64::from_bits(0x7fe0_0000_0000_0000))
    );
    assert_eq!(
        f("ldexp", &[Scalar::F32(1.5), Scalar::I32(-149)]),
        Scalar::F32(f32::from_bits(2))
    );
    assert_eq!(
        f("ldexp", &[Scalar::F32(1.0), Scalar::I32(128)]),
        Scalar::F32(f32::INFINITY)
    );
    assert_eq!(
        f("ldexp", &[Scalar::F16(Half::ONE), Scalar::I32(-24)]),
        Scalar::F16(Half(1))
    );
    // nan(code) picks the type from the code's type and keeps a payload.
    match f("nan", &[Scalar::U32(5)]) {
        Scalar::F32(v) => assert!(v.is_nan() && v.to_bits() & 0x3f_ffff == 5),
        other => panic!("{other:?}"),
    }
    match f("nan", &[Scalar::U64(0)]) {
        Scalar::F64(v) => assert!(v.is_nan()),
        other => panic!("{other:?}"),
    }
    match f("nan", &[Scalar::U16(1)]) {
        Scalar::F16(v) => assert!(v.is_nan()),
        other => panic!("{other:?}"),
    }
    // fma is fused: the product's low bits survive.
    let e = f32::EPSILON;
    assert_eq!(
        f(
            "fma",
            &[
                Scalar::F32(1.0 + e),
                Scalar::F32(1.0 - e),
                Scalar::F32(-1.0)
            ]
        ),
        Scalar::F32(-e * e)
    );
    let h = |x: f64| Scalar::F16(Half::from_f64(x));
    // half: (1 + 2^-10)(1 - 2^-10) - 1 = -2^-20, exactly representable.
    assert_eq!(
        f(
            "fma",
            &[h(1.0 + 1.0 / 1024.0), h(1.0 - 1.0 / 1024.0), h(-1.0)]
        ),
        h(-f64::powi(2.0, -20))
    );
}

/// Half fma against an exact reference: the product and sum are formed exactly in i128 units.
#[test]
fn half_fma_is_correctly_rounded() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..200_000 {
        let r = next();
        let pick = |b: u64| {
            // Finite halves only.
            let h = Half((b & 0xffff) as u16);
            if h.to_f64().is_finite() {
                h
            } else {
                Half((b & 0x7bff) as u16)
            }
        };
        let (a, b, c) = (pick(r), pick(r >> 16), pick(r >> 32));
        // Exact value in units of 2^-48 (product) and 2^-24 (addend): scaled to 2^-48.
        let units = |h: Half| (h.to_f64() * f64::powi(2.0, 24)) as i128;
        let exact = units(a) * units(b) + (units(c) << 24);
        let got = oclc_cpu::runtime::math::fma(a, b, c);
        // The exact value as f64 may round, but only below half's precision when it is not a
        // tie; compare with a reference rounding from the exact integer.
        let want = round_units(exact);
        assert_eq!(got, want, "fma({a:?}, {b:?}, {c:?})");
    }
}

/// Rounds exact * 2^-48 to half, to nearest even, from the integer.
fn round_units(exact: i128) -> Half {
    let neg = exact < 0;
    let m = exact.unsigned_abs();
    if m == 0 {
        return Half(if neg { 0x8000 } else { 0 });
    }
    // Half quantum for the magnitude: 2^(max(e,-14)-10) = 2^(max(e,-14)+38) units.
    let e = 127 - m.leading_zeros() as i32 - 48;
    let q = (e.max(-14) - 10 + 48) as u32;
    let n = m >> q;
    let rem = m & ((1u128 << q) - 1);
    let half = 1u128 << (q - 1);
    let n = if rem > half || (rem == half && n & 1 == 1) {
        n + 1
    } else {
        n
    };
    let mag = (n as f64) * f64::powi(2.0, q as i32 - 48);
    let h = Half::from_f64(if neg { -mag } else { mag });
    if neg && mag == 0.0 { Half(0x8000) } else { h }
}

/// Γ of large negative arguments, whose results are subnormal or zero (mpmath values, in units
/// of the smallest subnormal 2^-1074).
#[test]
fn tgamma_into_the_subnormals() {
    let cases: [(f64, f64); 5] = [
        (-171.7, 17259355400551.879),
        (-172.5, -226646704281.77502),
        (-175.5, 42655.72983102868),
        (-180.3, -8.229711393702993e-07),
        (-184.5, -2.099338609534094e-16),
    ];
    let unit = f64::from_bits(1);
    for (x, want_units) in cases {
        let got = oclc_cpu::runtime::math::tgamma(x) / unit;
        let tol = (want_units.abs() * 1e-13).max(1.0);
        assert!(
            (got - want_units).abs() <= tol,
            "tgamma({x}) = {got} units, want {want_units}"
        );
        assert_eq!(
            got.is_sign_negative(),
            want_units < 0.0,
            "sign of tgamma({x})"
        );
    }
}

/// asinh near the top of the double range (std's formula overflows there), against mpmath.
#[test]
fn asinh_of_huge_values() {
    let cases: [(f64, f64); 5] = [
        (1e308, 709.889355822726),
        (-1.7976931348623157e308, -710.475860073944),
        (1e300, 691.4686750787737),
        (2.5, 1.6472311463710958),
        (1e-300, 1e-300),
    ];
    for (x, want) in cases {
        let got = oclc_cpu::runtime::math::asinh(x);
        assert!(
            (got - want).abs() <= 2.0 * f64::EPSILON * want.abs(),
            "asinh({x}) = {got}, want {want}"
        );
    }
    let big = oclc_cpu::runtime::math::asinh(f32::MAX);
    assert_eq!(big, 89.415_986_232_628_3_f64 as f32);
}
