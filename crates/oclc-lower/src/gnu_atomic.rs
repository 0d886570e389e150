//! Lowering of clang's atomic builtins (checked by sema's `gnu_atomic.rs` and
//! `sync_atomic.rs`): the GNU `__atomic_*`, C11 `__c11_atomic_*`, OpenCL `__opencl_atomic_*`
//! and GCC `__sync_*` families, as device-scope atomics with the call's memory orders on the
//! IR's atomic operations. The `OP_fetch` forms compute the new value from the old one;
//! `nand` loops on a compare-exchange, as do `min` and `max` of floats.

use oclc_ir::{BinOp as IrBin, CmpOp, Order, RmwOp, Scope, Type, Value};
use oclc_sema::builtins::consts::{CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE};
use oclc_sema::hir::Expr;

use crate::expr::RV;
use crate::func::FnCx;
use crate::ty;

/// An arithmetic form's operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Nand,
    Min,
    Max,
}

impl Arith {
    fn parse(op: &str) -> Option<Arith> {
        Some(match op {
            "add" => Arith::Add,
            "sub" => Arith::Sub,
            "and" => Arith::And,
            "or" => Arith::Or,
            "xor" => Arith::Xor,
            "nand" => Arith::Nand,
            "min" => Arith::Min,
            "max" => Arith::Max,
            _ => return None,
        })
    }
}

impl FnCx<'_, '_> {
    /// A C11 (`__c11_atomic_*`) or OpenCL (`__opencl_atomic_*`, with a scope) atomic builtin
    /// call: the `atomic_*_explicit` function of the same arguments (`None`: not one).
    pub(crate) fn c11_atomic(
        &mut self,
        name: &str,
        args: &[Expr],
        ret: Option<Type>,
    ) -> Option<RV> {
        let op = name
            .strip_prefix("__c11_atomic_")
            .or_else(|| name.strip_prefix("__opencl_atomic_"))?;
        match op {
            "init" => self.atomic("atomic_init", args, ret),
            // The same as the GNU ones of these names (C11's `nand` has no OpenCL twin).
            "thread_fence" | "signal_fence" | "is_lock_free" | "fetch_nand" => {
                self.gnu_atomic(&format!("__atomic_{op}"), args, ret)
            }
            _ => self.atomic(&format!("atomic_{op}_explicit"), args, ret),
        }
    }

    /// A GNU atomic builtin call; `None` if `name` is not one.
    pub(crate) fn gnu_atomic(
        &mut self,
        name: &str,
        args: &[Expr],
        ret: Option<Type>,
    ) -> Option<RV> {
        let op = name.strip_prefix("__atomic_")?;
        match op {
            "thread_fence" => {
                let flags = self
                    .b()
                    .i32((CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE) as i32);
                let (order, _) = self.order_scope(args, Some(0), None);
                self.b().fence(flags, order, Scope::Device);
                return Some(RV::Void);
            }
            // Orders this work-item's accesses against a signal handler: nothing to do.
            "signal_fence" => {
                self.arg_values(args);
                return Some(RV::Void);
            }
            // The devices' 32- and 64-bit atomics are lock-free.
            "is_lock_free" | "always_lock_free" => {
                let vals = self.arg_values(args);
                let size = self.coerce(*vals.first()?, Type::I64);
                let four = self.b().iconst(Type::I64, 4);
                let eight = self.b().iconst(Type::I64, 8);
                let is4 = self.b().cmp(CmpOp::Eq, size, four);
                let is8 = self.b().cmp(CmpOp::Eq, size, eight);
                let r = self.b().bin(IrBin::Or, is4, is8);
                return Some(self.fit(r, ret));
            }
            // One byte, which no device has an atomic operation for.
            "test_and_set" | "clear" => {
                self.cx.error(
                    self.span,
                    format!(
                        "`{name}` is not supported (it sets one byte; atomics are 32 or 64 bits)"
                    ),
                );
                return Some(match ret {
                    Some(rt) => RV::V(self.undef(rt)),
                    None => RV::Void,
                });
            }
            _ => {}
        }
        let (t, unsigned) = match self.atomic_value(name, args, ret)? {
            Ok(v) => v,
            Err(rv) => return Some(rv),
        };
        let vals = self.arg_values(args);
        let arg = |i: usize| vals.get(i).copied();
        let p = arg(0)?;
        let s = Scope::Device;
        match op {
            "load_n" | "load" => {
                let (o, _) = self.order_scope(args, Some(vals.len() - 1), None);
                let r = self.b().atomic_load(t, p, o, s);
                if op == "load_n" {
                    return Some(self.fit(r, ret));
                }
                self.b().store(arg(1)?, r);
                Some(RV::Void)
            }
            "store_n" | "store" => {
                let v = arg(1)?;
                let v = if op == "store" {
                    self.b().load(t, v)
                } else {
                    self.coerce(v, t)
                };
                let (o, _) = self.order_scope(args, Some(2), None);
                self.b().atomic_store(p, v, o, s);
                Some(RV::Void)
            }
            "exchange_n" => {
                let v = self.coerce(arg(1)?, t);
                let (o, _) = self.order_scope(args, Some(2), None);
                let r = self.b().atomic_rmw(RmwOp::Xchg, p, v, o, s);
                Some(self.fit(r, ret))
            }
            "exchange" => {
                let v = self.b().load(t, arg(1)?);
                let (o, _) = self.order_scope(args, Some(3), None);
                let r = self.b().atomic_rmw(RmwOp::Xchg, p, v, o, s);
                self.b().store(arg(2)?, r);
                Some(RV::Void)
            }
            "compare_exchange_n" | "compare_exchange" => {
                let expected_ptr = arg(1)?;
                let desired = if op == "compare_exchange" {
                    self.b().load(t, arg(2)?)
                } else {
                    self.coerce(arg(2)?, t)
                };
                let (o, _) = self.order_scope(args, Some(4), None);
                let expected = self.b().load(t, expected_ptr);
                let old = self.b().atomic_cmpxchg(p, expected, desired, o, s);
                let ok = self.b().cmp(CmpOp::Eq, old, expected);
                // On failure the current value goes back to `*expected`.
                let keep = self.b().select(ok, expected, old);
                self.b().store(expected_ptr, keep);
                Some(self.fit(ok, ret))
            }
            _ => {
                let (a, new) = match op.strip_prefix("fetch_") {
                    Some(a) => (a, false),
                    None => (op.strip_suffix("_fetch")?, true),
                };
                let a = Arith::parse(a)?;
                let v = self.coerce(arg(1)?, t);
                let (o, _) = self.order_scope(args, Some(2), None);
                let old = self.fetch(a, p, v, t, unsigned, o);
                let r = if new {
                    self.combine(a, old, v, t, unsigned)
                } else {
                    old
                };
                Some(self.fit(r, ret))
            }
        }
    }

    /// The value type of the atomic object the first argument points to and whether it is
    /// unsigned; `Err` (with the result to use) after reporting a type the devices have no
    /// atomics for. `None`: the first argument is no pointer.
    fn atomic_value(
        &mut self,
        name: &str,
        args: &[Expr],
        ret: Option<Type>,
    ) -> Option<Result<(Type, bool), RV>> {
        let types = self.cx.types;
        let pointee = types.pointee(args.first()?.ty)?;
        let unsigned = ty::is_unsigned_int(types, pointee);
        let t = ty::value_type(types, pointee);
        if let Some(t) = t.filter(|t| !t.is_ptr() && t.elem().is_some_and(|s| s.bits() >= 32)) {
            return Some(Ok((t, unsigned)));
        }
        let what = match t {
            Some(t) if t.is_ptr() => "pointer",
            Some(t) if t.is_float() => "half",
            _ => "narrow integer",
        };
        self.cx.error(
            self.span,
            format!("`{name}` on a {what} value is not supported (atomics are 32 or 64 bits)"),
        );
        Some(Err(match ret {
            Some(rt) => RV::V(self.undef(rt)),
            None => RV::Void,
        }))
    }

    /// GCC's `__sync_*` builtins: sequentially consistent read-modify-writes and
    /// compare-and-swaps (`lock_test_and_set` acquires, `lock_release` releases); `None` if
    /// `name` is not one.
    pub(crate) fn sync_atomic(
        &mut self,
        name: &str,
        args: &[Expr],
        ret: Option<Type>,
    ) -> Option<RV> {
        let op = name.strip_prefix("__sync_")?;
        if op == "synchronize" {
            return self.gnu_atomic("__atomic_thread_fence", &[], ret);
        }
        let (t, unsigned) = match self.atomic_value(name, args, ret)? {
            Ok(v) => v,
            Err(rv) => return Some(rv),
        };
        let vals = self.arg_values(args);
        let p = *vals.first()?;
        let s = Scope::Device;
        let value = |this: &mut Self, i: usize| vals.get(i).map(|&v| this.coerce(v, t));
        let r = match op {
            "lock_test_and_set" | "swap" => {
                let o = if op == "swap" {
                    Order::SeqCst
                } else {
                    Order::Acquire
                };
                let v = value(self, 1)?;
                self.b().atomic_rmw(RmwOp::Xchg, p, v, o, s)
            }
            "lock_release" => {
                let zero = self.b().iconst(t, 0);
                self.b().atomic_store(p, zero, Order::Release, s);
                return Some(RV::Void);
            }
            "val_compare_and_swap" | "bool_compare_and_swap" => {
                let (old, new) = (value(self, 1)?, value(self, 2)?);
                let seen = self.b().atomic_cmpxchg(p, old, new, Order::SeqCst, s);
                if op == "val_compare_and_swap" {
                    seen
                } else {
                    self.b().cmp(CmpOp::Eq, seen, old)
                }
            }
            _ => {
                let (a, new) = match op.strip_prefix("fetch_and_") {
                    Some(a) => (a, false),
                    None => (op.strip_suffix("_and_fetch")?, true),
                };
                // The typed `__sync_fetch_and_umin` and friends name their signedness.
                let (a, unsigned) = match a.strip_prefix('u') {
                    Some(m @ ("min" | "max")) => (m, true),
                    _ => (a, unsigned),
                };
                let a = Arith::parse(a)?;
                let v = value(self, 1)?;
                let old = self.fetch(a, p, v, t, unsigned, Order::SeqCst);
                if new {
                    self.combine(a, old, v, t, unsigned)
                } else {
                    old
                }
            }
        };
        Some(self.fit(r, ret))
    }

    /// The read-modify-write of `a` on `*p` with `v`; returns the value before.
    fn fetch(&mut self, a: Arith, p: Value, v: Value, t: Type, unsigned: bool, o: Order) -> Value {
        let s = Scope::Device;
        let float = t.is_float();
        let rmw = match a {
            Arith::Add if float => RmwOp::FAdd,
            Arith::Sub if float => {
                // x - v is x + (-v) exactly, signed zeros and NaNs included.
                let neg = self.b().un(oclc_ir::UnOp::FNeg, v);
                return self.b().atomic_rmw(RmwOp::FAdd, p, neg, o, s);
            }
            Arith::Min | Arith::Max if float => {
                return self.float_min_max_loop(a == Arith::Min, p, v, t, o, s);
            }
            Arith::Nand => return self.nand_loop(p, v, t, o),
            Arith::Add => RmwOp::Add,
            Arith::Sub => RmwOp::Sub,
            Arith::And => RmwOp::And,
            Arith::Or => RmwOp::Or,
            Arith::Xor => RmwOp::Xor,
            Arith::Min if unsigned => RmwOp::UMin,
            Arith::Max if unsigned => RmwOp::UMax,
            Arith::Min => RmwOp::SMin,
            Arith::Max => RmwOp::SMax,
        };
        self.b().atomic_rmw(rmw, p, v, o, s)
    }

    /// The value `a` stores given the value before (`OP_fetch`'s result).
    fn combine(&mut self, a: Arith, old: Value, v: Value, t: Type, unsigned: bool) -> Value {
        let float = t.is_float();
        let bin = match a {
            Arith::Add if float => IrBin::FAdd,
            Arith::Sub if float => IrBin::FSub,
            Arith::Add => IrBin::Add,
            Arith::Sub => IrBin::Sub,
            Arith::And => IrBin::And,
            Arith::Or => IrBin::Or,
            Arith::Xor => IrBin::Xor,
            Arith::Nand => {
                let and = self.b().bin(IrBin::And, old, v);
                let ones = self.b().iconst(t, u64::MAX);
                return self.b().bin(IrBin::Xor, and, ones);
            }
            Arith::Min | Arith::Max => {
                let min = a == Arith::Min;
                let take_v = if float {
                    // As the float loop stores: `v` where it is better or the old value is NaN.
                    let op = if min { CmpOp::FOlt } else { CmpOp::FOgt };
                    let better = self.b().cmp(op, v, old);
                    let nan = self.b().cmp(CmpOp::FUne, old, old);
                    self.b().bin(IrBin::Or, better, nan)
                } else {
                    let op = match (min, unsigned) {
                        (true, true) => CmpOp::Ult,
                        (true, false) => CmpOp::Slt,
                        (false, true) => CmpOp::Ugt,
                        (false, false) => CmpOp::Sgt,
                    };
                    self.b().cmp(op, v, old)
                };
                return self.b().select(take_v, v, old);
            }
        };
        self.b().bin(bin, old, v)
    }

    /// `nand` (`~(x & v)`), which the devices have no read-modify-write for: a
    /// compare-exchange loop. Returns the value before.
    fn nand_loop(&mut self, p: Value, v: Value, t: Type, o: Order) -> Value {
        self.cas_loop(p, t, o, Scope::Device, |cx, old| {
            cx.combine(Arith::Nand, old, v, t, false)
        })
    }
}
