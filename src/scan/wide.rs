//! The scan of UTF-16 and UTF-32 (and of single-byte encodings, which count every byte
//! but the undefined ones): whole 64-byte chunks without a surrogate (or, in UTF-32,
//! without any code unit that is not a scalar) are counted 32 (16) scalars at a time; the
//! rest is decoded code unit by code unit.
//!
//! The test for a chunk reads it as eight 64-bit words and asks, without a branch per code
//! unit, whether any UTF-16 code unit's high byte is D8..DF (SWAR: the bytes that match
//! become zero, and the exact zero-byte test of each word is folded into one flag); UTF-32
//! compares every code unit against the two excluded ranges. Both compile to straight-line
//! code that the compiler vectorizes. A UTF-16 chunk with surrogates that all pair inside it
//! (text with emoji) is counted from two 32-bit masks, of high and of low surrogates: they
//! pair exactly when the mask of lows is the mask of highs shifted by one. Any other chunk is
//! decoded by
//! [`Dialect::decode_at`], which reads past the chunk where a pair straddles its end; the
//! next chunk starts where that unit ends. The proptests in `scan::tests` hold the result
//! equal to [`Dialect::units`] however the input is cut into ranges.

use super::{ClassCounts, Sink};
use crate::decode::{ByteTable, Dialect, ErrorKind, Unit};

/// Bytes the fast path tests at once.
const CHUNK: usize = 64;

/// Scans the units that start in `start..stop` (`start` a unit boundary) in a UTF-16 or
/// UTF-32 dialect: errors one by one through [`Sink::unit`], scalars counted in bulk.
pub(super) fn scan_wide<S: Sink>(
    dialect: Dialect,
    bytes: &[u8],
    start: usize,
    stop: usize,
    sink: &mut S,
) {
    let clean: fn(&[u8; CHUNK]) -> bool = match dialect {
        Dialect::Utf16Le => |c| !has_surrogate16(c, HIGH_BYTES_LE),
        Dialect::Utf16Be => |c| !has_surrogate16(c, HIGH_BYTES_BE),
        Dialect::Utf32Le => |c| all_scalars32(c, u32::from_le_bytes),
        _ => |c| all_scalars32(c, u32::from_be_bytes),
    };
    let per_chunk = (CHUNK / dialect.code_unit_width().unwrap_or(2)) as u64;
    let class = dialect.code_unit_width().unwrap_or(2);
    // The byte of a UTF-16 code unit that tells a surrogate: the second in little-endian.
    let high_byte = match dialect {
        Dialect::Utf16Le => Some(1),
        Dialect::Utf16Be => Some(0),
        _ => None,
    };
    let mut classes = ClassCounts::default();
    let mut pos = start;
    while pos < stop {
        while let Some(chunk) = bytes
            .get(pos..pos + CHUNK)
            .filter(|_| pos + CHUNK <= stop)
            .and_then(|c| <&[u8; CHUNK]>::try_from(c).ok())
        {
            if clean(chunk) {
                classes[class] += per_chunk;
            } else if let Some(pairs) = high_byte.and_then(|h| paired16(chunk, h)) {
                classes[4] += pairs;
                classes[2] += per_chunk - 2 * pairs;
            } else {
                break;
            }
            pos += CHUNK;
        }
        let until = (pos + CHUNK).min(stop);
        while pos < until {
            let unit = dialect.decode_at(bytes, pos);
            if unit.is_error() {
                sink.unit(bytes, &unit);
            } else {
                classes[unit.len as usize] += 1;
            }
            pos = unit.end();
        }
    }
    sink.scalars(&classes);
}

/// Scans `start..stop` in a single-byte encoding: each byte one unit; the bytes the
/// encoding leaves undefined are reported one by one, the rest counted.
pub(super) fn scan_single_byte<S: Sink>(
    table: &ByteTable,
    bytes: &[u8],
    start: usize,
    stop: usize,
    sink: &mut S,
) {
    let undefined = table.undefined();
    let mut errors = 0u64;
    if undefined.contains(&true) {
        for (i, &b) in bytes[start..stop].iter().enumerate() {
            if undefined[b as usize] {
                sink.unit(bytes, &Unit::error_at(start + i, ErrorKind::UndefinedByte));
                errors += 1;
            }
        }
    }
    let mut classes = ClassCounts::default();
    classes[1] = (stop - start) as u64 - errors;
    sink.scalars(&classes);
}

/// The high byte of each little-endian (big-endian) UTF-16 code unit in a 64-bit word read
/// little-endian: its top bit.
const HIGH_BYTES_LE: u64 = 0x8000_8000_8000_8000;
const HIGH_BYTES_BE: u64 = 0x0080_0080_0080_0080;

/// Whether any code unit of the chunk is a surrogate (high byte D8..DF).
#[inline(always)]
fn has_surrogate16(chunk: &[u8; CHUNK], high_bytes: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut found = 0u64;
    for word in chunk.chunks_exact(8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        // A byte D8..DF becomes 00; every other byte something else.
        let t = (w & (0xF8 * ONES)) ^ (0xD8 * ONES);
        // The top bit of each byte: set exactly where the byte is not zero.
        let nonzero = ((t & (0x7F * ONES)) + 0x7F * ONES) | t;
        found |= !nonzero & high_bytes;
    }
    found != 0
}

/// The number of surrogate pairs in a UTF-16 chunk whose surrogates all pair within it (every
/// high surrogate followed by a low one, every low one after a high one); `None` if one does
/// not, or if the last code unit is a high surrogate (its pair is for the decoder to see).
/// `high` is the index of the byte of a code unit that tells a surrogate.
#[inline(always)]
fn paired16(chunk: &[u8; CHUNK], high: usize) -> Option<u64> {
    let (mut highs, mut lows) = (0u32, 0u32);
    for i in 0..CHUNK / 2 {
        let b = chunk[2 * i + high] & 0xFC;
        highs |= u32::from(b == 0xD8) << i;
        lows |= u32::from(b == 0xDC) << i;
    }
    (lows == highs << 1 && highs >> 31 == 0).then_some(u64::from(highs.count_ones()))
}

/// Whether every code unit of the chunk is a Unicode scalar value.
#[inline(always)]
fn all_scalars32(chunk: &[u8; CHUNK], read: fn([u8; 4]) -> u32) -> bool {
    let mut bad = false;
    for unit in chunk.chunks_exact(4) {
        let v = read(unit.try_into().unwrap_or([0; 4]));
        bad |= v.wrapping_sub(0xD800) < 0x800 || v > 0x10_FFFF;
    }
    !bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surrogate_test_is_exact() {
        // Every high byte value in every position of a chunk, in both byte orders.
        for b in 0..=255u8 {
            for slot in 0..32 {
                let mut le = [0x41u8; CHUNK];
                le[2 * slot + 1] = b;
                let mut be = [0x41u8; CHUNK];
                be[2 * slot] = b;
                let expected = (0xD8..=0xDF).contains(&b);
                assert_eq!(
                    has_surrogate16(&le, HIGH_BYTES_LE),
                    expected,
                    "{b:02X} {slot}"
                );
                assert_eq!(
                    has_surrogate16(&be, HIGH_BYTES_BE),
                    expected,
                    "{b:02X} {slot}"
                );
                // The low byte never counts.
                let mut low = [0x41u8; CHUNK];
                low[2 * slot] = b;
                assert!(!has_surrogate16(&low, HIGH_BYTES_LE), "{b:02X} {slot}");
            }
        }
    }

    #[test]
    fn pairs_within_a_chunk() {
        let chunk = |units: &[(usize, u16)]| {
            let mut c = [0x41u8; CHUNK];
            for (i, u) in units {
                c[2 * i..2 * i + 2].copy_from_slice(&u.to_le_bytes());
            }
            c
        };
        assert_eq!(paired16(&chunk(&[]), 1), Some(0));
        assert_eq!(paired16(&chunk(&[(0, 0xD83D), (1, 0xDE00)]), 1), Some(1));
        assert_eq!(
            paired16(
                &chunk(&[(3, 0xDBFF), (4, 0xDFFF), (29, 0xD800), (30, 0xDC00)]),
                1
            ),
            Some(2)
        );
        // lone high, lone low, low before high, a high at the end
        assert_eq!(paired16(&chunk(&[(3, 0xD800)]), 1), None);
        assert_eq!(paired16(&chunk(&[(0, 0xDC00)]), 1), None);
        assert_eq!(paired16(&chunk(&[(5, 0xDC00), (6, 0xD800)]), 1), None);
        assert_eq!(paired16(&chunk(&[(31, 0xD800)]), 1), None);
        assert_eq!(
            paired16(&chunk(&[(2, 0xD800), (3, 0xD800), (4, 0xDC00)]), 1),
            None
        );
    }

    #[test]
    fn scalar_test_is_exact() {
        for v in [
            0u32,
            0xD7FF,
            0xD800,
            0xDFFF,
            0xE000,
            0x10_FFFF,
            0x11_0000,
            u32::MAX,
        ] {
            let mut chunk = [0u8; CHUNK];
            chunk[20..24].copy_from_slice(&v.to_be_bytes());
            let expected = char::from_u32(v).is_some();
            assert_eq!(all_scalars32(&chunk, u32::from_be_bytes), expected, "{v:X}");
        }
    }
}
