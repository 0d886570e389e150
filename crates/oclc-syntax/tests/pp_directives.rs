//! `#include`, `#line`, `#error`, `#warning`, `#pragma`, the null directive, invalid
//! directives and `-D`/`-U`.

use std::path::{Path, PathBuf};

use oclc_syntax::pp::{MacroArg, PpOptions, PpOutput, PragmaKind, preprocess};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, Level, SourceMap, Token};

struct Run {
    text: String,
    diags: Diagnostics,
    out: PpOutput,
    sm: SourceMap,
}

fn run_with(name: &str, src: &str, opts: &PpOptions) -> Run {
    let mut sm = SourceMap::new();
    let id = sm.add_text(name, src.to_string());
    let mut diags = Diagnostics::default();
    let out = preprocess(&mut sm, id, opts, &mut diags);
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

fn opts() -> PpOptions {
    PpOptions {
        lang: LangOptions::new(ClStd::Cl12),
        ..Default::default()
    }
}

fn run(src: &str) -> Run {
    run_with("t.cl", src, &opts())
}

fn diags(r: &Run) -> Vec<String> {
    r.diags
        .list
        .iter()
        .map(|d| {
            let (f, l, c) = r.sm.location(d.span).unwrap_or(("?", 0, 0));
            let f = Path::new(f)
                .file_name()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            format!("{f}:{l}:{c}: {}: {}", d.level.as_str(), d.message)
        })
        .collect()
}

/// A fresh directory under the system temp dir with the given files.
fn temp_tree(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oclc-pp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    dir
}

#[test]
fn include_quoted_angled_and_search_order() {
    let dir = temp_tree(
        "inc",
        &[
            ("main.cl", ""),
            ("local.h", "int local_h;\n#include \"sub/inner.h\"\n"),
            ("sub/inner.h", "int inner_h;\n#include \"sibling.h\"\n"),
            ("sub/sibling.h", "int sibling_h;\n"),
            ("sys/sys.h", "int sys_h = __INCLUDE_LEVEL__;\n"),
            ("sys/local.h", "int wrong;\n"),
        ],
    );
    let mut o = opts();
    o.include_dirs.push(dir.join("sys"));
    let main = dir.join("main.cl");
    let src = "#include \"local.h\"\n#include <sys.h>\n#define HDR <sys.h>\n#include HDR\n#define Q \"local.h\"\n#include Q\nend\n";
    let r = run_with(&main.to_string_lossy(), src, &o);
    assert!(r.diags.list.is_empty(), "{:?}", diags(&r));
    assert_eq!(
        r.text,
        "int local_h ; int inner_h ; int sibling_h ; int sys_h = 1 ; int sys_h = 1 ; \
         int local_h ; int inner_h ; int sibling_h ; end"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn include_errors() {
    let r = run("#include \"no/such/file.h\"\nnot reached\n");
    assert_eq!(
        diags(&r),
        ["t.cl:1:10: fatal error: 'no/such/file.h' file not found"]
    );
    assert_eq!(r.diags.list[0].level, Level::Fatal);
    assert_eq!(r.text, "");
    let r = run("#include\n#include 3\n#include \"\"\n");
    assert_eq!(
        diags(&r),
        [
            "t.cl:1:9: error: expected \"FILENAME\" or <FILENAME>",
            "t.cl:2:10: error: expected \"FILENAME\" or <FILENAME>",
            "t.cl:3:10: error: empty filename",
        ]
    );
}

#[test]
fn include_cycle_hits_depth_limit() {
    let dir = temp_tree("cycle", &[("a.h", "#include \"a.h\"\nx\n")]);
    let main = dir.join("main.cl");
    let r = run_with(&main.to_string_lossy(), "#include \"a.h\"\n", &opts());
    let errs: Vec<String> = diags(&r);
    assert_eq!(errs, ["a.h:1:10: error: #include nested too deeply"]);
    // Every level still contributes its `x` after the failed include.
    assert_eq!(r.text.split(' ').count(), 199);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pragma_once_and_include_guards() {
    let dir = temp_tree(
        "once",
        &[
            ("o.h", "#pragma once\nint o;\n"),
            ("g.h", "#ifndef G\n#define G\nint g;\n#endif\n"),
        ],
    );
    let main = dir.join("main.cl");
    let src =
        "#include \"o.h\"\n#include \"o.h\"\n#include \"g.h\"\n#include \"g.h\"\n#pragma once\n";
    let r = run_with(&main.to_string_lossy(), src, &opts());
    assert_eq!(r.text, "int o ; int g ;");
    assert_eq!(
        diags(&r),
        ["main.cl:5:9: warning: #pragma once in main file"]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn conditionals_do_not_cross_files() {
    let dir = temp_tree("cond", &[("open.h", "#if 1\nint h;\n")]);
    let main = dir.join("main.cl");
    let r = run_with(
        &main.to_string_lossy(),
        "#include \"open.h\"\n#endif\n",
        &opts(),
    );
    assert_eq!(
        diags(&r),
        [
            "open.h:1:2: error: unterminated conditional directive",
            "main.cl:2:2: error: #endif without #if"
        ]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn line_directive() {
    let r =
        run("#line 100\n__LINE__\n#line 7 \"other.cl\"\n__LINE__ __FILE__\n#line x\n#line 5 y\n");
    assert_eq!(r.text, "100 7 \"other.cl\"");
    assert_eq!(
        diags(&r),
        [
            // As clang: after `#line 7 "other.cl"` locations are reported in its terms.
            "other.cl:8:7: error: #line directive requires a positive integer argument",
            "other.cl:9:9: error: invalid filename for #line directive",
        ]
    );
}

#[test]
fn error_and_warning_directives() {
    let r = run("#error  this is   \"bad\" // text\n#warning careful\n  #  error\n");
    assert_eq!(
        diags(&r),
        [
            "t.cl:1:2: error: this is   \"bad\" // text",
            "t.cl:2:2: warning: careful",
            "t.cl:3:6: error: ",
        ]
    );
    assert_eq!(r.diags.list[1].group, Some("#warnings"));
}

#[test]
fn pragmas_are_recorded() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nint a;\n#pragma OPENCL EXTENSION all : disable\n\
               #pragma OPENCL FP_CONTRACT ON\n#pragma unroll 4\nint b;\n";
    let r = run(src);
    assert_eq!(r.text, "int a ; int b ;");
    let p = &r.out.pragmas;
    assert_eq!(p.len(), 4);
    assert!(matches!(
        &p[0].kind,
        PragmaKind::OpenclExtension { name, enable: true, name_span }
            if name == "cl_khr_fp64" && &src[name_span.lo as usize..name_span.hi as usize] == "cl_khr_fp64"
    ));
    assert_eq!(p[0].before_token, 0);
    assert_eq!(
        &src[p[0].span.lo as usize..p[0].span.hi as usize],
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable"
    );
    assert!(matches!(
        &p[1].kind,
        PragmaKind::OpenclExtension { name, enable: false, .. } if name == "all"
    ));
    assert_eq!(p[1].before_token, 3);
    assert_eq!(p[2].kind, PragmaKind::Other("OPENCL FP_CONTRACT ON".into()));
    assert_eq!(p[3].kind, PragmaKind::Other("unroll 4".into()));
    assert!(r.diags.list.is_empty());
}

#[test]
fn null_and_invalid_directives() {
    let r = run("#\n# /* c */\n#foo bar\n#3x\nok\n# define X 1\nX\n%:define Y 2\nY\n");
    assert_eq!(r.text, "ok 1 2");
    assert_eq!(
        diags(&r),
        [
            "t.cl:3:2: error: invalid preprocessing directive",
            "t.cl:4:3: error: GNU line marker directive requires a simple digit sequence"
        ]
    );
}

#[test]
fn hash_not_at_line_start_is_a_token() {
    let r = run("a # define\n/* x */ #define Z 1\nZ\n");
    assert_eq!(r.text, "a # define 1");
}

#[test]
fn command_line_macros_in_order() {
    let mut o = opts();
    o.macros = vec![
        MacroArg::Define("A".into(), "1".into()),
        MacroArg::Define("B".into(), "A + 1".into()),
        MacroArg::Define("F(x)".into(), "x * 2".into()),
        MacroArg::Undef("A".into()),
        MacroArg::Define("cl_khr_fp64".into(), "7".into()),
        MacroArg::Undef("__OPENCL_C_VERSION__".into()),
    ];
    let r = run_with("t.cl", "A B F(3) cl_khr_fp64 __OPENCL_C_VERSION__\n", &o);
    assert_eq!(r.text, "A A + 1 3 * 2 7 __OPENCL_C_VERSION__");
    assert_eq!(
        diags(&r),
        ["<command line>:5:9: warning: 'cl_khr_fp64' macro redefined"]
    );
}

#[test]
fn missing_newline_at_end_of_file() {
    let r = run("int x;");
    assert_eq!(diags(&r), ["t.cl:1:7: warning: no newline at end of file"]);
    assert_eq!(r.diags.list[0].group, Some("newline-eof"));
    assert_eq!(r.diags.list[0].fixits[0].text, "\n");
    assert!(run("").diags.list.is_empty());
    assert!(run("int x;\n").diags.list.is_empty());
}

#[test]
fn macro_invocation_does_not_cross_the_end_of_an_include() {
    let dir = temp_tree("unterm", &[("f.h", "#define F(a, b) a + b\nF(1,\n")]);
    let main = dir.join("main.cl");
    let r = run_with(
        &main.to_string_lossy(),
        "#include \"f.h\"\n2) F\n(3, 4)\n",
        &opts(),
    );
    assert_eq!(
        diags(&r),
        ["f.h:2:1: error: unterminated function-like macro invocation"]
    );
    assert_eq!(r.text, "2 ) 3 + 4");
    let _ = std::fs::remove_dir_all(dir);
}
