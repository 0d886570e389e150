//! OpenCL builtin calls (`call_builtin`): conversions, vector loads and stores, relational,
//! integer and math functions, scalarized lane by lane. Math stays within the spec's ULP
//! limits: correctly rounded PTX instructions, and `.approx` only for `native_*`/`half_*`
//! or under `-cl-fast-relaxed-math`.

use crate::emit::{FnEmitter, R, float_ty};
use crate::math_single::LogBase;
use crate::regs::{Rc, float_literal, mem_type};
use oclc_ir::{AddrSpace, BuiltinDecl, Scalar, Type, Value};

pub fn emit(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], result: Option<Value>) -> R<()> {
    let name = decl.name.as_str();
    if let Some(r) = crate::vendor::emit(e, decl, args, result) {
        return r;
    }
    if let Some(rest) = name.strip_prefix("convert_") {
        let r = result.ok_or_else(|| e.invalid("conversion without a result"))?;
        return convert(e, decl, rest, args, r);
    }
    if name.starts_with("vload") {
        let r = result.ok_or_else(|| e.invalid("vload without a result"))?;
        return vload(e, decl, args, r);
    }
    if name.starts_with("vstore") {
        return vstore(e, decl, args);
    }
    if crate::subgroup::handles(name) {
        return crate::subgroup::emit(e, decl, args, result);
    }
    if crate::async_copy::handles(name) {
        return crate::async_copy::emit(e, decl, args, result);
    }
    let r = result.ok_or_else(|| e.unsupported(format!("builtin `{name}`")))?;
    match name {
        "isequal" | "isnotequal" | "isgreater" | "isgreaterequal" | "isless" | "islessequal"
        | "islessgreater" | "isfinite" | "isinf" | "isnan" | "isnormal" | "isordered"
        | "isunordered" | "signbit" => relational(e, name, args, r),
        "any" | "all" => any_all(e, name, args, r),
        "select" => select(e, args, r),
        "bitselect" => bitselect(e, args, r),
        "dot" => dot(e, args, r),
        "cross" => cross(e, args, r),
        "length" | "distance" | "normalize" | "fast_length" | "fast_distance"
        | "fast_normalize" => crate::fmath::geometric(e, name, args, r),
        "fract" | "modf" | "frexp" | "sincos" => with_output(e, decl, args, r),
        "remquo" | "lgamma_r" => with_int_output(e, name, args, r),
        "shuffle" | "shuffle2" => shuffle(e, name, args, r),
        _ => lanewise(e, decl, args, r),
    }
}

fn lane_count(e: &FnEmitter, v: Value) -> R<u32> {
    Ok(e.ty(v)?.lanes())
}

/// Calls a one-lane implementation for each lane, broadcasting scalar arguments.
fn lanewise(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], r: Value) -> R<()> {
    let rt = e.ty(r)?;
    let s = rt
        .elem()
        .ok_or_else(|| e.unsupported(format!("builtin `{}`", decl.name)))?;
    let unsigned = decl.unsigned.first().copied().unwrap_or(decl.ret_unsigned);
    let f32_arg = match args.first() {
        Some(a) => e.elem(*a)? == Scalar::F32,
        None => false,
    };
    let f64_arg = match args.first() {
        Some(a) => e.elem(*a)? == Scalar::F64,
        None => false,
    };
    if decl.name == "ilogb" && f64_arg {
        for l in 0..rt.lanes() {
            let Some(a0) = args.first() else { break };
            let (d, x) = (e.reg(r, l)?, e.lane_or_scalar(*a0, l)?);
            crate::dmath_ptx::emit_into(e, "ilogb", &d, &[x]);
        }
        return Ok(());
    }
    let f16_arg = match args.first() {
        Some(a) => e.elem(*a)? == Scalar::F16,
        None => false,
    };
    if decl.name == "ilogb" && (f32_arg || f16_arg) {
        for l in 0..rt.lanes() {
            let Some(a0) = args.first() else { break };
            let (d, x) = (e.reg(r, l)?, e.lane_or_scalar(*a0, l)?);
            let x = if f16_arg { e.h2f(&x) } else { x };
            crate::fmath::ilogb_f32(e, &d, &x);
        }
        return Ok(());
    }
    for l in 0..rt.lanes() {
        let regs: Vec<String> = args
            .iter()
            .map(|a| e.lane_or_scalar(*a, l))
            .collect::<R<_>>()?;
        let d = e.reg(r, l)?;
        if s == Scalar::F16 {
            // Half operands widen to f32; int operands (pown, rootn, ldexp) stay as they are.
            let mut wide = Vec::new();
            for (x, a) in regs.iter().zip(args) {
                wide.push(if e.elem(*a)? == Scalar::F16 {
                    e.h2f(x)
                } else {
                    x.clone()
                });
            }
            let t = e.tmp(Rc::F32);
            scalar(e, &decl.name, Scalar::F32, unsigned, &t, &wide)?;
            e.ins(format!("cvt.rn.f16.f32 {d}, {t}"));
        } else {
            scalar(e, &decl.name, s, unsigned, &d, &regs)?;
        }
    }
    Ok(())
}

fn arg<'a>(e: &FnEmitter, a: &'a [String], i: usize, name: &str) -> R<&'a str> {
    a.get(i)
        .map(String::as_str)
        .ok_or_else(|| e.invalid(format!("builtin `{name}` with too few arguments")))
}

fn scalar(
    e: &mut FnEmitter,
    name: &str,
    s: Scalar,
    unsigned: bool,
    d: &str,
    a: &[String],
) -> R<()> {
    if s.is_float() {
        float_scalar(e, name, s, d, a)
    } else {
        int_scalar(e, name, s, unsigned, d, a)
    }
}

fn float_scalar(e: &mut FnEmitter, name: &str, s: Scalar, d: &str, a: &[String]) -> R<()> {
    let t = float_ty(s);
    let f32 = s == Scalar::F32;
    let fast = e.cx.opts.fast_math && f32;
    let x = arg(e, a, 0, name)?.to_string();
    let (ys, missing) = (
        a.get(1).cloned(),
        e.invalid(format!("builtin `{name}` needs two arguments")),
    );
    let y = || ys.clone().ok_or_else(|| missing.clone());
    let lit = |v: f64| float_literal(s, v);
    let approx =
        |e: &mut FnEmitter, op: &str, d: &str, x: &str| e.ins(format!("{op}.approx.f32 {d}, {x}"));
    match name {
        "fabs" => e.ins(format!("abs.{t} {d}, {x}")),
        "fmin" | "min" => e.ins(format!("min.{t} {d}, {x}, {}", y()?)),
        "fmax" | "max" => e.ins(format!("max.{t} {d}, {x}, {}", y()?)),
        "fma" | "mad" => e.ins(format!(
            "fma.rn.{t} {d}, {x}, {}, {}",
            y()?,
            arg(e, a, 2, name)?
        )),
        "sqrt" if f32 && !e.cx.opts.exact_div_sqrt => approx(e, "sqrt", d, &x),
        "sqrt" => e.ins(format!("sqrt.rn.{t} {d}, {x}")),
        "ceil" => e.ins(format!("cvt.rpi.{t}.{t} {d}, {x}")),
        "floor" => e.ins(format!("cvt.rmi.{t}.{t} {d}, {x}")),
        "trunc" => e.ins(format!("cvt.rzi.{t}.{t} {d}, {x}")),
        "rint" => e.ins(format!("cvt.rni.{t}.{t} {d}, {x}")),
        "round" => {
            // Half away from zero: trunc, then step away when the dropped part is >= 0.5.
            let (tr, fr) = (e.tmp(Rc::of_scalar(s)), e.tmp(Rc::of_scalar(s)));
            let one = e.tmp(Rc::of_scalar(s));
            let p = e.tmp(Rc::Pred);
            e.ins(format!("cvt.rzi.{t}.{t} {tr}, {x}"));
            e.ins(format!("sub.rn.{t} {fr}, {x}, {tr}"));
            e.ins(format!("abs.{t} {fr}, {fr}"));
            e.ins(format!("setp.ge.{t} {p}, {fr}, {}", lit(0.5)));
            e.ins(format!("copysign.{t} {one}, {x}, {}", lit(1.0)));
            e.ins(format!("add.rn.{t} {fr}, {tr}, {one}"));
            e.ins(format!("selp.{t} {d}, {fr}, {tr}, {p}"));
        }
        "copysign" => e.ins(format!("copysign.{t} {d}, {}, {x}", y()?)),
        "rsqrt" if fast => approx(e, "rsqrt", d, &x),
        "rsqrt" => {
            let q = e.tmp(Rc::of_scalar(s));
            e.ins(format!("sqrt.rn.{t} {q}, {x}"));
            e.ins(format!("rcp.rn.{t} {d}, {q}"));
        }
        "fdim" => {
            let p = e.tmp(Rc::Pred);
            e.ins(format!("sub.rn.{t} {d}, {x}, {}", y()?));
            e.ins(format!("setp.le.{t} {p}, {x}, {}", y()?));
            e.ins(format!("@{p} mov.{t} {d}, {}", lit(0.0)));
        }
        "maxmag" | "minmag" => {
            let yv = y()?;
            let (ax, ay) = (e.tmp(Rc::of_scalar(s)), e.tmp(Rc::of_scalar(s)));
            let (p, q) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
            let (cmp, mm) = if name == "maxmag" {
                ("gt", "max")
            } else {
                ("lt", "min")
            };
            let other = if name == "maxmag" { "lt" } else { "gt" };
            e.ins(format!("abs.{t} {ax}, {x}"));
            e.ins(format!("abs.{t} {ay}, {yv}"));
            e.ins(format!("{mm}.{t} {d}, {x}, {yv}"));
            e.ins(format!("setp.{cmp}.{t} {p}, {ax}, {ay}"));
            e.ins(format!("setp.{other}.{t} {q}, {ax}, {ay}"));
            e.ins(format!("@{p} mov.{t} {d}, {x}"));
            e.ins(format!("@{q} mov.{t} {d}, {yv}"));
        }
        "mix" => {
            let (yv, av) = (y()?, arg(e, a, 2, name)?.to_string());
            let q = e.tmp(Rc::of_scalar(s));
            e.ins(format!("sub.rn.{t} {q}, {yv}, {x}"));
            e.ins(format!("mul.rn.{t} {q}, {q}, {av}"));
            e.ins(format!("add.rn.{t} {d}, {x}, {q}"));
        }
        "clamp" => {
            e.ins(format!("max.{t} {d}, {x}, {}", y()?));
            e.ins(format!("min.{t} {d}, {d}, {}", arg(e, a, 2, name)?));
        }
        "degrees" => e.ins(format!(
            "mul.rn.{t} {d}, {x}, {}",
            lit(180.0 / std::f64::consts::PI)
        )),
        "radians" => e.ins(format!(
            "mul.rn.{t} {d}, {x}, {}",
            lit(std::f64::consts::PI / 180.0)
        )),
        "step" => {
            let p = e.tmp(Rc::Pred);
            e.ins(format!("setp.lt.{t} {p}, {}, {x}", y()?));
            e.ins(format!("selp.{t} {d}, {}, {}, {p}", lit(0.0), lit(1.0)));
        }
        "smoothstep" => {
            let xv = arg(e, a, 2, name)?.to_string();
            let e1 = y()?;
            let (n, m) = (e.tmp(Rc::of_scalar(s)), e.tmp(Rc::of_scalar(s)));
            e.ins(format!("sub.rn.{t} {n}, {xv}, {x}"));
            e.ins(format!("sub.rn.{t} {m}, {e1}, {x}"));
            e.ins(format!("div.rn.{t} {n}, {n}, {m}"));
            e.ins(format!("max.{t} {n}, {n}, {}", lit(0.0)));
            e.ins(format!("min.{t} {n}, {n}, {}", lit(1.0)));
            e.ins(format!("mul.rn.{t} {m}, {n}, {}", lit(-2.0)));
            e.ins(format!("add.rn.{t} {m}, {m}, {}", lit(3.0)));
            e.ins(format!("mul.rn.{t} {m}, {m}, {n}"));
            e.ins(format!("mul.rn.{t} {d}, {m}, {n}"));
        }
        "sign" => {
            let (p, q, n) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred), e.tmp(Rc::Pred));
            e.ins(format!("setp.gt.{t} {p}, {x}, {}", lit(0.0)));
            e.ins(format!("setp.lt.{t} {q}, {x}, {}", lit(0.0)));
            e.ins(format!("testp.notanumber.{t} {n}, {x}"));
            e.ins(format!("mov.{t} {d}, {x}"));
            e.ins(format!("@{p} mov.{t} {d}, {}", lit(1.0)));
            e.ins(format!("@{q} mov.{t} {d}, {}", lit(-1.0)));
            e.ins(format!("@{n} mov.{t} {d}, {}", lit(0.0)));
        }
        "exp" if f32 && !fast => crate::math_single::exp(e, d, &x),
        "exp2" | "exp10" if f32 && !fast => {
            let scale = if name == "exp10" {
                std::f64::consts::LOG2_10
            } else {
                1.0
            };
            crate::math::exp_f32(e, d, &x, scale);
        }
        "sin" if f32 && !fast => crate::math::sincos_f32(e, &x, Some(d), None, None),
        "cos" if f32 && !fast => crate::math::sincos_f32(e, &x, None, Some(d), None),
        "tan" if f32 && !fast => crate::math::sincos_f32(e, &x, None, None, Some(d)),
        "log" | "log2" | "log10" if f32 && !fast => {
            let base = match name {
                "log" => LogBase::E,
                "log2" => LogBase::Two,
                _ => LogBase::Ten,
            };
            crate::math_single::log(e, d, &x, base);
        }
        "logb" | "nan" | "ldexp" | "nextafter" if f32 => {
            let y = a.get(1).map(String::as_str);
            crate::fmath::exact_f32(e, name, d, &x, y);
        }
        "fmod" | "remainder" if f32 => {
            let y = arg(e, a, 1, name)?;
            crate::fmath::rem_f32(e, name, d, &x, y, None);
        }
        n if f32 && crate::fmath::is_unary(n) => crate::fmath::unary_f32(e, n, d, &x),
        n if f32 && crate::fmath::is_binary(n) && !(fast && matches!(n, "pow" | "powr")) => {
            let y = arg(e, a, 1, n)?;
            crate::fmath::binary_f32(e, n, d, &x, y);
        }
        n if s == Scalar::F64 && crate::dmath_ptx::emit_into(e, n, d, a) => {}
        _ => return approx_math(e, name, s, d, &x, a),
    }
    Ok(())
}

/// `native_*`, `half_*` (and, under fast-relaxed-math, the full-precision names) through
/// PTX's approximate instructions.
fn approx_math(e: &mut FnEmitter, name: &str, s: Scalar, d: &str, x: &str, a: &[String]) -> R<()> {
    let base = if let Some(b) = name
        .strip_prefix("native_")
        .or_else(|| name.strip_prefix("half_"))
    {
        b
    } else if e.cx.opts.fast_math {
        name
    } else {
        return Err(e.unsupported(format!("builtin `{name}` ({})", s.name())));
    };
    if s != Scalar::F32 {
        return Err(e.unsupported(format!("builtin `{name}` ({})", s.name())));
    }
    let t = e.tmp(Rc::F32);
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2: f64 = std::f64::consts::LN_2;
    let lit = |v: f64| float_literal(Scalar::F32, v);
    match base {
        "sin" => e.ins(format!("sin.approx.f32 {d}, {x}")),
        "cos" => e.ins(format!("cos.approx.f32 {d}, {x}")),
        "tan" => {
            let c = e.tmp(Rc::F32);
            e.ins(format!("sin.approx.f32 {t}, {x}"));
            e.ins(format!("cos.approx.f32 {c}, {x}"));
            e.ins(format!("div.approx.f32 {d}, {t}, {c}"));
        }
        "exp2" => e.ins(format!("ex2.approx.f32 {d}, {x}")),
        "exp" => {
            e.ins(format!("mul.f32 {t}, {x}, {}", lit(LOG2E)));
            e.ins(format!("ex2.approx.f32 {d}, {t}"));
        }
        "exp10" => {
            e.ins(format!(
                "mul.f32 {t}, {x}, {}",
                lit(std::f64::consts::LOG2_10)
            ));
            e.ins(format!("ex2.approx.f32 {d}, {t}"));
        }
        "log2" => e.ins(format!("lg2.approx.f32 {d}, {x}")),
        "log" => {
            e.ins(format!("lg2.approx.f32 {t}, {x}"));
            e.ins(format!("mul.f32 {d}, {t}, {}", lit(LN2)));
        }
        "log10" => {
            e.ins(format!("lg2.approx.f32 {t}, {x}"));
            e.ins(format!(
                "mul.f32 {d}, {t}, {}",
                lit(std::f64::consts::LOG10_2)
            ));
        }
        "powr" | "pow" => {
            let y = arg(e, a, 1, name)?;
            e.ins(format!("lg2.approx.f32 {t}, {x}"));
            e.ins(format!("mul.f32 {t}, {t}, {y}"));
            e.ins(format!("ex2.approx.f32 {d}, {t}"));
        }
        "sqrt" => e.ins(format!("sqrt.approx.f32 {d}, {x}")),
        "rsqrt" => e.ins(format!("rsqrt.approx.f32 {d}, {x}")),
        "recip" => e.ins(format!("rcp.approx.f32 {d}, {x}")),
        "divide" => {
            let y = arg(e, a, 1, name)?;
            e.ins(format!("div.approx.f32 {d}, {x}, {y}"));
        }
        _ => return Err(e.unsupported(format!("builtin `{name}`"))),
    }
    Ok(())
}

fn int_scalar(
    e: &mut FnEmitter,
    name: &str,
    s: Scalar,
    unsigned: bool,
    d: &str,
    a: &[String],
) -> R<()> {
    let w = s.bits();
    let wide = w == 64;
    let sz = if wide { 64 } else { 32 };
    let sg = if unsigned { "u" } else { "s" };
    let rc = if wide { Rc::B64 } else { Rc::B32 };
    // Narrow operands normalized to their C value in 32 bits.
    let norm = |e: &mut FnEmitter, r: &str| {
        if unsigned {
            e.zext32(r, w)
        } else {
            e.sext32(r, w)
        }
    };
    let x0 = arg(e, a, 0, name)?.to_string();
    let x = norm(e, &x0);
    match name {
        "abs" => {
            if unsigned {
                e.ins(format!("mov.b{sz} {d}, {x}"));
            } else {
                e.ins(format!("abs.s{sz} {d}, {x}"));
            }
        }
        "min" | "max" => {
            let y = norm(e, arg(e, a, 1, name)?);
            e.ins(format!("{name}.{sg}{sz} {d}, {x}, {y}"));
        }
        "clamp" => {
            let lo = norm(e, arg(e, a, 1, name)?);
            let hi = norm(e, arg(e, a, 2, name)?);
            e.ins(format!("max.{sg}{sz} {d}, {x}, {lo}"));
            e.ins(format!("min.{sg}{sz} {d}, {d}, {hi}"));
        }
        "abs_diff" => {
            let y = norm(e, arg(e, a, 1, name)?);
            let (hi, lo) = (e.tmp(rc), e.tmp(rc));
            e.ins(format!("max.{sg}{sz} {hi}, {x}, {y}"));
            e.ins(format!("min.{sg}{sz} {lo}, {x}, {y}"));
            e.ins(format!("sub.s{sz} {d}, {hi}, {lo}"));
        }
        "add_sat" | "sub_sat" => {
            let y = norm(e, arg(e, a, 1, name)?);
            let add = name == "add_sat";
            let o = if add { "add" } else { "sub" };
            if !wide && w < 32 {
                // Exact in 32 bits, then clamp to the narrow range.
                let (lo, hi) = range(w, unsigned);
                e.ins(format!("{o}.s32 {d}, {x}, {y}"));
                e.ins(format!("max.s32 {d}, {d}, {lo}"));
                e.ins(format!("min.s32 {d}, {d}, {hi}"));
            } else if !wide && !unsigned {
                e.ins(format!("{o}.sat.s32 {d}, {x}, {y}"));
            } else if unsigned {
                let p = e.tmp(Rc::Pred);
                let r = e.tmp(rc);
                e.ins(format!("{o}.s{sz} {r}, {x}, {y}"));
                if add {
                    e.ins(format!("setp.lt.u{sz} {p}, {r}, {x}"));
                    e.ins(format!("selp.b{sz} {d}, -1, {r}, {p}"));
                } else {
                    e.ins(format!("setp.lt.u{sz} {p}, {x}, {y}"));
                    e.ins(format!("selp.b{sz} {d}, 0, {r}, {p}"));
                }
            } else {
                // 64-bit signed: overflow iff the sign of the result is impossible.
                let (r, t, u) = (e.tmp(rc), e.tmp(rc), e.tmp(rc));
                let (p, q) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
                e.ins(format!("{o}.s64 {r}, {x}, {y}"));
                if add {
                    e.ins(format!("xor.b64 {t}, {x}, {r}"));
                    e.ins(format!("xor.b64 {u}, {y}, {r}"));
                } else {
                    e.ins(format!("xor.b64 {t}, {x}, {y}"));
                    e.ins(format!("xor.b64 {u}, {x}, {r}"));
                }
                e.ins(format!("and.b64 {t}, {t}, {u}"));
                e.ins(format!("setp.lt.s64 {p}, {t}, 0"));
                e.ins(format!("setp.lt.s64 {q}, {x}, 0"));
                e.ins(format!("selp.b64 {t}, {}, {}, {q}", i64::MIN, i64::MAX));
                e.ins(format!("selp.b64 {d}, {t}, {r}, {p}"));
            }
        }
        "mad_sat" => {
            let y = norm(e, arg(e, a, 1, name)?);
            let z = norm(e, arg(e, a, 2, name)?);
            mad_sat(e, w, unsigned, d, &x, &y, &z);
        }
        "hadd" | "rhadd" => {
            let y = norm(e, arg(e, a, 1, name)?);
            let (p, q, c) = (e.tmp(rc), e.tmp(rc), e.tmp(rc));
            e.ins(format!("shr.{sg}{sz} {p}, {x}, 1"));
            e.ins(format!("shr.{sg}{sz} {q}, {y}, 1"));
            let o = if name == "hadd" { "and" } else { "or" };
            e.ins(format!("{o}.b{sz} {c}, {x}, {y}"));
            e.ins(format!("and.b{sz} {c}, {c}, 1"));
            e.ins(format!("add.s{sz} {d}, {p}, {q}"));
            e.ins(format!("add.s{sz} {d}, {d}, {c}"));
        }
        "clz" => {
            if wide {
                let t = e.tmp(Rc::B32);
                e.ins(format!("clz.b64 {t}, {x0}"));
                e.ins(format!("cvt.u64.u32 {d}, {t}"));
            } else {
                let z = e.zext32(&x0, w);
                e.ins(format!("clz.b32 {d}, {z}"));
                if w < 32 {
                    e.ins(format!("sub.s32 {d}, {d}, {}", 32 - w));
                }
            }
        }
        "ctz" => {
            if wide {
                let (b, t) = (e.tmp(Rc::B64), e.tmp(Rc::B32));
                e.ins(format!("brev.b64 {b}, {x0}"));
                e.ins(format!("clz.b64 {t}, {b}"));
                e.ins(format!("cvt.u64.u32 {d}, {t}"));
            } else {
                let b = e.tmp(Rc::B32);
                if w < 32 {
                    e.ins(format!("or.b32 {b}, {x0}, {}", 1u32 << w));
                    e.ins(format!("brev.b32 {b}, {b}"));
                } else {
                    e.ins(format!("brev.b32 {b}, {x0}"));
                }
                e.ins(format!("clz.b32 {d}, {b}"));
            }
        }
        "popcount" => {
            if wide {
                let t = e.tmp(Rc::B32);
                e.ins(format!("popc.b64 {t}, {x0}"));
                e.ins(format!("cvt.u64.u32 {d}, {t}"));
            } else {
                let z = e.zext32(&x0, w);
                e.ins(format!("popc.b32 {d}, {z}"));
            }
        }
        "mul_hi" | "mad_hi" => {
            let y = norm(e, arg(e, a, 1, name)?);
            if w >= 32 {
                e.ins(format!("mul.hi.{sg}{sz} {d}, {x}, {y}"));
            } else {
                e.ins(format!("mul.lo.s32 {d}, {x}, {y}"));
                e.ins(format!("shr.{sg}32 {d}, {d}, {w}"));
            }
            if name == "mad_hi" {
                e.ins(format!("add.s{sz} {d}, {d}, {}", arg(e, a, 2, name)?));
            }
        }
        "mul24" | "mad24" if w == 32 => {
            let y = arg(e, a, 1, name)?;
            if name == "mul24" {
                e.ins(format!("mul24.lo.{sg}32 {d}, {x}, {y}"));
            } else {
                e.ins(format!(
                    "mad24.lo.{sg}32 {d}, {x}, {y}, {}",
                    arg(e, a, 2, name)?
                ));
            }
        }
        "rotate" => {
            let n = arg(e, a, 1, name)?.to_string();
            if w == 32 {
                e.ins(format!("shf.l.wrap.b32 {d}, {x0}, {x0}, {n}"));
            } else {
                let (k, j) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
                let (l, r) = (e.tmp(rc), e.tmp(rc));
                if wide {
                    e.ins(format!("cvt.u32.u64 {k}, {n}"));
                    e.ins(format!("and.b32 {k}, {k}, 63"));
                } else {
                    e.ins(format!("and.b32 {k}, {n}, {}", w - 1));
                }
                e.ins(format!("sub.s32 {j}, {w}, {k}"));
                let z = if wide { x0.clone() } else { e.zext32(&x0, w) };
                e.ins(format!("shl.b{sz} {l}, {z}, {k}"));
                e.ins(format!("shr.u{sz} {r}, {z}, {j}"));
                e.ins(format!("or.b{sz} {d}, {l}, {r}"));
            }
        }
        "upsample" => {
            let lo = arg(e, a, 1, name)?.to_string();
            match w {
                64 => e.ins(format!("mov.b64 {d}, {{{lo}, {x0}}}")),
                _ => {
                    // The result is twice as wide as the arguments.
                    let half = w / 2;
                    let z = e.zext32(&lo, half);
                    e.ins(format!("shl.b32 {d}, {x0}, {half}"));
                    e.ins(format!("or.b32 {d}, {d}, {z}"));
                }
            }
        }
        _ => {
            return Err(e.unsupported(format!(
                "builtin `{name}` ({}{})",
                if unsigned { "u" } else { "" },
                s.name()
            )));
        }
    }
    Ok(())
}

/// Smallest and largest C value of a narrow integer type, as 32-bit literals.
fn range(bits: u32, unsigned: bool) -> (i64, i64) {
    if unsigned {
        (0, (1i64 << bits) - 1)
    } else {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    }
}

/// `mad_sat`: x·y + z exact in twice the width (128 bits for long), then clamped.
fn mad_sat(e: &mut FnEmitter, w: u32, unsigned: bool, d: &str, x: &str, y: &str, z: &str) {
    let sg = if unsigned { "u" } else { "s" };
    if w < 64 {
        let (xw, yw, zw) = (e.tmp(Rc::B64), e.tmp(Rc::B64), e.tmp(Rc::B64));
        for (wr, r) in [(&xw, x), (&yw, y), (&zw, z)] {
            e.ins(format!("cvt.{sg}64.{sg}32 {wr}, {r}"));
        }
        // |x·y| < 2^64 and the sum cannot wrap: the exact value, then the clamp.
        let (lo, hi) = range(w, unsigned);
        let p = e.tmp(Rc::Pred);
        if unsigned {
            e.ins(format!("mul.lo.u64 {xw}, {xw}, {yw}"));
            e.ins(format!("add.u64 {zw}, {xw}, {zw}"));
            e.ins(format!("setp.lt.u64 {p}, {zw}, {xw}"));
            e.ins(format!("min.u64 {zw}, {zw}, {hi}"));
            e.ins(format!("@{p} mov.u64 {zw}, {hi}"));
        } else {
            e.ins(format!("mul.lo.s64 {xw}, {xw}, {yw}"));
            e.ins(format!("add.s64 {zw}, {xw}, {zw}"));
            e.ins(format!("max.s64 {zw}, {zw}, {lo}"));
            e.ins(format!("min.s64 {zw}, {zw}, {hi}"));
        }
        e.ins(format!("cvt.u32.u64 {d}, {zw}"));
        return;
    }
    let (lo, hi, zh, t) = (
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
    );
    let p = e.tmp(Rc::Pred);
    e.ins(format!("mul.lo.u64 {lo}, {x}, {y}"));
    e.ins(format!("mul.hi.{sg}64 {hi}, {x}, {y}"));
    if unsigned {
        e.ins(format!("mov.u64 {zh}, 0"));
    } else {
        e.ins(format!("shr.s64 {zh}, {z}, 63"));
    }
    e.ins(format!("add.cc.u64 {lo}, {lo}, {z}"));
    e.ins(format!("addc.u64 {hi}, {hi}, {zh}"));
    if unsigned {
        e.ins(format!("setp.ne.u64 {p}, {hi}, 0"));
        e.ins(format!("selp.b64 {d}, -1, {lo}, {p}"));
    } else {
        // In range iff the high word is the sign extension of the low one.
        let neg = e.tmp(Rc::Pred);
        e.ins(format!("shr.s64 {t}, {lo}, 63"));
        e.ins(format!("setp.ne.s64 {p}, {hi}, {t}"));
        e.ins(format!("setp.lt.s64 {neg}, {hi}, 0"));
        e.ins(format!("selp.b64 {t}, {}, {}, {neg}", i64::MIN, i64::MAX));
        e.ins(format!("selp.b64 {d}, {t}, {lo}, {p}"));
    }
}

/// `shuffle` and `shuffle2`: each result lane picks a source lane by the low bits of its mask
/// lane (register selects; the sources' lane count is a power of two).
fn shuffle(e: &mut FnEmitter, name: &str, args: &[Value], r: Value) -> R<()> {
    let (srcs, mask) = match args {
        [x, m] => (vec![*x], *m),
        [x, y, m] => (vec![*x, *y], *m),
        _ => return Err(e.invalid(format!("`{name}` with the wrong number of arguments"))),
    };
    let mut lanes = Vec::new();
    for s in srcs {
        lanes.extend(e.lanes(s)?);
    }
    let n = lanes.len();
    if !n.is_power_of_two() {
        return Err(e.invalid(format!("`{name}` of {n} lanes")));
    }
    let rt = e.ty(r)?;
    let rc = Rc::of_type(rt);
    let wide_mask = e.elem(mask)? == Scalar::I64;
    let (idx, p) = (e.tmp(Rc::B32), e.tmp(Rc::Pred));
    for i in 0..rt.lanes() {
        let (m, d) = (e.reg(mask, i)?, e.reg(r, i)?);
        if wide_mask {
            e.ins(format!("cvt.u32.u64 {idx}, {m}"));
        } else {
            e.ins(format!("mov.b32 {idx}, {m}"));
        }
        e.ins(format!("and.b32 {idx}, {idx}, {}", n - 1));
        let mut src = lanes.iter();
        if let Some(first) = src.next() {
            e.ins(format!("mov.{} {d}, {first}", rc.mov()));
        }
        for (j, l) in src.enumerate() {
            e.ins(format!("setp.eq.u32 {p}, {idx}, {}", j + 1));
            e.ins(format!("@{p} mov.{} {d}, {l}", rc.mov()));
        }
    }
    Ok(())
}

/// `isnan`, `isequal`, ...: scalar results are `int` 1/0, vector results -1/0 lanes.
fn relational(e: &mut FnEmitter, name: &str, args: &[Value], r: Value) -> R<()> {
    let rt = e.ty(r)?;
    let vector = rt.lanes() > 1;
    let rs = rt.elem().unwrap_or(Scalar::I32);
    let first = *args
        .first()
        .ok_or_else(|| e.invalid("relational without arguments"))?;
    let s = e.elem(first)?;
    for l in 0..rt.lanes() {
        let mut xs = Vec::new();
        for a in args {
            let reg = e.lane_or_scalar(*a, l)?;
            xs.push(if s == Scalar::F16 { e.h2f(&reg) } else { reg });
        }
        let t = if s == Scalar::F64 { "f64" } else { "f32" };
        let p = e.tmp(Rc::Pred);
        let x = xs.first().cloned().unwrap_or_default();
        let (ys, missing) = (
            xs.get(1).cloned(),
            e.invalid("relational needs two arguments"),
        );
        let y = || ys.clone().ok_or_else(|| missing.clone());
        match name {
            "isequal" => e.ins(format!("setp.eq.{t} {p}, {x}, {}", y()?)),
            "isnotequal" => e.ins(format!("setp.neu.{t} {p}, {x}, {}", y()?)),
            "isgreater" => e.ins(format!("setp.gt.{t} {p}, {x}, {}", y()?)),
            "isgreaterequal" => e.ins(format!("setp.ge.{t} {p}, {x}, {}", y()?)),
            "isless" => e.ins(format!("setp.lt.{t} {p}, {x}, {}", y()?)),
            "islessequal" => e.ins(format!("setp.le.{t} {p}, {x}, {}", y()?)),
            "islessgreater" => e.ins(format!("setp.ne.{t} {p}, {x}, {}", y()?)),
            "isordered" => e.ins(format!("setp.num.{t} {p}, {x}, {}", y()?)),
            "isunordered" => e.ins(format!("setp.nan.{t} {p}, {x}, {}", y()?)),
            "isfinite" => e.ins(format!("testp.finite.{t} {p}, {x}")),
            "isinf" => e.ins(format!("testp.infinite.{t} {p}, {x}")),
            "isnan" => e.ins(format!("testp.notanumber.{t} {p}, {x}")),
            "isnormal" => e.ins(format!("testp.normal.{t} {p}, {x}")),
            _ => {
                // signbit
                let bits = e.tmp(if s == Scalar::F64 { Rc::B64 } else { Rc::B32 });
                let ib = if s == Scalar::F64 { "b64" } else { "b32" };
                let it = if s == Scalar::F64 { "s64" } else { "s32" };
                e.ins(format!("mov.{ib} {bits}, {x}"));
                e.ins(format!("setp.lt.{it} {p}, {bits}, 0"));
            }
        }
        let d = e.reg(r, l)?;
        let tv = if vector { "-1" } else { "1" };
        let sz = if rs == Scalar::I64 { 64 } else { 32 };
        e.ins(format!("selp.b{sz} {d}, {tv}, 0, {p}"));
    }
    Ok(())
}

/// `any`/`all`: tests the most significant bit of every lane; `int` 1/0.
fn any_all(e: &mut FnEmitter, name: &str, args: &[Value], r: Value) -> R<()> {
    let a = *args
        .first()
        .ok_or_else(|| e.invalid("any/all without an argument"))?;
    let s = e.elem(a)?;
    let d = e.reg(r, 0)?;
    let acc = e.tmp(Rc::Pred);
    for l in 0..lane_count(e, a)? {
        let x = e.reg(a, l)?;
        let p = e.tmp(Rc::Pred);
        if s == Scalar::I64 {
            e.ins(format!("setp.lt.s64 {p}, {x}, 0"));
        } else {
            let v = e.sext32(&x, s.bits());
            e.ins(format!("setp.lt.s32 {p}, {v}, 0"));
        }
        if l == 0 {
            e.ins(format!("mov.pred {acc}, {p}"));
        } else {
            let o = if name == "any" { "or" } else { "and" };
            e.ins(format!("{o}.pred {acc}, {acc}, {p}"));
        }
    }
    e.ins(format!("selp.u32 {d}, 1, 0, {acc}"));
    Ok(())
}

/// `select(a, b, c)`: `c ? b : a`, by the MSB of each lane of a vector `c`.
fn select(e: &mut FnEmitter, args: &[Value], r: Value) -> R<()> {
    let [a, b, c] = args else {
        return Err(e.invalid("select takes three arguments"));
    };
    let rt = e.ty(r)?;
    let rc = Rc::of_type(rt);
    let cs = e.elem(*c)?;
    let vector = e.ty(*c)?.lanes() > 1;
    for l in 0..rt.lanes() {
        let cr = e.lane_or_scalar(*c, l)?;
        let p = e.tmp(Rc::Pred);
        match (cs, vector) {
            (Scalar::I64, true) => e.ins(format!("setp.lt.s64 {p}, {cr}, 0")),
            (Scalar::I64, false) => e.ins(format!("setp.ne.u64 {p}, {cr}, 0")),
            (s, true) => {
                let v = e.sext32(&cr, s.bits());
                e.ins(format!("setp.lt.s32 {p}, {v}, 0"));
            }
            (s, false) => {
                let v = e.zext32(&cr, s.bits());
                e.ins(format!("setp.ne.u32 {p}, {v}, 0"));
            }
        }
        let (d, ar, br) = (
            e.reg(r, l)?,
            e.lane_or_scalar(*a, l)?,
            e.lane_or_scalar(*b, l)?,
        );
        e.select(rc, &d, &p, &br, &ar);
    }
    Ok(())
}

fn bitselect(e: &mut FnEmitter, args: &[Value], r: Value) -> R<()> {
    let [a, b, c] = args else {
        return Err(e.invalid("bitselect takes three arguments"));
    };
    let rt = e.ty(r)?;
    let s = rt.elem().unwrap_or(Scalar::I32);
    let (rc, sz) = match s.bits() {
        64 => (Rc::B64, 64),
        16 if s.is_float() => (Rc::B16, 16),
        _ => (Rc::B32, 32),
    };
    for l in 0..rt.lanes() {
        let (d, ar, br, cr) = (e.reg(r, l)?, e.reg(*a, l)?, e.reg(*b, l)?, e.reg(*c, l)?);
        let (x, y) = (e.tmp(rc), e.tmp(rc));
        e.ins(format!("not.b{sz} {x}, {cr}"));
        e.ins(format!("and.b{sz} {x}, {x}, {ar}"));
        e.ins(format!("and.b{sz} {y}, {cr}, {br}"));
        if s.is_float() && sz != 16 {
            let z = e.tmp(rc);
            e.ins(format!("or.b{sz} {z}, {x}, {y}"));
            e.ins(format!("mov.b{sz} {d}, {z}"));
        } else {
            e.ins(format!("or.b{sz} {d}, {x}, {y}"));
        }
    }
    Ok(())
}

/// `dot`: products summed in lane order, each correctly rounded.
fn dot(e: &mut FnEmitter, args: &[Value], r: Value) -> R<()> {
    let [a, b] = args else {
        return Err(e.invalid("dot takes two arguments"));
    };
    let s = e.elem(r)?;
    if s == Scalar::F16 {
        // As the cpu runtime: exact products summed in double, rounded once to half.
        let d = e.reg(r, 0)?;
        let acc = e.tmp(Rc::F64);
        for l in 0..lane_count(e, *a)? {
            let (x, y) = (e.reg(*a, l)?, e.reg(*b, l)?);
            let (xd, yd) = (e.tmp(Rc::F64), e.tmp(Rc::F64));
            e.ins(format!("cvt.f64.f16 {xd}, {x}"));
            e.ins(format!("cvt.f64.f16 {yd}, {y}"));
            if l == 0 {
                e.ins(format!("mul.rn.f64 {acc}, {xd}, {yd}"));
            } else {
                e.ins(format!("fma.rn.f64 {acc}, {xd}, {yd}, {acc}"));
            }
        }
        e.ins(format!("cvt.rn.f16.f64 {d}, {acc}"));
        return Ok(());
    }
    let t = float_ty(s);
    let d = e.reg(r, 0)?;
    let rc = Rc::of_scalar(s);
    let acc = e.tmp(rc);
    for l in 0..lane_count(e, *a)? {
        let (x, y) = (e.reg(*a, l)?, e.reg(*b, l)?);
        if l == 0 {
            e.ins(format!("mul.rn.{t} {acc}, {x}, {y}"));
        } else {
            let p = e.tmp(rc);
            e.ins(format!("mul.rn.{t} {p}, {x}, {y}"));
            e.ins(format!("add.rn.{t} {acc}, {acc}, {p}"));
        }
    }
    e.ins(format!("mov.{t} {d}, {acc}"));
    Ok(())
}

/// `cross` of 3- or 4-vectors (w = 0), as the cpu runtime computes it: in double, each
/// component rounded once to the element type (products of half and float lanes are exact).
fn cross(e: &mut FnEmitter, args: &[Value], r: Value) -> R<()> {
    let [a, b] = args else {
        return Err(e.invalid("cross takes two arguments"));
    };
    let s = e.elem(r)?;
    let wide = |e: &mut FnEmitter, v: Value| -> R<Vec<String>> {
        (0..3)
            .map(|l| {
                let x = e.reg(v, l)?;
                Ok(match s {
                    Scalar::F64 => x,
                    _ => {
                        let d = e.tmp(Rc::F64);
                        let src = if s == Scalar::F16 { "f16" } else { "f32" };
                        e.ins(format!("cvt.f64.{src} {d}, {x}"));
                        d
                    }
                })
            })
            .collect()
    };
    let (x, y) = (wide(e, *a)?, wide(e, *b)?);
    let lane = |v: &[String], k: usize| v.get(k).cloned().unwrap_or_default();
    for (l, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
        let (p, q) = (e.tmp(Rc::F64), e.tmp(Rc::F64));
        e.ins(format!("mul.rn.f64 {p}, {}, {}", lane(&x, i), lane(&y, j)));
        e.ins(format!("mul.rn.f64 {q}, {}, {}", lane(&x, j), lane(&y, i)));
        let d = e.reg(r, l as u32)?;
        match s {
            Scalar::F64 => e.ins(format!("sub.rn.f64 {d}, {p}, {q}")),
            _ => {
                e.ins(format!("sub.rn.f64 {p}, {p}, {q}"));
                e.ins(format!(
                    "cvt.rn.{} {d}, {p}",
                    if s == Scalar::F16 {
                        "f16.f64"
                    } else {
                        "f32.f64"
                    }
                ));
            }
        }
    }
    if e.ty(r)?.lanes() == 4 {
        let d = e.reg(r, 3)?;
        let zero = match s {
            Scalar::F64 => "0d0000000000000000",
            Scalar::F16 => "0x0000",
            _ => "0f00000000",
        };
        let mv = if s == Scalar::F16 { "b16" } else { float_ty(s) };
        e.ins(format!("mov.{mv} {d}, {zero}"));
    }
    Ok(())
}

/// `fract`, `modf` and `frexp`: a result plus a second value stored through a pointer.
fn with_output(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], r: Value) -> R<()> {
    let [x, p] = args else {
        return Err(e.invalid(format!("`{}` takes two arguments", decl.name)));
    };
    let name = decl.name.as_str();
    let s = e.elem(r)?;
    if s == Scalar::F16 {
        return with_output_half(e, name, *x, *p, r);
    }
    // sincos keeps full precision under fast-relaxed-math too (the spec allows better).
    let sfx = space_of(e, *p, true)?;
    let t = float_ty(s);
    let rc = Rc::of_scalar(s);
    let lit = |v: f64| float_literal(s, v);
    let pr = e.reg(*p, 0)?;
    for l in 0..e.ty(r)?.lanes() {
        let (d, xr) = (e.reg(r, l)?, e.reg(*x, l)?);
        let (inf, nan) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
        e.ins(format!("testp.infinite.{t} {inf}, {xr}"));
        e.ins(format!("testp.notanumber.{t} {nan}, {xr}"));
        let out = e.tmp(rc);
        match name {
            "fract" => {
                // fract = min(x - floor(x), largest value below 1); ±inf gives ±0, NaN NaN.
                let below_one = if s == Scalar::F64 {
                    "0d3FEFFFFFFFFFFFFF"
                } else {
                    "0f3F7FFFFF"
                };
                e.ins(format!("cvt.rmi.{t}.{t} {out}, {xr}"));
                e.ins(format!("sub.rn.{t} {d}, {xr}, {out}"));
                e.ins(format!("min.{t} {d}, {d}, {below_one}"));
                // fract(±0) is ±0 (x - floor(x) would make -0 into +0).
                let zero = e.tmp(Rc::Pred);
                e.ins(format!("setp.eq.{t} {zero}, {xr}, {}", lit(0.0)));
                e.ins(format!("@{zero} mov.{t} {d}, {xr}"));
                e.ins(format!("@{inf} copysign.{t} {d}, {xr}, {}", lit(0.0)));
                e.ins(format!("@{nan} mov.{t} {d}, {xr}"));
            }
            "sincos" if s == Scalar::F64 => {
                let r = crate::dmath_ptx::emit(e, "sincos", &xr, None, None);
                if let Some((v, c)) = r.and_then(|r| Some((r.value?, r.second?))) {
                    e.ins(format!("mov.f64 {d}, {v}"));
                    e.ins(format!("mov.f64 {out}, {c}"));
                }
            }
            "sincos" => crate::math::sincos_f32(e, &xr, Some(&d), Some(&out), None),
            "modf" => {
                e.ins(format!("cvt.rzi.{t}.{t} {out}, {xr}"));
                e.ins(format!("sub.rn.{t} {d}, {xr}, {out}"));
                e.ins(format!("@{inf} mov.{t} {d}, {}", lit(0.0)));
                e.ins(format!("copysign.{t} {d}, {xr}, {d}"));
            }
            _ => {
                let ei = e.tmp(Rc::B32);
                frexp_lane(e, s, &d, &xr, &ei, inf, nan);
                let at = format!("[{pr}+{}]", l * 4);
                e.ins(format!("st{sfx}.u32 {at}, {ei}"));
                continue;
            }
        }
        let at = format!("[{pr}+{}]", l * s.bytes());
        e.ins(format!("st{sfx}.{t} {at}, {out}"));
    }
    Ok(())
}

/// `fract`, `modf`, `frexp` and `sincos` on half: computed on the values widened to f32
/// (exact for the first three), each result rounded once to half.
fn with_output_half(e: &mut FnEmitter, name: &str, x: Value, p: Value, r: Value) -> R<()> {
    let sfx = space_of(e, p, true)?;
    let pr = e.reg(p, 0)?;
    for l in 0..e.ty(r)?.lanes() {
        let (d, xh) = (e.reg(r, l)?, e.reg(x, l)?);
        let xr = e.h2f(&xh);
        let (inf, nan) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
        e.ins(format!("testp.infinite.f32 {inf}, {xr}"));
        e.ins(format!("testp.notanumber.f32 {nan}, {xr}"));
        let (df, out) = (e.tmp(Rc::F32), e.tmp(Rc::F32));
        match name {
            "fract" => {
                // The cap is half's largest value below 1, so the rounding keeps it.
                e.ins(format!("cvt.rmi.f32.f32 {out}, {xr}"));
                e.ins(format!("sub.rn.f32 {df}, {xr}, {out}"));
                e.ins(format!("min.f32 {df}, {df}, 0f3F7FE000"));
                let zero = e.tmp(Rc::Pred);
                e.ins(format!("setp.eq.f32 {zero}, {xr}, 0f00000000"));
                e.ins(format!("@{zero} mov.f32 {df}, {xr}"));
                e.ins(format!("@{inf} copysign.f32 {df}, {xr}, 0f00000000"));
                e.ins(format!("@{nan} mov.f32 {df}, {xr}"));
            }
            "sincos" => crate::math::sincos_f32(e, &xr, Some(&df), Some(&out), None),
            "modf" => {
                e.ins(format!("cvt.rzi.f32.f32 {out}, {xr}"));
                e.ins(format!("sub.rn.f32 {df}, {xr}, {out}"));
                e.ins(format!("@{inf} mov.f32 {df}, 0f00000000"));
                e.ins(format!("copysign.f32 {df}, {xr}, {df}"));
            }
            _ => {
                let ei = e.tmp(Rc::B32);
                frexp_lane(e, Scalar::F32, &df, &xr, &ei, inf, nan);
                e.ins(format!("cvt.rn.f16.f32 {d}, {df}"));
                e.ins(format!("st{sfx}.u32 [{pr}+{}], {ei}", l * 4));
                continue;
            }
        }
        let oh = e.tmp(Rc::B16);
        e.ins(format!("cvt.rn.f16.f32 {d}, {df}"));
        e.ins(format!("cvt.rn.f16.f32 {oh}, {out}"));
        e.ins(format!("st{sfx}.b16 [{pr}+{}], {oh}", l * 2));
    }
    Ok(())
}

/// `remquo` and `lgamma_r` on half (through f32), f32 and f64: a result plus an int per lane
/// stored through a pointer.
fn with_int_output(e: &mut FnEmitter, name: &str, args: &[Value], r: Value) -> R<()> {
    let (xs, p) = match args {
        [x, y, p] if name == "remquo" => (vec![*x, *y], *p),
        [x, p] if name == "lgamma_r" => (vec![*x], *p),
        _ => return Err(e.invalid(format!("`{name}` with the wrong number of arguments"))),
    };
    let s = e.elem(r)?;
    let half = s == Scalar::F16;
    let sfx = space_of(e, p, true)?;
    let pr = e.reg(p, 0)?;
    for l in 0..e.ty(r)?.lanes() {
        let dr = e.reg(r, l)?;
        let x = e.lane_or_scalar(xs[0], l)?;
        let (x, d) = if half {
            (e.h2f(&x), e.tmp(Rc::F32))
        } else {
            (x, dr.clone())
        };
        let out = e.tmp(Rc::B32);
        if s == Scalar::F64 {
            let y = match xs.get(1) {
                Some(y) => Some(e.lane_or_scalar(*y, l)?),
                None => None,
            };
            let res = crate::dmath_ptx::emit(e, name, &x, y.as_deref(), None);
            let Some((v, i)) = res.and_then(|r| Some((r.value?, r.int?))) else {
                return Err(e.unsupported(format!("builtin `{name}` (double)")));
            };
            e.ins(format!("mov.f64 {d}, {v}"));
            e.ins(format!("mov.b32 {out}, {i}"));
        } else if let Some(y) = xs.get(1) {
            let y = e.lane_or_scalar(*y, l)?;
            let y = if half { e.h2f(&y) } else { y };
            crate::fmath::rem_f32(e, name, &d, &x, &y, Some(&out));
        } else {
            crate::fmath::unary_f32(e, "lgamma", &d, &x);
            crate::fmath::lgamma_sign(e, &x, &out);
        }
        if half {
            e.ins(format!("cvt.rn.f16.f32 {dr}, {d}"));
        }
        e.ins(format!("st{sfx}.u32 [{pr}+{}], {out}", l * 4));
    }
    Ok(())
}

/// One lane of `frexp`: `d` gets the mantissa in [0.5, 1), `exp` (a b32 register) the
/// exponent; zero, infinity and NaN return themselves with exponent 0.
fn frexp_lane(e: &mut FnEmitter, s: Scalar, d: &str, x: &str, exp: &str, inf: String, nan: String) {
    let wide = s == Scalar::F64;
    let (t, b, brc) = if wide {
        ("f64", "b64", Rc::B64)
    } else {
        ("f32", "b32", Rc::B32)
    };
    let (mbits, ebits, bias, scale, scale_log) = if wide {
        (52, 11, 1022, "0d43F0000000000000", 64)
    } else {
        (23, 8, 126, "0f4F800000", 32)
    };
    let (mask, half) = if wide {
        ("0x800FFFFFFFFFFFFF", "0x3FE0000000000000")
    } else {
        ("0x807FFFFF", "0x3F000000")
    };
    let xs = e.tmp(Rc::of_scalar(s));
    let bits = e.tmp(brc);
    let ex = e.tmp(brc);
    let (den, zero, special) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred), e.tmp(Rc::Pred));
    e.ins(format!("mov.{t} {xs}, {x}"));
    e.ins(format!("mov.{b} {bits}, {x}"));
    e.ins(format!(
        "bfe.u{} {ex}, {bits}, {mbits}, {ebits}",
        if wide { 64 } else { 32 }
    ));
    e.ins(format!(
        "setp.eq.u{} {den}, {ex}, 0",
        if wide { 64 } else { 32 }
    ));
    // Subnormals: scale into the normal range first.
    e.ins(format!("@{den} mul.rn.{t} {xs}, {x}, {scale}"));
    e.ins(format!("mov.{b} {bits}, {xs}"));
    e.ins(format!(
        "bfe.u{} {ex}, {bits}, {mbits}, {ebits}",
        if wide { 64 } else { 32 }
    ));
    if wide {
        e.ins(format!("cvt.u32.u64 {exp}, {ex}"));
    } else {
        e.ins(format!("mov.b32 {exp}, {ex}"));
    }
    e.ins(format!("@{den} sub.s32 {exp}, {exp}, {scale_log}"));
    e.ins(format!("sub.s32 {exp}, {exp}, {bias}"));
    e.ins(format!("and.{b} {bits}, {bits}, {mask}"));
    e.ins(format!("or.{b} {bits}, {bits}, {half}"));
    e.ins(format!("mov.{b} {d}, {bits}"));
    e.ins(format!(
        "setp.eq.{t} {zero}, {x}, {}",
        float_literal(s, 0.0)
    ));
    e.ins(format!("or.pred {special}, {inf}, {nan}"));
    e.ins(format!("or.pred {special}, {special}, {zero}"));
    e.ins(format!("@{special} mov.{t} {d}, {x}"));
    e.ins(format!("@{special} mov.b32 {exp}, 0"));
}

/// `convert_<type>[_sat][_rte|_rtz|_rtp|_rtn]`.
fn convert(e: &mut FnEmitter, decl: &BuiltinDecl, rest: &str, args: &[Value], r: Value) -> R<()> {
    let a = *args
        .first()
        .ok_or_else(|| e.invalid("conversion without an argument"))?;
    let sat = rest.contains("_sat");
    let mode = ["_rte", "_rtz", "_rtp", "_rtn"]
        .into_iter()
        .find(|m| rest.ends_with(m))
        .map(|m| &m[1..]);
    let (fs, ts) = (e.elem(a)?, e.elem(r)?);
    let src_unsigned = decl.unsigned.first().copied().unwrap_or(false);
    let dst_unsigned = decl.ret_unsigned;
    for l in 0..e.ty(r)?.lanes() {
        let (d, x) = (e.reg(r, l)?, e.reg(a, l)?);
        match (fs.is_float(), ts.is_float()) {
            (false, false) => conv_int_int(e, fs, src_unsigned, ts, dst_unsigned, sat, &d, &x),
            (true, false) => {
                let rnd = match mode {
                    Some("rte") => "rni",
                    Some("rtp") => "rpi",
                    Some("rtn") => "rmi",
                    _ => "rzi",
                };
                let ft = float_ty(fs);
                let (x, ft) = if fs == Scalar::F16 {
                    (e.h2f(&x), "f32")
                } else {
                    (x, ft)
                };
                let g = if dst_unsigned { "u" } else { "s" };
                if ts.bits() >= 32 {
                    // PTX float-to-integer conversions saturate (NaN gives 0), as `_sat` asks.
                    e.ins(format!("cvt.{rnd}.{g}{}.{ft} {d}, {x}", ts.bits()));
                } else {
                    e.ins(format!("cvt.{rnd}.{g}32.{ft} {d}, {x}"));
                    if sat {
                        let (lo, hi) = range(ts.bits(), dst_unsigned);
                        e.ins(format!("max.s32 {d}, {d}, {lo}"));
                        e.ins(format!("min.s32 {d}, {d}, {hi}"));
                    }
                }
            }
            (false, true) => {
                let rnd = match mode {
                    Some("rtz") => "rz",
                    Some("rtp") => "rp",
                    Some("rtn") => "rm",
                    _ => "rn",
                };
                let (x, st) = if fs == Scalar::I64 {
                    (x, if src_unsigned { "u64" } else { "s64" })
                } else if src_unsigned {
                    (e.zext32(&x, fs.bits()), "u32")
                } else {
                    (e.sext32(&x, fs.bits()), "s32")
                };
                e.ins(format!("cvt.{rnd}.{}.{st} {d}, {x}", float_ty(ts)));
            }
            (true, true) => {
                let rnd = match mode {
                    Some("rtz") => "rz",
                    Some("rtp") => "rp",
                    Some("rtn") => "rm",
                    _ => "rn",
                };
                let (ft, tt) = (float_ty(fs), float_ty(ts));
                if fs == ts {
                    e.ins(format!("mov.{} {d}, {x}", Rc::of_scalar(ts).mov()));
                } else if ts.bits() > fs.bits() {
                    e.ins(format!("cvt.{tt}.{ft} {d}, {x}"));
                } else {
                    e.ins(format!("cvt.{rnd}.{tt}.{ft} {d}, {x}"));
                }
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn conv_int_int(
    e: &mut FnEmitter,
    fs: Scalar,
    fu: bool,
    ts: Scalar,
    tu: bool,
    sat: bool,
    d: &str,
    x: &str,
) {
    // Widen the source to its exact 64-bit value, clamp when saturating, then narrow.
    let w = e.tmp(Rc::B64);
    if fs == Scalar::I64 {
        e.ins(format!("mov.b64 {w}, {x}"));
    } else if fu {
        let z = e.zext32(x, fs.bits());
        e.ins(format!("cvt.u64.u32 {w}, {z}"));
    } else {
        let z = e.sext32(x, fs.bits());
        e.ins(format!("cvt.s64.s32 {w}, {z}"));
    }
    if sat {
        let tb = ts.bits();
        match (fu, tu) {
            (false, false) if tb < 64 => {
                let (lo, hi) = (-(1i64 << (tb - 1)), (1i64 << (tb - 1)) - 1);
                e.ins(format!("max.s64 {w}, {w}, {lo}"));
                e.ins(format!("min.s64 {w}, {w}, {hi}"));
            }
            (false, true) => {
                e.ins(format!("max.s64 {w}, {w}, 0"));
                if tb < 64 {
                    e.ins(format!("min.s64 {w}, {w}, {}", (1u64 << tb) - 1));
                }
            }
            (true, false) => {
                e.ins(format!("min.u64 {w}, {w}, {}", (1u64 << (tb - 1)) - 1));
            }
            (true, true) if tb < 64 => {
                e.ins(format!("min.u64 {w}, {w}, {}", (1u64 << tb) - 1));
            }
            _ => {}
        }
    }
    if ts == Scalar::I64 {
        e.ins(format!("mov.b64 {d}, {w}"));
    } else {
        e.ins(format!("cvt.u32.u64 {d}, {w}"));
    }
}

/// Address `p + offset * stride` for vector loads and stores.
fn element_address(e: &mut FnEmitter, p: Value, offset: Value, stride: u32) -> R<String> {
    let (pr, or) = (e.reg(p, 0)?, e.reg(offset, 0)?);
    let os = e.elem(offset)?;
    let off64 = if os == Scalar::I64 {
        or
    } else {
        let t = e.tmp(Rc::B64);
        let z = e.zext32(&or, os.bits());
        e.ins(format!("cvt.u64.u32 {t}, {z}"));
        t
    };
    let a = e.tmp(Rc::B64);
    e.ins(format!("mad.lo.s64 {a}, {off64}, {stride}, {pr}"));
    Ok(a)
}

fn space_of(e: &FnEmitter, p: Value, store: bool) -> R<&'static str> {
    Ok(match e.ptr_space(p)? {
        AddrSpace::Global => ".global",
        AddrSpace::Constant if store => return Err(e.invalid("vstore to __constant memory")),
        AddrSpace::Constant => ".global.nc",
        AddrSpace::Local => ".shared",
        AddrSpace::Private => ".local",
        AddrSpace::Generic => "",
    })
}

/// Lanes and whether the `a` (aligned) variant pads 3 to 4, from a vload/vstore name.
fn vec_width(rest: &str) -> u32 {
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap_or(1)
}

fn vload(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], r: Value) -> R<()> {
    let [offset, p] = args else {
        return Err(e.invalid(format!("`{}` takes two arguments", decl.name)));
    };
    let name = decl.name.as_str();
    let rt = e.ty(r)?;
    let sfx = space_of(e, *p, false)?;
    let (half, aligned, n) = if let Some(rest) = name.strip_prefix("vloada_half") {
        (true, true, vec_width(rest))
    } else if let Some(rest) = name.strip_prefix("vload_half") {
        (true, false, vec_width(rest))
    } else if let Some(rest) = name.strip_prefix("vload") {
        (false, false, vec_width(rest))
    } else {
        return Err(e.unsupported(format!("builtin `{name}`")));
    };
    if half {
        let stride = 2 * if aligned && n == 3 { 4 } else { n };
        let addr = element_address(e, *p, *offset, stride)?;
        let rs = rt.elem().unwrap_or(Scalar::F32);
        for l in 0..rt.lanes() {
            let h = e.tmp(Rc::B16);
            e.ins(format!("ld{sfx}.b16 {h}, [{addr}+{}]", l * 2));
            let d = e.reg(r, l)?;
            e.ins(format!("cvt.{}.f16 {d}, {h}", float_ty(rs)));
        }
        return Ok(());
    }
    let es = rt.elem().map_or(1, Scalar::bytes);
    let addr = element_address(e, *p, *offset, n * es)?;
    let lane_t = Type::Scalar(rt.elem().unwrap_or(Scalar::I32));
    let regs = (0..rt.lanes())
        .map(|l| e.reg(r, l))
        .collect::<R<Vec<_>>>()?;
    let chunk = whole_chunk(e, name, rt, *p);
    vector_access(e, false, sfx, mem_type(lane_t), &addr, &regs, chunk, es);
    Ok(())
}

/// The loads (or stores) of `regs`' lanes at `addr`, `chunk` lanes (of `es` bytes) per
/// instruction.
#[allow(clippy::too_many_arguments)]
fn vector_access(
    e: &mut FnEmitter,
    store: bool,
    sfx: &str,
    t: &str,
    addr: &str,
    regs: &[String],
    chunk: u32,
    es: u32,
) {
    for (c, group) in regs.chunks(chunk.max(1) as usize).enumerate() {
        let at = c as u32 * chunk * es;
        let v = match group.len() {
            1 => String::new(),
            n => format!(".v{n}"),
        };
        let lanes = match group {
            [one] => one.clone(),
            _ => format!("{{{}}}", group.join(", ")),
        };
        if store {
            e.ins(format!("st{sfx}{v}.{t} [{addr}+{at}], {lanes}"));
        } else {
            e.ins(format!("ld{sfx}{v}.{t} {lanes}, [{addr}+{at}]"));
        }
    }
}

/// Lanes per access of a `vloadN`/`vstoreN` of type `t` through `p`: a whole vector (or
/// 16-byte parts of one) when the launch variant knows `p`'s argument is 16-byte aligned,
/// else one lane.
fn whole_chunk(e: &FnEmitter, name: &str, t: Type, p: Value) -> u32 {
    match crate::variant::whole_vector_lanes(name, t) {
        Some(k) if e.aligned_param(p) => k,
        _ => 1,
    }
}

fn vstore(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value]) -> R<()> {
    let [data, offset, p] = args else {
        return Err(e.invalid(format!("`{}` takes three arguments", decl.name)));
    };
    let name = decl.name.as_str();
    let dt = e.ty(*data)?;
    let sfx = space_of(e, *p, true)?;
    let (half, aligned, rest) = if let Some(rest) = name.strip_prefix("vstorea_half") {
        (true, true, rest)
    } else if let Some(rest) = name.strip_prefix("vstore_half") {
        (true, false, rest)
    } else if let Some(rest) = name.strip_prefix("vstore") {
        (false, false, rest)
    } else {
        return Err(e.unsupported(format!("builtin `{name}`")));
    };
    let n = vec_width(rest);
    if half {
        let rnd = if rest.ends_with("_rtz") {
            "rz"
        } else if rest.ends_with("_rtp") {
            "rp"
        } else if rest.ends_with("_rtn") {
            "rm"
        } else {
            "rn"
        };
        let stride = 2 * if aligned && n == 3 { 4 } else { n };
        let addr = element_address(e, *p, *offset, stride)?;
        let fs = dt.elem().unwrap_or(Scalar::F32);
        for l in 0..dt.lanes() {
            let x = e.reg(*data, l)?;
            let h = e.tmp(Rc::B16);
            e.ins(format!("cvt.{rnd}.f16.{} {h}, {x}", float_ty(fs)));
            e.ins(format!("st{sfx}.b16 [{addr}+{}], {h}", l * 2));
        }
        return Ok(());
    }
    let es = dt.elem().map_or(1, Scalar::bytes);
    let addr = element_address(e, *p, *offset, n * es)?;
    let lane_t = Type::Scalar(dt.elem().unwrap_or(Scalar::I32));
    let regs = (0..dt.lanes())
        .map(|l| e.reg(*data, l))
        .collect::<R<Vec<_>>>()?;
    let chunk = whole_chunk(e, name, dt, *p);
    vector_access(e, true, sfx, mem_type(lane_t), &addr, &regs, chunk, es);
    Ok(())
}
