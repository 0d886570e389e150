//! Separate compilation in the facade: [`CompiledUnit::compile`] lowers one translation unit
//! with the linkage of its symbols, [`Program::link`] links units' IR and runs the passes on
//! the result; runtime faults in any unit point at that unit's source line.

use oclc::program::CheckKind;
use oclc::{BuildError, CompiledUnit, Device, Error, NdRange, Program};

fn unit(name: &str, src: &str) -> CompiledUnit {
    CompiledUnit::compile(name, src.as_bytes(), "-cl-std=CL2.0").expect("compiles")
}

/// Runs kernel `name` of `p` on `n` work-items with an int buffer of `n` zeros.
fn run(p: &Program, name: &str, n: usize) -> Result<Vec<i32>, Error> {
    let d = Device::cpu().with_printf_echo(false);
    let out = d.buffer::<i32>(n).expect("buffer");
    let mut k = p.kernel(name).expect("kernel");
    k.set_arg(0, &out).expect("arg");
    d.launch(&k, &NdRange::new(&[n as u64]))?;
    Ok(out.read::<i32>().expect("read"))
}

#[test]
fn a_fault_in_the_second_unit_points_at_its_line() {
    let a = unit(
        "a.cl",
        "void store(global int *p, int i);\n\
         kernel void k(global int *out) { store(out, (int)get_global_id(0) + 2); }\n",
    );
    let b = unit(
        "b.cl",
        "// the second unit\n\
         void store(global int *p, int i) {\n    p[i] = i;\n}\n",
    );
    let p = Program::link(&[("a", &a), ("b", &b)], "").expect("links");
    let Err(Error::Runtime(f)) = run(&p, "k", 4) else {
        panic!("no fault")
    };
    assert_eq!(f.kind, CheckKind::OutOfBounds);
    assert_eq!(f.location, Some(("b.cl".to_string(), 3, 5)));
    assert!(
        f.rendered.contains("    3 |     p[i] = i;\n"),
        "{}",
        f.rendered
    );
}

/// The linked module is one module: the device pipeline (the cuda device's load) inlines
/// across units as in a one-file build.
#[test]
fn calls_across_units_are_inlined_after_the_link() {
    let a = unit(
        "a.cl",
        "int twice(int x);\nkernel void k(global int *out) { out[get_global_id(0)] = twice((int)get_global_id(0)); }\n",
    );
    let b = unit("b.cl", "int twice(int x) { return 2 * x; }\n");
    let p = Program::link(&[("a", &a), ("b", &b)], "").expect("links");
    assert_eq!(run(&p, "k", 4).expect("runs"), [0, 2, 4, 6]);
    let calls = |m: &oclc_ir::Module| {
        let k = m
            .functions
            .iter()
            .find(|f| f.name == "k")
            .expect("kernel k");
        let live = k.blocks.iter().flat_map(|b| &b.insts);
        live.filter(|i| matches!(k.insts[i.index()].op, oclc_ir::Op::Call(..)))
            .count()
    };
    assert_eq!(calls(p.ir()), 1);
    let mut m = p.ir().clone();
    oclc_ir::passes::optimize_for_device(&mut m);
    assert_eq!(calls(&m), 0, "{}", p.ir_text());
    // Without the passes (-cl-opt-disable at link) the call stays.
    let p = Program::link(&[("a", &a), ("b", &b)], "-cl-opt-disable").expect("links");
    assert_eq!(run(&p, "k", 4).expect("runs"), [0, 2, 4, 6]);
}

#[test]
fn inline_functions_of_a_shared_header_link_once() {
    let header = "inline int sq(int x) { return x * x; }\n";
    let a = unit(
        "a.cl",
        &format!("{header}kernel void ka(global int *o) {{ o[0] = sq(3); }}\n"),
    );
    let b = unit(
        "b.cl",
        &format!("{header}kernel void kb(global int *o) {{ o[0] = sq(4); }}\n"),
    );
    let p = Program::link(&[("a", &a), ("b", &b)], "").expect("links");
    assert_eq!(p.kernel_names(), ["ka", "kb"]);
    assert_eq!(run(&p, "ka", 1).expect("runs"), [9]);
    assert_eq!(run(&p, "kb", 1).expect("runs"), [16]);
}

#[test]
fn link_errors_name_the_symbol_and_the_units() {
    let a = unit("a.cl", "kernel void k(global int *o) { o[0] = 1; }\n");
    let b = unit("b.cl", "kernel void k(global int *o) { o[0] = 2; }\n");
    let e = Program::link(&[("a", &a), ("b", &b)], "").unwrap_err();
    let BuildError::Link { log } = e else {
        panic!("{e:?}")
    };
    assert_eq!(log, "oclc: error: duplicate symbol 'k' in 'a' and 'b'\n");
    // A static function called but defined nowhere is the unit's own compile error.
    let e = CompiledUnit::compile(
        "c.cl",
        b"static int f(void);\nkernel void k(global int *o) { o[0] = f(); }\n",
        "",
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("function 'f' is called but never defined"),
        "{e}"
    );
}

#[test]
fn overloadable_functions_link_by_name_and_type() {
    let a = unit(
        "a.cl",
        "int __attribute__((overloadable)) f(int x);\n\
         float __attribute__((overloadable)) f(float x);\n\
         kernel void k(global int *o) { o[0] = f(1) + (int)f(2.0f); }\n",
    );
    let b = unit(
        "b.cl",
        "int __attribute__((overloadable)) f(int x) { return x + 10; }\n\
         float __attribute__((overloadable)) f(float x) { return x * 100.0f; }\n",
    );
    let p = Program::link(&[("a", &a), ("b", &b)], "").expect("links");
    assert_eq!(run(&p, "k", 1).expect("runs"), [211]);
}
