//! The `Builtin` enum: every numeric builtin this runtime implements, named as OpenCL C spells it.
//!
//! IR lowering maps a call's name to a `Builtin` once (`Builtin::from_name`); the interpreter then
//! dispatches on the enum (see `dispatch`), never on strings.

use super::round::Rounding;
use super::scalar::ScalarType;

/// The family a builtin belongs to, which decides how vector arguments are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// 6.15.2 math, applied lane by lane.
    Math,
    /// 6.15.3 integer, applied lane by lane.
    Integer,
    /// 6.15.4 common, applied lane by lane.
    Common,
    /// 6.15.5 geometric: whole vectors in, a scalar or vector out. Also the integer `dot` and
    /// `dot_acc_sat` of cl_khr_integer_dot_product (integer vectors in, a scalar out).
    Geometric,
    /// 6.15.6 relational: lane by lane, but scalar results are 0/1 and vector lanes are -1/0;
    /// `any`/`all` reduce a vector to one int.
    Relational,
    /// 6.4.3 `convert_T[_sat][_rounding]`, lane by lane.
    Conversion,
    /// 6.15.12 `shuffle`/`shuffle2`: whole vectors in, a vector as long as the mask out.
    Vector,
    /// `cl_amd_media_ops`/`cl_amd_media_ops2`: component-wise, except `amd_pack` and
    /// `amd_sad4` (whole vectors in, a scalar out).
    Media,
}

macro_rules! builtins {
    ($( $family:ident { $( $variant:ident = $name:literal / $arity:literal ),* $(,)? } )*) => {
        /// A numeric builtin function. `Convert` carries its destination type and modifiers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin {
            $( $( #[doc = concat!("`", $name, "`")] $variant, )* )*
            /// `convert_<to>[_sat][_<rounding>]`; `rounding: None` is the spec's default
            /// (toward zero to integers, to nearest even to floating point).
            Convert { to: ScalarType, sat: bool, rounding: Option<Rounding> },
        }

        impl Builtin {
            /// Every builtin except `Convert`, for tables and tests.
            pub const ALL: &'static [Builtin] = &[ $( $( Builtin::$variant, )* )* ];

            /// Looks up an OpenCL C builtin by its source name (`"fmax"`, `"convert_int_sat_rtn"`).
            pub fn from_name(name: &str) -> Option<Builtin> {
                if let Some(rest) = name.strip_prefix("convert_") {
                    return parse_convert(rest);
                }
                Some(match name {
                    $( $( $name => Builtin::$variant, )* )*
                    _ => return None,
                })
            }

            /// The OpenCL C name (for `Convert`, just `"convert"`).
            pub fn name(self) -> &'static str {
                match self {
                    $( $( Builtin::$variant => $name, )* )*
                    Builtin::Convert { .. } => "convert",
                }
            }

            /// Number of arguments, pointer outputs excluded (`frexp(x, &e)` has arity 1).
            pub fn arity(self) -> usize {
                match self {
                    $( $( Builtin::$variant => $arity, )* )*
                    Builtin::Convert { .. } => 1,
                }
            }

            /// The family, which decides how vectors are handled.
            pub fn family(self) -> Family {
                match self {
                    $( $( Builtin::$variant => Family::$family, )* )*
                    Builtin::Convert { .. } => Family::Conversion,
                }
            }
        }
    };
}

builtins! {
    Math {
        Acos = "acos" / 1, Acosh = "acosh" / 1, Acospi = "acospi" / 1,
        Asin = "asin" / 1, Asinh = "asinh" / 1, Asinpi = "asinpi" / 1,
        Atan = "atan" / 1, Atan2 = "atan2" / 2, Atanh = "atanh" / 1, Atanpi = "atanpi" / 1,
        Atan2pi = "atan2pi" / 2, Cbrt = "cbrt" / 1, Ceil = "ceil" / 1, Copysign = "copysign" / 2,
        Cos = "cos" / 1, Cosh = "cosh" / 1, Cospi = "cospi" / 1, Erfc = "erfc" / 1, Erf = "erf" / 1,
        Exp = "exp" / 1, Exp2 = "exp2" / 1, Exp10 = "exp10" / 1, Expm1 = "expm1" / 1,
        Fabs = "fabs" / 1, Fdim = "fdim" / 2, Floor = "floor" / 1, Fma = "fma" / 3,
        Fmax = "fmax" / 2, Fmin = "fmin" / 2, Fmod = "fmod" / 2, Fract = "fract" / 1,
        Frexp = "frexp" / 1, Hypot = "hypot" / 2, Ilogb = "ilogb" / 1, Ldexp = "ldexp" / 2,
        Lgamma = "lgamma" / 1, LgammaR = "lgamma_r" / 1, Log = "log" / 1, Log2 = "log2" / 1,
        Log10 = "log10" / 1, Log1p = "log1p" / 1, Logb = "logb" / 1, Mad = "mad" / 3,
        Maxmag = "maxmag" / 2, Minmag = "minmag" / 2, Modf = "modf" / 1, Nan = "nan" / 1,
        Nextafter = "nextafter" / 2, Pow = "pow" / 2, Pown = "pown" / 2, Powr = "powr" / 2,
        Remainder = "remainder" / 2, Remquo = "remquo" / 2, Rint = "rint" / 1,
        Rootn = "rootn" / 2, Round = "round" / 1, Rsqrt = "rsqrt" / 1, Sin = "sin" / 1,
        Sincos = "sincos" / 1, Sinh = "sinh" / 1, Sinpi = "sinpi" / 1, Sqrt = "sqrt" / 1,
        Tan = "tan" / 1, Tanh = "tanh" / 1, Tanpi = "tanpi" / 1, Tgamma = "tgamma" / 1,
        Trunc = "trunc" / 1,
        HalfCos = "half_cos" / 1, HalfDivide = "half_divide" / 2, HalfExp = "half_exp" / 1,
        HalfExp2 = "half_exp2" / 1, HalfExp10 = "half_exp10" / 1, HalfLog = "half_log" / 1,
        HalfLog2 = "half_log2" / 1, HalfLog10 = "half_log10" / 1, HalfPowr = "half_powr" / 2,
        HalfRecip = "half_recip" / 1, HalfRsqrt = "half_rsqrt" / 1, HalfSin = "half_sin" / 1,
        HalfSqrt = "half_sqrt" / 1, HalfTan = "half_tan" / 1,
        NativeCos = "native_cos" / 1, NativeDivide = "native_divide" / 2,
        NativeExp = "native_exp" / 1, NativeExp2 = "native_exp2" / 1,
        NativeExp10 = "native_exp10" / 1, NativeLog = "native_log" / 1,
        NativeLog2 = "native_log2" / 1, NativeLog10 = "native_log10" / 1,
        NativePowr = "native_powr" / 2, NativeRecip = "native_recip" / 1,
        NativeRsqrt = "native_rsqrt" / 1, NativeSin = "native_sin" / 1,
        NativeSqrt = "native_sqrt" / 1, NativeTan = "native_tan" / 1,
    }
    Integer {
        Abs = "abs" / 1, AbsDiff = "abs_diff" / 2, AddSat = "add_sat" / 2, Hadd = "hadd" / 2,
        Rhadd = "rhadd" / 2, Clz = "clz" / 1, Ctz = "ctz" / 1, MadHi = "mad_hi" / 3,
        MadSat = "mad_sat" / 3, MulHi = "mul_hi" / 2, Rotate = "rotate" / 2,
        SubSat = "sub_sat" / 2, Upsample = "upsample" / 2, Popcount = "popcount" / 1,
        Mad24 = "mad24" / 3, Mul24 = "mul24" / 2,
        Dot4x8PackedUuUint = "dot_4x8packed_uu_uint" / 2,
        Dot4x8PackedSsInt = "dot_4x8packed_ss_int" / 2,
        Dot4x8PackedUsInt = "dot_4x8packed_us_int" / 2,
        Dot4x8PackedSuInt = "dot_4x8packed_su_int" / 2,
        DotAccSat4x8PackedUuUint = "dot_acc_sat_4x8packed_uu_uint" / 3,
        DotAccSat4x8PackedSsInt = "dot_acc_sat_4x8packed_ss_int" / 3,
        DotAccSat4x8PackedUsInt = "dot_acc_sat_4x8packed_us_int" / 3,
        DotAccSat4x8PackedSuInt = "dot_acc_sat_4x8packed_su_int" / 3,
    }
    Common {
        Clamp = "clamp" / 3, Degrees = "degrees" / 1, Max = "max" / 2, Min = "min" / 2,
        Mix = "mix" / 3, Radians = "radians" / 1, Step = "step" / 2,
        Smoothstep = "smoothstep" / 3, Sign = "sign" / 1,
    }
    Geometric {
        Cross = "cross" / 2, Dot = "dot" / 2, Distance = "distance" / 2, Length = "length" / 1,
        Normalize = "normalize" / 1, FastDistance = "fast_distance" / 2,
        FastLength = "fast_length" / 1, FastNormalize = "fast_normalize" / 1,
        DotAccSat = "dot_acc_sat" / 3,
    }
    Relational {
        IsEqual = "isequal" / 2, IsNotEqual = "isnotequal" / 2, IsGreater = "isgreater" / 2,
        IsGreaterEqual = "isgreaterequal" / 2, IsLess = "isless" / 2,
        IsLessEqual = "islessequal" / 2, IsLessGreater = "islessgreater" / 2,
        IsFinite = "isfinite" / 1, IsInf = "isinf" / 1, IsNan = "isnan" / 1,
        IsNormal = "isnormal" / 1, IsOrdered = "isordered" / 2, IsUnordered = "isunordered" / 2,
        Signbit = "signbit" / 1, Any = "any" / 1, All = "all" / 1, Bitselect = "bitselect" / 3,
        Select = "select" / 3,
    }
    Vector {
        Shuffle = "shuffle" / 2, Shuffle2 = "shuffle2" / 3,
    }
    Media {
        AmdBitalign = "amd_bitalign" / 3, AmdBytealign = "amd_bytealign" / 3,
        AmdLerp = "amd_lerp" / 3, AmdPack = "amd_pack" / 1, AmdSad4 = "amd_sad4" / 3,
        AmdSadhi = "amd_sadhi" / 3, AmdSad = "amd_sad" / 3, AmdUnpack0 = "amd_unpack0" / 1,
        AmdUnpack1 = "amd_unpack1" / 1, AmdUnpack2 = "amd_unpack2" / 1,
        AmdUnpack3 = "amd_unpack3" / 1, AmdBfe = "amd_bfe" / 3, AmdBfm = "amd_bfm" / 2,
        AmdMax3 = "amd_max3" / 3, AmdMedian3 = "amd_median3" / 3, AmdMin3 = "amd_min3" / 3,
        AmdMqsad = "amd_mqsad" / 3, AmdQsad = "amd_qsad" / 3, AmdMsad = "amd_msad" / 3,
        AmdSadd = "amd_sadd" / 3, AmdSadw = "amd_sadw" / 3,
    }
}

impl Builtin {
    /// Whether the builtin also produces a value through a pointer argument (`frexp`, `fract`,
    /// `modf`, `lgamma_r`, `remquo`, `sincos`). That value comes back as the call's `out`.
    pub fn has_out(self) -> bool {
        matches!(
            self,
            Builtin::Fract
                | Builtin::Frexp
                | Builtin::LgammaR
                | Builtin::Modf
                | Builtin::Remquo
                | Builtin::Sincos
        )
    }
}

/// Parses the part of a conversion name after `convert_`: `<type>[_sat][_<rounding>]`.
fn parse_convert(rest: &str) -> Option<Builtin> {
    let mut parts = rest.split('_');
    let ty = parts.next()?;
    let base = ty.trim_end_matches(|c: char| c.is_ascii_digit());
    if !matches!(&ty[base.len()..], "" | "2" | "3" | "4" | "8" | "16") {
        return None;
    }
    let to = ScalarType::from_name(base)?;
    let mut sat = false;
    let mut rounding = None;
    let mut next = parts.next();
    if next == Some("sat") {
        sat = true;
        next = parts.next();
    }
    if let Some(r) = next {
        rounding = Some(Rounding::from_suffix(r)?);
    }
    if parts.next().is_some() || (sat && to.is_float()) {
        return None;
    }
    Some(Builtin::Convert { to, sat, rounding })
}
