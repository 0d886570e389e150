//! `--checks` on the cuda device: each fault is reported exactly as the cpu device reports
//! it (message, line, work-item, notes), the GPU stays usable after it, and checked kernels
//! that do not fault compute what unchecked ones do. Skips, saying why, without a GPU.
#![cfg(feature = "cuda")]

use oclc::{Device, Error, KernelArg, NdRange, Program, RuntimeFault};

/// A kernel argument, made on each device.
#[derive(Clone, Copy)]
enum A {
    /// A zeroed `int` buffer of this many elements.
    Ints(usize),
    /// A `__local` argument of this many bytes.
    Local(usize),
    Int(i32),
}

fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d.with_checks(true).with_printf_echo(false)),
        Err(e) => {
            println!("skipped: no usable GPU ({e})");
            None
        }
    }
}

/// Runs `kernel` of `src` on `d`; the fault it ends with, or the first buffer's contents.
fn run(d: &Device, src: &str, args: &[A], range: &NdRange) -> Result<Vec<i32>, Box<RuntimeFault>> {
    let p = Program::build(src, "-cl-std=CL2.0").expect("builds");
    let mut k = p.kernel("k").expect("kernel k");
    let mut bufs = Vec::new();
    for a in args {
        if let A::Ints(n) = a {
            bufs.push(d.buffer::<i32>(*n).expect("buffer"));
        }
    }
    let mut b = 0;
    for (i, a) in args.iter().enumerate() {
        match a {
            A::Ints(_) => {
                k.set_arg(i, &bufs[b]).expect("arg");
                b += 1;
            }
            A::Local(n) => {
                k.set_arg(i, KernelArg::Local(*n)).expect("arg");
            }
            A::Int(v) => {
                k.set_arg(i, *v).expect("arg");
            }
        }
    }
    match d.launch(&k, range) {
        Ok(_) => Ok(bufs
            .first()
            .map(|b| b.read::<i32>().expect("read"))
            .unwrap_or_default()),
        Err(Error::Runtime(f)) => Err(f),
        Err(e) => panic!("launch failed otherwise: {e}"),
    }
}

/// The kernel faults on both devices with the same report; else what differs.
fn same_fault(
    gpu: &Device,
    src: &str,
    args: &[A],
    range: &NdRange,
    expect: &str,
) -> Result<(), String> {
    let cpu = run(&Device::cpu().with_printf_echo(false), src, args, range)
        .expect_err("faults on the cpu device");
    assert!(cpu.message.contains(expect), "{}", cpu.message);
    let g = match run(gpu, src, args, range) {
        Err(g) => g,
        Ok(_) => {
            return Err(format!(
                "no fault on the GPU; the cpu device says\n{}",
                cpu.rendered
            ));
        }
    };
    // The GPU is still usable.
    let ok = run(
        gpu,
        "kernel void k(global int *a) { a[get_global_id(0)] = 7; }",
        &[A::Ints(4)],
        &NdRange::new(&[4]),
    )
    .expect("a launch after the fault");
    assert_eq!(ok, vec![7; 4]);
    let same = g.kind == cpu.kind
        && g.message == cpu.message
        && g.location == cpu.location
        && (g.global_id, g.local_id, g.group_id) == (cpu.global_id, cpu.local_id, cpu.group_id)
        && g.rendered == cpu.rendered;
    if same {
        Ok(())
    } else {
        Err(format!("GPU:\n{}\ncpu:\n{}", g.rendered, cpu.rendered))
    }
}

#[test]
fn faults_match_the_cpu_device() {
    let Some(d) = gpu() else { return };
    let r64 = NdRange::new(&[64]).local(&[16]);
    let mut bad = Vec::new();
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) { int i = get_global_id(0); a[i + 1] = i; }",
            &[A::Ints(64)],
            &r64,
            "out-of-bounds write of 4 bytes at offset 256 of __global buffer `a`",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a, global int *b) {
             int i = get_global_id(0);
             if (i > 40) a[i] = b[i * 2];
         }",
            &[A::Ints(64), A::Ints(64)],
            &r64,
            "out-of-bounds read",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             global int *p = get_global_id(0) == 37 ? 0 : a;
             p[get_global_id(0)] = 1;
         }",
            &[A::Ints(64)],
            &r64,
            "write through a NULL pointer",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             local int t[16];
             t[get_local_id(0) + (get_group_id(0) == 2)] = 1;
             barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = t[0];
         }",
            &[A::Ints(64)],
            &r64,
            "of __local variable `t`",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a, local int *l) {
             l[get_local_id(0) * 2] = 1;
             a[get_global_id(0)] = 0;
         }",
            &[A::Ints(64), A::Local(64)],
            &r64,
            "of __local argument `l`",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a, int n) {
             int p[4];
             for (int j = 0; j < 4; j++) p[j] = j;
             a[get_global_id(0)] = p[(get_global_id(0) + n) % 8];
         }",
            &[A::Ints(64), A::Int(3)],
            &r64,
            "of __private variable `p`",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             generic int *g = a + get_global_id(0);
             if (get_global_id(0) == 21) { local int *l = (local int *)g; *l = 1; }
         }",
            &[A::Ints(64)],
            &r64,
            "cast from generic to `__local`, but it points into __global memory",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             if (get_local_id(0) < 8) barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = 1;
         }",
            &[A::Ints(64)],
            &r64,
            "barrier divergence",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             if (get_local_id(0) == 5) return;
             barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = 1;
         }",
            &[A::Ints(64)],
            &r64,
            "finished without reaching the barrier",
        )
        .err(),
    );
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
             if (get_local_id(0) % 2) barrier(CLK_LOCAL_MEM_FENCE);
             else barrier(CLK_GLOBAL_MEM_FENCE);
             a[get_global_id(0)] = 1;
         }",
            &[A::Ints(64)],
            &r64,
            "reached a different barrier",
        )
        .err(),
    );
    // Several accesses at constant offsets from one pointer: the report names the first that
    // faults (the third read of work-item 12, the second of work-item 0, the third write of
    // work-item 2).
    for (body, expect) in [
        (
            "local int t[16];
             local int *p = t + get_local_id(0);
             p[0] = 1;
             barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = p[0] + p[2] + p[4];",
            "out-of-bounds read of 4 bytes at offset 64 of __local variable `t`",
        ),
        (
            "local int t[16];
             local int *p = t + get_local_id(0);
             p[0] = 1;
             barrier(CLK_LOCAL_MEM_FENCE);
             a[get_global_id(0)] = p[1] + p[-1];",
            "of __local variable `t`",
        ),
        (
            "int q[4];
             int *r = q + (get_global_id(0) % 3);
             r[0] = 1; r[1] = 2; r[2] = 3;
             a[get_global_id(0)] = q[0];",
            "of __private variable `q`",
        ),
    ] {
        bad.extend(
            same_fault(
                &d,
                &format!("kernel void k(global int *a) {{ {body} }}"),
                &[A::Ints(64)],
                &r64,
                expect,
            )
            .err(),
        );
    }
    // The seed article's byte copy, widened to 16-byte copies where both ranges pass the
    // checks: a chunk past the end (aligned: the guard sends it to the byte loop) reports its
    // first byte, read or written, as the cpu device does; from a `__local` copy too.
    let copy = "void cp(global uchar *in, global uchar *out, uint from, uint to, uint len) {
             for (int i = from; i < from + len;) out[to++] = in[i++];
         }
         void cpl(local uchar *in, global uchar *out, uint from, uint to, uint len) {
             for (int i = from; i < from + len;) out[to++] = in[i++];
         }";
    for (body, expect) in [
        (
            "uint g = get_global_id(0);
             cp((global uchar *)a, (global uchar *)b, g * 16, g * 16 + (g == 63) * 16, 16);",
            "out-of-bounds write of 1 byte at offset 1024 of __global buffer `b`",
        ),
        (
            "uint g = get_global_id(0);
             cp((global uchar *)a, (global uchar *)b, g * 16 + (g == 40) * 640, g * 16, 16);",
            "out-of-bounds read of 1 byte at offset 1280 of __global buffer `a`",
        ),
        (
            "uint g = get_global_id(0), l = get_local_id(0);
             for (uint i = 0; i < 16; i++) t[l * 16 + i] = ((global uchar *)a)[g * 16 + i];
             barrier(CLK_LOCAL_MEM_FENCE);
             cpl(t, (global uchar *)b, l * 16, g * 16 + (g == 50) * 224, 16);",
            "out-of-bounds write of 1 byte at offset 1024 of __global buffer `b`",
        ),
    ] {
        bad.extend(
            same_fault(
                &d,
                &format!(
                    "{copy}\nkernel void k(global int *a, global int *b) {{
                         local uchar t[256];
                         {body}
                     }}"
                ),
                &[A::Ints(256), A::Ints(256)],
                &r64,
                expect,
            )
            .err(),
        );
    }
    // A large range: launch variants (coarsened blocks) run it.
    bad.extend(
        same_fault(
            &d,
            "kernel void k(global int *a) {
                 int i = get_global_id(0);
                 a[i == 777777 ? i * 2 : i] = 1;
             }",
            &[A::Ints(1 << 20)],
            &NdRange::new(&[1 << 20]).local(&[64]),
            "out-of-bounds write of 4 bytes at offset 6222216",
        )
        .err(),
    );
    assert!(bad.is_empty(), "{}", bad.join("\n---\n"));
}

#[test]
fn checked_kernels_compute_what_unchecked_ones_do() {
    let Some(d) = gpu() else { return };
    let plain = Device::cuda(0).expect("gpu").with_printf_echo(false);
    let src = "kernel void k(global int *a, local int *t, int n) {
         int l = get_local_id(0), g = get_global_id(0);
         int p[8];
         for (int j = 0; j < 8; j++) p[j] = g * j;
         t[l] = p[g % 8];
         barrier(CLK_LOCAL_MEM_FENCE);
         int s = 0;
         for (int j = 0; j < get_local_size(0); j++) s += t[j];
         generic int *q = &a[g];
         if (g < n) *q = s + (int)(to_global(q) != 0);
     }";
    let args = [A::Ints(100), A::Local(32 * 4), A::Int(100)];
    // A non-uniform range: two launch regions.
    let r = NdRange::new(&[100]).local(&[32]);
    let want = run(&plain, src, &args, &r).expect("unchecked");
    assert_eq!(run(&d, src, &args, &r).expect("checked"), want);
    let cpu = run(&Device::cpu(), src, &args, &r).expect("cpu");
    assert_eq!(cpu, want);
}
