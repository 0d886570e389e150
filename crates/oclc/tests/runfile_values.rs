//! Value-spec materialization: bytes per element type, half rounding, range wrapping, and the
//! random generator's fixed outputs.

use oclc::runfile::*;
use std::path::Path;

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

/// The bytes of `init` for `len` elements of `ty`, through the whole parse path.
fn bytes(ty: &str, len: usize, init: &str) -> Vec<u8> {
    let text = format!(
        "kernel = \"k\"\nglobal = [1]\ncode = \"\"\n[args]\na = {{ buffer = \"{ty}\", len = {len}, init = {init} }}\n"
    );
    let job = RunFile::parse(&text, Path::new("job.toml")).unwrap_or_else(|e| panic!("{e}"));
    match &job.args[0].kind {
        ArgKind::Buffer { elem, len, init } => init
            .materialize(*elem, *len)
            .unwrap_or_else(|e| panic!("{e}")),
        other => panic!("{other:?}"),
    }
}

fn le<T: Copy, const N: usize>(values: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| f(v)).collect()
}

#[test]
fn zero_and_range_per_type() {
    assert_eq!(bytes("int", 3, "\"zero\""), vec![0; 12]);
    assert_eq!(bytes("float3", 2, "\"zero\""), vec![0; 32]);
    assert_eq!(bytes("char", 3, "\"range\""), vec![0, 1, 2]);
    assert_eq!(
        bytes("ushort", 3, "\"range\""),
        le(&[0u16, 1, 2], u16::to_le_bytes)
    );
    assert_eq!(
        bytes("long", 2, "\"range\""),
        le(&[0i64, 1], i64::to_le_bytes)
    );
    assert_eq!(
        bytes("double", 3, "\"range\""),
        le(&[0.0f64, 1.0, 2.0], f64::to_le_bytes)
    );
    assert_eq!(
        bytes("half", 3, "\"range\""),
        le(&[0x0000u16, 0x3c00, 0x4000], u16::to_le_bytes)
    );
    // Ranges run over components; a 3-vector's padding stays zero.
    assert_eq!(
        bytes("int2", 2, "\"range\""),
        le(&[0i32, 1, 2, 3], i32::to_le_bytes)
    );
    assert_eq!(
        bytes("uchar3", 2, "\"range\""),
        vec![0, 1, 2, 0, 3, 4, 5, 0]
    );
    // Integers wrap to the type's width.
    let r = bytes("uchar", 300, "\"range\"");
    assert_eq!((r[255], r[256], r[299]), (255, 0, 43));
    let c = bytes("char", 130, "\"range\"");
    assert_eq!(
        (c[127] as i8, c[128] as i8, c[129] as i8),
        (127, -128, -127)
    );
}

#[test]
fn lists_fill_and_ranges() {
    assert_eq!(
        bytes("short", 2, "[-1, 300]"),
        le(&[-1i16, 300], i16::to_le_bytes)
    );
    assert_eq!(
        bytes("uint", 2, "[4294967295, 7]"),
        le(&[u32::MAX, 7], u32::to_le_bytes)
    );
    assert_eq!(
        bytes("float", 2, "[0.1, -3]"),
        le(&[0.1f32, -3.0], f32::to_le_bytes)
    );
    assert_eq!(bytes("double", 1, "[0.1]"), 0.1f64.to_le_bytes().to_vec());
    assert_eq!(
        bytes("float3", 1, "[[1, 2, 3]]"),
        le(&[1.0f32, 2.0, 3.0, 0.0], f32::to_le_bytes)
    );
    assert_eq!(
        bytes("int2", 2, "{ fill = [5, -5] }"),
        le(&[5i32, -5, 5, -5], i32::to_le_bytes)
    );
    assert_eq!(
        bytes("ulong", 2, "{ fill = \"0xFFFFFFFFFFFFFFFF\" }"),
        vec![0xff; 16]
    );
    assert_eq!(
        bytes("int", 4, "{ range = [10, -3] }"),
        le(&[10i32, 7, 4, 1], i32::to_le_bytes)
    );
    assert_eq!(bytes("uchar", 3, "{ range = [1, -1] }"), vec![1, 0, 255]);
    assert_eq!(
        bytes("ushort", 3, "{ range = [65534, 1] }"),
        le(&[65534u16, 65535, 0], u16::to_le_bytes)
    );
    assert_eq!(
        bytes("float", 3, "{ range = [0.5, 0.25] }"),
        le(&[0.5f32, 0.75, 1.0], f32::to_le_bytes)
    );
    assert_eq!(
        bytes("double", 2, "{ range = [1, 0.1] }"),
        le(&[1.0f64, 1.1], f64::to_le_bytes)
    );
}

#[test]
fn half_rounds_to_nearest_even() {
    // Values between halves round to nearest, ties to even; 65504 is the largest finite.
    assert_eq!(
        bytes(
            "half",
            8,
            "[0.1, 0.3333333333333333, 65504, -65519.99, 1.00048828125, 1.00146484375, 5.960464477539063e-8, 2.9802322387695312e-8]"
        ),
        le(
            &[
                0x2e66u16, 0x3555, 0x7bff, 0xfbff, 0x3c00, 0x3c02, 0x0001, 0x0000
            ],
            u16::to_le_bytes
        )
    );
    assert_eq!(
        bytes("half", 3, "[nan, inf, -inf]"),
        le(&[0x7e00u16, 0x7c00, 0xfc00], u16::to_le_bytes)
    );
    assert_eq!(f16_bits_to_f64(0x3555), 0.333251953125);
    assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
}

#[test]
fn random_is_fixed_per_seed_and_type() {
    // SplitMix64 from seed 42, mapped as `oclc::runfile::random` documents (computed
    // independently in Python).
    assert_eq!(
        bytes("uchar", 8, "{ random = 42 }"),
        vec![189, 40, 71, 88, 9, 222, 55, 204]
    );
    assert_eq!(bytes("char", 4, "{ random = 42 }"), vec![94, 20, 35, 44]);
    assert_eq!(
        bytes("int", 4, "{ random = 42 }"),
        le(&[24299i32, 5239, 9129, 11278], i32::to_le_bytes)
    );
    assert_eq!(
        bytes("ulong", 3, "{ random = -1 }"),
        le(&[29292u64, 29903, 7191], u64::to_le_bytes)
    );
    assert_eq!(
        bytes("float", 2, "{ random = 42 }"),
        le(
            &[0.7415648698806763f64 as f32, 0.1599103808403015f64 as f32],
            f32::to_le_bytes
        )
    );
    assert_eq!(
        bytes("double", 2, "{ random = 42 }"),
        le(
            &[0.7415648787718233f64, 0.1599103928769201],
            f64::to_le_bytes
        )
    );
    assert_eq!(
        bytes("half", 4, "{ random = 42 }"),
        le(
            &[0.7412109375f64, 0.15966796875, 0.2783203125, 0.34375].map(f64_to_f16_bits),
            u16::to_le_bytes
        )
    );
    // One draw per data component: a 3-vector's padding takes none.
    assert_eq!(
        bytes("uchar3", 2, "{ random = 42 }"),
        vec![189, 40, 71, 0, 88, 9, 222, 0]
    );
    assert_eq!(
        bytes("int", 64, "{ random = 5 }"),
        bytes("int", 64, "{ random = 5 }")
    );
    assert_ne!(
        bytes("int", 64, "{ random = 5 }"),
        bytes("int", 64, "{ random = 6 }")
    );
}

#[test]
fn generator_and_mapping() {
    let mut g = random::SplitMix64::new(42);
    let x = g.next_u64();
    assert_eq!(x >> 56, 189);
    assert_eq!(
        random::map_draw(ScalarType::UChar, x),
        random::Draw::Int(189)
    );
    assert_eq!(
        random::map_draw(ScalarType::Half, x),
        random::Draw::Float(0.7412109375)
    );
}

#[test]
fn components_read_back() {
    let data = bytes("short3", 2, "[[1, -2, 3], [4, 5, -6]]");
    let e = elem("short3");
    let got: Vec<Option<Lit>> = (0..3).map(|c| component(e, &data, 1, c)).collect();
    assert_eq!(
        got,
        [Some(Lit::Int(4)), Some(Lit::Int(5)), Some(Lit::Int(-6))]
    );
    assert_eq!(component(e, &data, 0, 1), Some(Lit::Int(-2)));
    assert_eq!(component(e, &data, 2, 0), None);
    let h = bytes("half", 1, "[0.1]");
    assert_eq!(
        component(elem("half"), &h, 0, 0),
        Some(Lit::Float(0.0999755859375))
    );
}
