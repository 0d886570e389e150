//! Statements: blocks (with the block depth that rule 26 needs), control flow, `return`
//! against the function's type, `break`/`continue`/`case` placement.

use oclc_syntax::ast::{self, StmtKind as SK};

use super::Checker;
use super::conv::Action;
use super::decl::DeclPlace;
use super::flow::{Reach, SwitchFlow, Target};
use crate::fxhash::FxHashMap;
use crate::hir::{Block, Expr, Stmt, StmtKind};

/// The `case` values and `default` label seen so far in one `switch`.
#[derive(Default, Debug)]
pub(crate) struct SwitchCases {
    pub values: FxHashMap<i64, oclc_syntax::Span>,
    pub default: Option<oclc_syntax::Span>,
}

impl Checker<'_> {
    /// A compound statement. `new_scope` is false for a function body, whose parameters
    /// already opened its scope. A checker that discards bodies frees each statement's HIR
    /// as soon as it is checked (the block comes back empty): freed while still in the cache,
    /// and its boxes reused for the next statement, rather than a whole switch of thousands
    /// of statements built, then walked again from memory to free it.
    pub(crate) fn block(&mut self, b: &ast::Block, new_scope: bool) -> Block {
        if new_scope {
            self.scopes.push();
        }
        if let Some(f) = &mut self.func {
            f.block_depth += 1;
        }
        let keep = self.bodies == super::Bodies::Keep;
        let mut stmts = Vec::with_capacity(if keep { b.stmts.len() } else { 1 });
        for s in &b.stmts {
            self.stmt_into(s, &mut stmts);
            if !keep {
                for st in stmts.drain(..) {
                    crate::hir::free_stmt(st);
                }
            }
        }
        if let Some(f) = &mut self.func {
            f.block_depth = f.block_depth.saturating_sub(1);
        }
        if new_scope {
            self.scopes.pop();
        }
        Block {
            stmts,
            span: b.span,
        }
    }

    /// Checks a statement, appending its HIR (a declaration may produce several).
    pub(crate) fn stmt_into(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        if let SK::Decl(d) = &s.kind {
            for v in self.declaration(d, DeclPlace::Block) {
                out.push(Stmt {
                    kind: StmtKind::Decl(v),
                    span: s.span,
                });
            }
            return;
        }
        out.push(self.stmt(s));
    }

    /// A statement in a position that takes exactly one (loop and `if` bodies).
    fn sub_stmt(&mut self, s: &ast::Stmt) -> Box<Stmt> {
        if let SK::Decl(_) = &s.kind {
            self.scopes.push();
            let mut v = Vec::new();
            self.stmt_into(s, &mut v);
            self.scopes.pop();
            return Box::new(Stmt {
                kind: StmtKind::Block(Block {
                    stmts: v,
                    span: s.span,
                }),
                span: s.span,
            });
        }
        Box::new(self.stmt(s))
    }

    fn cond_expr(&mut self, e: &ast::Expr) -> Expr {
        let x = self.expr(e);
        self.flush_typos(Some(e.span));
        if let ast::ExprKind::Assign {
            op: None, op_span, ..
        } = &e.kind
            && !x.is_error()
        {
            let d = oclc_syntax::Diagnostic::warning(
                *op_span,
                "using the result of an assignment as a condition without parentheses",
            )
            .with_group("parentheses")
            .with_note(
                e.span.start(),
                "place parentheses around the assignment to silence this warning",
            )
            .with_note(
                *op_span,
                "use '==' to turn this assignment into an equality comparison",
            );
            self.emit(d);
        }
        let c = self.condition(x);
        self.end_full_expr();
        c
    }

    /// clang's `-Wunused-value`/`-Wunused-comparison` for an expression statement whose value
    /// is computed for nothing.
    fn unused_result(&mut self, e: &ast::Expr, x: &Expr) {
        if x.is_error() || self.is_stmt_expr_result(e) {
            return;
        }
        let mut a = e;
        while let ast::ExprKind::Paren(i) = &a.kind {
            a = i;
        }
        if let ast::ExprKind::StmtExpr { body, .. } = &a.kind {
            // clang looks at the statement expression's last expression.
            if let (crate::hir::ExprKind::StmtExpr { value: Some(v), .. }, Some(last)) =
                (&x.kind, super::stmt_expr::result_expr(body))
            {
                self.unused_result(last, v);
            }
            return;
        }
        self.diagnose_unused(e, Some(x), super::unused::Unused::Statement);
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt) -> Stmt {
        let span = s.span;
        if !self.enter(span) {
            return Stmt {
                kind: StmtKind::Empty,
                span,
            };
        }
        // What an enclosing statement's condition left is done before this statement.
        self.flush_typos(None);
        let kind = match &s.kind {
            SK::Compound(b) => StmtKind::Block(self.block(b, true)),
            SK::Decl(d) => {
                let vars = self.declaration(d, DeclPlace::Block);
                let stmts = vars
                    .into_iter()
                    .map(|v| Stmt {
                        kind: StmtKind::Decl(v),
                        span,
                    })
                    .collect();
                StmtKind::Block(Block { stmts, span })
            }
            SK::Expr(e) => {
                let x = self.expr(e);
                self.flush_typos(Some(span));
                self.unused_result(e, &x);
                self.end_full_expr();
                let x = self.rvalue_discard(x);
                StmtKind::Expr(x)
            }
            SK::Null | SK::Error => StmtKind::Empty,
            SK::If { cond, then, else_ } => self.if_chain(cond, then, else_.as_deref()),
            SK::While { cond, body } => {
                // The condition is part of the loop: a `break` or `continue` in a statement
                // expression there binds to it (clang).
                self.loop_depth += 1;
                self.se_loop(true);
                let c = self.cond_expr(cond);
                self.se_loop_control(cond);
                let truth = self.known_truth(&c);
                let at_cond = self.flow.reach.clone();
                self.flow.reach = at_cond.when(truth, true);
                self.flow.targets.push(Target::new(true));
                let b = self.sub_stmt(body);
                self.se_loop(false);
                self.loop_depth -= 1;
                let t = self.pop_target();
                let end = std::mem::replace(&mut self.flow.reach, Reach::No);
                if truth != Some(true) {
                    self.flow.reach = at_cond.or(end).or(t.continues);
                }
                self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(t.breaks);
                StmtKind::While { cond: c, body: b }
            }
            SK::DoWhile { body, cond } => {
                self.flow.targets.push(Target::new(true));
                self.loop_depth += 1;
                self.se_loop(true);
                let b = self.sub_stmt(body);
                let t = self.pop_target();
                self.flow.reach =
                    std::mem::replace(&mut self.flow.reach, Reach::No).or(t.continues);
                let c = self.cond_expr(cond);
                self.se_loop_control(cond);
                self.se_loop(false);
                self.loop_depth -= 1;
                if self.known_truth(&c) == Some(true) {
                    self.flow_stop();
                }
                self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(t.breaks);
                StmtKind::DoWhile { body: b, cond: c }
            }
            SK::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push();
                let mut init_stmts = Vec::new();
                match init.as_deref() {
                    Some(ast::ForInit::Decl(d)) => {
                        for v in self.declaration(d, DeclPlace::Block) {
                            init_stmts.push(Stmt {
                                kind: StmtKind::Decl(v),
                                span,
                            });
                        }
                    }
                    Some(ast::ForInit::Expr(e)) => {
                        let x = self.expr(e);
                        self.unused_result(e, &x);
                        self.end_full_expr();
                        let x = self.rvalue_discard(x);
                        init_stmts.push(Stmt {
                            kind: StmtKind::Expr(x),
                            span: e.span,
                        });
                    }
                    None => {}
                }
                self.loop_depth += 1;
                self.se_loop(true);
                let c = cond.as_ref().map(|c| {
                    let x = self.cond_expr(c);
                    self.se_loop_control(c);
                    x
                });
                let truth = c.as_ref().map_or(Some(true), |c| self.known_truth(c));
                let at_cond = self.flow.reach.clone();
                // The step runs after the body (or a `continue`): its reachability is settled
                // once the body has been checked.
                let step_point = self.flow.point();
                self.flow.reach = Reach::Via(vec![step_point]);
                let st = step.as_ref().map(|e| {
                    let x = self.expr(e);
                    self.unused_result(e, &x);
                    self.end_full_expr();
                    self.se_loop_control(e);
                    self.rvalue_discard(x)
                });
                self.flow.reach = at_cond.when(truth, true);
                self.flow.targets.push(Target::new(true));
                let b = self.sub_stmt(body);
                self.se_loop(false);
                self.loop_depth -= 1;
                let t = self.pop_target();
                let to_step = std::mem::replace(&mut self.flow.reach, Reach::No).or(t.continues);
                self.flow.edges.push((step_point, to_step.clone()));
                if truth != Some(true) {
                    self.flow.reach = at_cond.or(to_step);
                }
                self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(t.breaks);
                self.scopes.pop();
                StmtKind::For {
                    init: init_stmts,
                    cond: c,
                    step: st,
                    body: b,
                }
            }
            SK::Switch { cond, body } => {
                let c = self.rexpr(cond);
                // The enumerators of the condition's enum type, before promotion (for clang's
                // `isAllEnumCasesCovered`).
                let enum_values: Option<Vec<i64>> = match self.prog.types.ckind(c.ty) {
                    crate::types::TypeKind::Enum(id) if !c.is_error() => self
                        .prog
                        .types
                        .enums
                        .get(id.0 as usize)
                        .filter(|d| d.complete && !d.values.is_empty())
                        .map(|d| d.values.iter().map(|v| v.1).collect()),
                    _ => None,
                };
                let c = if c.is_error() {
                    c
                } else if !self.prog.types.is_integer(c.ty) {
                    let t = self.prog.types.quoted(c.ty);
                    self.err(
                        cond.span,
                        format!("statement requires expression of integer type ({t} invalid)"),
                    );
                    Expr::error(c.span)
                } else {
                    self.promote(c)
                };
                self.end_full_expr();
                let value = if c.is_error() {
                    None
                } else {
                    self.const_int(&c)
                };
                let entry = std::mem::replace(&mut self.flow.reach, Reach::No);
                let default_point = self.flow.point();
                self.flow.switches.push(SwitchFlow {
                    entry: entry.clone(),
                    value,
                    matched: false,
                    has_default: false,
                    default_point,
                });
                self.flow.targets.push(Target::new(false));
                self.switch_depth += 1;
                self.switch_cases.push(SwitchCases::default());
                self.se_switch_enter();
                let b = self.sub_stmt(body);
                self.se_switch_leave();
                let cases = self.switch_cases.pop().unwrap_or_default();
                self.switch_depth -= 1;
                let t = self.pop_target();
                // clang's CFG does not enter `default` (or, without one, leave the switch)
                // from a non-constant condition of an enum type whose every enumerator has a
                // `case`.
                let covered = value.is_none()
                    && !cases.values.is_empty()
                    && enum_values
                        .is_some_and(|vs| vs.iter().all(|v| cases.values.contains_key(v)));
                if let Some(sw) = self.flow.switches.pop() {
                    // With a constant condition only the matching label (or else `default`)
                    // is entered.
                    let no_match = if (value.is_some() && sw.matched) || covered {
                        Reach::No
                    } else {
                        entry
                    };
                    self.flow.edges.push((default_point, no_match.clone()));
                    if !sw.has_default {
                        self.flow.reach =
                            std::mem::replace(&mut self.flow.reach, Reach::No).or(no_match);
                    }
                }
                self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(t.breaks);
                StmtKind::Switch { cond: c, body: b }
            }
            SK::Case { value, body } => {
                if self.switch_depth == 0 {
                    self.err(span, "'case' statement not in switch statement");
                }
                self.se_case(span);
                let v = self.expr(value);
                let n = if v.is_error() {
                    0
                } else {
                    match self.const_int(&v) {
                        Some(n) => n,
                        None => {
                            self.err(
                                value.span,
                                "expression is not an integer constant expression",
                            );
                            0
                        }
                    }
                };
                if !v.is_error()
                    && let Some(sw) = self.flow.switches.last_mut()
                {
                    let enters = sw.value.is_none_or(|x| x == n);
                    sw.matched |= sw.value == Some(n);
                    let from_switch = if enters { sw.entry.clone() } else { Reach::No };
                    self.flow.reach =
                        std::mem::replace(&mut self.flow.reach, Reach::No).or(from_switch);
                }
                if !v.is_error()
                    && let Some(cases) = self.switch_cases.last_mut()
                {
                    if let Some(&prev) = cases.values.get(&n) {
                        self.err(value.span, format!("duplicate case value '{n}'"));
                        self.note_last(prev, "previous case defined here");
                    } else {
                        cases.values.insert(n, value.span);
                    }
                }
                let b = self.sub_stmt(body);
                StmtKind::Case { value: n, body: b }
            }
            SK::Default { body } => {
                if self.switch_depth == 0 {
                    self.err(span, "'default' statement not in switch statement");
                }
                self.se_case(span);
                if let Some(cases) = self.switch_cases.last_mut() {
                    match cases.default {
                        // clang reports at the first `default` and notes the second.
                        Some(prev) => {
                            self.err(prev, "multiple default labels in one switch");
                            self.note_last(span, "previous case defined here");
                        }
                        None => cases.default = Some(span),
                    }
                }
                if let Some(sw) = self.flow.switches.last_mut() {
                    sw.has_default = true;
                    let p = sw.default_point;
                    self.flow.reach =
                        std::mem::replace(&mut self.flow.reach, Reach::No).or(Reach::Via(vec![p]));
                }
                StmtKind::Default {
                    body: self.sub_stmt(body),
                }
            }
            SK::Break => {
                if self.loop_depth == 0 && self.switch_depth == 0 {
                    self.err(span, "'break' statement not in loop or switch statement");
                }
                let here = std::mem::replace(&mut self.flow.reach, Reach::No);
                if let Some(t) = self.flow.targets.last_mut() {
                    t.breaks = std::mem::replace(&mut t.breaks, Reach::No).or(here);
                }
                StmtKind::Break
            }
            SK::Continue => {
                if self.loop_depth == 0 {
                    self.err(span, "'continue' statement not in loop statement");
                }
                let here = std::mem::replace(&mut self.flow.reach, Reach::No);
                if let Some(t) = self.flow.targets.iter_mut().rev().find(|t| t.is_loop) {
                    t.continues = std::mem::replace(&mut t.continues, Reach::No).or(here);
                }
                StmtKind::Continue
            }
            SK::Return(e) => {
                let k = self.return_stmt(e.as_ref(), span);
                let here = std::mem::replace(&mut self.flow.reach, Reach::No);
                self.flow.returns.push(here);
                k
            }
            SK::Goto(l) => {
                self.gotos.push(*l);
                self.se_goto(span.start(), l.name);
                let p = self.flow.label(l.name);
                let here = std::mem::replace(&mut self.flow.reach, Reach::No);
                self.flow.edges.push((p, here));
                StmtKind::Goto(l.name)
            }
            SK::Label { name, body } => {
                self.define_label(name);
                let p = self.flow.label(name.name);
                self.flow.reach =
                    std::mem::replace(&mut self.flow.reach, Reach::No).or(Reach::Via(vec![p]));
                StmtKind::Label {
                    name: name.name,
                    body: self.sub_stmt(body),
                }
            }
            SK::Attributed { body, attrs } => {
                let inner = self.stmt(body);
                self.warn_unknown_attrs(attrs);
                return self.leave_with(inner);
            }
            SK::StaticAssert(sa) => {
                self.static_assert(sa);
                StmtKind::Empty
            }
            SK::Pragma(p) => {
                self.pragma(p);
                StmtKind::Empty
            }
            SK::Asm(a) => self.asm_stmt(a, span),
        };
        self.flush_typos(Some(span));
        self.leave();
        Stmt { kind, span }
    }

    /// `if`, with an `else if` chain checked in a loop (its length is not nesting), in the
    /// order recursion would take, and built back to front.
    fn if_chain(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Stmt,
        else_: Option<&ast::Stmt>,
    ) -> StmtKind {
        // Each `if` but the last: its condition, `then`, and the span of its `else` (the
        // next `if`).
        let mut links: Vec<(Expr, Box<Stmt>, oclc_syntax::Span)> = Vec::new();
        let (mut cond, mut then, mut else_) = (cond, then, else_);
        // The states at the ends of the branches taken so far.
        let mut ends = Reach::No;
        let last = loop {
            let c = self.cond_expr(cond);
            let truth = self.known_truth(&c);
            let at_cond = self.flow.reach.clone();
            self.flow.reach = at_cond.when(truth, true);
            let t = self.sub_stmt(then);
            let end = std::mem::replace(&mut self.flow.reach, at_cond.when(truth, false));
            ends = ends.or(end);
            match else_ {
                Some(ast::Stmt {
                    kind:
                        SK::If {
                            cond: c2,
                            then: t2,
                            else_: e2,
                        },
                    span: s2,
                    ..
                }) => {
                    links.push((c, t, *s2));
                    (cond, then, else_) = (c2, t2, e2.as_deref());
                }
                _ => {
                    let e = else_.map(|e| self.sub_stmt(e));
                    self.flow.reach = std::mem::replace(&mut self.flow.reach, Reach::No).or(ends);
                    break StmtKind::If {
                        cond: c,
                        then: t,
                        else_: e,
                    };
                }
            }
        };
        let mut kind = last;
        for (c, t, span) in links.into_iter().rev() {
            kind = StmtKind::If {
                cond: c,
                then: t,
                else_: Some(Box::new(Stmt { kind, span })),
            };
        }
        kind
    }

    /// At the end of a function body: every `goto` must name a label of the function.
    pub(crate) fn check_gotos(&mut self) {
        let gotos = std::mem::take(&mut self.gotos);
        for g in gotos {
            if !self.labels.contains_key(&g.name) {
                self.err(g.span, format!("use of undeclared label '{}'", g.name));
            }
        }
        self.se_finish_function();
        self.labels.clear();
    }

    fn pop_target(&mut self) -> Target {
        self.flow.targets.pop().unwrap_or_else(|| Target::new(true))
    }

    fn leave_with(&mut self, s: Stmt) -> Stmt {
        self.leave();
        s
    }

    /// An expression statement: decays and loads, so its value is well-formed.
    fn rvalue_discard(&mut self, x: Expr) -> Expr {
        if x.is_error() {
            return x;
        }
        self.rvalue(x)
    }

    fn return_stmt(&mut self, e: Option<&ast::Expr>, span: oclc_syntax::Span) -> StmtKind {
        let Some(f) = self.func.clone() else {
            return StmtKind::Return(None);
        };
        let void = self.prog.types.is_void(f.ret);
        match e {
            None => {
                if !void && !self.prog.types.is_error(f.ret) {
                    let msg = format!("non-void function '{}' should return a value", f.name);
                    self.emit(
                        oclc_syntax::Diagnostic::error(span, msg).with_group("return-mismatch"),
                    );
                }
                self.warn_noreturn_return(span);
                StmtKind::Return(None)
            }
            Some(e) => {
                let x = self.expr(e);
                self.warn_noreturn_return(span);
                if void {
                    if !x.is_error() && !self.prog.types.is_void(x.ty) {
                        let msg = format!("void function '{}' should not return a value", f.name);
                        self.emit(
                            oclc_syntax::Diagnostic::error(span, msg).with_group("return-mismatch"),
                        );
                    }
                    return StmtKind::Return(None);
                }
                let ret = f.ret.unqualified();
                let kw = oclc_syntax::Span {
                    hi: span.lo + 6,
                    ..span
                };
                let saved = self.conv_cc.replace(kw);
                let c = self.assign_convert(ret, ret, x, Action::Returning, e.span);
                self.conv_cc = saved;
                self.end_full_expr();
                StmtKind::Return(Some(c))
            }
        }
    }

    /// clang's `-Winvalid-noreturn` at a `return` (its keyword) in a `noreturn` function.
    fn warn_noreturn_return(&mut self, span: oclc_syntax::Span) {
        let Some(f) = &self.func else { return };
        if !f
            .id
            .is_some_and(|id| self.func_attrs.get(&id).is_some_and(|a| a.noreturn))
        {
            return;
        }
        let msg = format!(
            "function '{}' declared 'noreturn' should not return",
            f.name
        );
        let kw = oclc_syntax::Span {
            hi: span.lo + 6,
            ..span
        };
        self.warn(kw, msg, "invalid-noreturn");
    }
}
