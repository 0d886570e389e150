//! Builtin families whose semantics are spelled in the name: conversions
//! (`convert_int4_sat_rte`), rounding `vstore_half*` stores and `as_T` reinterpretations.
//! IR lowering and the cpu runtime decode names here instead of re-parsing them.

use super::ty::{BTy, Scalar};

/// Floating-point rounding mode of a conversion or half store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// No suffix: the default for the destination (round to nearest even for floating
    /// results, toward zero for integer results).
    Default,
    /// `_rte`: to nearest even.
    NearestEven,
    /// `_rtz`: toward zero.
    TowardZero,
    /// `_rtp`: toward +infinity.
    TowardPositive,
    /// `_rtn`: toward -infinity.
    TowardNegative,
}

impl Rounding {
    fn from_suffix(s: &str) -> Option<(Rounding, &str)> {
        for (suffix, r) in [
            ("_rte", Rounding::NearestEven),
            ("_rtz", Rounding::TowardZero),
            ("_rtp", Rounding::TowardPositive),
            ("_rtn", Rounding::TowardNegative),
        ] {
            if let Some(rest) = s.strip_suffix(suffix) {
                return Some((r, rest));
            }
        }
        Some((Rounding::Default, s))
    }
}

/// A `convert_<type><n>[_sat][_<rounding>]` builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Convert {
    /// The destination element type.
    pub to: Scalar,
    /// Vector width, 1 for scalars.
    pub width: u8,
    /// `_sat`: out-of-range values saturate (integer destinations only).
    pub saturate: bool,
    pub rounding: Rounding,
}

fn split_width(s: &str) -> Option<(Scalar, u8)> {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (elem, n) = s.split_at(s.len() - digits);
    let elem = Scalar::from_name(elem).filter(|e| Scalar::VECTOR_ELEMS.contains(e))?;
    let width = if n.is_empty() { 1 } else { n.parse().ok()? };
    matches!(width, 1 | 2 | 3 | 4 | 8 | 16).then_some((elem, width))
}

/// Decodes a conversion builtin's name.
pub fn convert(name: &str) -> Option<Convert> {
    let rest = name.strip_prefix("convert_")?;
    let (rounding, rest) = Rounding::from_suffix(rest)?;
    let (saturate, rest) = match rest.strip_suffix("_sat") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (to, width) = split_width(rest)?;
    if saturate && to.is_float() {
        return None;
    }
    Some(Convert {
        to,
        width,
        saturate,
        rounding,
    })
}

/// A `vstore[a]_half<n>[_<rounding>]` builtin: width and rounding of the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HalfStore {
    /// `vstorea_half`: aligned, 3-vectors use a 4-element stride.
    pub aligned: bool,
    pub width: u8,
    pub rounding: Rounding,
}

/// Decodes a `vstore_half`/`vstorea_half` name.
pub fn half_store(name: &str) -> Option<HalfStore> {
    let (aligned, rest) = if let Some(r) = name.strip_prefix("vstorea_half") {
        (true, r)
    } else {
        (false, name.strip_prefix("vstore_half")?)
    };
    let (rounding, rest) = Rounding::from_suffix(rest)?;
    let width = if rest.is_empty() {
        1
    } else {
        rest.parse().ok()?
    };
    matches!(width, 1 | 2 | 3 | 4 | 8 | 16).then_some(HalfStore {
        aligned,
        width,
        rounding,
    })
}

/// The destination type of `as_T`.
pub fn as_type(name: &str) -> Option<BTy> {
    super::parse::as_type_target(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(
            convert("convert_int4_sat_rte"),
            Some(Convert {
                to: Scalar::Int,
                width: 4,
                saturate: true,
                rounding: Rounding::NearestEven
            })
        );
        assert_eq!(
            convert("convert_float"),
            Some(Convert {
                to: Scalar::Float,
                width: 1,
                saturate: false,
                rounding: Rounding::Default
            })
        );
        assert_eq!(convert("convert_float_sat"), None);
        assert_eq!(convert("convert_int5"), None);
        assert_eq!(convert("convert_size_t"), None);
        assert_eq!(
            half_store("vstorea_half3_rtp"),
            Some(HalfStore {
                aligned: true,
                width: 3,
                rounding: Rounding::TowardPositive
            })
        );
        assert_eq!(half_store("vstore_half").map(|h| h.width), Some(1));
        assert_eq!(as_type("as_ulong2"), Some(BTy::Vector(Scalar::ULong, 2)));
    }

    /// Every conversion name in the table decodes.
    #[test]
    fn table_names_decode() {
        let b =
            super::super::Builtins::new(&oclc_syntax::LangOptions::new(oclc_syntax::ClStd::Cl30));
        let mut n = 0;
        for id in b.names() {
            let name = b.name(id);
            if name.starts_with("convert_") {
                assert!(convert(name).is_some(), "{name}");
                n += 1;
            }
            if name.starts_with("vstore_half") || name.starts_with("vstorea_half") {
                assert!(half_store(name).is_some(), "{name}");
            }
        }
        assert_eq!(n, 11 * 6 * 5 + 8 * 6 * 5);
    }
}
