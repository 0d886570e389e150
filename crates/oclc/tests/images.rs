//! Images and samplers on the cpu device: every addressing mode, both filters, normalized
//! coordinates, the channel types' conversions, writes, queries and the undefined cases the
//! device reports. Expected values are computed by hand from the spec's formulas (8.2, 8.3).

use oclc::{Device, KernelArg, NdRange, Program};
use oclc_cpu::runtime::image::{ImageDesc, dtype, object, order, sampler as smp};

fn device() -> Device {
    Device::cpu().with_printf_echo(false)
}

fn desc(ty: u32, ord: u32, dt: u32, w: u64, h: u64, d: u64, a: u64) -> ImageDesc {
    ImageDesc::packed(ty, ord, dt, w, h, d, a).expect("supported format")
}

fn image(dev: &Device, desc: ImageDesc, bytes: &[u8]) -> KernelArg {
    KernelArg::Image {
        desc,
        data: dev.buffer_from_bytes(bytes).expect("buffer"),
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// `read_imagef(image2d, sampler, (float2)c)` on an image of `ord`/`dt` holding `bytes`.
fn read2d(ord: u32, dt: u32, w: u64, h: u64, bytes: &[u8], s: u32, c: [f32; 2]) -> [f32; 4] {
    let p = Program::build(
        "kernel void k(global float4 *out, read_only image2d_t im, sampler_t s, float2 c) {
             *out = read_imagef(im, s, c);
         }",
        "",
    )
    .expect("builds");
    let d = device();
    let out = d.buffer::<f32>(4).expect("buffer");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &out).expect("out");
    k.set_arg(
        1,
        image(&d, desc(object::IMAGE2D, ord, dt, w, h, 1, 1), bytes),
    )
    .expect("image");
    k.set_arg(2, s).expect("sampler");
    k.set_arg(3, c).expect("coord");
    d.launch(&k, &NdRange::new(&[1])).expect("launch");
    let v = out.read::<f32>().expect("read");
    [v[0], v[1], v[2], v[3]]
}

const NEAREST: u32 = smp::FILTER_NEAREST;
const LINEAR: u32 = smp::FILTER_LINEAR;

#[test]
fn nearest_unnormalized_unorm8_rgba() {
    // 2x2 RGBA8: pixel (x, y) = (10x + 100y, 255, 0, 51).
    let mut px = Vec::new();
    for y in 0..2u8 {
        for x in 0..2u8 {
            px.extend_from_slice(&[10 * x + 100 * y, 255, 0, 51]);
        }
    }
    let s = smp::CLAMP_TO_EDGE | NEAREST;
    let r = read2d(order::RGBA, dtype::UNORM_INT8, 2, 2, &px, s, [1.5, 1.5]);
    assert_eq!(r, [110.0 / 255.0, 1.0, 0.0, 0.2]);
    // Clamp to edge: x = -3 reads column 0, x = 5 column 1.
    let r = read2d(order::RGBA, dtype::UNORM_INT8, 2, 2, &px, s, [-3.0, 0.5]);
    assert_eq!(r[0], 0.0);
    let r = read2d(order::RGBA, dtype::UNORM_INT8, 2, 2, &px, s, [5.0, 1.2]);
    assert_eq!(r[0], 110.0 / 255.0);
}

#[test]
fn clamp_reads_the_border_color() {
    let px = [7u8, 7, 7, 7];
    let s = smp::CLAMP | NEAREST;
    // RGBA has alpha: transparent black; R has none: alpha 1.
    let r = read2d(order::RGBA, dtype::UNORM_INT8, 1, 1, &px, s, [-0.5, 0.5]);
    assert_eq!(r, [0.0, 0.0, 0.0, 0.0]);
    let r = read2d(order::R, dtype::UNORM_INT8, 1, 1, &px[..1], s, [0.5, 1.5]);
    assert_eq!(r, [0.0, 0.0, 0.0, 1.0]);
    let r = read2d(order::R, dtype::UNORM_INT8, 1, 1, &px[..1], s, [0.5, 0.5]);
    assert_eq!(r, [7.0 / 255.0, 0.0, 0.0, 1.0]);
}

#[test]
fn repeat_and_mirrored_repeat_with_normalized_coords() {
    // 4x1 float R image [0, 1, 2, 3].
    let px = f32_bytes(&[0.0, 1.0, 2.0, 3.0]);
    let rep = smp::NORMALIZED | smp::REPEAT | NEAREST;
    let mir = smp::NORMALIZED | smp::MIRRORED_REPEAT | NEAREST;
    let at = |s, x| read2d(order::R, dtype::FLOAT, 4, 1, &px, s, [x, 0.5])[0];
    // repeat: u = (s - floor(s)) * 4; 1.125 -> 0.5 -> 0; -0.125 -> 3.5 -> 3.
    assert_eq!(at(rep, 1.125), 0.0);
    assert_eq!(at(rep, -0.125), 3.0);
    assert_eq!(at(rep, 0.6), 2.0);
    // mirrored: s' = |s - 2 rint(s / 2)|; 1.125 -> 0.875 -> 3; -0.125 -> 0.125 -> 0.
    assert_eq!(at(mir, 1.125), 3.0);
    assert_eq!(at(mir, -0.125), 0.0);
    assert_eq!(at(mir, 1.6), 1.0);
    // Normalized clamp-to-edge: u = s * 4.
    let edge = smp::NORMALIZED | smp::CLAMP_TO_EDGE | NEAREST;
    assert_eq!(at(edge, 0.5), 2.0);
    assert_eq!(at(edge, 7.0), 3.0);
}

#[test]
fn linear_filtering_1d_2d_and_addressing() {
    let px = f32_bytes(&[0.0, 1.0]);
    let edge = smp::CLAMP_TO_EDGE | LINEAR;
    let at = |s, x| read2d(order::R, dtype::FLOAT, 2, 1, &px, s, [x, 0.5]);
    // u - 0.5 = 0.5: half of each neighbour; 0.25: a quarter of pixel 1.
    assert_eq!(at(edge, 1.0)[0], 0.5);
    assert_eq!(at(edge, 0.75)[0], 0.25);
    // Left of the first centre, clamped to the edge: pixel 0 only.
    assert_eq!(at(edge, 0.25)[0], 0.0);
    // CLAMP: the border (0, 0, 0, 1 for R) is the left neighbour: 0.75 * 0 + 0.25 * border.
    assert_eq!(at(smp::CLAMP | LINEAR, 2.0), [0.5, 0.0, 0.0, 1.0]);
    // REPEAT, normalized s = 0: neighbours 1 (wrapped) and 0, half each.
    assert_eq!(at(smp::NORMALIZED | smp::REPEAT | LINEAR, 0.0)[0], 0.5);
    // 2x2 [0 1; 2 3] at the centre: bilinear average 1.5; at (0.75, 1.0): 0.25*1 + 0.5*2.
    let px2 = f32_bytes(&[0.0, 1.0, 2.0, 3.0]);
    let r = read2d(order::R, dtype::FLOAT, 2, 2, &px2, edge, [1.0, 1.0]);
    assert_eq!(r[0], 1.5);
    let r = read2d(order::R, dtype::FLOAT, 2, 2, &px2, edge, [0.75, 1.0]);
    assert_eq!(r[0], 1.25);
}

#[test]
fn channel_types_convert_as_the_spec_says() {
    let s = smp::CLAMP_TO_EDGE | NEAREST;
    let r = read2d(
        order::RGBA,
        dtype::SNORM_INT8,
        1,
        1,
        &[0x80, 0x7f, 64, 0],
        s,
        [0.5, 0.5],
    );
    assert_eq!(r, [-1.0, 1.0, 64.0 / 127.0, 0.0]);
    let px: Vec<u8> = [65535u16, 0, 32768, 1]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let r = read2d(order::RGBA, dtype::UNORM_INT16, 1, 1, &px, s, [0.5, 0.5]);
    assert_eq!(r, [1.0, 0.0, 32768.0 / 65535.0, 1.0 / 65535.0]);
    let px: Vec<u8> = [0x8001u16, 0x8000]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let r = read2d(order::RG, dtype::SNORM_INT16, 1, 1, &px, s, [0.5, 0.5]);
    assert_eq!(r, [-1.0, -1.0, 0.0, 1.0]);
    // Half 1.0 and -2.0; BGRA stores blue first.
    let px: Vec<u8> = [0x3c00u16, 0xc000, 0, 0x3800]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let r = read2d(order::BGRA, dtype::HALF_FLOAT, 1, 1, &px, s, [0.5, 0.5]);
    assert_eq!(r, [0.0, -2.0, 1.0, 0.5]);
    // Intensity replicates, luminance fills alpha with 1, A has only alpha.
    let r = read2d(
        order::INTENSITY,
        dtype::UNORM_INT8,
        1,
        1,
        &[255],
        s,
        [0.5, 0.5],
    );
    assert_eq!(r, [1.0; 4]);
    let r = read2d(
        order::LUMINANCE,
        dtype::UNORM_INT8,
        1,
        1,
        &[0],
        s,
        [0.5, 0.5],
    );
    assert_eq!(r, [0.0, 0.0, 0.0, 1.0]);
    let r = read2d(order::A, dtype::UNORM_INT8, 1, 1, &[255], s, [0.5, 0.5]);
    assert_eq!(r, [0.0, 0.0, 0.0, 1.0]);
}

fn run(src: &str, args: Vec<KernelArg>, global: &[u64]) -> Result<(), String> {
    let p = Program::build(src, "").map_err(|e| e.to_string())?;
    let d = device();
    let mut k = p.kernel("k").expect("kernel");
    for (i, a) in args.into_iter().enumerate() {
        k.set_arg(i, a).expect("arg");
    }
    d.launch(&k, &NdRange::new(global))
        .map_err(|e| e.to_string())?;
    Ok(())
}

#[test]
fn integer_reads_writes_and_saturation() {
    let d = device();
    let out = d.buffer::<i32>(8).expect("buffer");
    // RG SIGNED_INT8 (-5, 7), no sampler; BGRA UNSIGNED_INT16 (b 1, g 2, r 3, a 4).
    let a = image(
        &d,
        desc(object::IMAGE2D, order::RG, dtype::SIGNED_INT8, 1, 1, 1, 1),
        &[0xfb, 7],
    );
    let px: Vec<u8> = [1u16, 2, 3, 4]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let b = image(
        &d,
        desc(
            object::IMAGE2D,
            order::BGRA,
            dtype::UNSIGNED_INT16,
            1,
            1,
            1,
            1,
        ),
        &px,
    );
    run(
        "kernel void k(global int4 *o, read_only image2d_t a, read_only image2d_t b) {
             o[0] = read_imagei(a, (int2)(0, 0));
             o[1] = as_int4(read_imageui(b, CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST, (int2)(0, 0)));
         }",
        vec![KernelArg::from(&out), a, b],
        &[1],
    )
    .expect("runs");
    assert_eq!(
        out.read::<i32>().expect("read"),
        vec![-5, 7, 0, 1, 3, 2, 1, 4]
    );

    // Writes: round to nearest even and saturate.
    let w8 = d.buffer_from_bytes(&[0u8; 4]).expect("buffer");
    let wi = d.buffer_from_bytes(&[0u8; 2]).expect("buffer");
    let wu = d.buffer_from_bytes(&[0u8; 4]).expect("buffer");
    run(
        "kernel void k(write_only image2d_t f, write_only image1d_t i, write_only image1d_t u) {
             write_imagef(f, (int2)(0, 0), (float4)(0.5f, -0.1f, 2.0f, NAN));
             write_imagei(i, 0, (int4)(300, -300, 0, 0));
             write_imageui(u, 0, (uint4)(70000, 7, 0, 0));
         }",
        vec![
            KernelArg::Image {
                desc: desc(object::IMAGE2D, order::RGBA, dtype::UNORM_INT8, 1, 1, 1, 1),
                data: w8.clone(),
            },
            KernelArg::Image {
                desc: desc(object::IMAGE1D, order::RG, dtype::SIGNED_INT8, 1, 1, 1, 1),
                data: wi.clone(),
            },
            KernelArg::Image {
                desc: desc(
                    object::IMAGE1D,
                    order::RG,
                    dtype::UNSIGNED_INT16,
                    1,
                    1,
                    1,
                    1,
                ),
                data: wu.clone(),
            },
        ],
        &[1],
    )
    .expect("runs");
    assert_eq!(w8.read::<u8>().expect("read"), vec![128, 0, 255, 0]);
    assert_eq!(wi.read::<u8>().expect("read"), vec![127, 0x80]);
    assert_eq!(wu.read::<u16>().expect("read"), vec![65535, 7]);
}

#[test]
fn queries_3d_arrays_and_constant_samplers() {
    let d = device();
    let out = d.buffer::<i32>(16).expect("buffer");
    // 3D 2x2x3 float R, value = 100 z + 10 y + x; a 2D array 1x1 x 3 layers; a 1D array.
    let v3: Vec<f32> = (0..12)
        .map(|i| (100 * (i / 4) + 10 * ((i / 2) % 2) + i % 2) as f32)
        .collect();
    let im3 = image(
        &d,
        desc(object::IMAGE3D, order::R, dtype::FLOAT, 2, 2, 3, 1),
        &f32_bytes(&v3),
    );
    let arr = image(
        &d,
        desc(object::IMAGE2D_ARRAY, order::R, dtype::FLOAT, 1, 1, 1, 3),
        &f32_bytes(&[5.0, 6.0, 7.0]),
    );
    let a1 = image(
        &d,
        desc(object::IMAGE1D_ARRAY, order::R, dtype::FLOAT, 2, 1, 1, 2),
        &f32_bytes(&[1.0, 2.0, 3.0, 4.0]),
    );
    run(
        "constant sampler_t g = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
         kernel void k(global int *o, read_only image3d_t v, read_only image2d_array_t a,
                       read_only image1d_array_t b) {
             const sampler_t l = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
             int4 dim = get_image_dim(v);
             o[0] = get_image_width(v); o[1] = get_image_height(v); o[2] = get_image_depth(v);
             o[3] = dim.x + 10 * dim.y + 100 * dim.z + 1000 * dim.w;
             o[4] = get_image_channel_order(v) == CLK_R;
             o[5] = get_image_channel_data_type(v) == CLK_FLOAT;
             o[6] = (int)get_image_array_size(a);
             o[7] = (int)read_imagef(v, g, (float4)(1.5f, 0.5f, 2.2f, 0)).x;
             o[8] = (int)read_imagef(v, l, (float4)(1.25f, 0.75f, 0.5f, 0)).x;
             o[9] = (int)read_imagef(a, g, (float4)(0, 0, 1.5f, 0)).x;
             o[10] = (int)read_imagef(a, g, (float4)(0, 0, 9.0f, 0)).x;
             o[11] = (int)read_imagef(b, g, (float2)(1.0f, 1.0f)).x;
             o[12] = (int)read_imagef(b, (int2)(0, 1)).x;
         }",
        vec![KernelArg::from(&out), im3, arr, a1],
        &[1],
    )
    .expect("runs");
    let o = out.read::<i32>().expect("read");
    // Layer 1.5 rounds to even (2); layer 9 clamps to 2.
    assert_eq!(o[..13], [2, 2, 3, 322, 1, 1, 3, 201, 110, 7, 7, 4, 3]);
}

#[test]
fn undefined_uses_are_reported_with_the_line() {
    let d = device();
    let u8img = || {
        image(
            &d,
            desc(object::IMAGE2D, order::R, dtype::UNSIGNED_INT8, 2, 2, 1, 1),
            &[0; 4],
        )
    };
    let out = d.buffer::<f32>(4).expect("buffer");
    let e = run(
        "kernel void k(global float4 *o, read_only image2d_t a) {\n\
             *o = read_imagef(a, (int2)(0, 0));\n\
         }",
        vec![KernelArg::from(&out), u8img()],
        &[1],
    )
    .expect_err("wrong read function");
    assert!(
        e.contains("read_imagef on an image of channel type CL_UNSIGNED_INT8"),
        "{e}"
    );
    let e = run(
        "kernel void k(global uint4 *o, read_only image2d_t a) {\n\
             *o = read_imageui(a, (int2)(get_global_id(0), 0));\n\
         }",
        vec![KernelArg::from(&out), u8img()],
        &[3],
    )
    .expect_err("outside");
    assert!(
        e.contains("at pixel (2, 0, 0) outside the 2 x 2 x 1 image"),
        "{e}"
    );
    assert!(e.contains(":2:"), "{e}");
    let e = run(
        "kernel void k(read_only image2d_t a) { write_imageui(a, (int2)(0, 0), (uint4)(1)); }",
        vec![u8img()],
        &[1],
    )
    .expect_err("write to a read_only image");
    assert!(
        e.contains("no matching function for call to 'write_imageui'"),
        "{e}"
    );
}

#[test]
fn half_reads_and_writes() {
    let d = device();
    // Half image (1.5, -2, 0.25, 1); read as half4 and written to a UNORM_INT16 image.
    let px: Vec<u8> = [0x3e00u16, 0xc000, 0x3400, 0x3c00]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let src = image(
        &d,
        desc(object::IMAGE2D, order::RGBA, dtype::HALF_FLOAT, 1, 1, 1, 1),
        &px,
    );
    let out = d.buffer_from_bytes(&[0u8; 8]).expect("buffer");
    run(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
         kernel void k(read_only image2d_t a, write_only image2d_t b) {
             half4 h = read_imageh(a, (int2)(0, 0));
             write_imageh(b, (int2)(0, 0), h * (half)0.5h);
         }",
        vec![
            src,
            KernelArg::Image {
                desc: desc(object::IMAGE2D, order::RGBA, dtype::UNORM_INT16, 1, 1, 1, 1),
                data: out.clone(),
            },
        ],
        &[1],
    )
    .expect("runs");
    // 0.75 * 65535 = 49151.25 -> 49151; -1 saturates to 0; 0.125 -> 8191.875 -> 8192.
    assert_eq!(
        out.read::<u16>().expect("read"),
        vec![49151, 0, 8192, 32768]
    );
}

#[test]
fn a_descriptor_with_a_zero_extent_is_refused_at_launch() {
    let d = device();
    let mut bad = desc(object::IMAGE2D_ARRAY, order::R, dtype::FLOAT, 1, 1, 1, 1);
    bad.array_size = 0;
    let e = run(
        "kernel void k(read_only image2d_array_t a, global float4 *o) {
             *o = read_imagef(a, (int4)(0));
         }",
        vec![
            KernelArg::Image {
                desc: bad,
                data: d.buffer_from_bytes(&[0u8; 4]).expect("buffer"),
            },
            KernelArg::from(&d.buffer::<f32>(4).expect("buffer")),
        ],
        &[1],
    )
    .expect_err("zero layers");
    assert!(
        e.contains("image extent 1 x 1 x 0 (each from 1 to 2^31)"),
        "{e}"
    );
}
