//! Issue 13, real-world corpus: constructs of public OpenCL projects where `oclc check`
//! differed from clang-19 (`-cc1 -triple spir64-unknown-unknown -finclude-default-header
//! -fsyntax-only`), each with clang's exact text; and the check-speed work's invariants (the
//! line scan of skipped `#if` groups finds what token lexing finds; freeing function bodies
//! as they are checked changes no diagnostic).

#[path = "../../../test-support/conformance.rs"]
mod conformance;

use std::sync::Arc;

use oclc::args::parse_check_args;
use oclc::check_source;
use oclc::cli::check_command;
use oclc::runlines::verify_configs;
use oclc_syntax::lexer::Lexer;
use oclc_syntax::{Diagnostics, FileId, Punct, TokenKind};

/// `oclc check -triple spir64-unknown-unknown` on `src` (as `<stdin>`): exit code, stderr.
fn check(src: &str) -> (i32, String) {
    check_args(&[], src)
}

fn check_args(args: &[&str], src: &str) -> (i32, String) {
    let mut a: Vec<String> = vec!["-triple".into(), "spir64-unknown-unknown".into()];
    a.extend(args.iter().map(|s| s.to_string()));
    a.push("-".into());
    let out = check_command(a, &mut src.as_bytes());
    (out.code, out.stderr)
}

#[path = "../../../test-support/run_once.rs"]
mod run_once;

/// [`run_once::run_once`] with u32 buffers.
fn run_u32(src: &str, bufs: &[Vec<u32>]) -> Vec<Vec<u32>> {
    run_once::run_once(src, bufs)
}

// ---- a UTF-8 byte order mark (pocl's test kernels) ----

#[test]
fn byte_order_mark_is_skipped() {
    let src = "\u{feff}kernel void k(global int *o) { o[0] = 1; }\n";
    assert_eq!(check(src), (0, String::new()));
}

#[test]
fn byte_order_mark_counts_in_columns_and_prints_as_clang_does() {
    let src = "\u{feff}kernel void k(global int *o) { o[0] = undeclared_q; }\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "<stdin>:1:42: error: use of undeclared identifier 'undeclared_q'\n    \
         1 | <U+FEFF>kernel void k(global int *o) { o[0] = undeclared_q; }\n      \
         |                                               ^\n1 error generated.\n"
    );
}

// ---- `->` on a pointer to a vector (ufo-filters' piv.cl) ----

#[test]
fn arrow_on_a_pointer_to_a_vector_is_a_swizzle() {
    let src = "void get_center(const unsigned w, const unsigned h, int2 *center) {\n\
          center->x = w % 2 == 0 ? w / 2 - 1 : w / 2;\n\
          center->y = h % 2 == 0 ? h / 2 - 1 : h / 2;\n\
        }\n\
        kernel void k(global uint *o, global uint4 *g) {\n\
          int2 c;\n\
          get_center(10, 7, &c);\n\
          o[0] = c.x; o[1] = c.y;\n\
          g->w = g->z + 1u;\n\
          float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f); float4 *pf = &f;\n\
          o[2] = (uint)pf->hi.y; o[3] = (uint)(&f)->s1;\n\
          int2 t = (&c)->yx; o[4] = t.x;\n\
        }\n";
    assert_eq!(check(src), (0, String::new()));
    let out = run_u32(src, &[vec![0; 5], vec![0, 0, 5, 9]]);
    assert_eq!(out[0], vec![4, 3, 4, 2, 3]);
    assert_eq!(out[1], vec![0, 0, 5, 6]);
}

#[test]
fn arrow_swizzle_errors_are_clangs() {
    let src = "void f(int2 *c, int2 v) {\n  c->xx = v;\n  int z = v->x;\n  c->q = 1;\n}\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    let firsts: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(
        firsts,
        [
            "<stdin>:2:9: error: vector is not assignable (contains duplicate components)",
            "<stdin>:3:14: error: member reference type 'int2' (vector of 2 'int' values) is not a pointer",
            "<stdin>:4:4: error: illegal vector component name 'q'",
        ]
    );
}

// ---- swizzle errors at the `.`, clang-19's wording ----

#[test]
fn swizzle_errors_point_at_the_dot() {
    let src = [
        "void f(int2 v, int4 w, int8 e, int2 *p) {",
        "  int a = v.z;",
        "  int b = v.   q;",
        "  int e1 = w.xs;",
        "  int2 g = p->z;",
        "  int8 d = e.s01234;",
        "}\n",
    ]
    .join("\n");
    let (code, err) = check(&src);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "<stdin>:2:12: error: vector component access exceeds type '__private int2' (vector of 2 'int' values)\n    \
         2 |   int a = v.z;\n      |            ^~\n\
         <stdin>:3:12: error: illegal vector component name 'q'\n    \
         3 |   int b = v.   q;\n      |            ^   ~\n\
         <stdin>:4:13: error: illegal vector component name 's'\n    \
         4 |   int e1 = w.xs;\n      |             ^~~\n\
         <stdin>:5:13: error: vector component access exceeds type '__private int2' (vector of 2 'int' values)\n    \
         5 |   int2 g = p->z;\n      |             ^ ~\n\
         <stdin>:6:13: error: vector component access has invalid length 5; supported lengths are: 1,2,3,4,8,16\n    \
         6 |   int8 d = e.s01234;\n      |             ^~~~~~~\n\
         5 errors generated.\n"
    );
}

#[test]
fn arrow_on_a_struct_value_suggests_a_dot() {
    let src = "struct S { int a; };\nunion U { int a; };\n\
        void f(struct S s, union U u, int i) {\n  int c = s->a;\n  int d = u->a;\n  int e = i->a;\n}\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "<stdin>:4:12: error: member reference type 'struct S' is not a pointer; did you mean to use '.'?\n    \
         4 |   int c = s->a;\n      |           ~^~\n      |            .\n\
         <stdin>:5:12: error: member reference type 'union U' is not a pointer; did you mean to use '.'?\n    \
         5 |   int d = u->a;\n      |           ~^~\n      |            .\n\
         <stdin>:6:14: error: member reference type 'int' is not a pointer\n    \
         6 |   int e = i->a;\n      |           ~  ^\n\
         3 errors generated.\n"
    );
}

// ---- `#line` (LuxCore's kernels start with `#line 2 "name.cl"`) ----

#[test]
fn line_directive_sets_reported_file_and_line() {
    let src = "#line 100 \"main_other.cl\"\n\
        kernel void k(global int *o) { o[0] = undeclared_x; }\n\
        #define M(a) (a + undeclared_y)\n\
        kernel void k2(global int *o) {\n o[0] = M(1); }\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "main_other.cl:100:39: error: use of undeclared identifier 'undeclared_x'\n  \
         100 | kernel void k(global int *o) { o[0] = undeclared_x; }\n      \
         |                                       ^\n\
         main_other.cl:103:9: error: use of undeclared identifier 'undeclared_y'\n  \
         103 |  o[0] = M(1); }\n      |         ^\n\
         main_other.cl:101:19: note: expanded from macro 'M'\n  \
         101 | #define M(a) (a + undeclared_y)\n      |                   ^\n\
         2 errors generated.\n"
    );
}

#[test]
fn line_directive_without_name_keeps_the_last_name_and_json_follows() {
    let src = "#line 7 \"a.cl\"\n#line 20\nint bad = 1;\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "a.cl:20:5: error: program scope variable must reside in constant address space\n"
        ),
        "{err}"
    );
    let out = check_command(
        vec!["--format".into(), "json".into(), "-".into()],
        &mut src.as_bytes(),
    );
    assert!(out.stdout.contains("\"file\": \"a.cl\""), "{}", out.stdout);
    assert!(out.stdout.contains("\"line\": 20"), "{}", out.stdout);
}

// ---- `__kernel` on something that is not a function (clpeak's MSTRINGIFY kernels) ----

#[test]
fn kernel_on_a_non_function_is_an_error() {
    let src = "kernel int x = 1;\nvoid g(kernel int y) {}\ntypedef __kernel int T;\n\
        struct S { kernel int a; };\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    let firsts: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(
        firsts,
        [
            "<stdin>:1:1: error: 'kernel' attribute only applies to functions",
            "<stdin>:1:12: error: program scope variable must reside in constant address space",
            "<stdin>:2:8: error: 'kernel' attribute only applies to functions",
            "<stdin>:3:9: error: '__kernel' attribute only applies to functions",
            "<stdin>:4:12: error: 'kernel' attribute only applies to functions",
        ]
    );
}

// ---- skipped `#if` groups: the line scan finds the directives token lexing finds ----

/// Offsets of the `#` tokens that start a line, by lexing every token (raw mode).
fn hashes_by_tokens(text: &[u8]) -> Vec<(u32, bool)> {
    let mut lx = Lexer::new(FileId(0), Arc::from(text));
    lx.raw = true;
    let mut d = Diagnostics::default();
    let mut out = Vec::new();
    loop {
        let t = lx.next_token(&mut d);
        if t.kind == TokenKind::Eof {
            // Where the text ends matters to a skipped group, not the blanks before it.
            out.push((t.span.lo, false));
            return out;
        }
        if t.at_line_start && t.is_punct(Punct::Hash) {
            out.push((t.span.lo, t.leading_space));
        }
    }
}

/// The same through [`Lexer::skip_to_line_hash`].
fn hashes_by_scan(text: &[u8]) -> Vec<(u32, bool)> {
    let mut lx = Lexer::new(FileId(0), Arc::from(text));
    lx.raw = true;
    let mut d = Diagnostics::default();
    let mut out = Vec::new();
    loop {
        let t = lx.skip_to_line_hash(&mut d);
        if t.kind == TokenKind::Eof {
            out.push((t.span.lo, false));
            return out;
        }
        out.push((t.span.lo, t.leading_space));
    }
}

#[test]
fn skipped_group_scan_matches_token_lexing() {
    const PIECES: &[&str] = &[
        "#",
        "%:",
        "%:%:",
        "##",
        "'",
        "\"",
        "/*",
        "*/",
        "//",
        "\\\n",
        "\\  \n",
        "\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "x",
        "endif",
        "\\",
        "L'",
        "u8\"",
        "1e+",
        ".5",
        "/",
        "*",
        "%",
        ":",
        "\0",
        "\u{e9}",
        "#endif\n",
        "\"#endif\"",
        "'#'",
        "/* #endif */",
        "// #endif\n",
    ];
    // A fixed linear congruential sequence: the same cases on every run.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for case in 0..4000 {
        let n = 1 + next() % 24;
        let text: String = (0..n).map(|_| PIECES[next() % PIECES.len()]).collect();
        assert_eq!(
            hashes_by_scan(text.as_bytes()),
            hashes_by_tokens(text.as_bytes()),
            "case {case}: {text:?}"
        );
    }
}

#[test]
fn skipped_groups_hide_directives_in_comments_and_literals() {
    let src = "#if 0\n\
        don't /* #endif */\n\
        \"#endif\" '#endif\n\
        # /* c */ define X 1 \\\n\
        #endif\n\
        %:ifdef Y\n#error no\n%:endif\n\
        #else\n#define Z 2\n#endif\n\
        kernel void k(global int *o) { o[0] = Z; }\n";
    assert_eq!(check(src), (0, String::new()));
    let bad = "#if 0\n/* \n#endif */\n#endif\nint bad = 1;\n";
    let (code, err) = check(bad);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "<stdin>:5:5: error: program scope variable must reside in constant address space"
        ),
        "{err}"
    );
}

// ---- freeing bodies as they are checked (the CLI's mode) changes no diagnostic ----

/// Text of the check of `src` with `args`, keeping and discarding function bodies.
fn both_modes(name: &str, bytes: &[u8], args: &[String]) -> (String, String) {
    let parsed = parse_check_args(args.iter().cloned()).expect("flags parse");
    let mut keep = parsed.options.clone();
    keep.diagnostics_only = false;
    let mut discard = parsed.options;
    discard.diagnostics_only = true;
    (
        check_source(name, bytes, &keep).render_text(),
        check_source(name, bytes, &discard).render_text(),
    )
}

#[test]
fn discarding_bodies_gives_the_same_diagnostics_on_the_clang_corpus() {
    let Some(dir) = conformance::dir("clang-sema", "discarding_bodies") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();
    let mut configs = 0;
    for path in files {
        let bytes = std::fs::read(&path).expect("readable");
        let text = String::from_utf8_lossy(&bytes).to_string();
        for cfg in verify_configs(&text) {
            let args: Vec<String> = cfg
                .args
                .iter()
                .filter(|a| !a.starts_with("-verify"))
                .cloned()
                .collect();
            if parse_check_args(args.iter().cloned()).is_err() {
                continue;
            }
            let (keep, discard) = both_modes("t.cl", &bytes, &args);
            assert_eq!(keep, discard, "{} {args:?}", path.display());
            configs += 1;
        }
    }
    assert!(configs >= 40, "{configs} configurations");
}

#[test]
fn discarding_nested_statements_gives_the_same_diagnostics() {
    // Discarding bodies frees each statement of every block as soon as it is checked; what
    // sema reports later (labels, switch cases, statement expressions' values, the flow
    // warnings at the end of a function) must not depend on the freed statements.
    let mut src = String::from("kernel void k(global uint *w, uint off) {\n  switch (off / 4) {\n");
    for c in 0..300 {
        src.push_str(&format!(
            "  case {c}: {{ w[{c}] = w[{c}] + off; {{ w[1] + 2; }} }}\n"
        ));
    }
    src.push_str(
        "  case 7: break;\n  case 8: w[1] == 2;\n  default: { int y = ({ int t = w[0]; { t += 1; } t; }); w[2] = y; goto done; }\n  }\n\
         done: { uint u = 1.5; }\n  goto missing;\n}\n\
         int f(int a) { { if (a) { return 1; } } }\n",
    );
    let args: Vec<String> = vec!["-cl-std=CL1.2".into()];
    let (keep, discard) = both_modes("t.cl", src.as_bytes(), &args);
    assert_eq!(keep, discard);
    for want in [
        "duplicate case value '7'",
        "expression result unused",
        "equality comparison result unused",
        "use of undeclared label 'missing'",
        "changes value from 1.5 to 1 [-Wliteral-conversion]",
        // clang-19 gives the same count on this source.
        "302 warnings and 3 errors generated.",
    ] {
        assert!(discard.contains(want), "{want}: {discard}");
    }
}

/// A translation unit large enough for the pipelined check (parser and sema on two threads),
/// with errors and warnings in many functions.
fn big_source() -> String {
    let mut s = String::from("typedef struct { uint a[4]; float4 v; } S;\n");
    for i in 0..900 {
        s.push_str(&format!(
            "void f{i}(__global S *p, __global uint *o, int n) {{\n\
               uint w[8] = {{ 0 }};\n\
               for (int j = 0; j < n; j++) {{\n\
                 switch (j & 3) {{\n\
                   case 0: w[0] = p->a[0] + (uint)p->v.x; break;\n\
                   case 1: w[1] = w[0] ^ o[j] ^ {i}u; break;\n\
                   default: w[2] = w[1] << (j & 7); break;\n\
                 }}\n\
                 if (w[2] > 3) {{ o[j] = w[2]; }} else if (w[1]) {{ o[j] = w[1] + 1; }} else {{ o[j] = 0; }}\n\
               }}\n\
               {}\n\
             }}\n",
            if i % 97 == 0 { "int z = undeclared_thing;" } else if i % 89 == 0 { "int unused_y = 1 ? 2 : 3; (void)unused_y; 1;" } else { "" }
        ));
    }
    s.push_str("kernel void k(__global S *p, __global uint *o) { f0(p, o, 4); }\n");
    s
}

#[test]
fn discarding_bodies_gives_the_same_diagnostics_on_a_large_file() {
    let src = big_source();
    let args: Vec<String> = vec!["-Wall".into()];
    let (keep, discard) = both_modes("big.cl", src.as_bytes(), &args);
    assert!(
        keep.contains("use of undeclared identifier 'undeclared_thing'"),
        "{keep}"
    );
    assert_eq!(keep, discard);
}

// ---- K&R identifier lists (LuxCore's `f(KERNEL_ARGS)` with the macro undefined) ----

#[test]
fn kr_parameters_are_declared_or_default_to_int_with_clangs_error() {
    let src = "int f(x) { return 0; }\nint g(a, b) int a; float b; { return a; }\nint h();\n\
        int h2() { return 1; }\nint k(x);\n";
    let (code, err) = check(src);
    assert_eq!(code, 1);
    let firsts: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .collect();
    assert_eq!(
        firsts,
        [
            "<stdin>:1:7: error: parameter 'x' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int [-Wimplicit-int]",
            "<stdin>:1:5: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:2:5: warning: a function definition without a prototype is deprecated in all versions of C and is not supported in C23 [-Wdeprecated-non-prototype]",
            "<stdin>:5:7: error: a parameter list without types is only allowed in a function definition",
        ]
    );
}

#[test]
fn kr_definition_checks_and_runs() {
    let src = "uint g(a, b) uint a; float b; { return a + (uint)b; }\n\
        kernel void k(global uint *o) { o[0] = g(o[0], 2.0f); }\n";
    let (code, err) = check(src);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("[-Wdeprecated-non-prototype]"), "{err}");
    assert_eq!(run_u32(src, &[vec![40]])[0], vec![42]);
}
