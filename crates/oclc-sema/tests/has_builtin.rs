//! `__has_builtin(NAME)` answers 1 only for builtins oclc declares too: code that tests for a
//! builtin before calling it must not take a branch oclc then rejects.

/// Builtins the parser handles as keywords rather than through the table.
const PARSER_KEYWORDS: &[&str] = &[
    "__builtin_astype",
    "__builtin_bit_cast",
    "__builtin_choose_expr",
    "__builtin_offsetof",
];

#[test]
fn has_builtin_names_are_declared() {
    let missing: Vec<&str> = oclc_syntax::pp::builtin_names::has_builtin_names()
        .iter()
        .copied()
        .filter(|n| !oclc_sema::builtins::is_table_name(n) && !PARSER_KEYWORDS.contains(n))
        .collect();
    assert!(missing.is_empty(), "{} names: {missing:?}", missing.len());
}
