//! Full-precision single-precision math evaluated in double precision: a few double cores
//! (`exp`, `expm1`, `log`, `log1p`, `atan`, `sinpi`/`cospi`, Lanczos gamma) good to a few
//! double ulps, composed and rounded once to f32, which keeps every function well inside the
//! OpenCL full-profile ULP limits. Special values are patched with predicated moves.

use crate::emit::FnEmitter;
use crate::error::PtxError;
use crate::regs::{Rc, float_literal};
use oclc_ir::{Scalar, Value};
use std::f64::consts::{FRAC_1_PI, FRAC_PI_2, LOG2_E, PI};

/// ln 2 split so that n·LN2_HI is exact for |n| < 2^21 (fdlibm's constants).
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);

fn d(x: f64) -> String {
    float_literal(Scalar::F64, x)
}

fn fd(e: &mut FnEmitter) -> String {
    e.tmp(Rc::F64)
}

fn pr(e: &mut FnEmitter) -> String {
    e.tmp(Rc::Pred)
}

/// `dst = c[0]; dst = dst * x + c[k]` for the rest (highest degree first).
fn horner(e: &mut FnEmitter, x: &str, c: &[f64]) -> String {
    let p = fd(e);
    e.ins(format!(
        "mov.f64 {p}, {}",
        d(c.first().copied().unwrap_or(0.0))
    ));
    for k in c.iter().skip(1) {
        e.ins(format!("fma.rn.f64 {p}, {p}, {x}, {}", d(*k)));
    }
    p
}

/// Taylor coefficients 1/k! for k = hi..=lo, highest first.
fn inv_factorials(hi: u32, lo: u32) -> Vec<f64> {
    let fact = |k: u32| (1..=k).map(f64::from).product::<f64>();
    (lo..=hi).rev().map(|k| 1.0 / fact(k)).collect()
}

fn widen(e: &mut FnEmitter, x: &str) -> String {
    let r = fd(e);
    e.ins(format!("cvt.f64.f32 {r}, {x}"));
    r
}

/// e^x in double: n = rint(x/ln2), Cody–Waite reduction, degree-13 Taylor, 2^n in two steps.
pub fn exp_d(e: &mut FnEmitter, x: &str) -> String {
    let (t, n, r) = (fd(e), fd(e), fd(e));
    e.ins(format!("max.f64 {t}, {x}, {}", d(-1000.0)));
    e.ins(format!("min.f64 {t}, {t}, {}", d(1000.0)));
    e.ins(format!("mul.rn.f64 {n}, {t}, {}", d(LOG2_E)));
    e.ins(format!("cvt.rni.f64.f64 {n}, {n}"));
    e.ins(format!("fma.rn.f64 {r}, {n}, {}, {t}", d(-LN2_HI)));
    e.ins(format!("fma.rn.f64 {r}, {n}, {}, {r}", d(-LN2_LO)));
    let p = horner(e, &r, &inv_factorials(13, 0));
    let ni = e.tmp(Rc::B32);
    e.ins(format!("cvt.rni.s32.f64 {ni}, {n}"));
    let (n1, n2) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
    e.ins(format!("shr.s32 {n1}, {ni}, 1"));
    e.ins(format!("sub.s32 {n2}, {ni}, {n1}"));
    for k in [&n1, &n2] {
        let (w, f) = (e.tmp(Rc::B64), fd(e));
        e.ins(format!("cvt.s64.s32 {w}, {k}"));
        e.ins(format!("add.s64 {w}, {w}, 1023"));
        e.ins(format!("shl.b64 {w}, {w}, 52"));
        e.ins(format!("mov.b64 {f}, {w}"));
        e.ins(format!("mul.rn.f64 {p}, {p}, {f}"));
    }
    let nan = pr(e);
    e.ins(format!("testp.notanumber.f64 {nan}, {x}"));
    e.ins(format!("@{nan} add.f64 {p}, {x}, {x}"));
    p
}

/// e^x - 1 in double: Taylor below |x| = 0.3 (no cancellation), `exp_d(x) - 1` above.
pub fn expm1_d(e: &mut FnEmitter, x: &str) -> String {
    let big = exp_d(e, x);
    e.ins(format!("sub.rn.f64 {big}, {big}, {}", d(1.0)));
    let p = horner(e, x, &inv_factorials(15, 1));
    e.ins(format!("mul.rn.f64 {p}, {p}, {x}"));
    let (a, q) = (fd(e), pr(e));
    e.ins(format!("abs.f64 {a}, {x}"));
    e.ins(format!("setp.lt.f64 {q}, {a}, {}", d(0.3)));
    e.ins(format!("selp.f64 {p}, {p}, {big}, {q}"));
    p
}

/// ln x in double for x = 0, normal, infinite or NaN: x = m·2^k with m in [√½, √2), then
/// ln m = 2 atanh((m-1)/(m+1)) by its series.
pub fn log_d(e: &mut FnEmitter, x: &str) -> String {
    let (bits, eb) = (e.tmp(Rc::B64), e.tmp(Rc::B64));
    let (ex, exd, m, s, s2, den) = (e.tmp(Rc::B32), fd(e), fd(e), fd(e), fd(e), fd(e));
    let (big, q) = (pr(e), pr(e));
    e.ins(format!("mov.b64 {bits}, {x}"));
    e.ins(format!("shr.u64 {eb}, {bits}, 52"));
    e.ins(format!("and.b64 {eb}, {eb}, 2047"));
    e.ins(format!("cvt.u32.u64 {ex}, {eb}"));
    e.ins(format!("sub.s32 {ex}, {ex}, 1023"));
    e.ins(format!("and.b64 {bits}, {bits}, 0x000FFFFFFFFFFFFF"));
    e.ins(format!("or.b64 {bits}, {bits}, 0x3FF0000000000000"));
    e.ins(format!("mov.b64 {m}, {bits}"));
    e.ins(format!(
        "setp.gt.f64 {big}, {m}, {}",
        d(std::f64::consts::SQRT_2)
    ));
    e.ins(format!("@{big} mul.rn.f64 {m}, {m}, {}", d(0.5)));
    e.ins(format!("@{big} add.s32 {ex}, {ex}, 1"));
    e.ins(format!("cvt.rn.f64.s32 {exd}, {ex}"));
    e.ins(format!("add.rn.f64 {den}, {m}, {}", d(1.0)));
    e.ins(format!("sub.rn.f64 {s}, {m}, {}", d(1.0)));
    e.ins(format!("div.rn.f64 {s}, {s}, {den}"));
    e.ins(format!("mul.rn.f64 {s2}, {s}, {s}"));
    let c: Vec<f64> = (0..12).rev().map(|k| 2.0 / f64::from(2 * k + 1)).collect();
    let p = horner(e, &s2, &c);
    e.ins(format!("mul.rn.f64 {p}, {p}, {s}"));
    e.ins(format!("fma.rn.f64 {p}, {exd}, {}, {p}", d(LN2_HI)));
    e.ins(format!("fma.rn.f64 {p}, {exd}, {}, {p}", d(LN2_LO)));
    e.ins(format!("setp.eq.f64 {q}, {x}, {}", d(0.0)));
    e.ins(format!("@{q} mov.f64 {p}, {}", d(f64::NEG_INFINITY)));
    e.ins(format!("setp.lt.f64 {q}, {x}, {}", d(0.0)));
    e.ins(format!("@{q} mov.f64 {p}, {}", d(f64::NAN)));
    e.ins(format!("setp.eq.f64 {q}, {x}, {}", d(f64::INFINITY)));
    e.ins(format!("@{q} mov.f64 {p}, {x}"));
    e.ins(format!("testp.notanumber.f64 {q}, {x}"));
    e.ins(format!("@{q} add.f64 {p}, {x}, {x}"));
    p
}

/// ln(1 + x) in double: `log(u)·x/(u-1)` with u = 1 + x cancels u's rounding error.
pub fn log1p_d(e: &mut FnEmitter, x: &str) -> String {
    let (u, t, q) = (fd(e), fd(e), pr(e));
    e.ins(format!("add.rn.f64 {u}, {x}, {}", d(1.0)));
    let l = log_d(e, &u);
    let r = fd(e);
    e.ins(format!("sub.rn.f64 {t}, {u}, {}", d(1.0)));
    e.ins(format!("div.rn.f64 {t}, {x}, {t}"));
    e.ins(format!("mul.rn.f64 {r}, {l}, {t}"));
    e.ins(format!("setp.eq.f64 {q}, {u}, {}", d(1.0)));
    e.ins(format!("@{q} mov.f64 {r}, {x}"));
    e.ins(format!("testp.infinite.f64 {q}, {x}"));
    e.ins(format!("@{q} mov.f64 {r}, {l}"));
    e.ins(format!("setp.eq.f64 {q}, {u}, {}", d(0.0)));
    e.ins(format!("@{q} mov.f64 {r}, {l}"));
    r
}

/// atan x in double: |x| > 1 folds to π/2 - atan(1/|x|), two half-angle steps bring the
/// argument below tan(π/16), then the Taylor series.
pub fn atan_d(e: &mut FnEmitter, x: &str) -> String {
    let (a, t, a2, q) = (fd(e), fd(e), fd(e), pr(e));
    e.ins(format!("abs.f64 {a}, {x}"));
    e.ins(format!("setp.gt.f64 {q}, {a}, {}", d(1.0)));
    e.ins(format!("@{q} rcp.rn.f64 {a}, {a}"));
    for _ in 0..2 {
        e.ins(format!("fma.rn.f64 {t}, {a}, {a}, {}", d(1.0)));
        e.ins(format!("sqrt.rn.f64 {t}, {t}"));
        e.ins(format!("add.rn.f64 {t}, {t}, {}", d(1.0)));
        e.ins(format!("div.rn.f64 {a}, {a}, {t}"));
    }
    e.ins(format!("mul.rn.f64 {a2}, {a}, {a}"));
    let c: Vec<f64> = (0..14)
        .rev()
        .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 } / f64::from(2 * k + 1))
        .collect();
    let p = horner(e, &a2, &c);
    e.ins(format!("mul.rn.f64 {p}, {p}, {a}"));
    e.ins(format!("mul.rn.f64 {p}, {p}, {}", d(4.0)));
    e.ins(format!("@{q} sub.rn.f64 {p}, {}, {p}", d(FRAC_PI_2)));
    e.ins(format!("copysign.f64 {p}, {x}, {p}"));
    p
}

/// (sin πx, cos πx) in double for finite x: exact reduction mod 2, a quadrant and a
/// remainder in [-¼, ¼], Taylor polynomials of πr.
pub fn sincospi_d(e: &mut FnEmitter, x: &str) -> (String, String) {
    let (xr, qf, r, r2) = (fd(e), fd(e), fd(e), fd(e));
    e.ins(format!("mul.rn.f64 {qf}, {x}, {}", d(0.5)));
    e.ins(format!("cvt.rni.f64.f64 {qf}, {qf}"));
    e.ins(format!("fma.rn.f64 {xr}, {qf}, {}, {x}", d(-2.0)));
    e.ins(format!("add.rn.f64 {qf}, {xr}, {xr}"));
    e.ins(format!("cvt.rni.f64.f64 {qf}, {qf}"));
    e.ins(format!("fma.rn.f64 {r}, {qf}, {}, {xr}", d(-0.5)));
    e.ins(format!("mul.rn.f64 {r}, {r}, {}", d(PI)));
    let q = e.tmp(Rc::B32);
    e.ins(format!("cvt.rni.s32.f64 {q}, {qf}"));
    quadrant(e, &r, &q, &r2)
}

/// sin and cos of `q`·π/2 + `r` for |r| ≤ π/4 (Taylor to ~1e-17).
fn quadrant(e: &mut FnEmitter, r: &str, q: &str, r2: &str) -> (String, String) {
    e.ins(format!("mul.rn.f64 {r2}, {r}, {r}"));
    let cs: Vec<f64> = (1..=8)
        .rev()
        .map(|k| {
            let v = inv_factorials(2 * k + 1, 2 * k + 1)[0];
            if k % 2 == 1 { -v } else { v }
        })
        .collect();
    let ps = horner(e, r2, &cs);
    e.ins(format!("mul.rn.f64 {ps}, {ps}, {r2}"));
    e.ins(format!("fma.rn.f64 {ps}, {ps}, {r}, {r}"));
    let cc: Vec<f64> = (0..=9)
        .rev()
        .map(|k| {
            let v = inv_factorials(2 * k, 2 * k)[0];
            if k % 2 == 1 { -v } else { v }
        })
        .collect();
    let pc = horner(e, r2, &cc);
    let (c, s, co, p) = (e.tmp(Rc::B32), fd(e), fd(e), pr(e));
    e.ins(format!("and.b32 {c}, {q}, 1"));
    e.ins(format!("setp.ne.u32 {p}, {c}, 0"));
    e.ins(format!("selp.f64 {s}, {pc}, {ps}, {p}"));
    e.ins(format!("selp.f64 {co}, {ps}, {pc}, {p}"));
    e.ins(format!("and.b32 {c}, {q}, 2"));
    e.ins(format!("setp.ne.u32 {p}, {c}, 0"));
    e.ins(format!("@{p} neg.f64 {s}, {s}"));
    e.ins(format!("add.s32 {c}, {q}, 1"));
    e.ins(format!("and.b32 {c}, {c}, 2"));
    e.ins(format!("setp.ne.u32 {p}, {c}, 0"));
    e.ins(format!("@{p} neg.f64 {co}, {co}"));
    (s, co)
}

/// Lanczos coefficients (g = 7, n = 9) as published, digits kept verbatim.
#[allow(clippy::excessive_precision)]
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_93,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_13,
    -176.615_029_162_140_59,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_571_6e-6,
    1.505_632_735_149_311_6e-7,
];

/// ln Γ(z) for z ≥ ½ in double (Lanczos, g = 7): (z-½)·ln t - t + ln(√(2π)·A(z)).
fn lgamma_pos_d(e: &mut FnEmitter, z: &str) -> String {
    let (zm, a, t, k, w) = (fd(e), fd(e), fd(e), fd(e), fd(e));
    e.ins(format!("sub.rn.f64 {zm}, {z}, {}", d(1.0)));
    e.ins(format!("mov.f64 {a}, {}", d(LANCZOS[0])));
    for (i, c) in LANCZOS.iter().enumerate().skip(1) {
        e.ins(format!("add.rn.f64 {k}, {zm}, {}", d(i as f64)));
        e.ins(format!("div.rn.f64 {k}, {}, {k}", d(*c)));
        e.ins(format!("add.rn.f64 {a}, {a}, {k}"));
    }
    e.ins(format!("add.rn.f64 {t}, {zm}, {}", d(7.5)));
    let lt = log_d(e, &t);
    e.ins(format!("mul.rn.f64 {a}, {a}, {}", d((2.0 * PI).sqrt())));
    let la = log_d(e, &a);
    e.ins(format!("add.rn.f64 {w}, {zm}, {}", d(0.5)));
    e.ins(format!("mul.rn.f64 {w}, {w}, {lt}"));
    e.ins(format!("sub.rn.f64 {w}, {w}, {t}"));
    e.ins(format!("add.rn.f64 {w}, {w}, {la}"));
    w
}

/// Which f32 functions [`unary_f32`] provides.
pub fn is_unary(name: &str) -> bool {
    matches!(
        name,
        "expm1"
            | "log1p"
            | "sinh"
            | "cosh"
            | "tanh"
            | "asinh"
            | "acosh"
            | "atanh"
            | "atan"
            | "asin"
            | "acos"
            | "atanpi"
            | "asinpi"
            | "acospi"
            | "cbrt"
            | "erf"
            | "erfc"
            | "tgamma"
            | "lgamma"
            | "sinpi"
            | "cospi"
            | "tanpi"
    )
}

/// Full-precision f32 `name(x)` (one of [`is_unary`]) into `dst`.
pub fn unary_f32(e: &mut FnEmitter, name: &str, dst: &str, x: &str) {
    let xd = widen(e, x);
    let (a, t, r, q) = (fd(e), fd(e), fd(e), pr(e));
    e.ins(format!("abs.f64 {a}, {xd}"));
    // Odd functions: computed on |x|, then the sign of x (±0 stays ±0).
    let mut odd = true;
    match name {
        "expm1" => {
            odd = false;
            let v = expm1_d(e, &xd);
            e.ins(format!("mov.f64 {r}, {v}"));
        }
        "log1p" => {
            odd = false;
            let v = log1p_d(e, &xd);
            e.ins(format!("mov.f64 {r}, {v}"));
        }
        "sinh" => {
            e.ins(format!("min.f64 {a}, {a}, {}", d(200.0)));
            let m = expm1_d(e, &a);
            e.ins(format!("add.rn.f64 {t}, {m}, {}", d(1.0)));
            e.ins(format!("div.rn.f64 {t}, {m}, {t}"));
            e.ins(format!("add.rn.f64 {r}, {m}, {t}"));
            e.ins(format!("mul.rn.f64 {r}, {r}, {}", d(0.5)));
        }
        "cosh" => {
            odd = false;
            e.ins(format!("min.f64 {a}, {a}, {}", d(200.0)));
            let m = exp_d(e, &a);
            e.ins(format!("rcp.rn.f64 {t}, {m}"));
            e.ins(format!("add.rn.f64 {r}, {m}, {t}"));
            e.ins(format!("mul.rn.f64 {r}, {r}, {}", d(0.5)));
        }
        "tanh" => {
            e.ins(format!("min.f64 {a}, {a}, {}", d(20.0)));
            e.ins(format!("add.rn.f64 {a}, {a}, {a}"));
            let m = expm1_d(e, &a);
            e.ins(format!("add.rn.f64 {t}, {m}, {}", d(2.0)));
            e.ins(format!("div.rn.f64 {r}, {m}, {t}"));
        }
        "asinh" => {
            e.ins(format!("fma.rn.f64 {t}, {a}, {a}, {}", d(1.0)));
            e.ins(format!("sqrt.rn.f64 {t}, {t}"));
            e.ins(format!("add.rn.f64 {t}, {t}, {}", d(1.0)));
            e.ins(format!("mul.rn.f64 {r}, {a}, {a}"));
            e.ins(format!("div.rn.f64 {t}, {r}, {t}"));
            e.ins(format!("add.rn.f64 {t}, {t}, {a}"));
            let v = log1p_d(e, &t);
            e.ins(format!("mov.f64 {r}, {v}"));
            e.ins(format!("testp.infinite.f64 {q}, {a}"));
            e.ins(format!("@{q} mov.f64 {r}, {a}"));
        }
        "acosh" => {
            odd = false;
            let u = fd(e);
            e.ins(format!("sub.rn.f64 {t}, {xd}, {}", d(1.0)));
            e.ins(format!("add.rn.f64 {u}, {xd}, {}", d(1.0)));
            e.ins(format!("mul.rn.f64 {u}, {u}, {t}"));
            e.ins(format!("sqrt.rn.f64 {u}, {u}"));
            e.ins(format!("add.rn.f64 {t}, {t}, {u}"));
            let v = log1p_d(e, &t);
            e.ins(format!("mov.f64 {r}, {v}"));
            e.ins(format!("setp.lt.f64 {q}, {xd}, {}", d(1.0)));
            e.ins(format!("@{q} mov.f64 {r}, {}", d(f64::NAN)));
        }
        "atanh" => {
            e.ins(format!("sub.rn.f64 {t}, {}, {a}", d(1.0)));
            e.ins(format!("add.rn.f64 {r}, {a}, {a}"));
            e.ins(format!("div.rn.f64 {t}, {r}, {t}"));
            let v = log1p_d(e, &t);
            e.ins(format!("mul.rn.f64 {r}, {v}, {}", d(0.5)));
        }
        "atan" | "atanpi" => {
            let v = atan_d(e, &a);
            e.ins(format!("mov.f64 {r}, {v}"));
        }
        "asin" | "asinpi" => {
            let u = fd(e);
            e.ins(format!("sub.rn.f64 {t}, {}, {a}", d(1.0)));
            e.ins(format!("add.rn.f64 {u}, {}, {a}", d(1.0)));
            e.ins(format!("mul.rn.f64 {t}, {t}, {u}"));
            e.ins(format!("sqrt.rn.f64 {t}, {t}"));
            e.ins(format!("div.rn.f64 {t}, {a}, {t}"));
            let v = atan_d(e, &t);
            e.ins(format!("mov.f64 {r}, {v}"));
            e.ins(format!("setp.gt.f64 {q}, {a}, {}", d(1.0)));
            e.ins(format!("@{q} mov.f64 {r}, {}", d(f64::NAN)));
        }
        "acos" | "acospi" => {
            odd = false;
            let u = fd(e);
            e.ins(format!("sub.rn.f64 {t}, {}, {xd}", d(1.0)));
            e.ins(format!("add.rn.f64 {u}, {}, {xd}", d(1.0)));
            e.ins(format!("div.rn.f64 {t}, {t}, {u}"));
            e.ins(format!("sqrt.rn.f64 {t}, {t}"));
            let v = atan_d(e, &t);
            e.ins(format!("add.rn.f64 {r}, {v}, {v}"));
            e.ins(format!("setp.gt.f64 {q}, {a}, {}", d(1.0)));
            e.ins(format!("@{q} mov.f64 {r}, {}", d(f64::NAN)));
        }
        "cbrt" => {
            let l = log_d(e, &a);
            e.ins(format!("mul.rn.f64 {t}, {l}, {}", d(1.0 / 3.0)));
            let y = exp_d(e, &t);
            // One Newton step on y³ = a.
            e.ins(format!("mul.rn.f64 {t}, {y}, {y}"));
            e.ins(format!("div.rn.f64 {t}, {a}, {t}"));
            e.ins(format!("sub.rn.f64 {t}, {t}, {y}"));
            e.ins(format!("fma.rn.f64 {r}, {t}, {}, {y}", d(1.0 / 3.0)));
            e.ins(format!("testp.infinite.f64 {q}, {a}"));
            e.ins(format!("@{q} mov.f64 {r}, {a}"));
            e.ins(format!("setp.eq.f64 {q}, {a}, {}", d(0.0)));
            e.ins(format!("@{q} mov.f64 {r}, {a}"));
        }
        "erf" | "erfc" => {
            odd = name == "erf";
            let s = erf_small_d(e, &a);
            let c = erfc_large_d(e, &a);
            let big = pr(e);
            e.ins(format!("setp.ge.f64 {big}, {a}, {}", d(2.5)));
            if name == "erf" {
                e.ins(format!("sub.rn.f64 {t}, {}, {c}", d(1.0)));
                e.ins(format!("selp.f64 {r}, {t}, {s}, {big}"));
            } else {
                // erfc(|x|), then 2 - erfc(|x|) for negative x.
                e.ins(format!("sub.rn.f64 {t}, {}, {s}", d(1.0)));
                e.ins(format!("selp.f64 {r}, {c}, {t}, {big}"));
                e.ins(format!("setp.lt.f64 {q}, {xd}, {}", d(0.0)));
                e.ins(format!("@{q} sub.rn.f64 {r}, {}, {r}", d(2.0)));
            }
        }
        "tgamma" | "lgamma" => {
            odd = false;
            gamma(e, name == "lgamma", &xd, &r);
        }
        "sinpi" | "cospi" | "tanpi" => {
            odd = name != "cospi";
            let (s, c) = sincospi_d(e, &a);
            match name {
                "sinpi" => e.ins(format!("mov.f64 {r}, {s}")),
                "cospi" => e.ins(format!("mov.f64 {r}, {c}")),
                _ => {
                    e.ins(format!("div.rn.f64 {r}, {s}, {c}"));
                    // tanpi(n + ½) = +∞ for even n, -∞ for odd n (before the sign of x).
                    let z = pr(e);
                    e.ins(format!("setp.eq.f64 {z}, {c}, {}", d(0.0)));
                    e.ins(format!("@{z} copysign.f64 {r}, {s}, {}", d(f64::INFINITY)));
                }
            }
            e.ins(format!("testp.infinite.f64 {q}, {a}"));
            e.ins(format!("@{q} mov.f64 {r}, {}", d(f64::NAN)));
        }
        _ => {}
    }
    if matches!(name, "atanpi" | "asinpi" | "acospi") {
        e.ins(format!("mul.rn.f64 {r}, {r}, {}", d(FRAC_1_PI)));
    }
    e.ins(format!("cvt.rn.f32.f64 {dst}, {r}"));
    if odd {
        // f(-x) = -f(x): results computed on |x| (sinpi's and tanpi's may be negative).
        let (bits, neg) = (e.tmp(Rc::B32), pr(e));
        e.ins(format!("mov.b32 {bits}, {x}"));
        e.ins(format!("setp.lt.s32 {neg}, {bits}, 0"));
        e.ins(format!("@{neg} neg.f32 {dst}, {dst}"));
    }
    let nan = pr(e);
    e.ins(format!("testp.notanumber.f32 {nan}, {x}"));
    e.ins(format!("@{nan} add.f32 {dst}, {x}, {x}"));
}

/// erf(a) for 0 ≤ a < 2.5 in double: the Maclaurin series, 46 terms.
fn erf_small_d(e: &mut FnEmitter, a: &str) -> String {
    let a2 = fd(e);
    e.ins(format!("mul.rn.f64 {a2}, {a}, {a}"));
    let mut c = Vec::new();
    let mut fact = 1.0;
    for n in 0..46u32 {
        if n > 0 {
            fact *= f64::from(n);
        }
        let s = if n % 2 == 0 { 1.0 } else { -1.0 };
        c.push(s / (fact * f64::from(2 * n + 1)));
    }
    c.reverse();
    let p = horner(e, &a2, &c);
    e.ins(format!("mul.rn.f64 {p}, {p}, {a}"));
    e.ins(format!("mul.rn.f64 {p}, {p}, {}", d(2.0 / PI.sqrt())));
    p
}

/// erfc(a) for a ≥ 2.5 in double: e^(-a²)/√π over Laplace's continued fraction, 40 levels.
fn erfc_large_d(e: &mut FnEmitter, a: &str) -> String {
    let (k, t, n) = (fd(e), fd(e), fd(e));
    e.ins(format!("max.f64 {k}, {a}, {}", d(1.0)));
    e.ins(format!("mov.f64 {t}, {k}"));
    for i in (1..=40).rev() {
        e.ins(format!("div.rn.f64 {n}, {}, {t}", d(f64::from(i) / 2.0)));
        e.ins(format!("add.rn.f64 {t}, {k}, {n}"));
    }
    e.ins(format!("mul.rn.f64 {n}, {k}, {k}"));
    e.ins(format!("neg.f64 {n}, {n}"));
    let x = exp_d(e, &n);
    e.ins(format!("mul.rn.f64 {t}, {t}, {}", d(PI.sqrt())));
    e.ins(format!("div.rn.f64 {x}, {x}, {t}"));
    x
}

/// Γ(x) or ln|Γ(x)| of double `x` (an f32 value) into `r`; reflection below ½.
fn gamma(e: &mut FnEmitter, log: bool, x: &str, r: &str) {
    let (z, lo, t, v) = (fd(e), pr(e), fd(e), fd(e));
    e.ins(format!("setp.lt.f64 {lo}, {x}, {}", d(0.5)));
    e.ins(format!("sub.rn.f64 {z}, {}, {x}", d(1.0)));
    e.ins(format!("selp.f64 {z}, {z}, {x}, {lo}"));
    e.ins(format!("min.f64 {z}, {z}, {}", d(1e300)));
    let lg = lgamma_pos_d(e, &z);
    let (s, _) = sincospi_d(e, x);
    // ln|Γ(x)| = ln(π/|sin πx|) - ln Γ(1-x) below ½.
    e.ins(format!("abs.f64 {t}, {s}"));
    e.ins(format!("div.rn.f64 {t}, {}, {t}", d(PI)));
    let lr = log_d(e, &t);
    let (q, neg_int) = (pr(e), pr(e));
    e.ins(format!("cvt.rzi.f64.f64 {t}, {x}"));
    e.ins(format!("setp.eq.f64 {neg_int}, {t}, {x}"));
    e.ins(format!(
        "setp.le.and.f64 {neg_int}, {x}, {}, {neg_int}",
        d(0.0)
    ));
    if log {
        e.ins(format!("sub.rn.f64 {v}, {lr}, {lg}"));
        e.ins(format!("selp.f64 {r}, {v}, {lg}, {lo}"));
        e.ins(format!("@{neg_int} mov.f64 {r}, {}", d(f64::INFINITY)));
        e.ins(format!("testp.infinite.f64 {q}, {x}"));
        e.ins(format!("@{q} mov.f64 {r}, {}", d(f64::INFINITY)));
    } else {
        let ex = exp_d(e, &lg);
        e.ins(format!("mul.rn.f64 {t}, {s}, {ex}"));
        e.ins(format!("div.rn.f64 {v}, {}, {t}", d(PI)));
        e.ins(format!("selp.f64 {r}, {v}, {ex}, {lo}"));
        // Far below zero the result underflows; Γ(1-x) would overflow first.
        e.ins(format!("setp.lt.f64 {q}, {x}, {}", d(-60.0)));
        e.ins(format!("@{q} mul.rn.f64 {r}, {s}, {}", d(0.0)));
        e.ins(format!("@{neg_int} mov.f64 {r}, {}", d(f64::NAN)));
        e.ins(format!("setp.eq.f64 {q}, {x}, {}", d(0.0)));
        e.ins(format!("@{q} copysign.f64 {r}, {x}, {}", d(f64::INFINITY)));
        e.ins(format!("setp.eq.f64 {q}, {x}, {}", d(f64::INFINITY)));
        e.ins(format!("@{q} mov.f64 {r}, {x}"));
    }
}

/// Which f32 functions of two arguments [`binary_f32`] provides.
pub fn is_binary(name: &str) -> bool {
    matches!(
        name,
        "atan2" | "atan2pi" | "hypot" | "pow" | "powr" | "pown" | "rootn"
    )
}

/// Full-precision f32 `name(x, y)` into `dst`; `y` is an s32 register for pown and rootn.
pub fn binary_f32(e: &mut FnEmitter, name: &str, dst: &str, x: &str, y: &str) {
    let xd = widen(e, x);
    let (yd, r, t, q, nan) = (fd(e), fd(e), fd(e), pr(e), pr(e));
    if matches!(name, "pown" | "rootn") {
        e.ins(format!("cvt.rn.f64.s32 {yd}, {y}"));
    } else {
        e.ins(format!("cvt.f64.f32 {yd}, {y}"));
    }
    match name {
        "hypot" => {
            e.ins(format!("mul.rn.f64 {t}, {yd}, {yd}"));
            e.ins(format!("fma.rn.f64 {t}, {xd}, {xd}, {t}"));
            e.ins(format!("sqrt.rn.f64 {r}, {t}"));
            e.ins(format!("cvt.rn.f32.f64 {dst}, {r}"));
            e.ins(format!("testp.notanumber.f32 {nan}, {x}"));
            e.ins(format!("@{nan} add.f32 {dst}, {x}, {x}"));
            e.ins(format!("testp.notanumber.f32 {nan}, {y}"));
            e.ins(format!("@{nan} add.f32 {dst}, {y}, {y}"));
            for v in [x, y] {
                e.ins(format!("testp.infinite.f32 {q}, {v}"));
                e.ins(format!("@{q} mov.f32 {dst}, 0f7F800000"));
            }
        }
        "atan2" | "atan2pi" => {
            // atan2(y, x): the first operand is the numerator.
            let (num, den, numd, dend) = (x, y, &xd, &yd);
            let (ax, ay, both) = (fd(e), fd(e), pr(e));
            e.ins(format!("abs.f64 {ax}, {dend}"));
            e.ins(format!("abs.f64 {ay}, {numd}"));
            e.ins(format!("testp.infinite.f64 {q}, {ax}"));
            e.ins(format!("testp.infinite.f64 {both}, {ay}"));
            e.ins(format!("and.pred {both}, {both}, {q}"));
            e.ins(format!("@{both} mov.f64 {ax}, {}", d(1.0)));
            e.ins(format!("@{both} mov.f64 {ay}, {}", d(1.0)));
            e.ins(format!("div.rn.f64 {t}, {ay}, {ax}"));
            e.ins(format!("setp.eq.f64 {q}, {ay}, {}", d(0.0)));
            e.ins(format!("@{q} mov.f64 {t}, {}", d(0.0)));
            let a = atan_d(e, &t);
            let (bits, neg) = (e.tmp(Rc::B32), pr(e));
            e.ins(format!("mov.b32 {bits}, {den}"));
            e.ins(format!("setp.lt.s32 {neg}, {bits}, 0"));
            e.ins(format!("@{neg} sub.rn.f64 {a}, {}, {a}", d(PI)));
            if name == "atan2pi" {
                e.ins(format!("mul.rn.f64 {a}, {a}, {}", d(FRAC_1_PI)));
            }
            e.ins(format!("cvt.rn.f32.f64 {dst}, {a}"));
            e.ins(format!("copysign.f32 {dst}, {num}, {dst}"));
            for v in [num, den] {
                e.ins(format!("testp.notanumber.f32 {nan}, {v}"));
                e.ins(format!("@{nan} add.f32 {dst}, {v}, {v}"));
            }
        }
        _ => pow_like(e, name, dst, x, y, &xd, &yd),
    }
}

/// pow, powr, pown and rootn: e^(y·ln|x|) in double, with C99 Annex F / OpenCL special cases.
fn pow_like(e: &mut FnEmitter, name: &str, dst: &str, x: &str, y: &str, xd: &str, yd: &str) {
    let (a, ye, t, q, p2) = (fd(e), fd(e), fd(e), pr(e), pr(e));
    e.ins(format!("abs.f64 {a}, {xd}"));
    if name == "rootn" {
        e.ins(format!("rcp.rn.f64 {ye}, {yd}"));
    } else {
        e.ins(format!("mov.f64 {ye}, {yd}"));
    }
    let l = log_d(e, &a);
    e.ins(format!("mul.rn.f64 {t}, {l}, {ye}"));
    let r = exp_d(e, &t);
    // y (n for rootn) an odd integer: x's sign carries over.
    let (odd, xneg, h) = (pr(e), pr(e), fd(e));
    e.ins(format!("mul.rn.f64 {h}, {yd}, {}", d(0.5)));
    e.ins(format!("cvt.rzi.f64.f64 {t}, {h}"));
    e.ins(format!("setp.neu.f64 {odd}, {t}, {h}"));
    e.ins(format!("cvt.rzi.f64.f64 {t}, {yd}"));
    e.ins(format!("setp.eq.and.f64 {odd}, {t}, {yd}, {odd}"));
    let bits = e.tmp(Rc::B32);
    e.ins(format!("mov.b32 {bits}, {x}"));
    e.ins(format!("setp.lt.s32 {xneg}, {bits}, 0"));
    e.ins(format!("and.pred {p2}, {odd}, {xneg}"));
    if name != "powr" {
        e.ins(format!("@{p2} neg.f64 {r}, {r}"));
    }
    // Negative x (not -0; for pow, finite) with a non-integer y (even n for rootn) has no
    // real result; powr has none for any negative x.
    e.ins(format!("setp.lt.f64 {xneg}, {xd}, {}", d(0.0)));
    if name == "pow" {
        e.ins(format!(
            "setp.gt.and.f64 {xneg}, {xd}, {}, {xneg}",
            d(f64::NEG_INFINITY)
        ));
    }
    if name == "rootn" {
        e.ins(format!("not.pred {p2}, {odd}"));
    } else {
        e.ins(format!("setp.neu.f64 {p2}, {t}, {yd}"));
    }
    if name == "powr" {
        e.ins(format!("@{xneg} mov.f64 {r}, {}", d(f64::NAN)));
    } else {
        e.ins(format!("and.pred {p2}, {p2}, {xneg}"));
        e.ins(format!("@{p2} mov.f64 {r}, {}", d(f64::NAN)));
    }
    e.ins(format!("cvt.rn.f32.f64 {dst}, {r}"));
    for v in [x, y] {
        if matches!(name, "pown" | "rootn") && v == y {
            continue;
        }
        e.ins(format!("testp.notanumber.f32 {q}, {v}"));
        e.ins(format!("@{q} add.f32 {dst}, {v}, {v}"));
    }
    match name {
        "pow" | "pown" => {
            // pow(x, ±0) = 1, pow(1, y) = 1 and pow(-1, ±∞) = 1, even for NaN.
            e.ins(format!("setp.eq.f64 {q}, {yd}, {}", d(0.0)));
            e.ins(format!("@{q} mov.f32 {dst}, 0f3F800000"));
            e.ins(format!("setp.eq.f64 {q}, {xd}, {}", d(1.0)));
            e.ins(format!("@{q} mov.f32 {dst}, 0f3F800000"));
            e.ins(format!("setp.eq.f64 {q}, {xd}, {}", d(-1.0)));
            e.ins(format!("testp.infinite.f64 {p2}, {yd}"));
            e.ins(format!("and.pred {q}, {q}, {p2}"));
            e.ins(format!("@{q} mov.f32 {dst}, 0f3F800000"));
        }
        "rootn" => {
            e.ins(format!("setp.eq.f64 {q}, {yd}, {}", d(0.0)));
            e.ins(format!("@{q} mov.f32 {dst}, 0f7FFFFFFF"));
        }
        _ => {}
    }
}

/// `length`, `distance` and `normalize` (and their `fast_` forms, given the same full
/// precision) of f32 vectors: squares summed exactly enough in double precision, one
/// rounding; infinities and NaN by the spec's rules. Double (and half, widened) vectors go to
/// `dmath`.
pub fn geometric(e: &mut FnEmitter, name: &str, args: &[Value], r: Value) -> Result<(), PtxError> {
    let base = name.strip_prefix("fast_").unwrap_or(name);
    let Some(p) = args.first().copied() else {
        return Err(e.invalid(format!("`{name}` without arguments")));
    };
    let s = e.elem(p)?;
    if s == Scalar::F64 || s == Scalar::F16 {
        // Double lanes, or half lanes widened to double (as the cpu runtime computes them).
        let half = s == Scalar::F16;
        let mut xs = e.lanes(p)?;
        let mut ys = match args.get(1) {
            Some(q) if base == "distance" => e.lanes(*q)?,
            _ => Vec::new(),
        };
        let mut name = base;
        if half {
            let wide = |e: &mut FnEmitter, v: &[String]| -> Vec<String> {
                v.iter()
                    .map(|h| {
                        let d = fd(e);
                        e.ins(format!("cvt.f64.f16 {d}, {h}"));
                        d
                    })
                    .collect()
            };
            xs = wide(e, &xs);
            ys = wide(e, &ys);
            if base == "distance" {
                // The difference is taken in half, as the spec defines distance.
                for (x, y) in xs.iter().zip(&ys) {
                    let h = e.tmp(Rc::B16);
                    e.ins(format!("sub.rn.f64 {x}, {x}, {y}"));
                    e.ins(format!("cvt.rn.f16.f64 {h}, {x}"));
                    e.ins(format!("cvt.f64.f16 {x}, {h}"));
                }
                ys.clear();
                name = "length";
            }
        }
        let out = crate::dmath_ptx::geometric(e, name, &xs, &ys);
        for (l, v) in out.iter().enumerate() {
            let o = e.reg(r, l as u32)?;
            if half {
                e.ins(format!("cvt.rn.f16.f64 {o}, {v}"));
            } else {
                e.ins(format!("mov.f64 {o}, {v}"));
            }
        }
        return Ok(());
    }
    if e.elem(p)? != Scalar::F32 {
        return Err(e.unsupported(format!("builtin `{name}` ({})", e.elem(p)?.name())));
    }
    let n = e.ty(p)?.lanes();
    let mut xs = Vec::new();
    for l in 0..n {
        let x = e.reg(p, l)?;
        if base == "distance" {
            let q = args
                .get(1)
                .copied()
                .ok_or_else(|| e.invalid("`distance` takes two arguments"))?;
            let (y, t) = (e.reg(q, l)?, e.tmp(Rc::F32));
            e.ins(format!("sub.rn.f32 {t}, {x}, {y}"));
            xs.push(t);
        } else {
            xs.push(x);
        }
    }
    let (any_inf, any_nan, q) = (pr(e), pr(e), pr(e));
    let mut wide = Vec::new();
    for (l, x) in xs.iter().enumerate() {
        if l == 0 {
            e.ins(format!("testp.infinite.f32 {any_inf}, {x}"));
            e.ins(format!("testp.notanumber.f32 {any_nan}, {x}"));
        } else {
            e.ins(format!("testp.infinite.f32 {q}, {x}"));
            e.ins(format!("or.pred {any_inf}, {any_inf}, {q}"));
            e.ins(format!("testp.notanumber.f32 {q}, {x}"));
            e.ins(format!("or.pred {any_nan}, {any_nan}, {q}"));
        }
        wide.push(widen(e, x));
    }
    if base == "normalize" {
        // With an infinite lane, infinities become ±1 and finite lanes ±0.
        for w in &wide {
            let (one, zero) = (fd(e), fd(e));
            e.ins(format!("copysign.f64 {one}, {w}, {}", d(1.0)));
            e.ins(format!("copysign.f64 {zero}, {w}, {}", d(0.0)));
            e.ins(format!("testp.infinite.f64 {q}, {w}"));
            e.ins(format!("selp.f64 {one}, {one}, {zero}, {q}"));
            e.ins(format!("@{any_inf} mov.f64 {w}, {one}"));
        }
    }
    let sum = fd(e);
    e.ins(format!("mov.f64 {sum}, {}", d(0.0)));
    for w in &wide {
        e.ins(format!("fma.rn.f64 {sum}, {w}, {w}, {sum}"));
    }
    e.ins(format!("sqrt.rn.f64 {sum}, {sum}"));
    if base == "normalize" {
        let zero = pr(e);
        e.ins(format!("setp.eq.f64 {zero}, {sum}, {}", d(0.0)));
        for (l, (w, x)) in wide.iter().zip(&xs).enumerate() {
            let o = e.reg(r, l as u32)?;
            e.ins(format!("div.rn.f64 {w}, {w}, {sum}"));
            e.ins(format!("cvt.rn.f32.f64 {o}, {w}"));
            e.ins(format!("@{zero} mov.f32 {o}, {x}"));
            e.ins(format!("@{any_nan} mov.f32 {o}, 0f7FFFFFFF"));
        }
    } else {
        let o = e.reg(r, 0)?;
        e.ins(format!("cvt.rn.f32.f64 {o}, {sum}"));
        e.ins(format!("@{any_nan} mov.f32 {o}, 0f7FFFFFFF"));
        e.ins(format!("@{any_inf} mov.f32 {o}, 0f7F800000"));
    }
    Ok(())
}

/// Exact f32 `fmod`, `remainder` or `remquo` (`quo` gets the low seven quotient bits with
/// the quotient's sign): the 24-bit mantissas' remainder of mx·2^d by my, d bits at a time
/// (a first step of d mod 39, then up to eight of 39, all in 64-bit integers).
pub fn rem_f32(e: &mut FnEmitter, name: &str, dst: &str, x: &str, y: &str, quo: Option<&str>) {
    let (xd, yd) = (widen(e, x), widen(e, y));
    let (ax, ay, rd, t2) = (fd(e), fd(e), fd(e), fd(e));
    e.ins(format!("abs.f64 {ax}, {xd}"));
    e.ins(format!("abs.f64 {ay}, {yd}"));
    let b64 = |e: &mut FnEmitter| e.tmp(Rc::B64);
    let b32 = |e: &mut FnEmitter| e.tmp(Rc::B32);
    let (bx, by, mx, my, r, q, t) = (b64(e), b64(e), b64(e), b64(e), b64(e), b64(e), b64(e));
    let (ex, ey, dd, nfull, s0, qlo) = (b32(e), b32(e), b32(e), b32(e), b32(e), b32(e));
    e.ins(format!("mov.b64 {bx}, {ax}"));
    e.ins(format!("mov.b64 {by}, {ay}"));
    for (b, ex, m) in [(&bx, &ex, &mx), (&by, &ey, &my)] {
        e.ins(format!("shr.u64 {t}, {b}, 52"));
        e.ins(format!("cvt.u32.u64 {ex}, {t}"));
        e.ins(format!("and.b64 {m}, {b}, 0x000FFFFFFFFFFFFF"));
        e.ins(format!("or.b64 {m}, {m}, 0x0010000000000000"));
        e.ins(format!("shr.u64 {m}, {m}, 29"));
    }
    e.ins(format!("sub.s32 {dd}, {ex}, {ey}"));
    e.ins(format!("max.s32 {dd}, {dd}, 0"));
    e.ins(format!("div.u32 {nfull}, {dd}, 39"));
    e.ins(format!("mul.lo.u32 {s0}, {nfull}, 39"));
    e.ins(format!("sub.u32 {s0}, {dd}, {s0}"));
    e.ins(format!("shl.b64 {t}, {mx}, {s0}"));
    e.ins(format!("div.u64 {q}, {t}, {my}"));
    e.ins(format!("rem.u64 {r}, {t}, {my}"));
    let step = pr(e);
    for j in 1..=8 {
        e.ins(format!("setp.ge.u32 {step}, {nfull}, {j}"));
        e.ins(format!("@{step} shl.b64 {t}, {r}, 39"));
        e.ins(format!("@{step} div.u64 {q}, {t}, {my}"));
        e.ins(format!("@{step} rem.u64 {r}, {t}, {my}"));
    }
    // The remainder is r·ulp(y) = r·2^(ey-1023-23), exact in double.
    let sc = fd(e);
    e.ins(format!("cvt.rn.f64.u64 {rd}, {r}"));
    e.ins(format!("sub.u32 {ey}, {ey}, 23"));
    e.ins(format!("cvt.u64.u32 {t}, {ey}"));
    e.ins(format!("shl.b64 {t}, {t}, 52"));
    e.ins(format!("mov.b64 {sc}, {t}"));
    e.ins(format!("mul.rn.f64 {rd}, {rd}, {sc}"));
    e.ins(format!("cvt.u32.u64 {qlo}, {q}"));
    let (small, p) = (pr(e), pr(e));
    e.ins(format!("setp.lt.f64 {small}, {ax}, {ay}"));
    e.ins(format!("@{small} mov.f64 {rd}, {ax}"));
    e.ins(format!("@{small} mov.u32 {qlo}, 0"));
    if name != "fmod" {
        // Round the quotient to nearest, ties to even.
        let (odd, adj) = (b32(e), pr(e));
        e.ins(format!("add.rn.f64 {t2}, {rd}, {rd}"));
        e.ins(format!("and.b32 {odd}, {qlo}, 1"));
        e.ins(format!("setp.eq.f64 {adj}, {t2}, {ay}"));
        e.ins(format!("setp.ne.and.u32 {adj}, {odd}, 0, {adj}"));
        e.ins(format!("setp.gt.or.f64 {adj}, {t2}, {ay}, {adj}"));
        e.ins(format!("@{adj} sub.rn.f64 {rd}, {rd}, {ay}"));
        e.ins(format!("@{adj} add.u32 {qlo}, {qlo}, 1"));
    }
    e.ins(format!("cvt.rn.f32.f64 {dst}, {rd}"));
    let (sx, sy, xneg) = (b32(e), b32(e), pr(e));
    e.ins(format!("mov.b32 {sx}, {x}"));
    e.ins(format!("mov.b32 {sy}, {y}"));
    e.ins(format!("setp.lt.s32 {xneg}, {sx}, 0"));
    e.ins(format!("@{xneg} neg.f32 {dst}, {dst}"));
    // y = ±∞ with finite x gives x; NaN operands, infinite x or zero y give NaN.
    let bad = pr(e);
    e.ins(format!("testp.infinite.f32 {p}, {y}"));
    e.ins(format!("@{p} mov.f32 {dst}, {x}"));
    e.ins(format!("@{p} mov.u32 {qlo}, 0"));
    e.ins(format!("testp.infinite.f32 {bad}, {x}"));
    e.ins(format!("setp.eq.or.f32 {bad}, {y}, 0f00000000, {bad}"));
    e.ins(format!("testp.notanumber.f32 {p}, {x}"));
    e.ins(format!("or.pred {bad}, {bad}, {p}"));
    e.ins(format!("testp.notanumber.f32 {p}, {y}"));
    e.ins(format!("or.pred {bad}, {bad}, {p}"));
    e.ins(format!("@{bad} mov.f32 {dst}, 0f7FFFFFFF"));
    e.ins(format!("@{bad} mov.u32 {qlo}, 0"));
    if let Some(quo) = quo {
        e.ins(format!("and.b32 {qlo}, {qlo}, 127"));
        e.ins(format!("xor.b32 {sx}, {sx}, {sy}"));
        e.ins(format!("setp.lt.s32 {p}, {sx}, 0"));
        e.ins(format!("@{p} neg.s32 {qlo}, {qlo}"));
        e.ins(format!("mov.u32 {quo}, {qlo}"));
    }
}

/// The sign of Γ(x) that `lgamma_r` stores: 1 for x > 0 and +∞, the sign of sin(πx) below
/// zero, 0 at poles (non-positive integers, -∞) and for NaN.
pub fn lgamma_sign(e: &mut FnEmitter, x: &str, sign: &str) {
    let xd = widen(e, x);
    let (s, _) = sincospi_d(e, &xd);
    let (t, p, q) = (fd(e), pr(e), pr(e));
    e.ins(format!("setp.lt.f64 {p}, {s}, {}", d(0.0)));
    e.ins(format!("selp.s32 {sign}, -1, 1, {p}"));
    e.ins(format!("cvt.rzi.f64.f64 {t}, {xd}"));
    e.ins(format!("setp.eq.f64 {p}, {t}, {xd}"));
    e.ins(format!("setp.le.and.f64 {p}, {xd}, {}, {p}", d(0.0)));
    e.ins(format!("testp.notanumber.f64 {q}, {xd}"));
    e.ins(format!("or.pred {p}, {p}, {q}"));
    e.ins(format!("@{p} mov.u32 {sign}, 0"));
    e.ins(format!("setp.gt.f64 {p}, {xd}, {}", d(0.0)));
    e.ins(format!("@{p} mov.u32 {sign}, 1"));
}

/// The unbiased exponent of f32 `x` (subnormals included: exact in double) as an s32
/// register, for `logb` and `ilogb`.
fn exponent_f32(e: &mut FnEmitter, x: &str) -> String {
    let xd = widen(e, x);
    let (b, k) = (e.tmp(Rc::B64), e.tmp(Rc::B32));
    e.ins(format!("mov.b64 {b}, {xd}"));
    e.ins(format!("shr.u64 {b}, {b}, 52"));
    e.ins(format!("cvt.u32.u64 {k}, {b}"));
    e.ins(format!("and.b32 {k}, {k}, 2047"));
    e.ins(format!("sub.s32 {k}, {k}, 1023"));
    k
}

/// `ilogb` of f32 `x` into s32 `dst`: INT_MIN for 0, INT_MAX for NaN and ±∞.
pub fn ilogb_f32(e: &mut FnEmitter, dst: &str, x: &str) {
    let k = exponent_f32(e, x);
    let p = pr(e);
    e.ins(format!("mov.b32 {dst}, {k}"));
    e.ins(format!("setp.eq.f32 {p}, {x}, 0f00000000"));
    e.ins(format!("@{p} mov.b32 {dst}, 0x80000000"));
    e.ins(format!("testp.finite.f32 {p}, {x}"));
    e.ins(format!("@!{p} mov.b32 {dst}, 0x7FFFFFFF"));
}

/// `logb`, `ldexp`, `nextafter` and `nan` on f32 (exact bit manipulations); false for
/// other names.
pub fn exact_f32(e: &mut FnEmitter, name: &str, dst: &str, x: &str, y: Option<&str>) -> bool {
    let p = pr(e);
    match (name, y) {
        ("logb", _) => {
            let k = exponent_f32(e, x);
            e.ins(format!("cvt.rn.f32.s32 {dst}, {k}"));
            e.ins(format!("setp.eq.f32 {p}, {x}, 0f00000000"));
            e.ins(format!("@{p} mov.f32 {dst}, 0fFF800000"));
            e.ins(format!("testp.infinite.f32 {p}, {x}"));
            e.ins(format!("@{p} mov.f32 {dst}, 0f7F800000"));
            e.ins(format!("testp.notanumber.f32 {p}, {x}"));
            e.ins(format!("@{p} add.f32 {dst}, {x}, {x}"));
        }
        ("nan", _) => {
            let b = e.tmp(Rc::B32);
            e.ins(format!("and.b32 {b}, {x}, 0x003FFFFF"));
            e.ins(format!("or.b32 {b}, {b}, 0x7FC00000"));
            e.ins(format!("mov.b32 {dst}, {b}"));
        }
        ("ldexp", Some(n)) => {
            // x·2^n in double with two exact power-of-two steps, rounded once.
            let xd = widen(e, x);
            let (k, h) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
            e.ins(format!("max.s32 {k}, {n}, -600"));
            e.ins(format!("min.s32 {k}, {k}, 600"));
            e.ins(format!("shr.s32 {h}, {k}, 1"));
            e.ins(format!("sub.s32 {k}, {k}, {h}"));
            for s in [&h, &k] {
                let (w, f) = (e.tmp(Rc::B64), fd(e));
                e.ins(format!("cvt.s64.s32 {w}, {s}"));
                e.ins(format!("add.s64 {w}, {w}, 1023"));
                e.ins(format!("shl.b64 {w}, {w}, 52"));
                e.ins(format!("mov.b64 {f}, {w}"));
                e.ins(format!("mul.rn.f64 {xd}, {xd}, {f}"));
            }
            e.ins(format!("cvt.rn.f32.f64 {dst}, {xd}"));
        }
        ("nextafter", Some(y)) => {
            let (b, t, q) = (e.tmp(Rc::B32), e.tmp(Rc::B32), pr(e));
            e.ins(format!("mov.b32 {b}, {x}"));
            // Away from zero when y is beyond x on x's side; toward it otherwise.
            e.ins(format!("setp.lt.f32 {p}, {x}, {y}"));
            e.ins(format!("setp.gt.f32 {q}, {x}, 0f00000000"));
            e.ins(format!("xor.pred {p}, {p}, {q}"));
            e.ins(format!("selp.s32 {t}, -1, 1, {p}"));
            e.ins(format!("add.s32 {b}, {b}, {t}"));
            e.ins(format!("mov.b32 {dst}, {b}"));
            // From ±0 the smallest subnormal with y's sign.
            e.ins(format!("setp.eq.f32 {p}, {x}, 0f00000000"));
            e.ins(format!("@{p} copysign.f32 {dst}, {y}, 0f00000001"));
            e.ins(format!("setp.eq.f32 {p}, {x}, {y}"));
            e.ins(format!("@{p} mov.f32 {dst}, {y}"));
            e.ins(format!("testp.notanumber.f32 {p}, {x}"));
            e.ins(format!("@{p} add.f32 {dst}, {x}, {x}"));
            e.ins(format!("testp.notanumber.f32 {p}, {y}"));
            e.ins(format!("@{p} add.f32 {dst}, {y}, {y}"));
        }
        _ => return false,
    }
    true
}
