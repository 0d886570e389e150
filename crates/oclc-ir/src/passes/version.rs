//! Space versioning: a memory access through a generic pointer that can only point into a
//! known set of named spaces (it merges, say, a `__global` and a `__local` pointer and comes
//! from nothing the analysis cannot see) is split into one access per space, chosen by
//! `space_test` at run time, so no generic access is left. The last space of the set takes
//! the pointer through `from_generic`, which cannot fail there.

use super::util::*;
use crate::ir::*;
use crate::types::{AddrSpace, Type};
use std::collections::HashMap;

/// Possible spaces of a generic value: bit 0 private, 1 global, 2 local, 3 unknown source.
type Set = u8;
const UNKNOWN: Set = 8;
const NAMED: [AddrSpace; 3] = [AddrSpace::Private, AddrSpace::Global, AddrSpace::Local];

fn bit(s: AddrSpace) -> Set {
    match s {
        AddrSpace::Private => 1,
        AddrSpace::Global => 2,
        AddrSpace::Local => 4,
        _ => UNKNOWN,
    }
}

/// Most accesses split in one function (each adds a few blocks).
const MAX_SPLITS: usize = 512;

/// The set of spaces each generic value may point into.
fn space_sets(f: &Function) -> Vec<Set> {
    let generic = Some(Type::Ptr(AddrSpace::Generic));
    let mut set = vec![0 as Set; f.values.len()];
    for p in f.params_of(Block(0)) {
        if f.value_type(*p) == generic {
            set[p.index()] = UNKNOWN;
        }
    }
    let mut incoming: Vec<Vec<Vec<Value>>> = f
        .blocks
        .iter()
        .map(|bd| vec![Vec::new(); bd.params.len()])
        .collect();
    for bd in &f.blocks {
        if let Some(d) = bd.insts.last().and_then(|i| f.insts.get(i.index())) {
            for s in d.op.successors() {
                if let Some(ps) = incoming.get_mut(s.block.index()) {
                    for (k, a) in s.args.iter().enumerate() {
                        if let Some(l) = ps.get_mut(k) {
                            l.push(*a);
                        }
                    }
                }
            }
        }
    }
    let rpo = reverse_postorder(f);
    let get = |set: &[Set], v: Value| set.get(v.index()).copied().unwrap_or(UNKNOWN);
    let mut changed = true;
    // Every update only raises a value (or lowers a non-NULL fact), so this terminates, and
    // it must run to the fixpoint: a partial result would be unsound.
    while changed {
        changed = false;
        for &b in &rpo {
            let Some(bd) = f.blocks.get(b.index()) else {
                continue;
            };
            if b.index() != 0 {
                for (k, p) in bd.params.iter().enumerate() {
                    if f.value_type(*p) != generic {
                        continue;
                    }
                    let mut s = get(&set, *p);
                    for a in &incoming[b.index()][k] {
                        s |= get(&set, *a);
                    }
                    if s != set[p.index()] {
                        set[p.index()] = s;
                        changed = true;
                    }
                }
            }
            for i in &bd.insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let Some(r) = d.result else { continue };
                if f.value_type(r) != generic {
                    continue;
                }
                let s = match &d.op {
                    Op::Const(_) | Op::Undef => 0,
                    Op::ToGeneric(p) => match f.value_type(*p) {
                        Some(Type::Ptr(s)) => bit(s),
                        _ => UNKNOWN,
                    },
                    Op::PtrAdd(p, _) => get(&set, *p),
                    Op::Select(_, a, b) => get(&set, *a) | get(&set, *b),
                    _ => UNKNOWN,
                };
                let s = s | set[r.index()];
                if s != set[r.index()] {
                    set[r.index()] = s;
                    changed = true;
                }
            }
        }
    }
    set
}

/// The operand index of the generic pointer an access goes through, if `op` is an access
/// that can be versioned.
fn access_pointer(m: &Module, f: &Function, op: &Op) -> Vec<usize> {
    let generic = Some(Type::Ptr(AddrSpace::Generic));
    let g = |v: &Value| f.value_type(*v) == generic;
    match op {
        Op::Load(p)
        | Op::Store { ptr: p, .. }
        | Op::AtomicRmw { ptr: p, .. }
        | Op::AtomicCmpXchg { ptr: p, .. }
        | Op::AtomicLoad { ptr: p, .. }
        | Op::AtomicStore { ptr: p, .. }
        | Op::Memset { dst: p, .. } => {
            if g(p) {
                vec![0]
            } else {
                vec![]
            }
        }
        Op::Memcpy { dst, src, .. } => {
            let mut v = Vec::new();
            if g(dst) {
                v.push(0);
            }
            if g(src) {
                v.push(1);
            }
            v
        }
        Op::CallBuiltin(b, args) => {
            let Some(d) = m.builtins.get(b.index()) else {
                return vec![];
            };
            args.iter()
                .enumerate()
                .filter(|(k, a)| g(a) && d.pointee.get(*k).is_some_and(Option::is_some))
                .map(|(k, _)| k)
                .collect()
        }
        _ => vec![],
    }
}

/// Splits every versionable generic access of `f`; returns how many were split.
pub fn version(m: &mut Module, f: &mut Function) -> usize {
    let sets = space_sets(f);
    let mut splits = 0;
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut bi = 0;
    while bi < f.blocks.len() && splits < MAX_SPLITS {
        let mut pos = 0;
        let mut split_here = None;
        while pos < f.blocks[bi].insts.len() {
            let i = f.blocks[bi].insts[pos];
            if let Some(d) = f.insts.get(i.index()) {
                for k in access_pointer(m, f, &d.op) {
                    let p = resolve(&map, d.op.operands()[k]);
                    let s = sets.get(p.index()).copied().unwrap_or(UNKNOWN);
                    if s & UNKNOWN == 0 && s.count_ones() >= 2 {
                        split_here = Some((pos, k, p, s));
                        break;
                    }
                }
            }
            if split_here.is_some() {
                break;
            }
            pos += 1;
        }
        match split_here {
            Some((pos, k, p, s)) => {
                split(m, f, Block(bi as u32), pos, k, p, s, &mut map);
                splits += 1;
                // The rest of the block moved to a new block, visited in its turn.
            }
            None => bi += 1,
        }
    }
    replace_uses(f, &map);
    splits
}

/// Replaces the access at `pos` of `b` by one copy per space of `set`, each in its own block
/// after a chain of `space_test`s, joined in a new block that takes over the rest of `b`.
#[allow(clippy::too_many_arguments)]
fn split(
    m: &mut Module,
    f: &mut Function,
    b: Block,
    pos: usize,
    k: usize,
    p: Value,
    set: Set,
    map: &mut HashMap<Value, Value>,
) {
    let i = f.blocks[b.index()].insts[pos];
    let Some(d) = f.insts.get(i.index()).cloned() else {
        return;
    };
    let span = d.span;
    let rty = d.result.and_then(|r| f.value_type(r));
    // The join block takes the rest of `b` and the access's result as a parameter.
    let rest: Vec<Inst> = f.blocks[b.index()].insts.split_off(pos + 1);
    f.blocks[b.index()].insts.pop();
    let join = f.add_block();
    f.blocks[join.index()].insts = rest;
    let joined = rty.map(|t| f.add_block_param(join, t));
    if let (Some(r), Some(j)) = (d.result, joined) {
        map.insert(r, j);
    }
    let spaces: Vec<AddrSpace> = NAMED
        .iter()
        .copied()
        .filter(|s| set & bit(*s) != 0)
        .collect();
    let mut cur = b;
    for (n, s) in spaces.iter().enumerate() {
        let last = n + 1 == spaces.len();
        let named = if last {
            push(f, cur, Op::FromGeneric(p, *s), Some(Type::Ptr(*s)), span)
        } else {
            push(f, cur, Op::SpaceTest(p, *s), Some(Type::Ptr(*s)), span)
        };
        let access_block = if last {
            cur
        } else {
            let null = push(f, cur, Op::Const(Const::Null), Some(Type::Ptr(*s)), span);
            let c = push(
                f,
                cur,
                Op::Cmp(CmpOp::Ne, named, null),
                Some(Type::I1),
                span,
            );
            let yes = f.add_block();
            let no = f.add_block();
            push(
                f,
                cur,
                Op::CondBr(
                    c,
                    BlockCall {
                        block: yes,
                        args: vec![],
                    },
                    BlockCall {
                        block: no,
                        args: vec![],
                    },
                ),
                None,
                span,
            );
            cur = no;
            yes
        };
        let mut op = d.op.clone();
        let mut idx = 0;
        for_each_operand_mut(&mut op, |v| {
            if idx == k {
                *v = named;
            }
            idx += 1;
        });
        if let Op::CallBuiltin(bid, args) = &op
            && let Some(decl) = m.builtins.get(bid.index())
        {
            let mut nd = decl.clone();
            if let Some(t) = nd.params.get_mut(k) {
                *t = Type::Ptr(*s);
            }
            let nid = m.builtin(nd);
            op = Op::CallBuiltin(nid, args.clone());
        }
        let r = push(f, access_block, op, rty, span);
        let args = if rty.is_some() { vec![r] } else { vec![] };
        push(
            f,
            access_block,
            Op::Br(BlockCall { block: join, args }),
            None,
            span,
        );
    }
}

fn push(f: &mut Function, b: Block, op: Op, ty: Option<Type>, span: oclc_syntax::Span) -> Value {
    f.push_inst(b, op, ty, span).1.unwrap_or(Value(u32::MAX))
}
