//! A kernel fault is an error naming the kernel, and the device goes on: the poisoned
//! context is reset, what was made before the fault is reported gone, and the same program
//! runs again (own test binary, one test: a reset destroys the process's whole context).
#![cfg(feature = "cuda")]

mod common;
use oclc_ptx::cuda::{Arg, CudaDevice, CudaError, NdRange};

fn index(i: u64) -> Arg {
    Arg::Bytes(i.to_le_bytes().to_vec())
}

fn int_at(bytes: &[u8], i: usize) -> i32 {
    i32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap())
}

#[test]
fn a_fault_is_reported_and_the_device_goes_on() {
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
    assert_eq!(int_at(&a.read().expect("read"), 1), 7);
    for round in 0..2 {
        let r = d.launch(&p, "k", &[Arg::Buffer(a.clone()), index(1 << 40)], &one);
        match r {
            Err(CudaError::Fault { kernel, message }) => {
                assert_eq!(kernel, "k");
                assert!(message.contains("context was reset"), "{message}");
                assert!(message.contains("--device cpu"), "{message}");
            }
            other => panic!("round {round}: expected a fault, got {other:?}"),
        }
        // What was made before the fault is gone: an error, never a crash.
        assert!(matches!(a.read(), Err(CudaError::Lost(_))), "round {round}");
        let stale = d.launch(&p, "k", &[Arg::Buffer(a.clone()), index(0)], &one);
        assert!(matches!(stale, Err(CudaError::Lost(_))), "{stale:?}");
        // The device and the program go on.
        let b = d.zeroed(16).expect("buffer after the reset");
        d.launch(&p, "k", &[Arg::Buffer(b.clone()), index(2)], &one)
            .expect("launch after the reset");
        let got = b.read().expect("read after the reset");
        assert_eq!((int_at(&got, 2), int_at(&got, 0)), (7, 0), "round {round}");
    }
}
