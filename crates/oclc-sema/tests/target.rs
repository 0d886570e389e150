//! The spir (32-bit) and spir64 targets: `size_t` and friends, and pointer sizes.

mod common;

use oclc_syntax::{ClStd, Target};

const SRC: &str = "kernel void k(size_t x) {}
constant int ptr4[sizeof(void *) == 4 ? 1 : -1] = {0};
constant int size4[sizeof(size_t) == 4 ? 1 : -1] = {0};
constant int ptrdiff_int[sizeof(ptrdiff_t) == sizeof(int) ? 1 : -1] = {0};
kernel void g(global size_t *p) { *p = get_global_id(0); }
";

#[test]
fn spir_is_32_bit() {
    let mut lang = common::lang(ClStd::Cl12, "");
    lang.target = Target::Spir;
    assert_eq!(
        common::diags(SRC, &lang),
        vec![
            "1: error: '__private size_t' (aka '__private unsigned int') cannot be used as the type of a kernel parameter"
        ]
    );
}

#[test]
fn spir64_is_64_bit() {
    let lang = common::lang(ClStd::Cl12, "");
    let d = common::diags(SRC, &lang);
    assert_eq!(d.len(), 4, "{d:#?}");
    assert_eq!(
        d[0],
        "1: error: '__private size_t' (aka '__private unsigned long') cannot be used as the type of a kernel parameter"
    );
    assert!(d[1].starts_with("2: error:"), "{}", d[1]);
    assert!(d[2].starts_with("3: error:"), "{}", d[2]);
    assert!(d[3].starts_with("4: error:"), "{}", d[3]);
}
