//! Declarations: the translation unit, declaration specifiers, declarators, struct/union/enum
//! specifiers, type names and initializers, following clang's `ParseDecl.cpp`.

use super::core::{NameKind, Parser, Skip};
use super::keywords::Kw;
use super::typo::TypoCtx;
use crate::ast::*;
use crate::diag::Diagnostic;
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
    fn may_omit_name(self) -> bool {
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
                items.push(ExternalDecl::Pragma(p));
            }
            if self.at_eof() {
                break;
            }
            let before = self.pos;
            if let Some(item) = self.parse_external_decl() {
                items.push(item);
            }
            if self.pos == before && !self.at_eof() {
                // Guarantee progress on input no rule consumed.
                self.bump();
            }
        }
        items
    }

    fn parse_external_decl(&mut self) -> Option<ExternalDecl> {
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
        self.parse_declaration_or_fn(Ctx::File)
    }

    /// A run of stray `;` on one line (clang's `ConsumeExtraSemi`): one `-Wextra-semi`
    /// warning (a `-pedantic` extension); returns the span of the run.
    fn extra_semi(&mut self, msg: &str) -> Span {
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

    fn prev_text(&self) -> String {
        let i = self.pos.saturating_sub(1);
        let saved = self.pos;
        let _ = saved;
        self.token_text(i)
    }

    // -- declarations -------------------------------------------------------------------------

    /// A declaration or (at file scope) a function definition, after any pragmas.
    fn parse_declaration_or_fn(&mut self, ctx: Ctx) -> Option<ExternalDecl> {
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
    fn finish_declaration(
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
                    return None;
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
            let (d, ok) = self.parse_declarator(ctx);
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
            if !self.expect_semi(msg) && !self.starts_decl_specs() {
                self.skip_until(
                    &[Punct::RBrace],
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
                self.eat(Punct::Semi);
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
    fn keep_tag_definition(&mut self, start: Span, specs: DeclSpecs) -> Option<ExternalDecl> {
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
    fn finish_init_declarator(
        &mut self,
        specs: &DeclSpecs,
        mut declarator: Declarator,
        ctx: Ctx,
    ) -> InitDeclarator {
        let id = self.decl_id();
        self.parse_attrs(&mut declarator.attrs);
        self.check_implicit_int(specs, &declarator);
        if let Some(name) = declarator.name {
            let kind = if specs.is_typedef() {
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
    fn is_decl_after_declarator(&self) -> bool {
        self.is(Punct::Eq)
            || self.is(Punct::Comma)
            || self.is(Punct::Semi)
            || self.kw() == Some(Kw::Attribute)
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

    fn parse_function_def(
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
        self.check_implicit_int(&specs, &declarator);
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
            let s = self.span();
            self.error(s, "expected function body after function declarator");
            self.skip_until(&[Punct::Semi], Skip::default());
            return None;
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
        let body = self.parse_compound_body();
        self.pop_scope();
        Some(ExternalDecl::FunctionDef(FunctionDef {
            id,
            span: start.to(self.prev_span()),
            specs,
            declarator,
            kr_decls: kr,
            body,
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
        let at = d.name.map(|n| n.span).unwrap_or(if specs.items.is_empty() {
            d.span
        } else {
            specs.span
        });
        if is_pipe {
            self.error(at, "missing actual type specifier for pipe");
            return;
        }
        let fix_at = if specs.items.is_empty() {
            d.span.start()
        } else {
            specs.span.start()
        };
        self.emit(
            Diagnostic::error(at, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int")
                .with_group("implicit-int")
                .with_fixit(fix_at, "int "),
        );
    }

    // -- declaration specifiers ---------------------------------------------------------------

    /// Whether the current token can start declaration specifiers.
    pub(crate) fn starts_decl_specs(&self) -> bool {
        match self.kw() {
            Some(k) => {
                matches!(
                    k,
                    Kw::Typedef
                        | Kw::Extern
                        | Kw::Static
                        | Kw::Auto
                        | Kw::Register
                        | Kw::ThreadLocal
                        | Kw::Inline
                        | Kw::Noreturn
                        | Kw::Kernel
                        | Kw::Attribute
                        | Kw::Alignas
                        | Kw::Extension
                        | Kw::ReadOnly
                        | Kw::WriteOnly
                        | Kw::ReadWrite
                ) || self.starts_type_name()
            }
            None => self.starts_type_name(),
        }
    }

    /// Whether the current token can start a type name (specifier or qualifier).
    pub(crate) fn starts_type_name(&self) -> bool {
        match self.kw() {
            Some(k) => matches!(
                k,
                Kw::Void
                    | Kw::Char
                    | Kw::Short
                    | Kw::Int
                    | Kw::Long
                    | Kw::Float
                    | Kw::Double
                    | Kw::Half
                    | Kw::Signed
                    | Kw::Unsigned
                    | Kw::Bool
                    | Kw::Complex
                    | Kw::Struct
                    | Kw::Union
                    | Kw::Enum
                    | Kw::Const
                    | Kw::Volatile
                    | Kw::Restrict
                    | Kw::Atomic
                    | Kw::Global
                    | Kw::Local
                    | Kw::Constant
                    | Kw::Private
                    | Kw::Generic
                    | Kw::Pipe
                    | Kw::Typeof
            ),
            None => self.is_type_name(self.tok()),
        }
    }

    /// Parses declaration specifiers in source order (clang's `ParseDeclarationSpecifiers`).
    pub(crate) fn parse_decl_specs(&mut self, ctx: Ctx) -> DeclSpecs {
        let mut items: Vec<DeclSpec> = Vec::new();
        let mut has_type = false;
        while !self.cut_off {
            let t = *self.tok();
            let span = t.span;
            if self.at_cxx_attr() {
                self.parse_attrs(&mut items);
                continue;
            }
            let Some(k) = self.kw() else {
                let Some(sym) = self.ident() else { break };
                if has_type {
                    break;
                }
                match self.lookup(sym) {
                    Some(NameKind::Typedef(_)) => {
                        self.bump();
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::Type(TypeSpec::TypedefName(sym)),
                        });
                        has_type = true;
                        continue;
                    }
                    Some(NameKind::Builtin) => {
                        self.bump();
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::Type(TypeSpec::Builtin(sym)),
                        });
                        has_type = true;
                        continue;
                    }
                    _ => {}
                }
                // clang's ParseImplicitInt: a following token that can follow a declarator's
                // name means this identifier is the name; otherwise it is an unknown type.
                if ctx == Ctx::TypeName || self.valid_after_declarator_name(1) {
                    break;
                }
                // clang goes on as if the correction (when it finds one) had been written.
                let fix = self.correct_typo(sym, TypoCtx::TypeName);
                self.typo_diag(span, sym, fix, true);
                if let Some(c) = fix {
                    self.respell_current(c.name);
                    continue;
                }
                self.bump();
                items.push(DeclSpec {
                    span,
                    kind: DeclSpecKind::Type(TypeSpec::Unknown(sym)),
                });
                has_type = true;
                continue;
            };
            let kind = match k {
                Kw::Extern | Kw::Static if self.lang.std < ClStd::Cl12 => {
                    self.bump();
                    let v = version_string(self.lang.std);
                    self.error(
                        span,
                        format!(
                            "{v} does not support the '{}' storage class specifier",
                            t.text()
                        ),
                    );
                    continue;
                }
                Kw::Typedef => DeclSpecKind::Storage(StorageClass::Typedef),
                Kw::Extern => DeclSpecKind::Storage(StorageClass::Extern),
                Kw::Static => DeclSpecKind::Storage(StorageClass::Static),
                Kw::Auto | Kw::Register => {
                    // OpenCL C supports neither (clang's `SetStorageClassSpec`).
                    self.bump();
                    let v = version_string(self.lang.std);
                    self.error(
                        span,
                        format!(
                            "{v} does not support the '{}' storage class specifier",
                            t.text()
                        ),
                    );
                    continue;
                }
                Kw::ThreadLocal => DeclSpecKind::Storage(StorageClass::ThreadLocal),
                Kw::Const => DeclSpecKind::Qual(TypeQual::Const),
                Kw::Volatile => DeclSpecKind::Qual(TypeQual::Volatile),
                Kw::Restrict => DeclSpecKind::Qual(TypeQual::Restrict),
                Kw::Atomic if self.nth_is(1, Punct::LParen) => {
                    self.bump();
                    let Some(open) = self.open() else { break };
                    let ty = self.parse_type_name();
                    self.close(Punct::RParen, open);
                    has_type = true;
                    items.push(DeclSpec {
                        span: span.to(self.prev_span()),
                        kind: DeclSpecKind::Type(TypeSpec::AtomicType(Box::new(ty))),
                    });
                    continue;
                }
                Kw::Atomic => DeclSpecKind::Qual(TypeQual::Atomic),
                Kw::Global | Kw::Local | Kw::Constant | Kw::Private | Kw::Generic => {
                    self.bump();
                    if let Some(q) = self.as_keyword(k, t, true) {
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::AddrSpace(q),
                        });
                    }
                    continue;
                }
                Kw::Kernel => DeclSpecKind::Func(FuncSpec::Kernel),
                Kw::Inline => DeclSpecKind::Func(FuncSpec::Inline),
                Kw::Noreturn => DeclSpecKind::Func(FuncSpec::Noreturn),
                Kw::ReadOnly => DeclSpecKind::Access(AccessQual::ReadOnly),
                Kw::WriteOnly => DeclSpecKind::Access(AccessQual::WriteOnly),
                Kw::ReadWrite => DeclSpecKind::Access(AccessQual::ReadWrite),
                Kw::Pipe => {
                    self.bump();
                    if self.lang.std == ClStd::Cl30 && !self.lang.has("__opencl_c_pipes") {
                        self.error(
                            span,
                            format!(
                                "{} does not support the 'pipe' type qualifier",
                                version_string(self.lang.std)
                            ),
                        );
                    } else {
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::Pipe,
                        });
                    }
                    continue;
                }
                Kw::Void => DeclSpecKind::Type(TypeSpec::Void),
                Kw::Char => DeclSpecKind::Type(TypeSpec::Char),
                Kw::Short => DeclSpecKind::Type(TypeSpec::Short),
                Kw::Int => DeclSpecKind::Type(TypeSpec::Int),
                Kw::Long => DeclSpecKind::Type(TypeSpec::Long),
                Kw::Float => DeclSpecKind::Type(TypeSpec::Float),
                Kw::Double => DeclSpecKind::Type(TypeSpec::Double),
                Kw::Half => DeclSpecKind::Type(TypeSpec::Half),
                Kw::Signed => DeclSpecKind::Type(TypeSpec::Signed),
                Kw::Unsigned => DeclSpecKind::Type(TypeSpec::Unsigned),
                Kw::Bool => DeclSpecKind::Type(TypeSpec::Bool),
                Kw::Complex => DeclSpecKind::Type(TypeSpec::Complex),
                Kw::Struct | Kw::Union => {
                    let Some(r) = self.parse_record_spec(k == Kw::Union) else {
                        break;
                    };
                    has_type = true;
                    items.push(DeclSpec {
                        span: span.to(self.prev_span()),
                        kind: DeclSpecKind::Type(TypeSpec::Record(Box::new(r))),
                    });
                    if self.fake_semi {
                        break;
                    }
                    continue;
                }
                Kw::Enum => {
                    let Some(e) = self.parse_enum_spec() else {
                        break;
                    };
                    has_type = true;
                    items.push(DeclSpec {
                        span: span.to(self.prev_span()),
                        kind: DeclSpecKind::Type(TypeSpec::Enum(Box::new(e))),
                    });
                    if self.fake_semi {
                        break;
                    }
                    continue;
                }
                Kw::Attribute => {
                    self.parse_attrs(&mut items);
                    continue;
                }
                Kw::Alignas | Kw::Typeof => {
                    self.bump();
                    let Some(arg) = self.parse_paren_type_or_expr(k == Kw::Alignas) else {
                        break;
                    };
                    let span = span.to(self.prev_span());
                    if k == Kw::Alignas {
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::Alignas(Box::new(arg)),
                        });
                    } else {
                        has_type = true;
                        items.push(DeclSpec {
                            span,
                            kind: DeclSpecKind::Type(TypeSpec::Typeof(Box::new(arg))),
                        });
                    }
                    continue;
                }
                Kw::Extension => {
                    self.bump();
                    continue;
                }
                _ => break,
            };
            if matches!(kind, DeclSpecKind::Type(_)) {
                has_type = true;
            }
            self.bump();
            items.push(DeclSpec { span, kind });
        }
        let span = match (items.first(), items.last()) {
            (Some(a), Some(b)) => a.span.to(b.span),
            _ => Span::DUMMY,
        };
        DeclSpecs { span, items }
    }

    /// An address-space keyword (already consumed), or None when the mode lacks it (after
    /// clang's "does not support" error). clang checks the mode for declaration specifiers
    /// only (`in_specs`); after a `*` it takes `generic` in every mode (clang-19).
    fn as_keyword(&mut self, k: Kw, t: crate::token::Token, in_specs: bool) -> Option<AsQual> {
        let kind = match k {
            Kw::Global => AsKind::Global,
            Kw::Local => AsKind::Local,
            Kw::Constant => AsKind::Constant,
            Kw::Private => AsKind::Private,
            _ => {
                if in_specs && !self.lang.generic_address_space() {
                    self.error(
                        t.span,
                        format!(
                            "{} does not support the '{}' type qualifier",
                            version_string(self.lang.std),
                            t.text()
                        ),
                    );
                    return None;
                }
                AsKind::Generic
            }
        };
        Some(AsQual {
            span: t.span,
            kind,
            form: AsForm::Keyword,
            spelling: t.ident().unwrap_or(crate::intern::kw::GLOBAL),
        })
    }

    /// clang's `isValidAfterIdentifierInDeclarator` for the token `n` ahead.
    fn valid_after_declarator_name(&self, n: usize) -> bool {
        matches!(
            self.nth(n).kind,
            TokenKind::Punct(
                Punct::LBracket
                    | Punct::LParen
                    | Punct::RParen
                    | Punct::Semi
                    | Punct::Comma
                    | Punct::Eq
                    | Punct::LBrace
                    | Punct::Colon
            )
        ) || self.kw_of(self.nth(n)) == Some(Kw::Attribute)
    }

    /// `( type-name )` or `( expression )` after `_Alignas`/`__typeof__`.
    fn parse_paren_type_or_expr(&mut self, _alignas: bool) -> Option<TypeOrExpr> {
        if !self.is(Punct::LParen) {
            let prev = self.prev_text();
            self.error(self.after_prev(), format!("expected '(' after '{prev}'"));
            return None;
        }
        let open = self.open()?;
        let arg = if self.starts_type_name() {
            TypeOrExpr::Type(self.parse_type_name())
        } else {
            TypeOrExpr::Expr(self.parse_expr())
        };
        self.close(Punct::RParen, open);
        Some(arg)
    }

    // -- struct, union, enum ------------------------------------------------------------------

    fn parse_record_spec(&mut self, union: bool) -> Option<RecordSpec> {
        let kw_span = self.bump();
        let id = self.decl_id();
        let mut attrs = self.parse_plain_attrs();
        let mut name = None;
        if let Some(sym) = self.ident() {
            name = Some(Ident {
                name: sym,
                span: self.bump(),
            });
        }
        let kind = if union {
            RecordKind::Union
        } else {
            RecordKind::Struct
        };
        let kw_name = if union { "union" } else { "struct" };
        if !self.is(Punct::LBrace) {
            if name.is_none() {
                self.error(
                    kw_span,
                    format!("declaration of anonymous {kw_name} must be a definition"),
                );
                self.skip_until(
                    &[Punct::Comma],
                    Skip {
                        at_semi: true,
                        before_match: false,
                    },
                );
                return None;
            }
            return Some(RecordSpec {
                id,
                kind,
                kw_span,
                name,
                attrs,
                body: None,
            });
        }
        let open = self.open()?;
        let mut members = Vec::new();
        if self.is(Punct::RBrace) {
            let s = self.span();
            self.emit(
                Diagnostic::warning(s, format!("empty {kw_name} is a GNU extension"))
                    .with_group("gnu-empty-struct"),
            );
        }
        while !self.is(Punct::RBrace) && !self.at_eof() && !self.cut_off {
            for p in self.take_pragmas() {
                members.push(MemberDecl::Pragma(p));
            }
            if self.is(Punct::RBrace) || self.at_eof() {
                break;
            }
            if self.is(Punct::Semi) {
                self.extra_semi(&format!("extra ';' inside a {kw_name}"));
                continue;
            }
            if self.kw() == Some(Kw::StaticAssert) {
                if let Some(sa) = self.parse_static_assert() {
                    members.push(MemberDecl::StaticAssert(sa));
                }
                continue;
            }
            let before = self.pos;
            if let Some(g) = self.parse_field_group() {
                members.push(MemberDecl::Fields(g));
            }
            if self.pos == before {
                self.bump();
            }
        }
        let close = self.close(Punct::RBrace, open);
        attrs.extend(self.parse_plain_attrs());
        let body_span = open.to(close.unwrap_or(self.prev_span()));
        let spec = RecordSpec {
            id,
            kind,
            kw_span,
            name,
            attrs,
            body: Some(RecordBody {
                span: body_span,
                members,
            }),
        };
        self.check_after_tag_definition(kw_name);
        Some(spec)
    }

    /// After a struct/union/enum definition, a token that cannot follow a type specifier means
    /// a forgotten `;` (clang's `isValidAfterTypeSpecifier`).
    fn check_after_tag_definition(&mut self, kw_name: &str) {
        let ok = match self.tok().kind {
            TokenKind::Punct(
                Punct::Semi
                | Punct::Star
                | Punct::Amp
                | Punct::RParen
                | Punct::LParen
                | Punct::Comma
                | Punct::LBracket
                | Punct::Ellipsis
                | Punct::Colon
                | Punct::RBrace,
            ) => true,
            TokenKind::Ident(_) => match self.kw() {
                // `struct S {...} T t;`: two names in a row start the next declaration.
                None => self.ident_of(self.nth(1)).is_none(),
                Some(Kw::Attribute) => true,
                Some(
                    Kw::Const
                    | Kw::Volatile
                    | Kw::Restrict
                    | Kw::Atomic
                    | Kw::Inline
                    | Kw::Static
                    | Kw::Extern
                    | Kw::Typedef
                    | Kw::Register
                    | Kw::Auto
                    | Kw::ThreadLocal,
                ) => !self.next_is_type_specifier(),
                _ => false,
            },
            _ => false,
        };
        if !ok && !self.cut_off {
            self.expect_after(Punct::Semi, &format!("expected ';' after {kw_name}"));
            self.fake_semi = true;
        }
    }

    fn next_is_type_specifier(&self) -> bool {
        match self.nth_kw(1) {
            Some(k) => matches!(
                k,
                Kw::Void
                    | Kw::Char
                    | Kw::Short
                    | Kw::Int
                    | Kw::Long
                    | Kw::Float
                    | Kw::Double
                    | Kw::Half
                    | Kw::Signed
                    | Kw::Unsigned
                    | Kw::Bool
                    | Kw::Complex
                    | Kw::Struct
                    | Kw::Union
                    | Kw::Enum
            ),
            None => false,
        }
    }

    /// `specs field, field ;` inside a struct or union (clang's `ParseStructDeclaration` and the
    /// `;` handling of `ParseStructUnionBody`).
    fn parse_field_group(&mut self) -> Option<FieldGroup> {
        let start = self.span();
        let specs = self.parse_decl_specs(Ctx::Member);
        let mut fields = Vec::new();
        if self.fake_semi {
            self.fake_semi = false;
            return Some(FieldGroup {
                span: start.to(self.prev_span()),
                specs,
                fields,
            });
        }
        if !self.is(Punct::Semi) {
            loop {
                let fstart = self.span();
                let declarator = if self.is(Punct::Colon) {
                    Declarator {
                        span: fstart.start(),
                        name: None,
                        chunks: Vec::new(),
                        attrs: Vec::new(),
                    }
                } else {
                    let (d, ok) = self.parse_declarator(Ctx::Member);
                    if !ok {
                        // clang goes on to the `;` check below.
                        break;
                    }
                    d
                };
                let mut declarator = declarator;
                let id = self.decl_id();
                let mut bit_width = None;
                if self.eat(Punct::Colon).is_some() {
                    bit_width = Some(self.parse_cond_expr());
                }
                self.parse_attrs(&mut declarator.attrs);
                if declarator.name.is_some() || bit_width.is_none() {
                    self.check_implicit_int(&specs, &declarator);
                }
                fields.push(FieldDecl {
                    id,
                    span: fstart.to(self.prev_span()),
                    declarator,
                    bit_width,
                });
                if self.eat(Punct::Comma).is_none() {
                    break;
                }
            }
        }
        if self.eat(Punct::Semi).is_none() {
            if self.is(Punct::RBrace) {
                let at = self.after_prev();
                self.emit(
                    Diagnostic::warning(at, "expected ';' at end of declaration list")
                        .with_fixit(at, ";"),
                );
            } else {
                self.expect_after(Punct::Semi, "expected ';' at end of declaration list");
                self.skip_until(
                    &[Punct::RBrace],
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
                self.eat(Punct::Semi);
            }
        }
        Some(FieldGroup {
            span: start.to(self.prev_span()),
            specs,
            fields,
        })
    }

    fn parse_enum_spec(&mut self) -> Option<EnumSpec> {
        let kw_span = self.bump();
        let id = self.decl_id();
        let mut attrs = self.parse_plain_attrs();
        let mut name = None;
        if let Some(sym) = self.ident() {
            name = Some(Ident {
                name: sym,
                span: self.bump(),
            });
        }
        let mut fixed_type = None;
        if self.is(Punct::Colon) && self.token_starts_type_name(1) {
            self.bump();
            let start = self.span();
            fixed_type = Some(Box::new(self.parse_type_name()));
            self.emit(
                Diagnostic::warning(
                    start,
                    "enumeration types with a fixed underlying type are a Clang extension",
                )
                .with_group("fixed-enum-extension"),
            );
        }
        if !self.is(Punct::LBrace) {
            if name.is_none() {
                let s = self.span();
                self.error(s, "expected identifier or '{'");
                self.skip_until(
                    &[Punct::Comma],
                    Skip {
                        at_semi: true,
                        before_match: false,
                    },
                );
                return None;
            }
            return Some(EnumSpec {
                id,
                kw_span,
                name,
                attrs,
                fixed_type,
                body: None,
            });
        }
        let open = self.open()?;
        let mut list = Vec::new();
        if self.is(Punct::RBrace) {
            let s = self.span();
            self.error(s, "use of empty enum");
        }
        while !self.is(Punct::RBrace) && !self.cut_off {
            let t = *self.tok();
            let Some(sym) = self.ident() else {
                self.error(t.span, "expected identifier");
                self.skip_until(
                    &[Punct::RBrace],
                    Skip {
                        at_semi: false,
                        before_match: true,
                    },
                );
                break;
            };
            self.bump();
            let eid = self.decl_id();
            let eattrs = self.parse_plain_attrs();
            let mut value = None;
            let mut had_eq = false;
            if self.eat(Punct::Eq).is_some() {
                had_eq = true;
                let v = self.parse_cond_expr();
                if matches!(v.kind, ExprKind::Error) {
                    self.skip_until(
                        &[Punct::Comma, Punct::RBrace],
                        Skip {
                            at_semi: true,
                            before_match: true,
                        },
                    );
                }
                value = Some(v);
            }
            self.declare(sym, NameKind::Value);
            list.push(Enumerator {
                id: eid,
                span: t.span.to(self.prev_span()),
                name: Ident {
                    name: sym,
                    span: t.span,
                },
                attrs: eattrs,
                value,
            });
            if self.ident().is_some() {
                let at = self.after_prev();
                self.emit(
                    Diagnostic::error(at, "missing ',' between enumerators").with_fixit(at, ", "),
                );
                continue;
            }
            if self.is(Punct::RBrace) {
                break;
            }
            if self.eat(Punct::Comma).is_none() {
                let s = self.span();
                if had_eq {
                    self.error(s, "expected '}' or ','");
                } else {
                    self.error(
                        s,
                        "expected '= constant-expression' or end of enumerator definition",
                    );
                }
                if self.skip_until(
                    &[Punct::Comma, Punct::RBrace],
                    Skip {
                        at_semi: false,
                        before_match: true,
                    },
                ) {
                    if self.eat(Punct::Comma).is_some() {
                        continue;
                    }
                } else {
                    break;
                }
            }
        }
        let close = self.close(Punct::RBrace, open);
        attrs.extend(self.parse_plain_attrs());
        let span = open.to(close.unwrap_or(self.prev_span()));
        let spec = EnumSpec {
            id,
            kw_span,
            name,
            attrs,
            fixed_type,
            body: Some((span, list)),
        };
        self.check_after_tag_definition("enum");
        Some(spec)
    }

    // -- declarators --------------------------------------------------------------------------

    /// Parses a declarator; `false` when a required name is missing (already diagnosed).
    pub(crate) fn parse_declarator(&mut self, ctx: Ctx) -> (Declarator, bool) {
        if !self.enter() {
            return (
                Declarator {
                    span: self.span(),
                    name: None,
                    chunks: Vec::new(),
                    attrs: Vec::new(),
                },
                false,
            );
        }
        let r = self.parse_declarator_inner(ctx);
        self.leave();
        r
    }

    fn parse_declarator_inner(&mut self, ctx: Ctx) -> (Declarator, bool) {
        let start = self.span();
        let mut pointers = Vec::new();
        while self.is(Punct::Star) && !self.cut_off {
            let star = self.bump();
            let quals = self.parse_type_qual_list();
            pointers.push(Chunk {
                span: star.to(self.prev_span()),
                kind: ChunkKind::Pointer { quals },
            });
        }
        let (mut d, ok) = self.parse_direct_declarator(ctx);
        d.chunks.extend(pointers.into_iter().rev());
        d.span = if self.pos > 0 && self.prev_span().lo >= start.lo {
            start.to(self.prev_span())
        } else {
            start.start()
        };
        (d, ok)
    }

    /// Qualifiers, address spaces and attributes after a `*`.
    fn parse_type_qual_list(&mut self) -> Vec<DeclSpec> {
        let mut quals = Vec::new();
        loop {
            let t = *self.tok();
            let kind = match self.kw() {
                Some(Kw::Const) => DeclSpecKind::Qual(TypeQual::Const),
                Some(Kw::Volatile) => DeclSpecKind::Qual(TypeQual::Volatile),
                Some(Kw::Restrict) => DeclSpecKind::Qual(TypeQual::Restrict),
                Some(Kw::Atomic) if !self.nth_is(1, Punct::LParen) => {
                    DeclSpecKind::Qual(TypeQual::Atomic)
                }
                Some(k @ (Kw::Global | Kw::Local | Kw::Constant | Kw::Private | Kw::Generic)) => {
                    self.bump();
                    if let Some(q) = self.as_keyword(k, t, false) {
                        quals.push(DeclSpec {
                            span: t.span,
                            kind: DeclSpecKind::AddrSpace(q),
                        });
                    }
                    continue;
                }
                Some(Kw::Attribute) => {
                    self.parse_attrs(&mut quals);
                    continue;
                }
                _ => break,
            };
            self.bump();
            quals.push(DeclSpec { span: t.span, kind });
        }
        quals
    }

    fn parse_direct_declarator(&mut self, ctx: Ctx) -> (Declarator, bool) {
        let start = self.span();
        let mut d = Declarator {
            span: start.start(),
            name: None,
            chunks: Vec::new(),
            attrs: Vec::new(),
        };
        let mut ok = true;
        if let Some(sym) = self.ident()
            && ctx != Ctx::TypeName
        {
            let s = self.bump();
            d.name = Some(Ident { name: sym, span: s });
            if self.at_cxx_attr() {
                self.parse_attrs(&mut d.attrs);
            }
        } else if self.is(Punct::LParen) && self.paren_is_grouping(ctx) {
            let Some(open) = self.open() else {
                return (d, false);
            };
            let mut pre_attrs = Vec::new();
            self.parse_attrs(&mut pre_attrs);
            let (inner, inner_ok) = self.parse_declarator(ctx);
            let close = self.close(Punct::RParen, open);
            d.name = inner.name;
            d.chunks = inner.chunks;
            d.attrs = inner.attrs;
            d.attrs.extend(pre_attrs);
            d.chunks.push(Chunk {
                span: open.to(close.unwrap_or(self.prev_span())),
                kind: ChunkKind::Paren,
            });
            ok = inner_ok;
            if !ok {
                return (d, false);
            }
        } else if !ctx.may_omit_name() {
            let s = self.span();
            if self.kw() == Some(Kw::While) {
                self.error(s, "while loop outside of a function");
            } else if ctx == Ctx::Member {
                self.error(
                    s,
                    "expected member name or ';' after declaration specifiers",
                );
            } else {
                self.error(s, "expected identifier or '('");
            }
            return (d, false);
        }
        // Suffixes: arrays and parameter lists.
        loop {
            if self.is(Punct::LBracket) && !self.at_cxx_attr() {
                let Some(open) = self.open() else {
                    return (d, false);
                };
                let chunk = self.parse_array_chunk();
                let close = self.close(Punct::RBracket, open);
                d.chunks.push(Chunk {
                    span: open.to(close.unwrap_or(self.prev_span())),
                    kind: ChunkKind::Array(chunk),
                });
            } else if self.is(Punct::LParen) {
                let Some(open) = self.open() else {
                    return (d, false);
                };
                let f = self.parse_params();
                let close = self.close(Punct::RParen, open);
                d.chunks.push(Chunk {
                    span: open.to(close.unwrap_or(self.prev_span())),
                    kind: ChunkKind::Function(f),
                });
            } else {
                break;
            }
            if self.cut_off {
                return (d, false);
            }
        }
        (d, ok)
    }

    /// clang's `ParseParenDeclarator` choice: grouping parentheses, or an abstract function
    /// declarator's parameter list.
    fn paren_is_grouping(&self, ctx: Ctx) -> bool {
        if !ctx.may_omit_name() {
            return true;
        }
        // Look past the `(`.
        let next = self.nth(1);
        if next.kind == TokenKind::Punct(Punct::RParen) {
            return false;
        }
        if next.kind == TokenKind::Punct(Punct::LBracket) && self.nth_is(2, Punct::LBracket) {
            return false;
        }
        match self.kw_of(next) {
            Some(Kw::Attribute) => true,
            Some(_) => !self.token_starts_decl_specs(next),
            None => !self.is_type_name(next),
        }
    }

    fn token_starts_decl_specs(&self, t: &crate::token::Token) -> bool {
        match self.kw_of(t) {
            Some(k) => !matches!(
                k,
                Kw::Break
                    | Kw::Case
                    | Kw::Continue
                    | Kw::Default
                    | Kw::Do
                    | Kw::Else
                    | Kw::For
                    | Kw::Goto
                    | Kw::If
                    | Kw::Return
                    | Kw::Sizeof
                    | Kw::Switch
                    | Kw::While
                    | Kw::Alignof
                    | Kw::AlignofGnu
                    | Kw::StaticAssert
                    | Kw::VecStep
                    | Kw::Func
                    | Kw::True
                    | Kw::False
                    | Kw::BuiltinAstype
            ),
            None => self.is_type_name(t),
        }
    }

    /// Inside `[...]`: `static`, qualifiers, `*`, size.
    fn parse_array_chunk(&mut self) -> ArrayChunk {
        let mut static_span = self.eat_kw(Kw::Static);
        let quals = self.parse_type_qual_list();
        if static_span.is_none() {
            static_span = self.eat_kw(Kw::Static);
        }
        let is_static = static_span.is_some();
        if self.is(Punct::Star) && self.nth_is(1, Punct::RBracket) {
            self.bump();
            return ArrayChunk {
                size: None,
                quals,
                is_static,
                star: true,
            };
        }
        let size = if self.is(Punct::RBracket) {
            if let Some(s) = static_span {
                self.error(s, "'static' may not be used without an array size");
            }
            None
        } else {
            let e = self.parse_assign_expr();
            if matches!(e.kind, ExprKind::Error) {
                self.skip_until(
                    &[Punct::RBracket],
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
            }
            Some(Box::new(e))
        };
        ArrayChunk {
            size,
            quals,
            is_static,
            star: false,
        }
    }

    /// A parameter list after its `(` (clang's `ParseFunctionDeclarator`).
    fn parse_params(&mut self) -> FunctionChunk {
        let mut f = FunctionChunk {
            params: Vec::new(),
            ellipsis: None,
            kr_idents: Vec::new(),
        };
        if self.is(Punct::RParen) {
            return f;
        }
        // K&R identifier list: identifiers that are not types, each followed by `,` or `)`.
        if let Some(_sym) = self.ident()
            && !self.is_type_name(self.tok())
            && (self.nth_is(1, Punct::Comma) || self.nth_is(1, Punct::RParen))
        {
            loop {
                let t = *self.tok();
                match self.ident() {
                    Some(sym) if !self.is_type_name(&t) => {
                        self.bump();
                        f.kr_idents.push(Ident {
                            name: sym,
                            span: t.span,
                        });
                    }
                    _ => {
                        self.error(t.span, "expected identifier");
                        self.skip_until(
                            &[Punct::RParen],
                            Skip {
                                at_semi: true,
                                before_match: true,
                            },
                        );
                        return f;
                    }
                }
                if self.eat(Punct::Comma).is_none() {
                    break;
                }
            }
            return f;
        }
        self.push_scope();
        loop {
            if let Some(s) = self.eat(Punct::Ellipsis) {
                if f.params.is_empty() {
                    self.error(s, "ISO C requires a named parameter before '...'");
                }
                f.ellipsis = Some(s);
                break;
            }
            let start = self.span();
            let specs = self.parse_decl_specs(Ctx::Param);
            let (declarator, _) = self.parse_declarator(Ctx::Param);
            let mut declarator = declarator;
            self.parse_attrs(&mut declarator.attrs);
            if specs.items.is_empty() && declarator.name.is_none() && declarator.chunks.is_empty() {
                self.error(start, "expected parameter declarator");
                self.skip_until(
                    &[Punct::Comma, Punct::RParen],
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
                if self.eat(Punct::Comma).is_some() {
                    continue;
                }
                break;
            }
            self.check_implicit_int(&specs, &declarator);
            if let Some(n) = declarator.name {
                self.declare(n.name, NameKind::Value);
            }
            let id = self.decl_id();
            f.params.push(ParamDecl {
                id,
                span: start.to(self.prev_span()),
                specs,
                declarator,
            });
            if self.eat(Punct::Comma).is_none() {
                if self.is(Punct::Ellipsis) {
                    let s = self.span();
                    self.emit(
                        Diagnostic::error(
                            s,
                            "C requires a comma prior to the ellipsis in a variadic function type",
                        )
                        .with_fixit(s.start(), ", "),
                    );
                    f.ellipsis = Some(self.bump());
                }
                break;
            }
            if self.cut_off {
                break;
            }
        }
        self.pop_scope();
        f
    }

    // -- type names and initializers ----------------------------------------------------------

    /// `specifier-qualifier-list abstract-declarator`.
    pub(crate) fn parse_type_name(&mut self) -> TypeName {
        let start = self.span();
        let specs = self.parse_decl_specs(Ctx::TypeName);
        if specs.items.is_empty() {
            self.error(start, "type name requires a specifier or qualifier");
        }
        for d in &specs.items {
            match d.kind {
                DeclSpecKind::Storage(_) => {
                    self.error(
                        d.span,
                        "type name does not allow storage class to be specified",
                    );
                }
                DeclSpecKind::Func(_) => {
                    self.error(
                        d.span,
                        "type name does not allow function specifier to be specified",
                    );
                }
                _ => {}
            }
        }
        let (declarator, _) = self.parse_declarator(Ctx::TypeName);
        if !specs.items.is_empty() {
            self.check_implicit_int(&specs, &declarator);
        }
        TypeName {
            span: start.to(self.prev_span()),
            specs,
            declarator,
        }
    }

    /// `= expr` or `= { ... }` (after the `=`).
    pub(crate) fn parse_initializer(&mut self) -> Initializer {
        if self.is(Punct::LBrace) {
            Initializer::List(self.parse_init_list())
        } else {
            Initializer::Expr(self.parse_assign_expr())
        }
    }

    /// `{ [designators =] init, ... }` (clang's `ParseBraceInitializer`).
    pub(crate) fn parse_init_list(&mut self) -> InitList {
        let Some(open) = self.open() else {
            return InitList {
                span: self.span(),
                items: Vec::new(),
            };
        };
        if !self.enter() {
            return InitList {
                span: open,
                items: Vec::new(),
            };
        }
        let mut items = Vec::new();
        if self.is(Punct::RBrace) {
            self.emit(
                Diagnostic::warning(open, "use of an empty initializer is a C23 extension")
                    .with_group("c23-extensions"),
            );
        }
        while !self.is(Punct::RBrace) && !self.cut_off {
            let start = self.span();
            let mut designators = Vec::new();
            let mut bad = false;
            loop {
                if self.is(Punct::Dot) {
                    let dot = self.bump();
                    let t = *self.tok();
                    match self.ident() {
                        Some(sym) => {
                            self.bump();
                            designators.push(Designator::Field {
                                span: dot.to(t.span),
                                name: Ident {
                                    name: sym,
                                    span: t.span,
                                },
                            });
                        }
                        None => {
                            self.error(t.span, "expected a field designator, such as '.field = 4'");
                            bad = true;
                            break;
                        }
                    }
                } else if self.is(Punct::LBracket) {
                    let Some(lb) = self.open() else { break };
                    let index = self.parse_cond_expr();
                    let rb = self.close(Punct::RBracket, lb);
                    designators.push(Designator::Index {
                        span: lb.to(rb.unwrap_or(self.prev_span())),
                        index,
                    });
                } else {
                    break;
                }
            }
            if !bad && !designators.is_empty() && self.eat(Punct::Eq).is_none() {
                let s = self.span();
                if designators.len() == 1 && matches!(designators[0], Designator::Index { .. }) {
                    self.emit(
                        Diagnostic::warning(s, "use of GNU 'missing =' extension in designator")
                            .with_group("gnu-designator")
                            .with_fixit(s.start(), "= "),
                    );
                } else {
                    self.error(s, "expected '=' or another designator");
                    bad = true;
                }
            }
            if bad {
                // clang's ParseBraceInitializer: go on after a `,`, else give up the list.
                if self.eat(Punct::Comma).is_some() {
                    continue;
                }
                self.skip_until(
                    &[Punct::RBrace],
                    Skip {
                        at_semi: false,
                        before_match: true,
                    },
                );
                break;
            }
            let init = self.parse_initializer();
            let failed = matches!(&init, Initializer::Expr(e) if matches!(e.kind, ExprKind::Error));
            items.push(InitItem {
                span: start.to(self.prev_span()),
                designators,
                init,
            });
            if failed && !self.is(Punct::Comma) {
                self.skip_until(
                    &[Punct::RBrace],
                    Skip {
                        at_semi: false,
                        before_match: true,
                    },
                );
                break;
            }
            if self.eat(Punct::Comma).is_none() {
                break;
            }
        }
        self.leave();
        let close = self.close(Punct::RBrace, open);
        InitList {
            span: open.to(close.unwrap_or(self.prev_span())),
            items,
        }
    }
}
