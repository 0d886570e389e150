//! Rounding modes and exact directed rounding between the binary floating-point formats.

/// An OpenCL rounding-mode suffix: `_rte`, `_rtz`, `_rtp`, `_rtn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// To nearest, ties to even.
    Rte,
    /// Toward zero.
    Rtz,
    /// Toward positive infinity.
    Rtp,
    /// Toward negative infinity.
    Rtn,
}

impl Rounding {
    /// Parses a suffix without its underscore (`"rte"`).
    pub fn from_suffix(s: &str) -> Option<Rounding> {
        Some(match s {
            "rte" => Rounding::Rte,
            "rtz" => Rounding::Rtz,
            "rtp" => Rounding::Rtp,
            "rtn" => Rounding::Rtn,
            _ => return None,
        })
    }

    /// The suffix without its underscore.
    pub fn suffix(self) -> &'static str {
        match self {
            Rounding::Rte => "rte",
            Rounding::Rtz => "rtz",
            Rounding::Rtp => "rtp",
            Rounding::Rtn => "rtn",
        }
    }

    /// `x` rounded to an integral value in this mode (exact; keeps the sign of zero).
    pub fn round_integral(self, x: f64) -> f64 {
        match self {
            Rounding::Rte => x.round_ties_even(),
            Rounding::Rtz => x.trunc(),
            Rounding::Rtp => x.ceil(),
            Rounding::Rtn => x.floor(),
        }
    }
}

/// Adjusts `nearest` (the round-to-nearest result, possibly infinite) for a directed mode, given
/// how it compares with the exact value: `above` when `nearest` > exact, `below` when less.
fn direct<T: Copy>(
    nearest: T,
    mode: Rounding,
    above: bool,
    below: bool,
    neg: bool,
    up: impl Fn(T) -> T,
    down: impl Fn(T) -> T,
) -> T {
    match mode {
        Rounding::Rte => nearest,
        Rounding::Rtp if below => up(nearest),
        Rounding::Rtn if above => down(nearest),
        Rounding::Rtz if above && !neg => down(nearest),
        Rounding::Rtz if below && neg => up(nearest),
        _ => nearest,
    }
}

/// `x` correctly rounded to f32 with `mode` (NaN stays NaN).
pub fn f64_to_f32(x: f64, mode: Rounding) -> f32 {
    let r = x as f32;
    if mode == Rounding::Rte || x.is_nan() {
        return r;
    }
    let rb = f64::from(r);
    direct(
        r,
        mode,
        rb > x,
        rb < x,
        x < 0.0,
        f32::next_up,
        f32::next_down,
    )
}

/// `v` correctly rounded to f64 with `mode`.
pub fn int_to_f64(v: i128, mode: Rounding) -> f64 {
    let r = v as f64;
    if mode == Rounding::Rte {
        return r;
    }
    let rb = r as i128;
    direct(r, mode, rb > v, rb < v, v < 0, f64::next_up, f64::next_down)
}

/// `v` correctly rounded to f32 with `mode`.
pub fn int_to_f32(v: i128, mode: Rounding) -> f32 {
    let r = v as f32;
    if mode == Rounding::Rte {
        return r;
    }
    let rb = r as i128;
    direct(r, mode, rb > v, rb < v, v < 0, f32::next_up, f32::next_down)
}

/// Rounds `x` (an f64 holding an exact value) to the nearest f64 in `mode`-agnostic
/// round-to-odd fashion given the sign of the discarded error `err`: makes the last bit odd when
/// the value was inexact, so that a later rounding to 51 bits or fewer is a correct single rounding.
pub fn round_to_odd(x: f64, err: f64) -> f64 {
    if err == 0.0 || !x.is_finite() {
        return x;
    }
    if x.to_bits() & 1 == 1 {
        return x;
    }
    if err > 0.0 {
        x.next_up()
    } else {
        x.next_down()
    }
}
