//! Calls of OpenCL builtins: work-item queries, barriers and fences, atomics, `printf`,
//! `shuffle`, `as_T`, and everything else as the IR's builtin call carrying the resolved
//! signature (argument types after sema's conversions, pointee types, signedness).

use oclc_ir::{
    AddrSpace, BinOp as IrBin, BuiltinDecl, CmpOp, Order, RmwOp, Scope, Type, Value, WgArith, WgOp,
    WorkItemQuery,
};
use oclc_sema::hir::{BuiltinRef, Expr, ExprKind};

use crate::constant::CVal;
use crate::expr::RV;
use crate::func::FnCx;
use crate::ty::{self, Shape};

/// `memory_order_*` values as clang's `opencl-c-base.h` defines them.
fn order_of(v: u64) -> Order {
    match v {
        0 => Order::Relaxed,
        2 => Order::Acquire,
        3 => Order::Release,
        4 => Order::AcqRel,
        _ => Order::SeqCst,
    }
}

/// `memory_scope_*` values as clang's `opencl-c-base.h` defines them.
fn scope_of(v: u64) -> Scope {
    match v {
        0 => Scope::WorkItem,
        1 => Scope::WorkGroup,
        3 => Scope::AllSvmDevices,
        4 => Scope::SubGroup,
        _ => Scope::Device,
    }
}

fn work_item(name: &str) -> Option<WorkItemQuery> {
    Some(match name {
        "get_work_dim" => WorkItemQuery::WorkDim,
        "get_global_size" => WorkItemQuery::GlobalSize,
        "get_global_id" => WorkItemQuery::GlobalId,
        "get_local_size" => WorkItemQuery::LocalSize,
        "get_enqueued_local_size" => WorkItemQuery::EnqueuedLocalSize,
        "get_local_id" => WorkItemQuery::LocalId,
        "get_num_groups" => WorkItemQuery::NumGroups,
        "get_group_id" => WorkItemQuery::GroupId,
        "get_global_offset" => WorkItemQuery::GlobalOffset,
        "get_global_linear_id" => WorkItemQuery::GlobalLinearId,
        "get_local_linear_id" => WorkItemQuery::LocalLinearId,
        _ => return None,
    })
}

/// OpenCL 1.x `atomic_*`/`atom_*` read-modify-write names (without the prefix).
fn legacy_rmw(op: &str, unsigned: bool) -> Option<RmwOp> {
    Some(match op {
        "add" | "inc" => RmwOp::Add,
        "sub" | "dec" => RmwOp::Sub,
        "xchg" => RmwOp::Xchg,
        "and" => RmwOp::And,
        "or" => RmwOp::Or,
        "xor" => RmwOp::Xor,
        "min" if unsigned => RmwOp::UMin,
        "max" if unsigned => RmwOp::UMax,
        "min" => RmwOp::SMin,
        "max" => RmwOp::SMax,
        _ => return None,
    })
}

impl FnCx<'_, '_> {
    /// Lowers every argument for its value.
    pub(crate) fn arg_values(&mut self, args: &[Expr]) -> Vec<Value> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            let r = self.rvalue(a);
            let v = match r {
                RV::V(v) | RV::Agg(v) => v,
                RV::Void => continue,
            };
            out.push(v);
        }
        out
    }

    /// A constant operand (memory order, scope, fence flags) if it is one.
    fn const_arg(&mut self, e: Option<&Expr>) -> Option<u64> {
        match self.cx.const_eval(e?) {
            Some(CVal::Int(v)) => Some(v),
            _ => None,
        }
    }

    fn i32_arg(&mut self, v: Value, signed: bool) -> Value {
        self.conv_raw(v, Type::I32, signed, signed)
    }

    pub fn builtin_call(&mut self, b: BuiltinRef, args: &[Expr], e: &Expr) -> RV {
        let name = b.name.as_str();
        let types = self.cx.types;
        let ret = match ty::shape(types, e.ty) {
            Shape::Value(t) => Some(t),
            _ => None,
        };
        if name.starts_with("__builtin_")
            && let Some(r) = self.gnu_builtin(name, args, e, ret)
        {
            return r;
        }
        if name.starts_with("__atomic_")
            && let Some(r) = self.gnu_atomic(name, args, ret)
        {
            return r;
        }
        if let Some(r) = self.c11_atomic(name, args, ret) {
            return r;
        }
        if let Some(r) = self.sync_atomic(name, args, ret) {
            return r;
        }
        if let Some(q) = work_item(name) {
            let vals = self.arg_values(args);
            let dim = if q.takes_dim() {
                let d = match vals.first() {
                    Some(v) => *v,
                    None => self.b().i32(0),
                };
                Some(self.i32_arg(d, false))
            } else {
                None
            };
            let r = self.b().work_item_dyn(q, dim);
            return self.fit(r, ret);
        }
        match name {
            "barrier" | "work_group_barrier" => {
                let vals = self.arg_values(args);
                let flags = match vals.first() {
                    Some(v) => self.i32_arg(*v, false),
                    None => self.b().i32(0),
                };
                let scope = self
                    .const_arg(args.get(1))
                    .map_or(Scope::WorkGroup, scope_of);
                self.b().effect(oclc_ir::Op::Barrier { flags, scope });
                return RV::Void;
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" | "atomic_work_item_fence" => {
                let vals = self.arg_values(args);
                let flags = match vals.first() {
                    Some(v) => self.i32_arg(*v, false),
                    None => self.b().i32(0),
                };
                let order = self.const_arg(args.get(1)).map_or(Order::SeqCst, order_of);
                let scope = self
                    .const_arg(args.get(2))
                    .map_or(Scope::WorkGroup, scope_of);
                self.b().fence(flags, order, scope);
                return RV::Void;
            }
            "printf" | "__builtin_printf" => {
                let mut vals = self.arg_values(args);
                if vals.is_empty() {
                    return self.fit_const(0, ret);
                }
                let fmt = vals.remove(0);
                let r = self.b().printf(fmt, vals);
                return self.fit(r, ret);
            }
            "shuffle" | "shuffle2" => {
                let vals = self.arg_values(args);
                if let Some(r) = self.shuffle(&vals, ret) {
                    return RV::V(r);
                }
            }
            _ => {}
        }
        if let Some(t) = ret
            && name.starts_with("as_")
            && args.len() == 1
        {
            let vals = self.arg_values(args);
            if let Some(v) = vals.first() {
                let from = self.ty_of(*v);
                if from == t {
                    return RV::V(*v);
                }
                if !from.is_ptr() && !t.is_ptr() && from.store_size() == t.store_size() {
                    return RV::V(self.b().bitcast(*v, t));
                }
                return RV::V(self.conv_raw(*v, t, false, false));
            }
        }
        if let Some(r) = self.work_group(name, args, ret) {
            return r;
        }
        if let Some(r) = self.atomic(name, args, ret) {
            return r;
        }
        self.generic_builtin(name, args, e, ret)
    }

    /// Adapts a result to the call's C type.
    pub(crate) fn fit(&mut self, v: Value, ret: Option<Type>) -> RV {
        match ret {
            Some(t) => {
                let signed = false;
                RV::V(self.conv_raw(v, t, signed, signed))
            }
            None => RV::Void,
        }
    }

    fn fit_const(&mut self, x: u64, ret: Option<Type>) -> RV {
        match ret {
            Some(t) if t.is_int() => RV::V(self.b().iconst(t, x)),
            Some(t) => RV::V(self.undef(t)),
            None => RV::Void,
        }
    }

    /// `shuffle(x, mask)` and `shuffle2(x, y, mask)` with run-time masks.
    fn shuffle(&mut self, vals: &[Value], ret: Option<Type>) -> Option<Value> {
        let rt = ret?;
        let (srcs, mask) = match vals {
            [x, m] => (vec![*x], *m),
            [x, y, m] => (vec![*x, *y], *m),
            _ => return None,
        };
        let n = self.ty_of(*srcs.first()?).lanes();
        let out_n = rt.lanes();
        let mut lanes = Vec::new();
        for i in 0..out_n {
            let m = if self.ty_of(mask).lanes() > 1 {
                self.b().extract(mask, i as u8)
            } else {
                mask
            };
            let a = self.b().extract_dyn(srcs[0], m);
            let lane = if let Some(y) = srcs.get(1) {
                let b = self.b().extract_dyn(*y, m);
                let mt = self.ty_of(m);
                let bit = self.b().iconst(mt, u64::from(n));
                let hi = self.b().bin(IrBin::And, m, bit);
                let z = self.b().iconst(mt, 0);
                let second = self.b().cmp(CmpOp::Ne, hi, z);
                self.b().select(second, b, a)
            } else {
                a
            };
            lanes.push(lane);
        }
        if lanes.len() == 1 {
            return lanes.pop();
        }
        Some(self.b().build(lanes))
    }

    /// Work-group collectives (`work_group_all`, `_broadcast`, `_reduce_*`, `_scan_*`).
    fn work_group(&mut self, name: &str, args: &[Expr], ret: Option<Type>) -> Option<RV> {
        let rest = name.strip_prefix("work_group_")?;
        let types = self.cx.types;
        let unsigned = args
            .first()
            .is_some_and(|a| ty::is_unsigned_int(types, a.ty));
        let float = ret.is_some_and(Type::is_float);
        let arith = |op: &str| -> Option<WgArith> {
            Some(match (op, float, unsigned) {
                ("add", true, _) => WgArith::FAdd,
                ("min", true, _) => WgArith::FMin,
                ("max", true, _) => WgArith::FMax,
                ("add", false, _) => WgArith::IAdd,
                ("min", false, true) => WgArith::UMin,
                ("max", false, true) => WgArith::UMax,
                ("min", false, false) => WgArith::SMin,
                ("max", false, false) => WgArith::SMax,
                _ => return None,
            })
        };
        let op = match rest {
            "all" => WgOp::All,
            "any" => WgOp::Any,
            "broadcast" => WgOp::Broadcast,
            _ => {
                if let Some(o) = rest.strip_prefix("reduce_") {
                    WgOp::Reduce(arith(o)?)
                } else if let Some(o) = rest.strip_prefix("scan_inclusive_") {
                    WgOp::ScanInclusive(arith(o)?)
                } else if let Some(o) = rest.strip_prefix("scan_exclusive_") {
                    WgOp::ScanExclusive(arith(o)?)
                } else {
                    return None;
                }
            }
        };
        let vals = self.arg_values(args);
        let (&value, ids) = vals.split_first()?;
        let value = match op {
            WgOp::All | WgOp::Any => {
                let s = args.first().is_some_and(|a| ty::is_signed(types, a.ty));
                self.conv_raw(value, Type::I32, s, s)
            }
            _ => value,
        };
        let ids: Vec<Value> = ids
            .iter()
            .map(|v| self.conv_raw(*v, Type::I64, false, false))
            .collect();
        let r = self.b().work_group(op, value, ids);
        Some(self.fit(r, ret))
    }

    /// Atomic builtins, 1.x and C11 forms; `None` if `name` is not one.
    pub(crate) fn atomic(&mut self, name: &str, args: &[Expr], ret: Option<Type>) -> Option<RV> {
        let types = self.cx.types;
        let ptr_arg = args.first()?;
        let pointee = types.pointee(ptr_arg.ty);
        let unsigned = pointee.is_some_and(|p| ty::is_unsigned_int(types, p));
        let vt = pointee.and_then(|p| ty::value_type(types, p));
        let legacy = name
            .strip_prefix("atomic_")
            .or_else(|| name.strip_prefix("atom_"));
        if let Some(op) = legacy {
            if op == "cmpxchg" {
                let vals = self.arg_values(args);
                let [p, cmp, new] = vals.as_slice() else {
                    return None;
                };
                let t = vt.unwrap_or(self.ty_of(*new));
                let cmp = self.coerce(*cmp, t);
                let new = self.coerce(*new, t);
                let r = self
                    .b()
                    .atomic_cmpxchg(*p, cmp, new, Order::Relaxed, Scope::Device);
                return Some(self.fit(r, ret));
            }
            if let Some(rmw) = legacy_rmw(op, unsigned) {
                let vals = self.arg_values(args);
                let p = *vals.first()?;
                let t = vt.unwrap_or(Type::I32);
                let v = match (op, vals.get(1)) {
                    ("inc" | "dec", _) => self.b().iconst(t, 1),
                    (_, Some(v)) => self.coerce(*v, t),
                    (_, None) => return None,
                };
                let rmw = if rmw == RmwOp::Xchg || t.is_int() {
                    rmw
                } else {
                    return None;
                };
                let r = self
                    .b()
                    .atomic_rmw(rmw, p, v, Order::Relaxed, Scope::Device);
                return Some(self.fit(r, ret));
            }
        }
        let (base, explicit) = match name.strip_suffix("_explicit") {
            Some(b) => (b, true),
            None => (name, false),
        };
        let order_at = |i: usize| if explicit { Some(i) } else { None };
        let t = vt.unwrap_or(Type::I32);
        // Atomics are 32 or 64 bits wide on every device (cl_ext_float_atomics also declares
        // `atomic_half` ones): a located error, never IR the devices reject.
        if base.starts_with("atomic_")
            && !matches!(base, "atomic_work_item_fence" | "atomic_init")
            && t.elem().is_some_and(|s| s.bits() < 32)
        {
            let what = if t.is_float() {
                "half"
            } else {
                "narrow integer"
            };
            self.cx.error(
                self.span,
                format!("`{base}` on a {what} value is not supported (atomics are 32 or 64 bits)"),
            );
            return Some(match ret {
                Some(rt) => RV::V(self.undef(rt)),
                None => RV::Void,
            });
        }
        match base {
            "atomic_init" => {
                let vals = self.arg_values(args);
                let (p, v) = (*vals.first()?, *vals.get(1)?);
                let v = self.coerce(v, t);
                self.b().store(p, v);
                Some(RV::Void)
            }
            "atomic_store" => {
                let vals = self.arg_values(args);
                let (p, v) = (*vals.first()?, *vals.get(1)?);
                let v = self.coerce(v, t);
                let (o, s) = self.order_scope(args, order_at(2), order_at(3));
                self.b().atomic_store(p, v, o, s);
                Some(RV::Void)
            }
            "atomic_load" => {
                let vals = self.arg_values(args);
                let p = *vals.first()?;
                let (o, s) = self.order_scope(args, order_at(1), order_at(2));
                let r = self.b().atomic_load(t, p, o, s);
                Some(self.fit(r, ret))
            }
            "atomic_exchange" => {
                let vals = self.arg_values(args);
                let (p, v) = (*vals.first()?, *vals.get(1)?);
                let v = self.coerce(v, t);
                let (o, s) = self.order_scope(args, order_at(2), order_at(3));
                let r = self.b().atomic_rmw(RmwOp::Xchg, p, v, o, s);
                Some(self.fit(r, ret))
            }
            "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => {
                let vals = self.arg_values(args);
                let (p, expected_ptr, desired) = (*vals.first()?, *vals.get(1)?, *vals.get(2)?);
                let (o, s) = self.order_scope(args, order_at(3), order_at(5));
                let expected = self.b().load(t, expected_ptr);
                let desired = self.coerce(desired, t);
                let old = self.b().atomic_cmpxchg(p, expected, desired, o, s);
                let ok = if t.is_float() {
                    let a = self.b().bitcast(old, Type::vec(int_of(t), 1));
                    let b = self.b().bitcast(expected, Type::vec(int_of(t), 1));
                    self.b().cmp(CmpOp::Eq, a, b)
                } else {
                    self.b().cmp(CmpOp::Eq, old, expected)
                };
                // On failure the current value goes back to `*expected`.
                let keep = self.b().select(ok, expected, old);
                self.b().store(expected_ptr, keep);
                Some(self.fit(ok, ret))
            }
            "atomic_flag_test_and_set" => {
                let vals = self.arg_values(args);
                let p = *vals.first()?;
                let (o, s) = self.order_scope(args, order_at(1), order_at(2));
                let one = self.b().iconst(Type::I32, 1);
                let old = self.b().atomic_rmw(RmwOp::Xchg, p, one, o, s);
                let z = self.b().iconst(Type::I32, 0);
                let set = self.b().cmp(CmpOp::Ne, old, z);
                Some(self.fit(set, ret))
            }
            "atomic_flag_clear" => {
                let vals = self.arg_values(args);
                let p = *vals.first()?;
                let (o, s) = self.order_scope(args, order_at(1), order_at(2));
                let z = self.b().iconst(Type::I32, 0);
                self.b().atomic_store(p, z, o, s);
                Some(RV::Void)
            }
            _ => {
                let op = base.strip_prefix("atomic_fetch_")?;
                if t.is_float() && matches!(op, "sub" | "min" | "max") {
                    let vals = self.arg_values(args);
                    let (p, v) = (*vals.first()?, *vals.get(1)?);
                    let v = self.coerce(v, t);
                    let (o, s) = self.order_scope(args, order_at(2), order_at(3));
                    let r = if op == "sub" {
                        // x - v is x + (-v) exactly, signed zeros and NaNs included.
                        let neg = self.b().un(oclc_ir::UnOp::FNeg, v);
                        self.b().atomic_rmw(RmwOp::FAdd, p, neg, o, s)
                    } else {
                        self.float_min_max_loop(op == "min", p, v, t, o, s)
                    };
                    return Some(self.fit(r, ret));
                }
                let rmw = match op {
                    "add" if t.is_float() => RmwOp::FAdd,
                    "add" => RmwOp::Add,
                    "sub" => RmwOp::Sub,
                    "or" => RmwOp::Or,
                    "xor" => RmwOp::Xor,
                    "and" => RmwOp::And,
                    "min" if unsigned => RmwOp::UMin,
                    "max" if unsigned => RmwOp::UMax,
                    "min" => RmwOp::SMin,
                    "max" => RmwOp::SMax,
                    _ => return None,
                };
                let vals = self.arg_values(args);
                let (p, v) = (*vals.first()?, *vals.get(1)?);
                let v = self.coerce(v, t);
                let (o, s) = self.order_scope(args, order_at(2), order_at(3));
                let r = self.b().atomic_rmw(rmw, p, v, o, s);
                Some(self.fit(r, ret))
            }
        }
    }

    /// `atomic_fetch_min`/`max` on a float: a compare-exchange loop on the value's bits
    /// (as `fmin`/`fmax`: a NaN operand loses). Returns the value before.
    pub(crate) fn float_min_max_loop(
        &mut self,
        min: bool,
        p: Value,
        v: Value,
        t: Type,
        o: Order,
        s: Scope,
    ) -> Value {
        let it = Type::vec(int_of(t), 1);
        let before = self.cas_loop(p, it, o, s, |cx, old| {
            let cur = cx.b().bitcast(old, t);
            let op = if min { CmpOp::FOlt } else { CmpOp::FOgt };
            let better = cx.b().cmp(op, v, cur);
            let nan = cx.b().cmp(CmpOp::FUne, cur, cur);
            let take = cx.b().bin(oclc_ir::BinOp::Or, better, nan);
            let new = cx.b().select(take, v, cur);
            cx.b().bitcast(new, it)
        });
        self.b().bitcast(before, t)
    }

    /// A compare-exchange loop on `*p`, a `t` (an integer type: floats loop on their bits):
    /// `step` computes the value to store from the current one. Returns the value before the
    /// exchange that succeeded.
    pub(crate) fn cas_loop(
        &mut self,
        p: Value,
        t: Type,
        o: Order,
        s: Scope,
        mut step: impl FnMut(&mut Self, Value) -> Value,
    ) -> Value {
        let first = self.b().atomic_load(t, p, Order::Relaxed, s);
        let (lp, ps) = self.new_block_with(&[t]);
        let (done, rs) = self.new_block_with(&[t]);
        self.br(lp, vec![first]);
        self.switch_to(lp);
        let old = ps.first().copied().unwrap_or(first);
        let new = step(self, old);
        let seen = self.b().atomic_cmpxchg(p, old, new, o, s);
        let same = self.b().cmp(CmpOp::Eq, seen, old);
        self.cond_br(same, done, vec![seen], lp, vec![seen]);
        self.seal(lp);
        self.seal(done);
        self.switch_to(done);
        rs.first().copied().unwrap_or(first)
    }

    pub(crate) fn order_scope(
        &mut self,
        args: &[Expr],
        order: Option<usize>,
        scope: Option<usize>,
    ) -> (Order, Scope) {
        let o = order
            .and_then(|i| self.const_arg(args.get(i)))
            .map_or(Order::SeqCst, order_of);
        let s = scope
            .and_then(|i| self.const_arg(args.get(i)))
            .map_or(Scope::Device, scope_of);
        (o, s)
    }

    /// clang's GNU `__builtin_*` functions. Those with an OpenCL twin become it (`isnan`,
    /// `fabs`, `sqrt`, `abs`); `__builtin_expect` is its first argument; `__builtin_bit_cast`
    /// reinterprets bytes; the rest stay calls of their own name, which each device
    /// implements (the cpu device reports `__builtin_trap`, a reached `__builtin_unreachable`,
    /// a false `__builtin_assume` and `__builtin_clz(0)`). `None`: not one of them.
    fn gnu_builtin(
        &mut self,
        name: &str,
        args: &[Expr],
        e: &Expr,
        ret: Option<Type>,
    ) -> Option<RV> {
        let twin = match name {
            "__builtin_isnan" => Some("isnan"),
            "__builtin_isinf" => Some("isinf"),
            "__builtin_isfinite" => Some("isfinite"),
            "__builtin_isnormal" => Some("isnormal"),
            "__builtin_signbit" => Some("signbit"),
            "__builtin_abs" | "__builtin_labs" => Some("abs"),
            "__builtin_powif" | "__builtin_powi" => Some("pown"),
            // Runs as OpenCL's printf.
            "__builtin_printf" => return None,
            // The current rounding mode is always to nearest: `nearbyint` is `rint`.
            "__builtin_nearbyintf" | "__builtin_nearbyint" => Some("rint"),
            _ => name.strip_prefix("__builtin_").and_then(|m| {
                // The C math functions: their OpenCL twin drops the `f` of the float form
                // (`f16` of the `half` one).
                let base = m
                    .strip_suffix("f16")
                    .or_else(|| m.strip_suffix('f'))
                    .unwrap_or(m);
                matches!(
                    base,
                    "fabs"
                        | "sqrt"
                        | "floor"
                        | "ceil"
                        | "trunc"
                        | "round"
                        | "exp"
                        | "log"
                        | "exp2"
                        | "log2"
                        | "sin"
                        | "cos"
                        | "pow"
                        | "fmin"
                        | "fmax"
                        | "copysign"
                        | "fma"
                        | "ilogb"
                        | "ldexp"
                        | "frexp"
                        | "modf"
                        | "rint"
                        | "tan"
                        | "asin"
                        | "acos"
                        | "atan"
                        | "sinh"
                        | "cosh"
                        | "tanh"
                        | "exp10"
                        | "log10"
                        | "fmod"
                )
                .then_some(base)
            }),
        };
        if let Some(t) = twin {
            return Some(self.generic_builtin(t, args, e, ret));
        }
        Some(match name {
            "__builtin_expect" | "__builtin_expect_with_probability" => {
                let vals = self.arg_values(args);
                match (vals.first(), ret) {
                    (Some(&v), Some(t)) => RV::V(self.coerce(v, t)),
                    _ => RV::Void,
                }
            }
            "__builtin_inff" | "__builtin_huge_valf" | "__builtin_inf" | "__builtin_huge_val" => {
                RV::V(self.b().fconst(ret?, f64::INFINITY))
            }
            "__builtin_trap" | "__builtin_unreachable" => {
                let r = self.generic_builtin(name, args, e, ret);
                if !self.is_terminated() {
                    self.b().unreachable();
                }
                self.dead_block();
                r
            }
            "__builtin_assume" => {
                // clang never evaluates the operand (side effects are dropped).
                if args.iter().any(has_side_effects) {
                    return Some(RV::Void);
                }
                self.generic_builtin(name, args, e, ret)
            }
            "__builtin_bit_cast" => return self.bit_cast(args.first()?, e),
            // A hint: only the pointer operand is evaluated.
            "__builtin_prefetch" => {
                self.arg_values(args);
                RV::Void
            }
            // 16-bit counts: OpenCL's `clz`/`ctz` on the `ushort`, widened to the `int` result.
            "__builtin_clzs" | "__builtin_ctzs" => {
                let vals = self.arg_values(args);
                let op = if name == "__builtin_clzs" {
                    "clz"
                } else {
                    "ctz"
                };
                let short = vals.first().map(|&v| self.ty_of(v));
                let r = self.builtin_with_values(op, args, vals, e, short);
                match (r, ret) {
                    (RV::V(r), Some(t)) => RV::V(self.conv_raw(r, t, false, false)),
                    (r, _) => r,
                }
            }
            "__builtin_clzll" | "__builtin_popcountll" => {
                // `unsigned long long` is 128-bit on SPIR in clang: a negative signed operand
                // is sign-extended (clz 0, 64 more ones), a non-negative one zero-extended.
                let vals = self.arg_values(args);
                let v = *vals.first()?;
                let r = self.builtin_with_values(name, args, vals, e, ret);
                let (RV::V(r), Some(t)) = (r, ret) else {
                    return Some(r);
                };
                if !args
                    .first()
                    .is_some_and(|a| signed_source(self.cx.types, a))
                {
                    return Some(RV::V(r));
                }
                let vt = self.ty_of(v);
                let zero = self.b().iconst(vt, 0);
                let neg = self.b().cmp(CmpOp::Slt, v, zero);
                let alt = if name == "__builtin_clzll" {
                    self.b().iconst(t, 0)
                } else {
                    let k = self.b().iconst(t, 64);
                    self.b().bin(IrBin::Add, r, k)
                };
                RV::V(self.b().select(neg, alt, r))
            }
            _ => self.generic_builtin(name, args, e, ret),
        })
    }

    /// `__builtin_bit_cast(T, x)`: the bytes of `x` read as `T` (sema checked the sizes).
    fn bit_cast(&mut self, x: &Expr, e: &Expr) -> Option<RV> {
        let types = self.cx.types;
        let src = self.rvalue(x);
        let size = ty::size_of(types, e.ty);
        let align = ty::size_of(types, e.ty).clamp(1, 128);
        match (ty::shape(types, e.ty), src) {
            (Shape::Value(t), RV::V(v)) => {
                let from = self.ty_of(v);
                Some(RV::V(if from == t {
                    v
                } else if from.is_ptr() || t.is_ptr() || from.store_size() != t.store_size() {
                    self.conv_raw(v, t, false, false)
                } else {
                    self.b().bitcast(v, t)
                }))
            }
            (Shape::Value(t), RV::Agg(p)) => Some(RV::V(self.load_mem(t, p))),
            (Shape::Aggregate, RV::V(v)) => {
                let tmp = self.temp(size, align);
                self.b().store(tmp, v);
                Some(RV::Agg(tmp))
            }
            (Shape::Aggregate, RV::Agg(p)) => {
                let tmp = self.temp(size, align);
                self.b()
                    .memcpy(tmp, p, u32::try_from(size).unwrap_or(u32::MAX));
                Some(RV::Agg(tmp))
            }
            _ => Some(RV::Void),
        }
    }

    /// Any other builtin: the IR builtin call with the argument types sema converted to.
    fn generic_builtin(&mut self, name: &str, args: &[Expr], e: &Expr, ret: Option<Type>) -> RV {
        let vals = self.arg_values(args);
        self.builtin_with_values(name, args, vals, e, ret)
    }

    /// The IR builtin call `name` on the lowered values of `args`.
    fn builtin_with_values(
        &mut self,
        name: &str,
        args: &[Expr],
        vals: Vec<Value>,
        e: &Expr,
        ret: Option<Type>,
    ) -> RV {
        let types = self.cx.types;
        let mut params = Vec::new();
        let mut pointee = Vec::new();
        let mut unsigned = Vec::new();
        for (a, &v) in args.iter().zip(&vals) {
            let t = self.ty_of(v);
            params.push(t);
            let pt = types.pointee(a.ty);
            pointee.push(pt.and_then(|p| ty::value_type(types, p)));
            unsigned.push(match pt {
                Some(p) => ty::is_unsigned_int(types, p),
                None => ty::is_unsigned_int(types, a.ty),
            });
        }
        let decl = builtin_decl(
            name,
            params,
            pointee,
            unsigned,
            ret,
            ty::is_unsigned_int(types, e.ty),
        );
        let id = self.cx.m.builtin(decl);
        match self.b().call_builtin(id, vals, ret) {
            Some(v) => RV::V(v),
            None => RV::Void,
        }
    }
}

/// Whether an argument converted to `unsigned long long` came from a signed integer (clang
/// sign-extends it to the 128 bits `long long` has on SPIR).
fn signed_source(types: &oclc_sema::types::TypeTable, a: &Expr) -> bool {
    match &a.kind {
        ExprKind::Cast(_, x) => ty::is_signed(types, x.ty) && types.is_integer(x.ty),
        _ => false,
    }
}

/// Whether evaluating `e` could change anything (assignments, `++`/`--`, calls).
fn has_side_effects(e: &Expr) -> bool {
    use oclc_sema::hir::UnOp;
    match &e.kind {
        ExprKind::Assign { .. } | ExprKind::Call { .. } | ExprKind::BuiltinCall { .. } => true,
        ExprKind::Unary(op, x) => {
            matches!(
                op,
                UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec
            ) || has_side_effects(x)
        }
        ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
            has_side_effects(a) || has_side_effects(b)
        }
        ExprKind::Cond(a, b, c) => {
            has_side_effects(a) || has_side_effects(b) || has_side_effects(c)
        }
        ExprKind::Cast(_, x) | ExprKind::AddrOf(x) | ExprKind::Deref(x) | ExprKind::GetFence(x) => {
            has_side_effects(x)
        }
        ExprKind::Index { base, index } => has_side_effects(base) || has_side_effects(index),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => has_side_effects(base),
        ExprKind::ToAddrSpace { arg, .. } => has_side_effects(arg),
        ExprKind::VectorLit(parts) => parts.iter().any(has_side_effects),
        ExprKind::InitList(_) | ExprKind::StmtExpr { .. } => true,
        _ => false,
    }
}

/// The integer type of a float's width (for bitwise comparison of atomics).
pub(crate) fn int_of(t: Type) -> oclc_ir::Scalar {
    match t.elem().map(|s| s.bits()) {
        Some(64) => oclc_ir::Scalar::I64,
        Some(16) => oclc_ir::Scalar::I16,
        _ => oclc_ir::Scalar::I32,
    }
}

/// A builtin declaration with its signature and signedness.
fn builtin_decl(
    name: &str,
    params: Vec<Type>,
    pointee: Vec<Option<Type>>,
    unsigned: Vec<bool>,
    ret: Option<Type>,
    ret_unsigned: bool,
) -> BuiltinDecl {
    let mut d = BuiltinDecl::new(name, params, ret);
    d.pointee = pointee;
    d.unsigned = unsigned;
    d.ret_unsigned = ret_unsigned;
    d
}

#[allow(dead_code)]
fn _space(_: AddrSpace, _: &ExprKind) {}
