//! The OpenCL C builtin library: declarations from a table (`table.rs`, modelled on clang's
//! `OpenCLBuiltins.td`), gentype expansion, version/extension/feature gating, and overload
//! resolution as clang does it for C `overloadable` functions.
//!
//! Usage from sema:
//! ```ignore
//! let b = Builtins::new(&lang);                 // once per compilation (cheap)
//! if let Some(id) = b.lookup(name) {            // O(1): is `name` a builtin in this mode?
//!     if let Some(s) = b.special(id) { /* to_global, pipes, as_T...: check by hand */ }
//!     match b.resolve(id, &args) {
//!         Ok(r) if !r.overloaded => { /* one prototype: check the call as a plain C call */ }
//!         Ok(r) => { /* convert each argument to r.sig.params()[i] */ }
//!         Err(NoMatch::NoViable(cands)) => { /* "no matching function for call to 'X'" + notes */ }
//!         Err(NoMatch::Ambiguous(ids)) => { /* "call to 'X' is ambiguous" + notes */ }
//!         Err(NoMatch::Special(_)) => unreachable,
//!     }
//! }
//! ```
//! The table is parsed once per process; a [`Builtins`] only evaluates the gates of its
//! language mode, and overloads are expanded lazily, per call, without allocation.

pub mod consts;
mod parse;
mod resolve;
pub mod sema_types;
mod table;
pub mod ty;

pub use parse::{Attrs, MAX_PARAMS, Special};
pub use resolve::{
    Arg, ArgForm, ArgShape, BadConv, Cmp, Conv, ConvKind, Fix, Lvalue, Rank, conversion_fix,
    space_includes,
};
pub use ty::{Access, Atomic, BTy, ImageKind, Pointee, Ptr, Scalar};

use oclc_syntax::{ClStd, LangOptions, Symbol};
use parse::{Decl, Table, TyExpr};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
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

/// Which element types are usable: clang's type extensions (`half` needs `cl_khr_fp16`, ...).
#[derive(Clone, Copy, Debug)]
struct TypeAvail {
    fp16: bool,
    fp64: bool,
    int64_atomics: bool,
    image3d_writes: bool,
}

/// The builtin library of one language mode.
pub struct Builtins {
    table: &'static Table,
    gate_ok: Vec<bool>,
    /// Element types of each gentype that survive the type extensions.
    gen_types: Vec<Vec<Scalar>>,
    avail: TypeAvail,
    /// Memoized resolutions: calls repeat the same argument types over and over.
    cache: Mutex<ResolveCache>,
}

/// Resolutions by (builtin, hash of the argument keys); entries keep their keys to rule out
/// hash collisions.
type ResolveCache = HashMap<(u32, u64), Vec<(Vec<ArgKey>, Result<Resolved, NoMatch>)>>;

/// What of an argument overload resolution depends on (constant values only matter as
/// zero / non-zero).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ArgKey(BTy, bool, Option<bool>, ArgForm);

impl ArgKey {
    fn of(a: &Arg, f: ArgForm) -> ArgKey {
        ArgKey(a.ty, a.null_ptr, a.int_const.map(|v| v == 0), f)
    }
}

fn parsed() -> &'static Result<Table, parse::TableError> {
    static T: OnceLock<Result<Table, parse::TableError>> = OnceLock::new();
    T.get_or_init(parse::parse_table)
}

fn table() -> Option<&'static Table> {
    parsed().as_ref().ok()
}

/// `Err("line N: message")` if the built-in table text is malformed (a bug in this crate;
/// the library is then empty). Tests assert this is `Ok`.
pub fn table_status() -> Result<(), String> {
    match parsed() {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("line {}: {}", e.line, e.msg)),
    }
}

static EMPTY: OnceLock<Table> = OnceLock::new();

fn empty_table() -> &'static Table {
    EMPTY.get_or_init(|| Table {
        gens: Vec::new(),
        gates: Vec::new(),
        names: Vec::new(),
        syms: Vec::new(),
        decls: Vec::new(),
        by_sym: Default::default(),
    })
}

/// Minimum OpenCL C version (`__OPENCL_C_VERSION__`) at which an extension's macro can be
/// defined (clang's `OpenCLExtensions.def` "avail" column).
fn ext_available_from(name: &str) -> u32 {
    match name {
        "cl_khr_depth_images" | "cl_khr_gl_msaa_sharing" => 120,
        "cl_ext_float_atomics"
        | "cl_khr_extended_bit_ops"
        | "cl_khr_integer_dot_product"
        | "cl_khr_kernel_clock"
        | "cl_khr_mipmap_image"
        | "cl_khr_mipmap_image_writes"
        | "cl_khr_srgb_image_writes"
        | "cl_khr_subgroups" => 200,
        n if n.starts_with("cl_khr_subgroup_") => 200,
        _ => 100,
    }
}

/// Whether the macro `name` is defined in this mode, as clang's builtin lookup checks it
/// (`Preprocessor::isMacroDefined`), including the internal macros of `opencl-c-base.h`.
pub fn macro_defined(lang: &LangOptions, name: &str) -> bool {
    match name {
        "__opencl_c_named_address_space_builtins" => {
            !macro_defined(lang, "__opencl_c_generic_address_space")
        }
        "__opencl_subgroup_builtins" => {
            macro_defined(lang, "cl_khr_subgroups") || macro_defined(lang, "__opencl_c_subgroups")
        }
        "cl_khr_fp64" => lang.fp64(),
        "cl_khr_fp16" => lang.fp16(),
        // Optional core features of OpenCL C 2.0 that the spir target supports, so clang
        // defines them in CL2.0 too; `LangOptions` does not list them for 2.0.
        "__opencl_c_integer_dot_product_input_4x8bit"
        | "__opencl_c_integer_dot_product_input_4x8bit_packed"
            if lang.std == ClStd::Cl20 =>
        {
            true
        }
        // cl_ext_float_atomics' features: clang defines them with the extension from 2.0 on
        // (spir supports them all); `LangOptions` does not know them yet.
        n if n.starts_with("__opencl_c_ext_fp")
            && !oclc_syntax::lang::FEATURES.iter().any(|&(f, _)| f == n) =>
        {
            lang.std >= ClStd::Cl20 && lang.has("cl_ext_float_atomics")
        }
        _ => lang.has(name) && lang.std.version() >= ext_available_from(name),
    }
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
        let table = table().unwrap_or_else(empty_table);
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
        let avail = TypeAvail {
            fp16: macro_defined(lang, "cl_khr_fp16"),
            fp64: macro_defined(lang, "cl_khr_fp64"),
            int64_atomics: macro_defined(lang, "cl_khr_int64_base_atomics")
                && macro_defined(lang, "cl_khr_int64_extended_atomics"),
            image3d_writes: macro_defined(lang, "cl_khr_3d_image_writes"),
        };
        let gen_types = table
            .gens
            .iter()
            .map(|g| {
                g.types
                    .iter()
                    .copied()
                    .filter(|&s| scalar_ok(avail, s))
                    .collect()
            })
            .collect();
        Builtins {
            table,
            gate_ok,
            gen_types,
            avail,
            cache: Mutex::new(HashMap::new()),
        }
    }
}

fn scalar_ok(a: TypeAvail, s: Scalar) -> bool {
    match s {
        Scalar::Half => a.fp16,
        Scalar::Double => a.fp64,
        _ => true,
    }
}

impl Builtins {
    /// The builtin called `name` if it has at least one declaration in this mode. O(1).
    pub fn lookup(&self, name: Symbol) -> Option<BuiltinId> {
        let &id = self.table.by_sym.get(&name)?;
        let decls = self.table.decls.get(id as usize)?;
        decls
            .iter()
            .any(|d| self.decl_count(d) > 0)
            .then_some(BuiltinId(id))
    }

    /// [`Builtins::lookup`] by string.
    pub fn lookup_str(&self, name: &str) -> Option<BuiltinId> {
        self.lookup(Symbol::intern(name))
    }

    /// The builtin's name.
    pub fn name(&self, id: BuiltinId) -> &'static str {
        self.table.names.get(id.0 as usize).copied().unwrap_or("")
    }

    /// The builtin's interned name.
    pub fn symbol(&self, id: BuiltinId) -> Option<Symbol> {
        self.table.syms.get(id.0 as usize).copied()
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
        (0..self.table.names.len() as u32)
            .map(BuiltinId)
            .filter(|&id| self.decls(id).iter().any(|d| self.decl_count(d) > 0))
    }

    fn decls(&self, id: BuiltinId) -> &'static [Decl] {
        self.table
            .decls
            .get(id.0 as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
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
        if !self.gate_ok.get(d.gate as usize).copied().unwrap_or(false) {
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
                let types = self.gen_types.get(gentype as usize).map_or(0, Vec::len);
                let widths = if width != 0 {
                    1
                } else {
                    self.table
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
                let types = self.gen_types.get(gentype as usize)?;
                let def = self.table.gens.get(gentype as usize)?;
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

    /// Resolves a call of builtin `id` with `args`, as clang's overload resolution does.
    /// Results are memoized per argument-type list, so repeated calls cost a hash lookup.
    pub fn resolve(&self, id: BuiltinId, args: &[Arg]) -> Result<Resolved, NoMatch> {
        self.resolve_with_forms(id, args, &[])
    }

    /// [`Builtins::resolve`], also told each argument's [`ArgForm`] (missing entries count
    /// as default), so that candidate notes carry clang's fix suggestions ("take the address
    /// of the argument with &") and are ordered as clang orders them.
    pub fn resolve_with_forms(
        &self,
        id: BuiltinId,
        args: &[Arg],
        forms: &[ArgForm],
    ) -> Result<Resolved, NoMatch> {
        let form = |i: usize| forms.get(i).copied().unwrap_or_default();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (i, a) in args.iter().enumerate() {
            ArgKey::of(a, form(i)).hash(&mut h);
        }
        let key = (id.0, h.finish());
        let same = |keys: &[ArgKey]| {
            keys.len() == args.len()
                && keys
                    .iter()
                    .zip(args)
                    .enumerate()
                    .all(|(i, (k, a))| *k == ArgKey::of(a, form(i)))
        };
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(hit) = cache
                .get(&key)
                .and_then(|v| v.iter().find(|(k, _)| same(k)))
            {
                return hit.1.clone();
            }
        }
        let result = self.resolve_uncached(id, args, &form);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(key).or_default().push((
            args.iter()
                .enumerate()
                .map(|(i, a)| ArgKey::of(a, form(i)))
                .collect(),
            result.clone(),
        ));
        result
    }

    fn resolve_uncached(
        &self,
        id: BuiltinId,
        args: &[Arg],
        form: &dyn Fn(usize) -> ArgForm,
    ) -> Result<Resolved, NoMatch> {
        if let Some(s) = self.special(id) {
            return Err(NoMatch::Special(s));
        }
        let total = self.overload_count(id);
        // Every argument's conversion, and the first reason the candidate is not viable.
        let convs_for = |sig: &Signature| -> (Vec<Option<Conv>>, Option<NotViable>) {
            let params = sig.params();
            if args.len() < params.len() || (args.len() > params.len() && !sig.variadic) {
                let arity = NotViable::Arity {
                    expected: params.len(),
                    got: args.len(),
                    variadic: sig.variadic,
                };
                return (vec![None; args.len()], Some(arity));
            }
            let mut out = Vec::with_capacity(args.len());
            let mut bad = None;
            for (i, a) in args.iter().enumerate() {
                match params.get(i) {
                    Some(&p) => match resolve::convert(a, p) {
                        Ok(c) => out.push(Some(c)),
                        Err(why) => {
                            out.push(None);
                            bad = bad.or(Some(NotViable::Conversion { arg: i, to: p, why }));
                        }
                    },
                    None => out.push(None),
                }
            }
            (out, bad)
        };
        if total == 1
            && let Some(o) = self.overloads(id).next()
        {
            let sig = self.signature(o);
            let (convs, _) = convs_for(&sig);
            return Ok(Resolved {
                overload: o,
                sig,
                convs,
                overloaded: false,
            });
        }
        // An overload every argument matches exactly (no conversion at all) is better than any
        // other candidate, and no two overloads have the same parameter types.
        for o in self.overloads(id) {
            let Some(d) = self.decls(id).get(o.decl as usize) else {
                continue;
            };
            if d.variadic || d.params.len() != args.len() {
                continue;
            }
            let sig = self.signature(o);
            let convs: Option<Vec<Conv>> = args
                .iter()
                .zip(sig.params())
                .map(|(a, &p)| resolve::convert(a, p).ok().filter(|c| c.is_identity()))
                .collect();
            if let Some(convs) = convs {
                return Ok(Resolved {
                    overload: o,
                    sig,
                    convs: convs.into_iter().map(Some).collect(),
                    overloaded: true,
                });
            }
        }
        // Viable candidates with their conversions; the rest with the reason.
        let mut viable: Vec<(OverloadId, Signature, Vec<Conv>)> = Vec::new();
        let mut rejected: Vec<Candidate> = Vec::new();
        for o in self.overloads(id) {
            let sig = self.signature(o);
            match convs_for(&sig) {
                (c, None) => viable.push((o, sig, c.into_iter().flatten().collect())),
                (convs, Some(reason)) => {
                    // clang's TryToFixBadConversion: fixable only if every bad one is.
                    let mut fix = None;
                    if let NotViable::Conversion { .. } = reason {
                        for (i, (a, c)) in args.iter().zip(&convs).enumerate() {
                            if c.is_some() {
                                continue;
                            }
                            let f = sig
                                .params()
                                .get(i)
                                .and_then(|&p| resolve::conversion_fix(a, form(i), p));
                            match f {
                                Some(f) => fix = fix.or(Some(f)),
                                None => {
                                    fix = None;
                                    break;
                                }
                            }
                        }
                    }
                    rejected.push(Candidate {
                        overload: o,
                        sig,
                        reason,
                        convs,
                        fix,
                    })
                }
            }
        }
        let better = |a: &[Conv], b: &[Conv]| resolve::better_candidate(args, a, b);
        let mut best: Option<usize> = None;
        for (i, (_, _, c)) in viable.iter().enumerate() {
            match best {
                None => best = Some(i),
                Some(b) => {
                    if let Some((_, _, bc)) = viable.get(b)
                        && better(c, bc)
                    {
                        best = Some(i);
                    }
                }
            }
        }
        let Some(best) = best else {
            let n = args.len();
            stable_insertion_sort(&mut rejected, |l, r| display_before(args, n, l, r));
            return Err(NoMatch::NoViable(rejected));
        };
        // Every candidate not worse than a best one is tied with it (clang's closure).
        let mut tied = vec![false; viable.len()];
        if let Some(t) = tied.get_mut(best) {
            *t = true;
        }
        let mut pending = vec![best];
        let mut ambiguous = false;
        while let Some(cur) = pending.pop() {
            for j in 0..viable.len() {
                let (Some(cc), Some(cj)) = (viable.get(cur), viable.get(j)) else {
                    continue;
                };
                if !tied.get(j).copied().unwrap_or(true) && !better(&cc.2, &cj.2) {
                    if let Some(t) = tied.get_mut(j) {
                        *t = true;
                    }
                    pending.push(j);
                    ambiguous = true;
                }
            }
        }
        if ambiguous {
            let mut tied: Vec<&(OverloadId, Signature, Vec<Conv>)> = viable
                .iter()
                .zip(&tied)
                .filter(|(_, t)| **t)
                .map(|(v, _)| v)
                .collect();
            stable_insertion_sort(&mut tied, |l, r| {
                conversions_order(args, &l.2, &r.2) == std::cmp::Ordering::Less
            });
            return Err(NoMatch::Ambiguous(tied.iter().map(|v| v.0).collect()));
        }
        let (o, sig, convs) = viable.swap_remove(best);
        Ok(Resolved {
            overload: o,
            sig,
            convs: convs.into_iter().map(Some).collect(),
            overloaded: true,
        })
    }

    /// [`Builtins::resolve`] by name; `None` when `name` is not a builtin in this mode.
    pub fn resolve_name(&self, name: Symbol, args: &[Arg]) -> Option<Result<Resolved, NoMatch>> {
        Some(self.resolve(self.lookup(name)?, args))
    }
}

/// The OpenCL C version of a mode, for callers that gate on it.
pub fn version(lang: &LangOptions) -> ClStd {
    lang.std
}

/// A stable insertion sort that tolerates a comparison that is not a total order (clang's
/// display comparison is not), unlike `slice::sort_by`.
fn stable_insertion_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (v.get(j), v.get(j - 1)) else {
                break;
            };
            if !less(a, b) {
                break;
            }
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// clang's `CompareConversions`: which candidate converts more arguments better.
fn conversions_order<C: AsConv>(args: &[Arg], l: &[C], r: &[C]) -> std::cmp::Ordering {
    let mut left_better = 0i32;
    for ((a, x), y) in args.iter().zip(l).zip(r) {
        let c = match (x.conv(), y.conv()) {
            (Some(x), Some(y)) => resolve::compare(a, x, y),
            (Some(_), None) => Cmp::Better,
            (None, Some(_)) => Cmp::Worse,
            (None, None) => Cmp::Same,
        };
        match c {
            Cmp::Better => left_better += 1,
            Cmp::Worse => left_better -= 1,
            Cmp::Same => {}
        }
    }
    0.cmp(&left_better)
}

/// Conversions as stored for viable (`Conv`) and rejected (`Option<Conv>`) candidates.
trait AsConv {
    fn conv(&self) -> Option<&Conv>;
}

impl AsConv for Conv {
    fn conv(&self) -> Option<&Conv> {
        Some(self)
    }
}

impl AsConv for Option<Conv> {
    fn conv(&self) -> Option<&Conv> {
        self.as_ref()
    }
}

/// clang's `CompareOverloadCandidatesForDisplay` for non-viable builtin candidates: bad
/// conversions first, ordered by the quality of their conversions; arity mismatches last,
/// nearest arity first and too-many before too-few. Ties keep declaration order.
fn display_before(args: &[Arg], nargs: usize, l: &Candidate, r: &Candidate) -> bool {
    match (l.reason, r.reason) {
        (NotViable::Arity { expected: le, .. }, NotViable::Arity { expected: re, .. }) => {
            let (ld, rd) = (le.abs_diff(nargs), re.abs_diff(nargs));
            if ld != rd {
                return ld < rd;
            }
            nargs > le && nargs <= re
        }
        (NotViable::Arity { .. }, _) => false,
        (_, NotViable::Arity { .. }) => true,
        _ => {
            // Fewer fixes first; a candidate without a fix counts as unfixable (last).
            let fixes = |c: &Candidate| match c.fix {
                Some(_) => c.convs.iter().filter(|c| c.is_none()).count(),
                None => usize::MAX,
            };
            let (lf, rf) = (fixes(l), fixes(r));
            if lf != rf {
                return lf < rf;
            }
            conversions_order(args, &l.convs, &r.convs) == std::cmp::Ordering::Less
        }
    }
}
