//! The cuda device's launch path against the cpu device (feature `cuda`): non-uniform
//! work-groups in 1, 2 and 3 dimensions, `ld.global.nc` for read-only buffers (and not for a
//! buffer passed twice), and coarsened against uncoarsened launches. Every buffer must come
//! back byte for byte as the cpu device leaves it. Skips, saying why, without a GPU.
#![cfg(feature = "cuda")]

mod common;
use oclc_ptx::cuda::{self, CudaDevice};

fn device() -> Option<CudaDevice> {
    match CudaDevice::new(0) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

/// One kernel argument for both devices: a buffer (its initial bytes; the same index twice
/// means the same buffer) or a value.
#[derive(Clone)]
enum A {
    Buf(usize),
    Val(Vec<u8>),
    /// A `__local` buffer of this many bytes.
    Local(usize),
}

struct Run {
    src: &'static str,
    kernel: &'static str,
    buffers: Vec<Vec<u8>>,
    args: Vec<A>,
}

fn u32s(n: usize, f: impl Fn(usize) -> u32) -> Vec<u8> {
    (0..n).flat_map(|i| f(i).to_le_bytes()).collect()
}

fn f32s(n: usize, f: impl Fn(usize) -> f32) -> Vec<u8> {
    (0..n).flat_map(|i| f(i).to_le_bytes()).collect()
}

/// The buffers after running on the cpu device.
fn on_cpu(r: &Run, global: &[u64], local: &[u64], offset: Option<&[u64]>) -> Vec<Vec<u8>> {
    let (m, _) = common::module(r.src);
    let cpu = oclc_cpu::Device::cpu();
    let prog = cpu.load(m).expect("cpu load");
    let bufs: Vec<oclc_cpu::Buffer> = r
        .buffers
        .iter()
        .map(|b| oclc_cpu::Buffer::from_bytes(b))
        .collect();
    let args: Vec<oclc_cpu::Arg> = r
        .args
        .iter()
        .map(|a| match a {
            A::Buf(i) => oclc_cpu::Arg::Buffer(bufs[*i].clone()),
            A::Val(v) => oclc_cpu::Arg::Bytes(v.clone()),
            A::Local(n) => oclc_cpu::Arg::Local(*n),
        })
        .collect();
    let mut nd = oclc_cpu::NdRange::new(global).local(local);
    if let Some(o) = offset {
        nd = nd.offset(o);
    }
    cpu.launch(&prog, r.kernel, &args, &nd).expect("cpu launch");
    bufs.iter().map(|b| b.read()).collect()
}

/// The buffers after running on the GPU, and the launch's report.
fn on_gpu(
    d: &CudaDevice,
    r: &Run,
    global: &[u64],
    local: &[u64],
    offset: Option<&[u64]>,
) -> (Vec<Vec<u8>>, cuda::LaunchTiming) {
    let (m, sm) = common::module(r.src);
    let prog = d.load(&m, Some(&sm), false).expect("gpu load");
    let bufs: Vec<cuda::Buffer> = r
        .buffers
        .iter()
        .map(|b| d.buffer_from_bytes(b).expect("buffer"))
        .collect();
    let args: Vec<cuda::Arg> = r
        .args
        .iter()
        .map(|a| match a {
            A::Buf(i) => cuda::Arg::Buffer(bufs[*i].clone()),
            A::Val(v) => cuda::Arg::Bytes(v.clone()),
            A::Local(n) => cuda::Arg::Local(*n),
        })
        .collect();
    let mut nd = cuda::NdRange::new(global).local(local);
    if let Some(o) = offset {
        nd = nd.offset(o);
    }
    let t = d.launch(&prog, r.kernel, &args, &nd).expect("gpu launch");
    (bufs.iter().map(|b| b.read().expect("read")).collect(), t)
}

/// Every query of every dimension, 32 slots per work-item at its global linear id; half of
/// them written by a helper function (which gets the ND-range as parameters).
const QUERIES: &str = "void from_helper(global uint *p) {\n\
        for (uint d = 0; d < 4; d++) {\n\
            p[16 + 4 * d + 0] = get_group_id(d);\n\
            p[16 + 4 * d + 1] = get_num_groups(d);\n\
            p[16 + 4 * d + 2] = get_enqueued_local_size(d);\n\
            p[16 + 4 * d + 3] = get_global_id(d);\n\
        }\n\
    }\n\
    kernel void queries(global uint *o) {\n\
        global uint *p = o + 32 * get_global_linear_id();\n\
        for (uint d = 0; d < 3; d++) {\n\
            p[4 * d + 0] = get_local_id(d);\n\
            p[4 * d + 1] = get_local_size(d);\n\
            p[4 * d + 2] = get_global_size(d);\n\
            p[4 * d + 3] = get_global_offset(d);\n\
        }\n\
        p[12] = get_work_dim();\n\
        p[13] = get_local_linear_id();\n\
        p[14] = get_global_linear_id();\n\
        p[15] = get_group_id(0) * 1000 + get_local_id(0);\n\
        from_helper(p);\n\
    }\n";

/// Runs the query kernel on the cpu device, then (with a GPU) compares.
fn queries_match(d: Option<&CudaDevice>, global: &[u64], local: &[u64], offset: Option<&[u64]>) {
    let n: u64 = global.iter().product();
    let r = Run {
        src: QUERIES,
        kernel: "queries",
        buffers: vec![u32s(32 * n as usize, |_| 0xdead_beef)],
        args: vec![A::Buf(0)],
    };
    let want = on_cpu(&r, global, local, offset);
    let Some(d) = d else { return };
    for max in [1, 4] {
        d.set_coarsening(max, 0);
        let (got, t) = on_gpu(d, &r, global, local, offset);
        let parts: u32 = (0..global.len())
            .map(|k| {
                u32::from(global[k] >= local[k]) + u32::from(!global[k].is_multiple_of(local[k]))
            })
            .product();
        assert_eq!(t.launches, parts, "{global:?} / {local:?}");
        let first_diff = want[0]
            .chunks(4)
            .zip(got[0].chunks(4))
            .position(|(a, b)| a != b);
        assert_eq!(
            first_diff,
            None,
            "{global:?} / {local:?} offset {offset:?}, coarsening up to {max}: first differing \
             word (work-item {}, slot {})",
            first_diff.unwrap_or(0) / 32,
            first_diff.unwrap_or(0) % 32
        );
    }
}

#[test]
fn non_uniform_groups_in_one_dimension() {
    let d = device();
    let d = d.as_ref();
    queries_match(d, &[10], &[4], None);
    queries_match(d, &[1030], &[32], Some(&[7]));
    queries_match(d, &[5], &[8], None);
}

#[test]
fn non_uniform_groups_in_two_dimensions() {
    let d = device();
    let d = d.as_ref();
    queries_match(d, &[10, 7], &[4, 3], None);
    queries_match(d, &[64, 7], &[16, 2], Some(&[3, 5]));
    queries_match(d, &[9, 16], &[4, 4], None);
}

#[test]
fn non_uniform_groups_in_three_dimensions() {
    let d = device();
    let d = d.as_ref();
    queries_match(d, &[10, 7, 5], &[4, 2, 3], Some(&[1, 2, 3]));
    queries_match(d, &[16, 4, 5], &[8, 2, 2], None);
}

#[test]
fn uniform_ranges_with_every_query() {
    let d = device();
    let d = d.as_ref();
    queries_match(d, &[1024], &[32], None);
    queries_match(d, &[64, 4], &[8, 2], Some(&[2, 1]));
    queries_match(d, &[8, 8, 8], &[2, 4, 2], None);
}

const SAXPY: &str = "kernel void saxpy(global const float *x, global float *y, float a) {\n\
        size_t i = get_global_id(0);\n\
        y[i] = a * x[i] + y[i];\n\
    }\n";

#[test]
fn read_only_buffers_load_through_the_non_coherent_path() {
    let n = 1 << 16;
    let r = Run {
        src: SAXPY,
        kernel: "saxpy",
        buffers: vec![f32s(n, |i| i as f32 * 0.5), f32s(n, |i| 3.0 - i as f32)],
        args: vec![A::Buf(0), A::Buf(1), A::Val(2.5f32.to_le_bytes().to_vec())],
    };
    let want = on_cpu(&r, &[n as u64], &[128], None);
    let Some(d) = device() else { return };
    for max in [1, 4] {
        d.set_coarsening(max, 0);
        let (got, t) = on_gpu(&d, &r, &[n as u64], &[128], None);
        assert_eq!(t.nc_params, 1, "coarsening up to {max}");
        assert_eq!(t.coarsen, max);
        assert!(got == want, "coarsening up to {max}");
    }
    d.set_read_only_loads(false);
    let (got, t) = on_gpu(&d, &r, &[n as u64], &[128], None);
    d.set_read_only_loads(true);
    assert_eq!(t.nc_params, 0);
    assert!(got == want, "without ld.global.nc");
}

/// The bench reduction with generic pointers: ptxas gives it a few registers more than fit
/// 8 blocks of 256 threads, so register tuning runs it capped (32 on sm_90).
#[test]
fn register_capped_launches_match_uncapped_and_the_cpu() {
    let groups = 512;
    let r = Run {
        src: include_str!("../../../bench/reduce_generic.cl"),
        kernel: "reduce",
        buffers: vec![
            u32s(groups * 256 * 16, |i| i as u32 ^ 0x5a5a),
            vec![0u8; groups * 8],
        ],
        args: vec![
            A::Buf(0),
            A::Buf(1),
            A::Local(256 * 8),
            A::Val(16u32.to_le_bytes().to_vec()),
        ],
    };
    let global = [groups as u64 * 256];
    let want = on_cpu(&r, &global, &[256], None);
    let Some(d) = device() else { return };
    let (got, t) = on_gpu(&d, &r, &global, &[256], None);
    eprintln!("register cap of the tuned launch: {}", t.reg_cap);
    assert!(
        t.reg_cap == 0 || (t.reg_cap >= 24 && t.reg_cap % 8 == 0),
        "{t:?}"
    );
    assert!(got == want, "capped at {}", t.reg_cap);
    d.set_register_tuning(false);
    let (got, t) = on_gpu(&d, &r, &global, &[256], None);
    d.set_register_tuning(true);
    assert_eq!(t.reg_cap, 0);
    assert!(got == want, "uncapped");
}

#[test]
fn a_buffer_passed_twice_is_not_read_only() {
    let n = 4096;
    let r = Run {
        src: SAXPY,
        kernel: "saxpy",
        buffers: vec![f32s(n, |i| i as f32)],
        args: vec![A::Buf(0), A::Buf(0), A::Val(2.0f32.to_le_bytes().to_vec())],
    };
    let want = on_cpu(&r, &[n as u64], &[64], None);
    let Some(d) = device() else { return };
    d.set_coarsening(4, 0);
    let (got, t) = on_gpu(&d, &r, &[n as u64], &[64], None);
    assert_eq!(t.nc_params, 0);
    assert!(got == want);
}

/// Early returns, a loop and a helper that reads the work-group: each coarsened repetition
/// must see its own work-group.
const BODY: &str = "uint scale(uint x) { return x * (get_group_id(0) + 1); }\n\
    kernel void body(global uint *out, global const uint *in, uint n) {\n\
        size_t i = get_global_id(0);\n\
        if (i >= n) return;\n\
        uint s = 0;\n\
        for (uint j = 0; j < (in[i] & 7); j++) s += scale(j + in[i]);\n\
        if (s & 1) return;\n\
        out[i] = s + get_enqueued_local_size(0) * get_num_groups(0);\n\
    }\n";

#[test]
fn coarsened_launches_match_uncoarsened_and_the_cpu() {
    let d = device();
    for (global, local, n) in [
        (8192u64, 64u64, 8000u32),
        (1030, 32, 1030),
        (4096, 256, 4096),
    ] {
        let r = Run {
            src: BODY,
            kernel: "body",
            buffers: vec![
                u32s(global as usize, |_| 0x5555_5555),
                u32s(global as usize, |i| {
                    (i as u32).wrapping_mul(2_654_435_761) >> 7
                }),
            ],
            args: vec![A::Buf(0), A::Buf(1), A::Val(n.to_le_bytes().to_vec())],
        };
        let want = on_cpu(&r, &[global], &[local], Some(&[0]));
        let Some(d) = &d else { continue };
        for max in [1, 2, 4, 8] {
            d.set_coarsening(max, 0);
            let (got, t) = on_gpu(d, &r, &[global], &[local], Some(&[0]));
            assert!(t.coarsen <= max, "{t:?}");
            if max > 1 {
                assert!(t.coarsen > 1, "{global}/{local} up to {max}: {t:?}");
            }
            assert!(got == want, "{global}/{local}, coarsening up to {max}");
        }
    }
}

#[test]
fn kernels_with_barriers_are_never_coarsened() {
    let Some(d) = device() else { return };
    let src = "kernel void rev(global uint *a, local uint *t) {\n\
            size_t l = get_local_id(0), n = get_local_size(0);\n\
            t[l] = a[get_global_id(0)];\n\
            barrier(CLK_LOCAL_MEM_FENCE);\n\
            a[get_global_id(0)] = t[n - 1 - l];\n\
        }\n";
    let (m, sm) = common::module(src);
    let prog = d.load(&m, Some(&sm), false).expect("load");
    let n = 4096;
    let a = d.buffer_from_bytes(&u32s(n, |i| i as u32)).expect("buffer");
    d.set_coarsening(4, 0);
    let t = d
        .launch(
            &prog,
            "rev",
            &[cuda::Arg::Buffer(a.clone()), cuda::Arg::Local(256)],
            &cuda::NdRange::new(&[n as u64]).local(&[64]),
        )
        .expect("launch");
    assert_eq!(t.coarsen, 1);
    let want = u32s(n, |i| (i / 64 * 64 + 63 - i % 64) as u32);
    assert!(a.read().expect("read") == want);
}

#[test]
fn reqd_work_group_size_allows_the_smaller_last_group() {
    let src = "__attribute__((reqd_work_group_size(8, 1, 1)))\n\
        kernel void k(global uint *o) {\n\
            size_t i = get_global_id(0);\n\
            o[i] = get_local_size(0) * 100 + get_group_id(0) * 10 + get_local_id(0);\n\
        }\n";
    let r = Run {
        src,
        kernel: "k",
        buffers: vec![u32s(20, |_| 7)],
        args: vec![A::Buf(0)],
    };
    let want = on_cpu(&r, &[20], &[8], None);
    let Some(d) = device() else { return };
    let (got, t) = on_gpu(&d, &r, &[20], &[8], None);
    assert_eq!(t.launches, 2);
    assert!(got == want);
}
