//! Kernels lowered from OpenCL C and run on the cpu device, with their results checked.

mod common;
use common::*;

#[test]
fn add_one() {
    let src = "kernel void k(global int *a) { int i = get_global_id(0); a[i] = a[i] + i * 2; }";
    let out = run(src, "k", &[8], None, &[ArgSpec::Buf(bytes_i32(&[1; 8]))]);
    assert_eq!(i32s(&out[0]), vec![1, 3, 5, 7, 9, 11, 13, 15]);
}
