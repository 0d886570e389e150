//! Preprocessing directives: `#define`, `#undef`, `#include`, the conditional family (with
//! group skipping), `#line`, `#error`, `#warning` and `#pragma`.

use std::path::PathBuf;
use std::rc::Rc;

use super::{Cond, MAX_INCLUDE_DEPTH, Macro, Origin, Pp};
use crate::diag::Diagnostic;
use crate::intern::{Symbol, kw};
use crate::source::{FileId, Span};
use crate::token::{Punct, Token, TokenKind};

/// What to do once the directive's line has been consumed.
enum After {
    Nothing,
    /// The current group is false: skip to the next `#elif`/`#else`/`#endif` that applies.
    Skip,
    /// A group was already taken: skip to the `#endif`.
    SkipRest,
    Include(FileId, Option<PathBuf>),
}

impl Pp<'_> {
    pub(super) fn handle_directive(&mut self, hash: Token) {
        let saved = std::mem::take(&mut self.ctxs);
        self.in_directive = true;
        self.dir_last_hi = hash.span.hi as usize;
        if let Some(f) = self.files.last_mut() {
            self.dir_after_ifndef = f.guard.take_immediately_after();
            self.dir_read_before = !f.guard.nothing_read();
        }
        let name = self.dir_next();
        if let Some(f) = self.files.last_mut() {
            // The directive's name is a token read; a null directive (`#` alone) is not.
            match name {
                Some(_) => f.guard.read_token(),
                None => f.guard.set_read_any(self.dir_read_before),
            }
        }
        let after = match name {
            None => After::Nothing,
            Some(name) => self.dispatch(hash, name),
        };
        self.discard_line();
        self.in_directive = false;
        self.ctxs = saved;
        match after {
            After::Nothing => {}
            After::Skip => self.skip_group(false),
            After::SkipRest => self.skip_group(true),
            After::Include(id, path) => {
                self.push_file(id, path);
            }
        }
    }

    fn dispatch(&mut self, hash: Token, name: Token) -> After {
        if let Some(&(mac, at)) = self.arg_macros.last() {
            let dir = name.ident().map(|s| s.as_str()).unwrap_or("");
            if matches!(
                dir,
                "include" | "import" | "include_next" | "pragma" | "embed"
            ) {
                self.diags.push(
                    Diagnostic::error(
                        name.span,
                        format!(
                            "embedding a #{dir} directive within macro arguments is not supported"
                        ),
                    )
                    .with_note(at, format!("expansion of macro '{mac}' requested here")),
                );
                return After::Nothing;
            }
            self.warning(
                name.span,
                "embedding a directive within macro arguments has undefined behavior",
                "embedded-directive",
            );
        }
        let text = match name.kind {
            TokenKind::Ident(s) => s.as_str(),
            TokenKind::Number(_) => {
                self.do_line(name, true);
                return After::Nothing;
            }
            _ => {
                self.error(name.span, "invalid preprocessing directive");
                return After::Nothing;
            }
        };
        match text {
            "define" => self.do_define(),
            "undef" => self.do_undef(),
            "include" | "include_next" | "import" => return self.do_include(text),
            "if" => {
                self.if_ndef = None;
                let v = self.eval_if();
                let guard = self.if_ndef.take().filter(|_| v);
                self.top_level_conditional(guard.map(|m| (m, name.span)));
                return self.push_cond(name, v);
            }
            "ifdef" | "ifndef" => {
                let v = match self.read_macro_name(text) {
                    Some(s) => {
                        let defined = self.is_defined(s);
                        let guard =
                            (text == "ifndef" && !defined).then_some((s, self.last_name_span));
                        self.top_level_conditional(guard);
                        defined == (text == "ifdef")
                    }
                    None => false,
                };
                return self.push_cond(name, v);
            }
            "elif" | "elifdef" | "elifndef" => return self.live_elif(name, text),
            "else" => return self.live_else(name),
            "endif" => self.do_endif(name),
            "line" => self.do_line(name, false),
            "error" | "warning" => self.user_diag(name, text == "warning"),
            "pragma" => self.do_pragma(hash),
            "ident" | "sccs" | "assert" | "unassert" => {}
            _ => self.error(name.span, "invalid preprocessing directive"),
        }
        After::Nothing
    }

    /// The next raw token of the directive line; `None` at its end.
    pub(super) fn dir_next(&mut self) -> Option<Token> {
        let t = self.file_token();
        if t.is_eof() {
            None
        } else {
            self.dir_last_hi = t.tok.span.hi as usize;
            Some(t.tok)
        }
    }

    /// Drops the rest of the directive line and any expansion left from it.
    fn discard_line(&mut self) {
        while !self.ctxs.is_empty() {
            self.pop_ctx();
        }
        while self.dir_next().is_some() {}
    }

    /// clang's "extra tokens at end of #X directive" check.
    fn check_eol(&mut self, dir: &str) {
        if let Some(t) = self.dir_next() {
            self.diags.push(
                Diagnostic::warning(t.span, format!("extra tokens at end of #{dir} directive"))
                    .with_group("extra-tokens")
                    .with_fixit(t.span.start(), "//"),
            );
            self.discard_line();
        }
    }

    /// Reads the macro name of `#define`/`#undef`/`#ifdef`... with clang's errors.
    fn read_macro_name(&mut self, dir: &str) -> Option<Symbol> {
        let Some(t) = self.dir_next() else {
            let span = self.eod_span();
            self.error(span, "macro name missing");
            return None;
        };
        match t.kind {
            TokenKind::Ident(s) if s == kw::DEFINED => {
                self.error(t.span, "'defined' cannot be used as a macro name");
                None
            }
            TokenKind::Ident(s) => {
                if dir != "define" {
                    self.check_eol(dir);
                }
                self.last_name_span = t.span;
                Some(s)
            }
            _ => {
                self.error(t.span, "macro name must be an identifier");
                None
            }
        }
    }

    fn is_language_builtin(m: &Macro) -> bool {
        m.builtin.is_some()
            || (m.origin == Origin::Predefined && m.name.as_str().starts_with("__STDC"))
    }

    fn do_define(&mut self) {
        let Some(name) = self.read_macro_name("define") else {
            return;
        };
        let name_span = self.last_name_span;
        let mut m = Macro {
            name,
            function_like: false,
            params: Vec::new(),
            variadic: false,
            body: Vec::new(),
            param_of: Vec::new(),
            name_span,
            origin: self.origin,
            builtin: None,
        };
        let mut first = self.dir_next();
        if first.is_none()
            && self.dir_after_ifndef
            && let Some(f) = self.files.last_mut()
        {
            // An empty macro right after the guard's `#ifndef`: the guard's own `#define`.
            f.guard.set_defined(name, name_span);
        }
        if let Some(t) = first {
            if t.is_punct(Punct::LParen) && !t.leading_space {
                if !self.read_params(&mut m) {
                    return;
                }
                first = self.dir_next();
            } else if !t.leading_space {
                self.warning(
                    t.span,
                    "ISO C99 requires whitespace after the macro name",
                    "c99-extensions",
                );
            }
        }
        let mut tok = first;
        while let Some(mut t) = tok {
            if m.body.is_empty() {
                t.leading_space = false;
            }
            t.at_line_start = false;
            m.body.push(t);
            tok = self.dir_next();
        }
        m.param_of = m
            .body
            .iter()
            .map(|t| match t.kind {
                TokenKind::Ident(s) if m.function_like => {
                    m.params.iter().position(|&p| p == s).map(|i| i as u16)
                }
                _ => None,
            })
            .collect();
        if !m.variadic {
            let misuse: Vec<Span> = m
                .body
                .iter()
                .filter(|t| t.is_ident(kw::VA_ARGS))
                .map(|t| t.span)
                .collect();
            for span in misuse {
                self.warning(
                    span,
                    "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                    "pedantic",
                );
            }
        }
        if m.function_like {
            for (i, t) in m.body.iter().enumerate() {
                if t.is_punct(Punct::Hash) && m.param_of.get(i + 1).copied().flatten().is_none() {
                    let at = m
                        .body
                        .get(i + 1)
                        .map_or_else(|| self.eod_span(), |n| n.span);
                    self.error(at, "'#' is not followed by a macro parameter");
                    return;
                }
            }
        }
        if let Some(t) = m.body.first().filter(|t| t.is_punct(Punct::HashHash)) {
            self.error(t.span, "'##' cannot appear at start of macro expansion");
            return;
        }
        if let Some(t) = m.body.last().filter(|t| t.is_punct(Punct::HashHash)) {
            self.error(t.span, "'##' cannot appear at end of macro expansion");
            return;
        }
        if let Some(old) = self.macros.get(name) {
            if Self::is_language_builtin(&old) {
                self.warning(
                    name_span,
                    "redefining builtin macro",
                    "builtin-macro-redefined",
                );
            } else if old.origin != Origin::DefaultHeader && !m.identical(&old) {
                let mut d = Diagnostic::warning(name_span, format!("'{name}' macro redefined"))
                    .with_group("macro-redefined");
                if !old.name_span.is_dummy() {
                    d = d.with_note(old.name_span, "previous definition is here");
                }
                self.diags.push(d);
            }
        }
        self.macros.insert(name, Rc::new(m));
    }

    /// Reads `(a, b, ...)` after a function-like macro's name, with clang's errors.
    fn read_params(&mut self, m: &mut Macro) -> bool {
        m.function_like = true;
        let mut first = true;
        loop {
            let Some(t) = self.dir_next() else {
                let span = self.eod_span();
                self.error(span, "missing ')' in macro parameter list");
                return false;
            };
            match t.kind {
                TokenKind::Punct(Punct::RParen) if first => return true,
                TokenKind::Punct(Punct::RParen) => {
                    self.error(t.span, "expected identifier in macro parameter list");
                    return false;
                }
                TokenKind::Punct(Punct::Ellipsis) => {
                    self.warning(
                        t.span,
                        "variadic macros are a Clang extension in OpenCL",
                        "pedantic",
                    );
                    return self.end_variadic(m, kw::VA_ARGS);
                }
                TokenKind::Ident(s) => {
                    if m.params.contains(&s) {
                        self.error(t.span, format!("duplicate macro parameter name '{s}'"));
                        return false;
                    }
                    let n = self.dir_next();
                    match n.map(|n| n.kind) {
                        Some(TokenKind::Punct(Punct::RParen)) => {
                            m.params.push(s);
                            return true;
                        }
                        Some(TokenKind::Punct(Punct::Comma)) => m.params.push(s),
                        Some(TokenKind::Punct(Punct::Ellipsis)) => {
                            let at = n.map_or(t.span, |n| n.span);
                            self.warning(
                                at,
                                "named variadic macros are a GNU extension",
                                "variadic-macros",
                            );
                            return self.end_variadic(m, s);
                        }
                        _ => {
                            let span = n.map_or_else(|| self.eod_span(), |n| n.span);
                            self.error(span, "expected comma in macro parameter list");
                            return false;
                        }
                    }
                }
                _ => {
                    self.error(t.span, "invalid token in macro parameter list");
                    return false;
                }
            }
            first = false;
        }
    }

    fn end_variadic(&mut self, m: &mut Macro, name: Symbol) -> bool {
        match self.dir_next() {
            Some(t) if t.is_punct(Punct::RParen) => {
                m.params.push(name);
                m.variadic = true;
                true
            }
            other => {
                let span = other.map_or_else(|| self.eod_span(), |t| t.span);
                self.error(span, "missing ')' in macro parameter list");
                false
            }
        }
    }

    fn do_undef(&mut self) {
        let Some(name) = self.read_macro_name("undef") else {
            return;
        };
        if let Some(old) = self.macros.get(name) {
            if Self::is_language_builtin(&old) {
                let span = self.last_name_span;
                self.warning(span, "undefining builtin macro", "builtin-macro-redefined");
            }
            self.macros.remove(name);
        }
    }

    /// A conditional directive about to open a group: at the top level of a file it starts
    /// the file's guard (`guard`: an undefined macro's `#ifndef`, nothing read before) or
    /// leaves part of the file unguarded.
    fn top_level_conditional(&mut self, guard: Option<(Symbol, Span)>) {
        let read_before = self.dir_read_before;
        let Some(f) = self.files.last_mut().filter(|f| f.conds.is_empty()) else {
            return;
        };
        match guard {
            Some((m, at)) if !read_before => f.guard.enter_ifndef(m, at),
            _ => f.guard.enter_conditional(),
        }
    }

    /// `#else`/`#elif` of a file's top-level group: that part is not under a guard.
    fn top_level_alternative(&mut self) {
        if let Some(f) = self.files.last_mut().filter(|f| f.conds.len() == 1) {
            f.guard.enter_conditional();
        }
    }

    /// After an `#endif` closed a group: the top-level one ends the guarded part.
    fn closed_group(&mut self) {
        if let Some(f) = self.files.last_mut().filter(|f| f.conds.is_empty()) {
            f.guard.exit_conditional();
        }
    }

    fn push_cond(&mut self, at: Token, value: bool) -> After {
        if let Some(f) = self.files.last_mut() {
            f.conds.push(Cond {
                at: at.span,
                taken: value,
                seen_else: false,
            });
        }
        if value { After::Nothing } else { After::Skip }
    }

    fn warn_c23_directive(&mut self, name: Token, text: &str) {
        if text != "elif" {
            self.warning(
                name.span,
                format!("use of a '#{text}' directive is a C23 extension"),
                "c23-extensions",
            );
        }
    }

    /// `#elif` in a group being compiled: the conditional is done, skip to `#endif`.
    fn live_elif(&mut self, name: Token, text: &str) -> After {
        self.warn_c23_directive(name, text);
        self.top_level_alternative();
        let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) else {
            self.error(name.span, format!("#{text} without #if"));
            return After::Nothing;
        };
        if c.seen_else {
            self.error(name.span, format!("#{text} after #else"));
        }
        After::SkipRest
    }

    fn live_else(&mut self, name: Token) -> After {
        self.top_level_alternative();
        let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) else {
            self.error(name.span, "#else without #if");
            return After::Nothing;
        };
        let again = c.seen_else;
        c.seen_else = true;
        if again {
            self.error(name.span, "#else after #else");
        }
        self.check_eol("else");
        After::SkipRest
    }

    fn do_endif(&mut self, name: Token) {
        match self.files.last_mut().and_then(|f| f.conds.pop()) {
            Some(_) => {
                self.check_eol("endif");
                self.closed_group();
            }
            None => self.error(name.span, "#endif without #if"),
        }
    }

    /// Skips lines of a false group up to the directive that ends it. With `rest`, a group
    /// was already taken, so only the matching `#endif` ends the skip.
    fn skip_group(&mut self, rest: bool) {
        let Some(f) = self.files.last() else { return };
        let file = f.id;
        let lo = self.line_end(file, self.dir_last_hi) + 1;
        let mut depth = 0u32;
        loop {
            if self.fatal {
                return;
            }
            let Some(f) = self.files.last_mut() else {
                return;
            };
            f.lexer.raw = true;
            let t = match f.pending.take() {
                Some(t) => t,
                None => f.lexer.skip_to_line_hash(self.diags),
            };
            if t.kind == TokenKind::Eof {
                f.lexer.raw = false;
                self.add_skipped(file, lo, t.span.lo as usize);
                return;
            }
            if !(t.at_line_start && t.is_punct(Punct::Hash)) {
                continue;
            }
            let n = f.lexer.next_token(self.diags);
            if n.at_line_start || n.kind == TokenKind::Eof {
                f.pending = Some(n);
                continue;
            }
            let TokenKind::Ident(s) = n.kind else {
                continue;
            };
            let name = s.as_str();
            match name {
                "if" | "ifdef" | "ifndef" => depth += 1,
                "endif" if depth > 0 => depth -= 1,
                "endif" | "else" | "elif" | "elifdef" | "elifndef" if depth == 0 => {
                    f.lexer.raw = false;
                    let hi = self.line_start(file, t.span.lo as usize);
                    self.in_directive = true;
                    self.dir_last_hi = n.span.hi as usize;
                    let done = self.skipped_directive(n, name, rest);
                    self.discard_line();
                    self.in_directive = false;
                    if done {
                        self.add_skipped(file, lo, hi);
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// A depth-0 conditional directive met while skipping; true when skipping ends.
    fn skipped_directive(&mut self, n: Token, name: &str, rest: bool) -> bool {
        if name == "endif" {
            if let Some(f) = self.files.last_mut() {
                f.conds.pop();
            }
            self.check_eol("endif");
            self.closed_group();
            return true;
        }
        let Some(c) = self.files.last().and_then(|f| f.conds.last()).copied() else {
            return true;
        };
        self.top_level_alternative();
        if name == "else" {
            if c.seen_else {
                self.error(n.span, "#else after #else");
            }
            self.set_top_cond(|c| c.seen_else = true);
            self.check_eol("else");
            if !rest && !c.taken {
                self.set_top_cond(|c| c.taken = true);
                return true;
            }
            return false;
        }
        self.warn_c23_directive(n, name);
        if c.seen_else {
            self.error(n.span, format!("#{name} after #else"));
        }
        if rest || c.taken {
            return false;
        }
        let v = match name {
            "elif" => self.eval_if(),
            _ => match self.read_macro_name(name) {
                Some(s) => self.is_defined(s) == (name == "elifdef"),
                None => false,
            },
        };
        if v {
            self.set_top_cond(|c| c.taken = true);
        }
        v
    }

    fn set_top_cond(&mut self, f: impl FnOnce(&mut Cond)) {
        if let Some(c) = self.files.last_mut().and_then(|fs| fs.conds.last_mut()) {
            f(c);
        }
    }

    fn add_skipped(&mut self, file: FileId, lo: usize, hi: usize) {
        if hi > lo {
            self.out.skipped.push(Span::new(file, lo as u32, hi as u32));
        }
    }

    /// Offset of the newline ending the logical line that contains `pos` (splices followed).
    pub(super) fn line_end(&self, file: FileId, pos: usize) -> usize {
        let text = self.sm.file(file).map_or(&b""[..], |f| &f.text[..]);
        let mut p = pos.min(text.len());
        while p < text.len() {
            if text[p] == b'\n' {
                let before = text[..p]
                    .iter()
                    .rev()
                    .skip_while(|&&b| b == b'\r' || b == b' ' || b == b'\t');
                if before.clone().next() != Some(&b'\\') {
                    return p;
                }
            }
            p += 1;
        }
        text.len()
    }

    fn line_start(&self, file: FileId, pos: usize) -> usize {
        let text = self.sm.file(file).map_or(&b""[..], |f| &f.text[..]);
        let p = pos.min(text.len());
        text[..p]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    }

    fn do_include(&mut self, dir: &str) -> After {
        let hdr = self.files.last_mut().and_then(|f| {
            if f.pending.is_none() {
                f.lexer.lex_angled_header()
            } else {
                None
            }
        });
        let (name, span, angled) = match hdr {
            Some((n, sp)) => {
                self.dir_last_hi = sp.hi as usize;
                (n, sp, true)
            }
            None => match self.include_name_expanded() {
                Some(x) => x,
                None => {
                    return After::Nothing;
                }
            },
        };
        let extra = self.expanded_next();
        if !extra.is_eof() {
            self.diags.push(
                Diagnostic::warning(
                    extra.tok.span,
                    format!("extra tokens at end of #{dir} directive"),
                )
                .with_group("extra-tokens")
                .with_fixit(extra.tok.span.start(), "//"),
            );
        }
        if name.is_empty() {
            self.error(span, "empty filename");
            return After::Nothing;
        }
        if self.reached_max_include {
            return After::Nothing;
        }
        if self.files.len() >= MAX_INCLUDE_DEPTH {
            self.error(span, "#include nested too deeply");
            self.reached_max_include = true;
            return After::Nothing;
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        let p = PathBuf::from(&name);
        if p.is_absolute() {
            candidates.push(p);
        } else {
            if !angled {
                if let Some(d) = self.files.last().and_then(|f| f.dir.clone()) {
                    // clang names a file found next to an includer without a directory
                    // part `./name`.
                    let d = if d.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        d
                    };
                    candidates.push(d.join(&name));
                } else {
                    candidates.push(PathBuf::from(&name));
                }
            }
            for d in &self.opts.include_dirs {
                candidates.push(d.join(&name));
            }
        }
        // Any file but a directory, as clang: a device or a pipe is read up to the limit.
        let Some(path) = candidates.into_iter().find(|c| self.is_includable(c)) else {
            self.fatal(span, format!("'{name}' file not found"));
            return After::Nothing;
        };
        let canon = self.canonical(&path).unwrap_or_else(|| path.clone());
        if self.pragma_once.contains(&canon) {
            return After::Nothing;
        }
        // A file included again (include guards, cycles) reuses its first load's bytes, as
        // a file of its own: clang reports its include site as this directive.
        if let Some(&first) = self.loaded.get(&canon) {
            let Some(f) = self.sm.file(first) else {
                return After::Nothing;
            };
            let (name, text) = (f.name.clone(), std::sync::Arc::clone(&f.text));
            let id = self.sm.add_shared(name, text);
            let site = self.sm.report_span(span);
            self.sm.set_include_site(id, site);
            return After::Include(id, Some(path));
        }
        let bytes =
            match crate::source::read_source_shared(&path, crate::source::max_source_bytes()) {
                Ok(b) => b,
                Err(e @ crate::source::ReadSourceError::TooLarge { .. }) => {
                    self.fatal(span, e.message(&format!("'{name}'")));
                    return After::Nothing;
                }
                Err(_) => {
                    self.fatal(span, format!("'{name}' file not found"));
                    return After::Nothing;
                }
            };
        let id = self
            .sm
            .add_shared(path.to_string_lossy().into_owned(), bytes);
        self.loaded.insert(canon, id);
        self.out.includes.push((id, span));
        let site = self.sm.report_span(span);
        self.sm.set_include_site(id, site);
        After::Include(id, Some(path))
    }

    /// A macro-expanded `#include` operand: `"name"` or `< tokens >`.
    fn include_name_expanded(&mut self) -> Option<(String, Span, bool)> {
        let t = self.expanded_next();
        let expected = "expected \"FILENAME\" or <FILENAME>";
        match t.tok.kind {
            TokenKind::Str(s) if s.as_str().starts_with('"') => {
                let lit = s.as_str();
                Some((
                    lit[1..lit.len().saturating_sub(1).max(1)].to_string(),
                    t.tok.span,
                    false,
                ))
            }
            TokenKind::Punct(Punct::Lt) => {
                let mut name = String::new();
                loop {
                    let n = self.expanded_next();
                    if n.is_eof() {
                        self.error(t.tok.span, expected);
                        return None;
                    }
                    if n.tok.is_punct(Punct::Gt) {
                        return Some((name, t.tok.span.to(n.tok.span), true));
                    }
                    if n.tok.leading_space && !name.is_empty() {
                        name.push(' ');
                    }
                    name.push_str(&n.tok.text());
                }
            }
            _ => {
                self.error(t.tok.span, expected);
                None
            }
        }
    }

    /// `#line N ["file"]` and GNU line markers `# N "file" flags`.
    fn do_line(&mut self, name: Token, marker: bool) {
        let num = if marker {
            PTokOpt::Tok(name)
        } else {
            PTokOpt::from(self.expanded_next())
        };
        let what = if marker { "line marker" } else { "#line" };
        let t = match num {
            PTokOpt::Tok(t) => t,
            PTokOpt::End => {
                let span = self.eod_span();
                self.error(
                    span,
                    format!("{what} directive requires a positive integer argument"),
                );
                return;
            }
        };
        let TokenKind::Number(digits) = t.kind else {
            self.error(
                t.span,
                format!("{what} directive requires a positive integer argument"),
            );
            return;
        };
        if let Some(i) = digits.as_str().bytes().position(|b| !b.is_ascii_digit()) {
            let which = if marker { "GNU line marker" } else { "#line" };
            let at = Span {
                lo: t.span.lo + i as u32,
                hi: t.span.lo + i as u32 + 1,
                ..t.span
            };
            self.error(
                at,
                format!("{which} directive requires a simple digit sequence"),
            );
            return;
        }
        let line = digits.as_str().parse::<u32>().unwrap_or(u32::MAX);
        let file_tok = self.expanded_next();
        let new_name = match file_tok.tok.kind {
            TokenKind::Eof => None,
            TokenKind::Str(s) if s.as_str().starts_with('"') => {
                let lit = s.as_str();
                Some(lit[1..lit.len().saturating_sub(1).max(1)].to_string())
            }
            _ => {
                let which = if marker { "line marker" } else { "#line" };
                self.error(
                    file_tok.tok.span,
                    format!("invalid filename for {which} directive"),
                );
                return;
            }
        };
        if !marker && new_name.is_some() {
            let extra = self.expanded_next();
            if !extra.is_eof() {
                self.diags.push(
                    Diagnostic::warning(extra.tok.span, "extra tokens at end of #line directive")
                        .with_group("extra-tokens")
                        .with_fixit(extra.tok.span.start(), "//"),
                );
            }
        }
        let Some(f) = self.files.last() else { return };
        let phys = self
            .sm
            .file(f.id)
            .map_or(0, |sf| sf.line_col(name.span.lo).0)
            + 1;
        let keep = f.line_map.as_ref().and_then(|(_, _, n)| n.clone());
        let id = f.id;
        self.sm.add_line_directive(id, phys, line, new_name.clone());
        if let Some(f) = self.files.last_mut() {
            f.line_map = Some((phys, line, new_name.or(keep)));
        }
    }

    fn user_diag(&mut self, name: Token, warning: bool) {
        let Some(f) = self.files.last_mut() else {
            return;
        };
        let text = f.lexer.rest_of_line();
        let msg = text.trim_start_matches(' ').to_string();
        if warning {
            self.warning(name.span, msg, "#warnings");
        } else {
            self.error(name.span, msg);
        }
    }

    fn do_pragma(&mut self, hash: Token) {
        let mut toks = Vec::new();
        while let Some(t) = self.dir_next() {
            toks.push(t);
        }
        let end = toks.last().map_or(hash.span, |t| t.span);
        if toks.len() == 1 && toks[0].text() == "once" {
            if self.files.len() <= 1 {
                self.warning(
                    toks[0].span,
                    "#pragma once in main file",
                    "pragma-once-outside-header",
                );
            } else if let Some(p) = self.files.last().and_then(|f| f.path.clone()) {
                self.pragma_once.push(p);
            }
        }
        self.record_pragma(hash.span.to(end), &toks);
    }
}

/// A directive operand: a token or the end of the line.
#[derive(Clone, Copy)]
enum PTokOpt {
    Tok(Token),
    End,
}

impl From<super::PTok> for PTokOpt {
    fn from(t: super::PTok) -> PTokOpt {
        if t.is_eof() {
            PTokOpt::End
        } else {
            PTokOpt::Tok(t.tok)
        }
    }
}
