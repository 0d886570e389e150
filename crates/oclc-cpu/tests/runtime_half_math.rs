//! Half-precision math over every finite half input: each result must be the f64 result
//! rounded to half (within half an ulp of half, plus the f64 routine's tiny error), and special
//! values must come out as half specials.

use oclc_cpu::runtime::{Half, math};

/// ulp of half at |v| (2^-24 in the subnormal range).
fn half_ulp(v: f64) -> f64 {
    let a = v.abs();
    if a < f64::powi(2.0, -14) {
        return f64::powi(2.0, -24);
    }
    let e = a.log2().floor() as i32;
    f64::powi(2.0, e - 10)
}

fn check_all(name: &str, f: fn(Half) -> Half, reference: fn(f64) -> f64) {
    let mut checked = 0;
    for bits in 0..=u16::MAX {
        let h = Half(bits);
        let x = h.to_f64();
        if !x.is_finite() {
            continue;
        }
        let want = reference(x);
        let got = f(h).to_f64();
        if want.is_nan() {
            assert!(got.is_nan(), "{name}({x}) = {got}, want NaN");
            continue;
        }
        if want.abs() >= 65520.0 {
            assert!(
                got.is_infinite() && got.signum() == want.signum(),
                "{name}({x}) = {got}"
            );
            continue;
        }
        let err = (got - want).abs() / half_ulp(want);
        assert!(
            err <= 0.5001,
            "{name}({x}) = {got}, want {want} ({err} ulp)"
        );
        checked += 1;
    }
    assert!(checked > 1000, "{name}: only {checked} finite results");
}

#[test]
fn half_transcendentals_are_correctly_rounded() {
    check_all("sin", math::sin, f64::sin);
    check_all("cos", math::cos, f64::cos);
    check_all("exp", math::exp, f64::exp);
    check_all("log", math::log, f64::ln);
    check_all("sqrt", math::sqrt, f64::sqrt);
    check_all("rsqrt", math::rsqrt, |x| 1.0 / x.sqrt());
    check_all("erf", math::erf, math::erf);
    check_all("tgamma", math::tgamma, math::tgamma);
    check_all("sinpi", math::sinpi, math::sinpi);
    check_all("cbrt", math::cbrt, f64::cbrt);
    check_all("exp10", math::exp10, math::exp10);
}

#[test]
fn half_exact_functions() {
    for bits in 0..=u16::MAX {
        let h = Half(bits);
        let x = h.to_f64();
        if x.is_nan() {
            assert!(math::floor(h).is_nan() && math::fabs(h).is_nan());
            continue;
        }
        assert_eq!(math::floor(h).to_f64().to_bits(), x.floor().to_bits());
        assert_eq!(
            math::rint(h).to_f64().to_bits(),
            x.round_ties_even().to_bits()
        );
        assert_eq!(math::fabs(h).to_f64().to_bits(), x.abs().to_bits());
        let (m, e) = math::frexp(h);
        if x.is_finite() && x != 0.0 {
            assert_eq!(m.to_f64() * f64::powi(2.0, e), x);
            assert!((0.5..1.0).contains(&m.to_f64().abs()));
        }
        // nextafter walks the encodings one by one.
        let up = math::nextafter(h, Half::INFINITY);
        if x.is_finite() {
            assert!(up.to_f64() > x, "nextafter({x}) = {}", up.to_f64());
            assert_eq!(Half::from_f64(up.to_f64()), up);
            let down = math::nextafter(up, Half::NEG_INFINITY);
            // Stepping back returns to x, except that -0 comes back as +0's neighbour.
            if x != 0.0 {
                assert_eq!(down, h);
            }
        }
    }
}
