//! Calling a `Builtin` on typed values: the interpreter's one entry point.
//!
//! `call` takes each argument as `Lanes` (a scalar or a vector) and handles vectors the way
//! the builtin's family says: math, integer, common and conversion builtins apply lane by lane
//! (a scalar argument broadcasts against vectors, as in `fmax(float4, float)`), geometric ones
//! take whole vectors, relational predicates give 1/0 for scalars and -1/0 lanes for vectors.
//! `call_scalar` is the scalar-only fast path. Pointer outputs (`frexp`'s exponent, `sincos`'s
//! cosine, ...) come back in `out`; the interpreter stores them through the pointer argument.

use super::builtin::{Builtin, Family};
use super::float::Fp;
use super::half::Half;
use super::scalar::{Lanes, Scalar, ScalarType};
use super::{common, convert, geometric, integer, math, media, relational};

/// Why a builtin call could not be evaluated. These are type errors the front end should
/// have rejected; the interpreter reports them as internal errors.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuiltinError {
    #[error("`{builtin}` takes {expected} argument(s), got {got}")]
    Arity {
        builtin: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("`{builtin}` cannot take a {ty} argument here")]
    Type {
        builtin: &'static str,
        ty: &'static str,
    },
    #[error("`{builtin}`: arguments have different vector lengths")]
    Width { builtin: &'static str },
}

/// The result of a call: the returned value and, for builtins with a pointer output, the value
/// to store through it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub value: Lanes,
    pub out: Option<Lanes>,
}

/// One lane's result: the value and the optional pointer output.
pub type ScalarOutput = (Scalar, Option<Scalar>);

fn type_err(b: Builtin, s: Scalar) -> BuiltinError {
    BuiltinError::Type {
        builtin: b.name(),
        ty: s.ty().name(),
    }
}

/// Calls a builtin on scalar and/or vector arguments.
pub fn call(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    check_arity(b, args.len())?;
    match b.family() {
        Family::Geometric => geometric_call(b, args),
        Family::Relational => relational_call(b, args),
        Family::Vector => shuffle(b, args),
        Family::Media => media::call(b, args),
        _ => lanewise(b, args),
    }
}

fn check_arity(b: Builtin, got: usize) -> Result<(), BuiltinError> {
    if got != b.arity() {
        return Err(BuiltinError::Arity {
            builtin: b.name(),
            expected: b.arity(),
            got,
        });
    }
    Ok(())
}

/// The common vector length of the arguments (scalars broadcast).
fn width(b: Builtin, args: &[Lanes]) -> Result<usize, BuiltinError> {
    let n = args.iter().map(Lanes::len).max().unwrap_or(1);
    if args.iter().any(|a| a.len() != 1 && a.len() != n) {
        return Err(BuiltinError::Width { builtin: b.name() });
    }
    Ok(n)
}

/// Applies `call_scalar` lane by lane.
fn lanewise(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let n = width(b, args)?;
    let mut vals = [Scalar::default(); 16];
    let mut outs = [Scalar::default(); 16];
    let mut has_out = false;
    let mut lane_args = [Scalar::default(); 3];
    for i in 0..n {
        for (slot, a) in lane_args.iter_mut().zip(args) {
            *slot = a.lane(i);
        }
        let (v, o) = call_scalar(b, &lane_args[..args.len()])?;
        vals[i] = v;
        if let Some(o) = o {
            outs[i] = o;
            has_out = true;
        }
    }
    let value = Lanes::from_fn(n, |i| vals[i]);
    let out = has_out.then(|| Lanes::from_fn(n, |i| outs[i]));
    Ok(Output { value, out })
}

/// Calls a builtin on scalar arguments (one lane). Relational predicates return int 1/0.
pub fn call_scalar(b: Builtin, args: &[Scalar]) -> Result<ScalarOutput, BuiltinError> {
    check_arity(b, args.len())?;
    let first = args.first().copied().unwrap_or_default();
    match b {
        Builtin::Convert { to, sat, rounding } => {
            return Ok((convert::convert(first, to, sat, rounding), None));
        }
        Builtin::Nan => return nan(first).map(|v| (v, None)),
        _ => {}
    }
    match b.family() {
        Family::Relational => relational_scalar(b, args),
        Family::Geometric | Family::Vector | Family::Media => {
            let mut lanes = [Lanes::scalar(first); 3];
            for (d, &s) in lanes.iter_mut().zip(args) {
                *d = Lanes::scalar(s);
            }
            let out = call(b, &lanes[..args.len().min(3)])?;
            Ok((out.value.lane(0), None))
        }
        Family::Integer => integer_scalar(b, args),
        Family::Math | Family::Common | Family::Conversion => match first {
            Scalar::F32(_) => float_scalar::<f32>(b, args),
            Scalar::F64(_) => float_scalar::<f64>(b, args),
            Scalar::F16(_) => float_scalar::<Half>(b, args),
            _ if matches!(b, Builtin::Clamp | Builtin::Max | Builtin::Min) => {
                integer_scalar(b, args)
            }
            _ => Err(type_err(b, first)),
        },
    }
}

/// `nan(code)`: uint → float, ulong → double, ushort → half.
fn nan(code: Scalar) -> Result<Scalar, BuiltinError> {
    Ok(match code {
        Scalar::U32(c) => Scalar::F32(math::nan(c.into())),
        Scalar::U64(c) => Scalar::F64(math::nan(c)),
        Scalar::U16(c) => Scalar::F16(math::nan(c.into())),
        other => return Err(type_err(Builtin::Nan, other)),
    })
}

/// Argument `i` as `T`.
fn arg<T: Fp>(b: Builtin, args: &[Scalar], i: usize) -> Result<T, BuiltinError> {
    let s = args.get(i).copied().unwrap_or_default();
    T::from_scalar(s).ok_or_else(|| type_err(b, s))
}

/// Argument `i` as an int (`ldexp`, `pown`, `rootn` exponents).
fn int_arg(b: Builtin, args: &[Scalar], i: usize) -> Result<i32, BuiltinError> {
    match args.get(i).copied().unwrap_or_default() {
        Scalar::I32(v) => Ok(v),
        other => Err(type_err(b, other)),
    }
}

/// Math and common builtins on one lane of `T`.
fn float_scalar<T: Fp>(b: Builtin, args: &[Scalar]) -> Result<ScalarOutput, BuiltinError> {
    use Builtin as B;
    let x: T = arg(b, args, 0)?;
    let y = || arg::<T>(b, args, 1);
    let z = || arg::<T>(b, args, 2);
    let one = |v: T| Ok((v.to_scalar(), None));
    match b {
        B::Acos => one(math::acos(x)),
        B::Acosh => one(math::acosh(x)),
        B::Acospi => one(math::acospi(x)),
        B::Asin => one(math::asin(x)),
        B::Asinh => one(math::asinh(x)),
        B::Asinpi => one(math::asinpi(x)),
        B::Atan => one(math::atan(x)),
        B::Atan2 => one(math::atan2(x, y()?)),
        B::Atanh => one(math::atanh(x)),
        B::Atanpi => one(math::atanpi(x)),
        B::Atan2pi => one(math::atan2pi(x, y()?)),
        B::Cbrt => one(math::cbrt(x)),
        B::Ceil => one(math::ceil(x)),
        B::Copysign => one(math::copysign(x, y()?)),
        B::Cos | B::HalfCos | B::NativeCos => one(math::cos(x)),
        B::Cosh => one(math::cosh(x)),
        B::Cospi => one(math::cospi(x)),
        B::Erfc => one(math::erfc(x)),
        B::Erf => one(math::erf(x)),
        B::Exp | B::HalfExp | B::NativeExp => one(math::exp(x)),
        B::Exp2 | B::HalfExp2 | B::NativeExp2 => one(math::exp2(x)),
        B::Exp10 | B::HalfExp10 | B::NativeExp10 => one(math::exp10(x)),
        B::Expm1 => one(math::expm1(x)),
        B::Fabs => one(math::fabs(x)),
        B::Fdim => one(math::fdim(x, y()?)),
        B::Floor => one(math::floor(x)),
        B::Fma => one(math::fma(x, y()?, z()?)),
        B::Fmax => one(math::fmax(x, y()?)),
        B::Fmin => one(math::fmin(x, y()?)),
        B::Fmod => one(math::fmod(x, y()?)),
        B::Fract => {
            let (f, i) = math::fract(x);
            Ok((f.to_scalar(), Some(i.to_scalar())))
        }
        B::Frexp => {
            let (m, e) = math::frexp(x);
            Ok((m.to_scalar(), Some(Scalar::I32(e))))
        }
        B::Hypot => one(math::hypot(x, y()?)),
        B::Ilogb => Ok((Scalar::I32(math::ilogb(x)), None)),
        B::Ldexp => one(math::ldexp(x, int_arg(b, args, 1)?)),
        B::Lgamma => one(math::lgamma(x)),
        B::LgammaR => {
            let (v, s) = math::lgamma_r(x);
            Ok((v.to_scalar(), Some(Scalar::I32(s))))
        }
        B::Log | B::HalfLog | B::NativeLog => one(math::log(x)),
        B::Log2 | B::HalfLog2 | B::NativeLog2 => one(math::log2(x)),
        B::Log10 | B::HalfLog10 | B::NativeLog10 => one(math::log10(x)),
        B::Log1p => one(math::log1p(x)),
        B::Logb => one(math::logb(x)),
        B::Mad => one(math::mad(x, y()?, z()?)),
        B::Maxmag => one(math::maxmag(x, y()?)),
        B::Minmag => one(math::minmag(x, y()?)),
        B::Modf => {
            let (f, i) = math::modf(x);
            Ok((f.to_scalar(), Some(i.to_scalar())))
        }
        B::Nextafter => one(math::nextafter(x, y()?)),
        B::Pow => one(math::pow(x, y()?)),
        B::Pown => one(math::pown(x, int_arg(b, args, 1)?)),
        B::Powr | B::HalfPowr | B::NativePowr => one(math::powr(x, y()?)),
        B::Remainder => one(math::remainder(x, y()?)),
        B::Remquo => {
            let (r, q) = math::remquo(x, y()?);
            Ok((r.to_scalar(), Some(Scalar::I32(q))))
        }
        B::Rint => one(math::rint(x)),
        B::Rootn => one(math::rootn(x, int_arg(b, args, 1)?)),
        B::Round => one(math::round(x)),
        B::Rsqrt | B::HalfRsqrt | B::NativeRsqrt => one(math::rsqrt(x)),
        B::Sin | B::HalfSin | B::NativeSin => one(math::sin(x)),
        B::Sincos => {
            let (s, c) = math::sincos(x);
            Ok((s.to_scalar(), Some(c.to_scalar())))
        }
        B::Sinh => one(math::sinh(x)),
        B::Sinpi => one(math::sinpi(x)),
        B::Sqrt | B::HalfSqrt | B::NativeSqrt => one(math::sqrt(x)),
        B::Tan | B::HalfTan | B::NativeTan => one(math::tan(x)),
        B::Tanh => one(math::tanh(x)),
        B::Tanpi => one(math::tanpi(x)),
        B::Tgamma => one(math::tgamma(x)),
        B::Trunc => one(math::trunc(x)),
        B::HalfDivide | B::NativeDivide => one(math::divide(x, y()?)),
        B::HalfRecip | B::NativeRecip => one(math::recip(x)),
        B::Clamp => one(common::clamp(x, y()?, z()?)),
        B::Degrees => one(common::degrees(x)),
        B::Max => one(common::max(x, y()?)),
        B::Min => one(common::min(x, y()?)),
        B::Mix => one(common::mix(x, y()?, z()?)),
        B::Radians => one(common::radians(x)),
        B::Step => one(common::step(x, y()?)),
        B::Smoothstep => one(common::smoothstep(x, y()?, z()?)),
        B::Sign => one(common::sign(x)),
        _ => Err(type_err(b, x.to_scalar())),
    }
}

/// Integer builtins (and integer clamp/max/min) on one lane.
fn integer_scalar(b: Builtin, args: &[Scalar]) -> Result<ScalarOutput, BuiltinError> {
    use Builtin as B;
    if matches!(
        b,
        B::Dot4x8PackedUuUint
            | B::Dot4x8PackedSsInt
            | B::Dot4x8PackedUsInt
            | B::Dot4x8PackedSuInt
            | B::DotAccSat4x8PackedUuUint
            | B::DotAccSat4x8PackedSsInt
            | B::DotAccSat4x8PackedUsInt
            | B::DotAccSat4x8PackedSuInt
    ) {
        return packed_dot(b, args);
    }
    let first = args.first().copied().unwrap_or_default();
    let ty = first.ty();
    let mut v = [0i128; 3];
    for (i, (slot, s)) in v.iter_mut().zip(args).enumerate() {
        // Every argument must be an integer of the first one's type, except upsample's
        // low half, which is the unsigned type of that size.
        let want = if b == B::Upsample && i == 1 {
            ty.unsigned_of_size()
        } else {
            ty
        };
        match s.as_i128() {
            Some(i) if s.ty() == want => *slot = i,
            _ => return Err(type_err(b, *s)),
        }
    }
    let [x, y, z] = v;
    let r = match b {
        B::Abs => integer::abs(ty, x),
        B::AbsDiff => integer::abs_diff(ty, x, y),
        B::AddSat => integer::add_sat(ty, x, y),
        B::Hadd => integer::hadd(ty, x, y),
        B::Rhadd => integer::rhadd(ty, x, y),
        B::Clz => integer::clz(ty, x),
        B::Ctz => integer::ctz(ty, x),
        B::MadHi => integer::mad_hi(ty, x, y, z),
        B::MadSat => integer::mad_sat(ty, x, y, z),
        B::MulHi => integer::mul_hi(ty, x, y),
        B::Rotate => integer::rotate(ty, x, y),
        B::SubSat => integer::sub_sat(ty, x, y),
        B::Upsample => match integer::upsample(ty, x, y) {
            Some(r) => r,
            None => return Err(type_err(b, first)),
        },
        B::Popcount => integer::popcount(ty, x),
        B::Mad24 | B::Mul24 if !matches!(ty, ScalarType::Int | ScalarType::UInt) => {
            return Err(type_err(b, first));
        }
        B::Mad24 => integer::mad24(ty, x, y, z),
        B::Mul24 => integer::mul24(ty, x, y),
        B::Clamp => integer::clamp(ty, x, y, z),
        B::Max => integer::max(ty, x, y),
        B::Min => integer::min(ty, x, y),
        _ => return Err(type_err(b, first)),
    };
    Ok((r, None))
}

/// `dot[_acc_sat]_4x8packed_{uu,ss,us,su}_{uint,int}`: two uints holding 4 bytes each.
fn packed_dot(b: Builtin, args: &[Scalar]) -> Result<ScalarOutput, BuiltinError> {
    use Builtin as B;
    let (sa, sb) = match b {
        B::Dot4x8PackedUuUint | B::DotAccSat4x8PackedUuUint => (false, false),
        B::Dot4x8PackedSsInt | B::DotAccSat4x8PackedSsInt => (true, true),
        B::Dot4x8PackedUsInt | B::DotAccSat4x8PackedUsInt => (false, true),
        _ => (true, false),
    };
    let word = |i: usize| match args.get(i).copied().unwrap_or_default() {
        Scalar::U32(v) => Ok(v),
        other => Err(type_err(b, other)),
    };
    let a = integer::unpack_4x8(word(0)?, sa);
    let c = integer::unpack_4x8(word(1)?, sb);
    let acc = args.get(2).copied();
    // The packed forms with a signed result take the accumulator as int.
    let acc = match (acc, sa || sb) {
        (Some(Scalar::U32(v)), true) => return Err(type_err(b, Scalar::U32(v))),
        (acc, _) => acc,
    };
    integer::dot(&a, &c, acc)
        .map(|r| (r, None))
        .ok_or_else(|| type_err(b, args.get(2).copied().unwrap_or_default()))
}

/// `shuffle(x, mask)` and `shuffle2(x, y, mask)`: lane i of the result is lane
/// `mask[i] mod n` of x (or of x followed by y), n the number of lanes to choose from.
fn shuffle(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let (src, mask): (Vec<Scalar>, &Lanes) = match args {
        [x, m] => (x.to_vec(), m),
        [x, y, m] if x.len() == y.len() && x.ty() == y.ty() => {
            (x.iter().chain(y.iter()).copied().collect(), m)
        }
        [_, y, _] => return Err(type_err(b, y.lane(0))),
        _ => {
            return Err(BuiltinError::Arity {
                builtin: b.name(),
                expected: b.arity(),
                got: args.len(),
            });
        }
    };
    let n = src.len() as u128;
    let mut vals = [Scalar::default(); 16];
    for (slot, m) in vals.iter_mut().zip(mask.iter()) {
        let k = match m.as_i128() {
            Some(k) if m.ty().is_unsigned_int() => k as u128 % n,
            _ => return Err(type_err(b, *m)),
        };
        *slot = src.get(k as usize).copied().unwrap_or_default();
    }
    Ok(Output {
        value: Lanes::from_fn(mask.len(), |i| vals[i]),
        out: None,
    })
}

/// Floating-point lane value for a predicate, with the sign bit and (for `isnormal`) the
/// smallest normal of its type.
fn float_lane(b: Builtin, s: Scalar) -> Result<(f64, bool, f64), BuiltinError> {
    let min_normal = match s.ty() {
        ScalarType::Half => f64::powi(2.0, -14),
        ScalarType::Float => f64::from(f32::MIN_POSITIVE),
        ScalarType::Double => f64::MIN_POSITIVE,
        _ => return Err(type_err(b, s)),
    };
    let f = s.as_f64().unwrap_or(0.0);
    Ok((f, s.msb(), min_normal))
}

/// Evaluates a predicate on one lane.
fn predicate_lane(b: Builtin, args: &[Scalar]) -> Result<bool, BuiltinError> {
    let first = args.first().copied().unwrap_or_default();
    let (x, sign, min_normal) = float_lane(b, first)?;
    let y = match args.get(1) {
        Some(&s) if s.ty() == first.ty() => s.as_f64().unwrap_or(0.0),
        Some(&s) => return Err(type_err(b, s)),
        None => min_normal,
    };
    relational::predicate(b, x, y, sign).ok_or_else(|| type_err(b, first))
}

fn relational_scalar(b: Builtin, args: &[Scalar]) -> Result<ScalarOutput, BuiltinError> {
    let first = args.first().copied().unwrap_or_default();
    let v = match b {
        Builtin::Any | Builtin::All => {
            if first.ty().is_float() {
                return Err(type_err(b, first));
            }
            i32::from(first.msb())
        }
        Builtin::Bitselect => {
            let (a, bb, c) = three(b, args)?;
            return Ok((relational::bitselect(a, bb, c), None));
        }
        Builtin::Select => {
            let (a, bb, c) = three(b, args)?;
            return Ok((relational::select(a, bb, c, false), None));
        }
        _ => i32::from(predicate_lane(b, args)?),
    };
    Ok((Scalar::I32(v), None))
}

/// The three arguments of `bitselect`/`select`, with a and b of one type and c an integer of the
/// same size (`bitselect` takes c of a's own type; `select` any integer of the same size).
fn three(b: Builtin, args: &[Scalar]) -> Result<(Scalar, Scalar, Scalar), BuiltinError> {
    match *args {
        [a, bb, c] if a.ty() == bb.ty() => {
            let ok = if b == Builtin::Bitselect {
                c.ty() == a.ty()
            } else {
                !c.ty().is_float() && (c.ty().size() == a.ty().size())
            };
            if ok {
                Ok((a, bb, c))
            } else {
                Err(type_err(b, c))
            }
        }
        [_, bb, _] => Err(type_err(b, bb)),
        _ => Err(BuiltinError::Arity {
            builtin: b.name(),
            expected: 3,
            got: args.len(),
        }),
    }
}

fn relational_call(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let scalar = args.iter().all(Lanes::is_scalar);
    let lane_args = |i: usize| {
        let mut l = [Scalar::default(); 3];
        for (d, a) in l.iter_mut().zip(args) {
            *d = a.lane(i);
        }
        l
    };
    let k = args.len().min(3);
    if scalar {
        let (v, _) = relational_scalar(b, &lane_args(0)[..k])?;
        return Ok(Output {
            value: Lanes::scalar(v),
            out: None,
        });
    }
    let n = width(b, args)?;
    let first = args.first().map(|a| a.lane(0)).unwrap_or_default();
    match b {
        Builtin::Any | Builtin::All => {
            let v = args.first().map(|a| a.as_slice()).unwrap_or(&[]);
            if first.ty().is_float() {
                return Err(type_err(b, first));
            }
            let r = if b == Builtin::Any {
                relational::any(v)
            } else {
                relational::all(v)
            };
            Ok(Output {
                value: Lanes::scalar(Scalar::I32(r.into())),
                out: None,
            })
        }
        Builtin::Bitselect | Builtin::Select => {
            let mut vals = [Scalar::default(); 16];
            for (i, slot) in vals.iter_mut().enumerate().take(n) {
                let (a, bb, c) = three(b, &lane_args(i)[..k])?;
                *slot = if b == Builtin::Bitselect {
                    relational::bitselect(a, bb, c)
                } else {
                    relational::select(a, bb, c, true)
                };
            }
            Ok(Output {
                value: Lanes::from_fn(n, |i| vals[i]),
                out: None,
            })
        }
        _ => {
            let rty = first.ty().signed_of_size();
            let mut vals = [Scalar::default(); 16];
            for (i, slot) in vals.iter_mut().enumerate().take(n) {
                let t = predicate_lane(b, &lane_args(i)[..k])?;
                *slot = Scalar::from_i128(rty, if t { -1 } else { 0 });
            }
            Ok(Output {
                value: Lanes::from_fn(n, |i| vals[i]),
                out: None,
            })
        }
    }
}

/// Geometric builtins: vectors of 1–4 lanes (cross: 3 or 4) of one floating-point type.
fn geometric_call(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let first = args.first().map(|a| a.lane(0)).unwrap_or_default();
    match first.ty() {
        ScalarType::Float => geometric_t::<f32>(b, args),
        ScalarType::Double => geometric_t::<f64>(b, args),
        ScalarType::Half => geometric_t::<Half>(b, args),
        _ if matches!(b, Builtin::Dot | Builtin::DotAccSat) => {
            let (x, y) = match args {
                [x, y] | [x, y, _] => (x, y),
                _ => return Err(type_err(b, first)),
            };
            let acc = args.get(2).map(|a| a.lane(0));
            let r = integer::dot(x, y, acc).ok_or_else(|| type_err(b, y.lane(0)))?;
            Ok(Output {
                value: Lanes::scalar(r),
                out: None,
            })
        }
        _ => Err(type_err(b, first)),
    }
}

fn geometric_t<T: Fp>(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let zero = T::from_f64(0.0);
    let mut vs = [[zero; 4]; 2];
    let n = args.first().map_or(0, Lanes::len);
    for (a, v) in args.iter().zip(vs.iter_mut()) {
        if a.len() > 4 {
            return Err(type_err(b, a.lane(0)));
        }
        if a.len() != n {
            return Err(BuiltinError::Width { builtin: b.name() });
        }
        for (d, &s) in v.iter_mut().zip(a.iter()) {
            *d = T::from_scalar(s).ok_or_else(|| type_err(b, s))?;
        }
    }
    let p0 = &vs[0][..n];
    let p1 = &vs[1][..n];
    let scalar = |v: T| Output {
        value: Lanes::scalar(v.to_scalar()),
        out: None,
    };
    let vector = |v: &[T]| Output {
        value: Lanes::from_fn(v.len(), |i| v.get(i).copied().unwrap_or(zero).to_scalar()),
        out: None,
    };
    Ok(match b {
        Builtin::Dot => scalar(geometric::dot(p0, p1)),
        Builtin::Length | Builtin::FastLength => scalar(geometric::length(p0)),
        Builtin::Distance | Builtin::FastDistance => scalar(geometric::distance(p0, p1)),
        Builtin::Normalize | Builtin::FastNormalize => {
            let mut out = [zero; 4];
            geometric::normalize(p0, &mut out[..n]);
            vector(&out[..n])
        }
        Builtin::Cross if matches!(n, 3 | 4) => {
            let [x, y, z] = geometric::cross(p0, p1);
            vector(&[x, y, z, zero][..n])
        }
        _ => return Err(type_err(b, zero.to_scalar())),
    })
}
