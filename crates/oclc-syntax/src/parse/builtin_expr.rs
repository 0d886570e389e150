//! The GNU builtins that are keywords with their own syntax, as clang's
//! `ParseBuiltinPrimaryExpression` and `ParseBuiltinBitCast` parse them:
//! `__builtin_offsetof(type, member-designator)`, `__builtin_choose_expr(c, a, b)` and
//! `__builtin_bit_cast(type, expr)`. Each returns `None` after reporting a syntax error.

use super::core::{Parser, Skip};
use super::keywords::Kw;
use crate::ast::*;
use crate::source::Span;
use crate::token::Punct;

/// clang's `SkipUntil(tok::r_paren, StopAtSemi)`: past the `)`, or at a `;`.
const TO_RPAREN: Skip = Skip {
    at_semi: true,
    before_match: false,
};

impl Parser<'_> {
    /// Parses one of the keyword builtins; the current token is the keyword `k`.
    pub(crate) fn parse_gnu_builtin(&mut self, k: Kw) -> Option<Expr> {
        let kw_span = self.bump();
        match k {
            Kw::BuiltinBitCast => self.parse_bit_cast(kw_span),
            Kw::BuiltinOffsetof => self.parse_offsetof(kw_span),
            _ => self.parse_choose_expr(kw_span),
        }
    }

    /// The `(` every keyword builtin but `__builtin_bit_cast` starts with: clang reports
    /// "expected '(' after '...'" at the current token.
    fn builtin_open(&mut self, name: &str) -> Option<Span> {
        if !self.is(Punct::LParen) {
            let at = self.span();
            self.error(at, format!("expected '(' after '{name}'"));
            return None;
        }
        self.open()
    }

    /// `__builtin_bit_cast ( type-name , expression )`.
    fn parse_bit_cast(&mut self, kw_span: Span) -> Option<Expr> {
        if !self.is(Punct::LParen) {
            self.expect_after(Punct::LParen, "expected '(' after '__builtin_bit_cast'");
            return None;
        }
        let open = self.open()?;
        let ty = self.parse_type_name();
        if !self.is(Punct::Comma) {
            // clang reports the missing comma twice: once from `ExpectAndConsume` (with a
            // fix-it after the previous token), once at the current token.
            self.expect_after(Punct::Comma, "expected ','");
            let at = self.span();
            self.error(at, "expected ','");
            self.abandon();
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        self.bump();
        let expr = self.parse_expr();
        self.close(Punct::RParen, open)?;
        if matches!(expr.kind, ExprKind::Error) || ty.specs.items.is_empty() {
            return None;
        }
        let span = kw_span.to(self.prev_span());
        Some(self.mk(
            span,
            ExprKind::BitCast {
                ty: Box::new(ty),
                expr: Box::new(expr),
            },
        ))
    }

    /// `__builtin_choose_expr ( assignment-expr , assignment-expr , assignment-expr )`.
    fn parse_choose_expr(&mut self, kw_span: Span) -> Option<Expr> {
        self.builtin_open("__builtin_choose_expr")?;
        let mut parts = Vec::with_capacity(3);
        for i in 0..3 {
            let e = self.parse_assign_expr();
            if matches!(e.kind, ExprKind::Error) {
                self.abandon();
                self.skip_until(&[Punct::RParen], TO_RPAREN);
                return None;
            }
            parts.push(e);
            if i < 2 && !self.expect_after(Punct::Comma, "expected ','") {
                self.abandon();
                self.skip_until(&[Punct::RParen], TO_RPAREN);
                return None;
            }
        }
        // clang reports a missing `)` here without a "to match" note and without skipping.
        self.abandon();
        if !self.is(Punct::RParen) {
            let at = self.span();
            self.error(at, "expected ')'");
            return None;
        }
        self.bump();
        let span = kw_span.to(self.prev_span());
        let mut it = parts.into_iter();
        let (cond, then, els) = (it.next()?, it.next()?, it.next()?);
        Some(self.mk(
            span,
            ExprKind::ChooseExpr {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(els),
            },
        ))
    }

    /// `__builtin_offsetof ( type-name , identifier ( . identifier | [ expression ] )* )`.
    fn parse_offsetof(&mut self, kw_span: Span) -> Option<Expr> {
        let open = self.builtin_open("__builtin_offsetof")?;
        let ty = self.parse_type_name();
        if ty.specs.items.is_empty() {
            self.abandon();
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        if !self.expect_after(Punct::Comma, "expected ','") {
            self.abandon();
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        let mut path = Vec::new();
        let Some(first) = self.offsetof_ident() else {
            self.abandon();
            return None;
        };
        path.push(OffsetOfPart::Field {
            span: first.span,
            name: first,
        });
        loop {
            if self.is(Punct::Dot) {
                let dot = self.bump();
                let Some(name) = self.offsetof_ident() else {
                    self.abandon();
                    return None;
                };
                path.push(OffsetOfPart::Field {
                    span: dot.to(name.span),
                    name,
                });
            } else if self.is(Punct::LBracket) {
                let lb = self.open()?;
                let index = self.parse_expr();
                if matches!(index.kind, ExprKind::Error) {
                    self.abandon();
                    self.abandon();
                    self.skip_until(&[Punct::RParen], TO_RPAREN);
                    return None;
                }
                let Some(close) = self.close(Punct::RBracket, lb) else {
                    // clang goes on and fails silently at the `)` it then expects.
                    self.abandon();
                    return None;
                };
                path.push(OffsetOfPart::Index { index, close });
            } else {
                self.close(Punct::RParen, open)?;
                break;
            }
        }
        let span = kw_span.to(self.prev_span());
        Some(self.mk(
            span,
            ExprKind::OffsetOf {
                ty: Box::new(ty),
                path,
            },
        ))
    }

    /// An identifier of an `offsetof` designator, or clang's "expected identifier" at the
    /// current token and a skip past the `)`.
    fn offsetof_ident(&mut self) -> Option<Ident> {
        if let Some(name) = self.ident() {
            let span = self.bump();
            return Some(Ident { name, span });
        }
        let at = self.span();
        self.error(at, "expected identifier");
        self.skip_until(&[Punct::RParen], TO_RPAREN);
        None
    }
}
