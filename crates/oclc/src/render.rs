//! Clang's text diagnostic format, reproduced byte for byte: `FILE:LINE:COL: error: MESSAGE
//! [-Wgroup]`, the source line with a line-number gutter, the caret line (`^` at the location,
//! `~` under ranges), the fix-it insertion line, "expanded from macro" notes, attached notes,
//! and the `N warnings and M errors generated.` summary.
//!
//! This is a small renderer of its own rather than codespan-reporting, whose layout differs
//! from clang's (and oclc promises clang's output). It follows clang's `TextDiagnostic` and
//! `DiagnosticRenderer` for non-terminal output (no colours, no line wrapping).

use std::fmt::Write as _;

use oclc_syntax::{ExpnId, FileId, FixIt, Level, SourceFile, SourceMap, Span};

use crate::warnings::Reported;

/// clang's `-ftabstop` default.
const TAB_STOP: usize = 8;
/// clang's `-fmacro-backtrace-limit` default.
const MACRO_BACKTRACE_LIMIT: usize = 6;
/// clang's `-fcaret-diagnostics-max-lines` default.
const SNIPPET_LINE_LIMIT: u32 = 16;
/// clang stops printing snippets for longer lines.
const MAX_LINE_LENGTH_TO_PRINT: usize = 4096;

/// Renders diagnostics of one compilation to a string in clang's text format.
pub struct TextRenderer<'a> {
    sm: &'a SourceMap,
    out: String,
    /// Location (file, offset) and level of the last emitted diagnostic: clang skips a repeated
    /// snippet for the same location.
    last_loc: Option<(FileId, u32)>,
    last_level: Level,
    /// The include site of the file of the last located diagnostic (clang's
    /// `LastIncludeLoc`): the include stack is printed when it changes.
    last_include: Option<Span>,
}

impl<'a> TextRenderer<'a> {
    pub fn new(sm: &'a SourceMap) -> TextRenderer<'a> {
        TextRenderer {
            sm,
            // Room for a typical run's output, so that it is not grown line by line.
            out: String::with_capacity(16 * 1024),
            last_loc: None,
            last_level: Level::Note,
            last_include: None,
        }
    }

    /// clang's `emitIncludeStack`: "In file included from FILE:LINE:" lines, outermost
    /// first, when the diagnostic's file was included from somewhere other than the last
    /// one's (notes update the state but print nothing).
    fn include_stack(&mut self, file: FileId, level: Level) {
        let site = self.sm.include_site(file);
        if site == self.last_include {
            return;
        }
        self.last_include = site;
        if level == Level::Note {
            return;
        }
        let mut chain = Vec::new();
        let mut cur = site;
        while let Some(s) = cur {
            if chain.len() > 1024 || chain.contains(&s) {
                break;
            }
            chain.push(s);
            cur = self.sm.include_site(s.file);
        }
        for s in chain.iter().rev() {
            let Some(f) = self.sm.file(s.file) else {
                continue;
            };
            let (line, _) = f.line_col(s.lo);
            let (name, line) = self.sm.presumed(s.file, line);
            let _ = writeln!(self.out, "In file included from {name}:{line}:");
        }
    }

    /// Emits one diagnostic (after the warning policy), its macro backtrace and its notes.
    pub fn emit(&mut self, r: &Reported) {
        let d = &r.diag;
        let mut ranges: Vec<Span> = d.ranges.clone();
        ranges.extend(d.fixits.iter().map(|f| f.span));
        self.emit_one(
            d.level,
            &d.message,
            r.option.as_deref(),
            d.span,
            &ranges,
            &d.fixits,
        );
        for note in &d.notes {
            let mut ranges: Vec<Span> = note.ranges.clone();
            ranges.extend(note.fixits.iter().map(|f| f.span));
            self.emit_one(
                Level::Note,
                &note.message,
                None,
                note.span,
                &ranges,
                &note.fixits,
            );
        }
    }

    /// Emits a diagnostic with no location (`error: MESSAGE`).
    pub fn emit_plain(&mut self, level: Level, message: &str) {
        self.out.push_str(level.as_str());
        self.out.push_str(": ");
        self.out.push_str(message);
        self.out.push('\n');
        self.last_loc = None;
        self.last_level = level;
    }

    /// The rendered text so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn emit_one(
        &mut self,
        level: Level,
        message: &str,
        option: Option<&str>,
        span: Span,
        ranges: &[Span],
        fixits: &[FixIt],
    ) {
        let loc = self.file_loc(span);
        let Some((file, off)) = loc else {
            let msg = with_option(message, option);
            self.emit_plain(level, &msg);
            return;
        };
        let Some(f) = self.sm.file(file) else {
            let msg = with_option(message, option);
            self.emit_plain(level, &msg);
            return;
        };
        self.include_stack(file, level);
        let (line, col) = f.line_col(off);
        let (name, line) = self.sm.presumed(file, line);
        let _ = write!(self.out, "{name}:{line}:{col}: {}: ", level.as_str());
        self.out.push_str(message);
        if let Some(o) = option {
            self.out.push_str(" [");
            self.out.push_str(o);
            self.out.push(']');
        }
        self.out.push('\n');

        let fixits: Vec<(Span, &str)> = fixits
            .iter()
            .map(|fx| (self.sm.report_span(fx.span), fx.text.as_str()))
            .collect();
        let mapped_ranges: Vec<Span> = ranges
            .iter()
            .filter(|r| !r.is_dummy())
            .map(|&r| self.map_range(r))
            .filter(|r| r.file == file)
            .collect();
        let repeat = self.last_loc == Some((file, off))
            && mapped_ranges.is_empty()
            && fixits.is_empty()
            && (self.last_level != Level::Note || level == self.last_level);
        if !repeat {
            self.snippet(f, file, off, &mapped_ranges, &fixits);
        }
        if span.expn != ExpnId::NONE {
            self.macro_backtrace(span);
        }
        self.last_loc = Some((file, off));
        self.last_level = level;
    }

    /// The file location a diagnostic at `span` is reported at (the outermost macro use).
    fn file_loc(&self, span: Span) -> Option<(FileId, u32)> {
        if span.is_dummy() {
            return None;
        }
        let s = self.sm.report_span(span);
        if s.is_dummy() || self.sm.file(s.file).is_none() {
            return None;
        }
        Some((s.file, s.lo))
    }

    /// A range's file range: itself, or the macro use it came from.
    fn map_range(&self, r: Span) -> Span {
        if r.expn == ExpnId::NONE {
            r
        } else {
            self.sm.report_span(r)
        }
    }

    /// "expanded from macro" notes, outermost macro first; the middle of a long chain is
    /// elided as clang does.
    fn macro_backtrace(&mut self, span: Span) {
        // levels[k]: the span at expansion depth k (innermost first) and its macro's name.
        let mut levels: Vec<(Span, String)> = Vec::new();
        let mut s = span;
        while let Some(e) = self.sm.expansion(s.expn) {
            levels.push((s, e.macro_name.as_str().to_string()));
            s = e.call_site;
            if levels.len() > 10_000 {
                break;
            }
        }
        levels.reverse();
        let n = levels.len();
        if n <= MACRO_BACKTRACE_LIMIT {
            for (sp, name) in &levels {
                self.macro_note(*sp, name);
            }
            return;
        }
        let start = MACRO_BACKTRACE_LIMIT / 2;
        let end = MACRO_BACKTRACE_LIMIT / 2 + MACRO_BACKTRACE_LIMIT % 2;
        for (sp, name) in &levels[..start] {
            self.macro_note(*sp, name);
        }
        let skipped = n - start - end;
        self.emit_plain(
            Level::Note,
            &format!(
                "(skipping {skipped} expansions in backtrace; use -fmacro-backtrace-limit=0 to \
                 see all)"
            ),
        );
        for (sp, name) in &levels[n - end..] {
            self.macro_note(*sp, name);
        }
    }

    /// One "expanded from macro 'NAME'" note at the spelling location `sp`.
    fn macro_note(&mut self, sp: Span, name: &str) {
        let msg = format!("expanded from macro '{name}'");
        let Some(f) = self.sm.file(sp.file).filter(|_| !sp.is_dummy()) else {
            self.emit_plain(Level::Note, &msg);
            return;
        };
        self.include_stack(sp.file, Level::Note);
        let (line, col) = f.line_col(sp.lo);
        let (name, line) = self.sm.presumed(sp.file, line);
        let _ = writeln!(self.out, "{name}:{line}:{col}: note: {msg}");
        let repeat = self.last_loc == Some((sp.file, sp.lo));
        if !repeat {
            self.snippet(f, sp.file, sp.lo, &[], &[]);
        }
        self.last_loc = Some((sp.file, sp.lo));
        self.last_level = Level::Note;
    }

    /// The source lines, caret line and fix-it line for a caret at `off` in `file`.
    fn snippet(
        &mut self,
        f: &SourceFile,
        file: FileId,
        off: u32,
        ranges: &[Span],
        fixits: &[(Span, &str)],
    ) {
        let (caret_line, caret_col) = f.line_col(off);
        if caret_col as usize > MAX_LINE_LENGTH_TO_PRINT {
            return;
        }
        let mut lines = (caret_line, caret_line);
        let mut display_first = caret_line;
        for r in ranges {
            let b = f.line_col(r.lo).0;
            let e = f.line_col(r.hi.max(r.lo)).0;
            lines = maybe_add_range(lines, (b, e), SNIPPET_LINE_LIMIT);
            display_first = display_first.min(b);
        }
        // Line numbers as `#line` directives give them (as clang prints them).
        let shown = |l: u32| self.sm.presumed(file, l).1;
        let gutter = 4.max(num_width(shown(display_first) + SNIPPET_LINE_LIMIT));
        // Ranges split into per-line byte ranges (0-based, end exclusive).
        let mut line_ranges: Vec<(u32, usize, usize)> = Vec::new();
        for r in ranges {
            let (bl, bc) = f.line_col(r.lo);
            let (el, ec) = f.line_col(r.hi.max(r.lo));
            if bl > lines.1 || el < lines.0 {
                continue;
            }
            if bl == el {
                line_ranges.push((bl, bc as usize - 1, ec as usize - 1));
            } else {
                line_ranges.push((bl, bc as usize - 1, usize::MAX));
                for l in bl + 1..el {
                    line_ranges.push((l, 0, usize::MAX));
                }
                line_ranges.push((el, 0, ec as usize - 1));
            }
        }
        for line_no in lines.0..=lines.1 {
            // clang prints nothing for the empty "line" at the end of the buffer.
            let at_eof =
                line_no == f.line_count() && (f.text.is_empty() || f.text.ends_with(b"\n"));
            if line_no > f.line_count() || at_eof {
                break;
            }
            let full = f.line_bytes(line_no);
            let cut = full.iter().position(|&b| b == b'\r').unwrap_or(full.len());
            let mut src = &full[..cut];
            if src.len() > MAX_LINE_LENGTH_TO_PRINT {
                return;
            }
            // clang drops trailing NUL bytes (except up to the caret).
            while let Some((&0, rest)) = src.split_last() {
                if line_no == caret_line && src.len() <= caret_col as usize {
                    break;
                }
                src = rest;
            }
            let map = ColumnMap::new(src);
            let mut caret: Vec<u8> = Vec::new();
            for &(l, sb, eb) in &line_ranges {
                if l == line_no {
                    highlight_range(sb, eb, &map, src, &mut caret);
                }
            }
            if line_no == caret_line {
                let col = map.containing_column(caret_col as usize - 1);
                if caret.len() < col + 1 {
                    caret.resize(col + 1, b' ');
                }
                caret[col] = b'^';
            }
            let fix_line = fixit_line(f, file, line_no, &map, fixits);

            // Source line with gutter.
            let shown_no = shown(line_no);
            let w = num_width(shown_no);
            push_spaces(
                &mut self.out,
                (gutter as usize + 1).saturating_sub(w as usize),
            );
            let _ = write!(self.out, "{shown_no} | ");
            map.push_printable(&mut self.out);
            self.out.push('\n');
            if !caret.is_empty() {
                push_spaces(&mut self.out, gutter as usize + 2);
                self.out.push_str("| ");
                // Spaces, `^` and `~`, plus printable text from fix-its: UTF-8 unless a
                // fix-it's bytes were not.
                match std::str::from_utf8(&caret) {
                    Ok(c) => self.out.push_str(c),
                    Err(_) => self.out.push_str(&String::from_utf8_lossy(&caret)),
                }
                self.out.push('\n');
            }
            if !fix_line.is_empty() {
                push_spaces(&mut self.out, gutter as usize + 2);
                self.out.push_str("| ");
                self.out.push_str(&fix_line);
                self.out.push('\n');
            }
        }
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn with_option(message: &str, option: Option<&str>) -> String {
    match option {
        Some(o) => format!("{message} [{o}]"),
        None => message.to_string(),
    }
}

fn num_width(n: u32) -> u32 {
    let mut w = 1;
    let mut m = 10u64;
    while m <= u64::from(n) {
        w += 1;
        m *= 10;
    }
    w
}

/// clang's `maybeAddRange`: grows the inclusive line range `a` towards `b`, at most `max`
/// lines.
fn maybe_add_range(mut a: (u32, u32), b: (u32, u32), max: u32) -> (u32, u32) {
    let slack = max.saturating_sub(a.1 - a.0 + 1);
    if slack == 0 {
        return a;
    }
    let min = a.0.min(b.0);
    let mx = a.1.max(b.1);
    if mx - min < max {
        return (min, mx);
    }
    if (b.0 > a.0 && b.0 - a.0 + 1 > max) || (b.1 < a.1 && a.1 - b.1 + 1 > max) {
        return a;
    }
    a.1 = (a.1 + slack.div_ceil(2)).min(mx);
    let slack = max.saturating_sub(a.1 - a.0 + 1);
    a.0 = (min + slack).max(a.0) - slack;
    a.1 = (a.0 + max - 1).min(mx);
    a
}

/// Byte ↔ display-column map of one source line, with clang's printable forms: tabs expanded
/// to the tab stop, control characters as `<U+XXXX>`.
struct ColumnMap<'s> {
    src: &'s [u8],
    /// Display column of each byte offset (`usize::MAX` inside a multi-byte character); one
    /// extra entry for the end of the line.
    byte_to_col: Vec<usize>,
}

impl<'s> ColumnMap<'s> {
    fn new(src: &'s [u8]) -> ColumnMap<'s> {
        let mut byte_to_col = vec![usize::MAX; src.len() + 1];
        let mut col = 0;
        let mut i = 0;
        while i < src.len() {
            byte_to_col[i] = col;
            if (0x20..0x7f).contains(&src[i]) {
                col += 1;
                i += 1;
                continue;
            }
            let (text, next) = printable(src, i);
            col += display_width(&text);
            i = next;
        }
        byte_to_col[src.len()] = col;
        ColumnMap { src, byte_to_col }
    }

    fn len(&self) -> usize {
        self.src.len()
    }

    /// The column of the character containing byte `n` (clamped to the end of the line).
    fn containing_column(&self, n: usize) -> usize {
        let mut n = n.min(self.src.len());
        while n > 0 && self.byte_to_col[n] == usize::MAX {
            n -= 1;
        }
        self.byte_to_col[n]
    }

    fn next_char(&self, mut n: usize) -> usize {
        n += 1;
        while n < self.src.len() && self.byte_to_col[n] == usize::MAX {
            n += 1;
        }
        n.min(self.src.len())
    }

    fn prev_char(&self, mut n: usize) -> usize {
        n = n.saturating_sub(1);
        while n > 0 && self.byte_to_col[n] == usize::MAX {
            n -= 1;
        }
        n
    }

    fn push_printable(&self, out: &mut String) {
        // The common case: a line of printable ASCII is printed as it is.
        if self.src.iter().all(|b| (0x20..0x7f).contains(b))
            && let Ok(text) = std::str::from_utf8(self.src)
        {
            out.push_str(text);
            return;
        }
        let mut i = 0;
        while i < self.src.len() {
            i = push_printable(self.src, i, out);
        }
    }
}

/// The printed form of the character at byte `i` and the offset after it.
/// Appends the display form of the character at `src[i]` to `out` (no allocation for
/// printable ASCII, the common case); returns the index of the next character.
fn push_printable(src: &[u8], i: usize, out: &mut String) -> usize {
    if (0x20..0x7f).contains(&src[i]) {
        out.push(src[i] as char);
        return i + 1;
    }
    let (text, next) = printable(src, i);
    out.push_str(&text);
    next
}

fn printable(src: &[u8], i: usize) -> (String, usize) {
    let b = src[i];
    if b == b'\t' {
        let mut since = 0;
        let mut j = i;
        while j > 0 {
            j -= 1;
            if src[j] == b'\t' {
                break;
            }
            since += 1;
        }
        let n = TAB_STOP - since % TAB_STOP;
        return (" ".repeat(n), i + 1);
    }
    if b < 0x80 {
        if (0x20..0x7f).contains(&b) {
            return ((b as char).to_string(), i + 1);
        }
        return (format!("<U+{:04X}>", b), i + 1);
    }
    let len = match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    let end = (i + len).min(src.len());
    match std::str::from_utf8(&src[i..end]) {
        Ok(s) => {
            let c = s.chars().next().unwrap_or('\u{fffd}');
            if c.is_control() || is_format_char(c) {
                (format!("<U+{:04X}>", c as u32), end)
            } else {
                (s.to_string(), end)
            }
        }
        Err(_) => (format!("<{:02X}>", b), i + 1),
    }
}

/// Unicode format characters and line/paragraph separators, which clang's `isPrintable`
/// rejects and prints as `<U+XXXX>` (a byte order mark, zero-width spaces, bidi controls).
fn is_format_char(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x180E
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
    )
}

fn display_width(s: &str) -> usize {
    s.chars().count()
}

/// clang's `highlightRange`: `~` under the non-blank part of bytes `sb..eb` of the line.
fn highlight_range(sb: usize, eb: usize, map: &ColumnMap<'_>, src: &[u8], caret: &mut Vec<u8>) {
    let mut start = sb.min(map.len());
    while start < map.len() && (src[start] == b' ' || src[start] == b'\t') {
        start = map.next_char(start);
    }
    let mut end = eb.min(map.len());
    while end != 0 && (src[end - 1] == b' ' || src[end - 1] == b'\t') {
        end = map.prev_char(end);
    }
    if start > end {
        return;
    }
    let sc = map.containing_column(start);
    let ec = map.containing_column(end);
    if caret.len() < ec {
        caret.resize(ec, b' ');
    }
    for c in caret.iter_mut().take(ec).skip(sc) {
        *c = b'~';
    }
}

/// clang's `buildFixItInsertionLine`: inserted text under the place it goes.
fn fixit_line(
    f: &SourceFile,
    file: FileId,
    line_no: u32,
    map: &ColumnMap<'_>,
    fixits: &[(Span, &str)],
) -> String {
    let mut line: Vec<u8> = Vec::new();
    let mut prev_end = 0usize;
    for &(span, code) in fixits {
        if code.is_empty() || span.file != file || code.contains(['\n', '\r']) {
            continue;
        }
        let (l, c) = f.line_col(span.lo);
        if l != line_no {
            continue;
        }
        let mut col = map.containing_column(c as usize - 1);
        if col < prev_end {
            col = prev_end + 1;
        }
        let new_len = line.len() + (col - prev_end.min(col)) + code.len();
        if new_len > line.len() {
            line.resize(new_len, b' ');
        }
        let at = line.len() - code.len();
        line[at..].copy_from_slice(code.as_bytes());
        prev_end = col + code.chars().count();
    }
    // Expand tabs in the inserted text.
    let mut out = String::new();
    let mut i = 0;
    while i < line.len() {
        i = push_printable(&line, i, &mut out);
    }
    out
}

/// Error and warning counts as clang counts them for its summary (fatal errors are errors;
/// notes and remarks are not counted).
pub fn counts(reported: &[Reported]) -> (usize, usize) {
    let errors = reported
        .iter()
        .filter(|r| r.diag.level >= Level::Error)
        .count();
    let warnings = reported
        .iter()
        .filter(|r| r.diag.level == Level::Warning)
        .count();
    (errors, warnings)
}

/// clang's closing line: `1 warning and 2 errors generated.`; `None` when both are zero.
pub fn summary(errors: usize, warnings: usize) -> Option<String> {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    match (warnings, errors) {
        (0, 0) => None,
        (w, 0) => Some(format!("{} generated.", plural(w, "warning"))),
        (0, e) => Some(format!("{} generated.", plural(e, "error"))),
        (w, e) => Some(format!(
            "{} and {} generated.",
            plural(w, "warning"),
            plural(e, "error")
        )),
    }
}

/// Renders a whole compilation: every diagnostic, then the summary line.
pub fn render_text(sm: &SourceMap, reported: &[Reported]) -> String {
    let mut r = TextRenderer::new(sm);
    for d in reported {
        r.emit(d);
    }
    let mut out = r.finish();
    let (e, w) = counts(reported);
    if let Some(s) = summary(e, w) {
        out.push_str(&s);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_syntax::{Diagnostic, ExpnData};

    fn rep(d: Diagnostic) -> Reported {
        Reported {
            diag: d,
            option: None,
        }
    }

    #[test]
    fn caret_and_range() {
        let mut sm = SourceMap::new();
        let f = sm.add_text(
            "t.cl",
            "kernel void f() {\n  p = (local int*)p;\n}\n".into(),
        );
        // "(local int*)" starts at byte 18+6=24; the operand 'p' at 36.
        let line2 = 18;
        let d = Diagnostic::error(Span::new(f, line2 + 6, line2 + 7), "casting")
            .with_range(Span::new(f, line2 + 18, line2 + 19));
        let out = render_text(&sm, &[rep(d)]);
        assert_eq!(
            out,
            "t.cl:2:7: error: casting\n    2 |   p = (local int*)p;\n      |       ^           ~\n1 error generated.\n"
        );
    }

    #[test]
    fn tabs_and_fixit() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", "\treturn 3\n".into());
        let d = Diagnostic::error(Span::new(f, 9, 9), "expected ';' after return statement")
            .with_fixit(Span::new(f, 9, 9), ";");
        let out = render_text(&sm, &[rep(d)]);
        assert_eq!(
            out,
            "t.cl:1:10: error: expected ';' after return statement\n    1 |         return 3\n      |                 ^\n      |                 ;\n1 error generated.\n"
        );
    }

    #[test]
    fn macro_notes_outermost_first() {
        let mut sm = SourceMap::new();
        let text = "#define A undefined_var\n#define B A + 1\nint x = B;\n";
        let f = sm.add_text("t.cl", text.into());
        let b_use = Span::new(f, 48, 49);
        let eb = sm.add_expansion(ExpnData {
            macro_name: oclc_syntax::intern::Symbol::intern("B"),
            call_site: b_use,
            def_site: Span::new(f, 32, 33),
        });
        let a_in_b = Span {
            file: f,
            lo: 34,
            hi: 35,
            expn: eb,
        };
        let ea = sm.add_expansion(ExpnData {
            macro_name: oclc_syntax::intern::Symbol::intern("A"),
            call_site: a_in_b,
            def_site: Span::new(f, 8, 9),
        });
        let tok = Span {
            file: f,
            lo: 10,
            hi: 23,
            expn: ea,
        };
        let d = Diagnostic::error(tok, "use of undeclared identifier 'undefined_var'");
        let out = render_text(&sm, &[rep(d)]);
        assert_eq!(
            out,
            "t.cl:3:9: error: use of undeclared identifier 'undefined_var'\n    3 | int x = B;\n      |         ^\n\
             t.cl:2:11: note: expanded from macro 'B'\n    2 | #define B A + 1\n      |           ^\n\
             t.cl:1:11: note: expanded from macro 'A'\n    1 | #define A undefined_var\n      |           ^\n\
             1 error generated.\n"
        );
    }

    #[test]
    fn repeated_location_skips_snippet() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", "int x;\n".into());
        let a = Diagnostic::warning(Span::new(f, 4, 5), "first");
        let b = Diagnostic::warning(Span::new(f, 4, 5), "second");
        let out = render_text(&sm, &[rep(a), rep(b)]);
        assert_eq!(
            out,
            "t.cl:1:5: warning: first\n    1 | int x;\n      |     ^\nt.cl:1:5: warning: second\n2 warnings generated.\n"
        );
    }

    #[test]
    fn notes_and_option_suffix() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", "int x;\nint x;\n".into());
        let d = Diagnostic::error(Span::new(f, 11, 12), "redefinition of 'x'")
            .with_note(Span::new(f, 4, 5), "previous definition is here");
        let w = Reported {
            diag: Diagnostic::warning(Span::DUMMY, "cmdline"),
            option: Some("-Wfoo".into()),
        };
        let out = render_text(&sm, &[rep(d), w]);
        assert_eq!(
            out,
            "t.cl:2:5: error: redefinition of 'x'\n    2 | int x;\n      |     ^\n\
             t.cl:1:5: note: previous definition is here\n    1 | int x;\n      |     ^\n\
             warning: cmdline [-Wfoo]\n1 warning and 1 error generated.\n"
        );
    }

    #[test]
    fn multi_line_range_and_big_line_numbers() {
        let mut sm = SourceMap::new();
        let mut text = "\n".repeat(99_999);
        text.push_str("a +\n  b;\n");
        let f = sm.add_text("t.cl", text);
        let lo = 99_999u32;
        let d = Diagnostic::error(Span::new(f, lo + 2, lo + 3), "bad").with_range(Span::new(
            f,
            lo,
            lo + 8,
        ));
        let out = render_text(&sm, &[rep(d)]);
        assert_eq!(
            out,
            "t.cl:100000:3: error: bad\n 100000 | a +\n        | ~~^\n 100001 |   b;\n        |   ~~\n1 error generated.\n"
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", "a\u{1}b x\n".into());
        let d = Diagnostic::error(Span::new(f, 4, 5), "e");
        let out = render_text(&sm, &[rep(d)]);
        assert!(
            out.contains("    1 | a<U+0001>b x\n      |            ^\n"),
            "{out}"
        );
    }

    #[test]
    fn no_snippet_at_end_of_buffer() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", "int x;\n".into());
        let d = Diagnostic::error(Span::new(f, 7, 7), "at eof");
        assert_eq!(
            render_text(&sm, &[rep(d)]),
            "t.cl:2:1: error: at eof\n1 error generated.\n"
        );
    }

    #[test]
    fn summaries() {
        assert_eq!(summary(0, 0), None);
        assert_eq!(summary(1, 0).as_deref(), Some("1 error generated."));
        assert_eq!(summary(0, 2).as_deref(), Some("2 warnings generated."));
        assert_eq!(
            summary(2, 1).as_deref(),
            Some("1 warning and 2 errors generated.")
        );
    }
}
