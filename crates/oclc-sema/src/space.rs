//! The OpenCL C address-space system: every rule about `__global`, `__local`, `__constant`,
//! `__private` and the generic space lives here, each citing its `spec-rules.md` number.
//!
//! Read top to bottom:
//! 1. the spaces and how they nest (rules 6, 8, 41);
//! 2. which space an unqualified declaration gets (rules 36–40);
//! 3. which conversions between pointers are implicit, which need a cast, and which are
//!    errors, including nested pointers, comparisons, `?:` and subtraction (rules 42–54);
//! 4. where each space may be declared: program scope, `static`/`extern`, kernel outermost
//!    scope, parameters, return types (rules 9–10, 16, 26–34);
//! 5. kernel parameters (rules 29–30);
//! 6. the `to_global`/`to_local`/`to_private`/`get_fence` builtins (rules 55–59).
//!
//! The checker (`check`) calls these functions and turns their answers into clang's
//! diagnostics; nothing about spaces is decided anywhere else.

use oclc_syntax::{ClStd, LangOptions};

use crate::types::LangAs;

/// The five address spaces of OpenCL C (rules 6 and 8). Defined once; every later stage
/// re-exports this enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    /// The spelling clang uses when printing types: `__global`, `__generic`, ...
    pub fn clang_name(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }

    /// The bare word used in clang's "... in %0 address space" messages: `global`, `local`.
    pub fn word(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Local => "local",
            AddrSpace::Constant => "constant",
            AddrSpace::Generic => "generic",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Nesting of spaces
// ---------------------------------------------------------------------------------------------

/// Rule 41: `a` is contained in `b`. The named spaces are disjoint; generic contains every
/// space except `constant` (clang also lets numbered target spaces convert to generic); clang's
/// USM spaces `__global_device` and `__global_host` are subsets of `__global`.
pub fn is_subset(a: LangAs, b: LangAs) -> bool {
    use AddrSpace::*;
    a == b
        || (b == LangAs::Named(Generic) && a != LangAs::Named(Constant))
        || (b == LangAs::Named(Global) && matches!(a, LangAs::GlobalDevice | LangAs::GlobalHost))
}

/// Rule 41 (clang's `isAddressSpaceOverlapping`): one space contains the other. Pointers into
/// overlapping spaces can be compared, subtracted, merged by `?:` and cast to each other.
pub fn overlaps(a: LangAs, b: LangAs) -> bool {
    is_subset(a, b) || is_subset(b, a)
}

/// Where an unqualified space is compared, clang compares the deduced one; a missing space
/// (`None`, only on types that never got one, such as function types) equals only itself.
fn opt_subset(a: Option<LangAs>, b: Option<LangAs>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => is_subset(a, b),
        (None, Some(b)) => b == LangAs::GENERIC,
        (a, b) => a == b,
    }
}

/// Rule 41, the space half of clang's `isAtLeastAsQualifiedAs(to, from)`: an object in `from`
/// is one in `to` (a `'__private int'` destination takes what a `__private int *` points to;
/// a parameter of type `'int'`, with no space, does not). clang's fix-it hints for a pointer
/// used as an integer ("; dereference with *", "; remove &") ask it.
pub fn at_least_as_qualified_space(to: Option<LangAs>, from: Option<LangAs>) -> bool {
    opt_subset(from, to)
}

fn opt_overlaps(a: Option<LangAs>, b: Option<LangAs>) -> bool {
    opt_subset(a, b) || opt_subset(b, a)
}

// ---------------------------------------------------------------------------------------------
// 2. Defaults: the space an unqualified declaration gets
// ---------------------------------------------------------------------------------------------

/// Where a declaration appears, for the default-space rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclContext {
    /// A variable at program scope.
    ProgramScope,
    /// A `static` or `extern` variable inside a function.
    StaticOrExternLocal,
    /// An automatic variable inside a function.
    Automatic,
    /// A function parameter.
    Parameter,
}

/// Rules 36 and 39: the space an unqualified variable or parameter is placed in. With
/// program-scope globals (PSGV), program-scope and `static`/`extern` variables default to
/// `__global`; everything else (and everything without PSGV) defaults to `__private`.
/// clang leaves `sampler_t` variables unqualified; the caller skips those.
pub fn default_object_space(ctx: DeclContext, lang: &LangOptions) -> AddrSpace {
    match ctx {
        DeclContext::ProgramScope | DeclContext::StaticOrExternLocal
            if lang.program_scope_globals() =>
        {
            AddrSpace::Global
        }
        _ => AddrSpace::Private,
    }
}

/// Rule 37: the space an unqualified pointee gets: generic when the generic address space
/// exists (OpenCL C 2.0, or 3.0 with the feature), otherwise `__private`.
pub fn default_pointee_space(lang: &LangOptions) -> AddrSpace {
    if lang.generic_address_space() {
        AddrSpace::Generic
    } else {
        AddrSpace::Private
    }
}

/// Rule 38: string literals (and `__func__`) are arrays in `__constant`.
pub fn string_literal_space() -> AddrSpace {
    AddrSpace::Constant
}

/// Rules 12 and 22: whether `__generic`/`generic` may be written. clang rejects it before
/// OpenCL C 2.0 and in 3.0 without the feature with "OpenCL C version X does not support the
/// 'generic' type qualifier".
pub fn generic_qualifier_allowed(lang: &LangOptions) -> bool {
    lang.generic_address_space()
}

/// The "OpenCL C version 1.2" text clang puts in version-gating messages.
pub fn version_text(lang: &LangOptions) -> &'static str {
    match lang.std {
        ClStd::Cl10 => "1.0",
        ClStd::Cl11 => "1.1",
        ClStd::Cl12 => "1.2",
        ClStd::Cl20 => "2.0",
        ClStd::Cl30 => "3.0",
    }
}

/// Every note oclc adds beyond clang's starts with this, so `-verify` (which matches clang's
/// notes) can leave them out.
pub const BEYOND_CLANG_NOTE_PREFIX: &str = "implicit address space: ";

/// A note, beyond clang, saying where an implicit space came from (DESIGN.md: "where the
/// space was implicit, a note says where it came from"). Starts with
/// [`BEYOND_CLANG_NOTE_PREFIX`].
pub fn implicit_space_note(space: AddrSpace, lang: &LangOptions, pointee: bool) -> String {
    format!(
        "{BEYOND_CLANG_NOTE_PREFIX}{}",
        implicit_space_text(space, lang, pointee)
    )
}

fn implicit_space_text(space: AddrSpace, lang: &LangOptions, pointee: bool) -> String {
    if pointee {
        match space {
            AddrSpace::Generic => format!(
                "a pointer written without an address space points to the generic address \
                 space in OpenCL C {}, which does not include __constant",
                version_text(lang)
            ),
            _ => format!(
                "a pointer written without an address space points to __private in OpenCL C {} \
                 (the generic address space needs -cl-std=CL2.0)",
                version_text(lang)
            ),
        }
    } else {
        format!(
            "variable without an address-space qualifier is in the {} address space by default",
            space.word()
        )
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Conversions
// ---------------------------------------------------------------------------------------------

/// The spaces at each pointer level of a pointer type, outermost pointee first, as the checker
/// extracts them from two types being converted. `levels[0]` is the space of what the pointer
/// points to; `levels[1]` (if the pointee is itself a pointer) the space its pointee, and so on.
pub type SpaceChain<'a> = &'a [Option<LangAs>];

/// Outcome of an implicit pointer conversion, as far as spaces are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImplicitConv {
    /// Allowed (same space, or named → generic).
    Ok,
    /// Rules 42, 44, 46, 52: the outermost pointee space is not contained in the target's
    /// ("changes address space of pointer").
    ChangesSpace,
    /// Rule 47: an inner pointee space differs ("changes address space of nested pointer").
    ChangesNestedSpace,
}

/// Rules 42, 44, 46, 47, 52: an implicit conversion (assignment, initialization, argument
/// passing, return) from a pointer whose pointee spaces are `from` to one with `to`. The
/// outermost pointee may go from a named space to an enclosing one (named → generic); every
/// deeper level must match exactly, because writing through the converted pointer could
/// otherwise store a pointer into the wrong space.
pub fn implicit_pointer_conversion(from: SpaceChain, to: SpaceChain) -> ImplicitConv {
    let (Some(f0), Some(t0)) = (from.first(), to.first()) else {
        return ImplicitConv::Ok;
    };
    if !opt_subset(*f0, *t0) {
        return ImplicitConv::ChangesSpace;
    }
    for (f, t) in from.iter().zip(to.iter()).skip(1) {
        if f != t {
            return ImplicitConv::ChangesNestedSpace;
        }
    }
    ImplicitConv::Ok
}

/// Outcome of an explicit pointer cast, as far as spaces are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastConv {
    Ok,
    /// Rule 43, 46: the outermost pointee spaces do not overlap ("casting ... changes address
    /// space of pointer").
    ChangesSpace,
    /// Rule 47: an inner level differs; allowed with clang's warning "discards qualifiers in
    /// nested pointer types".
    NestedWarning,
}

/// Rules 43, 45, 46, 47: an explicit cast `(T *)p`. The outermost pointee spaces must overlap
/// (generic ↔ global/local/private both ways; distinct named spaces, and constant ↔ generic,
/// never). A difference at a deeper level is allowed but warned about, as clang does.
pub fn explicit_pointer_cast(from: SpaceChain, to: SpaceChain) -> CastConv {
    let (Some(f0), Some(t0)) = (from.first(), to.first()) else {
        return CastConv::Ok;
    };
    if !opt_overlaps(*f0, *t0) {
        return CastConv::ChangesSpace;
    }
    for (f, t) in from.iter().zip(to.iter()).skip(1) {
        if f != t {
            return CastConv::NestedWarning;
        }
    }
    CastConv::Ok
}

/// Which binary operation on two pointers is being checked (clang's select index in
/// "... which are pointers to non-overlapping address spaces").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerOp {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` (rules 48, 49).
    Comparison,
    /// `p - q` (pointer subtraction).
    Subtraction,
    /// `c ? p : q` (rule 51).
    Conditional,
}

/// Rules 48, 49, 51 and pointer subtraction: two pointers may meet in one operation only when
/// their pointee spaces overlap (one contains the other). `lptr == gptr` and
/// `c ? gptr : lptr` are errors; `genptr == gptr` is fine.
pub fn pointer_operands_compatible(a: Option<LangAs>, b: Option<LangAs>) -> bool {
    opt_overlaps(a, b)
}

/// Rule 51: the space of the pointee of `c ? p : q` when the operands' spaces overlap: the
/// larger of the two (so `c ? gptr : genptr` points to generic).
pub fn conditional_result_space(a: Option<LangAs>, b: Option<LangAs>) -> Option<LangAs> {
    if opt_subset(a, b) { b } else { a }
}

/// clang's text for [`PointerOp`] in `err_typecheck_op_on_nonoverlapping_address_space_pointers`.
pub fn nonoverlapping_message(op: PointerOp, a: &str, b: &str) -> String {
    let head = match op {
        PointerOp::Comparison => "comparison between",
        PointerOp::Subtraction => "arithmetic operation with operands of type",
        PointerOp::Conditional => "conditional operator with the second and third operands of type",
    };
    format!("{head}  ({a} and {b}) which are pointers to non-overlapping address spaces")
}

/// Rule 54: `&E` points into the space `E` lives in; an object with no recorded space (which
/// does not happen after deduction) is private.
pub fn address_of_space(object_space: Option<LangAs>) -> LangAs {
    object_space.unwrap_or(LangAs::PRIVATE)
}

/// Rule 19: an object in `__constant` is read-only; assigning to it is
/// "read-only variable is not assignable".
pub fn is_read_only_space(space: Option<LangAs>) -> bool {
    space == Some(LangAs::CONSTANT)
}

// ---------------------------------------------------------------------------------------------
// 4. Where spaces may be declared
// ---------------------------------------------------------------------------------------------

/// Rules 16, 27, 31: the message for a program-scope, `static` local or `extern` variable in a
/// space it cannot have, or `None` when the space is allowed. Allowed: `__constant`, and
/// `__global` when program-scope globals exist. `sampler_t` variables are exempt (the caller
/// checks them with the sampler rules).
pub fn global_storage_space_error(
    space: Option<LangAs>,
    ctx: GlobalStorage,
    lang: &LangOptions,
) -> Option<String> {
    let psgv = lang.program_scope_globals();
    let ok = space == Some(LangAs::CONSTANT) || (psgv && space == Some(LangAs::GLOBAL));
    if ok {
        return None;
    }
    let what = match ctx {
        GlobalStorage::ProgramScope => "program scope",
        GlobalStorage::StaticLocal => "static local",
        GlobalStorage::Extern => "extern",
    };
    let allowed = if psgv {
        "global or constant"
    } else {
        "constant"
    };
    Some(format!(
        "{what} variable must reside in {allowed} address space"
    ))
}

/// The kind of variable with static storage, for [`global_storage_space_error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalStorage {
    ProgramScope,
    StaticLocal,
    Extern,
}

/// Rule 31: `static` on a function-scope variable is an error in OpenCL C 1.2 ("variables in
/// function scope cannot be declared static"), unless clang's
/// `cl_clang_storage_class_specifiers` is enabled (`storage_ext`). Before 1.2 the parser
/// rejects `static` itself without that extension, so a static local reaching here is allowed
/// (clang checks `OpenCLVersion == 120`); from 2.0 on it is allowed. Where allowed, the
/// space rule still applies ([`global_storage_space_error`]).
pub fn static_local_allowed(lang: &LangOptions, storage_ext: bool) -> bool {
    lang.std != ClStd::Cl12 || storage_ext
}

/// Where an automatic (function-scope, non-static) variable is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionScope {
    /// Inside a `__kernel` function.
    pub in_kernel: bool,
    /// In the outermost compound statement of the function.
    pub outermost: bool,
    /// `__cl_clang_function_scope_local_variables` is enabled (clang extension).
    pub local_vars_ext: bool,
}

/// Rules 11, 25, 26, 53: the message for an automatic variable declared in `space`, or `None`
/// when allowed. `__private` is always fine. `__global` never ("function scope variable cannot
/// be declared in global address space"). `__local`/`__constant` only in a kernel's outermost
/// scope (clang's `__cl_clang_function_scope_local_variables` also allows `__local` anywhere in
/// a non-kernel function; kernels keep the outermost-scope rule).
/// Any other space is "automatic variable qualified with an invalid address space".
pub fn automatic_space_error(space: Option<LangAs>, scope: FunctionScope) -> Option<String> {
    match space {
        None | Some(LangAs::Named(AddrSpace::Private)) => None,
        Some(LangAs::Named(AddrSpace::Global)) => {
            Some("function scope variable cannot be declared in global address space".into())
        }
        Some(LangAs::Named(s @ (AddrSpace::Local | AddrSpace::Constant))) => {
            if !scope.in_kernel {
                if s == AddrSpace::Local && scope.local_vars_ext {
                    return None;
                }
                Some(format!(
                    "non-kernel function variable cannot be declared in {} address space",
                    s.word()
                ))
            } else if !scope.outermost {
                Some(format!(
                    "variables in the {} address space can only be declared in the outermost scope of a kernel function",
                    s.word()
                ))
            } else {
                None
            }
        }
        Some(_) => Some("automatic variable qualified with an invalid address space".into()),
    }
}

/// Rule 33: a `__local` variable cannot have an initializer.
pub fn local_initializer_error() -> &'static str {
    "'__local' variable cannot have an initializer"
}

/// Rule 34: a `__constant` variable (not `extern`) must be initialized.
pub fn constant_requires_initializer(space: Option<LangAs>, is_extern: bool) -> bool {
    space == Some(LangAs::CONSTANT) && !is_extern
}

/// Rules 28, 34: the initializer of a `__constant` or program-scope variable must be a
/// constant expression; an address is constant only if it is the address of an object with
/// static storage (program scope, `__constant`, or `static`), never of a `__private` or
/// `__local` automatic object.
pub fn address_is_constant(object_space: Option<LangAs>, has_static_storage: bool) -> bool {
    has_static_storage
        || matches!(
            object_space,
            Some(LangAs::Named(AddrSpace::Constant | AddrSpace::Global))
        )
}

/// Rule 9: an address-space qualifier on a (non-pointer) return type is an error ("return type
/// cannot be qualified with address space"). A pointer return type's pointee may be qualified.
pub fn return_type_space_error(space: Option<LangAs>) -> bool {
    space.is_some()
}

/// Rule 9: a parameter may not be qualified with an address space other than `__private`
/// ("parameter may not be qualified with an address space").
pub fn parameter_space_error(space: Option<LangAs>) -> bool {
    matches!(space, Some(s) if s != LangAs::PRIVATE)
}

/// Outcome of writing two address-space qualifiers on one type level (rule 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuplicateSpace {
    Ok,
    /// Same space twice: clang warns "multiple identical address spaces specified for type".
    Identical,
    /// Different spaces: "multiple address spaces specified for type".
    Conflict,
}

/// Rule 10: `private local int i;` is an error; `private private int` a warning. A qualifier
/// on the pointer and one on the pointee (`private int *local p`) are on different levels and
/// never reach this function.
pub fn duplicate_space(first: LangAs, second: LangAs) -> DuplicateSpace {
    if first == second {
        DuplicateSpace::Identical
    } else {
        DuplicateSpace::Conflict
    }
}

/// Rule 12: the address-space qualifier names are reserved.
pub fn is_reserved_space_name(name: &str) -> bool {
    matches!(
        name,
        "__global"
            | "global"
            | "__local"
            | "local"
            | "__constant"
            | "constant"
            | "__private"
            | "private"
            | "__generic"
            | "generic"
    )
}

/// Rule 71: `event_t` may only be `__private`; a sampler may not be `__local`/`__global`.
pub fn sampler_space_error(space: Option<LangAs>) -> bool {
    matches!(
        space,
        Some(LangAs::Named(AddrSpace::Local | AddrSpace::Global))
    )
}

// ---------------------------------------------------------------------------------------------
// 5. Kernel parameters
// ---------------------------------------------------------------------------------------------

/// Rule 29: a kernel pointer (or array) parameter must point into `__global`, `__constant` or
/// `__local`; private, generic and unqualified pointees are errors ("pointer arguments to kernel
/// functions must reside in '__global', '__constant' or '__local' address space"). This applies
/// to every level of a pointer-to-pointer parameter.
pub fn kernel_pointee_space_ok(space: Option<LangAs>) -> bool {
    matches!(
        space.and_then(LangAs::named),
        Some(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local)
    )
}

/// Rule 30: a kernel parameter cannot be a pointer to a pointer in OpenCL C 1.x
/// ("kernel parameter cannot be declared as a pointer to a pointer").
pub fn kernel_pointer_to_pointer_allowed(lang: &LangOptions) -> bool {
    lang.std >= ClStd::Cl20
}

/// OpenCL C 1.2 s6.9.p, lifted in 2.0 with SVM: a struct/union kernel parameter may not
/// contain pointers. From 2.0 on, a field pointing into `__global`/`__constant`/`__local` is
/// accepted; a field pointing elsewhere (generic, private) still is not.
pub fn kernel_struct_pointer_field_ok(pointee_space: Option<LangAs>, lang: &LangOptions) -> bool {
    lang.std >= ClStd::Cl20 && kernel_pointee_space_ok(pointee_space)
}

// ---------------------------------------------------------------------------------------------
// 6. Address-space qualifier functions
// ---------------------------------------------------------------------------------------------

/// The `to_global`/`to_local`/`to_private` builtins and the space each returns (rules 56–57).
pub fn to_addr_target(name: &str) -> Option<AddrSpace> {
    match name {
        "to_global" => Some(AddrSpace::Global),
        "to_local" => Some(AddrSpace::Local),
        "to_private" => Some(AddrSpace::Private),
        _ => None,
    }
}

/// Rule 55: `to_global`, `to_local`, `to_private` and `get_fence` exist only with the generic
/// address space; without it they are undeclared identifiers.
pub fn addr_space_builtins_available(lang: &LangOptions) -> bool {
    lang.generic_address_space()
}

/// Outcome of checking the argument of `to_global`/`to_local`/`to_private` (rule 59).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToAddrArg {
    /// A generic pointer: fine.
    Generic,
    /// A pointer into a named space other than `__constant`: allowed, with clang's
    /// `-Wconversion` warning about a dynamic conversion.
    NamedWarn,
    /// Not a pointer, or a `__constant` pointer: "invalid argument 'x' to function: 'to_global',
    /// expecting a generic pointer argument".
    Invalid,
}

/// Rule 59: classifies the argument of an address-space qualifier function by whether it is a
/// pointer and its pointee space.
pub fn to_addr_argument(is_pointer: bool, pointee_space: Option<LangAs>) -> ToAddrArg {
    if !is_pointer {
        return ToAddrArg::Invalid;
    }
    match pointee_space {
        Some(LangAs::Named(AddrSpace::Generic)) | None => ToAddrArg::Generic,
        Some(LangAs::Named(AddrSpace::Constant)) => ToAddrArg::Invalid,
        Some(_) => ToAddrArg::NamedWarn,
    }
}

/// Rule 59: clang's error for an invalid argument.
pub fn to_addr_invalid_message(arg_text: &str, func: &str) -> String {
    format!(
        "invalid argument {arg_text} to function: '{func}', expecting a generic pointer argument"
    )
}

/// Rule 59: clang's `-Wconversion` warning for a named-space argument.
pub fn to_addr_named_warning(func: &str) -> String {
    format!(
        "passing non-generic address space pointer to {func} may cause dynamic conversion affecting performance"
    )
}

/// Rule 60: when the argument's space is statically known to be `known`, `to_X(p)` is `p`
/// when X is `known` and NULL otherwise (used by lowering and `oclc spaces`).
pub fn fold_to_addr(target: AddrSpace, known: AddrSpace) -> bool {
    target == known
}

/// Rule 58: our reading of `get_fence` — the fence flags for the space a pointer resolves to:
/// `CLK_LOCAL_MEM_FENCE` (2) for local, `CLK_GLOBAL_MEM_FENCE` (1) otherwise.
pub fn fence_for_space(space: AddrSpace) -> u32 {
    match space {
        AddrSpace::Local => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddrSpace::*;

    fn n(a: AddrSpace) -> LangAs {
        LangAs::Named(a)
    }

    fn cl(std: ClStd) -> LangOptions {
        LangOptions::new(std)
    }

    fn cl30_without(features: &str) -> LangOptions {
        let mut l = LangOptions::new(ClStd::Cl30);
        l.apply_cl_ext(features).unwrap();
        l
    }

    #[test]
    fn rule41_nesting() {
        for s in [Private, Global, Local] {
            assert!(is_subset(n(s), n(Generic)));
            assert!(!is_subset(n(Generic), n(s)));
            assert!(overlaps(n(s), n(Generic)));
        }
        assert!(!is_subset(n(Constant), n(Generic)));
        assert!(!overlaps(n(Constant), n(Generic)));
        assert!(!overlaps(n(Global), n(Local)));
        assert!(is_subset(LangAs::GlobalDevice, n(Global)));
        assert!(is_subset(LangAs::GlobalHost, n(Generic)));
        assert!(!is_subset(n(Global), LangAs::GlobalDevice));
        assert!(overlaps(LangAs::Target(3), n(Generic)));
        assert!(!overlaps(LangAs::Target(3), n(Global)));
    }

    #[test]
    fn rules36_39_default_object_space() {
        let l12 = cl(ClStd::Cl12);
        let l20 = cl(ClStd::Cl20);
        assert_eq!(
            default_object_space(DeclContext::ProgramScope, &l12),
            Private
        );
        assert_eq!(
            default_object_space(DeclContext::ProgramScope, &l20),
            Global
        );
        assert_eq!(
            default_object_space(DeclContext::StaticOrExternLocal, &l20),
            Global
        );
        assert_eq!(default_object_space(DeclContext::Automatic, &l20), Private);
        assert_eq!(default_object_space(DeclContext::Parameter, &l20), Private);
        let no_psgv = cl30_without("-__opencl_c_program_scope_global_variables");
        assert_eq!(
            default_object_space(DeclContext::ProgramScope, &no_psgv),
            Private
        );
    }

    #[test]
    fn rule37_default_pointee_space() {
        assert_eq!(default_pointee_space(&cl(ClStd::Cl12)), Private);
        assert_eq!(default_pointee_space(&cl(ClStd::Cl20)), Generic);
        assert_eq!(default_pointee_space(&cl(ClStd::Cl30)), Generic);
        assert_eq!(default_pointee_space(&cl30_without("-all")), Private);
    }

    #[test]
    fn rule38_string_literals() {
        assert_eq!(string_literal_space(), Constant);
    }

    #[test]
    fn rules12_22_generic_qualifier() {
        assert!(!generic_qualifier_allowed(&cl(ClStd::Cl12)));
        assert!(generic_qualifier_allowed(&cl(ClStd::Cl20)));
        assert!(!generic_qualifier_allowed(&cl30_without("-all")));
        assert!(is_reserved_space_name("global"));
        assert!(is_reserved_space_name("__generic"));
        assert!(!is_reserved_space_name("globl"));
    }

    #[test]
    fn rules42_44_46_implicit_conversion() {
        let g = [Some(n(Global))];
        let gn = [Some(n(Generic))];
        let c = [Some(n(Constant))];
        let p = [Some(n(Private))];
        assert_eq!(implicit_pointer_conversion(&g, &gn), ImplicitConv::Ok);
        assert_eq!(implicit_pointer_conversion(&p, &gn), ImplicitConv::Ok);
        assert_eq!(
            implicit_pointer_conversion(&gn, &g),
            ImplicitConv::ChangesSpace
        );
        assert_eq!(
            implicit_pointer_conversion(&c, &gn),
            ImplicitConv::ChangesSpace
        );
        assert_eq!(
            implicit_pointer_conversion(&g, &p),
            ImplicitConv::ChangesSpace
        );
        assert_eq!(implicit_pointer_conversion(&c, &c), ImplicitConv::Ok);
    }

    #[test]
    fn rule47_nested_pointers() {
        let ll = [Some(n(Private)), Some(n(Local))];
        let gg = [Some(n(Private)), Some(n(Global))];
        assert_eq!(
            implicit_pointer_conversion(&ll, &gg),
            ImplicitConv::ChangesNestedSpace
        );
        let lgen = [Some(n(Generic)), Some(n(Local))];
        let gengen = [Some(n(Generic)), Some(n(Generic))];
        assert_eq!(
            implicit_pointer_conversion(&lgen, &gengen),
            ImplicitConv::ChangesNestedSpace
        );
        assert_eq!(explicit_pointer_cast(&ll, &gg), CastConv::NestedWarning);
        assert_eq!(explicit_pointer_cast(&gg, &gg), CastConv::Ok);
    }

    #[test]
    fn rules43_45_explicit_cast() {
        let g = [Some(n(Global))];
        let l = [Some(n(Local))];
        let gn = [Some(n(Generic))];
        let c = [Some(n(Constant))];
        assert_eq!(explicit_pointer_cast(&l, &g), CastConv::ChangesSpace);
        assert_eq!(explicit_pointer_cast(&gn, &g), CastConv::Ok);
        assert_eq!(explicit_pointer_cast(&g, &gn), CastConv::Ok);
        assert_eq!(explicit_pointer_cast(&c, &gn), CastConv::ChangesSpace);
        assert_eq!(explicit_pointer_cast(&gn, &c), CastConv::ChangesSpace);
    }

    #[test]
    fn rules48_49_51_operands() {
        assert!(pointer_operands_compatible(
            Some(n(Generic)),
            Some(n(Global))
        ));
        assert!(!pointer_operands_compatible(
            Some(n(Local)),
            Some(n(Global))
        ));
        assert!(!pointer_operands_compatible(
            Some(n(Constant)),
            Some(n(Generic))
        ));
        assert_eq!(
            conditional_result_space(Some(n(Global)), Some(n(Generic))),
            Some(n(Generic))
        );
        assert_eq!(
            conditional_result_space(Some(n(Generic)), Some(n(Local))),
            Some(n(Generic))
        );
        assert_eq!(
            nonoverlapping_message(
                PointerOp::Comparison,
                "'__global int *'",
                "'__local void *'"
            ),
            "comparison between  ('__global int *' and '__local void *') which are pointers to non-overlapping address spaces"
        );
    }

    #[test]
    fn rule54_address_of() {
        assert_eq!(address_of_space(Some(n(Local))), n(Local));
        assert_eq!(address_of_space(None), n(Private));
    }

    #[test]
    fn rule19_constant_is_read_only() {
        assert!(is_read_only_space(Some(n(Constant))));
        assert!(!is_read_only_space(Some(n(Global))));
    }

    #[test]
    fn rules16_27_program_scope() {
        let l12 = cl(ClStd::Cl12);
        let l20 = cl(ClStd::Cl20);
        assert_eq!(
            global_storage_space_error(Some(n(Constant)), GlobalStorage::ProgramScope, &l12),
            None
        );
        assert_eq!(
            global_storage_space_error(Some(n(Global)), GlobalStorage::ProgramScope, &l12)
                .as_deref(),
            Some("program scope variable must reside in constant address space")
        );
        assert_eq!(
            global_storage_space_error(Some(n(Global)), GlobalStorage::Extern, &l20),
            None
        );
        assert_eq!(
            global_storage_space_error(Some(n(Local)), GlobalStorage::StaticLocal, &l20).as_deref(),
            Some("static local variable must reside in global or constant address space")
        );
        assert_eq!(
            global_storage_space_error(Some(n(Private)), GlobalStorage::Extern, &l20).as_deref(),
            Some("extern variable must reside in global or constant address space")
        );
    }

    #[test]
    fn rule31_static_locals() {
        assert!(!static_local_allowed(&cl(ClStd::Cl12), false));
        assert!(static_local_allowed(&cl(ClStd::Cl12), true));
        assert!(static_local_allowed(&cl(ClStd::Cl11), true));
        assert!(static_local_allowed(&cl(ClStd::Cl20), false));
    }

    #[test]
    fn rule26_local_constant_outermost_kernel_scope() {
        let kernel_top = FunctionScope {
            in_kernel: true,
            outermost: true,
            local_vars_ext: false,
        };
        let kernel_nested = FunctionScope {
            outermost: false,
            ..kernel_top
        };
        let func = FunctionScope {
            in_kernel: false,
            ..kernel_top
        };
        assert_eq!(automatic_space_error(Some(n(Local)), kernel_top), None);
        assert_eq!(automatic_space_error(Some(n(Constant)), kernel_top), None);
        assert_eq!(
            automatic_space_error(Some(n(Local)), kernel_nested).as_deref(),
            Some(
                "variables in the local address space can only be declared in the outermost scope of a kernel function"
            )
        );
        assert_eq!(
            automatic_space_error(Some(n(Constant)), func).as_deref(),
            Some("non-kernel function variable cannot be declared in constant address space")
        );
        assert_eq!(
            automatic_space_error(Some(n(Global)), kernel_top).as_deref(),
            Some("function scope variable cannot be declared in global address space")
        );
        assert_eq!(
            automatic_space_error(Some(n(Generic)), kernel_top).as_deref(),
            Some("automatic variable qualified with an invalid address space")
        );
        let ext = FunctionScope {
            local_vars_ext: true,
            ..func
        };
        assert_eq!(automatic_space_error(Some(n(Local)), ext), None);
        let ext_nested = FunctionScope {
            local_vars_ext: true,
            ..kernel_nested
        };
        assert!(automatic_space_error(Some(n(Local)), ext_nested).is_some());
        assert_eq!(automatic_space_error(Some(n(Private)), func), None);
    }

    #[test]
    fn rules33_34_initializers() {
        assert!(constant_requires_initializer(Some(n(Constant)), false));
        assert!(!constant_requires_initializer(Some(n(Constant)), true));
        assert!(!constant_requires_initializer(Some(n(Global)), false));
        assert!(address_is_constant(Some(n(Global)), false));
        assert!(address_is_constant(Some(n(Constant)), false));
        assert!(!address_is_constant(Some(n(Private)), false));
        assert!(!address_is_constant(Some(n(Local)), false));
        assert_eq!(
            local_initializer_error(),
            "'__local' variable cannot have an initializer"
        );
    }

    #[test]
    fn rules9_10_qualifier_placement() {
        assert!(return_type_space_error(Some(n(Global))));
        assert!(!return_type_space_error(None));
        assert!(parameter_space_error(Some(n(Global))));
        assert!(!parameter_space_error(Some(n(Private))));
        assert_eq!(
            duplicate_space(n(Private), n(Local)),
            DuplicateSpace::Conflict
        );
        assert_eq!(
            duplicate_space(n(Private), n(Private)),
            DuplicateSpace::Identical
        );
    }

    #[test]
    fn rule71_sampler_spaces() {
        assert!(sampler_space_error(Some(n(Global))));
        assert!(sampler_space_error(Some(n(Local))));
        assert!(!sampler_space_error(Some(n(Constant))));
    }

    #[test]
    fn rules29_30_kernel_parameters() {
        assert!(kernel_pointee_space_ok(Some(n(Global))));
        assert!(kernel_pointee_space_ok(Some(n(Constant))));
        assert!(kernel_pointee_space_ok(Some(n(Local))));
        assert!(!kernel_pointee_space_ok(Some(n(Private))));
        assert!(!kernel_pointee_space_ok(Some(n(Generic))));
        assert!(!kernel_pointee_space_ok(None));
        assert!(!kernel_pointer_to_pointer_allowed(&cl(ClStd::Cl12)));
        assert!(kernel_pointer_to_pointer_allowed(&cl(ClStd::Cl20)));
        assert!(kernel_struct_pointer_field_ok(
            Some(n(Global)),
            &cl(ClStd::Cl20)
        ));
        assert!(!kernel_struct_pointer_field_ok(
            Some(n(Global)),
            &cl(ClStd::Cl12)
        ));
        assert!(!kernel_struct_pointer_field_ok(
            Some(n(Generic)),
            &cl(ClStd::Cl20)
        ));
    }

    #[test]
    fn rules55_59_to_addr_builtins() {
        assert!(!addr_space_builtins_available(&cl(ClStd::Cl12)));
        assert!(addr_space_builtins_available(&cl(ClStd::Cl20)));
        assert!(!addr_space_builtins_available(&cl30_without("-all")));
        assert_eq!(to_addr_target("to_local"), Some(Local));
        assert_eq!(to_addr_target("get_fence"), None);
        assert_eq!(to_addr_argument(false, None), ToAddrArg::Invalid);
        assert_eq!(
            to_addr_argument(true, Some(n(Constant))),
            ToAddrArg::Invalid
        );
        assert_eq!(
            to_addr_argument(true, Some(n(Global))),
            ToAddrArg::NamedWarn
        );
        assert_eq!(to_addr_argument(true, Some(n(Generic))), ToAddrArg::Generic);
        assert_eq!(
            to_addr_invalid_message("'x'", "to_global"),
            "invalid argument 'x' to function: 'to_global', expecting a generic pointer argument"
        );
        assert_eq!(
            to_addr_named_warning("to_local"),
            "passing non-generic address space pointer to to_local may cause dynamic conversion affecting performance"
        );
    }

    #[test]
    fn rules58_60_folding_and_fences() {
        assert!(fold_to_addr(Global, Global));
        assert!(!fold_to_addr(Local, Global));
        assert_eq!(fence_for_space(Local), 2);
        assert_eq!(fence_for_space(Global), 1);
    }

    #[test]
    fn implicit_notes_name_the_mode() {
        let s = implicit_space_note(Private, &cl(ClStd::Cl12), true);
        assert!(s.contains("OpenCL C 1.2"), "{s}");
        assert!(implicit_space_note(Generic, &cl(ClStd::Cl20), true).contains("generic"));
    }
}
