//! Image and pipe access qualifiers (`read_only`, `write_only`, `read_write` and their `__`
//! spellings) as clang checks them, in its two steps: as a type attribute (only on an image
//! or pipe type; against a typedef's own access), then as a declaration attribute (only on
//! parameters and typedefs; one per declaration; `read_write` only on an image parameter,
//! from OpenCL C 2.0 or with `__opencl_c_read_write_images`).

use oclc_syntax::ClStd;
use oclc_syntax::Span;

use super::Checker;
use crate::types::{Access, QualType, TypeKind};

/// What an access qualifier's declaration is, for clang's declaration-attribute step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AccessDecl {
    Param,
    Typedef,
    /// A variable, function or field: no access qualifier applies.
    Other,
}

/// The access qualifier as clang compares it (`__read_only` and `read_only` are one).
fn bare(a: Access) -> &'static str {
    a.spelling().trim_start_matches('_')
}

impl Checker<'_> {
    /// The qualifier as written at `span` (`'__read_write'` or `'read_write'`).
    fn access_spelling(&self, span: Span, a: Access) -> String {
        self.sm
            .file(span.file)
            .and_then(|f| f.text.get(span.lo as usize..span.hi as usize))
            .and_then(|b| std::str::from_utf8(b).ok())
            .filter(|s| s.trim_start_matches('_') == bare(a))
            .map_or_else(|| bare(a).to_string(), str::to_string)
    }

    /// clang's `HandleOpenCLAccessAttr`: each access qualifier of declaration specifiers
    /// whose type is `ty`; returns the ones left for the declaration step.
    pub(crate) fn access_type_attrs(
        &mut self,
        ty: QualType,
        written: &[(Access, Span)],
    ) -> Vec<(Access, Span)> {
        let mut valid = Vec::with_capacity(written.len());
        // Nearly every declaration has none: no type to look at then.
        if written.is_empty() || self.prog.types.is_error(ty) {
            return valid;
        }
        let canon = self.prog.types.canonical(ty);
        let own = match self.prog.types.kind(canon.id) {
            TypeKind::Image(_, a) | TypeKind::Pipe(_, a) => *a,
            _ => {
                for &(_, span) in written {
                    self.err(
                        span,
                        "access qualifier can only be used for pipe and image type",
                    );
                }
                return valid;
            }
        };
        let typedef = match self.prog.types.kind(ty.id) {
            TypeKind::Typedef(td) => self.prog.types.typedef(*td).map(|d| d.start),
            _ => None,
        };
        for &(a, span) in written {
            if let Some(at) = typedef {
                let name = self.access_spelling(span, a);
                if a == own {
                    self.warn(
                        span,
                        format!("duplicate '{name}' declaration specifier"),
                        "duplicate-decl-specifier",
                    );
                } else {
                    self.err(span, "multiple access qualifiers");
                }
                self.note_last(at, format!("previously declared '{}' here", bare(own)));
            }
            valid.push((a, span));
        }
        valid
    }

    /// clang's `handleOpenCLAccessAttr`: the access qualifiers left by
    /// [`Checker::access_type_attrs`] on a declaration of kind `what` and type `ty`. False
    /// when they make the declaration invalid.
    pub(crate) fn access_decl_attrs(
        &mut self,
        access: &[(Access, Span)],
        what: AccessDecl,
        ty: QualType,
    ) -> bool {
        let mut seen: Option<Access> = None;
        for &(a, span) in access {
            let name = self.access_spelling(span, a);
            if what == AccessDecl::Other {
                self.err(
                    span,
                    format!("'{name}' attribute only applies to parameters and typedefs"),
                );
                continue;
            }
            if let Some(prev) = seen {
                if prev == a {
                    self.warn(
                        span,
                        format!("duplicate '{name}' declaration specifier"),
                        "duplicate-decl-specifier",
                    );
                    continue;
                }
                self.err(span, "multiple access qualifiers");
                return false;
            }
            if what == AccessDecl::Param && a == Access::ReadWrite {
                let canon = self.prog.types.canonical(ty);
                let (image, pipe) = match self.prog.types.kind(canon.id) {
                    TypeKind::Image(..) => (true, None),
                    // The attribute has not changed the type yet: a pipe is still read-only.
                    TypeKind::Pipe(e, _) => (false, Some(*e)),
                    _ => (false, None),
                };
                let unsupported = match self.lang.std {
                    ClStd::Cl30 => !self.lang.has("__opencl_c_read_write_images"),
                    s => s.version() < 200,
                };
                if unsupported || pipe.is_some() {
                    let shown = match pipe {
                        Some(e) => {
                            let id = self.prog.types.intern(TypeKind::Pipe(e, Access::ReadOnly));
                            QualType::new(id)
                        }
                        None => ty,
                    };
                    let q = self.prog.types.quoted(shown);
                    let when = if image {
                        "prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature"
                    } else {
                        ""
                    };
                    self.err(
                        span,
                        format!("access qualifier '{name}' can not be used for {q} {when}"),
                    );
                    return false;
                }
            }
            seen = Some(a);
        }
        true
    }
}
