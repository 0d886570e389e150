//! Names every OpenCL C program can use without declaring them, as clang's default header
//! (`opencl-c-base.h`) declares them: the unsigned shorthands (`uint`), the size types
//! (`size_t`, spir64: `unsigned long`), vector typedefs (`float4`), `cl_mem_fence_flags`,
//! the C11 atomic typedefs and the `memory_order`/`memory_scope` enums.

use oclc_syntax::{ClStd, Span, Symbol};

use super::Checker;
use super::scope::Binding;
use crate::builtins::consts::BuiltinEnum;
use crate::types::{EnumDef, QualType, Scalar, TypeKind, TypeTable, TypedefDef};

const VECTOR_SIZES: [u8; 5] = [2, 3, 4, 8, 16];

/// Names [`Checker::predeclare`] enters, about (typedefs and enumerators).
const PREDECLARED_NAMES: usize = 128;

/// Each vector element type with its typedef names, one per [`VECTOR_SIZES`] entry.
macro_rules! vector_typedefs {
    ($($name:literal => $s:ident,)*) => {
        [$((
            Scalar::$s,
            &[
                concat!($name, "2"),
                concat!($name, "3"),
                concat!($name, "4"),
                concat!($name, "8"),
                concat!($name, "16"),
            ],
        ),)*]
    };
}

const VECTOR_TYPEDEFS: [(Scalar, &[&str; 5]); 11] = vector_typedefs! {
    "char" => Char,
    "uchar" => UChar,
    "short" => Short,
    "ushort" => UShort,
    "int" => Int,
    "uint" => UInt,
    "long" => Long,
    "ulong" => ULong,
    "float" => Float,
    "double" => Double,
    "half" => Half,
};

impl Checker<'_> {
    fn predef_typedef(&mut self, name: &str, ty: QualType) -> QualType {
        self.predef_typedef_sym(Symbol::intern(name), ty)
    }

    fn predef_typedef_sym(&mut self, sym: Symbol, ty: QualType) -> QualType {
        let id = self.prog.types.add_typedef(TypedefDef {
            name: sym,
            ty,
            span: Span::DUMMY,
            start: Span::DUMMY,
        });
        let q = QualType::new(id);
        self.scopes.insert_predeclared(sym, Binding::Typedef(q));
        if let TypeKind::Vector(..) = self.prog.types.ckind(q) {
            let c = self.prog.types.canonical(q).id;
            self.vec_typedefs.insert(c, q);
        } else {
            self.named_typedefs.insert(sym.as_str(), q);
        }
        q
    }

    pub(crate) fn predeclare(&mut self) {
        let t = |id| QualType::new(id);
        // About 110 names, 55 of them vector typedefs: room up front, not rehashing as they come.
        self.scopes.reserve_predeclared(PREDECLARED_NAMES);
        self.vec_typedefs
            .reserve(VECTOR_TYPEDEFS.len() * VECTOR_SIZES.len());
        self.named_typedefs
            .reserve(PREDECLARED_NAMES - VECTOR_TYPEDEFS.len() * VECTOR_SIZES.len());
        let uchar = self.predef_typedef("uchar", t(TypeTable::UCHAR));
        let ushort = self.predef_typedef("ushort", t(TypeTable::USHORT));
        let uint = self.predef_typedef("uint", t(TypeTable::UINT));
        let ulong = self.predef_typedef("ulong", t(TypeTable::ULONG));
        let (word, uword) = match self.lang.target {
            oclc_syntax::lang::Target::Spir => (TypeTable::INT, TypeTable::UINT),
            oclc_syntax::lang::Target::Spir64 => (TypeTable::LONG, TypeTable::ULONG),
        };
        let size_t = self.predef_typedef("size_t", t(uword));
        let ptrdiff_t = self.predef_typedef("ptrdiff_t", t(word));
        let intptr_t = self.predef_typedef("intptr_t", t(word));
        let uintptr_t = self.predef_typedef("uintptr_t", t(uword));
        self.predef_typedef("cl_mem_fence_flags", uint);
        let _ = (uchar, ushort, ulong);
        // The vector typedefs' names, interned under one lock.
        let names = Symbol::intern_static(VECTOR_TYPEDEFS.iter().flat_map(|(_, n)| *n).copied());
        let mut names = names.into_iter();
        for (s, _) in VECTOR_TYPEDEFS {
            for n in VECTOR_SIZES {
                let v = self.prog.types.vector(s, n);
                if let Some(sym) = names.next() {
                    self.predef_typedef_sym(sym, t(v));
                }
            }
        }
        // memory_order / memory_scope (OpenCL C 2.0 on): enums with typedef names, enumerators
        // of type int, those of this mode only (`memory_order_seq_cst` needs its feature...).
        let enumerators = crate::builtins::consts::enumerators(&self.lang);
        let enums = if self.lang.std >= ClStd::Cl20 {
            &[
                ("memory_order", BuiltinEnum::MemoryOrder),
                ("memory_scope", BuiltinEnum::MemoryScope),
            ][..]
        } else {
            &[]
        };
        for &(tag, kind) in enums {
            let values: Vec<(Symbol, i64)> = enumerators
                .iter()
                .filter(|e| e.1 == kind)
                .map(|&(n, _, v)| (Symbol::intern(n), v))
                .collect();
            let e = self.prog.types.add_enum(EnumDef {
                name: Some(Symbol::intern(tag)),
                complete: true,
                span: Span::DUMMY,
                values: values.clone(),
            });
            let et = self.prog.types.intern(TypeKind::Enum(e));
            self.predef_typedef(tag, t(et));
            for (n, v) in values {
                self.scopes
                    .insert_predeclared(n, Binding::EnumConst(v, t(TypeTable::INT)));
            }
        }
        if self.lang.std >= ClStd::Cl20 {
            // opencl-c-base.h's device-enqueue names: two int typedefs, and `ndrange_t` (a
            // struct) where device enqueue is (always in 2.0).
            self.predef_typedef("kernel_enqueue_flags_t", t(TypeTable::INT));
            self.predef_typedef("clk_profiling_info", t(TypeTable::INT));
            if self.lang.std == ClStd::Cl20 || self.lang.has("__opencl_c_device_enqueue") {
                let dims = self
                    .prog
                    .types
                    .array(size_t, crate::types::ArrayLen::Fixed(3));
                let field = |n: &str, ty: QualType| crate::types::Field {
                    name: Some(Symbol::intern(n)),
                    ty,
                    span: Span::DUMMY,
                    bit_width: None,
                };
                let rid = self.prog.types.add_record(crate::types::RecordDef {
                    name: None,
                    is_union: false,
                    fields: vec![
                        field("workDimension", t(TypeTable::UINT)),
                        field("globalWorkOffset", t(dims)),
                        field("globalWorkSize", t(dims)),
                        field("localWorkSize", t(dims)),
                    ],
                    complete: false,
                    layout: Default::default(),
                    span: Span::DUMMY,
                    packed: false,
                });
                self.prog.types.layout_record(rid);
                let rt = self.prog.types.intern(TypeKind::Record(rid));
                self.predef_typedef("ndrange_t", t(rt));
            }
            for (name, base) in [
                ("atomic_int", t(TypeTable::INT)),
                ("atomic_uint", t(TypeTable::UINT)),
                ("atomic_long", t(TypeTable::LONG)),
                ("atomic_ulong", t(TypeTable::ULONG)),
                ("atomic_float", t(TypeTable::FLOAT)),
                ("atomic_double", t(TypeTable::DOUBLE)),
                ("atomic_half", t(TypeTable::HALF)),
                ("atomic_intptr_t", intptr_t),
                ("atomic_uintptr_t", uintptr_t),
                ("atomic_size_t", size_t),
                ("atomic_ptrdiff_t", ptrdiff_t),
                ("atomic_flag", t(TypeTable::INT)),
            ] {
                let a = self.prog.types.intern(TypeKind::Atomic(base));
                self.predef_typedef(name, t(a));
            }
        }
    }
}
