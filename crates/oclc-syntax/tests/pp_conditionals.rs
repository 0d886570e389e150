//! `#if` expressions and the conditional directives, skipped ranges and their diagnostics.

use oclc_syntax::pp::{PpOptions, PpOutput, preprocess};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap, Token};

struct Run {
    text: String,
    diags: Diagnostics,
    out: PpOutput,
    sm: SourceMap,
}

fn run(src: &str) -> Run {
    let mut sm = SourceMap::new();
    let id = sm.add_text("t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: LangOptions::new(ClStd::Cl12),
        ..Default::default()
    };
    let out = preprocess(&mut sm, id, &opts, &mut diags);
    let n = out.tokens.len() - 1;
    let text = out.tokens[..n]
        .iter()
        .map(Token::text)
        .collect::<Vec<_>>()
        .join(" ");
    Run {
        text,
        diags,
        out,
        sm,
    }
}

fn diags(r: &Run) -> Vec<String> {
    r.diags
        .list
        .iter()
        .map(|d| {
            let (_, l, c) = r.sm.location(d.span).unwrap_or(("?", 0, 0));
            format!("{l}:{c}: {}: {}", d.level.as_str(), d.message)
        })
        .collect()
}

/// Whether `#if EXPR` is true, with no diagnostics.
fn truth(expr: &str) -> bool {
    let r = run(&format!("#if {expr}\nyes\n#else\nno\n#endif\n"));
    // Extensions (only shown under -pedantic) aside, no diagnostics.
    let shown: Vec<_> = r
        .diags
        .list
        .iter()
        .filter(|d| d.group != Some("pedantic"))
        .collect();
    assert!(shown.is_empty(), "{expr}: {:?}", diags(&r));
    match r.text.as_str() {
        "yes" => true,
        "no" => false,
        t => panic!("{expr}: {t}"),
    }
}

#[test]
fn arithmetic_and_logic() {
    for e in [
        "1 + 2 * 3 == 7",
        "(1 + 2) * 3 == 9",
        "10 / 3 == 3 && 10 % 3 == 1",
        "-7 / 2 == -3 && -7 % 2 == -1",
        "1 << 4 == 16 && -16 >> 2 == -4",
        "(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6",
        "~0 == -1 && !0 && !!7",
        "1 ? 2 : 0",
        "0 ? 0 : 1 ? 3 : 0",
        "(0, 1)",
        "'a' == 97 && '\\n' == 10 && '\\377' < 0",
        "0x7fffffffffffffff > 0",
        "-1 < 0",
        "1 > 0 == 1",
        "defined FOO == 0 && !defined(FOO)",
        "defined __OPENCL_C_VERSION__ && defined(cl_khr_fp64)",
        "__OPENCL_C_VERSION__ >= CL_VERSION_1_2",
        "undefined_identifier == 0",
        "0 || 1 && 1",
        "+3 == 3 && - - 3 == 3",
    ] {
        assert!(truth(e), "{e}");
    }
    for e in [
        "0",
        "1 - 1",
        "0 && 1",
        "0u > 1",
        "1 ? 0 : 1",
        "(1, 0)",
        "__OPENCL_C_VERSION__ >= 200",
    ] {
        assert!(!truth(e), "{e}");
    }
}

#[test]
fn unsigned_promotion_and_warnings() {
    let r = run("#if -1 > 0u\nyes\n#endif\n");
    assert_eq!(r.text, "yes");
    assert_eq!(
        diags(&r),
        [
            "1:8: warning: left side of operator converted from negative value to unsigned: -1 to 18446744073709551615"
        ]
    );
    let r = run("#if 0x7fffffffffffffff + 1\n#endif\n#if -(-0x7fffffffffffffff - 1)\n#endif\n");
    assert_eq!(
        diags(&r),
        [
            "1:24: warning: integer overflow in preprocessor expression",
            "3:5: warning: integer overflow in preprocessor expression"
        ]
    );
}

#[test]
fn short_circuit_suppresses_errors() {
    assert!(truth("0 && 1 / 0 || 1"));
    assert!(truth("1 || 1 / 0"));
    assert!(truth("1 ? 1 : 1 / 0"));
    assert!(!truth("0 ? 1 % 0 : 0"));
}

#[test]
fn expression_errors() {
    let cases = [
        (
            "#if 1 / 0\n#endif\n",
            "1:7: error: division by zero in preprocessor expression",
        ),
        (
            "#if 1 % 0\n#endif\n",
            "1:7: error: remainder by zero in preprocessor expression",
        ),
        ("#if\n#endif\n", "1:4: error: expected value in expression"),
        (
            "#if 1 +\n#endif\n",
            "1:8: error: expected value in expression",
        ),
        (
            "#if )\n#endif\n",
            "1:5: error: invalid token at start of a preprocessor expression",
        ),
        (
            "#if \"s\"\n#endif\n",
            "1:5: error: invalid token at start of a preprocessor expression",
        ),
        (
            "#if 1 2\n#endif\n",
            "1:7: error: token is not a valid binary operator in a preprocessor subexpression",
        ),
        (
            "#if (1\n#endif\n",
            "1:7: error: expected ')' in preprocessor expression",
        ),
        (
            "#if 1)\n#endif\n",
            "1:6: error: expected end of line in preprocessor expression",
        ),
        (
            "#if foo(1)\n#endif\n",
            "1:5: error: function-like macro 'foo' is not defined",
        ),
        (
            "#if 1.0\n#endif\n",
            "1:5: error: floating point literal in preprocessor expression",
        ),
        (
            "#if 1 : 2\n#endif\n",
            "1:7: error: ':' without preceding '?'",
        ),
        ("#if 1 ? 2\n#endif\n", "1:10: error: expected ':'"),
        ("#if defined\n#endif\n", "1:12: error: macro name missing"),
        (
            "#if defined(1)\n#endif\n",
            "1:13: error: macro name must be an identifier",
        ),
        (
            "#if defined(X\n#endif\n",
            "1:14: error: missing ')' after 'defined'",
        ),
        (
            "#if 09\n#endif\n",
            "1:5: error: invalid digit '9' in octal constant",
        ),
        (
            "#if 1x\n#endif\n",
            "1:5: error: invalid suffix 'x' on integer constant",
        ),
    ];
    for (src, want) in cases {
        let r = run(src);
        assert_eq!(diags(&r), [want], "for {src:?}");
        assert_eq!(r.text, "", "an erroneous #if is false: {src:?}");
    }
    let r = run("#if (1\n#endif\n");
    assert_eq!(r.diags.list[0].notes[0].message, "to match this '('");
}

#[test]
fn ifdef_elif_else_chains() {
    let src = "#define A\n\
        #ifdef A\na\n#else\nnot_a\n#endif\n\
        #ifndef A\nnot_a\n#elif 1\nelif1\n#elif 1\nelif2\n#else\nelse\n#endif\n\
        #if 0\nx\n#elifdef A\nelifdef\n#endif\n\
        #if 0\n#if 1\nnested\n#else\nnested_else\n#endif\n#else\nouter_else\n#endif\n";
    let r = run(src);
    assert_eq!(r.text, "a elif1 elifdef outer_else");
    assert_eq!(
        diags(&r),
        ["18:2: warning: use of a '#elifdef' directive is a C23 extension"]
    );
}

#[test]
fn conditional_directive_errors() {
    let cases: [(&str, &[&str]); 9] = [
        ("#endif\n", &["1:2: error: #endif without #if"]),
        ("#else\n", &["1:2: error: #else without #if"]),
        ("#elif 1\n", &["1:2: error: #elif without #if"]),
        (
            "#if 1\n#else\n#else\n#endif\n",
            &["3:2: error: #else after #else"],
        ),
        (
            "#if 0\n#else\n#elif 1\n#endif\n",
            &["3:2: error: #elif after #else"],
        ),
        (
            "#if 1\n",
            &["1:2: error: unterminated conditional directive"],
        ),
        (
            "#if 0\n#if 1\n",
            &["1:2: error: unterminated conditional directive"],
        ),
        ("#ifdef\n#endif\n", &["1:7: error: macro name missing"]),
        (
            "#ifdef X junk\n#endif junk\n#if 1\n#else junk\n#endif\n",
            &[
                "1:10: warning: extra tokens at end of #ifdef directive",
                "2:8: warning: extra tokens at end of #endif directive",
                "4:7: warning: extra tokens at end of #else directive",
            ],
        ),
    ];
    for (src, want) in cases {
        let r = run(src);
        assert_eq!(diags(&r), want, "for {src:?}");
    }
    let r = run("#endif junk\n#if 1\n#endif junk\n");
    let d = &r.diags.list[1];
    assert_eq!(d.group, Some("extra-tokens"));
    assert_eq!(d.fixits[0].text, "//");
}

#[test]
fn skipped_groups_are_raw() {
    // No diagnostics inside skipped groups: bad tokens, unknown directives, bad expressions.
    let r = run("#if 0\n'unterminated\n#bogus\n#if 1/0\n#endif\n#error no\n#else\nok\n#endif\n");
    assert_eq!(r.text, "ok");
    assert!(r.diags.list.is_empty(), "{:?}", diags(&r));
    // `#endif` inside a comment or string of a skipped group does not end it.
    let r = run("#if 0\n/*\n#endif\n*/\n\"#endif\"\n#endif\nafter\n");
    assert_eq!(r.text, "after");
    assert!(r.diags.list.is_empty());
}

#[test]
fn skipped_ranges_cover_whole_lines() {
    let src = "a\n#if 0\nskip1\n// expected-error {{x}}\n#elif 1\nkept\n#else\nskip2\n#endif\nb\n";
    let r = run(src);
    assert_eq!(r.text, "a kept b");
    let ranges: Vec<&str> = r
        .out
        .skipped
        .iter()
        .map(|s| &src[s.lo as usize..s.hi as usize])
        .collect();
    assert_eq!(ranges, ["skip1\n// expected-error {{x}}\n", "skip2\n"]);
    // A group skipped to the end of an unterminated conditional.
    let src = "#if 0\nx\ny\n";
    let r = run(src);
    let ranges: Vec<&str> = r
        .out
        .skipped
        .iter()
        .map(|s| &src[s.lo as usize..s.hi as usize])
        .collect();
    assert_eq!(ranges, ["x\ny\n"]);
}

#[test]
fn defined_from_macro_expansion() {
    let r = run("#define D defined(X)\n#define F(x) defined(x)\n#if D || F(Y)\n#endif\n");
    assert_eq!(
        diags(&r),
        [
            "3:5: warning: macro expansion producing 'defined' has undefined behavior",
            "3:10: warning: macro expansion producing 'defined' has undefined behavior",
        ]
    );
    assert_eq!(r.diags.list[0].group, Some("expansion-to-defined"));
    assert_eq!(r.diags.list[1].group, Some("pedantic"));
}

#[test]
fn comma_operator_extension_only_when_evaluated() {
    let r = run("#if (1, 2)\n#endif\n#if 0 && (1, 2)\n#endif\n");
    assert_eq!(
        diags(&r),
        ["1:7: warning: comma operator in operand of #if"]
    );
    assert_eq!(r.diags.list[0].group, Some("pedantic"));
}

#[test]
fn has_include_and_feature_checks() {
    let r = run("#if __has_include(\"definitely/not/here.h\")\nyes\n#else\nno\n#endif\n");
    assert_eq!(r.text, "no");
    let r = run(
        "#if defined(__has_feature) && !__has_feature(c_atomic) && !__has_builtin(__builtin_x(y))\n\
         yes\n#endif\n#ifdef __has_include\ninc\n#endif\n#if __has_feature\n#endif\n",
    );
    assert_eq!(r.text, "yes inc");
    assert_eq!(
        diags(&r),
        ["7:5: error: builtin feature check macro requires a parenthesized identifier"]
    );
}
