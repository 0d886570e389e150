//! Keywords of OpenCL C as clang's OpenCL mode recognizes them, mapped from interned symbols.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::intern::{Symbol, kw};

/// A keyword (alternate spellings map to the same variant; the token keeps the spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kw {
    Auto,
    Break,
    Case,
    Char,
    Const,
    Continue,
    Default,
    Do,
    Double,
    Else,
    Enum,
    Extern,
    Float,
    For,
    Goto,
    If,
    Inline,
    Int,
    Long,
    Register,
    Restrict,
    Return,
    Short,
    Signed,
    Sizeof,
    Static,
    Struct,
    Switch,
    Typedef,
    Union,
    Unsigned,
    Void,
    Volatile,
    While,
    Bool,
    Alignof,
    AlignofGnu,
    Alignas,
    StaticAssert,
    Noreturn,
    Atomic,
    Complex,
    ThreadLocal,
    Half,
    Global,
    Local,
    Constant,
    Private,
    Generic,
    Kernel,
    ReadOnly,
    WriteOnly,
    ReadWrite,
    Attribute,
    VecStep,
    Typeof,
    Extension,
    Func,
    True,
    False,
    /// Only a keyword from OpenCL C 2.0 on (checked by the parser).
    Pipe,
    BuiltinAstype,
    BuiltinOffsetof,
    BuiltinBitCast,
    BuiltinChooseExpr,
}

/// Hasher for `u32`-like keys (symbols): one multiply, no SipHash.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(n)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

const TABLE: &[(&str, Kw)] = &[
    ("auto", Kw::Auto),
    ("break", Kw::Break),
    ("case", Kw::Case),
    ("char", Kw::Char),
    ("const", Kw::Const),
    ("__const", Kw::Const),
    ("__const__", Kw::Const),
    ("continue", Kw::Continue),
    ("default", Kw::Default),
    ("do", Kw::Do),
    ("double", Kw::Double),
    ("else", Kw::Else),
    ("enum", Kw::Enum),
    ("extern", Kw::Extern),
    ("float", Kw::Float),
    ("for", Kw::For),
    ("goto", Kw::Goto),
    ("if", Kw::If),
    ("inline", Kw::Inline),
    ("__inline", Kw::Inline),
    ("__inline__", Kw::Inline),
    ("int", Kw::Int),
    ("long", Kw::Long),
    ("register", Kw::Register),
    ("restrict", Kw::Restrict),
    ("__restrict", Kw::Restrict),
    ("__restrict__", Kw::Restrict),
    ("return", Kw::Return),
    ("short", Kw::Short),
    ("signed", Kw::Signed),
    ("__signed", Kw::Signed),
    ("__signed__", Kw::Signed),
    ("sizeof", Kw::Sizeof),
    ("static", Kw::Static),
    ("struct", Kw::Struct),
    ("switch", Kw::Switch),
    ("typedef", Kw::Typedef),
    ("union", Kw::Union),
    ("unsigned", Kw::Unsigned),
    ("void", Kw::Void),
    ("volatile", Kw::Volatile),
    ("__volatile", Kw::Volatile),
    ("__volatile__", Kw::Volatile),
    ("while", Kw::While),
    ("bool", Kw::Bool),
    ("_Bool", Kw::Bool),
    ("_Alignof", Kw::Alignof),
    ("__alignof__", Kw::AlignofGnu),
    ("__alignof", Kw::AlignofGnu),
    ("_Alignas", Kw::Alignas),
    ("_Static_assert", Kw::StaticAssert),
    ("_Noreturn", Kw::Noreturn),
    ("_Atomic", Kw::Atomic),
    ("_Complex", Kw::Complex),
    ("__complex__", Kw::Complex),
    ("_Thread_local", Kw::ThreadLocal),
    ("half", Kw::Half),
    ("__global", Kw::Global),
    ("global", Kw::Global),
    ("__local", Kw::Local),
    ("local", Kw::Local),
    ("__constant", Kw::Constant),
    ("constant", Kw::Constant),
    ("__private", Kw::Private),
    ("private", Kw::Private),
    ("__generic", Kw::Generic),
    ("generic", Kw::Generic),
    ("__kernel", Kw::Kernel),
    ("kernel", Kw::Kernel),
    ("__read_only", Kw::ReadOnly),
    ("read_only", Kw::ReadOnly),
    ("__write_only", Kw::WriteOnly),
    ("write_only", Kw::WriteOnly),
    ("__read_write", Kw::ReadWrite),
    ("read_write", Kw::ReadWrite),
    ("__attribute__", Kw::Attribute),
    ("__attribute", Kw::Attribute),
    ("vec_step", Kw::VecStep),
    ("__typeof__", Kw::Typeof),
    ("__typeof", Kw::Typeof),
    ("__extension__", Kw::Extension),
    ("__func__", Kw::Func),
    ("__FUNCTION__", Kw::Func),
    ("true", Kw::True),
    ("false", Kw::False),
    ("pipe", Kw::Pipe),
    ("__builtin_astype", Kw::BuiltinAstype),
    ("__builtin_offsetof", Kw::BuiltinOffsetof),
    ("__builtin_bit_cast", Kw::BuiltinBitCast),
    ("__builtin_choose_expr", Kw::BuiltinChooseExpr),
];

/// Whether two strings are equal, at compile time.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The keyword of each pre-interned symbol ([`kw::ALL`]), made at compile time: every
/// spelling in [`TABLE`] is one of them (checked here), so a lookup is an index (a map
/// built at run time was a twentieth of a small check).
static BY_SYMBOL: [Option<Kw>; kw::ALL.len()] = {
    let mut t = [None; kw::ALL.len()];
    let mut i = 0;
    while i < TABLE.len() {
        let (s, k) = TABLE[i];
        let mut j = 0;
        while j < kw::ALL.len() && !same(kw::ALL[j], s) {
            j += 1;
        }
        assert!(j < kw::ALL.len(), "every keyword spelling is pre-interned");
        t[j] = Some(k);
        i += 1;
    }
    t
};

/// The keyword `sym` spells, if any (`pipe` included regardless of language mode).
pub(crate) fn keyword(sym: Symbol) -> Option<Kw> {
    BY_SYMBOL.get(sym.0 as usize).copied().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_map_to_keywords() {
        assert_eq!(keyword(Symbol::intern("__global")), Some(Kw::Global));
        assert_eq!(keyword(Symbol::intern("global")), Some(Kw::Global));
        assert_eq!(keyword(Symbol::intern("__inline__")), Some(Kw::Inline));
        assert_eq!(keyword(Symbol::intern("float4")), None);
        assert_eq!(keyword(Symbol::intern("x")), None);
        // Every spelling of the table, and no pre-interned name outside it.
        for &(s, k) in TABLE {
            assert_eq!(keyword(Symbol::intern(s)), Some(k), "{s}");
        }
        for s in [
            "typeof",
            "defined",
            "__has_include",
            "__VA_ARGS__",
            "size_t",
            "uint",
        ] {
            assert_eq!(keyword(Symbol::intern(s)), None, "{s}");
        }
    }
}
