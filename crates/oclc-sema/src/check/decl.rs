//! Declarations: specifiers and declarators to types (with the address-space qualifiers and
//! their defaults), variables with the OpenCL storage rules, typedefs, functions and kernels
//! (kernel-parameter rules), structs, unions and enums.

use oclc_syntax::ast::{self, AsKind, ChunkKind, DeclSpecKind, StorageClass, TypeSpec};
use oclc_syntax::{ClStd, Diagnostic, Span, Symbol};

use super::scope::{Binding, Entry, Tag};
use super::{Checker, FnCtx};
use crate::hir::{self, FuncId, Storage, VarId};
use crate::space::{self, AddrSpace, DeclContext, DuplicateSpace, GlobalStorage};
use crate::types::{
    Access, ArrayLen, EnumDef, Field, FnSig, ImageDim, LangAs, Layout, Opaque, QualType, Quals,
    RecordDef, RecordId, Scalar, TypeKind, TypeTable,
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
    pub invalid: bool,
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
    fn t(&self, id: crate::types::TypeId) -> QualType {
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
            _ => return None,
        };
        let id = self.prog.types.intern(TypeKind::Opaque(o));
        Some(self.t(id))
    }

    /// Resolves declaration specifiers to a base type, storage class and flags.
    pub(crate) fn specs(&mut self, specs: &ast::DeclSpecs, place: DeclPlace) -> Specs {
        let mut storage: Option<(StorageClass, Span)> = None;
        let mut is_kernel = false;
        let mut invalid = false;
        let mut cvr = 0u8;
        let mut access = None;
        let (mut n_long, mut signed, mut unsigned) = (0u32, false, false);
        let mut base: Option<(&TypeSpec, Span)> = None;
        let mut first_spec: Option<Span> = None;
        let mut is_atomic_qual = false;
        for item in &specs.items {
            match &item.kind {
                DeclSpecKind::Storage(sc) => {
                    // `auto`/`register` are rejected by the parser (clang's
                    // SetStorageClassSpec); they do not reach here.
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
                    match ts {
                        TypeSpec::Long => n_long += 1,
                        TypeSpec::Signed => signed = true,
                        TypeSpec::Unsigned => unsigned = true,
                        TypeSpec::Int
                            if base.is_some_and(|(b, _)| {
                                matches!(b, TypeSpec::Short | TypeSpec::Char)
                            }) => {}
                        TypeSpec::Short | TypeSpec::Char
                            if base.is_some_and(|(b, _)| matches!(b, TypeSpec::Int)) =>
                        {
                            base = Some((ts, item.span))
                        }
                        _ => {
                            if base.is_some() {
                                self.err(
                                    item.span,
                                    "cannot combine with previous declaration specifier",
                                );
                                invalid = true;
                            } else {
                                base = Some((ts, item.span));
                            }
                        }
                    }
                }
                DeclSpecKind::Qual(q) => match q {
                    ast::TypeQual::Const => cvr |= Quals::CONST,
                    ast::TypeQual::Volatile => cvr |= Quals::VOLATILE,
                    ast::TypeQual::Restrict => cvr |= Quals::RESTRICT,
                    ast::TypeQual::Atomic => is_atomic_qual = true,
                },
                DeclSpecKind::Access(a) => {
                    access = Some(match a {
                        ast::AccessQual::ReadOnly => Access::ReadOnly,
                        ast::AccessQual::WriteOnly => Access::WriteOnly,
                        ast::AccessQual::ReadWrite => Access::ReadWrite,
                    })
                }
                DeclSpecKind::Func(ast::FuncSpec::Kernel) => is_kernel = true,
                DeclSpecKind::Func(_) | DeclSpecKind::Attr(_) | DeclSpecKind::Alignas(_) => {}
                DeclSpecKind::Pipe | DeclSpecKind::AddrSpace(_) => {}
            }
        }

        let mut ty = match base {
            None if n_long > 0 || signed || unsigned => {
                let s = match (n_long, unsigned) {
                    (0, false) => Scalar::Int,
                    (0, true) => Scalar::UInt,
                    (1, false) => Scalar::Long,
                    (1, true) => Scalar::ULong,
                    (_, false) => Scalar::LongLong,
                    (_, true) => Scalar::ULongLong,
                };
                let id = self.prog.types.scalar(s);
                self.t(id)
            }
            // Implicit int: the parser reports it (as clang's parser does).
            None => self.t(TypeTable::INT),
            Some((ts, tspan)) => {
                match self.type_spec(ts, tspan, n_long, signed, unsigned, access, place) {
                    Some(t) => t,
                    None => {
                        invalid = true;
                        self.t(TypeTable::ERROR)
                    }
                }
            }
        };
        if is_atomic_qual {
            let id = self.prog.types.intern(TypeKind::Atomic(ty.unqualified()));
            ty = QualType {
                id,
                quals: ty.quals,
            };
        }
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
            invalid,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn type_spec(
        &mut self,
        ts: &TypeSpec,
        span: Span,
        n_long: u32,
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
            TypeSpec::Short => {
                if unsigned {
                    Scalar::UShort
                } else {
                    Scalar::Short
                }
            }
            TypeSpec::Int => match (n_long, unsigned) {
                (0, false) => Scalar::Int,
                (0, true) => Scalar::UInt,
                (1, false) => Scalar::Long,
                (1, true) => Scalar::ULong,
                (_, false) => Scalar::LongLong,
                (_, true) => Scalar::ULongLong,
            },
            TypeSpec::Long => Scalar::Long,
            TypeSpec::Signed => Scalar::Int,
            TypeSpec::Unsigned => Scalar::UInt,
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
                        let he = self.expr(e);
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
        for (ci, chunk) in d.chunks.iter().enumerate().rev() {
            match &chunk.kind {
                ChunkKind::Paren => {}
                ChunkKind::Pointer { quals } => {
                    if self.prog.types.fn_sig(ty).is_some()
                        && !self.ext("__cl_clang_function_pointers")
                    {
                        self.err(name_span, "pointers to functions are not allowed");
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
                        self.err(name_span, "array of 'sampler_t' type is invalid in OpenCL");
                        invalid = true;
                    }
                    let len = match &a.size {
                        None => ArrayLen::Incomplete,
                        Some(e) => {
                            let he = self.expr(e);
                            if he.is_error() {
                                invalid = true;
                                ArrayLen::Fixed(1)
                            } else if !self.prog.types.is_integer(he.ty) {
                                let t = self.prog.types.quoted(he.ty);
                                self.err(e.span, format!("size of array has non-integer type {t}"));
                                invalid = true;
                                ArrayLen::Fixed(1)
                            } else {
                                match self.const_int(&he) {
                                    Some(v) if v < 0 => {
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
                                        invalid = true;
                                        ArrayLen::Variable
                                    }
                                }
                            }
                        }
                    };
                    let aid = self.prog.types.array(ty, len);
                    ty = self.t(aid);
                }
                ChunkKind::Function(f) => {
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
                        self.err(
                            name_span,
                            format!("declaring function return value of type {t} is not allowed ; did you forget * ?"),
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
            let d = self.declarator(specs.ty, &p.declarator, false);
            let mut invalid = d.invalid || specs.invalid;
            let span = d.name.map_or(p.span, |_| d.name_span);
            let written = d.ty;
            let mut ty = d.ty;
            if let Some((sc, ss)) = specs.storage
                && sc != StorageClass::Register
            {
                self.err(ss, "invalid storage class specifier in function declarator");
                invalid = true;
            }
            // Array parameters become pointers to their (private by default) elements.
            if let Some((elem, _)) = self.prog.types.array_elem(ty) {
                let elem = if self.prog.types.object_space(elem).is_none() {
                    self.prog
                        .types
                        .set_object_space(elem, Some(LangAs::PRIVATE))
                } else {
                    elem
                };
                let pid = self.prog.types.pointer(elem);
                ty = QualType {
                    id: pid,
                    quals: Quals {
                        space: None,
                        ..ty.quals
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
                self.err(span, format!("declaring function parameter of type {t} is not allowed; did you forget * ?"));
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

    // ---- records and enums ----

    fn record_spec(&mut self, r: &ast::RecordSpec, place: DeclPlace) -> QualType {
        let is_union = r.kind == ast::RecordKind::Union;
        let name = r.name.map(|i| i.name);
        let decl_span = r.name.map_or(r.kw_span, |i| i.span);
        let packed = r
            .attrs
            .iter()
            .any(|a| a.name.name.as_str().trim_matches('_') == "packed");
        let existing = name.and_then(|n| {
            if r.body.is_some() {
                self.scopes.lookup_tag_current(n)
            } else {
                self.scopes.lookup_tag(n)
            }
        });
        let rid = match existing {
            Some(Tag::Record(rid, u)) => {
                if u != is_union {
                    let kw = if is_union { "union" } else { "struct" };
                    self.err(
                        decl_span,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            name.map(|n| n.to_string()).unwrap_or_default()
                        ),
                    );
                    let _ = kw;
                }
                if r.body.is_some() && self.prog.types.record(rid).is_some_and(|d| d.complete) {
                    let n = name.map(|n| n.to_string()).unwrap_or_default();
                    self.err(decl_span, format!("redefinition of '{n}'"));
                    let prev = self.prog.types.record(rid).map_or(Span::DUMMY, |d| d.span);
                    self.note_last(prev, "previous definition is here");
                    // Check the body into a fresh record so the old one stays intact.
                    self.new_record(name, is_union, decl_span, packed)
                } else {
                    rid
                }
            }
            _ => {
                let rid = self.new_record(name, is_union, decl_span, packed);
                if let Some(n) = name {
                    self.scopes.insert_tag(n, Tag::Record(rid, is_union));
                }
                rid
            }
        };
        if let Some(body) = &r.body {
            if let Some(d) = self.prog.types.records.get_mut(rid.0 as usize) {
                d.span = decl_span;
                d.packed = packed;
            }
            self.record_body(rid, body, place);
        }
        let id = self.prog.types.intern(TypeKind::Record(rid));
        self.t(id)
    }

    fn new_record(
        &mut self,
        name: Option<Symbol>,
        is_union: bool,
        span: Span,
        packed: bool,
    ) -> RecordId {
        self.prog.types.add_record(RecordDef {
            name,
            is_union,
            fields: Vec::new(),
            complete: false,
            layout: Layout::default(),
            span,
            packed,
        })
    }

    fn record_body(&mut self, rid: RecordId, body: &ast::RecordBody, place: DeclPlace) {
        let mut fields: Vec<Field> = Vec::new();
        for m in &body.members {
            match m {
                ast::MemberDecl::Pragma(p) => self.pragma(p),
                ast::MemberDecl::StaticAssert(sa) => self.static_assert(sa),
                ast::MemberDecl::Fields(g) => {
                    let specs = self.specs(&g.specs, place);
                    if g.fields.is_empty() {
                        // Anonymous struct/union member: its fields are reachable directly.
                        if self.prog.types.as_record(specs.ty).is_some() {
                            fields.push(Field {
                                name: None,
                                ty: specs.ty,
                                span: g.span,
                                bit_width: None,
                            });
                        }
                        continue;
                    }
                    for f in &g.fields {
                        let d = self.declarator(specs.ty, &f.declarator, false);
                        let span = d.name.map_or(f.span, |_| d.name_span);
                        let mut ty = d.ty;
                        let own = self.prog.types.object_space(ty);
                        if own.is_some() {
                            self.err(span, "field may not be qualified with an address space");
                            ty = self.prog.types.set_object_space(ty, None);
                        }
                        if self.is_opencl_object_type(ty) {
                            let t = self.prog.types.quoted(ty);
                            self.err(span, format!("the {t} type cannot be used to declare a structure or union field"));
                        }
                        if self.prog.types.fn_sig(ty).is_some() {
                            let n = d.name.map(|n| n.to_string()).unwrap_or_default();
                            self.err(span, format!("field '{n}' declared as a function"));
                            continue;
                        }
                        let mut bit_width = None;
                        if let Some(w) = &f.bit_width {
                            if !self.ext("__cl_clang_bitfields") {
                                self.err(w.span, "bit-fields are not supported in OpenCL");
                            }
                            let he = self.expr(w);
                            bit_width = self.const_int(&he).map(|v| v.clamp(0, 64) as u32);
                        }
                        if !self.prog.types.is_complete(ty)
                            && !matches!(
                                self.prog.types.array_elem(ty),
                                Some((_, ArrayLen::Incomplete))
                            )
                            && !self.prog.types.is_error(ty)
                        {
                            let t = self.prog.types.quoted(ty);
                            self.err(span, format!("field has incomplete type {t}"));
                            ty = self.t(TypeTable::ERROR);
                        }
                        fields.push(Field {
                            name: d.name,
                            ty,
                            span,
                            bit_width,
                        });
                    }
                }
            }
        }
        if let Some(d) = self.prog.types.records.get_mut(rid.0 as usize) {
            d.fields = fields;
        }
        self.prog.types.layout_record(rid);
    }

    /// Image, sampler, event and other OpenCL object types that cannot be struct fields.
    fn is_opencl_object_type(&self, ty: QualType) -> bool {
        matches!(
            self.prog.types.ckind(ty),
            TypeKind::Image(..) | TypeKind::Opaque(_) | TypeKind::Pipe(..)
        )
    }

    fn enum_spec(&mut self, e: &ast::EnumSpec) -> QualType {
        let name = e.name.map(|i| i.name);
        let span = e.name.map_or(e.kw_span, |i| i.span);
        if e.body.is_none()
            && let Some(n) = name
            && let Some(Tag::Enum(eid)) = self.scopes.lookup_tag(n)
        {
            let id = self.prog.types.intern(TypeKind::Enum(eid));
            return self.t(id);
        }
        let eid = self.prog.types.add_enum(EnumDef {
            name,
            complete: e.body.is_some(),
            span,
            values: Vec::new(),
        });
        if let Some(n) = name {
            self.scopes.insert_tag(n, Tag::Enum(eid));
        }
        let ety = QualType::new(self.prog.types.intern(TypeKind::Enum(eid)));
        if let Some((_, list)) = &e.body {
            let mut next: i64 = 0;
            let mut values = Vec::new();
            for en in list {
                let v = match &en.value {
                    Some(x) => {
                        let he = self.expr(x);
                        if he.is_error() {
                            next
                        } else {
                            match self.const_int(&he) {
                                Some(v) => v,
                                None => {
                                    self.err(
                                        x.span,
                                        "expression is not an integer constant expression",
                                    );
                                    next
                                }
                            }
                        }
                    }
                    None => next,
                };
                next = v.wrapping_add(1);
                values.push((en.name.name, v));
                self.declare_name(
                    en.name.name,
                    Binding::EnumConst(v, self.t(TypeTable::INT)),
                    en.name.span,
                    false,
                );
            }
            if let Some(d) = self.prog.types.enums.get_mut(eid.0 as usize) {
                d.values = values;
            }
        }
        ety
    }

    /// Adds a name to the current scope, reporting a redefinition of a valid declaration.
    fn declare_name(&mut self, name: Symbol, binding: Binding, span: Span, invalid: bool) {
        if let Some(prev) = self.scopes.lookup_current(name).copied()
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
                        self.prog.types.quoted(b),
                        self.prog.types.quoted(a)
                    ),
                    (Binding::Var(_), Binding::Var(_))
                    | (Binding::EnumConst(..), Binding::EnumConst(..)) => {
                        format!("redefinition of '{name}'")
                    }
                    _ => format!("redefinition of '{name}' as different kind of symbol"),
                };
                self.err(span, msg);
                self.note_last(prev.span, "previous definition is here");
            }
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

    /// Checks a declaration (at file scope or in a block) and returns the variables it
    /// declares, in order (for the block's statement list).
    pub(crate) fn declaration(&mut self, d: &ast::Declaration, place: DeclPlace) -> Vec<VarId> {
        let specs = self.specs(&d.specs, place);
        let mut out = Vec::new();
        if d.declarators.is_empty() {
            return out;
        }
        for idecl in &d.declarators {
            let decl = self.declarator(
                specs.ty,
                &idecl.declarator,
                specs.storage.is_some_and(|s| s.0 == StorageClass::Typedef),
            );
            let Some(name) = decl.name else { continue };
            if specs.storage.is_some_and(|s| s.0 == StorageClass::Typedef) {
                let ty = self.ext_vector_attr(&d.specs, &idecl.declarator, decl.ty);
                let id = self.prog.types.add_typedef(crate::types::TypedefDef {
                    name,
                    ty,
                    span: decl.name_span,
                });
                let invalid = decl.invalid || specs.invalid;
                self.declare_name(name, Binding::Typedef(self.t(id)), decl.name_span, invalid);
                continue;
            }
            if self.prog.types.fn_sig(decl.ty).is_some() {
                self.function_decl(&specs, &decl, None, idecl.span);
                continue;
            }
            if let Some(v) = self.var_decl(&specs, &decl, idecl.init.as_ref(), place) {
                out.push(v);
            }
        }
        out
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
        if is_void && !invalid {
            self.err(span, "variable has incomplete type 'void'");
            invalid = true;
        }
        // Images and pipes can only be parameters.
        if is_img && !invalid {
            let t = self.prog.types.quoted(ty);
            self.err(
                span,
                format!("type {t} can only be used as a function parameter in OpenCL"),
            );
            invalid = true;
        }
        // Rule 36/39: deduce the space of an unqualified variable (not samplers, as clang).
        let written_space = self.prog.types.object_space(ty);
        if written_space.is_none() && !is_sampler && !self.prog.types.is_error(ty) {
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
        // Rule 31: static locals before OpenCL C 2.0.
        let mut storage_checked = false;
        if !at_file && is_static && !space::static_local_allowed(&self.lang) && !invalid {
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
                    local_vars_ext: self.ext("__cl_clang_function_scope_local_variables"),
                };
                if let Some(msg) = space::automatic_space_error(space_now, scope) {
                    self.err(span, msg);
                    invalid = true;
                }
            }
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
                let hinit = self.initializer(ty, i, static_init, span);
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
        _span: Span,
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
        // Redeclaration.
        let prev = self.scopes.lookup_current(name).copied();
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
                            self.err(span, format!("conflicting types for '{name}'"));
                            self.note_last(prev.span, "previous declaration is here");
                        }
                    }
                    if def_span.is_some()
                        && let Some(&ps) = self.defined.get(&name)
                    {
                        self.err(span, format!("redefinition of '{name}'"));
                        self.note_last(ps, "previous definition is here");
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
                name: p.name.unwrap_or(Symbol::intern("")),
                ty: p.ty,
                space: AddrSpace::Private,
                storage: Storage::Param,
                init: None,
                span: p.span,
                is_extern: false,
            });
            pids.push(vid);
        }
        let fid = FuncId(self.prog.functions.len() as u32);
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
        });
        if def_span.is_some() && !invalid {
            self.defined.insert(name, span);
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
        let specs = self.specs(&f.specs, DeclPlace::File);
        let d = self.declarator(specs.ty, &f.declarator, false);
        if self.prog.types.fn_sig(d.ty).is_none() {
            self.err(d.name_span, "expected ';' after top level declarator");
            return;
        }
        let Some(fid) = self.function_decl(&specs, &d, Some(f.span), f.span) else {
            return;
        };
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
        let name = d.name.unwrap_or(Symbol::intern(""));
        self.func = Some(FnCtx {
            name,
            is_kernel,
            ret,
            block_depth: 0,
        });
        let body = self.block(&f.body, false);
        self.func = None;
        self.scopes.pop();
        self.attributes_for(fid, &f.specs);
        if let Some(func) = self.prog.functions.get_mut(fid.0 as usize) {
            func.params = pids;
            func.body = Some(body);
        }
    }

    /// Records the kernel attributes lowering and the runtime need.
    fn attributes_for(&mut self, fid: FuncId, specs: &ast::DeclSpecs) {
        let mut reqd = None;
        let mut hint = None;
        for a in specs.attributes() {
            let n = a.name.name.as_str().trim_matches('_');
            if n != "reqd_work_group_size" && n != "work_group_size_hint" {
                continue;
            }
            let mut v = [1u64; 3];
            for (i, arg) in a.args.iter().take(3).enumerate() {
                if let ast::AttrArg::Expr(e) = arg {
                    let he = self.expr(e);
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
        }
    }

    // ---- kernel parameters (rules 29, 30 and OpenCL C 1.2 s6.9.k/p) ----

    /// Checks one kernel parameter; false if it was diagnosed.
    fn kernel_param(&mut self, p: &ParamInfo) -> bool {
        let pt = p.ty;
        match self.kernel_param_kind(pt) {
            KParam::Valid | KParam::Ptr => true,
            KParam::PtrPtr => {
                self.err(
                    p.span,
                    "kernel parameter cannot be declared as a pointer to a pointer",
                );
                false
            }
            KParam::BadSpacePtr => {
                self.err(
                    p.span,
                    "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space",
                );
                false
            }
            KParam::Invalid => {
                if self.prog.types.as_scalar(pt) == Some(Scalar::Half) {
                    return false;
                }
                let t = self.prog.types.quoted(pt);
                self.err(
                    p.span,
                    format!("{t} cannot be used as the type of a kernel parameter"),
                );
                // Explain the typedefs involved, as clang does.
                let mut q = pt;
                for _ in 0..32 {
                    let TypeKind::Typedef(td) = self.prog.types.kind(q.id) else {
                        break;
                    };
                    let Some(def) = self.prog.types.typedef(*td).cloned() else {
                        break;
                    };
                    if !def.span.is_dummy() {
                        let t = self.prog.types.quoted(q);
                        self.note_last(def.span, format!("{t} declared here"));
                    }
                    q = QualType {
                        id: def.ty.id,
                        quals: def.ty.quals.merge(q.quals),
                    };
                }
                false
            }
            KParam::Record => self.kernel_record_param(p),
        }
    }

    fn kernel_param_kind(&self, pt: QualType) -> KParam {
        let types = &self.prog.types;
        if let Some(pointee) = types.pointee(pt) {
            let sp = types.object_space(pointee);
            if !space::kernel_pointee_space_ok(sp) {
                return KParam::BadSpacePtr;
            }
            if types.is_pointer(pointee) {
                let inner = self.kernel_param_kind(pointee);
                if matches!(inner, KParam::BadSpacePtr | KParam::Invalid) {
                    return inner;
                }
                if space::kernel_pointer_to_pointer_allowed(&self.lang) {
                    return KParam::Valid;
                }
                return KParam::PtrPtr;
            }
            return KParam::Ptr;
        }
        if self.is_size_dependent_type(pt) {
            return KParam::Invalid;
        }
        if types.is_image(pt) {
            return KParam::Ptr;
        }
        match types.ckind(pt) {
            TypeKind::Scalar(Scalar::Bool) => return KParam::Invalid,
            TypeKind::Opaque(Opaque::Event | Opaque::ReserveId) => return KParam::Invalid,
            TypeKind::Scalar(Scalar::Half) if !self.lang.has("cl_khr_fp16") => {
                return KParam::Invalid;
            }
            TypeKind::Array(e, _) => return self.kernel_param_kind(*e),
            TypeKind::Record(_) => return KParam::Record,
            _ => {}
        }
        KParam::Valid
    }

    /// clang's `isOpenCLSizeDependentType`: a typedef chain through `size_t`, `intptr_t`,
    /// `uintptr_t` or `ptrdiff_t`.
    fn is_size_dependent_type(&self, ty: QualType) -> bool {
        let mut q = ty;
        for _ in 0..64 {
            match self.prog.types.kind(q.id) {
                TypeKind::Typedef(td) => {
                    let Some(def) = self.prog.types.typedef(*td) else {
                        return false;
                    };
                    if matches!(
                        def.name.as_str(),
                        "size_t" | "intptr_t" | "uintptr_t" | "ptrdiff_t"
                    ) {
                        return true;
                    }
                    q = def.ty;
                }
                _ => return false,
            }
        }
        false
    }

    /// A struct/union kernel parameter: no bool/size types and (before 2.0) no pointers
    /// anywhere inside, with clang's notes leading to the offending field.
    fn kernel_record_param(&mut self, p: &ParamInfo) -> bool {
        let pt = p.ty;
        let Some(rid) = self.record_of(pt) else {
            return true;
        };
        let mut path: Vec<(Span, QualType)> = Vec::new();
        let mut visited = Vec::new();
        match self.find_bad_field(rid, &mut path, &mut visited, 0) {
            None => true,
            Some((kind, field_span, field_ty)) => {
                let types = &self.prog.types;
                let is_union = types.record(rid).is_some_and(|d| d.is_union);
                let msg = if kind == KParam::Invalid {
                    format!(
                        "{} cannot be used as the type of a kernel parameter",
                        types.quoted(pt)
                    )
                } else {
                    format!(
                        "{} kernel parameters may not contain pointers",
                        if is_union { "union" } else { "struct" }
                    )
                };
                let rec = types.record(rid);
                let rname = rec
                    .and_then(|d| d.name)
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                let rspan = rec.map_or(Span::DUMMY, |d| d.span);
                let mut diag = Diagnostic::error(p.span, msg);
                diag = diag.with_note(
                    rspan,
                    format!("within field of type '{rname}' declared here"),
                );
                for (s, t) in &path {
                    diag = diag.with_note(
                        *s,
                        format!("within field of type {} declared here", types.quoted(*t)),
                    );
                }
                let is_ptr = types.is_pointer(field_ty);
                diag = diag.with_note(
                    field_span,
                    format!(
                        "field of illegal {}type {} declared here",
                        if is_ptr { "pointer " } else { "" },
                        types.quoted(field_ty)
                    ),
                );
                self.emit(diag);
                false
            }
        }
    }

    fn record_of(&self, ty: QualType) -> Option<RecordId> {
        let mut q = ty;
        while let Some((e, _)) = self.prog.types.array_elem(q) {
            q = e;
        }
        self.prog.types.as_record(q)
    }

    fn find_bad_field(
        &self,
        rid: RecordId,
        path: &mut Vec<(Span, QualType)>,
        visited: &mut Vec<RecordId>,
        depth: u32,
    ) -> Option<(KParam, Span, QualType)> {
        if depth > 64 || visited.contains(&rid) {
            return None;
        }
        visited.push(rid);
        let fields = self.prog.types.record(rid)?.fields.clone();
        for f in fields {
            let kind = self.kernel_param_kind(f.ty);
            match kind {
                KParam::Valid => {}
                KParam::Record => {
                    if let Some(inner) = self.record_of(f.ty) {
                        path.push((f.span, f.ty));
                        if let Some(r) = self.find_bad_field(inner, path, visited, depth + 1) {
                            return Some(r);
                        }
                        path.pop();
                    }
                }
                KParam::Ptr | KParam::PtrPtr | KParam::BadSpacePtr => {
                    let pointee_ok = self.prog.types.pointee(f.ty).is_some_and(|pe| {
                        space::kernel_struct_pointer_field_ok(
                            self.prog.types.object_space(pe),
                            &self.lang,
                        )
                    });
                    if kind == KParam::Ptr && pointee_ok {
                        continue;
                    }
                    return Some((KParam::Ptr, f.span, f.ty));
                }
                KParam::Invalid => return Some((KParam::Invalid, f.span, f.ty)),
            }
        }
        None
    }
}

/// clang's classification of a kernel parameter type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KParam {
    Valid,
    Ptr,
    PtrPtr,
    BadSpacePtr,
    Invalid,
    Record,
}
