//! OpenCL C types: an interning [`TypeTable`] of [`TypeKind`]s addressed by copyable [`TypeId`]s,
//! and [`QualType`] (a type id plus `const`/`volatile`/`restrict` and an address space), the
//! same split clang makes. Types print exactly as clang prints them in diagnostics
//! (`'__global int *__private'`, `'const __constant char[6]'`), and typedef sugar is kept so
//! messages can say `'size_t' (aka 'unsigned long')`.
//!
//! Target: spir64 (pointers and `size_t` are 64-bit, 3-vectors are sized and aligned as 4).

use std::fmt::Write as _;

use oclc_syntax::{Span, Symbol};

use crate::fxhash::FxHashMap;

/// Types a table has room for when made (see [`TypeTable::new`]).
const INITIAL_TYPES: usize = 256;
use crate::space::AddrSpace;

/// Index of an interned type in a [`TypeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of a struct/union definition in a [`TypeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// Index of an enum definition in a [`TypeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnumId(pub u32);

/// Index of a typedef in a [`TypeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypedefId(pub u32);

/// The address space written on (or deduced for) one level of a type. Besides the five OpenCL
/// spaces, clang knows the USM subsets of `__global` and numbered target spaces; they are kept
/// so diagnostics about them print as clang prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LangAs {
    Named(AddrSpace),
    /// `__attribute__((opencl_global_device))`, a subset of `__global`.
    GlobalDevice,
    /// `__attribute__((opencl_global_host))`, a subset of `__global`.
    GlobalHost,
    /// `__attribute__((address_space(N)))`.
    Target(u32),
}

impl LangAs {
    pub const PRIVATE: LangAs = LangAs::Named(AddrSpace::Private);
    pub const GLOBAL: LangAs = LangAs::Named(AddrSpace::Global);
    pub const LOCAL: LangAs = LangAs::Named(AddrSpace::Local);
    pub const CONSTANT: LangAs = LangAs::Named(AddrSpace::Constant);
    pub const GENERIC: LangAs = LangAs::Named(AddrSpace::Generic);

    /// How clang prints it inside a type.
    pub fn spelling(self) -> String {
        match self {
            LangAs::Named(a) => a.clang_name().to_string(),
            LangAs::GlobalDevice => "__global_device".to_string(),
            LangAs::GlobalHost => "__global_host".to_string(),
            LangAs::Target(n) => format!("__attribute__((address_space({n})))"),
        }
    }

    /// The OpenCL space this one belongs to (`__global_device` is `__global`); `None` for
    /// numbered target spaces.
    pub fn named(self) -> Option<AddrSpace> {
        match self {
            LangAs::Named(a) => Some(a),
            LangAs::GlobalDevice | LangAs::GlobalHost => Some(AddrSpace::Global),
            LangAs::Target(_) => None,
        }
    }
}

/// `const`/`volatile`/`restrict` plus an optional address space on one level of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quals {
    pub cvr: u8,
    pub space: Option<LangAs>,
}

impl Quals {
    pub const CONST: u8 = 1;
    pub const VOLATILE: u8 = 2;
    pub const RESTRICT: u8 = 4;
    pub const NONE: Quals = Quals {
        cvr: 0,
        space: None,
    };

    pub fn space(space: LangAs) -> Quals {
        Quals {
            cvr: 0,
            space: Some(space),
        }
    }

    pub fn is_const(self) -> bool {
        self.cvr & Self::CONST != 0
    }

    pub fn is_volatile(self) -> bool {
        self.cvr & Self::VOLATILE != 0
    }

    pub fn is_empty(self) -> bool {
        self.cvr == 0 && self.space.is_none()
    }

    /// The union of both; `other`'s address space wins when both have one.
    pub fn merge(self, other: Quals) -> Quals {
        Quals {
            cvr: self.cvr | other.cvr,
            space: other.space.or(self.space),
        }
    }

    /// `self` has every cvr qualifier of `other` (pointer-conversion qualifier check).
    pub fn cvr_includes(self, other: Quals) -> bool {
        other.cvr & !self.cvr == 0
    }

    /// Clang's order: `const volatile restrict __space`.
    pub fn spelling(self) -> String {
        let mut out = String::new();
        self.write_spelling(&mut out);
        out
    }

    /// Appends [`Quals::spelling`] to `out` (type printing builds one string, not parts).
    pub fn write_spelling(self, out: &mut String) {
        let start = out.len();
        let word = |w: &str, out: &mut String| {
            if out.len() > start {
                out.push(' ');
            }
            out.push_str(w);
        };
        if self.is_const() {
            word("const", out);
        }
        if self.is_volatile() {
            word("volatile", out);
        }
        if self.cvr & Self::RESTRICT != 0 {
            word("restrict", out);
        }
        if let Some(s) = self.space {
            word(&s.spelling(), out);
        }
    }
}

/// Arithmetic scalar types, in conversion-rank order within signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Half,
    Float,
    Double,
}

impl Scalar {
    /// Every scalar, in declaration order (the type table interns them first, in this order).
    pub const ALL: [Scalar; 15] = [
        Scalar::Bool,
        Scalar::Char,
        Scalar::SChar,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::LongLong,
        Scalar::ULongLong,
        Scalar::Half,
        Scalar::Float,
        Scalar::Double,
    ];

    /// clang's spelling of the canonical type.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::SChar => "signed char",
            Scalar::UChar => "unsigned char",
            Scalar::Short => "short",
            Scalar::UShort => "unsigned short",
            Scalar::Int => "int",
            Scalar::UInt => "unsigned int",
            Scalar::Long => "long",
            Scalar::ULong => "unsigned long",
            Scalar::LongLong => "long long",
            Scalar::ULongLong => "unsigned long long",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    /// The OpenCL spelling (`uint` rather than `unsigned int`), as the default header's
    /// typedefs make clang print vector element types.
    pub fn opencl_name(self) -> &'static str {
        match self {
            Scalar::UChar => "uchar",
            Scalar::UShort => "ushort",
            Scalar::UInt => "uint",
            Scalar::ULong => "ulong",
            s => s.name(),
        }
    }

    /// Size in bytes (OpenCL C fixes these: long is 64-bit; `long long`, which OpenCL C
    /// reserves, is 128-bit on clang's SPIR targets, as clang-19 lays it out).
    pub fn size(self) -> u64 {
        match self {
            Scalar::Bool | Scalar::Char | Scalar::SChar | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
            Scalar::LongLong | Scalar::ULongLong => 16,
        }
    }

    /// Whether this is one of the 128-bit integer types (`long long` on SPIR), which the
    /// devices cannot run.
    pub fn is_wide(self) -> bool {
        matches!(self, Scalar::LongLong | Scalar::ULongLong)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// Signed integer types (`char` is signed on spir).
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char
                | Scalar::SChar
                | Scalar::Short
                | Scalar::Int
                | Scalar::Long
                | Scalar::LongLong
        ) || self.is_float()
    }

    /// Integer conversion rank (C99 6.3.1.1); floats rank above all integers.
    pub fn rank(self) -> u8 {
        match self {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::SChar | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::Int | Scalar::UInt => 3,
            Scalar::Long | Scalar::ULong => 4,
            Scalar::LongLong | Scalar::ULongLong => 5,
            Scalar::Half => 6,
            Scalar::Float => 7,
            Scalar::Double => 8,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> Scalar {
        match self {
            Scalar::Char | Scalar::SChar => Scalar::UChar,
            Scalar::Short => Scalar::UShort,
            Scalar::Int => Scalar::UInt,
            Scalar::Long => Scalar::ULong,
            Scalar::LongLong => Scalar::ULongLong,
            s => s,
        }
    }
}

/// Image dimensionality; with the access qualifier it names one image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image2dDepth,
    Image2dArrayDepth,
    Image2dMsaa,
    Image2dArrayMsaa,
    Image2dMsaaDepth,
    Image2dArrayMsaaDepth,
    Image3d,
}

impl ImageDim {
    pub const ALL: [ImageDim; 12] = [
        ImageDim::Image1d,
        ImageDim::Image1dArray,
        ImageDim::Image1dBuffer,
        ImageDim::Image2d,
        ImageDim::Image2dArray,
        ImageDim::Image2dDepth,
        ImageDim::Image2dArrayDepth,
        ImageDim::Image2dMsaa,
        ImageDim::Image2dArrayMsaa,
        ImageDim::Image2dMsaaDepth,
        ImageDim::Image2dArrayMsaaDepth,
        ImageDim::Image3d,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ImageDim::Image1d => "image1d_t",
            ImageDim::Image1dArray => "image1d_array_t",
            ImageDim::Image1dBuffer => "image1d_buffer_t",
            ImageDim::Image2d => "image2d_t",
            ImageDim::Image2dArray => "image2d_array_t",
            ImageDim::Image2dDepth => "image2d_depth_t",
            ImageDim::Image2dArrayDepth => "image2d_array_depth_t",
            ImageDim::Image2dMsaa => "image2d_msaa_t",
            ImageDim::Image2dArrayMsaa => "image2d_array_msaa_t",
            ImageDim::Image2dMsaaDepth => "image2d_msaa_depth_t",
            ImageDim::Image2dArrayMsaaDepth => "image2d_array_msaa_depth_t",
            ImageDim::Image3d => "image3d_t",
        }
    }

    pub fn from_name(s: &str) -> Option<ImageDim> {
        ImageDim::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// Image/pipe access qualifier (`__read_only` is the default for images).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn spelling(self) -> &'static str {
        match self {
            Access::ReadOnly => "__read_only",
            Access::WriteOnly => "__write_only",
            Access::ReadWrite => "__read_write",
        }
    }
}

/// The built-in opaque types other than images and pipes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opaque {
    Sampler,
    Event,
    ClkEvent,
    Queue,
    ReserveId,
    /// A `cl_intel_device_side_avc_motion_estimation` type.
    Avc(Avc),
}

/// The opaque types of `cl_intel_device_side_avc_motion_estimation` (clang's
/// `OpenCLExtensionTypes.def`), each named `intel_sub_group_avc_<suffix>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Avc {
    McePayload,
    ImePayload,
    RefPayload,
    SicPayload,
    MceResult,
    ImeResult,
    RefResult,
    SicResult,
    ImeResultSingleReferenceStreamout,
    ImeResultDualReferenceStreamout,
    ImeSingleReferenceStreamin,
    ImeDualReferenceStreamin,
}

impl Avc {
    pub const ALL: [Avc; 12] = [
        Avc::McePayload,
        Avc::ImePayload,
        Avc::RefPayload,
        Avc::SicPayload,
        Avc::MceResult,
        Avc::ImeResult,
        Avc::RefResult,
        Avc::SicResult,
        Avc::ImeResultSingleReferenceStreamout,
        Avc::ImeResultDualReferenceStreamout,
        Avc::ImeSingleReferenceStreamin,
        Avc::ImeDualReferenceStreamin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Avc::McePayload => "intel_sub_group_avc_mce_payload_t",
            Avc::ImePayload => "intel_sub_group_avc_ime_payload_t",
            Avc::RefPayload => "intel_sub_group_avc_ref_payload_t",
            Avc::SicPayload => "intel_sub_group_avc_sic_payload_t",
            Avc::MceResult => "intel_sub_group_avc_mce_result_t",
            Avc::ImeResult => "intel_sub_group_avc_ime_result_t",
            Avc::RefResult => "intel_sub_group_avc_ref_result_t",
            Avc::SicResult => "intel_sub_group_avc_sic_result_t",
            Avc::ImeResultSingleReferenceStreamout => {
                "intel_sub_group_avc_ime_result_single_reference_streamout_t"
            }
            Avc::ImeResultDualReferenceStreamout => {
                "intel_sub_group_avc_ime_result_dual_reference_streamout_t"
            }
            Avc::ImeSingleReferenceStreamin => {
                "intel_sub_group_avc_ime_single_reference_streamin_t"
            }
            Avc::ImeDualReferenceStreamin => "intel_sub_group_avc_ime_dual_reference_streamin_t",
        }
    }

    pub fn from_name(s: &str) -> Option<Avc> {
        Avc::ALL.into_iter().find(|a| a.name() == s)
    }

    /// clang lets `0` initialize every AVC type but these two.
    pub fn zero_initializable(self) -> bool {
        !matches!(self, Avc::McePayload | Avc::MceResult)
    }
}

impl Opaque {
    pub fn name(self) -> &'static str {
        match self {
            Opaque::Sampler => "sampler_t",
            Opaque::Event => "event_t",
            Opaque::ClkEvent => "clk_event_t",
            Opaque::Queue => "queue_t",
            Opaque::ReserveId => "reserve_id_t",
            Opaque::Avc(a) => a.name(),
        }
    }
}

/// Array bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayLen {
    Fixed(u64),
    /// `T[]`: incomplete until an initializer sizes it.
    Incomplete,
    /// A bound that is not a constant expression (an error in OpenCL; kept for recovery).
    Variable,
}

/// A function type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnSig {
    pub ret: QualType,
    pub params: Box<[QualType]>,
    pub variadic: bool,
    /// `false` for a K&R-style `f()` declaration without a prototype.
    pub has_proto: bool,
}

/// The structure of one type level. Interned: equal kinds have equal [`TypeId`]s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Void,
    Scalar(Scalar),
    /// `ext_vector_type` of 2, 3, 4, 8 or 16 scalars.
    Vector(Scalar, u8),
    Pointer(QualType),
    Array(QualType, ArrayLen),
    Function(FnSig),
    Record(RecordId),
    Enum(EnumId),
    /// Typedef sugar; the canonical type is the typedef's underlying type.
    Typedef(TypedefId),
    Image(ImageDim, Access),
    Opaque(Opaque),
    Pipe(QualType, Access),
    /// `_Atomic(T)` (the `atomic_int` family).
    Atomic(QualType),
    /// The type of an expression that failed to check; compatible with everything so that
    /// one error does not cascade.
    Error,
}

/// A type with the qualifiers of its outermost level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QualType {
    pub id: TypeId,
    pub quals: Quals,
}

impl QualType {
    pub fn new(id: TypeId) -> QualType {
        QualType {
            id,
            quals: Quals::NONE,
        }
    }

    pub fn with_quals(self, quals: Quals) -> QualType {
        QualType { id: self.id, quals }
    }

    pub fn with_space(self, space: Option<LangAs>) -> QualType {
        QualType {
            id: self.id,
            quals: Quals {
                space,
                ..self.quals
            },
        }
    }

    pub fn unqualified(self) -> QualType {
        QualType::new(self.id)
    }

    pub fn space(self) -> Option<LangAs> {
        self.quals.space
    }
}

/// One field of a struct or union.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: Option<Symbol>,
    pub ty: QualType,
    pub span: Span,
    pub bit_width: Option<u32>,
}

/// Size, alignment and field offsets of a complete record (bytes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
    pub offsets: Vec<u64>,
}

/// A struct or union.
#[derive(Clone, Debug)]
pub struct RecordDef {
    pub name: Option<Symbol>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    /// Set once the body is seen.
    pub complete: bool,
    pub layout: Layout,
    /// The name (or `struct` keyword) in the declaration.
    pub span: Span,
    /// `__attribute__((packed))`.
    pub packed: bool,
}

/// An enum.
#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: Option<Symbol>,
    pub complete: bool,
    pub span: Span,
    /// Enumerators and their values.
    pub values: Vec<(Symbol, i64)>,
}

/// A typedef name.
#[derive(Clone, Debug)]
pub struct TypedefDef {
    pub name: Symbol,
    pub ty: QualType,
    pub span: Span,
    /// Where its declaration begins (the `typedef` keyword): clang's notes about the
    /// typedef itself point there.
    pub start: Span,
}

/// Pointer size on spir64 (the default target; [`TypeTable::pointer_size`] is the size of one
/// compilation's target).
pub const POINTER_SIZE: u64 = 8;

/// The interner and the record/enum/typedef definitions of one compilation.
#[derive(Debug)]
pub struct TypeTable {
    kinds: Vec<TypeKind>,
    /// Canonical form of each id (typedefs removed at every level).
    canon: Vec<QualType>,
    map: FxHashMap<TypeKind, TypeId>,
    pub records: Vec<RecordDef>,
    pub enums: Vec<EnumDef>,
    pub typedefs: Vec<TypedefDef>,
    /// The alignment a typedef declares with `__attribute__((aligned(N)))`, which replaces
    /// its type's own (a typedef may raise or lower it, as in clang).
    typedef_aligns: FxHashMap<TypedefId, u64>,
    /// Where each unnamed struct, union (by record index) and enum (by enum index, negated
    /// past `u32`) is declared, as clang prints it (`FILE:LINE:COL`): such a type prints as
    /// `struct (unnamed struct at FILE:LINE:COL)`. The checker, which has the source map,
    /// records it.
    unnamed_at: FxHashMap<(bool, u32), Box<str>>,
    /// `sizeof` a pointer on the target: 8 (spir64) or 4 (spir).
    pointer_size: u64,
}

impl Default for TypeTable {
    fn default() -> Self {
        TypeTable::new()
    }
}

/// Fixed ids of the types every compilation uses.
impl TypeTable {
    pub const VOID: TypeId = TypeId(0);
    pub const ERROR: TypeId = TypeId(1);
    pub const BOOL: TypeId = TypeId(2);
    pub const CHAR: TypeId = TypeId(3);
    pub const SCHAR: TypeId = TypeId(4);
    pub const UCHAR: TypeId = TypeId(5);
    pub const SHORT: TypeId = TypeId(6);
    pub const USHORT: TypeId = TypeId(7);
    pub const INT: TypeId = TypeId(8);
    pub const UINT: TypeId = TypeId(9);
    pub const LONG: TypeId = TypeId(10);
    pub const ULONG: TypeId = TypeId(11);
    pub const LONGLONG: TypeId = TypeId(12);
    pub const ULONGLONG: TypeId = TypeId(13);
    pub const HALF: TypeId = TypeId(14);
    pub const FLOAT: TypeId = TypeId(15);
    pub const DOUBLE: TypeId = TypeId(16);

    pub fn new() -> TypeTable {
        // Every program starts with ~150 types (scalars, the predeclared vectors and
        // typedefs, the builtins' pointer types): room for them up front.
        let mut t = TypeTable {
            kinds: Vec::with_capacity(INITIAL_TYPES),
            canon: Vec::with_capacity(INITIAL_TYPES),
            map: FxHashMap::with_capacity_and_hasher(INITIAL_TYPES, Default::default()),
            records: Vec::new(),
            enums: Vec::new(),
            typedefs: Vec::new(),
            typedef_aligns: FxHashMap::default(),
            unnamed_at: FxHashMap::default(),
            pointer_size: POINTER_SIZE,
        };
        t.intern(TypeKind::Void);
        t.intern(TypeKind::Error);
        for s in Scalar::ALL {
            t.intern(TypeKind::Scalar(s));
        }
        t
    }

    /// The id of `kind`, adding it if new.
    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        // Scalars have fixed ids (BOOL..=DOUBLE in `Scalar`'s order) once `new` added them:
        // conversions ask for them by the hundred thousand, no hashing needed.
        if let TypeKind::Scalar(s) = kind {
            let id = Self::BOOL.0 + s as u32;
            if (id as usize) < self.kinds.len() {
                return TypeId(id);
            }
        }
        if let Some(&id) = self.map.get(&kind) {
            return id;
        }
        // The canonical form (None: the kind is its own canonical form). Interning it may add
        // entries, so the new id is taken afterwards.
        let canon: Option<QualType> = match &kind {
            TypeKind::Pointer(p) => {
                let c = self.canonical(*p);
                (c != *p).then(|| QualType::new(self.intern(TypeKind::Pointer(c))))
            }
            TypeKind::Array(e, n) => {
                let c = self.canonical(*e);
                (c != *e).then(|| QualType::new(self.intern(TypeKind::Array(c, *n))))
            }
            TypeKind::Function(sig) => {
                let c = FnSig {
                    ret: self.canonical(sig.ret),
                    params: sig.params.iter().map(|p| self.canonical(*p)).collect(),
                    variadic: sig.variadic,
                    has_proto: sig.has_proto,
                };
                (c != *sig).then(|| QualType::new(self.intern(TypeKind::Function(c))))
            }
            TypeKind::Atomic(e) => {
                let c = self.canonical(*e);
                (c != *e).then(|| QualType::new(self.intern(TypeKind::Atomic(c))))
            }
            TypeKind::Pipe(e, a) => {
                let c = self.canonical(*e);
                (c != *e).then(|| QualType::new(self.intern(TypeKind::Pipe(c, *a))))
            }
            TypeKind::Typedef(td) => Some(match self.typedefs.get(td.0 as usize).map(|d| d.ty) {
                Some(u) => self.canonical(u),
                None => QualType::new(TypeTable::ERROR),
            }),
            _ => None,
        };
        let id = TypeId(self.kinds.len() as u32);
        let canon = canon.unwrap_or(QualType::new(id));
        self.kinds.push(kind.clone());
        self.canon.push(canon);
        self.map.insert(kind, id);
        id
    }

    pub fn kind(&self, id: TypeId) -> &TypeKind {
        self.kinds.get(id.0 as usize).unwrap_or(&TypeKind::Error)
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// `qt` with typedefs removed at every level and their qualifiers merged in.
    pub fn canonical(&self, qt: QualType) -> QualType {
        let c = self
            .canon
            .get(qt.id.0 as usize)
            .copied()
            .unwrap_or(QualType::new(qt.id));
        QualType {
            id: c.id,
            quals: c.quals.merge(qt.quals),
        }
    }

    /// The canonical kind of `qt`.
    pub fn ckind(&self, qt: QualType) -> &TypeKind {
        self.kind(self.canonical(qt).id)
    }

    pub fn scalar(&mut self, s: Scalar) -> TypeId {
        self.intern(TypeKind::Scalar(s))
    }

    pub fn vector(&mut self, s: Scalar, n: u8) -> TypeId {
        self.intern(TypeKind::Vector(s, n))
    }

    pub fn pointer(&mut self, pointee: QualType) -> TypeId {
        self.intern(TypeKind::Pointer(pointee))
    }

    /// An array type; qualifiers on `elem` stay on the element, as clang keeps them.
    pub fn array(&mut self, elem: QualType, len: ArrayLen) -> TypeId {
        self.intern(TypeKind::Array(elem, len))
    }

    pub fn function(&mut self, sig: FnSig) -> TypeId {
        self.intern(TypeKind::Function(sig))
    }

    /// Adds `quals` to `qt`; on an array type they go to the element type (C99 6.7.3p8).
    pub fn add_quals(&mut self, qt: QualType, quals: Quals) -> QualType {
        if quals.is_empty() {
            return qt;
        }
        if let &TypeKind::Array(e, n) = self.kind(qt.id) {
            let e2 = self.add_quals(e, quals);
            let id = self.array(e2, n);
            return QualType {
                id,
                quals: qt.quals,
            };
        }
        QualType {
            id: qt.id,
            quals: qt.quals.merge(quals),
        }
    }

    /// The address space of an object of type `qt`: its own, or its (innermost) array
    /// element's.
    pub fn object_space(&self, qt: QualType) -> Option<LangAs> {
        let c = self.canonical(qt);
        if c.quals.space.is_some() {
            return c.quals.space;
        }
        match self.kind(c.id) {
            TypeKind::Array(e, _) => self.object_space(*e),
            _ => None,
        }
    }

    /// Sets the address space of an object type (on the element for arrays).
    pub fn set_object_space(&mut self, qt: QualType, space: Option<LangAs>) -> QualType {
        if let &TypeKind::Array(e, n) = self.kind(qt.id) {
            let e2 = self.set_object_space(e, space);
            let id = self.array(e2, n);
            return QualType {
                id,
                quals: Quals {
                    space: None,
                    ..qt.quals
                },
            };
        }
        qt.with_space(space)
    }

    /// `const` anywhere on the object (own level or array element).
    pub fn is_const_object(&self, qt: QualType) -> bool {
        let c = self.canonical(qt);
        if c.quals.is_const() {
            return true;
        }
        match self.kind(c.id) {
            TypeKind::Array(e, _) => self.is_const_object(*e),
            _ => false,
        }
    }

    pub fn add_record(&mut self, def: RecordDef) -> RecordId {
        self.records.push(def);
        RecordId(self.records.len() as u32 - 1)
    }

    /// Records where an unnamed record (`is_enum` false) or enum is declared, for printing.
    pub fn set_unnamed_at(&mut self, is_enum: bool, index: u32, at: String) {
        self.unnamed_at.insert((is_enum, index), at.into());
    }

    /// How clang names an unnamed tag type: `KW (unnamed KW at FILE:LINE:COL)`.
    fn unnamed(&self, kw: &str, is_enum: bool, index: u32) -> std::borrow::Cow<'static, str> {
        match self.unnamed_at.get(&(is_enum, index)) {
            Some(at) => format!("{kw} (unnamed {kw} at {at})").into(),
            None => format!("{kw} (unnamed)").into(),
        }
    }

    pub fn add_enum(&mut self, def: EnumDef) -> EnumId {
        self.enums.push(def);
        EnumId(self.enums.len() as u32 - 1)
    }

    pub fn add_typedef(&mut self, def: TypedefDef) -> TypeId {
        self.typedefs.push(def);
        let id = TypedefId(self.typedefs.len() as u32 - 1);
        self.intern(TypeKind::Typedef(id))
    }

    pub fn record(&self, id: RecordId) -> Option<&RecordDef> {
        self.records.get(id.0 as usize)
    }

    pub fn typedef(&self, id: TypedefId) -> Option<&TypedefDef> {
        self.typedefs.get(id.0 as usize)
    }

    // ---- classification (all on the canonical type) ----

    pub fn is_void(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Void)
    }

    pub fn is_error(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Error)
    }

    pub fn as_scalar(&self, qt: QualType) -> Option<Scalar> {
        match self.ckind(qt) {
            TypeKind::Scalar(s) => Some(*s),
            TypeKind::Enum(_) => Some(Scalar::UInt),
            _ => None,
        }
    }

    /// Integer (including `bool` and enums).
    pub fn is_integer(&self, qt: QualType) -> bool {
        self.as_scalar(qt).is_some_and(Scalar::is_integer)
    }

    pub fn is_arithmetic(&self, qt: QualType) -> bool {
        self.as_scalar(qt).is_some()
    }

    pub fn as_vector(&self, qt: QualType) -> Option<(Scalar, u8)> {
        match self.ckind(qt) {
            TypeKind::Vector(s, n) => Some((*s, *n)),
            _ => None,
        }
    }

    /// The canonical pointee of a pointer type.
    pub fn pointee(&self, qt: QualType) -> Option<QualType> {
        match self.ckind(qt) {
            TypeKind::Pointer(p) => Some(*p),
            _ => None,
        }
    }

    /// The pointee with typedef sugar kept (for printing).
    pub fn pointee_sugared(&self, qt: QualType) -> Option<QualType> {
        let mut q = qt;
        for _ in 0..64 {
            match self.kind(q.id) {
                TypeKind::Pointer(p) => return Some(*p),
                TypeKind::Typedef(td) => q = self.typedef(*td)?.ty,
                _ => return None,
            }
        }
        None
    }

    pub fn is_pointer(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Pointer(_))
    }

    /// The element type and length of an array; qualifiers on the array (through a typedef:
    /// `const T10 v`, `__private` on a `T10` variable) belong to the element, as in clang.
    pub fn array_elem(&self, qt: QualType) -> Option<(QualType, ArrayLen)> {
        let c = self.canonical(qt);
        match self.kind(c.id) {
            TypeKind::Array(e, n) => Some((
                QualType {
                    id: e.id,
                    quals: e.quals.merge(c.quals),
                },
                *n,
            )),
            _ => None,
        }
    }

    /// [`Self::array_elem`] keeping the element's typedef sugar (`u8` of `u8 b[4]`), for
    /// the type of a decayed array, which clang prints as written (`'__private u8 *'`).
    pub fn array_elem_sugared(&self, qt: QualType) -> Option<(QualType, ArrayLen)> {
        // Most types are no array (every rvalue conversion asks): one table look.
        if !matches!(self.ckind(qt), TypeKind::Array(..)) {
            return None;
        }
        let mut q = qt;
        let mut quals = qt.quals;
        for _ in 0..64 {
            match self.kind(q.id) {
                TypeKind::Array(e, n) => {
                    return Some((
                        QualType {
                            id: e.id,
                            quals: e.quals.merge(quals),
                        },
                        *n,
                    ));
                }
                TypeKind::Typedef(td) => {
                    q = self.typedef(*td)?.ty;
                    quals = quals.merge(q.quals);
                }
                _ => return self.array_elem(qt),
            }
        }
        self.array_elem(qt)
    }

    pub fn is_array(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Array(..))
    }

    pub fn fn_sig(&self, qt: QualType) -> Option<&FnSig> {
        match self.ckind(qt) {
            TypeKind::Function(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_record(&self, qt: QualType) -> Option<RecordId> {
        match self.ckind(qt) {
            TypeKind::Record(r) => Some(*r),
            _ => None,
        }
    }

    pub fn is_opaque(&self, qt: QualType, o: Opaque) -> bool {
        matches!(self.ckind(qt), TypeKind::Opaque(x) if *x == o)
    }

    pub fn is_image(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Image(..))
    }

    /// Scalar arithmetic, pointer or enum: usable in a condition.
    pub fn is_scalar_type(&self, qt: QualType) -> bool {
        matches!(
            self.ckind(qt),
            TypeKind::Scalar(_) | TypeKind::Enum(_) | TypeKind::Pointer(_)
        )
    }

    /// The element type (vector element or the type itself) for arithmetic checks.
    pub fn elem_scalar(&self, qt: QualType) -> Option<Scalar> {
        match self.ckind(qt) {
            TypeKind::Vector(s, _) => Some(*s),
            _ => self.as_scalar(qt),
        }
    }

    /// Whether `qt` is complete (sized): not void, not an incomplete array or record.
    pub fn is_complete(&self, qt: QualType) -> bool {
        match self.ckind(qt) {
            TypeKind::Void | TypeKind::Function(_) => false,
            TypeKind::Array(e, n) => *n != ArrayLen::Incomplete && self.is_complete(*e),
            TypeKind::Record(r) => self.record(*r).is_some_and(|d| d.complete),
            _ => true,
        }
    }

    // ---- layout ----

    /// Lays out pointers for `target` (spir: 4 bytes, spir64: 8).
    pub fn set_target(&mut self, target: oclc_syntax::lang::Target) {
        self.pointer_size = target.pointer_size();
    }

    /// `sizeof` a pointer on this table's target.
    pub fn pointer_size(&self) -> u64 {
        self.pointer_size
    }

    /// clang's `ConstantArrayType::getMaxSizeBits`: the bits of `size_t`, at most 61 (so a
    /// size in bits fits 64 bits). An object needs fewer than this many bits of bytes.
    pub fn max_size_bits(&self) -> u32 {
        (self.pointer_size * 8).min(61) as u32
    }

    /// Whether an array of `n` elements of `elem_size` bytes is too large for the target:
    /// clang's `getNumAddressingBits` (the bits of its size in bytes) above
    /// [`TypeTable::max_size_bits`], exactly as clang computes it.
    pub fn array_too_large(&self, elem_size: u64, n: u64) -> bool {
        let bits = if elem_size.is_power_of_two() {
            (64 - n.leading_zeros()) + elem_size.trailing_zeros()
        } else {
            let total = u128::from(n) * u128::from(elem_size);
            128 - total.leading_zeros()
        };
        bits > self.max_size_bits()
    }

    /// `sizeof` in bytes (3-vectors take the space of 4). `None` when incomplete.
    pub fn size_of(&self, qt: QualType) -> Option<u64> {
        match self.ckind(qt) {
            TypeKind::Void => Some(1),
            TypeKind::Error | TypeKind::Function(_) => None,
            TypeKind::Scalar(s) => Some(s.size()),
            TypeKind::Enum(_) => Some(4),
            TypeKind::Vector(s, n) => Some(s.size() * u64::from(if *n == 3 { 4 } else { *n })),
            TypeKind::Pointer(_) => Some(self.pointer_size),
            TypeKind::Array(e, ArrayLen::Fixed(n)) => self.size_of(*e)?.checked_mul(*n),
            TypeKind::Array(..) => None,
            TypeKind::Record(r) => {
                let d = self.record(*r)?;
                d.complete.then_some(d.layout.size)
            }
            TypeKind::Typedef(_) => None,
            TypeKind::Image(..) | TypeKind::Pipe(..) => Some(self.pointer_size),
            TypeKind::Opaque(Opaque::Sampler) => Some(4),
            TypeKind::Opaque(_) => Some(self.pointer_size),
            TypeKind::Atomic(e) => self.size_of(*e),
        }
    }

    /// Records the alignment typedef `td` declares (`__attribute__((aligned(N)))`).
    pub fn set_typedef_align(&mut self, td: TypeId, align: u64) {
        if let TypeKind::Typedef(id) = self.kind(td) {
            self.typedef_aligns.insert(*id, align);
        }
    }

    /// The alignment declared by the outermost typedef of `qt`'s sugar that declares one.
    pub fn declared_align(&self, qt: QualType) -> Option<u64> {
        if self.typedef_aligns.is_empty() {
            return None;
        }
        let mut q = qt;
        for _ in 0..64 {
            let TypeKind::Typedef(td) = self.kind(q.id) else {
                return None;
            };
            if let Some(&a) = self.typedef_aligns.get(td) {
                return Some(a);
            }
            q = self.typedef(*td)?.ty;
        }
        None
    }

    /// Alignment in bytes.
    pub fn align_of(&self, qt: QualType) -> Option<u64> {
        if let Some(a) = self.declared_align(qt) {
            return Some(a);
        }
        match self.ckind(qt) {
            TypeKind::Vector(..) => self.size_of(qt),
            TypeKind::Array(e, _) => self.align_of(*e),
            TypeKind::Record(r) => {
                let d = self.record(*r)?;
                d.complete.then_some(d.layout.align)
            }
            TypeKind::Atomic(e) => self.align_of(*e),
            _ => self.size_of(qt),
        }
    }

    /// Lays out the fields of `r` with C rules (each field at its alignment; unions overlay;
    /// the size is rounded to the largest alignment) and marks it complete.
    pub fn layout_record(&mut self, r: RecordId) {
        let Some(def) = self.records.get(r.0 as usize) else {
            return;
        };
        let (is_union, packed) = (def.is_union, def.packed);
        let tys: Vec<QualType> = def.fields.iter().map(|f| f.ty).collect();
        let mut offsets = Vec::with_capacity(tys.len());
        let (mut size, mut align) = (0u64, 1u64);
        for ty in tys {
            let fs = self.size_of(ty).unwrap_or(0);
            let fa = if packed {
                1
            } else {
                self.align_of(ty).unwrap_or(1).max(1)
            };
            align = align.max(fa);
            if is_union {
                offsets.push(0);
                size = size.max(fs);
            } else {
                let off = size.div_ceil(fa).saturating_mul(fa);
                offsets.push(off);
                size = off.saturating_add(fs);
            }
        }
        let size = size.div_ceil(align).saturating_mul(align);
        if let Some(d) = self.records.get_mut(r.0 as usize) {
            d.layout = Layout {
                size,
                align,
                offsets,
            };
            d.complete = true;
        }
    }

    // ---- printing ----

    /// The type as clang prints it inside quotes, with typedef names kept.
    pub fn print(&self, qt: QualType) -> String {
        self.print_decl(qt, "")
    }

    /// `'T'`, or `'T' (aka 'U')` when typedef sugar hides a different canonical type: the form
    /// clang uses for a type argument of a diagnostic.
    pub fn quoted(&self, qt: QualType) -> String {
        let s = self.print(qt);
        // Vectors: clang names the element count and type instead of desugaring.
        if let TypeKind::Vector(e, n) = self.ckind(qt) {
            let v = if *n == 1 { "value" } else { "values" };
            return format!("'{s}' (vector of {n} '{}' {v})", e.opencl_name());
        }
        let canon = self.canonical(qt);
        // No sugar: the canonical type prints the same. A function type keeps its
        // parameters' typedefs (`int (uint)` is "aka 'int (unsigned int)'").
        if canon == qt && self.fn_sig(qt).is_none() {
            return format!("'{s}'");
        }
        let c = self.print_rec(qt, String::new(), 0, true);
        if s == c {
            format!("'{s}'")
        } else {
            format!("'{s}' (aka '{c}')")
        }
    }

    /// Prints `qt` around the declarator text `inner` (clang's TypePrinter: pointers wrap
    /// to the left, arrays and functions to the right, parentheses where they nest).
    pub fn print_decl(&self, qt: QualType, inner: &str) -> String {
        self.print_rec(qt, inner.to_string(), 0, false)
    }

    fn print_rec(&self, qt: QualType, inner: String, depth: u32, aka: bool) -> String {
        if depth > 256 {
            return "...".into();
        }
        match self.kind(qt.id) {
            TypeKind::Pointer(p) => {
                let mut s = String::with_capacity(inner.len() + 24);
                s.push('*');
                qt.quals.write_spelling(&mut s);
                if !inner.is_empty() {
                    if s.len() > 1 {
                        s.push(' ');
                    }
                    s.push_str(&inner);
                }
                // The pointee as printed: in the `aka` form through its typedefs (a pointer to
                // a `row3` prints `(*)[3]` desugared).
                let mut pk = self.kind(p.id);
                for _ in 0..64 {
                    match pk {
                        TypeKind::Typedef(td)
                            if aka
                                && let Some(d) = self.typedef(*td)
                                && !matches!(self.kind(d.ty.id), TypeKind::Vector(..)) =>
                        {
                            pk = self.kind(d.ty.id)
                        }
                        _ => break,
                    }
                }
                if matches!(pk, TypeKind::Array(..) | TypeKind::Function(_)) {
                    s = format!("({s})");
                }
                self.print_rec(*p, s, depth + 1, aka)
            }
            TypeKind::Array(e, n) => {
                let mut s = inner;
                match n {
                    ArrayLen::Fixed(n) => {
                        let _ = write!(s, "[{n}]");
                    }
                    ArrayLen::Incomplete => s.push_str("[]"),
                    ArrayLen::Variable => s.push_str("[*]"),
                }
                let e = QualType {
                    id: e.id,
                    quals: e.quals.merge(qt.quals),
                };
                self.print_rec(e, s, depth + 1, aka)
            }
            TypeKind::Function(sig) => {
                let mut s = inner;
                s.push('(');
                if sig.params.is_empty() {
                    if sig.has_proto && !sig.variadic {
                        s.push_str("void");
                    }
                } else {
                    let ps: Vec<String> = sig
                        .params
                        .iter()
                        .map(|p| self.print_rec(*p, String::new(), depth + 1, aka))
                        .collect();
                    s.push_str(&ps.join(", "));
                }
                if sig.variadic {
                    s.push_str(if sig.params.is_empty() {
                        "..."
                    } else {
                        ", ..."
                    });
                }
                s.push(')');
                self.print_rec(sig.ret, s, depth + 1, aka)
            }
            // The `aka` form desugars typedefs, except one naming a vector type directly
            // (clang prints `'__private ulong8 *'` with no aka).
            TypeKind::Typedef(td)
                if aka
                    && let Some(d) = self.typedef(*td)
                    && !matches!(self.kind(d.ty.id), TypeKind::Vector(..)) =>
            {
                let u = QualType {
                    id: d.ty.id,
                    quals: d.ty.quals.merge(qt.quals),
                };
                self.print_rec(u, inner, depth + 1, aka)
            }
            _ => {
                let name = self.base_name(qt.id);
                let mut s = String::with_capacity(name.len() + inner.len() + 24);
                qt.quals.write_spelling(&mut s);
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(&name);
                if !inner.is_empty() {
                    if !inner.starts_with('[') {
                        s.push(' ');
                    }
                    s.push_str(&inner);
                }
                s
            }
        }
    }

    /// The typedef naming an unnamed struct, union or enum `id` (`typedef struct {...} S;`):
    /// clang gives the tag that name "for linkage purposes" and prints the tag type as `S`
    /// (no keyword), so `'S'` needs no "aka". The first typedef of the bare tag type.
    fn anonymous_tag_typedef(&self, id: TypeId) -> Option<Symbol> {
        self.typedefs
            .iter()
            .find(|t| t.ty.id == id && t.ty.quals.cvr == 0)
            .map(|t| t.name)
    }

    fn base_name(&self, id: TypeId) -> std::borrow::Cow<'static, str> {
        match self.kind(id) {
            TypeKind::Void => "void".into(),
            // clang gives a declaration whose type is in error `int` (TST_error), and
            // prints it so inside the types built from it.
            TypeKind::Error => "int".into(),
            TypeKind::Scalar(s) => s.name().into(),
            TypeKind::Vector(s, n) => {
                format!("{} __attribute__((ext_vector_type({n})))", s.name()).into()
            }
            TypeKind::Record(r) => match self.record(*r) {
                Some(d) => {
                    let kw = if d.is_union { "union" } else { "struct" };
                    match d.name {
                        Some(n) => format!("{kw} {n}").into(),
                        None => match self.anonymous_tag_typedef(id) {
                            Some(n) => n.to_string().into(),
                            None => self.unnamed(kw, false, r.0),
                        },
                    }
                }
                None => "struct".into(),
            },
            TypeKind::Enum(e) => match self.enums.get(e.0 as usize).and_then(|d| d.name) {
                Some(n) => format!("enum {n}").into(),
                None => match self.anonymous_tag_typedef(id) {
                    Some(n) => n.to_string().into(),
                    None => self.unnamed("enum", true, e.0),
                },
            },
            TypeKind::Typedef(t) => self
                .typedef(*t)
                .map_or_else(Default::default, |d| d.name.to_string().into()),
            TypeKind::Image(d, a) => format!("{} {}", a.spelling(), d.name()).into(),
            TypeKind::Opaque(o) => o.name().into(),
            // clang prints a pipe as read-only or write-only (`read_write` is never one).
            TypeKind::Pipe(e, a) => {
                let a = if *a == Access::WriteOnly {
                    "write_only"
                } else {
                    "read_only"
                };
                format!("{a} pipe {}", self.print(*e)).into()
            }
            TypeKind::Atomic(e) => format!("_Atomic({})", self.print(*e)).into(),
            TypeKind::Pointer(_) | TypeKind::Array(..) | TypeKind::Function(_) => "".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> TypeTable {
        TypeTable::new()
    }

    /// `intern`'s fixed-id shortcut for scalars gives each scalar its own kind.
    #[test]
    fn scalar_ids_are_their_kinds() {
        let mut t = t();
        for s in Scalar::ALL {
            let id = t.scalar(s);
            assert_eq!(t.kind(id), &TypeKind::Scalar(s));
        }
        assert_eq!(t.scalar(Scalar::UInt), TypeTable::UINT);
        assert_eq!(t.scalar(Scalar::Double), TypeTable::DOUBLE);
    }

    fn int() -> QualType {
        QualType::new(TypeTable::INT)
    }

    #[test]
    fn pointer_size_follows_target() {
        let mut tt = t();
        let p = QualType::new(tt.pointer(int()));
        assert_eq!(tt.size_of(p), Some(8));
        tt.set_target(oclc_syntax::Target::Spir);
        assert_eq!(tt.size_of(p), Some(4));
        assert_eq!(tt.align_of(p), Some(4));
        assert_eq!(tt.size_of(int()), Some(4));
    }

    #[test]
    fn prints_pointer_with_spaces() {
        let mut t = t();
        let gi = int().with_space(Some(LangAs::GLOBAL));
        let p = QualType::new(t.pointer(gi)).with_space(Some(LangAs::PRIVATE));
        assert_eq!(t.print(p), "__global int *__private");
        let pp = QualType::new(t.pointer(p)).with_space(Some(LangAs::PRIVATE));
        assert_eq!(t.print(pp), "__global int *__private *__private");
        let generic = QualType::new(t.pointer(int().with_space(Some(LangAs::GENERIC))));
        assert_eq!(t.print(generic), "__generic int *");
    }

    #[test]
    fn prints_const_and_arrays() {
        let mut t = t();
        let c = QualType::new(TypeTable::CHAR).with_quals(Quals {
            cvr: Quals::CONST,
            space: Some(LangAs::CONSTANT),
        });
        let a = QualType::new(t.array(c, ArrayLen::Fixed(6)));
        assert_eq!(t.print(a), "const __constant char[6]");
        let cp = QualType::new(t.pointer(c));
        assert_eq!(t.print(cp), "const __constant char *");
        let fp = QualType::new(
            t.pointer(QualType::new(TypeTable::FLOAT).with_space(Some(LangAs::PRIVATE))),
        );
        let arr = QualType::new(t.array(fp, ArrayLen::Fixed(3)));
        assert_eq!(t.print(arr), "__private float *[3]");
        let pa = QualType::new(t.pointer(a));
        assert_eq!(t.print(pa), "const __constant char (*)[6]");
    }

    #[test]
    fn prints_function_pointer() {
        let mut t = t();
        let vp = QualType::new(
            t.pointer(QualType::new(TypeTable::VOID).with_space(Some(LangAs::PRIVATE))),
        )
        .with_space(Some(LangAs::PRIVATE));
        let f = t.function(FnSig {
            ret: QualType::new(TypeTable::VOID),
            params: vec![vp].into(),
            variadic: false,
            has_proto: true,
        });
        let p = QualType::new(t.pointer(QualType::new(f)));
        assert_eq!(t.print(p), "void (*)(__private void *__private)");
        let g = t.function(FnSig {
            ret: int(),
            params: Box::new([]),
            variadic: false,
            has_proto: true,
        });
        assert_eq!(t.print(QualType::new(g)), "int (void)");
    }

    #[test]
    fn typedef_aka() {
        let mut t = t();
        let td = t.add_typedef(TypedefDef {
            name: Symbol::intern("size_t"),
            ty: QualType::new(TypeTable::ULONG),
            span: Span::DUMMY,
            start: Span::DUMMY,
        });
        let q = QualType::new(td).with_space(Some(LangAs::PRIVATE));
        assert_eq!(
            t.quoted(q),
            "'__private size_t' (aka '__private unsigned long')"
        );
        let li = int().with_space(Some(LangAs::LOCAL));
        let lp = QualType::new(t.pointer(li));
        let l_t = t.add_typedef(TypedefDef {
            name: Symbol::intern("l_t"),
            ty: lp,
            span: Span::DUMMY,
            start: Span::DUMMY,
        });
        let pl = QualType::new(t.pointer(QualType::new(l_t).with_space(Some(LangAs::PRIVATE))))
            .with_space(Some(LangAs::PRIVATE));
        assert_eq!(
            t.quoted(pl),
            "'__private l_t *__private' (aka '__local int *__private *__private')"
        );
        assert_eq!(t.canonical(pl), t.canonical(t.canonical(pl)));
    }

    #[test]
    fn interning_is_stable() {
        let mut t = t();
        let a = t.vector(Scalar::Float, 4);
        let b = t.vector(Scalar::Float, 4);
        assert_eq!(a, b);
        assert_eq!(t.scalar(Scalar::Int), TypeTable::INT);
        assert_eq!(
            t.print(QualType::new(a)),
            "float __attribute__((ext_vector_type(4)))"
        );
    }

    #[test]
    fn sizes_and_layout() {
        let mut t = t();
        let f3 = QualType::new(t.vector(Scalar::Float, 3));
        assert_eq!(t.size_of(f3), Some(16));
        assert_eq!(t.align_of(f3), Some(16));
        let r = t.add_record(RecordDef {
            name: Some(Symbol::intern("S")),
            is_union: false,
            fields: vec![
                Field {
                    name: None,
                    ty: QualType::new(TypeTable::CHAR),
                    span: Span::DUMMY,
                    bit_width: None,
                },
                Field {
                    name: None,
                    ty: f3,
                    span: Span::DUMMY,
                    bit_width: None,
                },
                Field {
                    name: None,
                    ty: int(),
                    span: Span::DUMMY,
                    bit_width: None,
                },
            ],
            complete: false,
            layout: Layout::default(),
            span: Span::DUMMY,
            packed: false,
        });
        t.layout_record(r);
        let d = t.record(r).unwrap();
        assert_eq!(d.layout.offsets, vec![0, 16, 32]);
        assert_eq!(d.layout.size, 48);
        assert_eq!(d.layout.align, 16);
        let rq = QualType::new(t.intern(TypeKind::Record(r)));
        assert_eq!(
            t.print(rq.with_space(Some(LangAs::PRIVATE))),
            "__private struct S"
        );
    }

    #[test]
    fn quals_on_arrays_go_to_elements() {
        let mut t = t();
        let a = QualType::new(t.array(int(), ArrayLen::Fixed(3)));
        let c = t.add_quals(
            a,
            Quals {
                cvr: Quals::CONST,
                space: None,
            },
        );
        assert_eq!(t.print(c), "const int[3]");
        let g = t.set_object_space(a, Some(LangAs::CONSTANT));
        assert_eq!(t.object_space(g), Some(LangAs::CONSTANT));
        assert!(t.is_const_object(c));
        assert_eq!(t.print(g), "__constant int[3]");
    }

    #[test]
    fn usm_and_numbered_spaces_print() {
        let mut t = t();
        let p = QualType::new(t.pointer(int().with_space(Some(LangAs::GlobalDevice))));
        assert_eq!(t.print(p), "__global_device int *");
        let n = QualType::new(t.pointer(int().with_space(Some(LangAs::Target(3)))));
        assert_eq!(t.print(n), "__attribute__((address_space(3))) int *");
    }
}
