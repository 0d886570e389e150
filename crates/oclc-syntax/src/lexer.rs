//! The lexer: bytes of one file to preprocessing tokens, as clang's lexer does for OpenCL C
//! (C99 with digraphs and `$` in identifiers).
//!
//! Line splices (backslash-newline) may appear anywhere; token spans always cover the original
//! bytes, and spellings have the splices removed.

use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics};
use crate::fnv::{START as FNV_START, step as fnv_step};
use crate::intern::Symbol;
use crate::source::{FileId, Span};
use crate::token::{Punct, Token, TokenKind};

/// Lexes one file's bytes into preprocessing tokens. The bytes need not be UTF-8: string and
/// character literals keep invalid ones (as clang does), elsewhere they are an error.
pub struct Lexer {
    text: Arc<[u8]>,
    pos: usize,
    file: FileId,
    at_line_start: bool,
    /// Raw mode (skipped `#if` groups): no diagnostics, as in clang.
    pub raw: bool,
    /// Whitespace already skipped by `next_is_line_start`, owed to the next token.
    space_owed: bool,
    /// Diagnostics found while computing a spelling, reported with the token.
    deferred: Vec<Diagnostic>,
    /// Direct-mapped cache of recent spellings, sparing the global interner's lock and hash:
    /// [`CacheEntry`].
    cache: Vec<CacheEntry>,
    /// Entries `cache` gets when first used (a power of two).
    cache_len: usize,
}

/// A spelling-cache slot: the symbol's number and its text, `None` for an empty slot. An
/// all-zero value, so a new cache is zeroed memory from the allocator that the lexer
/// touches only where it stores (an `Option<(Symbol, &str)>` slot had to be written out:
/// up to 96 KiB per file).
type CacheEntry = (u32, Option<&'static str>);

/// Largest spelling cache (entries, a power of two); small files get smaller ones.
const CACHE_SIZE: usize = 4096;

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident_cont(b: u8) -> bool {
    IDENT_CONT[usize::from(b)]
}

/// [`is_ident_cont`] by byte: the lexer's innermost test, one load.
static IDENT_CONT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    t
};

/// Bytes at which [`Lexer::skip_line_tokens`] looks closer: a newline, a possible comment,
/// a splice, a quote.
static LINE_SCAN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\n' as usize] = true;
    t[b'/' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'"' as usize] = true;
    t
};

/// The punctuator of each byte that is a whole punctuator whatever follows it.
static SINGLE_PUNCT: [Option<Punct>; 256] = {
    let mut t = [None; 256];
    t[b'(' as usize] = Some(Punct::LParen);
    t[b')' as usize] = Some(Punct::RParen);
    t[b'[' as usize] = Some(Punct::LBracket);
    t[b']' as usize] = Some(Punct::RBracket);
    t[b'{' as usize] = Some(Punct::LBrace);
    t[b'}' as usize] = Some(Punct::RBrace);
    t[b'~' as usize] = Some(Punct::Tilde);
    t[b'?' as usize] = Some(Punct::Question);
    t[b';' as usize] = Some(Punct::Semi);
    t[b',' as usize] = Some(Punct::Comma);
    t
};

/// Characters clang accepts in identifiers beyond ASCII (C99/C11 extended identifier chars,
/// approximated by Unicode alphanumerics).
fn is_unicode_ident(c: char) -> bool {
    c.is_alphanumeric() && c != '\u{FFFD}'
}

impl Lexer {
    pub fn new(file: FileId, text: Arc<[u8]>) -> Lexer {
        let text_len = text.len();
        // A UTF-8 byte order mark is skipped, as clang skips it (columns still count it).
        let pos = if text.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Lexer {
            text,
            pos,
            file,
            at_line_start: true,
            raw: false,
            space_owed: false,
            deferred: Vec::new(),
            cache: Vec::new(),
            cache_len: (text_len / 32).next_power_of_two().clamp(64, CACHE_SIZE),
        }
    }

    /// A lexer whose spelling cache has `entries` slots (rounded to a power of two), for
    /// text of which only a few tokens are read.
    pub fn with_cache(file: FileId, text: Arc<[u8]>, entries: usize) -> Lexer {
        let mut l = Lexer::new(file, text);
        l.cache_len = entries.next_power_of_two().clamp(1, CACHE_SIZE);
        l
    }

    /// Continues at byte `pos`, which must start a line (clamped to the end of the text).
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
        self.at_line_start = true;
        self.space_owed = false;
        self.deferred.clear();
    }

    #[inline]
    fn src(&self) -> &[u8] {
        &self.text
    }

    /// The character at byte `p`; `None` where the bytes there are not UTF-8.
    fn char_at(&self, p: usize) -> Option<char> {
        let b = *self.text.get(p)?;
        if b < 0x80 {
            return Some(char::from(b));
        }
        let end = (p + utf8_len(b)).min(self.text.len());
        std::str::from_utf8(self.text.get(p..end)?)
            .ok()?
            .chars()
            .next()
    }

    /// Skips whitespace and comments; true when the next token starts a new line (or at EOF).
    pub fn next_is_line_start(&mut self, diags: &mut Diagnostics) -> bool {
        if self.skip_trivia(diags) {
            self.space_owed = true;
        }
        self.at_line_start || self.at_end(self.pos)
    }

    /// Byte offset of the next unread byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn file(&self) -> FileId {
        self.file
    }

    fn byte(&self, p: usize) -> u8 {
        self.src().get(p).copied().unwrap_or(0)
    }

    fn at_end(&self, p: usize) -> bool {
        p >= self.src().len()
    }

    /// Skips any line splices at `p`; returns the position of the next real character.
    #[inline]
    fn splice(&self, mut p: usize) -> usize {
        while self.byte(p) == b'\\' {
            match self.splice_len(p) {
                Some(n) => p += n,
                None => break,
            }
        }
        p
    }

    /// Length of a backslash-newline at `p` (clang also accepts spaces between them).
    fn splice_len(&self, p: usize) -> Option<usize> {
        let mut q = p + 1;
        while matches!(self.byte(q), b' ' | b'\t' | b'\x0b' | b'\x0c') {
            q += 1;
        }
        match self.byte(q) {
            b'\n' => Some(q + 1 - p),
            b'\r' => Some(if self.byte(q + 1) == b'\n' {
                q + 2 - p
            } else {
                q + 1 - p
            }),
            _ => None,
        }
    }

    /// The character at `p` (after splices) and the position after it.
    #[inline]
    fn peek(&self, p: usize) -> (u8, usize) {
        let p = self.splice(p);
        (self.byte(p), p + 1)
    }

    fn diag(&self, diags: &mut Diagnostics, d: Diagnostic) {
        if !self.raw {
            diags.push(d);
        }
    }

    fn span(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.file, lo as u32, hi as u32)
    }

    /// The spelling of `lo..hi` with line splices removed.
    /// clang's warning for a splice of the form backslash, blanks, newline.
    fn check_splice_space(&mut self, p: usize, n: usize) {
        let nl = if self.byte(p + n - 1) == b'\n' && self.byte(p + n - 2) == b'\r' {
            2
        } else {
            1
        };
        if n > 1 + nl && !self.raw {
            self.deferred.push(
                Diagnostic::warning(
                    self.span(p, p + 1),
                    "backslash and newline separated by space",
                )
                .with_group("backslash-newline-escape"),
            );
        }
    }

    /// The spelling of `lo..hi` with splices removed; bytes that are not UTF-8 (only in
    /// tokens that are errors already) become U+FFFD.
    fn spelling(&mut self, lo: usize, hi: usize) -> Symbol {
        let raw = self.text.get(lo..hi).unwrap_or(b"");
        if !raw.contains(&b'\\')
            && let Ok(t) = std::str::from_utf8(raw)
        {
            return intern_cached(&mut self.cache, self.cache_len, t);
        }
        let mut s = String::with_capacity(raw.len());
        let mut p = lo;
        while p < hi {
            if self.byte(p) == b'\\'
                && let Some(n) = self.splice_len(p)
            {
                self.check_splice_space(p, n);
                p += n;
                continue;
            }
            match self.char_at(p) {
                Some(c) => {
                    s.push(c);
                    p += c.len_utf8();
                }
                None => {
                    s.push(char::REPLACEMENT_CHARACTER);
                    p += 1;
                }
            }
        }
        Symbol::intern(&s)
    }

    /// The spelling of the literal `lo..hi` (splices removed). Bytes that are not UTF-8 are
    /// kept, as clang keeps them: each becomes an octal escape (`\\377`), which decodes to
    /// the same byte; clang's warning (an error for `L` literals) names the first in each
    /// run of characters between escapes.
    fn literal_spelling(&mut self, lo: usize, hi: usize, diags: &mut Diagnostics) -> Symbol {
        let raw = self.text.get(lo..hi).unwrap_or(b"");
        if let Ok(t) = std::str::from_utf8(raw)
            && !t.contains('\\')
        {
            return intern_cached(&mut self.cache, self.cache_len, t);
        }
        let wide = raw.first() == Some(&b'L');
        let string = raw.starts_with(b"\"") || raw.starts_with(b"L\"");
        let what = if string { "string" } else { "character" };
        let mut s = String::with_capacity(raw.len() + 8);
        // After an escaping backslash (its escaped character comes next); whether the run
        // since the last escape was diagnosed.
        let (mut escaping, mut run_reported) = (false, false);
        let mut p = lo;
        while p < hi {
            if self.byte(p) == b'\\'
                && let Some(n) = self.splice_len(p)
            {
                self.check_splice_space(p, n);
                p += n;
                continue;
            }
            match self.char_at(p) {
                Some(c) => {
                    // An escape ends a run of a string (clang diagnoses each run).
                    if c == '\\' && !escaping && string {
                        run_reported = false;
                    }
                    escaping = c == '\\' && !escaping;
                    s.push(c);
                    p += c.len_utf8();
                }
                None => {
                    let b = self.byte(p);
                    if escaping {
                        // `\<FF>`: the escape's character is the byte itself.
                        s.push_str(&format!("{b:03o}"));
                    } else {
                        s.push_str(&format!("\\{b:03o}"));
                    }
                    escaping = false;
                    // clang reports a character literal once, at its start.
                    let at = if string { p } else { lo };
                    if !run_reported {
                        run_reported = true;
                        let msg = format!("illegal character encoding in {what} literal");
                        let d = if wide {
                            Diagnostic::error(self.span(at, at + 1), msg)
                        } else {
                            Diagnostic::warning(self.span(at, at + 1), msg)
                                .with_group("invalid-source-encoding")
                        };
                        self.diag(diags, d);
                    }
                    p += 1;
                }
            }
        }
        Symbol::intern(&s)
    }
}

/// Interns `s` through a direct-mapped cache of recent spellings.
fn intern_cached(cache: &mut Vec<CacheEntry>, len: usize, s: &str) -> Symbol {
    let h = s.bytes().fold(FNV_START, fnv_step);
    intern_hashed(cache, len, s, h)
}

/// [`intern_cached`] with the hash of `s` already computed.
fn intern_hashed(cache: &mut Vec<CacheEntry>, len: usize, s: &str, h: u32) -> Symbol {
    intern_bytes_hashed(cache, len, s.as_bytes(), h).unwrap_or_else(|| Symbol::intern(s))
}

/// [`intern_hashed`] for bytes: a cache hit needs no UTF-8 check; `None` when the bytes
/// missed the cache and are not UTF-8.
fn intern_bytes_hashed(
    cache: &mut Vec<CacheEntry>,
    len: usize,
    b: &[u8],
    h: u32,
) -> Option<Symbol> {
    if cache.is_empty() {
        *cache = vec![(0, None); len];
    }
    let slot = (h as usize) & (cache.len() - 1);
    if let Some(&(sym, Some(text))) = cache.get(slot)
        && text.as_bytes() == b
    {
        return Some(Symbol(sym));
    }
    let sym = Symbol::intern(std::str::from_utf8(b).ok()?);
    if let Some(e) = cache.get_mut(slot) {
        *e = (sym.0, Some(sym.as_str()));
    }
    Some(sym)
}

impl Lexer {
    /// Skips whitespace and comments; returns whether any was skipped.
    fn skip_trivia(&mut self, diags: &mut Diagnostics) -> bool {
        let mut skipped = false;
        loop {
            let b = self.byte(self.pos);
            match b {
                b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r' => {
                    self.pos += 1;
                    skipped = true;
                }
                b'\n' => {
                    self.pos += 1;
                    self.at_line_start = true;
                    skipped = true;
                }
                b'\\' => match self.splice_len(self.pos) {
                    Some(n) => {
                        self.check_splice_space(self.pos, n);
                        self.pos += n;
                    }
                    None => return skipped,
                },
                b'/' => {
                    let (c, after) = self.peek(self.pos + 1);
                    if c == b'/' {
                        self.skip_line_comment(after);
                        skipped = true;
                    } else if c == b'*' {
                        self.skip_block_comment(after, diags);
                        skipped = true;
                    } else {
                        return skipped;
                    }
                }
                0 if !self.at_end(self.pos) => {
                    self.diag(
                        diags,
                        Diagnostic::warning(
                            self.span(self.pos, self.pos + 1),
                            "null character ignored",
                        )
                        .with_group("null-character"),
                    );
                    self.pos += 1;
                    skipped = true;
                }
                _ => return skipped,
            }
        }
    }

    fn skip_line_comment(&mut self, mut p: usize) {
        loop {
            match memchr2(b'\n', b'\\', &self.src()[p.min(self.src().len())..]) {
                None => {
                    self.pos = self.src().len();
                    return;
                }
                Some(i) => {
                    p += i;
                    if self.src()[p] == b'\\' {
                        p += self.splice_len(p).unwrap_or(1);
                    } else {
                        // Leave the newline for skip_trivia to set at_line_start.
                        self.pos = p;
                        return;
                    }
                }
            }
        }
    }

    fn skip_block_comment(&mut self, start: usize, diags: &mut Diagnostics) {
        let open = start.saturating_sub(2);
        let mut p = start;
        loop {
            let Some(i) = memchr2(b'*', b'/', &self.src()[p.min(self.src().len())..]) else {
                self.diag(
                    diags,
                    Diagnostic::error(self.span(open, open + 2), "unterminated /* comment"),
                );
                self.pos = self.src().len();
                return;
            };
            p += i;
            let (c, after) = self.peek(p + 1);
            if self.src()[p] == b'*' {
                if c == b'/' {
                    self.pos = after;
                    return;
                }
            } else if c == b'*' && self.peek(after).0 != b'/' {
                self.diag(
                    diags,
                    Diagnostic::warning(self.span(p, p + 1), "'/*' within block comment")
                        .with_group("comment"),
                );
            }
            p += 1;
        }
    }

    /// Lexes the next token; at the end of the file returns `Eof` (repeatedly).
    pub fn next_token(&mut self, diags: &mut Diagnostics) -> Token {
        loop {
            let leading_space = self.skip_trivia(diags) | std::mem::take(&mut self.space_owed);
            if !self.deferred.is_empty() {
                diags.list.append(&mut self.deferred);
            }
            let at_line_start = self.at_line_start;
            let lo = self.pos;
            if self.at_end(lo) {
                return Token {
                    kind: TokenKind::Eof,
                    span: self.span(lo, lo),
                    at_line_start: true,
                    leading_space,
                };
            }
            let kind = match self.lex_kind(diags) {
                Some(k) => k,
                None => continue,
            };
            self.at_line_start = false;
            if !self.deferred.is_empty() {
                diags.list.append(&mut self.deferred);
            }
            return Token {
                kind,
                span: self.span(lo, self.pos),
                at_line_start,
                leading_space,
            };
        }
    }

    /// What calling [`Lexer::next_token`] until a `#` that starts a line (or `Eof`) would
    /// return, without building the tokens in between: the lines of a skipped `#if` group are
    /// only scanned for comments, literals and splices, which decide where lines and tokens
    /// start. Raw mode only (tokens skipped this way report nothing). At the end, the `Eof`
    /// token's `leading_space` may differ from token lexing's (blanks were skipped as text).
    pub fn skip_to_line_hash(&mut self, diags: &mut Diagnostics) -> Token {
        loop {
            let leading_space = self.skip_trivia(diags) | std::mem::take(&mut self.space_owed);
            if !self.deferred.is_empty() {
                diags.list.append(&mut self.deferred);
            }
            let lo = self.pos;
            if self.at_end(lo) {
                return Token {
                    kind: TokenKind::Eof,
                    span: self.span(lo, lo),
                    at_line_start: true,
                    leading_space,
                };
            }
            if self.at_line_start
                && matches!(self.byte(lo), b'#' | b'%')
                && let Some((Punct::Hash, after)) = self.lex_punct(lo)
            {
                self.pos = after;
                self.at_line_start = false;
                return Token {
                    kind: TokenKind::Punct(Punct::Hash),
                    span: self.span(lo, after),
                    at_line_start: true,
                    leading_space,
                };
            }
            self.at_line_start = false;
            self.skip_line_tokens();
        }
    }

    /// Moves past the tokens that follow on this line, up to a newline, a comment or the end
    /// (left for [`Lexer::skip_trivia`]); literals are jumped as [`Lexer::lex_quoted`] ends
    /// them, so a quote or `/*` inside one changes nothing.
    fn skip_line_tokens(&mut self) {
        let text = &*self.text;
        let mut p = self.pos;
        loop {
            while let Some(&b) = text.get(p) {
                if LINE_SCAN_STOP[usize::from(b)] {
                    break;
                }
                p += 1;
            }
            match text.get(p) {
                None | Some(b'\n') => break,
                Some(b'/') => {
                    let (c, _) = self.peek(p + 1);
                    if c == b'/' || c == b'*' {
                        break;
                    }
                    p += 1;
                }
                Some(b'\\') => p += self.splice_len(p).unwrap_or(1),
                Some(&q) => p = self.skip_literal(p + 1, q),
            }
        }
        self.pos = p;
    }

    /// The end of a literal whose opening `quote` is just before `p`, as [`Lexer::lex_quoted`]
    /// finds it: after the closing quote, or at the end of the line when there is none.
    fn skip_literal(&self, mut p: usize, quote: u8) -> usize {
        loop {
            let q = self.splice(p);
            let b = self.byte(q);
            if self.at_end(q) || b == b'\n' || b == b'\r' {
                return q;
            }
            if b == b'\\' {
                p = self.peek(q + 1).1;
                continue;
            }
            p = q + 1;
            if b == quote {
                return p;
            }
        }
    }

    /// Lexes one token starting at `self.pos`; `None` when the bytes were dropped (invalid UTF-8).
    fn lex_kind(&mut self, diags: &mut Diagnostics) -> Option<TokenKind> {
        let lo = self.pos;
        let b = self.byte(lo);
        // Punctuators that are always one character: no look-ahead.
        if let Some(p) = SINGLE_PUNCT[usize::from(b)] {
            self.pos = lo + 1;
            return Some(TokenKind::Punct(p));
        }
        if b == b'L' {
            let (b1, p1) = self.peek(lo + 1);
            if b1 == b'\'' || b1 == b'"' {
                return Some(self.lex_quoted(lo, p1, b1, diags));
            }
        }
        if is_ident_start(b) || b >= 0x80 && self.unicode_ident_at(lo) {
            return Some(self.lex_ident(lo));
        }
        if b.is_ascii_digit() || (b == b'.' && self.peek(lo + 1).0.is_ascii_digit()) {
            return Some(self.lex_number(lo));
        }
        if b == b'\'' || b == b'"' {
            return Some(self.lex_quoted(lo, lo + 1, b, diags));
        }
        if b >= 0x80 {
            let Some(c) = self.char_at(lo) else {
                // As clang: the byte is reported and dropped.
                self.pos = lo + 1;
                self.diag(
                    diags,
                    Diagnostic::error(self.span(lo, self.pos), "source file is not valid UTF-8"),
                );
                return None;
            };
            self.pos = lo + c.len_utf8();
            self.diag(
                diags,
                Diagnostic::error(
                    self.span(lo, self.pos),
                    format!("unexpected character <U+{:04X}>", c as u32),
                ),
            );
            return Some(TokenKind::Unknown(self.spelling(lo, self.pos)));
        }
        if let Some((p, after)) = self.lex_punct(lo) {
            self.pos = after;
            return Some(TokenKind::Punct(p));
        }
        self.pos = lo + 1;
        Some(TokenKind::Unknown(self.spelling(lo, self.pos)))
    }

    fn unicode_ident_at(&self, p: usize) -> bool {
        self.char_at(p).is_some_and(is_unicode_ident)
    }

    fn lex_ident(&mut self, lo: usize) -> TokenKind {
        // Most identifiers are plain ASCII ending before a byte that cannot continue them: one
        // pass finds the end and hashes the spelling.
        let src = &*self.text;
        let mut p = lo;
        let mut h = FNV_START;
        while let Some(&b) = src.get(p).filter(|&&b| is_ident_cont(b)) {
            h = fnv_step(h, b);
            p += 1;
        }
        let next = src.get(p).copied().unwrap_or(0);
        if next != b'\\'
            && next < 0x80
            && let Some(sym) = src
                .get(lo..p)
                .and_then(|b| intern_bytes_hashed(&mut self.cache, self.cache_len, b, h))
        {
            self.pos = p;
            return TokenKind::Ident(sym);
        }
        let mut p = lo;
        loop {
            let b = self.byte(p);
            if is_ident_cont(b) {
                p += 1;
            } else if b == b'\\' {
                match self.splice_len(p) {
                    Some(n) if is_ident_cont(self.byte(self.splice(p + n))) => p += n,
                    _ => break,
                }
            } else if b >= 0x80 && self.unicode_ident_at(p) {
                p += utf8_len(b);
            } else {
                break;
            }
        }
        self.pos = p;
        TokenKind::Ident(self.spelling(lo, p))
    }

    fn lex_number(&mut self, lo: usize) -> TokenKind {
        // As identifiers: a plain ASCII number ending before anything but a splice is
        // scanned and hashed in one pass.
        let src = &*self.text;
        let mut p = lo;
        let mut h = FNV_START;
        let mut prev = 0u8;
        while let Some(&b) = src.get(p) {
            let exp_sign = (b == b'+' || b == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
            if !(is_ident_cont(b) || b == b'.' || exp_sign) {
                break;
            }
            h = fnv_step(h, b);
            prev = b;
            p += 1;
        }
        let next = src.get(p).copied().unwrap_or(0);
        if p > lo
            && next != b'\\'
            && next < 0x80
            && let Some(sym) = src
                .get(lo..p)
                .and_then(|b| intern_bytes_hashed(&mut self.cache, self.cache_len, b, h))
        {
            self.pos = p;
            return TokenKind::Number(sym);
        }
        let mut p = lo + 1;
        let mut prev = self.byte(lo);
        loop {
            let q = self.splice(p);
            let b = self.byte(q);
            let exp_sign = (b == b'+' || b == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
            if is_ident_cont(b) || b == b'.' || exp_sign {
                prev = b;
                p = q + 1;
            } else {
                break;
            }
        }
        self.pos = p;
        TokenKind::Number(self.spelling(lo, p))
    }

    /// Lexes a character constant or string literal whose opening quote is just before `p`.
    fn lex_quoted(
        &mut self,
        lo: usize,
        mut p: usize,
        quote: u8,
        diags: &mut Diagnostics,
    ) -> TokenKind {
        let content_start = p;
        let mut has_nul = false;
        loop {
            let q = self.splice(p);
            let b = self.byte(q);
            has_nul |= b == 0 && !self.at_end(q);
            if self.at_end(q) || b == b'\n' || b == b'\r' {
                self.pos = q;
                let which = if quote == b'"' { "'\"'" } else { "'" };
                self.diag(
                    diags,
                    Diagnostic::warning(
                        self.span(lo, lo + 1),
                        format!("missing terminating {which} character"),
                    )
                    .with_group("invalid-pp-token"),
                );
                return TokenKind::Unknown(self.spelling(lo, q));
            }
            if b == b'\\' {
                let (_, after) = self.peek(q + 1);
                p = after;
                continue;
            }
            p = q + 1;
            if b == quote {
                break;
            }
        }
        self.pos = p;
        if quote == b'\'' && self.splice(content_start) + 1 == p {
            self.diag(
                diags,
                Diagnostic::warning(self.span(lo, p), "empty character constant")
                    .with_group("invalid-pp-token"),
            );
            return TokenKind::Unknown(self.spelling(lo, p));
        }
        if has_nul {
            let what = if quote == b'"' { "string" } else { "char" };
            self.diag(
                diags,
                Diagnostic::warning(
                    self.span(lo, lo + 1),
                    format!("null character(s) preserved in {what} literal"),
                )
                .with_group("null-character"),
            );
        }
        let sym = self.literal_spelling(lo, p, diags);
        if quote == b'"' {
            TokenKind::Str(sym)
        } else {
            TokenKind::Char(sym)
        }
    }

    /// Longest-match punctuator at `lo` (digraphs included); the punctuator and the end offset.
    fn lex_punct(&self, lo: usize) -> Option<(Punct, usize)> {
        use Punct::*;
        let b0 = self.byte(lo);
        let (b1, p1) = self.peek(lo + 1);
        let (b2, p2) = self.peek(p1);
        let one = |p: Punct| Some((p, lo + 1));
        let two = |p: Punct| Some((p, p1));
        let three = |p: Punct| Some((p, p2));
        match b0 {
            b'(' => one(LParen),
            b')' => one(RParen),
            b'[' => one(LBracket),
            b']' => one(RBracket),
            b'{' => one(LBrace),
            b'}' => one(RBrace),
            b'~' => one(Tilde),
            b'?' => one(Question),
            b';' => one(Semi),
            b',' => one(Comma),
            b'.' => {
                if b1 == b'.' && b2 == b'.' {
                    three(Ellipsis)
                } else {
                    one(Dot)
                }
            }
            b'-' => match b1 {
                b'>' => two(Arrow),
                b'-' => two(MinusMinus),
                b'=' => two(MinusEq),
                _ => one(Minus),
            },
            b'+' => match b1 {
                b'+' => two(PlusPlus),
                b'=' => two(PlusEq),
                _ => one(Plus),
            },
            b'&' => match b1 {
                b'&' => two(AmpAmp),
                b'=' => two(AmpEq),
                _ => one(Amp),
            },
            b'|' => match b1 {
                b'|' => two(PipePipe),
                b'=' => two(PipeEq),
                _ => one(Pipe),
            },
            b'*' => {
                if b1 == b'=' {
                    two(StarEq)
                } else {
                    one(Star)
                }
            }
            b'/' => {
                if b1 == b'=' {
                    two(SlashEq)
                } else {
                    one(Slash)
                }
            }
            b'^' => {
                if b1 == b'=' {
                    two(CaretEq)
                } else {
                    one(Caret)
                }
            }
            b'!' => {
                if b1 == b'=' {
                    two(Ne)
                } else {
                    one(Bang)
                }
            }
            b'=' => {
                if b1 == b'=' {
                    two(EqEq)
                } else {
                    one(Eq)
                }
            }
            b':' => {
                if b1 == b'>' {
                    two(RBracket)
                } else {
                    one(Colon)
                }
            }
            b'#' => {
                if b1 == b'#' {
                    two(HashHash)
                } else {
                    one(Hash)
                }
            }
            b'%' => match b1 {
                b'=' => two(PercentEq),
                b'>' => two(RBrace),
                b':' => {
                    let (b3, p3) = self.peek(p2);
                    if b2 == b'%' && b3 == b':' {
                        Some((HashHash, p3))
                    } else {
                        two(Hash)
                    }
                }
                _ => one(Percent),
            },
            b'<' => match b1 {
                b'<' => {
                    if b2 == b'=' {
                        three(ShlEq)
                    } else {
                        two(Shl)
                    }
                }
                b'=' => two(Le),
                b':' => two(LBracket),
                b'%' => two(LBrace),
                _ => one(Lt),
            },
            b'>' => match b1 {
                b'>' => {
                    if b2 == b'=' {
                        three(ShrEq)
                    } else {
                        two(Shr)
                    }
                }
                b'=' => two(Ge),
                _ => one(Gt),
            },
            _ => None,
        }
    }

    /// Lexes a `<...>` header name if one starts at the next non-blank character of this line.
    pub fn lex_angled_header(&mut self) -> Option<(String, Span)> {
        let mut p = self.pos;
        while matches!(self.byte(p), b' ' | b'\t') {
            p += 1;
        }
        let p = self.splice(p);
        if self.byte(p) != b'<' {
            return None;
        }
        let lo = p;
        let mut q = p + 1;
        let mut name = String::new();
        loop {
            let r = self.splice(q);
            let b = self.byte(r);
            if self.at_end(r) || b == b'\n' || b == b'\r' {
                return None;
            }
            if b == b'>' {
                self.pos = r + 1;
                self.at_line_start = false;
                return Some((name, self.span(lo, r + 1)));
            }
            let (c, l) = self.char_or_replacement(r);
            name.push(c);
            q = r + l;
        }
    }

    /// The raw text from the current position to the end of the line (splices removed); the
    /// lexer is left at the newline. Used by `#error` and `#warning`.
    pub fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        let mut p = self.pos;
        loop {
            let q = self.splice(p);
            let b = self.byte(q);
            if self.at_end(q) || b == b'\n' || b == b'\r' {
                self.pos = q;
                return s;
            }
            let (c, l) = self.char_or_replacement(q);
            s.push(c);
            p = q + l;
        }
    }

    /// The character at `p` and its length; U+FFFD and 1 for a byte that is not UTF-8.
    fn char_or_replacement(&self, p: usize) -> (char, usize) {
        match self.char_at(p) {
            Some(c) => (c, c.len_utf8()),
            None => (char::REPLACEMENT_CHARACTER, 1),
        }
    }

    /// Skips to the end of the current line (comments are honoured, as clang's raw lexing does).
    pub fn skip_line(&mut self, diags: &mut Diagnostics) {
        loop {
            let t = self.next_token(diags);
            if t.kind == TokenKind::Eof || t.at_line_start {
                self.pos = t.span.lo as usize;
                self.at_line_start = true;
                return;
            }
        }
    }

    /// Resets the position to `pos` (a token start previously returned by this lexer).
    pub fn reset_to(&mut self, pos: usize, at_line_start: bool) {
        self.pos = pos.min(self.src().len());
        self.at_line_start = at_line_start;
    }
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// Position of the first `a` or `b` in `hay`.
#[inline]
fn memchr2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == a || c == b)
}

/// Lexes a whole string as one file (no preprocessing); used for pasting and `_Pragma`.
pub fn lex_str(file: FileId, text: &str, diags: &mut Diagnostics) -> Vec<Token> {
    let mut lx = Lexer::new(file, Arc::from(text.as_bytes()));
    let mut out = Vec::new();
    loop {
        let t = lx.next_token(diags);
        if t.kind == TokenKind::Eof {
            return out;
        }
        out.push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> (Vec<Token>, Diagnostics) {
        let mut d = Diagnostics::default();
        let toks = lex_str(FileId(0), src, &mut d);
        (toks, d)
    }

    fn texts(src: &str) -> Vec<String> {
        kinds(src).0.iter().map(Token::text).collect()
    }

    #[test]
    fn punctuators_and_digraphs() {
        assert_eq!(
            texts("a<<=b>>=c...d->e"),
            ["a", "<<=", "b", ">>=", "c", "...", "d", "->", "e"]
        );
        assert_eq!(
            texts("<: :> <% %> %: %:%:"),
            ["[", "]", "{", "}", "#", "##"]
        );
        assert_eq!(texts("x+++y"), ["x", "++", "+", "y"]);
    }

    #[test]
    fn numbers_and_literals() {
        assert_eq!(
            texts("0x1Fu 1.5e+3f .5 1e-x 0x1p-3"),
            ["0x1Fu", "1.5e+3f", ".5", "1e-x", "0x1p-3"]
        );
        let (t, _) = kinds("L'a' \"s\\\"t\" 'b'");
        assert_eq!(t[0].kind, TokenKind::Char(Symbol::intern("L'a'")));
        assert_eq!(t[1].kind, TokenKind::Str(Symbol::intern("\"s\\\"t\"")));
        assert_eq!(t[2].kind, TokenKind::Char(Symbol::intern("'b'")));
    }

    #[test]
    fn splices_keep_original_spans() {
        let src = "in\\\nt x";
        let (t, _) = kinds(src);
        assert_eq!(t[0].kind, TokenKind::Ident(Symbol::intern("int")));
        assert_eq!((t[0].span.lo, t[0].span.hi), (0, 5));
        assert_eq!(t[1].text(), "x");
        assert!(!t[1].at_line_start);
    }

    #[test]
    fn flags() {
        let (t, _) = kinds("a b\n  c/**/d /*\n*/ e");
        assert!(t[0].at_line_start && !t[0].leading_space);
        assert!(!t[1].at_line_start && t[1].leading_space);
        assert!(t[2].at_line_start && t[2].leading_space);
        assert!(t[3].leading_space, "a comment counts as whitespace");
        assert!(
            !t[4].at_line_start,
            "a comment spanning lines is one space, as in clang"
        );
    }

    #[test]
    fn nul_in_literals() {
        let (t, d) = kinds("\"a\0b\" 'c\0'");
        assert_eq!(t.len(), 2);
        let m: Vec<&str> = d.list.iter().map(|x| x.message.as_str()).collect();
        assert_eq!(
            m,
            [
                "null character(s) preserved in string literal",
                "null character(s) preserved in char literal"
            ]
        );
    }

    #[test]
    fn nested_block_comment_warning() {
        let (t, d) = kinds("/* a /* b /*/ c */ x");
        assert_eq!(
            t.iter().map(Token::text).collect::<Vec<_>>(),
            ["c", "*", "/", "x"]
        );
        let m: Vec<(&str, u32)> = d
            .list
            .iter()
            .map(|x| (x.message.as_str(), x.span.lo))
            .collect();
        assert_eq!(m, [("'/*' within block comment", 5)]);
        assert_eq!(d.list[0].group, Some("comment"));
    }

    #[test]
    fn spaced_splice_warning() {
        let (t, d) = kinds("a\\  \nb in\\ \r\nt");
        assert_eq!(t.iter().map(Token::text).collect::<Vec<_>>(), ["ab", "int"]);
        let m: Vec<(&str, u32)> = d
            .list
            .iter()
            .map(|x| (x.message.as_str(), x.span.lo))
            .collect();
        assert_eq!(
            m,
            [
                ("backslash and newline separated by space", 1),
                ("backslash and newline separated by space", 9)
            ]
        );
    }

    #[test]
    fn comments_and_errors() {
        let (t, d) = kinds("a // x \\\n still comment\nb /* open");
        assert_eq!(t.iter().map(Token::text).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(d.list.len(), 1);
        assert_eq!(d.list[0].message, "unterminated /* comment");
        assert_eq!(d.list[0].span.lo, 26);
        let (t, d) = kinds("'ab\n\"cd");
        assert!(matches!(t[0].kind, TokenKind::Unknown(_)));
        assert_eq!(d.list[0].message, "missing terminating ' character");
        assert_eq!(d.list[1].message, "missing terminating '\"' character");
        assert_eq!(d.list[1].group, Some("invalid-pp-token"));
    }

    /// Lexes bytes that need not be UTF-8.
    fn byte_kinds(src: &[u8]) -> (Vec<Token>, Diagnostics) {
        let mut d = Diagnostics::default();
        let mut lx = Lexer::new(FileId(0), Arc::from(src));
        let mut toks = Vec::new();
        loop {
            let t = lx.next_token(&mut d);
            if t.kind == TokenKind::Eof {
                return (toks, d);
            }
            toks.push(t);
        }
    }

    #[test]
    fn odd_bytes() {
        // Each byte that is not UTF-8 is reported and dropped, as clang does.
        let (t, d) = byte_kinds(b"a\0b @ \xff\xfe $x \xc3\xa9");
        let names: Vec<String> = t.iter().map(Token::text).collect();
        assert_eq!(names, ["a", "b", "@", "$x", "é"]);
        assert!(matches!(t[2].kind, TokenKind::Unknown(_)));
        assert_eq!(d.list[0].message, "null character ignored");
        assert_eq!(d.list[1].message, "source file is not valid UTF-8");
        assert_eq!((d.list[1].span.lo, d.list[1].span.hi), (6, 7));
        assert_eq!(d.list[2].message, "source file is not valid UTF-8");
        assert_eq!(d.list[2].span.lo, 7);
        // Columns count bytes: `$x` starts at byte 9.
        assert_eq!(t[3].span.lo, 9);
        let (_, d) = kinds("\u{2028} \u{FFFD}");
        assert_eq!(d.list[0].message, "unexpected character <U+2028>");
        assert_eq!(d.list[1].message, "unexpected character <U+FFFD>");
    }

    #[test]
    fn literals_keep_bytes_that_are_not_utf8() {
        let (t, d) = byte_kinds(b"\"a\xff\" '\xfe' \"\\\xfd\" L\"\xff\" \"\\n\xfc\\t\xfb\"");
        let texts: Vec<String> = t.iter().map(Token::text).collect();
        assert_eq!(
            texts,
            [
                "\"a\\377\"",
                "'\\376'",
                "\"\\375\"",
                "L\"\\377\"",
                "\"\\n\\374\\t\\373\""
            ]
        );
        let msgs: Vec<(&str, u32)> = d
            .list
            .iter()
            .map(|m| (m.message.as_str(), m.span.lo))
            .collect();
        assert_eq!(
            msgs,
            [
                ("illegal character encoding in string literal", 2),
                ("illegal character encoding in character literal", 5),
                ("illegal character encoding in string literal", 11),
                ("illegal character encoding in string literal", 16),
                ("illegal character encoding in string literal", 22),
                ("illegal character encoding in string literal", 25),
            ]
        );
        assert_eq!(d.list[3].level, crate::diag::Level::Error);
        assert_eq!(d.list[0].group, Some("invalid-source-encoding"));
    }

    #[test]
    fn angled_header_and_rest_of_line() {
        let mut d = Diagnostics::default();
        let mut lx = Lexer::new(
            FileId(0),
            Arc::from(&b" <a/b.h> x\n#error  hi \\\nthere\n"[..]),
        );
        assert_eq!(
            lx.lex_angled_header().map(|h| h.0),
            Some("a/b.h".to_string())
        );
        assert_eq!(lx.next_token(&mut d).text(), "x");
        assert_eq!(lx.next_token(&mut d).text(), "#");
        assert_eq!(lx.next_token(&mut d).text(), "error");
        assert_eq!(lx.rest_of_line(), "  hi there");
    }
}
