//! Runs kernel `k` of a source once on the cpu device, one work-item, one buffer per
//! parameter, and returns the buffers. Included by path from the oclc crate's tests.

#![allow(dead_code)]

use oclc::{Device, Element, NdRange, Program};

/// Builds `src`, runs kernel `k` once with `bufs` (one buffer per parameter) and returns the
/// buffers' contents after the launch.
pub fn run_once<T: Element>(src: &str, bufs: &[Vec<T>]) -> Vec<Vec<T>> {
    let p = Program::build(src, "").expect("builds");
    let d = Device::cpu().with_printf_echo(false);
    let buffers: Vec<_> = bufs
        .iter()
        .map(|b| d.buffer_from_slice(b).expect("buffer"))
        .collect();
    let mut k = p.kernel("k").expect("kernel");
    for (i, b) in buffers.iter().enumerate() {
        k.set_arg(i, b).expect("arg");
    }
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    buffers
        .iter()
        .map(|b| b.read::<T>().expect("read"))
        .collect()
}
