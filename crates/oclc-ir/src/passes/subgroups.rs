//! Sub-groups for a device whose sub-groups have one work-item (the cpu device: a size the
//! specification leaves to the implementation, and the only one whose collectives need no
//! communication between work-items). The `cl_khr_subgroups` queries become work-item
//! queries or constants, the collectives their one-item values (`reduce`: the value,
//! `scan_exclusive`: the identity, `all`: the predicate), `broadcast` and the Intel shuffles
//! the value they read from lane 0, `sub_group_barrier` a fence. A size above 128 would not
//! fit the 128-bit masks of `cl_khr_subgroup_ballot` (the CTS assumes it too).

use crate::ir::*;
use crate::types::{SIZE_T, Scalar, Type};
use oclc_syntax::Span;

/// Rewrites the sub-group builtins of every function of `m`; returns how many.
pub fn one_item(m: &mut Module) -> usize {
    let builtins = m.builtins.clone();
    let mut n = 0;
    for f in &mut m.functions {
        for b in 0..f.blocks.len() {
            let insts = f.blocks[b].insts.clone();
            let mut out = Vec::with_capacity(insts.len());
            for i in insts {
                let call = match f.insts.get(i.index()) {
                    Some(InstData {
                        op: Op::CallBuiltin(id, args),
                        result,
                        span,
                    }) => builtins
                        .get(id.index())
                        .map(|d| (d.clone(), args.clone(), *result, *span)),
                    _ => None,
                };
                if let Some((decl, args, result, span)) = call
                    && let Some(op) = rewrite(f, &decl, &args, result, span, &mut out)
                {
                    if let Some(d) = f.insts.get_mut(i.index()) {
                        d.op = op;
                    }
                    n += 1;
                }
                out.push(i);
            }
            f.blocks[b].insts = out;
        }
    }
    n
}

/// Instructions placed before a rewritten call.
struct Before<'a> {
    out: &'a mut Vec<Inst>,
    span: Span,
}

impl Before<'_> {
    fn push(&mut self, f: &mut Function, op: Op, ty: Type) -> Value {
        // Not appended to a block: placed in `out`, before the rewritten call.
        let (inst, v) = f.push_inst(Block(u32::MAX), op, Some(ty), self.span);
        self.out.push(inst);
        v.unwrap_or(Value(u32::MAX))
    }

    fn int(&mut self, f: &mut Function, v: u64, ty: Type) -> Value {
        self.push(f, Op::Const(Const::Int(v)), ty)
    }

    /// The product of the three dimensions of query `q`, as `uint`.
    fn linear(&mut self, f: &mut Function, q: WorkItemQuery) -> Value {
        let mut acc: Option<Value> = None;
        for d in 0..3 {
            let dim = self.int(f, d, Type::I32);
            let s = self.push(f, Op::WorkItem(q, Some(dim)), SIZE_T);
            acc = Some(match acc {
                None => s,
                Some(a) => self.push(f, Op::Bin(BinOp::Mul, a, s), SIZE_T),
            });
        }
        let n = acc.unwrap_or(Value(u32::MAX));
        self.push(f, Op::Conv(ConvOp::Trunc, n), Type::I32)
    }

    /// `cond ? a : b` as the rewritten call's operation.
    fn pick_if_zero(&mut self, f: &mut Function, x: Value, a: Value, b: Value) -> Op {
        let zero = self.int(f, 0, f.value_type(x).unwrap_or(Type::I32));
        let c = self.push(f, Op::Cmp(CmpOp::Eq, x, zero), Type::Scalar(Scalar::I1));
        Op::Select(c, a, b)
    }
}

/// `x` unchanged, as an operation.
fn same(f: &mut Function, b: &mut Before, x: Value) -> Op {
    let t = b.push(f, Op::Const(Const::Int(1)), Type::Scalar(Scalar::I1));
    Op::Select(t, x, x)
}

/// The operation that replaces a call of `decl` (its result stays the call's), with the
/// instructions it needs pushed to `out`; `None` for builtins that are not rewritten.
fn rewrite(
    f: &mut Function,
    decl: &BuiltinDecl,
    args: &[Value],
    result: Option<Value>,
    span: Span,
    out: &mut Vec<Inst>,
) -> Option<Op> {
    let mut b = Before { out, span };
    let name = decl.name.as_str();
    let arg = |k: usize| args.get(k).copied();
    let op = match name {
        "get_sub_group_size" | "get_max_sub_group_size" => Op::Const(Const::Int(1)),
        "get_sub_group_local_id" => Op::Const(Const::Int(0)),
        "get_num_sub_groups" => Op::Bitcast(b.linear(f, WorkItemQuery::LocalSize)),
        "get_enqueued_num_sub_groups" => Op::Bitcast(b.linear(f, WorkItemQuery::EnqueuedLocalSize)),
        "get_sub_group_id" => {
            let l = b.push(f, Op::WorkItem(WorkItemQuery::LocalLinearId, None), SIZE_T);
            Op::Conv(ConvOp::Trunc, l)
        }
        "sub_group_barrier" => Op::Fence {
            flags: arg(0)?,
            order: Order::SeqCst,
            scope: Scope::SubGroup,
        },
        "sub_group_all" | "sub_group_any" => {
            let x = arg(0)?;
            let (one, zero) = (b.int(f, 1, Type::I32), b.int(f, 0, Type::I32));
            b.pick_if_zero(f, x, zero, one)
        }
        "sub_group_broadcast" | "intel_sub_group_shuffle" | "intel_sub_group_shuffle_xor" => {
            same(f, &mut b, arg(0)?)
        }
        // down(cur, next, δ): lane 0 + δ is in the sub-group only for δ = 0, else next[δ - 1].
        "intel_sub_group_shuffle_down" => {
            let (cur, next, d) = (arg(0)?, arg(1)?, arg(2)?);
            b.pick_if_zero(f, d, cur, next)
        }
        // up(prev, cur, δ): cur[0 - δ] only for δ = 0, else prev[1 - δ].
        "intel_sub_group_shuffle_up" => {
            let (prev, cur, d) = (arg(0)?, arg(1)?, arg(2)?);
            b.pick_if_zero(f, d, cur, prev)
        }
        _ => {
            let rest = name.strip_prefix("sub_group_")?;
            let (kind, o) = rest.rsplit_once('_')?;
            if !matches!(o, "add" | "min" | "max") {
                return None;
            }
            let x = arg(0)?;
            match kind {
                "reduce" | "scan_inclusive" => same(f, &mut b, x),
                "scan_exclusive" => {
                    let t = f.value_type(x)?;
                    let id = identity(o, t.elem()?, decl.ret_unsigned);
                    Op::Const(id)
                }
                _ => return None,
            }
        }
    };
    // A rewrite must keep the call's result (or lack of one).
    match (&op, result) {
        (Op::Fence { .. }, None) => Some(op),
        (Op::Fence { .. }, Some(_)) | (_, None) => None,
        (_, Some(_)) => Some(op),
    }
}

/// The identity of `op` (`add`, `min`, `max`) on `s`: what an exclusive scan gives the
/// first work-item of a sub-group.
fn identity(op: &str, s: Scalar, unsigned: bool) -> Const {
    let bits = s.bits();
    let ones = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    match (op, s.is_float(), unsigned) {
        ("add", true, _) => Const::Float(0.0),
        ("min", true, _) => Const::Float(f64::INFINITY),
        ("max", true, _) => Const::Float(f64::NEG_INFINITY),
        ("min", false, true) => Const::Int(ones),
        ("min", false, false) => Const::Int(ones >> 1),
        ("max", false, false) => Const::Int((ones >> 1) ^ ones),
        _ => Const::Int(0),
    }
}
