//! clang's `DiagRuntimeBehavior`/`DiagIfReachable`: warnings about what code does when it runs
//! (-Wunused-value, -Warray-bounds, -Wdivision-by-zero, constant conversions) are held until the
//! end of the function body and dropped when clang's CFG finds their code unreachable (after
//! `return`, `break`, `continue`, `goto` or a `noreturn` builtin, under a constant condition,
//! before the first `case` of a `switch`, past an endless loop).
//!
//! Reachability is tracked while the body is checked, in source order: [`Reach`] is the state
//! of the code being checked. Code that only a jump can reach (a label, a `for` step) depends
//! on [`Flow`] points whose reachability is settled at the end of the body, from the states
//! of the jumps to them. Warnings in unevaluated operands (`sizeof`, `vec_step`, `_Alignof`)
//! are dropped, as clang drops them.

use oclc_syntax::{Diagnostic, Span, Symbol};

use super::Checker;
use crate::hir::{BinOp, Expr, ExprKind};

/// Whether the code being checked can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    Yes,
    No,
    /// Reachable if any of these [`Flow`] points is.
    Via(Vec<u32>),
}

impl Reach {
    /// Either state: code reached from two places.
    pub(crate) fn or(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::Yes, _) | (_, Reach::Yes) => Reach::Yes,
            (Reach::No, x) | (x, Reach::No) => x,
            (Reach::Via(mut a), Reach::Via(b)) => {
                for p in b {
                    if !a.contains(&p) {
                        a.push(p);
                    }
                }
                Reach::Via(a)
            }
        }
    }

    /// This state where a condition known to be `taken` (or unknown) enters.
    pub(crate) fn when(&self, taken: Option<bool>, want: bool) -> Reach {
        match taken {
            Some(t) if t != want => Reach::No,
            _ => self.clone(),
        }
    }
}

/// Where a `break` or `continue` goes.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub is_loop: bool,
    /// The states of the `break`s (and of the `continue`s of a loop) seen so far.
    pub breaks: Reach,
    pub continues: Reach,
}

impl Target {
    pub(crate) fn new(is_loop: bool) -> Target {
        Target {
            is_loop,
            breaks: Reach::No,
            continues: Reach::No,
        }
    }
}

/// An open `switch`: how its labels are entered.
#[derive(Clone, Debug)]
pub(crate) struct SwitchFlow {
    /// The state at the `switch`.
    pub entry: Reach,
    /// The condition's value when it is a constant: only the matching label is entered.
    pub value: Option<i64>,
    /// Whether a `case` matched `value`.
    pub matched: bool,
    pub has_default: bool,
    /// The `default` label's point (entered when no `case` matches).
    pub default_point: u32,
}

/// The reachability state of one function body.
#[derive(Debug)]
pub(crate) struct Flow {
    pub reach: Reach,
    pub targets: Vec<Target>,
    pub switches: Vec<SwitchFlow>,
    /// Label names → their point.
    pub labels: Vec<(Symbol, u32)>,
    /// Jumps: (point, state of the jump).
    pub edges: Vec<(u32, Reach)>,
    pub points: u32,
    /// Warnings held until the end of the body, with the state of their code.
    pub held: Vec<(Diagnostic, Reach)>,
    /// The states of the `return` statements (clang's live returns, for `-Wreturn-type`).
    pub returns: Vec<Reach>,
    /// The states of the calls to `noreturn` functions (clang's abnormal edges to the exit).
    pub aborts: Vec<Reach>,
}

impl Default for Flow {
    fn default() -> Flow {
        Flow {
            reach: Reach::Yes,
            targets: Vec::new(),
            switches: Vec::new(),
            labels: Vec::new(),
            edges: Vec::new(),
            points: 0,
            held: Vec::new(),
            returns: Vec::new(),
            aborts: Vec::new(),
        }
    }
}

impl Flow {
    /// A new point that code can depend on.
    pub(crate) fn point(&mut self) -> u32 {
        self.points += 1;
        self.points - 1
    }

    /// The point of label `name`.
    pub(crate) fn label(&mut self, name: Symbol) -> u32 {
        if let Some(&(_, p)) = self.labels.iter().find(|(n, _)| *n == name) {
            return p;
        }
        let p = self.point();
        self.labels.push((name, p));
        p
    }

    /// The points that some reachable code jumps to (a fixpoint over the jumps).
    fn reachable_points(&self) -> Vec<bool> {
        let mut r = vec![false; self.points as usize];
        loop {
            let mut changed = false;
            for (p, st) in &self.edges {
                let i = *p as usize;
                if i < r.len() && !r[i] && resolves(st, &r) {
                    r[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return r;
            }
        }
    }
}

fn resolves(st: &Reach, r: &[bool]) -> bool {
    match st {
        Reach::Yes => true,
        Reach::No => false,
        Reach::Via(ps) => ps
            .iter()
            .any(|&p| r.get(p as usize).copied().unwrap_or(false)),
    }
}

impl Checker<'_> {
    /// Reports a warning about run-time behaviour (clang's `DiagRuntimeBehavior`): nothing in an
    /// unevaluated operand, held until the end of the function body inside one, at once
    /// elsewhere.
    pub(crate) fn warn_runtime(&mut self, d: Diagnostic) {
        if self.unevaluated > 0 {
            return;
        }
        if self.func.is_some() {
            let st = self.flow.reach.clone();
            self.flow.held.push((d, st));
        } else {
            self.emit(d);
        }
    }

    /// Reports a warning of clang's implicit-conversion checks, which run when a full
    /// expression is complete (`CheckImplicitConversions`): held until [`Self::end_full_expr`];
    /// a `runtime` one is then treated as [`Self::warn_runtime`] in the state of its code.
    pub(crate) fn warn_conversion(&mut self, d: Diagnostic, runtime: bool) {
        if self.unevaluated > 0 && runtime {
            return;
        }
        let st = runtime.then(|| self.flow.reach.clone());
        self.full_expr_warnings.push((d, st));
    }

    /// The end of a full expression (an expression statement, a condition, an initializer,
    /// a `return` value): its conversion warnings are reported.
    pub(crate) fn end_full_expr(&mut self) {
        if self.full_expr_warnings.is_empty() {
            return;
        }
        let ws = std::mem::take(&mut self.full_expr_warnings);
        for (d, st) in ws {
            match st {
                Some(st) if self.func.is_some() => self.flow.held.push((d, st)),
                _ => self.emit(d),
            }
        }
    }

    /// At the end of a function body: the held warnings whose code is reachable, in the order
    /// they were found, go to [`Self::deferred`] (clang emits them after the body). After an
    /// error anywhere clang skips the analysis and reports them all.
    ///
    /// Then clang's `CheckFallThroughForBody`, when the end of the body (`rbrace`, its closing
    /// brace) can be reached: `-Wreturn-type` for a non-void function (`ret_void` false),
    /// "in all control paths" when a reachable `return` or `noreturn` call also leaves it;
    /// `-Winvalid-noreturn` for a `noreturn` one.
    pub(crate) fn flush_runtime_warnings(&mut self, rbrace: Span, ret_void: bool, noreturn: bool) {
        self.end_full_expr();
        let flow = std::mem::take(&mut self.flow);
        if self.diags.has_errors() {
            for (d, _) in flow.held {
                self.deferred.push(d);
            }
            return;
        }
        let r = flow.reachable_points();
        for (d, st) in flow.held {
            if resolves(&st, &r) {
                self.deferred.push(d);
            }
        }
        if (ret_void && !noreturn) || !resolves(&flow.reach, &r) {
            return;
        }
        let d = if noreturn {
            Diagnostic::warning(rbrace, "function declared 'noreturn' should not return")
                .with_group("invalid-noreturn")
        } else {
            let live = |v: &[Reach]| v.iter().any(|st| resolves(st, &r));
            let msg = if live(&flow.returns) || live(&flow.aborts) {
                "non-void function does not return a value in all control paths"
            } else {
                "non-void function does not return a value"
            };
            Diagnostic::warning(rbrace, msg).with_group("return-type")
        };
        self.deferred.push(d);
    }

    /// A call to a `noreturn` function (`__builtin_trap()`, `__builtin_unreachable()`, one
    /// declared `noreturn`) has been checked: the code after it cannot run.
    pub(crate) fn flow_abort(&mut self) {
        if self.unevaluated > 0 {
            return;
        }
        let here = std::mem::replace(&mut self.flow.reach, Reach::No);
        self.flow.aborts.push(here);
    }

    /// Code after this point cannot run (a `return`, `goto`, `break`, `continue`).
    pub(crate) fn flow_stop(&mut self) {
        self.flow.reach = Reach::No;
    }

    /// What clang's CFG builder knows of a condition's truth (its `tryEvaluateBool`): the value
    /// of a constant, `X && 0`, `X || 1`, `x | C` with a non-zero `C`.
    pub(crate) fn known_truth(&self, e: &Expr) -> Option<bool> {
        self.known_truth_at(e, 0)
    }

    fn known_truth_at(&self, e: &Expr, depth: u32) -> Option<bool> {
        if depth > 64 || e.is_error() {
            return None;
        }
        let mut x = e;
        while let ExprKind::Cast(k, inner) = &x.kind {
            if !matches!(
                k,
                crate::hir::CastKind::LValueToRValue
                    | crate::hir::CastKind::NoOp
                    | crate::hir::CastKind::Integral
                    | crate::hir::CastKind::ToBool
            ) {
                break;
            }
            x = inner;
        }
        if let ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) = &x.kind {
            let or = *op == BinOp::LogOr;
            let l = self.known_truth_at(a, depth + 1);
            if let Some(l) = l {
                if l == or {
                    return Some(l);
                }
                return self.known_truth_at(b, depth + 1);
            }
            return match self.known_truth_at(b, depth + 1) {
                Some(r) if r == or => Some(r),
                _ => None,
            };
        }
        if let ExprKind::Binary(BinOp::BitOr, a, b) = &x.kind
            && self.prog.types.is_integer(x.ty)
        {
            // Only a literal or an enumerator operand counts (`tryTransformToIntOrEnumConstant`).
            let lit = |y: &Expr| {
                let mut y = y;
                while let ExprKind::Cast(_, i) = &y.kind {
                    y = i;
                }
                match y.kind {
                    ExprKind::IntLit(v) => Some(v != 0),
                    ExprKind::Const(v) => Some(v != 0),
                    _ => None,
                }
            };
            match (lit(a), lit(b)) {
                (Some(true), None) | (None, Some(true)) => return Some(true),
                _ => {}
            }
        }
        if self.prog.types.as_vector(e.ty).is_some() {
            return None;
        }
        if let Some(v) = self.const_int(e) {
            return Some(v != 0);
        }
        self.const_float(e).map(|f| f != 0.0)
    }
}
