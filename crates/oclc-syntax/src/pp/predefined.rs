//! Predefined macros: what clang's `InitPreprocessor.cpp` and the spir64 target define for
//! OpenCL C, plus the macros of the default header `opencl-c-base.h` (which the clang driver
//! includes with `-finclude-default-header`), per language mode.

use crate::fnv::hash as name_hash;
use crate::lang::{ClStd, LangOptions, Target};

/// First OpenCL C version (100, 110, ...) in which clang defines each extension or feature
/// macro (`OpenCLExtensions.def`, "avail").
fn available_from(name: &str) -> u32 {
    match name {
        "cles_khr_int64" => 110,
        "cl_khr_depth_images"
        | "cl_khr_gl_msaa_sharing"
        | "cl_intel_subgroups"
        | "cl_intel_subgroups_short"
        | "cl_intel_device_side_avc_motion_estimation" => 120,
        "__opencl_c_3d_image_writes" | "__opencl_c_fp64" | "__opencl_c_subgroups" => 300,
        n if n.starts_with("__opencl_c_") => 200,
        "cl_khr_mipmap_image"
        | "cl_khr_mipmap_image_writes"
        | "cl_khr_subgroups"
        | "cl_khr_extended_bit_ops"
        | "cl_khr_integer_dot_product"
        | "cl_khr_kernel_clock"
        | "cl_khr_srgb_image_writes"
        | "cl_ext_float_atomics" => 200,
        n if n.starts_with("cl_khr_subgroup_") => 200,
        _ => 100,
    }
}

/// Whether clang defines the macro for extension or feature `name` in this mode: enabled,
/// available in the version, and (fp64) consistent with its dependency as clang's
/// `setDependentOpenCLOpts` makes it.
fn ext_macro_defined(lang: &LangOptions, name: &str) -> bool {
    if !lang.has(name) || lang.std.version() < available_from(name) {
        return false;
    }
    if lang.std == ClStd::Cl30 && (name == "cl_khr_fp64" || name == "__opencl_c_fp64") {
        return lang.has("cl_khr_fp64") && lang.has("__opencl_c_fp64");
    }
    true
}

/// Object-like `#define` lines made at compile time, with each line's macro name and offset,
/// so that a run adds a block with one copy of its text; [`NAME_TABLE`] finds a name's line
/// in any block without anything built per line at run time.
pub(super) struct StaticDefines {
    /// The block's index in [`BLOCKS`].
    id: u8,
    text: &'static str,
    names: &'static [&'static str],
    /// Byte offset of each line in `text`.
    offsets: &'static [u32],
}

/// A [`StaticDefines`] with index `id` in [`BLOCKS`] from `(name, value)` pairs.
macro_rules! static_defines {
    ($id:expr; $(($n:literal, $v:literal $(,)?)),* $(,)?) => {{
        const NAMES: &[&str] = &[$($n),*];
        const LENS: &[u32] = &[$(("#define ".len() + $n.len() + 1 + $v.len() + 1) as u32),*];
        const OFFSETS: [u32; NAMES.len()] = line_offsets(LENS);
        StaticDefines {
            id: $id,
            text: concat!($("#define ", $n, " ", $v, "\n"),*),
            names: NAMES,
            offsets: &OFFSETS,
        }
    }};
}

/// Every compile-time block; a block's `id` is its index here.
const BLOCKS: [&StaticDefines; 12] = [
    &CORE_MACROS,
    &C_MACROS,
    &SPIR64_MACROS,
    &SPIR_MACROS,
    &VERSION_MACROS,
    &FLOAT_MACROS,
    &HALF_MACROS,
    &LIMIT_MACROS,
    &IMAGE_MACROS,
    &CHANNEL_ORDER_MACROS,
    &CL20_MACROS,
    &AVC_MACROS,
];

/// Lines in all of [`BLOCKS`].
const BLOCK_LINES: usize = {
    let mut n = 0;
    let mut b = 0;
    while b < BLOCKS.len() {
        n += BLOCKS[b].names.len();
        b += 1;
    }
    n
};

/// The names of every block's lines by open addressing on [`name_hash`] (linear probing, at
/// most half full): block id << 16 | line index + 1, 0 for an empty slot. A name may be in
/// several blocks (the spir and spir64 ones, of which a run adds one).
static NAME_TABLE: [u32; (2 * BLOCK_LINES + 1).next_power_of_two()] = name_table();

/// The line offsets for line lengths `lens`.
const fn line_offsets<const N: usize>(lens: &[u32]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut at = 0u32;
    let mut i = 0;
    while i < N && i < lens.len() {
        out[i] = at;
        at += lens[i];
        i += 1;
    }
    out
}

/// Builds [`NAME_TABLE`].
const fn name_table<const M: usize>() -> [u32; M] {
    let mut t = [0u32; M];
    let mut b = 0;
    while b < BLOCKS.len() {
        assert!(
            BLOCKS[b].id as usize == b,
            "a block's id is its index in BLOCKS"
        );
        let names = BLOCKS[b].names;
        assert!(
            names.len() < 0xffff,
            "a line index fits the table's low 16 bits"
        );
        let mut i = 0;
        while i < names.len() {
            let mut slot = name_hash(names[i].as_bytes()) as usize & (M - 1);
            while t[slot] != 0 {
                slot = (slot + 1) & (M - 1);
            }
            t[slot] = ((b as u32) << 16) | (i as u32 + 1);
            i += 1;
        }
        b += 1;
    }
    t
}

/// The compile-time line of macro `name` in a block that `base_of` gives the start of (the
/// block's offset in its virtual file; `None` for a block not added): `base_of`'s value and
/// the line's offset in that file.
pub(super) fn find_static<T>(
    name: &str,
    mut base_of: impl FnMut(u8) -> Option<(T, u32)>,
) -> Option<(T, u32)> {
    let mask = NAME_TABLE.len() - 1;
    let mut slot = name_hash(name.as_bytes()) as usize & mask;
    // The table is at most half full: an empty slot ends every probe.
    for _ in 0..NAME_TABLE.len() {
        let e = NAME_TABLE[slot];
        if e == 0 {
            return None;
        }
        let (id, i) = ((e >> 16) as u8, (e & 0xffff) as usize - 1);
        if let Some(b) = BLOCKS.get(usize::from(id))
            && b.names.get(i) == Some(&name)
            && let Some((t, base)) = base_of(id)
        {
            return Some((t, base + b.offsets.get(i).copied()?));
        }
        slot = (slot + 1) & mask;
    }
    None
}

/// `#define` lines being written, and where each macro's line starts, so the preprocessor
/// can parse a line only when its macro is first used.
pub(super) struct Defines {
    pub text: String,
    /// The compile-time blocks in `text` (their ids), each with the byte offset of its
    /// first line.
    pub blocks: Vec<(u8, u32)>,
    /// The lines written at run time: macro name (without parameters) and the byte offset
    /// of its line's `#`.
    pub lines: Vec<(&'static str, u32)>,
}

impl Defines {
    /// Room for the largest set (the `<built-in>` buffer: ~500 lines, ~20 KiB) up front.
    fn new() -> Defines {
        Defines {
            text: String::with_capacity(24 * 1024),
            blocks: Vec::with_capacity(8),
            lines: Vec::with_capacity(160),
        }
    }

    /// Appends a block of `#define` lines written at compile time: one copy of its text.
    fn block(&mut self, b: &StaticDefines) {
        self.blocks.push((b.id, self.text.len() as u32));
        self.text.push_str(b.text);
    }

    /// Appends `#define NAME VALUE`; `name` may carry a parameter list (`F(x)`).
    fn def(&mut self, name: &'static str, value: &str) {
        let bare = name.split('(').next().unwrap_or(name);
        self.lines.push((bare, self.text.len() as u32));
        let s = &mut self.text;
        s.push_str("#define ");
        s.push_str(name);
        s.push(' ');
        s.push_str(value);
        s.push('\n');
    }

    /// Every line's macro name and offset (blocks first, then the lines written at run time).
    #[cfg(test)]
    pub fn all_lines(&self) -> Vec<(&'static str, u32)> {
        let mut out = Vec::new();
        for &(id, base) in &self.blocks {
            let b = BLOCKS[usize::from(id)];
            for (&n, &off) in b.names.iter().zip(b.offsets) {
                out.push((n, base + off));
            }
        }
        out.extend_from_slice(&self.lines);
        out
    }
}

/// The core predefined macros (clang's `<built-in>` buffer), as `#define` lines.
pub fn builtin_text(lang: &LangOptions) -> String {
    builtin_defines(lang).text
}

/// [`builtin_text`] with the position of each macro's line.
pub(super) fn builtin_defines(lang: &LangOptions) -> Defines {
    let v = lang.std.version();
    let mut d = Defines::new();
    d.block(&CORE_MACROS);
    d.block(&C_MACROS);
    // clang -cc1 optimizes OpenCL by default (`-cl-opt-disable` is the way out).
    d.def("__OPTIMIZE__", "1");
    d.block(target_macros(lang.target));
    d.def("__OPENCL_C_VERSION__", &v.to_string());
    d.block(&VERSION_MACROS);
    let mut names: Vec<&str> = crate::lang::EXTENSIONS.to_vec();
    names.extend_from_slice(crate::lang::CLANG_EXTENSIONS);
    names.extend(crate::lang::FEATURES.iter().map(|&(f, _)| f));
    for name in names {
        if name != "__opencl_c_int64" && ext_macro_defined(lang, name) {
            d.def(name, "1");
        }
    }
    // clang's own extensions are supported on spir (their macros are defined) though off
    // until enabled by a pragma.
    for name in crate::lang::CLANG_EXTENSIONS {
        if *name != "__cl_clang_function_scope_local_variables" && !lang.has(name) {
            d.def(name, "1");
        }
    }
    // clang assumes the FULL profile: always defined.
    d.def("__opencl_c_int64", "1");
    d.def("__IMAGE_SUPPORT__", "1");
    d.def("__ELF__", "1");
    d.def("__SPIR", "1");
    d.def("__SPIR__", "1");
    match lang.target {
        Target::Spir => {
            d.def("__SPIR32", "1");
            d.def("__SPIR32__", "1");
        }
        Target::Spir64 => {
            d.def("__SPIR64", "1");
            d.def("__SPIR64__", "1");
        }
    }
    d
}

/// The macros that depend on the pointer width (clang's `SPIR32TargetInfo` and
/// `SPIR64TargetInfo`: `size_t` is `unsigned int` on spir, `unsigned long` on spir64).
fn target_macros(target: Target) -> &'static StaticDefines {
    match target {
        Target::Spir64 => &SPIR64_MACROS,
        Target::Spir => &SPIR_MACROS,
    }
}

/// [`target_macros`] of spir64; clang defines `_LP64` where pointers and `long` are 64-bit
/// (`long` is 64-bit on both targets in OpenCL, so `_ILP32` is never defined).
const SPIR64_MACROS: StaticDefines = static_defines![
    2;
    ("__SIZE_MAX__", "18446744073709551615UL"),
    ("__SIZE_WIDTH__", "64"),
    ("__PTRDIFF_MAX__", "9223372036854775807L"),
    ("__PTRDIFF_WIDTH__", "64"),
    ("__INTPTR_MAX__", "9223372036854775807L"),
    ("__INTPTR_WIDTH__", "64"),
    ("__UINTPTR_MAX__", "18446744073709551615UL"),
    ("__UINTPTR_WIDTH__", "64"),
    ("__SIZEOF_POINTER__", "8"),
    ("__SIZEOF_PTRDIFF_T__", "8"),
    ("__SIZEOF_SIZE_T__", "8"),
    ("__INTPTR_TYPE__", "long int"),
    ("__UINTPTR_TYPE__", "long unsigned int"),
    ("__SIZE_TYPE__", "long unsigned int"),
    ("__PTRDIFF_TYPE__", "long int"),
    ("__POINTER_WIDTH__", "64"),
    ("__INTPTR_FMTd__", "\"ld\""),
    ("__INTPTR_FMTi__", "\"li\""),
    ("__PTRDIFF_FMTd__", "\"ld\""),
    ("__PTRDIFF_FMTi__", "\"li\""),
    ("__SIZE_FMTX__", "\"lX\""),
    ("__SIZE_FMTo__", "\"lo\""),
    ("__SIZE_FMTu__", "\"lu\""),
    ("__SIZE_FMTx__", "\"lx\""),
    ("__UINTPTR_FMTX__", "\"lX\""),
    ("__UINTPTR_FMTo__", "\"lo\""),
    ("__UINTPTR_FMTu__", "\"lu\""),
    ("__UINTPTR_FMTx__", "\"lx\""),
    ("_LP64", "1"),
    ("__LP64__", "1"),
];

/// [`target_macros`] of spir.
const SPIR_MACROS: StaticDefines = static_defines![
    3;
    ("__SIZE_MAX__", "4294967295U"),
    ("__SIZE_WIDTH__", "32"),
    ("__PTRDIFF_MAX__", "2147483647"),
    ("__PTRDIFF_WIDTH__", "32"),
    ("__INTPTR_MAX__", "2147483647"),
    ("__INTPTR_WIDTH__", "32"),
    ("__UINTPTR_MAX__", "4294967295U"),
    ("__UINTPTR_WIDTH__", "32"),
    ("__SIZEOF_POINTER__", "4"),
    ("__SIZEOF_PTRDIFF_T__", "4"),
    ("__SIZEOF_SIZE_T__", "4"),
    ("__INTPTR_TYPE__", "int"),
    ("__UINTPTR_TYPE__", "unsigned int"),
    ("__SIZE_TYPE__", "unsigned int"),
    ("__PTRDIFF_TYPE__", "int"),
    ("__POINTER_WIDTH__", "32"),
    ("__INTPTR_FMTd__", "\"d\""),
    ("__INTPTR_FMTi__", "\"i\""),
    ("__PTRDIFF_FMTd__", "\"d\""),
    ("__PTRDIFF_FMTi__", "\"i\""),
    ("__SIZE_FMTX__", "\"X\""),
    ("__SIZE_FMTo__", "\"o\""),
    ("__SIZE_FMTu__", "\"u\""),
    ("__SIZE_FMTx__", "\"x\""),
    ("__UINTPTR_FMTX__", "\"X\""),
    ("__UINTPTR_FMTo__", "\"o\""),
    ("__UINTPTR_FMTu__", "\"u\""),
    ("__UINTPTR_FMTx__", "\"x\""),
];

/// The macros of clang's default header `opencl-c-base.h` for this mode, as `#define` lines.
pub fn default_header_text(lang: &LangOptions) -> String {
    default_header_defines(lang).text
}

/// [`default_header_text`] with the position of each macro's line.
pub(super) fn default_header_defines(lang: &LangOptions) -> Defines {
    let v = lang.std.version();
    let defined = |n: &str| n == "__opencl_c_int64" || ext_macro_defined(lang, n);
    let mut d = Defines::new();
    // The headers' include guards and opencl-c.h's attribute shorthands.
    d.def("_OPENCL_BASE_H_", "");
    d.def("_OPENCL_H_", "");
    d.def("__conv", "__attribute__((convergent))");
    d.def("__purefn", "__attribute__((pure))");
    if v >= 200 {
        // opencl-c-base.h's extension and feature macros for SPIR from OpenCL C 2.0 on
        // (the rest are `LangOptions` extensions or features).
        d.def("cl_khr_subgroup_rotate", "1");
        for f in [
            "__opencl_c_integer_dot_product_input_4x8bit",
            "__opencl_c_integer_dot_product_input_4x8bit_packed",
            "__opencl_c_kernel_clock_scope_device",
            "__opencl_c_kernel_clock_scope_work_group",
            "__opencl_c_kernel_clock_scope_sub_group",
        ] {
            if !defined(f) {
                d.def(f, "1");
            }
        }
        if defined("cl_ext_float_atomics") {
            let mut precs = vec!["fp32"];
            if defined("cl_khr_fp16") {
                for n in [
                    "__opencl_c_ext_fp16_global_atomic_load_store",
                    "__opencl_c_ext_fp16_local_atomic_load_store",
                ] {
                    d.def(n, "1");
                }
                precs.push("fp16");
            }
            if defined("cl_khr_fp64") {
                precs.push("fp64");
            }
            for p in precs {
                for (n, x) in FLOAT_ATOMIC_FEATURES {
                    if *n == p {
                        d.def(x[0], "1");
                        d.def(x[1], "1");
                        d.def(x[2], "1");
                        d.def(x[3], "1");
                    }
                }
            }
        }
        d.def("__opencl_c_ext_image_raw10_raw12", "1");
    }
    if !defined("__opencl_c_generic_address_space") {
        d.def("__opencl_c_named_address_space_builtins", "1");
    }
    if defined("cl_intel_subgroups")
        || defined("cl_khr_subgroups")
        || defined("__opencl_c_subgroups")
    {
        d.def("__opencl_subgroup_builtins", "1");
    }
    if defined("cl_khr_depth_images") || v >= 200 {
        d.def("__opencl_depth_image_builtins", "1");
    }
    d.def("__half", "half");
    d.def("NULL", "((void*)0)");
    d.def("MAXFLOAT", "0x1.fffffep127f");
    d.def("HUGE_VALF", "(__builtin_huge_valf())");
    d.def("HUGE_VAL", "(__builtin_huge_val())");
    d.def("INFINITY", "(__builtin_inff())");
    d.def("NAN", "as_float(INT_MAX)");
    d.def("FP_ILOGB0", "INT_MIN");
    d.def("FP_ILOGBNAN", "INT_MAX");
    d.block(&FLOAT_MACROS);
    if defined("cl_khr_fp16") {
        d.block(&HALF_MACROS);
    }
    d.block(&LIMIT_MACROS);
    d.def("CLK_LOCAL_MEM_FENCE", "0x01");
    d.def("CLK_GLOBAL_MEM_FENCE", "0x02");
    if v >= 200 {
        d.def("CLK_IMAGE_MEM_FENCE", "0x04");
        d.def("ATOMIC_VAR_INIT(x)", "(x)");
        d.def("ATOMIC_FLAG_INIT", "0");
    }
    d.block(&IMAGE_MACROS);
    if v >= 300 {
        d.def("CLK_UNORM_INT_101010_2", "0x10E0");
    }
    if defined("__opencl_c_ext_image_unorm_int_2_101010") {
        d.def("CLK_UNORM_INT_2_101010_EXT", "0x10E5");
    }
    if defined("__opencl_c_ext_image_unsigned_10x6_12x4_14x2") {
        for (n, val) in [
            ("CLK_UNSIGNED_INT10X6_EXT", "0x10E6"),
            ("CLK_UNSIGNED_INT12X4_EXT", "0x10E7"),
            ("CLK_UNSIGNED_INT14X2_EXT", "0x10E8"),
            ("CLK_UNORM_10X6_EXT", "0x10E1"),
            ("CLK_UNORM_12X4_EXT", "0x10E9"),
            ("CLK_UNORM_14X2_EXT", "0x10EA"),
        ] {
            d.def(n, val);
        }
    }
    if v >= 200 {
        d.def("CLK_UNSIGNED_INT_RAW10_EXT", "0x10E3");
        d.def("CLK_UNSIGNED_INT_RAW12_EXT", "0x10E4");
    }
    d.block(&CHANNEL_ORDER_MACROS);
    if v >= 200 {
        d.block(&CL20_MACROS);
    }
    d.def(
        "__kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))",
    );
    d.def(
        "kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))",
    );
    if defined("cl_intel_device_side_avc_motion_estimation") {
        d.block(&AVC_MACROS);
    }
    d
}

/// cl_ext_float_atomics' add and min/max feature macros, by precision.
const FLOAT_ATOMIC_FEATURES: &[(&str, [&str; 4])] = &[
    (
        "fp16",
        [
            "__opencl_c_ext_fp16_global_atomic_add",
            "__opencl_c_ext_fp16_local_atomic_add",
            "__opencl_c_ext_fp16_global_atomic_min_max",
            "__opencl_c_ext_fp16_local_atomic_min_max",
        ],
    ),
    (
        "fp64",
        [
            "__opencl_c_ext_fp64_global_atomic_add",
            "__opencl_c_ext_fp64_local_atomic_add",
            "__opencl_c_ext_fp64_global_atomic_min_max",
            "__opencl_c_ext_fp64_local_atomic_min_max",
        ],
    ),
    (
        "fp32",
        [
            "__opencl_c_ext_fp32_global_atomic_add",
            "__opencl_c_ext_fp32_local_atomic_add",
            "__opencl_c_ext_fp32_global_atomic_min_max",
            "__opencl_c_ext_fp32_local_atomic_min_max",
        ],
    ),
];

/// The start of clang's `<built-in>` buffer: the compiler, atomics, floating-point classes,
/// type sizes and limits (the same in every mode).
const CORE_MACROS: StaticDefines = static_defines![
    0;
    ("__llvm__", "1"),
    ("__clang__", "1"),
    ("__clang_major__", "19"),
    ("__clang_minor__", "1"),
    ("__clang_patchlevel__", "0"),
    ("__clang_version__", "\"19.1.0 \""),
    ("__ATOMIC_RELAXED", "0"),
    ("__ATOMIC_CONSUME", "1"),
    ("__ATOMIC_ACQUIRE", "2"),
    ("__ATOMIC_RELEASE", "3"),
    ("__ATOMIC_ACQ_REL", "4"),
    ("__ATOMIC_SEQ_CST", "5"),
    ("__MEMORY_SCOPE_SYSTEM", "0"),
    ("__MEMORY_SCOPE_DEVICE", "1"),
    ("__MEMORY_SCOPE_WRKGRP", "2"),
    ("__MEMORY_SCOPE_WVFRNT", "3"),
    ("__MEMORY_SCOPE_SINGLE", "4"),
    ("__OPENCL_MEMORY_SCOPE_WORK_ITEM", "0"),
    ("__OPENCL_MEMORY_SCOPE_WORK_GROUP", "1"),
    ("__OPENCL_MEMORY_SCOPE_DEVICE", "2"),
    ("__OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES", "3"),
    ("__OPENCL_MEMORY_SCOPE_SUB_GROUP", "4"),
    ("__FPCLASS_SNAN", "0x0001"),
    ("__FPCLASS_QNAN", "0x0002"),
    ("__FPCLASS_NEGINF", "0x0004"),
    ("__FPCLASS_NEGNORMAL", "0x0008"),
    ("__FPCLASS_NEGSUBNORMAL", "0x0010"),
    ("__FPCLASS_NEGZERO", "0x0020"),
    ("__FPCLASS_POSZERO", "0x0040"),
    ("__FPCLASS_POSSUBNORMAL", "0x0080"),
    ("__FPCLASS_POSNORMAL", "0x0100"),
    ("__FPCLASS_POSINF", "0x0200"),
    ("__PRAGMA_REDEFINE_EXTNAME", "1"),
    ("__VERSION__", "\"Clang 19.1.0\""),
    ("__STRICT_ANSI__", "1"),
    ("__OBJC_BOOL_IS_BOOL", "0"),
    ("__CONSTANT_CFSTRINGS__", "1"),
    ("__clang_literal_encoding__", "\"UTF-8\""),
    ("__clang_wide_literal_encoding__", "\"UTF-32\""),
    ("__ORDER_LITTLE_ENDIAN__", "1234"),
    ("__ORDER_BIG_ENDIAN__", "4321"),
    ("__ORDER_PDP_ENDIAN__", "3412"),
    ("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__"),
    ("__LITTLE_ENDIAN__", "1"),
    ("__CHAR_BIT__", "8"),
    ("__BOOL_WIDTH__", "8"),
    ("__SHRT_WIDTH__", "16"),
    ("__INT_WIDTH__", "32"),
    ("__LONG_WIDTH__", "64"),
    ("__LLONG_WIDTH__", "64"),
    ("__SCHAR_MAX__", "127"),
    ("__SHRT_MAX__", "32767"),
    ("__INT_MAX__", "2147483647"),
    ("__LONG_MAX__", "9223372036854775807L"),
    ("__LONG_LONG_MAX__", "9223372036854775807LL"),
    ("__INTMAX_MAX__", "9223372036854775807L"),
    ("__INTMAX_WIDTH__", "64"),
    ("__UINTMAX_MAX__", "18446744073709551615UL"),
    ("__UINTMAX_WIDTH__", "64"),
    ("__SIZEOF_DOUBLE__", "8"),
    ("__SIZEOF_FLOAT__", "4"),
    ("__SIZEOF_INT__", "4"),
    ("__SIZEOF_LONG__", "8"),
    ("__SIZEOF_LONG_LONG__", "8"),
    ("__SIZEOF_SHORT__", "2"),
    ("__INTMAX_TYPE__", "long int"),
    ("__UINTMAX_TYPE__", "long unsigned int"),
    ("__FLT_RADIX__", "2"),
    ("__FINITE_MATH_ONLY__", "0"),
    ("__NO_MATH_ERRNO__", "1"),
    ("__USER_LABEL_PREFIX__", ""),
    ("__STDC__", "1"),
    ("__STDC_HOSTED__", "1"),
    ("__STDC_VERSION__", "199901L"),
    ("__STDC_UTF_16__", "1"),
    ("__STDC_UTF_32__", "1"),
];

/// The OpenCL versions and the byte order (after `__OPENCL_C_VERSION__`).
const VERSION_MACROS: StaticDefines = static_defines![
    4;
    ("CL_VERSION_1_0", "100"),
    ("CL_VERSION_1_1", "110"),
    ("CL_VERSION_1_2", "120"),
    ("CL_VERSION_2_0", "200"),
    ("CL_VERSION_3_0", "300"),
    ("__ENDIAN_LITTLE__", "1"),
];

/// clang-19's generic C macros (`InitPreprocessor.cpp` for the spir targets) that do not
/// depend on the pointer width, with clang's values, as `#define` lines written at compile
/// time (a few hundred lines no run should have to build).
const C_MACROS: StaticDefines = static_defines![
    1;
    ("__BIGGEST_ALIGNMENT__", "8"),
    ("__BITINT_MAXWIDTH__", "128"),
    ("__CHAR16_TYPE__", "unsigned short"),
    ("__CHAR32_TYPE__", "unsigned int"),
    ("__CLANG_ATOMIC_BOOL_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_CHAR16_T_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_CHAR32_T_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_CHAR_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_INT_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_LLONG_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_LONG_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_POINTER_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_SHORT_LOCK_FREE", "1"),
    ("__CLANG_ATOMIC_WCHAR_T_LOCK_FREE", "1"),
    ("__DBL_DECIMAL_DIG__", "17"),
    ("__DBL_DENORM_MIN__", "4.9406564584124654e-324"),
    ("__DBL_DIG__", "15"),
    ("__DBL_EPSILON__", "2.2204460492503131e-16"),
    ("__DBL_HAS_DENORM__", "1"),
    ("__DBL_HAS_INFINITY__", "1"),
    ("__DBL_HAS_QUIET_NAN__", "1"),
    ("__DBL_MANT_DIG__", "53"),
    ("__DBL_MAX_10_EXP__", "308"),
    ("__DBL_MAX_EXP__", "1024"),
    ("__DBL_MAX__", "1.7976931348623157e+308"),
    ("__DBL_MIN_10_EXP__", "(-307)"),
    ("__DBL_MIN_EXP__", "(-1021)"),
    ("__DBL_MIN__", "2.2250738585072014e-308"),
    ("__DBL_NORM_MAX__", "1.7976931348623157e+308"),
    ("__DECIMAL_DIG__", "__LDBL_DECIMAL_DIG__"),
    ("__FLT16_DECIMAL_DIG__", "5"),
    ("__FLT16_DENORM_MIN__", "5.9604644775390625e-8F16"),
    ("__FLT16_DIG__", "3"),
    ("__FLT16_EPSILON__", "9.765625e-4F16"),
    ("__FLT16_HAS_DENORM__", "1"),
    ("__FLT16_HAS_INFINITY__", "1"),
    ("__FLT16_HAS_QUIET_NAN__", "1"),
    ("__FLT16_MANT_DIG__", "11"),
    ("__FLT16_MAX_10_EXP__", "4"),
    ("__FLT16_MAX_EXP__", "16"),
    ("__FLT16_MAX__", "6.5504e+4F16"),
    ("__FLT16_MIN_10_EXP__", "(-4)"),
    ("__FLT16_MIN_EXP__", "(-13)"),
    ("__FLT16_MIN__", "6.103515625e-5F16"),
    ("__FLT16_NORM_MAX__", "6.5504e+4F16"),
    ("__FLT_DECIMAL_DIG__", "9"),
    ("__FLT_DENORM_MIN__", "1.40129846e-45F"),
    ("__FLT_DIG__", "6"),
    ("__FLT_EPSILON__", "1.19209290e-7F"),
    ("__FLT_HAS_DENORM__", "1"),
    ("__FLT_HAS_INFINITY__", "1"),
    ("__FLT_HAS_QUIET_NAN__", "1"),
    ("__FLT_MANT_DIG__", "24"),
    ("__FLT_MAX_10_EXP__", "38"),
    ("__FLT_MAX_EXP__", "128"),
    ("__FLT_MAX__", "3.40282347e+38F"),
    ("__FLT_MIN_10_EXP__", "(-37)"),
    ("__FLT_MIN_EXP__", "(-125)"),
    ("__FLT_MIN__", "1.17549435e-38F"),
    ("__FLT_NORM_MAX__", "3.40282347e+38F"),
    ("__GCC_CONSTRUCTIVE_SIZE", "64"),
    ("__GCC_DESTRUCTIVE_SIZE", "64"),
    ("__INT128_C_SUFFIX__", "LL"),
    ("__INT128_FMTd__", "\"lld\""),
    ("__INT128_FMTi__", "\"lli\""),
    (
        "__INT128_MAX__",
        "170141183460469231731687303715884105727LL",
    ),
    ("__INT128_TYPE__", "long long int"),
    ("__INT16_C_SUFFIX__", ""),
    ("__INT16_FMTd__", "\"hd\""),
    ("__INT16_FMTi__", "\"hi\""),
    ("__INT16_MAX__", "32767"),
    ("__INT16_TYPE__", "short"),
    ("__INT32_C_SUFFIX__", ""),
    ("__INT32_FMTd__", "\"d\""),
    ("__INT32_FMTi__", "\"i\""),
    ("__INT32_MAX__", "2147483647"),
    ("__INT32_TYPE__", "int"),
    ("__INT64_C_SUFFIX__", "L"),
    ("__INT64_FMTd__", "\"ld\""),
    ("__INT64_FMTi__", "\"li\""),
    ("__INT64_MAX__", "9223372036854775807L"),
    ("__INT64_TYPE__", "long int"),
    ("__INT8_C_SUFFIX__", ""),
    ("__INT8_FMTd__", "\"hhd\""),
    ("__INT8_FMTi__", "\"hhi\""),
    ("__INT8_MAX__", "127"),
    ("__INT8_TYPE__", "signed char"),
    ("__INTMAX_C_SUFFIX__", "LL"),
    ("__INTMAX_FMTd__", "\"lld\""),
    ("__INTMAX_FMTi__", "\"lli\""),
    ("__INT_FAST16_FMTd__", "\"hd\""),
    ("__INT_FAST16_FMTi__", "\"hi\""),
    ("__INT_FAST16_MAX__", "32767"),
    ("__INT_FAST16_TYPE__", "short"),
    ("__INT_FAST16_WIDTH__", "16"),
    ("__INT_FAST32_FMTd__", "\"d\""),
    ("__INT_FAST32_FMTi__", "\"i\""),
    ("__INT_FAST32_MAX__", "2147483647"),
    ("__INT_FAST32_TYPE__", "int"),
    ("__INT_FAST32_WIDTH__", "32"),
    ("__INT_FAST64_FMTd__", "\"ld\""),
    ("__INT_FAST64_FMTi__", "\"li\""),
    ("__INT_FAST64_MAX__", "9223372036854775807L"),
    ("__INT_FAST64_TYPE__", "long int"),
    ("__INT_FAST64_WIDTH__", "64"),
    ("__INT_FAST8_FMTd__", "\"hhd\""),
    ("__INT_FAST8_FMTi__", "\"hhi\""),
    ("__INT_FAST8_MAX__", "127"),
    ("__INT_FAST8_TYPE__", "signed char"),
    ("__INT_FAST8_WIDTH__", "8"),
    ("__INT_LEAST16_FMTd__", "\"hd\""),
    ("__INT_LEAST16_FMTi__", "\"hi\""),
    ("__INT_LEAST16_MAX__", "32767"),
    ("__INT_LEAST16_TYPE__", "short"),
    ("__INT_LEAST16_WIDTH__", "16"),
    ("__INT_LEAST32_FMTd__", "\"d\""),
    ("__INT_LEAST32_FMTi__", "\"i\""),
    ("__INT_LEAST32_MAX__", "2147483647"),
    ("__INT_LEAST32_TYPE__", "int"),
    ("__INT_LEAST32_WIDTH__", "32"),
    ("__INT_LEAST64_FMTd__", "\"ld\""),
    ("__INT_LEAST64_FMTi__", "\"li\""),
    ("__INT_LEAST64_MAX__", "9223372036854775807L"),
    ("__INT_LEAST64_TYPE__", "long int"),
    ("__INT_LEAST64_WIDTH__", "64"),
    ("__INT_LEAST8_FMTd__", "\"hhd\""),
    ("__INT_LEAST8_FMTi__", "\"hhi\""),
    ("__INT_LEAST8_MAX__", "127"),
    ("__INT_LEAST8_TYPE__", "signed char"),
    ("__INT_LEAST8_WIDTH__", "8"),
    ("__LDBL_DECIMAL_DIG__", "36"),
    (
        "__LDBL_DENORM_MIN__",
        "6.47517511943802511092443895822764655e-4966L",
    ),
    ("__LDBL_DIG__", "33"),
    (
        "__LDBL_EPSILON__",
        "1.92592994438723585305597794258492732e-34L",
    ),
    ("__LDBL_HAS_DENORM__", "1"),
    ("__LDBL_HAS_INFINITY__", "1"),
    ("__LDBL_HAS_QUIET_NAN__", "1"),
    ("__LDBL_MANT_DIG__", "113"),
    ("__LDBL_MAX_10_EXP__", "4932"),
    ("__LDBL_MAX_EXP__", "16384"),
    (
        "__LDBL_MAX__",
        "1.18973149535723176508575932662800702e+4932L",
    ),
    ("__LDBL_MIN_10_EXP__", "(-4931)"),
    ("__LDBL_MIN_EXP__", "(-16381)"),
    (
        "__LDBL_MIN__",
        "3.36210314311209350626267781732175260e-4932L",
    ),
    (
        "__LDBL_NORM_MAX__",
        "1.18973149535723176508575932662800702e+4932L",
    ),
    ("__SIG_ATOMIC_MAX__", "2147483647"),
    ("__SIG_ATOMIC_WIDTH__", "32"),
    ("__SIZEOF_LONG_DOUBLE__", "16"),
    ("__SIZEOF_WCHAR_T__", "4"),
    ("__SIZEOF_WINT_T__", "4"),
    ("__STDC_EMBED_EMPTY__", "2"),
    ("__STDC_EMBED_FOUND__", "1"),
    ("__STDC_EMBED_NOT_FOUND__", "0"),
    ("__UINT128_C_SUFFIX__", "ULL"),
    ("__UINT128_FMTX__", "\"llX\""),
    ("__UINT128_FMTo__", "\"llo\""),
    ("__UINT128_FMTu__", "\"llu\""),
    ("__UINT128_FMTx__", "\"llx\""),
    (
        "__UINT128_MAX__",
        "340282366920938463463374607431768211455ULL",
    ),
    ("__UINT128_TYPE__", "long long unsigned int"),
    ("__UINT16_C_SUFFIX__", ""),
    ("__UINT16_FMTX__", "\"hX\""),
    ("__UINT16_FMTo__", "\"ho\""),
    ("__UINT16_FMTu__", "\"hu\""),
    ("__UINT16_FMTx__", "\"hx\""),
    ("__UINT16_MAX__", "65535"),
    ("__UINT16_TYPE__", "unsigned short"),
    ("__UINT32_C_SUFFIX__", "U"),
    ("__UINT32_FMTX__", "\"X\""),
    ("__UINT32_FMTo__", "\"o\""),
    ("__UINT32_FMTu__", "\"u\""),
    ("__UINT32_FMTx__", "\"x\""),
    ("__UINT32_MAX__", "4294967295U"),
    ("__UINT32_TYPE__", "unsigned int"),
    ("__UINT64_C_SUFFIX__", "UL"),
    ("__UINT64_FMTX__", "\"lX\""),
    ("__UINT64_FMTo__", "\"lo\""),
    ("__UINT64_FMTu__", "\"lu\""),
    ("__UINT64_FMTx__", "\"lx\""),
    ("__UINT64_MAX__", "18446744073709551615UL"),
    ("__UINT64_TYPE__", "long unsigned int"),
    ("__UINT8_C_SUFFIX__", ""),
    ("__UINT8_FMTX__", "\"hhX\""),
    ("__UINT8_FMTo__", "\"hho\""),
    ("__UINT8_FMTu__", "\"hhu\""),
    ("__UINT8_FMTx__", "\"hhx\""),
    ("__UINT8_MAX__", "255"),
    ("__UINT8_TYPE__", "unsigned char"),
    ("__UINTMAX_C_SUFFIX__", "ULL"),
    ("__UINTMAX_FMTX__", "\"llX\""),
    ("__UINTMAX_FMTo__", "\"llo\""),
    ("__UINTMAX_FMTu__", "\"llu\""),
    ("__UINTMAX_FMTx__", "\"llx\""),
    ("__UINT_FAST16_FMTX__", "\"hX\""),
    ("__UINT_FAST16_FMTo__", "\"ho\""),
    ("__UINT_FAST16_FMTu__", "\"hu\""),
    ("__UINT_FAST16_FMTx__", "\"hx\""),
    ("__UINT_FAST16_MAX__", "65535"),
    ("__UINT_FAST16_TYPE__", "unsigned short"),
    ("__UINT_FAST32_FMTX__", "\"X\""),
    ("__UINT_FAST32_FMTo__", "\"o\""),
    ("__UINT_FAST32_FMTu__", "\"u\""),
    ("__UINT_FAST32_FMTx__", "\"x\""),
    ("__UINT_FAST32_MAX__", "4294967295U"),
    ("__UINT_FAST32_TYPE__", "unsigned int"),
    ("__UINT_FAST64_FMTX__", "\"lX\""),
    ("__UINT_FAST64_FMTo__", "\"lo\""),
    ("__UINT_FAST64_FMTu__", "\"lu\""),
    ("__UINT_FAST64_FMTx__", "\"lx\""),
    ("__UINT_FAST64_MAX__", "18446744073709551615UL"),
    ("__UINT_FAST64_TYPE__", "long unsigned int"),
    ("__UINT_FAST8_FMTX__", "\"hhX\""),
    ("__UINT_FAST8_FMTo__", "\"hho\""),
    ("__UINT_FAST8_FMTu__", "\"hhu\""),
    ("__UINT_FAST8_FMTx__", "\"hhx\""),
    ("__UINT_FAST8_MAX__", "255"),
    ("__UINT_FAST8_TYPE__", "unsigned char"),
    ("__UINT_LEAST16_FMTX__", "\"hX\""),
    ("__UINT_LEAST16_FMTo__", "\"ho\""),
    ("__UINT_LEAST16_FMTu__", "\"hu\""),
    ("__UINT_LEAST16_FMTx__", "\"hx\""),
    ("__UINT_LEAST16_MAX__", "65535"),
    ("__UINT_LEAST16_TYPE__", "unsigned short"),
    ("__UINT_LEAST32_FMTX__", "\"X\""),
    ("__UINT_LEAST32_FMTo__", "\"o\""),
    ("__UINT_LEAST32_FMTu__", "\"u\""),
    ("__UINT_LEAST32_FMTx__", "\"x\""),
    ("__UINT_LEAST32_MAX__", "4294967295U"),
    ("__UINT_LEAST32_TYPE__", "unsigned int"),
    ("__UINT_LEAST64_FMTX__", "\"lX\""),
    ("__UINT_LEAST64_FMTo__", "\"lo\""),
    ("__UINT_LEAST64_FMTu__", "\"lu\""),
    ("__UINT_LEAST64_FMTx__", "\"lx\""),
    ("__UINT_LEAST64_MAX__", "18446744073709551615UL"),
    ("__UINT_LEAST64_TYPE__", "long unsigned int"),
    ("__UINT_LEAST8_FMTX__", "\"hhX\""),
    ("__UINT_LEAST8_FMTo__", "\"hho\""),
    ("__UINT_LEAST8_FMTu__", "\"hhu\""),
    ("__UINT_LEAST8_FMTx__", "\"hhx\""),
    ("__UINT_LEAST8_MAX__", "255"),
    ("__UINT_LEAST8_TYPE__", "unsigned char"),
    ("__WCHAR_MAX__", "2147483647"),
    ("__WCHAR_TYPE__", "int"),
    ("__WCHAR_WIDTH__", "32"),
    ("__WINT_MAX__", "2147483647"),
    ("__WINT_TYPE__", "int"),
    ("__WINT_WIDTH__", "32"),
];

/// The macros of `cl_intel_device_side_avc_motion_estimation` in clang-19's
/// `opencl-c-base.h`, in its order.
const AVC_MACROS: StaticDefines = static_defines![
    11;
    ("CLK_AVC_ME_MAJOR_16x16_INTEL", "0x0"),
    ("CLK_AVC_ME_MAJOR_16x8_INTEL", "0x1"),
    ("CLK_AVC_ME_MAJOR_8x16_INTEL", "0x2"),
    ("CLK_AVC_ME_MAJOR_8x8_INTEL", "0x3"),
    ("CLK_AVC_ME_MINOR_8x8_INTEL", "0x0"),
    ("CLK_AVC_ME_MINOR_8x4_INTEL", "0x1"),
    ("CLK_AVC_ME_MINOR_4x8_INTEL", "0x2"),
    ("CLK_AVC_ME_MINOR_4x4_INTEL", "0x3"),
    ("CLK_AVC_ME_MAJOR_FORWARD_INTEL", "0x0"),
    ("CLK_AVC_ME_MAJOR_BACKWARD_INTEL", "0x1"),
    ("CLK_AVC_ME_MAJOR_BIDIRECTIONAL_INTEL", "0x2"),
    ("CLK_AVC_ME_PARTITION_MASK_ALL_INTEL", "0x0"),
    ("CLK_AVC_ME_PARTITION_MASK_16x16_INTEL", "0x7E"),
    ("CLK_AVC_ME_PARTITION_MASK_16x8_INTEL", "0x7D"),
    ("CLK_AVC_ME_PARTITION_MASK_8x16_INTEL", "0x7B"),
    ("CLK_AVC_ME_PARTITION_MASK_8x8_INTEL", "0x77"),
    ("CLK_AVC_ME_PARTITION_MASK_8x4_INTEL", "0x6F"),
    ("CLK_AVC_ME_PARTITION_MASK_4x8_INTEL", "0x5F"),
    ("CLK_AVC_ME_PARTITION_MASK_4x4_INTEL", "0x3F"),
    ("CLK_AVC_ME_SLICE_TYPE_PRED_INTEL", "0x0"),
    ("CLK_AVC_ME_SLICE_TYPE_BPRED_INTEL", "0x1"),
    ("CLK_AVC_ME_SLICE_TYPE_INTRA_INTEL", "0x2"),
    ("CLK_AVC_ME_SEARCH_WINDOW_EXHAUSTIVE_INTEL", "0x0"),
    ("CLK_AVC_ME_SEARCH_WINDOW_SMALL_INTEL", "0x1"),
    ("CLK_AVC_ME_SEARCH_WINDOW_TINY_INTEL", "0x2"),
    ("CLK_AVC_ME_SEARCH_WINDOW_EXTRA_TINY_INTEL", "0x3"),
    ("CLK_AVC_ME_SEARCH_WINDOW_DIAMOND_INTEL", "0x4"),
    ("CLK_AVC_ME_SEARCH_WINDOW_LARGE_DIAMOND_INTEL", "0x5"),
    ("CLK_AVC_ME_SEARCH_WINDOW_RESERVED0_INTEL", "0x6"),
    ("CLK_AVC_ME_SEARCH_WINDOW_RESERVED1_INTEL", "0x7"),
    ("CLK_AVC_ME_SEARCH_WINDOW_CUSTOM_INTEL", "0x8"),
    ("CLK_AVC_ME_SAD_ADJUST_MODE_NONE_INTEL", "0x0"),
    ("CLK_AVC_ME_SAD_ADJUST_MODE_HAAR_INTEL", "0x2"),
    ("CLK_AVC_ME_SUBPIXEL_MODE_INTEGER_INTEL", "0x0"),
    ("CLK_AVC_ME_SUBPIXEL_MODE_HPEL_INTEL", "0x1"),
    ("CLK_AVC_ME_SUBPIXEL_MODE_QPEL_INTEL", "0x3"),
    ("CLK_AVC_ME_COST_PRECISION_QPEL_INTEL", "0x0"),
    ("CLK_AVC_ME_COST_PRECISION_HPEL_INTEL", "0x1"),
    ("CLK_AVC_ME_COST_PRECISION_PEL_INTEL", "0x2"),
    ("CLK_AVC_ME_COST_PRECISION_DPEL_INTEL", "0x3"),
    ("CLK_AVC_ME_BIDIR_WEIGHT_QUARTER_INTEL", "0x10"),
    ("CLK_AVC_ME_BIDIR_WEIGHT_THIRD_INTEL", "0x15"),
    ("CLK_AVC_ME_BIDIR_WEIGHT_HALF_INTEL", "0x20"),
    ("CLK_AVC_ME_BIDIR_WEIGHT_TWO_THIRD_INTEL", "0x2B"),
    ("CLK_AVC_ME_BIDIR_WEIGHT_THREE_QUARTER_INTEL", "0x30"),
    ("CLK_AVC_ME_BORDER_REACHED_LEFT_INTEL", "0x0"),
    ("CLK_AVC_ME_BORDER_REACHED_RIGHT_INTEL", "0x2"),
    ("CLK_AVC_ME_BORDER_REACHED_TOP_INTEL", "0x4"),
    ("CLK_AVC_ME_BORDER_REACHED_BOTTOM_INTEL", "0x8"),
    ("CLK_AVC_ME_INTRA_16x16_INTEL", "0x0"),
    ("CLK_AVC_ME_INTRA_8x8_INTEL", "0x1"),
    ("CLK_AVC_ME_INTRA_4x4_INTEL", "0x2"),
    ("CLK_AVC_ME_SKIP_BLOCK_PARTITION_16x16_INTEL", "0x0"),
    ("CLK_AVC_ME_SKIP_BLOCK_PARTITION_8x8_INTEL", "0x4000"),
    (
        "CLK_AVC_ME_SKIP_BLOCK_16x16_FORWARD_ENABLE_INTEL",
        "(0x1 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_16x16_BACKWARD_ENABLE_INTEL",
        "(0x2 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_16x16_DUAL_ENABLE_INTEL",
        "(0x3 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_FORWARD_ENABLE_INTEL",
        "(0x55 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_BACKWARD_ENABLE_INTEL",
        "(0xAA << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_DUAL_ENABLE_INTEL",
        "(0xFF << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_0_FORWARD_ENABLE_INTEL",
        "(0x1 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_0_BACKWARD_ENABLE_INTEL",
        "(0x2 << 24)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_1_FORWARD_ENABLE_INTEL",
        "(0x1 << 26)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_1_BACKWARD_ENABLE_INTEL",
        "(0x2 << 26)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_2_FORWARD_ENABLE_INTEL",
        "(0x1 << 28)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_2_BACKWARD_ENABLE_INTEL",
        "(0x2 << 28)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_3_FORWARD_ENABLE_INTEL",
        "(0x1 << 30)",
    ),
    (
        "CLK_AVC_ME_SKIP_BLOCK_8x8_3_BACKWARD_ENABLE_INTEL",
        "(0x2 << 30)",
    ),
    ("CLK_AVC_ME_BLOCK_BASED_SKIP_4x4_INTEL", "0x00"),
    ("CLK_AVC_ME_BLOCK_BASED_SKIP_8x8_INTEL", "0x80"),
    ("CLK_AVC_ME_INTRA_LUMA_PARTITION_MASK_ALL_INTEL", "0x0"),
    ("CLK_AVC_ME_INTRA_LUMA_PARTITION_MASK_16x16_INTEL", "0x6"),
    ("CLK_AVC_ME_INTRA_LUMA_PARTITION_MASK_8x8_INTEL", "0x5"),
    ("CLK_AVC_ME_INTRA_LUMA_PARTITION_MASK_4x4_INTEL", "0x3"),
    ("CLK_AVC_ME_INTRA_NEIGHBOR_LEFT_MASK_ENABLE_INTEL", "0x60"),
    ("CLK_AVC_ME_INTRA_NEIGHBOR_UPPER_MASK_ENABLE_INTEL", "0x10"),
    (
        "CLK_AVC_ME_INTRA_NEIGHBOR_UPPER_RIGHT_MASK_ENABLE_INTEL",
        "0x8",
    ),
    (
        "CLK_AVC_ME_INTRA_NEIGHBOR_UPPER_LEFT_MASK_ENABLE_INTEL",
        "0x4",
    ),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_VERTICAL_INTEL", "0x0"),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_HORIZONTAL_INTEL", "0x1"),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_DC_INTEL", "0x2"),
    (
        "CLK_AVC_ME_LUMA_PREDICTOR_MODE_DIAGONAL_DOWN_LEFT_INTEL",
        "0x3",
    ),
    (
        "CLK_AVC_ME_LUMA_PREDICTOR_MODE_DIAGONAL_DOWN_RIGHT_INTEL",
        "0x4",
    ),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_PLANE_INTEL", "0x4"),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_VERTICAL_RIGHT_INTEL", "0x5"),
    (
        "CLK_AVC_ME_LUMA_PREDICTOR_MODE_HORIZONTAL_DOWN_INTEL",
        "0x6",
    ),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_VERTICAL_LEFT_INTEL", "0x7"),
    ("CLK_AVC_ME_LUMA_PREDICTOR_MODE_HORIZONTAL_UP_INTEL", "0x8"),
    ("CLK_AVC_ME_CHROMA_PREDICTOR_MODE_DC_INTEL", "0x0"),
    ("CLK_AVC_ME_CHROMA_PREDICTOR_MODE_HORIZONTAL_INTEL", "0x1"),
    ("CLK_AVC_ME_CHROMA_PREDICTOR_MODE_VERTICAL_INTEL", "0x2"),
    ("CLK_AVC_ME_CHROMA_PREDICTOR_MODE_PLANE_INTEL", "0x3"),
    ("CLK_AVC_ME_FRAME_FORWARD_INTEL", "0x1"),
    ("CLK_AVC_ME_FRAME_BACKWARD_INTEL", "0x2"),
    ("CLK_AVC_ME_FRAME_DUAL_INTEL", "0x3"),
    ("CLK_AVC_ME_INTERLACED_SCAN_TOP_FIELD_INTEL", "0x0"),
    ("CLK_AVC_ME_INTERLACED_SCAN_BOTTOM_FIELD_INTEL", "0x1"),
    ("CLK_AVC_ME_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_IME_PAYLOAD_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_REF_PAYLOAD_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_SIC_PAYLOAD_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_IME_RESULT_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_REF_RESULT_INITIALIZE_INTEL", "0x0"),
    ("CLK_AVC_SIC_RESULT_INITIALIZE_INTEL", "0x0"),
    (
        "CLK_AVC_IME_RESULT_SINGLE_REFERENCE_STREAMOUT_INITIALIZE_INTEL",
        "0x0",
    ),
    (
        "CLK_AVC_IME_RESULT_SINGLE_REFERENCE_STREAMIN_INITIALIZE_INTEL",
        "0x0",
    ),
    (
        "CLK_AVC_IME_RESULT_DUAL_REFERENCE_STREAMOUT_INITIALIZE_INTEL",
        "0x0",
    ),
    (
        "CLK_AVC_IME_RESULT_DUAL_REFERENCE_STREAMIN_INITIALIZE_INTEL",
        "0x0",
    ),
];

/// Names and bodies of every macro predefined for `lang` (core and default header), in
/// definition order; function-like macros are given as `NAME(params)`.
pub fn predefined_macros(lang: &LangOptions) -> Vec<(String, String)> {
    let text = builtin_text(lang) + &default_header_text(lang);
    text.lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|rest| {
            let split = if let Some(p) = rest.find('(').filter(|&p| !rest[..p].contains(' ')) {
                rest[p..].find(')').map_or(rest.len(), |q| p + q + 1)
            } else {
                rest.find(' ').unwrap_or(rest.len())
            };
            let (n, b) = rest.split_at(split);
            (n.to_string(), b.trim_start().to_string())
        })
        .collect()
}

/// Names of every macro predefined for `lang`.
pub fn predefined_macro_names(lang: &LangOptions) -> Vec<String> {
    predefined_macros(lang)
        .into_iter()
        .map(|(n, _)| n.split('(').next().unwrap_or_default().to_string())
        .collect()
}

const FLOAT_MACROS: StaticDefines = static_defines![
    5;
    ("FLT_DIG", "6"),
    ("FLT_MANT_DIG", "24"),
    ("FLT_MAX_10_EXP", "+38"),
    ("FLT_MAX_EXP", "+128"),
    ("FLT_MIN_10_EXP", "-37"),
    ("FLT_MIN_EXP", "-125"),
    ("FLT_RADIX", "2"),
    ("FLT_MAX", "0x1.fffffep127f"),
    ("FLT_MIN", "0x1.0p-126f"),
    ("FLT_EPSILON", "0x1.0p-23f"),
    ("M_E_F", "2.71828182845904523536028747135266250f"),
    ("M_LOG2E_F", "1.44269504088896340735992468100189214f"),
    ("M_LOG10E_F", "0.434294481903251827651128918916605082f"),
    ("M_LN2_F", "0.693147180559945309417232121458176568f"),
    ("M_LN10_F", "2.30258509299404568401799145468436421f"),
    ("M_PI_F", "3.14159265358979323846264338327950288f"),
    ("M_PI_2_F", "1.57079632679489661923132169163975144f"),
    ("M_PI_4_F", "0.785398163397448309615660845819875721f"),
    ("M_1_PI_F", "0.318309886183790671537767526745028724f"),
    ("M_2_PI_F", "0.636619772367581343075535053490057448f"),
    ("M_2_SQRTPI_F", "1.12837916709551257389615890312154517f"),
    ("M_SQRT2_F", "1.41421356237309504880168872420969808f"),
    ("M_SQRT1_2_F", "0.707106781186547524400844362104849039f"),
    ("DBL_DIG", "15"),
    ("DBL_MANT_DIG", "53"),
    ("DBL_MAX_10_EXP", "+308"),
    ("DBL_MAX_EXP", "+1024"),
    ("DBL_MIN_10_EXP", "-307"),
    ("DBL_MIN_EXP", "-1021"),
    ("DBL_RADIX", "2"),
    ("DBL_MAX", "0x1.fffffffffffffp1023"),
    ("DBL_MIN", "0x1.0p-1022"),
    ("DBL_EPSILON", "0x1.0p-52"),
    ("M_E", "0x1.5bf0a8b145769p+1"),
    ("M_LOG2E", "0x1.71547652b82fep+0"),
    ("M_LOG10E", "0x1.bcb7b1526e50ep-2"),
    ("M_LN2", "0x1.62e42fefa39efp-1"),
    ("M_LN10", "0x1.26bb1bbb55516p+1"),
    ("M_PI", "0x1.921fb54442d18p+1"),
    ("M_PI_2", "0x1.921fb54442d18p+0"),
    ("M_PI_4", "0x1.921fb54442d18p-1"),
    ("M_1_PI", "0x1.45f306dc9c883p-2"),
    ("M_2_PI", "0x1.45f306dc9c883p-1"),
    ("M_2_SQRTPI", "0x1.20dd750429b6dp+0"),
    ("M_SQRT2", "0x1.6a09e667f3bcdp+0"),
    ("M_SQRT1_2", "0x1.6a09e667f3bcdp-1"),
];

const HALF_MACROS: StaticDefines = static_defines![
    6;
    ("HALF_DIG", "3"),
    ("HALF_MANT_DIG", "11"),
    ("HALF_MAX_10_EXP", "+4"),
    ("HALF_MAX_EXP", "+16"),
    ("HALF_MIN_10_EXP", "-4"),
    ("HALF_MIN_EXP", "-13"),
    ("HALF_RADIX", "2"),
    ("HALF_MAX", "((0x1.ffcp15h))"),
    ("HALF_MIN", "((0x1.0p-14h))"),
    ("HALF_EPSILON", "((0x1.0p-10h))"),
    ("M_E_H", "2.71828182845904523536028747135266250h"),
    ("M_LOG2E_H", "1.44269504088896340735992468100189214h"),
    ("M_LOG10E_H", "0.434294481903251827651128918916605082h"),
    ("M_LN2_H", "0.693147180559945309417232121458176568h"),
    ("M_LN10_H", "2.30258509299404568401799145468436421h"),
    ("M_PI_H", "3.14159265358979323846264338327950288h"),
    ("M_PI_2_H", "1.57079632679489661923132169163975144h"),
    ("M_PI_4_H", "0.785398163397448309615660845819875721h"),
    ("M_1_PI_H", "0.318309886183790671537767526745028724h"),
    ("M_2_PI_H", "0.636619772367581343075535053490057448h"),
    ("M_2_SQRTPI_H", "1.12837916709551257389615890312154517h"),
    ("M_SQRT2_H", "1.41421356237309504880168872420969808h"),
    ("M_SQRT1_2_H", "0.707106781186547524400844362104849039h"),
];

const LIMIT_MACROS: StaticDefines = static_defines![
    7;
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-128)"),
    ("UCHAR_MAX", "255"),
    ("CHAR_MAX", "SCHAR_MAX"),
    ("CHAR_MIN", "SCHAR_MIN"),
    ("USHRT_MAX", "65535"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32768)"),
    ("UINT_MAX", "0xffffffff"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647-1)"),
    ("ULONG_MAX", "0xffffffffffffffffUL"),
    ("LONG_MAX", "0x7fffffffffffffffL"),
    ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
];

const IMAGE_MACROS: StaticDefines = static_defines![
    8;
    ("CLK_ADDRESS_NONE", "0"),
    ("CLK_ADDRESS_CLAMP_TO_EDGE", "2"),
    ("CLK_ADDRESS_CLAMP", "4"),
    ("CLK_ADDRESS_REPEAT", "6"),
    ("CLK_ADDRESS_MIRRORED_REPEAT", "8"),
    ("CLK_NORMALIZED_COORDS_FALSE", "0"),
    ("CLK_NORMALIZED_COORDS_TRUE", "1"),
    ("CLK_FILTER_NEAREST", "0x10"),
    ("CLK_FILTER_LINEAR", "0x20"),
    ("CLK_SNORM_INT8", "0x10D0"),
    ("CLK_SNORM_INT16", "0x10D1"),
    ("CLK_UNORM_INT8", "0x10D2"),
    ("CLK_UNORM_INT16", "0x10D3"),
    ("CLK_UNORM_SHORT_565", "0x10D4"),
    ("CLK_UNORM_SHORT_555", "0x10D5"),
    ("CLK_UNORM_INT_101010", "0x10D6"),
    ("CLK_SIGNED_INT8", "0x10D7"),
    ("CLK_SIGNED_INT16", "0x10D8"),
    ("CLK_SIGNED_INT32", "0x10D9"),
    ("CLK_UNSIGNED_INT8", "0x10DA"),
    ("CLK_UNSIGNED_INT16", "0x10DB"),
    ("CLK_UNSIGNED_INT32", "0x10DC"),
    ("CLK_HALF_FLOAT", "0x10DD"),
    ("CLK_FLOAT", "0x10DE"),
    ("CLK_UNORM_INT24", "0x10DF"),
];

const CHANNEL_ORDER_MACROS: StaticDefines = static_defines![
    9;
    ("CLK_R", "0x10B0"),
    ("CLK_A", "0x10B1"),
    ("CLK_RG", "0x10B2"),
    ("CLK_RA", "0x10B3"),
    ("CLK_RGB", "0x10B4"),
    ("CLK_RGBA", "0x10B5"),
    ("CLK_BGRA", "0x10B6"),
    ("CLK_ARGB", "0x10B7"),
    ("CLK_INTENSITY", "0x10B8"),
    ("CLK_LUMINANCE", "0x10B9"),
    ("CLK_Rx", "0x10BA"),
    ("CLK_RGx", "0x10BB"),
    ("CLK_RGBx", "0x10BC"),
    ("CLK_DEPTH", "0x10BD"),
    ("CLK_DEPTH_STENCIL", "0x10BE"),
];

/// `opencl-c-base.h` macros under `__OPENCL_C_VERSION__ >= CL_VERSION_2_0`.
const CL20_MACROS: StaticDefines = static_defines![
    10;
    ("CLK_sRGB", "0x10BF"),
    ("CLK_sRGBx", "0x10C0"),
    ("CLK_sRGBA", "0x10C1"),
    ("CLK_sBGRA", "0x10C2"),
    ("CLK_ABGR", "0x10C3"),
    (
        "CLK_NULL_RESERVE_ID",
        "(__builtin_astype(((void*)(__SIZE_MAX__)), reserve_id_t))",
    ),
    ("CL_COMPLETE", "0x0"),
    ("CL_RUNNING", "0x1"),
    ("CL_SUBMITTED", "0x2"),
    ("CL_QUEUED", "0x3"),
    ("CLK_SUCCESS", "0"),
    ("CLK_ENQUEUE_FAILURE", "-101"),
    ("CLK_INVALID_QUEUE", "-102"),
    ("CLK_INVALID_NDRANGE", "-160"),
    ("CLK_INVALID_EVENT_WAIT_LIST", "-57"),
    ("CLK_DEVICE_QUEUE_FULL", "-161"),
    ("CLK_INVALID_ARG_SIZE", "-51"),
    ("CLK_EVENT_ALLOCATION_FAILURE", "-100"),
    ("CLK_OUT_OF_RESOURCES", "-5"),
    ("CLK_NULL_QUEUE", "0"),
    (
        "CLK_NULL_EVENT",
        "(__builtin_astype(((void*)(__SIZE_MAX__)), clk_event_t))",
    ),
    ("CLK_ENQUEUE_FLAGS_NO_WAIT", "0x0"),
    ("CLK_ENQUEUE_FLAGS_WAIT_KERNEL", "0x1"),
    ("CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP", "0x2"),
    ("CLK_PROFILING_COMMAND_EXEC_TIME", "0x1"),
    ("MAX_WORK_DIM", "3"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn defines(lang: &LangOptions) -> Vec<String> {
        builtin_text(lang).lines().map(str::to_string).collect()
    }

    /// Every line of every compile-time block is found by name in [`NAME_TABLE`], at an
    /// offset where its `#define` starts, in whichever block is present; names that no block
    /// defines are not found.
    #[test]
    fn static_lines_are_found_by_name() {
        let mut lines = 0;
        for (id, b) in BLOCKS.iter().enumerate() {
            assert_eq!(usize::from(b.id), id);
            for &name in b.names {
                let got = find_static(name, |i| (usize::from(i) == id).then_some(((), 0)));
                let off = got.map(|(_, o)| o as usize);
                let line = off.and_then(|o| b.text.get(o..)).unwrap_or("");
                assert!(
                    line.starts_with(&format!("#define {name} ")),
                    "{name}: {off:?}"
                );
                // Not found when its block is absent (unless another block defines it).
                let elsewhere = BLOCKS
                    .iter()
                    .any(|o| o.id != b.id && o.names.contains(&name));
                let absent = find_static(name, |i| (usize::from(i) != id).then_some(((), 0)));
                assert_eq!(absent.is_some(), elsewhere, "{name}");
                lines += 1;
            }
        }
        assert_eq!(lines, BLOCK_LINES);
        for name in [
            "",
            "FLT_DIG_",
            "__SPIR",
            "x",
            "CLK_LOCAL_MEM_FENCE",
            "__clang__x",
        ] {
            assert_eq!(find_static(name, |_| Some(((), 0))), None, "{name}");
        }
    }

    #[test]
    fn target_macros_follow_triple() {
        let mut lang = LangOptions::new(ClStd::Cl12);
        let d64 = defines(&lang);
        assert!(d64.contains(&"#define __SIZE_TYPE__ long unsigned int".to_string()));
        assert!(d64.contains(&"#define __SPIR64__ 1".to_string()));
        assert!(d64.contains(&"#define __LP64__ 1".to_string()));
        assert!(!d64.iter().any(|l| l.starts_with("#define __SPIR32")));
        lang.target = Target::Spir;
        let d32 = defines(&lang);
        assert!(d32.contains(&"#define __SIZE_TYPE__ unsigned int".to_string()));
        assert!(d32.contains(&"#define __PTRDIFF_TYPE__ int".to_string()));
        assert!(d32.contains(&"#define __INTPTR_TYPE__ int".to_string()));
        assert!(d32.contains(&"#define __SIZEOF_POINTER__ 4".to_string()));
        assert!(d32.contains(&"#define __SPIR32__ 1".to_string()));
        assert!(d32.contains(&"#define __SPIR__ 1".to_string()));
        assert!(!d32.iter().any(|l| l.starts_with("#define __SPIR64")));
        assert!(!d32.iter().any(|l| l.contains("LP64")));
        assert_eq!(d32.len(), d64.len() - 2);
    }
}
