//! Times a naive matrix multiply built with the IR builder on the cpu device and reports
//! interpreted IR operations per second. `cargo run --release -p oclc-cpu --example matmul_bench [N] [threads]`

use oclc_cpu::{Arg, Buffer, Device, NdRange};
use oclc_ir::*;
use oclc_syntax::Span;
use std::time::Instant;

/// `kernel void matmul(global const float *a, global const float *b, global float *c, int n)`:
/// `c[row * n + col] = sum_k a[row * n + k] * b[k * n + col]`.
fn matmul() -> Module {
    let mut m = Module::new();
    let g = |name: &str| Param {
        name: name.into(),
        ty: Type::Ptr(AddrSpace::Global),
        kind: ParamKind::Buffer(AddrSpace::Global),
        c_type: "__global float *".into(),
    };
    let n = Param {
        name: "n".into(),
        ty: Type::I32,
        kind: ParamKind::Value,
        c_type: "int".into(),
    };
    let mut f = Function::new("matmul", vec![g("a"), g("b"), g("c"), n], None, Span::DUMMY);
    f.kernel = Some(KernelInfo::default());
    let mut b = Builder::new(&mut f);
    let p = b.params(Block(0));
    let col = b.work_item(WorkItemQuery::GlobalId, 0);
    let row = b.work_item(WorkItemQuery::GlobalId, 1);
    let col = b.conv(ConvOp::Trunc, col, Type::I32);
    let row = b.conv(ConvOp::Trunc, row, Type::I32);
    let zero = b.i32(0);
    let fz = b.fconst(Type::F32, 0.0);
    let (head, hp) = b.create_block(&[Type::I32, Type::F32]);
    let (body, _) = b.create_block(&[]);
    let (exit, _) = b.create_block(&[]);
    b.br(head, vec![zero, fz]);
    b.switch_to(head);
    let c = b.cmp(CmpOp::Slt, hp[0], p[3]);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let rn = b.bin(BinOp::Mul, row, p[3]);
    let ai = b.bin(BinOp::Add, rn, hp[0]);
    let kn = b.bin(BinOp::Mul, hp[0], p[3]);
    let bi = b.bin(BinOp::Add, kn, col);
    let ai = b.conv(ConvOp::SExt, ai, Type::I64);
    let bi = b.conv(ConvOp::SExt, bi, Type::I64);
    let four = b.i64(4);
    let ao = b.bin(BinOp::Mul, ai, four);
    let bo = b.bin(BinOp::Mul, bi, four);
    let ap = b.ptr_add(p[0], ao);
    let bp = b.ptr_add(p[1], bo);
    let x = b.load(Type::F32, ap);
    let y = b.load(Type::F32, bp);
    let xy = b.bin(BinOp::FMul, x, y);
    let acc = b.bin(BinOp::FAdd, hp[1], xy);
    let one = b.i32(1);
    let k1 = b.bin(BinOp::Add, hp[0], one);
    b.br(head, vec![k1, acc]);
    b.switch_to(exit);
    let rn = b.bin(BinOp::Mul, row, p[3]);
    let ci = b.bin(BinOp::Add, rn, col);
    let ci = b.conv(ConvOp::SExt, ci, Type::I64);
    let four = b.i64(4);
    let co = b.bin(BinOp::Mul, ci, four);
    let cp = b.ptr_add(p[2], co);
    b.store(cp, hp[1]);
    b.ret(None);
    m.add_function(f);
    m
}

/// `kernel void reduce(global const int *in, global int *out, local int *scratch)`: tree
/// reduction of each group into `out[group]`.
fn reduction() -> Module {
    let mut m = Module::new();
    let g = |name: &str, s: AddrSpace| Param {
        name: name.into(),
        ty: Type::Ptr(s),
        kind: ParamKind::Buffer(s),
        c_type: String::new(),
    };
    let mut k = Function::new(
        "reduce",
        vec![
            g("in", AddrSpace::Global),
            g("out", AddrSpace::Global),
            g("scratch", AddrSpace::Local),
        ],
        None,
        Span::DUMMY,
    );
    k.kernel = Some(KernelInfo::default());
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

fn bench_reduce_module(dev: &Device, n: usize, module: Module) {
    let prog = match dev.load(module) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let input: Vec<u8> = (0..n as i32).flat_map(|i| (i % 13).to_le_bytes()).collect();
    let out = Buffer::zeroed(n / 256 * 4);
    let args = [
        Arg::Buffer(Buffer::from_bytes(&input)),
        Arg::Buffer(out.clone()),
        Arg::Local(256 * 4),
    ];
    let t = Instant::now();
    if let Err(e) = dev.launch(
        &prog,
        "reduce",
        &args,
        &NdRange::new(&[n as u64]).local(&[256]),
    ) {
        eprintln!("{e}");
        return;
    }
    let dt = t.elapsed().as_secs_f64();
    let total: i64 = out
        .read()
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64)
        .sum();
    let want: i64 = (0..n as i64).map(|i| i % 13).sum();
    println!(
        "reduce {n} ints (groups of 256): {:.3} s, sum {total} (want {want})",
        dt
    );
}

const MATMUL_CL: &str =
    "kernel void matmul(global const float *a, global const float *b, global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
kernel void reduce(global const int *in, global int *out, local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
";

/// The same kernels written in OpenCL C, through the front end and lowering.
fn from_source() -> Option<Module> {
    use oclc_syntax::pp::{self, PpOptions};
    use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
    let lang = LangOptions::new(ClStd::Cl12);
    let mut sm = SourceMap::new();
    let main = sm.add_text("bench.cl", MATMUL_CL.to_string());
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions {
        lang: lang.clone(),
        macros: Vec::new(),
        include_dirs: Vec::new(),
    };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    if diags.has_errors() {
        return None;
    }
    oclc_lower::lower(&program, &sm, &mut diags)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(256);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let dev = Device::cpu().with_threads(threads);
    let source = args.iter().any(|a| a == "--cl");
    let module = if source {
        from_source()
    } else {
        Some(matmul())
    };
    let Some(module) = module else {
        eprintln!("the OpenCL C source did not compile");
        return;
    };
    if source {
        let mut opt = module.clone();
        oclc_ir::passes::optimize_for_device(&mut opt);
        println!("{}", oclc_ir::print_module(&opt, None));
        let reduce_src = from_source().unwrap_or_default();
        bench_reduce_module(&dev, 1 << 22, reduce_src);
    } else {
        bench_reduce_module(&dev, 1 << 22, reduction());
    }
    let prog = match dev.load(module) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
    let bm: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let c = Buffer::zeroed(n * n * 4);
    let args = [
        Arg::Buffer(Buffer::from_bytes(&bytes(&a))),
        Arg::Buffer(Buffer::from_bytes(&bytes(&bm))),
        Arg::Buffer(c.clone()),
        Arg::Bytes((n as i32).to_le_bytes().to_vec()),
    ];
    let t = Instant::now();
    if let Err(e) = dev.launch(
        &prog,
        "matmul",
        &args,
        &NdRange::new(&[n as u64, n as u64]).local(&[16, 16]),
    ) {
        eprintln!("{e}");
        return;
    }
    let dt = t.elapsed().as_secs_f64();
    let out: Vec<f32> = c
        .read()
        .chunks(4)
        .map(|q| f32::from_le_bytes([q[0], q[1], q[2], q[3]]))
        .collect();
    let want: f32 = (0..n).map(|k| a[k] * bm[k * n]).sum();
    // Inner loop: 17 IR instructions per iteration (cmp+cond_br fused into one).
    let ops = (n * n * n * 17) as f64;
    println!(
        "matmul {n}x{n}: {:.3} s, {:.0} M IR ops/s, c[0] = {} (want {want})",
        dt,
        ops / dt / 1e6,
        out[0]
    );
}
