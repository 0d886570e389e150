//! Compiles an OpenCL C file and launches one kernel whose parameters are all `__global`
//! buffers of `N` ints (initialized 0, 1, 2, ...) or `__local` arrays of `L` bytes; prints the
//! first values of each buffer. A development probe of the front end, lowering and device.
//! `cargo run -p oclc-cpu --example run_cl FILE KERNEL GLOBAL LOCAL [N] [L] [--races]`

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::{AddrSpace, ParamKind};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (Some(file), Some(kernel)) = (a.get(1), a.get(2)) else {
        eprintln!("usage: run_cl FILE KERNEL GLOBAL LOCAL [N] [L] [--races]");
        return;
    };
    let num = |i: usize, d: u64| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (global, local, n, l) = (
        num(3, 64),
        num(4, 16),
        num(5, 64) as usize,
        num(6, 256) as usize,
    );
    let races = a.iter().any(|s| s == "--races");
    let Ok(src) = std::fs::read(file) else {
        eprintln!("cannot read {file}");
        return;
    };
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_file(file.clone(), &src);
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    let module = if diags.has_errors() {
        None
    } else {
        oclc_lower::lower(&program, &sm, &mut diags)
    };
    let Some(module) = module else {
        for d in &diags.list {
            let at = sm
                .location(d.span)
                .map(|(_, l, c)| format!("{l}:{c}"))
                .unwrap_or_default();
            eprintln!("{at}: {:?}: {}", d.level, d.message);
        }
        return;
    };
    let dev = Device::cpu().with_race_detection(races);
    let prog = match dev.load(module) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let params = prog
        .kernel_params(kernel)
        .map(|p| p.to_vec())
        .unwrap_or_default();
    let mut bufs = Vec::new();
    let mut args = Vec::new();
    for p in &params {
        match p.kind {
            ParamKind::Buffer(AddrSpace::Local) => args.push(Arg::Local(l)),
            ParamKind::Buffer(_) => {
                let init: Vec<u8> = (0..n as u32).flat_map(|i| i.to_le_bytes()).collect();
                let b = Buffer::from_bytes(&init);
                bufs.push((p.name.clone(), b.clone()));
                args.push(Arg::Buffer(b));
            }
            _ => args.push(Arg::Bytes(vec![0; p.ty.store_size() as usize])),
        }
    }
    let t = std::time::Instant::now();
    match dev.launch(
        &prog,
        kernel,
        &args,
        &NdRange::new(&[global]).local(&[local]),
    ) {
        Ok(_) => println!("ok in {:.3} s", t.elapsed().as_secs_f64()),
        Err(oclc_cpu::DeviceError::Runtime(e)) => {
            let at = sm
                .location(e.span)
                .map(|(_, l, c)| format!("{l}:{c}"))
                .unwrap_or_default();
            println!("runtime error at {at}: {} ({})", e.message, e.ids());
        }
        Err(e) => println!("error: {e}"),
    }
    for (name, b) in bufs {
        let v: Vec<i32> = b
            .read()
            .chunks(4)
            .take(16)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        println!("{name}: {v:?}");
    }
}
