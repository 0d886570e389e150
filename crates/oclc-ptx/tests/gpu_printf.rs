//! `printf` on a real GPU (feature `cuda`, issue 17): the text, its order and printf's return
//! values must be the cpu device's. Each test skips, saying why, without a CUDA driver or GPU.
#![cfg(feature = "cuda")]

mod common;
use oclc_ptx::cuda::{self, CudaDevice};

fn device() -> Option<CudaDevice> {
    match CudaDevice::new(0) {
        Ok(d) => {
            d.set_printf_echo(false);
            Some(d)
        }
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

/// What one launch of `kernel(global int *o)` printed, whether it was cut, and `o` (`n` ints).
type Out = (String, bool, Vec<i32>);

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn on_cpu(src: &str, kernel: &str, n: usize, global: &[u64], local: &[u64], limit: usize) -> Out {
    let (m, _) = common::module(src);
    let cpu = oclc_cpu::Device::cpu()
        .with_printf_echo(false)
        .with_printf_buffer(limit);
    let prog = cpu.load(m).expect("cpu load");
    let o = oclc_cpu::Buffer::from_bytes(&vec![0x55; 4 * n]);
    let nd = oclc_cpu::NdRange::new(global).local(local);
    let r = cpu
        .launch(&prog, kernel, &[oclc_cpu::Arg::Buffer(o.clone())], &nd)
        .expect("cpu launch");
    (r.printf, r.printf_truncated, ints(&o.read()))
}

fn on_gpu(
    d: &CudaDevice,
    src: &str,
    kernel: &str,
    n: usize,
    global: &[u64],
    local: &[u64],
    limit: usize,
) -> Out {
    let (m, sm) = common::module(src);
    d.set_printf_buffer(limit);
    let prog = d.load(&m, Some(&sm), false).expect("gpu load");
    let o = d.buffer_from_bytes(&vec![0x55; 4 * n]).expect("buffer");
    let nd = cuda::NdRange::new(global).local(local);
    let t = d
        .launch(&prog, kernel, &[cuda::Arg::Buffer(o.clone())], &nd)
        .expect("gpu launch");
    (t.printf, t.printf_truncated, ints(&o.read().expect("read")))
}

const SCALARS: &str = "constant char who[] = \"constant string\";\n\
    void vec(int g) {\n\
        float4 v = (float4)(g, 0.5f, -2.25f, 1e10f);\n\
        printf(\"v=%v4f h=%v2hhd x=%#v3hx\\n\", v, (char2)(g, -g), (short3)(g, 255, 4096));\n\
    }\n\
    kernel void k(global int *o) {\n\
        int g = get_global_id(0);\n\
        int r = printf(\"g%d l%u grp%lu f=%f e=%.3e G=%g c=%c s=%s|%-6s|%.3s o=%o X=%X L=%ld\\n\",\n\
            g, (uint)get_local_id(0), get_group_id(0), g * 1.5, g * 1e-7, (double)g / 3.0,\n\
            'A' + g, \"literal\", \"ab\", who, g * 8, g * 48879, -(long)g << 40);\n\
        vec(g);\n\
        o[g] = r;\n\
    }";

#[test]
fn scalars_vectors_and_strings_print_as_on_the_cpu() {
    let Some(d) = device() else { return };
    let (g, l) = ([12u64], [4u64]);
    let cpu = on_cpu(SCALARS, "k", 12, &g, &l, 1 << 20);
    let gpu = on_gpu(&d, SCALARS, "k", 12, &g, &l, 1 << 20);
    assert!(
        cpu.0
            .contains("v=0.000000,0.500000,-2.250000,10000000000.000000"),
        "{}",
        cpu.0
    );
    assert!(cpu.0.contains("s=literal|ab    |con"), "{}", cpu.0);
    assert_eq!(gpu.0, cpu.0);
    assert_eq!((gpu.1, &gpu.2), (false, &vec![0; 12]));
}

const MANY: &str = "kernel void k(global int *o) {\n\
        size_t x = get_global_id(0), y = get_global_id(1);\n\
        size_t i = y * get_global_size(0) + x;\n\
        int a = printf(\"(%lu,%lu) first\\n\", x, y);\n\
        int b = printf(\"(%lu,%lu) second %d\\n\", x, y, (int)(x * y));\n\
        o[i] = a + b;\n\
    }";

#[test]
fn many_work_items_in_two_dimensions_keep_the_cpu_order() {
    let Some(d) = device() else { return };
    // 64 x 32 items in 8 x 4 groups of 8 x 8: group order and item order both span two
    // dimensions, and the GPU runs them in any order.
    let (g, l) = ([64u64, 32], [8u64, 8]);
    let cpu = on_cpu(MANY, "k", 64 * 32, &g, &l, 1 << 20);
    let gpu = on_gpu(&d, MANY, "k", 64 * 32, &g, &l, 1 << 20);
    assert_eq!(cpu.0.lines().count(), 2 * 64 * 32);
    assert!(
        cpu.0
            .starts_with("(0,0) first\n(0,0) second 0\n(1,0) first\n")
    );
    assert_eq!(gpu.0, cpu.0);
    assert_eq!((gpu.1, &gpu.2), (false, &cpu.2));
}

const OVERFLOW: &str = "kernel void k(global int *o) {\n\
        int g = get_global_id(0);\n\
        o[g] = printf(\"item %04d\\n\", g);\n\
    }";

#[test]
fn a_full_buffer_returns_minus_one_and_reports_the_cut() {
    let Some(d) = device() else { return };
    let n = 256usize;
    // Each GPU record takes 48 bytes (40 of head, 8 for the int): 20 fit in 1000 bytes, and
    // their 200 bytes of text fit the limit too.
    let gpu = on_gpu(&d, OVERFLOW, "k", n, &[n as u64], &[64], 1000);
    assert!(gpu.1, "the cut must be reported");
    let ok: Vec<usize> = (0..n).filter(|&i| gpu.2[i] == 0).collect();
    assert_eq!(ok.len(), 20, "{:?}", gpu.2);
    assert!(gpu.2.iter().all(|r| *r == 0 || *r == -1), "{:?}", gpu.2);
    let want: String = ok.iter().map(|i| format!("item {i:04}\n")).collect();
    assert_eq!(gpu.0, want);
    // The cpu device cuts the same launch too, with the same warning text.
    let cpu = on_cpu(OVERFLOW, "k", n, &[n as u64], &[64], 1000);
    assert!(cpu.1 && cpu.2.contains(&-1));
    assert!(oclc_ir::printf::cut_message("k", 1000).contains("was cut at 1000 bytes"));
    // A roomy buffer: nothing is cut, the output is the cpu device's.
    let gpu = on_gpu(&d, OVERFLOW, "k", n, &[n as u64], &[64], 1 << 20);
    let cpu = on_cpu(OVERFLOW, "k", n, &[n as u64], &[64], 1 << 20);
    assert_eq!(gpu, cpu);
}

#[test]
fn a_kernel_without_printf_takes_no_buffer() {
    let Some(d) = device() else { return };
    let src = "kernel void k(global int *o) { o[get_global_id(0)] = 7; }";
    let gpu = on_gpu(&d, src, "k", 4, &[4], &[4], 1 << 20);
    assert_eq!(gpu, (String::new(), false, vec![7; 4]));
}

const BARRIERS: &str = "void sync_in_helper(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n\
    kernel void k(global int *o) {\n\
        int l = get_local_id(0), g = get_group_id(0);\n\
        printf(\"g%d l%d before\\n\", g, l);\n\
        barrier(CLK_LOCAL_MEM_FENCE);\n\
        printf(\"g%d l%d between\\n\", g, l);\n\
        sync_in_helper();\n\
        int s = work_group_reduce_add(l);\n\
        printf(\"g%d l%d after %d\\n\", g, l, s);\n\
        o[get_global_id(0)] = s;\n\
    }";

#[test]
fn output_across_barriers_follows_the_cpu_phases() {
    let Some(d) = device() else { return };
    let (g, l) = ([96u64], [32u64]);
    let cpu = on_cpu(BARRIERS, "k", 96, &g, &l, 1 << 20);
    let gpu = on_gpu(&d, BARRIERS, "k", 96, &g, &l, 1 << 20);
    assert!(
        cpu.0.starts_with("g0 l0 before\ng0 l1 before\n"),
        "{}",
        cpu.0
    );
    assert_eq!(gpu.0, cpu.0);
    assert_eq!(gpu.2, cpu.2);
}
