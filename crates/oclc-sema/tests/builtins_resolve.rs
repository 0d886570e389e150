//! Overload resolution of builtin calls: the chosen overload, ambiguity and the reasons given
//! for candidates that are not viable.

use oclc_sema::builtins::{
    Access, Arg, Atomic, BTy, BadConv, Builtins, ImageKind, NoMatch, NotViable, Pointee, Ptr,
    Resolved, Scalar, Special,
};
use oclc_sema::space::AddrSpace;
use oclc_syntax::{ClStd, LangOptions};

fn mode(std: ClStd) -> Builtins {
    Builtins::new(&LangOptions::new(std))
}

fn s(x: Scalar) -> BTy {
    BTy::Scalar(x)
}

fn v(x: Scalar, n: u8) -> BTy {
    BTy::Vector(x, n)
}

fn ptr(pointee: Pointee, space: AddrSpace) -> BTy {
    BTy::Ptr(Ptr {
        pointee,
        space,
        is_const: false,
        is_volatile: false,
    })
}

fn cptr(pointee: Pointee, space: AddrSpace) -> BTy {
    BTy::Ptr(Ptr {
        pointee,
        space,
        is_const: true,
        is_volatile: false,
    })
}

fn vptr(pointee: Pointee, space: AddrSpace) -> BTy {
    BTy::Ptr(Ptr {
        pointee,
        space,
        is_const: false,
        is_volatile: true,
    })
}

const FLOAT: Pointee = Pointee::Scalar(Scalar::Float);
const ATOMIC_INT: Pointee = Pointee::Atomic(Atomic {
    value: Scalar::Int,
    flag: false,
});

fn call(b: &Builtins, name: &str, args: &[Arg]) -> Result<Resolved, NoMatch> {
    let id = b
        .lookup_str(name)
        .unwrap_or_else(|| panic!("{name} is not a builtin"));
    b.resolve(id, args)
}

fn ok(b: &Builtins, name: &str, args: &[Arg]) -> Resolved {
    match call(b, name, args) {
        Ok(r) => r,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

fn args(tys: &[BTy]) -> Vec<Arg> {
    tys.iter().map(|&t| Arg::of(t)).collect()
}

#[test]
fn fract_with_private_pointer() {
    let a = args(&[s(Scalar::Float), ptr(FLOAT, AddrSpace::Private)]);
    // CL1.2: the named __private overload, an exact match.
    let r = ok(&mode(ClStd::Cl12), "fract", &a);
    assert!(r.overloaded);
    assert_eq!(r.sig.ret, s(Scalar::Float));
    assert_eq!(
        r.sig.params(),
        &[s(Scalar::Float), ptr(FLOAT, AddrSpace::Private)]
    );
    // CL2.0: the generic overload; private -> generic is a qualification conversion.
    let r = ok(&mode(ClStd::Cl20), "fract", &a);
    assert_eq!(
        r.sig.params(),
        &[s(Scalar::Float), ptr(FLOAT, AddrSpace::Generic)]
    );
    let c = r
        .convs
        .get(1)
        .copied()
        .flatten()
        .unwrap_or_else(|| panic!());
    assert!(c.qualification);
    // A vector call picks the matching width.
    let a = args(&[
        v(Scalar::Float, 4),
        ptr(Pointee::Vector(Scalar::Float, 4), AddrSpace::Local),
    ]);
    let r = ok(&mode(ClStd::Cl12), "fract", &a);
    assert_eq!(r.sig.ret, v(Scalar::Float, 4));
    assert_eq!(
        r.sig.params().get(1),
        Some(&ptr(Pointee::Vector(Scalar::Float, 4), AddrSpace::Local))
    );
}

#[test]
fn vload_from_constant() {
    for std in [ClStd::Cl12, ClStd::Cl20, ClStd::Cl30] {
        let a = args(&[s(Scalar::Size), cptr(FLOAT, AddrSpace::Constant)]);
        let r = ok(&mode(std), "vload4", &a);
        assert_eq!(r.sig.ret, v(Scalar::Float, 4));
        assert_eq!(
            r.sig.params().get(1),
            Some(&cptr(FLOAT, AddrSpace::Constant))
        );
    }
    // A non-const global pointer and an int offset: generic const overload in CL2.0.
    let a = args(&[
        s(Scalar::Int),
        ptr(Pointee::Scalar(Scalar::UShort), AddrSpace::Global),
    ]);
    let r = ok(&mode(ClStd::Cl20), "vload8", &a);
    assert_eq!(r.sig.ret, v(Scalar::UShort, 8));
    assert_eq!(
        r.sig.params().get(1),
        Some(&cptr(Pointee::Scalar(Scalar::UShort), AddrSpace::Generic))
    );
    let r = ok(&mode(ClStd::Cl12), "vload8", &a);
    assert_eq!(
        r.sig.params().get(1),
        Some(&cptr(Pointee::Scalar(Scalar::UShort), AddrSpace::Global))
    );
}

#[test]
fn vstore_and_constant_pointers() {
    let b = mode(ClStd::Cl20);
    let a = args(&[
        v(Scalar::Double, 3),
        s(Scalar::Int),
        ptr(Pointee::Scalar(Scalar::Double), AddrSpace::Local),
    ]);
    let r = ok(&b, "vstore3", &a);
    assert_eq!(r.sig.ret, BTy::Void);
    assert_eq!(
        r.sig.params().get(2),
        Some(&ptr(Pointee::Scalar(Scalar::Double), AddrSpace::Generic))
    );
    // vstore has no constant overload: every candidate is not viable.
    let a = args(&[
        v(Scalar::Float, 4),
        s(Scalar::Int),
        cptr(FLOAT, AddrSpace::Constant),
    ]);
    let Err(NoMatch::NoViable(cands)) = call(&b, "vstore4", &a) else {
        panic!("vstore4 to constant must fail");
    };
    assert_eq!(cands.len(), 11);
    let float_cand = cands
        .iter()
        .find(|c| c.sig.params().first() == Some(&v(Scalar::Float, 4)))
        .unwrap_or_else(|| panic!());
    assert_eq!(
        float_cand.reason,
        NotViable::Conversion {
            arg: 2,
            to: ptr(FLOAT, AddrSpace::Generic),
            why: BadConv::AddrSpace {
                from: AddrSpace::Constant,
                to: AddrSpace::Generic
            }
        }
    );
    assert_eq!(
        float_cand
            .reason
            .note(|_| "__constant float *__private".into(), |t| t.to_string()),
        "candidate function not viable: cannot pass pointer to address space '__constant' as a \
         pointer to address space '__generic' in 3rd argument"
    );
    let int_cand = cands
        .iter()
        .find(|c| c.sig.params().first() == Some(&v(Scalar::Int, 4)))
        .unwrap_or_else(|| panic!());
    assert_eq!(
        int_cand.reason.note(|_| "float4".into(), |t| t.to_string()),
        "candidate function not viable: no known conversion from 'float4' to 'int4' for 1st argument"
    );
}

#[test]
fn c11_atomics() {
    let b = mode(ClStd::Cl20);
    let int = s(Scalar::Int);
    let order_scope = [Arg::int_const(int, 0), Arg::int_const(int, 1)];
    let mut a = vec![
        Arg::of(vptr(ATOMIC_INT, AddrSpace::Generic)),
        Arg::int_const(int, 1),
    ];
    a.extend(order_scope);
    let r = ok(&b, "atomic_fetch_add_explicit", &a);
    assert_eq!(r.sig.ret, int);
    assert_eq!(
        r.sig.params(),
        &[
            vptr(ATOMIC_INT, AddrSpace::Generic),
            int,
            BTy::MemoryOrder,
            BTy::MemoryScope
        ]
    );
    // A non-volatile __local atomic_int * converts by qualification.
    a[0] = Arg::of(ptr(ATOMIC_INT, AddrSpace::Local));
    let r = ok(&b, "atomic_fetch_add_explicit", &a);
    assert_eq!(r.sig.ret, int);
    // Three arguments: the memory_order-only form.
    let r = ok(
        &b,
        "atomic_load_explicit",
        &a[..1].iter().copied().chain([a[2]]).collect::<Vec<_>>(),
    );
    assert_eq!(
        r.sig.params(),
        &[vptr(ATOMIC_INT, AddrSpace::Generic), BTy::MemoryOrder]
    );
    // atomic_store_explicit(&globalPtr[i], atomic_load_explicit(...), relaxed, work_group)
    let st = [
        Arg::of(ptr(ATOMIC_INT, AddrSpace::Global)),
        Arg::of(int),
        Arg::int_const(int, 0),
        Arg::int_const(int, 1),
    ];
    let r = ok(&b, "atomic_store_explicit", &st);
    assert_eq!(r.sig.ret, BTy::Void);
    // CL1.2 has no C11 atomics; CL3.0 without generic space declares global/local ones.
    assert!(
        mode(ClStd::Cl12)
            .lookup_str("atomic_fetch_add_explicit")
            .is_none()
    );
    let mut lang = LangOptions::new(ClStd::Cl30);
    lang.apply_cl_ext("-__opencl_c_generic_address_space")
        .unwrap_or_else(|e| panic!("{e}"));
    let named = Builtins::new(&lang);
    let r = ok(&named, "atomic_fetch_add_explicit", &a);
    assert_eq!(
        r.sig.params().first(),
        Some(&vptr(ATOMIC_INT, AddrSpace::Local))
    );
}

#[test]
fn legacy_atomics_prefer_matching_signedness() {
    let b = mode(ClStd::Cl12);
    let a = [
        Arg::of(ptr(Pointee::Scalar(Scalar::Int), AddrSpace::Global)),
        Arg::int_const(s(Scalar::Int), 1),
    ];
    let r = ok(&b, "atomic_add", &a);
    assert_eq!(r.sig.ret, s(Scalar::Int));
    assert_eq!(
        r.sig.params().first(),
        Some(&vptr(Pointee::Scalar(Scalar::Int), AddrSpace::Global))
    );
    let a = [Arg::of(ptr(
        Pointee::Scalar(Scalar::UInt),
        AddrSpace::Local,
    ))];
    assert_eq!(ok(&b, "atomic_inc", &a).sig.ret, s(Scalar::UInt));
}

#[test]
fn ambiguous_calls() {
    let b = mode(ClStd::Cl12);
    // float4 with an int: int -> float (a conversion) beats the splat to float4 (OpenCL scalar
    // widening ranks below conversions); clang-19 agrees.
    let r = ok(&b, "max", &args(&[v(Scalar::Float, 4), s(Scalar::Int)]));
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4), s(Scalar::Float)]);
    let r = ok(&b, "fmin", &args(&[v(Scalar::Float, 4), s(Scalar::Int)]));
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4), s(Scalar::Float)]);
    // Without a vector/scalar overload the splat is taken.
    let r = ok(&b, "pow", &args(&[v(Scalar::Float, 4), s(Scalar::Float)]));
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4), v(Scalar::Float, 4)]);
    // Conversions beat splats in every argument (clang-19: clamp(float4, float, float)).
    let r = ok(
        &b,
        "clamp",
        &args(&[v(Scalar::Float, 4), s(Scalar::Double), s(Scalar::Int)]),
    );
    assert_eq!(
        r.sig.params(),
        &[v(Scalar::Float, 4), s(Scalar::Float), s(Scalar::Float)]
    );
    let r = ok(&b, "step", &args(&[s(Scalar::Int), v(Scalar::Float, 4)]));
    assert_eq!(r.sig.params(), &[s(Scalar::Float), v(Scalar::Float, 4)]);
    // Each candidate is better in one argument: ambiguous (clang-19 agrees).
    let Err(NoMatch::Ambiguous(tied)) =
        call(&b, "hypot", &args(&[s(Scalar::Float), s(Scalar::Double)]))
    else {
        panic!("hypot(float, double) must be ambiguous");
    };
    let sigs: Vec<_> = tied
        .iter()
        .map(|&o| b.signature(o).params().to_vec())
        .collect();
    assert_eq!(
        sigs,
        vec![
            vec![s(Scalar::Float), s(Scalar::Float)],
            vec![s(Scalar::Double), s(Scalar::Double)]
        ]
    );
    assert!(matches!(
        call(&b, "max", &args(&[s(Scalar::Char), s(Scalar::Short)])),
        Err(NoMatch::Ambiguous(_))
    ));
    // int and uint: no overload is better in both arguments.
    assert!(matches!(
        call(&b, "max", &args(&[s(Scalar::Int), s(Scalar::UInt)])),
        Err(NoMatch::Ambiguous(_))
    ));
    // Exact matches are not ambiguous.
    let r = ok(&b, "max", &args(&[v(Scalar::Float, 4), s(Scalar::Float)]));
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4), s(Scalar::Float)]);
    let r = ok(
        &b,
        "max",
        &args(&[v(Scalar::Float, 4), v(Scalar::Float, 4)]),
    );
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4), v(Scalar::Float, 4)]);
    let r = ok(&b, "max", &args(&[s(Scalar::Int), s(Scalar::Int)]));
    assert_eq!(r.sig.ret, s(Scalar::Int));
    // sqrt(int): int converts to float, double and half alike.
    assert!(matches!(
        call(&b, "sqrt", &args(&[s(Scalar::Int)])),
        Err(NoMatch::Ambiguous(_))
    ));
    // sqrt(float) is exact.
    assert_eq!(
        ok(&b, "sqrt", &args(&[s(Scalar::Float)])).sig.ret,
        s(Scalar::Float)
    );
}

#[test]
fn promotions_rank_above_conversions() {
    let b = mode(ClStd::Cl12);
    // char -> int is a promotion; char -> other integers are conversions.
    let r = ok(&b, "clz", &args(&[s(Scalar::Char)]));
    assert_eq!(r.sig.ret, s(Scalar::Char));
    let r = ok(&b, "mul24", &args(&[s(Scalar::Short), s(Scalar::Short)]));
    assert_eq!(r.sig.ret, s(Scalar::Int));
    // abs returns the unsigned type.
    assert_eq!(
        ok(&b, "abs", &args(&[s(Scalar::Int)])).sig.ret,
        s(Scalar::UInt)
    );
    assert_eq!(
        ok(&b, "abs", &args(&[v(Scalar::Char, 16)])).sig.ret,
        v(Scalar::UChar, 16)
    );
}

#[test]
fn arity_failures() {
    let b = mode(ClStd::Cl12);
    let Err(NoMatch::NoViable(c)) = call(&b, "fract", &args(&[s(Scalar::Float)])) else {
        panic!();
    };
    assert_eq!(c.len(), 54);
    assert!(c.iter().all(|c| matches!(
        c.reason,
        NotViable::Arity {
            expected: 2,
            got: 1,
            variadic: false
        }
    )));
    assert_eq!(
        c.first()
            .map(|c| c.reason.note(|_| String::new(), |t| t.to_string()))
            .as_deref(),
        Some("candidate function not viable: requires 2 arguments, but 1 was provided")
    );
}

#[test]
fn single_prototype_is_a_plain_call() {
    let b = mode(ClStd::Cl12);
    let r = ok(&b, "get_global_id", &[Arg::int_const(s(Scalar::Int), 0)]);
    assert!(!r.overloaded);
    assert_eq!(r.sig.ret, s(Scalar::Size));
    // Even with the wrong arguments: sema reports them as for any C call.
    let r = ok(&b, "get_global_id", &[]);
    assert!(!r.overloaded);
    let r = ok(&b, "barrier", &[Arg::int_const(s(Scalar::Int), 1)]);
    assert_eq!(r.sig.params(), &[s(Scalar::MemFenceFlags)]);
    let b20 = mode(ClStd::Cl20);
    let r = ok(
        &b20,
        "work_group_barrier",
        &[Arg::int_const(s(Scalar::Int), 1)],
    );
    assert!(r.overloaded);
    assert_eq!(r.sig.params(), &[s(Scalar::MemFenceFlags)]);
}

#[test]
fn get_fence_prefers_non_const() {
    let b = mode(ClStd::Cl20);
    let r = ok(
        &b,
        "get_fence",
        &args(&[ptr(Pointee::Scalar(Scalar::Int), AddrSpace::Global)]),
    );
    assert_eq!(r.sig.ret, s(Scalar::MemFenceFlags));
    assert_eq!(r.sig.params(), &[ptr(Pointee::Void, AddrSpace::Generic)]);
    let r = ok(
        &b,
        "get_fence",
        &args(&[cptr(Pointee::Scalar(Scalar::UChar), AddrSpace::Local)]),
    );
    assert_eq!(r.sig.params(), &[cptr(Pointee::Void, AddrSpace::Generic)]);
    // A constant pointer is never viable.
    assert!(matches!(
        call(&b, "get_fence", &args(&[ptr(FLOAT, AddrSpace::Constant)])),
        Err(NoMatch::NoViable(_))
    ));
}

#[test]
fn relational_select_and_conversions() {
    let b = mode(ClStd::Cl12);
    let r = ok(
        &b,
        "select",
        &args(&[v(Scalar::Int, 4), v(Scalar::Int, 4), v(Scalar::Int, 4)]),
    );
    assert_eq!(r.sig.ret, v(Scalar::Int, 4));
    let r = ok(
        &b,
        "select",
        &args(&[v(Scalar::Float, 2), v(Scalar::Float, 2), v(Scalar::UInt, 2)]),
    );
    assert_eq!(r.sig.params().get(2), Some(&v(Scalar::UInt, 2)));
    assert_eq!(
        ok(&b, "isnan", &args(&[v(Scalar::Double, 8)])).sig.ret,
        v(Scalar::Long, 8)
    );
    assert_eq!(
        ok(&b, "isnan", &args(&[s(Scalar::Double)])).sig.ret,
        s(Scalar::Int)
    );
    assert_eq!(
        ok(&b, "all", &args(&[v(Scalar::Int, 4)])).sig.ret,
        s(Scalar::Int)
    );
    let r = ok(&b, "convert_int4_sat_rte", &args(&[v(Scalar::Float, 4)]));
    assert_eq!(r.sig.params(), &[v(Scalar::Float, 4)]);
    assert_eq!(r.sig.ret, v(Scalar::Int, 4));
    assert!(matches!(
        call(&b, "convert_int4", &args(&[v(Scalar::Float, 8)])),
        Err(NoMatch::NoViable(_))
    ));
    let r = ok(
        &b,
        "dot",
        &args(&[v(Scalar::Float, 3), v(Scalar::Float, 3)]),
    );
    assert_eq!(r.sig.ret, s(Scalar::Float));
}

#[test]
fn images_samplers_and_events() {
    let b = mode(ClStd::Cl12);
    let img = BTy::Image(ImageKind::Image2d, Access::ReadOnly);
    let r = ok(
        &b,
        "read_imagef",
        &args(&[img, BTy::Sampler, v(Scalar::Int, 2)]),
    );
    assert_eq!(r.sig.ret, v(Scalar::Float, 4));
    let r = ok(
        &b,
        "read_imagef",
        &args(&[img, BTy::Sampler, v(Scalar::Float, 2)]),
    );
    assert_eq!(r.sig.params().get(2), Some(&v(Scalar::Float, 2)));
    // An integer constant converts to sampler_t.
    let a = [
        Arg::of(img),
        Arg::int_const(s(Scalar::Int), 0x10),
        Arg::of(v(Scalar::Int, 2)),
    ];
    assert_eq!(ok(&b, "read_imagei", &a).sig.ret, v(Scalar::Int, 4));
    let wo = BTy::Image(ImageKind::Image2d, Access::WriteOnly);
    let a = args(&[wo, v(Scalar::Int, 2), v(Scalar::Float, 4)]);
    assert_eq!(ok(&b, "write_imagef", &a).sig.ret, BTy::Void);
    // Reading a write-only image is not possible.
    assert!(matches!(
        call(&b, "read_imagef", &args(&[wo, v(Scalar::Int, 2)])),
        Err(NoMatch::NoViable(_))
    ));
    // async copy with a 0 event.
    let a = [
        Arg::of(ptr(FLOAT, AddrSpace::Local)),
        Arg::of(ptr(FLOAT, AddrSpace::Global)),
        Arg::of(s(Scalar::Size)),
        Arg::int_const(s(Scalar::Int), 0),
    ];
    let r = ok(&b, "async_work_group_copy", &a);
    assert_eq!(r.sig.ret, BTy::Event);
    assert_eq!(r.sig.params().get(1), Some(&cptr(FLOAT, AddrSpace::Global)));
}

#[test]
fn specials_are_reported() {
    let b = mode(ClStd::Cl20);
    assert!(matches!(
        call(&b, "to_global", &args(&[ptr(FLOAT, AddrSpace::Generic)])),
        Err(NoMatch::Special(Special::ToAddrSpace(AddrSpace::Global)))
    ));
    let id = b.lookup_str("as_float4").unwrap_or_else(|| panic!());
    assert_eq!(b.special(id), Some(Special::AsType(v(Scalar::Float, 4))));
    let id = b.lookup_str("as_size_t").unwrap_or_else(|| panic!());
    assert_eq!(b.special(id), Some(Special::AsType(s(Scalar::Size))));
}

#[test]
fn incompatible_pointers_stay_viable() {
    // clang keeps a candidate whose pointer argument is merely incompatible (C allows it with
    // a diagnostic), at the worst rank.
    let b = mode(ClStd::Cl12);
    let a = args(&[
        v(Scalar::Float, 4),
        s(Scalar::Int),
        ptr(Pointee::Scalar(Scalar::Int), AddrSpace::Global),
    ]);
    let r = ok(&b, "vstore4", &a);
    assert_eq!(r.sig.params().get(2), Some(&ptr(FLOAT, AddrSpace::Global)));
    let c = r
        .convs
        .get(2)
        .copied()
        .flatten()
        .unwrap_or_else(|| panic!());
    assert_eq!(c.kind, oclc_sema::builtins::ConvKind::IncompatiblePointer);
}

#[test]
fn notes_come_in_clangs_display_order() {
    let b = mode(ClStd::Cl20);
    // Exact first, then the promotion (float -> double), then conversions in table order.
    let a = args(&[s(Scalar::Float), ptr(FLOAT, AddrSpace::Constant)]);
    let Err(NoMatch::NoViable(c)) = call(&b, "fract", &a) else {
        panic!("fract with a constant pointer must fail");
    };
    let firsts: Vec<BTy> = c.iter().take(4).map(|c| c.sig.ret).collect();
    assert_eq!(
        firsts,
        vec![
            s(Scalar::Float),
            s(Scalar::Double),
            s(Scalar::Half),
            v(Scalar::Float, 2)
        ]
    );
    assert!(
        c.iter()
            .all(|c| matches!(c.reason, NotViable::Conversion { arg: 1, .. }))
    );
    // Arity mismatches: nearest parameter count first, too-many before too-few.
    let Err(NoMatch::NoViable(c)) = call(&b, "work_group_barrier", &[]) else {
        panic!();
    };
    let counts: Vec<usize> = c.iter().map(|c| c.sig.params().len()).collect();
    assert_eq!(counts, vec![1, 2]);
    let three = [Arg::int_const(s(Scalar::Int), 1); 3];
    let Err(NoMatch::NoViable(c)) = call(&b, "work_group_barrier", &three) else {
        panic!();
    };
    let counts: Vec<usize> = c.iter().map(|c| c.sig.params().len()).collect();
    assert_eq!(counts, vec![2, 1]);
}

/// The notes clang-19 prints for `fract(1.0f, c)` with `constant float *c` in CL2.0 (checked
/// with `clang-19 -cl-std=CL2.0 -fsyntax-only`): the address-space note first, then the other
/// element types with the address-of fix.
#[test]
fn fract_constant_notes_match_clang() {
    use oclc_sema::builtins::{ArgForm, Fix, Lvalue};
    let b = mode(ClStd::Cl20);
    let c = Arg::of(ptr(FLOAT, AddrSpace::Constant));
    let c_form = ArgForm {
        lvalue: Some(Lvalue {
            space: AddrSpace::Private,
            is_const: false,
            is_volatile: false,
        }),
        ..ArgForm::default()
    };
    let id = b.lookup_str("fract").unwrap_or_else(|| panic!());
    let res = b.resolve_with_forms(
        id,
        &[Arg::of(s(Scalar::Float)), c],
        &[ArgForm::default(), c_form],
    );
    let Err(NoMatch::NoViable(cands)) = res else {
        panic!();
    };
    let notes: Vec<String> = cands
        .iter()
        .take(3)
        .filter_map(|c| c.note(|_| "__constant float *__private".into(), |t| t.to_string()))
        .collect();
    assert_eq!(
        notes,
        vec![
            "candidate function not viable: cannot pass pointer to address space '__constant' as a pointer to address space '__generic' in 2nd argument",
            "candidate function not viable: no known conversion from '__constant float *__private' to '__generic double *' for 2nd argument; take the address of the argument with &",
            "candidate function not viable: no known conversion from '__constant float *__private' to '__generic half *' for 2nd argument; take the address of the argument with &",
        ]
    );
    assert_eq!(cands.len(), 18);
    assert!(
        cands
            .iter()
            .skip(1)
            .all(|c| c.fix == Some(Fix::TakeAddress))
    );
    // No lvalue, no fix.
    let Err(NoMatch::NoViable(cands)) = call(
        &b,
        "fract",
        &args(&[s(Scalar::Float), ptr(FLOAT, AddrSpace::Constant)]),
    ) else {
        panic!();
    };
    assert!(cands.iter().all(|c| c.fix.is_none()));
    // Arity failures get no notes for builtins.
    let Err(NoMatch::NoViable(cands)) = call(&b, "fract", &args(&[s(Scalar::Float)])) else {
        panic!();
    };
    assert!(
        cands
            .iter()
            .all(|c| c.note(|_| String::new(), |t| t.to_string()).is_none())
    );
}

/// clang-19's note order for `async_work_group_copy(p, g, 4, 0)` with `__private float *p`
/// (CL2.0): the local-destination float candidate moves first (its other arguments convert
/// better), everything else keeps declaration order, so the global float candidate stays at
/// its place after the eight integer types.
#[test]
fn async_copy_note_order_matches_clang() {
    let b = mode(ClStd::Cl20);
    let a = [
        Arg::of(ptr(FLOAT, AddrSpace::Private)),
        Arg::of(ptr(FLOAT, AddrSpace::Global)),
        Arg::int_const(s(Scalar::Int), 4),
        Arg::int_const(s(Scalar::Int), 0),
    ];
    let Err(NoMatch::NoViable(c)) = call(&b, "async_work_group_copy", &a) else {
        panic!();
    };
    assert_eq!(c.len(), 132);
    let first = c
        .first()
        .map(|c| (c.sig.params().first().copied(), c.reason));
    assert_eq!(
        first,
        Some((
            Some(ptr(FLOAT, AddrSpace::Local)),
            NotViable::Conversion {
                arg: 0,
                to: ptr(FLOAT, AddrSpace::Local),
                why: BadConv::AddrSpace {
                    from: AddrSpace::Private,
                    to: AddrSpace::Local
                }
            }
        ))
    );
    assert_eq!(
        c.get(1).and_then(|c| c.sig.params().first().copied()),
        Some(ptr(Pointee::Scalar(Scalar::Char), AddrSpace::Local))
    );
    assert_eq!(
        c.get(74).and_then(|c| c.sig.params().first().copied()),
        Some(ptr(FLOAT, AddrSpace::Global))
    );
    assert_eq!(
        c.get(73).and_then(|c| c.sig.params().first().copied()),
        Some(ptr(Pointee::Scalar(Scalar::ULong), AddrSpace::Global))
    );
}

/// Qualifier-dropping and `void *` arguments, checked against clang-19 (CL1.2): dropping
/// `const` is an incompatible-pointer conversion that stays viable; `volatile float *` and
/// `void *` fit every `vload4` element type equally, so the calls are ambiguous.
#[test]
fn qualifier_dropping_pointers_match_clang() {
    let b = mode(ClStd::Cl12);
    let int = Pointee::Scalar(Scalar::Int);
    let r = ok(
        &b,
        "atomic_add",
        &[
            Arg::of(cptr(int, AddrSpace::Global)),
            Arg::int_const(s(Scalar::Int), 1),
        ],
    );
    assert_eq!(r.sig.params().first(), Some(&vptr(int, AddrSpace::Global)));
    let r = ok(
        &b,
        "atomic_xchg",
        &args(&[cptr(int, AddrSpace::Global), s(Scalar::Int)]),
    );
    assert_eq!(r.sig.ret, s(Scalar::Int));
    let uint = Pointee::Scalar(Scalar::UInt);
    let r = ok(&b, "atomic_inc", &args(&[vptr(uint, AddrSpace::Global)]));
    assert_eq!(r.sig.ret, s(Scalar::UInt));
    let r = ok(
        &b,
        "vstore4",
        &[
            Arg::of(v(Scalar::Float, 4)),
            Arg::int_const(s(Scalar::Int), 0),
            Arg::of(cptr(FLOAT, AddrSpace::Local)),
        ],
    );
    assert_eq!(r.sig.params().get(2), Some(&ptr(FLOAT, AddrSpace::Local)));
    let zero = Arg::int_const(s(Scalar::Int), 0);
    assert!(matches!(
        call(
            &b,
            "vload4",
            &[zero, Arg::of(vptr(FLOAT, AddrSpace::Global))]
        ),
        Err(NoMatch::Ambiguous(_))
    ));
    assert!(matches!(
        call(
            &b,
            "vload4",
            &[zero, Arg::of(ptr(Pointee::Void, AddrSpace::Global))]
        ),
        Err(NoMatch::Ambiguous(_))
    ));
}
