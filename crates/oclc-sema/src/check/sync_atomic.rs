//! Calls of GCC's legacy `__sync_*` atomic builtins as clang checks them (its
//! `BuiltinAtomicOverloaded`): `__sync_fetch_and_add`, `__sync_add_and_fetch`,
//! `__sync_val_compare_and_swap`, `__sync_lock_test_and_set`, `__sync_lock_release`,
//! `__sync_swap`, ... Type-generic over the pointee (an integer or pointer of 1, 2, 4, 8 or
//! 16 bytes), sequentially consistent, and variadic: arguments past the operation's are
//! ignored. (`__sync_synchronize` and the typed `__sync_fetch_and_min` family are ordinary
//! prototypes, in `gnu_builtin.rs`.)

use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use crate::builtins::BuiltinId;
use crate::hir::{Expr, ExprKind};
use crate::types::{QualType, Quals, TypeTable};

/// What a `__sync_*` builtin takes after the address and gives back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `T op(T *, T)`: the read-modify-writes, `lock_test_and_set`, `swap`.
    Rmw,
    /// `T __sync_val_compare_and_swap(T *, T old, T new)`.
    ValCas,
    /// `bool __sync_bool_compare_and_swap(T *, T old, T new)`.
    BoolCas,
    /// `void __sync_lock_release(T *)`.
    Release,
}

/// The shape of the type-generic `__sync_*` builtin `name` (`None`: not one).
fn shape(name: &str) -> Option<Shape> {
    let op = name.strip_prefix("__sync_")?;
    let rmw = |o: &str| matches!(o, "add" | "sub" | "or" | "and" | "xor" | "nand");
    Some(match op {
        "val_compare_and_swap" => Shape::ValCas,
        "bool_compare_and_swap" => Shape::BoolCas,
        "lock_release" => Shape::Release,
        "lock_test_and_set" | "swap" => Shape::Rmw,
        _ if op.strip_prefix("fetch_and_").is_some_and(rmw) => Shape::Rmw,
        _ if op.strip_suffix("_and_fetch").is_some_and(rmw) => Shape::Rmw,
        _ => return None,
    })
}

/// Whether `name` is a type-generic `__sync_*` builtin (checked here, not by prototype).
pub(crate) fn is_sync_atomic(name: &str) -> bool {
    shape(name).is_some()
}

impl Checker<'_> {
    /// Checks a call of the `__sync_*` builtin `name` (`id`) with checked arguments; `None`
    /// when `name` is no type-generic one.
    pub(crate) fn sync_atomic_call(
        &mut self,
        id: BuiltinId,
        name: Symbol,
        name_span: Span,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Expr> {
        let shape = shape(name.as_str())?;
        let values = match shape {
            Shape::Rmw => 1,
            Shape::ValCas | Shape::BoolCas => 2,
            Shape::Release => 0,
        };
        if args.len() < values + 1 {
            let m = format!(
                "too few arguments to function call, expected at least {}, have {}",
                values + 1,
                args.len()
            );
            self.err(super::call::arity_at(&[], 0, span), m);
            return Some(Expr::error(span));
        }
        // Arguments past the operation's are ignored, as GCC documents.
        let mut args = args.into_iter().take(values + 1);
        let addr = self.rvalue(args.next()?);
        if addr.is_error() {
            return Some(Expr::error(span));
        }
        let types = &self.prog.types;
        let refusal = match types.pointee_sugared(addr.ty) {
            None => Some("must be a pointer"),
            Some(p) if !types.is_integer(p) && !types.is_pointer(p) => {
                Some("must be a pointer to integer or pointer")
            }
            Some(p) if !matches!(types.size_of(p), Some(1 | 2 | 4 | 8 | 16)) => {
                Some("must be a pointer to 1,2,4,8 or 16 byte type")
            }
            Some(p) if p.quals.cvr & Quals::CONST != 0 => Some("cannot be const-qualified"),
            Some(_) => None,
        };
        let Some(pointee) = types.pointee_sugared(addr.ty).filter(|_| refusal.is_none()) else {
            let t = self.prog.types.quoted(addr.ty);
            let what = refusal.unwrap_or("must be a pointer");
            self.err(
                name_span,
                format!("address argument to atomic builtin {what} ({t} invalid)"),
            );
            return Some(Expr::error(span));
        };
        // The value type: the pointee without qualifiers or address space.
        let value = QualType::new(pointee.id);
        let mut out = vec![addr];
        let mut failed = false;
        for a in args {
            let at = a.span;
            let c = self.assign_convert(value, value, a, Action::Passing, at);
            failed |= c.is_error();
            out.push(c);
        }
        if name.as_str().contains("nand") {
            let rparen = super::call::arity_at(&[], 0, span);
            self.emit(
                Diagnostic::warning(
                    rparen,
                    "the semantics of this intrinsic changed with GCC version 4.4 - the newer semantics are provided here",
                )
                .with_group("sync-fetch-and-nand-semantics-changed"),
            );
        }
        if failed {
            return Some(Expr::error(span));
        }
        let ty = match shape {
            Shape::Rmw | Shape::ValCas => value,
            Shape::BoolCas => QualType::new(TypeTable::BOOL),
            Shape::Release => QualType::new(TypeTable::VOID),
        };
        let builtin = Self::gnu_ref(id, name);
        Some(self.mk(ExprKind::BuiltinCall { builtin, args: out }, ty, span))
    }
}
