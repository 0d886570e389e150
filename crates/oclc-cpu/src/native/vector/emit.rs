//! Cranelift code for one chunk of work-items as lanes: the check pass (every access and
//! branch of the chunk tested, nothing loaded or stored), the fast pass (the kernel's work
//! with no test left), or both fused (stores held until the last test).

use super::plan::{Bi, K, Plan, Sub};
use super::{MAX_LANES, MAX_REGS};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self, InstBuilder, MemFlagsData, types};
use cranelift_frontend::{FunctionBuilder, Variable};
use oclc_ir::{BinOp, Block as IrBlock, CmpOp, Const, ConvOp, Op, Scalar, Type, UnOp, Value};
use std::collections::HashMap;

/// A number's lanes: uniform, affine (`base + lane * stride`), one scalar per lane, or SIMD
/// registers of four lanes each (`i32`/`f32` only).
#[derive(Clone, Copy, Debug)]
pub enum VV {
    U(ir::Value),
    A(ir::Value, i64),
    /// The lanes in use are the first [`Emit::n`].
    L([ir::Value; MAX_LANES]),
    /// Four lanes per register, the first `n / 4` registers in use.
    P([ir::Value; MAX_REGS]),
}

/// A value: a number, or a pointer as a root plus an `i64` byte offset.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    N(VV),
    Ptr(u32, VV),
}

/// A root's words in the launch table, loaded once per call.
#[derive(Clone, Copy)]
pub struct RootW {
    pub base: ir::Value,
    pub size_ld: ir::Value,
    pub size_st: ir::Value,
    pub soff: ir::Value,
}

/// Where one emission of the kernel's code starts and stops.
pub struct Span {
    /// First block and the index of its first instruction.
    pub start: (IrBlock, usize),
    /// The barrier that ends it (block, index), or none: it runs to the kernel's returns.
    pub stop: Option<(IrBlock, usize)>,
}

pub struct Emit<'a, 'b, 'p> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub plan: &'p Plan<'p>,
    /// Lanes (work-items) per chunk: 1, 4, 8 or 16.
    pub n: usize,
    pub env: ir::Value,
    /// Whether this pass tests accesses and branches (the check pass, or a fused pass).
    pub test: bool,
    /// Whether this pass loads and stores (the fast pass, or a fused pass, whose stores
    /// wait in `pending` until the chunk's last test has passed).
    pub work: bool,
    /// Fused pass: the stores not yet done (offset, value, type, root base).
    pub pending: Vec<(VV, VV, Scalar, ir::Value)>,
    /// Per (root, store, bytes needed): the highest offset allowed, computed at entry, and
    /// whether the root is smaller than that (for wide chunks; a root too small for a
    /// narrow one sends the group to the scalar code at entry).
    pub caps: HashMap<(u32, bool, i64), (ir::Value, Option<ir::Value>)>,
    /// Check pass: where a chunk goes when a test fails.
    pub fail: ir::Block,
    /// The chunk's local ids (lane 0's), `i64`.
    pub lid: [ir::Value; 3],
    pub gbase: [ir::Value; 3],
    pub roots: Vec<Option<RootW>>,
    /// Uniform kernel arguments by parameter (their argument lanes).
    pub args: Vec<Option<ir::Value>>,
    pub vals: HashMap<Value, Val>,
    /// Check pass: the offsets and sizes of the accesses emitted so far (see
    /// [`Plan::earlier`]).
    pub seen: HashMap<oclc_ir::Inst, (VV, u32)>,
}

pub fn cl_ty(s: Scalar) -> ir::Type {
    match s {
        Scalar::I1 | Scalar::I8 => types::I8,
        Scalar::I16 | Scalar::F16 => types::I16,
        Scalar::I32 => types::I32,
        Scalar::I64 => types::I64,
        Scalar::F32 => types::F32,
        Scalar::F64 => types::F64,
    }
}

fn scalar_of(t: Type) -> Scalar {
    t.elem().unwrap_or(Scalar::I64)
}

/// Whether lanes of this type live in one SIMD register.
fn packed(s: Scalar) -> Option<ir::Type> {
    match s {
        Scalar::I32 => Some(types::I32X4),
        Scalar::F32 => Some(types::F32X4),
        _ => None,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Flags of memory the kernel reaches: not trapping (the check pass proved it), not
/// necessarily aligned beyond the element.
fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl Emit<'_, '_, '_> {
    fn iconst(&mut self, t: ir::Type, v: u64) -> ir::Value {
        let v = v & mask(t.bits());
        self.b.ins().iconst(t, v as i64)
    }

    fn zero(&mut self, s: Scalar) -> ir::Value {
        match s {
            Scalar::F32 => self.b.ins().f32const(0.0),
            Scalar::F64 => self.b.ins().f64const(0.0),
            _ => self.iconst(cl_ty(s), 0),
        }
    }

    /// SIMD registers per value.
    fn regs(&self) -> usize {
        self.n / 4
    }

    /// The SIMD type of lanes of `s` in this chunk width (none for single lanes).
    fn pk(&self, s: Scalar) -> Option<ir::Type> {
        if self.n >= 4 { packed(s) } else { None }
    }

    /// The lane values of `v` (a number of element type `s`); entries past `n` repeat.
    fn lanes(&mut self, v: VV, s: Scalar) -> [ir::Value; MAX_LANES] {
        let n = self.n;
        match v {
            VV::U(x) => [x; MAX_LANES],
            VV::A(x, st) => {
                let t = cl_ty(s);
                let mut out = [x; MAX_LANES];
                for (k, o) in out.iter_mut().enumerate().take(n).skip(1) {
                    let d = self.iconst(t, (st as u64).wrapping_mul(k as u64));
                    *o = self.b.ins().iadd(x, d);
                    if s == Scalar::I1 {
                        *o = self.b.ins().band_imm_s(*o, 1);
                    }
                }
                out
            }
            VV::L(l) => l,
            VV::P(p) => {
                let mut out = [p[0]; MAX_LANES];
                for (k, o) in out.iter_mut().enumerate().take(n) {
                    *o = self.b.ins().extractlane(p[k / 4], (k % 4) as u8);
                }
                out
            }
        }
    }

    fn lane0(&mut self, v: VV) -> ir::Value {
        match v {
            VV::U(x) | VV::A(x, _) => x,
            VV::L(l) => l[0],
            VV::P(p) => self.b.ins().extractlane(p[0], 0),
        }
    }

    /// `v` as SIMD registers (type `pt`).
    fn pack(&mut self, v: VV, s: Scalar, pt: ir::Type) -> [ir::Value; MAX_REGS] {
        match v {
            VV::P(p) => p,
            VV::U(x) => [self.b.ins().splat(pt, x); MAX_REGS],
            other => {
                let l = self.lanes(other, s);
                let mut out = [l[0]; MAX_REGS];
                for (r, o) in out.iter_mut().enumerate().take(self.regs()) {
                    let mut p = self.b.ins().splat(pt, l[4 * r]);
                    for k in 1..4 {
                        p = self.b.ins().insertlane(p, l[4 * r + k], k as u8);
                    }
                    *o = p;
                }
                out
            }
        }
    }

    /// `f` on each register in use.
    fn pmap(
        &mut self,
        p: [ir::Value; MAX_REGS],
        mut f: impl FnMut(&mut Self, ir::Value) -> ir::Value,
    ) -> [ir::Value; MAX_REGS] {
        let mut out = p;
        for o in out.iter_mut().take(self.regs()) {
            *o = f(self, *o);
        }
        out
    }

    /// `f` on each pair of registers in use.
    fn pmap2(
        &mut self,
        a: [ir::Value; MAX_REGS],
        b: [ir::Value; MAX_REGS],
        mut f: impl FnMut(&mut Self, ir::Value, ir::Value) -> ir::Value,
    ) -> [ir::Value; MAX_REGS] {
        let mut out = a;
        for r in 0..self.regs() {
            out[r] = f(self, a[r], b[r]);
        }
        out
    }

    /// `f` on each lane in use.
    fn lmap(&mut self, mut f: impl FnMut(&mut Self, usize) -> ir::Value) -> [ir::Value; MAX_LANES] {
        let first = f(self, 0);
        let mut out = [first; MAX_LANES];
        for (k, o) in out.iter_mut().enumerate().take(self.n).skip(1) {
            *o = f(self, k);
        }
        out
    }

    fn num(&mut self, v: Value) -> Result<VV, String> {
        match self.get(v)? {
            Val::N(x) => Ok(x),
            Val::Ptr(..) => Err("a pointer used as a number".into()),
        }
    }

    pub fn get(&mut self, v: Value) -> Result<Val, String> {
        self.vals
            .get(&v)
            .copied()
            .ok_or_else(|| format!("value {v:?} used before its definition"))
    }

    /// The value of kind `k` in its representation for a block parameter's variables.
    pub fn vars_of(&mut self, k: K, s: Scalar) -> Vec<(Variable, ir::Type)> {
        let (sub, t) = match k {
            K::N(sub) => (sub, cl_ty(s)),
            K::P(_, sub) => (sub, types::I64),
        };
        let n_vec = matches!(k, K::N(_)) && self.pk(s).is_some();
        let tys: Vec<ir::Type> = match sub {
            Sub::U | Sub::A(_) => vec![t],
            Sub::V if n_vec => vec![self.pk(s).unwrap_or(t); self.regs()],
            Sub::V => vec![t; self.n],
        };
        tys.into_iter()
            .map(|t| (self.b.declare_var(t), t))
            .collect()
    }

    /// Writes `v` into a parameter's variables (kind `k`).
    fn put_vars(&mut self, vars: &[(Variable, ir::Type)], k: K, s: Scalar, v: Val) {
        let (sub, vv, es) = match (k, v) {
            (K::N(sub), Val::N(vv)) => (sub, vv, s),
            (K::P(_, sub), Val::Ptr(_, vv)) => (sub, vv, Scalar::I64),
            _ => return,
        };
        let xs: Vec<ir::Value> = match sub {
            Sub::U | Sub::A(_) => vec![self.lane0(vv)],
            Sub::V => match (matches!(k, K::N(_)), self.pk(es)) {
                (true, Some(pt)) => self.pack(vv, es, pt)[..self.regs()].to_vec(),
                _ => self.lanes(vv, es)[..self.n].to_vec(),
            },
        };
        for ((var, _), x) in vars.iter().zip(xs) {
            self.b.def_var(*var, x);
        }
    }

    /// Reads a parameter's variables back as a value of kind `k`.
    fn read_vars(&mut self, vars: &[(Variable, ir::Type)], k: K, s: Scalar) -> Val {
        let xs: Vec<ir::Value> = vars.iter().map(|(v, _)| self.b.use_var(*v)).collect();
        let vv = |sub: Sub, xs: &[ir::Value], n_vec: bool| match sub {
            Sub::U => VV::U(xs[0]),
            Sub::A(st) => VV::A(xs[0], st),
            Sub::V if n_vec => VV::P(std::array::from_fn(|i| xs[i.min(xs.len() - 1)])),
            Sub::V => VV::L(std::array::from_fn(|i| xs[i.min(xs.len() - 1)])),
        };
        match k {
            K::N(sub) => Val::N(vv(sub, &xs, self.pk(s).is_some())),
            K::P(r, sub) => Val::Ptr(r, vv(sub, &xs, false)),
        }
    }

    /// Emits the kernel's code from `span.start` to its stop (or its returns), then jumps
    /// to `exit`.
    pub fn emit(&mut self, span: &Span, exit: ir::Block) -> Result<(), String> {
        let f = self.plan.f;
        let (sb, si) = span.start;
        let stop_block = span.stop.map(|(b, _)| b);
        // The blocks of this stretch: the start, what it reaches, but nothing past the stop.
        let blocks: Vec<IrBlock> = self
            .plan
            .cfg
            .order
            .iter()
            .copied()
            .filter(|&b| {
                (b == sb || self.plan.cfg.reaches(sb, b))
                    && stop_block.is_none_or(|s| b == s || !self.plan.cfg.reaches(s, b))
            })
            .collect();
        let mut cl: HashMap<IrBlock, ir::Block> = HashMap::new();
        let mut pvars: HashMap<Value, Vec<(Variable, ir::Type)>> = HashMap::new();
        for &b in &blocks {
            if b != sb {
                cl.insert(b, self.b.create_block());
                for &p in f.params_of(b) {
                    let k = self.plan.kinds[p.index()];
                    let s = scalar_of(self.plan.ty(p));
                    let vs = self.vars_of(k, s);
                    pvars.insert(p, vs);
                }
            }
        }
        for &b in &blocks {
            if b != sb {
                let c = cl[&b];
                self.b.switch_to_block(c);
                for &p in f.params_of(b) {
                    let k = self.plan.kinds[p.index()];
                    let s = scalar_of(self.plan.ty(p));
                    let v = self.read_vars(&pvars[&p], k, s);
                    self.vals.insert(p, v);
                }
            }
            let bd = &f.blocks[b.index()];
            let first = if b == sb { si } else { 0 };
            for (k, &inst) in bd.insts.iter().enumerate().skip(first) {
                if span.stop == Some((b, k)) {
                    self.b.ins().jump(exit, &[]);
                    break;
                }
                let d = f.insts.get(inst.index()).ok_or("bad instruction")?;
                match &d.op {
                    Op::Ret(_) => {
                        self.flush();
                        self.b.ins().jump(exit, &[]);
                    }
                    Op::Br(bc) => {
                        self.edge(bc, &pvars, None)?;
                        let t = *cl.get(&bc.block).ok_or("a branch out of the stretch")?;
                        self.b.ins().jump(t, &[]);
                    }
                    Op::CondBr(c, t, e) => match self.cond(*c)? {
                        Cond::Known(taken) => {
                            let bc = if taken { t } else { e };
                            self.edge(bc, &pvars, Some((*c, taken)))?;
                            let tgt = *cl.get(&bc.block).ok_or("a branch out of the stretch")?;
                            self.b.ins().jump(tgt, &[]);
                        }
                        Cond::Dyn(cond) => {
                            let (tb, eb) = (self.b.create_block(), self.b.create_block());
                            self.b.ins().brif(cond, tb, &[], eb, &[]);
                            for (blk, bc, taken) in [(tb, t, true), (eb, e, false)] {
                                self.b.switch_to_block(blk);
                                self.b.seal_block(blk);
                                self.edge(bc, &pvars, Some((*c, taken)))?;
                                let tgt =
                                    *cl.get(&bc.block).ok_or("a branch out of the stretch")?;
                                self.b.ins().jump(tgt, &[]);
                            }
                        }
                    },
                    Op::Barrier { .. } | Op::Fence { .. } => {}
                    op => self.inst(inst, op, d.result)?,
                }
            }
        }
        for &b in &blocks {
            if let Some(&c) = cl.get(&b) {
                self.b.seal_block(c);
            }
        }
        Ok(())
    }

    /// Passes a branch's arguments to its target's parameters.
    fn edge(
        &mut self,
        bc: &oclc_ir::BlockCall,
        pvars: &HashMap<Value, Vec<(Variable, ir::Type)>>,
        cond: Option<(Value, bool)>,
    ) -> Result<(), String> {
        let f = self.plan.f;
        let params = f.params_of(bc.block).to_vec();
        let mut vals = Vec::new();
        for &a in &bc.args {
            let v = match cond {
                // A branch's condition is the same in every lane on its edges.
                Some((c, taken)) if c == a => Val::N(VV::U(self.iconst(types::I8, taken as u64))),
                _ => self.get(a)?,
            };
            vals.push(v);
        }
        for (p, v) in params.iter().zip(vals) {
            let k = self.plan.kinds[p.index()];
            let s = scalar_of(self.plan.ty(*p));
            if let Some(vs) = pvars.get(p) {
                self.put_vars(vs, k, s, v);
            }
        }
        Ok(())
    }

    /// A branch condition: the check pass sends a chunk whose lanes disagree to `fail`;
    /// the fast pass reads lane 0 (every lane agrees there).
    fn cond(&mut self, c: Value) -> Result<Cond, String> {
        let v = self.num(c)?;
        if let VV::U(x) | VV::A(x, _) = v {
            return Ok(Cond::Dyn(x));
        }
        if let Some(k) = self.id_equality(c)? {
            return Ok(k);
        }
        if let Some(k) = self.id_order(c)? {
            return Ok(k);
        }
        if !self.test {
            return Ok(Cond::Dyn(self.lane0(v)));
        }
        let l = self.lanes(v, Scalar::I1);
        let (mut any, mut all) = (l[0], l[0]);
        for &x in l.iter().take(self.n).skip(1) {
            any = self.b.ins().bor(any, x);
            all = self.b.ins().band(all, x);
        }
        let split = self.b.ins().icmp(IntCC::NotEqual, any, all);
        self.fail_if(split);
        Ok(Cond::Dyn(any))
    }

    /// `x == u` or `x != u` for `x` affine with stride 1 or -1 and `u` uniform (a border
    /// test on an id): the lanes differ, so the chunk's lanes agree only where none is
    /// equal; the check pass tests that, and then the branch is known.
    fn id_equality(&mut self, c: Value) -> Result<Option<Cond>, String> {
        let Some((o @ (CmpOp::Eq | CmpOp::Ne), a, b)) = self.lane_comparison(c) else {
            return Ok(None);
        };
        let (x, u) =
            match (self.num(a)?, self.num(b)?) {
                (VV::A(x, s), VV::U(u)) | (VV::U(u), VV::A(x, s)) if s == 1 || s == -1 => {
                    if s == 1 { (x, u) } else { (u, x) }
                }
                _ => return Ok(None),
            };
        if self.test {
            // Lane k equals where u - x == k (stride 1; x - u for stride -1).
            let d = self.b.ins().isub(u, x);
            let hit = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedLessThan, d, self.n as i64);
            self.fail_if(hit);
        }
        Ok(Some(Cond::Known(o == CmpOp::Ne)))
    }

    /// The comparison that defines branch condition `c`, in a chunk of several lanes.
    fn lane_comparison(&self, c: Value) -> Option<(CmpOp, Value, Value)> {
        let f = self.plan.f;
        if self.n < 2 {
            return None;
        }
        let Some(oclc_ir::ValueDef::Inst(i)) = f.values.get(c.index()).map(|d| d.def) else {
            return None;
        };
        match f.insts.get(i.index()).map(|d| &d.op) {
            Some(&Op::Cmp(o, a, b)) => Some((o, a, b)),
            _ => None,
        }
    }

    /// An ordered comparison of an affine value with a uniform one (`x < n` on an id):
    /// where no lane wraps, the lanes are monotonic, so they agree when the first and the
    /// last agree; the check pass tests that (and the wrap), the branch reads lane 0.
    fn id_order(&mut self, c: Value) -> Result<Option<Cond>, String> {
        let Some((o, a, b)) = self.lane_comparison(c) else {
            return Ok(None);
        };
        if o.is_float() || matches!(o, CmpOp::Eq | CmpOp::Ne) {
            return Ok(None);
        }
        let (xa, xb) = (self.num(a)?, self.num(b)?);
        let (x0, st) = match (xa, xb) {
            (VV::A(x, s), VV::U(_)) | (VV::U(_), VV::A(x, s)) => (x, s),
            _ => return Ok(None),
        };
        // The lanes must span less than half the type's range, so one compare finds a wrap.
        let bits = self.plan.ty(a).elem().map_or(64, |e| e.bits());
        let span = st.unsigned_abs() as u128 * (self.n as u128 - 1);
        if bits < 64 && span >= 1u128 << (bits - 1) {
            return Ok(None);
        }
        let (l0a, l0b) = (self.lane0(xa), self.lane0(xb));
        let first = self.cmp1(o, l0a, l0b);
        if !self.test {
            return Ok(Some(Cond::Dyn(first)));
        }
        // The last lane's value, and whether the lanes wrap in the comparison's order.
        let last_x = self
            .b
            .ins()
            .iadd_imm_s(x0, st.wrapping_mul(self.n as i64 - 1));
        let signed = matches!(o, CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge);
        let cc = match (signed, st > 0) {
            (true, true) => IntCC::SignedLessThan,
            (true, false) => IntCC::SignedGreaterThan,
            (false, true) => IntCC::UnsignedLessThan,
            (false, false) => IntCC::UnsignedGreaterThan,
        };
        let wraps = self.b.ins().icmp(cc, last_x, x0);
        let (la, lb) = match (xa, xb) {
            (VV::A(..), _) => (last_x, l0b),
            _ => (l0a, last_x),
        };
        let last = self.cmp1(o, la, lb);
        let split = self.b.ins().bxor(first, last);
        let bad = self.b.ins().bor(split, wraps);
        self.fail_if(bad);
        Ok(Some(Cond::Dyn(first)))
    }

    /// Fused pass: the chunk's stores, once every test passed.
    fn flush(&mut self) {
        for (o, v, vs, base) in std::mem::take(&mut self.pending) {
            self.write(o, v, vs, base);
        }
    }

    /// Check pass: to `fail` when `c` (an `i8` 0/1) is true.
    fn fail_if(&mut self, c: ir::Value) {
        let next = self.b.create_block();
        self.b.ins().brif(c, self.fail, &[], next, &[]);
        self.b.seal_block(next);
        self.b.switch_to_block(next);
    }

    fn query(&mut self, q: oclc_ir::WorkItemQuery, d: usize) -> ir::Value {
        use oclc_ir::WorkItemQuery as Q;
        match q {
            Q::GlobalId => self.b.ins().iadd(self.gbase[d], self.lid[d]),
            Q::LocalId => self.lid[d],
            _ => {
                let w =
                    crate::native::layout::E_QUERY + 4 * crate::native::layout::query_index(q) + d;
                self.b.ins().load(
                    types::I64,
                    crate::native::lower::pure_flags(),
                    self.env,
                    (w * 8) as i32,
                )
            }
        }
    }

    /// One instruction with a result (or a store).
    pub fn inst(&mut self, i: oclc_ir::Inst, op: &Op, r: Option<Value>) -> Result<(), String> {
        let plan = self.plan;
        if let Op::Store { ptr, value } = op {
            return self.store(i, *ptr, *value);
        }
        let Some(r) = r else {
            return Err("an instruction without a result".into());
        };
        let rt = plan.ty(r);
        let rs = scalar_of(rt);
        let kind = plan.kinds[r.index()];
        let out: Val = match op {
            Op::Const(c) => {
                let x = match (c, rs) {
                    (Const::Float(x), Scalar::F32) => self.b.ins().f32const(*x as f32),
                    (Const::Float(x), Scalar::F64) => self.b.ins().f64const(*x),
                    (Const::Int(i), s) if s.is_int() => self.iconst(cl_ty(s), *i),
                    (Const::Int(i), Scalar::F32) => {
                        let x = self.iconst(types::I32, *i);
                        self.b.ins().bitcast(types::F32, MemFlagsData::new(), x)
                    }
                    (Const::Int(i), Scalar::F64) => {
                        let x = self.iconst(types::I64, *i);
                        self.b.ins().bitcast(types::F64, MemFlagsData::new(), x)
                    }
                    _ => return Err("a constant of an unsupported type".into()),
                };
                Val::N(VV::U(x))
            }
            Op::Undef => {
                let z = self.zero(rs);
                Val::N(VV::U(z))
            }
            Op::WorkItem(q, dim) => {
                let d = dim.and_then(|v| plan.konst(v)).unwrap_or(0).min(2) as usize;
                let x = self.query(*q, d);
                let x = self.narrow(x, rs);
                Val::N(match kind {
                    K::N(Sub::A(s)) => VV::A(x, s),
                    _ => VV::U(x),
                })
            }
            Op::LocalAddr(_) | Op::GlobalAddr(_) => {
                let K::P(root, _) = kind else {
                    return Err("an address without a root".into());
                };
                let z = self.iconst(types::I64, 0);
                Val::Ptr(root, VV::U(z))
            }
            Op::PtrAdd(p, o) => {
                let (root, base) = match self.get(*p)? {
                    Val::Ptr(root, vv) => (root, vv),
                    Val::N(_) => return Err("pointer arithmetic on a number".into()),
                };
                let off = self.num(*o)?;
                let sub = match kind {
                    K::P(_, s) => s,
                    K::N(_) => Sub::V,
                };
                let sum = self.int_bin(BinOp::Add, Scalar::I64, sub, base, off);
                if self.test && plan.inner_ptr.get(r.index()).copied().unwrap_or(false) {
                    self.offset_field_check(root, sum);
                }
                Val::Ptr(root, sum)
            }
            Op::Load(p) => self.load(i, *p, r)?,
            Op::Bin(o, a, b) => {
                let (x, y) = (self.num(*a)?, self.num(*b)?);
                let sub = match kind {
                    K::N(s) => s,
                    K::P(..) => Sub::V,
                };
                Val::N(if o.is_float() {
                    self.float_bin(*o, rs, sub, x, y)
                } else {
                    self.int_bin(*o, rs, sub, x, y)
                })
            }
            Op::Un(o, a) => {
                let x = self.num(*a)?;
                let sub = match kind {
                    K::N(s) => s,
                    K::P(..) => Sub::V,
                };
                Val::N(self.un(*o, rs, sub, x))
            }
            Op::Cmp(o, a, b) => {
                let s = scalar_of(plan.ty(*a));
                let (x, y) = (self.num(*a)?, self.num(*b)?);
                Val::N(match kind {
                    K::N(Sub::U) => {
                        let (x, y) = (self.lane0(x), self.lane0(y));
                        VV::U(self.cmp1(*o, x, y))
                    }
                    _ => {
                        let (lx, ly) = (self.lanes(x, s), self.lanes(y, s));
                        VV::L(self.lmap(|e, k| e.cmp1(*o, lx[k], ly[k])))
                    }
                })
            }
            Op::Conv(o, a) => {
                let from = scalar_of(plan.ty(*a));
                let x = self.num(*a)?;
                Val::N(match kind {
                    K::N(Sub::U) => {
                        let x = self.lane0(x);
                        VV::U(self.conv1(*o, from, rs, x)?)
                    }
                    K::N(Sub::A(st)) => {
                        if self.test && matches!(o, ConvOp::ZExt | ConvOp::SExt) {
                            self.no_wrap_check(*o, from, x);
                        }
                        let x = self.lane0(x);
                        VV::A(self.conv1(*o, from, rs, x)?, st)
                    }
                    _ => match (o, from, rs, x) {
                        (ConvOp::SToF, Scalar::I32, Scalar::F32, VV::P(p)) => {
                            VV::P(self.pmap(p, |e, r| e.b.ins().fcvt_from_sint(types::F32X4, r)))
                        }
                        _ => {
                            let l = self.lanes(x, from);
                            let mut out = l;
                            for (k, o2) in out.iter_mut().enumerate().take(self.n) {
                                *o2 = self.conv1(*o, from, rs, l[k])?;
                            }
                            self.repack(VV::L(out), rs)
                        }
                    },
                })
            }
            Op::Select(c, a, b) => {
                let (cv, x, y) = (self.num(*c)?, self.num(*a)?, self.num(*b)?);
                Val::N(match kind {
                    K::N(Sub::U) => {
                        let (c0, x0, y0) = (self.lane0(cv), self.lane0(x), self.lane0(y));
                        VV::U(self.b.ins().select(c0, x0, y0))
                    }
                    _ => {
                        let lc = self.lanes(cv, Scalar::I1);
                        let (lx, ly) = (self.lanes(x, rs), self.lanes(y, rs));
                        let out = self.lmap(|e, k| e.b.ins().select(lc[k], lx[k], ly[k]));
                        self.repack(VV::L(out), rs)
                    }
                })
            }
            Op::CallBuiltin(id, args) => {
                let bi = plan.builtin(*id).ok_or("an unsupported builtin")?;
                let xs: Vec<VV> = args
                    .iter()
                    .map(|&a| self.num(a))
                    .collect::<Result<_, _>>()?;
                Val::N(self.builtin(bi, rs, kind, &xs))
            }
            other => return Err(format!("unexpected {other:?}")),
        };
        self.vals.insert(r, out);
        Ok(())
    }

    /// Builtin `bi` on `xs` (type `s`), as the cpu runtime computes it: integers compared
    /// as their type's signedness, the rest exact IEEE operations (NaNs included: tested
    /// against the runtime, signaling ones too).
    fn builtin(&mut self, bi: Bi, s: Scalar, kind: K, xs: &[VV]) -> VV {
        let one = |e: &mut Self, a: &[ir::Value]| -> ir::Value {
            let i = e.b.ins();
            match bi {
                Bi::Min(u) => {
                    if u {
                        i.umin(a[0], a[1])
                    } else {
                        i.smin(a[0], a[1])
                    }
                }
                Bi::Max(u) => {
                    if u {
                        i.umax(a[0], a[1])
                    } else {
                        i.smax(a[0], a[1])
                    }
                }
                Bi::Clamp(u) => {
                    let m = if u {
                        i.umax(a[0], a[1])
                    } else {
                        i.smax(a[0], a[1])
                    };
                    if u {
                        e.b.ins().umin(m, a[2])
                    } else {
                        e.b.ins().smin(m, a[2])
                    }
                }
                Bi::Sqrt => i.sqrt(a[0]),
                Bi::Floor => i.floor(a[0]),
                Bi::Ceil => i.ceil(a[0]),
                Bi::Trunc => i.trunc(a[0]),
                Bi::Fabs => i.fabs(a[0]),
                Bi::Fma => i.fma(a[0], a[1], a[2]),
            }
        };
        if kind == K::N(Sub::U) {
            let a: Vec<ir::Value> = xs.iter().map(|&x| self.lane0(x)).collect();
            return VV::U(one(self, &a));
        }
        // SIMD registers where the type has them (every operation has a vector form).
        if let Some(pt) = self.pk(s) {
            let ps: Vec<[ir::Value; MAX_REGS]> = xs.iter().map(|&x| self.pack(x, s, pt)).collect();
            let mut out = ps[0];
            for (r, o) in out.iter_mut().enumerate().take(self.regs()) {
                let a: Vec<ir::Value> = ps.iter().map(|p| p[r]).collect();
                *o = one(self, &a);
            }
            return VV::P(out);
        }
        let ls: Vec<[ir::Value; MAX_LANES]> = xs.iter().map(|&x| self.lanes(x, s)).collect();
        let out = self.lmap(|e, k| {
            let a: Vec<ir::Value> = ls.iter().map(|l| l[k]).collect();
            one(e, &a)
        });
        self.repack(VV::L(out), s)
    }

    /// A varying result in its representation: packed for `i32`/`f32`.
    fn repack(&mut self, v: VV, s: Scalar) -> VV {
        match (v, self.pk(s)) {
            (VV::L(_), Some(pt)) => VV::P(self.pack(v, s, pt)),
            _ => v,
        }
    }

    /// A query's `i64` as the result type.
    fn narrow(&mut self, x: ir::Value, s: Scalar) -> ir::Value {
        let t = cl_ty(s);
        if t == types::I64 {
            x
        } else {
            self.b.ins().ireduce(t, x)
        }
    }

    fn int_bin(&mut self, o: BinOp, s: Scalar, sub: Sub, x: VV, y: VV) -> VV {
        match sub {
            Sub::U | Sub::A(_) => {
                let (a, b) = (self.lane0(x), self.lane0(y));
                let r = self.int1(o, s, a, b);
                match sub {
                    Sub::A(st) => VV::A(r, st),
                    _ => VV::U(r),
                }
            }
            Sub::V => {
                if s == Scalar::I32 && self.pk(s).is_some() {
                    let simd = matches!(
                        (o, y),
                        (
                            BinOp::Add
                                | BinOp::Sub
                                | BinOp::Mul
                                | BinOp::And
                                | BinOp::Or
                                | BinOp::Xor,
                            _,
                        ) | (BinOp::Shl | BinOp::LShr | BinOp::AShr, VV::U(_))
                    );
                    if simd {
                        let px = self.pack(x, s, types::I32X4);
                        let p = match o {
                            BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                                let amt = self.lane0(y);
                                self.pmap(px, |e, r| match o {
                                    BinOp::Shl => e.b.ins().ishl(r, amt),
                                    BinOp::LShr => e.b.ins().ushr(r, amt),
                                    _ => e.b.ins().sshr(r, amt),
                                })
                            }
                            _ => {
                                let py = self.pack(y, s, types::I32X4);
                                self.pmap2(px, py, |e, a, b| match o {
                                    BinOp::Add => e.b.ins().iadd(a, b),
                                    BinOp::Sub => e.b.ins().isub(a, b),
                                    BinOp::Mul => e.b.ins().imul(a, b),
                                    BinOp::And => e.b.ins().band(a, b),
                                    BinOp::Or => e.b.ins().bor(a, b),
                                    _ => e.b.ins().bxor(a, b),
                                })
                            }
                        };
                        return VV::P(p);
                    }
                }
                let (lx, ly) = (self.lanes(x, s), self.lanes(y, s));
                let out = self.lmap(|e, k| e.int1(o, s, lx[k], ly[k]));
                self.repack(VV::L(out), s)
            }
        }
    }

    fn int1(&mut self, o: BinOp, s: Scalar, a: ir::Value, b: ir::Value) -> ir::Value {
        let i = self.b.ins();
        let r = match o {
            BinOp::Add => i.iadd(a, b),
            BinOp::Sub => i.isub(a, b),
            BinOp::Mul => i.imul(a, b),
            BinOp::And => i.band(a, b),
            BinOp::Or => i.bor(a, b),
            BinOp::Xor => i.bxor(a, b),
            BinOp::Shl => i.ishl(a, b),
            BinOp::LShr => i.ushr(a, b),
            // By a constant that cannot trap (see the plan).
            BinOp::UDiv => i.udiv(a, b),
            BinOp::SDiv => i.sdiv(a, b),
            BinOp::URem => i.urem(a, b),
            BinOp::SRem => i.srem(a, b),
            // The float operators never reach here.
            _ => i.sshr(a, b),
        };
        if s == Scalar::I1 {
            self.b.ins().band_imm_s(r, 1)
        } else {
            r
        }
    }

    fn float_bin(&mut self, o: BinOp, s: Scalar, sub: Sub, x: VV, y: VV) -> VV {
        let f1 = |e: &mut Self, a: ir::Value, b: ir::Value| {
            let i = e.b.ins();
            match o {
                BinOp::FAdd => i.fadd(a, b),
                BinOp::FSub => i.fsub(a, b),
                BinOp::FMul => i.fmul(a, b),
                _ => i.fdiv(a, b),
            }
        };
        if sub != Sub::V {
            let (a, b) = (self.lane0(x), self.lane0(y));
            return VV::U(f1(self, a, b));
        }
        if let Some(pt) = self.pk(s) {
            let (a, b) = (self.pack(x, s, pt), self.pack(y, s, pt));
            return VV::P(self.pmap2(a, b, f1));
        }
        let (lx, ly) = (self.lanes(x, s), self.lanes(y, s));
        VV::L(self.lmap(|e, k| f1(e, lx[k], ly[k])))
    }

    fn un(&mut self, o: UnOp, s: Scalar, sub: Sub, x: VV) -> VV {
        let u1 = |e: &mut Self, a: ir::Value| {
            let r = match o {
                UnOp::Neg => e.b.ins().ineg(a),
                UnOp::Not => e.b.ins().bnot(a),
                UnOp::FNeg => e.b.ins().fneg(a),
            };
            if s == Scalar::I1 {
                e.b.ins().band_imm_s(r, 1)
            } else {
                r
            }
        };
        match sub {
            Sub::U => {
                let a = self.lane0(x);
                VV::U(u1(self, a))
            }
            Sub::A(st) => {
                let a = self.lane0(x);
                VV::A(u1(self, a), st)
            }
            Sub::V => {
                if let (Some(pt), true) = (self.pk(s), s != Scalar::I1) {
                    let p = self.pack(x, s, pt);
                    return VV::P(self.pmap(p, u1));
                }
                let l = self.lanes(x, s);
                VV::L(self.lmap(|e, k| u1(e, l[k])))
            }
        }
    }

    fn cmp1(&mut self, o: CmpOp, a: ir::Value, b: ir::Value) -> ir::Value {
        let i = self.b.ins();
        match o {
            CmpOp::Eq => i.icmp(IntCC::Equal, a, b),
            CmpOp::Ne => i.icmp(IntCC::NotEqual, a, b),
            CmpOp::Slt => i.icmp(IntCC::SignedLessThan, a, b),
            CmpOp::Sle => i.icmp(IntCC::SignedLessThanOrEqual, a, b),
            CmpOp::Sgt => i.icmp(IntCC::SignedGreaterThan, a, b),
            CmpOp::Sge => i.icmp(IntCC::SignedGreaterThanOrEqual, a, b),
            CmpOp::Ult => i.icmp(IntCC::UnsignedLessThan, a, b),
            CmpOp::Ule => i.icmp(IntCC::UnsignedLessThanOrEqual, a, b),
            CmpOp::Ugt => i.icmp(IntCC::UnsignedGreaterThan, a, b),
            CmpOp::Uge => i.icmp(IntCC::UnsignedGreaterThanOrEqual, a, b),
            CmpOp::FOeq => i.fcmp(FloatCC::Equal, a, b),
            CmpOp::FUne => i.fcmp(FloatCC::NotEqual, a, b),
            CmpOp::FOlt => i.fcmp(FloatCC::LessThan, a, b),
            CmpOp::FOle => i.fcmp(FloatCC::LessThanOrEqual, a, b),
            CmpOp::FOgt => i.fcmp(FloatCC::GreaterThan, a, b),
            CmpOp::FOge => i.fcmp(FloatCC::GreaterThanOrEqual, a, b),
        }
    }

    /// One lane's conversion, as the interpreter computes it (saturating float to
    /// integer, NaN to 0, as Rust's `as`).
    fn conv1(
        &mut self,
        o: ConvOp,
        from: Scalar,
        to: Scalar,
        x: ir::Value,
    ) -> Result<ir::Value, String> {
        let (ft, tt) = (cl_ty(from), cl_ty(to));
        let i = self.b.ins();
        Ok(match o {
            ConvOp::ZExt if ft == tt => x,
            ConvOp::ZExt => i.uextend(tt, x),
            ConvOp::SExt if from == Scalar::I1 => {
                let n = i.ineg(x);
                if tt == types::I8 {
                    n
                } else {
                    self.b.ins().sextend(tt, n)
                }
            }
            ConvOp::SExt if ft == tt => x,
            ConvOp::SExt => i.sextend(tt, x),
            ConvOp::Trunc => {
                let r = if ft == tt { x } else { i.ireduce(tt, x) };
                if to == Scalar::I1 {
                    self.b.ins().band_imm_s(r, 1)
                } else {
                    r
                }
            }
            ConvOp::SToF => {
                // An `i1` is signed: true is -1.
                let x = if from == Scalar::I1 { i.ineg(x) } else { x };
                let w = if ft.bits() < 32 {
                    self.b.ins().sextend(types::I32, x)
                } else {
                    x
                };
                self.b.ins().fcvt_from_sint(tt, w)
            }
            ConvOp::UToF => {
                let w = if ft.bits() < 32 {
                    self.b.ins().uextend(types::I32, x)
                } else {
                    x
                };
                self.b.ins().fcvt_from_uint(tt, w)
            }
            ConvOp::FToS => i.fcvt_to_sint_sat(tt, x),
            ConvOp::FToU => i.fcvt_to_uint_sat(tt, x),
            ConvOp::FExt if ft == tt => x,
            ConvOp::FExt => i.fpromote(tt, x),
            ConvOp::FTrunc if ft == tt => x,
            ConvOp::FTrunc => i.fdemote(tt, x),
            ConvOp::ToBool if from.is_float() => {
                let z = self.zero(from);
                self.b.ins().fcmp(FloatCC::NotEqual, x, z)
            }
            ConvOp::ToBool => i.icmp_imm_s(IntCC::NotEqual, x, 0),
            _ => return Err(format!("conversion {} from {}", o.name(), from.name())),
        })
    }

    /// Check pass: an extension of an affine value stays affine only if no lane wraps in
    /// the narrow type.
    fn no_wrap_check(&mut self, o: ConvOp, from: Scalar, x: VV) {
        let VV::A(base, st) = x else {
            return;
        };
        let bits = from.bits();
        let t = cl_ty(from);
        let span = (st.unsigned_abs() as u128) * (self.n as u128 - 1);
        // The type's range as the extension reads it, lowest value as its bits.
        let signed = o == ConvOp::SExt;
        let (min, max) = if signed {
            (1u128 << (bits - 1), (mask(bits) >> 1) as u128)
        } else {
            (0, mask(bits) as u128)
        };
        let bad = if span > max {
            self.iconst(types::I8, 1)
        } else if st > 0 {
            // The last lane, base + span, must not pass the maximum.
            let lim = self.iconst(t, (max - span) as u64);
            let cc = if signed {
                IntCC::SignedGreaterThan
            } else {
                IntCC::UnsignedGreaterThan
            };
            self.b.ins().icmp(cc, base, lim)
        } else {
            // The last lane, base - span, must not pass the minimum.
            let lim = self.iconst(t, (min as u64).wrapping_add(span as u64));
            let cc = if signed {
                IntCC::SignedLessThan
            } else {
                IntCC::UnsignedLessThan
            };
            self.b.ins().icmp(cc, base, lim)
        };
        self.fail_if(bad);
    }

    /// Check pass: a pointer that more arithmetic starts from must keep its offset in the
    /// pointer's offset field, as the interpreter's clamped arithmetic does.
    fn offset_field_check(&mut self, root: u32, off: VV) {
        let Some(rw) = self.roots.get(root as usize).copied().flatten() else {
            return;
        };
        let o = self.add_soff(rw.soff, off);
        let half = 1i64 << (crate::ptr::ALLOC_SHIFT - 1);
        // An affine offset's lanes lie between its first and last (its stride is small).
        let l: Vec<ir::Value> = match o {
            VV::U(x) => vec![x],
            VV::A(x, st) => vec![x, self.b.ins().iadd_imm_s(x, st * (self.n as i64 - 1))],
            other => self.lanes(other, Scalar::I64)[..self.n].to_vec(),
        };
        for x in l {
            let sh = self.b.ins().iadd_imm_s(x, half);
            let bad = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, sh, 2 * half);
            self.fail_if(bad);
        }
    }

    fn add_soff(&mut self, soff: ir::Value, off: VV) -> VV {
        match off {
            VV::U(x) => VV::U(self.b.ins().iadd(soff, x)),
            VV::A(x, s) => VV::A(self.b.ins().iadd(soff, x), s),
            other => {
                let l = self.lanes(other, Scalar::I64);
                VV::L(self.lmap(|e, k| e.b.ins().iadd(soff, l[k])))
            }
        }
    }

    /// Check pass: every lane's `bytes` at offset `o` (root offset included) lie within
    /// the root's (`store`: writable) size and are aligned to `bytes` (`aligned`: known to be,
    /// the root's offset being tested once per group).
    fn bounds_check(&mut self, root: u32, store: bool, o: VV, bytes: u32, aligned: bool) {
        let b = bytes as i64;
        let (lo, span, x0) = match o {
            VV::U(x) => (x, 0i64, x),
            VV::A(x, st) => {
                let span = st.saturating_mul(self.n as i64 - 1);
                let lo = if span < 0 {
                    self.b.ins().iadd_imm_s(x, span)
                } else {
                    x
                };
                if st % b != 0 {
                    let t = self.iconst(types::I8, 1);
                    self.fail_if(t);
                    return;
                }
                (lo, span.abs(), x)
            }
            other => {
                let l = self.lanes(other, Scalar::I64);
                for &x in l.iter().take(self.n) {
                    self.bounds_check(root, store, VV::U(x), bytes, aligned);
                }
                return;
            }
        };
        // lo <= size - bytes - span (unsigned: a negative lo fails); a root smaller than
        // bytes + span sends the group to the scalar code at entry.
        let need = b + span;
        let (cap, small) = match self.caps.get(&(root, store, need)) {
            Some(&c) => c,
            None => {
                let Some(rw) = self.roots.get(root as usize).copied().flatten() else {
                    let t = self.iconst(types::I8, 1);
                    self.fail_if(t);
                    return;
                };
                let size = if store { rw.size_st } else { rw.size_ld };
                let small = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, size, need);
                (self.b.ins().iadd_imm_s(size, -need), Some(small))
            }
        };
        let mut bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, lo, cap);
        if let Some(sm) = small {
            bad = self.b.ins().bor(bad, sm);
        }
        if !aligned && bytes > 1 {
            let m = self.b.ins().band_imm_s(x0, b - 1);
            let mis = self.b.ins().icmp_imm_s(IntCC::NotEqual, m, 0);
            bad = self.b.ins().bor(bad, mis);
        }
        self.fail_if(bad);
    }

    /// Check pass: access `i` (offsets `o`, `by` bytes per lane) must not overlap an
    /// earlier access of another lane that comes later in the work-items' order (see
    /// [`Plan::earlier`]).
    fn order_check(&mut self, i: oclc_ir::Inst, o: VV, by: u32) {
        let plan = self.plan;
        // One lane has no other lane to meet.
        let Some(xs) = plan.earlier.get(&i).filter(|_| self.n > 1) else {
            self.seen.insert(i, (o, by));
            return;
        };
        for x in xs {
            let Some(&(ox, bx)) = self.seen.get(x) else {
                // Cannot happen (an earlier access dominates this one): run on the scalar code.
                let t = self.iconst(types::I8, 1);
                self.fail_if(t);
                continue;
            };
            let (bxi, byi) = (bx as i64, by as i64);
            let bad = match (ox, o) {
                (VV::A(x0, s), VV::A(y0, t)) if s == t => {
                    // Lanes a > b overlap where -bx < d + (a - b) s < by, d = x0 - y0.
                    let d = self.b.ins().isub(x0, y0);
                    let mut bad = self.iconst(types::I8, 0);
                    for m in 1..self.n as i64 {
                        let t = self.b.ins().iadd_imm_s(d, m * s + bxi - 1);
                        let hit =
                            self.b
                                .ins()
                                .icmp_imm_s(IntCC::UnsignedLessThan, t, bxi + byi - 1);
                        bad = self.b.ins().bor(bad, hit);
                    }
                    bad
                }
                (VV::U(x0), VV::U(y0)) => {
                    let d = self.b.ins().isub(x0, y0);
                    let t = self.b.ins().iadd_imm_s(d, bxi - 1);
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::UnsignedLessThan, t, bxi + byi - 1)
                }
                _ => {
                    let (xl, xh) = self.hull(ox, bxi);
                    let (yl, yh) = self.hull(o, byi);
                    let a = self.b.ins().icmp(IntCC::SignedLessThan, xl, yh);
                    let b = self.b.ins().icmp(IntCC::SignedLessThan, yl, xh);
                    self.b.ins().band(a, b)
                }
            };
            self.fail_if(bad);
        }
        self.seen.insert(i, (o, by));
    }

    /// The lowest offset and the end of the bytes of every lane.
    fn hull(&mut self, o: VV, bytes: i64) -> (ir::Value, ir::Value) {
        let l = self.lanes(o, Scalar::I64);
        let (mut lo, mut hi) = (l[0], l[0]);
        for &x in l.iter().take(self.n).skip(1) {
            lo = self.b.ins().smin(lo, x);
            hi = self.b.ins().smax(hi, x);
        }
        let end = self.b.ins().iadd_imm_s(hi, bytes);
        (lo, end)
    }

    /// The root and offset of pointer `p`, the root's words, and whether the offset from
    /// the root is a multiple of `bytes`.
    fn access(&mut self, p: Value, bytes: u32) -> Result<(u32, RootW, VV, bool), String> {
        let Val::Ptr(root, off) = self.get(p)? else {
            return Err("an access through a number".into());
        };
        let rw = self
            .roots
            .get(root as usize)
            .copied()
            .flatten()
            .ok_or("an access through a root without words")?;
        let o = self.add_soff(rw.soff, off);
        let aligned = self.plan.tz(p, 0) >= bytes.trailing_zeros();
        Ok((root, rw, o, aligned))
    }

    fn load(&mut self, i: oclc_ir::Inst, p: Value, r: Value) -> Result<Val, String> {
        let rs = scalar_of(self.plan.ty(r));
        let bytes = rs.bytes();
        let (root, rw, o, aligned) = self.access(p, bytes)?;
        let kind = self.plan.kinds[r.index()];
        if self.test {
            self.bounds_check(root, false, o, bytes, aligned);
            self.order_check(i, o, bytes);
        }
        if !self.work {
            // The check pass never uses what memory holds (see the plan).
            let z = self.zero(rs);
            return Ok(Val::N(match kind {
                K::N(Sub::U) => VV::U(z),
                _ => self.repack(VV::L([z; MAX_LANES]), rs),
            }));
        }
        let t = cl_ty(rs);
        let one = |e: &mut Self, x: ir::Value| {
            let a = e.b.ins().iadd(rw.base, x);
            let v = e.b.ins().load(t, mem(), a, 0);
            if rs == Scalar::I1 {
                e.b.ins().band_imm_s(v, 1)
            } else {
                v
            }
        };
        Ok(Val::N(match (o, self.pk(rs)) {
            (VV::U(x), _) => VV::U(one(self, x)),
            (VV::A(x, st), Some(pt)) if st == bytes as i64 => {
                let a = self.b.ins().iadd(rw.base, x);
                let mut p = [a; MAX_REGS];
                for (r, v) in p.iter_mut().enumerate().take(self.regs()) {
                    *v = self.b.ins().load(pt, mem(), a, (16 * r) as i32);
                }
                VV::P(p)
            }
            _ => {
                let l = self.lanes(o, Scalar::I64);
                let out = self.lmap(|e, k| one(e, l[k]));
                self.repack(VV::L(out), rs)
            }
        }))
    }

    fn store(&mut self, i: oclc_ir::Inst, p: Value, value: Value) -> Result<(), String> {
        let vs = scalar_of(self.plan.ty(value));
        let bytes = vs.bytes();
        let (root, rw, o, aligned) = self.access(p, bytes)?;
        if self.test {
            self.bounds_check(root, true, o, bytes, aligned);
            self.order_check(i, o, bytes);
        }
        if !self.work {
            return Ok(());
        }
        let v = self.num(value)?;
        if self.test {
            self.pending.push((o, v, vs, rw.base));
        } else {
            self.write(o, v, vs, rw.base);
        }
        Ok(())
    }

    /// Stores `v` (lanes of type `vs`) at offsets `o` from `base`.
    fn write(&mut self, o: VV, v: VV, vs: Scalar, base: ir::Value) {
        let bytes = vs.bytes();
        match (o, self.pk(vs)) {
            (VV::A(x, st), Some(pt)) if st == bytes as i64 => {
                let pv = self.pack(v, vs, pt);
                let a = self.b.ins().iadd(base, x);
                for (r, &v) in pv.iter().enumerate().take(self.regs()) {
                    self.b.ins().store(mem(), v, a, (16 * r) as i32);
                }
            }
            _ => {
                // Lane by lane, in work-item order (the last one's write stays).
                let lo = self.lanes(o, Scalar::I64);
                let lv = self.lanes(v, vs);
                for k in 0..self.n {
                    let a = self.b.ins().iadd(base, lo[k]);
                    self.b.ins().store(mem(), lv[k], a, 0);
                }
            }
        }
    }
}

/// A branch condition: known for the whole chunk, or a value (the same in every lane).
pub enum Cond {
    Known(bool),
    Dyn(ir::Value),
}
