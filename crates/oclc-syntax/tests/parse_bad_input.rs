//! Bad input through the preprocessor and parser: arbitrary bytes, truncations, deep nesting.
//! Each must end in diagnostics, never a panic or a stack overflow.

use oclc_syntax::lang::{ClStd, LangOptions};
use oclc_syntax::parse::parse;
use oclc_syntax::pp::{PpOptions, preprocess};
use oclc_syntax::{Diagnostics, Level, SourceMap};

/// Preprocesses and parses `bytes`; returns the parser's diagnostics as `level: message`.
fn check(bytes: &[u8]) -> Vec<String> {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let f = sm.add_file("bad.cl", bytes);
    let mut d = Diagnostics::default();
    let out = preprocess(
        &mut sm,
        f,
        &PpOptions {
            lang: lang.clone(),
            ..PpOptions::default()
        },
        &mut d,
    );
    let mut pd = Diagnostics::default();
    let _tu = parse(&out, &sm, &lang, &mut pd);
    pd.list
        .iter()
        .map(|x| format!("{}: {}", x.level.as_str(), x.message))
        .collect()
}

#[test]
fn hundred_thousand_nested_parens_end_in_one_fatal_error() {
    let mut src = String::from("kernel void k(global int *p) { p[0] = ");
    src.push_str(&"(".repeat(100_000));
    src.push('1');
    src.push_str(&")".repeat(100_000));
    src.push_str("; }");
    let d = check(src.as_bytes());
    assert_eq!(
        d,
        vec!["fatal error: bracket nesting level exceeded maximum of 256"]
    );
}

#[test]
fn deep_braces_brackets_and_declarators() {
    let d = check(format!("void f(void) {}", "{".repeat(50_000)).as_bytes());
    assert_eq!(
        d,
        vec!["fatal error: bracket nesting level exceeded maximum of 256"]
    );
    let d = check(format!("int x = a{};", "[0]".repeat(50_000)).as_bytes());
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].split(':').next(), Some("fatal error"));
    let d = check(format!("int {}x;", "(*".repeat(50_000)).as_bytes());
    assert_eq!(
        d,
        vec!["fatal error: bracket nesting level exceeded maximum of 256"]
    );
    let d = check(format!("int {}x;", "*".repeat(100_000)).as_bytes());
    assert!(d.is_empty(), "{d:?}");
    let d = check(format!("int x = {{{}}};", "{".repeat(50_000)).as_bytes());
    assert_eq!(
        d,
        vec!["fatal error: bracket nesting level exceeded maximum of 256"]
    );
}

#[test]
fn arbitrary_bytes() {
    // A deterministic xorshift stream of bytes, biased toward C punctuation.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let alphabet = b"(){}[];,=+-*/<>!&|^~?:.#'\"\\ \nabcxyz019_ intfloatkernelglobal@$\0\xff";
    for round in 0..300 {
        let len = 1 + (round * 7) % 400;
        let mut bytes = Vec::with_capacity(len);
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let b = if state.is_multiple_of(5) {
                (state >> 8) as u8
            } else {
                alphabet[(state >> 16) as usize % alphabet.len()]
            };
            bytes.push(b);
        }
        let _ = check(&bytes);
    }
}

#[test]
fn truncated_kernels() {
    let src = "typedef struct { float4 v; int n : 3; } S;\n\
        __kernel __attribute__((reqd_work_group_size(1,1,1))) void k(__global S *s, __local float *l, read_only image2d_t img) {\n\
          for (int i = 0; i < 4; i++) { l[i] = s[i].v.x + (float4)(1, 2, 3, 4).w; }\n\
          switch (s->n) { case 1: break; default: s->v = (float4){1, 2, 3, 4}; }\n\
          do { l[0] -= 1.0f; } while (l[0] > 0 ? 1 : 0);\n\
        }\n";
    for cut in 0..src.len() {
        let _ = check(&src.as_bytes()[..cut]);
    }
    // The whole file is clean.
    assert!(check(src.as_bytes()).is_empty());
}

#[test]
fn long_operator_chains_are_bounded() {
    // A flat chain is not nesting: clang accepts any length, and so does the parser.
    let d = check(format!("int x = 1{};", " + 1".repeat(200_000)).as_bytes());
    assert!(d.is_empty(), "{d:?}");
    let d = check(format!("int x = {}1;", "-".repeat(200_000)).as_bytes());
    assert_eq!(d.len(), 1, "{d:?}");
    let d = check(format!("void f(void) {{ {} ; }}", "if (1)".repeat(100_000)).as_bytes());
    assert_eq!(d.len(), 1, "{d:?}");
    // A long but shallow file is fine.
    let d = check("int f(int x) { return x + 1; }\n".repeat(20_000).as_bytes());
    assert!(
        d.iter().all(|m| !m.starts_with(Level::Fatal.as_str())),
        "{d:?}"
    );
}
