//! `oclc check` finds the casts that never succeed by lowering only the functions that can
//! affect them (`oclc_lower::subset`); the verdicts must be exactly those of the whole program:
//! compared here on every CTS kernel, every clang-sema corpus configuration, the `oclc spaces`
//! inputs, the examples and programs built to exercise each part of the subset's closure.

#[path = "../../../test-support/conformance.rs"]
mod conformance;
use std::path::{Path, PathBuf};

use oclc::args::parse_check_args;
use oclc::runlines::verify_configs;
use oclc::{CheckOptions, check_source};
use oclc_ir::passes::{self, ImpossibleCast, PassOptions, casts};
use oclc_syntax::{Diagnostics, Level};

/// The verdicts from lowering the whole program, then from the subset; `None` when lowering
/// fails (the check then has no cast warnings).
type Verdicts = Option<Vec<ImpossibleCast>>;

fn verdicts(name: &str, src: &[u8], opts: &CheckOptions) -> Option<(Verdicts, Verdicts)> {
    let out = check_source(name, src, opts);
    let program = out.program.as_ref().filter(|_| !out.has_errors())?;
    let run = |m: Option<oclc_ir::Module>, d: &Diagnostics| {
        let mut m = m.filter(|_| !d.list.iter().any(|x| x.level >= Level::Error))?;
        Some(casts::impossible_casts(&mut m))
    };
    let mut d = Diagnostics::default();
    let whole = run(oclc_lower::lower(program, &out.sm, &mut d), &d);
    // The whole pipeline on the whole program (no stubs, no split) agrees too.
    let mut d = Diagnostics::default();
    let full = oclc_lower::lower(program, &out.sm, &mut d)
        .filter(|_| !d.list.iter().any(|x| x.level >= Level::Error))
        .map(|mut m| {
            passes::run_default(&mut m, &PassOptions::default())
                .spaces
                .impossible_casts
        });
    assert_eq!(
        whole, full,
        "{name}: impossible_casts differs from the full pipeline"
    );
    let mut d = Diagnostics::default();
    let part = run(
        oclc_lower::subset::lower_for_casts(program, &out.sm, &mut d),
        &d,
    );
    Some((whole, part))
}

fn opts(flags: &[&str]) -> CheckOptions {
    parse_check_args(flags.iter().map(|s| s.to_string()))
        .expect("flags")
        .options
}

/// Tallies over a corpus: programs compared, and those with at least one verdict.
#[derive(Default, Debug)]
struct Tally {
    compared: usize,
    with_verdicts: usize,
    failed_lowering: usize,
}

fn compare(name: &str, src: &[u8], o: &CheckOptions, tally: &mut Tally) {
    let Some((whole, part)) = verdicts(name, src, o) else {
        return;
    };
    assert_eq!(
        whole, part,
        "{name}: subset verdicts differ from the whole program's"
    );
    tally.compared += 1;
    match &whole {
        Some(v) if !v.is_empty() => tally.with_verdicts += 1,
        Some(_) => {}
        None => tally.failed_lowering += 1,
    }
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

#[test]
fn cts_kernels_spaces_inputs_and_examples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let Some(cts_dir) = conformance::dir("cts-generic", "cts_kernels_spaces_inputs_and_examples")
    else {
        return;
    };
    cl_files(&cts_dir, &mut files);
    let cts = files.len();
    assert!(cts >= 492, "CTS corpus not found ({cts} files)");
    cl_files(&root.join("tests/spaces_in"), &mut files);
    cl_files(&root.join("tests/in"), &mut files);
    cl_files(&root.join("../../examples"), &mut files);
    files.sort();
    let mut tally = Tally::default();
    let mut mutated = Tally::default();
    for std in ["-cl-std=CL2.0", "-cl-std=CL3.0"] {
        let o = opts(&[std]);
        for p in &files {
            let src = std::fs::read(p).expect("read");
            let name = p.display().to_string();
            compare(&name, &src, &o, &mut tally);
            // The same kernels asking for the wrong space: casts that never succeed.
            let text = String::from_utf8_lossy(&src)
                .replace("to_global(", "to_@(")
                .replace("to_local(", "to_global(")
                .replace("to_private(", "to_local(")
                .replace("to_@(", "to_private(");
            compare(&name, text.as_bytes(), &o, &mut mutated);
        }
    }
    // Most of these kernels use generic pointers and check cleanly; library_function.cl calls
    // a function it never defines (lowering fails); the CTS's own casts all can succeed, the
    // mutated ones in 11 kernels (under both standards) cannot.
    assert!(tally.compared >= 2 * 480, "{tally:?}");
    assert!(tally.failed_lowering >= 2, "{tally:?}");
    assert!(mutated.with_verdicts >= 20, "{mutated:?}");
}

#[test]
fn clang_sema_corpus_configurations() {
    let Some(dir) = conformance::dir("clang-sema", "clang_sema_corpus_configurations") else {
        return;
    };
    let mut files = Vec::new();
    cl_files(&dir, &mut files);
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    files.sort();
    let mut tally = Tally::default();
    let mut configs = 0;
    for p in &files {
        let src = std::fs::read(p).expect("read");
        let text = String::from_utf8_lossy(&src);
        for cfg in verify_configs(&text) {
            let args = cfg.args.iter().filter(|a| !a.starts_with("-verify"));
            let Ok(parsed) = parse_check_args(args.cloned()) else {
                continue;
            };
            configs += 1;
            compare(&p.display().to_string(), &src, &parsed.options, &mut tally);
        }
    }
    assert!(configs > 0);
}

/// Programs where the verdict needs each kind of function the subset keeps, or where lowering
/// a function outside the closure fails, with their number of casts that never succeed
/// (`None`: lowering fails); each is checked with and without unrelated code.
const PROGRAMS: &[(&str, &str, Option<usize>)] = &[
    (
        "cast in a helper, decided by its caller",
        "int is_local(int *p) { return to_local(p) != 0; }\n\
         kernel void k(global int *g, global int *out) { out[0] = is_local(g); }\n",
        Some(1),
    ),
    (
        "cast in a helper two calls down",
        "int is_local(int *p) { return to_local(p) != 0; }\n\
         int mid(int *p) { return is_local(p) + 1; }\n\
         kernel void k(global int *g, global int *out) { out[0] = mid(g); }\n",
        Some(1),
    ),
    (
        "pointer returned by a callee",
        "int *pass(int *p) { return p; }\n\
         int *twice(int *p) { return pass(pass(p)); }\n\
         kernel void k(global int *g, global int *out) {\n\
         \x20   local int *l = (local int *)twice(g);\n\
         \x20   out[0] = l != 0;\n}\n",
        Some(1),
    ),
    (
        "pointer merged from two spaces stays generic",
        "int *pick(global int *g, local int *l, int c) { return c ? (int *)g : (int *)l; }\n\
         kernel void k(global int *g, local int *l, global int *out) {\n\
         \x20   out[0] = to_private(pick(g, l, out[1])) != 0;\n}\n",
        Some(0),
    ),
    (
        "helper called with different spaces",
        "int is_global(int *p) { return to_global(p) != 0; }\n\
         kernel void k(global int *g, local int *l, global int *out) {\n\
         \x20   out[0] = is_global(g) + is_global(l);\n}\n",
        Some(0),
    ),
    (
        "unrelated function calls an undefined one",
        "void missing(int *p);\n\
         void other(global int *g) { missing(g); }\n\
         kernel void k(local int *l, global int *out) {\n\
         \x20   int *p = l;\n\
         \x20   out[0] = to_global(p) != 0;\n}\n",
        None,
    ),
    (
        "string literals and locals in kernels before the cast",
        "kernel void a(global int *out) { local int t[4]; t[0] = 1; printf(\"%d\\n\", t[0]); out[0] = t[0]; }\n\
         kernel void b(global int *out) { local float u[8]; u[1] = 2; out[1] = (int)u[1]; }\n\
         kernel void k(global int *out) {\n\
         \x20   local int v[2];\n\
         \x20   int *p = v;\n\
         \x20   printf(\"%p\\n\", to_global(p));\n\
         \x20   out[0] = *(global int *)p;\n}\n",
        Some(2),
    ),
    (
        "static and program-scope variables",
        "global int counter;\n\
         int *ptr_to_counter(void) { return &counter; }\n\
         kernel void k(global int *out) {\n\
         \x20   static constant int c = 3;\n\
         \x20   out[0] = to_local(ptr_to_counter()) != 0;\n\
         \x20   out[1] = c;\n}\n",
        Some(1),
    ),
    (
        "pointer stored in a struct passed by value (its field followed: always private)",
        "typedef struct { int *p; int n; } box;\n\
         int first(box b) { return to_global(b.p) ? b.p[0] : 0; }\n\
         kernel void k(global int *out) {\n\
         \x20   int x = 4;\n\
         \x20   box b = { &x, 1 };\n\
         \x20   out[0] = first(b);\n}\n",
        Some(1),
    ),
    (
        "casts from one macro body in two kernels",
        "#define DEF(name) kernel void name(global int *g, global int *o) { int *p = g; o[0] = to_local(p) != 0; }\n\
         DEF(a)\n\
         DEF(b)\n",
        Some(2),
    ),
];

/// Unrelated code around a program: helpers without casts, kernels with `__local` data and
/// strings, pointer-returning functions nobody relevant calls.
const UNRELATED: &str = "\
int sum(int *p, int n) { int s = 0; for (int i = 0; i < n; ++i) s += p[i]; return s; }\n\
float4 scale(constant float *c, float4 v) { return v * c[0]; }\n\
int *advance(int *p) { return p + 1; }\n\
kernel void unrelated(global int *out, local int *tmp) {\n\
    local int buf[16];\n\
    buf[get_local_id(0)] = out[0];\n\
    tmp[0] = sum(buf, 4) + *advance(buf);\n\
    printf(\"%d\\n\", tmp[0]);\n\
}\n";

#[test]
fn programs_exercising_the_closure() {
    let o = opts(&["-cl-std=CL2.0"]);
    for (what, src, expected) in PROGRAMS {
        for text in [
            src.to_string(),
            format!("{UNRELATED}{src}"),
            format!("{src}{UNRELATED}"),
        ] {
            let (whole, part) = verdicts(what, text.as_bytes(), &o)
                .unwrap_or_else(|| panic!("{what}: does not check cleanly"));
            assert_eq!(whole, part, "{what}:\n{text}");
            assert_eq!(whole.map(|v| v.len()), *expected, "{what}:\n{text}");
        }
    }
}

#[test]
fn an_unrelated_lowering_failure_still_suppresses_the_warnings() {
    let src = "void missing(int *p);\n\
               void other(global int *g) { missing(g); }\n\
               kernel void k(local int *l, global int *out) { int *p = l; out[0] = to_global(p) != 0; }\n";
    let (whole, part) =
        verdicts("t.cl", src.as_bytes(), &opts(&["-cl-std=CL2.0"])).expect("checks");
    assert_eq!(whole, None);
    assert_eq!(part, None);
}

#[test]
fn the_subset_leaves_out_helpers_that_cannot_matter() {
    let src = format!(
        "{UNRELATED}kernel void k(local int *l, global int *out) {{ int *p = l; out[0] = to_global(p) != 0; }}\n"
    );
    let out = check_source("t.cl", src.as_bytes(), &opts(&["-cl-std=CL2.0"]));
    let program = out.program.as_ref().expect("checks");
    let want = oclc_lower::subset::cast_subset(program);
    let selected: Vec<&str> = program
        .functions
        .iter()
        .zip(&want)
        .filter(|(f, w)| **w && f.body.is_some())
        .map(|(f, _)| f.name.as_str())
        .collect();
    assert_eq!(selected, ["k"]);
    let mut d = Diagnostics::default();
    let m = oclc_lower::subset::lower_for_casts(program, &out.sm, &mut d).expect("lowers");
    // Functions outside the subset are declared with a body that is only `unreachable`.
    let sum = m.functions.iter().find(|f| f.name == "sum").expect("sum");
    assert_eq!(sum.insts.len(), 1);
    let k = m.functions.iter().find(|f| f.name == "k").expect("k");
    assert!(k.insts.len() > 5);
}
