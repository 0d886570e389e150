//! Every kernel of the CTS generic-address-space corpus through the front end, lowering and
//! the passes: the module verifies, and each `testKernel(global uint *results)` launch gives
//! the same results with and without the passes (all ones, the CTS's pass condition, where
//! the unoptimized run already gets them). Prints the generic accesses left over the corpus.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
mod passes_util;

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::passes::{PassOptions, run_default};
use oclc_ir::*;
use oclc_lower::lower;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
use std::path::{Path, PathBuf};

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "cl") {
            out.push(p);
        }
    }
}

fn compile(src: &str) -> Option<Module> {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("k.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    if diags.has_errors() {
        return None;
    }
    lower(&program, &sm, &mut diags)
}

fn run(m: Module, n: usize) -> Option<Vec<u8>> {
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let prog = dev.load(m).ok()?;
    let results = Buffer::zeroed(n * 4);
    dev.launch(
        &prog,
        "testKernel",
        &[Arg::Buffer(results.clone())],
        &NdRange::new(&[n as u64]).local(&[64]),
    )
    .ok()?;
    Some(results.read())
}

#[test]
fn cts_kernels_verify_and_keep_their_results() {
    let mut files = Vec::new();
    let Some(dir) = conformance::dir("cts-generic", "cts_kernels_verify_and_keep_their_results")
    else {
        return;
    };
    cl_files(&dir, &mut files);
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    let (mut compiled, mut launched, mut all_ones) = (0, 0, 0);
    let (mut before, mut after) = (0usize, 0usize);
    let mut failures = Vec::new();
    // With PASSES_COUNTS=FILE set, one line per file: path, generic accesses before, after.
    let mut counts = String::new();
    for path in &files {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Some(m) = compile(&src) else { continue };
        compiled += 1;
        let mut opt = m.clone();
        let r = run_default(&mut opt, &PassOptions::default());
        if !r.verify_errors.is_empty() {
            failures.push(format!("{}: {:?}", path.display(), r.verify_errors));
            continue;
        }
        if let Err(e) = verify_module(&opt) {
            failures.push(format!("{}: {e:?}", path.display()));
            continue;
        }
        let b: usize = r.spaces.kernels.iter().map(|k| k.before).sum();
        let a: usize = r.spaces.kernels.iter().map(|k| k.after).sum();
        before += b;
        after += a;
        counts += &format!("{}\t{b}\t{a}\n", path.display());
        let single_results_param = m
            .function_by_name("testKernel")
            .and_then(|id| m.function(id))
            .is_some_and(|f| f.params.len() == 1);
        if !single_results_param {
            continue;
        }
        let n = 256;
        let plain = run(m, n);
        let fast = run(opt, n);
        launched += 1;
        if plain != fast {
            failures.push(format!(
                "{}: results differ with the passes",
                path.display()
            ));
        }
        if fast
            .as_ref()
            .is_some_and(|b| b.chunks(4).all(|c| c == [1, 0, 0, 0]))
        {
            all_ones += 1;
        }
    }
    if let Ok(out) = std::env::var("PASSES_COUNTS") {
        std::fs::write(&out, &counts).expect("writes the counts");
    }
    eprintln!(
        "CTS corpus: {} files, {compiled} compiled, {launched} launched ({all_ones} all ones); \
         generic accesses {before} -> {after}",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compiled > 400, "only {compiled} CTS files compiled");
    // 805 -> 0 when written (6 without space versioning).
    assert!(after * 10 < before, "{before} -> {after}");
}
