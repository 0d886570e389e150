//! [`DOps`] as PTX text: every operation one instruction into a fresh virtual register of the
//! function being emitted, and the entry points the builtin emitter calls for double math.

use crate::dmath::{self, Cmp, DOps, Shape};
use crate::emit::FnEmitter;
use crate::regs::{Rc, float_literal};
use oclc_ir::Scalar;

/// A register of [`Ptx`]: an index into its register names.
#[derive(Clone, Copy, Debug)]
pub struct Reg(usize);

/// Emits [`DOps`] into a [`FnEmitter`].
pub struct Ptx<'e, 'a> {
    e: &'e mut FnEmitter<'a>,
    names: Vec<String>,
}

impl<'e, 'a> Ptx<'e, 'a> {
    pub fn new(e: &'e mut FnEmitter<'a>) -> Self {
        Ptx {
            e,
            names: Vec::new(),
        }
    }

    /// An existing register as a value.
    pub fn input(&mut self, name: &str) -> Reg {
        self.names.push(name.to_string());
        Reg(self.names.len() - 1)
    }

    /// The register's name.
    pub fn name(&self, r: Reg) -> String {
        self.names.get(r.0).cloned().unwrap_or_default()
    }

    fn out(&mut self, rc: Rc, f: impl FnOnce(&str) -> String) -> Reg {
        let d = self.e.tmp(rc);
        let line = f(&d);
        self.e.ins(line);
        self.input(&d)
    }

    fn un(&mut self, rc: Rc, op: &str, a: Reg) -> Reg {
        let a = self.name(a);
        self.out(rc, |d| format!("{op} {d}, {a}"))
    }

    fn bin(&mut self, rc: Rc, op: &str, a: Reg, b: Reg) -> Reg {
        let (a, b) = (self.name(a), self.name(b));
        self.out(rc, |d| format!("{op} {d}, {a}, {b}"))
    }
}

impl DOps for Ptx<'_, '_> {
    type F = Reg;
    type I = Reg;
    type L = Reg;
    type P = Reg;

    fn f(&mut self, v: f64) -> Reg {
        let lit = float_literal(Scalar::F64, v);
        self.out(Rc::F64, |d| format!("mov.f64 {d}, {lit}"))
    }
    fn i(&mut self, v: i32) -> Reg {
        self.out(Rc::B32, |d| format!("mov.b32 {d}, 0x{:08X}", v as u32))
    }
    fn l(&mut self, v: u64) -> Reg {
        self.out(Rc::B64, |d| format!("mov.b64 {d}, 0x{v:016X}"))
    }
    fn add(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "add.rn.f64", a, b)
    }
    fn sub(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "sub.rn.f64", a, b)
    }
    fn mul(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "mul.rn.f64", a, b)
    }
    fn div(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "div.rn.f64", a, b)
    }
    fn fma(&mut self, a: Reg, b: Reg, c: Reg) -> Reg {
        let (a, b, c) = (self.name(a), self.name(b), self.name(c));
        self.out(Rc::F64, |d| format!("fma.rn.f64 {d}, {a}, {b}, {c}"))
    }
    fn sqrt(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "sqrt.rn.f64", a)
    }
    fn neg(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "neg.f64", a)
    }
    fn abs(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "abs.f64", a)
    }
    fn min(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "min.f64", a, b)
    }
    fn max(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::F64, "max.f64", a, b)
    }
    fn copysign(&mut self, mag: Reg, sgn: Reg) -> Reg {
        // PTX's copysign takes the sign source first.
        self.bin(Rc::F64, "copysign.f64", sgn, mag)
    }
    fn rint(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "cvt.rni.f64.f64", a)
    }
    fn trunc(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "cvt.rzi.f64.f64", a)
    }
    fn floor(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "cvt.rmi.f64.f64", a)
    }
    fn f2i(&mut self, a: Reg) -> Reg {
        self.un(Rc::B32, "cvt.rni.s32.f64", a)
    }
    fn f2i_rz(&mut self, a: Reg) -> Reg {
        self.un(Rc::B32, "cvt.rzi.s32.f64", a)
    }
    fn i2f(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "cvt.rn.f64.s32", a)
    }
    fn l2f(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "cvt.rn.f64.u64", a)
    }
    fn bits(&mut self, a: Reg) -> Reg {
        self.un(Rc::B64, "mov.b64", a)
    }
    fn bitsf(&mut self, a: Reg) -> Reg {
        self.un(Rc::F64, "mov.b64", a)
    }
    fn ladd(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "add.s64", a, b)
    }
    fn lsub(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "sub.s64", a, b)
    }
    fn land(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "and.b64", a, b)
    }
    fn lor(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "or.b64", a, b)
    }
    fn lxor(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "xor.b64", a, b)
    }
    fn lshl(&mut self, a: Reg, n: Reg) -> Reg {
        self.bin(Rc::B64, "shl.b64", a, n)
    }
    fn lshr(&mut self, a: Reg, n: Reg) -> Reg {
        self.bin(Rc::B64, "shr.u64", a, n)
    }
    fn lmul(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "mul.lo.u64", a, b)
    }
    fn lmulhi(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "mul.hi.u64", a, b)
    }
    fn ldiv(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "div.u64", a, b)
    }
    fn lrem(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B64, "rem.u64", a, b)
    }
    fn lclz(&mut self, a: Reg) -> Reg {
        self.un(Rc::B32, "clz.b64", a)
    }
    fn l2i(&mut self, a: Reg) -> Reg {
        self.un(Rc::B32, "cvt.u32.u64", a)
    }
    fn i2l(&mut self, a: Reg) -> Reg {
        self.un(Rc::B64, "cvt.s64.s32", a)
    }
    fn iadd(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B32, "add.s32", a, b)
    }
    fn isub(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B32, "sub.s32", a, b)
    }
    fn iand(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B32, "and.b32", a, b)
    }
    fn ishr(&mut self, a: Reg, n: u32) -> Reg {
        let a = self.name(a);
        let n = n.min(31);
        self.out(Rc::B32, |d| format!("shr.s32 {d}, {a}, {n}"))
    }
    fn imin(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B32, "min.s32", a, b)
    }
    fn imax(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::B32, "max.s32", a, b)
    }
    fn idiv(&mut self, a: Reg, d: i32) -> Reg {
        let a = self.name(a);
        self.out(Rc::B32, |r| format!("div.s32 {r}, {a}, {d}"))
    }
    fn fcmp(&mut self, c: Cmp, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::Pred, &format!("setp.{}.f64", c.ptx()), a, b)
    }
    fn icmp(&mut self, c: Cmp, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::Pred, &format!("setp.{}.s32", c.ptx()), a, b)
    }
    fn lcmp(&mut self, c: Cmp, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::Pred, &format!("setp.{}.u64", c.ptx()), a, b)
    }
    fn isnan(&mut self, a: Reg) -> Reg {
        self.un(Rc::Pred, "testp.notanumber.f64", a)
    }
    fn isinf(&mut self, a: Reg) -> Reg {
        self.un(Rc::Pred, "testp.infinite.f64", a)
    }
    fn pand(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::Pred, "and.pred", a, b)
    }
    fn por(&mut self, a: Reg, b: Reg) -> Reg {
        self.bin(Rc::Pred, "or.pred", a, b)
    }
    fn pnot(&mut self, a: Reg) -> Reg {
        self.un(Rc::Pred, "not.pred", a)
    }
    fn sel(&mut self, p: Reg, a: Reg, b: Reg) -> Reg {
        let (p, a, b) = (self.name(p), self.name(a), self.name(b));
        self.out(Rc::F64, |d| format!("selp.f64 {d}, {a}, {b}, {p}"))
    }
    fn seli(&mut self, p: Reg, a: Reg, b: Reg) -> Reg {
        let (p, a, b) = (self.name(p), self.name(a), self.name(b));
        self.out(Rc::B32, |d| format!("selp.b32 {d}, {a}, {b}, {p}"))
    }
    fn sell(&mut self, p: Reg, a: Reg, b: Reg) -> Reg {
        let (p, a, b) = (self.name(p), self.name(a), self.name(b));
        self.out(Rc::B64, |d| format!("selp.b64 {d}, {a}, {b}, {p}"))
    }
    fn tab(&mut self, k: Reg) -> Reg {
        let (lo, hi) = (self.i(0), self.i(dmath::TWO_OVER_PI.len() as i32 - 1));
        let k = self.imax(k, lo);
        let k = self.imin(k, hi);
        let base = self.out(Rc::B64, |d| format!("mov.u64 {d}, __oclc_2_over_pi_d"));
        let k = self.name(k);
        let off = self.out(Rc::B64, |d| format!("mul.wide.s32 {d}, {k}, 8"));
        let addr = self.ladd(base, off);
        let a = self.name(addr);
        self.out(Rc::B64, |d| format!("ld.const.u64 {d}, [{a}]"))
    }
    fn repeat<const K: usize>(
        &mut self,
        count: Reg,
        init: [Reg; K],
        mut body: impl FnMut(&mut Self, [Reg; K]) -> [Reg; K],
    ) -> [Reg; K] {
        let state: [Reg; K] = init.map(|v| self.un(Rc::B64, "mov.b64", v));
        let cnt = self.un(Rc::B32, "mov.b32", count);
        let (c, p) = (self.name(cnt), self.e.tmp(Rc::Pred));
        let (top, end) = (self.e.fresh_label(), self.e.fresh_label());
        self.e.ins(format!("setp.le.s32 {p}, {c}, 0"));
        self.e.ins(format!("@{p} bra {end}"));
        self.e.label(&top);
        let next = body(self, state);
        // Through temporaries: an output may be another state register.
        let moved: [Reg; K] = next.map(|v| self.un(Rc::B64, "mov.b64", v));
        for (s, m) in state.iter().zip(moved.iter()) {
            let (s, m) = (self.name(*s), self.name(*m));
            self.e.ins(format!("mov.b64 {s}, {m}"));
        }
        self.e.ins(format!("sub.s32 {c}, {c}, 1"));
        self.e.ins(format!("setp.gt.s32 {p}, {c}, 0"));
        self.e.ins(format!("@{p} bra {top}"));
        self.e.label(&end);
        state
    }
}

/// Result registers of one double builtin (see [`dmath::Out`]).
pub struct Emitted {
    pub value: Option<String>,
    pub int: Option<String>,
    pub second: Option<String>,
}

/// Emits double builtin `name` on registers `x` and, where its shape has them, `y` (double)
/// or `n` (s32); `nan` takes its b64 code in `x`. None when [`dmath::shape`] does not know it.
pub fn emit(
    e: &mut FnEmitter,
    name: &str,
    x: &str,
    y: Option<&str>,
    n: Option<&str>,
) -> Option<Emitted> {
    let shape = dmath::shape(name)?;
    let mut p = Ptx::new(e);
    if shape == Shape::Nan {
        let xr = p.input(x);
        let m = p.l(0x0007_ffff_ffff_ffff);
        let q = p.l(0x7ff8_0000_0000_0000);
        let a = p.land(xr, m);
        let b = p.lor(a, q);
        let v = p.bitsf(b);
        return Some(Emitted {
            value: Some(p.name(v)),
            int: None,
            second: None,
        });
    }
    let xr = p.input(x);
    let yr = match y {
        Some(y) => p.input(y),
        None => xr,
    };
    let nr = match n {
        Some(n) => p.input(n),
        None => p.i(0),
    };
    let out = dmath::compute(&mut p, name, xr, yr, nr)?;
    Some(Emitted {
        value: out.value.map(|v| p.name(v)),
        int: out.int.map(|v| p.name(v)),
        second: out.second.map(|v| p.name(v)),
    })
}

/// Emits double builtin `name` of [`Shape::Unary`], [`Shape::Binary`], [`Shape::WithInt`],
/// [`Shape::IntResult`] or [`Shape::Nan`] into `dst` (an f64 register, s32 for `ilogb`);
/// false when it is not one of those.
pub fn emit_into(e: &mut FnEmitter, name: &str, dst: &str, args: &[String]) -> bool {
    let Some(shape) = dmath::shape(name) else {
        return false;
    };
    let Some(x) = args.first() else {
        return false;
    };
    let second = args.get(1).map(String::as_str);
    let (y, n) = match shape {
        Shape::Binary => (second, None),
        Shape::WithInt => (None, second),
        Shape::Unary | Shape::IntResult | Shape::Nan => (None, None),
        _ => return false,
    };
    if matches!(shape, Shape::Binary | Shape::WithInt) && second.is_none() {
        return false;
    }
    let Some(out) = emit(e, name, x, y, n) else {
        return false;
    };
    match (out.value, out.int) {
        (_, Some(i)) if shape == Shape::IntResult => e.ins(format!("mov.b32 {dst}, {i}")),
        (Some(v), _) => e.ins(format!("mov.f64 {dst}, {v}")),
        _ => return false,
    }
    true
}

/// `length`, `distance` or `normalize` of double lanes `xs` (and `ys` for distance):
/// registers holding the result lanes.
pub fn geometric(e: &mut FnEmitter, name: &str, xs: &[String], ys: &[String]) -> Vec<String> {
    let mut p = Ptx::new(e);
    let mut v: Vec<Reg> = xs.iter().map(|x| p.input(x)).collect();
    if name == "distance" {
        let w: Vec<Reg> = ys.iter().map(|y| p.input(y)).collect();
        v = v.iter().zip(&w).map(|(a, b)| p.sub(*a, *b)).collect();
    }
    let out = if name == "normalize" {
        crate::dmath_fns::normalize(&mut p, &v)
    } else {
        vec![crate::dmath_fns::length(&mut p, &v)]
    };
    out.iter().map(|r| p.name(*r)).collect()
}
