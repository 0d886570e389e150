//! Jump threading of short-circuit joins (`fold::thread_jumps`, run by the device pipeline):
//! `||`/`&&` chains test each operand once (no 0/1 join value rebuilt and tested per step),
//! and give the values computed here on the cpu device.

mod passes_util;

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::passes::{PassOptions, optimize_for_device, run_default};
use oclc_ir::*;

const SRC: &str = "
kernel void k(global int *out, int n)
{
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * 8 + x;
    int r = 0;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
        r += 1;
    if (x > 2 && y < 5 && (x & 1) == 0)
        r += 10;
    if ((x == 3 || y == 3) && (x == 1 || x + y == 7))
        r += 100;
    out[i] = r;
}
";

/// The expected `out` over an 8x8 grid with `n` = 8.
fn expected() -> Vec<i32> {
    let n = 8;
    let mut v = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            let mut r = 0;
            if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
                r += 1;
            }
            if x > 2 && y < 5 && (x & 1) == 0 {
                r += 10;
            }
            if (x == 3 || y == 3) && (x == 1 || x + y == 7) {
                r += 100;
            }
            v.push(r);
        }
    }
    v
}

/// Block parameters of type i1 (the short-circuit joins) in the module's functions.
fn bool_params(m: &Module) -> usize {
    m.functions
        .iter()
        .flat_map(|f| {
            f.blocks
                .iter()
                .flat_map(move |b| b.params.iter().map(move |p| f.values[p.index()].ty))
        })
        .filter(|t| *t == Type::Scalar(Scalar::I1))
        .count()
}

#[test]
fn short_circuit_joins_are_threaded_and_keep_their_values() {
    let (mut m, _sm) = passes_util::compile("k.cl", SRC);
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    assert!(
        bool_params(&m) > 0,
        "the front end joins `||` in a block parameter"
    );
    optimize_for_device(&mut m);
    if let Err(e) = verify_module(&m) {
        panic!("{e:?}\n{}", print_module(&m, None));
    }
    assert_eq!(bool_params(&m), 0, "{}", print_module(&m, None));
    let out = Arg::Buffer(Buffer::from_bytes(&[0u8; 64 * 4]));
    let args = vec![out, Arg::Bytes(8i32.to_le_bytes().to_vec())];
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let prog = dev.load(m).expect("load");
    dev.launch(&prog, "k", &args, &NdRange::new(&[8, 8]).local(&[4, 4]))
        .expect("launch");
    let Arg::Buffer(b) = &args[0] else {
        panic!("out is a buffer")
    };
    let got: Vec<i32> = b
        .read()
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, expected());
}
