//! Kernels built by hand with the IR builder and run on the cpu device: real results, and
//! each runtime check with its span and work-item ids.

use oclc_cpu::{Arg, Buffer, CheckKind, Device, DeviceError, NdRange, RuntimeError};
use oclc_ir::*;
use oclc_syntax::{FileId, Span};

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

fn buf(name: &str, space: AddrSpace) -> Param {
    Param {
        name: name.into(),
        ty: Type::Ptr(space),
        kind: ParamKind::Buffer(space),
        c_type: String::new(),
    }
}

fn kernel(name: &str, params: Vec<Param>) -> Function {
    let mut f = Function::new(name, params, None, sp(0));
    f.kernel = Some(KernelInfo::default());
    f
}

fn device() -> Device {
    Device::cpu().with_threads(2).with_printf_echo(false)
}

fn runtime_err(r: Result<oclc_cpu::LaunchOutput, DeviceError>) -> RuntimeError {
    match r {
        Err(DeviceError::Runtime(e)) => *e,
        other => panic!("expected a runtime error, got {other:?}"),
    }
}

fn i32s(v: &[u8]) -> Vec<i32> {
    v.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `void GenericXToY_internal(uchar *in, uchar *out, uint startFrom, uint startTo, uint length)
///  { for (int i = startFrom; i < startFrom + length;) out[startTo++] = in[i++]; }`
fn generic_x_to_y(m: &mut Module) -> FuncId {
    let g = Type::Ptr(AddrSpace::Generic);
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
        sp(100),
    );
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0));
    let (inp, out, sf, st, len) = (p[0], p[1], p[2], p[3], p[4]);
    b.set_span(sp(110));
    let end = b.bin(BinOp::Add, sf, len);
    let (head, hp) = b.create_block(&[Type::I32, Type::I32]);
    let (body, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![sf, st]);
    b.switch_to(head);
    let c = b.cmp(CmpOp::Ult, hp[0], end);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    b.set_span(sp(120));
    let ii = b.conv(ConvOp::SExt, hp[0], Type::I64);
    let src = b.ptr_add(inp, ii);
    let x = b.load(Type::I8, src);
    let tt = b.conv(ConvOp::ZExt, hp[1], Type::I64);
    let dst = b.ptr_add(out, tt);
    b.set_span(sp(121));
    b.store(dst, x);
    let one = b.i32(1);
    let i1 = b.bin(BinOp::Add, hp[0], one);
    let t1 = b.bin(BinOp::Add, hp[1], one);
    b.br(head, vec![i1, t1]);
    b.switch_to(exit);
    b.ret(None);
    m.add_function(f)
}

#[test]
fn seed_memcpy_from_global_and_local_sources() {
    let mut m = Module::new();
    let helper = generic_x_to_y(&mut m);
    // kernel void from_global(global uchar *src, global uchar *dst):
    //   GenericXToY_internal(src, dst, gid * 4, gid * 4, 4)
    let mut k = kernel(
        "from_global",
        vec![buf("src", AddrSpace::Global), buf("dst", AddrSpace::Global)],
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
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
    // kernel void from_local(global uchar *src, global uchar *dst, local uchar *tmp):
    //   copy my 4 bytes of src into tmp, barrier, then GenericXToY_internal(tmp, dst, lid*4, gid*4, 4)
    let mut k = kernel(
        "from_local",
        vec![
            buf("src", AddrSpace::Global),
            buf("dst", AddrSpace::Global),
            buf("tmp", AddrSpace::Local),
        ],
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
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
        let g32 = b.conv(ConvOp::Trunc, goff, Type::I32);
        let l32 = b.conv(ConvOp::Trunc, loff, Type::I32);
        let four = b.i32(4);
        let s = b.to_generic(p[2]);
        let d = b.to_generic(p[1]);
        b.call(helper, vec![s, d, l32, g32, four], None);
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid module");
    let data: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    for kname in ["from_global", "from_local"] {
        let src = Buffer::from_bytes(&data);
        let dst = Buffer::zeroed(256);
        let mut args = vec![Arg::Buffer(src), Arg::Buffer(dst.clone())];
        if kname == "from_local" {
            args.push(Arg::Local(64));
        }
        dev.launch(&prog, kname, &args, &NdRange::new(&[64]).local(&[16]))
            .expect("runs");
        assert_eq!(dst.read(), data, "{kname}");
    }
}

/// `kernel void reduce(global const int *in, global int *out, local int *scratch)`: tree
/// reduction of each group into `out[group]`.
fn reduction_module() -> Module {
    let mut m = Module::new();
    let mut k = kernel(
        "reduce",
        vec![
            buf("in", AddrSpace::Global),
            buf("out", AddrSpace::Global),
            buf("scratch", AddrSpace::Local),
        ],
    );
    let mut b = Builder::new(&mut k);
    let p = b.params(Block(0));
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let n = b.work_item(WorkItemQuery::LocalSize, 0);
    let four = b.i64(4);
    let go = b.bin(BinOp::Mul, gid, four);
    let lo = b.bin(BinOp::Mul, lid, four);
    let ip = b.ptr_add(p[0], go);
    let x = b.load(Type::I32, ip);
    let sp_ = b.ptr_add(p[2], lo);
    b.store(sp_, x);
    b.set_span(sp(50));
    b.barrier(1);
    let one = b.i64(1);
    let half = b.bin(BinOp::LShr, n, one);
    let (head, hp) = b.create_block(&[Type::I64]);
    let (body, _) = b.create_block(&[]);
    let (add, _) = b.create_block(&[]);
    let (latch, _) = b.create_block(&[]);
    let (done, _) = b.create_block(&[]);
    let (write, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![half]);
    b.switch_to(head);
    let zero = b.i64(0);
    let c = b.cmp(CmpOp::Ugt, hp[0], zero);
    b.cond_br(c, body, vec![], done, vec![]);
    b.switch_to(body);
    let c2 = b.cmp(CmpOp::Ult, lid, hp[0]);
    b.cond_br(c2, add, vec![], latch, vec![]);
    b.switch_to(add);
    let other = b.bin(BinOp::Add, lid, hp[0]);
    let oo = b.bin(BinOp::Mul, other, four);
    let op = b.ptr_add(p[2], oo);
    let y = b.load(Type::I32, op);
    let mine = b.load(Type::I32, sp_);
    let s = b.bin(BinOp::Add, mine, y);
    b.store(sp_, s);
    b.br(latch, vec![]);
    b.switch_to(latch);
    b.set_span(sp(60));
    b.barrier(1);
    let next = b.bin(BinOp::LShr, hp[0], one);
    b.br(head, vec![next]);
    b.switch_to(done);
    let z = b.i64(0);
    let is0 = b.cmp(CmpOp::Eq, lid, z);
    b.cond_br(is0, write, vec![], exit, vec![]);
    b.switch_to(write);
    let grp = b.work_item(WorkItemQuery::GroupId, 0);
    let r = b.load(Type::I32, p[2]);
    let oo = b.bin(BinOp::Mul, grp, four);
    let outp = b.ptr_add(p[1], oo);
    b.store(outp, r);
    b.br(exit, vec![]);
    b.switch_to(exit);
    b.ret(None);
    m.add_function(k);
    m
}

#[test]
fn reduction_with_local_memory_and_barriers() {
    let dev = device();
    let prog = dev.load(reduction_module()).expect("valid");
    let input: Vec<i32> = (0..1024).map(|i| (i * 37 % 101) - 50).collect();
    let inb = Buffer::from_bytes(&bytes_i32(&input));
    let outb = Buffer::zeroed(16 * 4);
    dev.launch(
        &prog,
        "reduce",
        &[
            Arg::Buffer(inb),
            Arg::Buffer(outb.clone()),
            Arg::Local(64 * 4),
        ],
        &NdRange::new(&[1024]).local(&[64]),
    )
    .expect("runs");
    let want: Vec<i32> = input.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(i32s(&outb.read()), want);
    // The same kernel is race-free under --races.
    let dev = device().with_race_detection(true);
    let prog = dev.load(reduction_module()).expect("valid");
    let outb = Buffer::zeroed(16 * 4);
    dev.launch(
        &prog,
        "reduce",
        &[
            Arg::Buffer(Buffer::from_bytes(&bytes_i32(&input))),
            Arg::Buffer(outb.clone()),
            Arg::Local(64 * 4),
        ],
        &NdRange::new(&[1024]).local(&[64]),
    )
    .expect("no race");
    assert_eq!(i32s(&outb.read()), want);
}

/// A kernel `k(global int *buf)` whose body `body` builds; returns the module.
fn one_kernel(params: Vec<Param>, body: impl FnOnce(&mut Builder, Vec<Value>)) -> Module {
    let mut m = Module::new();
    let mut k = kernel("k", params);
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        body(&mut b, p);
        if !b.is_terminated() {
            b.ret(None);
        }
    }
    m.add_function(k);
    m
}

#[test]
fn out_of_bounds_write_names_buffer_size_and_offset() {
    // buf[gid + 1] = 1 with buf of 64 ints: work-item 63 writes past the end.
    let m = one_kernel(vec![buf("buf", AddrSpace::Global)], |b, p| {
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let one = b.i64(1);
        let i = b.bin(BinOp::Add, gid, one);
        let four = b.i64(4);
        let off = b.bin(BinOp::Mul, i, four);
        let q = b.ptr_add(p[0], off);
        let v = b.i32(1);
        b.set_span(sp(33));
        b.store(q, v);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(256))],
        &NdRange::new(&[64]).local(&[16]),
    ));
    assert_eq!(e.kind, CheckKind::OutOfBounds);
    assert_eq!(e.span, sp(33));
    assert_eq!(e.global_id, [63, 0, 0]);
    assert_eq!(e.local_id, [15, 0, 0]);
    assert_eq!(e.group_id, [3, 0, 0]);
    assert_eq!(
        e.message,
        "out-of-bounds write of 4 bytes at offset 256 of __global buffer `buf` (256 bytes)"
    );
}

#[test]
fn out_of_bounds_private_array_names_variable() {
    // int a[4]; a[get_global_id(0)] = 0;
    let m = one_kernel(vec![], |b, _| {
        let a = b.stack_alloc_named(16, 4, "a");
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let four = b.i64(4);
        let off = b.bin(BinOp::Mul, gid, four);
        let q = b.ptr_add(a, off);
        let z = b.i32(0);
        b.set_span(sp(7));
        b.store(q, z);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[], &NdRange::new(&[8]).local(&[8])));
    assert_eq!(e.kind, CheckKind::OutOfBounds);
    assert_eq!(e.global_id, [4, 0, 0]);
    assert_eq!(e.span, sp(7));
    assert!(
        e.message.contains("__private variable `a` (16 bytes)"),
        "{}",
        e.message
    );
}

#[test]
fn null_dereference() {
    // int *p = 0; if (gid == 2) *p = 1;
    let m = one_kernel(vec![], |b, _| {
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let two = b.i64(2);
        let c = b.cmp(CmpOp::Eq, gid, two);
        let (then, _) = b.create_block(&[]);
        let (exit, _) = b.create_block(&[]);
        b.cond_br(c, then, vec![], exit, vec![]);
        b.switch_to(then);
        let n = b.null(AddrSpace::Generic);
        let one = b.i32(1);
        b.set_span(sp(44));
        b.store(n, one);
        b.br(exit, vec![]);
        b.switch_to(exit);
        b.ret(None);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[], &NdRange::new(&[4])));
    assert_eq!(e.kind, CheckKind::NullDereference);
    assert_eq!(e.span, sp(44));
    assert_eq!(e.global_id, [2, 0, 0]);
    assert_eq!(e.message, "write through a NULL pointer");
}

#[test]
fn space_casts_and_fences_are_exact() {
    // out[0..] = results of to_global/to_local/to_private and get_fence on generic pointers
    // made from a global, a local and a private pointer; NULL stays NULL.
    let m = one_kernel(
        vec![buf("out", AddrSpace::Global), buf("tmp", AddrSpace::Local)],
        |b, p| {
            let priv_ = b.stack_alloc_named(4, 4, "x");
            let mut slot = 0i64;
            let mut put = |b: &mut Builder, v: Value| {
                let off = b.i64(slot * 4);
                let q = b.ptr_add(p[0], off);
                b.store(q, v);
                slot += 1;
            };
            let srcs = [p[0], p[1], priv_];
            for &s in &srcs {
                let g = b.to_generic(s);
                for space in [AddrSpace::Global, AddrSpace::Local, AddrSpace::Private] {
                    let t = b.space_test(g, space);
                    let n = b.null(space);
                    let is = b.cmp(CmpOp::Ne, t, n);
                    let v = b.conv(ConvOp::ZExt, is, Type::I32);
                    put(b, v);
                }
                let f = b.get_fence(g);
                put(b, f);
            }
            let gn = b.null(AddrSpace::Generic);
            let ln = b.from_generic(gn, AddrSpace::Local);
            let ln2 = b.null(AddrSpace::Local);
            let eq = b.cmp(CmpOp::Eq, ln, ln2);
            let v = b.conv(ConvOp::ZExt, eq, Type::I32);
            put(b, v);
            let t = b.space_test(gn, AddrSpace::Global);
            let gnull = b.null(AddrSpace::Global);
            let eq = b.cmp(CmpOp::Eq, t, gnull);
            let v = b.conv(ConvOp::ZExt, eq, Type::I32);
            put(b, v);
        },
    );
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(14 * 4);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone()), Arg::Local(16)],
        &NdRange::new(&[1]),
    )
    .expect("runs");
    assert_eq!(
        i32s(&out.read()),
        vec![1, 0, 0, 2, 0, 1, 0, 1, 0, 0, 1, 0, 1, 1]
    );
}

#[test]
fn access_through_wrong_generic_cast() {
    // global int *g = (global int *)(generic pointer to local memory); *g = 1;
    let m = one_kernel(vec![buf("tmp", AddrSpace::Local)], |b, p| {
        let g = b.to_generic(p[0]);
        let bad = b.from_generic(g, AddrSpace::Global);
        let one = b.i32(1);
        b.set_span(sp(12));
        b.store(bad, one);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[Arg::Local(4)], &NdRange::new(&[2])));
    assert_eq!(e.kind, CheckKind::WrongSpace);
    assert_eq!(e.span, sp(12));
    assert_eq!(e.global_id, [0, 0, 0]);
    assert_eq!(
        e.message,
        "write through a pointer cast from generic to `__global`, but it points into __local memory"
    );
}

#[test]
fn write_to_constant_memory() {
    // A __constant pointer laundered through an integer is still constant.
    let m = one_kernel(vec![buf("c", AddrSpace::Constant)], |b, p| {
        let i = b.conv(ConvOp::PtrToInt, p[0], Type::I64);
        let g = b.int_to_ptr(i, AddrSpace::Global);
        let one = b.i32(1);
        b.set_span(sp(90));
        b.store(g, one);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(4))],
        &NdRange::new(&[1]),
    ));
    assert_eq!(e.kind, CheckKind::WriteToConstant);
    assert_eq!(e.span, sp(90));
    assert_eq!(e.message, "write to __constant memory (buffer `c`)");
}

#[test]
fn barrier_divergence_is_reported() {
    // if (lid < 2) barrier(CLK_LOCAL_MEM_FENCE);
    let m = one_kernel(vec![], |b, _| {
        let lid = b.work_item(WorkItemQuery::LocalId, 0);
        let two = b.i64(2);
        let c = b.cmp(CmpOp::Ult, lid, two);
        let (then, _) = b.create_block(&[]);
        let (exit, _) = b.create_block(&[]);
        b.cond_br(c, then, vec![], exit, vec![]);
        b.switch_to(then);
        b.set_span(sp(70));
        b.barrier(1);
        b.br(exit, vec![]);
        b.switch_to(exit);
        b.ret(None);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[], &NdRange::new(&[8]).local(&[4])));
    assert_eq!(e.kind, CheckKind::BarrierDivergence);
    assert_eq!(e.span, sp(70));
    assert_eq!(e.local_id, [2, 0, 0]);
    assert_eq!(e.group_id, [0, 0, 0]);
    assert!(
        e.message.contains("finished without reaching the barrier"),
        "{}",
        e.message
    );
}

#[test]
fn different_barriers_are_divergence() {
    // if (lid == 0) barrier(...) /*A*/ else barrier(...) /*B*/;
    let m = one_kernel(vec![], |b, _| {
        let lid = b.work_item(WorkItemQuery::LocalId, 0);
        let z = b.i64(0);
        let c = b.cmp(CmpOp::Eq, lid, z);
        let (a, _) = b.create_block(&[]);
        let (bb, _) = b.create_block(&[]);
        let (exit, _) = b.create_block(&[]);
        b.cond_br(c, a, vec![], bb, vec![]);
        b.switch_to(a);
        b.set_span(sp(80));
        b.barrier(1);
        b.br(exit, vec![]);
        b.switch_to(bb);
        b.set_span(sp(81));
        b.barrier(1);
        b.br(exit, vec![]);
        b.switch_to(exit);
        b.ret(None);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[], &NdRange::new(&[2]).local(&[2])));
    assert_eq!(e.kind, CheckKind::BarrierDivergence);
    assert_eq!(e.span, sp(81));
    assert_eq!(e.local_id, [1, 0, 0]);
    assert_eq!(e.note.as_ref().map(|n| n.0), Some(sp(80)));
}

#[test]
fn runaway_loop_hits_step_limit() {
    let m = one_kernel(vec![], |b, _| {
        let (l, _) = b.create_block(&[]);
        b.br(l, vec![]);
        b.switch_to(l);
        b.set_span(sp(5));
        b.br(l, vec![]);
    });
    let dev = device().with_max_steps(1000);
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &[], &NdRange::new(&[1])));
    assert_eq!(e.kind, CheckKind::StepLimit);
    assert_eq!(e.span, sp(5));
}

#[test]
fn local_data_race_is_found_only_when_enabled() {
    // tmp[0] = lid; (every work-item writes the same local int)
    let build = || {
        one_kernel(
            vec![buf("out", AddrSpace::Global), buf("tmp", AddrSpace::Local)],
            |b, p| {
                let lid = b.work_item(WorkItemQuery::LocalId, 0);
                let v = b.conv(ConvOp::Trunc, lid, Type::I32);
                b.set_span(sp(21));
                b.store(p[1], v);
            },
        )
    };
    let range = NdRange::new(&[4]).local(&[4]);
    let args = || vec![Arg::Buffer(Buffer::zeroed(4)), Arg::Local(4)];
    let dev = device();
    let prog = dev.load(build()).expect("valid");
    dev.launch(&prog, "k", &args(), &range)
        .expect("races are not checked by default");
    let dev = device().with_race_detection(true);
    let prog = dev.load(build()).expect("valid");
    let e = runtime_err(dev.launch(&prog, "k", &args(), &range));
    assert_eq!(e.kind, CheckKind::DataRace);
    assert_eq!(e.span, sp(21));
    assert_eq!(e.local_id, [1, 0, 0]);
    assert!(
        e.message.contains("__local argument `tmp` at offset 0"),
        "{}",
        e.message
    );
}

#[test]
fn program_scope_variables_persist_across_launches() {
    // global int counter = 5; kernel void k(global int *out) { out[0] = atomic_add(&counter, 1); }
    let mut m = Module::new();
    let g = m.add_global(GlobalVar {
        name: "counter".into(),
        space: AddrSpace::Global,
        size: 4,
        align: 4,
        init: 5i32.to_le_bytes().to_vec(),
        relocs: vec![],
        span: sp(1),
    });
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)]);
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        let gp = b.global_addr(g, AddrSpace::Global);
        let one = b.i32(1);
        let old = b.atomic_rmw(RmwOp::Add, gp, one, Order::Relaxed, Scope::Device);
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let four = b.i64(4);
        let off = b.bin(BinOp::Mul, gid, four);
        let q = b.ptr_add(p[0], off);
        b.store(q, old);
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(4 * 100);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone())],
        &NdRange::new(&[100]).local(&[10]),
    )
    .expect("runs");
    let mut got = i32s(&out.read());
    got.sort();
    assert_eq!(got, (5..105).collect::<Vec<_>>());
    dev.launch(&prog, "k", &[Arg::Buffer(out.clone())], &NdRange::new(&[1]))
        .expect("runs");
    assert_eq!(i32s(&out.read())[0], 105);
    assert_eq!(
        prog.read_global("counter"),
        Some(106i32.to_le_bytes().to_vec())
    );
}

#[test]
fn vectors_swizzles_and_2d_ranges_with_offsets() {
    // out[y * 4 + x] = (float4)(x, y, gx, gy).wzyx .. stored as the sum w*1000 + z*100 + y*10 + x
    let m = one_kernel(vec![buf("out", AddrSpace::Global)], |b, p| {
        let x = b.work_item(WorkItemQuery::LocalId, 0);
        let y = b.work_item(WorkItemQuery::LocalId, 1);
        let gx = b.work_item(WorkItemQuery::GlobalId, 0);
        let gy = b.work_item(WorkItemQuery::GlobalId, 1);
        let lanes: Vec<Value> = [x, y, gx, gy]
            .iter()
            .map(|v| b.conv(ConvOp::UToF, *v, Type::F32))
            .collect();
        let v = b.build(lanes);
        let s = b.shuffle(v, vec![3, 2, 1, 0]);
        let w = b.fconst(Type::Vector(Scalar::F32, 4), 0.0);
        let k = [1000.0, 100.0, 10.0, 1.0].map(|c| b.fconst(Type::F32, c));
        let kv = b.build(k.to_vec());
        let prod = b.bin(BinOp::FMul, s, kv);
        let sum = b.bin(BinOp::FAdd, prod, w);
        let mut acc = b.extract(sum, 0);
        for l in 1..4 {
            let e = b.extract(sum, l);
            acc = b.bin(BinOp::FAdd, acc, e);
        }
        let ox = b.work_item(WorkItemQuery::GlobalLinearId, 0);
        let four = b.i64(4);
        let off = b.bin(BinOp::Mul, ox, four);
        let q = b.ptr_add(p[0], off);
        b.store(q, acc);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(4 * 16);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone())],
        &NdRange::new(&[4, 4]).local(&[2, 2]).offset(&[1, 2]),
    )
    .expect("runs");
    let got: Vec<f32> = out
        .read()
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut want = Vec::new();
    for gy in 0..4u32 {
        for gx in 0..4u32 {
            let (x, y) = (gx % 2, gy % 2);
            want.push(((gy + 2) * 1000 + (gx + 1) * 100 + y * 10 + x) as f32);
        }
    }
    assert_eq!(got, want);
}

#[test]
fn printf_output_is_collected_in_group_order() {
    let mut m = Module::new();
    let fmt = b"gid %d: %v2f\n\0";
    let g = m.add_global(GlobalVar {
        name: ".str".into(),
        space: AddrSpace::Constant,
        size: fmt.len() as u32,
        align: 1,
        init: fmt.to_vec(),
        relocs: vec![],
        span: sp(1),
    });
    let mut k = kernel("k", vec![]);
    {
        let mut b = Builder::new(&mut k);
        let f = b.global_addr(g, AddrSpace::Constant);
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let g32 = b.conv(ConvOp::Trunc, gid, Type::I32);
        let h = b.fconst(Type::F32, 0.5);
        let gf = b.conv(ConvOp::UToF, g32, Type::F32);
        let v = b.build(vec![gf, h]);
        b.printf(f, vec![g32, v]);
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = dev
        .launch(&prog, "k", &[], &NdRange::new(&[4]).local(&[1]))
        .expect("runs");
    assert_eq!(
        out.printf,
        "gid 0: 0.000000,0.500000\ngid 1: 1.000000,0.500000\ngid 2: 2.000000,0.500000\ngid 3: 3.000000,0.500000\n"
    );
}

#[test]
fn bad_arguments_are_rejected_before_running() {
    let m = one_kernel(
        vec![buf("out", AddrSpace::Global), param("n", Type::I32)],
        |_, _| {},
    );
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let r = dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(4))],
        &NdRange::new(&[1]),
    );
    assert!(matches!(
        r,
        Err(DeviceError::ArgCount {
            expected: 2,
            given: 1,
            ..
        })
    ));
    let r = dev.launch(
        &prog,
        "k",
        &[Arg::Local(4), Arg::Bytes(vec![0; 4])],
        &NdRange::new(&[1]),
    );
    assert!(matches!(r, Err(DeviceError::BadArg { index: 0, .. })));
    let r = dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(4)), Arg::Bytes(vec![0; 2])],
        &NdRange::new(&[1]),
    );
    assert!(matches!(r, Err(DeviceError::BadArg { index: 1, .. })));
    let r = dev.launch(&prog, "nope", &[], &NdRange::new(&[1]));
    assert!(matches!(r, Err(DeviceError::NoSuchKernel(_))));
    let r = dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(4)), Arg::Bytes(vec![0; 4])],
        &NdRange::new(&[]),
    );
    assert!(matches!(r, Err(DeviceError::BadRange(_))));
}

#[test]
fn numeric_builtins_come_from_the_runtime() {
    // out[0] = sqrt(2.0f); out[1] = max(0xffffffffu, 1u); out[2] = max(-1, 1);
    // out[3] = frexp(8.0f, &e); out[4] = e;
    let mut m = Module::new();
    let sqrt = m.builtin(BuiltinDecl::new("sqrt", vec![Type::F32], Some(Type::F32)));
    let mut umax = BuiltinDecl::new("max", vec![Type::I32, Type::I32], Some(Type::I32));
    umax.unsigned = vec![true, true];
    umax.ret_unsigned = true;
    let umax = m.builtin(umax);
    let smax = m.builtin(BuiltinDecl::new(
        "max",
        vec![Type::I32, Type::I32],
        Some(Type::I32),
    ));
    let mut frexp = BuiltinDecl::new(
        "frexp",
        vec![Type::F32, Type::Ptr(AddrSpace::Private)],
        Some(Type::F32),
    );
    frexp.pointee[1] = Some(Type::I32);
    let frexp = m.builtin(frexp);
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)]);
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        let mut vals = Vec::new();
        let two = b.fconst(Type::F32, 2.0);
        vals.push(
            b.call_builtin(sqrt, vec![two], Some(Type::F32))
                .expect("value"),
        );
        let a = b.i32(-1);
        let one = b.i32(1);
        let r = b
            .call_builtin(umax, vec![a, one], Some(Type::I32))
            .expect("value");
        vals.push(b.bitcast(r, Type::F32));
        let r = b
            .call_builtin(smax, vec![a, one], Some(Type::I32))
            .expect("value");
        vals.push(b.bitcast(r, Type::F32));
        let e = b.stack_alloc_named(4, 4, "e");
        let eight = b.fconst(Type::F32, 8.0);
        vals.push(
            b.call_builtin(frexp, vec![eight, e], Some(Type::F32))
                .expect("value"),
        );
        let ev = b.load(Type::F32, e);
        vals.push(ev);
        for (i, v) in vals.into_iter().enumerate() {
            let off = b.i64(i as i64 * 4);
            let q = b.ptr_add(p[0], off);
            b.store(q, v);
        }
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(20);
    dev.launch(&prog, "k", &[Arg::Buffer(out.clone())], &NdRange::new(&[1]))
        .expect("runs");
    let w: Vec<u32> = out
        .read()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(
        w,
        vec![2f32.sqrt().to_bits(), 0xffff_ffff, 1, 0.5f32.to_bits(), 4]
    );
}

#[test]
fn global_race_between_work_groups() {
    // if (get_local_id(0) == 0) out[0] = get_group_id(0);
    let build = || {
        one_kernel(vec![buf("out", AddrSpace::Global)], |b, p| {
            let lid = b.work_item(WorkItemQuery::LocalId, 0);
            let z = b.i64(0);
            let c = b.cmp(CmpOp::Eq, lid, z);
            let (then, _) = b.create_block(&[]);
            let (exit, _) = b.create_block(&[]);
            b.cond_br(c, then, vec![], exit, vec![]);
            b.switch_to(then);
            let g = b.work_item(WorkItemQuery::GroupId, 0);
            let v = b.conv(ConvOp::Trunc, g, Type::I32);
            b.set_span(sp(31));
            b.store(p[0], v);
            b.br(exit, vec![]);
            b.switch_to(exit);
            b.ret(None);
        })
    };
    let dev = Device::cpu()
        .with_threads(1)
        .with_printf_echo(false)
        .with_race_detection(true);
    let prog = dev.load(build()).expect("valid");
    let e = runtime_err(dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(Buffer::zeroed(4))],
        &NdRange::new(&[8]).local(&[4]),
    ));
    assert_eq!(e.kind, CheckKind::DataRace);
    assert_eq!(e.span, sp(31));
    assert_eq!(e.group_id, [1, 0, 0]);
    assert_eq!(
        e.message,
        "data race on __global buffer `out` at offset 0: this work-item writes a byte that work-group (0, 0, 0) wrote (work-groups are not ordered)"
    );
}

#[test]
fn shuffle_builtins_permute_lanes() {
    // out = shuffle2((int4)(0,1,2,3), (int4)(4,5,6,7), (uint4)(7, 0, 9, 2))
    let mut m = Module::new();
    let v4 = Type::Vector(Scalar::I32, 4);
    let sh2 = m.builtin(BuiltinDecl::new("shuffle2", vec![v4, v4, v4], Some(v4)));
    let sh = m.builtin(BuiltinDecl::new("shuffle", vec![v4, v4], Some(v4)));
    let mut k = kernel("k", vec![buf("out", AddrSpace::Global)]);
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        let lanes = |b: &mut Builder, xs: [i32; 4]| {
            let v: Vec<Value> = xs.iter().map(|x| b.i32(*x)).collect();
            b.build(v)
        };
        let x = lanes(&mut b, [0, 1, 2, 3]);
        let y = lanes(&mut b, [4, 5, 6, 7]);
        let mk = lanes(&mut b, [7, 0, 9, 2]);
        let r = b
            .call_builtin(sh2, vec![x, y, mk], Some(v4))
            .expect("value");
        b.store(p[0], r);
        let mk = lanes(&mut b, [3, 3, 0, 5]);
        let r = b.call_builtin(sh, vec![x, mk], Some(v4)).expect("value");
        let sixteen = b.i64(16);
        let q = b.ptr_add(p[0], sixteen);
        b.store(q, r);
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(32);
    dev.launch(&prog, "k", &[Arg::Buffer(out.clone())], &NdRange::new(&[1]))
        .expect("runs");
    assert_eq!(i32s(&out.read()), vec![7, 0, 1, 2, 3, 3, 0, 1]);
}

#[test]
fn vload_vstore_and_half_conversions() {
    // double3 v = vload3(1, in); vstore3(v * 2, 0, out);
    // float4 h = vload_half4(0, halves); vstore_half4_rtz(h * 3, 0, hout);
    let mut m = Module::new();
    let d3 = Type::Vector(Scalar::F64, 3);
    let f4 = Type::Vector(Scalar::F32, 4);
    let g = Type::Ptr(AddrSpace::Global);
    let mut vl = BuiltinDecl::new("vload3", vec![Type::I64, g], Some(d3));
    vl.pointee[1] = Some(Type::F64);
    let vl = m.builtin(vl);
    let mut vs = BuiltinDecl::new("vstore3", vec![d3, Type::I64, g], None);
    vs.pointee[2] = Some(Type::F64);
    let vs = m.builtin(vs);
    let mut hl = BuiltinDecl::new("vload_half4", vec![Type::I64, g], Some(f4));
    hl.pointee[1] = Some(Type::F16);
    let hl = m.builtin(hl);
    let mut hs = BuiltinDecl::new("vstore_half4_rtz", vec![f4, Type::I64, g], None);
    hs.pointee[2] = Some(Type::F16);
    let hs = m.builtin(hs);
    let mut k = kernel(
        "k",
        vec![
            buf("in", AddrSpace::Global),
            buf("out", AddrSpace::Global),
            buf("halves", AddrSpace::Global),
            buf("hout", AddrSpace::Global),
        ],
    );
    {
        let mut b = Builder::new(&mut k);
        let p = b.params(Block(0));
        let one = b.i64(1);
        let zero = b.i64(0);
        let v = b
            .call_builtin(vl, vec![one, p[0]], Some(d3))
            .expect("value");
        let two = b.fconst(d3, 2.0);
        let v2 = b.bin(BinOp::FMul, v, two);
        b.call_builtin(vs, vec![v2, zero, p[1]], None);
        let h = b
            .call_builtin(hl, vec![zero, p[2]], Some(f4))
            .expect("value");
        let three = b.fconst(f4, 3.0);
        let h3 = b.bin(BinOp::FMul, h, three);
        b.call_builtin(hs, vec![h3, zero, p[3]], None);
        b.ret(None);
    }
    m.add_function(k);
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let input: Vec<u8> = (0..6)
        .flat_map(|i| (i as f64 + 0.5).to_le_bytes())
        .collect();
    let out = Buffer::zeroed(4 * 8);
    let halves: Vec<u8> = [0x3c00u16, 0x3555, 0xc000, 0x7bff]
        .iter()
        .flat_map(|h| h.to_le_bytes())
        .collect();
    let hout = Buffer::zeroed(8);
    dev.launch(
        &prog,
        "k",
        &[
            Arg::Buffer(Buffer::from_bytes(&input)),
            Arg::Buffer(out.clone()),
            Arg::Buffer(Buffer::from_bytes(&halves)),
            Arg::Buffer(hout.clone()),
        ],
        &NdRange::new(&[1]),
    )
    .expect("runs");
    let got: Vec<f64> = out
        .read()
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    assert_eq!(got, vec![7.0, 9.0, 11.0, 0.0]);
    let hs: Vec<u16> = hout
        .read()
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    // 3.0, 0.99975586 (rtz of 0.999755859375 * ... ), -6.0, 65504 * 3 -> rtz gives max finite.
    assert_eq!(hs, vec![0x4200, 0x3bff, 0xc600, 0x7bff]);
}

#[test]
fn dynamic_lanes_switch_select_and_vector_compares() {
    // int4 v = (int4)(10, 20, 30, 40); v[i] = 99; out[0] = v[(i + 1)];
    // int4 m = v > (int4)(25) -> (0, -1 or ..); out[1..5] = m; out[5] = select(1, 2, i == 2)
    // switch (i) { case 2: out[6] = 7; break; default: out[6] = 8; }
    let m = one_kernel(
        vec![buf("out", AddrSpace::Global), param("i", Type::I32)],
        |b, p| {
            let v4 = Type::Vector(Scalar::I32, 4);
            let lanes: Vec<Value> = [10, 20, 30, 40].iter().map(|x| b.i32(*x)).collect();
            let v = b.build(lanes);
            let n99 = b.i32(99);
            let v = b.insert_dyn(v, n99, p[1]);
            let one = b.i32(1);
            let i1 = b.bin(BinOp::Add, p[1], one);
            let e = b.extract_dyn(v, i1);
            let mut slot = 0i64;
            let mut put = |b: &mut Builder, x: Value| {
                let off = b.i64(slot * 4);
                let q = b.ptr_add(p[0], off);
                b.store(q, x);
                slot += 1;
            };
            put(b, e);
            let k = b.iconst(v4, 25);
            let c = b.cmp(CmpOp::Sgt, v, k);
            let mv = b.conv(ConvOp::SExt, c, v4);
            for l in 0..4 {
                let x = b.extract(mv, l);
                put(b, x);
            }
            let two = b.i32(2);
            let is2 = b.cmp(CmpOp::Eq, p[1], two);
            let s = b.select(is2, two, one);
            put(b, s);
            let (c2, _) = b.create_block(&[]);
            let (dflt, _) = b.create_block(&[]);
            let (join, jp) = b.create_block(&[Type::I32]);
            b.switch(
                p[1],
                vec![(
                    2,
                    BlockCall {
                        block: c2,
                        args: vec![],
                    },
                )],
                BlockCall {
                    block: dflt,
                    args: vec![],
                },
            );
            b.switch_to(c2);
            let seven = b.i32(7);
            b.br(join, vec![seven]);
            b.switch_to(dflt);
            let eight = b.i32(8);
            b.br(join, vec![eight]);
            b.switch_to(join);
            put(b, jp[0]);
            b.ret(None);
        },
    );
    let dev = device();
    let prog = dev.load(m).expect("valid");
    for (i, expect) in [
        (2, vec![40, 0, 0, -1, -1, 2, 7]),
        (0, vec![20, -1, 0, -1, -1, 1, 8]),
    ] {
        let out = Buffer::zeroed(28);
        dev.launch(
            &prog,
            "k",
            &[
                Arg::Buffer(out.clone()),
                Arg::Bytes(i32::to_le_bytes(i).to_vec()),
            ],
            &NdRange::new(&[1]),
        )
        .expect("runs");
        let got = i32s(&out.read());
        assert_eq!(got, expect, "i = {i}");
    }
}

#[test]
fn slot_based_loops_run_after_promotion() {
    // int s = 0; for (int i = 0; i <= gid; i++) s += i; out[gid] = s;  (s and i in slots)
    let m = one_kernel(vec![buf("out", AddrSpace::Global)], |b, p| {
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let g32 = b.conv(ConvOp::Trunc, gid, Type::I32);
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
        let c = b.cmp(CmpOp::Sle, iv, g32);
        b.cond_br(c, body, vec![], exit, vec![]);
        b.switch_to(body);
        let sv = b.load(Type::I32, s);
        let s2 = b.bin(BinOp::Add, sv, iv);
        b.store(s, s2);
        let one = b.i32(1);
        let i2 = b.bin(BinOp::Add, iv, one);
        b.store(i, i2);
        b.br(head, vec![]);
        b.switch_to(exit);
        let r = b.load(Type::I32, s);
        let four = b.i64(4);
        let off = b.bin(BinOp::Mul, gid, four);
        let q = b.ptr_add(p[0], off);
        b.store(q, r);
        b.ret(None);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    assert!(!oclc_ir::print_module(prog.module(), None).contains("stack_alloc"));
    let out = Buffer::zeroed(4 * 32);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone())],
        &NdRange::new(&[32]),
    )
    .expect("runs");
    assert_eq!(
        i32s(&out.read()),
        (0..32).map(|g| g * (g + 1) / 2).collect::<Vec<i32>>()
    );
}

#[test]
fn work_group_collectives() {
    // x = (int)lid * 3 - 4; out[gid*6 + 0..6] = reduce_add(x), scan_inclusive_smax(x),
    // scan_exclusive_add(x), broadcast(x, 2), all(x > -5), any(x == 5)
    let m = one_kernel(vec![buf("out", AddrSpace::Global)], |b, p| {
        let lid = b.work_item(WorkItemQuery::LocalId, 0);
        let gid = b.work_item(WorkItemQuery::GlobalId, 0);
        let l32 = b.conv(ConvOp::Trunc, lid, Type::I32);
        let three = b.i32(3);
        let four = b.i32(4);
        let t = b.bin(BinOp::Mul, l32, three);
        let x = b.bin(BinOp::Sub, t, four);
        let two = b.i64(2);
        let m5 = b.i32(-5);
        let gt = b.cmp(CmpOp::Sgt, x, m5);
        let gt = b.conv(ConvOp::ZExt, gt, Type::I32);
        let five = b.i32(5);
        let eq = b.cmp(CmpOp::Eq, x, five);
        let eq = b.conv(ConvOp::ZExt, eq, Type::I32);
        let vals = [
            b.work_group(WgOp::Reduce(WgArith::IAdd), x, vec![]),
            b.work_group(WgOp::ScanInclusive(WgArith::SMax), x, vec![]),
            b.work_group(WgOp::ScanExclusive(WgArith::IAdd), x, vec![]),
            b.work_group(WgOp::Broadcast, x, vec![two]),
            b.work_group(WgOp::All, gt, vec![]),
            b.work_group(WgOp::Any, eq, vec![]),
        ];
        let six = b.i64(6);
        let base = b.bin(BinOp::Mul, gid, six);
        for (k, v) in vals.into_iter().enumerate() {
            let kk = b.i64(k as i64);
            let idx = b.bin(BinOp::Add, base, kk);
            let f4 = b.i64(4);
            let off = b.bin(BinOp::Mul, idx, f4);
            let q = b.ptr_add(p[0], off);
            b.store(q, v);
        }
        b.ret(None);
    });
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(8 * 6 * 4);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone())],
        &NdRange::new(&[8]).local(&[4]),
    )
    .expect("runs");
    let got = i32s(&out.read());
    // x per group = [-4, -1, 2, 5]
    let xs = [-4, -1, 2, 5];
    let mut want = Vec::new();
    for _ in 0..2 {
        let mut incl_max = i32::MIN;
        let mut excl = 0;
        for &x in &xs {
            incl_max = incl_max.max(x);
            want.extend([2, incl_max, excl, 2, 1, 1]);
            excl += x;
        }
    }
    assert_eq!(got, want);
}

#[test]
fn negative_index_reports_negative_offset() {
    // int i = -1; buf[i] = 0;   (sext + mul + ptradd fused into one indexing step)
    let m = one_kernel(
        vec![buf("buf", AddrSpace::Global), param("i", Type::I32)],
        |b, p| {
            let i = b.conv(ConvOp::SExt, p[1], Type::I64);
            let four = b.i64(4);
            let off = b.bin(BinOp::Mul, i, four);
            let q = b.ptr_add(p[0], off);
            let z = b.i32(0);
            b.set_span(sp(3));
            b.store(q, z);
        },
    );
    let dev = device();
    let prog = dev.load(m).expect("valid");
    let e = runtime_err(dev.launch(
        &prog,
        "k",
        &[
            Arg::Buffer(Buffer::zeroed(16)),
            Arg::Bytes((-1i32).to_le_bytes().to_vec()),
        ],
        &NdRange::new(&[1]),
    ));
    assert_eq!(e.kind, CheckKind::OutOfBounds);
    assert_eq!(e.span, sp(3));
    assert_eq!(
        e.message,
        "out-of-bounds write of 4 bytes at offset -4 of __global buffer `buf` (16 bytes)"
    );
}

#[test]
fn runtime_errors_become_diagnostics() {
    let e = RuntimeError {
        kind: CheckKind::NullDereference,
        message: "read through a NULL pointer".into(),
        span: sp(9),
        global_id: [5, 0, 0],
        local_id: [1, 0, 0],
        group_id: [2, 0, 0],
        note: Some((sp(4), "work-item (0, 0, 0) waits at this barrier".into())),
        ..RuntimeError::default()
    };
    let d = e.to_diagnostic();
    assert_eq!(d.level, oclc_syntax::Level::Error);
    assert_eq!(d.span, sp(9));
    assert_eq!(d.message, "read through a NULL pointer");
    assert_eq!(
        d.notes[0].message,
        "in the work-item with global id (5, 0, 0), local id (1, 0, 0), group id (2, 0, 0)"
    );
    assert_eq!(d.notes[1].span, sp(4));
}

#[test]
fn uniform_writes_are_not_races() {
    // tmp[0] = 7; out[gid] = tmp[0];   (every work-item stores the same value)
    let m = one_kernel(
        vec![buf("out", AddrSpace::Global), buf("tmp", AddrSpace::Local)],
        |b, p| {
            let seven = b.i32(7);
            b.store(p[1], seven);
            let v = b.load(Type::I32, p[1]);
            let gid = b.work_item(WorkItemQuery::GlobalId, 0);
            let four = b.i64(4);
            let off = b.bin(BinOp::Mul, gid, four);
            let q = b.ptr_add(p[0], off);
            b.store(q, v);
        },
    );
    let dev = device().with_race_detection(true);
    let prog = dev.load(m).expect("valid");
    let out = Buffer::zeroed(4 * 8);
    dev.launch(
        &prog,
        "k",
        &[Arg::Buffer(out.clone()), Arg::Local(4)],
        &NdRange::new(&[8]).local(&[4]),
    )
    .expect("no race");
    assert_eq!(i32s(&out.read()), vec![7; 8]);
}
