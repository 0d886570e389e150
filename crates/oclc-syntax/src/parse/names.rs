//! OpenCL builtin type names that are not C keywords: clang gets them from its OpenCL headers
//! (`uint`, `float4`, `size_t`, `atomic_int`) or as builtin types (`image2d_t`, `sampler_t`).
//! The parser treats them as typedef names declared in the outermost scope, so an inner
//! declaration can still shadow one as in C.

use std::sync::OnceLock;

use super::core::NameKind;
use crate::intern::Symbol;

/// Scalar element types that have vector forms (`<name>2` ... `<name>16`).
const VECTOR_ELEMENTS: &[&str] = &[
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half",
];

/// Vector widths OpenCL C allows.
const VECTOR_WIDTHS: &[&str] = &["2", "3", "4", "8", "16"];

/// Every other builtin type name.
const OTHER_NAMES: &[&str] = &[
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    // Opaque types.
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image2d_depth_t",
    "image2d_array_depth_t",
    "image2d_msaa_t",
    "image2d_array_msaa_t",
    "image2d_msaa_depth_t",
    "image2d_array_msaa_depth_t",
    "image3d_t",
    "sampler_t",
    "event_t",
    "clk_event_t",
    "queue_t",
    "ndrange_t",
    "reserve_id_t",
    // Enums and typedefs of opencl-c-base.h.
    "cl_mem_fence_flags",
    "memory_order",
    "memory_scope",
    "kernel_enqueue_flags_t",
    "clk_profiling_info",
    // C11-style atomics.
    "atomic_int",
    "atomic_uint",
    "atomic_long",
    "atomic_ulong",
    "atomic_float",
    "atomic_double",
    "atomic_half",
    "atomic_intptr_t",
    "atomic_uintptr_t",
    "atomic_size_t",
    "atomic_ptrdiff_t",
    "atomic_flag",
    // cl_intel_device_side_avc_motion_estimation (only where the extension is: see
    // `is_avc_type_name`).
    "intel_sub_group_avc_mce_payload_t",
    "intel_sub_group_avc_ime_payload_t",
    "intel_sub_group_avc_ref_payload_t",
    "intel_sub_group_avc_sic_payload_t",
    "intel_sub_group_avc_mce_result_t",
    "intel_sub_group_avc_ime_result_t",
    "intel_sub_group_avc_ref_result_t",
    "intel_sub_group_avc_sic_result_t",
    "intel_sub_group_avc_ime_result_single_reference_streamout_t",
    "intel_sub_group_avc_ime_result_dual_reference_streamout_t",
    "intel_sub_group_avc_ime_single_reference_streamin_t",
    "intel_sub_group_avc_ime_dual_reference_streamin_t",
];

/// Whether `name` is one of the types of `cl_intel_device_side_avc_motion_estimation`, which
/// clang declares only where the extension is supported (OpenCL C 1.2 on).
pub(crate) fn is_avc_type_name(name: &str) -> bool {
    name.starts_with("intel_sub_group_avc_") && name.ends_with("_t")
}

/// Whether `name` is one of OpenCL C 2.0's builtin types or enumerators, which clang declares
/// from OpenCL C 2.0 on only: the device-enqueue and pipe types (`queue_t`, `clk_event_t`,
/// `ndrange_t`, `reserve_id_t`, `kernel_enqueue_flags_t`, `clk_profiling_info`), the C11
/// atomic typedefs, and `memory_order`/`memory_scope` with their enumerators.
pub(crate) fn is_cl20_name(name: &str) -> bool {
    matches!(
        name,
        "queue_t"
            | "clk_event_t"
            | "ndrange_t"
            | "reserve_id_t"
            | "kernel_enqueue_flags_t"
            | "clk_profiling_info"
            | "memory_order"
            | "memory_scope"
    ) || (name.starts_with("atomic_") && OTHER_NAMES.contains(&name))
        || is_builtin_value_name(name)
}

/// Enumeration constants of clang's OpenCL headers (`opencl-c-base.h`), which are names, not
/// macros, and so must count as declared.
const VALUE_NAMES: &[&str] = &[
    "memory_order_relaxed",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
    "memory_scope_work_item",
    "memory_scope_work_group",
    "memory_scope_device",
    "memory_scope_all_svm_devices",
    "memory_scope_all_devices",
    "memory_scope_sub_group",
];

/// Builtin value names, for seeding the parser's outermost scope.
pub fn builtin_value_names() -> &'static [Symbol] {
    static NAMES: OnceLock<Vec<Symbol>> = OnceLock::new();
    NAMES.get_or_init(|| VALUE_NAMES.iter().map(|s| Symbol::intern(s)).collect())
}

/// Every builtin type name, for seeding the parser's outermost scope (interned once).
pub fn builtin_type_names() -> &'static [Symbol] {
    static NAMES: OnceLock<Vec<Symbol>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut out: Vec<Symbol> = OTHER_NAMES.iter().map(|s| Symbol::intern(s)).collect();
        for e in VECTOR_ELEMENTS {
            for w in VECTOR_WIDTHS {
                out.push(Symbol::intern(&format!("{e}{w}")));
            }
        }
        out
    })
}

/// The builtin type and value names with their spellings (typo correction's candidates).
pub fn builtin_spellings() -> &'static [(Symbol, &'static str, NameKind)] {
    static NAMES: OnceLock<Vec<(Symbol, &'static str, NameKind)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let types = builtin_type_names().iter().map(|&s| (s, NameKind::Builtin));
        let values = builtin_value_names().iter().map(|&s| (s, NameKind::Value));
        types
            .chain(values)
            .map(|(s, k)| (s, s.as_str(), k))
            .collect()
    })
}

/// Whether `name` is an image type (a keyword in clang rather than a declared name).
pub(crate) fn is_image_type_name(name: &str) -> bool {
    name.starts_with("image") && name.ends_with("_t")
}

/// Whether `name` is an enumerator of clang's OpenCL headers ([`VALUE_NAMES`]).
pub(crate) fn is_builtin_value_name(name: &str) -> bool {
    VALUE_NAMES.contains(&name)
}

/// Whether `name` is an OpenCL builtin type name (see the module docs).
/// Whether `name` is a builtin vector type name (`float4`, `uchar16`, ...).
pub(crate) fn is_vector_type_name(name: &str) -> bool {
    VECTOR_ELEMENTS.iter().any(|e| {
        name.strip_prefix(e)
            .is_some_and(|w| VECTOR_WIDTHS.contains(&w))
    })
}

pub fn is_builtin_type_name(name: &str) -> bool {
    if OTHER_NAMES.contains(&name) {
        return true;
    }
    VECTOR_ELEMENTS.iter().any(|e| {
        name.strip_prefix(e)
            .is_some_and(|w| VECTOR_WIDTHS.contains(&w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognizes_names() {
        for n in [
            "uint",
            "float4",
            "uchar16",
            "half3",
            "image2d_t",
            "atomic_int",
            "size_t",
        ] {
            assert!(is_builtin_type_name(n), "{n}");
        }
        for n in ["int", "float5", "float1", "foo", "bool2", "image4d_t", ""] {
            assert!(!is_builtin_type_name(n), "{n}");
        }
        assert_eq!(builtin_type_names().len(), OTHER_NAMES.len() + 11 * 5);
    }
}
