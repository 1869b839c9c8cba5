//! `--from LABEL`: the second front end of the repair, for an input in another encoding.
//! The output is UTF-8, whatever the input was.
//!
//! The input is read by the decoder in a [`Dialect`] ([`crate::encoding::resolve`]):
//! UTF-16LE/BE, UTF-32LE/BE, the single-byte encodings of encoding_rs, IBM437 and IBM850,
//! and the multi-byte legacy encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK,
//! GB18030, Big5), the same units the viewer and `check` show. Unit by unit, each scalar
//! is written in UTF-8 (both code points of a Big5 sequence that has two; nothing for an
//! ISO-2022-JP escape sequence), each error unit (an unpaired surrogate, a truncated code
//! unit, an undefined byte, a bad trail byte, ...) under `--invalid`, with its kind's name
//! in the log. Under `--invalid replace` the output of a multi-byte encoding is exactly
//! what encoding_rs's decoding with replacement gives (the WHATWG Encoding Standard's
//! output), as the decoder's error units are the sequences encoding_rs calls malformed.
//!
//! `--invalid keep` is refused (the input's bytes are not UTF-8); `escape=optu8` and
//! `escape=pep383` escape each byte 80..FF of a bad unit (a byte below 80 in it, as the
//! zero half of an unpaired UTF-16 surrogate, is written as itself: no escape covers it).
//!
//! A U+FEFF at offset 0 of the decoded text (a UTF-16/32 BOM, GB18030's `84 31 95 33`)
//! becomes the UTF-8 BOM under `--bom keep`, is removed under `--bom strip`; `--bom add`
//! writes one at the start unless the input had one. One after the start is kept (and
//! counted) or, under `--bom strip`, removed.

use std::io;
use std::ops::Range;

use super::{
    escape_bytes, invalid_bytes, Action, Bom, Invalid, Kind, Output, Policy, Tally, Windows,
};
use crate::decode::{CodePoint, Dialect, Family, MbState, Unit, UnitKind};
use crate::scan::multibyte::{ascii_run, skip_short};
use crate::view::fallback::Escape;
use crate::view::second_code_point;

/// U+FEFF in UTF-8.
const BOM: &[u8] = super::BOM;

/// Repairs an input in another encoding into UTF-8; see the module documentation.
pub struct Transcoder {
    policy: Policy,
    dialect: Dialect,
    /// The decoder state at the start of the next window (ISO-2022-JP's mode).
    state: MbState,
    tally: Tally,
    /// The UTF-8 of the run of scalars being gathered.
    text: Vec<u8>,
    /// New bytes of a change.
    scratch: Vec<u8>,
    started: bool,
}

impl std::fmt::Debug for Transcoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transcoder")
            .field("policy", &self.policy)
            .finish()
    }
}

impl Transcoder {
    /// A transcoder reading the input as `dialect` (not of the UTF-8 family).
    pub fn dialect(policy: Policy, dialect: Dialect) -> Transcoder {
        Transcoder {
            policy,
            dialect,
            state: MbState::INITIAL,
            tally: Tally::default(),
            text: Vec::with_capacity(1 << 16),
            scratch: Vec::with_capacity(32),
            started: false,
        }
    }

    /// What was changed so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Whether `c`, decoded from the input, is escaped byte by byte: a genuine U+EF80..U+EFFF
    /// under `--invalid escape=optu8`, as on the way from UTF-8, so that OUT's escapes
    /// are only ever escapes (and `--unescape optu8` of OUT turns no character into a
    /// byte).
    fn escapes(&self, c: char) -> bool {
        self.policy.invalid == Invalid::Escape(Escape::Optu8)
            && ('\u{EF80}'..='\u{EFFF}').contains(&c)
    }

    /// Writes the gathered text for the input bytes `old`.
    fn flush(&mut self, old: &[u8], out: &mut impl Output) -> io::Result<()> {
        if !old.is_empty() || !self.text.is_empty() {
            out.decoded(old, &self.text)?;
            self.text.clear();
        }
        Ok(())
    }

    /// An undecodable unit: `old` at input offset `offset`, of kind `kind`.
    fn bad(
        &mut self,
        offset: u64,
        old: &[u8],
        kind: Kind,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut new = std::mem::take(&mut self.scratch);
        new.clear();
        let action = invalid_bytes(self.policy.invalid, old, &mut new).unwrap_or(Action::Replace);
        if action == Action::Replace && new.is_empty() {
            new.extend_from_slice(super::REPLACEMENT); // keep is refused before a run
        }
        let written = self.tally.change(offset, old, &new, kind, action, out);
        self.scratch = new;
        written
    }

    /// A U+FEFF decoded from `old` at `offset`.
    fn bom(&mut self, offset: u64, old: &[u8], out: &mut impl Output) -> io::Result<bool> {
        let kind = if offset == 0 {
            Kind::Bom
        } else {
            Kind::MidFileBom
        };
        match self.policy.bom {
            Bom::Strip => {
                self.tally
                    .change(offset, old, b"", kind, Action::Strip, out)?;
                Ok(true)
            }
            _ if offset != 0 => {
                self.tally.add(kind, Action::Keep);
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    /// The decoder's units of `bytes[range]`, front to back.
    fn window(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut pos = range.start;
        let mut run = pos; // start of the input bytes whose text is in `self.text`
        let mut utf8 = [0u8; 4];
        // ASCII is itself in every multi-byte encoding but ISO-2022-JP (whose mode may say
        // otherwise); UTF-16/32 and the single-byte encodings take the decoder's way.
        let table = self
            .dialect
            .multi_byte()
            .filter(|t| t.family() != Family::Iso2022Jp);
        if self.utf8_bom_first(bytes, pos..range.end, base) {
            pos += BOM.len();
            match self.bom(0, &bytes[run..pos], out)? {
                true => run = pos,
                false => self.text.extend_from_slice(BOM),
            }
        }
        while pos < range.end {
            if self.text.len() >= 1 << 16 {
                self.flush(&bytes[run..pos], out)?;
                run = pos;
            }
            if let Some(table) = table {
                if bytes[pos] < 0x80 {
                    let n = ascii_run(&bytes[pos..range.end]);
                    self.text.extend_from_slice(&bytes[pos..pos + n]);
                    pos += n;
                    continue;
                }
                if let Some((c, len)) = table.short_char(bytes, pos, range.end) {
                    if c != '\u{FEFF}' && !self.escapes(c) {
                        push_char(&mut self.text, c);
                        pos += len;
                        continue;
                    }
                }
            }
            let (unit, state) = unit_at(self.dialect, bytes, pos, self.state);
            self.state = state;
            let end = unit.end();
            let offset = base + pos as u64;
            match unit.kind {
                UnitKind::Scalar(cp) if cp == CodePoint::ESCAPE_SEQUENCE => {} // a mode switch
                UnitKind::Scalar(cp) => match cp.to_char() {
                    Some('\u{FEFF}') => {
                        self.flush(&bytes[run..pos], out)?;
                        run = pos;
                        if self.bom(offset, &bytes[pos..end], out)? {
                            run = end;
                        } else {
                            self.text.extend_from_slice(BOM);
                        }
                    }
                    Some(c) if self.escapes(c) => {
                        self.flush(&bytes[run..pos], out)?;
                        let new = escape_bytes(Escape::Optu8, c.encode_utf8(&mut utf8).as_bytes());
                        let action = Action::Escape(Escape::Optu8);
                        let old = &bytes[pos..end];
                        self.tally
                            .change(offset, old, &new, Kind::GenuineOptu8, action, out)?;
                        run = end;
                    }
                    Some(c) => {
                        if let (Dialect::SingleByte(t), '\u{80}'..='\u{9F}') = (self.dialect, c) {
                            if crate::encoding::table::is_filled_hole(t, bytes[pos]) {
                                self.tally.filled_hole(bytes[pos]);
                            }
                        }
                        self.text
                            .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                        if let Some(second) =
                            second_code_point(bytes, self.dialect, &unit).and_then(|c| c.to_char())
                        {
                            self.text
                                .extend_from_slice(second.encode_utf8(&mut utf8).as_bytes());
                        }
                    }
                    None => {
                        self.flush(&bytes[run..pos], out)?;
                        self.bad(offset, &bytes[pos..end], Kind::AboveUnicode, out)?;
                        run = end;
                    }
                },
                UnitKind::Error(kind) => {
                    self.flush(&bytes[run..pos], out)?;
                    self.bad(offset, &bytes[pos..end], Kind::Error(kind), out)?;
                    run = end;
                }
            }
            pos = end;
        }
        self.flush(&bytes[run..pos], out)
    }
}

/// Appends `c` in UTF-8 byte by byte: a call to copy 1 to 3 bytes costs more than the
/// character's lookup.
#[inline(always)]
fn push_char(text: &mut Vec<u8>, c: char) {
    let v = c as u32;
    if v < 0x80 {
        text.push(v as u8);
    } else if v < 0x800 {
        text.extend([0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8]);
    } else if v < 0x10000 {
        text.extend([
            0xE0 | (v >> 12) as u8,
            0x80 | ((v >> 6) & 0x3F) as u8,
            0x80 | (v & 0x3F) as u8,
        ]);
    } else {
        text.extend([
            0xF0 | (v >> 18) as u8,
            0x80 | ((v >> 12) & 0x3F) as u8,
            0x80 | ((v >> 6) & 0x3F) as u8,
            0x80 | (v & 0x3F) as u8,
        ]);
    }
}

/// The unit at `pos` (a unit boundary with decoder state `state`) and the state after it.
fn unit_at(dialect: Dialect, bytes: &[u8], pos: usize, state: MbState) -> (Unit, MbState) {
    match dialect.multi_byte() {
        Some(table) => table.decode(bytes, pos, state),
        None => (dialect.decode_at(bytes, pos), state),
    }
}

impl Windows for Transcoder {
    fn cut(&self, bytes: &[u8], from: usize, at: usize) -> usize {
        if self.dialect.multi_byte().is_none() {
            return crate::scan::first_boundary(self.dialect, bytes, at);
        }
        // Not self-synchronizing: the last unit end at or before `at`, decoding from `from`
        // (a boundary, in the state the next window starts in); at least one unit.
        let table = self.dialect.multi_byte().expect("a multi-byte encoding");
        let stateless = table.family() != Family::Iso2022Jp;
        let mut pos = from;
        let mut state = self.state;
        if stateless {
            // The nearest byte before `at` that no sequence continues with: a boundary.
            if let Some(sync) = table.sync_before(bytes, at.min(bytes.len()), from) {
                pos = sync.at.max(from);
            }
        }
        while pos < bytes.len() {
            if stateless {
                // Characters of one and two bytes straight from the tables, as the scan
                // skips them; anything else decoded.
                pos = skip_short(table, bytes, pos, at).end;
                if pos > from && pos >= at.min(bytes.len()) {
                    break;
                }
            }
            let (unit, next) = unit_at(self.dialect, bytes, pos, state);
            state = next;
            let end = unit.end();
            if end > at && pos > from {
                break;
            }
            pos = end;
        }
        pos
    }

    fn feed(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        _last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        if !self.started && base + range.start as u64 == 0 {
            self.started = true;
            if self.policy.bom == Bom::Add && !self.starts_with_bom(bytes) {
                self.tally
                    .change(0, b"", BOM, Kind::Bom, Action::Add, out)?;
            }
        }
        self.window(bytes, range, base, out)
    }
}

impl Transcoder {
    /// Whether `bytes[at]` is the input's start, read in a legacy encoding, and holds UTF-8's
    /// BOM: `--from auto` reads an input in the legacy encoding detection names even where
    /// it starts with `EF BB BF` (a UTF-8 BOM before windows-1252 text), and the mark is
    /// then the BOM it is, not `ï»¿`. (A label given is overridden by the BOM before a
    /// transcoder is made: see `super::sniffed`.)
    fn utf8_bom_first(&self, bytes: &[u8], at: Range<usize>, base: u64) -> bool {
        base + at.start as u64 == 0
            && matches!(self.dialect, Dialect::SingleByte(_) | Dialect::MultiByte(_))
            && bytes[at].starts_with(BOM)
    }

    /// Whether the input starts with U+FEFF in its encoding.
    fn starts_with_bom(&self, bytes: &[u8]) -> bool {
        self.utf8_bom_first(bytes, 0..bytes.len(), 0)
            || !bytes.is_empty()
                && matches!(
                    unit_at(self.dialect, bytes, 0, MbState::INITIAL).0.kind,
                    UnitKind::Scalar(cp) if cp.value() == 0xFEFF
                )
    }
}
