//! Work-group collectives (`work_group_reduce_*`, `scan_*`, `broadcast`, `all`, `any`): every
//! work-item writes its value into an 8-byte slot of the kernel's shared scratch, then reads
//! the slots it needs. A barrier after the writes publishes them; one after the reads frees
//! the slots for the next collective.

use crate::SHARED_RESERVED;
use crate::emit::{FnEmitter, R};
use crate::regs::{Rc, float_literal};
use oclc_ir::{Scalar, Value, WgArith, WgOp};

impl FnEmitter<'_> {
    pub fn work_group(&mut self, op: WgOp, value: Value, ids: &[Value], r: Value) -> R<()> {
        let s = self.elem(value)?;
        if self.ty(value)?.lanes() != 1
            || !matches!(s.bits(), 32 | 64) && !matches!(op, WgOp::All | WgOp::Any)
        {
            return Err(self.unsupported(format!("work-group collective on {}", self.ty(value)?)));
        }
        let dr = self.reg(r, 0)?;
        let vr = self.reg(value, 0)?;
        // Linear local id and group size.
        let (x, y, z) = (
            self.special("tid", 0),
            self.special("tid", 1),
            self.special("tid", 2),
        );
        let (nx, ny, nz) = (
            self.special("ntid", 0),
            self.special("ntid", 1),
            self.special("ntid", 2),
        );
        let (lid, n) = (self.tmp(Rc::B32), self.tmp(Rc::B32));
        self.ins(format!("mad.lo.u32 {lid}, {z}, {ny}, {y}"));
        self.ins(format!("mad.lo.u32 {lid}, {lid}, {nx}, {x}"));
        self.ins(format!("mul.lo.u32 {n}, {nx}, {ny}"));
        self.ins(format!("mul.lo.u32 {n}, {n}, {nz}"));
        let (base, slot, off) = (self.tmp(Rc::B64), self.tmp(Rc::B64), self.tmp(Rc::B64));
        self.ins(format!("mov.u64 {base}, __oclc_shared"));
        self.ins(format!("add.u64 {base}, {base}, {SHARED_RESERVED}"));
        self.ins(format!("mul.wide.u32 {off}, {lid}, 8"));
        self.ins(format!("add.u64 {slot}, {base}, {off}"));
        // What each work-item contributes: the value, or (all/any) 1 when it is non-zero.
        let (mt, rc) = match (op, s) {
            (WgOp::All | WgOp::Any, _) => ("u32", Rc::B32),
            (_, Scalar::F32) => ("f32", Rc::F32),
            (_, Scalar::F64) => ("f64", Rc::F64),
            (_, Scalar::I64) => ("u64", Rc::B64),
            _ => ("u32", Rc::B32),
        };
        let mine = match op {
            WgOp::All | WgOp::Any => {
                let t = self.tmp(Rc::B32);
                let p = self.tmp(Rc::Pred);
                match s {
                    Scalar::I64 => self.ins(format!("setp.ne.u64 {p}, {vr}, 0")),
                    Scalar::I1 => self.ins(format!("mov.pred {p}, {vr}")),
                    sc if sc.is_int() => {
                        let z = self.zext32(&vr, sc.bits());
                        self.ins(format!("setp.ne.u32 {p}, {z}, 0"));
                    }
                    _ => return Err(self.unsupported("work_group_all/any on a float")),
                }
                self.ins(format!("selp.u32 {t}, 1, 0, {p}"));
                t
            }
            _ => vr.clone(),
        };
        // The previous collective ended with a barrier after its reads, so the slots are free.
        self.ins(format!("st.shared.{mt} [{slot}], {mine}"));
        self.ins("bar.sync 0");
        if op == WgOp::Broadcast {
            let idx = self.tmp(Rc::B32);
            let regs: Vec<String> = ids.iter().map(|v| self.reg(*v, 0)).collect::<R<_>>()?;
            let i32s: Vec<String> = regs
                .iter()
                .map(|r| {
                    let t = self.tmp(Rc::B32);
                    self.ins(format!("cvt.u32.u64 {t}, {r}"));
                    t
                })
                .collect();
            match i32s.as_slice() {
                [a] => self.ins(format!("mov.b32 {idx}, {a}")),
                [a, b] => self.ins(format!("mad.lo.u32 {idx}, {b}, {nx}, {a}")),
                [a, b, c] => {
                    self.ins(format!("mad.lo.u32 {idx}, {c}, {ny}, {b}"));
                    self.ins(format!("mad.lo.u32 {idx}, {idx}, {nx}, {a}"));
                }
                _ => return Err(self.invalid("work_group_broadcast takes 1 to 3 local ids")),
            }
            self.ins(format!("mul.wide.u32 {off}, {idx}, 8"));
            self.ins(format!("add.u64 {off}, {base}, {off}"));
            self.ins(format!("ld.shared.{mt} {dr}, [{off}]"));
            self.ins("bar.sync 0");
            return Ok(());
        }
        // Fold slots [0, end) in order.
        let end = self.tmp(Rc::B32);
        match op {
            WgOp::ScanInclusive(_) => self.ins(format!("add.s32 {end}, {lid}, 1")),
            WgOp::ScanExclusive(_) => self.ins(format!("mov.b32 {end}, {lid}")),
            _ => self.ins(format!("mov.b32 {end}, {n}")),
        }
        let acc = self.tmp(rc);
        let (arith, identity) = match op {
            WgOp::All => (None, "1".to_string()),
            WgOp::Any => (None, "0".to_string()),
            WgOp::Reduce(a) | WgOp::ScanInclusive(a) | WgOp::ScanExclusive(a) => {
                (Some(a), identity(a, s))
            }
            WgOp::Broadcast => (None, String::new()),
        };
        self.ins(format!("mov.{} {acc}, {identity}", rc.mov()));
        let (k, p, item, at) = (
            self.tmp(Rc::B32),
            self.tmp(Rc::Pred),
            self.tmp(rc),
            self.tmp(Rc::B64),
        );
        let (top, done) = (self.fresh_label(), self.fresh_label());
        self.ins(format!("mov.b32 {k}, 0"));
        self.label(&top);
        self.ins(format!("setp.ge.u32 {p}, {k}, {end}"));
        self.ins(format!("@{p} bra {done}"));
        self.ins(format!("mul.wide.u32 {at}, {k}, 8"));
        self.ins(format!("add.u64 {at}, {base}, {at}"));
        self.ins(format!("ld.shared.{mt} {item}, [{at}]"));
        let bits = if s == Scalar::I64 || s == Scalar::F64 {
            64
        } else {
            32
        };
        let step = match (op, arith) {
            (WgOp::All, _) => format!("and.b32 {acc}, {acc}, {item}"),
            (WgOp::Any, _) => format!("or.b32 {acc}, {acc}, {item}"),
            (_, Some(WgArith::IAdd)) => format!("add.s{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::SMin)) => format!("min.s{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::SMax)) => format!("max.s{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::UMin)) => format!("min.u{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::UMax)) => format!("max.u{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::FAdd)) => format!("add.rn.f{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::FMin)) => format!("min.f{bits} {acc}, {acc}, {item}"),
            (_, Some(WgArith::FMax)) => format!("max.f{bits} {acc}, {acc}, {item}"),
            (_, None) => return Err(self.invalid("work-group collective without an operation")),
        };
        self.ins(step);
        self.ins(format!("add.s32 {k}, {k}, 1"));
        self.ins(format!("bra.uni {top}"));
        self.label(&done);
        self.ins(format!(
            "mov.{} {dr}, {acc}",
            Rc::of_type(self.ty(r)?).mov()
        ));
        self.ins("bar.sync 0");
        Ok(())
    }
}

/// The neutral element of a reduction, as a PTX literal.
fn identity(a: WgArith, s: Scalar) -> String {
    let wide = s.bits() == 64;
    match a {
        WgArith::IAdd | WgArith::UMax => "0".into(),
        WgArith::UMin => {
            if wide {
                u64::MAX.to_string()
            } else {
                u32::MAX.to_string()
            }
        }
        WgArith::SMin => {
            if wide {
                i64::MAX.to_string()
            } else {
                i32::MAX.to_string()
            }
        }
        WgArith::SMax => {
            if wide {
                i64::MIN.to_string()
            } else {
                i32::MIN.to_string()
            }
        }
        WgArith::FAdd => float_literal(s, -0.0),
        WgArith::FMin => float_literal(s, f64::INFINITY),
        WgArith::FMax => float_literal(s, f64::NEG_INFINITY),
    }
}
