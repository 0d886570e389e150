//! Kernel signatures as a host needs them to set arguments: parameter names, C types, and
//! how each receives its value (a buffer, a `__local` size, or a scalar/vector value).

use oclc_ir::AddrSpace;
use oclc_sema::hir::Program;
use oclc_sema::types::{Access, Opaque, QualType, Scalar, TypeKind, TypeTable};

use crate::ty;

/// A scalar or vector element type as run files name it (`uchar`, `float4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElemDesc {
    pub scalar: Scalar,
    /// 1 for scalars.
    pub lanes: u8,
}

impl ElemDesc {
    /// The OpenCL spelling: `float`, `uint4`.
    pub fn name(&self) -> String {
        let base = ty::opencl_name(self.scalar);
        if self.lanes > 1 {
            format!("{base}{}", self.lanes)
        } else {
            base.to_string()
        }
    }

    /// `sizeof` in bytes (3-vectors take 4 lanes).
    pub fn size(&self) -> u64 {
        let l = if self.lanes == 3 { 4 } else { self.lanes };
        self.scalar.size() * u64::from(l.max(1))
    }
}

/// How a kernel parameter receives its value.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelParamKind {
    /// A pointer to `__global`, `__constant` or `__local` memory. `pointee` is the element
    /// type when it is a scalar or vector (`None` for `void`, structs, ...);
    /// `pointee_size` is `sizeof` the pointee (0 for `void`).
    Pointer {
        space: AddrSpace,
        pointee: Option<ElemDesc>,
        pointee_size: u64,
    },
    /// A scalar or vector passed by value.
    Value { elem: ElemDesc, size: u64 },
    /// A struct or union passed by value.
    Aggregate { size: u64, align: u64 },
    /// An image (`read_only image2d_t`, ...): `dim` is the type's name (`image2d_t`),
    /// `write` whether the kernel may write it (`write_only` or `read_write`), `read`
    /// whether it may read it.
    Image {
        dim: &'static str,
        read: bool,
        write: bool,
    },
    /// A `sampler_t`: the host passes a sampler object.
    Sampler,
    /// Pipes and other types run files cannot supply.
    Other,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KernelParam {
    /// Empty for an unnamed parameter.
    pub name: String,
    /// The C type as diagnostics print it (`__global float *`).
    pub c_type: String,
    pub kind: KernelParamKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KernelSignature {
    pub name: String,
    pub params: Vec<KernelParam>,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub reqd_work_group_size: Option<[u64; 3]>,
    /// The kernel's attributes as `CL_KERNEL_ATTRIBUTES` lists them, space-separated:
    /// `reqd_work_group_size(x,y,z)`, `work_group_size_hint(x,y,z)`, `vec_type_hint(T)`.
    pub attributes: String,
}

fn elem_desc(types: &TypeTable, qt: QualType) -> Option<ElemDesc> {
    match types.ckind(qt) {
        TypeKind::Scalar(s) => Some(ElemDesc {
            scalar: *s,
            lanes: 1,
        }),
        TypeKind::Enum(_) => Some(ElemDesc {
            scalar: Scalar::Int,
            lanes: 1,
        }),
        TypeKind::Vector(s, n) => Some(ElemDesc {
            scalar: *s,
            lanes: *n,
        }),
        TypeKind::Atomic(e) => elem_desc(types, *e),
        _ => None,
    }
}

/// `CL_KERNEL_ATTRIBUTES` of kernel `f`: its work-group size attributes and vector type hint.
fn attribute_string(types: &TypeTable, f: &oclc_sema::hir::Function) -> String {
    let mut out = Vec::new();
    if let Some([x, y, z]) = f.reqd_work_group_size {
        out.push(format!("reqd_work_group_size({x},{y},{z})"));
    }
    if let Some([x, y, z]) = f.work_group_size_hint {
        out.push(format!("work_group_size_hint({x},{y},{z})"));
    }
    if let Some(t) = f.vec_type_hint {
        out.push(format!("vec_type_hint({})", types.print(t)));
    }
    out.join(" ")
}

/// The signature of every kernel of a checked program, in declaration order.
pub fn kernel_signatures(program: &Program) -> Vec<KernelSignature> {
    let types = &program.types;
    program
        .kernels()
        .map(|(_, f)| KernelSignature {
            name: f.name.as_str().to_string(),
            reqd_work_group_size: f.reqd_work_group_size,
            attributes: attribute_string(types, f),
            params: f
                .params
                .iter()
                .filter_map(|p| program.var(*p))
                .map(|v| {
                    let kind = match types.ckind(v.ty) {
                        TypeKind::Pointer(p) => KernelParamKind::Pointer {
                            space: ty::pointee_space(types, *p),
                            pointee: elem_desc(types, *p),
                            pointee_size: if types.is_void(*p) {
                                0
                            } else {
                                ty::size_of(types, *p)
                            },
                        },
                        TypeKind::Image(dim, access) => KernelParamKind::Image {
                            dim: dim.name(),
                            read: *access != Access::WriteOnly,
                            write: *access != Access::ReadOnly,
                        },
                        TypeKind::Opaque(Opaque::Sampler) => KernelParamKind::Sampler,
                        TypeKind::Record(_) => KernelParamKind::Aggregate {
                            size: ty::size_of(types, v.ty),
                            align: ty::align_of(types, v.ty),
                        },
                        _ => match elem_desc(types, v.ty) {
                            Some(elem) => KernelParamKind::Value {
                                elem,
                                size: ty::size_of(types, v.ty),
                            },
                            None => KernelParamKind::Other,
                        },
                    };
                    KernelParam {
                        name: v.name.as_str().to_string(),
                        c_type: types.print(v.ty.with_space(None)),
                        kind,
                    }
                })
                .collect(),
        })
        .collect()
}
