//! The checker: walks the AST in source order, resolves names, computes types, applies the
//! OpenCL C rules (address spaces through [`crate::space`]) and builds the [`hir::Program`],
//! reporting clang-worded diagnostics.
//!
//! Split by what it checks: [`decl`] (specifiers, declarators, declarations, functions),
//! [`record`] (structs, unions, enums), [`kernel`] (kernel parameters), [`call`] (calls),
//! [`builtin_call`] (the builtin table), [`init`] (initializers),
//! [`expr`] (expressions), [`conv`] (conversions and assignment compatibility), [`stmt`]
//! (statements), [`consteval`] (integer constant expressions), [`predef`] (predeclared OpenCL
//! names), [`scope`] (name lookup).

pub mod access;
pub mod asm;
pub mod attrs;
pub mod builtin_call;
pub mod builtin_redecl;
pub mod call;
pub mod constconv;
pub mod consteval;
pub mod conv;
pub mod decl;
pub mod expr;
pub mod flow;
pub mod format;
pub mod gnu_atomic;
pub mod gnu_builtin;
pub mod gnu_expr;
pub mod init;
pub mod kernel;
pub mod linkage;
pub mod parens;
pub mod pragmas;
pub mod predef;
pub mod record;
pub mod scope;
pub mod stmt;
pub mod stmt_expr;
pub mod sync_atomic;
pub mod typo;
pub mod unused;

use std::collections::HashMap;

use oclc_syntax::ast;
use oclc_syntax::{Diagnostic, Diagnostics, LangOptions, SourceMap, Span, Symbol};

use crate::hir::{self, Program};
use crate::types::QualType;
use scope::Scopes;

/// Warning groups sema emits that clang leaves off by default (`-W<group>` turns one on).
pub const DEFAULT_OFF_GROUPS: &[&str] = &[
    "conversion",
    "spir-compat",
    "pedantic-core-features",
    "logical-op-parentheses",
    "bitwise-op-parentheses",
    "unknown-pragmas-off",
];

/// Warning groups of language extensions that clang shows only with `-pedantic`.
pub const PEDANTIC_GROUPS: &[&str] = &[
    "extra-semi",
    "static-in-inline-quiet",
    "gnu-imaginary-constant",
];

/// Deepest expression/statement nesting checked before giving up with a diagnostic: above the
/// parser's own limit (4096), so it only bounds recursion on ASTs built by other means.
pub const MAX_DEPTH: u32 = 4200;

/// Checks a translation unit and returns the typed program. Diagnostics go to `diags`.
///
/// Recursion follows the AST's nesting, bounded by [`MAX_DEPTH`] (just above the parser's
/// limit); for inputs near that limit run it on a thread with a large stack, as the driver does
/// (256 MiB).
pub fn check(
    tu: &ast::TranslationUnit,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
) -> Program {
    check_with(tu, sm, lang, diags, Bodies::Keep)
}

/// Whether the checked program keeps its function bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bodies {
    /// Every function's [`hir::Function::body`] is kept (to lower or analyse the program).
    Keep,
    /// Each body is freed once checked (`body` stays `None`): a caller that only wants the
    /// diagnostics reuses the memory for the next function instead of growing the heap.
    Discard,
}

/// [`check`], keeping or discarding function bodies.
pub fn check_with(
    tu: &ast::TranslationUnit,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
    bodies: Bodies,
) -> Program {
    let mut c = Checker::new(sm, lang, diags);
    c.bodies = bodies;
    for item in &tu.items {
        c.external_decl(item);
    }
    c.finish()
}

/// Where a top-level item starts.
fn item_span(item: &ast::ExternalDecl) -> Span {
    match item {
        ast::ExternalDecl::FunctionDef(f) => f.span,
        ast::ExternalDecl::Decl(d) => d.span,
        ast::ExternalDecl::StaticAssert(sa) => sa.span,
        ast::ExternalDecl::Empty(s) => *s,
        ast::ExternalDecl::Pragma(p) => p.span,
        ast::ExternalDecl::Dropped(d) => d.span,
    }
}

/// [`check`] over batches of top-level items as they arrive (from a parser running on another
/// thread); each batch is handed to `done` once checked.
pub fn check_items(
    batches: impl IntoIterator<Item = Vec<ast::ExternalDecl>>,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
    bodies: Bodies,
    mut done: impl FnMut(Vec<ast::ExternalDecl>),
) -> Program {
    let mut c = Checker::new(sm, lang, diags);
    c.bodies = bodies;
    for batch in batches {
        for item in &batch {
            c.external_decl(item);
        }
        done(batch);
    }
    c.finish()
}

/// A checker fed one top-level item at a time (by a parser on the same thread, say):
/// [`check_items`] without the batches.
pub struct ItemChecker<'a>(Checker<'a>);

impl<'a> ItemChecker<'a> {
    pub fn new(
        sm: &'a SourceMap,
        lang: &LangOptions,
        diags: &'a mut Diagnostics,
        bodies: Bodies,
    ) -> Self {
        let mut c = Checker::new(sm, lang, diags);
        c.bodies = bodies;
        ItemChecker(c)
    }

    /// Checks the next top-level item.
    pub fn item(&mut self, item: &ast::ExternalDecl) {
        self.0.external_decl(item);
    }

    /// The checked program.
    pub fn finish(self) -> Program {
        self.0.finish()
    }
}

/// The function being checked.
#[derive(Clone, Debug)]
pub(crate) struct FnCtx {
    pub name: Symbol,
    pub is_kernel: bool,
    pub ret: QualType,
    /// Block nesting inside the body: 1 is the outermost compound statement.
    pub block_depth: u32,
    /// The function's id (none after an invalid declaration).
    pub id: Option<hir::FuncId>,
}

/// State of one check.
pub(crate) struct Checker<'a> {
    pub sm: &'a SourceMap,
    pub lang: LangOptions,
    pub diags: &'a mut Diagnostics,
    pub prog: Program,
    pub scopes: Scopes,
    pub func: Option<FnCtx>,
    /// Extensions switched by `#pragma OPENCL EXTENSION` (name → enabled).
    pub pragma_ext: HashMap<String, bool>,
    /// Current expression nesting (bounded by [`MAX_DEPTH`]).
    pub depth: u32,
    pub depth_reported: bool,
    /// Loop/switch nesting for `break`/`continue`.
    pub loop_depth: u32,
    pub switch_depth: u32,
    /// Functions that have a body, by name (for redefinition errors).
    pub defined: HashMap<Symbol, Span>,
    /// Open `switch` statements' case values (duplicate detection).
    pub switch_cases: Vec<stmt::SwitchCases>,
    /// Labels and `goto`s of the function being checked.
    pub labels: HashMap<Symbol, Span>,
    pub gotos: Vec<oclc_syntax::ast::Ident>,
    /// The predeclared vector typedef (`float4`) of each vector type, and the other
    /// predeclared typedefs by name: the names clang prints for builtin types.
    pub vec_typedefs: crate::fxhash::FxHashMap<crate::types::TypeId, QualType>,
    pub named_typedefs: crate::fxhash::FxHashMap<&'static str, QualType>,
    /// The empty name of unnamed parameters.
    pub empty_sym: Symbol,
    /// `__builtin_trap` and `__builtin_unreachable`, the builtins that do not return.
    pub noreturn_builtins: [Symbol; 2],
    /// Checking the operand of `&` (for -Warray-bounds, which allows `&a[n]`).
    pub in_addr_of: bool,
    /// The builtin function library of this language mode.
    pub builtins: crate::builtins::Builtins,
    /// Where each variable's declaration starts (its first specifier), for clang's notes
    /// that point there.
    pub var_starts: crate::fxhash::FxHashMap<hir::VarId, Span>,
    /// The function body's "possibly unreachable" warnings (-Warray-bounds,
    /// -Wdivision-by-zero), which clang emits when the function is finished.
    pub deferred: Vec<Diagnostic>,
    /// Those of the last function: clang emits them once it has read the token after the
    /// body (so after a `#warning` between two functions), i.e. when the next item starts.
    pub fn_end: Vec<Diagnostic>,
    /// The last top-level item's span (the end-of-file flush of [`Checker::fn_end`]).
    pub last_item: Span,
    /// Typo corrections attempted (clang stops at `-fspell-checking-limit`).
    pub typo_attempts: u32,
    /// The variable whose initializer is being checked (never its own typo correction).
    pub initializing: Option<Symbol>,
    /// Undeclared identifiers (name, where, correction) whose errors wait for the end of
    /// their full expression.
    pub pending_typos: Vec<(Symbol, Span, Option<typo::Correction>)>,
    /// Statement expressions, jumps and loops of the function being checked.
    pub(crate) se: stmt_expr::StmtExprCx,
    /// User functions named like builtins.
    pub(crate) user_overloads: builtin_redecl::UserOverloads,
    /// User functions declared `__attribute__((overloadable))`, and the overload sets of the
    /// names with more than one such signature (calls pick one by their arguments).
    pub(crate) overloadable_fns: std::collections::HashSet<hir::FuncId>,
    pub(crate) fn_overloads: crate::fxhash::FxHashMap<Symbol, Vec<hir::FuncId>>,
    /// Definitions of overloaded functions (their names are defined more than once).
    pub(crate) overload_defined: crate::fxhash::FxHashMap<hir::FuncId, Span>,
    /// Reachability of the function body being checked, and its held warnings.
    pub(crate) flow: flow::Flow,
    /// Conversion warnings of the full expression being checked (see
    /// [`Checker::warn_conversion`]).
    pub(crate) full_expr_warnings: Vec<(Diagnostic, Option<flow::Reach>)>,
    /// The context clang underlines for a conversion of an argument (the callee) or of a
    /// `return` value (the keyword), and of an initializer-list element (its `{`).
    pub(crate) conv_cc: Option<Span>,
    /// Linkage facts of declared functions, and the program-scope `static` variables.
    pub(crate) fn_links: crate::fxhash::FxHashMap<hir::FuncId, linkage::FnLink>,
    /// Some function of `fn_links` is `inline` with external linkage (once so, always so):
    /// without one, a name's use needs no look in `fn_links`.
    pub(crate) any_inline_external: bool,
    /// Functions used in evaluated code, each with its first use, in order of first use
    /// (clang's `UndefinedButUsed`), and the functions that have a body.
    pub(crate) fn_uses: linkage::FnUses,
    pub(crate) internal_vars: std::collections::HashSet<hir::VarId>,
    /// Names `#pragma OPENCL EXTENSION name : begin` made known.
    pub(crate) begun_exts: std::collections::HashSet<String>,
    pub(crate) list_cc: Option<Span>,
    /// `const`/`pure`/`warn_unused_result` attributes of declared functions.
    pub(crate) func_attrs: crate::fxhash::FxHashMap<hir::FuncId, unused::CallAttrs>,
    /// Nesting of unevaluated operands (`sizeof`, `vec_step`, `_Alignof`, `typeof`).
    pub unevaluated: u32,
    /// Whether checked function bodies are kept in the program.
    pub bodies: Bodies,
    /// While a K&R definition's declarator is checked: the types its parameter declarations
    /// give (see `decl::kr_params`).
    pub kr_decls: Option<Vec<(Symbol, QualType)>>,
    /// While a definition's declarator is checked: just past its body's `{`, where clang
    /// builds the function's type (and reports what is wrong with it).
    pub def_open: Option<Span>,
    /// The type-generic atomic builtins called so far: clang declares a builtin on its first
    /// call, and only then offers it as a typo correction.
    atomics_called: Vec<Symbol>,
}

impl<'a> Checker<'a> {
    fn new(sm: &'a SourceMap, lang: &LangOptions, diags: &'a mut Diagnostics) -> Checker<'a> {
        let mut c = Checker {
            sm,
            lang: lang.clone(),
            diags,
            prog: Program::default(),
            scopes: Scopes::default(),
            func: None,
            pragma_ext: HashMap::new(),
            depth: 0,
            depth_reported: false,
            loop_depth: 0,
            switch_depth: 0,
            defined: HashMap::new(),
            in_addr_of: false,
            vec_typedefs: Default::default(),
            named_typedefs: Default::default(),
            empty_sym: Symbol::intern(""),
            noreturn_builtins: [
                Symbol::intern("__builtin_trap"),
                Symbol::intern("__builtin_unreachable"),
            ],
            switch_cases: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
            builtins: crate::builtins::Builtins::new(lang),
            var_starts: Default::default(),
            deferred: Vec::new(),
            fn_end: Vec::new(),
            last_item: Span::DUMMY,
            typo_attempts: 0,
            initializing: None,
            pending_typos: Vec::new(),
            se: Default::default(),
            user_overloads: Default::default(),
            overloadable_fns: Default::default(),
            fn_overloads: Default::default(),
            overload_defined: Default::default(),
            flow: flow::Flow::default(),
            full_expr_warnings: Vec::new(),
            func_attrs: Default::default(),
            conv_cc: None,
            fn_links: Default::default(),
            any_inline_external: false,
            fn_uses: Default::default(),
            internal_vars: Default::default(),
            begun_exts: Default::default(),
            list_cc: None,
            unevaluated: 0,
            bodies: Bodies::Keep,
            kr_decls: None,
            def_open: None,
            atomics_called: Vec::new(),
        };
        c.prog.types.set_target(lang.target);
        c.predeclare();
        c
    }

    fn finish(mut self) -> Program {
        self.flush_typos(None);
        // After everything in the main file (the end of file is read first).
        let end = Span {
            lo: u32::MAX,
            hi: u32::MAX,
            expn: oclc_syntax::source::ExpnId::NONE,
            ..self.sm.report_span(self.last_item)
        };
        self.flush_fn_end(end);
        self.undefined_but_used(end);
        self.prog.static_functions = self
            .fn_links
            .iter()
            .filter(|(_, l)| l.is_static)
            .map(|(f, _)| *f)
            .collect();
        self.prog.inline_functions = self
            .fn_links
            .iter()
            .filter(|(_, l)| l.inline && !l.is_static)
            .map(|(f, _)| *f)
            .collect();
        self.prog.static_vars = std::mem::take(&mut self.internal_vars);
        self.prog
    }

    /// Emits the last function's end-of-function warnings as emitted at `at`.
    fn flush_fn_end(&mut self, at: Span) {
        for d in std::mem::take(&mut self.fn_end) {
            self.diags.push(d.emitted_at(at));
        }
    }

    fn external_decl(&mut self, item: &ast::ExternalDecl) {
        let start = item_span(item);
        if !self.fn_end.is_empty() {
            self.flush_fn_end(start);
        }
        self.last_item = start;
        self.external_decl_inner(item);
        self.flush_typos(Some(start));
        self.end_full_expr();
    }

    fn external_decl_inner(&mut self, item: &ast::ExternalDecl) {
        match item {
            ast::ExternalDecl::FunctionDef(f) => self.function_def(f),
            ast::ExternalDecl::Decl(d) => {
                let _ = self.declaration(d, decl::DeclPlace::File);
            }
            ast::ExternalDecl::StaticAssert(sa) => self.static_assert(sa),
            ast::ExternalDecl::Empty(span) => {
                // An extension warning: shown only under -pedantic (see PEDANTIC_GROUPS).
                self.warn(*span, "extra ';' outside of a function", "extra-semi")
            }
            ast::ExternalDecl::Pragma(p) => self.pragma(p),
            ast::ExternalDecl::Dropped(d) => self.dropped_params(d),
        }
    }

    /// `#pragma OPENCL EXTENSION name : enable|disable` switches an extension from here on.
    pub(crate) fn pragma(&mut self, p: &ast::PragmaItem) {
        self.opencl_extension_pragma(p);
        if let ast::PragmaKind::OpenclExtension { name, enable, .. } = &p.kind {
            if name == "all" {
                for e in oclc_syntax::lang::EXTENSIONS {
                    self.pragma_ext.insert((*e).to_string(), *enable);
                }
            } else {
                self.pragma_ext.insert(name.clone(), *enable);
            }
        }
    }

    /// Whether an extension is usable here: supported by `-cl-ext` and not disabled by a
    /// pragma. `cl_khr_fp16` must also be enabled by a pragma, as clang requires for `half`.
    pub(crate) fn ext(&self, name: &str) -> bool {
        // clang's own extensions are supported on every target but, like `cl_khr_fp16`,
        // take effect only once a pragma enables them (`-cl-ext` alone is not enough).
        if name.starts_with("__cl_clang_") {
            return self.pragma_ext.get(name).copied().unwrap_or(false);
        }
        if name == "cl_khr_fp16" {
            return self.lang.has(name) && self.pragma_ext.get(name).copied().unwrap_or(false);
        }
        self.lang.has(name)
    }

    // ---- diagnostics ----

    pub(crate) fn emit(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub(crate) fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    pub(crate) fn warn(&mut self, span: Span, msg: impl Into<String>, group: &'static str) {
        self.diags
            .push(Diagnostic::warning(span, msg).with_group(group));
    }

    /// Attaches a note to the last diagnostic (clang prints notes after their diagnostic).
    pub(crate) fn note_last(&mut self, span: Span, msg: impl Into<String>) {
        if let Some(d) = self.diags.list.last_mut() {
            d.notes.push(oclc_syntax::Note::new(span, msg));
        }
    }

    /// Enters one level of recursion; false (with one diagnostic) past [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self, span: Span) -> bool {
        if self.depth >= MAX_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.err(span, "expression nesting is too deep for the checker");
            }
            return false;
        }
        self.depth += 1;
        true
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The source text of a span (for clang messages that quote an expression).
    pub(crate) fn snippet(&self, span: Span) -> String {
        let s = self.sm.report_span(span);
        let Some(f) = self.sm.file(s.file) else {
            return String::new();
        };
        let bytes = f.text.get(s.lo as usize..s.hi as usize).unwrap_or(b"");
        String::from_utf8_lossy(bytes).into_owned()
    }

    fn static_assert(&mut self, sa: &ast::StaticAssert) {
        let e = self.expr(&sa.cond);
        if e.is_error() {
            return;
        }
        match self.const_int(&e) {
            Some(0) => {
                let msg = match &sa.message {
                    Some(ast::Expr {
                        kind: ast::ExprKind::StrLit(s),
                        ..
                    }) => {
                        format!(
                            "static assertion failed: {}",
                            String::from_utf8_lossy(&s.value)
                        )
                    }
                    _ => "static assertion failed".to_string(),
                };
                self.err(sa.cond.span, msg);
            }
            Some(_) => {}
            None => self.err(
                sa.cond.span,
                "static assertion expression is not an integral constant expression",
            ),
        }
    }

    /// A predeclared typedef by name (`size_t`, `uint`, ...), or `fallback`.
    pub(crate) fn predef_named(&self, name: &str, fallback: QualType) -> QualType {
        self.named_typedefs.get(name).copied().unwrap_or(fallback)
    }

    /// The predeclared vector typedef (`float4`) for a vector type, or the type itself.
    pub(crate) fn vector_named(&self, v: QualType) -> QualType {
        let c = self.prog.types.canonical(v).id;
        self.vec_typedefs.get(&c).copied().unwrap_or(v)
    }

    pub(crate) fn new_var(&mut self, v: hir::Var) -> hir::VarId {
        self.prog.vars.push(v);
        hir::VarId(self.prog.vars.len() as u32 - 1)
    }
}
