//! Test glue: OpenCL C source through the front end, lowering, the IR passes and the PTX
//! emitter.
#![allow(dead_code)]

pub mod kernels;

use oclc_ir::passes::{PassOptions, run_default};
use oclc_ir::*;
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

/// A kernel using every kind of work-group collective on `lid + 1`; results go to
/// `o[5 * global_id + k]`.
pub fn collectives_module() -> Module {
    let mut m = Module::new();
    let mut f = Function::new(
        "wg",
        vec![Param {
            name: "o".into(),
            ty: Type::Ptr(AddrSpace::Global),
            kind: ParamKind::Buffer(AddrSpace::Global),
            c_type: String::new(),
        }],
        None,
        oclc_syntax::Span::default(),
    );
    f.kernel = Some(KernelInfo::default());
    {
        let mut b = Builder::new(&mut f);
        let o = b.params(Block(0))[0];
        let lid = b.work_item_dyn(WorkItemQuery::LocalLinearId, None);
        let l32 = b.conv(ConvOp::Trunc, lid, Type::I32);
        let one = b.i32(1);
        let v = b.bin(BinOp::Add, l32, one);
        let three = b.i64(3);
        let results = [
            b.work_group(WgOp::Reduce(WgArith::IAdd), v, vec![]),
            b.work_group(WgOp::ScanInclusive(WgArith::IAdd), v, vec![]),
            b.work_group(WgOp::ScanExclusive(WgArith::SMax), v, vec![]),
            b.work_group(WgOp::Broadcast, v, vec![three]),
            b.work_group(WgOp::All, v, vec![]),
        ];
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let twenty = b.i64(20);
        let row = b.bin(BinOp::Mul, gid, twenty);
        let base = b.ptr_add(o, row);
        for (k, r) in results.into_iter().enumerate() {
            let p = b.ptr_add_const(base, 4 * k as i64);
            b.store(p, r);
        }
        b.ret(None);
    }
    m.add_function(f);
    m
}
