//! Declarations: specifiers and declarators to types (with the address-space qualifiers and
//! their defaults), variables with the OpenCL storage rules, typedefs, functions and kernels
//! (kernel-parameter rules), structs, unions and enums.

use oclc_syntax::ast::{self, AsKind, ChunkKind, DeclSpecKind, StorageClass, TypeSpec};
use oclc_syntax::{ClStd, Diagnostic, Span, Symbol};

use super::access::AccessDecl;
use super::scope::{Binding, Entry};
use super::{Checker, FnCtx};
use crate::hir::{self, FuncId, Storage, VarId};
use crate::space::{self, AddrSpace, DeclContext, DuplicateSpace, GlobalStorage};
use crate::types::{
    Access, ArrayLen, FnSig, ImageDim, LangAs, Opaque, QualType, Quals, Scalar, TypeKind, TypeTable,
};

/// Where a declaration appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclPlace {
    File,
    /// Inside a function body.
    Block,
}

/// The result of the declaration specifiers.
#[derive(Clone, Debug)]
pub struct Specs {
    /// The base type with the specifiers' cvr qualifiers and address space.
    pub ty: QualType,
    pub storage: Option<(StorageClass, Span)>,
    pub is_kernel: bool,
    /// Where `__kernel` was written, for "only applies to functions" elsewhere.
    pub kernel_span: Option<Span>,
    pub invalid: bool,
    /// The access qualifiers the type allowed, for the declaration's own check
    /// ([`Checker::access_decl_attrs`]).
    pub access: Vec<(Access, Span)>,
}

/// A parameter after checking its declaration.
#[derive(Clone, Debug)]
pub struct ParamInfo {
    pub name: Option<Symbol>,
    pub ty: QualType,
    pub span: Span,
    pub invalid: bool,
}

/// A declarator applied to its specifiers.
#[derive(Clone, Debug)]
pub struct Declared {
    pub ty: QualType,
    pub name: Option<Symbol>,
    pub name_span: Span,
    /// Parameters of the outermost function chunk, when the declarator declares a function.
    pub params: Option<Vec<ParamInfo>>,
    pub invalid: bool,
}

fn as_of(kind: &AsKind) -> Option<LangAs> {
    Some(match kind {
        AsKind::Global => LangAs::GLOBAL,
        AsKind::Local => LangAs::LOCAL,
        AsKind::Constant => LangAs::CONSTANT,
        AsKind::Private => LangAs::PRIVATE,
        AsKind::Generic => LangAs::GENERIC,
        AsKind::GlobalDevice => LangAs::GlobalDevice,
        AsKind::GlobalHost => LangAs::GlobalHost,
        AsKind::Numbered(_) => return None,
    })
}

impl Checker<'_> {
    pub(crate) fn t(&self, id: crate::types::TypeId) -> QualType {
        QualType::new(id)
    }

    /// Converts one written address-space qualifier, reporting the ones this mode rejects.
    fn addr_space_qual(&mut self, q: &ast::AsQual) -> Option<LangAs> {
        match &q.kind {
            // The parser reports `generic` where the mode lacks it (rule 22) and drops it.
            AsKind::Generic if !space::generic_qualifier_allowed(&self.lang) => None,
            AsKind::GlobalDevice | AsKind::GlobalHost => {
                let name = q.spelling.as_str();
                self.warn(
                    q.span,
                    format!("''{name}'' attribute is deprecated"),
                    "deprecated-attributes",
                );
                as_of(&q.kind)
            }
            AsKind::Numbered(e) => {
                let he = self.expr(e);
                match self.const_int(&he) {
                    Some(n) if n < 0 => {
                        self.err(q.span, "address space is negative");
                        None
                    }
                    Some(n) if n > 0x7f_ffff => {
                        self.err(
                            q.span,
                            "address space is larger than the maximum supported (8388586)",
                        );
                        None
                    }
                    Some(n) => Some(LangAs::Target(n as u32)),
                    None => {
                        self.err(
                            q.span,
                            "'address_space' attribute requires an integer constant",
                        );
                        None
                    }
                }
            }
            k => as_of(k),
        }
    }

    /// Adds an address space to `ty` with clang's duplicate rules (rule 10; the first one
    /// written wins).
    fn add_space(&mut self, ty: QualType, sp: LangAs, span: Span) -> QualType {
        let cur = self.prog.types.object_space(ty);
        if let Some(old) = cur {
            match space::duplicate_space(old, sp) {
                DuplicateSpace::Conflict => {
                    self.err(span, "multiple address spaces specified for type");
                    return ty;
                }
                DuplicateSpace::Identical => {
                    self.warn(
                        span,
                        "multiple identical address spaces specified for type",
                        "duplicate-decl-specifier",
                    );
                }
                DuplicateSpace::Ok => {}
            }
        }
        self.prog.types.set_object_space(ty, Some(sp))
    }

    /// The base type named by a builtin type name that is not a typedef in scope.
    fn builtin_type(&mut self, name: Symbol, access: Option<Access>) -> Option<QualType> {
        let s = name.as_str();
        if let Some(d) = ImageDim::from_name(s) {
            let id = self
                .prog
                .types
                .intern(TypeKind::Image(d, access.unwrap_or(Access::ReadOnly)));
            return Some(self.t(id));
        }
        let o = match s {
            "sampler_t" => Opaque::Sampler,
            "event_t" => Opaque::Event,
            "clk_event_t" => Opaque::ClkEvent,
            "queue_t" => Opaque::Queue,
            "reserve_id_t" => Opaque::ReserveId,
            _ => Opaque::Avc(crate::types::Avc::from_name(s)?),
        };
        let id = self.prog.types.intern(TypeKind::Opaque(o));
        Some(self.t(id))
    }

    /// Resolves declaration specifiers to a base type, storage class and flags.
    pub(crate) fn specs(&mut self, specs: &ast::DeclSpecs, place: DeclPlace) -> Specs {
        let mut storage: Option<(StorageClass, Span)> = None;
        let mut is_kernel = false;
        let mut kernel_span = None;
        let mut invalid = false;
        let mut cvr = 0u8;
        let mut accesses: Vec<(Access, Span)> = Vec::new();
        // 0: none, 1: short, 2: long, 3: long long.
        let mut width = 0u8;
        let mut width_span = Span::DUMMY;
        let mut sign: Option<(bool, Span)> = None;
        let mut base: Option<(&TypeSpec, Span)> = None;
        let mut first_spec: Option<Span> = None;
        let mut is_atomic_qual = false;
        let mut is_pipe = false;
        for item in &specs.items {
            match &item.kind {
                DeclSpecKind::Storage(sc) => {
                    // `auto`/`register` reach here only with clang's
                    // `cl_clang_storage_class_specifiers` (the parser rejects them otherwise).
                    if storage.is_some() {
                        self.err(
                            item.span,
                            "cannot combine with previous declaration specifier",
                        );
                    } else {
                        storage = Some((*sc, item.span));
                    }
                }
                DeclSpecKind::Type(ts) => {
                    first_spec.get_or_insert(item.span);
                    // clang's DeclSpec: width, sign and base are separate slots; a second
                    // specifier for a filled slot "cannot combine".
                    let conflict = match ts {
                        TypeSpec::Short => {
                            if width == 0 {
                                width = 1;
                                width_span = item.span;
                                None
                            } else {
                                Some(WIDTH_NAMES[width as usize])
                            }
                        }
                        TypeSpec::Long => match width {
                            0 => {
                                width = 2;
                                width_span = item.span;
                                None
                            }
                            2 => {
                                width = 3;
                                None
                            }
                            w => Some(WIDTH_NAMES[w as usize]),
                        },
                        TypeSpec::Signed | TypeSpec::Unsigned => match sign {
                            Some((u, _)) => Some(if u { "unsigned" } else { "signed" }),
                            None => {
                                sign = Some((matches!(ts, TypeSpec::Unsigned), item.span));
                                None
                            }
                        },
                        _ => match base {
                            // After an unknown type name (clang's `TST_error`) any type
                            // specifier is taken silently.
                            Some((TypeSpec::Unknown(_), _)) => None,
                            Some((b, _)) => Some(spec_name(b)),
                            None => {
                                base = Some((ts, item.span));
                                None
                            }
                        },
                    };
                    if let Some(prev) = conflict {
                        self.err(
                            item.span,
                            format!("cannot combine with previous '{prev}' declaration specifier"),
                        );
                    }
                }
                DeclSpecKind::Qual(q) => match q {
                    ast::TypeQual::Const => cvr |= Quals::CONST,
                    ast::TypeQual::Volatile => cvr |= Quals::VOLATILE,
                    ast::TypeQual::Restrict => cvr |= Quals::RESTRICT,
                    ast::TypeQual::Atomic => is_atomic_qual = true,
                },
                DeclSpecKind::Access(a) => accesses.push((
                    match a {
                        ast::AccessQual::ReadOnly => Access::ReadOnly,
                        ast::AccessQual::WriteOnly => Access::WriteOnly,
                        ast::AccessQual::ReadWrite => Access::ReadWrite,
                    },
                    item.span,
                )),
                DeclSpecKind::Func(ast::FuncSpec::Kernel) => {
                    is_kernel = true;
                    kernel_span.get_or_insert(item.span);
                }
                DeclSpecKind::Func(_) | DeclSpecKind::Attr(_) | DeclSpecKind::Alignas(_) => {}
                // clang's `SetTypePipe`: `pipe` after a type specifier "cannot combine"
                // and is dropped (silently after an unknown type name).
                DeclSpecKind::Pipe => match base {
                    None => is_pipe = true,
                    Some((TypeSpec::Unknown(_), _)) => {}
                    Some((b, _)) => self.err(
                        item.span,
                        format!(
                            "cannot combine with previous '{}' declaration specifier",
                            spec_name(b)
                        ),
                    ),
                },
                DeclSpecKind::AddrSpace(_) => {}
            }
        }

        // An image or pipe type takes the first access qualifier (clang's `getImageAccess`).
        let image_access = accesses.first().map(|&(a, _)| a);
        // clang's DeclSpec::Finish: invalid sign and width combinations are dropped.
        let base_kind = base.map(|(b, _)| b);
        if let (Some((_, ss)), Some(b)) = (sign, base_kind)
            && !matches!(b, TypeSpec::Char | TypeSpec::Int)
        {
            self.err(
                ss,
                format!("'{}' cannot be signed or unsigned", spec_name(b)),
            );
            sign = None;
        }
        if let Some(b) = base_kind {
            let ok = match width {
                0 => true,
                2 => matches!(b, TypeSpec::Int | TypeSpec::Double),
                _ => matches!(b, TypeSpec::Int),
            };
            if !ok {
                self.err(
                    width_span,
                    format!(
                        "'{} {}' is invalid",
                        WIDTH_NAMES[width as usize],
                        spec_name(b)
                    ),
                );
                width = 0;
            }
        }
        let unsigned = sign.is_some_and(|(u, _)| u);
        let signed = sign.is_some_and(|(u, _)| !u);
        let int_scalar = |width: u8, unsigned: bool| match (width, unsigned) {
            (1, false) => Scalar::Short,
            (1, true) => Scalar::UShort,
            (0, false) => Scalar::Int,
            (0, true) => Scalar::UInt,
            (2, false) => Scalar::Long,
            (2, true) => Scalar::ULong,
            (_, false) => Scalar::LongLong,
            (_, true) => Scalar::ULongLong,
        };
        let mut ty = match base {
            None if width > 0 || sign.is_some() => {
                let id = self.prog.types.scalar(int_scalar(width, unsigned));
                self.t(id)
            }
            Some((TypeSpec::Int, _)) => {
                let id = self.prog.types.scalar(int_scalar(width, unsigned));
                self.t(id)
            }
            // Implicit int: the parser reports it (as clang's parser does). A pipe without
            // a type ("missing actual type specifier", also the parser's) makes the
            // declaration invalid, as in clang.
            None => {
                invalid |= is_pipe;
                self.t(TypeTable::INT)
            }
            Some((ts, tspan)) => {
                match self.type_spec(ts, tspan, signed, unsigned, image_access, place) {
                    Some(t) => t,
                    None => {
                        invalid = true;
                        self.t(TypeTable::ERROR)
                    }
                }
            }
        };
        if is_pipe {
            let elem = ty.unqualified();
            let id = self.prog.types.intern(TypeKind::Pipe(
                elem,
                image_access.unwrap_or(Access::ReadOnly),
            ));
            ty = QualType {
                id,
                quals: ty.quals,
            };
        }
        if is_atomic_qual {
            let id = self.prog.types.intern(TypeKind::Atomic(ty.unqualified()));
            ty = QualType {
                id,
                quals: ty.quals,
            };
        }
        let access = self.access_type_attrs(ty, &accesses);
        ty = self.prog.types.add_quals(ty, Quals { cvr, space: None });
        let mut as_span = None;
        for item in &specs.items {
            if let DeclSpecKind::AddrSpace(q) = &item.kind {
                as_span.get_or_insert(q.span);
                if let Some(sp) = self.addr_space_qual(q) {
                    ty = self.add_space(ty, sp, q.span);
                }
            }
        }
        let _ = (first_spec, as_span);
        Specs {
            ty,
            storage,
            is_kernel,
            kernel_span,
            invalid,
            access,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn type_spec(
        &mut self,
        ts: &TypeSpec,
        span: Span,
        signed: bool,
        unsigned: bool,
        access: Option<Access>,
        place: DeclPlace,
    ) -> Option<QualType> {
        let s = match ts {
            TypeSpec::Void => return Some(self.t(TypeTable::VOID)),
            TypeSpec::Bool => Scalar::Bool,
            TypeSpec::Char => {
                if unsigned {
                    Scalar::UChar
                } else if signed {
                    Scalar::SChar
                } else {
                    Scalar::Char
                }
            }
            // Width and sign keywords are resolved by `specs`; they never reach here.
            TypeSpec::Short
            | TypeSpec::Long
            | TypeSpec::Int
            | TypeSpec::Signed
            | TypeSpec::Unsigned => Scalar::Int,
            TypeSpec::Float => Scalar::Float,
            TypeSpec::Half => Scalar::Half,
            TypeSpec::Double => {
                if !self.lang.fp64() {
                    let what = if self.lang.std >= ClStd::Cl30 {
                        "cl_khr_fp64 and __opencl_c_fp64"
                    } else {
                        "cl_khr_fp64"
                    };
                    self.err(
                        span,
                        format!("use of type 'double' requires {what} support"),
                    );
                }
                Scalar::Double
            }
            // Already reported by the parser ("unknown type name").
            TypeSpec::Unknown(_) => return None,
            TypeSpec::Complex => {
                self.err(span, "'_Complex' types are not supported in OpenCL");
                return None;
            }
            TypeSpec::Builtin(name) | TypeSpec::TypedefName(name) => {
                if let Some(e) = self.scopes.lookup(*name)
                    && let Binding::Typedef(t) = e.binding
                {
                    return Some(t);
                }
                if let Some(t) = self.builtin_type(*name, access) {
                    return Some(t);
                }
                self.err(span, format!("unknown type name '{name}'"));
                return None;
            }
            TypeSpec::Record(r) => return Some(self.record_spec(r, place)),
            TypeSpec::Enum(e) => return Some(self.enum_spec(e)),
            TypeSpec::AtomicType(tn) => {
                let inner = self.type_name(tn);
                let id = self.prog.types.intern(TypeKind::Atomic(inner));
                return Some(self.t(id));
            }
            TypeSpec::Typeof(te) => {
                return Some(match &**te {
                    ast::TypeOrExpr::Type(tn) => self.type_name(tn),
                    ast::TypeOrExpr::Expr(e) => {
                        self.unevaluated += 1;
                        let he = self.expr(e);
                        self.unevaluated -= 1;
                        he.ty.unqualified()
                    }
                });
            }
        };
        let id = self.prog.types.scalar(s);
        Some(self.t(id))
    }

    /// Resolves a type name (`(T)e`, `sizeof(T)`): no address space is deduced for the
    /// outermost level; pointees get the default (rule 37).
    pub(crate) fn type_name(&mut self, tn: &ast::TypeName) -> QualType {
        let place = if self.func.is_some() {
            DeclPlace::Block
        } else {
            DeclPlace::File
        };
        let specs = self.specs(&tn.specs, place);
        let d = self.declarator(specs.ty, &tn.declarator, false);
        d.ty
    }

    /// clang's check that an array element's size is a multiple of its alignment (an
    /// over-aligned typedef, `typedef ulong u64a __attribute__((aligned(128)))`, makes
    /// arrays of it impossible); reported at the `[`.
    fn element_misaligned(&mut self, elem: QualType, at: Span) -> bool {
        let types = &self.prog.types;
        let Some(align) = types.declared_align(elem) else {
            return false;
        };
        let Some(size) = types.size_of(elem).filter(|&s| s > 0) else {
            return false;
        };
        if size % align == 0 {
            return false;
        }
        let t = types.quoted(elem);
        self.err(
            Span { hi: at.lo, ..at },
            format!(
                "size of array element of type {t} ({size} bytes) isn't a multiple of its alignment ({align} bytes)"
            ),
        );
        true
    }

    /// What a function may not return (C99 6.7.5.3p1), as clang's message names it.
    fn array_or_function(&self, ret: QualType) -> Option<&'static str> {
        let types = &self.prog.types;
        if types.is_array(ret) {
            Some("array")
        } else if types.fn_sig(ret).is_some() {
            Some("function")
        } else {
            None
        }
    }

    /// Applies a declarator's chunks (innermost last) to `base`.
    pub(crate) fn declarator(
        &mut self,
        base: QualType,
        d: &ast::Declarator,
        is_typedef: bool,
    ) -> Declared {
        let mut ty = base;
        let mut invalid = false;
        let mut params_out = None;
        let n = d.chunks.len();
        let name = d.name.map(|i| i.name);
        let name_span = d.name.map_or(d.span, |i| i.span);
        // clang parses (and so diagnoses) array sizes left to right, before building the
        // type from the innermost chunk out.
        let mut sizes: Vec<Option<hir::Expr>> = d
            .chunks
            .iter()
            .map(|c| match &c.kind {
                ChunkKind::Array(a) => a.size.as_ref().map(|e| {
                    // Each size is a constant expression of its own: its typos are
                    // reported at its end.
                    let mark = self.pending_typos.len();
                    let h = self.expr(e);
                    self.flush_typos_from(mark, Some(e.span));
                    h
                }),
                _ => None,
            })
            .collect();
        for (ci, chunk) in d.chunks.iter().enumerate().rev() {
            match &chunk.kind {
                ChunkKind::Paren => {}
                // Reported by the parser (blocks disabled).
                ChunkKind::Block => {
                    invalid = true;
                    ty = self.t(TypeTable::ERROR);
                }
                ChunkKind::Pointer { quals } => {
                    if self.prog.types.fn_sig(ty).is_some()
                        && !self.ext("__cl_clang_function_pointers")
                    {
                        // clang reports at the `*`.
                        self.err(chunk.span.start(), "pointers to functions are not allowed");
                        invalid = true;
                    }
                    if self.prog.types.is_opaque(ty, Opaque::Sampler) {
                        let p = self.prog.types.quoted(ty);
                        self.err(
                            chunk.span,
                            format!("pointer to type {p} is invalid in OpenCL"),
                        );
                        invalid = true;
                    }
                    let pointee = self.deduce_pointee(ty);
                    let pid = self.prog.types.pointer(pointee);
                    let mut pty = self.t(pid);
                    let mut cvr = 0u8;
                    for q in quals {
                        match &q.kind {
                            DeclSpecKind::Qual(ast::TypeQual::Const) => cvr |= Quals::CONST,
                            DeclSpecKind::Qual(ast::TypeQual::Volatile) => cvr |= Quals::VOLATILE,
                            DeclSpecKind::Qual(ast::TypeQual::Restrict) => cvr |= Quals::RESTRICT,
                            _ => {}
                        }
                    }
                    pty.quals.cvr = cvr;
                    for q in quals {
                        if let DeclSpecKind::AddrSpace(a) = &q.kind
                            && let Some(sp) = self.addr_space_qual(a)
                        {
                            pty = self.add_space(pty, sp, a.span);
                        }
                    }
                    ty = pty;
                }
                ChunkKind::Array(a) => {
                    if self.prog.types.is_opaque(ty, Opaque::Sampler) {
                        self.err(chunk.span, "array of 'sampler_t' type is invalid in OpenCL");
                        invalid = true;
                    }
                    let len = match &a.size {
                        None => ArrayLen::Incomplete,
                        Some(e) => {
                            let he = match sizes.get_mut(ci).and_then(Option::take) {
                                Some(he) => he,
                                None => self.expr(e),
                            };
                            if he.is_error() {
                                invalid = true;
                                ArrayLen::Fixed(1)
                            } else if !self.prog.types.is_integer(he.ty) {
                                let t = self.prog.types.quoted(he.ty);
                                self.err(e.span, format!("size of array has non-integer type {t}"));
                                invalid = true;
                                ArrayLen::Fixed(1)
                            } else {
                                // The value in the size expression's type (an unsigned
                                // one is never negative).
                                let signed = self
                                    .prog
                                    .types
                                    .as_scalar(he.ty)
                                    .is_none_or(|s| s.is_signed());
                                match self.const_int(&he) {
                                    Some(v) if self.array_too_large(ty, v, signed, e.span) => {
                                        invalid = true;
                                        ArrayLen::Fixed(1)
                                    }
                                    Some(v) if v < 0 && signed => {
                                        let msg = match name {
                                            Some(n) => format!(
                                                "'{n}' declared as an array with a negative size"
                                            ),
                                            None => "array size is negative".into(),
                                        };
                                        self.err(e.span, msg);
                                        invalid = true;
                                        ArrayLen::Fixed(1)
                                    }
                                    Some(v) => ArrayLen::Fixed(v as u64),
                                    None => {
                                        self.err(
                                            e.span,
                                            "variable length arrays are not supported in OpenCL",
                                        );
                                        if let Some((at, n)) = past_object_offset(&he) {
                                            self.note_last(
                                                at,
                                                format!("cannot refer to element {n} of non-array object in a constant expression"),
                                            );
                                        }
                                        invalid = true;
                                        ArrayLen::Variable
                                    }
                                }
                            }
                        }
                    };
                    if self.element_misaligned(ty, chunk.span) {
                        invalid = true;
                    }
                    let aid = self.prog.types.array(ty, len);
                    ty = self.t(aid);
                }
                ChunkKind::Function(f) => {
                    // C99 6.7.5.3p1, at the `(`: the function then returns `int`, as in
                    // clang (a macro-built name, `void NAME(a, b)(params)`, declares one).
                    if let Some(kind) = self.array_or_function(ty) {
                        let t = self.prog.types.quoted(ty);
                        let at = Span {
                            hi: chunk.span.lo,
                            ..chunk.span
                        };
                        let mut e = Diagnostic::error(
                            at,
                            format!("function cannot return {kind} type {t}"),
                        );
                        // A definition's type is built as its `{` starts it.
                        if let Some(open) = self.def_open {
                            e = e.emitted_at(open);
                        }
                        self.emit(e);
                        ty = self.t(TypeTable::INT);
                        invalid = true;
                    }
                    // Rule 9: no address space on a (non-pointer) return type.
                    if ty.quals.space.is_some()
                        || self.prog.types.canonical(ty).quals.space.is_some()
                    {
                        self.err(
                            name_span,
                            "return type cannot be qualified with address space",
                        );
                        invalid = true;
                        ty = self.prog.types.set_object_space(ty, None);
                    }
                    if self.prog.types.as_scalar(ty) == Some(Scalar::Half)
                        && !self.ext("cl_khr_fp16")
                    {
                        let t = self.prog.types.quoted(ty);
                        self.emit(
                            Diagnostic::error(
                                name_span,
                                format!("declaring function return value of type {t} is not allowed ; did you forget * ?"),
                            )
                            .emitted_at(f.close),
                        );
                        invalid = true;
                    } else if self.prog.types.is_opaque(ty, Opaque::Sampler) {
                        let t = self.prog.types.quoted(ty);
                        self.err(
                            name_span,
                            format!("declaring function return value of type {t} is not allowed "),
                        );
                        invalid = true;
                    }
                    // The variadic check names the declared function (printf and __-names
                    // are allowed), so only the outermost function chunk sees the name.
                    let outermost = d.chunks[..ci]
                        .iter()
                        .all(|c| matches!(c.kind, ChunkKind::Paren));
                    let fname = if outermost { name } else { None };
                    if let Some(el) = f.ellipsis {
                        let exempt = fname.is_some_and(|n| {
                            let s = n.as_str();
                            (s == "printf" && self.lang.std >= ClStd::Cl12) || s.starts_with("__")
                        });
                        if !exempt && !self.ext("__cl_clang_variadic_functions") {
                            let at = if outermost { name_span } else { el };
                            self.err(
                                at,
                                "invalid prototype, variadic arguments are not allowed in OpenCL",
                            );
                            invalid = true;
                        }
                    }
                    let params = self.params(f);
                    if params.iter().any(|p| p.invalid) {
                        invalid = true;
                    }
                    let has_proto = !(f.params.is_empty() && f.kr_idents.is_empty());
                    let sig = FnSig {
                        ret: ty,
                        params: params.iter().map(|p| p.ty).collect(),
                        variadic: f.ellipsis.is_some(),
                        has_proto: has_proto || self.lang.std >= ClStd::Cl10,
                    };
                    let fid = self.prog.types.function(sig);
                    ty = self.t(fid);
                    if outermost {
                        params_out = Some(params);
                    }
                }
            }
        }
        let _ = (n, is_typedef);
        Declared {
            ty,
            name,
            name_span,
            params: params_out,
            invalid,
        }
    }

    /// Rule 37: an unqualified pointee gets the default pointee space (generic with the
    /// generic address space, private otherwise). Function types and samplers stay as they
    /// are, as in clang.
    pub(crate) fn deduce_pointee(&mut self, pointee: QualType) -> QualType {
        let t = &self.prog.types;
        if t.object_space(pointee).is_some() || t.fn_sig(pointee).is_some() || t.is_error(pointee) {
            return pointee;
        }
        let sp = LangAs::Named(space::default_pointee_space(&self.lang));
        self.prog.types.set_object_space(pointee, Some(sp))
    }

    /// Checks a parameter list: `(void)` is empty; arrays and functions decay; each parameter
    /// is `__private` (rule 39), and may not be written with another space (rule 9).
    fn params(&mut self, f: &ast::FunctionChunk) -> Vec<ParamInfo> {
        if !f.kr_idents.is_empty() {
            return self.kr_params(f);
        }
        let mut out = Vec::new();
        if f.params.len() == 1 {
            let p = &f.params[0];
            if p.declarator.chunks.is_empty()
                && p.declarator.name.is_none()
                && p.specs.type_specs().count() == 1
                && matches!(p.specs.type_specs().next(), Some((TypeSpec::Void, _)))
            {
                return out;
            }
        }
        for p in &f.params {
            let specs = self.specs(&p.specs, DeclPlace::Block);
            // clang checks the storage class before the parameter's type.
            let bad_storage = self.param_storage(&specs);
            let d = self.declarator(specs.ty, &p.declarator, false);
            self.kernel_not_on_function(&specs);
            self.overloadable_not_on_function(&p.specs, &p.declarator);
            let access_ok = self.access_decl_attrs(&specs.access, AccessDecl::Param, d.ty);
            let mut invalid = d.invalid || specs.invalid || bad_storage || !access_ok;
            let span = d.name.map_or(p.span, |_| d.name_span);
            let written = d.ty;
            let mut ty = d.ty;
            // Array parameters become pointers to their (private by default) elements, the
            // element's typedef sugar kept (`cl_uint A[3][3]` is `'__private cl_uint (*)[3]'`).
            if let Some((elem, _)) = self.prog.types.array_elem_sugared(ty) {
                let elem = if self.prog.types.object_space(elem).is_none() {
                    self.prog
                        .types
                        .set_object_space(elem, Some(LangAs::PRIVATE))
                } else {
                    elem
                };
                let pid = self.prog.types.pointer(elem);
                // Qualifiers on an array typedef (`const T10 b`) went to the element.
                let through_typedef = matches!(self.prog.types.kind(ty.id), TypeKind::Typedef(_));
                ty = QualType {
                    id: pid,
                    quals: if through_typedef {
                        Quals::default()
                    } else {
                        Quals {
                            space: None,
                            ..ty.quals
                        }
                    },
                };
            } else if self.prog.types.fn_sig(ty).is_some() {
                let pid = self.prog.types.pointer(ty);
                ty = self.t(pid);
            }
            if self.prog.types.is_void(ty) {
                self.err(span, "argument may not have 'void' type");
                invalid = true;
            }
            let own = self.prog.types.canonical(ty).quals.space;
            if space::parameter_space_error(own) {
                self.err(span, "parameter may not be qualified with an address space");
                invalid = true;
            }
            if !self.prog.types.is_opaque(ty, Opaque::Sampler) {
                ty = ty.with_space(Some(LangAs::PRIVATE));
            }
            if self.prog.types.as_scalar(ty) == Some(Scalar::Half) && !self.ext("cl_khr_fp16") {
                let t = self.prog.types.quoted(ty);
                self.emit(
                    Diagnostic::error(
                        span,
                        format!("declaring function parameter of type {t} is not allowed; did you forget * ?"),
                    )
                    .emitted_at(f.close),
                );
                invalid = true;
            }
            let _ = written;
            out.push(ParamInfo {
                name: d.name,
                ty,
                span,
                invalid,
            });
        }
        out
    }

    /// A K&R identifier list `f(a, b)`: in a definition each name takes the type its
    /// declaration before the body gives it ([`Checker::kr_decls`]), else `int` (reported by
    /// [`Checker::kr_undeclared`]); elsewhere the list is an error.
    fn kr_params(&mut self, f: &ast::FunctionChunk) -> Vec<ParamInfo> {
        let int = self.t(TypeTable::INT).with_space(Some(LangAs::PRIVATE));
        let Some(declared) = self.kr_decls.as_ref() else {
            if let Some(first) = f.kr_idents.first() {
                self.err(
                    first.span,
                    "a parameter list without types is only allowed in a function definition",
                );
            }
            return f
                .kr_idents
                .iter()
                .map(|i| ParamInfo {
                    name: Some(i.name),
                    ty: int,
                    span: i.span,
                    invalid: true,
                })
                .collect();
        };
        f.kr_idents
            .iter()
            .map(|i| {
                let ty = declared
                    .iter()
                    .find(|(n, _)| *n == i.name)
                    .map_or(int, |&(_, ty)| ty.with_space(Some(LangAs::PRIVATE)));
                ParamInfo {
                    name: Some(i.name),
                    ty,
                    span: i.span,
                    invalid: false,
                }
            })
            .collect()
    }

    /// A definition's K&R identifiers that no declaration before the body types: clang
    /// reports them last to first as it reaches the body's `{`, before it builds the
    /// function's type.
    fn kr_undeclared(&mut self, f: &ast::FunctionChunk, lbrace: Span) {
        let declared = self.kr_decls.take().unwrap_or_default();
        for i in f.kr_idents.iter().rev() {
            if declared.iter().any(|(n, _)| *n == i.name) {
                continue;
            }
            self.diags.push(
                Diagnostic::error(
                    i.span,
                    format!(
                        "parameter '{}' was not declared, defaults to 'int'; ISO C99 and later do not support implicit int",
                        i.name
                    ),
                )
                .with_group("implicit-int")
                .with_fixit(Span { hi: lbrace.lo, ..lbrace }, format!("int {};\n", i.name))
                .emitted_at(lbrace),
            );
        }
        self.kr_decls = Some(declared);
    }

    /// The types the K&R parameter declarations between a definition's declarator and its
    /// body give their names.
    fn kr_declared(&mut self, decls: &[ast::Declaration]) -> Vec<(Symbol, QualType)> {
        let mut out = Vec::new();
        for d in decls {
            let specs = self.specs(&d.specs, DeclPlace::Block);
            for idecl in &d.declarators {
                let decl = self.declarator(specs.ty, &idecl.declarator, false);
                if let Some(n) = decl.name {
                    out.push((n, decl.ty));
                }
            }
        }
        out
    }

    /// The type a typedef names (clang prints it, not the typedef, in redefinition errors).
    fn typedef_underlying(&self, q: QualType) -> QualType {
        match self.prog.types.kind(q.id) {
            TypeKind::Typedef(td) => self.prog.types.typedef(*td).map_or(q, |d| d.ty),
            _ => q,
        }
    }

    /// Adds a name to the current scope, reporting a redefinition of a valid declaration.
    pub(crate) fn declare_name(
        &mut self,
        name: Symbol,
        binding: Binding,
        span: Span,
        invalid: bool,
    ) {
        // At file scope a typedef may redeclare one of the header's (`typedef uint
        // u32;` is fine, `typedef unsigned long long ulong;` is not): they share clang's
        // translation-unit scope.
        let prev = self.scopes.lookup_current(name).copied().or_else(|| {
            (self.scopes.depth() == 1 && matches!(binding, Binding::Typedef(_)))
                .then(|| self.scopes.lookup_predeclared(name).copied())
                .flatten()
                .filter(|p| matches!(p.binding, Binding::Typedef(_)))
        });
        if let Some(prev) = prev
            && !prev.invalid
            && !invalid
        {
            let same_kind_ok = match (prev.binding, binding) {
                (Binding::Typedef(a), Binding::Typedef(b)) => {
                    self.prog.types.canonical(a) == self.prog.types.canonical(b)
                }
                _ => false,
            };
            if !same_kind_ok {
                let msg = match (prev.binding, binding) {
                    (Binding::Typedef(a), Binding::Typedef(b)) => format!(
                        "typedef redefinition with different types ({} vs {})",
                        self.prog.types.quoted(self.typedef_underlying(b)),
                        self.prog.types.quoted(self.typedef_underlying(a))
                    ),
                    (Binding::Var(old), Binding::Var(new))
                        if self.prog.types.canonical(self.prog.vars[new.0 as usize].ty)
                            != self.prog.types.canonical(self.prog.vars[old.0 as usize].ty) =>
                    {
                        format!(
                            "redefinition of '{name}' with a different type: {} vs {}",
                            self.prog.types.quoted(self.prog.vars[new.0 as usize].ty),
                            self.prog.types.quoted(self.prog.vars[old.0 as usize].ty)
                        )
                    }
                    (Binding::Var(_), Binding::Var(_))
                    | (Binding::EnumConst(..), Binding::EnumConst(..)) => {
                        format!("redefinition of '{name}'")
                    }
                    _ => format!("redefinition of '{name}' as different kind of symbol"),
                };
                self.err(span, msg);
                self.note_last(prev.span, "previous definition is here");
            }
        } else if self.scopes.depth() <= 1
            && !invalid
            && matches!(binding, Binding::Typedef(_) | Binding::Var(_))
            && self.is_header_builtin(name)
        {
            // The builtin functions of opencl-c.h are declared at file scope.
            self.err(
                span,
                format!("redefinition of '{name}' as different kind of symbol"),
            );
            self.note_last(Span::DUMMY, "previous definition is here");
        }
        self.scopes.insert(
            name,
            Entry {
                binding,
                span,
                invalid,
            },
        );
    }

    // ---- declarations ----

    /// clang's `ParsedFreeStandingDeclSpec` for a declaration without declarators: a typedef
    /// "requires a name"; anything but a named tag or an enumeration "does not declare
    /// anything" (`int;`, an anonymous struct outside a record).
    fn declares_nothing(&mut self, d: &ast::Declaration, specs: &Specs) {
        if specs.invalid || d.specs.items.is_empty() {
            return;
        }
        let msg = if d.specs.is_typedef() {
            "typedef requires a name"
        } else if d.specs.type_specs().any(|(t, _)| match t {
            TypeSpec::Record(r) => r.name.is_some(),
            TypeSpec::Enum(_) | TypeSpec::Unknown(_) => true,
            _ => false,
        }) {
            return;
        } else {
            "declaration does not declare anything"
        };
        self.warn(d.specs.span.start(), msg, "missing-declarations");
    }

    /// Checks a declaration (at file scope or in a block) and returns the variables it
    /// declares, in order (for the block's statement list).
    pub(crate) fn declaration(&mut self, d: &ast::Declaration, place: DeclPlace) -> Vec<VarId> {
        let specs = self.specs(&d.specs, place);
        let mut out = Vec::new();
        if d.declarators.is_empty() {
            self.declares_nothing(d, &specs);
            return out;
        }
        for idecl in &d.declarators {
            self.flush_typos(None);
            let decl = self.declarator(
                specs.ty,
                &idecl.declarator,
                specs.storage.is_some_and(|s| s.0 == StorageClass::Typedef),
            );
            self.warn_unknown_decl_attrs(&d.specs, &idecl.declarator);
            let Some(name) = decl.name else { continue };
            let what = if specs.storage.is_some_and(|s| s.0 == StorageClass::Typedef) {
                AccessDecl::Typedef
            } else {
                AccessDecl::Other
            };
            self.access_decl_attrs(&specs.access, what, decl.ty);
            if self.prog.types.fn_sig(decl.ty).is_none() {
                self.kernel_not_on_function(&specs);
            }
            if self.prog.types.fn_sig(decl.ty).is_none() || d.specs.is_typedef() {
                self.overloadable_not_on_function(&d.specs, &idecl.declarator);
            }
            if specs.storage.is_some_and(|s| s.0 == StorageClass::Typedef) {
                let ty = self.ext_vector_attr(&d.specs, &idecl.declarator, decl.ty);
                let id = self.prog.types.add_typedef(crate::types::TypedefDef {
                    name,
                    ty,
                    span: decl.name_span,
                    start: if d.specs.span == Span::DUMMY {
                        d.span.start()
                    } else {
                        d.specs.span.start()
                    },
                });
                if let Some(a) = self.aligned_attr(&d.specs, &idecl.declarator) {
                    self.prog.types.set_typedef_align(id, a);
                }
                let invalid = decl.invalid || specs.invalid;
                self.declare_name(name, Binding::Typedef(self.t(id)), decl.name_span, invalid);
                continue;
            }
            if self.prog.types.fn_sig(decl.ty).is_some() {
                let ovl = super::builtin_redecl::has_overloadable(&d.specs, &idecl.declarator);
                if let Some(fid) = self.function_decl(&specs, &decl, None, ovl) {
                    let attrs = d
                        .specs
                        .attributes()
                        .chain(declarator_attrs(&idecl.declarator));
                    self.record_call_attrs(fid, &d.specs, attrs);
                    self.record_fn_link(fid, &d.specs, &idecl.declarator, decl.name_span);
                }
                continue;
            }
            if let Some(v) = self.var_decl(&specs, &decl, idecl.init.as_ref(), place) {
                let start = if d.specs.span == Span::DUMMY {
                    d.span
                } else {
                    d.specs.span
                };
                self.var_starts.insert(
                    v,
                    Span {
                        hi: start.lo,
                        ..start
                    },
                );
                out.push(v);
            }
            self.flush_typos(Some(idecl.span));
        }
        out
    }

    /// Whether `cl_intel_device_side_avc_motion_estimation` is supported and enabled by a
    /// pragma (clang's `isAvailableOption`: its types exist without the pragma, but only
    /// with it may `0` initialize them).
    pub(crate) fn avc_enabled(&self) -> bool {
        const NAME: &str = "cl_intel_device_side_avc_motion_estimation";
        self.lang.has(NAME)
            && self.lang.std >= oclc_syntax::ClStd::Cl12
            && self.pragma_ext.get(NAME).copied().unwrap_or(false)
    }

    /// Whether clang's `cl_clang_storage_class_specifiers` is supported and enabled by a
    /// pragma (it is not a core feature, so `-cl-ext` alone does not enable it).
    pub(crate) fn storage_class_ext(&self) -> bool {
        const NAME: &str = "cl_clang_storage_class_specifiers";
        self.lang.has(NAME) && self.pragma_ext.get(NAME).copied().unwrap_or(false)
    }

    /// The parameters of a declarator clang dropped for want of a function body: what clang
    /// reports as it acts on each parameter (its own declarator, `__kernel` and `overloadable`
    /// on it), not the function type's checks.
    pub(crate) fn dropped_params(&mut self, d: &ast::Declarator) {
        for c in &d.chunks {
            let ChunkKind::Function(f) = &c.kind else {
                continue;
            };
            for p in &f.params {
                let specs = self.specs(&p.specs, DeclPlace::Block);
                self.param_storage(&specs);
                let pd = self.declarator(specs.ty, &p.declarator, false);
                self.access_decl_attrs(&specs.access, AccessDecl::Param, pd.ty);
                self.kernel_not_on_function(&specs);
                self.overloadable_not_on_function(&p.specs, &p.declarator);
            }
        }
    }

    /// clang's error for a parameter's storage class other than `register`; true when given.
    fn param_storage(&mut self, specs: &Specs) -> bool {
        match specs.storage {
            Some((sc, ss)) if sc != StorageClass::Register => {
                self.err(ss, "invalid storage class specifier in function declarator");
                true
            }
            _ => false,
        }
    }

    /// clang's error for `__kernel` on a declaration that is not a function's.
    pub(crate) fn kernel_not_on_function(&mut self, specs: &Specs) {
        if let Some(k) = specs.kernel_span {
            // Named as written: `kernel` or `__kernel`.
            let name = if k.hi.saturating_sub(k.lo) == 6 {
                "kernel"
            } else {
                "__kernel"
            };
            self.err(k, format!("'{name}' attribute only applies to functions"));
        }
    }

    /// A variable declaration: type rules, address space (deduced or checked), storage and
    /// initializer.
    fn var_decl(
        &mut self,
        specs: &Specs,
        d: &Declared,
        init: Option<&ast::Initializer>,
        place: DeclPlace,
    ) -> Option<VarId> {
        let name = d.name?;
        let span = d.name_span;
        let mut invalid = d.invalid || specs.invalid;
        let sc = specs.storage.map(|s| s.0);
        let is_static = sc == Some(StorageClass::Static);
        let is_extern = sc == Some(StorageClass::Extern);
        let at_file = place == DeclPlace::File;
        let mut ty = d.ty;
        let types = &self.prog.types;
        let is_sampler = types.is_opaque(ty, Opaque::Sampler);
        let event_like = matches!(
            types.ckind(ty),
            TypeKind::Opaque(Opaque::Event | Opaque::ClkEvent | Opaque::ReserveId)
        );
        let is_void = types.is_void(ty);
        let is_img = matches!(types.ckind(ty), TypeKind::Image(..) | TypeKind::Pipe(..));
        // Rule 36/39: deduce the space of an unqualified variable (not samplers, as clang).
        let written_space = self.prog.types.object_space(ty);
        // Not for `void`, whose variable clang leaves unqualified (and rejects later).
        if written_space.is_none() && !is_sampler && !is_void && !self.prog.types.is_error(ty) {
            let ctx = if at_file {
                DeclContext::ProgramScope
            } else if is_static || is_extern {
                DeclContext::StaticOrExternLocal
            } else {
                DeclContext::Automatic
            };
            let sp = LangAs::Named(space::default_object_space(ctx, &self.lang));
            ty = self.prog.types.set_object_space(ty, Some(sp));
        }
        let space_now = self.prog.types.object_space(ty);
        // Images and pipes can only be parameters (clang names the type with its deduced
        // address space).
        if is_img && !invalid {
            let t = self.prog.types.quoted(ty);
            self.err(
                span,
                format!("type {t} can only be used as a function parameter in OpenCL"),
            );
            invalid = true;
        }
        if self.prog.types.as_scalar(ty) == Some(Scalar::Half)
            && !self.ext("cl_khr_fp16")
            && !invalid
        {
            let t = self.prog.types.quoted(ty);
            self.err(
                span,
                format!("declaring variable of type {t} is not allowed"),
            );
            invalid = true;
        }
        // Rule 71: events cannot be program-scope variables or live outside private memory.
        if event_like && !invalid && (at_file || space_now.is_some_and(|s| s != LangAs::PRIVATE)) {
            let t = self.prog.types.quoted(ty);
            self.err(
                span,
                format!("the {t} type cannot be used to declare a program scope variable"),
            );
            invalid = true;
        }
        if is_sampler && !invalid {
            if space::sampler_space_error(space_now) {
                self.err(span, "sampler type cannot be used with the __local and __global address space qualifiers");
                invalid = true;
            }
            if (at_file || is_static)
                && space_now != Some(LangAs::CONSTANT)
                && !self.prog.types.is_const_object(ty)
            {
                self.err(
                    span,
                    "global sampler requires a const or constant address space qualifier",
                );
                invalid = true;
            }
        }
        // clang's `cl_clang_storage_class_specifiers` lets `register`/`auto` through the
        // parser; at file scope they are still illegal.
        if at_file && matches!(sc, Some(StorageClass::Register | StorageClass::Auto)) && !invalid {
            self.err(span, "illegal storage class on file-scoped variable");
            invalid = true;
        }
        if !at_file && is_static && !self.prog.types.canonical(ty).quals.is_const() {
            let at = specs.storage.map_or(span, |s| s.1);
            self.static_local_in_inline(at);
        }
        // Rule 31: static locals before OpenCL C 2.0.
        let mut storage_checked = false;
        let storage_ext = self.storage_class_ext();
        if !at_file
            && is_static
            && !space::static_local_allowed(&self.lang, storage_ext)
            && !invalid
        {
            self.err(
                span,
                "variables in function scope cannot be declared static",
            );
            invalid = true;
            storage_checked = true;
        }
        if !invalid && !storage_checked && !is_sampler {
            let global_storage = if at_file {
                Some(GlobalStorage::ProgramScope)
            } else if is_extern {
                Some(GlobalStorage::Extern)
            } else if is_static {
                Some(GlobalStorage::StaticLocal)
            } else {
                None
            };
            let kind = if at_file && is_extern {
                Some(GlobalStorage::Extern)
            } else {
                global_storage
            };
            if let Some(k) = kind {
                if let Some(msg) = space::global_storage_space_error(space_now, k, &self.lang) {
                    self.err(span, msg);
                    invalid = true;
                }
            } else if let Some(f) = &self.func {
                let scope = space::FunctionScope {
                    in_kernel: f.is_kernel,
                    outermost: f.block_depth <= 1,
                    local_vars_ext: space_now == Some(LangAs::LOCAL)
                        && self.ext("__cl_clang_function_scope_local_variables"),
                };
                if let Some(msg) = space::automatic_space_error(space_now, scope) {
                    self.err(span, msg);
                    invalid = true;
                }
            }
        }
        // clang completes the declaration after its address space checks: a `void` variable
        // is reported with its deduced space (`'__constant void'`), an automatic one as
        // written.
        if is_void && !invalid {
            let t = if at_file || is_static || is_extern {
                self.prog.types.quoted(ty)
            } else {
                self.prog.types.quoted(d.ty)
            };
            self.err(span, format!("variable has incomplete type {t}"));
            invalid = true;
        }
        let storage = if at_file {
            Storage::Program
        } else if is_static || is_extern {
            Storage::StaticLocal
        } else if matches!(
            space_now,
            Some(LangAs::Named(AddrSpace::Local | AddrSpace::Constant))
        ) {
            Storage::KernelScope
        } else {
            Storage::Automatic
        };
        let var_space = space_now
            .and_then(LangAs::named)
            .unwrap_or(AddrSpace::Private);
        let vid = self.new_var(hir::Var {
            name,
            ty,
            space: var_space,
            storage,
            init: None,
            span,
            is_extern,
        });
        if at_file {
            self.prog.globals.push(vid);
            if is_static {
                self.record_internal_var(vid);
            }
        }
        // Declare before the initializer (C scope rules), replacing a compatible file-scope
        // redeclaration quietly.
        let redecl_ok = at_file
            && self.scopes.lookup_current(name).is_some_and(|e| {
                matches!(e.binding, Binding::Var(p) if self.prog.var(p).is_some_and(|pv| {
                    self.prog.types.canonical(pv.ty) == self.prog.types.canonical(ty)
                        && (pv.init.is_none() || init.is_none())
                }))
            });
        if redecl_ok {
            self.scopes.insert(
                name,
                Entry {
                    binding: Binding::Var(vid),
                    span,
                    invalid,
                },
            );
        } else {
            self.declare_name(name, Binding::Var(vid), span, invalid);
        }
        // Initializer rules (33, 34) and the conversion.
        match init {
            Some(i) => {
                if space_now == Some(LangAs::LOCAL) && !invalid {
                    self.err(span, space::local_initializer_error());
                    invalid = true;
                }
                if is_extern && !at_file {
                    self.err(span, "declaration of block scope identifier with linkage cannot have an initializer");
                }
                if invalid {
                    // clang does not check the initializer of an invalid declaration, only
                    // the expressions in it.
                    self.init_exprs_only(i);
                    return Some(vid);
                }
                let static_init = at_file || is_static || space_now == Some(LangAs::CONSTANT);
                let outer = self.initializing.replace(name);
                let hinit = self.initializer(ty, i, static_init, span);
                self.initializing = outer;
                self.end_full_expr();
                if let Some(hi) = hinit {
                    // An unsized array takes its size from the initializer.
                    let new_ty = self.complete_array_from_init(ty, &hi);
                    if let Some(v) = self.prog.vars.get_mut(vid.0 as usize) {
                        v.init = Some(hi);
                        v.ty = new_ty;
                    }
                }
            }
            None => {
                if space::constant_requires_initializer(space_now, is_extern) && !invalid {
                    self.err(
                        span,
                        "variable in constant address space must be initialized",
                    );
                } else if !(invalid
                    || is_extern
                    || self.prog.types.is_complete(ty)
                    || self.prog.types.is_error(ty)
                    || (at_file && self.prog.types.is_array(ty)))
                {
                    let t = self.prog.types.quoted(ty);
                    if self.prog.types.is_array(ty) {
                        self.err(span, "definition of variable with array type needs an explicit size or an initializer");
                    } else {
                        self.err(span, format!("variable has incomplete type {t}"));
                    }
                }
            }
        }
        let _ = invalid;
        Some(vid)
    }

    /// The alignment `__attribute__((aligned(N)))` gives a typedef (a constant power of two;
    /// anything else is left to the attribute checks).
    fn aligned_attr(&mut self, specs: &ast::DeclSpecs, d: &ast::Declarator) -> Option<u64> {
        let attrs = specs
            .attributes()
            .chain(d.attrs.iter().filter_map(|a| match &a.kind {
                DeclSpecKind::Attr(x) => Some(x),
                _ => None,
            }));
        let mut e = None;
        for a in attrs {
            if a.name.name.as_str().trim_matches('_') == "aligned"
                && let Some(ast::AttrArg::Expr(x)) = a.args.first()
            {
                e = Some(x);
            }
        }
        let he = self.expr(e?);
        let v = self.const_int(&he)?;
        u64::try_from(v).ok().filter(|v| v.is_power_of_two())
    }

    /// `typedef float float4 __attribute__((ext_vector_type(4)))` makes a vector type.
    fn ext_vector_attr(
        &mut self,
        specs: &ast::DeclSpecs,
        d: &ast::Declarator,
        ty: QualType,
    ) -> QualType {
        let attrs = specs
            .attributes()
            .chain(d.attrs.iter().filter_map(|a| match &a.kind {
                DeclSpecKind::Attr(x) => Some(x),
                _ => None,
            }));
        let mut n = None;
        for a in attrs {
            if a.name.name.as_str().trim_matches('_') == "ext_vector_type"
                && let Some(ast::AttrArg::Expr(e)) = a.args.first()
            {
                n = Some(e.clone());
            }
        }
        let Some(e) = n else { return ty };
        let he = self.expr(&e);
        let Some(k) = self.const_int(&he) else {
            return ty;
        };
        let Some(s) = self.prog.types.as_scalar(ty) else {
            let t = self.prog.types.quoted(ty);
            self.err(e.span, format!("invalid vector element type {t}"));
            return ty;
        };
        if !matches!(k, 2 | 3 | 4 | 8 | 16) {
            self.err(
                e.span,
                "vector size not an integral multiple of component size",
            );
            return ty;
        }
        QualType {
            id: self.prog.types.vector(s, k as u8),
            quals: ty.quals,
        }
    }

    /// Checks the expressions of an initializer without converting them.
    fn init_exprs_only(&mut self, i: &ast::Initializer) {
        match i {
            ast::Initializer::Expr(e) => {
                let _ = self.expr(e);
            }
            ast::Initializer::List(l) => {
                for it in &l.items {
                    self.init_exprs_only(&it.init);
                }
            }
        }
    }

    /// Declares (or defines, with `params` and a body later) a function.
    fn function_decl(
        &mut self,
        specs: &Specs,
        d: &Declared,
        def_span: Option<Span>,
        overloadable: bool,
    ) -> Option<FuncId> {
        let name = d.name?;
        let span = d.name_span;
        let mut invalid = d.invalid || specs.invalid;
        let sig = self.prog.types.fn_sig(d.ty).cloned()?;
        let is_kernel = specs.is_kernel;
        if let Some((StorageClass::Static, _)) = specs.storage
            && is_kernel
        {
            self.err(span, "kernel functions cannot be declared static");
            invalid = true;
        }
        if name.as_str() == "main" {
            self.err(
                span,
                if is_kernel {
                    "kernel cannot be called 'main'"
                } else {
                    "function cannot be called 'main'"
                },
            );
            invalid = true;
        }
        if is_kernel && !self.prog.types.is_void(sig.ret) && !self.prog.types.is_error(sig.ret) {
            self.err(span, "kernel must have void return type");
            invalid = true;
        }
        let params = d.params.clone().unwrap_or_default();
        if is_kernel {
            for p in &params {
                if !p.invalid && !self.kernel_param(p) {
                    invalid = true;
                }
            }
        }
        // A function named like an opencl-c.h builtin overloads it (clang's rules in
        // `builtin_redecl`); it is not bound in scope.
        if !invalid && sig.has_proto && !sig.variadic && self.is_header_builtin(name) {
            let pids = params
                .iter()
                .map(|p| {
                    self.new_var(hir::Var {
                        name: p.name.unwrap_or(self.empty_sym),
                        ty: p.ty,
                        space: AddrSpace::Private,
                        storage: Storage::Param,
                        init: None,
                        span: p.span,
                        is_extern: false,
                    })
                })
                .collect();
            return self.builtin_named_function(super::builtin_redecl::FnDecl {
                name,
                span,
                sig: &sig,
                ty: d.ty,
                overloadable,
                is_static: matches!(specs.storage, Some((StorageClass::Static, _))),
                is_kernel,
                definition: def_span.is_some(),
                params: pids,
            });
        }
        // Redeclaration. A compatible redeclaration shares the first one's FuncId, so calls
        // made before the definition reach the definition's body.
        let prev = self.scopes.lookup_current(name).copied();
        let mut reuse = None;
        // Set when this declaration joins `name`'s overload set.
        let mut overload = false;
        if let Some(prev) = prev
            && !prev.invalid
            && !invalid
        {
            match prev.binding {
                Binding::Func(fid) => {
                    let pty = self.prog.function(fid).map(|f| f.ty);
                    if let Some(pty) = pty {
                        let a = self.prog.types.canonical(QualType::new(pty));
                        let b = self.prog.types.canonical(d.ty);
                        if a != b && !self.compatible_fn_types(a, b) {
                            if (overloadable || self.overloadable_fns.contains(&fid))
                                && !self.same_params(a, b)
                            {
                                // Another overload, or a redeclaration of one of the set.
                                overload = true;
                                reuse = self.overload_with_type(name, fid, b);
                            } else {
                                self.err(span, format!("conflicting types for '{name}'"));
                                self.note_last(prev.span, "previous declaration is here");
                            }
                        } else {
                            reuse = Some(fid);
                            overload = self.fn_overloads.contains_key(&name);
                        }
                    }
                    let previous_def = if overload {
                        reuse.and_then(|f| self.overload_defined.get(&f).copied())
                    } else {
                        self.defined.get(&name).copied()
                    };
                    if def_span.is_some()
                        && let Some(ps) = previous_def
                    {
                        self.err(span, format!("redefinition of '{name}'"));
                        self.note_last(ps, "previous definition is here");
                        reuse = None;
                        overload = false;
                    }
                }
                _ => {
                    self.err(
                        span,
                        format!("redefinition of '{name}' as different kind of symbol"),
                    );
                    self.note_last(prev.span, "previous definition is here");
                }
            }
        }
        let mut pids = Vec::new();
        for p in &params {
            let vid = self.new_var(hir::Var {
                name: p.name.unwrap_or(self.empty_sym),
                ty: p.ty,
                space: AddrSpace::Private,
                storage: Storage::Param,
                init: None,
                span: p.span,
                is_extern: false,
            });
            pids.push(vid);
        }
        let fid =
            match reuse.and_then(|f| self.prog.functions.get_mut(f.0 as usize).map(|x| (f, x))) {
                Some((f, func)) => {
                    // Keep the prototype's type unless this declaration has one and it had none.
                    if sig.has_proto || func.params.is_empty() {
                        func.ty = d.ty.id;
                        func.params = pids;
                    }
                    func.is_kernel |= is_kernel;
                    if def_span.is_some() {
                        func.span = span;
                    }
                    f
                }
                None => {
                    let f = FuncId(self.prog.functions.len() as u32);
                    self.prog.functions.push(hir::Function {
                        name,
                        ty: d.ty.id,
                        ret: sig.ret,
                        params: pids,
                        is_kernel,
                        body: None,
                        span,
                        reqd_work_group_size: None,
                        work_group_size_hint: None,
                        vec_type_hint: None,
                    });
                    f
                }
            };
        if overloadable {
            self.overloadable_fns.insert(fid);
        }
        if overload {
            let set = self.fn_overloads.entry(name).or_default();
            if !set.contains(&fid) {
                set.push(fid);
            }
        }
        if def_span.is_some() && !invalid {
            self.fn_uses.defined(fid);
            self.defined.insert(name, span);
            if overloadable {
                self.overload_defined.insert(fid, span);
            }
        }
        let entry = Entry {
            binding: Binding::Func(fid),
            span,
            invalid,
        };
        if self.scopes.depth() <= 1 {
            self.scopes.insert(name, entry);
        } else {
            self.scopes.insert(name, entry);
            self.scopes.insert_file(name, entry);
        }
        Some(fid)
    }

    /// Whether function types `a` and `b` take the same parameters (then they cannot
    /// overload each other: different returns conflict).
    fn same_params(&self, a: QualType, b: QualType) -> bool {
        let t = &self.prog.types;
        match (t.fn_sig(a), t.fn_sig(b)) {
            (Some(x), Some(y)) => {
                x.variadic == y.variadic
                    && x.params.len() == y.params.len()
                    && x.params
                        .iter()
                        .zip(&y.params)
                        .all(|(p, q)| t.canonical(p.unqualified()) == t.canonical(q.unqualified()))
            }
            _ => false,
        }
    }

    /// The member of `name`'s overload set (started by `first`) whose type is `ty`, if any.
    fn overload_with_type(&mut self, name: Symbol, first: FuncId, ty: QualType) -> Option<FuncId> {
        self.fn_overloads.entry(name).or_insert_with(|| vec![first]);
        let set = self.fn_overloads.get(&name)?;
        set.iter().copied().find(|&g| {
            self.prog.function(g).is_some_and(|f| {
                let a = self.prog.types.canonical(QualType::new(f.ty));
                a == ty || self.compatible_fn_types(a, ty)
            })
        })
    }

    /// `void f()` (no prototype) is compatible with any prototype of the same return type.
    fn compatible_fn_types(&self, a: QualType, b: QualType) -> bool {
        match (self.prog.types.fn_sig(a), self.prog.types.fn_sig(b)) {
            (Some(x), Some(y)) => {
                x.ret.id == y.ret.id
                    && (x.params.is_empty() && !x.has_proto
                        || y.params.is_empty() && !y.has_proto
                        || (x.params.len() == y.params.len()
                            && x.variadic == y.variadic
                            && x.params.iter().zip(y.params.iter()).all(|(p, q)| {
                                self.prog.types.canonical(p.unqualified())
                                    == self.prog.types.canonical(q.unqualified())
                                    || p.id == q.id
                            })))
            }
            _ => false,
        }
    }

    /// A function definition: declares it, then checks the body with its parameters in scope.
    pub(crate) fn function_def(&mut self, f: &ast::FunctionDef) {
        let start = self.diags.list.len();
        let specs = self.specs(&f.specs, DeclPlace::File);
        let kr = f
            .declarator
            .function()
            .is_some_and(|c| !c.kr_idents.is_empty());
        if kr {
            self.kr_decls = Some(self.kr_declared(&f.kr_decls));
            if let Some(chunk) = f.declarator.function() {
                self.kr_undeclared(
                    chunk,
                    Span {
                        hi: f.body.span.lo,
                        ..f.body.span
                    },
                );
            }
        }
        let open = f.body.span.lo + 1;
        self.def_open = Some(Span {
            lo: open,
            hi: open,
            ..f.body.span
        });
        let d = self.declarator(specs.ty, &f.declarator, false);
        self.def_open = None;
        self.kr_decls = None;
        self.warn_unknown_decl_attrs(&f.specs, &f.declarator);
        if self.prog.types.fn_sig(d.ty).is_none() {
            self.err(d.name_span, "expected ';' after top level declarator");
            return;
        }
        let ovl = super::builtin_redecl::has_overloadable(&f.specs, &f.declarator);
        let Some(fid) = self.function_decl(&specs, &d, Some(f.span), ovl) else {
            return;
        };
        let attrs = f.specs.attributes().chain(declarator_attrs(&f.declarator));
        self.record_call_attrs(fid, &f.specs, attrs);
        self.record_fn_link(fid, &f.specs, &f.declarator, d.name_span);
        // clang parses the attributes' arguments with the declaration specifiers: their
        // errors come before the declaration's own.
        let attr_diags = self.diags.list.len();
        self.attributes_for(fid, &f.specs, &f.declarator);
        let moved: Vec<Diagnostic> = self.diags.list.drain(attr_diags..).collect();
        self.diags.list.splice(start..start, moved);
        // clang's `CheckParmsForFunctionDef`: a definition's parameters have names until C23
        // (`(void)` declares none).
        if d.params.as_ref().is_some_and(|p| !p.is_empty())
            && let Some(fc) = f.declarator.function()
        {
            for p in fc.params.iter().filter(|p| p.declarator.name.is_none()) {
                self.warn(
                    p.declarator.name_at,
                    "omitting the parameter name in a function definition is a C23 extension",
                    "c23-extensions-warn",
                );
            }
        }
        let sig = self.prog.types.fn_sig(d.ty).cloned();
        let ret = sig.as_ref().map_or(self.t(TypeTable::VOID), |s| s.ret);
        let is_kernel = specs.is_kernel;
        self.scopes.push();
        let pids = self
            .prog
            .function(fid)
            .map(|f| f.params.clone())
            .unwrap_or_default();
        for (p, &vid) in d.params.clone().unwrap_or_default().iter().zip(&pids) {
            if let Some(n) = p.name {
                self.declare_name(n, Binding::Var(vid), p.span, p.invalid);
            }
        }
        let name = d.name.unwrap_or(self.empty_sym);
        self.func = Some(FnCtx {
            name,
            is_kernel,
            ret,
            block_depth: 0,
            id: Some(fid),
        });
        self.flow = super::flow::Flow::default();
        let body = Some(self.block(&f.body, false)).filter(|_| self.bodies == super::Bodies::Keep);
        self.check_gotos();
        let rbrace = f.close;
        if kr {
            // clang warns as it finishes the body, before the body's held warnings.
            self.emit(
                Diagnostic::warning(
                    d.name_span,
                    "a function definition without a prototype is deprecated in all versions of C and is not supported in C23",
                )
                .with_group("deprecated-non-prototype")
                .emitted_at(rbrace),
            );
        }
        let ret_void = is_kernel || self.prog.types.is_void(ret) || self.prog.types.is_error(ret);
        let noreturn = self.func_attrs.get(&fid).is_some_and(|a| a.noreturn);
        self.flush_runtime_warnings(rbrace, ret_void, noreturn);
        self.func = None;
        self.fn_end = std::mem::take(&mut self.deferred);
        self.scopes.pop();
        if let Some(func) = self.prog.functions.get_mut(fid.0 as usize) {
            func.params = pids;
            func.body = body;
        }
    }

    /// Records the kernel attributes lowering and the runtime need.
    fn attributes_for(&mut self, fid: FuncId, specs: &ast::DeclSpecs, d: &ast::Declarator) {
        let mut reqd = None;
        let mut hint = None;
        let mut vec_hint = None;
        for a in specs.attributes().chain(declarator_attrs(d)) {
            let n = a.name.name.as_str().trim_matches('_');
            if n == "vec_type_hint" {
                if let Some(ast::AttrArg::Type(tn)) = a.args.first() {
                    vec_hint = Some(self.type_name(tn));
                }
                continue;
            }
            if n == "intel_reqd_sub_group_size" {
                if let Some(ast::AttrArg::Expr(e)) = a.args.first() {
                    let _ = self.expr(e);
                    self.flush_typos(None);
                }
                continue;
            }
            if n != "reqd_work_group_size" && n != "work_group_size_hint" {
                continue;
            }
            let mut v = [1u64; 3];
            for (i, arg) in a.args.iter().take(3).enumerate() {
                if let ast::AttrArg::Expr(e) = arg {
                    let he = self.expr(e);
                    self.flush_typos(None);
                    if let Some(x) = self.const_int(&he) {
                        v[i] = x.max(0) as u64;
                    }
                }
            }
            if n == "reqd_work_group_size" {
                reqd = Some(v);
            } else {
                hint = Some(v);
            }
        }
        if let Some(f) = self.prog.functions.get_mut(fid.0 as usize) {
            f.reqd_work_group_size = reqd;
            f.work_group_size_hint = hint;
            f.vec_type_hint = vec_hint;
        }
    }
}

impl Checker<'_> {
    /// clang's "array is too large (N elements)" for `v` (of a signed or unsigned size type)
    /// elements of `elem`: reported at `at`; true when it was.
    fn array_too_large(&mut self, elem: QualType, v: i64, signed: bool, at: Span) -> bool {
        if signed && v < 0 {
            return false;
        }
        let n = v as u64;
        let Some(elem_size) = self.prog.types.size_of(elem) else {
            return false;
        };
        if !self.prog.types.array_too_large(elem_size, n) {
            return false;
        }
        let shown = if signed { v.to_string() } else { n.to_string() };
        self.err(at, format!("array is too large ({shown} elements)"));
        true
    }
}

/// Why a bound like `&x + 3 - &x` is not constant (clang's note): pointer arithmetic that steps
/// more than one element past a non-array object. Returns the span and the element index.
fn past_object_offset(e: &crate::hir::Expr) -> Option<(Span, u64)> {
    use crate::hir::{BinOp, ExprKind};
    // Depth first, left to right, with a stack of its own (a chain can be long).
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match &e.kind {
            ExprKind::Binary(op, a, b) => {
                if *op == BinOp::PtrAdd
                    && let (ExprKind::AddrOf(_), ExprKind::IntLit(n)) =
                        (&a.kind, &strip_casts(b).kind)
                    && *n > 1
                {
                    return Some((e.span, *n));
                }
                todo.push(b);
                todo.push(a);
            }
            ExprKind::Cast(_, x) | ExprKind::Unary(_, x) => todo.push(x),
            _ => {}
        }
    }
    None
}

/// The attributes written after a declarator.
fn declarator_attrs(d: &ast::Declarator) -> impl Iterator<Item = &ast::Attribute> {
    d.attrs.iter().filter_map(|a| match &a.kind {
        DeclSpecKind::Attr(x) => Some(x),
        _ => None,
    })
}

fn strip_casts(e: &crate::hir::Expr) -> &crate::hir::Expr {
    let mut x = e;
    while let crate::hir::ExprKind::Cast(_, i) = &x.kind {
        x = i;
    }
    x
}

/// clang's spellings of the width slot, indexed by width (0 unused).
const WIDTH_NAMES: [&str; 4] = ["", "short", "long", "long long"];

/// How clang names a type specifier in "cannot combine with previous '...'" and friends.
fn spec_name(t: &TypeSpec) -> &'static str {
    match t {
        TypeSpec::Void => "void",
        TypeSpec::Char => "char",
        TypeSpec::Short => "short",
        TypeSpec::Int => "int",
        TypeSpec::Long => "long",
        TypeSpec::Float => "float",
        TypeSpec::Double => "double",
        TypeSpec::Half => "half",
        TypeSpec::Signed => "signed",
        TypeSpec::Unsigned => "unsigned",
        TypeSpec::Bool => "bool",
        TypeSpec::Complex => "_Complex",
        // Image types are keywords in clang; every other OpenCL type is a typedef to it.
        TypeSpec::Builtin(s) if s.as_str().starts_with("image") => s.as_str(),
        TypeSpec::Builtin(_) | TypeSpec::TypedefName(_) => "type-name",
        TypeSpec::Unknown(s) => s.as_str(),
        TypeSpec::Record(r) => match r.kind {
            ast::RecordKind::Struct => "struct",
            ast::RecordKind::Union => "union",
        },
        TypeSpec::Enum(_) => "enum",
        TypeSpec::AtomicType(_) => "_Atomic",
        TypeSpec::Typeof(_) => "typeof",
    }
}
