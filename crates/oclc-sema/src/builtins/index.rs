//! The compile-time index of the builtin table, written by `build.rs`: the parsed gentypes,
//! gates and sections, the signatures, names and each name's declaring lines.

use super::Attrs;
use super::parse::{Alt, Gate, GenDef};
use super::ty::{Access, Scalar};
use crate::space::AddrSpace;

include!(concat!(env!("OUT_DIR"), "/builtin_index.rs"));
