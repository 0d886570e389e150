//! clang's printf format-string checks for OpenCL's `printf` (-Wformat and its kin), from
//! clang's `PrintfFormatString.cpp`, `FormatString.cpp` and `CheckPrintfHandler`:
//!
//! - the string is parsed as clang parses it: flags, field width and precision (`*` takes an
//!   `int` argument), OpenCL's vector specifier `%vN`, length modifiers (`hl` only with a
//!   vector), the conversion (`%n` is reserved in OpenCL: invalid);
//! - "more '%' conversions than data arguments", "data argument not used by format string",
//!   "invalid conversion specifier", "incomplete format specifier";
//! - flags and precision that mean nothing with their conversion, flags another flag
//!   overrides, length modifiers that mean nothing with their conversion;
//! - each argument's type against the conversion's ("format specifies type 'int' but the
//!   argument has type 'size_t'"), integers matching whatever their sign, vectors exactly;
//! - a format that is a parameter, with no other argument: -Wformat-security.
//!
//! Left out (no warning where clang might give one): positional arguments (`%1$d`), formats
//! not written as a literal in the call, string-located warnings in a literal from a macro.

use oclc_syntax::ast;
use oclc_syntax::{Diagnostic, Note, Span};

use super::Checker;
use crate::hir::{CastKind, Expr, ExprKind, Storage};
use crate::types::{QualType, Scalar, TypeKind};

/// A length modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Length {
    None,
    Char,
    Short,
    ShortLong,
    Long,
    LongLong,
    Quad,
    IntMax,
    SizeT,
    PtrDiff,
    LongDouble,
}

impl Length {
    fn text(self) -> &'static str {
        match self {
            Length::None => "",
            Length::Char => "hh",
            Length::Short => "h",
            Length::ShortLong => "hl",
            Length::Long => "l",
            Length::LongLong => "ll",
            Length::Quad => "q",
            Length::IntMax => "j",
            Length::SizeT => "z",
            Length::PtrDiff => "t",
            Length::LongDouble => "L",
        }
    }
}

/// A field width or precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Amount {
    None,
    Const,
    /// `*`, at this byte (where clang reports it).
    Arg(usize),
}

/// One conversion specification, positions as byte offsets in the format.
#[derive(Clone, Debug)]
struct Spec {
    /// Each flag and where it is (the last of repeated ones).
    minus: Option<usize>,
    plus: Option<usize>,
    space: Option<usize>,
    hash: Option<usize>,
    zero: Option<usize>,
    width: Amount,
    precision: Amount,
    /// The `.` of a precision.
    dot: usize,
    vector: Option<u32>,
    length: Length,
    length_at: usize,
    conv: u8,
    conv_at: usize,
}

/// What the parser found next in the format.
enum Item {
    Spec(Spec),
    /// `%%` or the like: no argument.
    Percent,
    /// An invalid conversion character at this byte.
    Invalid(usize),
    /// The format ends inside a specification reported at this byte.
    Incomplete(usize),
    /// Something oclc does not check (positional arguments): stop, silently.
    Unsupported,
}

/// Parses the specification starting at the `%` at `at`; returns it and where parsing goes on.
fn parse_spec(f: &[u8], at: usize) -> (Item, usize) {
    let mut s = Spec {
        minus: None,
        plus: None,
        space: None,
        hash: None,
        zero: None,
        width: Amount::None,
        precision: Amount::None,
        dot: at,
        vector: None,
        length: Length::None,
        length_at: at,
        conv: 0,
        conv_at: at,
    };
    let mut i = at + 1;
    let incomplete = |i: usize| i >= f.len();
    // Positional arguments (`%1$d`, `%*1$d`) are not checked.
    let digits_end = |mut j: usize| {
        while j < f.len() && f[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let d = digits_end(i);
    if d > i && d < f.len() && f[d] == b'$' {
        return (Item::Unsupported, f.len());
    }
    while i < f.len() {
        match f[i] {
            b'-' => s.minus = Some(i),
            b'+' => s.plus = Some(i),
            b' ' => s.space = Some(i),
            b'#' => s.hash = Some(i),
            b'0' => s.zero = Some(i),
            b'\'' => {}
            _ => break,
        }
        i += 1;
    }
    if incomplete(i) {
        return (Item::Incomplete(at), i);
    }
    if f[i] == b'*' {
        i += 1;
        if i < f.len() && f[i].is_ascii_digit() {
            return (Item::Unsupported, f.len());
        }
        // clang reports a width's `*` argument just after the `*`.
        s.width = Amount::Arg(i);
    } else {
        let d = digits_end(i);
        if d > i {
            s.width = Amount::Const;
            i = d;
        }
    }
    if incomplete(i) {
        return (Item::Incomplete(at), i);
    }
    if f[i] == b'.' {
        s.dot = i;
        i += 1;
        if incomplete(i) {
            return (Item::Incomplete(at), i);
        }
        if f[i] == b'*' {
            s.precision = Amount::Arg(i);
            i += 1;
        } else {
            s.precision = Amount::Const;
            i = digits_end(i);
        }
    }
    if incomplete(i) {
        return (Item::Incomplete(at), i);
    }
    if f[i] == b'v' {
        let d = digits_end(i + 1);
        let n = std::str::from_utf8(&f[i + 1..d])
            .ok()
            .and_then(|t| t.parse::<u32>().ok());
        match n {
            Some(n) if d > i + 1 => s.vector = Some(n),
            _ => return (Item::Incomplete(i), f.len()),
        }
        i = d;
    }
    if incomplete(i) {
        return (Item::Incomplete(at), i);
    }
    s.length_at = i;
    let two = |a: u8, b: u8| f[i] == a && i + 1 < f.len() && f[i + 1] == b;
    let (length, len) = if two(b'h', b'h') {
        (Length::Char, 2)
    } else if two(b'h', b'l') {
        (Length::ShortLong, 2)
    } else if two(b'l', b'l') {
        (Length::LongLong, 2)
    } else {
        match f[i] {
            b'h' => (Length::Short, 1),
            b'l' => (Length::Long, 1),
            b'q' => (Length::Quad, 1),
            b'j' => (Length::IntMax, 1),
            b'z' => (Length::SizeT, 1),
            b't' => (Length::PtrDiff, 1),
            b'L' => (Length::LongDouble, 1),
            _ => (Length::None, 0),
        }
    };
    s.length = length;
    i += len;
    if incomplete(i) {
        return (Item::Incomplete(at), i);
    }
    s.conv = f[i];
    s.conv_at = i;
    let item = match f[i] {
        b'%' => Item::Percent,
        b'd' | b'i' | b'o' | b'u' | b'x' | b'X' | b'f' | b'F' | b'e' | b'E' | b'g' | b'G'
        | b'a' | b'A' | b'c' | b's' | b'p' => Item::Spec(s),
        _ => Item::Invalid(i),
    };
    (item, i + 1)
}

/// What a conversion is.
fn is_int_conv(c: u8) -> bool {
    matches!(c, b'd' | b'i' | b'o' | b'u' | b'x' | b'X')
}

fn is_double_conv(c: u8) -> bool {
    matches!(c, b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A')
}

impl Spec {
    /// clang's `hasValidLengthModifier` for OpenCL on a SPIR target.
    fn length_ok(&self) -> bool {
        let c = self.conv;
        let vector = self.vector.is_some();
        match self.length {
            Length::None => true,
            Length::Short if is_double_conv(c) => vector,
            Length::Short
            | Length::Char
            | Length::LongLong
            | Length::Quad
            | Length::IntMax
            | Length::SizeT
            | Length::PtrDiff => is_int_conv(c),
            Length::ShortLong => vector,
            Length::Long if is_double_conv(c) => vector,
            Length::Long => is_int_conv(c) || matches!(c, b'c' | b's'),
            Length::LongDouble => is_double_conv(c) || is_int_conv(c),
        }
    }
}

/// The type a conversion expects.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    /// An integer of this kind (either sign matches); its name as clang prints it.
    Int(IntKind, &'static str),
    /// `double` (a `float` argument is promoted to it).
    Double,
    LongDouble,
    /// A pointer to characters (`%s`).
    CharPtr,
    /// `wchar_t *` (`%ls`).
    WideCharPtr,
    /// Any pointer (`%p`).
    VoidPtr,
    /// A vector of exactly this element and size.
    Vector(Scalar, u32),
    /// Not checked.
    Any,
}

/// Integer ranks as C's types (not sizes): `int` and `long` differ even where equally wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IntKind {
    /// `char`/`short`: any integer promoted to `int` matches (clang's `MatchPromotion`).
    Small,
    Int,
    Long,
    LongLong,
}

fn int_kind(s: Scalar) -> Option<IntKind> {
    Some(match s {
        Scalar::Bool
        | Scalar::Char
        | Scalar::SChar
        | Scalar::UChar
        | Scalar::Short
        | Scalar::UShort
        | Scalar::Int
        | Scalar::UInt => IntKind::Int,
        Scalar::Long | Scalar::ULong => IntKind::Long,
        Scalar::LongLong | Scalar::ULongLong => IntKind::LongLong,
        _ => return None,
    })
}

impl Spec {
    /// The argument type the conversion takes (clang's `PrintfSpecifier::getArgType`).
    fn want(&self) -> Want {
        if !self.length_ok() {
            return Want::Any;
        }
        let c = self.conv;
        let signed = matches!(c, b'd' | b'i');
        if let Some(n) = self.vector {
            let elem = if is_int_conv(c) || c == b'c' {
                let (s, u) = match self.length {
                    Length::Char => (Scalar::Char, Scalar::UChar),
                    Length::Short => (Scalar::Short, Scalar::UShort),
                    Length::Long => (Scalar::Long, Scalar::ULong),
                    _ => (Scalar::Int, Scalar::UInt),
                };
                if signed || c == b'c' { s } else { u }
            } else if is_double_conv(c) {
                match self.length {
                    Length::Short => Scalar::Half,
                    Length::ShortLong => Scalar::Float,
                    _ => Scalar::Double,
                }
            } else {
                return Want::Any;
            };
            return Want::Vector(elem, n);
        }
        match c {
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                let (kind, s, u) = match self.length {
                    Length::None => (IntKind::Int, "'int'", "'unsigned int'"),
                    Length::Char => (IntKind::Small, "'char'", "'unsigned char'"),
                    Length::Short => (IntKind::Small, "'short'", "'unsigned short'"),
                    Length::Long => (IntKind::Long, "'long'", "'unsigned long'"),
                    Length::LongLong | Length::Quad | Length::LongDouble => {
                        (IntKind::LongLong, "'long long'", "'unsigned long long'")
                    }
                    Length::IntMax => (
                        IntKind::LongLong,
                        "'intmax_t' (aka 'long long')",
                        "'uintmax_t' (aka 'unsigned long long')",
                    ),
                    Length::SizeT => (
                        IntKind::Long,
                        "'ssize_t' (aka 'long')",
                        "'size_t' (aka 'unsigned long')",
                    ),
                    Length::PtrDiff => (
                        IntKind::Long,
                        "'ptrdiff_t' (aka 'long')",
                        "'ptrdiff_t' (aka 'long')",
                    ),
                    Length::ShortLong => return Want::Any,
                };
                Want::Int(kind, if signed { s } else { u })
            }
            b'c' if self.length == Length::None => Want::Int(IntKind::Int, "'int'"),
            b's' if self.length == Length::Long => Want::WideCharPtr,
            b's' => Want::CharPtr,
            b'p' => Want::VoidPtr,
            _ if is_double_conv(c) && self.length == Length::LongDouble => Want::LongDouble,
            _ if is_double_conv(c) => Want::Double,
            _ => Want::Any,
        }
    }
}

/// Maps each byte of a literal's value to its place in the source (`None` where the literal
/// comes from a macro or is not plain).
fn byte_spans(lit: &ast::StrLit) -> Option<Vec<Span>> {
    let mut out = Vec::with_capacity(lit.value.len());
    for &(sym, span) in &lit.pieces {
        if span.expn != oclc_syntax::source::ExpnId::NONE {
            return None;
        }
        let text = sym.as_str().as_bytes();
        let open = text.iter().position(|&b| b == b'"')?;
        if open != 0 {
            return None;
        }
        let mut i = 1;
        let end = text.len().checked_sub(1)?;
        while i < end {
            let at = Span {
                lo: span.lo + i as u32,
                hi: span.lo + i as u32 + 1,
                ..span
            };
            let len = if text[i] == b'\\' {
                match text.get(i + 1)? {
                    b'x' => {
                        let mut j = i + 2;
                        while j < end && text[j].is_ascii_hexdigit() {
                            j += 1;
                        }
                        j - i
                    }
                    b'0'..=b'7' => {
                        let mut j = i + 1;
                        while j < end && j < i + 4 && (b'0'..=b'7').contains(&text[j]) {
                            j += 1;
                        }
                        j - i
                    }
                    b'u' | b'U' => return None,
                    _ => 2,
                }
            } else {
                1
            };
            out.push(at);
            i += len;
        }
    }
    (out.len() == lit.value.len()).then_some(out)
}

/// Where the format's bytes are: in the source, or (from a macro) nowhere precise.
struct Places(Option<Vec<Span>>);

impl Places {
    fn at(&self, byte: usize) -> Option<Span> {
        self.0.as_ref()?.get(byte).copied()
    }

    /// The bytes `lo..hi` (one literal piece) as one source range.
    fn range(&self, lo: usize, hi: usize) -> Option<Span> {
        let (a, b) = (self.at(lo)?, self.at(hi.checked_sub(1)?)?);
        (a.file == b.file && a.lo <= b.lo).then_some(Span { hi: b.hi, ..a })
    }
}

impl Checker<'_> {
    /// clang's printf checks for a call of the builtin `printf` with the arguments `args`
    /// (`ast` as written, `checked` their rvalues).
    pub(crate) fn check_printf_format(&mut self, ast: &[ast::Expr], checked: &[Expr]) {
        let (Some(fmt_ast), Some(fmt)) = (ast.first(), checked.first()) else {
            return;
        };
        let mut e = fmt_ast;
        while let ast::ExprKind::Paren(inner) = &e.kind {
            e = inner;
        }
        let ast::ExprKind::StrLit(lit) = &e.kind else {
            self.nonliteral_format(fmt, checked.len() - 1);
            return;
        };
        let places = Places(byte_spans(lit));
        // The arguments as values (`__builtin_printf` takes them as written).
        let data: Vec<Expr> = checked[1..].iter().map(|e| self.as_value(e)).collect();
        let data = data.as_slice();
        let mut fc = FormatCheck {
            places,
            data,
            next: 0,
            covered: vec![false; data.len()],
            spec: None,
        };
        let f = lit.value.as_slice();
        let mut i = 0;
        let mut finished = true;
        while i < f.len() {
            if f[i] != b'%' {
                i += 1;
                continue;
            }
            let (item, next) = parse_spec(f, i);
            fc.spec = fc.places.range(i, next.min(f.len()));
            i = next;
            let go_on = match item {
                Item::Percent => true,
                Item::Unsupported => {
                    return;
                }
                Item::Incomplete(at) => {
                    fc.warn_at_byte(self, at, "incomplete format specifier".into(), "format");
                    false
                }
                Item::Invalid(at) => self.invalid_conversion(&mut fc, f, at),
                Item::Spec(s) => self.check_spec(&mut fc, &s),
            };
            if !go_on {
                finished = false;
                break;
            }
        }
        if finished && let Some(unused) = fc.covered.iter().position(|c| !c) {
            let arg = fc.data[unused].span;
            let d = Diagnostic::warning(arg.start(), "data argument not used by format string")
                .with_group("format-extra-args")
                .with_range(e.span)
                .with_range(arg);
            self.emit(d);
        }
    }

    /// `e` with the type it has as a value: an array's decays, an lvalue's loses its
    /// qualifiers.
    fn as_value(&mut self, e: &Expr) -> Expr {
        let mut v = e.clone();
        if let Some((elem, _)) = self.prog.types.array_elem_sugared(e.ty) {
            v.ty = QualType::new(self.prog.types.pointer(elem));
        } else if e.lvalue {
            v.ty = e.ty.unqualified();
        }
        v
    }

    /// -Wformat-security: a format read from a parameter, with nothing to format.
    fn nonliteral_format(&mut self, fmt: &Expr, data_args: usize) {
        if data_args != 0 {
            return;
        }
        let mut e = fmt;
        while let ExprKind::Cast(CastKind::LValueToRValue | CastKind::ArrayToPointer, x) = &e.kind {
            e = x;
        }
        let ExprKind::Var(v) = e.kind else { return };
        if self
            .prog
            .var(v)
            .is_none_or(|var| var.storage != Storage::Param)
        {
            return;
        }
        let at = fmt.span.start();
        let mut d = Diagnostic::warning(
            at,
            "format string is not a string literal (potentially insecure)",
        )
        .with_group("format-security")
        .with_range(fmt.span);
        d.notes.push(
            Note::new(at, "treat the string as an argument to avoid this")
                .with_fixit(at, "\"%s\", "),
        );
        self.emit(d);
    }

    /// An invalid conversion character: it takes the next argument's place without using
    /// it up; with none left, checking stops.
    fn invalid_conversion(&mut self, fc: &mut FormatCheck, f: &[u8], at: usize) -> bool {
        let keep_going = fc.next < fc.data.len();
        if keep_going {
            fc.covered[fc.next] = true;
        }
        let c = f[at];
        let shown = if c.is_ascii_graphic() || c == b' ' {
            (c as char).to_string()
        } else {
            format!("\\x{c:02x}")
        };
        fc.warn_at_byte(
            self,
            at,
            format!("invalid conversion specifier '{shown}'"),
            "format-invalid-specifier",
        );
        keep_going
    }

    /// One valid conversion specification (clang's `HandlePrintfSpecifier`); false stops.
    fn check_spec(&mut self, fc: &mut FormatCheck, s: &Spec) -> bool {
        let conv = s.conv as char;
        for (amount, which) in [(s.width, 0), (s.precision, 1)] {
            let Amount::Arg(at) = amount else { continue };
            let (star, what) = if which == 0 {
                ("*", "width")
            } else {
                (".*", "precision")
            };
            let Some(arg) = fc.take() else {
                fc.warn_at_byte(
                    self,
                    at,
                    format!("'{star}' specified field {what} is missing a matching 'int' argument"),
                    "format",
                );
                return false;
            };
            let ok = self
                .prog
                .types
                .as_scalar(arg.ty)
                .and_then(int_kind)
                .is_some_and(|k| k == IntKind::Int);
            if !ok {
                let ty = self.prog.types.quoted(arg.ty);
                fc.warn_at_byte(
                    self,
                    at,
                    format!("field {what} should have type 'int', but argument has type {ty}"),
                    "format",
                );
            }
        }
        if s.precision != Amount::None && matches!(s.conv, b'c' | b'p') {
            fc.warn_at_byte(
                self,
                s.dot,
                format!("precision used with '{conv}' conversion specifier, resulting in undefined behavior"),
                "format",
            );
        }
        let signed_or_float = matches!(s.conv, b'd' | b'i') || is_double_conv(s.conv);
        let flag_checks = [
            (s.zero, '0', is_int_conv(s.conv) || is_double_conv(s.conv)),
            (s.plus, '+', signed_or_float),
            (s.space, ' ', signed_or_float),
            (
                s.hash,
                '#',
                matches!(s.conv, b'o' | b'x' | b'X') || is_double_conv(s.conv),
            ),
        ];
        for (at, flag, valid) in flag_checks {
            if let Some(at) = at
                && !valid
            {
                fc.warn_at_byte(
                    self,
                    at,
                    format!("flag '{flag}' results in undefined behavior with '{conv}' conversion specifier"),
                    "format",
                );
            }
        }
        if let (Some(at), Some(_)) = (s.space, s.plus) {
            fc.warn_at_byte(
                self,
                at,
                "flag ' ' is ignored when flag '+' is present".into(),
                "format",
            );
        }
        if let (Some(at), Some(_)) = (s.zero, s.minus) {
            fc.warn_at_byte(
                self,
                at,
                "flag '0' is ignored when flag '-' is present".into(),
                "format",
            );
        }
        if !s.length_ok() {
            fc.warn_at_byte(
                self,
                s.length_at,
                format!(
                    "length modifier '{}' results in undefined behavior or no effect with '{conv}' conversion specifier",
                    s.length.text()
                ),
                "format",
            );
        }
        let Some(arg) = fc.take() else {
            fc.warn_at_byte(
                self,
                s.conv_at,
                "more '%' conversions than data arguments".into(),
                "format-insufficient-args",
            );
            return false;
        };
        let want = s.want();
        if let Some(name) = self.mismatch(want, arg.ty) {
            let ty = self.prog.types.quoted(arg.ty);
            let mut d = Diagnostic::warning(
                arg.span.start(),
                format!("format specifies type {name} but the argument has type {ty}"),
            )
            .with_group("format");
            if let Some(r) = fc.spec {
                d = d.with_range(r);
            }
            self.emit(d.with_range(arg.span));
        }
        true
    }

    /// The name of the type `want` when an argument of type `ty` does not match it.
    fn mismatch(&self, want: Want, ty: QualType) -> Option<String> {
        let types = &self.prog.types;
        let c = types.canonical(ty);
        let kind = types.kind(c.id);
        let scalar = match kind {
            TypeKind::Scalar(s) => Some(*s),
            TypeKind::Enum(_) => Some(Scalar::Int),
            _ => None,
        };
        let pointee = match kind {
            TypeKind::Pointer(p) => Some(*p),
            _ => None,
        };
        let ok = match want {
            Want::Any => true,
            Want::Int(k, _) => scalar.and_then(int_kind).is_some_and(|a| match k {
                IntKind::Small => a == IntKind::Int,
                k => a == k,
            }),
            Want::Double => matches!(scalar, Some(Scalar::Float | Scalar::Double | Scalar::Half)),
            Want::LongDouble => false,
            Want::CharPtr => pointee.is_some_and(|p| {
                matches!(
                    types.as_scalar(p),
                    Some(Scalar::Char | Scalar::SChar | Scalar::UChar)
                )
            }),
            Want::WideCharPtr => pointee
                .is_some_and(|p| matches!(types.as_scalar(p), Some(Scalar::Int | Scalar::UInt))),
            Want::VoidPtr => pointee.is_some(),
            Want::Vector(e, n) => {
                matches!(*kind, TypeKind::Vector(a, m) if a == e && u32::from(m) == n)
            }
        };
        if ok {
            return None;
        }
        Some(match want {
            Want::Int(_, name) => name.to_string(),
            Want::Double => "'double'".into(),
            Want::LongDouble => "'long double'".into(),
            Want::CharPtr => "'char *'".into(),
            Want::WideCharPtr => "'wchar_t *' (aka 'int *')".into(),
            Want::VoidPtr => "'void *'".into(),
            Want::Vector(e, n) => format!("'{} __attribute__((ext_vector_type({n})))'", e.name()),
            Want::Any => return None,
        })
    }
}

/// The state of one format's check: its data arguments and which were used.
struct FormatCheck<'e> {
    places: Places,
    data: &'e [Expr],
    /// The next argument a conversion takes.
    next: usize,
    covered: Vec<bool>,
    /// The source range of the specification being checked, where known.
    spec: Option<Span>,
}

impl<'e> FormatCheck<'e> {
    /// The next data argument, marked used.
    fn take(&mut self) -> Option<&'e Expr> {
        let a = self.data.get(self.next)?;
        self.covered[self.next] = true;
        self.next += 1;
        Some(a)
    }

    /// A warning at a byte of the format (none where the byte's place is unknown).
    /// The specification's range is underlined.
    fn warn_at_byte(&self, c: &mut Checker, byte: usize, msg: String, group: &'static str) {
        if let Some(at) = self.places.at(byte) {
            let mut d = Diagnostic::warning(at, msg).with_group(group);
            if let Some(r) = self.spec {
                d = d.with_range(r);
            }
            c.emit(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(f: &str) -> Spec {
        match parse_spec(f.as_bytes(), 0).0 {
            Item::Spec(s) => s,
            _ => panic!("not a specification: {f}"),
        }
    }

    #[test]
    fn parses_flags_width_precision_vector_and_length() {
        let s = spec("%-+ #012.5v4hlf");
        assert_eq!(
            (s.minus, s.plus, s.space, s.hash, s.zero),
            (Some(1), Some(2), Some(3), Some(4), Some(5))
        );
        assert_eq!(
            (s.width, s.precision, s.vector),
            (Amount::Const, Amount::Const, Some(4))
        );
        assert_eq!((s.length, s.conv), (Length::ShortLong, b'f'));
        assert_eq!(spec("%*.*d").width, Amount::Arg(2));
        assert_eq!(spec("%*.*d").precision, Amount::Arg(3));
        assert!(matches!(parse_spec(b"%q\n", 0).0, Item::Invalid(2)));
        assert!(matches!(parse_spec(b"%n", 0).0, Item::Invalid(1)));
        assert!(matches!(parse_spec(b"%-", 0).0, Item::Incomplete(0)));
        assert!(matches!(parse_spec(b"%vd", 0).0, Item::Incomplete(1)));
        assert!(matches!(parse_spec(b"%1$d", 0).0, Item::Unsupported));
    }

    #[test]
    fn opencl_length_rules() {
        assert!(!spec("%lf").length_ok());
        assert!(spec("%v2lf").length_ok());
        assert!(!spec("%hlf").length_ok());
        assert!(spec("%v4hlf").length_ok());
        assert!(!spec("%hc").length_ok());
        assert!(spec("%ls").length_ok());
        assert!(!spec("%lp").length_ok());
        assert_eq!(spec("%v4hlf").want(), Want::Vector(Scalar::Float, 4));
        assert_eq!(spec("%v2hhu").want(), Want::Vector(Scalar::UChar, 2));
        assert_eq!(spec("%v4c").want(), Want::Vector(Scalar::Int, 4));
    }
}
