//! Property tests: `check_source` (preprocess + parse + sema) never panics, on random bytes
//! and on random soups of OpenCL C tokens. This is the runnable stand-in for the cargo-fuzz
//! target in fuzz/ (which needs a nightly toolchain).

use oclc::args::parse_check_args;
use oclc::check_source;
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "kernel",
    "__kernel",
    "void",
    "int",
    "float",
    "float4",
    "uint",
    "char",
    "half",
    "double",
    "global",
    "__global",
    "local",
    "__local",
    "constant",
    "__constant",
    "private",
    "__private",
    "generic",
    "__generic",
    "const",
    "volatile",
    "restrict",
    "struct",
    "union",
    "enum",
    "typedef",
    "static",
    "extern",
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "switch",
    "case",
    "default",
    "sizeof",
    "vec_step",
    "to_global",
    "to_local",
    "to_private",
    "get_global_id",
    "barrier",
    "CLK_LOCAL_MEM_FENCE",
    "NULL",
    "x",
    "y",
    "p",
    "q",
    "s",
    "k",
    "0",
    "1",
    "42",
    "1.5f",
    "0x1F",
    "'a'",
    "\"str\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "*",
    "&",
    "+",
    "-",
    "/",
    "%",
    "=",
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "&&",
    "||",
    "!",
    "~",
    "?",
    ":",
    ".",
    "->",
    "++",
    "--",
    "+=",
    "<<",
    ">>",
    "...",
    "#",
    "##",
    "\n#define ",
    "\n#if ",
    "\n#ifdef ",
    "\n#else\n",
    "\n#endif\n",
    "\n#include ",
    "\n#pragma OPENCL EXTENSION ",
    "defined",
    "__attribute__",
    "((",
    "))",
    "aligned",
    "reqd_work_group_size",
    ".xyzw",
    ".s0",
    "\\\n",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
];

fn all_modes() -> Vec<oclc::CheckOptions> {
    [
        vec!["-cl-std=CL1.2"],
        vec!["-cl-std=CL2.0", "-Wconversion", "-pedantic"],
        vec!["-cl-std=CL3.0", "-cl-ext=-all"],
    ]
    .into_iter()
    .map(|f| parse_check_args(f).expect("flags").options)
    .collect()
}

fn check_everywhere(src: &[u8]) {
    for opts in all_modes() {
        let out = check_source("fuzz.cl", src, &opts);
        // Rendering walks every span: it must not panic either.
        let _ = out.render_text();
        let _ = out.verify(&["expected".to_string()]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        check_everywhere(&bytes);
    }

    #[test]
    fn token_soup(idx in proptest::collection::vec(0..TOKENS.len(), 0..400)) {
        let src: Vec<u8> = idx.iter().flat_map(|&i| {
            let mut t = TOKENS[i].as_bytes().to_vec();
            t.push(b' ');
            t
        }).collect();
        check_everywhere(&src);
    }
}
