//! The hand-written recursive-descent parser for OpenCL C, with clang's parse-error wording,
//! clang's recovery points, and explicit depth limits.
//!
//! Entry points: [`parse`] (over the preprocessor's output) and [`parse_tokens`].
//! Syntax errors are reported here; the resulting AST marks the damaged places with
//! `ExprKind::Error`, `StmtKind::Error` or `TypeSpec::Unknown` so sema can stay silent there.
//! The parser also reports what clang reports while parsing declaration specifiers:
//! "unknown type name", implicit `int`, and address-space or `pipe` keywords the language mode
//! does not support.

mod asm;
mod attr;
mod builtin_expr;
mod core;
mod decl;
mod declarator;
mod dump;
mod expr;
mod keywords;
pub mod literal;
mod names;
mod specs;
mod stmt;
mod tags;
#[cfg(test)]
mod tests;
mod typo;

use crate::ast::{PragmaItem, TranslationUnit};
use crate::diag::Diagnostics;
use crate::lang::LangOptions;
use crate::pp::{ArgMap, PpOutput};
use crate::source::SourceMap;
use crate::token::Token;

pub use dump::dump;
pub use names::{builtin_type_names, is_builtin_type_name};
pub use typo::edit_distance;

/// Maximum nesting of `(`, `[` and `{` unless `-fbracket-depth` says otherwise
/// ([`LangOptions::bracket_depth`]).
pub const MAX_BRACKET_DEPTH: u32 = crate::lang::DEFAULT_BRACKET_DEPTH;

/// Maximum nesting of other recursive constructs (casts, unary operators, statements without
/// braces, right-associative operators, operator chains) so later stages never meet an AST
/// deeper than this.
pub const MAX_NESTING: u32 = 4096;

/// Stack for the parser thread: deep enough for [`MAX_NESTING`] in debug builds.
const PARSE_STACK: usize = 256 << 20;

/// A pragma positioned in a token stream: it precedes the token at index `before_token`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokPragma {
    pub before_token: usize,
    pub item: PragmaItem,
}

/// Parses the preprocessor's output for one translation unit.
pub fn parse(
    out: &PpOutput,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
) -> TranslationUnit {
    parse_tokens_in(&out.tokens, &out.args, &tok_pragmas(out), sm, lang, diags)
}

/// [`parse`] on the caller's thread, for callers whose stack is known to be deep enough for
/// the input (the parser's recursion is bounded by [`MAX_NESTING`] and by the token count).
pub fn parse_on_this_thread(
    out: &PpOutput,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
) -> TranslationUnit {
    core::Parser::new(&out.tokens, &tok_pragmas(out), sm, lang, diags)
        .with_args(&out.args)
        .run()
}

/// [`parse_on_this_thread`], handing each top-level item to `push` as soon as it is parsed
/// (so a consumer on another thread can work on the items while the rest is parsed); the
/// returned unit has no items, only the id counts.
pub fn parse_on_this_thread_into(
    out: &PpOutput,
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
    push: &mut dyn FnMut(crate::ast::ExternalDecl),
) -> TranslationUnit {
    core::Parser::new(&out.tokens, &tok_pragmas(out), sm, lang, diags)
        .with_args(&out.args)
        .run_into(push)
}

/// The preprocessor's pragmas, positioned in its token stream.
fn tok_pragmas(out: &PpOutput) -> Vec<TokPragma> {
    out.pragmas
        .iter()
        .map(|p| TokPragma {
            before_token: p.before_token,
            item: PragmaItem {
                span: p.span,
                kind: p.kind.clone(),
            },
        })
        .collect()
}

/// Parses the preprocessed tokens of one translation unit. `sm` locates the ends of macro
/// expansions for "expected ';'" diagnostics.
pub fn parse_tokens(
    tokens: &[Token],
    pragmas: &[TokPragma],
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
) -> TranslationUnit {
    parse_tokens_in(tokens, &NO_ARGS, pragmas, sm, lang, diags)
}

/// No token came from a macro argument (tokens that did not come through the preprocessor).
static NO_ARGS: ArgMap = ArgMap::EMPTY;

/// [`parse_tokens`] with the preprocessor's record of which tokens came from macro arguments.
fn parse_tokens_in(
    tokens: &[Token],
    args: &ArgMap,
    pragmas: &[TokPragma],
    sm: &SourceMap,
    lang: &LangOptions,
    diags: &mut Diagnostics,
) -> TranslationUnit {
    let run = |diags: &mut Diagnostics| {
        core::Parser::new(tokens, pragmas, sm, lang, diags)
            .with_args(args)
            .run()
    };
    // Run on a thread with a large stack so deep (but bounded) nesting cannot overflow it;
    // fall back to this thread if one cannot be started.
    let mut local = Diagnostics::default();
    let spawned = std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("oclc-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(s, || run(&mut local));
        match handle {
            Ok(h) => h.join().ok(),
            Err(_) => None,
        }
    });
    match spawned {
        Some(tu) => {
            diags.list.append(&mut local.list);
            tu
        }
        None => run(diags),
    }
}
