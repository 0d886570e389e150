//! Full-precision f32 `sin`, `cos`, `exp` and `log*` in single-precision arithmetic: a GPU
//! runs f32 operations at several times the rate of f64 ones and of f32<->f64 conversions,
//! which dominated these functions evaluated in double. Extra-precise reductions (π/2, ln 2
//! and log2 e in two or three parts, applied with fma) keep the error small; sin and cos use
//! Cephes' `sinf`/`cosf` polynomials, log a fitted one, `exp` ends in `ex2.approx`. Worst
//! errors of a model of these sequences in Rust over every 37th f32, against double-precision
//! results: sin 1.95, cos 1.53, log 1.0, log2 and log10 1.53 ulp (OpenCL: 4, 4, 3, 3, 3);
//! `tests/gpu.rs` measures them, and exp's, on the GPU.

// Coefficients are written with the digits their sources publish; each rounds to the f32
// they were fitted as.
#![allow(clippy::excessive_precision)]

use crate::emit::FnEmitter;
use crate::regs::{Rc, float_literal};
use oclc_ir::Scalar;

fn f(x: f32) -> String {
    float_literal(Scalar::F32, f64::from(x))
}

/// 1.5·2^23: adding it rounds an f32 below 2^22 in magnitude to an integer, whose two's
/// complement low bits are then the low bits of the sum's significand.
const MAGIC: f32 = 12_582_912.0;

/// Below this magnitude the three-part Cody–Waite reduction leaves a remainder accurate to
/// well under an f32 ulp (the quotient stays below 2^17).
pub const SINCOS_FAST_LIMIT: f32 = 105_615.0;

/// `sin`/`cos` of f32 `x` for |x| < [`SINCOS_FAST_LIMIT`]; larger, infinite and NaN
/// arguments branch to `slow`. Writes whichever destination is given.
pub fn sincos(
    e: &mut FnEmitter,
    x: &str,
    sin_dst: Option<&str>,
    cos_dst: Option<&str>,
    slow: &str,
) {
    let r32 = |e: &mut FnEmitter| e.tmp(Rc::F32);
    let (ax, j, r, z) = (r32(e), r32(e), r32(e), r32(e));
    let (q, bit) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
    let (fast, p) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
    e.ins(format!("abs.f32 {ax}, {x}"));
    e.ins(format!(
        "setp.lt.f32 {fast}, {ax}, {}",
        f(SINCOS_FAST_LIMIT)
    ));
    e.ins(format!("@!{fast} bra {slow}"));
    // Quadrant q = rint(x·2/π) (its low bits from the significand), r = x - q·π/2.
    e.ins(format!(
        "fma.rn.f32 {j}, {x}, {}, {}",
        f(std::f32::consts::FRAC_2_PI),
        f(MAGIC)
    ));
    e.ins(format!("mov.b32 {q}, {j}"));
    e.ins(format!("sub.rn.f32 {j}, {j}, {}", f(MAGIC)));
    e.ins(format!("fma.rn.f32 {r}, {j}, {}, {x}", f(-1.570_796_01)));
    e.ins(format!("fma.rn.f32 {r}, {j}, {}, {r}", f(-3.139_164_73e-7)));
    e.ins(format!(
        "fma.rn.f32 {r}, {j}, {}, {r}",
        f(-5.390_302_53e-15)
    ));
    e.ins(format!("mul.rn.f32 {z}, {r}, {r}"));
    // Quadrant q: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s).
    e.ins(format!("and.b32 {bit}, {q}, 1"));
    e.ins(format!("setp.ne.u32 {p}, {bit}, 0"));
    match (sin_dst, cos_dst) {
        (Some(sd), Some(cd)) => {
            let (s, c) = sin_cos_polynomials(e, &r, &z);
            e.ins(format!("selp.f32 {sd}, {c}, {s}, {p}"));
            e.ins(format!("selp.f32 {cd}, {s}, {c}, {p}"));
        }
        (Some(d), None) => one_polynomial(e, d, &r, &z, &p, false),
        (None, Some(d)) => one_polynomial(e, d, &r, &z, &p, true),
        (None, None) => {}
    }
    if let Some(dst) = sin_dst {
        e.ins(format!("and.b32 {bit}, {q}, 2"));
        e.ins(format!("setp.ne.u32 {p}, {bit}, 0"));
        e.ins(format!("@{p} neg.f32 {dst}, {dst}"));
        if cos_dst.is_some() {
            // sin(±0) is ±0 (the sum r + r·z·S(z) gives +0 for -0).
            e.ins(format!("setp.eq.f32 {p}, {x}, {}", f(0.0)));
            e.ins(format!("@{p} mov.f32 {dst}, {x}"));
        }
    }
    if let Some(dst) = cos_dst {
        e.ins(format!("add.s32 {bit}, {q}, 1"));
        e.ins(format!("and.b32 {bit}, {bit}, 2"));
        e.ins(format!("setp.ne.u32 {p}, {bit}, 0"));
        e.ins(format!("@{p} neg.f32 {dst}, {dst}"));
    }
}

/// Cephes' `sinf` and `cosf` polynomials on |r| ≤ π/4 (z = r²), highest degree first:
/// sin r = r + r·z·S(z), cos r = 1 + z·C(z) (C's last coefficient is -½).
const SIN_POLY: [f32; 4] = [
    0.0,
    -1.951_529_589_1e-4,
    8.332_160_873_6e-3,
    -1.666_665_461_1e-1,
];
const COS_POLY: [f32; 4] = [
    2.443_315_711_809_948e-5,
    -1.388_731_625_493_765e-3,
    4.166_664_568_298_827e-2,
    -0.5,
];

/// Both polynomials, for `sincos`: (sin r, cos r).
fn sin_cos_polynomials(e: &mut FnEmitter, r: &str, z: &str) -> (String, String) {
    let r32 = |e: &mut FnEmitter| e.tmp(Rc::F32);
    let (s, c, t, ps, pc) = (r32(e), r32(e), r32(e), r32(e), r32(e));
    for (poly, acc) in [(&SIN_POLY[1..], &ps), (&COS_POLY[..], &pc)] {
        e.ins(format!("mov.f32 {acc}, {}", f(poly[0])));
        for k in &poly[1..] {
            e.ins(format!("fma.rn.f32 {acc}, {acc}, {z}, {}", f(*k)));
        }
    }
    e.ins(format!("mul.rn.f32 {t}, {z}, {r}"));
    e.ins(format!("fma.rn.f32 {s}, {ps}, {t}, {r}"));
    e.ins(format!("fma.rn.f32 {c}, {pc}, {z}, {}", f(1.0)));
    (s, c)
}

/// sin (or cos, `cos`) of `q`·π/2 + r before its sign: one polynomial whose coefficients
/// the quadrant's parity `odd` selects, as NVIDIA's `sinf` does.
fn one_polynomial(e: &mut FnEmitter, dst: &str, r: &str, z: &str, odd: &str, cos: bool) {
    // The cosine polynomial where sin of an odd quadrant or cos of an even one is wanted.
    let (on_odd, on_even) = if cos {
        (&SIN_POLY, &COS_POLY)
    } else {
        (&COS_POLY, &SIN_POLY)
    };
    let (acc, k, a, t) = (
        e.tmp(Rc::F32),
        e.tmp(Rc::F32),
        e.tmp(Rc::F32),
        e.tmp(Rc::F32),
    );
    for (i, (x, y)) in on_odd.iter().zip(on_even.iter()).enumerate() {
        let sel = if i == 0 { &acc } else { &k };
        e.ins(format!("selp.f32 {sel}, {}, {}, {odd}", f(*x), f(*y)));
        if i > 0 {
            e.ins(format!("fma.rn.f32 {acc}, {acc}, {z}, {k}"));
        }
    }
    let (a_odd, a_even) = if cos {
        (r.to_string(), f(1.0))
    } else {
        (f(1.0), r.to_string())
    };
    e.ins(format!("selp.f32 {a}, {a_odd}, {a_even}, {odd}"));
    // a·(1 + z·P): a product, so sin(±0) keeps the sign of r = ±0.
    e.ins(format!("fma.rn.f32 {t}, {z}, {acc}, {}", f(1.0)));
    e.ins(format!("mul.rn.f32 {dst}, {a}, {t}"));
}

/// e^x for f32 `x`: n = rint(x·log2 e), r = x·log2 e - n carried with log2 e in two parts
/// (|r| ≤ ½), 2^r by `ex2.approx` (NVIDIA's `expf` is built the same way), times 2^n in two
/// exact steps so that a subnormal result is rounded once.
pub fn exp(e: &mut FnEmitter, dst: &str, x: &str) {
    let r32 = |e: &mut FnEmitter| e.tmp(Rc::F32);
    let (t, j, r, p) = (r32(e), r32(e), r32(e), r32(e));
    let n = e.tmp(Rc::B32);
    let nan = e.tmp(Rc::Pred);
    // Outside [-104, 89] the result is 0 or infinity; the clamp keeps 2^n in range.
    e.ins(format!("max.f32 {t}, {x}, {}", f(-104.0)));
    e.ins(format!("min.f32 {t}, {t}, {}", f(89.0)));
    e.ins(format!(
        "fma.rn.f32 {j}, {t}, {}, {}",
        f(std::f32::consts::LOG2_E),
        f(MAGIC)
    ));
    e.ins(format!("mov.b32 {n}, {j}"));
    e.ins(format!("sub.s32 {n}, {n}, {}", MAGIC.to_bits()));
    // j = -n exactly.
    e.ins(format!("sub.rn.f32 {j}, {}, {j}", f(MAGIC)));
    e.ins(format!(
        "fma.rn.f32 {r}, {t}, {}, {j}",
        f(std::f32::consts::LOG2_E)
    ));
    e.ins(format!("fma.rn.f32 {r}, {t}, {}, {r}", f(1.925_963e-8)));
    e.ins(format!("ex2.approx.ftz.f32 {p}, {r}"));
    scale_by_power_of_two(e, dst, &p, &n);
    e.ins(format!("testp.notanumber.f32 {nan}, {x}"));
    e.ins(format!("@{nan} add.f32 {dst}, {x}, {x}"));
}

/// `dst = v·2^n` for f32 `v` near 1 and |n| ≤ 254: as two exact powers of two, so that a
/// subnormal result is rounded once.
pub fn scale_by_power_of_two(e: &mut FnEmitter, dst: &str, v: &str, n: &str) {
    let (n1, n2) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
    let (s1, s2, t) = (e.tmp(Rc::F32), e.tmp(Rc::F32), e.tmp(Rc::F32));
    e.ins(format!("shr.s32 {n1}, {n}, 1"));
    e.ins(format!("sub.s32 {n2}, {n}, {n1}"));
    for (k, s) in [(&n1, &s1), (&n2, &s2)] {
        e.ins(format!("add.s32 {k}, {k}, 127"));
        e.ins(format!("shl.b32 {k}, {k}, 23"));
        e.ins(format!("mov.b32 {s}, {k}"));
    }
    e.ins(format!("mul.rn.f32 {t}, {v}, {s1}"));
    e.ins(format!("mul.rn.f32 {dst}, {t}, {s2}"));
}

/// Which logarithm [`log`] computes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LogBase {
    E,
    Two,
    Ten,
}

/// log(1 + f) = f + f²·P(f) on f ∈ [-⅓, ⅓]: P fitted to relative error 2.4e-8 (iteratively
/// reweighted least squares on 4 000 Chebyshev nodes, coefficients rounded to f32),
/// highest degree first.
const LOG1P_POLY: [f32; 9] = [
    -0.106_424_219_906_330_11,
    0.138_286_292_552_948,
    -0.127_136_617_898_941_04,
    0.140_350_297_093_391_42,
    -0.166_394_338_011_741_64,
    0.200_088_292_360_305_8,
    -0.250_009_536_743_164_06,
    0.333_332_389_593_124_4,
    -0.499_999_910_593_032_84,
];

/// `log`, `log2` or `log10` of f32 `x`: x = m·2^k with m in [⅔, 4/3), f = m - 1 (exact),
/// log(1+f) by [`LOG1P_POLY`] (no division), plus k·log b(2); log2 and log10 carry
/// log(1+f) and log_b(e) in two parts.
pub fn log(e: &mut FnEmitter, dst: &str, x: &str, base: LogBase) {
    let r32 = |e: &mut FnEmitter| e.tmp(Rc::F32);
    let (xs, m, fm, dk, kf, p, t, l, lo) = (
        r32(e),
        r32(e),
        r32(e),
        r32(e),
        r32(e),
        r32(e),
        r32(e),
        r32(e),
        r32(e),
    );
    let (bits, k, kadj) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::F32));
    let (q, tb) = (e.tmp(Rc::Pred), e.tmp(Rc::B32));
    let (main, special, end) = (e.fresh_label(), e.fresh_label(), e.fresh_label());
    // Positive normal numbers take the straight path; the rest (±0, negatives, subnormals,
    // +∞, NaN) branch to cold code, which scales subnormals by 2^23 and gives the others
    // their results: lg2.approx's -∞ for ±0, NaN below zero, +∞ for +∞; NaN stays NaN.
    e.ins(format!("mov.b32 {bits}, {x}"));
    e.ins(format!("mov.f32 {xs}, {x}"));
    e.ins(format!("mov.f32 {kadj}, {}", f(0.0)));
    e.ins(format!("add.s32 {tb}, {bits}, -8388608"));
    e.ins(format!("setp.lt.u32 {q}, {tb}, 0x7F000000"));
    e.ins(format!("@!{q} bra {special}"));
    e.cold(|e| {
        e.label(&special);
        e.ins(format!("add.s32 {tb}, {bits}, -1"));
        e.ins(format!("setp.lt.u32 {q}, {tb}, 0x007FFFFF"));
        e.ins(format!("@{q} mul.rn.f32 {xs}, {x}, {}", f(8_388_608.0)));
        e.ins(format!("@{q} mov.f32 {kadj}, {}", f(-23.0)));
        e.ins(format!("@{q} bra {main}"));
        e.ins(format!("lg2.approx.f32 {dst}, {x}"));
        e.ins(format!("testp.notanumber.f32 {q}, {x}"));
        e.ins(format!("@{q} add.f32 {dst}, {x}, {x}"));
        e.ins(format!("bra.uni {end}"));
    });
    e.label(&main);
    e.ins(format!("mov.b32 {bits}, {xs}"));
    // k·2^23 = (bits - bits(⅔)) rounded down to a multiple of 2^23; m's bits = bits - k·2^23.
    e.ins(format!("sub.s32 {k}, {bits}, 0x3F2AAAAB"));
    e.ins(format!("and.b32 {k}, {k}, 0xFF800000"));
    e.ins(format!("sub.s32 {bits}, {bits}, {k}"));
    e.ins(format!("mov.b32 {m}, {bits}"));
    e.ins(format!("cvt.rn.f32.s32 {kf}, {k}"));
    e.ins(format!(
        "fma.rn.f32 {dk}, {kf}, {}, {kadj}",
        f(1.0 / 8_388_608.0)
    ));
    e.ins(format!("sub.rn.f32 {fm}, {m}, {}", f(1.0)));
    e.ins(format!("mov.f32 {p}, {}", f(LOG1P_POLY[0])));
    for c in &LOG1P_POLY[1..] {
        e.ins(format!("fma.rn.f32 {p}, {p}, {fm}, {}", f(*c)));
    }
    e.ins(format!("mul.rn.f32 {t}, {fm}, {p}"));
    // l = log(1+f), rounded once.
    e.ins(format!("fma.rn.f32 {l}, {t}, {fm}, {fm}"));
    match base {
        LogBase::E => {
            e.ins(format!(
                "fma.rn.f32 {dst}, {dk}, {}, {l}",
                f(std::f32::consts::LN_2)
            ));
        }
        LogBase::Two | LogBase::Ten => {
            // lo = l's rounding error (f - l is exact); l + lo scaled by log_b(e) in two parts.
            let (c_hi, c_lo) = if base == LogBase::Two {
                (1.442_695_02, 1.925_963e-8)
            } else {
                (0.434_294_462, 1.969_927_23e-8)
            };
            e.ins(format!("sub.rn.f32 {lo}, {fm}, {l}"));
            e.ins(format!("fma.rn.f32 {lo}, {t}, {fm}, {lo}"));
            e.ins(format!("mul.rn.f32 {lo}, {lo}, {}", f(c_hi)));
            e.ins(format!("fma.rn.f32 {lo}, {l}, {}, {lo}", f(c_lo)));
            e.ins(format!("fma.rn.f32 {lo}, {l}, {}, {lo}", f(c_hi)));
            if base == LogBase::Two {
                e.ins(format!("add.rn.f32 {dst}, {dk}, {lo}"));
            } else {
                e.ins(format!(
                    "fma.rn.f32 {lo}, {dk}, {}, {lo}",
                    f(4.605_039_07e-6)
                ));
                e.ins(format!(
                    "fma.rn.f32 {dst}, {dk}, {}, {lo}",
                    f(3.010_253_91e-1)
                ));
            }
        }
    }
    e.label(&end);
}
