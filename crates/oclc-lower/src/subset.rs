//! Lowering only the functions a whole-program question needs. `oclc check` asks one: which
//! generic→named casts can never succeed (`oclc_ir::passes::casts`). Its answer depends only
//! on the functions holding such a cast, their callers and the pointer-returning functions
//! those call; lowering the rest of a large file is wasted work.
//!
//! The subset is decided on the HIR, conservatively, so that the module [`lower_for_casts`]
//! returns gives `casts::impossible_casts` exactly the answer the whole program gives:
//! - it lowers a superset of the functions `casts` keeps (its seeds are the functions whose
//!   IR can hold `from_generic`/`space_test`, its edges the HIR calls, a superset of the IR's),
//!   so `casts` keeps the same functions and sees the same bodies;
//! - it also lowers every function whose lowering might report an error, so it fails (and the
//!   check has no cast warnings) exactly when lowering the whole program would.
//!
//! A body's IR holds a `from_generic` only where a generic pointer value meets a named pointer
//! type: sema makes every conversion an explicit cast node, so the seeds are the bodies where
//! an expression of generic pointer type feeds one of named pointer type (its parent, a call
//! parameter, a return, an initialized variable), plus every `to_X` call. Not covered: a
//! lowering bug that makes invalid IR in a body outside the subset (the whole program then
//! fails verification and gives no verdicts; the subset still does).

use oclc_ir::{AddrSpace, Module, Type};
use oclc_sema::hir::{Expr, ExprKind, Init, Program, Stmt, StmtKind, VarId};
use oclc_sema::types::TypeTable;
use oclc_syntax::{Diagnostics, SourceMap, Symbol};

use rayon::prelude::*;

use crate::ty::{self, Shape};
use crate::{FxHashMap, LowerOptions, func, module};

/// Nesting (statements, expressions, initializers) past which a function is treated as one
/// whose lowering may report "expression is nested too deeply": lowering counts at most a
/// few levels per HIR level against [`func::MAX_DEPTH`], so this is well below that limit.
const DEEP: u32 = func::MAX_DEPTH / 8;

/// Lowers what `oclc_ir::passes::casts::impossible_casts` needs to give the answer it gives
/// on the whole program: the bodies [`cast_subset`] selects; every other function is declared
/// with a body that is only `unreachable`. `None` exactly when [`crate::lower`] fails; `diags`
/// then holds the errors of the lowered bodies (and every recursive call).
pub fn lower_for_casts(
    program: &Program,
    sm: &SourceMap,
    diags: &mut Diagnostics,
) -> Option<Module> {
    let _ = sm;
    let want = cast_subset(program);
    crate::lower_bodies(program, diags, LowerOptions::default(), Some(&want), false)
        .map(|(m, _, _)| m)
}

/// For each HIR function (by index): whether [`lower_for_casts`] lowers its body. Selected
/// are the functions whose IR may hold a generic→named cast or `to_X` test, every function
/// calling one of them (transitively), every pointer-returning function those call
/// (transitively) (the closure `casts` computes on the IR), and every function whose
/// lowering may report an error. A body nested deeper than `DEEP` selects everything.
pub fn cast_subset(program: &Program) -> Vec<bool> {
    let n = program.functions.len();
    // Calls name a declaration; lowering resolves them to the first definition of the name.
    let mut def: FxHashMap<Symbol, usize> = FxHashMap::default();
    for (i, f) in program.functions.iter().enumerate() {
        if f.body.is_some() {
            def.entry(f.name).or_insert(i);
        }
    }
    // Bodies are scanned in parallel (each on its own; collected in order).
    let facts: Vec<Facts> = oclc_ir::par::install(|| {
        program
            .functions
            .par_iter()
            .enumerate()
            .map(|(i, f)| {
                let mut fx = Facts::default();
                if let Some(body) = &f.body
                    && def.get(&f.name) == Some(&i)
                {
                    let mut scan = Scan {
                        prog: program,
                        types: &program.types,
                        def: &def,
                        ret: ty::value_type(&program.types, f.ret),
                        facts: &mut fx,
                    };
                    scan.stmts(&body.stmts, 0);
                }
                fx
            })
            .collect()
    });
    if facts.iter().any(|f| f.too_deep) {
        return vec![true; n];
    }
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, fx) in facts.iter().enumerate() {
        for &c in &fx.calls {
            if let Some(list) = callers.get_mut(c) {
                list.push(i);
            }
        }
    }
    let mut keep: Vec<bool> = facts.iter().map(|f| f.casts).collect();
    let mut stack: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in &callers[i] {
            if !keep[c] {
                keep[c] = true;
                stack.push(c);
            }
        }
    }
    let returns_ptr = |c: usize| {
        program
            .functions
            .get(c)
            .is_some_and(|f| matches!(ty::shape(&program.types, f.ret), Shape::Value(Type::Ptr(_))))
    };
    let mut stack: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in &facts[i].calls {
            if c < n && !keep[c] && returns_ptr(c) {
                keep[c] = true;
                stack.push(c);
            }
        }
    }
    for (k, fx) in keep.iter_mut().zip(&facts) {
        *k |= fx.may_fail;
    }
    keep
}

/// What one function body holds, as far as the subset is concerned.
#[derive(Default)]
struct Facts {
    /// Definitions it calls (by HIR index), with repeats.
    calls: Vec<usize>,
    /// Its IR may hold a `from_generic` or `space_test`.
    casts: bool,
    /// Lowering it may report an error.
    may_fail: bool,
    /// It nests deeper than `DEEP`.
    too_deep: bool,
}

struct Scan<'a> {
    prog: &'a Program,
    types: &'a TypeTable,
    def: &'a FxHashMap<Symbol, usize>,
    /// The function's IR return type.
    ret: Option<Type>,
    facts: &'a mut Facts,
}

/// A named (not generic) pointer IR type.
fn is_named_ptr(t: Option<Type>) -> bool {
    matches!(t, Some(Type::Ptr(s)) if s != AddrSpace::Generic)
}

fn is_generic_ptr(t: Option<Type>) -> bool {
    t == Some(Type::Ptr(AddrSpace::Generic))
}

impl Scan<'_> {
    fn vt(&self, e: &Expr) -> Option<Type> {
        ty::value_type(self.types, e.ty)
    }

    /// Notes a value of IR type `from` used where `to` is expected: lowering converts it with
    /// a `from_generic` when that turns a generic pointer into a named one.
    fn flows(&mut self, from: Option<Type>, to: Option<Type>) {
        if is_generic_ptr(from) && is_named_ptr(to) {
            self.facts.casts = true;
        }
    }

    /// A variable named in the body: one with static storage must have a global.
    fn var_use(&mut self, v: VarId) {
        let Some(var) = self.prog.var(v) else { return };
        if func::addressed_as_global(var) && module::global_space(var).is_none() {
            self.facts.may_fail = true;
        }
    }

    fn deep(&mut self, depth: u32) -> bool {
        if depth > DEEP {
            self.facts.too_deep = true;
        }
        self.facts.too_deep
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: u32) {
        for s in stmts {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: u32) {
        if self.deep(depth) {
            return;
        }
        let d = depth + 1;
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e, None, d),
            StmtKind::Return(Some(e)) => {
                let t = self.vt(e);
                self.flows(t, self.ret);
                self.expr(e, None, d);
            }
            StmtKind::Decl(v) => {
                self.var_use(*v);
                if let Some(var) = self.prog.var(*v)
                    && let Some(init) = &var.init
                {
                    let t = ty::value_type(self.types, var.ty);
                    self.init(init, t, d);
                }
            }
            StmtKind::Block(b) => self.stmts(&b.stmts, d),
            StmtKind::If { .. } => {
                for (cond, then, else_) in s.if_links() {
                    self.expr(cond, None, d);
                    self.stmt(then, d);
                    if let Some(e) = else_ {
                        self.stmt(e, d);
                    }
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond, None, d);
                self.stmt(body, d);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.stmts(init, d);
                for e in [cond, step].into_iter().flatten() {
                    self.expr(e, None, d);
                }
                self.stmt(body, d);
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond, None, d);
                self.stmt(body, d);
            }
            StmtKind::Case { body, .. }
            | StmtKind::Default { body }
            | StmtKind::Label { body, .. } => self.stmt(body, d),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Goto(_)
            | StmtKind::Asm(_)
            | StmtKind::Empty => {}
        }
    }

    /// An initializer of IR type `to` (`None` for aggregates, whose elements lowering
    /// converts to their own types: any generic pointer there counts).
    fn init(&mut self, i: &Init, to: Option<Type>, depth: u32) {
        if self.deep(depth) {
            return;
        }
        match i {
            Init::Expr(e) => {
                let t = self.vt(e);
                match to {
                    Some(_) => self.flows(t, to),
                    None => {
                        if is_generic_ptr(t) {
                            self.facts.casts = true;
                        }
                    }
                }
                self.expr(e, None, depth + 1);
            }
            Init::List { items, .. } => {
                for it in items.iter().flatten() {
                    self.init(it, None, depth + 1);
                }
            }
        }
    }

    /// `e`, whose value its parent (of IR type `parent`) uses.
    fn expr(&mut self, e: &Expr, parent: Option<Type>, depth: u32) {
        if self.deep(depth) {
            return;
        }
        let t = self.vt(e);
        self.flows(t, parent);
        let d = depth + 1;
        match &e.kind {
            ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::StrLit(_)
            | ExprKind::Const(_)
            | ExprKind::Error => {}
            ExprKind::Var(v) => self.var_use(*v),
            ExprKind::Func(_) => self.facts.may_fail = true,
            ExprKind::Call { callee, args } => {
                let target = self
                    .prog
                    .function(*callee)
                    .and_then(|f| self.def.get(&f.name).copied());
                match target {
                    Some(c) => self.facts.calls.push(c),
                    None => self.facts.may_fail = true,
                }
                let params = target.and_then(|c| self.prog.functions.get(c));
                for (k, a) in args.iter().enumerate() {
                    let p = params
                        .and_then(|f| f.params.get(k))
                        .and_then(|v| self.prog.var(*v))
                        .and_then(|v| ty::value_type(self.types, v.ty));
                    self.flows(self.vt(a), p);
                    self.expr(a, t, d);
                }
            }
            ExprKind::ToAddrSpace { arg, .. } => {
                self.facts.casts = true;
                self.expr(arg, t, d);
            }
            ExprKind::AddrOf(x) => {
                if !has_address(self.types, x, 0) {
                    self.facts.may_fail = true;
                }
                self.expr(x, t, d);
            }
            ExprKind::Cast(kind, x) => {
                if matches!(kind, oclc_sema::hir::CastKind::FunctionToPointer) {
                    self.facts.may_fail = true;
                }
                self.expr(x, t, d);
            }
            ExprKind::Unary(_, x)
            | ExprKind::GetFence(x)
            | ExprKind::Deref(x)
            | ExprKind::Member { base: x, .. }
            | ExprKind::Swizzle { base: x, .. } => self.expr(x, t, d),
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => match e.chain() {
                None => {
                    self.expr(a, t, d);
                    self.expr(b, t, d);
                }
                // A chain, in a loop (its length is not nesting), in the order recursion
                // takes: each link flows into its parent, then the leaf and the right operands.
                Some((links, leaf)) => {
                    for w in links.windows(2) {
                        let (tp, tc) = (self.vt(w[0]), self.vt(w[1]));
                        self.flows(tc, tp);
                    }
                    let tl = links.last().map_or(t, |l| self.vt(l));
                    self.expr(leaf, tl, d);
                    for l in links.iter().rev() {
                        let tl = self.vt(l);
                        if let Some((_, b)) = l.link_operands() {
                            self.expr(b, tl, d);
                        }
                    }
                }
            },
            ExprKind::Assign { lhs: a, rhs: b, .. } | ExprKind::Index { base: a, index: b } => {
                self.expr(a, t, d);
                self.expr(b, t, d);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a, t, d);
                self.expr(b, t, d);
                self.expr(c, t, d);
            }
            ExprKind::BuiltinCall { args, .. } | ExprKind::VectorLit(args) => {
                for a in args {
                    self.expr(a, t, d);
                }
            }
            ExprKind::InitList(i) => self.init(i, None, d),
            ExprKind::StmtExpr { body, value } => {
                self.stmts(&body.stmts, d);
                if let Some(v) = value {
                    self.expr(v, t, d);
                }
            }
        }
    }
}

/// Whether lowering `&x` surely finds `x` in memory (else it may report "cannot take the
/// address of this expression"): variables (whose address-taking keeps them in memory),
/// dereferences, struct members, pointer subscripts, string literals, compound literals.
fn has_address(types: &TypeTable, x: &Expr, depth: u32) -> bool {
    if depth > DEEP {
        return false;
    }
    match &x.kind {
        ExprKind::Var(_)
        | ExprKind::Deref(_)
        | ExprKind::Member { .. }
        | ExprKind::StrLit(_)
        | ExprKind::InitList(_) => true,
        ExprKind::Index { base, .. } => types.is_pointer(base.ty),
        ExprKind::Cast(oclc_sema::hir::CastKind::NoOp, inner) if inner.lvalue => {
            has_address(types, inner, depth + 1)
        }
        _ => false,
    }
}
