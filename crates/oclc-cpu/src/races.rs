//! Opt-in data-race detection (`--races`): between two barriers, a byte of local or global
//! memory written by one work-item of a group must not be read or written by another.

use crate::ptr;
use std::collections::HashMap;

/// A conflicting access found by [`Races`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Race {
    /// The byte's pointer (space, allocation, offset).
    pub at: u64,
    /// Linear local id of the earlier work-item.
    pub other: u32,
    /// Whether the earlier access was a write.
    pub earlier_write: bool,
}

const MANY: u32 = u32::MAX;

/// Per byte touched since the last barrier: last writer, reader(s), and whether that last
/// write changed the byte (a write of the value already there is harmless in any order).
#[derive(Debug, Default)]
pub struct Races {
    bytes: HashMap<u64, (u32, u32, bool)>,
}

fn key(p: u64, k: usize) -> Option<u64> {
    match ptr::tag(p)? {
        ptr::Tag::Local | ptr::Tag::Global => Some(ptr::add(p & !(7 << ptr::BAD_SHIFT), k as i64)),
        _ => None,
    }
}

impl Races {
    /// A barrier: accesses before it are ordered with accesses after it.
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Records a read of `len` bytes at `p` by work-item `wi`.
    pub fn read(&mut self, p: u64, len: usize, wi: u32) -> Option<Race> {
        let me = wi + 1;
        for k in 0..len {
            let at = key(p, k)?;
            let e = self.bytes.entry(at).or_insert((0, 0, false));
            if e.0 != 0 && e.0 != me && e.2 {
                return Some(Race {
                    at,
                    other: e.0 - 1,
                    earlier_write: true,
                });
            }
            e.1 = if e.1 == 0 || e.1 == me { me } else { MANY };
        }
        None
    }

    /// Records a write by work-item `wi` of `new` over `old` at `p`. Bytes whose value does
    /// not change conflict with nobody (uniform writes, as Oclgrind treats them).
    pub fn write(&mut self, p: u64, old: &[u8], new: &[u8], wi: u32) -> Option<Race> {
        let me = wi + 1;
        for (k, (o, n)) in old.iter().zip(new).enumerate() {
            let at = key(p, k)?;
            let e = self.bytes.entry(at).or_insert((0, 0, false));
            if o != n {
                if e.0 != 0 && e.0 != me {
                    return Some(Race {
                        at,
                        other: e.0 - 1,
                        earlier_write: true,
                    });
                }
                if e.1 != 0 && e.1 != me {
                    let other = if e.1 == MANY { u32::MAX } else { e.1 - 1 };
                    return Some(Race {
                        at,
                        other,
                        earlier_write: false,
                    });
                }
            }
            e.0 = me;
            e.2 = o != n;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_conflicts_until_cleared() {
        let mut r = Races::default();
        let p = ptr::make(ptr::Tag::Local, 0, 8);
        assert_eq!(r.write(p, &[9; 4], &[0; 4], 0), None);
        assert_eq!(r.read(p, 4, 0), None);
        assert_eq!(
            r.read(p, 4, 1),
            Some(Race {
                at: p,
                other: 0,
                earlier_write: true
            })
        );
        r.clear();
        assert_eq!(r.read(p, 4, 1), None);
        assert_eq!(r.read(p, 4, 2), None);
        assert!(r.write(p, &[0; 4], &[1; 4], 3).is_some());
        assert_eq!(r.write(p, &[1; 4], &[1; 4], 4), None);
        let priv_p = ptr::make(ptr::Tag::Private, 0, 0);
        assert_eq!(r.write(priv_p, &[0; 4], &[1; 4], 0), None);
        assert_eq!(r.write(priv_p, &[1; 4], &[2; 4], 1), None);
    }
}

/// A conflicting access to global memory from two work-groups of one launch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupRace {
    pub at: u64,
    /// Linear id of the earlier work-group.
    pub other_group: u64,
    pub earlier_write: bool,
}

/// Per global byte: last writing group, reading group(s), whether that write changed it.
type GroupShard = HashMap<u64, (u64, u64, bool)>;

/// Writers and readers of global bytes per work-group, shared by all threads of a launch:
/// work-groups are never ordered with each other, so a byte one group writes must not be
/// touched by another.
#[derive(Debug)]
pub struct GlobalRaces {
    shards: Vec<std::sync::Mutex<GroupShard>>,
}

impl Default for GlobalRaces {
    fn default() -> GlobalRaces {
        GlobalRaces {
            shards: (0..64)
                .map(|_| std::sync::Mutex::new(HashMap::new()))
                .collect(),
        }
    }
}

impl GlobalRaces {
    /// Records an access of `len` bytes at `p` by work-group `group` (linear id); a write
    /// gives the bytes it replaces and the new ones (unchanged bytes conflict with nobody).
    pub fn access(
        &self,
        p: u64,
        len: usize,
        group: u64,
        write: Option<(&[u8], &[u8])>,
    ) -> Option<GroupRace> {
        if ptr::tag(p) != Some(ptr::Tag::Global) {
            return None;
        }
        let me = group + 1;
        for k in 0..len {
            let at = key(p, k)?;
            let shard = self.shards.get((at as usize / 64) % self.shards.len())?;
            let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
            let e = map.entry(at).or_insert((0, 0, false));
            let changes = write.is_some_and(|(o, n)| o.get(k) != n.get(k));
            if e.0 != 0 && e.0 != me && if write.is_none() { e.2 } else { changes } {
                return Some(GroupRace {
                    at,
                    other_group: e.0 - 1,
                    earlier_write: true,
                });
            }
            if write.is_some() {
                if changes && e.1 != 0 && e.1 != me {
                    let other = if e.1 == u64::MAX { u64::MAX } else { e.1 - 1 };
                    return Some(GroupRace {
                        at,
                        other_group: other,
                        earlier_write: false,
                    });
                }
                e.0 = me;
                e.2 = changes;
            } else {
                e.1 = if e.1 == 0 || e.1 == me { me } else { u64::MAX };
            }
        }
        None
    }
}

#[cfg(test)]
mod group_tests {
    use super::*;

    #[test]
    fn groups_conflict_on_global_bytes() {
        let r = GlobalRaces::default();
        let p = ptr::make(ptr::Tag::Global, 2, 0);
        assert_eq!(r.access(p, 4, 0, Some((&[0; 4], &[1; 4]))), None);
        assert_eq!(r.access(p, 4, 0, None), None);
        assert_eq!(r.access(ptr::add(p, 4), 4, 1, None), None);
        assert_eq!(
            r.access(p, 4, 1, None),
            Some(GroupRace {
                at: p,
                other_group: 0,
                earlier_write: true
            })
        );
        assert!(
            r.access(ptr::add(p, 4), 4, 2, Some((&[0; 4], &[5; 4])))
                .is_some()
        );
        assert_eq!(r.access(p, 4, 3, Some((&[1; 4], &[1; 4]))), None);
    }
}
