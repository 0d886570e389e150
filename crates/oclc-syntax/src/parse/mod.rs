//! The recursive-descent parser.

mod names;

pub use names::{builtin_type_names, is_builtin_type_name};
