//! A development aid: `semacheck check [clang-style flags] FILE` runs preprocess → parse →
//! sema and prints diagnostics as `FILE:LINE:COL: severity: message`, the form
//! `shared/tools/clang-parity` reads. (The real CLI is the `oclc` binary.)

use oclc_syntax::ast::PragmaItem;
use oclc_syntax::parse::{TokPragma, parse_tokens};
use oclc_syntax::pp::{self, MacroArg, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, Level, SourceMap};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "check").collect();
    let mut std = ClStd::Cl12;
    let mut exts = Vec::new();
    let mut macros = Vec::new();
    let (mut pedantic, mut wconv, mut wspir, mut nowarn) = (false, false, false, false);
    let mut file = None;
    for a in &args {
        if let Some(v) = a.strip_prefix("-cl-std=") {
            std = ClStd::parse(v).unwrap_or(ClStd::Cl12);
        } else if let Some(v) = a.strip_prefix("-cl-ext=") {
            exts.push(v.to_string());
        } else if let Some(v) = a.strip_prefix("-D") {
            let (n, val) = v.split_once('=').unwrap_or((v, "1"));
            macros.push(MacroArg::Define(n.to_string(), val.to_string()));
        } else if a == "-pedantic" {
            pedantic = true;
        } else if a == "-Wconversion" {
            wconv = true;
        } else if a == "-Wspir-compat" {
            wspir = true;
        } else if a == "-w" {
            nowarn = true;
        } else if !a.starts_with('-') {
            file = Some(a.clone());
        }
    }
    let Some(file) = file else {
        eprintln!("usage: semacheck check [flags] FILE");
        std::process::exit(2);
    };
    let mut lang = LangOptions::new(std);
    for e in &exts {
        if let Err(m) = lang.apply_cl_ext(e) {
            eprintln!("error: {m}");
        }
    }
    let bytes = std::fs::read(&file).unwrap_or_default();
    let mut sm = SourceMap::new();
    let main = sm.add_file(file.clone(), &bytes);
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros,
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let pragmas: Vec<TokPragma> = out
        .pragmas
        .iter()
        .map(|p| TokPragma {
            before_token: p.before_token,
            item: PragmaItem {
                span: p.span,
                kind: p.kind.clone(),
            },
        })
        .collect();
    let tu = parse_tokens(&out.tokens, &pragmas, &sm, &lang, &mut diags);
    let t = std::time::Instant::now();
    let _prog = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    if let Ok(n) = std::env::var("SEMA_TIME") {
        eprintln!("sema: {:?}", t.elapsed());
        for _ in 1..n.parse::<u32>().unwrap_or(1) {
            let t = std::time::Instant::now();
            let mut d = Diagnostics::default();
            let p = oclc_sema::check(&tu, &sm, &lang, &mut d);
            let e = t.elapsed();
            drop(p);
            eprintln!("sema again: {e:?}");
        }
    }
    let mut errors = 0;
    for d in &diags.list {
        if d.level == Level::Warning {
            let shown = match d.group {
                _ if nowarn => false,
                Some("conversion") => wconv,
                Some("spir-compat") => wspir,
                Some(g) if oclc_sema::PEDANTIC_GROUPS.contains(&g) => pedantic,
                _ => true,
            };
            if !shown {
                continue;
            }
        }
        if d.is_error() {
            errors += 1;
        }
        let loc = |s| {
            sm.location(s)
                .map(|(f, l, c)| format!("{f}:{l}:{c}: "))
                .unwrap_or_default()
        };
        let flag = match (d.level, d.group) {
            (Level::Warning, Some(g)) => format!(" [-W{g}]"),
            _ => String::new(),
        };
        println!("{}{}: {}{flag}", loc(d.span), d.level.as_str(), d.message);
        for n in &d.notes {
            println!("{}note: {}", loc(n.span), n.message);
        }
    }
    std::process::exit(i32::from(errors > 0));
}
