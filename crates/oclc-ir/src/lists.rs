//! Lists keyed by a dense index (users of each value, callees of each function), all in one
//! allocation: what passes build for a whole function or module at a time.

/// For each key `0..n`, a list of items: key `k`'s are `items[start[k]..start[k + 1]]`.
#[derive(Clone, Debug)]
pub struct FlatLists<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> FlatLists<T> {
    /// The lists of `n` keys from `(key, item)` pairs (keys past `n` are ignored), each list
    /// in the order the pairs come.
    pub fn from_pairs(n: usize, pairs: impl Iterator<Item = (usize, T)> + Clone) -> FlatLists<T> {
        FlatLists::from_emitter(n, |push| pairs.clone().for_each(|(k, t)| push(k, t)))
    }

    /// [`FlatLists::from_pairs`] with the pairs given by `emit`, which calls `push(key, item)`
    /// for each; it runs twice (once to count, once to fill) and must give the same pairs.
    pub fn from_emitter(n: usize, emit: impl Fn(&mut dyn FnMut(usize, T))) -> FlatLists<T> {
        let mut start = vec![0u32; n + 1];
        let mut first = None;
        emit(&mut |k, t| {
            if k < n {
                start[k + 1] += 1;
                first.get_or_insert(t);
            }
        });
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let Some(filler) = first else {
            return FlatLists {
                start,
                items: Vec::new(),
            };
        };
        let mut fill: Vec<u32> = start[..n].to_vec();
        let mut items = vec![filler; start[n] as usize];
        emit(&mut |k, t| {
            if let Some(at) = fill.get_mut(k)
                && let Some(slot) = items.get_mut(*at as usize)
            {
                *slot = t;
                *at += 1;
            }
        });
        FlatLists { start, items }
    }

    /// Key `k`'s list (empty past the end).
    pub fn of(&self, k: usize) -> &[T] {
        match (self.start.get(k), self.start.get(k + 1)) {
            (Some(&a), Some(&b)) => &self.items[a as usize..b as usize],
            _ => &[],
        }
    }
}

impl<T: Copy + Ord> FlatLists<T> {
    /// The same lists, each sorted with repeats removed.
    pub fn sorted_unique(self) -> FlatLists<T> {
        let n = self.start.len().saturating_sub(1);
        let mut start = Vec::with_capacity(n + 1);
        let mut items = Vec::with_capacity(self.items.len());
        start.push(0u32);
        for k in 0..n {
            let from = items.len();
            items.extend_from_slice(self.of(k));
            items[from..].sort_unstable();
            let mut kept = from;
            for r in from..items.len() {
                if kept == from || items[kept - 1] != items[r] {
                    items[kept] = items[r];
                    kept += 1;
                }
            }
            items.truncate(kept);
            start.push(items.len() as u32);
        }
        FlatLists { start, items }
    }
}
