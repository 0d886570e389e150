//! Declaration specifiers (clang's `ParseDeclarationSpecifiers`): storage classes,
//! qualifiers, address spaces, type specifiers, typedef names and clang's implicit-int and
//! unknown-type-name handling.

use super::core::{NameKind, Parser, TagKind};
use super::decl::{Ctx, version_string};
use super::keywords::Kw;
use super::typo::TypoCtx;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lang::ClStd;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

impl Parser<'_> {
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
    pub(crate) fn parse_decl_specs(&mut self, _ctx: Ctx) -> DeclSpecs {
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
                // clang's `kw_pipe` before 2.0: reverted to an identifier, it ends the
                // specifiers (it is the declarator's name: `read_only pipe int p` is an
                // implicit int `pipe`), once.
                if !self.pipe_reverted && sym.as_str() == "pipe" && self.lang.std < ClStd::Cl20 {
                    self.pipe_reverted = true;
                    break;
                }
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
                // name means this identifier is the name; otherwise it is an unknown type
                // (in a type name too: `(__global T *)` is "unknown type name 'T'", while
                // `(const T)` is an implicit int named `T`).
                if self.valid_after_declarator_name(1) {
                    break;
                }
                // A tag name without its keyword (clang's ParseImplicitInt, before typo
                // correction): reported with the keyword as a fix-it, then parsed as if the
                // keyword were there.
                if let Some(tk) = self.lookup_tag(sym) {
                    let kw = tk.keyword();
                    self.emit(
                        Diagnostic::error(
                            span,
                            format!("must use '{kw}' tag to refer to type '{sym}'"),
                        )
                        .with_fixit(span.start(), format!("{kw} ")),
                    );
                    let id = self.decl_id();
                    let ident = Ident {
                        name: sym,
                        span: self.bump(),
                    };
                    let ts = match tk {
                        TagKind::Enum => TypeSpec::Enum(Box::new(EnumSpec {
                            id,
                            kw_span: span,
                            name: Some(ident),
                            attrs: Vec::new(),
                            fixed_type: None,
                            body: None,
                        })),
                        TagKind::Struct | TagKind::Union => {
                            TypeSpec::Record(Box::new(RecordSpec {
                                id,
                                kind: if tk == TagKind::Union {
                                    RecordKind::Union
                                } else {
                                    RecordKind::Struct
                                },
                                kw_span: span,
                                name: Some(ident),
                                attrs: Vec::new(),
                                body: None,
                            }))
                        }
                    };
                    items.push(DeclSpec {
                        span,
                        kind: DeclSpecKind::Type(ts),
                    });
                    has_type = true;
                    continue;
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
                Kw::Extern | Kw::Static
                    if self.lang.std < ClStd::Cl12 && !self.storage_class_ext() =>
                {
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
                Kw::Auto if self.storage_class_ext() => DeclSpecKind::Storage(StorageClass::Auto),
                Kw::Register if self.storage_class_ext() => {
                    DeclSpecKind::Storage(StorageClass::Register)
                }
                Kw::Auto | Kw::Register => {
                    // OpenCL C supports neither (clang's `SetStorageClassSpec`) unless
                    // `cl_clang_storage_class_specifiers` is enabled.
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
    pub(crate) fn as_keyword(
        &mut self,
        k: Kw,
        t: crate::token::Token,
        in_specs: bool,
    ) -> Option<AsQual> {
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
    pub(crate) fn valid_after_declarator_name(&self, n: usize) -> bool {
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
    pub(crate) fn parse_paren_type_or_expr(&mut self, _alignas: bool) -> Option<TypeOrExpr> {
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
}
