//! GNU inline assembly statements, as clang's `ParseAsmStatement` reads them:
//! `__asm__ [volatile|inline|goto]... ("template" : outputs : inputs : clobbers : labels);`
//! (plain `asm` is no keyword in OpenCL C). The parser keeps the operands for sema, which
//! checks constraints and operands as clang's `ActOnGCCAsmStmt` does; no device runs them.

use super::core::{Parser, Skip};
use super::keywords::Kw;
use crate::ast::*;
use crate::token::{Punct, TokenKind};

/// clang's `SkipUntil(tok::r_paren, StopAtSemi)`: past the `)`, or at a `;`.
const TO_RPAREN: Skip = Skip {
    at_semi: true,
    before_match: false,
};

impl Parser<'_> {
    /// Parses an asm statement; the current token is `__asm` or `__asm__`.
    pub(crate) fn parse_asm_stmt(&mut self) -> StmtKind {
        self.bump();
        let kind = match self.asm_body() {
            Some(a) => StmtKind::Asm(Box::new(a)),
            None => StmtKind::Error,
        };
        // clang wants the `;` only after a valid statement.
        if matches!(kind, StmtKind::Error) {
            self.eat(Punct::Semi);
        } else {
            self.end_stmt("asm");
        }
        kind
    }

    /// A top-level `__asm__("...");` (clang's `ParseSimpleAsm`, then the `;`).
    pub(crate) fn parse_file_asm(&mut self) {
        self.bump();
        let q = match self.kw() {
            Some(Kw::Volatile) => Some("volatile"),
            Some(Kw::Inline) => Some("inline"),
            Some(Kw::Goto) => Some("goto"),
            _ => None,
        };
        if let Some(q) = q {
            let s = self.span();
            self.error(s, format!("meaningless '{q}' on asm outside function"));
            self.bump();
        }
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '(' after 'asm'");
        } else if let Some(open) = self.open() {
            if self.asm_string().is_some() {
                self.close(Punct::RParen, open);
            } else {
                self.abandon_to_rparen();
            }
        }
        self.expect_after(Punct::Semi, "expected ';' after top-level asm block");
    }

    /// The qualifiers and the parenthesized part; `None` after a syntax error.
    fn asm_body(&mut self) -> Option<AsmStmt> {
        let (mut volatile, mut inline, mut goto) = (false, false, false);
        loop {
            let seen = match self.kw() {
                Some(Kw::Volatile) => Some(("volatile", &mut volatile)),
                Some(Kw::Inline) => Some(("inline", &mut inline)),
                Some(Kw::Goto) => Some(("goto", &mut goto)),
                _ => None,
            };
            let Some((name, flag)) = seen else { break };
            if *flag {
                let s = self.span();
                self.error(s, format!("duplicate asm qualifier '{name}'"));
            }
            *flag = true;
            self.bump();
        }
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected 'volatile', 'inline', 'goto', or '('");
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        let open = self.open()?;
        let Some(template) = self.asm_string() else {
            self.abandon();
            self.skip_until(
                &[Punct::RParen],
                Skip {
                    at_semi: false,
                    before_match: false,
                },
            );
            return None;
        };
        let mut a = AsmStmt {
            simple: false,
            goto,
            template,
            outputs: Vec::new(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            labels: Vec::new(),
        };
        if self.is(Punct::RParen) {
            a.simple = true;
            self.close(Punct::RParen, open);
            return Some(a);
        }
        if self.eat(Punct::Colon).is_some() {
            a.outputs = self.asm_operands()?;
        }
        if self.eat(Punct::Colon).is_some() {
            a.inputs = self.asm_operands()?;
        }
        if self.eat(Punct::Colon).is_some() && matches!(self.tok().kind, TokenKind::Str(_)) {
            while let Some(c) = self.asm_string() {
                a.clobbers.push(c);
                if self.eat(Punct::Comma).is_none() {
                    break;
                }
            }
        }
        if !goto && !self.is(Punct::RParen) {
            let s = self.span();
            self.error(s, "expected ')'");
            self.abandon();
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        if self.eat(Punct::Colon).is_some() {
            loop {
                let t = *self.tok();
                let Some(name) = self.ident() else {
                    self.error(t.span, "expected identifier");
                    self.abandon();
                    self.skip_until(&[Punct::RParen], TO_RPAREN);
                    return None;
                };
                self.bump();
                a.labels.push(Ident { name, span: t.span });
                if self.eat(Punct::Comma).is_none() {
                    break;
                }
            }
        } else if goto {
            let s = self.span();
            self.error(s, "expected ':'");
            self.abandon();
            self.skip_until(&[Punct::RParen], TO_RPAREN);
            return None;
        }
        self.close(Punct::RParen, open);
        Some(a)
    }

    /// clang's `ParseAsmStringLiteral`: an ordinary (unprefixed) string literal.
    fn asm_string(&mut self) -> Option<StrLit> {
        if !matches!(self.tok().kind, TokenKind::Str(_)) {
            let s = self.span();
            self.error(s, "expected string literal in 'asm'");
            return None;
        }
        let e = self.parse_primary_string();
        let ExprKind::StrLit(lit) = &e.kind else {
            return None;
        };
        if let Some(p) = lit.prefix {
            let s = self.span();
            let wide = if p.as_str() == "L" { "wide" } else { "unicode" };
            self.error(s, format!("cannot use {wide} string literal in 'asm'"));
            return None;
        }
        Some(lit.clone())
    }

    /// clang's `ParseAsmOperandsOpt`: `[name] "constraint" (expr)`, comma-separated, possibly
    /// none. `None` after a syntax error (skipped past the statement's `)`).
    fn asm_operands(&mut self) -> Option<Vec<AsmOperand>> {
        let mut ops = Vec::new();
        if !matches!(self.tok().kind, TokenKind::Str(_)) && !self.is(Punct::LBracket) {
            return Some(ops);
        }
        loop {
            let mut name = None;
            if self.is(Punct::LBracket) {
                let open = self.open()?;
                let t = *self.tok();
                let Some(sym) = self.ident() else {
                    self.error(t.span, "expected identifier");
                    self.abandon();
                    self.abandon();
                    self.skip_until(&[Punct::RParen], TO_RPAREN);
                    return None;
                };
                self.bump();
                name = Some(Ident {
                    name: sym,
                    span: t.span,
                });
                self.close(Punct::RBracket, open);
            }
            let Some(constraint) = self.asm_string() else {
                self.abandon();
                self.skip_until(&[Punct::RParen], TO_RPAREN);
                return None;
            };
            if !self.is(Punct::LParen) {
                let s = self.span();
                self.error(s, "expected '(' after 'asm operand'");
                self.abandon();
                self.skip_until(&[Punct::RParen], TO_RPAREN);
                return None;
            }
            let open = self.open()?;
            let expr = self.parse_expr();
            self.close(Punct::RParen, open);
            if matches!(expr.kind, ExprKind::Error) {
                self.abandon();
                self.skip_until(&[Punct::RParen], TO_RPAREN);
                return None;
            }
            ops.push(AsmOperand {
                name,
                constraint,
                expr,
            });
            if self.eat(Punct::Comma).is_none() {
                return Some(ops);
            }
        }
    }
}
