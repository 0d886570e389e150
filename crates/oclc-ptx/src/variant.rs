//! Launch variants of a kernel ([`crate::KernelVariant`]): what makes a kernel eligible
//! ([`Traits`]), and the emitter's part: the work-group ids of the launch, the repeated body
//! of a coarsened kernel, and `ld.global.nc` for loads from read-only buffers.

use crate::KernelVariant;
use crate::emit::FnEmitter;
use crate::readonly::{KernelFacts, kernel_facts};
use crate::regs::Rc;
use oclc_ir::{AddrSpace, FuncId, Module, Op, ParamKind, Type, Value};
use std::fmt::Write;

/// The largest kernel body (in IR instructions) that coarsening repeats.
const MAX_COARSEN_INSTS: usize = 2000;

/// Functions reachable through calls from `kernel` (the kernel itself excluded unless it
/// calls itself indirectly, which OpenCL C forbids).
pub fn reachable(m: &Module, kernel: FuncId) -> Vec<bool> {
    let mut seen = vec![false; m.functions.len()];
    let mut todo = vec![kernel];
    while let Some(f) = todo.pop() {
        let Some(func) = m.function(f) else { continue };
        for d in &func.insts {
            if let Op::Call(c, _) = d.op
                && let Some(s) = seen.get_mut(c.index())
                && !*s
            {
                *s = true;
                todo.push(c);
            }
        }
    }
    seen
}

/// What a launch of one kernel may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traits {
    pub read_only: Vec<bool>,
    pub vector_params: Vec<bool>,
    pub coarsenable: bool,
    pub uses_globals: bool,
}

impl Traits {
    pub fn of(m: &Module, kernel: FuncId) -> Traits {
        let Some(k) = m.function(kernel) else {
            return Traits {
                read_only: Vec::new(),
                vector_params: Vec::new(),
                coarsenable: false,
                uses_globals: true,
            };
        };
        let mut funcs = reachable(m, kernel);
        if let Some(s) = funcs.get_mut(kernel.index()) {
            *s = true;
        }
        let insts = || {
            m.functions
                .iter()
                .zip(&funcs)
                .filter(|(_, r)| **r)
                .flat_map(|(f, _)| &f.insts)
        };
        let uses_globals = insts().any(|d| match d.op {
            Op::GlobalAddr(g) => m
                .globals
                .get(g.index())
                .is_none_or(|g| g.space != AddrSpace::Constant),
            _ => false,
        });
        let group_bound = insts().any(|d| match &d.op {
            Op::Barrier { .. } | Op::WorkGroup { .. } | Op::LocalAddr(_) | Op::Printf(..) => true,
            Op::CallBuiltin(b, _) => m.builtins.get(b.index()).is_none_or(|b| {
                crate::async_copy::handles(&b.name)
                    || b.name.starts_with("sub_group")
                    || b.name.starts_with("intel_sub_group")
                    || b.name.starts_with("work_group")
            }),
            _ => false,
        });
        // `__local` buffers are per work-group; by-value structs are copied into private
        // memory once per thread, which the repetitions would share.
        let per_item_params = k.params.iter().all(|p| {
            !matches!(
                p.kind,
                ParamKind::Buffer(AddrSpace::Local) | ParamKind::Aggregate { .. }
            )
        });
        Traits {
            read_only: kernel_facts(m, kernel).read_only,
            vector_params: vector_params(m, k),
            coarsenable: !group_bound && per_item_params && k.insts.len() <= MAX_COARSEN_INSTS,
            uses_globals,
        }
    }
}

/// Lanes per whole-vector access (PTX's `.v2`/`.v4`, at most 16 bytes) of a `vloadN` or
/// `vstoreN` (not `_half`) of type `t`, when it can have them: 2, 4, 8 or 16 lanes of 2, 4
/// or 8 bytes. The accesses then sit at multiples of their size from a 16-byte aligned
/// argument.
pub fn whole_vector_lanes(name: &str, t: Type) -> Option<u32> {
    let plain = (name.starts_with("vload") || name.starts_with("vstore")) && !name.contains("half");
    let es = t.elem()?.bytes();
    let n = t.lanes();
    (plain && matches!(n, 2 | 4 | 8 | 16) && matches!(es, 2 | 4 | 8)).then(|| n.min(4).min(16 / es))
}

/// Per parameter of kernel `k`: passed unchanged as the pointer of a `vloadN`/`vstoreN` that
/// [`whole_vector_lanes`] admits.
fn vector_params(m: &Module, k: &oclc_ir::Function) -> Vec<bool> {
    let params = k.params_of(oclc_ir::Block(0));
    let mut out = vec![false; params.len()];
    for d in &k.insts {
        let Op::CallBuiltin(b, args) = &d.op else {
            continue;
        };
        let Some(decl) = m.builtins.get(b.index()) else {
            continue;
        };
        let t = if decl.name.starts_with("vload") {
            d.result.and_then(|r| k.value_type(r))
        } else {
            args.first().and_then(|v| k.value_type(*v))
        };
        if let (Some(t), Some(p)) = (t, args.last())
            && whole_vector_lanes(&decl.name, t).is_some()
            && let Some(i) = params.iter().position(|q| q == p)
            && let Some(slot) = out.get_mut(i)
        {
            *slot = true;
        }
    }
    out
}

/// The variant a kernel is being emitted for.
#[derive(Clone, Debug)]
pub struct Launch {
    coarsen: u32,
    /// Parameters whose buffers no one writes during the launch (a bit set).
    nc: u64,
    /// Parameters whose argument is 16-byte aligned (a bit set).
    aligned: u64,
    facts: KernelFacts,
    /// Register holding the first work-group (dimension 0) of a coarsened block.
    group0: Option<String>,
}

impl Launch {
    pub fn new(m: &Module, kernel: FuncId, v: &KernelVariant) -> Launch {
        let facts = kernel_facts(m, kernel);
        let nc =
            v.nc.iter()
                .filter(|k| facts.read_only.get(**k).copied().unwrap_or(false))
                .fold(0u64, |a, k| a | (1 << k));
        let coarsen = if v.coarsen > 1 && Traits::of(m, kernel).coarsenable {
            v.coarsen
        } else {
            1
        };
        // Only the vector parameters (not all of `Traits`, which recomputes `facts`).
        let vector = match m.function(kernel) {
            Some(k) if !v.aligned.is_empty() => vector_params(m, k),
            _ => Vec::new(),
        };
        let aligned = v
            .aligned
            .iter()
            .filter(|k| vector.get(**k).copied().unwrap_or(false) && **k < 64)
            .fold(0u64, |a, k| a | (1 << k));
        Launch {
            coarsen,
            nc,
            aligned,
            facts,
            group0: None,
        }
    }
}

impl FnEmitter<'_> {
    /// How many work-groups' bodies this function runs per thread.
    pub fn copies(&self) -> u32 {
        match &self.launch {
            Some(l) if self.entry => l.coarsen.max(1),
            _ => 1,
        }
    }

    /// The work-item's work-group from the launch's first group and the block index (a
    /// coarsened kernel: the first of its groups in dimension 0).
    pub fn group_ids(&mut self) {
        let k = self.copies();
        for dim in 0..3 {
            let t = self.special("ctaid", dim);
            if dim == 0 && k > 1 {
                let b = self.tmp(Rc::B32);
                self.ins(format!("mad.lo.u32 {b}, {t}, {k}, %nd_grp0"));
                if let Some(l) = self.launch.as_mut() {
                    l.group0 = Some(b);
                }
            } else {
                self.ins(format!("add.u32 %nd_grp{dim}, %nd_grp{dim}, {t}"));
            }
        }
    }

    /// Starts repetition `self.copy` of a coarsened body: its label and work-group.
    pub fn begin_copy(&mut self) {
        if self.copies() <= 1 {
            return;
        }
        if self.copy > 0 {
            let l = format!("$C{}", self.copy);
            self.label(&l);
        }
        let _ = writeln!(
            self.body,
            "\t// work-items of work-group {} of this block",
            self.copy
        );
        if self.chk.is_some() {
            // For a fault's work-group (`--checks`).
            self.ins(format!("mov.u32 %ck_copy, {}", self.copy));
        }
        if self.nd
            && let Some(g) = self.launch.as_ref().and_then(|l| l.group0.clone())
        {
            self.ins(format!("add.u32 %nd_grp0, {g}, {}", self.copy));
        }
    }

    /// `return`: of a coarsened body, on to the next repetition.
    pub fn ret(&mut self) {
        if self.copy + 1 < self.copies() {
            self.ins(format!("bra.uni $C{}", self.copy + 1));
        } else {
            self.ins("ret");
        }
    }

    /// Whether `vloadN`/`vstoreN` through `p` may move whole vectors: `p` is a kernel
    /// parameter whose argument is 16-byte aligned in this launch.
    pub fn aligned_param(&self, p: Value) -> bool {
        let Some(l) = self.launch.as_ref().filter(|l| l.aligned != 0) else {
            return false;
        };
        self.entry
            && self
                .f
                .params_of(oclc_ir::Block(0))
                .iter()
                .position(|q| *q == p)
                .is_some_and(|k| k < 64 && l.aligned & (1 << k) != 0)
    }

    /// Whether a `__global` load through `p` may use `ld.global.nc`.
    pub fn nc_load(&self, p: Value) -> bool {
        self.launch
            .as_ref()
            .is_some_and(|l| l.nc != 0 && l.facts.nc_load(self.idx, p, l.nc))
    }
}
