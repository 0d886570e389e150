//! `struct`, `union` and `enum` specifiers with their bodies, and clang's check for a
//! missing `;` after a definition.

use super::core::{NameKind, Parser, Skip, TagKind};
use super::decl::Ctx;
use super::keywords::Kw;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::token::{Punct, TokenKind};

impl Parser<'_> {
    // -- struct, union, enum ------------------------------------------------------------------

    pub(crate) fn parse_record_spec(&mut self, union: bool) -> Option<RecordSpec> {
        let kw_span = self.bump();
        let id = self.decl_id();
        let mut attrs = self.parse_plain_attrs();
        let mut name = None;
        if let Some(sym) = self.ident() {
            name = Some(Ident {
                name: sym,
                span: self.bump(),
            });
            let tk = if union {
                TagKind::Union
            } else {
                TagKind::Struct
            };
            self.declare_tag(sym, tk);
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
    pub(crate) fn check_after_tag_definition(&mut self, kw_name: &str) {
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

    pub(crate) fn next_is_type_specifier(&self) -> bool {
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
    pub(crate) fn parse_field_group(&mut self) -> Option<FieldGroup> {
        let start = self.span();
        let mut specs = self.parse_decl_specs(Ctx::Member);
        let empty_specs = specs.items.is_empty() && !self.fake_semi;
        if !self.fake_semi {
            self.check_specifier_qualifier_list(&mut specs);
        }
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
                        name_at: fstart.start(),
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
                // (No implicit-int error when the specifiers were missing: already reported.)
                if !empty_specs && (declarator.name.is_some() || bit_width.is_none()) {
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

    pub(crate) fn parse_enum_spec(&mut self) -> Option<EnumSpec> {
        let kw_span = self.bump();
        let id = self.decl_id();
        let mut attrs = self.parse_plain_attrs();
        let mut name = None;
        if let Some(sym) = self.ident() {
            name = Some(Ident {
                name: sym,
                span: self.bump(),
            });
            self.declare_tag(sym, TagKind::Enum);
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
}
