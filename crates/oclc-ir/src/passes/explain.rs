//! The explanation of every generic access the passes leave: after the last pass, each access
//! through a generic pointer is attributed to the source expression its pointer comes from (a
//! variable, a field path, an array element, a call) and to the reason the space inference
//! gives for that pointer. `oclc spaces` lists them, so the report accounts for every access in
//! its "after" counts.

use super::VarRecord;
use super::infer_spaces::{Hooks, Lat, analyze};
use super::report::{AccessKind, GenericAccess, GenericReason, SourcePath, Step};
use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Type};
use oclc_syntax::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// Deepest chain of definitions followed to name a pointer.
const MAX_NAME_DEPTH: u32 = 32;

/// The generic pointer operand an access goes through, and what it does, if `op` accesses
/// memory through a generic pointer (the accesses `generic_accesses` counts).
pub fn generic_operand(m: &Module, f: &Function, op: &Op) -> Option<(Value, AccessKind)> {
    let generic = Some(Type::Ptr(AddrSpace::Generic));
    let g = |v: &Value| f.value_type(*v) == generic;
    match op {
        Op::Load(p) if g(p) => Some((*p, AccessKind::Load)),
        Op::Store { ptr, .. } if g(ptr) => Some((*ptr, AccessKind::Store)),
        Op::AtomicRmw { ptr, .. }
        | Op::AtomicCmpXchg { ptr, .. }
        | Op::AtomicLoad { ptr, .. }
        | Op::AtomicStore { ptr, .. }
            if g(ptr) =>
        {
            Some((*ptr, AccessKind::Atomic))
        }
        Op::Memset { dst, .. } if g(dst) => Some((*dst, AccessKind::Fill)),
        Op::Memcpy { dst, src, .. } if g(dst) || g(src) => {
            Some((if g(dst) { *dst } else { *src }, AccessKind::Copy))
        }
        Op::CallBuiltin(b, args) => {
            let decl = m.builtins.get(b.index())?;
            if !decl.pointee.iter().any(|p| p.is_some()) {
                return None;
            }
            let p = args.iter().find(|a| g(a))?;
            Some((*p, AccessKind::Builtin(decl.name.clone())))
        }
        _ => None,
    }
}

/// Explains the generic accesses of `f`: `vars` are its source variables (from mem2reg),
/// `param_reasons` why each of its parameters stays generic, `source_names` the source name
/// of every function by IR name (for calls to clones). With `passes_off`, every access is
/// explained by the passes being off.
pub fn explain_function(
    m: &Module,
    f: &Function,
    vars: &[VarRecord],
    param_reasons: &[Option<GenericReason>],
    source_names: &HashMap<String, String>,
    passes_off: bool,
) -> Vec<GenericAccess> {
    let accesses: Vec<(Inst, Value, AccessKind, Span)> = placed_insts(f)
        .into_iter()
        .filter_map(|(_, i)| {
            let d = f.insts.get(i.index())?;
            let (p, k) = generic_operand(m, f, &d.op)?;
            Some((i, p, k, d.span))
        })
        .collect();
    if accesses.is_empty() {
        return Vec::new();
    }
    let source = |c: FuncId| {
        m.function(c).map_or(String::new(), |cf| {
            source_names
                .get(&cf.name)
                .cloned()
                .unwrap_or_else(|| cf.name.clone())
        })
    };
    let lat = if passes_off {
        Vec::new()
    } else {
        let param = |k: usize| match param_reasons.get(k).cloned().flatten() {
            Some(r) => Lat::Generic(Rc::new(r)),
            None => Lat::Generic(Rc::new(GenericReason::Parameter {
                function: source_names
                    .get(&f.name)
                    .cloned()
                    .unwrap_or_else(|| f.name.clone()),
                generic_callers: Vec::new(),
            })),
        };
        let call = |c: FuncId, _: &[Lat], span: Span| {
            Some(Lat::Generic(Rc::new(GenericReason::ReturnedByCall {
                callee: source(c),
                at: span,
            })))
        };
        let stored = |c: FuncId, _: usize, _: &[Lat], span: Span| {
            Some(Lat::Generic(Rc::new(GenericReason::StoredByCall {
                callee: source(c),
                at: span,
            })))
        };
        analyze(
            m,
            f,
            &Hooks {
                param: &param,
                call: &call,
                stored: &stored,
            },
        )
        .lat
    };
    let namer = Namer::new(m, f, vars, &source);
    accesses
        .into_iter()
        .map(|(_, p, kind, span)| {
            let reason = if passes_off {
                GenericReason::PassesOff
            } else {
                match lat.get(p.index()) {
                    Some(Lat::Generic(r)) => GenericReason::clone(r),
                    _ => GenericReason::NoObject { at: span },
                }
            };
            GenericAccess {
                span,
                kind,
                pointer: namer.name(p, 0),
                reasons: vec![reason],
            }
        })
        .collect()
}

/// Names the pointers of one function after the source.
struct Namer<'a> {
    f: &'a Function,
    m: &'a Module,
    /// The variable each value was the value of (the first one recorded).
    var_of: HashMap<Value, &'a str>,
    /// The incoming arguments of each block parameter, by value.
    incoming: HashMap<Value, Vec<Value>>,
    source: &'a dyn Fn(FuncId) -> String,
}

impl<'a> Namer<'a> {
    fn new(
        m: &'a Module,
        f: &'a Function,
        vars: &'a [VarRecord],
        source: &'a dyn Fn(FuncId) -> String,
    ) -> Namer<'a> {
        let mut var_of = HashMap::new();
        for r in vars {
            for v in &r.values {
                var_of.entry(*v).or_insert(r.name.as_str());
            }
        }
        let mut incoming: HashMap<Value, Vec<Value>> = HashMap::new();
        for bd in &f.blocks {
            if let Some(d) = bd.insts.last().and_then(|i| f.insts.get(i.index())) {
                for s in d.op.successors() {
                    for (p, a) in f.params_of(s.block).iter().zip(&s.args) {
                        incoming.entry(*p).or_default().push(*a);
                    }
                }
            }
        }
        Namer {
            f,
            m,
            var_of,
            incoming,
            source,
        }
    }

    /// The source expression pointer `v` comes from.
    fn name(&self, v: Value, depth: u32) -> SourcePath {
        if let Some(n) = self.var_of.get(&v) {
            return SourcePath::from_var(n);
        }
        if depth > MAX_NAME_DEPTH {
            return SourcePath::root("a pointer");
        }
        let f = self.f;
        let Some(vd) = f.values.get(v.index()) else {
            return SourcePath::root("a pointer");
        };
        match vd.def {
            ValueDef::Param(b, k) if b.index() == 0 => f
                .params
                .get(k as usize)
                .map_or(SourcePath::root("a parameter"), |p| {
                    SourcePath::from_var(&p.name)
                }),
            ValueDef::Param(..) => {
                let mut names: Vec<SourcePath> = Vec::new();
                for a in self.incoming.get(&v).map_or(&[][..], |x| &x[..]) {
                    if *a == v {
                        continue;
                    }
                    let n = self.name(*a, depth + 1);
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                match names.len() {
                    1 => names.swap_remove(0),
                    0 => SourcePath::root("a pointer"),
                    _ => {
                        let parts: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                        SourcePath::root(parts.join(" or "))
                    }
                }
            }
            ValueDef::Inst(i) => {
                let Some(d) = f.insts.get(i.index()) else {
                    return SourcePath::root("a pointer");
                };
                match &d.op {
                    Op::PtrAdd(b, _)
                    | Op::ToGeneric(b)
                    | Op::FromGeneric(b, _)
                    | Op::SpaceTest(b, _) => self.name(*b, depth + 1),
                    Op::Select(_, a, b) => {
                        let (na, nb) = (self.name(*a, depth + 1), self.name(*b, depth + 1));
                        if na == nb {
                            na
                        } else {
                            SourcePath::root(format!("{na} or {nb}"))
                        }
                    }
                    Op::Load(addr) => self.location(*addr, depth + 1),
                    Op::Call(c, _) => SourcePath::root(format!("{}(...)", (self.source)(*c))),
                    Op::IntToPtr(_) => SourcePath::root("an integer cast"),
                    Op::StackAlloc { name, .. } if !name.as_str().is_empty() => {
                        SourcePath::root(format!("&{}", name.as_str()))
                    }
                    Op::GlobalAddr(g) => self
                        .m
                        .globals
                        .get(g.index())
                        .map_or(SourcePath::root("a global variable"), |g| {
                            SourcePath::root(format!("&{}", g.name))
                        }),
                    Op::LocalAddr(l) => self
                        .m
                        .locals
                        .get(l.index())
                        .map_or(SourcePath::root("a local variable"), |l| {
                            SourcePath::root(format!("&{}", l.name))
                        }),
                    Op::Const(_) => SourcePath::root("NULL"),
                    Op::Undef => SourcePath::root("an uninitialized pointer"),
                    _ => SourcePath::root("a pointer"),
                }
            }
        }
    }

    /// The source expression of the memory at `addr` (where a pointer was loaded from).
    fn location(&self, addr: Value, depth: u32) -> SourcePath {
        let f = self.f;
        let mut steps = Vec::new();
        let mut p = addr;
        let mut guard = 0;
        let root = loop {
            guard += 1;
            if guard > MAX_NAME_DEPTH {
                break SourcePath::root("memory");
            }
            match def_op(f, p) {
                Some(Op::PtrAdd(b, o)) => {
                    steps.push(match const_offset(f, *o) {
                        Some(c) => Step::Offset(u32::try_from(c).unwrap_or(u32::MAX)),
                        None => Step::Index,
                    });
                    p = *b;
                }
                Some(Op::ToGeneric(b) | Op::FromGeneric(b, _)) => p = *b,
                Some(Op::StackAlloc { name, .. }) => {
                    break SourcePath::root(if name.as_str().is_empty() {
                        "a temporary".to_string()
                    } else {
                        name.as_str().to_string()
                    });
                }
                Some(Op::GlobalAddr(g)) => {
                    break SourcePath::root(
                        self.m
                            .globals
                            .get(g.index())
                            .map_or("a global variable".to_string(), |g| g.name.clone()),
                    );
                }
                Some(Op::LocalAddr(l)) => {
                    break SourcePath::root(
                        self.m
                            .locals
                            .get(l.index())
                            .map_or("a local variable".to_string(), |l| l.name.clone()),
                    );
                }
                _ => {
                    // A struct passed by value: the parameter is the object.
                    if let Some(ValueDef::Param(b, k)) = f.values.get(p.index()).map(|d| d.def)
                        && b.index() == 0
                        && let Some(par) = f.params.get(k as usize)
                        && (super::sroa::is_object_param(par)
                            || matches!(par.kind, ParamKind::Aggregate { .. }))
                    {
                        break SourcePath::root(par.name.clone());
                    }
                    let mut n = self.name(p, depth + 1);
                    n.push(Step::Deref);
                    break n;
                }
            }
        };
        let mut path = root;
        for s in steps.into_iter().rev() {
            path.push(s);
        }
        path
    }
}
