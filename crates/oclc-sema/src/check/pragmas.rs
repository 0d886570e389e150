//! `#pragma OPENCL EXTENSION` as clang's parser handles it (`HandlePragmaOpenCLExtension`):
//! `all` only takes `disable`; a name clang does not know as an extension with a pragma is
//! "unknown or does not require pragma"; a known one that this version or `-cl-ext` does not
//! support is "unsupported"; a core feature is ignored (a note under
//! -Wpedantic-core-features). `begin` makes an unknown name known. In a struct the pragma is an
//! error.

use oclc_syntax::ast;
use oclc_syntax::{ClStd, Diagnostic, Span};

use super::Checker;

/// Whether an extension is core (or optional core) in `std`.
#[derive(Clone, Copy)]
enum Core {
    Never,
    /// From OpenCL C 1.1 on.
    From11,
    /// Optional core from OpenCL C 1.2 on.
    Optional12,
    /// In OpenCL C 2.0 and 3.0.
    In20And30,
}

/// The extensions clang-19 takes a pragma for (`OpenCLExtensions.def`, pragma = true): name,
/// the first version that has it, and whether it is core.
const WITH_PRAGMA: &[(&str, ClStd, Core)] = &[
    ("cl_khr_byte_addressable_store", ClStd::Cl10, Core::From11),
    (
        "cl_khr_global_int32_base_atomics",
        ClStd::Cl10,
        Core::From11,
    ),
    (
        "cl_khr_global_int32_extended_atomics",
        ClStd::Cl10,
        Core::From11,
    ),
    ("cl_khr_local_int32_base_atomics", ClStd::Cl10, Core::From11),
    (
        "cl_khr_local_int32_extended_atomics",
        ClStd::Cl10,
        Core::From11,
    ),
    ("cl_khr_fp64", ClStd::Cl10, Core::Optional12),
    ("cl_khr_fp16", ClStd::Cl10, Core::Never),
    ("cl_khr_int64_base_atomics", ClStd::Cl10, Core::Never),
    ("cl_khr_int64_extended_atomics", ClStd::Cl10, Core::Never),
    ("cl_khr_3d_image_writes", ClStd::Cl10, Core::In20And30),
    ("cles_khr_int64", ClStd::Cl11, Core::Never),
    ("cl_khr_depth_images", ClStd::Cl12, Core::Never),
    ("cl_khr_gl_msaa_sharing", ClStd::Cl12, Core::Never),
    ("cl_khr_mipmap_image", ClStd::Cl20, Core::Never),
    ("cl_khr_mipmap_image_writes", ClStd::Cl20, Core::Never),
    ("cl_khr_srgb_image_writes", ClStd::Cl20, Core::Never),
    ("cl_khr_subgroups", ClStd::Cl20, Core::Never),
    (
        "cl_clang_storage_class_specifiers",
        ClStd::Cl10,
        Core::Never,
    ),
    ("__cl_clang_function_pointers", ClStd::Cl10, Core::Never),
    ("__cl_clang_variadic_functions", ClStd::Cl10, Core::Never),
    (
        "__cl_clang_non_portable_kernel_param_types",
        ClStd::Cl10,
        Core::Never,
    ),
    ("__cl_clang_bitfields", ClStd::Cl10, Core::Never),
    (
        "__cl_clang_function_scope_local_variables",
        ClStd::Cl10,
        Core::Never,
    ),
    ("cl_amd_media_ops", ClStd::Cl10, Core::Never),
    ("cl_amd_media_ops2", ClStd::Cl10, Core::Never),
    ("cl_intel_subgroups", ClStd::Cl12, Core::Never),
    ("cl_intel_subgroups_short", ClStd::Cl12, Core::Never),
    (
        "cl_intel_device_side_avc_motion_estimation",
        ClStd::Cl12,
        Core::Never,
    ),
];

impl Checker<'_> {
    /// The warnings clang's parser gives a well-formed `#pragma OPENCL EXTENSION`.
    pub(crate) fn opencl_extension_pragma(&mut self, p: &ast::PragmaItem) {
        let (name, enable, span) = match &p.kind {
            ast::PragmaKind::OpenclExtension {
                name,
                enable,
                name_span,
            } => (name, *enable, *name_span),
            ast::PragmaKind::OpenclExtensionScope {
                name,
                begin,
                name_span,
            } => {
                if name == "all" {
                    self.pragma_warning(
                        span_or(*name_span, p.span),
                        "expected 'disable' - ignoring",
                    );
                } else if *begin && !self.known_with_pragma(name) {
                    self.begun_exts.insert(name.clone());
                }
                return;
            }
            ast::PragmaKind::Other(_) => return,
        };
        let at = span_or(span, p.span);
        if name == "all" {
            if enable {
                self.pragma_warning(at, "expected 'disable' - ignoring");
            }
            return;
        }
        if !self.known_with_pragma(name) {
            self.pragma_warning(
                at,
                &format!("OpenCL extension '{name}' unknown or does not require pragma - ignoring"),
            );
            return;
        }
        let Some(&(_, avail, core)) = WITH_PRAGMA.iter().find(|(n, ..)| n == name) else {
            // Made known by `begin`: supported everywhere.
            return;
        };
        // Names oclc's `-cl-ext` does not list are always supported (clang's spir targets
        // support every extension).
        let listed = oclc_syntax::lang::EXTENSIONS.contains(&name.as_str());
        let supported = !listed || self.lang.has(name);
        let std = self.lang.std;
        let is_core = match core {
            Core::Never => false,
            Core::From11 => std >= ClStd::Cl11,
            Core::Optional12 => std >= ClStd::Cl12,
            Core::In20And30 => std >= ClStd::Cl20,
        };
        if supported && std >= avail && !is_core {
            return;
        }
        if supported && is_core {
            self.emit(
                Diagnostic::warning(
                    at,
                    format!("OpenCL extension '{name}' is core feature or supported optional core feature - ignoring"),
                )
                .with_group("pedantic-core-features"),
            );
            return;
        }
        self.pragma_warning(
            at,
            &format!("unsupported OpenCL extension '{name}' - ignoring"),
        );
    }

    /// A pragma in a struct or union: clang takes no pragma there.
    pub(crate) fn member_pragma(&mut self, p: &ast::PragmaItem, is_union: bool) {
        if let ast::PragmaKind::OpenclExtension { name_span, .. }
        | ast::PragmaKind::OpenclExtensionScope { name_span, .. } = &p.kind
        {
            let what = if is_union { "union" } else { "struct" };
            self.err(
                span_or(*name_span, p.span),
                format!("this pragma cannot appear in {what} declaration"),
            );
            return;
        }
        self.pragma(p);
    }

    fn known_with_pragma(&self, name: &str) -> bool {
        WITH_PRAGMA.iter().any(|(n, ..)| *n == name) || self.begun_exts.contains(name)
    }

    fn pragma_warning(&mut self, at: Span, msg: &str) {
        self.emit(Diagnostic::warning(at, msg).with_group("ignored-pragmas"));
    }
}

fn span_or(s: Span, fallback: Span) -> Span {
    if s.is_dummy() { fallback } else { s }
}
