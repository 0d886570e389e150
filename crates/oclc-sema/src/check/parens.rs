//! clang's operator-precedence warnings (`DiagnoseBinOpPrecedence`,
//! `DiagnoseConditionalPrecedence`), each with its notes and the parentheses they suggest:
//!
//! - `a & b == c`: "& has lower precedence than ==; == will be evaluated first" [-Wparentheses];
//! - `a << b + c`: "operator '<<' has lower precedence than '+'; '+' will be evaluated first"
//!   [-Wshift-op-parentheses];
//! - `a || b && c`: "'&&' within '||'" [-Wlogical-op-parentheses], and `a | b & c`:
//!   "'&' within '|'" [-Wbitwise-op-parentheses] (both off by default, in -Wall);
//! - `a < b < c`: "comparisons like 'X<=Y<=Z' don't have their mathematical meaning"
//!   [-Wparentheses];
//! - `a + (b < c) ? x : y`: "operator '?:' has lower precedence than '+'; '+' will be
//!   evaluated first" [-Wparentheses], [-Wbitwise-conditional-parentheses] for `&` and `|`.
//!
//! An operand in parentheses never counts: the suggested parentheses are the fix.

use oclc_syntax::ast::{self, BinOp as AB, ExprKind as AK, UnaryOp};
use oclc_syntax::{Diagnostic, ExpnId, Note, Span};

use super::Checker;
use crate::hir::{Expr, ExprKind};

fn is_comparison(op: AB) -> bool {
    matches!(op, AB::Lt | AB::Gt | AB::Le | AB::Ge | AB::Eq | AB::Ne)
}

fn is_relational(op: AB) -> bool {
    matches!(op, AB::Lt | AB::Gt | AB::Le | AB::Ge)
}

fn is_bitwise(op: AB) -> bool {
    matches!(op, AB::BitAnd | AB::BitOr | AB::BitXor)
}

/// The operator of a binary expression as written (not in parentheses).
fn binop(e: &ast::Expr) -> Option<(AB, Span, &ast::Expr, &ast::Expr)> {
    match &e.kind {
        AK::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } => Some((*op, *op_span, lhs, rhs)),
        _ => None,
    }
}

impl Checker<'_> {
    /// The precedence warnings for `lhs op rhs`, after its operands are checked and before
    /// the operator is (clang's `DiagnoseBinOpPrecedence`).
    pub(crate) fn binop_precedence(
        &mut self,
        op: AB,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        l: &Expr,
    ) {
        if is_bitwise(op) {
            self.bitwise_precedence(op, op_span, lhs, rhs);
        }
        let in_macro = op_span.expn != ExpnId::NONE;
        if matches!(op, AB::BitOr | AB::BitXor) && !in_macro {
            // `&` within `^` or `|`, `^` within `|` (a lower opcode in clang's order).
            let rank = |o: AB| match o {
                AB::BitAnd => 0,
                AB::BitXor => 1,
                _ => 2,
            };
            for side in [lhs, rhs] {
                if let Some((iop, inner, ..)) = binop(side)
                    && is_bitwise(iop)
                    && rank(iop) < rank(op)
                {
                    let i = iop.as_str();
                    let range = self.expr_range(side);
                    let d = Diagnostic::warning(inner, format!("'{i}' within '{}'", op.as_str()))
                        .with_group("bitwise-op-parentheses")
                        .with_range(range)
                        .with_range(op_span);
                    let n = self.parens_note(
                        inner,
                        format!(
                            "place parentheses around the '{i}' expression to silence this warning"
                        ),
                        range,
                    );
                    self.emit(d.with_full_note(n));
                }
            }
        }
        if op == AB::LogOr && !in_macro {
            for (side, is_left) in [(lhs, true), (rhs, false)] {
                let Some((AB::LogAnd, inner, il, ir)) = binop(side) else {
                    continue;
                };
                // `"message" && a || b` and `a || b && "message"` are idioms.
                let probe = if is_left { il } else { ir };
                if matches!(strip(probe).kind, AK::StrLit(_)) {
                    continue;
                }
                let range = self.expr_range(side);
                let d = Diagnostic::warning(inner, "'&&' within '||'")
                    .with_group("logical-op-parentheses")
                    .with_range(range)
                    .with_range(op_span);
                let n = self.parens_note(
                    inner,
                    "place parentheses around the '&&' expression to silence this warning"
                        .to_string(),
                    range,
                );
                self.emit(d.with_full_note(n));
            }
        }
        let shift = (op == AB::Shl && self.prog.types.is_integer(l.ty)) || op == AB::Shr;
        if shift {
            for side in [lhs, rhs] {
                if let Some((inner @ (AB::Add | AB::Sub), inner_span, ..)) = binop(side) {
                    let (s, i) = (op.as_str(), inner.as_str());
                    let range = self.expr_range(side);
                    let d = Diagnostic::warning(
                        inner_span,
                        format!("operator '{s}' has lower precedence than '{i}'; '{i}' will be evaluated first"),
                    )
                    .with_group("shift-op-parentheses")
                    .with_range(range)
                    .with_range(op_span);
                    let n = self.parens_note(
                        inner_span,
                        format!(
                            "place parentheses around the '{i}' expression to silence this warning"
                        ),
                        range,
                    );
                    self.emit(d.with_full_note(n));
                }
            }
        }
    }

    /// `a & b == c` (clang's `DiagnoseBitwisePrecedence`).
    fn bitwise_precedence(&mut self, op: AB, op_span: Span, lhs: &ast::Expr, rhs: &ast::Expr) {
        let (lb, rb) = (binop(lhs), binop(rhs));
        let left_cmp = lb.is_some_and(|b| is_comparison(b.0));
        let right_cmp = rb.is_some_and(|b| is_comparison(b.0));
        if left_cmp == right_cmp {
            return;
        }
        if lb.is_some_and(|b| is_bitwise(b.0)) || rb.is_some_and(|b| is_bitwise(b.0)) {
            return;
        }
        let (cmp, cmp_expr) = if left_cmp { (lb, lhs) } else { (rb, rhs) };
        let Some((cop, _, cl, cr)) = cmp else { return };
        let range = if left_cmp {
            self.span_between(self.expr_range(lhs), op_span)
        } else {
            self.span_between(op_span, self.expr_range(rhs))
        };
        let parens = if left_cmp {
            self.span_between(self.expr_range(cr), self.expr_range(rhs))
        } else {
            self.span_between(self.expr_range(lhs), self.expr_range(cl))
        };
        let (o, c) = (op.as_str(), cop.as_str());
        let d = Diagnostic::warning(
            op_span,
            format!("{o} has lower precedence than {c}; {c} will be evaluated first"),
        )
        .with_group("parentheses")
        .with_range(range);
        let n1 = self.parens_note(
            op_span,
            format!("place parentheses around the '{c}' expression to silence this warning"),
            self.expr_range(cmp_expr),
        );
        let n2 = self.parens_note(
            op_span,
            format!("place parentheses around the {o} expression to evaluate it first"),
            parens,
        );
        self.emit(d.with_full_note(n1).with_full_note(n2));
    }

    /// `a < b < c`: reported after the outer comparison is checked.
    pub(crate) fn consecutive_comparison(&mut self, op: AB, op_span: Span, lhs: &ast::Expr) {
        if is_relational(op) && binop(lhs).is_some_and(|b| is_relational(b.0)) {
            self.emit(
                Diagnostic::warning(
                    op_span,
                    "comparisons like 'X<=Y<=Z' don't have their mathematical meaning",
                )
                .with_group("parentheses"),
            );
        }
    }

    /// `a + (b < c) ? x : y` (clang's `DiagnoseConditionalPrecedence`), once the conditional
    /// operator is valid. `c` is the checked condition.
    pub(crate) fn conditional_precedence(
        &mut self,
        question: Span,
        cond: &ast::Expr,
        c: &Expr,
        else_: &ast::Expr,
    ) {
        let Some((op, _, _, rhs)) = binop(cond) else {
            return;
        };
        if !matches!(
            op,
            AB::Add
                | AB::Sub
                | AB::Mul
                | AB::Div
                | AB::Rem
                | AB::Shl
                | AB::Shr
                | AB::BitAnd
                | AB::BitOr
        ) {
            return;
        }
        // The right operand must look boolean: a comparison, a logical operator, `!`, or of
        // type `bool` or a pointer.
        let r = strip(rhs);
        let looks_boolean = match &r.kind {
            AK::Binary { op, .. } => is_comparison(*op) || matches!(op, AB::LogAnd | AB::LogOr),
            AK::Unary {
                op: UnaryOp::LogNot,
                ..
            } => true,
            _ => {
                let rt = match &strip_implicit(c).kind {
                    ExprKind::Binary(_, _, r) => Some(strip_implicit(r).ty),
                    _ => None,
                };
                rt.is_some_and(|t| {
                    self.prog.types.is_pointer(t)
                        || self
                            .prog
                            .types
                            .as_scalar(t)
                            .is_some_and(|s| s == crate::types::Scalar::Bool)
                })
            }
        };
        if !looks_boolean {
            return;
        }
        let o = op.as_str();
        let (group, what) = if is_bitwise(op) {
            ("bitwise-conditional-parentheses", o)
        } else {
            ("parentheses", o)
        };
        let cond_range = self.expr_range(cond);
        let d = Diagnostic::warning(
            question,
            format!(
                "operator '?:' has lower precedence than '{what}'; '{what}' will be evaluated first"
            ),
        )
        .with_group(group)
        .with_range(cond_range);
        let n1 = self.parens_note(
            question,
            format!("place parentheses around the '{o}' expression to silence this warning"),
            cond_range,
        );
        let n2 = self.parens_note(
            question,
            "place parentheses around the '?:' expression to evaluate it first".to_string(),
            self.span_between(self.expr_range(rhs), self.expr_range(else_)),
        );
        self.emit(d.with_full_note(n1).with_full_note(n2));
    }

    /// clang's `SuggestParentheses`: a note at `at` with `(` and `)` around `range`, or the
    /// range alone when it is not plain file text.
    fn parens_note(&self, at: Span, msg: String, range: Span) -> Note {
        let n = Note::new(at, msg);
        if range.expn != ExpnId::NONE || range.is_dummy() {
            return n.with_range(range);
        }
        n.with_fixit(range.start(), "(").with_fixit(
            Span {
                lo: range.hi,
                ..range
            },
            ")",
        )
    }

    /// The source range of an expression, mapped out of macro expansions when its ends are in
    /// different ones.
    fn expr_range(&self, e: &ast::Expr) -> Span {
        self.source_range(e)
    }

    /// From the start of `a` to the end of `b`, both mapped to where they are written when
    /// they are in different expansions.
    fn span_between(&self, a: Span, b: Span) -> Span {
        if a.file == b.file && a.expn == b.expn && b.hi >= a.lo {
            return Span { hi: b.hi, ..a };
        }
        let (x, y) = (self.sm.report_span(a), self.sm.report_span(b));
        if x.file == y.file && y.hi >= x.lo {
            Span { hi: y.hi, ..x }
        } else {
            a
        }
    }
}

fn strip(e: &ast::Expr) -> &ast::Expr {
    let mut x = e;
    while let AK::Paren(i) = &x.kind {
        x = i;
    }
    x
}

fn strip_implicit(e: &Expr) -> &Expr {
    let mut x = e;
    while let ExprKind::Cast(_, inner) = &x.kind {
        if inner.span != x.span {
            break;
        }
        x = inner;
    }
    x
}
