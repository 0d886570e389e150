//! Unit tests of the preprocessor internals (the public behaviour is tested in
//! `tests/pp_*.rs`).

use super::expr::{char_value, parse_int};
use super::*;
use crate::lang::ClStd;

fn pp(src: &str) -> (String, Diagnostics, PpOutput, SourceMap) {
    let mut sm = SourceMap::new();
    let id = sm.add_text("t.cl", src.to_string());
    let mut d = Diagnostics::default();
    let opts = PpOptions {
        lang: LangOptions::new(ClStd::Cl12),
        ..Default::default()
    };
    let out = preprocess(&mut sm, id, &opts, &mut d);
    let text = out.tokens[..out.tokens.len() - 1]
        .iter()
        .map(Token::text)
        .collect::<Vec<_>>()
        .join(" ");
    (text, d, out, sm)
}

#[test]
fn int_literals() {
    assert_eq!(parse_int("0x10").map(|x| x.0.v), Ok(16));
    assert_eq!(parse_int("010").map(|x| x.0.v), Ok(8));
    assert_eq!(parse_int("0b101").map(|x| x.0.v), Ok(5));
    assert!(parse_int("10u").is_ok_and(|x| x.0.unsigned));
    assert!(parse_int("0xffffffffffffffff").is_ok_and(|x| x.0.unsigned && x.1.is_none()));
    assert!(parse_int("18446744073709551615").is_ok_and(|x| x.1.is_some()));
    assert_eq!(
        parse_int("1.0").unwrap_err(),
        "floating point literal in preprocessor expression"
    );
    assert_eq!(
        parse_int("08").unwrap_err(),
        "invalid digit '8' in octal constant"
    );
    assert_eq!(
        parse_int("12abc").unwrap_err(),
        "invalid suffix 'abc' on integer constant"
    );
    assert_eq!(
        parse_int("99999999999999999999").unwrap_err(),
        "integer literal is too large to be represented in any integer type"
    );
}

#[test]
fn char_constants() {
    assert_eq!(char_value("'a'").map(|x| x.0.v), Ok(97));
    assert_eq!(char_value("'\\n'").map(|x| x.0.v), Ok(10));
    assert_eq!(char_value("'\\xff'").map(|x| x.0.v as i64), Ok(-1));
    assert_eq!(char_value("'\\0'").map(|x| x.0.v), Ok(0));
    assert_eq!(char_value("'ab'").map(|x| (x.0.v, x.1)), Ok((0x6162, true)));
    assert_eq!(char_value("L'\\xff'").map(|x| x.0.v), Ok(255));
}

#[test]
fn deep_if_parentheses_use_no_recursion() {
    let n = 100_000;
    let src = format!("#if {}1{}\nyes\n#endif\n", "(".repeat(n), ")".repeat(n));
    let (text, d, _, _) = pp(&src);
    assert_eq!(text, "yes");
    assert!(d.list.is_empty(), "{:?}", d.list);
    let src = format!("#if {}1\nyes\n#endif\n", "-".repeat(n));
    let (text, _, _, _) = pp(&src);
    assert_eq!(text, "");
}

#[test]
fn macro_identity_ignores_whitespace_amount() {
    let (_, d, _, _) = pp("#define A 1  +  2\n#define A 1 + 2\n#define A 1+2\n");
    assert_eq!(d.list.len(), 1);
    assert_eq!(d.list[0].message, "'A' macro redefined");
}

/// Every language mode the predefined text depends on: versions, targets, `-cl-ext` extremes.
fn all_modes() -> Vec<LangOptions> {
    let mut out = Vec::new();
    for std in [
        ClStd::Cl10,
        ClStd::Cl11,
        ClStd::Cl12,
        ClStd::Cl20,
        ClStd::Cl30,
    ] {
        for target in [crate::lang::Target::Spir, crate::lang::Target::Spir64] {
            for ext in [
                "",
                "+all",
                "-all",
                "-all,+cl_khr_fp16,+__opencl_c_subgroups",
            ] {
                let mut lang = LangOptions::new(std);
                lang.target = target;
                lang.apply_cl_ext(ext).expect("known extensions");
                out.push(lang);
            }
        }
    }
    out
}

/// A predefined macro parsed on first use is the macro that running its `#define` line as
/// a directive gives, in every mode; no name is defined twice (a redefinition would have
/// warned), and running the lines reports nothing.
#[test]
fn lazy_predefined_macros_equal_directives() {
    for lang in all_modes() {
        let opts = PpOptions {
            lang: lang.clone(),
            ..Default::default()
        };
        let sets = [
            (predefined::builtin_defines(&lang), Origin::Predefined),
            (
                predefined::default_header_defines(&lang),
                Origin::DefaultHeader,
            ),
        ];
        let mut names = std::collections::HashSet::new();
        for (d, _) in &sets {
            for (n, _) in d.all_lines() {
                assert!(names.insert(n), "{n} defined twice in {lang:?}");
                assert!(!n.contains(['(', ' ']), "{n}");
            }
        }
        // By directive, as the preprocessor once did.
        let mut sm_eager = SourceMap::new();
        let mut de = Diagnostics::default();
        let mut eager = Pp::new(&mut sm_eager, &opts, &mut de);
        for (d, origin) in &sets {
            let id = eager.sm.add_text("v", d.text.clone());
            eager.origin = *origin;
            eager.run_file(id, false);
        }
        // Lazily.
        let mut sm_lazy = SourceMap::new();
        let mut dl = Diagnostics::default();
        let mut lazy = Pp::new(&mut sm_lazy, &opts, &mut dl);
        for (d, origin) in &sets {
            let id = lazy.sm.add_text("v", d.text.clone());
            lazy.macros.add_lazy(
                id,
                std::sync::Arc::from(d.text.as_bytes()),
                *origin,
                &d.blocks,
                &d.lines,
            );
        }
        let mut count = 0;
        for (d, _) in &sets {
            for (n, _) in d.all_lines() {
                let sym = Symbol::intern(n);
                assert!(lazy.macros.contains(sym), "{n}");
                let a = eager.macros.get(sym);
                let b = lazy.macros.get(sym);
                assert!(a.is_some(), "{n} not defined by its directive");
                assert_eq!(a, b, "{n} in {lang:?}");
                count += 1;
            }
        }
        assert!(count > 200, "{count} predefined macros");
        drop(eager);
        drop(lazy);
        assert!(de.list.is_empty(), "{:?}", de.list);
        assert!(dl.list.is_empty(), "{:?}", dl.list);
    }
}

/// A predefined macro can be tested, expanded, redefined (with clang's warning) and
/// undefined, before or after its first use.
#[test]
fn lazy_predefined_macros_behave_as_defined() {
    let (text, d, _, _) = pp(
        "#ifdef CLK_LOCAL_MEM_FENCE\nyes\n#endif\nCLK_GLOBAL_MEM_FENCE\n\
         #undef CLK_GLOBAL_MEM_FENCE\nCLK_GLOBAL_MEM_FENCE\n#define __SPIR__ 2\n__SPIR__\n\
         #if defined(M_PI_F) && __OPENCL_C_VERSION__ == 120\nok\n#endif\n",
    );
    assert_eq!(text, "yes 0x02 CLK_GLOBAL_MEM_FENCE 2 ok");
    let msgs: Vec<&str> = d.list.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(msgs, ["'__SPIR__' macro redefined"]);
}
