//! Attributes: `__attribute__((...))` and `[[ns::name(...)]]`. Address-space attributes
//! (`opencl_global`, `address_space(N)`, ...) become [`AsQual`]s.

use super::core::Parser;
use super::keywords::Kw;
use crate::ast::{
    AsForm, AsKind, AsQual, AttrArg, AttrSyntax, Attribute, DeclSpec, DeclSpecKind, Ident,
};
use crate::intern::Symbol;
use crate::token::{Punct, TokenKind};

/// Attributes whose arguments are identifiers, not expressions (clang's
/// `attributeHasIdentifierArg`, for those that matter to OpenCL C code).
const IDENT_ARG_ATTRS: &[&str] = &["endian", "mode", "cleanup", "format", "availability"];

/// The name without surrounding `__` (`__aligned__` is `aligned`).
pub(crate) fn normalized(name: &str) -> &str {
    name.strip_prefix("__")
        .and_then(|n| n.strip_suffix("__"))
        .unwrap_or(name)
}

/// The address space an attribute name selects.
fn as_attr(name: &str) -> Option<AsKind> {
    Some(match normalized(name) {
        "opencl_global" => AsKind::Global,
        "opencl_local" => AsKind::Local,
        "opencl_constant" => AsKind::Constant,
        "opencl_private" => AsKind::Private,
        "opencl_generic" => AsKind::Generic,
        "opencl_global_device" => AsKind::GlobalDevice,
        "opencl_global_host" => AsKind::GlobalHost,
        _ => return None,
    })
}

impl Parser<'_> {
    /// At `__attribute__` or `[[`.
    pub(crate) fn at_attr(&self) -> bool {
        self.kw() == Some(Kw::Attribute) || self.at_cxx_attr()
    }

    pub(crate) fn at_cxx_attr(&self) -> bool {
        self.is(Punct::LBracket) && self.nth_is(1, Punct::LBracket)
    }

    /// Parses any sequence of attribute specifiers into `out`.
    pub(crate) fn parse_attrs(&mut self, out: &mut Vec<DeclSpec>) {
        while !self.cut_off {
            if self.kw() == Some(Kw::Attribute) {
                self.parse_gnu_attr(out);
            } else if self.at_cxx_attr() {
                self.parse_cxx_attr(out);
            } else {
                break;
            }
        }
    }

    /// Parses attribute specifiers, keeping only the non-address-space ones.
    pub(crate) fn parse_plain_attrs(&mut self) -> Vec<Attribute> {
        let mut v = Vec::new();
        self.parse_attrs(&mut v);
        v.into_iter()
            .filter_map(|d| match d.kind {
                DeclSpecKind::Attr(a) => Some(a),
                _ => None,
            })
            .collect()
    }

    /// `__attribute__ (( attr, attr, ... ))`, as clang's `ParseGNUAttributes`.
    pub(crate) fn parse_gnu_attr(&mut self, out: &mut Vec<DeclSpec>) {
        self.bump();
        if !self.expect_after(Punct::LParen, "expected '(' after 'attribute'") {
            self.skip_until(
                &[Punct::RParen],
                super::core::Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return;
        }
        if !self.expect_after(Punct::LParen, "expected '(' after '('") {
            self.skip_until(
                &[Punct::RParen],
                super::core::Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return;
        }
        loop {
            while self.eat(Punct::Comma).is_some() {}
            let t = *self.tok();
            let Some(name) = t.ident() else { break };
            self.bump();
            let name = Ident { name, span: t.span };
            self.finish_attr(None, name, AttrSyntax::Gnu, out);
            if !self.is(Punct::Comma) {
                break;
            }
        }
        if !self.expect_after(Punct::RParen, "expected ')'") {
            self.skip_until(
                &[Punct::RParen],
                super::core::Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
        }
        if !self.expect_after(Punct::RParen, "expected ')'") {
            self.skip_until(
                &[Punct::RParen],
                super::core::Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
        }
    }

    /// `[[ ns::name(args), name ]]`.
    fn parse_cxx_attr(&mut self, out: &mut Vec<DeclSpec>) {
        self.bump();
        self.bump();
        loop {
            while self.eat(Punct::Comma).is_some() {}
            let t = *self.tok();
            let Some(first) = t.ident() else { break };
            self.bump();
            let first = Ident {
                name: first,
                span: t.span,
            };
            let (ns, name) = if self.is(Punct::Colon) && self.nth_is(1, Punct::Colon) {
                self.bump();
                self.bump();
                let t = *self.tok();
                match t.ident() {
                    Some(n) => {
                        self.bump();
                        (
                            Some(first),
                            Ident {
                                name: n,
                                span: t.span,
                            },
                        )
                    }
                    None => {
                        self.error(t.span, "expected identifier");
                        break;
                    }
                }
            } else {
                (None, first)
            };
            self.finish_attr(ns, name, AttrSyntax::Cxx, out);
            if !self.is(Punct::Comma) {
                break;
            }
        }
        for _ in 0..2 {
            if !self.expect_after(Punct::RBracket, "expected ']'") {
                self.skip_until(
                    &[Punct::RBracket],
                    super::core::Skip {
                        at_semi: true,
                        before_match: false,
                    },
                );
                break;
            }
        }
    }

    /// Parses the optional argument list of attribute `name` and records it.
    fn finish_attr(
        &mut self,
        namespace: Option<Ident>,
        name: Ident,
        syntax: AttrSyntax,
        out: &mut Vec<DeclSpec>,
    ) {
        let start = namespace.map_or(name.span, |n| n.span);
        let text = name.name.as_str();
        let form = if syntax == AttrSyntax::Gnu {
            AsForm::GnuAttr
        } else {
            AsForm::CxxAttr
        };
        let mut args = Vec::new();
        if self.is(Punct::LParen) {
            let Some(open) = self.open() else { return };
            if !self.is(Punct::RParen) {
                self.parse_attr_args(text, &mut args);
            }
            self.close(Punct::RParen, open);
        }
        let span = start.to(self.prev_span());
        let ns_ok = namespace.is_none_or(|n| n.name == Symbol::intern("clang"));
        if ns_ok && let Some(kind) = as_attr(text) {
            out.push(DeclSpec {
                span,
                kind: DeclSpecKind::AddrSpace(AsQual {
                    span,
                    kind,
                    form,
                    spelling: name.name,
                }),
            });
            return;
        }
        if ns_ok && normalized(text) == "address_space" {
            let arg = args.into_iter().find_map(|a| match a {
                AttrArg::Expr(e) => Some(e),
                _ => None,
            });
            let expr = match arg {
                Some(e) => e,
                None => {
                    self.error(name.span, "'address_space' attribute takes one argument");
                    return;
                }
            };
            out.push(DeclSpec {
                span,
                kind: DeclSpecKind::AddrSpace(AsQual {
                    span,
                    kind: AsKind::Numbered(Box::new(expr)),
                    form,
                    spelling: name.name,
                }),
            });
            return;
        }
        out.push(DeclSpec {
            span,
            kind: DeclSpecKind::Attr(Attribute {
                span,
                namespace,
                name,
                args,
                syntax,
            }),
        });
    }

    /// Comma-separated attribute arguments: type names where a type starts, identifiers for
    /// attributes that take them, expressions otherwise.
    fn parse_attr_args(&mut self, attr: &str, args: &mut Vec<AttrArg>) {
        let ident_args = IDENT_ARG_ATTRS.contains(&normalized(attr));
        loop {
            let t = *self.tok();
            if self.starts_type_name() {
                let ty = self.parse_type_name();
                args.push(AttrArg::Type(ty));
            } else if let TokenKind::Ident(sym) = t.kind
                && ident_args
                && (self.nth_is(1, Punct::Comma) || self.nth_is(1, Punct::RParen))
            {
                self.bump();
                args.push(AttrArg::Ident(Ident {
                    name: sym,
                    span: t.span,
                }));
            } else {
                let e = self.parse_assign_expr();
                let failed = matches!(e.kind, crate::ast::ExprKind::Error);
                args.push(AttrArg::Expr(e));
                if failed {
                    self.skip_until(
                        &[Punct::RParen],
                        super::core::Skip {
                            at_semi: true,
                            before_match: true,
                        },
                    );
                    return;
                }
            }
            if self.eat(Punct::Comma).is_none() {
                return;
            }
        }
    }
}
