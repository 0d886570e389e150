//! OpenCL C forbids recursion (OpenCL C 3.0 §6.11 "Restrictions", item e): every call that
//! lies on a cycle of the call graph is an error at the call.

use crate::FxHashMap;
use rayon::prelude::*;

use oclc_sema::hir::{Block, Expr, ExprKind, FuncId, Init, Program, Stmt, StmtKind};
use oclc_syntax::{Diagnostic, Diagnostics, Span, Symbol};

use crate::func::MAX_DEPTH;

/// One call site: caller, callee (by definition index) and where.
struct Call {
    from: usize,
    to: usize,
    span: Span,
}

/// Reports every recursive call; returns whether there was one.
pub fn check(prog: &Program, diags: &mut Diagnostics) -> bool {
    // Calls name a declaration; resolve them to the definition of the same name.
    let mut def: FxHashMap<Symbol, usize> = FxHashMap::default();
    for (i, f) in prog.functions.iter().enumerate() {
        if f.body.is_some() {
            def.entry(f.name).or_insert(i);
        }
    }
    let resolve = |id: FuncId| -> Option<usize> {
        let f = prog.function(id)?;
        def.get(&f.name).copied()
    };
    // Bodies are scanned in parallel (each on its own; collected in order).
    let per_function: Vec<Vec<Call>> = oclc_ir::par::install(|| {
        prog.functions
            .par_iter()
            .enumerate()
            .map(|(i, f)| {
                let mut calls = Vec::new();
                if def.get(&f.name) != Some(&i) {
                    return calls;
                }
                if let Some(b) = &f.body {
                    let mut sites = Vec::new();
                    calls_block(prog, b, &mut sites, 0);
                    for (callee, span) in sites {
                        if let Some(to) = resolve(callee) {
                            calls.push(Call { from: i, to, span });
                        }
                    }
                }
                calls
            })
            .collect()
    });
    let mut calls: Vec<Call> = per_function.into_iter().flatten().collect();
    // Report in source order.
    calls.sort_by_key(|c| (c.span.file, c.span.lo));
    let n = prog.functions.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for c in &calls {
        if let Some(s) = succ.get_mut(c.from) {
            s.push(c.to);
        }
    }
    // A call is recursive when its callee reaches its caller: both lie in one strongly
    // connected component (a self-call is its own component's edge).
    let comp = components(&succ);
    let mut found = false;
    for c in &calls {
        if comp.get(c.to).is_some_and(|t| comp.get(c.from) == Some(t)) {
            found = true;
            let callee = prog.functions.get(c.to).map_or("", |f| f.name.as_str());
            let mut d = Diagnostic::error(
                c.span,
                format!(
                    "the call to function '{callee}' is recursive, which is not supported by OpenCL"
                ),
            );
            if let Some(f) = prog.functions.get(c.to) {
                d = d.with_note(f.span, format!("'{callee}' is defined here"));
            }
            diags.push(d);
        }
    }
    found
}

/// The strongly connected component of each node of the graph `succ` (Tarjan's algorithm,
/// iterative, so deep call chains cannot overflow the stack): linear in nodes and edges.
fn components(succ: &[Vec<usize>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = succ.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut comp = vec![NONE; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next_index = 0;
    let mut next_comp = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // (node, position of the next successor to visit)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if w >= n {
                    continue;
                }
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = next_comp;
                    if w == v {
                        break;
                    }
                }
                next_comp += 1;
            }
        }
    }
    comp
}

fn calls_block(prog: &Program, b: &Block, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    for s in &b.stmts {
        calls_stmt(prog, s, out, depth);
    }
}

fn calls_stmt(prog: &Program, s: &Stmt, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &s.kind {
        StmtKind::Expr(e) => calls_expr(prog, e, out, d),
        StmtKind::Decl(v) => {
            if let Some(i) = prog.var(*v).and_then(|x| x.init.as_ref()) {
                calls_init(prog, i, out, d);
            }
        }
        StmtKind::Block(b) => calls_block(prog, b, out, d),
        StmtKind::If { .. } => {
            for (cond, then, else_) in s.if_links() {
                calls_expr(prog, cond, out, d);
                calls_stmt(prog, then, out, d);
                if let Some(e) = else_ {
                    calls_stmt(prog, e, out, d);
                }
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            calls_expr(prog, cond, out, d);
            calls_stmt(prog, body, out, d);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            for s in init {
                calls_stmt(prog, s, out, d);
            }
            if let Some(c) = cond {
                calls_expr(prog, c, out, d);
            }
            if let Some(c) = step {
                calls_expr(prog, c, out, d);
            }
            calls_stmt(prog, body, out, d);
        }
        StmtKind::Switch { cond, body } => {
            calls_expr(prog, cond, out, d);
            calls_stmt(prog, body, out, d);
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => {
            calls_stmt(prog, body, out, d)
        }
        StmtKind::Return(Some(e)) => calls_expr(prog, e, out, d),
        _ => {}
    }
}

fn calls_init(prog: &Program, i: &Init, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    match i {
        Init::Expr(e) => calls_expr(prog, e, out, depth + 1),
        Init::List { items, .. } => items
            .iter()
            .flatten()
            .for_each(|x| calls_init(prog, x, out, depth + 1)),
    }
}

fn calls_expr(prog: &Program, e: &Expr, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Call { callee, args } => {
            out.push((*callee, e.span));
            args.iter().for_each(|a| calls_expr(prog, a, out, d));
        }
        ExprKind::BuiltinCall { args, .. } => args.iter().for_each(|a| calls_expr(prog, a, out, d)),
        ExprKind::VectorLit(parts) => parts.iter().for_each(|a| calls_expr(prog, a, out, d)),
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::GetFence(x)
        | ExprKind::ToAddrSpace { arg: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Swizzle { base: x, .. } => calls_expr(prog, x, out, d),
        ExprKind::Binary(..) | ExprKind::Comma(..) => {
            e.for_each_operand(|x| calls_expr(prog, x, out, d))
        }
        ExprKind::Index { base: a, index: b } | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            calls_expr(prog, a, out, d);
            calls_expr(prog, b, out, d);
        }
        ExprKind::Cond(a, b, c) => {
            calls_expr(prog, a, out, d);
            calls_expr(prog, b, out, d);
            calls_expr(prog, c, out, d);
        }
        ExprKind::InitList(i) => calls_init(prog, i, out, d),
        ExprKind::StmtExpr { body, value } => {
            calls_block(prog, body, out, d);
            if let Some(v) = value {
                calls_expr(prog, v, out, d);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_group_cycles_only() {
        // 0 -> 1 -> 2 -> 0 is a cycle; 3 calls into it; 4 calls itself; 5 is alone;
        // 6 -> 7 is a chain; an out-of-range successor is ignored.
        let succ = vec![
            vec![1],
            vec![2],
            vec![0, 5],
            vec![0],
            vec![4],
            vec![],
            vec![7, 99],
            vec![],
        ];
        let c = components(&succ);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        let distinct = [c[0], c[3], c[4], c[5], c[6], c[7]];
        for (i, a) in distinct.iter().enumerate() {
            for b in &distinct[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn components_of_a_long_chain_do_not_overflow() {
        let n = 200_000;
        let mut succ: Vec<Vec<usize>> = (0..n).map(|i| vec![i + 1]).collect();
        succ[n - 1] = vec![0];
        let c = components(&succ);
        assert!(c.iter().all(|&x| x == c[0]));
    }
}
