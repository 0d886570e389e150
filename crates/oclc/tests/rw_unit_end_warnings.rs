//! Warnings clang gives at the end of a file or of the unit, found on real code (Parboil's lbm
//! headers, hashcat's kernels): a misspelled include guard [-Wheader-guard] and functions used
//! but never defined [-Wundefined-internal], [-Wundefined-inline]. Expected output is clang-19's
//! (`clang-19 -cc1 -triple spir64-unknown-unknown -finclude-default-header -fsyntax-only`),
//! whole, source excerpts included, the files' directory taken out of the paths.

use std::path::{Path, PathBuf};

use oclc::cli::check_command;

/// A fresh directory under the system's temporary one holding `files`.
fn dir_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oclc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    for (n, text) in files {
        std::fs::write(dir.join(n), text).expect("test file");
    }
    dir
}

/// `oclc check -triple spir64-unknown-unknown DIR/FILE`, with `DIR/` taken out of the paths
/// it prints.
fn check_in(dir: &Path, file: &str) -> String {
    let path = dir.join(file).display().to_string();
    let args = ["-triple", "spir64-unknown-unknown", &path]
        .map(String::from)
        .to_vec();
    let out = check_command(args, &mut std::io::empty());
    out.stderr.replace(&format!("{}/", dir.display()), "")
}

/// clang's include-guard check: only the first directive's `#ifndef` (or `#if !defined`) of a
/// wholly guarded file, followed at once by an empty `#define` of a similar name, warns, once
/// per file however often it is included, ordered at the file's end.
#[test]
fn misspelled_include_guard() {
    let dir = dir_with(
        "header-guard",
        &[
            (
                "h1.h",
                "#ifndef _LBM_MARCOS_H\n#define _LBM_MACROS_H\nint a;\n#endif\n",
            ),
            (
                "h2.h",
                "#if !defined(FOO_H)\n#define FOO_HH\nint b;\n#endif\n",
            ),
            ("h3.h", "#ifndef ZED_H\n#define ZED_H\n#endif\n"),
            ("h4.h", "int x;\n#ifndef QUX_H\n#define QUX_HX\n#endif\n"),
            ("h5.h", "#ifndef ABCD_H\n#define ABCD_HH\n#else\n#endif\n"),
            (
                "h6.h",
                "#ifndef LONGNAME_H\n#define COMPLETELY_DIFFERENT\n#endif\n",
            ),
            ("h7.h", "#ifndef G7_H\n#define G7X_H 1\n#endif\n"),
            (
                "m.cl",
                "#include \"h1.h\"\n#include \"h2.h\"\n#include \"h3.h\"\n#include \"h4.h\"\n\
                 #include \"h5.h\"\n#include \"h6.h\"\n#include \"h7.h\"\n#include \"h1.h\"\n\
                 kernel void k(global int *o) { o[0] = 1; }\n",
            ),
        ],
    );
    let got = check_in(&dir, "m.cl");
    let _ = std::fs::remove_dir_all(&dir);
    let want = r#"In file included from m.cl:1:
h1.h:3:5: error: program scope variable must reside in constant address space
    3 | int a;
      |     ^
h1.h:1:9: warning: '_LBM_MARCOS_H' is used as a header guard here, followed by #define of a different macro [-Wheader-guard]
    1 | #ifndef _LBM_MARCOS_H
      |         ^~~~~~~~~~~~~
h1.h:2:9: note: '_LBM_MACROS_H' is defined here; did you mean '_LBM_MARCOS_H'?
    2 | #define _LBM_MACROS_H
      |         ^~~~~~~~~~~~~
      |         _LBM_MARCOS_H
In file included from m.cl:2:
h2.h:3:5: error: program scope variable must reside in constant address space
    3 | int b;
      |     ^
h2.h:1:2: warning: 'FOO_H' is used as a header guard here, followed by #define of a different macro [-Wheader-guard]
    1 | #if !defined(FOO_H)
      |  ^~
h2.h:2:9: note: 'FOO_HH' is defined here; did you mean 'FOO_H'?
    2 | #define FOO_HH
      |         ^~~~~~
      |         FOO_H
In file included from m.cl:4:
h4.h:1:5: error: program scope variable must reside in constant address space
    1 | int x;
      |     ^
In file included from m.cl:8:
h1.h:3:5: error: program scope variable must reside in constant address space
    3 | int a;
      |     ^
2 warnings and 4 errors generated.
"#;
    assert_eq!(got, want);
}

/// clang's `checkUndefinedButUsed`: at the unit's end, in order of first use, each `static`
/// or `inline` function used outside `sizeof` and never defined, with its first use.
#[test]
fn functions_used_but_not_defined() {
    let dir = dir_with(
        "undefined-internal",
        &[(
            "u.cl",
            "static void f(int x);\ninline int g(int);\nstatic int h(void);\nstatic int h2(void);\n\
             static int d(void);\n\
             void user(global int *o) { f(1); o[0] = g(2); o[1] = sizeof(h()); o[2] = d(); }\n\
             kernel void k(global int *o) { o[0] = h2(); f(3); }\n\
             static void f(int y);\nstatic int d(void) { return 1; }\n",
        )],
    );
    let got = check_in(&dir, "u.cl");
    let _ = std::fs::remove_dir_all(&dir);
    let want = r#"u.cl:1:13: warning: function 'f' has internal linkage but is not defined [-Wundefined-internal]
    1 | static void f(int x);
      |             ^
u.cl:6:28: note: used here
    6 | void user(global int *o) { f(1); o[0] = g(2); o[1] = sizeof(h()); o[2] = d(); }
      |                            ^
u.cl:2:12: warning: inline function 'g' is not defined [-Wundefined-inline]
    2 | inline int g(int);
      |            ^
u.cl:6:41: note: used here
    6 | void user(global int *o) { f(1); o[0] = g(2); o[1] = sizeof(h()); o[2] = d(); }
      |                                         ^
u.cl:4:12: warning: function 'h2' has internal linkage but is not defined [-Wundefined-internal]
    4 | static int h2(void);
      |            ^
u.cl:7:39: note: used here
    7 | kernel void k(global int *o) { o[0] = h2(); f(3); }
      |                                       ^
3 warnings generated.
"#;
    assert_eq!(got, want);
}
