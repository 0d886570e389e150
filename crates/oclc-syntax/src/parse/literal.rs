//! Decoding of literal spellings: pp-numbers into integer or floating values with their
//! suffixes, character constants and string literals (escape sequences), with clang's
//! diagnostics for malformed ones.

/// A problem found while decoding a literal: clang's message and its byte offset in the
/// spelling (clang points at the offending character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitDiag {
    pub offset: usize,
    pub message: String,
    /// Warnings carry their `-W` group; errors have `None`.
    pub warning: Option<&'static str>,
}

impl LitDiag {
    fn error(offset: usize, message: impl Into<String>) -> LitDiag {
        LitDiag {
            offset,
            message: message.into(),
            warning: None,
        }
    }

    fn warning(offset: usize, message: impl Into<String>, group: &'static str) -> LitDiag {
        LitDiag {
            offset,
            message: message.into(),
            warning: Some(group),
        }
    }
}

/// A decoded pp-number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int {
        value: u64,
        radix: u32,
        unsigned: bool,
        long: u8,
    },
    Float {
        value: f64,
        suffix: crate::ast::FloatSuffix,
        hex: bool,
    },
}

/// Decodes a pp-number as clang's `NumericLiteralParser` does. On error the returned
/// diagnostic is the one clang gives (the literal is then unusable).
/// A GNU imaginary constant's spelling without its `i`/`j` (`2.0if` → `2.0f`): the letter
/// must appear once in the literal's trailing run of letters. `None` for any other spelling.
pub fn strip_imaginary(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let run = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let start = b.len() - run;
    let tail = &b[start..];
    let is_im = |c: &u8| matches!(c, b'i' | b'I' | b'j' | b'J');
    if tail.iter().filter(|c| is_im(c)).count() != 1 || start == 0 {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[..start]);
    out.extend(tail.iter().filter(|c| !is_im(c)).map(|&c| char::from(c)));
    Some(out)
}

/// Whether a number's spelling is a GNU imaginary constant (see [`strip_imaginary`]).
pub fn is_imaginary(s: &str) -> bool {
    // Nearly every literal has no `i`/`j`: no decoding for those.
    s.bytes().any(|c| matches!(c, b'i' | b'I' | b'j' | b'J'))
        && decode_number(s).is_err()
        && strip_imaginary(s).is_some_and(|r| decode_number(&r).is_ok())
}

pub fn decode_number(s: &str) -> Result<Number, LitDiag> {
    let b = s.as_bytes();
    let (radix, start) = if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (16, 2)
    } else if b.len() >= 2 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        (2, 2)
    } else if b.first() == Some(&b'0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let is_digit = |c: u8, r: u32| (c as char).is_digit(r);
    // Scan the significand.
    let mut i = start;
    let scan_radix = if radix == 8 || radix == 2 { 10 } else { radix };
    while i < b.len() && (is_digit(b[i], scan_radix) || b[i] == b'\'') {
        i += 1;
    }
    let mut is_float = false;
    if i < b.len() && b[i] == b'.' && radix != 2 {
        is_float = true;
        i += 1;
        while i < b.len() && is_digit(b[i], scan_radix) {
            i += 1;
        }
    }
    let digits_end = i;
    let exp_char = |c: u8| {
        if radix == 16 {
            c == b'p' || c == b'P'
        } else {
            c == b'e' || c == b'E'
        }
    };
    let mut has_exp = false;
    if i < b.len() && exp_char(b[i]) && radix != 2 {
        let exp_start = i;
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let d0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == d0 {
            return Err(LitDiag::error(exp_start, "exponent has no digits"));
        }
        has_exp = true;
        is_float = true;
    }
    if radix == 16 && is_float && !has_exp {
        return Err(LitDiag::error(
            digits_end,
            "hexadecimal floating constant requires an exponent",
        ));
    }
    let suffix = &s[i..];
    if is_float {
        return decode_float(s, &s[..i], suffix, i, radix == 16);
    }
    // Integer: check digits against the radix.
    let digits = &s[start..digits_end];
    if radix == 16 && digits.is_empty() {
        return Err(LitDiag::error(
            1,
            format!("invalid suffix '{}' on integer constant", &s[1..]),
        ));
    }
    if (radix == 8 || radix == 2)
        && let Some(p) = digits
            .bytes()
            .position(|c| c != b'\'' && !is_digit(c, radix))
    {
        let kind = if radix == 8 { "octal" } else { "binary" };
        return Err(LitDiag::error(
            start + p,
            format!(
                "invalid digit '{}' in {kind} constant",
                digits.as_bytes()[p] as char
            ),
        ));
    }
    let (unsigned, long) = match int_suffix(suffix) {
        Some(x) => x,
        None => {
            // A letter that could be a digit of a larger radix is reported as a digit.
            let c = suffix.as_bytes().first().copied().unwrap_or(b' ');
            if radix == 10 && c.is_ascii_hexdigit() && !matches!(c, b'e' | b'E') {
                return Err(LitDiag::error(
                    i,
                    format!("invalid digit '{}' in decimal constant", c as char),
                ));
            }
            if radix == 8 && c.is_ascii_hexdigit() && !matches!(c, b'e' | b'E') {
                return Err(LitDiag::error(
                    i,
                    format!("invalid digit '{}' in octal constant", c as char),
                ));
            }
            return Err(LitDiag::error(
                i,
                format!("invalid suffix '{suffix}' on integer constant"),
            ));
        }
    };
    let mut value: u64 = 0;
    let mut overflow = false;
    for c in digits.bytes().filter(|&c| c != b'\'') {
        let d = (c as char).to_digit(radix).unwrap_or(0) as u64;
        match value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if overflow {
        return Err(LitDiag::error(
            0,
            "integer literal is too large to be represented in any integer type",
        ));
    }
    Ok(Number::Int {
        value,
        radix,
        unsigned,
        long,
    })
}

/// `u`, `l`, `ll` in any order and case (`lL` is not a suffix): (unsigned, number of `l`).
fn int_suffix(s: &str) -> Option<(bool, u8)> {
    let mut unsigned = false;
    let mut long = 0u8;
    let mut rest = s;
    while !rest.is_empty() {
        if (rest.starts_with('u') || rest.starts_with('U')) && !unsigned {
            unsigned = true;
            rest = &rest[1..];
        } else if (rest.starts_with("ll") || rest.starts_with("LL")) && long == 0 {
            long = 2;
            rest = &rest[2..];
        } else if (rest.starts_with('l') || rest.starts_with('L')) && long == 0 {
            long = 1;
            rest = &rest[1..];
        } else {
            return None;
        }
    }
    Some((unsigned, long))
}

fn decode_float(
    whole: &str,
    body: &str,
    suffix: &str,
    suffix_at: usize,
    hex: bool,
) -> Result<Number, LitDiag> {
    use crate::ast::FloatSuffix;
    let sfx = match suffix {
        "" => FloatSuffix::None,
        "f" | "F" => FloatSuffix::F,
        "h" | "H" => FloatSuffix::H,
        // `q`/`Q` (`__float128`) is accepted by clang without a diagnostic.
        "l" | "L" | "q" | "Q" => FloatSuffix::L,
        _ => {
            return Err(LitDiag::error(
                suffix_at,
                format!("invalid suffix '{suffix}' on floating constant"),
            ));
        }
    };
    let clean: String = body.chars().filter(|&c| c != '\'').collect();
    let value = if hex {
        hex_float(&clean[2..])
    } else if sfx == FloatSuffix::F {
        clean.parse::<f32>().map(f64::from).unwrap_or(f64::INFINITY)
    } else {
        clean.parse::<f64>().unwrap_or(f64::INFINITY)
    };
    let _ = whole;
    Ok(Number::Float {
        value,
        suffix: sfx,
        hex,
    })
}

/// Value of a hex float body without `0x`: `1.8p3`.
fn hex_float(s: &str) -> f64 {
    let (mant, exp) = match s.find(['p', 'P']) {
        Some(p) => (&s[..p], s[p + 1..].parse::<i64>().unwrap_or(0)),
        None => (s, 0),
    };
    let mut m: u64 = 0;
    let mut e: i64 = exp;
    let mut seen_dot = false;
    let mut sticky = false;
    for c in mant.chars() {
        if c == '.' {
            seen_dot = true;
            continue;
        }
        let d = c.to_digit(16).unwrap_or(0) as u64;
        if m >> 60 == 0 {
            m = m * 16 + d;
            if seen_dot {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !seen_dot {
                e += 4;
            }
        }
    }
    if sticky {
        m |= 1;
    }
    let e = e.clamp(-2000, 2000) as i32;
    (m as f64) * 2f64.powi(e.clamp(-1022, 1023)) * 2f64.powi(e - e.clamp(-1022, 1023))
}

/// Decodes one escape sequence starting after the backslash at `b[i]`; returns the value
/// and the index after it. `max` is the largest value the character type holds.
fn escape(b: &[u8], mut i: usize, max: u64, diags: &mut Vec<LitDiag>) -> (u64, usize) {
    let esc_at = i.saturating_sub(1);
    let Some(&c) = b.get(i) else {
        return (u64::from(b'\\'), i);
    };
    i += 1;
    let v = match c {
        b'n' => 10,
        b't' => 9,
        b'r' => 13,
        b'a' => 7,
        b'b' => 8,
        b'f' => 12,
        b'v' => 11,
        b'e' | b'E' => 27,
        b'\\' | b'\'' | b'"' | b'?' => u64::from(c),
        b'0'..=b'7' => {
            let mut v = u64::from(c - b'0');
            let mut n = 1;
            while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                v = v * 8 + u64::from(b[i] - b'0');
                i += 1;
                n += 1;
            }
            if v > max {
                diags.push(LitDiag::error(esc_at, "octal escape sequence out of range"));
                v &= max;
            }
            v
        }
        b'x' => {
            let d0 = i;
            let mut v: u64 = 0;
            let mut overflow = false;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                v = v
                    .saturating_mul(16)
                    .saturating_add(u64::from((b[i] as char).to_digit(16).unwrap_or(0)));
                overflow |= v > max;
                i += 1;
            }
            if i == d0 {
                diags.push(LitDiag::error(
                    esc_at,
                    "\\x used with no following hex digits",
                ));
            } else if overflow {
                diags.push(LitDiag::error(esc_at, "hex escape sequence out of range"));
            }
            v & max
        }
        _ => {
            // Keep `i` on a character boundary after a non-ASCII character.
            while i < b.len() && (0x80..0xc0).contains(&b[i]) {
                i += 1;
            }
            let shown = if c.is_ascii_graphic() {
                format!("'\\{}'", c as char)
            } else {
                format!("'\\x{c:x}'")
            };
            diags.push(LitDiag::warning(
                esc_at,
                format!("unknown escape sequence {shown}"),
                "unknown-escape-sequence",
            ));
            u64::from(c)
        }
    };
    (v, i)
}

/// Splits a character or string literal spelling into its prefix (`L`, `u`, `U`, `u8`) and
/// the quoted body without the quotes; `None` if it is not quoted.
pub fn split_prefix(s: &str, quote: char) -> Option<(&str, &str, usize)> {
    let q = s.find(quote)?;
    let prefix = &s[..q];
    let body = s[q + 1..].strip_suffix(quote).unwrap_or(&s[q + 1..]);
    Some((prefix, body, q + 1))
}

/// A decoded character constant: its value (for a plain constant, clang's `int` value with
/// each `char` sign-extended) and the diagnostics.
pub fn decode_char(s: &str) -> (i64, Vec<LitDiag>) {
    let mut diags = Vec::new();
    let Some((prefix, body, base)) = split_prefix(s, '\'') else {
        return (0, diags);
    };
    let wide = !prefix.is_empty() && prefix != "u8";
    let max: u64 = if wide { u64::from(u32::MAX) } else { 0xff };
    let b = body.as_bytes();
    let mut chars: Vec<u64> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let mut local = Vec::new();
            let (v, next) = escape(b, i + 1, max, &mut local);
            diags.extend(local.into_iter().map(|d| LitDiag {
                offset: d.offset + base,
                ..d
            }));
            chars.push(v);
            i = next;
        } else if b[i] < 0x80 || !wide {
            // A multibyte UTF-8 character in a narrow constant counts byte by byte.
            if b[i] >= 0x80 {
                let ch = body[i..].chars().next().map_or(1, char::len_utf8);
                for &byte in &b[i..i + ch] {
                    chars.push(u64::from(byte));
                }
                i += ch;
            } else {
                chars.push(u64::from(b[i]));
                i += 1;
            }
        } else {
            let ch = body[i..].chars().next().unwrap_or('\0');
            chars.push(u64::from(u32::from(ch)));
            i += ch.len_utf8();
        }
    }
    if chars.is_empty() {
        diags.push(LitDiag::error(0, "empty character constant"));
        return (0, diags);
    }
    if wide {
        return (chars.last().copied().unwrap_or(0) as i64, diags);
    }
    if chars.len() == 1 {
        return (i64::from(chars[0] as u8 as i8), diags);
    }
    if chars.len() > 4 {
        diags.push(LitDiag::warning(
            0,
            "character constant too long for its type",
            "",
        ));
    } else {
        diags.push(LitDiag::warning(
            0,
            "multi-character character constant",
            "multichar",
        ));
    }
    let mut v: u32 = 0;
    for c in chars {
        v = (v << 8) | (c as u32 & 0xff);
    }
    (i64::from(v as i32), diags)
}

/// Appends the bytes of one string literal spelling (escapes processed) to `out`; returns
/// the prefix and the diagnostics.
pub fn decode_string(s: &str, out: &mut Vec<u8>) -> (String, Vec<LitDiag>) {
    let mut diags = Vec::new();
    let Some((prefix, body, base)) = split_prefix(s, '"') else {
        return (String::new(), diags);
    };
    let wide = !prefix.is_empty() && prefix != "u8";
    let max: u64 = if wide { u64::from(u32::MAX) } else { 0xff };
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let mut local = Vec::new();
            let (v, next) = escape(b, i + 1, max, &mut local);
            diags.extend(local.into_iter().map(|d| LitDiag {
                offset: d.offset + base,
                ..d
            }));
            if wide && v > 0xff {
                out.extend_from_slice(&(v as u32).to_le_bytes());
            } else {
                out.push(v as u8);
            }
            i = next;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    (prefix.to_string(), diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::FloatSuffix;

    fn int(s: &str) -> (u64, u32, bool, u8) {
        match decode_number(s) {
            Ok(Number::Int {
                value,
                radix,
                unsigned,
                long,
            }) => (value, radix, unsigned, long),
            other => panic!("{s}: {other:?}"),
        }
    }

    fn float(s: &str) -> (f64, FloatSuffix, bool) {
        match decode_number(s) {
            Ok(Number::Float { value, suffix, hex }) => (value, suffix, hex),
            other => panic!("{s}: {other:?}"),
        }
    }

    fn err(s: &str) -> (usize, String) {
        match decode_number(s) {
            Err(d) => (d.offset, d.message),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn integers() {
        assert_eq!(int("0"), (0, 8, false, 0));
        assert_eq!(int("42"), (42, 10, false, 0));
        assert_eq!(int("0x1Fu"), (31, 16, true, 0));
        assert_eq!(int("017"), (15, 8, false, 0));
        assert_eq!(int("10UL"), (10, 10, true, 1));
        assert_eq!(int("10llu"), (10, 10, true, 2));
        assert_eq!(int("0b101"), (5, 2, false, 0));
        assert_eq!(int("18446744073709551615"), (u64::MAX, 10, false, 0));
    }

    #[test]
    fn integer_errors() {
        assert_eq!(err("08"), (1, "invalid digit '8' in octal constant".into()));
        assert_eq!(
            err("12abc"),
            (2, "invalid digit 'a' in decimal constant".into())
        );
        assert_eq!(
            err("12xyz"),
            (2, "invalid suffix 'xyz' on integer constant".into())
        );
        assert_eq!(
            err("1lL"),
            (1, "invalid suffix 'lL' on integer constant".into())
        );
        assert_eq!(
            err("0x"),
            (1, "invalid suffix 'x' on integer constant".into())
        );
        assert_eq!(
            err("18446744073709551616").1,
            "integer literal is too large to be represented in any integer type"
        );
    }

    #[test]
    fn floats() {
        assert_eq!(float("1.5"), (1.5, FloatSuffix::None, false));
        assert_eq!(float("1.5f"), (1.5, FloatSuffix::F, false));
        assert_eq!(float(".5"), (0.5, FloatSuffix::None, false));
        assert_eq!(float("1."), (1.0, FloatSuffix::None, false));
        assert_eq!(float("1e3"), (1000.0, FloatSuffix::None, false));
        assert_eq!(float("2.5E-1h"), (0.25, FloatSuffix::H, false));
        assert_eq!(float("0x1.8p1"), (3.0, FloatSuffix::None, true));
        assert_eq!(float("0x1p-2f"), (0.25, FloatSuffix::F, true));
        assert_eq!(float("0.1f").0, f64::from(0.1f32));
        assert_eq!(
            err("1.0x"),
            (3, "invalid suffix 'x' on floating constant".into())
        );
        assert_eq!(err("1e"), (1, "exponent has no digits".into()));
        assert_eq!(
            err("0x1.8"),
            (
                5,
                "hexadecimal floating constant requires an exponent".into()
            )
        );
    }

    #[test]
    fn chars() {
        assert_eq!(decode_char("'a'").0, 97);
        assert_eq!(decode_char("'\\n'").0, 10);
        assert_eq!(decode_char("'\\0'").0, 0);
        assert_eq!(decode_char("'\\377'").0, -1);
        assert_eq!(decode_char("'\\x41'").0, 65);
        let (v, d) = decode_char("'ab'");
        assert_eq!(v, 0x6162);
        assert_eq!(d[0].message, "multi-character character constant");
        let (_, d) = decode_char("'\\q'");
        assert_eq!(d[0].message, "unknown escape sequence '\\q'");
        assert_eq!(d[0].offset, 1);
        let (_, d) = decode_char("'\\é'");
        assert_eq!(d.len(), 1);
        let mut out = Vec::new();
        let _ = decode_string("\"\\éa\\\"", &mut out);
        let (_, d) = decode_char("''");
        assert_eq!(d[0].message, "empty character constant");
        let (_, d) = decode_char("'\\x'");
        assert_eq!(d[0].message, "\\x used with no following hex digits");
        assert_eq!(decode_char("L'\\x1234'").0, 0x1234);
    }

    #[test]
    fn strings() {
        let mut out = Vec::new();
        let (p, d) = decode_string("\"a\\tb\\\"\\101\"", &mut out);
        assert_eq!(out, b"a\tb\"A");
        assert!(p.is_empty() && d.is_empty());
        let mut out = Vec::new();
        let (_, d) = decode_string("\"\\x100\"", &mut out);
        assert_eq!(d[0].message, "hex escape sequence out of range");
        let (_, d) = decode_char("'\\xffffffffffffffffffffffff'");
        assert_eq!(d[0].message, "hex escape sequence out of range");
        assert_eq!(d[0].offset, 1);
    }
}
