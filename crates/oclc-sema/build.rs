//! Indexes the builtin table (`src/builtins/table.rs`) at compile time: the table text is
//! expanded here, and the crate gets static arrays of its gentype lines, section lines,
//! signatures and, per builtin name, which (section, signature) lines declare it. The crate
//! then parses a name's declarations on its first lookup instead of the whole table at
//! startup.

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
    let _ = writeln!(out, "/// `gen` lines: text after `gen `, line number.");
    let _ = writeln!(out, "pub(crate) static GENS: &[(&str, u32)] = &[");
    for (g, l) in &gens {
        let _ = writeln!(out, "({g:?}, {l}),");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// Distinct section lines: text after `@`, line number."
    );
    let _ = writeln!(out, "pub(crate) static SECTIONS: &[(&str, u32)] = &[");
    for (s, l) in &sections {
        let _ = writeln!(out, "({s:?}, {l}),");
    }
    let _ = writeln!(out, "];");
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

    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_default())
        .join("builtin_index.rs");
    if let Err(e) = std::fs::write(&path, out) {
        panic!("writing {}: {e}", path.display());
    }
}
