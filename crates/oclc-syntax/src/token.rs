//! Tokens: what the lexer produces and the preprocessor hands to the parser.

use crate::intern::Symbol;
use crate::source::Span;

/// Punctuators of C99 plus `##`/`#` for the preprocessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Eq,
    StarEq,
    SlashEq,
    PercentEq,
    PlusEq,
    MinusEq,
    ShlEq,
    ShrEq,
    AmpEq,
    CaretEq,
    PipeEq,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Eq => "=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            PlusEq => "+=",
            MinusEq => "-=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            CaretEq => "^=",
            PipeEq => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

/// Kind of a token. Identifiers and keywords are both `Ident` (keywords are pre-interned
/// symbols in `intern::kw`); literal spellings are kept verbatim and decoded by the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident(Symbol),
    /// A pp-number: integer or floating literal, spelling as written (`0x1Fu`, `1.5e3f`).
    Number(Symbol),
    /// A character constant including quotes and any prefix (`'a'`, `L'x'`).
    Char(Symbol),
    /// A string literal including quotes and any prefix.
    Str(Symbol),
    Punct(Punct),
    /// A byte that starts no token (e.g. `@`, `$` or a stray `\`), kept for diagnostics.
    Unknown(Symbol),
    /// End of the main file (always the last token the preprocessor produces).
    Eof,
}

/// A token with its location and the whitespace facts the preprocessor needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// First token on its line (directive detection).
    pub at_line_start: bool,
    /// Whitespace before it (stringizing and `#define F(` vs `#define F (`).
    pub leading_space: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }

    pub fn ident(&self) -> Option<Symbol> {
        match self.kind {
            TokenKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_ident(&self, s: Symbol) -> bool {
        self.kind == TokenKind::Ident(s)
    }

    /// The token's spelling.
    pub fn text(&self) -> String {
        match self.kind {
            TokenKind::Ident(s)
            | TokenKind::Number(s)
            | TokenKind::Char(s)
            | TokenKind::Str(s)
            | TokenKind::Unknown(s) => s.as_str().to_string(),
            TokenKind::Punct(p) => p.as_str().to_string(),
            TokenKind::Eof => String::new(),
        }
    }
}
