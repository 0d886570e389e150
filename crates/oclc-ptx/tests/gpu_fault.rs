//! A kernel fault is an error, and the process goes on (own test binary: a fault poisons the
//! CUDA context of the whole process).
#![cfg(feature = "cuda")]

mod common;
use oclc_ptx::cuda::{Arg, CudaDevice, CudaError, NdRange};

#[test]
fn illegal_address_is_reported() {
    let d = match CudaDevice::new(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
    };
    let (m, sm) = common::module("kernel void k(global int *a) { a[(size_t)1 << 40] = 1; }");
    let p = d.load(&m, Some(&sm), false).expect("load");
    let a = d.zeroed(4).expect("buffer");
    let r = d.launch(&p, "k", &[Arg::Buffer(a)], &NdRange::new(&[1]));
    match r {
        Err(CudaError::Fault { message, .. }) => assert!(!message.is_empty()),
        other => panic!("expected a fault, got {other:?}"),
    }
}
