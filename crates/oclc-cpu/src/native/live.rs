//! Slot liveness of decoded functions with barriers: a work-item stopping at a barrier saves
//! only the slots live after it (and, in callers, after the call), not its whole frame.

use super::slow::Slots;
use crate::decode::{DFunc, I};

/// Live-in slot bitsets per instruction.
pub struct Liveness {
    words: usize,
    live_in: Vec<u64>,
}

impl Liveness {
    /// Whether slot `s` is live on entry to instruction `pc` (everything is live past the
    /// end, conservatively).
    pub fn live(&self, pc: u32, s: u32) -> bool {
        let (w, b) = (s as usize / 64, s as usize % 64);
        let i = pc as usize * self.words + w;
        self.live_in.get(i).is_none_or(|x| x >> b & 1 != 0)
    }
}

fn range(v: &mut Vec<(u32, u32)>, s: u32, n: u32) {
    v.push((s, n));
}

/// Slots read and written by `ins` (edge moves aside), its edges, and whether it falls
/// through to the next instruction.
pub(super) fn rw(f: &DFunc, ins: &I) -> (Slots, Slots, Vec<u32>, bool) {
    let (mut r, mut w) = super::slow::uses_defs(f, ins);
    let mut edges = Vec::new();
    let mut falls = true;
    match *ins {
        I::Imm { d, .. } => range(&mut w, d, 1),
        I::Splat { d, s, n } => {
            range(&mut r, s, 1);
            range(&mut w, d, n);
        }
        I::Copy { d, s, n } => {
            range(&mut r, s, n);
            range(&mut w, d, n);
        }
        I::Add { d, a, b, .. }
        | I::Sub { d, a, b, .. }
        | I::Mul { d, a, b, .. }
        | I::And { d, a, b }
        | I::Or { d, a, b }
        | I::Xor { d, a, b }
        | I::FAdd32 { d, a, b }
        | I::FSub32 { d, a, b }
        | I::FMul32 { d, a, b }
        | I::FDiv32 { d, a, b }
        | I::FAdd64 { d, a, b }
        | I::FMul64 { d, a, b }
        | I::ICmp { d, a, b, .. }
        | I::PtrAdd { d, p: a, o: b }
        | I::PtrIndex { d, p: a, i: b, .. } => {
            range(&mut r, a, 1);
            range(&mut r, b, 1);
            range(&mut w, d, 1);
        }
        I::BrICmp { a, b, info, .. } => {
            range(&mut r, a, 1);
            range(&mut r, b, 1);
            if let Some(&(t, e)) = f.brcmps.get(info as usize) {
                edges.extend([t, e]);
            }
            falls = false;
        }
        I::Select { n, vc, d, c, info } => {
            let (a, b) = f.selects.get(info as usize).copied().unwrap_or((0, 0));
            range(&mut r, c, if vc { n as u32 } else { 1 });
            range(&mut r, a, n as u32);
            range(&mut r, b, n as u32);
            range(&mut w, d, n as u32);
        }
        I::ExtractDyn { n, d, v, i } => {
            range(&mut r, v, n as u32);
            range(&mut r, i, 1);
            range(&mut w, d, 1);
        }
        I::InsertDyn { n, d, x, i } => {
            range(&mut r, x, 1);
            range(&mut r, i, 1);
            range(&mut r, d, n as u32);
            range(&mut w, d, n as u32);
        }
        I::WorkItem { d, dim, .. } => {
            if dim != u32::MAX {
                range(&mut r, dim, 1);
            }
            range(&mut w, d, 1);
        }
        I::Call { d, info } => {
            if let Some(ci) = f.calls.get(info as usize) {
                for &(s, n) in &ci.args {
                    range(&mut r, s, n);
                }
                range(&mut w, d, ci.ret_n);
            }
        }
        I::Ret { v, n } => {
            range(&mut r, v, n);
            falls = false;
        }
        I::Br { e } => {
            edges.push(e);
            falls = false;
        }
        I::CondBr { c, t, f: e } => {
            range(&mut r, c, 1);
            edges.extend([t, e]);
            falls = false;
        }
        I::Switch { x, info } => {
            range(&mut r, x, 1);
            if let Some(sw) = f.switches.get(info as usize) {
                edges.extend(sw.cases.iter().map(|c| c.1));
                edges.push(sw.default);
            }
            falls = false;
        }
        I::Unreachable => falls = false,
        _ => {}
    }
    (r, w, edges, falls)
}

/// Liveness of `f`'s slots, by iterating to a fixed point.
pub fn liveness(f: &DFunc) -> Liveness {
    let words = (f.nregs as usize).div_ceil(64).max(1);
    let n = f.code.len();
    let info: Vec<_> = f.code.iter().map(|i| rw(f, i)).collect();
    let mut live_in = vec![0u64; (n + 1) * words];
    // Past the end: nothing is read.
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds < 10_000 {
        changed = false;
        rounds += 1;
        for pc in (0..n).rev() {
            let (r, w, edges, falls) = &info[pc];
            let mut out = vec![0u64; words];
            if *falls {
                out.copy_from_slice(&live_in[(pc + 1) * words..(pc + 2) * words]);
            }
            for &e in edges {
                let Some(edge) = f.edges.get(e as usize) else {
                    continue;
                };
                let t = (edge.pc as usize).min(n);
                let mut l = live_in[t * words..(t + 1) * words].to_vec();
                let mv = f
                    .moves
                    .get(edge.mv as usize..(edge.mv + edge.n) as usize)
                    .unwrap_or(&[]);
                for &(d, s) in mv.iter().rev() {
                    l[d as usize / 64] &= !(1 << (d % 64));
                    l[s as usize / 64] |= 1 << (s % 64);
                }
                for (o, x) in out.iter_mut().zip(&l) {
                    *o |= x;
                }
            }
            for &(s, k) in w {
                for x in s..s + k {
                    if let Some(o) = out.get_mut(x as usize / 64) {
                        *o &= !(1 << (x % 64));
                    }
                }
            }
            for &(s, k) in r {
                for x in s..s + k {
                    if let Some(o) = out.get_mut(x as usize / 64) {
                        *o |= 1 << (x % 64);
                    }
                }
            }
            let cur = &mut live_in[pc * words..(pc + 1) * words];
            if cur != out.as_slice() {
                cur.copy_from_slice(&out);
                changed = true;
            }
        }
    }
    Liveness { words, live_in }
}
