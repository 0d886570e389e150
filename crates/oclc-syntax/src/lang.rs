//! Language mode: the OpenCL C version (`-cl-std`) and the enabled extensions and optional
//! features (`-cl-ext`), with clang's defaults for the spir target.

use crate::fnv::hash as name_hash;

/// OpenCL C version selected by `-cl-std`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClStd {
    Cl10,
    Cl11,
    Cl12,
    Cl20,
    Cl30,
}

impl ClStd {
    /// `__OPENCL_C_VERSION__` value: 100, 110, 120, 200, 300.
    pub fn version(self) -> u32 {
        match self {
            ClStd::Cl10 => 100,
            ClStd::Cl11 => 110,
            ClStd::Cl12 => 120,
            ClStd::Cl20 => 200,
            ClStd::Cl30 => 300,
        }
    }

    /// Parses the value of `-cl-std=` (case-insensitive, as clang accepts `cl2.0` and `CL2.0`).
    pub fn parse(s: &str) -> Option<ClStd> {
        match s.to_ascii_uppercase().as_str() {
            "CL1.0" | "CL" => Some(ClStd::Cl10),
            "CL1.1" => Some(ClStd::Cl11),
            "CL1.2" => Some(ClStd::Cl12),
            "CL2.0" => Some(ClStd::Cl20),
            "CL3.0" => Some(ClStd::Cl30),
            _ => None,
        }
    }
}

/// OpenCL C 3.0 optional features (rule 1): macro name, and whether OpenCL C 2.0 has it.
pub const FEATURES: &[(&str, bool)] = &[
    ("__opencl_c_3d_image_writes", false),
    ("__opencl_c_atomic_order_acq_rel", true),
    ("__opencl_c_atomic_order_seq_cst", true),
    ("__opencl_c_atomic_scope_all_devices", true),
    ("__opencl_c_atomic_scope_device", true),
    ("__opencl_c_device_enqueue", true),
    ("__opencl_c_ext_image_unorm_int_2_101010", false),
    ("__opencl_c_ext_image_unsigned_10x6_12x4_14x2", false),
    ("__opencl_c_fp64", false),
    ("__opencl_c_generic_address_space", true),
    ("__opencl_c_images", true),
    ("__opencl_c_int64", true),
    ("__opencl_c_integer_dot_product_input_4x8bit", false),
    ("__opencl_c_integer_dot_product_input_4x8bit_packed", false),
    ("__opencl_c_kernel_clock_scope_device", false),
    ("__opencl_c_kernel_clock_scope_sub_group", false),
    ("__opencl_c_kernel_clock_scope_work_group", false),
    ("__opencl_c_pipes", true),
    ("__opencl_c_program_scope_global_variables", true),
    ("__opencl_c_read_write_images", true),
    ("__opencl_c_subgroups", false),
    ("__opencl_c_work_group_collective_functions", true),
];

/// Extensions the spir target supports by default (each defines a macro of its name).
pub const EXTENSIONS: &[&str] = &[
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_subgroups",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_ext_float_atomics",
    "cl_khr_srgb_image_writes",
    "cles_khr_int64",
    // Vendor extensions clang's SPIR target supports (`SPIRTargetInfo`, OpenCLExtensions.def).
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_clang_storage_class_specifiers",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_device_side_avc_motion_estimation",
];

/// Clang's `__cl_clang_*` extensions: supported, but off until `-cl-ext=+name` or enabled
/// with `#pragma OPENCL EXTENSION name : enable`.
pub const CLANG_EXTENSIONS: &[&str] = &[
    "__cl_clang_function_pointers",
    "__cl_clang_variadic_functions",
    "__cl_clang_non_portable_kernel_param_types",
    "__cl_clang_bitfields",
    "__cl_clang_function_scope_local_variables",
];

/// The target (`-triple`/`-target`): spir is 32-bit (`size_t` is `unsigned int`, pointers
/// 4 bytes), spir64 64-bit. Everything else is the same (`long` is 64-bit on both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    Spir,
    #[default]
    Spir64,
}

impl Target {
    /// Parses a triple (`spir-unknown-unknown`, `spir64-unknown-unknown`, or just the
    /// architecture); `None` for other architectures.
    pub fn parse(triple: &str) -> Option<Target> {
        match triple.split('-').next()? {
            "spir" => Some(Target::Spir),
            "spir64" => Some(Target::Spir64),
            _ => None,
        }
    }

    /// `sizeof` a pointer (and of `size_t`, `ptrdiff_t`, `intptr_t`), in bytes.
    pub fn pointer_size(self) -> u64 {
        match self {
            Target::Spir => 4,
            Target::Spir64 => 8,
        }
    }
}

/// Every extension and feature name [`LangOptions`] knows, sorted (a unit test keeps it the
/// union of [`EXTENSIONS`], [`CLANG_EXTENSIONS`] and [`FEATURES`]): bit `i` of the enabled set
/// is name `i`, so the set is one word, copied and searched without allocating.
const KNOWN: [&str; 61] = [
    "__cl_clang_bitfields",
    "__cl_clang_function_pointers",
    "__cl_clang_function_scope_local_variables",
    "__cl_clang_non_portable_kernel_param_types",
    "__cl_clang_variadic_functions",
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_device_enqueue",
    "__opencl_c_ext_image_unorm_int_2_101010",
    "__opencl_c_ext_image_unsigned_10x6_12x4_14x2",
    "__opencl_c_fp64",
    "__opencl_c_generic_address_space",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_sub_group",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_clang_storage_class_specifiers",
    "cl_ext_float_atomics",
    "cl_intel_device_side_avc_motion_estimation",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_khr_3d_image_writes",
    "cl_khr_byte_addressable_store",
    "cl_khr_depth_images",
    "cl_khr_extended_bit_ops",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroups",
    "cles_khr_int64",
];

/// [`KNOWN`] by open addressing on [`name_hash`] (linear probing, at most half full), made
/// at compile time: index + 1, 0 for an empty slot. Each predefined extension macro asks
/// for its name's bit; a binary search of the strings was 5% of a small check.
static KNOWN_TABLE: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < KNOWN.len() {
        let mut slot = name_hash(KNOWN[i].as_bytes()) as usize & 127;
        while t[slot] != 0 {
            slot = (slot + 1) & 127;
        }
        t[slot] = i as u8 + 1;
        i += 1;
    }
    t
};

/// Bit of `name` in the enabled set, if it is a known extension or feature.
fn known_bit(name: &str) -> Option<u64> {
    let mut slot = name_hash(name.as_bytes()) as usize & 127;
    // At most half full: an empty slot ends every probe.
    for _ in 0..KNOWN_TABLE.len() {
        let i = usize::from(KNOWN_TABLE[slot]).checked_sub(1)?;
        if KNOWN.get(i) == Some(&name) {
            return Some(1u64 << i);
        }
        slot = (slot + 1) & 127;
    }
    None
}

/// The language mode of one compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangOptions {
    pub std: ClStd,
    /// The target; spir64 unless `-triple` says otherwise.
    pub target: Target,
    /// Enabled extensions and features: bit `i` is [`KNOWN`]`[i]`.
    enabled: u64,
    /// Deepest nesting of `(`, `[` and `{` the parser accepts (`-fbracket-depth=N`, default
    /// 256 as in clang).
    pub bracket_depth: u32,
    /// `-finclude-default-header` was given: the builtins are `opencl-c.h`'s `overloadable`
    /// declarations, so a plain prototype repeating one is an error, as in clang. Without it
    /// oclc still declares every builtin but takes such a prototype as a declaration of the
    /// builtin (clang's own tests declare builtins that way).
    pub default_header: bool,
}

/// clang's default `-fbracket-depth`.
pub const DEFAULT_BRACKET_DEPTH: u32 = 256;

impl Default for LangOptions {
    fn default() -> Self {
        LangOptions::new(ClStd::Cl12)
    }
}

impl LangOptions {
    /// clang's defaults for `std` on the spir target: every extension, every feature
    /// (CL3.0) or the features OpenCL C 2.0 always has (CL2.0), none before 2.0 (rule 5).
    pub fn new(std: ClStd) -> LangOptions {
        let mut lang = LangOptions {
            std,
            target: Target::default(),
            enabled: 0,
            bracket_depth: DEFAULT_BRACKET_DEPTH,
            default_header: false,
        };
        for e in EXTENSIONS {
            lang.set(e, true);
        }
        for &(f, in20) in FEATURES {
            if std == ClStd::Cl30 || (std == ClStd::Cl20 && in20) {
                lang.set(f, true);
            }
        }
        lang
    }

    /// Applies one `-cl-ext=` value: a comma-separated list of `+name`, `-name`, `+all`, `-all`
    /// (a bare name means `+name`). `-all`/`+all` cover extensions and features, not
    /// clang's `__cl_clang_*` extensions, as in clang.
    pub fn apply_cl_ext(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (on, name) = match item.as_bytes()[0] {
                b'+' => (true, &item[1..]),
                b'-' => (false, &item[1..]),
                _ => (true, item),
            };
            if name == "all" {
                for e in EXTENSIONS {
                    self.set(e, on);
                }
                for &(f, _) in FEATURES {
                    if self.std == ClStd::Cl30 || !on {
                        self.set(f, on);
                    }
                }
                continue;
            }
            let known = EXTENSIONS.contains(&name)
                || CLANG_EXTENSIONS.contains(&name)
                || FEATURES.iter().any(|&(f, _)| f == name);
            if !known {
                return Err(format!("unknown OpenCL extension or feature '{name}'"));
            }
            // Features are fixed before CL3.0 (rule 5).
            if FEATURES.iter().any(|&(f, _)| f == name) && self.std < ClStd::Cl30 {
                continue;
            }
            self.set(name, on);
        }
        Ok(())
    }

    /// Turns a known name on or off (callers check that it is known).
    fn set(&mut self, name: &str, on: bool) {
        if let Some(bit) = known_bit(name) {
            if on {
                self.enabled |= bit;
            } else {
                self.enabled &= !bit;
            }
        }
    }

    /// Whether an extension or feature is enabled.
    pub fn has(&self, name: &str) -> bool {
        known_bit(name).is_some_and(|bit| self.enabled & bit != 0)
    }

    /// Enabled names, sorted.
    pub fn enabled(&self) -> impl Iterator<Item = &'static str> + '_ {
        KNOWN
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.enabled & (1u64 << i) != 0)
            .map(|(_, &n)| n)
    }

    /// Rules 2, 8, 22: the generic address space is available.
    pub fn generic_address_space(&self) -> bool {
        self.std == ClStd::Cl20
            || (self.std == ClStd::Cl30 && self.has("__opencl_c_generic_address_space"))
    }

    /// Rules 3, 16, 27: program-scope `__global` variables are available.
    pub fn program_scope_globals(&self) -> bool {
        self.std == ClStd::Cl20
            || (self.std == ClStd::Cl30 && self.has("__opencl_c_program_scope_global_variables"))
    }

    /// `double` is usable (`cl_khr_fp64`, and in CL3.0 `__opencl_c_fp64`).
    pub fn fp64(&self) -> bool {
        self.has("cl_khr_fp64") && (self.std < ClStd::Cl30 || self.has("__opencl_c_fp64"))
    }

    /// `half` arithmetic is usable (`cl_khr_fp16`).
    pub fn fp16(&self) -> bool {
        self.has("cl_khr_fp16")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn target_from_triple() {
        assert_eq!(Target::parse("spir-unknown-unknown"), Some(Target::Spir));
        assert_eq!(
            Target::parse("spir64-unknown-unknown"),
            Some(Target::Spir64)
        );
        assert_eq!(Target::parse("spir64"), Some(Target::Spir64));
        assert_eq!(Target::parse("amdgcn-amd-amdhsa"), None);
        assert_eq!(LangOptions::new(ClStd::Cl12).target, Target::Spir64);
        assert_eq!(Target::Spir.pointer_size(), 4);
    }

    use super::*;

    #[test]
    fn defaults_per_version() {
        assert!(!LangOptions::new(ClStd::Cl12).generic_address_space());
        assert!(LangOptions::new(ClStd::Cl20).generic_address_space());
        let mut cl3 = LangOptions::new(ClStd::Cl30);
        assert!(cl3.generic_address_space());
        cl3.apply_cl_ext("-all").unwrap();
        assert!(!cl3.generic_address_space());
        assert!(!cl3.has("cl_khr_fp64"));
        cl3.apply_cl_ext("+__opencl_c_generic_address_space")
            .unwrap();
        assert!(cl3.generic_address_space());
        assert!(!cl3.program_scope_globals());
        assert!(cl3.apply_cl_ext("+nonsense").is_err());
    }

    /// The compile-time table finds every known name's bit and no other name.
    #[test]
    fn known_bits_by_table() {
        for (i, name) in KNOWN.iter().enumerate() {
            assert_eq!(known_bit(name), Some(1u64 << i), "{name}");
        }
        for name in [
            "",
            "cl_khr",
            "cl_khr_fp64 ",
            "CL_KHR_FP64",
            "cl_khr_fp6",
            "x",
        ] {
            assert_eq!(known_bit(name), None, "{name}");
        }
    }

    #[test]
    fn known_names_are_exactly_the_extensions_and_features_sorted() {
        let mut all: Vec<&str> = EXTENSIONS.to_vec();
        all.extend_from_slice(CLANG_EXTENSIONS);
        all.extend(FEATURES.iter().map(|&(f, _)| f));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all, KNOWN.to_vec());
        let mut l = LangOptions::new(ClStd::Cl30);
        assert!(l.has("cl_khr_fp64") && l.has("__opencl_c_fp64"));
        assert!(!l.has("__cl_clang_bitfields") && !l.has("cl_unknown"));
        l.apply_cl_ext("-cl_khr_fp64,+__cl_clang_bitfields")
            .unwrap();
        assert!(!l.has("cl_khr_fp64") && l.has("__cl_clang_bitfields"));
        assert_eq!(
            l.enabled().count(),
            EXTENSIONS.len() - 1 + FEATURES.len() + 1
        );
    }
}
