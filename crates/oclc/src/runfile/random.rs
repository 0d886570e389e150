//! The deterministic generator behind `{ random = SEED }`.
//!
//! The generator is SplitMix64 (Steele, Lea and Flood, 2014): the state starts at SEED (a TOML
//! integer; negative seeds use their two's-complement bits), and each draw adds
//! 0x9E3779B97F4A7C15 to the state and returns it mixed by
//! `z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB; z ^ z>>31`.
//! Each data component takes one draw, element by element and, within a vector element,
//! component by component (the padding of a 3-vector takes none and stays zero). A draw `x`
//! becomes a component as follows:
//!
//! | type | value | mapping |
//! |---|---|---|
//! | `char` | 0 ..= 127 | `x >> 57` |
//! | `uchar` | 0 ..= 255 | `x >> 56` |
//! | `short`, `ushort`, `int`, `uint`, `long`, `ulong` | 0 ..= 32767 | `x >> 49` |
//! | `half` | [0, 1) in steps of 2^-11 | `(x >> 53) * 2^-11` |
//! | `float` | [0, 1) in steps of 2^-24 | `(x >> 40) * 2^-24` |
//! | `double` | [0, 1) in steps of 2^-53 | `(x >> 11) * 2^-53` |
//!
//! Integers are uniform over the non-negative values up to 32767 that the type holds (the range
//! `clrun` uses), so sums and products of a few of them do not overflow; floats are uniform in
//! [0, 1) and every value is exactly representable in its type.

use super::elem::ScalarType;

/// SplitMix64.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A random component: an integer for integer types, a float for float types.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Draw {
    Int(i128),
    Float(f64),
}

/// Maps one draw to a component of type `ty` as the module documentation's table says.
pub fn map_draw(ty: ScalarType, x: u64) -> Draw {
    match ty {
        ScalarType::Char => Draw::Int((x >> 57) as i128),
        ScalarType::UChar => Draw::Int((x >> 56) as i128),
        ScalarType::Short
        | ScalarType::UShort
        | ScalarType::Int
        | ScalarType::UInt
        | ScalarType::Long
        | ScalarType::ULong => Draw::Int((x >> 49) as i128),
        ScalarType::Half => Draw::Float((x >> 53) as f64 / 2048.0),
        ScalarType::Float => Draw::Float((x >> 40) as f64 / 16_777_216.0),
        ScalarType::Double => Draw::Float((x >> 11) as f64 / 9_007_199_254_740_992.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_sequence() {
        // The published SplitMix64 outputs for seed 1234567.
        let mut g = SplitMix64::new(1234567);
        let want = [
            6457827717110365317u64,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        for w in want {
            assert_eq!(g.next_u64(), w);
        }
    }

    #[test]
    fn mapping_bounds() {
        assert_eq!(map_draw(ScalarType::Char, u64::MAX), Draw::Int(127));
        assert_eq!(map_draw(ScalarType::UChar, u64::MAX), Draw::Int(255));
        assert_eq!(map_draw(ScalarType::ULong, u64::MAX), Draw::Int(32767));
        assert_eq!(map_draw(ScalarType::Int, 0), Draw::Int(0));
        assert_eq!(
            map_draw(ScalarType::Half, u64::MAX),
            Draw::Float(2047.0 / 2048.0)
        );
        assert_eq!(
            map_draw(ScalarType::Float, u64::MAX),
            Draw::Float(f64::from(1.0f32 - f32::EPSILON / 2.0))
        );
        assert_eq!(
            map_draw(ScalarType::Double, u64::MAX),
            Draw::Float(1.0 - f64::EPSILON / 2.0)
        );
    }
}
