//! Runs the CTS generic-address-space corpus (`../shared/conformance/cts-generic`) through
//! the front end, lowering and the cpu device, for the standard "every result is 1" checks.
//! A development probe of the device; the project's conformance runner lives in `oclc`.
//! `cargo run --release -p oclc-cpu --example cts_probe [DIR] [FILTER]`

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
use std::path::Path;

fn compile(path: &Path) -> Result<(oclc_ir::Module, SourceMap), String> {
    let src = std::fs::read(path).map_err(|e| e.to_string())?;
    let lang = LangOptions::new(ClStd::Cl30);
    let mut sm = SourceMap::new();
    let main = sm.add_file(path.display().to_string(), &src);
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    let first = |sm: &SourceMap, diags: &Diagnostics| {
        diags
            .list
            .iter()
            .find(|d| d.level >= oclc_syntax::Level::Error)
            .map(|d| match sm.location(d.span) {
                Some((_, l, c)) => format!("{l}:{c}: {}", d.message),
                None => d.message.clone(),
            })
            .unwrap_or_default()
    };
    if diags.has_errors() {
        return Err(format!("front end: {}", first(&sm, &diags)));
    }
    match oclc_lower::lower(&program, &sm, &mut diags) {
        Some(m) => Ok((m, sm)),
        None => Err(format!("lowering: {}", first(&sm, &diags))),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "../shared/conformance/cts-generic".into());
    let filter = args
        .get(2)
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_default();
    let dir = Path::new(&dir);
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.toml")) else {
        eprintln!("no manifest in {}", dir.display());
        return;
    };
    let Ok(manifest) = text.parse::<toml::Table>() else {
        eprintln!("bad manifest");
        return;
    };
    let races = args.iter().any(|a| a == "--races");
    let dev = Device::cpu()
        .with_printf_echo(false)
        .with_race_detection(races);
    let (mut pass, mut fail) = (0, 0);
    let tests = manifest
        .get("tests")
        .and_then(|t| t.as_table())
        .cloned()
        .unwrap_or_default();
    for (name, t) in &tests {
        let Some(check) = t.get("check").and_then(|c| c.as_str()) else {
            continue;
        };
        if !check.contains("every element == 1") || !name.contains(&filter) {
            continue;
        }
        let kernel = t
            .get("kernel")
            .and_then(|k| k.as_str())
            .unwrap_or("testKernel")
            .to_string();
        let targs = t
            .get("args")
            .and_then(|a| a.as_array())
            .cloned()
            .unwrap_or_default();
        for sc in t
            .get("subcases")
            .and_then(|s| s.as_array())
            .cloned()
            .unwrap_or_default()
        {
            let Some(file) = sc.get("file").and_then(|f| f.as_str()) else {
                continue;
            };
            let label = format!("{name}/{file}");
            let global = sc
                .get("global_size")
                .or(t.get("global_size"))
                .and_then(|g| g.as_integer())
                .unwrap_or(16384) as u64;
            let local = (1..=1024u64)
                .rev()
                .find(|d| global.is_multiple_of(*d))
                .unwrap_or(1);
            let result = (|| -> Result<(), String> {
                let (m, sm) = compile(&dir.join(file))?;
                let prog = dev.load(m).map_err(|e| e.to_string())?;
                let mut bufs = Vec::new();
                let mut kargs = Vec::new();
                let sargs = sc.get("args").and_then(|a| a.as_array()).cloned();
                for a in sargs.as_ref().unwrap_or(&targs) {
                    match a.get("kind").and_then(|k| k.as_str()) {
                        Some("buffer") => {
                            let n = a
                                .get("size_bytes")
                                .and_then(|s| s.as_integer())
                                .unwrap_or(0) as usize;
                            let b = Buffer::zeroed(n);
                            if a.get("init").and_then(|i| i.as_str()) == Some("iota") {
                                let words: Vec<u8> =
                                    (0..n as u32 / 4).flat_map(|i| i.to_le_bytes()).collect();
                                b.write(&words);
                            }
                            bufs.push(b.clone());
                            kargs.push(Arg::Buffer(b));
                        }
                        Some("local") => {
                            let n = a
                                .get("size_bytes")
                                .and_then(|s| s.as_integer())
                                .unwrap_or(4) as usize;
                            kargs.push(Arg::Local(n));
                        }
                        k => return Err(format!("unsupported arg kind {k:?}")),
                    }
                }
                dev.launch(
                    &prog,
                    &kernel,
                    &kargs,
                    &NdRange::new(&[global]).local(&[local]),
                )
                .map_err(|e| match e {
                    oclc_cpu::DeviceError::Runtime(r) => {
                        let at = sm
                            .location(r.span)
                            .map(|(_, l, c)| format!("{l}:{c}"))
                            .unwrap_or_default();
                        format!("runtime error at {at}: {} ({})", r.message, r.ids())
                    }
                    e => e.to_string(),
                })?;
                let res = bufs.first().map(|b| b.read()).unwrap_or_default();
                let words: Vec<u32> = res
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let bad = words.iter().filter(|w| **w != 1).count();
                if bad > 0 {
                    let first = words.iter().position(|w| *w != 1).unwrap_or(0);
                    return Err(format!(
                        "{bad} of {} results are not 1 (first: [{first}] = {})",
                        words.len(),
                        words[first]
                    ));
                }
                Ok(())
            })();
            match result {
                Ok(()) => pass += 1,
                Err(e) => {
                    fail += 1;
                    println!("FAIL {label}: {e}");
                }
            }
        }
    }
    println!("{pass} passed, {fail} failed");
}
