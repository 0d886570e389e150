//! Full-precision single-precision `exp2`/`exp10` and `sin`/`cos`/`tan` as PTX sequences
//! (within OpenCL's limits): the exponent's integer part is split off exactly in double
//! precision and only the reduced part goes through `ex2.approx` (2 ulp); trigonometry past
//! [`crate::math_single`]'s fast range reduces exactly and evaluates in double precision.

use crate::emit::FnEmitter;
use crate::regs::{Rc, float_literal};
use oclc_ir::Scalar;

fn d(x: f64) -> String {
    float_literal(Scalar::F64, x)
}

/// `exp2(x * scale)` for f32 `x`, where `scale` is 1 or log2(10) (`exp2`, `exp10`).
pub fn exp_f32(e: &mut FnEmitter, dst: &str, x: &str, scale: f64) {
    let (xd, t, n, fr) = (
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
    );
    let (f, e1) = (e.tmp(Rc::F32), e.tmp(Rc::F32));
    let ni = e.tmp(Rc::B32);
    let nan = e.tmp(Rc::Pred);
    e.ins(format!("cvt.f64.f32 {xd}, {x}"));
    if scale == 1.0 {
        e.ins(format!("mov.f64 {t}, {xd}"));
    } else {
        e.ins(format!("mul.rn.f64 {t}, {xd}, {}", d(scale)));
    }
    // Beyond ±200 the result is 0 or infinity either way; the clamp keeps 2^n in range.
    e.ins(format!("max.f64 {t}, {t}, {}", d(-200.0)));
    e.ins(format!("min.f64 {t}, {t}, {}", d(200.0)));
    e.ins(format!("cvt.rni.f64.f64 {n}, {t}"));
    e.ins(format!("sub.rn.f64 {fr}, {t}, {n}"));
    e.ins(format!("cvt.rn.f32.f64 {f}, {fr}"));
    e.ins(format!("ex2.approx.f32 {e1}, {f}"));
    e.ins(format!("cvt.rni.s32.f64 {ni}, {n}"));
    crate::math_single::scale_by_power_of_two(e, dst, &e1, &ni);
    e.ins(format!("testp.notanumber.f32 {nan}, {x}"));
    e.ins(format!("@{nan} add.f32 {dst}, {x}, {x}"));
}

/// Module-scope table of 2/π for [`sincos_f32`]'s argument reduction: a zero word, then the
/// binary fraction of 2/π, 32 bits a word.
pub const TWO_OVER_PI_TABLE: &str = ".const .align 4 .u32 __oclc_2_over_pi[12] = {0x00000000, 0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA};";

/// The same for the double-precision reduction, 64 bits a word
/// ([`crate::dmath::TWO_OVER_PI`]).
pub const TWO_OVER_PI_TABLE_D: &str = ".const .align 8 .u64 __oclc_2_over_pi_d[23] = {0x0000000000000000, 0xA2F9836E4E441529, 0xFC2757D1F534DDC0, 0xDB6295993C439041, 0xFE5163ABDEBBC561, 0xB7246E3A424DD2E0, 0x06492EEA09D1921C, 0xFE1DEB1CB129A73E, 0xE88235F52EBB4484, 0xE99C7026B45F7E41, 0x3991D639835339F4, 0x9C845F8BBDF9283B, 0x1FF897FFDE05980F, 0xEF2F118B5A0A6D1F, 0x6D367ECF27CB09B7, 0x4F463F669E5FEA2D, 0x7527BAC7EBE5F17B, 0x3D0739F78A5292EA, 0x6BFB5FB11F8D5D08, 0x56033046FC7B6BAB, 0xF0CFBC209AF4361D, 0xA9E391615EE61B08, 0x6599855F14A06840};";

/// The 2/π tables a module's builtins read: the f32 one for single (and half) precision
/// `sin`/`cos`/`tan`/`sincos`, the f64 one for double precision.
pub fn trig_tables(builtins: &[oclc_ir::BuiltinDecl]) -> String {
    let mut out = String::new();
    let trig: Vec<_> = builtins
        .iter()
        .filter(|b| needs_trig_table(&b.name))
        .collect();
    let double =
        |b: &&oclc_ir::BuiltinDecl| b.params.first().and_then(|t| t.elem()) == Some(Scalar::F64);
    for (table, want) in [(TWO_OVER_PI_TABLE, false), (TWO_OVER_PI_TABLE_D, true)] {
        if trig.iter().any(|b| double(b) == want) {
            out.push_str(table);
            out.push_str("\n\n");
        }
    }
    out
}

/// Builtins that need [`TWO_OVER_PI_TABLE`].
pub fn needs_trig_table(name: &str) -> bool {
    matches!(name, "sin" | "cos" | "tan" | "sincos")
}

/// π/2 in two doubles: `PIO2_HI` its first 53 bits, `PIO2_LO` the next ones.
const PIO2_HI: f64 = std::f64::consts::FRAC_PI_2;
const PIO2_LO: f64 = 6.123_233_995_736_766e-17;

/// `sin`, `cos` (and `tan` = sin/cos) of f32 `x`: |x| reduced to a quadrant and a remainder
/// in [-π/4, π/4] (Cody–Waite in double below 2^17, else exact Payne–Hanek with 64-bit
/// integer arithmetic), then double precision polynomials, rounded once. Writes whichever of
/// `sin_dst`/`cos_dst` is given. `sin` and `cos` of arguments below
/// [`crate::math_single::SINCOS_FAST_LIMIT`] take single-precision arithmetic instead.
pub fn sincos_f32(
    e: &mut FnEmitter,
    x: &str,
    sin_dst: Option<&str>,
    cos_dst: Option<&str>,
    tan_dst: Option<&str>,
) {
    if tan_dst.is_some() {
        return sincos_reduced_in_double(e, x, sin_dst, cos_dst, tan_dst);
    }
    let (slow, end) = (e.fresh_label(), e.fresh_label());
    crate::math_single::sincos(e, x, sin_dst, cos_dst, &slow);
    e.cold(|e| {
        e.label(&slow);
        sincos_reduced_in_double(e, x, sin_dst, cos_dst, None);
        e.ins(format!("bra.uni {end}"));
    });
    e.label(&end);
}

/// [`sincos_f32`] for any argument: the reduction and polynomials in double precision.
fn sincos_reduced_in_double(
    e: &mut FnEmitter,
    x: &str,
    sin_dst: Option<&str>,
    cos_dst: Option<&str>,
    tan_dst: Option<&str>,
) {
    let b32 = |e: &mut FnEmitter| e.tmp(Rc::B32);
    let (bits, ex, m, start, wi, sh) = (b32(e), b32(e), b32(e), b32(e), b32(e), b32(e));
    let w: Vec<String> = (0..4).map(|_| b32(e)).collect();
    let (w0, w1, w2) = (b32(e), b32(e), b32(e));
    let (base, p0, p1, p2, lo, a, fr) = (
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
    );
    let (top, q, c, t) = (b32(e), b32(e), b32(e), b32(e));
    let (r, r2, ps, pc, xd, s, co) = (
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
    );
    let (small, carry, odd, neg, fin) = (
        e.tmp(Rc::Pred),
        e.tmp(Rc::Pred),
        e.tmp(Rc::Pred),
        e.tmp(Rc::Pred),
        e.tmp(Rc::Pred),
    );
    // Below 2^17 (every |x| of a usual kernel) a Cody–Waite reduction in double with π/2 in
    // two parts is exact to far below an f32 ulp: k = rint(|x|·2/π) < 2^17, r = |x| - k·π/2.
    // Larger arguments take the exact Payne–Hanek reduction (a branch: warps rarely diverge).
    let (big, done, fast) = (e.fresh_label(), e.fresh_label(), e.tmp(Rc::Pred));
    e.ins(format!("cvt.f64.f32 {xd}, {x}"));
    e.ins(format!("abs.f64 {xd}, {xd}"));
    e.ins(format!("setp.lt.f64 {fast}, {xd}, {}", d(131_072.0)));
    e.ins(format!("@!{fast} bra {big}"));
    e.ins(format!(
        "mul.rn.f64 {r}, {xd}, {}",
        d(std::f64::consts::FRAC_2_PI)
    ));
    e.ins(format!("cvt.rni.f64.f64 {r2}, {r}"));
    e.ins(format!("cvt.rni.s32.f64 {q}, {r2}"));
    e.ins(format!("fma.rn.f64 {r}, {r2}, {}, {xd}", d(-PIO2_HI)));
    e.ins(format!("fma.rn.f64 {r}, {r2}, {}, {r}", d(-PIO2_LO)));
    e.ins(format!("bra.uni {done}"));
    e.label(&big);
    // |x| = M · 2^(exp-150); the window of 2/π that matters starts at bit exp-120 of the
    // table (the leading zero word absorbs small exponents).
    e.ins(format!("mov.b32 {bits}, {x}"));
    e.ins(format!("bfe.u32 {ex}, {bits}, 23, 8"));
    e.ins(format!("and.b32 {m}, {bits}, 0x007FFFFF"));
    e.ins(format!("or.b32 {m}, {m}, 0x00800000"));
    e.ins(format!("max.u32 {start}, {ex}, 120"));
    e.ins(format!("sub.s32 {start}, {start}, 120"));
    e.ins(format!("shr.u32 {wi}, {start}, 5"));
    e.ins(format!("and.b32 {sh}, {start}, 31"));
    e.ins("mov.u64 %trig_base, __oclc_2_over_pi".replace("%trig_base", &base));
    e.ins(format!("mul.wide.u32 {a}, {wi}, 4"));
    e.ins(format!("add.s64 {base}, {base}, {a}"));
    for (k, wk) in w.iter().enumerate() {
        e.ins(format!("ld.const.u32 {wk}, [{base}+{}]", 4 * k));
    }
    e.ins(format!("shf.l.clamp.b32 {w0}, {}, {}, {sh}", w[1], w[0]));
    e.ins(format!("shf.l.clamp.b32 {w1}, {}, {}, {sh}", w[2], w[1]));
    e.ins(format!("shf.l.clamp.b32 {w2}, {}, {}, {sh}", w[3], w[2]));
    // M × window mod 2^96: two quadrant bits, then the fraction.
    e.ins(format!("mul.wide.u32 {p2}, {m}, {w2}"));
    e.ins(format!("mul.wide.u32 {p1}, {m}, {w1}"));
    e.ins(format!("mul.lo.u32 {top}, {m}, {w0}"));
    e.ins(format!("shl.b64 {a}, {p1}, 32"));
    e.ins(format!("add.s64 {lo}, {p2}, {a}"));
    e.ins(format!("setp.lt.u64 {carry}, {lo}, {a}"));
    e.ins(format!("shr.u64 {p0}, {p1}, 32"));
    e.ins(format!("cvt.u32.u64 {t}, {p0}"));
    e.ins(format!("add.s32 {top}, {top}, {t}"));
    e.ins(format!("@{carry} add.s32 {top}, {top}, 1"));
    e.ins(format!("shr.u32 {q}, {top}, 30"));
    e.ins(format!("cvt.u64.u32 {fr}, {top}"));
    e.ins(format!("shl.b64 {fr}, {fr}, 34"));
    e.ins(format!("shr.u64 {a}, {lo}, 30"));
    e.ins(format!("or.b64 {fr}, {fr}, {a}"));
    // A fraction of one half or more rounds to the next quadrant (signed remainder).
    e.ins(format!("shr.u64 {a}, {fr}, 63"));
    e.ins(format!("cvt.u32.u64 {t}, {a}"));
    e.ins(format!("add.s32 {q}, {q}, {t}"));
    e.ins(format!("cvt.rn.f64.s64 {r}, {fr}"));
    e.ins(format!(
        "mul.rn.f64 {r}, {r}, {}",
        d(std::f64::consts::FRAC_PI_2 / 18446744073709551616.0)
    ));
    // Small arguments need no reduction.
    e.ins(format!("setp.lt.f64 {small}, {xd}, {}", d(0.78)));
    e.ins(format!("@{small} mov.f64 {r}, {xd}"));
    e.ins(format!("@{small} mov.b32 {q}, 0"));
    e.label(&done);
    // Taylor polynomials on |r| <= π/4: sin to r^11 (next term below 1e-11 relative),
    // cos to r^12 (below 1e-12), far inside one f32 rounding.
    e.ins(format!("mul.rn.f64 {r2}, {r}, {r}"));
    e.ins(format!("mov.f64 {ps}, {}", d(-1.0 / 39_916_800.0)));
    for k in [362_880.0, -5040.0, 120.0, -6.0] {
        e.ins(format!("fma.rn.f64 {ps}, {ps}, {r2}, {}", d(1.0 / k)));
    }
    e.ins(format!("mul.rn.f64 {ps}, {ps}, {r2}"));
    e.ins(format!("fma.rn.f64 {ps}, {ps}, {r}, {r}"));
    e.ins(format!("mov.f64 {pc}, {}", d(1.0 / 479_001_600.0)));
    for k in [-3_628_800.0, 40_320.0, -720.0, 24.0, -2.0] {
        e.ins(format!("fma.rn.f64 {pc}, {pc}, {r2}, {}", d(1.0 / k)));
    }
    e.ins(format!("fma.rn.f64 {pc}, {pc}, {r2}, {}", d(1.0)));
    // Quadrant q: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s).
    e.ins(format!("and.b32 {c}, {q}, 1"));
    e.ins(format!("setp.ne.u32 {odd}, {c}, 0"));
    e.ins(format!("selp.f64 {s}, {pc}, {ps}, {odd}"));
    e.ins(format!("selp.f64 {co}, {ps}, {pc}, {odd}"));
    e.ins(format!("and.b32 {c}, {q}, 2"));
    e.ins(format!("setp.ne.u32 {neg}, {c}, 0"));
    e.ins(format!("@{neg} neg.f64 {s}, {s}"));
    e.ins(format!("add.s32 {c}, {q}, 1"));
    e.ins(format!("and.b32 {c}, {c}, 2"));
    e.ins(format!("setp.ne.u32 {neg}, {c}, 0"));
    e.ins(format!("@{neg} neg.f64 {co}, {co}"));
    // sin is odd: the sign of x.
    e.ins(format!("setp.lt.f32 {neg}, {x}, 0f00000000"));
    e.ins(format!("@{neg} neg.f64 {s}, {s}"));
    e.ins(format!("testp.finite.f32 {fin}, {x}"));
    let nan = "0f7FFFFFFF";
    if let Some(dst) = sin_dst {
        e.ins(format!("cvt.rn.f32.f64 {dst}, {s}"));
        // sin(±0) is ±0; infinities and NaN give NaN.
        e.ins(format!("setp.eq.f32 {odd}, {x}, 0f00000000"));
        e.ins(format!("@{odd} mov.f32 {dst}, {x}"));
        e.ins(format!("@!{fin} mov.f32 {dst}, {nan}"));
    }
    if let Some(dst) = cos_dst {
        e.ins(format!("cvt.rn.f32.f64 {dst}, {co}"));
        e.ins(format!("@!{fin} mov.f32 {dst}, {nan}"));
    }
    if let Some(dst) = tan_dst {
        e.ins(format!("div.rn.f64 {s}, {s}, {co}"));
        e.ins(format!("cvt.rn.f32.f64 {dst}, {s}"));
        e.ins(format!("setp.eq.f32 {odd}, {x}, 0f00000000"));
        e.ins(format!("@{odd} mov.f32 {dst}, {x}"));
        e.ins(format!("@!{fin} mov.f32 {dst}, {nan}"));
    }
}
