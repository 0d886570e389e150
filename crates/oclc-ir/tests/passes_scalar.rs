//! mem2reg, fold and dce on hand-built IR: promoted slots become block parameters, constants
//! fold, dead loops of parameters go, and results on the cpu device never change.

mod passes_util;

use oclc_ir::passes::{dce::dce, fold::fold, mem2reg::mem2reg};
use oclc_ir::*;
use passes_util::*;

/// `int s = 0; for (int i = 0; i < n; i++) { if (i & 1) s += i; else s -= 1; } out[gid] = s;`
/// with `s` and `i` in stack slots.
fn loop_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "sum",
        vec![buf("out", AddrSpace::Global), param("n", Type::I32)],
        1,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(2));
    let s = b.stack_alloc_named(4, 4, "s");
    let i = b.stack_alloc_named(4, 4, "i");
    let zero = b.i32(0);
    b.store(s, zero);
    b.store(i, zero);
    let (head, _) = b.create_block(&[]);
    let (body, _) = b.create_block(&[]);
    let (odd, _) = b.create_block(&[]);
    let (even, _) = b.create_block(&[]);
    let (latch, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![]);
    b.switch_to(head);
    let iv = b.load(Type::I32, i);
    let c = b.cmp(CmpOp::Slt, iv, p[1]);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let iv = b.load(Type::I32, i);
    let one = b.i32(1);
    let bit = b.bin(BinOp::And, iv, one);
    let c = b.conv(ConvOp::ToBool, bit, Type::I1);
    b.cond_br(c, odd, vec![], even, vec![]);
    b.switch_to(odd);
    let sv = b.load(Type::I32, s);
    let iv = b.load(Type::I32, i);
    let x = b.bin(BinOp::Add, sv, iv);
    b.store(s, x);
    b.br(latch, vec![]);
    b.switch_to(even);
    let sv = b.load(Type::I32, s);
    let one = b.i32(1);
    let x = b.bin(BinOp::Sub, sv, one);
    b.store(s, x);
    b.br(latch, vec![]);
    b.switch_to(latch);
    let iv = b.load(Type::I32, i);
    let one = b.i32(1);
    let x = b.bin(BinOp::Add, iv, one);
    b.store(i, x);
    b.br(head, vec![]);
    b.switch_to(exit);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let four = b.i64(4);
    let off = b.bin(BinOp::Mul, gid, four);
    let op = b.ptr_add(p[0], off);
    let sv = b.load(Type::I32, s);
    b.store(op, sv);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn mem2reg_promotes_loop_variables_to_block_parameters() {
    let mut m = loop_module();
    let f = &mut m.functions[0];
    mem2reg(f);
    fold(f);
    dce(f);
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}\n{}", print_module(&m, None)));
    let f = &m.functions[0];
    let o = ops(&m, "sum");
    assert!(!o.iter().any(|x| matches!(x, Op::StackAlloc { .. })));
    // Only the store to `out` and its load-free computation remain.
    assert_eq!(
        o.iter().filter(|x| matches!(x, Op::Store { .. })).count(),
        1
    );
    assert_eq!(o.iter().filter(|x| matches!(x, Op::Load(_))).count(), 0);
    // The loop header carries `s` and `i`; the latch carries `s`.
    assert_eq!(f.blocks[1].params.len(), 2);
    assert_eq!(f.blocks[5].params.len(), 1);
}

#[test]
fn mem2reg_keeps_results() {
    let m = loop_module();
    for n in [0, 1, 5, 10] {
        let out = same_results(
            &m,
            "sum",
            &[A::Buf(vec![0; 8]), A::Bytes(bytes_i32(&[n]))],
            2,
            1,
        );
        let want: i32 = (0..n).map(|i| if i & 1 == 1 { i } else { -1 }).sum();
        assert_eq!(i32s(&out[0]), [want, want]);
    }
}

#[test]
fn uninitialized_reads_become_undef_and_escaping_slots_stay() {
    let mut m = Module::new();
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)], 1);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    let a = b.stack_alloc_named(4, 4, "a");
    let esc = b.stack_alloc_named(8, 4, "arr");
    let x = b.load(Type::I32, a);
    let one = b.i64(1);
    // A variable index makes `arr` non-promotable.
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let idx = b.bin(BinOp::And, gid, one);
    let four = b.i64(4);
    let off = b.bin(BinOp::Mul, idx, four);
    let e = b.ptr_add(esc, off);
    b.store(e, x);
    let y = b.load(Type::I32, e);
    b.store(p[0], y);
    b.ret(None);
    m.add_function(k);
    let f = &mut m.functions[0];
    let recs = mem2reg(f);
    assert!(recs.is_empty());
    dce(f);
    verify_module(&m).unwrap();
    let o = ops(&m, "k");
    assert_eq!(
        o.iter()
            .filter(|x| matches!(x, Op::StackAlloc { .. }))
            .count(),
        1
    );
    assert!(o.iter().any(|x| matches!(x, Op::Undef)));
}

#[test]
fn fold_computes_constants_and_branches() {
    let mut m = Module::new();
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)], 1);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    let a = b.i32(-7);
    let c3 = b.i32(3);
    let q = b.bin(BinOp::SDiv, a, c3); // -2
    let r = b.bin(BinOp::SRem, a, c3); // -1
    let sh = b.bin(BinOp::LShr, a, c3); // 0x1fffffff
    let m1 = b.bin(BinOp::Mul, q, r); // 2
    let w = b.conv(ConvOp::SExt, q, Type::I64); // -2 as i64
    let t = b.conv(ConvOp::Trunc, w, Type::I8); // 0xfe
    let z = b.conv(ConvOp::ZExt, t, Type::I32); // 254
    let zero = b.i32(0);
    let dz = b.bin(BinOp::SDiv, a, zero); // not folded
    let cmp = b.cmp(CmpOp::Slt, q, r); // true
    let (yes, _) = b.create_block(&[]);
    let (no, _) = b.create_block(&[]);
    b.cond_br(cmp, yes, vec![], no, vec![]);
    b.switch_to(yes);
    let s1 = b.bin(BinOp::Add, m1, z);
    let s2 = b.bin(BinOp::Add, s1, sh);
    b.store(p[0], s2);
    let o4 = b.ptr_add_const(p[0], 4);
    b.store(o4, dz);
    b.ret(None);
    b.switch_to(no);
    b.store(p[0], zero);
    b.ret(None);
    m.add_function(k);
    let f = &mut m.functions[0];
    assert!(fold(f));
    dce(f);
    verify_module(&m).unwrap();
    let f = &m.functions[0];
    assert_eq!(
        f.blocks.len(),
        1,
        "the false branch is gone, the true one merged"
    );
    let stored: Vec<Op> = f.blocks[0]
        .insts
        .iter()
        .filter_map(|i| match &f.insts[i.index()].op {
            Op::Store { value, .. } => f
                .insts
                .iter()
                .find(|d| d.result == Some(*value))
                .map(|d| d.op.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(stored[0], Op::Const(Const::Int(2 + 254 + 0x1fff_ffff)));
    assert!(matches!(stored[1], Op::Bin(BinOp::SDiv, ..)));
}

#[test]
fn dce_removes_dead_parameter_cycles() {
    let mut m = Module::new();
    let mut k = kernel("k", vec![param("n", Type::I32)], 1);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    let zero = b.i32(0);
    let (head, hp) = b.create_block(&[Type::I32, Type::I32]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![zero, zero]);
    b.switch_to(head);
    let one = b.i32(1);
    let i1 = b.bin(BinOp::Add, hp[0], one);
    let dead = b.bin(BinOp::Mul, hp[1], i1);
    let c = b.cmp(CmpOp::Slt, i1, p[0]);
    b.cond_br(c, head, vec![i1, dead], exit, vec![]);
    b.switch_to(exit);
    b.ret(None);
    m.add_function(k);
    let f = &mut m.functions[0];
    assert!(dce(f));
    verify_module(&m).unwrap();
    let f = &m.functions[0];
    assert_eq!(f.blocks[1].params.len(), 1);
    assert!(
        !ops(&m, "k")
            .iter()
            .any(|o| matches!(o, Op::Bin(BinOp::Mul, ..)))
    );
}

#[test]
fn pointer_integer_round_trips_fold() {
    let mut m = Module::new();
    let mut k = kernel("k", vec![buf("g", AddrSpace::Global)], 1);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    let i = b.conv(ConvOp::PtrToInt, p[0], Type::I64);
    let same = b.int_to_ptr(i, AddrSpace::Global);
    let gp = b.int_to_ptr(i, AddrSpace::Generic);
    let one = b.i32(1);
    b.store(same, one);
    b.store(gp, one);
    // A truncated integer is not a round trip.
    let t = b.conv(ConvOp::Trunc, i, Type::I32);
    let w = b.conv(ConvOp::ZExt, t, Type::I64);
    let other = b.int_to_ptr(w, AddrSpace::Generic);
    b.store(other, one);
    b.ret(None);
    m.add_function(k);
    let f = &mut m.functions[0];
    fold(f);
    dce(f);
    verify_module(&m).unwrap();
    let f = &m.functions[0];
    let stores: Vec<Op> = ops(&m, "k")
        .into_iter()
        .filter_map(|o| match o {
            Op::Store { ptr, .. } => f
                .insts
                .iter()
                .find(|d| d.result == Some(ptr))
                .map_or(Some(Op::Unreachable), |d| Some(d.op.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        stores[0],
        Op::Unreachable,
        "stored through the parameter itself"
    );
    assert_eq!(stores[1], Op::ToGeneric(p[0]));
    assert!(matches!(stores[2], Op::IntToPtr(_)));
}

#[test]
fn invalid_modules_are_reported_not_transformed() {
    let mut m = Module::new();
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)], 1);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.store(p[0], Value(999));
    b.ret(None);
    m.add_function(k);
    let before = print_module(&m, None);
    let r = oclc_ir::passes::run_default(&mut m, &oclc_ir::passes::PassOptions::default());
    assert_eq!(r.verify_errors[0].0, "input");
    assert_eq!(print_module(&m, None), before);
}
