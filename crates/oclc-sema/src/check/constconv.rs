//! clang's implicit-conversion checks on integer constants (`CheckImplicitConversion`, run
//! when a full expression is complete):
//!
//! - a constant that does not fit a narrower integer type: "implicit conversion from 'int' to
//!   'char' changes value from 300 to 44" [-Wconstant-conversion], a run-time warning (held
//!   to the end of the function, dropped in unreachable code);
//! - a non-negative constant of a signed type that fills every bit of a signed type of the
//!   same width (`char c = 128`): the same warning at once, except for a literal written with
//!   a leading `0` (hex, octal: `char c = 0xff` fills the bits on purpose);
//! - an integer constant expression a floating type cannot hold exactly (`f * 16777217`):
//!   [-Wimplicit-const-int-float-conversion], run-time;
//!
//! - a floating literal (under an optional `-`) converted to an integer, `bool` or integer
//!   vector type when the value changes: "implicit conversion from 'double' to 'int' changes
//!   value from 1.5 to 1", or "implicit conversion of out of range value from 'double' to
//!   'char' is undefined" [-Wliteral-conversion] (`DiagnoseFloatingImpConversion`), at once;
//!
//! at the constant (its operator for `1 << 30 | 1`), underlining it and the context: the
//! operator, the declared name, the callee of an argument, `return`, the `{` of a list.

use oclc_syntax::{Diagnostic, Span};

use super::Checker;
use crate::hir::{BinOp, Expr, ExprKind, UnOp};
use crate::types::{Scalar, TypeKind};

impl Checker<'_> {
    /// Checks the implicit conversion at the top of `converted` (an rvalue sema converted to
    /// its type), in the context `cc`.
    pub(crate) fn check_constant_conversion(&mut self, converted: &Expr, cc: Span) {
        let Some(src) = converted_operand(converted) else {
            return;
        };
        self.constant_conversion_from(src, converted.ty.unqualified(), cc, 0);
    }

    fn constant_conversion_from(
        &mut self,
        src: &Expr,
        to: crate::types::QualType,
        cc: Span,
        d: u32,
    ) {
        if d > 64 {
            return;
        }
        // clang checks both branches of `?:` against the target.
        if let ExprKind::Cond(_, t, f) = &src.kind {
            let (t, f) = (strip_implicit(t), strip_implicit(f));
            self.constant_conversion_from(t, to, cc, d + 1);
            self.constant_conversion_from(f, to, cc, d + 1);
            return;
        }
        let types = &self.prog.types;
        let from_c = types.canonical(src.ty);
        let to_c = types.canonical(to);
        if from_c.id == to_c.id {
            return;
        }
        let Some(from) = int_scalar(types.kind(from_c.id)) else {
            return;
        };
        let target = match types.kind(to_c.id) {
            TypeKind::Vector(e, _) => *e,
            k => match int_scalar(k).or(match k {
                TypeKind::Scalar(s) => Some(*s),
                _ => None,
            }) {
                Some(s) => s,
                None => return,
            },
        };
        if target == Scalar::Bool {
            return;
        }
        let Some(raw) = self.const_int(src) else {
            return;
        };
        // The constant as clang's APSInt: unsigned types hold values above i64's.
        let value = if from.is_signed() {
            i128::from(raw)
        } else {
            i128::from(raw as u64 & mask(from.size() * 8))
        };
        // The message is built only when a warning is given (most conversions give none).
        let msg = |c: &Self, value: i128, shown: &dyn std::fmt::Display| {
            let (a, b) = (c.prog.types.quoted(src.ty), c.prog.types.quoted(to));
            format!("implicit conversion from {a} to {b} changes value from {value} to {shown}")
        };
        if target.is_float() {
            // Only an integer constant expression (no variable) counts here.
            if !self.is_ice(src) {
                return;
            }
            let precision = match target {
                Scalar::Half => 11,
                Scalar::Float => 24,
                _ => 53,
            };
            if value_bits(value) <= precision {
                return;
            }
            let Some(rounded) = round_to_precision(value, precision) else {
                return;
            };
            if rounded == value {
                return;
            }
            let m = msg(self, value, &float_string(rounded, precision));
            self.conversion_warning(src, cc, m, "implicit-const-int-float-conversion", true);
            return;
        }
        let width = target.size() * 8;
        let bits = value_bits(value);
        let shown = truncate(value, width, target.is_signed());
        if bits > width {
            let m = msg(self, value, &shown);
            self.conversion_warning(src, cc, m, "constant-conversion", true);
            return;
        }
        if bits == width && target.is_signed() && value >= 0 && from.is_signed() {
            let range = self.unparenthesized(src.span);
            // A literal written with a leading `0` may fill the bits; so may a `char` array's
            // initializer list.
            if matches!(strip_implicit(src).kind, ExprKind::IntLit(_))
                && self.snippet(range).starts_with('0')
            {
                return;
            }
            if matches!(target, Scalar::Char | Scalar::SChar) && self.snippet(cc).starts_with('{') {
                return;
            }
            let m = msg(self, value, &shown);
            self.conversion_warning(src, cc, m, "constant-conversion", false);
        }
    }

    /// [-Wliteral-conversion] for the implicit conversion at the top of `converted` (an
    /// initializer, assignment, argument or return value), in the context `cc`.
    pub(crate) fn check_literal_conversion(&mut self, converted: &Expr, cc: Span) {
        let Some(src) = converted_operand(converted) else {
            return;
        };
        // The literal, or `-literal` (clang looks through a unary minus too).
        let value = match &src.kind {
            ExprKind::FloatLit(v) => *v,
            ExprKind::Unary(UnOp::Neg, inner) => match &strip_implicit(inner).kind {
                ExprKind::FloatLit(v) => -*v,
                _ => return,
            },
            _ => return,
        };
        let types = &self.prog.types;
        let digits = match types.kind(types.canonical(src.ty).id) {
            TypeKind::Scalar(Scalar::Half) => 4,
            TypeKind::Scalar(Scalar::Float) => 8,
            TypeKind::Scalar(Scalar::Double) => 16,
            _ => return,
        };
        let to = converted.ty.unqualified();
        let target = match types.kind(types.canonical(to).id) {
            TypeKind::Vector(e, _) => *e,
            k => match int_scalar(k).or(match k {
                TypeKind::Scalar(Scalar::Bool) => Some(Scalar::Bool),
                _ => None,
            }) {
                Some(s) => s,
                None => return,
            },
        };
        if !value.is_finite() || !(target.is_integer() || target == Scalar::Bool) {
            return;
        }
        let t = value.trunc();
        let shown = if target == Scalar::Bool {
            // Only a fraction changes the value as clang sees it here.
            if t == value {
                return;
            }
            (value != 0.0).to_string()
        } else {
            // The target's range as [lo, end): both powers of two, exact in a double.
            let bits = target.size() as i32 * 8;
            let (lo, end) = if target.is_signed() {
                (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
            } else {
                (0.0, 2f64.powi(bits))
            };
            if t < lo || t >= end {
                let (a, b) = (self.prog.types.quoted(src.ty), self.prog.types.quoted(to));
                let msg = format!(
                    "implicit conversion of out of range value from {a} to {b} is undefined"
                );
                self.conversion_warning(src, cc, msg, "literal-conversion", false);
                return;
            }
            if t == value {
                return;
            }
            if t >= 0.0 {
                format!("{}", t as u64)
            } else {
                format!("{}", t as i64)
            }
        };
        let (a, b) = (self.prog.types.quoted(src.ty), self.prog.types.quoted(to));
        let msg = format!(
            "implicit conversion from {a} to {b} changes value from {} to {shown}",
            apfloat_string(value, digits)
        );
        self.conversion_warning(src, cc, msg, "literal-conversion", false);
    }

    /// A conversion warning of `group` at `src`, underlining it and the context `cc`; a
    /// `runtime` one is held to the end of the function (dropped in unreachable code).
    fn conversion_warning(
        &mut self,
        src: &Expr,
        cc: Span,
        msg: String,
        group: &'static str,
        runtime: bool,
    ) {
        let loc = self.hir_expr_loc(src);
        let range = self.unparenthesized(src.span);
        let d = Diagnostic::warning(loc, msg)
            .with_group(group)
            .with_range(range)
            .with_range(cc);
        self.warn_conversion(d, runtime);
    }

    /// Whether `e` is an integer constant expression in C's sense (no variable is read).
    pub(crate) fn is_ice(&self, e: &Expr) -> bool {
        let mut todo = vec![e];
        let mut n = 0;
        while let Some(x) = todo.pop() {
            n += 1;
            if n > 100_000 {
                return false;
            }
            match &x.kind {
                ExprKind::IntLit(_) | ExprKind::Const(_) | ExprKind::FloatLit(_) => {}
                ExprKind::Cast(_, i) | ExprKind::Unary(_, i) => todo.push(i),
                ExprKind::Binary(_, a, b) => {
                    todo.push(a);
                    todo.push(b);
                }
                ExprKind::Cond(c, t, f) => {
                    todo.push(c);
                    todo.push(t);
                    todo.push(f);
                }
                _ => return false,
            }
        }
        true
    }

    /// clang's `getExprLoc` for a checked expression: its operator (found in the source
    /// between the operands) for a binary one, its start otherwise.
    pub(crate) fn hir_expr_loc(&self, e: &Expr) -> Span {
        let span = self.unparenthesized(e.span);
        if let ExprKind::Binary(op, a, b) = &e.kind
            && a.span.file == b.span.file
            && a.span.expn == b.span.expn
            && a.span.hi <= b.span.lo
            && let Some(f) = self.sm.file(a.span.file)
            && let Some(between) = f.text.get(a.span.hi as usize..b.span.lo as usize)
        {
            let skip = between
                .iter()
                .position(|c| !(c.is_ascii_whitespace() || *c == b')'))
                .unwrap_or(0);
            let lo = a.span.hi + skip as u32;
            let len = op_text(*op).len() as u32;
            return Span {
                lo,
                hi: lo + len,
                ..a.span
            };
        }
        if let ExprKind::Unary(UnOp::PostInc | UnOp::PostDec, _) = &e.kind {
            return Span {
                lo: span.hi.saturating_sub(2),
                ..span
            };
        }
        span.start()
    }

    /// `span` without the parentheses around the whole of it (`(300)` is `300`).
    pub(crate) fn unparenthesized(&self, span: Span) -> Span {
        let Some(f) = self.sm.file(span.file) else {
            return span;
        };
        let mut s = span;
        for _ in 0..256 {
            let Some(text) = f.text.get(s.lo as usize..s.hi as usize) else {
                return s;
            };
            if text.first() != Some(&b'(') || text.last() != Some(&b')') {
                return s;
            }
            // The opening parenthesis must close at the end.
            let mut depth = 0i32;
            for (i, c) in text.iter().enumerate() {
                match c {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 && i + 1 != text.len() {
                            return s;
                        }
                    }
                    _ => {}
                }
            }
            let inner = &text[1..text.len() - 1];
            let lead = inner.iter().take_while(|c| c.is_ascii_whitespace()).count() as u32;
            let trail = inner
                .iter()
                .rev()
                .take_while(|c| c.is_ascii_whitespace())
                .count() as u32;
            s = Span {
                lo: s.lo + 1 + lead,
                hi: (s.hi - 1 - trail).max(s.lo + 1 + lead),
                ..s
            };
        }
        s
    }
}

/// The integer scalar of a type kind (an enum counts as `int`).
fn int_scalar(k: &TypeKind) -> Option<Scalar> {
    match k {
        TypeKind::Scalar(s) if s.is_integer() => Some(*s),
        TypeKind::Enum(_) => Some(Scalar::Int),
        _ => None,
    }
}

/// `v` as LLVM's `APFloat::toString(_, digits, 3)` writes it: rounded (half up) to `digits`
/// significant digits, trailing zeros dropped, in scientific notation (`1.0E-4`) when more
/// than three zeros would pad it.
fn apfloat_string(v: f64, digits: usize) -> String {
    let sign = if v < 0.0 { "-" } else { "" };
    // The exact decimal expansion (a double has at most 767 significant digits).
    let exact = format!("{:.800e}", v.abs());
    let (mant, exp) = exact.split_once('e').unwrap_or((&exact, "0"));
    let mut exp: i64 = exp.parse().unwrap_or(0);
    let mut ds: Vec<u8> = mant
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    while ds.len() > 1 && ds.last() == Some(&0) {
        ds.pop();
    }
    if ds.len() > digits {
        let up = ds.get(digits).is_some_and(|d| *d >= 5);
        ds.truncate(digits);
        if up {
            let mut k = digits;
            loop {
                if k == 0 {
                    ds.insert(0, 1);
                    exp += 1;
                    ds.truncate(digits);
                    break;
                }
                k -= 1;
                if let Some(d) = ds.get_mut(k) {
                    if *d == 9 {
                        *d = 0;
                    } else {
                        *d += 1;
                        break;
                    }
                }
            }
        }
        while ds.len() > 1 && ds.last() == Some(&0) {
            ds.pop();
        }
    }
    let n = ds.len() as i64;
    let text: String = ds.iter().map(|d| char::from(b'0' + d)).collect();
    // `exp` is the power of ten of the first digit; LLVM's exponent is the last digit's.
    let last = exp - (n - 1);
    let scientific = if last >= 0 {
        last > 3 || n + last > digits as i64
    } else {
        exp < 0 && -exp > 3
    };
    if scientific {
        let (first, rest) = text.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let e = if exp >= 0 {
            format!("+{exp}")
        } else {
            exp.to_string()
        };
        return format!("{sign}{first}.{rest}E{e}");
    }
    if last >= 0 {
        return format!("{sign}{text}{}", "0".repeat(last as usize));
    }
    if exp >= 0 {
        let (whole, frac) = text.split_at(exp as usize + 1);
        format!("{sign}{whole}.{frac}")
    } else {
        format!("{sign}0.{}{text}", "0".repeat((-exp - 1) as usize))
    }
}

/// The operand of the implicit conversion at the top of `converted` (`None` for an error or
/// no conversion).
fn converted_operand(converted: &Expr) -> Option<&Expr> {
    let src = strip_implicit(converted);
    (!converted.is_error() && !std::ptr::eq(src, converted)).then_some(src)
}

/// The expression under the implicit conversions sema added (their span is the operand's).
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

fn mask(bits: u64) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The bits a constant needs (clang's `IntRange` of a value): its active bits when it is
/// not negative, its significant bits (with the sign) when it is.
fn value_bits(v: i128) -> u64 {
    if v >= 0 {
        u64::from(128 - v.leading_zeros())
    } else {
        u64::from(128 - (!v).leading_zeros() + 1)
    }
}

/// `v` wrapped to `width` bits, read as signed or unsigned (clang's `PrettyPrintInRange`).
fn truncate(v: i128, width: u64, signed: bool) -> i128 {
    let w = width.min(127) as u32;
    let m = (1i128 << w) - 1;
    let u = v & m;
    if signed && u & (1i128 << (w - 1)) != 0 {
        u - (1i128 << w)
    } else {
        u
    }
}

/// `v` rounded to `precision` significant bits, to nearest with ties to even (an integer
/// converted to a floating type); `None` past the range of any target.
fn round_to_precision(v: i128, precision: u64) -> Option<i128> {
    let neg = v < 0;
    let m = v.unsigned_abs();
    let bits = u64::from(128 - m.leading_zeros());
    if bits <= precision {
        return Some(v);
    }
    let drop = (bits - precision) as u32;
    let q = m >> drop;
    let rem = m & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    let up = rem > half || (rem == half && q & 1 == 1);
    let r = (q + u128::from(up)).checked_shl(drop)?;
    let r = i128::try_from(r).ok()?;
    Some(if neg { -r } else { r })
}

/// An integral floating value as clang's `APFloat::toString` prints it: plain digits, or
/// `1.5E+8` when more than three trailing zeros would be printed.
fn float_string(v: i128, precision: u64) -> String {
    let neg = v < 0;
    let digits = v.unsigned_abs().to_string();
    let trimmed = digits.trim_end_matches('0');
    let (sig, exp) = if trimmed.is_empty() {
        ("0", 0)
    } else {
        (trimmed, digits.len() - trimmed.len())
    };
    let sign = if neg { "-" } else { "" };
    if exp <= 3 && (sig.len() + exp) as u64 <= precision {
        return format!("{sign}{digits}");
    }
    let (first, rest) = sig.split_at(1);
    let rest = if rest.is_empty() { "0" } else { rest };
    let e = exp + sig.len() - 1;
    format!("{sign}{first}.{rest}E+{e}")
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add | BinOp::PtrAdd => "+",
        BinOp::Sub | BinOp::PtrSub | BinOp::PtrDiff => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Lt => "<",
        BinOp::Gt => ">",
        BinOp::Le => "<=",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::LogAnd => "&&",
        BinOp::LogOr => "||",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_rounding() {
        assert_eq!(value_bits(128), 8);
        assert_eq!(value_bits(255), 8);
        assert_eq!(value_bits(-129), 9);
        assert_eq!(value_bits(-128), 8);
        assert_eq!(truncate(300, 8, true), 44);
        assert_eq!(truncate(-129, 8, true), 127);
        assert_eq!(truncate(65536, 16, false), 0);
        assert_eq!(round_to_precision(16777217, 24), Some(16777216));
        assert_eq!(round_to_precision(2147483647, 24), Some(2147483648));
        assert_eq!(round_to_precision(123456789, 24), Some(123456792));
        assert_eq!(float_string(100000000, 24), "1.0E+8");
        assert_eq!(float_string(30000000, 24), "3.0E+7");
        assert_eq!(float_string(16777216, 24), "16777216");
        assert_eq!(
            float_string(18446744073709551616, 24),
            "18446744073709551616"
        );
        assert_eq!(float_string(-16777216, 24), "-16777216");
        assert_eq!(float_string(150000000, 24), "1.5E+8");
    }
}
