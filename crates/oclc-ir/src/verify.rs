//! The IR verifier: structure (terminators, block arguments), types of every operand, SSA
//! dominance, and module-level rules (call signatures, no recursion).

use crate::ir::*;
use crate::types::{AddrSpace, Scalar, Type, valid_lanes};
use oclc_syntax::Span;
use rayon::prelude::*;

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("in function `{func}`{}: {message}", inst.map(|i| format!(" at {i}")).unwrap_or_default())]
pub struct VerifyError {
    pub func: String,
    pub inst: Option<Inst>,
    pub span: Span,
    pub message: String,
}

/// Checks every function of `m` and the call graph; returns all violations found.
pub fn verify_module(m: &Module) -> Result<(), Vec<VerifyError>> {
    // Functions are checked in parallel; their errors are collected in function order.
    let mut errs: Vec<VerifyError> = crate::par::install(|| {
        m.functions
            .par_iter()
            .enumerate()
            .flat_map_iter(|(i, f)| {
                let mut errs = Vec::new();
                verify_function_in(m, FuncId(i as u32), f, &mut errs);
                errs
            })
            .collect()
    });
    check_recursion(m, &mut errs);
    for (i, g) in m.globals.iter().enumerate() {
        let bad = |message: String| VerifyError {
            func: g.name.clone(),
            inst: None,
            span: g.span,
            message,
        };
        if !matches!(g.space, AddrSpace::Global | AddrSpace::Constant) {
            errs.push(bad(format!("global @g{i} is in space {:?}", g.space)));
        }
        if g.init.len() as u64 > g.size {
            errs.push(bad(format!(
                "global @g{i} initializer is longer than its size"
            )));
        }
        for r in &g.relocs {
            if r.target.index() >= m.globals.len() || r.offset as u64 + 8 > g.size {
                errs.push(bad(format!("global @g{i} has an invalid relocation")));
            }
        }
    }
    for (i, l) in m.locals.iter().enumerate() {
        if m.function(l.kernel).is_none_or(|f| !f.is_kernel()) {
            errs.push(VerifyError {
                func: l.name.clone(),
                inst: None,
                span: l.span,
                message: format!("local @l{i} belongs to no kernel"),
            });
        }
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// Checks one function on its own (calls, globals and builtins are looked up in `m`).
pub fn verify_function(m: &Module, f: &Function) -> Result<(), Vec<VerifyError>> {
    let mut errs = Vec::new();
    verify_function_in(m, FuncId(u32::MAX), f, &mut errs);
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// Runs the verifier in debug builds only (after building and after each pass).
pub fn debug_verify(m: &Module) -> Result<(), Vec<VerifyError>> {
    if cfg!(debug_assertions) {
        verify_module(m)
    } else {
        Ok(())
    }
}

struct Ctx<'a> {
    m: &'a Module,
    f: &'a Function,
    errs: &'a mut Vec<VerifyError>,
}

impl Ctx<'_> {
    fn err(&mut self, inst: Option<Inst>, msg: impl Into<String>) {
        let span = inst
            .and_then(|i| self.f.insts.get(i.index()))
            .map_or(self.f.span, |d| d.span);
        self.errs.push(VerifyError {
            func: self.f.name.clone(),
            inst,
            span,
            message: msg.into(),
        });
    }
    fn ty(&self, v: Value) -> Option<Type> {
        self.f.value_type(v)
    }
}

fn verify_function_in(m: &Module, id: FuncId, f: &Function, errs: &mut Vec<VerifyError>) {
    let mut cx = Ctx { m, f, errs };
    if f.blocks.is_empty() {
        cx.err(None, "function has no blocks");
        return;
    }
    let entry_tys: Vec<_> = f.params_of(Block(0)).iter().map(|v| cx.ty(*v)).collect();
    let param_tys: Vec<_> = f.params.iter().map(|p| Some(p.ty)).collect();
    if entry_tys != param_tys {
        cx.err(
            None,
            "entry block parameters do not match the function's parameters",
        );
    }
    if let Some(k) = &f.kernel {
        let _ = k;
        if f.ret.is_some() {
            cx.err(None, "a kernel must return void");
        }
        for p in &f.params {
            let ok = match (&p.kind, p.ty) {
                (ParamKind::Value, t) => !t.is_ptr(),
                (ParamKind::Buffer(s), Type::Ptr(t)) => {
                    *s == t
                        && matches!(
                            s,
                            AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
                        )
                }
                (ParamKind::Aggregate { .. }, Type::Ptr(AddrSpace::Private)) => true,
                _ => false,
            };
            if !ok {
                cx.err(
                    None,
                    format!(
                        "kernel parameter `{}` has kind {:?} but type {}",
                        p.name, p.kind, p.ty
                    ),
                );
            }
        }
    }
    // Each instruction in exactly one block; values defined where they say.
    let mut owner: Vec<Option<(Block, usize)>> = vec![None; f.insts.len()];
    for (bi, bd) in f.blocks.iter().enumerate() {
        let b = Block(bi as u32);
        for (pi, p) in bd.params.iter().enumerate() {
            match f.values.get(p.index()) {
                Some(ValueData {
                    def: ValueDef::Param(pb, idx),
                    ..
                }) if *pb == b && *idx as usize == pi => {}
                _ => cx.err(
                    None,
                    format!("{p} is listed as parameter {pi} of {b} but not defined there"),
                ),
            }
        }
        if bd.insts.is_empty() {
            cx.err(None, format!("{b} is empty"));
        }
        for (pos, i) in bd.insts.iter().enumerate() {
            match owner.get_mut(i.index()) {
                None => cx.err(None, format!("{b} lists unknown instruction {i}")),
                Some(Some(_)) => cx.err(Some(*i), "instruction appears in more than one place"),
                Some(slot) => *slot = Some((b, pos)),
            }
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            let last = pos + 1 == bd.insts.len();
            if d.op.is_terminator() != last {
                cx.err(
                    Some(*i),
                    if last {
                        format!("{b} does not end in a terminator")
                    } else {
                        "terminator in the middle of a block".into()
                    },
                );
            }
            if let Some(r) = d.result {
                match f.values.get(r.index()) {
                    Some(ValueData {
                        def: ValueDef::Inst(di),
                        ..
                    }) if di == i => {}
                    _ => cx.err(
                        Some(*i),
                        format!("result {r} is not defined by this instruction"),
                    ),
                }
            }
        }
    }
    for (ii, d) in f.insts.iter().enumerate() {
        let i = Inst(ii as u32);
        let mut bad_operand = false;
        d.op.for_each_operand(|v| bad_operand |= v.index() >= f.values.len());
        if bad_operand {
            cx.err(Some(i), "operand refers to an undefined value");
            continue;
        }
        if owner.get(ii).is_some_and(|o| o.is_some()) {
            check_types(&mut cx, id, i, d);
        }
    }
    check_dominance(&mut cx, &owner);
}

fn check_types(cx: &mut Ctx, self_id: FuncId, i: Inst, d: &InstData) {
    let f = cx.f;
    let rty = d.result.and_then(|r| cx.ty(r));
    let t = |v: &Value| f.value_type(*v).unwrap_or(Type::I1);
    let mut pr = Problems {
        list: Vec::new(),
        has_result: rty.is_some(),
    };
    match &d.op {
        Op::Const(c) => {
            pr.result(true);
            let r = rty.unwrap_or(Type::I1);
            match c {
                Const::Int(_) => pr.need(r.is_int(), "integer constant of non-integer type"),
                Const::Float(_) => pr.need(r.is_float(), "float constant of non-float type"),
                Const::Null => pr.need(r.is_ptr(), "null of non-pointer type"),
            }
        }
        Op::Undef => pr.result(true),
        Op::Bin(op, a, b) => {
            pr.result(true);
            pr.need(
                t(a) == t(b) && Some(t(a)) == rty,
                "binary operands and result must have one type",
            );
            if op.is_float() {
                pr.need(t(a).is_float(), "float operator on non-float operands");
            } else {
                pr.need(t(a).is_int(), "integer operator on non-integer operands");
            }
        }
        Op::Un(op, a) => {
            pr.result(true);
            pr.need(Some(t(a)) == rty, "unary operand and result types differ");
            pr.need(
                if *op == UnOp::FNeg {
                    t(a).is_float()
                } else {
                    t(a).is_int()
                },
                "unary operator on wrong type",
            );
        }
        Op::Cmp(op, a, b) => {
            pr.result(true);
            pr.need(t(a) == t(b), "compared values have different types");
            pr.need(
                rty == Some(t(a).with_elem_or_ptr(Scalar::I1)),
                "comparison result must be i1 shaped like its operands",
            );
            if op.is_float() {
                pr.need(t(a).is_float(), "float comparison of non-float values");
            } else if t(a).is_ptr() {
                pr.need(
                    matches!(
                        op,
                        CmpOp::Eq | CmpOp::Ne | CmpOp::Ult | CmpOp::Ule | CmpOp::Ugt | CmpOp::Uge
                    ),
                    "pointers compare only with eq/ne/unsigned orderings",
                );
            } else {
                pr.need(t(a).is_int(), "integer comparison of non-integer values");
            }
        }
        Op::Conv(op, a) => {
            pr.result(true);
            let (from, to) = (t(a), rty.unwrap_or(Type::I1));
            let lanes_ok = from.lanes() == to.lanes();
            let fb = from.elem().map_or(64, |s| s.bits());
            let tb = to.elem().map_or(64, |s| s.bits());
            let ok = match op {
                ConvOp::ZExt | ConvOp::SExt => from.is_int() && to.is_int() && fb < tb,
                ConvOp::Trunc => from.is_int() && to.is_int() && fb > tb,
                ConvOp::SToF | ConvOp::UToF => from.is_int() && to.is_float(),
                ConvOp::FToS | ConvOp::FToU => from.is_float() && to.is_int(),
                ConvOp::FExt => from.is_float() && to.is_float() && fb < tb,
                ConvOp::FTrunc => from.is_float() && to.is_float() && fb > tb,
                ConvOp::ToBool => !from.is_ptr() && to.elem() == Some(Scalar::I1),
                ConvOp::PtrToInt => from.is_ptr() && matches!(to, Type::Scalar(s) if s.is_int()),
            };
            pr.need(ok && lanes_ok, "conversion between unsuitable types");
        }
        Op::Bitcast(a) => {
            pr.result(true);
            let to = rty.unwrap_or(Type::I1);
            pr.need(
                !t(a).is_ptr() && !to.is_ptr(),
                "bitcast of pointers (use ptrtoint/inttoptr)",
            );
            pr.need(
                t(a).store_size() == to.store_size(),
                "bitcast between types of different sizes",
            );
        }
        Op::IntToPtr(a) => {
            pr.result(true);
            pr.need(
                matches!(t(a), Type::Scalar(s) if s.is_int()),
                "inttoptr of non-integer",
            );
            pr.need(
                rty.is_some_and(Type::is_ptr),
                "inttoptr result must be a pointer",
            );
        }
        Op::Splat(a) => {
            pr.result(true);
            pr.need(
                matches!((t(a), rty), (Type::Scalar(s), Some(Type::Vector(e, _))) if s == e),
                "splat of wrong type",
            );
        }
        Op::Build(vs) => {
            pr.result(true);
            match rty {
                Some(Type::Vector(e, n)) => {
                    pr.need(
                        vs.len() == n as usize,
                        "build lane count differs from result",
                    );
                    pr.need(
                        vs.iter().all(|v| t(v) == Type::Scalar(e)),
                        "build lane of wrong type",
                    );
                }
                _ => pr.need(false, "build result must be a vector"),
            }
        }
        Op::Extract(v, lane) => {
            pr.result(true);
            match t(v) {
                Type::Vector(e, n) => {
                    pr.need(*lane < n, "extract lane out of range");
                    pr.need(
                        rty == Some(Type::Scalar(e)),
                        "extract result must be the element type",
                    );
                }
                _ => pr.need(false, "extract from non-vector"),
            }
        }
        Op::InsertDyn(v, x, idx) => {
            pr.result(true);
            pr.need(
                matches!(t(idx), Type::Scalar(s) if s.is_int()),
                "dynamic lane index must be an integer",
            );
            match t(v) {
                Type::Vector(e, _) => {
                    pr.need(
                        t(x) == Type::Scalar(e),
                        "inserted value must be the element type",
                    );
                    pr.need(rty == Some(t(v)), "insert result must be the vector type");
                }
                _ => pr.need(false, "insert into non-vector"),
            }
        }
        Op::ExtractDyn(v, idx) => {
            pr.result(true);
            pr.need(
                matches!(t(idx), Type::Scalar(s) if s.is_int()),
                "dynamic lane index must be an integer",
            );
            match t(v) {
                Type::Vector(e, _) => pr.need(
                    rty == Some(Type::Scalar(e)),
                    "extract result must be the element type",
                ),
                _ => pr.need(false, "extract from non-vector"),
            }
        }
        Op::Insert(v, x, lane) => {
            pr.result(true);
            match t(v) {
                Type::Vector(e, n) => {
                    pr.need(*lane < n, "insert lane out of range");
                    pr.need(
                        t(x) == Type::Scalar(e),
                        "inserted value must be the element type",
                    );
                    pr.need(rty == Some(t(v)), "insert result must be the vector type");
                }
                _ => pr.need(false, "insert into non-vector"),
            }
        }
        Op::Shuffle(v, mask) => {
            pr.result(true);
            match t(v) {
                Type::Vector(e, n) => {
                    pr.need(mask.iter().all(|&l| l < n), "shuffle lane out of range");
                    pr.need(
                        mask.len() == 1 || valid_lanes(mask.len() as u32),
                        "shuffle to an invalid lane count",
                    );
                    pr.need(
                        rty == Some(Type::vec(e, mask.len() as u8)),
                        "shuffle result type",
                    );
                }
                _ => pr.need(false, "shuffle of non-vector"),
            }
        }
        Op::Select(c, a, b) => {
            pr.result(true);
            pr.need(
                t(a) == t(b) && Some(t(a)) == rty,
                "select arms and result must have one type",
            );
            let ok = t(c) == Type::I1
                || (t(c) == Type::Vector(Scalar::I1, t(a).lanes() as u8) && !t(a).is_ptr());
            pr.need(
                ok,
                "select condition must be i1 or an i1 vector of the arms' width",
            );
        }
        Op::PtrAdd(p, o) => {
            pr.result(true);
            pr.need(
                t(p).is_ptr() && Some(t(p)) == rty,
                "ptradd needs a pointer and returns its type",
            );
            pr.need(t(o) == Type::I64, "ptradd offset must be i64");
        }
        Op::PtrDiff(a, b) => {
            pr.result(true);
            pr.need(
                t(a).is_ptr() && t(a) == t(b),
                "ptrdiff needs two pointers of one space",
            );
            pr.need(rty == Some(Type::I64), "ptrdiff result must be i64");
        }
        Op::InBounds { ptr, len } => {
            pr.result(true);
            pr.need(t(ptr).is_ptr(), "inbounds needs a pointer");
            pr.need(t(len) == Type::I64, "inbounds length must be i64");
            pr.need(rty == Some(Type::I1), "inbounds result must be i1");
        }
        Op::Load(p) => {
            pr.result(true);
            pr.need(t(p).is_ptr(), "load from non-pointer");
        }
        Op::Store { ptr, value: _ } => {
            pr.result(false);
            pr.need(t(ptr).is_ptr(), "store to non-pointer");
            pr.need(
                t(ptr) != Type::Ptr(AddrSpace::Constant),
                "store to a __constant pointer",
            );
        }
        Op::Memcpy { dst, src, len } => {
            pr.result(false);
            pr.need(
                t(dst).is_ptr() && t(src).is_ptr() && t(len) == Type::I64,
                "memcpy(ptr, ptr, i64)",
            );
            pr.need(
                t(dst) != Type::Ptr(AddrSpace::Constant),
                "memcpy to a __constant pointer",
            );
        }
        Op::Memset { dst, byte, len } => {
            pr.result(false);
            pr.need(
                t(dst).is_ptr() && t(byte) == Type::I8 && t(len) == Type::I64,
                "memset(ptr, i8, i64)",
            );
        }
        Op::ToGeneric(p) => {
            pr.result(true);
            pr.need(
                matches!(
                    t(p),
                    Type::Ptr(AddrSpace::Private | AddrSpace::Global | AddrSpace::Local)
                ),
                "to_generic needs a private, global or local pointer",
            );
            pr.need(
                rty == Some(Type::Ptr(AddrSpace::Generic)),
                "to_generic result must be generic",
            );
        }
        Op::FromGeneric(p, s) | Op::SpaceTest(p, s) => {
            pr.result(true);
            pr.need(
                t(p) == Type::Ptr(AddrSpace::Generic),
                "space cast of a non-generic pointer",
            );
            pr.need(
                matches!(s, AddrSpace::Private | AddrSpace::Global | AddrSpace::Local),
                "space cast to an unnamed or constant space",
            );
            pr.need(rty == Some(Type::Ptr(*s)), "space cast result type");
        }
        Op::GetFence(p) => {
            pr.result(true);
            pr.need(t(p).is_ptr(), "get_fence of non-pointer");
            pr.need(rty == Some(Type::I32), "get_fence returns i32");
        }
        Op::StackAlloc { align, .. } => {
            pr.result(true);
            pr.need(
                align.is_power_of_two(),
                "stack_alloc alignment must be a power of two",
            );
            pr.need(
                rty == Some(Type::Ptr(AddrSpace::Private)),
                "stack_alloc returns a private pointer",
            );
        }
        Op::GlobalAddr(g) => {
            pr.result(true);
            match cx.m.globals.get(g.index()) {
                Some(gv) => pr.need(
                    rty == Some(Type::Ptr(gv.space)),
                    "global_addr result must point into the variable's space",
                ),
                None => pr.need(false, "unknown global"),
            }
        }
        Op::LocalAddr(l) => {
            pr.result(true);
            match cx.m.locals.get(l.index()) {
                Some(lv) => pr.need(
                    self_id.0 == u32::MAX || lv.kernel == self_id,
                    "local variable used outside its kernel",
                ),
                None => pr.need(false, "unknown local variable"),
            }
            pr.need(
                rty == Some(Type::Ptr(AddrSpace::Local)),
                "local_addr returns a local pointer",
            );
        }
        Op::Call(callee, args) => match cx.m.function(*callee) {
            Some(cf) => {
                pr.need(
                    args.len() == cf.params.len(),
                    "call argument count differs from the callee's",
                );
                pr.need(
                    args.iter().zip(&cf.params).all(|(a, p)| t(a) == p.ty),
                    "call argument type differs from the callee's parameter",
                );
                pr.need(
                    rty == cf.ret,
                    "call result type differs from the callee's return type",
                );
            }
            None => pr.need(false, "call of unknown function"),
        },
        Op::CallBuiltin(b, args) => match cx.m.builtins.get(b.index()) {
            Some(bd) => {
                pr.need(
                    args.iter().map(t).eq(bd.params.iter().copied()),
                    "builtin arguments differ from its signature",
                );
                pr.need(
                    rty == bd.ret,
                    "builtin result type differs from its signature",
                );
            }
            None => pr.need(false, "call of unknown builtin"),
        },
        Op::AtomicRmw { op, ptr, value, .. } => {
            pr.result(true);
            pr.need(t(ptr).is_ptr(), "atomic on non-pointer");
            let vt = t(value);
            let ok = match op {
                RmwOp::FAdd => matches!(vt, Type::Scalar(Scalar::F32 | Scalar::F64)),
                RmwOp::Xchg => matches!(
                    vt,
                    Type::Scalar(Scalar::I32 | Scalar::I64 | Scalar::F32 | Scalar::F64)
                ),
                _ => matches!(vt, Type::Scalar(Scalar::I32 | Scalar::I64)),
            };
            pr.need(
                ok && rty == Some(vt),
                "atomic operand must be a 32/64-bit scalar, like the result",
            );
        }
        Op::AtomicCmpXchg {
            ptr,
            expected,
            desired,
            ..
        } => {
            pr.result(true);
            pr.need(t(ptr).is_ptr(), "atomic on non-pointer");
            pr.need(
                t(expected) == t(desired)
                    && rty == Some(t(desired))
                    && matches!(
                        t(desired),
                        Type::Scalar(Scalar::I32 | Scalar::I64 | Scalar::F32 | Scalar::F64)
                    ),
                "cmpxchg operands must be one 32/64-bit scalar type",
            );
        }
        Op::AtomicLoad { ptr, .. } => {
            pr.result(true);
            pr.need(t(ptr).is_ptr(), "atomic on non-pointer");
            pr.need(
                matches!(
                    rty,
                    Some(Type::Scalar(
                        Scalar::I32 | Scalar::I64 | Scalar::F32 | Scalar::F64
                    ))
                ),
                "atomic load of 32/64-bit scalar",
            );
        }
        Op::AtomicStore { ptr, value, .. } => {
            pr.result(false);
            pr.need(t(ptr).is_ptr(), "atomic on non-pointer");
            pr.need(
                matches!(
                    t(value),
                    Type::Scalar(Scalar::I32 | Scalar::I64 | Scalar::F32 | Scalar::F64)
                ),
                "atomic store of 32/64-bit scalar",
            );
        }
        Op::WorkGroup { op, value, ids } => {
            pr.result(true);
            let vt = t(value);
            match op {
                WgOp::All | WgOp::Any => pr.need(
                    vt == Type::I32 && rty == Some(Type::I32),
                    "work_group_all/any take and return i32",
                ),
                WgOp::Broadcast => {
                    pr.need(
                        matches!(vt, Type::Scalar(_)) && rty == Some(vt),
                        "broadcast of a scalar returns its type",
                    );
                    pr.need(
                        (1..=3).contains(&ids.len()) && ids.iter().all(|v| t(v) == Type::I64),
                        "broadcast takes 1 to 3 i64 local ids",
                    );
                }
                WgOp::Reduce(a) | WgOp::ScanInclusive(a) | WgOp::ScanExclusive(a) => {
                    let float = matches!(a, WgArith::FAdd | WgArith::FMin | WgArith::FMax);
                    pr.need(
                        matches!(vt, Type::Scalar(s) if s.is_float() == float && s != Scalar::I1)
                            && rty == Some(vt),
                        "work-group reduction or scan of the wrong type",
                    );
                }
            }
            if !matches!(op, WgOp::Broadcast) {
                pr.need(ids.is_empty(), "only broadcast takes local ids");
            }
        }
        Op::Barrier { flags, .. } | Op::Fence { flags, .. } => {
            pr.result(false);
            pr.need(t(flags) == Type::I32, "fence flags must be i32");
        }
        Op::WorkItem(q, dim) => {
            pr.result(true);
            pr.need(
                q.takes_dim() == dim.is_some(),
                "work-item query dimension operand",
            );
            if let Some(dv) = dim {
                pr.need(t(dv) == Type::I32, "work-item dimension must be i32");
            }
            let want = if *q == WorkItemQuery::WorkDim {
                Type::I32
            } else {
                Type::I64
            };
            pr.need(rty == Some(want), "work-item query result type");
        }
        Op::Printf(fmt, _) => {
            pr.result(true);
            pr.need(t(fmt).is_ptr(), "printf format must be a pointer");
            pr.need(rty == Some(Type::I32), "printf returns i32");
        }
        Op::Ret(v) => {
            pr.result(false);
            pr.need(
                v.map(|v| t(&v)) == f.ret,
                "return value differs from the function's return type",
            );
        }
        Op::Br(_) | Op::CondBr(..) | Op::Switch(..) | Op::Unreachable => {
            pr.result(false);
            if let Op::CondBr(c, ..) = &d.op {
                pr.need(t(c) == Type::I1, "branch condition must be i1");
            }
            if let Op::Switch(x, ..) = &d.op {
                pr.need(
                    matches!(t(x), Type::Scalar(s) if s.is_int()),
                    "switch on non-integer",
                );
            }
            for s in d.op.successors() {
                if s.block.index() == 0 || s.block.index() >= f.blocks.len() {
                    pr.list.push(format!("branch to invalid block {}", s.block));
                    continue;
                }
                let ps = f.params_of(s.block);
                if ps.len() != s.args.len() {
                    pr.list.push(format!(
                        "{} takes {} arguments, {} given",
                        s.block,
                        ps.len(),
                        s.args.len()
                    ));
                } else if ps
                    .iter()
                    .zip(&s.args)
                    .any(|(p, a)| f.value_type(*p) != f.value_type(*a))
                {
                    pr.list.push(format!(
                        "argument type differs from a parameter of {}",
                        s.block
                    ));
                }
            }
        }
    }
    for msg in pr.list {
        cx.err(Some(i), msg);
    }
}

struct Problems {
    list: Vec<String>,
    has_result: bool,
}

impl Problems {
    fn need(&mut self, ok: bool, msg: &str) {
        if !ok {
            self.list.push(msg.to_string());
        }
    }
    fn result(&mut self, needed: bool) {
        if needed != self.has_result {
            self.list.push(
                if needed {
                    "instruction needs a result"
                } else {
                    "instruction has no result"
                }
                .into(),
            );
        }
    }
}

impl Type {
    fn with_elem_or_ptr(self, s: Scalar) -> Type {
        match self {
            Type::Ptr(_) => Type::Scalar(s),
            t => t.with_elem(s),
        }
    }
}

/// Blocks in reverse postorder from the entry, and immediate dominators (Cooper, Harvey,
/// Kennedy); unreachable blocks get `None`.
pub fn dominators(f: &Function) -> (Vec<Block>, Vec<Option<Block>>) {
    let n = f.blocks.len();
    // One block (a declaration kept as a stub, a straight-line body): it dominates itself.
    if n <= 1 {
        return ((0..n).map(|_| Block(0)).collect(), vec![Some(Block(0)); n]);
    }
    let succs: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|bd| {
            bd.insts
                .last()
                .and_then(|i| f.insts.get(i.index()))
                .map(|d| {
                    d.op.successors()
                        .map(|s| s.block.index())
                        .filter(|&b| b < n)
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    if n > 0 {
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(&s) = succs[b].get(*k) {
                *k += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
    }
    let rpo: Vec<usize> = post.iter().rev().copied().collect();
    let mut order = vec![usize::MAX; n];
    for (i, &b) in rpo.iter().enumerate() {
        order[b] = i;
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        if seen[b] {
            for &s in ss {
                preds[s].push(b);
            }
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n > 0 {
        idom[0] = Some(0);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while order[a] > order[c] {
                                a = idom[a].unwrap_or(0);
                            }
                            while order[c] > order[a] {
                                c = idom[c].unwrap_or(0);
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    (
        rpo.iter().map(|&b| Block(b as u32)).collect(),
        idom.iter().map(|d| d.map(|x| Block(x as u32))).collect(),
    )
}

/// Dominance in constant time: each reachable block's entry and exit numbers in a depth-first
/// walk of the dominator tree (`a` dominates `b` when `b`'s interval lies in `a`'s). Walking
/// the immediate dominators instead costs the tree's depth per query: quadratic on a long
/// `else if` chain.
struct DomTree {
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    fn new(idom: &[Option<Block>]) -> DomTree {
        let n = idom.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate() {
            if let Some(p) = d
                && p.index() != b
                && p.index() < n
            {
                children[p.index()].push(b);
            }
        }
        let (mut pre, mut post) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        let mut clock = 0u32;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        if n > 0 && idom[0].is_some() {
            pre[0] = clock;
            clock += 1;
            stack.push((0, 0));
        }
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(&c) = children[b].get(*k) {
                *k += 1;
                if pre[c] == u32::MAX {
                    pre[c] = clock;
                    clock += 1;
                    stack.push((c, 0));
                }
            } else {
                post[b] = clock;
                clock += 1;
                stack.pop();
            }
        }
        DomTree { pre, post }
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        match (
            self.pre.get(a.index()),
            self.pre.get(b.index()),
            self.post.get(a.index()),
            self.post.get(b.index()),
        ) {
            (Some(&pa), Some(&pb), Some(&qa), Some(&qb)) => {
                pa != u32::MAX && pb != u32::MAX && pa <= pb && qb <= qa
            }
            _ => false,
        }
    }
}

fn check_dominance(cx: &mut Ctx, owner: &[Option<(Block, usize)>]) {
    let f = cx.f;
    let (rpo, idom) = dominators(f);
    let tree = DomTree::new(&idom);
    for b in rpo {
        let Some(bd) = f.blocks.get(b.index()) else {
            continue;
        };
        for (pos, i) in bd.insts.iter().enumerate() {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            let mut bad = Vec::new();
            d.op.for_each_operand(|v| {
                let ok = match f.values.get(v.index()).map(|vd| vd.def) {
                    Some(ValueDef::Param(pb, _)) => tree.dominates(pb, b),
                    Some(ValueDef::Inst(di)) => match owner.get(di.index()).copied().flatten() {
                        Some((db, dpos)) if db == b => dpos < pos,
                        Some((db, _)) => tree.dominates(db, b),
                        None => false,
                    },
                    None => false,
                };
                if !ok {
                    bad.push(v);
                }
            });
            for v in bad {
                cx.err(
                    Some(*i),
                    format!("use of {v} is not dominated by its definition"),
                );
            }
        }
    }
}

fn check_recursion(m: &Module, errs: &mut Vec<VerifyError>) {
    let n = m.functions.len();
    let calls = crate::lists::FlatLists::from_pairs(n, call_edges(m)).sorted_unique();
    // 0 = unvisited, 1 = on stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        stack.push((root, 0));
        state[root] = 1;
        while let Some(&mut (fi, ref mut k)) = stack.last_mut() {
            if let Some(&c) = calls.of(fi).get(*k) {
                *k += 1;
                match state[c] {
                    0 => {
                        state[c] = 1;
                        stack.push((c, 0));
                    }
                    1 => errs.push(VerifyError {
                        func: m.functions[c].name.clone(),
                        inst: None,
                        span: m.functions[c].span,
                        message: "recursive call cycle".into(),
                    }),
                    _ => {}
                }
            } else {
                state[fi] = 2;
                stack.pop();
            }
        }
    }
}

/// Every call in `m` as `(caller, callee)` by function index (callees in range only).
pub(crate) fn call_edges(m: &Module) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
    let n = m.functions.len();
    m.functions.iter().enumerate().flat_map(move |(i, f)| {
        f.insts.iter().filter_map(move |d| match d.op {
            Op::Call(c, _) if c.index() < n => Some((i, c.index())),
            _ => None,
        })
    })
}
