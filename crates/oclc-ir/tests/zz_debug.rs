mod passes_util;
use oclc_ir::passes::*;
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
#[test]
fn dbg() {
    let src = std::fs::read_to_string(std::env::var("DBG_FILE").unwrap()).unwrap();
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("k.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    let mut m = oclc_lower::lower_with(
        &program,
        &sm,
        &mut diags,
        oclc_lower::LowerOptions {
            all_in_memory: true,
        },
    )
    .unwrap();
    let stage = std::env::var("DBG_STAGE").unwrap_or_default();
    if stage == "sroa" {
        let n = sroa::sroa_module(&mut m);
        eprintln!("sroa: {n:?}");
    } else if stage == "mem2reg" {
        sroa::sroa_module(&mut m);
        for f in m.functions.iter_mut() {
            mem2reg::mem2reg(f);
        }
    } else if stage == "all" {
        let r = run_default(&mut m, &PassOptions::default());
        eprintln!("{}", render_text(&r.spaces, &sm));
    }
    eprintln!("{}", oclc_ir::print_module(&m, None));
}
