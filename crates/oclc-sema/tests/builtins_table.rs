//! Gentype expansion counts and version/extension/feature gating of the builtin table.

use oclc_sema::builtins::{BTy, Builtins, Pointee, Ptr, Scalar, Special, table_status};
use oclc_sema::space::AddrSpace;
use oclc_syntax::{ClStd, LangOptions};

fn mode(std: ClStd, ext: &str) -> Builtins {
    let mut lang = LangOptions::new(std);
    if !ext.is_empty() {
        lang.apply_cl_ext(ext).unwrap_or_else(|e| panic!("{e}"));
    }
    Builtins::new(&lang)
}

fn count(b: &Builtins, name: &str) -> usize {
    b.lookup_str(name).map_or(0, |id| b.overload_count(id))
}

/// The address spaces of the pointer parameter `param` over all overloads of `name`.
fn spaces(b: &Builtins, name: &str, param: usize) -> Vec<AddrSpace> {
    let Some(id) = b.lookup_str(name) else {
        return Vec::new();
    };
    let mut v: Vec<AddrSpace> = b
        .overloads(id)
        .filter_map(|o| match b.signature(o).params().get(param) {
            Some(BTy::Ptr(p)) => Some(p.space),
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn table_is_well_formed() {
    assert_eq!(table_status(), Ok(()));
    let b = mode(ClStd::Cl30, "");
    assert!(b.names().count() > 1000, "{}", b.names().count());
}

#[test]
fn gentype_expansion_counts() {
    let cl12 = mode(ClStd::Cl12, "");
    // FGenN = {float, double, half} x {1,2,3,4,8,16}.
    assert_eq!(count(&cl12, "fabs"), 18);
    // Named spaces global/local/private in CL1.2.
    assert_eq!(count(&cl12, "fract"), 54);
    // frexp: three float types x 6 widths x 3 spaces.
    assert_eq!(count(&cl12, "frexp"), 54);
    // max: 48 integer + 40 integer vector/scalar + 18 float + 3 x 5 float vector/scalar.
    assert_eq!(count(&cl12, "max"), 121);
    // abs: every integer type and width.
    assert_eq!(count(&cl12, "abs"), 48);
    // convert_int4 takes any of the 11 element types.
    assert_eq!(count(&cl12, "convert_int4_sat_rte"), 11);
    assert_eq!(count(&cl12, "convert_float"), 11);
    assert_eq!(count(&cl12, "convert_float_sat"), 0);
    // vload4: 11 types x (global, local, private, constant).
    assert_eq!(count(&cl12, "vload4"), 44);
    assert_eq!(count(&cl12, "vstore4"), 33);
    // shuffle: 4 x 4 widths x 11 types.
    assert_eq!(count(&cl12, "shuffle"), 176);
    assert_eq!(count(&cl12, "shuffle2"), 176);
    assert_eq!(count(&cl12, "length"), 12);
    assert_eq!(count(&cl12, "cross"), 6);
    // select: 4 x 24 integer + 6 x 6 floating.
    assert_eq!(count(&cl12, "select"), 132);
    assert_eq!(count(&cl12, "vstore_half4_rtz"), 6);

    let cl20 = mode(ClStd::Cl20, "");
    // Only the generic overloads with the generic address space (clang's choice).
    assert_eq!(count(&cl20, "fract"), 18);
    assert_eq!(spaces(&cl20, "fract", 1), vec![AddrSpace::Generic]);
    // vload keeps its constant overloads.
    assert_eq!(count(&cl20, "vload4"), 22);
    assert_eq!(
        spaces(&cl20, "vload4", 1),
        vec![AddrSpace::Constant, AddrSpace::Generic]
    );
    // atomic_fetch_add_explicit: (int, uint, long, ulong, uintptr) x (order, order+scope),
    // plus cl_ext_float_atomics' (half, float, double) x (global, local, generic) x 2.
    assert_eq!(count(&cl20, "atomic_fetch_add_explicit"), 10 + 18);
    assert_eq!(count(&cl20, "atomic_fetch_add"), 5 + 9);
    let no_float_atomics = mode(ClStd::Cl30, "-cl_ext_float_atomics");
    assert_eq!(count(&no_float_atomics, "atomic_fetch_add_explicit"), 10);
    // Without the generic address space in CL3.0: global and local instead.
    // (cl_ext_float_atomics declares its generic overloads regardless, as clang does.)
    let with_float = mode(ClStd::Cl30, "-__opencl_c_generic_address_space");
    assert_eq!(count(&with_float, "atomic_fetch_add_explicit"), 20 + 18);
    let cl30_named = mode(
        ClStd::Cl30,
        "-__opencl_c_generic_address_space,-cl_ext_float_atomics",
    );
    assert_eq!(count(&cl30_named, "atomic_fetch_add_explicit"), 20);
    assert_eq!(
        spaces(&cl30_named, "atomic_fetch_add_explicit", 0),
        vec![AddrSpace::Global, AddrSpace::Local]
    );
    assert_eq!(count(&cl30_named, "fract"), 54);
}

#[test]
fn generic_overloads_need_the_generic_address_space() {
    for (std, ext, generic) in [
        (ClStd::Cl12, "", false),
        (ClStd::Cl20, "", true),
        (ClStd::Cl30, "", true),
        (ClStd::Cl30, "-__opencl_c_generic_address_space", false),
    ] {
        let b = mode(std, ext);
        let has_generic = spaces(&b, "fract", 1).contains(&AddrSpace::Generic);
        assert_eq!(has_generic, generic, "{std:?} {ext}");
        assert_eq!(
            b.lookup_str("to_global").is_some(),
            generic,
            "{std:?} {ext}"
        );
        assert_eq!(
            b.lookup_str("get_fence").is_some(),
            generic,
            "{std:?} {ext}"
        );
    }
    let b = mode(ClStd::Cl20, "");
    let id = b
        .lookup_str("to_local")
        .unwrap_or_else(|| panic!("to_local"));
    assert_eq!(b.special(id), Some(Special::ToAddrSpace(AddrSpace::Local)));
}

#[test]
fn double_overloads_need_fp64() {
    let with = mode(ClStd::Cl12, "");
    let without = mode(ClStd::Cl12, "-cl_khr_fp64");
    assert_eq!(count(&with, "sqrt"), 18);
    assert_eq!(count(&without, "sqrt"), 12);
    assert!(with.lookup_str("convert_double4").is_some());
    assert!(without.lookup_str("convert_double4").is_none());
    // convert_int keeps its other 10 source types.
    assert_eq!(count(&without, "convert_int"), 10);
    assert!(without.lookup_str("as_double").is_none());
    let cl30 = mode(ClStd::Cl30, "-__opencl_c_fp64,-cl_khr_fp64");
    assert_eq!(count(&cl30, "sqrt"), 12);
    let no_double = |b: &Builtins, name: &str| {
        let id = b.lookup_str(name).unwrap_or_else(|| panic!("{name}"));
        b.overloads(id).all(|o| {
            let s = b.signature(o);
            std::iter::once(s.ret)
                .chain(s.params().iter().copied())
                .all(|t| {
                    !matches!(
                        t,
                        BTy::Scalar(Scalar::Double) | BTy::Vector(Scalar::Double, _)
                    )
                })
        })
    };
    assert!(no_double(&without, "mix"));
    assert!(!no_double(&with, "mix"));
}

#[test]
fn half_overloads_need_fp16() {
    let with = mode(ClStd::Cl30, "");
    let without = mode(ClStd::Cl30, "-cl_khr_fp16");
    assert_eq!(count(&with, "fabs"), 18);
    assert_eq!(count(&without, "fabs"), 12);
    // vload_half's pointer is to half: clang drops it with cl_khr_fp16 off.
    assert!(with.lookup_str("vload_half").is_some());
    assert!(without.lookup_str("vload_half").is_none());
    assert!(without.lookup_str("read_imageh").is_none());
}

#[test]
fn version_gates() {
    let cl10 = mode(ClStd::Cl10, "");
    let cl11 = mode(ClStd::Cl11, "");
    let cl12 = mode(ClStd::Cl12, "");
    let cl20 = mode(ClStd::Cl20, "");
    assert!(cl11.lookup_str("printf").is_none());
    assert!(cl12.lookup_str("printf").is_some());
    assert!(cl10.lookup_str("popcount").is_none());
    assert!(cl12.lookup_str("popcount").is_some());
    assert!(cl12.lookup_str("ctz").is_none());
    assert!(cl20.lookup_str("ctz").is_some());
    assert!(cl12.lookup_str("work_group_barrier").is_none());
    assert_eq!(count(&cl20, "work_group_barrier"), 2);
    assert!(cl12.lookup_str("atomic_work_item_fence").is_none());
    assert!(cl12.lookup_str("atomic_load").is_none());
    assert!(cl12.lookup_str("get_enqueued_local_size").is_none());
    assert!(cl12.lookup_str("atomic_add").is_some());
    assert!(cl20.lookup_str("atomic_add").is_some());
    assert!(cl12.lookup_str("barrier").is_some());
    // Sampler-less reads from OpenCL C 1.2.
    let read_imagef_2args = |b: &Builtins| {
        let id = b
            .lookup_str("read_imagef")
            .unwrap_or_else(|| panic!("read_imagef"));
        b.overloads(id)
            .filter(|&o| b.signature(o).params().len() == 2)
            .count()
    };
    assert_eq!(read_imagef_2args(&cl11), 0);
    assert_eq!(read_imagef_2args(&cl12), 8);
    // CL2.0 adds the read_write images.
    assert_eq!(read_imagef_2args(&cl20), 16);
}

#[test]
fn feature_gates() {
    let cl30 = mode(ClStd::Cl30, "");
    let plain = |b: &Builtins| count(b, "atomic_load");
    // Six value types, plus atomic_half in global, local and generic (cl_ext_float_atomics).
    assert_eq!(plain(&cl30), 6 + 3);
    // opencl-c-base.h defines these header-only features for SPIR in 3.0 whatever -cl-ext
    // says (clang-19 -cl-ext=-__opencl_c_atomic_order_seq_cst still declares atomic_load),
    // so turning them off changes no builtin.
    let no_seq = mode(ClStd::Cl30, "-__opencl_c_atomic_order_seq_cst");
    assert_eq!(plain(&no_seq), 6 + 3);
    assert_eq!(
        count(&no_seq, "atomic_load_explicit"),
        count(&cl30, "atomic_load_explicit")
    );
    let no_dev = mode(ClStd::Cl30, "-__opencl_c_atomic_scope_device");
    assert_eq!(
        count(&no_dev, "atomic_load_explicit"),
        count(&cl30, "atomic_load_explicit")
    );
    let no_wg = mode(ClStd::Cl30, "-__opencl_c_work_group_collective_functions");
    assert_eq!(count(&no_wg, "work_group_reduce_add"), 7);
    assert_eq!(count(&cl30, "work_group_reduce_add"), 7);
    // 64-bit atomics need both cl_khr_int64 atomics extensions.
    let no64 = mode(ClStd::Cl30, "-cl_khr_int64_extended_atomics");
    assert_eq!(plain(&no64), 3 + 3);
    assert!(no64.lookup_str("atom_add").is_some());
    assert_eq!(count(&no64, "atom_min"), 4);
    // Sub-groups: cl_khr_subgroups exists from 2.0, cl_intel_subgroups (which also provides
    // them in clang) from 1.2.
    assert!(
        mode(ClStd::Cl11, "")
            .lookup_str("get_sub_group_size")
            .is_none()
    );
    assert!(
        mode(ClStd::Cl12, "")
            .lookup_str("get_sub_group_size")
            .is_some()
    );
    assert!(
        mode(ClStd::Cl12, "")
            .lookup_str("get_enqueued_num_sub_groups")
            .is_none()
    );
    assert!(cl30.lookup_str("sub_group_reduce_add").is_some());
    // cl_intel_subgroups alone still declares them (clang-19 agrees).
    assert!(
        mode(ClStd::Cl30, "-cl_khr_subgroups,-__opencl_c_subgroups")
            .lookup_str("get_sub_group_size")
            .is_some()
    );
    assert!(
        mode(
            ClStd::Cl30,
            "-cl_khr_subgroups,-__opencl_c_subgroups,-cl_intel_subgroups"
        )
        .lookup_str("get_sub_group_size")
        .is_none()
    );
    // Pipes and device enqueue are language builtins gated by their features.
    assert!(cl30.lookup_str("read_pipe").is_some());
    assert!(
        mode(ClStd::Cl30, "-__opencl_c_pipes")
            .lookup_str("read_pipe")
            .is_none()
    );
    assert!(mode(ClStd::Cl12, "").lookup_str("enqueue_kernel").is_none());
}

#[test]
fn library_off_keeps_language_builtins() {
    let lang = LangOptions::new(ClStd::Cl20);
    let cc1 = Builtins::with_library(&lang, false);
    assert!(cc1.lookup_str("to_global").is_some());
    assert!(cc1.lookup_str("read_pipe").is_some());
    assert!(cc1.lookup_str("get_global_id").is_none());
    assert!(cc1.lookup_str("printf").is_none());
    assert!(cc1.lookup_str("as_float").is_none());
    assert!(Builtins::new(&lang).lookup_str("as_float").is_some());
}

#[test]
fn signatures_are_concrete() {
    let b = mode(ClStd::Cl20, "");
    let id = b
        .lookup_str("atomic_compare_exchange_strong_explicit")
        .unwrap_or_else(|| panic!());
    let longest = b
        .overloads(id)
        .map(|o| b.signature(o))
        .find(|s| s.params().len() == 6)
        .unwrap_or_else(|| panic!());
    assert_eq!(longest.params().len(), 6);
    assert_eq!(longest.ret, BTy::Scalar(Scalar::Bool));
    assert_eq!(
        longest.params().first().map(|t| t.to_string()).as_deref(),
        Some("volatile __generic atomic_int *")
    );
    let printf = b.lookup_str("printf").unwrap_or_else(|| panic!());
    let o = b.overloads(printf).next().unwrap_or_else(|| panic!());
    let s = b.signature(o);
    assert!(s.variadic);
    assert_eq!(
        s.params(),
        &[BTy::Ptr(Ptr {
            pointee: Pointee::Scalar(Scalar::Char),
            space: AddrSpace::Constant,
            is_const: true,
            is_volatile: false
        })]
    );
}

#[test]
fn building_a_mode_is_cheap() {
    let lang = LangOptions::new(ClStd::Cl30);
    let _ = Builtins::new(&lang);
    let t = std::time::Instant::now();
    for _ in 0..100 {
        let b = Builtins::new(&lang);
        assert!(b.lookup_str("fract").is_some());
    }
    // Generous bound for unoptimized builds on a loaded machine: well under 1 ms each.
    assert!(t.elapsed().as_millis() < 200, "{:?}", t.elapsed());
}

#[test]
fn builtins_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let b = mode(ClStd::Cl20, "");
    shareable(&b);
    std::thread::scope(|s| {
        let h = s.spawn(|| count(&b, "fract"));
        assert_eq!(h.join().unwrap_or(0), 18);
    });
}
