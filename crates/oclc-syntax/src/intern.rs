//! Interned identifiers and literal spellings: a [`Symbol`] is a `u32`, compared in O(1).
//!
//! The interner is global (strings are leaked, which is fine for a compiler process), so symbols
//! can cross threads when files are checked in parallel.

use crate::fxhash::FxHashMap;
use std::sync::{OnceLock, RwLock};

/// An interned string.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(pub u32);

struct Interner {
    map: FxHashMap<&'static str, Symbol>,
    strs: Vec<&'static str>,
    /// The unused rest of the current block that new strings are copied into (one
    /// allocation per [`BLOCK`] bytes instead of one per string).
    block: &'static mut [u8],
    /// Blocks allocated so far (they grow from [`FIRST_BLOCK`] to [`BLOCK`] bytes).
    blocks: u32,
}

/// Bytes of string storage allocated at a time, once a few blocks were used.
const BLOCK: usize = 16 << 10;

/// Bytes of the first block of string storage (each next one is twice as large, up to
/// [`BLOCK`]).
const FIRST_BLOCK: usize = 2 << 10;

/// Symbols the interner's list has room for before it grows: the keywords, the predefined
/// macros and a small file's identifiers.
const INITIAL: usize = 1024;

/// Symbols its map has room for before it grows: the keywords and a small file's names. The
/// map is written where the names hash to, so every page of a larger one would be touched
/// (a 48 KiB table cost a small check a dozen page faults).
const INITIAL_MAP: usize = 256;

impl Interner {
    /// A `'static` copy of `s`, carved from the current block.
    fn store(&mut self, s: &str) -> &'static str {
        let n = s.len();
        if n > BLOCK / 4 {
            return Box::leak(s.to_owned().into_boxed_str());
        }
        if self.block.len() < n {
            // The first blocks are small: a small file interns a few hundred bytes, and a
            // block is written whole (zeroed) when allocated.
            let size = (FIRST_BLOCK << self.blocks.min(8)).min(BLOCK).max(n);
            self.blocks += 1;
            self.block = Box::leak(vec![0u8; size].into_boxed_slice());
        }
        let (head, tail) = std::mem::take(&mut self.block).split_at_mut(n);
        self.block = tail;
        head.copy_from_slice(s.as_bytes());
        // A copy of a `str` is UTF-8; the fallback only keeps this free of panics.
        match std::str::from_utf8(head) {
            Ok(t) => t,
            Err(_) => Box::leak(s.to_owned().into_boxed_str()),
        }
    }
}

fn interner() -> &'static RwLock<Interner> {
    static I: OnceLock<RwLock<Interner>> = OnceLock::new();
    I.get_or_init(|| {
        let mut i = Interner {
            map: FxHashMap::with_capacity_and_hasher(INITIAL_MAP, Default::default()),
            strs: Vec::with_capacity(INITIAL),
            block: &mut [],
            blocks: 0,
        };
        for s in kw::ALL {
            let sym = Symbol(i.strs.len() as u32);
            i.strs.push(s);
            i.map.insert(s, sym);
        }
        RwLock::new(i)
    })
}

impl Symbol {
    pub fn intern(s: &str) -> Symbol {
        let lock = interner();
        if let Some(&sym) = lock.read().unwrap_or_else(|e| e.into_inner()).map.get(s) {
            return sym;
        }
        let mut w = lock.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&sym) = w.map.get(s) {
            return sym;
        }
        let stored = w.store(s);
        let sym = Symbol(w.strs.len() as u32);
        w.strs.push(stored);
        w.map.insert(stored, sym);
        sym
    }

    /// Interns strings that live as long as the process (no copy), under one lock and with
    /// one hash each: the predefined macro names, a few hundred per run.
    pub fn intern_static(names: impl IntoIterator<Item = &'static str>) -> Vec<Symbol> {
        let mut w = interner().write().unwrap_or_else(|e| e.into_inner());
        let w = &mut *w;
        names
            .into_iter()
            .map(|s| match w.map.entry(s) {
                std::collections::hash_map::Entry::Occupied(e) => *e.get(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let sym = Symbol(w.strs.len() as u32);
                    w.strs.push(s);
                    *e.insert(sym)
                }
            })
            .collect()
    }

    pub fn as_str(self) -> &'static str {
        let r = interner().read().unwrap_or_else(|e| e.into_inner());
        r.strs.get(self.0 as usize).copied().unwrap_or("")
    }
}

impl std::fmt::Debug for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! keywords {
    ($($name:ident = $s:literal,)*) => {
        /// Pre-interned keywords and well-known names, usable as constants (`kw::INT`).
        pub mod kw {
            use super::Symbol;
            keywords!(@consts 0u32; $($name = $s,)*);
            pub(crate) const ALL: &[&str] = &[$($s),*];
        }
    };
    (@consts $n:expr; $name:ident = $s:literal, $($rest:tt)*) => {
        pub const $name: Symbol = Symbol($n);
        keywords!(@consts $n + 1u32; $($rest)*);
    };
    (@consts $n:expr;) => {};
}

keywords! {
    // C keywords
    AUTO = "auto", BREAK = "break", CASE = "case", CHAR = "char", CONST = "const",
    CONTINUE = "continue", DEFAULT = "default", DO = "do", DOUBLE = "double", ELSE = "else",
    ENUM = "enum", EXTERN = "extern", FLOAT = "float", FOR = "for", GOTO = "goto", IF = "if",
    INLINE = "inline", INT = "int", LONG = "long", REGISTER = "register", RESTRICT = "restrict",
    RETURN = "return", SHORT = "short", SIGNED = "signed", SIZEOF = "sizeof", STATIC = "static",
    STRUCT = "struct", SWITCH = "switch", TYPEDEF = "typedef", UNION = "union",
    UNSIGNED = "unsigned", VOID = "void", VOLATILE = "volatile", WHILE = "while",
    BOOL_ = "_Bool", ALIGNOF_ = "_Alignof", ALIGNAS_ = "_Alignas", STATIC_ASSERT_ = "_Static_assert",
    NORETURN_ = "_Noreturn", GENERIC_SEL_ = "_Generic", ATOMIC_ = "_Atomic", COMPLEX_ = "_Complex",
    THREAD_LOCAL_ = "_Thread_local",
    // OpenCL C keywords and reserved names
    BOOL = "bool", HALF = "half", UCHAR = "uchar", USHORT = "ushort", UINT = "uint", ULONG = "ulong",
    SIZE_T = "size_t", PTRDIFF_T = "ptrdiff_t", INTPTR_T = "intptr_t", UINTPTR_T = "uintptr_t",
    GLOBAL_ = "__global", GLOBAL = "global", LOCAL_ = "__local", LOCAL = "local",
    CONSTANT_ = "__constant", CONSTANT = "constant", PRIVATE_ = "__private", PRIVATE = "private",
    GENERIC_ = "__generic", GENERIC = "generic",
    KERNEL_ = "__kernel", KERNEL = "kernel",
    READ_ONLY_ = "__read_only", READ_ONLY = "read_only", WRITE_ONLY_ = "__write_only",
    WRITE_ONLY = "write_only", READ_WRITE_ = "__read_write", READ_WRITE = "read_write",
    ATTRIBUTE = "__attribute__", ATTRIBUTE2 = "__attribute", VEC_STEP = "vec_step",
    ALIGNOF_GNU = "__alignof__", CONST_GNU = "__const", VOLATILE_GNU = "__volatile",
    RESTRICT_GNU = "__restrict", INLINE_GNU = "__inline", INLINE_GNU2 = "__inline__",
    TYPEOF = "typeof", TYPEOF_GNU = "__typeof__", EXTENSION_GNU = "__extension__",
    DEFINED = "defined", HAS_INCLUDE = "__has_include", VA_ARGS = "__VA_ARGS__",
    FUNC = "__func__", PIPE = "pipe",
    // The parser's other keyword spellings, so that every keyword is a fixed symbol.
    CONST_GNU2 = "__const__", RESTRICT_GNU2 = "__restrict__", SIGNED_GNU = "__signed",
    SIGNED_GNU2 = "__signed__", VOLATILE_GNU2 = "__volatile__", ALIGNOF_GNU2 = "__alignof",
    COMPLEX_GNU = "__complex__", TYPEOF_GNU2 = "__typeof", FUNCTION_GNU = "__FUNCTION__",
    TRUE = "true", FALSE = "false", BUILTIN_ASTYPE = "__builtin_astype",
    BUILTIN_OFFSETOF = "__builtin_offsetof", BUILTIN_BIT_CAST = "__builtin_bit_cast",
    BUILTIN_CHOOSE_EXPR = "__builtin_choose_expr",
    // GNU asm labels (`__asm("name")`); plain `asm` is no keyword in OpenCL C.
    ASM_GNU = "__asm", ASM_GNU2 = "__asm__",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_preinterned() {
        assert_eq!(Symbol::intern("int"), kw::INT);
        assert_eq!(kw::PIPE.as_str(), "pipe");
        let a = Symbol::intern("my_name");
        assert_eq!(a, Symbol::intern("my_name"));
        assert_eq!(a.as_str(), "my_name");
        assert_ne!(a, kw::INT);
    }

    /// Strings share storage blocks, long ones get their own, and all stay intact.
    #[test]
    fn many_and_long_strings_stay_intact() {
        let names: Vec<String> = (0..5000)
            .map(|i| format!("name_{i}_{}", "x".repeat(i % 40)))
            .collect();
        let syms: Vec<Symbol> = names.iter().map(|n| Symbol::intern(n)).collect();
        // Longer than the first blocks, shorter than a block of its own: fits a new block.
        let mid = Symbol::intern(&"m".repeat(BLOCK / 4));
        assert_eq!(mid.as_str(), "m".repeat(BLOCK / 4));
        let long = "y".repeat(BLOCK);
        let l = Symbol::intern(&long);
        let e = Symbol::intern("");
        for (n, s) in names.iter().zip(&syms) {
            assert_eq!(s.as_str(), n);
            assert_eq!(Symbol::intern(n), *s);
        }
        assert_eq!(l.as_str(), long);
        assert_eq!(e.as_str(), "");
        assert_eq!(Symbol::intern("é漢"), Symbol::intern("é漢"));
        assert_eq!(Symbol::intern("é漢").as_str(), "é漢");
        let st = Symbol::intern_static(["static_name_1", "int", "static_name_1", "name_7_xxxxxxx"]);
        assert_eq!(st[0], st[2]);
        assert_eq!(st[1], kw::INT);
        assert_eq!(st[3], syms[7]);
        assert_eq!(st[0].as_str(), "static_name_1");
        assert_eq!(Symbol::intern("static_name_1"), st[0]);
    }
}
