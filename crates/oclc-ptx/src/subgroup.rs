//! Sub-groups on the GPU: a sub-group is a warp (32 work-items, in local linear order; the
//! last one of a work-group may be smaller). The `cl_khr_subgroups` queries, barrier and
//! collectives (`sub_group_all/any/broadcast/reduce_*/scan_*`) and the Intel shuffles
//! (`intel_sub_group_shuffle`, `_down`, `_up`, `_xor`) are warp shuffles and votes over the
//! sub-group's own lanes.

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{BuiltinDecl, Scalar, Value};

/// Work-items per sub-group (a warp).
pub const SUB_GROUP_SIZE: u32 = 32;

/// Whether `name` is a sub-group builtin this module emits.
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "get_sub_group_size"
            | "get_max_sub_group_size"
            | "get_num_sub_groups"
            | "get_enqueued_num_sub_groups"
            | "get_sub_group_id"
            | "get_sub_group_local_id"
            | "sub_group_barrier"
            | "sub_group_all"
            | "sub_group_any"
            | "sub_group_broadcast"
            | "intel_sub_group_shuffle"
            | "intel_sub_group_shuffle_xor"
            | "intel_sub_group_shuffle_down"
            | "intel_sub_group_shuffle_up"
    ) || name.starts_with("sub_group_reduce_")
        || name.starts_with("sub_group_scan_")
}

/// The work-item's place in its sub-group: lane, sub-group size, member mask, and the
/// work-group's size and linear local id.
struct Lane {
    lane: String,
    size: String,
    mask: String,
    n: String,
    llid: String,
}

fn lane(e: &mut FnEmitter) -> Lane {
    let r = |e: &mut FnEmitter| e.tmp(Rc::B32);
    let (x, y, z, nx, ny, nz) = (r(e), r(e), r(e), r(e), r(e), r(e));
    let (llid, n, base, size, mask, ln) = (r(e), r(e), r(e), r(e), r(e), r(e));
    e.ins(format!("mov.u32 {x}, %tid.x"));
    e.ins(format!("mov.u32 {y}, %tid.y"));
    e.ins(format!("mov.u32 {z}, %tid.z"));
    e.ins(format!("mov.u32 {nx}, %ntid.x"));
    e.ins(format!("mov.u32 {ny}, %ntid.y"));
    e.ins(format!("mov.u32 {nz}, %ntid.z"));
    e.ins(format!("mad.lo.u32 {llid}, {z}, {ny}, {y}"));
    e.ins(format!("mad.lo.u32 {llid}, {llid}, {nx}, {x}"));
    e.ins(format!("mul.lo.u32 {n}, {nx}, {ny}"));
    e.ins(format!("mul.lo.u32 {n}, {n}, {nz}"));
    e.ins(format!("and.b32 {ln}, {llid}, 31"));
    e.ins(format!("and.b32 {base}, {llid}, -32"));
    e.ins(format!("sub.u32 {size}, {n}, {base}"));
    e.ins(format!("min.u32 {size}, {size}, {SUB_GROUP_SIZE}"));
    // (1 << size) - 1: all ones for 32 (a shift by 32 gives 0).
    e.ins(format!("shl.b32 {mask}, 1, {size}"));
    e.ins(format!("sub.u32 {mask}, {mask}, 1"));
    Lane {
        lane: ln,
        size,
        mask,
        n,
        llid,
    }
}

fn arg(e: &FnEmitter, args: &[Value], i: usize, name: &str) -> R<Value> {
    args.get(i)
        .copied()
        .ok_or_else(|| e.invalid(format!("builtin `{name}` with too few arguments")))
}

/// `shfl.sync.MODE` of register `x` (any 8- to 64-bit class) into `d`.
fn shfl(e: &mut FnEmitter, mode: &str, rc: Rc, d: &str, x: &str, b: &str, m: &str) {
    let c = if mode == "up" { "0" } else { "31" };
    match rc {
        Rc::B64 | Rc::F64 => {
            let (lo, hi, dl, dh) = (
                e.tmp(Rc::B32),
                e.tmp(Rc::B32),
                e.tmp(Rc::B32),
                e.tmp(Rc::B32),
            );
            e.ins(format!("mov.b64 {{{lo}, {hi}}}, {x}"));
            e.ins(format!("shfl.sync.{mode}.b32 {dl}, {lo}, {b}, {c}, {m}"));
            e.ins(format!("shfl.sync.{mode}.b32 {dh}, {hi}, {b}, {c}, {m}"));
            e.ins(format!("mov.b64 {d}, {{{dl}, {dh}}}"));
        }
        Rc::B16 => {
            let (w, o) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
            e.ins(format!("cvt.u32.u16 {w}, {x}"));
            e.ins(format!("shfl.sync.{mode}.b32 {o}, {w}, {b}, {c}, {m}"));
            e.ins(format!("cvt.u16.u32 {d}, {o}"));
        }
        _ => e.ins(format!("shfl.sync.{mode}.b32 {d}, {x}, {b}, {c}, {m}")),
    }
}

/// Emits sub-group builtin `decl`.
pub fn emit(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], result: Option<Value>) -> R<()> {
    let name = decl.name.as_str();
    let l = lane(e);
    if name == "sub_group_barrier" {
        e.ins("membar.cta");
        e.ins(format!("bar.warp.sync {}", l.mask));
        return Ok(());
    }
    let r = result.ok_or_else(|| e.invalid(format!("builtin `{name}` without a result")))?;
    let d = e.reg(r, 0)?;
    match name {
        "get_sub_group_size" => e.ins(format!("mov.u32 {d}, {}", l.size)),
        "get_max_sub_group_size" => e.ins(format!("min.u32 {d}, {}, {SUB_GROUP_SIZE}", l.n)),
        "get_num_sub_groups" | "get_enqueued_num_sub_groups" => {
            e.ins(format!("add.u32 {d}, {}, 31", l.n));
            e.ins(format!("shr.u32 {d}, {d}, 5"));
        }
        "get_sub_group_id" => e.ins(format!("shr.u32 {d}, {}, 5", l.llid)),
        "get_sub_group_local_id" => e.ins(format!("mov.u32 {d}, {}", l.lane)),
        "sub_group_all" | "sub_group_any" => {
            let x = arg(e, args, 0, name)?;
            let xr = e.reg(x, 0)?;
            let (p, q) = (e.tmp(Rc::Pred), e.tmp(Rc::Pred));
            e.ins(format!("setp.ne.u32 {p}, {xr}, 0"));
            let mode = if name == "sub_group_all" {
                "all"
            } else {
                "any"
            };
            e.ins(format!("vote.sync.{mode}.pred {q}, {p}, {}", l.mask));
            e.ins(format!("selp.s32 {d}, 1, 0, {q}"));
        }
        "sub_group_broadcast" | "intel_sub_group_shuffle" | "intel_sub_group_shuffle_xor" => {
            let x = arg(e, args, 0, name)?;
            let id = e.reg(arg(e, args, 1, name)?, 0)?;
            let mode = if name.ends_with("_xor") {
                "bfly"
            } else {
                "idx"
            };
            let rc = Rc::of_type(e.ty(x)?);
            for k in 0..e.ty(x)?.lanes() {
                let (dk, xk) = (e.reg(r, k)?, e.reg(x, k)?);
                shfl(e, mode, rc, &dk, &xk, &id, &l.mask);
            }
        }
        "intel_sub_group_shuffle_down" | "intel_sub_group_shuffle_up" => {
            // down(cur, next, δ): cur[lane + δ] within the sub-group, else next[lane + δ - size];
            // up(prev, cur, δ): cur[lane - δ] from lane δ on, else prev[size + lane - δ].
            let down = name.ends_with("_down");
            let (a, b) = (arg(e, args, 0, name)?, arg(e, args, 1, name)?);
            let delta = e.reg(arg(e, args, 2, name)?, 0)?;
            let (own, other) = if down { (a, b) } else { (b, a) };
            let (i, j, p) = (e.tmp(Rc::B32), e.tmp(Rc::B32), e.tmp(Rc::Pred));
            if down {
                e.ins(format!("add.u32 {i}, {}, {delta}", l.lane));
                e.ins(format!("setp.lt.u32 {p}, {i}, {}", l.size));
                e.ins(format!("sub.u32 {j}, {i}, {}", l.size));
            } else {
                e.ins(format!("sub.u32 {i}, {}, {delta}", l.lane));
                e.ins(format!("setp.ge.u32 {p}, {}, {delta}", l.lane));
                e.ins(format!("add.u32 {j}, {i}, {}", l.size));
            }
            let rc = Rc::of_type(e.ty(own)?);
            for k in 0..e.ty(own)?.lanes() {
                let (dk, ok, xk) = (e.reg(r, k)?, e.reg(own, k)?, e.reg(other, k)?);
                let (t, u) = (e.tmp(rc), e.tmp(rc));
                shfl(e, "idx", rc, &t, &ok, &i, &l.mask);
                shfl(e, "idx", rc, &u, &xk, &j, &l.mask);
                e.select(rc, &dk, &p, &t, &u);
            }
        }
        _ => {
            let x = arg(e, args, 0, name)?;
            let s = e.elem(x)?;
            let unsigned = decl.ret_unsigned;
            let (kind, op) = match name.rsplit_once('_') {
                Some((k, o)) => (k, o),
                None => return Err(e.unsupported(format!("builtin `{name}`"))),
            };
            if !matches!(op, "add" | "min" | "max") || s == Scalar::F16 {
                return Err(e.unsupported(format!("builtin `{name}` on {}", s.name())));
            }
            collective(e, &l, kind, op, s, unsigned, &e.reg(x, 0)?, &d)?;
        }
    }
    Ok(())
}

/// A reduction or scan over the sub-group of `x` (element type `s`) into `d`.
#[allow(clippy::too_many_arguments)]
fn collective(
    e: &mut FnEmitter,
    l: &Lane,
    kind: &str,
    op: &str,
    s: Scalar,
    unsigned: bool,
    x: &str,
    d: &str,
) -> R<()> {
    // Narrow integers are widened to 32 bits (sign- or zero-extended) for the arithmetic.
    let bits = s.bits();
    let (rc, ty) = match (s.is_float(), bits) {
        (true, 32) => (Rc::F32, "f32".to_string()),
        (true, _) => (Rc::F64, "f64".to_string()),
        (false, 64) => (Rc::B64, format!("{}64", if unsigned { "u" } else { "s" })),
        (false, _) => (Rc::B32, format!("{}32", if unsigned { "u" } else { "s" })),
    };
    let acc = e.tmp(rc);
    let start = if s.is_float() || bits >= 32 {
        x.to_string()
    } else if unsigned {
        e.zext32(x, bits)
    } else {
        e.sext32(x, bits)
    };
    let mov = match rc {
        Rc::F32 => "mov.f32",
        Rc::F64 => "mov.f64",
        Rc::B64 => "mov.b64",
        _ => "mov.b32",
    };
    e.ins(format!("{mov} {acc}, {start}"));
    let apply = |e: &mut FnEmitter, dst: &str, a: &str, b: &str| {
        let rn = if s.is_float() && op == "add" {
            ".rn"
        } else {
            ""
        };
        e.ins(format!("{op}{rn}.{ty} {dst}, {a}, {b}"));
    };
    let y = e.tmp(rc);
    let t = e.tmp(rc);
    let p = e.tmp(Rc::Pred);
    let lim = e.tmp(Rc::B32);
    match kind {
        "sub_group_reduce" => {
            for delta in [16, 8, 4, 2, 1] {
                shfl(e, "down", rc, &y, &acc, &delta.to_string(), &l.mask);
                e.ins(format!("add.u32 {lim}, {}, {delta}", l.lane));
                e.ins(format!("setp.lt.u32 {p}, {lim}, {}", l.size));
                apply(e, &t, &acc, &y);
                e.select(rc, &acc, &p, &t, &acc);
            }
            shfl(e, "idx", rc, &acc, &acc, "0", &l.mask);
        }
        "sub_group_scan_inclusive" | "sub_group_scan_exclusive" => {
            for delta in [1, 2, 4, 8, 16] {
                shfl(e, "up", rc, &y, &acc, &delta.to_string(), &l.mask);
                e.ins(format!("setp.ge.u32 {p}, {}, {delta}", l.lane));
                apply(e, &t, &acc, &y);
                e.select(rc, &acc, &p, &t, &acc);
            }
            if kind == "sub_group_scan_exclusive" {
                shfl(e, "up", rc, &y, &acc, "1", &l.mask);
                let id = identity(op, s, unsigned);
                e.ins(format!("{mov} {t}, {id}"));
                e.ins(format!("setp.eq.u32 {p}, {}, 0", l.lane));
                e.select(rc, &acc, &p, &t, &y);
            }
        }
        _ => return Err(e.unsupported(format!("builtin `{kind}_{op}`"))),
    }
    e.ins(format!("{mov} {d}, {acc}"));
    Ok(())
}

/// The identity of `op` on `s` as a PTX literal: what an exclusive scan gives lane 0.
fn identity(op: &str, s: Scalar, unsigned: bool) -> String {
    let bits = s.bits().max(32);
    match (op, s.is_float()) {
        ("add", true) if bits == 64 => "0d0000000000000000".into(),
        ("add", true) => "0f00000000".into(),
        ("min", true) if bits == 64 => "0d7FF0000000000000".into(),
        ("min", true) => "0f7F800000".into(),
        ("max", true) if bits == 64 => "0dFFF0000000000000".into(),
        ("max", true) => "0fFF800000".into(),
        ("add", false) => "0".into(),
        ("min", false) if unsigned => (u64::MAX >> (64 - s.bits())).to_string(),
        ("min", false) => (i64::MAX >> (64 - s.bits())).to_string(),
        ("max", false) if unsigned => "0".into(),
        ("max", false) => (i64::MIN >> (64 - s.bits())).to_string(),
        _ => "0".into(),
    }
}
