//! The multi-byte legacy encodings of the WHATWG Encoding Standard: Shift_JIS, EUC-JP,
//! ISO-2022-JP, EUC-KR, GBK and gb18030, Big5.
//!
//! # Units
//!
//! One unit per character the encoding's decoder outputs, and one error unit per U+FFFD it
//! outputs, covering exactly the bytes it consumed for it. The structure (which bytes lead,
//! which may follow, how long a sequence is, which bytes an error consumes) is written here
//! by hand from the Encoding Standard's decoder algorithms; the code point of each
//! well-formed sequence comes from a [`MultiByteTable`] that `crate::encoding` fills by
//! asking encoding_rs to decode that sequence alone. Errors:
//!
//! - `invalid_byte`: a byte that is neither a character alone nor a lead (`A0`, `FD..FF`
//!   in Shift_JIS; `80`, `FF` in EUC-KR and Big5; in ISO-2022-JP a byte the current mode
//!   has no character for);
//! - `bad_trail`: a lead followed by a byte that cannot follow it;
//! - `unmapped`: a well-formed sequence the encoding's index has no character for;
//! - `truncated_eof`: a lead (and what followed it) cut by the end of the input;
//! - ISO-2022-JP only: `bad_escape` (an `ESC` that starts no escape sequence of the
//!   encoding: the `ESC` alone) and `redundant_escape` (an escape sequence followed at once
//!   by another: the standard makes the first one an error; it still switches the mode).
//!
//! The Encoding Standard's rule that an ASCII byte after a bad lead is not consumed holds
//! throughout: the error is then the lead alone (with, in gb18030, a digit between) and the
//! ASCII byte starts the next unit. In ISO-2022-JP a valid escape sequence is a unit of its
//! own, a scalar whose code point is [`CodePoint::ESCAPE_SEQUENCE`] (it decodes to no
//! character). In Big5, four sequences decode to two code points each (`88 62` is U+00CA
//! U+0304); their unit carries the first and [`MultiByteTable::text`] gives both.
//!
//! # Resync
//!
//! These encodings are not self-synchronizing: a trail byte may also be a lead (in
//! Shift_JIS, `82 A0 82 A0` is two hiragana or `A0 82` between two errors, depending on
//! where one starts), so the unit containing an offset can only be found by decoding from a
//! position known to be a unit boundary, a [`Checkpoint`]. Two kinds exist:
//!
//! - *sync bytes*: a byte that can only end a unit (a byte that never leads, and in gb18030
//!   is not a digit, which may be the second or fourth byte of a 4-byte sequence), so a
//!   unit starts right after it: ASCII bytes below `40` (Shift_JIS), every ASCII byte
//!   (EUC-JP, EUC-KR, Big5), every non-digit ASCII byte (GBK, gb18030). In ISO-2022-JP
//!   the end of a valid escape sequence, which also fixes the mode ([`MbState`]);
//! - the checkpoints the scan records at each block start (`scan::index`), given as a hint.
//!
//! [`Dialect::resync`] looks back from the offset for the nearest sync byte, stopping at
//! the hint, and decodes forward from whichever is nearer; it says where it started.
//! Text with newlines or spaces finds a sync byte within a line; a long run of leads (a
//! line of hiragana in Shift_JIS) costs a decode from the hint.

use core::fmt;

use super::dialect::Dialect;
use super::unit::{CodePoint, ErrorKind, Unit};

/// The encodings of this module, by their decoder's algorithm (GBK and gb18030 share one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Shift_JIS: leads `81..9F`, `E0..FC`; trails `40..7E`, `80..FC`; `A1..DF` half-width
    /// katakana alone.
    ShiftJis,
    /// EUC-JP: leads `8E` (katakana), `8F` (JIS X 0212, 3 bytes), `A1..FE`; trails `A1..FE`.
    EucJp,
    /// ISO-2022-JP: 7-bit, modes switched by escape sequences.
    Iso2022Jp,
    /// EUC-KR (with the UHC extension): leads `81..FE`; trails `41..FE`.
    EucKr,
    /// GBK and gb18030: leads `81..FE`; trails `40..7E`, `80..FE`; 4-byte sequences
    /// `81..FE 30..39 81..FE 30..39`.
    Gb18030,
    /// Big5 (HKSCS): leads `81..FE`; trails `40..7E`, `A1..FE`.
    Big5,
}

impl Family {
    /// Whether `b` starts a sequence of two bytes or more.
    #[inline(always)]
    pub const fn is_lead(self, b: u8) -> bool {
        match self {
            Family::ShiftJis => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
            Family::EucJp => matches!(b, 0x8E | 0x8F | 0xA1..=0xFE),
            Family::Iso2022Jp => b == 0x1B,
            Family::EucKr | Family::Gb18030 | Family::Big5 => matches!(b, 0x81..=0xFE),
        }
    }

    /// Whether `b` may follow lead `lead` as the second byte of a 2-byte sequence.
    #[inline(always)]
    pub const fn is_trail(self, lead: u8, b: u8) -> bool {
        match self {
            Family::ShiftJis => matches!(b, 0x40..=0x7E | 0x80..=0xFC),
            Family::EucJp => match lead {
                0x8E => matches!(b, 0xA1..=0xDF),
                _ => matches!(b, 0xA1..=0xFE),
            },
            Family::Iso2022Jp => matches!(b, 0x21..=0x7E),
            Family::EucKr => matches!(b, 0x41..=0xFE),
            Family::Gb18030 => matches!(b, 0x40..=0x7E | 0x80..=0xFE),
            Family::Big5 => matches!(b, 0x40..=0x7E | 0xA1..=0xFE),
        }
    }

    /// Whether `b` can only be the last byte of the unit it is in (see the module docs).
    pub const fn is_sync(self, b: u8) -> bool {
        match self {
            Family::ShiftJis => b < 0x40 || b == 0x7F,
            Family::Gb18030 => b < 0x80 && !b.is_ascii_digit(),
            Family::Iso2022Jp => false,
            _ => b < 0x80,
        }
    }
}

/// The decoder state a unit depends on: in ISO-2022-JP the mode the last escape sequence
/// chose; nothing in the other encodings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MbState(u8);

impl MbState {
    /// The state at the start of an input: ASCII.
    pub const INITIAL: MbState = MbState(0);
    const ROMAN: MbState = MbState(1);
    const KATAKANA: MbState = MbState(2);
    const JIS0208: MbState = MbState(3);

    /// The mode's name, as the detail pane says it.
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "ASCII",
            1 => "JIS X 0201 Roman",
            2 => "JIS X 0201 katakana",
            _ => "JIS X 0208",
        }
    }
}

/// A position known to be a unit boundary, and the decoder state there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checkpoint {
    /// The offset, in the slice decoded.
    pub at: usize,
    /// The state there.
    pub state: MbState,
}

/// Where [`Dialect::resync`] found a unit: the unit, the state at its start, and the
/// checkpoint decoding started from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resync {
    /// The unit containing the offset asked for.
    pub unit: Unit,
    /// The decoder state at the unit's start.
    pub state: MbState,
    /// Where decoding started: a unit boundary at or before `unit.start`.
    pub from: usize,
}

impl fmt::Debug for MultiByteTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MultiByteTable({})", self.name)
    }
}

// A table is known by its name: `crate::encoding` builds one per encoding.
impl PartialEq for MultiByteTable {
    fn eq(&self, other: &MultiByteTable) -> bool {
        self.name == other.name
    }
}

impl Eq for MultiByteTable {}

impl PartialOrd for MultiByteTable {
    fn partial_cmp(&self, other: &MultiByteTable) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for MultiByteTable {
    fn cmp(&self, other: &MultiByteTable) -> core::cmp::Ordering {
        self.name.cmp(other.name)
    }
}

impl core::hash::Hash for MultiByteTable {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

const UNDEFINED: u32 = u32::MAX;
/// Marks a Big5 pair that decodes to two code points: the low bits index `combined`.
const COMBINED: u32 = 0x8000_0000;

/// The code points of one multi-byte encoding's sequences, filled from an outside source
/// (encoding_rs, by `crate::encoding`) for exactly the sequences [`Family`] calls
/// well-formed.
pub struct MultiByteTable {
    name: &'static str,
    family: Family,
    /// The code point of each byte that is a character alone (or [`UNDEFINED`]).
    singles: [u32; 256],
    /// Two-byte sequences, by `lead << 8 | trail`.
    pairs: Box<[u32; 1 << 16]>,
    /// EUC-JP's `8F b1 b2` (JIS X 0212) by `(b1 - A1) * 94 + b2 - A1`.
    triples: Vec<u32>,
    /// gb18030's 4-byte pointers `0..=39419` (the rest is by formula).
    fours: Vec<u32>,
    /// Big5's two-code-point sequences.
    combined: Vec<[u32; 2]>,
}

/// What a lookup returns for a byte sequence decoded alone: one code point, two (Big5), or
/// `None` if it does not decode to a character.
pub type Lookup<'a> = &'a mut dyn FnMut(&[u8]) -> Option<(u32, Option<u32>)>;

impl MultiByteTable {
    /// A table named `name` (as encoding_rs names the encoding) for `family`, asking
    /// `lookup` for the code point(s) of every well-formed sequence. In ISO-2022-JP a
    /// sequence is asked for behind the escape sequence that selects its mode.
    pub fn build(name: &'static str, family: Family, lookup: Lookup<'_>) -> MultiByteTable {
        let mut table = MultiByteTable {
            name,
            family,
            singles: [UNDEFINED; 256],
            pairs: Box::new([UNDEFINED; 1 << 16]),
            triples: Vec::new(),
            fours: Vec::new(),
            combined: Vec::new(),
        };
        let mut one = |table: &mut MultiByteTable, seq: &[u8]| match lookup(seq) {
            Some((a, None)) => a,
            Some((a, Some(b))) => {
                table.combined.push([a, b]);
                COMBINED | (table.combined.len() as u32 - 1)
            }
            None => UNDEFINED,
        };
        if family == Family::Iso2022Jp {
            for b1 in 0x21..=0x7Eu8 {
                for b2 in 0x21..=0x7Eu8 {
                    table.pairs[(b1 as usize) << 8 | b2 as usize] =
                        one(&mut table, &[0x1B, 0x24, 0x42, b1, b2]);
                }
            }
            return table;
        }
        for b in 0..=255u8 {
            if !family.is_lead(b) {
                table.singles[b as usize] = one(&mut table, &[b]);
            }
        }
        for lead in (0..=255u8).filter(|b| family.is_lead(*b)) {
            for trail in (0..=255u8).filter(|t| family.is_trail(lead, *t)) {
                table.pairs[(lead as usize) << 8 | trail as usize] =
                    one(&mut table, &[lead, trail]);
            }
        }
        if family == Family::EucJp {
            table.triples = (0..94 * 94)
                .map(|i| {
                    one(
                        &mut table,
                        &[0x8F, 0xA1 + (i / 94) as u8, 0xA1 + (i % 94) as u8],
                    )
                })
                .collect();
        }
        if family == Family::Gb18030 {
            table.fours = (0..=39419u32)
                .map(|p| one(&mut table, &gb_four(p)))
                .collect();
        }
        table
    }

    /// The encoding's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The decoder's family.
    pub const fn family(&self) -> Family {
        self.family
    }

    /// The text a unit decodes to, as encoding_rs outputs it: its code point, both code
    /// points of a Big5 pair that has two, nothing for an ISO-2022-JP escape sequence,
    /// U+FFFD for an error.
    pub fn text(&self, bytes: &[u8], unit: &Unit) -> ([char; 2], usize) {
        let Some(cp) = unit.code_point() else {
            return (['\u{FFFD}', '\0'], 1);
        };
        if cp == CodePoint::ESCAPE_SEQUENCE {
            return (['\0', '\0'], 0);
        }
        if self.family == Family::Big5 && unit.len == 2 {
            let v = self.pairs[(bytes[unit.start] as usize) << 8 | bytes[unit.start + 1] as usize];
            if v != UNDEFINED && v & COMBINED != 0 {
                let [a, b] = self.combined[(v & !COMBINED) as usize];
                return ([char_of(a), char_of(b)], 2);
            }
        }
        ([char_of(cp.value()), '\0'], 1)
    }

    /// The bytes of the first sequence (in byte order) that decodes to `cp` alone, if any:
    /// what a search for a character looks for. In ISO-2022-JP, the bytes of a JIS X 0208
    /// character without the escape sequence before it (and ASCII as itself).
    pub fn encode(&self, cp: u32) -> Option<([u8; 4], u8)> {
        if self.family == Family::Iso2022Jp && cp < 0x80 && !matches!(cp, 0x0E | 0x0F | 0x1B) {
            return Some(([cp as u8, 0, 0, 0], 1));
        }
        if let Some(b) = self.singles.iter().position(|v| *v == cp) {
            return Some(([b as u8, 0, 0, 0], 1));
        }
        if let Some(i) = self.pairs.iter().position(|v| self.value(*v) == Some(cp)) {
            return Some(([(i >> 8) as u8, i as u8, 0, 0], 2));
        }
        if let Some(i) = self.triples.iter().position(|v| *v == cp) {
            return Some(([0x8F, 0xA1 + (i / 94) as u8, 0xA1 + (i % 94) as u8, 0], 3));
        }
        let pointer = match self.fours.iter().position(|v| *v == cp) {
            Some(p) => p as u32,
            None if self.family == Family::Gb18030 && (0x1_0000..=0x10_FFFF).contains(&cp) => {
                cp - 0x1_0000 + 189_000
            }
            None => return None,
        };
        Some((gb_four(pointer), 4))
    }

    /// Whether `b` alone is a character: the scan's fast path.
    #[inline(always)]
    pub fn is_single(&self, b: u8) -> bool {
        self.singles[b as usize] != UNDEFINED
    }

    /// For a `bad_trail` unit, the byte that broke the sequence and the byte before it
    /// (`(0x82, 0x0A)` for Shift_JIS `82 0A`): the second byte, except after EUC-JP's `8F`
    /// and in a gb18030 four-byte form, where a later one may be. `None` for another kind.
    pub fn bad_trail(&self, bytes: &[u8], unit: &Unit) -> Option<(u8, u8)> {
        if unit.error_kind() != Some(ErrorKind::BadTrail) {
            return None;
        }
        let seq = bytes.get(unit.start..)?;
        let bad = match self.family {
            Family::EucJp if seq[0] == 0x8F && matches!(seq.get(1)?, 0xA1..=0xFE) => 2,
            Family::Gb18030 if seq.get(1)?.is_ascii_digit() => {
                if matches!(seq.get(2)?, 0x81..=0xFE) {
                    3
                } else {
                    2
                }
            }
            _ => 1,
        };
        Some((seq[bad - 1], *seq.get(bad)?))
    }

    /// Whether `lead trail` is a 2-byte character: the scan's fast path (never in
    /// ISO-2022-JP, whose pairs depend on the mode).
    #[inline(always)]
    pub fn is_pair(&self, lead: u8, trail: u8) -> bool {
        self.family != Family::Iso2022Jp
            && self.pairs[(lead as usize) << 8 | trail as usize] != UNDEFINED
    }

    /// The character of one or two bytes at `at` (not past `end`), straight from the
    /// tables, and its length: the transcoder's fast path. `None` for anything else: an
    /// error, a longer sequence, Big5's pairs of two code points, and every byte in
    /// ISO-2022-JP (whose characters depend on the mode).
    #[inline(always)]
    pub fn short_char(&self, bytes: &[u8], at: usize, end: usize) -> Option<(char, usize)> {
        if self.family == Family::Iso2022Jp {
            return None;
        }
        let b0 = bytes[at];
        let single = self.singles[b0 as usize];
        if single != UNDEFINED {
            return Some((char_of(single), 1));
        }
        let b1 = *bytes[..end].get(at + 1)?;
        match self.pairs[(b0 as usize) << 8 | b1 as usize] {
            UNDEFINED => None,
            v if v & COMBINED != 0 => None,
            v => Some((char_of(v), 2)),
        }
    }

    #[inline(always)]
    fn value(&self, v: u32) -> Option<u32> {
        match v {
            UNDEFINED => None,
            v if v & COMBINED != 0 => Some(self.combined[(v & !COMBINED) as usize][0]),
            v => Some(v),
        }
    }

    #[inline(always)]
    fn pair(&self, lead: u8, trail: u8) -> Option<u32> {
        self.value(self.pairs[(lead as usize) << 8 | trail as usize])
    }

    /// The unit at `at`, a unit boundary with decoder state `state`, and the state after it.
    #[inline]
    pub fn decode(&self, bytes: &[u8], at: usize, state: MbState) -> (Unit, MbState) {
        if self.family == Family::Iso2022Jp {
            return self.decode_iso2022jp(bytes, at, state);
        }
        let b0 = bytes[at];
        let single = self.singles[b0 as usize];
        if single != UNDEFINED {
            return (Unit::scalar(at, 1, single), state);
        }
        let unit = if !self.family.is_lead(b0) {
            Unit::error(at, 1, ErrorKind::InvalidByte)
        } else {
            match self.family {
                Family::EucJp if b0 == 0x8F => self.decode_jis0212(bytes, at),
                Family::Gb18030 => self.decode_gb18030(bytes, at),
                _ => self.decode_pair(bytes, at),
            }
        };
        (unit, state)
    }

    /// A lead at `at` and what follows, in the 2-byte encodings.
    #[inline(always)]
    fn decode_pair(&self, bytes: &[u8], at: usize) -> Unit {
        let b0 = bytes[at];
        let Some(&b1) = bytes.get(at + 1) else {
            return Unit::error(at, 1, ErrorKind::TruncatedEof);
        };
        if let Some(v) = self.pair(b0, b1) {
            return Unit::scalar(at, 2, v);
        }
        let kind = match self.family.is_trail(b0, b1) {
            true => ErrorKind::Unmapped,
            false => ErrorKind::BadTrail,
        };
        Unit::error(at, consumed(1, b1), kind)
    }

    /// EUC-JP's `8F`: JIS X 0212 in three bytes.
    fn decode_jis0212(&self, bytes: &[u8], at: usize) -> Unit {
        let Some(&b1) = bytes.get(at + 1) else {
            return Unit::error(at, 1, ErrorKind::TruncatedEof);
        };
        if !matches!(b1, 0xA1..=0xFE) {
            return Unit::error(at, consumed(1, b1), ErrorKind::BadTrail);
        }
        let Some(&b2) = bytes.get(at + 2) else {
            return Unit::error(at, 2, ErrorKind::TruncatedEof);
        };
        if !matches!(b2, 0xA1..=0xFE) {
            return Unit::error(at, consumed(2, b2), ErrorKind::BadTrail);
        }
        let i = (b1 as usize - 0xA1) * 94 + b2 as usize - 0xA1;
        match self.value(self.triples[i]) {
            Some(v) => Unit::scalar(at, 3, v),
            None => Unit::error(at, 3, ErrorKind::Unmapped),
        }
    }

    /// A gb18030 lead: a 2-byte sequence, or a 4-byte one if a digit follows.
    fn decode_gb18030(&self, bytes: &[u8], at: usize) -> Unit {
        let Some(&b1) = bytes.get(at + 1) else {
            return Unit::error(at, 1, ErrorKind::TruncatedEof);
        };
        if !b1.is_ascii_digit() {
            return self.decode_pair(bytes, at);
        }
        // The standard puts the digit (and a third byte) back when the sequence breaks:
        // the error is the lead alone.
        let Some(&b2) = bytes.get(at + 2) else {
            return Unit::error(at, 2, ErrorKind::TruncatedEof);
        };
        if !matches!(b2, 0x81..=0xFE) {
            return Unit::error(at, 1, ErrorKind::BadTrail);
        }
        let Some(&b3) = bytes.get(at + 3) else {
            return Unit::error(at, 3, ErrorKind::TruncatedEof);
        };
        if !b3.is_ascii_digit() {
            return Unit::error(at, 1, ErrorKind::BadTrail);
        }
        let pointer = (bytes[at] as u32 - 0x81) * 12600
            + (b1 as u32 - 0x30) * 1260
            + (b2 as u32 - 0x81) * 10
            + (b3 as u32 - 0x30);
        let value = match pointer {
            0..=39419 => self.value(self.fours[pointer as usize]),
            189_000..=1_237_575 => Some(0x1_0000 + pointer - 189_000),
            _ => None,
        };
        match value {
            Some(v) => Unit::scalar(at, 4, v),
            None => Unit::error(at, 4, ErrorKind::Unmapped),
        }
    }

    fn decode_iso2022jp(&self, bytes: &[u8], at: usize, state: MbState) -> (Unit, MbState) {
        let b0 = bytes[at];
        if b0 == 0x1B {
            return match escape_at(bytes, at) {
                Some(mode) if escape_at(bytes, at + 3).is_some() => {
                    (Unit::error(at, 3, ErrorKind::RedundantEscape), mode)
                }
                Some(mode) => (
                    Unit::scalar(at, 3, CodePoint::ESCAPE_SEQUENCE.value()),
                    mode,
                ),
                None => (Unit::error(at, 1, ErrorKind::BadEscape), state),
            };
        }
        let invalid = Unit::error(at, 1, ErrorKind::InvalidByte);
        let unit = match state {
            MbState::JIS0208 => {
                if !matches!(b0, 0x21..=0x7E) {
                    invalid
                } else {
                    match bytes.get(at + 1) {
                        None => Unit::error(at, 1, ErrorKind::TruncatedEof),
                        Some(0x1B) => Unit::error(at, 1, ErrorKind::BadTrail),
                        Some(&b1) if matches!(b1, 0x21..=0x7E) => match self.pair(b0, b1) {
                            Some(v) => Unit::scalar(at, 2, v),
                            None => Unit::error(at, 2, ErrorKind::Unmapped),
                        },
                        Some(_) => Unit::error(at, 2, ErrorKind::BadTrail),
                    }
                }
            }
            MbState::KATAKANA => match b0 {
                0x21..=0x5F => Unit::scalar(at, 1, 0xFF61 - 0x21 + b0 as u32),
                _ => invalid,
            },
            _ => match b0 {
                0x0E | 0x0F | 0x80..=0xFF => invalid,
                0x5C if state == MbState::ROMAN => Unit::scalar(at, 1, 0xA5),
                0x7E if state == MbState::ROMAN => Unit::scalar(at, 1, 0x203E),
                _ => Unit::scalar(at, 1, b0 as u32),
            },
        };
        (unit, state)
    }

    /// The nearest checkpoint at or before `offset` that sync bytes (or, in ISO-2022-JP,
    /// escape sequences) give, looking back no further than `floor`; `None` if there is
    /// none in `floor..=offset` (other than offset 0, always a checkpoint).
    pub fn sync_before(&self, bytes: &[u8], offset: usize, floor: usize) -> Option<Checkpoint> {
        if offset == 0 {
            return Some(Checkpoint::default());
        }
        if self.family == Family::Iso2022Jp {
            let mut end = offset;
            while end >= floor + 3 {
                let e = memrchr(0x1B, &bytes[floor..end - 2])? + floor;
                if let Some(mode) = escape_at(bytes, e) {
                    return Some(Checkpoint {
                        at: e + 3,
                        state: mode,
                    });
                }
                end = e + 2;
            }
            return None;
        }
        let family = self.family;
        bytes[floor..offset]
            .iter()
            .rposition(|b| family.is_sync(*b))
            .map(|i| Checkpoint {
                at: floor + i + 1,
                state: MbState::INITIAL,
            })
    }
}

impl MultiByteTable {
    /// In ISO-2022-JP, from `from` (the last escape sequence before `offset`, which
    /// [`MultiByteTable::sync_before`] found, or the scan's checkpoint where there is none):
    /// a checkpoint at `offset` itself where `from` is in a mode of one byte a character
    /// (ASCII, JIS X 0201) and no escape reaches `offset`: every byte from
    /// there is a unit of its own, an escape that is no escape sequence too, and the mode
    /// stays. A file without escapes (ASCII, or bytes that are not ISO-2022-JP at all) is
    /// so read at any offset at once, not decoded from its start. In JIS X 0208, the pair
    /// boundary nearest before `offset` ([`jis0208_pair_at`]).
    fn nearer(&self, bytes: &[u8], offset: usize, from: Checkpoint) -> Option<Checkpoint> {
        if self.family != Family::Iso2022Jp {
            return None;
        }
        if from.state == MbState::JIS0208 {
            return Some(jis0208_pair_at(bytes, offset, from));
        }
        let reaching = offset.saturating_sub(2).max(from.at);
        (!bytes[reaching..offset].contains(&0x1B)).then_some(Checkpoint {
            at: offset,
            state: from.state,
        })
    }
}

/// In ISO-2022-JP's JIS X 0208 mode from `from`, with no escape sequence in
/// `from..offset`: a unit starts right after any byte outside `21..7E` (it was a unit of
/// its own, or the second byte of a pair it broke), and at an `ESC`; between such bytes
/// the units are pairs. So the checkpoint is the last `ESC` before `offset`, or the pair
/// boundary at or before `offset` counted from just after the last other such byte: a file
/// of 2 GiB after one `ESC $ B` is read at its end at once.
fn jis0208_pair_at(bytes: &[u8], offset: usize, from: Checkpoint) -> Checkpoint {
    let stretch = &bytes[from.at..offset];
    let at = match stretch.iter().rposition(|b| !(0x21..=0x7E).contains(b)) {
        Some(k) if stretch[k] == 0x1B => from.at + k,
        Some(k) => {
            let start = from.at + k + 1;
            start + ((offset - start) & !1)
        }
        None => from.at + ((offset - from.at) & !1),
    };
    Checkpoint {
        at,
        state: MbState::JIS0208,
    }
}

/// The characters of one and two bytes [`skip_short`] went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short {
    /// Where they end: the first byte that is not one, or `stop`.
    pub end: usize,
    /// How many were of one byte.
    pub ones: u64,
    /// How many were of two bytes.
    pub twos: u64,
}

/// Goes from `pos` (a unit boundary) past the characters of one and two bytes that end at
/// or before `stop`, straight from the tables: first a run of bytes below 80 counted 8 at a
/// time, then single bytes and pairs one by one. Only for the stateless families (every
/// one but ISO-2022-JP, whose characters depend on the mode); the scan and the repair's
/// window cuts (`repair::from`) both skip with it.
///
/// ```
/// # use hexrune::encoding::resolve;
/// # use hexrune::decode::{skip_short, Short};
/// let table = resolve("shift_jis").unwrap().multi_byte().unwrap();
/// // "ab", the pair 88 9F (亜), then a lead byte without its trail.
/// let bytes = b"ab\x88\x9F\x88";
/// assert_eq!(skip_short(table, bytes, 0, 5), Short { end: 4, ones: 2, twos: 1 });
/// // A pair that would end past `stop` is left for the decoder.
/// assert_eq!(skip_short(table, bytes, 0, 3), Short { end: 2, ones: 2, twos: 0 });
/// ```
#[inline]
pub fn skip_short(table: &MultiByteTable, bytes: &[u8], pos: usize, stop: usize) -> Short {
    let stop = stop.min(bytes.len());
    let run = ascii_run(&bytes[pos.min(stop)..stop]);
    let mut short = Short {
        end: pos + run,
        ones: run as u64,
        twos: 0,
    };
    while short.end < stop {
        let b0 = bytes[short.end];
        if table.is_single(b0) {
            short.ones += 1;
            short.end += 1;
        } else if short.end + 2 <= stop && table.is_pair(b0, bytes[short.end + 1]) {
            short.twos += 1;
            short.end += 2;
        } else {
            break;
        }
    }
    short
}

/// The number of bytes below 80 at the start of `hay`.
#[inline]
pub fn ascii_run(hay: &[u8]) -> usize {
    let mut n = 0;
    for word in hay.chunks_exact(8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
        let high = w & 0x8080_8080_8080_8080;
        if high != 0 {
            return n + (high.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + hay[n..].iter().take_while(|b| **b < 0x80).count()
}

/// The bytes an error consumes when the byte at position `k` of the sequence broke it:
/// the standard puts an ASCII byte back (it starts the next unit) and keeps any other.
#[inline(always)]
fn consumed(k: u8, b: u8) -> u8 {
    if b < 0x80 {
        k
    } else {
        k + 1
    }
}

/// The mode a valid ISO-2022-JP escape sequence at `at` switches to.
fn escape_at(bytes: &[u8], at: usize) -> Option<MbState> {
    match bytes.get(at..at + 3)? {
        [0x1B, 0x28, 0x42] => Some(MbState::INITIAL),
        [0x1B, 0x28, 0x4A] => Some(MbState::ROMAN),
        [0x1B, 0x28, 0x49] => Some(MbState::KATAKANA),
        [0x1B, 0x24, 0x40 | 0x42] => Some(MbState::JIS0208),
        _ => None,
    }
}

/// The last position of `byte` in `hay` (at memory speed: a file of 2 GiB without an
/// escape is searched whole to find none).
fn memrchr(byte: u8, hay: &[u8]) -> Option<usize> {
    memchr::memrchr(byte, hay)
}

/// The gb18030 4-byte sequence of pointer `p`.
fn gb_four(p: u32) -> [u8; 4] {
    [
        0x81 + (p / 12600) as u8,
        0x30 + (p / 1260 % 10) as u8,
        0x81 + (p / 10 % 126) as u8,
        0x30 + (p % 10) as u8,
    ]
}

fn char_of(v: u32) -> char {
    char::from_u32(v).unwrap_or('\u{FFFD}')
}

impl Dialect {
    /// The multi-byte table of this dialect, if it is a multi-byte legacy encoding.
    pub fn multi_byte(self) -> Option<&'static MultiByteTable> {
        match self {
            Dialect::MultiByte(t) => Some(t),
            _ => None,
        }
    }

    /// The unit containing `offset` in a multi-byte encoding, decoding forward from the
    /// nearest checkpoint: the nearest sync point found looking back from `offset`, or
    /// `hint` (a checkpoint at or before `offset`, from the scan's block index) if no sync
    /// point lies between it and `offset`, or offset 0. In the other dialects, the unit
    /// [`Dialect::unit_containing`] gives, found from itself.
    pub fn resync(self, bytes: &[u8], offset: usize, hint: Option<Checkpoint>) -> Resync {
        let Dialect::MultiByte(table) = self else {
            let unit = self.unit_containing(bytes, offset);
            return Resync {
                unit,
                state: MbState::INITIAL,
                from: unit.start,
            };
        };
        let hint = hint.filter(|h| h.at <= offset).unwrap_or_default();
        let from = table.sync_before(bytes, offset, hint.at).unwrap_or(hint);
        let from = table.nearer(bytes, offset, from).unwrap_or(from);
        let (mut at, mut state) = (from.at, from.state);
        let stateless = table.family() != Family::Iso2022Jp;
        loop {
            // Past the characters of one and two bytes straight from the tables, as the
            // scan goes (a far jump with no sync byte before it decodes from the start).
            if stateless {
                at = skip_short(table, bytes, at, offset).end;
            }
            let (unit, next) = table.decode(bytes, at, state);
            if unit.end() > offset {
                return Resync {
                    unit,
                    state,
                    from: from.at,
                };
            }
            (at, state) = (unit.end(), next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_runs() {
        assert_eq!(ascii_run(b""), 0);
        assert_eq!(ascii_run(b"abc"), 3);
        assert_eq!(ascii_run(b"abcdefgh\x82ij"), 8);
        assert_eq!(ascii_run(b"abcdefghijk\xFF"), 11);
        assert_eq!(ascii_run(b"\x80"), 0);
    }

    #[test]
    fn sync_bytes() {
        let sync: Vec<u8> = (0..=255u8)
            .filter(|b| Family::Gb18030.is_sync(*b))
            .collect();
        let mut want: Vec<u8> = (0..0x30).collect();
        want.extend(0x3A..0x80);
        assert_eq!(sync, want);
        assert!(Family::ShiftJis.is_sync(0x0A));
        assert!(!Family::ShiftJis.is_sync(0x41));
        assert!(Family::EucJp.is_sync(0x41));
        assert!(!Family::Iso2022Jp.is_sync(0x0A));
    }

    /// A toy ISO-2022-JP table: every pair of JIS X 0208 decodes to one code point.
    fn iso2022jp() -> MultiByteTable {
        MultiByteTable::build("ISO-2022-JP", Family::Iso2022Jp, &mut |seq: &[u8]| {
            let n = seq.len();
            Some((
                0x4E00 + u32::from(seq[n - 2]) * 94 + u32::from(seq[n - 1]),
                None,
            ))
        })
    }

    /// Resync at every offset equals decoding from the start, in inputs of ASCII, bytes
    /// above 7F, escapes that are escape sequences and escapes that are not, with and
    /// without the scan's checkpoint; and in a mode of one byte a character with no escape
    /// before the offset, decoding starts at the offset itself.
    #[test]
    fn iso2022jp_resync_equals_decoding_from_the_start() {
        let table: &'static MultiByteTable = Box::leak(Box::new(iso2022jp()));
        let dialect = Dialect::MultiByte(table);
        let pieces: [&[u8]; 11] = [
            b"ab",
            b"\x1B$B",
            b"\x1B(B",
            b"\x1B(J",
            b"\x1B(I",
            b"\x1B",
            b"\x1B(",
            b"\xA4\x30",
            b"\x21\x22\x23",
            b"\n",
            b"\0\x30",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            let mut bytes = Vec::new();
            for _ in 0..16 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.extend_from_slice(pieces[(seed % 11) as usize]);
            }
            let mut units = Vec::new();
            let (mut at, mut state) = (0, MbState::INITIAL);
            while at < bytes.len() {
                let (unit, next) = table.decode(&bytes, at, state);
                units.push((unit, state));
                (at, state) = (unit.end(), next);
            }
            for offset in 0..bytes.len() {
                let (want, want_state) = units
                    .iter()
                    .copied()
                    .find(|(u, _)| u.end() > offset)
                    .unwrap();
                let got = dialect.resync(&bytes, offset, None);
                assert_eq!(
                    (got.unit, got.state),
                    (want, want_state),
                    "{bytes:02X?} at {offset}"
                );
            }
        }
        let zeros = vec![0u8; 1 << 20];
        let r = dialect.resync(&zeros, 1_000_000, None);
        assert_eq!(
            (r.unit.start, r.from, r.state),
            (1_000_000, 1_000_000, MbState::INITIAL)
        );
        // In JIS X 0208 the pairs are counted from the escape sequence, or from just
        // after the last byte that is no half of a pair; a zero is a unit of its own.
        let mut jis = b"\x1B$B".to_vec();
        jis.extend_from_slice(&[0x30; 101]);
        let r = dialect.resync(&jis, 100, None);
        assert_eq!((r.unit.start, r.unit.len, r.from), (99, 2, 99));
        let mut sparse = b"\x1B$B".to_vec();
        sparse.resize(1 << 20, 0);
        let r = dialect.resync(&sparse, 1_000_000, None);
        assert_eq!(
            (r.unit.start, r.unit.len, r.state),
            (1_000_000, 1, MbState::JIS0208)
        );
    }

    #[test]
    fn gb_four_bytes() {
        assert_eq!(gb_four(0), [0x81, 0x30, 0x81, 0x30]);
        assert_eq!(gb_four(39419), [0x84, 0x31, 0xA4, 0x39]);
    }
}
