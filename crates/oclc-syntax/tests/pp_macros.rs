//! Macro definition and expansion: object- and function-like macros, `#`, `##`, variadic
//! macros, rescanning with painted tokens, expansion records, and macro diagnostics.

use oclc_syntax::pp::{PpOptions, PpOutput, preprocess};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, Level, SourceMap, Token};

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

/// `LINE:COL: level: message` for each diagnostic.
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

#[test]
fn object_like() {
    let r = run("#define A 1 + 2\n#define B A * A\nint x = B;\n");
    assert_eq!(r.text, "int x = 1 + 2 * 1 + 2 ;");
    assert!(r.diags.list.is_empty());
}

#[test]
fn function_like_and_nested_parens() {
    let r = run("#define F(a, b) ((a) - (b))\nF((1, 2), f(3, 4)) F () F\n");
    // The invalid invocation `F ()` is dropped, as clang does.
    assert_eq!(r.text, "( ( ( 1 , 2 ) ) - ( f ( 3 , 4 ) ) ) F");
    let diags = diags(&r);
    assert_eq!(
        diags,
        ["2:23: error: too few arguments provided to function-like macro invocation"]
    );
    assert_eq!(r.diags.list[0].notes[0].message, "macro 'F' defined here");
}

/// Arguments are pre-expanded once each, with few parameters and with more than 8; `##`
/// bodies and plain bodies alike.
#[test]
fn many_arguments_expand_in_place() {
    let r = run("#define ID(x) x\n\
                 #define S10(a,b,c,d,e,f,g,h,i,j) a b c d e f g h i j a\n\
                 #define P(a,b) a##b b\n\
                 S10(ID(1),2,3,4,5,6,7,8,9,ID(10)) P(x,ID(y)) ID(ID(z))\n");
    assert_eq!(r.text, "1 2 3 4 5 6 7 8 9 10 1 xID ( y ) y z");
    assert!(r.diags.list.is_empty());
}

#[test]
fn function_like_name_without_parens_is_not_expanded() {
    let r = run("#define f(x) [x]\nint f; f\n(1) f\n#define g 2\n(3)\n");
    // A directive between the name and `(` ends the look for `(`, as in clang.
    assert_eq!(r.text, "int f ; [ 1 ] f ( 3 )");
}

#[test]
fn stringizing() {
    let r = run("#define S(x) #x\nS( a  +  \"b\\n\" 'c' ) S() S(  x\ny )\n");
    assert_eq!(r.text, r#""a + \"b\\n\" 'c'" "" "x y""#);
}

#[test]
fn pasting_words_gives_the_tokens_lexing_gives() {
    // Identifier and number pastes made without lexing the joined text: each result must be
    // the one token the lexer makes of it, of the same kind.
    use oclc_syntax::token::TokenKind;
    let r = run("#define CAT(a, b) a ## b\n\
         CAT(x, 1) CAT(x, y_2) CAT(_, _) CAT(1, x) CAT(0x, 1F) CAT(1.5, f) CAT(1., e5) CAT(9, 9)\n");
    assert_eq!(r.text, "x1 xy_2 __ 1x 0x1F 1.5f 1.e5 99");
    assert!(r.diags.list.is_empty(), "{:?}", diags(&r));
    let kinds: Vec<&str> = r.out.tokens[..r.out.tokens.len() - 1]
        .iter()
        .map(|t| match t.kind {
            TokenKind::Ident(_) => "ident",
            TokenKind::Number(_) => "number",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "ident", "ident", "ident", "number", "number", "number", "number", "number"
        ]
    );
    // A number after an identifier is not all word characters: lexed, and an error.
    let r = run("#define CAT(a, b) a ## b\nCAT(x, 1.5) CAT(1e, +5)\n");
    assert_eq!(
        diags(&r),
        ["2:1: error: pasting formed 'x1.5', an invalid preprocessing token"]
    );
    assert_eq!(r.text, "x 1.5 1e+ 5");
}

#[test]
fn pasting() {
    let r = run(
        "#define CAT(a, b) a ## b\n#define X CAT(int, 32)\nCAT(x, 1) CAT(, y) CAT(z,) CAT(,) CAT(1, .5e) CAT(<, <=) X\n",
    );
    assert_eq!(r.text, "x1 y z 1.5e <<= int32");
    assert!(r.diags.list.is_empty());
    let r = run("#define CAT(a, b) a ## b\nCAT(+, -)\n");
    assert_eq!(r.text, "+ -");
    assert_eq!(
        diags(&r),
        ["2:1: error: pasting formed '+-', an invalid preprocessing token"]
    );
}

#[test]
fn pasted_argument_is_not_pre_expanded() {
    let r = run("#define A 1\n#define P(x) x ## _s x\nP(A)\n");
    assert_eq!(r.text, "A_s 1");
}

#[test]
fn variadic_and_gnu_comma() {
    let r = run(
        "#define V(...) f(__VA_ARGS__)\n#define G(fmt, ...) g(fmt, ## __VA_ARGS__)\n\
         #define H(...) h(0, ## __VA_ARGS__)\n#define N(x, rest...) n(x, rest)\n\
         V() V(1) V(1, 2, (3, 4)) G(a) G(a,) G(a, b, c) H() H(1) N(1, 2, 3)\n",
    );
    assert_eq!(
        r.text,
        "f ( ) f ( 1 ) f ( 1 , 2 , ( 3 , 4 ) ) g ( a ) g ( a ) g ( a , b , c ) h ( 0 , ) h ( 0 , 1 ) n ( 1 , 2 , 3 )"
    );
    // clang's extension diagnostics (shown under -pedantic), at the use sites.
    assert_eq!(
        diags(&r),
        [
            "1:11: warning: variadic macros are a Clang extension in OpenCL",
            "2:16: warning: variadic macros are a Clang extension in OpenCL",
            "3:11: warning: variadic macros are a Clang extension in OpenCL",
            "4:18: warning: named variadic macros are a GNU extension",
            "5:37: warning: token pasting of ',' and __VA_ARGS__ is a GNU extension",
            "5:52: warning: token pasting of ',' and __VA_ARGS__ is a GNU extension",
        ]
    );
    assert_eq!(r.diags.list[0].group, Some("pedantic"));
    assert_eq!(r.diags.list[3].group, Some("variadic-macros"));
    assert_eq!(
        r.diags.list[4].group,
        Some("gnu-zero-variadic-macro-arguments")
    );
    let r = run("#define V(x, ...) v(x, __VA_ARGS__)\n#define O __VA_ARGS__\nV(1)\n");
    assert_eq!(
        diags(&r),
        [
            "1:14: warning: variadic macros are a Clang extension in OpenCL",
            "2:11: warning: __VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
            "3:4: warning: must specify at least one argument for '...' parameter of variadic macro",
        ]
    );
    assert_eq!(r.text, "v ( 1 , )");
}

#[test]
fn recursion_is_painted_blue() {
    let r =
        run("#define foo foo + 1\n#define f(x) f(x) x\n#define a b\n#define b a\nfoo f(2) a b\n");
    assert_eq!(r.text, "foo + 1 f ( 2 ) 2 a b");
    // C99 6.10.3.5 example 3 (partially).
    let r = run(
        "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n\
         #define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n\
         f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m(f)^m(m);\n",
    );
    assert_eq!(
        r.text,
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;"
    );
}

#[test]
fn c99_paste_example() {
    // C99 6.10.3.5 example 4.
    let r = run(
        "#define str(s) # s\n#define xstr(s) str(s)\n#define INCFILE(n) vers ## n\n\
         #define glue(a, b) a ## b\n#define xglue(a, b) glue(a, b)\n#define HIGHLOW \"hello\"\n\
         #define LOW LOW \", world\"\nglue(HIGH, LOW); xglue(HIGH, LOW) xstr(INCFILE(2).h)\n",
    );
    assert_eq!(r.text, r#""hello" ; "hello" ", world" "vers2.h""#);
}

#[test]
fn expansion_spans_and_records() {
    let src = "#define ONE 1\n#define ID(x) x + ONE\nint v = ID(v2);\n";
    let r = run(src);
    assert_eq!(r.text, "int v = v2 + 1 ;");
    let toks = &r.out.tokens;
    // `v2` comes from the argument: its own span, no expansion.
    let v2 = &toks[3];
    assert_eq!(&src[v2.span.lo as usize..v2.span.hi as usize], "v2");
    assert!(r.sm.expansion(v2.span.expn).is_none());
    // `+` is spelled in ID's body and marked with ID's expansion.
    let plus = &toks[4];
    assert_eq!(&src[plus.span.lo as usize..plus.span.hi as usize], "+");
    let e = r.sm.expansion(plus.span.expn).expect("expansion");
    assert_eq!(e.macro_name.as_str(), "ID");
    assert_eq!(&src[e.call_site.lo as usize..e.call_site.hi as usize], "ID");
    assert_eq!(&src[e.def_site.lo as usize..e.def_site.hi as usize], "ID");
    // `1` comes from ONE, expanded inside ID's expansion.
    let one = &toks[5];
    let e1 = r.sm.expansion(one.span.expn).expect("expansion");
    assert_eq!(e1.macro_name.as_str(), "ONE");
    assert_eq!(e1.call_site.expn, plus.span.expn);
    assert_eq!(r.sm.location(one.span), Some(("t.cl", 3, 9)));
    let chain: Vec<&str> =
        r.sm.expansion_chain(one.span)
            .iter()
            .map(|e| e.macro_name.as_str())
            .collect();
    assert_eq!(chain, ["ONE", "ID"]);
}

#[test]
fn predefined_macro_expansion_has_dummy_def_site() {
    let r = run("int *p = NULL;\n");
    assert_eq!(r.text, "int * p = ( ( void * ) 0 ) ;");
    let e =
        r.sm.expansion(r.out.tokens[4].span.expn)
            .expect("expansion");
    assert_eq!(e.macro_name.as_str(), "NULL");
    assert!(e.def_site.is_dummy());
}

#[test]
fn redefinition_warnings() {
    let r = run(
        "#define A 1\n#define A 1\n#define A 2\n#define F(x) x\n#define F(y) y\n#undef A\n#define A 3\n",
    );
    assert_eq!(
        diags(&r),
        [
            "3:9: warning: 'A' macro redefined",
            "5:9: warning: 'F' macro redefined"
        ]
    );
    let d = &r.diags.list[0];
    assert_eq!(d.group, Some("macro-redefined"));
    assert_eq!(d.notes[0].message, "previous definition is here");
    // The identical redefinition on line 2 became the current definition.
    assert_eq!(r.sm.location(d.notes[0].span), Some(("t.cl", 2, 9)));
    // Predefined macros warn too; default-header macros may be redefined silently.
    let r = run("#define __OPENCL_C_VERSION__ 1\n#define CLK_NULL_EVENT 0\n#define __LINE__ 3\n");
    assert_eq!(
        diags(&r),
        [
            "1:9: warning: '__OPENCL_C_VERSION__' macro redefined",
            "3:9: warning: redefining builtin macro"
        ]
    );
}

#[test]
fn define_errors() {
    let cases = [
        ("#define\n", "1:8: error: macro name missing"),
        (
            "#define 3 x\n",
            "1:9: error: macro name must be an identifier",
        ),
        (
            "#define defined\n",
            "1:9: error: 'defined' cannot be used as a macro name",
        ),
        (
            "#define F(x) #y\n",
            "1:15: error: '#' is not followed by a macro parameter",
        ),
        (
            "#define F(x) #\n",
            "1:15: error: '#' is not followed by a macro parameter",
        ),
        (
            "#define F ## x\n",
            "1:11: error: '##' cannot appear at start of macro expansion",
        ),
        (
            "#define F x ##\n",
            "1:13: error: '##' cannot appear at end of macro expansion",
        ),
        (
            "#define F(x\n",
            "1:12: error: expected comma in macro parameter list",
        ),
        (
            "#define F(\n",
            "1:11: error: missing ')' in macro parameter list",
        ),
        (
            "#define F(x,)\n",
            "1:13: error: expected identifier in macro parameter list",
        ),
        (
            "#define F(1)\n",
            "1:11: error: invalid token in macro parameter list",
        ),
        (
            "#define F(x,x)\n",
            "1:13: error: duplicate macro parameter name 'x'",
        ),
        (
            "#define A+1\n",
            "1:10: warning: ISO C99 requires whitespace after the macro name",
        ),
        ("#undef\n", "1:7: error: macro name missing"),
        (
            "#undef X Y\n",
            "1:10: warning: extra tokens at end of #undef directive",
        ),
        (
            "#undef __FILE__\n",
            "1:8: warning: undefining builtin macro",
        ),
    ];
    for (src, want) in cases {
        let r = run(src);
        assert_eq!(diags(&r), [want], "for {src:?}");
    }
    let r = run("#define F(...x)\n");
    assert_eq!(
        diags(&r),
        [
            "1:11: warning: variadic macros are a Clang extension in OpenCL",
            "1:14: error: missing ')' in macro parameter list"
        ]
    );
    // Object-like macros may contain a lone '#'.
    assert!(run("#define H # x\n").diags.list.is_empty());
}

#[test]
fn invocation_errors() {
    let r = run("#define F(a) a\n#define G() g\nF(1, 2) G(x) F(\n");
    assert_eq!(
        diags(&r),
        [
            "3:6: error: too many arguments provided to function-like macro invocation",
            "3:11: error: too many arguments provided to function-like macro invocation",
            "3:14: error: unterminated function-like macro invocation",
        ]
    );
    assert!(r.diags.list.iter().all(|d| d.level == Level::Error));
    assert_eq!(r.diags.list[2].notes[0].message, "macro 'F' defined here");
    assert_eq!(r.text, "");
}

#[test]
fn directives_inside_macro_arguments() {
    let r = run("#define F(x) [x]\nF(1\n#ifdef F\n+ 2\n#else\n+ 3\n#endif\n)\n");
    assert_eq!(r.text, "[ 1 + 2 ]");
    // `#ifdef` and `#else` (the `#endif` is met while skipping, as in clang).
    let d = diags(&r);
    assert_eq!(d.len(), 2);
    let ub = "embedding a directive within macro arguments has undefined behavior";
    assert!(d.iter().all(|m| m.ends_with(ub)), "{d:?}");
    let r = run("#define F(x) [x]\nF(1\n#include \"x.h\"\n)\n");
    assert_eq!(r.text, "[ 1 ]");
    assert_eq!(
        diags(&r),
        ["3:2: error: embedding a #include directive within macro arguments is not supported"]
    );
    assert_eq!(
        r.diags.list[0].notes[0].message,
        "expansion of macro 'F' requested here"
    );
}

#[test]
fn builtin_macros() {
    let r =
        run("__LINE__\n#define L __LINE__\nL __FILE__ __COUNTER__ __COUNTER__ __INCLUDE_LEVEL__\n");
    assert_eq!(r.text, "1 3 \"t.cl\" 0 1 0");
    // In a multi-line invocation, the line of the closing parenthesis (as clang and GCC).
    let r = run("#define F(x) x __LINE__\nF(\n\n__LINE__\n)\n");
    assert_eq!(r.text, "4 5");
    let r = run("__DATE__ __TIME__\n");
    let toks = &r.out.tokens;
    let date = toks[0].text();
    let time = toks[1].text();
    assert_eq!(date.len(), 13, "{date}");
    assert_eq!(time.len(), 10, "{time}");
    assert_eq!(time.as_bytes()[3], b':');
}

#[test]
fn pragma_operator() {
    let r = run(
        "#define EXT(e) _Pragma(#e)\nint a;\n_Pragma(\"OPENCL EXTENSION cl_khr_fp16 : enable\")\nint b;\nEXT(once more)\n_Pragma(1)\n",
    );
    assert_eq!(r.text, "int a ; int b ;");
    assert_eq!(r.out.pragmas.len(), 2);
    assert_eq!(r.out.pragmas[0].before_token, 3);
    assert!(matches!(
        &r.out.pragmas[0].kind,
        oclc_syntax::pp::PragmaKind::OpenclExtension { name, enable: true, .. } if name == "cl_khr_fp16"
    ));
    assert_eq!(
        r.out.pragmas[1].kind,
        oclc_syntax::pp::PragmaKind::Other("once more".into())
    );
    assert_eq!(
        diags(&r),
        ["6:1: error: _Pragma takes a parenthesized string literal"]
    );
}
