//! The bridge between builtin signature types ([`BTy`]) and sema's [`TypeTable`]: parameter
//! types built the way clang's builtin table builds them (so notes print the same), and call
//! arguments classified for overload resolution.

use super::ty::{self, Atomic, BTy, Pointee, Ptr};
use super::{Arg, OverloadId};
use crate::space::AddrSpace;
use crate::types::{self as st, LangAs, Opaque, QualType, Quals, TypeKind, TypeTable, TypedefId};

/// Looks up the types `opencl-c-base.h` declares by name: typedefs (`cl_mem_fence_flags`,
/// `atomic_flag`, `clk_profiling_info`, `ndrange_t`) and the enums `memory_order` and
/// `memory_scope`. Sema answers from its translation-unit scope.
pub trait NamedTypes {
    fn named_type(&self, name: &str) -> Option<QualType>;
}

impl<F: Fn(&str) -> Option<QualType>> NamedTypes for F {
    fn named_type(&self, name: &str) -> Option<QualType> {
        self(name)
    }
}

fn scalar_to_sema(s: ty::Scalar, tt: &TypeTable) -> st::Scalar {
    let canon = match s {
        ty::Scalar::Size | ty::Scalar::UIntPtr if tt.pointer_size() == 4 => ty::Scalar::UInt,
        ty::Scalar::PtrDiff | ty::Scalar::IntPtr if tt.pointer_size() == 4 => ty::Scalar::Int,
        s => s.canon(),
    };
    match canon {
        ty::Scalar::Bool => st::Scalar::Bool,
        ty::Scalar::Char => st::Scalar::Char,
        ty::Scalar::UChar => st::Scalar::UChar,
        ty::Scalar::Short => st::Scalar::Short,
        ty::Scalar::UShort => st::Scalar::UShort,
        ty::Scalar::Int => st::Scalar::Int,
        ty::Scalar::UInt => st::Scalar::UInt,
        ty::Scalar::Long => st::Scalar::Long,
        ty::Scalar::Half => st::Scalar::Half,
        ty::Scalar::Float => st::Scalar::Float,
        ty::Scalar::Double => st::Scalar::Double,
        _ => st::Scalar::ULong,
    }
}

fn scalar_from_sema(s: st::Scalar) -> ty::Scalar {
    match s {
        st::Scalar::Bool => ty::Scalar::Bool,
        st::Scalar::Char | st::Scalar::SChar => ty::Scalar::Char,
        st::Scalar::UChar => ty::Scalar::UChar,
        st::Scalar::Short => ty::Scalar::Short,
        st::Scalar::UShort => ty::Scalar::UShort,
        st::Scalar::Int => ty::Scalar::Int,
        st::Scalar::UInt => ty::Scalar::UInt,
        st::Scalar::Long | st::Scalar::LongLong => ty::Scalar::Long,
        st::Scalar::ULong | st::Scalar::ULongLong => ty::Scalar::ULong,
        st::Scalar::Half => ty::Scalar::Half,
        st::Scalar::Float => ty::Scalar::Float,
        st::Scalar::Double => ty::Scalar::Double,
    }
}

fn image_to_sema(k: ty::ImageKind) -> st::ImageDim {
    st::ImageDim::from_name(k.name()).unwrap_or(st::ImageDim::Image2d)
}

fn access_to_sema(a: ty::Access) -> st::Access {
    match a {
        ty::Access::ReadOnly => st::Access::ReadOnly,
        ty::Access::WriteOnly => st::Access::WriteOnly,
        ty::Access::ReadWrite => st::Access::ReadWrite,
    }
}

/// Sema's type for a builtin parameter or return type, as clang's builtin table creates it:
/// `size_t` and the other `Context.get*Type()` types are their canonical integer type,
/// vectors are bare `ext_vector_type`s, `atomic_int` is `_Atomic(int)`, and
/// `cl_mem_fence_flags`, `atomic_flag`, `memory_order`, ... are the declared typedefs/enums
/// (their canonical type if `named` does not know them).
pub fn to_sema(t: BTy, tt: &mut TypeTable, named: &dyn NamedTypes) -> QualType {
    let q = |id| QualType::new(id);
    match t {
        BTy::Void => q(TypeTable::VOID),
        BTy::Scalar(s) => {
            let sugar = match s {
                ty::Scalar::MemFenceFlags | ty::Scalar::ProfilingInfo => named.named_type(s.name()),
                _ => None,
            };
            sugar.unwrap_or_else(|| {
                let s = scalar_to_sema(s, tt);
                q(tt.scalar(s))
            })
        }
        BTy::Vector(s, n) => {
            let s = scalar_to_sema(s, tt);
            q(tt.vector(s, n))
        }
        BTy::Ptr(p) => {
            let pointee = pointee_to_sema(p.pointee, tt, named);
            let mut cvr = 0;
            if p.is_const {
                cvr |= Quals::CONST;
            }
            if p.is_volatile {
                cvr |= Quals::VOLATILE;
            }
            let pointee = tt.add_quals(
                pointee,
                Quals {
                    cvr,
                    space: Some(LangAs::Named(p.space)),
                },
            );
            q(tt.pointer(pointee))
        }
        BTy::Image(k, a) => q(tt.intern(TypeKind::Image(image_to_sema(k), access_to_sema(a)))),
        BTy::Sampler => q(tt.intern(TypeKind::Opaque(Opaque::Sampler))),
        BTy::Event => q(tt.intern(TypeKind::Opaque(Opaque::Event))),
        BTy::ClkEvent => q(tt.intern(TypeKind::Opaque(Opaque::ClkEvent))),
        BTy::Queue => q(tt.intern(TypeKind::Opaque(Opaque::Queue))),
        BTy::ReserveId => q(tt.intern(TypeKind::Opaque(Opaque::ReserveId))),
        BTy::Avc(a) => q(tt.intern(TypeKind::Opaque(Opaque::Avc(a)))),
        BTy::NDRange => named.named_type("ndrange_t").unwrap_or(q(TypeTable::ERROR)),
        BTy::MemoryOrder => named
            .named_type("memory_order")
            .unwrap_or_else(|| q(tt.scalar(st::Scalar::UInt))),
        BTy::MemoryScope => named
            .named_type("memory_scope")
            .unwrap_or_else(|| q(tt.scalar(st::Scalar::UInt))),
        BTy::Atomic(a) => atomic_to_sema(a, tt, named),
        BTy::Enum(..) | BTy::Other(_) => q(TypeTable::ERROR),
    }
}

fn atomic_to_sema(a: Atomic, tt: &mut TypeTable, named: &dyn NamedTypes) -> QualType {
    if a.flag
        && let Some(t) = named.named_type("atomic_flag")
    {
        return t;
    }
    let v = scalar_to_sema(a.value, tt);
    let v = QualType::new(tt.scalar(v));
    QualType::new(tt.intern(TypeKind::Atomic(v)))
}

fn pointee_to_sema(p: Pointee, tt: &mut TypeTable, named: &dyn NamedTypes) -> QualType {
    match p {
        Pointee::Void => QualType::new(TypeTable::VOID),
        Pointee::Scalar(s) => to_sema(BTy::Scalar(s), tt, named),
        Pointee::Vector(s, n) => to_sema(BTy::Vector(s, n), tt, named),
        Pointee::Atomic(a) => atomic_to_sema(a, tt, named),
        Pointee::Event => QualType::new(tt.intern(TypeKind::Opaque(Opaque::Event))),
        Pointee::ClkEvent => QualType::new(tt.intern(TypeKind::Opaque(Opaque::ClkEvent))),
        Pointee::Function(_) | Pointee::Other(_) => QualType::new(TypeTable::ERROR),
    }
}

/// Finds a typedef's name when the (non-canonical) type is typedef sugar.
fn typedef_name(qt: QualType, tt: &TypeTable) -> Option<String> {
    match tt.kind(qt.id) {
        TypeKind::Typedef(TypedefId(i)) => {
            let d = tt.typedefs.get(*i as usize)?;
            Some(d.name.as_str().to_string())
        }
        _ => None,
    }
}

/// Classifies the type of a call argument for [`super::Builtins::resolve`]. Pass the
/// argument's type after lvalue conversion (top-level qualifiers are ignored here anyway);
/// arrays and functions decay. Sema should not resolve a call whose arguments have the error
/// type: they classify as [`BTy::Other`] and match nothing.
pub fn arg_type(qt: QualType, tt: &TypeTable) -> BTy {
    if typedef_name(qt, tt).as_deref() == Some("ndrange_t") {
        return BTy::NDRange;
    }
    let c = tt.canonical(qt);
    match tt.kind(c.id) {
        TypeKind::Void => BTy::Void,
        TypeKind::Scalar(s) => BTy::Scalar(scalar_from_sema(*s)),
        TypeKind::Vector(s, n) => BTy::Vector(scalar_from_sema(*s), *n),
        TypeKind::Pointer(p) => BTy::Ptr(ptr_to(*p, tt)),
        TypeKind::Array(e, _) => BTy::Ptr(ptr_to(*e, tt)),
        TypeKind::Function(_) => BTy::Ptr(Ptr {
            pointee: Pointee::Function(c.id.0),
            space: AddrSpace::Private,
            is_const: false,
            is_volatile: false,
        }),
        TypeKind::Enum(e) => {
            let def = tt.enums.get(e.0 as usize);
            match def.and_then(|d| d.name).map(|n| n.as_str()) {
                Some("memory_order") => BTy::MemoryOrder,
                Some("memory_scope") => BTy::MemoryScope,
                _ => {
                    let negative = def.is_some_and(|d| d.values.iter().any(|&(_, v)| v < 0));
                    let promoted = if negative {
                        ty::Scalar::Int
                    } else {
                        ty::Scalar::UInt
                    };
                    BTy::Enum(c.id.0, promoted)
                }
            }
        }
        TypeKind::Image(d, a) => {
            let kind = ty::ImageKind::from_name(d.name()).unwrap_or(ty::ImageKind::Image2d);
            let acc = match a {
                st::Access::ReadOnly => ty::Access::ReadOnly,
                st::Access::WriteOnly => ty::Access::WriteOnly,
                st::Access::ReadWrite => ty::Access::ReadWrite,
            };
            BTy::Image(kind, acc)
        }
        TypeKind::Opaque(o) => match o {
            Opaque::Sampler => BTy::Sampler,
            Opaque::Event => BTy::Event,
            Opaque::ClkEvent => BTy::ClkEvent,
            Opaque::Queue => BTy::Queue,
            Opaque::ReserveId => BTy::ReserveId,
            Opaque::Avc(a) => BTy::Avc(*a),
        },
        TypeKind::Atomic(v) => match atomic_value(*v, tt) {
            Some(a) => BTy::Atomic(a),
            None => BTy::Other(c.id.0),
        },
        _ => BTy::Other(c.id.0),
    }
}

fn atomic_value(v: QualType, tt: &TypeTable) -> Option<Atomic> {
    match tt.ckind(v) {
        TypeKind::Scalar(s) => Some(Atomic {
            value: scalar_from_sema(*s),
            flag: false,
        }),
        _ => None,
    }
}

fn ptr_to(pointee: QualType, tt: &TypeTable) -> Ptr {
    let c = tt.canonical(pointee);
    let space = c
        .quals
        .space
        .and_then(LangAs::named)
        .unwrap_or(AddrSpace::Private);
    let p = match tt.kind(c.id) {
        TypeKind::Void => Pointee::Void,
        TypeKind::Scalar(s) => Pointee::Scalar(scalar_from_sema(*s)),
        TypeKind::Vector(s, n) => Pointee::Vector(scalar_from_sema(*s), *n),
        TypeKind::Atomic(v) => match atomic_value(*v, tt) {
            Some(a) => Pointee::Atomic(a),
            None => Pointee::Other(c.id.0),
        },
        TypeKind::Opaque(Opaque::Event) => Pointee::Event,
        TypeKind::Opaque(Opaque::ClkEvent) => Pointee::ClkEvent,
        TypeKind::Function(_) => Pointee::Function(c.id.0),
        _ => Pointee::Other(c.id.0),
    };
    Ptr {
        pointee: p,
        space,
        is_const: c.quals.is_const(),
        is_volatile: c.quals.is_volatile(),
    }
}

/// An argument for resolution from its sema type and constant-ness.
pub fn arg(qt: QualType, tt: &TypeTable, null_ptr: bool, int_const: Option<i128>) -> Arg {
    Arg {
        null_ptr,
        int_const,
        ..Arg::of(arg_type(qt, tt))
    }
}

impl OverloadId {
    /// Packs the overload (without its builtin, which the name identifies) into the `u32`
    /// sema's HIR stores (`hir::BuiltinRef::overload`).
    pub fn raw(self) -> u32 {
        (u32::from(self.decl) << 16) | u32::from(self.index)
    }

    /// Rebuilds the id from a builtin and [`OverloadId::raw`].
    pub fn from_raw(builtin: super::BuiltinId, raw: u32) -> OverloadId {
        OverloadId {
            builtin,
            decl: (raw >> 16) as u16,
            index: (raw & 0xffff) as u16,
        }
    }
}

/// Whether `as_T(x)` is valid: both types have the same size (3-vectors count as 4
/// elements). Otherwise clang says "invalid reinterpretation: sizes of 'T' and 'X' must
/// match" (`err_invalid_astype_size`, destination type first).
pub fn as_type_ok(target: BTy, src: QualType, tt: &TypeTable) -> bool {
    match (target.size(), tt.size_of(src)) {
        (Some(a), Some(b)) => u64::from(a) == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::{Builtins, NoMatch};
    use oclc_syntax::{ClStd, LangOptions};

    fn no_names(_: &str) -> Option<QualType> {
        None
    }

    #[test]
    fn parameter_types_print_like_clang() {
        let mut tt = TypeTable::new();
        let b = Builtins::new(&LangOptions::new(ClStd::Cl20));
        let id = b.lookup_str("vload4").unwrap_or_else(|| panic!());
        let o = b.overloads(id).nth(8).unwrap_or_else(|| panic!());
        let sig = b.signature(o);
        let printed: Vec<String> = sig
            .params()
            .iter()
            .map(|&p| {
                let q = to_sema(p, &mut tt, &no_names);
                tt.print(q)
            })
            .collect();
        assert_eq!(printed, vec!["unsigned long", "const __generic float *"]);
        let r = to_sema(sig.ret, &mut tt, &no_names);
        assert_eq!(tt.print(r), "float __attribute__((ext_vector_type(4)))");
        let a = to_sema(
            BTy::Atomic(Atomic {
                value: ty::Scalar::Int,
                flag: false,
            }),
            &mut tt,
            &no_names,
        );
        assert_eq!(tt.print(a), "_Atomic(int)");
    }

    #[test]
    fn arguments_round_trip() {
        let mut tt = TypeTable::new();
        let f = QualType::new(TypeTable::FLOAT).with_space(Some(LangAs::GLOBAL));
        let p = QualType::new(tt.pointer(f));
        let a = arg_type(p, &tt);
        assert_eq!(
            a,
            BTy::Ptr(Ptr {
                pointee: Pointee::Scalar(ty::Scalar::Float),
                space: AddrSpace::Global,
                is_const: false,
                is_volatile: false
            })
        );
        let b = Builtins::new(&LangOptions::new(ClStd::Cl20));
        let id = b.lookup_str("fract").unwrap_or_else(|| panic!());
        let args = [
            arg(QualType::new(TypeTable::FLOAT), &tt, false, None),
            Arg::of(a),
        ];
        let r = b
            .resolve(id, &args)
            .unwrap_or_else(|e: NoMatch| panic!("{e:?}"));
        assert_eq!(OverloadId::from_raw(id, r.overload.raw()), r.overload);
        let v3 = QualType::new(tt.vector(st::Scalar::Float, 3));
        assert!(as_type_ok(BTy::Vector(ty::Scalar::Int, 4), v3, &tt));
        assert!(!as_type_ok(BTy::Scalar(ty::Scalar::Int), v3, &tt));
    }
}

#[cfg(test)]
mod clang_print_tests {
    use super::*;
    use crate::builtins::{Builtins, NoMatch};
    use oclc_syntax::{ClStd, LangOptions};

    /// The parameter types of clang-19's notes for `fract(1.0f, c)` (CL2.0), printed through
    /// sema's printer. (clang prints a pointer to a bare vector as
    /// `float __generic * __attribute__((ext_vector_type(2)))`; that is the printer's business.)
    #[test]
    fn fract_note_types() {
        let mut tt = TypeTable::new();
        let b = Builtins::new(&LangOptions::new(ClStd::Cl20));
        let id = b.lookup_str("fract").unwrap_or_else(|| panic!());
        let c = Arg::of(BTy::Ptr(Ptr {
            pointee: Pointee::Scalar(ty::Scalar::Float),
            space: AddrSpace::Constant,
            is_const: false,
            is_volatile: false,
        }));
        let Err(NoMatch::NoViable(cands)) =
            b.resolve(id, &[Arg::of(BTy::Scalar(ty::Scalar::Float)), c])
        else {
            panic!();
        };
        let printed: Vec<String> = cands
            .iter()
            .take(3)
            .filter_map(|c| c.sig.params().get(1).copied())
            .map(|p| {
                let q = to_sema(p, &mut tt, &|_: &str| None);
                tt.print(q)
            })
            .collect();
        assert_eq!(
            printed,
            vec![
                "__generic float *",
                "__generic double *",
                "__generic half *",
            ]
        );
    }
}
