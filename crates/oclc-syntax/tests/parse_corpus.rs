//! Parses the shared conformance corpora: every CTS kernel must parse with no diagnostics in
//! the modes clang accepts it in, and clang's SemaOpenCL tests must parse without panics and
//! with no parse errors beyond those the files expect.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::{Path, PathBuf};

use oclc_syntax::lang::{ClStd, LangOptions};
use oclc_syntax::parse::{dump, parse};
use oclc_syntax::pp::{MacroArg, PpOptions, preprocess};
use oclc_syntax::{Diagnostics, SourceMap};

fn corpus(sub: &str) -> Option<PathBuf> {
    conformance::dir(sub, "parse_corpus")
}

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            cl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cl") {
            out.push(p);
        }
    }
    out.sort();
}

/// Preprocesses and parses `path`; returns (preprocessor diagnostics, parser diagnostics).
fn run(
    path: &Path,
    lang: &LangOptions,
    macros: &[MacroArg],
) -> (Vec<String>, Vec<String>, oclc_syntax::ast::TranslationUnit) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let mut sm = SourceMap::new();
    let f = sm.add_file(path.display().to_string(), &bytes);
    let opts = PpOptions {
        lang: lang.clone(),
        macros: macros.to_vec(),
        ..PpOptions::default()
    };
    let mut d = Diagnostics::default();
    let out = preprocess(&mut sm, f, &opts, &mut d);
    let show = |d: &oclc_syntax::Diagnostic| {
        let (file, l, c) = sm.location(d.span).unwrap_or(("?", 0, 0));
        format!("{file}:{l}:{c}: {}: {}", d.level.as_str(), d.message)
    };
    let pp: Vec<String> = d.list.iter().map(show).collect();
    let mut pd = Diagnostics::default();
    let tu = parse(&out, &sm, lang, &mut pd);
    // clang's `-pedantic`-only extensions are not reported in these runs.
    let pedantic = [
        "extra-semi",
        "gnu-empty-struct",
        "c23-extensions",
        "empty-translation-unit",
    ];
    let parsed: Vec<String> = pd
        .list
        .iter()
        .filter(|x| !x.group.is_some_and(|g| pedantic.contains(&g)))
        .map(show)
        .collect();
    (pp, parsed, tu)
}

#[test]
fn cts_kernels_parse_cleanly() {
    let Some(dir) = corpus("cts-generic") else {
        return;
    };
    let mut files = Vec::new();
    cl_files(&dir, &mut files);
    assert!(files.len() > 100, "only {} kernels found", files.len());
    let mut cl30 = LangOptions::new(ClStd::Cl30);
    assert!(cl30.apply_cl_ext("+all").is_ok());
    let cl20 = LangOptions::new(ClStd::Cl20);
    let mut failures = Vec::new();
    for f in &files {
        for lang in [&cl30, &cl20] {
            let (_, parsed, tu) = run(f, lang, &[]);
            if !parsed.is_empty() {
                failures.push(format!("{:?}: {}", lang.std, parsed.join("\n")));
            }
            assert!(!tu.items.is_empty(), "{} parsed to nothing", f.display());
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Parse errors clang's tests expect (the files are about sema; these few are syntax).
fn expected_parse_errors(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.contains("expected-error")
                && (l.contains("does not support the")
                    || l.contains("{{expected ")
                    || l.contains("unknown type name"))
        })
        .count()
}

/// The OpenCL C configurations of a file's RUN lines: language options and `-D` macros.
fn run_configs(text: &str) -> Vec<(LangOptions, Vec<MacroArg>)> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("// RUN:"))
    {
        if line.contains("clc++") || !line.contains("%clang_cc1") {
            continue;
        }
        let mut std = ClStd::Cl12;
        let mut exts = Vec::new();
        let mut macros = Vec::new();
        for w in line.split_whitespace() {
            if let Some(v) = w.strip_prefix("-cl-std=") {
                std = ClStd::parse(v).unwrap_or(ClStd::Cl12);
            } else if let Some(v) = w.strip_prefix("-cl-ext=") {
                exts.push(v.to_string());
            } else if let Some(v) = w.strip_prefix("-D") {
                let (n, val) = v.split_once('=').unwrap_or((v, "1"));
                macros.push(MacroArg::Define(n.to_string(), val.to_string()));
            }
        }
        let mut lang = LangOptions::new(std);
        for e in &exts {
            assert!(lang.apply_cl_ext(e).is_ok(), "{e}");
        }
        out.push((lang, macros));
    }
    out
}

#[test]
fn clang_sema_tests_parse() {
    let Some(dir) = corpus("clang-sema") else {
        return;
    };
    let mut files = Vec::new();
    cl_files(&dir, &mut files);
    assert!(files.len() >= 20);
    let mut configs_run = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let allowed = expected_parse_errors(&text);
        for (lang, macros) in run_configs(&text) {
            configs_run += 1;
            let (_, parsed, tu) = run(f, &lang, &macros);
            let errors: Vec<&String> = parsed.iter().filter(|d| d.contains(" error: ")).collect();
            assert!(
                errors.len() <= allowed,
                "{} in {:?}: unexpected parse errors:\n{}",
                f.display(),
                lang.std,
                parsed.join("\n")
            );
            // features.cl is preprocessor checks only; every other file declares things.
            if !f.ends_with("features.cl") {
                assert!(!tu.items.is_empty(), "{} parsed to nothing", f.display());
                assert!(!dump(&tu).is_empty());
            }
        }
    }
    assert!(configs_run >= 40, "{configs_run}");
}
