//! `#if`/`#elif` constant expressions, evaluated as clang does: intmax_t/uintmax_t arithmetic,
//! `defined`, character constants, the usual arithmetic conversions, and diagnostics only in
//! evaluated operands (short-circuit and `?:`). Parsing and evaluation use explicit stacks, so
//! deeply nested parentheses cannot overflow the native stack.

use super::{PTok, Pp};
use crate::diag::Diagnostic;
use crate::intern::{Symbol, kw};
use crate::source::Span;
use crate::token::{Punct, TokenKind};

/// clang's feature-check operators; oclc answers `__has_builtin` as clang-19 does for spir
/// and each other one with 0.
const FEATURE_CHECKS: &[&str] = &[
    "__has_feature",
    "__has_extension",
    "__has_builtin",
    "__has_attribute",
    "__has_c_attribute",
    "__has_declspec_attribute",
    "__has_cpp_attribute",
    "__has_warning",
    "__is_identifier",
    "__has_embed",
];

/// A preprocessor value: 64 bits, signed (intmax_t) or unsigned (uintmax_t).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Val {
    pub v: u64,
    pub unsigned: bool,
}

impl Val {
    fn signed(v: i64) -> Val {
        Val {
            v: v as u64,
            unsigned: false,
        }
    }
    fn is_neg(self) -> bool {
        !self.unsigned && (self.v as i64) < 0
    }
}

/// An operand-or-operator of the expression after macro expansion.
enum ETok {
    Num(Val, Span),
    /// A number or character constant clang rejects; the error is reported if the parser
    /// reaches it.
    BadNum(String, Span),
    Ident(Symbol, Span),
    Op(Punct, Span),
    Other(Span),
    End(Span),
}

enum Node {
    Leaf(Val),
    Un(Punct, usize, Span),
    Bin(Punct, usize, usize, Span),
    Cond(usize, usize, usize),
}

#[derive(Clone, Copy)]
enum Op {
    Un(Punct, Span),
    Bin(Punct, Span),
    LParen(Span),
    Question(Span),
    Colon,
}

fn bin_prec(p: Punct) -> Option<i32> {
    use Punct::*;
    Some(match p {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        Comma => -1,
        _ => return None,
    })
}

fn op_prec(op: &Op) -> i32 {
    match op {
        Op::Bin(p, _) => bin_prec(*p).unwrap_or(-2),
        Op::Colon => 0,
        Op::Un(..) => 11,
        Op::LParen(_) | Op::Question(_) => i32::MIN,
    }
}

/// Something noted while evaluating, reported only when its operator is evaluated.
enum Problem {
    /// clang's `ext_pp_comma_expr` (an extension in C99 when evaluated).
    Comma,
    DivZero,
    RemZero,
    Overflow,
    Negative {
        right: bool,
        value: i64,
    },
}

impl Pp<'_> {
    /// Reads the rest of the directive line as an expression; false on any error.
    pub(super) fn eval_if(&mut self) -> bool {
        let mut toks = Vec::new();
        let mut defined_ops = 0u32;
        loop {
            let t = self.expanded_next();
            let span = t.tok.span;
            let e = match t.tok.kind {
                TokenKind::Eof => {
                    toks.push(ETok::End(self.eod_span()));
                    break;
                }
                TokenKind::Ident(s) if s == kw::DEFINED => {
                    self.check_defined_from_macro(span);
                    defined_ops += 1;
                    match self.read_defined() {
                        Some(v) => ETok::Num(Val::signed(i64::from(v)), span),
                        None => return false,
                    }
                }
                TokenKind::Ident(s) => {
                    if s.as_str() == "__has_include" || s.as_str() == "__has_include_next" {
                        match self.read_has_include(t) {
                            Some(v) => ETok::Num(Val::signed(i64::from(v)), span),
                            None => return false,
                        }
                    } else if FEATURE_CHECKS.contains(&s.as_str()) {
                        let Some(v) = self.feature_check(t, s) else {
                            return false;
                        };
                        ETok::Num(Val::signed(i64::from(v)), span)
                    } else {
                        ETok::Ident(s, span)
                    }
                }
                TokenKind::Number(s) => match parse_int(s.as_str()) {
                    Ok((v, warn)) => {
                        if let Some(w) = warn {
                            self.warning(span, w, "implicitly-unsigned-literal");
                        }
                        ETok::Num(v, span)
                    }
                    Err(msg) => ETok::BadNum(msg, span),
                },
                TokenKind::Char(s) => match char_value(s.as_str()) {
                    Ok((v, multi)) => {
                        if multi {
                            self.warning(span, "multi-character character constant", "multichar");
                        }
                        ETok::Num(v, span)
                    }
                    Err(msg) => ETok::BadNum(msg, span),
                },
                TokenKind::Punct(p) => ETok::Op(p, span),
                _ => ETok::Other(span),
            };
            toks.push(e);
        }
        // clang's `IfNDefMacro`: the whole condition is `!defined X` (a guard's form).
        self.if_ndef = match toks.as_slice() {
            [ETok::Op(Punct::Bang, _), ETok::Num(..), ETok::End(_)] if defined_ops == 1 => {
                self.last_defined
            }
            _ => None,
        };
        self.evaluate(&toks)
    }

    /// clang's warning for a `defined` produced by an object-like macro (for function-like
    /// macros it is an extension shown only with `-pedantic`).
    fn check_defined_from_macro(&mut self, span: Span) {
        let Some(e) = self.sm.expansion(span.expn) else {
            return;
        };
        let sym = e.macro_name;
        let function_like = self.macros.get(sym).is_some_and(|m| m.function_like);
        let msg = "macro expansion producing 'defined' has undefined behavior";
        if function_like {
            self.warning(span, msg, "pedantic");
        } else {
            self.warning(span, msg, "expansion-to-defined");
        }
    }

    /// `defined X` / `defined ( X )`, the operand read unexpanded; `None` after an error.
    fn read_defined(&mut self) -> Option<bool> {
        let mut n: PTok = self.raw_next();
        let lparen = if n.tok.is_punct(Punct::LParen) {
            let lp = n.tok.span;
            n = self.raw_next();
            Some(lp)
        } else {
            None
        };
        let name = match n.tok.kind {
            TokenKind::Ident(s) => s,
            TokenKind::Eof => {
                self.error(n.tok.span, "macro name missing");
                return None;
            }
            _ => {
                self.error(n.tok.span, "macro name must be an identifier");
                return None;
            }
        };
        self.last_defined = Some(name);
        if let Some(lp) = lparen {
            let r = self.raw_next();
            if !r.tok.is_punct(Punct::RParen) {
                let at = r.tok.span;
                self.diags.push(
                    Diagnostic::error(at, "missing ')' after 'defined'")
                        .with_note(lp, "to match this '('"),
                );
                return None;
            }
        }
        Some(self.is_defined(name))
    }

    /// Reads the parenthesized operand of a clang feature-check macro (`__has_feature(x)` ...)
    /// and answers it: `__has_builtin` of one identifier by clang-19's builtins, the others
    /// with 0; `None` after clang's error.
    fn feature_check(&mut self, t: PTok, op: Symbol) -> Option<bool> {
        let lp = self.raw_next();
        if !lp.tok.is_punct(Punct::LParen) {
            self.error(
                t.tok.span,
                "builtin feature check macro requires a parenthesized identifier",
            );
            return None;
        }
        let mut depth = 0u32;
        // The operand when it is one identifier.
        let mut name: Option<Option<Symbol>> = None;
        loop {
            let n = self.raw_next();
            match n.tok.kind {
                TokenKind::Eof => {
                    self.error(
                        t.tok.span,
                        "builtin feature check macro requires a parenthesized identifier",
                    );
                    return None;
                }
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => break,
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                _ => {}
            }
            name = match (name, n.tok.ident()) {
                (None, Some(id)) => Some(Some(id)),
                _ => Some(None),
            };
        }
        Some(
            op.as_str() == "__has_builtin"
                && name
                    .flatten()
                    .is_some_and(|n| super::builtin_names::is_clang_builtin(n.as_str())),
        )
    }

    /// `defined` for `name`: a macro, or one of the preprocessor's builtin operators (which
    /// clang reports as defined).
    pub(super) fn is_defined(&mut self, name: Symbol) -> bool {
        self.macros.contains(name)
            || name.as_str() == "__has_include"
            || name.as_str() == "__has_include_next"
            || FEATURE_CHECKS.contains(&name.as_str())
    }

    /// `__has_include("x")` / `__has_include(<x>)`: whether the file would be found.
    fn read_has_include(&mut self, t: PTok) -> Option<bool> {
        let malformed = "missing '(' after '__has_include'";
        let lp = self.raw_next();
        if !lp.tok.is_punct(Punct::LParen) {
            self.error(lp.tok.span, malformed);
            return None;
        }
        let first = self.raw_next();
        let (name, angled) = match first.tok.kind {
            TokenKind::Str(s) => {
                let lit = s.as_str();
                (
                    lit.trim_start_matches('L').trim_matches('"').to_string(),
                    false,
                )
            }
            TokenKind::Punct(Punct::Lt) => {
                let mut name = String::new();
                loop {
                    let n = self.raw_next();
                    if n.is_eof() {
                        self.error(t.tok.span, "expected \"FILENAME\" or <FILENAME>");
                        return None;
                    }
                    if n.tok.is_punct(Punct::Gt) {
                        break;
                    }
                    name.push_str(&n.tok.text());
                }
                (name, true)
            }
            _ => {
                self.error(first.tok.span, "expected \"FILENAME\" or <FILENAME>");
                return None;
            }
        };
        let rp = self.raw_next();
        if !rp.tok.is_punct(Punct::RParen) {
            self.diags.push(
                Diagnostic::error(rp.tok.span, "missing ')' after '__has_include'")
                    .with_note(lp.tok.span, "to match this '('"),
            );
            return None;
        }
        let mut dirs: Vec<std::path::PathBuf> = Vec::new();
        if !angled {
            dirs.push(
                self.files
                    .last()
                    .and_then(|f| f.dir.clone())
                    .unwrap_or_default(),
            );
        }
        dirs.extend(self.opts.include_dirs.iter().cloned());
        Some(!name.is_empty() && dirs.iter().any(|d| d.join(&name).is_file()))
    }

    /// Parses (shunting-yard) and evaluates `toks`; reports the first syntax error.
    fn evaluate(&mut self, toks: &[ETok]) -> bool {
        let mut nodes: Vec<Node> = Vec::new();
        let mut vals: Vec<usize> = Vec::new();
        let mut ops: Vec<Op> = Vec::new();
        let mut expect_operand = true;
        let mut prev_ident: Option<(Symbol, Span)> = None;

        fn reduce(op: Op, nodes: &mut Vec<Node>, vals: &mut Vec<usize>) -> bool {
            let node = match op {
                Op::Un(p, s) => {
                    let Some(c) = vals.pop() else { return false };
                    Node::Un(p, c, s)
                }
                Op::Bin(p, s) => {
                    let (Some(r), Some(l)) = (vals.pop(), vals.pop()) else {
                        return false;
                    };
                    Node::Bin(p, l, r, s)
                }
                Op::Colon => {
                    let (Some(e), Some(t), Some(c)) = (vals.pop(), vals.pop(), vals.pop()) else {
                        return false;
                    };
                    Node::Cond(c, t, e)
                }
                Op::LParen(_) | Op::Question(_) => return false,
            };
            nodes.push(node);
            vals.push(nodes.len() - 1);
            true
        }
        fn reduce_unary(ops: &mut Vec<Op>, nodes: &mut Vec<Node>, vals: &mut Vec<usize>) {
            while let Some(&op @ Op::Un(..)) = ops.last() {
                ops.pop();
                reduce(op, nodes, vals);
            }
        }
        /// Reduces while the top operator binds at least as tightly as `min`.
        fn reduce_to(min: i32, ops: &mut Vec<Op>, nodes: &mut Vec<Node>, vals: &mut Vec<usize>) {
            while let Some(&op) = ops.last() {
                if op_prec(&op) < min {
                    break;
                }
                ops.pop();
                reduce(op, nodes, vals);
            }
        }

        for t in toks {
            if expect_operand {
                match *t {
                    ETok::Num(v, _) => {
                        nodes.push(Node::Leaf(v));
                        vals.push(nodes.len() - 1);
                        prev_ident = None;
                        expect_operand = false;
                        reduce_unary(&mut ops, &mut nodes, &mut vals);
                    }
                    ETok::Ident(s, span) => {
                        nodes.push(Node::Leaf(Val::signed(0)));
                        vals.push(nodes.len() - 1);
                        prev_ident = Some((s, span));
                        expect_operand = false;
                        reduce_unary(&mut ops, &mut nodes, &mut vals);
                    }
                    ETok::BadNum(ref msg, span) => {
                        let msg = msg.clone();
                        self.error(span, msg);
                        return false;
                    }
                    ETok::Op(Punct::LParen, span) => ops.push(Op::LParen(span)),
                    ETok::Op(
                        p @ (Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang),
                        span,
                    ) => {
                        ops.push(Op::Un(p, span));
                    }
                    ETok::End(span) => {
                        self.error(span, "expected value in expression");
                        return false;
                    }
                    ETok::Op(_, span) | ETok::Other(span) => {
                        self.error(span, "invalid token at start of a preprocessor expression");
                        return false;
                    }
                }
                continue;
            }
            match *t {
                ETok::Op(Punct::Question, span) => {
                    reduce_to(1, &mut ops, &mut nodes, &mut vals);
                    ops.push(Op::Question(span));
                    expect_operand = true;
                }
                ETok::Op(Punct::Colon, span) => {
                    reduce_to(-1, &mut ops, &mut nodes, &mut vals);
                    match ops.last() {
                        Some(Op::Question(_)) => {
                            ops.pop();
                            ops.push(Op::Colon);
                            expect_operand = true;
                        }
                        _ => {
                            self.error(span, "':' without preceding '?'");
                            return false;
                        }
                    }
                }
                ETok::Op(Punct::RParen, span) => {
                    reduce_to(-1, &mut ops, &mut nodes, &mut vals);
                    match ops.last() {
                        Some(Op::LParen(_)) => {
                            ops.pop();
                            prev_ident = None;
                            reduce_unary(&mut ops, &mut nodes, &mut vals);
                        }
                        Some(&Op::Question(q)) => {
                            self.diags.push(
                                Diagnostic::error(span, "expected ':'")
                                    .with_note(q, "to match this '?'"),
                            );
                            return false;
                        }
                        _ => {
                            self.error(span, "expected end of line in preprocessor expression");
                            return false;
                        }
                    }
                }
                ETok::Op(p, span) if bin_prec(p).is_some() => {
                    let prec = bin_prec(p).unwrap_or(0);
                    reduce_to(prec, &mut ops, &mut nodes, &mut vals);
                    ops.push(Op::Bin(p, span));
                    expect_operand = true;
                }
                ETok::End(span) => {
                    reduce_to(-1, &mut ops, &mut nodes, &mut vals);
                    match ops.last() {
                        None => {}
                        Some(&Op::LParen(lp)) => {
                            self.diags.push(
                                Diagnostic::error(span, "expected ')' in preprocessor expression")
                                    .with_note(lp, "to match this '('"),
                            );
                            return false;
                        }
                        Some(&Op::Question(q)) => {
                            self.diags.push(
                                Diagnostic::error(span, "expected ':'")
                                    .with_note(q, "to match this '?'"),
                            );
                            return false;
                        }
                        Some(_) => return false,
                    }
                }
                ETok::Op(Punct::LParen, span) => {
                    match prev_ident {
                        Some((s, at)) => {
                            self.error(at, format!("function-like macro '{s}' is not defined"));
                        }
                        None => self.error(
                            span,
                            "token is not a valid binary operator in a preprocessor subexpression",
                        ),
                    }
                    return false;
                }
                ETok::Num(_, span)
                | ETok::BadNum(_, span)
                | ETok::Ident(_, span)
                | ETok::Op(_, span)
                | ETok::Other(span) => {
                    self.error(
                        span,
                        "token is not a valid binary operator in a preprocessor subexpression",
                    );
                    return false;
                }
            }
        }
        let Some(&root) = vals.last() else {
            return false;
        };
        self.run_nodes(&nodes, root)
    }

    /// Evaluates the tree bottom-up, then reports problems in evaluated operands.
    fn run_nodes(&mut self, nodes: &[Node], root: usize) -> bool {
        let mut vals: Vec<Val> = Vec::with_capacity(nodes.len());
        let mut problems: Vec<(usize, Span, Problem)> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            let get = |k: usize| vals.get(k).copied().unwrap_or(Val::signed(0));
            let v = match *n {
                Node::Leaf(v) => v,
                Node::Un(p, c, span) => {
                    let a = get(c);
                    match p {
                        Punct::Minus => {
                            if !a.unsigned && a.v == i64::MIN as u64 {
                                problems.push((i, span, Problem::Overflow));
                            }
                            Val {
                                v: a.v.wrapping_neg(),
                                unsigned: a.unsigned,
                            }
                        }
                        Punct::Tilde => Val {
                            v: !a.v,
                            unsigned: a.unsigned,
                        },
                        Punct::Bang => Val::signed(i64::from(a.v == 0)),
                        _ => a,
                    }
                }
                Node::Cond(c, t, e) => {
                    let (tv, ev) = (get(t), get(e));
                    let pick = if get(c).v != 0 { tv } else { ev };
                    Val {
                        v: pick.v,
                        unsigned: tv.unsigned || ev.unsigned,
                    }
                }
                Node::Bin(p, l, r, span) => {
                    let (a, b) = (get(l), get(r));
                    binary(p, a, b, |pr| problems.push((i, span, pr)))
                }
            };
            vals.push(v);
        }
        // Liveness, top-down: parents have larger indices than their children.
        let mut live = vec![false; nodes.len()];
        if let Some(l) = live.get_mut(root) {
            *l = true;
        }
        for i in (0..nodes.len()).rev() {
            let li = live[i];
            let val = |k: usize| vals.get(k).map_or(0, |v| v.v);
            match nodes[i] {
                Node::Leaf(_) => {}
                Node::Un(_, c, _) => live[c] = li,
                Node::Bin(Punct::AmpAmp, l, r, _) => {
                    live[l] = li;
                    live[r] = li && val(l) != 0;
                }
                Node::Bin(Punct::PipePipe, l, r, _) => {
                    live[l] = li;
                    live[r] = li && val(l) == 0;
                }
                Node::Bin(_, l, r, _) => {
                    live[l] = li;
                    live[r] = li;
                }
                Node::Cond(c, t, e) => {
                    live[c] = li;
                    live[t] = li && val(c) != 0;
                    live[e] = li && val(c) == 0;
                }
            }
        }
        for (i, span, pr) in problems {
            if !live[i] {
                continue;
            }
            match pr {
                Problem::Comma => {
                    self.warning(span, "comma operator in operand of #if", "pedantic");
                }
                Problem::DivZero => {
                    self.error(span, "division by zero in preprocessor expression");
                    return false;
                }
                Problem::RemZero => {
                    self.error(span, "remainder by zero in preprocessor expression");
                    return false;
                }
                Problem::Overflow => self.diags.push(Diagnostic::warning(
                    span,
                    "integer overflow in preprocessor expression",
                )),
                Problem::Negative { right, value } => {
                    let side = if right { "right" } else { "left" };
                    self.diags.push(Diagnostic::warning(
                        span,
                        format!(
                            "{side} side of operator converted from negative value to unsigned: \
                             {value} to {}",
                            value as u64
                        ),
                    ));
                }
            }
        }
        vals.get(root).is_some_and(|v| v.v != 0)
    }
}

/// One binary operator with clang's conversions; `problem` receives division by zero, overflow
/// and negative-to-unsigned conversions.
fn binary(p: Punct, a: Val, b: Val, mut problem: impl FnMut(Problem)) -> Val {
    use Punct::*;
    match p {
        AmpAmp => return Val::signed(i64::from(a.v != 0 && b.v != 0)),
        PipePipe => return Val::signed(i64::from(a.v != 0 || b.v != 0)),
        Comma => {
            problem(Problem::Comma);
            return b;
        }
        Shl | Shr => {
            let amt = if b.is_neg() { u64::MAX } else { b.v };
            return shift(p == Shl, a, amt, &mut problem);
        }
        _ => {}
    }
    let unsigned = a.unsigned || b.unsigned;
    if unsigned {
        if a.is_neg() {
            problem(Problem::Negative {
                right: false,
                value: a.v as i64,
            });
        }
        if b.is_neg() {
            problem(Problem::Negative {
                right: true,
                value: b.v as i64,
            });
        }
    }
    let (x, y) = (a.v, b.v);
    let (sx, sy) = (x as i64, y as i64);
    let cmp = |r: bool| Val::signed(i64::from(r));
    let num = |v: u64| Val { v, unsigned };
    match p {
        Lt => cmp(if unsigned { x < y } else { sx < sy }),
        Gt => cmp(if unsigned { x > y } else { sx > sy }),
        Le => cmp(if unsigned { x <= y } else { sx <= sy }),
        Ge => cmp(if unsigned { x >= y } else { sx >= sy }),
        EqEq => cmp(x == y),
        Ne => cmp(x != y),
        Amp => num(x & y),
        Caret => num(x ^ y),
        Pipe => num(x | y),
        Plus | Minus | Star => {
            if unsigned {
                num(match p {
                    Plus => x.wrapping_add(y),
                    Minus => x.wrapping_sub(y),
                    _ => x.wrapping_mul(y),
                })
            } else {
                let (r, o) = match p {
                    Plus => sx.overflowing_add(sy),
                    Minus => sx.overflowing_sub(sy),
                    _ => sx.overflowing_mul(sy),
                };
                if o {
                    problem(Problem::Overflow);
                }
                num(r as u64)
            }
        }
        Slash | Percent => {
            if y == 0 {
                problem(if p == Slash {
                    Problem::DivZero
                } else {
                    Problem::RemZero
                });
                return num(0);
            }
            if unsigned {
                num(if p == Slash { x / y } else { x % y })
            } else if p == Slash {
                let (r, o) = sx.overflowing_div(sy);
                if o {
                    problem(Problem::Overflow);
                }
                num(r as u64)
            } else {
                num(sx.wrapping_rem(sy) as u64)
            }
        }
        _ => num(0),
    }
}

/// `<<`/`>>` as clang computes them (APInt `ushl_ov`/`sshl_ov`, clamped right shifts).
fn shift(left: bool, a: Val, amt: u64, problem: &mut impl FnMut(Problem)) -> Val {
    if left {
        if amt >= 64 {
            problem(Problem::Overflow);
            return Val {
                v: 0,
                unsigned: a.unsigned,
            };
        }
        let r = a.v << amt;
        let lost = if a.unsigned {
            amt > 0 && (a.v >> (64 - amt)) != 0
        } else {
            ((r as i64) >> amt) != a.v as i64
        };
        if lost {
            problem(Problem::Overflow);
        }
        Val {
            v: r,
            unsigned: a.unsigned,
        }
    } else {
        let amt = if amt >= 64 {
            problem(Problem::Overflow);
            63
        } else {
            amt
        };
        let v = if a.unsigned {
            a.v >> amt
        } else {
            ((a.v as i64) >> amt) as u64
        };
        Val {
            v,
            unsigned: a.unsigned,
        }
    }
}

/// Parses a pp-number as an integer constant (C99 6.4.4.1); the value and an optional
/// "interpreting as unsigned" warning, or clang's error.
pub(super) fn parse_int(s: &str) -> Result<(Val, Option<&'static str>), String> {
    let b = s.as_bytes();
    let (radix, start) = if b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (16, 2)
    } else if b.len() > 1 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        (2, 2)
    } else if b.first() == Some(&b'0') {
        (8, 1)
    } else {
        (10, 0)
    };
    let is_digit = |c: u8| match radix {
        16 => c.is_ascii_hexdigit(),
        2 => c == b'0' || c == b'1',
        8 => (b'0'..=b'7').contains(&c),
        _ => c.is_ascii_digit(),
    };
    let mut end = start;
    while end < b.len() && is_digit(b[end]) {
        end += 1;
    }
    let rest = &s[end..];
    let float = if radix == 16 {
        rest.starts_with(['.', 'p', 'P'])
    } else {
        rest.starts_with(['.', 'e', 'E'])
    };
    if float {
        return Err("floating point literal in preprocessor expression".into());
    }
    if (radix == 8 || radix == 2)
        && let Some(c) = rest.bytes().next().filter(u8::is_ascii_digit)
    {
        let kind = if radix == 8 { "octal" } else { "binary" };
        return Err(format!("invalid digit '{}' in {kind} constant", c as char));
    }
    if radix != 8 && end == start {
        return Err(format!(
            "invalid suffix '{}' on integer constant",
            &s[start.min(s.len())..]
        ));
    }
    let unsigned_suffix = match rest.to_ascii_lowercase().as_str() {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => return Err(format!("invalid suffix '{rest}' on integer constant")),
    };
    if rest.contains("lL") || rest.contains("Ll") {
        return Err(format!("invalid suffix '{rest}' on integer constant"));
    }
    let mut v: u64 = 0;
    for &c in &b[start..end] {
        let d = (c as char).to_digit(radix).unwrap_or(0);
        v = v
            .checked_mul(u64::from(radix))
            .and_then(|x| x.checked_add(u64::from(d)))
            .ok_or("integer literal is too large to be represented in any integer type")?;
    }
    let fits_signed = v <= i64::MAX as u64;
    let warn = if !fits_signed && !unsigned_suffix && radix == 10 {
        Some(
            "integer literal is too large to be represented in a signed integer type, interpreting as unsigned",
        )
    } else {
        None
    };
    Ok((
        Val {
            v,
            unsigned: unsigned_suffix || !fits_signed,
        },
        warn,
    ))
}

/// The value of a character constant in `#if` (char is signed on spir); whether it has
/// several characters.
pub(super) fn char_value(lit: &str) -> Result<(Val, bool), String> {
    let wide = lit.starts_with('L');
    let inner = lit.trim_start_matches('L');
    let inner = inner
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or("");
    let mut units: Vec<u32> = Vec::new();
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            if wide {
                units.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let Some(e) = it.next() else { break };
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' | 'E' => 27,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            it.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = it.peek().and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    any = true;
                    it.next();
                }
                if !any {
                    return Err("\\x used with no following hex digits".into());
                }
                v
            }
            other => other as u32,
        };
        units.push(v);
    }
    let multi = units.len() > 1;
    let v = if wide {
        i64::from(units.last().copied().unwrap_or(0) as i32)
    } else if multi {
        let mut acc: u32 = 0;
        for u in &units {
            acc = (acc << 8) | (u & 0xff);
        }
        i64::from(acc as i32)
    } else {
        i64::from(units.first().copied().unwrap_or(0) as u8 as i8)
    };
    Ok((Val::signed(v), multi && !wide))
}
