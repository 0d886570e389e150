//! A convenient way to append instructions to a function: one insertion block, one current
//! span, and result types derived from operands.

use crate::ir::*;
use crate::types::{AddrSpace, Scalar, Type};
use oclc_syntax::{Span, Symbol};

/// Appends instructions at the end of the current block of a function.
pub struct Builder<'f> {
    pub func: &'f mut Function,
    block: Block,
    span: Span,
}

impl<'f> Builder<'f> {
    /// A builder positioned at the function's entry block.
    pub fn new(func: &'f mut Function) -> Builder<'f> {
        let span = func.span;
        Builder {
            func,
            block: Block(0),
            span,
        }
    }

    pub fn current_block(&self) -> Block {
        self.block
    }

    /// The span given to instructions appended from now on.
    pub fn set_span(&mut self, span: Span) {
        self.span = span;
    }

    pub fn span(&self) -> Span {
        self.span
    }

    /// A new empty block with parameters of the given types.
    pub fn create_block(&mut self, params: &[Type]) -> (Block, Vec<Value>) {
        let b = self.func.add_block();
        let vs = params
            .iter()
            .map(|t| self.func.add_block_param(b, *t))
            .collect();
        (b, vs)
    }

    pub fn switch_to(&mut self, b: Block) {
        self.block = b;
    }

    /// The parameters of `b` (the function's parameters for the entry block).
    pub fn params(&self, b: Block) -> Vec<Value> {
        self.func.params_of(b).to_vec()
    }

    /// Whether the current block already ends in a terminator.
    pub fn is_terminated(&self) -> bool {
        self.func
            .blocks
            .get(self.block.index())
            .and_then(|b| b.insts.last())
            .and_then(|i| self.func.insts.get(i.index()))
            .is_some_and(|d| d.op.is_terminator())
    }

    pub fn ty(&self, v: Value) -> Type {
        self.func.value_type(v).unwrap_or(Type::I32)
    }

    /// Appends `op` with result type `ty`.
    pub fn inst(&mut self, op: Op, ty: Type) -> Value {
        let (_, v) = self.func.push_inst(self.block, op, Some(ty), self.span);
        v.unwrap_or(Value(u32::MAX))
    }

    /// Appends `op`, which has no result.
    pub fn effect(&mut self, op: Op) -> Inst {
        self.func.push_inst(self.block, op, None, self.span).0
    }

    pub fn iconst(&mut self, ty: Type, bits: u64) -> Value {
        self.inst(Op::Const(Const::Int(bits)), ty)
    }

    pub fn i32(&mut self, x: i32) -> Value {
        self.iconst(Type::I32, x as u32 as u64)
    }

    pub fn i64(&mut self, x: i64) -> Value {
        self.iconst(Type::I64, x as u64)
    }

    pub fn fconst(&mut self, ty: Type, x: f64) -> Value {
        self.inst(Op::Const(Const::Float(x)), ty)
    }

    pub fn null(&mut self, space: AddrSpace) -> Value {
        self.inst(Op::Const(Const::Null), Type::Ptr(space))
    }

    pub fn undef(&mut self, ty: Type) -> Value {
        self.inst(Op::Undef, ty)
    }

    pub fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let t = self.ty(a);
        self.inst(Op::Bin(op, a, b), t)
    }

    pub fn un(&mut self, op: UnOp, a: Value) -> Value {
        let t = self.ty(a);
        self.inst(Op::Un(op, a), t)
    }

    /// Comparison; the result is `i1` shaped like the operands.
    pub fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        let t = match self.ty(a) {
            Type::Vector(_, n) => Type::Vector(Scalar::I1, n),
            _ => Type::I1,
        };
        self.inst(Op::Cmp(op, a, b), t)
    }

    pub fn conv(&mut self, op: ConvOp, a: Value, to: Type) -> Value {
        self.inst(Op::Conv(op, a), to)
    }

    pub fn bitcast(&mut self, a: Value, to: Type) -> Value {
        self.inst(Op::Bitcast(a), to)
    }

    pub fn int_to_ptr(&mut self, a: Value, space: AddrSpace) -> Value {
        self.inst(Op::IntToPtr(a), Type::Ptr(space))
    }

    pub fn splat(&mut self, a: Value, lanes: u8) -> Value {
        let s = self.ty(a).elem().unwrap_or(Scalar::I32);
        self.inst(Op::Splat(a), Type::Vector(s, lanes))
    }

    pub fn build(&mut self, lanes: Vec<Value>) -> Value {
        let s = lanes
            .first()
            .and_then(|v| self.ty(*v).elem())
            .unwrap_or(Scalar::I32);
        let n = lanes.len() as u8;
        self.inst(Op::Build(lanes), Type::Vector(s, n))
    }

    pub fn extract(&mut self, v: Value, lane: u8) -> Value {
        let s = self.ty(v).elem().unwrap_or(Scalar::I32);
        self.inst(Op::Extract(v, lane), Type::Scalar(s))
    }

    pub fn extract_dyn(&mut self, v: Value, idx: Value) -> Value {
        let s = self.ty(v).elem().unwrap_or(Scalar::I32);
        self.inst(Op::ExtractDyn(v, idx), Type::Scalar(s))
    }

    /// `v` with the lane chosen at run time replaced by `x`.
    pub fn insert_dyn(&mut self, v: Value, x: Value, idx: Value) -> Value {
        let t = self.ty(v);
        self.inst(Op::InsertDyn(v, x, idx), t)
    }

    pub fn insert(&mut self, v: Value, x: Value, lane: u8) -> Value {
        let t = self.ty(v);
        self.inst(Op::Insert(v, x, lane), t)
    }

    /// Swizzle: the result has one lane per mask entry (a scalar for one entry).
    pub fn shuffle(&mut self, v: Value, mask: Vec<u8>) -> Value {
        let s = self.ty(v).elem().unwrap_or(Scalar::I32);
        let t = Type::vec(s, mask.len() as u8);
        self.inst(Op::Shuffle(v, mask), t)
    }

    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ty(a);
        self.inst(Op::Select(c, a, b), t)
    }

    pub fn ptr_add(&mut self, p: Value, off: Value) -> Value {
        let t = self.ty(p);
        self.inst(Op::PtrAdd(p, off), t)
    }

    /// `p + off` with a constant byte offset.
    pub fn ptr_add_const(&mut self, p: Value, off: i64) -> Value {
        let o = self.i64(off);
        self.ptr_add(p, o)
    }

    pub fn ptr_diff(&mut self, a: Value, b: Value) -> Value {
        self.inst(Op::PtrDiff(a, b), Type::I64)
    }

    pub fn load(&mut self, ty: Type, p: Value) -> Value {
        self.inst(Op::Load(p), ty)
    }

    pub fn store(&mut self, p: Value, v: Value) -> Inst {
        self.effect(Op::Store { ptr: p, value: v })
    }

    pub fn memcpy(&mut self, dst: Value, src: Value, len: u32) -> Inst {
        let len = self.i64(len as i64);
        self.effect(Op::Memcpy { dst, src, len })
    }

    pub fn memset(&mut self, dst: Value, byte: u8, len: u32) -> Inst {
        let byte = self.iconst(Type::I8, byte as u64);
        let len = self.i64(len as i64);
        self.effect(Op::Memset { dst, byte, len })
    }

    pub fn to_generic(&mut self, p: Value) -> Value {
        self.inst(Op::ToGeneric(p), Type::Ptr(AddrSpace::Generic))
    }

    pub fn from_generic(&mut self, p: Value, space: AddrSpace) -> Value {
        self.inst(Op::FromGeneric(p, space), Type::Ptr(space))
    }

    pub fn space_test(&mut self, p: Value, space: AddrSpace) -> Value {
        self.inst(Op::SpaceTest(p, space), Type::Ptr(space))
    }

    pub fn get_fence(&mut self, p: Value) -> Value {
        self.inst(Op::GetFence(p), Type::I32)
    }

    /// An unnamed private slot (a temporary).
    pub fn stack_alloc(&mut self, size: u32, align: u32) -> Value {
        self.stack_alloc_named(size, align, "")
    }

    /// A private slot holding the variable `name`.
    pub fn stack_alloc_named(&mut self, size: u32, align: u32, name: &str) -> Value {
        let name = Symbol::intern(name);
        self.inst(
            Op::StackAlloc { size, align, name },
            Type::Ptr(AddrSpace::Private),
        )
    }

    pub fn global_addr(&mut self, g: GlobalId, space: AddrSpace) -> Value {
        self.inst(Op::GlobalAddr(g), Type::Ptr(space))
    }

    pub fn local_addr(&mut self, l: LocalId) -> Value {
        self.inst(Op::LocalAddr(l), Type::Ptr(AddrSpace::Local))
    }

    /// A call; returns the result value when `ret` is given.
    pub fn call(&mut self, f: FuncId, args: Vec<Value>, ret: Option<Type>) -> Option<Value> {
        self.func
            .push_inst(self.block, Op::Call(f, args), ret, self.span)
            .1
    }

    pub fn call_builtin(
        &mut self,
        b: BuiltinId,
        args: Vec<Value>,
        ret: Option<Type>,
    ) -> Option<Value> {
        self.func
            .push_inst(self.block, Op::CallBuiltin(b, args), ret, self.span)
            .1
    }

    pub fn atomic_rmw(
        &mut self,
        op: RmwOp,
        ptr: Value,
        value: Value,
        order: Order,
        scope: Scope,
    ) -> Value {
        let t = self.ty(value);
        self.inst(
            Op::AtomicRmw {
                op,
                ptr,
                value,
                order,
                scope,
            },
            t,
        )
    }

    pub fn atomic_cmpxchg(
        &mut self,
        ptr: Value,
        expected: Value,
        desired: Value,
        order: Order,
        scope: Scope,
    ) -> Value {
        let t = self.ty(desired);
        let failure = match order {
            Order::AcqRel => Order::Acquire,
            Order::Release => Order::Relaxed,
            o => o,
        };
        self.inst(
            Op::AtomicCmpXchg {
                ptr,
                expected,
                desired,
                success: order,
                failure,
                scope,
            },
            t,
        )
    }

    pub fn atomic_load(&mut self, ty: Type, ptr: Value, order: Order, scope: Scope) -> Value {
        self.inst(Op::AtomicLoad { ptr, order, scope }, ty)
    }

    pub fn atomic_store(&mut self, ptr: Value, value: Value, order: Order, scope: Scope) -> Inst {
        self.effect(Op::AtomicStore {
            ptr,
            value,
            order,
            scope,
        })
    }

    /// `barrier(flags)` / `work_group_barrier(flags)` with a constant flags word.
    pub fn barrier(&mut self, flags: u32) -> Inst {
        let f = self.i32(flags as i32);
        self.effect(Op::Barrier {
            flags: f,
            scope: Scope::WorkGroup,
        })
    }

    /// A work-group collective (`work_group_reduce_add`, `work_group_broadcast`, ...).
    pub fn work_group(&mut self, op: WgOp, value: Value, ids: Vec<Value>) -> Value {
        let t = match op {
            WgOp::All | WgOp::Any => Type::I32,
            _ => self.ty(value),
        };
        self.inst(Op::WorkGroup { op, value, ids }, t)
    }

    pub fn fence(&mut self, flags: Value, order: Order, scope: Scope) -> Inst {
        self.effect(Op::Fence {
            flags,
            order,
            scope,
        })
    }

    /// A work-item query with a constant dimension (ignored for dimensionless queries).
    pub fn work_item(&mut self, q: WorkItemQuery, dim: u32) -> Value {
        let d = q.takes_dim().then(|| self.i32(dim as i32));
        self.work_item_dyn(q, d)
    }

    pub fn work_item_dyn(&mut self, q: WorkItemQuery, dim: Option<Value>) -> Value {
        let t = if q == WorkItemQuery::WorkDim {
            Type::I32
        } else {
            crate::types::SIZE_T
        };
        self.inst(Op::WorkItem(q, dim), t)
    }

    pub fn printf(&mut self, fmt: Value, args: Vec<Value>) -> Value {
        self.inst(Op::Printf(fmt, args), Type::I32)
    }

    pub fn ret(&mut self, v: Option<Value>) -> Inst {
        self.effect(Op::Ret(v))
    }

    pub fn br(&mut self, block: Block, args: Vec<Value>) -> Inst {
        self.effect(Op::Br(BlockCall { block, args }))
    }

    pub fn cond_br(
        &mut self,
        c: Value,
        t: Block,
        targs: Vec<Value>,
        e: Block,
        eargs: Vec<Value>,
    ) -> Inst {
        self.effect(Op::CondBr(
            c,
            BlockCall {
                block: t,
                args: targs,
            },
            BlockCall {
                block: e,
                args: eargs,
            },
        ))
    }

    pub fn switch(&mut self, x: Value, cases: Vec<(u64, BlockCall)>, default: BlockCall) -> Inst {
        self.effect(Op::Switch(x, cases, default))
    }

    pub fn unreachable(&mut self) -> Inst {
        self.effect(Op::Unreachable)
    }
}
