//! The cpu device's 64-bit pointer encoding. A pointer carries the space it points into, the
//! space it was wrongly cast to (if any), its allocation and its byte offset, so a generic
//! pointer always knows where it points and every access can be checked.
//!
//! ```text
//! 63..61 space tag | 60..58 wrong-cast tag | 57..40 allocation | 39..0 offset
//! ```
//! NULL is 0 in every space. The allocation field of a `__private` pointer also names the
//! work-item that owns the memory ([`PrivKey`]).
//!
//! A pointer with no space tag and a value of at least [`RAW_MIN`] is a *raw* `__global`
//! address: the host address of a shared virtual memory (SVM) allocation, which the host and
//! the kernel store in memory alike. Its bits 57..0 are the address (user-space addresses
//! fit in 47 bits); bits 60..58 mark a wrong cast as for tagged pointers. Accesses find the
//! SVM allocation that holds the address ([`crate::memory::Mem::place`]).

use oclc_ir::AddrSpace;

pub const TAG_SHIFT: u32 = 61;
pub const BAD_SHIFT: u32 = 58;
pub const ALLOC_SHIFT: u32 = 40;
pub const OFFSET_MASK: u64 = (1 << ALLOC_SHIFT) - 1;
pub const ALLOC_MASK: u64 = (1 << (BAD_SHIFT - ALLOC_SHIFT)) - 1;
/// Most allocations one space can hold at once.
pub const MAX_ALLOCS: usize = ALLOC_MASK as usize + 1;
/// Bits of the allocation field.
const ALLOC_BITS: u32 = BAD_SHIFT - ALLOC_SHIFT;

/// Where a pointer points: the space tags stored in pointer bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Tag {
    Global = 1,
    Constant = 2,
    Local = 3,
    Private = 4,
}

impl Tag {
    pub fn from_bits(b: u64) -> Option<Tag> {
        match b {
            1 => Some(Tag::Global),
            2 => Some(Tag::Constant),
            3 => Some(Tag::Local),
            4 => Some(Tag::Private),
            _ => None,
        }
    }

    pub fn of_space(s: AddrSpace) -> Option<Tag> {
        match s {
            AddrSpace::Global => Some(Tag::Global),
            AddrSpace::Constant => Some(Tag::Constant),
            AddrSpace::Local => Some(Tag::Local),
            AddrSpace::Private => Some(Tag::Private),
            AddrSpace::Generic => None,
        }
    }

    pub fn space(self) -> AddrSpace {
        match self {
            Tag::Global => AddrSpace::Global,
            Tag::Constant => AddrSpace::Constant,
            Tag::Local => AddrSpace::Local,
            Tag::Private => AddrSpace::Private,
        }
    }
}

pub fn make(tag: Tag, alloc: u32, offset: u64) -> u64 {
    ((tag as u64) << TAG_SHIFT)
        | (((alloc as u64) & ALLOC_MASK) << ALLOC_SHIFT)
        | (offset & OFFSET_MASK)
}

pub fn tag(p: u64) -> Option<Tag> {
    Tag::from_bits(p >> TAG_SHIFT)
}

/// The smallest raw address: values below it (NULL plus a small offset, as
/// `&((struct s *)0)->field` makes) stay NULL pointers.
pub const RAW_MIN: u64 = 4096;
/// The address bits of a raw pointer.
pub const RAW_MASK: u64 = (1 << BAD_SHIFT) - 1;

/// The address of a raw (SVM) pointer: one with no space tag whose address is at least
/// [`RAW_MIN`]; `None` for tagged pointers and NULL.
#[inline(always)]
pub fn raw(p: u64) -> Option<u64> {
    let a = p & RAW_MASK;
    (p >> TAG_SHIFT == 0 && a >= RAW_MIN).then_some(a)
}

/// The space a pointer points into: its tag, or `__global` for a raw (SVM) address.
pub fn space_tag(p: u64) -> Option<Tag> {
    tag(p).or_else(|| raw(p).map(|_| Tag::Global))
}

/// The space a generic pointer was explicitly cast to when it did not point there.
pub fn bad_cast(p: u64) -> Option<Tag> {
    Tag::from_bits((p >> BAD_SHIFT) & 7)
}

pub fn alloc(p: u64) -> usize {
    ((p >> ALLOC_SHIFT) & ALLOC_MASK) as usize
}

pub fn offset(p: u64) -> u64 {
    p & OFFSET_MASK
}

/// The owner of a work-item's private memory as its pointers carry it: the allocation field
/// of a `__private` pointer holds the owner's local linear index in its high bits and the
/// allocation id in the low ones, split by the work-group size (a group of 256 leaves 10 id
/// bits: 1024 live allocations per work-item), so that a private pointer handed to another
/// work-item of the group (through local or global memory) is caught when dereferenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrivKey {
    owner: u32,
    id_bits: u32,
}

impl Default for PrivKey {
    /// Work-item 0 of a one-item group: every bit of the field is the allocation id.
    fn default() -> PrivKey {
        PrivKey {
            owner: 0,
            id_bits: ALLOC_BITS,
        }
    }
}

impl PrivKey {
    /// The key of the work-item with local linear index `owner` in a group of `items`.
    pub fn new(owner: u32, items: u64) -> PrivKey {
        let owner_bits = 64 - items.saturating_sub(1).leading_zeros();
        PrivKey {
            owner,
            id_bits: ALLOC_BITS.saturating_sub(owner_bits),
        }
    }

    /// A pointer to byte `offset` of this work-item's private allocation `id`.
    pub fn make(self, id: u32, offset: u64) -> u64 {
        let field = ((self.owner as u64) << self.id_bits) | (id as u64 & self.id_mask());
        make(Tag::Private, field as u32, offset)
    }

    #[inline(always)]
    fn id_mask(self) -> u64 {
        (1u64 << self.id_bits) - 1
    }

    /// The allocation id of a private pointer (its owner bits dropped).
    #[inline(always)]
    pub fn id(self, p: u64) -> usize {
        (((p >> ALLOC_SHIFT) & ALLOC_MASK) & self.id_mask()) as usize
    }

    /// Whether the private pointer `p` points into this work-item's memory.
    #[inline(always)]
    pub fn owns(self, p: u64) -> bool {
        ((p >> ALLOC_SHIFT) & ALLOC_MASK) >> self.id_bits == self.owner as u64
    }

    /// The local linear index of the work-item that owns the private pointer `p`.
    pub fn owner_of(self, p: u64) -> u32 {
        (((p >> ALLOC_SHIFT) & ALLOC_MASK) >> self.id_bits) as u32
    }

    /// The local linear index of this key's work-item.
    pub fn owner(self) -> u32 {
        self.owner
    }

    /// Most live private allocations one work-item may have.
    pub fn max_allocs(self) -> usize {
        1 << self.id_bits
    }
}

/// An offset field read as signed (pointer arithmetic below an allocation wraps the field).
pub fn signed_offset(off: u64) -> i64 {
    let sh = 64 - ALLOC_SHIFT;
    (((off & OFFSET_MASK) << sh) as i64) >> sh
}

/// `p + delta` bytes. The offset stays inside its field, so arithmetic never moves a pointer
/// into another allocation; a result beyond the field's signed range saturates at its end,
/// which every access reports as out of bounds (rather than wrapping back into the object).
pub fn add(p: u64, delta: i64) -> u64 {
    if p >> TAG_SHIFT == 0 && p & RAW_MASK >= RAW_MIN {
        // A raw address moves as an address (its wrong-cast mark kept).
        return (p & !RAW_MASK) | ((p & RAW_MASK).wrapping_add(delta as u64) & RAW_MASK);
    }
    const LIMIT: i128 = 1 << (ALLOC_SHIFT - 1);
    let new = (signed_offset(p) as i128 + delta as i128).clamp(-LIMIT, LIMIT - 1) as i64;
    (p & !OFFSET_MASK) | (new as u64 & OFFSET_MASK)
}

/// `p + index * scale` bytes (array indexing), without overflow in the product.
pub fn add_scaled(p: u64, index: i64, scale: u64) -> u64 {
    let bytes = (index as i128 * scale as i128).clamp(i64::MIN as i128, i64::MAX as i128);
    add(p, bytes as i64)
}

/// Byte difference `a - b`: offsets when both point into one allocation, raw bits otherwise.
pub fn diff(a: u64, b: u64) -> i64 {
    if a & !OFFSET_MASK == b & !OFFSET_MASK {
        offset(a) as i64 - offset(b) as i64
    } else {
        a.wrapping_sub(b) as i64
    }
}

/// An explicit generic-to-named cast: NULL stays NULL, a pointer into the space is unchanged,
/// any other pointer is marked so that accessing through it reports the wrong cast.
pub fn from_generic(p: u64, s: AddrSpace) -> u64 {
    let Some(want) = Tag::of_space(s) else {
        return p;
    };
    if p == 0 || space_tag(p) == Some(want) {
        p
    } else {
        (p & !(7 << BAD_SHIFT)) | ((want as u64) << BAD_SHIFT)
    }
}

/// `to_global`/`to_local`/`to_private`: the pointer if it points into the space, else NULL.
pub fn space_test(p: u64, s: AddrSpace) -> u64 {
    match Tag::of_space(s) {
        Some(want) if space_tag(p) == Some(want) => p & !(7 << BAD_SHIFT),
        _ => 0,
    }
}

pub const CLK_LOCAL_MEM_FENCE: u64 = 1;
pub const CLK_GLOBAL_MEM_FENCE: u64 = 2;

/// `get_fence`: the fence flag of the space the pointer points into.
pub fn get_fence(p: u64) -> u64 {
    match space_tag(p) {
        Some(Tag::Global) => CLK_GLOBAL_MEM_FENCE,
        Some(Tag::Local) => CLK_LOCAL_MEM_FENCE,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let p = make(Tag::Local, 5, 12);
        assert_eq!(tag(p), Some(Tag::Local));
        assert_eq!(alloc(p), 5);
        assert_eq!(offset(p), 12);
        assert_eq!(bad_cast(p), None);
    }

    #[test]
    fn arithmetic_stays_in_allocation() {
        let p = make(Tag::Global, 3, 0);
        let q = add(p, -1);
        assert_eq!(alloc(q), 3);
        assert_eq!(tag(q), Some(Tag::Global));
        assert_eq!(offset(q), OFFSET_MASK);
        assert_eq!(diff(add(p, 40), p), 40);
    }

    #[test]
    fn space_casts_are_exact() {
        let g = make(Tag::Global, 1, 8);
        assert_eq!(space_test(g, AddrSpace::Global), g);
        assert_eq!(space_test(g, AddrSpace::Local), 0);
        assert_eq!(space_test(g, AddrSpace::Private), 0);
        assert_eq!(space_test(0, AddrSpace::Global), 0);
        assert_eq!(from_generic(0, AddrSpace::Local), 0);
        assert_eq!(from_generic(g, AddrSpace::Global), g);
        let bad = from_generic(g, AddrSpace::Local);
        assert_eq!(bad_cast(bad), Some(Tag::Local));
        assert_eq!(tag(bad), Some(Tag::Global));
        assert_eq!(get_fence(g), CLK_GLOBAL_MEM_FENCE);
        assert_eq!(get_fence(make(Tag::Local, 0, 0)), CLK_LOCAL_MEM_FENCE);
        assert_eq!(get_fence(make(Tag::Private, 0, 0)), 0);
        assert_eq!(get_fence(0), 0);
    }
}

#[cfg(test)]
mod priv_key_tests {
    use super::*;

    #[test]
    fn private_pointers_name_their_owner() {
        let (a, b) = (PrivKey::new(3, 256), PrivKey::new(200, 256));
        assert_eq!(a.max_allocs(), 1024);
        let p = a.make(7, 12);
        assert_eq!(tag(p), Some(Tag::Private));
        assert_eq!((a.id(p), offset(p)), (7, 12));
        assert!(a.owns(p) && !b.owns(p));
        assert_eq!(b.owner_of(p), 3);
        // Arithmetic keeps the owner.
        assert!(a.owns(add(p, -100)) && !b.owns(add(p, 100)));
        let one = PrivKey::new(0, 1);
        assert_eq!(one, PrivKey::default());
        assert_eq!(one.max_allocs(), MAX_ALLOCS);
        let big = PrivKey::new(1023, 1024);
        assert_eq!(big.max_allocs(), 256);
        let q = big.make(255, 0);
        assert_eq!((big.id(q), big.owner_of(q)), (255, 1023));
        assert!(big.owns(q) && !PrivKey::new(511, 1024).owns(q));
    }
}

#[cfg(test)]
mod raw_tests {
    use super::*;

    #[test]
    fn raw_addresses_are_global_and_move_as_addresses() {
        let h = 0x7f12_3456_7890u64;
        assert_eq!(raw(h), Some(h));
        assert_eq!(
            (raw(0), raw(16), raw(make(Tag::Global, 1, 8))),
            (None, None, None)
        );
        assert_eq!(space_tag(h), Some(Tag::Global));
        // Crossing a 2^40 boundary carries into the address, unlike a tagged offset.
        assert_eq!(add(0xff_ffff_fff8, 16), 0x100_0000_0008);
        assert_eq!(add(h, -0x10), h - 0x10);
        assert_eq!(diff(add(h, 24), h), 24);
        assert_eq!(space_test(h, AddrSpace::Global), h);
        assert_eq!(space_test(h, AddrSpace::Local), 0);
        assert_eq!(from_generic(h, AddrSpace::Global), h);
        let bad = from_generic(h, AddrSpace::Local);
        assert_eq!((bad_cast(bad), raw(bad)), (Some(Tag::Local), Some(h)));
        assert_eq!(raw(add(bad, 4)), Some(h + 4));
        assert_eq!(get_fence(h), CLK_GLOBAL_MEM_FENCE);
        // NULL plus a small offset stays NULL-derived, not raw.
        assert_eq!(raw(add(0, 8)), None);
    }
}

#[cfg(test)]
mod saturation_tests {
    use super::*;

    #[test]
    fn huge_offsets_saturate_instead_of_wrapping() {
        let p = make(Tag::Global, 3, 0);
        assert_eq!(offset(add(p, 20)), 20);
        assert_eq!(signed_offset(offset(add(p, -4))), -4);
        let far = add_scaled(p, 0x1000_0000_0000, 4);
        assert_eq!(alloc(far), 3);
        assert_eq!(signed_offset(offset(far)), (1 << (ALLOC_SHIFT - 1)) - 1);
        assert_ne!(offset(far), 0);
        let below = add(p, i64::MIN);
        assert_eq!(signed_offset(offset(below)), -(1 << (ALLOC_SHIFT - 1)));
    }
}
