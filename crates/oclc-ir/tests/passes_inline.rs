//! The inliner and the loop unroller of the device pipeline: OpenCL C kernels through the
//! front end, `run_default` and the passes; each transformed module verifies and gives, on
//! the cpu device, the values computed here independently. Also every CTS kernel verifies
//! after `optimize_for_device`, with and without the address-space passes.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
mod passes_util;

use oclc_cpu::{Arg, Buffer, Device, DeviceError, NdRange};
use oclc_ir::passes::inline::{inline_module, simplify_inlined};
use oclc_ir::passes::unroll::unroll;
use oclc_ir::passes::{PassOptions, optimize_for_device, run_default};
use oclc_ir::*;
use oclc_syntax::SourceMap;
use std::path::{Path, PathBuf};

fn compile(src: &str) -> (Module, SourceMap) {
    passes_util::compile("k.cl", src)
}

/// The module after `run_default` (what `oclc run` hands a device).
fn optimized(src: &str) -> (Module, SourceMap) {
    let (mut m, sm) = compile(src);
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    (m, sm)
}

fn count_ops(m: &Module, pred: impl Fn(&Op) -> bool) -> usize {
    m.functions
        .iter()
        .flat_map(|f| {
            f.blocks
                .iter()
                .flat_map(move |b| b.insts.iter().map(move |i| &f.insts[i.index()].op))
        })
        .filter(|op| pred(op))
        .count()
}

fn calls(m: &Module) -> usize {
    count_ops(m, |op| matches!(op, Op::Call(..)))
}

fn loads(m: &Module) -> usize {
    count_ops(m, |op| matches!(op, Op::Load(_)))
}

fn verified(m: &Module) {
    if let Err(e) = verify_module(m) {
        panic!("{e:?}\n{}", print_module(m, None));
    }
}

/// Launches `kernel` over `n` work-items (one group); returns every buffer's final bytes.
fn launch(m: Module, kernel: &str, args: Vec<Arg>, n: u64) -> Result<Vec<Vec<u8>>, DeviceError> {
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let prog = dev.load(m)?;
    dev.launch(&prog, kernel, &args, &NdRange::new(&[n]).local(&[n]))?;
    Ok(args
        .iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.read()),
            _ => None,
        })
        .collect())
}

fn i32s(v: &[u8]) -> Vec<i32> {
    v.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn buf_i32(v: &[i32]) -> Arg {
    Arg::Buffer(Buffer::from_bytes(
        &v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    ))
}

fn int_arg(x: i32) -> Arg {
    Arg::Bytes(x.to_le_bytes().to_vec())
}

const MULTI_RETURN: &str = r#"
int classify(int x)
{
    if (x < 0)
        return -1;
    if (x == 0)
        return 100;
    int y = x * 3;
    if (y > 20)
        return y - 20;
    return y;
}

kernel void k(global int *out)
{
    int i = get_global_id(0);
    out[i] = classify(i - 4) + classify(i - 2) * 1000;
}
"#;

fn classify(x: i32) -> i32 {
    if x < 0 {
        -1
    } else if x == 0 {
        100
    } else if x * 3 > 20 {
        x * 3 - 20
    } else {
        x * 3
    }
}

#[test]
fn helper_with_several_returns_is_inlined_and_removed() {
    let (mut m, _) = optimized(MULTI_RETURN);
    assert_eq!(calls(&m), 2);
    let stats = inline_module(&mut m);
    assert_eq!(stats.inlined, 2);
    assert_eq!(stats.removed, 1);
    assert_eq!(m.functions.len(), 1);
    assert_eq!(calls(&m), 0);
    // Each copy's returns become branches to one join block with the result parameter.
    let f = &m.functions[0];
    let rets = count_ops(&m, |op| matches!(op, Op::Ret(_)));
    assert_eq!(rets, 1, "only the kernel's own return is left");
    assert!(f.blocks.iter().filter(|b| b.params.len() == 1).count() >= 2);
    verified(&m);
    for fi in stats.changed {
        simplify_inlined(&mut m, fi);
    }
    verified(&m);
    let out = launch(m, "k", vec![buf_i32(&[0; 16])], 16).expect("runs");
    let want: Vec<i32> = (0..16)
        .map(|i| classify(i - 4) + classify(i - 2) * 1000)
        .collect();
    assert_eq!(i32s(&out[0]), want);
}

const LOOPS_AROUND_CALLS: &str = r#"
int sum_squares(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i * i;
    return s;
}

kernel void k(global int *out, int m)
{
    int g = get_global_id(0);
    int acc = g;
    int other = 7;
    for (int j = 0; j < m; j++) {
        int t = sum_squares(j + g);
        acc = (acc ^ t) + other;
        other = acc - t;
    }
    out[g] = acc + other * 3 + sum_squares(g);
}
"#;

fn loops_around_calls(g: i32, m: i32) -> i32 {
    let sq = |n: i32| (0..n).map(|i| i * i).sum::<i32>();
    let (mut acc, mut other) = (g, 7i32);
    for j in 0..m {
        let t = sq(j + g);
        acc = (acc ^ t).wrapping_add(other);
        other = acc.wrapping_sub(t);
    }
    acc.wrapping_add(other.wrapping_mul(3)).wrapping_add(sq(g))
}

#[test]
fn values_flow_through_block_parameters_across_inlined_bodies() {
    let (m, _) = optimized(LOOPS_AROUND_CALLS);
    let mut inl = m.clone();
    let stats = inline_module(&mut inl);
    assert_eq!(stats.inlined, 2);
    assert_eq!(calls(&inl), 0);
    verified(&inl);
    let mut dev = m.clone();
    optimize_for_device(&mut dev);
    verified(&dev);
    assert_eq!(calls(&dev), 0);
    for mcount in [0, 1, 5] {
        let out = launch(m.clone(), "k", vec![buf_i32(&[0; 8]), int_arg(mcount)], 8).expect("runs");
        let want: Vec<i32> = (0..8).map(|g| loops_around_calls(g, mcount)).collect();
        assert_eq!(i32s(&out[0]), want, "m = {mcount}");
    }
}

/// A function without parameters of one block: `ret`, or a call of `callee` then `ret`.
fn func(name: &str, callee: Option<u32>) -> Function {
    let mut f = Function::new(name, Vec::new(), None, oclc_syntax::Span::DUMMY);
    if let Some(c) = callee {
        f.push_inst(
            Block(0),
            Op::Call(FuncId(c), Vec::new()),
            None,
            oclc_syntax::Span::DUMMY,
        );
    }
    f.push_inst(Block(0), Op::Ret(None), None, oclc_syntax::Span::DUMMY);
    f
}

#[test]
fn recursive_calls_are_left_alone() {
    // @f0 kernel -> @f1 <-> @f2 (mutual recursion), @f3 -> @f3, @f4 -> @f3.
    let mut m = Module::new();
    let mut k = func("k", Some(1));
    k.kernel = Some(KernelInfo::default());
    m.add_function(k);
    m.add_function(func("a", Some(2)));
    m.add_function(func("b", Some(1)));
    m.add_function(func("self_rec", Some(3)));
    m.add_function(func("user", Some(3)));
    let stats = inline_module(&mut m);
    let callee_of = |m: &Module, name: &str| -> Vec<String> {
        let f = &m.functions[m.function_by_name(name).expect("exists").index()];
        f.blocks[0]
            .insts
            .iter()
            .filter_map(|i| match &f.insts[i.index()].op {
                Op::Call(c, _) => Some(m.functions[c.index()].name.clone()),
                _ => None,
            })
            .collect()
    };
    // Functions on a call cycle are never inlined, wherever they are called from.
    assert_eq!(callee_of(&m, "k"), ["a"]);
    assert_eq!(callee_of(&m, "a"), ["b"]);
    assert_eq!(callee_of(&m, "b"), ["a"]);
    assert_eq!(callee_of(&m, "self_rec"), ["self_rec"]);
    assert_eq!(callee_of(&m, "user"), ["self_rec"]);
    assert_eq!(stats.inlined, 0);
    assert_eq!(stats.removed, 0);
}

#[test]
fn runtime_errors_in_inlined_code_name_the_helper_line() {
    let src = "void put(global int *p, int i)\n{\n    p[i] = 1;\n}\n\nkernel void k(global int *out)\n{\n    put(out, get_global_id(0) + 14);\n}\n";
    let (m, sm) = optimized(src);
    let mut dev = m.clone();
    optimize_for_device(&mut dev);
    assert_eq!(calls(&dev), 0);
    let err = launch(m, "k", vec![buf_i32(&[0; 16])], 4).expect_err("out of bounds");
    let DeviceError::Runtime(e) = err else {
        panic!("not a runtime error: {err}");
    };
    let (_, line, _) = sm.location(e.span).expect("a location");
    assert_eq!(line, 3, "{}", e.message);
}

/// `s += in[i] * (i + 1)` over `i = START; i REL BOUND; i += STEP`, written into `out[0]`.
fn sum_loop(init: &str, cond: &str, step: &str, bound: &str) -> String {
    format!(
        "kernel void k(global int *out, global const int *in, int n)\n{{\n    int s = 0;\n    \
         int m = {bound};\n    for ({init}; {cond}; {step})\n        s += in[i] * (i + 1);\n    \
         out[get_global_id(0)] = s;\n}}\n"
    )
}

fn run_sum(src: &str, n: i32, input: &[i32]) -> i32 {
    let (m, _) = optimized(src);
    let out = launch(m, "k", vec![buf_i32(&[0]), buf_i32(input), int_arg(n)], 1).expect("runs");
    i32s(&out[0])[0]
}

fn unrolled_loops(src: &str) -> usize {
    let (mut m, _) = optimized(src);
    let n: usize = m.functions.iter_mut().map(unroll).sum();
    verified(&m);
    n
}

#[test]
fn runtime_trip_counts_unroll_by_four_with_a_remainder() {
    let input: Vec<i32> = (0..40).map(|x| x * 7 % 11 - 3).collect();
    let want = |lo: i32, hi: i32, step: usize| -> i32 {
        (lo..hi)
            .step_by(step)
            .map(|i| input[i as usize] * (i + 1))
            .sum()
    };
    let cases = [
        ("int i = 0", "i < m", "i++", 0, 1),
        ("uint i = 0", "i < m", "i++", 0, 1),
        ("int i = 2", "m > i", "i += 1", 2, 1),
        ("int i = 0", "i <= m - 1", "i++", 0, 1),
        ("uint i = 0", "i != m", "i++", 0, 1),
        ("int i = 1", "i < m", "i += 3", 1, 3),
    ];
    for (init, cond, step, lo, stride) in cases {
        let src = sum_loop(init, cond, step, "n");
        assert_eq!(unrolled_loops(&src), 1, "{init}; {cond}; {step}");
        for n in [0, 1, 3, 4, 5, 17, 40] {
            if cond.contains("!=") && n < lo {
                continue;
            }
            let hi = n.max(lo);
            assert_eq!(
                run_sum(&src, n, &input),
                want(lo, hi, stride),
                "{init}; {cond}; {step} with n = {n}"
            );
        }
    }
}

#[test]
fn constant_trip_counts_unroll_fully_or_by_sixteen() {
    let input: Vec<i32> = (0..40).map(|x| 3 * x - 50).collect();
    for trips in [0, 1, 3, 4, 5, 16, 17] {
        let src = sum_loop("int i = 0", "i < m", "i++", &trips.to_string());
        let (mut m, _) = optimized(&src);
        let before = loads(&m);
        let mut dev = m.clone();
        optimize_for_device(&mut dev);
        verified(&dev);
        let loops_left = dev.functions[0]
            .blocks
            .iter()
            .skip(1)
            .filter(|b| !b.params.is_empty())
            .count();
        if trips <= 16 {
            // Straight-line code: one load per iteration and no loop.
            assert_eq!(loads(&dev), trips as usize, "trips = {trips}");
            assert_eq!(loops_left, 0, "trips = {trips}");
        } else {
            // A loop that only reads: twice the default factor of 8.
            assert_eq!(loads(&dev), before + 16, "trips = {trips}");
        }
        assert_eq!(m.functions.iter_mut().map(unroll).sum::<usize>(), 1);
        let want: i32 = (0..trips).map(|i| input[i as usize] * (i + 1)).sum();
        assert_eq!(run_sum(&src, 0, &input), want, "trips = {trips}");
    }
}

/// Grid-stride loops step by a loop-invariant value (`i += n` here): unrolled, with run-time
/// checks that send steps of 0, huge steps and steps that would wrap to the original loop.
#[test]
fn variable_steps_unroll_with_run_time_checks() {
    let input: Vec<i32> = (0..64).map(|x| x * 5 % 13 - 6).collect();
    for (init, cond, bound, lo, hi) in [
        ("int i = 0", "i < m", "40", 0, 40),
        ("uint i = 3", "i < m", "40", 3, 40),
        ("int i = 1", "i <= m", "39", 1, 40),
        ("ulong i = 2", "i < m", "(ulong)40", 2, 40),
    ] {
        // A step computed in the loop from a work-item query is invariant too (one work-item:
        // get_global_size(0) is 1).
        for step in ["i += n", "i += n * (int)get_global_size(0)"] {
            let src = sum_loop(init, cond, step, bound);
            assert_eq!(unrolled_loops(&src), 1, "{init}; {cond}; {step}");
            for n in [1, 2, 3, 5, 7, 8, 39, 40, 41, 1 << 28] {
                let want: i32 = (lo..hi)
                    .step_by(n as usize)
                    .map(|i| input[i as usize] * (i + 1))
                    .sum();
                assert_eq!(
                    run_sum(&src, n, &input),
                    want,
                    "{init}; {cond}; {step} with n = {n} (bound {bound})"
                );
            }
        }
    }
}

#[test]
fn loops_the_unroller_does_not_handle_are_left_alone() {
    for (init, cond, step) in [
        ("int i = 20", "i > m", "i--"),
        ("int i = 1", "i < m", "i *= 2"),
        ("uint i = 0", "i != m", "i += n"),
    ] {
        let src = sum_loop(init, cond, step, "n");
        assert_eq!(unrolled_loops(&src), 0, "{init}; {cond}; {step}");
    }
    let with_break = "kernel void k(global int *out, global const int *in, int n)\n{\n    \
                      int s = 0;\n    for (int i = 0; i < n; i++) {\n        if (in[i] < 0)\n            \
                      break;\n        s += in[i];\n    }\n    out[0] = s;\n}\n";
    assert_eq!(unrolled_loops(with_break), 0);
}

fn bench(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Loads, stores and loops of each address space, after the device pipeline.
fn access_shape(m: &Module) -> Vec<(String, usize)> {
    let mut shape = Vec::new();
    for f in &m.functions {
        for b in &f.blocks {
            for i in &b.insts {
                let d = &f.insts[i.index()];
                let key = match &d.op {
                    Op::Load(p) => format!("load {:?}", f.value_type(*p)),
                    Op::Store { ptr, .. } => format!("store {:?}", f.value_type(*ptr)),
                    Op::Call(..) => "call".to_string(),
                    _ => continue,
                };
                match shape.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => shape.push((key, 1)),
                }
            }
        }
    }
    shape.sort();
    shape
}

#[test]
fn generic_bench_kernels_match_their_named_versions() {
    for job in ["copy", "reduce"] {
        let shapes: Vec<Vec<(String, usize)>> = ["generic", "named"]
            .iter()
            .map(|v| {
                let (mut m, _) = optimized(&bench(&format!("{job}_{v}.cl")));
                optimize_for_device(&mut m);
                verified(&m);
                assert_eq!(calls(&m), 0, "{job}_{v}");
                access_shape(&m)
            })
            .collect();
        assert_eq!(shapes[0], shapes[1], "{job}");
    }
    // matmul: the tile loop of 16 is unrolled fully in both versions.
    for v in ["generic", "named"] {
        let (mut m, _) = optimized(&bench(&format!("matmul_{v}.cl")));
        optimize_for_device(&mut m);
        verified(&m);
        assert_eq!(calls(&m), 0);
        assert_eq!(loads(&m), 2 + 2 * 16, "matmul_{v}");
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

fn try_compile(src: &str) -> Option<Module> {
    std::panic::catch_unwind(|| compile(src))
        .ok()
        .map(|(m, _)| m)
}

#[test]
fn cts_kernels_verify_after_the_device_pipeline() {
    let mut files = Vec::new();
    let Some(dir) = conformance::dir(
        "cts-generic",
        "cts_kernels_verify_after_the_device_pipeline",
    ) else {
        return;
    };
    cl_files(&dir, &mut files);
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    let (mut checked, mut inlined, mut failures) = (0, 0, Vec::new());
    for path in &files {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Some(m) = try_compile(&src) else { continue };
        let mut o2 = m.clone();
        run_default(&mut o2, &PassOptions::default());
        for (level, mut dev) in [("-O0", m), ("-O2", o2)] {
            let had = calls(&dev);
            optimize_for_device(&mut dev);
            if let Err(e) = verify_module(&dev) {
                failures.push(format!("{} {level}: {e:?}", path.display()));
            }
            if had > 0 && calls(&dev) == 0 {
                inlined += 1;
            }
            checked += 1;
        }
    }
    eprintln!(
        "CTS: {checked} modules verified after optimize_for_device, {inlined} lost every call"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 800, "only {checked} modules");
    assert!(
        inlined > 100,
        "only {inlined} modules had their calls inlined"
    );
}
