//! `oclc check` as a function from arguments to output text and exit status, so the binary is
//! a thin wrapper and the behaviour is testable in-process.

use std::io::Read;

use oclc_syntax::Level;
use rayon::prelude::*;

use crate::args::{CHECK_HELP, CheckArgs, Format, parse_check_args};
use crate::check::{CheckOutcome, check_on_this_thread, check_source};
use crate::json;
use crate::render::{self, TextRenderer};

/// What a command prints and its exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CliOutput {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Stack size of checker threads (see [`crate::check::FRONT_END_STACK_SIZE`]).
pub const CHECK_STACK_SIZE: usize = crate::check::FRONT_END_STACK_SIZE;

/// Runs `oclc check ARGS`. `stdin` is read when a file is `-`.
pub fn check_command(args: Vec<String>, stdin: &mut dyn Read) -> CliOutput {
    let mut parsed = match parse_check_args(args) {
        Ok(p) => p,
        Err(e) => {
            return CliOutput {
                stderr: format!("oclc: error: {e}\n"),
                code: 1,
                ..Default::default()
            };
        }
    };
    if parsed.help {
        return CliOutput {
            stdout: CHECK_HELP.to_string(),
            ..Default::default()
        };
    }
    // With no device to check for, check for 32-bit SPIR, as clang's OpenCL tests do
    // (`-triple spir-unknown-unknown`): `size_t` is `unsigned int`. `-triple spir64` checks
    // for the 64-bit devices that `oclc run` targets.
    if !parsed.target_given {
        parsed.options.lang.target = oclc_syntax::Target::Spir;
    }
    let mut out = CliOutput::default();
    for e in &parsed.ignored_extensions {
        out.stderr.push_str(&format!(
            "oclc: warning: ignoring unknown OpenCL extension or feature '{e}' in -cl-ext\n"
        ));
    }
    if parsed.files.is_empty() {
        out.stderr.push_str("oclc: error: no input files\n");
        out.code = 1;
        return out;
    }

    let limit = match oclc_syntax::source::max_source_bytes_from_env() {
        Ok(l) => l,
        Err(e) => {
            out.stderr.push_str(&format!("oclc: error: {e}\n"));
            out.code = 1;
            return out;
        }
    };
    // Read inputs first (stdin once), then check them in parallel.
    let mut inputs: Vec<Result<(String, Vec<u8>), String>> = Vec::new();
    let mut stdin_read: Option<Result<(String, Vec<u8>), String>> = None;
    for f in &parsed.files {
        if f == "-" {
            let read = stdin_read.get_or_insert_with(|| read_input(f, stdin, limit));
            inputs.push(read.clone());
        } else {
            inputs.push(read_input(f, stdin, limit));
        }
    }

    // One input: the process exits after it (see `check_one`'s `leak`).
    parsed.options.leak_syntax_tree = inputs.len() == 1;
    parsed.options.diagnostics_only = true;
    let results: Vec<FileResult> = run_parallel(&parsed, &inputs);
    let mut json_parts = Vec::new();
    for r in results {
        match r {
            FileResult::Unreadable(msg) => {
                out.stderr.push_str(&format!("oclc: error: {msg}\n"));
                out.code = 1;
            }
            FileResult::Text { text, failed } => {
                // The one file's text becomes the output as it is (no copy).
                if out.stderr.is_empty() {
                    out.stderr = text;
                } else {
                    out.stderr.push_str(&text);
                }
                if failed {
                    out.code = 1;
                }
            }
            FileResult::Json { diags, failed } => {
                json_parts.push(diags);
                if failed {
                    out.code = 1;
                }
            }
        }
    }
    if parsed.format == Format::Json && parsed.options.verify.is_none() {
        let report = json::report(json_parts);
        match serde_json::to_string_pretty(&report) {
            Ok(s) => {
                out.stdout.push_str(&s);
                out.stdout.push('\n');
            }
            Err(e) => {
                out.stderr
                    .push_str(&format!("oclc: error: cannot write JSON: {e}\n"));
                out.code = 1;
            }
        }
    }
    out
}

/// Reads one input of a command, `file` or (for `-`) standard input, named `<stdin>`: at most
/// `limit` bytes (the source limit); the message of the error otherwise.
pub(crate) fn read_input(
    file: &str,
    stdin: &mut dyn Read,
    limit: u64,
) -> Result<(String, Vec<u8>), String> {
    use oclc_syntax::source::{ReadSourceError, read_source, read_source_from};
    if file == "-" {
        return read_source_from(stdin, limit, 0)
            .map(|b| ("<stdin>".to_string(), b))
            .map_err(|e| e.message("standard input"));
    }
    match read_source(std::path::Path::new(file), limit) {
        Ok(b) => Ok((file.to_string(), b)),
        Err(ReadSourceError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("no such file or directory: '{file}'"))
        }
        Err(e) => Err(e.message(&format!("'{file}'"))),
    }
}

enum FileResult {
    Unreadable(String),
    Text {
        text: String,
        failed: bool,
    },
    Json {
        diags: Vec<json::JsonDiagnostic>,
        failed: bool,
    },
}

fn run_parallel(
    parsed: &CheckArgs,
    inputs: &[Result<(String, Vec<u8>), String>],
) -> Vec<FileResult> {
    // One input: no pool; `check_source` decides whether it needs a large-stack thread.
    if let [input] = inputs {
        return vec![check_one(parsed, input, check_source, true)];
    }
    let work = || -> Vec<FileResult> {
        inputs
            .par_iter()
            .map(|input| check_one(parsed, input, check_on_this_thread, false))
            .collect()
    };
    match rayon::ThreadPoolBuilder::new()
        .stack_size(CHECK_STACK_SIZE)
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => inputs
            .iter()
            .map(|input| check_one(parsed, input, check_source, false))
            .collect(),
    }
}

/// How one file is checked: [`check_source`] or (on a pool thread with a large stack)
/// [`check_on_this_thread`].
type CheckFn = fn(&str, &[u8], &crate::check::CheckOptions) -> CheckOutcome;

fn check_one(
    parsed: &CheckArgs,
    input: &Result<(String, Vec<u8>), String>,
    check: CheckFn,
    leak: bool,
) -> FileResult {
    let (name, bytes) = match input {
        Ok(x) => x,
        Err(msg) => return FileResult::Unreadable(msg.clone()),
    };
    let outcome = check(name, bytes, &parsed.options);
    let result = if let Some(prefixes) = &parsed.options.verify {
        let (text, failed) = verify_text(&outcome, prefixes);
        FileResult::Text { text, failed }
    } else {
        let failed = outcome.has_errors();
        match parsed.format {
            Format::Text => FileResult::Text {
                text: outcome.render_text(),
                failed,
            },
            Format::Json => FileResult::Json {
                diags: json::diagnostics(&outcome.sm, &outcome.diagnostics),
                failed,
            },
        }
    };
    if leak {
        // The process exits right after printing: freeing a big AST and program one node at
        // a time would only cost time (a tenth of a second on a 100 000-line file).
        std::mem::forget(outcome);
    }
    result
}

/// clang's `-verify` output: one `error:` per mismatch block and the summary line.
pub fn verify_text(outcome: &CheckOutcome, prefixes: &[String]) -> (String, bool) {
    let report = outcome.verify(prefixes);
    let mut r = TextRenderer::new(&outcome.sm);
    for e in &report.messages {
        r.emit_plain(Level::Error, e);
    }
    let mut text = r.finish();
    if let Some(s) = render::summary(report.problems, 0) {
        text.push_str(&s);
        text.push('\n');
    }
    (text, !report.passed())
}
