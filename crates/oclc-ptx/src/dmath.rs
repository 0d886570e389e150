//! Double-precision math builtins, written once against [`DOps`], a small set of PTX double,
//! integer and predicate operations, and run two ways: `dmath_ptx` emits
//! each operation as one PTX instruction, and [`Eval`] performs it on Rust values with PTX's
//! semantics (round-to-nearest f64 arithmetic, saturating conversions, clamped shifts), so the
//! exact sequence the GPU runs can be tested on any machine ([`eval`]).
//!
//! Every algorithm is straight-line code (both sides of a branch computed, then selected),
//! except the long division of `fmod`/`remainder`/`remquo` and the continued fraction of
//! `erfc`, which are counted loops ([`DOps::repeat`]).

use crate::dmath_core as core;
use crate::dmath_fns as fns;

/// A comparison of [`DOps::fcmp`] (ordered: false when either operand is NaN), [`DOps::icmp`]
/// (signed) or [`DOps::lcmp`] (unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The PTX comparison name.
    pub fn ptx(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
        }
    }

    fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// The PTX operations the double-precision algorithms use. `F` is an f64 register, `I` an
/// s32 one, `L` a b64 one (unsigned where it matters), `P` a predicate. f64 arithmetic
/// rounds to nearest even (`.rn`).
pub trait DOps: Sized {
    type F: Copy;
    type I: Copy;
    type L: Copy;
    type P: Copy;

    fn f(&mut self, v: f64) -> Self::F;
    fn i(&mut self, v: i32) -> Self::I;
    fn l(&mut self, v: u64) -> Self::L;

    fn add(&mut self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(&mut self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(&mut self, a: Self::F, b: Self::F) -> Self::F;
    fn div(&mut self, a: Self::F, b: Self::F) -> Self::F;
    fn fma(&mut self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    fn sqrt(&mut self, a: Self::F) -> Self::F;
    fn neg(&mut self, a: Self::F) -> Self::F;
    fn abs(&mut self, a: Self::F) -> Self::F;
    /// `min.f64`: a NaN operand is ignored.
    fn min(&mut self, a: Self::F, b: Self::F) -> Self::F;
    fn max(&mut self, a: Self::F, b: Self::F) -> Self::F;
    /// `mag` with the sign of `sgn`.
    fn copysign(&mut self, mag: Self::F, sgn: Self::F) -> Self::F;
    /// `cvt.rni.f64.f64` (ties to even).
    fn rint(&mut self, a: Self::F) -> Self::F;
    /// `cvt.rzi.f64.f64`.
    fn trunc(&mut self, a: Self::F) -> Self::F;
    /// `cvt.rmi.f64.f64`.
    fn floor(&mut self, a: Self::F) -> Self::F;
    /// `cvt.rni.s32.f64`: saturating, NaN gives 0.
    fn f2i(&mut self, a: Self::F) -> Self::I;
    /// `cvt.rzi.s32.f64`.
    fn f2i_rz(&mut self, a: Self::F) -> Self::I;
    fn i2f(&mut self, a: Self::I) -> Self::F;
    /// `cvt.rn.f64.u64`.
    fn l2f(&mut self, a: Self::L) -> Self::F;
    /// The bits of an f64 (`mov.b64`).
    fn bits(&mut self, a: Self::F) -> Self::L;
    /// The f64 with these bits (`mov.b64`).
    fn bitsf(&mut self, a: Self::L) -> Self::F;

    fn ladd(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn lsub(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn land(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn lor(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn lxor(&mut self, a: Self::L, b: Self::L) -> Self::L;
    /// `shl.b64`; shifts of 64 or more give 0.
    fn lshl(&mut self, a: Self::L, n: Self::I) -> Self::L;
    /// `shr.u64`; shifts of 64 or more give 0.
    fn lshr(&mut self, a: Self::L, n: Self::I) -> Self::L;
    fn lmul(&mut self, a: Self::L, b: Self::L) -> Self::L;
    /// `mul.hi.u64`.
    fn lmulhi(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn ldiv(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn lrem(&mut self, a: Self::L, b: Self::L) -> Self::L;
    fn lclz(&mut self, a: Self::L) -> Self::I;
    /// The low 32 bits.
    fn l2i(&mut self, a: Self::L) -> Self::I;
    /// Sign extension.
    fn i2l(&mut self, a: Self::I) -> Self::L;

    fn iadd(&mut self, a: Self::I, b: Self::I) -> Self::I;
    fn isub(&mut self, a: Self::I, b: Self::I) -> Self::I;
    fn iand(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `shr.s32` by a constant.
    fn ishr(&mut self, a: Self::I, n: u32) -> Self::I;
    fn imin(&mut self, a: Self::I, b: Self::I) -> Self::I;
    fn imax(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `div.s32` by a positive constant.
    fn idiv(&mut self, a: Self::I, d: i32) -> Self::I;

    fn fcmp(&mut self, c: Cmp, a: Self::F, b: Self::F) -> Self::P;
    fn icmp(&mut self, c: Cmp, a: Self::I, b: Self::I) -> Self::P;
    fn lcmp(&mut self, c: Cmp, a: Self::L, b: Self::L) -> Self::P;
    fn isnan(&mut self, a: Self::F) -> Self::P;
    fn isinf(&mut self, a: Self::F) -> Self::P;
    fn pand(&mut self, a: Self::P, b: Self::P) -> Self::P;
    fn por(&mut self, a: Self::P, b: Self::P) -> Self::P;
    fn pnot(&mut self, a: Self::P) -> Self::P;

    /// `p ? a : b`.
    fn sel(&mut self, p: Self::P, a: Self::F, b: Self::F) -> Self::F;
    fn seli(&mut self, p: Self::P, a: Self::I, b: Self::I) -> Self::I;
    fn sell(&mut self, p: Self::P, a: Self::L, b: Self::L) -> Self::L;

    /// Word `k` (clamped to the table) of [`TWO_OVER_PI`].
    fn tab(&mut self, k: Self::I) -> Self::L;

    /// Runs `body` `count` times (none when `count` ≤ 0) on loop-carried 64-bit state.
    fn repeat<const K: usize>(
        &mut self,
        count: Self::I,
        init: [Self::L; K],
        body: impl FnMut(&mut Self, [Self::L; K]) -> [Self::L; K],
    ) -> [Self::L; K];
}

/// 2/π in binary, 64 bits a word, after one zero word (so that the reduction window of small
/// arguments starts inside the table).
pub const TWO_OVER_PI: [u64; 23] = [
    0,
    0xA2F9836E4E441529,
    0xFC2757D1F534DDC0,
    0xDB6295993C439041,
    0xFE5163ABDEBBC561,
    0xB7246E3A424DD2E0,
    0x06492EEA09D1921C,
    0xFE1DEB1CB129A73E,
    0xE88235F52EBB4484,
    0xE99C7026B45F7E41,
    0x3991D639835339F4,
    0x9C845F8BBDF9283B,
    0x1FF897FFDE05980F,
    0xEF2F118B5A0A6D1F,
    0x6D367ECF27CB09B7,
    0x4F463F669E5FEA2D,
    0x7527BAC7EBE5F17B,
    0x3D0739F78A5292EA,
    0x6BFB5FB11F8D5D08,
    0x56033046FC7B6BAB,
    0xF0CFBC209AF4361D,
    0xA9E391615EE61B08,
    0x6599855F14A06840,
];

/// Most iterations [`Eval::repeat`] runs (the algorithms need at most 2100).
const MAX_TRIPS: i32 = 4096;

/// [`DOps`] on Rust values, with PTX's semantics.
pub struct Eval;

impl DOps for Eval {
    type F = f64;
    type I = i32;
    type L = u64;
    type P = bool;

    fn f(&mut self, v: f64) -> f64 {
        v
    }
    fn i(&mut self, v: i32) -> i32 {
        v
    }
    fn l(&mut self, v: u64) -> u64 {
        v
    }
    fn add(&mut self, a: f64, b: f64) -> f64 {
        a + b
    }
    fn sub(&mut self, a: f64, b: f64) -> f64 {
        a - b
    }
    fn mul(&mut self, a: f64, b: f64) -> f64 {
        a * b
    }
    fn div(&mut self, a: f64, b: f64) -> f64 {
        a / b
    }
    fn fma(&mut self, a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
    fn sqrt(&mut self, a: f64) -> f64 {
        a.sqrt()
    }
    fn neg(&mut self, a: f64) -> f64 {
        -a
    }
    fn abs(&mut self, a: f64) -> f64 {
        a.abs()
    }
    fn min(&mut self, a: f64, b: f64) -> f64 {
        a.min(b)
    }
    fn max(&mut self, a: f64, b: f64) -> f64 {
        a.max(b)
    }
    fn copysign(&mut self, mag: f64, sgn: f64) -> f64 {
        mag.copysign(sgn)
    }
    fn rint(&mut self, a: f64) -> f64 {
        a.round_ties_even()
    }
    fn trunc(&mut self, a: f64) -> f64 {
        a.trunc()
    }
    fn floor(&mut self, a: f64) -> f64 {
        a.floor()
    }
    fn f2i(&mut self, a: f64) -> i32 {
        a.round_ties_even() as i32
    }
    fn f2i_rz(&mut self, a: f64) -> i32 {
        a as i32
    }
    fn i2f(&mut self, a: i32) -> f64 {
        f64::from(a)
    }
    fn l2f(&mut self, a: u64) -> f64 {
        a as f64
    }
    fn bits(&mut self, a: f64) -> u64 {
        a.to_bits()
    }
    fn bitsf(&mut self, a: u64) -> f64 {
        f64::from_bits(a)
    }
    fn ladd(&mut self, a: u64, b: u64) -> u64 {
        a.wrapping_add(b)
    }
    fn lsub(&mut self, a: u64, b: u64) -> u64 {
        a.wrapping_sub(b)
    }
    fn land(&mut self, a: u64, b: u64) -> u64 {
        a & b
    }
    fn lor(&mut self, a: u64, b: u64) -> u64 {
        a | b
    }
    fn lxor(&mut self, a: u64, b: u64) -> u64 {
        a ^ b
    }
    fn lshl(&mut self, a: u64, n: i32) -> u64 {
        a.checked_shl(n as u32).unwrap_or(0)
    }
    fn lshr(&mut self, a: u64, n: i32) -> u64 {
        a.checked_shr(n as u32).unwrap_or(0)
    }
    fn lmul(&mut self, a: u64, b: u64) -> u64 {
        a.wrapping_mul(b)
    }
    fn lmulhi(&mut self, a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) >> 64) as u64
    }
    fn ldiv(&mut self, a: u64, b: u64) -> u64 {
        a.checked_div(b).unwrap_or(u64::MAX)
    }
    fn lrem(&mut self, a: u64, b: u64) -> u64 {
        a.checked_rem(b).unwrap_or(a)
    }
    fn lclz(&mut self, a: u64) -> i32 {
        a.leading_zeros() as i32
    }
    fn l2i(&mut self, a: u64) -> i32 {
        a as u32 as i32
    }
    fn i2l(&mut self, a: i32) -> u64 {
        i64::from(a) as u64
    }
    fn iadd(&mut self, a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }
    fn isub(&mut self, a: i32, b: i32) -> i32 {
        a.wrapping_sub(b)
    }
    fn iand(&mut self, a: i32, b: i32) -> i32 {
        a & b
    }
    fn ishr(&mut self, a: i32, n: u32) -> i32 {
        a >> n.min(31)
    }
    fn imin(&mut self, a: i32, b: i32) -> i32 {
        a.min(b)
    }
    fn imax(&mut self, a: i32, b: i32) -> i32 {
        a.max(b)
    }
    fn idiv(&mut self, a: i32, d: i32) -> i32 {
        a.checked_div(d).unwrap_or(-1)
    }
    fn fcmp(&mut self, c: Cmp, a: f64, b: f64) -> bool {
        !a.is_nan() && !b.is_nan() && c.test(a, b)
    }
    fn icmp(&mut self, c: Cmp, a: i32, b: i32) -> bool {
        c.test(a, b)
    }
    fn lcmp(&mut self, c: Cmp, a: u64, b: u64) -> bool {
        c.test(a, b)
    }
    fn isnan(&mut self, a: f64) -> bool {
        a.is_nan()
    }
    fn isinf(&mut self, a: f64) -> bool {
        a.is_infinite()
    }
    fn pand(&mut self, a: bool, b: bool) -> bool {
        a && b
    }
    fn por(&mut self, a: bool, b: bool) -> bool {
        a || b
    }
    fn pnot(&mut self, a: bool) -> bool {
        !a
    }
    fn sel(&mut self, p: bool, a: f64, b: f64) -> f64 {
        if p { a } else { b }
    }
    fn seli(&mut self, p: bool, a: i32, b: i32) -> i32 {
        if p { a } else { b }
    }
    fn sell(&mut self, p: bool, a: u64, b: u64) -> u64 {
        if p { a } else { b }
    }
    fn tab(&mut self, k: i32) -> u64 {
        let i = k.clamp(0, TWO_OVER_PI.len() as i32 - 1) as usize;
        TWO_OVER_PI.get(i).copied().unwrap_or(0)
    }
    fn repeat<const K: usize>(
        &mut self,
        count: i32,
        init: [u64; K],
        mut body: impl FnMut(&mut Self, [u64; K]) -> [u64; K],
    ) -> [u64; K] {
        let mut s = init;
        for _ in 0..count.clamp(0, MAX_TRIPS) {
            s = body(self, s);
        }
        s
    }
}

/// How a builtin takes its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `double f(double)`.
    Unary,
    /// `double f(double, double)`.
    Binary,
    /// `double f(double, int)`.
    WithInt,
    /// `int f(double)` (`ilogb`).
    IntResult,
    /// `double f(double, double, int *)` (`remquo`).
    BinaryIntOut,
    /// `double f(double, int *)` (`lgamma_r`).
    UnaryIntOut,
    /// `double f(double, double *)` (`sincos`: sine, and the cosine through the pointer).
    UnaryFloatOut,
    /// `double nan(ulong)`.
    Nan,
}

/// The shape of double builtin `name`, if this module implements it.
pub fn shape(name: &str) -> Option<Shape> {
    Some(match name {
        "exp" | "exp2" | "exp10" | "expm1" | "log" | "log2" | "log10" | "log1p" | "logb"
        | "sin" | "cos" | "tan" | "sinpi" | "cospi" | "tanpi" | "asin" | "acos" | "atan"
        | "asinpi" | "acospi" | "atanpi" | "sinh" | "cosh" | "tanh" | "asinh" | "acosh"
        | "atanh" | "cbrt" | "erf" | "erfc" | "tgamma" | "lgamma" => Shape::Unary,
        "atan2" | "atan2pi" | "pow" | "powr" | "hypot" | "fmod" | "remainder" | "nextafter" => {
            Shape::Binary
        }
        "pown" | "rootn" | "ldexp" => Shape::WithInt,
        "ilogb" => Shape::IntResult,
        "remquo" => Shape::BinaryIntOut,
        "lgamma_r" => Shape::UnaryIntOut,
        "sincos" => Shape::UnaryFloatOut,
        "nan" => Shape::Nan,
        _ => return None,
    })
}

/// The results of one builtin: the value, and what it stores through its pointer.
pub struct Out<O: DOps> {
    pub value: Option<O::F>,
    pub int: Option<O::I>,
    pub second: Option<O::F>,
}

/// Arguments: `x`, then `y` (the second double) and `n` (the int argument) where the shape
/// has them (otherwise any value).
pub fn compute<O: DOps>(o: &mut O, name: &str, x: O::F, y: O::F, n: O::I) -> Option<Out<O>> {
    let value = |v| Out {
        value: Some(v),
        int: None,
        second: None,
    };
    Some(match name {
        "ilogb" => Out {
            value: None,
            int: Some(fns::ilogb(o, x)),
            second: None,
        },
        "remquo" => {
            let (r, q) = core::rem(o, x, y, true);
            Out {
                value: Some(r),
                int: Some(q),
                second: None,
            }
        }
        "lgamma_r" => {
            let (v, s) = fns::lgamma_r(o, x);
            Out {
                value: Some(v),
                int: Some(s),
                second: None,
            }
        }
        "sincos" => {
            let (s, c) = fns::sin_cos(o, x);
            Out {
                value: Some(s),
                int: None,
                second: Some(c),
            }
        }
        "fmod" | "remainder" => value(core::rem(o, x, y, name == "remainder").0),
        _ => value(match shape(name)? {
            Shape::Unary => fns::unary(o, name, x)?,
            Shape::Binary => fns::binary(o, name, x, y)?,
            Shape::WithInt => fns::with_int(o, name, x, n)?,
            _ => return None,
        }),
    })
}

/// What [`eval`] returns: the double result, and the int or second double the builtin
/// stores through its pointer argument (`remquo`, `lgamma_r`, `sincos`); `ilogb`'s result is
/// the int.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluated {
    pub value: f64,
    pub int: Option<i32>,
    pub second: Option<f64>,
}

/// Runs the PTX sequence of double builtin `name` on the host, bit for bit as the GPU would:
/// `x`, `y` the double arguments, `n` the int one (each only where the builtin has it).
/// `None` when the builtin is not one of [`shape`]'s.
pub fn eval(name: &str, x: f64, y: f64, n: i32) -> Option<Evaluated> {
    if name == "nan" {
        return Some(Evaluated {
            value: f64::from_bits(0x7ff8_0000_0000_0000 | (x.to_bits() & 0x0007_ffff_ffff_ffff)),
            int: None,
            second: None,
        });
    }
    let out = compute(&mut Eval, name, x, y, n)?;
    Some(Evaluated {
        value: out.value.unwrap_or(f64::NAN),
        int: out.int,
        second: out.second,
    })
}

/// `length`, `distance` or `normalize` of double lanes `a` (and `b` for distance) as the
/// GPU computes them; None for another name.
pub fn eval_geometric(name: &str, a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let o = &mut Eval;
    Some(match name {
        "length" => vec![fns::length(o, a)],
        "distance" => {
            let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
            vec![fns::length(o, &d)]
        }
        "normalize" => fns::normalize(o, a),
        _ => return None,
    })
}
