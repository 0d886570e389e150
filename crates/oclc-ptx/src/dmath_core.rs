//! Double-precision cores shared by the builtins of [`dmath`](crate::dmath): double-double
//! helpers, e^(hi+lo), ln x as a double-double, e^x - 1, Payne–Hanek reduction by π/2 with
//! the sine/cosine kernels, atan, and the exact remainder (`fmod`, `remainder`, `remquo`).

use crate::dmath::{Cmp, DOps};

/// A double-double constant: (high part, low part) as bit patterns.
pub type Dd = (u64, u64);

pub const LN2: Dd = (0x3FE62E42FEFA39EF, 0x3C7ABC9E3B39803F);
pub const LN10: Dd = (0x40026BB1BBB55516, 0xBCAF48AD494EA3E9);
pub const LOG2E: Dd = (0x3FF71547652B82FE, 0x3C7777D0FFDA0D24);
pub const LOG10E: Dd = (0x3FDBCB7B1526E50E, 0x3C695355BAAAFAD3);
pub const PI: Dd = (0x400921FB54442D18, 0x3CA1A62633145C07);
pub const PIO2: Dd = (0x3FF921FB54442D18, 0x3C91A62633145C07);
pub const PIO4: Dd = (0x3FE921FB54442D18, 0x3C81A62633145C07);
pub const INV_PI: Dd = (0x3FD45F306DC9C883, 0xBC76B01EC5417056);
pub const TWO_THIRDS: Dd = (0x3FE5555555555555, 0x3C85555555555555);
pub const ATAN_HALF: Dd = (0x3FDDAC670561BB4F, 0x3C7A2B7F222F65E2);
pub const ATAN_ONE_HALF: Dd = (0x3FEF730BD281F69B, 0x3C7007887AF0CBBD);
pub const LN_PI: Dd = (0x3FF250D048E7A1BD, 0x3C67ABF2AD8D5088);
pub const HALF_LN_2PI: Dd = (0x3FED67F1C864BEB5, 0xBC865B5A1B7FF5DF);
pub const SQRT_PI: Dd = (0x3FFC5BF891B4EF6B, 0xBC9618F13EB7CA89);
pub const TWO_OVER_SQRT_PI: Dd = (0x3FF20DD750429B6D, 0x3C71AE3A914FED80);

/// ln 2 split so that n·LN2_HI is exact for |n| < 2^21 (fdlibm's Cody–Waite constants).
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);

pub fn hi(c: Dd) -> f64 {
    f64::from_bits(c.0)
}

pub fn lo(c: Dd) -> f64 {
    f64::from_bits(c.1)
}

/// a + b = s + e exactly (Knuth's TwoSum).
pub fn two_sum<O: DOps>(o: &mut O, a: O::F, b: O::F) -> (O::F, O::F) {
    let s = o.add(a, b);
    let bb = o.sub(s, a);
    let ab = o.sub(s, bb);
    let da = o.sub(a, ab);
    let db = o.sub(b, bb);
    let e = o.add(da, db);
    (s, e)
}

/// a + b = s + e exactly when |a| ≥ |b| (Dekker's Fast2Sum).
pub fn fast_two_sum<O: DOps>(o: &mut O, a: O::F, b: O::F) -> (O::F, O::F) {
    let s = o.add(a, b);
    let t = o.sub(s, a);
    let e = o.sub(b, t);
    (s, e)
}

/// a·b = p + e exactly.
pub fn two_prod<O: DOps>(o: &mut O, a: O::F, b: O::F) -> (O::F, O::F) {
    let p = o.mul(a, b);
    let np = o.neg(p);
    let e = o.fma(a, b, np);
    (p, e)
}

/// The polynomial with coefficients `c` (highest degree first) at `x`.
pub fn horner<O: DOps>(o: &mut O, x: O::F, c: &[f64]) -> O::F {
    let mut p = o.f(c.first().copied().unwrap_or(0.0));
    for k in c.iter().skip(1) {
        let kk = o.f(*k);
        p = o.fma(p, x, kk);
    }
    p
}

/// 1/k! for k = hi down to lo.
pub fn inv_factorials(hi: u32, lo: u32) -> Vec<f64> {
    let fact = |k: u32| (1..=k).map(f64::from).product::<f64>();
    (lo..=hi).rev().map(|k| 1.0 / fact(k)).collect()
}

/// 2^k for k in [-1022, 1023], built from its bits.
pub fn pow2<O: DOps>(o: &mut O, k: O::I) -> O::F {
    let b = o.i(1023);
    let e = o.iadd(k, b);
    let l = o.i2l(e);
    let s = o.i(52);
    let w = o.lshl(l, s);
    o.bitsf(w)
}

/// v·2^n for n in [-2044, 2046]: two exact power-of-two steps, so only the last rounds.
pub fn scale<O: DOps>(o: &mut O, v: O::F, n: O::I) -> O::F {
    let n1 = o.ishr(n, 1);
    let n2 = o.isub(n, n1);
    let p1 = pow2(o, n1);
    let p2 = pow2(o, n2);
    let t = o.mul(v, p1);
    o.mul(t, p2)
}

/// The sign bit of `x` as a predicate (true for -0 and negative NaNs too).
pub fn signbit<O: DOps>(o: &mut O, x: O::F) -> O::P {
    let b = o.bits(x);
    let m = o.l(1 << 63);
    o.lcmp(Cmp::Ge, b, m)
}

/// e^(hi + lo) for any `hi` (NaN, infinities included) and |lo| ≪ ulp(hi): n = rint(hi/ln2),
/// Cody–Waite reduction, a degree-15 Taylor polynomial, 2^n in two steps; about 0.5 ulp.
pub fn exp_dd<O: DOps>(o: &mut O, h: O::F, l: O::F) -> O::F {
    let (lim, nlim) = (o.f(1100.0), o.f(-1100.0));
    let t = o.min(h, lim);
    let t = o.max(t, nlim);
    // Clamped (the result is 0 or ∞ either way): the low part no longer applies.
    let clamped = o.fcmp(Cmp::Ne, t, h);
    let zero = o.f(0.0);
    let l = o.sel(clamped, zero, l);
    let log2e = o.f(hi(LOG2E));
    let nx = o.mul(t, log2e);
    let nf = o.rint(nx);
    let nn = o.neg(nf);
    let (c1, c2) = (o.f(LN2_HI), o.f(LN2_LO));
    let a = o.fma(nn, c1, t);
    let b = o.fma(nn, c2, l);
    let (r, rl) = two_sum(o, a, b);
    let em1_tail = expm1_tail(o, r, rl);
    let one = o.f(1.0);
    let (s, e) = fast_two_sum(o, one, r);
    let e = o.add(e, em1_tail);
    let m = o.add(s, e);
    let ni = o.f2i(nf);
    let v = scale(o, m, ni);
    let nan = o.isnan(h);
    o.sel(nan, h, v)
}

/// e^(r + rl) - 1 - r for |r| ≤ 0.35 (Taylor to degree 15).
fn expm1_tail<O: DOps>(o: &mut O, r: O::F, rl: O::F) -> O::F {
    let q = horner(o, r, &inv_factorials(15, 2));
    let rr = o.mul(r, r);
    let t2 = o.fma(rl, r, rl);
    o.fma(rr, q, t2)
}

/// e^x - 1 for any x: Taylor below 0.35, else 2^n·(e^r - 1 + (1 - 2^-n)) with the sum exact
/// enough to keep the cancellation harmless.
pub fn expm1<O: DOps>(o: &mut O, x: O::F) -> O::F {
    let a = o.abs(x);
    let thr = o.f(0.35);
    let small = o.fcmp(Cmp::Lt, a, thr);
    let p = horner(o, x, &inv_factorials(16, 2));
    let xx = o.mul(x, x);
    let ys = o.fma(xx, p, x);
    let (lim, nlim) = (o.f(710.0), o.f(-40.0));
    let xc = o.min(x, lim);
    let xc = o.max(xc, nlim);
    let log2e = o.f(hi(LOG2E));
    let nx = o.mul(xc, log2e);
    let nf = o.rint(nx);
    let nn = o.neg(nf);
    let (c1, c2) = (o.f(LN2_HI), o.f(LN2_LO));
    let a1 = o.fma(nn, c1, xc);
    let b1 = o.mul(nn, c2);
    let (r, rl) = two_sum(o, a1, b1);
    let tail = expm1_tail(o, r, rl);
    let ni = o.f2i(nf);
    let sixty = o.i(60);
    let nc = o.imin(ni, sixty);
    let zero = o.i(0);
    let mnc = o.isub(zero, nc);
    let p2 = pow2(o, mnc);
    let one = o.f(1.0);
    let c = o.sub(one, p2);
    let (s, e) = two_sum(o, c, r);
    let e = o.add(e, tail);
    let v = o.add(s, e);
    let yb = scale(o, v, ni);
    let y = o.sel(small, ys, yb);
    // ±0 and NaN are their own results.
    let z = o.f(0.0);
    let xz = o.fcmp(Cmp::Eq, x, z);
    let nan = o.isnan(x);
    let keep = o.por(xz, nan);
    o.sel(keep, x, y)
}

/// ln x as a double-double (about 2^-64 relative) for positive finite x (subnormals
/// included): x = m·2^k, m in [√½, √2), ln m = 2 atanh(s) with s = (m-1)/(m+1) kept as a
/// double-double and the series' first two terms in double-double.
pub fn log_dd<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::F) {
    let minpos = o.f(f64::MIN_POSITIVE);
    let sub = o.fcmp(Cmp::Lt, x, minpos);
    let big54 = o.f(18014398509481984.0);
    let xb = o.mul(x, big54);
    let xs = o.sel(sub, xb, x);
    let b = o.bits(xs);
    let s52 = o.i(52);
    let eb = o.lshr(b, s52);
    let e = o.l2i(eb);
    let m2047 = o.i(2047);
    let e = o.iand(e, m2047);
    let (adj_sub, adj) = (o.i(-1023 - 54), o.i(-1023));
    let adj = o.seli(sub, adj_sub, adj);
    let k0 = o.iadd(e, adj);
    let mant = o.l(0x000F_FFFF_FFFF_FFFF);
    let one_bits = o.l(0x3FF0_0000_0000_0000);
    let mb = o.land(b, mant);
    let mb = o.lor(mb, one_bits);
    let m = o.bitsf(mb);
    let sqrt2 = o.f(std::f64::consts::SQRT_2);
    let big = o.fcmp(Cmp::Gt, m, sqrt2);
    let half = o.f(0.5);
    let mh = o.mul(m, half);
    let m = o.sel(big, mh, m);
    let (i1, i0) = (o.i(1), o.i(0));
    let kinc = o.seli(big, i1, i0);
    let k = o.iadd(k0, kinc);
    let one = o.f(1.0);
    let f = o.sub(m, one);
    let (dh, dl) = two_sum(o, m, one);
    let s = o.div(f, dh);
    let ns = o.neg(s);
    let res = o.fma(ns, dh, f);
    let res = o.fma(ns, dl, res);
    let sl = o.div(res, dh);
    // 2s^5 (1/5 + s²/7 + ...), in double.
    let z = o.mul(s, s);
    let c: Vec<f64> = (2..=13).rev().map(|j| 1.0 / f64::from(2 * j + 1)).collect();
    let r = horner(o, z, &c);
    let zz = o.mul(z, z);
    let t1 = o.mul(zz, r);
    let t1 = o.mul(t1, s);
    let two = o.f(2.0);
    let tail = o.mul(t1, two);
    // 2s³/3 in double-double.
    let (zh, zl) = two_prod(o, s, s);
    let (ch, cl) = two_prod(o, zh, s);
    let cl = o.fma(zl, s, cl);
    let three = o.f(3.0);
    let z3 = o.mul(zh, three);
    let cl = o.fma(z3, sl, cl);
    let (tth, ttl) = (o.f(hi(TWO_THIRDS)), o.f(lo(TWO_THIRDS)));
    let (th, tl) = two_prod(o, ch, tth);
    let tl = o.fma(ch, ttl, tl);
    let tl = o.fma(cl, tth, tl);
    // 2s + 2sl + th + tl + tail.
    let ah = o.mul(s, two);
    let al = o.mul(sl, two);
    let (uh, ul) = fast_two_sum(o, ah, th);
    let w = o.add(tl, tail);
    let w = o.add(al, w);
    let ul = o.add(ul, w);
    // + k ln 2.
    let kd = o.i2f(k);
    let (c1, c2) = (o.f(LN2_HI), o.f(LN2_LO));
    let kh = o.mul(kd, c1);
    let (h, l) = two_sum(o, kh, uh);
    let kl = o.mul(kd, c2);
    let w = o.add(ul, kl);
    let l = o.add(l, w);
    fast_two_sum(o, h, l)
}

/// `log_dd` for any x: -∞ at ±0, +∞ at +∞, NaN below zero and for NaN (low part 0).
pub fn log_full<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::F) {
    let (h, l) = log_dd(o, x);
    let zero = o.f(0.0);
    let (ninf, inf, nan) = (o.f(f64::NEG_INFINITY), o.f(f64::INFINITY), o.f(f64::NAN));
    let is0 = o.fcmp(Cmp::Eq, x, zero);
    let isinf = o.fcmp(Cmp::Eq, x, inf);
    let neg = o.fcmp(Cmp::Lt, x, zero);
    let xnan = o.isnan(x);
    let bad = o.por(neg, xnan);
    let h = o.sel(is0, ninf, h);
    let h = o.sel(isinf, inf, h);
    let h = o.sel(bad, nan, h);
    let sp = o.por(is0, isinf);
    let sp = o.por(sp, bad);
    let l = o.sel(sp, zero, l);
    (h, l)
}

/// ln(1 + x) for any x: 1 + x as an exact sum u + ul, then ln u + ul/u.
pub fn log1p<O: DOps>(o: &mut O, x: O::F) -> O::F {
    let one = o.f(1.0);
    let (u, ul) = two_sum(o, one, x);
    let (h, l) = log_full(o, u);
    let c = o.div(ul, u);
    let l = o.add(l, c);
    let r = o.add(h, l);
    // ±0 and values where u rounds to 1 keep x; specials come from log_full(u).
    let zero = o.f(0.0);
    let z = o.fcmp(Cmp::Eq, x, zero);
    let r = o.sel(z, x, r);
    let fin = o.isinf(h);
    let nan = o.isnan(h);
    let sp = o.por(fin, nan);
    o.sel(sp, h, r)
}

/// Reduces finite |x| ≥ π/4 by π/2 exactly (Payne–Hanek on 64-bit words of 2/π): the
/// remainder as a double-double in [-π/4, π/4] and the quadrant mod 4.
pub fn reduce_pio2<O: DOps>(o: &mut O, ax: O::F) -> (O::F, O::F, O::I) {
    let b = o.bits(ax);
    let s52 = o.i(52);
    let eb = o.lshr(b, s52);
    let e = o.l2i(eb);
    let m2047 = o.i(2047);
    let e = o.iand(e, m2047);
    // Window start s = exponent + 10 (table bits, the leading zero word included).
    let off = o.i(-1023 + 10);
    let s = o.iadd(e, off);
    let zero = o.i(0);
    let s = o.imax(s, zero);
    let wi = o.ishr(s, 6);
    let m63 = o.i(63);
    let sh = o.iand(s, m63);
    let i64c = o.i(64);
    let inv = o.isub(i64c, sh);
    let mut t = Vec::new();
    for k in 0..4 {
        let kk = o.i(k);
        let idx = o.iadd(wi, kk);
        t.push(o.tab(idx));
    }
    let mut w = Vec::new();
    for k in 0..3 {
        let (a, b2) = (t[k], t[k + 1]);
        let x1 = o.lshl(a, sh);
        let x2 = o.lshr(b2, inv);
        w.push(o.lor(x1, x2));
    }
    let mant = o.l(0x000F_FFFF_FFFF_FFFF);
    let imp = o.l(1 << 52);
    let mb = o.land(b, mant);
    let mm = o.lor(mb, imp);
    let p2l = o.lmul(mm, w[2]);
    let p2h = o.lmulhi(mm, w[2]);
    let p1l = o.lmul(mm, w[1]);
    let p1h = o.lmulhi(mm, w[1]);
    let p0l = o.lmul(mm, w[0]);
    let word1 = o.ladd(p2h, p1l);
    let c1 = o.lcmp(Cmp::Lt, word1, p2h);
    let (l1, l0) = (o.l(1), o.l(0));
    let carry = o.sell(c1, l1, l0);
    let word2 = o.ladd(p1h, p0l);
    let word2 = o.ladd(word2, carry);
    let s62 = o.i(62);
    let s2 = o.i(2);
    let qb = o.lshr(word2, s62);
    let q = o.l2i(qb);
    let a1 = o.lshl(word2, s2);
    let a2 = o.lshr(word1, s62);
    let fh = o.lor(a1, a2);
    let b1 = o.lshl(word1, s2);
    let b2 = o.lshr(p2l, s62);
    let fl = o.lor(b1, b2);
    // A fraction of one half or more rounds to the next quadrant: negate it (128 bits).
    let half = o.l(1 << 63);
    let neg = o.lcmp(Cmp::Ge, fh, half);
    let (i1, i0) = (o.i(1), o.i(0));
    let qi = o.seli(neg, i1, i0);
    let q = o.iadd(q, qi);
    let nfl = o.lsub(l0, fl);
    let all = o.l(u64::MAX);
    let nfh = o.lxor(fh, all);
    let flz = o.lcmp(Cmp::Eq, fl, l0);
    let inc = o.sell(flz, l1, l0);
    let nfh = o.ladd(nfh, inc);
    let fh = o.sell(neg, nfh, fh);
    let fl = o.sell(neg, nfl, fl);
    let lz = o.lclz(fh);
    let inv2 = o.isub(i64c, lz);
    let x1 = o.lshl(fh, lz);
    let x2 = o.lshr(fl, inv2);
    let gh = o.lor(x1, x2);
    let gl = o.lshl(fl, lz);
    let s11 = o.i(11);
    let top = o.lshr(gh, s11);
    let hd = o.l2f(top);
    let k2048 = o.f(2048.0);
    let hd = o.mul(hd, k2048);
    let m7ff = o.l(0x7FF);
    let bot = o.land(gh, m7ff);
    let bd = o.l2f(bot);
    let gd = o.l2f(gl);
    let tiny = o.f(1.0 / 18446744073709551616.0);
    let ld = o.fma(gd, tiny, bd);
    let eoff = o.i(1023 - 64);
    let ee = o.isub(eoff, lz);
    let el = o.i2l(ee);
    let sb = o.lshl(el, s52);
    let sc = o.bitsf(sb);
    let h = o.mul(hd, sc);
    let l = o.mul(ld, sc);
    let (p1, p2) = (o.f(hi(PIO2)), o.f(lo(PIO2)));
    let rh = o.mul(h, p1);
    let nrh = o.neg(rh);
    let rl = o.fma(h, p1, nrh);
    let rl = o.fma(h, p2, rl);
    let rl = o.fma(l, p1, rl);
    let (r, rl) = fast_two_sum(o, rh, rl);
    let nr = o.neg(r);
    let nrl = o.neg(rl);
    let r = o.sel(neg, nr, r);
    let rl = o.sel(neg, nrl, rl);
    let m3 = o.i(3);
    let q = o.iand(q, m3);
    (r, rl, q)
}

/// (sin, cos) of q·π/2 + (r + rl) for |r| ≤ π/4 (Taylor polynomials, fdlibm's tail
/// handling).
pub fn sincos_kernel<O: DOps>(o: &mut O, r: O::F, rl: O::F, q: O::I) -> (O::F, O::F) {
    let z = o.mul(r, r);
    let cs: Vec<f64> = (1..=9)
        .rev()
        .map(|j| {
            let v = inv_factorials(2 * j + 1, 2 * j + 1)[0];
            if j % 2 == 1 { -v } else { v }
        })
        .collect();
    let ps = horner(o, z, &cs);
    let half = o.f(0.5);
    let one = o.f(1.0);
    let hz = o.mul(z, half);
    let w0 = o.sub(one, hz);
    let rlc = o.mul(rl, w0);
    let t = o.mul(r, z);
    let u = o.fma(t, ps, rlc);
    let s = o.add(r, u);
    let cc: Vec<f64> = (2..=10)
        .rev()
        .map(|j| {
            let v = inv_factorials(2 * j, 2 * j)[0];
            if j % 2 == 1 { -v } else { v }
        })
        .collect();
    let pc = horner(o, z, &cc);
    let zz = o.mul(z, z);
    let rr = o.mul(r, rl);
    let nrr = o.neg(rr);
    let v = o.fma(zz, pc, nrr);
    let w = o.sub(one, hz);
    let d = o.sub(one, w);
    let d = o.sub(d, hz);
    let d = o.add(d, v);
    let c = o.add(w, d);
    let (m1, m2, i0) = (o.i(1), o.i(2), o.i(0));
    let b = o.iand(q, m1);
    let odd = o.icmp(Cmp::Ne, b, i0);
    let sn = o.sel(odd, c, s);
    let cs = o.sel(odd, s, c);
    let b = o.iand(q, m2);
    let n1 = o.icmp(Cmp::Ne, b, i0);
    let nsn = o.neg(sn);
    let sn = o.sel(n1, nsn, sn);
    let q1 = o.iadd(q, m1);
    let b = o.iand(q1, m2);
    let n2 = o.icmp(Cmp::Ne, b, i0);
    let ncs = o.neg(cs);
    let cs = o.sel(n2, ncs, cs);
    (sn, cs)
}

/// (sin x, cos x) for any x; NaN for infinities and NaN.
pub fn sin_cos<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::F) {
    let ax = o.abs(x);
    let pio4 = o.f(hi(PIO4));
    let small = o.fcmp(Cmp::Le, ax, pio4);
    let (rr, rrl, rq) = reduce_pio2(o, ax);
    let zero = o.f(0.0);
    let i0 = o.i(0);
    let r = o.sel(small, ax, rr);
    let rl = o.sel(small, zero, rrl);
    let q = o.seli(small, i0, rq);
    let (s, c) = sincos_kernel(o, r, rl, q);
    let neg = signbit(o, x);
    let ns = o.neg(s);
    let s = o.sel(neg, ns, s);
    let inf = o.isinf(x);
    let nan = o.f(f64::NAN);
    let s = o.sel(inf, nan, s);
    let c = o.sel(inf, nan, c);
    let xn = o.isnan(x);
    let s = o.sel(xn, x, s);
    let c = o.sel(xn, x, c);
    (s, c)
}

/// (sin πx, cos πx) with the signs the cpu runtime gives: exact reduction mod 2, a quadrant
/// and a remainder in [-¼, ¼], then the kernels on π·r as a double-double; zeros are +0
/// before sin's sign of x.
pub fn sincospi<O: DOps>(o: &mut O, x: O::F) -> (O::F, O::F) {
    let a = o.abs(x);
    let half = o.f(0.5);
    let two = o.f(2.0);
    let h = o.mul(a, half);
    let t = o.trunc(h);
    let nt = o.neg(t);
    let a2 = o.fma(nt, two, a);
    let d = o.mul(a2, two);
    let qf = o.rint(d);
    let nq = o.neg(qf);
    let r = o.fma(nq, half, a2);
    let (ph, pl) = (o.f(hi(PI)), o.f(lo(PI)));
    let (rh, rl) = two_prod(o, r, ph);
    let rl = o.fma(r, pl, rl);
    let q = o.f2i(qf);
    let (s, c) = sincos_kernel(o, rh, rl, q);
    let zero = o.f(0.0);
    let sz = o.fcmp(Cmp::Eq, s, zero);
    let s = o.sel(sz, zero, s);
    let cz = o.fcmp(Cmp::Eq, c, zero);
    let c = o.sel(cz, zero, c);
    let neg = signbit(o, x);
    let ns = o.neg(s);
    let s = o.sel(neg, ns, s);
    let fin_not = o.isinf(x);
    let nan = o.f(f64::NAN);
    let s = o.sel(fin_not, nan, s);
    let c = o.sel(fin_not, nan, c);
    let xn = o.isnan(x);
    let s = o.sel(xn, x, s);
    let c = o.sel(xn, x, c);
    (s, c)
}

/// atan a for a ≥ 0 (NaN passes through): fdlibm's reduction to |t| ≤ 7/16 around 0, ½,
/// 1, 3/2 or ∞, then the Taylor series of atan t.
pub fn atan_pos<O: DOps>(o: &mut O, a: O::F) -> O::F {
    let th = [7.0 / 16.0, 11.0 / 16.0, 19.0 / 16.0, 39.0 / 16.0].map(|v| o.f(v));
    let c: Vec<O::P> = th.iter().map(|t| o.fcmp(Cmp::Lt, a, *t)).collect();
    let (one, two, onehalf, zero) = (o.f(1.0), o.f(2.0), o.f(1.5), o.f(0.0));
    let m1 = o.f(-1.0);
    // id 3: -1/a around π/2.
    let (mut num, mut den) = (m1, a);
    let (mut bh, mut bl) = (o.f(hi(PIO2)), o.f(lo(PIO2)));
    // id 2: (a - 1.5)/(1 + 1.5a) around atan 1.5.
    let n2 = o.sub(a, onehalf);
    let d2 = o.fma(a, onehalf, one);
    let (h2, l2) = (o.f(hi(ATAN_ONE_HALF)), o.f(lo(ATAN_ONE_HALF)));
    // id 1: (a - 1)/(a + 1) around π/4.
    let n1 = o.sub(a, one);
    let d1 = o.add(a, one);
    let (h1, l1) = (o.f(hi(PIO4)), o.f(lo(PIO4)));
    // id 0: (2a - 1)/(2 + a) around atan ½.
    let ta = o.mul(a, two);
    let n0 = o.sub(ta, one);
    let d0 = o.add(two, a);
    let (h0, l0) = (o.f(hi(ATAN_HALF)), o.f(lo(ATAN_HALF)));
    for (k, (n, d, h, l)) in [
        (n2, d2, h2, l2),
        (n1, d1, h1, l1),
        (n0, d0, h0, l0),
        (a, one, zero, zero),
    ]
    .into_iter()
    .enumerate()
    {
        let p = c[3 - k];
        num = o.sel(p, n, num);
        den = o.sel(p, d, den);
        bh = o.sel(p, h, bh);
        bl = o.sel(p, l, bl);
    }
    let t = o.div(num, den);
    let z = o.mul(t, t);
    let cs: Vec<f64> = (1..=22)
        .rev()
        .map(|j| {
            let v = 1.0 / f64::from(2 * j + 1);
            if j % 2 == 1 { -v } else { v }
        })
        .collect();
    let p = horner(o, z, &cs);
    let tz = o.mul(t, z);
    let p = o.mul(tz, p);
    let w = o.add(p, bl);
    let w = o.add(t, w);
    o.add(bh, w)
}

/// Exact `fmod(x, y)`, or `remainder` (quotient rounded to nearest even) with the low seven
/// bits of the quotient, signed as x/y: the 53-bit mantissas' remainder of mx·2^d by my, 11
/// bits a step in 64-bit integers.
pub fn rem<O: DOps>(o: &mut O, x: O::F, y: O::F, nearest: bool) -> (O::F, O::I) {
    let ax = o.abs(x);
    let ay = o.abs(y);
    let (bx, by) = (o.bits(ax), o.bits(ay));
    let s52 = o.i(52);
    let mant = o.l(0x000F_FFFF_FFFF_FFFF);
    let imp = o.l(1 << 52);
    let (i0, i1) = (o.i(0), o.i(1));
    let mut parts = Vec::new();
    for b in [bx, by] {
        let eb = o.lshr(b, s52);
        let e = o.l2i(eb);
        let m = o.land(b, mant);
        let sub = o.icmp(Cmp::Eq, e, i0);
        let mi = o.lor(m, imp);
        let m = o.sell(sub, m, mi);
        let e = o.seli(sub, i1, e);
        parts.push((e, m));
    }
    let ((ex, mx), (ey, my)) = (parts[0], parts[1]);
    let d = o.isub(ex, ey);
    let d = o.imax(d, i0);
    let nfull = o.idiv(d, 11);
    let k11 = o.i(11);
    // s0 = d - 11·nfull (11n = 8n + 2n + n: no integer multiply in the op set).
    let n2 = o.iadd(nfull, nfull);
    let n4 = o.iadd(n2, n2);
    let n8 = o.iadd(n4, n4);
    let n10 = o.iadd(n8, n2);
    let eleven_n = o.iadd(n10, nfull);
    let s0 = o.isub(d, eleven_n);
    let t = o.lshl(mx, s0);
    let q = o.ldiv(t, my);
    let r = o.lrem(t, my);
    let [r, q] = o.repeat(nfull, [r, q], |o, [r, q]| {
        let t = o.lshl(r, k11);
        let qn = o.ldiv(t, my);
        let rn = o.lrem(t, my);
        let qs = o.lshl(q, k11);
        let q = o.lor(qs, qn);
        [rn, q]
    });
    // The remainder is r·2^(ey - 1075), exact: two power-of-two steps.
    let rd = o.l2f(r);
    let off = o.i(-1075);
    let e = o.iadd(ey, off);
    let rd = scale(o, rd, e);
    let mut qlo = o.l2i(q);
    let small = o.fcmp(Cmp::Lt, ax, ay);
    let mut rd = o.sel(small, ax, rd);
    qlo = o.seli(small, i0, qlo);
    if nearest {
        let two = o.f(2.0);
        let t2 = o.mul(rd, two);
        let odd = o.iand(qlo, i1);
        let oddp = o.icmp(Cmp::Ne, odd, i0);
        let tie = o.fcmp(Cmp::Eq, t2, ay);
        let tie = o.pand(tie, oddp);
        let over = o.fcmp(Cmp::Gt, t2, ay);
        let adj = o.por(tie, over);
        let rs = o.sub(rd, ay);
        rd = o.sel(adj, rs, rd);
        let qi = o.iadd(qlo, i1);
        qlo = o.seli(adj, qi, qlo);
    }
    let xneg = signbit(o, x);
    let nrd = o.neg(rd);
    let mut res = o.sel(xneg, nrd, rd);
    // y = ±∞ with finite x gives x; NaN operands, infinite x or zero y give NaN.
    let yinf = o.isinf(y);
    res = o.sel(yinf, x, res);
    qlo = o.seli(yinf, i0, qlo);
    let zero = o.f(0.0);
    let xinf = o.isinf(x);
    let yz = o.fcmp(Cmp::Eq, y, zero);
    let xn = o.isnan(x);
    let yn = o.isnan(y);
    let bad = o.por(xinf, yz);
    let bad = o.por(bad, xn);
    let bad = o.por(bad, yn);
    let nan = o.f(f64::NAN);
    res = o.sel(bad, nan, res);
    qlo = o.seli(bad, i0, qlo);
    let m127 = o.i(127);
    let ql = o.iand(qlo, m127);
    let yneg = signbit(o, y);
    let ynn = o.pnot(yneg);
    let p1 = o.pand(xneg, ynn);
    let xnn = o.pnot(xneg);
    let p2 = o.pand(xnn, yneg);
    let diff = o.por(p1, p2);
    let nq = o.isub(i0, ql);
    let q = o.seli(diff, nq, ql);
    (res, q)
}
