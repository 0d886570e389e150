//! Calls of clang's GNU `__builtin_*` functions (its `Builtins.td`, declared in every OpenCL C
//! mode, with or without the default header): `__builtin_expect`, `__builtin_inff`,
//! `__builtin_popcount`, `__builtin_isnan`, `__builtin_trap`, ... They have C prototypes in
//! plain C types (`unsigned int`, not `uint`), so most are checked as ordinary C calls; the
//! ones clang type-checks by hand (`__builtin_constant_p`, the classification builtins,
//! `__builtin_assume_aligned`, the probability of `__builtin_expect_with_probability`) are
//! checked here with clang's wording. `INFINITY`, `HUGE_VALF` and `__builtin_nanf("")` fold to
//! constants; the rest become [`ExprKind::BuiltinCall`]s that lowering gives to the devices.

use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use crate::builtins::{BuiltinId, OverloadId};
use crate::hir::{BinOp, BuiltinRef, Expr, ExprKind};
use crate::types::{LangAs, QualType, Quals, Scalar, TypeTable};

/// A C type of a GNU builtin's prototype.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum G {
    Void,
    Bool,
    Int,
    UInt,
    Long,
    ULong,
    ULongLong,
    UShort,
    UChar,
    Half,
    Float,
    Double,
    /// `const char *`; clang gives the parameter the address space of a pointer argument.
    ConstCharPtr,
    /// `volatile void *`, likewise in the argument's space.
    VolatileVoidPtr,
    /// `const volatile void *`, likewise.
    ConstVolatileVoidPtr,
    /// `volatile int *`, likewise.
    VolatileIntPtr,
    /// `volatile unsigned int *`, likewise.
    VolatileUIntPtr,
    /// `int *` (`__builtin_frexp`'s exponent), likewise.
    IntPtr,
    /// `float *` (`__builtin_modff`'s integral part), likewise.
    FloatPtr,
    /// `double *`, likewise.
    DoublePtr,
}

/// How a GNU builtin is checked.
enum Kind {
    /// An ordinary C prototype.
    Proto(G, &'static [G]),
    /// `int __builtin_constant_p(...)`: one argument, never evaluated.
    ConstantP,
    /// `int __builtin_isnan(...)` and friends: one floating-point argument.
    Classify,
    /// `void *__builtin_assume_aligned(const void *, size_t, ...)`.
    AssumeAligned,
    /// `void __builtin_prefetch(const void *, ...)`: up to two constant hints.
    Prefetch,
    /// `int __builtin_printf(const char *, ...)`: run as `printf`.
    Printf,
}

/// The prototype or checking kind of a GNU builtin (`None`: not one).
fn kind(name: &str) -> Option<Kind> {
    use G::*;
    let (ret, params): (G, &'static [G]) = match name {
        "__builtin_constant_p" => return Some(Kind::ConstantP),
        "__builtin_isnan" | "__builtin_isinf" | "__builtin_isfinite" | "__builtin_isnormal"
        | "__builtin_signbit" => {
            return Some(Kind::Classify);
        }
        "__builtin_assume_aligned" => return Some(Kind::AssumeAligned),
        "__builtin_prefetch" => return Some(Kind::Prefetch),
        "__builtin_printf" => return Some(Kind::Printf),
        "__builtin_frexpf" => (Float, &[Float, IntPtr]),
        "__builtin_frexp" => (Double, &[Double, IntPtr]),
        "__builtin_frexpf16" => (Half, &[Half, IntPtr]),
        "__builtin_modff" => (Float, &[Float, FloatPtr]),
        "__builtin_modf" => (Double, &[Double, DoublePtr]),
        "__builtin_readcyclecounter" => (ULongLong, &[]),
        "__builtin_expect" => (Long, &[Long, Long]),
        "__builtin_expect_with_probability" => (Long, &[Long, Long, Double]),
        "__builtin_inff" | "__builtin_huge_valf" => (Float, &[]),
        "__builtin_inf" | "__builtin_huge_val" => (Double, &[]),
        "__builtin_nanf" => (Float, &[ConstCharPtr]),
        "__builtin_nan" => (Double, &[ConstCharPtr]),
        "__builtin_popcount" | "__builtin_clz" | "__builtin_ctz" => (Int, &[UInt]),
        "__builtin_popcountl" | "__builtin_clzl" | "__builtin_ctzl" => (Int, &[ULong]),
        "__builtin_popcountll" | "__builtin_clzll" | "__builtin_ctzll" => (Int, &[ULongLong]),
        "__builtin_bswap16" => (UShort, &[UShort]),
        "__builtin_bswap32" => (UInt, &[UInt]),
        "__builtin_bswap64" => (ULong, &[ULong]),
        "__builtin_rotateleft8" | "__builtin_rotateright8" => (UChar, &[UChar, UChar]),
        "__builtin_rotateleft16" | "__builtin_rotateright16" => (UShort, &[UShort, UShort]),
        "__builtin_rotateleft32" | "__builtin_rotateright32" => (UInt, &[UInt, UInt]),
        "__builtin_rotateleft64" | "__builtin_rotateright64" => (ULong, &[ULong, ULong]),
        "__builtin_fabsf" | "__builtin_sqrtf" => (Float, &[Float]),
        "__builtin_fabs" | "__builtin_sqrt" => (Double, &[Double]),
        "__builtin_abs" | "__builtin_ffs" | "__builtin_clrsb" => (Int, &[Int]),
        "__builtin_parity" => (Int, &[UInt]),
        "__builtin_labs" => (Long, &[Long]),
        "__builtin_floorf"
        | "__builtin_ceilf"
        | "__builtin_truncf"
        | "__builtin_roundf"
        | "__builtin_rintf"
        | "__builtin_nearbyintf"
        | "__builtin_expf"
        | "__builtin_logf"
        | "__builtin_sinf"
        | "__builtin_cosf"
        | "__builtin_tanf"
        | "__builtin_asinf"
        | "__builtin_acosf"
        | "__builtin_atanf"
        | "__builtin_sinhf"
        | "__builtin_coshf"
        | "__builtin_tanhf"
        | "__builtin_exp2f"
        | "__builtin_log2f"
        | "__builtin_exp10f"
        | "__builtin_log10f" => (Float, &[Float]),
        "__builtin_floor"
        | "__builtin_ceil"
        | "__builtin_trunc"
        | "__builtin_round"
        | "__builtin_rint"
        | "__builtin_nearbyint"
        | "__builtin_exp"
        | "__builtin_log"
        | "__builtin_sin"
        | "__builtin_cos"
        | "__builtin_tan"
        | "__builtin_asin"
        | "__builtin_acos"
        | "__builtin_atan"
        | "__builtin_sinh"
        | "__builtin_cosh"
        | "__builtin_tanh"
        | "__builtin_exp2"
        | "__builtin_log2"
        | "__builtin_exp10"
        | "__builtin_log10" => (Double, &[Double]),
        "__builtin_fminf"
        | "__builtin_fmaxf"
        | "__builtin_copysignf"
        | "__builtin_powf"
        | "__builtin_fmodf" => (Float, &[Float, Float]),
        "__builtin_fmin" | "__builtin_fmax" | "__builtin_copysign" | "__builtin_pow"
        | "__builtin_fmod" => (Double, &[Double, Double]),
        "__builtin_fmaf" => (Float, &[Float, Float, Float]),
        "__builtin_clzs" | "__builtin_ctzs" => (Int, &[UShort]),
        "__builtin_ilogbf" => (Int, &[Float]),
        "__builtin_ilogb" => (Int, &[Double]),
        "__builtin_ldexpf" | "__builtin_powif" => (Float, &[Float, Int]),
        "__builtin_ldexp" | "__builtin_powi" => (Double, &[Double, Int]),
        "__builtin_fma" => (Double, &[Double, Double, Double]),
        // The `_Float16` math builtins: `half` on SPIR, usable without cl_khr_fp16.
        "__builtin_sqrtf16" | "__builtin_fabsf16" | "__builtin_ceilf16" | "__builtin_floorf16"
        | "__builtin_truncf16" | "__builtin_rintf16" | "__builtin_roundf16"
        | "__builtin_sinf16" | "__builtin_cosf16" | "__builtin_tanf16" | "__builtin_asinf16"
        | "__builtin_acosf16" | "__builtin_atanf16" | "__builtin_sinhf16" | "__builtin_coshf16"
        | "__builtin_tanhf16" | "__builtin_expf16" | "__builtin_exp2f16" | "__builtin_exp10f16"
        | "__builtin_logf16" | "__builtin_log2f16" | "__builtin_log10f16" => (Half, &[Half]),
        "__builtin_copysignf16"
        | "__builtin_fmaxf16"
        | "__builtin_fminf16"
        | "__builtin_powf16"
        | "__builtin_fmodf16" => (Half, &[Half, Half]),
        "__builtin_fmaf16" => (Half, &[Half, Half, Half]),
        "__builtin_ldexpf16" => (Half, &[Half, Int]),
        "__builtin_unreachable" | "__builtin_trap" => (Void, &[]),
        "__atomic_thread_fence"
        | "__atomic_signal_fence"
        | "__c11_atomic_thread_fence"
        | "__c11_atomic_signal_fence" => (Void, &[Int]),
        "__c11_atomic_is_lock_free" => (Bool, &[ULong]),
        "__sync_synchronize" => (Void, &[]),
        "__sync_fetch_and_min" | "__sync_fetch_and_max" => (Int, &[VolatileIntPtr, Int]),
        "__sync_fetch_and_umin" | "__sync_fetch_and_umax" => (UInt, &[VolatileUIntPtr, UInt]),
        "__atomic_test_and_set" => (Bool, &[VolatileVoidPtr, Int]),
        "__atomic_clear" => (Void, &[VolatileVoidPtr, Int]),
        "__atomic_always_lock_free" | "__atomic_is_lock_free" => {
            (Bool, &[ULong, ConstVolatileVoidPtr])
        }
        "__builtin_assume" => (Void, &[Bool]),
        _ => return None,
    };
    Some(Kind::Proto(ret, params))
}

/// clang's "too few/many arguments" for a call with `expected` parameters (`at_most`: the
/// builtin takes optional ones up to that count), or `None` when the count fits.
pub(crate) fn arity_message(got: usize, expected: usize, at_most: Option<usize>) -> Option<String> {
    let max = at_most.unwrap_or(expected);
    if got >= expected && got <= max {
        return None;
    }
    Some(if got < expected {
        let qual = if at_most.is_some() { "at least " } else { "" };
        format!("too few arguments to function call, expected {qual}{expected}, have {got}")
    } else {
        let qual = if at_most.is_some() { "at most " } else { "" };
        format!("too many arguments to function call, expected {qual}{max}, have {got}")
    })
}

/// The NaN `__builtin_nan[f]("...")` folds to: the payload is the string read as a C integer
/// (`0x` hex, leading `0` octal, else decimal), as clang's `getAsInteger(0, ...)`; `None` when
/// the string is no integer (clang then leaves a call to the library's `nan`).
pub fn nan_payload(s: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(s).ok()?;
    if s.is_empty() {
        return Some(0);
    }
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// A quiet NaN of `float` (`single`) or `double` with the low mantissa bits from `payload`,
/// as an `f64` whose conversion to `float` keeps them (they sit in the bits that survive).
pub fn nan_value(payload: u64, single: bool) -> f64 {
    if single {
        let m = (payload & 0x3f_ffff) << 29;
        f64::from_bits(0x7ff8_0000_0000_0000 | m)
    } else {
        f64::from_bits(0x7ff8_0000_0000_0000 | (payload & 0x7_ffff_ffff_ffff))
    }
}

impl Checker<'_> {
    /// The call of GNU builtin `bref` with its checked `args`, of type `ty`.
    fn builtin_expr(&self, bref: BuiltinRef, args: Vec<Expr>, ty: QualType, span: Span) -> Expr {
        self.mk(
            ExprKind::BuiltinCall {
                builtin: bref,
                args,
            },
            ty,
            span,
        )
    }

    fn g_type(&mut self, g: G, arg: Option<&Expr>) -> QualType {
        let id = match g {
            G::Void => TypeTable::VOID,
            G::Bool => TypeTable::BOOL,
            G::Int => TypeTable::INT,
            G::UInt => TypeTable::UINT,
            G::Long => TypeTable::LONG,
            G::ULong => TypeTable::ULONG,
            G::ULongLong => TypeTable::ULONGLONG,
            G::UShort => TypeTable::USHORT,
            G::UChar => TypeTable::UCHAR,
            G::Half => TypeTable::HALF,
            G::Float => TypeTable::FLOAT,
            G::Double => TypeTable::DOUBLE,
            G::ConstCharPtr
            | G::VolatileVoidPtr
            | G::ConstVolatileVoidPtr
            | G::VolatileIntPtr
            | G::VolatileUIntPtr
            | G::IntPtr
            | G::FloatPtr
            | G::DoublePtr => {
                // A pointer argument (or an array, which decays to one) lends its space.
                let space = arg.and_then(|a| {
                    let p = self
                        .prog
                        .types
                        .pointee(a.ty)
                        .or_else(|| self.prog.types.array_elem(a.ty).map(|(e, _)| e))?;
                    self.prog.types.object_space(p)
                });
                let (pointee, cvr) = match g {
                    G::ConstCharPtr => (TypeTable::CHAR, Quals::CONST),
                    G::VolatileVoidPtr => (TypeTable::VOID, Quals::VOLATILE),
                    G::VolatileIntPtr => (TypeTable::INT, Quals::VOLATILE),
                    G::VolatileUIntPtr => (TypeTable::UINT, Quals::VOLATILE),
                    G::IntPtr => (TypeTable::INT, 0),
                    G::FloatPtr => (TypeTable::FLOAT, 0),
                    G::DoublePtr => (TypeTable::DOUBLE, 0),
                    _ => (TypeTable::VOID, Quals::CONST | Quals::VOLATILE),
                };
                return self.qual_pointer(pointee, cvr, space);
            }
        };
        QualType::new(id)
    }

    /// A pointer to `pointee` with qualifiers `cvr`, in `space` (none: printed without one).
    fn qual_pointer(
        &mut self,
        pointee: crate::types::TypeId,
        cvr: u8,
        space: Option<LangAs>,
    ) -> QualType {
        let pe = QualType::new(pointee).with_quals(Quals { cvr, space });
        QualType::new(self.prog.types.pointer(pe))
    }

    /// The call's reference to the builtin (GNU builtins have one declaration).
    pub(crate) fn gnu_ref(id: BuiltinId, name: Symbol) -> BuiltinRef {
        BuiltinRef {
            name,
            overload: OverloadId {
                builtin: id,
                decl: 0,
                index: 0,
            },
        }
    }

    /// Checks a call of the GNU builtin `name` (`id`) with checked rvalue arguments.
    pub(crate) fn gnu_builtin_call(
        &mut self,
        id: BuiltinId,
        name: Symbol,
        name_span: Span,
        args: Vec<Expr>,
        span: Span,
    ) -> Expr {
        if super::sync_atomic::is_sync_atomic(name.as_str()) {
            return self
                .sync_atomic_call(id, name, name_span, args, span)
                .unwrap_or_else(|| Expr::error(span));
        }
        if super::gnu_atomic::is_generic_atomic(name.as_str()) {
            return self
                .generic_atomic_call(id, name, name_span, args, span)
                .unwrap_or_else(|| Expr::error(span));
        }
        let Some(k) = kind(name.as_str()) else {
            self.err(name_span, format!("use of undeclared identifier '{name}'"));
            return Expr::error(span);
        };
        let arg_spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        // Custom-checked builtins take rvalues; prototyped ones convert their arguments.
        let args: Vec<Expr> = if matches!(k, Kind::Proto(..) | Kind::Prefetch | Kind::Printf) {
            args
        } else {
            args.into_iter().map(|a| self.rvalue(a)).collect()
        };
        let arity = |expected: usize, at_most: Option<usize>| {
            arity_message(args.len(), expected, at_most).map(|m| {
                (
                    super::call::arity_at(&arg_spans, at_most.unwrap_or(expected), span),
                    m,
                )
            })
        };
        let arity_err = match &k {
            Kind::Proto(_, params) => arity(params.len(), None),
            Kind::ConstantP | Kind::Classify => arity(1, None),
            Kind::Printf => arity(1, Some(usize::MAX)).filter(|_| args.is_empty()),
            // Reported at the `)`, as for other custom-checked builtins.
            Kind::Prefetch => {
                arity(1, Some(3)).map(|(_, m)| (super::call::arity_at(&[], 0, span), m))
            }
            Kind::AssumeAligned => {
                let few = args.len() < 2;
                arity(2, Some(3)).map(|(at, m)| {
                    // clang reports a wrong count of this custom-checked builtin at the `)`.
                    let _ = at;
                    let at = super::call::arity_at(&[], 0, span);
                    (at, if few { m.replace("at least ", "") } else { m })
                })
            }
        };
        if let Some((at, m)) = arity_err {
            self.err(at, m);
            return Expr::error(span);
        }
        let bref = Self::gnu_ref(id, name);
        match k {
            Kind::ConstantP => {
                let constant = args.first().is_some_and(|a| self.is_constant_p(a));
                let ty = QualType::new(TypeTable::INT);
                self.mk(ExprKind::IntLit(u64::from(constant)), ty, span)
            }
            Kind::Classify => {
                let Some(a) = args.into_iter().next() else {
                    return Expr::error(span);
                };
                let is_float = self
                    .prog
                    .types
                    .as_scalar(a.ty)
                    .is_some_and(Scalar::is_float);
                if !is_float {
                    let t = self.prog.types.quoted(a.ty);
                    self.emit(
                        Diagnostic::error(
                            a.span,
                            format!(
                                "floating point classification requires argument of floating point type (passed in {t})"
                            ),
                        )
                        .with_range(a.span),
                    );
                    return Expr::error(span);
                }
                let ty = QualType::new(TypeTable::INT);
                if let Some(v) = self.const_float(&a) {
                    let normal = match self.prog.types.as_scalar(a.ty) {
                        Some(Scalar::Float) => (v as f32).is_normal(),
                        Some(Scalar::Half) => v.is_finite() && v.abs() >= 6.103_515_625e-5,
                        _ => v.is_normal(),
                    };
                    let r = match name.as_str() {
                        "__builtin_isnan" => Some(v.is_nan()),
                        "__builtin_isinf" => Some(v.is_infinite()),
                        "__builtin_isfinite" => Some(v.is_finite()),
                        "__builtin_isnormal" => Some(normal),
                        // clang-19 does not fold __builtin_signbit.
                        _ => None,
                    };
                    if let Some(r) = r {
                        return self.mk(ExprKind::IntLit(u64::from(r)), ty, span);
                    }
                }
                self.builtin_expr(bref, vec![a], ty, span)
            }
            Kind::AssumeAligned => self.assume_aligned(bref, name_span, args, span),
            Kind::Prefetch => self.prefetch(bref, name_span, args, span),
            Kind::Printf => self.gnu_printf(bref, args, span),
            Kind::Proto(ret, params) => {
                self.gnu_proto_call(bref, name_span, ret, params, args, span)
            }
        }
    }

    /// `__builtin_printf(fmt, ...)`: the format converts to `const char *` in its own address
    /// space; the other arguments go as to `printf`.
    fn gnu_printf(&mut self, bref: BuiltinRef, args: Vec<Expr>, span: Span) -> Expr {
        let mut out = Vec::with_capacity(args.len());
        let mut it = args.into_iter();
        if let Some(fmt) = it.next() {
            let pt = self.g_type(G::ConstCharPtr, Some(&fmt));
            let at = fmt.span;
            let c = self.assign_convert(pt, pt, fmt, Action::Passing, at);
            if c.is_error() {
                return Expr::error(span);
            }
            out.push(c);
        }
        for a in it {
            out.push(self.rvalue(a));
        }
        let ty = QualType::new(TypeTable::INT);
        self.builtin_expr(bref, out, ty, span)
    }

    /// Whether clang's `__builtin_constant_p` folds its argument to 1: an arithmetic
    /// constant or a string literal.
    fn is_constant_p(&self, a: &Expr) -> bool {
        if self.const_int(a).is_some() || self.const_float(a).is_some() {
            return true;
        }
        let mut e = a;
        while let ExprKind::Cast(_, x) = &e.kind {
            e = x;
        }
        matches!(e.kind, ExprKind::StrLit(_))
    }

    /// A builtin with a C prototype: arguments converted as for any C call.
    fn gnu_proto_call(
        &mut self,
        bref: BuiltinRef,
        name_span: Span,
        ret: G,
        params: &[G],
        args: Vec<Expr>,
        span: Span,
    ) -> Expr {
        let name = bref.name.as_str();
        // Types for -Wabsolute-value: the argument before its lvalue-to-rvalue conversion.
        let first_ty = args.first().map(|a| a.ty);
        let mut out = Vec::with_capacity(args.len());
        let mut failed = false;
        // clang still checks a call whose pointer argument went to an integer parameter
        // (-Wint-conversion is an error that keeps the call), not one that failed otherwise.
        let mut call_kept = true;
        for (a, &g) in args.into_iter().zip(params) {
            let pt = self.g_type(g, Some(&a));
            let at = a.span;
            let ptr_to_int = self.prog.types.is_pointer(a.ty) && self.prog.types.is_integer(pt);
            let c = self.assign_convert(pt, pt, a, Action::Passing, at);
            failed |= c.is_error();
            call_kept &= !c.is_error() || ptr_to_int;
            out.push(c);
        }
        if let Some(t) = first_ty
            && call_kept
            && matches!(name, "__builtin_abs" | "__builtin_fabsf" | "__builtin_fabs")
        {
            self.absolute_value_warning(name, name_span, t);
        }
        if failed {
            return Expr::error(span);
        }
        let ret_ty = self.g_type(ret, None);
        if let Some(k) = self.fold_gnu(name, &out) {
            return self.mk(k, ret_ty, span);
        }
        match name {
            "__builtin_inff" | "__builtin_huge_valf" | "__builtin_inf" | "__builtin_huge_val" => {
                return self.mk(ExprKind::FloatLit(f64::INFINITY), ret_ty, span);
            }
            "__builtin_nanf" | "__builtin_nan" => {
                if let Some(p) = out.first().and_then(string_literal).and_then(nan_payload) {
                    let v = nan_value(p, name == "__builtin_nanf");
                    return self.mk(ExprKind::FloatLit(v), ret_ty, span);
                }
            }
            "__builtin_assume" => {
                if let Some(x) = out.first()
                    && self.may_have_side_effects(x)
                {
                    self.warn(
                        x.span,
                        "assumption is ignored because it contains (potential) side-effects",
                        "assume",
                    );
                }
            }
            "__builtin_expect_with_probability" => {
                if let Some(p) = out.get(2)
                    && !self.probability_ok(p)
                {
                    return Expr::error(span);
                }
            }
            _ => {}
        }
        self.builtin_expr(bref, out, ret_ty, span)
    }

    /// Whether evaluating `e` may change something (clang's `HasSideEffects`): assignments,
    /// `++`/`--`, calls of functions other than `const`/`pure` builtins.
    pub(crate) fn may_have_side_effects(&self, e: &Expr) -> bool {
        let any = |xs: &[Expr]| xs.iter().any(|x| self.may_have_side_effects(x));
        match &e.kind {
            ExprKind::Assign { .. }
            | ExprKind::Call { .. }
            | ExprKind::InitList(_)
            | ExprKind::StmtExpr { .. } => true,
            ExprKind::BuiltinCall { builtin, args } => {
                let a = self.builtins.attrs(builtin.overload);
                let gnu_pure = builtin.name.as_str().starts_with("__builtin_")
                    && !matches!(
                        builtin.name.as_str(),
                        "__builtin_trap" | "__builtin_unreachable" | "__builtin_assume"
                    );
                !(a.is_const || a.is_pure || gnu_pure) || any(args)
            }
            ExprKind::Unary(op, x) => {
                matches!(
                    op,
                    crate::hir::UnOp::PreInc
                        | crate::hir::UnOp::PreDec
                        | crate::hir::UnOp::PostInc
                        | crate::hir::UnOp::PostDec
                ) || self.may_have_side_effects(x)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
                self.may_have_side_effects(a) || self.may_have_side_effects(b)
            }
            ExprKind::Cond(a, b, c) => {
                self.may_have_side_effects(a)
                    || self.may_have_side_effects(b)
                    || self.may_have_side_effects(c)
            }
            ExprKind::Cast(_, x)
            | ExprKind::AddrOf(x)
            | ExprKind::Deref(x)
            | ExprKind::GetFence(x)
            | ExprKind::Member { base: x, .. }
            | ExprKind::Swizzle { base: x, .. }
            | ExprKind::ToAddrSpace { arg: x, .. } => self.may_have_side_effects(x),
            ExprKind::Index { base, index } => {
                self.may_have_side_effects(base) || self.may_have_side_effects(index)
            }
            ExprKind::VectorLit(parts) => any(parts),
            _ => false,
        }
    }

    /// The constant a call folds to where clang's constant evaluator folds it (so it may
    /// initialize `__constant` data and size arrays): `__builtin_expect` of a constant, bit
    /// counts of a non-zero constant, byte swaps and rotates of constants, `fabs` of a
    /// constant. Not `__builtin_abs` or `__builtin_sqrt`, which clang-19 does not fold.
    fn fold_gnu(&self, name: &str, args: &[Expr]) -> Option<ExprKind> {
        let int = |i: usize| args.get(i).and_then(|a| self.const_int(a));
        // SPIR has no lock-free atomics clang knows of (its inline atomic width is 0).
        if name == "__atomic_always_lock_free" {
            return Some(ExprKind::IntLit(0));
        }
        let rest = name.strip_prefix("__builtin_")?;
        match rest {
            // Folded only without side effects in the expected value, as clang's codegen.
            "expect" | "expect_with_probability" => {
                return int(1).and(int(0)).map(ExprKind::Const);
            }
            "fabsf" | "fabs" => {
                return args
                    .first()
                    .and_then(|a| self.const_float(a))
                    .map(|v| ExprKind::FloatLit(v.abs()));
            }
            "fminf" | "fmin" | "fmaxf" | "fmax" | "copysignf" | "copysign" => {
                let f = |i: usize| args.get(i).and_then(|a| self.const_float(a));
                let (x, y) = (f(0)?, f(1)?);
                return Some(ExprKind::FloatLit(match rest {
                    "fminf" | "fmin" => x.min(y),
                    "fmaxf" | "fmax" => x.max(y),
                    _ => x.copysign(y),
                }));
            }
            _ => {}
        }
        let a = args.first()?;
        // A 128-bit operand (`long long` on SPIR) holds a value of 64 bits or fewer here: the
        // `ll` builtins account for its high half below.
        let bits = (self.prog.types.size_of(a.ty)? as u32 * 8).min(64);
        if bits == 0 {
            return None;
        }
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let x = int(0)? as u64 & mask;
        // `unsigned long long` is 128-bit on SPIR in clang: a negative signed operand fills
        // the high half with ones.
        let ll = rest.ends_with("ll");
        let high_ones = ll
            && matches!(&a.kind, ExprKind::Cast(_, src)
                if self.prog.types.is_integer(src.ty)
                    && self.prog.types.as_scalar(src.ty).is_some_and(Scalar::is_signed))
            && (x as i64) < 0;
        let v: u64 = match rest {
            "popcount" | "popcountl" | "popcountll" => {
                u64::from(x.count_ones()) + if high_ones { 64 } else { 0 }
            }
            "clz" | "clzl" | "clzll" if x != 0 => {
                if high_ones {
                    0
                } else {
                    u64::from(x.leading_zeros() - (64 - bits)) + if ll { 64 } else { 0 }
                }
            }
            "ctz" | "ctzl" | "ctzll" if x != 0 => u64::from(x.trailing_zeros()),
            "ffs" => {
                if x == 0 {
                    0
                } else {
                    u64::from(x.trailing_zeros() + 1)
                }
            }
            "parity" => u64::from(x.count_ones() & 1),
            "clrsb" => {
                let v = x as u32 as i32;
                u64::from((v ^ (v >> 31)).leading_zeros() - 1)
            }
            "bswap16" | "bswap32" | "bswap64" => x.swap_bytes() >> (64 - bits),
            r if r.starts_with("rotateleft") || r.starts_with("rotateright") => {
                let n = (int(1)? as u64 % u64::from(bits)) as u32;
                let n = if r.starts_with("rotateright") {
                    (bits - n) % bits
                } else {
                    n
                };
                if n == 0 {
                    x
                } else {
                    ((x << n) | (x >> (bits - n))) & mask
                }
            }
            _ => return None,
        };
        Some(ExprKind::IntLit(v))
    }

    /// clang's checks of the probability of `__builtin_expect_with_probability`: a constant
    /// in [0, 1].
    fn probability_ok(&mut self, p: &Expr) -> bool {
        let value = if divides_by_zero(self, p) {
            None
        } else {
            self.const_float(p)
        };
        match value {
            Some(v) if (0.0..=1.0).contains(&v) => true,
            Some(_) => {
                self.emit(
                    Diagnostic::error(
                        p.span,
                        "probability argument to __builtin_expect_with_probability is outside the range [0.0, 1.0]",
                    )
                    .with_range(p.span),
                );
                false
            }
            None => {
                let (at, why) = self.not_constant_part(p);
                self.emit(
                    Diagnostic::error(
                        p.span,
                        "probability argument to __builtin_expect_with_probability must be constant floating-point expression",
                    )
                    .with_range(p.span)
                    .with_note(at, why),
                );
                false
            }
        }
    }

    /// Where an expression stops being constant, and clang's note saying why.
    fn not_constant_part(&self, e: &Expr) -> (Span, &'static str) {
        match &e.kind {
            ExprKind::Cast(_, x) => self.not_constant_part(x),
            ExprKind::Binary(op, a, b) => {
                if !self.is_constant_p(a) || divides_by_zero(self, a) {
                    return self.not_constant_part(a);
                }
                if !self.is_constant_p(b) || divides_by_zero(self, b) {
                    return self.not_constant_part(b);
                }
                let zero = self.const_float(b) == Some(0.0) || self.const_int(b) == Some(0);
                if matches!(op, BinOp::Div | BinOp::Rem) && zero {
                    // clang points at the operator, between the operands.
                    let gap = Span {
                        lo: a.span.hi,
                        hi: b.span.lo,
                        ..a.span
                    };
                    let ws = self
                        .snippet(gap)
                        .bytes()
                        .take_while(u8::is_ascii_whitespace)
                        .count() as u32;
                    let lo = gap.lo.saturating_add(ws).min(gap.hi);
                    let at = Span {
                        lo,
                        hi: (lo + 1).min(gap.hi.max(lo)),
                        ..gap
                    };
                    return (at, "division by zero");
                }
                (e.span, "subexpression not valid in a constant expression")
            }
            _ => (e.span, "subexpression not valid in a constant expression"),
        }
    }

    /// clang's `-Wabsolute-value` for `__builtin_abs`/`__builtin_fabsf`/`__builtin_fabs`:
    /// `t` is the argument's type (an lvalue's own type, qualifiers included).
    fn absolute_value_warning(&mut self, name: &str, name_span: Span, t: QualType) {
        let types = &self.prog.types;
        let q = types.quoted(t);
        let warn = |msg: String| Diagnostic::warning(name_span, msg).with_group("absolute-value");
        if types.is_pointer(t) {
            self.emit(warn(format!(
                "taking the absolute value of pointer type {q} is suspicious"
            )));
            return;
        }
        let Some(s) = types.as_scalar(t) else { return };
        let int_fn = |s: Scalar| match s {
            Scalar::Long | Scalar::ULong => "__builtin_labs",
            Scalar::LongLong | Scalar::ULongLong => "__builtin_llabs",
            _ => "__builtin_abs",
        };
        let d = if name == "__builtin_abs" {
            if s.is_float() {
                let f = if s == Scalar::Double {
                    "__builtin_fabs"
                } else {
                    "__builtin_fabsf"
                };
                warn(format!(
                    "using integer absolute value function '{name}' when argument is of floating point type"
                ))
                .with_note(name_span, format!("use function '{f}' instead"))
            } else if s.is_integer() && !s.is_signed() && s != Scalar::Bool && s.size() >= 4 {
                warn(format!(
                    "taking the absolute value of unsigned type {q} has no effect"
                ))
                .with_note(
                    name_span,
                    format!("remove the call to '{name}' since unsigned values cannot be negative"),
                )
            } else if s.is_integer() && s.size() > 4 {
                warn(format!(
                    "absolute value function '{name}' given an argument of type {q} but has parameter of type 'int' which may cause truncation of value"
                ))
                .with_note(name_span, format!("use function '{}' instead", int_fn(s)))
            } else {
                return;
            }
        } else if s.is_integer() {
            warn(format!(
                "using floating point absolute value function '{name}' when argument is of integer type"
            ))
            .with_note(name_span, format!("use function '{}' instead", int_fn(s)))
        } else if name == "__builtin_fabsf" && s == Scalar::Double {
            warn(format!(
                "absolute value function '{name}' given an argument of type {q} but has parameter of type 'float' which may cause truncation of value"
            ))
            .with_note(name_span, "use function '__builtin_fabs' instead")
        } else {
            return;
        };
        self.emit(d);
    }

    /// `__builtin_prefetch(p[, rw[, locality]])`: like `__builtin_assume_aligned`, the
    /// parameter takes a pointer argument's space; the hints are constants in [0, 1] and
    /// [0, 3].
    fn prefetch(&mut self, bref: BuiltinRef, name_span: Span, args: Vec<Expr>, span: Span) -> Expr {
        let mut it = args.into_iter();
        let Some(p) = it.next() else {
            return Expr::error(span);
        };
        let space = self
            .prog
            .types
            .pointee(p.ty)
            .or_else(|| self.prog.types.array_elem(p.ty).map(|(e, _)| e))
            .and_then(|t| self.prog.types.object_space(t));
        let call_start = if space.is_some() { p.span } else { name_span };
        let pt = self.qual_pointer(TypeTable::VOID, Quals::CONST, space);
        let at = p.span;
        let p = self.assign_convert(pt, pt, p, Action::Passing, at);
        if p.is_error() {
            return Expr::error(span);
        }
        for (hint, max) in it.zip([1i64, 3]) {
            let hint = self.rvalue(hint);
            let msg = match self.const_int(&hint) {
                None => "argument to '__builtin_prefetch' must be a constant integer".to_string(),
                Some(v) if !(0..=max).contains(&v) => {
                    format!("argument value {v} is outside the valid range [0, {max}]")
                }
                Some(_) => continue,
            };
            self.emit(Diagnostic::error(call_start, msg).with_range(hint.span));
            return Expr::error(span);
        }
        let ty = QualType::new(TypeTable::VOID);
        self.builtin_expr(bref, vec![p], ty, span)
    }

    /// `__builtin_assume_aligned(p, align[, offset])`. In OpenCL C clang gives a pointer
    /// argument's address space to the parameter by redeclaring the builtin, and that
    /// redeclared call has type `bool` and starts at the first argument; with any other
    /// argument the call keeps the prototype's `void *`.
    fn assume_aligned(
        &mut self,
        bref: BuiltinRef,
        name_span: Span,
        args: Vec<Expr>,
        span: Span,
    ) -> Expr {
        let mut it = args.into_iter();
        let (Some(p), Some(align)) = (it.next(), it.next()) else {
            return Expr::error(span);
        };
        let offset = it.next();
        let space = self
            .prog
            .types
            .pointee(p.ty)
            .and_then(|t| self.prog.types.object_space(t));
        let rewritten = self.prog.types.is_pointer(p.ty);
        let call_start = if rewritten { p.span } else { name_span };
        let pt = self.qual_pointer(TypeTable::VOID, Quals::CONST, space);
        let at = p.span;
        let p = self.assign_convert(pt, pt, p, Action::Passing, at);
        let mut failed = p.is_error();
        let size = QualType::new(TypeTable::ULONG);
        match self.const_int(&align) {
            None => {
                self.emit(
                    Diagnostic::error(
                        call_start,
                        "argument to '__builtin_assume_aligned' must be a constant integer",
                    )
                    .with_range(align.span),
                );
                failed = true;
            }
            Some(v) if v <= 0 || (v & (v - 1)) != 0 => {
                self.emit(
                    Diagnostic::error(call_start, "requested alignment is not a power of 2")
                        .with_range(align.span),
                );
                failed = true;
            }
            Some(_) => {}
        }
        let at = align.span;
        let align = self.assign_convert(size, size, align, Action::Passing, at);
        let mut out = vec![p, align];
        if let Some(o) = offset {
            let at = o.span;
            let o = self.assign_convert(size, size, o, Action::Passing, at);
            failed |= o.is_error();
            out.push(o);
        }
        if failed {
            return Expr::error(span);
        }
        let (ty, span) = if rewritten {
            (QualType::new(TypeTable::BOOL), call_start.to(span))
        } else {
            let v = QualType::new(TypeTable::VOID);
            (QualType::new(self.prog.types.pointer(v)), span)
        };
        self.builtin_expr(bref, out, ty, span)
    }
}

/// Whether a constant expression divides by a constant zero somewhere (clang's evaluator
/// then fails: "division by zero").
fn divides_by_zero(c: &Checker<'_>, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast(_, x) => divides_by_zero(c, x),
        ExprKind::Binary(op, a, b) => {
            let zero = c.const_float(b) == Some(0.0) || c.const_int(b) == Some(0);
            (matches!(op, BinOp::Div | BinOp::Rem) && zero)
                || divides_by_zero(c, a)
                || divides_by_zero(c, b)
        }
        _ => false,
    }
}

/// The bytes of a string literal an argument points to (through its conversions).
fn string_literal(e: &Expr) -> Option<&[u8]> {
    let mut e = e;
    while let ExprKind::Cast(_, x) = &e.kind {
        e = x;
    }
    match &e.kind {
        ExprKind::StrLit(b) => Some(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_payloads_read_as_c_integers() {
        assert_eq!(nan_payload(b""), Some(0));
        assert_eq!(nan_payload(b"0x7"), Some(7));
        assert_eq!(nan_payload(b"010"), Some(8));
        assert_eq!(nan_payload(b"12"), Some(12));
        assert_eq!(nan_payload(b"abc"), None);
        assert_eq!(nan_payload(b"0x"), None);
        let f = nan_value(7, true) as f32;
        assert_eq!(f.to_bits(), 0x7fc0_0007);
        assert_eq!(nan_value(7, false).to_bits(), 0x7ff8_0000_0000_0007);
    }

    #[test]
    fn arity_wording() {
        assert_eq!(
            arity_message(0, 1, None).as_deref(),
            Some("too few arguments to function call, expected 1, have 0")
        );
        assert_eq!(
            arity_message(4, 2, Some(3)).as_deref(),
            Some("too many arguments to function call, expected at most 3, have 4")
        );
        assert_eq!(arity_message(3, 2, Some(3)), None);
    }
}
