//! Statements, with clang's `ParseStmt.cpp` diagnostics and recovery.

use super::core::{Parser, Skip};
use super::decl::Ctx;
use super::keywords::Kw;
use super::typo::TypoCtx;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

impl Parser<'_> {
    /// `{ block-item* }` at a `{`.
    pub(crate) fn parse_compound_body(&mut self) -> Block {
        self.parse_compound_body_closed().0
    }

    /// [`Self::parse_compound_body`], with the span of its `}`.
    pub(crate) fn parse_compound_body_closed(&mut self) -> (Block, Span) {
        let id = self.stmt_id();
        let start = self.span();
        let Some(open) = self.open() else {
            let b = Block {
                id,
                span: start,
                stmts: Vec::new(),
            };
            return (b, start);
        };
        self.push_scope();
        let mut stmts = crate::ast::stmt_list();
        loop {
            for p in self.take_pragmas() {
                let sid = self.stmt_id();
                stmts.push(Stmt {
                    id: sid,
                    span: p.span,
                    kind: StmtKind::Pragma(p),
                });
            }
            if self.is(Punct::RBrace) || self.at_eof() || self.cut_off {
                break;
            }
            let before = self.pos;
            let s = self.parse_stmt();
            stmts.push(s);
            if self.pos == before && !self.is(Punct::RBrace) {
                self.bump();
            }
        }
        self.pop_scope();
        let close = self.close(Punct::RBrace, open).unwrap_or(self.prev_span());
        let b = Block {
            id,
            span: open.to(close),
            stmts,
        };
        (b, close)
    }

    pub(crate) fn parse_stmt(&mut self) -> Stmt {
        if !self.enter() {
            let id = self.stmt_id();
            return Stmt {
                id,
                span: self.span(),
                kind: StmtKind::Error,
            };
        }
        let start = self.span();
        let kind = self.parse_stmt_kind();
        self.leave();
        let id = self.stmt_id();
        let span = if self.prev_span().lo >= start.lo && self.prev_span().file == start.file {
            start.to(self.prev_span())
        } else {
            start
        };
        Stmt { id, span, kind }
    }

    fn stmt_error(&mut self) -> StmtKind {
        StmtKind::Error
    }

    fn parse_stmt_kind(&mut self) -> StmtKind {
        if self.at_attr() {
            let mut specs = Vec::new();
            self.parse_attrs(&mut specs);
            if self.starts_decl_specs() {
                return match self.parse_block_declaration(Ctx::Block, specs) {
                    Some(d) => StmtKind::Decl(d),
                    None => StmtKind::Error,
                };
            }
            let attrs = specs
                .into_iter()
                .filter_map(|d| match d.kind {
                    DeclSpecKind::Attr(a) => Some(a),
                    _ => None,
                })
                .collect();
            let body = self.parse_stmt();
            return StmtKind::Attributed {
                attrs,
                body: Box::new(body),
            };
        }
        let t = *self.tok();
        match t.kind {
            TokenKind::Punct(Punct::LBrace) => {
                return StmtKind::Compound(self.parse_compound_body());
            }
            TokenKind::Punct(Punct::Semi) => {
                self.bump();
                return StmtKind::Null;
            }
            TokenKind::Punct(Punct::RBrace) => {
                self.error(t.span, "expected statement");
                return StmtKind::Error;
            }
            _ => {}
        }
        if self.at_asm_label() {
            return self.parse_asm_stmt();
        }
        if let Some(k) = self.kw() {
            match k {
                Kw::If => return self.parse_if(),
                Kw::Switch => return self.parse_switch(),
                Kw::While => return self.parse_while(),
                Kw::Do => return self.parse_do(),
                Kw::For => return self.parse_for(),
                Kw::Case => return self.parse_case(),
                Kw::Default => return self.parse_default(),
                Kw::Goto => {
                    self.bump();
                    let nt = *self.tok();
                    let Some(sym) = self.ident() else {
                        self.error(nt.span, "expected identifier");
                        self.eat(Punct::Semi);
                        return StmtKind::Error;
                    };
                    self.bump();
                    self.end_stmt("goto");
                    return StmtKind::Goto(Ident {
                        name: sym,
                        span: nt.span,
                    });
                }
                Kw::Break => {
                    self.bump();
                    self.end_jump("break", self.loops + self.switches > 0);
                    return StmtKind::Break;
                }
                Kw::Continue => {
                    self.bump();
                    self.end_jump("continue", self.loops > 0);
                    return StmtKind::Continue;
                }
                Kw::Return => {
                    self.bump();
                    let mut value = None;
                    if !self.is(Punct::Semi) {
                        let errs = self.invalid_exprs;
                        let e = self.parse_expr();
                        if self.invalid_exprs > errs {
                            self.skip_until(
                                &[Punct::RBrace],
                                Skip {
                                    at_semi: true,
                                    before_match: true,
                                },
                            );
                            self.eat(Punct::Semi);
                            return StmtKind::Return(Some(e));
                        }
                        value = Some(e);
                    }
                    self.end_stmt("return");
                    return StmtKind::Return(value);
                }
                Kw::StaticAssert => {
                    return match self.parse_static_assert() {
                        Some(sa) => StmtKind::StaticAssert(Box::new(sa)),
                        None => StmtKind::Error,
                    };
                }
                _ => {}
            }
        }
        // A label.
        if let Some(sym) = self.ident()
            && self.nth_is(1, Punct::Colon)
            && !self.nth_is(2, Punct::Colon)
        {
            self.bump();
            let colon = self.bump();
            let mut specs = Vec::new();
            self.parse_attrs(&mut specs);
            let body = self.label_body(colon);
            return StmtKind::Label {
                name: Ident {
                    name: sym,
                    span: t.span,
                },
                body: Box::new(body),
            };
        }
        // A struct/union/enum tag without its keyword starting a declaration (clang's
        // `ClassifyName` checks tags before typo correction): the specifiers report it.
        if let Some(sym) = self.ident()
            && self.lookup(sym).is_none()
            && self.lookup_tag(sym).is_some()
            && (self.ident_of(self.nth(1)).is_some() || self.nth_is(1, Punct::Star))
        {
            return match self.parse_block_declaration(Ctx::Block, Vec::new()) {
                Some(d) => StmtKind::Decl(d),
                None => StmtKind::Error,
            };
        }
        match self.correct_statement_typo() {
            Some(true) => {}
            Some(false) => return self.parse_stmt_kind(),
            None => {}
        }
        if self.starts_decl_specs() {
            return match self.parse_block_declaration(Ctx::Block, Vec::new()) {
                Some(d) => StmtKind::Decl(d),
                None => StmtKind::Error,
            };
        }
        // Expression statement. One starting with a name declared nowhere (and not called) is
        // invalid in clang when typo correction has no candidate at all: sema reports the name,
        // and the statement is skipped without "expected ';'".
        let undeclared_start = match self.ident() {
            Some(s) if self.lookup(s).is_none() && !self.nth_is(1, Punct::LParen) => {
                !self.has_typo_candidate(s)
            }
            _ => false,
        };
        let errs = self.invalid_exprs;
        let e = self.parse_expr();
        if self.invalid_exprs > errs || undeclared_start {
            self.skip_until(
                &[Punct::RBrace],
                Skip {
                    at_semi: true,
                    before_match: true,
                },
            );
            self.eat(Punct::Semi);
            return StmtKind::Expr(e);
        }
        self.expect_semi("expected ';' after expression");
        StmtKind::Expr(e)
    }

    /// An undeclared name starting a statement (`name name` or `name;`): clang's name
    /// classification typo-corrects it to a type or keyword and goes on as if that had been
    /// written. Returns `Some(true)` when the statement is now a declaration, `Some(false)`
    /// when it starts with a corrected keyword, `None` when nothing was corrected.
    fn correct_statement_typo(&mut self) -> Option<bool> {
        let sym = self.ident()?;
        if self.lookup(sym).is_some()
            || !(self.ident_of(self.nth(1)).is_some() || self.nth_is(1, Punct::Semi))
        {
            return None;
        }
        let c = self.correct_typo(sym, TypoCtx::Statement)?;
        if c.kind.is_some() && !c.is_type() {
            // A variable or function: sema corrects and reports it.
            return None;
        }
        let span = self.span();
        self.typo_diag(span, sym, Some(c), c.kind.is_some());
        self.respell_current(c.name);
        Some(c.is_type())
    }

    /// The `;` after `break`/`continue`; outside a loop or switch clang's statement is
    /// invalid and a missing `;` goes unreported.
    fn end_jump(&mut self, what: &str, valid: bool) {
        if valid {
            self.end_stmt(what);
        } else {
            self.eat(Punct::Semi);
        }
    }

    /// The `;` ending a jump statement (clang's `err_expected_semi_after_stmt`).
    pub(crate) fn end_stmt(&mut self, what: &str) {
        if self.eat(Punct::Semi).is_some() {
            return;
        }
        if !self.expect_after(Punct::Semi, &format!("expected ';' after {what} statement")) {
            self.skip_until(
                &[Punct::RBrace],
                Skip {
                    at_semi: true,
                    before_match: true,
                },
            );
        }
    }

    /// The statement after a label, `case` or `default`; a label right before `}` gets
    /// clang's C23-extension warning and an empty statement.
    fn label_body(&mut self, colon: Span) -> Stmt {
        if self.is(Punct::RBrace) {
            let s = self.span();
            self.emit(
                Diagnostic::warning(s, "label at end of compound statement is a C23 extension")
                    .with_group("c23-extensions"),
            );
            let id = self.stmt_id();
            return Stmt {
                id,
                span: colon,
                kind: StmtKind::Null,
            };
        }
        self.parse_stmt()
    }

    /// `( expression )` after `if`/`while`/`switch` (clang's `ParseParenExprOrCondition`).
    fn parse_paren_cond(&mut self, what: &str) -> Option<Expr> {
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, format!("expected '(' after '{what}'"));
            self.skip_until(&[Punct::Semi], Skip::default());
            return None;
        }
        let open = self.open()?;
        let errs = self.invalid_exprs;
        let cond = self.parse_expr();
        if self.invalid_exprs > errs && !self.is(Punct::RParen) {
            self.skip_until(&[Punct::Semi], Skip::default());
            if !self.is(Punct::RParen) {
                self.abandon();
                return None;
            }
        }
        self.close(Punct::RParen, open);
        while self.is(Punct::RParen) {
            let s = self.span();
            self.emit(
                Diagnostic::error(s, "extraneous ')' after condition, expected a statement")
                    .with_fixit(s, ""),
            );
            self.bump();
        }
        Some(cond)
    }

    /// `if`, with an `else if` chain parsed in a loop: its length is not nesting (clang
    /// accepts any length), so it counts against no limit and takes no stack. The inner `if`
    /// statements get the spans and ids (innermost first) that parsing each as the `else`
    /// statement would give them.
    fn parse_if(&mut self) -> StmtKind {
        // Each `if` of the chain but the last: its start, condition and `then` statement.
        let mut links: Vec<(Span, Expr, Stmt)> = Vec::new();
        let mut start = self.span();
        let last = loop {
            self.bump();
            let Some(cond) = self.parse_paren_cond("if") else {
                break self.stmt_error();
            };
            let then = self.parse_stmt();
            if self.eat_kw(Kw::Else).is_none() {
                break StmtKind::If {
                    cond,
                    then: Box::new(then),
                    else_: None,
                };
            }
            if !self.cut_off && self.kw() == Some(Kw::If) {
                links.push((start, cond, then));
                start = self.span();
                continue;
            }
            break StmtKind::If {
                cond,
                then: Box::new(then),
                else_: Some(Box::new(self.parse_stmt())),
            };
        };
        let mut kind = last;
        for (outer_start, cond, then) in links.into_iter().rev() {
            let id = self.stmt_id();
            let span = if self.prev_span().lo >= start.lo && self.prev_span().file == start.file {
                start.to(self.prev_span())
            } else {
                start
            };
            kind = StmtKind::If {
                cond,
                then: Box::new(then),
                else_: Some(Box::new(Stmt { id, span, kind })),
            };
            start = outer_start;
        }
        kind
    }

    fn parse_switch(&mut self) -> StmtKind {
        self.bump();
        let Some(cond) = self.parse_paren_cond("switch") else {
            return self.stmt_error();
        };
        self.switches += 1;
        let body = self.parse_stmt();
        self.switches -= 1;
        StmtKind::Switch {
            cond,
            body: Box::new(body),
        }
    }

    fn parse_while(&mut self) -> StmtKind {
        self.bump();
        let Some(cond) = self.parse_paren_cond("while") else {
            return self.stmt_error();
        };
        self.loops += 1;
        let body = self.parse_stmt();
        self.loops -= 1;
        StmtKind::While {
            cond,
            body: Box::new(body),
        }
    }

    fn parse_do(&mut self) -> StmtKind {
        let do_span = self.bump();
        let errs_before = self.diags.list.len();
        self.loops += 1;
        let body = self.parse_stmt();
        self.loops -= 1;
        if self.kw() != Some(Kw::While) {
            if !matches!(body.kind, StmtKind::Error) || self.diags.list.len() == errs_before {
                let s = self.span();
                self.emit(
                    Diagnostic::error(s, "expected 'while' in do/while loop")
                        .with_note(do_span, "to match this 'do'"),
                );
                self.skip_until(
                    &[Punct::Semi],
                    Skip {
                        at_semi: false,
                        before_match: true,
                    },
                );
            }
            return StmtKind::Error;
        }
        self.bump();
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '(' after 'do/while'");
            self.skip_until(
                &[Punct::Semi],
                Skip {
                    at_semi: false,
                    before_match: true,
                },
            );
            return StmtKind::Error;
        }
        let Some(open) = self.open() else {
            return StmtKind::Error;
        };
        let errs = self.invalid_exprs;
        let cond = self.parse_expr();
        self.close(Punct::RParen, open);
        if self.invalid_exprs > errs {
            self.eat(Punct::Semi);
            return StmtKind::DoWhile {
                body: Box::new(body),
                cond,
            };
        }
        self.end_stmt("do/while");
        StmtKind::DoWhile {
            body: Box::new(body),
            cond,
        }
    }

    fn parse_for(&mut self) -> StmtKind {
        self.bump();
        if !self.is(Punct::LParen) {
            let s = self.span();
            self.error(s, "expected '(' after 'for'");
            self.skip_until(&[Punct::Semi], Skip::default());
            return StmtKind::Error;
        }
        let Some(open) = self.open() else {
            return StmtKind::Error;
        };
        self.push_scope();
        let r = self.parse_for_rest(open);
        self.pop_scope();
        r
    }

    fn parse_for_rest(&mut self, open: Span) -> StmtKind {
        // First clause.
        let mut init = None;
        if self.eat(Punct::Semi).is_none() {
            if self.starts_decl_specs() || self.at_attr() {
                let mut pre = Vec::new();
                self.parse_attrs(&mut pre);
                if let Some(d) = self.parse_block_declaration(Ctx::ForInit, pre) {
                    init = Some(Box::new(ForInit::Decl(d)));
                }
                if self.eat(Punct::Semi).is_none() {
                    let s = self.span();
                    self.error(s, "expected ';' in 'for' statement specifier");
                }
            } else {
                let errs = self.invalid_exprs;
                let e = self.parse_expr();
                let bad = self.invalid_exprs > errs;
                init = Some(Box::new(ForInit::Expr(e)));
                if self.eat(Punct::Semi).is_none() {
                    if !bad {
                        let s = self.span();
                        self.error(s, "expected ';' in 'for' statement specifier");
                    } else {
                        self.skip_until(
                            &[Punct::RParen],
                            Skip {
                                at_semi: true,
                                before_match: true,
                            },
                        );
                        self.eat(Punct::Semi);
                    }
                }
            }
        }
        // Condition.
        let mut cond = None;
        if !self.is(Punct::Semi) && !self.is(Punct::RParen) {
            let errs = self.invalid_exprs;
            let e = self.parse_expr();
            let bad = self.invalid_exprs > errs;
            cond = Some(Box::new(e));
            if !self.is(Punct::Semi) {
                if !bad {
                    let s = self.span();
                    self.error(s, "expected ';' in 'for' statement specifier");
                } else {
                    self.skip_until(
                        &[Punct::RParen],
                        Skip {
                            at_semi: true,
                            before_match: true,
                        },
                    );
                }
            }
        } else if self.is(Punct::RParen) {
            let s = self.span();
            self.error(s, "expected ';' in 'for' statement specifier");
        }
        self.eat(Punct::Semi);
        // Increment.
        let mut step = None;
        if !self.is(Punct::RParen) {
            let errs = self.invalid_exprs;
            let e = self.parse_expr();
            if self.invalid_exprs > errs {
                self.skip_until(
                    &[Punct::RParen],
                    Skip {
                        at_semi: true,
                        before_match: true,
                    },
                );
            }
            step = Some(Box::new(e));
        }
        // As in clang, the body is parsed even when the `)` is missing.
        self.close(Punct::RParen, open);
        self.loops += 1;
        let body = self.parse_stmt();
        self.loops -= 1;
        StmtKind::For {
            init,
            cond,
            step,
            body: Box::new(body),
        }
    }

    fn parse_case(&mut self) -> StmtKind {
        self.bump();
        let errs = self.invalid_exprs;
        let value = self.parse_cond_expr();
        if self.invalid_exprs > errs {
            if self.skip_until(
                &[Punct::Colon, Punct::RBrace],
                Skip {
                    at_semi: true,
                    before_match: true,
                },
            ) && self.is(Punct::Colon)
            {
                self.bump();
                let body = self.label_body(self.prev_span());
                return StmtKind::Case {
                    value,
                    body: Box::new(body),
                };
            }
            return StmtKind::Error;
        }
        let colon = self.label_colon("case");
        let body = self.label_body(colon);
        StmtKind::Case {
            value,
            body: Box::new(body),
        }
    }

    fn parse_default(&mut self) -> StmtKind {
        self.bump();
        let colon = self.label_colon("default");
        let body = self.label_body(colon);
        StmtKind::Default {
            body: Box::new(body),
        }
    }

    /// The `:` after `case x` / `default`: a `;` typed for it is replaced, a missing one is
    /// reported after the previous token (clang's recovery).
    fn label_colon(&mut self, what: &str) -> Span {
        if let Some(s) = self.eat(Punct::Colon) {
            return s;
        }
        let msg = format!("expected ':' after '{what}'");
        if self.is(Punct::Semi) {
            let s = self.span();
            self.emit(Diagnostic::error(s, msg).with_fixit(s, ":"));
            self.bump();
            return s;
        }
        let at = self.after_prev();
        self.emit(Diagnostic::error(at, msg).with_fixit(at, ":"));
        at
    }
}
