//! Property: the parser never panics on any token sequence, and after a fatal error it
//! reports nothing more.

use oclc_syntax::lang::{ClStd, LangOptions};
use oclc_syntax::parse::parse_tokens;
use oclc_syntax::{Diagnostics, FileId, Level, Punct, SourceMap, Span, Symbol, Token, TokenKind};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "int",
    "float4",
    "void",
    "struct",
    "union",
    "enum",
    "typedef",
    "const",
    "__global",
    "global",
    "__local",
    "__constant",
    "__private",
    "generic",
    "__generic",
    "kernel",
    "__kernel",
    "static",
    "extern",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "return",
    "break",
    "continue",
    "goto",
    "sizeof",
    "vec_step",
    "_Alignof",
    "__attribute__",
    "aligned",
    "x",
    "y",
    "T",
    "pipe",
    "read_only",
    "image2d_t",
    "_Static_assert",
    "__builtin_astype",
    "true",
    "auto",
];

const PUNCTS: &[Punct] = &[
    Punct::LParen,
    Punct::RParen,
    Punct::LBracket,
    Punct::RBracket,
    Punct::LBrace,
    Punct::RBrace,
    Punct::Semi,
    Punct::Comma,
    Punct::Star,
    Punct::Eq,
    Punct::Plus,
    Punct::Colon,
    Punct::Question,
    Punct::Dot,
    Punct::Arrow,
    Punct::Amp,
    Punct::Ellipsis,
    Punct::PlusPlus,
    Punct::Lt,
    Punct::Shl,
];

fn token(choice: u16) -> TokenKind {
    let c = choice as usize;
    match c % 5 {
        0 | 1 => TokenKind::Ident(Symbol::intern(WORDS[c / 5 % WORDS.len()])),
        2 => TokenKind::Punct(PUNCTS[c / 5 % PUNCTS.len()]),
        3 => TokenKind::Number(Symbol::intern(
            ["0", "1.5f", "0x1p3", "08", "1e", "7u"][c / 5 % 6],
        )),
        _ => match c / 5 % 3 {
            0 => TokenKind::Str(Symbol::intern("\"s\\n\"")),
            1 => TokenKind::Char(Symbol::intern("'\\x4'")),
            _ => TokenKind::Unknown(Symbol::intern("@")),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn random_tokens_never_panic(choices in proptest::collection::vec(any::<u16>(), 0..300), std in 0u8..5) {
        let mut tokens: Vec<Token> = choices
            .iter()
            .enumerate()
            .map(|(i, &c)| Token {
                kind: token(c),
                span: Span::new(FileId(0), i as u32 * 2, i as u32 * 2 + 1),
                at_line_start: false,
                leading_space: true,
            })
            .collect();
        let end = tokens.len() as u32 * 2;
        tokens.push(Token { kind: TokenKind::Eof, span: Span::new(FileId(0), end, end), at_line_start: true, leading_space: false });
        let mut sm = SourceMap::new();
        sm.add_text("p.cl", " ".repeat(end as usize + 1));
        let std = [ClStd::Cl10, ClStd::Cl11, ClStd::Cl12, ClStd::Cl20, ClStd::Cl30][std as usize];
        let mut d = Diagnostics::default();
        let tu = parse_tokens(&tokens, &[], &sm, &LangOptions::new(std), &mut d);
        if let Some(i) = d.list.iter().position(|x| x.level == Level::Fatal) {
            prop_assert_eq!(i + 1, d.list.len());
        }
        prop_assert!(tu.num_exprs < 10_000);
    }
}
