//! Linking of separately compiled translation units, as a C linker does: each unit is a
//! [`Module`] plus the linkage of its functions and globals ([`Unit`]); [`link`] merges them
//! into one module, resolving every external declaration to the one definition of its name.
//!
//! - A declared but undefined function is a stub (a body of only `unreachable`, see
//!   [`Function::is_stub`]) marked undefined; calls of it become calls of the definition.
//! - An `extern` variable without a definition is a global marked undefined; its uses become
//!   uses of the definition.
//! - Internal (`static`) functions and variables, string literals and function-scope
//!   `static`s stay per unit: they are never matched by name, and are renamed
//!   (`name.N`, N the unit's index) when their name is already taken in the result.
//! - Two definitions of one external name are a "duplicate symbol" error, a declaration
//!   nothing defines an "undefined reference" (unless undefined symbols are allowed: a
//!   library, linked again later), a declaration whose type differs from the definition's a
//!   "conflicting types" error.

use std::collections::HashMap;
use std::fmt;

use oclc_syntax::Span;

use crate::ir::{BuiltinId, FuncId, Function, GlobalId, LocalId, Module, Op};

/// Whether a symbol is visible to other units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Resolves declarations of other units (a function or program-scope variable without
    /// `static`).
    External,
    /// Private to its unit (`static`, string literals, function-scope `static`s).
    Internal,
}

/// The linkage of one function or global of a [`Unit`], and whether the unit defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub linkage: Linkage,
    pub defined: bool,
}

impl Symbol {
    /// A definition with external linkage.
    pub const EXTERNAL: Symbol = Symbol {
        linkage: Linkage::External,
        defined: true,
    };
    /// A definition private to its unit.
    pub const INTERNAL: Symbol = Symbol {
        linkage: Linkage::Internal,
        defined: true,
    };
    /// A declaration another unit must define.
    pub const UNDEFINED: Symbol = Symbol {
        linkage: Linkage::External,
        defined: false,
    };
}

/// A compiled translation unit: its IR and the linkage of each function and global.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// The unit's name in link errors.
    pub name: String,
    pub module: Module,
    /// One entry per function of `module` (by [`FuncId`]); missing entries are external
    /// definitions.
    pub funcs: Vec<Symbol>,
    /// One entry per global of `module` (by [`GlobalId`]); missing entries are internal
    /// definitions.
    pub globals: Vec<Symbol>,
}

impl Unit {
    /// The symbol of function `f`.
    pub fn func_symbol(&self, f: FuncId) -> Symbol {
        self.funcs.get(f.index()).copied().unwrap_or(Symbol::EXTERNAL)
    }

    /// The symbol of global `g`.
    pub fn global_symbol(&self, g: GlobalId) -> Symbol {
        self.globals.get(g.index()).copied().unwrap_or(Symbol::INTERNAL)
    }

    /// Names of the external symbols the unit declares but does not define.
    pub fn undefined(&self) -> Vec<&str> {
        let funcs = self.module.functions.iter().enumerate().filter_map(|(i, f)| {
            (!self.func_symbol(FuncId(i as u32)).defined).then_some(f.name.as_str())
        });
        let globals = self.module.globals.iter().enumerate().filter_map(|(i, g)| {
            (!self.global_symbol(GlobalId(i as u32)).defined).then_some(g.name.as_str())
        });
        funcs.chain(globals).collect()
    }
}

/// Why units do not link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Two units define the external symbol `name`.
    Duplicate {
        name: String,
        first: String,
        second: String,
    },
    /// Unit `unit` uses `name`, which no unit defines.
    Undefined { name: String, unit: String },
    /// Unit `unit` declares `name` with another type (or kind) than its definition in `def`.
    Conflict {
        name: String,
        unit: String,
        def: String,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Duplicate {
                name,
                first,
                second,
            } => write!(f, "duplicate symbol '{name}' in '{first}' and '{second}'"),
            LinkError::Undefined { name, unit } => {
                write!(f, "undefined reference to '{name}' in '{unit}'")
            }
            LinkError::Conflict { name, unit, def } => write!(
                f,
                "conflicting types for '{name}': declared in '{unit}' unlike its definition in '{def}'"
            ),
        }
    }
}

/// Where an external name is defined: a function or a global of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Def {
    Func(usize, FuncId),
    Global(usize, GlobalId),
}

/// Whether declaration `decl` may call definition `def`: the same parameter and result types.
fn same_signature(decl: &Function, def: &Function) -> bool {
    decl.ret == def.ret
        && decl.params.len() == def.params.len()
        && decl.params.iter().zip(&def.params).all(|(a, b)| a.ty == b.ty)
}

/// `n`, or `n.U` (`n.U.K`) when that is taken: a free name for an internal symbol of unit `u`.
fn fresh(n: &str, u: usize, taken: &mut std::collections::HashSet<String>) -> String {
    let mut name = n.to_string();
    let mut k = 0usize;
    while taken.contains(&name) {
        name = if k == 0 {
            format!("{n}.{u}")
        } else {
            format!("{n}.{u}.{k}")
        };
        k += 1;
    }
    taken.insert(name.clone());
    name
}

/// Links `units` (in order: their kernels and functions keep it) into one unit named `name`.
/// `shift(u, span)` moves a span of unit `u` into the source map the result is reported
/// from. With `allow_undefined` (a library), declarations nothing defines stay undefined in
/// the result; otherwise each is an error. All errors are returned, in unit order.
pub fn link(
    units: &[Unit],
    name: &str,
    shift: &dyn Fn(usize, Span) -> Span,
    allow_undefined: bool,
) -> Result<Unit, Vec<LinkError>> {
    let mut errors = Vec::new();
    // Definitions of external names.
    let mut defs: HashMap<&str, Def> = HashMap::new();
    for (u, unit) in units.iter().enumerate() {
        let funcs = unit.module.functions.iter().enumerate().filter_map(|(i, f)| {
            let id = FuncId(i as u32);
            (unit.func_symbol(id) == Symbol::EXTERNAL).then_some((f.name.as_str(), Def::Func(u, id)))
        });
        let globals = unit.module.globals.iter().enumerate().filter_map(|(i, g)| {
            let id = GlobalId(i as u32);
            (unit.global_symbol(id) == Symbol::EXTERNAL)
                .then_some((g.name.as_str(), Def::Global(u, id)))
        });
        for (n, d) in funcs.chain(globals).collect::<Vec<_>>() {
            match defs.get(n) {
                Some(&prev) => {
                    let (Def::Func(pu, _) | Def::Global(pu, _)) = prev;
                    errors.push(LinkError::Duplicate {
                        name: n.to_string(),
                        first: units[pu].name.clone(),
                        second: unit.name.clone(),
                    });
                }
                None => {
                    defs.insert(n, d);
                }
            }
        }
    }

    let mut out = Unit {
        name: name.to_string(),
        ..Unit::default()
    };
    // Names taken in the result, for renaming internal symbols.
    let mut taken: std::collections::HashSet<String> = defs.keys().map(|s| s.to_string()).collect();

    // New ids of every unit's definitions (placeholders until resolved).
    let mut fmap: Vec<Vec<Option<FuncId>>> = Vec::new();
    let mut gmap: Vec<Vec<Option<GlobalId>>> = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        let mut fm = vec![None; unit.module.functions.len()];
        for (i, f) in unit.module.functions.iter().enumerate() {
            let sym = unit.func_symbol(FuncId(i as u32));
            if !sym.defined {
                continue;
            }
            let mut g = Function::placeholder(shift(u, f.span));
            g.name = match sym.linkage {
                Linkage::External => f.name.clone(),
                Linkage::Internal => fresh(&f.name, u, &mut taken),
            };
            fm[i] = Some(out.module.add_function(g));
            out.funcs.push(sym);
        }
        fmap.push(fm);
        let mut gm = vec![None; unit.module.globals.len()];
        for (i, g) in unit.module.globals.iter().enumerate() {
            let sym = unit.global_symbol(GlobalId(i as u32));
            if !sym.defined {
                continue;
            }
            let mut ng = g.clone();
            ng.span = shift(u, g.span);
            if sym.linkage == Linkage::Internal {
                ng.name = fresh(&g.name, u, &mut taken);
            }
            gm[i] = Some(out.module.add_global(ng));
            out.globals.push(sym);
        }
        gmap.push(gm);
    }

    // Declarations resolve to definitions (or stay undefined in a library, once per name).
    let mut kept: HashMap<String, Def> = HashMap::new();
    for (u, unit) in units.iter().enumerate() {
        for (i, f) in unit.module.functions.iter().enumerate() {
            if unit.func_symbol(FuncId(i as u32)).defined {
                continue;
            }
            match defs.get(f.name.as_str()) {
                Some(&Def::Func(du, df)) => {
                    let def = &units[du].module.functions[df.index()];
                    if !same_signature(f, def) {
                        errors.push(LinkError::Conflict {
                            name: f.name.clone(),
                            unit: unit.name.clone(),
                            def: units[du].name.clone(),
                        });
                    }
                    fmap[u][i] = fmap[du][df.index()];
                }
                Some(&Def::Global(du, _)) => errors.push(LinkError::Conflict {
                    name: f.name.clone(),
                    unit: unit.name.clone(),
                    def: units[du].name.clone(),
                }),
                None if allow_undefined => {
                    if let Some(&Def::Func(_, k)) = kept.get(&f.name) {
                        fmap[u][i] = Some(k);
                        continue;
                    }
                    let mut stub = f.clone();
                    stub.span = shift(u, f.span);
                    for d in &mut stub.insts {
                        d.span = shift(u, d.span);
                    }
                    let id = out.module.add_function(stub);
                    out.funcs.push(Symbol::UNDEFINED);
                    kept.insert(f.name.clone(), Def::Func(u, id));
                    fmap[u][i] = Some(id);
                }
                None => errors.push(LinkError::Undefined {
                    name: f.name.clone(),
                    unit: unit.name.clone(),
                }),
            }
        }
        for (i, g) in unit.module.globals.iter().enumerate() {
            if unit.global_symbol(GlobalId(i as u32)).defined {
                continue;
            }
            match defs.get(g.name.as_str()) {
                Some(&Def::Global(du, dg)) => {
                    let def = &units[du].module.globals[dg.index()];
                    // An `extern int a[];` has size 0: any definition's size will do.
                    if def.space != g.space || (g.size != 0 && g.size != def.size) {
                        errors.push(LinkError::Conflict {
                            name: g.name.clone(),
                            unit: unit.name.clone(),
                            def: units[du].name.clone(),
                        });
                    }
                    gmap[u][i] = gmap[du][dg.index()];
                }
                Some(&Def::Func(du, _)) => errors.push(LinkError::Conflict {
                    name: g.name.clone(),
                    unit: unit.name.clone(),
                    def: units[du].name.clone(),
                }),
                None if allow_undefined => {
                    if let Some(&Def::Global(_, k)) = kept.get(&g.name) {
                        gmap[u][i] = Some(k);
                        continue;
                    }
                    let mut ng = g.clone();
                    ng.span = shift(u, g.span);
                    let id = out.module.add_global(ng);
                    out.globals.push(Symbol::UNDEFINED);
                    kept.insert(g.name.clone(), Def::Global(u, id));
                    gmap[u][i] = Some(id);
                }
                None => errors.push(LinkError::Undefined {
                    name: g.name.clone(),
                    unit: unit.name.clone(),
                }),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Bodies, locals, builtins and relocations with the new ids. Every id of a unit is mapped
    // now (an unmapped one would be an error returned above); a dangling one is left as is
    // and the verifier reports it.
    for (u, unit) in units.iter().enumerate() {
        let lbase = out.module.locals.len() as u32;
        for l in &unit.module.locals {
            let mut nl = l.clone();
            nl.span = shift(u, l.span);
            nl.kernel = fmap[u].get(l.kernel.index()).copied().flatten().unwrap_or(l.kernel);
            out.module.add_local(nl);
        }
        let bmap: Vec<BuiltinId> = unit
            .module
            .builtins
            .iter()
            .map(|b| out.module.builtin(b.clone()))
            .collect();
        for (i, g) in unit.module.globals.iter().enumerate() {
            let (Some(Some(id)), true) = (gmap[u].get(i), unit.global_symbol(GlobalId(i as u32)).defined) else {
                continue;
            };
            let relocs = g
                .relocs
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.target = gmap[u].get(r.target.index()).copied().flatten().unwrap_or(r.target);
                    r
                })
                .collect();
            if let Some(ng) = out.module.globals.get_mut(id.index()) {
                ng.relocs = relocs;
            }
        }
        for (i, f) in unit.module.functions.iter().enumerate() {
            if !unit.func_symbol(FuncId(i as u32)).defined {
                continue;
            }
            let Some(Some(id)) = fmap[u].get(i).copied() else {
                continue;
            };
            let mut nf = f.clone();
            nf.span = shift(u, f.span);
            for d in &mut nf.insts {
                d.span = shift(u, d.span);
                match &mut d.op {
                    Op::Call(c, _) => {
                        *c = fmap[u].get(c.index()).copied().flatten().unwrap_or(*c);
                    }
                    Op::GlobalAddr(g) => {
                        *g = gmap[u].get(g.index()).copied().flatten().unwrap_or(*g);
                    }
                    Op::LocalAddr(l) => *l = LocalId(l.0 + lbase),
                    Op::CallBuiltin(b, _) => {
                        *b = bmap.get(b.index()).copied().unwrap_or(*b);
                    }
                    _ => {}
                }
            }
            if let Some(slot) = out.module.functions.get_mut(id.index()) {
                nf.name = std::mem::take(&mut slot.name);
                *slot = nf;
            }
        }
    }
    Ok(out)
}
