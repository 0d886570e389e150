//! Generated programs that used to blow up the device pipeline: a chain of thousands of
//! one-line helpers (the bottom-up inliner copied the whole chain below every helper: 1.5 GB
//! for 2 000, over 16 GB for 10 000), a diamond call graph (2^N code if inlined fully) and
//! nested constant loops. The module stays linear in the source (bounded by the inlining
//! budget), verifies, and computes the right values on the cpu device, with or without the
//! address-space passes (`-O0`) and with calls left over by a small budget.

mod passes_util;

use oclc_cpu::{Arg, Buffer, Device};
use oclc_ir::passes::inline::{InlineBudget, MODULE_GROWTH, inline_module_with};
use oclc_ir::passes::{PassOptions, optimize_for_device, optimize_for_device_with, run_default};
use oclc_ir::*;

fn compile(src: &str) -> Module {
    passes_util::compile("gen.cl", src).0
}

fn module(src: &str, optimize: bool) -> Module {
    let mut m = compile(src);
    if optimize {
        let r = run_default(&mut m, &PassOptions::default());
        assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors.first());
    }
    m
}

/// Instructions placed in blocks, over the whole module.
fn size(m: &Module) -> usize {
    m.functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .map(|b| b.insts.len())
        .sum()
}

fn calls(m: &Module) -> usize {
    m.functions
        .iter()
        .flat_map(|f| {
            f.blocks
                .iter()
                .flat_map(move |b| b.insts.iter().map(move |i| &f.insts[i.index()].op))
        })
        .filter(|op| matches!(op, Op::Call(..)))
        .count()
}

/// Runs kernel `k(global uint *o)` over `input.len()` work-items on the cpu device (which
/// runs the device pipeline itself on load); returns `o`.
fn run(m: Module, input: &[u32]) -> Vec<u32> {
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let prog = dev.load(m).expect("loads");
    let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let buf = Buffer::from_bytes(&bytes);
    let n = input.len() as u64;
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(buf.clone())],
        &oclc_cpu::NdRange::new(&[n]),
    )
    .expect("runs");
    buf.read()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// `f0` calls `f1` calls ... `f{n-1}`, which returns its argument; each other adds 1.
fn chain(n: usize) -> String {
    let mut s = format!("uint f{}(uint x) {{ return x; }}\n", n - 1);
    for i in (0..n - 1).rev() {
        s += &format!("uint f{i}(uint x) {{ return f{}(x) + 1; }}\n", i + 1);
    }
    s + "kernel void k(global uint *o) { o[0] = f0(o[0]); }\n"
}

#[test]
fn chains_of_2000_and_10000_helpers_stay_linear_and_compute_right() {
    for n in [2000, 10_000] {
        let src = chain(n);
        for optimize in [false, true] {
            let m = module(&src, optimize);
            let before = size(&m);
            let mut dev = m.clone();
            optimize_for_device(&mut dev);
            verify_module(&dev).expect("verifies");
            // Inlining a chain moves each helper's body once: no copies pile up.
            assert!(
                size(&dev) <= before,
                "n = {n}: {before} -> {} instructions",
                size(&dev)
            );
            let want = 5 + n as u32 - 1;
            assert_eq!(run(m, &[5]), [want], "n = {n}, optimize = {optimize}");
        }
    }
}

#[test]
fn calls_past_a_small_budget_stay_calls_and_still_run() {
    let src = chain(3000);
    let m = module(&src, true);
    for limit in ["0", "40", "1000"] {
        let budget = InlineBudget::from_setting(Some(limit));
        let mut dev = m.clone();
        optimize_for_device_with(&mut dev, &budget);
        verify_module(&dev).expect("verifies");
        let left = calls(&dev);
        assert!(left > 0, "limit {limit}: every call inlined");
        if limit == "0" {
            assert_eq!(left, 3000, "nothing is inlined at 0");
        }
        // No function grew past the limit.
        let limit: usize = limit.parse().unwrap_or(0);
        for f in &dev.functions {
            let n: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
            assert!(n <= limit.max(8), "{} has {n} instructions", f.name);
        }
        // The cpu device runs what is left (its own pipeline inlines more on load).
        assert_eq!(run(dev, &[7]), [7 + 2999], "limit {limit}");
    }
}

/// `f_i(x) = f_{i+1}(x) + f_{i+1}(x + 1)`, `f_n(x) = x + 1`: 2^n leaves.
fn diamond(n: usize) -> String {
    let mut s = format!("uint f{n}(uint x) {{ return x + 1u; }}\n");
    for i in (0..n).rev() {
        s += &format!(
            "uint f{i}(uint x) {{ return f{j}(x) + f{j}(x + 1u); }}\n",
            j = i + 1
        );
    }
    s + "kernel void k(global uint *o) { o[get_global_id(0)] = f0(o[get_global_id(0)]); }\n"
}

/// The diamond's value: 2^n (x + 1) + n 2^(n-1), wrapping.
fn diamond_value(n: u32, x: u32) -> u32 {
    let p = 1u32.wrapping_shl(n);
    let half = if n == 0 { 0 } else { 1u32.wrapping_shl(n - 1) };
    p.wrapping_mul(x.wrapping_add(1))
        .wrapping_add(n.wrapping_mul(half))
}

#[test]
fn diamond_call_graphs_stay_within_the_module_budget() {
    // 2^40 leaves if inlined fully; the budget keeps the module to a few caller limits.
    let m = module(&diamond(40), true);
    let mut dev = m.clone();
    let budget = InlineBudget::default();
    let stats = inline_module_with(&mut dev, &budget);
    assert!(stats.over_budget > 0);
    assert!(
        size(&dev) <= size(&m) + MODULE_GROWTH,
        "{} instructions",
        size(&dev)
    );
    optimize_for_device(&mut dev);
    verify_module(&dev).expect("verifies");
    assert!(calls(&dev) > 0);
    // A small diamond runs (2^12 leaf calls at most) with the right values.
    let input = [0u32, 1, 1000, u32::MAX];
    let want: Vec<u32> = input.iter().map(|&x| diamond_value(12, x)).collect();
    assert_eq!(run(module(&diamond(12), true), &input), want);
    assert_eq!(run(module(&diamond(12), false), &input), want);
}

/// A diamond whose every level takes one of its two calls at run time: 2^n code if inlined
/// fully, n calls when run.
fn branchy_diamond(n: usize) -> String {
    let mut s = format!("uint f{n}(uint x) {{ return x; }}\n");
    for i in (0..n).rev() {
        s += &format!(
            "uint f{i}(uint x) {{ if (x & 1u) return f{j}(x * 3u + 1u); return f{j}(x >> 1) + 1u; }}\n",
            j = i + 1
        );
    }
    s + "kernel void k(global uint *o) { o[get_global_id(0)] = f0(o[get_global_id(0)]); }\n"
}

fn branchy_value(n: usize, mut x: u32) -> u32 {
    let mut add = 0u32;
    for _ in 0..n {
        if x & 1 == 1 {
            x = x.wrapping_mul(3).wrapping_add(1);
        } else {
            x >>= 1;
            add += 1;
        }
    }
    x.wrapping_add(add)
}

#[test]
fn a_branchy_diamond_of_40_levels_runs_right() {
    let input = [5u32, 6, 27, 4_000_000_000];
    let want: Vec<u32> = input.iter().map(|&x| branchy_value(40, x)).collect();
    assert_eq!(want, [29, 29, 468, 1052]);
    for optimize in [false, true] {
        let m = module(&branchy_diamond(40), optimize);
        let mut dev = m.clone();
        optimize_for_device(&mut dev);
        verify_module(&dev).expect("verifies");
        assert!(size(&dev) <= size(&m) + MODULE_GROWTH);
        assert_eq!(run(m, &input), want, "optimize = {optimize}");
    }
}

#[test]
fn nested_constant_loops_unroll_within_bounds() {
    let src = "kernel void k(global uint *o)\n{\n    if (get_global_id(0) != 0)\n        return;\n    uint s = o[0];\n    \
               for (uint a = 0; a < 16; a++)\n     for (uint b = 0; b < 16; b++)\n      \
               for (uint c = 0; c < 16; c++)\n       for (uint d = 0; d < 16; d++)\n        \
               for (uint e = 0; e < 16; e++)\n         s += (a * 3 + b) ^ (c * 5 + d * 7 + e + o[1]);\n    \
               o[0] = s;\n}\n";
    let m = module(src, true);
    let mut dev = m.clone();
    optimize_for_device(&mut dev);
    verify_module(&dev).expect("verifies");
    // Complete unrolling stops at FULL_BUDGET instructions per loop, partial at MAX_FACTOR.
    assert!(
        size(&dev) <= size(&m) + 2000,
        "{} -> {}",
        size(&m),
        size(&dev)
    );
    let mut want = 5u32;
    for a in 0..16u32 {
        for b in 0..16 {
            for c in 0..16 {
                for d in 0..16 {
                    for e in 0..16 {
                        want = want.wrapping_add((a * 3 + b) ^ (c * 5 + d * 7 + e + 2));
                    }
                }
            }
        }
    }
    let out = run(m, &[5, 2]);
    assert_eq!(out[0], want);
}

#[test]
fn the_budget_setting_parses() {
    assert_eq!(InlineBudget::from_setting(None), InlineBudget::default());
    assert_eq!(
        InlineBudget::from_setting(Some("x")),
        InlineBudget::default()
    );
    let b = InlineBudget::from_setting(Some(" 100"));
    assert_eq!(
        (b.caller_limit, b.small_callee, b.module_growth),
        (100, 100, 500)
    );
    assert_eq!(InlineBudget::from_setting(Some("0")).caller_limit, 0);
}

/// Helpers passing their 12 generic pointers on permuted two ways: the space signatures
/// multiply level by level (1.4 GB of clones for 40 levels before the clone budget).
#[test]
fn specialization_clones_stay_within_their_budget() {
    use oclc_ir::passes::specialize::CLONE_GROWTH;
    let (n, k) = (40, 12);
    let params: Vec<String> = (0..k).map(|j| format!("int *p{j}")).collect();
    let rotated: Vec<String> = (0..k).map(|j| format!("p{}", (j + 1) % k)).collect();
    let swapped: Vec<String> = (0..k)
        .map(|j| format!("p{}", [1, 0].get(j).copied().unwrap_or(j)))
        .collect();
    let (params, rotated, swapped) = (params.join(", "), rotated.join(", "), swapped.join(", "));
    let mut src = format!("void f{n}({params}) {{ *p0 += 1; }}\n");
    for i in (0..n).rev() {
        src += &format!(
            "void f{i}({params}) {{ f{j}({rotated}); f{j}({swapped}); }}\n",
            j = i + 1
        );
    }
    let args: Vec<String> = ["g", "l", "p"]
        .iter()
        .flat_map(|b| (0..4).map(move |j| format!("{b} + {j}")))
        .collect();
    src += &format!(
        "kernel void k(global int *g) {{ local int l[8]; int p[8]; l[0] = 0; p[0] = 0; \
         f0({}); g[7] = l[0] + p[0]; }}\n",
        args.join(", ")
    );
    let m = module(&src, true);
    verify_module(&m).expect("verifies");
    // Each clone costs at least its 12 parameters and 8: the budget bounds their number.
    let most = n + 2 + 2 * CLONE_GROWTH / (k + 8);
    assert!(
        m.functions.len() <= most,
        "{} functions (at most {most})",
        m.functions.len()
    );
    assert!(m.functions.len() > 1000, "signatures still get clones");
}
