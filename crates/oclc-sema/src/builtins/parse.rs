//! Parses the declaration table (`table.rs`, indexed at compile time by `build.rs`, which
//! also parses its gentypes and sections) into [`Table`]: a name's declarations on its first
//! use. The table is static text, so a parse error is a bug in this crate and is reported by
//! the unit tests ([`super::table_status`]), never by user input.

use super::index::{DECLS, GATES, GEN_DEFS, GEN_NAMES, NAMES, SECTION_ALTS, SIGS, SORTED};
use super::ty::{Access, Atomic, BTy, ImageKind, Pointee, Ptr, Scalar};
use crate::space::AddrSpace;
use std::sync::OnceLock;

/// Most parameters any builtin has (`intel_sub_group_avc_sic_configure_ipe` has 11).
pub const MAX_PARAMS: usize = 11;

/// A gentype: element types × vector widths.
#[derive(Debug)]
pub(crate) struct GenDef {
    pub types: &'static [Scalar],
    pub widths: &'static [u8],
}

/// When a declaration exists: version range and macros that must be defined.
#[derive(Debug)]
pub(crate) struct Gate {
    /// Inclusive minimum `__OPENCL_C_VERSION__` (100 = always).
    pub since: u32,
    /// Exclusive maximum, 0 = none.
    pub until: u32,
    pub exts: &'static [&'static str],
    /// A language builtin (clang's `Builtins.td`), declared even without the default header.
    pub lang: bool,
}

/// Pointer qualifiers applied to an expanded gentype.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PtrQuals {
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

/// One type position of a declaration, before gentype expansion.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TyExpr {
    Fixed(BTy),
    /// Gentype `gen`; `width` 0 keeps its widths, otherwise forces one; `ptr` makes it a pointee.
    Gen {
        gentype: u16,
        width: u8,
        ptr: Option<PtrQuals>,
    },
}

/// Function attributes clang attaches (`__attribute__((const))` and friends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Attrs {
    pub is_const: bool,
    pub is_pure: bool,
    pub convergent: bool,
}

/// Builtins whose calls sema checks by hand (clang's `CustomTypeChecking` builtins and the
/// `as_T` macros over `__builtin_astype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `to_global`, `to_local`, `to_private`: the target space.
    ToAddrSpace(AddrSpace),
    ReadPipe,
    WritePipe,
    /// `reserve_read_pipe` and the other `*reserve_*_pipe`.
    ReservePipe,
    /// `commit_read_pipe` and the other `*commit_*_pipe`.
    CommitPipe,
    /// `get_pipe_num_packets`, `get_pipe_max_packets`.
    PipeQuery,
    EnqueueKernel,
    /// `get_kernel_work_group_size`, `get_kernel_preferred_work_group_size_multiple`.
    KernelQuery,
    /// `get_kernel_max_sub_group_size_for_ndrange`, `get_kernel_sub_group_count_for_ndrange`.
    KernelNDRangeQuery,
    /// `as_T(x)`: reinterpret `x` as `T`, which must have the same size.
    AsType(BTy),
    /// A GNU `__builtin_*` function of clang's `Builtins.td` (C prototypes in plain C types).
    Gnu,
}

/// One table line for one name (and one section alternative).
#[derive(Clone, Debug)]
pub(crate) struct Decl {
    pub ret: TyExpr,
    pub params: Vec<TyExpr>,
    pub variadic: bool,
    pub gate: u16,
    pub attrs: Attrs,
    pub special: Option<Special>,
    /// The name of a lone parameter where the header names it (`$v` in the table): clang
    /// then says "single argument 'v' was not specified".
    pub param_name: Option<&'static str>,
}

/// The table, shared by every language mode: gentypes, gates and sections parsed at compile
/// time, each name's declarations parsed on first use.
pub(crate) struct Table {
    pub gens: &'static [GenDef],
    pub gates: &'static [Gate],
    /// The alternatives of each section of the index.
    sections: &'static [&'static [Alt]],
    /// Declarations of each name, in table order; a `BuiltinId` indexes this.
    decls: Vec<OnceLock<Result<Vec<Decl>, TableError>>>,
}

/// A parse error in the table text: line number and message.
#[derive(Clone, Debug)]
pub(crate) struct TableError {
    pub line: usize,
    pub msg: String,
}

/// One alternative of a section: its gate, attributes and the values of its `AS` and `ACC`
/// placeholders.
pub(crate) struct Alt {
    pub gate: u16,
    pub attrs: Attrs,
    pub spaces: &'static [AddrSpace],
    pub accs: &'static [Access],
}

/// The table with the compile-time gentypes and sections; declarations wait for
/// [`Table::decls`].
pub(crate) fn parse_table() -> Result<Table, TableError> {
    Ok(Table {
        gens: GEN_DEFS,
        gates: GATES,
        sections: SECTION_ALTS,
        decls: NAMES.iter().map(|_| OnceLock::new()).collect(),
    })
}

impl Table {
    /// A table without builtins.
    pub(crate) fn empty() -> Table {
        Table {
            gens: &[],
            gates: &[],
            sections: &[],
            decls: Vec::new(),
        }
    }

    /// Number of builtin names.
    pub(crate) fn len(&self) -> usize {
        self.decls.len()
    }

    /// The name with index `id`.
    pub(crate) fn name(&self, id: u32) -> Option<&'static str> {
        builtin_name(id)
    }

    /// The index of `name` if this table declares it.
    pub(crate) fn find(&self, name: &str) -> Option<u32> {
        find_name(name).filter(|&id| (id as usize) < self.len())
    }

    /// The declarations of name `id`, parsed on first use.
    pub(crate) fn decls(&self, id: u32) -> Result<&[Decl], &TableError> {
        match self.decls.get(id as usize) {
            Some(cell) => cell.get_or_init(|| self.parse_decls(id)).as_deref(),
            None => Ok(&[]),
        }
    }

    fn parse_decls(&self, id: u32) -> Result<Vec<Decl>, TableError> {
        let name = self.name(id).unwrap_or("");
        let lines = DECLS.get(id as usize).copied().unwrap_or(&[]);
        let mut out = Vec::new();
        for &(section, sig, line) in lines {
            let err = |msg: String| TableError {
                line: line as usize,
                msg,
            };
            let sig = SIGS
                .get(sig as usize)
                .ok_or_else(|| err("bad signature index".into()))?;
            let alts = self
                .sections
                .get(section as usize)
                .ok_or_else(|| err("bad section index".into()))?;
            for alt in alts.iter() {
                for space in each(alt.spaces) {
                    for acc in each(alt.accs) {
                        let cx = Cx { space, acc };
                        let mut decl = parse_sig(sig, &cx).map_err(err)?;
                        decl.gate = alt.gate;
                        decl.attrs = alt.attrs;
                        decl.special = match decl.special {
                            Some(Special::AsType(_)) => Some(Special::AsType(
                                as_type_target(name)
                                    .ok_or_else(|| err(format!("bad as_type name {name}")))?,
                            )),
                            Some(Special::ToAddrSpace(_)) => {
                                Some(Special::ToAddrSpace(match name {
                                    "to_global" => AddrSpace::Global,
                                    "to_local" => AddrSpace::Local,
                                    _ => AddrSpace::Private,
                                }))
                            }
                            other => other,
                        };
                        out.push(decl);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Each value of a placeholder list as `Some`, or one `None` where the list is empty.
fn each<T: Copy>(values: &'static [T]) -> impl Iterator<Item = Option<T>> {
    let none = values.is_empty().then_some(None);
    none.into_iter().chain(values.iter().map(|&v| Some(v)))
}

/// How many names the compile-time name list has.
pub(crate) fn name_count() -> usize {
    NAMES.len()
}

/// The name with index `id` in the compile-time name list (no parsing).
pub(crate) fn builtin_name(id: u32) -> Option<&'static str> {
    NAMES.get(id as usize).copied()
}

/// The index of `name` in the compile-time name list, by binary search (no parsing).
pub(crate) fn find_name(name: &str) -> Option<u32> {
    let i = SORTED.binary_search_by(|&(n, _)| n.cmp(name)).ok()?;
    SORTED.get(i).map(|&(_, id)| id)
}

fn space_name(s: &str) -> Option<AddrSpace> {
    Some(match s {
        "global" => AddrSpace::Global,
        "local" => AddrSpace::Local,
        "private" => AddrSpace::Private,
        "constant" => AddrSpace::Constant,
        "generic" => AddrSpace::Generic,
        _ => return None,
    })
}

fn acc_name(s: &str) -> Option<Access> {
    Some(match s {
        "RO" => Access::ReadOnly,
        "WO" => Access::WriteOnly,
        "RW" => Access::ReadWrite,
        _ => return None,
    })
}

/// The values of a section alternative's `AS` and `ACC` placeholders.
struct Cx {
    space: Option<AddrSpace>,
    acc: Option<Access>,
}

fn parse_sig(sig: &'static str, cx: &Cx) -> Result<Decl, String> {
    let open = sig.find('(').ok_or("signature without '('")?;
    let ret_text = sig.get(..open).unwrap_or("").trim();
    let inner = sig
        .get(open + 1..)
        .and_then(|s| s.strip_suffix(')'))
        .ok_or("signature without ')'")?;
    let mut decl = Decl {
        ret: TyExpr::Fixed(BTy::Void),
        params: Vec::new(),
        variadic: false,
        gate: 0,
        attrs: Attrs::default(),
        special: None,
        param_name: None,
    };
    if ret_text == "special" {
        decl.special = Some(match inner.trim() {
            "to_global" | "to_local" | "to_private" => Special::ToAddrSpace(AddrSpace::Generic),
            "read_pipe" => Special::ReadPipe,
            "write_pipe" => Special::WritePipe,
            "reserve_pipe" => Special::ReservePipe,
            "commit_pipe" => Special::CommitPipe,
            "pipe_query" => Special::PipeQuery,
            "enqueue_kernel" => Special::EnqueueKernel,
            "kernel_query" => Special::KernelQuery,
            "kernel_ndrange_query" => Special::KernelNDRangeQuery,
            "as_type" => Special::AsType(BTy::Void),
            "gnu" => Special::Gnu,
            other => return Err(format!("bad special {other}")),
        });
        decl.variadic = true;
        return Ok(decl);
    }
    decl.ret = parse_ty(ret_text, cx)?;
    for p in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let p = match p.rsplit_once(" $") {
            Some((ty, name)) => {
                decl.param_name = Some(name);
                ty
            }
            None => p,
        };
        if p == "..." {
            decl.variadic = true;
        } else {
            decl.params.push(parse_ty(p, cx)?);
        }
    }
    if decl.params.len() > MAX_PARAMS {
        return Err(format!("more than {MAX_PARAMS} parameters"));
    }
    Ok(decl)
}

fn parse_ty(text: &str, cx: &Cx) -> Result<TyExpr, String> {
    let mut space = None;
    let mut acc = None;
    let mut is_const = false;
    let mut is_volatile = false;
    let mut is_ptr = false;
    let mut base = None;
    for tok in text.split_ascii_whitespace() {
        match tok {
            "AS" => space = Some(cx.space.ok_or("AS outside an as= section")?),
            "ACC" => acc = Some(cx.acc.ok_or("ACC outside an acc= section")?),
            "const" => is_const = true,
            "volatile" => is_volatile = true,
            "*" => is_ptr = true,
            _ => {
                if let Some(s) = space_name(tok) {
                    space = Some(s);
                } else if let Some(a) = acc_name(tok) {
                    acc = Some(a);
                } else if base.replace(tok).is_some() {
                    return Err(format!("two base types in '{text}'"));
                }
            }
        }
    }
    let base = base.ok_or_else(|| format!("no base type in '{text}'"))?;
    if is_ptr != space.is_some() {
        return Err(format!(
            "pointer without address space (or the reverse) in '{text}'"
        ));
    }
    let (gname, width) = match base.split_once('@') {
        Some((g, w)) => (
            g,
            w.parse::<u8>()
                .map_err(|_| format!("bad width in {base}"))?,
        ),
        None => (base, 0),
    };
    if let Ok(i) = GEN_NAMES.binary_search_by(|&(n, _)| n.cmp(gname)) {
        let gentype = GEN_NAMES.get(i).map_or(0, |&(_, g)| g);
        let ptr = space.map(|space| PtrQuals {
            space,
            is_const,
            is_volatile,
        });
        return Ok(TyExpr::Gen {
            gentype,
            width,
            ptr,
        });
    }
    let ty = base_ty(base, acc).ok_or_else(|| format!("unknown type {base}"))?;
    match space {
        None => Ok(TyExpr::Fixed(ty)),
        Some(space) => {
            let pointee = match ty {
                BTy::Void => Pointee::Void,
                BTy::Scalar(s) => Pointee::Scalar(s),
                BTy::Vector(s, n) => Pointee::Vector(s, n),
                BTy::Atomic(a) => Pointee::Atomic(a),
                BTy::Event => Pointee::Event,
                BTy::ClkEvent => Pointee::ClkEvent,
                _ => return Err(format!("unsupported pointee {base}")),
            };
            Ok(TyExpr::Fixed(BTy::Ptr(Ptr {
                pointee,
                space,
                is_const,
                is_volatile,
            })))
        }
    }
}

fn base_ty(base: &str, acc: Option<Access>) -> Option<BTy> {
    if let Some(s) = Scalar::from_name(base) {
        return Some(BTy::Scalar(s));
    }
    if let Some(k) = ImageKind::from_name(base) {
        return Some(BTy::Image(k, acc?));
    }
    if let Some(v) = base.strip_prefix("atomic_") {
        let (value, flag) = match v {
            "flag" => (Scalar::Int, true),
            "size_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t" => (Scalar::from_name(v)?, false),
            _ => (Scalar::from_name(v)?, false),
        };
        return Some(BTy::Atomic(Atomic { value, flag }));
    }
    Some(match base {
        "void" => BTy::Void,
        "event_t" => BTy::Event,
        "clk_event_t" => BTy::ClkEvent,
        "queue_t" => BTy::Queue,
        "reserve_id_t" => BTy::ReserveId,
        "ndrange_t" => BTy::NDRange,
        "sampler_t" => BTy::Sampler,
        "memory_order" => BTy::MemoryOrder,
        "memory_scope" => BTy::MemoryScope,
        _ => match crate::types::Avc::from_name(base) {
            Some(a) => BTy::Avc(a),
            None => return vector_name(base),
        },
    })
}

/// `float4` → `Vector(Float, 4)`.
fn vector_name(s: &str) -> Option<BTy> {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (elem, n) = s.split_at(s.len() - digits);
    let n: u8 = n.parse().ok()?;
    let elem = Scalar::from_name(elem)?;
    (matches!(n, 2 | 3 | 4 | 8 | 16) && Scalar::VECTOR_ELEMS.contains(&elem))
        .then_some(BTy::Vector(elem, n))
}

/// The target type of an `as_T` name: `as_float4` → `float4`, `as_size_t` → `size_t`.
pub(crate) fn as_type_target(name: &str) -> Option<BTy> {
    let t = name.strip_prefix("as_")?;
    match Scalar::from_name(t) {
        Some(s) => Some(BTy::Scalar(s)),
        None => vector_name(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses() {
        let t = match parse_table() {
            Ok(t) => t,
            Err(e) => panic!("table line {}: {}", e.line, e.msg),
        };
        assert!(t.len() > 1000, "{} names", t.len());
        let fract = t.find("fract").expect("fract is a builtin");
        assert_eq!(t.name(fract), Some("fract"));
        // 3 named spaces + generic.
        assert_eq!(t.decls(fract).map(<[Decl]>::len).ok(), Some(4));
        assert_eq!(t.find("no_such_builtin"), None);
        assert_eq!(
            as_type_target("as_uint3"),
            Some(BTy::Vector(Scalar::UInt, 3))
        );
        assert_eq!(vector_name("float16"), Some(BTy::Vector(Scalar::Float, 16)));
        assert_eq!(vector_name("float5"), None);
    }

    /// The compile-time index is sorted and names each builtin once.
    #[test]
    fn index_sorted() {
        assert!(SORTED.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(SORTED.len(), NAMES.len());
        assert_eq!(DECLS.len(), NAMES.len());
    }
}
