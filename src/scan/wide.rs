//! The scan of UTF-16 and UTF-32 (and of single-byte encodings, which count every byte
//! but the undefined ones): whole 64-byte chunks without a surrogate (or, in UTF-32,
//! without any code unit that is not a scalar) are counted 32 (16) scalars at a time; the
//! rest is decoded code unit by code unit.
//!
//! A UTF-16 chunk is read as two 64-bit masks, one bit a byte, of the bytes that tell a high
//! and a low surrogate (SSE2 compares, `scan::simd::surrogate_masks`); keeping the bits of
//! each code unit's telling byte, its surrogates all pair exactly when the mask of lows is
//! the mask of highs shifted by one code unit, and then the chunk holds that many pairs and
//! 32 minus twice as many BMP characters: text with emoji is counted as fast as text
//! without. UTF-32 compares every code unit against the two excluded ranges, straight-line
//! code the compiler vectorizes. Any other chunk is decoded by
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
            let pairs = match high_byte {
                Some(h) => paired16(chunk, h),
                None => clean(chunk).then_some(0),
            };
            match pairs {
                Some(pairs) => {
                    classes[4] += pairs;
                    classes[class] += per_chunk - 2 * pairs;
                }
                None => break,
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

/// The number of surrogate pairs in a UTF-16 chunk whose surrogates all pair within it (every
/// high surrogate followed by a low one, every low one after a high one); `None` if one does
/// not, or if the last code unit is a high surrogate (its pair is for the decoder to see).
/// `high` is the index of the byte of a code unit that tells a surrogate.
#[inline(always)]
fn paired16(chunk: &[u8; CHUNK], high: usize) -> Option<u64> {
    // One bit a byte; only the bytes that tell a surrogate count. A low surrogate pairs with
    // the high one 2 bytes before it; the last code unit's byte is bit 62 or 63.
    let tells = if high == 1 {
        0xAAAA_AAAA_AAAA_AAAA
    } else {
        0x5555_5555_5555_5555
    };
    let (highs, lows) = super::simd::surrogate_masks(chunk);
    let (highs, lows) = (highs & tells, lows & tells);
    (lows == highs << 2 && highs >> 62 == 0).then_some(u64::from(highs.count_ones()))
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
    fn surrogate_masks_are_exact() {
        // Every byte value in every position of a chunk.
        for b in 0..=255u8 {
            for at in 0..CHUNK {
                let mut chunk = [0x41u8; CHUNK];
                chunk[at] = b;
                let (highs, lows) = super::super::simd::surrogate_masks(&chunk);
                let bit = 1u64 << at;
                assert_eq!(
                    highs,
                    if b & 0xFC == 0xD8 { bit } else { 0 },
                    "{b:02X} {at}"
                );
                assert_eq!(lows, if b & 0xFC == 0xDC { bit } else { 0 }, "{b:02X} {at}");
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
