//! Promotes private slots that are only loaded and stored whole (no address escapes, one
//! value type) to SSA values: block parameters at the iterated dominance frontier of the
//! stores, renamed along the dominator tree (Cytron et al.).

use crate::ir::*;
use crate::types::Type;
use crate::verify::dominators;

/// Runs [`mem2reg`] on every function; returns how many slots were promoted.
pub fn mem2reg_module(m: &mut Module) -> usize {
    m.functions.iter_mut().map(mem2reg).sum()
}

/// Promotes the function's promotable `stack_alloc` slots; returns how many.
pub fn mem2reg(f: &mut Function) -> usize {
    let nblocks = f.blocks.len();
    // Where each instruction sits, for reachability.
    let mut inst_block = vec![None; f.insts.len()];
    for (bi, bd) in f.blocks.iter().enumerate() {
        for i in &bd.insts {
            if let Some(s) = inst_block.get_mut(i.index()) {
                *s = Some(bi);
            }
        }
    }
    // Candidate slots: var index per stack_alloc result value.
    let mut var_of_value: Vec<Option<usize>> = vec![None; f.values.len()];
    let mut vars: Vec<(Inst, Option<Type>)> = Vec::new();
    for (ii, d) in f.insts.iter().enumerate() {
        if let (Op::StackAlloc { .. }, Some(r)) = (&d.op, d.result)
            && inst_block.get(ii).copied().flatten().is_some()
        {
            var_of_value[r.index()] = Some(vars.len());
            vars.push((Inst(ii as u32), None));
        }
    }
    if vars.is_empty() {
        return 0;
    }
    let mut ok = vec![true; vars.len()];
    for (ii, d) in f.insts.iter().enumerate() {
        if inst_block.get(ii).copied().flatten().is_none() {
            continue;
        }
        let mut access: Option<(Value, Type)> = None;
        match &d.op {
            Op::Load(p) => {
                if let Some(t) = d.result.and_then(|r| f.value_type(r)) {
                    access = Some((*p, t));
                }
            }
            Op::Store { ptr, value } => {
                if let Some(t) = f.value_type(*value) {
                    access = Some((*ptr, t));
                }
                if let Some(Some(v)) = var_of_value.get(value.index()) {
                    ok[*v] = false;
                }
            }
            op => op.for_each_operand(|x| {
                if let Some(Some(v)) = var_of_value.get(x.index()) {
                    ok[*v] = false;
                }
            }),
        }
        if let Some((p, t)) = access
            && let Some(Some(v)) = var_of_value.get(p.index())
        {
            match vars[*v].1 {
                None => vars[*v].1 = Some(t),
                Some(prev) if prev != t => ok[*v] = false,
                _ => {}
            }
        }
    }
    // Slots never accessed are dropped too (their type is irrelevant).
    let promoted: Vec<usize> = (0..vars.len()).filter(|&v| ok[v]).collect();
    if promoted.is_empty() {
        return 0;
    }
    let mut slot_of_var = vec![None; vars.len()];
    for (k, &v) in promoted.iter().enumerate() {
        slot_of_var[v] = Some(k);
    }
    let var_slot = |val: Value| {
        var_of_value
            .get(val.index())
            .copied()
            .flatten()
            .and_then(|v| slot_of_var[v])
    };

    let (rpo, idom) = dominators(f);
    let reachable: Vec<bool> = {
        let mut r = vec![false; nblocks];
        for b in &rpo {
            r[b.index()] = true;
        }
        r
    };
    // Predecessors and dominance frontiers.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nblocks];
    for b in &rpo {
        if let Some(d) = f.blocks[b.index()]
            .insts
            .last()
            .and_then(|i| f.insts.get(i.index()))
        {
            for s in d.op.successors() {
                if s.block.index() < nblocks {
                    preds[s.block.index()].push(b.index());
                }
            }
        }
    }
    let idom_of = |b: usize| idom.get(b).copied().flatten().map(|x| x.index());
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); nblocks];
    for b in 0..nblocks {
        if !reachable[b] || preds[b].len() < 2 {
            continue;
        }
        let Some(ib) = idom_of(b) else { continue };
        for &p in &preds[b] {
            let mut runner = p;
            let mut guard = 0;
            while runner != ib && guard <= nblocks {
                if !df[runner].contains(&b) {
                    df[runner].push(b);
                }
                match idom_of(runner) {
                    Some(n) if n != runner => runner = n,
                    _ => break,
                }
                guard += 1;
            }
        }
    }
    // Place block parameters.
    let nvars = promoted.len();
    let mut def_blocks: Vec<Vec<usize>> = vec![Vec::new(); nvars];
    for (bi, bd) in f.blocks.iter().enumerate() {
        if !reachable[bi] {
            continue;
        }
        for i in &bd.insts {
            if let Some(Op::Store { ptr, .. }) = f.insts.get(i.index()).map(|d| &d.op)
                && let Some(k) = var_slot(*ptr)
                && !def_blocks[k].contains(&bi)
            {
                def_blocks[k].push(bi);
            }
        }
    }
    // params_at[block] = list of (var slot, param value)
    let mut params_at: Vec<Vec<(usize, Value)>> = vec![Vec::new(); nblocks];
    for k in 0..nvars {
        let Some(t) = vars[promoted[k]].1 else {
            continue;
        };
        let mut has = vec![false; nblocks];
        let mut work = def_blocks[k].clone();
        while let Some(b) = work.pop() {
            for &y in &df[b] {
                if !has[y] && y != 0 {
                    has[y] = true;
                    let p = f.add_block_param(Block(y as u32), t);
                    params_at[y].push((k, p));
                    if !def_blocks[k].contains(&y) {
                        work.push(y);
                    }
                }
            }
        }
    }
    // Undef values, made on demand at the start of the entry block.
    let mut undef: Vec<Option<Value>> = vec![None; nvars];
    let entry_span = f.span;
    let mut get_undef = |f: &mut Function, k: usize| -> Value {
        if let Some(u) = undef[k] {
            return u;
        }
        let t = vars[promoted[k]].1.unwrap_or(Type::I32);
        let (inst, v) = f.push_inst(Block(0), Op::Undef, Some(t), entry_span);
        if let Some(bd) = f.blocks.get_mut(0) {
            bd.insts.pop();
            bd.insts.insert(0, inst);
        }
        let v = v.unwrap_or(Value(0));
        undef[k] = Some(v);
        v
    };
    // Rename along the dominator tree.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nblocks];
    for &b in rpo.iter().skip(1) {
        if let Some(p) = idom_of(b.index()) {
            children[p].push(b.index());
        }
    }
    let mut repl: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut dead: Vec<bool> = vec![false; f.insts.len()];
    for &v in &promoted {
        dead[vars[v].0.index()] = true;
    }
    let mut stacks: Vec<Vec<Value>> = vec![Vec::new(); nvars];
    enum Step {
        Enter(usize),
        Exit(Vec<usize>),
    }
    let mut work = vec![Step::Enter(0)];
    while let Some(step) = work.pop() {
        let b = match step {
            Step::Exit(pushed) => {
                for k in pushed {
                    stacks[k].pop();
                }
                continue;
            }
            Step::Enter(b) => b,
        };
        let mut pushed = Vec::new();
        for &(k, p) in &params_at[b] {
            stacks[k].push(p);
            pushed.push(k);
        }
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            match d.op.clone() {
                Op::Load(p) => {
                    if let (Some(k), Some(r)) = (var_slot(p), d.result) {
                        let cur = match stacks[k].last() {
                            Some(c) => *c,
                            None => get_undef(f, k),
                        };
                        if let Some(slot) = repl.get_mut(r.index()) {
                            *slot = Some(cur);
                        }
                        dead[i.index()] = true;
                    }
                }
                Op::Store { ptr, value } => {
                    if let Some(k) = var_slot(ptr) {
                        stacks[k].push(value);
                        pushed.push(k);
                        dead[i.index()] = true;
                    }
                }
                op if op.is_terminator() => {
                    let succs: Vec<Block> = op.successors().iter().map(|s| s.block).collect();
                    let mut extra: Vec<Vec<Value>> = Vec::new();
                    for s in &succs {
                        let mut args = Vec::new();
                        for &(k, _) in params_at.get(s.index()).map_or(&[][..], |v| v) {
                            let cur = match stacks[k].last() {
                                Some(c) => *c,
                                None => get_undef(f, k),
                            };
                            args.push(cur);
                        }
                        extra.push(args);
                    }
                    if let Some(d) = f.insts.get_mut(i.index()) {
                        let mut targets: Vec<&mut BlockCall> = match &mut d.op {
                            Op::Br(t) => vec![t],
                            Op::CondBr(_, t, e) => vec![t, e],
                            Op::Switch(_, cases, dflt) => {
                                cases.iter_mut().map(|(_, c)| c).chain([dflt]).collect()
                            }
                            _ => Vec::new(),
                        };
                        for (t, args) in targets.iter_mut().zip(extra) {
                            t.args.extend(args);
                        }
                    }
                }
                _ => {}
            }
        }
        work.push(Step::Exit(pushed));
        for &c in children[b].iter().rev() {
            work.push(Step::Enter(c));
        }
    }
    // Unreachable blocks: promoted loads read undef, stores vanish, branches pass undef.
    for b in (0..nblocks).filter(|&b| !reachable[b]) {
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            let Some(d) = f.insts.get(i.index()) else {
                continue;
            };
            match d.op.clone() {
                Op::Load(p) => {
                    if let (Some(k), Some(r)) = (var_slot(p), d.result) {
                        let u = get_undef(f, k);
                        if let Some(slot) = repl.get_mut(r.index()) {
                            *slot = Some(u);
                        }
                        dead[i.index()] = true;
                    }
                }
                Op::Store { ptr, .. } if var_slot(ptr).is_some() => {
                    dead[i.index()] = true;
                }
                op if op.is_terminator() => {
                    let succs: Vec<Block> = op.successors().iter().map(|s| s.block).collect();
                    let extra: Vec<Vec<Value>> = succs
                        .iter()
                        .map(|s| {
                            let ks: Vec<usize> = params_at
                                .get(s.index())
                                .map_or(Vec::new(), |v| v.iter().map(|(k, _)| *k).collect());
                            ks.into_iter().map(|k| get_undef(f, k)).collect()
                        })
                        .collect();
                    if let Some(d) = f.insts.get_mut(i.index()) {
                        let mut targets: Vec<&mut BlockCall> = match &mut d.op {
                            Op::Br(t) => vec![t],
                            Op::CondBr(_, t, e) => vec![t, e],
                            Op::Switch(_, cases, dflt) => {
                                cases.iter_mut().map(|(_, c)| c).chain([dflt]).collect()
                            }
                            _ => Vec::new(),
                        };
                        for (t, args) in targets.iter_mut().zip(extra) {
                            t.args.extend(args);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Apply replacements (following chains) and drop dead instructions.
    repl.resize(f.values.len(), None);
    let resolve = |mut v: Value| {
        let mut guard = 0;
        while let Some(Some(n)) = repl.get(v.index()) {
            if *n == v || guard > repl.len() {
                break;
            }
            v = *n;
            guard += 1;
        }
        v
    };
    for d in f.insts.iter_mut() {
        map_operands(&mut d.op, &resolve);
    }
    for bd in f.blocks.iter_mut() {
        bd.insts
            .retain(|i| !dead.get(i.index()).copied().unwrap_or(false));
    }
    promoted.len()
}

/// Rewrites every value operand of `op` through `f`.
pub fn map_operands(op: &mut Op, f: &impl Fn(Value) -> Value) {
    let m = |v: &mut Value| *v = f(*v);
    match op {
        Op::Const(_)
        | Op::Undef
        | Op::StackAlloc { .. }
        | Op::GlobalAddr(_)
        | Op::LocalAddr(_)
        | Op::Unreachable => {}
        Op::Bin(_, a, b)
        | Op::Cmp(_, a, b)
        | Op::PtrAdd(a, b)
        | Op::PtrDiff(a, b)
        | Op::ExtractDyn(a, b)
        | Op::Insert(a, b, _) => {
            m(a);
            m(b)
        }
        Op::InsertDyn(a, b, c) | Op::Select(a, b, c) => {
            m(a);
            m(b);
            m(c)
        }
        Op::Un(_, a)
        | Op::Conv(_, a)
        | Op::Bitcast(a)
        | Op::IntToPtr(a)
        | Op::Splat(a)
        | Op::Extract(a, _)
        | Op::Shuffle(a, _)
        | Op::Load(a)
        | Op::ToGeneric(a)
        | Op::FromGeneric(a, _)
        | Op::SpaceTest(a, _)
        | Op::GetFence(a) => m(a),
        Op::Build(vs) | Op::Call(_, vs) | Op::CallBuiltin(_, vs) => vs.iter_mut().for_each(m),
        Op::Store { ptr, value } => {
            m(ptr);
            m(value)
        }
        Op::Memcpy { dst, src, len } => {
            m(dst);
            m(src);
            m(len)
        }
        Op::Memset { dst, byte, len } => {
            m(dst);
            m(byte);
            m(len)
        }
        Op::AtomicRmw { ptr, value, .. } | Op::AtomicStore { ptr, value, .. } => {
            m(ptr);
            m(value)
        }
        Op::AtomicCmpXchg {
            ptr,
            expected,
            desired,
            ..
        } => {
            m(ptr);
            m(expected);
            m(desired)
        }
        Op::AtomicLoad { ptr, .. } => m(ptr),
        Op::Barrier { flags, .. } | Op::Fence { flags, .. } => m(flags),
        Op::WorkGroup { value, ids, .. } => {
            m(value);
            ids.iter_mut().for_each(m)
        }
        Op::WorkItem(_, d) => {
            if let Some(d) = d {
                m(d)
            }
        }
        Op::Printf(fmt, args) => {
            m(fmt);
            args.iter_mut().for_each(m)
        }
        Op::Ret(v) => {
            if let Some(v) = v {
                m(v)
            }
        }
        Op::Br(t) => t.args.iter_mut().for_each(m),
        Op::CondBr(c, t, e) => {
            m(c);
            t.args.iter_mut().chain(e.args.iter_mut()).for_each(m)
        }
        Op::Switch(x, cases, d) => {
            m(x);
            cases
                .iter_mut()
                .flat_map(|(_, c)| c.args.iter_mut())
                .chain(d.args.iter_mut())
                .for_each(m)
        }
    }
}
