//! The library facade: build a [`Program`] from OpenCL C source and build options, pick a
//! [`Device`], make [`Buffer`]s from slices, set a [`Kernel`]'s arguments by position or name,
//! launch it over an [`NdRange`] and read the results.
//!
//! ```
//! use oclc::{Device, NdRange, Program};
//!
//! let program = Program::build(
//!     "kernel void axpy(global const float *x, global float *y, float a) {
//!          size_t i = get_global_id(0);
//!          y[i] += a * x[i];
//!      }",
//!     "-cl-std=CL2.0",
//! )?;
//! let device = Device::cpu();
//! let x = device.buffer_from_slice(&[1.0f32, 2.0, 3.0, 4.0])?;
//! let y = device.buffer_from_slice(&[10.0f32; 4])?;
//! let mut kernel = program.kernel("axpy")?;
//! kernel.set_arg(0, &x)?.set_arg_named("y", &y)?.set_arg_named("a", 2.0f32)?;
//! device.launch(&kernel, &NdRange::new(&[4]))?;
//! assert_eq!(y.read::<f32>()?, vec![12.0, 14.0, 16.0, 18.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Build errors carry clang-style diagnostics ([`BuildError::Compile`]); a kernel fault found
//! by the cpu device's runtime checks is an [`Error::Runtime`] whose [`RuntimeFault::rendered`]
//! text shows the source line, a caret and the work-item's ids.
//!
//! [`Device::cuda`] (cargo feature `cuda`) runs the same API on an NVIDIA GPU: each program is
//! compiled to PTX for that GPU at its first launch there and cached in the device; a GPU
//! fault is an [`Error::Fault`], and launches report the kernel time from CUDA events.

use std::time::Duration;

use oclc_lower::{KernelParam, KernelParamKind, KernelSignature};
use oclc_syntax::{Diagnostic, Level, SourceMap};

use crate::args::parse_check_args;
use crate::check::{CheckOptions, MacroArg, check_source};
use crate::render::TextRenderer;
use crate::warnings::Reported;

pub use oclc_cpu::{CheckKind, NdRange};
pub use oclc_ir::AddrSpace;

/// Why a program did not build.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BuildError {
    /// The options string has a flag that is neither a build option nor an `oclc check` flag.
    #[error("invalid build options: {0}")]
    Options(String),
    /// The source has errors: `log` is clang's text output (diagnostics and the summary line).
    #[error("{log}")]
    Compile { log: String, errors: usize },
    /// The lowered program failed the device's verifier (a compiler bug, reported as such).
    #[error("internal compiler error: {0}")]
    Internal(String),
    /// Compiled units do not link (duplicate or undefined symbols): `log` has one
    /// `oclc: error: ...` line per problem.
    #[error("{log}")]
    Link { log: String },
    /// The cpu device cannot hold the program: a program-scope variable beyond
    /// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE or the host's memory, or an invalid `OCLC_*` limit.
    #[error("{0}")]
    Device(String),
}

/// Errors of devices, buffers, arguments and launches.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("no kernel named '{name}' in the program ({})", list_or_none(.available))]
    NoSuchKernel {
        name: String,
        available: Vec<String>,
    },
    #[error("kernel '{kernel}' has {count} parameters; there is no argument {index}")]
    ArgIndex {
        kernel: String,
        index: usize,
        count: usize,
    },
    #[error("kernel '{kernel}' has no parameter named '{name}'")]
    NoSuchParam { kernel: String, name: String },
    #[error("argument {index} ('{name}', {ty}): {message}")]
    ArgType {
        index: usize,
        name: String,
        ty: String,
        message: String,
    },
    #[error("argument {index} ('{name}', {ty}) of kernel '{kernel}' is not set")]
    ArgMissing {
        kernel: String,
        index: usize,
        name: String,
        ty: String,
    },
    #[error("buffer of {bytes} bytes does not hold whole elements of {elem_size} bytes")]
    BufferSize { bytes: usize, elem_size: usize },
    #[error("device not available: {0}")]
    DeviceUnavailable(String),
    /// An environment variable that sets a device limit (`OCLC_*`) has an invalid value.
    #[error("invalid device setting: {0}")]
    Setting(String),
    #[error("launch failed: {0}")]
    Launch(String),
    /// The program could not be compiled for the device (PTX generation or ptxas).
    #[error("cannot compile the program for {device}: {message}")]
    DeviceCompile { device: String, message: String },
    /// The kernel faulted on the GPU (e.g. an illegal address); the device is unusable after.
    #[error("kernel '{kernel}' faulted on {device}: {message}")]
    Fault {
        kernel: String,
        device: String,
        message: String,
    },
    /// Allocating, reading or writing device memory failed.
    #[error("device memory: {0}")]
    Memory(String),
    #[error("{}", .0.rendered.trim_end())]
    Runtime(Box<RuntimeFault>),
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "the program defines no kernels".to_string()
    } else {
        format!("kernels: {}", v.join(", "))
    }
}

/// A runtime check that stopped a kernel: what failed, where, and in which work-item.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeFault {
    pub kind: CheckKind,
    pub message: String,
    /// `(file, line, column)` of the faulting operation, when it has a source location.
    pub location: Option<(String, u32, u32)>,
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
    /// clang-style text: `file:line:col: error: ...`, the source line and caret, the work-item
    /// ids as a note, and the device's explaining note if any.
    pub rendered: String,
    /// What `printf` wrote before the fault (earlier work-groups', then the failing one's).
    pub printf: String,
    /// Whether the printf buffer filled up before the fault and output was dropped.
    pub printf_truncated: bool,
}

/// A built program: the checked source, its IR after the passes, the kernels' signatures, and
/// the code loaded for the cpu device.
pub struct Program {
    sm: SourceMap,
    log: String,
    module: oclc_ir::Module,
    signatures: Vec<KernelSignature>,
    cpu: oclc_cpu::Program,
    optimized: bool,
    fast_math: bool,
    exact_div_sqrt: bool,
    /// Launches must use uniform work-groups: OpenCL C before 2.0, or
    /// `-cl-uniform-work-group-size` (clEnqueueNDRangeKernel's CL_INVALID_WORK_GROUP_SIZE).
    uniform_work_groups: bool,
    /// Identity of this program for devices' caches of code compiled from it.
    #[cfg(feature = "cuda")]
    token: std::sync::Arc<()>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("kernels", &self.kernel_names())
            .field("optimized", &self.optimized)
            .finish()
    }
}

/// Parsed build options: the `oclc check` options and whether the IR passes run.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub check: CheckOptions,
    /// False with `-O0` or `-cl-opt-disable`.
    pub optimize: bool,
    /// `-cl-fast-relaxed-math`: code generators may use approximate instructions.
    pub fast_math: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`: single-precision `/` and `sqrt` correctly
    /// rounded on every device (the cpu device always rounds them correctly).
    pub exact_div_sqrt: bool,
    /// `-cl-uniform-work-group-size`: launches must divide the global size by the local size
    /// (always so before OpenCL C 2.0).
    pub uniform_work_groups: bool,
}

/// OpenCL `clBuildProgram` options that change nothing on the cpu device beyond the macro
/// some of them define.
const CODEGEN_FLAGS: &[&str] = &[
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-denorms-are-zero",
    "-cl-single-precision-constant",
    "-cl-uniform-work-group-size",
    "-cl-no-subgroup-ifp",
    "-cl-kernel-arg-info",
    "-cl-strict-aliasing",
    "-cl-fast-relaxed-math",
    "-O1",
    "-O2",
    "-O3",
    "-O",
];

impl Default for BuildOptions {
    /// OpenCL C 1.2, passes on.
    fn default() -> BuildOptions {
        BuildOptions {
            check: CheckOptions::default(),
            optimize: true,
            fast_math: false,
            exact_div_sqrt: false,
            uniform_work_groups: false,
        }
    }
}

impl BuildOptions {
    /// Parses a build options string (whitespace-separated flags, no input files).
    pub fn parse(options: &str) -> Result<BuildOptions, BuildError> {
        let (opts, files) = BuildOptions::parse_args(options.split_whitespace())?;
        match files.first() {
            Some(f) => Err(BuildError::Options(format!("unexpected input file '{f}'"))),
            None => Ok(opts),
        }
    }

    /// Parses command-line flags; returns the options and the input files among them.
    pub fn parse_args<I, S>(args: I) -> Result<(BuildOptions, Vec<String>), BuildError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut optimize = true;
        let mut fast_math = false;
        let mut exact_div_sqrt = false;
        let mut uniform_work_groups = false;
        let mut rest = Vec::new();
        for word in args.into_iter().map(Into::into) {
            match word.as_str() {
                "-O0" | "-cl-opt-disable" => optimize = false,
                "-cl-fast-relaxed-math" => fast_math = true,
                "-cl-fp32-correctly-rounded-divide-sqrt" => exact_div_sqrt = true,
                "-cl-uniform-work-group-size" => uniform_work_groups = true,
                w if CODEGEN_FLAGS.contains(&w) => {}
                _ => rest.push(word),
            }
        }
        let parsed = parse_check_args(rest).map_err(|e| BuildError::Options(e.0))?;
        if parsed.options.verify.is_some() {
            return Err(BuildError::Options("-verify is not a build option".into()));
        }
        let mut check = parsed.options;
        if fast_math {
            check.macros.insert(
                0,
                MacroArg::Define("__FAST_RELAXED_MATH__".into(), "1".into()),
            );
        }
        Ok((
            BuildOptions {
                check,
                optimize,
                fast_math,
                exact_div_sqrt,
                uniform_work_groups,
            },
            parsed.files,
        ))
    }
}

impl Program {
    /// Builds `source` with `options` (`-cl-std=`, `-D`, `-I`, `-W` flags as for `oclc check`,
    /// plus `-O0`/`-cl-opt-disable` to skip the IR passes and the other OpenCL build options).
    pub fn build(source: &str, options: &str) -> Result<Program, BuildError> {
        Program::build_named("<source>", source.as_bytes(), options)
    }

    /// [`Program::build`] with the file name diagnostics and runtime reports show.
    pub fn build_named(name: &str, source: &[u8], options: &str) -> Result<Program, BuildError> {
        Program::build_with(name, source, &BuildOptions::parse(options)?)
    }

    /// Builds `source`, named `name` in diagnostics, with parsed options.
    pub fn build_with(
        name: &str,
        source: &[u8],
        opts: &BuildOptions,
    ) -> Result<Program, BuildError> {
        let (sm, log, signatures, module) = front_end(name, source, opts, |hir, sm, diags| {
            oclc_lower::lower(hir, sm, diags)
        })?;
        Program::finish(sm, log, module, signatures, opts)
    }

    /// Links compiled units (`clLinkProgram`) into a program: each external declaration
    /// resolves to the one definition of its name (see [`oclc_ir::link`]); the linked module
    /// then runs through the passes of a one-file build, so inlining crosses units. `options`
    /// are the link options (`-cl-opt-disable`, `-cl-fast-relaxed-math`, ...); the language
    /// options come from the first unit. A link error is [`BuildError::Link`] with a log of
    /// one `oclc: error: ...` line per problem.
    /// Each unit comes with its name in link errors.
    pub fn link(units: &[(&str, &CompiledUnit)], options: &str) -> Result<Program, BuildError> {
        let link_opts = BuildOptions::parse(options)?;
        let linked = CompiledUnit::link_units(units, "<linked>", false)?;
        let Some((_, first)) = units.first() else {
            return Err(BuildError::Link {
                log: "oclc: error: no input units\n".into(),
            });
        };
        let opts = BuildOptions {
            check: first.opts.check.clone(),
            optimize: link_opts.optimize && units.iter().all(|(_, u)| u.opts.optimize),
            fast_math: link_opts.fast_math || units.iter().all(|(_, u)| u.opts.fast_math),
            exact_div_sqrt: link_opts.exact_div_sqrt
                || units.iter().any(|(_, u)| u.opts.exact_div_sqrt),
            uniform_work_groups: link_opts.uniform_work_groups
                || units.iter().any(|(_, u)| u.opts.uniform_work_groups),
        };
        Program::finish(
            linked.sm,
            linked.log,
            linked.unit.module,
            linked.signatures,
            &opts,
        )
    }

    /// The passes (unless `-O0`) and the cpu device's load of a lowered module.
    fn finish(
        sm: SourceMap,
        log: String,
        mut module: oclc_ir::Module,
        signatures: Vec<KernelSignature>,
        opts: &BuildOptions,
    ) -> Result<Program, BuildError> {
        if opts.optimize {
            let report =
                oclc_ir::passes::run_default(&mut module, &oclc_ir::passes::PassOptions::default());
            if let Some((stage, e)) = report.verify_errors.first() {
                return Err(BuildError::Internal(format!(
                    "IR pass '{stage}' produced invalid IR: {e}"
                )));
            }
        }
        // Program-scope variables are allocated here, under the limits the environment sets.
        let cpu = oclc_cpu::Device::cpu()
            .load(module.clone())
            .map_err(|e| match e {
                oclc_cpu::DeviceError::InvalidProgram(_) => BuildError::Internal(e.to_string()),
                e => BuildError::Device(e.to_string()),
            })?;
        Ok(Program {
            sm,
            log,
            module,
            signatures,
            cpu,
            optimized: opts.optimize,
            fast_math: opts.fast_math,
            exact_div_sqrt: opts.exact_div_sqrt,
            uniform_work_groups: opts.uniform_work_groups || opts.check.lang.std.version() < 200,
            #[cfg(feature = "cuda")]
            token: std::sync::Arc::new(()),
        })
    }

    /// The warnings of the build in clang's text format (empty when there were none).
    pub fn build_log(&self) -> &str {
        &self.log
    }

    /// Whether launches must use uniform work-groups (OpenCL C before 2.0, or
    /// `-cl-uniform-work-group-size`): `clEnqueueNDRangeKernel` checks it before launching.
    pub fn uniform_work_groups(&self) -> bool {
        self.uniform_work_groups
    }

    /// The IR after the passes (before them with `-O0`).
    pub fn ir(&self) -> &oclc_ir::Module {
        &self.module
    }

    /// Whether it was built with `-cl-fast-relaxed-math` (code generators may approximate).
    pub fn fast_math(&self) -> bool {
        self.fast_math
    }

    /// Whether it was built with `-cl-fp32-correctly-rounded-divide-sqrt`.
    pub fn exact_div_sqrt(&self) -> bool {
        self.exact_div_sqrt
    }

    /// The IR as text.
    pub fn ir_text(&self) -> String {
        oclc_ir::print_module(&self.module, Some(&self.sm))
    }

    /// The program as PTX for `target` (e.g. `sm_80`), as the cuda device would load it.
    pub fn ptx_text(&self, target: &str, fast_math: bool) -> Result<String, BuildError> {
        self.ptx_text_with(target, fast_math, false)
    }

    /// [`Program::ptx_text`], with every access and barrier checked when `checks` is on (as
    /// the cuda device loads it under `--checks`).
    pub fn ptx_text_with(
        &self,
        target: &str,
        fast_math: bool,
        checks: bool,
    ) -> Result<String, BuildError> {
        let opts = oclc_ptx::PtxOptions {
            target: target.to_string(),
            fast_math,
            checks,
            exact_div_sqrt: self.exact_div_sqrt,
            ..oclc_ptx::PtxOptions::default()
        };
        // The device pipeline (inlining, unrolling) runs on load, as in `CudaDevice::load`.
        let mut module = self.module.clone();
        oclc_ir::passes::optimize_for_gpu(&mut module, checks);
        oclc_ptx::emit_module(&module, Some(&self.sm), &opts)
            .map(|m| m.text)
            .map_err(|e| match e {
                // Valid OpenCL C the backend lacks: a located error, as for the source's own.
                oclc_ptx::PtxError::Unsupported { what, span, .. } => {
                    let diag = Diagnostic::error(
                        span,
                        format!("the cuda device does not support {what} yet"),
                    );
                    BuildError::Compile {
                        log: crate::render::render_text(
                            &self.sm,
                            &[Reported { diag, option: None }],
                        ),
                        errors: 1,
                    }
                }
                e => BuildError::Internal(format!("PTX: {e}")),
            })
    }

    /// Names of the kernels, in declaration order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.signatures.iter().map(|s| s.name.as_str()).collect()
    }

    /// The signature of kernel `name`.
    pub fn signature(&self, name: &str) -> Option<&KernelSignature> {
        self.signatures.iter().find(|s| s.name == name)
    }

    /// The source map of the build, for rendering locations.
    pub fn source_map(&self) -> &SourceMap {
        &self.sm
    }

    /// Kernel `name`, ready for its arguments.
    pub fn kernel(&self, name: &str) -> Result<Kernel<'_>, Error> {
        let sig = self.signature(name).ok_or_else(|| Error::NoSuchKernel {
            name: name.to_string(),
            available: self.signatures.iter().map(|s| s.name.clone()).collect(),
        })?;
        Ok(Kernel {
            program: self,
            sig,
            args: vec![None; sig.params.len()],
        })
    }

    /// Renders a device runtime error against this program's source.
    fn fault(&self, e: &oclc_cpu::RuntimeError) -> RuntimeFault {
        let location = self
            .sm
            .location(e.span)
            .map(|(f, l, c)| (f.to_string(), l, c));
        let mut diag = Diagnostic::new(Level::Error, e.span, e.message.clone());
        if e.span.hi > e.span.lo {
            diag = diag.with_range(e.span);
        }
        let mut r = TextRenderer::new(&self.sm);
        r.emit(&Reported { diag, option: None });
        r.emit_plain(Level::Note, &format!("in the work-item with {}", e.ids()));
        if let Some((span, msg)) = &e.note {
            r.emit(&Reported {
                diag: Diagnostic::new(Level::Note, *span, msg.clone()),
                option: None,
            });
        }
        RuntimeFault {
            kind: e.kind,
            message: e.message.clone(),
            location,
            global_id: e.global_id,
            local_id: e.local_id,
            group_id: e.group_id,
            rendered: r.finish(),
            printf: e.printf.clone(),
            printf_truncated: e.printf_truncated,
        }
    }
}

/// Preprocess, parse, sema and `lower` of one source: its source map, log (clang's text),
/// kernel signatures and what `lower` made, or the compile error.
fn front_end<T>(
    name: &str,
    source: &[u8],
    opts: &BuildOptions,
    lower: impl FnOnce(&oclc_sema::hir::Program, &SourceMap, &mut oclc_syntax::Diagnostics) -> Option<T>,
) -> Result<(SourceMap, String, Vec<KernelSignature>, T), BuildError> {
    let outcome = check_source(name, source, &opts.check);
    let log = outcome.render_text();
    let sm = outcome.sm;
    let (errors, _) = crate::render::counts(&outcome.diagnostics);
    let Some(hir) = outcome.program.filter(|_| errors == 0) else {
        return Err(BuildError::Compile {
            log,
            errors: errors.max(1),
        });
    };
    let mut diags = oclc_syntax::Diagnostics::default();
    let lowered = lower(&hir, &sm, &mut diags);
    let lower_diags = opts.check.warnings.apply_all(diags.list);
    let lower_errors = crate::render::counts(&lower_diags).0;
    let mut log = log;
    if !lower_diags.is_empty() {
        log = join_logs(&sm, &outcome.diagnostics, &lower_diags);
    }
    let Some(lowered) = lowered.filter(|_| lower_errors == 0) else {
        return Err(BuildError::Compile {
            log,
            errors: lower_errors.max(1),
        });
    };
    let signatures = oclc_lower::kernel_signatures(&hir);
    Ok((sm, log, signatures, lowered))
}

/// A separately compiled translation unit (`clCompileProgram`, or a library made by linking
/// units with `-create-library`): its IR before the passes with the linkage of every
/// function and variable, its kernels' signatures, and the source map its spans point into.
/// [`Program::link`] links units into a program.
pub struct CompiledUnit {
    sm: SourceMap,
    log: String,
    unit: oclc_ir::link::Unit,
    signatures: Vec<KernelSignature>,
    opts: BuildOptions,
}

impl std::fmt::Debug for CompiledUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledUnit")
            .field("name", &self.unit.name)
            .field("kernels", &self.kernel_names())
            .finish()
    }
}

impl CompiledUnit {
    /// Compiles `source` (named `name` in diagnostics and link errors) with `options` into a
    /// unit: calls of functions it declares but does not define, and `extern` variables, are
    /// left for [`Program::link`] to resolve.
    pub fn compile(name: &str, source: &[u8], options: &str) -> Result<CompiledUnit, BuildError> {
        let opts = BuildOptions::parse(options)?;
        let (sm, log, signatures, unit) = front_end(name, source, &opts, |hir, _, diags| {
            oclc_lower::lower_unit(hir, name, diags)
        })?;
        Ok(CompiledUnit {
            sm,
            log,
            unit,
            signatures,
            opts,
        })
    }

    /// Links `units` into one unit named `name` (`-create-library`): declarations no unit
    /// defines stay for a later link. Each unit comes with its name in link errors.
    pub fn link_library(
        units: &[(&str, &CompiledUnit)],
        name: &str,
    ) -> Result<CompiledUnit, BuildError> {
        CompiledUnit::link_units(units, name, true)
    }

    /// Links `units`: one source map with all their files, the IR merged by
    /// [`oclc_ir::link::link`], the kernels of every unit in order.
    fn link_units(
        units: &[(&str, &CompiledUnit)],
        name: &str,
        allow_undefined: bool,
    ) -> Result<CompiledUnit, BuildError> {
        let Some((_, first)) = units.first() else {
            return Err(BuildError::Link {
                log: "oclc: error: no input units\n".into(),
            });
        };
        let mut sm = SourceMap::new();
        let shifts: Vec<oclc_syntax::SpanShift> =
            units.iter().map(|(_, u)| sm.append(&u.sm)).collect();
        let irs: Vec<oclc_ir::link::Unit> = units
            .iter()
            .map(|(n, u)| oclc_ir::link::Unit {
                name: n.to_string(),
                ..u.unit.clone()
            })
            .collect();
        let shift = |u: usize, span: oclc_syntax::Span| match shifts.get(u) {
            Some(s) => s.apply(span),
            None => span,
        };
        let unit = oclc_ir::link::link(&irs, name, &shift, allow_undefined).map_err(|errs| {
            BuildError::Link {
                log: errs.iter().map(|e| format!("oclc: error: {e}\n")).collect(),
            }
        })?;
        let mut signatures: Vec<KernelSignature> = Vec::new();
        for (_, u) in units {
            signatures.extend(u.signatures.iter().cloned());
        }
        Ok(CompiledUnit {
            sm,
            log: String::new(),
            unit,
            signatures,
            opts: first.opts.clone(),
        })
    }

    /// The warnings of the compile in clang's text format (empty when there were none).
    pub fn log(&self) -> &str {
        &self.log
    }

    /// The unit's name.
    pub fn name(&self) -> &str {
        &self.unit.name
    }

    /// Names of the kernels, in declaration order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.signatures.iter().map(|s| s.name.as_str()).collect()
    }

    /// The signature of kernel `name`.
    pub fn signature(&self, name: &str) -> Option<&KernelSignature> {
        self.signatures.iter().find(|s| s.name == name)
    }

    /// The unit's IR and the linkage of its symbols.
    pub fn ir(&self) -> &oclc_ir::link::Unit {
        &self.unit
    }
}

fn join_logs(sm: &SourceMap, a: &[Reported], b: &[Reported]) -> String {
    let all: Vec<Reported> = a.iter().chain(b).cloned().collect();
    crate::render::render_text(sm, &all)
}

/// A scalar type that buffers and arguments can be made of (little-endian bytes).
pub trait Element: Copy + Default + 'static {
    /// `sizeof` the type.
    const SIZE: usize;
    /// Appends the value's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The value from exactly [`Self::SIZE`] little-endian bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                let n = a.len().min(bytes.len());
                a[..n].copy_from_slice(&bytes[..n]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
element!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

fn to_bytes<T: Element>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * T::SIZE);
    for v in values {
        v.put(&mut out);
    }
    out
}

/// [`to_bytes`] for buffers: an [`Error::Memory`] when the host has no room for the bytes.
fn try_to_bytes<T: Element>(values: &[T]) -> Result<Vec<u8>, Error> {
    let bytes = byte_size::<T>(values.len())?;
    let mut out = Vec::new();
    out.try_reserve_exact(bytes).map_err(|_| {
        Error::Memory(format!(
            "cannot allocate {bytes} bytes for the values: out of memory"
        ))
    })?;
    for v in values {
        v.put(&mut out);
    }
    Ok(out)
}

/// Bytes of `len` elements of `T`, or an [`Error::Memory`] when they overflow size_t.
fn byte_size<T: Element>(len: usize) -> Result<usize, Error> {
    len.checked_mul(T::SIZE).ok_or_else(|| {
        Error::Memory(format!(
            "a buffer of {len} elements of {} bytes is larger than size_t counts",
            T::SIZE
        ))
    })
}

/// A cpu device error as the library reports it.
fn cpu_error(e: oclc_cpu::DeviceError) -> Error {
    match e {
        oclc_cpu::DeviceError::Memory(m) => Error::Memory(m),
        oclc_cpu::DeviceError::Setting(m) => Error::Setting(m),
        e => Error::Launch(e.to_string()),
    }
}

/// Elements encoded per piece when a slice is written into a cpu buffer.
const CHUNK_ELEMS: usize = 1 << 16;

/// A device memory buffer. Clones share the same memory.
#[derive(Clone, Debug)]
pub struct Buffer {
    mem: Mem,
}

/// The memory behind a [`Buffer`], on the device that made it.
#[derive(Clone, Debug)]
enum Mem {
    Cpu(oclc_cpu::Buffer),
    #[cfg(feature = "cuda")]
    Cuda {
        ordinal: usize,
        buf: oclc_ptx::cuda::Buffer,
    },
}

impl Buffer {
    /// Size in bytes.
    pub fn len(&self) -> usize {
        match &self.mem {
            Mem::Cpu(b) => b.len(),
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => buf.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address of a buffer from [`Device::svm_buffer`], valid on host and GPU (that of
    /// any other cuda buffer is a device address only); `None` on the cpu device.
    pub fn svm_address(&self) -> Option<u64> {
        match &self.mem {
            Mem::Cpu(_) => None,
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => Some(buf.address()),
        }
    }

    /// The contents as bytes (after every launch so far has finished); an [`Error::Memory`]
    /// when the host has no room for the copy.
    pub fn read_bytes(&self) -> Result<Vec<u8>, Error> {
        match &self.mem {
            Mem::Cpu(b) => b.try_read().map_err(cpu_error),
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => buf.read().map_err(|e| Error::Memory(e.to_string())),
        }
    }

    /// The contents as elements of `T`; the size must be a multiple of `sizeof(T)`.
    pub fn read<T: Element>(&self) -> Result<Vec<T>, Error> {
        let bytes = self.read_bytes()?;
        if !bytes.len().is_multiple_of(T::SIZE) {
            return Err(Error::BufferSize {
                bytes: bytes.len(),
                elem_size: T::SIZE,
            });
        }
        let mut out = Vec::new();
        out.try_reserve_exact(bytes.len() / T::SIZE).map_err(|_| {
            Error::Memory(format!(
                "cannot allocate {} elements of {} bytes: out of memory",
                bytes.len() / T::SIZE,
                T::SIZE
            ))
        })?;
        out.extend(bytes.chunks_exact(T::SIZE).map(T::get));
        Ok(out)
    }

    /// The cpu device's buffer behind this one (`None` on the cuda device): the run-file
    /// driver reads and writes it piece by piece.
    pub(crate) fn cpu(&self) -> Option<&oclc_cpu::Buffer> {
        match &self.mem {
            Mem::Cpu(b) => Some(b),
            #[cfg(feature = "cuda")]
            Mem::Cuda { .. } => None,
        }
    }

    /// The `len` bytes at `offset` as a buffer sharing this one's memory (OpenCL's
    /// sub-buffers). Kernels given a region are bounds-checked against the whole buffer.
    /// Cpu device only; an [`Error::Memory`] when the range is not inside the buffer.
    pub fn region(&self, offset: usize, len: usize) -> Result<Buffer, Error> {
        let outside = || {
            Error::Memory(format!(
                "region of {len} bytes at offset {offset} is not inside the buffer of {} bytes",
                self.len()
            ))
        };
        match &self.mem {
            Mem::Cpu(b) => Ok(Buffer {
                mem: Mem::Cpu(b.region(offset, len).ok_or_else(outside)?),
            }),
            #[cfg(feature = "cuda")]
            Mem::Cuda { .. } => Err(Error::Memory(
                "regions of cuda buffers are not supported".into(),
            )),
        }
    }

    /// Copies `out.len()` bytes from byte `offset` into `out`; an [`Error::Memory`] when
    /// the range is not inside the buffer.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result<(), Error> {
        let want = out.len();
        let outside = || {
            Error::Memory(format!(
                "{want} bytes at offset {offset} are not inside the buffer of {} bytes",
                self.len()
            ))
        };
        match &self.mem {
            Mem::Cpu(b) => {
                if b.read_at(offset, out) {
                    Ok(())
                } else {
                    Err(outside())
                }
            }
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => {
                if offset.checked_add(want).is_none_or(|e| e > buf.len()) {
                    return Err(outside());
                }
                buf.read_at(offset, out)
                    .map_err(|e| Error::Memory(e.to_string()))
            }
        }
    }

    /// Writes `bytes` at byte `offset`; an [`Error::Memory`] when they do not fit.
    pub fn write_at(&self, offset: usize, bytes: &[u8]) -> Result<(), Error> {
        let outside = || {
            Error::Memory(format!(
                "{} bytes at offset {offset} are not inside the buffer of {} bytes",
                bytes.len(),
                self.len()
            ))
        };
        match &self.mem {
            Mem::Cpu(b) => {
                if b.write_at(offset, bytes) {
                    Ok(())
                } else {
                    Err(outside())
                }
            }
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => {
                if offset
                    .checked_add(bytes.len())
                    .is_none_or(|e| e > buf.len())
                {
                    return Err(outside());
                }
                buf.write_at(offset, bytes)
                    .map_err(|e| Error::Memory(e.to_string()))
            }
        }
    }

    /// Overwrites the start of the buffer with `bytes` (at most its size).
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<(), Error> {
        match &self.mem {
            Mem::Cpu(b) => {
                b.write(bytes);
                Ok(())
            }
            #[cfg(feature = "cuda")]
            Mem::Cuda { buf, .. } => buf.write(bytes).map_err(|e| Error::Memory(e.to_string())),
        }
    }

    /// Overwrites the start of the buffer with `values` (at most its size).
    pub fn write<T: Element>(&self, values: &[T]) -> Result<(), Error> {
        self.write_bytes(&try_to_bytes(values)?)
    }

    /// Which device the buffer lives on, as error messages name it.
    #[cfg(feature = "cuda")]
    fn device_name(&self) -> String {
        match &self.mem {
            Mem::Cpu(_) => "the cpu device".into(),
            #[cfg(feature = "cuda")]
            Mem::Cuda { ordinal, .. } => format!("cuda device {ordinal}"),
        }
    }
}

/// A cpu device buffer as a [`Buffer`] (the OpenCL platform keeps `oclc_cpu::Buffer`s, which
/// any thread may use).
impl From<oclc_cpu::Buffer> for Buffer {
    fn from(b: oclc_cpu::Buffer) -> Buffer {
        Buffer { mem: Mem::Cpu(b) }
    }
}

/// A kernel argument: a buffer (for `__global`/`__constant` pointers), a `__local` allocation
/// size, or a value's bytes (scalars, vectors, structs by value).
#[derive(Clone, Debug)]
pub enum KernelArg {
    Buffer(Buffer),
    /// Bytes of `__local` memory for each work-group.
    Local(usize),
    Value(Vec<u8>),
    /// A NULL `__global` or `__constant` pointer (OpenCL's `clSetKernelArg` with no buffer).
    Null,
    /// A raw address for a `__global` or `__constant` pointer: an SVM pointer, inside a
    /// buffer from [`Device::svm_buffer`] (cuda device only; on the cpu device, SVM goes
    /// through `launch_on_cpu_svm`).
    Address(u64),
    /// An image (cpu device only): its format and extent, and the buffer holding its pixels
    /// as `desc`'s pitches lay them out.
    Image {
        desc: oclc_cpu::runtime::image::ImageDesc,
        data: Buffer,
    },
}

impl KernelArg {
    /// A `__local` allocation of `len` elements of `T` (a size beyond the device's local
    /// memory, CL_DEVICE_LOCAL_MEM_SIZE, fails the launch).
    pub fn local<T: Element>(len: usize) -> KernelArg {
        KernelArg::Local(len.saturating_mul(T::SIZE))
    }

    /// A vector value (`float4` from `[f32; 4]`; a 3-vector from 3 or 4 components).
    pub fn vector<T: Element>(components: &[T]) -> KernelArg {
        KernelArg::Value(to_bytes(components))
    }

    fn describe(&self) -> &'static str {
        match self {
            KernelArg::Buffer(_) => "a buffer",
            KernelArg::Local(_) => "a local allocation",
            KernelArg::Value(_) => "a value",
            KernelArg::Null => "a NULL pointer",
            KernelArg::Address(_) => "an address",
            KernelArg::Image { .. } => "an image",
        }
    }
}

impl From<&Buffer> for KernelArg {
    fn from(b: &Buffer) -> KernelArg {
        KernelArg::Buffer(b.clone())
    }
}

impl From<Buffer> for KernelArg {
    fn from(b: Buffer) -> KernelArg {
        KernelArg::Buffer(b)
    }
}

impl<T: Element> From<T> for KernelArg {
    fn from(v: T) -> KernelArg {
        KernelArg::Value(to_bytes(&[v]))
    }
}

impl<T: Element, const N: usize> From<[T; N]> for KernelArg {
    fn from(v: [T; N]) -> KernelArg {
        KernelArg::vector(&v)
    }
}

/// A kernel of a [`Program`] with its arguments.
#[derive(Clone, Debug)]
pub struct Kernel<'p> {
    program: &'p Program,
    sig: &'p KernelSignature,
    args: Vec<Option<KernelArg>>,
}

impl<'p> Kernel<'p> {
    pub fn name(&self) -> &str {
        &self.sig.name
    }

    /// The parameters: names, C types and how each takes its value.
    pub fn params(&self) -> &'p [KernelParam] {
        &self.sig.params
    }

    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// Sets argument `index` (from 0), checking it fits the parameter.
    pub fn set_arg(&mut self, index: usize, arg: impl Into<KernelArg>) -> Result<&mut Self, Error> {
        let count = self.sig.params.len();
        let Some(p) = self.sig.params.get(index) else {
            return Err(Error::ArgIndex {
                kernel: self.sig.name.clone(),
                index,
                count,
            });
        };
        let arg = fit_arg(index, p, arg.into())?;
        if let Some(slot) = self.args.get_mut(index) {
            *slot = Some(arg);
        }
        Ok(self)
    }

    /// Sets the argument of the parameter named `name`.
    pub fn set_arg_named(
        &mut self,
        name: &str,
        arg: impl Into<KernelArg>,
    ) -> Result<&mut Self, Error> {
        let index = self
            .sig
            .params
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| Error::NoSuchParam {
                kernel: self.sig.name.clone(),
                name: name.to_string(),
            })?;
        self.set_arg(index, arg)
    }

    /// Every argument, or the first one not set.
    fn all_args(&self) -> Result<Vec<&KernelArg>, Error> {
        self.args
            .iter()
            .zip(&self.sig.params)
            .enumerate()
            .map(|(index, (a, p))| {
                a.as_ref().ok_or_else(|| Error::ArgMissing {
                    kernel: self.sig.name.clone(),
                    index,
                    name: p.name.clone(),
                    ty: p.c_type.clone(),
                })
            })
            .collect()
    }

    /// The error for a buffer argument made on another device than the launch's.
    #[cfg(feature = "cuda")]
    fn foreign_buffer(&self, index: usize, buffer: &Buffer, device: &str) -> Error {
        let (name, ty) = self
            .sig
            .params
            .get(index)
            .map(|p| (p.name.clone(), p.c_type.clone()))
            .unwrap_or_default();
        Error::ArgType {
            index,
            name,
            ty,
            message: format!(
                "the buffer belongs to {}, not to {device}",
                buffer.device_name()
            ),
        }
    }
}

/// Checks that `arg` is the kind of value parameter `p` takes; pads a 3-vector to 4 lanes.
fn fit_arg(index: usize, p: &KernelParam, arg: KernelArg) -> Result<KernelArg, Error> {
    let err = |message: String| Error::ArgType {
        index,
        name: p.name.clone(),
        ty: p.c_type.clone(),
        message,
    };
    match (&p.kind, arg) {
        (
            KernelParamKind::Pointer {
                space: AddrSpace::Global | AddrSpace::Constant,
                ..
            },
            KernelArg::Buffer(b),
        ) => Ok(KernelArg::Buffer(b)),
        (
            KernelParamKind::Pointer {
                space: AddrSpace::Global | AddrSpace::Constant,
                ..
            },
            KernelArg::Null,
        ) => Ok(KernelArg::Null),
        (
            KernelParamKind::Pointer {
                space: AddrSpace::Global | AddrSpace::Constant,
                ..
            },
            KernelArg::Address(a),
        ) => Ok(KernelArg::Address(a)),
        (
            KernelParamKind::Pointer {
                space: AddrSpace::Local,
                ..
            },
            KernelArg::Local(n),
        ) => Ok(KernelArg::Local(n)),
        (KernelParamKind::Pointer { space, .. }, a) => {
            let takes = if *space == AddrSpace::Local {
                "a local allocation"
            } else {
                "a buffer"
            };
            Err(err(format!("takes {takes}, not {}", a.describe())))
        }
        (KernelParamKind::Value { elem, size }, KernelArg::Value(mut v)) => {
            let size = *size as usize;
            if elem.lanes == 3 && v.len() == 3 * elem.scalar.size() as usize {
                v.resize(size, 0);
            }
            if v.len() != size {
                return Err(err(format!(
                    "takes {size} bytes ({}), not {}",
                    elem.name(),
                    v.len()
                )));
            }
            Ok(KernelArg::Value(v))
        }
        (KernelParamKind::Aggregate { size, .. }, KernelArg::Value(v)) => {
            if v.len() as u64 != *size {
                return Err(err(format!("takes {size} bytes, not {}", v.len())));
            }
            Ok(KernelArg::Value(v))
        }
        (KernelParamKind::Value { .. } | KernelParamKind::Aggregate { .. }, a) => {
            Err(err(format!("takes a value, not {}", a.describe())))
        }
        (KernelParamKind::Image { .. }, KernelArg::Image { desc, data }) => {
            Ok(KernelArg::Image { desc, data })
        }
        (KernelParamKind::Image { .. }, a) => {
            Err(err(format!("takes an image, not {}", a.describe())))
        }
        (KernelParamKind::Sampler, KernelArg::Value(v)) if v.len() == 4 => Ok(KernelArg::Value(v)),
        (KernelParamKind::Sampler, a) => Err(err(format!(
            "takes a sampler (4 bytes of CLK_* bits), not {}",
            a.describe()
        ))),
        (KernelParamKind::Other, _) => {
            Err(err("kernels cannot take arguments of this type".into()))
        }
    }
}

/// What a launch produced besides buffer contents.
#[derive(Clone, Debug, Default)]
pub struct LaunchOutput {
    /// Everything `printf` wrote, in work-group order (both devices).
    pub printf: String,
    /// Whether the printf buffer (cpu device: `OCLC_PRINTF_BUFFER_SIZE`, default 1 MiB)
    /// filled up and later output was dropped.
    pub printf_truncated: bool,
    /// The kernel's own run time, measured with CUDA events on the cuda device; `None` on the
    /// cpu device, where only the wall-clock time around [`Device::launch`] is meaningful.
    pub kernel_time: Option<Duration>,
}

/// A device that runs kernels: the embedded cpu device, or an NVIDIA GPU (feature `cuda`).
#[derive(Debug)]
pub struct Device {
    backend: Backend,
}

#[derive(Debug)]
enum Backend {
    Cpu(oclc_cpu::Device),
    #[cfg(feature = "cuda")]
    Cuda(cuda::CudaBackend),
}

impl Device {
    /// The embedded cpu device, using every core, printing `printf` output to stdout, with
    /// the memory limits the `OCLC_*` environment variables set (`oclc_cpu::Limits`; an
    /// invalid value fails its buffers and launches with an error naming the variable).
    pub fn cpu() -> Device {
        Device {
            backend: Backend::Cpu(oclc_cpu::Device::cpu()),
        }
    }

    /// The cpu device with every kernel interpreted (no native code): the reference the
    /// native back end is tested against (`--device cpu-interp`).
    pub fn cpu_interp() -> Device {
        Device {
            backend: Backend::Cpu(oclc_cpu::Device::cpu().with_interpreter(true)),
        }
    }

    /// NVIDIA GPU number `ordinal` through the CUDA driver (loaded at run time). Without the
    /// cargo feature `cuda`, or without a driver or such a GPU, a [`Error::DeviceUnavailable`].
    pub fn cuda(ordinal: u32) -> Result<Device, Error> {
        #[cfg(feature = "cuda")]
        {
            Ok(Device {
                backend: Backend::Cuda(cuda::CudaBackend::new(ordinal as usize)?),
            })
        }
        #[cfg(not(feature = "cuda"))]
        {
            Err(Error::DeviceUnavailable(format!(
                "cuda device {ordinal}: oclc was built without CUDA support; rebuild with --features cuda"
            )))
        }
    }

    /// The device as messages name it: `the cpu device`, `cuda device 0 (NVIDIA H100 ..., sm_90)`.
    pub fn name(&self) -> String {
        match &self.backend {
            Backend::Cpu(_) => "the cpu device".into(),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.describe(),
        }
    }

    /// What the driver reports about the GPU (`None` on the cpu device).
    #[cfg(feature = "cuda")]
    pub fn cuda_info(&self) -> Option<oclc_ptx::cuda::DeviceInfo> {
        match &self.backend {
            Backend::Cpu(_) => None,
            Backend::Cuda(c) => Some(c.info()),
        }
    }

    /// Whether this is a GPU (the cuda device).
    pub fn is_cuda(&self) -> bool {
        !matches!(self.backend, Backend::Cpu(_))
    }

    /// Applies a setting of the cpu device; the cuda device has none of them.
    fn map_cpu(self, f: impl FnOnce(oclc_cpu::Device) -> oclc_cpu::Device) -> Device {
        match self.backend {
            Backend::Cpu(d) => Device {
                backend: Backend::Cpu(f(d)),
            },
            #[cfg(feature = "cuda")]
            other => Device { backend: other },
        }
    }

    /// Runs work-groups on `n` threads (0: every core). Cpu device only.
    pub fn with_threads(self, n: usize) -> Device {
        self.map_cpu(|d| d.with_threads(n))
    }

    /// Steps (branches and calls) one work-item may take before it is stopped as runaway.
    /// Cpu device only.
    pub fn with_max_steps(self, n: u64) -> Device {
        self.map_cpu(|d| d.with_max_steps(n))
    }

    /// Turns on data-race detection on local and global memory. Cpu device only.
    pub fn with_race_detection(self, on: bool) -> Device {
        self.map_cpu(|d| d.with_race_detection(on))
    }

    /// `--checks`: on the cuda device every access and barrier of the programs loaded from
    /// now on is checked in the kernel and a fault is an [`Error::Runtime`] as on the cpu
    /// device (default: off, or `OCLC_CUDA_CHECKS=1`). The cpu device always checks.
    pub fn with_checks(self, on: bool) -> Device {
        #[cfg(feature = "cuda")]
        if let Backend::Cuda(c) = &self.backend
            && on
        {
            c.dev.set_checks(true);
        }
        let _ = on;
        self
    }

    /// Whether `printf` output is also written to standard output (default: yes).
    pub fn with_printf_echo(self, on: bool) -> Device {
        #[cfg(feature = "cuda")]
        if let Backend::Cuda(c) = &self.backend {
            c.dev.set_printf_echo(on);
        }
        self.map_cpu(|d| d.with_printf_echo(on))
    }

    /// Sets CL_DEVICE_LOCAL_MEM_SIZE, the `__local` bytes a work-group may use (kernel-scope
    /// variables and `__local` arguments together; default 64 KiB or `OCLC_LOCAL_MEM_SIZE`).
    /// Cpu device only.
    pub fn with_local_mem_size(self, bytes: u64) -> Device {
        self.map_cpu(|d| d.with_local_mem_size(bytes))
    }

    /// Sets CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, the `__constant` bytes a launch may use
    /// (program-scope constants and `__constant` buffer arguments together; default 64 KiB or
    /// `OCLC_CONSTANT_MEM_SIZE`). Cpu device only.
    pub fn with_constant_mem_size(self, bytes: u64) -> Device {
        self.map_cpu(|d| d.with_constant_mem_size(bytes))
    }

    /// Sets CL_DEVICE_MAX_MEM_ALLOC_SIZE, the largest buffer (default half the physical
    /// memory, or `OCLC_MAX_ALLOC_SIZE`; at most 1 TiB). Cpu device only.
    pub fn with_max_alloc_size(self, bytes: u64) -> Device {
        self.map_cpu(|d| d.with_max_alloc_size(bytes))
    }

    /// Sets the most work-items one launch may have (default 2^31 or `OCLC_MAX_WORK_ITEMS`):
    /// the interpreter runs some 10^7 a second per core, so larger ranges are an error rather
    /// than a launch that does not end. Cpu device only.
    pub fn with_max_work_items(self, n: u64) -> Device {
        self.map_cpu(|d| d.with_max_work_items(n))
    }

    /// The cpu device's limits (`None` on the cuda device).
    pub fn cpu_limits(&self) -> Option<oclc_cpu::Limits> {
        match &self.backend {
            Backend::Cpu(d) => Some(d.limits()),
            #[cfg(feature = "cuda")]
            Backend::Cuda(_) => None,
        }
    }

    /// Bytes of `printf` output one launch may hold (default 1 MiB, or the environment's
    /// `OCLC_PRINTF_BUFFER_SIZE`); later output is dropped, `printf` returns -1 and the
    /// launch reports `printf_truncated`.
    pub fn with_printf_buffer(self, bytes: usize) -> Device {
        #[cfg(feature = "cuda")]
        if let Backend::Cuda(c) = &self.backend {
            c.dev.set_printf_buffer(bytes);
        }
        self.map_cpu(|d| d.with_printf_buffer(bytes))
    }

    /// A buffer holding `values`.
    pub fn buffer_from_slice<T: Element>(&self, values: &[T]) -> Result<Buffer, Error> {
        match &self.backend {
            Backend::Cpu(cpu) => {
                // Encoded piece by piece into the buffer: the values are not copied twice.
                let b = cpu
                    .buffer(byte_size::<T>(values.len())?)
                    .map_err(cpu_error)?;
                let mut piece = Vec::with_capacity(CHUNK_ELEMS * T::SIZE);
                for (k, chunk) in values.chunks(CHUNK_ELEMS).enumerate() {
                    piece.clear();
                    for v in chunk {
                        v.put(&mut piece);
                    }
                    b.write_at(k * CHUNK_ELEMS * T::SIZE, &piece);
                }
                Ok(Buffer { mem: Mem::Cpu(b) })
            }
            #[cfg(feature = "cuda")]
            Backend::Cuda(_) => self.buffer_from_bytes(&try_to_bytes(values)?),
        }
    }

    /// A buffer holding `bytes`.
    pub fn buffer_from_bytes(&self, bytes: &[u8]) -> Result<Buffer, Error> {
        match &self.backend {
            Backend::Cpu(cpu) => Ok(Buffer {
                mem: Mem::Cpu(cpu.buffer_from_bytes(bytes).map_err(cpu_error)?),
            }),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.buffer(bytes.len(), Some(bytes)),
        }
    }

    /// A zeroed buffer of `len` bytes for coarse-grained SVM: managed memory whose
    /// [`Buffer::svm_address`] is valid on the host and on the GPU. Only on a cuda device
    /// whose `managed_svm` is set; elsewhere an [`Error::Memory`].
    #[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
    pub fn svm_buffer(&self, len: usize) -> Result<Buffer, Error> {
        match &self.backend {
            Backend::Cpu(_) => Err(Error::Memory(
                "SVM buffers by address need a cuda device".into(),
            )),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.svm_buffer(len),
        }
    }

    /// A zeroed buffer of `len` elements of `T`: an [`Error::Memory`] when its bytes overflow
    /// size_t, exceed the cpu device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, or the memory cannot be
    /// had.
    pub fn buffer<T: Element>(&self, len: usize) -> Result<Buffer, Error> {
        let bytes = byte_size::<T>(len)?;
        match &self.backend {
            Backend::Cpu(cpu) => Ok(Buffer {
                mem: Mem::Cpu(cpu.buffer(bytes).map_err(cpu_error)?),
            }),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.buffer(bytes, None),
        }
    }

    /// Compiles `program` for this device now rather than at its first launch (a no-op on the
    /// cpu device, which loads programs when they are built).
    #[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
    pub fn prepare(&self, program: &Program) -> Result<(), Error> {
        match &self.backend {
            Backend::Cpu(_) => Ok(()),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.loaded(program).map(|_| ()),
        }
    }

    /// Runs `kernel` with its arguments over `range` and waits for it.
    pub fn launch(&self, kernel: &Kernel<'_>, range: &NdRange) -> Result<LaunchOutput, Error> {
        let args = kernel.launch_args(range)?;
        match &self.backend {
            Backend::Cpu(cpu) => launch_cpu(cpu, kernel, &args, &[], &[], range),
            #[cfg(feature = "cuda")]
            Backend::Cuda(c) => c.launch(kernel, &args, range),
        }
    }
}

impl Kernel<'_> {
    /// Every argument, once the range is checked against the program's uniform work-groups.
    fn launch_args(&self, range: &NdRange) -> Result<Vec<&KernelArg>, Error> {
        let args = self.all_args()?;
        if self.program.uniform_work_groups
            && let Some(local) = &range.local
        {
            for (k, (g, l)) in range.global.iter().zip(local).enumerate() {
                if *l != 0 && g % l != 0 {
                    return Err(Error::Launch(format!(
                        "global size {g} is not a multiple of local size {l} in dimension {k}: \
                         non-uniform work-groups need -cl-std=CL2.0 or later \
                         (and no -cl-uniform-work-group-size)"
                    )));
                }
            }
        }
        Ok(args)
    }

    /// [`Device::launch`] on a cpu device held outside a [`Device`]: the OpenCL platform
    /// (oclc-icd) keeps `oclc_cpu::Device`, which any thread may use, where a [`Device`] built
    /// with the `cuda` feature may not cross threads.
    pub fn launch_on_cpu(
        &self,
        cpu: &oclc_cpu::Device,
        range: &NdRange,
    ) -> Result<LaunchOutput, Error> {
        let args = self.launch_args(range)?;
        launch_cpu(cpu, self, &args, &[], &[], range)
    }

    /// [`Kernel::launch_on_cpu`] with shared virtual memory: the kernel reaches the `svm`
    /// allocations by their host addresses, and each `(index, address)` of `addresses`
    /// replaces argument `index` (set to anything first) by that raw address (OpenCL's
    /// `clSetKernelArgSVMPointer`).
    pub fn launch_on_cpu_svm(
        &self,
        cpu: &oclc_cpu::Device,
        range: &NdRange,
        svm: &[oclc_cpu::Svm],
        addresses: &[(usize, u64)],
    ) -> Result<LaunchOutput, Error> {
        let args = self.launch_args(range)?;
        launch_cpu(cpu, self, &args, svm, addresses, range)
    }
}

#[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
fn launch_cpu(
    cpu: &oclc_cpu::Device,
    kernel: &Kernel<'_>,
    args: &[&KernelArg],
    svm: &[oclc_cpu::Svm],
    addresses: &[(usize, u64)],
    range: &NdRange,
) -> Result<LaunchOutput, Error> {
    let mut args = args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            KernelArg::Buffer(b) => match &b.mem {
                Mem::Cpu(m) => Ok(oclc_cpu::Arg::Buffer(m.clone())),
                #[cfg(feature = "cuda")]
                Mem::Cuda { .. } => Err(kernel.foreign_buffer(i, b, "the cpu device")),
            },
            KernelArg::Local(n) => Ok(oclc_cpu::Arg::Local(*n)),
            KernelArg::Value(v) => Ok(oclc_cpu::Arg::Bytes(v.clone())),
            KernelArg::Null => Ok(oclc_cpu::Arg::Null),
            KernelArg::Address(a) => Ok(oclc_cpu::Arg::Address(*a)),
            KernelArg::Image { desc, data } => match &data.mem {
                Mem::Cpu(m) => Ok(oclc_cpu::Arg::Image {
                    desc: *desc,
                    data: m.clone(),
                }),
                #[cfg(feature = "cuda")]
                Mem::Cuda { .. } => Err(kernel.foreign_buffer(i, data, "the cpu device")),
            },
        })
        .collect::<Result<Vec<_>, Error>>()?;
    for &(i, a) in addresses {
        if let Some(slot) = args.get_mut(i) {
            *slot = oclc_cpu::Arg::Address(a);
        }
    }
    let prog = kernel.program;
    match cpu.launch_svm(&prog.cpu, &kernel.sig.name, &args, svm, range) {
        Ok(out) => Ok(LaunchOutput {
            printf: out.printf,
            printf_truncated: out.printf_truncated,
            kernel_time: None,
        }),
        Err(oclc_cpu::DeviceError::Runtime(e)) => Err(Error::Runtime(Box::new(prog.fault(&e)))),
        Err(e) => Err(cpu_error(e)),
    }
}

/// The cuda side of [`Device`]: the GPU, and the programs loaded on it.
#[cfg(feature = "cuda")]
mod cuda {
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::sync::{Arc, Weak};
    use std::time::Duration;

    use oclc_ptx::cuda::{Arg, CudaDevice, CudaError};

    use super::{Buffer, Error, Kernel, KernelArg, LaunchOutput, Mem, NdRange, Program};

    /// A GPU and the code compiled for it, one module per live [`Program`].
    #[derive(Debug)]
    pub(super) struct CudaBackend {
        ordinal: usize,
        pub(super) dev: CudaDevice,
        programs: RefCell<Vec<Loaded>>,
    }

    /// A program's module on this GPU, kept while the program lives.
    struct Loaded {
        owner: Weak<()>,
        module: Rc<oclc_ptx::cuda::Program>,
    }

    impl std::fmt::Debug for Loaded {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("Loaded")
        }
    }

    impl CudaBackend {
        pub(super) fn new(ordinal: usize) -> Result<CudaBackend, Error> {
            let dev = CudaDevice::new(ordinal).map_err(|e| match e {
                CudaError::NoDriver(m) => {
                    Error::DeviceUnavailable(format!("cuda device {ordinal}: {m}"))
                }
                e => Error::DeviceUnavailable(format!("cuda device {ordinal}: {e}")),
            })?;
            Ok(CudaBackend {
                ordinal,
                dev,
                programs: RefCell::new(Vec::new()),
            })
        }

        pub(super) fn info(&self) -> oclc_ptx::cuda::DeviceInfo {
            self.dev.info().clone()
        }

        fn short_name(&self) -> String {
            format!("cuda device {}", self.ordinal)
        }

        pub(super) fn describe(&self) -> String {
            format!(
                "cuda device {} ({}, {})",
                self.ordinal,
                self.dev.name(),
                self.dev.target()
            )
        }

        pub(super) fn buffer(&self, len: usize, init: Option<&[u8]>) -> Result<Buffer, Error> {
            let buf = match init {
                Some(bytes) => self.dev.buffer_from_bytes(bytes),
                None => self.dev.zeroed(len),
            }
            .map_err(|e| Error::Memory(e.to_string()))?;
            Ok(Buffer {
                mem: Mem::Cuda {
                    ordinal: self.ordinal,
                    buf,
                },
            })
        }

        pub(super) fn svm_buffer(&self, len: usize) -> Result<Buffer, Error> {
            let buf = self
                .dev
                .managed(len)
                .map_err(|e| Error::Memory(e.to_string()))?;
            Ok(Buffer {
                mem: Mem::Cuda {
                    ordinal: self.ordinal,
                    buf,
                },
            })
        }

        /// `program`'s module on this GPU, generating PTX and loading it on first use; modules
        /// of programs that have been dropped are unloaded on the way.
        pub(super) fn loaded(
            &self,
            program: &Program,
        ) -> Result<Rc<oclc_ptx::cuda::Program>, Error> {
            let mut programs = self.programs.borrow_mut();
            programs.retain(|l| l.owner.strong_count() > 0);
            let me = Arc::as_ptr(&program.token);
            if let Some(l) = programs.iter().find(|l| std::ptr::eq(l.owner.as_ptr(), me)) {
                return Ok(l.module.clone());
            }
            let module = self
                .dev
                .load(
                    program.ir(),
                    Some(program.source_map()),
                    oclc_ptx::FloatMode {
                        fast_math: program.fast_math,
                        exact_div_sqrt: program.exact_div_sqrt,
                    },
                )
                .map_err(|e| Error::DeviceCompile {
                    device: self.describe(),
                    message: e.to_string(),
                })?;
            let module = Rc::new(module);
            programs.push(Loaded {
                owner: Arc::downgrade(&program.token),
                module: module.clone(),
            });
            Ok(module)
        }

        pub(super) fn launch(
            &self,
            kernel: &Kernel<'_>,
            args: &[&KernelArg],
            range: &NdRange,
        ) -> Result<LaunchOutput, Error> {
            let args = args
                .iter()
                .enumerate()
                .map(|(i, a)| match a {
                    KernelArg::Buffer(b) => match &b.mem {
                        Mem::Cuda { ordinal, buf } if *ordinal == self.ordinal => {
                            Ok(Arg::Buffer(buf.clone()))
                        }
                        _ => Err(kernel.foreign_buffer(i, b, &self.short_name())),
                    },
                    KernelArg::Local(n) => Ok(Arg::Local(*n)),
                    KernelArg::Value(v) => Ok(Arg::Bytes(v.clone())),
                    KernelArg::Null => Err(Error::Launch(
                        "NULL buffer arguments are not supported on the cuda device".into(),
                    )),
                    KernelArg::Address(a) => Ok(Arg::Address(*a)),
                    KernelArg::Image { .. } => Err(Error::Launch(
                        "images are not supported on the cuda device".into(),
                    )),
                })
                .collect::<Result<Vec<_>, Error>>()?;
            let module = self.loaded(kernel.program)?;
            let nd = oclc_ptx::cuda::NdRange {
                global: range.global.clone(),
                local: range.local.clone(),
                offset: range.offset.clone(),
            };
            match self.dev.launch(&module, kernel.name(), &args, &nd) {
                Ok(t) => Ok(LaunchOutput {
                    printf: t.printf,
                    printf_truncated: t.printf_truncated,
                    kernel_time: Some(Duration::from_secs_f64(
                        f64::from(t.kernel_ms.max(0.0)) / 1e3,
                    )),
                }),
                Err(CudaError::Check(e)) => Err(Error::Runtime(Box::new(kernel.program.fault(&e)))),
                Err(CudaError::Fault { kernel, message }) => Err(Error::Fault {
                    kernel,
                    device: self.short_name(),
                    message,
                }),
                Err(
                    e @ (CudaError::Ptxas(_) | CudaError::Ptx(_) | CudaError::InvalidProgram(_)),
                ) => Err(Error::DeviceCompile {
                    device: self.describe(),
                    message: e.to_string(),
                }),
                Err(e) => Err(Error::Launch(e.to_string())),
            }
        }
    }
}
