//! `oclc run JOB.toml`: load the run file, build its program, check the arguments against the
//! kernel's signature, launch on the chosen device, and report each expectation.
//!
//! Exit status follows [`RunStatus`]: 0 all expectations hold, 1 one fails, 2 the program does
//! not build or the run file is rejected, 3 a runtime check stopped the kernel (on the cuda
//! device: the kernel faulted).
//!
//! `--repeat` reports kernel times: from CUDA events on the cuda device, wall-clock time
//! around each launch on the cpu device.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use oclc_lower::{KernelParamKind, KernelSignature as LoweredSignature};

use crate::cli::CliOutput;
use crate::program::{BuildError, BuildOptions, Device, Error, KernelArg, NdRange, Program};
use crate::runfile::{
    BufferSpace, ElemType, KernelSignature, LaunchArg, ParamInfo, ParamKind, Pointee,
    ProgramSource, RunFile, RunStatus, TimingSummary, format_dump, write_npy,
};

/// The flags of `oclc run`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RunArgs {
    /// The run file (TOML)
    pub job: PathBuf,
    /// Device to run on: cpu, or cuda (GPU 0; needs oclc built with --features cuda)
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// Print buffer NAME after the launch (repeatable)
    #[arg(long, value_name = "NAME")]
    pub dump: Vec<String>,
    /// Write every buffer as DIR/NAME.npy after the launch
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Launch N times and print the kernel time (min and median)
    #[arg(long, value_name = "N")]
    pub repeat: Option<usize>,
    /// Run work-groups on N threads (default: every core)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Branches and calls one work-item may take before it is stopped as a runaway loop
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Detect data races on local and global memory between barriers
    #[arg(long)]
    pub races: bool,
    /// Optimization level: -O0 skips the IR passes
    #[arg(short = 'O', value_name = "LEVEL")]
    pub opt: Option<String>,
}

/// Runs `oclc run` with `args`.
pub fn run_command(args: &RunArgs) -> CliOutput {
    let mut out = CliOutput::default();
    let status = run(args, &mut out);
    out.code = i32::from(status.code());
    out
}

fn fail(out: &mut CliOutput, msg: impl std::fmt::Display) -> RunStatus {
    out.stderr.push_str(&format!("oclc: error: {msg}\n"));
    RunStatus::BuildError
}

fn run(args: &RunArgs, out: &mut CliOutput) -> RunStatus {
    let job = match RunFile::load(&args.job) {
        Ok(j) => j,
        Err(e) => {
            out.stderr.push_str(&format!("{e}\n"));
            return RunStatus::BuildError;
        }
    };
    let device = match args.device.as_str() {
        "cpu" => Device::cpu(),
        "cuda" => {
            let cpu_only = [
                ("--threads", args.threads.is_some()),
                ("--max-steps", args.max_steps.is_some()),
                ("--races", args.races),
            ];
            if let Some((flag, _)) = cpu_only.iter().find(|(_, given)| *given) {
                return fail(out, format!("{flag} applies to the cpu device only"));
            }
            match Device::cuda(0) {
                Ok(d) => d,
                Err(e) => return fail(out, e),
            }
        }
        other => {
            return fail(
                out,
                format!("unknown device '{other}' (expected 'cpu' or 'cuda')"),
            );
        }
    };
    let device = device
        .with_threads(args.threads.unwrap_or(0))
        .with_race_detection(args.races);
    let device = match args.max_steps {
        Some(n) => device.with_max_steps(n),
        None => device,
    };
    let optimize = match args.opt.as_deref() {
        None => None,
        Some("0") => Some(false),
        Some("1" | "2" | "3" | "") => Some(true),
        Some(l) => return fail(out, format!("invalid optimization level '-O{l}'")),
    };
    if args.repeat == Some(0) {
        return fail(out, "--repeat must be at least 1");
    }

    let source = match job.source_bytes() {
        Ok(s) => s,
        Err(e) => {
            out.stderr.push_str(&format!("{e}\n"));
            return RunStatus::BuildError;
        }
    };
    let name = match &job.program {
        ProgramSource::File { path, .. } => path.display().to_string(),
        ProgramSource::Inline(_) => format!("{} (code)", job.path.display()),
    };
    let mut opts = match BuildOptions::parse(&job.options) {
        Ok(o) => o,
        Err(e) => return fail(out, format!("{}: options: {e}", job.path.display())),
    };
    if let Some(o) = optimize {
        opts.optimize = o;
    }
    let program = match Program::build_with(&name, &source, &opts) {
        Ok(p) => p,
        Err(BuildError::Compile { log, .. }) => {
            out.stderr.push_str(&log);
            return RunStatus::BuildError;
        }
        Err(e) => return fail(out, e),
    };
    out.stderr.push_str(program.build_log());

    let Some(lowered) = program.signature(&job.kernel) else {
        out.stderr.push_str(&format!(
            "{}\n",
            job.kernel_not_found(&program.kernel_names())
        ));
        return RunStatus::BuildError;
    };
    let launch = match job.prepare(&run_signature(lowered)) {
        Ok(l) => l,
        Err(e) => {
            out.stderr.push_str(&format!("{e}\n"));
            return RunStatus::BuildError;
        }
    };
    for d in &args.dump {
        let is_buffer = launch
            .args
            .iter()
            .any(|a| matches!(a, LaunchArg::Buffer { name, .. } if name == d));
        if !is_buffer {
            return fail(
                out,
                format!(
                    "--dump {d}: kernel '{}' has no buffer argument named '{d}'",
                    job.kernel
                ),
            );
        }
    }

    let mut kernel = match program.kernel(&job.kernel) {
        Ok(k) => k,
        Err(e) => return fail(out, e),
    };
    let mut buffers = Vec::new();
    for (i, a) in launch.args.iter().enumerate() {
        let arg = match a {
            LaunchArg::Buffer { data, .. } => {
                let b = match device.buffer_from_bytes(data) {
                    Ok(b) => b,
                    Err(e) => return fail(out, e),
                };
                buffers.push((i, b.clone()));
                KernelArg::Buffer(b)
            }
            LaunchArg::Local { bytes, .. } => KernelArg::Local(*bytes),
            LaunchArg::Scalar { bytes, .. } => KernelArg::Value(bytes.clone()),
        };
        if let Err(e) = kernel.set_arg(i, arg) {
            return fail(out, e);
        }
    }
    let mut range = NdRange::new(&job.global);
    range.local = job.local.clone();
    range.offset = job.offset.clone();

    let repeat = args.repeat.unwrap_or(1);
    let mut times: Vec<Duration> = Vec::with_capacity(repeat);
    for n in 0..repeat {
        if n > 0 {
            for (i, b) in &buffers {
                if let Some(LaunchArg::Buffer { data, .. }) = launch.args.get(*i)
                    && let Err(e) = b.write_bytes(data)
                {
                    return fail(out, e);
                }
            }
        }
        let start = Instant::now();
        let r = device.launch(&kernel, &range);
        let wall = start.elapsed();
        match r {
            Ok(o) => times.push(o.kernel_time.unwrap_or(wall)),
            Err(Error::Runtime(fault)) => {
                out.stderr.push_str(&fault.rendered);
                return RunStatus::RuntimeCheck;
            }
            Err(e @ Error::Fault { .. }) => {
                fail(out, e);
                return RunStatus::RuntimeCheck;
            }
            Err(e) => return fail(out, e),
        }
    }

    let mut contents = Vec::with_capacity(buffers.len());
    for (i, b) in &buffers {
        match b.read_bytes() {
            Ok(bytes) => contents.push((*i, bytes)),
            Err(e) => return fail(out, e),
        }
    }
    let mut outcomes = Vec::new();
    for e in &launch.expectations {
        let got = contents
            .iter()
            .find(|(i, _)| *i == e.param_index)
            .map(|(_, b)| b.as_slice())
            .unwrap_or_default();
        let o = e.check(got);
        out.stdout.push_str(&format!("{o}\n"));
        outcomes.push(o);
    }
    for d in &args.dump {
        for (i, b) in &contents {
            if let Some(LaunchArg::Buffer {
                name, elem, len, ..
            }) = launch.args.get(*i)
                && name == d
            {
                out.stdout.push_str(&format_dump(name, *elem, *len, b));
            }
        }
    }
    if let Some(dir) = &args.save {
        for (i, b) in &contents {
            if let Some(LaunchArg::Buffer {
                name, elem, len, ..
            }) = launch.args.get(*i)
                && let Err(e) = write_npy(dir, name, *elem, *len, b)
            {
                return fail(
                    out,
                    format!(
                        "--save: cannot write '{name}.npy' in '{}': {e}",
                        dir.display()
                    ),
                );
            }
        }
    }
    if args.repeat.is_some()
        && let Some(t) = TimingSummary::new(&times)
    {
        out.stdout.push_str(&format!("{t}\n"));
    }
    RunStatus::from_outcomes(&outcomes)
}

/// The run-file view of a kernel's signature.
pub fn run_signature(sig: &LoweredSignature) -> KernelSignature {
    use oclc_ir::AddrSpace;
    let elem_of = |e: &oclc_lower::ElemDesc| ElemType::parse(&e.name());
    KernelSignature {
        name: sig.name.clone(),
        params: sig
            .params
            .iter()
            .map(|p| {
                let kind = match &p.kind {
                    KernelParamKind::Pointer {
                        space,
                        pointee,
                        pointee_size,
                    } => {
                        let pointee = Pointee {
                            elem: pointee.as_ref().and_then(elem_of),
                            size: *pointee_size as usize,
                        };
                        match space {
                            AddrSpace::Global => ParamKind::Buffer {
                                space: BufferSpace::Global,
                                pointee,
                            },
                            AddrSpace::Constant => ParamKind::Buffer {
                                space: BufferSpace::Constant,
                                pointee,
                            },
                            AddrSpace::Local => ParamKind::LocalPtr { pointee },
                            AddrSpace::Private | AddrSpace::Generic => ParamKind::Unsupported,
                        }
                    }
                    KernelParamKind::Value { elem, .. } => match elem_of(elem) {
                        Some(elem) => ParamKind::Scalar { elem },
                        None => ParamKind::Unsupported,
                    },
                    KernelParamKind::Aggregate { .. } | KernelParamKind::Other => {
                        ParamKind::Unsupported
                    }
                };
                ParamInfo {
                    name: p.name.clone(),
                    ty: p.c_type.clone(),
                    kind,
                }
            })
            .collect(),
    }
}
