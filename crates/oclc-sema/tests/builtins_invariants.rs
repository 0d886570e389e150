//! Resolution invariants over pseudo-random calls of every builtin: no panics, memoized
//! results equal fresh ones, and every outcome is self-consistent.

use oclc_sema::AddrSpace;
use oclc_sema::builtins::{
    Access, Arg, Atomic, BTy, Builtins, ImageKind, NoMatch, NotViable, Pointee, Ptr, Scalar,
};
use oclc_syntax::{ClStd, LangOptions};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

const SCALARS: [Scalar; 13] = [
    Scalar::Bool,
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::Half,
    Scalar::Float,
    Scalar::Double,
    Scalar::Size,
];
const SPACES: [AddrSpace; 5] = [
    AddrSpace::Private,
    AddrSpace::Global,
    AddrSpace::Local,
    AddrSpace::Constant,
    AddrSpace::Generic,
];

fn random_ty(r: &mut Rng) -> BTy {
    let elem = |r: &mut Rng| r.pick(&Scalar::VECTOR_ELEMS);
    match r.next() % 10 {
        0..=2 => BTy::Scalar(r.pick(&SCALARS)),
        3..=4 => BTy::Vector(elem(r), r.pick(&[2, 3, 4, 8, 16])),
        5..=7 => {
            let pointee = match r.next() % 5 {
                0 => Pointee::Void,
                1 => Pointee::Vector(elem(r), r.pick(&[2, 4])),
                2 => Pointee::Atomic(Atomic {
                    value: r.pick(&[Scalar::Int, Scalar::UInt, Scalar::Float, Scalar::Long]),
                    flag: false,
                }),
                3 => Pointee::Other(7),
                _ => Pointee::Scalar(elem(r)),
            };
            BTy::Ptr(Ptr {
                pointee,
                space: r.pick(&SPACES),
                is_const: r.next().is_multiple_of(3),
                is_volatile: r.next().is_multiple_of(4),
            })
        }
        8 => r.pick(&[
            BTy::Sampler,
            BTy::Event,
            BTy::MemoryOrder,
            BTy::MemoryScope,
            BTy::Image(ImageKind::Image2d, Access::ReadOnly),
            BTy::Image(ImageKind::Image3d, Access::WriteOnly),
        ]),
        _ => r.pick(&[BTy::Other(3), BTy::Enum(9, Scalar::UInt), BTy::Void]),
    }
}

#[test]
fn resolution_is_consistent() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for std in [ClStd::Cl12, ClStd::Cl20, ClStd::Cl30] {
        let b = Builtins::new(&LangOptions::new(std));
        let names: Vec<_> = b.names().collect();
        assert!(names.len() > 900);
        for _ in 0..4000 {
            let id = r.pick(&names);
            let n = (r.next() % 5) as usize;
            let args: Vec<Arg> = (0..n)
                .map(|_| {
                    let ty = random_ty(&mut r);
                    if matches!(ty, BTy::Scalar(s) if s.is_integer()) && r.next().is_multiple_of(3)
                    {
                        Arg::int_const(ty, (r.next() % 3) as i128)
                    } else {
                        Arg::of(ty)
                    }
                })
                .collect();
            let first = b.resolve(id, &args);
            let again = b.resolve(id, &args);
            assert_eq!(first, again, "{} {args:?}", b.name(id));
            match first {
                Ok(res) => {
                    let params = res.sig.params().len();
                    assert!(params == n || (res.sig.variadic && n >= params) || !res.overloaded);
                    if res.overloaded {
                        assert!(res.convs.iter().take(params).all(Option::is_some));
                        assert!(b.overloads(id).any(|o| o == res.overload));
                    }
                    assert_eq!(b.signature(res.overload), res.sig);
                }
                Err(NoMatch::Ambiguous(tied)) => {
                    assert!(tied.len() >= 2, "{} {args:?}", b.name(id));
                }
                Err(NoMatch::NoViable(cands)) => {
                    assert_eq!(cands.len(), b.overload_count(id));
                    for c in &cands {
                        match c.reason {
                            NotViable::Arity { expected, got, .. } => {
                                assert_eq!(expected, c.sig.params().len());
                                assert_eq!(got, n);
                            }
                            NotViable::Conversion { arg, to, .. } => {
                                assert!(arg < n);
                                assert_eq!(c.sig.params().get(arg), Some(&to));
                                assert!(c.convs.get(arg).is_some_and(Option::is_none));
                            }
                        }
                    }
                }
                Err(NoMatch::Special(s)) => assert_eq!(b.special(id), Some(s)),
            }
        }
    }
}
