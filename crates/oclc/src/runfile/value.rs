//! Value specs (`init = ...`, `equals = ...`): parsing against an element type and
//! materialization as little-endian bytes.

use super::elem::{ElemType, ScalarType};
use super::error::Sink;
use super::half::{f16_bits_to_f64, f64_to_f16_bits};
use super::node::{Node, Value};
use super::random::{Draw, SplitMix64, map_draw};
use std::path::{Path, PathBuf};

/// One component value, already checked to fit its scalar type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit {
    Int(i128),
    Float(f64),
}

/// Where a buffer's contents come from.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSpec {
    /// `"zero"`, or no `init`.
    Zero,
    /// `"range"`: component k of the buffer (in memory order, padding skipped) is k.
    Range,
    /// A list of exactly `len` elements, flattened to their components.
    List(Vec<Lit>),
    /// `{ fill = V }`: every element is V (its components; a number fills every component).
    Fill(Vec<Lit>),
    /// `{ range = [start, step] }`: component k is start + k*step.
    RangeFrom { start: Lit, step: Lit },
    /// `{ random = SEED }`, see [`super::random`].
    Random(u64),
    /// `{ file = "x.bin" }`: raw little-endian bytes; the path is resolved against the run file's
    /// directory, `written` is the path as the run file gives it.
    File { path: PathBuf, written: String },
    /// Exactly the buffer's bytes: what [`ValueSpec::resolve`] read from a `file` that is a
    /// device or a FIFO (which can be read only once), or bytes a program supplies.
    Bytes(Vec<u8>),
}

/// Bytes per piece when contents are generated or read piecewise (a multiple of every element
/// size), so a buffer's contents never exist twice in full.
pub const CHUNK_BYTES: usize = 1 << 20;

/// The bytes one component of `ty` takes, appended to `out`.
pub fn put(ty: ScalarType, lit: Lit, out: &mut Vec<u8>) {
    match ty {
        ScalarType::Half => out.extend_from_slice(&f64_to_f16_bits(lit_f64(lit)).to_le_bytes()),
        ScalarType::Float => out.extend_from_slice(&(lit_f64(lit) as f32).to_le_bytes()),
        ScalarType::Double => out.extend_from_slice(&lit_f64(lit).to_le_bytes()),
        _ => {
            let v = match lit {
                Lit::Int(v) => v as u64,
                Lit::Float(f) => f as i128 as u64,
            };
            out.extend_from_slice(&v.to_le_bytes()[..ty.size()]);
        }
    }
}

fn lit_f64(lit: Lit) -> f64 {
    match lit {
        Lit::Int(v) => v as f64,
        Lit::Float(f) => f,
    }
}

/// Reads one component of `ty` from the start of `bytes` (zero-extended when short).
pub fn get(ty: ScalarType, bytes: &[u8]) -> Lit {
    let mut raw = [0u8; 8];
    for (d, s) in raw.iter_mut().zip(bytes.iter().take(ty.size())) {
        *d = *s;
    }
    let u = u64::from_le_bytes(raw);
    match ty {
        ScalarType::Char => Lit::Int(u as u8 as i8 as i128),
        ScalarType::Short => Lit::Int(u as u16 as i16 as i128),
        ScalarType::Int => Lit::Int(u as u32 as i32 as i128),
        ScalarType::Long => Lit::Int(u as i64 as i128),
        ScalarType::UChar | ScalarType::UShort | ScalarType::UInt | ScalarType::ULong => {
            Lit::Int(u as i128)
        }
        ScalarType::Half => Lit::Float(f16_bits_to_f64(u as u16)),
        ScalarType::Float => Lit::Float(f64::from(f32::from_bits(u as u32))),
        ScalarType::Double => Lit::Float(f64::from_bits(u)),
    }
}

/// Component `c` of element `i` of a buffer of `elem`s; `None` past the end.
pub fn component(elem: ElemType, bytes: &[u8], i: usize, c: usize) -> Option<Lit> {
    let size = elem.scalar.size();
    let at = (i * elem.storage_comps() + c) * size;
    bytes.get(at..at + size).map(|b| get(elem.scalar, b))
}

/// Integers wrap to the type's width (two's complement), as C's conversions to unsigned do.
fn wrapped(ty: ScalarType, v: i128) -> Lit {
    let bits = 8 * ty.size() as u32;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let u = (v as u64) & mask;
    Lit::Int(if ty.is_signed() && u >> (bits - 1) != 0 {
        u as i128 - (1i128 << bits)
    } else {
        u as i128
    })
}

impl ValueSpec {
    /// The buffer contents: `len` elements of `elem`, little-endian, 3-vectors padded with zero.
    /// Errors (only for `file`, or when the host has no memory for the bytes) are messages for
    /// the spec's field.
    pub fn materialize(&self, elem: ElemType, len: usize) -> Result<Vec<u8>, String> {
        let total = total_bytes(elem, len)?;
        let mut out = Vec::new();
        out.try_reserve_exact(total).map_err(|_| {
            format!("cannot allocate {total} bytes for the contents: out of memory")
        })?;
        self.for_each_chunk(elem, len, |_, chunk| {
            out.extend_from_slice(chunk);
            Ok(())
        })?;
        Ok(out)
    }

    /// Checks that the spec can give `len` elements of `elem` before anything runs, and returns
    /// the spec to use: a `file` must exist; a regular file must have exactly the buffer's
    /// size (it is read later, piece by piece); a device or FIFO (`/dev/urandom`, a pipe) is
    /// read now, exactly the buffer's bytes, into [`ValueSpec::Bytes`]. Other specs are
    /// returned as they are.
    pub fn resolve(&self, elem: ElemType, len: usize) -> Result<ValueSpec, String> {
        let ValueSpec::File { path, written } = self else {
            return Ok(self.clone());
        };
        let total = total_bytes(elem, len)?;
        let cannot = |e: std::io::Error| format!("cannot read '{written}': {e}");
        let meta = std::fs::metadata(path).map_err(cannot)?;
        if meta.is_dir() {
            return Err(format!("cannot read '{written}': it is a directory"));
        }
        let mut file = std::fs::File::open(path).map_err(cannot)?;
        if meta.is_file() {
            if meta.len() != total as u64 {
                return Err(format!(
                    "'{written}' has {} bytes, but {len} {elem} values take {total}",
                    meta.len()
                ));
            }
            return Ok(self.clone());
        }
        let mut data = Vec::new();
        data.try_reserve_exact(total)
            .map_err(|_| format!("cannot allocate {total} bytes to read '{written}'"))?;
        data.resize(total, 0);
        let n = read_full(&mut file, &mut data).map_err(cannot)?;
        if n < total {
            return Err(format!(
                "'{written}' ended after {n} bytes, but {len} {elem} values take {total}"
            ));
        }
        Ok(ValueSpec::Bytes(data))
    }

    /// Hands the contents of `len` elements of `elem` to `f` in order, as pieces of at most
    /// [`CHUNK_BYTES`] holding whole elements, with each piece's byte offset. A regular `file`
    /// is read piece by piece (it must still have the buffer's size); errors of `f` stop the
    /// walk and are returned.
    pub fn for_each_chunk(
        &self,
        elem: ElemType,
        len: usize,
        mut f: impl FnMut(usize, &[u8]) -> Result<(), String>,
    ) -> Result<(), String> {
        let total = total_bytes(elem, len)?;
        match self {
            ValueSpec::Zero => {
                let zeros = vec![0u8; CHUNK_BYTES.min(total)];
                let mut off = 0;
                while off < total {
                    let n = (total - off).min(zeros.len());
                    f(off, &zeros[..n])?;
                    off += n;
                }
                Ok(())
            }
            ValueSpec::Bytes(b) => {
                if b.len() != total {
                    return Err(format!(
                        "{} bytes given, but {len} {elem} values take {total}",
                        b.len()
                    ));
                }
                for (k, piece) in b.chunks(CHUNK_BYTES).enumerate() {
                    f(k * CHUNK_BYTES, piece)?;
                }
                Ok(())
            }
            ValueSpec::File { path, written } => {
                let cannot = |e: std::io::Error| format!("cannot read '{written}': {e}");
                let mut file = std::fs::File::open(path).map_err(cannot)?;
                let mut buf = vec![0u8; CHUNK_BYTES.min(total)];
                let mut off = 0;
                while off < total {
                    let want = (total - off).min(buf.len());
                    let n = read_full(&mut file, &mut buf[..want]).map_err(cannot)?;
                    if n < want {
                        return Err(format!(
                            "'{written}' ended after {} bytes, but {len} {elem} values take {total}",
                            off + n
                        ));
                    }
                    f(off, &buf[..n])?;
                    off += n;
                }
                Ok(())
            }
            _ => self.generate(elem, len, f),
        }
    }

    /// The elements of the computed specs (ranges, lists, fills, random), piece by piece.
    fn generate(
        &self,
        elem: ElemType,
        len: usize,
        mut f: impl FnMut(usize, &[u8]) -> Result<(), String>,
    ) -> Result<(), String> {
        let ty = elem.scalar;
        let size = elem.size();
        let mut out = Vec::with_capacity(CHUNK_BYTES.min(len.saturating_mul(size)));
        let mut off = 0;
        let comps = elem.comps();
        let padding = elem.storage_comps() - comps;
        let mut rng = match self {
            ValueSpec::Random(seed) => Some(SplitMix64::new(*seed)),
            _ => None,
        };
        let mut k: usize = 0;
        for i in 0..len {
            if out.len() + size > CHUNK_BYTES {
                f(off, &out)?;
                off += out.len();
                out.clear();
            }
            for c in 0..comps {
                let lit = match self {
                    ValueSpec::Range => {
                        if ty.is_float() {
                            Lit::Float(k as f64)
                        } else {
                            wrapped(ty, k as i128)
                        }
                    }
                    ValueSpec::RangeFrom { start, step } => match (start, step) {
                        (Lit::Int(s), Lit::Int(d)) if !ty.is_float() => {
                            wrapped(ty, s.wrapping_add(d.wrapping_mul(k as i128)))
                        }
                        _ => Lit::Float(lit_f64(*start) + lit_f64(*step) * k as f64),
                    },
                    ValueSpec::List(v) => v.get(i * comps + c).copied().unwrap_or(Lit::Int(0)),
                    ValueSpec::Fill(v) => v.get(c).copied().unwrap_or(Lit::Int(0)),
                    ValueSpec::Random(_) => {
                        match rng.as_mut().map(|g| map_draw(ty, g.next_u64())) {
                            Some(Draw::Int(v)) => Lit::Int(v),
                            Some(Draw::Float(f)) => Lit::Float(f),
                            None => Lit::Int(0),
                        }
                    }
                    ValueSpec::Zero | ValueSpec::File { .. } | ValueSpec::Bytes(_) => Lit::Int(0),
                };
                put(ty, lit, &mut out);
                k += 1;
            }
            for _ in 0..padding {
                put(ty, Lit::Int(0), &mut out);
            }
        }
        if !out.is_empty() {
            f(off, &out)?;
        }
        Ok(())
    }
}

/// Bytes of `len` elements of `elem` (run files keep buffers at most 1 GiB; the check is for
/// other callers).
fn total_bytes(elem: ElemType, len: usize) -> Result<usize, String> {
    len.checked_mul(elem.size())
        .ok_or_else(|| format!("{len} {elem} values take more bytes than memory has"))
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Parses one number for a component of `ty`, rejecting the wrong kind and values the type
/// cannot hold. Integer types also take a string of decimal or `0x` digits, for `ulong` values
/// above TOML's integer range.
pub(crate) fn parse_lit(sink: &mut Sink, node: &Node, field: &str, ty: ScalarType) -> Option<Lit> {
    let lit = match (&node.value, ty.is_float()) {
        (Value::Int(v), false) => Lit::Int(i128::from(*v)),
        (Value::Str(s), false) => match parse_int_text(s) {
            Some(v) => Lit::Int(v),
            None => {
                sink.error(
                    &node.span,
                    field,
                    format!("expected an integer, got the string \"{s}\""),
                );
                return None;
            }
        },
        (Value::Int(v), true) => Lit::Float(*v as f64),
        (Value::Float(f), true) => Lit::Float(*f),
        (Value::Float(f), false) => {
            sink.error(
                &node.span,
                field,
                format!("expected an integer for {}, got the float {f:?}", ty.name()),
            );
            return None;
        }
        (v, false) => {
            sink.error(
                &node.span,
                field,
                format!("expected an integer, got {}", v.kind()),
            );
            return None;
        }
        (v, true) => {
            sink.error(
                &node.span,
                field,
                format!("expected a number, got {}", v.kind()),
            );
            return None;
        }
    };
    match lit {
        Lit::Int(v) => {
            let (lo, hi) = ty.int_range();
            if v < lo || v > hi {
                sink.error(
                    &node.span,
                    field,
                    format!("{v} is out of range for {} ({lo} to {hi})", ty.name()),
                );
                return None;
            }
        }
        Lit::Float(f) => {
            let fits = match ty {
                ScalarType::Half => f64_to_f16_bits(f) & 0x7fff != 0x7c00,
                ScalarType::Float => (f as f32).is_finite(),
                _ => true,
            };
            if f.is_finite() && !fits {
                sink.error(
                    &node.span,
                    field,
                    format!("{f:?} is out of range for {}", ty.name()),
                );
                return None;
            }
        }
    }
    Some(lit)
}

fn parse_int_text(s: &str) -> Option<i128> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let digits = digits.replace('_', "");
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) if !hex.is_empty() && !hex.starts_with(['+', '-']) => {
            i128::from_str_radix(hex, 16).ok()?
        }
        Some(_) => return None,
        None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse().ok()?
        }
        None => return None,
    };
    Some(if neg { -v } else { v })
}

/// One element of `elem`: a number, or for vectors a list of exactly `width` numbers (a bare
/// number too, when `broadcast`, which fills every component).
fn parse_element(
    sink: &mut Sink,
    node: &Node,
    field: &str,
    elem: ElemType,
    broadcast: bool,
    out: &mut Vec<Lit>,
) -> bool {
    let n = elem.comps();
    match &node.value {
        Value::Array(items) if n > 1 => {
            if items.len() != n {
                sink.error(
                    &node.span,
                    field,
                    format!(
                        "expected a list of {n} numbers for {elem}, got {}",
                        items.len()
                    ),
                );
                return false;
            }
            let mut ok = true;
            for (c, item) in items.iter().enumerate() {
                match parse_lit(sink, item, &format!("{field}[{c}]"), elem.scalar) {
                    Some(l) => out.push(l),
                    None => ok = false,
                }
            }
            ok
        }
        Value::Array(_) => {
            sink.error(
                &node.span,
                field,
                format!("expected a number for {elem}, got an array"),
            );
            false
        }
        _ if n > 1 && !broadcast => {
            sink.error(
                &node.span,
                field,
                format!(
                    "expected a list of {n} numbers for {elem}, got {}",
                    node.value.kind()
                ),
            );
            false
        }
        _ => match parse_lit(sink, node, field, elem.scalar) {
            Some(l) => {
                out.extend(std::iter::repeat_n(l, n));
                true
            }
            None => false,
        },
    }
}

/// Parses a value spec for `len` elements of `elem`. `field` names the spec (e.g.
/// `args.src.init`); `base` is the run file's directory, for `file`.
pub(crate) fn parse_spec(
    sink: &mut Sink,
    node: &Node,
    field: &str,
    elem: ElemType,
    len: Option<usize>,
    base: &Path,
) -> Option<ValueSpec> {
    const FORMS: &str = "expected \"zero\", \"range\", a list of values, { fill = V }, { range = [START, STEP] }, { random = SEED } or { file = \"NAME\" }";
    match &node.value {
        Value::Str(s) if s == "zero" => Some(ValueSpec::Zero),
        Value::Str(s) if s == "range" => Some(ValueSpec::Range),
        Value::Str(s) => {
            sink.error(
                &node.span,
                field,
                format!("unknown value spec \"{s}\"; {FORMS}"),
            );
            None
        }
        Value::Array(items) => parse_list(sink, node, items, field, elem, len?),
        Value::Table(entries) => {
            let [(key, value)] = entries.as_slice() else {
                sink.error(
                    &node.span,
                    field,
                    format!(
                        "a value spec table has exactly one key, got {}; {FORMS}",
                        entries.len()
                    ),
                );
                return None;
            };
            let sub = format!("{field}.{}", key.name);
            match key.name.as_str() {
                "fill" => {
                    let mut v = Vec::new();
                    parse_element(sink, value, &sub, elem, true, &mut v)
                        .then_some(ValueSpec::Fill(v))
                }
                "range" => parse_range(sink, value, &sub, elem.scalar),
                "random" => match value.value {
                    Value::Int(seed) => Some(ValueSpec::Random(seed as u64)),
                    ref v => {
                        sink.error(
                            &value.span,
                            &sub,
                            format!("expected an integer seed, got {}", v.kind()),
                        );
                        None
                    }
                },
                "file" => match &value.value {
                    Value::Str(name) if !name.is_empty() => Some(ValueSpec::File {
                        path: base.join(name),
                        written: name.clone(),
                    }),
                    v => {
                        sink.error(
                            &value.span,
                            &sub,
                            format!("expected a file name, got {}", v.kind()),
                        );
                        None
                    }
                },
                other => {
                    sink.error(
                        &key.span,
                        &sub,
                        format!("unknown value spec key '{other}'; {FORMS}"),
                    );
                    None
                }
            }
        }
        v => {
            sink.error(&node.span, field, format!("{FORMS}, got {}", v.kind()));
            None
        }
    }
}

fn parse_list(
    sink: &mut Sink,
    node: &Node,
    items: &[Node],
    field: &str,
    elem: ElemType,
    len: usize,
) -> Option<ValueSpec> {
    let n = elem.comps();
    let flat = n > 1
        && items.len() == len * n
        && !items.iter().any(|i| matches!(i.value, Value::Array(_)));
    if items.len() != len && !flat {
        let want = if n > 1 {
            format!("{len} {elem} values (or {} numbers)", len * n)
        } else {
            format!("{len} values")
        };
        sink.error(
            &node.span,
            field,
            format!("expected a list of {want}, got {}", items.len()),
        );
        return None;
    }
    let mut out = Vec::with_capacity(len * n);
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let sub = format!("{field}[{i}]");
        if flat {
            match parse_lit(sink, item, &sub, elem.scalar) {
                Some(l) => out.push(l),
                None => ok = false,
            }
        } else {
            ok &= parse_element(sink, item, &sub, elem, false, &mut out);
        }
    }
    ok.then_some(ValueSpec::List(out))
}

fn parse_range(sink: &mut Sink, node: &Node, field: &str, ty: ScalarType) -> Option<ValueSpec> {
    let Value::Array(items) = &node.value else {
        sink.error(
            &node.span,
            field,
            format!("expected [START, STEP], got {}", node.value.kind()),
        );
        return None;
    };
    let [start, step] = items.as_slice() else {
        sink.error(
            &node.span,
            field,
            format!("expected [START, STEP], got {} values", items.len()),
        );
        return None;
    };
    let start = parse_lit(sink, start, &format!("{field}[0]"), ty);
    let step_field = format!("{field}[1]");
    let step = match (&step.value, ty.is_float()) {
        (Value::Int(d), false) => Some(Lit::Int(i128::from(*d))),
        _ => parse_lit(sink, step, &step_field, ty),
    };
    Some(ValueSpec::RangeFrom {
        start: start?,
        step: step?,
    })
}
