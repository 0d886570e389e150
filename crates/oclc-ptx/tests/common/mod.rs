//! Test glue: OpenCL C source through the front end, lowering, the IR passes and the PTX
//! emitter.
#![allow(dead_code)]

pub mod kernels;

use oclc_ir::Module;
use oclc_ir::passes::{PassOptions, run_default};
use oclc_ptx::{PtxModule, PtxOptions, emit_module};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

/// The optimized IR module of `src` (OpenCL C 3.0 with the generic address space).
pub fn module(src: &str) -> (Module, SourceMap) {
    let lang = LangOptions::new(ClStd::Cl30);
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
    assert!(!diags.has_errors(), "front end errors: {:?}", diags.list);
    let Some(mut m) = oclc_lower::lower(&program, &sm, &mut diags) else {
        panic!("lowering failed: {:?}", diags.list);
    };
    let r = run_default(&mut m, &PassOptions::default());
    assert!(r.verify_errors.is_empty(), "{:?}", r.verify_errors);
    (m, sm)
}

/// PTX of `src` with default options.
pub fn ptx(src: &str) -> PtxModule {
    ptx_with(src, &PtxOptions::default())
}

pub fn ptx_with(src: &str, opts: &PtxOptions) -> PtxModule {
    let (m, sm) = module(src);
    match emit_module(&m, Some(&sm), opts) {
        Ok(p) => p,
        Err(e) => panic!("{e}\n{}", oclc_ir::print_module(&m, Some(&sm))),
    }
}

/// Writes `text` to `target/ptx-snapshots/NAME.ptx` so `ptxas` can check every emitted module.
pub fn save(name: &str, text: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/ptx-out");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{name}.ptx")), text);
}
