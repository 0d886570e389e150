//! A generated program with many generic helpers, each called with a global and a local
//! pointer: every call site gets its clone and no generic access is left. (Its release-build
//! timing was the benchmark for the passes: 6000 lines in about 50 ms.)

use oclc_ir::passes::*;
use oclc_ir::verify_module;
use oclc_lower::lower;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

fn generated(n: usize) -> String {
    let mut src = String::new();
    for k in 0..n {
        src += &format!(
            "void h{k}(int *p, int n) {{\n  int s = 0;\n  int *q = p;\n  for (int i = 0; i < n; i++) {{\n    if (i & 1) s += q[i];\n    else s -= p[i];\n    q = p + (i & 3);\n  }}\n  p[0] = s;\n}}\n"
        );
    }
    src += "kernel void k(global int *g, local int *l) {\n";
    for k in 0..n {
        src += &format!("  h{k}(g, 4);\n  h{k}(l, 4);\n");
    }
    src += "}\n";
    src
}

#[test]
fn many_helpers_are_all_specialized() {
    let n = 100;
    let src = generated(n);
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("gen.cl", src);
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: vec![],
        include_dirs: vec![],
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    assert!(!diags.has_errors());
    let mut m = lower(&program, &sm, &mut diags).expect("lowers");
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    verify_module(&m).expect("verifies");
    assert_eq!(r.clones, 2 * n);
    assert_eq!(m.functions.len(), 2 * n + 1);
    assert_eq!(
        r.spaces.kernels,
        [KernelAccesses {
            kernel: "k".into(),
            before: 3 * n,
            after: 0,
            split: 0
        }]
    );
}
