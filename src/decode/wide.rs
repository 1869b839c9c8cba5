//! UTF-16 and UTF-32: the dialects whose units are built of code units of 2 and 4 bytes.
//!
//! # Units
//!
//! - UTF-16 (`utf16le`, `utf16be`): a code unit outside D800..DFFF is a 2-byte scalar; a
//!   high surrogate (D800..DBFF) followed by a low one (DC00..DFFF) is one 4-byte scalar
//!   (U+10000..U+10FFFF). A high surrogate not followed by a low one is a 2-byte
//!   `unpaired_high_surrogate`; a low surrogate not preceded by a high one is a 2-byte
//!   `unpaired_low_surrogate`. One byte left at the end of the input is a `truncated_unit`.
//! - UTF-32 (`utf32le`, `utf32be`): every 4 bytes are one code unit, a scalar if its value
//!   is at most U+10FFFF and not a surrogate; else `surrogate_unit` or `out_of_range`. One
//!   to three bytes left at the end are a `truncated_unit`.
//!
//! These are the units encoding_rs (UTF-16) and Python's `utf-32-le`/`utf-32-be` codecs
//! (UTF-32) decode: the same scalars, and one U+FFFD for each error unit
//! (`tests/encoding_oracle.rs` holds them equal over random inputs).
//!
//! # Resync
//!
//! Code units start at offsets that are multiples of their width *counted from the start
//! of the input*: the byte at offset `x` belongs to the code unit at `x & !1` (UTF-16) or
//! `x & !3` (UTF-32). That is all UTF-32 needs (at most 3 bytes back). In UTF-16, a low
//! surrogate is the second half of a pair exactly when the code unit before it is a high
//! surrogate (a high surrogate is always the start of a unit), so resync reads one more
//! code unit back: at most 3 bytes before `x` in all (1 to align, 2 for the code unit
//! before), and 2 bytes after the aligned code unit to see whether a high surrogate pairs.
//! Because alignment counts from the start of the slice, a caller that decodes part of a
//! file must hand in a slice that starts at an offset of the file that is a multiple of 4.

use super::dialect::Dialect;
use super::unit::{ErrorKind, Unit};

/// The byte order of a dialect's code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

impl Dialect {
    /// The width in bytes of this dialect's code units: 2 in UTF-16, 4 in UTF-32, 1 in a
    /// single-byte or multi-byte legacy encoding (bytes), `None` in the UTF-8 family (whose units are built of single
    /// bytes by lead and continuation bytes).
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// assert_eq!(Dialect::Utf16Le.code_unit_width(), Some(2));
    /// assert_eq!(Dialect::Utf32Be.code_unit_width(), Some(4));
    /// assert_eq!(Dialect::Utf8.code_unit_width(), None);
    /// ```
    pub const fn code_unit_width(self) -> Option<usize> {
        match self {
            Dialect::SingleByte(_) | Dialect::MultiByte(_) => Some(1),
            Dialect::Utf16Le | Dialect::Utf16Be => Some(2),
            Dialect::Utf32Le | Dialect::Utf32Be => Some(4),
            _ => None,
        }
    }

    const fn order(self) -> Order {
        match self {
            Dialect::Utf16Be | Dialect::Utf32Be => Order::Big,
            _ => Order::Little,
        }
    }

    /// The UTF-16 code unit at `at` (which must have 2 readable bytes).
    #[inline(always)]
    pub(crate) fn code_unit16(self, bytes: &[u8], at: usize) -> u16 {
        let pair = [bytes[at], bytes[at + 1]];
        match self.order() {
            Order::Little => u16::from_le_bytes(pair),
            Order::Big => u16::from_be_bytes(pair),
        }
    }

    /// The UTF-32 code unit at `at` (which must have 4 readable bytes).
    #[inline(always)]
    pub(crate) fn code_unit32(self, bytes: &[u8], at: usize) -> u32 {
        let quad = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        match self.order() {
            Order::Little => u32::from_le_bytes(quad),
            Order::Big => u32::from_be_bytes(quad),
        }
    }

    /// The unit starting at `at` in a UTF-16 or UTF-32 dialect; `at` must be a unit
    /// boundary (a multiple of the code unit width, not the low half of a pair).
    #[inline]
    pub(crate) fn decode_wide_at(self, bytes: &[u8], at: usize) -> Unit {
        match self {
            Dialect::Utf32Le | Dialect::Utf32Be => return self.decode_utf32_at(bytes, at),
            Dialect::SingleByte(table) => return table.unit(bytes, at),
            // Only ISO-2022-JP needs the state at `at`, from the escape sequence before it.
            Dialect::MultiByte(t) if t.family() == super::multibyte::Family::Iso2022Jp => {
                return self.resync(bytes, at, None).unit
            }
            Dialect::MultiByte(t) => return t.decode(bytes, at, Default::default()).0,
            _ => {}
        }
        let left = bytes.len() - at;
        if left < 2 {
            return Unit::error(at, left as u8, ErrorKind::TruncatedUnit);
        }
        let unit = self.code_unit16(bytes, at);
        match unit {
            0xD800..=0xDBFF => {
                if left >= 4 {
                    let next = self.code_unit16(bytes, at + 2);
                    if (0xDC00..=0xDFFF).contains(&next) {
                        let value =
                            0x1_0000 + (((unit as u32) - 0xD800) << 10) + (next as u32 - 0xDC00);
                        return Unit::scalar(at, 4, value);
                    }
                }
                Unit::error(at, 2, ErrorKind::UnpairedHighSurrogate)
            }
            0xDC00..=0xDFFF => Unit::error(at, 2, ErrorKind::UnpairedLowSurrogate),
            _ => Unit::scalar(at, 2, unit as u32),
        }
    }

    fn decode_utf32_at(self, bytes: &[u8], at: usize) -> Unit {
        let left = bytes.len() - at;
        if left < 4 {
            return Unit::error(at, left as u8, ErrorKind::TruncatedUnit);
        }
        match self.code_unit32(bytes, at) {
            0xD800..=0xDFFF => Unit::error(at, 4, ErrorKind::SurrogateUnit),
            value @ 0..=0x10_FFFF => Unit::scalar(at, 4, value),
            _ => Unit::error(at, 4, ErrorKind::OutOfRange),
        }
    }

    /// The unit containing `offset` in a UTF-16 or UTF-32 dialect: see the module docs for
    /// how far back it reads.
    pub(crate) fn wide_unit_containing(self, bytes: &[u8], offset: usize, width: usize) -> Unit {
        if let Dialect::MultiByte(_) = self {
            return self.resync(bytes, offset, None).unit;
        }
        let aligned = offset & !(width - 1);
        if width == 2 && aligned >= 2 && bytes.len() - aligned >= 2 {
            let here = self.code_unit16(bytes, aligned);
            let before = self.code_unit16(bytes, aligned - 2);
            if (0xDC00..=0xDFFF).contains(&here) && (0xD800..=0xDBFF).contains(&before) {
                return self.decode_wide_at(bytes, aligned - 2);
            }
        }
        self.decode_wide_at(bytes, aligned)
    }
}

/// `text` in the wide dialect `d` (UTF-16LE/BE with surrogate pairs, UTF-32LE/BE), from
/// Rust's own `encode_utf16` and `char` values, not this crate's encoder: the unit tests'
/// byte builder (`tests/support/wide.rs` is the integration tests').
#[cfg(test)]
pub(crate) fn text_bytes(d: Dialect, text: &str) -> Vec<u8> {
    let values: Vec<u32> = match d {
        Dialect::Utf16Le | Dialect::Utf16Be => text.encode_utf16().map(u32::from).collect(),
        _ => text.chars().map(u32::from).collect(),
    };
    let bytes = |v: u32| match d {
        Dialect::Utf16Le => (v as u16).to_le_bytes().to_vec(),
        Dialect::Utf16Be => (v as u16).to_be_bytes().to_vec(),
        Dialect::Utf32Le => v.to_le_bytes().to_vec(),
        _ => v.to_be_bytes().to_vec(),
    };
    values.into_iter().flat_map(bytes).collect()
}

#[cfg(test)]
mod tests {
    use crate::decode::{Dialect, ErrorKind, UnitKind};

    /// (start, len, "U+XXXX" or kind name) for every unit.
    fn summary(d: Dialect, bytes: &[u8]) -> Vec<(usize, u8, String)> {
        d.units(bytes)
            .map(|u| {
                let what = match u.kind {
                    UnitKind::Scalar(cp) => cp.to_string(),
                    UnitKind::Error(k) => k.name().to_string(),
                };
                (u.start, u.len, what)
            })
            .collect()
    }

    fn s(start: usize, len: u8, what: &str) -> (usize, u8, String) {
        (start, len, what.to_string())
    }

    #[test]
    fn utf16le_units() {
        let d = Dialect::Utf16Le;
        // "a", U+1F600 as D83D DE00, "é"
        let bytes = b"a\x00\x3D\xD8\x00\xDE\xE9\x00";
        assert_eq!(
            summary(d, bytes),
            [s(0, 2, "U+0061"), s(2, 4, "U+1F600"), s(6, 2, "U+00E9")]
        );
        // a high surrogate before "a"; a low surrogate alone; one byte left over
        let bytes = b"\x3D\xD8a\x00\x00\xDEz";
        assert_eq!(
            summary(d, bytes),
            [
                s(0, 2, "unpaired_high_surrogate"),
                s(2, 2, "U+0061"),
                s(4, 2, "unpaired_low_surrogate"),
                s(6, 1, "truncated_unit"),
            ]
        );
        // a high surrogate at the very end, and one before another high surrogate
        assert_eq!(
            summary(d, b"\x3D\xD8\x3D\xD8\x00\xDE\x3D\xD8"),
            [
                s(0, 2, "unpaired_high_surrogate"),
                s(2, 4, "U+1F600"),
                s(6, 2, "unpaired_high_surrogate"),
            ]
        );
        // a high surrogate followed by a cut code unit
        assert_eq!(
            summary(d, b"\x3D\xD8\x00"),
            [
                s(0, 2, "unpaired_high_surrogate"),
                s(2, 1, "truncated_unit")
            ]
        );
    }

    #[test]
    fn utf16be_units() {
        let d = Dialect::Utf16Be;
        assert_eq!(
            summary(d, b"\x00a\xD8\x3D\xDE\x00\xFF\xFE"),
            [s(0, 2, "U+0061"), s(2, 4, "U+1F600"), s(6, 2, "U+FFFE")]
        );
        assert_eq!(
            summary(d, b"\xDC\x00\xDB\xFF"),
            [
                s(0, 2, "unpaired_low_surrogate"),
                s(2, 2, "unpaired_high_surrogate")
            ]
        );
        assert_eq!(summary(d, b"\xDB\xFF\xDF\xFF"), [s(0, 4, "U+10FFFF")]);
    }

    #[test]
    fn utf32_units() {
        let le = Dialect::Utf32Le;
        assert_eq!(
            summary(le, b"a\x00\x00\x00\x00\xF6\x01\x00\xFF\xFF\x10\x00"),
            [s(0, 4, "U+0061"), s(4, 4, "U+1F600"), s(8, 4, "U+10FFFF")]
        );
        assert_eq!(
            summary(le, b"\x00\xD8\x00\x00\x00\x00\x11\x00\xFF\xFF\xFF\xFFab"),
            [
                s(0, 4, "surrogate_unit"),
                s(4, 4, "out_of_range"),
                s(8, 4, "out_of_range"),
                s(12, 2, "truncated_unit"),
            ]
        );
        let be = Dialect::Utf32Be;
        assert_eq!(
            summary(be, b"\x00\x01\xF6\x00\x00\x00\xDF\xFF\x00"),
            [
                s(0, 4, "U+1F600"),
                s(4, 4, "surrogate_unit"),
                s(8, 1, "truncated_unit")
            ]
        );
    }

    #[test]
    fn resync_reads_one_code_unit_back() {
        let d = Dialect::Utf16Le;
        // lone low surrogate at 2, then a pair at 4..8
        let bytes = b"a\x00\x00\xDE\x3D\xD8\x00\xDE";
        let at = |x: usize| {
            let u = d.unit_containing(bytes, x);
            (u.start, u.len, u.error_kind())
        };
        assert_eq!(at(1), (0, 2, None));
        assert_eq!(at(3), (2, 2, Some(ErrorKind::UnpairedLowSurrogate)));
        assert_eq!(at(6), (4, 4, None));
        assert_eq!(at(7), (4, 4, None));
        assert_eq!(d.max_lookback(), 3);
        assert_eq!(Dialect::Utf32Be.max_lookback(), 3);
    }
}
