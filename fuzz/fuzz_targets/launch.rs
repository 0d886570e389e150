//! Fuzz target: the library's launch path. The bytes pick a kernel, an ND-range (any values,
//! any number of dimensions), and arguments of any kind and size for any index; building,
//! setting arguments and launching must return `Ok` or `Err`, never panic, abort or allocate
//! what a size asks for before checking it.
//!
//! Run with `cargo +nightly fuzz run launch` from the repository root.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use oclc::{Device, KernelArg, NdRange, Program};

/// Kernels covering buffers, `__local` arguments and variables, barriers, scalars, vectors,
/// generic pointers, printf and atomics.
const SOURCES: &[(&str, &str)] = &[
    ("copy", "kernel void copy(global const int *a, global int *b) { size_t i = get_global_id(0); b[i] = a[i]; }"),
    ("tile", "kernel void tile(global float *x, local float *t, int n) {
        size_t l = get_local_id(0);
        t[l] = x[get_global_id(0) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        x[get_global_id(0) % n] = t[get_local_size(0) - 1 - l];
    }"),
    ("vec", "kernel void vec(global float4 *o, float4 v, uchar c, long k) { o[get_global_id(0)] = v * (float)c + (float)k; }"),
    ("gen", "void put(int *p, int v) { *p = v; }
        kernel void gen(global int *g, local int *l) {
        size_t i = get_local_id(0);
        put(&l[i], (int)i); put(&g[get_global_id(0)], to_local(&l[i]) ? 1 : 2);
    }"),
    ("misc", "kernel void misc(global uint *c, global int *o) {
        atomic_inc(c);
        local int s[4];
        s[get_local_id(0) % 4] = 1;
        if (get_global_id(0) == 0) printf(\"%d %v2f\\n\", o[0], (float2)(1.0f, 2.0f));
        o[get_global_id(1)] = get_group_id(2);
    }"),
];

fn programs() -> &'static [Program] {
    static P: OnceLock<Vec<Program>> = OnceLock::new();
    P.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(_, src)| {
                Program::build(src, "-cl-std=CL2.0")
                    .unwrap_or_else(|e| panic!("the fuzz kernels must build: {e}"))
            })
            .collect()
    })
}

/// Reads fuzz bytes as small choices and sizes; zeros once exhausted.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A size: mostly small, sometimes one of the edges where arithmetic overflows.
    fn size(&mut self) -> u64 {
        const EDGES: [u64; 10] = [
            0,
            1,
            3,
            1 << 31,
            1 << 32,
            (1 << 32) + 1,
            1 << 40,
            1 << 63,
            u64::MAX / 2,
            u64::MAX,
        ];
        match self.byte() % 4 {
            0 => EDGES[usize::from(self.byte()) % EDGES.len()],
            1 => u64::from(self.byte()) << (self.byte() % 64),
            _ => u64::from(self.byte() % 65),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let which = usize::from(b.byte()) % SOURCES.len();
    let Ok(mut kernel) = programs()[which].kernel(SOURCES[which].0) else { return };
    // A legitimate buffer may take what CL_DEVICE_MAX_MEM_ALLOC_SIZE allows: kept below the
    // fuzzer's memory limit, so that every larger size must be refused before allocating.
    let device = Device::cpu()
        .with_threads(1)
        .with_max_steps(10_000)
        .with_printf_echo(false)
        .with_max_alloc_size(64 << 20);
    let mut buffers = Vec::new();
    for _ in 0..b.byte() % 6 {
        let index = usize::from(b.byte() % 5);
        let arg: KernelArg = match b.byte() % 7 {
            0 => match device.buffer::<i32>(b.size().min(usize::MAX as u64) as usize) {
                Ok(buf) => {
                    buffers.push(buf.clone());
                    buf.into()
                }
                Err(_) => continue,
            },
            1 => match device.buffer::<u8>(b.size().min(usize::MAX as u64) as usize) {
                Ok(buf) => buf.into(),
                Err(_) => continue,
            },
            2 => KernelArg::local::<f32>(b.size().min(usize::MAX as u64) as usize),
            3 => (b.byte() as i32).into(),
            4 => [1.0f32, 2.0, 3.0, f32::from(b.byte())].into(),
            5 => (b.size() as i64).into(),
            _ => KernelArg::Value((0..b.byte() % 40).map(|_| 0xa5).collect()),
        };
        let _ = kernel.set_arg(index, arg);
    }
    let dims = 1 + usize::from(b.byte() % 4);
    let global: Vec<u64> = (0..dims).map(|_| b.size()).collect();
    let mut range = NdRange::new(&global);
    if b.byte() % 2 == 1 {
        let local: Vec<u64> = (0..dims).map(|_| b.size()).collect();
        range = range.local(&local);
    }
    if b.byte() % 4 == 1 {
        let offset: Vec<u64> = (0..dims).map(|_| b.size()).collect();
        range = range.offset(&offset);
    }
    // Ranges that are valid but huge would only run long (the step limit bounds each
    // work-item, not their number): launch those whose work-item count overflows or is small.
    let items = global.iter().try_fold(1u64, |acc, &g| acc.checked_mul(g));
    if items.is_some_and(|n| n > 1 << 14) {
        return;
    }
    let _ = device.launch(&kernel, &range);
    for buf in &buffers {
        let _ = buf.read::<i32>();
    }
});
