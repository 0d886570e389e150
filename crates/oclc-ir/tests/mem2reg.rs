//! mem2reg: slots become block parameters, the result verifies, and slots whose address
//! escapes stay in memory.

use oclc_ir::passes::mem2reg;
use oclc_ir::*;
use oclc_syntax::{FileId, Span};

fn sp(lo: u32) -> Span {
    Span::new(FileId(0), lo, lo + 1)
}

/// `int f(int n) { int s = 0; int i = 0; while (i < n) { s += i; i++; } return s; }` with
/// `s` and `i` in slots, as a naive lowering emits it.
fn sum_with_slots() -> Function {
    let p = Param {
        name: "n".into(),
        ty: Type::I32,
        kind: ParamKind::Value,
        c_type: "int".into(),
    };
    let mut f = Function::new("f", vec![p], Some(Type::I32), sp(0));
    let mut b = Builder::new(&mut f);
    let n = b.params(Block(0))[0];
    let s = b.stack_alloc_named(4, 4, "s");
    let i = b.stack_alloc_named(4, 4, "i");
    let z = b.i32(0);
    b.store(s, z);
    b.store(i, z);
    let (head, _) = b.create_block(&[]);
    let (body, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![]);
    b.switch_to(head);
    let iv = b.load(Type::I32, i);
    let c = b.cmp(CmpOp::Slt, iv, n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let sv = b.load(Type::I32, s);
    let iv = b.load(Type::I32, i);
    let s2 = b.bin(BinOp::Add, sv, iv);
    b.store(s, s2);
    let one = b.i32(1);
    let i2 = b.bin(BinOp::Add, iv, one);
    b.store(i, i2);
    b.br(head, vec![]);
    b.switch_to(exit);
    let r = b.load(Type::I32, s);
    b.ret(Some(r));
    f
}

#[test]
fn promotes_loop_variables_to_block_parameters() {
    let mut m = Module::new();
    m.add_function(sum_with_slots());
    assert_eq!(verify_module(&m), Ok(()));
    let n = passes::mem2reg_module(&mut m);
    assert_eq!(n, 2);
    assert_eq!(verify_module(&m), Ok(()));
    insta::assert_snapshot!(print_module(&m, None));
}

#[test]
fn escaping_and_mixed_type_slots_stay() {
    let mut f = Function::new("g", vec![], Some(Type::I32), sp(0));
    {
        let mut b = Builder::new(&mut f);
        let a = b.stack_alloc_named(8, 4, "a");
        let c = b.stack_alloc_named(4, 4, "c");
        let z = b.i32(0);
        let four = b.i64(4);
        let a1 = b.ptr_add(a, four);
        b.store(a1, z);
        let f1 = b.fconst(Type::F32, 1.0);
        b.store(c, f1);
        let x = b.load(Type::I32, c);
        let y = b.load(Type::I32, a);
        let s = b.bin(BinOp::Add, x, y);
        b.ret(Some(s));
    }
    assert_eq!(mem2reg(&mut f), 0);
}

#[test]
fn load_before_store_reads_undef_and_unreachable_blocks_survive() {
    let mut f = Function::new("h", vec![], Some(Type::I32), sp(0));
    {
        let mut b = Builder::new(&mut f);
        let x = b.stack_alloc_named(4, 4, "x");
        let (dead, _) = b.create_block(&[]);
        let (join, _) = b.create_block(&[]);
        let v = b.load(Type::I32, x);
        b.br(join, vec![]);
        b.switch_to(dead);
        let one = b.i32(1);
        b.store(x, one);
        b.br(join, vec![]);
        b.switch_to(join);
        let _ = v;
        let r = b.load(Type::I32, x);
        b.ret(Some(r));
    }
    let mut m = Module::new();
    m.add_function(f);
    assert_eq!(passes::mem2reg_module(&mut m), 1);
    assert_eq!(verify_module(&m), Ok(()));
    let text = print_module(&m, None);
    assert!(text.contains("undef"), "{text}");
    assert!(!text.contains("stack_alloc"), "{text}");
}

#[test]
fn dce_removes_unused_pure_chains_but_keeps_loads() {
    let mut f = Function::new("d", vec![], None, sp(0));
    {
        let mut b = Builder::new(&mut f);
        let a = b.i32(1);
        let c = b.i32(2);
        let s = b.bin(BinOp::Add, a, c);
        let _t = b.bin(BinOp::Mul, s, s);
        let g = b.null(AddrSpace::Global);
        let _l = b.load(Type::I32, g);
        b.ret(None);
    }
    assert_eq!(passes::dce(&mut f), 4);
    let mut m = Module::new();
    m.add_function(f);
    assert_eq!(verify_module(&m), Ok(()));
    let text = print_module(&m, None);
    assert!(text.contains("load"), "{text}");
    assert!(!text.contains("add"), "{text}");
}
