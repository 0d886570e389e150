//! Lowering of one function body: the control-flow graph, variables (SSA values for private
//! scalars whose address is never taken, stack slots for everything else) and statements.
//!
//! SSA construction follows Braun et al., "Simple and Efficient Construction of Static Single
//! Assignment Form" (2013): a block is *sealed* once all its predecessors are known; reading a
//! variable in a block with several predecessors adds a block parameter whose arguments are
//! appended to the predecessors' branches.

use crate::{FxHashMap, FxHashSet};

use oclc_ir::{
    AddrSpace, Block, BlockCall, Builder, Const, FuncId, Function, Inst, Op, Type, Value,
};
use oclc_sema::hir::{
    self, Block as HBlock, Expr, ExprKind, Init, Program, Stmt, StmtKind, Storage, VarId,
};
use oclc_syntax::{Span, Symbol};

use crate::module::{Ctx, FnAbi};
use crate::ty::{self, Shape};

/// Where a variable's value is kept.
#[derive(Clone, Copy, Debug)]
pub enum Loc {
    /// In memory at this address.
    Mem(Value),
    /// An SSA variable.
    Ssa(VarId),
}

/// An incoming edge: the predecessor block, its terminator and which successor slot.
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: Block,
    inst: Inst,
    slot: usize,
}

/// A `switch` being lowered: the blocks of its `case`/`default` labels in source order.
struct SwitchCx {
    blocks: Vec<Block>,
    next: usize,
}

/// Break and continue targets of the innermost loops and switches.
struct Jump {
    brk: Block,
    cont: Option<Block>,
}

pub struct FnCx<'c, 'a> {
    pub cx: &'c mut Ctx<'a>,
    pub f: Function,
    pub id: FuncId,
    pub abi: FnAbi,
    pub cur: Block,
    pub span: Span,
    slots: FxHashMap<VarId, Value>,
    ssa: FxHashSet<VarId>,
    var_types: FxHashMap<VarId, Type>,
    defs: FxHashMap<(VarId, Block), Value>,
    preds: Vec<Vec<Edge>>,
    sealed: Vec<bool>,
    incomplete: Vec<Vec<(VarId, Value)>>,
    fill: Vec<(VarId, Block, Value)>,
    jumps: Vec<Jump>,
    switches: Vec<SwitchCx>,
    labels: FxHashMap<Symbol, Block>,
    undefs: FxHashMap<Type, Value>,
    pub sret: Option<Value>,
    /// Nesting depth of expressions being lowered (guards the host stack).
    pub depth: u32,
    /// [`FnCx::effective_params`], once [`FnCx::plan_vars`] computed them.
    params: Option<Vec<VarId>>,
    /// Addresses inside packed records, with the alignment they are known to have (below
    /// their type's): loads and stores through them copy bytes ([`FnCx::load_mem`]), as an
    /// `align 1` access would, since the IR's accesses assume natural alignment.
    pub underaligned: FxHashMap<Value, u32>,
    /// The scratch slot of those byte copies (one per function, made on first use).
    scratch: Option<Value>,
    /// [`FnCx::byte_count`] reported an object too large.
    too_large_reported: bool,
    /// [`FnCx::too_deep`] reported.
    too_deep_reported: bool,
    /// [`FnCx::warn_wide`] warned (once per function).
    pub wide_reported: bool,
}

/// Whether a variable in memory is addressed through its IR global (else it is a stack slot
/// or a kernel's `__local` variable).
pub fn addressed_as_global(var: &hir::Var) -> bool {
    match var.storage {
        Storage::Program | Storage::StaticLocal => true,
        Storage::KernelScope => var.space != AddrSpace::Local,
        Storage::Automatic | Storage::Param => false,
    }
}

/// Deepest expression or statement nesting lowered; deeper input is reported, not lowered.
pub const MAX_DEPTH: u32 = 2000;

impl<'c, 'a> FnCx<'c, 'a> {
    pub fn new(cx: &'c mut Ctx<'a>, id: FuncId, f: Function, abi: FnAbi) -> FnCx<'c, 'a> {
        let span = f.span;
        let mut fx = FnCx {
            cx,
            f,
            id,
            abi,
            cur: Block(0),
            span,
            slots: FxHashMap::default(),
            ssa: FxHashSet::default(),
            var_types: FxHashMap::default(),
            defs: FxHashMap::default(),
            preds: vec![Vec::new()],
            sealed: vec![true],
            incomplete: vec![Vec::new()],
            fill: Vec::new(),
            jumps: Vec::new(),
            switches: Vec::new(),
            labels: FxHashMap::default(),
            undefs: FxHashMap::default(),
            sret: None,
            depth: 0,
            too_large_reported: false,
            too_deep_reported: false,
            wide_reported: false,
            params: None,
            underaligned: FxHashMap::default(),
            scratch: None,
        };
        // Block 0 holds only stack slots and constants that must dominate everything; the body
        // starts in block 1.
        let body = fx.new_block();
        fx.br(body, Vec::new());
        fx.seal(body);
        fx.cur = body;
        fx
    }

    /// A builder appending to the current block with the current span.
    pub fn b(&mut self) -> Builder<'_> {
        let mut b = Builder::new(&mut self.f);
        b.switch_to(self.cur);
        b.set_span(self.span);
        b
    }

    // ---- blocks and edges ----

    pub fn new_block(&mut self) -> Block {
        let b = self.f.add_block();
        self.preds.push(Vec::new());
        self.sealed.push(false);
        self.incomplete.push(Vec::new());
        b
    }

    /// A new block with explicit parameters (merges of `?:` and `&&`).
    pub fn new_block_with(&mut self, params: &[Type]) -> (Block, Vec<Value>) {
        let b = self.new_block();
        let vs = params
            .iter()
            .map(|t| self.f.add_block_param(b, *t))
            .collect();
        (b, vs)
    }

    pub fn is_terminated(&self) -> bool {
        self.f
            .blocks
            .get(self.cur.index())
            .and_then(|b| b.insts.last())
            .and_then(|i| self.f.insts.get(i.index()))
            .is_some_and(|d| d.op.is_terminator())
    }

    fn terminate(&mut self, op: Op, targets: &[Block]) {
        if self.is_terminated() {
            return;
        }
        let from = self.cur;
        if self.is_dead(from) {
            self.f.push_inst(from, Op::Unreachable, None, self.span);
            return;
        }
        let (inst, _) = self.f.push_inst(from, op, None, self.span);
        for (slot, t) in targets.iter().enumerate() {
            if let Some(p) = self.preds.get_mut(t.index()) {
                p.push(Edge { from, inst, slot });
            }
        }
    }

    pub fn br(&mut self, t: Block, args: Vec<Value>) {
        self.terminate(Op::Br(BlockCall { block: t, args }), &[t]);
    }

    pub fn cond_br(&mut self, c: Value, t: Block, targs: Vec<Value>, e: Block, eargs: Vec<Value>) {
        let op = Op::CondBr(
            c,
            BlockCall {
                block: t,
                args: targs,
            },
            BlockCall {
                block: e,
                args: eargs,
            },
        );
        self.terminate(op, &[t, e]);
    }

    /// A block no branch can reach: sealed without predecessors (not the body's entry).
    fn is_dead(&self, b: Block) -> bool {
        b.index() > 1
            && self.sealed.get(b.index()).copied().unwrap_or(false)
            && self.preds.get(b.index()).is_some_and(Vec::is_empty)
    }

    /// Continues in a fresh block no branch reaches (code after `return`, `break`, ...).
    pub fn dead_block(&mut self) {
        let b = self.new_block();
        self.seal(b);
        self.cur = b;
    }

    pub fn switch_to(&mut self, b: Block) {
        self.cur = b;
    }

    /// Marks `b` as having all its predecessors and completes its pending parameters.
    pub fn seal(&mut self, b: Block) {
        if self.sealed.get(b.index()).copied().unwrap_or(true) {
            return;
        }
        self.sealed[b.index()] = true;
        let pending = std::mem::take(&mut self.incomplete[b.index()]);
        for (v, p) in pending {
            self.fill.push((v, b, p));
            self.drain_fill();
        }
    }

    // ---- variables ----

    /// The parameter variables the body refers to. Normally `func.params`; when a later
    /// redeclaration replaced them with its own variables, the body's own parameter
    /// variables, matched by position.
    pub fn effective_params(&self, func: &hir::Function) -> Vec<VarId> {
        let prog = self.cx.prog;
        let Some(body) = &func.body else {
            return func.params.clone();
        };
        let mut used = Vec::new();
        let mut seen = FxHashSet::default();
        vars_block(
            prog,
            body,
            &mut |v| {
                if seen.insert(v) && prog.var(v).is_some_and(|x| x.storage == Storage::Param) {
                    used.push(v);
                }
            },
            0,
        );
        if used.iter().all(|v| func.params.contains(v)) {
            return func.params.clone();
        }
        // Sema creates a definition's parameters in order, before anything in its body.
        let mut own: Vec<VarId> = used
            .into_iter()
            .filter(|v| !func.params.contains(v))
            .collect();
        own.sort();
        let first = own.first().map_or(0, |v| v.0);
        let mut out = Vec::with_capacity(func.params.len());
        for (i, p) in func.params.iter().enumerate() {
            let cand = VarId(first + i as u32);
            let same_name = prog
                .var(cand)
                .zip(prog.var(*p))
                .is_some_and(|(a, b)| a.name == b.name);
            let is_param = prog.var(cand).is_some_and(|x| x.storage == Storage::Param);
            out.push(if is_param && (same_name || own.contains(&cand)) {
                cand
            } else {
                *p
            });
        }
        out
    }

    /// Decides which variables of the function live in SSA values.
    pub fn plan_vars(&mut self, func: &hir::Function) {
        let prog = self.cx.prog;
        let mut taken = FxHashSet::default();
        if let Some(body) = &func.body {
            addr_taken_block(prog, body, &mut taken, 0);
        }
        let consider = |v: VarId, this: &mut Self| {
            let Some(var) = prog.var(v) else { return };
            if !matches!(var.storage, Storage::Automatic | Storage::Param)
                || var.space != AddrSpace::Private
                || taken.contains(&v)
            {
                return;
            }
            if let Shape::Value(t) = ty::shape(this.cx.types, var.ty) {
                this.ssa.insert(v);
                this.var_types.insert(v, t);
            }
        };
        let params = self.effective_params(func);
        for &p in &params {
            consider(p, self);
        }
        self.params = Some(params);
        if let Some(body) = &func.body {
            let mut decls = Vec::new();
            decls_block(body, &mut decls, 0);
            // Variables declared in statement expressions are not among the statements'
            // declarations: the automatic variables the body refers to include them.
            vars_block(
                prog,
                body,
                &mut |v| {
                    if prog.var(v).is_some_and(|x| x.storage == Storage::Automatic) {
                        decls.push(v);
                    }
                },
                0,
            );
            decls.sort_unstable();
            decls.dedup();
            for v in decls {
                consider(v, self);
            }
        }
    }

    /// Disables SSA variables (every variable in memory); used to test both paths.
    pub fn all_in_memory(&mut self) {
        self.ssa.clear();
    }

    pub fn var_loc(&mut self, v: VarId) -> Loc {
        if self.ssa.contains(&v) {
            Loc::Ssa(v)
        } else {
            Loc::Mem(self.var_addr(v))
        }
    }

    /// The address of a variable held in memory.
    pub fn var_addr(&mut self, v: VarId) -> Value {
        if let Some(p) = self.slots.get(&v) {
            return *p;
        }
        let prog = self.cx.prog;
        let Some(var) = prog.var(v) else {
            return self.undef(Type::Ptr(AddrSpace::Private));
        };
        if addressed_as_global(var) {
            return self.global_addr_of(v);
        }
        match var.storage {
            Storage::KernelScope => {
                let l = self.cx.local_of(v, self.id);
                let p = self.entry_inst(Op::LocalAddr(l), Type::Ptr(AddrSpace::Local));
                self.slots.insert(v, p);
                p
            }
            _ => {
                let types = self.cx.types;
                let size = ty::size_of(types, var.ty).max(1);
                let align = ty::align_of(types, var.ty);
                let saved = std::mem::replace(&mut self.span, var.span);
                let size = self.byte_count(size);
                self.span = saved;
                let p = self.entry_inst(
                    Op::StackAlloc {
                        size,
                        align: u32::try_from(align).unwrap_or(1),
                        name: var.name,
                    },
                    Type::Ptr(AddrSpace::Private),
                );
                self.slots.insert(v, p);
                p
            }
        }
    }

    fn global_addr_of(&mut self, v: VarId) -> Value {
        let Some(g) = self.cx.global_of(v) else {
            let span = self.cx.prog.var(v).map_or(self.span, |x| x.span);
            self.cx
                .error(span, "variable has no storage in this program");
            return self.undef(Type::Ptr(AddrSpace::Global));
        };
        let space = self
            .cx
            .m
            .globals
            .get(g.index())
            .map_or(AddrSpace::Global, |x| x.space);
        let p = self.entry_inst(Op::GlobalAddr(g), Type::Ptr(space));
        self.slots.insert(v, p);
        p
    }

    /// A private temporary of `size` bytes.
    pub fn temp(&mut self, size: u64, align: u64) -> Value {
        let size = self.byte_count(size.max(1));
        self.entry_inst(
            Op::StackAlloc {
                size,
                align: u32::try_from(align.max(1).next_power_of_two()).unwrap_or(1),
                name: Symbol::intern(""),
            },
            Type::Ptr(AddrSpace::Private),
        )
    }

    /// Reports (once per function) a `what` nested past [`MAX_DEPTH`]: it is not lowered, and
    /// must not go missing from the code silently.
    pub fn too_deep(&mut self, span: Span, what: &str) {
        if !self.too_deep_reported {
            self.too_deep_reported = true;
            self.cx.error(span, format!("{what} is nested too deeply"));
        }
    }

    /// `size` as the IR's 32-bit byte count of a stack slot, copy or fill. A larger object
    /// is an error here (reported once per function), never a wrapped or clamped count.
    pub fn byte_count(&mut self, size: u64) -> u32 {
        match u32::try_from(size) {
            Ok(n) => n,
            Err(_) => {
                if !self.too_large_reported {
                    self.too_large_reported = true;
                    self.cx.error(
                        self.span,
                        format!(
                            "object of {size} bytes is too large to be held in private memory \
                             or copied (at most {} bytes)",
                            u32::MAX
                        ),
                    );
                }
                u32::MAX
            }
        }
    }

    /// Appends an instruction to the entry block, before its terminator.
    fn entry_inst(&mut self, op: Op, ty: Type) -> Value {
        let (_, v) = self.f.push_inst(Block(0), op, Some(ty), self.span);
        if let Some(insts) = self.f.blocks.get_mut(0).map(|b| &mut b.insts) {
            let n = insts.len();
            if n >= 2 {
                insts.swap(n - 1, n - 2);
            }
        }
        v.unwrap_or(Value(u32::MAX))
    }

    /// Records the alignment of `q` = `p + off` (`off` a constant, or the stride of a
    /// run-time index) when it is below natural: `p` is such an address, or `q` is a field
    /// of the packed record at `p`.
    pub fn derive_align(&mut self, p: Value, q: Value, off: u64, packed: bool) {
        let base = match self.underaligned.get(&p) {
            Some(a) => *a,
            None if packed => 1,
            None => return,
        };
        let a = if off == 0 {
            base
        } else {
            base.min(1 << off.trailing_zeros().min(31))
        };
        self.underaligned.insert(q, a);
    }

    /// Loads a `t` from `p`; byte by byte through a scratch slot when `p` is under-aligned.
    pub fn load_mem(&mut self, t: Type, p: Value) -> Value {
        match self.underaligned.get(&p) {
            Some(a) if *a < t.align() => {
                let tmp = self.scratch_slot();
                self.b().memcpy(tmp, p, t.access_size());
                self.b().load(t, tmp)
            }
            _ => self.b().load(t, p),
        }
    }

    /// Stores `v` at `p`; byte by byte through a scratch slot when `p` is under-aligned.
    pub fn store_mem(&mut self, p: Value, v: Value) {
        let t = self.f.value_type(v).unwrap_or(Type::I32);
        match self.underaligned.get(&p) {
            Some(a) if *a < t.align() => {
                let tmp = self.scratch_slot();
                self.b().store(tmp, v);
                self.b().memcpy(p, tmp, t.access_size());
            }
            _ => {
                self.b().store(p, v);
            }
        }
    }

    /// Room for any value type (the largest, `double16`, is 128 bytes), naturally aligned.
    fn scratch_slot(&mut self) -> Value {
        match self.scratch {
            Some(v) => v,
            None => {
                let v = self.temp(128, 128);
                self.scratch = Some(v);
                v
            }
        }
    }

    pub fn undef(&mut self, t: Type) -> Value {
        if let Some(v) = self.undefs.get(&t) {
            return *v;
        }
        let v = self.entry_inst(Op::Undef, t);
        self.undefs.insert(t, v);
        v
    }

    /// A constant in the entry block (used for zero of a type).
    pub fn zero(&mut self, t: Type) -> Value {
        match t {
            Type::Ptr(_) => self.b().inst(Op::Const(Const::Null), t),
            t if t.is_float() => self.b().fconst(t, 0.0),
            t => self.b().iconst(t, 0),
        }
    }

    pub fn write_var(&mut self, v: VarId, val: Value) {
        self.defs.insert((v, self.cur), val);
    }

    pub fn read_var(&mut self, v: VarId) -> Value {
        let r = self.read_var_in(v, self.cur);
        self.drain_fill();
        r
    }

    fn read_var_in(&mut self, v: VarId, start: Block) -> Value {
        let t = self.var_types.get(&v).copied().unwrap_or(Type::I32);
        let mut chain = Vec::new();
        let mut b = start;
        let val = loop {
            if let Some(x) = self.defs.get(&(v, b)) {
                break *x;
            }
            if !self.sealed.get(b.index()).copied().unwrap_or(true) {
                let p = self.f.add_block_param(b, t);
                self.incomplete[b.index()].push((v, p));
                self.defs.insert((v, b), p);
                break p;
            }
            let preds = self.preds.get(b.index()).map_or(0, Vec::len);
            if preds == 0 {
                break self.undef(t);
            }
            if preds == 1 {
                chain.push(b);
                b = self.preds[b.index()][0].from;
                if chain.len() > self.f.blocks.len() {
                    break self.undef(t);
                }
                continue;
            }
            let p = self.f.add_block_param(b, t);
            self.defs.insert((v, b), p);
            self.fill.push((v, b, p));
            break p;
        };
        for c in chain {
            self.defs.insert((v, c), val);
        }
        val
    }

    fn drain_fill(&mut self) {
        while let Some((v, b, _p)) = self.fill.pop() {
            let edges = self.preds.get(b.index()).cloned().unwrap_or_default();
            for e in edges {
                let a = self.read_var_in(v, e.from);
                self.append_arg(e, a);
            }
        }
    }

    fn append_arg(&mut self, e: Edge, a: Value) {
        let Some(d) = self.f.insts.get_mut(e.inst.index()) else {
            return;
        };
        let call = match &mut d.op {
            Op::Br(c) => Some(c),
            Op::CondBr(_, t, f) => {
                if e.slot == 0 {
                    Some(t)
                } else {
                    Some(f)
                }
            }
            Op::Switch(_, cases, def) => {
                let n = cases.len();
                if e.slot < n {
                    cases.get_mut(e.slot).map(|(_, c)| c)
                } else {
                    Some(def)
                }
            }
            _ => None,
        };
        if let Some(c) = call {
            c.args.push(a);
        }
    }

    // ---- function body ----

    pub fn lower_body(&mut self, func: &hir::Function) {
        let params = self.f.params_of(Block(0)).to_vec();
        let mut pi = 0;
        if self.abi.sret {
            self.sret = params.first().copied();
            pi = 1;
        }
        let prog = self.cx.prog;
        let own = match self.params.take() {
            Some(p) => p,
            None => self.effective_params(func),
        };
        for pv in &own {
            let Some(&val) = params.get(pi) else { break };
            pi += 1;
            let Some(var) = prog.var(*pv) else { continue };
            if self.ssa.contains(pv) {
                self.write_var(*pv, val);
            } else if ty::shape(self.cx.types, var.ty) == Shape::Aggregate {
                self.slots.insert(*pv, val);
            } else {
                let p = self.var_addr(*pv);
                self.b().store(p, val);
            }
        }
        if let Some(body) = &func.body {
            self.block(body);
        }
        self.finish();
    }

    /// Terminates every open block (falling off the end returns) and seals everything.
    fn finish(&mut self) {
        let n = self.f.blocks.len();
        for i in 0..n {
            self.seal(Block(i as u32));
        }
        for i in 1..n {
            self.cur = Block(i as u32);
            if !self.is_terminated() {
                let v = self.abi.ret.map(|t| self.undef(t));
                self.terminate(Op::Ret(v), &[]);
            }
        }
        let live = crate::cleanup::reachable(&self.f);
        crate::cleanup::simplify(&mut self.f, &live);
    }

    pub fn block(&mut self, b: &HBlock) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    pub fn stmt(&mut self, s: &Stmt) {
        if self.depth > MAX_DEPTH {
            self.too_deep(s.span, "statement");
            return;
        }
        self.depth += 1;
        let saved = self.span;
        self.span = s.span;
        self.stmt_kind(s);
        self.span = saved;
        self.depth -= 1;
    }

    /// `if`, with an `else if` chain lowered in a loop (its length is not nesting), giving
    /// the blocks, spans and order lowering each `else` statement in turn would.
    fn if_chain(&mut self, s: &Stmt) {
        // The join block of each `if` whose `else` is the next `if`, and that `if`'s span.
        let mut outer: Vec<(Block, Span)> = Vec::new();
        let mut cur = s;
        while let StmtKind::If { cond, then, else_ } = &cur.kind {
            let c = self.cond(cond);
            let t = self.new_block();
            let join = self.new_block();
            let e = if else_.is_some() {
                self.new_block()
            } else {
                join
            };
            self.cond_br(c, t, Vec::new(), e, Vec::new());
            self.seal(t);
            self.switch_to(t);
            self.stmt(then);
            self.br(join, Vec::new());
            match else_ {
                Some(el) if matches!(el.kind, StmtKind::If { .. }) => {
                    self.seal(e);
                    self.switch_to(e);
                    outer.push((join, cur.span));
                    self.span = el.span;
                    cur = el;
                    continue;
                }
                Some(el) => {
                    self.seal(e);
                    self.switch_to(e);
                    self.stmt(el);
                    self.br(join, Vec::new());
                }
                None => {}
            }
            self.seal(join);
            self.switch_to(join);
            break;
        }
        while let Some((join, span)) = outer.pop() {
            self.span = span;
            self.br(join, Vec::new());
            self.seal(join);
            self.switch_to(join);
        }
    }

    fn stmt_kind(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.rvalue(e);
            }
            StmtKind::Decl(v) => self.decl(*v),
            StmtKind::Block(b) => self.block(b),
            StmtKind::If { .. } => self.if_chain(s),
            StmtKind::While { cond, body } => {
                let head = self.new_block();
                self.br(head, Vec::new());
                self.switch_to(head);
                let body_b = self.new_block();
                let exit = self.new_block();
                // The condition is part of the loop: a `break`/`continue` in a statement
                // expression there binds to it.
                self.jumps.push(Jump {
                    brk: exit,
                    cont: Some(head),
                });
                let c = self.cond(cond);
                self.cond_br(c, body_b, Vec::new(), exit, Vec::new());
                self.seal(body_b);
                self.switch_to(body_b);
                self.stmt(body);
                self.jumps.pop();
                self.br(head, Vec::new());
                self.seal(head);
                self.seal(exit);
                self.switch_to(exit);
            }
            StmtKind::DoWhile { body, cond } => {
                let body_b = self.new_block();
                let cond_b = self.new_block();
                let exit = self.new_block();
                self.br(body_b, Vec::new());
                self.switch_to(body_b);
                self.jumps.push(Jump {
                    brk: exit,
                    cont: Some(cond_b),
                });
                self.stmt(body);
                self.br(cond_b, Vec::new());
                // A `continue` in a statement expression of the condition jumps to it again:
                // then the condition block is sealed only after it.
                if !has_stmt_expr(cond, 0) {
                    self.seal(cond_b);
                }
                self.switch_to(cond_b);
                let c = self.cond(cond);
                self.jumps.pop();
                self.cond_br(c, body_b, Vec::new(), exit, Vec::new());
                self.seal(cond_b);
                self.seal(body_b);
                self.seal(exit);
                self.switch_to(exit);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for s in init {
                    self.stmt(s);
                }
                let head = self.new_block();
                self.br(head, Vec::new());
                self.switch_to(head);
                let body_b = self.new_block();
                let exit = self.new_block();
                let step_b = self.new_block();
                // The condition and the step are part of the loop (a `break`/`continue` in
                // a statement expression there binds to it).
                self.jumps.push(Jump {
                    brk: exit,
                    cont: Some(step_b),
                });
                match cond {
                    Some(c) => {
                        let c = self.cond(c);
                        self.cond_br(c, body_b, Vec::new(), exit, Vec::new());
                    }
                    None => self.br(body_b, Vec::new()),
                }
                self.seal(body_b);
                self.switch_to(body_b);
                self.stmt(body);
                self.br(step_b, Vec::new());
                // A `continue` in a statement expression of the step jumps to the step again:
                // then the step block is sealed only after it.
                let step_jumps = step.as_ref().is_some_and(|st| has_stmt_expr(st, 0));
                if !step_jumps {
                    self.seal(step_b);
                }
                self.switch_to(step_b);
                if let Some(st) = step {
                    self.rvalue(st);
                }
                self.jumps.pop();
                self.seal(step_b);
                self.br(head, Vec::new());
                self.seal(head);
                self.seal(exit);
                self.switch_to(exit);
            }
            StmtKind::Switch { cond, body } => self.switch(cond, body),
            StmtKind::Case { body, .. } | StmtKind::Default { body } => {
                let blk = self.switches.last_mut().and_then(|sw| {
                    let b = sw.blocks.get(sw.next).copied();
                    sw.next += 1;
                    b
                });
                if let Some(blk) = blk {
                    self.br(blk, Vec::new());
                    self.seal(blk);
                    self.switch_to(blk);
                }
                self.stmt(body);
            }
            StmtKind::Break => {
                if let Some(t) = self.jumps.last().map(|j| j.brk) {
                    self.br(t, Vec::new());
                }
                self.dead_block();
            }
            StmtKind::Continue => {
                if let Some(t) = self.jumps.iter().rev().find_map(|j| j.cont) {
                    self.br(t, Vec::new());
                }
                self.dead_block();
            }
            StmtKind::Return(e) => {
                self.ret(e.as_ref());
                self.dead_block();
            }
            StmtKind::Label { name, body } => {
                let b = self.label_block(*name);
                self.br(b, Vec::new());
                self.switch_to(b);
                self.stmt(body);
            }
            StmtKind::Goto(name) => {
                let b = self.label_block(*name);
                self.br(b, Vec::new());
                self.dead_block();
            }
            StmtKind::Asm(span) => {
                // No device runs inline assembly: a located error, never a silent skip.
                self.cx.error(
                    *span,
                    "inline assembly (`__asm__`) cannot be run: oclc devices have no assembler for it",
                );
            }
            StmtKind::Empty => {}
        }
    }

    fn label_block(&mut self, name: Symbol) -> Block {
        if let Some(b) = self.labels.get(&name) {
            return *b;
        }
        let b = self.new_block();
        self.labels.insert(name, b);
        b
    }

    fn ret(&mut self, e: Option<&Expr>) {
        let Some(e) = e else {
            self.terminate(Op::Ret(None), &[]);
            return;
        };
        let v = self.rvalue(e);
        if let Some(dst) = self.sret {
            let size = ty::size_of(self.cx.types, e.ty);
            let src = self.rv_ptr(v, e.ty);
            let n = self.byte_count(size);
            self.b().memcpy(dst, src, n);
            self.terminate(Op::Ret(None), &[]);
            return;
        }
        match self.abi.ret {
            Some(t) => {
                let x = self.rv_value(v, t);
                let x = self.coerce(x, t);
                self.terminate(Op::Ret(Some(x)), &[]);
            }
            None => self.terminate(Op::Ret(None), &[]),
        }
    }

    fn switch(&mut self, cond: &Expr, body: &Stmt) {
        let v = self.rvalue(cond);
        let t = self.f.value_type(v.value()).unwrap_or(Type::I32);
        let x = match t {
            Type::Scalar(s) if s.is_int() => v.value(),
            _ => {
                let i = self.rv_value(v, Type::I32);
                self.coerce(i, Type::I32)
            }
        };
        let mut labels = Vec::new();
        case_labels(body, &mut labels, 0);
        let exit = self.new_block();
        let mut blocks = Vec::new();
        let mut cases = Vec::new();
        let mut default = None;
        for l in &labels {
            let b = self.new_block();
            blocks.push(b);
            match l {
                Some(val) => cases.push((*val as u64, b)),
                None => default = Some(b),
            }
        }
        let targets: Vec<Block> = cases
            .iter()
            .map(|(_, b)| *b)
            .chain([default.unwrap_or(exit)])
            .collect();
        let op = Op::Switch(
            x,
            cases
                .iter()
                .map(|(k, b)| {
                    (
                        *k,
                        BlockCall {
                            block: *b,
                            args: Vec::new(),
                        },
                    )
                })
                .collect(),
            BlockCall {
                block: default.unwrap_or(exit),
                args: Vec::new(),
            },
        );
        self.terminate(op, &targets);
        self.dead_block();
        self.switches.push(SwitchCx { blocks, next: 0 });
        self.jumps.push(Jump {
            brk: exit,
            cont: None,
        });
        self.stmt(body);
        self.jumps.pop();
        self.switches.pop();
        self.br(exit, Vec::new());
        self.seal(exit);
        self.switch_to(exit);
    }

    fn decl(&mut self, v: VarId) {
        let prog = self.cx.prog;
        let Some(var) = prog.var(v) else { return };
        if !matches!(var.storage, Storage::Automatic) {
            return;
        }
        let Some(init) = &var.init else { return };
        if self.ssa.contains(&v) {
            let t = self.var_types.get(&v).copied().unwrap_or(Type::I32);
            let x = self.init_value(var.ty, t, init);
            self.write_var(v, x);
        } else {
            let p = self.var_addr(v);
            self.init_mem(p, var.ty, init, false);
        }
    }

    /// The value of an initializer of a scalar, vector or pointer object.
    pub fn init_value(&mut self, qt: oclc_sema::types::QualType, t: Type, init: &Init) -> Value {
        match init {
            Init::Expr(e) => {
                let v = self.rvalue(e);
                let x = self.rv_value(v, t);
                self.convert(x, e.ty, qt)
            }
            Init::List { items, .. } => {
                if let Type::Vector(s, n) = t {
                    let mut lanes = Vec::new();
                    for it in items {
                        match it {
                            Some(Init::Expr(e)) => {
                                let v = self.rvalue(e);
                                let x = self.rv_value(v, t);
                                let xt = self.f.value_type(x).unwrap_or(t);
                                match xt {
                                    Type::Vector(_, m) => {
                                        for k in 0..m {
                                            lanes.push(self.b().extract(x, k));
                                        }
                                    }
                                    _ => {
                                        let es = ty::elem_scalar(self.cx.types, qt);
                                        let eq = es.map(crate::constant::scalar_qt);
                                        let l = match eq {
                                            Some(eq) => self.convert(x, e.ty, eq),
                                            None => x,
                                        };
                                        lanes.push(l);
                                    }
                                }
                            }
                            Some(sub) => {
                                let l = self.init_value(qt, Type::Scalar(s), sub);
                                lanes.push(l);
                            }
                            None => {
                                let z = self.zero(Type::Scalar(s));
                                lanes.push(z);
                            }
                        }
                    }
                    while lanes.len() < n as usize {
                        let z = self.zero(Type::Scalar(s));
                        lanes.push(z);
                    }
                    lanes.truncate(n as usize);
                    return self.b().build(lanes);
                }
                match items.first() {
                    Some(Some(first)) => self.init_value(qt, t, first),
                    _ => self.zero(t),
                }
            }
        }
    }

    /// Stores an initializer into the object of type `qt` at `p`; `zeroed` says the memory
    /// is already zero (members without an initializer stay zero).
    pub fn init_mem(
        &mut self,
        p: Value,
        qt: oclc_sema::types::QualType,
        init: &Init,
        zeroed: bool,
    ) {
        if self.depth > MAX_DEPTH {
            self.too_deep(self.span, "initializer");
            return;
        }
        self.depth += 1;
        self.init_mem_inner(p, qt, init, zeroed);
        self.depth -= 1;
    }

    fn init_mem_inner(
        &mut self,
        p: Value,
        qt: oclc_sema::types::QualType,
        init: &Init,
        zeroed: bool,
    ) {
        let types = self.cx.types;
        let size = ty::size_of(types, qt);
        match (ty::shape(types, qt), init) {
            (Shape::Value(t), _) => {
                let v = self.init_value(qt, t, init);
                let v = self.coerce(v, t);
                self.store_mem(p, v);
            }
            (Shape::Aggregate, Init::Expr(e)) => match &e.kind {
                ExprKind::StrLit(bytes) if types.is_array(qt) => {
                    let g = self.cx.string_literal(bytes, e.span);
                    let src = self.b().global_addr(g, AddrSpace::Constant);
                    let n = (bytes.len() as u64 + 1).min(size);
                    if n < size && !zeroed {
                        let n = self.byte_count(size);
                        self.b().memset(p, 0, n);
                    }
                    self.b().memcpy(p, src, n as u32);
                }
                ExprKind::InitList(i) => self.init_mem(p, qt, i, zeroed),
                _ => {
                    let v = self.rvalue(e);
                    let src = self.rv_ptr(v, e.ty);
                    let n = self.byte_count(size);
                    self.b().memcpy(p, src, n);
                }
            },
            (
                Shape::Aggregate,
                Init::List {
                    items, union_field, ..
                },
            ) => {
                if !zeroed {
                    let n = self.byte_count(size);
                    self.b().memset(p, 0, n);
                }
                if let Some((elem, _)) = ty::array_elem(types, qt) {
                    let es = ty::size_of(types, elem);
                    for (i, it) in items.iter().enumerate() {
                        if let Some(it) = it {
                            let off = es * i as u64;
                            let q = self.b().ptr_add_const(p, off as i64);
                            self.derive_align(p, q, off, false);
                            self.init_mem(q, elem, it, true);
                        }
                    }
                } else if let Some(def) = types.as_record(qt).and_then(|r| types.record(r)) {
                    let fields: Vec<(u64, oclc_sema::types::QualType)> = def
                        .fields
                        .iter()
                        .zip(&def.layout.offsets)
                        .map(|(f, o)| (*o, f.ty))
                        .collect();
                    if def.is_union {
                        let fi = union_field.unwrap_or(0) as usize;
                        if let (Some((fo, fty)), Some(it)) =
                            (fields.get(fi), crate::constant::union_item(items, fi))
                        {
                            let q = self.b().ptr_add_const(p, *fo as i64);
                            self.derive_align(p, q, *fo, def.packed);
                            self.init_mem(q, *fty, it, true);
                        }
                    } else {
                        for ((fo, fty), it) in fields.iter().zip(items) {
                            if let Some(it) = it {
                                let q = self.b().ptr_add_const(p, *fo as i64);
                                self.derive_align(p, q, *fo, def.packed);
                                self.init_mem(q, *fty, it, true);
                            }
                        }
                    }
                }
            }
            (Shape::Void, _) => {}
        }
    }
}

/// `case`/`default` labels of a switch body in source order (`None` for `default`), not
/// looking into nested switches.
fn case_labels(s: &Stmt, out: &mut Vec<Option<i64>>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &s.kind {
        StmtKind::Case { value, body } => {
            out.push(Some(*value));
            case_labels(body, out, d);
        }
        StmtKind::Default { body } => {
            out.push(None);
            case_labels(body, out, d);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| case_labels(s, out, d)),
        StmtKind::If { .. } => {
            for (_, then, else_) in s.if_links() {
                case_labels(then, out, d);
                if let Some(e) = else_ {
                    case_labels(e, out, d);
                }
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Label { body, .. } => case_labels(body, out, d),
        _ => {}
    }
}

/// Every variable declared in a block (for SSA planning).
fn decls_block(b: &HBlock, out: &mut Vec<VarId>, depth: u32) {
    b.stmts.iter().for_each(|s| decls_stmt(s, out, depth));
}

fn decls_stmt(s: &Stmt, out: &mut Vec<VarId>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &s.kind {
        StmtKind::Decl(v) => out.push(*v),
        StmtKind::Block(b) => decls_block(b, out, d),
        StmtKind::If { .. } => {
            for (_, then, else_) in s.if_links() {
                decls_stmt(then, out, d);
                if let Some(e) = else_ {
                    decls_stmt(e, out, d);
                }
            }
        }
        StmtKind::For { init, body, .. } => {
            init.iter().for_each(|s| decls_stmt(s, out, d));
            decls_stmt(body, out, d);
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. } => decls_stmt(body, out, d),
        _ => {}
    }
}

/// Calls `f` for every variable a block refers to.
fn vars_block(prog: &Program, b: &HBlock, f: &mut dyn FnMut(VarId), depth: u32) {
    for s in &b.stmts {
        vars_stmt(prog, s, f, depth);
    }
}

fn vars_stmt(prog: &Program, s: &Stmt, f: &mut dyn FnMut(VarId), depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => vars_expr(prog, e, f, d),
        StmtKind::Decl(v) => {
            if let Some(i) = prog.var(*v).and_then(|x| x.init.as_ref()) {
                vars_init(prog, i, f, d);
            }
        }
        StmtKind::Block(b) => vars_block(prog, b, f, d),
        StmtKind::If { .. } => {
            for (cond, then, else_) in s.if_links() {
                vars_expr(prog, cond, f, d);
                vars_stmt(prog, then, f, d);
                if let Some(e) = else_ {
                    vars_stmt(prog, e, f, d);
                }
            }
        }
        StmtKind::While { cond, body }
        | StmtKind::DoWhile { body, cond }
        | StmtKind::Switch { cond, body } => {
            vars_expr(prog, cond, f, d);
            vars_stmt(prog, body, f, d);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            init.iter().for_each(|s| vars_stmt(prog, s, f, d));
            if let Some(c) = cond {
                vars_expr(prog, c, f, d);
            }
            if let Some(c) = step {
                vars_expr(prog, c, f, d);
            }
            vars_stmt(prog, body, f, d);
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => {
            vars_stmt(prog, body, f, d)
        }
        _ => {}
    }
}

fn vars_init(prog: &Program, i: &Init, f: &mut dyn FnMut(VarId), depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    match i {
        Init::Expr(e) => vars_expr(prog, e, f, depth + 1),
        Init::List { items, .. } => items
            .iter()
            .flatten()
            .for_each(|x| vars_init(prog, x, f, depth + 1)),
    }
}

fn vars_expr(prog: &Program, e: &Expr, f: &mut dyn FnMut(VarId), depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Var(v) => f(*v),
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::GetFence(x)
        | ExprKind::ToAddrSpace { arg: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Swizzle { base: x, .. } => vars_expr(prog, x, f, d),
        ExprKind::Binary(..) | ExprKind::Comma(..) => {
            e.for_each_operand(|x| vars_expr(prog, x, f, d))
        }
        ExprKind::Index { base: a, index: b } | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            vars_expr(prog, a, f, d);
            vars_expr(prog, b, f, d);
        }
        ExprKind::Cond(a, b, c) => {
            vars_expr(prog, a, f, d);
            vars_expr(prog, b, f, d);
            vars_expr(prog, c, f, d);
        }
        ExprKind::Call { args, .. } | ExprKind::BuiltinCall { args, .. } => {
            args.iter().for_each(|a| vars_expr(prog, a, f, d))
        }
        ExprKind::VectorLit(parts) => parts.iter().for_each(|a| vars_expr(prog, a, f, d)),
        ExprKind::InitList(i) => vars_init(prog, i, f, d),
        ExprKind::StmtExpr { body, value } => {
            vars_block(prog, body, f, d);
            if let Some(v) = value {
                vars_expr(prog, v, f, d);
            }
        }
        _ => {}
    }
}

/// Whether `e` holds a statement expression (whose statements may jump).
fn has_stmt_expr(e: &Expr, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::StmtExpr { .. } => true,
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::GetFence(x)
        | ExprKind::ToAddrSpace { arg: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Swizzle { base: x, .. } => has_stmt_expr(x, d),
        ExprKind::Binary(..) | ExprKind::Comma(..) => {
            let mut found = false;
            e.for_each_operand(|x| found |= has_stmt_expr(x, d));
            found
        }
        ExprKind::Index { base: a, index: b } | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            has_stmt_expr(a, d) || has_stmt_expr(b, d)
        }
        ExprKind::Cond(a, b, c) => {
            has_stmt_expr(a, d) || has_stmt_expr(b, d) || has_stmt_expr(c, d)
        }
        ExprKind::Call { args, .. }
        | ExprKind::BuiltinCall { args, .. }
        | ExprKind::VectorLit(args) => args.iter().any(|a| has_stmt_expr(a, d)),
        // Conservatively: an initializer list may hold one.
        ExprKind::InitList(_) => true,
        _ => false,
    }
}

/// Variables whose address is taken (`&x`, including `&x.field` and `&x[i]` chains).
fn addr_taken_block(prog: &Program, b: &HBlock, out: &mut FxHashSet<VarId>, depth: u32) {
    b.stmts
        .iter()
        .for_each(|s| addr_taken_stmt(prog, s, out, depth));
}

fn addr_taken_stmt(prog: &Program, s: &Stmt, out: &mut FxHashSet<VarId>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    let mut ex = |e: &Expr| addr_taken_expr(prog, e, out, d);
    match &s.kind {
        StmtKind::Expr(e) => ex(e),
        StmtKind::If { .. } => {
            for (cond, then, else_) in s.if_links() {
                addr_taken_expr(prog, cond, out, d);
                addr_taken_stmt(prog, then, out, d);
                if let Some(e) = else_ {
                    addr_taken_stmt(prog, e, out, d);
                }
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            ex(cond);
            addr_taken_stmt(prog, body, out, d);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(c) = cond {
                ex(c);
            }
            if let Some(c) = step {
                ex(c);
            }
            init.iter().for_each(|s| addr_taken_stmt(prog, s, out, d));
            addr_taken_stmt(prog, body, out, d);
        }
        StmtKind::Switch { cond, body } => {
            ex(cond);
            addr_taken_stmt(prog, body, out, d);
        }
        StmtKind::Return(Some(e)) => ex(e),
        StmtKind::Block(b) => addr_taken_block(prog, b, out, d),
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => {
            addr_taken_stmt(prog, body, out, d)
        }
        StmtKind::Decl(v) => {
            if let Some(i) = prog.var(*v).and_then(|x| x.init.as_ref()) {
                addr_taken_init(prog, i, out, d);
            }
        }
        _ => {}
    }
}

/// Marks `Var`s under `&` and walks every subexpression.
pub fn addr_taken_expr(prog: &Program, e: &Expr, out: &mut FxHashSet<VarId>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::AddrOf(x) => {
            if let Some(v) = root_var(x, 0) {
                out.insert(v);
            }
            addr_taken_expr(prog, x, out, d);
        }
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Deref(x)
        | ExprKind::GetFence(x)
        | ExprKind::ToAddrSpace { arg: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Swizzle { base: x, .. } => addr_taken_expr(prog, x, out, d),
        ExprKind::Binary(..) | ExprKind::Comma(..) => {
            e.for_each_operand(|x| addr_taken_expr(prog, x, out, d))
        }
        ExprKind::Index { base: a, index: b } | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            addr_taken_expr(prog, a, out, d);
            addr_taken_expr(prog, b, out, d);
        }
        ExprKind::Cond(a, b, c) => {
            addr_taken_expr(prog, a, out, d);
            addr_taken_expr(prog, b, out, d);
            addr_taken_expr(prog, c, out, d);
        }
        ExprKind::Call { args, .. } | ExprKind::BuiltinCall { args, .. } => {
            args.iter().for_each(|a| addr_taken_expr(prog, a, out, d))
        }
        ExprKind::VectorLit(parts) => parts.iter().for_each(|a| addr_taken_expr(prog, a, out, d)),
        ExprKind::InitList(i) => addr_taken_init(prog, i, out, d),
        ExprKind::StmtExpr { body, value } => {
            addr_taken_block(prog, body, out, d);
            if let Some(v) = value {
                addr_taken_expr(prog, v, out, d);
            }
        }
        _ => {}
    }
}

pub fn addr_taken_init(prog: &Program, i: &Init, out: &mut FxHashSet<VarId>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    match i {
        Init::Expr(e) => addr_taken_expr(prog, e, out, depth + 1),
        Init::List { items, .. } => items
            .iter()
            .flatten()
            .for_each(|x| addr_taken_init(prog, x, out, depth + 1)),
    }
}

/// The variable an lvalue designates part of.
fn root_var(e: &Expr, depth: u32) -> Option<VarId> {
    if depth > MAX_DEPTH {
        return None;
    }
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => root_var(base, depth + 1),
        ExprKind::Index { base, .. } => root_var(base, depth + 1),
        ExprKind::Cast(hir::CastKind::NoOp | hir::CastKind::ArrayToPointer, x) => {
            root_var(x, depth + 1)
        }
        _ => None,
    }
}
