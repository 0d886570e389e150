//! Module-level lowering: functions and their signatures, program-scope and `static`
//! variables with their initial bytes, string literals, kernel-scope `__local` variables.

use crate::FxHashMap;
use rayon::prelude::*;

use oclc_ir::{
    AddrSpace, BuiltinId, FuncId, Function, GlobalId, GlobalVar, KernelInfo, LocalId, LocalVar,
    Module, Op, Param, ParamKind, Type,
};
use oclc_sema::hir::{self, Program, Storage, VarId};
use oclc_sema::types::{QualType, TypeTable};
use oclc_syntax::{Diagnostic, Diagnostics, Span, Symbol};

use crate::constant::Image;
use crate::ty::{self, Shape};

/// How a function's C signature maps onto IR parameters.
#[derive(Clone, Debug)]
pub struct FnAbi {
    /// The function returns a struct/union through a hidden first private pointer.
    pub sret: bool,
    pub ret: Option<Type>,
}

/// State shared by the lowering of every function of one program.
pub struct Ctx<'a> {
    pub prog: &'a Program,
    pub types: &'a TypeTable,
    pub diags: &'a mut Diagnostics,
    pub m: Module,
    /// The IR function of each HIR function (declarations resolve to the definition).
    pub funcs: Vec<Option<FuncId>>,
    pub abi: Vec<FnAbi>,
    pub globals: FxHashMap<VarId, GlobalId>,
    pub locals: FxHashMap<VarId, LocalId>,
    strings: FxHashMap<Vec<u8>, GlobalId>,
    pub errors: bool,
    /// The declared functions, while they are out of `m` for parallel lowering.
    decls: Option<&'a [Function]>,
    /// Numbers of globals, locals and builtins `m` started with (a batch's are its parent's).
    bases: (usize, usize, usize),
}

/// Definitions from which declaring them is split across threads (runs of half as many).
const PARALLEL_DECLS: usize = 512;

/// What lowering a run of bodies in parallel produced (see [`Ctx::batch`]).
pub struct Batch {
    /// Scratch module: the parent's globals, locals and builtins, then the new ones.
    m: Module,
    bases: (usize, usize, usize),
    strings: FxHashMap<Vec<u8>, GlobalId>,
    locals: FxHashMap<VarId, LocalId>,
    errors: bool,
    diags: Vec<Diagnostic>,
    funcs: Vec<(FuncId, Function)>,
}

impl<'a> Ctx<'a> {
    pub fn new(prog: &'a Program, diags: &'a mut Diagnostics) -> Ctx<'a> {
        Ctx {
            prog,
            types: &prog.types,
            diags,
            m: Module::new(),
            funcs: vec![None; prog.functions.len()],
            abi: Vec::new(),
            globals: FxHashMap::default(),
            locals: FxHashMap::default(),
            strings: FxHashMap::default(),
            errors: false,
            decls: None,
            bases: (0, 0, 0),
        }
    }

    /// The declared function `id` (only its signature is meant to be read).
    pub fn function(&self, id: FuncId) -> Option<&Function> {
        match self.decls {
            Some(d) => d.get(id.index()),
            None => self.m.function(id),
        }
    }

    /// A context for lowering bodies on another thread: it shares this one's declarations
    /// and adds strings, `__local` variables, builtins and diagnostics to its own scratch
    /// module, which [`Ctx::absorb`] merges back.
    pub fn batch<'b>(&'b self, diags: &'b mut Diagnostics, decls: &'b [Function]) -> Ctx<'b> {
        Ctx {
            prog: self.prog,
            types: self.types,
            diags,
            m: Module {
                functions: Vec::new(),
                globals: self.m.globals.clone(),
                locals: self.m.locals.clone(),
                builtins: self.m.builtins.clone(),
            },
            funcs: self.funcs.clone(),
            abi: self.abi.clone(),
            globals: self.globals.clone(),
            locals: self.locals.clone(),
            strings: self.strings.clone(),
            errors: false,
            decls: Some(decls),
            bases: (
                self.m.globals.len(),
                self.m.locals.len(),
                self.m.builtins.len(),
            ),
        }
    }

    /// Ends a [`Ctx::batch`] context: its scratch state, the diagnostics it reported and the
    /// functions it lowered.
    pub fn into_batch(self, funcs: Vec<(FuncId, Function)>) -> Batch {
        let diags = std::mem::take(&mut self.diags.list);
        Batch {
            bases: self.bases,
            m: self.m,
            strings: self.strings,
            locals: self.locals,
            errors: self.errors,
            diags,
            funcs,
        }
    }

    /// Merges a batch (batches in the order of their bodies): new strings, `__local`
    /// variables and builtins get the ids they get when bodies are lowered one by one, and
    /// the batch's functions are renumbered to them.
    pub fn absorb(&mut self, b: Batch) {
        self.diags.list.extend(b.diags);
        self.errors |= b.errors;
        let (g0, l0, b0) = b.bases;
        let mut string_of: FxHashMap<GlobalId, &[u8]> = FxHashMap::default();
        for (bytes, g) in &b.strings {
            string_of.insert(*g, bytes);
        }
        let mut gmap = Vec::new();
        for (k, gv) in b.m.globals.iter().enumerate().skip(g0) {
            let g = GlobalId(k as u32);
            gmap.push(match string_of.get(&g) {
                Some(bytes) => self.string_literal(bytes, gv.span),
                None => self.m.add_global(gv.clone()),
            });
        }
        let mut var_of: FxHashMap<LocalId, VarId> = FxHashMap::default();
        for (v, l) in &b.locals {
            var_of.insert(*l, *v);
        }
        let mut lmap = Vec::new();
        for (k, lv) in b.m.locals.iter().enumerate().skip(l0) {
            let var = var_of.get(&LocalId(k as u32)).copied();
            let existing = var.and_then(|v| self.locals.get(&v).copied());
            lmap.push(match existing {
                Some(l) => l,
                None => {
                    let l = self.m.add_local(lv.clone());
                    if let Some(v) = var {
                        self.locals.insert(v, l);
                    }
                    l
                }
            });
        }
        let bmap: Vec<BuiltinId> =
            b.m.builtins
                .iter()
                .skip(b0)
                .map(|d| self.m.builtin(d.clone()))
                .collect();
        for (id, mut f) in b.funcs {
            for d in &mut f.insts {
                match &mut d.op {
                    Op::GlobalAddr(g) if g.index() >= g0 => {
                        if let Some(n) = gmap.get(g.index() - g0) {
                            *g = *n;
                        }
                    }
                    Op::LocalAddr(l) if l.index() >= l0 => {
                        if let Some(n) = lmap.get(l.index() - l0) {
                            *l = *n;
                        }
                    }
                    Op::CallBuiltin(x, _) if x.index() >= b0 => {
                        if let Some(n) = bmap.get(x.index() - b0) {
                            *x = *n;
                        }
                    }
                    _ => {}
                }
            }
            if let Some(slot) = self.m.functions.get_mut(id.index()) {
                *slot = f;
            }
        }
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.errors = true;
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Declares every defined function (so calls can name any of them) and resolves
    /// declarations to definitions: by name and type, else by name.
    pub fn declare_functions(&mut self) {
        let prog = self.prog;
        // Every definition declares a function, in program order; sema accepts several of one
        // name only as overloads (`__attribute__((overloadable))`), which differ in type.
        let mut first: FxHashMap<Symbol, usize> = FxHashMap::default();
        let mut by_type: FxHashMap<(Symbol, QualType), usize> = FxHashMap::default();
        let mut defs: Vec<usize> = Vec::new();
        for (i, f) in prog.functions.iter().enumerate() {
            if f.body.is_some() {
                let canon = prog.types.canonical(QualType::new(f.ty));
                first.entry(f.name).or_insert(defs.len());
                by_type.entry((f.name, canon)).or_insert(defs.len());
                defs.push(i);
            }
        }
        // Declarations are independent: large programs build them in parallel (each run with
        // its own cache of printed parameter types), added in order.
        let this = &*self;
        let declare_run = |run: &[usize]| -> Vec<(Function, FnAbi)> {
            let mut printed = FxHashMap::default();
            run.iter()
                .map(|&i| this.declaration(&prog.functions[i], &mut printed))
                .collect()
        };
        let built: Vec<(Function, FnAbi)> = if defs.len() < PARALLEL_DECLS {
            declare_run(&defs)
        } else {
            let runs: Vec<Vec<(Function, FnAbi)>> = oclc_ir::par::install(|| {
                defs.par_chunks(PARALLEL_DECLS / 2)
                    .map(declare_run)
                    .collect()
            });
            runs.into_iter().flatten().collect()
        };
        let mut ids = Vec::with_capacity(defs.len());
        for ((irf, abi), &i) in built.into_iter().zip(&defs) {
            let id = self.m.add_function(irf);
            self.abi.push(abi);
            self.funcs[i] = Some(id);
            ids.push(id);
        }
        for (i, f) in prog.functions.iter().enumerate() {
            if self.funcs[i].is_none() {
                let canon = prog.types.canonical(QualType::new(f.ty));
                self.funcs[i] = by_type
                    .get(&(f.name, canon))
                    .or_else(|| first.get(&f.name))
                    .and_then(|&k| ids.get(k))
                    .copied();
            }
        }
    }

    /// Declares, as stubs (a body of only `unreachable`) after the definitions, the functions
    /// this unit declares but does not define and that are not `static` (`extern kernel`s
    /// included): another unit defines them ([`crate::lower_unit`]); calls of them resolve at link.
    pub fn declare_external_functions(&mut self) {
        let prog = self.prog;
        // One stub per name and type (overloadable functions share a name).
        let mut by_name: FxHashMap<(Symbol, QualType), FuncId> = FxHashMap::default();
        let mut printed = FxHashMap::default();
        for (i, f) in prog.functions.iter().enumerate() {
            if self.funcs[i].is_some()
                || f.body.is_some()
                || prog.static_functions.contains(&hir::FuncId(i as u32))
            {
                continue;
            }
            let key = (f.name, prog.types.canonical(QualType::new(f.ty)));
            if let Some(id) = by_name.get(&key) {
                self.funcs[i] = Some(*id);
                continue;
            }
            let (mut irf, abi) = self.declaration(f, &mut printed);
            // An `extern kernel` declaration: the stub is only what calls target.
            irf.kernel = None;
            let span = irf.span;
            irf.push_inst(oclc_ir::Block(0), Op::Unreachable, None, span);
            let id = self.m.add_function(irf);
            self.abi.push(abi);
            self.funcs[i] = Some(id);
            by_name.insert(key, id);
        }
    }

    /// The IR declaration (signature, empty entry block) of the definition `f`.
    fn declaration(
        &self,
        f: &hir::Function,
        printed: &mut FxHashMap<QualType, String>,
    ) -> (Function, FnAbi) {
        let (params, abi) = self.signature(f, printed);
        let mut irf = Function::new(f.name.as_str(), params, abi.ret, f.span);
        if f.is_kernel {
            irf.kernel = Some(KernelInfo {
                reqd_work_group_size: f.reqd_work_group_size.map(|[x, y, z]| {
                    [
                        u32::try_from(x).unwrap_or(u32::MAX),
                        u32::try_from(y).unwrap_or(u32::MAX),
                        u32::try_from(z).unwrap_or(u32::MAX),
                    ]
                }),
            });
        }
        (irf, abi)
    }

    /// IR parameters and return convention of a function.
    fn signature(
        &self,
        f: &hir::Function,
        printed: &mut FxHashMap<QualType, String>,
    ) -> (Vec<Param>, FnAbi) {
        let types = self.types;
        let mut print = |qt: QualType| printed.entry(qt).or_insert_with(|| types.print(qt)).clone();
        let types = self.types;
        let mut params = Vec::new();
        let (sret, ret) = match ty::shape(types, f.ret) {
            Shape::Value(t) => (false, Some(t)),
            Shape::Aggregate => (true, None),
            Shape::Void => (false, None),
        };
        if sret {
            params.push(Param {
                name: ".sret".into(),
                ty: Type::Ptr(AddrSpace::Private),
                kind: ParamKind::Value,
                c_type: print(f.ret),
            });
        }
        for p in &f.params {
            let Some(v) = self.prog.var(*p) else { continue };
            let c_type = print(v.ty.with_space(None));
            let (ty, kind) = match ty::shape(types, v.ty) {
                Shape::Value(t @ Type::Ptr(s)) if f.is_kernel => (t, ParamKind::Buffer(s)),
                Shape::Value(t) => (t, ParamKind::Value),
                Shape::Aggregate if f.is_kernel => (
                    Type::Ptr(AddrSpace::Private),
                    ParamKind::Aggregate {
                        // Sema keeps objects under 2^61 bytes; a kernel argument of 4 GiB
                        // or more is refused at launch (its bytes never fit).
                        size: u32::try_from(ty::size_of(types, v.ty)).unwrap_or(u32::MAX),
                        align: ty::align_of(types, v.ty) as u32,
                    },
                ),
                Shape::Aggregate | Shape::Void => (Type::Ptr(AddrSpace::Private), ParamKind::Value),
            };
            params.push(Param {
                name: v.name.as_str().to_string(),
                ty,
                kind,
                c_type,
            });
        }
        (params, FnAbi { sret, ret })
    }

    /// Creates every program-scope and `static` variable, then evaluates their initializers
    /// (which may take each other's addresses).
    pub fn declare_globals(&mut self) {
        let prog = self.prog;
        let types = self.types;
        let mut by_name: FxHashMap<Symbol, GlobalId> = FxHashMap::default();
        let mut pending: Vec<(VarId, GlobalId)> = Vec::new();
        // Definitions first, so an `extern` declaration resolves to its definition.
        let mut order: Vec<usize> = (0..prog.vars.len()).collect();
        order.sort_by_key(|&i| prog.vars.get(i).is_none_or(|v| v.is_extern));
        for i in order {
            let Some(v) = prog.vars.get(i) else { continue };
            let id = VarId(i as u32);
            let Some(space) = global_space(v) else {
                continue;
            };
            if v.storage == Storage::Program
                && let Some(g) = by_name.get(&v.name)
            {
                self.globals.insert(id, *g);
                if v.init.is_some() {
                    pending.push((id, *g));
                }
                continue;
            }
            let size = ty::size_of(types, v.ty);
            let g = self.m.add_global(GlobalVar {
                name: v.name.as_str().to_string(),
                space,
                size,
                align: ty::align_of(types, v.ty) as u32,
                init: Vec::new(),
                relocs: Vec::new(),
                span: v.span,
            });
            if v.storage == Storage::Program {
                by_name.insert(v.name, g);
            }
            self.globals.insert(id, g);
            pending.push((id, g));
        }
        for (id, g) in pending {
            let Some(v) = prog.var(id) else { continue };
            let Some(init) = &v.init else { continue };
            let size = ty::size_of(types, v.ty) as usize;
            let mut img = Image::new(size);
            if let Err(e) = self.write_init(&mut img, 0, v.ty, init, 0) {
                self.error(e.0, "initializer element is not a compile-time constant");
                continue;
            }
            let (bytes, relocs) = img.trimmed();
            if let Some(gv) = self.m.globals.get_mut(g.index()) {
                gv.init = bytes;
                gv.relocs = relocs;
            }
        }
    }

    /// The global behind a program-scope, `static` or kernel-scope `__constant` variable.
    pub fn global_of(&self, v: VarId) -> Option<GlobalId> {
        self.globals.get(&v).copied()
    }

    /// The kernel-scope `__local` variable `v` of kernel `kernel`, created on first use.
    pub fn local_of(&mut self, v: VarId, kernel: FuncId) -> LocalId {
        if let Some(l) = self.locals.get(&v) {
            return *l;
        }
        let types = self.types;
        let (name, size, align, span) = match self.prog.var(v) {
            Some(var) => (
                var.name.as_str().to_string(),
                ty::size_of(types, var.ty),
                ty::align_of(types, var.ty),
                var.span,
            ),
            None => (String::new(), 0, 1, Span::DUMMY),
        };
        let l = self.m.add_local(LocalVar {
            name,
            kernel,
            size,
            align: align as u32,
            span,
        });
        self.locals.insert(v, l);
        l
    }

    /// A `__constant` global holding the bytes of a string literal and its NUL.
    pub fn string_literal(&mut self, bytes: &[u8], span: Span) -> GlobalId {
        if let Some(g) = self.strings.get(bytes) {
            return *g;
        }
        let mut init = bytes.to_vec();
        init.push(0);
        let g = self.m.add_global(GlobalVar {
            name: format!(".str{}", self.strings.len()),
            space: AddrSpace::Constant,
            size: init.len() as u64,
            align: 1,
            init,
            relocs: Vec::new(),
            span,
        });
        self.strings.insert(bytes.to_vec(), g);
        g
    }
}

/// The space of the IR global a variable becomes: program-scope and `static` variables and
/// kernel-scope `__constant` ones have one; other variables none.
pub fn global_space(v: &hir::Var) -> Option<AddrSpace> {
    match (v.storage, v.space) {
        (Storage::Program | Storage::StaticLocal, AddrSpace::Constant) => Some(AddrSpace::Constant),
        (Storage::Program | Storage::StaticLocal, _) => Some(AddrSpace::Global),
        (Storage::KernelScope, AddrSpace::Constant) => Some(AddrSpace::Constant),
        _ => None,
    }
}
