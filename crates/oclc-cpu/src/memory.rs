//! Device memory: global/constant storage shared between threads (atomic words, so a kernel's
//! data race can never be undefined behaviour in the host), and per-group local and
//! per-work-item private arenas. Every access resolves a tagged pointer to an allocation and
//! is bounds-checked.

use crate::ptr::{self, Tag};
use oclc_ir::AddrSpace;
pub use oclc_ir::fault::Fault;
use oclc_syntax::Symbol;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Byte storage of a global or constant allocation, as relaxed atomic 32-bit words.
#[derive(Debug)]
pub struct Storage {
    words: Box<[AtomicU32]>,
    len: usize,
}

/// Serializes 64-bit and unaligned atomics, which the 32-bit words cannot do directly.
static WIDE_ATOMIC_LOCKS: [Mutex<()>; 64] = [const { Mutex::new(()) }; 64];

impl Storage {
    /// `len` zero bytes; aborts if the memory cannot be had (see [`Storage::try_zeroed`]).
    pub fn zeroed(len: usize) -> Storage {
        let words = (0..len.div_ceil(4)).map(|_| AtomicU32::new(0)).collect();
        Storage { words, len }
    }

    /// `len` zero bytes, or an [`AllocError`] when the host cannot provide them (reserved
    /// before anything is written, so a failure leaves nothing allocated).
    pub fn try_zeroed(len: usize) -> Result<Storage, AllocError> {
        let n = len.div_ceil(4);
        let mut words: Vec<AtomicU32> = Vec::new();
        words
            .try_reserve_exact(n)
            .map_err(|_| AllocError { bytes: len as u64 })?;
        words.resize_with(n, || AtomicU32::new(0));
        Ok(Storage {
            words: words.into_boxed_slice(),
            len,
        })
    }

    /// A copy of `bytes`; aborts if the memory cannot be had (see [`Storage::try_from_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Storage {
        let s = Storage::zeroed(bytes.len());
        s.write(0, bytes);
        s
    }

    /// A copy of `bytes`, or an [`AllocError`].
    pub fn try_from_bytes(bytes: &[u8]) -> Result<Storage, AllocError> {
        let s = Storage::try_zeroed(bytes.len())?;
        s.write(0, bytes);
        Ok(s)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The address of the first word, for native code that reads and writes the words
    /// directly (as relaxed atomics would) after checking offsets against [`Storage::len`].
    pub fn words_addr(&self) -> u64 {
        self.words.as_ptr() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = vec![0; self.len];
        self.read(0, &mut v);
        v
    }

    /// The contents as a new vector, or an [`AllocError`] when the host has no room for it.
    pub fn try_to_vec(&self) -> Result<Vec<u8>, AllocError> {
        let mut v = Vec::new();
        v.try_reserve_exact(self.len).map_err(|_| AllocError {
            bytes: self.len as u64,
        })?;
        v.resize(self.len, 0);
        self.read(0, &mut v);
        Ok(v)
    }

    fn byte(&self, i: usize) -> u8 {
        self.words
            .get(i / 4)
            .map_or(0, |w| (w.load(Relaxed) >> (8 * (i % 4))) as u8)
    }

    fn set_byte(&self, i: usize, b: u8) {
        if let Some(w) = self.words.get(i / 4) {
            let sh = 8 * (i % 4);
            let _ = w.fetch_update(Relaxed, Relaxed, |x| {
                Some((x & !(0xff << sh)) | ((b as u32) << sh))
            });
        }
    }

    /// The aligned 32-bit word at byte offset `off` (a multiple of 4), if in bounds.
    #[inline(always)]
    pub fn word(&self, off: usize) -> Option<u32> {
        if off.is_multiple_of(4) && off + 4 <= self.len {
            self.words.get(off / 4).map(|w| w.load(Relaxed))
        } else {
            None
        }
    }

    /// Stores the aligned 32-bit word at byte offset `off`; false if misaligned or out of bounds.
    #[inline(always)]
    pub fn set_word(&self, off: usize, v: u32) -> bool {
        if off.is_multiple_of(4)
            && off + 4 <= self.len
            && let Some(w) = self.words.get(off / 4)
        {
            w.store(v, Relaxed);
            return true;
        }
        false
    }

    /// Reads `out.len()` bytes at `off` (the caller has checked bounds).
    pub fn read(&self, off: usize, out: &mut [u8]) {
        let mut k = 0;
        while k < out.len() {
            let i = off + k;
            if i.is_multiple_of(4) && k + 4 <= out.len() {
                let w = self.words.get(i / 4).map_or(0, |w| w.load(Relaxed));
                out[k..k + 4].copy_from_slice(&w.to_le_bytes());
                k += 4;
            } else {
                out[k] = self.byte(i);
                k += 1;
            }
        }
    }

    pub fn write(&self, off: usize, data: &[u8]) {
        let mut k = 0;
        while k < data.len() {
            let i = off + k;
            if i.is_multiple_of(4) && k + 4 <= data.len() {
                if let Some(w) = self.words.get(i / 4) {
                    let v = u32::from_le_bytes([data[k], data[k + 1], data[k + 2], data[k + 3]]);
                    w.store(v, Relaxed);
                }
                k += 4;
            } else {
                self.set_byte(i, data[k]);
                k += 1;
            }
        }
    }

    /// Reads a little-endian scalar of `n` (1, 2, 4 or 8) bytes.
    pub fn read_scalar(&self, off: usize, n: usize) -> u64 {
        if off.is_multiple_of(4) {
            let w = |i: usize| self.words.get(i).map_or(0, |w| w.load(Relaxed)) as u64;
            match n {
                4 => return w(off / 4),
                8 => return w(off / 4) | (w(off / 4 + 1) << 32),
                _ => {}
            }
        }
        let mut v = 0u64;
        for k in 0..n {
            v |= (self.byte(off + k) as u64) << (8 * k);
        }
        v
    }

    pub fn write_scalar(&self, off: usize, n: usize, v: u64) {
        if off.is_multiple_of(4) && (n == 4 || n == 8) {
            if let Some(w) = self.words.get(off / 4) {
                w.store(v as u32, Relaxed);
            }
            if n == 8
                && let Some(w) = self.words.get(off / 4 + 1)
            {
                w.store((v >> 32) as u32, Relaxed);
            }
            return;
        }
        for k in 0..n {
            self.set_byte(off + k, (v >> (8 * k)) as u8);
        }
    }

    /// Atomically replaces the `n`-byte scalar at `off` by `f(old)`; returns the old value.
    pub fn atomic_update(&self, off: usize, n: usize, f: impl Fn(u64) -> u64) -> u64 {
        if n == 4
            && off.is_multiple_of(4)
            && let Some(w) = self.words.get(off / 4)
        {
            return match w.fetch_update(Relaxed, Relaxed, |x| Some(f(x as u64) as u32)) {
                Ok(x) | Err(x) => x as u64,
            };
        }
        let lock = WIDE_ATOMIC_LOCKS
            .get((off / 8) % 64)
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()));
        let old = self.read_scalar(off, n);
        self.write_scalar(off, n, f(old));
        drop(lock);
        old
    }
}

/// The host could not provide `bytes` bytes (the allocator refused: out of memory or
/// address space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    pub bytes: u64,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} bytes: out of memory", self.bytes)
    }
}

/// One allocation of an arena.
#[derive(Clone, Copy, Debug)]
pub struct Alloc {
    pub base: usize,
    pub size: usize,
    pub name: Symbol,
}

/// Plain byte memory owned by one work-group (local) or one work-item (private).
#[derive(Debug, Default)]
pub struct Arena {
    pub bytes: Vec<u8>,
    pub allocs: Vec<Alloc>,
    /// A private arena's owner, as its pointers carry it (unused for local memory).
    pub key: ptr::PrivKey,
}

impl Arena {
    /// Adds a zeroed allocation and returns its id, or an [`AllocError`] when the arena
    /// cannot grow by `size` bytes (the end overflows, or the host refuses).
    pub fn try_alloc(
        &mut self,
        size: usize,
        align: usize,
        name: Symbol,
    ) -> Result<usize, AllocError> {
        let align = align.max(1);
        let too_big = AllocError { bytes: size as u64 };
        let base = self
            .bytes
            .len()
            .checked_next_multiple_of(align)
            .ok_or(too_big)?;
        let end = base.checked_add(size).ok_or(too_big)?;
        self.bytes
            .try_reserve(end - self.bytes.len())
            .map_err(|_| too_big)?;
        self.bytes.resize(end, 0);
        self.allocs.push(Alloc { base, size, name });
        Ok(self.allocs.len() - 1)
    }

    /// Adds a zeroed allocation and returns its id (for sizes already bounded, as private
    /// memory is by the interpreter's limit; others use [`Arena::try_alloc`]).
    pub fn alloc(&mut self, size: usize, align: usize, name: Symbol) -> usize {
        let align = align.max(1);
        let base = self.bytes.len().div_ceil(align) * align;
        self.bytes.resize(base + size, 0);
        self.allocs.push(Alloc { base, size, name });
        self.allocs.len() - 1
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
        self.allocs.clear();
    }

    /// Frees every allocation made after `mark` (from [`Arena::mark`]).
    pub fn release(&mut self, mark: (usize, usize)) {
        self.allocs.truncate(mark.0);
        self.bytes.truncate(mark.1);
    }

    pub fn mark(&self) -> (usize, usize) {
        (self.allocs.len(), self.bytes.len())
    }
}

/// A global or constant allocation visible to a launch.
#[derive(Clone, Debug)]
pub struct GlobalMem {
    pub name: Symbol,
    pub storage: std::sync::Arc<Storage>,
}

/// An SVM allocation a launch knows: raw pointers (see [`ptr::raw`]) from `addr` to
/// `addr + len` address byte `start + p - addr` of the launch's global allocation `id`;
/// `id` is `None` for an allocation of the context that the launch was not given (named
/// only so that an access to it says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvmRange {
    pub addr: u64,
    pub len: u64,
    pub id: Option<usize>,
    pub start: usize,
}

/// How far (in bytes) outside every SVM allocation a raw address is still reported against
/// the nearest one (as out of bounds) rather than as pointing nowhere.
const SVM_NEAR: u64 = 1 << 20;

/// Everything one work-item can address.
pub struct Mem<'a> {
    pub globals: &'a [GlobalMem],
    /// The launch's SVM allocations, sorted by address (not overlapping).
    pub svm: &'a [SvmRange],
    pub local: &'a mut Arena,
    pub private: &'a mut Arena,
}

/// A resolved access: which memory, and the byte offset in it.
pub enum Place<'m> {
    Global(&'m Storage, usize),
    Arena(&'m mut [u8]),
}

fn check(name: Symbol, space: AddrSpace, size: usize, off: u64, len: usize) -> Result<(), Fault> {
    if off
        .checked_add(len as u64)
        .is_none_or(|end| end > size as u64)
    {
        return Err(Fault::OutOfBounds {
            name,
            space,
            size: size as u64,
            offset: crate::ptr::signed_offset(off),
            len: len as u64,
        });
    }
    Ok(())
}

impl Mem<'_> {
    /// The global storage and offset of an unmarked `__global` pointer (the fast path of
    /// 4-byte loads and stores).
    #[inline(always)]
    pub fn global_fast(&self, p: u64) -> Option<(&Storage, usize)> {
        if p >> ptr::BAD_SHIFT != (Tag::Global as u64) << 3 {
            return self.raw_fast(p);
        }
        self.globals
            .get(ptr::alloc(p))
            .map(|g| (&*g.storage, ptr::offset(p) as usize))
    }

    /// The bytes of an in-bounds access through an unmarked `__local` or `__private` pointer
    /// (the fast path of scalar loads and stores).
    #[inline(always)]
    pub fn arena_fast(&mut self, p: u64, len: usize) -> Option<&mut [u8]> {
        let (arena, id) = match p >> ptr::BAD_SHIFT {
            x if x == (Tag::Local as u64) << 3 => (&mut *self.local, ptr::alloc(p)),
            x if x == (Tag::Private as u64) << 3 && self.private.key.owns(p) => {
                let id = self.private.key.id(p);
                (&mut *self.private, id)
            }
            _ => return None,
        };
        let al = arena.allocs.get(id)?;
        let off = ptr::offset(p) as usize;
        if off + len > al.size {
            return None;
        }
        arena.bytes.get_mut(al.base + off..al.base + off + len)
    }

    /// The bound SVM allocation a raw address `a` belongs to, and `a`'s signed offset from
    /// its start: the one that holds it, else the nearest bound one within [`SVM_NEAR`]
    /// bytes (an access there is out of its bounds). An address inside an allocation the
    /// launch was not given is [`Fault::Unbound`]; one near none is [`Fault::Unmapped`].
    pub fn svm_at(&self, a: u64) -> Result<(SvmRange, i64), Fault> {
        let i = self.svm.partition_point(|r| r.addr <= a);
        if let Some(r) = i.checked_sub(1).and_then(|k| self.svm.get(k))
            && a - r.addr < r.len.max(1)
        {
            return match r.id {
                Some(_) => Ok((*r, (a - r.addr) as i64)),
                None => Err(Fault::Unbound {
                    addr: a,
                    base: r.addr,
                    size: r.len,
                }),
            };
        }
        let below = self.svm[..i].iter().rev().find(|r| r.id.is_some());
        let above = self.svm[i..].iter().find(|r| r.id.is_some());
        let past = below.map(|r| (a - r.addr - r.len, r));
        let before = above.map(|r| (r.addr - a, r));
        let (dist, r) = match (past, before) {
            (Some(x), Some(y)) => {
                if x.0 <= y.0 {
                    x
                } else {
                    y
                }
            }
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return Err(Fault::Unmapped { addr: a }),
        };
        if dist < SVM_NEAR {
            Ok((*r, a.wrapping_sub(r.addr) as i64))
        } else {
            Err(Fault::Unmapped { addr: a })
        }
    }

    /// [`Mem::global_fast`] for an unmarked raw (SVM) address inside a bound allocation
    /// that is a whole storage (so the storage's own bounds are the allocation's).
    #[inline]
    fn raw_fast(&self, p: u64) -> Option<(&Storage, usize)> {
        if p >> ptr::BAD_SHIFT != 0 || p < ptr::RAW_MIN || self.svm.is_empty() {
            return None;
        }
        let i = self.svm.partition_point(|r| r.addr <= p).checked_sub(1)?;
        let r = self.svm.get(i)?;
        let g = self.globals.get(r.id?)?;
        let off = p - r.addr;
        (off < r.len && r.start == 0 && r.len == g.storage.len() as u64)
            .then_some((&*g.storage, off as usize))
    }

    /// [`Mem::place`] for a raw (SVM) address `a`.
    fn place_raw(&self, p: u64, a: u64, len: usize) -> Result<Place<'_>, Fault> {
        if let Some(c) = ptr::bad_cast(p) {
            return Err(Fault::WrongSpace {
                cast_to: c.space(),
                points_to: AddrSpace::Global,
            });
        }
        let (r, off) = self.svm_at(a)?;
        let g =
            r.id.and_then(|id| self.globals.get(id))
                .ok_or(Fault::Dangling {
                    space: AddrSpace::Global,
                })?;
        let size = r.len as usize;
        if off < 0 {
            return Err(Fault::OutOfBounds {
                name: g.name,
                space: AddrSpace::Global,
                size: size as u64,
                offset: off,
                len: len as u64,
            });
        }
        check(g.name, AddrSpace::Global, size, off as u64, len)?;
        let at = r.start + off as usize;
        if at + len > g.storage.len() {
            return Err(Fault::Dangling {
                space: AddrSpace::Global,
            });
        }
        Ok(Place::Global(&g.storage, at))
    }

    /// Resolves `len` bytes at `p` for reading (`write` false) or writing.
    #[inline]
    pub fn place(&mut self, p: u64, len: usize, write: bool) -> Result<Place<'_>, Fault> {
        let Some(t) = ptr::tag(p) else {
            if let Some(a) = ptr::raw(p) {
                return self.place_raw(p, a, len);
            }
            return Err(Fault::Null);
        };
        if let Some(c) = ptr::bad_cast(p) {
            return Err(Fault::WrongSpace {
                cast_to: c.space(),
                points_to: t.space(),
            });
        }
        let (a, off) = (ptr::alloc(p), ptr::offset(p));
        match t {
            Tag::Global | Tag::Constant => {
                let g = self
                    .globals
                    .get(a)
                    .ok_or(Fault::Dangling { space: t.space() })?;
                if write && t == Tag::Constant {
                    return Err(Fault::WriteConstant { name: g.name });
                }
                check(g.name, t.space(), g.storage.len(), off, len)?;
                Ok(Place::Global(&g.storage, off as usize))
            }
            Tag::Local | Tag::Private => {
                let (arena, a) = if t == Tag::Local {
                    (&mut *self.local, a)
                } else {
                    let key = self.private.key;
                    if !key.owns(p) {
                        return Err(Fault::OtherPrivate {
                            owner: key.owner_of(p),
                        });
                    }
                    (&mut *self.private, key.id(p))
                };
                let al = *arena
                    .allocs
                    .get(a)
                    .ok_or(Fault::Dangling { space: t.space() })?;
                check(al.name, t.space(), al.size, off, len)?;
                let start = al.base + off as usize;
                arena
                    .bytes
                    .get_mut(start..start + len)
                    .map(Place::Arena)
                    .ok_or(Fault::Dangling { space: t.space() })
            }
        }
    }

    /// Whether `len` bytes at `p` can be read and written without a fault (`Op::InBounds`).
    pub fn in_bounds(&mut self, p: u64, len: u64) -> bool {
        usize::try_from(len).is_ok_and(|n| self.place(p, n, true).is_ok())
    }

    pub fn read(&mut self, p: u64, out: &mut [u8]) -> Result<(), Fault> {
        match self.place(p, out.len(), false)? {
            Place::Global(s, off) => s.read(off, out),
            Place::Arena(b) => out.copy_from_slice(b),
        }
        Ok(())
    }

    pub fn write(&mut self, p: u64, data: &[u8]) -> Result<(), Fault> {
        match self.place(p, data.len(), true)? {
            Place::Global(s, off) => s.write(off, data),
            Place::Arena(b) => b.copy_from_slice(data),
        }
        Ok(())
    }

    /// Reads an `n`-byte little-endian scalar.
    pub fn read_scalar(&mut self, p: u64, n: usize) -> Result<u64, Fault> {
        Ok(match self.place(p, n, false)? {
            Place::Global(s, off) => s.read_scalar(off, n),
            Place::Arena(b) => {
                let mut v = 0u64;
                for (k, x) in b.iter().enumerate() {
                    v |= (*x as u64) << (8 * k);
                }
                v
            }
        })
    }

    pub fn write_scalar(&mut self, p: u64, n: usize, v: u64) -> Result<(), Fault> {
        match self.place(p, n, true)? {
            Place::Global(s, off) => s.write_scalar(off, n, v),
            Place::Arena(b) => {
                for (k, x) in b.iter_mut().enumerate() {
                    *x = (v >> (8 * k)) as u8;
                }
            }
        }
        Ok(())
    }

    /// Atomic read-modify-write of an `n`-byte scalar; returns the old value.
    pub fn atomic(&mut self, p: u64, n: usize, f: impl Fn(u64) -> u64) -> Result<u64, Fault> {
        match self.place(p, n, true)? {
            Place::Global(s, off) => Ok(s.atomic_update(off, n, f)),
            Place::Arena(b) => {
                let mut old = 0u64;
                for (k, x) in b.iter().enumerate() {
                    old |= (*x as u64) << (8 * k);
                }
                let new = f(old);
                for (k, x) in b.iter_mut().enumerate() {
                    *x = (new >> (8 * k)) as u8;
                }
                Ok(old)
            }
        }
    }

    /// Reads a NUL-terminated string (for printf), at most `limit` bytes.
    pub fn read_cstr(&mut self, p: u64, limit: usize) -> Result<Vec<u8>, Fault> {
        let mut out = Vec::new();
        let mut q = p;
        while out.len() < limit {
            let b = self.read_scalar(q, 1)? as u8;
            if b == 0 {
                break;
            }
            out.push(b);
            q = ptr::add(q, 1);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_reads_and_writes_unaligned() {
        let s = Storage::zeroed(10);
        s.write(1, &[1, 2, 3, 4, 5]);
        assert_eq!(s.to_vec(), vec![0, 1, 2, 3, 4, 5, 0, 0, 0, 0]);
        assert_eq!(s.read_scalar(1, 4), 0x04030201);
        s.write_scalar(4, 4, 0xdeadbeef);
        assert_eq!(s.read_scalar(4, 4), 0xdeadbeef);
        s.write_scalar(2, 8, 0x1122334455667788);
        assert_eq!(s.read_scalar(2, 8), 0x1122334455667788);
        assert_eq!(s.atomic_update(4, 4, |x| x + 1), 0x33445566);
        assert_eq!(s.read_scalar(4, 4), 0x33445567);
    }

    #[test]
    fn impossible_allocations_are_errors() {
        assert_eq!(
            Storage::try_zeroed(usize::MAX).map(|s| s.len()),
            Err(AllocError {
                bytes: usize::MAX as u64
            })
        );
        let s = Storage::try_from_bytes(&[1, 2, 3]).expect("3 bytes");
        assert_eq!(s.try_to_vec(), Ok(vec![1, 2, 3]));
        let mut a = Arena::default();
        let name = Symbol::intern("tile");
        assert_eq!(a.try_alloc(3, 1, name), Ok(0));
        assert!(a.try_alloc(usize::MAX, 16, name).is_err());
        assert!(a.try_alloc(usize::MAX - 1, 1, name).is_err());
        assert_eq!(a.try_alloc(5, 4, name), Ok(1));
        assert_eq!((a.bytes.len(), a.allocs[1].base), (9, 4));
    }

    #[test]
    fn bounds_and_spaces_are_checked() {
        let g = [GlobalMem {
            name: Symbol::intern("buf"),
            storage: std::sync::Arc::new(Storage::zeroed(8)),
        }];
        let mut local = Arena::default();
        let mut private = Arena::default();
        local.alloc(4, 4, Symbol::intern("tile"));
        let mut m = Mem {
            globals: &g,
            svm: &[],
            local: &mut local,
            private: &mut private,
        };
        let p = ptr::make(Tag::Global, 0, 4);
        assert!(m.write_scalar(p, 4, 7).is_ok());
        assert_eq!(m.read_scalar(p, 4), Ok(7));
        assert!(matches!(
            m.read_scalar(ptr::add(p, 2), 4),
            Err(Fault::OutOfBounds {
                size: 8,
                offset: 6,
                ..
            })
        ));
        assert_eq!(m.read_scalar(0, 4), Err(Fault::Null));
        let c = ptr::make(Tag::Constant, 0, 0);
        assert!(matches!(
            m.write_scalar(c, 4, 1),
            Err(Fault::WriteConstant { .. })
        ));
        let l = ptr::make(Tag::Local, 0, 0);
        assert!(m.write_scalar(l, 4, 9).is_ok());
        assert!(matches!(
            m.read_scalar(ptr::add(l, 4), 1),
            Err(Fault::OutOfBounds { .. })
        ));
        let bad = ptr::from_generic(l, AddrSpace::Global);
        assert!(matches!(
            m.read_scalar(bad, 4),
            Err(Fault::WrongSpace { .. })
        ));
    }

    #[test]
    fn svm_addresses_resolve_to_their_allocation() {
        let name = Symbol::intern("SVM allocation");
        let g = [
            GlobalMem {
                name,
                storage: std::sync::Arc::new(Storage::zeroed(16)),
            },
            GlobalMem {
                name,
                storage: std::sync::Arc::new(Storage::zeroed(8)),
            },
        ];
        let svm = [
            SvmRange {
                addr: 0x10_0000,
                len: 16,
                id: Some(0),
                start: 0,
            },
            SvmRange {
                addr: 0x10_0080,
                len: 8,
                id: Some(1),
                start: 0,
            },
            SvmRange {
                addr: 0x20_0000,
                len: 8,
                id: None,
                start: 0,
            },
        ];
        let (mut local, mut private) = (Arena::default(), Arena::default());
        let mut m = Mem {
            globals: &g,
            svm: &svm,
            local: &mut local,
            private: &mut private,
        };
        assert!(m.write_scalar(0x10_0008, 8, 0x10_0080).is_ok());
        assert_eq!(g[0].storage.read_scalar(8, 8), 0x10_0080);
        assert!(m.write_scalar(0x10_0084, 4, 5).is_ok());
        assert_eq!(g[1].storage.read_scalar(4, 4), 5);
        // One past the end, a straddling access and one before the start are out of bounds
        // of the right allocation, with their exact offsets.
        let oob = |r| match r {
            Err(Fault::OutOfBounds { size, offset, .. }) => Some((size, offset)),
            _ => None,
        };
        assert_eq!(oob(m.read_scalar(0x10_0010, 1)), Some((16, 16)));
        assert_eq!(oob(m.read_scalar(0x10_000c, 8)), Some((16, 12)));
        assert_eq!(oob(m.read_scalar(0x10_007c, 4)), Some((8, -4)));
        assert_eq!(oob(m.read_scalar(0x10_0088, 4)), Some((8, 8)));
        assert_eq!(
            m.read_scalar(0x7000_0000, 4),
            Err(Fault::Unmapped { addr: 0x7000_0000 })
        );
        assert_eq!(m.read_scalar(8, 4), Err(Fault::Null));
        // The fast path of aligned words: inside a bound allocation only.
        let fast = |m: &Mem, p| m.global_fast(p).map(|(s, off)| (s.len(), off));
        assert_eq!(fast(&m, 0x10_0008), Some((16, 8)));
        assert_eq!(fast(&m, 0x10_0084), Some((8, 4)));
        assert_eq!(fast(&m, 0x10_0010), None);
        assert_eq!(fast(&m, 0x20_0000), None);
        assert_eq!(
            fast(&m, ptr::from_generic(0x10_0008, AddrSpace::Local)),
            None
        );
        assert_eq!(
            m.read_scalar(0x20_0004, 4),
            Err(Fault::Unbound {
                addr: 0x20_0004,
                base: 0x20_0000,
                size: 8
            })
        );
        let bad = ptr::from_generic(0x10_0000, AddrSpace::Local);
        assert!(matches!(
            m.read_scalar(bad, 4),
            Err(Fault::WrongSpace {
                points_to: AddrSpace::Global,
                ..
            })
        ));
    }
}
