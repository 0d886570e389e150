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
