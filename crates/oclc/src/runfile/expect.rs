//! Comparing a buffer's contents after the launch with its expectation, and the one-line report.
//!
//! Integers compare exactly. Floats compare by value, so -0 equals +0, and NaN equals NaN (any
//! payload), an infinity equals only itself; `tol = X` accepts |got - want| <= X, `ulp = N`
//! accepts values at most N representable values of the element type apart. A
//! vector element differs when any of its components does; a 3-vector's padding is ignored.
//!
//! The report line is one of
//! ```text
//! expect NAME: ok (LEN elements)
//! expect NAME: FAIL, COUNT of LEN differ; first at [INDEX]: got GOT, want WANT
//! ```
//! where GOT and WANT are elements as `--dump` prints them (vectors as `(1, 2, 3, 4)`).

use super::elem::{ElemType, ScalarType};
use super::job::Tolerance;
use super::signature::PreparedExpectation;
use super::value::{Lit, component};
use std::fmt;

/// The result of one expectation.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectOutcome {
    pub name: String,
    pub len: usize,
    /// Elements that differ.
    pub differing: usize,
    /// The first differing element: index, got, want (formatted).
    pub first: Option<(usize, String, String)>,
}

impl ExpectOutcome {
    pub fn passed(&self) -> bool {
        self.differing == 0
    }
}

impl fmt::Display for ExpectOutcome {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.first {
            None => write!(f, "expect {}: ok ({} elements)", self.name, self.len),
            Some((i, got, want)) => write!(
                f,
                "expect {}: FAIL, {} of {} differ; first at [{i}]: got {got}, want {want}",
                self.name, self.differing, self.len
            ),
        }
    }
}

impl PreparedExpectation {
    /// Compares `got` (the buffer's bytes after the launch) with the expected contents. A `got`
    /// of the wrong size counts its missing elements as differing; so does every element when
    /// the expected contents cannot be read any more (a `file` removed since it was prepared).
    pub fn check(&self, got: &[u8]) -> ExpectOutcome {
        let read = |off: usize, out: &mut [u8]| {
            let avail = got.get(off..).unwrap_or_default();
            let n = avail.len().min(out.len());
            out[..n].copy_from_slice(&avail[..n]);
            Ok(n)
        };
        self.check_with(read).unwrap_or_else(|_| ExpectOutcome {
            name: self.name.clone(),
            len: self.len,
            differing: self.len,
            first: None,
        })
    }

    /// Compares the buffer with the expected contents piece by piece: `read(offset, out)`
    /// fills `out` with the buffer's bytes at `offset` and returns how many it had. Neither
    /// side is ever held in full. Errors are those of `read` or of reading an expected `file`.
    pub fn check_with(
        &self,
        mut read: impl FnMut(usize, &mut [u8]) -> Result<usize, String>,
    ) -> Result<ExpectOutcome, String> {
        let size = self.elem.size();
        let mut differing = 0;
        let mut first = None;
        let mut got = Vec::new();
        self.want.for_each_chunk(self.elem, self.len, |off, want| {
            got.clear();
            got.resize(want.len(), 0);
            let n = read(off, &mut got)?.min(want.len());
            let got = &got[..n];
            if got == want {
                // Identical bits match under every tolerance (NaN payloads included).
                return Ok(());
            }
            for j in 0..want.len() / size {
                let same = (0..self.elem.comps()).all(|c| {
                    match (
                        component(self.elem, got, j, c),
                        component(self.elem, want, j, c),
                    ) {
                        (Some(g), Some(w)) => {
                            components_match(self.elem.scalar, g, w, self.tolerance)
                        }
                        _ => false,
                    }
                });
                if !same {
                    differing += 1;
                    if first.is_none() {
                        first = Some((
                            off / size + j,
                            format_element(self.elem, got, j),
                            format_element(self.elem, want, j),
                        ));
                    }
                }
            }
            Ok(())
        })?;
        Ok(ExpectOutcome {
            name: self.name.clone(),
            len: self.len,
            differing,
            first,
        })
    }
}

/// Whether one component matches its expected value under `tol`.
pub fn components_match(ty: ScalarType, got: Lit, want: Lit, tol: Tolerance) -> bool {
    match (got, want) {
        (Lit::Int(g), Lit::Int(w)) => g == w,
        (Lit::Float(g), Lit::Float(w)) => {
            if g.is_nan() || w.is_nan() {
                return g.is_nan() && w.is_nan();
            }
            if g == w {
                return true;
            }
            if g.is_infinite() || w.is_infinite() {
                return false;
            }
            match tol {
                Tolerance::Exact => false,
                Tolerance::Abs(t) => (g - w).abs() <= t,
                Tolerance::Ulp(n) => ulp_distance(ty, g, w) <= n,
            }
        }
        _ => false,
    }
}

/// Representable values of `ty` between `a` and `b` (neither NaN; both exact values of `ty`).
pub fn ulp_distance(ty: ScalarType, a: f64, b: f64) -> u64 {
    let key = |x: f64| -> i128 {
        let (bits, sign): (u64, u64) = match ty {
            ScalarType::Half => (u64::from(super::half::f64_to_f16_bits(x)), 1 << 15),
            ScalarType::Float => (u64::from((x as f32).to_bits()), 1 << 31),
            _ => (x.to_bits(), 1 << 63),
        };
        let magnitude = i128::from(bits & !sign);
        if bits & sign != 0 {
            -magnitude
        } else {
            magnitude
        }
    };
    u64::try_from((key(a) - key(b)).unsigned_abs()).unwrap_or(u64::MAX)
}

/// One component as `--dump` and reports print it: integers in decimal, floats in the shortest
/// form that reads back as the same value of their type (`1.0`, `0.1`, `NaN`, `-inf`).
pub fn format_component(ty: ScalarType, lit: Lit) -> String {
    match (ty, lit) {
        (_, Lit::Int(v)) => v.to_string(),
        (ScalarType::Double, Lit::Float(f)) => format!("{f:?}"),
        (ScalarType::Half, Lit::Float(f)) if f.is_finite() => format!("{:?}", shortest_half(f)),
        (_, Lit::Float(f)) => format!("{:?}", f as f32),
    }
}

/// The float with the fewest significant decimal digits that rounds to the same half as `f`.
fn shortest_half(f: f64) -> f32 {
    let bits = super::half::f64_to_f16_bits(f);
    (0..5)
        .filter_map(|p| format!("{f:.p$e}").parse::<f64>().ok())
        .find(|v| super::half::f64_to_f16_bits(*v) == bits)
        .unwrap_or(f) as f32
}

/// Element `i` of a buffer: a component, or a vector's components as `(a, b, c, d)`.
pub fn format_element(elem: ElemType, bytes: &[u8], i: usize) -> String {
    let comps: Vec<String> = (0..elem.comps())
        .map(|c| match component(elem, bytes, i, c) {
            Some(l) => format_component(elem.scalar, l),
            None => "?".to_owned(),
        })
        .collect();
    if comps.len() == 1 {
        comps.concat()
    } else {
        format!("({})", comps.join(", "))
    }
}
