//! `oclc check` on a source given as `<stdin>`, reduced to its diagnostic lines, for the tests
//! that compare them with clang-19's recorded output. Included by path from test crates.

#![allow(dead_code)]

use oclc::cli::check_command;

/// `oclc check FLAGS -` on `src`: its diagnostic lines (`<stdin>:L:C: level: text`), without
/// source excerpts, without notes located in clang's headers (oclc prints those unlocated) and
/// without oclc's own notes beyond clang ("implicit address space: ...").
pub fn diagnostics_with(flags: &[&str], src: &[u8]) -> Vec<String> {
    let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    args.push("-".to_string());
    let out = check_command(args, &mut &src[..]);
    out.stderr
        .lines()
        .filter(|l| {
            l.starts_with("<stdin>:")
                && !l.contains(": note: implicit address space: ")
                && [": error: ", ": warning: ", ": note: "]
                    .iter()
                    .any(|k| l.contains(k))
        })
        .map(str::to_string)
        .collect()
}

/// Asserts `oclc check FLAGS -` on `src` gives clang's diagnostic lines `want`.
pub fn assert_clang_with(name: &str, flags: &[&str], src: &[u8], want: &[&str]) {
    assert_eq!(
        diagnostics_with(flags, src),
        want,
        "{name}: oclc's diagnostics differ from clang-19's"
    );
}
