//! Pointer roots: where a pointer slot's value comes from (a kernel argument or an address
//! constant, moved by pointer arithmetic only). An access through a pointer with a known root
//! checks its bounds against the root's (base, size), looked up once per call of the
//! work-group function instead of per access; the root is a guess verified at run time (the
//! pointer's space, mark and allocation bits must equal the root's), so a wrong guess only
//! takes the general path.

use crate::decode::{DFunc, I};
use crate::ptr;

/// The origin of a pointer value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Root {
    /// The kernel's parameter of this index (one lane).
    Param(u32),
    /// An address constant (its bits above the offset field).
    Const(u64),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    Unset,
    Is(Root),
    Many,
}

fn join(a: St, b: St) -> St {
    match (a, b) {
        (St::Unset, x) | (x, St::Unset) => x,
        (St::Is(x), St::Is(y)) if x == y => St::Is(x),
        _ => St::Many,
    }
}

/// The root of an address constant `v` (tagged with a space), if it is one.
pub fn const_root(v: u64) -> Option<Root> {
    ptr::tag(v).map(|_| Root::Const(v & !ptr::OFFSET_MASK))
}

/// The root of each slot of `f` whose parameters have the roots `params` (by parameter).
pub fn slot_roots(f: &DFunc, params: &[Option<Root>]) -> Vec<Option<Root>> {
    let n = f.nregs as usize;
    let mut st = vec![St::Unset; n];
    for (i, &(slot, lanes)) in f.params.iter().enumerate() {
        for k in 0..lanes {
            if let Some(s) = st.get_mut((slot + k) as usize) {
                *s = match params.get(i).copied().flatten() {
                    Some(r) if lanes == 1 => St::Is(r),
                    _ => St::Many,
                };
            }
        }
    }
    let get = |st: &[St], s: u32| st.get(s as usize).copied().unwrap_or(St::Many);
    let put = |st: &mut [St], d: u32, v: St| -> bool {
        match st.get_mut(d as usize) {
            Some(x) => {
                let j = join(*x, v);
                let ch = j != *x;
                *x = j;
                ch
            }
            None => false,
        }
    };
    for i in &f.code {
        if let I::Imm { d, v } = *i {
            let r = const_root(v).map_or(St::Many, St::Is);
            put(&mut st, d, r);
        }
    }
    for _ in 0..64 {
        let mut changed = false;
        for i in &f.code {
            match *i {
                I::PtrIndex { d, p, .. } | I::PtrAdd { d, p, .. } => {
                    let v = get(&st, p);
                    changed |= put(&mut st, d, v);
                }
                I::Copy { d, s, n } => {
                    for k in 0..n {
                        let v = get(&st, s + k);
                        changed |= put(&mut st, d + k, v);
                    }
                }
                _ => {}
            }
        }
        for &(d, s) in &f.moves {
            let v = get(&st, s);
            changed |= put(&mut st, d, v);
        }
        if !changed {
            break;
        }
    }
    st.into_iter()
        .map(|x| match x {
            St::Is(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Every address-constant root in the functions of `funcs`.
pub fn const_roots<'a>(funcs: impl Iterator<Item = &'a DFunc>) -> Vec<Root> {
    let mut v: Vec<Root> = funcs
        .flat_map(|f| f.code.iter())
        .filter_map(|i| match *i {
            I::Imm { v, .. } => const_root(v),
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}
