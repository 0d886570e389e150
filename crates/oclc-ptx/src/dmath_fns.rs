//! The double-precision builtins of [`dmath`](crate::dmath), composed from the cores of
//! [`dmath_core`](crate::dmath_core) and [`dmath_special`](crate::dmath_special), with the
//! special values the cpu runtime gives (C99 Annex F and the OpenCL edge-case rules).

use crate::dmath::{Cmp, DOps};
use crate::dmath_core::{self as c, Dd, hi, lo};
use crate::dmath_special as sp;

/// v·C rounded about once, for a double-double constant C.
pub fn mul_dd<O: DOps>(o: &mut O, v: O::F, k: Dd) -> O::F {
    let (kh, kl) = (o.f(hi(k)), o.f(lo(k)));
    let (p, e) = c::two_prod(o, v, kh);
    let e = o.fma(v, kl, e);
    o.add(p, e)
}

/// (h + l)·C as a double-double, for a double-double constant C.
fn mul_dd2<O: DOps>(o: &mut O, h: O::F, l: O::F, k: Dd) -> (O::F, O::F) {
    let (kh, kl) = (o.f(hi(k)), o.f(lo(k)));
    let (p, e) = c::two_prod(o, h, kh);
    let e = o.fma(h, kl, e);
    let e = o.fma(l, kh, e);
    (p, e)
}

/// True when `v` is ±∞ or NaN.
fn nonfinite<O: DOps>(o: &mut O, v: O::F) -> O::P {
    let a = o.isinf(v);
    let b = o.isnan(v);
    o.por(a, b)
}

/// `x` itself where it is NaN, else `v`.
fn keep_nan<O: DOps>(o: &mut O, x: O::F, v: O::F) -> O::F {
    let n = o.isnan(x);
    o.sel(n, x, v)
}

/// The unbiased exponent of finite nonzero x (subnormals normalized).
pub fn exponent<O: DOps>(o: &mut O, x: O::F) -> O::I {
    let a = o.abs(x);
    let minpos = o.f(f64::MIN_POSITIVE);
    let sub = o.fcmp(Cmp::Lt, a, minpos);
    let k54 = o.f(18014398509481984.0);
    let ab = o.mul(a, k54);
    let xs = o.sel(sub, ab, a);
    let b = o.bits(xs);
    let s52 = o.i(52);
    let eb = o.lshr(b, s52);
    let e = o.l2i(eb);
    let (adj_sub, adj) = (o.i(-1023 - 54), o.i(-1023));
    let adj = o.seli(sub, adj_sub, adj);
    o.iadd(e, adj)
}

/// `ilogb`: INT_MIN for 0, INT_MAX for NaN and ±∞.
pub fn ilogb<O: DOps>(o: &mut O, x: O::F) -> O::I {
    let e = exponent(o, x);
    let zero = o.f(0.0);
    let z = o.fcmp(Cmp::Eq, x, zero);
    let (mn, mx) = (o.i(i32::MIN), o.i(i32::MAX));
    let e = o.seli(z, mn, e);
    let nf = nonfinite(o, x);
    o.seli(nf, mx, e)
}

/// (sin x, cos x).
pub fn sin_cos<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::F) {
    c::sin_cos(o, x)
}

/// (lgamma x, sign of Γ(x)) as `lgamma_r` gives them.
pub fn lgamma_r<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::I) {
    sp::lgamma_r(o, x)
}

/// Unary builtin `name`, or None for a name of another shape.
pub fn unary<O: DOps>(o: &mut O, name: &str, x: O::F) -> Option<O::F> {
    let zero = o.f(0.0);
    Some(match name {
        "exp" => c::exp_dd(o, x, zero),
        "exp2" | "exp10" => {
            let (lim, k) = if name == "exp2" {
                (1200.0, c::LN2)
            } else {
                (400.0, c::LN10)
            };
            let (l1, l2) = (o.f(lim), o.f(-lim));
            let t = o.min(x, l1);
            let t = o.max(t, l2);
            let (h, l) = mul_dd2(o, t, zero, k);
            let r = c::exp_dd(o, h, l);
            keep_nan(o, x, r)
        }
        "expm1" => c::expm1(o, x),
        "log" => c::log_full(o, x).0,
        "log2" | "log10" => {
            let (h, l) = c::log_full(o, x);
            let k = if name == "log2" { c::LOG2E } else { c::LOG10E };
            let (p, e) = mul_dd2(o, h, l, k);
            let r = o.add(p, e);
            let nf = nonfinite(o, h);
            o.sel(nf, h, r)
        }
        "log1p" => c::log1p(o, x),
        "logb" => {
            let e = exponent(o, x);
            let r = o.i2f(e);
            let z = o.fcmp(Cmp::Eq, x, zero);
            let ninf = o.f(f64::NEG_INFINITY);
            let r = o.sel(z, ninf, r);
            let inf = o.isinf(x);
            let pinf = o.f(f64::INFINITY);
            let r = o.sel(inf, pinf, r);
            keep_nan(o, x, r)
        }
        "sin" => c::sin_cos(o, x).0,
        "cos" => c::sin_cos(o, x).1,
        "tan" => {
            let (s, co) = c::sin_cos(o, x);
            o.div(s, co)
        }
        "sinpi" => c::sincospi(o, x).0,
        "cospi" => c::sincospi(o, x).1,
        "tanpi" => {
            let (s, co) = c::sincospi(o, x);
            o.div(s, co)
        }
        "atan" | "atanpi" => {
            let a = o.abs(x);
            let mut r = c::atan_pos(o, a);
            if name == "atanpi" {
                r = mul_dd(o, r, c::INV_PI);
            }
            o.copysign(r, x)
        }
        "asin" | "asinpi" => {
            let a = o.abs(x);
            let one = o.f(1.0);
            let half = o.f(0.5);
            let na = o.neg(a);
            let w1 = o.fma(na, a, one);
            let p = o.sub(one, a);
            let q = o.add(one, a);
            let w2 = o.mul(p, q);
            let sm = o.fcmp(Cmp::Lt, a, half);
            let w = o.sel(sm, w1, w2);
            let sq = o.sqrt(w);
            let t = o.div(a, sq);
            let mut r = c::atan_pos(o, t);
            if name == "asinpi" {
                r = mul_dd(o, r, c::INV_PI);
            }
            let r = o.copysign(r, x);
            keep_nan(o, x, r)
        }
        "acos" | "acospi" => {
            let one = o.f(1.0);
            let p = o.sub(one, x);
            let q = o.add(one, x);
            let w = o.div(p, q);
            let t = o.sqrt(w);
            let r = c::atan_pos(o, t);
            let r = o.add(r, r);
            let r = if name == "acospi" {
                mul_dd(o, r, c::INV_PI)
            } else {
                r
            };
            keep_nan(o, x, r)
        }
        "sinh" | "cosh" | "tanh" => hyperbolic(o, name, x),
        "asinh" | "acosh" | "atanh" => inverse_hyperbolic(o, name, x),
        "cbrt" => {
            let a = o.abs(x);
            let (h, l) = c::log_dd(o, a);
            let third: Dd = (0x3FD5555555555555, 0x3C75555555555555);
            let (zh, zl) = mul_dd2(o, h, l, third);
            let r = c::exp_dd(o, zh, zl);
            let r = o.copysign(r, x);
            let z = o.fcmp(Cmp::Eq, x, zero);
            let nf = nonfinite(o, x);
            let sp = o.por(z, nf);
            o.sel(sp, x, r)
        }
        "erf" => sp::erf(o, x),
        "erfc" => sp::erfc(o, x),
        "tgamma" => sp::tgamma(o, x),
        "lgamma" => sp::lgamma_r(o, x).0,
        _ => return None,
    })
}

/// sinh, cosh, tanh through e^x - 1 (fdlibm's formulas); beyond 22, (½e^(|x|/2))·e^(|x|/2)
/// so that sinh and cosh overflow only where they must.
fn hyperbolic<O: DOps>(o: &mut O, name: &str, x: O::F) -> O::F {
    let a = o.abs(x);
    let (zero, half, one, two) = (o.f(0.0), o.f(0.5), o.f(1.0), o.f(2.0));
    let k22 = o.f(22.0);
    let large = o.fcmp(Cmp::Ge, a, k22);
    let ah = o.mul(a, half);
    let w = c::exp_dd(o, ah, zero);
    let hw = o.mul(w, half);
    let big = o.mul(hw, w);
    let r = match name {
        "sinh" => {
            let t = c::expm1(o, a);
            let t1 = o.add(t, one);
            let q = o.div(t, t1);
            // a < 1: ½(2t - t²/(t+1)); else ½(t + t/(t+1)).
            let tq = o.mul(t, q);
            let t2 = o.mul(t, two);
            let s1 = o.sub(t2, tq);
            let s2 = o.add(t, q);
            let lt1 = o.fcmp(Cmp::Lt, a, one);
            let s = o.sel(lt1, s1, s2);
            let s = o.mul(s, half);
            let r = o.sel(large, big, s);
            o.copysign(r, x)
        }
        "cosh" => {
            let t = c::expm1(o, a);
            let w1 = o.add(t, one);
            let tt = o.mul(t, t);
            let d = o.add(w1, w1);
            let q = o.div(tt, d);
            let c1 = o.add(one, q);
            let e = c::exp_dd(o, a, zero);
            let he = o.mul(e, half);
            let ie = o.div(half, e);
            let c2 = o.add(he, ie);
            let thr = o.f(0.3465735902799726);
            let sm = o.fcmp(Cmp::Lt, a, thr);
            let r = o.sel(sm, c1, c2);
            o.sel(large, big, r)
        }
        _ => {
            let a2 = o.mul(a, two);
            let t = c::expm1(o, a2);
            let t2 = o.add(t, two);
            let q = o.div(two, t2);
            let r1 = o.sub(one, q);
            let na2 = o.neg(a2);
            let u = c::expm1(o, na2);
            let u2 = o.add(u, two);
            let nu = o.neg(u);
            let r2 = o.div(nu, u2);
            let ge1 = o.fcmp(Cmp::Ge, a, one);
            let r = o.sel(ge1, r1, r2);
            let r = o.sel(large, one, r);
            o.copysign(r, x)
        }
    };
    keep_nan(o, x, r)
}

/// asinh, acosh, atanh by the cpu runtime's formulas on the double-double logarithm.
fn inverse_hyperbolic<O: DOps>(o: &mut O, name: &str, x: O::F) -> O::F {
    let a = o.abs(x);
    let (half, one, two) = (o.f(0.5), o.f(1.0), o.f(2.0));
    let p28 = o.f(268435456.0);
    let r = match name {
        "asinh" => {
            // Beyond 2^28: ln a + ln 2; beyond 2: ln(2a + 1/(√(a²+1) + a)); else log1p.
            let huge = o.fcmp(Cmp::Gt, a, p28);
            let aa = o.mul(a, a);
            let w = o.add(aa, one);
            let sq = o.sqrt(w);
            let d = o.add(sq, a);
            let id = o.div(one, d);
            let ta = o.mul(a, two);
            let arg = o.add(ta, id);
            let arg = o.sel(huge, a, arg);
            let (h, l) = c::log_dd(o, arg);
            let big_v = plus_ln2(o, h, l);
            let big_v = o.sel(huge, big_v, h);
            let sq1 = o.add(sq, one);
            let t = o.div(aa, sq1);
            let t = o.add(a, t);
            let small_v = c::log1p(o, t);
            let gt2 = o.fcmp(Cmp::Gt, a, two);
            let r = o.sel(gt2, big_v, small_v);
            let tiny = o.f(3.725290298461914e-9);
            let lt = o.fcmp(Cmp::Lt, a, tiny);
            let r = o.sel(lt, a, r);
            let inf = o.isinf(a);
            let r = o.sel(inf, a, r);
            o.copysign(r, x)
        }
        "acosh" => {
            let t = o.sub(x, one);
            let t2 = o.mul(t, two);
            let w = o.fma(t, t, t2);
            let sq = o.sqrt(w);
            let u = o.add(t, sq);
            let small_v = c::log1p(o, u);
            let huge = o.fcmp(Cmp::Ge, x, p28);
            let xx = o.mul(x, x);
            let w2 = o.sub(xx, one);
            let sq2 = o.sqrt(w2);
            let d = o.add(x, sq2);
            let id = o.div(one, d);
            let tx = o.mul(x, two);
            let arg = o.sub(tx, id);
            let arg = o.sel(huge, x, arg);
            let (h, l) = c::log_full(o, arg);
            let hv = plus_ln2(o, h, l);
            let inf = o.isinf(x);
            let huge_fin = andn(o, huge, inf);
            let big_v = o.sel(huge_fin, hv, h);
            let lt2 = o.fcmp(Cmp::Lt, x, two);
            let r = o.sel(lt2, small_v, big_v);
            let lt1 = o.fcmp(Cmp::Lt, x, one);
            let nan = o.f(f64::NAN);
            o.sel(lt1, nan, r)
        }
        _ => {
            let d = o.mul(a, two);
            let om = o.sub(one, a);
            let da = o.mul(d, a);
            let q = o.div(da, om);
            let s1 = o.add(d, q);
            let s2 = o.div(d, om);
            let lt = o.fcmp(Cmp::Lt, a, half);
            let arg = o.sel(lt, s1, s2);
            let l = c::log1p(o, arg);
            let r = o.mul(l, half);
            o.copysign(r, x)
        }
    };
    keep_nan(o, x, r)
}

/// a ∧ ¬b.
/// `(h + l) + ln 2` for a double-double logarithm `h + l`, rounded once: ln(2a) from ln a.
fn plus_ln2<O: DOps>(o: &mut O, h: O::F, l: O::F) -> O::F {
    let (l2h, l2l) = (o.f(hi(c::LN2)), o.f(lo(c::LN2)));
    let (hh, hl) = c::two_sum(o, h, l2h);
    let hl = o.add(hl, l);
    let hl = o.add(hl, l2l);
    o.add(hh, hl)
}

fn andn<O: DOps>(o: &mut O, a: O::P, b: O::P) -> O::P {
    let nb = o.pnot(b);
    o.pand(a, nb)
}

/// C99 `pow(x, y)`: e^(y·ln|x|) with ln|x| and the product as double-doubles, then the sign
/// and the special cases.
pub fn pow<O: DOps>(o: &mut O, x: O::F, y: O::F) -> O::F {
    let ax = o.abs(x);
    let (lh, ll) = c::log_full(o, ax);
    let zh = o.mul(y, lh);
    let nzh = o.neg(zh);
    let zl = o.fma(y, lh, nzh);
    let zl = o.fma(y, ll, zl);
    let zero = o.f(0.0);
    let nf = nonfinite(o, zh);
    let zl = o.sel(nf, zero, zl);
    let r = c::exp_dd(o, zh, zl);
    let half = o.f(0.5);
    let yt = o.trunc(y);
    let yint = o.fcmp(Cmp::Eq, yt, y);
    let hy = o.mul(y, half);
    let hyt = o.trunc(hy);
    let even = o.fcmp(Cmp::Eq, hyt, hy);
    let odd = andn(o, yint, even);
    let xs = c::signbit(o, x);
    let neg = o.pand(xs, odd);
    let nr = o.neg(r);
    let r = o.sel(neg, nr, r);
    let xneg = o.fcmp(Cmp::Lt, x, zero);
    let xinf = o.isinf(x);
    let xneg_fin = andn(o, xneg, xinf);
    let bad = andn(o, xneg_fin, yint);
    let nan = o.f(f64::NAN);
    let r = o.sel(bad, nan, r);
    let xn = o.isnan(x);
    let yn = o.isnan(y);
    let anyn = o.por(xn, yn);
    let s = o.add(x, y);
    let r = o.sel(anyn, s, r);
    let one = o.f(1.0);
    let m1 = o.f(-1.0);
    let yz = o.fcmp(Cmp::Eq, y, zero);
    let x1 = o.fcmp(Cmp::Eq, x, one);
    let xm1 = o.fcmp(Cmp::Eq, x, m1);
    let yinf = o.isinf(y);
    let xm1i = o.pand(xm1, yinf);
    let ones = o.por(yz, x1);
    let ones = o.por(ones, xm1i);
    o.sel(ones, one, r)
}

/// Builtin `name(x, y)` on doubles (fmod and remainder are [`c::rem`]).
pub fn binary<O: DOps>(o: &mut O, name: &str, x: O::F, y: O::F) -> Option<O::F> {
    let zero = o.f(0.0);
    Some(match name {
        "pow" => pow(o, x, y),
        "powr" => {
            let ax = o.abs(x);
            let r = pow(o, ax, y);
            let inf = o.f(f64::INFINITY);
            let one = o.f(1.0);
            let xneg = o.fcmp(Cmp::Lt, x, zero);
            let xn = o.isnan(x);
            let yn = o.isnan(y);
            let x0 = o.fcmp(Cmp::Eq, x, zero);
            let xi = o.fcmp(Cmp::Eq, x, inf);
            let y0 = o.fcmp(Cmp::Eq, y, zero);
            let x1 = o.fcmp(Cmp::Eq, x, one);
            let yi = o.isinf(y);
            let b = o.por(xneg, xn);
            let b = o.por(b, yn);
            let z = o.por(x0, xi);
            let z = o.pand(z, y0);
            let b = o.por(b, z);
            let w = o.pand(x1, yi);
            let b = o.por(b, w);
            let nan = o.f(f64::NAN);
            o.sel(b, nan, r)
        }
        "atan2" | "atan2pi" => {
            // The builtin's first argument is y.
            let (yv, xv) = (x, y);
            let ay = o.abs(yv);
            let ax = o.abs(xv);
            let t = o.div(ay, ax);
            let z = c::atan_pos(o, t);
            let ayz = o.fcmp(Cmp::Eq, ay, zero);
            let z = o.sel(ayz, zero, z);
            let ayi = o.isinf(ay);
            let axi = o.isinf(ax);
            let both = o.pand(ayi, axi);
            let xneg = c::signbit(o, xv);
            let r = if name == "atan2" {
                let p4 = o.f(hi(c::PIO4));
                let z = o.sel(both, p4, z);
                let (ph, pl) = (o.f(hi(c::PI)), o.f(lo(c::PI)));
                let d = o.sub(z, pl);
                let w = o.sub(ph, d);
                o.sel(xneg, w, z)
            } else {
                let w = mul_dd(o, z, c::INV_PI);
                let q = o.f(0.25);
                let w = o.sel(both, q, w);
                let one = o.f(1.0);
                let v = o.sub(one, w);
                o.sel(xneg, v, w)
            };
            let r = o.copysign(r, yv);
            let xn = o.isnan(xv);
            let yn = o.isnan(yv);
            let anyn = o.por(xn, yn);
            let s = o.add(xv, yv);
            o.sel(anyn, s, r)
        }
        "hypot" => {
            let ax = o.abs(x);
            let ay = o.abs(y);
            let big = o.max(ax, ay);
            let small = o.min(ax, ay);
            let (up, down) = (o.f(2f64.powi(600)), o.f(2f64.powi(-600)));
            let one = o.f(1.0);
            let (thr_hi, thr_lo) = (o.f(2f64.powi(500)), o.f(2f64.powi(-500)));
            let gh = o.fcmp(Cmp::Gt, big, thr_hi);
            let gl = o.fcmp(Cmp::Lt, big, thr_lo);
            let s = o.sel(gh, down, one);
            let s = o.sel(gl, up, s);
            let u = o.sel(gh, up, one);
            let u = o.sel(gl, down, u);
            let b = o.mul(big, s);
            let sm = o.mul(small, s);
            let ss = o.mul(sm, sm);
            let w = o.fma(b, b, ss);
            let r = o.sqrt(w);
            let r = o.mul(r, u);
            let xn = o.isnan(x);
            let yn = o.isnan(y);
            let anyn = o.por(xn, yn);
            let s = o.add(x, y);
            let r = o.sel(anyn, s, r);
            let xi = o.isinf(x);
            let yi = o.isinf(y);
            let anyi = o.por(xi, yi);
            let inf = o.f(f64::INFINITY);
            o.sel(anyi, inf, r)
        }
        "nextafter" => {
            let b = o.bits(x);
            let p = o.fcmp(Cmp::Lt, x, y);
            let q = o.fcmp(Cmp::Gt, x, zero);
            let pq = andn(o, p, q);
            let qp = andn(o, q, p);
            let down = o.por(pq, qp);
            let one = o.l(1);
            let bu = o.ladd(b, one);
            let bd = o.lsub(b, one);
            let nb = o.sell(down, bd, bu);
            let r = o.bitsf(nb);
            let tiny = o.f(f64::from_bits(1));
            let tz = o.copysign(tiny, y);
            let xz = o.fcmp(Cmp::Eq, x, zero);
            let r = o.sel(xz, tz, r);
            let eq = o.fcmp(Cmp::Eq, x, y);
            let r = o.sel(eq, y, r);
            let yn = o.isnan(y);
            let r = o.sel(yn, y, r);
            keep_nan(o, x, r)
        }
        _ => return None,
    })
}

/// Builtin `name(x, n)` with an int `n`: pown, rootn, ldexp.
pub fn with_int<O: DOps>(o: &mut O, name: &str, x: O::F, n: O::I) -> Option<O::F> {
    let zero = o.f(0.0);
    let i0 = o.i(0);
    Some(match name {
        "pown" => {
            let y = o.i2f(n);
            pow(o, x, y)
        }
        "rootn" => {
            let nd = o.i2f(n);
            let ax = o.abs(x);
            let (lh, ll) = c::log_full(o, ax);
            let one = o.f(1.0);
            let rh = o.div(one, nd);
            let nrh = o.neg(rh);
            let e = o.fma(nrh, nd, one);
            let rl = o.div(e, nd);
            let zh = o.mul(lh, rh);
            let nzh = o.neg(zh);
            let zl = o.fma(lh, rh, nzh);
            let zl = o.fma(lh, rl, zl);
            let zl = o.fma(ll, rh, zl);
            let nf = nonfinite(o, zh);
            let zl = o.sel(nf, zero, zl);
            let r = c::exp_dd(o, zh, zl);
            let r = o.copysign(r, x);
            let i1 = o.i(1);
            let i2 = o.i(2);
            let n1 = o.icmp(Cmp::Eq, n, i1);
            let r = o.sel(n1, x, r);
            let n2 = o.icmp(Cmp::Eq, n, i2);
            let sq = o.sqrt(x);
            let r = o.sel(n2, sq, r);
            let ob = o.iand(n, i1);
            let odd = o.icmp(Cmp::Ne, ob, i0);
            let x0 = o.fcmp(Cmp::Eq, x, zero);
            let ar = o.abs(r);
            let ev0 = andn(o, x0, odd);
            let r = o.sel(ev0, ar, r);
            let xneg = o.fcmp(Cmp::Lt, x, zero);
            let bad = andn(o, xneg, odd);
            let nz = o.icmp(Cmp::Eq, n, i0);
            let bad = o.por(bad, nz);
            let nan = o.f(f64::NAN);
            let r = o.sel(bad, nan, r);
            keep_nan(o, x, r)
        }
        "ldexp" => {
            let (lo_n, hi_n) = (o.i(-2300), o.i(2300));
            let n = o.imax(n, lo_n);
            let n = o.imin(n, hi_n);
            let k = exponent(o, x);
            let a = o.abs(x);
            let minpos = o.f(f64::MIN_POSITIVE);
            let sub = o.fcmp(Cmp::Lt, a, minpos);
            let k54 = o.f(18014398509481984.0);
            let ab = o.mul(a, k54);
            let xs = o.sel(sub, ab, a);
            let b = o.bits(xs);
            let mant = o.l(0x000F_FFFF_FFFF_FFFF);
            let mb = o.land(b, mant);
            let e = o.iadd(k, n);
            let s52 = o.i(52);
            let b1023 = o.i(1023);
            let en = o.iadd(e, b1023);
            let el = o.i2l(en);
            let eb = o.lshl(el, s52);
            let nb = o.lor(eb, mb);
            let normal = o.bitsf(nb);
            let floor_e = o.i(-1100);
            let et = o.imax(e, floor_e);
            let b1623 = o.i(1623);
            let et = o.iadd(et, b1623);
            let el = o.i2l(et);
            let eb = o.lshl(el, s52);
            let tb = o.lor(eb, mb);
            let tv = o.bitsf(tb);
            let down = o.f(2f64.powi(-600));
            let tiny = o.mul(tv, down);
            let lo_e = o.i(-1022);
            let isn = o.icmp(Cmp::Ge, e, lo_e);
            let r = o.sel(isn, normal, tiny);
            let over = o.icmp(Cmp::Gt, e, b1023);
            let inf = o.f(f64::INFINITY);
            let r = o.sel(over, inf, r);
            let r = o.copysign(r, x);
            let z = o.fcmp(Cmp::Eq, x, zero);
            let nf = nonfinite(o, x);
            let spc = o.por(z, nf);
            o.sel(spc, x, r)
        }
        _ => return None,
    })
}

/// Euclidean length of double lanes as the cpu runtime computes it: scaled by 2^-e, e the
/// exponent of the largest magnitude, squares summed in lane order, √, scaled back.
pub fn length<O: DOps>(o: &mut O, v: &[O::F]) -> O::F {
    let zero = o.f(0.0);
    let (mut m, mut any_inf, mut any_nan) = (zero, None, None);
    for &x in v {
        let a = o.abs(x);
        m = o.max(m, a);
        let (i, n) = (o.isinf(x), o.isnan(x));
        any_inf = Some(match any_inf {
            Some(p) => o.por(p, i),
            None => i,
        });
        any_nan = Some(match any_nan {
            Some(p) => o.por(p, n),
            None => n,
        });
    }
    let e = exponent(o, m);
    let one = o.i(1);
    let e = o.iadd(e, one);
    let i0 = o.i(0);
    let ne = o.isub(i0, e);
    let mut sum = zero;
    for (k, &x) in v.iter().enumerate() {
        let t = c::scale(o, x, ne);
        let tt = o.mul(t, t);
        sum = if k == 0 { tt } else { o.add(sum, tt) };
    }
    let r = o.sqrt(sum);
    let r = c::scale(o, r, e);
    let mz = o.fcmp(Cmp::Eq, m, zero);
    let r = o.sel(mz, zero, r);
    let nan = o.f(f64::NAN);
    let inf = o.f(f64::INFINITY);
    let r = match any_nan {
        Some(p) => o.sel(p, nan, r),
        None => r,
    };
    match any_inf {
        Some(p) => o.sel(p, inf, r),
        None => r,
    }
}

/// `normalize` of double lanes: NaN anywhere gives NaN lanes; infinite lanes become ±1 and
/// finite ones ±0 first; all zeros stay as they are.
pub fn normalize<O: DOps>(o: &mut O, v: &[O::F]) -> Vec<O::F> {
    let (zero, one) = (o.f(0.0), o.f(1.0));
    let mut any_inf = None;
    let mut any_nan = None;
    for &x in v {
        let (i, n) = (o.isinf(x), o.isnan(x));
        any_inf = Some(match any_inf {
            Some(p) => o.por(p, i),
            None => i,
        });
        any_nan = Some(match any_nan {
            Some(p) => o.por(p, n),
            None => n,
        });
    }
    let mut w = Vec::new();
    for &x in v {
        let (p1, z) = (o.copysign(one, x), o.copysign(zero, x));
        let i = o.isinf(x);
        let f = o.sel(i, p1, z);
        w.push(match any_inf {
            Some(p) => o.sel(p, f, x),
            None => x,
        });
    }
    let len = length(o, &w);
    let lz = o.fcmp(Cmp::Eq, len, zero);
    let nan = o.f(f64::NAN);
    w.iter()
        .zip(v)
        .map(|(&x, &orig)| {
            let q = o.div(x, len);
            let q = o.sel(lz, orig, q);
            match any_nan {
                Some(p) => o.sel(p, nan, q),
                None => q,
            }
        })
        .collect()
}
