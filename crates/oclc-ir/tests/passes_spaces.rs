//! Address-space inference and specialization on hand-built IR shaped like the lowering's
//! output (locals in named stack slots): the seed's memcpy, the seed's `bar`, `to_X` and
//! `get_fence` folding, impossible-cast warnings, and the report's reasons.

mod passes_util;

use oclc_ir::passes::*;
use oclc_ir::*;
use passes_util::*;

/// A slot holding variable `name`, initialized with `v`.
fn var(b: &mut Builder, name: &str, v: Value) -> Value {
    let ty = b.ty(v);
    let s = b.stack_alloc_named(ty.store_size(), ty.align(), name);
    b.store(s, v);
    s
}

/// `void GenericXToY_internal(uchar *in, uchar *out, uint startFrom, uint startTo, uint length)
///  { for (int i = startFrom; i < startFrom + length;) out[startTo++] = in[i++]; }`
/// at lines 1-4, every parameter and `i` in a stack slot.
fn generic_x_to_y(m: &mut Module) -> FuncId {
    let mut f = Function::new(
        "GenericXToY_internal",
        vec![
            param("in", G),
            param("out", G),
            param("startFrom", Type::I32),
            param("startTo", Type::I32),
            param("length", Type::I32),
        ],
        None,
        line(1),
    );
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0));
    b.set_span(line(1));
    let s_in = var(&mut b, "in", p[0]);
    let s_out = var(&mut b, "out", p[1]);
    let s_sf = var(&mut b, "startFrom", p[2]);
    let s_st = var(&mut b, "startTo", p[3]);
    let s_len = var(&mut b, "length", p[4]);
    b.set_span(line(3));
    let sf = b.load(Type::I32, s_sf);
    let s_i = var(&mut b, "i", sf);
    let (head, _) = b.create_block(&[]);
    let (body, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![]);
    b.switch_to(head);
    let i = b.load(Type::I32, s_i);
    let sf = b.load(Type::I32, s_sf);
    let len = b.load(Type::I32, s_len);
    let end = b.bin(BinOp::Add, sf, len);
    let c = b.cmp(CmpOp::Ult, i, end);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    b.set_span(line(4));
    let inp = b.load(G, s_in);
    let i = b.load(Type::I32, s_i);
    let one = b.i32(1);
    let i1 = b.bin(BinOp::Add, i, one);
    b.store(s_i, i1);
    let ix = b.conv(ConvOp::SExt, i, Type::I64);
    let src = b.ptr_add(inp, ix);
    let x = b.load(Type::I8, src);
    let outp = b.load(G, s_out);
    let st = b.load(Type::I32, s_st);
    let st1 = b.bin(BinOp::Add, st, one);
    b.store(s_st, st1);
    let ox = b.conv(ConvOp::ZExt, st, Type::I64);
    let dst = b.ptr_add(outp, ox);
    b.store(dst, x);
    b.br(head, vec![]);
    b.switch_to(exit);
    b.ret(None);
    m.add_function(f)
}

/// The seed's two kernels: `from_global` copies global→global through the generic helper,
/// `from_local` stages its bytes in local memory first.
fn memcpy_module() -> Module {
    let mut m = Module::new();
    let helper = generic_x_to_y(&mut m);
    let mut k = kernel(
        "from_global",
        vec![buf("src", AddrSpace::Global), buf("dst", AddrSpace::Global)],
        10,
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        b.set_span(line(11));
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let g32 = b.conv(ConvOp::Trunc, gid, Type::I32);
        let four = b.i32(4);
        let start = b.bin(BinOp::Mul, g32, four);
        let s = b.to_generic(p[0]);
        let d = b.to_generic(p[1]);
        b.call(helper, vec![s, d, start, start, four], None);
        b.ret(None);
    }
    m.add_function(k);
    let mut k = kernel(
        "from_local",
        vec![
            buf("src", AddrSpace::Global),
            buf("dst", AddrSpace::Global),
            buf("tmp", AddrSpace::Local),
        ],
        20,
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        b.set_span(line(21));
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let lid = b.work_item(WorkItemQuery::LocalId, 0);
        let four64 = b.i64(4);
        let goff = b.bin(BinOp::Mul, gid, four64);
        let loff = b.bin(BinOp::Mul, lid, four64);
        let sp_ = b.ptr_add(p[0], goff);
        let x = b.load(Type::I32, sp_);
        let tp = b.ptr_add(p[2], loff);
        b.store(tp, x);
        b.barrier(1);
        b.set_span(line(22));
        let g32 = b.conv(ConvOp::Trunc, goff, Type::I32);
        let l32 = b.conv(ConvOp::Trunc, loff, Type::I32);
        let four = b.i32(4);
        let s = b.to_generic(p[2]);
        let d = b.to_generic(p[1]);
        b.call(helper, vec![s, d, l32, g32, four], None);
        b.ret(None);
    }
    m.add_function(k);
    m
}

#[test]
fn memcpy_helper_gets_a_global_and_a_local_clone() {
    let mut m = memcpy_module();
    let r = run_all(&mut m);
    assert_eq!(r.clones, 2);
    let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "from_global",
            "from_local",
            "GenericXToY_internal__local_global",
            "GenericXToY_internal__global_global"
        ]
    );
    let gg = m
        .function_by_name("GenericXToY_internal__global_global")
        .unwrap();
    let lg = m
        .function_by_name("GenericXToY_internal__local_global")
        .unwrap();
    let tys: Vec<Type> = m
        .function(lg)
        .unwrap()
        .params
        .iter()
        .map(|p| p.ty)
        .collect();
    assert_eq!(
        tys,
        [
            Type::Ptr(AddrSpace::Local),
            Type::Ptr(AddrSpace::Global),
            Type::I32,
            Type::I32,
            Type::I32
        ]
    );
    // No slot, no generic pointer left anywhere.
    for f in &m.functions {
        for (i, v) in f.values.iter().enumerate() {
            let used = f.blocks.iter().any(|b| {
                b.params.contains(&Value(i as u32))
                    || b.insts
                        .iter()
                        .any(|x| f.insts[x.index()].result == Some(Value(i as u32)))
            });
            assert!(!(used && v.ty == G), "generic value left in {}", f.name);
        }
        assert!(
            !ops(&m, &f.name)
                .iter()
                .any(|o| matches!(o, Op::StackAlloc { .. } | Op::ToGeneric(_))),
            "{}",
            f.name
        );
    }
    // Calls go to the clones.
    assert!(
        ops(&m, "from_global")
            .iter()
            .any(|o| matches!(o, Op::Call(c, _) if *c == gg))
    );
    assert!(
        ops(&m, "from_local")
            .iter()
            .any(|o| matches!(o, Op::Call(c, _) if *c == lg))
    );
    assert_eq!(
        r.spaces.kernels,
        [
            KernelAccesses {
                kernel: "from_global".into(),
                before: 2,
                after: 0,
                split: 0
            },
            KernelAccesses {
                kernel: "from_local".into(),
                before: 2,
                after: 0,
                split: 0
            }
        ]
    );
    let sm = source_map();
    insta::assert_snapshot!("memcpy_report", render_text(&r.spaces, &sm));
    insta::assert_snapshot!("memcpy_ir", print_module(&m, Some(&sm)));
}

#[test]
fn memcpy_results_are_unchanged() {
    let m = memcpy_module();
    let data: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    for k in ["from_global", "from_local"] {
        let mut args = vec![A::Buf(data.clone()), A::Buf(vec![0; 256])];
        if k == "from_local" {
            args.push(A::Local(64));
        }
        let out = same_results(&m, k, &args, 64, 16);
        assert_eq!(out[1], data, "{k}");
    }
}

/// The seed's `bar`: `int *var; if (is_even(gid)) var = g; else var = l; *var = 42;`
/// (lines 36-44), then each odd work-item copies its local word out to `g`.
fn bar_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "bar",
        vec![buf("g", AddrSpace::Global), buf("l", AddrSpace::Local)],
        36,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(38));
    let slot = b.stack_alloc_named(8, 8, "var");
    b.set_span(line(40));
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let one = b.i64(1);
    let odd = b.bin(BinOp::And, gid, one);
    let zero = b.i64(0);
    let even = b.cmp(CmpOp::Eq, odd, zero);
    let four = b.i64(4);
    let (then, _) = b.create_block(&[]);
    let (els, _) = b.create_block(&[]);
    let (join, _) = b.create_block(&[]);
    b.cond_br(even, then, vec![], els, vec![]);
    b.switch_to(then);
    b.set_span(line(41));
    let go = b.bin(BinOp::Mul, gid, four);
    let gp = b.ptr_add(p[0], go);
    let tg = b.to_generic(gp);
    b.store(slot, tg);
    b.br(join, vec![]);
    b.switch_to(els);
    b.set_span(line(43));
    let lo = b.bin(BinOp::Mul, lid, four);
    let lp = b.ptr_add(p[1], lo);
    let tl = b.to_generic(lp);
    b.store(slot, tl);
    b.br(join, vec![]);
    b.switch_to(join);
    b.set_span(line(44));
    let v = b.load(G, slot);
    let c42 = b.i32(42);
    b.store(v, c42);
    b.set_span(line(45));
    b.barrier(1);
    let (copy, _) = b.create_block(&[]);
    let (done, _) = b.create_block(&[]);
    b.cond_br(even, done, vec![], copy, vec![]);
    b.switch_to(copy);
    b.set_span(line(46));
    let lo = b.bin(BinOp::Mul, lid, four);
    let lp = b.ptr_add(p[1], lo);
    let x = b.load(Type::I32, lp);
    let go = b.bin(BinOp::Mul, gid, four);
    let gp = b.ptr_add(p[0], go);
    let one32 = b.i32(1);
    let x1 = b.bin(BinOp::Add, x, one32);
    b.store(gp, x1);
    b.br(done, vec![]);
    b.switch_to(done);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn bar_reports_the_merge_with_both_origins() {
    let mut m = bar_module();
    let r = run_all(&mut m);
    let f = &r.spaces.functions[0];
    assert_eq!(f.source_name, "bar");
    assert_eq!(f.pointers.len(), 1);
    let p = &f.pointers[0];
    assert_eq!(p.name, "var");
    assert_eq!(p.span, line(38));
    assert_eq!(
        p.resolution,
        Resolution::Generic(vec![GenericReason::Merge {
            first: (AddrSpace::Global, line(41)),
            second: (AddrSpace::Local, line(43)),
            at: line(44)
        }])
    );
    let sm = source_map();
    let text = render_text(&r.spaces, &sm);
    assert!(
        text.contains("var (line 38): stays generic: merges __global (line 41) and __local (line 43) at line 44"),
        "{text}"
    );
    assert_eq!(
        r.spaces.kernels,
        [KernelAccesses {
            kernel: "bar".into(),
            before: 1,
            after: 0,
            split: 1
        }]
    );
    assert_eq!(r.versioned, 1);
    // At -O1 the access through `var` is not split.
    let mut m1 = bar_module();
    let r1 = run_default(&mut m1, &PassOptions { opt_level: 1 });
    assert_eq!(r1.spaces.kernels[0].after, 1);
    assert_eq!(r1.versioned, 0);
    insta::assert_snapshot!("bar_report_json", render_json(&r.spaces, &sm));
}

#[test]
fn bar_results_are_unchanged() {
    let m = bar_module();
    let out = same_results(&m, "bar", &[A::Buf(vec![0; 64]), A::Local(32)], 16, 8);
    let want: Vec<i32> = (0..16).map(|i| if i % 2 == 0 { 42 } else { 43 }).collect();
    assert_eq!(i32s(&out[0]), want);
}

/// `to_global`, `to_local`, `get_fence` and explicit casts of a pointer that is always
/// global (lines 50-56); results stored to `out[0..5]`.
fn casts_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "casts",
        vec![buf("g", AddrSpace::Global), buf("out", AddrSpace::Global)],
        50,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(51));
    let slot = b.stack_alloc_named(8, 8, "p");
    let tg = b.to_generic(p[0]);
    b.store(slot, tg);
    b.set_span(line(52));
    let v = b.load(G, slot);
    let asg = b.space_test(v, AddrSpace::Global);
    let asl = b.space_test(v, AddrSpace::Local);
    b.set_span(line(53));
    let fence = b.get_fence(v);
    b.set_span(line(54));
    let cg = b.from_generic(v, AddrSpace::Global);
    let x = b.load(Type::I32, cg);
    // out[0] = to_global(p) != NULL, out[1] = to_local(p) == NULL, out[2] = fence, out[3] = *p
    b.set_span(line(55));
    let ng = b.null(AddrSpace::Global);
    let c0 = b.cmp(CmpOp::Ne, asg, ng);
    let c0 = b.conv(ConvOp::ZExt, c0, Type::I32);
    b.store(p[1], c0);
    let nl = b.null(AddrSpace::Local);
    let c1 = b.cmp(CmpOp::Eq, asl, nl);
    let c1 = b.conv(ConvOp::ZExt, c1, Type::I32);
    let o1 = b.ptr_add_const(p[1], 4);
    b.store(o1, c1);
    let o2 = b.ptr_add_const(p[1], 8);
    b.store(o2, fence);
    let o3 = b.ptr_add_const(p[1], 12);
    b.store(o3, x);
    // A cast that can never succeed, in a branch never taken at run time.
    b.set_span(line(56));
    let zero = b.i32(0);
    let never = b.cmp(CmpOp::Ne, x, x);
    let (bad, _) = b.create_block(&[]);
    let (done, _) = b.create_block(&[]);
    b.cond_br(never, bad, vec![], done, vec![]);
    b.switch_to(bad);
    let cl = b.from_generic(v, AddrSpace::Local);
    b.store(cl, zero);
    b.br(done, vec![]);
    b.switch_to(done);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn space_tests_and_fences_fold() {
    let mut m = casts_module();
    let r = run_all(&mut m);
    let o = ops(&m, "casts");
    assert!(
        !o.iter()
            .any(|x| matches!(x, Op::SpaceTest(..) | Op::GetFence(_))),
        "{o:?}"
    );
    // The fence is stored as the constant CLK_GLOBAL_MEM_FENCE.
    let f = m.function(m.function_by_name("casts").unwrap()).unwrap();
    let stored_consts: Vec<u64> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match &f.insts[i.index()].op {
            Op::Store { value, .. } => match &f.insts.iter().find(|d| d.result == Some(*value))?.op
            {
                Op::Const(Const::Int(c)) => Some(*c),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert!(stored_consts.contains(&2), "{stored_consts:?}");
    // The impossible explicit cast is kept (the device still reports it) and warned about.
    assert_eq!(
        o.iter()
            .filter(|x| matches!(x, Op::FromGeneric(_, AddrSpace::Local)))
            .count(),
        1
    );
    assert_eq!(r.spaces.warnings.len(), 2, "{:?}", r.spaces.warnings);
    let w = &r.spaces.warnings;
    assert_eq!(w[0].span, line(52));
    assert_eq!(
        w[0].message,
        "to_local() always returns NULL here: the pointer always points to __global memory"
    );
    assert_eq!(w[0].group, Some("address-space-cast"));
    assert_eq!(w[0].notes[0].span, line(51));
    assert_eq!(w[1].span, line(56));
    assert_eq!(
        w[1].message,
        "cast to a __local pointer can never succeed: the pointer always points to __global memory"
    );
    assert_eq!(
        r.spaces.functions[0].pointers,
        [PointerInfo {
            name: "p".into(),
            span: line(51),
            resolution: Resolution::Named(AddrSpace::Global)
        }]
    );
}

#[test]
fn space_tests_and_fences_give_the_same_results() {
    let m = casts_module();
    let out = same_results(
        &m,
        "casts",
        &[A::Buf(bytes_i32(&[7])), A::Buf(vec![0; 16])],
        1,
        1,
    );
    assert_eq!(i32s(&out[1]), [1, 1, 2, 7]);
}

/// `struct { int *p; int n; } s = { g + gid, 1 }; *s.p += s.n;` — the pointer field of a
/// private struct that does not escape is followed.
fn struct_module(escape: bool) -> Module {
    let mut m = Module::new();
    let mut k = kernel("st", vec![buf("g", AddrSpace::Global)], 60);
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(61));
    let s = b.stack_alloc_named(16, 8, "s");
    b.memset(s, 0, 16);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let four = b.i64(4);
    let off = b.bin(BinOp::Mul, gid, four);
    let gp = b.ptr_add(p[0], off);
    let tg = b.to_generic(gp);
    b.store(s, tg);
    let one = b.i32(1);
    let f1 = b.ptr_add_const(s, 8);
    b.store(f1, one);
    if escape {
        // Its address is stored to global memory: the struct escapes.
        b.set_span(line(62));
        let sa = b.ptr_add_const(p[0], 0);
        let addr = b.conv(ConvOp::PtrToInt, s, Type::I64);
        let lo = b.conv(ConvOp::Trunc, addr, Type::I32);
        let zero = b.i32(0);
        let t = b.bin(BinOp::And, lo, zero);
        let old = b.load(Type::I32, sa);
        let v = b.bin(BinOp::Or, old, t);
        b.store(sa, v);
    }
    b.set_span(line(63));
    let ptr = b.load(G, s);
    let f1 = b.ptr_add_const(s, 8);
    let n = b.load(Type::I32, f1);
    let x = b.load(Type::I32, ptr);
    let y = b.bin(BinOp::Add, x, n);
    b.store(ptr, y);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn private_struct_pointer_field_is_followed() {
    let mut m = struct_module(false);
    let r = run_all(&mut m);
    assert_eq!(r.spaces.kernels[0].before, 2);
    assert_eq!(r.spaces.kernels[0].after, 0);
    assert_eq!(r.spaces.functions[0].pointers[0].name, "s+0");
    assert_eq!(
        r.spaces.functions[0].pointers[0].resolution,
        Resolution::Named(AddrSpace::Global)
    );
    let out = same_results(
        &struct_module(false),
        "st",
        &[A::Buf(bytes_i32(&[5, 6, 7, 8]))],
        4,
        2,
    );
    assert_eq!(i32s(&out[0]), [6, 7, 8, 9]);
}

#[test]
fn escaping_struct_stays_generic_with_its_reason() {
    let mut m = struct_module(true);
    let r = run_all(&mut m);
    assert_eq!(r.spaces.kernels[0].after, 2);
    let p = &r.spaces.functions[0].pointers[0];
    assert_eq!(p.name, "s");
    assert_eq!(
        p.resolution,
        Resolution::Generic(vec![GenericReason::AddressEscapes { at: line(62) }])
    );
    let out = same_results(
        &struct_module(true),
        "st",
        &[A::Buf(bytes_i32(&[5, 6, 7, 8]))],
        4,
        2,
    );
    assert_eq!(i32s(&out[0]), [6, 7, 8, 9]);
}

#[test]
fn o0_runs_nothing() {
    let mut m = memcpy_module();
    let before = print_module(&m, None);
    let r = run_default(&mut m, &PassOptions::none());
    assert_eq!(print_module(&m, None), before);
    assert_eq!(r.spaces.kernels[0].before, 2);
    assert_eq!(r.spaces.kernels[0].after, 2);
    // Nothing is resolved; each access left is explained by the passes being off.
    let accesses: Vec<_> = r
        .spaces
        .functions
        .iter()
        .flat_map(|f| &f.accesses)
        .collect();
    assert_eq!(accesses.len(), 2);
    assert!(
        accesses
            .iter()
            .all(|a| a.reasons == [GenericReason::PassesOff])
    );
    assert!(r.spaces.functions.iter().all(|f| f.pointers.is_empty()));
}

/// `int x = 100 + gid; int *p = gid % 3 == 0 ? &x : gid % 3 == 1 ? g + gid : l + lid;
///  int y = *p; *p = y + 1; out[gid] = y + *p;` — one load and one store through a pointer
/// into three spaces, each split three ways.
fn three_spaces_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "three",
        vec![
            buf("g", AddrSpace::Global),
            buf("l", AddrSpace::Local),
            buf("out", AddrSpace::Global),
        ],
        70,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(71));
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let four = b.i64(4);
    let go = b.bin(BinOp::Mul, gid, four);
    let lo = b.bin(BinOp::Mul, lid, four);
    let lp = b.ptr_add(p[1], lo);
    let seven = b.i32(7);
    b.store(lp, seven);
    b.barrier(1);
    let x = b.stack_alloc_named(4, 4, "x");
    let g32 = b.conv(ConvOp::Trunc, gid, Type::I32);
    let h = b.i32(100);
    let xv = b.bin(BinOp::Add, g32, h);
    b.store(x, xv);
    let three = b.i64(3);
    let r = b.bin(BinOp::URem, gid, three);
    let zero = b.i64(0);
    let one = b.i64(1);
    let c0 = b.cmp(CmpOp::Eq, r, zero);
    let c1 = b.cmp(CmpOp::Eq, r, one);
    let (join, jp) = b.create_block(&[G]);
    let (not0, _) = b.create_block(&[]);
    let xp = b.to_generic(x);
    let gp = b.ptr_add(p[0], go);
    let gg = b.to_generic(gp);
    let lg = b.to_generic(lp);
    b.cond_br(c0, join, vec![xp], not0, vec![]);
    b.switch_to(not0);
    let sel = b.select(c1, gg, lg);
    b.br(join, vec![sel]);
    b.switch_to(join);
    b.set_span(line(72));
    let y = b.load(Type::I32, jp[0]);
    let one32 = b.i32(1);
    let y1 = b.bin(BinOp::Add, y, one32);
    b.store(jp[0], y1);
    let z = b.load(Type::I32, jp[0]);
    let s2 = b.bin(BinOp::Add, y, z);
    let op = b.ptr_add(p[2], go);
    b.store(op, s2);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn pointers_into_three_spaces_are_versioned() {
    let mut m = three_spaces_module();
    let r = run_all(&mut m);
    assert_eq!(r.versioned, 3);
    assert_eq!(r.spaces.kernels[0].before, 3);
    assert_eq!(r.spaces.kernels[0].after, 0);
    let o = ops(&m, "three");
    assert_eq!(
        o.iter().filter(|x| matches!(x, Op::SpaceTest(..))).count(),
        6
    );
    let g: Vec<i32> = (0..6).map(|i| 10 * i).collect();
    let out = same_results(
        &three_spaces_module(),
        "three",
        &[A::Buf(bytes_i32(&g)), A::Local(12), A::Buf(vec![0; 24])],
        6,
        3,
    );
    // gid%3: 0 -> x = 100+gid: 2x+1; 1 -> g[gid]: 2g+1; 2 -> l[lid] = 7: 15.
    assert_eq!(i32s(&out[1]), [201, 21, 15, 207, 81, 15]);
    assert_eq!(i32s(&out[0]), [0, 11, 20, 30, 41, 50]);
}
