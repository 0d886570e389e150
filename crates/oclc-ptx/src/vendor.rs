//! PTX for clang's GNU `__builtin_*` functions that stay calls after lowering (bit counts,
//! byte swaps, rotates, `__builtin_trap`, ...) and for AMD's media operations
//! (`cl_amd_media_ops`, `cl_amd_media_ops2`), with the cpu device's semantics. The Intel
//! sub-group builtins (`intel_sub_group_*`) are warp shuffles in [`crate::subgroup`].

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{BuiltinDecl, Scalar, Value};

/// Emits `decl` if it is one of the builtins this module knows; `None` otherwise.
pub fn emit(
    e: &mut FnEmitter,
    decl: &BuiltinDecl,
    args: &[Value],
    result: Option<Value>,
) -> Option<R<()>> {
    let name = decl.name.as_str();
    if let Some(rest) = name.strip_prefix("__builtin_") {
        return Some(gnu(e, rest, args, result));
    }
    if name.starts_with("amd_") {
        let unsigned = decl.unsigned.first().copied().unwrap_or(decl.ret_unsigned);
        return Some(media(e, name, unsigned, args, result));
    }
    None
}

fn arg(e: &FnEmitter, args: &[Value], i: usize, name: &str) -> R<Value> {
    args.get(i)
        .copied()
        .ok_or_else(|| e.invalid(format!("builtin `{name}` with too few arguments")))
}

fn res(e: &FnEmitter, r: Option<Value>, name: &str) -> R<Value> {
    r.ok_or_else(|| e.invalid(format!("builtin `{name}` without a result")))
}

/// The GNU builtin `__builtin_<rest>`.
fn gnu(e: &mut FnEmitter, rest: &str, args: &[Value], result: Option<Value>) -> R<()> {
    match rest {
        "trap" | "unreachable" => {
            e.ins("trap");
            return Ok(());
        }
        // An assumption that does not hold is undefined: nothing to check on the GPU.
        "assume" => return Ok(()),
        _ => {}
    }
    let r = res(e, result, rest)?;
    let d = e.reg(r, 0)?;
    match rest {
        // The SM's 64-bit cycle counter.
        "readcyclecounter" => e.ins(format!("mov.u64 {d}, %clock64")),
        "nanf" => e.ins(format!("mov.f32 {d}, 0f7FC00000")),
        "nan" => e.ins(format!("mov.f64 {d}, 0d7FF8000000000000")),
        "assume_aligned" => {
            let p = e.reg(arg(e, args, 0, rest)?, 0)?;
            if e.ty(r)?.is_ptr() {
                e.ins(format!("mov.b64 {d}, {p}"));
            } else {
                e.ins(format!("setp.ne.u64 {d}, {p}, 0"));
            }
        }
        _ => {
            let a = arg(e, args, 0, rest)?;
            let w = e.elem(a)?.bits();
            let x = e.reg(a, 0)?;
            let wide = w == 64;
            let b = if wide { "b64" } else { "b32" };
            match rest {
                "popcount" | "popcountl" | "popcountll" => {
                    let x = if wide { x } else { e.zext32(&x, w) };
                    e.ins(format!("popc.{b} {d}, {x}"));
                }
                "clz" | "clzl" | "clzll" => {
                    e.ins(format!("clz.{b} {d}, {x}"));
                    if rest == "clzll" {
                        e.ins(format!("add.s32 {d}, {d}, 64"));
                    }
                }
                "ctz" | "ctzl" | "ctzll" => {
                    let t = e.tmp(if wide { Rc::B64 } else { Rc::B32 });
                    e.ins(format!("brev.{b} {t}, {x}"));
                    e.ins(format!("clz.{b} {d}, {t}"));
                }
                "ffs" => {
                    // brev + clz gives the trailing zeros (32 for 0); 0 stays 0.
                    let (t, p) = (e.tmp(Rc::B32), e.tmp(Rc::Pred));
                    e.ins(format!("brev.b32 {t}, {x}"));
                    e.ins(format!("clz.b32 {t}, {t}"));
                    e.ins(format!("add.s32 {t}, {t}, 1"));
                    e.ins(format!("setp.eq.u32 {p}, {x}, 0"));
                    e.ins(format!("selp.b32 {d}, 0, {t}, {p}"));
                }
                "parity" => {
                    e.ins(format!("popc.b32 {d}, {x}"));
                    e.ins(format!("and.b32 {d}, {d}, 1"));
                }
                "clrsb" => {
                    let t = e.tmp(Rc::B32);
                    e.ins(format!("shr.s32 {t}, {x}, 31"));
                    e.ins(format!("xor.b32 {t}, {t}, {x}"));
                    e.ins(format!("clz.b32 {d}, {t}"));
                    e.ins(format!("sub.s32 {d}, {d}, 1"));
                }
                "bswap16" | "bswap32" => {
                    let z = zero(e);
                    let sel = if rest == "bswap16" {
                        "0x4401"
                    } else {
                        "0x0123"
                    };
                    e.ins(format!("prmt.b32 {d}, {x}, {z}, {sel}"));
                }
                "bswap64" => {
                    let (lo, hi) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
                    let (nlo, nhi) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
                    let z = zero(e);
                    e.ins(format!("mov.b64 {{{lo}, {hi}}}, {x}"));
                    e.ins(format!("prmt.b32 {nlo}, {hi}, {z}, 0x0123"));
                    e.ins(format!("prmt.b32 {nhi}, {lo}, {z}, 0x0123"));
                    e.ins(format!("mov.b64 {d}, {{{nlo}, {nhi}}}"));
                }
                r if r.starts_with("rotateleft") || r.starts_with("rotateright") => {
                    let n = e.reg(arg(e, args, 1, rest)?, 0)?;
                    rotate(e, w, &d, &x, &n, r.starts_with("rotateright"));
                }
                _ => return Err(e.unsupported(format!("builtin `__builtin_{rest}`"))),
            }
        }
    }
    Ok(())
}

/// `d = x` rotated by `n` (modulo `w` bits), left or right; `x`, `n` of width `w`.
fn rotate(e: &mut FnEmitter, w: u32, d: &str, x: &str, n: &str, right: bool) {
    let wide = w == 64;
    let rc = if wide { Rc::B64 } else { Rc::B32 };
    let sz = if wide { 64 } else { 32 };
    let k = e.tmp(Rc::B32);
    if wide {
        e.ins(format!("cvt.u32.u64 {k}, {n}"));
    } else {
        e.ins(format!("mov.b32 {k}, {n}"));
    }
    e.ins(format!("and.b32 {k}, {k}, {}", w - 1));
    let left = e.tmp(Rc::B32);
    if right {
        e.ins(format!("sub.s32 {left}, {w}, {k}"));
        e.ins(format!("and.b32 {left}, {left}, {}", w - 1));
    } else {
        e.ins(format!("mov.b32 {left}, {k}"));
    }
    let z = if wide { x.to_string() } else { e.zext32(x, w) };
    let (l, r, back) = (e.tmp(rc), e.tmp(rc), e.tmp(Rc::B32));
    e.ins(format!("sub.s32 {back}, {w}, {left}"));
    e.ins(format!("shl.b{sz} {l}, {z}, {left}"));
    e.ins(format!("shr.b{sz} {r}, {z}, {back}"));
    // A shift by the full width gives 0 in PTX, so a rotate by 0 is `l | 0`.
    e.ins(format!("or.b{sz} {d}, {l}, {r}"));
}

/// A fresh 32-bit register holding 0.
fn zero(e: &mut FnEmitter) -> String {
    let z = e.tmp(Rc::B32);
    e.ins(format!("mov.b32 {z}, 0"));
    z
}

/// Byte `i` of `x` in a fresh register.
fn byte(e: &mut FnEmitter, x: &str, i: u32) -> String {
    let t = e.tmp(Rc::B32);
    e.ins(format!("bfe.u32 {t}, {x}, {}, 8", 8 * i));
    t
}

/// `acc + sum |a_i - b_i|` over the four bytes (`shift`: each difference shifted left;
/// `masked`: bytes where `b_i` is 0 skipped), into `d`.
fn sad_bytes(e: &mut FnEmitter, d: &str, a: &str, b: &str, acc: &str, shift: u32, masked: bool) {
    let s = e.tmp(Rc::B32);
    e.ins(format!("mov.b32 {s}, {acc}"));
    let z = zero(e);
    for i in 0..4 {
        let (x, y) = (byte(e, a, i), byte(e, b, i));
        let t = e.tmp(Rc::B32);
        e.ins(format!("sad.u32 {t}, {x}, {y}, {z}"));
        if shift != 0 {
            e.ins(format!("shl.b32 {t}, {t}, {shift}"));
        }
        if masked {
            let p = e.tmp(Rc::Pred);
            e.ins(format!("setp.eq.u32 {p}, {y}, 0"));
            e.ins(format!("selp.b32 {t}, 0, {t}, {p}"));
        }
        e.ins(format!("add.u32 {s}, {s}, {t}"));
    }
    e.ins(format!("mov.b32 {d}, {s}"));
}

/// An AMD media operation, component by component (`amd_pack`, `amd_sad4`: whole vectors).
fn media(
    e: &mut FnEmitter,
    name: &str,
    unsigned: bool,
    args: &[Value],
    result: Option<Value>,
) -> R<()> {
    let r = res(e, result, name)?;
    let a0 = arg(e, args, 0, name)?;
    if name == "amd_pack" {
        let d = e.reg(r, 0)?;
        let acc = e.tmp(Rc::B32);
        e.ins(format!("mov.b32 {acc}, 0"));
        for i in 0..4 {
            let f = e.reg(a0, i)?;
            let t = e.tmp(Rc::B32);
            e.ins(format!("cvt.rzi.u32.f32 {t}, {f}"));
            e.ins(format!("bfi.b32 {acc}, {t}, {acc}, {}, 8", 8 * i));
        }
        e.ins(format!("mov.b32 {d}, {acc}"));
        return Ok(());
    }
    if name == "amd_sad4" {
        let d = e.reg(r, 0)?;
        let a1 = arg(e, args, 1, name)?;
        let acc = e.reg(arg(e, args, 2, name)?, 0)?;
        let s = e.tmp(Rc::B32);
        e.ins(format!("mov.b32 {s}, {acc}"));
        for i in 0..4 {
            let (x, y) = (e.reg(a0, i)?, e.reg(a1, i)?);
            sad_bytes(e, &s.clone(), &x, &y, &s.clone(), 0, false);
        }
        e.ins(format!("mov.b32 {d}, {s}"));
        return Ok(());
    }
    let lanes = e.ty(r)?.lanes();
    let elem = e.elem(a0)?;
    for l in 0..lanes {
        let d = e.reg(r, l)?;
        let mut ops = Vec::new();
        for &a in args {
            ops.push(e.lane_or_scalar(a, l)?);
        }
        let op = |i: usize| ops.get(i).cloned().unwrap_or_default();
        let (x, y, z) = (op(0), op(1), op(2));
        match name {
            "amd_unpack0" | "amd_unpack1" | "amd_unpack2" | "amd_unpack3" => {
                let n = u32::from(name.as_bytes()[name.len() - 1] - b'0');
                let t = byte(e, &x, n);
                e.ins(format!("cvt.rn.f32.u32 {d}, {t}"));
            }
            "amd_bitalign" | "amd_bytealign" => {
                let s = e.tmp(Rc::B32);
                if name == "amd_bitalign" {
                    e.ins(format!("and.b32 {s}, {z}, 31"));
                } else {
                    e.ins(format!("and.b32 {s}, {z}, 3"));
                    e.ins(format!("shl.b32 {s}, {s}, 3"));
                }
                e.ins(format!("shf.r.wrap.b32 {d}, {y}, {x}, {s}"));
            }
            "amd_lerp" => {
                let acc = e.tmp(Rc::B32);
                e.ins(format!("mov.b32 {acc}, 0"));
                for i in 0..4 {
                    let (p, q) = (byte(e, &x, i), byte(e, &y, i));
                    let c = e.tmp(Rc::B32);
                    e.ins(format!("bfe.u32 {c}, {z}, {}, 1", 8 * i));
                    e.ins(format!("add.u32 {p}, {p}, {q}"));
                    e.ins(format!("add.u32 {p}, {p}, {c}"));
                    e.ins(format!("shr.u32 {p}, {p}, 1"));
                    e.ins(format!("bfi.b32 {acc}, {p}, {acc}, {}, 8", 8 * i));
                }
                e.ins(format!("mov.b32 {d}, {acc}"));
            }
            "amd_sad" => sad_bytes(e, &d, &x, &y, &z, 0, false),
            "amd_sadhi" => sad_bytes(e, &d, &x, &y, &z, 16, false),
            "amd_msad" => sad_bytes(e, &d, &x, &y, &z, 0, true),
            "amd_sadd" => e.ins(format!("sad.u32 {d}, {x}, {y}, {z}")),
            "amd_sadw" => {
                let s = e.tmp(Rc::B32);
                e.ins(format!("mov.b32 {s}, {z}"));
                let zr = zero(e);
                for i in 0..2 {
                    let (p, q, t) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::B32));
                    e.ins(format!("bfe.u32 {p}, {x}, {}, 16", 16 * i));
                    e.ins(format!("bfe.u32 {q}, {y}, {}, 16", 16 * i));
                    e.ins(format!("sad.u32 {t}, {p}, {q}, {zr}"));
                    e.ins(format!("add.u32 {s}, {s}, {t}"));
                }
                e.ins(format!("mov.b32 {d}, {s}"));
            }
            "amd_bfm" => {
                let (w, o, t) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::B32));
                e.ins(format!("and.b32 {w}, {x}, 31"));
                e.ins(format!("and.b32 {o}, {y}, 31"));
                e.ins(format!("mov.b32 {t}, 1"));
                e.ins(format!("shl.b32 {t}, {t}, {w}"));
                e.ins(format!("sub.u32 {t}, {t}, 1"));
                e.ins(format!("shl.b32 {d}, {t}, {o}"));
            }
            "amd_bfe" => {
                let (o, w) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
                e.ins(format!("and.b32 {o}, {y}, 31"));
                e.ins(format!("and.b32 {w}, {z}, 31"));
                let sg = if elem == Scalar::I32 && !unsigned {
                    "s"
                } else {
                    "u"
                };
                e.ins(format!("bfe.{sg}32 {d}, {x}, {o}, {w}"));
            }
            "amd_min3" | "amd_max3" | "amd_median3" => {
                let ty = match (elem, unsigned) {
                    (Scalar::F32, _) => "f32",
                    (_, true) => "u32",
                    _ => "s32",
                };
                let rc = if ty == "f32" { Rc::F32 } else { Rc::B32 };
                match name {
                    "amd_min3" | "amd_max3" => {
                        let m = &name[4..7];
                        let t = e.tmp(rc);
                        e.ins(format!("{m}.{ty} {t}, {x}, {y}"));
                        e.ins(format!("{m}.{ty} {d}, {t}, {z}"));
                    }
                    _ => {
                        let (lo, hi) = (e.tmp(rc), e.tmp(rc));
                        e.ins(format!("min.{ty} {lo}, {x}, {y}"));
                        e.ins(format!("max.{ty} {hi}, {x}, {y}"));
                        e.ins(format!("min.{ty} {hi}, {hi}, {z}"));
                        e.ins(format!("max.{ty} {d}, {lo}, {hi}"));
                    }
                }
            }
            "amd_qsad" | "amd_mqsad" => {
                let acc = e.tmp(Rc::B64);
                e.ins(format!("mov.b64 {acc}, 0"));
                for i in 0..4 {
                    let (t64, win, lane) = (e.tmp(Rc::B64), e.tmp(Rc::B32), e.tmp(Rc::B32));
                    e.ins(format!("shr.b64 {t64}, {x}, {}", 8 * i));
                    e.ins(format!("cvt.u32.u64 {win}, {t64}"));
                    e.ins(format!("shr.b64 {t64}, {z}, {}", 16 * i));
                    e.ins(format!("cvt.u32.u64 {lane}, {t64}"));
                    e.ins(format!("and.b32 {lane}, {lane}, 65535"));
                    let s = e.tmp(Rc::B32);
                    sad_bytes(e, &s, &win, &y, &lane, 0, name == "amd_mqsad");
                    e.ins(format!("and.b32 {s}, {s}, 65535"));
                    let w64 = e.tmp(Rc::B64);
                    e.ins(format!("cvt.u64.u32 {w64}, {s}"));
                    e.ins(format!("shl.b64 {w64}, {w64}, {}", 16 * i));
                    e.ins(format!("or.b64 {acc}, {acc}, {w64}"));
                }
                e.ins(format!("mov.b64 {d}, {acc}"));
            }
            _ => return Err(e.unsupported(format!("builtin `{name}`"))),
        }
    }
    Ok(())
}
