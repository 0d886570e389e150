//! OpenCL C forbids recursion (OpenCL C 3.0 §6.11 "Restrictions", item e): every call that
//! lies on a cycle of the call graph is an error at the call.

use std::collections::HashMap;

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
    let mut def: HashMap<Symbol, usize> = HashMap::new();
    for (i, f) in prog.functions.iter().enumerate() {
        if f.body.is_some() {
            def.entry(f.name).or_insert(i);
        }
    }
    let resolve = |id: FuncId| -> Option<usize> {
        let f = prog.function(id)?;
        def.get(&f.name).copied()
    };
    let mut calls = Vec::new();
    for (i, f) in prog.functions.iter().enumerate() {
        if def.get(&f.name) != Some(&i) {
            continue;
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
    }
    // Report in source order.
    calls.sort_by_key(|c| (c.span.file, c.span.lo));
    let n = prog.functions.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for c in &calls {
        if let Some(s) = succ.get_mut(c.from) {
            s.push(c.to);
        }
    }
    // reach[a] contains b when b is reachable from a (computed on demand, memoized).
    let mut reach: Vec<Option<Vec<bool>>> = vec![None; n];
    let mut found = false;
    for c in &calls {
        if reach[c.to].is_none() {
            reach[c.to] = Some(reachable(&succ, c.to));
        }
        let cyclic = reach[c.to]
            .as_ref()
            .is_some_and(|r| r.get(c.from).copied().unwrap_or(false));
        if cyclic {
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

fn reachable(succ: &[Vec<usize>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; succ.len()];
    let mut stack = vec![start];
    if let Some(s) = seen.get_mut(start) {
        *s = true;
    }
    while let Some(x) = stack.pop() {
        for &y in succ.get(x).map_or(&[][..], |v| v.as_slice()) {
            if let Some(s) = seen.get_mut(y)
                && !*s
            {
                *s = true;
                stack.push(y);
            }
        }
    }
    seen
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
        StmtKind::Expr(e) => calls_expr(e, out, d),
        StmtKind::Decl(v) => {
            if let Some(i) = prog.var(*v).and_then(|x| x.init.as_ref()) {
                calls_init(i, out, d);
            }
        }
        StmtKind::Block(b) => calls_block(prog, b, out, d),
        StmtKind::If { cond, then, else_ } => {
            calls_expr(cond, out, d);
            calls_stmt(prog, then, out, d);
            if let Some(e) = else_ {
                calls_stmt(prog, e, out, d);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            calls_expr(cond, out, d);
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
                calls_expr(c, out, d);
            }
            if let Some(c) = step {
                calls_expr(c, out, d);
            }
            calls_stmt(prog, body, out, d);
        }
        StmtKind::Switch { cond, body } => {
            calls_expr(cond, out, d);
            calls_stmt(prog, body, out, d);
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => {
            calls_stmt(prog, body, out, d)
        }
        StmtKind::Return(Some(e)) => calls_expr(e, out, d),
        _ => {}
    }
}

fn calls_init(i: &Init, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    match i {
        Init::Expr(e) => calls_expr(e, out, depth + 1),
        Init::List { items, .. } => items
            .iter()
            .flatten()
            .for_each(|x| calls_init(x, out, depth + 1)),
    }
}

fn calls_expr(e: &Expr, out: &mut Vec<(FuncId, Span)>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Call { callee, args } => {
            out.push((*callee, e.span));
            args.iter().for_each(|a| calls_expr(a, out, d));
        }
        ExprKind::BuiltinCall { args, .. } => args.iter().for_each(|a| calls_expr(a, out, d)),
        ExprKind::VectorLit(parts) => parts.iter().for_each(|a| calls_expr(a, out, d)),
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::GetFence(x)
        | ExprKind::ToAddrSpace { arg: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Swizzle { base: x, .. } => calls_expr(x, out, d),
        ExprKind::Binary(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index { base: a, index: b }
        | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            calls_expr(a, out, d);
            calls_expr(b, out, d);
        }
        ExprKind::Cond(a, b, c) => {
            calls_expr(a, out, d);
            calls_expr(b, out, d);
            calls_expr(c, out, d);
        }
        ExprKind::InitList(i) => calls_init(i, out, d),
        _ => {}
    }
}
