//! Cross-checks oclc's `-verify` engine against clang's own: for every OpenCL C RUN line of the
//! clang-sema corpus, clang-19's diagnostics (parsed from its text output) are fed to
//! `oclc::verify`, and the result must be byte-identical to what `clang -verify` prints.
//! This tests directive parsing, `#if` handling (through oclc's preprocessor), matching and
//! the report format independently of oclc's own diagnostics. Skipped without clang-19.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::PathBuf;
use std::process::Command;

use oclc::args::parse_check_args;
use oclc::check_source;
use oclc::runlines::verify_configs;
use oclc::warnings::Reported;
use oclc_syntax::{Diagnostic, Level, Note, SourceMap, Span};

fn corpus_dir() -> Option<PathBuf> {
    conformance::dir("clang-sema", "verify_engine_matches_clang")
}

fn clang() -> Option<String> {
    let ok = Command::new("clang-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| "clang-19".to_string())
}

/// The byte offset of 1-based `line`:`col` in `text`.
fn offset(text: &[u8], line: u32, col: u32) -> u32 {
    let mut l = 1;
    let mut off = 0usize;
    for (i, &b) in text.iter().enumerate() {
        if l == line {
            off = i;
            break;
        }
        if b == b'\n' {
            l += 1;
            off = i + 1;
        }
    }
    off as u32 + col.saturating_sub(1)
}

/// Parses clang's text diagnostics into oclc diagnostics located in `sm` (files are added as
/// they are named). "expanded from macro" notes are rendering, not diagnostics, and are
/// dropped; other notes attach to the diagnostic before them.
fn parse_clang(out: &str, sm: &mut SourceMap) -> Vec<Reported> {
    let mut list: Vec<Reported> = Vec::new();
    for line in out.lines() {
        let Some((loc, rest)) = split_loc(line) else {
            continue;
        };
        let (level, msg) = if let Some(m) = rest.strip_prefix("error: ") {
            (Level::Error, m)
        } else if let Some(m) = rest.strip_prefix("fatal error: ") {
            (Level::Fatal, m)
        } else if let Some(m) = rest.strip_prefix("warning: ") {
            (Level::Warning, m)
        } else if let Some(m) = rest.strip_prefix("note: ") {
            (Level::Note, m)
        } else if let Some(m) = rest.strip_prefix("remark: ") {
            (Level::Remark, m)
        } else {
            continue;
        };
        let msg = match msg.rfind(" [-W") {
            Some(i) if msg.ends_with(']') => &msg[..i],
            _ => msg,
        };
        if level == Level::Note && msg.starts_with("expanded from macro") {
            continue;
        }
        let span = match loc {
            Some((file, l, c)) => {
                let known = sm.files().find(|(_, f)| f.name == file).map(|(id, _)| id);
                let fid = match known {
                    Some(id) => id,
                    None => {
                        let bytes = std::fs::read(&file).unwrap_or_default();
                        sm.add_file(file.clone(), &bytes)
                    }
                };
                let text = sm.file(fid).map(|f| f.text.clone());
                let o = offset(text.as_deref().unwrap_or_default(), l, c);
                Span::new(fid, o, o)
            }
            None => Span::DUMMY,
        };
        if level == Level::Note
            && let Some(last) = list.last_mut()
        {
            last.diag.notes.push(Note::new(span, msg));
            continue;
        }
        list.push(Reported {
            diag: Diagnostic::new(level, span, msg),
            option: None,
        });
    }
    list
}

/// File name, line, column.
type Loc = (String, u32, u32);

/// `FILE:LINE:COL: rest` → (Some(location), rest); `error: ...` → (None, line).
fn split_loc(line: &str) -> Option<(Option<Loc>, &str)> {
    for lvl in [
        "error: ",
        "fatal error: ",
        "warning: ",
        "note: ",
        "remark: ",
    ] {
        if line.starts_with(lvl) {
            return Some((None, line));
        }
    }
    let mut parts = line.splitn(4, ':');
    let file = parts.next()?;
    let l: u32 = parts.next()?.parse().ok()?;
    let c: u32 = parts.next()?.parse().ok()?;
    let rest = parts.next()?.strip_prefix(' ')?;
    Some((Some((file.to_string(), l, c)), rest))
}

#[test]
fn verify_engine_matches_clang() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let Some(clang) = clang() else {
        eprintln!("skipping verify_engine_matches_clang: clang-19 not found");
        return;
    };
    let resdir = Command::new(&clang)
        .arg("-print-resource-dir")
        .output()
        .expect("clang runs");
    let resdir = String::from_utf8_lossy(&resdir.stdout).trim().to_string();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "cl"));
    files.sort();
    let (mut same, mut differ) = (0, 0);
    for path in files {
        let bytes = std::fs::read(&path).expect("readable");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = path.to_string_lossy().into_owned();
        for cfg in verify_configs(&text) {
            let plain: Vec<&String> = cfg
                .args
                .iter()
                .filter(|a| !a.starts_with("-verify"))
                .collect();
            let run = |extra: &[String]| {
                let out = Command::new(&clang)
                    .arg("-cc1")
                    .arg("-resource-dir")
                    .arg(&resdir)
                    .args(&plain)
                    .args(extra)
                    .arg(&name)
                    .output()
                    .expect("clang runs");
                String::from_utf8_lossy(&out.stderr).into_owned()
            };
            let diags_out = run(&[]);
            let verify_args: Vec<String> = cfg
                .args
                .iter()
                .filter(|a| a.starts_with("-verify"))
                .cloned()
                .collect();
            let clang_verify = run(&verify_args);

            // oclc: preprocess with the same flags (for skipped #if groups), then verify clang's
            // diagnostics.
            let parsed = parse_check_args(cfg.args.iter().cloned()).expect("RUN flags parse");
            let mut outcome = check_source(&name, &bytes, &parsed.options);
            outcome.diagnostics = parse_clang(&diags_out, &mut outcome.sm);
            let prefixes = parsed.options.verify.clone().expect("-verify");
            let (mine, _) = oclc::cli::verify_text(&outcome, &prefixes);
            if mine == clang_verify {
                same += 1;
            } else {
                differ += 1;
                println!(
                    "DIFFER {} [{}]\n--- clang\n{clang_verify}--- oclc\n{mine}",
                    path.display(),
                    cfg.args.join(" ")
                );
            }
        }
    }
    println!("verify engine vs clang -verify: {same} identical, {differ} different");
    assert_eq!(differ, 0);
}
