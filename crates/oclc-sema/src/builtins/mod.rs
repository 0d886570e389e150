//! The OpenCL C builtin library: declarations from a table (`table.rs`, modelled on clang's
//! `OpenCLBuiltins.td`), gentype expansion, version/extension/feature gating, and overload
//! resolution as clang does it for C `overloadable` functions.
//!
//! Usage from sema:
//! ```ignore
//! let b = Builtins::new(&lang);                 // once per compilation (cheap)
//! if let Some(id) = b.lookup(name) {            // O(1): is `name` a builtin in this mode?
//!     if let Some(s) = b.special(id) { /* to_global, pipes, as_T...: check by hand */ }
//!     // args: sema_types::arg(..) per argument; forms: lvalue-ness/shape for fix notes.
//!     match b.resolve_with_forms(id, &args, &forms) {
//!         Ok(r) if !r.overloaded => { /* one prototype: check the call as a plain C call */ }
//!         Ok(r) => { /* convert each argument to r.sig.params()[i] */ }
//!         Err(NoMatch::NoViable(cands)) => {
//!             // "no matching function for call to 'X'", then `c.note(..)` for each
//!             // candidate where it is `Some` (clang's order already).
//!         }
//!         Err(NoMatch::Ambiguous(_)) => { /* "call to 'X' is ambiguous", no notes */ }
//!         Err(NoMatch::Special(_)) => unreachable,
//!     }
//! }
//! ```
//! Parameter types become sema types with [`sema_types::to_sema`], which builds them as
//! clang's table does so they print the same in notes (`'__generic float *'`,
//! `'float __attribute__((ext_vector_type(4)))'`, `'unsigned long'` for `size_t`).
//!
//! The table is indexed at compile time (`build.rs`); a process parses its gentypes and gates
//! once (microseconds) and a name's declarations on its first lookup. A [`Builtins`] only
//! evaluates the gates of its language mode, overloads are expanded lazily, per call,
//! without allocation, and resolutions are memoized, so a repeated call costs a hash lookup.
//!
//! Identity for later stages: a [`BuiltinId`] names the function (same in every mode of one
//! build); an [`OverloadId`] names the chosen prototype within a mode and packs into the
//! `u32` HIR stores ([`OverloadId::raw`]); [`Builtins::signature`] gives its concrete types;
//! [`names`] decodes the families whose meaning is in the name (`convert_T_sat_rte`,
//! `vstore_half_rtz`, `as_T`).

pub mod consts;
mod gate;
mod index;
pub mod names;
mod parse;
mod resolve;
mod select;
pub mod sema_types;
pub mod ty;

pub use gate::macro_defined;
pub use parse::{Attrs, MAX_PARAMS, Special};
pub use resolve::{
    Arg, ArgForm, ArgShape, BadConv, Cmp, Conv, ConvKind, Fix, Lvalue, Rank, better_candidate,
    conversion_fix, convert, space_includes,
};
pub use ty::{Access, Atomic, BTy, ImageKind, Pointee, Ptr, Scalar};

use gate::{TypeAvail, scalar_ok};
use oclc_syntax::{LangOptions, Symbol};
use parse::{Decl, Table, TyExpr};
use select::ResolveCache;
use std::sync::{Mutex, OnceLock};

/// A builtin function name (`fract`, `convert_int4_sat_rte`, ...). Indexes the process-wide
/// table, so it is the same in every language mode of one build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BuiltinId(pub u32);

/// One concrete overload of a builtin: the table line (`decl`) and the gentype expansion index.
/// Valid for the [`Builtins`] that produced it (expansion depends on enabled types); IR
/// lowering and the runtime should key on [`Builtins::name`] plus the [`Signature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OverloadId {
    pub builtin: BuiltinId,
    pub decl: u16,
    pub index: u16,
}

/// A concrete builtin prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub ret: BTy,
    params: [BTy; MAX_PARAMS],
    len: u8,
    /// Takes `...` after the parameters (`printf`).
    pub variadic: bool,
}

impl Signature {
    pub fn params(&self) -> &[BTy] {
        self.params.get(..self.len as usize).unwrap_or(&[])
    }
}

/// A candidate that cannot take the call's arguments, and why (clang's candidate notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub overload: OverloadId,
    pub sig: Signature,
    pub reason: NotViable,
    /// Each argument's conversion (`None`: no conversion, or an arity failure).
    pub convs: Vec<Option<Conv>>,
    /// The fix clang appends to the note: set when every failing argument has one; the
    /// first argument's.
    pub fix: Option<Fix>,
}

impl Candidate {
    /// clang's note for this candidate, or `None` where clang prints none: for OpenCL
    /// builtins (implicit declarations) it only notes bad conversions, not arity mismatches
    /// ("the notes are identical for each candidate"). `arg_type` prints an argument's type
    /// and `param_type` a parameter type, both as sema prints types (unquoted).
    pub fn note(
        &self,
        arg_type: impl Fn(usize) -> String,
        param_type: impl Fn(BTy) -> String,
    ) -> Option<String> {
        match self.reason {
            NotViable::Arity { .. } => None,
            NotViable::Conversion {
                why: BadConv::NoConversion,
                ..
            } => Some(format!(
                "{}{}",
                self.reason.note(arg_type, param_type),
                self.fix.map_or("", Fix::text)
            )),
            NotViable::Conversion { .. } => Some(self.reason.note(arg_type, param_type)),
        }
    }
}

/// Why a candidate is not viable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotViable {
    /// Wrong number of arguments.
    Arity {
        expected: usize,
        got: usize,
        variadic: bool,
    },
    /// Argument `arg` (0-based) cannot be converted to the parameter type `to`.
    Conversion { arg: usize, to: BTy, why: BadConv },
}

impl NotViable {
    /// The text of clang's note, given how sema prints the argument's type (`'...'` quoted by
    /// this function) and the parameter's type.
    pub fn note(
        &self,
        arg_type: impl Fn(usize) -> String,
        param_type: impl Fn(BTy) -> String,
    ) -> String {
        match *self {
            NotViable::Arity {
                expected,
                got,
                variadic,
            } => format!(
                "candidate function not viable: requires {}{} argument{}, but {} {} provided",
                if variadic { "at least " } else { "" },
                expected,
                if expected == 1 { "" } else { "s" },
                got,
                if got == 1 { "was" } else { "were" }
            ),
            NotViable::Conversion { arg, to, why } => match why {
                BadConv::NoConversion => format!(
                    "candidate function not viable: no known conversion from '{}' to '{}' for {} argument",
                    arg_type(arg),
                    param_type(to),
                    ordinal(arg + 1)
                ),
                BadConv::AddrSpace { from, to } => format!(
                    "candidate function not viable: cannot pass pointer to address space '{}' as a pointer to address space '{}' in {} argument",
                    from.clang_name(),
                    to.clang_name(),
                    ordinal(arg + 1)
                ),
            },
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ... as clang's `%ordinal` prints them.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The chosen overload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub overload: OverloadId,
    pub sig: Signature,
    /// The conversion of each argument to its parameter (`None` past the parameters of a
    /// variadic function, or where an argument does not convert: only possible when
    /// `overloaded` is false).
    pub convs: Vec<Option<Conv>>,
    /// Overload resolution chose among several prototypes. When false the builtin has one
    /// prototype in this mode, and clang checks the call as an ordinary C call (its usual
    /// arity and conversion diagnostics), so sema should too.
    pub overloaded: bool,
}

/// Why [`Builtins::resolve`] found no overload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMatch {
    /// "no matching function for call to 'X'"; every candidate in clang's display order, each
    /// with its note ([`Candidate::note`]).
    NoViable(Vec<Candidate>),
    /// "call to 'X' is ambiguous". The tied candidates, in clang's display order; clang
    /// prints no notes for them (OpenCL builtins have no declaration to point to).
    Ambiguous(Vec<OverloadId>),
    /// The builtin is checked by hand (see [`Special`]).
    Special(Special),
}

/// The builtin library of one language mode.
pub struct Builtins {
    /// The mode, for [`Builtins::mode`].
    lang: LangOptions,
    library: bool,
    /// The table and what of it this mode has, on first need: a translation unit that
    /// names no builtin never parses the table.
    mode: OnceLock<Mode>,
    avail: TypeAvail,
    /// Memoized resolutions: calls repeat the same argument types over and over.
    cache: Mutex<ResolveCache>,
    /// Memoized [`Builtins::lookup`] answers: a kernel calls the same few builtins thousands
    /// of times, and each answer costs two table searches.
    names: Mutex<crate::fxhash::FxHashMap<Symbol, Option<BuiltinId>>>,
}

/// The parsed table and which of its gates and element types a mode has.
struct Mode {
    table: &'static Table,
    gate_ok: Vec<bool>,
    /// Element types of each gentype that survive the type extensions.
    gen_types: Vec<Vec<Scalar>>,
}

fn parsed() -> &'static Result<Table, parse::TableError> {
    static T: OnceLock<Result<Table, parse::TableError>> = OnceLock::new();
    T.get_or_init(parse::parse_table)
}

fn table() -> Option<&'static Table> {
    parsed().as_ref().ok()
}

/// Whether the table declares a builtin called `name` in some language mode.
pub fn is_table_name(name: &str) -> bool {
    parse::find_name(name).is_some()
}

/// `Err("line N: message")` if the built-in table text is malformed (a bug in this crate;
/// the library, or that name, is then empty). Parses every declaration; tests assert `Ok`.
pub fn table_status() -> Result<(), String> {
    let t = parsed()
        .as_ref()
        .map_err(|e| format!("line {}: {}", e.line, e.msg))?;
    for id in 0..t.len() as u32 {
        t.decls(id)
            .map_err(|e| format!("line {}: {}", e.line, e.msg))?;
    }
    Ok(())
}

static EMPTY: OnceLock<Table> = OnceLock::new();

fn empty_table() -> &'static Table {
    EMPTY.get_or_init(Table::empty)
}

impl Builtins {
    /// The builtins the clang driver declares by default: the library
    /// (`-finclude-default-header -fdeclare-opencl-builtins`) and the language builtins.
    pub fn new(lang: &LangOptions) -> Builtins {
        Builtins::with_library(lang, true)
    }

    /// With `library` false, only the language builtins (`to_global`, pipes, `enqueue_kernel`),
    /// as `clang -cc1` without `-finclude-default-header` declares them.
    pub fn with_library(lang: &LangOptions, library: bool) -> Builtins {
        let avail = TypeAvail {
            fp16: macro_defined(lang, "cl_khr_fp16"),
            fp64: macro_defined(lang, "cl_khr_fp64"),
            int64_atomics: macro_defined(lang, "cl_khr_int64_base_atomics")
                && macro_defined(lang, "cl_khr_int64_extended_atomics"),
            image3d_writes: macro_defined(lang, "cl_khr_3d_image_writes"),
        };
        Builtins {
            lang: lang.clone(),
            library,
            mode: OnceLock::new(),
            avail,
            cache: Mutex::new(ResolveCache::default()),
            names: Mutex::new(Default::default()),
        }
    }

    /// The table (parsed once per process) with this mode's gates and element types.
    fn mode(&self) -> &Mode {
        self.mode.get_or_init(|| {
            let table = table().unwrap_or_else(empty_table);
            let (lang, library) = (&self.lang, self.library);
            let version = lang.std.version();
            let gate_ok = table
                .gates
                .iter()
                .map(|g| {
                    (library || g.lang)
                        && version >= g.since
                        && (g.until == 0 || version < g.until)
                        && g.exts.iter().all(|e| macro_defined(lang, e))
                })
                .collect();
            let gen_types = table
                .gens
                .iter()
                .map(|g| {
                    g.types
                        .iter()
                        .copied()
                        .filter(|&s| scalar_ok(self.avail, s))
                        .collect()
                })
                .collect();
            Mode {
                table,
                gate_ok,
                gen_types,
            }
        })
    }
}

impl Builtins {
    /// The builtin called `name` if it has at least one declaration in this mode: a binary
    /// search, and on a name's first lookup in the process the parse of its declarations.
    pub fn lookup(&self, name: Symbol) -> Option<BuiltinId> {
        if let Ok(names) = self.names.lock()
            && let Some(&known) = names.get(&name)
        {
            return known;
        }
        let found = self.lookup_uncached(name);
        if let Ok(mut names) = self.names.lock() {
            names.insert(name, found);
        }
        found
    }

    /// [`Builtins::lookup`] without the memo.
    fn lookup_uncached(&self, name: Symbol) -> Option<BuiltinId> {
        // The compile-time name list first: most names are no builtin.
        parse::find_name(name.as_str())?;
        let id = BuiltinId(self.mode().table.find(name.as_str())?);
        self.declared(id).then_some(id)
    }

    /// [`Builtins::lookup`] by string.
    pub fn lookup_str(&self, name: &str) -> Option<BuiltinId> {
        self.lookup(Symbol::intern(name))
    }

    /// The builtin's name.
    pub fn name(&self, id: BuiltinId) -> &'static str {
        parse::builtin_name(id.0).unwrap_or("")
    }

    /// The builtin's interned name.
    pub fn symbol(&self, id: BuiltinId) -> Option<Symbol> {
        parse::builtin_name(id.0).map(Symbol::intern)
    }

    /// Set for builtins sema checks by hand (no prototype in the table).
    pub fn special(&self, id: BuiltinId) -> Option<Special> {
        self.decls(id)
            .iter()
            .find(|d| self.decl_count(d) > 0)
            .and_then(|d| d.special)
    }

    /// Every name available in this mode (for tests and tooling).
    pub fn names(&self) -> impl Iterator<Item = BuiltinId> + '_ {
        self.table_ids().filter(|&id| self.declared(id))
    }

    /// Every name of the table, available in this mode or not: nothing is parsed until
    /// [`Builtins::declared`] asks (typo correction measures names first).
    pub fn table_ids(&self) -> impl Iterator<Item = BuiltinId> + use<> {
        (0..parse::name_count() as u32).map(BuiltinId)
    }

    /// Whether `id` has at least one declaration in this mode (parses its declarations).
    pub fn declared(&self, id: BuiltinId) -> bool {
        self.decls(id).iter().any(|d| self.decl_count(d) > 0)
    }

    fn decls(&self, id: BuiltinId) -> &'static [Decl] {
        self.mode().table.decls(id.0).unwrap_or(&[])
    }

    /// The overloads of `id` in this mode, in table order (clang's declaration order).
    pub fn overloads(&self, id: BuiltinId) -> impl Iterator<Item = OverloadId> + '_ {
        self.decls(id)
            .iter()
            .enumerate()
            .filter(|(_, d)| d.special.is_none())
            .flat_map(move |(di, d)| {
                (0..self.decl_count(d)).map(move |i| OverloadId {
                    builtin: id,
                    decl: di as u16,
                    index: i as u16,
                })
            })
    }

    /// How many overloads `id` has in this mode.
    pub fn overload_count(&self, id: BuiltinId) -> usize {
        self.decls(id)
            .iter()
            .filter(|d| d.special.is_none())
            .map(|d| self.decl_count(d))
            .sum()
    }

    /// Function attributes of the overload's declaration.
    pub fn attrs(&self, o: OverloadId) -> Attrs {
        self.decls(o.builtin)
            .get(o.decl as usize)
            .map(|d| d.attrs)
            .unwrap_or_default()
    }

    /// The name the header gives the overload's lone parameter, if any (clang's arity
    /// errors then name it).
    pub fn param_name(&self, o: OverloadId) -> Option<&'static str> {
        self.decls(o.builtin)
            .get(o.decl as usize)
            .and_then(|d| d.param_name)
    }

    /// The overload's prototype.
    pub fn signature(&self, o: OverloadId) -> Signature {
        let mut sig = Signature {
            ret: BTy::Void,
            params: [BTy::Void; MAX_PARAMS],
            len: 0,
            variadic: false,
        };
        if let Some(d) = self.decls(o.builtin).get(o.decl as usize) {
            let i = o.index as usize;
            sig.ret = self.expand(d.ret, i).unwrap_or(BTy::Void);
            for (slot, &p) in sig.params.iter_mut().zip(&d.params) {
                *slot = self.expand(p, i).unwrap_or(BTy::Void);
            }
            sig.len = d.params.len().min(MAX_PARAMS) as u8;
            sig.variadic = d.variadic;
        }
        sig
    }

    /// Number of overloads one declaration expands to: 0 when gated off or when one of its
    /// types is unavailable (clang drops the whole declaration then).
    fn decl_count(&self, d: &Decl) -> usize {
        if !self
            .mode()
            .gate_ok
            .get(d.gate as usize)
            .copied()
            .unwrap_or(false)
        {
            return 0;
        }
        if d.special.is_some() {
            return 1;
        }
        let mut max = 0;
        for t in std::iter::once(&d.ret).chain(&d.params) {
            let n = self.expr_len(*t);
            if n == 0 {
                return 0;
            }
            max = max.max(n);
        }
        max
    }

    fn expr_len(&self, t: TyExpr) -> usize {
        match t {
            TyExpr::Fixed(ty) => usize::from(self.ty_ok(ty)),
            TyExpr::Gen { gentype, width, .. } => {
                let mode = self.mode();
                let types = mode.gen_types.get(gentype as usize).map_or(0, Vec::len);
                let widths = if width != 0 {
                    1
                } else {
                    mode.table
                        .gens
                        .get(gentype as usize)
                        .map_or(0, |g| g.widths.len())
                };
                types * widths
            }
        }
    }

    /// The `i`-th concrete type of a type position (gentypes repeat modulo their length).
    fn expand(&self, t: TyExpr, i: usize) -> Option<BTy> {
        match t {
            TyExpr::Fixed(ty) => Some(ty),
            TyExpr::Gen {
                gentype,
                width,
                ptr,
            } => {
                let mode = self.mode();
                let types = mode.gen_types.get(gentype as usize)?;
                let def = mode.table.gens.get(gentype as usize)?;
                let n = types.len();
                let len = self.expr_len(t);
                if len == 0 {
                    return None;
                }
                let k = i % len;
                let elem = *types.get(k % n)?;
                let w = if width != 0 {
                    width
                } else {
                    *def.widths.get(k / n)?
                };
                Some(match ptr {
                    None => BTy::vec(elem, w),
                    Some(q) => BTy::Ptr(Ptr {
                        pointee: if w <= 1 {
                            Pointee::Scalar(elem)
                        } else {
                            Pointee::Vector(elem, w)
                        },
                        space: q.space,
                        is_const: q.is_const,
                        is_volatile: q.is_volatile,
                    }),
                })
            }
        }
    }

    fn ty_ok(&self, t: BTy) -> bool {
        let a = self.avail;
        let atomic_ok = |x: Atomic| match x.value {
            Scalar::Long | Scalar::ULong => a.int64_atomics,
            Scalar::Double => a.int64_atomics && a.fp64,
            _ => true,
        };
        match t {
            BTy::Scalar(s) | BTy::Vector(s, _) => scalar_ok(a, s),
            BTy::Ptr(p) => match p.pointee {
                Pointee::Scalar(s) | Pointee::Vector(s, _) => scalar_ok(a, s),
                Pointee::Atomic(x) => atomic_ok(x),
                _ => true,
            },
            BTy::Atomic(x) => atomic_ok(x),
            BTy::Image(ImageKind::Image3d, Access::WriteOnly) => a.image3d_writes,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_syntax::ClStd;

    /// Names that are no builtin leave the mode (and the table) alone; the first real
    /// builtin sets it up, with the gates of the mode.
    #[test]
    fn mode_is_set_up_on_the_first_builtin() {
        let b = Builtins::new(&LangOptions::new(ClStd::Cl12));
        assert_eq!(b.lookup_str("my_helper"), None);
        assert_eq!(b.lookup_str("main"), None);
        assert!(b.mode.get().is_none());
        let fract = b.lookup_str("fract").expect("fract is a builtin");
        assert!(b.mode.get().is_some());
        assert_eq!(b.name(fract), "fract");
        // OpenCL C 1.2 declares fract's pointer for the three named address spaces, 2.0 for
        // the generic one only.
        let cl20 = Builtins::new(&LangOptions::new(ClStd::Cl20));
        let fract20 = cl20.lookup_str("fract").expect("fract in CL2.0");
        assert!(b.overload_count(fract) > cl20.overload_count(fract20));
        // to_global exists from OpenCL C 2.0 only.
        assert_eq!(b.lookup_str("to_global"), None);
        assert!(cl20.lookup_str("to_global").is_some());
    }
}
