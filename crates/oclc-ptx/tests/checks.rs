//! `--checks` without a GPU: which accesses the emitted PTX checks (and which it proves in
//! bounds), and that a fault record is worded exactly as the cpu device reports the same
//! fault (message, line, work-item), given the record the GPU would write.

mod common;
use oclc_ir::AddrSpace;
use oclc_ptx::checks::{self, CheckSite, FaultContext, Object, Record, kind};
use oclc_ptx::{PtxOptions, emit_module};

fn checked(src: &str) -> (oclc_ptx::PtxModule, oclc_ir::Module, oclc_syntax::SourceMap) {
    let (mut m, sm) = common::module(src);
    oclc_ir::passes::optimize_for_device(&mut m);
    let opts = PtxOptions {
        checks: true,
        ..PtxOptions::default()
    };
    let p = emit_module(&m, Some(&sm), &opts).expect("emits");
    (p, m, sm)
}

fn sites_of<'a>(p: &'a oclc_ptx::PtxModule, what: &str) -> Vec<&'a CheckSite> {
    p.checks.iter().filter(|s| s.what == what).collect()
}

#[test]
fn accesses_are_checked_against_their_objects() {
    let (p, _, _) = checked(
        "kernel void k(global int *a, local int *l, int n) {
             local int t[16];
             int priv[4];
             for (int j = 0; j < 4; j++) priv[j] = a[j];
             t[get_local_id(0)] = priv[n & 7];
             l[get_local_id(0)] = t[n];
             barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = l[0];
         }",
    );
    let text = &p.text;
    assert!(
        text.contains(".const .align 8 .b8 __oclc_chk["),
        "no check table"
    );
    let objects: Vec<&Object> = p.checks.iter().map(|s| &s.object).collect();
    assert!(objects.contains(&&Object::Param(0)), "{objects:?}");
    assert!(objects.contains(&&Object::Param(1)), "{objects:?}");
    assert!(objects.contains(&&Object::Local(0)), "{objects:?}");
    assert!(
        objects
            .iter()
            .any(|o| matches!(o, Object::Private { name, size: 16 } if name == "variable `priv`")),
        "{objects:?}"
    );
    assert_eq!(sites_of(&p, "barrier").len(), 1);
    // The barrier runs the divergence protocol (non-aligned barriers).
    assert!(text.contains("barrier.sync 0"), "{text}");
    assert!(!text.contains("bar.sync 0"), "{text}");
    // Every site's span is a source line of the kernel.
    assert!(p.checks.iter().all(|s| s.span.lo > 0));
}

#[test]
fn accesses_proven_in_bounds_are_not_checked() {
    // A `uchar` index into 256 bins needs no check; the `int` index does.
    let (p, _, _) = checked(
        "kernel void k(global const uchar *d, global uint *h, int n) {
             local uint bins[256];
             atomic_inc(&bins[d[get_global_id(0)]]);
             bins[n] = 0;
             barrier(CLK_LOCAL_MEM_FENCE);
             h[get_local_id(0)] = bins[get_local_id(0) & 255];
         }",
    );
    let local: Vec<_> = p
        .checks
        .iter()
        .filter(|s| s.object == Object::Local(0))
        .collect();
    assert_eq!(local.len(), 1, "only bins[n] is checked: {local:?}");
    assert_eq!(local[0].what, "write");
}

/// The checked PTX of kernel `k` of `src` specialised to local size `local`.
fn checked_for(src: &str, local: [u32; 3]) -> oclc_ptx::PtxModule {
    let (mut m, sm) = common::module(src);
    oclc_ir::passes::optimize_for_device(&mut m);
    let opts = PtxOptions {
        checks: true,
        variant: Some(oclc_ptx::KernelVariant {
            kernel: "k".into(),
            coarsen: 1,
            nc: vec![],
            aligned: vec![],
            local: Some(local),
        }),
        ..PtxOptions::default()
    };
    emit_module(&m, Some(&sm), &opts).expect("emits")
}

#[test]
fn a_launch_local_size_proves_tile_accesses_in_bounds() {
    // The tiled matmul's 16x16 tiles: in bounds for every work-item of a 16x16 group (and of
    // any smaller one), not for a 32-wide group.
    let src =
        "kernel void k(global const float *a, global const float *b, global float *c, uint n) {
             local float ta[16][16];
             local float tb[16][16];
             size_t col = get_global_id(0), row = get_global_id(1);
             size_t lx = get_local_id(0), ly = get_local_id(1);
             float sum = 0.0f;
             for (uint t = 0; t < n; t += 16) {
                 ta[ly][lx] = a[row * n + t + lx];
                 tb[ly][lx] = b[(t + ly) * n + col];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 for (uint k = 0; k < 16; k++)
                     sum += ta[ly][k] * tb[k][lx];
                 barrier(CLK_LOCAL_MEM_FENCE);
             }
             c[row * n + col] = sum;
         }";
    let tiles = |p: &oclc_ptx::PtxModule| {
        p.checks
            .iter()
            .filter(|s| matches!(s.object, Object::Local(_)))
            .count()
    };
    let (any, _, _) = checked(src);
    assert!(tiles(&any) >= 4, "{:?}", any.checks);
    assert_eq!(tiles(&checked_for(src, [16, 16, 1])), 0);
    assert_eq!(tiles(&checked_for(src, [8, 4, 1])), 0);
    let wide = checked_for(src, [32, 16, 1]);
    let left: Vec<_> = wide
        .checks
        .iter()
        .filter(|s| matches!(s.object, Object::Local(_)))
        .collect();
    // lx up to 31: the two tile stores and the reads of tb[k][lx].
    assert!(!left.is_empty() && left.len() < tiles(&any), "{left:?}");
    // The global accesses keep their checks.
    assert!(
        checked_for(src, [16, 16, 1])
            .checks
            .iter()
            .any(|s| s.object == Object::Param(0))
    );
}

#[test]
fn without_checks_nothing_is_added() {
    let (m, sm) = common::module("kernel void k(global int *a) { a[get_global_id(0)] = 1; }");
    let p = emit_module(&m, Some(&sm), &PtxOptions::default()).expect("emits");
    assert!(p.checks.is_empty());
    assert!(!p.text.contains("__oclc_chk"));
}

/// Runs `kernel k` of `src` on the cpu device with one zeroed `int` buffer of `n` elements
/// (and `extra` more arguments): the fault it reports.
fn cpu_fault(src: &str, n: usize, range: &oclc_cpu::NdRange) -> oclc_cpu::RuntimeError {
    let (m, _) = common::module(src);
    let d = oclc_cpu::Device::cpu().with_printf_echo(false);
    let prog = d.load(m).expect("loads");
    let buf = oclc_cpu::Buffer::zeroed(n * 4);
    match d.launch(&prog, "k", &[oclc_cpu::Arg::Buffer(buf)], range) {
        Err(oclc_cpu::DeviceError::Runtime(e)) => *e,
        other => panic!("expected a fault, got {other:?}"),
    }
}

/// The GPU's report for a record of `kind` at the only site of `src` that `pick` selects.
fn gpu_report(
    src: &str,
    n: usize,
    range: &oclc_ptx::launch::NdRange,
    pick: impl Fn(&CheckSite) -> bool,
    mut rec: Record,
) -> oclc_ir::fault::RuntimeError {
    let (p, m, _) = checked(src);
    let site = p.checks.iter().position(pick).expect("the site");
    rec.site = site as u32;
    let abi = &p.kernels[0];
    let plan = oclc_ptx::launch::plan(abi, range, 1, 0).expect("plan");
    let kernel = m.function_by_name("k").and_then(|k| m.function(k));
    checks::runtime_error(
        &rec,
        &FaultContext {
            module: &m,
            kernel,
            sites: &p.checks,
            plan: &plan,
            entries: &[(0x1000_0000, n as u64 * 4)],
        },
    )
}

#[test]
fn an_out_of_bounds_record_reads_as_the_cpu_device_reports_it() {
    let src = "kernel void k(global int *a) {\n    int i = get_global_id(0);\n    a[i + 1] = i;\n}";
    let cpu = cpu_fault(src, 64, &oclc_cpu::NdRange::new(&[64]).local(&[16]));
    // Work-item 63 (group 3, local 15) writes 4 bytes at offset 256.
    let rec = Record {
        kind: kind::OUT_OF_BOUNDS,
        entry: u32::MAX,
        value: 256,
        len: 4,
        ctaid: [3, 0, 0],
        tid: [15, 0, 0],
        ..Record::default()
    };
    let range = oclc_ptx::launch::NdRange::new(&[64]).local(&[16]);
    let g = gpu_report(src, 64, &range, |s| s.what == "write", rec);
    assert_eq!(g.message, cpu.message);
    assert_eq!(g.span, cpu.span);
    assert_eq!(g.kind, cpu.kind);
    assert_eq!(
        (g.global_id, g.local_id, g.group_id),
        (cpu.global_id, cpu.local_id, cpu.group_id)
    );
    assert_eq!(
        g.message,
        "out-of-bounds write of 4 bytes at offset 256 of __global buffer `a` (256 bytes)"
    );
}

#[test]
fn a_divergence_record_reads_as_the_cpu_device_reports_it() {
    let src = "kernel void k(global int *a) {\n    if (get_local_id(0) % 2)\n        barrier(CLK_LOCAL_MEM_FENCE);\n    else\n        barrier(CLK_GLOBAL_MEM_FENCE);\n    a[get_global_id(0)] = 1;\n}";
    let cpu = cpu_fault(src, 16, &oclc_cpu::NdRange::new(&[16]).local(&[8]));
    let (p, _, _) = checked(src);
    let barriers: Vec<usize> = p
        .checks
        .iter()
        .enumerate()
        .filter(|(_, s)| s.what == "barrier")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(barriers.len(), 2);
    // Work-item 0 waits at the `else` barrier; work-item 1 at the other.
    let line = |i: usize| p.checks[i].span;
    let (odd, even) = if line(barriers[0]).lo < line(barriers[1]).lo {
        (barriers[0], barriers[1])
    } else {
        (barriers[1], barriers[0])
    };
    let rec = Record {
        kind: kind::DIVERGENCE,
        extra: even as u32,
        tid: [1, 0, 0],
        ..Record::default()
    };
    let range = oclc_ptx::launch::NdRange::new(&[16]).local(&[8]);
    let g = gpu_report(src, 16, &range, |s| s.span == line(odd), rec);
    assert_eq!(g.message, cpu.message);
    assert_eq!(g.span, cpu.span);
    assert_eq!(g.note, cpu.note);
    assert_eq!(
        (g.global_id, g.local_id, g.group_id),
        (cpu.global_id, cpu.local_id, cpu.group_id)
    );
    assert!(
        g.message.contains("reached a different barrier"),
        "{}",
        g.message
    );
}

#[test]
fn records_decode_their_fields() {
    let mut bytes = checks::empty_record();
    assert_eq!(Record::decode(&bytes), None);
    bytes[0..8].copy_from_slice(&5u64.to_le_bytes());
    bytes[12..16].copy_from_slice(&7u32.to_le_bytes());
    bytes[16..20].copy_from_slice(&kind::NULL.to_le_bytes());
    bytes[52..56].copy_from_slice(&9u32.to_le_bytes());
    bytes[72..76].copy_from_slice(&2u32.to_le_bytes());
    let r = Record::decode(&bytes).expect("a fault");
    assert_eq!((r.site, r.kind, r.tid[0], r.copy), (7, kind::NULL, 9, 2));
    assert_eq!(
        checks::space_of_code(checks::space_code(AddrSpace::Local)),
        AddrSpace::Local
    );
}
