//! Helpers for the pass tests: spans on numbered lines of a fake source file, parameter
//! constructors, and running a module on the cpu device with and without the passes.
#![allow(dead_code)]

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::passes::{PassOptions, PassReport, run_default};
use oclc_ir::*;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, FileId, LangOptions, SourceMap, Span};

/// The unoptimized IR of OpenCL C 2.0 `src` (file `name`); front-end errors fail the test.
pub fn compile(name: &str, src: &str) -> (Module, SourceMap) {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text(name, src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.list.first());
    let m = oclc_lower::lower(&program, &sm, &mut diags).expect("lowers");
    (m, sm)
}

/// A source map holding one file of 200 two-byte lines, so `line(n)` spans print as line n.
pub fn source_map() -> SourceMap {
    let mut sm = SourceMap::new();
    let text: String = (0..200).map(|_| "x\n").collect();
    let id = sm.add_text("test.cl", text);
    assert_eq!(id, FileId(0));
    sm
}

/// A span at the start of line `n` of the test file.
pub fn line(n: u32) -> Span {
    Span::new(FileId(0), (n - 1) * 2, (n - 1) * 2 + 1)
}

pub fn param(name: &str, ty: Type) -> Param {
    Param {
        name: name.into(),
        ty,
        kind: ParamKind::Value,
        c_type: String::new(),
    }
}

pub fn buf(name: &str, space: AddrSpace) -> Param {
    Param {
        name: name.into(),
        ty: Type::Ptr(space),
        kind: ParamKind::Buffer(space),
        c_type: String::new(),
    }
}

pub fn kernel(name: &str, params: Vec<Param>, l: u32) -> Function {
    let mut f = Function::new(name, params, None, line(l));
    f.kernel = Some(KernelInfo::default());
    f
}

pub const G: Type = Type::Ptr(AddrSpace::Generic);

/// Runs the default pipeline and checks that it verified cleanly.
pub fn run_all(m: &mut Module) -> PassReport {
    let r = run_default(m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    if let Err(e) = verify_module(m) {
        panic!("{e:?}\n{}", print_module(m, None));
    }
    r
}

/// Every instruction op of function `name`, in block order.
pub fn ops(m: &Module, name: &str) -> Vec<Op> {
    let f = m
        .function_by_name(name)
        .and_then(|id| m.function(id))
        .unwrap_or_else(|| panic!("no function {name}"));
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| f.insts[i.index()].op.clone()))
        .collect()
}

/// One argument of a launch: a global buffer's initial bytes, a local size, or a value.
#[derive(Clone)]
pub enum A {
    Buf(Vec<u8>),
    Local(usize),
    Bytes(Vec<u8>),
}

/// Launches `kernel` of `m` and returns the final contents of its buffers.
pub fn launch(m: Module, kernel: &str, args: &[A], global: u64, local: u64) -> Vec<Vec<u8>> {
    let dev = Device::cpu().with_threads(1).with_printf_echo(false);
    let prog = dev.load(m).expect("module loads");
    let mut bufs = Vec::new();
    let args: Vec<Arg> = args
        .iter()
        .map(|a| match a {
            A::Buf(b) => {
                let b = Buffer::from_bytes(b);
                bufs.push(b.clone());
                Arg::Buffer(b)
            }
            A::Local(n) => Arg::Local(*n),
            A::Bytes(b) => Arg::Bytes(b.clone()),
        })
        .collect();
    dev.launch(
        &prog,
        kernel,
        &args,
        &NdRange::new(&[global]).local(&[local]),
    )
    .expect("kernel runs");
    bufs.iter().map(|b| b.read()).collect()
}

/// Runs `kernel` with and without the passes and asserts identical buffers; returns them.
pub fn same_results(m: &Module, kernel: &str, args: &[A], global: u64, local: u64) -> Vec<Vec<u8>> {
    let plain = launch(m.clone(), kernel, args, global, local);
    let mut opt = m.clone();
    run_all(&mut opt);
    let fast = launch(opt, kernel, args, global, local);
    assert_eq!(plain, fast, "results differ with the passes for {kernel}");
    plain
}

pub fn i32s(v: &[u8]) -> Vec<i32> {
    v.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
