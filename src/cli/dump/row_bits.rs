//! What a whole row of `dump` ([`super::fast`]) takes from all its bytes at once: its hex
//! pane and which of its bytes are plain (printed as themselves, one style for all).
//!
//! Found 16 bytes at a time in vector registers where the processor has SSSE3 and SSE4.1
//! (every one with AVX2 does, and the fast path is compiled for AVX2), else byte by byte;
//! the tests hold the two equal to each other and to the byte-by-byte definitions.

use super::HEX_SPACE;

/// A row's hex pane and its plain bytes, for a row of up to 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RowBits {
    /// Each byte's two hex digits and a space, in the first `3 * W` bytes for a row of `W`
    /// (the rest are 0).
    pub(super) hex: [u8; 96],
    /// Bit `k` set if the byte in column `k` is in `lo..=7E` ([`RowBits::of`]).
    pub(super) plain: u32,
}

impl RowBits {
    /// The first `W` bytes (8, 16 or 32) of `row`, the plain ones `lo..=7E` (none if `lo`
    /// is `7F` or more), byte by byte.
    #[inline(always)]
    pub(super) fn of<const W: usize>(row: &[u8; 32], lo: u8) -> RowBits {
        const { assert!(W == 8 || W == 16 || W == 32) };
        let mut bits = RowBits {
            hex: [0; 96],
            plain: 0,
        };
        for (k, &b) in row[..W].iter().enumerate() {
            bits.hex[3 * k..][..3].copy_from_slice(&HEX_SPACE[b as usize][..3]);
            bits.plain |= ((lo..0x7F).contains(&b) as u32) << k;
        }
        bits
    }
}

/// [`RowBits::of`] in vector registers: each half of 16 bytes split into nibbles, each
/// nibble's digit looked up by a shuffle, and the digits shuffled into place between
/// spaces; the plain bytes by two comparisons.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn of_x86<const W: usize>(row: &[u8; 32], lo: u8) -> RowBits {
    use std::arch::x86_64::*;
    const { assert!(W == 8 || W == 16 || W == 32) };
    let vector = |b: &[u8; 16]| {
        let half = |k: usize| i64::from_le_bytes(b[8 * k..][..8].try_into().unwrap_or([0; 8]));
        _mm_set_epi64x(half(1), half(0))
    };
    let digits = vector(b"0123456789abcdef");
    let nibble = _mm_set1_epi8(0x0F);
    // `lo - 1 < b` as signed bytes leaves out 80..FF; 7F is left out by itself.
    let above = _mm_set1_epi8(lo.wrapping_sub(1) as i8);
    let del = _mm_set1_epi8(0x7F);
    let mut bits = RowBits {
        hex: [0; 96],
        plain: 0,
    };
    for half in 0..W.div_ceil(16) {
        let block: &[u8; 16] = row[16 * half..][..16].try_into().unwrap_or(&[0; 16]);
        let v = vector(block);
        let high = _mm_shuffle_epi8(digits, _mm_and_si128(_mm_srli_epi16::<4>(v), nibble));
        let low = _mm_shuffle_epi8(digits, _mm_and_si128(v, nibble));
        for (k, [from_high, from_low, spaces]) in SPREAD.iter().enumerate() {
            let chunk = _mm_or_si128(
                _mm_or_si128(
                    _mm_shuffle_epi8(high, vector(from_high)),
                    _mm_shuffle_epi8(low, vector(from_low)),
                ),
                vector(spaces),
            );
            let out = &mut bits.hex[48 * half + 16 * k..][..16];
            out[..8].copy_from_slice(&_mm_extract_epi64::<0>(chunk).to_le_bytes());
            out[8..].copy_from_slice(&_mm_extract_epi64::<1>(chunk).to_le_bytes());
        }
        let plain = _mm_andnot_si128(_mm_cmpeq_epi8(v, del), _mm_cmpgt_epi8(v, above));
        bits.plain |= (_mm_movemask_epi8(plain) as u32 & 0xFFFF) << (16 * half);
    }
    if W < 16 {
        // Only the first W bytes are the row's.
        bits.plain &= (1 << W) - 1;
        bits.hex[3 * W..].fill(0);
    }
    bits
}

/// For each 16 bytes of the hex pane of 16 bytes (48 in all): which byte's high digit goes
/// to each place, which byte's low digit, and the spaces (`80` selects nothing).
#[cfg(target_arch = "x86_64")]
const SPREAD: [[[u8; 16]; 3]; 3] = {
    let mut spread = [[[0x80; 16], [0x80; 16], [0; 16]]; 3];
    let mut at = 0;
    while at < 48 {
        let (chunk, place, byte) = (at / 16, at % 16, (at / 3) as u8);
        match at % 3 {
            0 => spread[chunk][0][place] = byte,
            1 => spread[chunk][1][place] = byte,
            _ => spread[chunk][2][place] = b' ',
        }
        at += 1;
    }
    spread
};

#[cfg(test)]
mod tests {
    use super::RowBits;

    /// Rows of every byte in every column, and random ones, each plain range.
    fn rows() -> Vec<[u8; 32]> {
        let mut next = crate::xorshift(0x5851_F42D_4C95_7F2D);
        let mut rows: Vec<[u8; 32]> = (0..2000)
            .map(|_| std::array::from_fn(|_| next() as u8))
            .collect();
        for b in 0..=255u8 {
            rows.push(std::array::from_fn(|k| b.wrapping_add(k as u8 * 7)));
        }
        rows
    }

    /// Byte by byte: the digits and a space for each byte, the plain bits of `lo..=7E`.
    #[test]
    fn bits_of_a_row_are_each_bytes() {
        for row in rows() {
            for lo in [0x20, 0x21, 0x7F] {
                let bits = RowBits::of::<32>(&row, lo);
                for (k, &b) in row.iter().enumerate() {
                    let hex = format!("{b:02x} ");
                    assert_eq!(&bits.hex[3 * k..3 * k + 3], hex.as_bytes(), "{row:02x?}");
                    let plain = (lo..=0x7E).contains(&b);
                    assert_eq!(bits.plain >> k & 1 == 1, plain, "{row:02x?} {k} {lo:x}");
                }
                let eight = RowBits::of::<8>(&row, lo);
                assert_eq!(eight.plain, bits.plain & 0xFF);
                assert_eq!(eight.hex[..24], bits.hex[..24]);
                assert!(eight.hex[24..].iter().all(|&b| b == 0));
                let sixteen = RowBits::of::<16>(&row, lo);
                assert_eq!(sixteen.plain, bits.plain & 0xFFFF);
                assert_eq!(sixteen.hex[..48], bits.hex[..48]);
                assert!(sixteen.hex[48..].iter().all(|&b| b == 0));
            }
        }
    }

    /// In vector registers, the same as byte by byte, for each width.
    #[test]
    fn bits_in_vectors_are_the_same() {
        #[multiversion::multiversion(targets("x86_64+ssse3+sse4.1"))]
        fn check(rows: &[[u8; 32]]) -> bool {
            #[multiversion::target::target_cfg(all(
                target_arch = "x86_64",
                target_feature = "ssse3",
                target_feature = "sse4.1"
            ))]
            #[multiversion::inherit_target]
            fn each(row: &[u8; 32], lo: u8) {
                use super::of_x86;
                assert_eq!(
                    of_x86::<8>(row, lo),
                    RowBits::of::<8>(row, lo),
                    "{row:02x?}"
                );
                assert_eq!(
                    of_x86::<16>(row, lo),
                    RowBits::of::<16>(row, lo),
                    "{row:02x?}"
                );
                assert_eq!(
                    of_x86::<32>(row, lo),
                    RowBits::of::<32>(row, lo),
                    "{row:02x?}"
                );
            }
            #[multiversion::target::target_cfg(not(all(
                target_arch = "x86_64",
                target_feature = "ssse3",
                target_feature = "sse4.1"
            )))]
            fn each(_: &[u8; 32], _: u8) {}
            for row in rows {
                for lo in [0x20, 0x21, 0x7F] {
                    each(row, lo);
                }
            }
            multiversion::target::target_cfg_f!(target_feature = "sse4.1")
        }
        let checked = check(&rows());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(checked, std::is_x86_feature_detected!("sse4.1"));
        let _ = checked;
    }
}
