//! The OpenCL-CTS generic_address_space corpus through the `oclc` library: every launch in
//! ../shared/conformance/cts-generic/manifest.toml on the cpu device, with the IR passes and
//! again with `-O0`; each must pass the CTS check, and both runs must leave the same bytes.
//!
//! Sizes follow the manifest: `max_common` is the largest divisor of the global size that is
//! at most 256; `wg` (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) is 32. The device has
//! fp64 and fp16, so every launch builds with them enabled. `library_function` is the library
//! source followed by the kernel source. SVM subcases use a plain global buffer with buf[i] = i.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::PathBuf;

use oclc::{Device, KernelArg, NdRange, Program};
use rayon::prelude::*;
use toml::Value;

/// The device's preferred work-group size multiple, as the atomics tests read it.
const WG: u64 = 32;
/// What the device reports as its largest work-group for these kernels.
const MAX_GROUP: u64 = 256;
/// The extensions a device with double and half reports.
const EXTENSIONS: &str = "-cl-ext=+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_fp16";

/// The corpus: `OCLC_CTS_DIR` when set (a GPU machine without ../shared), else the shared copy.
fn cts_dir() -> PathBuf {
    match std::env::var_os("OCLC_CTS_DIR") {
        Some(d) => PathBuf::from(d),
        None => conformance::root().join("cts-generic"),
    }
}

/// One launch: where it comes from and how to run and check it.
struct Launch {
    name: String,
    source: String,
    file: String,
    options: String,
    global: u64,
    local: u64,
    args: Vec<Arg>,
    check: Check,
}

enum Arg {
    /// A `__global` buffer of `bytes` bytes; `iota` fills it with uint i at element i.
    Buffer {
        bytes: usize,
        iota: bool,
    },
    Local {
        bytes: usize,
    },
}

enum Check {
    /// The `results` buffer (argument 0): every uint is 1.
    AllOnes,
    /// generic_atomics_invariant: int i is wg - 1 for even i, wg for odd i.
    Invariant,
    /// generic_atomics_variant: every int is wg / 2.
    Variant,
}

fn get<'a>(sub: &'a Value, test: &'a Value, key: &str) -> Option<&'a Value> {
    sub.get(key).or_else(|| test.get(key))
}

fn size(v: Option<&Value>) -> Result<u64, String> {
    match v {
        Some(Value::Integer(n)) => u64::try_from(*n).map_err(|e| e.to_string()),
        Some(Value::String(s)) if s == "2 * wg" => Ok(2 * WG),
        Some(Value::String(s)) if s == "wg" => Ok(WG),
        other => Err(format!("unexpected size {other:?}")),
    }
}

fn max_common(global: u64) -> u64 {
    (1..=MAX_GROUP.min(global))
        .rev()
        .find(|d| global.is_multiple_of(*d))
        .unwrap_or(1)
}

fn launches() -> Result<Vec<Launch>, String> {
    let dir = cts_dir();
    let text = std::fs::read_to_string(dir.join("manifest.toml")).map_err(|e| e.to_string())?;
    let manifest: Value = toml::from_str(&text).map_err(|e| e.to_string())?;
    let tests = manifest
        .get("tests")
        .and_then(Value::as_table)
        .ok_or("manifest has no [tests]")?;
    let mut out = Vec::new();
    for (name, test) in tests {
        let subs = test
            .get("subcases")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{name}: no subcases"))?;
        for (i, sub) in subs.iter().enumerate() {
            let file = get(sub, test, "file")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{name}: no file"))?;
            let mut source = String::new();
            if let Some(lib) = get(sub, test, "library_file").and_then(Value::as_str) {
                source += &std::fs::read_to_string(dir.join(lib)).map_err(|e| e.to_string())?;
                source.push('\n');
            }
            source += &std::fs::read_to_string(dir.join(file)).map_err(|e| e.to_string())?;
            let options = get(sub, test, "build_options")
                .and_then(Value::as_str)
                .unwrap_or("-cl-std=CL3.0");
            let global = size(get(sub, test, "global_size"))?;
            let local = match get(sub, test, "local_size").and_then(Value::as_str) {
                Some("max_common") => max_common(global),
                Some("wg") => WG,
                other => return Err(format!("{name}: local_size {other:?}")),
            };
            let mut args = Vec::new();
            for a in get(sub, test, "args")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{name}: no args"))?
            {
                let bytes = a
                    .get("size_bytes")
                    .and_then(Value::as_integer)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| format!("{name}: arg without size_bytes"))?;
                args.push(match a.get("kind").and_then(Value::as_str) {
                    Some("buffer") => Arg::Buffer {
                        bytes,
                        iota: a.get("init").and_then(Value::as_str) == Some("iota"),
                    },
                    Some("local") => Arg::Local { bytes },
                    other => return Err(format!("{name}: arg kind {other:?}")),
                });
            }
            let check = match name.as_str() {
                "generic_atomics_invariant" => Check::Invariant,
                "generic_atomics_variant" => Check::Variant,
                _ => Check::AllOnes,
            };
            let label = sub.get("label").and_then(Value::as_str).unwrap_or("");
            out.push(Launch {
                name: format!("{name} #{} {label}", i + 1),
                source,
                file: file.to_string(),
                options: format!("{options} {EXTENSIONS}"),
                global,
                local,
                args,
                check,
            });
        }
    }
    Ok(out)
}

/// Builds and runs one launch; returns the bytes of every buffer after it.
fn run(device: &Device, l: &Launch, extra: &str) -> Result<Vec<Vec<u8>>, String> {
    let program = Program::build_named(
        &l.file,
        l.source.as_bytes(),
        &format!("{} {extra}", l.options),
    )
    .map_err(|e| format!("build: {e}"))?;
    let mut kernel = program.kernel("testKernel").map_err(|e| e.to_string())?;
    let mut buffers = Vec::new();
    for (i, a) in l.args.iter().enumerate() {
        let arg = match a {
            Arg::Buffer { bytes, iota } => {
                let b = if *iota {
                    let v: Vec<u32> = (0..(*bytes / 4) as u32).collect();
                    device.buffer_from_slice(&v)
                } else {
                    device.buffer_from_bytes(&vec![0; *bytes])
                }
                .map_err(|e| e.to_string())?;
                buffers.push(b.clone());
                KernelArg::Buffer(b)
            }
            Arg::Local { bytes } => KernelArg::Local(*bytes),
        };
        kernel.set_arg(i, arg).map_err(|e| e.to_string())?;
    }
    device
        .launch(&kernel, &NdRange::new(&[l.global]).local(&[l.local]))
        .map_err(|e| format!("launch: {e}"))?;
    buffers
        .iter()
        .map(|b| b.read_bytes().map_err(|e| format!("read: {e}")))
        .collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The CTS verdict on the buffers after the launch.
fn verdict(l: &Launch, buffers: &[Vec<u8>]) -> Result<(), String> {
    let first = words(buffers.first().ok_or("no buffer")?);
    let want = |i: usize| match l.check {
        Check::AllOnes => 1,
        Check::Invariant if i.is_multiple_of(2) => WG as u32 - 1,
        Check::Invariant => WG as u32,
        Check::Variant => WG as u32 / 2,
    };
    let bad: Vec<usize> = (0..first.len()).filter(|&i| first[i] != want(i)).collect();
    match bad.first() {
        None => Ok(()),
        Some(&i) => Err(format!(
            "{} of {} elements wrong; first [{i}] = {}, want {}",
            bad.len(),
            first.len(),
            first[i],
            want(i)
        )),
    }
}

/// About 1000 launches of 16384 work-items: minutes in an unoptimized build, seconds in release.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow unoptimized; run with: cargo test --release -p oclc --test run_cts"
)]
fn cts_generic_address_space_on_the_cpu_device() {
    if !cts_dir().exists() {
        conformance::missing(&cts_dir(), "cts_generic_address_space_on_the_cpu_device");
        return;
    }
    let all = match launches() {
        Ok(l) => l,
        Err(e) => panic!("cannot read the CTS manifest: {e}"),
    };
    assert!(
        all.len() >= 490,
        "only {} launches in the manifest",
        all.len()
    );
    let failures: Vec<String> = all
        .par_iter()
        .map_init(
            || Device::cpu().with_printf_echo(false),
            |device, l| {
                let result = run(device, l, "").and_then(|opt| {
                    verdict(l, &opt)?;
                    let o0 = run(device, l, "-O0").map_err(|e| format!("-O0: {e}"))?;
                    if o0 != opt {
                        return Err("-O0 leaves different buffer contents".into());
                    }
                    Ok(())
                });
                result
                    .err()
                    .map(|e| format!("{} ({}): {e}", l.name, l.file))
            },
        )
        .flatten()
        .collect();
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "{} passed, {} failed",
        all.len() - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} CTS launches failed",
        failures.len()
    );
}

/// Every launch on the native back end and on the interpreter (with the IR passes and with
/// `-O0`): the same bytes in every buffer, and most launches really ran natively.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow unoptimized; run with: cargo test --release -p oclc --test run_cts"
)]
fn cts_native_matches_interpreter() {
    if !cts_dir().exists() {
        conformance::missing(&cts_dir(), "cts_native_matches_interpreter");
        return;
    }
    let all = match launches() {
        Ok(l) => l,
        Err(e) => panic!("cannot read the CTS manifest: {e}"),
    };
    // Plain threads, not rayon's: a rayon worker waiting for a launch's work-groups runs
    // other launches meanwhile, whose native launches the thread-local count would then add
    // to this one's.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = all.len().div_ceil(threads).max(1);
    let results: Vec<(u64, Option<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = all
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let native = Device::cpu().with_printf_echo(false);
                    let interp = Device::cpu_interp().with_printf_echo(false);
                    part.iter()
                        .map(|l| {
                            let mut ran_native = 0;
                            let mut err = None;
                            for extra in ["", "-O0"] {
                                let before = oclc_cpu::native_launches();
                                let got = run(&native, l, extra);
                                ran_native += oclc_cpu::native_launches() - before;
                                let want = run(&interp, l, extra);
                                if got != want {
                                    err = Some(format!(
                                        "{} ({}) {extra}: native and interpreted runs differ",
                                        l.name, l.file
                                    ));
                                }
                            }
                            (ran_native, err)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a CTS worker panicked"))
            .collect()
    });
    let native: u64 = results.iter().map(|r| r.0).sum();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.1.as_ref()).collect();
    for f in &failures {
        println!("FAIL {f}");
    }
    println!("{} launches ran natively of {}", native, 2 * all.len());
    assert!(
        failures.is_empty(),
        "{} CTS launches differ",
        failures.len()
    );
    assert!(
        native as usize >= all.len(),
        "only {native} of {} launches ran natively",
        2 * all.len()
    );
}

/// Every launch on the cuda device: the CTS verdict, and the same bytes as the cpu device.
/// Skips (with the reason) where oclc was built without `cuda` or no driver/GPU is present.
#[test]
fn cts_generic_address_space_on_the_cuda_device() {
    let gpu = match Device::cuda(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping the CTS on the cuda device: {e}");
            return;
        }
    };
    let all = match launches() {
        Ok(l) => l,
        Err(e) => panic!("cannot read the CTS manifest: {e}"),
    };
    let cpu = Device::cpu().with_printf_echo(false);
    let mut failures = Vec::new();
    for l in &all {
        let result = run(&gpu, l, "").and_then(|got| {
            verdict(l, &got)?;
            let want = run(&cpu, l, "").map_err(|e| format!("cpu: {e}"))?;
            if want != got {
                return Err("the cuda device leaves different bytes from the cpu device".into());
            }
            Ok(())
        });
        if let Err(e) = result {
            failures.push(format!("{} ({}): {e}", l.name, l.file));
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "CTS on the cuda device: {} passed, {} failed of {}",
        all.len() - failures.len(),
        failures.len(),
        all.len()
    );
    assert!(
        failures.is_empty(),
        "{} CTS launches failed on the GPU",
        failures.len()
    );
}
