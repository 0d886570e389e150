//! Atomics PTX has no instruction for: 8- and 16-bit read-modify-writes and compare-exchange
//! (a 32-bit `atom.cas` loop on the aligned word holding the value), and atomics on private
//! memory (only the work-item itself can see it, so a plain load, operation and store).

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{RmwOp, Scalar};

/// `new = op(cur, v)` for integer registers of `bits` (narrow values zero-extended in b32).
fn apply(e: &mut FnEmitter, op: RmwOp, bits: u32, cur: &str, v: &str) -> R<String> {
    let wide = bits == 64;
    let (rc, sz) = if wide { (Rc::B64, 64) } else { (Rc::B32, 32) };
    let n = e.tmp(rc);
    // Signed comparisons see the narrow values sign-extended.
    let sext = |e: &mut FnEmitter, r: &str| {
        if bits < 32 {
            e.sext32(r, bits)
        } else {
            r.to_string()
        }
    };
    match op {
        RmwOp::Add => e.ins(format!("add.u{sz} {n}, {cur}, {v}")),
        RmwOp::Sub => e.ins(format!("sub.u{sz} {n}, {cur}, {v}")),
        RmwOp::Xchg => e.ins(format!("mov.b{sz} {n}, {v}")),
        RmwOp::And => e.ins(format!("and.b{sz} {n}, {cur}, {v}")),
        RmwOp::Or => e.ins(format!("or.b{sz} {n}, {cur}, {v}")),
        RmwOp::Xor => e.ins(format!("xor.b{sz} {n}, {cur}, {v}")),
        RmwOp::SMin | RmwOp::SMax => {
            let (a, b) = (sext(e, cur), sext(e, v));
            let o = if op == RmwOp::SMin { "min" } else { "max" };
            e.ins(format!("{o}.s{sz} {n}, {a}, {b}"));
        }
        RmwOp::UMin | RmwOp::UMax => {
            let b = if bits < 32 {
                e.zext32(v, bits)
            } else {
                v.to_string()
            };
            let o = if op == RmwOp::UMin { "min" } else { "max" };
            e.ins(format!("{o}.u{sz} {n}, {cur}, {b}"));
        }
        RmwOp::FAdd => return Err(e.unsupported("atomic float add on a narrow or private value")),
    }
    Ok(n)
}

/// A read-modify-write on private memory: `dr` gets the old value.
pub fn private_rmw(e: &mut FnEmitter, op: RmwOp, s: Scalar, dr: &str, pr: &str, vr: &str) -> R<()> {
    let bits = s.bits();
    let ty = match bits {
        8 => "u8",
        16 => "u16",
        32 => "u32",
        _ => "u64",
    };
    if s.is_float() {
        let t = if bits == 64 { "f64" } else { "f32" };
        if op != RmwOp::FAdd && op != RmwOp::Xchg {
            return Err(e.unsupported(format!("atomic `{}` on {}", op.name(), s.name())));
        }
        e.ins(format!("ld.local.{t} {dr}, [{pr}]"));
        if op == RmwOp::Xchg {
            e.ins(format!("st.local.{t} [{pr}], {vr}"));
        } else {
            let n = e.tmp(if bits == 64 { Rc::F64 } else { Rc::F32 });
            e.ins(format!("add.rn.{t} {n}, {dr}, {vr}"));
            e.ins(format!("st.local.{t} [{pr}], {n}"));
        }
        return Ok(());
    }
    e.ins(format!("ld.local.{ty} {dr}, [{pr}]"));
    let n = apply(e, op, bits, dr, vr)?;
    e.ins(format!("st.local.{ty} [{pr}], {n}"));
    Ok(())
}

/// A compare-exchange on private memory: `dr` gets the old value; stores when it matches.
pub fn private_cas(e: &mut FnEmitter, s: Scalar, dr: &str, pr: &str, er: &str, nr: &str) {
    let bits = s.bits();
    let (ty, cmp) = match bits {
        8 => ("u8", "u32"),
        16 => ("u16", "u32"),
        32 => ("u32", "u32"),
        _ => ("u64", "u64"),
    };
    let p = e.tmp(Rc::Pred);
    e.ins(format!("ld.local.{ty} {dr}, [{pr}]"));
    let x = if bits < 32 {
        e.zext32(er, bits)
    } else {
        er.to_string()
    };
    e.ins(format!("setp.eq.{cmp} {p}, {dr}, {x}"));
    e.ins(format!("@{p} st.local.{ty} [{pr}], {nr}"));
}

/// The aligned word address, the bit shift and the in-word mask of a narrow value at `pr`.
fn word(e: &mut FnEmitter, pr: &str, bits: u32) -> (String, String, String) {
    let (a, lo, sh, m) = (
        e.tmp(Rc::B64),
        e.tmp(Rc::B32),
        e.tmp(Rc::B32),
        e.tmp(Rc::B32),
    );
    e.ins(format!("and.b64 {a}, {pr}, -4"));
    e.ins(format!("cvt.u32.u64 {lo}, {pr}"));
    e.ins(format!("and.b32 {sh}, {lo}, 3"));
    e.ins(format!("shl.b32 {sh}, {sh}, 3"));
    e.ins(format!("mov.b32 {m}, {}", (1u64 << bits) - 1));
    e.ins(format!("shl.b32 {m}, {m}, {sh}"));
    (a, sh, m)
}

/// An 8- or 16-bit read-modify-write through a 32-bit CAS loop (`sp` the state-space suffix,
/// `sem` the `.sem.scope` of the CAS): `dr` gets the old value, zero-extended.
#[allow(clippy::too_many_arguments)]
pub fn narrow_rmw(
    e: &mut FnEmitter,
    op: RmwOp,
    bits: u32,
    sem: &str,
    sp: &str,
    dr: &str,
    pr: &str,
    vr: &str,
) -> R<()> {
    let (a, sh, m) = word(e, pr, bits);
    let (old, prev, t) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::B32));
    let p = e.tmp(Rc::Pred);
    e.ins(format!("ld{sp}.u32 {old}, [{a}]"));
    let top = e.fresh_label();
    e.label(&top);
    e.ins(format!("shr.b32 {dr}, {old}, {sh}"));
    e.ins(format!("and.b32 {dr}, {dr}, {}", (1u64 << bits) - 1));
    let n = apply(e, op, bits, dr, vr)?;
    e.ins(format!("and.b32 {t}, {n}, {}", (1u64 << bits) - 1));
    e.ins(format!("shl.b32 {t}, {t}, {sh}"));
    e.ins(format!("not.b32 {n}, {m}"));
    e.ins(format!("and.b32 {n}, {old}, {n}"));
    e.ins(format!("or.b32 {t}, {t}, {n}"));
    e.ins(format!("atom{sem}{sp}.cas.b32 {prev}, [{a}], {old}, {t}"));
    e.ins(format!("setp.ne.u32 {p}, {prev}, {old}"));
    e.ins(format!("mov.b32 {old}, {prev}"));
    e.ins(format!("@{p} bra {top}"));
    Ok(())
}

/// An 8- or 16-bit compare-exchange through a 32-bit CAS loop: `dr` gets the old value.
#[allow(clippy::too_many_arguments)]
pub fn narrow_cas(
    e: &mut FnEmitter,
    bits: u32,
    sem: &str,
    sp: &str,
    dr: &str,
    pr: &str,
    er: &str,
    nr: &str,
) {
    let (a, sh, m) = word(e, pr, bits);
    let (old, prev, t, x) = (
        e.tmp(Rc::B32),
        e.tmp(Rc::B32),
        e.tmp(Rc::B32),
        e.tmp(Rc::B32),
    );
    let p = e.tmp(Rc::Pred);
    let full = (1u64 << bits) - 1;
    e.ins(format!("and.b32 {x}, {er}, {full}"));
    e.ins(format!("ld{sp}.u32 {old}, [{a}]"));
    let (top, end) = (e.fresh_label(), e.fresh_label());
    e.label(&top);
    e.ins(format!("shr.b32 {dr}, {old}, {sh}"));
    e.ins(format!("and.b32 {dr}, {dr}, {full}"));
    e.ins(format!("setp.ne.u32 {p}, {dr}, {x}"));
    e.ins(format!("@{p} bra {end}"));
    e.ins(format!("and.b32 {t}, {nr}, {full}"));
    e.ins(format!("shl.b32 {t}, {t}, {sh}"));
    e.ins(format!("not.b32 {prev}, {m}"));
    e.ins(format!("and.b32 {prev}, {old}, {prev}"));
    e.ins(format!("or.b32 {t}, {t}, {prev}"));
    e.ins(format!("atom{sem}{sp}.cas.b32 {prev}, [{a}], {old}, {t}"));
    e.ins(format!("setp.ne.u32 {p}, {prev}, {old}"));
    e.ins(format!("mov.b32 {old}, {prev}"));
    e.ins(format!("@{p} bra {top}"));
    e.label(&end);
}
