//! `oclc check` flags, parsed by hand because clang's spellings (`-cl-std=CL2.0`, `-DX=1`,
//! `-Wno-x`, `-I dir`) do not fit a conventional argument parser.

use std::path::PathBuf;

use oclc_syntax::{ClStd, LangOptions};

use crate::check::{CheckOptions, MacroArg};
use crate::verify;

/// Output format of `oclc check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Parsed `oclc check` command line.
#[derive(Clone, Debug, Default)]
pub struct CheckArgs {
    pub options: CheckOptions,
    /// Input paths in order; `-` is standard input.
    pub files: Vec<String>,
    pub format: Format,
    /// `-cl-ext` names that were not recognised (clang ignores them; oclc warns).
    pub ignored_extensions: Vec<String>,
    /// `--help` was given.
    pub help: bool,
    /// A `-triple`/`-target` naming spir or spir64 was given (else each command picks its default).
    pub target_given: bool,
}

/// A command-line error, printed as `oclc: error: MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ArgError(pub String);

/// Flags accepted for clang compatibility that change nothing in oclc.
const IGNORED_FLAGS: &[&str] = &[
    "-fsyntax-only",
    "-ffake-address-space-map",
    "-fdeclare-opencl-builtins",
    "-fcolor-diagnostics",
    "-fno-color-diagnostics",
    "-cc1",
];

/// Parses the arguments after `oclc check`.
pub fn parse_check_args<I, S>(args: I) -> Result<CheckArgs, ArgError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let args: Vec<String> = args.into_iter().map(Into::into).collect();
    let mut out = CheckArgs::default();
    let mut std = ClStd::Cl12;
    let mut target = oclc_syntax::Target::default();
    let mut cl_ext: Vec<String> = Vec::new();
    let mut verify_arg: Option<Option<String>> = None;
    let mut bracket_depth: Option<u32> = None;
    let mut default_header = false;
    let mut i = 0;
    // The value of a flag given joined (`-Ifoo`) or as the next argument (`-I foo`).
    let take = |i: &mut usize, flag: &str, joined: &str| -> Result<String, ArgError> {
        if !joined.is_empty() {
            return Ok(joined.to_string());
        }
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| {
            ArgError(format!(
                "argument to '{flag}' is missing (expected 1 value)"
            ))
        })
    };
    let mut only_files = false;
    while i < args.len() {
        let a = args[i].as_str();
        if only_files || a == "-" || !a.starts_with('-') {
            out.files.push(a.to_string());
            i += 1;
            continue;
        }
        if a == "--" {
            only_files = true;
        } else if a == "-h" || a == "--help" || a == "-help" {
            out.help = true;
        } else if let Some(v) = a.strip_prefix("-cl-std=") {
            std = match ClStd::parse(v) {
                Some(s) => s,
                None if v.to_ascii_lowercase().starts_with("clc++") => {
                    return Err(ArgError(format!(
                        "invalid value '{v}' in '{a}' (C++ for OpenCL is not supported)"
                    )));
                }
                None => return Err(ArgError(format!("invalid value '{v}' in '{a}'"))),
            };
        } else if let Some(v) = a.strip_prefix("-cl-ext=") {
            cl_ext.push(v.to_string());
        } else if let Some(rest) = a.strip_prefix("-D") {
            let v = take(&mut i, "-D", rest)?;
            let (name, value) = match v.split_once('=') {
                Some((n, val)) => (n.to_string(), val.to_string()),
                None => (v.clone(), "1".to_string()),
            };
            if name.is_empty() {
                return Err(ArgError(format!("macro name missing in '-D{v}'")));
            }
            out.options.macros.push(MacroArg::Define(name, value));
        } else if let Some(rest) = a.strip_prefix("-U") {
            let v = take(&mut i, "-U", rest)?;
            out.options.macros.push(MacroArg::Undef(v));
        } else if let Some(rest) = a.strip_prefix("-I") {
            let v = take(&mut i, "-I", rest)?;
            out.options.include_dirs.push(PathBuf::from(v));
        } else if a == "-verify" {
            verify_arg = Some(None);
        } else if let Some(v) = a.strip_prefix("-verify=") {
            verify_arg = Some(Some(v.to_string()));
        } else if a == "--format" || a.starts_with("--format=") {
            let v = take(
                &mut i,
                "--format",
                a.strip_prefix("--format=").unwrap_or(""),
            )?;
            out.format = match v.as_str() {
                "text" => Format::Text,
                "json" => Format::Json,
                _ => return Err(ArgError(format!("invalid value '{v}' in '--format'"))),
            };
        } else if a == "-x" || (a.starts_with("-x") && a.len() > 2) {
            let v = take(&mut i, "-x", &a[2..])?;
            if v != "cl" {
                return Err(ArgError(format!(
                    "invalid value '{v}' in '-x' (only 'cl' is supported)"
                )));
            }
        } else if a == "-triple" || a == "-target" {
            // spir and spir64 set the target; other triples are accepted and ignored.
            let t = take(&mut i, a, "")?;
            if let Some(t) = oclc_syntax::Target::parse(&t) {
                target = t;
                out.target_given = true;
            }
        } else if let Some(t) = a
            .strip_prefix("-triple=")
            .or_else(|| a.strip_prefix("--target="))
        {
            if let Some(t) = oclc_syntax::Target::parse(t) {
                target = t;
                out.target_given = true;
            }
        } else if a == "-fbracket-depth" || a.starts_with("-fbracket-depth=") {
            let v = match a.strip_prefix("-fbracket-depth=") {
                Some(v) => v.to_string(),
                None => take(&mut i, a, "")?,
            };
            bracket_depth = Some(v.parse::<u32>().map_err(|_| {
                ArgError(format!(
                    "invalid integral value '{v}' in '-fbracket-depth={v}'"
                ))
            })?);
        } else if a == "-finclude-default-header" {
            default_header = true;
        } else if IGNORED_FLAGS.contains(&a) {
        } else if a == "-w" || a.starts_with("-W") || a == "-pedantic" || a == "-pedantic-errors" {
            out.options.warnings.parse_flag(a);
        } else {
            return Err(ArgError(format!("unknown argument: '{a}'")));
        }
        i += 1;
    }

    let mut lang = LangOptions::new(std);
    lang.target = target;
    lang.default_header = default_header;
    if let Some(d) = bracket_depth {
        lang.bracket_depth = d;
    }
    for list in &cl_ext {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if lang.apply_cl_ext(item).is_err() {
                out.ignored_extensions
                    .push(item.trim_start_matches(['+', '-']).to_string());
            }
        }
    }
    out.options.lang = lang;
    if let Some(v) = verify_arg {
        out.options.verify = Some(verify::parse_prefixes(v.as_deref()).map_err(ArgError)?);
    }
    Ok(out)
}

/// `oclc check --help`.
pub const CHECK_HELP: &str = "\
Usage: oclc check [FLAGS] FILE...

Diagnoses OpenCL C source as clang does (same lines, same wording). FILE may be '-' for
standard input. Several files are checked in parallel; output keeps the input order.

Language:
  -cl-std=CL1.0|CL1.1|CL1.2|CL2.0|CL3.0   OpenCL C version (default CL1.2)
  -cl-ext=+name,-name,+all,-all          enable/disable extensions and optional features
  -D<name>[=<value>], -U<name>           define/undefine a macro (joined or separate)
  -I<dir>                                add an include directory (joined or separate)

Warnings:
  -w                  suppress all warnings
  -Werror             turn warnings into errors; -Werror=<group>, -Wno-error=<group>
  -W<group>           enable a warning group (e.g. -Wconversion, -Wall, -Weverything)
  -Wno-<group>        disable a warning group
  -pedantic           enable warnings for language extensions; -pedantic-errors: as errors

Output:
  --format text|json  clang's text format on stderr (default), or one JSON document on stdout
  -verify[=p1,p2]     check diagnostics against 'expected-*' comments, as clang -verify;
                      exit 0 when they all match (its report is always text)

Limits:
  -fbracket-depth=N   deepest nesting of (), [] and {} (default 256, as clang); any
                      construct nested deeper than 4096 levels is an error whatever N is
  OCLC_MAX_SOURCE_BYTES (environment): largest source file or #include read (default 256M;
                      K, M, G suffixes)

Target:
  -triple <triple>    spir-unknown-unknown (32-bit size_t; the default of `oclc check`, as in
                      clang's OpenCL tests) or spir64-unknown-unknown (64-bit, the default of
                      `oclc run`/`spaces`/`build`); other triples are accepted and ignored

Builtins are always declared. -finclude-default-header makes them opencl-c.h's declarations,
as in clang: a prototype repeating one then needs __attribute__((overloadable)).

Accepted for clang compatibility and ignored: -fsyntax-only, -ffake-address-space-map,
-fdeclare-opencl-builtins, -f[no-]color-diagnostics, -x cl.

Exit status: 0 when no errors, 1 on any error (including command-line errors such as an
unknown flag, as clang does).
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_flags() {
        let a = parse_check_args([
            "-cl-std=CL3.0",
            "-cl-ext=-all,+__opencl_c_generic_address_space",
            "k.cl",
        ])
        .unwrap();
        assert_eq!(a.options.lang.std, ClStd::Cl30);
        assert!(a.options.lang.generic_address_space());
        assert!(!a.options.lang.program_scope_globals());
        assert_eq!(a.files, vec!["k.cl"]);
        let a = parse_check_args(["-cl-ext=+nonsense,-all", "k.cl"]).unwrap();
        assert_eq!(a.ignored_extensions, vec!["nonsense"]);
        assert!(!a.options.lang.has("cl_khr_fp64"));
    }

    #[test]
    fn macros_and_includes() {
        let a = parse_check_args([
            "-DX=1", "-D", "Y", "-UZ", "-Iinc", "-I", "other", "-DE=", "-",
        ])
        .unwrap();
        assert_eq!(
            a.options.macros,
            vec![
                MacroArg::Define("X".into(), "1".into()),
                MacroArg::Define("Y".into(), "1".into()),
                MacroArg::Undef("Z".into()),
                MacroArg::Define("E".into(), String::new()),
            ]
        );
        assert_eq!(
            a.options.include_dirs,
            vec![PathBuf::from("inc"), PathBuf::from("other")]
        );
        assert_eq!(a.files, vec!["-"]);
    }

    #[test]
    fn verify_and_format() {
        let a = parse_check_args(["-verify=expected,ocl12", "--format", "json", "a.cl"]).unwrap();
        assert_eq!(
            a.options.verify,
            Some(vec!["expected".into(), "ocl12".into()])
        );
        assert_eq!(a.format, Format::Json);
        let a = parse_check_args(["-verify", "--format=text", "a.cl"]).unwrap();
        assert_eq!(a.options.verify, Some(vec!["expected".into()]));
        assert_eq!(a.format, Format::Text);
    }

    #[test]
    fn ignored_and_warning_flags() {
        let a = parse_check_args([
            "-fsyntax-only",
            "-ffake-address-space-map",
            "-x",
            "cl",
            "-triple",
            "spir-unknown-unknown",
            "-pedantic",
            "-Wconversion",
            "-Wno-error=foo",
            "-w",
            "a.cl",
        ])
        .unwrap();
        assert!(a.options.warnings.pedantic);
        assert!(a.options.warnings.ignore_all);
        assert_eq!(a.options.lang.target, oclc_syntax::Target::Spir);
        assert_eq!(a.files, vec!["a.cl"]);
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse_check_args(["-fbogus", "a.cl"]).unwrap_err().0,
            "unknown argument: '-fbogus'"
        );
        assert_eq!(
            parse_check_args(["-cl-std=CL4.0"]).unwrap_err().0,
            "invalid value 'CL4.0' in '-cl-std=CL4.0'"
        );
        assert!(
            parse_check_args(["-cl-std=clc++2021"])
                .unwrap_err()
                .0
                .contains("C++ for OpenCL")
        );
        assert!(parse_check_args(["-I"]).is_err());
        assert!(parse_check_args(["-verify=1x"]).is_err());
        assert!(parse_check_args(["--format", "xml"]).is_err());
        assert!(parse_check_args(["-x", "c"]).is_err());
    }

    #[test]
    fn double_dash_makes_files() {
        let a = parse_check_args(["--", "-weird.cl"]).unwrap();
        assert_eq!(a.files, vec!["-weird.cl"]);
    }
}
