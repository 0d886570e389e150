//! The AST: what the parser produces and sema checks.
//!
//! It is purely syntactic: names are not resolved and no types are computed. Every node has a
//! [`Span`]; every expression has an [`ExprId`], every declared entity a [`DeclId`] and every
//! statement a [`StmtId`], each unique in its translation unit and below the counts in
//! [`TranslationUnit`], so later stages can keep side tables in `Vec`s indexed by them (after
//! syntax errors a few ids may belong to discarded nodes).
//!
//! Conventions sema relies on:
//! - Declaration specifiers are kept in source order ([`DeclSpecs::items`]), each with its span,
//!   so a diagnostic can point at the offending keyword.
//! - Address-space qualifiers in every spelling (keyword, `__attribute__((opencl_global))`,
//!   `[[clang::opencl_global]]`, `address_space(N)`) become [`AsQual`]s; the parser never leaves
//!   them as plain [`Attribute`]s.
//! - A [`Declarator`] lists its [`Chunk`]s from the name outward (see [`Declarator::chunks`]).
//! - A vector literal `(float4)(a, b, 1, 2)` is a [`ExprKind::Cast`] whose operand is an
//!   [`ExprKind::ParenList`]; sema decides whether it is a vector literal or a comma expression.
//! - After a syntax error the parser substitutes [`ExprKind::Error`] / [`StmtKind::Error`];
//!   sema must stay silent about those nodes (the error is already reported).
//! - Diagnostics the parser already gives (sema must not repeat them): syntax errors, literal
//!   errors, "unknown type name" ([`TypeSpec::Unknown`]), implicit `int` (a declaration with
//!   no type specifier: sema uses `int` silently), "missing actual type specifier for pipe",
//!   and the language-mode checks clang makes while parsing specifiers: `generic`/`__generic`
//!   and `pipe` where unsupported, `auto`/`register` always, `extern`/`static` before
//!   OpenCL C 1.2 (the offending specifier is dropped from the AST, as clang drops it).
//!   Combination checks ("cannot combine with previous ... declaration specifier", duplicate
//!   qualifiers, multiple address spaces) are left to sema, which sees every specifier.

use crate::intern::Symbol;
use crate::source::Span;

/// Index of an expression, unique in its translation unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// Index of a declared entity (variable, function, parameter, field, enumerator, tag, typedef).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u32);

/// Index of a statement, unique in its translation unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

/// An identifier as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Symbol,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Top level
// ---------------------------------------------------------------------------------------------

/// One parsed file with everything it included.
#[derive(Clone, Debug, PartialEq)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
    /// Number of [`ExprId`]s handed out (ids are `0..num_exprs`).
    pub num_exprs: u32,
    /// Number of [`DeclId`]s handed out.
    pub num_decls: u32,
    /// Number of [`StmtId`]s handed out.
    pub num_stmts: u32,
}

/// A top-level item, in source order.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternalDecl {
    FunctionDef(FunctionDef),
    /// A declaration: variables, prototypes, typedefs, or a bare `struct S {...};`.
    Decl(Declaration),
    StaticAssert(StaticAssert),
    /// A stray `;` at file scope (clang warns about it only with `-pedantic`).
    Empty(Span),
    /// A `#pragma`, at the position it appeared among the tokens.
    Pragma(PragmaItem),
    /// A function declarator followed by no body ("expected function body after function
    /// declarator"): clang drops the declaration, but it acted on each parameter as parsed
    /// (their attributes and own declarators are checked).
    Dropped(Declarator),
}

/// A `#pragma` as the parser saw it between tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PragmaItem {
    pub span: Span,
    pub kind: PragmaKind,
}

/// What a pragma says: the preprocessor's classification.
pub use crate::pp::PragmaKind;

/// A function definition: `specs declarator body`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub id: DeclId,
    pub span: Span,
    pub specs: DeclSpecs,
    /// Declares a function: [`Declarator::function`] is `Some`.
    pub declarator: Declarator,
    /// K&R parameter declarations between the declarator and the body (`int f(a) int a; {`).
    pub kr_decls: Vec<Declaration>,
    pub body: Block,
    /// The body's `}` (where clang reports a function that falls off its end; it may come
    /// from another macro expansion than the `{`, so `body.span` may not reach it).
    pub close: Span,
}

/// `_Static_assert(cond, "message")` (message optional, as C2x allows).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssert {
    pub span: Span,
    pub cond: Expr,
    pub message: Option<Expr>,
}

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

/// `specs init-declarator, init-declarator, ... ;`
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// From the first specifier to the `;` (or to the last token parsed on error).
    pub span: Span,
    pub specs: DeclSpecs,
    /// Empty for `struct S { ... };` and other declarations that declare only a tag.
    pub declarators: Vec<InitDeclarator>,
}

/// One declarator of a declaration, with its optional initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    pub id: DeclId,
    pub span: Span,
    pub declarator: Declarator,
    pub init: Option<Initializer>,
}

/// Declaration specifiers in the order written.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DeclSpecs {
    /// From the first to the last specifier; DUMMY when there are none.
    pub span: Span,
    pub items: Vec<DeclSpec>,
}

impl DeclSpecs {
    /// The type specifiers, in order.
    pub fn type_specs(&self) -> impl Iterator<Item = (&TypeSpec, Span)> {
        self.items.iter().filter_map(|d| match &d.kind {
            DeclSpecKind::Type(t) => Some((t, d.span)),
            _ => None,
        })
    }

    /// The storage class specifiers, in order.
    pub fn storage(&self) -> impl Iterator<Item = (StorageClass, Span)> + '_ {
        self.items.iter().filter_map(|d| match d.kind {
            DeclSpecKind::Storage(s) => Some((s, d.span)),
            _ => None,
        })
    }

    /// The address-space qualifiers, in order.
    pub fn addr_spaces(&self) -> impl Iterator<Item = &AsQual> {
        self.items.iter().filter_map(|d| match &d.kind {
            DeclSpecKind::AddrSpace(a) => Some(a),
            _ => None,
        })
    }

    /// The attributes, in order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.items.iter().filter_map(|d| match &d.kind {
            DeclSpecKind::Attr(a) => Some(a),
            _ => None,
        })
    }

    /// Whether a `typedef` specifier is present.
    pub fn is_typedef(&self) -> bool {
        self.storage().any(|(s, _)| s == StorageClass::Typedef)
    }

    /// Whether `__kernel`/`kernel` is present.
    pub fn is_kernel(&self) -> bool {
        self.items
            .iter()
            .any(|d| matches!(d.kind, DeclSpecKind::Func(FuncSpec::Kernel)))
    }
}

/// One declaration specifier, qualifier or attribute with its span (the keyword, or the whole
/// `struct S {...}`, or the attribute's name and arguments).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpec {
    pub span: Span,
    pub kind: DeclSpecKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclSpecKind {
    Storage(StorageClass),
    Type(TypeSpec),
    Qual(TypeQual),
    AddrSpace(AsQual),
    Access(AccessQual),
    Func(FuncSpec),
    /// `pipe` (OpenCL C 2.0+): the rest of the specifiers give the element type.
    Pipe,
    /// `_Alignas(expr)` or `_Alignas(type)`.
    Alignas(Box<TypeOrExpr>),
    Attr(Attribute),
}

/// A storage-class specifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
    ThreadLocal,
}

impl StorageClass {
    /// The keyword as clang prints it in diagnostics.
    pub fn as_str(self) -> &'static str {
        match self {
            StorageClass::Typedef => "typedef",
            StorageClass::Extern => "extern",
            StorageClass::Static => "static",
            StorageClass::Auto => "auto",
            StorageClass::Register => "register",
            StorageClass::ThreadLocal => "_Thread_local",
        }
    }
}

/// A type qualifier (not an address space).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeQual {
    /// `const`, `__const`.
    Const,
    /// `volatile`, `__volatile`.
    Volatile,
    /// `restrict`, `__restrict`.
    Restrict,
    /// `_Atomic` used as a qualifier (not `_Atomic(T)`).
    Atomic,
}

/// An OpenCL image access qualifier: `__read_only`/`read_only` etc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessQual {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// A function specifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuncSpec {
    /// `__kernel`, `kernel`.
    Kernel,
    /// `inline`, `__inline`, `__inline__`.
    Inline,
    /// `_Noreturn`.
    Noreturn,
}

/// A type specifier. Combinations (`unsigned long`, `long long`) are left to sema, which sees
/// each keyword as its own [`DeclSpec`].
#[derive(Clone, Debug, PartialEq)]
pub enum TypeSpec {
    Void,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Half,
    Signed,
    Unsigned,
    /// `bool` or `_Bool`.
    Bool,
    Complex,
    /// An OpenCL builtin type name that is not a C keyword: `uchar`, `uint`, `size_t`,
    /// `float4`, `image2d_t`, `sampler_t`, `event_t`, `atomic_int`, ... (see
    /// [`crate::parse::is_builtin_type_name`]). Sema gives it meaning.
    Builtin(Symbol),
    /// A name declared with `typedef` and visible here.
    TypedefName(Symbol),
    /// An identifier used where a type name belongs that names no type ("unknown type name"
    /// is already reported); sema treats the declaration as invalid and stays silent.
    Unknown(Symbol),
    Record(Box<RecordSpec>),
    Enum(Box<EnumSpec>),
    /// `_Atomic(type-name)`.
    AtomicType(Box<TypeName>),
    /// `typeof(expr)`, `typeof(type)`, `__typeof__(...)`.
    Typeof(Box<TypeOrExpr>),
}

/// `struct`/`union`, with an optional tag and an optional body.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSpec {
    /// One id per occurrence (definition or reference).
    pub id: DeclId,
    pub kind: RecordKind,
    /// The `struct`/`union` keyword.
    pub kw_span: Span,
    pub name: Option<Ident>,
    /// Attributes between the keyword and the name, and after the closing brace.
    pub attrs: Vec<Attribute>,
    /// `Some` for a definition (`struct S { ... }`), even an empty one.
    pub body: Option<RecordBody>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    Struct,
    Union,
}

/// The braces of a struct or union definition and what is between them.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordBody {
    /// From `{` to `}`.
    pub span: Span,
    pub members: Vec<MemberDecl>,
}

/// One member declaration of a struct or union.
#[derive(Clone, Debug, PartialEq)]
pub enum MemberDecl {
    /// `specs field, field, ... ;` (no fields for an anonymous struct/union member).
    Fields(FieldGroup),
    StaticAssert(StaticAssert),
    Pragma(PragmaItem),
}

/// `specs field-declarator, ... ;` inside a struct or union.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldGroup {
    pub span: Span,
    pub specs: DeclSpecs,
    pub fields: Vec<FieldDecl>,
}

/// One field: a declarator, a bit-field width, or both (`int : 3;` has no name).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub id: DeclId,
    pub span: Span,
    pub declarator: Declarator,
    pub bit_width: Option<Expr>,
}

/// `enum`, with an optional tag and optional enumerator list.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    pub id: DeclId,
    pub kw_span: Span,
    pub name: Option<Ident>,
    pub attrs: Vec<Attribute>,
    /// `enum E : short { ... }`: the fixed underlying type (a clang extension in C).
    pub fixed_type: Option<Box<TypeName>>,
    /// `Some` for a definition; the span is from `{` to `}`.
    pub body: Option<(Span, Vec<Enumerator>)>,
}

/// `name` or `name = value` inside an enum.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    pub id: DeclId,
    pub span: Span,
    pub name: Ident,
    pub attrs: Vec<Attribute>,
    pub value: Option<Expr>,
}

/// An address-space qualifier as written. The semantic space (`oclc_sema::AddrSpace`) is
/// derived by sema; this keeps which spelling was used, for diagnostics.
#[derive(Clone, Debug, PartialEq)]
pub struct AsQual {
    /// The keyword, or the attribute name and its arguments.
    pub span: Span,
    pub kind: AsKind,
    pub form: AsForm,
    /// The keyword or attribute name as written: `__global`, `global`, `opencl_global`,
    /// `address_space`, ...
    pub spelling: Symbol,
}

/// Which address space an [`AsQual`] names.
#[derive(Clone, Debug, PartialEq)]
pub enum AsKind {
    Global,
    Local,
    Constant,
    Private,
    Generic,
    /// clang's `__attribute__((opencl_global_device))` (SYCL/USM).
    GlobalDevice,
    /// clang's `__attribute__((opencl_global_host))`.
    GlobalHost,
    /// `__attribute__((address_space(N)))`: the argument expression, unevaluated.
    Numbered(Box<Expr>),
}

/// How an address-space qualifier was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AsForm {
    /// `__global`, `global`, ...
    Keyword,
    /// `__attribute__((opencl_global))`, `__attribute__((address_space(1)))`.
    GnuAttr,
    /// `[[clang::opencl_global]]`.
    CxxAttr,
}

/// An attribute other than an address space: `__attribute__((name(args)))` or `[[ns::name]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The name and its argument list.
    pub span: Span,
    /// `clang` in `[[clang::name]]`.
    pub namespace: Option<Ident>,
    /// As written, including any `__x__` underscores (sema normalizes).
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub syntax: AttrSyntax,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttrSyntax {
    /// `__attribute__((...))`.
    Gnu,
    /// `[[...]]`.
    Cxx,
}

/// One attribute argument.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Expr(Expr),
    /// A bare identifier where the attribute takes one (`endian(host)`), or the first
    /// argument when it is an identifier that is not a type.
    Ident(Ident),
    /// A type name (`vec_type_hint(float4)`).
    Type(TypeName),
}

/// A declarator: an optional name and the type derivations around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The whole declarator; an empty span at the position the name would be for abstract
    /// declarators with no chunks.
    pub span: Span,
    /// `None` for abstract declarators (type names, unnamed parameters and bit-fields).
    pub name: Option<Ident>,
    /// Where the name is, or would be in an abstract declarator (clang's identifier
    /// location: `float (*)(int)` has it at the `)`).
    pub name_at: Span,
    /// Derivations from the name outward: `*a[3]` is `[Array, Pointer]` ("a is an array of
    /// pointers"); `(*f)(int)` is `[Pointer, Paren, Function]` ("f is a pointer to a
    /// function"). To build the type, start from the specifiers' type and apply the chunks in
    /// reverse, skipping `Paren`.
    pub chunks: Vec<Chunk>,
    /// Attributes and address spaces written after the declarator (`int x
    /// __attribute__((aligned(16)))`, `void f(void) __attribute__((overloadable))`).
    pub attrs: Vec<DeclSpec>,
}

impl Declarator {
    /// The function chunk that makes this declarator declare a function, if it does (the
    /// first non-paren chunk).
    pub fn function(&self) -> Option<&FunctionChunk> {
        self.chunks
            .iter()
            .find(|c| !matches!(c.kind, ChunkKind::Paren))
            .and_then(|c| match &c.kind {
                ChunkKind::Function(f) => Some(f),
                _ => None,
            })
    }
}

/// One type derivation of a declarator.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// `*` and its qualifiers; `[...]`; `(...)` of a parameter list; `(` `)` of a grouping.
    pub span: Span,
    pub kind: ChunkKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ChunkKind {
    /// `*` followed by qualifiers, address spaces and attributes (in order).
    Pointer {
        quals: Vec<DeclSpec>,
    },
    Array(ArrayChunk),
    Function(FunctionChunk),
    /// Grouping parentheses: `(*f)`. Carries no type meaning; kept so diagnostics can tell.
    Paren,
    /// `^` (a block pointer) where blocks are disabled: already reported; the declaration is
    /// invalid.
    Block,
}

/// `[size]`, `[]`, `[static N]`, `[const N]`, `[*]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayChunk {
    pub size: Option<Box<Expr>>,
    pub quals: Vec<DeclSpec>,
    pub is_static: bool,
    /// `[*]`.
    pub star: bool,
}

/// A parameter list.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionChunk {
    /// `(void)` is one unnamed parameter of type `void`; `()` is empty.
    pub params: Vec<ParamDecl>,
    /// The `...`, if present.
    pub ellipsis: Option<Span>,
    /// K&R identifier list `f(a, b)`: names only (then `params` is empty).
    pub kr_idents: Vec<Ident>,
    /// The `)` ending the list (the last token taken when it is missing): clang reports the
    /// return type's and the parameters' type errors as it builds the function type there.
    pub close: Span,
}

/// One parameter declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub id: DeclId,
    pub span: Span,
    pub specs: DeclSpecs,
    pub declarator: Declarator,
}

/// `specs abstract-declarator`, as in casts, `sizeof(T)` and `vec_type_hint(T)`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub span: Span,
    pub specs: DeclSpecs,
    /// Always abstract (`name` is `None`).
    pub declarator: Declarator,
}

/// `typeof`, `sizeof`, `vec_step`, `_Alignof` and `_Alignas` take either.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeOrExpr {
    Type(TypeName),
    Expr(Expr),
}

/// An initializer: `= expr` or `= { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    List(InitList),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(l) => l.span,
        }
    }
}

/// `{ item, item, ... }`, trailing comma allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct InitList {
    /// From `{` to `}`.
    pub span: Span,
    pub items: Vec<InitItem>,
}

/// One element of a braced list, optionally designated: `.x = 1`, `[3] = 2`, `.a[1].b = 3`.
#[derive(Clone, Debug, PartialEq)]
pub struct InitItem {
    pub span: Span,
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    /// `.name`; the span covers the dot and the name.
    Field { span: Span, name: Ident },
    /// `[index]`; the span covers the brackets.
    Index { span: Span, index: Expr },
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

/// `{ ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub id: StmtId,
    /// From `{` to `}`.
    pub span: Span,
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub id: StmtId,
    pub span: Span,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Compound(Block),
    Decl(Declaration),
    Expr(Expr),
    /// `;`
    Null,
    If {
        cond: Expr,
        then: Box<Stmt>,
        else_: Option<Box<Stmt>>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `case value: body`.
    Case {
        value: Expr,
        body: Box<Stmt>,
    },
    Default {
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<Box<ForInit>>,
        cond: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Label {
        name: Ident,
        body: Box<Stmt>,
    },
    /// `__attribute__((opencl_unroll_hint(4))) for (...)` and `[[...]]` on statements.
    Attributed {
        attrs: Vec<Attribute>,
        body: Box<Stmt>,
    },
    StaticAssert(Box<StaticAssert>),
    Pragma(PragmaItem),
    /// A GNU inline assembly statement `__asm__ volatile ("..." : outs : ins : clobbers)`.
    Asm(Box<AsmStmt>),
    /// A statement that failed to parse (already diagnosed).
    Error,
}

/// A GNU inline assembly statement, as clang's `ParseAsmStatement` reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmStmt {
    /// `asm("...")` with no `:` at all (its string is not scanned for operands).
    pub simple: bool,
    /// The `goto` qualifier.
    pub goto: bool,
    /// The assembly template.
    pub template: StrLit,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<StrLit>,
    /// `asm goto` labels.
    pub labels: Vec<Ident>,
}

/// One `[name] "constraint" (expr)` operand of an asm statement.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmOperand {
    pub name: Option<Ident>,
    pub constraint: StrLit,
    pub expr: Expr,
}

/// The first clause of a `for`.
#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    Expr(Expr),
    Decl(Declaration),
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    IntLit(IntLit),
    FloatLit(FloatLit),
    CharLit(CharLit),
    /// Adjacent string literals, concatenated.
    StrLit(StrLit),
    /// `true` / `false`.
    BoolLit(bool),
    Ident(Symbol),
    /// `__func__` (also `__FUNCTION__`).
    FuncName,
    /// `( e )`.
    Paren(Box<Expr>),
    /// `( e1, e2, ... )` written directly after a cast's type: `(float4)(a, b, 1, 2)`.
    /// Occurs only as the operand of [`ExprKind::Cast`]; a vector literal when the cast type is
    /// a vector, otherwise a comma expression in parentheses. One element is possible.
    ParenList(Vec<Expr>),
    Unary {
        op: UnaryOp,
        op_span: Span,
        expr: Box<Expr>,
    },
    Binary {
        op: BinOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `=` (op `None`) and compound assignments (`+=` is `Some(BinOp::Add)`).
    Assign {
        op: Option<BinOp>,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
        question: Span,
        colon: Span,
    },
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
        /// The parentheses.
        parens: Span,
        /// Where the `)` was missing after the arguments of a call of a name the parser
        /// does not know: clang skips to the `)` silently when the callee is undeclared
        /// (an invalid call), so sema reports "expected ')'" only for a valid callee.
        unclosed: Option<Span>,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
        /// The brackets.
        brackets: Span,
    },
    /// `base.name` or `base->name`; swizzles (`.xyzw`, `.s01`, `.lo`) are members too.
    Member {
        base: Box<Expr>,
        arrow: bool,
        op_span: Span,
        name: Ident,
    },
    /// `(T)e`; `parens` covers `(T)`.
    Cast {
        ty: Box<TypeName>,
        parens: Span,
        expr: Box<Expr>,
    },
    /// `(T){ ... }`.
    CompoundLit {
        ty: Box<TypeName>,
        init: InitList,
    },
    SizeOf(Box<TypeOrExpr>),
    VecStep(Box<TypeOrExpr>),
    /// `_Alignof(T)` (`gnu`: `__alignof__`/`__alignof`, which also takes an expression).
    AlignOf {
        arg: Box<TypeOrExpr>,
        gnu: bool,
    },
    /// `__builtin_astype(expr, type)` (what opencl-c.h's `as_T` and `CLK_NULL_EVENT` use).
    AsType {
        expr: Box<Expr>,
        ty: Box<TypeName>,
    },
    /// `__builtin_offsetof(type, member-designator)`: `path` starts with a field name.
    OffsetOf {
        ty: Box<TypeName>,
        path: Vec<OffsetOfPart>,
    },
    /// `__builtin_bit_cast(type, expr)`.
    BitCast {
        ty: Box<TypeName>,
        expr: Box<Expr>,
    },
    /// `__builtin_choose_expr(cond, a, b)`: `a` or `b` by the constant `cond`.
    ChooseExpr {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    /// A GNU statement expression `({ stmts; last-expr; })`: its value is the last
    /// expression statement's (trailing `;`s skipped), `void` when the last statement is not
    /// an expression. `parens` covers `(` to `)`; `body` is the braces.
    StmtExpr {
        body: Block,
        parens: Span,
    },
    /// A placeholder after a syntax error (already diagnosed).
    Error,
}

/// One step of an `offsetof` member designator.
#[derive(Clone, Debug, PartialEq)]
pub enum OffsetOfPart {
    /// `.name` (or the leading name); `span` covers the `.` too where there is one.
    Field { name: Ident, span: Span },
    /// `[index]`; `close` is the `]`.
    Index { index: Expr, close: Span },
}

/// Prefix and postfix unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Plus,
    Minus,
    /// `!`
    LogNot,
    /// `~`
    BitNot,
    /// `*e`
    Deref,
    /// `&e`
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

impl UnaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Plus => "+",
            UnaryOp::Minus => "-",
            UnaryOp::LogNot => "!",
            UnaryOp::BitNot => "~",
            UnaryOp::Deref => "*",
            UnaryOp::AddrOf => "&",
            UnaryOp::PreInc | UnaryOp::PostInc => "++",
            UnaryOp::PreDec | UnaryOp::PostDec => "--",
        }
    }
}

/// Binary operators (also the operation of a compound assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
    /// `,`
    Comma,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
            BinOp::Comma => ",",
        }
    }
}

/// An integer literal, decoded (see [`crate::parse::literal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub spelling: Symbol,
    /// The value; literals that do not fit in 64 bits are diagnosed and kept truncated.
    pub value: u64,
    pub radix: u32,
    /// `u`/`U` suffix.
    pub unsigned: bool,
    /// Number of `l`/`L` in the suffix: 0, 1 (`l`) or 2 (`ll`).
    pub long: u8,
}

/// A floating literal, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLit {
    pub spelling: Symbol,
    /// The value as `f64` (rounded once from the decimal or hex spelling).
    pub value: f64,
    pub suffix: FloatSuffix,
    pub hex: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatSuffix {
    /// No suffix: `double`.
    None,
    /// `f`/`F`.
    F,
    /// `h`/`H` (OpenCL `half`).
    H,
    /// `l`/`L`.
    L,
}

/// A character constant, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharLit {
    pub spelling: Symbol,
    /// The value as clang computes it for a plain `char` constant (type `int`, the
    /// character sign-extended from `char`; multi-character constants combined).
    pub value: i64,
    /// `L`, `u`, `U` or `u8` prefix, if any.
    pub prefix: Option<Symbol>,
}

/// One or more adjacent string literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrLit {
    /// Each literal as written, with its span.
    pub pieces: Vec<(Symbol, Span)>,
    /// The bytes after escape processing and concatenation, without the terminating NUL.
    pub value: Vec<u8>,
    /// Prefix of the pieces (`L`, `u`, `U`, `u8`), if any has one.
    pub prefix: Option<Symbol>,
}

impl Drop for Expr {
    /// A chain's left spine (`a + b + c ...`, any length) is freed in a loop rather than by
    /// recursion: its length is not nesting, and may be more than a thread's stack takes.
    fn drop(&mut self) {
        let ExprKind::Binary { lhs, .. } = &mut self.kind else {
            return;
        };
        if !matches!(lhs.kind, ExprKind::Binary { .. }) {
            return;
        }
        let mut next = std::mem::replace(&mut **lhs, Expr::placeholder());
        loop {
            let inner = match &mut next.kind {
                ExprKind::Binary { lhs, .. } if matches!(lhs.kind, ExprKind::Binary { .. }) => {
                    Some(std::mem::replace(&mut **lhs, Expr::placeholder()))
                }
                _ => None,
            };
            // `next` now holds no chain: dropping it recurses no deeper than its nesting.
            drop(next);
            match inner {
                Some(n) => next = n,
                None => return,
            }
        }
    }
}

impl Expr {
    /// An `Error` expression that owns nothing, left where a chain link was taken out.
    fn placeholder() -> Expr {
        Expr {
            id: ExprId(u32::MAX),
            span: Span::DUMMY,
            kind: ExprKind::Error,
        }
    }
}

impl Drop for Stmt {
    /// An `else if` chain is freed in a loop rather than by recursion, as a chain of
    /// operators is (see `Drop for Expr`).
    fn drop(&mut self) {
        let mut next = take_else_if(self);
        while let Some(mut s) = next {
            next = take_else_if(&mut s);
        }
    }
}

/// The `else` of an `if` statement when it is another `if`, taken out (a `Null` statement is
/// left in its place).
fn take_else_if(s: &mut Stmt) -> Option<Stmt> {
    let StmtKind::If { else_: Some(e), .. } = &mut s.kind else {
        return None;
    };
    if !matches!(e.kind, StmtKind::If { .. }) {
        return None;
    }
    let null = Stmt {
        id: e.id,
        span: Span::DUMMY,
        kind: StmtKind::Null,
    };
    Some(std::mem::replace(&mut **e, null))
}

/// Most emptied expression boxes [`recycle`] keeps on a thread for [`boxed`].
const MAX_SPARE_EXPRS: usize = 1 << 20;

thread_local! {
    /// Expression boxes emptied by [`recycle`] on this thread. The boxes themselves are the
    /// point (their allocations are reused), hence `Vec<Box<_>>`.
    #[allow(clippy::vec_box)]
    static SPARE_EXPRS: std::cell::RefCell<Vec<Box<Expr>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// `Box::new(e)`, reusing a box [`recycle`] emptied on this thread when there is one: a parser
/// that frees what it parsed earlier (the pipelined check) then allocates little.
pub fn boxed(e: Expr) -> Box<Expr> {
    match SPARE_EXPRS.with_borrow_mut(|spare| spare.pop()) {
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

/// Drops this thread's spare expression boxes without freeing them, for a process about to
/// exit: freeing up to a million boxes one by one at thread exit is wasted work there.
pub fn leak_spares() {
    std::mem::forget(SPARE_EXPRS.with_borrow_mut(std::mem::take));
    std::mem::forget(SPARE_BLOCKS.with_borrow_mut(std::mem::take));
    std::mem::forget(SPARE_LISTS.with_borrow_mut(std::mem::take));
}

/// Most emptied argument lists [`recycle`] keeps on a thread for [`expr_list`].
const MAX_SPARE_LISTS: usize = 4096;

thread_local! {
    /// Argument lists of calls emptied by [`recycle`] on this thread (their buffers are the
    /// point).
    static SPARE_LISTS: std::cell::RefCell<Vec<Vec<Expr>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// An empty list for a call's arguments, reusing the buffer of one [`recycle`] emptied on this
/// thread when there is one (a kernel makes tens of thousands of calls: each list was
/// allocated, grown and freed).
pub fn expr_list() -> Vec<Expr> {
    spare_list(&SPARE_LISTS)
}

/// Most emptied statement lists [`recycle`] keeps on a thread for [`stmt_list`].
const MAX_SPARE_BLOCKS: usize = 1024;

thread_local! {
    /// Statement lists of compound statements emptied by [`recycle`] on this thread (their
    /// buffers are the point).
    static SPARE_BLOCKS: std::cell::RefCell<Vec<Vec<Stmt>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// An empty statement list for a compound statement, reusing the buffer of one [`recycle`]
/// emptied on this thread when there is one: the last emptied is the body of the function
/// freed last, so the next body (opened first) gets the room of a whole body, rather than
/// growing a list of thousands of statements by copying it at each doubling.
pub fn stmt_list() -> Vec<Stmt> {
    spare_list(&SPARE_BLOCKS)
}

/// An emptied list from this thread's `pool`, or a new one.
fn spare_list<T: 'static>(
    pool: &'static std::thread::LocalKey<std::cell::RefCell<Vec<Vec<T>>>>,
) -> Vec<T> {
    pool.with_borrow_mut(|spare| spare.pop())
        .unwrap_or_default()
}

/// Frees top-level items, keeping the boxes of the expressions in function bodies for
/// [`boxed`] on this thread. A work list, not recursion: nesting may be deep.
pub fn recycle(items: impl IntoIterator<Item = ExternalDecl>) {
    let mut blocks_spare = SPARE_BLOCKS.with_borrow_mut(std::mem::take);
    let mut lists_spare = SPARE_LISTS.with_borrow_mut(std::mem::take);
    SPARE_EXPRS.with_borrow_mut(|spare| {
        let mut r = Recycler {
            spare,
            blocks_spare: &mut blocks_spare,
            lists_spare: &mut lists_spare,
            lists: Vec::new(),
            boxes: Vec::new(),
            exprs: Vec::new(),
            stmts: Vec::new(),
            blocks: Vec::new(),
        };
        for item in items {
            match item {
                ExternalDecl::FunctionDef(mut f) => {
                    r.blocks.push(std::mem::take(&mut f.body.stmts))
                }
                // File-scope tables: their initializers hold most of a file's expressions.
                ExternalDecl::Decl(d) => r.stmt_kind(StmtKind::Decl(d)),
                _ => continue,
            }
            r.run();
        }
    });
    SPARE_BLOCKS.set(blocks_spare);
    SPARE_LISTS.set(lists_spare);
}

/// What [`Recycler::expr_kind`] forgets without dropping holds nothing to free.
fn _leaf_payloads_are_copy() {
    fn copy<T: Copy>() {}
    copy::<(IntLit, FloatLit, CharLit, bool, Symbol)>();
}

/// The work lists of [`recycle`] (boxes kept whole: their allocations are reused).
#[allow(clippy::vec_box)]
struct Recycler<'a> {
    spare: &'a mut Vec<Box<Expr>>,
    /// Emptied statement lists kept for [`stmt_list`].
    blocks_spare: &'a mut Vec<Vec<Stmt>>,
    /// Emptied argument lists kept for [`expr_list`].
    lists_spare: &'a mut Vec<Vec<Expr>>,
    /// Calls' argument lists, emptied from the end.
    lists: Vec<Vec<Expr>>,
    boxes: Vec<Box<Expr>>,
    exprs: Vec<Expr>,
    stmts: Vec<Stmt>,
    /// The statements of compound statements, emptied from the end: a body of thousands of
    /// statements is not copied into `stmts` first.
    blocks: Vec<Vec<Stmt>>,
}

impl Recycler<'_> {
    fn run(&mut self) {
        loop {
            if let Some(mut b) = self.boxes.pop() {
                let kind = std::mem::replace(&mut b.kind, ExprKind::Error);
                self.expr_kind(kind);
                if self.spare.len() < MAX_SPARE_EXPRS {
                    self.spare.push(b);
                }
            } else if let Some(mut e) = self.exprs.pop() {
                let kind = std::mem::replace(&mut e.kind, ExprKind::Error);
                self.expr_kind(kind);
            } else if let Some(list) = self.lists.last_mut() {
                match list.pop() {
                    Some(mut e) => {
                        let kind = std::mem::replace(&mut e.kind, ExprKind::Error);
                        self.expr_kind(kind);
                    }
                    None => {
                        if let Some(l) = self.lists.pop()
                            && l.capacity() > 0
                            && self.lists_spare.len() < MAX_SPARE_LISTS
                        {
                            self.lists_spare.push(l);
                        }
                    }
                }
            } else if let Some(mut s) = self.stmts.pop() {
                let kind = std::mem::replace(&mut s.kind, StmtKind::Null);
                self.stmt_kind(kind);
            } else if let Some(block) = self.blocks.last_mut() {
                match block.pop() {
                    Some(mut s) => {
                        let kind = std::mem::replace(&mut s.kind, StmtKind::Null);
                        self.stmt_kind(kind);
                    }
                    None => {
                        if let Some(b) = self.blocks.pop()
                            && b.capacity() > 0
                            && self.blocks_spare.len() < MAX_SPARE_BLOCKS
                        {
                            self.blocks_spare.push(b);
                        }
                    }
                }
            } else {
                return;
            }
        }
    }

    /// Queues the operands of an expression (whatever else it holds is dropped).
    fn expr_kind(&mut self, kind: ExprKind) {
        match kind {
            ExprKind::Paren(x)
            | ExprKind::Unary { expr: x, .. }
            | ExprKind::Member { base: x, .. }
            | ExprKind::Cast { expr: x, .. } => self.boxes.push(x),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign { lhs, rhs, .. }
            | ExprKind::Index {
                base: lhs,
                index: rhs,
                ..
            } => {
                self.boxes.push(lhs);
                self.boxes.push(rhs);
            }
            ExprKind::Cond {
                cond, then, else_, ..
            } => {
                self.boxes.push(cond);
                self.boxes.push(then);
                self.boxes.push(else_);
            }
            ExprKind::Call { callee, args, .. } => {
                self.boxes.push(callee);
                self.lists.push(args);
            }
            ExprKind::ParenList(v) => self.exprs.extend(v),
            // Leaves own nothing (their payloads are `Copy`): forgetting one skips a call to
            // the drop glue, for most of the nodes.
            k @ (ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::CharLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Ident(_)
            | ExprKind::FuncName
            | ExprKind::Error) => std::mem::forget(k),
            _ => {}
        }
    }

    /// Queues the parts of a statement that hold expressions.
    fn stmt_kind(&mut self, kind: StmtKind) {
        match kind {
            StmtKind::Compound(mut b) => self.blocks.push(std::mem::take(&mut b.stmts)),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.exprs.push(e),
            StmtKind::If { cond, then, else_ } => {
                self.exprs.push(cond);
                self.stmts.push(*then);
                if let Some(e) = else_ {
                    self.stmts.push(*e);
                }
            }
            StmtKind::Switch { cond, body }
            | StmtKind::Case { value: cond, body }
            | StmtKind::While { cond, body }
            | StmtKind::DoWhile { body, cond } => {
                self.exprs.push(cond);
                self.stmts.push(*body);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(i) = init
                    && let ForInit::Expr(e) = *i
                {
                    self.exprs.push(e);
                }
                self.boxes.extend(cond);
                self.boxes.extend(step);
                self.stmts.push(*body);
            }
            StmtKind::Default { body }
            | StmtKind::Label { body, .. }
            | StmtKind::Attributed { body, .. } => self.stmts.push(*body),
            // Initializers go through the work lists too (a table's braced list holds
            // thousands of expressions); the rest of the declaration is dropped.
            StmtKind::Decl(mut d) => {
                for id in &mut d.declarators {
                    if let Some(init) = id.init.take() {
                        self.initializer(init);
                    }
                }
            }
            _ => {}
        }
    }

    /// Queues the expressions of an initializer, braced lists at any depth.
    fn initializer(&mut self, init: Initializer) {
        let list = match init {
            Initializer::Expr(e) => return self.exprs.push(e),
            Initializer::List(l) => l,
        };
        let mut lists = vec![list];
        while let Some(l) = lists.pop() {
            for item in l.items {
                match item.init {
                    Initializer::Expr(e) => self.exprs.push(e),
                    Initializer::List(inner) => lists.push(inner),
                }
            }
        }
    }
}

#[cfg(test)]
mod recycle_tests {
    use super::*;
    use crate::lang::{ClStd, LangOptions};
    use crate::pp::{PpOptions, preprocess};
    use crate::{Diagnostics, SourceMap};

    /// `recycle` keeps the expression boxes of file-scope initializers (nested braced lists
    /// included) and of declarations in bodies, not only of statements.
    #[test]
    fn initializers_are_recycled() {
        let src = b"int t[2][2] = {{1 + 2, 3 + 4}, {-5, 6}};\n\
                    void f(void) { int u[2] = {7 * 8, !9}; }\n";
        let lang = LangOptions::new(ClStd::Cl20);
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.cl", src);
        let mut d = Diagnostics::default();
        let opts = PpOptions {
            lang: lang.clone(),
            ..PpOptions::default()
        };
        let out = preprocess(&mut sm, f, &opts, &mut d);
        let tu = crate::parse::parse(&out, &sm, &lang, &mut d);
        assert!(d.list.is_empty());
        let before = SPARE_EXPRS.with_borrow(|s| s.len());
        recycle(tu.items);
        let after = SPARE_EXPRS.with_borrow(|s| s.len());
        // Two boxes per binary operator, one per unary: 2 + 2 + 1 at file scope, 2 + 1 in f.
        assert_eq!(after - before, 8);
    }

    /// `recycle` keeps the emptied statement lists of function bodies and nested compound
    /// statements, and `stmt_list` hands out the body's (the last emptied) first.
    #[test]
    fn statement_lists_are_recycled() {
        let body: String = (0..40).map(|i| format!("x = {i};")).collect();
        let src = format!("void f(void) {{ int x; {{ x = 1; x = 2; }} {body} }}\n");
        let lang = LangOptions::new(ClStd::Cl20);
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", src);
        let mut d = Diagnostics::default();
        let opts = PpOptions {
            lang: lang.clone(),
            ..PpOptions::default()
        };
        let out = preprocess(&mut sm, f, &opts, &mut d);
        let tu = crate::parse::parse(&out, &sm, &lang, &mut d);
        assert!(d.list.is_empty());
        SPARE_BLOCKS.with_borrow_mut(|s| s.clear());
        recycle(tu.items);
        let first = stmt_list();
        assert!(
            first.is_empty() && first.capacity() >= 42,
            "{}",
            first.capacity()
        );
        let second = stmt_list();
        assert!(
            second.is_empty() && second.capacity() >= 2,
            "{}",
            second.capacity()
        );
        assert_eq!(stmt_list().capacity(), 0);
    }

    /// `recycle` keeps the emptied argument lists of calls (nested calls' included) for
    /// `expr_list`, and still keeps every expression box inside them.
    #[test]
    fn argument_lists_are_recycled() {
        let src = "void g(int, int, int); void f(void) { g(1, 2, 3); g(-1, 2, 3 + 4); }\n";
        let lang = LangOptions::new(ClStd::Cl20);
        let mut sm = SourceMap::new();
        let f = sm.add_text("t.cl", src.to_string());
        let mut d = Diagnostics::default();
        let opts = PpOptions {
            lang: lang.clone(),
            ..PpOptions::default()
        };
        let out = preprocess(&mut sm, f, &opts, &mut d);
        let tu = crate::parse::parse(&out, &sm, &lang, &mut d);
        assert!(d.list.is_empty());
        SPARE_LISTS.with_borrow_mut(|s| s.clear());
        let before = SPARE_EXPRS.with_borrow(|s| s.len());
        recycle(tu.items);
        let after = SPARE_EXPRS.with_borrow(|s| s.len());
        // The callees (2), the unary operand (1) and the binary operands (2).
        assert_eq!(after - before, 5);
        for _ in 0..2 {
            let l = expr_list();
            assert!(l.is_empty() && l.capacity() >= 3, "{}", l.capacity());
        }
        assert_eq!(expr_list().capacity(), 0);
    }
}
