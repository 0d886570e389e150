//! A kernel fault is an error naming the kernel, and the process goes on: CUDA keeps such a
//! fault for the rest of the process (no context of the GPU can be made again), so every
//! later use of the GPU is a clear error, never the driver's or a crash (own test binary: a
//! fault poisons the CUDA context of the whole process).
#![cfg(feature = "cuda")]

mod common;
use oclc_ptx::cuda::{Arg, CudaDevice, CudaError, NdRange};

fn index(i: u64) -> Arg {
    Arg::Bytes(i.to_le_bytes().to_vec())
}

#[test]
fn a_fault_is_reported_and_later_gpu_work_is_a_clear_error() {
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let (m, sm) = common::module("kernel void k(global int *a, ulong i) { a[i] = 7; }");
    let p = d.load(&m, Some(&sm), false).expect("load");
    let one = NdRange::new(&[1]);
    let a = d.zeroed(16).expect("buffer");
    d.launch(&p, "k", &[Arg::Buffer(a.clone()), index(1)], &one)
        .expect("in-bounds launch");
    assert_eq!(a.read().expect("read")[4..8], 7i32.to_le_bytes());
    match d.launch(&p, "k", &[Arg::Buffer(a.clone()), index(1 << 40)], &one) {
        Err(CudaError::Fault { kernel, message }) => {
            assert_eq!(kernel, "k");
            assert!(message.contains("unusable in this process"), "{message}");
            assert!(message.contains("--checks"), "{message}");
        }
        other => panic!("expected a fault, got {other:?}"),
    }
    let unusable = |r: Result<(), CudaError>| match r {
        Err(CudaError::Unusable(k)) => assert_eq!(k, "k"),
        other => panic!("expected the GPU to be reported unusable, got {other:?}"),
    };
    unusable(a.read().map(drop));
    unusable(d.zeroed(16).map(drop));
    unusable(
        d.launch(&p, "k", &[Arg::Buffer(a.clone()), index(0)], &one)
            .map(drop),
    );
    unusable(d.load(&m, Some(&sm), false).map(drop));
    // Dropping what was made before the fault is quiet.
    drop((a, p));
}
