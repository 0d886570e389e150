//! erf, erfc, lgamma and tgamma in double precision, by the cpu runtime's methods
//! (`oclc_cpu::runtime::special`): erf's positive series below 1, Laplace's continued
//! fraction for erfc (a counted loop), Taylor series of ln Γ about 1 and 2 with ζ values,
//! the recurrence, Stirling's series, and reflection below zero.

use crate::dmath::{Cmp, DOps};
use crate::dmath_core::{self as c, hi};
use crate::dmath_fns::pow;

/// Euler–Mascheroni constant γ.
const EULER_GAMMA: f64 = 0.5772156649015329;

/// ζ(k) − 1 for k = 2..=30.
#[allow(clippy::excessive_precision)]
const ZETA_M1: [f64; 29] = [
    0.6449340668482264,
    0.2020569031595943,
    0.08232323371113819,
    0.03692775514336993,
    0.01734306198444914,
    0.008349277381922827,
    0.00407735619794434,
    0.0020083928260822143,
    0.0009945751278180853,
    0.0004941886041194645,
    0.0002460865533080483,
    0.00012271334757848915,
    6.124813505870483e-05,
    3.058823630702049e-05,
    1.528225940865187e-05,
    7.637197637899763e-06,
    3.81729326499984e-06,
    1.908212716553939e-06,
    9.539620338727962e-07,
    4.769329867878064e-07,
    2.38450502727733e-07,
    1.1921992596531106e-07,
    5.960818905125948e-08,
    2.980350351465228e-08,
    1.4901554828365043e-08,
    7.45071178983543e-09,
    3.725334024788457e-09,
    1.862659723513049e-09,
    9.313274324196682e-10,
];

/// Terms of the ln Γ series kept (|z| ≤ ½: the last is below 2^-70 of the first).
const SERIES_TERMS: usize = 64;

fn zeta_m1(k: usize) -> f64 {
    match ZETA_M1.get(k.wrapping_sub(2)) {
        Some(&v) => v,
        None => f64::powi(2.0, -(k as i32)) + f64::powi(3.0, -(k as i32)),
    }
}

/// e^(-a²) with a² as an exact double-double.
fn exp_neg_sq<O: DOps>(o: &mut O, a: O::F) -> O::F {
    let (h, l) = c::two_prod(o, a, a);
    let nh = o.neg(h);
    let nl = o.neg(l);
    c::exp_dd(o, nh, nl)
}

/// erf(a) for 0 ≤ a < 1: (2/√π)·e^(-a²)·a·Σ (2a²)^n/(2n+1)!!.
fn erf_series<O: DOps>(o: &mut O, a: O::F) -> O::F {
    let two = o.f(2.0);
    let aa = o.mul(a, a);
    let u = o.mul(aa, two);
    let mut coef = Vec::new();
    let mut df = 1.0;
    for n in 0..28u32 {
        if n > 0 {
            df *= f64::from(2 * n + 1);
        }
        coef.push(1.0 / df);
    }
    coef.reverse();
    let s = c::horner(o, u, &coef);
    let s = o.mul(s, a);
    let e = exp_neg_sq(o, a);
    let k = o.f(hi(c::TWO_OVER_SQRT_PI));
    let v = o.mul(k, e);
    o.mul(v, s)
}

/// erfc(a) for a ≥ ½ (smaller a is raised to ½): the continued fraction with the cpu
/// runtime's term count, min(20 + 500/a², 2100), evaluated bottom-up in a loop.
fn erfc_cf<O: DOps>(o: &mut O, a: O::F) -> O::F {
    let half = o.f(0.5);
    let a = o.max(a, half);
    let aa = o.mul(a, a);
    let k500 = o.f(500.0);
    let q = o.div(k500, aa);
    let k20 = o.f(20.0);
    let nf = o.add(k20, q);
    let cap = o.f(2100.0);
    let nf = o.min(nf, cap);
    let n = o.f2i_rz(nf);
    let kd = o.i2f(n);
    let (tb, kb) = (o.bits(a), o.bits(kd));
    let [tb, _] = o.repeat(n, [tb, kb], |o, [tb, kb]| {
        let t = o.bitsf(tb);
        let k = o.bitsf(kb);
        let half = o.f(0.5);
        let one = o.f(1.0);
        let kh = o.mul(k, half);
        let d = o.div(kh, t);
        let t = o.add(a, d);
        let k = o.sub(k, one);
        [o.bits(t), o.bits(k)]
    });
    let t = o.bitsf(tb);
    let e = exp_neg_sq(o, a);
    let sp = o.f(hi(c::SQRT_PI));
    let d = o.mul(sp, t);
    o.div(e, d)
}

/// The error function.
pub fn erf<O: DOps>(o: &mut O, x: O::F) -> O::F {
    let a = o.abs(x);
    let tiny = o.f(2f64.powi(-28));
    let one = o.f(1.0);
    let six = o.f(6.0);
    let k = o.f(hi(c::TWO_OVER_SQRT_PI));
    let vt = o.mul(k, a);
    let vs = erf_series(o, a);
    let cf = erfc_cf(o, a);
    let vm = o.sub(one, cf);
    let lt6 = o.fcmp(Cmp::Lt, a, six);
    let v = o.sel(lt6, vm, one);
    let lt1 = o.fcmp(Cmp::Lt, a, one);
    let v = o.sel(lt1, vs, v);
    let ltt = o.fcmp(Cmp::Lt, a, tiny);
    let v = o.sel(ltt, vt, v);
    let v = o.copysign(v, x);
    let n = o.isnan(x);
    o.sel(n, x, v)
}

/// The complementary error function.
pub fn erfc<O: DOps>(o: &mut O, x: O::F) -> O::F {
    let a = o.abs(x);
    let (zero, half, one, two) = (o.f(0.0), o.f(0.5), o.f(1.0), o.f(2.0));
    let tiny = o.f(2f64.powi(-28));
    let k = o.f(hi(c::TWO_OVER_SQRT_PI));
    let vt = o.mul(k, a);
    let vs = erf_series(o, a);
    let ltt = o.fcmp(Cmp::Lt, a, tiny);
    let e = o.sel(ltt, vt, vs);
    let e = o.copysign(e, x);
    let near = o.sub(one, e);
    let cf = erfc_cf(o, a);
    let negv = o.sub(two, cf);
    let xneg = o.fcmp(Cmp::Lt, x, zero);
    let v = o.sel(xneg, negv, cf);
    let big = o.f(27.3);
    let gt = o.fcmp(Cmp::Gt, x, big);
    let v = o.sel(gt, zero, v);
    let lth = o.fcmp(Cmp::Lt, a, half);
    let v = o.sel(lth, near, v);
    let m6 = o.f(-6.0);
    let lt6 = o.fcmp(Cmp::Lt, x, m6);
    let v = o.sel(lt6, two, v);
    let n = o.isnan(x);
    o.sel(n, x, v)
}

/// ln Γ(1 + z) (`one`) or ln Γ(2 + z) for |z| ≤ ½: a linear term and Σ (-1)^k c_k z^k / k.
fn lgamma_series<O: DOps>(o: &mut O, z: O::F, one: O::P) -> O::F {
    let mut p = o.f(0.0);
    for k in (2..=SERIES_TERMS).rev() {
        let sgn = if k % 2 == 0 { 1.0 } else { -1.0 };
        let a1 = o.f(sgn * (1.0 + zeta_m1(k)) / k as f64);
        let a2 = o.f(sgn * zeta_m1(k) / k as f64);
        let a = o.sel(one, a1, a2);
        p = o.fma(p, z, a);
    }
    let zz = o.mul(z, z);
    let s = o.mul(p, zz);
    let (g1, g2) = (o.f(-EULER_GAMMA), o.f(1.0 - EULER_GAMMA));
    let g = o.sel(one, g1, g2);
    o.fma(g, z, s)
}

/// Stirling's correction series Σ B₂ₖ / (2k(2k−1)x^(2k−1)).
fn stirling<O: DOps>(o: &mut O, x: O::F) -> O::F {
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360360.0,
        1.0 / 156.0,
        -3617.0 / 122400.0,
    ];
    let one = o.f(1.0);
    let r = o.div(one, x);
    let r2 = o.mul(r, r);
    let mut acc = o.f(0.0);
    for k in C.iter().rev() {
        let kk = o.f(*k);
        acc = o.fma(acc, r2, kk);
    }
    o.mul(acc, r)
}

/// The pieces of ln Γ(x) and Γ(x) for finite x > 0 that both need.
struct Pos<O: DOps> {
    /// x < 0.5, x < 1.5, x < 2.5, x < 10.
    c05: O::P,
    c25: O::P,
    c10: O::P,
    /// The series value (about 1 or 2).
    ser: O::F,
    /// The recurrence's product for 2.5 ≤ x < 10.
    prod: O::F,
}

fn pos_pieces<O: DOps>(o: &mut O, x: O::F) -> Pos<O> {
    let [t05, t15, t25, t10] = [0.5, 1.5, 2.5, 10.0].map(|v| o.f(v));
    let c05 = o.fcmp(Cmp::Lt, x, t05);
    let c15 = o.fcmp(Cmp::Lt, x, t15);
    let c25 = o.fcmp(Cmp::Lt, x, t25);
    let c10 = o.fcmp(Cmp::Lt, x, t10);
    let one = o.f(1.0);
    let two = o.f(2.0);
    let mut y = x;
    let mut prod = one;
    for _ in 0..8 {
        let c = o.fcmp(Cmp::Ge, y, t25);
        let y1 = o.sub(y, one);
        let p1 = o.mul(prod, y1);
        prod = o.sel(c, p1, prod);
        y = o.sel(c, y1, y);
    }
    let zm1 = o.sub(x, one);
    let zm2 = o.sub(x, two);
    let ym2 = o.sub(y, two);
    let z = o.sel(c25, zm2, ym2);
    let z = o.sel(c15, zm1, z);
    let z = o.sel(c05, x, z);
    let ser = lgamma_series(o, z, c15);
    Pos {
        c05,
        c25,
        c10,
        ser,
        prod,
    }
}

/// ln Γ(x) for finite x > 0.
fn lgamma_pos<O: DOps>(o: &mut O, x: O::F, p: &Pos<O>) -> O::F {
    let one = o.f(1.0);
    let la = o.sel(p.c10, p.prod, x);
    let la = o.sel(p.c25, one, la);
    let la = o.sel(p.c05, x, la);
    let (lg, _) = c::log_dd(o, la);
    let v1 = o.sub(p.ser, lg);
    let v3 = o.add(p.ser, lg);
    let v = o.sel(p.c25, p.ser, v3);
    let v = o.sel(p.c05, v1, v);
    let half = o.f(0.5);
    let xm = o.sub(x, half);
    let st = o.mul(xm, lg);
    let st = o.sub(st, x);
    let h = o.f(hi(c::HALF_LN_2PI));
    let st = o.add(st, h);
    let ss = stirling(o, x);
    let st = o.add(st, ss);
    o.sel(p.c10, v, st)
}

/// Γ(x) for finite x > 0 (+∞ above 171.7).
fn tgamma_pos<O: DOps>(o: &mut O, x: O::F, p: &Pos<O>) -> O::F {
    let zero = o.f(0.0);
    let e = c::exp_dd(o, p.ser, zero);
    let v1 = o.div(e, x);
    let v3 = o.mul(e, p.prod);
    let v = o.sel(p.c25, e, v3);
    let v = o.sel(p.c05, v1, v);
    // Γ(x) = √(2π/x) · (x^(x/2) · e^(−x/2))² · e^S(x).
    let half = o.f(0.5);
    let h = o.mul(x, half);
    let pw = pow(o, x, h);
    let nh = o.neg(h);
    let eh = c::exp_dd(o, nh, zero);
    let a = o.mul(pw, eh);
    let tp = o.f(2.0 * hi(c::PI));
    let q = o.div(tp, x);
    let sq = o.sqrt(q);
    let ss = stirling(o, x);
    let es = c::exp_dd(o, ss, zero);
    let cc = o.mul(sq, es);
    let ac = o.mul(a, cc);
    let big = o.mul(ac, a);
    let lim = o.f(171.7);
    let over = o.fcmp(Cmp::Gt, x, lim);
    let inf = o.f(f64::INFINITY);
    let big = o.sel(over, inf, big);
    o.sel(p.c10, v, big)
}

/// ln π - ln|s| - ln a - ln Γ(a): ln|Γ(-a)| for a > 0 by reflection, s = sin(-πa).
fn reflected<O: DOps>(o: &mut O, s: O::F, a: O::F, lg: O::F) -> O::F {
    let lp = o.f(hi(c::LN_PI));
    let as_ = o.abs(s);
    let (ls, _) = c::log_dd(o, as_);
    let (la, _) = c::log_dd(o, a);
    let v = o.sub(lp, ls);
    let v = o.sub(v, la);
    o.sub(v, lg)
}

/// (ln|Γ(x)|, sign of Γ(x)): the sign is 0 for NaN, poles and -∞.
pub fn lgamma_r<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::I) {
    let a = o.abs(x);
    let p = pos_pieces(o, a);
    let lg = lgamma_pos(o, a, &p);
    let (s, _) = c::sincospi(o, x);
    let neg = reflected(o, s, a, lg);
    let zero = o.f(0.0);
    let xpos = o.fcmp(Cmp::Gt, x, zero);
    let v = o.sel(xpos, lg, neg);
    let (i0, i1, im1) = (o.i(0), o.i(1), o.i(-1));
    let sneg = o.fcmp(Cmp::Lt, s, zero);
    let sg = o.seli(sneg, im1, i1);
    let sg = o.seli(xpos, i1, sg);
    let fl = o.floor(x);
    let int = o.fcmp(Cmp::Eq, fl, x);
    let le0 = o.fcmp(Cmp::Le, x, zero);
    let pole = o.pand(int, le0);
    let inf = o.f(f64::INFINITY);
    let v = o.sel(pole, inf, v);
    let sg = o.seli(pole, i0, sg);
    let xi = o.isinf(x);
    let v = o.sel(xi, inf, v);
    let xn = o.isnan(x);
    let v = o.sel(xn, x, v);
    let bad = o.por(xn, pole);
    let sg = o.seli(bad, i0, sg);
    (v, sg)
}

/// Γ(x): Γ(±0) = ±∞, NaN at negative integers and -∞, +∞ at +∞, exact factorials up to 23.
pub fn tgamma<O: DOps>(o: &mut O, x: O::F) -> O::F {
    let a = o.abs(x);
    let p = pos_pieces(o, a);
    let g = tgamma_pos(o, a, &p);
    let zero = o.f(0.0);
    // Below zero: π / (sin(πx)·(-x)·Γ(-x)), or through logarithms when Γ(-x) overflows.
    let (s, _) = c::sincospi(o, x);
    let sa = o.mul(s, a);
    let d = o.mul(sa, g);
    let pi = o.f(hi(c::PI));
    let rv = o.div(pi, d);
    let lg = lgamma_pos(o, a, &p);
    let l = reflected(o, s, a, lg);
    let el = c::exp_dd(o, l, zero);
    let (one, m1) = (o.f(1.0), o.f(-1.0));
    let sneg = o.fcmp(Cmp::Lt, s, zero);
    let sign = o.sel(sneg, m1, one);
    let lv = o.mul(sign, el);
    let gi = o.isinf(g);
    let neg_v = o.sel(gi, lv, rv);
    let xpos = o.fcmp(Cmp::Gt, x, zero);
    let v = o.sel(xpos, g, neg_v);
    // Exact (x-1)! for integers 1..=23.
    let mut f = one;
    for k in 1..23 {
        let kk = o.f(f64::from(k));
        let c = o.fcmp(Cmp::Lt, kk, x);
        let fk = o.mul(f, kk);
        f = o.sel(c, fk, f);
    }
    let fl = o.floor(x);
    let int = o.fcmp(Cmp::Eq, fl, x);
    let k23 = o.f(23.0);
    let le23 = o.fcmp(Cmp::Le, x, k23);
    let small_int = o.pand(int, le23);
    let small_int = o.pand(small_int, xpos);
    let v = o.sel(small_int, f, v);
    let xneg = o.fcmp(Cmp::Lt, x, zero);
    let neg_int = o.pand(int, xneg);
    let nan = o.f(f64::NAN);
    let v = o.sel(neg_int, nan, v);
    let inf = o.f(f64::INFINITY);
    let xz = o.fcmp(Cmp::Eq, x, zero);
    let zi = o.copysign(inf, x);
    let v = o.sel(xz, zi, v);
    let pinf = o.fcmp(Cmp::Eq, x, inf);
    let v = o.sel(pinf, x, v);
    let ninf = o.f(f64::NEG_INFINITY);
    let mi = o.fcmp(Cmp::Eq, x, ninf);
    let v = o.sel(mi, nan, v);
    let xn = o.isnan(x);
    o.sel(xn, x, v)
}
