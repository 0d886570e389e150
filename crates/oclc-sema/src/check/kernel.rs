//! Kernel parameters (rules 29, 30 and OpenCL C 1.2 s6.9.k/p): pointers must point into
//! `__global`/`__constant`/`__local`, no pointers to pointers before 2.0, no `bool`/`half`/size
//! types, and struct/union parameters checked field by field with clang's notes.

use oclc_syntax::{Diagnostic, Span};

use super::Checker;
use super::decl::ParamInfo;
use crate::space::{self, AddrSpace};
use crate::types::{LangAs, Opaque, QualType, RecordId, Scalar, TypeKind};

impl Checker<'_> {
    /// Checks one kernel parameter; false if it was diagnosed.
    pub(crate) fn kernel_param(&mut self, p: &ParamInfo) -> bool {
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
                // Beyond clang: say where the offending space came from and what to write.
                let sp = self
                    .prog
                    .types
                    .pointee(pt)
                    .and_then(|pe| self.prog.types.object_space(pe));
                if sp.and_then(LangAs::named) == Some(space::default_pointee_space(&self.lang)) {
                    let d = space::default_pointee_space(&self.lang);
                    let text = format!(
                        "{}{}; write '__global', '__constant' or '__local' before the pointee type",
                        space::BEYOND_CLANG_NOTE_PREFIX,
                        match d {
                            AddrSpace::Generic =>
                                "an unqualified pointee is in the generic address space here",
                            _ => "an unqualified pointee is in the private address space here",
                        }
                    );
                    self.note_last(p.span, text);
                }
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
                    // clang's `Typedef->desugar()`: the underlying type, without the
                    // parameter's own qualifiers (its `__private`).
                    q = def.ty;
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
