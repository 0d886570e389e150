//! Specialization across calls and the less common lattice paths: unresolved callers, chains
//! of helpers, NULL joins, selects, returned pointers, comparisons of mixed spaces.

mod passes_util;

use oclc_ir::passes::*;
use oclc_ir::*;
use passes_util::*;

/// `void inc(int *p) { *p += 1; }` at line `l`.
fn inc(m: &mut Module, name: &str, l: u32) -> FuncId {
    let mut f = Function::new(name, vec![param("p", G)], None, line(l));
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0));
    b.set_span(line(l + 1));
    let x = b.load(Type::I32, p[0]);
    let one = b.i32(1);
    let y = b.bin(BinOp::Add, x, one);
    b.store(p[0], y);
    b.ret(None);
    m.add_function(f)
}

/// `void outer(int *p) { inc(p); inc(p + 1); }` at line `l`.
fn outer(m: &mut Module, callee: FuncId, l: u32) -> FuncId {
    let mut f = Function::new("outer", vec![param("q", G)], None, line(l));
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0));
    b.set_span(line(l + 1));
    b.call(callee, vec![p[0]], None);
    let q1 = b.ptr_add_const(p[0], 4);
    b.call(callee, vec![q1], None);
    b.ret(None);
    m.add_function(f)
}

/// kernel k(global int *g, local int *l, global ulong *pp): calls `outer(g)`, `outer(l + 2*lid)`
/// and `inc(*(int **)pp)` (a pointer loaded from memory: unresolved), then copies `l` out.
fn chain_module() -> Module {
    let mut m = Module::new();
    let i = inc(&mut m, "inc", 1);
    let o = outer(&mut m, i, 5);
    let mut k = kernel(
        "k",
        vec![
            buf("g", AddrSpace::Global),
            buf("l", AddrSpace::Local),
            buf("pp", AddrSpace::Global),
        ],
        10,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(11));
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let eight = b.i64(8);
    let lo = b.bin(BinOp::Mul, lid, eight);
    let lp = b.ptr_add(p[1], lo);
    let zero = b.i32(0);
    b.store(lp, zero);
    let lp4 = b.ptr_add_const(lp, 4);
    b.store(lp4, zero);
    let go = b.bin(BinOp::Mul, gid, eight);
    let gp = b.ptr_add(p[0], go);
    let tg = b.to_generic(gp);
    b.set_span(line(12));
    b.call(o, vec![tg], None);
    let tl = b.to_generic(lp);
    b.set_span(line(13));
    b.call(o, vec![tl], None);
    b.set_span(line(14));
    // The generic pointer stored in pp[0] by the host side of this test: its own global word.
    let po = b.ptr_add(p[2], go);
    let own = b.to_generic(gp);
    b.store(po, own);
    let loaded = b.load(G, po);
    b.call(i, vec![loaded], None);
    b.set_span(line(15));
    let x = b.load(Type::I32, lp);
    let y = b.load(Type::I32, lp4);
    let s = b.bin(BinOp::Add, x, y);
    let gp4 = b.ptr_add_const(gp, 4);
    let old = b.load(Type::I32, gp4);
    let s2 = b.bin(BinOp::Add, s, old);
    b.store(gp4, s2);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn chains_of_helpers_are_specialized_and_unresolved_callers_reported() {
    let mut m = chain_module();
    let r = run_all(&mut m);
    let mut names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "inc",
            "inc__global",
            "inc__local",
            "k",
            "outer__global",
            "outer__local"
        ]
    );
    // Accesses before: inc 2 + outer 0 (inc counted once) = 2; after: only the generic `inc`.
    assert_eq!(
        r.spaces.kernels,
        [KernelAccesses {
            kernel: "k".into(),
            before: 2,
            after: 2,
            split: 0
        }]
    );
    let generic_inc = r
        .spaces
        .functions
        .iter()
        .find(|f| f.name == "inc")
        .expect("inc reported");
    assert_eq!(
        generic_inc.pointers[0].resolution,
        Resolution::Generic(vec![GenericReason::Parameter {
            function: "inc".into(),
            generic_callers: vec![line(14)]
        }])
    );
    let sm = source_map();
    let text = render_text(&r.spaces, &sm);
    assert!(
        text.contains("p (line 1): stays generic: parameter of `inc`, called with an unresolved pointer at line 14"),
        "{text}"
    );
    insta::assert_snapshot!("chain_report", text);
}

#[test]
fn chains_keep_results() {
    let m = chain_module();
    let g: Vec<i32> = (0..8).collect();
    let out = same_results(
        &m,
        "k",
        &[A::Buf(bytes_i32(&g)), A::Local(32), A::Buf(vec![0; 32])],
        4,
        4,
    );
    // Each work-item: g[2i] += 1 (outer(g)) + 1 (inc through pp); g[2i+1] += 1 + 2 (local sum).
    let want: Vec<i32> = (0..8)
        .map(|x| if x % 2 == 0 { x + 2 } else { x + 3 })
        .collect();
    assert_eq!(i32s(&out[0]), want);
}

/// `int *p = NULL; if (gid & 1) p = g + gid; if (p != NULL) *p = 7;`, then `sel` picks
/// between two global pointers or a global and a local one with `?:` (lines 20-26).
fn null_select_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "ns",
        vec![buf("g", AddrSpace::Global), buf("l", AddrSpace::Local)],
        20,
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    b.set_span(line(21));
    let slot = b.stack_alloc_named(8, 8, "p");
    let null = b.null(AddrSpace::Generic);
    b.store(slot, null);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let one = b.i64(1);
    let odd = b.bin(BinOp::And, gid, one);
    let c = b.conv(ConvOp::ToBool, odd, Type::I1);
    let four = b.i64(4);
    let go = b.bin(BinOp::Mul, gid, four);
    let gp = b.ptr_add(p[0], go);
    let (set, _) = b.create_block(&[]);
    let (join, _) = b.create_block(&[]);
    b.cond_br(c, set, vec![], join, vec![]);
    b.switch_to(set);
    b.set_span(line(22));
    let tg = b.to_generic(gp);
    b.store(slot, tg);
    b.br(join, vec![]);
    b.switch_to(join);
    b.set_span(line(23));
    let pv = b.load(G, slot);
    let n2 = b.null(AddrSpace::Generic);
    let nz = b.cmp(CmpOp::Ne, pv, n2);
    let fence = b.get_fence(pv);
    let (st, _) = b.create_block(&[]);
    let (after, _) = b.create_block(&[]);
    b.cond_br(nz, st, vec![], after, vec![]);
    b.switch_to(st);
    let seven = b.i32(7);
    b.store(pv, seven);
    b.br(after, vec![]);
    b.switch_to(after);
    // q = odd ? g + gid : g (both global); r = odd ? g + gid : l (global or local).
    b.set_span(line(25));
    let ga = b.to_generic(gp);
    let gb = b.to_generic(p[0]);
    let q = b.select(c, ga, gb);
    let lt = b.to_generic(p[1]);
    b.set_span(line(26));
    let gc = b.to_generic(gp);
    let rr = b.select(c, gc, lt);
    let lq = b.load(Type::I32, q);
    b.store(rr, lq);
    let fo = b.ptr_add_const(gp, 32);
    b.store(fo, fence);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn null_joins_resolve_and_selects_merge() {
    let mut m = null_select_module();
    let r = run_all(&mut m);
    let o = ops(&m, "ns");
    // `*p = 7` and `*q` are global; `*rr` merges global and local: it is split in two
    // accesses chosen by a space test. The fence of a maybe-NULL p stays a run-time query.
    let f = m.function(FuncId(0)).unwrap();
    let generic_stores = o
        .iter()
        .filter(|x| matches!(x, Op::Store { ptr, .. } if f.value_type(*ptr) == Some(G)))
        .count();
    assert_eq!(generic_stores, 0);
    assert_eq!(r.versioned, 1);
    assert!(
        o.iter()
            .any(|x| matches!(x, Op::SpaceTest(_, AddrSpace::Global)))
    );
    assert!(
        o.iter()
            .any(|x| matches!(x, Op::FromGeneric(_, AddrSpace::Local)))
    );
    assert!(o.iter().any(|x| matches!(x, Op::GetFence(_))));
    assert_eq!(r.spaces.kernels[0].before, 3);
    assert_eq!(r.spaces.kernels[0].after, 0);
    assert_eq!(
        r.spaces.functions[0].pointers,
        [PointerInfo {
            name: "p".into(),
            span: line(21),
            resolution: Resolution::Named(AddrSpace::Global)
        }]
    );
}

#[test]
fn null_joins_and_selects_keep_results() {
    let m = null_select_module();
    let g: Vec<i32> = (0..16).collect();
    let out = same_results(&m, "ns", &[A::Buf(bytes_i32(&g)), A::Local(16)], 4, 4);
    let v = i32s(&out[0]);
    // Odd work-items store 7 through p, then copy g[gid] (7) onto itself; fences land at +32.
    assert_eq!(&v[..4], &[0, 7, 2, 7]);
    assert_eq!(&v[8..12], &[0, 2, 0, 2]);
}

/// `int *pick(int *a) { return a + 1; }` — returns a global pointer when given one (the
/// clone returns `ptr<global>`), an unresolved one when given a pointer loaded from memory.
#[test]
fn returned_pointers_follow_the_callee() {
    let mut m = Module::new();
    let mut f = Function::new("pick", vec![param("a", G)], Some(G), line(30));
    {
        let mut b = Builder::new(&mut f);
        let p = b.params(Block(0));
        let r = b.ptr_add_const(p[0], 4);
        b.ret(Some(r));
    }
    let pick = m.add_function(f);
    let mut k = kernel(
        "k",
        vec![buf("g", AddrSpace::Global), buf("pp", AddrSpace::Global)],
        32,
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        b.set_span(line(33));
        let slot = b.stack_alloc_named(8, 8, "r");
        let tg = b.to_generic(p[0]);
        let r = b.call(pick, vec![tg], Some(G)).unwrap();
        b.store(slot, r);
        b.set_span(line(34));
        let v = b.load(G, slot);
        let one = b.i32(1);
        b.store(v, one);
        b.set_span(line(35));
        let slot2 = b.stack_alloc_named(8, 8, "s");
        b.store(p[1], tg);
        let loaded = b.load(G, p[1]);
        let s2 = b.call(pick, vec![loaded], Some(G)).unwrap();
        b.store(slot2, s2);
        b.set_span(line(36));
        let v2 = b.load(G, slot2);
        let x = b.load(Type::I32, v2);
        let x2 = b.bin(BinOp::Add, x, one);
        b.store(v2, x2);
        b.ret(None);
    }
    m.add_function(k);
    let mut opt = m.clone();
    let r = run_all(&mut opt);
    let clone = opt.function_by_name("pick__global").unwrap();
    assert_eq!(
        opt.function(clone).unwrap().ret,
        Some(Type::Ptr(AddrSpace::Global))
    );
    let kf = r.spaces.functions.iter().find(|f| f.name == "k").unwrap();
    assert_eq!(kf.pointers[0].name, "r");
    assert_eq!(
        kf.pointers[0].resolution,
        Resolution::Named(AddrSpace::Global)
    );
    assert_eq!(
        kf.pointers[1].resolution,
        Resolution::Generic(vec![GenericReason::ReturnedByCall {
            callee: "pick".into(),
            at: line(35)
        }])
    );
    assert_eq!(r.spaces.kernels[0].before, 3);
    assert_eq!(r.spaces.kernels[0].after, 2);
    let out = same_results(&m, "k", &[A::Buf(vec![0; 8]), A::Buf(vec![0; 8])], 1, 1);
    assert_eq!(i32s(&out[0]), [0, 2]);
}
