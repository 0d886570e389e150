//! Builtins the device itself implements because they touch memory or the work-group
//! (`vload`/`vstore`, `async_work_group_copy`, ...). Pure numeric builtins are implemented in
//! [`crate::runtime`].

use crate::decode::BuiltinCall;
use crate::error::CheckKind;
use crate::memory::{Fault, Mem};
use crate::ops::{f16_to_f64, f64_to_f16, fget, fput};
use crate::ptr;
use crate::runtime as rt;
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
    /// `clock_read_*()` (cl_khr_kernel_clock): a process-wide counter that grows by one on
    /// each read, so reads are monotonically increasing in every scope; `hilo` returns it
    /// as a `uint2` (low 32 bits, high 32 bits).
    Clock {
        hilo: bool,
    },
    /// `wait_group_events`, `prefetch`, `mem_fence`-like calls with no effect here.
    NoOp,
    /// `shuffle(x, mask)` / `shuffle2(x, y, mask)`: result lane `i` is lane `mask[i]` (modulo
    /// the input width) of `x`, or of `x` then `y`.
    Shuffle {
        two: bool,
    },
    /// A numeric builtin of the runtime library, with the C types of its arguments, result
    /// and pointer output (parameter index and pointee type).
    Numeric {
        b: rt::Builtin,
        args: Vec<(rt::ScalarType, u32)>,
        ret: Option<(rt::ScalarType, u32)>,
        out: Option<(usize, rt::ScalarType)>,
    },
    /// One of clang's GNU builtins that the device runs itself, on an integer operand of
    /// `bits` bits (the parameter's width).
    Gnu {
        op: GnuOp,
        bits: u32,
    },
    /// `read_image*`, `write_image*` and `get_image_*` (see [`ImageOp`]).
    Image(ImageOp),
    Unsupported,
}

/// An image builtin: the image argument is the device address of its
/// [`rt::image::ImageDesc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageOp {
    /// `read_image{f,i,ui,h}(image, [sampler,] coord)`.
    Read {
        kind: rt::image::Kind,
        sampler: bool,
    },
    /// `write_image{f,i,ui,h}(image, coord, color)`.
    Write {
        kind: rt::image::Kind,
    },
    Width,
    Height,
    Depth,
    ArraySize,
    Dim,
    ChannelDataType,
    ChannelOrder,
}

/// The image builtin `name` of declaration `b`, if it is one.
fn image(b: &BuiltinDecl, name: &str) -> Option<Builtin> {
    use rt::image::Kind;
    let kind = |s: &str| match s {
        "f" | "h" => Some(Kind::Float),
        "i" => Some(Kind::Int),
        "ui" => Some(Kind::UInt),
        _ => None,
    };
    let op = if let Some(k) = name.strip_prefix("read_image").and_then(kind) {
        // (image, coord), (image, sampler, coord); lod and msaa forms are not supported.
        match b.params.as_slice() {
            [_, _] => ImageOp::Read {
                kind: k,
                sampler: false,
            },
            [_, Type::Scalar(Scalar::I32), _] => ImageOp::Read {
                kind: k,
                sampler: true,
            },
            _ => return Some(Builtin::Unsupported),
        }
    } else if let Some(k) = name.strip_prefix("write_image").and_then(kind) {
        if b.params.len() != 3 {
            return Some(Builtin::Unsupported);
        }
        ImageOp::Write { kind: k }
    } else {
        match name {
            "get_image_width" => ImageOp::Width,
            "get_image_height" => ImageOp::Height,
            "get_image_depth" => ImageOp::Depth,
            "get_image_array_size" => ImageOp::ArraySize,
            "get_image_dim" => ImageOp::Dim,
            "get_image_channel_data_type" => ImageOp::ChannelDataType,
            "get_image_channel_order" => ImageOp::ChannelOrder,
            _ => return None,
        }
    };
    Some(Builtin::Image(op))
}

/// The GNU builtins ([`Builtin::Gnu`]): the undefined cases (`__builtin_clz(0)`, a false
/// `__builtin_assume`, a reached `__builtin_unreachable`) are reported, as the device
/// reports every undefined access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GnuOp {
    Popcount,
    /// Leading zeros, plus `extra` (64 for `__builtin_clzll`: `long long` is 128-bit on SPIR).
    Clz {
        extra: u32,
    },
    Ctz,
    /// `__builtin_ffs`: one plus the index of the lowest set bit, 0 for 0.
    Ffs,
    Parity,
    /// `__builtin_clrsb`: leading redundant sign bits.
    Clrsb,
    Bswap,
    RotateLeft,
    RotateRight,
    /// `__builtin_nan[f]` of a string in memory (literals are folded by sema).
    Nan {
        double: bool,
    },
    Trap,
    Unreachable,
    Assume,
    /// `__builtin_assume_aligned(p, align[, offset])`: `p`, or `p != NULL` where clang types
    /// the call `bool`; a misaligned `p` is reported.
    AssumeAligned {
        to_bool: bool,
    },
}

/// The GNU builtin `name` of declaration `b`, if it is one the device runs.
fn gnu(b: &BuiltinDecl, name: &str) -> Option<Builtin> {
    let rest = name.strip_prefix("__builtin_")?;
    let bits = b
        .params
        .first()
        .and_then(|t| t.elem())
        .map_or(32, |s| s.bits());
    let op = match rest {
        "popcount" | "popcountl" | "popcountll" => GnuOp::Popcount,
        "clz" | "clzl" => GnuOp::Clz { extra: 0 },
        "clzll" => GnuOp::Clz { extra: 64 },
        "ctz" | "ctzl" | "ctzll" => GnuOp::Ctz,
        "ffs" => GnuOp::Ffs,
        "parity" => GnuOp::Parity,
        "clrsb" => GnuOp::Clrsb,
        "bswap16" | "bswap32" | "bswap64" => GnuOp::Bswap,
        "trap" => GnuOp::Trap,
        "unreachable" => GnuOp::Unreachable,
        "assume" => GnuOp::Assume,
        "nanf" => GnuOp::Nan { double: false },
        "nan" => GnuOp::Nan { double: true },
        "assume_aligned" => GnuOp::AssumeAligned {
            to_bool: !b.ret.is_some_and(|t| t.is_ptr()),
        },
        r if r.starts_with("rotateleft") => GnuOp::RotateLeft,
        r if r.starts_with("rotateright") => GnuOp::RotateRight,
        _ => return None,
    };
    Some(Builtin::Gnu { op, bits })
}

/// A GNU builtin on its operands (raw register bits): the result bits, or why the call
/// cannot go on.
fn gnu_call(
    name: &str,
    op: GnuOp,
    bits: u32,
    a: [u64; 3],
    mem: &mut Mem,
) -> Result<u64, CallFault> {
    let bits = bits.clamp(1, 64);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let x = a[0] & mask;
    let undefined = |what: &str| CallFault::Check(CheckKind::Other, format!("`{name}` {what}"));
    Ok(match op {
        GnuOp::Popcount => u64::from(x.count_ones()),
        GnuOp::Clz { extra } => {
            if x == 0 {
                return Err(undefined("of 0 is undefined"));
            }
            u64::from(x.leading_zeros() - (64 - bits) + extra)
        }
        GnuOp::Ctz => {
            if x == 0 {
                return Err(undefined("of 0 is undefined"));
            }
            u64::from(x.trailing_zeros())
        }
        GnuOp::Ffs => {
            if x == 0 {
                0
            } else {
                u64::from(x.trailing_zeros() + 1)
            }
        }
        GnuOp::Parity => u64::from(x.count_ones() & 1),
        GnuOp::Clrsb => {
            // Sign-extend from `bits`, then count the leading bits equal to the sign.
            let v = ((x << (64 - bits)) as i64) >> (64 - bits);
            u64::from((v ^ (v >> 63)).leading_zeros() - (64 - bits) - 1)
        }
        GnuOp::Bswap => x.swap_bytes() >> (64 - bits),
        GnuOp::RotateLeft | GnuOp::RotateRight => {
            let s = (a[1] % u64::from(bits)) as u32;
            let s = if op == GnuOp::RotateRight {
                (bits - s) % bits
            } else {
                s
            };
            if s == 0 {
                x
            } else {
                ((x << s) | (x >> (bits - s))) & mask
            }
        }
        GnuOp::Nan { double } => {
            let mut text = Vec::new();
            let mut byte = [0u8; 1];
            while text.len() < 64 {
                mem.read(ptr::add(a[0], text.len() as i64), &mut byte)?;
                if byte[0] == 0 {
                    break;
                }
                text.push(byte[0]);
            }
            let payload = nan_payload(&text).unwrap_or(0);
            if double {
                0x7ff8_0000_0000_0000 | (payload & 0x7_ffff_ffff_ffff)
            } else {
                0x7fc0_0000 | (payload & 0x3f_ffff)
            }
        }
        GnuOp::Trap => {
            return Err(CallFault::Check(
                CheckKind::Other,
                "kernel called __builtin_trap".into(),
            ));
        }
        GnuOp::Unreachable => {
            return Err(CallFault::Check(
                CheckKind::Other,
                "reached __builtin_unreachable".into(),
            ));
        }
        GnuOp::Assume => {
            if a[0] & 1 == 0 {
                return Err(CallFault::Check(
                    CheckKind::Other,
                    "the assumption of __builtin_assume is false".into(),
                ));
            }
            0
        }
        GnuOp::AssumeAligned { to_bool } => {
            let p = a[0];
            let align = a[1].max(1);
            if p != 0 && !ptr::offset(p).wrapping_sub(a[2]).is_multiple_of(align) {
                return Err(CallFault::Check(
                    CheckKind::Misaligned,
                    format!(
                        "the pointer given to __builtin_assume_aligned is not {align}-byte aligned"
                    ),
                ));
            }
            if to_bool { u64::from(p != 0) } else { p }
        }
    })
}

/// The payload `__builtin_nan("...")` reads from its string: a C integer (`0x` hex, leading
/// `0` octal, else decimal), `None` if it is none.
fn nan_payload(s: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(s).ok()?;
    if s.is_empty() {
        return Some(0);
    }
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None if s.len() > 1 && s.starts_with('0') => (&s[1..], 8),
        None => (s, 10),
    };
    u64::from_str_radix(digits, radix).ok()
}

/// The runtime's C scalar type for an IR element type and signedness.
fn c_scalar(s: Scalar, unsigned: bool) -> rt::ScalarType {
    use rt::ScalarType as T;
    match (s, unsigned) {
        (Scalar::I1 | Scalar::I8, false) => T::Char,
        (Scalar::I1 | Scalar::I8, true) => T::UChar,
        (Scalar::I16, false) => T::Short,
        (Scalar::I16, true) => T::UShort,
        (Scalar::I32, false) => T::Int,
        (Scalar::I32, true) => T::UInt,
        (Scalar::I64, false) => T::Long,
        (Scalar::I64, true) => T::ULong,
        (Scalar::F16, _) => T::Half,
        (Scalar::F32, _) => T::Float,
        (Scalar::F64, _) => T::Double,
    }
}

fn numeric(b: &BuiltinDecl, rb: rt::Builtin) -> Builtin {
    let mut args = Vec::new();
    let mut out = None;
    for (i, t) in b.params.iter().enumerate() {
        let uns = b.unsigned.get(i).copied().unwrap_or(false);
        match t {
            Type::Ptr(_) => match b.pointee.get(i).copied().flatten().and_then(|p| p.elem()) {
                Some(e) if rb.has_out() => out = Some((i, c_scalar(e, uns))),
                _ => return Builtin::Unsupported,
            },
            t => args.push((c_scalar(t.elem().unwrap_or(Scalar::I32), uns), t.lanes())),
        }
    }
    let ret = b.ret.map(|t| {
        (
            c_scalar(t.elem().unwrap_or(Scalar::I32), b.ret_unsigned),
            t.lanes(),
        )
    });
    Builtin::Numeric {
        b: rb,
        args,
        ret,
        out,
    }
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
        && let Some(n) = digits(rest)
    {
        return Builtin::VLoadHalf {
            n,
            aligned: name.starts_with("vloada"),
        };
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
        && let Some(Type::Scalar(s)) = ptr_elem(1)
    {
        return Builtin::VLoad { s, n };
    }
    if let Some(n) = name
        .strip_prefix("vstore")
        .and_then(|r| r.parse::<u32>().ok())
        && let Some(Type::Scalar(s)) = ptr_elem(2)
    {
        return Builtin::VStore { s, n };
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
        "clock_read_device" | "clock_read_work_group" | "clock_read_sub_group" => {
            Builtin::Clock { hilo: false }
        }
        "clock_read_hilo_device" | "clock_read_hilo_work_group" | "clock_read_hilo_sub_group" => {
            Builtin::Clock { hilo: true }
        }
        // A monotonically increasing counter: the cl_khr_kernel_clock one.
        "__builtin_readcyclecounter" => Builtin::Clock { hilo: false },
        n if n.starts_with("__builtin_") => gnu(b, n).unwrap_or(Builtin::Unsupported),
        n if n.contains("_image")
            && let Some(i) = image(b, n) =>
        {
            i
        }
        "shuffle" => Builtin::Shuffle { two: false },
        "shuffle2" => Builtin::Shuffle { two: true },
        _ => rt::Builtin::from_name(name).map_or(Builtin::Unsupported, |rb| numeric(b, rb)),
    }
}

/// Why a builtin call failed.
pub enum CallFault {
    Mem(Fault),
    Unsupported,
    /// The runtime rejected the argument types (a lowering bug).
    Runtime(String),
    /// The call is a fault the device reports as such (`__builtin_trap`, undefined
    /// operands of a GNU builtin).
    Check(CheckKind, String),
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

/// The counter behind `clock_read_*` (see [`Builtin::Clock`]).
static CLOCK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Runs a device-implemented builtin: reads arguments from `regs`, writes the result at `d`.
///
/// `leader`: whether the calling work-item is its group's first (local linear id 0). Work-items
/// of a group run in order of local id, so the leader reaches each `async_work_group_copy`
/// first and makes the group's one copy; the others only return the event (copying in every
/// work-item made a launch cost work-items x elements).
pub fn call(
    c: &BuiltinCall,
    regs: &mut [u64],
    d: u32,
    mem: &mut Mem,
    leader: bool,
) -> Result<(), CallFault> {
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
            for k in 0..if leader { count } else { 0 } {
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
            for k in 0..if leader { count } else { 0 } {
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
        Builtin::Clock { hilo } => {
            let t = CLOCK.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if *hilo {
                for (k, v) in [t & 0xffff_ffff, t >> 32].into_iter().enumerate() {
                    if let Some(r) = regs.get_mut(d + k) {
                        *r = v;
                    }
                }
            } else if let Some(r) = regs.get_mut(d) {
                *r = t;
            }
        }
        Builtin::NoOp => {
            if c.ret.is_some()
                && let Some(r) = regs.get_mut(d)
            {
                *r = 0;
            }
        }
        Builtin::Numeric { b, args, ret, out } => {
            let mut lanes = Vec::with_capacity(args.len());
            let mut ai = 0;
            for (i, (s, _)) in c.args.iter().enumerate() {
                if out.is_some_and(|(k, _)| k == i) {
                    continue;
                }
                let Some(&(ty, n)) = args.get(ai) else { break };
                ai += 1;
                let base = *s as usize;
                lanes.push(rt::Lanes::from_fn(n as usize, |k| {
                    rt::Scalar::from_bits(ty, regs.get(base + k).copied().unwrap_or(0))
                }));
            }
            let res = rt::call(*b, &lanes).map_err(|e| CallFault::Runtime(e.to_string()))?;
            if let Some((_, n)) = ret {
                for k in 0..*n as usize {
                    if let Some(r) = regs.get_mut(d + k) {
                        *r = res
                            .value
                            .lane(k.min(res.value.len().saturating_sub(1)))
                            .to_bits();
                    }
                }
            }
            if let (Some((pi, ty)), Some(o)) = (out, res.out) {
                let p = arg(regs, *pi);
                let sz = ty.size();
                for k in 0..o.len() {
                    mem.write_scalar(ptr::add(p, (k * sz) as i64), sz, o.lane(k).to_bits())?;
                }
            }
        }
        Builtin::Shuffle { two } => {
            let src_n = c.args.first().map_or(1, |(_, t)| t.lanes() as usize);
            let srcs: Vec<usize> = c
                .args
                .iter()
                .take(if *two { 2 } else { 1 })
                .map(|(s, _)| *s as usize)
                .collect();
            let (mslot, mt) = c
                .args
                .last()
                .map_or((0, Type::I32), |(s, t)| (*s as usize, *t));
            let total = src_n * srcs.len();
            let mut tmp = [0u64; 32];
            for (k, t) in tmp.iter_mut().enumerate().take(mt.lanes() as usize) {
                let m = regs.get(mslot + k).copied().unwrap_or(0) as usize % total.max(1);
                let (which, lane) = (m / src_n.max(1), m % src_n.max(1));
                *t = srcs
                    .get(which)
                    .and_then(|s| regs.get(s + lane))
                    .copied()
                    .unwrap_or(0);
            }
            for (k, t) in tmp.iter().enumerate().take(mt.lanes() as usize) {
                if let Some(r) = regs.get_mut(d + k) {
                    *r = *t;
                }
            }
        }
        Builtin::Gnu { op, bits } => {
            let a = [arg(regs, 0), arg(regs, 1), arg(regs, 2)];
            let r = gnu_call(&c.name, *op, *bits, a, mem)?;
            if c.ret.is_some()
                && let Some(slot) = regs.get_mut(d)
            {
                *slot = r;
            }
        }
        Builtin::Image(op) => image_call(c, *op, regs, d, mem)?,
        Builtin::Unsupported => return Err(CallFault::Unsupported),
    }
    Ok(())
}

/// The descriptor an image argument (its register value) points to.
fn image_desc(c: &BuiltinCall, p: u64, mem: &mut Mem) -> Result<rt::image::ImageDesc, CallFault> {
    let mut b = [0u8; rt::image::DESC_SIZE];
    mem.read(p, &mut b)?;
    rt::image::ImageDesc::from_bytes(&b).ok_or_else(|| {
        CallFault::Check(
            CheckKind::InvalidPointer,
            format!("`{}`: the image argument is not an image", c.name),
        )
    })
}

/// The report for an image access the spec leaves undefined.
fn image_fault(c: &BuiltinCall, f: rt::image::ImageFault<Fault>) -> CallFault {
    use rt::image::ImageFault;
    match f {
        ImageFault::Fetch(m) => CallFault::Mem(m),
        ImageFault::Undefined(m) => {
            CallFault::Check(CheckKind::Other, format!("`{}`: {m}", c.name))
        }
        ImageFault::Outside { at, extent } => CallFault::Check(
            CheckKind::OutOfBounds,
            format!(
                "`{}` at pixel ({}, {}, {}) outside the {} x {} x {} image \
                 (undefined without a clamping sampler)",
                c.name, at[0], at[1], at[2], extent[0], extent[1], extent[2]
            ),
        ),
    }
}

/// Runs an image builtin ([`ImageOp`]).
fn image_call(
    c: &BuiltinCall,
    op: ImageOp,
    regs: &mut [u64],
    d: usize,
    mem: &mut Mem,
) -> Result<(), CallFault> {
    use rt::image::{Color, Coords, Kind};
    let slot = |i: usize| c.args.get(i).map_or(0, |(s, _)| *s as usize);
    let ty = |i: usize| c.args.get(i).map_or(Type::I32, |(_, t)| *t);
    let reg = |regs: &[u64], i: usize| regs.get(i).copied().unwrap_or(0);
    let desc = image_desc(c, reg(regs, slot(0)), mem)?;
    let ret = c.ret.unwrap_or(Type::I32);
    let put = |regs: &mut [u64], k: usize, v: u64| {
        if let Some(r) = regs.get_mut(d + k) {
            *r = v;
        }
    };
    // Integer results: 32-bit `int` or 64-bit `size_t`, as the declaration says.
    let put_int = |regs: &mut [u64], k: usize, v: u64| {
        let bits = ret.elem().map_or(32, |s| s.bits());
        let v = if bits >= 64 { v } else { v & 0xffff_ffff };
        if let Some(r) = regs.get_mut(d + k) {
            *r = v;
        }
    };
    let lanes4 = |regs: &[u64], i: usize| -> [u64; 4] {
        let n = ty(i).lanes() as usize;
        let base = slot(i);
        std::array::from_fn(|k| if k < n { reg(regs, base + k) } else { 0 })
    };
    let color_of = |regs: &[u64], i: usize, kind: Kind| -> Color {
        let v = lanes4(regs, i);
        match kind {
            Kind::Float => {
                let s = ty(i).elem().unwrap_or(Scalar::F32);
                Color::F(v.map(|x| fget(s, x) as f32))
            }
            _ => Color::I(v.map(|x| x as u32)),
        }
    };
    let data = desc.data;
    match op {
        ImageOp::Read { kind, sampler } => {
            let ci = if sampler { 2 } else { 1 };
            let s = sampler.then(|| reg(regs, slot(1)) as u32);
            let cv = lanes4(regs, ci);
            let coords = match ty(ci).elem() {
                Some(e @ (Scalar::F32 | Scalar::F16 | Scalar::F64)) => {
                    Coords::F(cv.map(|x| fget(e, x) as f32))
                }
                _ => Coords::I(cv.map(|x| x as u32 as i32)),
            };
            let mut fetch = |off: u64, buf: &mut [u8]| mem.read(ptr::add(data, off as i64), buf);
            let col = rt::image::read(&desc, s, coords, kind, &mut fetch)
                .map_err(|f| image_fault(c, f))?;
            let n = ret.lanes() as usize;
            let out = ret.elem().unwrap_or(Scalar::F32);
            for k in 0..n {
                let v = match col {
                    Color::F(f) => fput(out, f64::from(f[k])),
                    Color::I(i) => u64::from(i[k]),
                };
                put(regs, k, v);
            }
        }
        ImageOp::Write { kind } => {
            let cv = lanes4(regs, 1).map(|x| x as u32 as i32);
            let color = color_of(regs, 2, kind);
            let (off, bytes) =
                rt::image::write::<Fault>(&desc, cv, color, kind).map_err(|f| image_fault(c, f))?;
            mem.write(ptr::add(data, off as i64), &bytes)?;
        }
        ImageOp::Width => put_int(regs, 0, desc.width),
        ImageOp::Height => put_int(regs, 0, desc.height),
        ImageOp::Depth => put_int(regs, 0, desc.depth),
        ImageOp::ArraySize => put_int(regs, 0, desc.array_size),
        ImageOp::ChannelDataType => put_int(regs, 0, u64::from(desc.dtype)),
        ImageOp::ChannelOrder => put_int(regs, 0, u64::from(desc.order)),
        ImageOp::Dim => {
            let dims = [desc.width, desc.height, desc.depth, 0];
            let three = desc.ty == rt::image::object::IMAGE3D;
            for (k, v) in dims.iter().enumerate().take(ret.lanes() as usize) {
                put_int(regs, k, if three || k < 2 { *v } else { 0 });
            }
        }
    }
    Ok(())
}
