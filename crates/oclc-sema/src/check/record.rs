//! Structs, unions and enums: tags and their scopes, fields (no address spaces, no OpenCL
//! object types, bit-fields only with `__cl_clang_bitfields`), layout, enumerators.

use oclc_syntax::ast;
use oclc_syntax::{Span, Symbol};

use super::Checker;
use super::decl::DeclPlace;
use super::scope::{Binding, Tag};
use crate::types::{
    ArrayLen, EnumDef, Field, Layout, QualType, RecordDef, RecordId, TypeKind, TypeTable,
};

impl Checker<'_> {
    pub(crate) fn record_spec(&mut self, r: &ast::RecordSpec, place: DeclPlace) -> QualType {
        self.warn_unknown_attrs(&r.attrs);
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
        let rid = self.prog.types.add_record(RecordDef {
            name,
            is_union,
            fields: Vec::new(),
            complete: false,
            layout: Layout::default(),
            span,
            packed,
        });
        if name.is_none() {
            self.note_unnamed_at(false, rid.0, span);
        }
        rid
    }

    /// Records where an unnamed tag type is declared, for clang's
    /// `struct (unnamed struct at FILE:LINE:COL)`.
    fn note_unnamed_at(&mut self, is_enum: bool, index: u32, span: Span) {
        if let Some((file, line, col)) = self.sm.location(self.sm.report_span(span)) {
            self.prog
                .types
                .set_unnamed_at(is_enum, index, format!("{file}:{line}:{col}"));
        }
    }

    fn record_body(&mut self, rid: RecordId, body: &ast::RecordBody, place: DeclPlace) {
        let mut fields: Vec<Field> = Vec::new();
        for m in &body.members {
            match m {
                ast::MemberDecl::Pragma(p) => {
                    let is_union = self.prog.types.record(rid).is_some_and(|r| r.is_union);
                    self.member_pragma(p, is_union)
                }
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
                        self.warn_unknown_decl_attrs(&g.specs, &f.declarator);
                        self.kernel_not_on_function(&specs);
                        self.overloadable_not_on_function(&g.specs, &f.declarator);
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
                        if let Some(n) = d.name
                            && let Some(prev) = fields.iter().find(|f| f.name == Some(n))
                        {
                            let ps = prev.span;
                            self.err(span, format!("duplicate member '{n}'"));
                            self.note_last(ps, "previous declaration is here");
                            continue;
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
        // Fields each small enough can still add up to more than an object may have (the
        // layout saturates rather than wraps): clang's "structure is too large".
        let max_bits = self.prog.types.max_size_bits();
        if let Some(d) = self.prog.types.record(rid)
            && 64 - d.layout.size.leading_zeros() > max_bits
        {
            let (span, name) = (d.span, d.name.map_or(String::new(), |n| n.to_string()));
            let max = (1u64 << max_bits) - 1;
            self.err(
                span,
                format!(
                    "structure '{name}' is too large, which exceeds maximum allowed size of \
                     {max} bytes"
                ),
            );
        }
    }

    /// Image, sampler, event and other OpenCL object types that cannot be struct fields.
    fn is_opencl_object_type(&self, ty: QualType) -> bool {
        matches!(
            self.prog.types.ckind(ty),
            TypeKind::Image(..) | TypeKind::Opaque(_) | TypeKind::Pipe(..)
        )
    }

    pub(crate) fn enum_spec(&mut self, e: &ast::EnumSpec) -> QualType {
        self.warn_unknown_attrs(&e.attrs);
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
        if name.is_none() {
            self.note_unnamed_at(true, eid.0, span);
        }
        if let Some(n) = name {
            self.scopes.insert_tag(n, Tag::Enum(eid));
        }
        let ety = QualType::new(self.prog.types.intern(TypeKind::Enum(eid)));
        if let Some((_, list)) = &e.body {
            let mut next: i64 = 0;
            let mut values = Vec::new();
            for en in list {
                self.warn_unknown_attrs(&en.attrs);
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
}
