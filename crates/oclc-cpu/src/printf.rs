//! OpenCL C `printf`: C conversions plus vector forms (`%v4f`, `%v2hlx`), formatted into the
//! work-group's output buffer.

use crate::memory::{Fault, Mem};
use crate::ops::{fget, sext};
use oclc_ir::{Scalar, Type};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// Default size of a launch's printf buffer (CL_DEVICE_PRINTF_BUFFER_SIZE): 1 MiB.
pub const DEFAULT_PRINTF_BUFFER_SIZE: usize = 1 << 20;

/// The environment variable that sets the printf buffer size in bytes.
pub const PRINTF_BUFFER_ENV: &str = "OCLC_PRINTF_BUFFER_SIZE";

/// The printf buffer of one launch, shared by all its work-groups: a count of the bytes
/// written, reserved atomically by each `printf` call, so the output held in memory stays
/// under the limit whatever the number of threads. A call whose output does not fit is
/// dropped (printf returns -1) and so is every later one: the buffer is full.
#[derive(Debug)]
pub struct PrintfBuffer {
    limit: usize,
    used: AtomicUsize,
    cut: AtomicBool,
}

impl PrintfBuffer {
    pub fn new(limit: usize) -> PrintfBuffer {
        PrintfBuffer {
            limit,
            used: AtomicUsize::new(0),
            cut: AtomicBool::new(false),
        }
    }

    /// Reserves `n` bytes of output; false if they do not fit (the buffer is then full).
    pub fn reserve(&self, n: usize) -> bool {
        let limit = self.limit;
        let fits = self
            .used
            .fetch_update(Relaxed, Relaxed, |u| {
                u.checked_add(n).filter(|end| *end <= limit)
            })
            .is_ok();
        if !fits {
            self.used.fetch_max(limit, Relaxed);
            self.cut.store(true, Relaxed);
        }
        fits
    }

    /// Whether some output was dropped because the buffer was full.
    pub fn truncated(&self) -> bool {
        self.cut.load(Relaxed)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }
}

/// The printf buffer size that `OCLC_PRINTF_BUFFER_SIZE` sets (a number of bytes), the
/// default if it is unset, or an error naming the bad value.
pub fn buffer_size_from_env() -> Result<usize, String> {
    match std::env::var(PRINTF_BUFFER_ENV) {
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT_PRINTF_BUFFER_SIZE),
        Err(std::env::VarError::NotUnicode(v)) => Err(format!(
            "{PRINTF_BUFFER_ENV}={v:?} is not a number of bytes"
        )),
        Ok(v) => v.trim().parse::<usize>().map_err(|_| {
            format!("{PRINTF_BUFFER_ENV}='{v}' is not a number of bytes (the default is {DEFAULT_PRINTF_BUFFER_SIZE})")
        }),
    }
}

/// The warning (without a `warning:` prefix) for a launch whose printf output was cut.
pub fn cut_message(kernel: &str, limit: usize) -> String {
    format!(
        "printf output of kernel '{kernel}' was cut at {limit} bytes: the printf buffer is full (set {PRINTF_BUFFER_ENV} to enlarge it)"
    )
}

#[derive(Clone, Copy)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
    vec: u32,
    len_bits: u32,
    conv: u8,
}

/// Formats `fmt` with the argument lanes in `args` (each `(lanes, type)`); returns `None` for
/// a malformed format (printf then returns -1).
pub fn format(
    fmt: &[u8],
    args: &[(Vec<u64>, Type)],
    mem: &mut Mem,
) -> Result<Option<String>, Fault> {
    let mut out = String::new();
    let mut ai = 0;
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            let start = i;
            while i < fmt.len() && fmt[i] != b'%' {
                i += 1;
            }
            out.push_str(&String::from_utf8_lossy(&fmt[start..i]));
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push('%');
            i += 1;
            continue;
        }
        let mut sp = Spec {
            minus: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: 0,
            prec: None,
            vec: 1,
            len_bits: 0,
            conv: 0,
        };
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => sp.minus = true,
                b'+' => sp.plus = true,
                b' ' => sp.space = true,
                b'#' => sp.alt = true,
                b'0' => sp.zero = true,
                _ => break,
            }
            i += 1;
        }
        while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
            sp.width = (sp.width * 10 + (d - b'0') as usize).min(4096);
            i += 1;
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            let mut p = 0usize;
            while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
                p = (p * 10 + (d - b'0') as usize).min(4096);
                i += 1;
            }
            sp.prec = Some(p);
        }
        if fmt.get(i) == Some(&b'v') {
            i += 1;
            let mut n = 0u32;
            while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
                n = (n * 10 + (d - b'0') as u32).min(64);
                i += 1;
            }
            if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                return Ok(None);
            }
            sp.vec = n;
        }
        let rest = &fmt[i.min(fmt.len())..];
        let (bits, skip) = if rest.starts_with(b"hh") {
            (8, 2)
        } else if rest.starts_with(b"hl") {
            (32, 2)
        } else if rest.starts_with(b"h") {
            (16, 1)
        } else if rest.starts_with(b"l") {
            (64, 1)
        } else {
            (0, 0)
        };
        sp.len_bits = bits;
        i += skip;
        let Some(&conv) = fmt.get(i) else {
            return Ok(None);
        };
        i += 1;
        sp.conv = conv;
        let Some((lanes, ty)) = args.get(ai) else {
            return Ok(None);
        };
        ai += 1;
        if sp.vec > 1 && lanes.len() != sp.vec as usize {
            return Ok(None);
        }
        let elem = ty.elem().unwrap_or(Scalar::I64);
        for (k, &x) in lanes.iter().enumerate().take(sp.vec as usize) {
            if k > 0 {
                out.push(',');
            }
            let s = match conv {
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => fmt_int(&sp, x, elem),
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let v = if elem.is_float() {
                        fget(elem, x)
                    } else {
                        x as f64
                    };
                    fmt_float(&sp, v)
                }
                b's' => {
                    let bytes = mem.read_cstr(x, 1 << 20)?;
                    let mut s = String::from_utf8_lossy(&bytes).into_owned();
                    if let Some(p) = sp.prec {
                        s = s.chars().take(p).collect();
                    }
                    pad(&sp, String::new(), s, false)
                }
                b'p' => pad(&sp, String::new(), format!("0x{x:x}"), false),
                _ => return Ok(None),
            };
            out.push_str(&s);
        }
    }
    Ok(Some(out))
}

fn pad(sp: &Spec, sign: String, body: String, numeric: bool) -> String {
    let len = sign.len() + body.len();
    if len >= sp.width {
        return sign + &body;
    }
    let fill = sp.width - len;
    if sp.minus {
        sign + &body + &" ".repeat(fill)
    } else if sp.zero && numeric {
        sign + &"0".repeat(fill) + &body
    } else {
        " ".repeat(fill) + &sign + &body
    }
}

fn fmt_int(sp: &Spec, x: u64, elem: Scalar) -> String {
    let bits = if sp.len_bits == 0 {
        if sp.vec > 1 { elem.bits() } else { 32 }
    } else {
        sp.len_bits
    };
    let bits = bits.min(64);
    let m = crate::ops::mask(bits);
    if sp.conv == b'c' {
        return pad(sp, String::new(), ((x as u8) as char).to_string(), false);
    }
    let (neg, mag) = if matches!(sp.conv, b'd' | b'i') {
        let v = sext(x & m, bits);
        (v < 0, v.unsigned_abs())
    } else {
        (false, x & m)
    };
    let mut digits = match sp.conv {
        b'o' => format!("{mag:o}"),
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        _ => mag.to_string(),
    };
    if let Some(p) = sp.prec {
        if p == 0 && mag == 0 {
            digits.clear();
        }
        if digits.len() < p {
            digits = "0".repeat(p - digits.len()) + &digits;
        }
    }
    let mut prefix = String::new();
    if neg {
        prefix.push('-');
    } else if matches!(sp.conv, b'd' | b'i') && sp.plus {
        prefix.push('+');
    } else if matches!(sp.conv, b'd' | b'i') && sp.space {
        prefix.push(' ');
    }
    if sp.alt && mag != 0 {
        match sp.conv {
            b'x' => prefix.push_str("0x"),
            b'X' => prefix.push_str("0X"),
            b'o' if !digits.starts_with('0') => digits.insert(0, '0'),
            _ => {}
        }
    }
    let zero_ok = sp.prec.is_none();
    let spec = Spec {
        zero: sp.zero && zero_ok,
        ..*sp
    };
    pad(&spec, prefix, digits, true)
}

/// `%e` body for a finite non-negative value: `d.ddde+XX`.
fn exp_form(v: f64, prec: usize, upper: bool) -> String {
    let s = format!("{:.*e}", prec, v);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    let r = format!("{mant}e{sign}{:02}", e.abs());
    if upper { r.to_uppercase() } else { r }
}

fn strip_zeros(s: String) -> String {
    if !s.contains('.') {
        return s;
    }
    let (body, exp) = match s.find(['e', 'E']) {
        Some(p) => (s[..p].to_string(), s[p..].to_string()),
        None => (s.clone(), String::new()),
    };
    let body = body.trim_end_matches('0').trim_end_matches('.').to_string();
    body + &exp
}

fn hex_float(v: f64, prec: Option<usize>, upper: bool) -> String {
    if v == 0.0 {
        let frac = prec
            .filter(|&p| p > 0)
            .map(|p| format!(".{}", "0".repeat(p)))
            .unwrap_or_default();
        return format!("0x0{frac}p+0");
    }
    let bits = v.to_bits();
    let mut exp = ((bits >> 52) & 0x7ff) as i32;
    let mut mant = bits & ((1u64 << 52) - 1);
    let lead = if exp == 0 {
        // Subnormal: normalize.
        let shift = mant.leading_zeros() as i32 - 11;
        mant = (mant << shift) & ((1u64 << 52) - 1);
        exp = 1 - shift;
        1
    } else {
        1
    };
    let e = exp - 1023;
    let mut hex = format!("{mant:013x}");
    let mut lead = lead;
    match prec {
        Some(p) if p < 13 => {
            let drop = (13 - p) * 4;
            let full = (1u64 << 52) | mant;
            let q = full >> drop;
            let r = full & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let q = if r > half || (r == half && q & 1 == 1) {
                q + 1
            } else {
                q
            };
            lead = (q >> (p * 4)) as u32;
            let frac = q & ((1u64 << (p * 4)) - 1);
            hex = if p == 0 {
                String::new()
            } else {
                format!("{frac:0width$x}", width = p)
            };
        }
        Some(p) => hex.push_str(&"0".repeat(p - 13)),
        None => hex = hex.trim_end_matches('0').to_string(),
    }
    let dot = if hex.is_empty() { "" } else { "." };
    let s = format!(
        "0x{lead:x}{dot}{hex}p{}{}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    );
    if upper { s.to_uppercase() } else { s }
}

fn fmt_float(sp: &Spec, v: f64) -> String {
    let upper = sp.conv.is_ascii_uppercase();
    let neg = v.is_sign_negative() && !v.is_nan();
    let a = v.abs();
    let sign = if neg {
        "-"
    } else if sp.plus {
        "+"
    } else if sp.space {
        " "
    } else {
        ""
    }
    .to_string();
    if !a.is_finite() {
        let s = if a.is_nan() { "nan" } else { "inf" };
        let s = if upper {
            s.to_uppercase()
        } else {
            s.to_string()
        };
        return pad(&Spec { zero: false, ..*sp }, sign, s, false);
    }
    let prec = sp.prec.unwrap_or(6);
    let body = match sp.conv {
        b'f' | b'F' => {
            let s = format!("{:.*}", prec, a);
            if sp.alt && prec == 0 { s + "." } else { s }
        }
        b'e' | b'E' => exp_form(a, prec, upper),
        b'g' | b'G' => {
            let p = if prec == 0 { 1 } else { prec };
            let e = if a == 0.0 {
                0
            } else {
                let s = format!("{:.*e}", p - 1, a);
                s.split_once('e')
                    .and_then(|(_, e)| e.parse::<i32>().ok())
                    .unwrap_or(0)
            };
            let s = if e < -4 || e >= p as i32 {
                exp_form(a, p - 1, upper)
            } else {
                format!("{:.*}", (p as i32 - 1 - e).max(0) as usize, a)
            };
            if sp.alt { s } else { strip_zeros(s) }
        }
        _ => hex_float(a, sp.prec, upper),
    };
    pad(sp, sign, body, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Arena;

    fn run(fmt: &str, args: Vec<(Vec<u64>, Type)>) -> Option<String> {
        let (mut l, mut p) = (Arena::default(), Arena::default());
        let mut mem = Mem {
            globals: &[],
            svm: &[],
            local: &mut l,
            private: &mut p,
        };
        format(fmt.as_bytes(), &args, &mut mem).ok().flatten()
    }

    #[test]
    fn c_conversions() {
        let i = |x: i32| (vec![x as u32 as u64], Type::I32);
        let f = |x: f64| (vec![x.to_bits()], Type::F64);
        assert_eq!(
            run(
                "%d|%5d|%-5d|%05d|%+d",
                vec![i(-3), i(42), i(42), i(42), i(7)]
            )
            .as_deref(),
            Some("-3|   42|42   |00042|+7")
        );
        assert_eq!(
            run("%x %X %#x %o %u", vec![i(255), i(255), i(255), i(8), i(-1)]).as_deref(),
            Some("ff FF 0xff 10 4294967295")
        );
        assert_eq!(
            run(
                "%f %.2f %e %g %g",
                vec![f(1.5), f(2.4567), f(12345.678), f(0.0001), f(100000.0)]
            )
            .as_deref(),
            Some("1.500000 2.46 1.234568e+04 0.0001 100000")
        );
        assert_eq!(
            run("%g %G %a", vec![f(1e-5), f(1e20), f(1.0)]).as_deref(),
            Some("1e-05 1E+20 0x1p+0")
        );
        assert_eq!(run("%c%c %%", vec![i(72), i(105)]).as_deref(), Some("Hi %"));
        assert_eq!(run("%f", vec![f(f64::INFINITY)]).as_deref(), Some("inf"));
    }

    #[test]
    fn buffer_reserves_up_to_its_limit_then_stays_full() {
        let b = PrintfBuffer::new(10);
        assert!(b.reserve(4) && b.reserve(6) && !b.truncated());
        assert!(!b.reserve(1) && b.truncated());
        let b = PrintfBuffer::new(10);
        assert!(b.reserve(8) && !b.reserve(3));
        // Full: later output that would have fit is dropped too.
        assert!(!b.reserve(2) && b.reserve(0));
        assert!(!PrintfBuffer::new(4).reserve(usize::MAX));
    }

    #[test]
    fn vectors() {
        let v = (
            [1.0f32, 2.5, -3.0, 4.0]
                .iter()
                .map(|x| x.to_bits() as u64)
                .collect(),
            Type::Vector(Scalar::F32, 4),
        );
        assert_eq!(
            run("%v4f", vec![v.clone()]).as_deref(),
            Some("1.000000,2.500000,-3.000000,4.000000")
        );
        let iv = (vec![1, 2], Type::Vector(Scalar::I32, 2));
        assert_eq!(run("%v2hld", vec![iv]).as_deref(), Some("1,2"));
        assert_eq!(run("%v3f", vec![v]), None);
    }
}
