//! Vector handling in `call`: lane-wise families with scalar broadcast, pointer outputs per
//! lane, relational results (1/0 scalar, -1/0 vector lanes of the matching size), geometric and
//! common functions, and errors for malformed calls.

use oclc_cpu::runtime::{Builtin, BuiltinError, Half, Lanes, Scalar, call};

fn f32s(v: &[f32]) -> Lanes {
    Lanes::from_slice(&v.iter().map(|&x| Scalar::F32(x)).collect::<Vec<_>>()).unwrap()
}
fn f64s(v: &[f64]) -> Lanes {
    Lanes::from_slice(&v.iter().map(|&x| Scalar::F64(x)).collect::<Vec<_>>()).unwrap()
}
fn i32s(v: &[i32]) -> Lanes {
    Lanes::from_slice(&v.iter().map(|&x| Scalar::I32(x)).collect::<Vec<_>>()).unwrap()
}
fn one(s: Scalar) -> Lanes {
    Lanes::scalar(s)
}
fn run(name: &str, args: &[Lanes]) -> Lanes {
    call(Builtin::from_name(name).unwrap(), args).unwrap().value
}

#[test]
fn lanewise_with_scalar_broadcast() {
    let r = run(
        "fmax",
        &[f32s(&[1.0, 5.0, f32::NAN, -1.0]), one(Scalar::F32(2.0))],
    );
    assert_eq!(r, f32s(&[2.0, 5.0, 2.0, 2.0]));
    let r = run(
        "clamp",
        &[
            f32s(&[-3.0, 0.5, 9.0]),
            one(Scalar::F32(0.0)),
            one(Scalar::F32(1.0)),
        ],
    );
    assert_eq!(r, f32s(&[0.0, 0.5, 1.0]));
    let r = run("ldexp", &[f64s(&[1.0, 3.0]), one(Scalar::I32(3))]);
    assert_eq!(r, f64s(&[8.0, 24.0]));
    let r = run("pown", &[f32s(&[2.0, 3.0]), i32s(&[3, 2])]);
    assert_eq!(r, f32s(&[8.0, 9.0]));
    let r = run(
        "clamp",
        &[
            i32s(&[-7, 3, 70]),
            one(Scalar::I32(0)),
            one(Scalar::I32(10)),
        ],
    );
    assert_eq!(r, i32s(&[0, 3, 10]));
    let r = run("add_sat", &[i32s(&[i32::MAX, 1]), i32s(&[1, 1])]);
    assert_eq!(r, i32s(&[i32::MAX, 2]));
    let r = run("convert_int_sat_rte", &[f32s(&[2.5, 3.5, 1e20, f32::NAN])]);
    assert_eq!(r, i32s(&[2, 4, i32::MAX, 0]));
    let mix = run(
        "mix",
        &[
            f32s(&[0.0, 10.0]),
            f32s(&[10.0, 20.0]),
            one(Scalar::F32(0.25)),
        ],
    );
    assert_eq!(mix, f32s(&[2.5, 12.5]));
    let step = run("step", &[one(Scalar::F32(1.0)), f32s(&[0.5, 1.0, 2.0])]);
    assert_eq!(step, f32s(&[0.0, 1.0, 1.0]));
}

#[test]
fn pointer_outputs_per_lane() {
    let out = call(Builtin::Frexp, &[f32s(&[8.0, 0.75, 0.0, 1.0])]).unwrap();
    assert_eq!(out.value, f32s(&[0.5, 0.75, 0.0, 0.5]));
    assert_eq!(out.out, Some(i32s(&[4, 0, 0, 1])));
    let out = call(Builtin::Sincos, &[f64s(&[0.0, -0.0])]).unwrap();
    assert_eq!(out.out, Some(f64s(&[1.0, 1.0])));
    let out = call(
        Builtin::Remquo,
        &[f32s(&[7.0, -7.0]), one(Scalar::F32(2.0))],
    )
    .unwrap();
    assert_eq!(out.value, f32s(&[-1.0, 1.0]));
    assert_eq!(out.out, Some(i32s(&[4, -4])));
    assert_eq!(call(Builtin::Sin, &[f32s(&[0.0, 0.0])]).unwrap().out, None);
}

#[test]
fn relational_results() {
    // Scalar: int 1/0.
    assert_eq!(
        run("isequal", &[one(Scalar::F32(1.0)), one(Scalar::F32(1.0))]),
        one(Scalar::I32(1))
    );
    assert_eq!(
        run("isnan", &[one(Scalar::F64(f64::NAN))]),
        one(Scalar::I32(1))
    );
    assert_eq!(
        run("signbit", &[one(Scalar::F32(-0.0))]),
        one(Scalar::I32(1))
    );
    assert_eq!(
        run(
            "islessgreater",
            &[one(Scalar::F32(f32::NAN)), one(Scalar::F32(1.0))]
        ),
        one(Scalar::I32(0))
    );
    assert_eq!(
        run(
            "isnotequal",
            &[one(Scalar::F32(f32::NAN)), one(Scalar::F32(f32::NAN))]
        ),
        one(Scalar::I32(1))
    );
    // Vector float: int lanes -1/0.
    let r = run(
        "isless",
        &[
            f32s(&[1.0, 2.0, f32::NAN, -0.0]),
            f32s(&[2.0, 2.0, 1.0, 0.0]),
        ],
    );
    assert_eq!(r, i32s(&[-1, 0, 0, 0]));
    // Vector double: long lanes; half: short lanes.
    let r = run("isinf", &[f64s(&[f64::INFINITY, 1.0])]);
    assert_eq!(
        r,
        Lanes::from_slice(&[Scalar::I64(-1), Scalar::I64(0)]).unwrap()
    );
    let h = Lanes::from_slice(&[
        Scalar::F16(Half::NAN),
        Scalar::F16(Half::ONE),
        Scalar::F16(Half(1)),
    ])
    .unwrap();
    assert_eq!(
        run("isnan", &[h]),
        Lanes::from_slice(&[Scalar::I16(-1), Scalar::I16(0), Scalar::I16(0)]).unwrap()
    );
    assert_eq!(
        run("isnormal", &[h]),
        Lanes::from_slice(&[Scalar::I16(0), Scalar::I16(-1), Scalar::I16(0)]).unwrap()
    );
    let r = run(
        "isnormal",
        &[f32s(&[1.0, f32::MIN_POSITIVE / 2.0, 0.0, f32::INFINITY])],
    );
    assert_eq!(r, i32s(&[-1, 0, 0, 0]));
    let r = run("isordered", &[f32s(&[1.0, f32::NAN]), f32s(&[1.0, 1.0])]);
    assert_eq!(r, i32s(&[-1, 0]));
    let r = run("isunordered", &[f32s(&[1.0, f32::NAN]), f32s(&[1.0, 1.0])]);
    assert_eq!(r, i32s(&[0, -1]));
    let r = run(
        "isfinite",
        &[f32s(&[1.0, f32::NAN, f32::NEG_INFINITY, f32::MAX])],
    );
    assert_eq!(r, i32s(&[-1, 0, 0, -1]));
}

#[test]
fn any_all_select_bitselect() {
    assert_eq!(run("any", &[i32s(&[0, 1, -5, 0])]), one(Scalar::I32(1)));
    assert_eq!(run("any", &[i32s(&[0, 1, 5, 0])]), one(Scalar::I32(0)));
    assert_eq!(
        run("all", &[i32s(&[-1, -2, -5, i32::MIN])]),
        one(Scalar::I32(1))
    );
    assert_eq!(
        run("all", &[i32s(&[-1, -2, 5, i32::MIN])]),
        one(Scalar::I32(0))
    );
    assert_eq!(run("any", &[one(Scalar::I8(-1))]), one(Scalar::I32(1)));
    assert!(call(Builtin::Any, &[f32s(&[1.0, 2.0])]).is_err());
    // Scalar select tests c != 0; vector select tests each lane's MSB.
    let r = run(
        "select",
        &[
            one(Scalar::F32(1.0)),
            one(Scalar::F32(2.0)),
            one(Scalar::I32(5)),
        ],
    );
    assert_eq!(r, one(Scalar::F32(2.0)));
    let r = run(
        "select",
        &[
            f32s(&[1.0, 1.0, 1.0]),
            f32s(&[2.0, 2.0, 2.0]),
            i32s(&[5, -1, 0]),
        ],
    );
    assert_eq!(r, f32s(&[1.0, 2.0, 1.0]));
    let r = run(
        "select",
        &[
            f64s(&[1.0, 1.0]),
            f64s(&[2.0, 2.0]),
            Lanes::from_slice(&[Scalar::U64(1 << 63), Scalar::U64(1)]).unwrap(),
        ],
    );
    assert_eq!(r, f64s(&[2.0, 1.0]));
    // select with a condition of the wrong size is an error.
    assert!(
        call(
            Builtin::Select,
            &[
                f32s(&[1.0, 1.0]),
                f32s(&[2.0, 2.0]),
                Lanes::from_slice(&[Scalar::I16(1), Scalar::I16(1)]).unwrap()
            ]
        )
        .is_err()
    );
    let r = run(
        "bitselect",
        &[
            one(Scalar::U32(0xff00_ff00)),
            one(Scalar::U32(0x1234_5678)),
            one(Scalar::U32(0x0000_ffff)),
        ],
    );
    assert_eq!(r, one(Scalar::U32(0xff00_5678)));
    // On floats: take the sign bit from b.
    let sign = f32::from_bits(0x8000_0000);
    let r = run(
        "bitselect",
        &[f32s(&[3.0, -4.0]), f32s(&[-1.0, 1.0]), f32s(&[sign, sign])],
    );
    assert_eq!(r, f32s(&[-3.0, 4.0]));
}

#[test]
fn geometric_functions() {
    assert_eq!(
        run("dot", &[f32s(&[1.0, 2.0, 3.0]), f32s(&[4.0, 5.0, 6.0])]),
        one(Scalar::F32(32.0))
    );
    assert_eq!(
        run("dot", &[one(Scalar::F64(3.0)), one(Scalar::F64(-2.0))]),
        one(Scalar::F64(-6.0))
    );
    assert_eq!(run("length", &[f32s(&[3.0, 4.0])]), one(Scalar::F32(5.0)));
    assert_eq!(
        run("length", &[one(Scalar::F32(-2.0))]),
        one(Scalar::F32(2.0))
    );
    // No overflow or underflow in the intermediate squares.
    assert_eq!(
        run("length", &[f32s(&[3e30, 4e30])]),
        one(Scalar::F32(5e30))
    );
    let p = |e: i32| f64::powi(2.0, e);
    assert_eq!(
        run("length", &[f64s(&[3.0 * p(1000), 4.0 * p(1000)])]),
        one(Scalar::F64(5.0 * p(1000)))
    );
    let tiny = p(-1000) * p(-60);
    assert_eq!(
        run("length", &[f64s(&[3.0 * tiny, 4.0 * tiny])]),
        one(Scalar::F64(5.0 * tiny))
    );
    assert_eq!(
        run("length", &[f64s(&[f64::INFINITY, f64::NAN])]),
        one(Scalar::F64(f64::INFINITY))
    );
    assert_eq!(
        run("fast_length", &[f32s(&[0.0, 0.0, 0.0, 2.0])]),
        one(Scalar::F32(2.0))
    );
    assert_eq!(
        run("distance", &[f32s(&[1.0, 1.0]), f32s(&[4.0, 5.0])]),
        one(Scalar::F32(5.0))
    );
    assert_eq!(run("normalize", &[f32s(&[3.0, 4.0])]), f32s(&[0.6, 0.8]));
    assert_eq!(
        run("normalize", &[f64s(&[0.0, -0.0, 0.0])]),
        f64s(&[0.0, -0.0, 0.0])
    );
    assert_eq!(
        run("normalize", &[f64s(&[f64::INFINITY, 2.0])]),
        f64s(&[1.0, 0.0])
    );
    assert_eq!(
        run(
            "normalize",
            &[f32s(&[f32::NEG_INFINITY, -2.0, f32::INFINITY, 1.0])]
        ),
        f32s(&[
            -std::f32::consts::FRAC_1_SQRT_2,
            -0.0,
            std::f32::consts::FRAC_1_SQRT_2,
            0.0
        ])
    );
    let nan = run("normalize", &[f32s(&[f32::NAN, 1.0])]);
    assert!(nan.iter().all(|s| s.as_f64().is_some_and(f64::is_nan)));
    assert_eq!(run("normalize", &[f64s(&[1e-310, 0.0])]), f64s(&[1.0, 0.0]));
    assert_eq!(
        run("cross", &[f32s(&[1.0, 0.0, 0.0]), f32s(&[0.0, 1.0, 0.0])]),
        f32s(&[0.0, 0.0, 1.0])
    );
    assert_eq!(
        run(
            "cross",
            &[f32s(&[1.0, 2.0, 3.0, 9.0]), f32s(&[4.0, 5.0, 6.0, 9.0])]
        ),
        f32s(&[-3.0, 6.0, -3.0, 0.0])
    );
    let h = |v: &[f64]| {
        Lanes::from_slice(
            &v.iter()
                .map(|&x| Scalar::F16(Half::from_f64(x)))
                .collect::<Vec<_>>(),
        )
        .unwrap()
    };
    assert_eq!(
        run("dot", &[h(&[1.5, 2.0]), h(&[2.0, 0.25])]),
        one(Scalar::F16(Half::from_f64(3.5)))
    );
    assert!(call(Builtin::Cross, &[f32s(&[1.0, 2.0]), f32s(&[1.0, 2.0])]).is_err());
    assert!(call(Builtin::Dot, &[f32s(&[1.0, 2.0]), f32s(&[1.0, 2.0, 3.0])]).is_err());
    assert!(call(Builtin::Dot, &[i32s(&[1, 2]), i32s(&[1, 2])]).is_err());
    let eight = f32s(&[1.0; 8]);
    assert!(call(Builtin::Length, &[eight]).is_err());
}

#[test]
fn common_functions() {
    let f = |name: &str, args: &[f32]| {
        run(
            name,
            &args
                .iter()
                .map(|&x| one(Scalar::F32(x)))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        f("degrees", &[std::f32::consts::PI]),
        one(Scalar::F32(180.0))
    );
    assert_eq!(
        f("radians", &[180.0]),
        one(Scalar::F32(std::f32::consts::PI))
    );
    assert_eq!(f("sign", &[-3.0]), one(Scalar::F32(-1.0)));
    assert_eq!(f("sign", &[-0.0]), one(Scalar::F32(-0.0)));
    assert_eq!(f("sign", &[f32::NAN]), one(Scalar::F32(0.0)));
    assert_eq!(f("sign", &[1e-40]), one(Scalar::F32(1.0)));
    assert_eq!(f("smoothstep", &[0.0, 1.0, 0.5]), one(Scalar::F32(0.5)));
    assert_eq!(f("smoothstep", &[0.0, 1.0, -1.0]), one(Scalar::F32(0.0)));
    assert_eq!(f("smoothstep", &[0.0, 1.0, 2.0]), one(Scalar::F32(1.0)));
    assert_eq!(f("smoothstep", &[0.0, 2.0, 0.5]), one(Scalar::F32(0.15625)));
    assert_eq!(f("max", &[1.0, 2.0]), one(Scalar::F32(2.0)));
    assert_eq!(f("min", &[1.0, 2.0]), one(Scalar::F32(1.0)));
    assert_eq!(f("mix", &[1.0, 3.0, 0.5]), one(Scalar::F32(2.0)));
}

#[test]
fn malformed_calls_are_errors() {
    assert_eq!(
        call(Builtin::Fmax, &[f32s(&[1.0, 2.0])]),
        Err(BuiltinError::Arity {
            builtin: "fmax",
            expected: 2,
            got: 1
        })
    );
    assert_eq!(
        call(Builtin::Fmax, &[f32s(&[1.0, 2.0]), f32s(&[1.0, 2.0, 3.0])]),
        Err(BuiltinError::Width { builtin: "fmax" })
    );
    assert!(call(Builtin::Fmax, &[f32s(&[1.0, 2.0]), f64s(&[1.0, 2.0])]).is_err());
    assert!(call(Builtin::IsEqual, &[i32s(&[1, 2]), i32s(&[1, 2])]).is_err());
}

#[test]
fn names_round_trip() {
    for &b in Builtin::ALL {
        assert_eq!(Builtin::from_name(b.name()), Some(b));
    }
    assert_eq!(Builtin::from_name("no_such_builtin"), None);
    assert!(Builtin::Frexp.has_out() && !Builtin::Sin.has_out());
    assert_eq!(Builtin::Frexp.arity(), 1);
    assert_eq!(Builtin::Fma.arity(), 3);
}

fn lanes(v: &[Scalar]) -> Lanes {
    Lanes::from_slice(v).unwrap()
}

#[test]
fn integer_dot_products() {
    let u = |v: [u8; 4]| lanes(&v.map(Scalar::U8));
    let s = |v: [i8; 4]| lanes(&v.map(Scalar::I8));
    assert_eq!(
        run("dot", &[u([255; 4]), u([255; 4])]),
        one(Scalar::U32(4 * 255 * 255))
    );
    assert_eq!(
        run("dot", &[s([-128; 4]), s([-128; 4])]),
        one(Scalar::I32(65536))
    );
    assert_eq!(
        run("dot", &[u([255; 4]), s([-128; 4])]),
        one(Scalar::I32(-130560))
    );
    assert_eq!(
        run("dot", &[s([1, -2, 3, -4]), u([1, 1, 1, 1])]),
        one(Scalar::I32(-2))
    );
    assert_eq!(
        run(
            "dot_acc_sat",
            &[u([255; 4]), u([255; 4]), one(Scalar::U32(u32::MAX - 10))]
        ),
        one(Scalar::U32(u32::MAX))
    );
    assert_eq!(
        run(
            "dot_acc_sat",
            &[s([-128; 4]), u([255; 4]), one(Scalar::I32(i32::MIN))]
        ),
        one(Scalar::I32(i32::MIN))
    );
    assert_eq!(
        run("dot_acc_sat", &[s([1; 4]), s([2; 4]), one(Scalar::I32(5))]),
        one(Scalar::I32(13))
    );
    // Packed: byte 0 is the lowest.
    let w = |v: u32| one(Scalar::U32(v));
    assert_eq!(
        run("dot_4x8packed_uu_uint", &[w(0x0102_0304), w(0x0101_0101)]),
        one(Scalar::U32(10))
    );
    assert_eq!(
        run("dot_4x8packed_ss_int", &[w(0xff00_00ff), w(0x0100_0002)]),
        one(Scalar::I32(-3))
    );
    assert_eq!(
        run("dot_4x8packed_us_int", &[w(0x0000_00ff), w(0x0000_00ff)]),
        one(Scalar::I32(-255))
    );
    assert_eq!(
        run("dot_4x8packed_su_int", &[w(0x0000_00ff), w(0x0000_00ff)]),
        one(Scalar::I32(-255))
    );
    assert_eq!(
        run(
            "dot_acc_sat_4x8packed_ss_int",
            &[w(0x8080_8080), w(0x8080_8080), one(Scalar::I32(i32::MAX))]
        ),
        one(Scalar::I32(i32::MAX))
    );
    assert_eq!(
        run(
            "dot_acc_sat_4x8packed_uu_uint",
            &[w(1), w(1), one(Scalar::U32(1))]
        ),
        one(Scalar::U32(2))
    );
    assert!(call(Builtin::DotAccSat4x8PackedSsInt, &[w(1), w(1), w(1)]).is_err());
    assert!(call(Builtin::Dot, &[u([1; 4]), lanes(&[Scalar::U16(1); 4])]).is_err());
}

#[test]
fn shuffles() {
    let x = f32s(&[0.0, 1.0, 2.0, 3.0]);
    let m = |v: &[u32]| lanes(&v.iter().map(|&k| Scalar::U32(k)).collect::<Vec<_>>());
    assert_eq!(
        run("shuffle", &[x, m(&[3, 2, 1, 0])]),
        f32s(&[3.0, 2.0, 1.0, 0.0])
    );
    assert_eq!(run("shuffle", &[x, m(&[5, 0])]), f32s(&[1.0, 0.0]));
    assert_eq!(
        run("shuffle", &[x, m(&[0, 0, 1, 1, 2, 2, 3, 3])]),
        f32s(&[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0])
    );
    let y = f32s(&[4.0, 5.0, 6.0, 7.0]);
    assert_eq!(
        run("shuffle2", &[x, y, m(&[7, 0, 12, 4])]),
        f32s(&[7.0, 0.0, 4.0, 4.0])
    );
    assert!(call(Builtin::Shuffle, &[x, i32s(&[0, 1])]).is_err());
}

#[test]
fn reinterpret_as_type() {
    let f = f32s(&[1.0, -0.0]);
    let as_int = f
        .reinterpret(oclc_cpu::runtime::ScalarType::Int, 2)
        .unwrap();
    assert_eq!(
        as_int,
        lanes(&[Scalar::I32(0x3f80_0000), Scalar::I32(i32::MIN)])
    );
    let as_uchar = one(Scalar::U32(0x0403_0201))
        .reinterpret(oclc_cpu::runtime::ScalarType::UChar, 4)
        .unwrap();
    assert_eq!(
        as_uchar,
        lanes(&[Scalar::U8(1), Scalar::U8(2), Scalar::U8(3), Scalar::U8(4)])
    );
    let as_double = lanes(&[Scalar::U32(0), Scalar::U32(0x3ff0_0000)])
        .reinterpret(oclc_cpu::runtime::ScalarType::Double, 1)
        .unwrap();
    assert_eq!(as_double, one(Scalar::F64(1.0)));
    // A 3-vector has the storage of 4 lanes.
    let three = i32s(&[1, 2, 3])
        .reinterpret(oclc_cpu::runtime::ScalarType::UInt, 4)
        .unwrap();
    assert_eq!(
        three,
        lanes(&[
            Scalar::U32(1),
            Scalar::U32(2),
            Scalar::U32(3),
            Scalar::U32(0)
        ])
    );
    assert!(
        i32s(&[1, 2])
            .reinterpret(oclc_cpu::runtime::ScalarType::Int, 4)
            .is_none()
    );
    assert!(
        i32s(&[1, 2])
            .reinterpret(oclc_cpu::runtime::ScalarType::Short, 5)
            .is_none()
    );
}
