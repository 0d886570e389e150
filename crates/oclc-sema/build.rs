//! Indexes the builtin table (`src/builtins/table.rs`) at compile time: the table text is
//! expanded here, its gentypes and sections are parsed into static data (a malformed line is
//! a build error), and the crate gets static arrays of its signatures and, per builtin name,
//! which (section, signature) lines declare it. The crate then parses a name's declarations
//! on its first lookup and nothing else at run time.

#[path = "src/builtins/table.rs"]
mod table;

use std::collections::HashMap;
use std::fmt::Write as _;

fn main() {
    println!("cargo::rerun-if-changed=src/builtins/table.rs");
    println!("cargo::rerun-if-changed=build.rs");
    let gentypes = table::generated_gentypes();
    let generated = table::generated();
    let lines = gentypes
        .lines()
        .chain(table::TABLE.lines())
        .chain(generated.lines());

    let mut gens: Vec<(&str, usize)> = Vec::new();
    // Section 0 is the default one (no `@` line yet).
    let mut sections: Vec<(&str, usize)> = vec![("", 0)];
    let mut section_ix: HashMap<&str, usize> = HashMap::from([("", 0)]);
    let mut sigs: Vec<&str> = Vec::new();
    let mut sig_ix: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut name_ix: HashMap<&str, usize> = HashMap::new();
    let mut decls: Vec<Vec<(usize, usize, usize)>> = Vec::new();
    let mut section = 0;
    for (n, raw) in lines.enumerate() {
        let line_no = n + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("gen ") {
            gens.push((rest, line_no));
            continue;
        }
        if let Some(rest) = line.strip_prefix('@') {
            section = *section_ix.entry(rest).or_insert_with(|| {
                sections.push((rest, line_no));
                sections.len() - 1
            });
            continue;
        }
        let Some((name_list, sig)) = line.split_once('=') else {
            panic!("builtin table line {line_no}: declaration without '='");
        };
        let sig = sig.trim();
        let s = *sig_ix.entry(sig).or_insert_with(|| {
            sigs.push(sig);
            sigs.len() - 1
        });
        if name_list.split_whitespace().next().is_none() {
            panic!("builtin table line {line_no}: declaration without a name");
        }
        for name in name_list.split_whitespace() {
            let id = *name_ix.entry(name).or_insert_with(|| {
                names.push(name);
                decls.push(Vec::new());
                names.len() - 1
            });
            decls[id].push((section, s, line_no));
        }
    }

    let mut sorted: Vec<(&str, usize)> = names.iter().copied().zip(0..).collect();
    sorted.sort();

    let mut out = String::with_capacity(1 << 20);
    let _ = writeln!(out, "/// Distinct signature texts.");
    let _ = writeln!(out, "pub(crate) static SIGS: &[&str] = &[");
    for s in &sigs {
        let _ = writeln!(out, "{s:?},");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// Builtin names in table order; a `BuiltinId` indexes this."
    );
    let _ = writeln!(out, "pub(crate) static NAMES: &[&str] = &[");
    for s in &names {
        let _ = writeln!(out, "{s:?},");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// Per name, its declaring lines in table order: (section, signature, line number)."
    );
    let _ = writeln!(out, "pub(crate) static DECLS: &[&[(u16, u32, u32)]] = &[");
    for d in &decls {
        out.push_str("&[");
        for (sec, sig, l) in d {
            let _ = write!(out, "({sec}, {sig}, {l}),");
        }
        out.push_str("],\n");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "/// Names sorted, with their index in `NAMES`.");
    let _ = writeln!(out, "pub(crate) static SORTED: &[(&str, u32)] = &[");
    for (s, i) in &sorted {
        let _ = writeln!(out, "({s:?}, {i}),");
    }
    let _ = writeln!(out, "];");

    emit_gens(&gens, &mut out);
    emit_sections(&sections, &mut out);

    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_default())
        .join("builtin_index.rs");
    if let Err(e) = std::fs::write(&path, out) {
        panic!("writing {}: {e}", path.display());
    }
}

/// The `Scalar` variant of a gentype element name (the table's names; `Scalar::from_name`).
fn scalar_variant(name: &str, line: usize) -> &'static str {
    match name {
        "char" => "Char",
        "uchar" => "UChar",
        "short" => "Short",
        "ushort" => "UShort",
        "int" => "Int",
        "uint" => "UInt",
        "long" => "Long",
        "ulong" => "ULong",
        "half" => "Half",
        "float" => "Float",
        "double" => "Double",
        _ => panic!("builtin table line {line}: bad gentype element {name}"),
    }
}

/// The gentypes, parsed: `GEN_DEFS` in table order (a `TyExpr::Gen` indexes it) and
/// `GEN_NAMES`, sorted, for the signatures' lookups.
fn emit_gens(gens: &[(&str, usize)], out: &mut String) {
    let mut names: Vec<(&str, usize)> = Vec::new();
    let _ = writeln!(out, "/// Gentypes in table order.");
    let _ = writeln!(out, "pub(crate) static GEN_DEFS: &[GenDef] = &[");
    for (i, &(rest, line)) in gens.iter().enumerate() {
        let Some((name, def)) = rest.split_once('=') else {
            panic!("builtin table line {line}: gen without '='");
        };
        let Some((tys, ws)) = def.split_once(':') else {
            panic!("builtin table line {line}: gen without ':'");
        };
        out.push_str("GenDef { types: &[");
        for t in tys.split_ascii_whitespace() {
            let _ = write!(out, "Scalar::{},", scalar_variant(t, line));
        }
        out.push_str("], widths: &[");
        for w in ws.split_ascii_whitespace() {
            let Ok(w) = w.parse::<u8>() else {
                panic!("builtin table line {line}: bad width {w}");
            };
            let _ = write!(out, "{w},");
        }
        out.push_str("] },\n");
        names.push((name.trim(), i));
    }
    let _ = writeln!(out, "];");
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0].0 == w[1].0) {
        panic!("builtin table: gentype {} defined twice", w[0].0);
    }
    let _ = writeln!(
        out,
        "/// Gentype names sorted, with their index in `GEN_DEFS`."
    );
    let _ = writeln!(out, "pub(crate) static GEN_NAMES: &[(&str, u16)] = &[");
    for (n, i) in names {
        let _ = writeln!(out, "({n:?}, {i}),");
    }
    let _ = writeln!(out, "];");
}

/// One section alternative's gate, as `Gate` fields: (since, until, extension macros, lang).
type GateKey<'a> = (u32, u32, Vec<&'a str>, bool);

/// The sections, parsed: `GATES` (each distinct gate once) and `SECTION_ALTS`, each
/// section's alternatives (a declaration line's section indexes it).
fn emit_sections(sections: &[(&str, usize)], out: &mut String) {
    let mut gates: Vec<GateKey<'_>> = Vec::new();
    let mut alts_out = String::new();
    for &(rest, line) in sections {
        alts_out.push_str("&[");
        for alt in rest.split('|') {
            let mut gate: GateKey<'_> = (100, 0, Vec::new(), false);
            let (mut attrs, mut spaces, mut accs) = ([false; 3], Vec::new(), Vec::new());
            for kv in alt.split_ascii_whitespace() {
                if kv == "lang" {
                    gate.3 = true;
                    continue;
                }
                let Some((k, v)) = kv.split_once('=') else {
                    panic!("builtin table line {line}: bad section item {kv}");
                };
                match k {
                    "since" | "until" => {
                        let ver = match v {
                            "1.0" => 100,
                            "1.1" => 110,
                            "1.2" => 120,
                            "2.0" => 200,
                            "3.0" => 300,
                            _ => panic!("builtin table line {line}: bad version {v}"),
                        };
                        if k == "since" {
                            gate.0 = ver;
                        } else {
                            gate.1 = ver;
                        }
                    }
                    "ext" => gate.2.extend(v.split('+')),
                    "attr" => match v {
                        "const" => attrs[0] = true,
                        "pure" => attrs[1] = true,
                        "conv" => attrs[2] = true,
                        _ => panic!("builtin table line {line}: bad attr {v}"),
                    },
                    "as" => spaces.extend(v.split(',').map(|s| match s {
                        "global" => "Global",
                        "local" => "Local",
                        "private" => "Private",
                        "constant" => "Constant",
                        "generic" => "Generic",
                        _ => panic!("builtin table line {line}: bad space {s}"),
                    })),
                    "acc" => accs.extend(v.split(',').map(|a| match a {
                        "RO" => "ReadOnly",
                        "WO" => "WriteOnly",
                        "RW" => "ReadWrite",
                        _ => panic!("builtin table line {line}: bad access {a}"),
                    })),
                    _ => panic!("builtin table line {line}: bad section key {k}"),
                }
            }
            let g = match gates.iter().position(|g| *g == gate) {
                Some(g) => g,
                None => {
                    gates.push(gate);
                    gates.len() - 1
                }
            };
            let [is_const, is_pure, convergent] = attrs;
            let _ = write!(
                alts_out,
                "Alt {{ gate: {g}, attrs: Attrs {{ is_const: {is_const}, is_pure: {is_pure}, \
                 convergent: {convergent} }}, spaces: &["
            );
            for s in spaces {
                let _ = write!(alts_out, "AddrSpace::{s},");
            }
            alts_out.push_str("], accs: &[");
            for a in accs {
                let _ = write!(alts_out, "Access::{a},");
            }
            alts_out.push_str("] },");
        }
        alts_out.push_str("],\n");
    }
    let _ = writeln!(out, "/// Distinct gates of the section alternatives.");
    let _ = writeln!(out, "pub(crate) static GATES: &[Gate] = &[");
    for (since, until, exts, lang) in &gates {
        let _ = writeln!(
            out,
            "Gate {{ since: {since}, until: {until}, exts: &{exts:?}, lang: {lang} }},"
        );
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "/// Each section's alternatives, in section order.");
    let _ = writeln!(out, "pub(crate) static SECTION_ALTS: &[&[Alt]] = &[");
    out.push_str(&alts_out);
    let _ = writeln!(out, "];");
}
