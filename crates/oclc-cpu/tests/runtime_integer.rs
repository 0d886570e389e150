//! 6.15.3 integer builtins at the type bounds of every integer type, through the dispatcher.

use oclc_cpu::runtime::integer::{max_of, min_of};
use oclc_cpu::runtime::{Builtin, Scalar, ScalarType, call_scalar};

use ScalarType as T;

const INT_TYPES: [ScalarType; 8] = [
    T::Char,
    T::UChar,
    T::Short,
    T::UShort,
    T::Int,
    T::UInt,
    T::Long,
    T::ULong,
];

fn s(ty: ScalarType, v: i128) -> Scalar {
    Scalar::from_i128(ty, v)
}

fn call(b: Builtin, args: &[Scalar]) -> Scalar {
    call_scalar(b, args)
        .unwrap_or_else(|e| panic!("{b:?}{args:?}: {e}"))
        .0
}

/// The value of an integer scalar.
fn v(x: Scalar) -> i128 {
    x.as_i128()
        .unwrap_or_else(|| panic!("not an integer: {x:?}"))
}

#[test]
fn saturating_add_and_sub_at_bounds() {
    for ty in INT_TYPES {
        let (lo, hi) = (min_of(ty), max_of(ty));
        assert_eq!(
            v(call(Builtin::AddSat, &[s(ty, hi), s(ty, 1)])),
            hi,
            "{ty:?}"
        );
        assert_eq!(
            v(call(Builtin::AddSat, &[s(ty, hi), s(ty, hi)])),
            hi,
            "{ty:?}"
        );
        assert_eq!(v(call(Builtin::AddSat, &[s(ty, hi - 1), s(ty, 1)])), hi);
        assert_eq!(
            v(call(Builtin::SubSat, &[s(ty, lo), s(ty, 1)])),
            lo,
            "{ty:?}"
        );
        assert_eq!(v(call(Builtin::SubSat, &[s(ty, lo + 1), s(ty, 1)])), lo);
        if ty.is_signed_int() {
            assert_eq!(v(call(Builtin::AddSat, &[s(ty, lo), s(ty, -1)])), lo);
            assert_eq!(v(call(Builtin::SubSat, &[s(ty, hi), s(ty, -1)])), hi);
            assert_eq!(v(call(Builtin::SubSat, &[s(ty, 0), s(ty, lo)])), hi);
            assert_eq!(v(call(Builtin::AddSat, &[s(ty, lo), s(ty, hi)])), -1);
        } else {
            assert_eq!(v(call(Builtin::SubSat, &[s(ty, 0), s(ty, hi)])), 0);
        }
        // The result keeps the argument type.
        assert_eq!(call(Builtin::AddSat, &[s(ty, 1), s(ty, 2)]).ty(), ty);
    }
}

#[test]
fn abs_and_abs_diff_return_unsigned() {
    for ty in INT_TYPES {
        let (lo, hi) = (min_of(ty), max_of(ty));
        let r = call(Builtin::Abs, &[s(ty, lo)]);
        assert_eq!(r.ty(), ty.unsigned_of_size());
        assert_eq!(v(r), lo.abs());
        let d = call(Builtin::AbsDiff, &[s(ty, lo), s(ty, hi)]);
        assert_eq!(d.ty(), ty.unsigned_of_size());
        assert_eq!(v(d), hi - lo, "{ty:?}");
        assert_eq!(v(call(Builtin::AbsDiff, &[s(ty, 3), s(ty, 10)])), 7);
    }
    assert_eq!(call(Builtin::Abs, &[Scalar::I8(-128)]), Scalar::U8(128));
    assert_eq!(call(Builtin::Abs, &[Scalar::I32(-5)]), Scalar::U32(5));
    assert_eq!(
        call(
            Builtin::AbsDiff,
            &[Scalar::I64(i64::MIN), Scalar::I64(i64::MAX)]
        ),
        Scalar::U64(u64::MAX)
    );
}

#[test]
fn halving_adds_never_overflow() {
    for ty in INT_TYPES {
        let (lo, hi) = (min_of(ty), max_of(ty));
        assert_eq!(
            v(call(Builtin::Hadd, &[s(ty, hi), s(ty, hi)])),
            hi,
            "{ty:?}"
        );
        assert_eq!(v(call(Builtin::Rhadd, &[s(ty, hi), s(ty, hi - 1)])), hi);
        assert_eq!(v(call(Builtin::Hadd, &[s(ty, hi), s(ty, hi - 1)])), hi - 1);
        assert_eq!(v(call(Builtin::Hadd, &[s(ty, lo), s(ty, lo)])), lo);
        assert_eq!(v(call(Builtin::Rhadd, &[s(ty, 2), s(ty, 3)])), 3);
        assert_eq!(v(call(Builtin::Hadd, &[s(ty, 2), s(ty, 3)])), 2);
        if ty.is_signed_int() {
            // Rounds toward -∞ (hadd) and +∞ (rhadd), as (x + y) >> 1 does.
            assert_eq!(v(call(Builtin::Hadd, &[s(ty, -2), s(ty, -3)])), -3);
            assert_eq!(v(call(Builtin::Rhadd, &[s(ty, -2), s(ty, -3)])), -2);
            assert_eq!(v(call(Builtin::Hadd, &[s(ty, lo), s(ty, hi)])), -1);
        }
    }
}

#[test]
fn bit_counting() {
    for ty in INT_TYPES {
        let bits = i128::from(ty.bits());
        assert_eq!(v(call(Builtin::Clz, &[s(ty, 0)])), bits, "{ty:?}");
        assert_eq!(v(call(Builtin::Ctz, &[s(ty, 0)])), bits);
        assert_eq!(v(call(Builtin::Clz, &[s(ty, 1)])), bits - 1);
        assert_eq!(v(call(Builtin::Ctz, &[s(ty, 1)])), 0);
        assert_eq!(v(call(Builtin::Clz, &[s(ty, -1)])), 0);
        assert_eq!(v(call(Builtin::Ctz, &[s(ty, 8)])), 3);
        assert_eq!(v(call(Builtin::Popcount, &[s(ty, -1)])), bits);
        assert_eq!(v(call(Builtin::Popcount, &[s(ty, 0b1011)])), 3);
        assert_eq!(
            v(call(Builtin::Clz, &[s(ty, min_of(ty))])),
            i128::from(!ty.is_signed_int()) * (bits)
        );
        assert_eq!(call(Builtin::Clz, &[s(ty, 1)]).ty(), ty);
    }
    assert_eq!(call(Builtin::Clz, &[Scalar::U8(0x10)]), Scalar::U8(3));
    assert_eq!(
        call(Builtin::Ctz, &[Scalar::I64(i64::MIN)]),
        Scalar::I64(63)
    );
    assert_eq!(call(Builtin::Popcount, &[Scalar::I8(-128)]), Scalar::I8(1));
}

#[test]
fn multiply_high_and_saturating_mad() {
    assert_eq!(
        call(
            Builtin::MulHi,
            &[Scalar::U64(u64::MAX), Scalar::U64(u64::MAX)]
        ),
        Scalar::U64(u64::MAX - 1)
    );
    assert_eq!(
        call(
            Builtin::MulHi,
            &[Scalar::I64(i64::MIN), Scalar::I64(i64::MIN)]
        ),
        Scalar::I64(1 << 62)
    );
    assert_eq!(
        call(Builtin::MulHi, &[Scalar::I64(-1), Scalar::I64(1)]),
        Scalar::I64(-1)
    );
    assert_eq!(
        call(Builtin::MulHi, &[Scalar::I32(-2), Scalar::I32(3)]),
        Scalar::I32(-1)
    );
    assert_eq!(
        call(Builtin::MulHi, &[Scalar::U32(0x8000_0000), Scalar::U32(4)]),
        Scalar::U32(2)
    );
    assert_eq!(
        call(Builtin::MulHi, &[Scalar::U8(200), Scalar::U8(200)]),
        Scalar::U8(156)
    );
    assert_eq!(
        call(Builtin::MulHi, &[Scalar::I8(-128), Scalar::I8(127)]),
        Scalar::I8(-64)
    );
    assert_eq!(
        call(
            Builtin::MadHi,
            &[Scalar::U32(u32::MAX), Scalar::U32(u32::MAX), Scalar::U32(5)]
        ),
        Scalar::U32(3)
    );
    assert_eq!(
        call(
            Builtin::MadHi,
            &[Scalar::U32(u32::MAX), Scalar::U32(u32::MAX), Scalar::U32(2)]
        ),
        Scalar::U32(0)
    );
    for ty in INT_TYPES {
        let (lo, hi) = (min_of(ty), max_of(ty));
        assert_eq!(
            v(call(Builtin::MadSat, &[s(ty, hi), s(ty, hi), s(ty, hi)])),
            hi,
            "{ty:?}"
        );
        assert_eq!(
            v(call(Builtin::MadSat, &[s(ty, hi), s(ty, 1), s(ty, 1)])),
            hi
        );
        assert_eq!(
            v(call(Builtin::MadSat, &[s(ty, 3), s(ty, 4), s(ty, 5)])),
            17
        );
        if ty.is_signed_int() {
            assert_eq!(
                v(call(Builtin::MadSat, &[s(ty, lo), s(ty, hi), s(ty, 0)])),
                lo
            );
            assert_eq!(
                v(call(Builtin::MadSat, &[s(ty, lo), s(ty, -1), s(ty, 0)])),
                hi
            );
            assert_eq!(
                v(call(Builtin::MadSat, &[s(ty, lo), s(ty, lo), s(ty, lo)])),
                hi
            );
            assert_eq!(
                v(call(Builtin::MadSat, &[s(ty, 2), s(ty, -3), s(ty, lo)])),
                lo
            );
        }
    }
}

#[test]
fn rotate_clamp_min_max() {
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::U8(0x81), Scalar::U8(1)]),
        Scalar::U8(0x03)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::U8(0x81), Scalar::U8(9)]),
        Scalar::U8(0x03)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::I8(-127), Scalar::I8(-1)]),
        Scalar::I8(-64)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::U32(0x8000_0001), Scalar::U32(4)]),
        Scalar::U32(0x18)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::U64(1), Scalar::U64(64)]),
        Scalar::U64(1)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::U64(1), Scalar::U64(63)]),
        Scalar::U64(1 << 63)
    );
    assert_eq!(
        call(Builtin::Rotate, &[Scalar::I16(0x1234), Scalar::I16(8)]),
        Scalar::I16(0x3412)
    );
    for ty in INT_TYPES {
        let (lo, hi) = (min_of(ty), max_of(ty));
        assert_eq!(v(call(Builtin::Clamp, &[s(ty, hi), s(ty, 1), s(ty, 5)])), 5);
        assert_eq!(v(call(Builtin::Clamp, &[s(ty, lo), s(ty, 1), s(ty, 5)])), 1);
        assert_eq!(v(call(Builtin::Clamp, &[s(ty, 3), s(ty, 1), s(ty, 5)])), 3);
        assert_eq!(v(call(Builtin::Max, &[s(ty, lo), s(ty, hi)])), hi);
        assert_eq!(v(call(Builtin::Min, &[s(ty, lo), s(ty, hi)])), lo);
    }
}

#[test]
fn upsample_and_24_bit_multiplies() {
    assert_eq!(
        call(Builtin::Upsample, &[Scalar::I8(-1), Scalar::U8(0xfe)]),
        Scalar::I16(-2)
    );
    assert_eq!(
        call(Builtin::Upsample, &[Scalar::U8(0x12), Scalar::U8(0x34)]),
        Scalar::U16(0x1234)
    );
    assert_eq!(
        call(Builtin::Upsample, &[Scalar::I16(-32768), Scalar::U16(1)]),
        Scalar::I32(i32::MIN + 1)
    );
    assert_eq!(
        call(
            Builtin::Upsample,
            &[Scalar::U32(u32::MAX), Scalar::U32(u32::MAX)]
        ),
        Scalar::U64(u64::MAX)
    );
    assert_eq!(
        call(Builtin::Upsample, &[Scalar::I32(1), Scalar::U32(0)]),
        Scalar::I64(1 << 32)
    );
    assert!(call_scalar(Builtin::Upsample, &[Scalar::I64(1), Scalar::U64(0)]).is_err());
    assert!(call_scalar(Builtin::Upsample, &[Scalar::I8(1), Scalar::I8(0)]).is_err());
    assert_eq!(
        call(Builtin::Mul24, &[Scalar::I32(-3), Scalar::I32(0x7f_ffff)]),
        Scalar::I32(-0x17f_fffd)
    );
    assert_eq!(
        call(Builtin::Mul24, &[Scalar::U32(0xff_ffff), Scalar::U32(2)]),
        Scalar::U32(0x1ff_fffe)
    );
    assert_eq!(
        call(
            Builtin::Mad24,
            &[Scalar::I32(-4), Scalar::I32(5), Scalar::I32(1)]
        ),
        Scalar::I32(-19)
    );
    assert!(call_scalar(Builtin::Mul24, &[Scalar::I16(1), Scalar::I16(2)]).is_err());
}

#[test]
fn type_errors_are_reported_not_panics() {
    assert!(call_scalar(Builtin::AddSat, &[Scalar::I32(1), Scalar::U32(1)]).is_err());
    assert!(call_scalar(Builtin::AddSat, &[Scalar::F32(1.0), Scalar::F32(1.0)]).is_err());
    assert!(call_scalar(Builtin::Clz, &[]).is_err());
    assert!(call_scalar(Builtin::Sin, &[Scalar::I32(1)]).is_err());
    assert!(call_scalar(Builtin::Ldexp, &[Scalar::F32(1.0), Scalar::F32(1.0)]).is_err());
    assert!(call_scalar(Builtin::Nan, &[Scalar::I32(1)]).is_err());
    assert!(call_scalar(Builtin::Fmax, &[Scalar::F32(1.0), Scalar::F64(1.0)]).is_err());
}
