//! Unit tests of the parser over a minimal test tokenizer (no preprocessing), so the parser
//! can be tested on its own.

use super::{TokPragma, dump, parse_tokens};
use crate::ast::*;
use crate::diag::{Diagnostics, Level};
use crate::intern::Symbol;
use crate::lang::{ClStd, LangOptions};
use crate::source::{FileId, SourceMap, Span};
use crate::token::{Punct, Token, TokenKind};

/// Splits C source into tokens: identifiers, pp-numbers, character and string literals,
/// punctuators (longest match); skips whitespace and comments.
pub(crate) fn lex(src: &str, file: FileId) -> Vec<Token> {
    const PUNCTS: &[(&str, Punct)] = &[
        ("...", Punct::Ellipsis),
        ("<<=", Punct::ShlEq),
        (">>=", Punct::ShrEq),
        ("->", Punct::Arrow),
        ("++", Punct::PlusPlus),
        ("--", Punct::MinusMinus),
        ("<<", Punct::Shl),
        (">>", Punct::Shr),
        ("<=", Punct::Le),
        (">=", Punct::Ge),
        ("==", Punct::EqEq),
        ("!=", Punct::Ne),
        ("&&", Punct::AmpAmp),
        ("||", Punct::PipePipe),
        ("*=", Punct::StarEq),
        ("/=", Punct::SlashEq),
        ("%=", Punct::PercentEq),
        ("+=", Punct::PlusEq),
        ("-=", Punct::MinusEq),
        ("&=", Punct::AmpEq),
        ("^=", Punct::CaretEq),
        ("|=", Punct::PipeEq),
        ("##", Punct::HashHash),
        ("(", Punct::LParen),
        (")", Punct::RParen),
        ("[", Punct::LBracket),
        ("]", Punct::RBracket),
        ("{", Punct::LBrace),
        ("}", Punct::RBrace),
        (".", Punct::Dot),
        ("&", Punct::Amp),
        ("*", Punct::Star),
        ("+", Punct::Plus),
        ("-", Punct::Minus),
        ("~", Punct::Tilde),
        ("!", Punct::Bang),
        ("/", Punct::Slash),
        ("%", Punct::Percent),
        ("<", Punct::Lt),
        (">", Punct::Gt),
        ("^", Punct::Caret),
        ("|", Punct::Pipe),
        ("?", Punct::Question),
        (":", Punct::Colon),
        (";", Punct::Semi),
        ("=", Punct::Eq),
        (",", Punct::Comma),
        ("#", Punct::Hash),
    ];
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let mut line_start = true;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            space = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            space = true;
            i += 1;
            continue;
        }
        if src[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if src[i..].starts_with("/*") {
            i += 2;
            while i < b.len() && !src[i..].starts_with("*/") {
                i += 1;
            }
            i = (i + 2).min(b.len());
            space = true;
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if i < b.len()
                && (b[i] == b'\'' || b[i] == b'"')
                && matches!(&src[start..i], "L" | "u" | "U" | "u8")
            {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                let s = Symbol::intern(&src[start..i]);
                if q == b'"' {
                    TokenKind::Str(s)
                } else {
                    TokenKind::Char(s)
                }
            } else {
                TokenKind::Ident(Symbol::intern(&src[start..i]))
            }
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() {
                let d = b[i];
                let sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if sign || d.is_ascii_alphanumeric() || d == b'.' || d == b'_' {
                    i += 1;
                } else {
                    break;
                }
            }
            TokenKind::Number(Symbol::intern(&src[start..i]))
        } else if c == b'\'' || c == b'"' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            let s = Symbol::intern(&src[start..i]);
            if c == b'"' {
                TokenKind::Str(s)
            } else {
                TokenKind::Char(s)
            }
        } else if let Some(&(p, k)) = PUNCTS.iter().find(|(p, _)| src[i..].starts_with(p)) {
            i += p.len();
            TokenKind::Punct(k)
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            i += ch.len_utf8();
            TokenKind::Unknown(Symbol::intern(&src[start..i]))
        };
        out.push(Token {
            kind,
            span: Span::new(file, start as u32, i as u32),
            at_line_start: line_start,
            leading_space: space,
        });
        line_start = false;
        space = false;
    }
    out.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(file, b.len() as u32, b.len() as u32),
        at_line_start: true,
        leading_space: false,
    });
    out
}

pub(crate) struct Parsed {
    pub tu: TranslationUnit,
    pub diags: Vec<String>,
}

/// Parses `src` in `std` and renders diagnostics as `LINE:COL: level: message`, notes as
/// `  LINE:COL: note: message`.
pub(crate) fn parse_in(src: &str, std: ClStd) -> Parsed {
    let mut sm = SourceMap::new();
    let f = sm.add_text("t.cl", src.to_string());
    let toks = lex(src, f);
    let lang = LangOptions::new(std);
    let mut d = Diagnostics::default();
    let tu = parse_tokens(&toks, &[], &sm, &lang, &mut d);
    let diags = render(&sm, &d);
    Parsed { tu, diags }
}

pub(crate) fn render(sm: &SourceMap, d: &Diagnostics) -> Vec<String> {
    let loc = |s: Span| {
        sm.location(s)
            .map(|(_, l, c)| format!("{l}:{c}"))
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for x in &d.list {
        out.push(format!(
            "{}: {}: {}",
            loc(x.span),
            x.level.as_str(),
            x.message
        ));
        for n in &x.notes {
            out.push(format!("  {}: note: {}", loc(n.span), n.message));
        }
    }
    out
}

fn parse(src: &str) -> Parsed {
    parse_in(src, ClStd::Cl20)
}

/// Parses and asserts no diagnostics; returns the dump.
fn ok(src: &str) -> String {
    let p = parse(src);
    assert!(
        p.diags.is_empty(),
        "unexpected diagnostics for {src:?}: {:#?}",
        p.diags
    );
    dump(&p.tu)
}

fn errs(src: &str) -> Vec<String> {
    parse(src).diags
}

/// The first statement of the only function's body.
fn body_stmts(p: &Parsed) -> &[Stmt] {
    match p.tu.items.first() {
        Some(ExternalDecl::FunctionDef(f)) => &f.body.stmts,
        other => panic!("no function: {other:?}"),
    }
}

fn expr_of(src: &str) -> String {
    let p = parse(&format!("void f(void) {{ {src}; }}"));
    assert!(p.diags.is_empty(), "{:?}", p.diags);
    match &body_stmts(&p)[0].kind {
        StmtKind::Expr(e) => super::dump::inline(e),
        k => panic!("{k:?}"),
    }
}

#[test]
fn kernel_with_address_spaces() {
    let d = ok(
        "__kernel void k(__global float *out, global const int *in, __local int *tmp) { out[0] = in[1]; }",
    );
    assert_eq!(
        d,
        "FunctionDef [kernel void] k fn([AS:global(kw __global) float] out *, [AS:global(kw global) const int] in *, [AS:local(kw __local) int] tmp *)\n  Block\n    ExprStmt\n      (= (index out 0) (index in 1))\n"
    );
}

#[test]
fn expression_precedence_and_assoc() {
    assert_eq!(
        expr_of("a = b = c + d * e - f"),
        "(= a (= b (- (+ c (* d e)) f)))"
    );
    assert_eq!(expr_of("a ? b : c ? d : e"), "(? a b (? c d e))");
    assert_eq!(
        expr_of("a || b && c | d ^ e & f == g < h << i"),
        "(|| a (&& b (| c (^ d (& e (== f (< g (<< h i))))))))"
    );
    assert_eq!(expr_of("x += 1, y -= 2"), "(, (+= x 1) (-= y 2))");
    assert_eq!(expr_of("-!~*&p"), "(- (! (~ (* (& p)))))");
    assert_eq!(expr_of("p++ + ++q"), "(+ (post++ p) (pre++ q))");
    assert_eq!(
        expr_of("a.b->c[1](2, 3)"),
        "(call (index (-> (. a b) c) 1) 2 3)"
    );
    assert_eq!(expr_of("x <<= 2 | y"), "(<<= x (| 2 y))");
}

#[test]
fn casts_vector_literals_and_compound_literals() {
    assert_eq!(
        expr_of("(float4)(a, b, 1.0f, 2)"),
        "(cast [builtin:float4] (list a b 1.0f 2))"
    );
    assert_eq!(expr_of("(float4)(x)"), "(cast [builtin:float4] (list x))");
    assert_eq!(expr_of("(int)x.y"), "(cast [int] (. x y))");
    assert_eq!(
        expr_of("(float4)(1.0f).x"),
        "(. (cast [builtin:float4] (list 1.0f)) x)"
    );
    assert_eq!(
        expr_of("(uint)(float)x"),
        "(cast [builtin:uint] (cast [float] x))"
    );
    assert_eq!(
        expr_of("(__global int *)p"),
        "(cast [AS:global(kw __global) int] <abstract> * p)"
    );
    assert_eq!(expr_of("(int2){1, 2}"), "(compound [builtin:int2] {1, 2})");
    assert_eq!(expr_of("(x)"), "(paren x)");
}

#[test]
fn sizeof_vec_step_alignof() {
    assert_eq!(expr_of("sizeof(int)"), "(sizeof [int])");
    assert_eq!(expr_of("sizeof x"), "(sizeof x)");
    assert_eq!(expr_of("sizeof(x) + 1"), "(+ (sizeof (paren x)) 1)");
    assert_eq!(expr_of("vec_step(float4)"), "(vec_step [builtin:float4])");
    assert_eq!(expr_of("vec_step(v)"), "(vec_step (paren v))");
    assert_eq!(expr_of("_Alignof(float4)"), "(alignof [builtin:float4])");
    assert_eq!(expr_of("__alignof__(x)"), "(alignof (paren x))");
    assert_eq!(expr_of("sizeof(int[4])"), "(sizeof [int] <abstract> [4])");
}

#[test]
fn literals() {
    assert_eq!(
        expr_of("0x10u + 010 + 1UL + 2ll"),
        "(+ (+ (+ 16u 8) 1ul) 2ll)"
    );
    assert_eq!(expr_of("1.5f + 2.0 + 0.5h"), "(+ (+ 1.5f 2.0) 0.5h)");
    assert_eq!(expr_of("'a'"), "char:97");
    assert_eq!(expr_of("\"ab\" \"c\\n\""), "\"abc\\n\"");
    assert_eq!(expr_of("true && !false"), "(&& true (! false))");
    assert_eq!(expr_of("__func__"), "__func__");
    let p = parse("void f(void) { int x = 08; int y = 1.0z; }");
    assert_eq!(
        p.diags,
        vec![
            "1:25: error: invalid digit '8' in octal constant",
            "1:39: error: invalid suffix 'z' on floating constant"
        ]
    );
}

/// A spelling seen again decodes as the first time (the parser keeps decoded numbers), and
/// a bad one is reported at each use.
#[test]
fn repeated_number_spellings() {
    assert_eq!(
        expr_of("0x10u + 0x10u * 0x10u + 1.5f + 1.5f"),
        "(+ (+ (+ 16u (* 16u 16u)) 1.5f) 1.5f)"
    );
    let p = parse("void f(void) { int x = 08; int y = 08 + 7; int z = 7; }");
    assert_eq!(
        p.diags,
        vec![
            "1:25: error: invalid digit '8' in octal constant",
            "1:37: error: invalid digit '8' in octal constant"
        ]
    );
}

#[test]
fn declarations_and_declarators() {
    let d = ok("int *a[3], (*fp)(int, float), **pp; const volatile int *restrict const q;");
    assert_eq!(
        d,
        "Decl [int]\n  a [3] *\n  fp * () fn([int], [float])\n  pp * *\nDecl [const volatile int]\n  q *[restrict const]\n"
    );
    let d = ok(
        "typedef struct { int x, y : 3; float4 v; } S; S s = { .x = 1, .v = (float4)(0), [2] = 3 };",
    );
    assert!(d.contains("Decl [typedef struct{..}]"), "{d}");
    assert!(d.contains("Designated .x\n"), "{d}");
    assert!(d.contains("Designated [2]\n"), "{d}");
    assert!(d.contains("Decl [typedef:S]"), "{d}");
    assert!(d.contains("BitWidth"), "{d}");
    let d = ok("enum E { A, B = 3, C, }; union U { int i; float f; } u;");
    assert!(d.contains("Enumerator B\n      3\n"), "{d}");
    assert!(d.contains("Decl [union U{..}]"), "{d}");
}

#[test]
fn parameters_varargs_and_kr() {
    let d = ok(
        "int printf(__constant char *fmt, ...); void g(void); int h(); int k(a, b) int a; int b; { return a; }",
    );
    assert!(
        d.contains("printf fn([AS:constant(kw __constant) char] fmt *, ...)"),
        "{d}"
    );
    assert!(d.contains("g fn([void])"), "{d}");
    assert!(d.contains("h fn()"), "{d}");
    assert!(d.contains("k fn(kr:a, kr:b)"), "{d}");
}

#[test]
fn attributes_and_address_space_attributes() {
    let d = ok(
        "__kernel __attribute__((reqd_work_group_size(8, 1, 1))) __attribute__((vec_type_hint(float4))) void k(__attribute__((opencl_global)) int *p, [[clang::opencl_local]] int *q, __attribute__((address_space(3))) int *r) {}",
    );
    assert!(d.contains("attr:reqd_work_group_size(8, 1, 1)"), "{d}");
    assert!(
        d.contains("attr:vec_type_hint(type:[builtin:float4])"),
        "{d}"
    );
    assert!(d.contains("AS:global(gnu opencl_global)"), "{d}");
    assert!(d.contains("AS:local(cxx opencl_local)"), "{d}");
    assert!(d.contains("AS:address_space(3)(gnu address_space)"), "{d}");
    let d = ok(
        "int x __attribute__((aligned(16))); struct __attribute__((packed)) P { char c; int i; };",
    );
    assert!(d.contains("x attr:aligned(16)"), "{d}");
    let d = ok("kernel void k(void) __attribute__((reqd_work_group_size(1, 1, 1))) { }");
    assert!(
        d.starts_with(
            "FunctionDef [kernel void] k fn([void]) attr:reqd_work_group_size(1, 1, 1)\n"
        ),
        "{d}"
    );
    let d = ok(
        "void f(void) { __attribute__((opencl_unroll_hint(4))) for (int i = 0; i < 4; i++) {} }",
    );
    assert!(d.contains("Attributed attr:opencl_unroll_hint(4)"), "{d}");
    let d = ok(
        "void f(__attribute__((opencl_global_device)) int *a, __attribute__((opencl_global_host)) int *b);",
    );
    assert!(
        d.contains("AS:global_device(gnu opencl_global_device)"),
        "{d}"
    );
    assert!(d.contains("AS:global_host(gnu opencl_global_host)"), "{d}");
}

#[test]
fn statements() {
    let d = ok(
        "void f(int n) { int i; for (i = 0; i < n; ++i) { if (i) continue; else break; } while (n--) ; do { n++; } while (n < 3); switch (n) { case 1: n = 2; break; default: ; } goto end; end: return; }",
    );
    assert_eq!(
        d,
        "FunctionDef [void] f fn([int] n)
  Block
    Decl [int]
      i
    For
      (= i 0)
      (< i n)
      (pre++ i)
      Block
        If
          i
          Continue
          Else
            Break
    While
      (post-- n)
      Null
    DoWhile
      Block
        ExprStmt
          (post++ n)
      (< n 3)
    Switch
      n
      Block
        Case 1
          ExprStmt
            (= n 2)
        Break
        Default
          Null
    Goto end
    Label end
      Return
"
    );
}

#[test]
fn typedef_names_and_scopes() {
    // T is a type at file scope, shadowed by a variable inside f.
    let d = ok("typedef int T; void f(void) { T x; { int T; T = 1; } T y; }");
    assert!(d.contains("Decl [typedef:T]\n      x"), "{d}");
    assert!(d.contains("ExprStmt\n        (= T 1)"), "{d}");
    assert!(d.contains("Decl [typedef:T]\n      y"), "{d}");
    // `a * b` is a declaration only when `a` is a type.
    let d = ok("typedef int a; void f(void) { a * b; }");
    assert!(d.contains("Decl [typedef:a]\n      b *"), "{d}");
    let d = ok("void f(int a, int b) { a * b; }");
    assert!(d.contains("(* a b)"), "{d}");
    // A builtin type name shadowed by a local variable.
    let d = ok("void f(void) { int uint = 2; uint = 3; }");
    assert!(d.contains("(= uint 3)"), "{d}");
}

#[test]
fn opencl_types_and_qualifiers() {
    let d = ok(
        "kernel void k(read_only image2d_t img, sampler_t s, __global atomic_int *a, pipe int p, write_only pipe float4 q) { event_t e; half h; size_t n = get_global_id(0); }",
    );
    assert!(d.contains("[read_only builtin:image2d_t] img"), "{d}");
    assert!(d.contains("[pipe int] p"), "{d}");
    assert!(d.contains("[write_only pipe builtin:float4] q"), "{d}");
    assert!(d.contains("Decl [half]"), "{d}");
    let d = ok("generic int *g; __generic int *h; static __private int x; constant float c = 1;");
    assert!(d.contains("AS:generic(kw generic)"), "{d}");
    assert!(d.contains("AS:generic(kw __generic)"), "{d}");
}

#[test]
fn generic_and_pipe_by_language_mode() {
    let p = parse_in("generic int *g;", ClStd::Cl12);
    assert_eq!(
        p.diags,
        vec!["1:1: error: OpenCL C version 1.2 does not support the 'generic' type qualifier"]
    );
    // After a `*`, clang-19 takes `generic` in every mode (sema then judges it).
    let p = parse_in("void f(int * __generic p);", ClStd::Cl12);
    assert!(p.diags.is_empty(), "{:?}", p.diags);
    // In CL1.2 `pipe` is an ordinary identifier.
    let p = parse_in("int pipe = 1;", ClStd::Cl12);
    assert!(p.diags.is_empty(), "{:?}", p.diags);
    let mut lang = LangOptions::new(ClStd::Cl30);
    assert!(lang.apply_cl_ext("-all").is_ok());
    let src = "void f(pipe int p); generic int *g;";
    let mut sm = SourceMap::new();
    let f = sm.add_text("t.cl", src.to_string());
    let mut d = Diagnostics::default();
    parse_tokens(&lex(src, f), &[], &sm, &lang, &mut d);
    assert_eq!(
        render(&sm, &d),
        vec![
            "1:8: error: OpenCL C version 3.0 does not support the 'pipe' type qualifier",
            "1:21: error: OpenCL C version 3.0 does not support the 'generic' type qualifier",
        ]
    );
    let p = parse_in("void f(void) { auto int a; register int b; }", ClStd::Cl12);
    assert_eq!(
        p.diags,
        vec![
            "1:16: error: OpenCL C version 1.2 does not support the 'auto' storage class specifier",
            "1:28: error: OpenCL C version 1.2 does not support the 'register' storage class specifier",
        ]
    );
    let p = parse_in("static int x;", ClStd::Cl11);
    assert_eq!(
        p.diags,
        vec![
            "1:1: error: OpenCL C version 1.1 does not support the 'static' storage class specifier"
        ]
    );
}

#[test]
fn static_assert_and_pragmas() {
    let d =
        ok("_Static_assert(sizeof(int) == 4, \"int\"); void f(void) { _Static_assert(1, \"x\"); }");
    assert!(
        d.starts_with("StaticAssert\n  (== (sizeof [int]) 4)\n  \"int\"\n"),
        "{d}"
    );
    let src = "int a; void f(void) { int b; }";
    let mut sm = SourceMap::new();
    let file = sm.add_text("t.cl", src.to_string());
    let toks = lex(src, file);
    let pragma = |before_token: usize, name: &str| TokPragma {
        before_token,
        item: PragmaItem {
            span: Span::new(file, 0, 0),
            kind: PragmaKind::OpenclExtension {
                name: name.into(),
                enable: true,
                name_span: Span::new(file, 0, 0),
            },
        },
    };
    // Before `int a`, and before `int b` (token 8).
    let pragmas = vec![pragma(0, "cl_khr_fp64"), pragma(8, "cl_khr_fp16")];
    let mut d = Diagnostics::default();
    let tu = parse_tokens(&toks, &pragmas, &sm, &LangOptions::default(), &mut d);
    assert!(d.list.is_empty());
    assert_eq!(
        dump(&tu),
        "Pragma OPENCL EXTENSION cl_khr_fp64 : enable\nDecl [int]\n  a\nFunctionDef [void] f fn([void])\n  Block\n    Pragma OPENCL EXTENSION cl_khr_fp16 : enable\n    Decl [int]\n      b\n"
    );
}

#[test]
fn ids_are_unique_and_dense() {
    let p = parse("int g = 1 + 2; void f(int a) { int b = a * g; b++; }");
    assert!(p.diags.is_empty());
    // Expressions: 1, 2, +; a, g, *; b, ++.
    assert_eq!(p.tu.num_exprs, 8);
    fn walk(e: &Expr, ids: &mut Vec<u32>) {
        ids.push(e.id.0);
        match &e.kind {
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Assign { lhs, rhs, .. } => {
                walk(lhs, ids);
                walk(rhs, ids);
            }
            ExprKind::Unary { expr, .. } => walk(expr, ids),
            _ => {}
        }
    }
    let mut ids = Vec::new();
    for item in &p.tu.items {
        match item {
            ExternalDecl::Decl(d) => {
                for id in &d.declarators {
                    if let Some(Initializer::Expr(e)) = &id.init {
                        walk(e, &mut ids);
                    }
                }
            }
            ExternalDecl::FunctionDef(f) => {
                for s in &f.body.stmts {
                    match &s.kind {
                        StmtKind::Decl(d) => {
                            if let Some(Initializer::Expr(e)) = &d.declarators[0].init {
                                walk(e, &mut ids);
                            }
                        }
                        StmtKind::Expr(e) => walk(e, &mut ids),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    ids.sort_unstable();
    assert_eq!(ids, (0..8).collect::<Vec<_>>());
}

#[test]
fn spans_cover_nodes() {
    let src = "void f(void) { x = foo(1, 2); }";
    let p = parse(src);
    let StmtKind::Expr(e) = &body_stmts(&p)[0].kind else {
        panic!()
    };
    assert_eq!(
        &src[e.span.lo as usize..e.span.hi as usize],
        "x = foo(1, 2)"
    );
    let ExprKind::Assign { rhs, op_span, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(
        &src[rhs.span.lo as usize..rhs.span.hi as usize],
        "foo(1, 2)"
    );
    assert_eq!(&src[op_span.lo as usize..op_span.hi as usize], "=");
    let s = &body_stmts(&p)[0];
    assert_eq!(
        &src[s.span.lo as usize..s.span.hi as usize],
        "x = foo(1, 2);"
    );
}

// -- errors -----------------------------------------------------------------------------------

#[test]
fn missing_semicolons() {
    assert_eq!(
        errs("void f(int x) { x = 1 y = 2; }"),
        vec!["1:22: error: expected ';' after expression"]
    );
    assert_eq!(
        errs("int x int y;"),
        vec!["1:6: error: expected ';' after top level declarator"]
    );
    assert_eq!(
        errs("void f(void) { int x int y; }"),
        vec!["1:21: error: expected ';' at end of declaration"]
    );
    assert_eq!(
        errs("void f(void) { return 1 }"),
        vec!["1:24: error: expected ';' after return statement"]
    );
    assert_eq!(
        errs("void f(void) { for (;;) break }"),
        vec!["1:30: error: expected ';' after break statement"]
    );
    assert_eq!(
        errs("void f(void) { do {} while (1) }"),
        vec!["1:31: error: expected ';' after do/while statement"]
    );
    assert_eq!(
        errs("struct S { int a; } int x;"),
        vec!["1:20: error: expected ';' after struct"]
    );
    assert_eq!(
        errs("struct S { int a }; "),
        vec!["1:17: warning: expected ';' at end of declaration list"]
    );
    // A ':' typed for ';' is replaced.
    assert_eq!(
        errs("void f(void) { return 1: }"),
        vec!["1:24: error: expected ';' after return statement"]
    );
}

#[test]
fn missing_parens_and_braces() {
    // (With `g` declared: for a name declared nowhere sema decides, as clang skips the
    // arguments of an undeclared callee silently.)
    assert_eq!(
        errs("void g(int, int); void f(void) { g(1, 2; }"),
        vec![
            "1:40: error: expected ')'",
            "  1:35: note: to match this '('"
        ]
    );
    assert_eq!(errs("void f(void) { g(1, 2; }"), Vec::<String>::new());
    assert_eq!(
        errs("void f(void) { int x = ; }"),
        vec!["1:24: error: expected expression"]
    );
    assert_eq!(
        errs("void f(int x) { if (x) { x = 1; }"),
        vec![
            "1:34: error: expected '}'",
            "  1:15: note: to match this '{'"
        ]
    );
    assert_eq!(
        errs("void f(int x) { if x) x; }"),
        vec!["1:20: error: expected '(' after 'if'"]
    );
    assert_eq!(
        errs("void f(int x) { if (x)) x; }"),
        vec!["1:23: error: extraneous ')' after condition, expected a statement"]
    );
    assert_eq!(
        errs("}"),
        vec!["1:1: error: extraneous closing brace ('}')"]
    );
}

#[test]
fn declaration_errors() {
    assert_eq!(
        errs("int 5;"),
        vec!["1:5: error: expected identifier or '('"]
    );
    assert_eq!(
        errs("void f(void) int x;"),
        vec!["1:13: error: expected ';' after top level declarator"]
    );
    assert_eq!(
        errs("void f(void) x"),
        vec!["1:14: error: expected function body after function declarator"]
    );
    assert_eq!(errs("foo x;"), vec!["1:1: error: unknown type name 'foo'"]);
    assert_eq!(
        errs("void f(void) { fooo x; uint32_t y = 0; }"),
        Vec::<String>::new(),
        "in a statement an undeclared name is an expression; sema reports it"
    );
    assert_eq!(
        errs("void f(foo x);"),
        vec!["1:8: error: unknown type name 'foo'"]
    );
    assert_eq!(
        errs("x = 5;"),
        vec![
            "1:1: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int"
        ]
    );
    assert_eq!(
        errs("static y;"),
        vec![
            "1:8: error: type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int"
        ]
    );
    assert_eq!(
        errs("struct S { int 5; };"),
        vec![
            "1:16: error: expected member name or ';' after declaration specifiers",
            "1:15: error: expected ';' at end of declaration list"
        ]
    );
    assert_eq!(
        errs("struct { int a; } s; struct;"),
        vec!["1:22: error: declaration of anonymous struct must be a definition"]
    );
    assert_eq!(
        errs("enum E { A B };"),
        vec!["1:11: error: missing ',' between enumerators"]
    );
    assert_eq!(errs("enum E { };"), vec!["1:10: error: use of empty enum"]);
    assert_eq!(
        errs("typedef void f(void) {}"),
        vec!["1:22: error: function definition declared 'typedef'"]
    );
    assert_eq!(
        errs("void f(void) { void g(void) {} }"),
        vec!["1:29: error: function definition is not allowed here"]
    );
    assert_eq!(
        errs("void f(int, );"),
        vec!["1:13: error: expected parameter declarator"]
    );
    assert_eq!(
        errs("int x == 1;"),
        vec!["1:7: error: invalid '==' at end of declaration; did you mean '='?"]
    );
}

#[test]
fn statement_errors() {
    assert_eq!(
        errs("void f(int x) { case 1 x; }"),
        vec!["1:23: error: expected ':' after 'case'"]
    );
    assert_eq!(
        errs("void f(void) { default; }"),
        vec![
            "1:23: error: expected ':' after 'default'",
            "1:25: warning: label at end of compound statement is a C23 extension"
        ]
    );
    assert_eq!(
        errs("void f(int x) { do x++; for(;;); }"),
        vec![
            "1:25: error: expected 'while' in do/while loop",
            "  1:17: note: to match this 'do'"
        ]
    );
    assert_eq!(
        errs("void f(void) { for (int i = 0 i < 3; i++); }"),
        vec!["1:31: error: expected ';' in 'for' statement specifier"]
    );
    assert_eq!(
        errs("void f(int i) { for (i = 0 i < 3; i++); }"),
        vec!["1:28: error: expected ';' in 'for' statement specifier"]
    );
    assert_eq!(
        errs("void f(void) { if (1) }"),
        vec!["1:23: error: expected statement"]
    );
    assert_eq!(
        errs("void f(void) { goto 1; }"),
        vec!["1:21: error: expected identifier"]
    );
    assert_eq!(
        errs("void f(int s) { s.+; }"),
        vec![
            "1:19: error: expected identifier",
            "1:20: error: expected expression"
        ]
    );
    assert_eq!(
        errs("void f(int a) { a = a ? a ; }"),
        vec![
            "1:27: error: expected ':'",
            "  1:23: note: to match this '?'",
            "1:27: error: expected expression"
        ]
    );
    assert_eq!(
        errs("void f(void) { l: }"),
        vec!["1:19: warning: label at end of compound statement is a C23 extension"]
    );
}

#[test]
fn undeclared_names_and_typo_correction_like_clang() {
    // clang's delayed typo correction keeps expressions with undeclared names valid while
    // parsing, so a missing `;` is still reported (sema reports the names).
    assert_eq!(
        errs("void f(int x) { x = undeclared y; }"),
        vec!["1:31: error: expected ';' after expression"]
    );
    assert_eq!(
        errs("int a = zork b, c;"),
        vec!["1:13: error: expected ';' after top level declarator"]
    );
    // A statement's undeclared first name is typo-corrected to a type or keyword, and
    // parsing goes on with the correction (all checked against clang-19).
    assert_eq!(
        errs("typedef int myint;\nvoid f(void) { myintt q; flot x; foo bar; }"),
        vec![
            "2:16: error: unknown type name 'myintt'; did you mean 'myint'?",
            "  1:13: note: 'myint' declared here",
            "2:26: error: use of undeclared identifier 'flot'; did you mean 'float'?",
            "2:34: error: use of undeclared identifier 'foo'; did you mean 'for'?",
            "2:38: error: expected '(' after 'for'",
        ]
    );
    // Unknown type names in declarations get clang's suggestions; ties get none.
    assert_eq!(
        errs("Float4 y;\nfloatt x;\nunsinged int u;\nboool b;\nflaot z;\n"),
        vec![
            "1:1: error: unknown type name 'Float4'; did you mean 'float4'?",
            "  : note: 'float4' declared here",
            "2:1: error: unknown type name 'floatt'",
            "3:1: error: unknown type name 'unsinged'; did you mean 'unsigned'?",
            "4:1: error: unknown type name 'boool'; did you mean 'bool'?",
            "5:1: error: unknown type name 'flaot'",
        ]
    );
    // A bad initializer skips to the next declarator.
    assert_eq!(
        errs("int a = ) b, c;"),
        vec!["1:9: error: expected expression"]
    );
}

#[test]
fn matches_clang_19_on_assorted_errors() {
    // Each expectation is clang-19's output (`-x cl -cl-std=CL2.0 -fsyntax-only`) minus sema.
    assert_eq!(
        errs("_Static_assert(1, \"x\")\nint a;\n_Static_assert 1;\n_Static_assert(1 \"x\");\n"),
        vec![
            "1:23: error: expected ';' after '_Static_assert'",
            "3:16: error: expected '('",
            "4:17: error: expected ','",
            "4:21: error: expected identifier or '('",
        ]
    );
    assert_eq!(
        errs("int a[3] = { 1, 2, 3 ;\nint b[2] = { [0] 1 };\nint c[2] = { .x };\n"),
        vec![
            "1:22: error: expected '}'",
            "  1:12: note: to match this '{'",
            "2:18: warning: use of GNU 'missing =' extension in designator",
            "3:17: error: expected '=' or another designator",
        ]
    );
    // `break` outside a loop is a sema error in clang, which then skips the missing `;`.
    assert!(errs("void f(void) {\n  break\n}\n").is_empty());
    assert_eq!(
        errs("void f(void) { while (1) { continue } }"),
        vec!["1:36: error: expected ';' after continue statement"]
    );
    assert_eq!(
        errs("void g(...);\nvoid h(int a ...);\n"),
        vec![
            "1:8: error: ISO C requires a named parameter before '...'",
            "2:14: error: C requires a comma prior to the ellipsis in a variadic function type",
        ]
    );
    assert_eq!(
        errs("typedef struct { int a; } T\nT t;\nstruct S { int a; }\nstatic int u;\n"),
        vec![
            "1:26: error: expected ';' after struct",
            "1:27: error: unknown type name 'T'",
            "2:2: error: expected ';' after top level declarator",
            "3:20: error: expected ';' after struct",
        ]
    );
}

#[test]
fn typo_correction_stops_after_clangs_spell_checking_limit() {
    // clang-19 with 60 such lines: 60 "unknown type name", 50 with a suggestion.
    let src: String = (0..60).map(|i| format!("Float4 x{i};\n")).collect();
    let d = errs(&src);
    assert_eq!(
        d.iter().filter(|m| m.contains("unknown type name")).count(),
        60
    );
    assert_eq!(d.iter().filter(|m| m.contains("did you mean")).count(), 50);
}

#[test]
fn pedantic_extensions_carry_their_groups() {
    let src = "int a;; ;\nvoid f(void) {};\nstruct E {};\nstruct S { int a;; };\nint x[2] = {};\n_Static_assert(1);\n";
    let mut sm = SourceMap::new();
    let f = sm.add_text("t.cl", src.to_string());
    let mut d = Diagnostics::default();
    parse_tokens(&lex(src, f), &[], &sm, &LangOptions::default(), &mut d);
    let got: Vec<(String, Option<&str>)> = render(&sm, &d)
        .into_iter()
        .zip(d.list.iter().map(|x| x.group))
        .collect();
    let want = [
        (
            "1:7: warning: extra ';' outside of a function",
            "extra-semi",
        ),
        (
            "2:16: warning: extra ';' outside of a function",
            "extra-semi",
        ),
        (
            "3:11: warning: empty struct is a GNU extension",
            "gnu-empty-struct",
        ),
        ("4:18: warning: extra ';' inside a struct", "extra-semi"),
        (
            "5:12: warning: use of an empty initializer is a C23 extension",
            "c23-extensions",
        ),
        (
            "6:1: warning: '_Static_assert' with no message is a C23 extension",
            "c23-extensions",
        ),
    ];
    let want: Vec<(String, Option<&str>)> = want
        .iter()
        .map(|(m, g)| (m.to_string(), Some(*g)))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        errs(""),
        vec!["1:1: warning: ISO C requires a translation unit to contain at least one declaration"]
    );
}

#[test]
fn recovery_reports_each_error_once() {
    let src = "void f(void) {\n  int a = ;\n  b = 1 +;\n  c = (;\n  int d = 4;\n}\nint g(void) { return 1 }\nint ok;\n";
    assert_eq!(
        errs(src),
        vec![
            "2:11: error: expected expression",
            "3:10: error: expected expression",
            "4:8: error: expected expression",
            "7:23: error: expected ';' after return statement",
        ]
    );
    let p = parse(src);
    assert!(matches!(p.tu.items.last(), Some(ExternalDecl::Decl(_))));
}

#[test]
fn bad_call_argument_skips_like_clang() {
    // clang's ParseExpressionList skips to `,`/`)` past `;`, then the call skips to `)`,
    // consuming the `}` it starts at: the function's brace is unmatched at the end.
    assert_eq!(
        errs("void f(void) {\n  c(;\n  int d = 4;\n}\nint ok;\n"),
        vec![
            "2:5: error: expected expression",
            "6:1: error: expected '}'",
            "  1:14: note: to match this '{'"
        ]
    );
    assert_eq!(
        errs("void f(void) { g(1, , 3); h(); }"),
        vec!["1:21: error: expected expression"]
    );
}

#[test]
fn bracket_depth_limit() {
    let mut src = String::from("void f(void) { x = ");
    for _ in 0..100_000 {
        src.push('(');
    }
    src.push_str("1;}");
    let p = parse(&src);
    assert_eq!(
        p.diags,
        vec![
            "1:275: fatal error: bracket nesting level exceeded maximum of 256",
            "  1:275: note: use -fbracket-depth=N to increase maximum nesting level",
        ]
    );
    // Exactly 256 levels (the function body's brace is one) is accepted.
    let mut src = String::from("void f(void) { x = ");
    src.push_str(&"(".repeat(255));
    src.push('1');
    src.push_str(&")".repeat(255));
    src.push_str(";}");
    assert!(parse(&src).diags.is_empty());
}

#[test]
fn other_nesting_limits() {
    let src = format!("void f(void) {{ x = {}1; }}", "-".repeat(100_000));
    let p = parse(&src);
    assert_eq!(p.diags.len(), 1, "{:?}", p.diags);
    assert!(p.diags[0].contains("fatal error: nesting level exceeded maximum of 4096"));
    let src = format!("void f(void) {{ {} x; }}", "if (1) ".repeat(50_000));
    let p = parse(&src);
    assert_eq!(p.diags.len(), 1, "{:?}", p.diags);
    // A flat chain is not nesting (clang accepts any length): parsed, and freed, in loops.
    let src = format!("void f(void) {{ x = 1{}; }}", " + 1".repeat(100_000));
    let p = parse(&src);
    assert_eq!(p.diags.len(), 0, "{:?}", p.diags);
    let src = format!(
        "void f(int a) {{ if (a) ; {} else ; }}",
        "else if (a) ; ".repeat(100_000)
    );
    let p = parse(&src);
    assert_eq!(p.diags.len(), 0, "{:?}", p.diags);
    let src = format!("void f(void) {{ x = {}1; }}", "(int)".repeat(100_000));
    let p = parse(&src);
    assert_eq!(p.diags.len(), 1, "{:?}", p.diags);
}

#[test]
fn garbage_and_truncated_inputs_do_not_panic() {
    let inputs = [
        "",
        "@#$%^",
        "int",
        "int x =",
        "void f(",
        "void f(int",
        "void f(void) {",
        "void f(void) { if (",
        "struct S {",
        "enum {",
        "__attribute__((",
        "[[",
        "typedef",
        "int a[",
        "x = (float4)(",
        "))))]]]]}}}}",
        "{{{{((((",
        "void f(void) { (int) }",
        "void f(void) { sizeof( }",
        "kernel kernel kernel",
        "int (*(*(*x)))",
        "\"unterminated",
        "'",
        "1.2.3.4e+++",
    ];
    for src in inputs {
        let _ = parse(src);
        let _ = parse_in(src, ClStd::Cl12);
    }
    // Every truncation of a real kernel.
    let src = "__kernel void k(__global float4 *out, __local int *l, int n) { for (int i = 0; i < n; i++) { out[i] = (float4)(i, 1.0f, 2, 3).wzyx; l[i] = sizeof(float4) + vec_step(out[0]); } barrier(CLK_LOCAL_MEM_FENCE); }";
    for cut in 0..src.len() {
        let _ = parse(&src[..cut]);
    }
}

#[test]
fn fatal_error_stops_all_later_diagnostics() {
    let src = format!("void f(void) {{ x = {}1; }} int 5;", "(".repeat(300));
    let p = parse(&src);
    assert_eq!(
        p.diags.iter().filter(|d| !d.starts_with("  ")).count(),
        1,
        "{:?}",
        p.diags
    );
    assert!(p.diags[0].contains("fatal error"));
    assert!(p.diags.iter().all(|d| !d.contains("expected")));
    let _ = Level::Fatal;
}
