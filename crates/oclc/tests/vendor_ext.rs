//! The vendor extensions clang-19 enables for SPIR targets (issue 13, cause 3): their macros
//! in every mode (recorded from `clang-19 -cc1 -triple spir{,64}-unknown-unknown
//! -finclude-default-header -dM -E`), their builtins declared as clang-19's `opencl-c.h`
//! declares them (overload resolution outcomes recorded from clang-19), the AMD media
//! operations computed on the cpu device against the extension texts, and the Intel sub-group
//! builtins reported as not supported by the cpu device when they run.

use oclc::{Device, NdRange, Program};
use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-vendor-ext-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `oclc ARGS` in `dir`: exit status and stderr.
fn oclc(dir: &PathBuf, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run oclc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const MACROS: [&str; 8] = [
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_clang_storage_class_specifiers",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_device_side_avc_motion_estimation",
    "__opencl_subgroup_builtins",
    "cl_khr_subgroups",
];

#[test]
fn macros_as_clang_defines_them() {
    let dir = temp_dir("macros");
    let src: String = MACROS
        .iter()
        .map(|m| format!("#ifdef {m}\n#warning {m}\n#endif\n"))
        .collect();
    std::fs::write(dir.join("m.cl"), src).expect("write");
    let all12 = "cl_amd_media_ops cl_amd_media_ops2 cl_clang_storage_class_specifiers \
        cl_intel_subgroups cl_intel_subgroups_short cl_intel_device_side_avc_motion_estimation \
        __opencl_subgroup_builtins";
    let amd = "cl_amd_media_ops cl_amd_media_ops2 cl_clang_storage_class_specifiers";
    // (flags, the macros clang-19 defines), the same on spir and spir64.
    let modes: &[(&[&str], String)] = &[
        (&[], all12.to_string()),
        (&["-cl-std=CL1.0"], amd.to_string()),
        (&["-cl-std=CL1.1"], amd.to_string()),
        (&["-cl-std=CL1.2"], all12.to_string()),
        (&["-cl-std=CL2.0"], format!("{all12} cl_khr_subgroups")),
        (&["-cl-std=CL3.0"], format!("{all12} cl_khr_subgroups")),
        (&["-cl-ext=-all"], String::new()),
        (&["-cl-std=CL3.0", "-cl-ext=-all"], String::new()),
        (
            &["-cl-ext=-all,+cl_intel_subgroups"],
            "cl_intel_subgroups __opencl_subgroup_builtins".to_string(),
        ),
        (&["-cl-ext=-cl_intel_subgroups"], {
            all12
                .replace("cl_intel_subgroups ", "")
                .replace(" __opencl_subgroup_builtins", "")
        }),
        (
            &["-cl-std=CL1.1", "-cl-ext=+cl_intel_subgroups"],
            amd.to_string(),
        ),
        (
            &["-cl-std=CL3.0", "-cl-ext=-all,+cl_amd_media_ops"],
            "cl_amd_media_ops".to_string(),
        ),
    ];
    for triple in ["spir-unknown-unknown", "spir64-unknown-unknown"] {
        for (flags, want) in modes {
            let mut args = vec!["check", "-triple", triple];
            args.extend_from_slice(flags);
            args.push("m.cl");
            let (_, err) = oclc(&dir, &args);
            let got: Vec<&str> = err
                .lines()
                .filter_map(|l| l.split_once("warning: ").map(|(_, m)| m))
                .filter_map(|m| m.split(' ').next())
                .collect();
            let want: Vec<&str> = want.split_whitespace().collect();
            assert_eq!(got, want, "{triple} {flags:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The issue's repro.
const REPRO: &str = "kernel void k(global uint *o) { o[0] = intel_sub_group_shuffle(o[0], 0u) + amd_bfe(o[1], 0u, 8u); }";

#[test]
fn repro_checks_clean() {
    let dir = temp_dir("repro");
    std::fs::write(dir.join("r.cl"), REPRO).expect("write");
    for triple in ["spir-unknown-unknown", "spir64-unknown-unknown"] {
        for std in ["-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"] {
            let (code, err) = oclc(&dir, &["check", "-triple", triple, std, "r.cl"]);
            assert_eq!((code, err.as_str()), (0, ""), "{triple} {std}");
        }
    }
    // Before OpenCL C 1.2 (and with the extension off) clang does not declare the Intel one.
    let (code, err) = oclc(&dir, &["check", "-cl-std=CL1.1", "r.cl"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("r.cl:1:40: error: use of undeclared identifier 'intel_sub_group_shuffle'"),
        "{err}"
    );
    let (_, err) = oclc(&dir, &["check", "-cl-ext=-cl_amd_media_ops2", "r.cl"]);
    assert!(
        err.contains("r.cl:1:76: error: use of undeclared identifier 'amd_bfe'"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calls with random argument types; each mode's clang-19 diagnostics below.
const CALLS: &str = r#"#pragma OPENCL EXTENSION cl_khr_fp16 : enable
void t0(uint4 a0, short16 a1) { intel_sub_group_shuffle(a0, a1); }
void t1(uint4 a0, uint4 a1) { intel_sub_group_shuffle(a0, a1); }
void t2(ushort8 a0, uint8 a1) { intel_sub_group_shuffle(a0, a1); }
void t3(long a0, uint a1) { intel_sub_group_shuffle(a0, a1); }
void t4(ushort8 a0, float4 a1, int16 a2) { intel_sub_group_shuffle_down(a0, a1, a2); }
void t5(ulong2 a0, uint a1, ushort a2) { intel_sub_group_shuffle_down(a0, a1, a2); }
void t6(uint4 a0, double a1, int a2) { intel_sub_group_shuffle_down(a0, a1, a2); }
void t7(short a0, short16 a1, int16 a2) { intel_sub_group_shuffle_down(a0, a1, a2); }
void t8(uchar a0, ulong2 a1) { intel_sub_group_broadcast(a0, a1); }
void t9(uint2 a0, uint4 a1) { intel_sub_group_broadcast(a0, a1); }
void t10(int16 a0, ulong2 a1) { intel_sub_group_broadcast(a0, a1); }
void t11(int16 a0, uint a1) { intel_sub_group_broadcast(a0, a1); }
void t12(ulong2 a0) { intel_sub_group_reduce_max(a0); }
void t13(char a0) { intel_sub_group_reduce_max(a0); }
void t14(ushort8 a0) { intel_sub_group_reduce_max(a0); }
void t15(short a0) { intel_sub_group_reduce_max(a0); }
void t16(uchar a0, uchar a1, long a2) { amd_bitalign(a0, a1, a2); }
void t17(ulong a0, ulong2 a1, char a2) { amd_bitalign(a0, a1, a2); }
void t18(uint4 a0, half a1, uint4 a2) { amd_bitalign(a0, a1, a2); }
void t19(uint8 a0, long a1, ushort8 a2) { amd_bitalign(a0, a1, a2); }
void t20(ulong a0, int16 a1, double a2) { amd_lerp(a0, a1, a2); }
void t21(float4 a0, char a1, short a2) { amd_lerp(a0, a1, a2); }
void t22(uint4 a0, int16 a1, float a2) { amd_lerp(a0, a1, a2); }
void t23(int4 a0, short16 a1, short a2) { amd_lerp(a0, a1, a2); }
void t24(float a0) { amd_pack(a0); }
void t25(half a0) { amd_pack(a0); }
void t26(ulong a0) { amd_pack(a0); }
void t27(ushort8 a0) { amd_pack(a0); }
void t28(double a0, char a1, short a2) { amd_sad4(a0, a1, a2); }
void t29(uint8 a0, ushort a1, uint2 a2) { amd_sad4(a0, a1, a2); }
void t30(ushort a0, double a1, uint2 a2) { amd_sad4(a0, a1, a2); }
void t31(short a0, char a1, char a2) { amd_sad4(a0, a1, a2); }
void t32(long a0) { amd_unpack1(a0); }
void t33(long a0) { amd_unpack1(a0); }
void t34(uchar a0) { amd_unpack1(a0); }
void t35(float4 a0) { amd_unpack1(a0); }
void t36(uint2 a0, uint2 a1, int4 a2) { amd_bfe(a0, a1, a2); }
void t37(short a0, uint8 a1, int16 a2) { amd_bfe(a0, a1, a2); }
void t38(long a0, float a1, half a2) { amd_bfe(a0, a1, a2); }
void t39(short a0, double a1, half a2) { amd_bfe(a0, a1, a2); }
void t40(char a0, int4 a1) { amd_bfm(a0, a1); }
void t41(ushort a0, int a1) { amd_bfm(a0, a1); }
void t42(ulong a0, ushort a1) { amd_bfm(a0, a1); }
void t43(char a0, uchar a1) { amd_bfm(a0, a1); }
void t44(uint4 a0, float4 a1, uint a2) { amd_median3(a0, a1, a2); }
void t45(short16 a0, long a1, uint4 a2) { amd_median3(a0, a1, a2); }
void t46(ushort8 a0, long a1, int a2) { amd_median3(a0, a1, a2); }
void t47(int4 a0, int16 a1, uint2 a2) { amd_median3(a0, a1, a2); }
void t48(ushort a0, uint2 a1, int4 a2) { amd_qsad(a0, a1, a2); }
void t49(long a0, char a1, float a2) { amd_qsad(a0, a1, a2); }
void t50(uint8 a0, double a1, char a2) { amd_qsad(a0, a1, a2); }
void t51(long a0, uint a1, uint2 a2) { amd_qsad(a0, a1, a2); }
void t52(ulong2 a0, int16 a1, uint8 a2) { amd_sadw(a0, a1, a2); }
void t53(ushort a0, uchar a1, int a2) { amd_sadw(a0, a1, a2); }
void t54(long a0, uint4 a1, float a2) { amd_sadw(a0, a1, a2); }
void t55(char a0, ulong2 a1, half a2) { amd_sadw(a0, a1, a2); }
void b0(global uint *p, global ushort *s, read_only image2d_t ri) {
  uint a = intel_sub_group_block_read(p); uint8 c = intel_sub_group_block_read8(p);
  intel_sub_group_block_write(p, a); intel_sub_group_block_write_us8(s, (ushort8)(1));
  ushort d = intel_sub_group_block_read_us(s, 1); uint e = amd_pack(); }
"#;

const CALLS_CL12: &str = r#"calls.cl:2:33: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:3:31: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:4:33: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:6:44: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:7:42: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:9:43: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:10:32: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:11:31: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:12:33: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:13:31: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:14:23: error: no matching function for call to 'intel_sub_group_reduce_max'
calls.cl:15:21: error: call to 'intel_sub_group_reduce_max' is ambiguous
calls.cl:16:24: error: no matching function for call to 'intel_sub_group_reduce_max'
calls.cl:19:42: error: no matching function for call to 'amd_bitalign'
calls.cl:21:43: error: no matching function for call to 'amd_bitalign'
calls.cl:22:43: error: no matching function for call to 'amd_lerp'
calls.cl:23:42: error: no matching function for call to 'amd_lerp'
calls.cl:24:42: error: no matching function for call to 'amd_lerp'
calls.cl:25:43: error: no matching function for call to 'amd_lerp'
calls.cl:29:33: error: passing '__private ushort8' (vector of 8 'ushort' values) to parameter of incompatible type 'float4' (vector of 4 'float' values)
calls.cl:31:52: error: passing '__private uint8' (vector of 8 'uint' values) to parameter of incompatible type 'uint4' (vector of 4 'uint' values)
calls.cl:32:61: error: passing '__private uint2' (vector of 2 'uint' values) to parameter of incompatible type 'uint' (aka 'unsigned int')
calls.cl:37:23: error: no matching function for call to 'amd_unpack1'
calls.cl:38:41: error: no matching function for call to 'amd_bfe'
calls.cl:39:42: error: no matching function for call to 'amd_bfe'
calls.cl:40:40: error: call to 'amd_bfe' is ambiguous
calls.cl:42:30: error: no matching function for call to 'amd_bfm'
calls.cl:46:42: error: no matching function for call to 'amd_median3'
calls.cl:47:43: error: no matching function for call to 'amd_median3'
calls.cl:48:41: error: no matching function for call to 'amd_median3'
calls.cl:49:41: error: no matching function for call to 'amd_median3'
calls.cl:50:42: error: no matching function for call to 'amd_qsad'
calls.cl:52:42: error: no matching function for call to 'amd_qsad'
calls.cl:53:40: error: no matching function for call to 'amd_qsad'
calls.cl:54:43: error: no matching function for call to 'amd_sadw'
calls.cl:57:41: error: no matching function for call to 'amd_sadw'
calls.cl:61:47: error: too many arguments to function call, expected single argument 'p', have 2 arguments
calls.cl:61:69: error: too few arguments to function call, single argument 'v' was not specified
"#;

const CALLS_CL20: &str = r#"calls.cl:2:33: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:3:31: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:4:33: error: no matching function for call to 'intel_sub_group_shuffle'
calls.cl:6:44: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:7:42: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:9:43: error: no matching function for call to 'intel_sub_group_shuffle_down'
calls.cl:10:32: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:11:31: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:12:33: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:13:31: error: no matching function for call to 'intel_sub_group_broadcast'
calls.cl:14:23: error: no matching function for call to 'intel_sub_group_reduce_max'
calls.cl:15:21: error: call to 'intel_sub_group_reduce_max' is ambiguous
calls.cl:16:24: error: no matching function for call to 'intel_sub_group_reduce_max'
calls.cl:19:42: error: no matching function for call to 'amd_bitalign'
calls.cl:21:43: error: no matching function for call to 'amd_bitalign'
calls.cl:22:43: error: no matching function for call to 'amd_lerp'
calls.cl:23:42: error: no matching function for call to 'amd_lerp'
calls.cl:24:42: error: no matching function for call to 'amd_lerp'
calls.cl:25:43: error: no matching function for call to 'amd_lerp'
calls.cl:29:33: error: passing '__private ushort8' (vector of 8 'ushort' values) to parameter of incompatible type 'float4' (vector of 4 'float' values)
calls.cl:31:52: error: passing '__private uint8' (vector of 8 'uint' values) to parameter of incompatible type 'uint4' (vector of 4 'uint' values)
calls.cl:32:61: error: passing '__private uint2' (vector of 2 'uint' values) to parameter of incompatible type 'uint' (aka 'unsigned int')
calls.cl:37:23: error: no matching function for call to 'amd_unpack1'
calls.cl:38:41: error: no matching function for call to 'amd_bfe'
calls.cl:39:42: error: no matching function for call to 'amd_bfe'
calls.cl:40:40: error: call to 'amd_bfe' is ambiguous
calls.cl:42:30: error: no matching function for call to 'amd_bfm'
calls.cl:46:42: error: no matching function for call to 'amd_median3'
calls.cl:47:43: error: no matching function for call to 'amd_median3'
calls.cl:48:41: error: no matching function for call to 'amd_median3'
calls.cl:49:41: error: no matching function for call to 'amd_median3'
calls.cl:50:42: error: no matching function for call to 'amd_qsad'
calls.cl:52:42: error: no matching function for call to 'amd_qsad'
calls.cl:53:40: error: no matching function for call to 'amd_qsad'
calls.cl:54:43: error: no matching function for call to 'amd_sadw'
calls.cl:57:41: error: no matching function for call to 'amd_sadw'
calls.cl:61:14: error: no matching function for call to 'intel_sub_group_block_read_us'
calls.cl:61:69: error: too few arguments to function call, single argument 'v' was not specified
"#;

#[test]
fn overloads_resolve_as_in_clang() {
    let dir = temp_dir("calls");
    std::fs::write(dir.join("calls.cl"), CALLS).expect("write");
    for (std, want) in [("-cl-std=CL1.2", CALLS_CL12), ("-cl-std=CL2.0", CALLS_CL20)] {
        let (_, err) = oclc(
            &dir,
            &[
                "check",
                "-triple",
                "spir64-unknown-unknown",
                std,
                "calls.cl",
            ],
        );
        let got: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("calls.cl:") && !l.contains(": note: "))
            .collect();
        let want: Vec<&str> = want.lines().collect();
        assert_eq!(got, want, "{std}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- reference implementations, from the cl_amd_media_ops(2) texts ----

fn byte(x: u32, i: u32) -> u32 {
    (x >> (8 * i)) & 0xff
}

fn r_sad(a: u32, b: u32, c: u32, shift: u32, masked: bool) -> u32 {
    let mut s = c;
    for i in 0..4 {
        let (x, y) = (byte(a, i), byte(b, i));
        if masked && y == 0 {
            continue;
        }
        let d = x.abs_diff(y);
        s = s.wrapping_add(d << shift);
    }
    s
}

fn r_bfe(x: u32, o: u32, w: u32, signed: bool) -> u32 {
    let (o, w) = (o & 31, w & 31);
    if w == 0 {
        return 0;
    }
    // A field running past bit 31 ends there (the text's `src0 >> offset`).
    let w = w.min(32 - o);
    let mask = (1u64 << w) - 1;
    let field = (u64::from(x) >> o) & mask;
    if signed && (field >> (w - 1)) & 1 == 1 {
        (field | !mask) as u32
    } else {
        field as u32
    }
}

fn r_qsad(a: u64, b: u32, c: u64, masked: bool) -> u64 {
    let mut out = 0u64;
    for i in 0..4 {
        let window = (a >> (8 * i)) as u32;
        let lane = ((c >> (16 * i)) & 0xffff) as u32;
        out |= u64::from(r_sad(window, b, lane, 0, masked) & 0xffff) << (16 * i);
    }
    out
}

/// Deterministic inputs: SplitMix64, with some small values mixed in (zero bytes, shifts).
fn inputs(n: usize) -> Vec<u64> {
    let mut s = 0x1234_5678_9abc_def0u64;
    (0..n)
        .map(|i| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            match i % 7 {
                0 => z & 0x00ff_00ff_0000_001f,
                1 => z & 0x1f,
                _ => z,
            }
        })
        .collect()
}

const MEDIA: &str = r#"
kernel void media(global const uint *a, global const uint *b, global const uint *c,
                  global const ulong *qa, global const ulong *qc,
                  global uint *u, global int *s, global float *f, global ulong *q) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i], z = c[i];
  global uint *ou = u + i * 16;
  ou[0] = amd_bitalign(x, y, z);
  ou[1] = amd_bytealign(x, y, z);
  ou[2] = amd_lerp(x, y, z);
  ou[3] = amd_sad(x, y, z);
  ou[4] = amd_sadhi(x, y, z);
  ou[5] = amd_msad(x, y, z);
  ou[6] = amd_sadd(x, y, z);
  ou[7] = amd_sadw(x, y, z);
  ou[8] = amd_bfm(x, y);
  ou[9] = amd_bfe(x, y, z);
  ou[10] = amd_min3(x, y, z);
  ou[11] = amd_max3(x, y, z);
  ou[12] = amd_median3(x, y, z);
  uint4 v = amd_sad(vload4(0, a + (i & ~3)), vload4(0, b + (i & ~3)), vload4(0, c + (i & ~3)));
  ou[13] = v.s0 + v.s1 + v.s2 + v.s3;
  ou[14] = amd_sad4(vload4(0, a + (i & ~3)), vload4(0, b + (i & ~3)), z);
  ou[15] = amd_pack((float4)((float)(x & 0xff), 2.75f, 300.0f, 7.0f));
  global int *os = s + i * 4;
  os[0] = amd_bfe((int)x, y, z);
  os[1] = amd_min3((int)x, (int)y, (int)z);
  os[2] = amd_max3((int)x, (int)y, (int)z);
  os[3] = amd_median3((int)x, (int)y, (int)z);
  global float *of = f + i * 7;
  of[0] = amd_unpack0(x);
  of[1] = amd_unpack1(x);
  of[2] = amd_unpack2(x);
  of[3] = amd_unpack3(x);
  float fx = (float)(int)(x & 0xffff) - 30000.0f, fy = (float)(int)(y & 0xffff) - 30000.0f,
        fz = (float)(int)(z & 0xffff) - 30000.0f;
  of[4] = amd_min3(fx, fy, fz);
  of[5] = amd_max3(fx, fy, fz);
  of[6] = amd_median3(fx, fy, fz);
  q[i * 2] = amd_qsad(qa[i], y, qc[i]);
  q[i * 2 + 1] = amd_mqsad(qa[i], y, qc[i]);
}
"#;

#[test]
fn amd_media_ops_on_the_cpu_device() {
    const N: usize = 64;
    let r = inputs(5 * N);
    let a: Vec<u32> = r[..N].iter().map(|&v| v as u32).collect();
    let b: Vec<u32> = r[N..2 * N].iter().map(|&v| v as u32).collect();
    let c: Vec<u32> = r[2 * N..3 * N].iter().map(|&v| v as u32).collect();
    let qa: Vec<u64> = r[3 * N..4 * N].to_vec();
    let qc: Vec<u64> = r[4 * N..].to_vec();
    for opts in ["", "-O0"] {
        let program = Program::build(MEDIA, opts).unwrap_or_else(|e| panic!("{e}"));
        let device = Device::cpu();
        let bufs = (
            device.buffer_from_slice(&a).expect("a"),
            device.buffer_from_slice(&b).expect("b"),
            device.buffer_from_slice(&c).expect("c"),
            device.buffer_from_slice(&qa).expect("qa"),
            device.buffer_from_slice(&qc).expect("qc"),
        );
        let u = device.buffer_from_slice(&vec![0u32; N * 16]).expect("u");
        let s = device.buffer_from_slice(&vec![0i32; N * 4]).expect("s");
        let f = device.buffer_from_slice(&vec![0f32; N * 7]).expect("f");
        let q = device.buffer_from_slice(&vec![0u64; N * 2]).expect("q");
        let mut k = program.kernel("media").expect("kernel");
        k.set_arg(0, &bufs.0)
            .and_then(|k| k.set_arg(1, &bufs.1))
            .and_then(|k| k.set_arg(2, &bufs.2))
            .and_then(|k| k.set_arg(3, &bufs.3))
            .and_then(|k| k.set_arg(4, &bufs.4))
            .and_then(|k| k.set_arg(5, &u))
            .and_then(|k| k.set_arg(6, &s))
            .and_then(|k| k.set_arg(7, &f))
            .and_then(|k| k.set_arg(8, &q))
            .expect("args");
        device
            .launch(&k, &NdRange::new(&[N as u64]))
            .expect("launch");
        let (u, s, f, q) = (
            u.read::<u32>().expect("u"),
            s.read::<i32>().expect("s"),
            f.read::<f32>().expect("f"),
            q.read::<u64>().expect("q"),
        );
        for i in 0..N {
            let (x, y, z) = (a[i], b[i], c[i]);
            let (xi, yi, zi) = (x as i32, y as i32, z as i32);
            let med = |p: i64, q: i64, r: i64| p.max(q).min(p.min(q).max(r)).max(p.min(q));
            let base = i & !3;
            let sad_lanes: u32 = (0..4).fold(0u32, |acc, k| {
                acc.wrapping_add(r_sad(a[base + k], b[base + k], c[base + k], 0, false))
            });
            let sad4 = (0..4).fold(z, |acc, k| r_sad(a[base + k], b[base + k], acc, 0, false));
            let want = [
                ((((u64::from(x)) << 32) | u64::from(y)) >> (z & 31)) as u32,
                ((((u64::from(x)) << 32) | u64::from(y)) >> ((z & 3) * 8)) as u32,
                (0..4).fold(0, |o, k| {
                    o | (((byte(x, k) + byte(y, k) + (byte(z, k) & 1)) >> 1) << (8 * k))
                }),
                r_sad(x, y, z, 0, false),
                r_sad(x, y, z, 16, false),
                r_sad(x, y, z, 0, true),
                z.wrapping_add(x.abs_diff(y)),
                z.wrapping_add((x & 0xffff).abs_diff(y & 0xffff))
                    .wrapping_add((x >> 16).abs_diff(y >> 16)),
                ((1u32 << (x & 31)).wrapping_sub(1)) << (y & 31),
                r_bfe(x, y, z, false),
                x.min(y).min(z),
                x.max(y).max(z),
                med(x.into(), y.into(), z.into()) as u32,
                sad_lanes,
                sad4,
                (x & 0xff) | (2 << 8) | ((300 & 0xff) << 16) | (7 << 24),
            ];
            assert_eq!(&u[i * 16..i * 16 + 16], &want, "{opts} uint ops, item {i}");
            let want_s = [
                r_bfe(x, y, z, true) as i32,
                xi.min(yi).min(zi),
                xi.max(yi).max(zi),
                med(xi.into(), yi.into(), zi.into()) as i32,
            ];
            assert_eq!(&s[i * 4..i * 4 + 4], &want_s, "{opts} int ops, item {i}");
            let fl = |v: u32| ((v & 0xffff) as i32) as f32 - 30000.0;
            let (fx, fy, fz) = (fl(x), fl(y), fl(z));
            let want_f = [
                byte(x, 0) as f32,
                byte(x, 1) as f32,
                byte(x, 2) as f32,
                byte(x, 3) as f32,
                fx.min(fy).min(fz),
                fx.max(fy).max(fz),
                med(fx as i64, fy as i64, fz as i64) as f32,
            ];
            assert_eq!(&f[i * 7..i * 7 + 7], &want_f, "{opts} float ops, item {i}");
            assert_eq!(q[i * 2], r_qsad(qa[i], y, qc[i], false), "{opts} qsad {i}");
            assert_eq!(
                q[i * 2 + 1],
                r_qsad(qa[i], y, qc[i], true),
                "{opts} mqsad {i}"
            );
        }
    }
}

#[test]
fn repro_runs_amd_bfe_and_the_intel_shuffle() {
    let program = Program::build(
        "kernel void k(global uint *o) { o[2] = amd_bfe(o[1], 0u, 8u) + amd_bfe(o[1], 4u, 8u); }",
        "",
    )
    .expect("build");
    let device = Device::cpu();
    let o = device
        .buffer_from_slice(&[0u32, 0x1234_5678, 0])
        .expect("o");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    device.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<u32>().expect("read")[2], 0x78 + 0x67);
    // The whole repro: sub-groups of one work-item on the cpu device, so the shuffle of lane 0
    // is the work-item's own value.
    let o = device
        .buffer_from_slice(&[5u32, 0x1234_5678, 0])
        .expect("o");
    let program = Program::build(REPRO, "").expect("build repro");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    device
        .launch(&k, &NdRange::new(&[1]))
        .expect("the shuffle runs");
    assert_eq!(o.read::<u32>().expect("read")[0], 5 + 0x78);
}

#[test]
fn ptx_for_the_cuda_device() {
    let program = Program::build(MEDIA, "").expect("build");
    let ptx = program.ptx_text("sm_80", false).expect("ptx");
    for ins in [
        "shf.r.wrap.b32",
        "sad.u32",
        "bfe.s32",
        "bfi.b32",
        "cvt.rzi.u32.f32",
        "min.f32",
    ] {
        assert!(ptx.contains(ins), "no {ins} in\n{ptx}");
    }
    // Sub-group shuffles are warp shuffles on the cuda device.
    let ptx = Program::build(REPRO, "")
        .expect("build repro")
        .ptx_text("sm_80", false)
        .expect("sub-groups are warps on the cuda device");
    assert!(ptx.contains("shfl.sync.idx.b32"), "{ptx}");
}
