//! The `oclc` command: subcommands through clap; `check` flags are clang's and parsed by
//! `oclc::args`.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use oclc::cli::CliOutput;

#[derive(Parser)]
#[command(name = "oclc", version, about = "OpenCL C compiler and kernel runner")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Diagnose OpenCL C source as clang does (`oclc check --help` for the flags)
    #[command(disable_help_flag = true)]
    Check {
        /// clang-style flags and input files ('-' for standard input)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run a kernel described by a run file (TOML) and check its expectations
    Run(oclc::run_cmd::RunArgs),
    /// Time run files: kernel time min and median, bandwidth and verdict per job
    Bench(oclc::bench_cmd::BenchArgs),
    /// Compile to IR (`--emit ir`) or PTX (`--emit ptx`) and print it
    #[command(disable_help_flag = true)]
    Build {
        /// --emit ir|ptx, clang-style flags and one input file ('-' for standard input)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run an OpenCL host program with oclc as its only platform: oclc exec -- PROGRAM ARGS...
    Exec(oclc::exec_cmd::ExecArgs),
    /// Report where generic pointers point (`oclc spaces --help` for the flags)
    #[command(disable_help_flag = true)]
    Spaces {
        /// clang-style flags, --format text|json, -O0, and one input file ('-' for standard input)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let out = match quick_command() {
        Some(out) => out,
        None => match Cli::parse() {
            // The program's output goes straight to the terminal; its status is forwarded.
            Cli {
                command: Command::Exec(args),
            } => {
                let code = oclc::exec_cmd::exec_command(&args);
                return ExitCode::from(u8::try_from(code).unwrap_or(1));
            }
            cli => run(cli),
        },
    };
    // Broken pipes on output are not worth a panic.
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    ExitCode::from(u8::try_from(out.code).unwrap_or(1))
}

/// `oclc check ARGS` and `oclc --version` without building clap's command tree (a
/// measurable share of a small check): clap hands `check` its arguments verbatim, except
/// that it drops a `--`, so any `--` (and any argument that is not UTF-8) goes through clap.
fn quick_command() -> Option<CliOutput> {
    let mut args = std::env::args_os().skip(1);
    let first = args.next()?;
    let rest: Vec<String> = args.map(|a| a.into_string().ok()).collect::<Option<_>>()?;
    match first.to_str()? {
        "--version" | "-V" if rest.is_empty() => Some(CliOutput {
            stdout: format!("oclc {}\n", env!("CARGO_PKG_VERSION")),
            ..Default::default()
        }),
        "check" if !rest.iter().any(|a| a == "--") => {
            Some(oclc::cli::check_command(rest, &mut std::io::stdin()))
        }
        _ => None,
    }
}

/// Runs a command parsed by clap.
fn run(cli: Cli) -> CliOutput {
    match cli.command {
        Command::Check { args } => oclc::cli::check_command(args, &mut std::io::stdin()),
        Command::Run(args) => oclc::run_cmd::run_command(&args),
        Command::Bench(args) => oclc::bench_cmd::bench_command(&args),
        Command::Build { args } => oclc::build_cmd::build_command(args, &mut std::io::stdin()),
        Command::Spaces { args } => oclc::spaces_cmd::spaces_command(args, &mut std::io::stdin()),
        Command::Exec(args) => CliOutput {
            code: oclc::exec_cmd::exec_command(&args),
            ..Default::default()
        },
    }
}
