//! On the main thread, `check_source` preprocesses any input in place, and parses and checks
//! inputs of at most `MAIN_THREAD_TOKENS` tokens there too. This checks the deepest constructs
//! of that size, and the preprocessor at its nesting limit, in 2 MiB less than the main
//! thread's `MAIN_THREAD_STACK` (what the driver uses before the check, and a margin): a stack
//! overflow here aborts the test binary.

use oclc::check::{CheckOptions, MAIN_THREAD_STACK, MAIN_THREAD_TOKENS, check_on_this_thread};
use oclc_syntax::pp::{PpOptions, preprocess};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, Level, SourceMap};

/// The stack each case runs in. In a release build the deepest case (2048 unary minus signs)
/// needed 4.2 MiB.
const STACK: usize = MAIN_THREAD_STACK as usize - (2 << 20);

/// Tokens after preprocessing, as `check_source` counts them (with the end-of-file token).
fn pp_tokens(src: &str, lang: &LangOptions) -> usize {
    let mut sm = SourceMap::new();
    let id = sm.add_file("t.cl", src.as_bytes());
    let opts = PpOptions {
        lang: lang.clone(),
        ..Default::default()
    };
    preprocess(&mut sm, id, &opts, &mut Diagnostics::default())
        .tokens
        .len()
}

/// `head`, then `unit(i)` for i = 0, 1, ... as often as fits in the token budget, then `mid`,
/// `close` as often, and `tail`.
fn fill(head: &str, unit: &dyn Fn(usize) -> String, mid: &str, close: &str, tail: &str) -> String {
    let lang = LangOptions::new(ClStd::Cl20);
    let budget = MAIN_THREAD_TOKENS;
    let text = |n: usize| {
        let units: String = (0..n).map(unit).collect();
        format!("{head}{units}{mid}{}{tail}", close.repeat(n))
    };
    // The largest n within the budget, by bisection (a unit is at least one token).
    let (mut lo, mut hi) = (0, budget + 1);
    while hi - lo > 1 {
        let m = (lo + hi) / 2;
        if pp_tokens(&text(m), &lang) <= budget {
            lo = m;
        } else {
            hi = m;
        }
    }
    text(lo)
}

/// A function around the expression and statement cases.
const HEAD: &str = "struct S { struct S *b; int x; };\n\
                    int f(int v) { return v; }\n\
                    void k(global int *p, struct S *s) {\n int a = 0;\n";

/// `unit` for [`fill`], the same every time.
fn same(unit: &'static str) -> impl Fn(usize) -> String {
    move |_| unit.to_string()
}

/// The bracket limit, which the nested bracket cases reach first.
const BRACKETS: Option<&str> = Some("bracket nesting level exceeded maximum of 256");

/// The preprocessor's limit on macro invocations nested in arguments.
const MAX_ARG_NESTING: Option<&str> = Some("macro arguments nested too deeply (limit 256)");

/// Each case, and the first error it must give.
fn cases() -> Vec<(&'static str, String, Option<&'static str>)> {
    let expr = format!("{HEAD} a = ");
    let end = ";\n}\n";
    vec![
        (
            "parentheses",
            fill(HEAD, &same("("), "a", ")", end),
            BRACKETS,
        ),
        ("unary minus", fill(&expr, &same("- "), "a", "", end), None),
        ("logical not", fill(&expr, &same("!"), "a", "", end), None),
        ("casts", fill(&expr, &same("(int)"), "a", "", end), None),
        ("sizeof", fill(&expr, &same("sizeof "), "a", "", end), None),
        (
            "assignments",
            fill(&expr, &same("a = "), "a", "", end),
            None,
        ),
        (
            "compound assignments",
            fill(&expr, &same("a += "), "a", "", end),
            None,
        ),
        (
            "conditionals",
            fill(&expr, &same("a ? a : "), "a", "", end),
            None,
        ),
        ("additions", fill(&expr, &same("a + "), "a", "", end), None),
        (
            "mixed operators",
            fill(&expr, &same("a * a + "), "a", "", end),
            None,
        ),
        (
            "commas",
            fill(
                &format!("{expr}(a"),
                &same(", a"),
                "",
                "",
                &format!("){end}"),
            ),
            None,
        ),
        (
            "subscripts",
            fill(HEAD, &same("p["), "0", "]", end),
            BRACKETS,
        ),
        ("calls", fill(HEAD, &same("f("), "a", ")", end), BRACKETS),
        (
            "member chain",
            fill(
                &format!("{HEAD} s"),
                &same("->b"),
                "",
                "",
                &format!("->x = 1{end}"),
            ),
            None,
        ),
        (
            "blocks",
            fill(HEAD, &same("{"), "a = 1;", "}", "\n}\n"),
            BRACKETS,
        ),
        (
            "else if",
            fill(HEAD, &same("if (a) a = 1; else "), "a = 2;", "", "\n}\n"),
            None,
        ),
        (
            "while",
            fill(HEAD, &same("while (a) "), ";", "", "\n}\n"),
            None,
        ),
        (
            "do while",
            fill(HEAD, &same("do "), ";", " while (a);", "\n}\n"),
            None,
        ),
        (
            "labels",
            fill(HEAD, &|i| format!("l{i}: "), ";", "", "\n}\n"),
            None,
        ),
        (
            "initializer braces",
            fill(&format!("{HEAD} int x = "), &same("{"), "1", "}", end),
            BRACKETS,
        ),
        (
            "pointer declarator",
            fill(&format!("{HEAD} int "), &same("*"), "q", "", end),
            None,
        ),
        (
            "parenthesized declarator",
            fill(&format!("{HEAD} int "), &same("("), "q", ")", end),
            BRACKETS,
        ),
        (
            "nested structs",
            fill(
                "",
                &same("struct { "),
                "int x;",
                " } m;",
                "\nkernel void k() {}\n",
            ),
            BRACKETS,
        ),
        (
            "macro arguments at the preprocessor's limit",
            format!(
                "#define F(x) x\nkernel void k(global int *p) {{ p[0] = {}1{}; }}\n",
                "F(".repeat(300),
                ")".repeat(300)
            ),
            MAX_ARG_NESTING,
        ),
    ]
}

#[test]
fn deepest_main_thread_inputs_fit_its_stack() {
    let opts = CheckOptions {
        lang: LangOptions::new(ClStd::Cl20),
        ..Default::default()
    };
    for (what, src, error) in cases() {
        let n = pp_tokens(&src, &opts.lang);
        if error != MAX_ARG_NESTING {
            assert!(
                n <= MAIN_THREAD_TOKENS && n * 10 >= MAIN_THREAD_TOKENS * 9,
                "{what}: {n} tokens"
            );
        }
        let outcome = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn({
                let opts = opts.clone();
                move || check_on_this_thread("t.cl", src.as_bytes(), &opts)
            })
            .expect("thread starts")
            .join()
            .expect("check does not panic");
        // Each case is diagnosed (most at a nesting limit or as bad code) or accepted; either
        // way the whole translation unit was processed.
        let first = outcome
            .diagnostics
            .iter()
            .find(|r| r.diag.level >= Level::Error)
            .map(|r| r.diag.message.as_str());
        assert_eq!(first, error, "{what}");
    }
}
