//! `bitcast` (`as_T`) between scalarized values: lanes are split into or combined from
//! pieces of the narrower element width.

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{Scalar, Type, Value};

impl FnEmitter<'_> {
    pub fn bitcast(&mut self, a: Value, r: Value) -> R<()> {
        let (ts, tt) = (self.ty(a)?, self.ty(r)?);
        let es = ts.elem().map_or(64, Scalar::bits);
        let ed = tt.elem().map_or(64, Scalar::bits);
        let ns = if ts.lanes() == 3 { 4 } else { ts.lanes() };
        let nd = if tt.lanes() == 3 { 4 } else { tt.lanes() };
        if es * ns != ed * nd || es == 1 || ed == 1 {
            return Err(self.invalid(format!("bitcast from {ts} to {tt}")));
        }
        let g = es.min(ed);
        let mut pieces = Vec::new();
        for l in 0..ns {
            let bits = if l < ts.lanes() {
                let reg = self.reg(a, l)?;
                self.lane_bits(ts, &reg)
            } else {
                let t = self.tmp(if es == 64 { Rc::B64 } else { Rc::B32 });
                self.ins(format!("mov.b{} {t}, 0", if es == 64 { 64 } else { 32 }));
                t
            };
            pieces.extend(self.split(&bits, es, g));
        }
        let per = (ed / g) as usize;
        for l in 0..tt.lanes() {
            let start = l as usize * per;
            let Some(chunk) = pieces.get(start..start + per) else {
                return Err(self.invalid("bitcast lane count"));
            };
            let chunk = chunk.to_vec();
            let word = self.combine(&chunk, g, ed);
            let dr = self.reg(r, l)?;
            self.set_lane_bits(tt, &dr, &word);
        }
        Ok(())
    }

    /// Bits of one lane in an integer register (b32 for ≤ 32 bits, b64 for 64).
    fn lane_bits(&mut self, t: Type, reg: &str) -> String {
        match t.elem() {
            Some(Scalar::F32) => {
                let x = self.tmp(Rc::B32);
                self.ins(format!("mov.b32 {x}, {reg}"));
                x
            }
            Some(Scalar::F64) => {
                let x = self.tmp(Rc::B64);
                self.ins(format!("mov.b64 {x}, {reg}"));
                x
            }
            Some(Scalar::F16) => {
                let x = self.tmp(Rc::B32);
                self.ins(format!("cvt.u32.u16 {x}, {reg}"));
                x
            }
            _ => reg.to_string(),
        }
    }

    fn set_lane_bits(&mut self, t: Type, dr: &str, word: &str) {
        match t.elem() {
            Some(Scalar::F32) => self.ins(format!("mov.b32 {dr}, {word}")),
            None | Some(Scalar::F64) | Some(Scalar::I64) => {
                self.ins(format!("mov.b64 {dr}, {word}"))
            }
            Some(Scalar::F16) => self.ins(format!("cvt.u16.u32 {dr}, {word}")),
            _ => self.ins(format!("mov.b32 {dr}, {word}")),
        }
    }

    fn split(&mut self, reg: &str, es: u32, g: u32) -> Vec<String> {
        if es == g {
            return vec![reg.to_string()];
        }
        if es == 64 {
            let (lo, hi) = (self.tmp(Rc::B32), self.tmp(Rc::B32));
            self.ins(format!("mov.b64 {{{lo}, {hi}}}, {reg}"));
            let mut v = self.split(&lo, 32, g);
            v.extend(self.split(&hi, 32, g));
            return v;
        }
        (0..es / g)
            .map(|i| {
                if i == 0 {
                    reg.to_string()
                } else {
                    let t = self.tmp(Rc::B32);
                    self.ins(format!("shr.u32 {t}, {reg}, {}", i * g));
                    t
                }
            })
            .collect()
    }

    fn combine(&mut self, pieces: &[String], g: u32, ed: u32) -> String {
        if g == ed {
            return pieces.first().cloned().unwrap_or_default();
        }
        if ed == 64 {
            let half = pieces.len() / 2;
            let lo = self.combine(&pieces[..half], g, 32);
            let hi = self.combine(&pieces[half..], g, 32);
            let t = self.tmp(Rc::B64);
            self.ins(format!("mov.b64 {t}, {{{lo}, {hi}}}"));
            return t;
        }
        let mut acc = pieces.first().cloned().unwrap_or_default();
        for (i, p) in pieces.iter().enumerate().skip(1) {
            let t = self.tmp(Rc::B32);
            self.ins(format!("bfi.b32 {t}, {p}, {acc}, {}, {g}", i as u32 * g));
            acc = t;
        }
        acc
    }
}
