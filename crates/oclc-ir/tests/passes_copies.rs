//! Byte-copy loops widened to 16-byte accesses (`passes::copies`, the cuda device's pipeline):
//! the seed article's copy loop and `b[to + i] = a[from + i]` are widened, other loops are
//! not, and the widened module computes, on the cpu device, exactly the bytes of a
//! byte-by-byte forward copy for every start, length, alignment and overlap tried
//! (overlapping copies forward and backward, misaligned ends, lengths around 16). Widened for
//! `--checks`, a copy that leaves its buffer reports the fault the byte loop reports.

mod passes_util;

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::passes::copies::Widening;
use oclc_ir::passes::inline::InlineBudget;
use oclc_ir::passes::{PassOptions, optimize_for_device_opts, run_default};
use oclc_ir::*;

const COPY: &str = r#"
void copy(global uchar *in, global uchar *out, uint from, uint to, uint len)
{
    for (int i = from; i < from + len;)
        out[to++] = in[i++];
}

void copy_local(local uchar *in, global uchar *out, uint from, uint to, uint len)
{
    for (int i = from; i < from + len;)
        out[to++] = in[i++];
}

kernel void k(global uchar *a, global uchar *b, global const uint *p, local uchar *t)
{
    if (p[3] == 1) {
        copy(a, a, p[0], p[1], p[2]);
    } else if (p[3] == 2) {
        for (uint i = 0; i < 128; i++)
            t[i] = a[i];
        copy_local(t, b, p[0], p[1], p[2]);
    } else if (p[3] == 3) {
        uint from = p[0], to = p[1], len = p[2];
        for (uint i = 0; i < len; i++)
            b[to + i] = a[from + i];
    } else {
        copy(a, b, p[0], p[1], p[2]);
    }
}
"#;

/// The module as the cuda device prepares it, widened as `wide` says.
fn prepared(src: &str, wide: Widening) -> Module {
    let (mut m, _) = passes_util::compile("k.cl", src);
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    optimize_for_device_opts(&mut m, &InlineBudget::from_setting(None), wide);
    if let Err(e) = verify_module(&m) {
        panic!("{e:?}\n{}", print_module(&m, None));
    }
    m
}

/// Loads of four 32-bit lanes: the widened copies.
fn wide_loads(m: &Module) -> usize {
    m.functions
        .iter()
        .flat_map(|f| {
            f.blocks.iter().flat_map(move |b| {
                b.insts.iter().filter(move |i| {
                    let d = &f.insts[i.index()];
                    matches!(d.op, Op::Load(_))
                        && d.result.and_then(|r| f.value_type(r)) == Some(Type::vec(Scalar::I32, 4))
                })
            })
        })
        .count()
}

fn pattern(seed: u8) -> Vec<u8> {
    (0..128u32)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed))
        .collect()
}

/// A byte-by-byte forward copy, as the loop's C semantics give it.
fn expected(mode: u32, from: usize, to: usize, len: usize) -> (Vec<u8>, Vec<u8>) {
    let (mut a, mut b) = (pattern(1), pattern(101));
    for k in 0..len {
        if mode == 1 {
            a[to + k] = a[from + k];
        } else {
            b[to + k] = a[from + k];
        }
    }
    (a, b)
}

#[test]
fn the_seed_copy_loop_is_widened_and_others_are_not() {
    assert_eq!(wide_loads(&prepared(COPY, Widening::Off)), 0);
    // Both copy loops (global and local source) in all three calls, and the indexed loop.
    assert!(wide_loads(&prepared(COPY, Widening::Plain)) >= 4);
    let checked = prepared(COPY, Widening::Checked);
    assert!(wide_loads(&checked) >= 4);
    let guards = checked
        .functions
        .iter()
        .flat_map(|f| &f.insts)
        .filter(|d| matches!(d.op, Op::InBounds { .. }))
        .count();
    assert!(guards >= 8, "two ranges per widened loop: {guards}");
    // Not a byte copy: int elements, a loop that also adds, a loop that stores twice.
    let others = r#"
kernel void k(global int *a, global int *b, global uchar *c, global uchar *d, uint n)
{
    for (uint i = 0; i < n; i++) b[i] = a[i];
    for (uint i = 0; i < n; i++) d[i] = c[i] + 1;
    for (uint i = 0; i < n; i++) { d[i] = c[i]; c[i] = 0; }
}
"#;
    assert_eq!(wide_loads(&prepared(others, Widening::Plain)), 0);
}

#[test]
fn widened_copies_give_the_byte_loop_bytes() {
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let wide = dev.load(prepared(COPY, Widening::Plain)).expect("loads");
    let checked = dev.load(prepared(COPY, Widening::Checked)).expect("loads");
    let plain = dev.load(prepared(COPY, Widening::Off)).expect("loads");
    let starts = [0usize, 1, 3, 15, 16, 17, 32, 48];
    let lens = [0usize, 1, 15, 16, 17, 31, 32, 33, 47, 64];
    let mut cases = 0;
    for mode in [0u32, 1, 2, 3] {
        for &from in &starts {
            for &to in &starts {
                for &len in &lens {
                    if from + len > 128 || to + len > 128 {
                        continue;
                    }
                    let want = expected(mode, from, to, len);
                    for prog in [&wide, &checked, &plain] {
                        let got = run_sized(&dev, prog, mode, (from, to, len), (128, 128));
                        assert_eq!(
                            got.as_ref(),
                            Ok(&want),
                            "mode {mode} from {from} to {to} len {len}"
                        );
                    }
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 400, "{cases}");
}

/// Runs mode `mode` of [`COPY`] on `prog` with buffers of `na` and `nb` bytes: the bytes of
/// both, or the fault's text.
fn run_sized(
    dev: &Device,
    prog: &oclc_cpu::Program,
    mode: u32,
    (from, to, len): (usize, usize, usize),
    (na, nb): (usize, usize),
) -> Result<(Vec<u8>, Vec<u8>), String> {
    let a = Buffer::from_bytes(&pattern(1)[..na]);
    let b = Buffer::from_bytes(&pattern(101)[..nb]);
    let p: Vec<u8> = [from as u32, to as u32, len as u32, mode]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let args = vec![
        Arg::Buffer(a.clone()),
        Arg::Buffer(b.clone()),
        Arg::Buffer(Buffer::from_bytes(&p)),
        Arg::Local(128),
    ];
    dev.launch(prog, "k", &args, &NdRange::new(&[1]).local(&[1]))
        .map(|_| (a.read(), b.read()))
        .map_err(|e| e.to_string())
}

#[test]
fn copies_widened_for_checks_report_the_byte_loops_fault() {
    // Native code (`Op::InBounds` in line) and the interpreter.
    for interp in [false, true] {
        let dev = Device::cpu()
            .with_threads(1)
            .with_printf_echo(false)
            .with_interpreter(interp);
        widened_faults_on(&dev);
    }
}

fn widened_faults_on(dev: &Device) {
    let checked = dev.load(prepared(COPY, Widening::Checked)).expect("loads");
    let plain = dev.load(prepared(COPY, Widening::Off)).expect("loads");
    let mut faults = 0;
    // Buffers of 96 and 112 bytes (a 16-byte multiple and not): copies that end inside,
    // at the end and past it, reading or writing out of bounds, from aligned and unaligned
    // starts.
    for (na, nb) in [(96usize, 112usize), (128, 100), (100, 128)] {
        for mode in [0u32, 1, 3] {
            for (from, to) in [(0usize, 0usize), (16, 32), (32, 16), (3, 19), (48, 0)] {
                for len in [16usize, 47, 48, 64, 80, 96, 112] {
                    let want = run_sized(dev, &plain, mode, (from, to, len), (na, nb));
                    let got = run_sized(dev, &checked, mode, (from, to, len), (na, nb));
                    assert_eq!(got, want, "mode {mode} {from}->{to} len {len} in {na}/{nb}");
                    faults += want.is_err() as usize;
                }
            }
        }
    }
    assert!(faults > 30, "{faults}");
}
