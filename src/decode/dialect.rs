//! The dialects hexrune decodes and the role every byte value can play in each.
//!
//! A dialect is fully described by two things: the 256-entry role table below (which byte
//! values are ASCII, continuation bytes, leads of which length with which range allowed for the
//! second byte, or never valid), and a small set of surrogate rules applied in
//! [`super::decoder`] (pairs of 3-byte surrogate encodings in CESU-8, Modified UTF-8 and
//! WTF-8). Everything here is a `const` table: no allocation, no I/O.

use core::fmt;

use super::multibyte::{Family, MultiByteTable};
use super::table::ByteTable;
use super::unit::ErrorKind;

/// An encoding form of Unicode: the UTF-8 family, and UTF-16 and UTF-32 in either byte order.
///
/// | dialect  | definition | longest unit | look-back for resync |
/// |----------|------------|--------------|----------------------|
/// | `utf8`   | RFC 3629, Unicode Table 3-7 | 4 bytes | 3 bytes |
/// | `cesu8`  | Unicode TR #26: supplementary characters as two 3-byte surrogates | 6 bytes | 5 bytes |
/// | `mutf8`  | Java's Modified UTF-8: CESU-8 plus `C0 80` for U+0000 | 6 bytes | 5 bytes |
/// | `wtf8`   | WTF-8: generalized UTF-8, lone surrogates allowed, pairs must be 4 bytes | 4 bytes | 3 bytes (5 to classify a trail surrogate) |
/// | `legacy` | RFC 2279 / FSS-UTF: 1 to 6 bytes, values up to U+7FFFFFFF | 6 bytes | 5 bytes |
/// | `utf16le`, `utf16be` | UTF-16 (Unicode ch. 3.9, D91): 2-byte code units, a surrogate pair is one 4-byte unit | 4 bytes | 3 bytes (1 to align, one code unit to see a pair's high half), parity counted from the input's start |
/// | `utf32le`, `utf32be` | UTF-32 (D90): 4-byte code units up to U+10FFFF, no surrogates | 4 bytes | 3 bytes (to align), counted from the input's start |
///
/// A single-byte encoding (`Dialect::SingleByte`) has units of 1 byte and looks back 0 bytes.
///
/// The UTF-16 and UTF-32 dialects are decoded by code units (see [`Dialect::code_unit_width`]);
/// their bytes have no role on their own, and [`Dialect::role`] calls every byte
/// [`ByteRole::InCodeUnit`] there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Dialect {
    /// Strict UTF-8 (RFC 3629).
    #[default]
    Utf8,
    /// CESU-8 (Unicode Technical Report #26).
    Cesu8,
    /// Java's Modified UTF-8 (`DataInput`, JNI, class files).
    Mutf8,
    /// WTF-8 (potentially ill-formed UTF-16 stored in generalized UTF-8).
    Wtf8,
    /// The original 1 to 6 byte form of RFC 2279 / ISO 10646-1 Annex R.
    Legacy,
    /// UTF-16, little-endian code units.
    Utf16Le,
    /// UTF-16, big-endian code units.
    Utf16Be,
    /// UTF-32, little-endian code units.
    Utf32Le,
    /// UTF-32, big-endian code units.
    Utf32Be,
    /// A single-byte encoding: each byte one unit, by its table (built by
    /// `crate::encoding` from encoding_rs or oem_cp).
    SingleByte(&'static ByteTable),
    /// A multi-byte legacy encoding (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, gb18030,
    /// Big5): structure by hand, code points from its table (built by `crate::encoding`
    /// from encoding_rs). Not self-synchronizing: see `multibyte.rs` on resync.
    MultiByte(&'static MultiByteTable),
}

impl Dialect {
    /// Every dialect: the UTF-8 family, then UTF-16 and UTF-32.
    pub const ALL: [Dialect; 9] = [
        Dialect::Utf8,
        Dialect::Cesu8,
        Dialect::Mutf8,
        Dialect::Wtf8,
        Dialect::Legacy,
        Dialect::Utf16Le,
        Dialect::Utf16Be,
        Dialect::Utf32Le,
        Dialect::Utf32Be,
    ];

    /// The dialects that build units from single bytes, in the order hexrune cycles
    /// through them: what `explain` compares, and what a UTF-8 scan's verdict considers.
    pub const UTF8_FAMILY: [Dialect; 5] = [
        Dialect::Utf8,
        Dialect::Cesu8,
        Dialect::Mutf8,
        Dialect::Wtf8,
        Dialect::Legacy,
    ];

    /// The dialects with code units of 2 or 4 bytes.
    pub const WIDE: [Dialect; 4] = [
        Dialect::Utf16Le,
        Dialect::Utf16Be,
        Dialect::Utf32Le,
        Dialect::Utf32Be,
    ];

    /// The name used on the command line and in machine output.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// assert_eq!(Dialect::Mutf8.name(), "mutf8");
    /// assert_eq!(Dialect::from_name("CESU-8"), Some(Dialect::Cesu8));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Utf8 => "utf8",
            Dialect::Cesu8 => "cesu8",
            Dialect::Mutf8 => "mutf8",
            Dialect::Wtf8 => "wtf8",
            Dialect::Legacy => "legacy",
            Dialect::Utf16Le => "utf16le",
            Dialect::Utf16Be => "utf16be",
            Dialect::Utf32Le => "utf32le",
            Dialect::Utf32Be => "utf32be",
            Dialect::SingleByte(t) => t.name(),
            Dialect::MultiByte(t) => t.name(),
        }
    }

    /// The name encoding_rs and the WHATWG Encoding Standard use (`UTF-16LE`), for the
    /// dialects that have one there or by the same pattern (`UTF-32LE`); the dialect's own
    /// name in upper case for the UTF-8 family (`UTF-8`, `CESU-8`).
    pub const fn encoding_name(self) -> &'static str {
        match self {
            Dialect::Utf8 => "UTF-8",
            Dialect::Cesu8 => "CESU-8",
            Dialect::Mutf8 => "MUTF-8",
            Dialect::Wtf8 => "WTF-8",
            Dialect::Legacy => "RFC 2279",
            Dialect::Utf16Le => "UTF-16LE",
            Dialect::Utf16Be => "UTF-16BE",
            Dialect::Utf32Le => "UTF-32LE",
            Dialect::Utf32Be => "UTF-32BE",
            Dialect::SingleByte(t) => t.name(),
            Dialect::MultiByte(t) => t.name(),
        }
    }

    /// A one-line description for help screens.
    pub const fn title(self) -> &'static str {
        match self {
            Dialect::Utf8 => "UTF-8 (RFC 3629)",
            Dialect::Cesu8 => "CESU-8 (Unicode TR #26)",
            Dialect::Mutf8 => "Modified UTF-8 (Java)",
            Dialect::Wtf8 => "WTF-8",
            Dialect::Legacy => "legacy UTF-8 (RFC 2279, 1 to 6 bytes)",
            Dialect::Utf16Le => "UTF-16, little-endian",
            Dialect::Utf16Be => "UTF-16, big-endian",
            Dialect::Utf32Le => "UTF-32, little-endian",
            Dialect::Utf32Be => "UTF-32, big-endian",
            Dialect::SingleByte(t) => t.name(),
            Dialect::MultiByte(t) => t.name(),
        }
    }

    /// Parses a dialect name, ignoring case, `-`, `_` and spaces (`UTF-8`, `cesu_8`,
    /// `rfc2279` work, and every [`Dialect::encoding_name`]: `RFC 2279`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        let folded: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match folded.as_str() {
            "utf8" => Some(Dialect::Utf8),
            "cesu8" | "cesu" => Some(Dialect::Cesu8),
            "mutf8" | "modifiedutf8" | "javautf8" => Some(Dialect::Mutf8),
            "wtf8" => Some(Dialect::Wtf8),
            "legacy" | "rfc2279" | "fssutf" => Some(Dialect::Legacy),
            "utf16le" => Some(Dialect::Utf16Le),
            "utf16be" => Some(Dialect::Utf16Be),
            "utf32le" => Some(Dialect::Utf32Le),
            "utf32be" => Some(Dialect::Utf32Be),
            _ => None,
        }
    }

    /// The dialects this one is cycled with: [`Dialect::UTF8_FAMILY`] or [`Dialect::WIDE`].
    /// Empty for a single-byte or multi-byte legacy encoding, which is chosen by name, not
    /// cycled to.
    pub fn family(self) -> &'static [Dialect] {
        match self {
            Dialect::SingleByte(_) | Dialect::MultiByte(_) => &[],
            _ if self.code_unit_width().is_some() => &Dialect::WIDE,
            _ => &Dialect::UTF8_FAMILY,
        }
    }

    /// The dialect after this one in its [`Dialect::family`], wrapping around (itself for
    /// a single-byte encoding).
    pub fn next(self) -> Dialect {
        let all = self.family();
        match all.iter().position(|d| *d == self) {
            Some(i) => all[(i + 1) % all.len()],
            None => self,
        }
    }

    /// The dialect before this one in its [`Dialect::family`], wrapping around (itself for
    /// a single-byte encoding).
    pub fn prev(self) -> Dialect {
        let all = self.family();
        match all.iter().position(|d| *d == self) {
            Some(i) => all[(i + all.len() - 1) % all.len()],
            None => self,
        }
    }

    /// The longest unit this dialect forms, in bytes: 4, or 6 where a dialect has 6-byte
    /// units (a CESU-8 / Modified UTF-8 surrogate pair, an RFC 2279 6-byte form); 4 in the
    /// multi-byte legacy encodings (a gb18030 4-byte sequence).
    pub const fn max_unit_len(self) -> usize {
        match self {
            Dialect::MultiByte(_) => 4,
            Dialect::Utf8 | Dialect::Wtf8 => 4,
            Dialect::Utf16Le | Dialect::Utf16Be | Dialect::Utf32Le | Dialect::Utf32Be => 4,
            Dialect::SingleByte(_) => 1,
            Dialect::Cesu8 | Dialect::Mutf8 | Dialect::Legacy => 6,
        }
    }

    /// How far back from an offset resync may look to find the start of the unit containing
    /// it: `max_unit_len() - 1`, so 3 bytes in UTF-8 and WTF-8, 5 in the others. (In
    /// WTF-8, telling a lone trail surrogate from the second half of a pair also reads the
    /// 3 bytes before the unit's start, so resync may read up to 5 bytes back.) In UTF-16
    /// and UTF-32 it is 3 as well: 1 (UTF-16) or 3 (UTF-32) bytes to the start of the code
    /// unit, and in UTF-16 one code unit more to see whether a low surrogate ends a pair.
    /// A single-byte encoding never looks back. (A multi-byte legacy encoding has no
    /// bound: it decodes forward from a checkpoint, [`Dialect::resync`]; this says 3.)
    pub const fn max_lookback(self) -> usize {
        self.max_unit_len() - 1
    }

    /// The sequence-length classes a scalar can have in this dialect.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// assert_eq!(Dialect::Utf8.classes(), &[1, 2, 3, 4]);
    /// assert_eq!(Dialect::Cesu8.classes(), &[1, 2, 3, 6]);
    /// assert_eq!(Dialect::Legacy.classes(), &[1, 2, 3, 4, 5, 6]);
    /// ```
    pub const fn classes(self) -> &'static [u8] {
        match self {
            Dialect::Utf8 | Dialect::Wtf8 => &[1, 2, 3, 4],
            Dialect::Cesu8 | Dialect::Mutf8 => &[1, 2, 3, 6],
            Dialect::Legacy => &[1, 2, 3, 4, 5, 6],
            Dialect::Utf16Le | Dialect::Utf16Be => &[2, 4],
            Dialect::Utf32Le | Dialect::Utf32Be => &[4],
            Dialect::SingleByte(_) => &[1],
            Dialect::MultiByte(t) => match t.family() {
                Family::EucJp | Family::Iso2022Jp => &[1, 2, 3],
                Family::Gb18030 => &[1, 2, 4],
                _ => &[1, 2],
            },
        }
    }

    /// The error kinds that can occur in this dialect.
    pub const fn error_kinds(self) -> &'static [ErrorKind] {
        use ErrorKind::*;
        const COMMON: [ErrorKind; 5] = [
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
        ];
        match self {
            Dialect::Utf8 => &[
                InvalidByte,
                UnexpectedContinuation,
                Truncated,
                TruncatedEof,
                Overlong,
                Surrogate,
                OutOfRange,
            ],
            Dialect::Cesu8 => &[
                InvalidByte,
                UnexpectedContinuation,
                Truncated,
                TruncatedEof,
                Overlong,
                UnpairedSurrogate,
            ],
            Dialect::Wtf8 => &[
                InvalidByte,
                UnexpectedContinuation,
                Truncated,
                TruncatedEof,
                Overlong,
                OutOfRange,
                SurrogatePair,
            ],
            Dialect::Mutf8 | Dialect::Legacy => &COMMON,
            Dialect::Utf16Le | Dialect::Utf16Be => {
                &[UnpairedHighSurrogate, UnpairedLowSurrogate, TruncatedUnit]
            }
            Dialect::Utf32Le | Dialect::Utf32Be => &[SurrogateUnit, OutOfRange, TruncatedUnit],
            Dialect::SingleByte(_) => &[UndefinedByte],
            Dialect::MultiByte(t) => match t.family() {
                Family::Iso2022Jp => &[
                    InvalidByte,
                    BadTrail,
                    Unmapped,
                    TruncatedEof,
                    BadEscape,
                    RedundantEscape,
                ],
                _ => &[InvalidByte, BadTrail, Unmapped, TruncatedEof],
            },
        }
    }

    /// The role of byte value `b` in this dialect.
    ///
    /// ```
    /// use hexrune::decode::{ByteRange, ByteRole, Dialect};
    /// assert_eq!(Dialect::Utf8.role(0xE0), ByteRole::Lead { len: 3, second: ByteRange::new(0xA0, 0xBF) });
    /// assert_eq!(Dialect::Utf8.role(0xC0), ByteRole::Never);
    /// assert_eq!(Dialect::Mutf8.role(0x00), ByteRole::Never);
    /// ```
    #[inline(always)]
    pub fn role(self, b: u8) -> ByteRole {
        self.roles()[b as usize]
    }

    /// The whole 256-entry role table of this dialect.
    pub fn roles(self) -> &'static [ByteRole; 256] {
        match self {
            Dialect::Utf8 => &UTF8_ROLES,
            Dialect::Cesu8 => &CESU8_ROLES,
            Dialect::Mutf8 => &MUTF8_ROLES,
            Dialect::Wtf8 => &WTF8_ROLES,
            Dialect::Legacy => &LEGACY_ROLES,
            Dialect::Utf16Le
            | Dialect::Utf16Be
            | Dialect::Utf32Le
            | Dialect::Utf32Be
            | Dialect::SingleByte(_)
            | Dialect::MultiByte(_) => &CODE_UNIT_ROLES,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An inclusive range of byte values, written `A0..BF` as in the Unicode Standard's Table 3-7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteRange {
    /// The smallest byte value in the range.
    pub lo: u8,
    /// The largest byte value in the range.
    pub hi: u8,
}

impl ByteRange {
    /// The range of all continuation bytes, `80..BF`.
    pub const CONTINUATION: ByteRange = ByteRange::new(0x80, 0xBF);

    /// A range from `lo` to `hi`, both included.
    pub const fn new(lo: u8, hi: u8) -> ByteRange {
        ByteRange { lo, hi }
    }

    /// Whether `b` lies in the range.
    #[inline(always)]
    pub const fn contains(self, b: u8) -> bool {
        self.lo <= b && b <= self.hi
    }
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{:02X}", self.lo)
        } else {
            write!(f, "{:02X}..{:02X}", self.lo, self.hi)
        }
    }
}

/// What a byte value can be in a dialect, before looking at its neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteRole {
    /// A one-byte unit, `00..7F` (except `00` in Modified UTF-8).
    Ascii,
    /// A continuation byte, `80..BF`: valid only inside a sequence.
    Continuation,
    /// The first byte of a `len`-byte sequence (2 to 6) whose second byte must lie in
    /// `second`; every later byte must be a continuation byte. A lead whose `second` is
    /// narrower than `80..BF` is a *restricted* lead (E0, ED, F0, F4 in UTF-8).
    Lead {
        /// The length of the sequence this byte starts.
        len: u8,
        /// The bytes allowed in second position.
        second: ByteRange,
    },
    /// A byte value that never occurs in this dialect (C0, C1, F5..FF in UTF-8).
    Never,
    /// Any byte of UTF-16 or UTF-32: part of a code unit, whose meaning depends on its
    /// position in it and on the bytes beside it; any byte of a single-byte encoding, a
    /// code unit of its own, whose meaning is the encoding's table.
    InCodeUnit,
}

impl ByteRole {
    /// Whether this is a lead whose second byte is restricted to less than `80..BF`.
    pub fn is_restricted(self) -> bool {
        matches!(self, ByteRole::Lead { second, .. } if second != ByteRange::CONTINUATION)
    }
}

/// Whether `b` is a continuation byte (`10xxxxxx`). The same in every dialect.
#[inline(always)]
pub const fn is_continuation(b: u8) -> bool {
    (b as i8) < -64
}

const C: ByteRange = ByteRange::CONTINUATION;

const fn lead(len: u8, lo: u8, hi: u8) -> ByteRole {
    ByteRole::Lead {
        len,
        second: ByteRange::new(lo, hi),
    }
}

/// Differences of the other dialects from this base are applied by [`build`].
const fn base_role(b: u8) -> ByteRole {
    match b {
        0x00..=0x7F => ByteRole::Ascii,
        0x80..=0xBF => ByteRole::Continuation,
        0xC2..=0xDF => lead(2, C.lo, C.hi),
        0xE0 => lead(3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => lead(3, C.lo, C.hi),
        0xED => lead(3, 0x80, 0x9F),
        0xF0 => lead(4, 0x90, 0xBF),
        0xF1..=0xF3 => lead(4, C.lo, C.hi),
        0xF4 => lead(4, 0x80, 0x8F),
        _ => ByteRole::Never, // C0, C1, F5..FF
    }
}

const fn dialect_role(d: Dialect, b: u8) -> ByteRole {
    match (d, b) {
        (Dialect::Utf8, _) => base_role(b),
        // Surrogate encodings are well-formed 3-byte sequences in every dialect but UTF-8;
        // what happens to them next (pairing) is the decoder's business.
        (Dialect::Cesu8 | Dialect::Mutf8 | Dialect::Wtf8 | Dialect::Legacy, 0xED) => {
            lead(3, C.lo, C.hi)
        }
        // CESU-8 and Modified UTF-8 have no 4-byte forms.
        (Dialect::Cesu8 | Dialect::Mutf8, 0xF0..=0xF4) => ByteRole::Never,
        (Dialect::Mutf8, 0x00) => ByteRole::Never,
        (Dialect::Mutf8, 0xC0) => lead(2, 0x80, 0x80),
        (Dialect::Legacy, 0xF4..=0xF7) => lead(4, C.lo, C.hi),
        (Dialect::Legacy, 0xF8) => lead(5, 0x88, 0xBF),
        (Dialect::Legacy, 0xF9..=0xFB) => lead(5, C.lo, C.hi),
        (Dialect::Legacy, 0xFC) => lead(6, 0x84, 0xBF),
        (Dialect::Legacy, 0xFD) => lead(6, C.lo, C.hi),
        (
            Dialect::Utf16Le
            | Dialect::Utf16Be
            | Dialect::Utf32Le
            | Dialect::Utf32Be
            | Dialect::SingleByte(_)
            | Dialect::MultiByte(_),
            _,
        ) => ByteRole::InCodeUnit,
        _ => base_role(b),
    }
}

const fn build(d: Dialect) -> [ByteRole; 256] {
    let mut table = [ByteRole::Never; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = dialect_role(d, i as u8);
        i += 1;
    }
    table
}

static UTF8_ROLES: [ByteRole; 256] = build(Dialect::Utf8);
static CESU8_ROLES: [ByteRole; 256] = build(Dialect::Cesu8);
static MUTF8_ROLES: [ByteRole; 256] = build(Dialect::Mutf8);
static WTF8_ROLES: [ByteRole; 256] = build(Dialect::Wtf8);
static LEGACY_ROLES: [ByteRole; 256] = build(Dialect::Legacy);
static CODE_UNIT_ROLES: [ByteRole; 256] = [ByteRole::InCodeUnit; 256];

#[cfg(test)]
mod tests {
    use super::*;

    fn leads(d: Dialect, len: u8) -> Vec<u8> {
        (0..=255u8)
            .filter(|b| matches!(d.role(*b), ByteRole::Lead { len: l, .. } if l == len))
            .collect()
    }

    fn never(d: Dialect) -> Vec<u8> {
        (0..=255u8)
            .filter(|b| d.role(*b) == ByteRole::Never)
            .collect()
    }

    #[test]
    fn utf8_table_is_table_3_7() {
        let d = Dialect::Utf8;
        assert_eq!(leads(d, 2), (0xC2..=0xDF).collect::<Vec<u8>>());
        assert_eq!(leads(d, 3), (0xE0..=0xEF).collect::<Vec<u8>>());
        assert_eq!(leads(d, 4), (0xF0..=0xF4).collect::<Vec<u8>>());
        let mut expected_never = vec![0xC0, 0xC1];
        expected_never.extend(0xF5..=0xFF);
        assert_eq!(never(d), expected_never);
        let restricted: Vec<(u8, String)> = (0..=255u8)
            .filter(|b| d.role(*b).is_restricted())
            .map(|b| match d.role(b) {
                ByteRole::Lead { second, .. } => (b, second.to_string()),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(
            restricted,
            vec![
                (0xE0, "A0..BF".to_string()),
                (0xED, "80..9F".to_string()),
                (0xF0, "90..BF".to_string()),
                (0xF4, "80..8F".to_string()),
            ]
        );
    }

    #[test]
    fn dialect_differences() {
        assert_eq!(Dialect::Cesu8.role(0xED), lead(3, 0x80, 0xBF));
        assert_eq!(Dialect::Cesu8.role(0xF0), ByteRole::Never);
        assert_eq!(Dialect::Cesu8.role(0x00), ByteRole::Ascii);
        assert_eq!(Dialect::Mutf8.role(0x00), ByteRole::Never);
        assert_eq!(Dialect::Mutf8.role(0xC0), lead(2, 0x80, 0x80));
        assert_eq!(Dialect::Mutf8.role(0xC1), ByteRole::Never);
        assert_eq!(Dialect::Wtf8.role(0xED), lead(3, 0x80, 0xBF));
        assert_eq!(Dialect::Wtf8.role(0xF4), lead(4, 0x80, 0x8F));
        assert_eq!(
            leads(Dialect::Legacy, 4),
            (0xF0..=0xF7).collect::<Vec<u8>>()
        );
        assert_eq!(
            leads(Dialect::Legacy, 5),
            (0xF8..=0xFB).collect::<Vec<u8>>()
        );
        assert_eq!(leads(Dialect::Legacy, 6), vec![0xFC, 0xFD]);
        assert_eq!(never(Dialect::Legacy), vec![0xC0, 0xC1, 0xFE, 0xFF]);
        assert_eq!(Dialect::Legacy.role(0xF8), lead(5, 0x88, 0xBF));
        assert_eq!(Dialect::Legacy.role(0xFC), lead(6, 0x84, 0xBF));
    }

    #[test]
    fn continuation_test_matches_range() {
        for b in 0..=255u8 {
            assert_eq!(is_continuation(b), (0x80..=0xBF).contains(&b), "{b:02X}");
            for d in Dialect::UTF8_FAMILY {
                assert_eq!(d.role(b) == ByteRole::Continuation, is_continuation(b));
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for d in Dialect::ALL {
            assert_eq!(Dialect::from_name(d.name()), Some(d));
            // What detection names (`RFC 2279`) is a label `repair --from` takes.
            assert_eq!(Dialect::from_name(d.encoding_name()), Some(d));
        }
        assert_eq!(Dialect::from_name("UTF-8"), Some(Dialect::Utf8));
        assert_eq!(Dialect::from_name("rfc2279"), Some(Dialect::Legacy));
        assert_eq!(Dialect::from_name("latin1"), None);
        assert_eq!(Dialect::Legacy.next(), Dialect::Utf8);
        assert_eq!(Dialect::Utf8.prev(), Dialect::Legacy);
        assert_eq!(Dialect::Utf32Be.next(), Dialect::Utf16Le);
        assert_eq!(Dialect::from_name("UTF-16LE"), Some(Dialect::Utf16Le));
        assert_eq!(Dialect::from_name("utf_32_be"), Some(Dialect::Utf32Be));
    }
}
