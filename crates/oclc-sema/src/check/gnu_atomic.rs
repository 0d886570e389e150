//! Calls of clang's type-generic atomic builtins of its `Builtins.td`, declared in every
//! OpenCL C mode: the GNU ones (`__atomic_fetch_add`, `__atomic_load_n`,
//! `__atomic_compare_exchange`, ...: pocl's library implements the 1.x atomics with them), the
//! C11 ones on `_Atomic` objects (`__c11_atomic_fetch_add`, ...) and the OpenCL ones, which add
//! a memory scope (`__opencl_atomic_fetch_add`, ...: what `opencl-c.h`'s atomics are made of).
//! Checked as clang's `BuildAtomicExpr` checks them: the address argument's pointee decides
//! the value type `T` and must suit the operation, the other arguments convert to `T`,
//! pointers to `T`, `bool` or `int`, a constant memory order must suit the operation
//! (`-Watomic-memory-ordering`) and a constant scope must be one.

use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use crate::builtins::BuiltinId;
use crate::hir::{Expr, ExprKind};
use crate::types::{QualType, Quals, Scalar, TypeKind, TypeTable};

/// Which family a builtin belongs to: its address argument and its parameters differ.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    /// `__atomic_*`: a pointer to a plain integer, pointer or float.
    Gnu,
    /// `__c11_atomic_*`: a pointer to an `_Atomic` object.
    C11,
    /// `__opencl_atomic_*`: as C11, with a memory scope after the orders.
    OpenCl,
}

/// The shape of an atomic builtin's call (clang's `AtomicExpr` forms).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    /// `void __c11_atomic_init(_Atomic(T) *, T)`.
    Init,
    /// `T __atomic_load_n(T *, int)`.
    Load,
    /// `void __atomic_load(T *, T *ret, int)`.
    LoadCopy,
    /// `void __atomic_store_n(T *, T, int)`.
    Store,
    /// `void __atomic_store(T *, T *val, int)`.
    Copy,
    /// `T __atomic_exchange_n(T *, T, int)`.
    Xchg,
    /// `void __atomic_exchange(T *, T *val, T *ret, int)`.
    GnuXchg,
    /// `bool __atomic_compare_exchange_n(T *, T *expected, T desired, bool weak, int, int)`.
    CmpXchgN,
    /// `bool __atomic_compare_exchange(T *, T *expected, T *desired, bool weak, int, int)`.
    CmpXchg,
    /// `bool __c11_atomic_compare_exchange_strong(_Atomic(T) *, T *expected, T desired, int,
    /// int)` and `_weak`.
    CmpXchgC11,
    /// `T __atomic_fetch_OP(T *, T, int)` and `T __atomic_OP_fetch(T *, T, int)`.
    Arith(Allow),
}

/// Which value types an arithmetic form takes besides integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Allow {
    /// `add`, `sub`: pointers and floating point too.
    PointerFloat,
    /// `min`, `max`: floating point too.
    Float,
    /// `and`, `or`, `xor`, `nand`: integers only.
    IntOnly,
}

/// The family and form of the atomic builtin `name` (`None`: not one).
fn form(name: &str) -> Option<(Family, Form)> {
    if let Some(op) = name.strip_prefix("__c11_atomic_") {
        return c11_form(op, true).map(|f| (Family::C11, f));
    }
    if let Some(op) = name.strip_prefix("__opencl_atomic_") {
        return c11_form(op, false).map(|f| (Family::OpenCl, f));
    }
    let op = name.strip_prefix("__atomic_")?;
    let form = match op {
        "load_n" => Form::Load,
        "load" => Form::LoadCopy,
        "store_n" => Form::Store,
        "store" => Form::Copy,
        "exchange_n" => Form::Xchg,
        "exchange" => Form::GnuXchg,
        "compare_exchange_n" => Form::CmpXchgN,
        "compare_exchange" => Form::CmpXchg,
        _ => Form::Arith(arith_allow(
            op.strip_prefix("fetch_")
                .or_else(|| op.strip_suffix("_fetch"))?,
            true,
        )?),
    };
    Some((Family::Gnu, form))
}

/// The form of a C11 or OpenCL atomic builtin (the name after its prefix; `c11`: the C11
/// family, which also has `fetch_nand`).
fn c11_form(op: &str, c11: bool) -> Option<Form> {
    Some(match op {
        "init" => Form::Init,
        "load" => Form::Load,
        "store" => Form::Store,
        "exchange" => Form::Xchg,
        "compare_exchange_strong" | "compare_exchange_weak" => Form::CmpXchgC11,
        _ => Form::Arith(arith_allow(op.strip_prefix("fetch_")?, c11)?),
    })
}

/// The value types an arithmetic operation takes (`nand`: whether the family has it).
fn arith_allow(op: &str, nand: bool) -> Option<Allow> {
    Some(match op {
        "add" | "sub" => Allow::PointerFloat,
        "min" | "max" => Allow::Float,
        "and" | "or" | "xor" => Allow::IntOnly,
        "nand" if nand => Allow::IntOnly,
        _ => return None,
    })
}

/// Whether `name` is a type-generic atomic builtin (checked here, not by prototype).
pub(crate) fn is_generic_atomic(name: &str) -> bool {
    form(name).is_some()
}

/// What one argument after the address converts to.
#[derive(Clone, Copy)]
enum Param {
    /// The value type `T` (a pointer `T`'s `add`/`sub` take `ptrdiff_t`).
    Value,
    /// `T *` in the argument's own address space (clang keeps it).
    PtrOwnSpace,
    /// `T *` in the address argument's space.
    PtrSameSpace,
    Bool,
    /// A memory order, `int`; `fail` for a compare-exchange's failure order.
    Order {
        fail: bool,
    },
    /// A memory scope, `int` (the OpenCL family).
    Scope,
}

impl Form {
    /// The parameters after the address, in order (the OpenCL family adds a scope).
    fn params(self, family: Family) -> &'static [Param] {
        use Param::*;
        const ORDER: Param = Order { fail: false };
        const FAIL: Param = Order { fail: true };
        let opencl = family == Family::OpenCl;
        match self {
            Form::Init => &[Value],
            Form::Load if opencl => &[ORDER, Scope],
            Form::Load => &[ORDER],
            Form::LoadCopy => &[PtrOwnSpace, ORDER],
            Form::Store | Form::Xchg | Form::Arith(_) if opencl => &[Value, ORDER, Scope],
            Form::Store | Form::Xchg | Form::Arith(_) => &[Value, ORDER],
            Form::Copy => &[PtrSameSpace, ORDER],
            Form::GnuXchg => &[PtrOwnSpace, PtrSameSpace, ORDER],
            Form::CmpXchgN => &[PtrOwnSpace, Value, Bool, ORDER, FAIL],
            Form::CmpXchg => &[PtrOwnSpace, PtrSameSpace, Bool, ORDER, FAIL],
            Form::CmpXchgC11 if opencl => &[PtrOwnSpace, Value, ORDER, FAIL, Scope],
            Form::CmpXchgC11 => &[PtrOwnSpace, Value, ORDER, FAIL],
        }
    }

    /// clang's "must be a pointer to ..." wording for a pointee this form refuses.
    fn wanted(self, family: Family) -> &'static str {
        let atomic = family != Family::Gnu;
        match self {
            Form::Arith(Allow::PointerFloat) if atomic => {
                "atomic integer, pointer or supported floating point type"
            }
            Form::Arith(Allow::Float) if atomic => {
                "atomic integer or supported floating point type"
            }
            Form::Arith(Allow::IntOnly) if atomic => "atomic integer",
            Form::Arith(Allow::PointerFloat) => "integer, pointer or supported floating point type",
            Form::Arith(Allow::Float) => "integer or supported floating point type",
            Form::Arith(Allow::IntOnly) => "integer",
            _ => "integer or pointer",
        }
    }

    /// Whether a memory order constant `v` is invalid for this form (clang's
    /// `isValidOrderingForOp`; `fail`: a compare-exchange's failure order).
    fn bad_order(self, v: i64, fail: bool) -> bool {
        const CONSUME: i64 = 1;
        const ACQUIRE: i64 = 2;
        const RELEASE: i64 = 3;
        const ACQ_REL: i64 = 4;
        if !(0..=5).contains(&v) {
            return true;
        }
        if fail {
            return matches!(v, RELEASE | ACQ_REL);
        }
        match self {
            Form::Load | Form::LoadCopy => matches!(v, RELEASE | ACQ_REL),
            Form::Store | Form::Copy => matches!(v, CONSUME | ACQUIRE | ACQ_REL),
            _ => false,
        }
    }
}

impl Checker<'_> {
    /// Checks a call of the GNU, C11 or OpenCL atomic builtin `name` (`id`) with checked
    /// arguments; `None` when `name` is none of them.
    pub(crate) fn generic_atomic_call(
        &mut self,
        id: BuiltinId,
        name: Symbol,
        name_span: Span,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Expr> {
        let (family, form) = form(name.as_str())?;
        if !self.atomics_called.contains(&name) {
            self.atomics_called.push(name);
        }
        let params = form.params(family);
        let arg_spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        if let Some(m) = super::gnu_builtin::arity_message(args.len(), params.len() + 1, None) {
            self.err(super::call::arity_at(&arg_spans, params.len() + 1, span), m);
            return Some(Expr::error(span));
        }
        let mut args = args.into_iter();
        let addr = self.rvalue(args.next()?);
        if addr.is_error() {
            return Some(Expr::error(span));
        }
        let Some(object) = self.prog.types.pointee_sugared(addr.ty) else {
            let t = self.prog.types.quoted(addr.ty);
            self.err(
                name_span,
                format!("address argument to atomic builtin must be a pointer ({t} invalid)"),
            );
            return Some(Expr::error(span));
        };
        // The C11 and OpenCL families work on `_Atomic(T)` objects; `T` is what they take.
        let pointee = match (family, self.prog.types.ckind(object)) {
            (Family::Gnu, _) => object,
            (_, &TypeKind::Atomic(value)) => QualType {
                quals: Quals {
                    cvr: object.quals.cvr,
                    space: object.quals.space,
                },
                ..value
            },
            _ => return Some(self.refuse_address(&addr, "_Atomic type", name_span, span)),
        };
        let types = &self.prog.types;
        let is_ptr = types.is_pointer(pointee);
        let is_float = types.as_scalar(pointee).is_some_and(Scalar::is_float);
        let fits = types.is_integer(pointee)
            || match form {
                Form::Arith(Allow::PointerFloat) => is_ptr || is_float,
                Form::Arith(Allow::Float) => is_float,
                Form::Arith(Allow::IntOnly) => false,
                _ => is_ptr,
            };
        let refusal = if !fits {
            Some(form.wanted(family))
        } else if pointee.quals.cvr & Quals::CONST != 0
            && !matches!(form, Form::Load | Form::LoadCopy)
        {
            Some(if family == Family::Gnu {
                "non-const type"
            } else {
                "non-const _Atomic type"
            })
        } else {
            None
        };
        if let Some(wanted) = refusal {
            return Some(self.refuse_address(&addr, wanted, name_span, span));
        }
        // clang's value type keeps the address space and drops const and volatile.
        let value = QualType {
            id: pointee.id,
            quals: Quals {
                cvr: 0,
                space: pointee.quals.space,
            },
        };
        let mut out = Vec::with_capacity(params.len() + 1);
        out.push(addr);
        let mut failed = false;
        for (a, &p) in args.zip(params) {
            let at = a.span;
            let pt = match p {
                Param::Value if is_ptr && matches!(form, Form::Arith(_)) => {
                    QualType::new(self.ptrdiff_type())
                }
                Param::Value => value,
                Param::PtrOwnSpace => {
                    let space = self.prog.types.pointee(a.ty).and_then(|q| q.quals.space);
                    let pe = QualType {
                        quals: Quals { cvr: 0, space },
                        ..value
                    };
                    QualType::new(self.prog.types.pointer(pe))
                }
                Param::PtrSameSpace => QualType::new(self.prog.types.pointer(value)),
                Param::Bool => QualType::new(TypeTable::BOOL),
                Param::Order { .. } | Param::Scope => QualType::new(TypeTable::INT),
            };
            let c = self.assign_convert(pt, pt, a, Action::Passing, at);
            if let Param::Order { fail } = p
                && let Some(v) = self.const_int(&c)
                && form.bad_order(v, fail)
            {
                let what = if fail {
                    "failure memory order"
                } else {
                    "memory order"
                };
                self.emit(
                    Diagnostic::warning(
                        at,
                        format!("{what} argument to atomic operation is invalid"),
                    )
                    .with_group("atomic-memory-ordering")
                    .with_range(at),
                );
            }
            if let Param::Scope = p
                && let Some(v) = self.const_int(&c)
                && !(0..=4).contains(&v)
            {
                self.emit(
                    Diagnostic::error(
                        at,
                        "synchronization scope argument to atomic operation is invalid",
                    )
                    .with_range(at),
                );
                failed = true;
            }
            failed |= c.is_error();
            out.push(c);
        }
        if failed {
            return Some(Expr::error(span));
        }
        let ty = match form {
            Form::Load | Form::Xchg | Form::Arith(_) => QualType::new(value.id),
            Form::CmpXchgN | Form::CmpXchg | Form::CmpXchgC11 => QualType::new(TypeTable::BOOL),
            Form::Init | Form::LoadCopy | Form::Store | Form::Copy | Form::GnuXchg => {
                QualType::new(TypeTable::VOID)
            }
        };
        let builtin = Self::gnu_ref(id, name);
        Some(self.mk(ExprKind::BuiltinCall { builtin, args: out }, ty, span))
    }

    /// clang's error for an address argument whose pointee the operation refuses (`wanted`:
    /// what it must point to), at the builtin's name; the call's error expression.
    fn refuse_address(&mut self, addr: &Expr, wanted: &str, name_span: Span, span: Span) -> Expr {
        let t = self.prog.types.quoted(addr.ty);
        self.err(
            name_span,
            format!(
                "address argument to atomic operation must be a pointer to {wanted} ({t} invalid)"
            ),
        );
        Expr::error(span)
    }

    /// `ptrdiff_t` of the target: `long` on spir64, `int` on spir.
    fn ptrdiff_type(&self) -> crate::types::TypeId {
        match self.lang.target {
            oclc_syntax::lang::Target::Spir => TypeTable::INT,
            oclc_syntax::lang::Target::Spir64 => TypeTable::LONG,
        }
    }
}
