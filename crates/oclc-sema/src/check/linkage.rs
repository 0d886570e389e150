//! clang's C99 inline-definition warnings. An `inline` function with external linkage may be
//! replaced by another unit's definition, so what it refers to must not be unit-local:
//!
//! - "static function 'f' is used in an inline function with external linkage"
//!   [-Wstatic-in-inline] (also for a `static` variable): on by default where the use is in
//!   an included file and the function used is not itself `inline` or `const`; a `-pedantic`
//!   extension in the main file;
//! - "non-constant static local variable in inline function may be different in different
//!   files" [-Wstatic-local-in-inline];
//!
//! with the note "use 'static' to give inline function 'g' internal linkage" (a `static `
//! fix-it at the function's first declaration, when that has no storage class) and, for the
//! first, "'f' declared here".
//!
//! At the end of the unit, clang's `checkUndefinedButUsed`: a function used in evaluated code
//! but never defined "has internal linkage but is not defined" [-Wundefined-internal] when
//! `static`, "inline function 'f' is not defined" [-Wundefined-inline] when `inline`, each
//! with the note "used here" at its first use.

use oclc_syntax::ast::{self, DeclSpecKind, FuncSpec, StorageClass};
use oclc_syntax::{Diagnostic, Note, Span};

use super::Checker;
use super::scope::Binding;
use crate::fxhash::FxHashSet;
use crate::hir::{FuncId, VarId};

/// What the inline rules need of a function, from all its declarations.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FnLink {
    /// Declared `static`: internal linkage.
    pub is_static: bool,
    /// Declared `inline` somewhere.
    pub inline: bool,
    /// Where its first declaration starts, and whether that one has a storage class.
    pub first_begin: Span,
    pub first_storage: bool,
    /// The name in its first declaration.
    pub name_span: Span,
    /// Declared with `__attribute__((const))`.
    pub is_const: bool,
}

/// The functions used in evaluated code (first use, in order) and those defined.
#[derive(Default)]
pub(crate) struct FnUses {
    first: Vec<(FuncId, Span)>,
    seen: FxHashSet<FuncId>,
    defined: FxHashSet<FuncId>,
}

impl FnUses {
    /// A use of `f` at `at` outside `sizeof` and friends.
    pub(crate) fn used(&mut self, f: FuncId, at: Span) {
        if self.seen.insert(f) {
            self.first.push((f, at));
        }
    }

    /// `f` has a body.
    pub(crate) fn defined(&mut self, f: FuncId) {
        self.defined.insert(f);
    }
}

impl Checker<'_> {
    /// clang's `checkUndefinedButUsed`, emitted (for ordering) at the unit's end `end`.
    pub(crate) fn undefined_but_used(&mut self, end: Span) {
        let uses = std::mem::take(&mut self.fn_uses);
        for (f, at) in uses.first {
            if uses.defined.contains(&f) {
                continue;
            }
            let (Some(l), Some(func)) = (self.fn_links.get(&f), self.prog.function(f)) else {
                continue;
            };
            let (msg, group) = if l.is_static {
                (
                    format!(
                        "function '{}' has internal linkage but is not defined",
                        func.name
                    ),
                    "undefined-internal",
                )
            } else if l.inline {
                (
                    format!("inline function '{}' is not defined", func.name),
                    "undefined-inline",
                )
            } else {
                continue;
            };
            let d = Diagnostic::warning(l.name_span, msg)
                .with_group(group)
                .with_note(at, "used here")
                .emitted_at(end);
            self.diags.push(d);
        }
    }

    /// Records one declaration of function `f`.
    pub(crate) fn record_fn_link(
        &mut self,
        f: FuncId,
        specs: &ast::DeclSpecs,
        d: &ast::Declarator,
        name_span: Span,
    ) {
        let storage = specs.storage().next().map(|(s, _)| s);
        let inline = specs
            .items
            .iter()
            .any(|s| matches!(s.kind, DeclSpecKind::Func(FuncSpec::Inline)));
        let begin = if specs.span.is_dummy() {
            d.span.start()
        } else {
            specs.span.start()
        };
        let is_const = self.func_attrs.get(&f).is_some_and(|a| a.is_const);
        let e = self.fn_links.entry(f).or_insert(FnLink {
            is_static: storage == Some(StorageClass::Static),
            inline: false,
            first_begin: begin,
            first_storage: storage.is_some(),
            name_span,
            is_const,
        });
        e.inline |= inline;
        e.is_const |= is_const;
        // `is_static` is set once and `inline` only ever turns on.
        self.any_inline_external |= e.inline && !e.is_static;
    }

    /// Records a program-scope `static` variable (internal linkage).
    pub(crate) fn record_internal_var(&mut self, v: VarId) {
        self.internal_vars.insert(v);
    }

    /// The function being checked, when it is `inline` with external linkage (a C99 inline
    /// definition).
    fn inline_external(&self) -> Option<(FuncId, FnLink)> {
        if !self.any_inline_external {
            return None;
        }
        let f = self.func.as_ref()?.id?;
        let l = *self.fn_links.get(&f)?;
        (l.inline && !l.is_static).then_some((f, l))
    }

    /// "use 'static' to give inline function 'g' internal linkage", where it applies.
    fn static_note(&self, f: FuncId, l: FnLink) -> Option<Note> {
        if l.first_storage {
            return None;
        }
        let name = self.prog.function(f)?.name;
        Some(
            Note::new(
                l.first_begin,
                format!("use 'static' to give inline function '{name}' internal linkage"),
            )
            .with_fixit(l.first_begin, "static "),
        )
    }

    /// A use of a name at `at`: an internal-linkage function or variable used in an inline
    /// function with external linkage (clang's `diagnoseUseOfInternalDeclInInlineFunction`).
    pub(crate) fn check_internal_use(&mut self, b: &Binding, at: Span) {
        let Some((cur, cur_link)) = self.inline_external() else {
            return;
        };
        let (what, name, decl_span, quiet_target) = match b {
            Binding::Func(f) => {
                let Some(l) = self.fn_links.get(f).copied() else {
                    return;
                };
                if !l.is_static {
                    return;
                }
                let Some(func) = self.prog.function(*f) else {
                    return;
                };
                ("function", func.name, l.name_span, l.inline || l.is_const)
            }
            Binding::Var(v) => {
                if !self.internal_vars.contains(v) {
                    return;
                }
                let Some(var) = self.prog.var(*v) else {
                    return;
                };
                ("variable", var.name, var.span, false)
            }
            _ => return,
        };
        // In the main file (or for an inline or `const` function) it is only an extension.
        let main = self.sm.files().next().map(|(id, _)| id);
        let in_main = Some(self.sm.report_span(at).file) == main;
        let group = if in_main || quiet_target {
            "static-in-inline-quiet"
        } else {
            "static-in-inline"
        };
        let mut d = Diagnostic::warning(
            at,
            format!("static {what} '{name}' is used in an inline function with external linkage"),
        )
        .with_group(group);
        if let Some(n) = self.static_note(cur, cur_link) {
            d = d.with_full_note(n);
        }
        d = d.with_note(decl_span, format!("'{name}' declared here"));
        self.emit(d);
    }

    /// A `static` local (not `const`) in an inline function with external linkage, declared
    /// with its storage class at `at`.
    pub(crate) fn static_local_in_inline(&mut self, at: Span) {
        let Some((cur, cur_link)) = self.inline_external() else {
            return;
        };
        let mut d = Diagnostic::warning(
            at,
            "non-constant static local variable in inline function may be different in different files",
        )
        .with_group("static-local-in-inline");
        if let Some(n) = self.static_note(cur, cur_link) {
            d = d.with_full_note(n);
        }
        self.emit(d);
    }
}
