//! Sub-groups for a device whose sub-group is the whole work-group (the cpu device: one
//! sub-group per work-group, of the work-group's size). The `cl_khr_subgroups` queries become
//! work-item queries or constants, `sub_group_barrier` a barrier, and the sub-group
//! collectives (`all`, `any`, `broadcast`, `reduce_*`, `scan_*`) the work-group collectives
//! that compute the same values over the same work-items. Other sub-group builtins (the
//! Intel shuffles, ballots) stay calls, which the device reports as not supported.

use crate::ir::*;
use crate::types::{SIZE_T, Scalar, Type};
use oclc_syntax::Span;

/// Rewrites the sub-group builtins of every function of `m`; returns how many.
pub fn as_work_group(m: &mut Module) -> usize {
    let builtins = m.builtins.clone();
    let mut n = 0;
    for f in &mut m.functions {
        for b in 0..f.blocks.len() {
            let insts = f.blocks[b].insts.clone();
            let mut out = Vec::with_capacity(insts.len());
            for i in insts {
                let rewritten = match f.insts.get(i.index()).map(|d| (&d.op, d.result, d.span)) {
                    Some((Op::CallBuiltin(id, args), result, span)) => {
                        match builtins.get(id.index()) {
                            Some(decl) => rewrite(f, decl, &args.clone(), result, span, &mut out),
                            None => None,
                        }
                    }
                    _ => None,
                };
                if let Some(op) = rewritten {
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
    let mut emit = |f: &mut Function, op: Op, ty: Type| -> Value {
        // Not appended to a block: placed in `out`, before the rewritten call.
        let (inst, v) = f.push_inst(Block(u32::MAX), op, Some(ty), span);
        out.push(inst);
        v.unwrap_or(Value(u32::MAX))
    };
    let name = decl.name.as_str();
    let arg = |k: usize| args.get(k).copied();
    let linear_size =
        |f: &mut Function,
         q: WorkItemQuery,
         emit: &mut dyn FnMut(&mut Function, Op, Type) -> Value| {
            let mut acc: Option<Value> = None;
            for d in 0..3 {
                let dim = emit(f, Op::Const(Const::Int(d)), Type::I32);
                let s = emit(f, Op::WorkItem(q, Some(dim)), SIZE_T);
                acc = Some(match acc {
                    None => s,
                    Some(a) => emit(f, Op::Bin(BinOp::Mul, a, s), SIZE_T),
                });
            }
            acc
        };
    let op = match name {
        "get_sub_group_size" | "get_max_sub_group_size" => {
            let q = if name == "get_sub_group_size" {
                WorkItemQuery::LocalSize
            } else {
                WorkItemQuery::EnqueuedLocalSize
            };
            let n = linear_size(f, q, &mut emit)?;
            Op::Conv(ConvOp::Trunc, n)
        }
        "get_num_sub_groups" | "get_enqueued_num_sub_groups" => Op::Const(Const::Int(1)),
        "get_sub_group_id" => Op::Const(Const::Int(0)),
        "get_sub_group_local_id" => {
            let l = emit(f, Op::WorkItem(WorkItemQuery::LocalLinearId, None), SIZE_T);
            Op::Conv(ConvOp::Trunc, l)
        }
        "sub_group_barrier" => Op::Barrier {
            flags: arg(0)?,
            scope: Scope::WorkGroup,
        },
        "sub_group_all" => Op::WorkGroup {
            op: WgOp::All,
            value: arg(0)?,
            ids: Vec::new(),
        },
        "sub_group_any" => Op::WorkGroup {
            op: WgOp::Any,
            value: arg(0)?,
            ids: Vec::new(),
        },
        "sub_group_broadcast" => {
            // The sub-group local id is the local linear id: (x, y, z) of the work-group.
            let id = arg(1)?;
            let id = emit(f, Op::Conv(ConvOp::ZExt, id), SIZE_T);
            let mut size = |f: &mut Function, d: u64| {
                let dim = emit(f, Op::Const(Const::Int(d)), Type::I32);
                emit(f, Op::WorkItem(WorkItemQuery::LocalSize, Some(dim)), SIZE_T)
            };
            let (sx, sy) = (size(f, 0), size(f, 1));
            let x = emit(f, Op::Bin(BinOp::URem, id, sx), SIZE_T);
            let t = emit(f, Op::Bin(BinOp::UDiv, id, sx), SIZE_T);
            let y = emit(f, Op::Bin(BinOp::URem, t, sy), SIZE_T);
            let z = emit(f, Op::Bin(BinOp::UDiv, t, sy), SIZE_T);
            Op::WorkGroup {
                op: WgOp::Broadcast,
                value: arg(0)?,
                ids: vec![x, y, z],
            }
        }
        _ => {
            let rest = name.strip_prefix("sub_group_")?;
            let (kind, o) = rest.rsplit_once('_')?;
            let value = arg(0)?;
            let s = f.value_type(value)?.elem()?;
            let a = arith(o, s, decl.ret_unsigned)?;
            let op = match kind {
                "reduce" => WgOp::Reduce(a),
                "scan_inclusive" => WgOp::ScanInclusive(a),
                "scan_exclusive" => WgOp::ScanExclusive(a),
                _ => return None,
            };
            Op::WorkGroup {
                op,
                value,
                ids: Vec::new(),
            }
        }
    };
    // A rewrite must keep the call's result (or lack of one).
    match (&op, result) {
        (Op::Barrier { .. }, None) => Some(op),
        (Op::Barrier { .. }, Some(_)) => None,
        (_, Some(_)) => Some(op),
        (_, None) => None,
    }
}

/// The work-group arithmetic of `op` (`add`, `min`, `max`) on `s`.
fn arith(op: &str, s: Scalar, unsigned: bool) -> Option<WgArith> {
    Some(match (op, s.is_float(), unsigned) {
        ("add", true, _) => WgArith::FAdd,
        ("min", true, _) => WgArith::FMin,
        ("max", true, _) => WgArith::FMax,
        ("add", false, _) => WgArith::IAdd,
        ("min", false, true) => WgArith::UMin,
        ("min", false, false) => WgArith::SMin,
        ("max", false, true) => WgArith::UMax,
        ("max", false, false) => WgArith::SMax,
        _ => return None,
    })
}
