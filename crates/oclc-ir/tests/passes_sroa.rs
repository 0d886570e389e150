//! Scalar replacement of aggregates (passes/sroa) and the space inference through private
//! objects: struct copies, by-value and pointer parameters, struct returns, arrays of pointers.
//! Each program's results are checked against values computed here (the device's own load
//! pipeline splits aggregates too, so "with and without the passes" would not catch a wrong
//! split), and the IR is checked for what should be gone.

mod passes_util;

use oclc_ir::passes::sroa::{MAX_FIELDS, sroa_function, sroa_module};
use oclc_ir::passes::*;
use oclc_ir::*;
use passes_util::*;

/// Runs the passes on `src`, launches `kernel` with `args` (one work-group of `n`) and returns
/// the buffers, after checking the run without the passes gives the same.
fn run(src: &str, kernel: &str, args: &[A], n: u64) -> (Module, Vec<Vec<u8>>) {
    let (m, _) = compile("k.cl", src);
    let out = same_results(&m, kernel, args, n, n);
    let mut opt = m;
    run_all(&mut opt);
    (opt, out)
}

fn f32s(v: &[u8]) -> Vec<f32> {
    v.chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn count(m: &Module, name: &str, pred: impl Fn(&Op) -> bool) -> usize {
    ops(m, name).iter().filter(|o| pred(o)).count()
}

fn generic_accesses(m: &Module) -> usize {
    m.functions
        .iter()
        .map(|f| infer_spaces::generic_accesses(m, f))
        .sum()
}

#[test]
fn struct_copies_become_fields_and_pointer_fields_keep_their_spaces() {
    let src = "typedef struct { float *p; int n; } span;\n\
        typedef struct { span in; float *out; } job;\n\
        kernel void k(global float *x, global float *y) {\n\
          local float t[8];\n\
          size_t i = get_local_id(0);\n\
          job a; a.in.p = x; a.in.n = 8; a.out = t;\n\
          job b = a;\n\
          span s = b.in;\n\
          b.out[i] = s.p[i] * 2.0f;\n\
          barrier(CLK_LOCAL_MEM_FENCE);\n\
          y[i] = a.out[7 - i] + (float)s.n;\n\
        }\n";
    let x: Vec<f32> = (0..8).map(|v| v as f32).collect();
    let (m, out) = run(src, "k", &[A::Buf(bytes_f32(&x)), A::Buf(vec![0; 32])], 8);
    let want: Vec<f32> = (0..8).map(|i| (7 - i) as f32 * 2.0 + 8.0).collect();
    assert_eq!(f32s(&out[1]), want);
    assert_eq!(count(&m, "k", |o| matches!(o, Op::Memcpy { .. })), 0);
    assert_eq!(count(&m, "k", |o| matches!(o, Op::StackAlloc { .. })), 0);
    assert_eq!(generic_accesses(&m), 0, "{}", print_module(&m, None));
}

#[test]
fn by_value_struct_parameters_split_per_field_and_specialize() {
    let src = "typedef struct { float *p; int n; } span;\n\
        static float sum(span s) { float t = 0; for (int i = 0; i < s.n; i++) t += s.p[i]; return t; }\n\
        kernel void k(global float *x, global float *out) {\n\
          local float tile[4];\n\
          tile[get_local_id(0)] = x[get_local_id(0)] * 10.0f;\n\
          barrier(CLK_LOCAL_MEM_FENCE);\n\
          span a = { x, 4 }, b = { tile, 4 };\n\
          out[get_local_id(0)] = sum(a) + sum(b);\n\
        }\n";
    let x = [1.0f32, 2.0, 3.0, 4.0];
    let (m, out) = run(src, "k", &[A::Buf(bytes_f32(&x)), A::Buf(vec![0; 16])], 4);
    assert_eq!(f32s(&out[1]), [110.0; 4]);
    let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"sum__global"), "{names:?}");
    assert!(names.contains(&"sum__local"), "{names:?}");
    let sum = &m.functions[m.function_by_name("sum__global").expect("clone").index()];
    let params: Vec<String> = sum
        .params
        .iter()
        .map(|p| format!("{} {}", p.name, p.ty))
        .collect();
    assert_eq!(params, ["s+0 ptr<global>", "s+8 i32"]);
    assert_eq!(generic_accesses(&m), 0);
}

#[test]
fn a_callee_writing_its_copy_leaves_the_caller_alone() {
    let src = "typedef struct { int *p; int n; } box;\n\
        static int bump(box b) { b.n += 1; *b.p += b.n; return b.n; }\n\
        kernel void k(global int *out) {\n\
          int x = 10;\n\
          box a = { &x, 5 };\n\
          int r = bump(a);\n\
          out[0] = r; out[1] = a.n; out[2] = x;\n\
        }\n";
    let (_, out) = run(src, "k", &[A::Buf(vec![0; 12])], 1);
    assert_eq!(i32s(&out[0]), [6, 5, 16]);
}

#[test]
fn a_pointer_parameter_written_through_is_not_split() {
    // `set` writes through its pointer and the caller reads the variable afterwards: the
    // variable must stay one object.
    let src = "static void set(int *p, int v) { *p = v; }\n\
        static int get(const int *p) { return *p; }\n\
        kernel void k(global int *out) {\n\
          int x = 1, y = 2;\n\
          set(&x, 7);\n\
          out[0] = x + get(&y);\n\
          set(&y, x);\n\
          out[1] = y;\n\
        }\n";
    let (_, out) = run(src, "k", &[A::Buf(vec![0; 8])], 1);
    assert_eq!(i32s(&out[0]), [9, 7]);
}

#[test]
fn struct_returns_carry_their_pointer_spaces() {
    let src = "typedef struct { float *p; int n; } span;\n\
        static span make(float *p, int n) { span s = { p, n }; return s; }\n\
        static span tail(span s, int k) { span t = { s.p + k, s.n - k }; return t; }\n\
        kernel void k(global float *x, global float *out) {\n\
          span s = tail(make(x, 8), 2);\n\
          size_t i = get_global_id(0);\n\
          out[i] = s.p[i % s.n] + (float)s.n;\n\
        }\n";
    let x: Vec<f32> = (0..8).map(|v| v as f32).collect();
    let (m, out) = run(src, "k", &[A::Buf(bytes_f32(&x)), A::Buf(vec![0; 32])], 8);
    let want: Vec<f32> = (0..8).map(|i| (2 + i % 6) as f32 + 6.0).collect();
    assert_eq!(f32s(&out[1]), want);
    assert_eq!(generic_accesses(&m), 0, "{}", print_module(&m, None));
}

#[test]
fn arrays_of_pointers_resolve_per_element_or_by_what_they_hold() {
    // Constant indices: each element its own space. A run-time index into an array of
    // pointers that all point to global memory: global. Mixed: stays generic.
    let src = "kernel void k(global int *g, global int *h, global int *out, int w) {\n\
          local int l[4];\n\
          int priv[2] = { 100, 200 };\n\
          size_t i = get_local_id(0);\n\
          l[i] = (int)i;\n\
          barrier(CLK_LOCAL_MEM_FENCE);\n\
          int *c[3] = { g, l, priv };\n\
          int *same[2] = { g, h };\n\
          int *mixed[2] = { g, l };\n\
          out[i] = c[0][i] + c[1][i] + c[2][i & 1] + same[w & 1][i] + mixed[w & 1][i];\n\
        }\n";
    let g = bytes_i32(&[1000, 2000, 3000, 4000]);
    let h = bytes_i32(&[10000, 20000, 30000, 40000]);
    let w = 1i32.to_le_bytes().to_vec();
    let (m, out) = run(
        src,
        "k",
        &[A::Buf(g), A::Buf(h), A::Buf(vec![0; 16]), A::Bytes(w)],
        4,
    );
    let want: Vec<i32> = (0..4)
        .map(|i| {
            let gi = 1000 * (i + 1);
            gi + i + [100, 200][(i & 1) as usize] + 10000 * (i + 1) + i
        })
        .collect();
    assert_eq!(i32s(&out[2]), want);
    // Only the access through `mixed[w & 1]` stays generic.
    assert_eq!(generic_accesses(&m), 1, "{}", print_module(&m, None));
}

#[test]
fn copies_out_to_memory_keep_every_byte() {
    // Nothing reads `t`'s fields: the copy out must still move all 24 bytes, padding and
    // fields no access types included; a copy of a copy as well.
    let src = "typedef struct { char c; int n; float *p; long l; } S;\n\
        kernel void k(global S *in, global S *out) {\n\
          S t = in[0];\n\
          S u = t;\n\
          out[0] = u;\n\
          out[1] = t;\n\
          out[1].n = t.n + 1;\n\
        }\n";
    let bytes: Vec<u8> = (0..24).collect();
    let (m, out) = run(src, "k", &[A::Buf(bytes.clone()), A::Buf(vec![0; 48])], 1);
    assert_eq!(&out[1][..24], &bytes[..]);
    let mut second = bytes.clone();
    second[4..8].copy_from_slice(&(i32::from_le_bytes([4, 5, 6, 7]) + 1).to_le_bytes());
    assert_eq!(&out[1][24..], &second[..]);
    assert_eq!(count(&m, "k", |o| matches!(o, Op::Memcpy { .. })), 0);
}

#[test]
fn unions_read_with_another_type_stay_in_memory() {
    let src = "typedef union { float f; int i; } u;\n\
        typedef struct { u v; int *p; } S;\n\
        kernel void k(global int *out) {\n\
          S a; a.v.f = 1.0f; a.p = out;\n\
          S b = a;\n\
          b.p[0] = b.v.i;\n\
          b.p[1] = a.v.i;\n\
        }\n";
    let (_, out) = run(src, "k", &[A::Buf(vec![0; 8])], 1);
    assert_eq!(i32s(&out[0]), [0x3f80_0000, 0x3f80_0000]);
}

#[test]
fn copies_between_elements_of_one_array() {
    let src = "typedef struct { int *p; int n; } box;\n\
        kernel void k(global int *g, global int *out) {\n\
          local int l[2];\n\
          l[0] = 5; l[1] = 6;\n\
          box v[3] = { { g, 1 }, { l, 2 }, { g, 3 } };\n\
          v[0] = v[1];\n\
          v[2].p = v[0].p;\n\
          out[0] = v[0].p[0] + v[0].n + v[2].p[1] + v[2].n;\n\
        }\n";
    let (m, out) = run(
        src,
        "k",
        &[A::Buf(bytes_i32(&[1, 2])), A::Buf(vec![0; 4])],
        1,
    );
    assert_eq!(i32s(&out[1]), [5 + 2 + 6 + 3]);
    assert_eq!(generic_accesses(&m), 0, "{}", print_module(&m, None));
}

#[test]
fn a_callee_filling_an_array_of_pointers() {
    // `fill` stores a global and a local pointer through its parameter: what the caller loads
    // back merges both, so the access stays generic but gives the right values.
    let src = "static void fill(int **ps, global int *g, local int *l) { ps[0] = g; ps[1] = l; }\n\
        kernel void k(global int *g, global int *out, int w) {\n\
          local int l[1];\n\
          l[0] = 9;\n\
          int *ps[2];\n\
          fill(ps, g, l);\n\
          out[0] = *ps[w & 1] + *ps[0];\n\
        }\n";
    let w = 1i32.to_le_bytes().to_vec();
    let (m, out) = run(
        src,
        "k",
        &[A::Buf(bytes_i32(&[4])), A::Buf(vec![0; 4]), A::Bytes(w)],
        1,
    );
    assert_eq!(i32s(&out[1]), [13]);
    assert!(generic_accesses(&m) >= 1);
}

#[test]
fn function_level_splitting_leaves_call_arguments_in_memory() {
    let src = "typedef struct { int *p; int n; } box;\n\
        static int f(box b) { return b.n; }\n\
        kernel void k(global int *out) {\n\
          box a = { out, 3 }, c = a;\n\
          out[0] = f(c) + a.n;\n\
        }\n";
    let (mut m, _) = compile("k.cl", src);
    let k = m.function_by_name("k").expect("k").index();
    // `a` splits on its own; `c` and the argument's temporary are passed to a call.
    assert!(sroa_function(&mut m.functions[k]) > 0);
    assert!(count(&m, "k", |o| matches!(o, Op::Call(..))) == 1);
    verify_module(&m).expect("valid");
    // The whole module: the parameter splits too.
    let (mut m, _) = compile("k.cl", src);
    let stats = sroa_module(&mut m);
    assert!(stats.rewrites > 0);
    verify_module(&m).expect("valid");
    let f = &m.functions[m.function_by_name("f").expect("f").index()];
    assert_eq!(f.params.len(), 2, "{}", print_module(&m, None));
    let out = launch(m, "k", &[A::Buf(vec![0; 4])], 1, 1);
    assert_eq!(i32s(&out[0]), [6]);
}

#[test]
fn big_copies_stay_memcpy() {
    // More fields than MAX_FIELDS: the copy stays one memcpy, and still copies.
    let n = MAX_FIELDS + 8;
    let src = format!(
        "typedef struct {{ int v[{n}]; }} big;\n\
         kernel void k(global big *in, global int *out) {{\n\
           big b = in[0];\n\
           big c = b;\n\
           for (int i = 0; i < {n}; i++) out[i] = c.v[i] + b.v[{n} - 1 - i];\n\
         }}\n"
    );
    let vals: Vec<i32> = (0..n as i32).collect();
    let (m, out) = run(
        &src,
        "k",
        &[A::Buf(bytes_i32(&vals)), A::Buf(vec![0; 4 * n])],
        1,
    );
    assert_eq!(i32s(&out[1]), vec![n as i32 - 1; n]);
    assert!(count(&m, "k", |o| matches!(o, Op::Memcpy { .. })) >= 1);
}
