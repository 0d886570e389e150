//! The library on the cuda device: `Device::cuda` without the feature or without a GPU is an
//! error, and with a GPU buffers, arguments, launches, read-back, the per-device program cache,
//! kernel times and device errors behave as on the cpu device. GPU tests skip, saying why,
//! when no driver or GPU is present.

use oclc::{Device, Error};

#[cfg(not(feature = "cuda"))]
#[test]
fn without_the_feature_cuda_is_unavailable() {
    match Device::cuda(0) {
        Err(Error::DeviceUnavailable(m)) => assert_eq!(
            m,
            "cuda device 0: oclc was built without CUDA support; rebuild with --features cuda"
        ),
        other => panic!("expected DeviceUnavailable, got {other:?}"),
    }
}

/// GPU 0, or `None` after saying why it cannot be used.
#[cfg(feature = "cuda")]
fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) => {
            assert!(matches!(e, Error::DeviceUnavailable(_)), "{e:?}");
            println!("skipped: no usable GPU ({e})");
            None
        }
    }
}

#[test]
fn a_missing_gpu_is_an_error_naming_the_ordinal() {
    match Device::cuda(4096) {
        Err(Error::DeviceUnavailable(m)) => assert!(m.starts_with("cuda device 4096: "), "{m}"),
        other => panic!("expected DeviceUnavailable, got {other:?}"),
    }
}

#[cfg(feature = "cuda")]
mod gpu {
    use super::gpu;
    use oclc::{Error, KernelArg, NdRange, Program};

    #[test]
    fn vector_add_reads_back_and_rewrites() {
        let Some(d) = gpu() else { return };
        assert!(d.is_cuda());
        assert!(d.name().starts_with("cuda device 0 ("), "{}", d.name());
        let p = Program::build(
            "kernel void add(global const int *a, global const int *b, global int *c) {
                 size_t i = get_global_id(0);
                 c[i] = a[i] + b[i];
             }",
            "",
        )
        .expect("builds");
        let a = d
            .buffer_from_slice(&[1i32, 2, 3, 4, 5, 6, 7, 8])
            .expect("a");
        let b = d.buffer_from_slice(&[10i32; 8]).expect("b");
        let c = d.buffer::<i32>(8).expect("c");
        assert_eq!(c.read::<i32>().expect("zeroed"), vec![0; 8]);
        let mut k = p.kernel("add").expect("kernel");
        k.set_arg(0, &a).expect("a").set_arg(1, &b).expect("b");
        k.set_arg_named("c", &c).expect("c");
        let out = d
            .launch(&k, &NdRange::new(&[8]).local(&[4]))
            .expect("launch");
        assert!(out.kernel_time.is_some());
        assert_eq!(out.printf, "");
        assert_eq!(
            c.read::<i32>().expect("read"),
            vec![11, 12, 13, 14, 15, 16, 17, 18]
        );
        b.write(&[100i32, 200]).expect("write");
        d.launch(&k, &NdRange::new(&[8])).expect("launch again");
        assert_eq!(
            c.read::<i32>().expect("read"),
            vec![101, 202, 13, 14, 15, 16, 17, 18]
        );
        assert_eq!(c.len(), 32);
    }

    #[test]
    fn program_globals_persist_because_the_module_is_cached() {
        let Some(d) = gpu() else { return };
        let p = Program::build(
            "global int counter = 5;
             kernel void bump(global int *out) { counter += 1; out[0] = counter; }",
            "-cl-std=CL2.0",
        )
        .expect("builds");
        let out = d.buffer::<i32>(1).expect("out");
        let mut k = p.kernel("bump").expect("kernel");
        k.set_arg(0, &out).expect("arg");
        d.prepare(&p).expect("prepare");
        for want in 6..9 {
            d.launch(&k, &NdRange::new(&[1])).expect("launch");
            assert_eq!(out.read::<i32>().expect("read"), vec![want]);
        }
    }

    #[test]
    fn local_memory_vectors_and_values() {
        let Some(d) = gpu() else { return };
        let p = Program::build(
            "kernel void rev(global const float4 *in, global float4 *out, local float4 *tmp,
                             float4 scale) {
                 size_t l = get_local_id(0), n = get_local_size(0);
                 tmp[l] = in[get_global_id(0)];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = tmp[n - 1 - l] * scale;
             }",
            "",
        )
        .expect("builds");
        let input: Vec<f32> = (0..32).map(|i| i as f32).collect();
        let a = d.buffer_from_slice(&input).expect("in");
        let b = d.buffer::<f32>(32).expect("out");
        let mut k = p.kernel("rev").expect("kernel");
        k.set_arg(0, &a).expect("in").set_arg(1, &b).expect("out");
        k.set_arg(2, KernelArg::local::<f32>(4 * 4)).expect("tmp");
        k.set_arg(3, [1.0f32, 2.0, 3.0, 4.0]).expect("scale");
        d.launch(&k, &NdRange::new(&[8]).local(&[4]))
            .expect("launch");
        let got = b.read::<f32>().expect("read");
        let scale = [1.0f32, 2.0, 3.0, 4.0];
        let want: Vec<f32> = (0..32)
            .map(|i| {
                let (v, lane) = (i / 4, i % 4);
                let src = (v / 4) * 4 + (3 - v % 4);
                (src * 4 + lane) as f32 * scale[lane]
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn buffers_of_another_device_are_refused() {
        let Some(d) = gpu() else { return };
        let p = Program::build("kernel void k(global int *o) { o[0] = 1; }", "").expect("builds");
        let cpu = oclc::Device::cpu();
        let host = cpu.buffer::<i32>(1).expect("cpu buffer");
        let mut k = p.kernel("k").expect("kernel");
        k.set_arg(0, &host).expect("arg");
        let e = d.launch(&k, &NdRange::new(&[1])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "argument 0 ('o', __global int *): the buffer belongs to the cpu device, not to cuda device 0"
        );
        let dev = d.buffer::<i32>(1).expect("gpu buffer");
        k.set_arg(0, &dev).expect("arg");
        let e = cpu.launch(&k, &NdRange::new(&[1])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "argument 0 ('o', __global int *): the buffer belongs to cuda device 0, not to the cpu device"
        );
    }

    #[test]
    fn code_the_gpu_cannot_run_is_a_device_compile_error() {
        let Some(d) = gpu() else { return };
        // printf with a format chosen at run time: the GPU's records name their format by
        // an id fixed when the kernel is compiled.
        let p = Program::build(
            "kernel void k(global int *o) { printf(o[0] ? \"a%d\" : \"b%d\", o[0]); }",
            "",
        )
        .expect("builds");
        let o = d.buffer::<i32>(1).expect("o");
        let mut k = p.kernel("k").expect("kernel");
        k.set_arg(0, &o).expect("arg");
        match d.launch(&k, &NdRange::new(&[1])) {
            Err(Error::DeviceCompile { message, .. }) => {
                assert!(message.contains("printf"), "{message}")
            }
            other => panic!("expected DeviceCompile, got {other:?}"),
        }
        let e = d.launch(&k, &NdRange::new(&[4]).local(&[2])).unwrap_err();
        assert!(matches!(e, Error::DeviceCompile { .. }), "{e:?}");
    }

    #[test]
    fn printf_output_comes_back_as_on_the_cpu_device() {
        let Some(d) = gpu() else { return };
        let d = d.with_printf_echo(false);
        let src = "kernel void k(global int *o) {\n\
            int g = get_global_id(0);\n\
            o[g] = printf(\"%d: %v2d %s\\n\", g, (int2)(g, -g), \"ok\");\n\
        }";
        let p = Program::build(src, "").expect("builds");
        let run = |dev: &oclc::Device| {
            let o = dev.buffer::<i32>(8).expect("o");
            let mut k = p.kernel("k").expect("kernel");
            k.set_arg(0, &o).expect("arg");
            let out = dev
                .launch(&k, &NdRange::new(&[8]).local(&[4]))
                .expect("launch");
            (out.printf, out.printf_truncated)
        };
        let cpu = oclc::Device::cpu().with_printf_echo(false);
        let want = run(&cpu);
        assert!(want.0.starts_with("0: 0,0 ok\n1: 1,-1 ok\n"), "{}", want.0);
        assert_eq!(run(&d), want);
    }

    #[test]
    fn bad_ranges_are_launch_errors() {
        let Some(d) = gpu() else { return };
        let p = Program::build("kernel void k(global int *o) { o[0] = 1; }", "").expect("builds");
        let o = d.buffer::<i32>(1).expect("o");
        let mut k = p.kernel("k").expect("kernel");
        k.set_arg(0, &o).expect("arg");
        let e = d.launch(&k, &NdRange::new(&[10]).local(&[4])).unwrap_err();
        assert!(matches!(e, Error::Launch(_)), "{e:?}");
        assert!(e.to_string().contains("not a multiple"), "{e}");
    }
}
