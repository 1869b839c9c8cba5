//! The vocabulary of decoding: code points, units and error kinds.

use core::fmt;

/// A decoded value. Unlike `char` it may be a surrogate (U+D800..U+DFFF, valid alone in
/// Modified UTF-8, WTF-8 and legacy UTF-8) or lie above U+10FFFF (legacy UTF-8 reaches
/// U+7FFFFFFF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CodePoint(u32);

/// How hexrune says that a value is above U+10FFFF, wherever it says it (a diagnosis, an
/// encoding that cannot write it, a code point's facts).
pub const NOT_UNICODE: &str = "above U+10FFFF: not a Unicode code point";

impl CodePoint {
    /// The largest Unicode code point, U+10FFFF.
    pub const MAX_UNICODE: CodePoint = CodePoint(0x10_FFFF);

    /// What an ISO-2022-JP escape sequence decodes to: no character. A value no dialect
    /// produces for a character (above U+7FFFFFFF), so a unit holding it is known for one.
    pub const ESCAPE_SEQUENCE: CodePoint = CodePoint(0xFFFF_FF1B);

    /// Wraps a value; any `u32` is accepted (the decoder never produces more than 0x7FFFFFFF).
    pub const fn new(value: u32) -> CodePoint {
        CodePoint(value)
    }

    /// The numeric value.
    pub const fn value(self) -> u32 {
        self.0
    }

    /// The `char` for a Unicode scalar value; `None` for surrogates and values above U+10FFFF.
    pub fn to_char(self) -> Option<char> {
        char::from_u32(self.0)
    }

    /// Whether this is one of the 66 noncharacters: U+FDD0..U+FDEF and the last two code
    /// points of every plane.
    pub const fn is_noncharacter(self) -> bool {
        let v = self.0;
        (v >= 0xFDD0 && v <= 0xFDEF) || (v <= 0x10_FFFF && v & 0xFFFE == 0xFFFE)
    }

    /// Whether this is a UTF-16 surrogate code point (U+D800..U+DFFF).
    pub const fn is_surrogate(self) -> bool {
        self.0 >= 0xD800 && self.0 <= 0xDFFF
    }

    /// Whether this is a lead (high) surrogate, U+D800..U+DBFF.
    pub const fn is_lead_surrogate(self) -> bool {
        self.0 >= 0xD800 && self.0 <= 0xDBFF
    }

    /// Whether this is a trail (low) surrogate, U+DC00..U+DFFF.
    pub const fn is_trail_surrogate(self) -> bool {
        self.0 >= 0xDC00 && self.0 <= 0xDFFF
    }

    /// The number of bytes of the shortest UTF-8 (or RFC 2279) form of this value: 1 to 6.
    ///
    /// ```
    /// use hexrune::decode::CodePoint;
    /// assert_eq!(CodePoint::new(0x2F).shortest_len(), 1);
    /// assert_eq!(CodePoint::new(0x20AC).shortest_len(), 3);
    /// assert_eq!(CodePoint::new(0x200000).shortest_len(), 5);
    /// ```
    pub const fn shortest_len(self) -> u8 {
        match self.0 {
            0..=0x7F => 1,
            0x80..=0x7FF => 2,
            0x800..=0xFFFF => 3,
            0x1_0000..=0x1F_FFFF => 4,
            0x20_0000..=0x3FF_FFFF => 5,
            _ => 6,
        }
    }
}

impl fmt::Display for CodePoint {
    /// `U+` and at least four upper-case hex digits: `U+002F`, `U+1F600`, `U+7FFFFFFF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U+{:04X}", self.0)
    }
}

/// Why a unit is an error. The names returned by [`ErrorKind::name`] are part of hexrune's
/// machine output and never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// A byte that starts no sequence and is not a continuation byte (C0, C1, F5..FF in UTF-8).
    InvalidByte,
    /// A continuation byte (80..BF) that no lead claims.
    UnexpectedContinuation,
    /// A lead and its valid continuations, cut by a byte that is not a continuation byte.
    Truncated,
    /// A lead and its valid continuations, cut by the end of the input.
    TruncatedEof,
    /// A lead followed by a continuation byte that would make an overlong form
    /// (E0 80..9F, F0 80..8F in UTF-8).
    Overlong,
    /// ED A0..BF: the UTF-8 encoding of a UTF-16 surrogate.
    Surrogate,
    /// F4 90..BF: a value above U+10FFFF.
    OutOfRange,
    /// CESU-8: a 3-byte surrogate encoding that is not half of a lead+trail pair.
    UnpairedSurrogate,
    /// WTF-8: one 3-byte half of a surrogate pair written as two 3-byte sequences.
    SurrogatePair,
    /// UTF-16: a high (lead) surrogate code unit, D800..DBFF, not followed by a low one.
    UnpairedHighSurrogate,
    /// UTF-16: a low (trail) surrogate code unit, DC00..DFFF, with no high one before it.
    UnpairedLowSurrogate,
    /// UTF-16 and UTF-32: 1 to 3 bytes at the end of the input, too few for a code unit.
    TruncatedUnit,
    /// UTF-32: a code unit in the surrogate range D800..DFFF, never a character in UTF-32.
    SurrogateUnit,
    /// A single-byte encoding: a byte the encoding leaves undefined.
    UndefinedByte,
    /// A multi-byte legacy encoding: a lead followed by a byte that cannot follow it (the
    /// lead alone if that byte is ASCII, which starts the next unit).
    BadTrail,
    /// A multi-byte legacy encoding: a well-formed sequence the encoding has no character for.
    Unmapped,
    /// ISO-2022-JP: an escape byte (1B) that starts no escape sequence of the encoding.
    BadEscape,
    /// ISO-2022-JP: an escape sequence followed at once by another (it still switches mode).
    RedundantEscape,
}

impl ErrorKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [ErrorKind; 18] = [
        ErrorKind::InvalidByte,
        ErrorKind::UnexpectedContinuation,
        ErrorKind::Truncated,
        ErrorKind::TruncatedEof,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::OutOfRange,
        ErrorKind::UnpairedSurrogate,
        ErrorKind::SurrogatePair,
        ErrorKind::UnpairedHighSurrogate,
        ErrorKind::UnpairedLowSurrogate,
        ErrorKind::TruncatedUnit,
        ErrorKind::SurrogateUnit,
        ErrorKind::UndefinedByte,
        ErrorKind::BadTrail,
        ErrorKind::Unmapped,
        ErrorKind::BadEscape,
        ErrorKind::RedundantEscape,
    ];

    /// The stable machine name (`invalid_byte`, `truncated_eof`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidByte => "invalid_byte",
            ErrorKind::UnexpectedContinuation => "unexpected_continuation",
            ErrorKind::Truncated => "truncated",
            ErrorKind::TruncatedEof => "truncated_eof",
            ErrorKind::Overlong => "overlong",
            ErrorKind::Surrogate => "surrogate",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::UnpairedSurrogate => "unpaired_surrogate",
            ErrorKind::SurrogatePair => "surrogate_pair",
            ErrorKind::UnpairedHighSurrogate => "unpaired_high_surrogate",
            ErrorKind::UnpairedLowSurrogate => "unpaired_low_surrogate",
            ErrorKind::TruncatedUnit => "truncated_unit",
            ErrorKind::SurrogateUnit => "surrogate_unit",
            ErrorKind::UndefinedByte => "undefined_byte",
            ErrorKind::BadTrail => "bad_trail",
            ErrorKind::Unmapped => "unmapped",
            ErrorKind::BadEscape => "bad_escape",
            ErrorKind::RedundantEscape => "redundant_escape",
        }
    }

    /// Parses a machine name back into a kind.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A short human sentence for the kind.
    pub const fn summary(self) -> &'static str {
        match self {
            ErrorKind::InvalidByte => "byte that never occurs in this dialect",
            ErrorKind::UnexpectedContinuation => "continuation byte with no lead before it",
            ErrorKind::Truncated => "sequence cut short by a byte that is not a continuation",
            ErrorKind::TruncatedEof => "sequence cut short by the end of the input",
            ErrorKind::Overlong => "lead of an overlong (non-shortest) form",
            ErrorKind::Surrogate => "lead of an encoded UTF-16 surrogate",
            ErrorKind::OutOfRange => "value above U+10FFFF (in UTF-8, the lead of one)",
            ErrorKind::UnpairedSurrogate => "surrogate that is not half of a pair",
            ErrorKind::SurrogatePair => "half of a surrogate pair that must be one 4-byte form",
            ErrorKind::UnpairedHighSurrogate => "high surrogate not followed by a low surrogate",
            ErrorKind::UnpairedLowSurrogate => "low surrogate with no high surrogate before it",
            ErrorKind::TruncatedUnit => "code unit cut short by the end of the input",
            ErrorKind::SurrogateUnit => "surrogate code unit, never a character in UTF-32",
            ErrorKind::UndefinedByte => "byte with no character in this encoding",
            ErrorKind::BadTrail => "lead byte followed by a byte that cannot follow it",
            ErrorKind::Unmapped => "sequence with no character in this encoding",
            ErrorKind::BadEscape => "escape byte that starts no escape sequence",
            ErrorKind::RedundantEscape => "escape sequence followed at once by another",
        }
    }

    /// The index of this kind in [`ErrorKind::ALL`] (for counting arrays).
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a unit is: a decoded value or an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A well-formed sequence and the value it encodes.
    Scalar(CodePoint),
    /// An ill-formed sequence: a maximal subpart (or, for the surrogate kinds of CESU-8 and
    /// WTF-8, a whole 3-byte surrogate encoding).
    Error(ErrorKind),
}

/// One piece of the input: `len` bytes from `start`, decoded as a value or an error.
///
/// Every byte of an input belongs to exactly one unit; units never overlap and never leave
/// gaps. A scalar's `len` is its *class* (1 to 6; 2 or 4 in UTF-16, 4 in UTF-32); an
/// error's `len` is 1 to 3 in UTF-8 (the maximal subpart, like
/// `core::str::Utf8Error::error_len`), up to 5 in legacy UTF-8, a code unit (2 or 4) or
/// the 1 to 3 bytes left at the end in UTF-16 and UTF-32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Offset of the first byte, relative to the slice that was decoded.
    pub start: usize,
    /// Number of bytes, 1 to 6.
    pub len: u8,
    /// The value or the error.
    pub kind: UnitKind,
}

impl Unit {
    pub(crate) const fn scalar(start: usize, len: u8, value: u32) -> Unit {
        Unit {
            start,
            len,
            kind: UnitKind::Scalar(CodePoint(value)),
        }
    }

    pub(crate) const fn error(start: usize, len: u8, kind: ErrorKind) -> Unit {
        Unit {
            start,
            len,
            kind: UnitKind::Error(kind),
        }
    }

    /// A one-byte error unit at `start` (what a single-byte encoding's scan reports).
    pub const fn error_at(start: usize, kind: ErrorKind) -> Unit {
        Unit::error(start, 1, kind)
    }

    /// One past the last byte.
    pub const fn end(&self) -> usize {
        self.start + self.len as usize
    }

    /// Whether `offset` falls in this unit.
    pub const fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end()
    }

    /// The sequence length class of a scalar (1 to 6); `None` for an error.
    pub const fn class(&self) -> Option<u8> {
        match self.kind {
            UnitKind::Scalar(_) => Some(self.len),
            UnitKind::Error(_) => None,
        }
    }

    /// The decoded value, for a scalar.
    pub const fn code_point(&self) -> Option<CodePoint> {
        match self.kind {
            UnitKind::Scalar(cp) => Some(cp),
            UnitKind::Error(_) => None,
        }
    }

    /// The error kind, for an error.
    pub const fn error_kind(&self) -> Option<ErrorKind> {
        match self.kind {
            UnitKind::Scalar(_) => None,
            UnitKind::Error(k) => Some(k),
        }
    }

    /// Whether this unit is an error.
    pub const fn is_error(&self) -> bool {
        matches!(self.kind, UnitKind::Error(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_point_display() {
        assert_eq!(CodePoint::new(0x2F).to_string(), "U+002F");
        assert_eq!(CodePoint::new(0x1F600).to_string(), "U+1F600");
        assert_eq!(CodePoint::new(0x7FFF_FFFF).to_string(), "U+7FFFFFFF");
    }

    #[test]
    fn kind_names_are_stable() {
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "invalid_byte",
                "unexpected_continuation",
                "truncated",
                "truncated_eof",
                "overlong",
                "surrogate",
                "out_of_range",
                "unpaired_surrogate",
                "surrogate_pair",
                "unpaired_high_surrogate",
                "unpaired_low_surrogate",
                "truncated_unit",
                "surrogate_unit",
                "undefined_byte",
                "bad_trail",
                "unmapped",
                "bad_escape",
                "redundant_escape"
            ]
        );
        for (i, k) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(ErrorKind::from_name(k.name()), Some(*k));
        }
    }
}
