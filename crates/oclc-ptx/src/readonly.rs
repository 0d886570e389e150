//! Which `__global` buffer parameters a kernel provably never writes, and which of its loads
//! read only through such parameters: the facts that let a launch use `ld.global.nc`.
//!
//! Every pointer value gets the set of kernel parameters it may be derived from (through
//! pointer arithmetic, generic conversions, selects, block arguments and calls), or
//! `unknown` when it may come from anywhere (loaded from memory, made from an integer). A
//! parameter is written when a store, atomic, `memcpy`/`memset` destination or writing
//! builtin goes through a pointer that may derive from it, when such a pointer escapes
//! (stored to memory, turned into an integer or an aggregate), or when anything is written
//! through an `unknown` pointer. Any operation not understood counts as a write.

use oclc_ir::{AddrSpace, ConvOp, FuncId, Function, Module, Op, ParamKind, Type, Value};
use std::collections::HashMap;

/// Kernel parameters tracked individually; later ones are treated as `unknown`.
const TRACKED: usize = 64;

/// Deepest call chain analysed before giving up (treating everything as written).
const MAX_DEPTH: u32 = 64;

/// The parameters a pointer may derive from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Origins {
    /// Bit `k`: kernel parameter `k`.
    pub params: u64,
    /// May point anywhere, including into any buffer.
    pub unknown: bool,
}

impl Origins {
    const UNKNOWN: Origins = Origins {
        params: 0,
        unknown: true,
    };

    fn param(k: usize) -> Origins {
        if k < TRACKED {
            Origins {
                params: 1 << k,
                unknown: false,
            }
        } else {
            Origins::UNKNOWN
        }
    }

    fn union(self, o: Origins) -> Origins {
        Origins {
            params: self.params | o.params,
            unknown: self.unknown || o.unknown,
        }
    }
}

/// What one function does with the pointers it is given.
#[derive(Clone, Debug, Default)]
struct Summary {
    /// Origins written (or escaped) by the function and its callees.
    written: Origins,
    /// Origins of the pointer it returns.
    ret: Origins,
}

/// The read-only facts of one kernel.
#[derive(Clone, Debug, Default)]
pub struct KernelFacts {
    /// Per parameter: a `__global` buffer the kernel provably never writes.
    pub read_only: Vec<bool>,
    /// Per function index (the kernel and every function it calls), per value: the
    /// parameters it may derive from, over every call of the function from the kernel.
    pub origins: HashMap<usize, Vec<Origins>>,
}

impl KernelFacts {
    /// Whether a load through `p` in function `func` reads only buffers of the parameters
    /// in `nc` (a bit set), however the kernel reaches it.
    pub fn nc_load(&self, func: usize, p: Value, nc: u64) -> bool {
        self.origins
            .get(&func)
            .and_then(|v| v.get(p.index()))
            .is_some_and(|o| !o.unknown && o.params != 0 && o.params & !nc == 0)
    }
}

/// The read-only facts of kernel `kernel` of `m`.
pub fn kernel_facts(m: &Module, kernel: FuncId) -> KernelFacts {
    let Some(f) = m.function(kernel) else {
        return KernelFacts::default();
    };
    let inputs: Vec<Origins> = f
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| match p.kind {
            ParamKind::Buffer(AddrSpace::Global | AddrSpace::Constant) => Origins::param(k),
            _ => Origins::default(),
        })
        .collect();
    let mut a = Analysis {
        m,
        memo: HashMap::new(),
        seen: HashMap::new(),
    };
    let (sum, origins) = a.function(f, &inputs, 0);
    a.seen.insert(kernel.index(), origins);
    let read_only = f
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| {
            p.kind == ParamKind::Buffer(AddrSpace::Global)
                && k < TRACKED
                && !sum.written.unknown
                && sum.written.params & (1 << k) == 0
        })
        .collect();
    KernelFacts {
        read_only,
        origins: a.seen,
    }
}

struct Analysis<'a> {
    m: &'a Module,
    memo: HashMap<(u32, Vec<Origins>), Summary>,
    /// Per called function, its values' origins over every context analysed.
    seen: HashMap<usize, Vec<Origins>>,
}

/// Builtins that only read through their pointer arguments.
fn reads_only(name: &str) -> bool {
    name.starts_with("vload") || name == "prefetch"
}

impl Analysis<'_> {
    fn call(&mut self, fid: FuncId, args: Vec<Origins>, depth: u32) -> Summary {
        let all = args.iter().fold(Origins::default(), |a, o| a.union(*o));
        let give_up = Summary {
            written: all.union(Origins::UNKNOWN),
            ret: Origins::UNKNOWN,
        };
        if depth >= MAX_DEPTH {
            return give_up;
        }
        let key = (fid.0, args);
        if let Some(s) = self.memo.get(&key) {
            return s.clone();
        }
        let m = self.m;
        let Some(f) = m.function(fid) else {
            return give_up;
        };
        let (s, vals) = self.function(f, &key.1, depth + 1);
        let all = self
            .seen
            .entry(fid.index())
            .or_insert_with(|| vec![Origins::default(); vals.len()]);
        for (a, v) in all.iter_mut().zip(vals) {
            *a = a.union(v);
        }
        self.memo.insert(key, s.clone());
        s
    }

    /// Origins of every value of `f` given its parameters' origins, and its summary.
    fn function(
        &mut self,
        f: &Function,
        inputs: &[Origins],
        depth: u32,
    ) -> (Summary, Vec<Origins>) {
        let mut val = vec![Origins::default(); f.values.len()];
        for (v, o) in f.params_of(f.entry()).iter().zip(inputs) {
            if let Some(x) = val.get_mut(v.index()) {
                *x = *o;
            }
        }
        let mut sum = Summary::default();
        // Origins only grow, over a finite lattice: this reaches the fixed point.
        loop {
            let mut changed = false;
            for b in &f.blocks {
                for &i in &b.insts {
                    let Some(d) = f.insts.get(i.index()) else {
                        continue;
                    };
                    let step = self.inst(f, &val, &d.op, depth);
                    sum.written = sum.written.union(step.write);
                    sum.ret = sum.ret.union(step.ret);
                    let result = d.result.filter(|r| is_ptr(f, *r)).map(|r| (r, step.result));
                    for (v, o) in step.edges.into_iter().chain(result) {
                        if let Some(x) = val.get_mut(v.index()) {
                            let n = x.union(o);
                            if n != *x {
                                *x = n;
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        (sum, val)
    }

    /// What one instruction does, given the origins found so far.
    fn inst(&mut self, f: &Function, val: &[Origins], op: &Op, depth: u32) -> Step {
        let get = |v: &Value| val.get(v.index()).copied().unwrap_or(Origins::UNKNOWN);
        let mut s = Step::default();
        s.result = match op {
            Op::PtrAdd(p, _) | Op::ToGeneric(p) | Op::FromGeneric(p, _) | Op::SpaceTest(p, _) => {
                get(p)
            }
            Op::Select(_, a, b) => get(a).union(get(b)),
            Op::Load(_) | Op::AtomicLoad { .. } | Op::IntToPtr(_) => Origins::UNKNOWN,
            Op::Store { ptr, value } => {
                s.write = get(ptr).union(get(value));
                Origins::default()
            }
            Op::AtomicStore { ptr, value, .. } | Op::AtomicRmw { ptr, value, .. } => {
                s.write = get(ptr).union(get(value));
                Origins::UNKNOWN
            }
            Op::AtomicCmpXchg {
                ptr,
                expected,
                desired,
                ..
            } => {
                s.write = get(ptr).union(get(expected)).union(get(desired));
                Origins::UNKNOWN
            }
            Op::Memcpy { dst, .. } | Op::Memset { dst, .. } => {
                s.write = get(dst);
                Origins::default()
            }
            Op::Call(fid, args) => {
                let sum = self.call(*fid, args.iter().map(get).collect(), depth);
                s.write = sum.written;
                sum.ret
            }
            Op::CallBuiltin(bid, args) => {
                let ro = self
                    .m
                    .builtins
                    .get(bid.index())
                    .is_some_and(|b| reads_only(&b.name));
                if !ro {
                    s.write = args.iter().map(get).fold(s.write, Origins::union);
                }
                Origins::UNKNOWN
            }
            Op::Ret(Some(v)) => {
                s.ret = get(v);
                Origins::default()
            }
            Op::Br(_) | Op::CondBr(..) | Op::Switch(..) => {
                for t in op.successors() {
                    for (p, a) in f.params_of(t.block).iter().zip(&t.args) {
                        s.edges.push((*p, get(a)));
                    }
                }
                Origins::default()
            }
            Op::Cmp(..)
            | Op::PtrDiff(..)
            | Op::GetFence(_)
            | Op::Printf(..)
            | Op::Conv(ConvOp::ToBool, _) => Origins::default(),
            // Private, local and program-scope storage never aliases a buffer.
            Op::StackAlloc { .. } | Op::LocalAddr(_) | Op::GlobalAddr(_) | Op::Const(_) => {
                Origins::default()
            }
            Op::Undef => Origins::default(),
            op => {
                // Anything else that takes a pointer lets it escape.
                op.for_each_operand(|v| {
                    if is_ptr(f, v) {
                        s.write = s.write.union(get(&v));
                    }
                });
                Origins::UNKNOWN
            }
        };
        s
    }
}

/// The effects of one instruction.
#[derive(Default)]
struct Step {
    result: Origins,
    write: Origins,
    ret: Origins,
    /// Block parameters and the origins a branch passes them.
    edges: Vec<(Value, Origins)>,
}

fn is_ptr(f: &Function, v: Value) -> bool {
    matches!(f.value_type(v), Some(Type::Ptr(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_union_and_tracking_limit() {
        let a = Origins::param(0).union(Origins::param(3));
        assert_eq!(a.params, 0b1001);
        assert!(!a.unknown);
        assert!(Origins::param(TRACKED).unknown);
        let f = KernelFacts {
            read_only: vec![],
            origins: HashMap::from([(3, vec![a, Origins::UNKNOWN, Origins::default()])]),
        };
        assert!(f.nc_load(3, Value(0), 0b1001));
        assert!(!f.nc_load(3, Value(0), 0b0001));
        assert!(!f.nc_load(3, Value(1), u64::MAX));
        assert!(!f.nc_load(3, Value(2), u64::MAX));
        assert!(!f.nc_load(3, Value(9), u64::MAX));
        assert!(!f.nc_load(0, Value(0), u64::MAX));
    }
}
