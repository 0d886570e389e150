//! No internal errors from the PTX emitter on anything the front end accepts: every builtin
//! overload (a sample of each name's overloads; all of them with `OCLC_SWEEP_ALL=1`) under
//! `-cl-std=CL3.0 -cl-ext=+all`, called from a generated kernel, goes through lowering, the
//! IR passes, the device pipeline and `emit_module`: the result is PTX or a located
//! "the cuda device does not support X" error, never `PtxError::Invalid` and never a panic.

use oclc_ir::passes::{PassOptions, optimize_for_device, run_default};
use oclc_ptx::{PtxError, PtxOptions, emit_module};
use oclc_sema::builtins::{BTy, Builtins, Pointee, Scalar};
use oclc_sema::space::AddrSpace;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

/// What became of one generated program.
#[derive(Debug)]
enum Outcome {
    /// The front end or lowering rejected it (not this test's business).
    Rejected,
    Ptx,
    Unsupported(String),
    Invalid(String),
    Panic(String),
}

fn lang() -> LangOptions {
    let mut l = LangOptions::new(ClStd::Cl30);
    l.apply_cl_ext("+all").unwrap_or_else(|e| panic!("{e}"));
    l
}

/// Front end, lowering, `run_default` (at `opt`), the device pipeline and the emitter.
fn compile(src: &str, lang: &LangOptions, opt: u8) -> Outcome {
    let run = || {
        let mut sm = SourceMap::new();
        let main = sm.add_text("k.cl", src.to_string());
        let mut diags = Diagnostics::default();
        let pp_opts = PpOptions {
            lang: lang.clone(),
            macros: Vec::new(),
            include_dirs: Vec::new(),
        };
        let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
        let tu = oclc_syntax::parse::parse(&out, &sm, lang, &mut diags);
        let program = oclc_sema::check(&tu, &sm, lang, &mut diags);
        if diags.has_errors() {
            return Outcome::Rejected;
        }
        let Some(mut m) = oclc_lower::lower(&program, &sm, &mut diags) else {
            return Outcome::Rejected;
        };
        if diags.has_errors() {
            return Outcome::Rejected;
        }
        let r = run_default(&mut m, &PassOptions { opt_level: opt });
        if let Some(e) = r.verify_errors.first() {
            return Outcome::Invalid(format!("pass {e:?}"));
        }
        optimize_for_device(&mut m);
        match emit_module(&m, Some(&sm), &PtxOptions::default()) {
            Ok(_) => Outcome::Ptx,
            Err(e @ PtxError::Unsupported { .. }) => {
                if !e.to_string().starts_with("k.cl:") {
                    return Outcome::Invalid(format!("unlocated: {e}"));
                }
                Outcome::Unsupported(e.to_string())
            }
            Err(e) => Outcome::Invalid(e.to_string()),
        }
    };
    match std::panic::catch_unwind(run) {
        Ok(o) => o,
        Err(p) => Outcome::Panic(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        ),
    }
}

/// The kernel's parameters every generated call may draw on.
const PARAMS: &str = "global uchar *raw, constant uchar *craw, global uchar *out, \
    read_only image2d_t ri2, write_only image2d_t wi2, read_write image2d_t rwi2, \
    read_only image1d_t ri1, write_only image1d_t wi1, read_only image3d_t ri3, \
    write_only image3d_t wi3, read_only image2d_array_t ri2a, write_only image2d_array_t wi2a, \
    read_only image1d_array_t ri1a, write_only image1d_array_t wi1a, \
    read_only image1d_buffer_t ri1b, write_only image1d_buffer_t wi1b, \
    read_only image2d_depth_t ri2d, write_only image2d_depth_t wi2d, \
    read_only image2d_array_depth_t ri2ad, write_only image2d_array_depth_t wi2ad, \
    read_write image3d_t rwi3, read_write image1d_t rwi1, read_write image2d_array_t rwi2a, \
    read_write image1d_array_t rwi1a, read_write image1d_buffer_t rwi1b, \
    read_write image2d_depth_t rwi2d, read_write image2d_array_depth_t rwi2ad, sampler_t smp";

fn space_kw(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Global => "global",
        AddrSpace::Local => "local",
        AddrSpace::Constant => "constant",
        AddrSpace::Private => "private",
        AddrSpace::Generic => "",
    }
}

fn image_param(b: BTy) -> Option<&'static str> {
    let BTy::Image(k, a) = b else { return None };
    let prefix = match a {
        oclc_sema::builtins::Access::ReadOnly => "r",
        oclc_sema::builtins::Access::WriteOnly => "w",
        oclc_sema::builtins::Access::ReadWrite => "rw",
    };
    use oclc_sema::builtins::ImageKind as K;
    let suffix = match k {
        K::Image1d => "i1",
        K::Image1dArray => "i1a",
        K::Image1dBuffer => "i1b",
        K::Image2d => "i2",
        K::Image2dArray => "i2a",
        K::Image2dDepth => "i2d",
        K::Image2dArrayDepth => "i2ad",
        K::Image3d => "i3",
        _ => return None,
    };
    Some(match (prefix, suffix) {
        ("r", "i1") => "ri1",
        ("r", "i1a") => "ri1a",
        ("r", "i1b") => "ri1b",
        ("r", "i2") => "ri2",
        ("r", "i2a") => "ri2a",
        ("r", "i2d") => "ri2d",
        ("r", "i2ad") => "ri2ad",
        ("r", "i3") => "ri3",
        ("w", "i1") => "wi1",
        ("w", "i1a") => "wi1a",
        ("w", "i1b") => "wi1b",
        ("w", "i2") => "wi2",
        ("w", "i2a") => "wi2a",
        ("w", "i2d") => "wi2d",
        ("w", "i2ad") => "wi2ad",
        ("w", "i3") => "wi3",
        ("rw", "i1") => "rwi1",
        ("rw", "i1a") => "rwi1a",
        ("rw", "i1b") => "rwi1b",
        ("rw", "i2") => "rwi2",
        ("rw", "i2a") => "rwi2a",
        ("rw", "i2d") => "rwi2d",
        ("rw", "i2ad") => "rwi2ad",
        ("rw", "i3") => "rwi3",
        _ => return None,
    })
}

/// A pointee type as C source.
fn pointee_text(p: Pointee) -> Option<String> {
    Some(match p {
        Pointee::Void => "void".into(),
        Pointee::Scalar(s) => s.name().into(),
        Pointee::Vector(s, n) => format!("{}{}", s.name(), n),
        Pointee::Atomic(a) => a.name().into(),
        Pointee::Event => "event_t".into(),
        _ => return None,
    })
}

/// Statements declaring argument `k` of type `t` (as `aK`), or `None` when the test cannot
/// make one.
fn arg(k: usize, t: BTy, name: &str) -> Option<String> {
    let off = 64 * k;
    Some(match t {
        BTy::Scalar(Scalar::Bool) => format!("bool a{k} = raw[{off}] != 0;"),
        BTy::Scalar(Scalar::MemFenceFlags) => {
            format!("cl_mem_fence_flags a{k} = CLK_GLOBAL_MEM_FENCE;")
        }
        BTy::Scalar(s @ Scalar::ProfilingInfo) => {
            format!("{} a{k} = CLK_PROFILING_COMMAND_EXEC_TIME;", s.name())
        }
        // Small values: a lane count, an index or an element count must be meaningful.
        BTy::Scalar(s) if s.is_integer() && (name.contains("async") || name.contains("wait")) => {
            format!("{} a{k} = ({})1;", s.name(), s.name())
        }
        BTy::Scalar(s) => format!("{0} a{k} = *(global {0} *)(raw + {off});", s.name()),
        BTy::Vector(s, n) => format!("{0}{n} a{k} = *(global {0}{n} *)(raw + {off});", s.name()),
        BTy::Ptr(p) => {
            let pt = pointee_text(p.pointee)?;
            let cv = format!(
                "{}{}",
                if p.is_const { "const " } else { "" },
                if p.is_volatile { "volatile " } else { "" }
            );
            let sp = space_kw(p.space);
            let src = match (p.space, p.pointee) {
                (_, Pointee::Event) => format!("(event_t *)evs{k}"),
                (AddrSpace::Global | AddrSpace::Generic, _) => format!("raw + {off}"),
                (AddrSpace::Constant, _) => format!("craw + {off}"),
                (AddrSpace::Local, _) => format!("(local uchar *)lraw + {off}"),
                (AddrSpace::Private, _) => format!("(private uchar *)praw{k}"),
            };
            let decl = match (p.space, p.pointee) {
                (_, Pointee::Event) => format!("event_t evs{k}[2]; evs{k}[0] = 0; evs{k}[1] = 0; "),
                (AddrSpace::Private, _) => format!("ulong16 praw{k}[8] = {{0}}; "),
                _ => String::new(),
            };
            format!("{decl}{cv}{sp} {pt} *a{k} = ({cv}{sp} {pt} *)({src});")
        }
        BTy::Image(..) => format!("#define a{k} {}\n", image_param(t)?),
        BTy::Sampler => format!("sampler_t a{k} = smp;"),
        BTy::Event => format!("event_t a{k} = 0;"),
        BTy::MemoryOrder => format!("memory_order a{k} = memory_order_relaxed;"),
        BTy::MemoryScope => format!("memory_scope a{k} = memory_scope_work_group;"),
        BTy::Queue => format!("queue_t a{k} = get_default_queue();"),
        BTy::NDRange => format!("ndrange_t a{k} = ndrange_1D(1);"),
        BTy::ClkEvent => format!("clk_event_t a{k} = create_user_event();"),
        _ => return None,
    })
}

/// A kernel `kI` calling overload `sig` of `name`; `None` when an argument cannot be made.
fn kernel(i: usize, name: &str, params: &[BTy], ret: BTy) -> Option<String> {
    let mut body = String::new();
    let mut args = Vec::new();
    for (k, &t) in params.iter().enumerate() {
        body += &arg(k, t, name)?;
        body += "\n    ";
        args.push(format!("a{k}"));
    }
    let call = format!("{name}({})", args.join(", "));
    let sink = match ret {
        BTy::Void => format!("{call};"),
        BTy::Scalar(Scalar::Bool) => format!("out[0] = {call};"),
        BTy::Scalar(s) => format!("*(global {} *)out = {call};", s.name()),
        BTy::Vector(s, n) => format!("*(global {}{n} *)out = {call};", s.name()),
        BTy::Ptr(_) => format!("*(global ulong *)out = (ulong){call};"),
        BTy::Event => format!("event_t e = {call}; wait_group_events(1, &e);"),
        _ => format!("(void){call};"),
    };
    let undefs: String = (0..params.len())
        .map(|k| format!("#undef a{k}\n"))
        .collect();
    Some(format!(
        "kernel void k{i}({PARAMS})\n{{\n    local ulong16 lraw[64];\n    {body}{sink}\n}}\n{undefs}"
    ))
}

/// Up to `max` indices of `0..n`, spread evenly (the first and last included).
fn sample(n: usize, max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..max).map(|i| i * (n - 1) / (max - 1)).collect();
    v.dedup();
    v
}

#[test]
fn every_builtin_emits_ptx_or_a_located_unsupported_error() {
    let lang = lang();
    let b = Builtins::new(&lang);
    let all = std::env::var("OCLC_SWEEP_ALL").is_ok_and(|v| v == "1");
    let per_name = if all { usize::MAX } else { 3 };
    let (mut names, mut calls, mut rejected, mut ptx) = (0, 0, 0, 0);
    let mut unsupported: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    for id in b.names() {
        let name = b.name(id);
        let overloads: Vec<_> = b.overloads(id).collect();
        if overloads.is_empty() {
            continue;
        }
        names += 1;
        let mut kernels = Vec::new();
        for oi in sample(overloads.len(), per_name) {
            let sig = b.signature(overloads[oi]);
            if sig.variadic {
                continue;
            }
            if let Some(k) = kernel(kernels.len(), name, sig.params(), sig.ret) {
                kernels.push(k);
            }
        }
        // All sampled overloads in one program; one by one when that fails.
        let opt: u8 = std::env::var("OCLC_SWEEP_OPT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2);
        let together = compile(&kernels.concat(), &lang, opt);
        let outcomes: Vec<(String, Outcome)> = if matches!(together, Outcome::Ptx) {
            calls += kernels.len();
            ptx += kernels.len();
            continue;
        } else {
            kernels
                .iter()
                .map(|k| (k.clone(), compile(k, &lang, opt)))
                .collect()
        };
        for (src, o) in outcomes {
            calls += 1;
            match o {
                Outcome::Ptx => ptx += 1,
                Outcome::Rejected => rejected += 1,
                Outcome::Unsupported(what) => {
                    let what = what
                        .split_once(": ")
                        .map_or(what.clone(), |(_, w)| w.into());
                    *unsupported.entry(what).or_default() += 1;
                }
                Outcome::Invalid(e) | Outcome::Panic(e) => {
                    // The declarations and the call: the kernel's own lines.
                    let body: Vec<&str> = src
                        .lines()
                        .filter(|l| l.starts_with("    ") && !l.contains("lraw[64]"))
                        .collect();
                    failures.push(format!("{name}: {e}\n{}", body.join("\n")))
                }
            }
        }
    }
    eprintln!(
        "{names} builtins, {calls} calls: {ptx} emitted, {rejected} rejected by the front end, \
         {} unsupported",
        unsupported.values().sum::<usize>()
    );
    for (what, n) in &unsupported {
        eprintln!("  unsupported ({n}): {what}");
    }
    assert!(
        failures.is_empty(),
        "{} internal errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(names > 500 && ptx > 1000, "{names} names, {ptx} emitted");
}
