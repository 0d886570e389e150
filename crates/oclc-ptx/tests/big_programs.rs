//! PTX for generated programs of thousands of functions: a chain of 10 000 helpers (declared
//! callers first, the last one querying its global id) emitted with every call inlined the
//! budget allows, and with no inlining at all (10 000 `.func`s calling each other), and a
//! diamond call graph of 40 levels. Emission stays linear (it was quadratic in the chain
//! length where functions needing the ND-range were found by rounds over all functions).

mod common;

use common::module;
use oclc_ir::passes::inline::InlineBudget;
use oclc_ir::passes::optimize_for_device_with;
use oclc_ir::*;
use oclc_ptx::{PtxOptions, emit_module};
use oclc_syntax::SourceMap;

/// `f0` .. `f{n-1}`, declared first and defined callers first; the last adds its global id.
fn chain(n: usize) -> String {
    let mut s: String = (0..n).map(|i| format!("uint f{i}(uint x);\n")).collect();
    for i in 0..n - 1 {
        s += &format!("uint f{i}(uint x) {{ return f{}(x) + 1u; }}\n", i + 1);
    }
    s += &format!(
        "uint f{}(uint x) {{ return x + (uint)get_global_id(0); }}\n",
        n - 1
    );
    s + "kernel void k(global uint *o) { o[0] = f0(o[0]); }\n"
}

fn emit(m: &Module, sm: &SourceMap, budget: &InlineBudget) -> String {
    let mut dev = m.clone();
    optimize_for_device_with(&mut dev, budget);
    verify_module(&dev).expect("verifies");
    match emit_module(&dev, Some(sm), &PtxOptions::default()) {
        Ok(p) => p.text,
        Err(e) => panic!("{e}"),
    }
}

fn count(text: &str, pat: &str) -> usize {
    text.lines()
        .filter(|l| l.trim_start().starts_with(pat))
        .count()
}

#[test]
fn a_chain_of_10000_helpers_emits_with_and_without_inlining() {
    let n = 10_000;
    let (m, sm) = module(&chain(n));
    let none = emit(&m, &sm, &InlineBudget::from_setting(Some("0")));
    // Every helper is a function; each but the last calls the next, the kernel calls f0.
    assert_eq!(
        count(&none, ".func"),
        2 * n,
        "a declaration and a definition each"
    );
    assert_eq!(count(&none, "call"), n);
    let inlined = emit(&m, &sm, &InlineBudget::default());
    let left = count(&inlined, "call");
    assert!(left < 10, "{left} calls left");
    assert!(inlined.contains("%tid.x"));
}

#[test]
fn a_diamond_of_40_levels_emits_within_the_budget() {
    let mut s = "uint f40(uint x) { return x + 1u; }\n".to_string();
    for i in (0..40).rev() {
        s += &format!(
            "uint f{i}(uint x) {{ return f{j}(x) + f{j}(x + 1u); }}\n",
            j = i + 1
        );
    }
    s += "kernel void k(global uint *o) { o[0] = f0(o[0]); }\n";
    let (m, sm) = module(&s);
    let text = emit(&m, &sm, &InlineBudget::default());
    assert!(count(&text, "call") > 0, "calls past the budget stay calls");
    assert!(text.len() < 64 << 20, "{} bytes of PTX", text.len());
}
