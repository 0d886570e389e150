//! Which declarations and element types exist in a language mode: clang's builtin lookup
//! checks that each extension macro of a declaration is defined, and drops element types
//! whose type extension (`cl_khr_fp16` for `half`, ...) is off.

use super::ty::Scalar;
use oclc_syntax::{ClStd, LangOptions};

/// Which element types are usable: clang's type extensions (`half` needs `cl_khr_fp16`, ...).
#[derive(Clone, Copy, Debug)]
pub(super) struct TypeAvail {
    pub fp16: bool,
    pub fp64: bool,
    pub int64_atomics: bool,
    pub image3d_writes: bool,
}

/// Minimum OpenCL C version (`__OPENCL_C_VERSION__`) at which an extension's macro can be
/// defined (clang's `OpenCLExtensions.def` "avail" column).
fn ext_available_from(name: &str) -> u32 {
    match name {
        "cles_khr_int64" => 110,
        "cl_khr_depth_images"
        | "cl_khr_gl_msaa_sharing"
        | "cl_intel_subgroups"
        | "cl_intel_subgroups_short"
        | "cl_intel_device_side_avc_motion_estimation" => 120,
        "cl_ext_float_atomics"
        | "cl_khr_extended_bit_ops"
        | "cl_khr_integer_dot_product"
        | "cl_khr_kernel_clock"
        | "cl_khr_mipmap_image"
        | "cl_khr_mipmap_image_writes"
        | "cl_khr_srgb_image_writes"
        | "cl_khr_subgroups" => 200,
        n if n.starts_with("cl_khr_subgroup_") => 200,
        _ => 100,
    }
}

/// Whether the macro `name` is defined in this mode, as clang's builtin lookup checks it
/// (`Preprocessor::isMacroDefined`), including the internal macros of `opencl-c-base.h`.
pub fn macro_defined(lang: &LangOptions, name: &str) -> bool {
    match name {
        "__opencl_c_named_address_space_builtins" => {
            !macro_defined(lang, "__opencl_c_generic_address_space")
        }
        "__opencl_subgroup_builtins" => {
            macro_defined(lang, "cl_intel_subgroups")
                || macro_defined(lang, "cl_khr_subgroups")
                || macro_defined(lang, "__opencl_c_subgroups")
        }
        "cl_khr_fp64" => lang.fp64(),
        "cl_khr_fp16" => lang.fp16(),
        // Optional core features of OpenCL C 2.0 that the spir target supports, so clang
        // defines them in CL2.0 too; `LangOptions` does not list them for 2.0.
        "__opencl_c_integer_dot_product_input_4x8bit"
        | "__opencl_c_integer_dot_product_input_4x8bit_packed"
        | "__opencl_c_kernel_clock_scope_device"
        | "__opencl_c_kernel_clock_scope_work_group"
        | "__opencl_c_kernel_clock_scope_sub_group"
            if lang.std == ClStd::Cl20 =>
        {
            true
        }
        // cl_ext_float_atomics' features: clang defines them with the extension from 2.0 on
        // (spir supports them all); `LangOptions` does not know them yet.
        n if n.starts_with("__opencl_c_ext_fp")
            && !oclc_syntax::lang::FEATURES.iter().any(|&(f, _)| f == n) =>
        {
            lang.std >= ClStd::Cl20 && lang.has("cl_ext_float_atomics")
        }
        // opencl-c-base.h defines OpenCL C 2.0's optional features in 2.0 whatever -cl-ext
        // says, and for SPIR these header-only features of 3.0 too.
        "__opencl_c_pipes"
        | "__opencl_c_generic_address_space"
        | "__opencl_c_atomic_order_acq_rel"
        | "__opencl_c_device_enqueue"
        | "__opencl_c_program_scope_global_variables"
        | "__opencl_c_images"
            if lang.std == ClStd::Cl20 =>
        {
            true
        }
        "__opencl_c_work_group_collective_functions"
        | "__opencl_c_atomic_order_seq_cst"
        | "__opencl_c_atomic_scope_device"
        | "__opencl_c_atomic_scope_all_devices"
        | "__opencl_c_read_write_images"
            if lang.std >= ClStd::Cl20 =>
        {
            true
        }
        // opencl-c-base.h defines it for SPIR from 2.0 on (not a `LangOptions` extension).
        "cl_khr_subgroup_rotate" => lang.std >= ClStd::Cl20,
        _ => lang.has(name) && lang.std.version() >= ext_available_from(name),
    }
}

pub(super) fn scalar_ok(a: TypeAvail, s: Scalar) -> bool {
    match s {
        Scalar::Half => a.fp16,
        Scalar::Double => a.fp64,
        _ => true,
    }
}
