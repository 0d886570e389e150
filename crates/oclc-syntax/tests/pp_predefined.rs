//! Predefined macros per language mode, checked against clang's own test of them
//! (`clang-sema/features.cl`) and against the values of `opencl-c-base.h`.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::collections::{BTreeSet, HashMap};

use oclc_syntax::pp::{PpOptions, predefined_macro_names, predefined_macros, preprocess};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap, Token};

fn lang(std: ClStd, ext: &[&str]) -> LangOptions {
    let mut l = LangOptions::new(std);
    for e in ext {
        l.apply_cl_ext(e).expect("valid -cl-ext");
    }
    l
}

fn macros(l: &LangOptions) -> HashMap<String, String> {
    predefined_macros(l).into_iter().collect()
}

fn expand(l: LangOptions, src: &str) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add_text("t.cl", src.to_string());
    let mut d = Diagnostics::default();
    let out = preprocess(
        &mut sm,
        id,
        &PpOptions {
            lang: l,
            ..Default::default()
        },
        &mut d,
    );
    assert!(d.list.is_empty(), "{:?}", d.list);
    let n = out.tokens.len() - 1;
    out.tokens[..n]
        .iter()
        .map(Token::text)
        .collect::<Vec<_>>()
        .join(" ")
}

fn features_cl() -> Option<String> {
    let p = conformance::root().join("clang-sema/features.cl");
    match std::fs::read_to_string(&p) {
        Ok(s) => Some(s),
        Err(_) => {
            conformance::missing(&p, "pp_predefined");
            None
        }
    }
}

/// Macro names a FileCheck prefix of features.cl lists (`// PREFIX: #define NAME ...`).
fn listed(text: &str, prefix: &str) -> BTreeSet<String> {
    let tag = format!("// {prefix}: #define ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&tag))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Feature macros that `opencl-c-base.h` (not clang's predefines) defines for SPIR from
/// OpenCL C 2.0 on, whatever `-cl-ext` says: features.cl runs without the header, so it
/// does not list them.
fn header_feature(n: &str, l: &LangOptions) -> bool {
    n.starts_with("__opencl_c_ext_fp")
        || n == "__opencl_c_ext_image_raw10_raw12"
        || (!l.has(n)
            && (n.starts_with("__opencl_c_kernel_clock_scope_")
                || n.starts_with("__opencl_c_integer_dot_product_input_4x8bit")))
}

fn opencl_c_features(l: &LangOptions) -> BTreeSet<String> {
    predefined_macro_names(l)
        .into_iter()
        .filter(|n| n.starts_with("__opencl_c_") && !header_feature(n, l))
        .collect()
}

#[test]
fn feature_macros_match_clang_features_test() {
    let Some(text) = features_cl() else { return };
    let all = opencl_c_features(&lang(ClStd::Cl30, &["+all"]));
    assert_eq!(all, listed(&text, "FEATURES"));
    let cl20 = opencl_c_features(&lang(ClStd::Cl20, &[]));
    assert_eq!(cl20, listed(&text, "FEATURES-CL20"));
    let not = listed(&text, "NO-FEATURES-NOT");
    for l in [
        lang(ClStd::Cl30, &["-all"]),
        lang(ClStd::Cl11, &[]),
        lang(ClStd::Cl12, &[]),
    ] {
        let have = opencl_c_features(&l);
        assert!(
            have.contains("__opencl_c_int64"),
            "__opencl_c_int64 is always defined"
        );
        let bad: Vec<_> = have
            .iter()
            .filter(|n| *n != "__opencl_c_int64" && not.contains(*n))
            .collect();
        assert!(bad.is_empty(), "{:?}: {bad:?}", l.std);
    }
    let l = lang(
        ClStd::Cl20,
        &[
            "-__opencl_c_integer_dot_product_input_4x8bit",
            "-__opencl_c_integer_dot_product_input_4x8bit_packed",
        ],
    );
    let have = opencl_c_features(&l);
    assert!(
        listed(&text, "NO-FEATURES-CL20-NOT")
            .iter()
            .all(|n| !have.contains(n))
    );
    let l = lang(
        ClStd::Cl30,
        &[
            "-__opencl_c_work_group_collective_functions,",
            "-__opencl_c_atomic_order_seq_cst",
            "-__opencl_c_atomic_scope_device",
            "-__opencl_c_atomic_scope_all_devices",
            "-__opencl_c_read_write_images",
        ],
    );
    let have = opencl_c_features(&l);
    for n in listed(&text, "DISABLE-FEATURES-NOT") {
        assert!(!have.contains(&n), "{n}");
    }
    assert!(have.contains("__opencl_c_generic_address_space"));
}

#[test]
fn version_macros_per_mode() {
    for (std, v) in [
        (ClStd::Cl10, "100"),
        (ClStd::Cl11, "110"),
        (ClStd::Cl12, "120"),
        (ClStd::Cl20, "200"),
        (ClStd::Cl30, "300"),
    ] {
        let m = macros(&lang(std, &[]));
        assert_eq!(m["__OPENCL_C_VERSION__"], v);
        assert_eq!(m["CL_VERSION_1_0"], "100");
        assert_eq!(m["CL_VERSION_3_0"], "300");
        assert_eq!(m["__ENDIAN_LITTLE__"], "1");
        assert_eq!(m["__IMAGE_SUPPORT__"], "1");
        assert_eq!(m["__SPIR__"], "1");
        assert_eq!(m["__SPIR64__"], "1");
        assert_eq!(m["__STDC__"], "1");
        assert_eq!(m["__STDC_VERSION__"], "199901L");
        assert_eq!(m["__STDC_HOSTED__"], "1");
        assert_eq!(m["__clang__"], "1");
        assert!(!m.contains_key("__OPENCL_CPP_VERSION__"));
    }
}

#[test]
fn extension_macros_follow_version_and_options() {
    let m11 = macros(&lang(ClStd::Cl11, &[]));
    assert_eq!(m11["cl_khr_fp64"], "1");
    assert_eq!(m11["cl_khr_fp16"], "1");
    assert!(
        !m11.contains_key("cl_khr_depth_images"),
        "available from OpenCL C 1.2"
    );
    assert!(
        !m11.contains_key("cl_khr_subgroups"),
        "available from OpenCL C 2.0"
    );
    let m12 = macros(&lang(ClStd::Cl12, &[]));
    assert!(m12.contains_key("cl_khr_depth_images"));
    // clang predefines its own extensions' macros (supported on spir), though the
    // extensions stay off until a pragma or -cl-ext enables them.
    assert_eq!(m12["__cl_clang_function_pointers"], "1");
    assert!(!m12.contains_key("__cl_clang_function_scope_local_variables"));
    let m20 = macros(&lang(ClStd::Cl20, &[]));
    assert!(m20.contains_key("cl_khr_subgroups"));
    let m = macros(&lang(
        ClStd::Cl12,
        &["-cl_khr_fp64", "+__cl_clang_function_pointers"],
    ));
    assert!(!m.contains_key("cl_khr_fp64"));
    assert!(!m.contains_key("as_double"));
    assert_eq!(m["__cl_clang_function_pointers"], "1");
    // CL3.0: cl_khr_fp64 and __opencl_c_fp64 stand or fall together, as in clang.
    let m = macros(&lang(ClStd::Cl30, &["-__opencl_c_fp64"]));
    assert!(!m.contains_key("cl_khr_fp64") && !m.contains_key("__opencl_c_fp64"));
    let m = macros(&lang(ClStd::Cl30, &[]));
    assert!(m.contains_key("cl_khr_fp64") && m.contains_key("__opencl_c_fp64"));
    // Half constants only with cl_khr_fp16.
    assert_eq!(
        macros(&lang(ClStd::Cl12, &[]))["HALF_MAX"],
        "((0x1.ffcp15h))"
    );
    assert!(!macros(&lang(ClStd::Cl12, &["-cl_khr_fp16"])).contains_key("HALF_MAX"));
}

#[test]
fn default_header_values() {
    let m12 = macros(&lang(ClStd::Cl12, &[]));
    for (k, v) in [
        ("NULL", "((void*)0)"),
        ("CLK_LOCAL_MEM_FENCE", "0x01"),
        ("CLK_GLOBAL_MEM_FENCE", "0x02"),
        ("CLK_ADDRESS_CLAMP_TO_EDGE", "2"),
        ("CLK_NORMALIZED_COORDS_TRUE", "1"),
        ("CLK_FILTER_NEAREST", "0x10"),
        ("CLK_FILTER_LINEAR", "0x20"),
        ("CLK_RGBA", "0x10B5"),
        ("CLK_FLOAT", "0x10DE"),
        ("FLT_MAX", "0x1.fffffep127f"),
        ("FLT_EPSILON", "0x1.0p-23f"),
        ("DBL_MAX", "0x1.fffffffffffffp1023"),
        ("CHAR_BIT", "8"),
        ("SCHAR_MIN", "(-128)"),
        ("INT_MIN", "(-2147483647-1)"),
        ("UINT_MAX", "0xffffffff"),
        ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
        ("ULONG_MAX", "0xffffffffffffffffUL"),
        ("M_PI_F", "3.14159265358979323846264338327950288f"),
        ("M_PI", "0x1.921fb54442d18p+1"),
        ("MAXFLOAT", "0x1.fffffep127f"),
        ("HUGE_VALF", "(__builtin_huge_valf())"),
        ("INFINITY", "(__builtin_inff())"),
        ("NAN", "as_float(INT_MAX)"),
        ("FP_ILOGB0", "INT_MIN"),
        ("__OPENCL_MEMORY_SCOPE_DEVICE", "2"),
        ("__ATOMIC_SEQ_CST", "5"),
    ] {
        assert_eq!(m12.get(k).map(String::as_str), Some(v), "{k}");
    }
    assert!(
        !m12.contains_key("CLK_IMAGE_MEM_FENCE"),
        "OpenCL C 2.0 and later only"
    );
    assert!(!m12.contains_key("ATOMIC_VAR_INIT"));
    let m20 = macros(&lang(ClStd::Cl20, &[]));
    assert_eq!(m20["CLK_IMAGE_MEM_FENCE"], "0x04");
    assert_eq!(m20["ATOMIC_FLAG_INIT"], "0");
    assert_eq!(m20["ATOMIC_VAR_INIT(x)"], "(x)");
    assert_eq!(m20["MAX_WORK_DIM"], "3");
    assert!(!m20.contains_key("CLK_UNORM_INT_101010_2"));
    assert_eq!(
        macros(&lang(ClStd::Cl30, &[]))["CLK_UNORM_INT_101010_2"],
        "0x10E0"
    );
}

#[test]
fn predefined_macros_expand_in_code_and_if() {
    let out = expand(
        lang(ClStd::Cl20, &[]),
        "#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0 && defined(__opencl_c_generic_address_space)\n\
         barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); int v = INT_MIN; ATOMIC_VAR_INIT(3)\n#endif\n\
         __kernel_exec(64, float4) void k(void);\n",
    );
    assert_eq!(
        out,
        "barrier ( 0x01 | 0x02 ) ; int v = ( - 2147483647 - 1 ) ; ( 3 ) \
         __kernel __attribute__ ( ( work_group_size_hint ( 64 , 1 , 1 ) ) ) \
         __attribute__ ( ( vec_type_hint ( float4 ) ) ) void k ( void ) ;"
    );
    let out = expand(
        lang(ClStd::Cl12, &[]),
        "#ifdef __opencl_c_generic_address_space\nyes\n#endif\n",
    );
    assert_eq!(out, "");
}
