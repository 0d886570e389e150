//! 32-bit index arithmetic from value-range facts: the bench kernels' addresses use
//! `mul.wide.u32` and 32-bit work-item ids, power-of-two divisions are shifts, and
//! arithmetic that may wrap stays 64-bit.

mod common;
use common::{ptx, ptx_with, save};
use oclc_ptx::PtxOptions;

const COPY: &str = include_str!("../../../bench/copy_named.cl");
const REDUCE: &str = include_str!("../../../bench/reduce_named.cl");
const COPY_GENERIC: &str = include_str!("../../../bench/copy_generic.cl");

/// The lines of `text` (instructions only, without the trailing `;`).
fn lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(|l| l.trim().trim_end_matches(';'))
        .filter(|l| !l.starts_with("//"))
        .collect()
}

#[test]
fn copy_addresses_are_wide_products_of_a_32_bit_id() {
    let p = ptx(COPY);
    save("index_copy", &p.text);
    let t = &p.text;
    assert!(t.contains("mad.lo.u32 %r3, %nd_grp0, %nd_el0, %tr3"), "{t}");
    assert!(t.contains("mul.wide.u32 %rd5, %r3, 4"), "{t}");
    assert!(!t.contains("mul.lo.s64"), "{t}");
    // The id's 64-bit form is never needed.
    assert!(!t.contains("cvt.u64.u32 %rd3"), "{t}");
    assert_eq!(p.kernels[0].max_global_end, Some(u32::MAX as u64));
    insta::assert_snapshot!(p.text);
}

#[test]
fn without_the_launch_bound_global_ids_stay_64_bit() {
    let opts = PtxOptions {
        ids_32bit: false,
        ..PtxOptions::default()
    };
    let p = ptx_with(COPY, &opts);
    let t = &p.text;
    assert!(t.contains("mad.wide.u32"), "{t}");
    assert!(t.contains(", %nd_o0"), "{t}");
    assert!(!t.contains("mad.lo.u32"), "{t}");
    assert!(t.contains("shl.b64 %rd5, %rd3, 2"), "{t}");
    assert_eq!(p.kernels[0].max_global_end, None);
}

#[test]
fn helper_parameters_get_their_call_sites_facts() {
    let t = ptx(COPY_GENERIC).text;
    let helper = t.split(".func __f1").nth(2).unwrap_or("");
    assert!(helper.contains("mul.wide.u32"), "{t}");
    assert!(!helper.contains("mul.lo.s64"), "{t}");
}

#[test]
fn reduce_tree_is_32_bit_and_the_wrapping_base_is_not() {
    let p = ptx(REDUCE);
    save("index_reduce", &p.text);
    let t = &p.text;
    let l = lines(t);
    // lsz / 2 and s >>= 1: shifts of 32-bit values; no 64-bit division.
    assert!(l.contains(&"shr.u32 %r43, %r7, 1"), "{t}");
    assert!(l.contains(&"shr.u32 %r65, %r44, 1"), "{t}");
    assert!(!t.contains("div.u64"), "{t}");
    // s > 0, lid < s, lid == 0 and lid + s in 32 bits.
    assert!(l.contains(&"setp.gt.u32 %p47, %r44, 0"), "{t}");
    assert!(l.contains(&"setp.lt.u32 %p49, %r5, %r44"), "{t}");
    assert!(l.contains(&"add.s32 %r55, %r5, %r44"), "{t}");
    assert!(l.contains(&"mul.wide.u32 %rd57, %r55, 8"), "{t}");
    // grp * lsz is exact as a wide product; times per_item it may wrap: 64-bit.
    assert!(l.contains(&"mul.wide.u32 %rd10, %r9, %r7"), "{t}");
    assert!(l.contains(&"mul.lo.s64 %rd12, %rd10, %rd11"), "{t}");
    // (base + j * lsz + lid) * 4 may pass 2^32: a 64-bit shift.
    assert!(l.contains(&"shl.b64 %rd29, %rd27, 2"), "{t}");
    insta::assert_snapshot!(p.text);
}

#[test]
fn sums_that_may_wrap_stay_64_bit() {
    let src = "kernel void k(global int *o, ulong off) {\n\
               size_t i = get_global_id(0) + off;\n\
               o[i] = 1;\n\
               size_t j = get_local_id(0) - 1;\n\
               o[j] = 2;\n\
               }\n";
    let t = ptx(src).text;
    let l = lines(&t);
    assert!(l.iter().any(|x| x.starts_with("add.s64")), "{t}");
    assert!(l.iter().any(|x| x.starts_with("sub.s64")), "{t}");
    assert_eq!(
        l.iter().filter(|x| x.starts_with("shl.b64")).count(),
        2,
        "{t}"
    );
    assert!(!t.contains("mul.wide.u32"), "{t}");
}

#[test]
fn power_of_two_division_is_a_shift_when_exact() {
    let src = "kernel void k(global long *o, global int *p, ulong x, long y, int z) {\n\
               o[0] = x / 8;\n\
               o[1] = x % 8;\n\
               o[2] = y / 4;\n\
               o[3] = (y & 0xffff) / 4;\n\
               p[0] = z / 2;\n\
               p[1] = (z & 255) % 16;\n\
               }\n";
    let t = ptx(src).text;
    let l = lines(&t);
    assert!(
        l.iter()
            .any(|x| x.starts_with("shr.u64") && x.ends_with(", 3")),
        "{t}"
    );
    assert!(
        l.iter()
            .any(|x| x.starts_with("and.b64") && x.ends_with(", 7")),
        "{t}"
    );
    // A possibly negative dividend keeps the signed division (it rounds toward zero).
    assert!(l.iter().any(|x| x.starts_with("div.s64")), "{t}");
    assert!(l.iter().any(|x| x.starts_with("div.s32")), "{t}");
    // Known non-negative: shifts and masks.
    assert!(
        l.iter()
            .any(|x| x.starts_with("shr.u32") && x.ends_with(", 2")),
        "{t}"
    );
    assert!(
        l.iter()
            .any(|x| x.starts_with("and.b32") && x.ends_with(", 15")),
        "{t}"
    );
    assert!(!t.contains("rem."), "{t}");
}

#[test]
fn launches_beyond_the_32_bit_bound_are_refused() {
    let p = ptx(COPY);
    let k = &p.kernels[0];
    assert!(k.admits(&[1 << 20], &[0]).is_ok());
    assert!(k.admits(&[u32::MAX as u64 - 5], &[5]).is_ok());
    assert!(k.admits(&[u32::MAX as u64 - 5], &[6]).is_err());
    assert!(k.admits(&[1 << 32], &[0]).is_err());
    assert!(k.admits(&[1, 1 << 33], &[0, 0]).is_err());
    assert!(k.admits(&[1], &[u64::MAX]).is_err());
}
