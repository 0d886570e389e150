//! The checked program: a typed, name-resolved tree that IR lowering consumes.
//!
//! Invariants (established by `check`, relied on by lowering):
//! - every [`Expr`] has its type; `lvalue` says whether it designates an object;
//! - every implicit conversion is an explicit [`ExprKind::Cast`] node: lvalue-to-rvalue loads,
//!   array and function decay, the usual arithmetic conversions, scalar-to-vector splats,
//!   named-to-generic address-space conversions, null-pointer constants;
//! - names are resolved to [`VarId`]s and [`FuncId`]s; builtin calls carry the resolved
//!   overload ([`BuiltinRef`]); swizzles are component index lists; vector literals are flat
//!   lists of scalar/vector parts;
//! - every variable knows its address space and storage ([`Var`]);
//! - a program with errors still produces a tree (with [`ExprKind::Error`] nodes), but lowering
//!   should only be run on a program without errors.

use oclc_syntax::{Span, Symbol};

use crate::space::AddrSpace;
use crate::types::{QualType, RecordId, TypeId, TypeTable};

/// Index into [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index into [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// The whole checked translation unit.
#[derive(Debug, Default)]
pub struct Program {
    pub types: TypeTable,
    pub vars: Vec<Var>,
    pub functions: Vec<Function>,
    /// Program-scope variables, in declaration order.
    pub globals: Vec<VarId>,
    /// Functions declared `static` (internal linkage: not seen by other units at link).
    pub static_functions: std::collections::HashSet<FuncId>,
    /// Functions declared `inline` and not `static`: C99 inline definitions, which other
    /// units may define too (the link keeps one).
    pub inline_functions: std::collections::HashSet<FuncId>,
    /// Program-scope variables declared `static` (internal linkage).
    pub static_vars: std::collections::HashSet<VarId>,
    /// Constructs `oclc check` accepts as clang does but no device runs (GNU imaginary
    /// constants): where, and why. Lowering reports them.
    pub unsupported: Vec<(Span, String)>,
}

impl Program {
    pub fn var(&self, id: VarId) -> Option<&Var> {
        self.vars.get(id.0 as usize)
    }

    pub fn function(&self, id: FuncId) -> Option<&Function> {
        self.functions.get(id.0 as usize)
    }

    /// Kernels (functions with `__kernel` and a body), in declaration order.
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_kernel && f.body.is_some())
            .map(|(i, f)| (FuncId(i as u32), f))
    }

    /// The function named `name`: its definition if it has one, else its last declaration.
    /// (Compatible redeclarations share one [`FuncId`], so this is only ambiguous after errors.)
    pub fn function_by_name(&self, name: &str) -> Option<(FuncId, &Function)> {
        let named = || {
            self.functions
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, f)| f.name.as_str() == name)
        };
        named()
            .find(|(_, f)| f.body.is_some())
            .or_else(|| named().next())
            .map(|(i, f)| (FuncId(i as u32), f))
    }
}

/// How long a variable lives and where it is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Program scope (including `extern` declarations).
    Program,
    /// `static` inside a function: one instance for the program.
    StaticLocal,
    /// `__local` (or `__constant`) declared in a kernel's outermost scope: one per work-group
    /// (constant ones are program-wide).
    KernelScope,
    /// An automatic `__private` variable.
    Automatic,
    /// A function parameter.
    Param,
}

/// A variable or parameter.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: Symbol,
    /// Declared type, including its address space on the outermost level (or on the element
    /// type for arrays).
    pub ty: QualType,
    /// Where the object lives.
    pub space: AddrSpace,
    pub storage: Storage,
    pub init: Option<Init>,
    pub span: Span,
    /// `extern` without a definition in this unit.
    pub is_extern: bool,
}

/// An initializer, with braces resolved against the type.
#[derive(Clone, Debug)]
pub enum Init {
    /// One expression converted to the initialized type.
    Expr(Expr),
    /// Elements of an array, struct, union or vector in order; `None` entries, and array
    /// elements past the end of `items`, are zero-initialized. For a union, the list has one entry for the first (or designated)
    /// member, and `union_field` says which.
    List {
        ty: QualType,
        items: Vec<Option<Init>>,
        union_field: Option<u32>,
    },
}

/// A function declaration or definition.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: Symbol,
    /// The function type (a [`crate::types::TypeKind::Function`]).
    pub ty: TypeId,
    pub ret: QualType,
    pub params: Vec<VarId>,
    pub is_kernel: bool,
    pub body: Option<Block>,
    pub span: Span,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub reqd_work_group_size: Option<[u64; 3]>,
    /// `__attribute__((work_group_size_hint(x, y, z)))`.
    pub work_group_size_hint: Option<[u64; 3]>,
    /// `__attribute__((vec_type_hint(T)))`: `T`, for CL_KERNEL_ATTRIBUTES.
    pub vec_type_hint: Option<QualType>,
}

/// `{ ... }`.
#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    /// A local variable comes into scope (its initializer is in [`Var::init`]).
    Decl(VarId),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        else_: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// `init` is a list of statements (declarations or an expression).
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `case value:` (value after conversion to the promoted condition type).
    Case {
        value: i64,
        body: Box<Stmt>,
    },
    Default {
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Label {
        name: Symbol,
        body: Box<Stmt>,
    },
    Goto(Symbol),
    /// A GNU inline assembly statement (checked, never run: lowering refuses it here).
    Asm(Span),
    Empty,
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: QualType,
    pub span: Span,
    /// Designates an object (before any lvalue-to-rvalue cast).
    pub lvalue: bool,
}

/// A builtin function overload chosen by overload resolution. Its prototype is
/// `Builtins::signature(overload)` for a [`crate::builtins::Builtins`] of the same language
/// mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinRef {
    pub name: Symbol,
    pub overload: crate::builtins::OverloadId,
}

/// Unary operators after checking (`+x` is folded away to a conversion).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    /// `!x`: `int` for scalars, a signed mask vector for vectors.
    LogNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

/// Binary operators; arithmetic operands already have the common type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
    /// `p + i`, `p - i` (the integer is scaled by the pointee size in lowering).
    PtrAdd,
    PtrSub,
    /// `p - q`: the element difference.
    PtrDiff,
}

/// Conversions, each explicit in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// Reads the object an lvalue designates.
    LValueToRValue,
    ArrayToPointer,
    FunctionToPointer,
    /// Between integer types (including `bool` and enums).
    Integral,
    IntToFloat,
    FloatToInt,
    /// Between floating types.
    Float,
    /// Scalar to `bool` (compare with zero).
    ToBool,
    /// A null pointer constant becomes a pointer.
    NullToPointer,
    /// Pointer to pointer in the same space (pointee type changes only).
    BitCast,
    /// A named-space pointer becomes generic (implicit, always valid; rule 44).
    ToGeneric,
    /// A generic pointer becomes a named-space pointer (explicit cast only; rule 45). The cpu
    /// device checks at run time that the pointer really points there.
    FromGeneric(AddrSpace),
    PtrToInt,
    IntToPtr,
    /// A scalar replicated into every vector component (after converting to the element).
    VectorSplat,
    /// Vector to vector of the same size (`as_T` and explicit reinterpretation).
    Reinterpret,
    /// Element-wise conversion between vectors of the same length (explicit `convert_`).
    VectorConvert,
    /// `(void)e`.
    ToVoid,
    /// Qualifier-only change.
    NoOp,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    IntLit(u64),
    FloatLit(f64),
    /// Bytes without the terminating NUL (the type includes it).
    StrLit(Vec<u8>),
    Var(VarId),
    Func(FuncId),
    /// An enumerator or other folded constant.
    Const(i64),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`op` None) or `lhs op= rhs`; for compound assignment `rhs` is already in
    /// the computation type and lowering converts back to the lhs type.
    Assign {
        op: Option<BinOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Call {
        callee: FuncId,
        args: Vec<Expr>,
    },
    /// A call of an OpenCL builtin function.
    BuiltinCall {
        builtin: BuiltinRef,
        args: Vec<Expr>,
    },
    /// `to_global`/`to_local`/`to_private`: the pointer or NULL (rules 56–57).
    ToAddrSpace {
        target: AddrSpace,
        arg: Box<Expr>,
    },
    /// `get_fence(p)` (rule 58).
    GetFence(Box<Expr>),
    /// `&e`.
    AddrOf(Box<Expr>),
    /// `*e`.
    Deref(Box<Expr>),
    /// `base[index]`: `base` is a pointer rvalue (arrays are decayed first), or a vector
    /// lvalue/rvalue indexed at run time (a constant index on a vector becomes a
    /// [`ExprKind::Swizzle`]).
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `base.field` (arrow is lowered as `(*base).field`).
    Member {
        base: Box<Expr>,
        record: RecordId,
        field: u32,
    },
    /// Vector component selection: `v.xz` is `[0, 2]`.
    Swizzle {
        base: Box<Expr>,
        comps: Vec<u8>,
    },
    /// `(float4)(a, b, c)`: parts whose component counts add up to the vector length.
    VectorLit(Vec<Expr>),
    Cast(CastKind, Box<Expr>),
    /// A compound literal or a braced initializer in expression position.
    InitList(Box<Init>),
    /// A GNU statement expression: `body` runs in order, then `value` (an rvalue of the
    /// expression's type) gives the result; `None` when the type is `void`. A label on the
    /// last statement is the body's last statement.
    StmtExpr {
        body: Block,
        value: Option<Box<Expr>>,
    },
    /// An expression that failed to check (already diagnosed).
    Error,
}

impl Expr {
    pub fn error(span: Span) -> Expr {
        Expr {
            kind: ExprKind::Error,
            ty: QualType::new(TypeTable::ERROR),
            span,
            lvalue: false,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self.kind, ExprKind::Error)
    }

    /// The operands of a binary operator or comma: a link of a chain.
    pub fn link_operands(&self) -> Option<(&Expr, &Expr)> {
        match &self.kind {
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => Some((a, b)),
            _ => None,
        }
    }

    /// For a chain (a binary operator or comma whose left operand is one too: `a + b + c`,
    /// any length), its links from `self` down and the innermost left operand; `None` for
    /// anything else. A chain's length is not nesting, so walkers take it in a loop rather
    /// than by recursion: in pre-order, the links top-down, the leaf, then the links' right
    /// operands from the innermost out.
    pub fn chain(&self) -> Option<(Vec<&Expr>, &Expr)> {
        let (a, _) = self.link_operands()?;
        a.link_operands()?;
        let mut links = vec![self];
        let mut leaf = a;
        while leaf.link_operands().is_some() {
            links.push(leaf);
            leaf = leaf.link_operands().map_or(leaf, |(a, _)| a);
        }
        Some((links, leaf))
    }
}

impl Expr {
    /// Calls `f` on the operands of a binary operator or comma in evaluation order, a
    /// chain's included (for `a + b + c`: `a`, `b`, `c`): a loop, see [`Expr::chain`].
    /// Nothing for other expressions.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        let Some((a, b)) = self.link_operands() else {
            return;
        };
        match self.chain() {
            None => {
                f(a);
                f(b);
            }
            Some((links, leaf)) => {
                f(leaf);
                for l in links.iter().rev() {
                    if let Some((_, b)) = l.link_operands() {
                        f(b);
                    }
                }
            }
        }
    }
}

impl Stmt {
    /// For an `if` statement, each `if` of its `else if` chain (see
    /// [`Stmt::else_if_chain`]): its condition, its `then`, and its `else` unless that is the
    /// next `if` of the chain.
    pub fn if_links(&self) -> impl Iterator<Item = (&Expr, &Stmt, Option<&Stmt>)> {
        self.else_if_chain().filter_map(|s| match &s.kind {
            StmtKind::If { cond, then, else_ } => Some((
                cond,
                &**then,
                else_
                    .as_deref()
                    .filter(|e| !matches!(e.kind, StmtKind::If { .. })),
            )),
            _ => None,
        })
    }

    /// The `else if` chain that starts at `self`: the `if` statements in order, each the
    /// `else` of the one before (just `self` for any other statement). Walkers take it in a
    /// loop: its length is not nesting. The last one's `else`, if any, is not an `if`.
    pub fn else_if_chain(&self) -> impl Iterator<Item = &Stmt> {
        std::iter::successors(Some(self), |s| match &s.kind {
            StmtKind::If { else_: Some(e), .. } if matches!(e.kind, StmtKind::If { .. }) => {
                Some(&**e)
            }
            _ => None,
        })
    }
}

/// Frees a tree with work lists instead of recursion: a chain (`a + b + ...`, an `else if`
/// chain) may be far deeper than the stack of the thread that drops the program. Boxed
/// expressions are emptied in place (only their 8-byte boxes move).
///
/// With `spare`, the emptied boxes are kept there for [`boxed`] to reuse instead of being
/// freed (the boxes are the point: `Vec<Box<_>>`).
#[allow(clippy::vec_box)]
struct Freer<'a> {
    spare: Option<&'a mut Vec<Box<Expr>>>,
    /// Where emptied argument lists go for [`expr_list`] (with `spare`).
    lists_spare: Option<&'a mut Vec<Vec<Expr>>>,
    /// Argument lists of calls and vector literals, emptied from the end.
    lists: Vec<Vec<Expr>>,
    boxes: Vec<Box<Expr>>,
    exprs: Vec<Expr>,
    stmts: Vec<Stmt>,
    inits: Vec<Init>,
}

impl Freer<'_> {
    fn run(&mut self) {
        loop {
            if let Some(mut b) = self.boxes.pop() {
                let kind = std::mem::replace(&mut b.kind, ExprKind::Error);
                self.expr_kind(kind);
                if let Some(spare) = self.spare.as_deref_mut()
                    && spare.len() < MAX_SPARE_BOXES
                {
                    spare.push(b);
                }
            } else if let Some(e) = self.exprs.pop() {
                self.expr_kind(e.kind);
            } else if let Some(list) = self.lists.last_mut() {
                match list.pop() {
                    Some(e) => self.expr_kind(e.kind),
                    None => {
                        if let Some(l) = self.lists.pop()
                            && l.capacity() > 0
                            && let Some(spare) = self.lists_spare.as_deref_mut()
                            && spare.len() < MAX_SPARE_LISTS
                        {
                            spare.push(l);
                        }
                    }
                }
            } else if let Some(s) = self.stmts.pop() {
                self.stmt_kind(s.kind);
            } else if let Some(i) = self.inits.pop() {
                match i {
                    Init::Expr(e) => self.exprs.push(e),
                    Init::List { items, .. } => self.inits.extend(items.into_iter().flatten()),
                }
            } else {
                return;
            }
        }
    }

    /// Queues what an expression owns.
    fn expr_kind(&mut self, kind: ExprKind) {
        match kind {
            ExprKind::Unary(_, x)
            | ExprKind::Cast(_, x)
            | ExprKind::GetFence(x)
            | ExprKind::AddrOf(x)
            | ExprKind::Deref(x)
            | ExprKind::ToAddrSpace { arg: x, .. }
            | ExprKind::Member { base: x, .. }
            | ExprKind::Swizzle { base: x, .. } => self.boxes.push(x),
            ExprKind::Binary(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Assign { lhs: a, rhs: b, .. }
            | ExprKind::Index { base: a, index: b } => {
                self.boxes.push(a);
                self.boxes.push(b);
            }
            ExprKind::Cond(a, b, c) => {
                self.boxes.push(a);
                self.boxes.push(b);
                self.boxes.push(c);
            }
            ExprKind::Call { args, .. }
            | ExprKind::BuiltinCall { args, .. }
            | ExprKind::VectorLit(args) => self.lists.push(args),
            ExprKind::InitList(i) => self.inits.push(*i),
            ExprKind::StmtExpr { body, value } => {
                self.stmts.extend(body.stmts);
                self.boxes.extend(value);
            }
            // Leaves own nothing (their payloads are `Copy`): forgetting one skips a call to
            // the drop glue, for most of the nodes.
            k @ (ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::Var(_)
            | ExprKind::Func(_)
            | ExprKind::Const(_)
            | ExprKind::Error) => std::mem::forget(k),
            _ => {}
        }
    }

    /// Queues what a statement owns.
    fn stmt_kind(&mut self, kind: StmtKind) {
        match kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.exprs.push(e),
            StmtKind::Block(b) => self.stmts.extend(b.stmts),
            StmtKind::If { cond, then, else_ } => {
                self.exprs.push(cond);
                self.stmts.push(*then);
                if let Some(e) = else_ {
                    self.stmts.push(*e);
                }
            }
            StmtKind::While { cond, body }
            | StmtKind::DoWhile { body, cond }
            | StmtKind::Switch { cond, body } => {
                self.exprs.push(cond);
                self.stmts.push(*body);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.stmts.extend(init);
                self.exprs.extend(cond);
                self.exprs.extend(step);
                self.stmts.push(*body);
            }
            StmtKind::Case { body, .. }
            | StmtKind::Default { body }
            | StmtKind::Label { body, .. } => self.stmts.push(*body),
            _ => {}
        }
    }
}

/// Frees a statement, function body or initializer without recursing.
#[allow(clippy::vec_box)]
fn free_iteratively(stmt: Option<Stmt>, init: Option<Init>, spare: Option<&mut Vec<Box<Expr>>>) {
    let mut f = Freer {
        spare,
        lists_spare: None,
        lists: Vec::new(),
        boxes: Vec::new(),
        exprs: Vec::new(),
        stmts: stmt.into_iter().collect(),
        inits: init.into_iter().collect(),
    };
    f.run();
}

/// What [`Freer::expr_kind`] forgets without dropping holds nothing to free.
fn _leaf_payloads_are_copy() {
    fn copy<T: Copy>() {}
    copy::<(u64, f64, VarId, FuncId, i64)>();
}

/// The (empty) work lists of the last [`free_stmt`] on a thread: a checker that discards
/// bodies frees every statement, so these keep their capacity instead of growing from
/// nothing each time; with the argument lists emptied so far, for [`expr_list`].
#[allow(clippy::vec_box)]
struct WorkLists {
    lists: Vec<Vec<Expr>>,
    boxes: Vec<Box<Expr>>,
    exprs: Vec<Expr>,
    stmts: Vec<Stmt>,
    inits: Vec<Init>,
    spare_lists: Vec<Vec<Expr>>,
}

/// Most emptied argument lists [`free_stmt`] keeps on a thread for [`expr_list`].
const MAX_SPARE_LISTS: usize = 4096;

thread_local! {
    /// Used in place (a borrow per statement freed, no move in and out).
    static WORK_LISTS: std::cell::RefCell<WorkLists> = const {
        std::cell::RefCell::new(WorkLists {
            lists: Vec::new(),
            boxes: Vec::new(),
            exprs: Vec::new(),
            stmts: Vec::new(),
            inits: Vec::new(),
            spare_lists: Vec::new(),
        })
    };
}

/// Frees a statement without recursing (as dropping a [`Function`] frees its body): for a
/// checker that does not keep bodies.
pub fn free_stmt(s: Stmt) {
    WORK_LISTS.with(|cell| {
        // Never busy (freeing calls nothing that frees a statement); if it were, the
        // statement is freed without the thread's lists.
        let Ok(mut guard) = cell.try_borrow_mut() else {
            return free_iteratively(Some(s), None, None);
        };
        let lists = &mut *guard;
        lists.stmts.push(s);
        SPARE_BOXES.with_borrow_mut(|spare| {
            let mut f = Freer {
                spare: Some(spare),
                lists_spare: Some(&mut lists.spare_lists),
                lists: std::mem::take(&mut lists.lists),
                boxes: std::mem::take(&mut lists.boxes),
                exprs: std::mem::take(&mut lists.exprs),
                stmts: std::mem::take(&mut lists.stmts),
                inits: std::mem::take(&mut lists.inits),
            };
            f.run();
            let Freer {
                lists: l,
                boxes,
                exprs,
                stmts,
                inits,
                ..
            } = f;
            (
                lists.lists,
                lists.boxes,
                lists.exprs,
                lists.stmts,
                lists.inits,
            ) = (l, boxes, exprs, stmts, inits);
        });
    });
}

/// An empty list for a call's arguments, reusing the buffer of one [`free_stmt`] emptied on
/// this thread when there is one: a checker that frees each statement then allocates none
/// for most calls.
pub fn expr_list() -> Vec<Expr> {
    WORK_LISTS
        .with(|c| {
            c.try_borrow_mut()
                .ok()
                .and_then(|mut l| l.spare_lists.pop())
        })
        .unwrap_or_default()
}

/// Drops this thread's spare expression boxes without freeing them, for a process about to
/// exit (see `oclc_syntax::ast::leak_spares`).
pub fn leak_spares() {
    std::mem::forget(SPARE_BOXES.with_borrow_mut(std::mem::take));
    WORK_LISTS.with(|c| {
        if let Ok(mut l) = c.try_borrow_mut() {
            std::mem::forget(std::mem::take(&mut l.spare_lists));
        }
    });
}

/// Most emptied expression boxes [`free_stmt`] keeps on a thread for [`boxed`].
const MAX_SPARE_BOXES: usize = 1 << 20;

thread_local! {
    /// Expression boxes emptied by [`free_stmt`] on this thread (kept boxed for reuse).
    #[allow(clippy::vec_box)]
    static SPARE_BOXES: std::cell::RefCell<Vec<Box<Expr>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// `Box::new(e)`, reusing a box [`free_stmt`] emptied on this thread when there is one: a
/// checker that frees each statement once checked then allocates almost nothing.
pub fn boxed(e: Expr) -> Box<Expr> {
    match SPARE_BOXES.with_borrow_mut(|spare| spare.pop()) {
        Some(mut b) => {
            // A spare box holds an emptied expression (kind `Error`, nothing to free): it is
            // overwritten without running the drop glue, which costs a call per box.
            debug_assert!(matches!(b.kind, ExprKind::Error));
            std::mem::forget(std::mem::replace(&mut *b, e));
            b
        }
        None => Box::new(e),
    }
}

impl Drop for Function {
    fn drop(&mut self) {
        if let Some(body) = self.body.take() {
            let span = body.span;
            free_iteratively(
                Some(Stmt {
                    span,
                    kind: StmtKind::Block(body),
                }),
                None,
                None,
            );
        }
    }
}

impl Drop for Var {
    fn drop(&mut self) {
        if let Some(init) = self.init.take() {
            free_iteratively(None, Some(init), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `free_stmt` keeps the emptied argument lists of calls (nested ones included) for
    /// `expr_list`, and the boxes inside them for `boxed`.
    #[test]
    fn free_stmt_keeps_argument_lists() {
        let span = Span::DUMMY;
        let call = |args: Vec<Expr>| Expr {
            kind: ExprKind::Call {
                callee: FuncId(0),
                args,
            },
            ..Expr::error(span)
        };
        let mut inner = Vec::with_capacity(5);
        inner.push(Expr::error(span));
        let negated = Expr {
            kind: ExprKind::Unary(UnOp::Neg, boxed(Expr::error(span))),
            ..Expr::error(span)
        };
        let mut outer = Vec::with_capacity(7);
        outer.extend([call(inner), negated]);
        WORK_LISTS.with_borrow_mut(|l| l.spare_lists.clear());
        let before = SPARE_BOXES.with_borrow(|s| s.len());
        free_stmt(Stmt {
            kind: StmtKind::Expr(call(outer)),
            span,
        });
        assert_eq!(SPARE_BOXES.with_borrow(|s| s.len()), before + 1);
        let mut caps: Vec<usize> = (0..2).map(|_| expr_list().capacity()).collect();
        caps.sort();
        assert_eq!(caps, [5, 7]);
        assert_eq!(expr_list().capacity(), 0);
    }
}
