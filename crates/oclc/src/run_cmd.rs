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
use crate::program::{
    Buffer, BuildError, BuildOptions, Device, Error, KernelArg, NdRange, Program,
};
use crate::runfile::{
    BufferSpace, ElemType, KernelSignature, LaunchArg, ParamInfo, ParamKind, Pointee,
    ProgramSource, RunFile, RunFileError, RunStatus, TimingSummary, ValueSpec, format_dump,
    write_npy_from,
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
    /// Run work-groups on N threads (default: every core; at most the available cores)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Branches and calls one work-item may take before it is stopped as a runaway loop
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Detect data races on local and global memory between barriers
    #[arg(long)]
    pub races: bool,
    /// Check every access and barrier on the cuda device, reporting faults as the cpu
    /// device does (which always checks)
    #[arg(long)]
    pub checks: bool,
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
        "cpu-interp" => Device::cpu_interp(),
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
    if let Some(n) = args.threads {
        let cores = oclc_cpu::available_cores();
        if n > cores {
            out.stderr.push_str(&format!(
                "oclc: note: --threads {n} capped at {cores} (available cores)\n"
            ));
        }
    }
    let device = device
        .with_threads(args.threads.unwrap_or(0))
        .with_race_detection(args.races)
        .with_checks(args.checks);
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
    // Where an argument's errors point: its entry in the run file.
    let arg_error = |name: &str, message: String| {
        RunFileError::new(
            &job.path,
            job.arg(name).and_then(|a| a.at),
            format!("args.{name}"),
            message,
        )
    };
    let mut buffers = Vec::new();
    for (i, a) in launch.args.iter().enumerate() {
        let arg = match a {
            LaunchArg::Buffer { name, .. } => {
                let b = match make_buffer(&device, a) {
                    Ok(b) => b,
                    Err(e) => {
                        out.stderr.push_str(&format!("{}\n", arg_error(name, e)));
                        return RunStatus::BuildError;
                    }
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
                if let Some(a) = launch.args.get(*i)
                    && let Err(e) = fill_buffer(b, a)
                {
                    out.stderr
                        .push_str(&format!("{}\n", arg_error(a.name(), e)));
                    return RunStatus::BuildError;
                }
            }
        }
        let start = Instant::now();
        let r = device.launch(&kernel, &range);
        let wall = start.elapsed();
        let cut = |out: &mut CliOutput| {
            let limit = oclc_cpu::printf::buffer_size_from_env().unwrap_or_default();
            let msg = oclc_cpu::printf::cut_message(&job.kernel, limit);
            out.stderr.push_str(&format!("oclc: warning: {msg}\n"));
        };
        match r {
            Ok(o) => {
                if o.printf_truncated {
                    cut(out);
                }
                times.push(o.kernel_time.unwrap_or(wall))
            }
            Err(Error::Runtime(fault)) => {
                if fault.printf_truncated {
                    cut(out);
                }
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

    let view_of = |i: usize| -> Result<BufferView, String> {
        let b = buffers
            .iter()
            .find(|(k, _)| *k == i)
            .map(|(_, b)| b)
            .ok_or("no such buffer")?;
        BufferView::of(b).map_err(|e| e.to_string())
    };
    let mut outcomes = Vec::new();
    for e in &launch.expectations {
        let checked = view_of(e.param_index)
            .and_then(|v| e.check_with(|off, out: &mut [u8]| v.read(off, out)));
        match checked {
            Ok(o) => {
                out.stdout.push_str(&format!("{o}\n"));
                outcomes.push(o);
            }
            Err(m) => return fail(out, format!("expect.{}: {m}", e.name)),
        }
    }
    for d in &args.dump {
        for (i, a) in launch.args.iter().enumerate() {
            if let LaunchArg::Buffer {
                name, elem, len, ..
            } = a
                && name == d
            {
                match view_of(i).and_then(|v| v.bytes()) {
                    Ok(b) => out.stdout.push_str(&format_dump(name, *elem, *len, &b)),
                    Err(m) => return fail(out, format!("--dump {name}: {m}")),
                }
            }
        }
    }
    if let Some(dir) = &args.save {
        for (i, a) in launch.args.iter().enumerate() {
            let LaunchArg::Buffer {
                name, elem, len, ..
            } = a
            else {
                continue;
            };
            let view = match view_of(i) {
                Ok(v) => v,
                Err(m) => return fail(out, format!("--save: {name}: {m}")),
            };
            if let Err(e) = write_npy_from(dir, name, *elem, *len, |off, o| view.read(off, o)) {
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

/// A device buffer holding buffer argument `arg`'s initial contents. On the cpu device the
/// contents are generated (or read from their file) piece by piece straight into device
/// memory, so a buffer is held once; the cuda device uploads them from one host copy.
/// Errors are messages for the argument's entry.
pub(crate) fn make_buffer(device: &Device, arg: &LaunchArg) -> Result<Buffer, String> {
    let LaunchArg::Buffer {
        elem, len, init, ..
    } = arg
    else {
        return Err("not a buffer argument".into());
    };
    if device.is_cuda() {
        let bytes = init.materialize(*elem, *len)?;
        return device.buffer_from_bytes(&bytes).map_err(|e| e.to_string());
    }
    let b = device
        .buffer::<u8>(arg.buffer_bytes())
        .map_err(|e| e.to_string())?;
    if *init != ValueSpec::Zero {
        fill_buffer(&b, arg)?;
    }
    Ok(b)
}

/// Writes buffer argument `arg`'s initial contents into `buffer` again (before a repeated
/// launch), piece by piece on the cpu device.
pub(crate) fn fill_buffer(buffer: &Buffer, arg: &LaunchArg) -> Result<(), String> {
    let LaunchArg::Buffer {
        elem, len, init, ..
    } = arg
    else {
        return Err("not a buffer argument".into());
    };
    match buffer.cpu() {
        Some(cpu) => init.for_each_chunk(*elem, *len, |off, piece| {
            if cpu.write_at(off, piece) {
                Ok(())
            } else {
                Err(format!(
                    "{} bytes at {off} do not fit the buffer of {} bytes",
                    piece.len(),
                    cpu.len()
                ))
            }
        }),
        None => {
            let bytes = init.materialize(*elem, *len)?;
            buffer.write_bytes(&bytes).map_err(|e| e.to_string())
        }
    }
}

/// A buffer's contents after a launch, for expectations, `--dump` and `--save`: the cpu
/// device's buffer read in place, piece by piece; the cuda device's read once into the host.
pub(crate) enum BufferView {
    Cpu(oclc_cpu::Buffer),
    Host(Vec<u8>),
}

impl BufferView {
    pub(crate) fn of(b: &Buffer) -> Result<BufferView, Error> {
        match b.cpu() {
            Some(c) => Ok(BufferView::Cpu(c.clone())),
            None => b.read_bytes().map(BufferView::Host),
        }
    }

    /// Copies the bytes at `off` into `out`; returns how many there were.
    pub(crate) fn read(&self, off: usize, out: &mut [u8]) -> Result<usize, String> {
        match self {
            BufferView::Cpu(b) => {
                let n = out.len().min(b.len().saturating_sub(off));
                if n > 0 && !b.read_at(off, &mut out[..n]) {
                    return Err(format!("cannot read {n} bytes at {off}"));
                }
                Ok(n)
            }
            BufferView::Host(h) => {
                let avail = h.get(off..).unwrap_or_default();
                let n = avail.len().min(out.len());
                out[..n].copy_from_slice(&avail[..n]);
                Ok(n)
            }
        }
    }

    /// Every byte (a copy, for `--dump` and `--save`; an error when the host has no room).
    pub(crate) fn bytes(self) -> Result<Vec<u8>, String> {
        match self {
            BufferView::Cpu(b) => b.try_read().map_err(|e| e.to_string()),
            BufferView::Host(h) => Ok(h),
        }
    }
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
                    KernelParamKind::Aggregate { .. }
                    | KernelParamKind::Image { .. }
                    | KernelParamKind::Sampler
                    | KernelParamKind::Other => ParamKind::Unsupported,
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
