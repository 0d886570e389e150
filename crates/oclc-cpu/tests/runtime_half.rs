//! Half (binary16) conversions: exact widening for all 65536 encodings, and narrowing from f64
//! and f32 in each rounding mode against an independent reference (a search in the sorted table
//! of every half value).

use oclc_cpu::runtime::{Half, Rounding};

const MODES: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

/// The value of half bits from the IEEE formula, written independently of `Half::to_f64`.
fn reference_value(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let mant = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * mant / 1024.0 / 16384.0,
        31 if mant == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
    }
}

#[test]
fn widening_is_exact_for_every_encoding() {
    for bits in 0..=u16::MAX {
        let h = Half(bits);
        let want = reference_value(bits);
        let got = h.to_f64();
        if want.is_nan() {
            assert!(got.is_nan() && h.is_nan(), "{bits:#06x}");
            assert_eq!(got.is_sign_negative(), bits & 0x8000 != 0, "{bits:#06x}");
        } else {
            assert_eq!(got.to_bits(), want.to_bits(), "{bits:#06x}");
            assert_eq!(
                f64::from(h.to_f32()).to_bits(),
                want.to_bits(),
                "{bits:#06x}"
            );
        }
    }
}

#[test]
fn round_trip_is_identity_for_every_encoding_and_mode() {
    for bits in 0..=u16::MAX {
        let h = Half(bits);
        for mode in MODES {
            let back = Half::from_f64_mode(h.to_f64(), mode);
            let back32 = Half::from_f32_mode(h.to_f32(), mode);
            if h.is_nan() {
                // NaNs stay NaN, keep their sign and payload (quieted).
                assert!(back.is_nan() && back32.is_nan(), "{bits:#06x}");
                assert_eq!(back.0 & 0x8000, bits & 0x8000);
                assert_eq!(back.0 & 0x1ff, bits & 0x1ff);
            } else {
                assert_eq!(back, h, "{bits:#06x} {mode:?}");
                assert_eq!(back32, h, "{bits:#06x} {mode:?} via f32");
            }
        }
    }
}

/// Non-negative finite halves in increasing order, followed by +∞ standing for 65536 (the
/// next value of the exponent range, which is where round-to-nearest overflows to).
fn ladder() -> Vec<(f64, u16)> {
    let mut v: Vec<(f64, u16)> = (0..0x7c00u16).map(|b| (reference_value(b), b)).collect();
    v.push((65536.0, 0x7c00));
    v
}

/// The correctly rounded half of `x` in `mode`, by search.
fn reference_round(ladder: &[(f64, u16)], x: f64, mode: Rounding) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a >= 65536.0 {
        let inf = match mode {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => sign == 0,
            Rounding::Rtn => sign != 0,
        };
        return sign | if inf { 0x7c00 } else { 0x7bff };
    }
    let i = ladder.partition_point(|&(v, _)| v <= a) - 1;
    let (lo, lo_bits) = ladder[i];
    if lo == a {
        return sign | lo_bits;
    }
    let (hi, hi_bits) = ladder[i + 1];
    let up = match mode {
        Rounding::Rte => a - lo > hi - a || (a - lo == hi - a && lo_bits & 1 == 1),
        Rounding::Rtz => false,
        Rounding::Rtp => sign == 0,
        Rounding::Rtn => sign != 0,
    };
    let bits = if up { hi_bits } else { lo_bits };
    // Directed rounding away from zero past 65504 means infinity, never 65536.
    let bits = if bits == 0x7c00 && mode == Rounding::Rtz {
        0x7bff
    } else {
        bits
    };
    sign | bits
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

#[test]
fn narrowing_from_f64_matches_reference_in_every_mode() {
    let ladder = ladder();
    let mut inputs = Vec::new();
    // Every half, its midpoints with neighbours, and values just either side of those.
    for w in ladder.windows(2) {
        let (a, b) = (w[0].0, w[1].0);
        let mid = (a + b) / 2.0;
        for v in [
            a,
            mid,
            mid.next_up(),
            mid.next_down(),
            a.next_up(),
            b.next_down(),
        ] {
            inputs.push(v);
            inputs.push(-v);
        }
    }
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200_000 {
        // Random f64 with exponents around the half range, both signs.
        let r = rng.next();
        let exp = 1023 - 30 + r % 50;
        let bits = (r & (1 << 63)) | (exp << 52) | (rng.next() >> 12);
        inputs.push(f64::from_bits(bits));
    }
    inputs.extend([
        1e-30, -1e-30, 5e-324, 1e300, -1e300, 65519.99, 65520.0, 65520.01,
    ]);
    for x in inputs {
        for mode in MODES {
            let want = reference_round(&ladder, x, mode);
            let got = Half::from_f64_mode(x, mode).0;
            assert_eq!(got, want, "{x:e} {mode:?}: got {got:#06x} want {want:#06x}");
            if let Ok(f) = f32_exact(x) {
                let got32 = Half::from_f32_mode(f, mode).0;
                assert_eq!(got32, want, "{x:e} {mode:?} via f32");
            }
        }
    }
}

/// `x` as f32 when the conversion is exact.
fn f32_exact(x: f64) -> Result<f32, ()> {
    let f = x as f32;
    if f64::from(f) == x { Ok(f) } else { Err(()) }
}

#[test]
fn specific_values() {
    let cases: &[(f64, Rounding, u16)] = &[
        (1.0, Rounding::Rte, 0x3c00),
        (-2.0, Rounding::Rte, 0xc000),
        (0.5 + 1.0 / 4096.0, Rounding::Rte, 0x3800), // tie between 0x3800 and 0x3801: even
        (1.0 + 1.0 / 2048.0, Rounding::Rte, 0x3c00),
        (1.0 + 1.0 / 2048.0, Rounding::Rtp, 0x3c01),
        (1.0 + 3.0 / 2048.0, Rounding::Rte, 0x3c02), // tie: to even 0x3c02
        (65504.0, Rounding::Rte, 0x7bff),
        (65519.0, Rounding::Rte, 0x7bff),
        (65520.0, Rounding::Rte, 0x7c00),
        (1e5, Rounding::Rtz, 0x7bff),
        (1e5, Rounding::Rtn, 0x7bff),
        (1e5, Rounding::Rtp, 0x7c00),
        (-1e5, Rounding::Rtp, 0xfbff),
        (-1e5, Rounding::Rtn, 0xfc00),
        (f64::INFINITY, Rounding::Rtz, 0x7c00),
        (5.960464477539063e-8, Rounding::Rte, 0x0001), // 2^-24
        (2.9802322387695312e-8, Rounding::Rte, 0x0000), // 2^-25: tie to even zero
        (2.9802322387695312e-8, Rounding::Rtp, 0x0001),
        (3.0e-8, Rounding::Rte, 0x0001),
        (-1e-30, Rounding::Rtn, 0x8001),
        (-1e-30, Rounding::Rte, 0x8000),
        (-0.0, Rounding::Rte, 0x8000),
        (6.097555160522461e-5, Rounding::Rte, 0x03ff), // largest subnormal
        (6.103515625e-5, Rounding::Rte, 0x0400),       // smallest normal
    ];
    for &(x, mode, want) in cases {
        assert_eq!(Half::from_f64_mode(x, mode).0, want, "{x:e} {mode:?}");
    }
    assert!(Half::from_f64(f64::NAN).is_nan());
    assert_eq!(Half::from_f32(1.5), Half(0x3e00));
}
