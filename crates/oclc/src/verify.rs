//! clang's `-verify`: checks the diagnostics of a compilation against `expected-*` comment
//! directives, with `VerifyDiagnosticConsumer`'s semantics and report format.
//!
//! Directives: `PREFIX-{error,warning,note,remark}[-re][@LOC] [COUNT] {{TEXT}}` and
//! `PREFIX-no-diagnostics`, several per comment, `//` comments continued with a trailing `\`.
//! LOC is `+N`, `-N`, `N`, `*`, `FILE:N` or `FILE:*`; COUNT is `N`, `N+`, `+` or `N-M`. Plain
//! texts match as substrings; `-re` texts are literal outside `{{...}}` and regular expressions
//! inside. Comments in groups skipped by `#if` are not read.

use oclc_sema::space::BEYOND_CLANG_NOTE_PREFIX;
use oclc_syntax::{FileId, Level, SourceMap, Span};

use crate::regex::{Regex, RegexPart};
use crate::warnings::Reported;

/// `-verify` prefixes: sorted and deduplicated; `["expected"]` for plain `-verify`.
pub fn parse_prefixes(value: Option<&str>) -> Result<Vec<String>, String> {
    let Some(v) = value else {
        return Ok(vec!["expected".to_string()]);
    };
    let mut out = Vec::new();
    for p in v.split(',') {
        let valid = p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(format!(
                "invalid value '{p}' in '-verify='; -verify prefixes must start with a letter \
                 and contain only alphanumeric characters, hyphens, and underscores"
            ));
        }
        out.push(p.to_string());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Error,
    Warning,
    Remark,
    Note,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Error => "error",
            Kind::Warning => "warning",
            Kind::Remark => "remark",
            Kind::Note => "note",
        }
    }

    fn of(level: Level) -> Kind {
        match level {
            Level::Error | Level::Fatal => Kind::Error,
            Level::Warning => Kind::Warning,
            Level::Remark => Kind::Remark,
            Level::Note => Kind::Note,
        }
    }
}

/// A position: file, 1-based line, 1-based column.
type Pos = (FileId, u32, u32);

#[derive(Debug)]
enum Matcher {
    Substring(String),
    Regex(Option<Regex>),
}

#[derive(Debug)]
struct Directive {
    kind: Kind,
    spelling: String,
    text: String,
    matcher: Matcher,
    min: u32,
    max: u32,
    directive_loc: Pos,
    /// `None` for `@*` and `@*:*`.
    diag_loc: Option<Pos>,
    any_line: bool,
    any_file: bool,
}

impl Directive {
    fn matches(&self, message: &str) -> bool {
        match &self.matcher {
            Matcher::Substring(t) => message.contains(t.as_str()),
            Matcher::Regex(Some(r)) => r.is_match(message),
            Matcher::Regex(None) => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    NoDirectives,
    NoDiagnostics,
    Other,
}

/// A diagnostic as the verifier sees it: kind, reported position (None if it has no
/// location) and message text without the option suffix.
struct Seen<'a> {
    kind: Kind,
    loc: Option<Pos>,
    text: &'a str,
}

/// Directive-parsing errors; clang reports them as ordinary diagnostics, so they are checked
/// like any other error.
struct ParseError {
    loc: Pos,
    message: String,
}

/// The outcome of `-verify`: clang's error messages (one per mismatch block) and the number
/// of problems, which is what clang's "N errors generated." counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    pub messages: Vec<String>,
    pub problems: usize,
}

impl VerifyReport {
    pub fn passed(&self) -> bool {
        self.problems == 0
    }
}

/// Checks `reported` against the directives in the files of `sm` (ignoring comments inside
/// `skipped` ranges).
pub fn verify(
    sm: &SourceMap,
    reported: &[Reported],
    skipped: &[Span],
    prefixes: &[String],
) -> VerifyReport {
    let mut directives = Vec::new();
    let mut errors = Vec::new();
    let mut status = Status::NoDirectives;
    let mut first_no_diag = String::new();
    for (fid, f) in sm.files() {
        // Virtual buffers (`<built-in>`, `<command line>`) hold no directives; `<stdin>` may.
        if f.name.starts_with('<') && f.name.ends_with('>') && f.name != "<stdin>" {
            continue;
        }
        for (start, end) in comments(&f.text) {
            let in_skipped = skipped
                .iter()
                .any(|s| s.file == fid && s.lo as usize <= start && start < s.hi as usize);
            if in_skipped {
                continue;
            }
            let raw = &f.text[start..end];
            let folded = fold_line_splices(raw);
            let (line, col) = f.line_col(start as u32);
            let mut ctx = ParseCtx {
                sm,
                file: fid,
                pos: (fid, line, col),
                prefixes,
                status: &mut status,
                first_no_diag: &mut first_no_diag,
                directives: &mut directives,
                errors: &mut errors,
            };
            ctx.parse(&folded);
        }
    }

    let mut seen: Vec<Seen<'_>> = Vec::new();
    for r in reported {
        let d = &r.diag;
        seen.push(Seen {
            kind: Kind::of(d.level),
            loc: position(sm, d.span),
            text: &d.message,
        });
        // Notes oclc adds beyond clang are not clang diagnostics; clang's tests cannot expect
        // them.
        for n in d
            .notes
            .iter()
            .filter(|n| !n.message.starts_with(BEYOND_CLANG_NOTE_PREFIX))
        {
            seen.push(Seen {
                kind: Kind::Note,
                loc: position(sm, n.span),
                text: &n.message,
            });
        }
    }
    for e in &errors {
        seen.push(Seen {
            kind: Kind::Error,
            loc: Some(e.loc),
            text: &e.message,
        });
    }

    let mut out = VerifyReport::default();
    if status == Status::NoDirectives {
        let first = prefixes.first().map_or("expected", String::as_str);
        out.messages.push(format!(
            "no expected directives found: consider use of '{first}-no-diagnostics'"
        ));
        out.problems += 1;
    }
    for kind in [Kind::Error, Kind::Warning, Kind::Remark, Kind::Note] {
        let ds: Vec<&Directive> = directives.iter().filter(|d| d.kind == kind).collect();
        let right: Vec<&Seen<'_>> = seen.iter().filter(|s| s.kind == kind).collect();
        check_list(sm, kind, &ds, right, prefixes, &mut out);
    }
    out
}

/// clang's `CheckLists`: greedy matching of directives (in order) to diagnostics.
fn check_list(
    sm: &SourceMap,
    kind: Kind,
    directives: &[&Directive],
    mut right: Vec<&Seen<'_>>,
    prefixes: &[String],
    out: &mut VerifyReport,
) {
    let mut left_only: Vec<&Directive> = Vec::new();
    for d in directives {
        let mut i = 0;
        while i < d.max {
            let found = right.iter().position(|s| {
                if !d.any_line {
                    let want = d.diag_loc.map_or(0, |p| p.1);
                    let got = s.loc.map_or(0, |p| p.1);
                    if want != got {
                        return false;
                    }
                }
                if let Some(dl) = d.diag_loc
                    && !d.any_file
                    && s.loc.is_none_or(|sl| sl.0 != dl.0)
                {
                    return false;
                }
                d.matches(s.text)
            });
            match found {
                Some(idx) => {
                    right.remove(idx);
                }
                None => {
                    if i >= d.min {
                        break;
                    }
                    left_only.push(d);
                }
            }
            i += 1;
        }
    }
    let single = prefixes.len() == 1;
    let first = prefixes.first().map_or("expected", String::as_str);
    let head = |expected: bool| {
        let which = if expected {
            "expected but not seen"
        } else {
            "seen but not expected"
        };
        if single {
            format!("'{first}-{}' diagnostics {which}: ", kind.label())
        } else {
            format!("diagnostics with '{}' severity {which}: ", kind.label())
        }
    };
    if !left_only.is_empty() {
        let mut msg = head(true);
        for d in &left_only {
            let name = |p: Pos| sm.file(p.0).map_or("", |f| f.name.as_str());
            match d.diag_loc {
                Some(p) if !d.any_file => msg.push_str(&format!("\n  File {}", name(p))),
                _ => msg.push_str("\n  File *"),
            }
            if d.any_line {
                msg.push_str(" Line *");
            } else {
                msg.push_str(&format!(" Line {}", d.diag_loc.map_or(0, |p| p.1)));
            }
            if d.diag_loc != Some(d.directive_loc) {
                let dl = d.directive_loc;
                msg.push_str(&format!(" (directive at {}:{})", name(dl), dl.1));
            }
            if !single {
                msg.push_str(&format!(" '{}'", d.spelling));
            }
            msg.push_str(": ");
            msg.push_str(&d.text);
        }
        out.messages.push(msg);
        out.problems += left_only.len();
    }
    if !right.is_empty() {
        let mut msg = head(false);
        for s in &right {
            match s.loc {
                None => msg.push_str("\n  (frontend)"),
                Some(p) => {
                    msg.push_str("\n ");
                    // Virtual buffers (`<built-in>`, `<stdin>`) have no file entry.
                    if let Some(f) = sm.file(p.0).filter(|f| !is_virtual(&f.name)) {
                        msg.push_str(&format!(" File {}", f.name));
                    }
                    msg.push_str(&format!(" Line {}", p.1));
                }
            }
            msg.push_str(": ");
            msg.push_str(s.text);
        }
        out.messages.push(msg);
        out.problems += right.len();
    }
}

/// Buffers that are not files on disk: `<built-in>`, `<command line>`, `<stdin>`.
fn is_virtual(name: &str) -> bool {
    name.starts_with('<') && name.ends_with('>')
}

/// A loaded file named `name` (as given, or by its last path component).
fn find_file(sm: &SourceMap, name: &str) -> Option<FileId> {
    let base = |n: &str| n.rsplit(['/', '\\']).next().unwrap_or(n).to_string();
    sm.files()
        .find(|(_, f)| f.name == name)
        .or_else(|| sm.files().find(|(_, f)| base(&f.name) == base(name)))
        .map(|(id, _)| id)
}

/// The reported position of a diagnostic at `span` (after macro expansion), if it has one.
fn position(sm: &SourceMap, span: Span) -> Option<Pos> {
    if span.is_dummy() {
        return None;
    }
    let s = sm.report_span(span);
    let f = sm.file(s.file)?;
    let (l, c) = f.line_col(s.lo);
    Some((s.file, l, c))
}

/// Byte ranges of every comment in C source text (including the `//`, `/*`, `*/`), skipping
/// string and character literals. A `//` comment continues past a newline preceded by `\`.
pub fn comments(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let n = text.len();
    let mut i = 0;
    while i < n {
        match text[i] {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                let start = i;
                i += 2;
                while i < n {
                    if text[i] == b'\n' {
                        // A backslash (optionally followed by blanks) before the newline
                        // splices the next line into the comment.
                        let mut j = i;
                        if j > 0 && text[j - 1] == b'\r' {
                            j -= 1;
                        }
                        while j > start && (text[j - 1] == b' ' || text[j - 1] == b'\t') {
                            j -= 1;
                        }
                        if j > start && text[j - 1] == b'\\' {
                            i += 1;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                let mut end = i;
                if end > start && text[end - 1] == b'\r' {
                    end -= 1;
                }
                out.push((start, end));
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < n && !(text[i] == b'*' && text.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(n);
                out.push((start, i));
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < n && text[i] != q && text[i] != b'\n' {
                    if text[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// clang's `HandleComment` folding of backslash-newline (`\` + `\n`, `\r\n` or `\n\r`).
fn fold_line_splices(c: &[u8]) -> String {
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == b'\\' && i + 1 < c.len() && (c[i + 1] == b'\n' || c[i + 1] == b'\r') {
            let first = c[i + 1];
            i += 2;
            if i < c.len() && (c[i] == b'\n' || c[i] == b'\r') && c[i] != first {
                i += 1;
            }
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Where an `@...` location says the diagnostic is.
struct At {
    /// `None` with `any_line` for `@*`, which matches any file and line.
    loc: Option<Pos>,
    any_line: bool,
    any_file: bool,
}

/// clang's `ParseHelper`: a cursor over one comment's text.
struct Helper<'s> {
    s: &'s [u8],
    /// Next character.
    c: usize,
    /// Start and end of the last `next`/`search` match.
    p: usize,
    pend: usize,
}

impl<'s> Helper<'s> {
    fn new(s: &'s [u8]) -> Helper<'s> {
        Helper {
            s,
            c: 0,
            p: 0,
            pend: 0,
        }
    }

    fn next(&mut self, lit: &str) -> bool {
        self.p = self.c;
        self.pend = self.c + lit.len();
        self.pend <= self.s.len() && &self.s[self.c..self.pend] == lit.as_bytes()
    }

    fn next_number(&mut self) -> Option<u32> {
        self.p = self.c;
        let mut e = self.c;
        let mut n: u32 = 0;
        while e < self.s.len() && self.s[e].is_ascii_digit() {
            n = n.wrapping_mul(10).wrapping_add(u32::from(self.s[e] - b'0'));
            e += 1;
        }
        self.pend = e;
        (e != self.c).then_some(n)
    }

    /// Finds `lit` (or, when empty, any letter) at or after the cursor.
    fn search(&mut self, lit: &str, start_of_word: bool, finish_token: bool) -> bool {
        loop {
            if lit.is_empty() {
                let mut p = self.c;
                while p < self.s.len() && !self.s[p].is_ascii_alphabetic() {
                    p += 1;
                }
                self.p = p;
                self.pend = p + 1;
            } else {
                let hay = &self.s[self.c.min(self.s.len())..];
                match hay.windows(lit.len()).position(|w| w == lit.as_bytes()) {
                    Some(off) => {
                        self.p = self.c + off;
                        self.pend = self.p + lit.len();
                    }
                    None => {
                        self.p = self.s.len();
                        self.pend = self.s.len();
                    }
                }
            }
            if self.p >= self.s.len() {
                return false;
            }
            let p = self.p;
            let word_start = p == 0
                || is_ws(self.s[p - 1])
                || (p > 1
                    && (self.s[p - 1] == b'/' || self.s[p - 1] == b'*')
                    && self.s[p - 2] == b'/');
            if start_of_word && !word_start {
                if !self.advance() {
                    return false;
                }
                continue;
            }
            if finish_token {
                while self.pend < self.s.len()
                    && (self.s[self.pend].is_ascii_alphanumeric()
                        || self.s[self.pend] == b'-'
                        || self.s[self.pend] == b'_')
                {
                    self.pend += 1;
                }
                while self.pend > self.p + 1
                    && (self.s[self.pend - 1].is_ascii_digit() || self.s[self.pend - 1] == b'-')
                {
                    self.pend -= 1;
                }
            }
            return true;
        }
    }

    /// Finds the `close` that ends the `open` at the current nesting level.
    fn search_closing(&mut self, open: &[u8], close: &[u8]) -> bool {
        let mut depth = 1;
        let mut p = self.c;
        while p < self.s.len() {
            let rest = &self.s[p..];
            if rest.starts_with(open) {
                depth += 1;
                p += open.len();
            } else if rest.starts_with(close) {
                depth -= 1;
                if depth == 0 {
                    self.p = p;
                    self.pend = p + close.len();
                    return true;
                }
                p += close.len();
            } else {
                p += 1;
            }
        }
        false
    }

    fn advance(&mut self) -> bool {
        self.c = self.pend;
        self.c < self.s.len()
    }

    fn matched(&self) -> &'s [u8] {
        &self.s[self.p..self.pend.min(self.s.len())]
    }

    fn skip_ws(&mut self) {
        while self.c < self.s.len() && is_ws(self.s[self.c]) {
            self.c += 1;
        }
    }

    fn done(&self) -> bool {
        self.c >= self.s.len()
    }
}

struct ParseCtx<'a, 'b> {
    sm: &'a SourceMap,
    file: FileId,
    pos: Pos,
    prefixes: &'b [String],
    status: &'b mut Status,
    first_no_diag: &'b mut String,
    directives: &'b mut Vec<Directive>,
    errors: &'b mut Vec<ParseError>,
}

impl ParseCtx<'_, '_> {
    fn error_at(&mut self, offset: usize, message: String) {
        // The offset is into the (folded) comment; columns are approximate after folding.
        let loc = (self.pos.0, self.pos.1, self.pos.2 + offset as u32);
        self.errors.push(ParseError { loc, message });
    }

    /// Parses the location after `@`; `None` after reporting an error (the directive is
    /// dropped). On success the helper's last match ends the location.
    fn parse_at(&mut self, ph: &mut Helper<'_>, kind_str: &str) -> Option<At> {
        let mut loc: Option<Pos> = None;
        let mut any_line = false;
        let mut any_file = false;
        let plus = ph.next("+");
        if plus || ph.next("-") {
            ph.advance();
            if let Some(n) = ph.next_number()
                && (plus || n < self.pos.1)
            {
                let line = if plus {
                    self.pos.1.saturating_add(n)
                } else {
                    self.pos.1 - n
                };
                loc = Some((self.file, line, 1));
            }
        } else if let Some(n) = ph.next_number() {
            if n > 0 {
                loc = Some((self.file, n, 1));
            }
        } else if ph.search(":", false, false) {
            let name = String::from_utf8_lossy(&ph.s[ph.c..ph.p]).into_owned();
            ph.advance();
            if name == "*" {
                any_file = true;
                if !ph.next("*") {
                    self.error_at(
                        ph.c,
                        "missing or invalid line number following '@' in expected '*'".into(),
                    );
                    return None;
                }
                any_line = true;
            } else {
                let Some(fid) = find_file(self.sm, &name) else {
                    self.error_at(
                        ph.c,
                        format!("file '{name}' could not be located in expected {kind_str}"),
                    );
                    return None;
                };
                match ph.next_number() {
                    Some(n) if n > 0 => loc = Some((fid, n, 1)),
                    _ => {
                        if ph.next("*") {
                            any_line = true;
                            loc = Some((fid, 1, 1));
                        }
                    }
                }
            }
        } else if ph.next("*") {
            any_line = true;
        }
        if loc.is_none() && !any_line {
            self.error_at(
                ph.c,
                format!("missing or invalid line number following '@' in expected {kind_str}"),
            );
            return None;
        }
        Some(At {
            loc,
            any_line,
            any_file,
        })
    }

    /// clang's `ParseDirective` over one comment.
    fn parse(&mut self, text: &str) {
        let s = text.as_bytes();
        let mut ph = Helper::new(s);
        while !ph.done() {
            let found = if self.prefixes.len() == 1 {
                let p = self.prefixes[0].clone();
                ph.search(&p, true, true)
            } else {
                ph.search("", true, true)
            };
            if !found {
                break;
            }
            let token = String::from_utf8_lossy(ph.matched()).into_owned();
            ph.advance();

            let mut dtoken = token.as_str();
            let regex = match dtoken.strip_suffix("-re") {
                Some(rest) => {
                    dtoken = rest;
                    true
                }
                None => false,
            };
            let kind_str = if regex { "regex" } else { "string" };
            let mut kind = None;
            let mut no_diag = false;
            for (suffix, k) in [
                ("-error", Some(Kind::Error)),
                ("-warning", Some(Kind::Warning)),
                ("-remark", Some(Kind::Remark)),
                ("-note", Some(Kind::Note)),
                ("-no-diagnostics", None),
            ] {
                if let Some(rest) = dtoken.strip_suffix(suffix) {
                    dtoken = rest;
                    kind = k;
                    no_diag = k.is_none();
                    break;
                }
            }
            if kind.is_none() && !no_diag {
                continue;
            }
            if no_diag && regex {
                continue;
            }
            if self
                .prefixes
                .binary_search_by(|p| p.as_str().cmp(dtoken))
                .is_err()
            {
                continue;
            }
            if no_diag {
                if *self.status == Status::Other {
                    self.error_at(
                        0,
                        format!("'{token}' directive cannot follow other expected directives"),
                    );
                } else if *self.status != Status::NoDiagnostics {
                    *self.status = Status::NoDiagnostics;
                    *self.first_no_diag = token.clone();
                }
                continue;
            }
            if *self.status == Status::NoDiagnostics {
                let first = self.first_no_diag.clone();
                self.error_at(
                    0,
                    format!("'{token}' directive cannot follow '{first}' directive"),
                );
                continue;
            }
            *self.status = Status::Other;
            let Some(kind) = kind else { continue };

            // Optional location.
            let mut diag_loc = Some(self.pos);
            let mut any_line = false;
            let mut any_file = false;
            if ph.next("@") {
                ph.advance();
                match self.parse_at(&mut ph, kind_str) {
                    Some(at) => {
                        diag_loc = at.loc;
                        any_line = at.any_line;
                        any_file = at.any_file;
                    }
                    None => continue,
                }
                ph.advance();
            }

            ph.skip_ws();
            let mut min = 1u32;
            let mut max = 1u32;
            if let Some(n) = ph.next_number() {
                min = n;
                ph.advance();
                if ph.next("+") {
                    max = u32::MAX;
                    ph.advance();
                } else if ph.next("-") {
                    ph.advance();
                    match ph.next_number() {
                        Some(m) if m >= min => {
                            max = m;
                            ph.advance();
                        }
                        _ => {
                            self.error_at(
                                ph.c,
                                format!("invalid range following '-' in expected {kind_str}"),
                            );
                            continue;
                        }
                    }
                } else {
                    max = min;
                }
            } else if ph.next("+") {
                max = u32::MAX;
                ph.advance();
            }

            ph.skip_ws();
            if !ph.next("{{") {
                self.error_at(
                    ph.c,
                    format!("cannot find start ('{{{{') of expected {kind_str}"),
                );
                continue;
            }
            let delim_begin = ph.c;
            ph.advance();
            let mut close = b"}}".to_vec();
            while !regex && ph.next("{") {
                ph.advance();
                close.push(b'}');
            }
            let content_begin = ph.c;
            let open = s[delim_begin..content_begin].to_vec();
            if !ph.search_closing(&open, &close) {
                let close_s = String::from_utf8_lossy(&close).into_owned();
                self.error_at(
                    ph.c,
                    format!("cannot find end ('{close_s}') of expected {kind_str}"),
                );
                continue;
            }
            let content_end = ph.p;
            ph.advance();

            let content = &text[content_begin..content_end];
            let mut dtext = String::new();
            let mut cpos = 0;
            while let Some(f) = content[cpos..].find("\\n") {
                dtext.push_str(&content[cpos..cpos + f]);
                dtext.push('\n');
                cpos += f + 2;
            }
            if dtext.is_empty() {
                dtext = content.to_string();
            }
            if regex && !dtext.contains("{{") {
                self.error_at(
                    content_begin,
                    format!("cannot find start of regex ('{{{{') in {dtext}"),
                );
                return;
            }
            let matcher = if regex {
                match build_regex(&dtext) {
                    Ok(r) => Matcher::Regex(Some(r)),
                    Err(e) => {
                        self.error_at(content_begin, format!("invalid expected regex: {e}"));
                        Matcher::Regex(None)
                    }
                }
            } else {
                Matcher::Substring(dtext.clone())
            };
            self.directives.push(Directive {
                kind,
                spelling: token,
                text: dtext,
                matcher,
                min,
                max,
                directive_loc: self.pos,
                diag_loc,
                any_line,
                any_file,
            });
        }
    }
}

/// clang's `Directive::create` for `-re`: literal text outside `{{...}}`, patterns inside.
fn build_regex(text: &str) -> Result<Regex, String> {
    let mut parts = Vec::new();
    let mut s = text;
    while !s.is_empty() {
        if let Some(rest) = s.strip_prefix("{{") {
            let Some(end) = rest.find("}}") else {
                // clang asserts this cannot happen after the brace search; treat the rest
                // as a pattern.
                parts.push(RegexPart::Pattern(rest));
                break;
            };
            parts.push(RegexPart::Pattern(&rest[..end]));
            s = &rest[end + 2..];
        } else {
            let end = s.find("{{").unwrap_or(s.len());
            parts.push(RegexPart::Literal(&s[..end]));
            s = &s[end..];
        }
    }
    Regex::from_parts(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_syntax::Diagnostic;

    /// A diagnostic on 1-based `line` of file 0 (column 1).
    fn at(sm: &SourceMap, level: Level, line: u32, msg: &str) -> Reported {
        let f = sm.file(FileId(0)).unwrap();
        let mut off = 0u32;
        for (i, l) in f.text.split(|&b| b == b'\n').enumerate() {
            if i as u32 + 1 == line {
                break;
            }
            off += l.len() as u32 + 1;
        }
        let d = Diagnostic::new(level, Span::new(FileId(0), off, off + 1), msg);
        Reported {
            diag: d,
            option: None,
        }
    }

    fn run(src: &str, diags: &[(Level, u32, &str)], prefixes: Option<&str>) -> Vec<String> {
        let mut sm = SourceMap::new();
        sm.add_text("t.cl", src.to_string());
        let reported: Vec<Reported> = diags.iter().map(|&(l, n, m)| at(&sm, l, n, m)).collect();
        verify(&sm, &reported, &[], &parse_prefixes(prefixes).unwrap()).messages
    }

    #[test]
    fn simple_match_and_mismatch() {
        let src = "int x; // expected-error {{bad thing}}\n";
        assert!(run(src, &[(Level::Error, 1, "a bad thing here")], None).is_empty());
        let out = run(src, &[(Level::Error, 2, "other")], None);
        assert_eq!(
            out,
            vec![
                "'expected-error' diagnostics expected but not seen: \n  File t.cl Line 1: bad thing"
                    .to_string(),
                "'expected-error' diagnostics seen but not expected: \n  File t.cl Line 2: other"
                    .to_string(),
            ]
        );
    }

    #[test]
    fn relative_and_absolute_lines() {
        let src = "a\n// expected-warning@+1 {{w1}}\nb\n// expected-note@-3 {{n}} expected-error@5 {{e}}\n\n";
        let ok = run(
            src,
            &[
                (Level::Warning, 3, "w1"),
                (Level::Note, 1, "n"),
                (Level::Error, 5, "e"),
            ],
            None,
        );
        assert!(ok.is_empty(), "{ok:?}");
        let out = run(
            src,
            &[(Level::Warning, 3, "w1"), (Level::Note, 1, "n")],
            None,
        );
        assert_eq!(
            out,
            vec!["'expected-error' diagnostics expected but not seen: \n  File t.cl Line 5 (directive at t.cl:4): e".to_string()]
        );
    }

    #[test]
    fn counts() {
        let src = "x // expected-error 2 {{e}} expected-warning 0-1 {{w}} expected-note + {{n}}\n";
        let two = [
            (Level::Error, 1, "e"),
            (Level::Error, 1, "e"),
            (Level::Note, 1, "n"),
            (Level::Note, 1, "n"),
        ];
        assert!(run(src, &two, None).is_empty());
        let one = [(Level::Error, 1, "e"), (Level::Note, 1, "n")];
        assert_eq!(run(src, &one, None).len(), 1);
        let three = [
            (Level::Error, 1, "e"),
            (Level::Error, 1, "e"),
            (Level::Error, 1, "e"),
            (Level::Note, 1, "n"),
        ];
        assert_eq!(
            run(src, &three, None),
            vec![
                "'expected-error' diagnostics seen but not expected: \n  File t.cl Line 1: e"
                    .to_string()
            ]
        );
        let src2 = "x // expected-error 2+ {{e}}\n";
        assert!(run(src2, &three[..3], None).is_empty());
        assert_eq!(run(src2, &three[..1], None).len(), 1);
    }

    #[test]
    fn continuation_refers_to_first_line() {
        let src = "x; // expected-error {{first}} \\\n   // expected-error {{second}}\n";
        let d = [(Level::Error, 1, "first"), (Level::Error, 1, "second")];
        assert!(run(src, &d, None).is_empty());
    }

    #[test]
    fn block_comments_and_regex() {
        let src = "x; /* expected-error-re {{'__{{private|generic}} int *'}} */\n";
        assert!(
            run(
                src,
                &[(Level::Error, 1, "type '__generic int *' bad")],
                None
            )
            .is_empty()
        );
        assert_eq!(
            run(src, &[(Level::Error, 1, "type '__global int *' bad")], None).len(),
            2
        );
        let src2 = "x; // expected-error-re {{{{variable length|array size}} is}}\n";
        assert!(
            run(
                src2,
                &[(Level::Error, 1, "array size is not constant")],
                None
            )
            .is_empty()
        );
    }

    #[test]
    fn triple_braces_for_literal_braces() {
        let src = "x; // expected-error {{{a {{b}} c}}}\n";
        assert!(run(src, &[(Level::Error, 1, "a {{b}} c")], None).is_empty());
    }

    #[test]
    fn no_diagnostics_and_no_directives() {
        assert!(run("// expected-no-diagnostics\nint x;\n", &[], None).is_empty());
        assert_eq!(
            run("int x;\n", &[], None),
            vec![
                "no expected directives found: consider use of 'expected-no-diagnostics'"
                    .to_string()
            ]
        );
        let out = run(
            "// expected-no-diagnostics\nint x; // expected-error {{e}}\n",
            &[],
            None,
        );
        assert_eq!(
            out,
            vec!["'expected-error' diagnostics seen but not expected: \n  File t.cl Line 2: 'expected-error' directive cannot follow 'expected-no-diagnostics' directive".to_string()]
        );
    }

    #[test]
    fn custom_prefixes() {
        let src = "x; // foo-error {{a}} bar-note {{b}} expected-error {{c}}\n";
        assert!(
            run(
                src,
                &[(Level::Error, 1, "a"), (Level::Note, 1, "b")],
                Some("foo,bar")
            )
            .is_empty()
        );
        let out = run(src, &[(Level::Note, 1, "b")], Some("foo,bar"));
        assert_eq!(
            out,
            vec!["diagnostics with 'error' severity expected but not seen: \n  File t.cl Line 1 'foo-error': a".to_string()]
        );
        assert!(parse_prefixes(Some("1bad")).is_err());
        assert_eq!(parse_prefixes(Some("b,a,b")).unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn malformed_directives_are_errors() {
        let out = run("x; // expected-error bad\n", &[], None);
        assert_eq!(
            out,
            vec!["'expected-error' diagnostics seen but not expected: \n  File t.cl Line 1: cannot find start ('{{') of expected string".to_string()]
        );
        let out = run(
            "x; // expected-error-re {{x {{(}}}}\n// expected-error@-5 {{x}}\n",
            &[],
            None,
        );
        // The invalid regex matches nothing, so it is also expected but not seen.
        assert_eq!(out.len(), 2);
        assert!(out[0].contains("expected but not seen"), "{out:?}");
        assert!(
            out[1].contains("invalid expected regex: parentheses not balanced"),
            "{out:?}"
        );
        assert!(
            out[1].contains("missing or invalid line number following '@' in expected string"),
            "{out:?}"
        );
    }

    #[test]
    fn skipped_groups_are_ignored_and_frontend_diags() {
        let src = "#if 0\n// expected-error {{never}}\n#endif\n// expected-no-diagnostics\n";
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", src.to_string());
        let skipped = [Span::new(f, 6, 34)];
        assert!(verify(&sm, &[], &skipped, &parse_prefixes(None).unwrap()).passed());
        let w = Reported {
            diag: Diagnostic::warning(Span::DUMMY, "cmd"),
            option: None,
        };
        let r = verify(&sm, &[w], &skipped, &parse_prefixes(None).unwrap());
        assert_eq!(
            r.messages,
            vec![
                "'expected-warning' diagnostics seen but not expected: \n  (frontend): cmd"
                    .to_string()
            ]
        );
        assert_eq!(r.problems, 1);
    }

    #[test]
    fn any_line() {
        let src = "x; // expected-warning@* {{w}}\n";
        assert!(run(src, &[(Level::Warning, 7, "w")], None).is_empty());
        assert_eq!(
            run(src, &[], None),
            vec!["'expected-warning' diagnostics expected but not seen: \n  File * Line * (directive at t.cl:1): w".to_string()]
        );
    }

    #[test]
    fn comment_scanner_skips_strings() {
        let c = comments(b"a = \"// not\"; '/'; // yes\n/* b */ x");
        assert_eq!(c, vec![(19, 25), (26, 33)]);
    }
}
