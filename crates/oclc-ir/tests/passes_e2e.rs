//! OpenCL C source through the whole front end, lowering and the passes: the seed memcpy
//! leaves no generic access, the seed's `bar` reports its merge with both origins, the
//! report and the IR after the passes are snapshots, and results never change.

mod passes_util;

use oclc_ir::passes::*;
use oclc_ir::*;
use oclc_lower::{LowerOptions, lower_with};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
use passes_util::{A, i32s, launch};

/// Compiles `src` as CL2.0; `all_in_memory` keeps every variable in a named slot (what
/// `oclc spaces` wants, so the report can name each pointer variable).
fn compile(name: &str, src: &str, all_in_memory: bool) -> (Module, SourceMap) {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text(name, src.to_string());
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
    let m = lower_with(&program, &sm, &mut diags, LowerOptions { all_in_memory })
        .unwrap_or_else(|| panic!("lowering failed: {:?}", diags.list));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    (m, sm)
}

const MEMCPY: &str = include_str!("in/passes_memcpy.cl");
const BAR: &str = include_str!("in/passes_bar.cl");

fn run_passes(m: &mut Module) -> PassReport {
    let r = run_default(m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    verify_module(m).unwrap_or_else(|e| panic!("{e:?}\n{}", print_module(m, None)));
    r
}

#[test]
fn seed_memcpy_has_no_generic_access_left() {
    for all_in_memory in [false, true] {
        let (mut m, sm) = compile("memcpy.cl", MEMCPY, all_in_memory);
        let r = run_passes(&mut m);
        assert_eq!(r.clones, 2);
        let counts: Vec<(&str, usize, usize)> = r
            .spaces
            .kernels
            .iter()
            .map(|k| (k.kernel.as_str(), k.before, k.after))
            .collect();
        assert_eq!(counts, [("from_global", 2, 0), ("from_local", 2, 0)]);
        if all_in_memory {
            let text = render_text(&r.spaces, &sm);
            assert!(text.contains("in (line 3): __global"), "{text}");
            assert!(text.contains("in (line 3): __local"), "{text}");
            insta::assert_snapshot!("e2e_memcpy_report", text);
            insta::assert_snapshot!("e2e_memcpy_ir", print_module(&m, Some(&sm)));
        }
    }
}

#[test]
fn seed_memcpy_results_are_unchanged() {
    let (m, _) = compile("memcpy.cl", MEMCPY, false);
    let data: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    let mut opt = m.clone();
    run_passes(&mut opt);
    for k in ["from_global", "from_local"] {
        let mut args = vec![A::Buf(data.clone()), A::Buf(vec![0; 256])];
        if k == "from_local" {
            args.push(A::Local(64));
        }
        let plain = launch(m.clone(), k, &args, 64, 16);
        let fast = launch(opt.clone(), k, &args, 64, 16);
        assert_eq!(plain, fast, "{k}");
        assert_eq!(plain[1], data, "{k}");
    }
}

#[test]
fn bar_reports_both_origins_and_casts_warn() {
    let (mut m, sm) = compile("bar.cl", BAR, true);
    let r = run_passes(&mut m);
    let text = render_text(&r.spaces, &sm);
    assert!(
        text.contains(": stays generic: merges __global (line 7) and __local (line 9) at line 10"),
        "{text}"
    );
    let warnings: Vec<(u32, &str)> = r
        .spaces
        .warnings
        .iter()
        .map(|w| (sm.location(w.span).map_or(0, |l| l.1), w.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [
            (
                21,
                "to_local() always returns NULL here: the pointer always points to __global memory"
            ),
            (
                25,
                "cast to a __local pointer can never succeed: the pointer always points to __global memory"
            )
        ]
    );
    insta::assert_snapshot!("e2e_bar_report", text);
    insta::assert_snapshot!("e2e_bar_report_json", render_json(&r.spaces, &sm));
    insta::assert_snapshot!("e2e_bar_ir", print_module(&m, Some(&sm)));
}

#[test]
fn bar_casts_and_misc_results_are_unchanged() {
    let (m, _) = compile("bar.cl", BAR, false);
    let mut opt = m.clone();
    run_passes(&mut opt);
    let args = [A::Buf(vec![0; 64]), A::Local(64)];
    let plain = launch(m.clone(), "bar", &args, 16, 8);
    assert_eq!(plain, launch(opt.clone(), "bar", &args, 16, 8));
    let want: Vec<i32> = (0..16).map(|i| if i % 2 == 0 { 42 } else { 43 }).collect();
    assert_eq!(i32s(&plain[0]), want);

    let g: Vec<u8> = 7i32.to_le_bytes().to_vec();
    let args = [A::Buf(g), A::Buf(vec![0; 16])];
    let plain = launch(m.clone(), "casts", &args, 1, 1);
    assert_eq!(plain, launch(opt.clone(), "casts", &args, 1, 1));
    assert_eq!(i32s(&plain[1]), [1, 1, 2, 7]);

    let g: Vec<u8> = (0..8i32).flat_map(|x| x.to_le_bytes()).collect();
    let args = [A::Buf(g), A::Local(16)];
    let plain = launch(m.clone(), "misc", &args, 1, 1);
    assert_eq!(plain, launch(opt, "misc", &args, 1, 1));
    assert_eq!(i32s(&plain[0]), [1, 1, 3, 4, 4, 5, 6, 7]);
}
