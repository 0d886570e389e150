//! Lowering many bodies in parallel gives the module lowering them one by one gives: the same
//! ids and names for string literals, kernel `__local` variables and builtins, and the same
//! errors in the same order.

mod common;
use common::*;
use oclc_lower::LowerOptions;

/// A program of `n` kernels and helpers sharing some string literals and builtins, each
/// kernel with its own `__local` arrays.
fn program(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let fmt = match i % 4 {
            0 => "even %d\\n".to_string(),
            1 => "odd %d\\n".to_string(),
            _ => format!("k{i} %d\\n"),
        };
        let math = ["sqrt", "exp", "sin", "fabs", "floor"][i % 5];
        s.push_str(&format!(
            "float helper{i}(float x) {{ return {math}(x) + {i}.0f; }}\n\
             kernel void k{i}(global float *out, global int *cnt) {{\n\
             \x20   local float buf{i}[{len}];\n\
             \x20   local int tag{i};\n\
             \x20   size_t l = get_local_id(0);\n\
             \x20   buf{i}[l % {len}] = helper{i}((float)l);\n\
             \x20   tag{i} = {i};\n\
             \x20   barrier(CLK_LOCAL_MEM_FENCE);\n\
             \x20   if (l == 0) printf(\"{fmt}\", tag{i});\n\
             \x20   atomic_add(cnt, {i});\n\
             \x20   out[get_global_id(0)] = buf{i}[0];\n}}\n",
            len = 4 + i % 3,
        ));
    }
    s
}

fn lower_on(threads: usize, src: &str) -> Result<String, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| {
        compile_opts(src, "CL2.0", LowerOptions::default())
            .map(|c| oclc_ir::print_module(&c.module, None))
    })
}

#[test]
fn parallel_lowering_matches_sequential_lowering() {
    let src = program(300);
    let one = lower_on(1, &src).expect("lowers on one thread");
    let four = lower_on(4, &src).expect("lowers on four threads");
    assert_eq!(one, four);
    // The module holds what the test is about: shared and distinct strings, locals, builtins.
    assert!(one.contains("k299"), "{}", &one[..200]);
    assert!(one.matches("local").count() >= 600);
}

#[test]
fn parallel_lowering_reports_the_same_errors() {
    // Calls of an undefined function in many bodies: each is an error, in source order.
    let mut src = String::from("void missing(global int *p);\n");
    for i in 0..200 {
        src.push_str(&format!(
            "kernel void k{i}(global int *o) {{ missing(o); o[0] = {i}; }}\n"
        ));
    }
    let one = lower_on(1, &src).expect_err("fails on one thread");
    let four = lower_on(4, &src).expect_err("fails on four threads");
    assert_eq!(one, four);
    assert_eq!(one.lines().count(), 200, "{one}");
}
