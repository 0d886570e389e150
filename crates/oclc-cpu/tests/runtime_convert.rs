//! `convert_T[_sat][_rounding]`: table-driven cases for each mode and saturation edge, plus
//! property checks of correct directed rounding for int → float and double → float.

use oclc_cpu::runtime::convert::convert;
use oclc_cpu::runtime::{Builtin, Half, Rounding, Scalar, ScalarType, call_scalar};

use Rounding::{Rte, Rtn, Rtp, Rtz};
use ScalarType as T;

fn conv(x: Scalar, to: ScalarType, sat: bool, r: Option<Rounding>) -> Scalar {
    convert(x, to, sat, r)
}

#[test]
fn float_to_int_rounding_modes() {
    let cases: &[(f32, Rounding, i32)] = &[
        (2.5, Rte, 2),
        (2.5, Rtz, 2),
        (2.5, Rtp, 3),
        (2.5, Rtn, 2),
        (3.5, Rte, 4),
        (-2.5, Rte, -2),
        (-2.5, Rtz, -2),
        (-2.5, Rtp, -2),
        (-2.5, Rtn, -3),
        (-0.1, Rtn, -1),
        (-0.1, Rtp, 0),
        (0.9999999, Rtz, 0),
        (0.9999999, Rtp, 1),
        (16777215.0, Rtz, 16777215),
    ];
    for &(x, r, want) in cases {
        for sat in [false, true] {
            assert_eq!(
                conv(Scalar::F32(x), T::Int, sat, Some(r)),
                Scalar::I32(want),
                "{x} {r:?} sat={sat}"
            );
        }
    }
    // The default is toward zero.
    assert_eq!(
        conv(Scalar::F32(-7.9), T::Int, false, None),
        Scalar::I32(-7)
    );
    assert_eq!(
        conv(Scalar::F64(7.9), T::ULong, false, None),
        Scalar::U64(7)
    );
}

#[test]
fn float_to_int_saturation() {
    let cases: &[(f64, ScalarType, bool, Scalar)] = &[
        (1e10, T::Int, true, Scalar::I32(i32::MAX)),
        (-1e10, T::Int, true, Scalar::I32(i32::MIN)),
        (f64::NAN, T::Int, true, Scalar::I32(0)),
        (f64::NAN, T::UChar, true, Scalar::U8(0)),
        (f64::INFINITY, T::UChar, true, Scalar::U8(255)),
        (f64::NEG_INFINITY, T::Char, true, Scalar::I8(-128)),
        (-1.0, T::UChar, true, Scalar::U8(0)),
        (300.7, T::UChar, true, Scalar::U8(255)),
        (255.9, T::UChar, true, Scalar::U8(255)),
        (-129.0, T::Char, true, Scalar::I8(-128)),
        (127.99, T::Char, true, Scalar::I8(127)),
        (-0.99, T::UInt, true, Scalar::U32(0)),
        (1.8446744073709552e19, T::ULong, true, Scalar::U64(u64::MAX)),
        (9.3e18, T::Long, true, Scalar::I64(i64::MAX)),
        (-9.3e18, T::Long, true, Scalar::I64(i64::MIN)),
        (65535.0, T::UShort, true, Scalar::U16(65535)),
        (-32768.5, T::Short, true, Scalar::I16(-32768)),
        // Out of range without _sat is undefined in the spec; this runtime saturates.
        (1e10, T::Int, false, Scalar::I32(i32::MAX)),
        (f64::NAN, T::Long, false, Scalar::I64(0)),
    ];
    for &(x, to, sat, want) in cases {
        assert_eq!(conv(Scalar::F64(x), to, sat, None), want, "{x} -> {to:?}");
    }
    // Half sources.
    assert_eq!(
        conv(Scalar::F16(Half(0x3e00)), T::Int, false, Some(Rte)),
        Scalar::I32(2)
    );
    assert_eq!(
        conv(Scalar::F16(Half::INFINITY), T::Short, true, None),
        Scalar::I16(i16::MAX)
    );
}

#[test]
fn int_to_int_wraps_or_saturates() {
    let cases: &[(Scalar, ScalarType, Scalar, Scalar)] = &[
        // (value, to, without _sat, with _sat)
        (Scalar::I32(300), T::UChar, Scalar::U8(44), Scalar::U8(255)),
        (
            Scalar::I32(-1),
            T::UInt,
            Scalar::U32(u32::MAX),
            Scalar::U32(0),
        ),
        (
            Scalar::U64(u64::MAX),
            T::Long,
            Scalar::I64(-1),
            Scalar::I64(i64::MAX),
        ),
        (
            Scalar::I8(-128),
            T::UShort,
            Scalar::U16(65408),
            Scalar::U16(0),
        ),
        (
            Scalar::I64(i64::MIN),
            T::Int,
            Scalar::I32(0),
            Scalar::I32(i32::MIN),
        ),
        (
            Scalar::U32(u32::MAX),
            T::Int,
            Scalar::I32(-1),
            Scalar::I32(i32::MAX),
        ),
        (Scalar::U8(200), T::Char, Scalar::I8(-56), Scalar::I8(127)),
        (Scalar::I16(-5), T::Long, Scalar::I64(-5), Scalar::I64(-5)),
        (
            Scalar::U16(65535),
            T::ULong,
            Scalar::U64(65535),
            Scalar::U64(65535),
        ),
    ];
    for &(x, to, wrap, sat) in cases {
        assert_eq!(conv(x, to, false, None), wrap, "{x:?} -> {to:?}");
        assert_eq!(conv(x, to, true, None), sat, "{x:?} -> {to:?} sat");
        // Rounding modes do not affect integer-to-integer conversions.
        assert_eq!(conv(x, to, true, Some(Rtn)), sat);
    }
}

#[test]
fn int_to_float_rounding_modes() {
    let f = |v: Scalar, r| conv(v, T::Float, false, Some(r));
    let x = Scalar::I32(16_777_217); // 2^24 + 1: a tie
    assert_eq!(f(x, Rte), Scalar::F32(16_777_216.0));
    assert_eq!(f(x, Rtz), Scalar::F32(16_777_216.0));
    assert_eq!(f(x, Rtp), Scalar::F32(16_777_218.0));
    assert_eq!(f(x, Rtn), Scalar::F32(16_777_216.0));
    let x = Scalar::I32(-16_777_217);
    assert_eq!(f(x, Rtn), Scalar::F32(-16_777_218.0));
    assert_eq!(f(x, Rtp), Scalar::F32(-16_777_216.0));
    assert_eq!(f(x, Rtz), Scalar::F32(-16_777_216.0));
    let x = Scalar::I32(16_777_219); // tie between ...218 and ...220: even is 220
    assert_eq!(f(x, Rte), Scalar::F32(16_777_220.0));
    let max = Scalar::I64(i64::MAX);
    assert_eq!(f(max, Rte), Scalar::F32(9.223372e18));
    assert_eq!(f(max, Rtp), Scalar::F32(9.223372e18));
    assert_eq!(f(max, Rtz), Scalar::F32(f32::from_bits(0x5eff_ffff)));
    assert_eq!(f(max, Rtn), Scalar::F32(f32::from_bits(0x5eff_ffff)));
    let umax = Scalar::U64(u64::MAX);
    assert_eq!(f(umax, Rte), Scalar::F32(1.8446744e19));
    assert_eq!(f(umax, Rtz), Scalar::F32(f32::from_bits(0x5f7f_ffff)));
    assert_eq!(
        conv(Scalar::I64(i64::MIN), T::Float, false, Some(Rtz)),
        Scalar::F32(-9.223372e18)
    );
    let d = |v: Scalar, r| conv(v, T::Double, false, Some(r));
    let big = Scalar::I64((1 << 53) + 1);
    assert_eq!(d(big, Rte), Scalar::F64(9007199254740992.0));
    assert_eq!(d(big, Rtp), Scalar::F64(9007199254740994.0));
    assert_eq!(
        d(Scalar::I64(-(1 << 53) - 1), Rtn),
        Scalar::F64(-9007199254740994.0)
    );
    assert_eq!(
        d(Scalar::U64(u64::MAX), Rtz),
        Scalar::F64(18446744073709549568.0)
    );
    // Default to nearest even.
    assert_eq!(
        conv(Scalar::I32(16_777_219), T::Float, false, None),
        Scalar::F32(16_777_220.0)
    );
    // To half.
    let h = |v: Scalar, r| conv(v, T::Half, false, Some(r));
    assert_eq!(h(Scalar::I32(2049), Rte), Scalar::F16(Half(0x6800)));
    assert_eq!(h(Scalar::I32(2049), Rtp), Scalar::F16(Half(0x6801)));
    assert_eq!(h(Scalar::I32(70000), Rtz), Scalar::F16(Half::MAX));
    assert_eq!(h(Scalar::I32(70000), Rte), Scalar::F16(Half::INFINITY));
    assert_eq!(h(Scalar::I64(-70000), Rtp), Scalar::F16(Half(0xfbff)));
    assert_eq!(h(Scalar::U64(u64::MAX), Rtn), Scalar::F16(Half::MAX));
}

#[test]
fn float_to_float_rounding_modes() {
    let f = |x: f64, r| conv(Scalar::F64(x), T::Float, false, Some(r));
    let x = 1.0 + f64::powi(2.0, -30);
    assert_eq!(f(x, Rte), Scalar::F32(1.0));
    assert_eq!(f(x, Rtz), Scalar::F32(1.0));
    assert_eq!(f(x, Rtn), Scalar::F32(1.0));
    assert_eq!(f(x, Rtp), Scalar::F32(1.0f32.next_up()));
    assert_eq!(f(-x, Rtn), Scalar::F32(-(1.0f32.next_up())));
    assert_eq!(f(-x, Rtz), Scalar::F32(-1.0));
    assert_eq!(f(1e39, Rte), Scalar::F32(f32::INFINITY));
    assert_eq!(f(1e39, Rtz), Scalar::F32(f32::MAX));
    assert_eq!(f(1e39, Rtn), Scalar::F32(f32::MAX));
    assert_eq!(f(1e39, Rtp), Scalar::F32(f32::INFINITY));
    assert_eq!(f(-1e39, Rtz), Scalar::F32(-f32::MAX));
    assert_eq!(f(-1e39, Rtp), Scalar::F32(-f32::MAX));
    assert_eq!(f(-1e39, Rtn), Scalar::F32(f32::NEG_INFINITY));
    assert_eq!(f(f64::INFINITY, Rtz), Scalar::F32(f32::INFINITY));
    let tiny = f64::powi(2.0, -150); // half the smallest f32 subnormal: a tie
    assert_eq!(f(tiny, Rte), Scalar::F32(0.0));
    assert_eq!(f(tiny, Rtp), Scalar::F32(f32::from_bits(1)));
    assert_eq!(f(-tiny, Rtn), Scalar::F32(-f32::from_bits(1)));
    assert_eq!(f(1.5 * tiny, Rte), Scalar::F32(f32::from_bits(1)));
    assert_eq!(f(-0.0, Rtp), Scalar::F32(-0.0));
    match f(f64::NAN, Rtz) {
        Scalar::F32(v) => assert!(v.is_nan()),
        other => panic!("{other:?}"),
    }
    // Widening is exact whatever the mode.
    assert_eq!(
        conv(Scalar::F32(0.1), T::Double, false, Some(Rtn)),
        Scalar::F64(f64::from(0.1f32))
    );
    assert_eq!(
        conv(Scalar::F16(Half(0x3555)), T::Float, false, None),
        Scalar::F32(Half(0x3555).to_f32())
    );
    // Float to half.
    let h = |x: f32, r| conv(Scalar::F32(x), T::Half, false, Some(r));
    assert_eq!(h(1.0 + 1.0 / 2048.0, Rte), Scalar::F16(Half(0x3c00)));
    assert_eq!(h(1.0 + 1.0 / 2048.0, Rtp), Scalar::F16(Half(0x3c01)));
    assert_eq!(h(-(1.0 + 1.0 / 2048.0), Rtn), Scalar::F16(Half(0xbc01)));
    assert_eq!(h(70000.0, Rtz), Scalar::F16(Half::MAX));
    assert_eq!(
        conv(Scalar::F64(0.1), T::Half, false, None),
        Scalar::F16(Half(0x2e66))
    );
}

/// A small deterministic generator (xorshift64*) for sampling.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The defining property of each directed mode, checked for `r` against the exact value
/// given by `cmp(candidate)` = sign of candidate − exact.
fn check_directed(
    r: f64,
    mode: Rounding,
    up: f64,
    down: f64,
    cmp: impl Fn(f64) -> std::cmp::Ordering,
    neg: bool,
) {
    use std::cmp::Ordering::*;
    match mode {
        Rtp => assert!(cmp(r) != Less && cmp(down) == Less, "rtp {r}"),
        Rtn => assert!(cmp(r) != Greater && cmp(up) == Greater, "rtn {r}"),
        Rtz if neg => assert!(cmp(r) != Less && cmp(down) == Less, "rtz {r}"),
        Rtz => assert!(cmp(r) != Greater && cmp(up) == Greater, "rtz {r}"),
        Rte => {}
    }
}

#[test]
fn random_long_to_float_and_double_are_correctly_rounded() {
    let mut rng = Rng(99);
    for i in 0..100_000 {
        let v = (rng.next() as i64) >> (i % 60);
        let exact = i128::from(v);
        for mode in [Rtz, Rtp, Rtn] {
            let Scalar::F32(r) = conv(Scalar::I64(v), T::Float, false, Some(mode)) else {
                panic!()
            };
            // Exact comparison of a float with an integer (floor, then the fraction).
            let cmp = |c: f64| match (c.floor() as i128).cmp(&exact) {
                std::cmp::Ordering::Equal if c != c.floor() => std::cmp::Ordering::Greater,
                o => o,
            };
            check_directed(
                r.into(),
                mode,
                r.next_up().into(),
                r.next_down().into(),
                cmp,
                v < 0,
            );
            let Scalar::F64(d) = conv(Scalar::I64(v), T::Double, false, Some(mode)) else {
                panic!()
            };
            check_directed(d, mode, d.next_up(), d.next_down(), cmp, v < 0);
        }
        // Nearest: no representable value is closer.
        let Scalar::F32(r) = conv(Scalar::I64(v), T::Float, false, Some(Rte)) else {
            panic!()
        };
        let dist = |c: f32| (c as i128 - exact).abs();
        assert!(dist(r) <= dist(r.next_up()) && dist(r) <= dist(r.next_down()));
    }
}

#[test]
fn random_double_to_float_is_correctly_rounded() {
    let mut rng = Rng(7);
    for _ in 0..100_000 {
        let bits = rng.next();
        // Exponents spanning f32's subnormal range to beyond its overflow.
        let exp = 1023 - 160 + (bits % 300);
        let x = f64::from_bits((bits & (1 << 63)) | (exp << 52) | (rng.next() >> 12));
        for mode in [Rtz, Rtp, Rtn] {
            let Scalar::F32(r) = conv(Scalar::F64(x), T::Float, false, Some(mode)) else {
                panic!()
            };
            let cmp = |c: f64| c.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal);
            check_directed(
                r.into(),
                mode,
                r.next_up().into(),
                r.next_down().into(),
                cmp,
                x < 0.0,
            );
        }
    }
}

#[test]
fn conversion_names_parse() {
    let b = |s| Builtin::from_name(s);
    assert_eq!(
        b("convert_int4_sat_rte"),
        Some(Builtin::Convert {
            to: T::Int,
            sat: true,
            rounding: Some(Rte)
        })
    );
    assert_eq!(
        b("convert_uchar16"),
        Some(Builtin::Convert {
            to: T::UChar,
            sat: false,
            rounding: None
        })
    );
    assert_eq!(
        b("convert_half_rtn"),
        Some(Builtin::Convert {
            to: T::Half,
            sat: false,
            rounding: Some(Rtn)
        })
    );
    assert_eq!(b("convert_float_sat"), None);
    assert_eq!(b("convert_int_rtx"), None);
    assert_eq!(b("convert_int5"), None);
    assert_eq!(b("convert_int_rte_sat"), None);
    assert_eq!(b("convert_"), None);
    // Through the dispatcher.
    let conv = Builtin::from_name("convert_short_sat").unwrap();
    assert_eq!(
        call_scalar(conv, &[Scalar::I32(40000)]).unwrap(),
        (Scalar::I16(32767), None)
    );
}
