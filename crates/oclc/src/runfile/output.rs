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
    let cells: Vec<String> = (0..len)
        .flat_map(|i| (0..comps).map(move |c| (i, c)))
        .map(|(i, c)| match component(elem, bytes, i, c) {
            Some(l) => format_component(elem.scalar, l),
            None => "?".to_owned(),
        })
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0);
    let per_row = (DUMP_ROW_COMPONENTS / comps).max(1);
    let label_width = format!("[{}]", len.saturating_sub(1) / per_row * per_row).len();
    let mut out = format!("{name}: {elem}[{len}]\n");
    for (row, chunk) in cells.chunks(per_row * comps).enumerate() {
        let label = format!("[{}]", row * per_row);
        let _ = write!(out, "{label:>label_width$}");
        for element in chunk.chunks(comps) {
            if comps == 1 {
                let _ = write!(out, " {:>width$}", element.concat());
            } else {
                let parts: Vec<String> = element.iter().map(|c| format!("{c:>width$}")).collect();
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
    let size = elem.scalar.size();
    let mut out = Vec::with_capacity(10 + header.len() + len * elem.comps() * size);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    if elem.width == 3 {
        for chunk in bytes.chunks(4 * size).take(len) {
            out.extend_from_slice(chunk.get(..3 * size).unwrap_or(chunk));
        }
    } else {
        out.extend_from_slice(bytes.get(..len * elem.size()).unwrap_or(bytes));
    }
    out
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
    std::fs::write(&path, npy_bytes(elem, len, bytes))?;
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
