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
//! - `inline` (not `static`) definitions are C99 inline definitions: several units may have
//!   one (from a shared header); the first is kept, and a non-inline definition wins.
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
    /// A C99 inline definition (`inline`, not `static`): several units may define it (from
    /// one header); the link keeps one, and a unit's non-inline definition wins over them.
    Inline,
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
    /// An inline definition (see [`Linkage::Inline`]).
    pub const INLINE: Symbol = Symbol {
        linkage: Linkage::Inline,
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
        self.funcs
            .get(f.index())
            .copied()
            .unwrap_or(Symbol::EXTERNAL)
    }

    /// The symbol of global `g`.
    pub fn global_symbol(&self, g: GlobalId) -> Symbol {
        self.globals
            .get(g.index())
            .copied()
            .unwrap_or(Symbol::INTERNAL)
    }

    /// Names of the external symbols the unit declares but does not define.
    pub fn undefined(&self) -> Vec<&str> {
        let funcs = self
            .module
            .functions
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
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
        && decl
            .params
            .iter()
            .zip(&def.params)
            .all(|(a, b)| a.ty == b.ty)
}

/// What a function definition is found by: its name and IR signature (overloadable
/// functions share a name).
fn func_key(f: &Function) -> String {
    let params: Vec<_> = f.params.iter().map(|p| p.ty).collect();
    format!("{}{params:?}->{:?}", f.name, f.ret)
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
    // Definitions of external names (the first inline one, unless a unit defines it
    // without `inline`).
    let mut defs: HashMap<String, (Def, bool)> = HashMap::new();
    // The first definition of each name, whatever its type (for "conflicting types").
    let mut by_name: HashMap<&str, Def> = HashMap::new();
    for (u, unit) in units.iter().enumerate() {
        let funcs = unit
            .module
            .functions
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let id = FuncId(i as u32);
                let s = unit.func_symbol(id);
                (s.defined && s.linkage != Linkage::Internal).then_some((
                    f.name.as_str(),
                    func_key(f),
                    Def::Func(u, id),
                    s.linkage == Linkage::Inline,
                ))
            });
        let globals = unit.module.globals.iter().enumerate().filter_map(|(i, g)| {
            let id = GlobalId(i as u32);
            (unit.global_symbol(id) == Symbol::EXTERNAL).then_some((
                g.name.as_str(),
                g.name.clone(),
                Def::Global(u, id),
                false,
            ))
        });
        for (n, key, d, inline) in funcs.chain(globals).collect::<Vec<_>>() {
            by_name.entry(n).or_insert(d);
            match defs.get(&key) {
                Some(&(_, true)) if !inline => {
                    defs.insert(key, (d, false));
                }
                Some(_) if inline => {}
                Some(&(prev, _)) => {
                    let (Def::Func(pu, _) | Def::Global(pu, _)) = prev;
                    errors.push(LinkError::Duplicate {
                        name: n.to_string(),
                        first: units[pu].name.clone(),
                        second: unit.name.clone(),
                    });
                }
                None => {
                    defs.insert(key, (d, inline));
                }
            }
        }
    }
    let defs: HashMap<String, Def> = defs.into_iter().map(|(n, (d, _))| (n, d)).collect();
    // Whether function `f` of unit `u` is placed in the result (an inline definition that
    // was not kept resolves like a declaration).
    let placed = |u: usize, f: FuncId| -> bool {
        let s = units[u].func_symbol(f);
        match s.linkage {
            _ if !s.defined => false,
            Linkage::Inline => {
                defs.get(&func_key(&units[u].module.functions[f.index()])) == Some(&Def::Func(u, f))
            }
            _ => true,
        }
    };

    let mut out = Unit {
        name: name.to_string(),
        ..Unit::default()
    };
    // Names taken in the result, for renaming internal symbols.
    let mut taken: std::collections::HashSet<String> =
        by_name.keys().map(|s| s.to_string()).collect();

    // New ids of every unit's definitions (placeholders until resolved).
    let mut fmap: Vec<Vec<Option<FuncId>>> = Vec::new();
    let mut gmap: Vec<Vec<Option<GlobalId>>> = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        let mut fm = vec![None; unit.module.functions.len()];
        for (i, f) in unit.module.functions.iter().enumerate() {
            let sym = unit.func_symbol(FuncId(i as u32));
            if !placed(u, FuncId(i as u32)) {
                continue;
            }
            let mut g = Function::placeholder(shift(u, f.span));
            g.name = match sym.linkage {
                Linkage::External | Linkage::Inline => f.name.clone(),
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
            if placed(u, FuncId(i as u32)) {
                continue;
            }
            let def = defs
                .get(&func_key(f))
                .or_else(|| by_name.get(f.name.as_str()));
            match def {
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
                    if let Some(&Def::Func(_, k)) = kept.get(&func_key(f)) {
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
                    kept.insert(func_key(f), Def::Func(u, id));
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
            let def = defs.get(&g.name).or_else(|| by_name.get(g.name.as_str()));
            match def {
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
            nl.kernel = fmap[u]
                .get(l.kernel.index())
                .copied()
                .flatten()
                .unwrap_or(l.kernel);
            out.module.add_local(nl);
        }
        let bmap: Vec<BuiltinId> = unit
            .module
            .builtins
            .iter()
            .map(|b| out.module.builtin(b.clone()))
            .collect();
        for (i, g) in unit.module.globals.iter().enumerate() {
            let (Some(Some(id)), true) = (
                gmap[u].get(i),
                unit.global_symbol(GlobalId(i as u32)).defined,
            ) else {
                continue;
            };
            let relocs = g
                .relocs
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.target = gmap[u]
                        .get(r.target.index())
                        .copied()
                        .flatten()
                        .unwrap_or(r.target);
                    r
                })
                .collect();
            if let Some(ng) = out.module.globals.get_mut(id.index()) {
                ng.relocs = relocs;
            }
        }
        for (i, f) in unit.module.functions.iter().enumerate() {
            if !placed(u, FuncId(i as u32)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, GlobalVar};
    use crate::types::{AddrSpace, Scalar, Type};

    const I32: Type = Type::Scalar(Scalar::I32);

    /// A function `name` returning the i32 7; a stub (declaration) when `stub`.
    fn func(name: &str, stub: bool) -> Function {
        let mut f = Function::new(name, Vec::new(), Some(I32), Span::DUMMY);
        if stub {
            f.push_inst(Block(0), Op::Unreachable, None, Span::DUMMY);
            return f;
        }
        let seven = Op::Const(crate::ir::Const::Int(7));
        let v = f.push_inst(Block(0), seven, Some(I32), Span::DUMMY).1;
        f.push_inst(Block(0), Op::Ret(v), None, Span::DUMMY);
        f
    }

    fn global(name: &str, size: u64) -> GlobalVar {
        GlobalVar {
            name: name.into(),
            space: AddrSpace::Global,
            size,
            align: 4,
            init: vec![1, 0, 0, 0],
            relocs: Vec::new(),
            span: Span::DUMMY,
        }
    }

    /// Unit `name`: `user` calls `callee` (declared, index 1) and reads global 0.
    fn caller_unit(name: &str, callee: &str) -> Unit {
        let mut m = Module::new();
        let mut user = Function::new("user", Vec::new(), Some(I32), Span::DUMMY);
        let v = user
            .push_inst(
                Block(0),
                Op::Call(FuncId(1), Vec::new()),
                Some(I32),
                Span::DUMMY,
            )
            .1;
        let p = Some(Type::Ptr(AddrSpace::Global));
        user.push_inst(Block(0), Op::GlobalAddr(GlobalId(0)), p, Span::DUMMY);
        user.push_inst(Block(0), Op::Ret(v), None, Span::DUMMY);
        m.add_function(user);
        m.add_function(func(callee, true));
        m.add_global(global("counter", 4));
        Unit {
            name: name.into(),
            module: m,
            funcs: vec![Symbol::EXTERNAL, Symbol::UNDEFINED],
            globals: vec![Symbol::UNDEFINED],
        }
    }

    /// Unit `name` defining `f` (with `sym`'s linkage) and the global `counter`.
    fn def_unit(name: &str, f: &str, sym: Symbol) -> Unit {
        let mut m = Module::new();
        m.add_function(func(f, false));
        m.add_global(global("counter", 4));
        Unit {
            name: name.into(),
            module: m,
            funcs: vec![sym],
            globals: vec![Symbol::EXTERNAL],
        }
    }

    fn no_shift(_: usize, s: Span) -> Span {
        s
    }

    #[test]
    fn declarations_resolve_to_the_definition_of_another_unit() {
        let units = [
            caller_unit("a", "helper"),
            def_unit("b", "helper", Symbol::EXTERNAL),
        ];
        let out = link(&units, "ab", &no_shift, false).expect("links");
        let names: Vec<&str> = out
            .module
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(names, ["user", "helper"]);
        assert_eq!(out.module.globals.len(), 1);
        let user = &out.module.functions[0];
        assert!(matches!(user.insts[0].op, Op::Call(FuncId(1), _)));
        assert!(matches!(user.insts[1].op, Op::GlobalAddr(GlobalId(0))));
        assert!(!out.module.functions[1].is_stub());
        crate::verify_module(&out.module).expect("valid IR");
        assert!(out.undefined().is_empty());
    }

    #[test]
    fn two_definitions_are_a_duplicate_symbol_and_a_lone_declaration_undefined() {
        let units = [
            def_unit("a", "f", Symbol::EXTERNAL),
            def_unit("b", "f", Symbol::EXTERNAL),
        ];
        let errs = link(&units, "x", &no_shift, false).expect_err("duplicates");
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "duplicate symbol 'f' in 'a' and 'b'",
                "duplicate symbol 'counter' in 'a' and 'b'"
            ]
        );
        let errs = link(&[caller_unit("a", "g")], "x", &no_shift, false).expect_err("undefined");
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "undefined reference to 'g' in 'a'",
                "undefined reference to 'counter' in 'a'"
            ]
        );
    }

    #[test]
    fn internal_symbols_stay_per_unit_and_are_renamed_on_a_clash() {
        let mut a = def_unit("a", "helper", Symbol::INTERNAL);
        a.globals = vec![Symbol::INTERNAL];
        let mut b = def_unit("b", "helper", Symbol::INTERNAL);
        b.globals = vec![Symbol::INTERNAL];
        let out = link(&[a, b], "ab", &no_shift, false).expect("links");
        let names: Vec<&str> = out
            .module
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(names, ["helper", "helper.1"]);
        let globals: Vec<&str> = out.module.globals.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(globals, ["counter", "counter.1"]);
    }

    #[test]
    fn a_library_keeps_undefined_symbols_for_a_later_link() {
        let lib = link(&[caller_unit("a", "helper")], "lib", &no_shift, true).expect("library");
        assert_eq!(lib.undefined(), ["helper", "counter"]);
        let out = link(
            &[lib, def_unit("b", "helper", Symbol::EXTERNAL)],
            "exe",
            &no_shift,
            false,
        )
        .expect("links");
        assert_eq!(out.module.functions.len(), 2);
        assert!(out.undefined().is_empty());
        assert!(matches!(
            out.module.functions[0].insts[0].op,
            Op::Call(FuncId(1), _)
        ));
    }

    #[test]
    fn inline_definitions_merge_and_a_plain_definition_wins() {
        let units = [def_unit("a", "sq", Symbol::INLINE), {
            let mut u = def_unit("b", "sq", Symbol::INLINE);
            u.globals = vec![Symbol::INTERNAL];
            u
        }];
        let out = link(&units, "ab", &no_shift, false).expect("inline definitions merge");
        assert_eq!(out.module.functions.len(), 1);
        let mut c = def_unit("c", "sq", Symbol::EXTERNAL);
        c.globals = vec![Symbol::INTERNAL];
        let mut a = def_unit("a", "sq", Symbol::INLINE);
        a.globals = vec![Symbol::INTERNAL];
        let out = link(&[a, c], "ac", &no_shift, false).expect("links");
        assert_eq!(out.module.functions.len(), 1);
        assert_eq!(out.funcs, [Symbol::EXTERNAL]);
    }

    #[test]
    fn overloads_of_one_name_are_two_symbols() {
        let mut a = def_unit("a", "f", Symbol::EXTERNAL);
        let mut g = func("f", false);
        g.params.push(crate::ir::Param {
            name: "x".into(),
            ty: I32,
            kind: crate::ir::ParamKind::Value,
            c_type: "int".into(),
        });
        a.module.add_function(g);
        a.funcs.push(Symbol::EXTERNAL);
        let out = link(&[a], "a", &no_shift, false).expect("overloads link");
        assert_eq!(out.module.functions.len(), 2);
    }

    #[test]
    fn a_declaration_of_another_type_conflicts() {
        let mut b = def_unit("b", "helper", Symbol::EXTERNAL);
        b.module.functions[0].ret = Some(Type::Scalar(Scalar::F32));
        let errs =
            link(&[caller_unit("a", "helper"), b], "x", &no_shift, false).expect_err("conflict");
        assert_eq!(
            errs[0].to_string(),
            "conflicting types for 'helper': declared in 'a' unlike its definition in 'b'"
        );
    }

    #[test]
    fn spans_move_into_the_combined_source_map() {
        let mut b = def_unit("b", "helper", Symbol::EXTERNAL);
        let s = Span::new(oclc_syntax::FileId(0), 3, 5);
        b.module.functions[0].insts[0].span = s;
        let shift = |u: usize, sp: Span| {
            if sp.is_dummy() {
                return sp;
            }
            Span::new(oclc_syntax::FileId(sp.file.0 + 10 * u as u32), sp.lo, sp.hi)
        };
        let out = link(&[caller_unit("a", "helper"), b], "ab", &shift, false).expect("links");
        assert_eq!(
            out.module.functions[1].insts[0].span.file,
            oclc_syntax::FileId(10)
        );
    }
}
