//! The lexer: bytes of one file to tokens.
