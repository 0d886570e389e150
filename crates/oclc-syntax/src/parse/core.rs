//! The parser state: token cursor, typedef-name scopes (the C "lexer hack"), id counters,
//! bracket tracking with clang's depth limit, and clang's skip-based error recovery.

use super::keywords::{IdMap, Kw, keyword};
use super::{MAX_NESTING, TokPragma, names};
use crate::ast::{DeclId, ExprId, PragmaItem, StmtId, TranslationUnit};
use crate::diag::{Diagnostic, Diagnostics, Level};
use crate::intern::Symbol;
use crate::lang::{ClStd, LangOptions};
use crate::source::{SourceMap, Span};
use crate::token::{Punct, Token, TokenKind};

/// No token came from a macro argument.
static NO_ARGS: crate::pp::ArgMap = crate::pp::ArgMap::EMPTY;

/// What `sym` names when nothing in the source declares it: an OpenCL builtin type name
/// (`uint`, `float4`) or an enumerator of clang's OpenCL headers (`memory_order_relaxed`).
fn builtin_name(sym: Symbol) -> Option<NameKind> {
    let s = sym.as_str();
    if names::is_builtin_type_name(s) {
        Some(NameKind::Builtin)
    } else if names::is_builtin_value_name(s) {
        Some(NameKind::Value)
    } else {
        None
    }
}

/// Whether clang declares the `cl_intel_device_side_avc_motion_estimation` types here (the
/// extension is supported, from OpenCL C 1.2 on).
fn avc_available(lang: &LangOptions) -> bool {
    lang.has("cl_intel_device_side_avc_motion_estimation") && lang.std >= ClStd::Cl12
}

/// [`builtin_name`] where the AVC types are declared only when `avc`, and OpenCL C 2.0's
/// names (`queue_t`, `memory_order`, `atomic_int`, `memory_order_relaxed`...) only when
/// `cl20`.
fn builtin_name_in(sym: Symbol, avc: bool, cl20: bool) -> Option<NameKind> {
    builtin_name(sym).filter(|_| {
        let n = sym.as_str();
        (avc || !names::is_avc_type_name(n)) && (cl20 || !names::is_cl20_name(n))
    })
}

/// Whether clang declares OpenCL C 2.0's builtin types and enumerators here.
fn cl20_available(lang: &LangOptions) -> bool {
    lang.std >= ClStd::Cl20
}

/// What an ordinary identifier names, for telling declarations from expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameKind {
    /// A typedef name declared in the source, with its declarator's name.
    Typedef(Span),
    /// An OpenCL builtin type name (`uint`, `float4`, `image2d_t`, ...).
    Builtin,
    /// A variable, function, parameter or enumerator: not a type.
    Value,
}

/// The keyword of a struct, union or enum tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagKind {
    Struct,
    Union,
    Enum,
}

impl TagKind {
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            TagKind::Struct => "struct",
            TagKind::Union => "union",
            TagKind::Enum => "enum",
        }
    }
}

/// Where a recovery skip should stop.
#[derive(Clone, Copy, Default)]
pub(crate) struct Skip {
    /// Stop at a `;` (without consuming it unless it is a target).
    pub at_semi: bool,
    /// Stop before the target instead of consuming it.
    pub before_match: bool,
}

pub(crate) struct Parser<'a> {
    toks: std::borrow::Cow<'a, [Token]>,
    /// Which tokens came from macro arguments (for clang's compound-token warnings).
    pub args: &'a crate::pp::ArgMap,
    /// Function bodies being parsed (0: file scope, where statement expressions are not
    /// allowed).
    pub in_body: u32,
    pub pos: usize,
    pragmas: &'a [TokPragma],
    next_pragma: usize,
    pub(crate) sm: &'a SourceMap,
    pub lang: &'a LangOptions,
    pub diags: &'a mut Diagnostics,
    names: IdMap<Symbol, NameKind>,
    /// Number literals decoded so far, by spelling: real kernels repeat a few hundred
    /// spellings (indices, masks, table constants) tens of thousands of times.
    pub(crate) numbers: IdMap<Symbol, super::literal::Number>,
    /// Typedef names declared as vector types (`typedef float4 v;`, `ext_vector_type`): a
    /// parenthesized list after a cast to one is a vector literal (clang checks the type).
    pub(crate) vector_typedefs: IdMap<Symbol, ()>,
    undo: Vec<(Symbol, Option<NameKind>)>,
    scope_marks: Vec<usize>,
    /// Struct, union and enum tags declared here (clang's `isTagName`: `s *p` with only a
    /// `struct s` visible is "must use 'struct' tag"), with their scope undo log.
    tags: IdMap<Symbol, TagKind>,
    tag_undo: Vec<(Symbol, Option<TagKind>)>,
    tag_marks: Vec<usize>,
    next_expr: u32,
    next_decl: u32,
    next_stmt: u32,
    /// Open `(`, `[`, `{` consumed and not yet closed (clang's counts, for `skip_until`).
    paren_count: u32,
    bracket_count: u32,
    brace_count: u32,
    /// Nesting of delimiters opened through [`Parser::open`].
    depth: u32,
    /// Nesting of other recursive constructs (see [`MAX_NESTING`]).
    pub nest: u32,
    /// Set after a fatal error: parsing stops (the cursor stays at Eof).
    pub cut_off: bool,
    /// A struct/enum definition lacked its `;`; the declaration ends as if it were there.
    pub fake_semi: bool,
    /// `ExprKind::Error` nodes made so far: an expression is invalid if this grew, and clang
    /// then skips silently instead of reporting a missing `;`. (Undeclared identifiers do not
    /// count: clang's delayed typo correction keeps such expressions valid while parsing.)
    pub invalid_exprs: u32,
    /// Keyword of each identifier symbol in the tokens, by symbol index (`None`: not
    /// looked up), so classifying a token is an array access, not a hash.
    sym_kw: Vec<Option<Option<Kw>>>,
    /// Builtin name of each identifier symbol in the tokens, by symbol index, filled with
    /// `sym_kw` (`None`: not looked up). Builtin names are not seeded into `names`: a lookup
    /// that finds no declaration falls back to this, so a small file interns none of the
    /// ~120 builtin names.
    sym_builtin: Vec<Option<Option<NameKind>>>,
    /// Enclosing loops and switches: a `break`/`continue` outside them is invalid in clang
    /// (sema reports it), which changes how a missing `;` after it is handled.
    pub loops: u32,
    pub switches: u32,
    /// Typo corrections attempted (clang stops after `-fspell-checking-limit`).
    pub typo_attempts: u32,
    /// Syntax errors reported so far (a type name with one is invalid in clang).
    pub errors: u32,
    /// Index in the diagnostics of the implicit-int error a type name just reported: clang
    /// reports it when the type name is complete, after a missing `)` that follows it.
    pub type_name_diag: Option<usize>,
    /// Undeclared identifiers (not called) for which typo correction has no candidate: a
    /// parenthesized expression holding one is invalid in C, where clang corrects typos at
    /// the `)` (`Parser::ParseParenExpression`).
    pub hopeless_idents: u32,
    /// Parenthesized expressions being parsed.
    pub paren_exprs: u32,
    /// Before OpenCL C 2.0 `pipe` is a keyword clang turns back into an identifier the first
    /// time declaration specifiers meet it (ending them there); from then on it is a name.
    pub pipe_reverted: bool,
}

impl<'a> Parser<'a> {
    pub fn new(
        tokens: &'a [Token],
        pragmas: &'a [TokPragma],
        sm: &'a SourceMap,
        lang: &'a LangOptions,
        diags: &'a mut Diagnostics,
    ) -> Parser<'a> {
        // Guarantee a final Eof so the cursor always has a token.
        let toks = if tokens.last().is_some_and(|t| t.kind == TokenKind::Eof) {
            std::borrow::Cow::Borrowed(tokens)
        } else {
            let mut v = tokens.to_vec();
            let span = tokens.last().map_or(Span::DUMMY, |t| Span {
                lo: t.span.hi,
                ..t.span
            });
            v.push(Token {
                kind: TokenKind::Eof,
                span,
                at_line_start: true,
                leading_space: false,
            });
            std::borrow::Cow::Owned(v)
        };
        let mut sym_kw: Vec<Option<Option<Kw>>> = Vec::new();
        let mut sym_builtin: Vec<Option<Option<NameKind>>> = Vec::new();
        let avc = avc_available(lang);
        let cl20 = cl20_available(lang);
        for t in toks.iter() {
            if let TokenKind::Ident(sym) = t.kind {
                let i = sym.0 as usize;
                if i >= sym_kw.len() {
                    sym_kw.resize(i + 1, None);
                    sym_builtin.resize(i + 1, None);
                }
                if sym_kw[i].is_none() {
                    sym_kw[i] = Some(keyword(sym));
                    sym_builtin[i] = Some(builtin_name_in(sym, avc, cl20));
                }
            }
        }
        let mut names = IdMap::default();
        names.reserve(256);
        Parser {
            vector_typedefs: IdMap::default(),
            toks,
            args: &NO_ARGS,
            in_body: 0,
            pos: 0,
            pragmas,
            next_pragma: 0,
            sm,
            lang,
            diags,
            names,
            numbers: IdMap::default(),
            undo: Vec::new(),
            scope_marks: Vec::new(),
            tags: IdMap::default(),
            tag_undo: Vec::new(),
            tag_marks: Vec::new(),
            next_expr: 0,
            next_decl: 0,
            next_stmt: 0,
            paren_count: 0,
            bracket_count: 0,
            brace_count: 0,
            depth: 0,
            nest: 0,
            cut_off: false,
            pipe_reverted: false,
            fake_semi: false,
            invalid_exprs: 0,
            sym_kw,
            sym_builtin,
            loops: 0,
            switches: 0,
            typo_attempts: 0,
            errors: 0,
            type_name_diag: None,
            hopeless_idents: 0,
            paren_exprs: 0,
        }
    }

    /// The preprocessor's record of the tokens that came from macro arguments.
    pub fn with_args(mut self, args: &'a crate::pp::ArgMap) -> Parser<'a> {
        self.args = args;
        self
    }

    pub fn run(mut self) -> TranslationUnit {
        let items = self.parse_translation_unit();
        TranslationUnit {
            items,
            num_exprs: self.next_expr,
            num_decls: self.next_decl,
            num_stmts: self.next_stmt,
        }
    }

    /// [`Self::run`], handing each top-level item to `push` as soon as it is parsed; the
    /// returned unit has no items.
    pub fn run_into(mut self, push: &mut dyn FnMut(crate::ast::ExternalDecl)) -> TranslationUnit {
        self.parse_translation_unit_into(push);
        TranslationUnit {
            items: Vec::new(),
            num_exprs: self.next_expr,
            num_decls: self.next_decl,
            num_stmts: self.next_stmt,
        }
    }

    // -- ids ----------------------------------------------------------------------------------

    pub fn expr_id(&mut self) -> ExprId {
        self.next_expr += 1;
        ExprId(self.next_expr - 1)
    }

    pub fn decl_id(&mut self) -> DeclId {
        self.next_decl += 1;
        DeclId(self.next_decl - 1)
    }

    pub fn stmt_id(&mut self) -> StmtId {
        self.next_stmt += 1;
        StmtId(self.next_stmt - 1)
    }

    // -- tokens -------------------------------------------------------------------------------

    fn last(&self) -> &Token {
        // `toks` always ends with Eof (see `new`), so it is never empty.
        self.toks.last().unwrap_or(&EOF_TOKEN)
    }

    pub fn tok(&self) -> &Token {
        self.toks.get(self.pos).unwrap_or_else(|| self.last())
    }

    /// The token at index `i`, if there is one.
    pub fn toks_at(&self, i: usize) -> Option<&Token> {
        self.toks.get(i)
    }

    pub fn nth(&self, n: usize) -> &Token {
        self.toks.get(self.pos + n).unwrap_or_else(|| self.last())
    }

    pub fn span(&self) -> Span {
        self.tok().span
    }

    pub fn at_eof(&self) -> bool {
        self.tok().kind == TokenKind::Eof
    }

    pub fn is(&self, p: Punct) -> bool {
        self.tok().kind == TokenKind::Punct(p)
    }

    pub fn nth_is(&self, n: usize, p: Punct) -> bool {
        self.nth(n).kind == TokenKind::Punct(p)
    }

    /// The keyword the current token spells in this language mode.
    pub fn kw(&self) -> Option<Kw> {
        self.kw_of(self.tok())
    }

    pub fn nth_kw(&self, n: usize) -> Option<Kw> {
        self.kw_of(self.nth(n))
    }

    pub fn kw_of(&self, t: &Token) -> Option<Kw> {
        let sym = t.ident()?;
        let k = match self.sym_kw.get(sym.0 as usize) {
            Some(Some(k)) => (*k)?,
            _ => keyword(sym)?,
        };
        if k == Kw::Pipe && self.lang.std < ClStd::Cl20 {
            return None;
        }
        Some(k)
    }

    /// The current token as an identifier that is not a keyword.
    pub fn ident(&self) -> Option<Symbol> {
        self.ident_of(self.tok())
    }

    pub fn ident_of(&self, t: &Token) -> Option<Symbol> {
        let s = t.ident()?;
        if self.kw_of(t).is_some() {
            None
        } else {
            Some(s)
        }
    }

    /// The spelling of token `i`.
    pub fn token_text(&self, i: usize) -> String {
        self.toks.get(i).map(Token::text).unwrap_or_default()
    }

    /// The span of the previous token (DUMMY at the start).
    pub fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => self.span().start(),
        }
    }

    /// Consumes the current token (never moves past Eof), tracking delimiter counts.
    pub fn bump(&mut self) -> Span {
        let t = *self.tok();
        match t.kind {
            TokenKind::Eof => return t.span,
            TokenKind::Punct(Punct::LParen) => self.paren_count += 1,
            TokenKind::Punct(Punct::LBracket) => self.bracket_count += 1,
            TokenKind::Punct(Punct::LBrace) => self.brace_count += 1,
            TokenKind::Punct(Punct::RParen) => {
                self.paren_count = self.paren_count.saturating_sub(1)
            }
            TokenKind::Punct(Punct::RBracket) => {
                self.bracket_count = self.bracket_count.saturating_sub(1)
            }
            TokenKind::Punct(Punct::RBrace) => {
                self.brace_count = self.brace_count.saturating_sub(1)
            }
            _ => {}
        }
        self.pos += 1;
        t.span
    }

    /// Consumes `p` if it is next.
    pub fn eat(&mut self, p: Punct) -> Option<Span> {
        if self.is(p) { Some(self.bump()) } else { None }
    }

    pub fn eat_kw(&mut self, k: Kw) -> Option<Span> {
        if self.kw() == Some(k) {
            Some(self.bump())
        } else {
            None
        }
    }

    // -- pragmas ------------------------------------------------------------------------------

    /// Pragmas that precede the current token and were not handed out yet.
    pub fn take_pragmas(&mut self) -> Vec<PragmaItem> {
        let mut out = Vec::new();
        while let Some(p) = self.pragmas.get(self.next_pragma) {
            if p.before_token > self.pos {
                break;
            }
            out.push(p.item.clone());
            self.next_pragma += 1;
        }
        out
    }

    /// Whether the input has any pragma.
    pub fn has_pragmas(&self) -> bool {
        !self.pragmas.is_empty()
    }

    /// Whether clang's `cl_clang_storage_class_specifiers` is available here: supported
    /// (`-cl-ext`) and enabled by the last `#pragma OPENCL EXTENSION` for it (or for `all`)
    /// before the current token. It lets every storage class through the parser.
    pub fn storage_class_ext(&self) -> bool {
        const NAME: &str = "cl_clang_storage_class_specifiers";
        if !self.lang.has(NAME) {
            return false;
        }
        let mut on = false;
        for p in self
            .pragmas
            .iter()
            .take_while(|p| p.before_token <= self.pos)
        {
            if let crate::ast::PragmaKind::OpenclExtension { name, enable, .. } = &p.item.kind
                && (name == NAME || name == "all")
            {
                on = *enable;
            }
        }
        on
    }

    // -- diagnostics --------------------------------------------------------------------------

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.emit(Diagnostic::error(span, msg));
    }

    pub fn emit(&mut self, mut d: Diagnostic) {
        if !self.cut_off {
            self.errors += u32::from(d.is_error());
            d.token = Some(self.pos as u32);
            self.diags.push(d);
        }
    }

    /// Reports what clang reports from sema while parsing (implicit `int`): the construct
    /// stays valid for recovery, so it does not count in [`Parser::errors`].
    pub fn emit_semantic(&mut self, mut d: Diagnostic) {
        if !self.cut_off {
            // Emitted as the construct's last token is taken (before sema's errors for it).
            d.token = Some(self.pos.saturating_sub(1) as u32);
            self.diags.push(d);
        }
    }

    /// Where clang reports a missing token: just after the previous token, or at the current
    /// token when the previous one ends inside a macro expansion that continues.
    pub fn after_prev(&self) -> Span {
        let prev = self.prev_span();
        if self.pos == 0 {
            return self.span();
        }
        if prev.expn.0 != 0 {
            if self.span().expn == prev.expn {
                return self.span();
            }
            let outer = self.sm.report_span(prev);
            let end = self.invocation_end(prev).unwrap_or(outer.hi);
            // The current token comes from the same invocation (another macro of it, or an
            // argument written inside it): the previous one does not end the expansion.
            let here = self.sm.report_span(self.span());
            if here.file == outer.file && here.lo >= outer.lo && here.lo < end {
                return self.span();
            }
            return Span {
                lo: end,
                hi: end,
                ..outer
            };
        }
        Span {
            lo: prev.hi,
            ..prev
        }
    }

    /// Where the outermost macro invocation that produced `span` ends in its file: after the
    /// name for an object-like macro, after the closing `)` of the arguments for a
    /// function-like one (found by scanning the source text).
    pub(crate) fn invocation_end(&self, span: Span) -> Option<u32> {
        let outer = *self.sm.expansion_chain(span).last()?;
        let call = outer.call_site;
        let def_text = self.sm.file(outer.def_site.file).map(|f| &f.text[..]);
        let function_like = !outer.def_site.is_dummy()
            && def_text.and_then(|t| t.get(outer.def_site.hi as usize)) == Some(&b'(');
        if !function_like {
            return Some(call.hi);
        }
        let text = &self.sm.file(call.file)?.text[..];
        let mut i = call.hi as usize;
        let mut depth = 0u32;
        while let Some(&c) = text.get(i) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return u32::try_from(i + 1).ok();
                    }
                }
                b'"' | b'\'' => {
                    // Skip a string or character literal.
                    i += 1;
                    while let Some(&d) = text.get(i) {
                        if d == b'\\' {
                            i += 1;
                        } else if d == c || d == b'\n' {
                            break;
                        }
                        i += 1;
                    }
                }
                b'/' if text.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i < text.len() && !(text[i] == b'*' && text.get(i + 1) == Some(&b'/')) {
                        i += 1;
                    }
                    i += 1;
                }
                b'/' if text.get(i + 1) == Some(&b'/') => {
                    while text.get(i).is_some_and(|&d| d != b'\n') {
                        i += 1;
                    }
                }
                c if depth == 0 && !c.is_ascii_whitespace() => return Some(call.hi),
                _ => {}
            }
            i += 1;
        }
        Some(call.hi)
    }

    /// clang's `ExpectAndConsume(p, msg)`: consumes `p`, or reports `msg` after the previous
    /// token (or at a `:`/`,` typed for `;`, which is then consumed) and returns false.
    pub fn expect_after(&mut self, p: Punct, msg: &str) -> bool {
        if self.eat(p).is_some() {
            return true;
        }
        if p == Punct::Semi && (self.is(Punct::Colon) || self.is(Punct::Comma)) {
            let at = self.span();
            self.emit(Diagnostic::error(at, msg).with_fixit(at, ";"));
            self.bump();
            return true;
        }
        let at = self.after_prev();
        self.emit(Diagnostic::error(at, msg).with_fixit(at, p.as_str()));
        false
    }

    /// clang's `ExpectAndConsumeSemi`: also accepts a stray `)`/`]` right before the `;`.
    pub fn expect_semi(&mut self, msg: &str) -> bool {
        if self.eat(Punct::Semi).is_some() {
            return true;
        }
        if (self.is(Punct::RParen) || self.is(Punct::RBracket)) && self.nth_is(1, Punct::Semi) {
            let t = *self.tok();
            self.error(t.span, format!("extraneous '{}' before ';'", t.text()));
            self.bump();
            self.bump();
            return true;
        }
        self.expect_after(Punct::Semi, msg)
    }

    // -- balanced delimiters ------------------------------------------------------------------

    /// Consumes an opening delimiter, enforcing clang's bracket depth limit. Returns its span,
    /// or None after the fatal depth error (parsing is then cut off).
    pub fn open(&mut self) -> Option<Span> {
        let max = self.lang.bracket_depth;
        if self.depth >= max {
            let at = self.span();
            self.emit(
                Diagnostic::new(
                    Level::Fatal,
                    at,
                    format!("bracket nesting level exceeded maximum of {max}"),
                )
                .with_note(
                    at,
                    "use -fbracket-depth=N to increase maximum nesting level",
                ),
            );
            self.cut_off();
            return None;
        }
        self.depth += 1;
        Some(self.bump())
    }

    /// Consumes the closing delimiter matching `open` (opened with [`Parser::open`]), or
    /// reports "expected ')'" with "to match this '('" and skips to it, as clang's
    /// `BalancedDelimiterTracker::consumeClose`. Returns the close span if it was found.
    pub fn close(&mut self, close: Punct, open_span: Span) -> Option<Span> {
        self.depth = self.depth.saturating_sub(1);
        if let Some(s) = self.eat(close) {
            return Some(s);
        }
        if self.cut_off {
            return None;
        }
        let open_str = match close {
            Punct::RParen => "(",
            Punct::RBracket => "[",
            _ => "{",
        };
        let at = self.span();
        let mut d = Diagnostic::error(at, format!("expected '{}'", close.as_str()))
            .with_note(open_span, format!("to match this '{open_str}'"));
        d.token = Some(self.pos as u32);
        match self.type_name_diag.take() {
            Some(i) if i + 1 == self.diags.list.len() => {
                self.errors += 1;
                self.diags.list.insert(i, d);
            }
            _ => self.emit(d),
        }
        if !self.is(Punct::RParen) && !self.is(Punct::RBrace) && !self.is(Punct::RBracket) {
            self.skip_until(
                &[close],
                Skip {
                    at_semi: true,
                    before_match: true,
                },
            );
            if self.is(close) {
                return Some(self.bump());
            }
        }
        None
    }

    /// Recovery inside parentheses: forgets the open `(` and skips to its `)` (not past a
    /// `;`), taking the `)`.
    pub(crate) fn abandon_to_rparen(&mut self) {
        self.abandon();
        if self.skip_until(
            &[Punct::RParen],
            Skip {
                at_semi: true,
                before_match: true,
            },
        ) {
            self.bump();
        }
    }

    /// Forgets a delimiter opened with [`Parser::open`] whose close is skipped by recovery.
    pub fn abandon(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Stops all parsing (after a fatal error).
    pub fn cut_off(&mut self) {
        self.cut_off = true;
        self.pos = self.toks.len().saturating_sub(1);
    }

    /// Enters a recursive construct; false (after a fatal error) when nested too deeply.
    pub fn enter(&mut self) -> bool {
        if self.cut_off {
            return false;
        }
        if self.nest >= MAX_NESTING {
            let at = self.span();
            self.emit(Diagnostic::new(
                Level::Fatal,
                at,
                format!("nesting level exceeded maximum of {MAX_NESTING}"),
            ));
            self.cut_off();
            return false;
        }
        self.nest += 1;
        true
    }

    pub fn leave(&mut self) {
        self.nest = self.nest.saturating_sub(1);
    }

    /// clang's `SkipUntil`: skips tokens, stepping over balanced `()`, `[]`, `{}`, until one of
    /// `targets` (consumed unless `before_match`), a `;` (with `at_semi`), a closer that
    /// matches an enclosing open delimiter, or Eof.
    pub fn skip_until(&mut self, targets: &[Punct], how: Skip) -> bool {
        let mut stack: Vec<Punct> = Vec::new();
        let mut first = true;
        loop {
            let t = *self.tok();
            if stack.is_empty()
                && let TokenKind::Punct(p) = t.kind
                && targets.contains(&p)
            {
                if !how.before_match {
                    self.bump();
                }
                return true;
            }
            match t.kind {
                TokenKind::Eof => return false,
                TokenKind::Punct(p @ (Punct::LParen | Punct::LBracket | Punct::LBrace)) => {
                    stack.push(match p {
                        Punct::LParen => Punct::RParen,
                        Punct::LBracket => Punct::RBracket,
                        _ => Punct::RBrace,
                    });
                    self.bump();
                }
                TokenKind::Punct(p @ (Punct::RParen | Punct::RBracket | Punct::RBrace)) => {
                    if let Some(&want) = stack.last() {
                        if want == p {
                            stack.pop();
                        } else if p == Punct::RBrace {
                            // A `}` closes any unclosed `(`/`[` inside it.
                            while stack.last().is_some_and(|&w| w != Punct::RBrace) {
                                stack.pop();
                            }
                            if stack.pop().is_none() {
                                return false;
                            }
                        }
                        self.bump();
                    } else {
                        let enclosing = match p {
                            Punct::RParen => self.paren_count,
                            Punct::RBracket => self.bracket_count,
                            _ => self.brace_count,
                        };
                        if enclosing > 0 && !first {
                            return false;
                        }
                        self.bump();
                    }
                }
                TokenKind::Punct(Punct::Semi) if stack.is_empty() && how.at_semi => return false,
                _ => {
                    self.bump();
                }
            }
            first = false;
        }
    }

    // -- scopes -------------------------------------------------------------------------------

    pub fn push_scope(&mut self) {
        self.scope_marks.push(self.undo.len());
        self.tag_marks.push(self.tag_undo.len());
    }

    pub fn pop_scope(&mut self) {
        let tmark = self.tag_marks.pop().unwrap_or(0);
        while self.tag_undo.len() > tmark {
            let Some((sym, prev)) = self.tag_undo.pop() else {
                break;
            };
            match prev {
                Some(k) => {
                    self.tags.insert(sym, k);
                }
                None => {
                    self.tags.remove(&sym);
                }
            }
        }
        let mark = self.scope_marks.pop().unwrap_or(0);
        while self.undo.len() > mark {
            let Some((sym, prev)) = self.undo.pop() else {
                break;
            };
            match prev {
                Some(k) => {
                    self.names.insert(sym, k);
                }
                None => {
                    self.names.remove(&sym);
                }
            }
        }
    }

    /// Declares `sym` in the innermost scope.
    pub fn declare(&mut self, sym: Symbol, kind: NameKind) {
        let prev = self.names.insert(sym, kind);
        if !self.scope_marks.is_empty() {
            self.undo.push((sym, prev));
        }
    }

    /// Declares the tag `sym` in the innermost scope (a definition or a reference).
    pub fn declare_tag(&mut self, sym: Symbol, kind: TagKind) {
        let prev = self.tags.insert(sym, kind);
        if !self.tag_marks.is_empty() {
            self.tag_undo.push((sym, prev));
        }
    }

    /// The kind of the tag `sym` visible here, if any.
    pub fn lookup_tag(&self, sym: Symbol) -> Option<TagKind> {
        self.tags.get(&sym).copied()
    }

    /// Makes the current identifier token spell `sym` (clang's recovery after a typo
    /// correction: parsing goes on as if the correction had been written).
    pub fn respell_current(&mut self, sym: Symbol) {
        let i = sym.0 as usize;
        if i >= self.sym_kw.len() {
            self.sym_kw.resize(i + 1, None);
            self.sym_builtin.resize(i + 1, None);
        }
        if let Some(slot) = self.sym_kw.get_mut(i)
            && slot.is_none()
        {
            *slot = Some(keyword(sym));
            self.sym_builtin[i] = Some(builtin_name_in(
                sym,
                avc_available(self.lang),
                cl20_available(self.lang),
            ));
        }
        let pos = self.pos;
        if let Some(t) = self.toks.to_mut().get_mut(pos)
            && matches!(t.kind, TokenKind::Ident(_))
        {
            t.kind = TokenKind::Ident(sym);
        }
    }

    /// The names visible here, with their spellings, for typo correction: the scopes' names,
    /// then the builtin names they do not shadow (spelled once per process, not on every
    /// attempt).
    pub fn typo_candidates(&self) -> impl Iterator<Item = (Symbol, &'static str, NameKind)> + '_ {
        let avc = avc_available(self.lang);
        let cl20 = cl20_available(self.lang);
        let builtins = names::builtin_spellings()
            .iter()
            .filter(move |(s, n, _)| {
                !self.names.contains_key(s)
                    && (avc || !names::is_avc_type_name(n))
                    && (cl20 || !names::is_cl20_name(n))
            })
            .copied();
        self.names
            .iter()
            .map(|(&s, &k)| (s, s.as_str(), k))
            .chain(builtins)
    }

    /// What `sym` names here.
    pub fn lookup(&self, sym: Symbol) -> Option<NameKind> {
        if let Some(&k) = self.names.get(&sym) {
            return Some(k);
        }
        match self.sym_builtin.get(sym.0 as usize) {
            Some(Some(k)) => *k,
            _ => builtin_name_in(sym, avc_available(self.lang), cl20_available(self.lang)),
        }
    }

    /// Whether the identifier token `t` names a type here.
    pub fn is_type_name(&self, t: &Token) -> bool {
        self.ident_of(t).is_some_and(|s| {
            matches!(
                self.lookup(s),
                Some(NameKind::Typedef(_) | NameKind::Builtin)
            )
        })
    }
}

static EOF_TOKEN: Token = Token {
    kind: TokenKind::Eof,
    span: Span::DUMMY,
    at_line_start: true,
    leading_space: false,
};
