//! FNV-1a (32-bit): the hash of the lexer's spelling cache and of the name tables built at
//! compile time (predefined macros, extension names), so `const fn`.

/// The hash of the empty string.
pub const START: u32 = 0x811c_9dc5;

/// `h` extended by byte `b`.
#[inline]
pub const fn step(h: u32, b: u8) -> u32 {
    (h ^ b as u32).wrapping_mul(0x0100_0193)
}

/// The hash of `s`.
pub const fn hash(s: &[u8]) -> u32 {
    let mut h = START;
    let mut i = 0;
    while i < s.len() {
        h = step(h, s[i]);
        i += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // The reference FNV-1a 32-bit test vectors.
        assert_eq!(super::hash(b""), 0x811c_9dc5);
        assert_eq!(super::hash(b"a"), 0xe40c_292c);
        assert_eq!(super::hash(b"foobar"), 0xbf9c_f968);
    }
}
