//! `passes::casts::impossible_casts` (the fast path of `oclc check`) finds exactly the casts
//! the full pipeline reports, on hand-written kernels and on the CTS corpus.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use oclc_ir::passes::casts::impossible_casts;
use oclc_ir::passes::{PassOptions, run_default};
use oclc_ir::*;
use oclc_lower::lower;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
use std::path::{Path, PathBuf};

fn compile(src: &str) -> Option<Module> {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("k.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    if diags.has_errors() {
        return None;
    }
    lower(&program, &sm, &mut diags)
}

/// (fast path, full pipeline) verdicts as (target space, cast line offset) lists.
fn both(m: &Module) -> (Vec<passes::ImpossibleCast>, Vec<passes::ImpossibleCast>) {
    let fast = impossible_casts(&mut m.clone());
    let mut full = m.clone();
    let r = run_default(&mut full, &PassOptions { opt_level: 1 });
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    (fast, r.spaces.impossible_casts)
}

const HAND: &[(&str, usize)] = &[
    (
        "kernel void k(global int *g) { int *p = g; local int *q = (local int *)p; if (to_private(p)) *q = 1; }",
        2,
    ),
    // Through a helper called only with __global pointers, next to an unrelated function.
    (
        "int unrelated(int x) { return x * 2; }\n\
         int test(int *p) { return to_local(p) != 0; }\n\
         kernel void k(global int *g) { g[0] = test(g) + unrelated(g[1]); }",
        1,
    ),
    // A pointer returned by a callee reaches the cast.
    (
        "local int *id(local int *p) { return p; }\n\
         kernel void k(local int *l, global int *out) { int *p = id(l); out[0] = to_global(p) != 0; }",
        1,
    ),
    // Possible in one caller's version: no verdict.
    (
        "void f(int *p) { if (to_local(p)) *p = 1; }\n\
         kernel void k(global int *g, local int *l) { f(g); f(l); }",
        0,
    ),
];

#[test]
fn hand_written_kernels() {
    for (src, n) in HAND {
        let m = compile(src).expect("compiles");
        let (fast, full) = both(&m);
        assert_eq!(fast, full, "{src}");
        assert_eq!(fast.len(), *n, "{src}");
    }
}

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "cl") {
            out.push(p);
        }
    }
}

#[test]
fn cts_corpus_agrees_with_the_full_pipeline() {
    let Some(dir) = conformance::dir("cts-generic", "cts_corpus_agrees_with_the_full_pipeline")
    else {
        return;
    };
    let mut files = Vec::new();
    cl_files(&dir, &mut files);
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    let mut compared = 0;
    for p in &files {
        let Some(m) = std::fs::read_to_string(p).ok().and_then(|s| compile(&s)) else {
            continue;
        };
        let (fast, full) = both(&m);
        assert_eq!(fast, full, "{}", p.display());
        compared += 1;
    }
    assert!(compared > 400, "{compared} files compared");
}
