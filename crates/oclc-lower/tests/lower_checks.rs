//! Lowering without running: recursion diagnostics, kernel signatures, constant
//! initializers, and many constructs through the verifier.

mod common;
use common::*;
use oclc_ir::AddrSpace;
use oclc_lower::{KernelParamKind, kernel_signatures};

#[test]
fn direct_recursion_is_an_error_at_the_call() {
    let err = compile_err(
        "int f(int n) { return n <= 1 ? 1 : n * f(n - 1); }\n\
         kernel void k(global int *o) { o[0] = f(5); }",
    );
    assert!(
        err.contains(
            "1:40: Error: the call to function 'f' is recursive, which is not supported by OpenCL"
        ),
        "{err}"
    );
}

#[test]
fn indirect_recursion_reports_every_call_on_the_cycle() {
    let err = compile_err(
        "int b(int);\n\
         int a(int x) { return x ? b(x - 1) : 0; }\n\
         int b(int x) { return a(x); }\n\
         int c(int x) { return a(x); }\n\
         kernel void k(global int *o) { o[0] = c(3); }",
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("2:27: Error: the call to function 'b' is recursive"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("3:23: Error: the call to function 'a' is recursive"),
        "{err}"
    );
}

#[test]
fn non_recursive_call_chains_are_fine() {
    compile(
        "int a(int x) { return x + 1; }\n\
         int b(int x) { return a(x) + a(x); }\n\
         kernel void k(global int *o) { o[0] = b(1) + a(2); }",
    );
}

#[test]
fn kernel_signatures_name_kinds_and_sizes() {
    let c = compile(
        "typedef struct { int a; float b; } P;\n\
         kernel void k(global float4 *a, constant uchar *b, local int *c, uint n, float3 v,\n\
                       P p, global void *raw) {}\n\
         kernel void other(global int *x) {}",
    );
    let sigs = kernel_signatures(&c.program);
    assert_eq!(sigs.len(), 2);
    let k = &sigs[0];
    assert_eq!(k.name, "k");
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "n", "v", "p", "raw"]);
    match &k.params[0].kind {
        KernelParamKind::Pointer {
            space,
            pointee: Some(e),
            pointee_size,
        } => {
            assert_eq!(*space, AddrSpace::Global);
            assert_eq!(e.name(), "float4");
            assert_eq!(*pointee_size, 16);
        }
        other => panic!("{other:?}"),
    }
    match &k.params[1].kind {
        KernelParamKind::Pointer {
            space,
            pointee: Some(e),
            ..
        } => {
            assert_eq!(*space, AddrSpace::Constant);
            assert_eq!(e.name(), "uchar");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        &k.params[2].kind,
        KernelParamKind::Pointer {
            space: AddrSpace::Local,
            ..
        }
    ));
    match &k.params[3].kind {
        KernelParamKind::Value { elem, size } => {
            assert_eq!((elem.name().as_str(), *size), ("uint", 4))
        }
        other => panic!("{other:?}"),
    }
    match &k.params[4].kind {
        KernelParamKind::Value { elem, size } => {
            assert_eq!((elem.name().as_str(), *size), ("float3", 16))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        k.params[5].kind,
        KernelParamKind::Aggregate { size: 8, align: 4 }
    );
    assert!(matches!(
        &k.params[6].kind,
        KernelParamKind::Pointer {
            pointee: None,
            pointee_size: 0,
            ..
        }
    ));
    assert_eq!(k.params[0].c_type, "__global float4 *");
    // The IR kernel carries the same parameters.
    let f = &c.module.functions[c.module.function_by_name("k").unwrap().index()];
    assert_eq!(f.params.len(), 7);
    assert_eq!(
        f.params[5].kind,
        oclc_ir::ParamKind::Aggregate { size: 8, align: 4 }
    );
}

#[test]
fn program_scope_initializers_become_bytes_and_relocations() {
    let c = compile(
        "global int x = -2;\n\
         constant float f[3] = { 1.5f, 2.0f };\n\
         global int *px = &x;\n\
         constant char msg[] = \"hi\";\n\
         typedef struct { short s; global int *p; int4 v; } S;\n\
         global S s = { 3, &x, (int4)(1, 2, 3, 4) };\n\
         global union { int i; float g; } u = { .g = 1.0f };\n\
         global uchar c = 300 - 45;\n\
         global long shifted = (1L << 40) | 5;\n\
         kernel void k(global int *o) { o[0] = x + *px + s.v.w + msg[1] + u.i + c + shifted + f[0]; }",
    );
    let g = |name: &str| {
        c.module
            .globals
            .iter()
            .find(|g| g.name == name)
            .unwrap_or_else(|| panic!("global {name}"))
    };
    assert_eq!(g("x").init, (-2i32).to_le_bytes().to_vec());
    assert_eq!(g("x").space, AddrSpace::Global);
    let f = g("f");
    assert_eq!(f.space, AddrSpace::Constant);
    assert_eq!(f.size, 12);
    assert_eq!(
        f.init,
        [1.5f32.to_le_bytes(), 2.0f32.to_le_bytes()].concat()
    );
    let px = g("px");
    assert_eq!(px.relocs.len(), 1);
    assert_eq!(px.relocs[0].offset, 0);
    assert_eq!(px.relocs[0].addend, 0);
    assert_eq!(c.module.globals[px.relocs[0].target.index()].name, "x");
    assert_eq!(g("msg").init, b"hi".to_vec());
    assert_eq!(g("msg").size, 3);
    let s = g("s");
    assert_eq!(s.size, 32);
    let mut init = s.init.clone();
    init.resize(32, 0);
    assert_eq!(&init[0..2], &3i16.to_le_bytes());
    assert_eq!(s.relocs[0].offset, 8);
    assert_eq!(
        &init[16..32],
        &[1i32, 2, 3, 4]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<_>>()[..]
    );
    assert_eq!(g("u").init, 1.0f32.to_le_bytes().to_vec());
    assert_eq!(g("c").init, vec![255]);
    assert_eq!(
        g("shifted").init,
        ((1i64 << 40) | 5).to_le_bytes()[..6].to_vec()
    );
}

/// Constructs that must lower to verified IR (the verifier runs in `compile`).
#[test]
fn many_constructs_verify() {
    let sources = [
        "kernel void k(global int *o) { int a[3] = {1, 2, 3}; int *p = a; p += 2; p--; o[0] = *p++ + *--p; }",
        "kernel void k(global float4 *o) { float4 v = o[0]; v += 1.0f; v *= v; v.xy -= (float2)(1, 2); o[1] = v; }",
        "kernel void k(global int *o) { char s[8] = \"abc\"; o[0] = s[1] + sizeof(s); }",
        "typedef struct { int a, b; } P; P sw(P p) { int t = p.a; p.a = p.b; p.b = t; return p; }\n\
         kernel void k(global P *o, int c) { P x = {1, 2}; P y = c ? sw(x) : x; o[0] = c > 1 ? y : (P){5, 6}; }",
        "kernel void k(global int *o, int n) { int r = n > 0 ? n > 10 ? 2 : 1 : 0; o[0] = r; }",
        "kernel void k(global uint *o) { uint x = 1; x = x++ + ++x; o[0] = x, o[1] = x--; }",
        "kernel void k(global int *o) { int4 v = (int4)(1, 2, 3, 4); o[0] = v.s0 + v.S3 + v[2]; v[o[1]] = 5; o[2] = v.w; }",
        "void f(local int *p) { *p = 1; } kernel void k(local int *l) { f(l); }",
        "kernel void k(global int *o) { for (;;) { if (o[0]) break; } while (1) { o[1]++; if (o[1] > 3) return; } }",
        "kernel void k(global int *o) { switch (o[0]) { } switch (o[1]) { default: o[2] = 1; } }",
        "kernel void k(global int *o) { int x = 0; goto end; x = 5; end: o[0] = x; }",
        "kernel void k(global long *o) { long a = o[0]; ulong b = a; o[1] = a / 3 + b % 7 + (a >> 2) + (b >> 2); }",
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global double *o) { double d = o[0]; float f = d; half h = f; o[1] = h + f; }",
        "kernel void k(global int *o) { uchar4 c = as_uchar4(o[0]); o[1] = as_int(c.wzyx); }",
        "struct N { int v; struct N *next; }; kernel void k(global int *o) { struct N a = {1, 0}, b = {2, &a}; o[0] = b.next->v; }",
        "kernel void k(global int *o) { int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; o[0] = m[1][2] + m[0][1]; }",
        "kernel void k(global float *o) { float2 p = (float2)(1.0f, 2.0f); float4 q = (float4)(p, p.yx); o[0] = q.w; }",
        "kernel void k(global int *o) { int x = o[0]; x = !x ? -x : ~x; o[1] = x && o[2] || !o[3]; }",
        "kernel void k(global int *o) { local int l; if (get_local_id(0) == 0) l = 3; barrier(CLK_LOCAL_MEM_FENCE); o[0] = l; }",
        "kernel void k(global float *o) { float4 v = vload4(0, o); vstore4(v * 2, 1, o); vstore_half(o[0], 0, (global half *)o); }",
        "kernel void k(global int *o) { enum E { A = 3, B }; enum E e = B; o[0] = e; }",
        "kernel void k(global int *o) { int a[4 * 2 - 1]; a[6] = 1; o[0] = a[6] + sizeof(a); }",
        "kernel void k(global int *o) { bool b = o[0] > 2; b = !b; o[1] = b ? 10 : 20; }",
        "kernel void k(global int *o) { int x = (o[0], o[1]); (void)x; }",
        "kernel void k(global ulong *o) { o[0] = (ulong)o; o[1] = (ulong)(global char *)o[2]; }",
    ];
    for (i, s) in sources.iter().enumerate() {
        if let Err(e) = compile_opts(s, "CL3.0", Default::default()) {
            panic!("source {i}: {s}\n{e}");
        }
        if let Err(e) = compile_opts(
            s,
            "CL3.0",
            oclc_lower::LowerOptions {
                all_in_memory: true,
            },
        ) {
            panic!("source {i} (in memory): {s}\n{e}");
        }
    }
}

#[test]
fn calls_of_undefined_functions_are_errors() {
    let err = compile_err("int ext(int);\nkernel void k(global int *o) { o[0] = ext(1); }");
    assert!(
        err.contains("2:39: Error: function 'ext' is called but never defined"),
        "{err}"
    );
}

/// Deeply nested expressions and statements that the front end accepts lower without
/// exhausting an 8 MiB stack (the main thread's).
#[test]
fn deep_nesting_lowers_on_a_main_thread_stack() {
    let nested = format!("{}x{}", "(1 + ".repeat(250), ")".repeat(250));
    let chain = format!("x{}", " + 1".repeat(990));
    let blocks = format!("{}o[0] = 1;{}", "{ if (x) ".repeat(120), "}".repeat(120));
    let src = format!(
        "kernel void k(global int *o, int x) {{ o[1] = {nested}; o[2] = {chain}; {blocks} }}"
    );
    let h = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || compile_opts(&src, "CL3.0", Default::default()).map(|_| ()))
        .expect("thread");
    match h.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("{e}"),
        Err(_) => panic!("lowering panicked"),
    }
}
