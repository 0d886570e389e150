//! IEEE 754 binary16 (`half`) conversions, rounding to nearest with ties to even.

/// Rounds `x` to the nearest binary16 value (ties to even) and returns its bits. Values at or
/// beyond 65520 in magnitude become infinity; NaN becomes the quiet NaN 0x7e00 with `x`'s sign.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < MIN_NORMAL {
        // Subnormal (or zero): a count of 2^-24 units; 1024 units carries into the smallest
        // normal's encoding.
        let units = (a * TWO_POW_24).round_ties_even();
        return sign | units as u16;
    }
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let frac = (a * pow2(-exp) - 1.0) * 1024.0;
    let mut mant = frac.round_ties_even() as u32;
    let mut biased = (exp + 15) as u32;
    if mant == 1024 {
        mant = 0;
        biased += 1;
    }
    sign | ((biased << 10) | mant) as u16
}

/// The value of binary16 bits, exactly.
pub fn f16_bits_to_f64(bits: u16) -> f64 {
    let negative = bits & 0x8000 != 0;
    let exp = ((bits >> 10) & 0x1f) as i32;
    let mant = (bits & 0x3ff) as f64;
    let magnitude = match exp {
        0 => mant / TWO_POW_24,
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + mant / 1024.0) * pow2(exp - 15),
    };
    if negative { -magnitude } else { magnitude }
}

const MIN_NORMAL: f64 = 1.0 / 16384.0;
const TWO_POW_24: f64 = 16_777_216.0;

/// 2^e for the small exponents binary16 needs.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_encodings() {
        let cases: &[(f64, u16)] = &[
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (0.1, 0x2e66),
            (1.0 / 3.0, 0x3555),
            (65504.0, 0x7bff),
            (65519.99, 0x7bff),
            (65520.0, 0x7c00),
            (1e10, 0x7c00),
            (f64::NEG_INFINITY, 0xfc00),
            (1.0 + 1.0 / 2048.0, 0x3c00),         // tie, to even (down)
            (1.0 + 3.0 / 2048.0, 0x3c02),         // tie, to even (up)
            (1.0 + 1.0 / 2048.0 + 1e-12, 0x3c01), // just above the tie
            (2.0f64.powi(-24), 0x0001),
            (2.0f64.powi(-25), 0x0000), // tie between 0 and the smallest subnormal
            (3.0 * 2.0f64.powi(-25), 0x0002), // tie between 1 and 2 units
            (2.0f64.powi(-14), 0x0400),
            (2.0f64.powi(-14) - 2.0f64.powi(-26), 0x0400), // rounds up into the normals
            (2047.0 / 1024.0 + 1.0 / 2048.0, 0x4000),      // mantissa carry into the exponent
        ];
        for &(x, bits) in cases {
            assert_eq!(f64_to_f16_bits(x), bits, "{x}");
        }
        assert_eq!(f64_to_f16_bits(f64::NAN), 0x7e00);
    }

    #[test]
    fn every_half_round_trips() {
        for bits in 0..=u16::MAX {
            let v = f16_bits_to_f64(bits);
            if v.is_nan() {
                assert_eq!(f64_to_f16_bits(v) & 0x7e00, 0x7e00);
            } else {
                assert_eq!(f64_to_f16_bits(v), bits, "{bits:#06x}");
            }
        }
    }
}
