//! AMD's media operations (`cl_amd_media_ops`, `cl_amd_media_ops2`), as the extension
//! specifications define them: byte-wise sums of absolute differences, averages and packing,
//! bit alignment, bit-field extract and mask, and three-way min/max/median. Vector forms
//! apply per component, except `amd_pack` (a `float4` to one `uint`) and `amd_sad4` (two
//! `uint4` to one `uint`).
//!
//! Where the specification's C text would wrap (`abs` of a `uint` difference), the functions
//! take the absolute difference the hardware instructions compute (`v_sad_u8`, `v_sad_u32`);
//! results wrap modulo 2^32 like the accumulations they describe.

use super::builtin::Builtin;
use super::dispatch::{BuiltinError, Output};
use super::scalar::{Lanes, Scalar};

/// Byte `i` (0 = lowest) of `x`.
fn byte(x: u32, i: u32) -> u32 {
    (x >> (8 * i)) & 0xff
}

/// `amd_sad`: `acc` plus the absolute differences of the four bytes of `a` and `b`.
pub fn sad(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |s, i| s.wrapping_add(byte(a, i).abs_diff(byte(b, i))))
}

/// `amd_sadhi`: as [`sad`], each difference shifted left by 16.
pub fn sadhi(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |s, i| {
        s.wrapping_add(byte(a, i).abs_diff(byte(b, i)) << 16)
    })
}

/// `amd_msad`: as [`sad`], skipping the bytes where `b` is 0 (masked SAD).
pub fn msad(a: u32, b: u32, acc: u32) -> u32 {
    (0..4)
        .filter(|&i| byte(b, i) != 0)
        .fold(acc, |s, i| s.wrapping_add(byte(a, i).abs_diff(byte(b, i))))
}

/// `amd_qsad` (`masked`: `amd_mqsad`): four SADs of `b` against the byte windows 0..3,
/// 1..4, 2..5, 3..6 of `a`, each added to a 16-bit lane of `acc`, kept to 16 bits.
pub fn qsad(a: u64, b: u32, acc: u64, masked: bool) -> u64 {
    (0..4).fold(0u64, |out, i| {
        let window = (a >> (8 * i)) as u32;
        let lane = ((acc >> (16 * i)) & 0xffff) as u32;
        let s = if masked {
            msad(window, b, lane)
        } else {
            sad(window, b, lane)
        };
        out | (u64::from(s & 0xffff) << (16 * i))
    })
}

/// `amd_sadw`: `acc` plus the absolute differences of the two 16-bit halves.
pub fn sadw(a: u32, b: u32, acc: u32) -> u32 {
    let h = |x: u32, i: u32| (x >> (16 * i)) & 0xffff;
    (0..2).fold(acc, |s, i| s.wrapping_add(h(a, i).abs_diff(h(b, i))))
}

/// `amd_sadd`: `acc + |a - b|`.
pub fn sadd(a: u32, b: u32, acc: u32) -> u32 {
    acc.wrapping_add(a.abs_diff(b))
}

/// `amd_lerp`: per byte, `(a + b + r) >> 1` with `r` the low bit of `c`'s byte.
pub fn lerp(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(0, |out, i| {
        out | (((byte(a, i) + byte(b, i) + (byte(c, i) & 1)) >> 1) << (8 * i))
    })
}

/// `amd_bitalign`: the 64 bits `a:b` shifted right by `c & 31`, low 32 bits.
pub fn bitalign(a: u32, b: u32, c: u32) -> u32 {
    (((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32
}

/// `amd_bytealign`: the 64 bits `a:b` shifted right by `(c & 3) * 8`, low 32 bits.
pub fn bytealign(a: u32, b: u32, c: u32) -> u32 {
    (((u64::from(a) << 32) | u64::from(b)) >> ((c & 3) * 8)) as u32
}

/// `amd_bfm`: `width` ones (`& 31`) shifted left by `offset & 31`.
pub fn bfm(width: u32, offset: u32) -> u32 {
    ((1u32 << (width & 31)).wrapping_sub(1)) << (offset & 31)
}

/// `amd_bfe` on `uint`: `width & 31` bits of `x` from bit `offset & 31`, zero-extended.
pub fn bfe_u(x: u32, offset: u32, width: u32) -> u32 {
    let (o, w) = (offset & 31, width & 31);
    if w == 0 {
        0
    } else if o + w < 32 {
        (x << (32 - o - w)) >> (32 - w)
    } else {
        x >> o
    }
}

/// `amd_bfe` on `int`: as [`bfe_u`], sign-extended from the field's top bit.
pub fn bfe_s(x: i32, offset: u32, width: u32) -> i32 {
    let (o, w) = (offset & 31, width & 31);
    if w == 0 {
        0
    } else if o + w < 32 {
        (x << (32 - o - w)) >> (32 - w)
    } else {
        x >> o
    }
}

/// `amd_unpackN`: byte `n` of `x` as a float.
pub fn unpack(x: u32, n: u32) -> f32 {
    byte(x, n) as f32
}

/// `amd_pack`: each component converted to `uint` (C's conversion: toward zero; out of
/// range saturates, NaN gives 0), its low byte placed at byte `i`.
pub fn pack(v: [f32; 4]) -> u32 {
    v.iter()
        .enumerate()
        .fold(0, |out, (i, &f)| out | (((f as u32) & 0xff) << (8 * i)))
}

/// `amd_sad4`: [`sad`] over the four components, added to `acc`.
pub fn sad4(a: [u32; 4], b: [u32; 4], acc: u32) -> u32 {
    a.iter().zip(&b).fold(acc, |s, (&x, &y)| sad(x, y, s))
}

fn err(b: Builtin, s: Scalar) -> BuiltinError {
    BuiltinError::Type {
        builtin: b.name(),
        ty: s.ty().name(),
    }
}

fn u32_of(b: Builtin, s: Scalar) -> Result<u32, BuiltinError> {
    match s {
        Scalar::U32(v) => Ok(v),
        other => Err(err(b, other)),
    }
}

/// The median of three floats, as `v_med3_f32` with `fmin`/`fmax` NaN handling.
fn median_f(a: f32, b: f32, c: f32) -> f32 {
    a.min(b).max(a.max(b).min(c))
}

/// One lane of the component-wise media operations.
fn lane(b: Builtin, x: Scalar, y: Scalar, z: Scalar) -> Result<Scalar, BuiltinError> {
    use Builtin as B;
    Ok(match b {
        B::AmdUnpack0 | B::AmdUnpack1 | B::AmdUnpack2 | B::AmdUnpack3 => {
            let n = match b {
                B::AmdUnpack0 => 0,
                B::AmdUnpack1 => 1,
                B::AmdUnpack2 => 2,
                _ => 3,
            };
            Scalar::F32(unpack(u32_of(b, x)?, n))
        }
        B::AmdBfm => Scalar::U32(bfm(u32_of(b, x)?, u32_of(b, y)?)),
        B::AmdBfe => match x {
            Scalar::I32(v) => Scalar::I32(bfe_s(v, u32_of(b, y)?, u32_of(b, z)?)),
            Scalar::U32(v) => Scalar::U32(bfe_u(v, u32_of(b, y)?, u32_of(b, z)?)),
            other => return Err(err(b, other)),
        },
        B::AmdMin3 | B::AmdMax3 | B::AmdMedian3 => match (x, y, z) {
            (Scalar::F32(p), Scalar::F32(q), Scalar::F32(r)) => Scalar::F32(match b {
                B::AmdMin3 => p.min(q).min(r),
                B::AmdMax3 => p.max(q).max(r),
                _ => median_f(p, q, r),
            }),
            (Scalar::I32(p), Scalar::I32(q), Scalar::I32(r)) => Scalar::I32(match b {
                B::AmdMin3 => p.min(q).min(r),
                B::AmdMax3 => p.max(q).max(r),
                _ => p.min(q).max(p.max(q).min(r)),
            }),
            (Scalar::U32(p), Scalar::U32(q), Scalar::U32(r)) => Scalar::U32(match b {
                B::AmdMin3 => p.min(q).min(r),
                B::AmdMax3 => p.max(q).max(r),
                _ => p.min(q).max(p.max(q).min(r)),
            }),
            (p, _, _) => return Err(err(b, p)),
        },
        B::AmdQsad | B::AmdMqsad => match (x, z) {
            (Scalar::U64(a), Scalar::U64(acc)) => {
                Scalar::U64(qsad(a, u32_of(b, y)?, acc, b == B::AmdMqsad))
            }
            (p, _) => return Err(err(b, p)),
        },
        _ => {
            let (p, q, r) = (u32_of(b, x)?, u32_of(b, y)?, u32_of(b, z)?);
            Scalar::U32(match b {
                B::AmdBitalign => bitalign(p, q, r),
                B::AmdBytealign => bytealign(p, q, r),
                B::AmdLerp => lerp(p, q, r),
                B::AmdSad => sad(p, q, r),
                B::AmdSadhi => sadhi(p, q, r),
                B::AmdMsad => msad(p, q, r),
                B::AmdSadd => sadd(p, q, r),
                B::AmdSadw => sadw(p, q, r),
                _ => return Err(err(b, x)),
            })
        }
    })
}

/// Calls a media builtin on scalar or vector arguments.
pub fn call(b: Builtin, args: &[Lanes]) -> Result<Output, BuiltinError> {
    let arg = |i: usize| {
        args.get(i)
            .copied()
            .unwrap_or(Lanes::scalar(Scalar::U32(0)))
    };
    let one = |v: Scalar| Output {
        value: Lanes::scalar(v),
        out: None,
    };
    match b {
        Builtin::AmdPack => {
            let v = arg(0);
            let mut f = [0f32; 4];
            for (i, slot) in f.iter_mut().enumerate() {
                *slot = match v.lane(i) {
                    Scalar::F32(x) if v.len() == 4 => x,
                    other => return Err(err(b, other)),
                };
            }
            Ok(one(Scalar::U32(pack(f))))
        }
        Builtin::AmdSad4 => {
            let (x, y) = (arg(0), arg(1));
            let mut a = [0u32; 4];
            let mut c = [0u32; 4];
            for i in 0..4 {
                if x.len() != 4 || y.len() != 4 {
                    return Err(BuiltinError::Width { builtin: b.name() });
                }
                a[i] = u32_of(b, x.lane(i))?;
                c[i] = u32_of(b, y.lane(i))?;
            }
            Ok(one(Scalar::U32(sad4(a, c, u32_of(b, arg(2).lane(0))?))))
        }
        _ => {
            let n = args.iter().map(Lanes::len).max().unwrap_or(1);
            if args.iter().any(|a| a.len() != n) {
                return Err(BuiltinError::Width { builtin: b.name() });
            }
            let zero = Scalar::U32(0);
            let mut vals = [Scalar::default(); 16];
            for (i, slot) in vals.iter_mut().enumerate().take(n) {
                let l = |k: usize| args.get(k).map_or(zero, |a| a.lane(i));
                *slot = lane(b, l(0), l(1), l(2))?;
            }
            Ok(Output {
                value: Lanes::from_fn(n, |i| vals[i]),
                out: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_fields() {
        assert_eq!(bfe_u(0xabcd_1234, 0, 8), 0x34);
        assert_eq!(bfe_u(0xabcd_1234, 28, 8), 0xa);
        assert_eq!(bfe_s(0x0000_00f0u32 as i32, 4, 4), -1);
        assert_eq!(bfe_s(i32::MIN, 28, 8), -8);
        assert_eq!(bfe_u(5, 3, 0), 0);
        assert_eq!(bfm(4, 8), 0xf00);
        assert_eq!(bfm(0, 3), 0);
        assert_eq!(bfm(31, 1), 0xffff_fffe);
    }

    #[test]
    fn alignment_and_bytes() {
        assert_eq!(bitalign(0x1234_5678, 0x9abc_def0, 8), 0x789a_bcde);
        assert_eq!(bitalign(1, 2, 32), 2);
        assert_eq!(bytealign(0x1234_5678, 0x9abc_def0, 1), 0x789a_bcde);
        assert_eq!(lerp(0x0102_0304, 0x0304_0506, 0x0000_0001), 0x0203_0405);
        assert_eq!(lerp(0x0000_0001, 0x0000_0000, 0x0000_0000), 0);
        assert_eq!(unpack(0x8040_2010, 3), 128.0);
        assert_eq!(pack([1.0, 2.9, 255.0, 256.0]), 0x00ff_0201);
    }

    #[test]
    fn sums_of_absolute_differences() {
        assert_eq!(sad(0x0a00_ff01, 0x000a_00ff, 5), 5 + 10 + 10 + 255 + 254);
        assert_eq!(sadhi(0x0000_0002, 0x0000_0001, 1), 1 + (1 << 16));
        assert_eq!(msad(0x0505_0505, 0x0400_0600, 0), 2);
        assert_eq!(sadd(3, 10, 1), 8);
        assert_eq!(sadw(0x0001_0010, 0x0003_0001, 0), 2 + 15);
        assert_eq!(sad4([1, 0, 0, 0], [0, 0, 0, 2], 0), 3);
        // Windows 0..3, 1..4, 2..5, 3..6 of the bytes 1, 2, ..., 8 against 1, 1, 1, 1.
        let a = 0x0807_0605_0403_0201u64;
        let q = qsad(a, 0x0101_0101, 0, false);
        assert_eq!(q & 0xffff, 6);
        assert_eq!((q >> 16) & 0xffff, 10);
        assert_eq!((q >> 48) & 0xffff, 18);
        assert_eq!(qsad(a, 0x0101_0101, 0xffff, false) & 0xffff, 5);
        assert_eq!(qsad(a, 0x0000_0001, 0, true) & 0xffff, 0);
    }
}
