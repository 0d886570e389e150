//! Declarators (pointers, arrays, parameter lists, grouping parentheses), type names and
//! initializers with designators.

use super::core::{NameKind, Parser, Skip};
use super::decl::Ctx;
use super::keywords::Kw;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lang::ClStd;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

impl Parser<'_> {
    // -- declarators --------------------------------------------------------------------------

    /// Parses a declarator; `false` when a required name is missing (already diagnosed).
    pub(crate) fn parse_declarator(&mut self, ctx: Ctx) -> (Declarator, bool) {
        if !self.enter() {
            return (
                Declarator {
                    span: self.span(),
                    name: None,
                    name_at: self.span().start(),
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

    pub(crate) fn parse_declarator_inner(&mut self, ctx: Ctx) -> (Declarator, bool) {
        let start = self.span();
        let mut pointers = Vec::new();
        loop {
            if self.cut_off {
                break;
            }
            if self.is(Punct::Caret) && !self.blocks_enabled() {
                let caret = self.bump();
                self.blocks_disabled(caret);
                let _ = self.parse_type_qual_list();
                pointers.push(Chunk {
                    span: caret.to(self.prev_span()),
                    kind: ChunkKind::Block,
                });
                continue;
            }
            if !self.is(Punct::Star) {
                break;
            }
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

    /// Whether clang enables blocks in this mode (`LangOpts.Blocks`: OpenCL C 2.0, and 3.0
    /// with `__opencl_c_device_enqueue`).
    pub(crate) fn blocks_enabled(&self) -> bool {
        self.lang.std == ClStd::Cl20
            || (self.lang.std == ClStd::Cl30 && self.lang.has("__opencl_c_device_enqueue"))
    }

    /// clang's error for a block pointer or literal where blocks are disabled.
    pub(crate) fn blocks_disabled(&mut self, caret: Span) {
        self.error(
            caret,
            "blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with __opencl_c_device_enqueue feature",
        );
    }

    /// Qualifiers, address spaces and attributes after a `*`.
    pub(crate) fn parse_type_qual_list(&mut self) -> Vec<DeclSpec> {
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

    pub(crate) fn parse_direct_declarator(&mut self, ctx: Ctx) -> (Declarator, bool) {
        let start = self.span();
        let mut d = Declarator {
            span: start.start(),
            name: None,
            name_at: start.start(),
            chunks: Vec::new(),
            attrs: Vec::new(),
        };
        let mut ok = true;
        if let Some(sym) = self.ident()
            && ctx != Ctx::TypeName
        {
            let s = self.bump();
            d.name = Some(Ident { name: sym, span: s });
            d.name_at = s;
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
            d.name_at = inner.name_at;
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
                let (chunk, skipped) = self.parse_array_chunk();
                let close = if skipped {
                    self.abandon();
                    None
                } else {
                    self.close(Punct::RBracket, open)
                };
                d.chunks.push(Chunk {
                    span: open.to(close.unwrap_or(self.prev_span())),
                    kind: ChunkKind::Array(chunk),
                });
            } else if self.is(Punct::LParen) {
                let Some(open) = self.open() else {
                    return (d, false);
                };
                let mut f = self.parse_params();
                let close = self.close(Punct::RParen, open);
                f.close = close.unwrap_or(self.prev_span());
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
    pub(crate) fn paren_is_grouping(&self, ctx: Ctx) -> bool {
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

    pub(crate) fn token_starts_decl_specs(&self, t: &crate::token::Token) -> bool {
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
                    | Kw::BuiltinOffsetof
                    | Kw::BuiltinBitCast
                    | Kw::BuiltinChooseExpr
            ),
            None => self.is_type_name(t),
        }
    }

    /// Inside `[...]`: `static`, qualifiers, `*`, size.
    /// Also says whether a bad size was skipped together with the `]`.
    pub(crate) fn parse_array_chunk(&mut self) -> (ArrayChunk, bool) {
        let mut static_span = self.eat_kw(Kw::Static);
        let quals = self.parse_type_qual_list();
        if static_span.is_none() {
            static_span = self.eat_kw(Kw::Static);
        }
        let is_static = static_span.is_some();
        if self.is(Punct::Star) && self.nth_is(1, Punct::RBracket) {
            self.bump();
            return (
                ArrayChunk {
                    size: None,
                    quals,
                    is_static,
                    star: true,
                },
                false,
            );
        }
        let size = if self.is(Punct::RBracket) {
            if let Some(s) = static_span {
                self.error(s, "'static' may not be used without an array size");
            }
            None
        } else {
            let e = self.parse_assign_expr();
            if matches!(e.kind, ExprKind::Error) {
                // clang skips past the `]` (or to a `;`) and reports nothing more.
                self.skip_until(
                    &[Punct::RBracket],
                    Skip {
                        at_semi: true,
                        before_match: false,
                    },
                );
                return (
                    ArrayChunk {
                        size: Some(Box::new(e)),
                        quals,
                        is_static,
                        star: false,
                    },
                    true,
                );
            }
            Some(Box::new(e))
        };
        (
            ArrayChunk {
                size,
                quals,
                is_static,
                star: false,
            },
            false,
        )
    }

    /// A parameter list after its `(` (clang's `ParseFunctionDeclarator`).
    pub(crate) fn parse_params(&mut self) -> FunctionChunk {
        let mut f = FunctionChunk {
            params: Vec::new(),
            ellipsis: None,
            kr_idents: Vec::new(),
            close: Span::DUMMY,
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
        let mut specs = self.parse_decl_specs(Ctx::TypeName);
        self.check_specifier_qualifier_list(&mut specs);
        let (declarator, _) = self.parse_declarator(Ctx::TypeName);
        if !specs.items.is_empty() {
            let before = self.diags.list.len();
            self.check_implicit_int(&specs, &declarator);
            self.type_name_diag = (self.diags.list.len() > before).then_some(before);
        }
        TypeName {
            span: start.to(self.prev_span()),
            specs,
            declarator,
        }
    }

    /// clang's checks of a specifier-qualifier list (type names and struct members): at least
    /// one specifier; no storage class (the first is reported) and no `inline`/`_Noreturn`
    /// (each reported once); the offending specifiers are dropped, as clang drops them.
    pub(crate) fn check_specifier_qualifier_list(&mut self, specs: &mut DeclSpecs) {
        if specs.items.is_empty() {
            let s = self.span();
            self.error(s, "type name requires a specifier or qualifier");
            return;
        }
        if let Some(d) = specs
            .items
            .iter()
            .find(|d| matches!(d.kind, DeclSpecKind::Storage(_)))
        {
            let at = d.span;
            self.error(at, "type name does not allow storage class to be specified");
        }
        for f in [FuncSpec::Inline, FuncSpec::Noreturn] {
            if let Some(d) = specs.items.iter().find(|d| d.kind == DeclSpecKind::Func(f)) {
                let at = d.span;
                self.error(
                    at,
                    "type name does not allow function specifier to be specified",
                );
            }
        }
        specs.items.retain(|d| {
            !matches!(
                d.kind,
                DeclSpecKind::Storage(_)
                    | DeclSpecKind::Func(FuncSpec::Inline | FuncSpec::Noreturn)
            )
        });
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
