//! The AST: what the parser produces and sema checks.
