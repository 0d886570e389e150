//! The OpenCL CTS generic-address-space launches (../shared/conformance/cts-generic) lowered
//! and run on the cpu device: every launch of manifest.toml, checked as the CTS checks it.
//! Prints `N passed, M failed`.

mod common;
#[path = "../../../test-support/conformance.rs"]
mod conformance;

use std::path::PathBuf;

use common::*;
use oclc_cpu::{Arg, Buffer, NdRange};
use oclc_lower::LowerOptions;
use toml::Value;

/// The device's `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` for the atomics tests.
const WG: u64 = 32;
/// The device's maximum work-group size (for `local_size = "max_common"`).
const MAX_WG: u64 = 256;

fn cts_dir() -> PathBuf {
    conformance::root().join("cts-generic")
}

/// A launch of the manifest.
struct Launch {
    name: String,
    source: String,
    kernel: String,
    std: String,
    global: u64,
    local: u64,
    args: Vec<Value>,
    check: Check,
}

enum Check {
    /// Every uint of arg 0 is 1.
    AllOnes,
    /// `generic_atomics_invariant`: `[wg - 1, wg]`.
    Invariant,
    /// `generic_atomics_variant`: every int is `wg / 2`.
    Variant,
}

fn size_of(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Integer(i) => u64::try_from(*i).ok(),
        Value::String(s) if s == "2 * wg" => Some(2 * WG),
        Value::String(s) if s == "wg" => Some(WG),
        _ => None,
    }
}

/// The largest divisor of `global` not above [`MAX_WG`].
fn max_common(global: u64) -> u64 {
    (1..=MAX_WG.min(global))
        .rev()
        .find(|d| global.is_multiple_of(*d))
        .unwrap_or(1)
}

fn launches() -> Vec<Launch> {
    let dir = cts_dir();
    let text = std::fs::read_to_string(dir.join("manifest.toml")).expect("manifest.toml");
    let m: Value = toml::from_str(&text).expect("manifest parses");
    let mut out = Vec::new();
    let tests = m.get("tests").and_then(Value::as_table).expect("[tests]");
    for (tname, t) in tests {
        let subcases = t
            .get("subcases")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for sc in subcases {
            let get = |k: &str| sc.get(k).or_else(|| t.get(k));
            let file = get("file").and_then(Value::as_str).expect("file");
            let mut source = String::new();
            if let Some(lib) = get("library_file").and_then(Value::as_str) {
                source.push_str(&std::fs::read_to_string(dir.join(lib)).expect("library"));
                source.push('\n');
            }
            source.push_str(&std::fs::read_to_string(dir.join(file)).expect("kernel source"));
            let global = size_of(get("global_size")).expect("global_size");
            let local = match get("local_size") {
                Some(Value::String(s)) if s == "max_common" => max_common(global),
                other => size_of(other).unwrap_or_else(|| max_common(global)),
            };
            let std = get("build_options")
                .and_then(Value::as_str)
                .and_then(|o| {
                    o.split_whitespace()
                        .find_map(|w| w.strip_prefix("-cl-std="))
                })
                .unwrap_or("CL3.0")
                .to_string();
            let check = match tname.as_str() {
                "generic_atomics_invariant" => Check::Invariant,
                "generic_atomics_variant" => Check::Variant,
                _ => Check::AllOnes,
            };
            let label = sc
                .get("label")
                .and_then(Value::as_str)
                .map_or_else(|| file.to_string(), |l| format!("{file} ({l})"));
            out.push(Launch {
                name: format!("{tname}: {label}"),
                source,
                kernel: get("kernel")
                    .and_then(Value::as_str)
                    .unwrap_or("testKernel")
                    .to_string(),
                std,
                global,
                local,
                args: get("args")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
                check,
            });
        }
    }
    out
}

/// Runs one launch; `Err` says why it failed.
fn run_launch(l: &Launch) -> Result<(), String> {
    let c = compile_opts(&l.source, &l.std, LowerOptions::default()).map_err(|e| {
        format!(
            "build: {}",
            e.lines().take(3).collect::<Vec<_>>().join(" | ")
        )
    })?;
    let dev = device();
    let prog = dev.load(c.module).map_err(|e| format!("load: {e}"))?;
    let mut args = Vec::new();
    let mut first_buf = None;
    for a in &l.args {
        let kind = a.get("kind").and_then(Value::as_str).unwrap_or("buffer");
        let size = a
            .get("size_bytes")
            .and_then(Value::as_integer)
            .and_then(|i| usize::try_from(i).ok())
            .unwrap_or(0);
        match kind {
            "local" => args.push(Arg::Local(size)),
            _ => {
                let init = a.get("init").and_then(Value::as_str).unwrap_or("none");
                let bytes: Vec<u8> = match init {
                    "zero" => vec![0; size],
                    "iota" => (0..size / 4)
                        .flat_map(|i| (i as u32).to_le_bytes())
                        .collect(),
                    // Never written by the host: a pattern that is not 1, so a kernel that
                    // skips its store cannot pass.
                    _ => vec![0xA5; size],
                };
                let b = Buffer::from_bytes(&bytes);
                if first_buf.is_none() {
                    first_buf = Some(b.clone());
                }
                args.push(Arg::Buffer(b));
            }
        }
    }
    let nd = NdRange::new(&[l.global]).local(&[l.local]);
    dev.launch(&prog, &l.kernel, &args, &nd)
        .map_err(|e| format!("run: {e}"))?;
    let out = u32s(&first_buf.ok_or("no buffer argument")?.read());
    let (want, what): (Vec<u32>, &str) = match l.check {
        Check::AllOnes => (vec![1; out.len()], "every result 1"),
        Check::Invariant => (vec![WG as u32 - 1, WG as u32], "[wg - 1, wg]"),
        Check::Variant => (vec![WG as u32 / 2; out.len()], "every result wg / 2"),
    };
    if out != want {
        let bad = out.iter().zip(&want).filter(|(a, b)| a != b).count();
        let first = out.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!(
            "wrong results: {bad} of {} differ from {what}; first at {first}: {}",
            out.len(),
            out.get(first).copied().unwrap_or(0)
        ));
    }
    Ok(())
}

#[test]
fn cts_generic_address_space() {
    if conformance::dir("cts-generic", "cts_generic_address_space").is_none() {
        return;
    }
    let filter = std::env::var("CTS_FILTER").unwrap_or_default();
    let all = launches();
    assert_eq!(all.len(), 494, "the manifest lists 494 launches");
    // Unoptimized builds interpret about 20x slower: there, the two big generated tests
    // (gentype, builtin_functions) run every 8th launch unless CTS_ALL is set. Optimized
    // builds (`cargo test --release`) always run all 494.
    let everything = !cfg!(debug_assertions) || std::env::var_os("CTS_ALL").is_some();
    let selected: Vec<&Launch> = all
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            let big = l.name.starts_with("builtin_functions")
                || l.name.starts_with("generic_variable_gentype");
            everything || !big || i % 8 == 0
        })
        .map(|(_, l)| l)
        .filter(|l| l.name.contains(&filter))
        .collect();
    if selected.len() < all.len() {
        println!(
            "running {} of {} launches (unoptimized build; use --release or CTS_ALL=1 for all)",
            selected.len(),
            all.len()
        );
    }
    let mut passed = 0;
    let mut failed = Vec::new();
    for l in selected {
        match run_launch(l) {
            Ok(()) => passed += 1,
            Err(e) => failed.push(format!("{}: {e}", l.name)),
        }
    }
    for f in &failed {
        println!("FAIL {f}");
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{} CTS launches failed", failed.len());
}
