//! Name lookup: a stack of scopes for ordinary identifiers and one for struct/union/enum tags.
//! The outermost scope holds the predeclared OpenCL names (`size_t`, `float4`, `memory_order`,
//! ...), so a program may redeclare them at file scope without a conflict, as it can when
//! clang runs without the default header.

use oclc_syntax::{Span, Symbol};

use crate::fxhash::FxHashMap;
use crate::hir::{FuncId, VarId};
use crate::types::{EnumId, QualType, RecordId};

/// What an ordinary identifier names.
#[derive(Clone, Copy, Debug)]
pub enum Binding {
    Var(VarId),
    Func(FuncId),
    Typedef(QualType),
    /// An enumerator: value and type.
    EnumConst(i64, QualType),
}

/// One entry with where it was declared and whether its declaration was invalid (clang does
/// not diagnose redeclarations of invalid declarations).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub binding: Binding,
    pub span: Span,
    pub invalid: bool,
}

/// A tag (struct/union/enum name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Record(RecordId, bool),
    Enum(EnumId),
}

#[derive(Default, Debug)]
struct Scope {
    names: FxHashMap<Symbol, Entry>,
    tags: FxHashMap<Symbol, Tag>,
}

/// The scope stack. Index 0 is the predeclared scope, 1 the file scope.
#[derive(Debug)]
pub struct Scopes {
    stack: Vec<Scope>,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            stack: vec![Scope::default(), Scope::default()],
        }
    }
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub fn pop(&mut self) {
        if self.stack.len() > 2 {
            self.stack.pop();
        }
    }

    /// Depth of the innermost scope (0 predeclared, 1 file, 2 function parameters, ...).
    pub fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    pub fn lookup(&self, name: Symbol) -> Option<&Entry> {
        self.stack.iter().rev().find_map(|s| s.names.get(&name))
    }

    /// Every visible ordinary name with its entry (an inner declaration hides an outer one),
    /// for typo correction.
    pub fn visible(&self) -> impl Iterator<Item = (Symbol, &Entry)> + '_ {
        self.stack.iter().enumerate().rev().flat_map(move |(i, s)| {
            s.names.iter().filter_map(move |(&n, e)| {
                let hidden = self.stack[i + 1..]
                    .iter()
                    .any(|inner| inner.names.contains_key(&n));
                (!hidden).then_some((n, e))
            })
        })
    }

    /// The entry for `name` in the innermost scope only.
    pub fn lookup_current(&self, name: Symbol) -> Option<&Entry> {
        self.stack.last().and_then(|s| s.names.get(&name))
    }

    /// A name of the predeclared scope (the OpenCL header's typedefs and enumerators).
    pub fn lookup_predeclared(&self, name: Symbol) -> Option<&Entry> {
        self.stack.first().and_then(|s| s.names.get(&name))
    }

    pub fn insert(&mut self, name: Symbol, entry: Entry) {
        if let Some(s) = self.stack.last_mut() {
            s.names.insert(name, entry);
        }
    }

    /// Inserts into the predeclared scope (builtin typedefs and enumerators).
    /// Makes room for `n` predeclared names at once (they are entered one by one).
    pub fn reserve_predeclared(&mut self, n: usize) {
        if let Some(s) = self.stack.first_mut() {
            s.names.reserve(n);
        }
    }

    pub fn insert_predeclared(&mut self, name: Symbol, binding: Binding) {
        if let Some(s) = self.stack.first_mut() {
            s.names.insert(
                name,
                Entry {
                    binding,
                    span: Span::DUMMY,
                    invalid: false,
                },
            );
        }
    }

    /// Inserts into the file scope (implicitly declared functions).
    pub fn insert_file(&mut self, name: Symbol, entry: Entry) {
        if let Some(s) = self.stack.get_mut(1) {
            s.names.insert(name, entry);
        }
    }

    pub fn lookup_tag(&self, name: Symbol) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.tags.get(&name).copied())
    }

    pub fn lookup_tag_current(&self, name: Symbol) -> Option<Tag> {
        self.stack.last().and_then(|s| s.tags.get(&name).copied())
    }

    pub fn insert_tag(&mut self, name: Symbol, tag: Tag) {
        if let Some(s) = self.stack.last_mut() {
            s.tags.insert(name, tag);
        }
    }
}
