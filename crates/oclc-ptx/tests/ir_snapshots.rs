//! PTX of hand-built IR modules: the operations the IR passes usually remove (generic
//! pointers, space tests) and the corners of scalarization, checked without a front end.

mod common;

use oclc_ir::*;
use oclc_ptx::{PtxOptions, emit_module};
use oclc_syntax::Span;

fn buf(name: &str, space: AddrSpace) -> Param {
    Param {
        name: name.into(),
        ty: Type::Ptr(space),
        kind: ParamKind::Buffer(space),
        c_type: String::new(),
    }
}

fn value(name: &str, ty: Type) -> Param {
    Param {
        name: name.into(),
        ty,
        kind: ParamKind::Value,
        c_type: String::new(),
    }
}

fn kernel(name: &str, params: Vec<Param>) -> Function {
    let mut f = Function::new(name, params, None, Span::default());
    f.kernel = Some(KernelInfo::default());
    f
}

fn emit(m: &Module, name: &str) -> String {
    if let Err(e) = verify_module(m) {
        panic!("{e:?}\n{}", print_module(m, None));
    }
    let p = match emit_module(m, None, &PtxOptions::default()) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/ptx-out");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("ir_{name}.ptx")), &p.text);
    p.text
}

#[test]
fn generic_conversions_keep_null() {
    let mut m = Module::new();
    let mut f = kernel(
        "generic_ops",
        vec![buf("g", AddrSpace::Global), buf("l", AddrSpace::Local)],
    );
    {
        let mut b = Builder::new(&mut f);
        let ps = b.params(Block(0));
        let (g, l) = (ps[0], ps[1]);
        let slot = b.stack_alloc_named(16, 4, "priv");
        let gg = b.to_generic(g);
        let gl = b.to_generic(l);
        let gp = b.to_generic(slot);
        let x = b.load(Type::I32, gg);
        b.store(gl, x);
        b.store(gp, x);
        let tl = b.space_test(gl, AddrSpace::Local);
        let tg = b.space_test(gg, AddrSpace::Global);
        let tp = b.space_test(gp, AddrSpace::Private);
        let back = b.from_generic(gl, AddrSpace::Local);
        b.store(back, x);
        let fence = b.get_fence(gg);
        b.store(g, fence);
        let old = b.atomic_rmw(RmwOp::Add, gg, x, Order::Relaxed, Scope::Device);
        b.store(tg, old);
        let y = b.load(Type::I32, tl);
        let z = b.load(Type::I32, tp);
        let s = b.bin(BinOp::Add, y, z);
        b.store(g, s);
        let nl = b.null(AddrSpace::Local);
        let ng = b.to_generic(nl);
        let np = b.from_generic(ng, AddrSpace::Private);
        let i = b.inst(Op::Conv(ConvOp::PtrToInt, np), Type::I64);
        b.store(g, i);
        b.ret(None);
    }
    m.add_function(f);
    let t = emit(&m, "generic");
    assert!(t.contains("cvta.shared.u64"), "{t}");
    assert!(t.contains("cvta.local.u64"), "{t}");
    assert!(t.contains("cvta.to.shared.u64"), "{t}");
    assert!(t.contains("isspacep.shared"), "{t}");
    assert!(t.contains("isspacep.local"), "{t}");
    assert!(t.contains("atom.relaxed.gpu.add.u32"), "{t}");
    assert!(t.contains("ld.u32"), "{t}");
    // Each shared/local conversion is guarded so NULL stays 0.
    assert_eq!(t.matches("selp.b64").count(), 8, "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn narrow_integers_are_normalized_where_read() {
    let mut m = Module::new();
    let mut f = kernel(
        "narrow",
        vec![
            buf("o", AddrSpace::Global),
            value("a", Type::I8),
            value("b", Type::I16),
        ],
    );
    {
        let mut b = Builder::new(&mut f);
        let ps = b.params(Block(0));
        let (o, a, c) = (ps[0], ps[1], ps[2]);
        let a2 = b.bin(BinOp::Mul, a, a);
        let q = b.bin(BinOp::SDiv, a2, a);
        let sh = b.bin(BinOp::AShr, q, a);
        let lt = b.cmp(CmpOp::Ult, a, sh);
        let w = b.conv(ConvOp::SExt, c, Type::I32);
        let z = b.conv(ConvOp::ZExt, lt, Type::I32);
        let s = b.bin(BinOp::Add, w, z);
        b.store(o, s);
        let f16 = b.conv(ConvOp::SToF, a, Type::F16);
        let h = b.bin(BinOp::FMul, f16, f16);
        let o2 = b.ptr_add_const(o, 4);
        b.store(o2, h);
        b.ret(None);
    }
    m.add_function(f);
    let t = emit(&m, "narrow");
    assert!(t.contains("bfe.s32"), "{t}");
    assert!(t.contains("and.b32"), "{t}");
    assert!(t.contains("ld.param.u8"), "{t}");
    assert!(t.contains("cvt.rn.f16.f32"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn loops_with_swapped_block_arguments() {
    let mut m = Module::new();
    let mut f = kernel(
        "swap",
        vec![buf("o", AddrSpace::Global), value("n", Type::I32)],
    );
    {
        let mut b = Builder::new(&mut f);
        let ps = b.params(Block(0));
        let (o, n) = (ps[0], ps[1]);
        let (head, hp) = b.create_block(&[Type::I32, Type::I32, Type::I32]);
        let (exit, _) = b.create_block(&[]);
        let zero = b.i32(0);
        let one = b.i32(1);
        b.br(head, vec![zero, one, zero]);
        b.switch_to(head);
        let (x, y, i) = (hp[0], hp[1], hp[2]);
        let i1 = b.bin(BinOp::Add, i, one);
        let c = b.cmp(CmpOp::Slt, i1, n);
        // (x, y) = (y, x): a parallel copy.
        b.cond_br(c, head, vec![y, x, i1], exit, vec![]);
        b.switch_to(exit);
        b.store(o, x);
        b.ret(None);
    }
    m.add_function(f);
    let t = emit(&m, "swap");
    assert!(t.contains("@%p"), "{t}");
    // Through temporaries: the copy reads x and y before writing either.
    assert!(t.contains("mov.b32 %tr"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn bitcasts_between_lane_shapes() {
    let mut m = Module::new();
    let mut f = kernel(
        "casts",
        vec![
            buf("o", AddrSpace::Global),
            value("v", Type::Vector(Scalar::I8, 8)),
        ],
    );
    {
        let mut b = Builder::new(&mut f);
        let ps = b.params(Block(0));
        let (o, v) = (ps[0], ps[1]);
        let l = b.bitcast(v, Type::I64);
        let f2 = b.bitcast(v, Type::Vector(Scalar::F32, 2));
        let back = b.bitcast(l, Type::Vector(Scalar::I16, 4));
        b.store(o, l);
        let o8 = b.ptr_add_const(o, 8);
        b.store(o8, f2);
        let o16 = b.ptr_add_const(o, 16);
        b.store(o16, back);
        b.ret(None);
    }
    m.add_function(f);
    let t = emit(&m, "casts");
    assert!(t.contains("bfi.b32"), "{t}");
    assert!(t.contains("mov.b64 %trd"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn work_group_collectives_use_shared_scratch() {
    let m = common::collectives_module();
    let t = emit(&m, "collectives");
    assert!(t.contains("st.shared.u32"), "{t}");
    assert!(t.contains("ld.shared.u32"), "{t}");
    assert!(t.contains("max.s32"), "{t}");
    let p = emit_module(&m, None, &PtxOptions::default()).expect("emit");
    assert_eq!(p.kernels[0].shared_static, 16 + 8192);
    insta::assert_snapshot!(t);
}

#[test]
fn unsupported_operations_are_typed_errors() {
    let mut m = Module::new();
    let mut f = kernel("pf", vec![buf("o", AddrSpace::Global)]);
    {
        let mut b = Builder::new(&mut f);
        let o = b.params(Block(0))[0];
        let fmt = b.null(AddrSpace::Constant);
        let r = b.printf(fmt, vec![]);
        b.store(o, r);
        b.ret(None);
    }
    m.add_function(f);
    match emit_module(&m, None, &PtxOptions::default()) {
        Err(oclc_ptx::PtxError::Unsupported { what, location, .. }) => {
            assert!(what.contains("printf"), "{what}");
            assert!(location.contains("pf"), "{location}");
        }
        other => panic!("expected an unsupported error, got {other:?}"),
    }
}
