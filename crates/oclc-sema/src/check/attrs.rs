//! clang's unknown-attribute warning: "unknown attribute 'foo' ignored" [-Wunknown-attributes]
//! for an attribute name clang-19 does not know on the spir targets, reported when the
//! declaration (or statement) it belongs to is checked, as clang processes attributes:
//! a parameter's before its function's, each declarator's in turn.

use oclc_syntax::ast::{self, AttrSyntax, ChunkKind, DeclSpecKind};
use oclc_syntax::{Diagnostic, Span};

use super::Checker;

/// The GNU-spelled attribute names clang-19 knows for spir and spir64 (probed with
/// `__attribute__((NAME))` against clang-19; target-specific ones of other targets, such as
/// `interrupt`, are unknown there). Sorted, for binary search.
const KNOWN: &[&str] = &[
    "NSObject",
    "__clang_arm_mve_strict_polymorphism",
    "__const",
    "aarch64_sve_pcs",
    "aarch64_vector_pcs",
    "abi_tag",
    "acquire_capability",
    "acquire_handle",
    "acquire_shared_capability",
    "acquired_after",
    "acquired_before",
    "address_space",
    "alias",
    "align_value",
    "aligned",
    "alloc_align",
    "alloc_size",
    "allocating",
    "always_destroy",
    "always_inline",
    "amdgpu_flat_work_group_size",
    "amdgpu_kernel",
    "amdgpu_max_num_work_groups",
    "amdgpu_num_sgpr",
    "amdgpu_num_vgpr",
    "amdgpu_waves_per_eu",
    "analyzer_noreturn",
    "annotate",
    "argument_with_type_tag",
    "arm_sve_vector_bits",
    "artificial",
    "assert_capability",
    "assert_exclusive_lock",
    "assert_shared_capability",
    "assert_shared_lock",
    "assume",
    "assume_aligned",
    "availability",
    "available_only_in_default_eval_method",
    "blocking",
    "blocks",
    "bounded",
    "btf_decl_tag",
    "btf_type_tag",
    "callable_when",
    "callback",
    "called_once",
    "capability",
    "carries_dependency",
    "cdecl",
    "cf_audited_transfer",
    "cf_consumed",
    "cf_returns_not_retained",
    "cf_returns_retained",
    "cf_unknown_transfer",
    "cfi_canonical_jump_table",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_clang_storage_class_specifiers",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_khr_3d_image_writes",
    "cl_khr_byte_addressable_store",
    "cl_khr_depth_images",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "clang_builtin_alias",
    "cleanup",
    "cles_khr_int64",
    "clspv_libclc_builtin",
    "cmse_nonsecure_call",
    "code_align",
    "cold",
    "common",
    "const",
    "constant",
    "constructor",
    "consumable",
    "consumable_auto_cast_state",
    "consumable_set_state_on_read",
    "convergent",
    "coro_disable_lifetimebound",
    "coro_lifetimebound",
    "coro_only_destroy_when_complete",
    "coro_return_type",
    "coro_wrapper",
    "counted_by",
    "counted_by_or_null",
    "cpu_dispatch",
    "cpu_specific",
    "cudart_builtin",
    "deprecated",
    "destructor",
    "device",
    "device_builtin",
    "device_builtin_surface_type",
    "device_builtin_texture_type",
    "diagnose_as_builtin",
    "diagnose_if",
    "disable_sanitizer_instrumentation",
    "disable_tail_calls",
    "enable_if",
    "enforce_read_only_placement",
    "enforce_tcb",
    "enforce_tcb_leaf",
    "enum_extensibility",
    "error",
    "exclude_from_explicit_instantiation",
    "exclusive_lock_function",
    "exclusive_locks_required",
    "exclusive_trylock_function",
    "ext_vector_type",
    "external_source_symbol",
    "fallthrough",
    "fastcall",
    "flag_enum",
    "flatten",
    "format",
    "format_arg",
    "global",
    "gnu_inline",
    "guarded_by",
    "guarded_var",
    "host",
    "hot",
    "ibaction",
    "iboutlet",
    "iboutletcollection",
    "ifunc",
    "init_priority",
    "intel_ocl_bicc",
    "intel_reqd_sub_group_size",
    "internal_linkage",
    "kernel",
    "launch_bounds",
    "leaf",
    "lifetimebound",
    "loader_uninitialized",
    "lock_returned",
    "lockable",
    "locks_excluded",
    "lto_visibility_public",
    "m68k_rtd",
    "malloc",
    "managed",
    "matrix_type",
    "may_alias",
    "maybe_undef",
    "mig_server_routine",
    "min_vector_width",
    "minsize",
    "mode",
    "ms_abi",
    "ms_struct",
    "musttail",
    "naked",
    "neon_polyvector_type",
    "neon_vector_type",
    "no_address_safety_analysis",
    "no_builtin",
    "no_destroy",
    "no_instrument_function",
    "no_profile_instrument_function",
    "no_randomize_layout",
    "no_sanitize",
    "no_sanitize_address",
    "no_sanitize_memory",
    "no_sanitize_thread",
    "no_speculative_load_hardening",
    "no_split_stack",
    "no_stack_protector",
    "no_thread_safety_analysis",
    "nocf_check",
    "nocommon",
    "nodebug",
    "noderef",
    "noduplicate",
    "noescape",
    "noinline",
    "nomerge",
    "nonallocating",
    "nonblocking",
    "nonnull",
    "noreturn",
    "nosvm",
    "not_tail_called",
    "nothrow",
    "nouwtable",
    "ns_consumed",
    "ns_consumes_self",
    "ns_error_domain",
    "ns_returns_autoreleased",
    "ns_returns_not_retained",
    "ns_returns_retained",
    "nv_weak",
    "objc_arc_weak_reference_unavailable",
    "objc_boxable",
    "objc_bridge",
    "objc_bridge_mutable",
    "objc_bridge_related",
    "objc_class_stub",
    "objc_designated_initializer",
    "objc_direct",
    "objc_direct_members",
    "objc_exception",
    "objc_externally_retained",
    "objc_gc",
    "objc_independent_class",
    "objc_method_family",
    "objc_non_runtime_protocol",
    "objc_nonlazy_class",
    "objc_ownership",
    "objc_precise_lifetime",
    "objc_protocol_requires_explicit_implementation",
    "objc_requires_property_definitions",
    "objc_requires_super",
    "objc_returns_inner_pointer",
    "objc_root_class",
    "objc_runtime_name",
    "objc_runtime_visible",
    "objc_subclassing_restricted",
    "opencl_constant",
    "opencl_generic",
    "opencl_global",
    "opencl_global_device",
    "opencl_global_host",
    "opencl_local",
    "opencl_private",
    "opencl_unroll_hint",
    "optnone",
    "os_consumed",
    "os_consumes_this",
    "os_returns_not_retained",
    "os_returns_retained",
    "os_returns_retained_on_non_zero",
    "os_returns_retained_on_zero",
    "overloadable",
    "ownership_holds",
    "ownership_returns",
    "ownership_takes",
    "packed",
    "param_typestate",
    "pascal",
    "pass_dynamic_object_size",
    "pass_object_size",
    "pcs",
    "pointer_with_type_tag",
    "preferred_name",
    "preferred_type",
    "preserve_all",
    "preserve_most",
    "pt_guarded_by",
    "pt_guarded_var",
    "ptrauth_vtable_pointer",
    "pure",
    "randomize_layout",
    "regcall",
    "regparm",
    "reinitializes",
    "release_capability",
    "release_generic_capability",
    "release_handle",
    "release_shared_capability",
    "reqd_work_group_size",
    "require_constant_initialization",
    "requires_capability",
    "requires_shared_capability",
    "retain",
    "return_typestate",
    "returns_nonnull",
    "returns_twice",
    "riscv_rvv_vector_bits",
    "scoped_lockable",
    "section",
    "selectany",
    "sentinel",
    "set_typestate",
    "shared",
    "shared_capability",
    "shared_lock_function",
    "shared_locks_required",
    "shared_trylock_function",
    "sized_by",
    "sized_by_or_null",
    "speculative_load_hardening",
    "standalone_debug",
    "stdcall",
    "suppress",
    "swift_async",
    "swift_async_context",
    "swift_async_error",
    "swift_async_name",
    "swift_attr",
    "swift_bridge",
    "swift_bridged_typedef",
    "swift_context",
    "swift_error",
    "swift_error_result",
    "swift_indirect_result",
    "swift_name",
    "swift_newtype",
    "swift_objc_members",
    "swift_private",
    "swift_wrapper",
    "swiftasynccall",
    "swiftcall",
    "sycl_kernel",
    "sycl_special_class",
    "sysv_abi",
    "target",
    "target_clones",
    "target_version",
    "test_typestate",
    "thiscall",
    "tls_model",
    "transparent_union",
    "trivial_abi",
    "try_acquire_capability",
    "try_acquire_shared_capability",
    "type_tag_for_datatype",
    "type_visibility",
    "unavailable",
    "uninitialized",
    "unlock_function",
    "unsafe_buffer_usage",
    "unused",
    "use_handle",
    "used",
    "using_if_exists",
    "vec_type_hint",
    "vecreturn",
    "vector_size",
    "vectorcall",
    "visibility",
    "warn_unused",
    "warn_unused_result",
    "warning",
    "weak",
    "weak_import",
    "weakref",
    "work_group_size_hint",
    "xray_always_instrument",
    "xray_log_args",
    "xray_never_instrument",
    "zero_call_used_regs",
];

/// Standard `[[name]]` attributes (no namespace).
const STANDARD: &[&str] = &[
    "_Noreturn",
    "deprecated",
    "fallthrough",
    "maybe_unused",
    "nodiscard",
    "noreturn",
    "reproducible",
    "unsequenced",
];

/// Whether clang knows attribute `a` (`__x__` is `x`).
pub(crate) fn is_known(a: &ast::Attribute) -> bool {
    let name = a.name.name.as_str();
    let name = if name.len() >= 4 && name.starts_with("__") && name.ends_with("__") {
        &name[2..name.len() - 2]
    } else {
        name
    };
    match (a.syntax, &a.namespace) {
        (AttrSyntax::Cxx, None) => STANDARD.contains(&name),
        (AttrSyntax::Cxx, Some(ns)) => {
            matches!(ns.name.as_str(), "clang" | "_Clang" | "gnu" | "__gnu__")
                && KNOWN.binary_search(&name).is_ok()
        }
        _ => KNOWN.binary_search(&name).is_ok(),
    }
}

/// Whether `a` is the attribute `name` (written `name` or `__name__`).
fn is_named(a: &ast::Attribute, name: &str) -> bool {
    let n = a.name.name.as_str();
    n == name || n.strip_prefix("__").and_then(|n| n.strip_suffix("__")) == Some(name)
}

/// The attributes written in a declarator: on its pointers and arrays, then after it.
fn declarator_attrs(d: &ast::Declarator) -> Vec<&ast::Attribute> {
    let mut out = Vec::new();
    for c in &d.chunks {
        let quals = match &c.kind {
            ChunkKind::Pointer { quals } => quals,
            ChunkKind::Array(a) => &a.quals,
            _ => continue,
        };
        out.extend(quals.iter().filter_map(|q| match &q.kind {
            DeclSpecKind::Attr(a) => Some(a),
            _ => None,
        }));
    }
    out.extend(d.attrs.iter().filter_map(|q| match &q.kind {
        DeclSpecKind::Attr(a) => Some(a),
        _ => None,
    }));
    out
}

impl Checker<'_> {
    /// Warns for each attribute clang does not know.
    pub(crate) fn warn_unknown_attrs<'x>(
        &mut self,
        attrs: impl IntoIterator<Item = &'x ast::Attribute>,
    ) {
        for a in attrs {
            if is_known(a) {
                continue;
            }
            // clang parses an unknown attribute's arguments as expressions; one that does not
            // check drops the attribute (and the warning).
            let before = self.diags.list.len();
            for (i, arg) in a.args.iter().enumerate() {
                match arg {
                    // clang takes an unknown attribute's first argument as an identifier when
                    // it is one token (`max_constant_size(SIZE)`, `endian(host)`).
                    ast::AttrArg::Expr(e)
                        if i == 0 && matches!(e.kind, ast::ExprKind::Ident(_)) => {}
                    ast::AttrArg::Expr(e) => {
                        let _ = self.expr(e);
                    }
                    // A lone identifier first argument stays an identifier (`endian(host)`).
                    ast::AttrArg::Ident(_) | ast::AttrArg::Type(_) => {}
                }
                // Each argument is a full expression: its undeclared names are errors now.
                self.flush_typos(None);
            }
            if self.diags.list[before..].iter().any(Diagnostic::is_error) {
                continue;
            }
            let (at, range) = match a.namespace {
                Some(n) => (n.span, n.span.to(a.span)),
                None => (a.name.span, a.span),
            };
            self.emit(
                Diagnostic::warning(at, format!("unknown attribute '{}' ignored", a.name.name))
                    .with_group("unknown-attributes")
                    .with_range(range),
            );
        }
    }

    /// clang's error for `overloadable` on a declaration that is not a function's (a
    /// variable, parameter, field or typedef): one per attribute, in the declaration
    /// specifiers' then the declarator's, as clang processes a declaration's attributes.
    pub(crate) fn overloadable_not_on_function(
        &mut self,
        specs: &ast::DeclSpecs,
        d: &ast::Declarator,
    ) {
        let chunks = d.chunks.iter().flat_map(|c| match &c.kind {
            ChunkKind::Pointer { quals } => quals.as_slice(),
            ChunkKind::Array(a) => a.quals.as_slice(),
            _ => &[],
        });
        let written = specs.items.iter().chain(chunks).chain(&d.attrs);
        for q in written {
            if let DeclSpecKind::Attr(a) = &q.kind
                && is_named(a, "overloadable")
            {
                self.err(
                    a.name.span,
                    "'overloadable' attribute only applies to functions",
                );
            }
        }
    }

    /// The unknown attributes of one declarator of a declaration: its parameters' first (for
    /// a function), then the declaration specifiers' and the declarator's own.
    /// clang warns as it processes the declaration's attributes, once its declarator is
    /// parsed (after the parser's errors inside it).
    pub(crate) fn warn_unknown_decl_attrs(&mut self, specs: &ast::DeclSpecs, d: &ast::Declarator) {
        let start = self.diags.list.len();
        if let Some(f) = d.function() {
            for p in &f.params {
                self.warn_unknown_attrs(p.specs.attributes());
                self.warn_unknown_attrs(declarator_attrs(&p.declarator));
            }
        }
        self.warn_unknown_attrs(specs.attributes());
        self.warn_unknown_attrs(declarator_attrs(d));
        let end = Span {
            lo: d.span.hi,
            ..d.span
        };
        for w in self.diags.list.iter_mut().skip(start) {
            w.order.get_or_insert(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KNOWN;

    #[test]
    fn known_names_are_sorted() {
        assert!(KNOWN.windows(2).all(|w| w[0] < w[1]));
        for n in [
            "always_inline",
            "hot",
            "packed",
            "reqd_work_group_size",
            "noreturn",
            "const",
        ] {
            assert!(KNOWN.binary_search(&n).is_ok(), "{n}");
        }
        assert!(KNOWN.binary_search(&"interrupt").is_err());
    }
}
