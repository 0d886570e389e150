//! Implicit conversion sequences and their ranking, as clang's `SemaOverload.cpp` computes
//! them for C `overloadable` functions (every OpenCL builtin is one).
//!
//! A sequence has a second step (promotion, conversion, ...) and an optional qualification
//! step (adding `const`/`volatile` to the pointee, or named → generic address space, which
//! clang treats as a qualification conversion). C additionally accepts, at the worst ranks,
//! conversions only C allows (`void *` → `T *`) and incompatible pointer conversions, which
//! stay viable and are diagnosed after the candidate is chosen.

use super::ty::{BTy, Pointee, Ptr, Scalar, same_canon, same_pointee};
use crate::space::AddrSpace;
use std::cmp::Ordering;

/// One call argument as overload resolution sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The argument's type after array/function decay, top-level qualifiers removed.
    pub ty: BTy,
    /// The expression is a null pointer constant (`0`, `NULL`, `(void*)0`).
    pub null_ptr: bool,
    /// The expression is an integer constant expression with this value (`0` converts to
    /// `event_t`/`queue_t`, any integer constant to `sampler_t`).
    pub int_const: Option<i128>,
}

/// What of an argument's expression (beyond its type) clang's fix suggestions in candidate
/// notes depend on. Only affects [`super::Builtins::resolve_with_forms`]' notes and their order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ArgForm {
    /// The expression is an ordinary lvalue (its address can be taken; not a vector
    /// component or bit-field): where the object lives and its qualifiers.
    pub lvalue: Option<Lvalue>,
    /// The outermost operator of the expression.
    pub shape: ArgShape,
}

/// An addressable argument: where the object lives and its qualifiers (so `&arg` has type
/// `cv space T *`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lvalue {
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

/// The outermost operator of an argument expression (after parentheses and implicit casts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ArgShape {
    #[default]
    Other,
    /// `&e`: a suggested dereference becomes "remove &".
    AddressOf,
    /// `*e`: a suggested address-of becomes "remove *".
    Deref,
}

/// A fix clang suggests in a "no known conversion" note
/// (`ConversionFixItGenerator::tryToFixConversion`), computed by [`conversion_fix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fix {
    /// "; dereference the argument with *"
    Dereference,
    /// "; take the address of the argument with &"
    TakeAddress,
    /// "; remove *"
    RemoveDereference,
    /// "; remove &"
    RemoveTakeAddress,
}

impl Fix {
    /// The note suffix.
    pub fn text(self) -> &'static str {
        match self {
            Fix::Dereference => "; dereference the argument with *",
            Fix::TakeAddress => "; take the address of the argument with &",
            Fix::RemoveDereference => "; remove *",
            Fix::RemoveTakeAddress => "; remove &",
        }
    }
}

fn pointee_ty(p: Pointee) -> BTy {
    match p {
        Pointee::Void => BTy::Void,
        Pointee::Scalar(s) => BTy::Scalar(s),
        Pointee::Vector(s, n) => BTy::Vector(s, n),
        Pointee::Atomic(a) => BTy::Atomic(a),
        Pointee::Event => BTy::Event,
        Pointee::ClkEvent => BTy::ClkEvent,
        Pointee::Function(id) | Pointee::Other(id) => BTy::Other(id),
    }
}

fn as_pointee(t: BTy) -> Pointee {
    match t {
        BTy::Void => Pointee::Void,
        BTy::Scalar(s) => Pointee::Scalar(s),
        BTy::Vector(s, n) => Pointee::Vector(s, n),
        BTy::Atomic(a) => Pointee::Atomic(a),
        BTy::Event => Pointee::Event,
        BTy::ClkEvent => Pointee::ClkEvent,
        // Pointers, images and the rest: a type no builtin parameter points to.
        _ => Pointee::Other(u32::MAX),
    }
}

/// The fix clang offers when `arg` does not convert to `to`: dereferencing a pointer
/// argument, or taking the address of an lvalue, if the result would convert.
pub fn conversion_fix(arg: &Arg, form: ArgForm, to: BTy) -> Option<Fix> {
    if let BTy::Ptr(p) = arg.ty
        && convert(&Arg::of(pointee_ty(p.pointee)), to).is_ok()
    {
        if arg.null_ptr {
            return None;
        }
        return Some(if form.shape == ArgShape::AddressOf {
            Fix::RemoveTakeAddress
        } else {
            Fix::Dereference
        });
    }
    let BTy::Ptr(t) = to else { return None };
    let lv = form.lvalue?;
    if matches!(arg.ty, BTy::Ptr(_)) && t.pointee == Pointee::Void {
        return None;
    }
    let addr = BTy::Ptr(Ptr {
        pointee: as_pointee(arg.ty),
        space: lv.space,
        is_const: lv.is_const,
        is_volatile: lv.is_volatile,
    });
    convert(&Arg::of(addr), to).ok()?;
    Some(if form.shape == ArgShape::Deref {
        Fix::RemoveDereference
    } else {
        Fix::TakeAddress
    })
}

impl Arg {
    /// An argument that is not a constant expression.
    pub fn of(ty: BTy) -> Arg {
        Arg {
            ty,
            null_ptr: false,
            int_const: None,
        }
    }

    /// An integer constant expression of type `ty` (a literal, an enumerator, ...).
    pub fn int_const(ty: BTy, value: i128) -> Arg {
        Arg {
            ty,
            null_ptr: value == 0,
            int_const: Some(value),
        }
    }
}

/// The second step of a standard conversion sequence (clang's `ImplicitConversionKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    Identity,
    IntegralPromotion,
    FloatingPromotion,
    BooleanConversion,
    IntegralConversion,
    FloatingConversion,
    FloatingIntegral,
    PointerConversion,
    /// Scalar → vector (every element gets the value).
    VectorSplat,
    /// C compatible types, and integer constant → `sampler_t`.
    CompatibleConversion,
    /// Integer constant 0 → `event_t`.
    ZeroEvent,
    /// Integer constant 0 → `queue_t`.
    ZeroQueue,
    /// A conversion C allows by assignment but C++ would not (`void *` → `int *`).
    COnly,
    /// Incompatible pointer types, or a pointer conversion that drops `const`/`volatile`:
    /// viable, but sema must diagnose it after choosing this candidate.
    IncompatiblePointer,
}

/// Conversion ranks, best first (clang's `ImplicitConversionRank`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Exact,
    Promotion,
    Conversion,
    /// Scalar → vector splat: clang's `ICR_OCL_Scalar_Widening`, worse than any conversion,
    /// so `fmin(float4, int)` picks `fmin(float4, float)`.
    ScalarWidening,
    COnly,
    Incompatible,
}

impl ConvKind {
    pub fn rank(self) -> Rank {
        match self {
            ConvKind::Identity | ConvKind::ZeroEvent | ConvKind::ZeroQueue => Rank::Exact,
            ConvKind::IntegralPromotion | ConvKind::FloatingPromotion => Rank::Promotion,
            ConvKind::VectorSplat => Rank::ScalarWidening,
            ConvKind::COnly => Rank::COnly,
            ConvKind::IncompatiblePointer => Rank::Incompatible,
            _ => Rank::Conversion,
        }
    }
}

/// A standard conversion sequence from an argument to a parameter type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv {
    pub kind: ConvKind,
    /// A qualification step follows (adds pointee qualifiers or goes to a larger space).
    pub qualification: bool,
    /// The type after the second step (clang's `ToType(1)`).
    pub mid: BTy,
    /// The parameter type (`ToType(2)`).
    pub to: BTy,
}

impl Conv {
    pub fn rank(&self) -> Rank {
        self.kind.rank()
    }

    /// No conversion at all: the argument has the parameter's type.
    pub fn is_identity(&self) -> bool {
        self.kind == ConvKind::Identity && !self.qualification
    }

    fn is_ptr_conv_to_void(&self, from: &Arg) -> bool {
        self.kind == ConvKind::PointerConversion
            && matches!(from.ty, BTy::Ptr(_))
            && matches!(
                self.mid,
                BTy::Ptr(Ptr {
                    pointee: Pointee::Void,
                    ..
                })
            )
    }
}

/// Why an argument cannot be passed (for clang's candidate notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadConv {
    /// "no known conversion from 'X' to 'Y' for Nth argument".
    NoConversion,
    /// "cannot pass pointer to address space 'A' as a pointer to address space 'B' in Nth
    /// argument".
    AddrSpace { from: AddrSpace, to: AddrSpace },
}

fn is_integral(t: BTy) -> bool {
    match t {
        BTy::Scalar(s) => s.is_integer(),
        BTy::Enum(..) | BTy::MemoryOrder | BTy::MemoryScope => true,
        _ => false,
    }
}

fn is_floating(t: BTy) -> bool {
    matches!(t, BTy::Scalar(s) if s.is_float())
}

/// The type an enum promotes to (clang: `unsigned int` for C enums without negative values).
fn enum_promotion(t: BTy) -> Option<Scalar> {
    match t {
        BTy::Enum(_, p) => Some(p),
        BTy::MemoryOrder | BTy::MemoryScope => Some(Scalar::UInt),
        _ => None,
    }
}

fn integral_promotion(from: BTy, to: BTy) -> bool {
    let BTy::Scalar(t) = to else { return false };
    match from {
        BTy::Scalar(f) => f.promotes_to_int() && t.canon() == Scalar::Int,
        _ => enum_promotion(from).is_some_and(|p| p.canon() == t.canon()),
    }
}

/// Address space `to` contains `from` (OpenCL 2.0: generic ⊇ global, local, private).
pub fn space_includes(to: AddrSpace, from: AddrSpace) -> bool {
    to == from
        || (to == AddrSpace::Generic
            && matches!(
                from,
                AddrSpace::Global | AddrSpace::Local | AddrSpace::Private
            ))
}

fn quals_include(to: &Ptr, from: &Ptr) -> bool {
    (to.is_const || !from.is_const)
        && (to.is_volatile || !from.is_volatile)
        && space_includes(to.space, from.space)
}

fn is_object(p: Pointee) -> bool {
    !matches!(p, Pointee::Function(_))
}

/// C's `CheckSingleAssignmentConstraints` for pointer → pointer, reduced to what overload
/// resolution needs: `None` when not viable.
fn c_pointer_assignment(to: &Ptr, from: &Ptr) -> Option<ConvKind> {
    if !space_includes(to.space, from.space) {
        return None;
    }
    let drops_cvr = (from.is_const && !to.is_const) || (from.is_volatile && !to.is_volatile);
    let compatible = if matches!(to.pointee, Pointee::Void) || matches!(from.pointee, Pointee::Void)
    {
        is_object(to.pointee) && is_object(from.pointee)
    } else {
        same_pointee(to.pointee, from.pointee)
    };
    Some(if compatible && !drops_cvr {
        ConvKind::COnly
    } else {
        ConvKind::IncompatiblePointer
    })
}

/// Computes the implicit conversion of `arg` to `to`, or why there is none.
pub fn convert(arg: &Arg, to: BTy) -> Result<Conv, BadConv> {
    let from = arg.ty;
    let mut mid = from;
    let kind = if same_canon(from, to) {
        ConvKind::Identity
    } else if integral_promotion(from, to) {
        mid = to;
        ConvKind::IntegralPromotion
    } else if matches!((from, to), (BTy::Scalar(f), BTy::Scalar(t))
        if f == Scalar::Float && t == Scalar::Double)
    {
        mid = to;
        ConvKind::FloatingPromotion
    } else if matches!(to, BTy::Scalar(Scalar::Bool))
        && (from.is_arithmetic() || matches!(from, BTy::Ptr(_)))
    {
        mid = to;
        ConvKind::BooleanConversion
    } else if is_integral(from) && is_integral(to) {
        mid = to;
        ConvKind::IntegralConversion
    } else if is_floating(from) && is_floating(to) {
        mid = to;
        ConvKind::FloatingConversion
    } else if (is_floating(from) && is_integral(to)) || (is_integral(from) && is_floating(to)) {
        mid = to;
        ConvKind::FloatingIntegral
    } else if let Some(m) = pointer_conversion(arg, to) {
        mid = m;
        ConvKind::PointerConversion
    } else if matches!(to, BTy::Vector(..)) && from.is_arithmetic() {
        mid = to;
        ConvKind::VectorSplat
    } else if to == BTy::Event && arg.int_const == Some(0) {
        mid = to;
        ConvKind::ZeroEvent
    } else if to == BTy::Queue && arg.int_const == Some(0) {
        mid = to;
        ConvKind::ZeroQueue
    } else if to == BTy::Sampler && arg.int_const.is_some() {
        mid = to;
        ConvKind::CompatibleConversion
    } else {
        ConvKind::Identity
    };
    // Third step: qualification conversion on pointers.
    let mut cur = mid;
    let mut qualification = false;
    if let (BTy::Ptr(c), BTy::Ptr(t)) = (cur, to)
        && !same_canon(cur, to)
        && same_pointee(c.pointee, t.pointee)
        && quals_include(&t, &c)
    {
        qualification = true;
        cur = to;
    }
    if same_canon(cur, to) {
        return Ok(Conv {
            kind,
            qualification,
            mid,
            to,
        });
    }
    // C fallback: what assignment would accept.
    if let (BTy::Ptr(f), BTy::Ptr(t)) = (from, to) {
        if let Some(k) = c_pointer_assignment(&t, &f) {
            return Ok(Conv {
                kind: k,
                qualification: false,
                mid: to,
                to,
            });
        }
        // clang's note: the pointees agree once qualifiers are removed, and the parameter's
        // are not a superset: a qualifier problem, reported as the address space when that
        // is what differs.
        if same_pointee(f.pointee, t.pointee) && f.space != t.space {
            return Err(BadConv::AddrSpace {
                from: f.space,
                to: t.space,
            });
        }
    }
    Err(BadConv::NoConversion)
}

/// clang's `IsPointerConversion`: null pointer constant → pointer, object pointer → `void *`.
/// Returns the intermediate type (the target pointee with the source pointee's qualifiers).
fn pointer_conversion(arg: &Arg, to: BTy) -> Option<BTy> {
    let BTy::Ptr(t) = to else { return None };
    if arg.null_ptr && !matches!(arg.ty, BTy::Ptr(_)) {
        return Some(to);
    }
    let BTy::Ptr(f) = arg.ty else { return None };
    if arg.null_ptr {
        return Some(to);
    }
    if same_pointee(f.pointee, t.pointee) {
        return None;
    }
    if is_object(f.pointee) && matches!(t.pointee, Pointee::Void) {
        return Some(BTy::Ptr(Ptr {
            pointee: Pointee::Void,
            ..f
        }));
    }
    None
}

/// Result of comparing two conversion sequences (or candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Better,
    Same,
    Worse,
}

fn similar(a: BTy, b: BTy) -> bool {
    match (a, b) {
        (BTy::Ptr(p), BTy::Ptr(q)) => same_pointee(p.pointee, q.pointee),
        _ => same_canon(a, b),
    }
}

/// clang's `compareStandardConversionSubsets`.
fn subsets(s1: &Conv, s2: &Conv) -> Cmp {
    if s1.is_identity() && !s2.is_identity() {
        return Cmp::Better;
    }
    if !s1.is_identity() && s2.is_identity() {
        return Cmp::Worse;
    }
    let mut result = Cmp::Same;
    if s1.kind != s2.kind {
        if s1.kind == ConvKind::Identity {
            result = Cmp::Better;
        } else if s2.kind == ConvKind::Identity {
            result = Cmp::Worse;
        } else {
            return Cmp::Same;
        }
    } else if !similar(s1.mid, s2.mid) {
        return Cmp::Same;
    }
    if s1.qualification == s2.qualification {
        return if same_canon(s1.to, s2.to) {
            result
        } else {
            Cmp::Same
        };
    }
    if !s1.qualification {
        return if result == Cmp::Worse {
            Cmp::Same
        } else {
            Cmp::Better
        };
    }
    if result == Cmp::Better {
        Cmp::Same
    } else {
        Cmp::Worse
    }
}

/// `q` has strictly more qualifiers (const, volatile, address space) than `p`.
fn more_qualified(q: &Ptr, p: &Ptr) -> bool {
    quals_include(q, p)
        && (q.is_const, q.is_volatile, q.space) != (p.is_const, p.is_volatile, p.space)
}

/// clang's `CompareQualificationConversions`.
fn qualification_cmp(s1: &Conv, s2: &Conv) -> Cmp {
    if s1.kind != s2.kind || !s1.qualification || !s2.qualification {
        return Cmp::Same;
    }
    let (BTy::Ptr(t1), BTy::Ptr(t2)) = (s1.to, s2.to) else {
        return Cmp::Same;
    };
    if t1 == t2 || !same_pointee(t1.pointee, t2.pointee) {
        return Cmp::Same;
    }
    if more_qualified(&t2, &t1) {
        Cmp::Better
    } else if more_qualified(&t1, &t2) {
        Cmp::Worse
    } else {
        Cmp::Same
    }
}

/// clang's `CompareStandardConversionSequences`, for the conversions builtins can need.
pub fn compare(arg: &Arg, s1: &Conv, s2: &Conv) -> Cmp {
    let c = subsets(s1, s2);
    if c != Cmp::Same {
        return c;
    }
    match s1.rank().cmp(&s2.rank()) {
        Ordering::Less => return Cmp::Better,
        Ordering::Greater => return Cmp::Worse,
        Ordering::Equal => {}
    }
    let v1 = s1.is_ptr_conv_to_void(arg);
    let v2 = s2.is_ptr_conv_to_void(arg);
    if v1 != v2 {
        return if v2 { Cmp::Better } else { Cmp::Worse };
    }
    qualification_cmp(s1, s2)
}

/// clang's `isBetterOverloadCandidate` for two viable candidates of one builtin: better if no
/// argument converts worse and at least one converts better.
pub fn better_candidate(args: &[Arg], c1: &[Conv], c2: &[Conv]) -> bool {
    // In C, a candidate that needs no incompatible pointer conversion for an argument is
    // better than one that does, before conversions are compared (clang's
    // `IsIllFormedConversion` pre-pass).
    let mut better = false;
    for (s1, s2) in c1.iter().zip(c2) {
        let bad1 = s1.kind == ConvKind::IncompatiblePointer;
        let bad2 = s2.kind == ConvKind::IncompatiblePointer;
        if bad1 != bad2 {
            if bad1 {
                return false;
            }
            better = true;
        }
    }
    if better {
        return true;
    }
    for ((a, s1), s2) in args.iter().zip(c1).zip(c2) {
        match compare(a, s1, s2) {
            Cmp::Better => better = true,
            Cmp::Worse => return false,
            Cmp::Same => {}
        }
    }
    better
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptr(pointee: Pointee, space: AddrSpace) -> BTy {
        BTy::Ptr(Ptr {
            pointee,
            space,
            is_const: false,
            is_volatile: false,
        })
    }

    #[test]
    fn ranks() {
        let int = Arg::of(BTy::Scalar(Scalar::Int));
        let char_ = Arg::of(BTy::Scalar(Scalar::Char));
        let float = BTy::Scalar(Scalar::Float);
        assert_eq!(
            convert(&int, BTy::Scalar(Scalar::Int)).map(|c| c.rank()),
            Ok(Rank::Exact)
        );
        assert_eq!(
            convert(&char_, BTy::Scalar(Scalar::Int)).map(|c| c.kind),
            Ok(ConvKind::IntegralPromotion)
        );
        assert_eq!(
            convert(&int, float).map(|c| c.kind),
            Ok(ConvKind::FloatingIntegral)
        );
        assert_eq!(
            convert(&int, BTy::Vector(Scalar::Float, 4)).map(|c| c.kind),
            Ok(ConvKind::VectorSplat)
        );
        assert_eq!(
            convert(
                &Arg::of(BTy::Vector(Scalar::Int, 4)),
                BTy::Vector(Scalar::Float, 4)
            ),
            Err(BadConv::NoConversion)
        );
        let size = BTy::Scalar(Scalar::Size);
        assert_eq!(
            convert(&Arg::of(BTy::Scalar(Scalar::ULong)), size).map(|c| c.rank()),
            Ok(Rank::Exact)
        );
    }

    #[test]
    fn pointers() {
        let f = Pointee::Scalar(Scalar::Float);
        let g = Arg::of(ptr(f, AddrSpace::Global));
        let to_generic = convert(&g, ptr(f, AddrSpace::Generic));
        assert_eq!(
            to_generic.map(|c| (c.kind, c.qualification)),
            Ok((ConvKind::Identity, true))
        );
        assert_eq!(to_generic.map(|c| c.rank()), Ok(Rank::Exact));
        assert_eq!(
            convert(&g, ptr(f, AddrSpace::Local)),
            Err(BadConv::AddrSpace {
                from: AddrSpace::Global,
                to: AddrSpace::Local
            })
        );
        let c = Arg::of(ptr(f, AddrSpace::Constant));
        assert_eq!(
            convert(&c, ptr(f, AddrSpace::Generic)),
            Err(BadConv::AddrSpace {
                from: AddrSpace::Constant,
                to: AddrSpace::Generic
            })
        );
        let i = Arg::of(ptr(Pointee::Scalar(Scalar::Int), AddrSpace::Global));
        assert_eq!(
            convert(&i, ptr(f, AddrSpace::Global)).map(|c| c.kind),
            Ok(ConvKind::IncompatiblePointer)
        );
        assert_eq!(
            convert(&i, ptr(f, AddrSpace::Local)),
            Err(BadConv::NoConversion)
        );
        let v = convert(&i, ptr(Pointee::Void, AddrSpace::Generic));
        assert_eq!(
            v.map(|c| (c.kind, c.qualification)),
            Ok((ConvKind::PointerConversion, true))
        );
    }

    #[test]
    fn named_beats_generic_and_nonconst_beats_const() {
        let f = Pointee::Scalar(Scalar::Float);
        let g = Arg::of(ptr(f, AddrSpace::Global));
        let named = convert(&g, ptr(f, AddrSpace::Global)).unwrap_or_else(|e| panic!("{e:?}"));
        let gen_ = convert(&g, ptr(f, AddrSpace::Generic)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(compare(&g, &named, &gen_), Cmp::Better);
        let void = |is_const| {
            BTy::Ptr(Ptr {
                pointee: Pointee::Void,
                space: AddrSpace::Generic,
                is_const,
                is_volatile: false,
            })
        };
        let nc = convert(&g, void(false)).unwrap_or_else(|e| panic!("{e:?}"));
        let cc = convert(&g, void(true)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(compare(&g, &nc, &cc), Cmp::Better);
        assert_eq!(compare(&g, &cc, &nc), Cmp::Worse);
    }
}
