//! Launch variants without a GPU: the read-only parameter analysis, coarsening eligibility,
//! and the PTX of coarsened and `ld.global.nc` kernels.

mod common;
use common::{module, save};
use oclc_ptx::{KernelAbi, KernelVariant, PtxModule, PtxOptions, emit_module};

fn abi(src: &str, kernel: &str) -> KernelAbi {
    let (m, sm) = module(src);
    let p = match emit_module(&m, Some(&sm), &PtxOptions::default()) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    match p.kernels.into_iter().find(|k| k.name == kernel) {
        Some(k) => k,
        None => panic!("no kernel {kernel}"),
    }
}

fn variant(src: &str, kernel: &str, coarsen: u32, nc: &[usize]) -> PtxModule {
    let (m, sm) = module(src);
    let opts = PtxOptions {
        variant: Some(KernelVariant {
            kernel: kernel.into(),
            coarsen,
            nc: nc.to_vec(),
            aligned: vec![],
            local: None,
        }),
        ..PtxOptions::default()
    };
    match emit_module(&m, Some(&sm), &opts) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

const COPY: &str = "kernel void copy(global const uint *src, global uint *dst) {\n\
    size_t i = get_global_id(0);\n\
    dst[i] = src[i];\n\
}\n";

#[test]
fn plain_copy_reads_only_its_source_and_can_be_coarsened() {
    let a = abi(COPY, "copy");
    assert_eq!(a.read_only, vec![true, false]);
    assert!(a.coarsenable);
    assert!(!a.uses_globals);
}

#[test]
fn writes_through_helpers_generic_pointers_and_atomics_count() {
    let src = "void put(uint *p, size_t i, uint v) { p[i] = v; }\n\
        uint get(const uint *p, size_t i) { return p[i]; }\n\
        kernel void via_generic(global uint *a, global uint *b, global uint *c) {\n\
            size_t i = get_global_id(0);\n\
            put(a, i, get(b, i) + get(c, i));\n\
        }\n\
        kernel void via_atomic(global uint *a, global uint *b) {\n\
            atomic_add(&a[1], b[0]);\n\
        }\n\
        kernel void via_select(global uint *a, global uint *b, int k) {\n\
            global uint *p = k ? a : b;\n\
            p[0] = 1;\n\
        }\n\
        kernel void via_vstore(global float *a, global const float *b) {\n\
            vstore4(vload4(0, b), 0, a);\n\
        }\n";
    assert_eq!(abi(src, "via_generic").read_only, vec![false, true, true]);
    assert_eq!(abi(src, "via_atomic").read_only, vec![false, true]);
    assert_eq!(abi(src, "via_select").read_only, vec![false, false, false]);
    assert_eq!(abi(src, "via_vstore").read_only, vec![false, true]);
}

#[test]
fn escaping_or_unknown_pointers_make_buffers_written() {
    let src = "kernel void stores_ptr(global uint *a, global ulong *b, global uint *c) {\n\
            b[0] = (ulong)a;\n\
            c[0] = a[0];\n\
        }\n\
        kernel void through_loaded(global uint *a, global uint *global *pp) {\n\
            pp[0][0] = a[0];\n\
        }\n\
        kernel void into_private(global uint *a, global uint *b) {\n\
            global uint *ps[2] = { a, b };\n\
            ps[get_global_id(0) & 1][0] = 7;\n\
        }\n";
    // `a` becomes an integer: it may be written through later.
    assert_eq!(abi(src, "stores_ptr").read_only, vec![false, false, false]);
    // A pointer from memory may point into any buffer.
    assert_eq!(abi(src, "through_loaded").read_only, vec![false, false]);
    assert_eq!(abi(src, "into_private").read_only, vec![false, false]);
}

#[test]
fn group_bound_kernels_are_not_coarsened() {
    let src = "kernel void bar(global uint *a) { a[get_global_id(0)] = 1; barrier(CLK_GLOBAL_MEM_FENCE); }\n\
        kernel void lparam(global uint *a, local uint *t) { t[0] = 1; a[0] = t[0]; }\n\
        kernel void lvar(global uint *a) { local uint t; t = 1; a[0] = t; }\n\
        kernel void wg(global uint *a) { a[0] = work_group_reduce_add(1u); }\n\
        typedef struct { int x, y; } P;\n\
        kernel void byval(global int *a, P p) { a[0] = p.x; }\n\
        kernel void fine(global uint *a) { a[get_global_id(0)] = get_group_id(0); }\n";
    for k in ["bar", "lparam", "lvar", "wg", "byval"] {
        assert!(!abi(src, k).coarsenable, "{k}");
    }
    assert!(abi(src, "fine").coarsenable);
}

#[test]
fn program_scope_globals_pin_a_kernel_to_its_module() {
    let src = "global uint counter;\n\
        constant uint table[2] = { 1, 2 };\n\
        kernel void uses(global uint *a) { counter += a[0]; }\n\
        kernel void reads_constant(global uint *a) { a[0] = table[a[1] & 1]; }\n";
    assert!(abi(src, "uses").uses_globals);
    assert!(!abi(src, "reads_constant").uses_globals);
}

#[test]
fn nc_variant_loads_read_only_buffers_with_ld_global_nc() {
    let p = variant(COPY, "copy", 1, &[0]);
    save("variant_copy_nc", &p.text);
    assert!(p.text.contains("ld.global.nc.u32"), "{}", p.text);
    assert!(p.text.contains("st.global.u32"), "{}", p.text);
    assert_eq!(p.kernels.len(), 1);
    // A parameter that is written never gets `.nc`, even when asked for.
    let p = variant(COPY, "copy", 1, &[1]);
    assert!(!p.text.contains(".nc"), "{}", p.text);
}

#[test]
fn coarsened_variant_repeats_the_body_per_work_group() {
    let p = variant(COPY, "copy", 4, &[0]);
    save("variant_copy_c4", &p.text);
    let t = &p.text;
    assert!(t.contains("mad.lo.u32 %tr1, %tr0, 4, %nd_grp0"), "{t}");
    for c in 1..4 {
        assert!(t.contains(&format!("$C{c}:")), "{t}");
        assert!(t.contains(&format!("add.u32 %nd_grp0, %tr1, {c};")), "{t}");
        assert!(t.contains(&format!("bra.uni $C{c};")), "{t}");
    }
    assert_eq!(t.matches("ld.global.nc.u32").count(), 4, "{t}");
    assert_eq!(t.matches("st.global.u32").count(), 4, "{t}");
    assert_eq!(t.matches("\tret;").count(), 1, "{t}");
    insta::assert_snapshot!(t.as_str());
}

#[test]
fn coarsened_loops_get_labels_per_repetition() {
    let src = "uint f(uint x) { return x * get_group_id(0); }\n\
        kernel void k(global uint *a, global const uint *b, uint n) {\n\
            size_t i = get_global_id(0);\n\
            if (i >= n) return;\n\
            uint s = 0;\n\
            for (uint j = 0; j < b[i]; j++) s += f(j);\n\
            a[i] = s;\n\
        }\n";
    assert!(abi(src, "k").coarsenable);
    let p = variant(src, "k", 2, &[1]);
    save("variant_loop_c2", &p.text);
    let t = &p.text;
    assert!(t.contains("$B1:") && t.contains("$C1B1:"), "{t}");
    // The helper reads the work-group of each repetition from its ND-range parameters.
    assert!(t.contains(".param .b32 __nd7"), "{t}");
    assert_eq!(
        t.matches("st.param.b32 [__an7], %nd_grp0").count(),
        2,
        "{t}"
    );
}

#[test]
fn a_variant_of_a_missing_kernel_is_an_error() {
    let (m, _) = module(COPY);
    let opts = PtxOptions {
        variant: Some(KernelVariant {
            kernel: "nope".into(),
            coarsen: 2,
            nc: vec![],
            aligned: vec![],
            local: None,
        }),
        ..PtxOptions::default()
    };
    assert!(emit_module(&m, None, &opts).is_err());
}

#[test]
fn helpers_load_through_nc_only_when_every_call_passes_read_only_buffers() {
    let generic = "void copy_elem(const uint *src, uint *dst, size_t i) { dst[i] = src[i]; }\n\
        kernel void copy(global const uint *src, global uint *dst) {\n\
            copy_elem(src, dst, get_global_id(0));\n\
        }\n";
    let p = variant(generic, "copy", 4, &[0]);
    save("variant_copy_generic_c4", &p.text);
    assert_eq!(p.text.matches("ld.global.nc.u32").count(), 1, "{}", p.text);
    let mixed = "uint get(global const uint *p, size_t i) { return p[i]; }\n\
        kernel void k(global const uint *a, global uint *b) {\n\
            size_t i = get_global_id(0);\n\
            b[i] = get(a, i) + get(b, i + 1);\n\
        }\n\
        kernel void only_a(global const uint *a, global uint *b) {\n\
            size_t i = get_global_id(0);\n\
            b[i] = get(a, i);\n\
        }\n";
    assert!(!variant(mixed, "k", 1, &[0]).text.contains(".nc"));
    let p = variant(mixed, "only_a", 1, &[0]);
    assert!(p.text.contains("ld.global.nc.u32"), "{}", p.text);
}

/// Structural checks ptxas would make: in every function, each `%register` used is declared
/// and each branch target is a label of that function.
fn well_formed(text: &str) -> Result<(), String> {
    let special = [
        "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%smid", "%clock",
    ];
    for func in text
        .split("\n.func ")
        .chain(text.split("\n.visible .entry "))
        .skip(1)
    {
        let Some(open) = func.find("\n{\n") else {
            continue;
        };
        let end = func[open..].find("\n}\n").map_or(func.len(), |e| open + e);
        let body = &func[open..end];
        let head = &func[..open];
        let mut declared: Vec<&str> = Vec::new();
        let mut labels: Vec<&str> = Vec::new();
        for line in body.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix(".reg ") {
                let names = rest.split_once(' ').map_or("", |(_, n)| n);
                declared.extend(names.trim_end_matches(';').split(", "));
            } else if let Some(l) = line.strip_suffix(':') {
                labels.push(l);
            }
        }
        for line in body.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find('%') {
                let tail = &rest[i..];
                let n = tail[1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(tail.len(), |e| e + 1);
                let name = &tail[..n];
                let base = name.split('.').next().unwrap_or(name);
                if !declared.contains(&base) && !special.contains(&base) {
                    return Err(format!("{name} not declared in\n{head}"));
                }
                rest = &tail[n..];
            }
            if let Some(t) = code.split("bra").nth(1) {
                let target = t.trim_start_matches(".uni").trim().trim_end_matches(';');
                if !labels.contains(&target) {
                    return Err(format!("branch to undefined label {target} in\n{head}"));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn bench_kernels_give_well_formed_variants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench");
    let mut checked = 0;
    for name in [
        "copy_named",
        "copy_generic",
        "memcpy_named",
        "memcpy_generic",
        "matmul_named",
        "matmul_generic",
        "reduce_named",
        "reduce_generic",
        "histogram_named",
        "histogram_generic",
    ] {
        let src = std::fs::read_to_string(dir.join(format!("{name}.cl"))).expect("bench source");
        let src: &'static str = Box::leak(src.into_boxed_str());
        let (m, sm) = module(src);
        let base = emit_module(&m, Some(&sm), &PtxOptions::default()).expect("base PTX");
        if let Err(e) = well_formed(&base.text) {
            panic!("{name}: {e}");
        }
        for k in &base.kernels {
            let nc: Vec<usize> = (0..k.params.len()).filter(|i| k.read_only[*i]).collect();
            for coarsen in [1, 2, 4, 8] {
                let p = variant(src, &k.name, coarsen, &nc);
                if let Err(e) = well_formed(&p.text) {
                    panic!("{name}/{} x{coarsen}: {e}", k.name);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn the_checker_catches_undeclared_registers_and_labels() {
    let ok = ".visible .entry k(\n)\n{\n\t.reg .b32 %r1;\n\tmov.u32 %r1, %tid.x;\n$L1:\n\t@%r1 bra $L1;\n}\n";
    assert_eq!(well_formed(ok), Ok(()));
    assert!(well_formed(&ok.replace(".reg .b32 %r1;", ".reg .b32 %r2;")).is_err());
    assert!(well_formed(&ok.replace("$L1:", "$L2:")).is_err());
}

const VECTORS: &str = "kernel void v(global const float *a, global float *o, global const double *d,\n\
        global float *q) {\n\
    size_t i = get_global_id(0);\n\
    float4 x = vload4(i, a);\n\
    vstore8((float8)(x, x), i, o);\n\
    vstore3(vload3(i, a), i, q);\n\
    o[0] += (float)vload2(i, d).x;\n\
    vstore4(x, i, q + 1);\n\
}\n";

fn vectors_with(aligned: Vec<usize>) -> String {
    let (m, sm) = module(VECTORS);
    let opts = PtxOptions {
        variant: Some(KernelVariant {
            kernel: "v".into(),
            coarsen: 1,
            nc: vec![],
            aligned,
            local: None,
        }),
        ..PtxOptions::default()
    };
    match emit_module(&m, Some(&sm), &opts) {
        Ok(p) => p.text,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn vloads_and_vstores_through_aligned_parameters_move_whole_vectors() {
    // `q` only takes a 3-lane store and a pointer derived from it.
    assert_eq!(
        abi(VECTORS, "v").vector_params,
        vec![true, true, true, false]
    );
    let whole = vectors_with(vec![0, 1, 2, 3]);
    assert_eq!(whole.matches("ld.global.v4.f32").count(), 1, "{whole}");
    // vstore8: two 16-byte halves.
    assert_eq!(whole.matches("st.global.v4.f32").count(), 2, "{whole}");
    assert!(whole.contains("+16], {"), "{whole}");
    assert_eq!(whole.matches("ld.global.v2.f64").count(), 1, "{whole}");
    // vload3/vstore3 and the store through q + 1 stay per lane.
    assert_eq!(whole.matches(".v3.").count(), 0);
    assert_eq!(whole.matches("st.global.f32").count(), 3 + 4 + 1, "{whole}");
    let some = vectors_with(vec![0]);
    assert_eq!(some.matches("ld.global.v4.f32").count(), 1);
    assert!(
        !some.contains("st.global.v4") && !some.contains(".v2."),
        "{some}"
    );
    let none = vectors_with(vec![]);
    assert!(!none.contains(".v4.") && !none.contains(".v2."), "{none}");
}
