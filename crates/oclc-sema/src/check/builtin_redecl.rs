//! User functions named like an OpenCL builtin, as clang-19 treats them with its default
//! header (where every builtin is an `overloadable` declaration in `opencl-c.h`):
//! - one whose parameters match a builtin overload redeclares it: it needs the `overloadable`
//!   attribute ("redeclaration of 'X' must have the 'overloadable' attribute"), the same
//!   return type ("conflicting types for 'X'") and no `static` ("static declaration of 'X'
//!   follows non-static declaration"); a valid one defines that builtin, and calls that
//!   resolve to the overload run its body;
//! - one with other parameters is a new overload; at most one of them may lack the
//!   attribute. A call takes it when the arguments match its parameters exactly, or when no
//!   builtin overload is viable; otherwise the builtin.
//!
//! A prototype (no body, no attribute) repeating a builtin's declaration exactly is accepted
//! as a declaration of that builtin unless `-finclude-default-header` was given: clang's own
//! tests, run without the default header, declare builtins that way.
//!
//! Such functions are not bound in scope: a call of the name goes through builtin overload
//! resolution, which consults [`UserOverloads`]. The first one keeps its name in the HIR; the
//! others get `name.N` so lowering (which links declarations to definitions by name) keeps
//! them apart.

use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use super::conv::Action;
use crate::builtins::ty::same_canon;
use crate::builtins::{BTy, OverloadId};
use crate::fxhash::FxHashMap;
use crate::hir::{self, CastKind, Expr, ExprKind, FuncId};
use crate::types::FnSig;

/// One user function named like a builtin.
#[derive(Clone, Debug)]
struct UserOverload {
    fid: FuncId,
    params: Vec<BTy>,
    ret: BTy,
    /// Declared `__attribute__((overloadable))` (every declaration so far).
    overloadable: bool,
    /// The first declaration's name.
    span: Span,
    /// Where it was defined (for "redefinition").
    defined: Option<Span>,
    /// The builtin overload it defines, if its parameters match one.
    builtin: Option<OverloadId>,
}

/// The user functions of this translation unit that take builtin names.
#[derive(Default, Debug)]
pub(crate) struct UserOverloads {
    by_name: FxHashMap<Symbol, Vec<UserOverload>>,
}

/// What a function declaration passes to [`Checker::builtin_named_function`].
pub(crate) struct FnDecl<'a> {
    pub name: Symbol,
    pub span: Span,
    pub sig: &'a FnSig,
    pub ty: crate::types::QualType,
    pub overloadable: bool,
    pub is_static: bool,
    pub is_kernel: bool,
    pub definition: bool,
    pub params: Vec<hir::VarId>,
}

impl Checker<'_> {
    /// Whether a function named `name` is subject to this module's rules: a plain builtin of
    /// opencl-c.h in this language mode (not one clang checks by hand, nor `__builtin_*`).
    pub(crate) fn is_header_builtin(&self, name: Symbol) -> bool {
        self.builtins
            .lookup(name)
            .is_some_and(|id| self.builtins.special(id).is_none())
    }

    /// Declares a user function named like a builtin (see the module comment); its FuncId,
    /// or `None` when the declaration is invalid (the error is reported).
    pub(crate) fn builtin_named_function(&mut self, d: FnDecl<'_>) -> Option<FuncId> {
        let name = d.name;
        let id = self.builtins.lookup(name)?;
        let params: Vec<BTy> = d.sig.params.iter().map(|p| self.to_bty(*p)).collect();
        let ret = self.to_bty(d.sig.ret);
        let matching = self.builtins.overloads(id).find(|&o| {
            let s = self.builtins.signature(o);
            !s.variadic
                && s.params().len() == params.len()
                && s.params()
                    .iter()
                    .zip(&params)
                    .all(|(a, b)| same_canon(*a, *b))
        });
        let mut bad = false;
        if let Some(o) = matching {
            let bret = self.builtins.signature(o).ret;
            // A prototype repeating a builtin's declaration exactly: clang without the
            // default header (its SemaOpenCL tests) takes it as a plain declaration, clang
            // with it (`-finclude-default-header`) wants `overloadable`. oclc always has the
            // builtins, so the flag tells the two apart.
            if !self.lang.default_header
                && !d.definition
                && !d.overloadable
                && !d.is_static
                && same_canon(bret, ret)
            {
                return None;
            }
            if d.is_static {
                self.emit(
                    Diagnostic::error(
                        d.span,
                        format!("static declaration of '{name}' follows non-static declaration"),
                    )
                    .with_note(Span::DUMMY, "previous declaration is here"),
                );
                bad = true;
            } else {
                if !d.overloadable {
                    self.emit(
                        Diagnostic::error(
                            d.span,
                            format!(
                                "redeclaration of '{name}' must have the 'overloadable' attribute"
                            ),
                        )
                        .with_note(Span::DUMMY, "previous overload of function is here"),
                    );
                    bad = true;
                }
                if !same_canon(bret, ret) {
                    self.emit(
                        Diagnostic::error(d.span, format!("conflicting types for '{name}'"))
                            .with_note(Span::DUMMY, "previous declaration is here"),
                    );
                    bad = true;
                }
            }
        }
        let existing = self.user_overloads.by_name.get(&name).and_then(|v| {
            v.iter()
                .position(|u| {
                    u.params.len() == params.len()
                        && u.params
                            .iter()
                            .zip(&params)
                            .all(|(a, b)| same_canon(*a, *b))
                })
                .map(|i| (i, v[i].clone()))
        });
        if !bad && let Some((_, prev)) = &existing {
            if !same_canon(prev.ret, ret) {
                self.err(d.span, format!("conflicting types for '{name}'"));
                self.note_last(prev.span, "previous declaration is here");
                bad = true;
            } else if d.definition
                && let Some(ps) = prev.defined
            {
                self.err(d.span, format!("redefinition of '{name}'"));
                self.note_last(ps, "previous definition is here");
                bad = true;
            }
        }
        if !bad
            && existing.is_none()
            && matching.is_none()
            && !d.overloadable
            && let Some(prev) = self
                .user_overloads
                .by_name
                .get(&name)
                .and_then(|v| v.iter().find(|u| !u.overloadable && u.builtin.is_none()))
        {
            let ps = prev.span;
            self.err(
                d.span,
                "at most one overload for a given name may lack the 'overloadable' attribute",
            );
            self.note_last(ps, "previous unmarked overload of function is here");
            bad = true;
        }
        if bad {
            return None;
        }
        if let Some((i, prev)) = existing {
            let fid = prev.fid;
            if let Some(f) = self.prog.functions.get_mut(fid.0 as usize) {
                f.ty = d.ty.id;
                f.params = d.params;
                f.is_kernel |= d.is_kernel;
                if d.definition {
                    f.span = d.span;
                }
            }
            if let Some(u) = self
                .user_overloads
                .by_name
                .get_mut(&name)
                .and_then(|v| v.get_mut(i))
            {
                u.overloadable &= d.overloadable;
                if d.definition {
                    u.defined = Some(d.span);
                }
            }
            return Some(fid);
        }
        let count = self.user_overloads.by_name.get(&name).map_or(0, Vec::len);
        let hir_name = if count == 0 {
            name
        } else {
            Symbol::intern(&format!("{name}.{count}"))
        };
        let fid = FuncId(self.prog.functions.len() as u32);
        self.prog.functions.push(hir::Function {
            name: hir_name,
            ty: d.ty.id,
            ret: d.sig.ret,
            params: d.params,
            is_kernel: d.is_kernel,
            body: None,
            span: d.span,
            reqd_work_group_size: None,
            work_group_size_hint: None,
            vec_type_hint: None,
        });
        self.user_overloads
            .by_name
            .entry(name)
            .or_default()
            .push(UserOverload {
                fid,
                params,
                ret,
                overloadable: d.overloadable,
                span: d.span,
                defined: d.definition.then_some(d.span),
                builtin: matching,
            });
        Some(fid)
    }

    /// A call of builtin `name` with checked rvalue `args` when user functions take the name:
    /// the user function whose parameters the arguments match exactly, if any.
    pub(crate) fn user_overload_exact(&self, name: Symbol, args: &[Expr]) -> Option<FuncId> {
        let users = self.user_overloads.by_name.get(&name)?;
        let arg_tys: Vec<BTy> = args.iter().map(|a| self.to_bty(a.ty)).collect();
        users
            .iter()
            .find(|u| {
                u.builtin.is_none()
                    && u.params.len() == arg_tys.len()
                    && u.params
                        .iter()
                        .zip(&arg_tys)
                        .all(|(p, a)| same_canon(*p, *a))
            })
            .map(|u| u.fid)
    }

    /// The user function defining builtin overload `o` of `name`, if one does.
    pub(crate) fn user_definition_of(&self, name: Symbol, o: OverloadId) -> Option<FuncId> {
        self.user_overloads
            .by_name
            .get(&name)?
            .iter()
            .find(|u| u.builtin == Some(o))
            .map(|u| u.fid)
    }

    /// When no builtin overload is viable: the one user function of `name` (not defining a
    /// builtin) taking `n` arguments, if there is exactly one.
    pub(crate) fn user_overload_by_arity(&self, name: Symbol, n: usize) -> Option<FuncId> {
        let users = self.user_overloads.by_name.get(&name)?;
        let mut it = users
            .iter()
            .filter(|u| u.builtin.is_none() && u.params.len() == n);
        let first = it.next()?;
        it.next().is_none().then_some(first.fid)
    }

    /// A call of user function `fid` with checked rvalue arguments, converted as a C call
    /// converts them (the first argument that does not convert ends the check, as clang).
    pub(crate) fn call_user_function(&mut self, fid: FuncId, args: Vec<Expr>, span: Span) -> Expr {
        let Some(f) = self.prog.function(fid) else {
            return Expr::error(span);
        };
        let Some(sig) = self
            .prog
            .types
            .fn_sig(crate::types::QualType::new(f.ty))
            .cloned()
        else {
            return Expr::error(span);
        };
        let mut out = Vec::with_capacity(args.len());
        for (a, &p) in args.into_iter().zip(sig.params.iter()) {
            let a = match a.kind {
                ExprKind::Cast(CastKind::LValueToRValue | CastKind::ArrayToPointer, x) => *x,
                _ => a,
            };
            let at = a.span;
            let dst = p.with_space(None);
            let c = self.assign_convert(p, dst, a, Action::Passing, at);
            if c.is_error() {
                return Expr::error(span);
            }
            out.push(c);
        }
        let ret = sig.ret.unqualified();
        self.mk(
            ExprKind::Call {
                callee: fid,
                args: out,
            },
            ret,
            span,
        )
    }
}

/// Whether a declaration's attributes (specifiers and after the declarator) include
/// `overloadable`.
pub(crate) fn has_overloadable(
    specs: &oclc_syntax::ast::DeclSpecs,
    declarator: &oclc_syntax::ast::Declarator,
) -> bool {
    use oclc_syntax::ast::DeclSpecKind;
    let is_it = |a: &oclc_syntax::ast::Attribute| {
        a.name
            .name
            .as_str()
            .trim_start_matches("__")
            .trim_end_matches("__")
            == "overloadable"
    };
    specs.attributes().any(is_it)
        || declarator.attrs.iter().any(|d| match &d.kind {
            DeclSpecKind::Attr(a) => is_it(a),
            _ => false,
        })
}
