//! The IR's data: modules, functions, blocks, instructions and values.

use crate::types::{AddrSpace, Type};
use oclc_syntax::{Span, Symbol};

macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(/// An SSA value of one function.
    Value, "v");
entity!(/// A basic block of one function.
    Block, "block");
entity!(/// An instruction of one function.
    Inst, "i");
entity!(/// A function of the module.
    FuncId, "@f");
entity!(/// A program-scope (or function-scope `static`) variable in global or constant memory.
    GlobalId, "@g");
entity!(/// A kernel-scope `__local` variable.
    LocalId, "@l");
entity!(/// A builtin declaration in [`Module::builtins`].
    BuiltinId, "@b");

/// Integer and float binary operators; integer forms wrap (two's complement) and shifts take
/// the right operand modulo the bit width, as OpenCL C specifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
}

impl BinOp {
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::SDiv => "sdiv",
            BinOp::UDiv => "udiv",
            BinOp::SRem => "srem",
            BinOp::URem => "urem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::FAdd => "fadd",
            BinOp::FSub => "fsub",
            BinOp::FMul => "fmul",
            BinOp::FDiv => "fdiv",
            BinOp::FRem => "frem",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Integer negation (wrapping).
    Neg,
    /// Bitwise complement.
    Not,
    FNeg,
}

impl UnOp {
    pub fn name(self) -> &'static str {
        match self {
            UnOp::Neg => "neg",
            UnOp::Not => "not",
            UnOp::FNeg => "fneg",
        }
    }
}

/// Comparisons. The result is `i1`, or a vector of `i1` for vector operands. Float
/// comparisons are ordered (false on NaN) except `FUne` (true on NaN), matching C's `!=`.
/// Pointer operands use the unsigned and equality forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
    FOeq,
    FUne,
    FOlt,
    FOle,
    FOgt,
    FOge,
}

impl CmpOp {
    pub fn is_float(self) -> bool {
        matches!(
            self,
            CmpOp::FOeq | CmpOp::FUne | CmpOp::FOlt | CmpOp::FOle | CmpOp::FOgt | CmpOp::FOge
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Slt => "slt",
            CmpOp::Sle => "sle",
            CmpOp::Sgt => "sgt",
            CmpOp::Sge => "sge",
            CmpOp::Ult => "ult",
            CmpOp::Ule => "ule",
            CmpOp::Ugt => "ugt",
            CmpOp::Uge => "uge",
            CmpOp::FOeq => "foeq",
            CmpOp::FUne => "fune",
            CmpOp::FOlt => "folt",
            CmpOp::FOle => "fole",
            CmpOp::FOgt => "fogt",
            CmpOp::FOge => "foge",
        }
    }
}

/// Value conversions between scalar/vector types of the same lane count (C's implicit and
/// explicit casts: round toward zero float→int, round to nearest int→float and float→float).
/// Saturating and explicitly rounded `convert_T_sat_rtX` go to the runtime as builtins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvOp {
    ZExt,
    SExt,
    Trunc,
    SToF,
    UToF,
    FToS,
    FToU,
    FExt,
    FTrunc,
    /// Integer or float to `i1`: value != 0 (C's conversion to bool).
    ToBool,
    /// Pointer to integer (its 64-bit representation, truncated or zero-extended).
    PtrToInt,
}

impl ConvOp {
    pub fn name(self) -> &'static str {
        match self {
            ConvOp::ZExt => "zext",
            ConvOp::SExt => "sext",
            ConvOp::Trunc => "trunc",
            ConvOp::SToF => "stof",
            ConvOp::UToF => "utof",
            ConvOp::FToS => "ftos",
            ConvOp::FToU => "ftou",
            ConvOp::FExt => "fext",
            ConvOp::FTrunc => "ftrunc",
            ConvOp::ToBool => "tobool",
            ConvOp::PtrToInt => "ptrtoint",
        }
    }
}

/// Read-modify-write atomic operations (OpenCL 1.x `atomic_*`/`atom_*` and C11
/// `atomic_fetch_*`/`atomic_exchange`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    Add,
    Sub,
    Xchg,
    And,
    Or,
    Xor,
    SMin,
    SMax,
    UMin,
    UMax,
    /// Float add (cl_ext_float_atomics).
    FAdd,
}

impl RmwOp {
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::Xchg => "xchg",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::SMin => "smin",
            RmwOp::SMax => "smax",
            RmwOp::UMin => "umin",
            RmwOp::UMax => "umax",
            RmwOp::FAdd => "fadd",
        }
    }
}

/// C11 `memory_order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

/// The combining operation of a work-group reduction or scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgArith {
    IAdd,
    SMin,
    SMax,
    UMin,
    UMax,
    FAdd,
    FMin,
    FMax,
}

/// Work-group collective functions (OpenCL C 2.0 `work_group_*`). Every work-item of the
/// group must reach the same one, as with a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgOp {
    /// `work_group_all(predicate)`: `i32` 1 if every predicate is non-zero.
    All,
    /// `work_group_any(predicate)`.
    Any,
    /// `work_group_broadcast(value, local_id...)`: the value of the named work-item.
    Broadcast,
    Reduce(WgArith),
    ScanInclusive(WgArith),
    ScanExclusive(WgArith),
}

impl WgArith {
    pub fn name(self) -> &'static str {
        match self {
            WgArith::IAdd => "add",
            WgArith::SMin => "smin",
            WgArith::SMax => "smax",
            WgArith::UMin => "umin",
            WgArith::UMax => "umax",
            WgArith::FAdd => "fadd",
            WgArith::FMin => "fmin",
            WgArith::FMax => "fmax",
        }
    }
}

/// OpenCL `memory_scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    WorkItem,
    SubGroup,
    WorkGroup,
    Device,
    AllSvmDevices,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Relaxed => "relaxed",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        }
    }
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::WorkItem => "work_item",
            Scope::SubGroup => "sub_group",
            Scope::WorkGroup => "work_group",
            Scope::Device => "device",
            Scope::AllSvmDevices => "all_svm_devices",
        }
    }
}

/// Work-item functions. All but `WorkDim` take a dimension operand; results are `size_t`
/// (`i64`), `WorkDim` is `i32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkItemQuery {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    LocalSize,
    EnqueuedLocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
    GlobalLinearId,
    LocalLinearId,
}

impl WorkItemQuery {
    pub fn name(self) -> &'static str {
        match self {
            WorkItemQuery::GlobalId => "global_id",
            WorkItemQuery::LocalId => "local_id",
            WorkItemQuery::GroupId => "group_id",
            WorkItemQuery::GlobalSize => "global_size",
            WorkItemQuery::LocalSize => "local_size",
            WorkItemQuery::EnqueuedLocalSize => "enqueued_local_size",
            WorkItemQuery::NumGroups => "num_groups",
            WorkItemQuery::GlobalOffset => "global_offset",
            WorkItemQuery::WorkDim => "work_dim",
            WorkItemQuery::GlobalLinearId => "global_linear_id",
            WorkItemQuery::LocalLinearId => "local_linear_id",
        }
    }
    /// Whether the query takes a dimension operand.
    pub fn takes_dim(self) -> bool {
        !matches!(
            self,
            WorkItemQuery::WorkDim | WorkItemQuery::GlobalLinearId | WorkItemQuery::LocalLinearId
        )
    }
}

/// A constant operand. Integers are stored as their bits, zero-extended to 64; floats as
/// `f64` (exactly representable for f16/f32 constants).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    Int(u64),
    Float(f64),
    /// The NULL pointer of the result's space.
    Null,
}

/// A branch target with its block arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockCall {
    pub block: Block,
    pub args: Vec<Value>,
}

/// An instruction's operation. Terminators are `Ret`, `Br`, `CondBr`, `Switch` and
/// `Unreachable`.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A constant of the result type; vector results splat the constant.
    Const(Const),
    /// An unspecified value of the result type (reading an uninitialized variable).
    Undef,
    Bin(BinOp, Value, Value),
    Un(UnOp, Value),
    Cmp(CmpOp, Value, Value),
    /// Converts each lane to the result's element type.
    Conv(ConvOp, Value),
    /// Reinterprets the bits as the result type (same store size; `as_T`). 3-lane vectors are
    /// treated as 4 lanes.
    Bitcast(Value),
    /// Integer (its low 64 bits) to a pointer of the result's space.
    IntToPtr(Value),
    /// Every lane of the result is the scalar operand.
    Splat(Value),
    /// A vector from scalars, one per lane.
    Build(Vec<Value>),
    /// Lane `lane` of a vector.
    Extract(Value, u8),
    /// Lane chosen at run time by an integer index, taken modulo the lane count.
    ExtractDyn(Value, Value),
    /// `insert_dyn(vec, elem, index)`: lane chosen at run time (modulo the lane count).
    InsertDyn(Value, Value, Value),
    /// The vector with lane `lane` replaced.
    Insert(Value, Value, u8),
    /// Result lane `i` is lane `mask[i]` of the operand (swizzles, `.lo`, `.even`, ...).
    Shuffle(Value, Vec<u8>),
    /// `cond ? a : b`; a vector `cond` of `i1` selects lane by lane.
    Select(Value, Value, Value),
    /// Pointer plus a signed byte offset (`i64`); the result has the pointer's space.
    PtrAdd(Value, Value),
    /// Byte distance `a - b` between two pointers of the same space, as `i64`.
    PtrDiff(Value, Value),
    /// Reads a value of the result type.
    Load(Value),
    /// Writes `value` through `ptr`.
    Store {
        ptr: Value,
        value: Value,
    },
    /// Copies `len` bytes (an `i64`), for by-value aggregates.
    Memcpy {
        dst: Value,
        src: Value,
        len: Value,
    },
    /// Sets `len` bytes to the low byte of `byte` (an `i8`), for zero-initialization.
    Memset {
        dst: Value,
        byte: Value,
        len: Value,
    },
    /// `i1`: whether `len` bytes (an `i64`) from `ptr` can be read and written without a
    /// fault, as the device's `--checks` would find accesses of them (true where checks are
    /// off; a device may answer false where it cannot tell cheaply). Made by passes that keep
    /// the checked accesses as the path taken otherwise.
    InBounds {
        ptr: Value,
        len: Value,
    },
    /// Any named non-constant space to generic (always valid).
    ToGeneric(Value),
    /// Generic to the named result space: an explicit cast, checked when accessed.
    FromGeneric(Value, AddrSpace),
    /// `to_global`/`to_local`/`to_private`: the pointer if it points into the space, else NULL.
    SpaceTest(Value, AddrSpace),
    /// `get_fence`: CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE or 0, as `i32`.
    GetFence(Value),
    /// A fresh private slot of `size` bytes, live until the function returns; `name` is the
    /// variable it holds (for error messages; empty for temporaries).
    StackAlloc {
        size: u32,
        align: u32,
        name: Symbol,
    },
    /// Address of a program-scope or static variable.
    GlobalAddr(GlobalId),
    /// Address of a kernel-scope `__local` variable in the current work-group.
    LocalAddr(LocalId),
    Call(FuncId, Vec<Value>),
    CallBuiltin(BuiltinId, Vec<Value>),
    AtomicRmw {
        op: RmwOp,
        ptr: Value,
        value: Value,
        order: Order,
        scope: Scope,
    },
    /// Compare-and-exchange; returns the old value (success iff it equals `expected`).
    AtomicCmpXchg {
        ptr: Value,
        expected: Value,
        desired: Value,
        success: Order,
        failure: Order,
        scope: Scope,
    },
    AtomicLoad {
        ptr: Value,
        order: Order,
        scope: Scope,
    },
    AtomicStore {
        ptr: Value,
        value: Value,
        order: Order,
        scope: Scope,
    },
    /// Work-group barrier with `cl_mem_fence_flags` (an `i32`).
    Barrier {
        flags: Value,
        scope: Scope,
    },
    /// A work-group collective over the scalar `value` of every work-item; `ids` are the
    /// local id operands (`i64`) of `Broadcast`, empty otherwise. Acts as a barrier.
    WorkGroup {
        op: WgOp,
        value: Value,
        ids: Vec<Value>,
    },
    /// Memory fence (`mem_fence`, `atomic_work_item_fence`, ...).
    Fence {
        flags: Value,
        order: Order,
        scope: Scope,
    },
    WorkItem(WorkItemQuery, Option<Value>),
    /// `printf(format, args...)`; `format` points to a NUL-terminated string. Returns `i32`.
    Printf(Value, Vec<Value>),
    Ret(Option<Value>),
    Br(BlockCall),
    CondBr(Value, BlockCall, BlockCall),
    /// Integer switch: the first case equal to the operand, else `default`.
    Switch(Value, Vec<(u64, BlockCall)>, BlockCall),
    Unreachable,
}

impl Op {
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Ret(_) | Op::Br(_) | Op::CondBr(..) | Op::Switch(..) | Op::Unreachable
        )
    }

    /// Every value operand, in order (branch arguments included).
    pub fn operands(&self) -> Vec<Value> {
        let mut v = Vec::new();
        self.for_each_operand(|x| v.push(x));
        v
    }

    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            Op::Const(_)
            | Op::Undef
            | Op::StackAlloc { .. }
            | Op::GlobalAddr(_)
            | Op::LocalAddr(_)
            | Op::Unreachable => {}
            Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::PtrAdd(a, b) | Op::PtrDiff(a, b) => {
                f(*a);
                f(*b)
            }
            Op::InBounds { ptr, len } => {
                f(*ptr);
                f(*len)
            }
            Op::InsertDyn(a, b, c) => {
                f(*a);
                f(*b);
                f(*c)
            }
            Op::ExtractDyn(a, b) | Op::Insert(a, b, _) => {
                f(*a);
                f(*b)
            }
            Op::Un(_, a)
            | Op::Conv(_, a)
            | Op::Bitcast(a)
            | Op::IntToPtr(a)
            | Op::Splat(a)
            | Op::Extract(a, _)
            | Op::Shuffle(a, _)
            | Op::Load(a)
            | Op::ToGeneric(a)
            | Op::FromGeneric(a, _)
            | Op::SpaceTest(a, _)
            | Op::GetFence(a) => f(*a),
            Op::Build(vs) | Op::Call(_, vs) | Op::CallBuiltin(_, vs) => {
                vs.iter().for_each(|v| f(*v))
            }
            Op::Select(a, b, c) => {
                f(*a);
                f(*b);
                f(*c)
            }
            Op::Store { ptr, value } => {
                f(*ptr);
                f(*value)
            }
            Op::Memcpy { dst, src, len } => {
                f(*dst);
                f(*src);
                f(*len)
            }
            Op::Memset { dst, byte, len } => {
                f(*dst);
                f(*byte);
                f(*len)
            }
            Op::AtomicRmw { ptr, value, .. } | Op::AtomicStore { ptr, value, .. } => {
                f(*ptr);
                f(*value)
            }
            Op::AtomicCmpXchg {
                ptr,
                expected,
                desired,
                ..
            } => {
                f(*ptr);
                f(*expected);
                f(*desired)
            }
            Op::AtomicLoad { ptr, .. } => f(*ptr),
            Op::Barrier { flags, .. } | Op::Fence { flags, .. } => f(*flags),
            Op::WorkGroup { value, ids, .. } => {
                f(*value);
                ids.iter().for_each(|v| f(*v))
            }
            Op::WorkItem(_, d) => {
                if let Some(d) = d {
                    f(*d)
                }
            }
            Op::Printf(fmt, args) => {
                f(*fmt);
                args.iter().for_each(|v| f(*v))
            }
            Op::Ret(v) => {
                if let Some(v) = v {
                    f(*v)
                }
            }
            Op::Br(t) => t.args.iter().for_each(|v| f(*v)),
            Op::CondBr(c, t, e) => {
                f(*c);
                t.args.iter().chain(&e.args).for_each(|v| f(*v))
            }
            Op::Switch(x, cases, d) => {
                f(*x);
                cases
                    .iter()
                    .flat_map(|(_, c)| &c.args)
                    .chain(&d.args)
                    .for_each(|v| f(*v))
            }
        }
    }

    /// Branch targets of a terminator, in order (passes ask for them constantly: no
    /// allocation).
    pub fn successors(&self) -> Successors<'_> {
        let (head, cases, tail): (_, &[(u64, BlockCall)], _) = match self {
            Op::Br(t) => ([Some(t), None], &[], None),
            Op::CondBr(_, t, e) => ([Some(t), Some(e)], &[], None),
            Op::Switch(_, cases, d) => ([None, None], cases, Some(d)),
            _ => ([None, None], &[], None),
        };
        Successors {
            head,
            cases: cases.iter(),
            tail,
        }
    }
}

/// The branch targets of a terminator ([`Op::successors`]): a branch's one or two, or a
/// switch's cases then its default.
#[derive(Clone, Debug)]
pub struct Successors<'a> {
    head: [Option<&'a BlockCall>; 2],
    cases: std::slice::Iter<'a, (u64, BlockCall)>,
    tail: Option<&'a BlockCall>,
}

impl<'a> Iterator for Successors<'a> {
    type Item = &'a BlockCall;

    fn next(&mut self) -> Option<&'a BlockCall> {
        if let Some(h) = self.head.iter_mut().find_map(Option::take) {
            return Some(h);
        }
        if let Some((_, c)) = self.cases.next() {
            return Some(c);
        }
        self.tail.take()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.head.iter().flatten().count()
            + self.cases.len()
            + usize::from(self.tail.is_some());
        (n, Some(n))
    }
}

impl ExactSizeIterator for Successors<'_> {}

/// One instruction: its operation, result type (None: no result) and source span.
#[derive(Clone, Debug)]
pub struct InstData {
    pub op: Op,
    pub result: Option<Value>,
    pub span: Span,
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Parameter `index` of `block`.
    Param(Block, u32),
    Inst(Inst),
}

#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub insts: Vec<Inst>,
}

/// How the host passes a kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A scalar or vector set from its bytes.
    Value,
    /// A buffer (`__global`/`__constant`) or a local-memory size (`__local`).
    Buffer(AddrSpace),
    /// A struct or union passed by value: the IR parameter is a private pointer to a copy of
    /// `size` bytes.
    Aggregate { size: u32, align: u32 },
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    /// For kernels: how the host sets it. Ordinary functions use `Value`.
    pub kind: ParamKind,
    /// The parameter's C type as written, e.g. `__global float *` (for messages and run files).
    pub c_type: String,
}

/// Kernel attributes the device needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelInfo {
    /// `reqd_work_group_size(x, y, z)`.
    pub reqd_work_group_size: Option<[u32; 3]>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: Option<Type>,
    pub kernel: Option<KernelInfo>,
    pub span: Span,
    /// `blocks[0]` is the entry; its parameters are the function's parameters.
    pub blocks: Vec<BlockData>,
    pub insts: Vec<InstData>,
    pub values: Vec<ValueData>,
}

impl Function {
    pub fn new(
        name: impl Into<String>,
        params: Vec<Param>,
        ret: Option<Type>,
        span: Span,
    ) -> Function {
        let mut f = Function {
            name: name.into(),
            params: Vec::new(),
            ret,
            kernel: None,
            span,
            blocks: Vec::new(),
            insts: Vec::new(),
            values: Vec::new(),
        };
        let entry = f.add_block();
        for p in &params {
            f.add_block_param(entry, p.ty);
        }
        f.params = params;
        f
    }

    /// A function with no blocks, allocating nothing: what a pass leaves in a module's slot
    /// while it works on the function taken out of it.
    pub fn placeholder(span: Span) -> Function {
        Function {
            name: String::new(),
            params: Vec::new(),
            ret: None,
            kernel: None,
            span,
            blocks: Vec::new(),
            insts: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Whether the body is only `unreachable` (a declaration kept without its body).
    pub fn is_stub(&self) -> bool {
        matches!(&self.blocks[..], [b] if b.insts.len() == 1
            && self.insts.get(b.insts[0].index()).is_some_and(|d| matches!(d.op, Op::Unreachable)))
    }

    pub fn entry(&self) -> Block {
        Block(0)
    }

    pub fn add_block(&mut self) -> Block {
        self.blocks.push(BlockData::default());
        Block(self.blocks.len() as u32 - 1)
    }

    pub fn add_block_param(&mut self, b: Block, ty: Type) -> Value {
        let idx = self
            .blocks
            .get(b.index())
            .map_or(0, |bd| bd.params.len() as u32);
        let v = Value(self.values.len() as u32);
        self.values.push(ValueData {
            ty,
            def: ValueDef::Param(b, idx),
        });
        if let Some(bd) = self.blocks.get_mut(b.index()) {
            bd.params.push(v);
        }
        v
    }

    /// Appends an instruction to `b` and returns its result value (if `ty` is given).
    pub fn push_inst(
        &mut self,
        b: Block,
        op: Op,
        ty: Option<Type>,
        span: Span,
    ) -> (Inst, Option<Value>) {
        let inst = Inst(self.insts.len() as u32);
        let result = ty.map(|ty| {
            let v = Value(self.values.len() as u32);
            self.values.push(ValueData {
                ty,
                def: ValueDef::Inst(inst),
            });
            v
        });
        self.insts.push(InstData { op, result, span });
        if let Some(bd) = self.blocks.get_mut(b.index()) {
            bd.insts.push(inst);
        }
        (inst, result)
    }

    pub fn value_type(&self, v: Value) -> Option<Type> {
        self.values.get(v.index()).map(|d| d.ty)
    }

    pub fn params_of(&self, b: Block) -> &[Value] {
        self.blocks.get(b.index()).map_or(&[], |bd| &bd.params)
    }

    pub fn is_kernel(&self) -> bool {
        self.kernel.is_some()
    }
}

/// A pointer to another variable stored inside a variable's initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct Reloc {
    /// Byte offset in the variable where the pointer is stored.
    pub offset: u32,
    pub target: GlobalId,
    /// Byte offset added to the target's address.
    pub addend: i64,
    /// The space of the stored pointer (its target's space, or generic).
    pub space: AddrSpace,
}

/// A program-scope `__global`/`__constant` variable, a function-scope `static`, or a string
/// literal. Its contents persist across launches of the same program.
#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    /// `Global` or `Constant`.
    pub space: AddrSpace,
    /// Bytes, exactly as the type gives them (no wrap or clamp: a device decides what it can
    /// hold).
    pub size: u64,
    pub align: u32,
    /// Initial bytes; shorter than `size` means the rest is zero.
    pub init: Vec<u8>,
    pub relocs: Vec<Reloc>,
    pub span: Span,
}

/// A kernel-scope `__local` variable: one instance per work-group of each launch of `kernel`.
#[derive(Clone, Debug)]
pub struct LocalVar {
    pub name: String,
    pub kernel: FuncId,
    /// Bytes, exactly as the type gives them.
    pub size: u64,
    pub align: u32,
    pub span: Span,
}

/// A builtin the program calls, identified by its name and resolved signature
/// (e.g. `fma(float, float, float) -> float`). The device maps it to an implementation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinDecl {
    pub name: String,
    pub params: Vec<Type>,
    /// For each pointer parameter, the type of the elements it points to (`vload4`'s
    /// `float`, `fract`'s `float4`); `None` for other parameters.
    pub pointee: Vec<Option<Type>>,
    /// For each parameter, whether its integer elements (or its pointee's) are unsigned in C
    /// (`abs(uint)` differs from `abs(int)`).
    pub unsigned: Vec<bool>,
    pub ret: Option<Type>,
    /// Whether the result's integer elements are unsigned in C.
    pub ret_unsigned: bool,
}

impl BuiltinDecl {
    /// A declaration without pointer parameters.
    pub fn new(name: impl Into<String>, params: Vec<Type>, ret: Option<Type>) -> BuiltinDecl {
        let pointee = vec![None; params.len()];
        let unsigned = vec![false; params.len()];
        BuiltinDecl {
            name: name.into(),
            params,
            pointee,
            unsigned,
            ret,
            ret_unsigned: false,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    pub globals: Vec<GlobalVar>,
    pub locals: Vec<LocalVar>,
    pub builtins: Vec<BuiltinDecl>,
}

impl Module {
    pub fn new() -> Module {
        Module::default()
    }

    pub fn add_function(&mut self, f: Function) -> FuncId {
        self.functions.push(f);
        FuncId(self.functions.len() as u32 - 1)
    }

    pub fn add_global(&mut self, g: GlobalVar) -> GlobalId {
        self.globals.push(g);
        GlobalId(self.globals.len() as u32 - 1)
    }

    pub fn add_local(&mut self, l: LocalVar) -> LocalId {
        self.locals.push(l);
        LocalId(self.locals.len() as u32 - 1)
    }

    /// The id of `decl`, adding it if new.
    pub fn builtin(&mut self, decl: BuiltinDecl) -> BuiltinId {
        if let Some(i) = self.builtins.iter().position(|b| *b == decl) {
            return BuiltinId(i as u32);
        }
        self.builtins.push(decl);
        BuiltinId(self.builtins.len() as u32 - 1)
    }

    pub fn function(&self, id: FuncId) -> Option<&Function> {
        self.functions.get(id.index())
    }

    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }
}
