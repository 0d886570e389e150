//! The double-precision math sequences the PTX backend emits, run on the host by
//! `oclc_ptx::dmath::eval` with PTX's operation semantics, against the cpu runtime over
//! special values, every exponent and random bit patterns, within the OpenCL ULP limits.

mod dmath_support;
use dmath_support::*;
use oclc_ptx::dmath::eval;

#[test]
fn every_double_builtin_within_spec_ulps() {
    // DMATH_INPUTS and DMATH_SEED widen the sweep (30000 inputs by default).
    let count = std::env::var("DMATH_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30_000);
    let seed = std::env::var("DMATH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0xd0b1e);
    let xs = inputs(count, seed);
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (name, args, limit) in FUNCTIONS {
        let mut r = Lcg(17);
        let mut worst: f64 = 0.0;
        let mut bad = 0usize;
        for (i, &x) in xs.iter().enumerate() {
            let y = partner(&xs, i, &mut r);
            let n = int_arg(name, i, &mut r);
            if cpu_inexact(name, x) {
                continue;
            }
            let got = eval(name, x, y, n).expect("implemented").value;
            let (want, _) = cpu(name, *args, x, y, n);
            let (ok, err) = accept(name, got, want, *limit);
            let ok = ok || snan_pow_one(name, x, y, got, want);
            if ok {
                worst = worst.max(err);
            } else {
                bad += 1;
                if bad <= 4 {
                    failures.push(format!(
                        "{name}({x:e} [{:#x}], {y:e}, {n}): got {got:e}, want {want:e} ({err} ulp)",
                        x.to_bits()
                    ));
                }
            }
        }
        report.push(format!(
            "{name}: max {worst:.3} ulp (limit {limit}), {bad} bad"
        ));
    }
    eprintln!("{} inputs per function\n{}", xs.len(), report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (x, sin x, cos x, tan x) as bits, from 420-digit decimal arithmetic (π by Machin's
/// formula, the Taylor series on the exactly reduced argument), rounded to nearest.
const HUGE_TRIG: &[(u64, u64, u64, u64)] = &[
    (
        0x7506AC5B262CA1FF,
        0x3FF0000000000000,
        0xBC214AE72E6BA22F,
        0xC3BD9BA9A7975636,
    ),
    (
        0x7FEFFFFFFFFFFFFF,
        0x3F7452FC98B34E97,
        0xBFEFFFE62ECFAB75,
        0xBF74530CFE729484,
    ),
    (
        0x4480F0CF064DD592,
        0xBFEB453AB76BF397,
        0x3FE0BE2CEF01C8F4,
        0xBFFA0F79C1B6B257,
    ),
    (
        0x7FE8000000000000,
        0x3FE3F5DD1B2AE20C,
        0x3FE902FAF66A7398,
        0x3FE98994C5969627,
    ),
    (
        0x7E37E43C8800759C,
        0xBFEA2C16B010E385,
        0xBFE2699022ADC4C1,
        0x3FF6BE411F37AC77,
    ),
    (
        0x698F5AA543C31387,
        0xBFEBA37227DDC095,
        0xBFE020CAED4AFB05,
        0x3FFB6B3FE763106C,
    ),
    (
        0x437B69B4BA630F35,
        0x3FDD63B86274BFB9,
        0x3FEC6D2CBCA32CD3,
        0x3FE08AC5021C33EF,
    ),
    (
        0x43C8CCCCCCCCCCCD,
        0xBFDAD8166E189A80,
        0x3FED0C901698B1AC,
        0xBFDD922EDA4929F1,
    ),
    (
        0x4338DE76816D8000,
        0x3FE9D7E2A33BA5A8,
        0xBFE2DF09A963ED84,
        0xBFF5E948E3AE96CB,
    ),
    (
        0x74B26C1C9F767C45,
        0x3FC38C890BB499AA,
        0x3FEF9FE5506B6327,
        0x3FC3C7F15ECE6FB0,
    ),
    (
        0x75F8E71B5BC8FBBC,
        0x3FCCF92B77E522BF,
        0xBFEF2B609C8BFD77,
        0xBFCDBECFC0CCDEC6,
    ),
    (
        0x7FB6A198F1446BEA,
        0x3FE4AB8971ED8501,
        0xBFE86DADD44B1679,
        0xBFEB13A499E7A5D3,
    ),
    (
        0x76AEBED0A6EB8C9E,
        0x3FEFFF59C6618148,
        0xBF89C8FF9311FE46,
        0xC053DAD5419D3F20,
    ),
    (
        0x6B9086FF076CE2EF,
        0x3FD814329C5A8916,
        0xBFEDA6182098B726,
        0xBFD9FD0719AF5AF8,
    ),
    (
        0x7CBFE9BAC6A53877,
        0xBFEDAEB37088843F,
        0xBFD7E9A2EBD52DB5,
        0x4003DC4E99734582,
    ),
    (
        0x7EE3209CA6233255,
        0xBFEDFEFF18019914,
        0x3FD64ACB86CE8496,
        0xC00587879182A5C6,
    ),
    (
        0x5EFD887B2827688D,
        0xBFE85A4AB4C31884,
        0x3FE4C25D4C8387A4,
        0xBFF2C506A74B0E8D,
    ),
    (
        0x7FA938807814E8A2,
        0xBFDB51AD844C7317,
        0x3FECF02B808390F1,
        0xBFDE35A6EC83F62B,
    ),
    (
        0x4FD9F4B4617959CE,
        0x3FC5503CF93A2AE9,
        0xBFEF8DA2D9DD1B7B,
        0xBFC59D7CF1CD4B11,
    ),
];

#[test]
fn huge_trig_arguments() {
    for &(x, s, c, t) in HUGE_TRIG {
        for (sign, name, want) in [
            (1.0, "sin", s),
            (1.0, "cos", c),
            (1.0, "tan", t),
            (-1.0, "sin", s),
            (-1.0, "cos", c),
        ] {
            let x = sign * f64::from_bits(x);
            let want = if name == "sin" { sign } else { 1.0 } * f64::from_bits(want);
            let got = eval(name, x, 0.0, 0).expect("implemented").value;
            let err = ulp_error(got, want);
            let limit = if name == "tan" { 2.0 } else { 1.0 };
            assert!(
                err <= limit,
                "{name}({x:e}): got {got:e}, want {want:e} ({err} ulp)"
            );
        }
    }
}

/// (x, n, rootn(x, n)) for subnormal x, from 420-digit decimal arithmetic.
const ROOTN_SUBNORMAL: &[(u64, i32, u64)] = &[
    (0x8000000007D28C0C, -5, 0xCD053504F4FB165F),
    (0x000000000336EF54, -14, 0x449D7072A0C6DDD7),
    (0x800000264E8D04A0, 5, 0xB2F923CF5B85945D),
    (0x00000000074FF7C7, 9, 0x38A92563A734B1D1),
    (0x0000000000000001, 3, 0x2990000000000000),
    (0x0000000000000001, -7, 0x498588CEA3F093BE),
    (0x000FFFFFFFFFFFFF, 4, 0x2FF6A09E667F3BCC),
];

#[test]
fn rootn_of_subnormals() {
    for &(x, n, want) in ROOTN_SUBNORMAL {
        let (x, want) = (f64::from_bits(x), f64::from_bits(want));
        let got = eval("rootn", x, 0.0, n).expect("implemented").value;
        let err = ulp_error(got, want);
        assert!(
            err <= 2.0,
            "rootn({x:e}, {n}): got {got:e}, want {want:e} ({err} ulp)"
        );
    }
}

#[test]
fn pointer_outputs_and_ilogb_match_the_cpu() {
    use oclc_cpu::runtime::builtin::Builtin;
    use oclc_cpu::runtime::dispatch::call_scalar;
    use oclc_cpu::runtime::scalar::Scalar;
    let xs = inputs(20_000, 0x5eed);
    let mut r = Lcg(3);
    for (i, &x) in xs.iter().enumerate() {
        let y = partner(&xs, i, &mut r);
        let rq = eval("remquo", x, y, 0).expect("remquo");
        let (want, quo) = cpu("remquo", Args::XY, x, y, 0);
        assert!(
            ulp_error(rq.value, want) == 0.0 && rq.int == quo,
            "remquo({x:e}, {y:e}): got ({:e}, {:?}), want ({want:e}, {quo:?})",
            rq.value,
            rq.int
        );
        let lg = eval("lgamma_r", x, 0.0, 0).expect("lgamma_r");
        let (want, sign) = cpu("lgamma_r", Args::X, x, 0.0, 0);
        assert!(
            accept("lgamma", lg.value, want, 0.0).0 && lg.int == sign,
            "lgamma_r({x:e}): got ({:e}, {:?}), want ({want:e}, {sign:?})",
            lg.value,
            lg.int
        );
        let ilogb = eval("ilogb", x, 0.0, 0).expect("ilogb").int;
        let Ok((Scalar::I32(want), _)) = call_scalar(
            Builtin::from_name("ilogb").expect("ilogb"),
            &[Scalar::F64(x)],
        ) else {
            panic!("cpu ilogb");
        };
        assert_eq!(ilogb, Some(want), "ilogb({x:e})");
        if x.abs() <= 1e15 {
            let sc = eval("sincos", x, 0.0, 0).expect("sincos");
            let Ok((Scalar::F64(s), Some(Scalar::F64(c)))) = call_scalar(
                Builtin::from_name("sincos").expect("sincos"),
                &[Scalar::F64(x)],
            ) else {
                panic!("cpu sincos");
            };
            let cos = sc.second.unwrap_or(f64::NAN);
            assert!(
                ulp_error(sc.value, s) <= 4.0 && ulp_error(cos, c) <= 4.0,
                "sincos({x:e}): got ({:e}, {cos:e}), want ({s:e}, {c:e})",
                sc.value
            );
        }
    }
    // The payload of nan() lands in the mantissa of a quiet NaN.
    let n = eval("nan", f64::from_bits(0x1234), 0.0, 0)
        .expect("nan")
        .value;
    assert_eq!(n.to_bits(), 0x7ff8_0000_0000_1234);
}

#[test]
fn exact_special_values() {
    let v = |name: &str, x: f64, y: f64| eval(name, x, y, 0).expect("implemented").value;
    let vn = |name: &str, x: f64, n: i32| eval(name, x, 0.0, n).expect("implemented").value;
    let inf = f64::INFINITY;
    // Signs of zeros and infinities the spec fixes.
    assert_eq!(v("sinpi", -3.0, 0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(v("sinpi", 3.0, 0.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(v("cospi", 2.5, 0.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(v("tanpi", 0.5, 0.0), inf);
    assert_eq!(v("tanpi", 1.5, 0.0), -inf);
    assert_eq!(v("expm1", -0.0, 0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(v("log1p", -0.0, 0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(v("log1p", -1.0, 0.0), -inf);
    assert!(v("log1p", -1.5, 0.0).is_nan());
    assert_eq!(v("atan2", 0.0, -0.0), std::f64::consts::PI);
    assert_eq!(v("atan2", -0.0, -0.0), -std::f64::consts::PI);
    assert_eq!(v("atan2pi", inf, -inf), 0.75);
    assert_eq!(v("atan2pi", -inf, inf), -0.25);
    assert_eq!(v("pow", -0.0, -3.0), -inf);
    assert_eq!(v("pow", -1.0, inf), 1.0);
    assert_eq!(v("pow", f64::NAN, 0.0), 1.0);
    assert!(v("pow", -2.0, 0.5).is_nan());
    assert_eq!(v("pow", -2.0, 3.0), -8.0);
    assert!(v("powr", 0.0, 0.0).is_nan());
    assert!(v("powr", 1.0, inf).is_nan());
    assert_eq!(vn("rootn", -8.0, 3), -2.0);
    assert_eq!(vn("rootn", -0.0, -2), inf);
    assert!(vn("rootn", 4.0, 0).is_nan());
    assert_eq!(vn("pown", -2.0, 0), 1.0);
    assert_eq!(vn("ldexp", 1.0, -1074), f64::from_bits(1));
    assert_eq!(vn("ldexp", 1.5, -1074), f64::from_bits(2));
    assert_eq!(vn("ldexp", f64::from_bits(1), 1074), 1.0);
    assert_eq!(vn("ldexp", 1.0, i32::MAX), inf);
    assert_eq!(v("tgamma", 5.0, 0.0), 24.0);
    assert_eq!(v("tgamma", -0.0, 0.0), -inf);
    assert!(v("tgamma", -2.0, 0.0).is_nan());
    assert_eq!(v("lgamma", -2.0, 0.0), inf);
    assert_eq!(v("hypot", f64::NAN, inf), inf);
    assert_eq!(v("hypot", 3e300, 4e300), 5e300);
    assert_eq!(v("fmod", 5.5, 2.0), 1.5);
    // MAX = (2^53 - 1)·2^971 ≡ 2 (mod 3): the remainder by 3·2^-1074 is 2·2^-1074.
    assert_eq!(
        v("fmod", -f64::MAX, f64::from_bits(3)).to_bits(),
        0x8000_0000_0000_0002
    );
    assert_eq!(v("fmod", -6.0, 3.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(v("remainder", 5.0, 2.0), 1.0);
    assert_eq!(v("remainder", 7.0, 2.0), -1.0);
    assert_eq!(v("nextafter", 0.0, -1.0), -f64::from_bits(1));
    assert_eq!(v("nextafter", 1.0, 2.0), 1.0 + f64::EPSILON);
    assert_eq!(v("logb", f64::from_bits(1), 0.0), -1074.0);
    assert_eq!(v("cbrt", -27.0, 0.0), -3.0);
    assert_eq!(v("erfc", -inf, 0.0), 2.0);
    assert_eq!(v("erf", inf, 0.0), 1.0);
    assert_eq!(v("acos", -1.0, 0.0), std::f64::consts::PI);
    assert_eq!(v("asin", 1.0, 0.0), std::f64::consts::FRAC_PI_2);
    // sinh overflows only past 710.475..., beyond exp's limit.
    let s = v("sinh", 710.4, 0.0);
    assert!(s.is_finite() && s > 1.5e308, "sinh(710.4) = {s:e}");
    assert_eq!(v("cosh", -711.0, 0.0), inf);
    assert_eq!(v("tanh", -30.0, 0.0), -1.0);
    assert_eq!(v("atanh", 1.0, 0.0), inf);
    assert!(v("acosh", 0.5, 0.0).is_nan());
}

#[test]
fn double_geometric_functions_within_spec_ulps() {
    use oclc_cpu::runtime::builtin::Builtin;
    use oclc_cpu::runtime::dispatch::call;
    use oclc_cpu::runtime::scalar::{Lanes, Scalar};
    use oclc_ptx::dmath::eval_geometric;
    let xs = inputs(8_000, 0x9e0);
    let mut r = Lcg(5);
    let cpu = |name: &str, args: &[Lanes]| -> Vec<f64> {
        let out = call(Builtin::from_name(name).expect("builtin"), args).expect("cpu call");
        out.value
            .as_slice()
            .iter()
            .map(|s| match s {
                Scalar::F64(v) => *v,
                other => panic!("{name} gave {other:?}"),
            })
            .collect()
    };
    let mut worst = [0f64; 3];
    for k in 0..4000 {
        let n = 1 + k % 4;
        let mut pick = || {
            let v = xs[(r.next() % xs.len() as u64) as usize];
            // Mostly finite values of similar size, some specials and wide ranges.
            match r.next() % 8 {
                0 => v,
                1 => v.clamp(-1e300, 1e300),
                _ => (r.unit() - 0.5) * 10f64.powi((k % 40) as i32 - 20),
            }
        };
        let a: Vec<f64> = (0..n).map(|_| pick()).collect();
        let b: Vec<f64> = (0..n).map(|_| pick()).collect();
        let la = Lanes::from_fn(n, |i| Scalar::F64(a[i]));
        let lb = Lanes::from_fn(n, |i| Scalar::F64(b[i]));
        // Limits (float's table, n lanes): length 3 + n/2, distance 3 + n, normalize 2 + n.
        let checks = [
            (0, "length", 3.0 + n as f64 / 2.0, cpu("length", &[la])),
            (1, "distance", 3.0 + n as f64, cpu("distance", &[la, lb])),
            (2, "normalize", 2.0 + n as f64, cpu("normalize", &[la])),
        ];
        for (f, name, limit, want) in checks {
            let got = eval_geometric(name, &a, &b).expect("geometric");
            assert_eq!(got.len(), want.len(), "{name}");
            for (g, w) in got.iter().zip(&want) {
                let e = ulp_error(*g, *w);
                assert!(
                    e <= limit,
                    "{name}({a:?}, {b:?}): got {g:e}, want {w:e} ({e} ulp)"
                );
                worst[f] = worst[f].max(e);
            }
        }
    }
    eprintln!("worst ulp (length, distance, normalize): {worst:?}");
}
