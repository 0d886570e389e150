//! clang's type-generic GNU atomic builtins (`__atomic_fetch_add`, `__atomic_load_n`,
//! `__atomic_compare_exchange`, ...: pocl's library implements the OpenCL 1.x atomics with
//! them): clang-19's diagnostics for wrong calls (recorded from `clang-19 -cc1 -triple
//! spir64-unknown-unknown -finclude-default-header -fsyntax-only`), a file using every form
//! that both accept in every mode, and their values on the cpu device (at -O2 and -O0), with
//! 256 work-items adding to shared counters; the same for the C11, OpenCL and `__sync_*`
//! families.

use oclc::{Device, NdRange, Program};
use std::path::PathBuf;
use std::process::Command;

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oclc-gnu-atomics-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `oclc check -triple spir64-unknown-unknown EXTRA FILE` on `src` written to `dir/NAME.cl`:
/// exit status and its error and warning lines.
fn check(dir: &PathBuf, name: &str, src: &str, extra: &[&str]) -> (i32, Vec<String>) {
    let file = format!("{name}.cl");
    std::fs::write(dir.join(&file), src).expect("write source");
    let out = Command::new(env!("CARGO_BIN_EXE_oclc"))
        .current_dir(dir)
        .args(["check", "-triple", "spir64-unknown-unknown"])
        .args(extra)
        .arg(&file)
        .output()
        .expect("run oclc");
    let lines = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with(&file) && (l.contains(": error: ") || l.contains(": warning: ")))
        .map(str::to_string)
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

/// Each case: a file name, its source, and clang-19's error and warning lines.
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "arguments",
        r#"struct S { int a; };
kernel void k(global int *p, global float *f, constant int *c, global struct S *s, int x, global int **pp) {
  __atomic_fetch_add(x, 1, 0);
  __atomic_fetch_add(p, 1);
  __atomic_fetch_add(p, 1, 0, 0);
  __atomic_fetch_and(f, 1, 0);
  __atomic_fetch_add(c, 1, 0);
  __atomic_fetch_add(s, 1, 0);
  __atomic_fetch_add(p, 1, 7);
  __atomic_load_n(p, __ATOMIC_RELEASE);
  __atomic_store_n(p, 1, __ATOMIC_ACQUIRE);
  __atomic_fetch_add(pp, 1, 0);
  __atomic_fetch_and(pp, 1, 0);
  __atomic_load_n(p);
  int y = __atomic_fetch_add(p, s, 0);
  __atomic_fetch_add(p, 1, x);
  __atomic_compare_exchange_n(p, p, 1, 0, 5, 4);
  __atomic_thread_fence();
  const global int *cp = p;
  __atomic_load_n(cp, 0);
  __atomic_fetch_add(cp, 1, 0);
}
"#,
        &[
            r#"arguments.cl:2:104: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"#,
            r#"arguments.cl:3:3: error: address argument to atomic builtin must be a pointer ('int' invalid)"#,
            r#"arguments.cl:4:26: error: too few arguments to function call, expected 3, have 2"#,
            r#"arguments.cl:5:31: error: too many arguments to function call, expected 3, have 4"#,
            r#"arguments.cl:6:3: error: address argument to atomic operation must be a pointer to integer ('__global float *' invalid)"#,
            r#"arguments.cl:8:3: error: address argument to atomic operation must be a pointer to integer, pointer or supported floating point type ('__global struct S *' invalid)"#,
            r#"arguments.cl:9:28: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"arguments.cl:10:22: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"arguments.cl:11:26: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"arguments.cl:13:3: error: address argument to atomic operation must be a pointer to integer ('__global int *__private *' invalid)"#,
            r#"arguments.cl:14:20: error: too few arguments to function call, expected 2, have 1"#,
            r#"arguments.cl:15:33: error: incompatible pointer to integer conversion passing '__global struct S *__private' to parameter of type '__global int' [-Wint-conversion]"#,
            r#"arguments.cl:17:46: warning: failure memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"arguments.cl:18:25: error: too few arguments to function call, expected 1, have 0"#,
            r#"arguments.cl:21:3: error: address argument to atomic operation must be a pointer to non-const type ('const __global int *' invalid)"#,
        ],
    ),
    (
        "pointees_and_orders",
        r#"struct S { int a; };
kernel void k(global int *p, global float *f, global struct S *s, global int **pp, global half *h, global double *d) {
  __atomic_fetch_min(f, 1, 0);
  __atomic_fetch_max(pp, 1, 0);
  __atomic_add_fetch(f, 1, 0);
  __atomic_nand_fetch(f, 1, 0);
  __atomic_exchange_n(s, *s, 0);
  __atomic_load_n(s, 0);
  __atomic_fetch_add(h, 1, 0);
  __atomic_fetch_add(d, 1, 0);
  __atomic_fetch_add(p, 1.5f, 0);
  __atomic_exchange_n(f, 1, 0);
  __atomic_compare_exchange_n(f, f, 1, 0, 0, 0);
  __atomic_load_n(f, 0);
  __atomic_store_n(pp, 0, 0);
  __atomic_fetch_nand(p, 1, 0);
  __atomic_signal_fence(0);
  __atomic_fetch_add(p, 1, __ATOMIC_CONSUME);
  __atomic_store_n(p, 1, __ATOMIC_CONSUME);
  __atomic_store_n(p, 1, __ATOMIC_ACQ_REL);
  __atomic_load_n(p, __ATOMIC_ACQ_REL);
  __atomic_compare_exchange_n(p, p, 1, 0, 0, 2);
  __atomic_compare_exchange_n(p, p, 1, 0, 0, 3);
}
"#,
        &[
            r#"pointees_and_orders.cl:2:80: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"#,
            r#"pointees_and_orders.cl:4:3: error: address argument to atomic operation must be a pointer to integer or supported floating point type ('__global int *__private *' invalid)"#,
            r#"pointees_and_orders.cl:6:3: error: address argument to atomic operation must be a pointer to integer ('__global float *' invalid)"#,
            r#"pointees_and_orders.cl:7:3: error: address argument to atomic operation must be a pointer to integer or pointer ('__global struct S *' invalid)"#,
            r#"pointees_and_orders.cl:8:3: error: address argument to atomic operation must be a pointer to integer or pointer ('__global struct S *' invalid)"#,
            r#"pointees_and_orders.cl:11:25: warning: implicit conversion from 'float' to 'int' changes value from 1.5 to 1 [-Wliteral-conversion]"#,
            r#"pointees_and_orders.cl:12:3: error: address argument to atomic operation must be a pointer to integer or pointer ('__global float *' invalid)"#,
            r#"pointees_and_orders.cl:13:3: error: address argument to atomic operation must be a pointer to integer or pointer ('__global float *' invalid)"#,
            r#"pointees_and_orders.cl:14:3: error: address argument to atomic operation must be a pointer to integer or pointer ('__global float *' invalid)"#,
            r#"pointees_and_orders.cl:19:26: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"pointees_and_orders.cl:20:26: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"pointees_and_orders.cl:21:22: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
            r#"pointees_and_orders.cl:23:46: warning: failure memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
        ],
    ),
];

#[test]
fn diagnostics_match_clang() {
    let dir = temp_dir("diags");
    for (name, src, want) in CASES {
        let (code, got) = check(&dir, name, src, &[]);
        assert_eq!(code, 1, "{name}");
        assert_eq!(
            got, *want,
            "{name}: oclc's diagnostics differ from clang-19's"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every form on integers, floats, a `long`, `__local` and `volatile` pointers.
const EVERY_FORM: &str = r#"kernel void k(global int *p, global uint *u, global long *l, local int *lp, global float *f) {
  int cmp = 0;
  p[0] = __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
  p[1] = __atomic_fetch_sub(p, 1, __ATOMIC_RELAXED);
  u[0] = __atomic_fetch_and(u, 3u, __ATOMIC_SEQ_CST);
  u[1] = __atomic_fetch_or(u, 3u, __ATOMIC_SEQ_CST);
  u[2] = __atomic_fetch_xor(u, 3u, __ATOMIC_SEQ_CST);
  u[3] = __atomic_fetch_nand(u, 3u, __ATOMIC_SEQ_CST);
  p[2] = __atomic_fetch_min(p, 1, __ATOMIC_ACQ_REL);
  p[3] = __atomic_fetch_max(p, 1, __ATOMIC_ACQ_REL);
  p[4] = __atomic_add_fetch(p, 1, __ATOMIC_ACQ_REL);
  p[5] = __atomic_sub_fetch(p, 1, __ATOMIC_ACQ_REL);
  p[6] = __atomic_exchange_n(p, 7, __ATOMIC_ACQ_REL);
  bool b = __atomic_compare_exchange_n(p, &cmp, 5, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  int v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  int r; __atomic_load(p, &r, __ATOMIC_ACQUIRE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  l[0] = __atomic_fetch_add(l, 1, __ATOMIC_RELAXED);
  lp[0] = __atomic_fetch_add(lp, 1, __ATOMIC_RELAXED);
  f[0] = __atomic_fetch_add(f, 1.0f, __ATOMIC_RELAXED);
  p[7] = __atomic_or_fetch(p, 1, 0) + __atomic_and_fetch(p, 1, 0) + __atomic_xor_fetch(p, 1, 0) + __atomic_nand_fetch(p, 1, 0) + __atomic_max_fetch(p, 1, 0) + __atomic_min_fetch(p,1,0);
  volatile global int *vp = p;
  p[9] = __atomic_fetch_add(vp, 1, __ATOMIC_ACQ_REL);
}
"#;

#[test]
fn every_form_is_accepted_in_every_mode() {
    let dir = temp_dir("modes");
    for std in ["CL1.2", "CL2.0", "CL3.0"] {
        let cl_std = format!("-cl-std={std}");
        let (code, got) = check(&dir, "every_form", EVERY_FORM, &[&cl_std]);
        assert_eq!((code, got), (0, Vec::new()), "{std}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each form's result and effect (the expected values in the comments); every work-item adds
/// 1 to `c[0]` and 2 to `c[1]`.
const VALUES: &str = r#"kernel void k(global int *c, global int *o, global uint *u, global float *f, global long *l) {
  __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&c[1], 2, __ATOMIC_SEQ_CST);
  if (get_global_id(0) != 0) return;
  int e = 5, r;
  o[0] = __atomic_fetch_sub(&o[1], 3, __ATOMIC_ACQ_REL);      /* o1: 10 -> 7, o0 = 10 */
  o[2] = __atomic_sub_fetch(&o[1], 3, __ATOMIC_ACQ_REL);      /* o1: 4, o2 = 4 */
  o[3] = __atomic_fetch_min(&o[4], -2, 0);                     /* o4: 6 -> -2, o3 = 6 */
  o[5] = __atomic_max_fetch(&o[4], 3, 0);                      /* o4: 3, o5 = 3 */
  o[6] = __atomic_exchange_n(&o[4], 11, 5);                    /* o6 = 3, o4 = 11 */
  o[7] = __atomic_compare_exchange_n(&o[4], &e, 12, false, 5, 5); /* fails: e = 11, o7 = 0 */
  o[8] = e;
  o[9] = __atomic_compare_exchange_n(&o[4], &e, 12, true, 5, 0);  /* succeeds: o4 = 12, o9 = 1 */
  __atomic_store_n(&o[10], __atomic_load_n(&o[4], 2) + 1, 3);  /* o10 = 13 */
  __atomic_load(&o[10], &r, 2); o[11] = r;                     /* 13 */
  __atomic_store(&o[12], &o[20], 3);                           /* 9 */
  __atomic_exchange(&o[12], &e, &o[21], 4); o[13] = o[21];     /* o12 = 11 (e), o13 = 9 */
  int ex = 11;
  o[14] = __atomic_compare_exchange(&o[12], &ex, &o[22], false, 5, 5); /* o12 = 40, 1 */
  u[0] = __atomic_fetch_nand(&u[1], 0xf0u, 0);                /* u1: 0xff -> ~0xf0 = 0xffffff0f, u0 = 0xff */
  u[2] = __atomic_nand_fetch(&u[1], 0xffu, 0);                /* ~(0x0f) = 0xfffffff0 */
  u[3] = __atomic_fetch_max(&u[4], 0x80000000u, 0);           /* unsigned: u4 1 -> 0x80000000, u3 = 1 */
  u[5] = __atomic_and_fetch(&u[4], 0xc0000001u, 0) | __atomic_or_fetch(&u[6], 2u, 0) | __atomic_xor_fetch(&u[7], 1u, 0);
  f[0] = __atomic_fetch_add(&f[1], 1.5f, 0);                   /* f1: 2 -> 3.5, f0 = 2 */
  f[2] = __atomic_sub_fetch(&f[1], 0.25f, 0);                  /* 3.25 */
  f[3] = __atomic_fetch_min(&f[4], -1.0f, 0);                  /* f4: 5 -> -1, f3 = 5 */
  f[5] = __atomic_max_fetch(&f[4], 7.0f, 0);                   /* 7 */
  l[0] = __atomic_fetch_add(&l[1], 0x100000000L, 0);           /* l1: 1 -> 0x100000001 */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
"#;

#[test]
fn values_on_the_cpu_device() {
    for opts in ["", "-O0"] {
        let program = Program::build(VALUES, opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
        let device = Device::cpu();
        let c = device.buffer_from_slice(&[0i32, 100]).expect("c");
        let mut o_init = vec![0i32; 23];
        o_init[1] = 10;
        o_init[4] = 6;
        o_init[20] = 9;
        o_init[22] = 40;
        let o = device.buffer_from_slice(&o_init).expect("o");
        let u = device
            .buffer_from_slice(&[0u32, 0xff, 0, 0, 1, 0, 4, 6])
            .expect("u");
        let f = device
            .buffer_from_slice(&[0.0f32, 2.0, 0.0, 0.0, 5.0, 0.0])
            .expect("f");
        let l = device.buffer_from_slice(&[0i64, 1]).expect("l");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &c)
            .and_then(|k| k.set_arg(1, &o))
            .and_then(|k| k.set_arg(2, &u))
            .and_then(|k| k.set_arg(3, &f))
            .and_then(|k| k.set_arg(4, &l))
            .expect("args");
        device
            .launch(&k, &NdRange::new(&[256]).local(&[64]))
            .expect("launch");
        assert_eq!(c.read::<i32>().expect("c"), vec![256, 100 + 512], "{opts}");
        assert_eq!(
            o.read::<i32>().expect("o"),
            vec![
                10, 4, 4, 6, 12, 3, 3, 0, 11, 1, 13, 13, 40, 9, 1, 0, 0, 0, 0, 0, 9, 9, 40
            ],
            "{opts}"
        );
        assert_eq!(
            u.read::<u32>().expect("u"),
            vec![
                0xff,
                0xffff_fff0,
                0xffff_fff0,
                1,
                0x8000_0000,
                0x8000_0007,
                6,
                7
            ],
            "{opts}"
        );
        assert_eq!(
            f.read::<f32>().expect("f"),
            vec![2.0, 3.25, 3.25, 5.0, 7.0, 7.0],
            "{opts}"
        );
        assert_eq!(
            l.read::<i64>().expect("l"),
            vec![1, 0x1_0000_0001],
            "{opts}"
        );
    }
}

/// `__atomic_is_lock_free` is true for the devices' 4- and 8-byte atomics; clang folds
/// `__atomic_always_lock_free` to false on SPIR (a constant: an array size of -1 here).
#[test]
fn lock_free_queries() {
    let dir = temp_dir("lock-free");
    let src =
        "kernel void k(global int *o) {\n  int a[__atomic_always_lock_free(4, 0) ? 1 : -1];\n}\n";
    let (code, got) = check(&dir, "always", src, &[]);
    assert_eq!(
        (code, got),
        (
            1,
            vec!["always.cl:2:9: error: 'a' declared as an array with a negative size".to_string()]
        )
    );
    let src = "kernel void k(global int *o) {\n  o[0] = __atomic_is_lock_free(4, o) + 2 * __atomic_is_lock_free(8, o)\n    + 4 * __atomic_is_lock_free(2, o) + 8 * __atomic_always_lock_free(4, o);\n}\n";
    let program = Program::build(src, "").expect("build");
    let device = Device::cpu();
    let o = device.buffer_from_slice(&[0i32]).expect("o");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &o).expect("arg");
    device.launch(&k, &NdRange::new(&[1])).expect("launch");
    assert_eq!(o.read::<i32>().expect("o"), vec![3]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `__atomic_test_and_set` and `__atomic_clear` check as clang checks them (prototyped calls
/// on `volatile void *`, in the argument's space); they set one byte, which no device has an
/// atomic for: building reports that at the call.
#[test]
fn test_and_set_checks_but_does_not_build() {
    let dir = temp_dir("tas");
    let src = "kernel void k(global char *c, local int *l) {\n  c[1] = __atomic_test_and_set(c, 5);\n  __atomic_clear(l, 0);\n  __atomic_clear(1, 0);\n}\n";
    let (code, got) = check(&dir, "tas", src, &[]);
    assert_eq!(
        (code, got),
        (
            1,
            vec!["tas.cl:4:18: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'volatile void *' [-Wint-conversion]".to_string()]
        )
    );
    let src = "kernel void k(global char *c) { c[1] = __atomic_test_and_set(c, 5); }";
    let err = match Program::build(src, "") {
        Ok(_) => panic!("built a kernel calling __atomic_test_and_set"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains(
            "`__atomic_test_and_set` is not supported (it sets one byte; atomics are 32 or 64 bits)"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C11 (`__c11_atomic_*`, on `_Atomic` objects) and OpenCL (`__opencl_atomic_*`, with a
/// scope) families under -cl-std=CL2.0: clang-19's diagnostics (its typo correction offers
/// `__opencl_atomic_fetch_and` only once a call declared it), then each form's value.
#[test]
fn c11_and_opencl_families() {
    let dir = temp_dir("c11");
    let src = r#"kernel void k(global atomic_int *a, global int *p, global float *f, global atomic_float *af, int x, const global atomic_int *ca) {
  __opencl_atomic_fetch_add(p, 1, memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_add(a, 1, memory_order_relaxed);
  __c11_atomic_fetch_add(a, 1, memory_order_relaxed, 0);
  __c11_atomic_fetch_add(x, 1, 0);
  __opencl_atomic_fetch_and(af, 1, 0, 1);
  __opencl_atomic_load(a, memory_order_release, memory_scope_device);
  __opencl_atomic_fetch_add(a, 1, 0, 7);
  __opencl_atomic_fetch_add(a, 1, 0, x);
  __c11_atomic_fetch_nand(a, 1, 0);
  __opencl_atomic_fetch_nand(a, 1, 0, 1);
  __opencl_atomic_store(ca, 1, 0, 1);
  __opencl_atomic_init(a, 1);
  __opencl_atomic_compare_exchange_strong(a, p, 1, 0, 0, 1);
  __c11_atomic_compare_exchange_weak(a, p, 1, 0, 3);
  __c11_atomic_thread_fence(0); __c11_atomic_signal_fence(0);
}
"#;
    let want = [
        r#"c11_diags.cl:2:3: error: address argument to atomic operation must be a pointer to _Atomic type ('__global int *' invalid)"#,
        r#"c11_diags.cl:3:55: error: too few arguments to function call, expected 4, have 3"#,
        r#"c11_diags.cl:4:54: error: too many arguments to function call, expected 3, have 4"#,
        r#"c11_diags.cl:5:3: error: address argument to atomic builtin must be a pointer ('int' invalid)"#,
        r#"c11_diags.cl:6:3: error: address argument to atomic operation must be a pointer to atomic integer ('__global atomic_float *' (aka '__global _Atomic(float) *') invalid)"#,
        r#"c11_diags.cl:7:27: warning: memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
        r#"c11_diags.cl:8:38: error: synchronization scope argument to atomic operation is invalid"#,
        r#"c11_diags.cl:11:3: error: use of undeclared identifier '__opencl_atomic_fetch_nand'; did you mean '__opencl_atomic_fetch_and'?"#,
        r#"c11_diags.cl:12:3: error: address argument to atomic operation must be a pointer to non-const _Atomic type ('const __global atomic_int *' (aka 'const __global _Atomic(int) *') invalid)"#,
        r#"c11_diags.cl:15:50: warning: failure memory order argument to atomic operation is invalid [-Watomic-memory-ordering]"#,
    ];
    let (code, got) = check(&dir, "c11_diags", src, &["-cl-std=CL2.0"]);
    assert_eq!((code, got), (1, want.map(str::to_string).to_vec()));
    let _ = std::fs::remove_dir_all(&dir);

    let src = r#"kernel void k(global atomic_int *a, global atomic_uint *u, global atomic_float *f, global int *o) {
  __opencl_atomic_fetch_add(&a[0], 1, memory_order_relaxed, memory_scope_device);
  __c11_atomic_fetch_add(&a[1], 2, memory_order_seq_cst);
  if (get_global_id(0) != 0) return;
  o[0] = __c11_atomic_fetch_sub(&a[2], 3, memory_order_acq_rel);
  o[1] = __opencl_atomic_exchange(&a[2], 20, memory_order_relaxed, memory_scope_work_group);
  int e = 5;
  o[2] = __c11_atomic_compare_exchange_strong(&a[2], &e, 30, memory_order_seq_cst, memory_order_relaxed);
  o[3] = e;
  o[4] = __opencl_atomic_compare_exchange_weak(&a[2], &e, 30, memory_order_seq_cst, memory_order_relaxed, memory_scope_device);
  __opencl_atomic_store(&a[3], 41, memory_order_release, memory_scope_device);
  o[5] = __c11_atomic_load(&a[3], memory_order_acquire);
  __c11_atomic_init(&a[4], 9);
  o[6] = __opencl_atomic_load(&a[4], memory_order_relaxed, memory_scope_device);
  o[7] = __c11_atomic_fetch_nand(&a[5], 6, memory_order_relaxed);
  o[8] = __opencl_atomic_fetch_min(&a[6], -4, memory_order_relaxed, memory_scope_device);
  o[9] = __opencl_atomic_fetch_max(&u[0], 0x80000000u, memory_order_relaxed, memory_scope_device);
  o[10] = __c11_atomic_fetch_or(&u[1], 6u, memory_order_relaxed);
  __c11_atomic_thread_fence(memory_order_seq_cst);
  __c11_atomic_signal_fence(memory_order_seq_cst);
  o[11] = __c11_atomic_is_lock_free(4);
  o[12] = (int)__opencl_atomic_fetch_add(&f[0], 1.5f, memory_order_relaxed, memory_scope_device);
}
"#;
    let program = Program::build(src, "-cl-std=CL2.0").expect("build");
    let device = Device::cpu();
    let a = device
        .buffer_from_slice(&[0i32, 100, 10, 0, 0, 3, 1])
        .expect("a");
    let u = device.buffer_from_slice(&[1u32, 1]).expect("u");
    let f = device.buffer_from_slice(&[2.0f32]).expect("f");
    let o = device.buffer_from_slice(&[0i32; 13]).expect("o");
    let mut k = program.kernel("k").expect("kernel");
    k.set_arg(0, &a)
        .and_then(|k| k.set_arg(1, &u))
        .and_then(|k| k.set_arg(2, &f))
        .and_then(|k| k.set_arg(3, &o))
        .expect("args");
    device
        .launch(&k, &NdRange::new(&[256]).local(&[64]))
        .expect("launch");
    assert_eq!(
        a.read::<i32>().expect("a"),
        vec![256, 612, 30, 41, 9, -3, -4]
    );
    assert_eq!(u.read::<u32>().expect("u"), vec![0x8000_0000, 7]);
    assert_eq!(f.read::<f32>().expect("f"), vec![3.5]);
    assert_eq!(
        o.read::<i32>().expect("o"),
        vec![10, 7, 0, 20, 1, 41, 9, 3, 1, 1, 1, 1, 2]
    );
}

/// GCC's `__sync_*` builtins: clang-19's diagnostics (extra arguments ignored, the typed
/// `__sync_fetch_and_umin`, the `nand` warning), then each one's value with 256 work-items.
#[test]
fn sync_family() {
    let dir = temp_dir("sync");
    let src = r#"struct S { int a; };
kernel void k(global int *p, global struct S *s, const global int *cp, global char *c, global long *l, global int **pp) {
  __sync_fetch_and_nand(p, 1);
  __sync_nand_and_fetch(p, 1);
  __sync_fetch_and_add(p, s);
  __sync_fetch_and_add(cp, 1);
  __sync_fetch_and_add(s, 1);
  __sync_fetch_and_add(c, 1);
  __sync_fetch_and_add(l, 1);
  __sync_fetch_and_add(pp, 1);
  __sync_lock_release(p, 1);
  __sync_lock_release();
  __sync_synchronize(1);
  __sync_val_compare_and_swap(p, 1, 2, 3);
  __sync_fetch_and_add(p, 1.5f);
  __sync_fetch_and_min(p, 1);
  __sync_fetch_and_umin(c, 1);
}
"#;
    let want = [
        r#"sync_diags.cl:2:117: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"#,
        r#"sync_diags.cl:3:29: warning: the semantics of this intrinsic changed with GCC version 4.4 - the newer semantics are provided here [-Wsync-fetch-and-nand-semantics-changed]"#,
        r#"sync_diags.cl:4:29: warning: the semantics of this intrinsic changed with GCC version 4.4 - the newer semantics are provided here [-Wsync-fetch-and-nand-semantics-changed]"#,
        r#"sync_diags.cl:5:27: error: incompatible pointer to integer conversion passing '__global struct S *__private' to parameter of type 'int' [-Wint-conversion]"#,
        r#"sync_diags.cl:6:3: error: address argument to atomic builtin cannot be const-qualified ('const __global int *' invalid)"#,
        r#"sync_diags.cl:7:3: error: address argument to atomic builtin must be a pointer to integer or pointer ('__global struct S *' invalid)"#,
        r#"sync_diags.cl:10:28: error: incompatible integer to pointer conversion passing 'int' to parameter of type '__global int *' [-Wint-conversion]"#,
        r#"sync_diags.cl:12:23: error: too few arguments to function call, expected at least 1, have 0"#,
        r#"sync_diags.cl:13:22: error: too many arguments to function call, expected 0, have 1"#,
        r#"sync_diags.cl:15:27: warning: implicit conversion from 'float' to 'int' changes value from 1.5 to 1 [-Wliteral-conversion]"#,
        r#"sync_diags.cl:17:25: warning: incompatible pointer types passing '__global char *__private' to parameter of type 'volatile __global unsigned int *' [-Wincompatible-pointer-types]"#,
    ];
    let (code, got) = check(&dir, "sync_diags", src, &[]);
    assert_eq!((code, got), (1, want.map(str::to_string).to_vec()));
    let _ = std::fs::remove_dir_all(&dir);

    let src = r#"kernel void k(global int *c, global int *o, global uint *u, global long *l) {
  __sync_fetch_and_add(&c[0], 1);
  __sync_add_and_fetch(&c[1], 2);
  __sync_fetch_and_max(&c[2], (int)get_global_id(0));
  __sync_synchronize();
  if (get_global_id(0) != 0) return;
  o[0] = __sync_fetch_and_sub(&o[1], 3);
  o[2] = __sync_sub_and_fetch(&o[1], 3);
  o[3] = __sync_val_compare_and_swap(&o[4], 6, 7);
  o[5] = __sync_val_compare_and_swap(&o[4], 6, 8);
  o[6] = __sync_bool_compare_and_swap(&o[4], 7, 9);
  o[7] = __sync_lock_test_and_set(&o[8], 5);
  __sync_lock_release(&o[9]);
  o[10] = __sync_swap(&o[8], 11);
  u[0] = __sync_fetch_and_nand(&u[1], 0xf0u);
  u[2] = __sync_or_and_fetch(&u[3], 6u) + __sync_xor_and_fetch(&u[4], 1u) + __sync_and_and_fetch(&u[5], 12u);
  u[6] = __sync_fetch_and_umin(&u[7], 2u);
  l[0] = __sync_fetch_and_add(&l[1], 0x100000000L);
}
"#;
    for opts in ["", "-O0"] {
        let program = Program::build(src, opts).expect("build");
        let device = Device::cpu();
        let c = device.buffer_from_slice(&[0i32, 100, -1]).expect("c");
        let o = device
            .buffer_from_slice(&[0i32, 10, 0, 0, 6, 0, 0, 0, 1, 4, 0])
            .expect("o");
        let u = device
            .buffer_from_slice(&[0u32, 255, 0, 1, 1, 13, 0, 7])
            .expect("u");
        let l = device.buffer_from_slice(&[0i64, 1]).expect("l");
        let mut k = program.kernel("k").expect("kernel");
        k.set_arg(0, &c)
            .and_then(|k| k.set_arg(1, &o))
            .and_then(|k| k.set_arg(2, &u))
            .and_then(|k| k.set_arg(3, &l))
            .expect("args");
        device
            .launch(&k, &NdRange::new(&[256]).local(&[64]))
            .expect("launch");
        assert_eq!(c.read::<i32>().expect("c"), vec![256, 612, 255], "{opts}");
        assert_eq!(
            o.read::<i32>().expect("o"),
            vec![10, 4, 4, 6, 9, 7, 1, 1, 11, 0, 5],
            "{opts}"
        );
        assert_eq!(
            u.read::<u32>().expect("u"),
            vec![255, 0xffff_ff0f, 19, 7, 0, 12, 7, 2],
            "{opts}"
        );
        assert_eq!(
            l.read::<i64>().expect("l"),
            vec![1, 0x1_0000_0001],
            "{opts}"
        );
    }
}
