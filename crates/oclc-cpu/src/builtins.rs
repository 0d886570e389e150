//! Builtins the device itself implements because they touch memory or the work-group
//! (`vload`/`vstore`, `async_work_group_copy`, ...). Pure numeric builtins are implemented in
//! [`crate::runtime`].

use crate::decode::BuiltinCall;
use crate::memory::{Fault, Mem};
use crate::ops::{f16_to_f64, f64_to_f16, fget, fput};
use crate::ptr;
use oclc_ir::{BuiltinDecl, Scalar, Type};

/// Rounding mode of `vstore_half*_rtX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// How the device runs one builtin declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Builtin {
    /// `vloadN(offset, p)`: `n` elements of `s` at `p + offset * n`.
    VLoad {
        s: Scalar,
        n: u32,
    },
    /// `vstoreN(data, offset, p)`.
    VStore {
        s: Scalar,
        n: u32,
    },
    /// `vload_halfN` / `vloada_halfN` (aligned: 3 lanes take a stride of 4).
    VLoadHalf {
        n: u32,
        aligned: bool,
    },
    /// `vstore_halfN[_rtX]` / `vstorea_halfN[_rtX]`.
    VStoreHalf {
        n: u32,
        aligned: bool,
        round: Round,
    },
    /// `async_work_group_copy(dst, src, count, event)`: `elem` bytes per element.
    AsyncCopy {
        elem: u32,
    },
    /// `async_work_group_strided_copy(dst, src, count, stride, event)`.
    AsyncStridedCopy {
        elem: u32,
        to_global: bool,
    },
    /// `wait_group_events`, `prefetch`, `mem_fence`-like calls with no effect here.
    NoOp,
    Unsupported,
}

/// Maps a declaration to its implementation.
pub fn resolve(b: &BuiltinDecl) -> Builtin {
    let name = b.name.as_str();
    let digits = |s: &str| -> Option<u32> {
        match s {
            "" => Some(1),
            "2" | "3" | "4" | "8" | "16" => s.parse().ok(),
            _ => None,
        }
    };
    let ptr_elem = |i: usize| b.pointee.get(i).copied().flatten();
    if let Some(rest) = name
        .strip_prefix("vload_half")
        .or_else(|| name.strip_prefix("vloada_half"))
    {
        if let Some(n) = digits(rest) {
            return Builtin::VLoadHalf {
                n,
                aligned: name.starts_with("vloada"),
            };
        }
    }
    if let Some(rest) = name
        .strip_prefix("vstore_half")
        .or_else(|| name.strip_prefix("vstorea_half"))
    {
        let (num, round) = match rest.split_once('_') {
            Some((num, "rte")) => (num, Round::Rte),
            Some((num, "rtz")) => (num, Round::Rtz),
            Some((num, "rtp")) => (num, Round::Rtp),
            Some((num, "rtn")) => (num, Round::Rtn),
            Some(_) => return Builtin::Unsupported,
            None => (rest, Round::Rte),
        };
        if let Some(n) = digits(num) {
            return Builtin::VStoreHalf {
                n,
                aligned: name.starts_with("vstorea"),
                round,
            };
        }
    }
    if let Some(n) = name
        .strip_prefix("vload")
        .and_then(|r| r.parse::<u32>().ok())
    {
        if let Some(Type::Scalar(s)) = ptr_elem(1) {
            return Builtin::VLoad { s, n };
        }
    }
    if let Some(n) = name
        .strip_prefix("vstore")
        .and_then(|r| r.parse::<u32>().ok())
    {
        if let Some(Type::Scalar(s)) = ptr_elem(2) {
            return Builtin::VStore { s, n };
        }
    }
    match name {
        "async_work_group_copy" => {
            ptr_elem(0).map_or(Builtin::Unsupported, |t| Builtin::AsyncCopy {
                elem: t.store_size(),
            })
        }
        "async_work_group_strided_copy" => {
            ptr_elem(0).map_or(Builtin::Unsupported, |t| Builtin::AsyncStridedCopy {
                elem: t.store_size(),
                to_global: b.params.first() == Some(&Type::Ptr(oclc_ir::AddrSpace::Global)),
            })
        }
        "wait_group_events" | "prefetch" => Builtin::NoOp,
        _ => Builtin::Unsupported,
    }
}

/// Why a builtin call failed.
pub enum CallFault {
    Mem(Fault),
    Unsupported,
}

impl From<Fault> for CallFault {
    fn from(f: Fault) -> CallFault {
        CallFault::Mem(f)
    }
}

fn round_to_half(x: f64, r: Round) -> u16 {
    let h = f64_to_f16(x);
    let back = f16_to_f64(h);
    if r == Round::Rte || x.is_nan() || back == x {
        return h;
    }
    let next_up = |h: u16| match h {
        0x8000 => 0x0001,
        h if h & 0x8000 != 0 => h - 1,
        h => h + 1,
    };
    let next_down = |h: u16| match h {
        0x0000 => 0x8001,
        h if h & 0x8000 != 0 => h + 1,
        h => h - 1,
    };
    let (lo, hi) = if back < x {
        (h, next_up(h))
    } else {
        (next_down(h), h)
    };
    match r {
        Round::Rtp => hi,
        Round::Rtn => lo,
        _ => {
            if x > 0.0 {
                lo
            } else {
                hi
            }
        }
    }
}

/// Runs a device-implemented builtin: reads arguments from `regs`, writes the result at `d`.
pub fn call(c: &BuiltinCall, regs: &mut [u64], d: u32, mem: &mut Mem) -> Result<(), CallFault> {
    let arg = |regs: &[u64], i: usize| {
        c.args
            .get(i)
            .and_then(|(s, _)| regs.get(*s as usize))
            .copied()
            .unwrap_or(0)
    };
    let arg_slot = |i: usize| c.args.get(i).map_or(0, |(s, _)| *s as usize);
    let d = d as usize;
    match &c.imp {
        Builtin::VLoad { s, n } => {
            let sz = s.bytes() as u64;
            let base = ptr::add(
                arg(regs, 1),
                (arg(regs, 0).wrapping_mul(*n as u64 * sz)) as i64,
            );
            for k in 0..*n as usize {
                let v = mem.read_scalar(ptr::add(base, (k as u64 * sz) as i64), sz as usize)?;
                if let Some(r) = regs.get_mut(d + k) {
                    *r = v;
                }
            }
        }
        Builtin::VStore { s, n } => {
            let sz = s.bytes() as u64;
            let base = ptr::add(
                arg(regs, 2),
                (arg(regs, 1).wrapping_mul(*n as u64 * sz)) as i64,
            );
            let src = arg_slot(0);
            for k in 0..*n as usize {
                let v = regs.get(src + k).copied().unwrap_or(0);
                mem.write_scalar(ptr::add(base, (k as u64 * sz) as i64), sz as usize, v)?;
            }
        }
        Builtin::VLoadHalf { n, aligned } => {
            let stride = if *aligned && *n == 3 { 4 } else { *n as u64 };
            let base = ptr::add(arg(regs, 1), arg(regs, 0).wrapping_mul(stride * 2) as i64);
            let out = c.ret.and_then(|t| t.elem()).unwrap_or(Scalar::F32);
            for k in 0..*n as usize {
                let h = mem.read_scalar(ptr::add(base, 2 * k as i64), 2)? as u16;
                if let Some(r) = regs.get_mut(d + k) {
                    *r = fput(out, f16_to_f64(h));
                }
            }
        }
        Builtin::VStoreHalf { n, aligned, round } => {
            let stride = if *aligned && *n == 3 { 4 } else { *n as u64 };
            let base = ptr::add(arg(regs, 2), arg(regs, 1).wrapping_mul(stride * 2) as i64);
            let src_t = c
                .args
                .first()
                .and_then(|(_, t)| t.elem())
                .unwrap_or(Scalar::F32);
            let src = arg_slot(0);
            for k in 0..*n as usize {
                let x = fget(src_t, regs.get(src + k).copied().unwrap_or(0));
                mem.write_scalar(
                    ptr::add(base, 2 * k as i64),
                    2,
                    round_to_half(x, *round) as u64,
                )?;
            }
        }
        Builtin::AsyncCopy { elem } => {
            let (dst, src, count) = (arg(regs, 0), arg(regs, 1), arg(regs, 2));
            let mut buf = vec![0u8; *elem as usize];
            for k in 0..count {
                let off = (k * *elem as u64) as i64;
                mem.read(ptr::add(src, off), &mut buf)?;
                mem.write(ptr::add(dst, off), &buf)?;
            }
            let ev = arg(regs, 3);
            if let Some(r) = regs.get_mut(d) {
                *r = ev;
            }
        }
        Builtin::AsyncStridedCopy { elem, to_global } => {
            let (dst, src, count, stride) =
                (arg(regs, 0), arg(regs, 1), arg(regs, 2), arg(regs, 3));
            let mut buf = vec![0u8; *elem as usize];
            let e = *elem as u64;
            for k in 0..count {
                let (so, dof) = if *to_global {
                    (k * e, k * stride * e)
                } else {
                    (k * stride * e, k * e)
                };
                mem.read(ptr::add(src, so as i64), &mut buf)?;
                mem.write(ptr::add(dst, dof as i64), &buf)?;
            }
            let ev = arg(regs, 4);
            if let Some(r) = regs.get_mut(d) {
                *r = ev;
            }
        }
        Builtin::NoOp => {
            if c.ret.is_some() {
                if let Some(r) = regs.get_mut(d) {
                    *r = 0;
                }
            }
        }
        Builtin::Unsupported => return Err(CallFault::Unsupported),
    }
    Ok(())
}
