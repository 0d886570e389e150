//! Global value numbering (`passes::gvn`): repeats dominated by an equal pure instruction are
//! replaced, others kept; constant `ptradd` offsets move outwards. Hand-built functions, so
//! each case states exactly what it checks; the module verifies after the pass.

mod passes_util;

use oclc_ir::passes::{dce::dce, gvn::gvn};
use oclc_ir::*;
use oclc_syntax::Span;
use passes_util::param;

fn inst(f: &mut Function, b: Block, op: Op, ty: Type) -> Value {
    f.push_inst(b, op, Some(ty), Span::DUMMY).1.expect("result")
}

/// Stores `v` through `p` so that it stays live.
fn keep(f: &mut Function, b: Block, p: Value, v: Value) {
    f.push_inst(b, Op::Store { ptr: p, value: v }, None, Span::DUMMY);
}

fn verified(f: Function) -> Function {
    let mut m = Module::default();
    m.functions.push(f);
    if let Err(e) = verify_module(&m) {
        panic!("{e:?}\n{}", print_module(&m, None));
    }
    m.functions.pop().expect("function")
}

fn placed(f: &Function) -> Vec<Op> {
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| f.insts[i.index()].op.clone()))
        .collect()
}

#[test]
fn a_dominated_repeat_is_replaced() {
    let mut f = Function::new(
        "f",
        vec![
            param("p", Type::Ptr(AddrSpace::Global)),
            param("x", Type::I32),
        ],
        None,
        Span::DUMMY,
    );
    let (p, x) = (f.params_of(Block(0))[0], f.params_of(Block(0))[1]);
    let b = f.entry();
    let c1 = inst(&mut f, b, Op::Const(Const::Int(3)), Type::I32);
    let a1 = inst(&mut f, b, Op::Bin(BinOp::Mul, x, c1), Type::I32);
    let c2 = inst(&mut f, b, Op::Const(Const::Int(3)), Type::I32);
    let a2 = inst(&mut f, b, Op::Bin(BinOp::Mul, x, c2), Type::I32);
    // Same operands, other operation: kept.
    let a3 = inst(&mut f, b, Op::Bin(BinOp::Add, x, c2), Type::I32);
    // Same operation and operand, other result type: kept.
    let w1 = inst(&mut f, b, Op::Conv(ConvOp::SToF, x), Type::F32);
    let w2 = inst(&mut f, b, Op::Conv(ConvOp::SToF, x), Type::F64);
    keep(&mut f, b, p, a1);
    keep(&mut f, b, p, a2);
    keep(&mut f, b, p, a3);
    keep(&mut f, b, p, w1);
    keep(&mut f, b, p, w2);
    f.push_inst(b, Op::Ret(None), None, Span::DUMMY);
    assert_eq!(
        gvn(&mut f),
        2,
        "the second constant 3 and the second multiply"
    );
    dce(&mut f);
    let f = verified(f);
    let ops = placed(&f);
    let muls = ops
        .iter()
        .filter(|o| matches!(o, Op::Bin(BinOp::Mul, ..)))
        .count();
    assert_eq!(muls, 1);
    assert!(ops.contains(&Op::Store { ptr: p, value: a1 }));
    assert!(!ops.contains(&Op::Store { ptr: p, value: a2 }));
    let convs = ops.iter().filter(|o| matches!(o, Op::Conv(..))).count();
    assert_eq!(convs, 2);
}

#[test]
fn float_constants_compare_by_bits_and_loads_are_never_shared() {
    let mut f = Function::new(
        "f",
        vec![param("p", Type::Ptr(AddrSpace::Global))],
        None,
        Span::DUMMY,
    );
    let p = f.params_of(Block(0))[0];
    let b = f.entry();
    let zero = inst(&mut f, b, Op::Const(Const::Float(0.0)), Type::F32);
    let neg = inst(&mut f, b, Op::Const(Const::Float(-0.0)), Type::F32);
    let l1 = inst(&mut f, b, Op::Load(p), Type::F32);
    let l2 = inst(&mut f, b, Op::Load(p), Type::F32);
    for v in [zero, neg, l1, l2] {
        keep(&mut f, b, p, v);
    }
    f.push_inst(b, Op::Ret(None), None, Span::DUMMY);
    assert_eq!(
        gvn(&mut f),
        0,
        "0.0 == -0.0 as floats, but not as constants"
    );
}

#[test]
fn repeats_in_sibling_blocks_are_kept() {
    // entry: cond_br -> then / else, each computing x * x: neither dominates the other.
    let mut f = Function::new(
        "f",
        vec![
            param("p", Type::Ptr(AddrSpace::Global)),
            param("x", Type::I32),
            param("c", Type::I1),
        ],
        None,
        Span::DUMMY,
    );
    let ps = f.params_of(Block(0)).to_vec();
    let (p, x, c) = (ps[0], ps[1], ps[2]);
    let entry = f.entry();
    let then = f.add_block();
    let els = f.add_block();
    let join = f.add_block();
    let sq0 = inst(&mut f, entry, Op::Bin(BinOp::Add, x, x), Type::I32);
    let call = |b| BlockCall {
        block: b,
        args: Vec::new(),
    };
    f.push_inst(
        entry,
        Op::CondBr(c, call(then), call(els)),
        None,
        Span::DUMMY,
    );
    let s1 = inst(&mut f, then, Op::Bin(BinOp::Mul, x, x), Type::I32);
    // Dominated by the entry's add: replaced.
    let d1 = inst(&mut f, then, Op::Bin(BinOp::Add, x, x), Type::I32);
    keep(&mut f, then, p, s1);
    keep(&mut f, then, p, d1);
    f.push_inst(then, Op::Br(call(join)), None, Span::DUMMY);
    let s2 = inst(&mut f, els, Op::Bin(BinOp::Mul, x, x), Type::I32);
    keep(&mut f, els, p, s2);
    f.push_inst(els, Op::Br(call(join)), None, Span::DUMMY);
    keep(&mut f, join, p, sq0);
    f.push_inst(join, Op::Ret(None), None, Span::DUMMY);
    assert_eq!(gvn(&mut f), 1);
    let f = verified(f);
    let ops = placed(&f);
    assert!(ops.contains(&Op::Store { ptr: p, value: s1 }));
    assert!(ops.contains(&Op::Store { ptr: p, value: s2 }));
    assert!(ops.contains(&Op::Store { ptr: p, value: sq0 }));
    assert!(!ops.contains(&Op::Store { ptr: p, value: d1 }));
}

#[test]
fn constant_offsets_move_outwards_and_the_variable_part_is_shared() {
    // (base + 64) + x and (base + 128) + x become (base + x) + 64 and (base + x) + 128.
    let mut f = Function::new(
        "f",
        vec![
            param("base", Type::Ptr(AddrSpace::Local)),
            param("x", Type::I64),
            param("out", Type::Ptr(AddrSpace::Global)),
        ],
        None,
        Span::DUMMY,
    );
    let ps = f.params_of(Block(0)).to_vec();
    let (base, x, out) = (ps[0], ps[1], ps[2]);
    let b = f.entry();
    let mut loads = Vec::new();
    for off in [64u64, 128] {
        let c = inst(&mut f, b, Op::Const(Const::Int(off)), Type::I64);
        let p1 = inst(&mut f, b, Op::PtrAdd(base, c), Type::Ptr(AddrSpace::Local));
        let p2 = inst(&mut f, b, Op::PtrAdd(p1, x), Type::Ptr(AddrSpace::Local));
        loads.push(inst(&mut f, b, Op::Load(p2), Type::F32));
    }
    for l in loads {
        keep(&mut f, b, out, l);
    }
    f.push_inst(b, Op::Ret(None), None, Span::DUMMY);
    gvn(&mut f);
    dce(&mut f);
    let f = verified(f);
    let ops = placed(&f);
    let variable: Vec<&Op> = ops
        .iter()
        .filter(|o| matches!(o, Op::PtrAdd(p, o2) if *p == base && *o2 == x))
        .collect();
    assert_eq!(variable.len(), 1, "{ops:?}");
    let adds = ops.iter().filter(|o| matches!(o, Op::PtrAdd(..))).count();
    assert_eq!(
        adds, 3,
        "base + x once, then one constant offset per load: {ops:?}"
    );
}
