//! Choosing among a builtin's overloads (clang's `BestViableFunction`), memoizing the result,
//! and ordering the candidates of a failed call as clang lists them in its notes.

use super::resolve::{self, Arg, ArgForm, Cmp, Conv};
use super::ty::BTy;
use super::{BuiltinId, Builtins, Candidate, NoMatch, NotViable, OverloadId, Resolved, Signature};
use oclc_syntax::Symbol;
use oclc_syntax::fxhash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Resolutions by (builtin, hash of the argument keys); entries keep their keys to rule out
/// hash collisions.
pub(super) type ResolveCache = FxHashMap<(u32, u64), Vec<(Vec<ArgKey>, Result<Resolved, NoMatch>)>>;

/// What of an argument overload resolution depends on (constant values only matter as
/// zero / non-zero).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct ArgKey(BTy, bool, Option<bool>, ArgForm);

impl ArgKey {
    fn of(a: &Arg, f: ArgForm) -> ArgKey {
        ArgKey(a.ty, a.null_ptr, a.int_const.map(|v| v == 0), f)
    }
}

impl Builtins {
    /// Resolves a call of builtin `id` with `args`, as clang's overload resolution does.
    /// Results are memoized per argument-type list, so repeated calls cost a hash lookup.
    pub fn resolve(&self, id: BuiltinId, args: &[Arg]) -> Result<Resolved, NoMatch> {
        self.resolve_with_forms(id, args, &[])
    }

    /// [`Builtins::resolve`], also told each argument's [`ArgForm`] (missing entries count
    /// as default), so that candidate notes carry clang's fix suggestions ("take the address
    /// of the argument with &") and are ordered as clang orders them.
    pub fn resolve_with_forms(
        &self,
        id: BuiltinId,
        args: &[Arg],
        forms: &[ArgForm],
    ) -> Result<Resolved, NoMatch> {
        let form = |i: usize| forms.get(i).copied().unwrap_or_default();
        let mut h = FxHasher::default();
        for (i, a) in args.iter().enumerate() {
            ArgKey::of(a, form(i)).hash(&mut h);
        }
        let key = (id.0, h.finish());
        let same = |keys: &[ArgKey]| {
            keys.len() == args.len()
                && keys
                    .iter()
                    .zip(args)
                    .enumerate()
                    .all(|(i, (k, a))| *k == ArgKey::of(a, form(i)))
        };
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(hit) = cache
                .get(&key)
                .and_then(|v| v.iter().find(|(k, _)| same(k)))
            {
                return hit.1.clone();
            }
        }
        let result = self.resolve_uncached(id, args, &form);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(key).or_default().push((
            args.iter()
                .enumerate()
                .map(|(i, a)| ArgKey::of(a, form(i)))
                .collect(),
            result.clone(),
        ));
        result
    }

    fn resolve_uncached(
        &self,
        id: BuiltinId,
        args: &[Arg],
        form: &dyn Fn(usize) -> ArgForm,
    ) -> Result<Resolved, NoMatch> {
        if let Some(s) = self.special(id) {
            return Err(NoMatch::Special(s));
        }
        let total = self.overload_count(id);
        // Every argument's conversion, and the first reason the candidate is not viable.
        let convs_for = |sig: &Signature| -> (Vec<Option<Conv>>, Option<NotViable>) {
            let params = sig.params();
            if args.len() < params.len() || (args.len() > params.len() && !sig.variadic) {
                let arity = NotViable::Arity {
                    expected: params.len(),
                    got: args.len(),
                    variadic: sig.variadic,
                };
                return (vec![None; args.len()], Some(arity));
            }
            let mut out = Vec::with_capacity(args.len());
            let mut bad = None;
            for (i, a) in args.iter().enumerate() {
                match params.get(i) {
                    Some(&p) => match resolve::convert(a, p) {
                        Ok(c) => out.push(Some(c)),
                        Err(why) => {
                            out.push(None);
                            bad = bad.or(Some(NotViable::Conversion { arg: i, to: p, why }));
                        }
                    },
                    None => out.push(None),
                }
            }
            (out, bad)
        };
        if total == 1
            && let Some(o) = self.overloads(id).next()
        {
            let sig = self.signature(o);
            let (convs, _) = convs_for(&sig);
            return Ok(Resolved {
                overload: o,
                sig,
                convs,
                overloaded: false,
            });
        }
        // An overload every argument matches exactly (no conversion at all) is better than any
        // other candidate, and no two overloads have the same parameter types.
        for o in self.overloads(id) {
            let Some(d) = self.decls(id).get(o.decl as usize) else {
                continue;
            };
            if d.variadic || d.params.len() != args.len() {
                continue;
            }
            let sig = self.signature(o);
            let convs: Option<Vec<Conv>> = args
                .iter()
                .zip(sig.params())
                .map(|(a, &p)| resolve::convert(a, p).ok().filter(|c| c.is_identity()))
                .collect();
            if let Some(convs) = convs {
                return Ok(Resolved {
                    overload: o,
                    sig,
                    convs: convs.into_iter().map(Some).collect(),
                    overloaded: true,
                });
            }
        }
        // Viable candidates with their conversions; the rest with the reason.
        let mut viable: Vec<(OverloadId, Signature, Vec<Conv>)> = Vec::new();
        let mut rejected: Vec<Candidate> = Vec::new();
        for o in self.overloads(id) {
            let sig = self.signature(o);
            match convs_for(&sig) {
                (c, None) => viable.push((o, sig, c.into_iter().flatten().collect())),
                (convs, Some(reason)) => {
                    // clang's TryToFixBadConversion: fixable only if every bad one is.
                    let mut fix = None;
                    if let NotViable::Conversion { .. } = reason {
                        for (i, (a, c)) in args.iter().zip(&convs).enumerate() {
                            if c.is_some() {
                                continue;
                            }
                            let f = sig
                                .params()
                                .get(i)
                                .and_then(|&p| resolve::conversion_fix(a, form(i), p));
                            match f {
                                Some(f) => fix = fix.or(Some(f)),
                                None => {
                                    fix = None;
                                    break;
                                }
                            }
                        }
                    }
                    rejected.push(Candidate {
                        overload: o,
                        sig,
                        reason,
                        convs,
                        fix,
                    })
                }
            }
        }
        let better = |a: &[Conv], b: &[Conv]| resolve::better_candidate(args, a, b);
        let mut best: Option<usize> = None;
        for (i, (_, _, c)) in viable.iter().enumerate() {
            match best {
                None => best = Some(i),
                Some(b) => {
                    if let Some((_, _, bc)) = viable.get(b)
                        && better(c, bc)
                    {
                        best = Some(i);
                    }
                }
            }
        }
        let Some(best) = best else {
            let n = args.len();
            stable_insertion_sort(&mut rejected, |l, r| display_before(args, n, l, r));
            return Err(NoMatch::NoViable(rejected));
        };
        // Every candidate not worse than a best one is tied with it (clang's closure).
        let mut tied = vec![false; viable.len()];
        if let Some(t) = tied.get_mut(best) {
            *t = true;
        }
        let mut pending = vec![best];
        let mut ambiguous = false;
        while let Some(cur) = pending.pop() {
            for j in 0..viable.len() {
                let (Some(cc), Some(cj)) = (viable.get(cur), viable.get(j)) else {
                    continue;
                };
                if !tied.get(j).copied().unwrap_or(true) && !better(&cc.2, &cj.2) {
                    if let Some(t) = tied.get_mut(j) {
                        *t = true;
                    }
                    pending.push(j);
                    ambiguous = true;
                }
            }
        }
        if ambiguous {
            let mut tied: Vec<&(OverloadId, Signature, Vec<Conv>)> = viable
                .iter()
                .zip(&tied)
                .filter(|(_, t)| **t)
                .map(|(v, _)| v)
                .collect();
            stable_insertion_sort(&mut tied, |l, r| {
                conversions_order(args, &l.2, &r.2) == std::cmp::Ordering::Less
            });
            return Err(NoMatch::Ambiguous(tied.iter().map(|v| v.0).collect()));
        }
        let (o, sig, convs) = viable.swap_remove(best);
        Ok(Resolved {
            overload: o,
            sig,
            convs: convs.into_iter().map(Some).collect(),
            overloaded: true,
        })
    }

    /// [`Builtins::resolve`] by name; `None` when `name` is not a builtin in this mode.
    pub fn resolve_name(&self, name: Symbol, args: &[Arg]) -> Option<Result<Resolved, NoMatch>> {
        Some(self.resolve(self.lookup(name)?, args))
    }
}

/// A stable insertion sort that tolerates a comparison that is not a total order (clang's
/// display comparison is not), unlike `slice::sort_by`.
fn stable_insertion_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (v.get(j), v.get(j - 1)) else {
                break;
            };
            if !less(a, b) {
                break;
            }
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// clang's `CompareConversions`: which candidate converts more arguments better.
fn conversions_order<C: AsConv>(args: &[Arg], l: &[C], r: &[C]) -> std::cmp::Ordering {
    let mut left_better = 0i32;
    for ((a, x), y) in args.iter().zip(l).zip(r) {
        let c = match (x.conv(), y.conv()) {
            (Some(x), Some(y)) => resolve::compare(a, x, y),
            (Some(_), None) => Cmp::Better,
            (None, Some(_)) => Cmp::Worse,
            (None, None) => Cmp::Same,
        };
        match c {
            Cmp::Better => left_better += 1,
            Cmp::Worse => left_better -= 1,
            Cmp::Same => {}
        }
    }
    0.cmp(&left_better)
}

/// Conversions as stored for viable (`Conv`) and rejected (`Option<Conv>`) candidates.
trait AsConv {
    fn conv(&self) -> Option<&Conv>;
}

impl AsConv for Conv {
    fn conv(&self) -> Option<&Conv> {
        Some(self)
    }
}

impl AsConv for Option<Conv> {
    fn conv(&self) -> Option<&Conv> {
        self.as_ref()
    }
}

/// clang's `CompareOverloadCandidatesForDisplay` for non-viable builtin candidates: bad
/// conversions first, ordered by the quality of their conversions; arity mismatches last,
/// nearest arity first and too-many before too-few. Ties keep declaration order.
fn display_before(args: &[Arg], nargs: usize, l: &Candidate, r: &Candidate) -> bool {
    match (l.reason, r.reason) {
        (NotViable::Arity { expected: le, .. }, NotViable::Arity { expected: re, .. }) => {
            let (ld, rd) = (le.abs_diff(nargs), re.abs_diff(nargs));
            if ld != rd {
                return ld < rd;
            }
            nargs > le && nargs <= re
        }
        (NotViable::Arity { .. }, _) => false,
        (_, NotViable::Arity { .. }) => true,
        _ => {
            // Fewer fixes first; a candidate without a fix counts as unfixable (last).
            let fixes = |c: &Candidate| match c.fix {
                Some(_) => c.convs.iter().filter(|c| c.is_none()).count(),
                None => usize::MAX,
            };
            let (lf, rf) = (fixes(l), fixes(r));
            if lf != rf {
                return lf < rf;
            }
            conversions_order(args, &l.convs, &r.convs) == std::cmp::Ordering::Less
        }
    }
}
