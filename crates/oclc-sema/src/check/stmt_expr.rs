//! GNU statement expressions `({ ... })` as clang checks them: the value is the last
//! expression statement's (trailing `;`s skipped, through labels), decayed and loaded, of the
//! unqualified type; `void` otherwise. Also the jump rules clang's `JumpScopeChecker` applies
//! to them (a `goto` or a `switch` may not jump into one), and `-Wgcc-compat` for a
//! `break`/`continue` in a loop's condition or increment, which binds to that loop.

use oclc_syntax::ast::{self, StmtKind as SK};
use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use crate::fxhash::FxHashMap;
use crate::hir::{Block, Expr, ExprKind, Stmt, StmtKind};

/// What the checker tracks about statement expressions in the function being checked.
#[derive(Default, Debug)]
pub(crate) struct StmtExprCx {
    /// The statement expressions being checked, innermost last: id and `(` span.
    open: Vec<(u32, Span)>,
    next_id: u32,
    /// Labels defined inside statement expressions, with the ones enclosing them.
    labels: FxHashMap<Symbol, Vec<(u32, Span)>>,
    /// Every `goto`: its order among the jumps, its `goto` keyword, its label, the
    /// statement expressions enclosing it.
    gotos: Vec<(u32, Span, Symbol, Vec<u32>)>,
    /// Open `switch` statements: order among the jumps and how many statement expressions
    /// enclosed it.
    switches: Vec<(u32, usize)>,
    /// "cannot jump from switch statement to this case label", by switch order.
    case_errors: Vec<(u32, Diagnostic)>,
    /// Jump statements (`goto`, `switch`) seen so far: the next one's order.
    next_jump: u32,
    /// Enclosing loops and switches, innermost last (`true`: a switch).
    breakables: Vec<bool>,
    /// The expression under a `case` label that ends a statement expression: clang parses
    /// it as the result, so it is not "unused".
    result: Option<Span>,
}

impl Checker<'_> {
    /// `({ stmts })`: the statements in a scope of their own; the last expression
    /// statement is the value (clang's `ActOnStmtExprResult`: array and function decay,
    /// then a copy of the unqualified type).
    pub(crate) fn stmt_expr(&mut self, body: &ast::Block, parens: Span, span: Span) -> Expr {
        let id = self.se.next_id;
        self.se.next_id += 1;
        self.se.open.push((id, parens.start()));
        self.scopes.push();
        if let Some(f) = &mut self.func {
            f.block_depth += 1;
        }
        let last = body.stmts.iter().rposition(|s| !matches!(s.kind, SK::Null));
        let mut stmts = Vec::with_capacity(body.stmts.len());
        let mut value = None;
        for (i, s) in body.stmts.iter().enumerate() {
            if Some(i) == last {
                value = self.result_stmt(s, &mut stmts);
            } else {
                self.stmt_into(s, &mut stmts);
            }
        }
        if let Some(f) = &mut self.func {
            f.block_depth = f.block_depth.saturating_sub(1);
        }
        self.scopes.pop();
        self.se.open.pop();
        let value = match value {
            Some(v) if v.is_error() => return Expr::error(span),
            Some(v) => Some(Box::new(v)),
            None => None,
        };
        let ty = match &value {
            Some(v) => v.ty.unqualified(),
            None => self.t(crate::types::TypeTable::VOID),
        };
        Expr {
            kind: ExprKind::StmtExpr {
                body: Block {
                    stmts,
                    span: body.span,
                },
                value,
            },
            ty,
            span,
            lvalue: false,
        }
    }

    /// The last statement of a statement expression (not `;`). An expression statement
    /// under labels and attributes gives the value: the labels go to `out`, the value is
    /// returned. Under a `case`/`default` label the expression is not warned about as unused
    /// (clang parses it as the result) but the type is `void`.
    fn result_stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Option<Expr> {
        let mut cur = s;
        loop {
            match &cur.kind {
                SK::Label { name, body } => {
                    self.define_label(name);
                    out.push(Stmt {
                        kind: StmtKind::Label {
                            name: name.name,
                            body: Box::new(Stmt {
                                kind: StmtKind::Empty,
                                span: cur.span,
                            }),
                        },
                        span: cur.span,
                    });
                    cur = body;
                }
                SK::Attributed { body, .. } => cur = body,
                SK::Expr(e) => {
                    let x = self.expr(e);
                    return Some(self.rvalue(x));
                }
                _ => {
                    let saved = self.se.result.replace(cur.span);
                    if let Some(e) = result_expr_of(cur) {
                        self.se.result = Some(e.span);
                    }
                    out.push(self.stmt(cur));
                    self.se.result = saved;
                    return None;
                }
            }
        }
    }

    /// Whether `e` is the expression clang takes as a statement expression's result (not
    /// a discarded value, so not "unused").
    pub(crate) fn is_stmt_expr_result(&self, e: &ast::Expr) -> bool {
        self.se.result == Some(e.span)
    }

    /// A label: "redefinition of label" against the function's labels; inside statement
    /// expressions, remembers which (a `goto` from outside may not enter them).
    pub(crate) fn define_label(&mut self, name: &ast::Ident) {
        if let Some(&prev) = self.labels.get(&name.name) {
            self.err(name.span, format!("redefinition of label '{}'", name.name));
            self.note_last(prev, "previous definition is here");
            return;
        }
        self.labels.insert(name.name, name.span);
        if !self.se.open.is_empty() {
            self.se.labels.insert(name.name, self.se.open.clone());
        }
    }

    /// A `goto` at `at`, remembered for the jump check at the end of the function.
    pub(crate) fn se_goto(&mut self, at: Span, label: Symbol) {
        let order = self.se.next_jump;
        self.se.next_jump += 1;
        let inside = self.se.open.iter().map(|&(id, _)| id).collect();
        self.se.gotos.push((order, at, label, inside));
    }

    /// Entering a `switch` body (the switch's `case` labels may not be inside statement
    /// expressions that do not enclose the switch).
    pub(crate) fn se_switch_enter(&mut self) {
        let order = self.se.next_jump;
        self.se.next_jump += 1;
        self.se.switches.push((order, self.se.open.len()));
        self.se.breakables.push(true);
    }

    pub(crate) fn se_switch_leave(&mut self) {
        self.se.switches.pop();
        self.se.breakables.pop();
    }

    /// A `case` or `default` label at `at`: clang's error when it is inside a statement
    /// expression its `switch` is not.
    pub(crate) fn se_case(&mut self, at: Span) {
        let Some(&(order, depth)) = self.se.switches.last() else {
            return;
        };
        if self.se.open.len() <= depth {
            return;
        }
        let mut d = Diagnostic::error(at, "cannot jump from switch statement to this case label");
        for &(_, lp) in self.se.open[depth..].iter().rev() {
            d = d.with_note(lp, "jump enters a statement expression");
        }
        self.se.case_errors.push((order, d));
    }

    /// Entering (`true`) or leaving a loop body.
    pub(crate) fn se_loop(&mut self, enter: bool) {
        if enter {
            self.se.breakables.push(false);
        } else {
            self.se.breakables.pop();
        }
    }

    /// clang's `CheckBreakContinueBinding` for a loop's condition or increment `e`, checked
    /// as part of the loop (a `break`/`continue` in a statement expression there binds to
    /// it): `-Wgcc-compat` when GCC would bind it to an enclosing loop or switch.
    pub(crate) fn se_loop_control(&mut self, e: &ast::Expr) {
        let mut found = Found::default();
        find_expr(e, &mut found, 0);
        // The loop itself is on the stack while its condition is checked.
        let outer = &self.se.breakables[..self.se.breakables.len().saturating_sub(1)];
        if let (Some(at), Some(&sw)) = (found.brk, outer.last()) {
            let msg = if sw {
                "'break' is bound to loop, GCC binds it to switch"
            } else {
                "'break' is bound to current loop, GCC binds it to the enclosing loop"
            };
            self.warn(at, msg, "gcc-compat");
        } else if let Some(at) = found.cont
            && outer.iter().any(|&sw| !sw)
        {
            self.warn(
                at,
                "'continue' is bound to current loop, GCC binds it to the enclosing loop",
                "gcc-compat",
            );
        }
    }

    /// At the end of a function body: jumps into statement expressions, in clang's order
    /// (the last jump statement first; a switch's case labels last first).
    pub(crate) fn se_finish_function(&mut self) {
        let cx = std::mem::take(&mut self.se);
        let mut errs: Vec<(u32, Diagnostic)> = Vec::new();
        for (order, at, label, inside) in cx.gotos {
            let Some(target) = cx.labels.get(&label) else {
                continue;
            };
            let entered: Vec<Span> = target
                .iter()
                .filter(|(id, _)| !inside.contains(id))
                .map(|&(_, lp)| lp)
                .collect();
            if entered.is_empty() {
                continue;
            }
            let mut d = Diagnostic::error(at, "cannot jump from this goto statement to its label");
            for lp in entered.iter().rev() {
                d = d.with_note(*lp, "jump enters a statement expression");
            }
            errs.push((order, d));
        }
        let mut cases = cx.case_errors;
        cases.reverse();
        errs.extend(cases);
        // Stable: a switch's case errors keep their (reversed) order.
        errs.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (_, d) in errs {
            self.emit(d);
        }
    }
}

/// The expression that gives a statement expression its value, if there is one: the last
/// statement that is not `;`, an expression statement under labels or attributes.
pub(crate) fn result_expr(body: &ast::Block) -> Option<&ast::Expr> {
    let mut s = body
        .stmts
        .iter()
        .rev()
        .find(|s| !matches!(s.kind, SK::Null))?;
    loop {
        match &s.kind {
            SK::Label { body, .. } | SK::Attributed { body, .. } => s = body,
            SK::Expr(e) => return Some(e),
            _ => return None,
        }
    }
}

/// The expression statement clang parses as the result under `case`/`default` labels.
fn result_expr_of(s: &ast::Stmt) -> Option<&ast::Expr> {
    let mut s = s;
    loop {
        match &s.kind {
            SK::Label { body, .. }
            | SK::Attributed { body, .. }
            | SK::Case { body, .. }
            | SK::Default { body } => s = body,
            SK::Expr(e) => return Some(e),
            _ => return None,
        }
    }
}

/// The `break` and `continue` clang's `BreakContinueFinder` finds in an expression (the last
/// of each), not looking into nested loops (nor, for `break`, switch bodies).
#[derive(Default)]
struct Found {
    brk: Option<Span>,
    cont: Option<Span>,
}

/// Deepest nesting searched (the parser bounds nesting well below this anyway).
const MAX_FIND_DEPTH: u32 = 4200;

fn find_expr(e: &ast::Expr, f: &mut Found, depth: u32) {
    use ast::ExprKind as K;
    if depth > MAX_FIND_DEPTH {
        return;
    }
    let d = depth + 1;
    match &e.kind {
        K::StmtExpr { body, .. } => find_block(body, f, d, false),
        K::Paren(x)
        | K::Unary { expr: x, .. }
        | K::Member { base: x, .. }
        | K::Cast { expr: x, .. }
        | K::AsType { expr: x, .. }
        | K::BitCast { expr: x, .. } => find_expr(x, f, d),
        K::Binary { lhs, rhs, .. } | K::Assign { lhs, rhs, .. } => {
            find_expr(lhs, f, d);
            find_expr(rhs, f, d);
        }
        K::Index { base, index, .. } => {
            find_expr(base, f, d);
            find_expr(index, f, d);
        }
        K::Cond {
            cond, then, else_, ..
        } => {
            find_expr(cond, f, d);
            find_expr(then, f, d);
            find_expr(else_, f, d);
        }
        K::ChooseExpr { cond, then, els } => {
            find_expr(cond, f, d);
            find_expr(then, f, d);
            find_expr(els, f, d);
        }
        K::Call { callee, args, .. } => {
            find_expr(callee, f, d);
            args.iter().for_each(|a| find_expr(a, f, d));
        }
        K::ParenList(items) => items.iter().for_each(|a| find_expr(a, f, d)),
        _ => {}
    }
}

fn find_block(b: &ast::Block, f: &mut Found, depth: u32, in_switch: bool) {
    for s in &b.stmts {
        find_stmt(s, f, depth + 1, in_switch);
    }
}

fn find_stmt(s: &ast::Stmt, f: &mut Found, depth: u32, in_switch: bool) {
    if depth > MAX_FIND_DEPTH {
        return;
    }
    let d = depth + 1;
    match &s.kind {
        SK::Break if !in_switch => f.brk = Some(s.span),
        SK::Continue => f.cont = Some(s.span),
        SK::Compound(b) => find_block(b, f, d, in_switch),
        SK::Expr(e) => find_expr(e, f, d),
        SK::Return(Some(e)) => find_expr(e, f, d),
        SK::Decl(decl) => {
            for id in &decl.declarators {
                if let Some(ast::Initializer::Expr(e)) = &id.init {
                    find_expr(e, f, d);
                }
            }
        }
        SK::If { cond, then, else_ } => {
            find_expr(cond, f, d);
            find_stmt(then, f, d, in_switch);
            if let Some(e) = else_ {
                find_stmt(e, f, d, in_switch);
            }
        }
        SK::Switch { cond, body } => {
            find_expr(cond, f, d);
            find_stmt(body, f, d, true);
        }
        SK::For { init, .. } => {
            if let Some(i) = init.as_deref() {
                match i {
                    ast::ForInit::Expr(e) => find_expr(e, f, d),
                    ast::ForInit::Decl(decl) => {
                        for id in &decl.declarators {
                            if let Some(ast::Initializer::Expr(e)) = &id.init {
                                find_expr(e, f, d);
                            }
                        }
                    }
                }
            }
        }
        SK::Case { body, .. }
        | SK::Default { body }
        | SK::Label { body, .. }
        | SK::Attributed { body, .. } => find_stmt(body, f, d, in_switch),
        _ => {}
    }
}
