//! The recursive-descent parser.
