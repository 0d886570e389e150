//! Declarations: the translation unit, declaration groups and function definitions, following
//! clang's `ParseDecl.cpp` and `Parser.cpp`. Specifiers, tags and declarators have their own
//! modules.

use super::core::{NameKind, Parser, Skip};
use super::keywords::Kw;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::intern::kw;
use crate::lang::ClStd;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

/// Where a declaration appears; decides whether a name may be omitted and which diagnostics
/// apply, as clang's `DeclaratorContext`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    File,
    Block,
    ForInit,
    Member,
    Param,
    TypeName,
}

impl Ctx {
    pub(crate) fn may_omit_name(self) -> bool {
        matches!(self, Ctx::Param | Ctx::TypeName)
    }
}

/// The OpenCL version as clang names it in "does not support" diagnostics.
pub(crate) fn version_string(std: ClStd) -> &'static str {
    match std {
        ClStd::Cl10 => "OpenCL C version 1.0",
        ClStd::Cl11 => "OpenCL C version 1.1",
        ClStd::Cl12 => "OpenCL C version 1.2",
        ClStd::Cl20 => "OpenCL C version 2.0",
        ClStd::Cl30 => "OpenCL C version 3.0",
    }
}

impl Parser<'_> {
    // -- translation unit ---------------------------------------------------------------------

    pub(crate) fn parse_translation_unit(&mut self) -> Vec<ExternalDecl> {
        let mut items = Vec::new();
        self.parse_translation_unit_into(&mut |item| items.push(item));
        items
    }

    /// [`Self::parse_translation_unit`], handing each top-level item to `push` as soon as it
    /// is parsed.
    pub(crate) fn parse_translation_unit_into(&mut self, push: &mut dyn FnMut(ExternalDecl)) {
        if self.at_eof() && !self.has_pragmas() {
            let s = self.span();
            self.emit(
                Diagnostic::warning(
                    s,
                    "ISO C requires a translation unit to contain at least one declaration",
                )
                .with_group("empty-translation-unit"),
            );
        }
        while !self.cut_off {
            for p in self.take_pragmas() {
                push(ExternalDecl::Pragma(p));
            }
            if self.at_eof() {
                break;
            }
            let before = self.pos;
            if let Some(item) = self.parse_external_decl() {
                push(item);
            }
            if self.pos == before && !self.at_eof() {
                // Guarantee progress on input no rule consumed.
                self.bump();
            }
        }
    }

    pub(crate) fn parse_external_decl(&mut self) -> Option<ExternalDecl> {
        if self.is(Punct::Semi) {
            let s = self.extra_semi("extra ';' outside of a function");
            return Some(ExternalDecl::Empty(s));
        }
        if self.is(Punct::RBrace) {
            let s = self.span();
            self.error(s, "extraneous closing brace ('}')");
            self.bump();
            return None;
        }
        if self.kw() == Some(Kw::StaticAssert) {
            return self.parse_static_assert().map(ExternalDecl::StaticAssert);
        }
        if self.at_asm_label() {
            // A top-level asm block: checked and dropped (it declares nothing).
            self.parse_file_asm();
            return None;
        }
        self.parse_declaration_or_fn(Ctx::File)
    }

    /// A run of stray `;` on one line (clang's `ConsumeExtraSemi`): one `-Wextra-semi`
    /// warning (a `-pedantic` extension); returns the span of the run.
    pub(crate) fn extra_semi(&mut self, msg: &str) -> Span {
        let start = self.bump();
        let mut end = start;
        while self.is(Punct::Semi) && !self.tok().at_line_start {
            end = self.bump();
        }
        let run = start.to(end);
        self.emit(
            Diagnostic::warning(start, msg)
                .with_group("extra-semi")
                .with_fixit(run, ""),
        );
        run
    }

    /// `_Static_assert ( expr [, string] ) ;`
    pub(crate) fn parse_static_assert(&mut self) -> Option<StaticAssert> {
        let kw = self.bump();
        let kw_text = self.prev_text();
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '('");
            self.skip_malformed_decl();
            return None;
        }
        let open = self.open()?;
        let cond = self.parse_cond_expr();
        if matches!(cond.kind, ExprKind::Error) {
            self.abandon();
            self.skip_malformed_decl();
            return None;
        }
        let mut message = None;
        if self.is(Punct::RParen) {
            self.emit(
                Diagnostic::warning(
                    kw,
                    format!("'{kw_text}' with no message is a C23 extension"),
                )
                .with_group("c23-extensions"),
            );
        } else if !self.expect_after(Punct::Comma, "expected ','") {
            self.abandon();
            self.skip_until(&[Punct::Semi], Skip::default());
            return None;
        } else if matches!(self.tok().kind, TokenKind::Str(_)) {
            message = Some(self.parse_primary_string());
        } else {
            let s = self.span();
            self.error(
                s,
                "expected string literal for diagnostic message in static_assert",
            );
            self.abandon();
            self.skip_malformed_decl();
            return None;
        }
        self.close(Punct::RParen, open);
        self.expect_semi(&format!("expected ';' after '{kw_text}'"));
        Some(StaticAssert {
            span: kw.to(self.prev_span()),
            cond,
            message,
        })
    }

    pub(crate) fn prev_text(&self) -> String {
        let i = self.pos.saturating_sub(1);
        let saved = self.pos;
        let _ = saved;
        self.token_text(i)
    }

    // -- declarations -------------------------------------------------------------------------

    /// A declaration or (at file scope) a function definition, after any pragmas.
    pub(crate) fn parse_declaration_or_fn(&mut self, ctx: Ctx) -> Option<ExternalDecl> {
        let start = self.span();
        let specs = self.parse_decl_specs(ctx);
        self.finish_declaration(start, specs, ctx)
    }

    /// A declaration statement (block scope or `for` init) whose `;` is handled here unless
    /// `ctx` is `ForInit`.
    pub(crate) fn parse_block_declaration(
        &mut self,
        ctx: Ctx,
        pre: Vec<DeclSpec>,
    ) -> Option<Declaration> {
        let start = pre.first().map_or(self.span(), |d| d.span);
        let mut specs = self.parse_decl_specs(ctx);
        if !pre.is_empty() {
            let mut items = pre;
            items.append(&mut specs.items);
            specs.span = items
                .first()
                .map_or(specs.span, |d| d.span)
                .to(self.prev_span());
            specs.items = items;
        }
        match self.finish_declaration(start, specs, ctx)? {
            ExternalDecl::Decl(d) => Some(d),
            _ => None,
        }
    }

    /// After the declaration specifiers: declarators, initializers, `;`, or a function body.
    pub(crate) fn finish_declaration(
        &mut self,
        start: Span,
        specs: DeclSpecs,
        ctx: Ctx,
    ) -> Option<ExternalDecl> {
        if self.fake_semi {
            self.fake_semi = false;
            return Some(ExternalDecl::Decl(Declaration {
                span: start.to(self.prev_span()),
                specs,
                declarators: Vec::new(),
            }));
        }
        if ctx != Ctx::ForInit && self.is(Punct::Semi) {
            self.bump();
            return Some(ExternalDecl::Decl(Declaration {
                span: start.to(self.prev_span()),
                specs,
                declarators: Vec::new(),
            }));
        }
        if ctx == Ctx::ForInit && self.is(Punct::Semi) {
            return Some(ExternalDecl::Decl(Declaration {
                span: start.to(self.prev_span()),
                specs,
                declarators: Vec::new(),
            }));
        }
        let (mut declarator, ok) = self.parse_declarator(ctx);
        if !ok {
            self.skip_malformed_decl();
            return self.keep_tag_definition(start, specs);
        }
        if declarator.function().is_some() {
            // Attributes after a function declarator may precede its body.
            self.parse_attrs(&mut declarator.attrs);
        }
        if declarator.function().is_some() && !self.is_decl_after_declarator() {
            if ctx == Ctx::File {
                let kr_decls = declarator
                    .function()
                    .is_some_and(|f| !f.kr_idents.is_empty())
                    && self.starts_decl_specs();
                if self.is(Punct::LBrace) || kr_decls {
                    return self.parse_function_def(start, specs, declarator);
                }
                if !self.starts_decl_specs() {
                    let s = self.span();
                    self.error(s, "expected function body after function declarator");
                    self.skip_until(&[Punct::Semi], Skip::default());
                    return Some(ExternalDecl::Dropped(declarator));
                }
            } else if self.is(Punct::LBrace) {
                let s = self.span();
                self.error(s, "function definition is not allowed here");
                self.skip_malformed_decl();
                return None;
            }
        }
        let mut declarators = Vec::new();
        let first = self.finish_init_declarator(&specs, declarator, ctx);
        declarators.push(first);
        while self.eat(Punct::Comma).is_some() {
            // GNU attributes before a later declarator belong to it alone (clang's
            // `ParseDeclGroup`): `int x, __attribute__((aligned(8))) y;`.
            let mut lead = Vec::new();
            while self.kw() == Some(Kw::Attribute) && !self.cut_off {
                self.parse_gnu_attr(&mut lead);
            }
            let (mut d, ok) = self.parse_declarator(ctx);
            if !lead.is_empty() {
                lead.append(&mut d.attrs);
                d.attrs = lead;
            }
            if !ok {
                self.skip_malformed_decl();
                return Some(ExternalDecl::Decl(Declaration {
                    span: start.to(self.prev_span()),
                    specs,
                    declarators,
                }));
            }
            let d = self.finish_init_declarator(&specs, d, ctx);
            declarators.push(d);
        }
        if ctx != Ctx::ForInit {
            let msg = if ctx == Ctx::File {
                "expected ';' after top level declarator"
            } else {
                "expected ';' at end of declaration"
            };
            // clang's `ParseDeclGroup`: what follows a missing `;` is skipped as a
            // malformed declaration unless it starts another one.
            if !self.expect_semi(msg) && !self.starts_decl_specs() {
                self.skip_malformed_decl();
            }
        }
        Some(ExternalDecl::Decl(Declaration {
            span: start.to(self.prev_span()),
            specs,
            declarators,
        }))
    }

    /// After a malformed declarator, clang drops the declaration; a struct or enum defined in
    /// its specifiers stays defined, so keep those for sema.
    pub(crate) fn keep_tag_definition(
        &mut self,
        start: Span,
        specs: DeclSpecs,
    ) -> Option<ExternalDecl> {
        let defines = specs.type_specs().any(|(t, _)| match t {
            TypeSpec::Record(r) => r.body.is_some(),
            TypeSpec::Enum(e) => e.body.is_some(),
            _ => false,
        });
        defines.then(|| {
            ExternalDecl::Decl(Declaration {
                span: start.to(self.prev_span()),
                specs,
                declarators: Vec::new(),
            })
        })
    }

    /// Attributes, initializer and scope entry after one declarator.
    pub(crate) fn finish_init_declarator(
        &mut self,
        specs: &DeclSpecs,
        mut declarator: Declarator,
        ctx: Ctx,
    ) -> InitDeclarator {
        let id = self.decl_id();
        self.parse_asm_label();
        self.parse_attrs(&mut declarator.attrs);
        self.check_implicit_int(specs, &declarator);
        if let Some(name) = declarator.name {
            let kind = if specs.is_typedef() {
                if self.declares_vector(specs, &declarator) {
                    self.vector_typedefs.insert(name.name, ());
                } else {
                    self.vector_typedefs.remove(&name.name);
                }
                NameKind::Typedef(name.span)
            } else {
                NameKind::Value
            };
            self.declare(name.name, kind);
        }
        let mut init = None;
        if self.is(Punct::Eq) || self.is(Punct::EqEq) {
            if self.is(Punct::EqEq) {
                let s = self.span();
                self.emit(
                    Diagnostic::error(s, "invalid '==' at end of declaration; did you mean '='?")
                        .with_fixit(s, "="),
                );
            }
            self.bump();
            let before = self.invalid_exprs;
            init = Some(self.parse_initializer());
            if self.invalid_exprs > before {
                // clang's recovery after a bad initializer: on to the next declarator.
                let stops: &[Punct] = if ctx == Ctx::ForInit {
                    &[Punct::Comma, Punct::RParen]
                } else {
                    &[Punct::Comma]
                };
                self.skip_until(
                    stops,
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
            }
        }
        let span = declarator.span.to(self.prev_span());
        InitDeclarator {
            id,
            span,
            declarator,
            init,
        }
    }

    /// clang's `isDeclarationAfterDeclarator`: `=`, `,`, `;`, or an attribute.
    pub(crate) fn is_decl_after_declarator(&self) -> bool {
        self.is(Punct::Eq)
            || self.is(Punct::Comma)
            || self.is(Punct::Semi)
            || self.kw() == Some(Kw::Attribute)
            || self.at_asm_label()
    }

    /// Skips to the `;` that ends the declaration (not past it).
    fn skip_to_semi(&mut self) {
        self.skip_until(
            &[Punct::Semi],
            Skip {
                at_semi: false,
                before_match: true,
            },
        );
    }

    /// Whether the token is `__asm` or `__asm__` (clang's `kw_asm`; plain `asm` is no
    /// keyword in OpenCL C).
    pub(crate) fn at_asm_label(&self) -> bool {
        matches!(self.tok().ident(), Some(s) if s == kw::ASM_GNU || s == kw::ASM_GNU2)
    }

    /// clang's `ParseAsmAttributesAfterDeclarator`: an asm label `__asm("name" ...)` after a
    /// declarator, checked and dropped (oclc links functions by their names). After clang's
    /// error the rest of the declaration is skipped up to its `;`.
    fn parse_asm_label(&mut self) {
        if !self.at_asm_label() {
            return;
        }
        self.bump();
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '(' after 'asm'");
            self.skip_to_semi();
            return;
        }
        let Some(open) = self.open() else {
            return;
        };
        if !matches!(self.tok().kind, TokenKind::Str(_)) {
            let s = self.span();
            self.error(s, "expected string literal in 'asm'");
            self.abandon_to_rparen();
            self.skip_to_semi();
            return;
        }
        while matches!(self.tok().kind, TokenKind::Str(_)) {
            self.bump();
        }
        self.close(Punct::RParen, open);
    }

    /// clang's `SkipMalformedDecl`.
    pub(crate) fn skip_malformed_decl(&mut self) {
        loop {
            match self.tok().kind {
                TokenKind::Punct(Punct::LBrace) => {
                    self.bump();
                    self.skip_until(&[Punct::RBrace], Skip::default());
                    if self.is(Punct::Comma) || self.is(Punct::LBrace) {
                        continue;
                    }
                    self.eat(Punct::Semi);
                    return;
                }
                TokenKind::Punct(Punct::LBracket) => {
                    self.bump();
                    self.skip_until(&[Punct::RBracket], Skip::default());
                    continue;
                }
                TokenKind::Punct(Punct::LParen) => {
                    self.bump();
                    self.skip_until(&[Punct::RParen], Skip::default());
                    continue;
                }
                TokenKind::Punct(Punct::RBrace) | TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) => {
                    self.bump();
                    return;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    pub(crate) fn parse_function_def(
        &mut self,
        start: Span,
        mut specs: DeclSpecs,
        declarator: Declarator,
    ) -> Option<ExternalDecl> {
        if specs.is_typedef() {
            let s = self.span();
            self.error(s, "function definition declared 'typedef'");
            specs
                .items
                .retain(|d| !matches!(d.kind, DeclSpecKind::Storage(StorageClass::Typedef)));
        }
        let id = self.decl_id();
        if let Some(name) = declarator.name {
            self.declare(name.name, NameKind::Value);
        }
        // K&R parameter declarations between the declarator and the body.
        let mut kr = Vec::new();
        while !self.is(Punct::LBrace) && self.starts_decl_specs() && !self.cut_off {
            if let Some(d) = self.parse_block_declaration(Ctx::Block, Vec::new()) {
                kr.push(d);
            }
        }
        if !self.is(Punct::LBrace) {
            self.check_implicit_int(&specs, &declarator);
            let s = self.span();
            self.error(s, "expected function body after function declarator");
            self.skip_until(&[Punct::Semi], Skip::default());
            return None;
        }
        // clang reports the missing type as it starts the definition at its `{`: after
        // the K&R parameter declarations and (see `Checker::kr_undeclared`) their check.
        let mark = self.diags.list.len();
        self.check_implicit_int(&specs, &declarator);
        if declarator
            .function()
            .is_some_and(|f| !f.kr_idents.is_empty())
        {
            let open = self.span();
            for d in self.diags.list.iter_mut().skip(mark) {
                d.order = Some(Span {
                    lo: open.hi,
                    ..open
                });
            }
        }
        self.push_scope();
        if let Some(f) = declarator.function() {
            let names: Vec<_> = f
                .params
                .iter()
                .filter_map(|p| p.declarator.name)
                .chain(f.kr_idents.iter().copied())
                .collect();
            for n in names {
                self.declare(n.name, NameKind::Value);
            }
        }
        self.in_body += 1;
        let (body, close) = self.parse_compound_body_closed();
        self.in_body -= 1;
        self.pop_scope();
        Some(ExternalDecl::FunctionDef(FunctionDef {
            id,
            span: start.to(self.prev_span()),
            specs,
            declarator,
            kr_decls: kr,
            body,
            close,
        }))
    }

    /// clang's implicit-int diagnostic (C99 has no implicit `int`), at the declarator's name.
    pub(crate) fn check_implicit_int(&mut self, specs: &DeclSpecs, d: &Declarator) {
        let has_type = specs.type_specs().next().is_some();
        if has_type {
            return;
        }
        let is_pipe = specs
            .items
            .iter()
            .any(|s| matches!(s.kind, DeclSpecKind::Pipe));
        // clang reports at the declarator's name, or where an abstract declarator's name
        // would be.
        let at = d.name.map(|n| n.span).unwrap_or(Span {
            lo: d.span.hi,
            ..d.span
        });
        if is_pipe {
            self.emit_semantic(Diagnostic::error(
                at,
                "missing actual type specifier for pipe",
            ));
            return;
        }
        let fix_at = if specs.items.is_empty() {
            d.span.start()
        } else {
            specs.span.start()
        };
        self.emit_semantic(
            Diagnostic::error(at, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int")
                .with_group("implicit-int")
                .with_fixit(fix_at, "int "),
        );
    }
}
