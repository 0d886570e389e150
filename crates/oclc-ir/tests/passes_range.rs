//! Value-range facts on the bench kernels' index expressions (the cuda device's work-item
//! bounds), and wrap cases that must keep the full range.

use oclc_ir::passes::range::{Range, Ranges, WorkItemBounds, analyze};
use oclc_ir::passes::{PassOptions, run_default};
use oclc_ir::*;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

/// The optimized IR of `src` (CL2.0).
fn compile(src: &str) -> Module {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("k.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.list);
    let mut m = oclc_lower::lower(&program, &sm, &mut diags)
        .unwrap_or_else(|| panic!("lowering failed: {:?}", diags.list));
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    m
}

fn cuda() -> WorkItemBounds {
    WorkItemBounds {
        max_local_size: Some(1024),
        max_groups: Some((1 << 31) - 1),
        max_global_end: Some(u32::MAX as u64),
        local_size: None,
    }
}

/// Every value of `f` with its interval, as `vN: [lo, hi] = op` lines (for failure output
/// and lookups by instruction text).
fn listing(f: &Function, r: &Ranges) -> Vec<(Value, String, Option<Range>)> {
    let text = oclc_ir::print_module(
        &Module {
            functions: vec![f.clone()],
            ..Module::default()
        },
        None,
    );
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        let Some((name, _)) = l.split_once(':') else {
            continue;
        };
        let Some(n) = name.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        out.push((Value(n), l.to_string(), r.of(Value(n))));
    }
    out
}

/// The interval of the first value whose printed definition contains `needle`.
fn range_of(m: &Module, bounds: &WorkItemBounds, needle: &str) -> Option<Range> {
    let f = m
        .functions
        .iter()
        .find(|f| f.is_kernel())
        .expect("a kernel");
    let r = analyze(f, bounds);
    let l = listing(f, &r);
    let hit = l.iter().find(|(_, t, _)| t.contains(needle));
    match hit {
        Some((_, _, r)) => *r,
        None => panic!("no `{needle}` in\n{l:#?}"),
    }
}

const U32: u64 = u32::MAX as u64;

fn r(lo: u64, hi: u64) -> Option<Range> {
    Some(Range::new(lo, hi))
}

#[test]
fn reduce_index_expressions() {
    let m = compile(include_str!("../../../bench/reduce_named.cl"));
    let b = cuda();
    assert_eq!(range_of(&m, &b, "work_item local_id"), r(0, 1023));
    assert_eq!(range_of(&m, &b, "work_item local_size"), r(1, 1024));
    assert_eq!(range_of(&m, &b, "work_item group_id"), r(0, (1 << 31) - 2));
    // lsz / 2, and s >>= 1 inside the loop.
    assert_eq!(range_of(&m, &b, "= udiv"), r(0, 512));
    assert_eq!(range_of(&m, &b, "= lshr"), r(0, 256));
    // scratch[lid + s] under `lid < s`: lid <= 511, so the sum is below 1024.
    assert_eq!(range_of(&m, &b, "i64 = add v5, v44"), r(1, 1023));
    // grp * lsz fits in 42 bits; times a uint per_item it may wrap: full range.
    assert_eq!(
        range_of(&m, &b, "i64 = mul v9, v7"),
        r(0, ((1 << 31) - 2) * 1024)
    );
    assert_eq!(range_of(&m, &b, "i64 = mul v10, v11"), r(0, u64::MAX));
    // j < per_item bounds j by 2^32 - 2 in the loop body.
    assert_eq!(range_of(&m, &b, "i64 = zext v16"), r(0, U32 - 1));
}

#[test]
fn copy_global_id_is_32_bit_only_under_the_launch_bound() {
    let m = compile(include_str!("../../../bench/copy_named.cl"));
    assert_eq!(range_of(&m, &cuda(), "work_item global_id"), r(0, U32 - 1));
    // i * 4 does not fit in 32 bits (it needs mul.wide), but does not wrap in 64.
    assert_eq!(range_of(&m, &cuda(), "= mul"), r(0, (U32 - 1) * 4));
    let none = WorkItemBounds::none();
    assert_eq!(range_of(&m, &none, "work_item global_id"), r(0, u64::MAX));
    assert_eq!(range_of(&m, &none, "= mul"), r(0, u64::MAX));
}

#[test]
fn wrapping_index_arithmetic_keeps_the_full_range() {
    let src = "kernel void k(global int *o, ulong off, uint a, uint b, int n) {\n\
               size_t g = get_global_id(0) + off;\n\
               o[0] = (int)g;\n\
               size_t l = get_local_id(0) - 1;\n\
               o[1] = (int)l;\n\
               uint p = a * b;\n\
               o[2] = p;\n\
               int q = n + 1;\n\
               o[3] = q;\n\
               }\n";
    let m = compile(src);
    let b = cuda();
    // + a ulong: may wrap.
    assert_eq!(range_of(&m, &b, "i64 = add"), r(0, u64::MAX));
    // lid - 1 wraps at lid == 0.
    assert_eq!(range_of(&m, &b, "i64 = sub"), r(0, u64::MAX));
    // uint * uint and int + 1 wrap in 32 bits (signed overflow is not assumed away).
    assert_eq!(range_of(&m, &b, "i32 = mul"), r(0, U32));
    assert_eq!(range_of(&m, &b, "i32 = add"), r(0, U32));
}

#[test]
fn loop_counters_widen_unless_a_bound_test_holds() {
    let src = "kernel void k(global float *o, uint n) {\n\
               size_t lid = get_local_id(0);\n\
               for (size_t i = lid; i < n; i += get_local_size(0))\n\
                   o[i] = 1.0f;\n\
               for (int j = 0; j < 16; j++)\n\
                   o[j * 4] = 2.0f;\n\
               }\n";
    let m = compile(src);
    let b = cuda();
    let f = &m.functions[0];
    let ranges = analyze(f, &b);
    let l = listing(f, &ranges);
    // i < n (a uint) bounds i below 2^32 - 1 in the body, so i * 4 is exact in 64 bits...
    let muls: Vec<Option<Range>> = l
        .iter()
        .filter(|(_, t, _)| t.contains("i64 = mul"))
        .map(|(_, _, r)| *r)
        .collect();
    assert_eq!(
        muls.first().copied().flatten(),
        Range::new(0, (U32 - 1) * 4).into()
    );
    // ... but i + local_size may pass 2^32 - 1: the parameter is not narrowed.
    let add = l
        .iter()
        .find(|(_, t, _)| t.contains("i64 = add"))
        .and_then(|(_, _, r)| *r);
    assert_eq!(add, Some(Range::new(1, U32 - 1 + 1024)));
    // j in [0, 15] in the body: j * 4 in [0, 60]; j + 1 in [1, 16].
    assert!(
        l.iter()
            .any(|(_, t, r)| t.contains("i32 = mul") && *r == Some(Range::new(0, 60))),
        "{l:#?}"
    );
    assert!(
        l.iter()
            .any(|(_, t, r)| t.contains("i32 = add") && *r == Some(Range::new(1, 16))),
        "{l:#?}"
    );
}

#[test]
fn signed_tests_on_possibly_negative_values_refine_nothing() {
    let src = "kernel void k(global int *o, int n, int m) {\n\
               if (n < m) o[0] = n + 1;\n\
               }\n";
    let m = compile(src);
    assert_eq!(range_of(&m, &cuda(), "i32 = add"), r(0, U32));
}
