//! Macro expansion: argument collection, substitution with `#` and `##`, rescanning with the
//! hide-set ("painted blue") rule, builtin macros and the `_Pragma` operator.

use super::{Builtin, CtxKind, MAX_ARG_NESTING, MAX_EXPANDED_TOKENS, Macro, PTok, Pp};
use crate::diag::Diagnostic;
use crate::intern::Symbol;
use crate::source::{ExpnData, Span};
use crate::token::{Punct, Token, TokenKind};

/// Whether `m` pre-expands argument `arg` (it names the parameter outside `#` and `##`).
fn pre_expands(m: &Macro, arg: usize) -> bool {
    let n = m.body.len();
    (0..n).any(|i| {
        m.param_of[i].is_some_and(|p| usize::from(p) == arg)
            && !(i > 0
                && (m.body[i - 1].is_punct(Punct::Hash) || m.body[i - 1].is_punct(Punct::HashHash)))
            && !(i + 1 < n && m.body[i + 1].is_punct(Punct::HashHash))
    })
}

/// The argument a parameter index takes: the variadic parameter collects the rest.
fn param_index(m: &Macro, arg: usize) -> usize {
    if m.variadic {
        arg.min(m.params.len().saturating_sub(1))
    } else {
        arg
    }
}

/// Tracks, while the arguments of one invocation are collected, the macro invocations
/// nested in them whose arguments will be pre-expanded: a macro name met inside `k` of them
/// is expanded at argument nesting (current + `k`), so past [`MAX_ARG_NESTING`] the fatal
/// error can be given at once, at the same token `pre_expand` would name, instead of after
/// one copy of the rest of the input per level (quadratic time and memory). Invocations
/// through object-like macros are not seen here; `pre_expand` still bounds those.
struct ArgNesting {
    /// The invoked macro.
    outer: std::rc::Rc<Macro>,
    /// One entry per open `(` inside the arguments: the macro it invokes (if it follows the
    /// name of a function-like macro), that macro's current argument, and whether that
    /// argument is pre-expanded.
    open: Vec<(Option<std::rc::Rc<Macro>>, usize, bool)>,
    /// Entries of `open` whose argument is pre-expanded.
    nested: u32,
    /// The previous token named a function-like macro (its `(` starts an invocation).
    pending: Option<std::rc::Rc<Macro>>,
}

impl ArgNesting {
    fn new(outer: &std::rc::Rc<Macro>) -> ArgNesting {
        ArgNesting {
            outer: std::rc::Rc::clone(outer),
            open: Vec::new(),
            nested: 0,
            pending: None,
        }
    }

    /// Takes the next token of argument `arg` of the outer invocation; the span to report
    /// when a macro name there would be expanded past the nesting limit.
    fn too_deep(&mut self, pp: &mut Pp<'_>, t: &PTok, arg: usize) -> Option<Span> {
        let pending = self.pending.take();
        match t.tok.kind {
            TokenKind::Punct(Punct::LParen) => {
                let pre = pending
                    .as_ref()
                    .is_some_and(|m| pre_expands(m, param_index(m, 0)));
                self.nested += u32::from(pre);
                self.open.push((pending, 0, pre));
            }
            TokenKind::Punct(Punct::RParen) => {
                if let Some((_, _, pre)) = self.open.pop() {
                    self.nested -= u32::from(pre);
                }
            }
            TokenKind::Punct(Punct::Comma) => {
                if let Some((Some(m), a, pre)) = self.open.last_mut() {
                    *a += 1;
                    let now = pre_expands(m, param_index(m, *a));
                    self.nested = self.nested - u32::from(*pre) + u32::from(now);
                    *pre = now;
                }
            }
            TokenKind::Ident(s) if !t.no_expand && pp.macros.contains(s) => {
                let outer_pre = pre_expands(&self.outer, param_index(&self.outer, arg));
                if outer_pre && pp.arg_nesting.saturating_add(self.nested) >= MAX_ARG_NESTING {
                    return Some(t.tok.span);
                }
                self.pending = pp.macros.get(s).filter(|m| m.function_like);
            }
            _ => {}
        }
        None
    }
}

/// Whether an argument's tokens contain a brace or an unbalanced parenthesis (only such an
/// argument can split a statement expression's `({` or `})` from its other half).
fn splits_compound_tokens(toks: &[PTok]) -> bool {
    let mut depth = 0i64;
    for t in toks {
        match t.tok.kind {
            TokenKind::Punct(Punct::LBrace | Punct::RBrace) => return true,
            TokenKind::Punct(Punct::LParen) => depth += 1,
            TokenKind::Punct(Punct::RParen) => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    depth != 0
}

/// A substituted body as it is built: [`Item`]s where the body has a `##` (pasting needs
/// the placemarkers and operators), else the tokens themselves (no copy into a token vector
/// afterwards: most bodies paste nothing).
struct Body {
    paste: bool,
    items: Vec<Item>,
    toks: Vec<PTok>,
    /// Items pushed, placemarkers included (the expansion limit counts them).
    len: usize,
}

impl Body {
    fn new(paste: bool, cap: usize) -> Body {
        let (items, toks) = if paste {
            (Vec::with_capacity(cap), Vec::new())
        } else {
            (Vec::new(), Vec::with_capacity(cap))
        };
        Body {
            paste,
            items,
            toks,
            len: 0,
        }
    }

    fn push(&mut self, item: Item) {
        self.len += 1;
        match item {
            Item::Tok(t) if !self.paste => self.toks.push(t),
            // Without `##` in the body a placemarker is dropped at the end anyway.
            _ if !self.paste => {}
            _ => self.items.push(item),
        }
    }
}

/// An element of a macro's substituted body before pasting.
#[derive(Clone, Copy)]
enum Item {
    Tok(PTok),
    /// An empty argument next to `##` (C99 6.10.3.3p2).
    Placemarker,
    /// A `##` operator from the body.
    Paste(Span),
}

impl Pp<'_> {
    /// The next token with macros expanded.
    pub(super) fn expanded_next(&mut self) -> PTok {
        loop {
            if self.fatal {
                return self.eof_tok();
            }
            let mut t = self.raw_next();
            let TokenKind::Ident(name) = t.tok.kind else {
                return t;
            };
            if t.no_expand {
                return t;
            }
            if name == self.sym_pragma && !self.macros.contains(name) {
                self.pragma_operator(t);
                continue;
            }
            let Some(m) = self.macros.get(name) else {
                return t;
            };
            if self.is_disabled(name) {
                t.no_expand = true;
                return t;
            }
            if let Some(b) = m.builtin {
                return self.expand_builtin(b, t);
            }
            if m.function_like {
                if !self.peek_is_lparen() {
                    return t;
                }
                let Some((args, close)) = self.collect_args(&m, t.tok) else {
                    continue;
                };
                let body = self.substitute(&m, t.tok, close, Some(&args));
                self.push_expansion(&m, body);
            } else {
                let body = self.substitute(&m, t.tok, t.tok.span, None);
                self.push_expansion(&m, body);
            }
        }
    }

    fn push_expansion(&mut self, m: &Macro, body: Vec<PTok>) {
        if self.fatal {
            return;
        }
        self.expanded_total += body.len() as u64 + 1;
        if self.expanded_total > MAX_EXPANDED_TOKENS {
            let span = body.first().map_or(m.name_span, |t| t.tok.span);
            self.too_many_tokens(m, span);
            return;
        }
        self.push_ctx(body, CtxKind::Macro(m.name));
    }

    /// The fatal error for runaway expansion.
    fn too_many_tokens(&mut self, m: &Macro, span: Span) {
        if !self.fatal {
            self.fatal(
                span,
                format!(
                    "macro expansion produced more than {MAX_EXPANDED_TOKENS} tokens \
                     (while expanding macro '{}')",
                    m.name
                ),
            );
        }
    }

    fn note_macro_here(&self, d: Diagnostic, m: &Macro) -> Diagnostic {
        if m.name_span.is_dummy() {
            d
        } else {
            d.with_note(m.name_span, format!("macro '{}' defined here", m.name))
        }
    }

    /// Reads the parenthesized arguments of a function-like macro (the `(` is next), and the
    /// closing `)`. `None` after an error (the invocation's tokens are dropped, as clang does).
    fn collect_args(
        &mut self,
        m: &std::rc::Rc<Macro>,
        name: Token,
    ) -> Option<(Vec<Vec<PTok>>, Span)> {
        let lp = self.raw_next();
        self.arg_macros.push((m.name, name.span));
        let nparams = m.params.len();
        let mut args: Vec<Vec<PTok>> = Vec::new();
        let mut cur: Vec<PTok> = Vec::new();
        let mut arg_start_span = lp.tok.span;
        let mut too_many_at: Option<Span> = None;
        let mut depth = 0u32;
        let mut nesting = ArgNesting::new(m);
        let close;
        loop {
            let mut t = self.raw_next();
            if let TokenKind::Ident(s) = t.tok.kind
                && self.macros.contains(s)
                && self.is_disabled(s)
            {
                t.no_expand = true;
            }
            if let Some(at) = nesting.too_deep(self, &t, args.len()) {
                self.arg_macros.pop();
                self.fatal(
                    at,
                    format!("macro arguments nested too deeply (limit {MAX_ARG_NESTING})"),
                );
                return None;
            }
            match t.tok.kind {
                TokenKind::Eof => {
                    self.arg_macros.pop();
                    let d =
                        Diagnostic::error(name.span, "unterminated function-like macro invocation");
                    let d = self.note_macro_here(d, m);
                    self.diags.push(d);
                    return None;
                }
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) => {
                    if depth == 0 {
                        close = t.tok;
                        break;
                    }
                    depth -= 1;
                }
                TokenKind::Punct(Punct::Comma)
                    if depth == 0 && !(m.variadic && args.len() + 1 >= nparams) =>
                {
                    if !m.variadic && args.len() >= nparams && too_many_at.is_none() {
                        too_many_at = Some(cur.first().map_or(arg_start_span, |t| t.tok.span));
                    }
                    args.push(std::mem::take(&mut cur));
                    arg_start_span = t.tok.span;
                    continue;
                }
                _ => {}
            }
            if t.tok.at_line_start {
                t.tok.at_line_start = false;
                t.tok.leading_space = true;
            }
            cur.push(t);
        }
        self.arg_macros.pop();
        if !(args.is_empty() && cur.is_empty()) {
            if !m.variadic && args.len() >= nparams && too_many_at.is_none() {
                too_many_at = Some(cur.first().map_or(arg_start_span, |t| t.tok.span));
            }
            args.push(cur);
        }
        if let Some(at) = too_many_at {
            let d = Diagnostic::error(
                at,
                "too many arguments provided to function-like macro invocation",
            );
            let d = self.note_macro_here(d, m);
            self.diags.push(d);
            return None;
        }
        if args.len() < nparams {
            let ok = (args.is_empty() && nparams == 1)
                || (m.variadic && (args.len() + 1 == nparams || (args.is_empty() && nparams == 2)));
            if !ok {
                let d = Diagnostic::error(
                    close.span,
                    "too few arguments provided to function-like macro invocation",
                );
                let d = self.note_macro_here(d, m);
                self.diags.push(d);
                return None;
            }
            let empty_single = args.is_empty() && nparams == 1;
            if !empty_single && !has_comma_paste(m) {
                let d = Diagnostic::warning(
                    close.span,
                    "must specify at least one argument for '...' parameter of variadic macro",
                )
                .with_group("gnu-zero-variadic-macro-arguments");
                let d = self.note_macro_here(d, m);
                self.diags.push(d);
            }
            while args.len() < nparams {
                args.push(Vec::new());
            }
        }
        Some((args, close.span))
    }

    /// Fully macro-expands one argument in isolation (C99 6.10.3.1). Each macro invocation
    /// in it is collected and its own arguments pre-expanded one level deeper, a copy of the
    /// rest of the argument per level: [`ArgNesting`] reports nesting past the limit while
    /// the outermost arguments are collected, before any of that work.
    fn pre_expand(&mut self, arg: &[PTok]) -> Vec<PTok> {
        let needs = arg.iter().any(|t| match t.tok.kind {
            TokenKind::Ident(s) => {
                !t.no_expand && (self.macros.contains(s) || s == self.sym_pragma)
            }
            _ => false,
        });
        if !needs {
            return arg.to_vec();
        }
        if self.arg_nesting >= MAX_ARG_NESTING {
            let span = arg.first().map_or(Span::DUMMY, |t| t.tok.span);
            self.fatal(
                span,
                format!("macro arguments nested too deeply (limit {MAX_ARG_NESTING})"),
            );
            return Vec::new();
        }
        self.arg_nesting += 1;
        let base = self.ctxs.len();
        self.push_ctx(Vec::new(), CtxKind::Barrier);
        self.push_ctx(arg.to_vec(), CtxKind::Plain);
        let mut out = Vec::with_capacity(arg.len());
        loop {
            let t = self.expanded_next();
            if t.is_eof() {
                break;
            }
            out.push(t);
        }
        while self.ctxs.len() > base {
            self.pop_ctx();
        }
        self.arg_nesting -= 1;
        out
    }

    /// The replacement list of `m` invoked at `name`, with arguments substituted and `##`
    /// applied; body tokens get spans in the `#define` marked with a new expansion.
    fn substitute(
        &mut self,
        m: &Macro,
        name: Token,
        end: Span,
        args: Option<&[Vec<PTok>]>,
    ) -> Vec<PTok> {
        let expn = self.sm.add_expansion(ExpnData {
            macro_name: m.name,
            call_site: name.span,
            def_site: m.def_site(),
        });
        if end != name.span {
            self.expn_end.insert(expn, end);
        }
        let body_tok = |t: &Token| {
            PTok::new(Token {
                span: Span { expn, ..t.span },
                ..*t
            })
        };
        let Some(args) = args else {
            let mut out: Vec<PTok> = m.body.iter().map(body_tok).collect();
            if m.body.iter().any(|t| t.is_punct(Punct::HashHash)) {
                let items = out.iter().enumerate().map(|(i, t)| {
                    if m.body[i].is_punct(Punct::HashHash) && i > 0 && i + 1 < m.body.len() {
                        Item::Paste(t.tok.span)
                    } else {
                        Item::Tok(*t)
                    }
                });
                out = self.paste_all(items.collect());
            }
            return self.finish_body(out, name);
        };
        // Each argument pre-expanded once, on first use; on the stack for up to 8 arguments
        // (one allocation fewer per macro use).
        let mut small: [Option<Vec<PTok>>; 8] = Default::default();
        let mut big: Vec<Option<Vec<PTok>>>;
        let expanded: &mut [Option<Vec<PTok>>] = if args.len() <= small.len() {
            &mut small[..args.len()]
        } else {
            big = vec![None; args.len()];
            &mut big
        };
        let n = m.body.len();
        let mut items = Body::new(m.body.iter().any(|t| t.is_punct(Punct::HashHash)), n);
        let mut i = 0;
        while i < n {
            let b = m.body[i];
            let pidx = m.param_of[i];
            if b.is_punct(Punct::Hash)
                && i + 1 < n
                && let Some(p) = m.param_of[i + 1]
            {
                let s = stringize(args.get(p as usize).map_or(&[][..], |a| a));
                let mut t = body_tok(&b);
                t.tok.kind = TokenKind::Str(Symbol::intern(&s));
                items.push(Item::Tok(t));
                i += 2;
                continue;
            }
            if b.is_punct(Punct::HashHash) && i > 0 && i + 1 < n {
                // GNU `, ## __VA_ARGS__`: no paste; an empty argument removes the comma, except
                // in C99 mode for macros with fewer than two parameters (clang's rule).
                let next_is_va =
                    m.variadic && m.param_of[i + 1] == Some((m.params.len() - 1) as u16);
                if next_is_va && m.body[i - 1].is_punct(Punct::Comma) {
                    let va = args.last().map_or(&[][..], |a| a);
                    if !va.is_empty() {
                        self.warning(
                            Span { expn, ..b.span },
                            "token pasting of ',' and __VA_ARGS__ is a GNU extension",
                            "gnu-zero-variadic-macro-arguments",
                        );
                        for t in va {
                            items.push(Item::Tok(*t));
                        }
                    } else if m.params.len() >= 2 {
                        // A `##` is in the body: `items` holds the items.
                        if items.items.pop().is_some() {
                            items.len -= 1;
                        }
                    }
                    i += 2;
                    continue;
                }
                items.push(Item::Paste(Span { expn, ..b.span }));
                i += 1;
                continue;
            }
            if let Some(p) = pidx {
                let p = p as usize;
                let raw = args.get(p).map_or(&[][..], |a| a);
                let pasted = (i > 0 && m.body[i - 1].is_punct(Punct::HashHash))
                    || (i + 1 < n && m.body[i + 1].is_punct(Punct::HashHash));
                // Borrowed, not copied: a parameter may be used many times.
                let toks: &[PTok] = if pasted {
                    raw
                } else {
                    if expanded[p].is_none() {
                        expanded[p] = Some(self.pre_expand(raw));
                    }
                    expanded[p].as_deref().unwrap_or_default()
                };
                if toks.is_empty() {
                    items.push(Item::Placemarker);
                } else {
                    let param = Span { expn, ..b.span };
                    // Recorded only where a statement expression's `({` or `})` can be split
                    // across it: an argument with a brace or an unbalanced parenthesis.
                    let record = splits_compound_tokens(toks);
                    // One substitution record per run of tokens from one place, as clang
                    // makes one macro-argument expansion per such run.
                    let mut run: Option<((u32, crate::source::ExpnId), u32)> = None;
                    for (k, &t) in toks.iter().enumerate() {
                        let mut t = t;
                        if k == 0 {
                            t.tok.leading_space = b.leading_space;
                        }
                        // The left operand of `##`: clang locates the token it pastes into
                        // at the parameter in the body (its expansion), not in the argument.
                        if k + 1 == toks.len()
                            && i + 1 < n
                            && m.body[i + 1].is_punct(Punct::HashHash)
                        {
                            t.tok.span = param;
                        }
                        if !record {
                            items.push(Item::Tok(t));
                            continue;
                        }
                        let key = (t.arg, t.tok.span.expn);
                        let id = match run {
                            Some((rk, id)) if rk == key => id,
                            _ => {
                                let id = self.out.args.expansions.len() as u32;
                                if id == 0 {
                                    // Index 0 stands for "no substitution".
                                    self.out.args.expansions.push(crate::pp::ArgExpansion {
                                        param: Span::DUMMY,
                                        parent: 0,
                                    });
                                }
                                let id = self.out.args.expansions.len() as u32;
                                self.out.args.expansions.push(crate::pp::ArgExpansion {
                                    param,
                                    parent: t.arg,
                                });
                                run = Some((key, id));
                                id
                            }
                        };
                        t.arg = id;
                        items.push(Item::Tok(t));
                    }
                }
                if self.expanded_total + items.len as u64 > MAX_EXPANDED_TOKENS {
                    self.too_many_tokens(m, name.span);
                    return Vec::new();
                }
                i += 1;
                continue;
            }
            items.push(Item::Tok(body_tok(&b)));
            i += 1;
        }
        let out = if !items.paste {
            items.toks
        } else if items.items.iter().any(|it| matches!(it, Item::Paste(_))) {
            self.paste_all(items.items)
        } else {
            items
                .items
                .into_iter()
                .filter_map(|it| if let Item::Tok(t) = it { Some(t) } else { None })
                .collect()
        };
        self.finish_body(out, name)
    }

    /// The first token of an expansion takes the whitespace of the macro name.
    fn finish_body(&self, mut out: Vec<PTok>, name: Token) -> Vec<PTok> {
        if let Some(first) = out.first_mut() {
            first.tok.leading_space = name.leading_space;
            first.tok.at_line_start = false;
        }
        out
    }

    /// Applies every `##` left to right.
    fn paste_all(&mut self, items: Vec<Item>) -> Vec<PTok> {
        let mut res: Vec<Item> = Vec::with_capacity(items.len());
        let mut it = items.into_iter();
        while let Some(item) = it.next() {
            let Item::Paste(op) = item else {
                res.push(item);
                continue;
            };
            let lhs = res.pop().unwrap_or(Item::Placemarker);
            let rhs = match it.next() {
                Some(Item::Paste(_)) | None => Item::Placemarker,
                Some(x) => x,
            };
            match (lhs, rhs) {
                (Item::Tok(a), Item::Tok(b)) => match self.paste(a, b, op) {
                    Some(t) => res.push(Item::Tok(t)),
                    None => {
                        res.push(Item::Tok(a));
                        res.push(Item::Tok(b));
                    }
                },
                (Item::Tok(a), _) => res.push(Item::Tok(a)),
                (_, x) => res.push(x),
            }
        }
        res.into_iter()
            .filter_map(|it| if let Item::Tok(t) = it { Some(t) } else { None })
            .collect()
    }

    /// Pastes two tokens; reports clang's error when the result is not one token.
    fn paste(&mut self, a: PTok, b: PTok, op: Span) -> Option<PTok> {
        if let Some(kind) = paste_word(a.tok.kind, b.tok.kind) {
            let mut t = a;
            t.tok.kind = kind;
            t.no_expand = false;
            return Some(t);
        }
        let text = format!("{}{}", a.tok.text(), b.tok.text());
        let mut scratch = crate::diag::Diagnostics::default();
        let toks = crate::lexer::lex_str(a.tok.span.file, &text, &mut scratch);
        let whole = toks.len() == 1
            && toks[0].span.lo == 0
            && toks[0].span.hi as usize == text.len()
            && scratch.list.is_empty();
        if !whole {
            self.error(
                op,
                format!("pasting formed '{text}', an invalid preprocessing token"),
            );
            return None;
        }
        let mut t = a;
        t.tok.kind = toks[0].kind;
        t.no_expand = false;
        Some(t)
    }

    fn expand_builtin(&mut self, b: Builtin, name: PTok) -> PTok {
        let span = name.tok.span;
        let kind = match b {
            Builtin::Line => {
                TokenKind::Number(Symbol::intern(&self.presumed_line(span).to_string()))
            }
            Builtin::File => TokenKind::Str(Symbol::intern(&quote(&self.presumed_file(span)))),
            Builtin::FileName => {
                let f = self.presumed_file(span);
                let base = f.rsplit(['/', '\\']).next().unwrap_or(&f).to_string();
                TokenKind::Str(Symbol::intern(&quote(&base)))
            }
            Builtin::BaseFile => TokenKind::Str(Symbol::intern(&quote(&self.main_name))),
            Builtin::Counter => {
                let n = self.counter;
                self.counter = self.counter.wrapping_add(1);
                TokenKind::Number(Symbol::intern(&n.to_string()))
            }
            Builtin::IncludeLevel => TokenKind::Number(Symbol::intern(
                &self.files.len().saturating_sub(1).to_string(),
            )),
            Builtin::Date | Builtin::Time => {
                let (date, time) = date_time_now();
                let s = if b == Builtin::Date { date } else { time };
                TokenKind::Str(Symbol::intern(&format!("\"{s}\"")))
            }
        };
        PTok {
            tok: Token { kind, ..name.tok },
            no_expand: true,
            arg: name.arg,
        }
    }

    /// `_Pragma ( string-literal )`: records the pragma (after an error, the operands read
    /// are dropped, as clang does).
    fn pragma_operator(&mut self, t: PTok) {
        let lp = self.raw_next();
        let s = if lp.tok.is_punct(Punct::LParen) {
            Some(self.raw_next())
        } else {
            None
        };
        let rp = if s.is_some() {
            Some(self.raw_next())
        } else {
            None
        };
        let lit = match (s, rp) {
            (Some(s), Some(rp)) if rp.tok.is_punct(Punct::RParen) => match s.tok.kind {
                TokenKind::Str(sym) => Some((sym, rp.tok.span)),
                _ => None,
            },
            _ => None,
        };
        let Some((sym, end)) = lit else {
            self.error(t.tok.span, "_Pragma takes a parenthesized string literal");
            return;
        };
        let text = destringize(sym.as_str());
        let mut scratch = crate::diag::Diagnostics::default();
        let toks: Vec<Token> = crate::lexer::lex_str(t.tok.span.file, &text, &mut scratch)
            .into_iter()
            .map(|x| Token {
                span: t.tok.span,
                ..x
            })
            .collect();
        let span = t.tok.span.to(end);
        self.record_pragma(span, &toks);
    }
}

/// Whether `m`'s body has the GNU `, ## __VA_ARGS__` form.
fn has_comma_paste(m: &Macro) -> bool {
    let va = m.params.len().checked_sub(1).map(|i| i as u16);
    m.variadic
        && m.body.windows(3).enumerate().any(|(i, w)| {
            w[0].is_punct(Punct::Comma)
                && w[1].is_punct(Punct::HashHash)
                && m.param_of.get(i + 2).copied().flatten() == va
        })
}

/// The spelling of a stringized argument (C99 6.10.3.2).
fn stringize(arg: &[PTok]) -> String {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && (t.tok.leading_space || t.tok.at_line_start) {
            s.push(' ');
        }
        let text = t.tok.text();
        match t.tok.kind {
            TokenKind::Str(_) | TokenKind::Char(_) => {
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            }
            _ => s.push_str(&text),
        }
    }
    s.push('"');
    s
}

/// A string literal's contents with `\"` and `\\` unescaped (C99 6.10.9).
fn destringize(lit: &str) -> String {
    let inner = lit.strip_prefix('L').unwrap_or(lit);
    let inner = inner.strip_prefix('"').unwrap_or(inner);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && (n == '"' || n == '\\')
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// `s` as a C string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `__DATE__` ("Mmm dd yyyy") and `__TIME__` ("hh:mm:ss") for now, in UTC.
fn date_time_now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS
        .get((m - 1).clamp(0, 11) as usize)
        .copied()
        .unwrap_or("Jan");
    (
        format!("{month} {d:>2} {y}"),
        format!("{:02}:{:02}:{:02}", rem / 3600, rem / 60 % 60, rem % 60),
    )
}

/// The token that pasting `a` and `b` makes when that needs no lexing: an identifier or
/// pp-number followed by letters, digits and `_` only is one identifier or pp-number (the
/// common `name ## 1`, `prefix ## name`), as lexing the joined text finds. `None` for every
/// other pair ([`Pp::paste`] lexes those).
fn paste_word(a: TokenKind, b: TokenKind) -> Option<TokenKind> {
    let word = |s: &str| s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    let (a_text, number) = match a {
        TokenKind::Ident(s) => (s.as_str(), false),
        TokenKind::Number(s) => (s.as_str(), true),
        _ => return None,
    };
    let b_text = match b {
        TokenKind::Ident(s) | TokenKind::Number(s) => s.as_str(),
        _ => return None,
    };
    // A number may hold `.` (`1.5`): appending word characters keeps it one pp-number.
    let a_ok = if number {
        a_text
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
    } else {
        word(a_text)
    };
    if !(a_ok && word(b_text)) {
        return None;
    }
    let sym = Symbol::intern(&format!("{a_text}{b_text}"));
    Some(if number {
        TokenKind::Number(sym)
    } else {
        TokenKind::Ident(sym)
    })
}
