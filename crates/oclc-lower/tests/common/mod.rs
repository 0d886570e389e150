//! Shared test glue: OpenCL C source through the whole front end, lowering and the verifier,
//! and launches on the cpu device.
#![allow(dead_code)]

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::Module;
use oclc_lower::{LowerOptions, lower_with};
use oclc_sema::hir::Program;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

/// Diagnostics of a failed compile, one per line (`line:col: message`).
pub fn render(sm: &SourceMap, diags: &Diagnostics) -> String {
    diags
        .list
        .iter()
        .filter(|d| d.is_error())
        .map(|d| match sm.location(d.span) {
            Some((_, l, c)) => format!("{l}:{c}: {:?}: {}", d.level, d.message),
            None => format!("?: {:?}: {}", d.level, d.message),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub struct Compiled {
    pub module: Module,
    pub program: Program,
}

/// Front end + lowering + verifier; `Err` has the diagnostics or verifier errors.
pub fn compile_opts(src: &str, std: &str, opts: LowerOptions) -> Result<Compiled, String> {
    let std = ClStd::parse(std).unwrap_or(ClStd::Cl30);
    let lang = LangOptions::new(std);
    let mut sm = SourceMap::new();
    let main = sm.add_text("test.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    if diags.has_errors() {
        return Err(format!("front end: {}", render(&sm, &diags)));
    }
    let Some(module) = lower_with(&program, &sm, &mut diags, opts) else {
        return Err(render(&sm, &diags));
    };
    if let Err(errs) = oclc_ir::verify_module(&module) {
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        return Err(format!(
            "verifier:\n{}\n{}",
            text.join("\n"),
            oclc_ir::print_module(&module, Some(&sm))
        ));
    }
    Ok(Compiled { module, program })
}

pub fn compile(src: &str) -> Compiled {
    match compile_opts(src, "CL3.0", LowerOptions::default()) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

/// The diagnostics of a source that must fail to lower.
pub fn compile_err(src: &str) -> String {
    match compile_opts(src, "CL3.0", LowerOptions::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

pub fn device() -> Device {
    Device::cpu().with_threads(2).with_printf_echo(false)
}

/// Runs kernel `name` over `global` (and `local`) work-items with `args`; returns the
/// final contents of every buffer argument, in order, then what `printf` wrote. Runs both with SSA variables and
/// with every variable in memory, and checks that they agree.
pub fn run(
    src: &str,
    name: &str,
    global: &[u64],
    local: Option<&[u64]>,
    args: &[ArgSpec],
) -> Vec<Vec<u8>> {
    let a = run_once(src, name, global, local, args, LowerOptions::default());
    let b = run_once(
        src,
        name,
        global,
        local,
        args,
        LowerOptions {
            all_in_memory: true,
        },
    );
    assert_eq!(a, b, "SSA and in-memory lowering disagree");
    a
}

#[derive(Clone)]
pub enum ArgSpec {
    Buf(Vec<u8>),
    Local(usize),
    Val(Vec<u8>),
}

pub fn run_once(
    src: &str,
    name: &str,
    global: &[u64],
    local: Option<&[u64]>,
    args: &[ArgSpec],
    opts: LowerOptions,
) -> Vec<Vec<u8>> {
    let c = match compile_opts(src, "CL3.0", opts) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    let dev = device();
    let prog = dev.load(c.module).unwrap_or_else(|e| panic!("load: {e:?}"));
    let mut bufs = Vec::new();
    let mut launch_args = Vec::new();
    for a in args {
        match a {
            ArgSpec::Buf(bytes) => {
                let b = Buffer::from_bytes(bytes);
                bufs.push(b.clone());
                launch_args.push(Arg::Buffer(b));
            }
            ArgSpec::Local(n) => launch_args.push(Arg::Local(*n)),
            ArgSpec::Val(bytes) => launch_args.push(Arg::Bytes(bytes.clone())),
        }
    }
    let mut nd = NdRange::new(global);
    if let Some(l) = local {
        nd = nd.local(l);
    }
    let printed = match dev.launch(&prog, name, &launch_args, &nd) {
        Ok(o) => o.printf,
        Err(e) => panic!("launch: {e}"),
    };
    let mut out: Vec<Vec<u8>> = bufs.iter().map(Buffer::read).collect();
    out.push(printed.into_bytes());
    out
}

pub fn i32s(v: &[u8]) -> Vec<i32> {
    v.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn u32s(v: &[u8]) -> Vec<u32> {
    v.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn f32s(v: &[u8]) -> Vec<f32> {
    v.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}
