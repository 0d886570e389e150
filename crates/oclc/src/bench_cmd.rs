//! `oclc bench JOB.toml... --device cpu|cuda --repeat N`: runs each job once to warm up and
//! then N times, and prints one table row per job: kernel time min and median, achieved
//! bandwidth and the verdict of the job's expectations after the last launch.
//!
//! Bandwidth rule: the bytes of every buffer argument of the job (each counted once, as if
//! each buffer were read or written exactly once) divided by the median kernel time. For a
//! copy this is bytes read plus bytes written, the figure `cuMemcpyDtoD` is quoted with.
//!
//! Kernel time: CUDA events around the launch on the cuda device; wall-clock time around the
//! launch on the cpu device. Two ways to repeat (`--cache`):
//! - `warm` (default), as `clrun` and most OpenCL benchmarks time: the N launches follow each
//!   other on the state the previous launch left (caches included); then the buffers get their
//!   initial contents back and one more, untimed launch produces the results that are checked,
//!   so jobs that accumulate (atomics into a histogram) stay checkable.
//! - `cold`: before every timed launch the buffers get their initial contents back and, on the
//!   cuda device, 128 MiB are copied through the L2 cache to evict them; the last timed
//!   launch's results are checked. Slower, and closer to a kernel's first run.
//!
//! With `--device cuda` a last row times `cuMemcpyDtoD` of the largest buffer, the bandwidth
//! reference for copy kernels.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use crate::cli::CliOutput;
use crate::program::{BuildError, BuildOptions, Device, Error, KernelArg, NdRange, Program};
use crate::run_cmd::{BufferView, fill_buffer, make_buffer, run_signature};
use crate::runfile::{ExpectOutcome, Launch, LaunchArg, RunFile, TimingSummary};

/// The flags of `oclc bench`.
#[derive(clap::Args, Clone, Debug)]
pub struct BenchArgs {
    /// The run files (TOML)
    #[arg(required = true)]
    pub jobs: Vec<PathBuf>,
    /// Device to run on: cpu, or cuda
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// Timed launches per job (after one warm-up launch)
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub repeat: usize,
    /// warm: launches back to back, as clrun times them; cold: buffers reset and (cuda) the
    /// L2 cache evicted before every timed launch
    #[arg(long, value_name = "MODE", default_value = "warm", value_parser = ["warm", "cold"])]
    pub cache: String,
    /// Check every access and barrier on the cuda device (the cpu device always checks)
    #[arg(long)]
    pub checks: bool,
}

/// How the timed launches of a job follow each other (the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMode {
    Warm,
    Cold,
}

/// Timings and verdict of one job.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    pub job: String,
    pub timing: TimingSummary,
    /// Bytes of the job's buffer arguments (the bandwidth rule in the module docs).
    pub bytes: u64,
    /// `None` when the job has no expectations.
    pub passed: Option<bool>,
}

impl BenchRow {
    /// Bytes over the median time, in GB/s (10^9 bytes per second).
    pub fn bandwidth_gbs(&self) -> f64 {
        bandwidth_gbs(self.bytes, self.timing.median)
    }
}

fn bandwidth_gbs(bytes: u64, t: Duration) -> f64 {
    let s = t.as_secs_f64();
    if s > 0.0 { bytes as f64 / s / 1e9 } else { 0.0 }
}

/// Runs `oclc bench` with `args`: exit 0 when every job ran and its expectations hold, 1 when
/// one failed its expectations, 2 when one could not be built or run.
pub fn bench_command(args: &BenchArgs) -> CliOutput {
    let mut out = CliOutput::default();
    if args.repeat == 0 {
        out.stderr
            .push_str("oclc: error: --repeat must be at least 1\n");
        out.code = 2;
        return out;
    }
    let mode = if args.cache == "cold" {
        CacheMode::Cold
    } else {
        CacheMode::Warm
    };
    let device = match BenchDevice::new(&args.device, args.checks) {
        Ok(d) => d,
        Err(e) => {
            out.stderr.push_str(&format!("oclc: error: {e}\n"));
            out.code = 2;
            return out;
        }
    };
    let mut rows = Vec::new();
    let mut code = 0;
    let mut largest = 0usize;
    for path in &args.jobs {
        match bench_job(&device, path, args.repeat, mode) {
            Ok((row, biggest)) => {
                if row.passed == Some(false) {
                    code = code.max(1);
                }
                largest = largest.max(biggest);
                rows.push(row);
            }
            Err(msg) => {
                out.stderr
                    .push_str(&format!("oclc: error: {}: {msg}\n", path.display()));
                code = 2;
            }
        }
    }
    let reference = match device.copy_reference(largest, args.repeat) {
        Ok(r) => r,
        Err(e) => {
            out.stderr.push_str(&format!("oclc: error: {e}\n"));
            code = 2;
            None
        }
    };
    out.stdout
        .push_str(&format_table(&rows, reference.as_ref()));
    out.code = code;
    out
}

/// The table `oclc bench` prints: one row per job, then the `cuMemcpyDtoD` reference if any.
pub fn format_table(rows: &[BenchRow], reference: Option<&BenchRow>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<28} {:>12} {:>12} {:>10} {:>8}",
        "job", "min_us", "median_us", "GB/s", "verdict"
    );
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    for r in rows.iter().chain(reference) {
        let verdict = match r.passed {
            Some(true) => "ok",
            Some(false) => "FAIL",
            None => "-",
        };
        let _ = writeln!(
            s,
            "{:<28} {:>12.1} {:>12.1} {:>10.3} {:>8}",
            r.job,
            us(r.timing.min),
            us(r.timing.median),
            r.bandwidth_gbs(),
            verdict
        );
    }
    s
}

/// The job's name in the table: the run file's stem.
fn job_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Builds and runs one job; also returns its largest buffer's size.
fn bench_job(
    device: &BenchDevice,
    path: &std::path::Path,
    repeat: usize,
    mode: CacheMode,
) -> Result<(BenchRow, usize), String> {
    let job = RunFile::load(path).map_err(|e| e.to_string())?;
    let source = job.source_bytes().map_err(|e| e.to_string())?;
    let opts = BuildOptions::parse(&job.options).map_err(|e| format!("options: {e}"))?;
    let program = match Program::build_with(&path.display().to_string(), &source, &opts) {
        Ok(p) => p,
        Err(BuildError::Compile { log, .. }) => return Err(format!("does not build:\n{log}")),
        Err(e) => return Err(e.to_string()),
    };
    let Some(lowered) = program.signature(&job.kernel) else {
        return Err(job.kernel_not_found(&program.kernel_names()).to_string());
    };
    let launch = job
        .prepare(&run_signature(lowered))
        .map_err(|e| e.to_string())?;
    let mut range = NdRange::new(&job.global);
    range.local = job.local.clone();
    range.offset = job.offset.clone();

    let (times, contents) =
        device.run(&program, &opts, &job.kernel, &launch, &range, repeat, mode)?;
    let timing = TimingSummary::new(&times).ok_or("no launches")?;
    let mut bytes = 0u64;
    let mut largest = 0usize;
    for a in &launch.args {
        bytes += a.buffer_bytes() as u64;
        largest = largest.max(a.buffer_bytes());
    }
    let mut outcomes: Vec<ExpectOutcome> = Vec::new();
    for e in &launch.expectations {
        let view = contents
            .iter()
            .find(|(i, _)| *i == e.param_index)
            .map(|(_, v)| v)
            .ok_or_else(|| format!("expect.{}: no such buffer", e.name))?;
        let o = e
            .check_with(|off, out: &mut [u8]| view.read(off, out))
            .map_err(|m| format!("expect.{}: {m}", e.name))?;
        outcomes.push(o);
    }
    let passed = (!outcomes.is_empty()).then(|| outcomes.iter().all(ExpectOutcome::passed));
    Ok((
        BenchRow {
            job: job_name(path),
            timing,
            bytes,
            passed,
        },
        largest,
    ))
}

/// The device a bench runs on. The cuda device is driven through `oclc_ptx::cuda` directly,
/// because its launches report kernel time measured with CUDA events.
enum BenchDevice {
    Cpu(Device),
    #[cfg(feature = "cuda")]
    Cuda(oclc_ptx::cuda::CudaDevice),
}

/// Buffer contents after the last launch, by parameter index.
type Contents = Vec<(usize, BufferView)>;

impl BenchDevice {
    fn new(name: &str, checks: bool) -> Result<BenchDevice, String> {
        let _ = checks;
        match name {
            "cpu" => Ok(BenchDevice::Cpu(Device::cpu().with_printf_echo(false))),
            "cpu-interp" => Ok(BenchDevice::Cpu(
                Device::cpu_interp().with_printf_echo(false),
            )),
            #[cfg(feature = "cuda")]
            "cuda" => oclc_ptx::cuda::CudaDevice::new(0)
                .map(|d| {
                    if checks {
                        d.set_checks(true);
                    }
                    // Kernel time as OpenCL's profiling counters give it: the GPU is busy when
                    // the start event is recorded, so host submission latency is not counted.
                    d.set_pace(PACE_US);
                    BenchDevice::Cuda(d)
                })
                .map_err(|e| e.to_string()),
            #[cfg(not(feature = "cuda"))]
            "cuda" => Err(
                "the cuda device is not in this build of oclc (build with --features cuda)".into(),
            ),
            other => Err(format!(
                "unknown device '{other}' (expected 'cpu' or 'cuda')"
            )),
        }
    }

    /// Launches once to warm up, then `repeat` timed times as `mode` says (module docs).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        program: &Program,
        opts: &BuildOptions,
        kernel: &str,
        launch: &Launch,
        range: &NdRange,
        repeat: usize,
        mode: CacheMode,
    ) -> Result<(Vec<Duration>, Contents), String> {
        let _ = opts;
        match self {
            BenchDevice::Cpu(device) => {
                run_cpu(device, program, kernel, launch, range, repeat, mode)
            }
            #[cfg(feature = "cuda")]
            BenchDevice::Cuda(device) => {
                run_cuda(device, program, opts, kernel, launch, range, repeat, mode)
            }
        }
    }

    /// `cuMemcpyDtoD` of `bytes` bytes timed `repeat` times (after a warm-up), on the cuda
    /// device; `None` on the cpu device or with no buffers.
    fn copy_reference(&self, bytes: usize, repeat: usize) -> Result<Option<BenchRow>, String> {
        match self {
            BenchDevice::Cpu(_) => {
                let _ = (bytes, repeat);
                Ok(None)
            }
            #[cfg(feature = "cuda")]
            BenchDevice::Cuda(device) => {
                if bytes == 0 {
                    return Ok(None);
                }
                let e = |e: oclc_ptx::cuda::CudaError| e.to_string();
                let src = device.zeroed(bytes).map_err(e)?;
                let dst = device.zeroed(bytes).map_err(e)?;
                device.copy(&src, &dst).map_err(e)?;
                let mut times = Vec::with_capacity(repeat);
                for _ in 0..repeat {
                    let t = device.copy(&src, &dst).map_err(e)?;
                    times.push(Duration::from_secs_f64(f64::from(t.kernel_ms) / 1e3));
                }
                let timing = TimingSummary::new(&times).ok_or("no copies")?;
                Ok(Some(BenchRow {
                    job: format!("cuMemcpyDtoD {} MiB", bytes >> 20),
                    timing,
                    bytes: 2 * bytes as u64,
                    passed: None,
                }))
            }
        }
    }
}

fn run_cpu(
    device: &Device,
    program: &Program,
    kernel: &str,
    launch: &Launch,
    range: &NdRange,
    repeat: usize,
    mode: CacheMode,
) -> Result<(Vec<Duration>, Contents), String> {
    let mut k = program.kernel(kernel).map_err(|e| e.to_string())?;
    let mut buffers = Vec::new();
    for (i, a) in launch.args.iter().enumerate() {
        let arg = match a {
            LaunchArg::Buffer { name, .. } => {
                let b = make_buffer(device, a).map_err(|e| format!("args.{name}: {e}"))?;
                buffers.push((i, b.clone()));
                KernelArg::Buffer(b)
            }
            LaunchArg::Local { bytes, .. } => KernelArg::Local(*bytes),
            LaunchArg::Scalar { bytes, .. } => KernelArg::Value(bytes.clone()),
        };
        k.set_arg(i, arg).map_err(|e| e.to_string())?;
    }
    let reset = || -> Result<(), String> {
        for (i, b) in &buffers {
            if let Some(a) = launch.args.get(*i) {
                fill_buffer(b, a).map_err(|e| format!("args.{}: {e}", a.name()))?;
            }
        }
        Ok(())
    };
    let run = || -> Result<Duration, String> {
        let start = std::time::Instant::now();
        let r = device.launch(&k, range);
        let t = start.elapsed();
        match r {
            Ok(_) => Ok(t),
            Err(Error::Runtime(fault)) => Err(fault.rendered),
            Err(e) => Err(e.to_string()),
        }
    };
    let mut times = Vec::with_capacity(repeat);
    run()?;
    for _ in 0..repeat {
        if mode == CacheMode::Cold {
            reset()?;
        }
        times.push(run()?);
    }
    if mode == CacheMode::Warm {
        reset()?;
        run()?;
    }
    let mut contents = Vec::with_capacity(buffers.len());
    for (i, b) in &buffers {
        contents.push((*i, BufferView::of(b).map_err(|e| e.to_string())?));
    }
    Ok((times, contents))
}

/// Size of each of the two buffers copied between launches to evict the L2 cache.
#[cfg(feature = "cuda")]
const FLUSH_BYTES: usize = 64 << 20;

/// Microseconds the GPU spins before each timed cuda launch (see `CudaDevice::set_pace`):
/// longer than the host takes to submit the events and the launch.
#[cfg(feature = "cuda")]
const PACE_US: u32 = 30;

#[cfg(feature = "cuda")]
#[allow(clippy::too_many_arguments)]
fn run_cuda(
    device: &oclc_ptx::cuda::CudaDevice,
    program: &Program,
    opts: &BuildOptions,
    kernel: &str,
    launch: &Launch,
    range: &NdRange,
    repeat: usize,
    mode: CacheMode,
) -> Result<(Vec<Duration>, Contents), String> {
    use oclc_ptx::cuda::{Arg, NdRange as CudaRange};
    let e = |e: oclc_ptx::cuda::CudaError| e.to_string();
    let loaded = device
        .load(
            program.ir(),
            Some(program.source_map()),
            oclc_ptx::FloatMode {
                fast_math: opts.fast_math,
                exact_div_sqrt: opts.exact_div_sqrt,
            },
        )
        .map_err(e)?;
    let mut args = Vec::new();
    let mut buffers = Vec::new();
    for (i, a) in launch.args.iter().enumerate() {
        args.push(match a {
            LaunchArg::Buffer {
                name,
                elem,
                len,
                init,
                ..
            } => {
                let data = init
                    .materialize(*elem, *len)
                    .map_err(|m| format!("args.{name}: {m}"))?;
                let b = device.buffer_from_bytes(&data).map_err(e)?;
                // Resets copy from a pristine device-side copy: a host upload would leave the
                // GPU idle (and its clocks low) for milliseconds before every timed launch.
                let pristine = device.buffer_from_bytes(&data).map_err(e)?;
                buffers.push((i, b.clone(), pristine));
                Arg::Buffer(b)
            }
            LaunchArg::Local { bytes, .. } => Arg::Local(*bytes),
            LaunchArg::Scalar { bytes, .. } => Arg::Bytes(bytes.clone()),
        });
    }
    let cuda_range = CudaRange {
        global: range.global.clone(),
        local: range.local.clone(),
        offset: range.offset.clone(),
    };
    // Copying 128 MiB through the 50 MiB L2 (H100/H200) after the resets evicts the job's
    // buffers, so no launch starts with its input cached by the reset.
    let flush = match mode {
        CacheMode::Cold => Some((
            device.zeroed(FLUSH_BYTES).map_err(e)?,
            device.zeroed(FLUSH_BYTES).map_err(e)?,
        )),
        CacheMode::Warm => None,
    };
    let reset = || -> Result<(), String> {
        for (_, b, pristine) in &buffers {
            device.copy(pristine, b).map_err(e)?;
        }
        Ok(())
    };
    let run = || -> Result<Duration, String> {
        let t = device
            .launch(&loaded, kernel, &args, &cuda_range)
            .map_err(e)?;
        Ok(Duration::from_secs_f64(f64::from(t.kernel_ms) / 1e3))
    };
    let mut times = Vec::with_capacity(repeat);
    run()?;
    for _ in 0..repeat {
        if let Some((from, to)) = &flush {
            reset()?;
            device.copy(from, to).map_err(e)?;
        }
        times.push(run()?);
    }
    if mode == CacheMode::Warm {
        reset()?;
        run()?;
    }
    let mut contents = Vec::new();
    for (i, b, _) in &buffers {
        contents.push((*i, BufferView::Host(b.read().map_err(e)?)));
    }
    Ok((times, contents))
}
