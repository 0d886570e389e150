//! The hand-written C preprocessor with OpenCL predefined macros, following clang's behaviour
//! and diagnostic wording.
//!
//! Design: a stack of included files (each with its own lexer and `#if` stack) under a stack of
//! token contexts (macro expansions being rescanned). Everything that could recurse on input
//! (macro nesting, `#if` parentheses, includes) uses explicit stacks or depth limits.
//!
//! Known differences from clang: the target is always spir64; macros of the default header
//! may be redefined without a warning (clang's own tests run without the header); trigraphs
//! are not translated; `#line` changes `__LINE__`/`__FILE__` but not diagnostic locations;
//! `__has_feature` and its kin answer 0.

pub mod builtin_names;
mod directive;
mod expand;
mod expr;
mod guard;
mod macros;
mod pragma;
mod predefined;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::PathBuf;
use std::rc::Rc;

use crate::diag::{Diagnostic, Diagnostics};
use crate::intern::Symbol;
use crate::lang::LangOptions;
use crate::lexer::Lexer;
use crate::source::{ExpnId, FileId, SourceMap, Span};
use crate::token::{Punct, Token, TokenKind};
use macros::MacroTable;

pub use predefined::{predefined_macro_names, predefined_macros};

/// One `-D` or `-U` command-line option, kept in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroArg {
    /// `-Dname=value`; the value is `"1"` for a bare `-Dname`.
    Define(String, String),
    /// `-Uname`.
    Undef(String),
}

/// Everything the preprocessor needs besides the source map.
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub lang: LangOptions,
    /// `-D`/`-U` options in command-line order.
    pub macros: Vec<MacroArg>,
    /// `-I` directories, searched in order.
    pub include_dirs: Vec<PathBuf>,
}

/// What a `#pragma` asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PragmaKind {
    /// `#pragma OPENCL EXTENSION name : enable|disable`; `name_span` is the name's.
    OpenclExtension {
        name: String,
        enable: bool,
        name_span: Span,
    },
    /// `#pragma OPENCL EXTENSION name : begin|end`.
    OpenclExtensionScope {
        name: String,
        begin: bool,
        name_span: Span,
    },
    /// Any other pragma: its text after `#pragma`, tokens separated by single spaces.
    Other(String),
}

/// One `#pragma` or `_Pragma`, positioned in the output token stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// Index in `PpOutput::tokens` of the first token after the pragma.
    pub before_token: usize,
    pub span: Span,
    pub kind: PragmaKind,
}

/// What the preprocessor found out about one path (each fact when first needed).
#[derive(Default)]
struct PathFacts {
    is_file: Option<bool>,
    canonical: Option<Option<PathBuf>>,
}

/// The preprocessed translation unit.
#[derive(Clone, Debug, Default)]
pub struct PpOutput {
    /// The tokens for the parser; always ends with `TokenKind::Eof`.
    pub tokens: Vec<Token>,
    /// Source ranges (whole lines) of groups skipped by `#if`/`#ifdef`/... .
    pub skipped: Vec<Span>,
    pub pragmas: Vec<Pragma>,
    /// Each included file with the `#include` that first included it (orders diagnostics of
    /// different stages as the translation unit reads).
    pub includes: Vec<(FileId, Span)>,
    /// Which output tokens came from macro arguments (their spans are where they are
    /// written, so this is the only record of it).
    pub args: ArgMap,
}

/// One substitution of a macro argument's tokens into the macro's body (clang's macro
/// argument expansion). Tokens of one argument that came from one place (the file, or one
/// expansion) share one; clang reports tokens of different ones as from different macro
/// expansion contexts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgExpansion {
    /// The parameter's name in the macro body, with the macro's expansion.
    pub param: Span,
    /// The substitution the tokens came through before (into an enclosing macro's body),
    /// 0 for none.
    pub parent: u32,
}

/// The output tokens that came from macro arguments, and through which substitutions.
#[derive(Clone, Debug, Default)]
pub struct ArgMap {
    /// Index 0 is unused (0 means "not from an argument").
    pub expansions: Vec<ArgExpansion>,
    /// (output token index, innermost substitution), by token index, for the parentheses
    /// and braces (the only tokens asked about).
    pub tokens: Vec<(u32, u32)>,
}

impl ArgMap {
    /// An empty map (for tokens that did not come through the preprocessor).
    pub const EMPTY: ArgMap = ArgMap {
        expansions: Vec::new(),
        tokens: Vec::new(),
    };

    /// The innermost substitution output token `index` came through (0: none).
    pub fn arg_of(&self, index: usize) -> u32 {
        let Ok(i) = u32::try_from(index) else {
            return 0;
        };
        match self.tokens.binary_search_by_key(&i, |&(t, _)| t) {
            Ok(k) => self.tokens[k].1,
            Err(_) => 0,
        }
    }

    /// The substitutions of `arg` from the innermost out (bounded, in case of a cycle).
    pub fn chain(&self, arg: u32) -> Vec<ArgExpansion> {
        let mut out = Vec::new();
        let mut a = arg;
        while a != 0 && out.len() < 10_000 {
            let Some(e) = self.expansions.get(a as usize) else {
                break;
            };
            out.push(*e);
            a = e.parent;
        }
        out
    }
}

/// Total tokens macro expansion may produce in one translation unit before a fatal error.
pub const MAX_EXPANDED_TOKENS: u64 = 10_000_000;
/// Include depth at which clang reports "#include nested too deeply".
pub const MAX_INCLUDE_DEPTH: usize = 200;
/// Nesting of macro invocations inside macro arguments (each level pre-expands an argument).
pub const MAX_ARG_NESTING: u32 = 256;

/// Preprocesses `main` (already loaded in `sm`); included files are added to `sm`, as are two
/// virtual files holding the predefined macros (`<built-in>`, `opencl-c-base.h`) and the
/// `-D`/`-U` options (`<command line>`).
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PpOptions,
    diags: &mut Diagnostics,
) -> PpOutput {
    let mut pp = Pp::new(sm, opts, diags);
    pp.run(main)
}

/// Fast hasher for `Symbol` keys.
#[derive(Default)]
struct SymHasher(u64);

impl Hasher for SymHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type SymMap<V> = HashMap<Symbol, V, BuildHasherDefault<SymHasher>>;

/// A token inside the preprocessor: `no_expand` is clang's "painted blue" flag; `arg` the
/// innermost macro-argument substitution it came through ([`ArgMap`], 0: none).
#[derive(Clone, Copy, Debug)]
struct PTok {
    tok: Token,
    no_expand: bool,
    arg: u32,
}

impl PTok {
    fn new(tok: Token) -> PTok {
        PTok {
            tok,
            no_expand: false,
            arg: 0,
        }
    }
    fn is_eof(&self) -> bool {
        self.tok.kind == TokenKind::Eof
    }
}

/// Special macros whose expansion is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    File,
    Line,
    Counter,
    Date,
    Time,
    IncludeLevel,
    BaseFile,
    FileName,
}

/// Where a macro was defined; decides `ExpnData::def_site` and redefinition warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// clang's `<built-in>` predefines.
    Predefined,
    /// The default header: user code may redefine these without a warning, as the clang
    /// tests (run without the header) expect.
    DefaultHeader,
    CommandLine,
    Source,
}

/// One macro definition.
#[derive(Debug, PartialEq)]
struct Macro {
    name: Symbol,
    function_like: bool,
    params: Vec<Symbol>,
    variadic: bool,
    body: Vec<Token>,
    /// The parameter index of each body token, if it names one.
    param_of: Vec<Option<u16>>,
    /// The macro name in the `#define` (in a virtual file for predefined macros).
    name_span: Span,
    origin: Origin,
    builtin: Option<Builtin>,
}

impl Macro {
    fn def_site(&self) -> Span {
        if self.origin == Origin::Source {
            self.name_span
        } else {
            Span::DUMMY
        }
    }

    /// C99 6.10.3p2: same kind, parameters, and body tokens with the same whitespace separation.
    fn identical(&self, o: &Macro) -> bool {
        self.function_like == o.function_like
            && self.params == o.params
            && self.variadic == o.variadic
            && self.body.len() == o.body.len()
            && self
                .body
                .iter()
                .zip(&o.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && (i == 0 || a.leading_space == b.leading_space)
                })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CtxKind {
    /// The rescan of a macro's expansion; the macro is disabled while this is on the stack.
    Macro(Symbol),
    /// Tokens with no macro of their own (an argument being pre-expanded).
    Plain,
    /// End of an argument pre-expansion: reading stops here.
    Barrier,
}

struct Ctx {
    toks: Vec<PTok>,
    pos: usize,
    kind: CtxKind,
}

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// The directive name token (`if`, `ifdef`, ...), where clang reports unterminated groups.
    at: Span,
    /// Some group of this conditional has been (or is being) compiled.
    taken: bool,
    seen_else: bool,
}

/// One file on the include stack.
struct FileState {
    id: FileId,
    lexer: Lexer,
    /// A token lexed ahead (by the look for `(` after a function-like macro name).
    pending: Option<Token>,
    conds: Vec<Cond>,
    /// Directory for `#include "..."` lookups.
    dir: Option<PathBuf>,
    /// Canonical path, for `#pragma once`.
    path: Option<PathBuf>,
    /// `#line` state: (physical line of the next line, presumed line, presumed name).
    line_map: Option<(u32, u32, Option<String>)>,
    /// Include-guard detection (`-Wheader-guard`).
    guard: guard::Guard,
    /// This is the file's first time on the include stack.
    first_time: bool,
}

struct Pp<'s> {
    sm: &'s mut SourceMap,
    opts: &'s PpOptions,
    diags: &'s mut Diagnostics,
    files: Vec<FileState>,
    ctxs: Vec<Ctx>,
    macros: MacroTable,
    /// How many contexts of each macro are on the stack (non-zero: disabled).
    active: SymMap<u32>,
    in_directive: bool,
    /// Macros whose arguments are being collected (name, use site), innermost last; while
    /// any is, the end of an included file is not crossed.
    arg_macros: Vec<(Symbol, Span)>,
    origin: Origin,
    out: PpOutput,
    fatal: bool,
    counter: u32,
    expanded_total: u64,
    arg_nesting: u32,
    reached_max_include: bool,
    pragma_once: Vec<PathBuf>,
    /// The closing `)` of each function-like macro invocation, for `__LINE__`.
    /// (Fx-hashed: one insert per function-like macro use.)
    expn_end: crate::fxhash::FxHashMap<ExpnId, Span>,
    /// Included files by canonical path, loaded once.
    loaded: HashMap<PathBuf, FileId>,
    /// What the file system said of each path looked at (`#include` candidates): whether it
    /// is a file, and its canonical form. A file is included many times (each `#include` of
    /// a guarded header), and each look costs system calls (`realpath` reads every directory
    /// of the path as a link).
    paths: HashMap<PathBuf, PathFacts>,
    main_name: String,
    sym_pragma: Symbol,
    /// End of the last token read on the current directive line (for end-of-line locations).
    dir_last_hi: usize,
    /// The name token read by the last `read_macro_name`.
    last_name_span: Span,
    /// Canonical paths of the files pushed so far (a file lexed again cannot warn of its
    /// guard).
    lexed: std::collections::HashSet<PathBuf>,
    /// Of the directive being handled: whether the file had read anything outside its guard
    /// before it, and whether it follows the guard's `#ifndef` directly.
    dir_read_before: bool,
    dir_after_ifndef: bool,
    /// The operand of the last `defined` read by `#if`, and whether the whole condition was
    /// `!defined X` (a guard's `#if`).
    last_defined: Option<Symbol>,
    if_ndef: Option<Symbol>,
}

impl<'s> Pp<'s> {
    fn new(sm: &'s mut SourceMap, opts: &'s PpOptions, diags: &'s mut Diagnostics) -> Pp<'s> {
        let mut macros = MacroTable::default();
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
            ("__BASE_FILE__", Builtin::BaseFile),
            ("__FILE_NAME__", Builtin::FileName),
        ] {
            let sym = Symbol::intern(name);
            let m = Macro {
                name: sym,
                function_like: false,
                params: Vec::new(),
                variadic: false,
                body: Vec::new(),
                param_of: Vec::new(),
                name_span: Span::DUMMY,
                origin: Origin::Predefined,
                builtin: Some(b),
            };
            macros.insert(sym, Rc::new(m));
        }
        Pp {
            sm,
            opts,
            diags,
            files: Vec::new(),
            ctxs: Vec::new(),
            macros,
            active: SymMap::default(),
            in_directive: false,
            arg_macros: Vec::new(),
            origin: Origin::Predefined,
            out: PpOutput::default(),
            fatal: false,
            counter: 0,
            expanded_total: 0,
            arg_nesting: 0,
            reached_max_include: false,
            pragma_once: Vec::new(),
            expn_end: Default::default(),
            loaded: HashMap::new(),
            paths: HashMap::new(),
            main_name: String::new(),
            sym_pragma: Symbol::intern("_Pragma"),
            dir_last_hi: 0,
            last_name_span: Span::DUMMY,
            lexed: Default::default(),
            dir_read_before: false,
            dir_after_ifndef: false,
            last_defined: None,
            if_ndef: None,
        }
    }

    fn run(&mut self, main: FileId) -> PpOutput {
        let lang = &self.opts.lang;
        // The predefined macros: their `#define` lines are parsed on first use.
        let sets = [
            (
                "<built-in>",
                predefined::builtin_defines(lang),
                Origin::Predefined,
            ),
            (
                "opencl-c-base.h",
                predefined::default_header_defines(lang),
                Origin::DefaultHeader,
            ),
        ];
        self.macros
            .reserve_lazy(sets.iter().map(|(_, d, _)| d.lines.len()).sum());
        for (name, defines, origin) in sets {
            let id = self.sm.add_text(name, defines.text);
            let text = self
                .sm
                .file(id)
                .map_or_else(|| std::sync::Arc::from(&b""[..]), |f| f.text.clone());
            self.macros
                .add_lazy(id, text, origin, &defines.blocks, &defines.lines);
        }
        let mut cmdline = String::new();
        for m in &self.opts.macros {
            match m {
                MacroArg::Define(n, v) => {
                    let v = v.split(['\n', '\r']).next().unwrap_or("");
                    cmdline.push_str(&format!("#define {n} {v}\n"));
                }
                MacroArg::Undef(n) => cmdline.push_str(&format!("#undef {n}\n")),
            }
        }
        let id = self.sm.add_text("<command line>", cmdline);
        self.origin = Origin::CommandLine;
        self.run_file(id, false);
        if self.fatal {
            return self.finish(main);
        }
        self.origin = Origin::Source;
        self.main_name = self
            .sm
            .file(main)
            .map(|f| f.name.clone())
            .unwrap_or_default();
        // Typical sources have a token every 3-4 bytes; reserving avoids regrowing the output
        // (only a hint: a reservation the allocator refuses is no error).
        let len = self.sm.file(main).map_or(0, |f| f.text.len());
        let _ = self.out.tokens.try_reserve(len / 4 + 16);
        self.run_file(main, true);
        self.finish(main)
    }

    /// Ends the output with the main file's end of file, where clang puts it (its
    /// `getCurLexerEndPos`): at a final line break (`\n`, `\r`, or a `\r\n`/`\n\r` pair),
    /// so diagnostics at the end of the file point at the end of its last line.
    fn finish(&mut self, main: FileId) -> PpOutput {
        let end = self.sm.file(main).map_or(0, |f| {
            let t = &f.text[..];
            let mut end = t.len();
            if end > 0 && matches!(t[end - 1], b'\n' | b'\r') {
                end -= 1;
                if end > 0 && matches!(t[end - 1], b'\n' | b'\r') && t[end - 1] != t[end] {
                    end -= 1;
                }
            }
            end as u32
        });
        self.out.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(main, end, end),
            at_line_start: true,
            leading_space: false,
        });
        std::mem::take(&mut self.out)
    }

    /// Preprocesses one top-level file; its tokens go to the output when `emit`.
    fn run_file(&mut self, id: FileId, emit: bool) {
        if !self.push_file(id, None) {
            return;
        }
        loop {
            let t = self.expanded_next();
            if t.is_eof() {
                break;
            }
            if emit {
                // The parser asks only about the tokens of `({` and `})`.
                if t.arg != 0
                    && matches!(
                        t.tok.kind,
                        TokenKind::Punct(
                            Punct::LParen | Punct::RParen | Punct::LBrace | Punct::RBrace
                        )
                    )
                {
                    let i = self.out.tokens.len() as u32;
                    self.out.args.tokens.push((i, t.arg));
                }
                self.out.tokens.push(t.tok);
            }
        }
        self.files.clear();
        self.ctxs.clear();
        self.active.clear();
    }

    fn push_file(&mut self, id: FileId, path: Option<PathBuf>) -> bool {
        let Some(f) = self.sm.file(id) else {
            return false;
        };
        let text = std::sync::Arc::clone(&f.text);
        let dir = match &path {
            Some(p) => p.parent().map(PathBuf::from),
            None => std::path::Path::new(&f.name).parent().map(PathBuf::from),
        };
        let canon = path.as_ref().and_then(|p| self.canonical(p));
        let first_time = canon.as_ref().is_none_or(|c| self.lexed.insert(c.clone()));
        self.files.push(FileState {
            id,
            lexer: Lexer::new(id, text),
            pending: None,
            conds: Vec::new(),
            dir,
            path: canon,
            line_map: None,
            guard: guard::Guard::default(),
            first_time,
        });
        true
    }

    /// Whether `p` names something `#include` can read (anything but a directory, as clang);
    /// asked of the file system once per path.
    pub(crate) fn is_includable(&mut self, p: &std::path::Path) -> bool {
        let f = self.paths.entry(p.to_path_buf()).or_default();
        *f.is_file
            .get_or_insert_with(|| p.metadata().is_ok_and(|m| !m.is_dir()))
    }

    /// `p` with links and `.`/`..` resolved (`None` when that fails); asked of the file
    /// system once per path.
    pub(crate) fn canonical(&mut self, p: &std::path::Path) -> Option<PathBuf> {
        let f = self.paths.entry(p.to_path_buf()).or_default();
        f.canonical
            .get_or_insert_with(|| std::fs::canonicalize(p).ok())
            .clone()
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>, group: &'static str) {
        self.diags
            .push(Diagnostic::warning(span, msg).with_group(group));
    }

    fn fatal(&mut self, span: Span, msg: impl Into<String>) {
        self.diags
            .push(Diagnostic::new(crate::diag::Level::Fatal, span, msg));
        self.fatal = true;
    }

    fn eof_tok(&self) -> PTok {
        let span = match self.files.last() {
            Some(f) => {
                let p = f.lexer.pos() as u32;
                Span::new(f.id, p, p)
            }
            None => Span::DUMMY,
        };
        PTok::new(Token {
            kind: TokenKind::Eof,
            span,
            at_line_start: true,
            leading_space: false,
        })
    }

    /// The next token of the current file, with directives handled (outside directive mode)
    /// or `Eof` at the end of the directive line (in directive mode).
    fn file_token(&mut self) -> PTok {
        loop {
            if self.fatal {
                return self.eof_tok();
            }
            let Some(f) = self.files.last_mut() else {
                return self.eof_tok();
            };
            if self.in_directive {
                if f.pending.is_none() && f.lexer.next_is_line_start(self.diags) {
                    return self.eod_tok();
                }
                let t = match f.pending.take() {
                    Some(t) => t,
                    None => f.lexer.next_token(self.diags),
                };
                return PTok::new(t);
            }
            let t = match f.pending.take() {
                Some(t) => t,
                None => f.lexer.next_token(self.diags),
            };
            match t.kind {
                TokenKind::Punct(crate::token::Punct::Hash) if t.at_line_start => {
                    self.handle_directive(t);
                }
                TokenKind::Eof => {
                    if !self.arg_macros.is_empty() && self.files.len() > 1 {
                        return PTok::new(t);
                    }
                    self.end_of_file();
                    if self.files.is_empty() {
                        return PTok::new(t);
                    }
                }
                _ => {
                    if let Some(f) = self.files.last_mut() {
                        f.guard.read_token();
                    }
                    return PTok::new(t);
                }
            }
        }
    }

    /// Closes the current file: reports its unterminated conditionals and pops it.
    fn end_of_file(&mut self) {
        if let Some(f) = self.files.last() {
            let text = self.sm.file(f.id).map_or(&b""[..], |sf| &sf.text[..]);
            if !text.is_empty() && !text.ends_with(b"\n") && !text.ends_with(b"\r") {
                let end = Span::new(f.id, text.len() as u32, text.len() as u32);
                self.diags.push(
                    Diagnostic::warning(end, "no newline at end of file")
                        .with_group("newline-eof")
                        .with_fixit(end, "\n"),
                );
            }
        }
        if let Some(f) = self.files.pop() {
            let guarded = f.conds.is_empty();
            for c in f.conds {
                self.error(c.at, "unterminated conditional directive");
            }
            if guarded {
                let len = self.sm.file(f.id).map_or(0, |sf| sf.text.len() as u32);
                self.check_header_guard(f.guard, f.first_time, Span::new(f.id, len, len));
            }
        }
    }

    /// The next token of the current file without consuming it. A directive's `#` is returned
    /// as is (clang's look for `(` lexes raw and does not run directives), and the end of a
    /// file is not crossed.
    fn file_peek(&mut self) -> Option<Token> {
        let in_directive = self.in_directive;
        let f = self.files.last_mut()?;
        if let Some(t) = f.pending {
            return Some(t);
        }
        if in_directive && f.lexer.next_is_line_start(self.diags) {
            return None;
        }
        let t = f.lexer.next_token(self.diags);
        f.pending = Some(t);
        Some(t)
    }

    /// End-of-directive token: an empty span at the end of the directive's line.
    fn eod_tok(&self) -> PTok {
        let span = self.eod_span();
        PTok::new(Token {
            kind: TokenKind::Eof,
            span,
            at_line_start: true,
            leading_space: false,
        })
    }

    fn eod_span(&self) -> Span {
        let Some(f) = self.files.last() else {
            return Span::DUMMY;
        };
        let p = self.line_end(f.id, self.dir_last_hi) as u32;
        Span::new(f.id, p, p)
    }

    /// The next unexpanded token: from the macro contexts, else from the file.
    fn raw_next(&mut self) -> PTok {
        loop {
            let Some(top) = self.ctxs.last_mut() else {
                return self.file_token();
            };
            if let Some(&t) = top.toks.get(top.pos) {
                top.pos += 1;
                return t;
            }
            match top.kind {
                CtxKind::Barrier => return self.eof_tok(),
                _ => self.pop_ctx(),
            }
        }
    }

    fn pop_ctx(&mut self) {
        if let Some(c) = self.ctxs.pop()
            && let CtxKind::Macro(m) = c.kind
            && let Some(n) = self.active.get_mut(&m)
        {
            *n = n.saturating_sub(1);
        }
    }

    fn push_ctx(&mut self, toks: Vec<PTok>, kind: CtxKind) {
        if let CtxKind::Macro(m) = kind {
            *self.active.entry(m).or_insert(0) += 1;
        }
        self.ctxs.push(Ctx { toks, pos: 0, kind });
    }

    fn is_disabled(&self, m: Symbol) -> bool {
        self.active.get(&m).is_some_and(|&n| n > 0)
    }

    /// Whether the next raw token is `(`, without consuming anything.
    fn peek_is_lparen(&mut self) -> bool {
        for c in self.ctxs.iter().rev() {
            if let Some(t) = c.toks.get(c.pos) {
                return t.tok.is_punct(crate::token::Punct::LParen);
            }
            if c.kind == CtxKind::Barrier {
                return false;
            }
        }
        self.file_peek()
            .is_some_and(|t| t.is_punct(crate::token::Punct::LParen))
    }

    /// The 1-based presumed line of `span` (after `#line`), at the outermost expansion.
    fn presumed_line(&self, span: Span) -> u32 {
        // Like clang, the line where the outermost expansion ends (its closing parenthesis).
        let mut s = span;
        for _ in 0..10_000 {
            let Some(e) = self.sm.expansion(s.expn) else {
                break;
            };
            s = self.expn_end.get(&s.expn).copied().unwrap_or(e.call_site);
        }
        let line = self.sm.file(s.file).map_or(0, |f| f.line_col(s.lo).0);
        if let Some(f) = self.files.iter().rev().find(|f| f.id == s.file)
            && let Some((phys, presumed, _)) = &f.line_map
        {
            return (i64::from(line) - i64::from(*phys) + i64::from(*presumed)).max(0) as u32;
        }
        line
    }

    fn presumed_file(&self, span: Span) -> String {
        let s = self.sm.report_span(span);
        if let Some(f) = self.files.iter().rev().find(|f| f.id == s.file)
            && let Some((_, _, Some(name))) = &f.line_map
        {
            return name.clone();
        }
        self.sm
            .file(s.file)
            .map(|f| f.name.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
