//! What `oclc run` prints and writes besides expectation lines: `--dump` listings, `--save`
//! NPY files and the `--repeat` timing summary.

use super::elem::ElemType;
use super::expect::format_component;
use super::value::component;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Scalars per `--dump` row; vector rows hold as many whole vectors as fit (at least one).
pub const DUMP_ROW_COMPONENTS: usize = 8;

/// A buffer as `--dump NAME` prints it:
///
/// ```text
/// NAME: TYPE[LEN]
///  [0]  0  1  2  3  4  5  6  7
///  [8]  8  9 10 11 12 13 14 15
/// [16] 16 17
/// ```
///
/// Each row starts with the index of its first element, right-aligned to the widest index;
/// components are right-aligned to the widest component in the buffer, separated by one space,
/// and vector elements are grouped as `(a, b, c, d)` with two spaces between elements.
pub fn format_dump(name: &str, elem: ElemType, len: usize, bytes: &[u8]) -> String {
    let comps = elem.comps();
    let cell = |i: usize, c: usize| match component(elem, bytes, i, c) {
        Some(l) => format_component(elem.scalar, l),
        None => "?".to_owned(),
    };
    // Two passes (widths, then rows) rather than a string per component held at once.
    let width = (0..len)
        .flat_map(|i| (0..comps).map(move |c| (i, c)))
        .map(|(i, c)| cell(i, c).len())
        .max()
        .unwrap_or(0);
    let per_row = (DUMP_ROW_COMPONENTS / comps).max(1);
    let label_width = format!("[{}]", len.saturating_sub(1) / per_row * per_row).len();
    let mut out = format!("{name}: {elem}[{len}]\n");
    for row_start in (0..len).step_by(per_row) {
        let label = format!("[{row_start}]");
        let _ = write!(out, "{label:>label_width$}");
        for i in row_start..(row_start + per_row).min(len) {
            if comps == 1 {
                let _ = write!(out, " {:>width$}", cell(i, 0));
            } else {
                let parts: Vec<String> = (0..comps)
                    .map(|c| format!("{:>width$}", cell(i, c)))
                    .collect();
                let _ = write!(out, "  ({})", parts.join(", "));
            }
        }
        out.push('\n');
    }
    out
}

/// A buffer as an NPY (format version 1.0) file: the magic `\x93NUMPY`, version 1.0, the
/// little-endian header length, then the header dictionary
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (LEN,), }` padded with spaces and ended by
/// a newline so that the data starts at a multiple of 64 bytes, then the data. Vectors have
/// shape `(LEN, N)`; a 3-vector's padding is left out, so its shape is `(LEN, 3)`. `half` is
/// `'<f2'`, `char`/`uchar` are `'|i1'`/`'|u1'`.
pub fn npy_bytes(elem: ElemType, len: usize, bytes: &[u8]) -> Vec<u8> {
    let mut out = npy_header(elem, len);
    npy_data(elem, len, bytes, &mut out);
    out
}

/// The NPY magic, version, header length and header dictionary of [`npy_bytes`].
fn npy_header(elem: ElemType, len: usize) -> Vec<u8> {
    let shape = if elem.width == 1 {
        format!("({len},)")
    } else {
        format!("({len}, {})", elem.width)
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        elem.scalar.npy_descr()
    );
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out
}

/// Appends the data of at most `len` elements from `bytes` (whole elements), leaving out a
/// 3-vector's padding.
fn npy_data(elem: ElemType, len: usize, bytes: &[u8], out: &mut Vec<u8>) {
    let size = elem.scalar.size();
    if elem.width == 3 {
        for chunk in bytes.chunks(4 * size).take(len) {
            out.extend_from_slice(chunk.get(..3 * size).unwrap_or(chunk));
        }
    } else {
        out.extend_from_slice(bytes.get(..len * elem.size()).unwrap_or(bytes));
    }
}

/// Writes a buffer to `DIR/NAME.npy` (see [`npy_bytes`]) and returns the path. `name` must be
/// a C identifier (kernel parameter names are), so it cannot leave `dir`.
pub fn write_npy(
    dir: &Path,
    name: &str,
    elem: ElemType,
    len: usize,
    bytes: &[u8],
) -> std::io::Result<PathBuf> {
    write_npy_from(dir, name, elem, len, |off, out| {
        let avail = bytes.get(off..).unwrap_or_default();
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        Ok(n)
    })
}

/// [`write_npy`] reading the buffer piece by piece: `read(offset, out)` fills `out` with the
/// bytes at `offset` and returns how many there were. The buffer is never copied whole.
pub fn write_npy_from(
    dir: &Path,
    name: &str,
    elem: ElemType,
    len: usize,
    mut read: impl FnMut(usize, &mut [u8]) -> Result<usize, String>,
) -> std::io::Result<PathBuf> {
    use std::io::Write as _;
    let is_identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_identifier {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("'{name}' is not an identifier"),
        ));
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{name}.npy"));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
    file.write_all(&npy_header(elem, len))?;
    let total = len.saturating_mul(elem.size());
    let mut piece = vec![0u8; super::value::CHUNK_BYTES.min(total)];
    let mut data = Vec::with_capacity(piece.len());
    let mut off = 0;
    while off < total {
        let want = (total - off).min(piece.len());
        let n = read(off, &mut piece[..want]).map_err(std::io::Error::other)?;
        data.clear();
        npy_data(elem, n / elem.size(), &piece[..n], &mut data);
        file.write_all(&data)?;
        if n < want {
            break;
        }
        off += n;
    }
    file.flush()?;
    Ok(path)
}

/// Kernel times over `--repeat N` launches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingSummary {
    pub min: Duration,
    /// The middle time, or the mean of the two middle times for an even count.
    pub median: Duration,
    pub launches: usize,
}

impl TimingSummary {
    /// `None` for no launches.
    pub fn new(times: &[Duration]) -> Option<TimingSummary> {
        let mut sorted = times.to_vec();
        sorted.sort();
        let n = sorted.len();
        let min = *sorted.first()?;
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        };
        Some(TimingSummary {
            min,
            median,
            launches: n,
        })
    }
}

impl std::fmt::Display for TimingSummary {
    /// `kernel time: min 12.3 us, median 13.0 us over 5 launches` (the format `clrun` prints).
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        write!(
            f,
            "kernel time: min {:.1} us, median {:.1} us over {} launch{}",
            us(self.min),
            us(self.median),
            self.launches,
            if self.launches == 1 { "" } else { "es" }
        )
    }
}
