//! Diagnoses: what an error most likely *is*, from a lax reading of the bytes at its lead.
//!
//! The strict decoder says that `C0 AF` is an `invalid_byte` followed by an
//! `unexpected_continuation`; a person wants to hear "overlong form of U+002F '/'". A
//! diagnosis reads the bytes at an error's start the way RFC 2279 would (any lead from C0 to
//! FD, any continuation bytes, no shortest-form or range checks) and names what it finds,
//! together with the number of bytes the finding spans, which may cover several following
//! error units.

use core::fmt;

use super::bom::Bom;
use super::decoder::{lead_surrogate_at, trail_surrogate_at};
use super::dialect::{is_continuation, Dialect};
use super::unit::{CodePoint, ErrorKind, Unit};

/// What a diagnosis found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finding {
    /// A `len`-byte form of a value whose shortest form is shorter (`C0 AF` is `/`).
    Overlong {
        /// The value the bytes spell.
        value: CodePoint,
        /// The length of the form that was used.
        len: u8,
    },
    /// The 3-byte encoding of a UTF-16 surrogate code point.
    Surrogate {
        /// The surrogate, U+D800..U+DFFF.
        value: CodePoint,
    },
    /// A lead and a trail surrogate, each written as a 3-byte sequence (CESU-8 style).
    SurrogatePair {
        /// The lead (high) surrogate.
        lead: CodePoint,
        /// The trail (low) surrogate.
        trail: CodePoint,
        /// The supplementary code point the pair stands for.
        value: CodePoint,
    },
    /// A 4-byte form of a value above U+10FFFF.
    AboveUnicode {
        /// The value, U+110000..U+1FFFFF.
        value: CodePoint,
    },
    /// A 5- or 6-byte form from RFC 2279, which RFC 3629 removed.
    LegacyForm {
        /// The value.
        value: CodePoint,
        /// 5 or 6.
        len: u8,
    },
    /// A 4-byte UTF-8 sequence in a dialect (CESU-8, Modified UTF-8) that writes
    /// supplementary characters as surrogate pairs instead.
    FourByteForm {
        /// The supplementary code point.
        value: CodePoint,
    },
    /// A raw `00` byte in Modified UTF-8, which writes U+0000 as `C0 80`.
    RawNul,
    /// `FF FE` (not followed by `00 00`) or `FE FF` at the start of the input: a UTF-16 byte
    /// order mark.
    Utf16Bom {
        /// `FE FF` (big-endian) rather than `FF FE`.
        big_endian: bool,
    },
    /// `FF FE 00 00` or `00 00 FE FF` at the start of the input: a UTF-32 byte order mark,
    /// read before UTF-16LE's `FF FE`, which starts it. The error is at the `FF` of `FF FE 00
    /// 00` (at offset 0) or the `FE` of `00 00 FE FF` (at offset 2: its zero bytes are NULs).
    Utf32Bom {
        /// `00 00 FE FF` (big-endian) rather than `FF FE 00 00`.
        big_endian: bool,
    },
    /// A single byte 80..FF between ASCII bytes (or the input's start or end): the
    /// signature of a Latin-1 or Windows-1252 character in otherwise UTF-8 text.
    LoneByte {
        /// The byte value.
        byte: u8,
        /// Which of its neighbours, all ASCII, it has.
        neighbours: Neighbours,
    },
    /// UTF-16 / UTF-32: bytes at the end of the input that do not fill a code unit.
    LeftOver {
        /// How many bytes are left: 1 to 3.
        bytes: u8,
        /// The code unit width: 2 or 4.
        width: u8,
    },
    /// A byte a single-byte encoding leaves undefined.
    Undefined {
        /// The byte.
        byte: u8,
        /// The encoding's name.
        encoding: &'static str,
    },
    /// UTF-32: a code unit that is no scalar in this byte order but one in the other.
    ByteSwapped {
        /// The value in the other byte order.
        value: CodePoint,
        /// The dialect with the other byte order.
        other: Dialect,
    },
}

/// The ASCII bytes beside a [`Finding::LoneByte`]: a missing neighbour is the input's
/// start or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Neighbours {
    /// An ASCII byte before it and one after it.
    Both,
    /// An ASCII byte before it; it is the input's last byte.
    Before,
    /// An ASCII byte after it; it is the input's first byte.
    After,
    /// None: it is the whole input.
    Neither,
}

impl Neighbours {
    /// Where a lone byte stands, said after it: `between ASCII bytes`.
    pub const fn phrase(self) -> &'static str {
        match self {
            Neighbours::Both => "between ASCII bytes",
            Neighbours::Before => "after an ASCII byte, at the end of the input",
            Neighbours::After => "at the start of the input, before an ASCII byte",
            Neighbours::Neither => "that makes up the whole input",
        }
    }
}

/// A finding and how many bytes, from the error's start, it explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diagnosis {
    /// What the bytes most likely are.
    pub finding: Finding,
    /// Bytes explained, from the start of the error unit (may span several error units).
    pub span: u8,
}

impl Dialect {
    /// Diagnoses the error `unit` of `bytes` by a lax reading at its start. `None` for a
    /// scalar, or when nothing more can be said than the error kind itself.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// let bytes = b"\xC0\xAF";
    /// let unit = Dialect::Utf8.decode_at(bytes, 0);
    /// let d = Dialect::Utf8.diagnose(bytes, &unit).unwrap();
    /// assert_eq!(d.to_string(), "overlong form of U+002F '/'");
    /// assert_eq!(d.span, 2);
    /// ```
    pub fn diagnose(self, bytes: &[u8], unit: &Unit) -> Option<Diagnosis> {
        let kind = unit.error_kind()?;
        if let Dialect::SingleByte(table) = self {
            return diagnosis(
                Finding::Undefined {
                    byte: bytes[unit.start],
                    encoding: table.name(),
                },
                1,
            );
        }
        if let Dialect::MultiByte(_) = self {
            return None;
        }
        if self.code_unit_width().is_some() {
            return self.diagnose_wide(bytes, unit, kind);
        }
        let at = unit.start;
        let b0 = bytes[at];
        if kind == ErrorKind::InvalidByte {
            if let Some(d) = byte_order_mark(bytes, at) {
                return Some(d);
            }
        }
        if b0 == 0 && self == Dialect::Mutf8 {
            return diagnosis(Finding::RawNul, 1);
        }
        if let Some(d) = self.diagnose_surrogate(bytes, at) {
            return Some(d);
        }
        if let Some((value, len)) = lax_read(bytes, at) {
            if len > value.shortest_len() {
                return diagnosis(Finding::Overlong { value, len }, len);
            }
            if len >= 5 {
                return diagnosis(Finding::LegacyForm { value, len }, len);
            }
            if value > CodePoint::MAX_UNICODE {
                return diagnosis(Finding::AboveUnicode { value }, len);
            }
            if len == 4 && matches!(self, Dialect::Cesu8 | Dialect::Mutf8) {
                return diagnosis(Finding::FourByteForm { value }, len);
            }
        }
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        let after = bytes.get(at + 1);
        let isolated = |b: Option<&u8>| b.is_none_or(|b| *b < 0x80);
        if unit.len == 1 && b0 >= 0x80 && isolated(before) && isolated(after) {
            let neighbours = match (before.is_some(), after.is_some()) {
                (true, true) => Neighbours::Both,
                (true, false) => Neighbours::Before,
                (false, true) => Neighbours::After,
                (false, false) => Neighbours::Neither,
            };
            return diagnosis(
                Finding::LoneByte {
                    byte: b0,
                    neighbours,
                },
                1,
            );
        }
        None
    }

    /// UTF-16 and UTF-32: a surrogate named with its half, bytes left over, a UTF-32 code
    /// unit that is a scalar in the other byte order.
    fn diagnose_wide(self, bytes: &[u8], unit: &Unit, kind: ErrorKind) -> Option<Diagnosis> {
        let at = unit.start;
        match kind {
            ErrorKind::UnpairedHighSurrogate | ErrorKind::UnpairedLowSurrogate => {
                let value = CodePoint::new(self.code_unit16(bytes, at) as u32);
                diagnosis(Finding::Surrogate { value }, unit.len)
            }
            ErrorKind::SurrogateUnit => {
                let value = CodePoint::new(self.code_unit32(bytes, at));
                diagnosis(Finding::Surrogate { value }, unit.len)
            }
            ErrorKind::TruncatedUnit => diagnosis(
                Finding::LeftOver {
                    bytes: unit.len,
                    width: self.code_unit_width().unwrap_or(2) as u8,
                },
                unit.len,
            ),
            ErrorKind::OutOfRange => {
                let value = self.code_unit32(bytes, at);
                let other = match self {
                    Dialect::Utf32Le => Dialect::Utf32Be,
                    _ => Dialect::Utf32Le,
                };
                // Real UTF-32 has a zero top byte; a non-zero one that is a scalar read the
                // other way round says the byte order is wrong.
                let swapped = CodePoint::new(value.swap_bytes());
                if value >> 24 != 0 && swapped.to_char().is_some() {
                    diagnosis(
                        Finding::ByteSwapped {
                            value: swapped,
                            other,
                        },
                        unit.len,
                    )
                } else {
                    diagnosis(
                        Finding::AboveUnicode {
                            value: CodePoint::new(value),
                        },
                        unit.len,
                    )
                }
            }
            _ => None,
        }
    }

    fn diagnose_surrogate(self, bytes: &[u8], at: usize) -> Option<Diagnosis> {
        if let Some(lead) = lead_surrogate_at(bytes, at) {
            return Some(match trail_surrogate_at(bytes, at + 3) {
                Some(trail) => pair(lead, trail, 6),
                None => Diagnosis {
                    finding: Finding::Surrogate {
                        value: CodePoint::new(lead),
                    },
                    span: 3,
                },
            });
        }
        let trail = trail_surrogate_at(bytes, at)?;
        Some(
            match at.checked_sub(3).and_then(|l| lead_surrogate_at(bytes, l)) {
                Some(lead) => pair(lead, trail, 3),
                None => Diagnosis {
                    finding: Finding::Surrogate {
                        value: CodePoint::new(trail),
                    },
                    span: 3,
                },
            },
        )
    }
}

/// The UTF-16 or UTF-32 byte order mark whose first byte invalid in the UTF-8 family is at
/// `at`, the longest first, as the scan reads marks.
fn byte_order_mark(bytes: &[u8], at: usize) -> Option<Diagnosis> {
    let (finding, span) = match (at, Bom::detect(bytes)?) {
        (0, Bom::Utf32Le) => (Finding::Utf32Bom { big_endian: false }, 4),
        (2, Bom::Utf32Be) => (Finding::Utf32Bom { big_endian: true }, 2),
        (0, Bom::Utf16Le) => (Finding::Utf16Bom { big_endian: false }, 2),
        (0, Bom::Utf16Be) => (Finding::Utf16Bom { big_endian: true }, 2),
        _ => return None,
    };
    diagnosis(finding, span)
}

fn diagnosis(finding: Finding, span: u8) -> Option<Diagnosis> {
    Some(Diagnosis { finding, span })
}

fn pair(lead: u32, trail: u32, span: u8) -> Diagnosis {
    let value = 0x1_0000 + ((lead - 0xD800) << 10) + (trail - 0xDC00);
    Diagnosis {
        finding: Finding::SurrogatePair {
            lead: CodePoint::new(lead),
            trail: CodePoint::new(trail),
            value: CodePoint::new(value),
        },
        span,
    }
}

/// Reads a sequence at `at` as RFC 2279 would without its shortest-form rule: the lead's
/// leading one bits give the length (2 to 6), then that many continuation bytes must follow.
/// Returns the value and the length.
pub(crate) fn lax_read(bytes: &[u8], at: usize) -> Option<(CodePoint, u8)> {
    let b0 = bytes[at];
    let len = match b0 {
        0xC0..=0xDF => 2u8,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => return None,
    };
    let tail = bytes.get(at + 1..at + len as usize)?;
    let mut value = (b0 & (0x7F >> len)) as u32;
    for &b in tail {
        if !is_continuation(b) {
            return None;
        }
        value = (value << 6) | (b & 0x3F) as u32;
    }
    Some((CodePoint::new(value), len))
}

/// Windows-1252's characters for bytes 80..9F (WHATWG Encoding Standard, index-windows-1252);
/// `None` where the index leaves a byte undefined. Bytes A0..FF are Latin-1 itself.
const WINDOWS_1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// The Windows-1252 reading of a byte 80..FF, where it is a printable character.
pub fn windows_1252(byte: u8) -> Option<char> {
    match byte {
        0x80..=0x9F => WINDOWS_1252_HIGH[(byte - 0x80) as usize],
        0xA0 | 0xAD => None, // no-break space and soft hyphen: invisible when quoted
        0xA1..=0xFF => char::from_u32(byte as u32),
        _ => None,
    }
}

/// A character that is safe and useful to show in quotes inside a diagnosis: printable ASCII
/// and printable Latin-1. Everything else is named by its code point only.
fn quotable(value: CodePoint) -> Option<char> {
    match value.value() {
        0x20..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => value.to_char(),
        _ => None,
    }
}

struct Quoted(CodePoint);

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        match quotable(self.0) {
            Some(c) => write!(f, " '{c}'"),
            None => Ok(()),
        }
    }
}

/// Bytes in upper-case hex separated by spaces, as diagnoses write them: `ED A0 BD`.
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl Finding {
    /// Whether the finding's text already spells out the bytes it explains, so that a
    /// report need not add them: the bytes a report adds after a finding that names other
    /// bytes (a surrogate pair) would be read as those.
    pub const fn spells_its_bytes(&self) -> bool {
        matches!(self, Finding::FourByteForm { .. })
    }

    /// The character this finding reads its bytes as, where it names one: a lone byte's
    /// Windows-1252 character.
    pub fn reading(&self) -> Option<char> {
        match *self {
            Finding::LoneByte { byte, .. } => windows_1252(byte),
            _ => None,
        }
    }

    /// The finding said without its [`Finding::reading`], for a line that shows the
    /// bytes' reading elsewhere (a fallback reading): the character is then said once.
    ///
    /// ```
    /// use hexrune::decode::{Finding, Neighbours};
    /// let lone = Finding::LoneByte { byte: 0xE9, neighbours: Neighbours::Both };
    /// assert_eq!(lone.to_string(), "lone byte E9: 'é' in Latin-1/Windows-1252?");
    /// assert_eq!(lone.without_reading(), "lone byte E9 between ASCII bytes");
    /// let last = Finding::LoneByte { byte: 0xFF, neighbours: Neighbours::Before };
    /// assert_eq!(last.to_string(), "lone byte FF: 'ÿ' in Latin-1/Windows-1252?");
    /// assert_eq!(
    ///     last.without_reading(),
    ///     "lone byte FF after an ASCII byte, at the end of the input"
    /// );
    /// ```
    pub fn without_reading(&self) -> String {
        match *self {
            Finding::LoneByte { byte, neighbours } => {
                format!("lone byte {byte:02X} {}", neighbours.phrase())
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Finding::Overlong { value, len } if value.value() == 0 && len == 2 => {
                write!(f, "overlong form of U+0000 (Modified UTF-8's NUL)")
            }
            Finding::Overlong { value, .. } => write!(f, "overlong form of {}", Quoted(value)),
            Finding::Surrogate { value } => {
                let which = if value.is_lead_surrogate() { "lead" } else { "trail" };
                write!(f, "UTF-16 surrogate {value} ({which} half, not a character)")
            }
            Finding::SurrogatePair { lead, trail, value } => write!(
                f,
                "surrogate pair {lead} {trail} for {value} written as two 3-byte sequences (CESU-8 style)"
            ),
            Finding::AboveUnicode { value } => write!(f, "{value}, {}", super::unit::NOT_UNICODE),
            Finding::LegacyForm { value, len } => {
                write!(f, "a {len}-byte form from RFC 2279 ({value})")
            }
            Finding::FourByteForm { value } => {
                write!(f, "4-byte UTF-8 form of {value}")?;
                // Both dialects with this finding write the same pair; CESU-8 spells it.
                // The value is always supplementary, so both encodings exist.
                let mut utf8 = [0; 4];
                match (value.to_char(), Dialect::Cesu8.encode(value)) {
                    (Some(c), Ok(pair)) => write!(
                        f,
                        " ({}); this dialect writes it as the surrogate pair {}",
                        Hex(c.encode_utf8(&mut utf8).as_bytes()),
                        Hex(pair.as_bytes())
                    ),
                    _ => write!(f, "; this dialect writes it as a surrogate pair"),
                }
            }
            Finding::RawNul => write!(f, "raw NUL byte; Modified UTF-8 writes U+0000 as C0 80"),
            Finding::Utf16Bom { big_endian: true } => {
                write!(f, "UTF-16BE byte order mark: the input looks like UTF-16")
            }
            Finding::Utf16Bom { big_endian: false } => {
                write!(f, "UTF-16LE byte order mark: the input looks like UTF-16")
            }
            Finding::Utf32Bom { big_endian: false } => {
                write!(f, "UTF-32LE byte order mark: the input looks like UTF-32")
            }
            Finding::Utf32Bom { big_endian: true } => write!(
                f,
                "end of the UTF-32BE byte order mark 00 00 FE FF: the input looks like UTF-32"
            ),
            Finding::LeftOver { bytes: 1, width } => write!(
                f,
                "1 byte left after the last {width}-byte code unit: the input is cut, or does not start on a code unit"
            ),
            Finding::LeftOver { bytes, width } => write!(
                f,
                "{bytes} bytes left after the last {width}-byte code unit: the input is cut, or does not start on a code unit"
            ),
            Finding::Undefined { byte, encoding } => match windows_1252(byte) {
                Some(c) if encoding != "windows-1252" => write!(
                    f,
                    "byte {byte:02X} has no character in {encoding}; windows-1252 reads it as '{c}'"
                ),
                _ => write!(f, "byte {byte:02X} has no character in {encoding}"),
            },
            Finding::ByteSwapped { value, other } => write!(
                f,
                "{} in the other byte order: is this {}?",
                Quoted(value),
                other.encoding_name()
            ),
            Finding::LoneByte { byte, .. } => match windows_1252(byte) {
                Some(c) => write!(f, "lone byte {byte:02X}: '{c}' in Latin-1/Windows-1252?"),
                None => f.write_str(&self.without_reading()),
            },
        }
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.finding.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(d: Dialect, bytes: &[u8], at: usize) -> Option<(String, u8)> {
        let unit = d.unit_containing(bytes, at);
        d.diagnose(bytes, &unit).map(|x| (x.to_string(), x.span))
    }

    fn text(d: Dialect, bytes: &[u8]) -> String {
        diag(d, bytes, 0).map(|x| x.0).unwrap_or_default()
    }

    #[test]
    fn issue_examples() {
        let u = Dialect::Utf8;
        assert_eq!(
            diag(u, b"\xC0\xAF", 0),
            Some(("overlong form of U+002F '/'".into(), 2))
        );
        assert_eq!(
            diag(u, b"\xED\xA0\x80", 0),
            Some((
                "UTF-16 surrogate U+D800 (lead half, not a character)".into(),
                3
            ))
        );
        assert_eq!(
            diag(u, b"\xF4\x90\x80\x80", 0),
            Some((
                "U+110000, above U+10FFFF: not a Unicode code point".into(),
                4
            ))
        );
        assert_eq!(
            diag(u, b"\xF8\x88\x80\x80\x80", 0),
            Some(("a 5-byte form from RFC 2279 (U+200000)".into(), 5))
        );
    }

    #[test]
    fn more_findings() {
        let u = Dialect::Utf8;
        assert_eq!(text(u, b"\xE0\x80\x80"), "overlong form of U+0000");
        assert_eq!(
            text(u, b"\xC0\x80"),
            "overlong form of U+0000 (Modified UTF-8's NUL)"
        );
        assert_eq!(text(u, b"\xC3\x83"), ""); // valid: no error, no diagnosis
        assert_eq!(text(u, b"\xF0\x80\x80\xAF"), "overlong form of U+002F '/'");
        assert_eq!(text(u, b"\xC1\xA9"), "overlong form of U+0069 'i'");
        assert_eq!(
            diag(u, b"\xED\xA0\xBD\xED\xB8\x80", 0),
            Some((
                "surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)".into(),
                6
            ))
        );
        assert_eq!(
            diag(u, b"\xED\xA0\xBD\xED\xB8\x80", 3).map(|x| x.1),
            Some(3)
        );
        assert_eq!(
            text(u, b"\xFF\xFEa\x00"),
            "UTF-16LE byte order mark: the input looks like UTF-16"
        );
        assert_eq!(
            text(u, b"\xFE\xFF\x00a"),
            "UTF-16BE byte order mark: the input looks like UTF-16"
        );
        // UTF-32LE's mark starts with UTF-16LE's: the longer one is read first.
        assert_eq!(
            diag(u, b"\xFF\xFE\x00\x00a\x00\x00\x00", 0),
            Some((
                "UTF-32LE byte order mark: the input looks like UTF-32".into(),
                4
            ))
        );
        assert_eq!(diag(u, b"\xFF\xFE\x00\x00a\x00\x00\x00", 1), None);
        // UTF-32BE's starts with two NULs: its first error is the FE at offset 2.
        assert_eq!(
            diag(u, b"\x00\x00\xFE\xFF\x00\x00\x00a", 2),
            Some((
                "end of the UTF-32BE byte order mark 00 00 FE FF: the input looks like UTF-32"
                    .into(),
                2
            ))
        );
        assert_eq!(diag(u, b"\x00\xFE\xFF", 1), None);
        assert_eq!(diag(u, b"a\x00\xFE\xFF", 2), None);
        // A mark cut short is the shorter one it still is.
        assert_eq!(
            text(u, b"\xFF\xFE\x00"),
            "UTF-16LE byte order mark: the input looks like UTF-16"
        );
        assert_eq!(
            diag(u, b"caf\xE9 ok", 3).map(|x| x.0).as_deref(),
            Some("lone byte E9: 'é' in Latin-1/Windows-1252?")
        );
        assert_eq!(
            diag(u, b"\x93q\x94", 0).map(|x| x.0).as_deref(),
            Some("lone byte 93: '“' in Latin-1/Windows-1252?")
        );
        assert_eq!(
            diag(u, b"a\x81b", 1).map(|x| x.0).as_deref(),
            Some("lone byte 81 between ASCII bytes")
        );
        // A missing neighbour is the input's start or end, said as such.
        assert_eq!(
            diag(u, b"a\x81", 1).map(|x| x.0).as_deref(),
            Some("lone byte 81 after an ASCII byte, at the end of the input")
        );
        assert_eq!(
            diag(u, b"\x81a", 0).map(|x| x.0).as_deref(),
            Some("lone byte 81 at the start of the input, before an ASCII byte")
        );
        assert_eq!(
            diag(u, b"\x81", 0).map(|x| x.0).as_deref(),
            Some("lone byte 81 that makes up the whole input")
        );
        // The Latin-1 reading is said the same wherever the byte stands.
        assert_eq!(
            diag(u, b"x\xFF", 1).map(|x| x.0).as_deref(),
            Some("lone byte FF: 'ÿ' in Latin-1/Windows-1252?")
        );
        let last = u
            .diagnose(b"x\xFF", &u.unit_containing(b"x\xFF", 1))
            .unwrap();
        assert_eq!(
            last.finding.without_reading(),
            "lone byte FF after an ASCII byte, at the end of the input"
        );
        // not isolated: no Latin-1 guess
        assert_eq!(diag(u, b"\xE9\xE9", 0), None);
        assert_eq!(
            text(Dialect::Cesu8, "\u{1F600}".as_bytes()),
            "4-byte UTF-8 form of U+1F600 (F0 9F 98 80); this dialect writes it as the surrogate pair ED A0 BD ED B8 80"
        );
        assert_eq!(
            text(Dialect::Mutf8, b"\x00"),
            "raw NUL byte; Modified UTF-8 writes U+0000 as C0 80"
        );
        assert_eq!(
            text(Dialect::Mutf8, b"\xC0\xAF"),
            "overlong form of U+002F '/'"
        );
    }

    #[test]
    fn wide_findings() {
        assert_eq!(
            text(Dialect::Utf16Le, b"\x3D\xD8a\x00"),
            "UTF-16 surrogate U+D83D (lead half, not a character)"
        );
        assert_eq!(
            text(Dialect::Utf16Be, b"\xDE\x00"),
            "UTF-16 surrogate U+DE00 (trail half, not a character)"
        );
        assert_eq!(
            text(Dialect::Utf16Le, b"a"),
            "1 byte left after the last 2-byte code unit: the input is cut, or does not start on a code unit"
        );
        assert_eq!(
            text(Dialect::Utf32Be, b"\x00\x00\x00"),
            "3 bytes left after the last 4-byte code unit: the input is cut, or does not start on a code unit"
        );
        assert_eq!(
            text(Dialect::Utf32Be, b"a\x00\x00\x00"),
            "U+0061 'a' in the other byte order: is this UTF-32LE?"
        );
        assert_eq!(
            text(Dialect::Utf32Le, b"\xFF\xFF\xFF\x7F"),
            "U+7FFFFFFF, above U+10FFFF: not a Unicode code point"
        );
        assert_eq!(
            text(Dialect::Utf32Le, b"\x00\x00\x11\x00"),
            "U+110000, above U+10FFFF: not a Unicode code point"
        );
        assert_eq!(
            text(Dialect::Utf32Le, b"\x00\xDC\x00\x00"),
            "UTF-16 surrogate U+DC00 (trail half, not a character)"
        );
    }

    #[test]
    fn windows_1252_table() {
        assert_eq!(windows_1252(0x80), Some('€'));
        assert_eq!(windows_1252(0x81), None);
        assert_eq!(windows_1252(0x9F), Some('Ÿ'));
        assert_eq!(windows_1252(0xE9), Some('é'));
        assert_eq!(windows_1252(0x41), None);
        let undefined: Vec<u8> = (0x80..=0x9F)
            .filter(|b| windows_1252(*b).is_none())
            .collect();
        assert_eq!(undefined, [0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    }
}
