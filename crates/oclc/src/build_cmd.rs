//! `oclc build --emit ir|ptx [FLAGS] FILE`: compile one file and print the IR after the passes
//! (before them with `-O0`), or the PTX the cuda device loads.

use crate::cli::CliOutput;
use crate::program::{BuildError, BuildOptions, Program};

/// What `oclc build` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Ir,
    Ptx,
}

/// The PTX targets `--target=` accepts: those of the `.version 7.8` PTX the emitter writes
/// (sm_90a needs PTX 8.0) whose atomics (`atom.relaxed`, `fence.sc`) need sm_70 or later.
pub const PTX_TARGETS: &[&str] = &[
    "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
];

/// `oclc build --help`.
pub const BUILD_HELP: &str = "\
Usage: oclc build --emit ir|ptx [FLAGS] FILE

Compiles FILE ('-' for standard input) and prints the IR after the passes (before them with
-O0 or -cl-opt-disable), or PTX (--emit ptx; --target=sm_XY picks the PTX target, default
sm_80: one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90; --checks emits the
checked PTX that 'oclc run --device cuda --checks' runs). FLAGS are those of 'oclc check'
(-cl-std=, -D, -U, -I, -W...) and OpenCL build options (-cl-mad-enable, -cl-fast-relaxed-math, ...).

Exit status: 0 on success, 1 on errors.
";

/// Runs `oclc build ARGS`.
pub fn build_command(args: Vec<String>, stdin: &mut dyn std::io::Read) -> CliOutput {
    let mut out = CliOutput::default();
    let error = |out: &mut CliOutput, msg: String| {
        out.stderr.push_str(&format!("oclc: error: {msg}\n"));
        out.code = 1;
    };
    let mut emit = Emit::Ir;
    let mut target = oclc_ptx::PtxOptions::default().target;
    let mut checks = false;
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let value = if a == "--emit" {
            match it.next() {
                Some(v) => Some(v),
                None => {
                    error(
                        &mut out,
                        "argument to '--emit' is missing (expected ir or ptx)".into(),
                    );
                    return out;
                }
            }
        } else {
            a.strip_prefix("--emit=").map(str::to_string)
        };
        match value.as_deref() {
            Some("ir") => emit = Emit::Ir,
            Some("ptx") => emit = Emit::Ptx,
            Some(v) => {
                error(
                    &mut out,
                    format!("invalid value '{v}' in '--emit' (expected ir or ptx)"),
                );
                return out;
            }
            None if a == "--checks" => checks = true,
            None if a == "--help" || a == "-h" => {
                out.stdout.push_str(BUILD_HELP);
                return out;
            }
            None if a == "--target" || a.starts_with("--target=") => {
                let v = match a.strip_prefix("--target=") {
                    Some(v) => v.to_string(),
                    None => match it.next() {
                        Some(v) => v,
                        None => {
                            error(
                                &mut out,
                                "argument to '--target' is missing (expected 1 value)".into(),
                            );
                            return out;
                        }
                    },
                };
                if PTX_TARGETS.contains(&v.as_str()) {
                    target = v;
                } else if oclc_syntax::Target::parse(&v).is_some() {
                    // A spir triple, as `oclc check` takes it.
                    rest.push(format!("--target={v}"));
                } else {
                    error(
                        &mut out,
                        format!(
                            "invalid value '{v}' in '--target={v}' (expected a PTX target: {}; \
                             or spir-unknown-unknown, spir64-unknown-unknown)",
                            PTX_TARGETS.join(", ")
                        ),
                    );
                    return out;
                }
            }
            None => rest.push(a),
        }
    }
    let (opts, files) = match BuildOptions::parse_args(rest) {
        Ok(x) => x,
        Err(e) => {
            error(&mut out, e.to_string());
            return out;
        }
    };
    let file = match files.as_slice() {
        [f] => f.clone(),
        [] => {
            error(&mut out, "no input files".into());
            return out;
        }
        _ => {
            error(&mut out, "oclc build takes one input file".into());
            return out;
        }
    };
    let read = oclc_syntax::source::max_source_bytes_from_env()
        .and_then(|limit| crate::cli::read_input(&file, stdin, limit));
    let (name, bytes) = match read {
        Ok(x) => x,
        Err(e) => {
            error(&mut out, e);
            return out;
        }
    };
    match Program::build_with(&name, &bytes, &opts) {
        Ok(p) => {
            out.stderr.push_str(p.build_log());
            match emit {
                Emit::Ir => out.stdout.push_str(&p.ir_text()),
                Emit::Ptx => match p.ptx_text_with(&target, opts.fast_math, checks) {
                    Ok(text) => out.stdout.push_str(&text),
                    Err(BuildError::Compile { log, .. }) => {
                        out.stderr.push_str(&log);
                        out.code = 1;
                    }
                    Err(e) => error(&mut out, e.to_string()),
                },
            }
        }
        Err(BuildError::Compile { log, .. }) => {
            out.stderr.push_str(&log);
            out.code = 1;
        }
        Err(e) => error(&mut out, e.to_string()),
    }
    out
}
