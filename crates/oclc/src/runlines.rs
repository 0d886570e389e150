//! The `// RUN:` lines of clang's lit tests: which are OpenCL C `-verify` compilations oclc can
//! run (the selection `shared/tools/clang-parity` makes), and their arguments.

/// One selected RUN line: its text and its arguments (without `%clang_cc1` and `%s`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub line: String,
    pub args: Vec<String>,
}

/// The RUN commands of a test file, with `\` continuations joined.
pub fn run_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for raw in text.lines() {
        let Some(idx) = raw.find("RUN:") else {
            if !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            continue;
        };
        let part = raw[idx + 4..].trim_end();
        if let Some(p) = part.strip_suffix('\\') {
            cur.push_str(p);
            cur.push(' ');
        } else {
            cur.push_str(part);
            lines.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines.into_iter().map(|l| l.trim().to_string()).collect()
}

/// The RUN lines that are `%clang_cc1 ... -verify` compilations of OpenCL C for a spir (or
/// default) target: not C++ for OpenCL, not `-E`, not piped.
pub fn verify_configs(text: &str) -> Vec<RunConfig> {
    let mut out = Vec::new();
    for r in run_lines(text) {
        if !r.contains("%clang_cc1") || !r.contains("-verify") || r.contains('|') {
            continue;
        }
        let args = shell_split(&r.replace("%clang_cc1", "").replace("%s", ""));
        if args
            .iter()
            .any(|a| a.starts_with("-cl-std=clc++") || a.starts_with("-cl-std=CLC++"))
        {
            continue;
        }
        if format!(" {r}").contains(" -E") {
            continue;
        }
        if let Some(i) = args.iter().position(|a| a == "-triple")
            && !args.get(i + 1).is_some_and(|t| t.starts_with("spir"))
        {
            continue;
        }
        out.push(RunConfig { line: r, args });
    }
    out
}

/// POSIX-shell-like word splitting: whitespace separates, quotes group, `\` escapes.
pub fn shell_split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        _ => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            _ => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection() {
        let text = "\
// RUN: %clang_cc1 %s -verify -pedantic -fsyntax-only
// RUN: %clang_cc1 %s -cl-std=clc++ -verify
// RUN: %clang_cc1 -triple amdgpu-- -verify %s
// RUN: %clang_cc1 -triple spir-unknown-unknown %s -E -dM -o - \\
// RUN:   | FileCheck %s
// RUN: %clang_cc1 -fsyntax-only -verify=expected,ocl12 %s -triple spir-unknown-unknown
// RUN: %clang_cc1 %s -verify -DX='a b'
int x;
";
        let c = verify_configs(text);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].args, vec!["-verify", "-pedantic", "-fsyntax-only"]);
        assert_eq!(
            c[1].args,
            vec![
                "-fsyntax-only",
                "-verify=expected,ocl12",
                "-triple",
                "spir-unknown-unknown"
            ]
        );
        assert_eq!(c[2].args, vec!["-verify", "-DX=a b"]);
    }

    #[test]
    fn continuation_lines_join() {
        let l = run_lines("// RUN: a \\\n// RUN:   b\nx\n// RUN: c\n");
        assert_eq!(l, vec!["a     b", "c"]);
    }
}
