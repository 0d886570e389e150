//! Expressions, by operator precedence as clang's `ParseExpr.cpp` does it, including OpenCL's
//! vector literals `(float4)(a, b, 1, 2)` and `vec_step`.

use super::core::{Parser, Skip};
use super::keywords::Kw;
use super::literal::{self, LitDiag, Number};
use super::{MAX_NESTING, names};
use crate::ast::*;
use crate::diag::{Diagnostic, Level};
use crate::intern::Symbol;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

/// Binary operator precedence levels (clang's `prec::Level`).
const COMMA: u8 = 1;
const ASSIGN: u8 = 2;
const COND: u8 = 3;

enum Op {
    Bin(BinOp),
    Assign(Option<BinOp>),
    Cond,
}

impl Parser<'_> {
    pub(crate) fn mk(&mut self, span: Span, kind: ExprKind) -> Expr {
        Expr {
            id: self.expr_id(),
            span,
            kind,
        }
    }

    /// An `ExprKind::Error` placeholder (the error is reported by the caller).
    pub(crate) fn error_expr(&mut self, span: Span) -> Expr {
        self.invalid_exprs += 1;
        self.mk(span, ExprKind::Error)
    }

    /// `expression` (with the comma operator).
    pub(crate) fn parse_expr(&mut self) -> Expr {
        let lhs = self.parse_cast_expr();
        self.parse_rhs(lhs, COMMA)
    }

    /// `assignment-expression`.
    pub(crate) fn parse_assign_expr(&mut self) -> Expr {
        let lhs = self.parse_cast_expr();
        self.parse_rhs(lhs, ASSIGN)
    }

    /// `conditional-expression` (clang's `ParseConstantExpression`).
    pub(crate) fn parse_cond_expr(&mut self) -> Expr {
        let lhs = self.parse_cast_expr();
        self.parse_rhs(lhs, COND)
    }

    fn binop(&self) -> Option<(u8, Op)> {
        let TokenKind::Punct(p) = self.tok().kind else {
            return None;
        };
        use Punct::*;
        Some(match p {
            Comma => (COMMA, Op::Bin(BinOp::Comma)),
            Eq => (ASSIGN, Op::Assign(None)),
            StarEq => (ASSIGN, Op::Assign(Some(BinOp::Mul))),
            SlashEq => (ASSIGN, Op::Assign(Some(BinOp::Div))),
            PercentEq => (ASSIGN, Op::Assign(Some(BinOp::Rem))),
            PlusEq => (ASSIGN, Op::Assign(Some(BinOp::Add))),
            MinusEq => (ASSIGN, Op::Assign(Some(BinOp::Sub))),
            ShlEq => (ASSIGN, Op::Assign(Some(BinOp::Shl))),
            ShrEq => (ASSIGN, Op::Assign(Some(BinOp::Shr))),
            AmpEq => (ASSIGN, Op::Assign(Some(BinOp::BitAnd))),
            CaretEq => (ASSIGN, Op::Assign(Some(BinOp::BitXor))),
            PipeEq => (ASSIGN, Op::Assign(Some(BinOp::BitOr))),
            Question => (COND, Op::Cond),
            PipePipe => (4, Op::Bin(BinOp::LogOr)),
            AmpAmp => (5, Op::Bin(BinOp::LogAnd)),
            Pipe => (6, Op::Bin(BinOp::BitOr)),
            Caret => (7, Op::Bin(BinOp::BitXor)),
            Amp => (8, Op::Bin(BinOp::BitAnd)),
            EqEq => (9, Op::Bin(BinOp::Eq)),
            Ne => (9, Op::Bin(BinOp::Ne)),
            Lt => (10, Op::Bin(BinOp::Lt)),
            Gt => (10, Op::Bin(BinOp::Gt)),
            Le => (10, Op::Bin(BinOp::Le)),
            Ge => (10, Op::Bin(BinOp::Ge)),
            Shl => (11, Op::Bin(BinOp::Shl)),
            Shr => (11, Op::Bin(BinOp::Shr)),
            Plus => (12, Op::Bin(BinOp::Add)),
            Minus => (12, Op::Bin(BinOp::Sub)),
            Star => (13, Op::Bin(BinOp::Mul)),
            Slash => (13, Op::Bin(BinOp::Div)),
            Percent => (13, Op::Bin(BinOp::Rem)),
            _ => return None,
        })
    }

    /// Counts one more link of a left-nested chain against the nesting limit.
    fn chain_link(&mut self, links: &mut u32) -> bool {
        *links += 1;
        if self.nest + *links >= MAX_NESTING {
            let at = self.span();
            self.emit(Diagnostic::new(
                Level::Fatal,
                at,
                format!("nesting level exceeded maximum of {MAX_NESTING}"),
            ));
            self.cut_off();
            return false;
        }
        true
    }

    /// clang's `ParseRHSOfBinaryExpression`.
    fn parse_rhs(&mut self, mut lhs: Expr, min_prec: u8) -> Expr {
        let mut links = 0;
        loop {
            let Some((prec, op)) = self.binop() else {
                return lhs;
            };
            if prec < min_prec || self.cut_off {
                return lhs;
            }
            // A chain of binary operators (`a + b + c ...`) is a loop here and downstream, as
            // in clang: its length is not nesting. Assignments and `?:` count.
            let counts = !matches!(op, Op::Bin(_));
            if counts && !self.chain_link(&mut links) {
                return lhs;
            }
            let op_span = self.bump();
            let mut middle = None;
            let mut colon = op_span;
            if let Op::Cond = op {
                middle = Some(self.parse_expr());
                match self.eat(Punct::Colon) {
                    Some(c) => colon = c,
                    None => {
                        let at = self.span();
                        self.emit(
                            Diagnostic::error(at, "expected ':'")
                                .with_note(op_span, "to match this '?'")
                                .with_fixit(at.start(), ": "),
                        );
                        colon = at.start();
                    }
                }
            }
            let mut rhs = self.parse_cast_expr();
            while let Some((next, _)) = self.binop() {
                let right_assoc = prec == COND || prec == ASSIGN;
                if prec < next || (prec == next && right_assoc) {
                    if !self.enter() {
                        break;
                    }
                    rhs = self.parse_rhs(rhs, prec + u8::from(!right_assoc));
                    self.leave();
                } else {
                    break;
                }
            }
            let span = lhs.span.to(rhs.span);
            let kind = match op {
                Op::Bin(op) => ExprKind::Binary {
                    op,
                    op_span,
                    lhs: crate::ast::boxed(lhs),
                    rhs: crate::ast::boxed(rhs),
                },
                Op::Assign(op) => ExprKind::Assign {
                    op,
                    op_span,
                    lhs: crate::ast::boxed(lhs),
                    rhs: crate::ast::boxed(rhs),
                },
                Op::Cond => {
                    let then = match middle {
                        Some(m) => m,
                        None => self.error_expr(op_span),
                    };
                    ExprKind::Cond {
                        cond: crate::ast::boxed(lhs),
                        then: crate::ast::boxed(then),
                        else_: crate::ast::boxed(rhs),
                        question: op_span,
                        colon,
                    }
                }
            };
            lhs = self.mk(span, kind);
        }
    }

    /// `cast-expression` (clang's `ParseCastExpression`), with its postfix suffixes.
    pub(crate) fn parse_cast_expr(&mut self) -> Expr {
        if !self.enter() {
            let s = self.span();
            return self.error_expr(s);
        }
        let e = self.parse_cast_expr_inner();
        self.leave();
        e
    }

    fn parse_cast_expr_inner(&mut self) -> Expr {
        let t = *self.tok();
        let start = t.span;
        match t.kind {
            TokenKind::Punct(Punct::LParen) => return self.parse_paren_expr(),
            TokenKind::Punct(Punct::Caret) if !self.blocks_enabled() => {
                // A block literal where blocks are disabled: reported at the `^`; its
                // parameter list and body are skipped.
                let caret = self.bump();
                self.blocks_disabled(caret);
                for (open, close) in [
                    (Punct::LParen, Punct::RParen),
                    (Punct::LBrace, Punct::RBrace),
                ] {
                    if self.eat(open).is_some() {
                        self.skip_until(
                            &[close],
                            Skip {
                                at_semi: false,
                                before_match: false,
                            },
                        );
                    }
                }
                let span = caret.to(self.prev_span());
                return self.error_expr(span);
            }
            TokenKind::Number(sym) => {
                self.bump();
                let e = self.number_literal(sym, t.span);
                return self.parse_postfix(e);
            }
            TokenKind::Char(sym) => {
                self.bump();
                let (value, diags) = literal::decode_char(sym.as_str());
                let bad = self.lit_diags(t.span, diags);
                let e = if bad {
                    self.error_expr(t.span)
                } else {
                    let (prefix, _, _) =
                        literal::split_prefix(sym.as_str(), '\'').unwrap_or(("", "", 0));
                    let prefix = (!prefix.is_empty()).then(|| Symbol::intern(prefix));
                    self.mk(
                        t.span,
                        ExprKind::CharLit(CharLit {
                            spelling: sym,
                            value,
                            prefix,
                        }),
                    )
                };
                return self.parse_postfix(e);
            }
            TokenKind::Str(_) => {
                let e = self.parse_primary_string();
                return self.parse_postfix(e);
            }
            TokenKind::Punct(
                p @ (Punct::PlusPlus
                | Punct::MinusMinus
                | Punct::Amp
                | Punct::Star
                | Punct::Plus
                | Punct::Minus
                | Punct::Tilde
                | Punct::Bang),
            ) => {
                let op_span = self.bump();
                let op = match p {
                    Punct::PlusPlus => UnaryOp::PreInc,
                    Punct::MinusMinus => UnaryOp::PreDec,
                    Punct::Amp => UnaryOp::AddrOf,
                    Punct::Star => UnaryOp::Deref,
                    Punct::Plus => UnaryOp::Plus,
                    Punct::Minus => UnaryOp::Minus,
                    Punct::Tilde => UnaryOp::BitNot,
                    _ => UnaryOp::LogNot,
                };
                let operand = self.parse_cast_expr();
                let span = op_span.to(operand.span);
                return self.mk(
                    span,
                    ExprKind::Unary {
                        op,
                        op_span,
                        expr: crate::ast::boxed(operand),
                    },
                );
            }
            _ => {}
        }
        if let Some(k) = self.kw() {
            match k {
                Kw::True | Kw::False => {
                    self.bump();
                    let e = self.mk(start, ExprKind::BoolLit(k == Kw::True));
                    return self.parse_postfix(e);
                }
                Kw::Func => {
                    self.bump();
                    let e = self.mk(start, ExprKind::FuncName);
                    return self.parse_postfix(e);
                }
                Kw::Sizeof | Kw::VecStep | Kw::Alignof | Kw::AlignofGnu => {
                    self.bump();
                    let Some(arg) = self.parse_trait_operand() else {
                        return self.error_expr(start);
                    };
                    if k == Kw::Alignof && matches!(arg, TypeOrExpr::Expr(_)) {
                        self.emit(
                            Diagnostic::warning(
                                start,
                                format!(
                                    "'{}' applied to an expression is a GNU extension",
                                    t.text()
                                ),
                            )
                            .with_group("gnu-alignof-expression"),
                        );
                    }
                    let span = start.to(self.prev_span());
                    let arg = Box::new(arg);
                    let kind = match k {
                        Kw::Sizeof => ExprKind::SizeOf(arg),
                        Kw::VecStep => ExprKind::VecStep(arg),
                        _ => ExprKind::AlignOf {
                            arg,
                            gnu: k == Kw::AlignofGnu,
                        },
                    };
                    return self.mk(span, kind);
                }
                Kw::Extension => {
                    self.bump();
                    return self.parse_cast_expr();
                }
                Kw::BuiltinAstype => {
                    let e = self.parse_astype();
                    return self.parse_postfix(e);
                }
                Kw::BuiltinOffsetof | Kw::BuiltinBitCast | Kw::BuiltinChooseExpr => {
                    return match self.parse_gnu_builtin(k) {
                        Some(e) => self.parse_postfix(e),
                        None => self.error_expr(start),
                    };
                }
                _ => {}
            }
        }
        if let Some(sym) = self.ident()
            && !self.is_type_name(&t)
        {
            self.bump();
            if self.paren_exprs > 0
                && self.lookup(sym).is_none()
                && !self.is(Punct::LParen)
                && !self.has_typo_candidate(sym)
            {
                self.hopeless_idents += 1;
            }
            let e = self.mk(start, ExprKind::Ident(sym));
            return self.parse_postfix(e);
        }
        self.error(start, "expected expression");
        self.error_expr(start)
    }

    /// `__builtin_astype ( expr , type-name )` (clang's `ParseBuiltinPrimaryExpression`).
    fn parse_astype(&mut self) -> Expr {
        let start = self.bump();
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '(' after '__builtin_astype'");
            return self.error_expr(start);
        }
        let Some(open) = self.open() else {
            return self.error_expr(start);
        };
        let expr = self.parse_assign_expr();
        if matches!(expr.kind, ExprKind::Error) {
            self.abandon();
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return expr;
        }
        if !self.expect_after(Punct::Comma, "expected ','") {
            self.abandon();
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return self.error_expr(start);
        }
        let ty = self.parse_type_name();
        if self.is(Punct::RParen) {
            self.close(Punct::RParen, open);
        } else {
            self.abandon();
            let at = self.span();
            self.error(at, "expected ')'");
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return self.error_expr(start);
        }
        let span = start.to(self.prev_span());
        self.mk(
            span,
            ExprKind::AsType {
                expr: crate::ast::boxed(expr),
                ty: Box::new(ty),
            },
        )
    }

    /// The operand of `sizeof`, `vec_step`, `_Alignof`: `( type-name )`, a compound literal,
    /// or a unary expression.
    fn parse_trait_operand(&mut self) -> Option<TypeOrExpr> {
        if self.is(Punct::LParen) && self.token_starts_type_name(1) {
            let open = self.open()?;
            let ty = self.parse_type_name();
            self.close(Punct::RParen, open)?;
            if self.is(Punct::LBrace) {
                let init = self.parse_init_list();
                let span = open.to(self.prev_span());
                let e = self.mk(
                    span,
                    ExprKind::CompoundLit {
                        ty: Box::new(ty),
                        init,
                    },
                );
                return Some(TypeOrExpr::Expr(self.parse_postfix(e)));
            }
            return Some(TypeOrExpr::Type(ty));
        }
        let e = self.parse_cast_expr();
        if matches!(e.kind, ExprKind::Error) {
            return None;
        }
        Some(TypeOrExpr::Expr(e))
    }

    /// Whether specifiers plus declarator name a vector type: a builtin vector name or a
    /// vector typedef with no declarator chunks, or an `ext_vector_type` attribute.
    pub(crate) fn declares_vector(&self, specs: &DeclSpecs, declarator: &Declarator) -> bool {
        if !declarator.chunks.is_empty() {
            return false;
        }
        let ext = specs.items.iter().chain(declarator.attrs.iter()).any(|d| {
            matches!(&d.kind, DeclSpecKind::Attr(a)
                if a.name.name.as_str().trim_matches('_') == "ext_vector_type")
        });
        ext || specs.type_specs().any(|(t, _)| match t {
            TypeSpec::Builtin(sym) => names::is_vector_type_name(sym.as_str()),
            TypeSpec::TypedefName(sym) => self.vector_typedefs.contains_key(sym),
            _ => false,
        })
    }

    /// Whether the token `n` ahead starts a type name.
    pub(crate) fn token_starts_type_name(&self, n: usize) -> bool {
        let saved = self.nth(n);
        match self.kw_of(saved) {
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
                    | Kw::Attribute
            ),
            None => self.is_type_name(saved),
        }
    }

    /// `( expr )`, a cast `(T) e`, a vector literal `(T)(a, b)` or a compound literal
    /// `(T){...}` (clang's `ParseParenExpression`).
    fn parse_paren_expr(&mut self) -> Expr {
        let start = self.span();
        if self.token_starts_type_name(1) {
            let Some(open) = self.open() else {
                return self.error_expr(start);
            };
            let errors = self.errors;
            let ty = self.parse_type_name();
            let bad_type = self.errors > errors;
            // As clang, a missing `)` is reported and the operand still parsed, unless the
            // type name itself was bad.
            let close = self.close(Punct::RParen, open);
            if self.cut_off || bad_type {
                return self.error_expr(start);
            }
            let parens = open.to(close.unwrap_or(self.prev_span()));
            if self.is(Punct::LBrace) {
                let init = self.parse_init_list();
                let span = open.to(self.prev_span());
                let e = self.mk(
                    span,
                    ExprKind::CompoundLit {
                        ty: Box::new(ty),
                        init,
                    },
                );
                return self.parse_postfix(e);
            }
            if self.is(Punct::LParen)
                && !self.token_starts_type_name(1)
                && self.declares_vector(&ty.specs, &ty.declarator)
            {
                // OpenCL: a parenthesized list after a cast to a vector type is a vector
                // literal; postfix operators then apply to the cast (clang's
                // `ParseParenExpression`). Other types take a cast-expression operand, so
                // `(uint)(b)[1]` is `(uint)((b)[1])`.
                let list_start = self.span();
                let Some(lopen) = self.open() else {
                    return self.error_expr(start);
                };
                let mut elems = Vec::new();
                loop {
                    let e = self.parse_assign_expr();
                    if matches!(e.kind, ExprKind::Error) {
                        self.abandon();
                        self.skip_until(
                            &[Punct::RParen],
                            Skip {
                                at_semi: true,
                                before_match: false,
                            },
                        );
                        return e;
                    }
                    elems.push(e);
                    if self.eat(Punct::Comma).is_none() {
                        break;
                    }
                }
                self.close(Punct::RParen, lopen);
                let list = self.mk(list_start.to(self.prev_span()), ExprKind::ParenList(elems));
                let span = open.to(list.span);
                let cast = self.mk(
                    span,
                    ExprKind::Cast {
                        ty: Box::new(ty),
                        parens,
                        expr: crate::ast::boxed(list),
                    },
                );
                return self.parse_postfix(cast);
            }
            let operand = self.parse_cast_expr();
            let span = open.to(operand.span);
            return self.mk(
                span,
                ExprKind::Cast {
                    ty: Box::new(ty),
                    parens,
                    expr: crate::ast::boxed(operand),
                },
            );
        }
        if self.nth_is(1, Punct::LBrace) {
            return self.parse_stmt_expr();
        }
        let Some(open) = self.open() else {
            return self.error_expr(start);
        };
        let hopeless = self.hopeless_idents;
        self.paren_exprs += 1;
        let inner = self.parse_expr();
        self.paren_exprs -= 1;
        if self.hopeless_idents > hopeless {
            // clang corrects typos at the `)` in C: with no correction the parenthesized
            // expression is invalid (sema reports the name), and recovery is silent.
            self.invalid_exprs += 1;
        }
        if matches!(inner.kind, ExprKind::Error) {
            self.abandon();
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return inner;
        }
        let close = self.close(Punct::RParen, open);
        let span = open.to(close.unwrap_or(self.prev_span()));
        // A missing `)` is reported; the expression stays valid, as in clang.
        let e = self.mk(span, ExprKind::Paren(crate::ast::boxed(inner)));
        self.parse_postfix(e)
    }

    /// A GNU statement expression `({ ... })` at its `(` (clang's `ParseParenExpression`
    /// with a `{` next): the extension warning (shown with `-pedantic`), the compound-token
    /// warnings, and "not allowed at file scope" outside function bodies.
    fn parse_stmt_expr(&mut self) -> Expr {
        let start = self.span();
        let open_idx = self.pos;
        let Some(open) = self.open() else {
            return self.error_expr(start);
        };
        let brace = self.span();
        let from_macro =
            open.expn != crate::source::ExpnId::NONE || self.args.arg_of(open_idx) != 0;
        let (msg, group) = if from_macro {
            (
                "use of GNU statement expression extension from macro expansion",
                "gnu-statement-expression-from-macro-expansion",
            )
        } else {
            (
                "use of GNU statement expression extension",
                "gnu-statement-expression",
            )
        };
        self.emit(Diagnostic::warning(brace, msg).with_group(group));
        self.check_compound_token(open_idx, self.pos, true);
        if self.in_body == 0 {
            self.error(open, "statement expression not allowed at file scope");
            self.abandon();
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: true,
                    before_match: false,
                },
            );
            return self.error_expr(start);
        }
        let body = self.parse_compound_body();
        if self.pos > 0
            && self.nth(0).kind == TokenKind::Punct(Punct::RParen)
            && self
                .toks_at(self.pos - 1)
                .is_some_and(|t| t.is_punct(Punct::RBrace))
        {
            self.check_compound_token(self.pos - 1, self.pos, false);
        }
        let close = self.close(Punct::RParen, open);
        let parens = open.to(close.unwrap_or(self.prev_span()));
        let e = self.mk(parens, ExprKind::StmtExpr { body, parens });
        self.parse_postfix(e)
    }

    /// clang's `checkCompoundToken` for the `(` `{` (`begin`) or `}` `)` pair at token
    /// indices `first` and `second`: when either comes from a macro and they come from
    /// different macro expansion contexts (a macro's body, one run of a macro argument, or
    /// the file), `-Wcompound-token-split-by-macro` with clang's note at the second token.
    pub(crate) fn check_compound_token(&mut self, first: usize, second: usize, begin: bool) {
        let (Some(t1), Some(t2)) = (self.toks_at(first).copied(), self.toks_at(second).copied())
        else {
            return;
        };
        let (a1, a2) = (self.args.arg_of(first), self.args.arg_of(second));
        let none = crate::source::ExpnId::NONE;
        let in_macro = |t: &crate::token::Token, a: u32| t.span.expn != none || a != 0;
        if !in_macro(&t1, a1) && !in_macro(&t2, a2) {
            return;
        }
        // clang's FileID of a token: its macro-argument expansion, else its macro expansion.
        let context = |t: &crate::token::Token, a: u32| {
            if a != 0 {
                (true, a)
            } else {
                (false, t.span.expn.0)
            }
        };
        if context(&t1, a1) == context(&t2, a2) {
            return;
        }
        let (t1s, t2s, what) = if begin {
            ("'('", "'{'", "introducing")
        } else {
            ("'}'", "')'", "terminating")
        };
        let mut d = Diagnostic::warning(
            t1.span,
            format!(
                "{t1s} and {t2s} tokens {what} statement expression appear in different macro \
                 expansion contexts"
            ),
        )
        .with_group("compound-token-split-by-macro")
        .with_range(self.token_range(t1.span));
        d = self.arg_expansion_notes(d, a1);
        d = d.with_note_range(
            t2.span,
            format!("{t2s} token is here"),
            self.token_range(t2.span),
        );
        d = self.arg_expansion_notes(d, a2);
        self.emit(d);
    }

    /// clang's "expanded from macro" notes for a token that came from macro argument
    /// substitution `arg`: each parameter it was substituted for, outermost macro first.
    fn arg_expansion_notes(&self, mut d: Diagnostic, arg: u32) -> Diagnostic {
        for e in self.args.chain(arg).iter().rev() {
            let Some(x) = self.sm.expansion(e.param.expn) else {
                continue;
            };
            let spelled = crate::source::Span {
                expn: crate::source::ExpnId::NONE,
                ..e.param
            };
            d = d.with_note(spelled, format!("expanded from macro '{}'", x.macro_name));
        }
        d
    }

    /// The source range clang gives a token: the token itself, or for a token from a macro
    /// body the whole outermost invocation (its name, and its arguments in parentheses).
    fn token_range(&self, span: Span) -> Span {
        if span.expn == crate::source::ExpnId::NONE {
            return span;
        }
        let outer = self.sm.report_span(span);
        let end = self.invocation_end(span).unwrap_or(outer.hi);
        Span {
            hi: end.max(outer.lo),
            ..outer
        }
    }

    /// `[i]`, `(args)`, `.name`, `->name`, `++`, `--` after a primary expression.
    pub(crate) fn parse_postfix(&mut self, mut e: Expr) -> Expr {
        let mut links = 0;
        loop {
            let t = *self.tok();
            match t.kind {
                TokenKind::Punct(Punct::LBracket) => {
                    if !self.chain_link(&mut links) {
                        return e;
                    }
                    let Some(open) = self.open() else { return e };
                    let index = self.parse_expr();
                    let close = self.close(Punct::RBracket, open);
                    let brackets = open.to(close.unwrap_or(self.prev_span()));
                    let span = e.span.to(brackets);
                    e = self.mk(
                        span,
                        ExprKind::Index {
                            base: crate::ast::boxed(e),
                            index: crate::ast::boxed(index),
                            brackets,
                        },
                    );
                }
                TokenKind::Punct(Punct::LParen) => {
                    if !self.chain_link(&mut links) {
                        return e;
                    }
                    let Some(open) = self.open() else { return e };
                    let mut args = crate::ast::expr_list();
                    let mut bad = false;
                    if !self.is(Punct::RParen) {
                        // clang's `ParseExpressionList`: a bad argument skips to the next
                        // `,` or `)` and the rest are still parsed.
                        loop {
                            let a = self.parse_assign_expr();
                            if matches!(a.kind, ExprKind::Error) {
                                bad = true;
                                self.skip_until(
                                    &[Punct::Comma, Punct::RParen],
                                    Skip {
                                        at_semi: false,
                                        before_match: true,
                                    },
                                );
                            }
                            args.push(a);
                            if self.eat(Punct::Comma).is_none() {
                                break;
                            }
                        }
                    }
                    if bad {
                        self.abandon();
                        self.skip_until(
                            &[Punct::RParen],
                            Skip {
                                at_semi: true,
                                before_match: false,
                            },
                        );
                        let span = e.span.to(self.prev_span());
                        return self.error_expr(span);
                    }
                    // A missing `)` after a call of a name declared nowhere in the source
                    // (a builtin, or undeclared): sema decides whether clang reports it.
                    let mut unclosed = None;
                    let close = match e.kind {
                        ExprKind::Ident(sym)
                            if !self.is(Punct::RParen)
                                && !self.cut_off
                                && self.lookup(sym).is_none() =>
                        {
                            unclosed = Some(self.span());
                            self.abandon();
                            self.skip_until(
                                &[Punct::RParen],
                                Skip {
                                    at_semi: true,
                                    before_match: true,
                                },
                            );
                            self.eat(Punct::RParen)
                        }
                        _ => self.close(Punct::RParen, open),
                    };
                    let parens = open.to(close.unwrap_or(self.prev_span()));
                    let span = e.span.to(parens);
                    e = self.mk(
                        span,
                        ExprKind::Call {
                            callee: crate::ast::boxed(e),
                            args,
                            parens,
                            unclosed,
                        },
                    );
                }
                TokenKind::Punct(p @ (Punct::Dot | Punct::Arrow)) => {
                    if !self.chain_link(&mut links) {
                        return e;
                    }
                    let op_span = self.bump();
                    let nt = *self.tok();
                    let Some(sym) = self.ident() else {
                        self.error(nt.span, "expected identifier");
                        let span = e.span.to(op_span);
                        return self.error_expr(span);
                    };
                    self.bump();
                    let name = Ident {
                        name: sym,
                        span: nt.span,
                    };
                    let span = e.span.to(nt.span);
                    e = self.mk(
                        span,
                        ExprKind::Member {
                            base: crate::ast::boxed(e),
                            arrow: p == Punct::Arrow,
                            op_span,
                            name,
                        },
                    );
                }
                TokenKind::Punct(p @ (Punct::PlusPlus | Punct::MinusMinus)) => {
                    if !self.chain_link(&mut links) {
                        return e;
                    }
                    let op_span = self.bump();
                    let op = if p == Punct::PlusPlus {
                        UnaryOp::PostInc
                    } else {
                        UnaryOp::PostDec
                    };
                    let span = e.span.to(op_span);
                    e = self.mk(
                        span,
                        ExprKind::Unary {
                            op,
                            op_span,
                            expr: crate::ast::boxed(e),
                        },
                    );
                }
                _ => return e,
            }
        }
    }

    /// Adjacent string literals, concatenated.
    pub(crate) fn parse_primary_string(&mut self) -> Expr {
        let start = self.span();
        let mut pieces = Vec::new();
        let mut value = Vec::new();
        let mut prefix: Option<Symbol> = None;
        let mut bad = false;
        while let TokenKind::Str(sym) = self.tok().kind {
            let span = self.bump();
            let (p, diags) = literal::decode_string(sym.as_str(), &mut value);
            bad |= self.lit_diags(span, diags);
            if !p.is_empty() {
                prefix = Some(Symbol::intern(&p));
            }
            pieces.push((sym, span));
        }
        let span = start.to(self.prev_span());
        if bad {
            return self.error_expr(span);
        }
        self.mk(
            span,
            ExprKind::StrLit(StrLit {
                pieces,
                value,
                prefix,
            }),
        )
    }

    fn number_literal(&mut self, sym: Symbol, span: Span) -> Expr {
        // A spelling decodes the same way every time (only a bad one reports anything).
        let decoded = match self.numbers.get(&sym) {
            Some(&n) => Ok(n),
            None => literal::decode_number(sym.as_str())
                .or_else(|e| {
                    // A GNU imaginary constant (`1i`, `2.0if`): the real literal, with the
                    // spelling kept for sema (which types and reports it).
                    literal::strip_imaginary(sym.as_str())
                        .and_then(|r| literal::decode_number(&r).ok())
                        .ok_or(e)
                })
                .inspect(|&n| {
                    self.numbers.insert(sym, n);
                }),
        };
        match decoded {
            Ok(Number::Int {
                value,
                radix,
                unsigned,
                long,
            }) => self.mk(
                span,
                ExprKind::IntLit(IntLit {
                    spelling: sym,
                    value,
                    radix,
                    unsigned,
                    long,
                }),
            ),
            Ok(Number::Float { value, suffix, hex }) => self.mk(
                span,
                ExprKind::FloatLit(FloatLit {
                    spelling: sym,
                    value,
                    suffix,
                    hex,
                }),
            ),
            Err(d) => {
                self.lit_diags(span, vec![d]);
                self.error_expr(span)
            }
        }
    }

    /// Reports literal diagnostics at their offsets in the token; true if any is an error.
    fn lit_diags(&mut self, span: Span, diags: Vec<LitDiag>) -> bool {
        let mut bad = false;
        for d in diags {
            let at = if span.expn.0 == 0 {
                let lo = span.lo.saturating_add(d.offset as u32).min(span.hi);
                Span { lo, hi: lo, ..span }
            } else {
                span
            };
            match d.warning {
                Some(group) => {
                    let mut w = Diagnostic::warning(at, d.message);
                    if !group.is_empty() {
                        w = w.with_group(group);
                    }
                    self.emit(w);
                }
                None => {
                    bad = true;
                    self.error(at, d.message);
                }
            }
        }
        bad
    }
}
