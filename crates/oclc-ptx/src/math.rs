//! Full-precision single-precision `exp*` and `log*` as PTX sequences (within OpenCL's
//! 3-ulp limits): the exponent's integer part is split off exactly in double precision and
//! only the reduced part goes through `ex2.approx` (2 ulp); logarithms are evaluated in
//! double precision with an atanh series and rounded once.

use crate::emit::FnEmitter;
use crate::regs::{Rc, float_literal};
use oclc_ir::Scalar;

fn d(x: f64) -> String {
    float_literal(Scalar::F64, x)
}

/// `exp2(x * scale)` for f32 `x`, where `scale` is 1, log2(e) or log2(10).
pub fn exp_f32(e: &mut FnEmitter, dst: &str, x: &str, scale: f64) {
    let (xd, t, n, fr) = (e.tmp(Rc::F64), e.tmp(Rc::F64), e.tmp(Rc::F64), e.tmp(Rc::F64));
    let (f, e1, p1, p2) = (e.tmp(Rc::F32), e.tmp(Rc::F32), e.tmp(Rc::F32), e.tmp(Rc::F32));
    let (ni, n1, n2) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::B32));
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
    // 2^n as two exact powers of two, so subnormal results are rounded once.
    e.ins(format!("cvt.rni.s32.f64 {ni}, {n}"));
    e.ins(format!("shr.s32 {n1}, {ni}, 1"));
    e.ins(format!("sub.s32 {n2}, {ni}, {n1}"));
    for (k, p) in [(&n1, &p1), (&n2, &p2)] {
        e.ins(format!("add.s32 {k}, {k}, 127"));
        e.ins(format!("shl.b32 {k}, {k}, 23"));
        e.ins(format!("mov.b32 {p}, {k}"));
    }
    e.ins(format!("mul.rn.f32 {e1}, {e1}, {p1}"));
    e.ins(format!("mul.rn.f32 {dst}, {e1}, {p2}"));
    e.ins(format!("testp.notanumber.f32 {nan}, {x}"));
    e.ins(format!("@{nan} add.f32 {dst}, {x}, {x}"));
}

/// Which logarithm [`log_f32`] computes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LogBase {
    E,
    Two,
    Ten,
}

/// `log`, `log2` or `log10` of f32 `x`, evaluated in double precision.
pub fn log_f32(e: &mut FnEmitter, dst: &str, x: &str, base: LogBase) {
    let (xd, m, s, s2, p, r) = (
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
        e.tmp(Rc::F64),
    );
    let (bits, eb) = (e.tmp(Rc::B64), e.tmp(Rc::B64));
    let (ex, exd) = (e.tmp(Rc::B32), e.tmp(Rc::F64));
    let (big, q) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
    e.ins(format!("cvt.f64.f32 {xd}, {x}"));
    e.ins(format!("mov.b64 {bits}, {xd}"));
    e.ins(format!("shr.u64 {eb}, {bits}, 52"));
    e.ins(format!("and.b64 {eb}, {eb}, 2047"));
    e.ins(format!("cvt.u32.u64 {ex}, {eb}"));
    e.ins(format!("sub.s32 {ex}, {ex}, 1023"));
    e.ins(format!("and.b64 {bits}, {bits}, 0x000FFFFFFFFFFFFF"));
    e.ins(format!("or.b64 {bits}, {bits}, 0x3FF0000000000000"));
    e.ins(format!("mov.b64 {m}, {bits}"));
    // m in [sqrt(1/2), sqrt(2)) keeps the series argument below 0.172.
    e.ins(format!("setp.gt.f64 {big}, {m}, {}", d(std::f64::consts::SQRT_2)));
    e.ins(format!("@{big} mul.rn.f64 {m}, {m}, {}", d(0.5)));
    e.ins(format!("@{big} add.s32 {ex}, {ex}, 1"));
    e.ins(format!("cvt.rn.f64.s32 {exd}, {ex}"));
    // ln(m) = 2 atanh(s), s = (m - 1) / (m + 1).
    e.ins(format!("add.rn.f64 {p}, {m}, {}", d(1.0)));
    e.ins(format!("sub.rn.f64 {s}, {m}, {}", d(1.0)));
    e.ins(format!("div.rn.f64 {s}, {s}, {p}"));
    e.ins(format!("mul.rn.f64 {s2}, {s}, {s}"));
    e.ins(format!("mov.f64 {p}, {}", d(1.0 / 15.0)));
    for k in [13.0, 11.0, 9.0, 7.0, 5.0, 3.0, 1.0] {
        e.ins(format!("fma.rn.f64 {p}, {p}, {s2}, {}", d(1.0 / k)));
    }
    e.ins(format!("mul.rn.f64 {p}, {p}, {s}"));
    e.ins(format!("add.rn.f64 {p}, {p}, {p}"));
    match base {
        LogBase::E => e.ins(format!("fma.rn.f64 {r}, {exd}, {}, {p}", d(std::f64::consts::LN_2))),
        LogBase::Two => e.ins(format!("fma.rn.f64 {r}, {p}, {}, {exd}", d(std::f64::consts::LOG2_E))),
        LogBase::Ten => {
            e.ins(format!("fma.rn.f64 {r}, {exd}, {}, {p}", d(std::f64::consts::LN_2)));
            e.ins(format!("mul.rn.f64 {r}, {r}, {}", d(std::f64::consts::LOG10_E)));
        }
    }
    e.ins(format!("cvt.rn.f32.f64 {dst}, {r}"));
    // Zero gives -inf, negatives NaN, +inf and NaN themselves.
    let inf = float_literal(Scalar::F32, f64::INFINITY);
    e.ins(format!("setp.eq.f32 {q}, {x}, 0f00000000"));
    e.ins(format!("@{q} mov.f32 {dst}, 0fFF800000"));
    e.ins(format!("setp.lt.f32 {q}, {x}, 0f00000000"));
    e.ins(format!("@{q} mov.f32 {dst}, 0f7FFFFFFF"));
    e.ins(format!("setp.eq.f32 {q}, {x}, {inf}"));
    e.ins(format!("@{q} mov.f32 {dst}, {x}"));
    e.ins(format!("testp.notanumber.f32 {q}, {x}"));
    e.ins(format!("@{q} add.f32 {dst}, {x}, {x}"));
}
