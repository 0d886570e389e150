//! IEEE binary16 (`half`): exact widening and correctly rounded narrowing in each rounding mode.

use super::round::Rounding;

/// A half value as its IEEE binary16 bits. Equality is bitwise (NaN == NaN, +0 != -0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Half(pub u16);

const SIGN: u16 = 0x8000;
const EXP_MASK: u16 = 0x7c00;
const MANT_MASK: u16 = 0x03ff;
/// Largest finite half, 65504.
const MAX_BITS: u16 = 0x7bff;
const INF_BITS: u16 = 0x7c00;

impl Half {
    pub const ZERO: Half = Half(0);
    pub const ONE: Half = Half(0x3c00);
    pub const INFINITY: Half = Half(INF_BITS);
    pub const NEG_INFINITY: Half = Half(SIGN | INF_BITS);
    /// The quiet NaN this runtime produces.
    pub const NAN: Half = Half(0x7e00);
    pub const MAX: Half = Half(MAX_BITS);
    /// Smallest positive subnormal, 2^-24.
    pub const MIN_POSITIVE_SUBNORMAL: Half = Half(1);

    /// The exact value as f32.
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// The exact value as f64 (NaN payloads are kept in the top mantissa bits).
    pub fn to_f64(self) -> f64 {
        let neg = self.0 & SIGN != 0;
        let exp = (self.0 & EXP_MASK) >> 10;
        let mant = u64::from(self.0 & MANT_MASK);
        let mag = match exp {
            0 => mant as f64 * f64::powi(2.0, -24),
            31 => {
                if mant == 0 {
                    f64::INFINITY
                } else {
                    f64::from_bits(0x7ff0_0000_0000_0000 | (mant << 42))
                }
            }
            e => f64::from_bits(((u64::from(e) + 1008) << 52) | (mant << 42)),
        };
        if neg { -mag } else { mag }
    }

    /// `x` rounded to nearest even.
    pub fn from_f64(x: f64) -> Half {
        Half::from_f64_mode(x, Rounding::Rte)
    }

    /// `x` rounded to nearest even.
    pub fn from_f32(x: f32) -> Half {
        Half::from_f64_mode(x.into(), Rounding::Rte)
    }

    /// `x` rounded with `mode` (one rounding: f32 widens to f64 exactly first).
    pub fn from_f32_mode(x: f32, mode: Rounding) -> Half {
        Half::from_f64_mode(x.into(), mode)
    }

    /// `x` correctly rounded to half with `mode`; overflow gives infinity or the largest finite
    /// half as IEEE 754 directs for the mode, NaN stays NaN (quiet, payload kept where it fits).
    pub fn from_f64_mode(x: f64, mode: Rounding) -> Half {
        let bits = x.to_bits();
        let neg = bits >> 63 != 0;
        let sign = if neg { SIGN } else { 0 };
        if x.is_nan() {
            let payload = ((bits >> 42) & u64::from(MANT_MASK)) as u16;
            return Half(sign | INF_BITS | 0x0200 | payload);
        }
        if x.is_infinite() {
            return Half(sign | INF_BITS);
        }
        let e = ((bits >> 52) & 0x7ff) as i32;
        let m = bits & ((1u64 << 52) - 1);
        if e == 0 {
            // Zero or an f64 subnormal: far below half's smallest subnormal.
            if m == 0 {
                return Half(sign);
            }
            let up = rounds_away(mode, neg, false, false, false);
            return Half(sign | u16::from(up));
        }
        let exp = e - 1023;
        if exp > 15 {
            return overflow(sign, mode);
        }
        let sig = (1u64 << 52) | m;
        // Quantum of the result: 2^(max(exp, -14) - 10); shift brings sig to that quantum.
        let shift = (42 + exp.max(-14) - exp) as u32;
        let (n, above, tie, sticky) = if shift >= 54 {
            (0u64, false, false, true)
        } else {
            let n = sig >> shift;
            let rem = sig & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            (n, rem > half, rem == half, rem != 0)
        };
        let odd = n & 1 == 1;
        let n = n + u64::from(rounds_away_full(mode, neg, above, tie, odd, sticky));
        let out = if exp < -14 {
            n
        } else {
            ((exp + 15) as u64) * 1024 + n - 1024
        };
        if out >= u64::from(INF_BITS) {
            return overflow(sign, mode);
        }
        Half(sign | out as u16)
    }

    /// True for NaN.
    pub fn is_nan(self) -> bool {
        self.0 & EXP_MASK == EXP_MASK && self.0 & MANT_MASK != 0
    }
}

/// Whether a magnitude with the given discarded part rounds away from zero under `mode`.
fn rounds_away_full(
    mode: Rounding,
    neg: bool,
    above_half: bool,
    tie: bool,
    odd: bool,
    sticky: bool,
) -> bool {
    match mode {
        Rounding::Rte => above_half || (tie && odd),
        Rounding::Rtz => false,
        Rounding::Rtp => sticky && !neg,
        Rounding::Rtn => sticky && neg,
    }
}

/// `rounds_away_full` for a value below half of the smallest quantum (only directed modes move).
fn rounds_away(mode: Rounding, neg: bool, above_half: bool, tie: bool, odd: bool) -> bool {
    rounds_away_full(mode, neg, above_half, tie, odd, true)
}

/// The result of a finite value too large for half.
fn overflow(sign: u16, mode: Rounding) -> Half {
    let neg = sign != 0;
    let inf = match mode {
        Rounding::Rte => true,
        Rounding::Rtz => false,
        Rounding::Rtp => !neg,
        Rounding::Rtn => neg,
    };
    Half(sign | if inf { INF_BITS } else { MAX_BITS })
}
