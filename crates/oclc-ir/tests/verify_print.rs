//! Verifier rejections and the text form of the IR.

use oclc_ir::*;
use oclc_syntax::{FileId, SourceMap, Span};

fn sp(lo: u32) -> Span {
    Span::new(FileId(0), lo, lo + 1)
}

fn param(name: &str, ty: Type) -> Param {
    Param {
        name: name.into(),
        ty,
        kind: ParamKind::Value,
        c_type: String::new(),
    }
}

fn messages(m: &Module) -> Vec<String> {
    match verify_module(m) {
        Ok(()) => Vec::new(),
        Err(es) => es.into_iter().map(|e| e.message).collect(),
    }
}

fn with_fn(f: Function) -> Module {
    let mut m = Module::new();
    m.add_function(f);
    m
}

#[test]
fn accepts_a_loop_with_block_arguments() {
    let mut f = Function::new("sum", vec![param("n", Type::I32)], Some(Type::I32), sp(0));
    let mut b = Builder::new(&mut f);
    let n = b.params(Block(0))[0];
    let zero = b.i32(0);
    let (head, hp) = b.create_block(&[Type::I32, Type::I32]);
    let (body, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![zero, zero]);
    b.switch_to(head);
    let c = b.cmp(CmpOp::Slt, hp[0], n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let one = b.i32(1);
    let i1 = b.bin(BinOp::Add, hp[0], one);
    let s1 = b.bin(BinOp::Add, hp[1], hp[0]);
    b.br(head, vec![i1, s1]);
    b.switch_to(exit);
    b.ret(Some(hp[1]));
    assert_eq!(messages(&with_fn(f)), Vec::<String>::new());
}

#[test]
fn rejects_use_not_dominated_by_definition() {
    let mut f = Function::new("f", vec![param("c", Type::I1)], Some(Type::I32), sp(0));
    let mut b = Builder::new(&mut f);
    let c = b.params(Block(0))[0];
    let (t, _) = b.create_block(&[]);
    let (e, _) = b.create_block(&[]);
    b.cond_br(c, t, vec![], e, vec![]);
    b.switch_to(t);
    let x = b.i32(1);
    b.ret(Some(x));
    b.switch_to(e);
    b.ret(Some(x));
    let msgs = messages(&with_fn(f));
    assert_eq!(
        msgs,
        vec![format!("use of {x} is not dominated by its definition")]
    );
}

#[test]
fn rejects_wrong_block_argument_count_and_type() {
    let mut f = Function::new("f", vec![], None, sp(0));
    let mut b = Builder::new(&mut f);
    let (t, _) = b.create_block(&[Type::I32]);
    let x = b.i64(1);
    b.br(t, vec![x]);
    b.switch_to(t);
    let (u, _) = b.create_block(&[Type::I32]);
    b.br(u, vec![]);
    b.switch_to(u);
    b.ret(None);
    let msgs = messages(&with_fn(f));
    assert_eq!(
        msgs,
        vec![
            "argument type differs from a parameter of block1".to_string(),
            "block2 takes 1 arguments, 0 given".to_string()
        ]
    );
}

#[test]
fn rejects_missing_terminator_and_type_errors() {
    let mut f = Function::new(
        "f",
        vec![param("p", Type::Ptr(AddrSpace::Constant))],
        None,
        sp(0),
    );
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0))[0];
    let x = b.i32(1);
    let y = b.fconst(Type::F32, 1.0);
    b.inst(Op::Bin(BinOp::Add, x, y), Type::I32);
    b.store(p, x);
    b.inst(Op::ToGeneric(p), Type::Ptr(AddrSpace::Generic));
    let msgs = messages(&with_fn(f));
    assert_eq!(
        msgs,
        vec![
            "block0 does not end in a terminator".to_string(),
            "binary operands and result must have one type".to_string(),
            "store to a __constant pointer".to_string(),
            "to_generic needs a private, global or local pointer".to_string(),
        ]
    );
}

#[test]
fn rejects_recursion_and_bad_calls() {
    let mut m = Module::new();
    let mut f = Function::new("f", vec![param("x", Type::I32)], None, sp(0));
    {
        let mut b = Builder::new(&mut f);
        let x = b.params(Block(0))[0];
        let y = b.i64(0);
        b.call(FuncId(0), vec![x], None);
        b.call(FuncId(0), vec![y], None);
        b.ret(None);
    }
    m.add_function(f);
    let msgs = messages(&m);
    assert_eq!(
        msgs,
        vec![
            "call argument type differs from the callee's parameter".to_string(),
            "recursive call cycle".to_string()
        ]
    );
}

#[test]
fn kernel_parameters_must_match_their_kinds() {
    let mut f = Function::new(
        "k",
        vec![Param {
            name: "p".into(),
            ty: Type::I32,
            kind: ParamKind::Buffer(AddrSpace::Global),
            c_type: "int".into(),
        }],
        None,
        sp(0),
    );
    f.kernel = Some(KernelInfo::default());
    Builder::new(&mut f).ret(None);
    let msgs = messages(&with_fn(f));
    assert_eq!(
        msgs,
        vec!["kernel parameter `p` has kind Buffer(Global) but type i32".to_string()]
    );
}

#[test]
fn dominators_of_a_diamond() {
    let mut f = Function::new("f", vec![param("c", Type::I1)], None, sp(0));
    let mut b = Builder::new(&mut f);
    let c = b.params(Block(0))[0];
    let (t, _) = b.create_block(&[]);
    let (e, _) = b.create_block(&[]);
    let (j, _) = b.create_block(&[]);
    b.cond_br(c, t, vec![], e, vec![]);
    b.switch_to(t);
    b.br(j, vec![]);
    b.switch_to(e);
    b.br(j, vec![]);
    b.switch_to(j);
    b.ret(None);
    let (rpo, idom) = verify::dominators(&f);
    assert_eq!(rpo.first(), Some(&Block(0)));
    assert_eq!(
        idom,
        vec![
            Some(Block(0)),
            Some(Block(0)),
            Some(Block(0)),
            Some(Block(0))
        ]
    );
}

/// The seed's `GenericXToY_internal` and a kernel calling it, as `--emit ir` prints them.
#[test]
fn printer_snapshot() {
    let mut sm = SourceMap::new();
    let file = sm.add_text("k.cl", "line one\nline two\nline three\n".into());
    let at = |lo: u32| Span::new(file, lo, lo + 1);
    let mut m = Module::new();
    let g = Type::Ptr(AddrSpace::Generic);
    m.add_global(GlobalVar {
        name: "table".into(),
        space: AddrSpace::Constant,
        size: 8,
        align: 4,
        init: vec![1, 0, 0, 0],
        relocs: vec![],
        span: at(0),
    });
    let mut f = Function::new(
        "GenericXToY_internal",
        vec![
            param("in", g),
            param("out", g),
            param("startFrom", Type::I32),
            param("startTo", Type::I32),
            param("length", Type::I32),
        ],
        None,
        at(0),
    );
    {
        let mut b = Builder::new(&mut f);
        let p = b.params(Block(0));
        b.set_span(at(9));
        let end = b.bin(BinOp::Add, p[2], p[4]);
        let (head, hp) = b.create_block(&[Type::I32, Type::I32]);
        let (body, _) = b.create_block(&[]);
        let (exit, _) = b.create_block(&[]);
        b.br(head, vec![p[2], p[3]]);
        b.switch_to(head);
        let c = b.cmp(CmpOp::Ult, hp[0], end);
        b.cond_br(c, body, vec![], exit, vec![]);
        b.switch_to(body);
        b.set_span(at(18));
        let ii = b.conv(ConvOp::SExt, hp[0], Type::I64);
        let src = b.ptr_add(p[0], ii);
        let x = b.load(Type::I8, src);
        let tt = b.conv(ConvOp::ZExt, hp[1], Type::I64);
        let dst = b.ptr_add(p[1], tt);
        b.store(dst, x);
        let one = b.i32(1);
        let i1 = b.bin(BinOp::Add, hp[0], one);
        let t1 = b.bin(BinOp::Add, hp[1], one);
        b.br(head, vec![i1, t1]);
        b.switch_to(exit);
        b.ret(None);
    }
    let helper = m.add_function(f);
    let mut k = Function::new(
        "copy",
        vec![
            Param {
                name: "src".into(),
                ty: Type::Ptr(AddrSpace::Local),
                kind: ParamKind::Buffer(AddrSpace::Local),
                c_type: "__local uchar *".into(),
            },
            Param {
                name: "dst".into(),
                ty: Type::Ptr(AddrSpace::Global),
                kind: ParamKind::Buffer(AddrSpace::Global),
                c_type: "__global uchar *".into(),
            },
        ],
        None,
        at(0),
    );
    k.kernel = Some(KernelInfo {
        reqd_work_group_size: Some([64, 1, 1]),
    });
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let n = b.conv(ConvOp::Trunc, gid, Type::I32);
        let s = b.to_generic(p[0]);
        let d = b.to_generic(p[1]);
        let four = b.i32(4);
        b.barrier(1);
        let t = b.space_test(s, AddrSpace::Local);
        let _ = t;
        b.call(helper, vec![s, d, n, n, four], None);
        b.ret(None);
    }
    m.add_function(k);
    assert_eq!(verify_module(&m), Ok(()));
    insta::assert_snapshot!(print_module(&m, Some(&sm)));
}
