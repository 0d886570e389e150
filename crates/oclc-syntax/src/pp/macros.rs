//! The macro table. Predefined macros (a few hundred `#define` lines per run) enter it as
//! the position of their line and are parsed on first use: most translation units use a
//! handful, and lexing all of them was most of the time `oclc check` spends on a small file.
//! A parsed macro is exactly what processing its line as a directive gives (same tokens,
//! spans and origin), so diagnostics cannot tell the difference.

use std::rc::Rc;

use crate::fxhash::FxHashMap;

use super::predefined::find_static;
use super::{Macro, Origin, SymMap};
use crate::diag::Diagnostics;
use crate::intern::Symbol;
use crate::lexer::Lexer;
use crate::source::FileId;
use crate::token::{Punct, Token, TokenKind};

/// Spelling-cache entries for the lexers of predefined text (a few tokens per use).
const LAZY_CACHE: usize = 64;

/// A table entry: a definition, or a predefined line not parsed yet.
enum Def {
    Ready(Rc<Macro>),
    /// The `#define` line at byte `pos` of lazy source `src`.
    Lazy {
        src: u8,
        pos: u32,
    },
}

/// A virtual file of predefined `#define` lines.
struct LazySource {
    lexer: Lexer,
    origin: Origin,
    /// Its blocks of lines written at compile time (ids; their lines are found through
    /// `predefined::find_static`), each with the offset of its first line.
    blocks: Vec<(u8, u32)>,
}

/// Macros by name. Predefined lines are kept by name string until a symbol asks for them:
/// interning the few hundred names at start was a sixth of a small file's check.
#[derive(Default)]
pub(super) struct MacroTable {
    map: SymMap<Def>,
    sources: Vec<LazySource>,
    /// Predefined lines written at run time, (source, offset) by macro name, not yet moved
    /// into `map` (the lines of compile-time blocks are found in the blocks' tables).
    pending: FxHashMap<&'static str, (u8, u32)>,
    /// By symbol index: whether `pending` was consulted for the symbol (from then on `map`
    /// alone says whether it is defined).
    resolved: Vec<bool>,
}

impl MacroTable {
    /// Moves `name`'s predefined line, if any, into `map` the first time `name` is seen.
    #[inline]
    fn resolve(&mut self, name: Symbol) {
        let i = name.0 as usize;
        match self.resolved.get(i) {
            Some(true) => return,
            Some(false) => {}
            None if self.sources.is_empty() => return,
            None => self.resolved.resize(i + 1, false),
        }
        self.resolved[i] = true;
        let s = name.as_str();
        let sources = &self.sources;
        let found = self.pending.remove(s).or_else(|| {
            find_static(s, |id| {
                sources.iter().enumerate().find_map(|(src, l)| {
                    let &(_, base) = l.blocks.iter().find(|b| b.0 == id)?;
                    Some((u8::try_from(src).ok()?, base))
                })
            })
        });
        if let Some((src, pos)) = found {
            self.map.entry(name).or_insert(Def::Lazy { src, pos });
        }
    }

    /// Whether `name` is defined (a predefined macro counts without being parsed).
    pub fn contains(&mut self, name: Symbol) -> bool {
        self.resolve(name);
        self.map.contains_key(&name)
    }

    /// The definition of `name`, parsing its predefined line on first use.
    pub fn get(&mut self, name: Symbol) -> Option<Rc<Macro>> {
        self.resolve(name);
        let (src, pos) = match self.map.get(&name)? {
            Def::Ready(m) => return Some(Rc::clone(m)),
            &Def::Lazy { src, pos } => (src, pos),
        };
        let m = self
            .sources
            .get_mut(usize::from(src))
            .and_then(|s| parse_define(s, pos));
        match m {
            Some(m) => {
                let m = Rc::new(m);
                self.map.insert(name, Def::Ready(Rc::clone(&m)));
                Some(m)
            }
            // Unreachable for the generated text (the unit tests parse every line).
            None => {
                self.map.remove(&name);
                None
            }
        }
    }

    pub fn insert(&mut self, name: Symbol, m: Rc<Macro>) {
        self.resolve(name);
        self.map.insert(name, Def::Ready(m));
    }

    pub fn remove(&mut self, name: Symbol) {
        self.resolve(name);
        self.map.remove(&name);
    }

    /// Room for `n` predefined lines written at run time (one allocation for all
    /// [`Self::add_lazy`] calls).
    pub fn reserve_lazy(&mut self, n: usize) {
        self.pending.reserve(n);
    }

    /// Enters the `#define` lines of virtual file `file` (text `text`) to be parsed on first
    /// use: `blocks`, compile-time blocks of lines at their offsets, and `lines`, each
    /// further line's macro name and the offset of its `#`.
    pub fn add_lazy(
        &mut self,
        file: FileId,
        text: std::sync::Arc<[u8]>,
        origin: Origin,
        blocks: &[(u8, u32)],
        lines: &[(&'static str, u32)],
    ) {
        let Ok(src) = u8::try_from(self.sources.len()) else {
            return;
        };
        self.sources.push(LazySource {
            lexer: Lexer::with_cache(file, text, LAZY_CACHE),
            origin,
            blocks: blocks.to_vec(),
        });
        for &(name, pos) in lines {
            // A symbol resolved already (none is, before the first file) keeps its entry.
            self.pending.insert(name, (src, pos));
        }
    }
}

/// Parses the `#define` line at `pos` as `do_define` would: the name, a parameter list when
/// `(` follows the name with no space, then the body tokens to the end of the line. The text
/// is generated (`predefined.rs`), so this needs none of `do_define`'s error paths.
fn parse_define(src: &mut LazySource, pos: u32) -> Option<Macro> {
    let mut d = Diagnostics::default();
    let lx = &mut src.lexer;
    lx.seek(pos as usize);
    let hash = lx.next_token(&mut d);
    let mut next = |lx: &mut Lexer| -> Option<Token> {
        (!lx.next_is_line_start(&mut d)).then(|| lx.next_token(&mut d))
    };
    let define = next(lx)?;
    let name_tok = next(lx)?;
    let (TokenKind::Punct(Punct::Hash), TokenKind::Ident(_), TokenKind::Ident(name)) =
        (hash.kind, define.kind, name_tok.kind)
    else {
        return None;
    };
    let mut m = Macro {
        name,
        function_like: false,
        params: Vec::new(),
        variadic: false,
        body: Vec::new(),
        param_of: Vec::new(),
        name_span: name_tok.span,
        origin: src.origin,
        builtin: None,
    };
    let mut tok = next(lx);
    if tok.is_some_and(|t| t.is_punct(Punct::LParen) && !t.leading_space) {
        m.function_like = true;
        loop {
            let p = next(lx)?;
            let TokenKind::Ident(s) = p.kind else {
                return None;
            };
            m.params.push(s);
            match next(lx)?.kind {
                TokenKind::Punct(Punct::Comma) => {}
                TokenKind::Punct(Punct::RParen) => break,
                _ => return None,
            }
        }
        tok = next(lx);
    }
    while let Some(mut t) = tok {
        if m.body.is_empty() {
            t.leading_space = false;
        }
        t.at_line_start = false;
        m.body.push(t);
        tok = next(lx);
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
    d.list.is_empty().then_some(m)
}
