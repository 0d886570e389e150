//! Every builtin the OpenCL-CTS generic-address-space kernels call is declared, with an
//! overload of the right arity, under `-cl-std=CL3.0 -cl-ext=+all` and `-cl-std=CL2.0`.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use oclc_sema::builtins::Builtins;
use oclc_syntax::{ClStd, LangOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const KEYWORDS: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "vec_step",
    "__attribute__",
    "_Alignof",
    "defined",
];

fn cts_dir() -> PathBuf {
    conformance::root().join("cts-generic")
}

fn cl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            cl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cl") {
            out.push(p);
        }
    }
}

fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Calls `name(args)` in `src`: name and number of top-level arguments.
fn calls(src: &str) -> Vec<(String, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) && (i == 0 || !is_ident(b[i - 1])) && !b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            let name = &src[start..i];
            let mut j = i;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if j < b.len() && b[j] == b'(' {
                let (mut depth, mut k, mut commas, mut empty) = (1, j + 1, 0, true);
                while k < b.len() && depth > 0 {
                    match b[k] {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        b',' if depth == 1 => commas += 1,
                        c if !c.is_ascii_whitespace() => empty = false,
                        _ => {}
                    }
                    k += 1;
                }
                out.push((name.to_string(), if empty { 0 } else { commas + 1 }));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Names the file itself defines: functions (`T name(...) {` or `;`) and function-like macros.
fn user_names(src: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in src.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("#define") {
            let n: String = rest
                .trim_start()
                .bytes()
                .take_while(|&c| is_ident(c))
                .map(char::from)
                .collect();
            names.insert(n);
        }
    }
    // A definition or prototype: an identifier preceded by a type word (not an operator or
    // `(`/`,`/`=`) and followed by `(`.
    let b = src.as_bytes();
    for (name, _) in calls(src) {
        let mut pos = 0;
        while let Some(off) = src[pos..].find(&name) {
            let at = pos + off;
            pos = at + name.len();
            if at > 0 && is_ident(b[at - 1]) {
                continue;
            }
            let mut k = at;
            while k > 0 && b[k - 1] == b' ' {
                k -= 1;
            }
            if k > 0 && (is_ident(b[k - 1]) || b[k - 1] == b'*') && k != at {
                let word_end = k;
                let mut w = k;
                while w > 0 && is_ident(b[w - 1]) {
                    w -= 1;
                }
                let word = &src[w..word_end];
                if word != "return" && word != "else" {
                    names.insert(name.clone());
                }
            }
        }
    }
    names
}

#[test]
fn every_cts_builtin_resolves() {
    if conformance::dir("cts-generic", "every_cts_builtin_resolves").is_none() {
        return;
    }
    let mut files = Vec::new();
    cl_files(&cts_dir(), &mut files);
    assert!(
        files.len() >= 490,
        "found {} CTS kernels in {:?}",
        files.len(),
        cts_dir()
    );
    let mut cl30 = LangOptions::new(ClStd::Cl30);
    cl30.apply_cl_ext("+all").unwrap_or_else(|e| panic!("{e}"));
    let modes = [
        ("CL3.0", Builtins::new(&cl30)),
        ("CL2.0", Builtins::new(&LangOptions::new(ClStd::Cl20))),
    ];
    let mut used: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for f in &files {
        let src = strip_comments(&std::fs::read_to_string(f).unwrap_or_default());
        let user = user_names(&src);
        for (name, n) in calls(&src) {
            if KEYWORDS.contains(&name.as_str()) || user.contains(&name) {
                continue;
            }
            used.entry(name).or_default().insert(n);
        }
    }
    // The kernels use at least these; the test must see them to mean anything.
    for must in [
        "get_global_id",
        "get_fence",
        "to_global",
        "vload16",
        "vstore3",
        "fract",
        "remquo",
        "atomic_fetch_add_explicit",
        "work_group_barrier",
        "all",
    ] {
        assert!(
            used.contains_key(must),
            "{must} not found in the CTS kernels: {used:?}"
        );
    }
    let mut missing = Vec::new();
    for (mode, b) in &modes {
        for (name, arities) in &used {
            let Some(id) = b.lookup_str(name) else {
                missing.push(format!("{mode}: {name} undeclared"));
                continue;
            };
            if b.special(id).is_some() {
                continue;
            }
            for &n in arities {
                if !b.overloads(id).any(|o| {
                    let s = b.signature(o);
                    s.params().len() == n || (s.variadic && n >= s.params().len())
                }) {
                    missing.push(format!("{mode}: {name} has no overload with {n} arguments"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
