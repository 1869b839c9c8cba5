//! The precise decoder: cutting a byte slice into units, from the start or from any offset.
//!
//! # Where units start
//!
//! Every unit is one byte that is not a continuation byte, or a lone continuation byte,
//! followed only by continuation bytes; the single exception is the 6-byte surrogate pair of
//! CESU-8 and Modified UTF-8, whose second half starts with `ED`. So a unit always starts at a
//! byte that is not a continuation byte, except (a) a continuation byte that no lead claims,
//! which is a unit of its own, and (b) the `ED` of a paired trail surrogate.
//!
//! # Resync
//!
//! The unit containing offset `x` starts at most `max_unit_len - 1` bytes before `x`
//! (3 in UTF-8 and WTF-8, 5 in the dialects with 6-byte units). [`Dialect::unit_containing`]
//! finds the nearest byte at or before `x` in that window that is not a continuation byte,
//! decodes the unit there (taking a pair's lead half 3 bytes earlier into account) and
//! checks whether it reaches `x`; if it does not, `x` is a continuation byte that no lead
//! claims. (In WTF-8, whether a trail surrogate found this way is half of a pair depends on
//! the 3 bytes before it, so there the decoder may read up to 5 bytes back in all.) No byte
//! outside `x - 5 ..= x + 5` is read, so any offset of any input is decoded in constant
//! time, and the result equals decoding from the start (a property tested for every offset
//! of random inputs in every dialect, in `tests/decode_properties.rs`).

use super::dialect::{is_continuation, ByteRange, ByteRole, Dialect};
use super::multibyte::MbState;
use super::unit::{ErrorKind, Unit};

impl Dialect {
    /// Decodes the unit that starts at `at`.
    ///
    /// `at` must be a unit boundary: offset 0, the end of a unit, or any byte that is not a
    /// continuation byte, except the trail half of a CESU-8 / Modified UTF-8 surrogate pair
    /// (use [`Dialect::unit_containing`] where that is not known). Reads at most
    /// `max_unit_len` bytes from `at` and, in WTF-8, 3 bytes before it. Panics if
    /// `at >= bytes.len()`.
    ///
    /// ```
    /// use hexrune::decode::{Dialect, ErrorKind, Unit, UnitKind, CodePoint};
    /// let u = Dialect::Utf8.decode_at(b"\xE2\x82\xAC", 0);
    /// assert_eq!((u.len, u.kind), (3, UnitKind::Scalar(CodePoint::new(0x20AC))));
    /// let u = Dialect::Utf8.decode_at(b"\xE0\x80\xAF", 0);
    /// assert_eq!((u.len, u.kind), (1, UnitKind::Error(ErrorKind::Overlong)));
    /// ```
    #[inline]
    pub fn decode_at(self, bytes: &[u8], at: usize) -> Unit {
        let b0 = bytes[at];
        match self.role(b0) {
            ByteRole::InCodeUnit => self.decode_wide_at(bytes, at),
            ByteRole::Ascii => Unit::scalar(at, 1, b0 as u32),
            ByteRole::Continuation => Unit::error(at, 1, ErrorKind::UnexpectedContinuation),
            ByteRole::Never => Unit::error(at, 1, ErrorKind::InvalidByte),
            ByteRole::Lead { len, second } => self.decode_sequence(bytes, at, len, second),
        }
    }

    fn decode_sequence(self, bytes: &[u8], at: usize, len: u8, second: ByteRange) -> Unit {
        let b0 = bytes[at];
        let Some(&b1) = bytes.get(at + 1) else {
            return Unit::error(at, 1, ErrorKind::TruncatedEof);
        };
        if !second.contains(b1) {
            let kind = if is_continuation(b1) {
                restriction_kind(b0)
            } else {
                ErrorKind::Truncated
            };
            return Unit::error(at, 1, kind);
        }
        let mut value = (b0 & (0x7F >> len)) as u32;
        value = (value << 6) | (b1 & 0x3F) as u32;
        for i in 2..len as usize {
            match bytes.get(at + i) {
                None => return Unit::error(at, i as u8, ErrorKind::TruncatedEof),
                Some(&b) if is_continuation(b) => value = (value << 6) | (b & 0x3F) as u32,
                Some(_) => return Unit::error(at, i as u8, ErrorKind::Truncated),
            }
        }
        if len == 3 && b0 == 0xED && b1 >= 0xA0 {
            return self.surrogate_unit(bytes, at, value);
        }
        Unit::scalar(at, len, value)
    }

    /// A complete 3-byte surrogate encoding at `at` (only reachable outside strict UTF-8).
    fn surrogate_unit(self, bytes: &[u8], at: usize, value: u32) -> Unit {
        let is_lead = value <= 0xDBFF;
        let trail_follows = is_lead && trail_surrogate_at(bytes, at + 3).is_some();
        match self {
            Dialect::Cesu8 | Dialect::Mutf8 => match trail_surrogate_at(bytes, at + 3) {
                Some(trail) if is_lead => {
                    let supplementary = 0x1_0000 + ((value - 0xD800) << 10) + (trail - 0xDC00);
                    Unit::scalar(at, 6, supplementary)
                }
                _ if self == Dialect::Mutf8 => Unit::scalar(at, 3, value),
                _ => Unit::error(at, 3, ErrorKind::UnpairedSurrogate),
            },
            Dialect::Wtf8 => {
                let after_lead = !is_lead && at >= 3 && lead_surrogate_at(bytes, at - 3).is_some();
                if trail_follows || after_lead {
                    Unit::error(at, 3, ErrorKind::SurrogatePair)
                } else {
                    Unit::scalar(at, 3, value)
                }
            }
            _ => Unit::scalar(at, 3, value),
        }
    }

    /// The unit containing `offset`, by looking back at most [`Dialect::max_lookback`]
    /// bytes. Equal to the unit that decoding from the start gives. Panics if
    /// `offset >= bytes.len()`.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// // "a€": the unit containing offset 3 (the last byte of the euro sign) starts at 1.
    /// let u = Dialect::Utf8.unit_containing(b"a\xE2\x82\xAC", 3);
    /// assert_eq!((u.start, u.len), (1, 3));
    /// ```
    pub fn unit_containing(self, bytes: &[u8], offset: usize) -> Unit {
        assert!(offset < bytes.len(), "offset {offset} out of bounds");
        if let Some(width) = self.code_unit_width() {
            return self.wide_unit_containing(bytes, offset, width);
        }
        let lowest = offset.saturating_sub(self.max_lookback());
        let Some(start) = (lowest..=offset)
            .rev()
            .find(|&i| !is_continuation(bytes[i]))
        else {
            return Unit::error(offset, 1, ErrorKind::UnexpectedContinuation);
        };
        let unit = self.unit_at_boundary_candidate(bytes, start);
        if unit.contains(offset) {
            unit
        } else {
            Unit::error(offset, 1, ErrorKind::UnexpectedContinuation)
        }
    }

    /// The unit that covers the non-continuation byte at `start`: the unit starting there,
    /// or a CESU-8 / Modified UTF-8 pair whose trail half starts there.
    fn unit_at_boundary_candidate(self, bytes: &[u8], start: usize) -> Unit {
        if matches!(self, Dialect::Cesu8 | Dialect::Mutf8)
            && start >= 3
            && trail_surrogate_at(bytes, start).is_some()
            && lead_surrogate_at(bytes, start - 3).is_some()
        {
            return self.decode_at(bytes, start - 3);
        }
        self.decode_at(bytes, start)
    }

    /// The unit after the one containing `offset`, or `None` at the end.
    pub fn next_unit(self, bytes: &[u8], offset: usize) -> Option<Unit> {
        let end = self.unit_containing(bytes, offset).end();
        (end < bytes.len()).then(|| self.decode_at(bytes, end))
    }

    /// The unit before the one containing `offset`, or `None` at the start.
    pub fn prev_unit(self, bytes: &[u8], offset: usize) -> Option<Unit> {
        let start = self.unit_containing(bytes, offset).start;
        (start > 0).then(|| self.unit_containing(bytes, start - 1))
    }

    /// Iterates over the units of `bytes` from the start.
    ///
    /// ```
    /// use hexrune::decode::{Dialect, ErrorKind};
    /// let kinds: Vec<_> = Dialect::Utf8.units(b"\xE1\xA0\xC0").map(|u| (u.len, u.error_kind())).collect();
    /// assert_eq!(kinds, [(2, Some(ErrorKind::Truncated)), (1, Some(ErrorKind::InvalidByte))]);
    /// ```
    pub fn units(self, bytes: &[u8]) -> Units<'_> {
        Units {
            dialect: self,
            bytes,
            pos: 0,
            state: MbState::INITIAL,
        }
    }

    /// Iterates over the units from the one containing `offset` to the end.
    pub fn units_from(self, bytes: &[u8], offset: usize) -> Units<'_> {
        let (pos, state) = if offset < bytes.len() {
            let found = self.resync(bytes, offset, None);
            (found.unit.start, found.state)
        } else {
            (bytes.len(), MbState::INITIAL)
        };
        Units {
            dialect: self,
            bytes,
            pos,
            state,
        }
    }

    /// Iterates over the units from `checkpoint` (a unit boundary and the decoder state
    /// there, as the scan's block index records them) to the end.
    pub fn units_from_checkpoint(
        self,
        bytes: &[u8],
        checkpoint: super::multibyte::Checkpoint,
    ) -> Units<'_> {
        Units {
            dialect: self,
            bytes,
            pos: checkpoint.at.min(bytes.len()),
            state: checkpoint.state,
        }
    }

    /// What an error unit is, in a sentence: its kind's [`ErrorKind::summary`], said of
    /// an encoding rather than a dialect outside the UTF-8 family, and naming the bytes
    /// of a multi-byte encoding's bad trail. `None` for a scalar.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// let sjis = hexrune::encoding::resolve("shift_jis").unwrap();
    /// let bytes = b"\x82\n";
    /// assert_eq!(
    ///     sjis.error_summary(bytes, &sjis.decode_at(bytes, 0)).unwrap(),
    ///     "lead byte followed by a byte that cannot follow it: 0A cannot follow 82"
    /// );
    /// let bytes = b"\xA0";
    /// assert_eq!(
    ///     sjis.error_summary(bytes, &sjis.decode_at(bytes, 0)).unwrap(),
    ///     "byte that never occurs in this encoding"
    /// );
    /// let bytes = b"\xFF";
    /// assert_eq!(
    ///     Dialect::Utf8.error_summary(bytes, &Dialect::Utf8.decode_at(bytes, 0)).unwrap(),
    ///     "byte that never occurs in this dialect"
    /// );
    /// ```
    pub fn error_summary(self, bytes: &[u8], unit: &Unit) -> Option<String> {
        let kind = unit.error_kind()?;
        Some(match kind {
            ErrorKind::UnexpectedContinuation => match self.broken_lead_before(bytes, unit) {
                Some(at) => format!(
                    "continuation byte after the broken sequence at 0x{at:X} (lead {:02X})",
                    bytes[at]
                ),
                None => kind.summary().into(),
            },
            ErrorKind::BadTrail => match self.multi_byte().and_then(|t| t.bad_trail(bytes, unit)) {
                Some((before, bad)) => {
                    format!("{}: {bad:02X} cannot follow {before:02X}", kind.summary())
                }
                None => self.kind_summary(kind).into(),
            },
            _ => self.kind_summary(kind).into(),
        })
    }

    /// The sentence for an error kind in this dialect or encoding, as a rule of a report
    /// names it: [`ErrorKind::summary`], but "this encoding" for an invalid byte of an
    /// encoding (`-e`), and a UTF-32 code unit above U+10FFFF in UTF-32's own terms.
    ///
    /// ```
    /// use hexrune::decode::{Dialect, ErrorKind};
    /// assert_eq!(
    ///     Dialect::Utf32Le.kind_summary(ErrorKind::OutOfRange),
    ///     "code unit whose value is above U+10FFFF"
    /// );
    /// assert_eq!(
    ///     Dialect::Utf8.kind_summary(ErrorKind::OutOfRange),
    ///     "value above U+10FFFF (in UTF-8, the lead of one)"
    /// );
    /// ```
    pub fn kind_summary(self, kind: ErrorKind) -> &'static str {
        match kind {
            ErrorKind::InvalidByte if self.code_unit_width().is_some() => {
                "byte that never occurs in this encoding"
            }
            ErrorKind::OutOfRange if self.code_unit_width() == Some(4) => {
                "code unit whose value is above U+10FFFF"
            }
            _ => kind.summary(),
        }
    }

    /// For a stray continuation byte (`unexpected_continuation`) after an error unit that
    /// starts with a lead's shape (`AF` after `C0`; `80` and `80` after `F5 80`; `A0` after
    /// `ED`, a lead that takes 80..9F next), with at most two other stray continuation
    /// bytes between: where that unit starts. The kind's own summary ("with no lead before
    /// it") would deny the lead a reader sees.
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// let bytes = b"/\xE0\x80\xAF";
    /// let u = Dialect::Utf8.decode_at(bytes, 3);
    /// assert_eq!(Dialect::Utf8.broken_lead_before(bytes, &u), Some(1));
    /// assert_eq!(
    ///     Dialect::Utf8.error_summary(bytes, &u).unwrap(),
    ///     "continuation byte after the broken sequence at 0x1 (lead E0)"
    /// );
    /// let bytes = b"a\x80";
    /// assert_eq!(Dialect::Utf8.broken_lead_before(bytes, &Dialect::Utf8.decode_at(bytes, 1)), None);
    /// ```
    pub fn broken_lead_before(self, bytes: &[u8], unit: &Unit) -> Option<usize> {
        if unit.error_kind() != Some(ErrorKind::UnexpectedContinuation) {
            return None;
        }
        let mut at = unit.start;
        for _ in 0..3 {
            let before = self.unit_containing(bytes, at.checked_sub(1)?);
            let lead = *bytes.get(before.start)?;
            if !before.is_error() {
                return None;
            }
            if lead >= 0xC0 {
                return Some(before.start);
            }
            // Another stray continuation byte: the lead may stand before it.
            if !(0x80..0xC0).contains(&lead) || before.len != 1 {
                return None;
            }
            at = before.start;
        }
        None
    }

    /// The byte range that was expected where an error unit stopped: for a truncated
    /// sequence the range allowed at the position that was cut, for `overlong`, `surrogate`
    /// and `out_of_range` the range allowed after the lead. `None` for the other kinds, and
    /// in UTF-16 and UTF-32 (whose errors are whole code units).
    ///
    /// ```
    /// use hexrune::decode::{Dialect, ByteRange};
    /// let u = Dialect::Utf8.decode_at(b"\xE0\x80", 0);
    /// assert_eq!(Dialect::Utf8.expected(b"\xE0\x80", &u), Some(ByteRange::new(0xA0, 0xBF)));
    /// ```
    pub fn expected(self, bytes: &[u8], unit: &Unit) -> Option<ByteRange> {
        let kind = unit.error_kind()?;
        let ByteRole::Lead { second, .. } = self.role(bytes[unit.start]) else {
            return None;
        };
        match kind {
            ErrorKind::Truncated | ErrorKind::TruncatedEof if unit.len >= 2 => {
                Some(ByteRange::CONTINUATION)
            }
            ErrorKind::Truncated
            | ErrorKind::TruncatedEof
            | ErrorKind::Overlong
            | ErrorKind::Surrogate
            | ErrorKind::OutOfRange => Some(second),
            _ => None,
        }
    }
}

/// The kind of error a continuation byte outside a restricted lead's range makes: ED's
/// excluded range is the surrogates, F4's the values above U+10FFFF, every other restricted
/// lead's (E0, F0, and C0, F8, FC in the dialects that have them) the overlong forms.
fn restriction_kind(lead: u8) -> ErrorKind {
    match lead {
        0xED => ErrorKind::Surrogate,
        0xF4 => ErrorKind::OutOfRange,
        _ => ErrorKind::Overlong,
    }
}

/// The value of a complete 3-byte lead-surrogate encoding (`ED A0..AF 80..BF`) at `at`.
pub(crate) fn lead_surrogate_at(bytes: &[u8], at: usize) -> Option<u32> {
    surrogate_at(bytes, at, 0xA0, 0xAF)
}

/// The value of a complete 3-byte trail-surrogate encoding (`ED B0..BF 80..BF`) at `at`.
pub(crate) fn trail_surrogate_at(bytes: &[u8], at: usize) -> Option<u32> {
    surrogate_at(bytes, at, 0xB0, 0xBF)
}

fn surrogate_at(bytes: &[u8], at: usize, lo: u8, hi: u8) -> Option<u32> {
    match bytes.get(at..at.checked_add(3)?)? {
        [0xED, b1, b2] if (lo..=hi).contains(b1) && is_continuation(*b2) => {
            Some(0xD000 | ((*b1 as u32 & 0x3F) << 6) | (*b2 as u32 & 0x3F))
        }
        _ => None,
    }
}

/// Iterator over the units of a byte slice; see [`Dialect::units`].
#[derive(Clone, Debug)]
pub struct Units<'a> {
    dialect: Dialect,
    bytes: &'a [u8],
    pos: usize,
    /// The decoder state at `pos` (ISO-2022-JP's mode).
    state: MbState,
}

impl Units<'_> {
    /// The offset of the next unit this iterator will return.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The offset and decoder state of the next unit: a checkpoint.
    pub fn checkpoint(&self) -> super::multibyte::Checkpoint {
        super::multibyte::Checkpoint {
            at: self.pos,
            state: self.state,
        }
    }
}

impl Iterator for Units<'_> {
    type Item = Unit;

    #[inline]
    fn next(&mut self) -> Option<Unit> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let unit = match self.dialect {
            Dialect::MultiByte(t) => {
                let (unit, state) = t.decode(self.bytes, self.pos, self.state);
                self.state = state;
                unit
            }
            _ => self.dialect.decode_at(self.bytes, self.pos),
        };
        self.pos = unit.end();
        Some(unit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bytes.len() - self.pos.min(self.bytes.len());
        (left.div_ceil(6), Some(left))
    }
}

impl core::iter::FusedIterator for Units<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::unit::{CodePoint, UnitKind};
    use ErrorKind::*;

    /// A unit as a compact, readable tuple: (start, len, "U+XXXX" or kind name).
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

    fn kinds(d: Dialect, bytes: &[u8]) -> Vec<(u8, Option<ErrorKind>)> {
        d.units(bytes).map(|u| (u.len, u.error_kind())).collect()
    }

    #[test]
    fn table_3_8_example() {
        // The Unicode Standard, ch. 3.9, Table 3-8.
        let input = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
        assert_eq!(
            kinds(Dialect::Utf8, input),
            [
                (1, None),
                (3, Some(Truncated)),
                (2, Some(Truncated)),
                (1, Some(Truncated)),
                (1, None),
                (1, Some(UnexpectedContinuation)),
                (1, None),
                (1, Some(UnexpectedContinuation)),
                (1, Some(UnexpectedContinuation)),
                (1, None),
            ]
        );
    }

    #[test]
    fn every_utf8_kind() {
        let d = Dialect::Utf8;
        assert_eq!(kinds(d, b"\xC0"), [(1, Some(InvalidByte))]);
        assert_eq!(kinds(d, b"\xFF"), [(1, Some(InvalidByte))]);
        assert_eq!(kinds(d, b"\x80"), [(1, Some(UnexpectedContinuation))]);
        assert_eq!(kinds(d, b"\xE1\x80a"), [(2, Some(Truncated)), (1, None)]);
        assert_eq!(kinds(d, b"\xF0\x9F\x98"), [(3, Some(TruncatedEof))]);
        assert_eq!(
            kinds(d, b"\xE0\x80\xAF"),
            [
                (1, Some(Overlong)),
                (1, Some(UnexpectedContinuation)),
                (1, Some(UnexpectedContinuation))
            ]
        );
        assert_eq!(kinds(d, b"\xF0\x8F")[0], (1, Some(Overlong)));
        assert_eq!(kinds(d, b"\xED\xA0\x80")[0], (1, Some(Surrogate)));
        assert_eq!(kinds(d, b"\xF4\x90\x80\x80")[0], (1, Some(OutOfRange)));
        assert_eq!(kinds(d, b"\xE0a"), [(1, Some(Truncated)), (1, None)]);
        assert_eq!(
            kinds(d, b"\xE1\xA0\xC0"),
            [(2, Some(Truncated)), (1, Some(InvalidByte))]
        );
    }

    #[test]
    fn utf8_scalars_of_every_class() {
        assert_eq!(
            summary(Dialect::Utf8, "a\u{E9}\u{20AC}\u{1F600}".as_bytes()),
            [
                (0, 1, "U+0061".into()),
                (1, 2, "U+00E9".into()),
                (3, 3, "U+20AC".into()),
                (6, 4, "U+1F600".into())
            ]
        );
        assert_eq!(
            summary(Dialect::Utf8, b"\xF4\x8F\xBF\xBF\xED\x9F\xBF"),
            [(0, 4, "U+10FFFF".into()), (4, 3, "U+D7FF".into())]
        );
    }

    const PAIR: &[u8] = b"\xED\xA0\xBD\xED\xB8\x80"; // U+1F600 as two 3-byte surrogates

    #[test]
    fn cesu8_rules() {
        let d = Dialect::Cesu8;
        assert_eq!(summary(d, PAIR), [(0, 6, "U+1F600".into())]);
        assert_eq!(kinds(d, b"\xED\xA0\xBD"), [(3, Some(UnpairedSurrogate))]);
        assert_eq!(kinds(d, b"\xED\xB8\x80"), [(3, Some(UnpairedSurrogate))]);
        // a lead followed by a lead: the first is unpaired, the second pairs with the trail
        assert_eq!(
            kinds(d, b"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80"),
            [(3, Some(UnpairedSurrogate)), (6, None)]
        );
        // a lead followed by a cut trail
        assert_eq!(
            kinds(d, b"\xED\xA0\xBD\xED\xB8"),
            [(3, Some(UnpairedSurrogate)), (2, Some(TruncatedEof))]
        );
        assert_eq!(kinds(d, b"\xF0\x9F\x98\x80")[0], (1, Some(InvalidByte)));
        assert_eq!(kinds(d, b"\xC0\x80")[0], (1, Some(InvalidByte)));
        assert_eq!(kinds(d, b"\x00"), [(1, None)]);
        assert_eq!(kinds(d, b"\xE0\x80")[0], (1, Some(Overlong)));
    }

    #[test]
    fn mutf8_rules() {
        let d = Dialect::Mutf8;
        assert_eq!(summary(d, b"\xC0\x80"), [(0, 2, "U+0000".into())]);
        assert_eq!(kinds(d, b"\x00"), [(1, Some(InvalidByte))]);
        assert_eq!(kinds(d, b"\xC0\xAF")[0], (1, Some(Overlong)));
        assert_eq!(kinds(d, b"\xC0a")[0], (1, Some(Truncated)));
        assert_eq!(kinds(d, b"\xC0")[0], (1, Some(TruncatedEof)));
        assert_eq!(kinds(d, b"\xC1\x80")[0], (1, Some(InvalidByte)));
        assert_eq!(summary(d, PAIR), [(0, 6, "U+1F600".into())]);
        assert_eq!(summary(d, b"\xED\xA0\xBD"), [(0, 3, "U+D83D".into())]);
        assert_eq!(summary(d, b"\xED\xB8\x80"), [(0, 3, "U+DE00".into())]);
        assert_eq!(kinds(d, b"\xF0\x9F\x98\x80")[0], (1, Some(InvalidByte)));
    }

    #[test]
    fn wtf8_rules() {
        let d = Dialect::Wtf8;
        assert_eq!(
            kinds(d, PAIR),
            [(3, Some(SurrogatePair)), (3, Some(SurrogatePair))]
        );
        assert_eq!(summary(d, b"\xED\xA0\xBD"), [(0, 3, "U+D83D".into())]);
        assert_eq!(
            summary(d, b"\xED\xB8\x80a"),
            [(0, 3, "U+DE00".into()), (3, 1, "U+0061".into())]
        );
        // trail, then lead: both lone, both valid
        assert_eq!(
            kinds(d, b"\xED\xB8\x80\xED\xA0\xBD"),
            [(3, None), (3, None)]
        );
        assert_eq!(
            summary(d, "\u{1F600}".as_bytes()),
            [(0, 4, "U+1F600".into())]
        );
        assert_eq!(kinds(d, b"\xF4\x90\x80\x80")[0], (1, Some(OutOfRange)));
    }

    #[test]
    fn legacy_rules() {
        let d = Dialect::Legacy;
        assert_eq!(
            summary(d, b"\xF8\x88\x80\x80\x80"),
            [(0, 5, "U+200000".into())]
        );
        assert_eq!(
            summary(d, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
            [(0, 6, "U+7FFFFFFF".into())]
        );
        assert_eq!(summary(d, b"\xF4\x90\x80\x80"), [(0, 4, "U+110000".into())]);
        assert_eq!(summary(d, b"\xED\xA0\x80"), [(0, 3, "U+D800".into())]);
        assert_eq!(kinds(d, b"\xF8\x87\xBF\xBF\xBF")[0], (1, Some(Overlong)));
        assert_eq!(
            kinds(d, b"\xFC\x83\xBF\xBF\xBF\xBF")[0],
            (1, Some(Overlong))
        );
        assert_eq!(
            kinds(d, b"\xFC\x84\x80\x80\x80")[0],
            (5, Some(TruncatedEof))
        );
        assert_eq!(kinds(d, b"\xC0\x80")[0], (1, Some(InvalidByte)));
        assert_eq!(kinds(d, b"\xFE")[0], (1, Some(InvalidByte)));
    }

    #[test]
    fn resync_examples() {
        let d = Dialect::Cesu8;
        let bytes = [b"a".as_slice(), PAIR, b"b"].concat();
        for x in 1..7 {
            let u = d.unit_containing(&bytes, x);
            assert_eq!((u.start, u.len), (1, 6), "offset {x}");
        }
        assert_eq!(d.prev_unit(&bytes, 7).map(|u| u.start), Some(1));
        assert_eq!(d.next_unit(&bytes, 4).map(|u| u.start), Some(7));
        assert_eq!(d.next_unit(&bytes, 7), None);
        assert_eq!(d.prev_unit(&bytes, 0), None);
        // a long run of continuation bytes: each is its own unit
        let run = b"\xE2\x82\xAC\x80\x80\x80\x80";
        let u = Dialect::Utf8.unit_containing(run, 6);
        assert_eq!(
            (u.start, u.len, u.error_kind()),
            (6, 1, Some(UnexpectedContinuation))
        );
        let u = Dialect::Utf8.unit_containing(run, 2);
        assert_eq!((u.start, u.code_point()), (0, Some(CodePoint::new(0x20AC))));
    }

    #[test]
    fn expected_ranges() {
        let d = Dialect::Utf8;
        let expect = |bytes: &[u8]| {
            let u = d.decode_at(bytes, 0);
            d.expected(bytes, &u).map(|r| r.to_string())
        };
        assert_eq!(expect(b"\xE0\x80").as_deref(), Some("A0..BF"));
        assert_eq!(expect(b"\xED\xA0").as_deref(), Some("80..9F"));
        assert_eq!(expect(b"\xF4\x90").as_deref(), Some("80..8F"));
        assert_eq!(expect(b"\xF0a").as_deref(), Some("90..BF"));
        assert_eq!(expect(b"\xE1\x80a").as_deref(), Some("80..BF"));
        assert_eq!(expect(b"\xC2").as_deref(), Some("80..BF"));
        assert_eq!(expect(b"\x80"), None);
        assert_eq!(expect(b"\xFF"), None);
        let u = Dialect::Mutf8.decode_at(b"\xC0\x81", 0);
        assert_eq!(
            Dialect::Mutf8
                .expected(b"\xC0\x81", &u)
                .map(|r| r.to_string())
                .as_deref(),
            Some("80")
        );
    }
}
