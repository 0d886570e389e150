//! The warning policy: `-w`, `-Werror[=X]`, `-Wno-error[=X]`, `-pedantic[-errors]`, `-W<name>`,
//! `-Wno-<name>`, `-Wall`, `-Weverything`, applied to diagnostics the way clang maps them, and the
//! ` [-W...]` option text clang appends to each mapped diagnostic.
//!
//! A diagnostic's `group` names its clang warning group. [`GROUPS`] says which groups are off by
//! default, which are clang "extensions" (enabled by `-pedantic`), and each group's parents (so
//! `-Wconversion` enables `-Wsign-conversion`, as in clang). A warning whose group is not listed
//! is on by default. An error with a group is a clang "DefaultError" warning: `-Wno-<group>`
//! silences it, `-w` does not.

use oclc_syntax::{Diagnostic, Level};

/// How a group behaves when no flag names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// Off unless enabled by `-W<group>` or a parent group.
    Off,
    /// A clang `Extension`: off unless `-pedantic` (or `-W<group>`); `-pedantic-errors` makes it
    /// an error.
    Pedantic,
    /// A clang `ExtWarn`: on by default, an error with `-pedantic-errors`.
    ExtWarn,
    /// On by default; listed only for its parents.
    On,
}

/// One warning group: name (without `-W`), default behaviour, parent groups.
pub struct GroupInfo {
    pub name: &'static str,
    pub kind: GroupKind,
    pub parents: &'static [&'static str],
}

const fn g(name: &'static str, kind: GroupKind, parents: &'static [&'static str]) -> GroupInfo {
    GroupInfo {
        name,
        kind,
        parents,
    }
}

use GroupKind::{ExtWarn, Off, On, Pedantic};

/// Groups whose default is not "on", or that have parents. Unlisted groups are on by default.
pub const GROUPS: &[GroupInfo] = &[
    // -Wconversion and its members (all off by default).
    g("conversion", Off, &[]),
    g("sign-conversion", Off, &["conversion"]),
    g("shorten-64-to-32", Off, &["conversion"]),
    g("float-conversion", Off, &["conversion"]),
    g("implicit-int-conversion", Off, &["conversion"]),
    g("implicit-float-conversion", Off, &["conversion"]),
    g("implicit-int-float-conversion", Off, &["conversion"]),
    g("enum-conversion", Off, &["conversion"]),
    g("string-conversion", Off, &["conversion"]),
    // On-by-default members of -Wconversion: -Wno-conversion silences them too.
    g("constant-conversion", On, &["conversion"]),
    g("literal-conversion", On, &["conversion"]),
    g("bool-conversion", On, &["conversion"]),
    g("null-conversion", On, &["conversion"]),
    // -Wall / -Wmost members that are off by default.
    g("unused-variable", Off, &["unused", "all", "most"]),
    g("unused-function", Off, &["unused", "all", "most"]),
    g("unused-but-set-variable", Off, &["unused", "all", "most"]),
    g("unused-label", Off, &["unused", "all", "most"]),
    g("unused-parameter", Off, &["unused", "extra"]),
    g("unused", Off, &["all", "most"]),
    g(
        "sometimes-uninitialized",
        Off,
        &["uninitialized", "all", "most"],
    ),
    g("uninitialized", Off, &["all", "most"]),
    g("sign-compare", Off, &["extra"]),
    g("missing-field-initializers", Off, &["extra"]),
    g("extra", Off, &[]),
    g("all", Off, &[]),
    g("most", Off, &["all"]),
    // Other off-by-default groups.
    g("spir-compat", Off, &[]),
    g("opencl-unsupported-core-feature", Off, &[]),
    g("double-promotion", Off, &[]),
    g("float-equal", Off, &[]),
    g("shadow", Off, &[]),
    g("cast-qual", Off, &[]),
    g("cast-align", Off, &[]),
    g("comma", Off, &[]),
    g("undef", Off, &[]),
    g("vla", Off, &[]),
    g("missing-prototypes", Off, &[]),
    g("missing-variable-declarations", Off, &[]),
    g("padded", Off, &[]),
    g("format-nonliteral", Off, &["format"]),
    g("unreachable-code", Off, &[]),
    // Extensions: enabled by -pedantic.
    g("pedantic", Pedantic, &[]),
    g("zero-length-array", Pedantic, &["pedantic"]),
    g("gnu-empty-initializer", Pedantic, &["pedantic", "gnu"]),
    g("gnu-empty-struct", Pedantic, &["pedantic", "gnu"]),
    g(
        "gnu-zero-variadic-macro-arguments",
        Pedantic,
        &["pedantic", "gnu"],
    ),
    g("gnu-statement-expression", Pedantic, &["pedantic", "gnu"]),
    g(
        "gnu-statement-expression-from-macro-expansion",
        Pedantic,
        &["gnu-statement-expression", "pedantic", "gnu"],
    ),
    g(
        "gnu-conditional-omitted-operand",
        Pedantic,
        &["pedantic", "gnu"],
    ),
    g("gnu-case-range", Pedantic, &["pedantic", "gnu"]),
    g("gnu-imaginary-constant", Pedantic, &["pedantic", "gnu"]),
    g(
        "gnu-pointer-arith",
        Pedantic,
        &["pedantic", "gnu", "pointer-arith"],
    ),
    g("gnu-label-as-value", Pedantic, &["pedantic", "gnu"]),
    g("gnu-anonymous-struct", Pedantic, &["pedantic", "gnu"]),
    g("gnu-folding-constant", Pedantic, &["pedantic", "gnu"]),
    g("gnu-alignof-expression", Pedantic, &["pedantic", "gnu"]),
    g("gnu-designator", Pedantic, &["pedantic", "gnu"]),
    g("gnu-union-cast", Pedantic, &["pedantic", "gnu"]),
    g("language-extension-token", Pedantic, &["pedantic"]),
    g("empty-translation-unit", Pedantic, &["pedantic"]),
    g("extra-semi", Pedantic, &["pedantic"]),
    g("long-long", Pedantic, &["pedantic"]),
    g("variadic-macros", Pedantic, &["pedantic"]),
    g("flexible-array-extensions", Pedantic, &["pedantic"]),
    g("c23-extensions", Pedantic, &["pedantic"]),
    g("c2x-extensions", Pedantic, &["pedantic"]),
    g("c11-extensions", Pedantic, &["pedantic"]),
    g("c99-extensions", Pedantic, &["pedantic"]),
    g("embedded-directive", Pedantic, &["pedantic"]),
    g("newline-eof", Pedantic, &["pedantic"]),
    g("gnu", Pedantic, &["pedantic"]),
    // ExtWarns: on by default, errors under -pedantic-errors.
    g(
        "incompatible-pointer-types-discards-qualifiers",
        ExtWarn,
        &["incompatible-pointer-types"],
    ),
    g("compare-distinct-pointer-types", ExtWarn, &[]),
    g("pointer-type-mismatch", ExtWarn, &[]),
    g("duplicate-decl-specifier", ExtWarn, &[]),
    g("extern-initializer", ExtWarn, &[]),
    g("int-conversion", ExtWarn, &["conversion"]),
    g("empty-body", On, &["extra"]),
    g(
        "compound-token-split-by-macro",
        On,
        &["compound-token-split"],
    ),
    // -Wparentheses (in -Wall, not -Wmost) and its members; two are off by default.
    g("parentheses", On, &["all"]),
    g("bitwise-conditional-parentheses", On, &["parentheses"]),
    g("shift-op-parentheses", On, &["parentheses"]),
    g("logical-op-parentheses", Off, &["parentheses"]),
    g("bitwise-op-parentheses", Off, &["parentheses"]),
    // Diagnostics whose default differs from the rest of their group (see VARIANTS).
    g(
        "static-in-inline-quiet",
        Pedantic,
        &["static-in-inline", "pedantic"],
    ),
    g("unknown-pragmas-off", Off, &["unknown-pragmas"]),
    g("c23-extensions-warn", ExtWarn, &["c23-extensions"]),
    g("unknown-pragmas", On, &["most", "pragmas"]),
    g("ignored-pragmas", On, &["pragmas"]),
    g("unused-value", On, &["unused"]),
    g("unused-comparison", On, &["unused-value"]),
    g("unused-result", On, &["unused-value"]),
    g(
        "implicit-const-int-float-conversion",
        On,
        &["implicit-int-float-conversion"],
    ),
    g("unknown-attributes", On, &["attributes"]),
    g("ignored-attributes", On, &["attributes"]),
    g("pedantic-core-features", Off, &[]),
];

/// Diagnostics that clang puts in a group with a different default than the group's other
/// members: (the name sema gives them, the group clang prints). `static-in-inline-quiet` is
/// clang's `ext_internal_in_extern_inline_quiet` (an extension, shown with -pedantic);
/// `unknown-pragmas-off` is "unknown pragma ignored" (off by default, on with -Wall);
/// `c23-extensions-warn` is a C23 extension clang warns of by default (an `ExtWarn`: an
/// omitted parameter name in a definition).
pub const VARIANTS: &[(&str, &str)] = &[
    ("static-in-inline-quiet", "static-in-inline"),
    ("unknown-pragmas-off", "unknown-pragmas"),
    ("c23-extensions-warn", "c23-extensions"),
];

/// The group name clang prints for `group`.
pub(crate) fn shown(group: &'static str) -> &'static str {
    VARIANTS
        .iter()
        .find(|(v, _)| *v == group)
        .map_or(group, |(_, g)| g)
}

/// The table entry for `name`, if listed.
pub fn group_info(name: &str) -> Option<&'static GroupInfo> {
    GROUPS.iter().find(|g| g.name == name)
}

/// True if `ancestor` is `group` or one of its parents, transitively.
fn in_group(group: &str, ancestor: &str) -> bool {
    let mut stack = vec![group];
    let mut steps = 0;
    while let Some(gname) = stack.pop() {
        if gname == ancestor {
            return true;
        }
        steps += 1;
        if steps > 64 {
            break;
        }
        if let Some(info) = group_info(gname) {
            stack.extend(info.parents.iter().copied());
        }
    }
    false
}

/// One `-W` flag in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum WFlag {
    /// `-W<name>` (true) or `-Wno-<name>` (false).
    Enable(String, bool),
    /// `-Werror=<name>` (true) or `-Wno-error=<name>` (false).
    Error(String, bool),
}

/// The warning flags of one compilation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarningPolicy {
    /// `-w`: drop every warning.
    pub ignore_all: bool,
    /// `-Werror` (last of `-Werror`/`-Wno-error` wins).
    pub werror: bool,
    /// `-pedantic` (or `-Wpedantic`).
    pub pedantic: bool,
    /// `-pedantic-errors`.
    pub pedantic_errors: bool,
    /// `-Weverything`.
    pub everything: bool,
    flags: Vec<WFlag>,
}

/// The result of applying the policy to one diagnostic: the diagnostic with its final level,
/// and the option text clang prints in brackets (`-Werror,-Wconversion`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reported {
    pub diag: Diagnostic,
    pub option: Option<String>,
}

impl WarningPolicy {
    /// Applies one flag that starts with `-W`, `-w` or `-pedantic`. Returns false if the flag
    /// is not a warning flag at all.
    pub fn parse_flag(&mut self, flag: &str) -> bool {
        match flag {
            "-w" => self.ignore_all = true,
            "-Werror" => self.werror = true,
            "-Wno-error" => self.werror = false,
            "-pedantic" | "-Wpedantic" => self.pedantic = true,
            "-pedantic-errors" => {
                self.pedantic = true;
                self.pedantic_errors = true;
            }
            "-Wno-pedantic" => self.pedantic = false,
            "-Weverything" => self.everything = true,
            _ => {
                let Some(rest) = flag.strip_prefix("-W") else {
                    return false;
                };
                if rest.is_empty() {
                    return false;
                }
                if let Some(name) = rest.strip_prefix("error=") {
                    self.flags.push(WFlag::Error(name.to_string(), true));
                } else if let Some(name) = rest.strip_prefix("no-error=") {
                    self.flags.push(WFlag::Error(name.to_string(), false));
                } else if let Some(name) = rest.strip_prefix("no-") {
                    self.flags.push(WFlag::Enable(name.to_string(), false));
                } else {
                    self.flags.push(WFlag::Enable(rest.to_string(), true));
                }
            }
        }
        true
    }

    /// Whether a warning in `group` is emitted.
    fn enabled(&self, group: &str) -> bool {
        let kind = group_info(group).map(|g| g.kind);
        let mut on = match kind {
            Some(GroupKind::Off) => false,
            Some(GroupKind::Pedantic) => self.pedantic,
            Some(GroupKind::ExtWarn | GroupKind::On) | None => true,
        };
        if self.everything {
            on = true;
        }
        for f in &self.flags {
            match f {
                WFlag::Enable(n, v) if in_group(group, n) => on = *v,
                WFlag::Error(n, true) if in_group(group, n) => on = true,
                _ => {}
            }
        }
        on
    }

    /// Whether an emitted warning in `group` becomes an error.
    fn is_error(&self, group: &str) -> bool {
        let mut err = self.werror;
        if self.pedantic_errors
            && matches!(
                group_info(group).map(|g| g.kind),
                Some(GroupKind::Pedantic | GroupKind::ExtWarn)
            )
        {
            err = true;
        }
        for f in &self.flags {
            if let WFlag::Error(n, v) = f
                && in_group(group, n)
            {
                err = *v;
            }
        }
        err
    }

    /// Maps one diagnostic: `None` when it is suppressed.
    pub fn apply(&self, mut d: Diagnostic) -> Option<Reported> {
        match d.level {
            Level::Warning => {
                let Some(group) = d.group else {
                    if self.ignore_all {
                        return None;
                    }
                    if self.werror {
                        d.level = Level::Error;
                        return Some(Reported {
                            diag: d,
                            option: Some("-Werror".into()),
                        });
                    }
                    return Some(Reported {
                        diag: d,
                        option: None,
                    });
                };
                if self.ignore_all || !self.enabled(group) {
                    return None;
                }
                let name = shown(group);
                if self.is_error(group) {
                    d.level = Level::Error;
                    return Some(Reported {
                        diag: d,
                        option: Some(format!("-Werror,-W{name}")),
                    });
                }
                Some(Reported {
                    diag: d,
                    option: Some(format!("-W{name}")),
                })
            }
            Level::Error => {
                let Some(group) = d.group else {
                    return Some(Reported {
                        diag: d,
                        option: None,
                    });
                };
                // A DefaultError warning: controlled by its group, unaffected by -w.
                let silenced = self
                    .flags
                    .iter()
                    .rev()
                    .find_map(|f| match f {
                        WFlag::Enable(n, v) if in_group(group, n) => Some(!*v),
                        _ => None,
                    })
                    .unwrap_or(false);
                if silenced {
                    return None;
                }
                let downgraded = self.flags.iter().rev().find_map(|f| match f {
                    WFlag::Error(n, v) if in_group(group, n) => Some(!*v),
                    _ => None,
                });
                if downgraded == Some(true) {
                    if self.ignore_all {
                        return None;
                    }
                    d.level = Level::Warning;
                }
                Some(Reported {
                    diag: d,
                    option: Some(format!("-W{group}")),
                })
            }
            Level::Note | Level::Remark | Level::Fatal => Some(Reported {
                diag: d,
                option: None,
            }),
        }
    }

    /// Applies the policy to a whole list, in order. After a fatal error clang reports nothing
    /// more, so the rest is dropped.
    pub fn apply_all(&self, diags: Vec<Diagnostic>) -> Vec<Reported> {
        let mut out = Vec::with_capacity(diags.len());
        for d in diags {
            let fatal = d.level == Level::Fatal;
            if let Some(r) = self.apply(d) {
                out.push(r);
            }
            if fatal {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_syntax::Span;

    fn warn(group: Option<&'static str>) -> Diagnostic {
        let mut d = Diagnostic::warning(Span::DUMMY, "w");
        d.group = group;
        d
    }

    fn policy(flags: &[&str]) -> WarningPolicy {
        let mut p = WarningPolicy::default();
        for f in flags {
            assert!(p.parse_flag(f), "{f}");
        }
        p
    }

    fn outcome(flags: &[&str], d: Diagnostic) -> Option<(Level, Option<String>)> {
        policy(flags).apply(d).map(|r| (r.diag.level, r.option))
    }

    #[test]
    fn defaults() {
        assert_eq!(
            outcome(&[], warn(Some("literal-conversion"))),
            Some((Level::Warning, Some("-Wliteral-conversion".into())))
        );
        assert_eq!(outcome(&[], warn(Some("conversion"))), None);
        assert_eq!(outcome(&[], warn(Some("zero-length-array"))), None);
        assert_eq!(outcome(&[], warn(None)), Some((Level::Warning, None)));
    }

    #[test]
    fn enabling_and_hierarchy() {
        assert!(outcome(&["-Wconversion"], warn(Some("sign-conversion"))).is_some());
        assert!(outcome(&["-Wconversion"], warn(Some("conversion"))).is_some());
        assert!(
            outcome(
                &["-Wconversion", "-Wno-sign-conversion"],
                warn(Some("sign-conversion"))
            )
            .is_none()
        );
        assert!(outcome(&["-Wall"], warn(Some("unused-variable"))).is_some());
        assert!(outcome(&["-Wno-conversion"], warn(Some("literal-conversion"))).is_none());
        assert!(outcome(&["-Weverything"], warn(Some("padded"))).is_some());
        assert!(outcome(&["-Wspir-compat"], warn(Some("spir-compat"))).is_some());
    }

    #[test]
    fn pedantic() {
        assert_eq!(
            outcome(&["-pedantic"], warn(Some("zero-length-array"))),
            Some((Level::Warning, Some("-Wzero-length-array".into())))
        );
        assert_eq!(
            outcome(&["-pedantic-errors"], warn(Some("zero-length-array"))),
            Some((Level::Error, Some("-Werror,-Wzero-length-array".into())))
        );
        assert_eq!(
            outcome(&["-pedantic-errors"], warn(Some("literal-conversion"))),
            Some((Level::Warning, Some("-Wliteral-conversion".into())))
        );
        assert!(outcome(&["-w", "-pedantic"], warn(Some("zero-length-array"))).is_none());
    }

    #[test]
    fn werror_forms() {
        assert_eq!(
            outcome(&["-Werror"], warn(Some("literal-conversion"))),
            Some((Level::Error, Some("-Werror,-Wliteral-conversion".into())))
        );
        assert_eq!(
            outcome(&["-Werror"], warn(None)),
            Some((Level::Error, Some("-Werror".into())))
        );
        assert_eq!(
            outcome(
                &["-Werror", "-Wno-error=constant-conversion"],
                warn(Some("constant-conversion"))
            ),
            Some((Level::Warning, Some("-Wconstant-conversion".into())))
        );
        assert_eq!(
            outcome(
                &["-Wconversion", "-Werror=conversion"],
                warn(Some("sign-conversion"))
            ),
            Some((Level::Error, Some("-Werror,-Wsign-conversion".into())))
        );
        // -Werror=X enables X.
        assert!(outcome(&["-Werror=conversion"], warn(Some("conversion"))).is_some());
        assert!(outcome(&["-w", "-Werror"], warn(Some("literal-conversion"))).is_none());
    }

    #[test]
    fn default_error_warnings() {
        let mut e = Diagnostic::error(Span::DUMMY, "e");
        e.group = Some("return-mismatch");
        assert_eq!(
            outcome(&[], e.clone()),
            Some((Level::Error, Some("-Wreturn-mismatch".into())))
        );
        assert_eq!(outcome(&["-w"], e.clone()).map(|x| x.0), Some(Level::Error));
        assert!(outcome(&["-Wno-return-mismatch"], e.clone()).is_none());
        assert_eq!(
            outcome(&["-Wno-error=return-mismatch"], e).map(|x| x.0),
            Some(Level::Warning)
        );
    }

    #[test]
    fn variants_print_their_group_and_keep_their_default() {
        // clang's quiet -Wstatic-in-inline: an extension, printed as -Wstatic-in-inline.
        let q = warn(Some("static-in-inline-quiet"));
        assert_eq!(outcome(&[], q.clone()), None);
        assert_eq!(
            outcome(&["-pedantic"], q.clone()),
            Some((Level::Warning, Some("-Wstatic-in-inline".into())))
        );
        assert_eq!(
            outcome(&["-Wstatic-in-inline"], q.clone()),
            Some((Level::Warning, Some("-Wstatic-in-inline".into())))
        );
        assert_eq!(outcome(&["-pedantic", "-Wno-static-in-inline"], q), None);
        // "unknown pragma ignored": off, on with -Wall, printed as -Wunknown-pragmas.
        let u = warn(Some("unknown-pragmas-off"));
        assert_eq!(outcome(&[], u.clone()), None);
        assert_eq!(
            outcome(&["-Wall"], u.clone()),
            Some((Level::Warning, Some("-Wunknown-pragmas".into())))
        );
        assert_eq!(outcome(&["-Wall", "-Wno-pragmas"], u), None);
    }

    #[test]
    fn parentheses_and_unused_families() {
        assert!(outcome(&[], warn(Some("logical-op-parentheses"))).is_none());
        assert!(outcome(&["-Wall"], warn(Some("logical-op-parentheses"))).is_some());
        assert!(outcome(&["-Wparentheses"], warn(Some("bitwise-op-parentheses"))).is_some());
        assert!(outcome(&["-Wno-parentheses"], warn(Some("shift-op-parentheses"))).is_none());
        assert!(outcome(&["-Wno-all"], warn(Some("bitwise-conditional-parentheses"))).is_none());
        assert!(outcome(&["-Wno-unused"], warn(Some("unused-comparison"))).is_none());
        assert!(
            outcome(
                &["-Wno-implicit-int-float-conversion"],
                warn(Some("implicit-const-int-float-conversion"))
            )
            .is_none()
        );
        assert!(outcome(&["-Wno-attributes"], warn(Some("unknown-attributes"))).is_none());
        assert!(outcome(&[], warn(Some("pedantic-core-features"))).is_none());
    }

    #[test]
    fn fatal_stops_everything_after_it() {
        let mut f = Diagnostic::error(Span::DUMMY, "f");
        f.level = Level::Fatal;
        let out = WarningPolicy::default().apply_all(vec![warn(None), f, warn(None)]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].diag.level, Level::Fatal);
    }
}
