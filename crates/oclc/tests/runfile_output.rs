//! `--save` NPY bytes (checked against the NPY 1.0 format by hand), `--dump` listings
//! (snapshots) and the `--repeat` timing summary.

use oclc::runfile::*;
use std::time::Duration;

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

/// Magic, version 1.0, then the header length (little-endian u16).
fn prefix(header_len: u16) -> Vec<u8> {
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend_from_slice(&header_len.to_le_bytes());
    v
}

#[test]
fn npy_scalar_buffer() {
    let data: Vec<u8> = [1.0f32, 2.0, 3.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let out = npy_bytes(elem("float"), 3, &data);
    // The dictionary is 57 bytes; 10 + 57 + 1 = 68, so 60 spaces pad the data start to 128.
    let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    assert_eq!(dict.len(), 57);
    let mut want = prefix(118);
    want.extend_from_slice(dict.as_bytes());
    want.extend_from_slice(&[b' '; 60]);
    want.push(b'\n');
    assert_eq!(want.len(), 128);
    want.extend_from_slice(&data);
    assert_eq!(out, want);
}

#[test]
fn npy_vectors_half_and_bytes() {
    // half3: shape (2, 3), the padding component dropped.
    let bits: [u16; 8] = [
        0x3c00, 0x4000, 0x4200, 0xffff, 0x4400, 0x4500, 0x4600, 0xffff,
    ];
    let data: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
    let out = npy_bytes(elem("half3"), 2, &data);
    let dict = "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }";
    let mut want = prefix(59 + 58 + 1);
    want.extend_from_slice(dict.as_bytes());
    want.extend_from_slice(&[b' '; 58]);
    want.push(b'\n');
    for b in [0x3c00u16, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600] {
        want.extend_from_slice(&b.to_le_bytes());
    }
    assert_eq!(out, want);

    let bytes: Vec<u8> = (0..=255).cycle().take(100000).collect();
    let out = npy_bytes(elem("uchar"), 100000, &bytes);
    let dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (100000,), }";
    assert_eq!(out[..10], prefix(62 + 55 + 1)[..]);
    assert_eq!(&out[10..72], dict.as_bytes());
    assert!(out[72..127].iter().all(|&b| b == b' '));
    assert_eq!(out[127], b'\n');
    assert_eq!(&out[128..], &bytes[..]);

    let d = npy_bytes(elem("long4"), 1, &[0; 32]);
    assert_eq!(
        &d[10..69],
        b"{'descr': '<i8', 'fortran_order': False, 'shape': (1, 4), }".as_slice()
    );
    assert_eq!(d.len(), 128 + 32);
}

#[test]
fn npy_descr_per_type() {
    let descr: Vec<&str> = ScalarType::ALL.iter().map(|t| t.npy_descr()).collect();
    assert_eq!(
        descr,
        [
            "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8"
        ]
    );
    for t in ScalarType::ALL {
        let header_len = u16::from_le_bytes([npy_bytes(ElemType::scalar(t), 1, &[0; 8])[8], 0]);
        assert_eq!((10 + header_len as usize) % 64, 0, "{t:?}");
    }
}

#[test]
fn write_npy_files() {
    let dir = std::env::temp_dir().join(format!("oclc-runfile-npy-{}", std::process::id()));
    let data = [1u8, 2, 3];
    let path = write_npy(&dir.join("out"), "dst_1", elem("uchar"), 3, &data);
    let path = path.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(path, dir.join("out").join("dst_1.npy"));
    assert_eq!(
        std::fs::read(&path).ok(),
        Some(npy_bytes(elem("uchar"), 3, &data))
    );
    for bad in ["../x", "a/b", "", "1a", "a.b"] {
        let e = write_npy(&dir, bad, elem("uchar"), 3, &data)
            .err()
            .map(|e| e.kind());
        assert_eq!(e, Some(std::io::ErrorKind::InvalidInput), "{bad}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dump_scalars() {
    let data: Vec<u8> = (0..19i32)
        .map(|i| i * i - 20)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    insta::assert_snapshot!("dump_int", format_dump("dst", elem("int"), 19, &data));
}

#[test]
fn dump_floats_and_halfs() {
    let data: Vec<u8> = [0.0f32, 0.1, -1.5, 1e20, f32::NAN, f32::NEG_INFINITY, 3.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    insta::assert_snapshot!("dump_float", format_dump("f", elem("float"), 7, &data));
    let halfs: Vec<u8> = [0x2e66u16, 0x3c00, 0x7bff, 0x0001]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    insta::assert_snapshot!("dump_half", format_dump("h", elem("half"), 4, &halfs));
}

#[test]
fn dump_vectors() {
    let f4: Vec<u8> = (0..20)
        .map(|i| i as f32 * 0.5)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    insta::assert_snapshot!("dump_float4", format_dump("c", elem("float4"), 5, &f4));
    let u3: Vec<u8> = (0..16u8).collect();
    insta::assert_snapshot!("dump_uchar3", format_dump("rgb", elem("uchar3"), 4, &u3));
    let s16: Vec<u8> = (0..32i16).flat_map(|x| (x - 16).to_le_bytes()).collect();
    insta::assert_snapshot!("dump_short16", format_dump("w", elem("short16"), 2, &s16));
}

#[test]
fn timing_summary() {
    let us = Duration::from_micros;
    assert_eq!(TimingSummary::new(&[]), None);
    let t = TimingSummary::new(&[us(30), us(10), us(20)]);
    assert_eq!(
        t,
        Some(TimingSummary {
            min: us(10),
            median: us(20),
            launches: 3
        })
    );
    let t = TimingSummary::new(&[us(40), us(10), us(20), us(30)]);
    assert_eq!(
        t,
        Some(TimingSummary {
            min: us(10),
            median: us(25),
            launches: 4
        })
    );
    assert_eq!(
        t.map(|t| t.to_string()).as_deref(),
        Some("kernel time: min 10.0 us, median 25.0 us over 4 launches")
    );
    let one = TimingSummary::new(&[Duration::from_nanos(12345)]).map(|t| t.to_string());
    assert_eq!(
        one.as_deref(),
        Some("kernel time: min 12.3 us, median 12.3 us over 1 launch")
    );
}
