//! The text form of the IR (`oclc build --emit ir`).

use crate::ir::*;
use crate::types::space_name;
use oclc_syntax::{SourceMap, Span};
use std::fmt::Write;

/// Prints the whole module; with a source map, each instruction ends in `; line:col`.
pub fn print_module(m: &Module, sm: Option<&SourceMap>) -> String {
    let mut out = String::new();
    for (i, g) in m.globals.iter().enumerate() {
        let _ = write!(
            out,
            "global @g{i} \"{}\": {} size {} align {}",
            escape(&g.name),
            space_name(g.space),
            g.size,
            g.align
        );
        if !g.init.is_empty() {
            out.push_str(" init [");
            for (k, b) in g.init.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{b:02x}");
            }
            out.push(']');
        }
        for r in &g.relocs {
            let _ = write!(
                out,
                " reloc({}: @g{} + {}, {})",
                r.offset,
                r.target.0,
                r.addend,
                space_name(r.space)
            );
        }
        out.push('\n');
    }
    for (i, l) in m.locals.iter().enumerate() {
        let _ = writeln!(
            out,
            "local @l{i} \"{}\": size {} align {} in @f{}",
            escape(&l.name),
            l.size,
            l.align,
            l.kernel.0
        );
    }
    for (i, b) in m.builtins.iter().enumerate() {
        let params: Vec<String> = b.params.iter().map(|t| t.to_string()).collect();
        let _ = write!(out, "builtin @b{i} = {}({})", b.name, params.join(", "));
        if let Some(r) = b.ret {
            let _ = write!(out, " -> {r}");
        }
        out.push('\n');
    }
    for (i, f) in m.functions.iter().enumerate() {
        if !out.is_empty() {
            out.push('\n');
        }
        print_function(&mut out, FuncId(i as u32), f, sm);
    }
    out
}

fn escape(s: &str) -> String {
    s.escape_default().to_string()
}

fn print_function(out: &mut String, id: FuncId, f: &Function, sm: Option<&SourceMap>) {
    let kw = if f.is_kernel() { "kernel" } else { "fn" };
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Value => format!("{}: {}", p.name, p.ty),
            ParamKind::Buffer(s) => format!("{}: {} buffer({})", p.name, p.ty, space_name(*s)),
            ParamKind::Aggregate { size, align } => {
                format!("{}: {} byval({size}, {align})", p.name, p.ty)
            }
        })
        .collect();
    let _ = write!(out, "{kw} {id} {}({})", f.name, params.join(", "));
    if let Some(r) = f.ret {
        let _ = write!(out, " -> {r}");
    }
    if let Some(KernelInfo {
        reqd_work_group_size: Some([x, y, z]),
    }) = &f.kernel
    {
        let _ = write!(out, " reqd_work_group_size({x}, {y}, {z})");
    }
    out.push_str(" {\n");
    for (bi, bd) in f.blocks.iter().enumerate() {
        let ps: Vec<String> = bd
            .params
            .iter()
            .map(|v| {
                format!(
                    "{v}: {}",
                    f.value_type(*v).map_or("?".into(), |t| t.to_string())
                )
            })
            .collect();
        let _ = writeln!(out, "block{bi}({}):", ps.join(", "));
        for i in &bd.insts {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            out.push_str("    ");
            if let Some(r) = d.result {
                let _ = write!(
                    out,
                    "{r}: {} = ",
                    f.value_type(r).map_or("?".into(), |t| t.to_string())
                );
            }
            print_op(out, &d.op);
            if let Some(loc) = sm.and_then(|sm| location(sm, d.span)) {
                let _ = write!(out, "  ; {loc}");
            }
            out.push('\n');
        }
    }
    out.push_str("}\n");
}

fn location(sm: &SourceMap, span: Span) -> Option<String> {
    if span.is_dummy() {
        return None;
    }
    sm.location(span).map(|(_, l, c)| format!("{l}:{c}"))
}

fn list(vs: &[Value]) -> String {
    vs.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn target(t: &BlockCall) -> String {
    format!("{}({})", t.block, list(&t.args))
}

fn print_op(out: &mut String, op: &Op) {
    let _ = match op {
        Op::Const(Const::Int(x)) => write!(out, "const {x}"),
        Op::Const(Const::Float(x)) => write!(out, "const {x:?}"),
        Op::Const(Const::Null) => write!(out, "null"),
        Op::Undef => write!(out, "undef"),
        Op::Bin(o, a, b) => write!(out, "{} {a}, {b}", o.name()),
        Op::Un(o, a) => write!(out, "{} {a}", o.name()),
        Op::Cmp(o, a, b) => write!(out, "cmp {} {a}, {b}", o.name()),
        Op::Conv(o, a) => write!(out, "{} {a}", o.name()),
        Op::Bitcast(a) => write!(out, "bitcast {a}"),
        Op::IntToPtr(a) => write!(out, "inttoptr {a}"),
        Op::Splat(a) => write!(out, "splat {a}"),
        Op::Build(vs) => write!(out, "build {}", list(vs)),
        Op::Extract(v, l) => write!(out, "extract {v}, {l}"),
        Op::ExtractDyn(v, i) => write!(out, "extract {v}, {i}"),
        Op::InsertDyn(v, x, i) => write!(out, "insert {v}, {x}, {i}"),
        Op::Insert(v, x, l) => write!(out, "insert {v}, {x}, {l}"),
        Op::Shuffle(v, m) => {
            let m: Vec<String> = m.iter().map(|l| l.to_string()).collect();
            write!(out, "shuffle {v}, [{}]", m.join(", "))
        }
        Op::Select(c, a, b) => write!(out, "select {c}, {a}, {b}"),
        Op::PtrAdd(p, o) => write!(out, "ptradd {p}, {o}"),
        Op::PtrDiff(a, b) => write!(out, "ptrdiff {a}, {b}"),
        Op::InBounds { ptr, len } => write!(out, "inbounds {ptr}, {len}"),
        Op::Load(p) => write!(out, "load {p}"),
        Op::Store { ptr, value } => write!(out, "store {ptr}, {value}"),
        Op::Memcpy { dst, src, len } => write!(out, "memcpy {dst}, {src}, {len}"),
        Op::Memset { dst, byte, len } => write!(out, "memset {dst}, {byte}, {len}"),
        Op::ToGeneric(p) => write!(out, "to_generic {p}"),
        Op::FromGeneric(p, s) => write!(out, "from_generic {p} to {}", space_name(*s)),
        Op::SpaceTest(p, s) => write!(out, "space_test {p} is {}", space_name(*s)),
        Op::GetFence(p) => write!(out, "get_fence {p}"),
        Op::StackAlloc { size, align, name } if name.as_str().is_empty() => {
            write!(out, "stack_alloc {size}, align {align}")
        }
        Op::StackAlloc { size, align, name } => write!(
            out,
            "stack_alloc {size}, align {align} \"{}\"",
            escape(name.as_str())
        ),
        Op::GlobalAddr(g) => write!(out, "global_addr {g}"),
        Op::LocalAddr(l) => write!(out, "local_addr {l}"),
        Op::Call(f, args) => write!(out, "call {f}({})", list(args)),
        Op::CallBuiltin(b, args) => write!(out, "call_builtin {b}({})", list(args)),
        Op::AtomicRmw {
            op,
            ptr,
            value,
            order,
            scope,
        } => {
            write!(
                out,
                "atomic_rmw {} {ptr}, {value} {} {}",
                op.name(),
                order.name(),
                scope.name()
            )
        }
        Op::AtomicCmpXchg {
            ptr,
            expected,
            desired,
            success,
            failure,
            scope,
        } => write!(
            out,
            "atomic_cmpxchg {ptr}, {expected}, {desired} {} {} {}",
            success.name(),
            failure.name(),
            scope.name()
        ),
        Op::AtomicLoad { ptr, order, scope } => {
            write!(out, "atomic_load {ptr} {} {}", order.name(), scope.name())
        }
        Op::AtomicStore {
            ptr,
            value,
            order,
            scope,
        } => {
            write!(
                out,
                "atomic_store {ptr}, {value} {} {}",
                order.name(),
                scope.name()
            )
        }
        Op::WorkGroup { op, value, ids } => {
            let name = match op {
                WgOp::All => "all".to_string(),
                WgOp::Any => "any".to_string(),
                WgOp::Broadcast => "broadcast".to_string(),
                WgOp::Reduce(a) => format!("reduce_{}", a.name()),
                WgOp::ScanInclusive(a) => format!("scan_inclusive_{}", a.name()),
                WgOp::ScanExclusive(a) => format!("scan_exclusive_{}", a.name()),
            };
            if ids.is_empty() {
                write!(out, "work_group {name} {value}")
            } else {
                write!(out, "work_group {name} {value}, {}", list(ids))
            }
        }
        Op::Barrier { flags, scope } => write!(out, "barrier {flags} {}", scope.name()),
        Op::Fence {
            flags,
            order,
            scope,
        } => write!(out, "fence {flags} {} {}", order.name(), scope.name()),
        Op::WorkItem(q, Some(d)) => write!(out, "work_item {} {d}", q.name()),
        Op::WorkItem(q, None) => write!(out, "work_item {}", q.name()),
        Op::Printf(f, args) if args.is_empty() => write!(out, "printf {f}"),
        Op::Printf(f, args) => write!(out, "printf {f}, {}", list(args)),
        Op::Ret(Some(v)) => write!(out, "ret {v}"),
        Op::Ret(None) => write!(out, "ret"),
        Op::Br(t) => write!(out, "br {}", target(t)),
        Op::CondBr(c, t, e) => write!(out, "cond_br {c}, {}, {}", target(t), target(e)),
        Op::Switch(x, cases, d) => {
            let cs: Vec<String> = cases
                .iter()
                .map(|(k, t)| format!("{k}: {}", target(t)))
                .collect();
            write!(out, "switch {x} [{}], default {}", cs.join(", "), target(d))
        }
        Op::Unreachable => write!(out, "unreachable"),
    };
}
