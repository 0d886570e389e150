//! Interprocedural inference: functions are analyzed callers first (the call graph is
//! acyclic), and a call passing resolved pointers to generic parameters is redirected to a
//! clone of the callee whose parameters have those named spaces (one clone per space
//! signature, shared by every call with that signature). Each function is then rewritten by
//! [`infer_spaces`](super::infer_spaces), and the report entry for it is built from the
//! same analysis. Originals left without callers are deleted.

use super::VarRecord;
use super::infer_spaces::{Analysis, CastVerdict, Hooks, Lat, analyze, cast_verdicts, rewrite};
use super::report::*;
use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Type};
use oclc_syntax::{Diagnostic, Span};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::rc::Rc;

/// Space signature of a call: for each parameter, the named space passed to it, if any.
type Signature = Vec<Option<AddrSpace>>;

/// Instructions clones may add to a module, counting each one's parameters and 8 for its
/// header (or the module's own size twice, when larger):
/// past it a call keeps its generic callee. Each function has at most one clone per space
/// signature, but signatures can multiply level by level (a helper passing its pointer
/// parameters on permuted), so without a bound a 40-line program made 1.4 GB of clones.
pub const CLONE_GROWTH: usize = 100_000;

/// Specializes and rewrites every function of `m`; `vars[i]` are function `i`'s source
/// pointer variables (kept in step with the function list). Returns the report entries and
/// warnings, and the number of clones made.
pub fn specialize(m: &mut Module, vars: &mut Vec<Vec<VarRecord>>) -> (SpacesReport, usize) {
    run(m, vars, Mode::Rewrite)
}

/// The casts [`specialize`] finds impossible, found the same way (callers first, one clone
/// per space signature) but without rewriting functions or describing them: `oclc check`
/// asks only this. `m` is left as scratch: calls redirected to clones, bodies not rewritten.
pub fn impossible_casts(m: &mut Module, vars: &mut Vec<Vec<VarRecord>>) -> Vec<ImpossibleCast> {
    run(m, vars, Mode::Verdicts).0.impossible_casts
}

/// What [`run`] makes of each function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Rewrite it with its analysis and describe it in the report.
    Rewrite,
    /// Only give the verdicts on its casts. A function with neither a cast nor a call is
    /// skipped: it has no verdict to give and no callee to specialize.
    Verdicts,
}

fn run(m: &mut Module, vars: &mut Vec<Vec<VarRecord>>, mode: Mode) -> (SpacesReport, usize) {
    let n0 = m.functions.len();
    vars.resize(n0, Vec::new());
    let rank = callers_first_rank(m);
    let mut origin: Vec<usize> = (0..n0).collect();
    let mut calls_to = vec![0usize; n0];
    for f in &m.functions {
        for c in calls_of(f) {
            if let Some(x) = calls_to.get_mut(c.index()) {
                *x += 1;
            }
        }
    }
    let had_callers: Vec<bool> = calls_to.iter().map(|&c| c > 0).collect();
    let mut processed = vec![false; n0];
    let mut removed = vec![false; n0];
    let mut clones: HashMap<(usize, Signature), usize> = HashMap::new();
    let mut generic_callers: HashMap<(usize, usize), Vec<Span>> = HashMap::new();
    let mut verdicts: BTreeMap<(usize, Inst), Vec<CastVerdict>> = BTreeMap::new();
    let mut report = SpacesReport::default();
    let memo: Memo = RefCell::new(HashMap::new());
    // Functions that always return a pointer into one named space return it typed so.
    for c in 0..n0 {
        let f = &m.functions[c];
        if f.is_kernel() || f.ret != Some(Type::Ptr(AddrSpace::Generic)) {
            continue;
        }
        let sig = vec![None; f.params.len()];
        if let Lat::Named(s, _) = ret_space(m, &memo, c, &sig, 0) {
            m.functions[c].ret = Some(Type::Ptr(s));
        }
    }
    // Next function to process: lowest rank of its original, then lowest id.
    let mut queue: BinaryHeap<Reverse<(usize, usize)>> =
        (0..n0).map(|i| Reverse((rank[i], i))).collect();
    let mut names: HashSet<String> = m.functions.iter().map(|f| f.name.clone()).collect();
    // A function's size: its instructions, plus its parameters and a few for its header.
    let placed =
        |f: &Function| f.blocks.iter().map(|b| b.insts.len()).sum::<usize>() + f.params.len() + 8;
    let clone_budget = CLONE_GROWTH.max(m.functions.iter().map(placed).sum::<usize>() * 2);
    let mut cloned = 0usize;
    while let Some(Reverse((_, id))) = queue.pop() {
        if processed[id] {
            continue;
        }
        processed[id] = true;
        let is_kernel = m.functions[id].is_kernel();
        if !is_kernel && origin[id] == id && had_callers[id] && calls_to[id] == 0 {
            removed[id] = true;
            for c in calls_of(&m.functions[id]) {
                if let Some(x) = calls_to.get_mut(c.index()) {
                    *x = x.saturating_sub(1);
                }
            }
            continue;
        }
        if mode == Mode::Verdicts && !has_cast_or_call(&m.functions[id]) {
            continue;
        }
        let placeholder = Function::placeholder(Span::DUMMY);
        let mut func = std::mem::replace(&mut m.functions[id], placeholder);
        let source_name = m
            .functions
            .get(origin[id])
            .filter(|_| origin[id] != id)
            .map_or(func.name.clone(), |o| o.name.clone());
        let param = |k: usize| {
            Lat::Generic(Rc::new(GenericReason::Parameter {
                function: source_name.clone(),
                generic_callers: generic_callers.get(&(id, k)).cloned().unwrap_or_default(),
            }))
        };
        let call =
            |c: FuncId, lats: &[Lat], span: Span| Some(call_result(m, &memo, c, lats, span, 0));
        let stored = |c: FuncId, k: usize, lats: &[Lat], span: Span| {
            Some(stored_by_call(m, &memo, c, k, lats, span, 0))
        };
        let analysis = analyze(
            m,
            &func,
            &Hooks {
                param: &param,
                call: &call,
                stored: &stored,
            },
        );
        let mut param_reasons: Vec<Option<GenericReason>> = func
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| match param(k) {
                Lat::Generic(r) if p.ty == Type::Ptr(AddrSpace::Generic) => {
                    Some(GenericReason::clone(&r))
                }
                _ => None,
            })
            .collect();
        // Redirect calls to clones for their space signatures.
        for (_, i) in placed_insts(&func) {
            let Some(Op::Call(c, args)) = func.insts.get(i.index()).map(|d| d.op.clone()) else {
                continue;
            };
            let span = func.insts.get(i.index()).map_or(func.span, |d| d.span);
            let Some(callee) = m.function(c) else {
                continue;
            };
            let mut sig: Signature = Vec::with_capacity(args.len());
            for (k, (p, a)) in callee.params.iter().zip(&args).enumerate() {
                if p.ty != Type::Ptr(AddrSpace::Generic) {
                    sig.push(None);
                    continue;
                }
                let s = analysis.lat.get(a.index()).and_then(Lat::space);
                if s.is_none() {
                    generic_callers
                        .entry((c.index(), k))
                        .or_default()
                        .push(span);
                }
                sig.push(s);
            }
            if sig.iter().all(Option::is_none) {
                continue;
            }
            let target = match clones.get(&(c.index(), sig.clone())) {
                Some(t) => *t,
                None if cloned + placed(callee) > clone_budget => {
                    // Over the budget: the call keeps the generic callee (its pointers
                    // generic, as from a caller that does not know their spaces).
                    for (k, p) in callee.params.iter().enumerate() {
                        if p.ty == Type::Ptr(AddrSpace::Generic)
                            && sig.get(k).is_some_and(Option::is_some)
                        {
                            generic_callers
                                .entry((c.index(), k))
                                .or_default()
                                .push(span);
                        }
                    }
                    continue;
                }
                None => {
                    cloned += placed(callee);
                    let t = make_clone(m, c.index(), &sig, &mut names);
                    queue.push(Reverse((
                        rank.get(c.index()).copied().unwrap_or(usize::MAX),
                        t,
                    )));
                    if let Lat::Named(s, _) = ret_space(m, &memo, c.index(), &sig, 0) {
                        m.functions[t].ret = Some(Type::Ptr(s));
                    }
                    origin.push(c.index());
                    processed.push(false);
                    removed.push(false);
                    calls_to.push(0);
                    let callee_vars = vars.get(c.index()).cloned().unwrap_or_default();
                    vars.push(callee_vars);
                    for cc in calls_of(&m.functions[t]) {
                        if let Some(x) = calls_to.get_mut(cc.index()) {
                            *x += 1;
                        }
                    }
                    clones.insert((c.index(), sig.clone()), t);
                    t
                }
            };
            if let Some(d) = func.insts.get_mut(i.index()) {
                d.op = Op::Call(FuncId(target as u32), args);
            }
            calls_to[c.index()] = calls_to[c.index()].saturating_sub(1);
            calls_to[target] += 1;
        }
        let found = match mode {
            Mode::Rewrite => {
                let mut entry = describe(
                    m,
                    &func,
                    id,
                    origin[id],
                    &source_name,
                    vars.get(id).map_or(&[][..], |v| &v[..]),
                    &analysis,
                );
                entry.param_reasons = std::mem::take(&mut param_reasons);
                report.functions.push(entry);
                rewrite(&mut *m, &mut func, &analysis)
            }
            Mode::Verdicts => cast_verdicts(&func, &analysis),
        };
        for (inst, v) in found {
            verdicts.entry((origin[id], inst)).or_default().push(v);
        }
        m.functions[id] = func;
    }
    // Warnings for casts that fail in every version of their function.
    for list in verdicts.values() {
        let Some(CastVerdict::Impossible {
            kind,
            actual,
            origin,
            target,
            span,
        }) = list.first()
        else {
            continue;
        };
        if !list
            .iter()
            .all(|v| matches!(v, CastVerdict::Impossible { .. }))
        {
            continue;
        }
        report.impossible_casts.push(ImpossibleCast {
            kind: *kind,
            actual: *actual,
            origin: *origin,
            target: *target,
            span: *span,
        });
    }
    report
        .impossible_casts
        .sort_by_key(|c| (c.span.file.0, c.span.lo));
    report.warnings = report.impossible_casts.iter().map(cast_warning).collect();
    report.functions.sort_by(|a, b| {
        (a.span.file.0, a.span.lo, &a.name).cmp(&(b.span.file.0, b.span.lo, &b.name))
    });
    let nclones = clones.len();
    if mode == Mode::Rewrite {
        remove_functions(m, vars, &removed, &mut report);
    }
    (report, nclones)
}

fn cast_warning(c: &ImpossibleCast) -> Diagnostic {
    let ImpossibleCast {
        kind,
        actual,
        origin,
        target,
        span,
    } = *c;
    let msg = match kind {
        CastKind::Explicit => format!(
            "cast to a {} pointer can never succeed: the pointer always points to {} memory",
            space_keyword(target),
            space_keyword(actual)
        ),
        CastKind::SpaceTest => format!(
            "to_{}() always returns NULL here: the pointer always points to {} memory",
            crate::types::space_name(target),
            space_keyword(actual)
        ),
    };
    Diagnostic::warning(span, msg)
        .with_group("address-space-cast")
        .with_note(
            origin,
            format!(
                "the pointer comes from {} memory here",
                space_keyword(actual)
            ),
        )
}

/// What a function does with pointers, under one argument space signature: the space of
/// the pointer it returns, and of the generic pointers it stores through each parameter.
#[derive(Clone)]
struct Summary {
    ret: Lat,
    stored: Vec<Lat>,
}

/// Memoized summaries by (function, argument space signature).
type Memo = RefCell<HashMap<(usize, Signature), Summary>>;

/// Deepest chain of calls followed for return summaries.
const MAX_CALL_DEPTH: u32 = 64;

/// The space of the pointer function `c` returns when called with `sig` (`Unknown` when it
/// returns only NULL; `Generic` when not one named space).
fn ret_space(m: &Module, memo: &Memo, c: usize, sig: &Signature, depth: u32) -> Lat {
    summary(m, memo, c, sig, depth).ret
}

/// Function `c`'s [`Summary`] when called with `sig`.
fn summary(m: &Module, memo: &Memo, c: usize, sig: &Signature, depth: u32) -> Summary {
    let key = (c, sig.clone());
    if let Some(l) = memo.borrow().get(&key) {
        return l.clone();
    }
    let Some(f) = m.functions.get(c) else {
        return Summary {
            ret: Lat::Unknown,
            stored: Vec::new(),
        };
    };
    if depth > MAX_CALL_DEPTH || f.blocks.is_empty() {
        let stored = Lat::Generic(Rc::new(GenericReason::StoredByCall {
            callee: f.name.clone(),
            at: f.span,
        }));
        return Summary {
            ret: Lat::Generic(Rc::new(GenericReason::ReturnedByCall {
                callee: f.name.clone(),
                at: f.span,
            })),
            stored: vec![stored; f.params.len()],
        };
    }
    let param = |k: usize| match sig.get(k).copied().flatten() {
        Some(s) => Lat::Named(s, f.span),
        None => Lat::Generic(Rc::new(GenericReason::Parameter {
            function: f.name.clone(),
            generic_callers: Vec::new(),
        })),
    };
    let call = |cc: FuncId, lats: &[Lat], span: Span| {
        Some(call_result(m, memo, cc, lats, span, depth + 1))
    };
    let stored = |cc: FuncId, k: usize, lats: &[Lat], span: Span| {
        Some(stored_by_call(m, memo, cc, k, lats, span, depth + 1))
    };
    let a = analyze(
        m,
        f,
        &Hooks {
            param: &param,
            call: &call,
            stored: &stored,
        },
    );
    let mut acc = Lat::Unknown;
    for (_, i) in placed_insts(f) {
        if let Some(Op::Ret(Some(v))) = f.insts.get(i.index()).map(|d| &d.op) {
            let l = a.lat.get(v.index()).cloned().unwrap_or(Lat::Unknown);
            acc = acc.join(&l, f.span);
        }
    }
    let sum = Summary {
        ret: acc,
        stored: a.param_stored,
    };
    memo.borrow_mut().insert(key, sum.clone());
    sum
}

/// The space signature of a call to `cf` with arguments of lattice values `lats`.
fn signature_of(cf: &Function, lats: &[Lat]) -> Signature {
    cf.params
        .iter()
        .zip(lats)
        .map(|(p, l)| {
            if p.ty == Type::Ptr(AddrSpace::Generic) {
                l.space()
            } else {
                None
            }
        })
        .collect()
}

/// What the callee `c` stores through its parameter `k` when called with arguments of lattice
/// values `lats` (at `span`).
fn stored_by_call(
    m: &Module,
    memo: &Memo,
    c: FuncId,
    k: usize,
    lats: &[Lat],
    span: Span,
    depth: u32,
) -> Lat {
    let Some(cf) = m.function(c) else {
        return Lat::Unknown;
    };
    let sig = signature_of(cf, lats);
    match summary(m, memo, c.index(), &sig, depth).stored.get(k) {
        Some(Lat::Named(s, at)) => Lat::Named(*s, *at),
        Some(Lat::Unknown) => Lat::Unknown,
        _ => Lat::Generic(Rc::new(GenericReason::StoredByCall {
            callee: cf.name.clone(),
            at: span,
        })),
    }
}

/// The lattice value of a call's result, from the callee's return summary under the
/// arguments' spaces.
fn call_result(m: &Module, memo: &Memo, c: FuncId, lats: &[Lat], span: Span, depth: u32) -> Lat {
    let Some(cf) = m.function(c) else {
        return Lat::Unknown;
    };
    let reason = || {
        Lat::Generic(Rc::new(GenericReason::ReturnedByCall {
            callee: cf.name.clone(),
            at: span,
        }))
    };
    match cf.ret {
        Some(Type::Ptr(AddrSpace::Generic)) => {}
        Some(Type::Ptr(s)) => return Lat::Named(s, span),
        _ => return reason(),
    }
    let sig = signature_of(cf, lats);
    match ret_space(m, memo, c.index(), &sig, depth) {
        Lat::Named(s, _) => Lat::Named(s, span),
        Lat::Unknown => Lat::Unknown,
        Lat::Generic(_) => reason(),
    }
}

/// Whether `f` holds a space cast or a call (placed).
fn has_cast_or_call(f: &Function) -> bool {
    f.blocks.iter().flat_map(|bd| &bd.insts).any(|i| {
        f.insts
            .get(i.index())
            .is_some_and(|d| matches!(d.op, Op::FromGeneric(..) | Op::SpaceTest(..) | Op::Call(..)))
    })
}

/// The callees of `f`'s calls, one entry per call.
fn calls_of(f: &Function) -> Vec<FuncId> {
    placed_insts(f)
        .iter()
        .filter_map(|(_, i)| match f.insts.get(i.index()).map(|d| &d.op) {
            Some(Op::Call(c, _)) => Some(*c),
            _ => None,
        })
        .collect()
}

/// Position of each function in a callers-before-callees order of the (acyclic) call graph.
fn callers_first_rank(m: &Module) -> Vec<usize> {
    let n = m.functions.len();
    let callees: Vec<Vec<usize>> = m
        .functions
        .iter()
        .map(|f| {
            let mut c: Vec<usize> = calls_of(f)
                .iter()
                .map(|x| x.index())
                .filter(|&x| x < n)
                .collect();
            c.sort_unstable();
            c.dedup();
            c
        })
        .collect();
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (f, ref mut k)) = stack.last_mut() {
            if let Some(&c) = callees[f].get(*k) {
                *k += 1;
                if state[c] == 0 {
                    state[c] = 1;
                    stack.push((c, 0));
                }
            } else {
                state[f] = 2;
                post.push(f);
                stack.pop();
            }
        }
    }
    let mut rank = vec![0usize; n];
    for (r, f) in post.iter().rev().enumerate() {
        rank[*f] = r;
    }
    rank
}

/// Adds a copy of function `c` whose generic parameters named in `sig` have those spaces;
/// the body sees them through a `to_generic` that the inference then removes.
fn make_clone(m: &mut Module, c: usize, sig: &Signature, names: &mut HashSet<String>) -> usize {
    let mut f = m.functions[c].clone();
    let suffix: Vec<&str> = sig
        .iter()
        .map(|s| s.map_or("generic", crate::types::space_name))
        .zip(&f.params)
        .filter(|(_, p)| p.ty == Type::Ptr(AddrSpace::Generic))
        .map(|(s, _)| s)
        .collect();
    let base = format!("{}__{}", f.name, suffix.join("_"));
    let mut name = base.clone();
    let mut k = 2;
    while names.contains(&name) {
        name = format!("{base}{k}");
        k += 1;
    }
    names.insert(name.clone());
    f.name = name;
    let entry: Vec<Value> = f.params_of(Block(0)).to_vec();
    let mut map = HashMap::new();
    let mut conv = Vec::new();
    for (k, s) in sig.iter().enumerate() {
        let (Some(s), Some(&p)) = (s, entry.get(k)) else {
            continue;
        };
        let named = Type::Ptr(*s);
        if let Some(vd) = f.values.get_mut(p.index()) {
            vd.ty = named;
        }
        if let Some(par) = f.params.get_mut(k) {
            par.ty = named;
        }
        let span = f.span;
        let (i, g) = new_inst(
            &mut f,
            Op::ToGeneric(p),
            Some(Type::Ptr(AddrSpace::Generic)),
            span,
        );
        if let Some(g) = g {
            map.insert(p, g);
        }
        conv.push(i);
    }
    replace_uses(&mut f, &map);
    if let Some(bd) = f.blocks.first_mut() {
        let mut insts = conv;
        insts.append(&mut bd.insts);
        bd.insts = insts;
    }
    m.functions.push(f);
    m.functions.len() - 1
}

/// The report entry of one function version from its analysis.
fn describe(
    m: &Module,
    f: &Function,
    id: usize,
    origin: usize,
    source_name: &str,
    vars: &[VarRecord],
    a: &Analysis,
) -> FunctionSpaces {
    let generic = Type::Ptr(AddrSpace::Generic);
    let source_params: Vec<Type> = if origin != id {
        m.functions
            .get(origin)
            .map(|o| o.params.iter().map(|p| p.ty).collect())
            .unwrap_or_default()
    } else {
        f.params.iter().map(|p| p.ty).collect()
    };
    let mut specialized = Vec::new();
    let mut pointers = Vec::new();
    let entry = f.params_of(Block(0));
    for (k, p) in f.params.iter().enumerate() {
        if source_params.get(k) != Some(&generic) {
            continue;
        }
        if let Type::Ptr(s) = p.ty
            && s != AddrSpace::Generic
        {
            specialized.push((p.name.clone(), s));
        }
        if vars.iter().any(|v| v.name == p.name) {
            continue;
        }
        let Some(&v) = entry.get(k) else { continue };
        pointers.push(PointerInfo {
            name: p.name.clone(),
            span: f.span,
            resolution: resolve_values(&[v], &[], f.span, a),
        });
    }
    for var in vars {
        let resolution = match var.escaped {
            Some(at) => Resolution::Generic(vec![GenericReason::AddressEscapes { at }]),
            None => resolve_values(&var.values, &var.private, f.span, a),
        };
        pointers.push(PointerInfo {
            name: var.name.clone(),
            span: var.span,
            resolution,
        });
    }
    FunctionSpaces {
        name: f.name.clone(),
        source_name: source_name.to_string(),
        kernel: f.is_kernel(),
        span: f.span,
        specialized,
        pointers,
        accesses: Vec::new(),
        param_reasons: Vec::new(),
    }
}

/// Combines the lattice values a variable took; those in `private` point to a private object
/// split into fields (the function's own copy, made at `span`).
fn resolve_values(values: &[Value], private: &[Value], span: Span, a: &Analysis) -> Resolution {
    let mut reasons: Vec<GenericReason> = Vec::new();
    let mut named: Vec<(AddrSpace, Span)> = Vec::new();
    let split = Lat::Named(AddrSpace::Private, span);
    for v in values {
        let lat = if private.contains(v) {
            Some(&split)
        } else {
            a.lat.get(v.index())
        };
        match lat {
            Some(Lat::Generic(r)) if !reasons.contains(r) => reasons.push(GenericReason::clone(r)),
            Some(Lat::Named(s, at)) if !named.iter().any(|(x, _)| x == s) => named.push((*s, *at)),
            _ => {}
        }
    }
    if !reasons.is_empty() {
        Resolution::Generic(reasons)
    } else if named.len() == 1 {
        Resolution::Named(named[0].0)
    } else if named.is_empty() {
        Resolution::NoPointer
    } else {
        Resolution::PerPoint(named)
    }
}

/// Deletes the functions marked `removed`, renumbering calls and local variables.
fn remove_functions(
    m: &mut Module,
    vars: &mut Vec<Vec<VarRecord>>,
    removed: &[bool],
    _report: &mut SpacesReport,
) {
    if !removed.iter().any(|&r| r) {
        return;
    }
    let mut new_id = vec![u32::MAX; m.functions.len()];
    let mut next = 0;
    for (i, slot) in new_id.iter_mut().enumerate() {
        if !removed.get(i).copied().unwrap_or(false) {
            *slot = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut m.functions);
    let old_vars = std::mem::take(vars);
    let mut old_vars = old_vars.into_iter();
    for (i, f) in old.into_iter().enumerate() {
        let v = old_vars.next().unwrap_or_default();
        if !removed.get(i).copied().unwrap_or(false) {
            m.functions.push(f);
            vars.push(v);
        }
    }
    for f in m.functions.iter_mut() {
        for (_, i) in placed_insts(f) {
            if let Some(d) = f.insts.get_mut(i.index())
                && let Op::Call(c, _) = &mut d.op
                && let Some(&n) = new_id.get(c.index())
            {
                *c = FuncId(n);
            }
        }
    }
    for l in m.locals.iter_mut() {
        if let Some(&n) = new_id.get(l.kernel.index()) {
            l.kernel = FuncId(n);
        }
    }
}
