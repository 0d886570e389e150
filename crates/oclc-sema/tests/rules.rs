//! End-to-end checks (source text → clang-worded diagnostics) for each family of rules in
//! `space.rs`, plus the general C checks the corpus relies on.

mod common;

use common::{diags, lang};
use oclc_syntax::ClStd::{Cl12, Cl20, Cl30};

fn cl12() -> oclc_syntax::LangOptions {
    lang(Cl12, "")
}
fn cl20() -> oclc_syntax::LangOptions {
    lang(Cl20, "")
}

#[test]
fn rule37_default_pointee_space_by_mode() {
    let src = "kernel void k(global int *g) {\n int *p;\n p = g;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "3: error: assigning '__global int *__private' to '__private int *__private' changes address space of pointer"
        ]
    );
    assert!(diags(src, &cl20()).is_empty());
    assert_eq!(
        diags(src, &lang(Cl30, "-__opencl_c_generic_address_space")).len(),
        1
    );
}

#[test]
fn rules42_46_constant_never_converts_to_generic() {
    let src = "constant int c = 1;\nvoid f(void) {\n int *p = &c;\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        [
            "3: error: initializing '__generic int *__private' with an expression of type '__constant int *' changes address space of pointer"
        ]
    );
}

#[test]
fn rule43_explicit_cast_between_named_spaces() {
    let src = "void f(global int *g, local int *l) {\n g = (global int *)l;\n l = (local int *)(int *)g;\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        [
            "2: error: casting '__local int *' to type '__global int *' changes address space of pointer"
        ]
    );
}

#[test]
fn rule47_nested_pointers() {
    let src = "void f(global int *private *gg, local int *private *ll) {\n gg = ll;\n gg = (global int *private *)ll;\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        [
            "2: error: assigning '__local int *__private *__private' to '__global int *__private *__private' changes address space of nested pointer",
            "3: warning: casting '__local int *__private *' to type '__global int *__private *' discards qualifiers in nested pointer types",
        ]
    );
}

#[test]
fn rules49_51_comparison_conditional_subtraction() {
    let src = "void f(global int *g, local int *l, int *p, int c) {\n int a = g == l;\n int b = g == p;\n global int *q = c ? g : l;\n long d = g - l;\n int e = g == 0;\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        [
            "2: error: comparison between  ('__global int *' and '__local int *') which are pointers to non-overlapping address spaces",
            "4: error: conditional operator with the second and third operands of type  ('__global int *' and '__local int *') which are pointers to non-overlapping address spaces",
            "5: error: arithmetic operation with operands of type  ('__global int *' and '__local int *') which are pointers to non-overlapping address spaces",
        ]
    );
}

#[test]
fn rule19_constant_is_read_only() {
    let src = "constant int c[2] = {1, 2};\nvoid f(void) {\n c[0] = 3;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        ["3: error: read-only variable is not assignable"]
    );
}

#[test]
fn rules26_27_31_storage() {
    let src = "int g = 1;\nkernel void k(void) {\n local int a;\n { local int b; }\n static int s = 1;\n global int x;\n}\nvoid f(void) { constant int c = 1; }\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "1: error: program scope variable must reside in constant address space",
            "4: error: variables in the local address space can only be declared in the outermost scope of a kernel function",
            "5: error: variables in function scope cannot be declared static",
            "6: error: function scope variable cannot be declared in global address space",
            "8: error: non-kernel function variable cannot be declared in constant address space",
        ]
    );
    let d20 = diags(src, &cl20());
    assert_eq!(d20.len(), 3, "{d20:?}");
}

#[test]
fn rules33_34_initializers() {
    let src =
        "constant int c;\nkernel void k(int x) {\n local int l = 1;\n constant int d = x;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "1: error: variable in constant address space must be initialized",
            "3: error: '__local' variable cannot have an initializer",
            "4: error: initializer element is not a compile-time constant",
        ]
    );
}

#[test]
fn rules9_10_qualifier_placement() {
    let src = "global int f(void);\nvoid g(global int x);\nvoid h(void) { private local int y; private private int z; }\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "1: error: return type cannot be qualified with address space",
            "2: error: parameter may not be qualified with an address space",
            "3: error: multiple address spaces specified for type",
            "3: warning: multiple identical address spaces specified for type",
        ]
    );
}

#[test]
fn rules29_30_kernel_parameters() {
    let src = "kernel void a(int *p) {}\nkernel void b(global int *global *p) {}\nkernel void c(bool b) {}\ntypedef struct { int *p; } S;\nkernel void d(S s) {}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "1: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space",
            "2: error: kernel parameter cannot be declared as a pointer to a pointer",
            "3: error: '__private bool' cannot be used as the type of a kernel parameter",
            "5: error: struct kernel parameters may not contain pointers",
        ]
    );
    assert_eq!(diags(src, &cl20()).len(), 3);
}

#[test]
fn rules55_59_to_addr_builtins() {
    let src = "void f(global int *g, constant int *c, int x) {\n local int *l = to_local(g);\n g = to_global(c);\n g = to_global(x);\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "2: error: use of undeclared identifier 'to_local'",
            "3: error: use of undeclared identifier 'to_global'",
            "4: error: use of undeclared identifier 'to_global'",
        ]
    );
    assert_eq!(
        diags(src, &cl20()),
        [
            "3: error: invalid argument 'c' to function: 'to_global', expecting a generic pointer argument",
            "4: error: invalid argument 'x' to function: 'to_global', expecting a generic pointer argument",
        ]
    );
}

#[test]
fn implicit_space_note_explains_the_default() {
    // The note rides on the diagnostic; check through the full pipeline.
    let src = "kernel void k(global int *g) { int *p = g; }\n";
    let lang = cl12();
    let mut sm = oclc_syntax::SourceMap::new();
    let main = sm.add_text("t.cl", src.to_string());
    let mut d = oclc_syntax::Diagnostics::default();
    let opts = oclc_syntax::pp::PpOptions {
        lang: lang.clone(),
        macros: vec![],
        include_dirs: vec![],
    };
    let out = oclc_syntax::pp::preprocess(&mut sm, main, &opts, &mut d);
    let tu = oclc_syntax::parse::parse_tokens(&out.tokens, &[], &sm, &lang, &mut d);
    let _ = oclc_sema::check(&tu, &sm, &lang, &mut d);
    let e = d.list.iter().find(|x| x.is_error()).expect("an error");
    assert!(
        e.notes.iter().any(|n| n
            .message
            .starts_with(oclc_sema::space::BEYOND_CLANG_NOTE_PREFIX)
            && n.message.contains("OpenCL C 1.2")),
        "{:?}",
        e.notes
    );
}

#[test]
fn general_c_checks() {
    let src = "struct S { int a; };\nvoid f(struct S s, float4 v) {\n s.b = 1;\n v.xq = 1;\n int x = y;\n float4 w = (float4)(1, 2);\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "3: error: no member named 'b' in 'struct S'",
            "4: error: illegal vector component name 'q'",
            "5: error: use of undeclared identifier 'y'",
            "6: error: too few elements in vector initialization (expected 4 elements, have 2)",
        ]
    );
}

#[test]
fn half_needs_the_pragma() {
    let src = "void f(void) { half h; }\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nvoid g(void) { half h; }\n";
    assert_eq!(
        diags(src, &cl12()),
        ["1: error: declaring variable of type '__private half' is not allowed"]
    );
}

#[test]
fn samplers_and_events() {
    let src = "constant sampler_t s = 0x100000000LL;\nevent_t e;\nvoid f(sampler_t a) { a + 1; }\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "1: error: sampler_t initialization requires 32-bit integer, not 'long long'",
            "2: error: the '__private event_t' type cannot be used to declare a program scope variable",
            "3: error: invalid operands to binary expression ('sampler_t' and 'int')",
        ]
    );
}

#[test]
fn builtins_resolve_and_type_results() {
    let src = "kernel void k(global float *o, local float *l) {\n size_t i = get_global_id(0);\n float4 v = vload4(i, o);\n vstore4(v, i, l);\n o[i] = dot(v, v) + fract(1.0f, &l[0]);\n int b = sin(1, 2);\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        ["6: error: no matching function for call to 'sin'"]
    );
}

#[test]
fn hir_records_spaces_and_conversions() {
    let src = "global int g;\nkernel void k(local int *l) {\n int *p = l;\n}\n";
    let (d, prog) = common::check(src, &cl20());
    assert!(d.is_empty(), "{d:?}");
    let gvar = prog.var(prog.globals[0]).expect("global");
    assert_eq!(gvar.space, oclc_sema::AddrSpace::Global);
    let (_, k) = prog.kernels().next().expect("kernel");
    let body = k.body.as_ref().expect("body");
    let oclc_sema::hir::StmtKind::Decl(v) = body.stmts[0].kind else {
        panic!("decl")
    };
    let Some(oclc_sema::hir::Init::Expr(e)) = &prog.var(v).expect("var").init else {
        panic!("init")
    };
    assert!(
        matches!(
            e.kind,
            oclc_sema::hir::ExprKind::Cast(oclc_sema::hir::CastKind::ToGeneric, _)
        ),
        "{:?}",
        e.kind
    );
}

#[test]
fn redeclarations_share_one_function() {
    let src = "int helper(int x);\nkernel void k(global int *o) { o[0] = helper(2); }\nint helper(int x) { return x + 1; }\n";
    let (d, prog) = common::check(src, &cl12());
    assert!(d.is_empty(), "{d:?}");
    let (hid, h) = prog.function_by_name("helper").expect("helper");
    assert!(h.body.is_some());
    assert_eq!(
        prog.functions
            .iter()
            .filter(|f| f.name.as_str() == "helper")
            .count(),
        1
    );
    let (_, k) = prog.kernels().next().expect("kernel");
    let body = k.body.as_ref().expect("body");
    let oclc_sema::hir::StmtKind::Expr(e) = &body.stmts[0].kind else {
        panic!("expr stmt")
    };
    let oclc_sema::hir::ExprKind::Assign { rhs, .. } = &e.kind else {
        panic!("assign: {:?}", e.kind)
    };
    let oclc_sema::hir::ExprKind::Call { callee, .. } = &rhs.kind else {
        panic!("call: {:?}", rhs.kind)
    };
    assert_eq!(*callee, hid);
    let src2 = "int f(int);\nfloat f(int);\nint g(void) { return 1; }\nint g(void) { return 2; }\n";
    assert_eq!(
        diags(src2, &cl12()),
        [
            "2: error: conflicting types for 'f'",
            "4: error: redefinition of 'g'"
        ]
    );
}

#[test]
fn clang_default_warnings() {
    let src = "void f(int a) {\n a + 1;\n a == 2;\n char c = 1000;\n if (a = 1) {}\n (void)a;\n a++;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        // clang's order: warnings about run-time behaviour come at the end of the function.
        [
            "3: warning: equality comparison result unused",
            "5: warning: using the result of an assignment as a condition without parentheses",
            "2: warning: expression result unused",
            "4: warning: implicit conversion from 'int' to 'char' changes value from 1000 to -24",
        ]
    );
}

#[test]
fn vector_scalar_rank_rule() {
    let src = "void f(char4 c, uint4 u, float4 v) {\n c = c + 1;\n u = u * 2;\n v = v * 2.0;\n v = v * 2;\n}\n";
    assert_eq!(
        diags(src, &cl20()),
        [
            "2: error: scalar operand type has greater rank than the type of the vector element. ('char4' (vector of 4 'char' values) and 'int')",
            "4: error: scalar operand type has greater rank than the type of the vector element. ('float4' (vector of 4 'float' values) and 'double')",
        ]
    );
}

#[test]
fn type_specifier_combinations() {
    let src = "void f(void) {\n unsigned float a;\n long char b;\n short long c;\n int int d;\n long long long g;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        [
            "2: error: 'float' cannot be signed or unsigned",
            "3: error: 'long char' is invalid",
            "4: error: cannot combine with previous 'short' declaration specifier",
            "5: error: cannot combine with previous 'int' declaration specifier",
            "6: error: cannot combine with previous 'long long' declaration specifier",
        ]
    );
    let src2 = "constant unsigned char a = 0; constant signed char b = 0; constant short int c = 0;\nconstant unsigned short d = 0; constant long int e = 0; constant unsigned long long f = 0;\nconstant unsigned g = 0;\n";
    let (d, prog) = common::check(src2, &cl12());
    assert!(d.is_empty(), "{d:?}");
    let names: Vec<String> = prog
        .globals
        .iter()
        .map(|&v| {
            let var = prog.var(v).expect("var");
            prog.types.print(prog.types.canonical(var.ty).unqualified())
        })
        .collect();
    assert_eq!(
        names,
        [
            "unsigned char",
            "signed char",
            "short",
            "unsigned short",
            "long",
            "unsigned long long",
            "unsigned int"
        ]
    );
}

#[test]
fn default_on_value_warnings() {
    let src = "void f(int x) {\n int a[3];\n a[3] = 1;\n int *p = &a[3];\n int b = x / 0;\n int c = x == x;\n}\n";
    assert_eq!(
        diags(src, &cl12()),
        // clang's order: warnings about run-time behaviour come at the end of the function.
        [
            "6: warning: self-comparison always evaluates to true",
            "3: warning: array index 3 is past the end of the array (that has type '__private int[3]')",
            "5: warning: division by zero is undefined",
        ]
    );
}

#[test]
fn brace_elision_and_designators() {
    let src = "typedef struct { int a[2]; float b; } S;\nconstant int m[2][2] = { 1, 2, 3, 4 };\nconstant S s[2] = { 1, 2, 3.0f, 4, 5, 6.0f };\nconstant S d = { .b = 1.0f, .a = {1, 2} };\nconstant int too[2] = { 1, 2, 3 };\n";
    let (d, prog) = common::check(src, &cl12());
    assert_eq!(d, ["5: warning: excess elements in array initializer"]);
    let m = prog.var(prog.globals[0]).expect("m");
    let Some(oclc_sema::hir::Init::List { items, .. }) = &m.init else {
        panic!("list")
    };
    assert_eq!(items.len(), 2);
    assert!(matches!(items[1], Some(oclc_sema::hir::Init::List { .. })));
}
