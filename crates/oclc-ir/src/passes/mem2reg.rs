//! Promotion of private `stack_alloc` slots to SSA values, with scalar replacement: a slot
//! whose address never escapes (used only by loads, stores, constant-offset `ptradd`s and a
//! whole-slot zeroing `memset`) becomes one SSA variable per field, joined by block
//! parameters at dominance frontiers. Pointers stored in such slots, struct fields included,
//! are then followed by the space inference.

use super::VarRecord;
use super::util::*;
use crate::ir::*;
use crate::lists::FlatLists;
use crate::types::{AddrSpace, Type};
use std::collections::{BTreeMap, HashMap};

/// The placed instructions using each value (by value index), with repeats.
struct Users(FlatLists<Inst>);

impl Users {
    fn new(f: &Function) -> Users {
        Users(FlatLists::from_emitter(f.values.len(), |push| {
            for &i in f.blocks.iter().flat_map(|bd| &bd.insts) {
                if let Some(d) = f.insts.get(i.index()) {
                    d.op.for_each_operand(|v| push(v.index(), i));
                }
            }
        }))
    }

    fn of(&self, v: Value) -> &[Inst] {
        self.0.of(v.index())
    }
}

/// What a promoted instruction does to its slot's fields.
#[derive(Clone, Copy)]
enum Access {
    Load(usize),
    Store(usize),
    /// Whole-slot zeroing: every field of the slot becomes zero.
    Zero(usize),
    /// The slot's address or a field address: deleted.
    Addr,
}

/// One promoted field: its offset in its slot and its type.
struct Var {
    offset: u32,
    ty: Type,
}

struct Slot {
    name: String,
    span: oclc_syntax::Span,
    size: u32,
    vars: Vec<usize>,
}

/// Promotes every non-escaping slot of `f`; returns the source variables that held generic
/// pointers, with every SSA value they took.
pub fn mem2reg(f: &mut Function) -> Vec<VarRecord> {
    remove_unreachable_blocks(f);
    super::sroa::sroa_function(f);
    // Only slot addresses (and addresses derived from them) are looked up.
    let has_slot = f.blocks.iter().any(|bd| {
        bd.insts.iter().any(|i| {
            f.insts
                .get(i.index())
                .is_some_and(|d| matches!(d.op, Op::StackAlloc { .. }))
        })
    });
    if !has_slot {
        return Vec::new();
    }
    let users = Users::new(f);
    let mut access: Vec<Option<Access>> = vec![None; f.insts.len()];
    let mut vars: Vec<Var> = Vec::new();
    let mut slots: Vec<Slot> = Vec::new();
    let mut escaped: Vec<VarRecord> = Vec::new();
    for (_, i) in placed_insts(f) {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        let (Op::StackAlloc { size, name, .. }, Some(slot)) = (&d.op, d.result) else {
            continue;
        };
        let acc = match analyze_slot(f, &users, i, slot, *size) {
            Ok(acc) => acc,
            Err(at) => {
                if !name.as_str().is_empty() && holds_generic_pointer(f, &users, slot) {
                    escaped.push(VarRecord {
                        name: name.as_str().to_string(),
                        span: d.span,
                        values: Vec::new(),
                        escaped: Some(at),
                        private: Vec::new(),
                    });
                }
                continue;
            }
        };
        {
            let si = slots.len();
            let mut fields: BTreeMap<u32, Type> = BTreeMap::new();
            for (_, a) in &acc {
                if let SlotUse::Field(off, ty) = a {
                    fields.insert(*off, *ty);
                }
            }
            let mut index: HashMap<u32, usize> = HashMap::new();
            let mut var_ids = Vec::new();
            for (off, ty) in &fields {
                index.insert(*off, vars.len());
                var_ids.push(vars.len());
                vars.push(Var {
                    offset: *off,
                    ty: *ty,
                });
            }
            for (inst, a) in acc {
                let kind = match a {
                    SlotUse::Field(off, _) => {
                        let Some(&v) = index.get(&off) else {
                            continue;
                        };
                        match f.insts.get(inst.index()).map(|d| &d.op) {
                            Some(Op::Load(_)) => Access::Load(v),
                            _ => Access::Store(v),
                        }
                    }
                    SlotUse::Zero => Access::Zero(si),
                    SlotUse::Addr => Access::Addr,
                };
                if let Some(a) = access.get_mut(inst.index()) {
                    *a = Some(kind);
                }
            }
            slots.push(Slot {
                name: name.as_str().to_string(),
                span: d.span,
                size: *size,
                vars: var_ids,
            });
        }
    }
    if slots.is_empty() {
        return escaped;
    }
    let mut records = rename(f, &access, &vars, &slots);
    records.append(&mut escaped);
    records
}

/// Whether a generic pointer is stored directly in the slot or loaded from it.
fn holds_generic_pointer(f: &Function, users: &Users, slot: Value) -> bool {
    let generic = Some(Type::Ptr(AddrSpace::Generic));
    users.of(slot).iter().any(|u| match f.insts.get(u.index()) {
        Some(d) => match &d.op {
            Op::Load(p) => *p == slot && d.result.and_then(|r| f.value_type(r)) == generic,
            Op::Store { ptr, value } => *ptr == slot && f.value_type(*value) == generic,
            _ => false,
        },
        None => false,
    })
}

enum SlotUse {
    Field(u32, Type),
    Zero,
    Addr,
}

/// The uses of a slot if it can be promoted: every derived address (by constant in-bounds
/// `ptradd`s and `to_generic`) is used only as the pointer of a load or store, or by a
/// whole-slot zero `memset`; fields do not overlap and each is accessed with one type.
fn analyze_slot(
    f: &Function,
    users: &Users,
    alloc: Inst,
    slot: Value,
    size: u32,
) -> Result<Vec<(Inst, SlotUse)>, oclc_syntax::Span> {
    let mut blame = f.insts.get(alloc.index()).map_or(f.span, |d| d.span);
    slot_uses(f, users, alloc, slot, size, &mut blame).ok_or(blame)
}

/// [`analyze_slot`]'s work; `blame` is left at the span of the use that makes the slot escape.
fn slot_uses(
    f: &Function,
    users: &Users,
    alloc: Inst,
    slot: Value,
    size: u32,
    blame: &mut oclc_syntax::Span,
) -> Option<Vec<(Inst, SlotUse)>> {
    let mut out = vec![(alloc, SlotUse::Addr)];
    let mut derived = vec![slot];
    let mut work = vec![(slot, 0u32)];
    let mut fields: BTreeMap<u32, Type> = BTreeMap::new();
    while let Some((p, off)) = work.pop() {
        for &u in users.of(p) {
            let d = f.insts.get(u.index())?;
            *blame = d.span;
            let mut count = 0;
            d.op.for_each_operand(|v| count += (v == p) as u32);
            if count != 1 {
                return None;
            }
            match &d.op {
                Op::Load(_) => {
                    let ty = f.value_type(d.result?)?;
                    out.push((u, SlotUse::Field(off, ty)));
                    add_field(&mut fields, off, ty)?;
                }
                Op::Store { ptr, value } if *ptr == p => {
                    let ty = f.value_type(*value)?;
                    out.push((u, SlotUse::Field(off, ty)));
                    add_field(&mut fields, off, ty)?;
                }
                Op::PtrAdd(base, o) if *base == p => {
                    let c = const_offset(f, *o)?;
                    let n = (off as i64).checked_add(c)?;
                    if n < 0 || n >= size as i64 {
                        return None;
                    }
                    let r = d.result?;
                    derived.push(r);
                    out.push((u, SlotUse::Addr));
                    work.push((r, n as u32));
                }
                Op::ToGeneric(_) => {
                    let r = d.result?;
                    derived.push(r);
                    out.push((u, SlotUse::Addr));
                    work.push((r, off));
                }
                Op::Memset { dst, byte, len } if *dst == p && off == 0 => {
                    if const_int(f, *byte)? & 0xff != 0 || const_int(f, *len)? != size as u64 {
                        return None;
                    }
                    out.push((u, SlotUse::Zero));
                }
                _ => return None,
            }
        }
    }
    // A slot address stored into memory escapes, even into the slot itself.
    for (u, _) in &out {
        if let Some(d) = f.insts.get(u.index())
            && let Op::Store { value, .. } = &d.op
            && derived.contains(value)
        {
            *blame = d.span;
            return None;
        }
    }
    *blame = f.insts.get(alloc.index()).map_or(f.span, |d| d.span);
    let mut end = 0u32;
    for (off, ty) in &fields {
        if *off < end {
            return None;
        }
        end = off.checked_add(ty.store_size())?;
        if end > size {
            return None;
        }
    }
    Some(out)
}

fn add_field(fields: &mut BTreeMap<u32, Type>, off: u32, ty: Type) -> Option<()> {
    match fields.get(&off) {
        Some(t) if *t != ty => None,
        _ => {
            fields.insert(off, ty);
            Some(())
        }
    }
}

/// Places block parameters and renames loads to the reaching stored values, walking the
/// dominator tree.
fn rename(
    f: &mut Function,
    access: &[Option<Access>],
    vars: &[Var],
    slots: &[Slot],
) -> Vec<VarRecord> {
    let dom = dom_info(f);
    let nb = f.blocks.len();
    // Blocks storing to each variable.
    let mut def_blocks: Vec<Vec<Block>> = vec![Vec::new(); vars.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for i in &bd.insts {
            match access.get(i.index()).copied().flatten() {
                Some(Access::Store(v)) => def_blocks[v].push(Block(b as u32)),
                Some(Access::Zero(s)) => {
                    for &v in &slots[s].vars {
                        def_blocks[v].push(Block(b as u32));
                    }
                }
                _ => {}
            }
        }
    }
    // Block parameters at the iterated dominance frontier of each variable's stores.
    let mut phis: Vec<Vec<(usize, Value)>> = vec![Vec::new(); nb];
    let mut values_of: Vec<Vec<Value>> = vec![Vec::new(); vars.len()];
    for (vi, var) in vars.iter().enumerate() {
        let mut has = vec![false; nb];
        let mut work = def_blocks[vi].clone();
        while let Some(b) = work.pop() {
            for &y in &dom.frontier[b.index()] {
                if y.index() != 0 && !has[y.index()] {
                    has[y.index()] = true;
                    let p = f.add_block_param(y, var.ty);
                    phis[y.index()].push((vi, p));
                    values_of[vi].push(p);
                    work.push(y);
                }
            }
        }
    }
    let mut map = ValueMap::for_function(f);
    let mut cur: Vec<Option<Value>> = vec![None; vars.len()];
    let mut prelude: Vec<Inst> = Vec::new();
    let mut undef: Vec<Option<Value>> = vec![None; vars.len()];
    let mut zero: HashMap<Type, Value> = HashMap::new();
    let mut removed = vec![false; f.insts.len()];
    let mut undo: Vec<(usize, Option<Value>)> = Vec::new();
    let span = f.span;
    // Explicit stack: Some(b) enters b, None leaves the block entered last.
    let mut stack: Vec<Option<Block>> = Vec::new();
    if nb > 0 {
        stack.push(Some(Block(0)));
    }
    let mut marks: Vec<usize> = Vec::new();
    while let Some(step) = stack.pop() {
        let Some(b) = step else {
            if let Some(m) = marks.pop() {
                while undo.len() > m {
                    if let Some((v, old)) = undo.pop() {
                        cur[v] = old;
                    }
                }
            }
            continue;
        };
        marks.push(undo.len());
        for &(vi, p) in &phis[b.index()] {
            undo.push((vi, cur[vi]));
            cur[vi] = Some(p);
        }
        for k in 0..f.blocks[b.index()].insts.len() {
            let i = f.blocks[b.index()].insts[k];
            let Some(a) = access.get(i.index()).copied().flatten() else {
                continue;
            };
            removed[i.index()] = true;
            match a {
                Access::Load(vi) => {
                    let v = match cur[vi] {
                        Some(v) => v,
                        None => get_undef(f, &mut undef, &mut prelude, vi, vars[vi].ty, span),
                    };
                    if let Some(r) = f.insts.get(i.index()).and_then(|d| d.result) {
                        map.insert(r, v);
                    }
                }
                Access::Store(vi) => {
                    if let Some(Op::Store { value, .. }) = f.insts.get(i.index()).map(|d| &d.op) {
                        let v = resolve(&map, *value);
                        undo.push((vi, cur[vi]));
                        cur[vi] = Some(v);
                        values_of[vi].push(v);
                    }
                }
                Access::Zero(s) => {
                    for &vi in &slots[s].vars {
                        let ty = vars[vi].ty;
                        let z = match zero.get(&ty) {
                            Some(z) => *z,
                            None => {
                                let (zi, z) = new_inst(f, zero_const(ty), Some(ty), span);
                                prelude.push(zi);
                                let z = z.unwrap_or(Value(u32::MAX));
                                zero.insert(ty, z);
                                z
                            }
                        };
                        undo.push((vi, cur[vi]));
                        cur[vi] = Some(z);
                    }
                }
                Access::Addr => {}
            }
        }
        // Arguments for the successors' new parameters.
        if let Some(t) = terminator(f, b) {
            let targets: Vec<Block> = f
                .insts
                .get(t.index())
                .map(|d| d.op.successors().map(|s| s.block).collect())
                .unwrap_or_default();
            let mut args_per: Vec<Vec<Value>> = Vec::new();
            for s in &targets {
                let mut args = Vec::new();
                for &(vi, _) in phis.get(s.index()).map_or(&[][..], |v| &v[..]) {
                    let v = match cur[vi] {
                        Some(v) => v,
                        None => get_undef(f, &mut undef, &mut prelude, vi, vars[vi].ty, span),
                    };
                    args.push(v);
                }
                args_per.push(args);
            }
            if let Some(d) = f.insts.get_mut(t.index()) {
                for (s, args) in successors_mut(&mut d.op).zip(args_per) {
                    s.args.extend(args);
                }
            }
        }
        stack.push(None);
        for &c in dom.children[b.index()].iter().rev() {
            stack.push(Some(c));
        }
    }
    for bd in f.blocks.iter_mut() {
        bd.insts
            .retain(|i| !removed.get(i.index()).copied().unwrap_or(false));
    }
    if let Some(entry) = f.blocks.first_mut() {
        let mut insts = prelude;
        insts.append(&mut entry.insts);
        entry.insts = insts;
    }
    replace_uses(f, &map);
    let mut records = Vec::new();
    for s in slots {
        if s.name.is_empty() {
            continue;
        }
        for &vi in &s.vars {
            let var = &vars[vi];
            if var.ty != Type::Ptr(AddrSpace::Generic) {
                continue;
            }
            let name = super::sroa::field_name(&s.name, var.offset, var.ty.store_size(), s.size);
            let mut values: Vec<Value> = values_of[vi].iter().map(|v| resolve(&map, *v)).collect();
            values.sort();
            values.dedup();
            records.push(VarRecord {
                name,
                span: s.span,
                values,
                escaped: None,
                private: Vec::new(),
            });
        }
    }
    records
}

fn get_undef(
    f: &mut Function,
    undef: &mut [Option<Value>],
    prelude: &mut Vec<Inst>,
    vi: usize,
    ty: Type,
    span: oclc_syntax::Span,
) -> Value {
    if let Some(v) = undef[vi] {
        return v;
    }
    let (i, v) = new_inst(f, Op::Undef, Some(ty), span);
    prelude.push(i);
    let v = v.unwrap_or(Value(u32::MAX));
    undef[vi] = Some(v);
    v
}
