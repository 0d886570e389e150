//! The OpenCL C front end's first stage: source map, diagnostics, preprocessor, lexer, parser
//! and AST. Everything here is independent of types and address-space rules (see `oclc-sema`).

pub mod ast;
pub mod diag;
pub mod fnv;
pub mod fxhash;
pub mod heap;
pub mod intern;
pub mod lang;
pub mod lexer;
pub mod parse;
pub mod pp;
pub mod source;
pub mod token;

pub use diag::{Diagnostic, Diagnostics, FixIt, Level, Note};
pub use intern::{Symbol, kw};
pub use lang::{ClStd, LangOptions, Target};
pub use source::{ExpnData, ExpnId, FileId, SourceFile, SourceMap, Span, SpanShift};
pub use token::{Punct, Token, TokenKind};
