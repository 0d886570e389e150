//! Decoded code to Cranelift IR: one function per kernel that runs every work-item of a
//! work-group in a loop, with callees inlined. Every decoded slot is a Cranelift variable;
//! hot instructions are compiled inline, with their checks as compare-and-branch to cold
//! blocks; everything else calls the slow path ([`super::slow`]), which runs the
//! interpreter's own code for that instruction.

use super::Unsupported;
use super::layout::*;
use super::roots::Root;
use crate::decode::{DFunc, I, Program};
use crate::ops::mask;
use crate::ptr;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    AbiParam, AtomicRmwOp, Block, FuncRef, InstBuilder, MemFlagsData, Signature, Value, types,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use oclc_ir::{BinOp, CmpOp, ConvOp, Scalar, WorkItemQuery};

/// Integer operators compiled inline (division and remainder take the slow path).
fn int_bin(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::And
            | BinOp::Or
            | BinOp::Xor
            | BinOp::Shl
            | BinOp::LShr
            | BinOp::AShr
    )
}
use std::collections::BTreeSet;

/// Fault codes native code returns (low 8 bits; the site id is above).
pub const CODE_SHIM: u64 = 1;
pub const CODE_STEPS: u64 = 2;
pub const CODE_UNREACHABLE: u64 = 3;
pub const CODE_FELL_OFF: u64 = 4;

/// Most decoded instructions one kernel may have once its calls are inlined.
pub const MAX_INLINED: u64 = 20_000;
/// Deepest inlined call chain.
pub const MAX_DEPTH: usize = 64;

/// The shims native code calls.
pub struct Shims {
    pub exec: FuncRef,
    pub mark: FuncRef,
    pub release: FuncRef,
    pub ptr_add: FuncRef,
    pub ptr_scaled: FuncRef,
}

/// The signature of a shim taking `n` u64s and returning one.
pub fn shim_sig(call_conv: cranelift_codegen::isa::CallConv, n: usize) -> Signature {
    let mut s = Signature::new(call_conv);
    for _ in 0..n {
        s.params.push(AbiParam::new(types::I64));
    }
    s.returns.push(AbiParam::new(types::I64));
    s
}

/// The signature of a shim's trampoline: the shim's `n` u64s and the io image's address;
/// it preserves every register and leaves the shim's result at `IO_RET`.
pub fn tramp_sig(n: usize) -> Signature {
    let mut s = Signature::new(cranelift_codegen::isa::CallConv::PreserveAll);
    for _ in 0..=n {
        s.params.push(AbiParam::new(types::I64));
    }
    s
}

/// The size of `kernel` with every call inlined (saturating), and its deepest call chain:
/// checked before any code is generated, so a call tree that doubles per level is refused
/// at once.
pub fn inlined_size(prog: &Program, kernel: u32) -> (u64, usize) {
    // The call graph is acyclic (OpenCL C has no recursion; deeper than the function count
    // means a cycle in forged IR, refused as too deep).
    fn go(
        prog: &Program,
        f: u32,
        depth: usize,
        memo: &mut Vec<Option<(u64, usize)>>,
    ) -> (u64, usize) {
        if depth > prog.funcs.len() + 1 {
            return (u64::MAX, usize::MAX);
        }
        if let Some(Some(r)) = memo.get(f as usize) {
            return *r;
        }
        let Some(df) = prog.funcs.get(f as usize) else {
            return (0, 0);
        };
        let mut size = df.code.len() as u64;
        let mut deepest = 0usize;
        for c in &df.calls {
            let (s, d) = go(prog, c.func, depth + 1, memo);
            size = size.saturating_add(s);
            deepest = deepest.max(d.saturating_add(1));
        }
        if let Some(m) = memo.get_mut(f as usize) {
            *m = Some((size, deepest));
        }
        (size, deepest)
    }
    let mut memo = vec![None; prog.funcs.len()];
    go(prog, kernel, 0, &mut memo)
}

/// The most steps (branches and calls) a work-item of `kernel` can take when no function it
/// runs has a loop (every branch leads forward): each branch and call then runs at most once
/// per work-item (a callee once per call site). `None` when one may loop. A launch whose step
/// limit is at least this bound cannot exceed it, so its code needs no step checks.
pub fn step_bound(prog: &Program, kernel: u32) -> Option<u64> {
    fn go(
        prog: &Program,
        f: u32,
        depth: usize,
        memo: &mut Vec<Option<Option<u64>>>,
    ) -> Option<u64> {
        if depth > prog.funcs.len() + 1 {
            return None;
        }
        if let Some(Some(r)) = memo.get(f as usize) {
            return *r;
        }
        let df = prog.funcs.get(f as usize)?;
        let forward =
            |pc: usize, e: u32| df.edges.get(e as usize).is_some_and(|x| x.pc as usize > pc);
        let mut n: u64 = 0;
        let mut ok = true;
        for (pc, ins) in df.code.iter().enumerate() {
            let (fwd, callee) = match *ins {
                I::Br { e } => (forward(pc, e), None),
                I::CondBr { t, f: e, .. } => (forward(pc, t) && forward(pc, e), None),
                I::BrICmp { info, .. } => (
                    df.brcmps
                        .get(info as usize)
                        .is_some_and(|&(t, e)| forward(pc, t) && forward(pc, e)),
                    None,
                ),
                I::Switch { info, .. } => (
                    df.switches.get(info as usize).is_some_and(|sw| {
                        forward(pc, sw.default) && sw.cases.iter().all(|&(_, e)| forward(pc, e))
                    }),
                    None,
                ),
                I::Call { info, .. } => (true, Some(df.calls.get(info as usize).map(|c| c.func))),
                _ => continue,
            };
            let sub = match callee {
                Some(Some(c)) => go(prog, c, depth + 1, memo),
                Some(None) => None,
                None => Some(0),
            };
            match sub {
                Some(s) if fwd => n = n.saturating_add(1).saturating_add(s),
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        let r = ok.then_some(n);
        if let Some(m) = memo.get_mut(f as usize) {
            *m = Some(r);
        }
        r
    }
    let mut memo = vec![None; prog.funcs.len()];
    go(prog, kernel, 0, &mut memo)
}

/// Whether each function (or a callee) allocates private memory.
pub fn private_users(prog: &Program) -> Vec<bool> {
    let mut v: Vec<bool> = prog
        .funcs
        .iter()
        .map(|f| f.code.iter().any(|i| matches!(i, I::StackAlloc { .. })))
        .collect();
    for _ in 0..=prog.funcs.len() {
        let mut changed = false;
        for (i, f) in prog.funcs.iter().enumerate() {
            if !v[i]
                && f.calls
                    .iter()
                    .any(|c| v.get(c.func as usize) == Some(&true))
            {
                v[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    v
}

pub struct Lower<'a, 'b> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub prog: &'a Program,
    pub shims: Shims,
    pub env: Value,
    pub io: Value,
    /// (function, pc) of each site that can fault or calls the slow path.
    pub sites: Vec<(u32, u32)>,
    pub steps: Variable,
    pub max_steps: Value,
    /// Whether branches and calls check the step limit (not where [`step_bound`] shows the
    /// launch cannot exceed it).
    pub step_checks: bool,
    pub code: Variable,
    pub fault: Block,
    pub lid: [Variable; 3],
    pub gbase: [Value; 3],
    pub nglob: Value,
    pub dims: Value,
    pub size: [Value; 3],
    pub item_end: Block,
    pub private: Vec<bool>,
    pub inlined: usize,
    /// Slot variables of the functions being lowered (the kernel, then inlined callees):
    /// what a barrier saves.
    pub active: Vec<ActiveFn>,
    /// Liveness of the functions with barriers, by function index.
    pub liveness: std::collections::HashMap<u32, std::rc::Rc<super::live::Liveness>>,
    /// The state words of the running work-item (see [`STATE_STOP`]).
    pub sbase: Variable,
    /// Where a work-item goes when it stops at a barrier or returns.
    pub advance: Block,
    /// Stop code and resume block of each barrier.
    pub resumes: Vec<(u64, Block)>,
    /// How many state words (after `STATE_VARS`) barriers and eager stores use.
    pub max_var: usize,
    /// The state word (after `STATE_VARS`) of each variable saved at barriers, by variable
    /// index: dense, so a work-item's state stays small (and in cache).
    pub state_slots: std::collections::HashMap<usize, usize>,
    /// Address of the global table, address and length of the `__local` table (loaded
    /// once per call).
    pub gtab: Value,
    pub ltab: Value,
    pub nloc: Value,
    /// Per pointer root: its bits above the offset field, base address, and the bytes a
    /// load and a store may reach (0 where the root is no allocation the access may use).
    pub root_vals: std::collections::HashMap<Root, RootVals>,
    /// Pointer arithmetic whose only use is an access a few instructions on: the access
    /// checks the arithmetic's operands against the root (see [`Deferred`]).
    pub deferred: std::collections::HashMap<usize, Deferred>,
    /// Values loaded from a work-item's state words at a barrier's resume, with the index
    /// of the variable whose word they came from.
    pub restored: std::collections::HashMap<u32, usize>,
    /// A stack word that 32-bit float adds store their result to (see [`Lower::anchor`]),
    /// made at the first one.
    pub anchor: Option<cranelift_codegen::ir::StackSlot>,
    /// By variable index: saved to its state word where it is defined (see
    /// [`eager_slots`]), so barriers need not save it.
    pub eager: Vec<bool>,
    /// Slot values made from a float's bits (`bits_of_f32`/`bits_of_f64`): the float.
    pub floats: std::collections::HashMap<u32, Value>,
    /// The index ranges the driver computes per call, at `ranges_word` in the launch table.
    pub ranges: Vec<RangeReq>,
    pub ranges_word: usize,
    /// The per-group flags of accesses at local ids (see [`lid_access_ok`]), one word each
    /// at `lid_word` in the launch table.
    pub lid_reqs: Vec<LidReq>,
    pub lid_word: usize,
    /// Where the roots' words start in the launch table.
    pub roots_word: usize,
    /// By variable index: the value loaded at entry of a kernel parameter's one lane,
    /// which a slot that always holds the argument is redefined to at a barrier's resume
    /// (not saved).
    pub arg_vals: std::collections::HashMap<usize, Value>,
}

/// Pointer arithmetic `p + x * scale` (`bytes` is the product) left to the access that
/// uses its result: the access's fast path needs no pointer built, its other paths build it.
#[derive(Clone)]
pub struct Deferred {
    p: Value,
    /// The steps `+ x * scale` (`bytes` is the product), in order.
    terms: Vec<(Value, Value, Option<u64>)>,
    /// Per step, the local-id dimension its index is (see [`lid_slots`]).
    lids: Vec<Option<u8>>,
    /// Whether `p` is the root's own pointer (its unchanged argument or address constant).
    exact: bool,
    root: RootVals,
}

/// The pointer operand of a plain load or store compiled inline.
fn access_ptr(ins: &I) -> Option<u32> {
    match *ins {
        I::Load4 { p, .. } | I::Load8 { p, .. } | I::Store4 { p, .. } | I::Store8 { p, .. } => {
            Some(p)
        }
        I::Load { s, n, p, .. } | I::Store { s, n, p, .. } => Acc::of(s, n).map(|_| p),
        _ => None,
    }
}

/// What an access through a pointer with a known root checks against (see [`Lower::root_vals`]).
#[derive(Clone, Copy)]
pub struct RootVals {
    pub hi: Value,
    pub base: Value,
    pub size_ld: Value,
    pub size_st: Value,
    /// The root's offset, sign-extended.
    pub soff: Value,
    /// For a parameter, the argument as loaded at entry: a pointer that is this value
    /// needs no check that it still points into the root's allocation.
    pub val: Option<Value>,
    /// The root's index in the kernel's root list.
    pub index: usize,
}

/// An index range the driver computes per call (see [`Lower::index_range`] and
/// [`index_range`]): root index, scale, lowest offset, highest end, alignment, store,
/// lowest and highest constant added to the index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RangeReq {
    pub root: usize,
    pub scale: i64,
    pub lo: i64,
    pub end: i64,
    pub align: u32,
    pub store: bool,
    pub clo: i64,
    pub chi: i64,
}

/// Most index ranges a kernel has words for in the launch table (more are computed inline).
pub const MAX_RANGES: usize = 32;

/// Accesses through a root's own pointer plus local ids times constants (`terms`: dimension
/// and bytes per id), `len` bytes each, `align`-aligned: the driver sets their word to 1 for
/// a group where every work-item's access passes its checks (see [`lid_access_ok`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LidReq {
    pub root: usize,
    pub terms: Vec<(u8, u64)>,
    pub len: u64,
    pub align: u32,
    pub store: bool,
}

/// Most per-group flags of local-id accesses a kernel has words for (more take the full test).
pub const MAX_LID_REQS: usize = 16;

/// Whether accesses `req` through a root with offset `soff` and `size` bytes pass every check
/// for each work-item of a group of `local` work-items: the offsets run from `soff` (all ids
/// 0) up to `soff + sum((local[d] - 1) * scale)` (the last work-item), each id fits in 32
/// bits, the offset is aligned and the access lies inside the allocation.
pub fn lid_access_ok(req: &LidReq, soff: i64, size: i64, local: [u64; 3]) -> bool {
    let mut hi = soff as i128;
    for &(d, scale) in &req.terms {
        let n = local.get(d as usize).copied().unwrap_or(1).max(1) - 1;
        if n > i32::MAX as u64 {
            return false;
        }
        hi += n as i128 * scale as i128;
    }
    soff >= 0 && soff & (req.align.max(1) as i64 - 1) == 0 && hi + req.len as i128 <= size as i128
}

/// The range of index `x` for which accesses `req` through a root with offset `soff` and
/// `size` bytes pass their checks: `(first, count)`, so that they pass exactly when
/// `x - first < count` (unsigned, wrapping): `soff + x * scale + lo >= 0`,
/// `soff + x * scale + end <= size`, `x + clo` and `x + chi` fit in 32 bits, and `soff` is
/// aligned (`scale` is a power of two and a multiple of the alignment).
pub fn index_range(req: &RangeReq, soff: i64, size: i64) -> (u64, u64) {
    let k = req.scale.trailing_zeros();
    let first = (-((soff.wrapping_add(req.lo)) >> k)).max(i32::MIN as i64 - req.clo);
    let last = (size.wrapping_sub(soff).wrapping_sub(req.end) >> k).min(i32::MAX as i64 - req.chi);
    let aligned = soff & (req.align.max(1) as i64 - 1) == 0;
    let count = if aligned && first <= last {
        (last - first + 1) as u64
    } else {
        0
    };
    (first as u64, count)
}

/// A function being lowered: its slot variables, their liveness (functions with barriers)
/// and the instruction being lowered (a call, in callers).
pub struct ActiveFn {
    /// Accesses at constant offsets from one base pointer in one block, checked together
    /// (see [`access_groups`]): access pc -> (group, constant byte offset).
    pub groups: std::collections::HashMap<u32, (usize, i64)>,
    pub group_info: Vec<AccessGroup>,
    /// Per group, once its first access is lowered: (all in bounds, base address plus
    /// the base pointer's offset).
    pub group_vals: std::collections::HashMap<usize, (Value, Value)>,
    pub vars: Vec<Variable>,
    /// Slots that only ever hold one constant (see [`const_slots`]).
    pub consts: Vec<Option<u64>>,
    /// Slots that only ever hold a local id (see [`lid_slots`]).
    pub lids: Vec<Option<u8>>,
    /// Reads of each slot (instructions and edge moves).
    pub uses: Vec<u32>,
    /// Slots that a 32-bit float operation reads.
    pub float_reads: Vec<bool>,
    /// The root of each slot (see [`super::roots`]).
    pub roots: Vec<Option<Root>>,
    /// Slots that always hold the kernel's argument (a kernel parameter never written):
    /// read as the argument's value itself, loaded once per call.
    pub args: Vec<bool>,
    pub live: Option<std::rc::Rc<super::live::Liveness>>,
    pub pc: u32,
}

/// Per-work-item state words: where it stopped (0: not started, 1: returned, 2 + site:
/// waiting at the barrier of that site), its step count, then saved variables by index.
pub const STATE_STOP: usize = 0;
pub const STATE_STEPS: usize = 1;
pub const STATE_VARS: usize = 2;
pub const STOP_DONE: u64 = 1;
pub const STOP_BARRIER: u64 = 2;

/// The index of `req` in `table` (a per-kernel list the driver fills, one entry per distinct
/// request), added when new and there is room for it: at most `max` entries.
fn table_index<T: PartialEq>(table: &mut Vec<T>, req: T, max: usize) -> Option<usize> {
    match table.iter().position(|r| *r == req) {
        Some(i) => Some(i),
        None if table.len() < max => {
            table.push(req);
            Some(table.len() - 1)
        }
        None => None,
    }
}

fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Loads of the launch's tables, which do not change while native code runs: pure, so
/// Cranelift merges equal ones and hoists them out of loops.
pub fn pure_flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly().with_can_move()
}

impl Lower<'_, '_> {
    /// Calls shim `f` (through its trampoline) with `args`; its result.
    fn shim(&mut self, f: FuncRef, args: &[Value]) -> Value {
        let mut a = args.to_vec();
        a.push(self.io);
        self.b.ins().call(f, &a);
        self.b
            .ins()
            .load(types::I64, flags(), self.io, (IO_RET * 8) as i32)
    }

    fn iconst(&mut self, v: u64) -> Value {
        self.b.ins().iconst(types::I64, v as i64)
    }

    fn site(&mut self, f: u32, pc: u32) -> u64 {
        self.sites.push((f, pc));
        (self.sites.len() - 1) as u64
    }

    /// Whether the block being filled is cold (laid out after the hot code).
    fn current_is_cold(&self) -> bool {
        self.b
            .current_block()
            .is_some_and(|c| self.b.func.layout.is_cold(c))
    }

    /// Branches to the fault block with `code` when `cond` holds.
    fn fault_if(&mut self, cond: Value, code: u64) {
        let cold = self.b.create_block();
        let cont = self.b.create_block();
        self.b.set_cold_block(cold);
        // After a check on a cold path (a slow-path call of an access), still cold.
        if self.current_is_cold() {
            self.b.set_cold_block(cont);
        }
        self.b.ins().brif(cond, cold, &[], cont, &[]);
        self.b.switch_to_block(cold);
        self.b.seal_block(cold);
        let c = self.iconst(code);
        self.b.def_var(self.code, c);
        self.b.ins().jump(self.fault, &[]);
        self.b.switch_to_block(cont);
        self.b.seal_block(cont);
    }

    /// Counts one step (a branch or call), as the interpreter does.
    fn step(&mut self, fi: u32, pc: u32) {
        if !self.step_checks {
            return;
        }
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd_imm_s(s, 1);
        self.b.def_var(self.steps, s);
        let over = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, s, self.max_steps);
        let site = self.site(fi, pc);
        self.fault_if(over, (site << 8) | CODE_STEPS);
    }

    fn io_addr(&mut self, word: usize) -> (Value, i32) {
        (self.io, (word * 8) as i32)
    }

    /// Root `r`'s words, loaded where they are used (not at entry: live across the
    /// work-item loop, they were spilled and moved between stack slots in it); the
    /// argument's value stays the one loaded at entry (a pointer is compared with it).
    fn root_at(&mut self, r: Root) -> Option<RootVals> {
        let rv = self.root_vals.get(&r).copied()?;
        let at = self.roots_word + ROOT_WORDS * rv.index;
        Some(RootVals {
            hi: self.env_load(at),
            base: self.env_load(at + 1),
            size_ld: self.env_load(at + 2),
            size_st: self.env_load(at + 3),
            soff: self.env_load(at + 4),
            ..rv
        })
    }

    fn env_load(&mut self, word: usize) -> Value {
        let fl = pure_flags();
        self.b
            .ins()
            .load(types::I64, fl, self.env, (word * 8) as i32)
    }

    /// Runs instruction `pc` of `fi` on the slow path: operands to the io image, the shim,
    /// results back.
    fn slow(&mut self, fi: u32, pc: u32, f: &DFunc, ins: &I, vars: &[Variable]) {
        let (uses, defs) = super::slow::uses_defs(f, ins);
        for (s, n) in uses {
            for k in s..s + n {
                let v = self.get(vars, k);
                let (base, off) = self.io_addr(IO_SLOTS + k as usize);
                self.b.ins().store(flags(), v, base, off);
            }
        }
        let site = self.site(fi, pc);
        let sv = self.iconst(site);
        let st = self.shim(self.shims.exec, &[sv]);
        self.fault_if(st, (site << 8) | CODE_SHIM);
        for (s, n) in defs {
            for k in s..s + n {
                let (base, off) = self.io_addr(IO_SLOTS + k as usize);
                let v = self.b.ins().load(types::I64, flags(), base, off);
                self.set(vars, k, v);
            }
        }
    }

    /// Stores float `r` (a 32-bit float add's or subtraction's result) to a scratch stack
    /// word, so that Cranelift computes it here: pure operations are otherwise placed at
    /// their first use, which sinks an unrolled `sum += a[k] * b[k]` chain below all of its
    /// loads and keeps every loaded value live (spilled) until then.
    fn anchor(&mut self, r: Value) {
        use cranelift_codegen::ir::{StackSlotData, StackSlotKind};
        let ss = match self.anchor {
            Some(ss) => ss,
            None => {
                let ss = self.b.create_sized_stack_slot(StackSlotData::new(
                    StackSlotKind::ExplicitSlot,
                    8,
                    3,
                ));
                self.anchor = Some(ss);
                ss
            }
        };
        self.b.ins().stack_store(types::I64, r, ss, 0);
    }

    fn get(&mut self, vars: &[Variable], s: u32) -> Value {
        match vars.get(s as usize) {
            Some(v) => self.b.use_var(*v),
            None => self.iconst(0),
        }
    }

    /// The state word of variable `v` (see [`Lower::state_slots`]); `max_var` counts them.
    fn state_slot(&mut self, v: usize) -> usize {
        let n = self.state_slots.len();
        let k = *self.state_slots.entry(v).or_insert(n);
        self.max_var = self.state_slots.len();
        k
    }

    fn set(&mut self, vars: &[Variable], s: u32, v: Value) {
        use cranelift_codegen::entity::EntityRef;
        if let Some(x) = vars.get(s as usize) {
            self.b.def_var(*x, v);
            if self.eager.get(x.index()) == Some(&true) {
                // The state words cover every variable stored to them.
                let sb = self.b.use_var(self.sbase);
                let off = ((STATE_VARS + self.state_slot(x.index())) * 8) as i32;
                self.b.ins().store(flags(), v, sb, off);
            }
        }
    }

    fn masked(&mut self, x: Value, w: u8) -> Value {
        if w >= 64 {
            x
        } else {
            self.b.ins().band_imm_s(x, mask(w as u32) as i64)
        }
    }

    fn sext(&mut self, x: Value, w: u32) -> Value {
        if w >= 64 {
            return x;
        }
        let sh = (64 - w.max(1)) as i64;
        let t = self.b.ins().ishl_imm_s(x, sh);
        self.b.ins().sshr_imm_s(t, sh)
    }

    /// An integer comparison as `ops::cmp` does it on width `w`; `None` for float ops.
    fn icmp(&mut self, op: CmpOp, w: u32, a: Value, b: Value) -> Option<Value> {
        let (cc, signed) = match op {
            CmpOp::Eq => (IntCC::Equal, false),
            CmpOp::Ne => (IntCC::NotEqual, false),
            CmpOp::Slt => (IntCC::SignedLessThan, true),
            CmpOp::Sle => (IntCC::SignedLessThanOrEqual, true),
            CmpOp::Sgt => (IntCC::SignedGreaterThan, true),
            CmpOp::Sge => (IntCC::SignedGreaterThanOrEqual, true),
            CmpOp::Ult => (IntCC::UnsignedLessThan, false),
            CmpOp::Ule => (IntCC::UnsignedLessThanOrEqual, false),
            CmpOp::Ugt => (IntCC::UnsignedGreaterThan, false),
            CmpOp::Uge => (IntCC::UnsignedGreaterThanOrEqual, false),
            _ => return None,
        };
        let (a, b) = if signed {
            (self.sext(a, w), self.sext(b, w))
        } else {
            (a, b)
        };
        Some(self.b.ins().icmp(cc, a, b))
    }

    fn f32_of(&mut self, x: Value) -> Value {
        // The float a slot's bits were made from, when they were (no trip through an
        // integer register between float operations).
        if let Some(&f) = self.floats.get(&x.as_u32()) {
            return f;
        }
        let t = self.b.ins().ireduce(types::I32, x);
        self.b.ins().bitcast(types::F32, MemFlagsData::new(), t)
    }

    fn bits_of_f32(&mut self, x: Value) -> Value {
        let t = self.b.ins().bitcast(types::I32, MemFlagsData::new(), x);
        let r = self.b.ins().uextend(types::I64, t);
        self.floats.insert(r.as_u32(), x);
        r
    }

    fn f64_of(&mut self, x: Value) -> Value {
        if let Some(&f) = self.floats.get(&x.as_u32()) {
            return f;
        }
        self.b.ins().bitcast(types::F64, MemFlagsData::new(), x)
    }

    fn bits_of_f64(&mut self, x: Value) -> Value {
        let r = self.b.ins().bitcast(types::I64, MemFlagsData::new(), x);
        self.floats.insert(r.as_u32(), x);
        r
    }

    /// Moves of edge `e` of `f`, then a jump to its target block.
    fn take_edge(&mut self, f: &DFunc, e: u32, vars: &[Variable], blocks: &BlockMap) {
        let Some(edge) = f.edges.get(e as usize).copied() else {
            return;
        };
        let mv = f
            .moves
            .get(edge.mv as usize..(edge.mv + edge.n) as usize)
            .unwrap_or(&[]);
        for &(d, s) in mv {
            let v = self.get(vars, s);
            self.set(vars, d, v);
        }
        let target = blocks.get(edge.pc);
        self.b.ins().jump(target, &[]);
    }

    /// Branches on `cond` to the edges `t` and `e`.
    fn branch(&mut self, cond: Value, f: &DFunc, t: u32, e: u32, vars: &[Variable], bm: &BlockMap) {
        self.edge_if(cond, f, t, vars, bm);
        self.take_edge(f, e, vars, bm);
    }

    /// Takes edge `t` when `cond` holds; code emitted next runs when it does not.
    fn edge_if(&mut self, cond: Value, f: &DFunc, t: u32, vars: &[Variable], bm: &BlockMap) {
        let (bt, bn) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(cond, bt, &[], bn, &[]);
        self.b.seal_block(bt);
        self.b.seal_block(bn);
        self.b.switch_to_block(bt);
        self.take_edge(f, t, vars, bm);
        self.b.switch_to_block(bn);
    }

    /// `ptr::add(p, bytes)` (`scale` None) or `ptr::add_scaled(p, x, scale)` where `bytes` is
    /// `x * scale`: inline when `p` is tagged (or NULL-derived), `x` fits in 32 bits and the
    /// new offset stays inside the offset field's range; else the shim.
    fn ptr_arith(&mut self, p: Value, x: Value, bytes: Value, scale: Option<u64>) -> Value {
        let res = self.b.declare_var(types::I64);
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.set_cold_block(slow);
        // Built on an access's cold path (its checks failed): all of it is cold.
        if self.current_is_cold() {
            self.b.set_cold_block(fast);
            self.b.set_cold_block(join);
        }
        let tag = self.b.ins().ushr_imm_s(p, ptr::TAG_SHIFT as i64);
        let tagged = self.b.ins().icmp_imm_s(IntCC::NotEqual, tag, 0);
        let addr = self.b.ins().band_imm_s(p, ptr::RAW_MASK as i64);
        let low = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, addr, ptr::RAW_MIN as i64);
        let not_raw = self.b.ins().bor(tagged, low);
        let x32 = self.sext(x, 32);
        let small = self.b.ins().icmp(IntCC::Equal, x32, x);
        let sh = (64 - ptr::ALLOC_SHIFT) as i64;
        let off = self.b.ins().ishl_imm_s(p, sh);
        let soff = self.b.ins().sshr_imm_s(off, sh);
        let new = self.b.ins().iadd(soff, bytes);
        let t = self.b.ins().ishl_imm_s(new, sh);
        let t = self.b.ins().sshr_imm_s(t, sh);
        let in_field = self.b.ins().icmp(IntCC::Equal, t, new);
        let ok = self.b.ins().band(not_raw, small);
        let ok = self.b.ins().band(ok, in_field);
        let hi = self.b.ins().band_imm_s(p, !ptr::OFFSET_MASK as i64);
        let lo = self.b.ins().band_imm_s(new, ptr::OFFSET_MASK as i64);
        let r = self.b.ins().bor(hi, lo);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.seal_block(fast);
        self.b.seal_block(slow);
        self.b.switch_to_block(fast);
        self.b.def_var(res, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow);
        let r = match scale {
            None => self.shim(self.shims.ptr_add, &[p, x]),
            Some(sc) => {
                let scv = self.iconst(sc);
                self.shim(self.shims.ptr_scaled, &[p, x, scv])
            }
        };
        self.b.def_var(res, r);
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.b.use_var(res)
    }

    /// Whether the only use of slot `d` (defined at `pc`) is an access, or pointer
    /// arithmetic on it whose result's only use is (recursively), a few instructions on in
    /// the same block with no call, barrier or branch between.
    fn ends_in_access(&self, f: &DFunc, pc: u32, bm: &BlockMap, d: u32) -> bool {
        let Some(a) = self.active.last() else {
            return false;
        };
        let (mut d, mut k) = (d, pc + 1);
        let end = pc + 24;
        loop {
            if a.uses.get(d as usize) != Some(&1) {
                return false;
            }
            if k > end || bm.pcs.binary_search(&k).is_ok() {
                return false;
            }
            let Some(ins) = f.code.get(k as usize) else {
                return false;
            };
            if access_ptr(ins) == Some(d) {
                return true;
            }
            match *ins {
                I::PtrIndex { d: d2, p, i, .. } if p == d && i != d => d = d2,
                I::PtrAdd { d: d2, p, o } if p == d && o != d => d = d2,
                I::Br { .. }
                | I::CondBr { .. }
                | I::BrICmp { .. }
                | I::Switch { .. }
                | I::Ret { .. }
                | I::Unreachable
                | I::Call { .. }
                | I::Barrier { .. } => return false,
                _ => {}
            }
            k += 1;
        }
    }

    /// Leaves pointer arithmetic `d = p + x * scale` at `pc` to the access that uses its
    /// result (see [`Self::ends_in_access`]) when `p` has a known root or is itself left so;
    /// true when it did.
    #[allow(clippy::too_many_arguments)]
    fn defer(
        &mut self,
        f: &DFunc,
        pc: u32,
        bm: &BlockMap,
        vars: &[Variable],
        d: u32,
        p: u32,
        pv: Value,
        x: Value,
        bytes: Value,
        scale: Option<u64>,
        lid: Option<u8>,
    ) -> bool {
        use cranelift_codegen::entity::EntityRef;
        let Some(&dv) = vars.get(d as usize) else {
            return false;
        };
        if self.eager.get(dv.index()) == Some(&true) {
            return false;
        }
        let prev = vars
            .get(p as usize)
            .and_then(|v| self.deferred.remove(&v.index()));
        let root_key = self
            .active
            .last()
            .and_then(|a| a.roots.get(p as usize).copied().flatten());
        let root = root_key.and_then(|r| self.root_at(r));
        let mut df = match (prev, root) {
            (Some(df), _) => df,
            (None, Some(root)) => {
                if !self.ends_in_access(f, pc, bm, d) {
                    return false;
                }
                let arg = self
                    .active
                    .last()
                    .is_some_and(|a| a.args.get(p as usize) == Some(&true));
                // An address constant's slot holding that constant: the root's own pointer.
                let konst = match root_key {
                    Some(Root::Const(c)) => self
                        .active
                        .last()
                        .is_some_and(|a| a.consts.get(p as usize) == Some(&Some(c))),
                    _ => false,
                };
                Deferred {
                    p: match root.val {
                        Some(v) if arg => v,
                        _ => pv,
                    },
                    terms: Vec::new(),
                    lids: Vec::new(),
                    exact: (arg && root.val.is_some()) || konst,
                    root,
                }
            }
            (None, None) => return false,
        };
        df.terms.push((x, bytes, scale));
        df.lids.push(lid);
        // The pointer as the fast path of the arithmetic builds it (read by nothing but
        // the access, which builds it exactly where it is needed).
        let sh = (64 - ptr::ALLOC_SHIFT) as i64;
        let o = self.b.ins().ishl_imm_s(pv, sh);
        let soff = self.b.ins().sshr_imm_s(o, sh);
        let new = self.b.ins().iadd(soff, bytes);
        let hi = self.b.ins().band_imm_s(pv, !ptr::OFFSET_MASK as i64);
        let lo = self.b.ins().band_imm_s(new, ptr::OFFSET_MASK as i64);
        let r = self.b.ins().bor(hi, lo);
        self.b.def_var(dv, r);
        self.deferred.insert(dv.index(), df);
        true
    }

    /// For accesses through a parameter's unchanged argument at `x * scale` bytes past it
    /// (`scale` a power of two, a multiple of `align`), reaching bytes `lo..end` past that
    /// and with `x + clo` and `x + chi` small: `(first, count)` such that the checks of
    /// those accesses pass exactly when `x - first < count` (unsigned). The driver computes
    /// it per call from the root's words ([`index_range`]; Cranelift did not hoist it out of
    /// the work-item loop): two loads here.
    #[allow(clippy::too_many_arguments)]
    fn index_range(
        &mut self,
        rv: &RootVals,
        scale: i64,
        lo: i64,
        end: i64,
        align: u32,
        store: bool,
        clo: i64,
        chi: i64,
    ) -> (Value, Value) {
        let req = RangeReq {
            root: rv.index,
            scale,
            lo,
            end,
            align,
            store,
            clo,
            chi,
        };
        let at = table_index(&mut self.ranges, req, MAX_RANGES);
        match at {
            Some(i) => {
                let w = self.ranges_word + 2 * i;
                (self.env_load(w), self.env_load(w + 1))
            }
            // No word left: an empty range (every access takes the full test).
            None => (self.iconst(0), self.iconst(0)),
        }
    }

    /// Condition `c` as one 0/1 value made by a branch: the group's accesses each test it
    /// with one compare, where Cranelift would otherwise redo its last `band` at each.
    fn flag(&mut self, c: Value) -> Value {
        let (t, e, m) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.set_cold_block(e);
        let v = self.b.append_block_param(m, types::I8);
        self.b.ins().brif(c, t, &[], e, &[]);
        for (blk, k) in [(t, 1), (e, 0)] {
            self.b.seal_block(blk);
            self.b.switch_to_block(blk);
            let x = self.b.ins().iconst(types::I8, k);
            self.b.ins().jump(m, &[x.into()]);
        }
        self.b.seal_block(m);
        self.b.switch_to_block(m);
        v
    }

    /// Whether `x - first < count` (see [`Self::index_range`]).
    fn in_range(&mut self, x: Value, (first, count): (Value, Value)) -> Value {
        let t = self.b.ins().isub(x, first);
        self.b.ins().icmp(IntCC::UnsignedLessThan, t, count)
    }

    /// The check of access group `g` with base pointer `p` (root `rv`), emitted at its
    /// first access (which dominates the others): the base pointer points into its root's
    /// allocation, the index plus every constant is small, and every access is aligned and
    /// lies inside the allocation; and the base address plus the pointer's offset plus the
    /// scaled index.
    fn group_check(
        &mut self,
        g: usize,
        p: Value,
        rv: RootVals,
        vars: &[Variable],
    ) -> (Value, Value) {
        if let Some(v) = self
            .active
            .last()
            .and_then(|a| a.group_vals.get(&g).copied())
        {
            return v;
        }
        let Some(gi) = self
            .active
            .last()
            .and_then(|a| a.group_info.get(g).copied())
        else {
            let f = self.b.ins().iconst(types::I8, 0);
            return (f, rv.base);
        };
        // Through the unchanged argument: one range test of the index.
        if let (Some(slot), true) = (gi.idx, rv.val == Some(p))
            && gi.scale > 0
            && (gi.scale as u64).is_power_of_two()
            && gi.scale % gi.align as i64 == 0
        {
            let mut x = self.get(vars, slot);
            if gi.sext {
                x = self.sext(x, 32);
            }
            let r = self.index_range(
                &rv, gi.scale, gi.lo, gi.end, gi.align, gi.store, gi.clo, gi.chi,
            );
            let ok = self.in_range(x, r);
            let bs = self.b.ins().iadd(rv.base, rv.soff);
            let xs = self.b.ins().imul_imm_s(x, gi.scale);
            let bs = self.b.ins().iadd(bs, xs);
            let ok = self.flag(ok);
            if let Some(a) = self.active.last_mut() {
                a.group_vals.insert(g, (ok, bs));
            }
            return (ok, bs);
        }
        let sh = (64 - ptr::ALLOC_SHIFT) as i64;
        let (ok, soff) = if rv.val == Some(p) {
            (self.b.ins().iconst(types::I8, 1), rv.soff)
        } else {
            let hi = self.b.ins().ushr_imm_s(p, ptr::ALLOC_SHIFT as i64);
            let same = self.b.ins().icmp(IntCC::Equal, hi, rv.hi);
            let o = self.b.ins().ishl_imm_s(p, sh);
            (same, self.b.ins().sshr_imm_s(o, sh))
        };
        // The index plus each constant is small (so the arithmetic builds base + offset
        // without saturating): the lowest and highest are (no wrap in between).
        let (ok, soff) = match gi.idx {
            Some(slot) => {
                let mut x = self.get(vars, slot);
                if gi.sext {
                    x = self.sext(x, 32);
                }
                let mut ok = ok;
                for c in [gi.clo, gi.chi] {
                    let y = self.b.ins().iadd_imm_s(x, c);
                    let y32 = self.sext(y, 32);
                    let sm = self.b.ins().icmp(IntCC::Equal, y32, y);
                    ok = self.b.ins().band(ok, sm);
                }
                let xs = self.b.ins().imul_imm_s(x, gi.scale);
                (ok, self.b.ins().iadd(soff, xs))
            }
            None => (ok, soff),
        };
        let mis = self.b.ins().band_imm_s(soff, (gi.align - 1) as i64);
        let aligned = self.b.ins().icmp_imm_s(IntCC::Equal, mis, 0);
        // soff + lo >= 0 and soff + end <= size (soff within the field, the index small,
        // the constants below 2^36: no overflow).
        let lo = self.b.ins().iadd_imm_s(soff, gi.lo);
        let nonneg = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, lo, 0);
        let end = self.b.ins().iadd_imm_s(soff, gi.end);
        let size = if gi.store { rv.size_st } else { rv.size_ld };
        let fits = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, end, size);
        let ok = self.b.ins().band(ok, aligned);
        let ok = self.b.ins().band(ok, nonneg);
        let ok = self.b.ins().band(ok, fits);
        let bs = self.b.ins().iadd(rv.base, soff);
        let ok = self.flag(ok);
        if let Some(a) = self.active.last_mut() {
            a.group_vals.insert(g, (ok, bs));
        }
        (ok, bs)
    }

    /// A query's value for dimension `dv` (a value already masked to 32 bits).
    fn query(&mut self, q: WorkItemQuery, dv: Value) -> Value {
        match q {
            WorkItemQuery::GlobalId | WorkItemQuery::LocalId => {
                let mut lanes = [self.iconst(0); 3];
                for (k, lane) in lanes.iter_mut().enumerate() {
                    let l = self.b.use_var(self.lid[k]);
                    *lane = if q == WorkItemQuery::GlobalId {
                        self.b.ins().iadd(self.gbase[k], l)
                    } else {
                        l
                    };
                }
                let zero = self.iconst(0);
                let mut r = zero;
                for (k, lane) in lanes.iter().enumerate().rev() {
                    let is = self.b.ins().icmp_imm_s(IntCC::Equal, dv, k as i64);
                    r = self.b.ins().select(is, *lane, r);
                }
                let inr = self.b.ins().icmp(IntCC::UnsignedLessThan, dv, self.dims);
                self.b.ins().select(inr, r, zero)
            }
            WorkItemQuery::LocalLinearId => {
                let l: Vec<Value> = (0..3).map(|k| self.b.use_var(self.lid[k])).collect();
                let t = self.b.ins().imul(l[2], self.size[1]);
                let t = self.b.ins().iadd(t, l[1]);
                let t = self.b.ins().imul(t, self.size[0]);
                self.b.ins().iadd(t, l[0])
            }
            WorkItemQuery::GlobalLinearId => {
                let mut r = Vec::new();
                for k in 0..3 {
                    let l = self.b.use_var(self.lid[k]);
                    let g = self.b.ins().iadd(self.gbase[k], l);
                    let o = self.env_load(E_OFFSET + k);
                    r.push(self.b.ins().isub(g, o));
                }
                let g1 = self.env_load(E_GSIZE + 1);
                let g0 = self.env_load(E_GSIZE);
                let t = self.b.ins().imul(r[2], g1);
                let t = self.b.ins().iadd(t, r[1]);
                let t = self.b.ins().imul(t, g0);
                self.b.ins().iadd(t, r[0])
            }
            _ => {
                let three = self.iconst(3);
                let idx = self.b.ins().umin(dv, three);
                let base = (E_QUERY + 4 * query_index(q)) as i64;
                let w = self.b.ins().iadd_imm_s(idx, base);
                let off = self.b.ins().ishl_imm_s(w, 3);
                let a = self.b.ins().iadd(self.env, off);
                self.b.ins().load(types::I64, pure_flags(), a, 0)
            }
        }
    }

    /// A load or store of `n` lanes of `b` bytes (`len` bytes in all, `align`-aligned),
    /// with the fast path for buffers (`__global`, and `__constant` for reads) and the slow
    /// path (the interpreter's code) for everything else, faults included.
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        fi: u32,
        pc: u32,
        f: &DFunc,
        ins: &I,
        vars: &[Variable],
        p: u32,
        acc: Acc,
        store: Option<u32>,
        load: Option<u32>,
        atomic: Option<Atomic>,
    ) {
        let Acc {
            len,
            align,
            b: eb,
            n,
            bool_lanes,
        } = acc;
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let fast = self.b.create_block();
        self.b.set_cold_block(slow);
        let addr_v = self.b.declare_var(types::I64);
        let deferred = vars.get(p as usize).and_then(|v| {
            self.deferred
                .remove(&cranelift_codegen::entity::EntityRef::index(*v))
        });
        let root = self
            .active
            .last()
            .and_then(|a| a.roots.get(p as usize).copied().flatten())
            .and_then(|r| self.root_at(r));
        let pv;
        let group = self.active.last().and_then(|a| a.groups.get(&pc).copied());
        // The group's base pointer and root: through the arithmetic left to this access,
        // or (the member at offset 0) the access's own pointer.
        let base = match (&deferred, root) {
            (Some(df), _) if df.terms.len() == 1 => Some((df.p, df.root)),
            (None, Some(rv)) => {
                let arg = self
                    .active
                    .last()
                    .is_some_and(|a| a.args.get(p as usize) == Some(&true));
                match rv.val {
                    Some(v) if arg => Some((v, rv)),
                    _ => Some((self.get(vars, p), rv)),
                }
            }
            _ => None,
        };
        if let (Some((g, c)), Some((bp, brv))) = (group, base) {
            // Every access of the group in bounds (checked at its first): no check here.
            let (all_ok, bs) = self.group_check(g, bp, brv, vars);
            let addr = self.b.ins().iadd_imm_s(bs, c);
            self.b.def_var(addr_v, addr);
            // The rest (each access's own checks, then the slow path) only runs when some
            // access of the group faults: laid out after the hot code.
            let each = self.b.create_block();
            self.b.set_cold_block(each);
            // The flag is 0 or 1: compared with 1, it is read once (a spilled flag: one
            // reload, where testing it against itself reloads it twice).
            let t = self.b.ins().icmp_imm_s(IntCC::Equal, all_ok, 1);
            self.b.ins().brif(t, fast, &[], each, &[]);
            self.b.seal_block(each);
            self.b.switch_to_block(each);
        }
        if let Some(df) = deferred {
            // The base pointer still points into its root's allocation, every index is
            // small, every step stays inside the offset field, and the final offset (not
            // negative) leaves the access inside the allocation.
            let rv = df.root;
            // Through the root's own pointer at local ids times constants: in bounds for
            // the whole group when its last work-item's offset is (the driver's per-group
            // flag, see [`lid_access_ok`]); the full test below when it is not.
            let lid_terms: Option<Vec<(u8, u64)>> = df
                .terms
                .iter()
                .zip(&df.lids)
                .map(|(&(_, _, sc), l)| match (sc, l) {
                    (Some(sc), Some(d)) if sc > 0 && sc % align as u64 == 0 && sc < 1 << 32 => {
                        Some((*d, sc))
                    }
                    _ => None,
                })
                .collect();
            if let (Some(terms), true) = (lid_terms, df.exact) {
                let req = LidReq {
                    root: rv.index,
                    terms,
                    len: len as u64,
                    align,
                    store: store.is_some(),
                };
                let at = table_index(&mut self.lid_reqs, req, MAX_LID_REQS);
                if let Some(i) = at {
                    let ok = self.env_load(self.lid_word + i);
                    let mut addr = self.b.ins().iadd(rv.base, rv.soff);
                    for &(_, bytes, _) in &df.terms {
                        addr = self.b.ins().iadd(addr, bytes);
                    }
                    self.b.def_var(addr_v, addr);
                    self.fast_if(ok, fast);
                }
            }
            // Through the unchanged argument at a scaled index: one range test of the
            // index (the full test below when it fails).
            if let ([(x, bytes, sc)], true) = (df.terms.as_slice(), rv.val == Some(df.p)) {
                let scale = sc.unwrap_or(1);
                if scale.is_power_of_two() && scale % align as u64 == 0 && scale < 1 << 16 {
                    let r = self.index_range(
                        &rv,
                        scale as i64,
                        0,
                        len as i64,
                        align,
                        store.is_some(),
                        0,
                        0,
                    );
                    let ok = self.in_range(*x, r);
                    let bs = self.b.ins().iadd(rv.base, rv.soff);
                    let addr = self.b.ins().iadd(bs, *bytes);
                    self.b.def_var(addr_v, addr);
                    self.fast_if(ok, fast);
                }
            }
            let general = self.b.create_block();
            let sh = (64 - ptr::ALLOC_SHIFT) as i64;
            let (mut ok, mut off) = if rv.val == Some(df.p) {
                let t = self.b.ins().iconst(types::I8, 1);
                (t, rv.soff)
            } else {
                let hi = self.b.ins().ushr_imm_s(df.p, ptr::ALLOC_SHIFT as i64);
                let same = self.b.ins().icmp(IntCC::Equal, hi, rv.hi);
                let o = self.b.ins().ishl_imm_s(df.p, sh);
                (same, self.b.ins().sshr_imm_s(o, sh))
            };
            for (i, &(x, bytes, _)) in df.terms.iter().enumerate() {
                let x32 = self.sext(x, 32);
                let small = self.b.ins().icmp(IntCC::Equal, x32, x);
                ok = self.b.ins().band(ok, small);
                off = self.b.ins().iadd(off, bytes);
                if i + 1 < df.terms.len() {
                    let t = self.b.ins().ishl_imm_s(off, sh);
                    let t = self.b.ins().sshr_imm_s(t, sh);
                    let inf = self.b.ins().icmp(IntCC::Equal, t, off);
                    ok = self.b.ins().band(ok, inf);
                }
            }
            let end = self.b.ins().iadd_imm_s(off, len as i64);
            let nonneg = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, off, end);
            let ok = self.b.ins().band(ok, nonneg);
            let at = RootAccess {
                rv: &rv,
                off,
                align,
                len,
                write: store.is_some(),
            };
            self.root_branch(at, ok, addr_v, fast, general);
            // Elsewhere the pointer is built as the arithmetic builds it.
            let mut q = df.p;
            for &(x, bytes, scale) in &df.terms {
                q = self.ptr_arith(q, x, bytes, scale);
            }
            pv = q;
            self.set(vars, p, pv);
        } else if let Some(rv) = root {
            pv = self.get(vars, p);
            // The pointer still points into its root's allocation: the root's bounds.
            let general = self.b.create_block();
            let hi = self.b.ins().ushr_imm_s(pv, ptr::ALLOC_SHIFT as i64);
            let same = self.b.ins().icmp(IntCC::Equal, hi, rv.hi);
            let off = self.b.ins().band_imm_s(pv, ptr::OFFSET_MASK as i64);
            let at = RootAccess {
                rv: &rv,
                off,
                align,
                len,
                write: store.is_some(),
            };
            self.root_branch(at, same, addr_v, fast, general);
        } else {
            pv = self.get(vars, p);
        }
        // Buffers and `__local` allocations of this group in the table.
        let (tag_ok, base, size) = self.table_entry(pv, store.is_some());
        let off = self.b.ins().band_imm_s(pv, ptr::OFFSET_MASK as i64);
        let inside = self.inside(off, align, len, size);
        let ok = self.b.ins().band(inside, tag_ok);
        let addr = self.b.ins().iadd(base, off);
        self.b.def_var(addr_v, addr);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.seal_block(fast);
        self.b.switch_to_block(fast);
        let addr = self.b.use_var(addr_v);
        let fl = MemFlagsData::new().with_notrap();
        if let Some(at) = atomic {
            self.atomic_at(at, eb, addr, vars, store, load);
        }
        // A 4-byte word that float operations read is loaded into a float register (on the
        // slow path, made from the slot's bits): no move from an integer register per use.
        let float = match load {
            Some(d) if atomic.is_none() && n == 1 && eb == 4 && !bool_lanes => self
                .active
                .last()
                .is_some_and(|a| a.float_reads.get(d as usize) == Some(&true))
                .then_some(d),
            _ => None,
        };
        let fv = self.b.declare_var(types::F32);
        if float.is_some() {
            let x = self.b.ins().load(types::F32, fl, addr, 0);
            self.b.def_var(fv, x);
        }
        for k in 0..n {
            if atomic.is_some() || float.is_some() {
                break;
            }
            let o = (k * eb) as i32;
            if let Some(v) = store {
                let x = self.get(vars, v + k);
                match eb {
                    1 => self.b.ins().istore8(fl, x, addr, o),
                    2 => self.b.ins().istore16(fl, x, addr, o),
                    4 => self.b.ins().istore32(fl, x, addr, o),
                    _ => self.b.ins().store(fl, x, addr, o),
                };
            }
            if let Some(d) = load {
                let mut x = match eb {
                    1 => self.b.ins().uload8(types::I64, fl, addr, o),
                    2 => self.b.ins().uload16(types::I64, fl, addr, o),
                    4 => self.b.ins().uload32(fl, addr, o),
                    _ => self.b.ins().load(types::I64, fl, addr, o),
                };
                if bool_lanes {
                    x = self.b.ins().band_imm_s(x, 1);
                }
                self.set(vars, d + k, x);
            }
        }
        self.b.ins().jump(join, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.slow(fi, pc, f, ins, vars);
        if let Some(d) = float {
            let x = self.get(vars, d);
            let x = self.f32_of(x);
            self.b.def_var(fv, x);
        }
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        if let Some(d) = float {
            let x = self.b.use_var(fv);
            let r = self.bits_of_f32(x);
            self.set(vars, d, r);
        }
    }

    /// Ends the block by going on to `fast` when `ok` holds, and continues in a new cold
    /// block (the fuller test) otherwise.
    fn fast_if(&mut self, ok: Value, fast: Block) {
        let full = self.b.create_block();
        self.b.set_cold_block(full);
        self.b.ins().brif(ok, fast, &[], full, &[]);
        self.b.seal_block(full);
        self.b.switch_to_block(full);
    }

    /// `Op::InBounds` (`d` = whether `len` bytes at `p` can be read and written): a buffer's
    /// or this group's `__local` allocation's bounds in line (1 when they hold); any other
    /// pointer, or bounds that fail, get the interpreter's exact answer on the slow path.
    fn in_bounds(
        &mut self,
        fi: u32,
        pc: u32,
        f: &DFunc,
        ins: &I,
        vars: &[Variable],
        (d, p, len): (u32, u32, u32),
    ) {
        let (pv, n) = (self.get(vars, p), self.get(vars, len));
        let (tag_ok, _, size) = self.table_entry(pv, true);
        let off = self.b.ins().band_imm_s(pv, ptr::OFFSET_MASK as i64);
        let lim = self.b.ins().isub(size, n);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, n, size);
        let within = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, off, lim);
        let ok = self.b.ins().band(fits, within);
        let ok = self.b.ins().band(ok, tag_ok);
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(slow);
        let r = self.b.append_block_param(join, types::I64);
        let one = self.iconst(1);
        self.b.ins().brif(ok, join, &[one.into()], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.slow(fi, pc, f, ins, vars);
        let exact = self.get(vars, d);
        self.b.ins().jump(join, &[exact.into()]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.set(vars, d, r);
    }

    /// The allocation table entry of tagged pointer `pv` (a buffer: `__global`, or
    /// `__constant` unless `write`; or a `__local` allocation of this group): whether the
    /// tag is one of those (no wrong-cast mark), and the entry's base and size. An index past
    /// the table reads the (0, 0) entry after its last one (the driver puts it there), which
    /// fails any size check: the loads are safe before any check, so they are pure (merged
    /// and hoisted out of loops).
    fn table_entry(&mut self, pv: Value, write: bool) -> (Value, Value, Value) {
        let top = self.b.ins().ushr_imm_s(pv, ptr::BAD_SHIFT as i64);
        let is_g = if write {
            self.b.ins().icmp_imm_s(IntCC::Equal, top, 8)
        } else {
            let g = self.b.ins().icmp_imm_s(IntCC::Equal, top, 8);
            let c = self.b.ins().icmp_imm_s(IntCC::Equal, top, 16);
            self.b.ins().bor(g, c)
        };
        let is_l = self.b.ins().icmp_imm_s(IntCC::Equal, top, 24);
        let tag_ok = self.b.ins().bor(is_g, is_l);
        let (gtab, ltab, nloc) = (self.gtab, self.ltab, self.nloc);
        let tab = self.b.ins().select(is_l, ltab, gtab);
        let count = self.b.ins().select(is_l, nloc, self.nglob);
        let idx = self.b.ins().ushr_imm_s(pv, ptr::ALLOC_SHIFT as i64);
        let idx = self.b.ins().band_imm_s(idx, ptr::ALLOC_MASK as i64);
        let idx = self.b.ins().umin(idx, count);
        let w = self.b.ins().ishl_imm_s(idx, 4);
        let ta = self.b.ins().iadd(tab, w);
        let base = self.b.ins().load(types::I64, pure_flags(), ta, 0);
        let size = self.b.ins().load(types::I64, pure_flags(), ta, 8);
        (tag_ok, base, size)
    }

    /// Whether `len` bytes at offset `off` are `align`-aligned and end within `size`.
    fn inside(&mut self, off: Value, align: u32, len: u32, size: Value) -> Value {
        let mis = self.b.ins().band_imm_s(off, (align - 1) as i64);
        let aligned = self.b.ins().icmp_imm_s(IntCC::Equal, mis, 0);
        let end = self.b.ins().iadd_imm_s(off, len as i64);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, size);
        self.b.ins().band(aligned, fits)
    }

    /// Ends the block with the test that the access `at` is aligned and inside its root's
    /// object (and that `ok` holds): on to `fast` with `addr_v` the host address, else on in
    /// `general`.
    fn root_branch(
        &mut self,
        at: RootAccess,
        ok: Value,
        addr_v: Variable,
        fast: Block,
        general: Block,
    ) {
        let RootAccess {
            rv,
            off,
            align,
            len,
            write,
        } = at;
        let size = if write { rv.size_st } else { rv.size_ld };
        let inside = self.inside(off, align, len, size);
        let ok = self.b.ins().band(ok, inside);
        let addr = self.b.ins().iadd(rv.base, off);
        self.b.def_var(addr_v, addr);
        // A pointer with a known root fails this only when the access faults.
        self.b.set_cold_block(general);
        self.b.ins().brif(ok, fast, &[], general, &[]);
        self.b.seal_block(general);
        self.b.switch_to_block(general);
    }

    /// The atomic operation `at` on the `b`-byte word at `addr` (already checked): operands
    /// and results are the zero-extended lanes of the slots, as the interpreter keeps them.
    fn atomic_at(
        &mut self,
        at: Atomic,
        b: u32,
        addr: Value,
        vars: &[Variable],
        store: Option<u32>,
        load: Option<u32>,
    ) {
        let ty = if b == 8 { types::I64 } else { types::I32 };
        let fl = MemFlagsData::new().with_notrap();
        let narrow = |l: &mut Self, x: Value| {
            if b == 8 {
                x
            } else {
                l.b.ins().ireduce(types::I32, x)
            }
        };
        let widen = |l: &mut Self, x: Value| {
            if b == 8 {
                x
            } else {
                l.b.ins().uextend(types::I64, x)
            }
        };
        let operand = |l: &mut Self, slot: Option<u32>| {
            let x = match slot {
                Some(s) => l.get(vars, s),
                None => l.iconst(0),
            };
            narrow(l, x)
        };
        match at {
            Atomic::Rmw(op, d) => {
                let x = operand(self, store);
                let old = self.b.ins().atomic_rmw(ty, fl, op, addr, x);
                let old = widen(self, old);
                self.set(vars, d, old);
            }
            Atomic::Cas { d, e } => {
                let want = operand(self, Some(e));
                let new = operand(self, store);
                let old = self.b.ins().atomic_cas(fl, addr, want, new);
                let old = widen(self, old);
                self.set(vars, d, old);
            }
            Atomic::Load => {
                let x = self.b.ins().atomic_load(ty, fl, addr);
                let x = widen(self, x);
                if let Some(d) = load {
                    self.set(vars, d, x);
                }
            }
            Atomic::Store => {
                let x = operand(self, store);
                self.b.ins().atomic_store(fl, x, addr);
            }
        }
    }
}

/// An access at byte `off` of a root's object: `len` bytes, `align`-aligned.
pub struct RootAccess<'r> {
    rv: &'r RootVals,
    off: Value,
    align: u32,
    len: u32,
    write: bool,
}

/// An atomic access compiled inline (32- or 64-bit words; the value operand is the access's
/// `store` slot, the loaded value goes to its `load` slot).
#[derive(Clone, Copy)]
pub enum Atomic {
    /// Read-modify-write; the old value goes to slot `.1`.
    Rmw(AtomicRmwOp, u32),
    /// Compare-and-exchange with the expected value in slot `e`; the old value goes to `d`.
    Cas {
        d: u32,
        e: u32,
    },
    Load,
    Store,
}

/// The Cranelift operation of an atomic read-modify-write on a word of scalar `s` (integer
/// operations on integers; exchange also on floats, as bits; float add stays on the slow path).
fn atomic_op(op: oclc_ir::RmwOp, s: Scalar) -> Option<AtomicRmwOp> {
    use oclc_ir::RmwOp as R;
    let int = matches!(s, Scalar::I32 | Scalar::I64);
    Some(match op {
        R::Xchg => AtomicRmwOp::Xchg,
        R::Add if int => AtomicRmwOp::Add,
        R::Sub if int => AtomicRmwOp::Sub,
        R::And if int => AtomicRmwOp::And,
        R::Or if int => AtomicRmwOp::Or,
        R::Xor if int => AtomicRmwOp::Xor,
        R::SMin if int => AtomicRmwOp::Smin,
        R::SMax if int => AtomicRmwOp::Smax,
        R::UMin if int => AtomicRmwOp::Umin,
        R::UMax if int => AtomicRmwOp::Umax,
        _ => return None,
    })
}

/// The bytes of an atomic word of scalar `s` compiled inline: 32- and 64-bit integers and
/// floats (as bits).
fn atomic_word(s: Scalar) -> Option<u32> {
    match s {
        Scalar::I32 | Scalar::F32 => Some(4),
        Scalar::I64 | Scalar::F64 => Some(8),
        _ => None,
    }
}

/// The shape of a memory access compiled inline.
#[derive(Clone, Copy)]
pub struct Acc {
    len: u32,
    align: u32,
    /// Bytes per lane.
    b: u32,
    n: u32,
    /// `bool` lanes (loaded as 0 or 1).
    bool_lanes: bool,
}

impl Acc {
    fn word(b: u32) -> Acc {
        Acc {
            len: b,
            align: b,
            b,
            n: 1,
            bool_lanes: false,
        }
    }

    /// A `Load`/`Store` of `n` lanes of `s`, when its bytes are exactly its lanes' (not
    /// 3-lane vectors, whose padding the slow path handles).
    fn of(s: Scalar, n: u8) -> Option<Acc> {
        let t = oclc_ir::Type::vec(s, n);
        let b = s.bytes();
        let len = t.access_size();
        let align = t.align();
        (matches!(b, 1 | 2 | 4 | 8)
            && matches!(n, 1 | 2 | 4 | 8 | 16)
            && len == b * n as u32
            && align.is_power_of_two())
        .then_some(Acc {
            len,
            align,
            b,
            n: n as u32,
            bool_lanes: s == Scalar::I1,
        })
    }
}

/// Target block of each branch-target pc.
pub struct BlockMap {
    pcs: Vec<u32>,
    blocks: Vec<Block>,
    fallback: Block,
}

impl BlockMap {
    fn get(&self, pc: u32) -> Block {
        match self.pcs.binary_search(&pc) {
            Ok(i) => self.blocks[i],
            Err(_) => self.fallback,
        }
    }
}

/// Slots of `f` (a function with barriers) saved to their state words where they are
/// defined rather than at every barrier: those live after a barrier that only instructions
/// lowered through `Lower::set` define (not parameters, edge-move targets or call results).
/// Defined once and live across a loop's barriers, such a slot is stored once, not at each.
fn eager_slots(f: &DFunc, l: &super::live::Liveness) -> Vec<bool> {
    let n = f.nregs as usize;
    let mut e = vec![false; n];
    for (pc, ins) in f.code.iter().enumerate() {
        if matches!(ins, I::Barrier { .. }) {
            for (k, x) in e.iter_mut().enumerate() {
                if l.live(pc as u32 + 1, k as u32) {
                    *x = true;
                }
            }
        }
    }
    let mut clear = |s: u32, k: u32| {
        for x in s..s.saturating_add(k) {
            if let Some(y) = e.get_mut(x as usize) {
                *y = false;
            }
        }
    };
    for &(d, _) in &f.moves {
        clear(d, 1);
    }
    for &(s, k) in &f.params {
        clear(s, k);
    }
    for ins in &f.code {
        if let I::Call { d, info } = *ins {
            let k = f.calls.get(info as usize).map_or(1, |c| c.ret_n);
            clear(d, k.max(1));
        }
    }
    e
}

/// Accesses of one block at constant offsets from one base pointer (a slot with a known
/// root), indexed by one index slot plus constants (or by constants alone), through pointer
/// arithmetic used by nothing else.
#[derive(Clone, Copy, Debug)]
pub struct AccessGroup {
    /// The index slot (sign-extended from 32 bits when `sext`), scaled by `scale`.
    pub idx: Option<u32>,
    pub sext: bool,
    pub scale: i64,
    /// Lowest and highest constant added to the index.
    pub clo: i64,
    pub chi: i64,
    /// Lowest offset and highest end (bytes past base + index * scale) of the accesses.
    pub lo: i64,
    pub end: i64,
    /// Largest alignment (every constant offset is a multiple of its access's alignment).
    pub align: u32,
    /// Whether an access stores.
    pub store: bool,
}

/// Group key: base slot, index slot, sign-extended, scale.
type GroupKey = (u32, Option<u32>, bool, i64);
type Members = Vec<(u32, i64)>;

/// The access groups of `f` (blocks start at `starts`): groups of at least two accesses,
/// keyed by each access's pc with its constant byte offset.
#[allow(clippy::type_complexity)]
fn access_groups(
    f: &DFunc,
    starts: &[u32],
    consts: &[Option<u64>],
    uses: &[u32],
    rooted: impl Fn(u32) -> bool,
) -> (
    std::collections::HashMap<u32, (usize, i64)>,
    Vec<AccessGroup>,
) {
    use std::collections::HashMap;
    let mut out = HashMap::new();
    let mut info = Vec::new();
    let mut cur: HashMap<GroupKey, (AccessGroup, Members)> = HashMap::new();
    // Pointer arithmetic of this block: result slot -> (key, index constant, bytes).
    let mut arith: HashMap<u32, (GroupKey, i64, i64)> = HashMap::new();
    // Integer slots of this block that are another slot plus a constant: (slot, constant,
    // width).
    let mut lin: HashMap<u32, (u32, i64, u8)> = HashMap::new();
    let flush = |cur: &mut HashMap<GroupKey, (AccessGroup, Members)>,
                 out: &mut HashMap<u32, (usize, i64)>,
                 info: &mut Vec<AccessGroup>| {
        let mut gs: Vec<_> = cur.drain().map(|(_, g)| g).collect();
        gs.sort_by_key(|g| g.1.first().map(|m| m.0));
        for (g, members) in gs {
            if members.len() >= 2 {
                for (pc, c) in members {
                    out.insert(pc, (info.len(), c));
                }
                info.push(g);
            }
        }
    };
    let konst = |s: u32| consts.get(s as usize).copied().flatten();
    let small = |x: i64| i32::try_from(x).is_ok();
    for (pc, ins) in f.code.iter().enumerate() {
        let pc = pc as u32;
        if starts.binary_search(&pc).is_ok() {
            flush(&mut cur, &mut out, &mut info);
            arith.clear();
            lin.clear();
        }
        match *ins {
            I::Add { w, d, a, b } if w == 32 || w == 64 => {
                if let Some(c) = konst(b) {
                    lin.insert(d, (a, c as i64, w));
                } else if let Some(c) = konst(a) {
                    lin.insert(d, (b, c as i64, w));
                }
            }
            I::Sub { w, d, a, b } if w == 32 || w == 64 => {
                if let Some(c) = konst(b) {
                    lin.insert(d, (a, (c as i64).wrapping_neg(), w));
                }
            }
            I::PtrIndex { sw, scale, d, p, i } if rooted(p) && i != p => {
                let scale = scale as i64;
                if let Some(c) = konst(i) {
                    let x = if sw != 0 {
                        let sh = 64 - sw as u32;
                        ((c << sh) as i64) >> sh
                    } else {
                        c as i64
                    };
                    if let (Some(b), true) = (x.checked_mul(scale), small(x)) {
                        arith.insert(d, ((p, None, false, scale), x, b));
                    }
                } else if sw == 0 || sw == 32 {
                    let want = if sw == 0 { 64 } else { 32 };
                    let (slot, c) = match lin.get(&i) {
                        // A constant of the slot's width: as a signed value of that width.
                        Some(&(a, c, w)) if w == want => {
                            let c = if w == 32 { c as i32 as i64 } else { c };
                            (a, c)
                        }
                        _ => (i, 0),
                    };
                    if slot != p && c.abs() < 1 << 31 {
                        arith.insert(d, ((p, Some(slot), sw == 32, scale), c, c * scale));
                    }
                }
            }
            I::PtrAdd { d, p, o } if rooted(p) && o != p => {
                if let Some(c) = konst(o)
                    && small(c as i64)
                {
                    arith.insert(d, ((p, None, false, 1), c as i64, c as i64));
                }
            }
            I::Call { .. } | I::Barrier { .. } => {
                flush(&mut cur, &mut out, &mut info);
                arith.clear();
                lin.clear();
            }
            _ => {}
        }
        let Some(ptr) = access_ptr(ins) else {
            continue;
        };
        // Through arithmetic used by nothing else, or through the base pointer itself (the
        // member at offset 0).
        let (key, c, bytes) = match arith.get(&ptr) {
            Some(&m) if uses.get(ptr as usize) == Some(&1) => m,
            Some(_) => continue,
            None if rooted(ptr) => ((ptr, None, false, 1), 0, 0),
            None => continue,
        };
        let (len, align) = match *ins {
            I::Load4 { .. } | I::Store4 { .. } => (4, 4),
            I::Load8 { .. } | I::Store8 { .. } => (8, 8),
            I::Load { s, n, .. } | I::Store { s, n, .. } => match Acc::of(s, n) {
                Some(a) => (a.len, a.align),
                None => continue,
            },
            _ => continue,
        };
        if bytes.rem_euclid(align as i64) != 0 || bytes.abs() > 1 << 36 {
            continue;
        }
        let store = matches!(ins, I::Store4 { .. } | I::Store8 { .. } | I::Store { .. });
        let e = cur.entry(key).or_insert((
            AccessGroup {
                idx: key.1,
                sext: key.2,
                scale: key.3,
                clo: c,
                chi: c,
                lo: bytes,
                end: bytes + len as i64,
                align,
                store,
            },
            Vec::new(),
        ));
        e.0.clo = e.0.clo.min(c);
        e.0.chi = e.0.chi.max(c);
        e.0.lo = e.0.lo.min(bytes);
        e.0.end = e.0.end.max(bytes + len as i64);
        e.0.align = e.0.align.max(align);
        e.0.store |= store;
        e.1.push((pc, bytes));
    }
    flush(&mut cur, &mut out, &mut info);
    (out, info)
}

/// The value each slot of `f` holds, for slots that only instructions for which `source`
/// gives `(slot, value)` write, all with one value (no other instruction, edge move,
/// parameter or call result).
fn single_source_slots<T: Copy + PartialEq>(
    f: &DFunc,
    source: impl Fn(&I) -> Option<(u32, T)>,
) -> Vec<Option<T>> {
    let n = f.nregs as usize;
    // None: never written; Some(Some(v)): only `v`; Some(None): anything else.
    let mut st: Vec<Option<Option<T>>> = vec![None; n];
    let other = |st: &mut Vec<Option<Option<T>>>, s: u32, k: u32| {
        for x in s..s.saturating_add(k) {
            if let Some(y) = st.get_mut(x as usize) {
                *y = Some(None);
            }
        }
    };
    for ins in &f.code {
        match source(ins) {
            Some((d, v)) => {
                if let Some(y) = st.get_mut(d as usize) {
                    *y = match *y {
                        None => Some(Some(v)),
                        Some(Some(c)) if c == v => Some(Some(c)),
                        _ => Some(None),
                    };
                }
            }
            None => {
                let (_, w, _, _) = super::live::rw(f, ins);
                for (s, k) in w {
                    other(&mut st, s, k);
                }
                if let I::Call { d, info } = *ins {
                    let k = f.calls.get(info as usize).map_or(1, |c| c.ret_n);
                    other(&mut st, d, k.max(1));
                }
            }
        }
    }
    for &(d, _) in &f.moves {
        other(&mut st, d, 1);
    }
    for &(s, k) in &f.params {
        other(&mut st, s, k);
    }
    st.into_iter().map(|x| x.flatten()).collect()
}

/// The constant each slot of `f` holds, for slots that only `Imm` instructions of one
/// value write.
fn const_slots(f: &DFunc) -> Vec<Option<u64>> {
    single_source_slots(f, |ins| match *ins {
        I::Imm { d, v } => Some((d, v)),
        _ => None,
    })
}

/// The local-id dimension each slot of `f` holds, for slots that only `get_local_id(c)`
/// writes (one constant dimension `c` below 3): its value is the running work-item's local
/// id, below the group's size.
fn lid_slots(f: &DFunc, consts: &[Option<u64>]) -> Vec<Option<u8>> {
    single_source_slots(f, |ins| match *ins {
        I::WorkItem {
            q: WorkItemQuery::LocalId,
            d,
            dim,
        } => {
            let c = if dim == u32::MAX {
                Some(0)
            } else {
                consts.get(dim as usize).copied().flatten()
            };
            c.filter(|&c| c < 3).map(|c| (d, c as u8))
        }
        _ => None,
    })
}

/// Whether each slot of `f` is read by a 32-bit float operation compiled inline.
fn float_reads(f: &DFunc) -> Vec<bool> {
    let mut v = vec![false; f.nregs as usize];
    for ins in &f.code {
        let ab = match *ins {
            I::FAdd32 { a, b, .. }
            | I::FSub32 { a, b, .. }
            | I::FMul32 { a, b, .. }
            | I::FDiv32 { a, b, .. } => [a, b],
            I::Cmp {
                s: Scalar::F32,
                n: 1,
                a,
                b,
                ..
            } => [a, b],
            _ => continue,
        };
        for s in ab {
            if let Some(x) = v.get_mut(s as usize) {
                *x = true;
            }
        }
    }
    v
}

/// Whether each slot of `f` is written by an instruction, an edge move or a call.
fn written_slots(f: &DFunc) -> Vec<bool> {
    let mut v = vec![false; f.nregs as usize];
    let mut put = |s: u32, k: u32| {
        for x in s..s.saturating_add(k) {
            if let Some(y) = v.get_mut(x as usize) {
                *y = true;
            }
        }
    };
    for ins in &f.code {
        let (_, w, _, _) = super::live::rw(f, ins);
        for (s, k) in w {
            put(s, k);
        }
        if let I::Call { d, info } = *ins {
            let k = f.calls.get(info as usize).map_or(1, |c| c.ret_n);
            put(d, k.max(1));
        }
    }
    for &(d, _) in &f.moves {
        put(d, 1);
    }
    v
}

/// Reads of each slot of `f` (instructions and edge moves).
fn slot_uses(f: &DFunc) -> Vec<u32> {
    let mut u = vec![0u32; f.nregs as usize];
    let mut add = |s: u32| {
        if let Some(x) = u.get_mut(s as usize) {
            *x = x.saturating_add(1);
        }
    };
    for ins in &f.code {
        let (r, _, _, _) = super::live::rw(f, ins);
        for (s, n) in r {
            for k in s..s.saturating_add(n) {
                add(k);
            }
        }
    }
    for &(_, s) in &f.moves {
        add(s);
    }
    u
}

/// Where a function's code returns to when it is inlined.
pub struct RetTo {
    pub block: Block,
    /// The caller's variables for the result, and the lane count the caller expects.
    pub dest: Vec<Variable>,
    pub ret_n: u32,
    /// Whether to release the callee's private variables.
    pub release: bool,
}

impl Lower<'_, '_> {
    /// Lowers function `fi` with slot variables `vars`; the current block jumps into it.
    /// `ret` is `None` for the kernel (a return ends the work-item).
    pub fn function(
        &mut self,
        fi: u32,
        vars: &[Variable],
        ret: Option<RetTo>,
        depth: usize,
        params: &[Option<Root>],
    ) -> Result<(), Unsupported> {
        let prog = self.prog;
        let f = prog
            .funcs
            .get(fi as usize)
            .ok_or_else(|| Unsupported("a call of a missing function".into()))?;
        if depth > MAX_DEPTH {
            return Err(Unsupported("calls nested too deeply to inline".into()));
        }
        self.inlined += f.code.len();
        if self.inlined as u64 > MAX_INLINED {
            return Err(Unsupported(
                "kernel too large once calls are inlined".into(),
            ));
        }
        if f.code.is_empty() {
            return Err(Unsupported("an empty function".into()));
        }
        // Block starts: the entry, branch targets, and code after a terminator.
        let mut starts = BTreeSet::new();
        starts.insert(0u32);
        for e in &f.edges {
            starts.insert(e.pc);
        }
        for (pc, i) in f.code.iter().enumerate() {
            if matches!(
                i,
                I::Br { .. }
                    | I::CondBr { .. }
                    | I::BrICmp { .. }
                    | I::Switch { .. }
                    | I::Ret { .. }
                    | I::Unreachable
            ) {
                starts.insert(pc as u32 + 1);
            }
        }
        let pcs: Vec<u32> = starts.into_iter().collect();
        let blocks: Vec<Block> = pcs.iter().map(|_| self.b.create_block()).collect();
        // A branch to a pc past the code: the "fell off" fault.
        let off_end = self.b.create_block();
        self.b.set_cold_block(off_end);
        let bm = BlockMap {
            pcs,
            blocks,
            fallback: off_end,
        };
        self.b.ins().jump(bm.get(0), &[]);
        let liveness = if f.has_barrier {
            Some(
                self.liveness
                    .entry(fi)
                    .or_insert_with(|| std::rc::Rc::new(super::live::liveness(f)))
                    .clone(),
            )
        } else {
            None
        };
        let consts = const_slots(f);
        let lids = lid_slots(f, &consts);
        if let Some(l) = &liveness {
            use cranelift_codegen::entity::EntityRef;
            for (k, e) in eager_slots(f, l).into_iter().enumerate() {
                // Constants and local ids are redefined at resumes, never stored.
                let konst = consts.get(k).is_some_and(|c| c.is_some())
                    || lids.get(k).is_some_and(|c| c.is_some());
                if let (true, false, Some(v)) = (e, konst, vars.get(k)) {
                    if self.eager.len() <= v.index() {
                        self.eager.resize(v.index() + 1, false);
                    }
                    self.eager[v.index()] = true;
                }
            }
        }
        let roots = super::roots::slot_roots(f, params);
        let uses = slot_uses(f);
        let mut args = vec![false; f.nregs as usize];
        if ret.is_none() {
            let written = written_slots(f);
            for &(s, n) in &f.params {
                if let (1, Some(false), Some(a)) = (
                    n,
                    written.get(s as usize).copied(),
                    args.get_mut(s as usize),
                ) {
                    *a = true;
                }
            }
        }
        let (groups, group_info) = access_groups(f, &bm.pcs, &consts, &uses, |p| {
            roots
                .get(p as usize)
                .copied()
                .flatten()
                .is_some_and(|r| self.root_vals.contains_key(&r))
        });
        self.active.push(ActiveFn {
            groups,
            group_info,
            group_vals: Default::default(),
            consts,
            lids,
            vars: vars.to_vec(),
            roots,
            uses,
            args,
            float_reads: float_reads(f),
            live: liveness,
            pc: 0,
        });
        let mut live = false;
        for (pc, &ins) in f.code.iter().enumerate() {
            let pc = pc as u32;
            if let Ok(i) = bm.pcs.binary_search(&pc) {
                let blk = bm.blocks[i];
                if live {
                    self.b.ins().jump(blk, &[]);
                }
                self.b.switch_to_block(blk);
                live = true;
            }
            if !live {
                continue;
            }
            if let Some(a) = self.active.last_mut() {
                a.pc = pc;
            }
            self.inst(fi, pc, f, ins, vars, &bm, &ret, depth)?;
            if matches!(
                ins,
                I::Br { .. }
                    | I::CondBr { .. }
                    | I::BrICmp { .. }
                    | I::Switch { .. }
                    | I::Ret { .. }
                    | I::Unreachable
            ) {
                live = false;
            }
        }
        self.active.pop();
        if live {
            self.b.ins().jump(off_end, &[]);
        }
        self.b.switch_to_block(off_end);
        let last = f.code.len() as u32 - 1;
        let site = self.site(fi, last);
        let c = self.iconst((site << 8) | CODE_FELL_OFF);
        self.b.def_var(self.code, c);
        self.b.ins().jump(self.fault, &[]);
        for &blk in &bm.blocks {
            self.b.seal_block(blk);
        }
        self.b.seal_block(off_end);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn inst(
        &mut self,
        fi: u32,
        pc: u32,
        f: &DFunc,
        ins: I,
        vars: &[Variable],
        bm: &BlockMap,
        ret: &Option<RetTo>,
        depth: usize,
    ) -> Result<(), Unsupported> {
        match ins {
            I::Imm { d, v } => {
                let x = self.iconst(v);
                self.set(vars, d, x);
            }
            I::Splat { d, s, n } => {
                let x = self.get(vars, s);
                for k in 0..n {
                    self.set(vars, d + k, x);
                }
            }
            I::Copy { d, s, n } => {
                let xs: Vec<Value> = (0..n).map(|k| self.get(vars, s + k)).collect();
                for (k, x) in xs.into_iter().enumerate() {
                    self.set(vars, d + k as u32, x);
                }
            }
            I::Add { w, d, a, b } | I::Sub { w, d, a, b } | I::Mul { w, d, a, b } => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let r = match ins {
                    I::Add { .. } => self.b.ins().iadd(x, y),
                    I::Sub { .. } => self.b.ins().isub(x, y),
                    _ => self.b.ins().imul(x, y),
                };
                let r = self.masked(r, w);
                self.set(vars, d, r);
            }
            I::And { d, a, b } | I::Or { d, a, b } | I::Xor { d, a, b } => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let r = match ins {
                    I::And { .. } => self.b.ins().band(x, y),
                    I::Or { .. } => self.b.ins().bor(x, y),
                    _ => self.b.ins().bxor(x, y),
                };
                self.set(vars, d, r);
            }
            I::FAdd32 { d, a, b }
            | I::FSub32 { d, a, b }
            | I::FMul32 { d, a, b }
            | I::FDiv32 { d, a, b } => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let (x, y) = (self.f32_of(x), self.f32_of(y));
                let r = match ins {
                    I::FAdd32 { .. } => self.b.ins().fadd(x, y),
                    I::FSub32 { .. } => self.b.ins().fsub(x, y),
                    I::FMul32 { .. } => self.b.ins().fmul(x, y),
                    _ => self.b.ins().fdiv(x, y),
                };
                if matches!(ins, I::FAdd32 { .. } | I::FSub32 { .. }) {
                    self.anchor(r);
                }
                let r = self.bits_of_f32(r);
                self.set(vars, d, r);
            }
            I::FAdd64 { d, a, b } | I::FMul64 { d, a, b } => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let (x, y) = (self.f64_of(x), self.f64_of(y));
                let r = match ins {
                    I::FAdd64 { .. } => self.b.ins().fadd(x, y),
                    _ => self.b.ins().fmul(x, y),
                };
                let r = self.bits_of_f64(r);
                self.set(vars, d, r);
            }
            I::ICmp { op, w, d, a, b } => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                match self.icmp(op, w as u32, x, y) {
                    Some(c) => {
                        let r = self.b.ins().uextend(types::I64, c);
                        self.set(vars, d, r);
                    }
                    None => self.slow(fi, pc, f, &ins, vars),
                }
            }
            I::Cmp { op, s, n, d, a, b } if n == 1 && (s == Scalar::F32 || s == Scalar::F64) => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let (x, y) = if s == Scalar::F32 {
                    (self.f32_of(x), self.f32_of(y))
                } else {
                    (self.f64_of(x), self.f64_of(y))
                };
                let cc = match op {
                    CmpOp::FOeq => Some(FloatCC::Equal),
                    CmpOp::FUne => Some(FloatCC::NotEqual),
                    CmpOp::FOlt => Some(FloatCC::LessThan),
                    CmpOp::FOle => Some(FloatCC::LessThanOrEqual),
                    CmpOp::FOgt => Some(FloatCC::GreaterThan),
                    CmpOp::FOge => Some(FloatCC::GreaterThanOrEqual),
                    _ => None,
                };
                match cc {
                    Some(cc) => {
                        let c = self.b.ins().fcmp(cc, x, y);
                        let r = self.b.ins().uextend(types::I64, c);
                        self.set(vars, d, r);
                    }
                    None => self.slow(fi, pc, f, &ins, vars),
                }
            }
            I::Cmp { op, s, n, d, a, b } if n == 1 && s.is_int() => {
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                match self.icmp(op, s.bits(), x, y) {
                    Some(c) => {
                        let r = self.b.ins().uextend(types::I64, c);
                        self.set(vars, d, r);
                    }
                    None => self.slow(fi, pc, f, &ins, vars),
                }
            }
            I::Bin { op, s, n, d, a, b } if s.is_int() && int_bin(op) => {
                let w = s.bits();
                for k in 0..n as u32 {
                    let (x, y) = (self.get(vars, a + k), self.get(vars, b + k));
                    let sh = || w.max(1) as i64;
                    let r = match op {
                        BinOp::Add => self.b.ins().iadd(x, y),
                        BinOp::Sub => self.b.ins().isub(x, y),
                        BinOp::Mul => self.b.ins().imul(x, y),
                        BinOp::And => self.b.ins().band(x, y),
                        BinOp::Or => self.b.ins().bor(x, y),
                        BinOp::Xor => self.b.ins().bxor(x, y),
                        BinOp::Shl => {
                            let c = self.b.ins().urem_imm_s(y, sh());
                            self.b.ins().ishl(x, c)
                        }
                        BinOp::LShr => {
                            let c = self.b.ins().urem_imm_s(y, sh());
                            self.b.ins().ushr(x, c)
                        }
                        _ => {
                            let c = self.b.ins().urem_imm_s(y, sh());
                            let xs = self.sext(x, w);
                            self.b.ins().sshr(xs, c)
                        }
                    };
                    let r = self.masked(r, w as u8);
                    self.set(vars, d + k, r);
                }
            }
            I::Conv {
                op,
                from,
                to,
                n,
                d,
                a,
            } if matches!(
                op,
                ConvOp::ZExt | ConvOp::Trunc | ConvOp::PtrToInt | ConvOp::SExt
            ) =>
            {
                // Lane by lane, as the interpreter does.
                for k in 0..n as u32 {
                    let x = self.get(vars, a + k);
                    let x = if op == ConvOp::SExt {
                        self.sext(x, from.bits())
                    } else {
                        x
                    };
                    let r = self.masked(x, to.bits().min(64) as u8);
                    self.set(vars, d + k, r);
                }
            }
            I::BrICmp { op, w, a, b, info } => {
                self.step(fi, pc);
                let (x, y) = (self.get(vars, a), self.get(vars, b));
                let c = self
                    .icmp(op, w as u32, x, y)
                    .ok_or_else(|| Unsupported("a float compare-and-branch".into()))?;
                let (t, e) = f
                    .brcmps
                    .get(info as usize)
                    .copied()
                    .ok_or_else(|| Unsupported("a bad branch".into()))?;
                self.branch(c, f, t, e, vars, bm);
            }
            I::Select { n, vc, d, c, info } => {
                let (a, b) = f.selects.get(info as usize).copied().unwrap_or((0, 0));
                for k in 0..n as u32 {
                    let cv = self.get(vars, c + if vc { k } else { 0 });
                    let cb = self.b.ins().band_imm_s(cv, 1);
                    let (x, y) = (self.get(vars, a + k), self.get(vars, b + k));
                    let r = self.b.ins().select(cb, x, y);
                    self.set(vars, d + k, r);
                }
            }
            I::ExtractDyn { n, d, v, i } => {
                let iv = self.get(vars, i);
                let k = self.b.ins().urem_imm_s(iv, n.max(1) as i64);
                let mut r = self.get(vars, v);
                for j in 1..n.max(1) as u32 {
                    let is = self.b.ins().icmp_imm_s(IntCC::Equal, k, j as i64);
                    let lane = self.get(vars, v + j);
                    r = self.b.ins().select(is, lane, r);
                }
                self.set(vars, d, r);
            }
            I::InsertDyn { n, d, x, i } => {
                let iv = self.get(vars, i);
                let k = self.b.ins().urem_imm_s(iv, n.max(1) as i64);
                let xv = self.get(vars, x);
                for j in 0..n.max(1) as u32 {
                    let is = self.b.ins().icmp_imm_s(IntCC::Equal, k, j as i64);
                    let old = self.get(vars, d + j);
                    let r = self.b.ins().select(is, xv, old);
                    self.set(vars, d + j, r);
                }
            }
            I::PtrAdd { d, p, o } => {
                let (x, y) = (self.get(vars, p), self.get(vars, o));
                if !self.defer(f, pc, bm, vars, d, p, x, y, y, None, None) {
                    let r = self.ptr_arith(x, y, y, None);
                    self.set(vars, d, r);
                }
            }
            I::PtrIndex { sw, scale, d, p, i } => {
                let x = self.get(vars, p);
                let mut iv = self.get(vars, i);
                if sw != 0 {
                    iv = self.sext(iv, sw as u32);
                }
                let prod = self.b.ins().imul_imm_s(iv, scale as i64);
                let sc = Some(scale as u64);
                let lid = self
                    .active
                    .last()
                    .and_then(|a| a.lids.get(i as usize).copied().flatten());
                if !self.defer(f, pc, bm, vars, d, p, x, iv, prod, sc, lid) {
                    let r = self.ptr_arith(x, iv, prod, sc);
                    self.set(vars, d, r);
                }
            }
            I::Load4 { d, p } => {
                self.access(fi, pc, f, &ins, vars, p, Acc::word(4), None, Some(d), None)
            }
            I::InBounds { d, p, len } => self.in_bounds(fi, pc, f, &ins, vars, (d, p, len)),
            I::Load8 { d, p } => {
                self.access(fi, pc, f, &ins, vars, p, Acc::word(8), None, Some(d), None)
            }
            I::Rmw { op, s, d, p, v } if atomic_word(s).is_some() && atomic_op(op, s).is_some() => {
                let acc = Acc::word(atomic_word(s).unwrap_or(4));
                let at = Atomic::Rmw(atomic_op(op, s).unwrap_or(AtomicRmwOp::Xchg), d);
                self.access(fi, pc, f, &ins, vars, p, acc, Some(v), None, Some(at))
            }
            I::CmpXchg { s, d, info } if atomic_word(s).is_some() => {
                let &(p, e, v) = f
                    .cmpxchgs
                    .get(info as usize)
                    .ok_or_else(|| Unsupported("a bad compare-and-exchange".into()))?;
                let acc = Acc::word(atomic_word(s).unwrap_or(4));
                let at = Atomic::Cas { d, e };
                self.access(fi, pc, f, &ins, vars, p, acc, Some(v), None, Some(at))
            }
            I::AtomicLoad { s, d, p } if atomic_word(s).is_some() => {
                let acc = Acc::word(atomic_word(s).unwrap_or(4));
                let at = Atomic::Load;
                self.access(fi, pc, f, &ins, vars, p, acc, None, Some(d), Some(at))
            }
            I::AtomicStore { s, p, v } if atomic_word(s).is_some() => {
                let acc = Acc::word(atomic_word(s).unwrap_or(4));
                let at = Atomic::Store;
                self.access(fi, pc, f, &ins, vars, p, acc, Some(v), None, Some(at))
            }
            I::Store4 { p, v } => {
                self.access(fi, pc, f, &ins, vars, p, Acc::word(4), Some(v), None, None)
            }
            I::Store8 { p, v } => {
                self.access(fi, pc, f, &ins, vars, p, Acc::word(8), Some(v), None, None)
            }
            I::Load { s, n, d, p } => match Acc::of(s, n) {
                Some(acc) => self.access(fi, pc, f, &ins, vars, p, acc, None, Some(d), None),
                None => self.slow(fi, pc, f, &ins, vars),
            },
            I::Store { s, n, p, v } => match Acc::of(s, n) {
                Some(acc) => self.access(fi, pc, f, &ins, vars, p, acc, Some(v), None, None),
                None => self.slow(fi, pc, f, &ins, vars),
            },
            I::WorkItem { q, d, dim }
                if matches!(q, WorkItemQuery::LocalId | WorkItemQuery::GlobalId)
                    && self.active.last().is_some_and(|a| {
                        dim == u32::MAX
                            || a.consts
                                .get(dim as usize)
                                .copied()
                                .flatten()
                                .is_some_and(|c| c < 3)
                    }) =>
            {
                // A dimension below 3: beyond the launch's dimensions the local size is 1 and
                // the group's first global id 0 (the launch's shape), so no test of it.
                let k = if dim == u32::MAX {
                    0
                } else {
                    self.active
                        .last()
                        .and_then(|a| a.consts.get(dim as usize).copied().flatten())
                        .unwrap_or(0) as usize
                };
                let l = self.b.use_var(self.lid[k]);
                let r = if q == WorkItemQuery::GlobalId {
                    self.b.ins().iadd(self.gbase[k], l)
                } else {
                    l
                };
                self.set(vars, d, r);
            }
            I::WorkItem { q, d, dim } => {
                let dv = if dim == u32::MAX {
                    self.iconst(0)
                } else {
                    let x = self.get(vars, dim);
                    self.b.ins().band_imm_s(x, 0xffff_ffff)
                };
                let r = self.query(q, dv);
                self.set(vars, d, r);
            }
            I::Br { e } => {
                self.step(fi, pc);
                self.take_edge(f, e, vars, bm);
            }
            I::CondBr { c, t, f: e } => {
                self.step(fi, pc);
                let cv = self.get(vars, c);
                let cb = self.b.ins().band_imm_s(cv, 1);
                self.branch(cb, f, t, e, vars, bm);
            }
            I::Switch { x, info } => {
                self.step(fi, pc);
                let sw = f
                    .switches
                    .get(info as usize)
                    .ok_or_else(|| Unsupported("a bad switch".into()))?;
                let xv = self.get(vars, x);
                for &(k, e) in &sw.cases {
                    let kv = self.iconst(k);
                    let is = self.b.ins().icmp(IntCC::Equal, xv, kv);
                    self.edge_if(is, f, e, vars, bm);
                }
                self.take_edge(f, sw.default, vars, bm);
            }
            I::Unreachable => {
                let site = self.site(fi, pc);
                let c = self.iconst((site << 8) | CODE_UNREACHABLE);
                self.b.def_var(self.code, c);
                self.b.ins().jump(self.fault, &[]);
            }
            I::Ret { v, n } => match ret {
                None => {
                    self.b.ins().jump(self.item_end, &[]);
                }
                Some(rt) => {
                    if n > 0 && rt.ret_n == n {
                        let xs: Vec<Value> = (0..n).map(|k| self.get(vars, v + k)).collect();
                        for (k, x) in xs.into_iter().enumerate() {
                            if let Some(dv) = rt.dest.get(k) {
                                self.b.def_var(*dv, x);
                            }
                        }
                    }
                    if rt.release {
                        let z = self.iconst(0);
                        self.shim(self.shims.release, &[z]);
                    }
                    self.b.ins().jump(rt.block, &[]);
                }
            },
            I::Call { d, info } => {
                self.step(fi, pc);
                let ci = f
                    .calls
                    .get(info as usize)
                    .ok_or_else(|| Unsupported("a bad call".into()))?;
                let callee = self
                    .prog
                    .funcs
                    .get(ci.func as usize)
                    .ok_or_else(|| Unsupported("a call of a missing function".into()))?;
                let cvars: Vec<Variable> = (0..callee.nregs)
                    .map(|_| self.b.declare_var(types::I64))
                    .collect();
                for (&(src, n), &(pslot, _)) in ci.args.iter().zip(&callee.params) {
                    for k in 0..n {
                        let x = self.get(vars, src + k);
                        self.set(&cvars, pslot + k, x);
                    }
                }
                let release = self.private.get(ci.func as usize) == Some(&true);
                if release {
                    let z = self.iconst(0);
                    self.shim(self.shims.mark, &[z]);
                }
                let cont = self.b.create_block();
                let dest: Vec<Variable> = (0..ci.ret_n)
                    .filter_map(|k| vars.get((d + k) as usize).copied())
                    .collect();
                let rt = RetTo {
                    block: cont,
                    dest,
                    ret_n: ci.ret_n,
                    release,
                };
                let proots: Vec<Option<Root>> = ci
                    .args
                    .iter()
                    .map(|&(s, n)| {
                        let a = self.active.last()?;
                        if n == 1 {
                            a.roots.get(s as usize).copied().flatten()
                        } else {
                            None
                        }
                    })
                    .collect();
                self.function(ci.func, &cvars, Some(rt), depth + 1, &proots)?;
                self.b.seal_block(cont);
                self.b.switch_to_block(cont);
            }
            I::Barrier { .. } => {
                use cranelift_codegen::entity::EntityRef;
                let site = self.site(fi, pc);
                let code = STOP_BARRIER + site;
                // What is live after the barrier (and after the calls that lead to it).
                let mut all: Vec<Variable> = Vec::new();
                // Constants live after the barrier are not saved: the resume redefines them.
                let mut consts: Vec<(Variable, u64)> = Vec::new();
                // So are local ids: the resume reads them from the work-item loop.
                let mut lids: Vec<(Variable, u8)> = Vec::new();
                // And the kernel's arguments: the resume reads the values loaded at entry.
                let mut argv: Vec<(Variable, Value)> = Vec::new();
                for a in &self.active {
                    for (k, v) in a.vars.iter().enumerate() {
                        if a.live.as_ref().is_none_or(|l| l.live(a.pc + 1, k as u32)) {
                            let arg = (a.args.get(k) == Some(&true))
                                .then(|| self.arg_vals.get(&v.index()).copied())
                                .flatten();
                            match (
                                a.consts.get(k).copied().flatten(),
                                a.lids.get(k).copied().flatten(),
                                arg,
                            ) {
                                (Some(c), _, _) => consts.push((*v, c)),
                                (None, Some(d), _) => lids.push((*v, d)),
                                (None, None, Some(x)) => argv.push((*v, x)),
                                (None, None, None) => all.push(*v),
                            }
                        }
                    }
                }
                let sb = self.b.use_var(self.sbase);
                for v in &all {
                    let x = self.b.use_var(*v);
                    let slot = self.state_slot(v.index());
                    if self.eager.get(v.index()) == Some(&true) {
                        continue;
                    }
                    // Still the value this work-item restored from the same word at an
                    // earlier barrier: the word holds it already.
                    if self.restored.get(&x.as_u32()) == Some(&v.index()) {
                        continue;
                    }
                    let off = ((STATE_VARS + slot) * 8) as i32;
                    self.b.ins().store(flags(), x, sb, off);
                }
                // Without step checks the count is not kept (always 0).
                if self.step_checks {
                    let st = self.b.use_var(self.steps);
                    self.b
                        .ins()
                        .store(flags(), st, sb, (STATE_STEPS * 8) as i32);
                }
                let c = self.iconst(code);
                self.b.ins().store(flags(), c, sb, (STATE_STOP * 8) as i32);
                self.b.ins().jump(self.advance, &[]);
                let rb = self.b.create_block();
                let cont = self.b.create_block();
                self.b.switch_to_block(rb);
                let sb = self.b.use_var(self.sbase);
                for v in &all {
                    let off = ((STATE_VARS + self.state_slot(v.index())) * 8) as i32;
                    let x = self.b.ins().load(types::I64, flags(), sb, off);
                    self.restored.insert(x.as_u32(), v.index());
                    self.b.def_var(*v, x);
                }
                for &(v, c) in &consts {
                    let x = self.iconst(c);
                    self.b.def_var(v, x);
                }
                for &(v, d) in &lids {
                    let x = self.b.use_var(self.lid[d as usize]);
                    self.b.def_var(v, x);
                }
                for &(v, x) in &argv {
                    self.b.def_var(v, x);
                }
                if self.step_checks {
                    let st = self
                        .b
                        .ins()
                        .load(types::I64, flags(), sb, (STATE_STEPS * 8) as i32);
                    self.b.def_var(self.steps, st);
                }
                self.b.ins().jump(cont, &[]);
                self.b.seal_block(cont);
                self.b.switch_to_block(cont);
                self.resumes.push((code, rb));
            }
            I::WorkGroup { .. } => return Err(Unsupported("work-group collective".into())),
            I::Printf { .. } => return Err(Unsupported("printf".into())),
            I::Bin { .. }
            | I::Cmp { .. }
            | I::Un { .. }
            | I::Conv { .. }
            | I::Bitcast { .. }
            | I::PtrDiff { .. }
            | I::Memcpy { .. }
            | I::Memset { .. }
            | I::FromGeneric { .. }
            | I::SpaceTest { .. }
            | I::GetFence { .. }
            | I::StackAlloc { .. }
            | I::Builtin { .. }
            | I::Rmw { .. }
            | I::CmpXchg { .. }
            | I::AtomicLoad { .. }
            | I::AtomicStore { .. } => self.slow(fi, pc, f, &ins, vars),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{LidReq, RangeReq, index_range, lid_access_ok};

    /// The per-group flag holds exactly when every work-item's access passes the checks
    /// (each one's offset aligned, not negative, and its end inside the allocation).
    #[test]
    fn lid_access_ok_matches_every_work_item() {
        let req = |terms: Vec<(u8, u64)>, len: u64, align: u32| LidReq {
            root: 0,
            terms,
            len,
            align,
            store: false,
        };
        let reqs = [
            req(vec![(1, 68), (0, 4)], 4, 4),
            req(vec![(0, 4)], 4, 4),
            req(vec![(0, 8), (2, 64)], 8, 8),
            req(vec![(1, 2)], 2, 2),
        ];
        for r in &reqs {
            for local in [[16, 16, 1], [15, 16, 1], [1, 1, 1], [4, 3, 2]] {
                for soff in [-4i64, 0, 2, 4, 8] {
                    for size in [0i64, 4, 60, 64, 1084, 1088, 1092] {
                        let mut every = true;
                        for z in 0..local[2] {
                            for y in 0..local[1] {
                                for x in 0..local[0] {
                                    let id = [x, y, z];
                                    let off: i64 = soff
                                        + r.terms
                                            .iter()
                                            .map(|&(d, sc)| (id[d as usize] * sc) as i64)
                                            .sum::<i64>();
                                    every &= off >= 0
                                        && off % r.align as i64 == 0
                                        && off + r.len as i64 <= size;
                                }
                            }
                        }
                        assert_eq!(
                            lid_access_ok(r, soff, size, local),
                            every,
                            "{r:?} local {local:?} soff {soff} size {size}"
                        );
                    }
                }
            }
        }
    }

    /// What the per-access checks accept for index `x` (as `access` and `group_check` test
    /// it, with exact arithmetic).
    fn accepts(r: &RangeReq, soff: i64, size: i64, x: i64) -> bool {
        let small = |v: i128| v >= i32::MIN as i128 && v <= i32::MAX as i128;
        let off = soff as i128 + x as i128 * r.scale as i128;
        small(x as i128 + r.clo as i128)
            && small(x as i128 + r.chi as i128)
            && off % r.align as i128 == 0
            && off + r.lo as i128 >= 0
            && off + r.end as i128 <= size as i128
    }

    /// The range test accepts exactly the indexes the full checks accept, near every edge
    /// (offsets, sizes and the 32-bit limits of the index).
    #[test]
    fn index_range_matches_the_checks() {
        let xs: Vec<i64> = [
            -40i64, -9, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 40,
        ]
        .into_iter()
        .chain([
            i32::MIN as i64,
            i32::MAX as i64,
            1 << 33,
            -(1 << 33),
            i64::MIN,
            i64::MAX,
        ])
        .flat_map(|x: i64| [x.saturating_sub(1), x, x.saturating_add(1)])
        .collect();
        let mut n = 0;
        for scale in [1i64, 2, 4, 8, 16] {
            for align in [1u32, 2, 4, 8] {
                if scale % align as i64 != 0 {
                    continue;
                }
                for (lo, end) in [(0i64, 4i64), (0, 1), (-8, 8), (4, 12), (-64, -60)] {
                    for (clo, chi) in [(0i64, 0i64), (-1, 1), (0, 3), (5, 9)] {
                        for soff in [-16i64, -4, -3, 0, 1, 4, 12, 1 << 38] {
                            for size in [0i64, 3, 4, 16, 17, 64, 1 << 39] {
                                let r = RangeReq {
                                    root: 0,
                                    scale,
                                    lo,
                                    end,
                                    align,
                                    store: false,
                                    clo,
                                    chi,
                                };
                                let (first, count) = index_range(&r, soff, size);
                                for &x in &xs {
                                    let fast = (x as u64).wrapping_sub(first) < count;
                                    assert_eq!(
                                        fast,
                                        accepts(&r, soff, size, x),
                                        "{r:?} soff {soff} size {size} x {x}"
                                    );
                                    n += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 100_000);
    }
}
