//! The library facade: build, kernels, buffers, arguments by position and by name, launches
//! and their typed errors.

use oclc::program::{BuildOptions, CheckKind};
use oclc::{BuildError, Device, Error, KernelArg, NdRange, Program};

fn device() -> Device {
    Device::cpu().with_printf_echo(false)
}

#[test]
fn vector_add_by_position_and_by_name() {
    let p = Program::build(
        "kernel void add(global const int *a, global const int *b, global int *c) {
             size_t i = get_global_id(0);
             c[i] = a[i] + b[i];
         }",
        "",
    )
    .expect("builds");
    assert_eq!(p.kernel_names(), vec!["add"]);
    let d = device();
    let a = d
        .buffer_from_slice(&[1i32, 2, 3, 4, 5, 6, 7, 8])
        .expect("buffer");
    let b = d.buffer_from_slice(&[10i32; 8]).expect("buffer");
    let c = d.buffer::<i32>(8).expect("buffer");
    let mut k = p.kernel("add").expect("kernel");
    k.set_arg(0, &a)
        .expect("a")
        .set_arg_named("b", &b)
        .expect("b");
    k.set_arg_named("c", &c).expect("c");
    d.launch(&k, &NdRange::new(&[8]).local(&[4]))
        .expect("launch");
    assert_eq!(
        c.read::<i32>().expect("read"),
        vec![11, 12, 13, 14, 15, 16, 17, 18]
    );
    assert_eq!(a.read::<i32>().expect("read"), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn two_dimensional_range_with_offset_vectors_and_local_memory() {
    let p = Program::build(
        "kernel void k(global float4 *out, float4 scale, local float *tmp, uint width) {
             size_t x = get_global_id(0), y = get_global_id(1);
             tmp[get_local_id(0)] = (float)(x + 10 * y);
             barrier(CLK_LOCAL_MEM_FENCE);
             out[y * width + x] = scale * tmp[get_local_id(0)];
         }",
        "-cl-std=CL1.2",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<f32>(4 * 4 * 3).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("out");
    k.set_arg(1, [1.0f32, 2.0, 0.5, -1.0]).expect("scale");
    k.set_arg(2, KernelArg::local::<f32>(2)).expect("tmp");
    k.set_arg(3, 4u32).expect("width");
    let range = NdRange::new(&[2, 2]).local(&[2, 1]).offset(&[1, 1]);
    d.launch(&k, &range).expect("launch");
    let v = out.read::<f32>().expect("read");
    for y in 0..3usize {
        for x in 0..4usize {
            let got = &v[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
            let inside = (1..3).contains(&x) && (1..3).contains(&y);
            let base = (x + 10 * y) as f32;
            let want = if inside {
                [base, 2.0 * base, 0.5 * base, -base]
            } else {
                [0.0; 4]
            };
            assert_eq!(got, want, "element ({x}, {y})");
        }
    }
}

#[test]
fn program_scope_variables_persist_between_launches() {
    let p = Program::build(
        "global int counter = 5;
         kernel void bump(global int *out) { out[0] = counter++; }",
        "-cl-std=CL2.0",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(1).expect("buffer");
    let mut k = p.kernel("bump").expect("kernel");
    k.set_arg(0, &out).expect("out");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(out.read::<i32>().expect("read"), vec![5]);
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(out.read::<i32>().expect("read"), vec![6]);
}

#[test]
fn build_errors_carry_clang_diagnostics() {
    let err = Program::build("kernel void k(global int *p) { p[0] = q; }", "").unwrap_err();
    match &err {
        BuildError::Compile { log, errors } => {
            assert_eq!(*errors, 1);
            assert!(
                log.contains("<source>:1:39: error: use of undeclared identifier 'q'"),
                "{log}"
            );
            assert!(log.contains("1 error generated."), "{log}");
        }
        other => panic!("{other:?}"),
    }
    let err = Program::build("kernel void k() {}", "-cl-std=CL9.9").unwrap_err();
    assert!(matches!(err, BuildError::Options(_)), "{err:?}");
    let err = Program::build("kernel void k() {}", "-cl-fancy").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid build options: unknown argument: '-cl-fancy'"
    );
    let err = Program::build("kernel void k() {}", "extra.cl").unwrap_err();
    assert!(
        err.to_string().contains("unexpected input file 'extra.cl'"),
        "{err}"
    );
}

#[test]
fn recursion_is_a_build_error() {
    let err = Program::build(
        "int f(int n) { return n ? f(n - 1) : 0; }
         kernel void k(global int *p) { p[0] = f(3); }",
        "",
    )
    .unwrap_err();
    assert!(matches!(err, BuildError::Compile { .. }), "{err:?}");
    assert!(err.to_string().contains("error:"), "{err}");
}

#[test]
fn opencl_build_options_are_accepted() {
    let p = Program::build(
        "kernel void k(global int *p) {
         #ifdef __FAST_RELAXED_MATH__
             p[0] = 1;
         #else
             p[0] = 2;
         #endif
         }",
        "-cl-fast-relaxed-math -cl-mad-enable -O3",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(1).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(out.read::<i32>().expect("read"), vec![1]);
    let o = BuildOptions::parse("-cl-opt-disable -cl-std=CL2.0").expect("options");
    assert!(!o.optimize);
    assert!(BuildOptions::parse("-DX=1").expect("options").optimize);
}

#[test]
fn argument_errors_are_typed() {
    let p = Program::build(
        "kernel void k(global int *out, local int *tmp, int n) { out[0] = n; }",
        "",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(1).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    assert!(matches!(
        p.kernel("nope"),
        Err(Error::NoSuchKernel { ref available, .. }) if available == &["k".to_string()]
    ));
    assert!(matches!(
        k.set_arg(3, 1i32),
        Err(Error::ArgIndex { count: 3, .. })
    ));
    assert!(matches!(
        k.set_arg_named("m", 1i32),
        Err(Error::NoSuchParam { .. })
    ));
    let e = k.set_arg(0, 5i32).unwrap_err().to_string();
    assert!(
        e.starts_with("argument 0 ('out', __global int *")
            && e.ends_with("): takes a buffer, not a value"),
        "{e}"
    );
    assert!(matches!(
        k.set_arg(1, &out),
        Err(Error::ArgType { index: 1, .. })
    ));
    let e = k.set_arg(2, 5u64).unwrap_err().to_string();
    assert!(e.starts_with("argument 2 ('n', "), "{e}");
    assert!(e.ends_with("): takes 4 bytes (int), not 8"), "{e}");
    k.set_arg(0, &out).expect("out");
    k.set_arg(2, 7i32).expect("n");
    let e = d.launch(&k, &NdRange::new(&[1])).unwrap_err().to_string();
    assert!(e.starts_with("argument 1 ('tmp', __local int *"), "{e}");
    assert!(e.ends_with(") of kernel 'k' is not set"), "{e}");
    k.set_arg(1, KernelArg::local::<i32>(4)).expect("tmp");
    let e = d.launch(&k, &NdRange::new(&[1, 1, 1, 1])).unwrap_err();
    assert!(matches!(e, Error::Launch(_)), "{e:?}");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(out.read::<i32>().expect("read"), vec![7]);
    assert!(matches!(
        d.buffer_from_bytes(&[1, 2, 3])
            .expect("buffer")
            .read::<u16>(),
        Err(Error::BufferSize {
            bytes: 3,
            elem_size: 2
        })
    ));
}

#[test]
fn runtime_faults_are_rendered_with_the_source_line() {
    let p = Program::build(
        "kernel void k(global int *out) {\n    out[get_global_id(0) + 4] = 1;\n}\n",
        "",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<i32>(8).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("arg");
    let e = d.launch(&k, &NdRange::new(&[8]).local(&[4])).unwrap_err();
    let Error::Runtime(f) = e else {
        panic!("{e:?}")
    };
    assert_eq!(f.kind, CheckKind::OutOfBounds);
    assert_eq!(f.location, Some(("<source>".to_string(), 2, 5)));
    assert_eq!(f.global_id, [4, 0, 0]);
    assert_eq!(f.local_id, [0, 0, 0]);
    assert_eq!(f.group_id, [1, 0, 0]);
    assert!(
        f.rendered
            .starts_with("<source>:2:5: error: out-of-bounds write"),
        "{}",
        f.rendered
    );
    assert!(
        f.rendered
            .contains("    2 |     out[get_global_id(0) + 4] = 1;\n"),
        "{}",
        f.rendered
    );
    assert!(
        f.rendered.contains("note: in the work-item with global id (4, 0, 0), local id (0, 0, 0), group id (1, 0, 0)"),
        "{}",
        f.rendered
    );
}

#[test]
fn ir_text_and_o0() {
    let src = "int twice(int x) { return 2 * x; }
               kernel void k(global int *p) { int v = p[0]; p[0] = twice(v); }";
    let opt = Program::build(src, "").expect("builds");
    let o0 = Program::build(src, "-O0").expect("builds");
    assert!(opt.ir_text().contains("twice"), "{}", opt.ir_text());
    assert_ne!(opt.ir_text(), o0.ir_text());
    let d = device();
    for p in [&opt, &o0] {
        let b = d.buffer_from_slice(&[21i32]).expect("buffer");
        let mut k = p.kernel("k").expect("kernel");
        k.set_arg(0, &b).expect("arg");
        d.launch(&k, &NdRange::new(&[1])).expect("launch");
        assert_eq!(b.read::<i32>().expect("read"), vec![42]);
    }
}

/// Non-uniform work-groups: refused before OpenCL C 2.0 and with -cl-uniform-work-group-size
/// (CL_INVALID_WORK_GROUP_SIZE), run from 2.0 on with a smaller last group.
#[test]
fn non_uniform_work_groups_follow_the_language_version() {
    let src = "kernel void k(global uint *o) { o[get_global_id(0)] = get_local_size(0); }";
    let d = device();
    for (opts, ok) in [
        ("", false),
        ("-cl-std=CL1.2", false),
        ("-cl-std=CL2.0 -cl-uniform-work-group-size", false),
        ("-cl-std=CL2.0", true),
        ("-cl-std=CL3.0", true),
    ] {
        let p = Program::build(src, opts).expect("builds");
        let o = d.buffer::<u32>(10).expect("o");
        let mut k = p.kernel("k").expect("kernel");
        k.set_arg(0, &o).expect("arg");
        let r = d.launch(&k, &NdRange::new(&[10]).local(&[4]));
        if ok {
            r.expect("non-uniform launch");
            let got: Vec<u32> = o.read().expect("read");
            assert_eq!(got, vec![4, 4, 4, 4, 4, 4, 4, 4, 2, 2], "{opts}");
        } else {
            let e = r.expect_err(opts);
            assert!(matches!(e, Error::Launch(_)), "{e:?}");
            assert!(e.to_string().contains("not a multiple"), "{e}");
        }
    }
}
