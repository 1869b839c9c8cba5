//! `--from LABEL`: the second front end of the repair, for an input in another encoding.
//! The output is UTF-8, whatever the input was.
//!
//! Two readers, one policy for what does not decode:
//!
//! - a [`Dialect`] of the decoder ([`crate::encoding::resolve`]: UTF-16LE/BE, UTF-32LE/BE,
//!   the single-byte encodings of encoding_rs, IBM437 and IBM850): unit by unit, each scalar
//!   written in UTF-8, each error unit (an unpaired surrogate, a truncated code unit, an
//!   undefined byte, ...) under `--invalid`, with its kind's name in the log;
//! - a multi-byte legacy encoding (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, GB18030,
//!   Big5): encoding_rs's own decoder, without BOM sniffing; each malformed sequence it
//!   reports (`DecoderResult::Malformed`, with the bytes it spans) is a change of kind
//!   `malformed`. Under `--invalid replace` the output is exactly what encoding_rs's
//!   decoding with replacement gives (the WHATWG Encoding Standard's output).
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

use encoding_rs::{DecoderResult, Encoding};

use super::{invalid_bytes, Action, Bom, Change, Kind, Output, Policy, Tally, Windows};
use crate::decode::{Dialect, UnitKind};

/// U+FEFF in UTF-8.
const BOM: &[u8] = super::BOM;

/// How the input is read.
#[derive(Clone, Copy)]
enum Reader {
    Dialect(Dialect),
    Whatwg(&'static Encoding),
}

/// Input bytes of a window that are not yet counted as read when it ends: a malformed
/// sequence encoding_rs reports may have started up to 7 bytes back (its length and the
/// bytes consumed after it are at most 6 together).
const HOLD: u64 = 8;

/// Repairs an input in another encoding into UTF-8; see the module documentation.
pub struct Transcoder {
    policy: Policy,
    reader: Reader,
    decoder: Option<encoding_rs::Decoder>,
    /// Input offset from which bytes are not yet counted as read (whatwg reader).
    held: u64,
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
        Transcoder::with(policy, Reader::Dialect(dialect))
    }

    /// A transcoder reading the input with encoding_rs's decoder for `encoding`.
    pub fn whatwg(policy: Policy, encoding: &'static Encoding) -> Transcoder {
        let mut t = Transcoder::with(policy, Reader::Whatwg(encoding));
        t.decoder = Some(encoding.new_decoder_without_bom_handling());
        t
    }

    fn with(policy: Policy, reader: Reader) -> Transcoder {
        Transcoder {
            policy,
            reader,
            decoder: None,
            held: 0,
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

    /// Writes the gathered text for the input bytes `old`.
    fn flush(&mut self, old: &[u8], out: &mut impl Output) -> io::Result<()> {
        if !old.is_empty() || !self.text.is_empty() {
            out.decoded(old, &self.text)?;
            self.text.clear();
        }
        Ok(())
    }

    fn emit(
        &mut self,
        offset: u64,
        old: &[u8],
        new: &[u8],
        kind: Kind,
        action: Action,
        out: &mut impl Output,
    ) -> io::Result<()> {
        self.tally.emit(
            out,
            Change {
                offset,
                old,
                new,
                kind,
                action,
            },
        )
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
        let written = self.emit(offset, old, &new, kind, action, out);
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
                self.emit(offset, old, b"", kind, Action::Strip, out)?;
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
    fn dialect_window(
        &mut self,
        dialect: Dialect,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut pos = range.start;
        let mut run = pos; // start of the input bytes whose text is in `self.text`
        let mut utf8 = [0u8; 4];
        while pos < range.end {
            let unit = dialect.decode_at(bytes, pos);
            let end = unit.end();
            let offset = base + pos as u64;
            match unit.kind {
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
                    Some(c) => self
                        .text
                        .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes()),
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
            if self.text.len() >= 1 << 16 {
                self.flush(&bytes[run..pos], out)?;
                run = pos;
            }
        }
        self.flush(&bytes[run..pos], out)
    }

    /// encoding_rs's decoder over `bytes[range]`; `last` at the end of the input. The
    /// bytes from `self.held` (at least `base`) on are not yet counted as read.
    fn whatwg_window(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let Some(mut decoder) = self.decoder.take() else {
            return Ok(());
        };
        let result = self.whatwg_run(&mut decoder, bytes, range, base, last, out);
        self.decoder = Some(decoder);
        result
    }

    fn whatwg_run(
        &mut self,
        decoder: &mut encoding_rs::Decoder,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut buffer = [0u8; 1 << 12];
        let mut pos = range.start;
        let mut run = ((self.held.max(base) - base) as usize).min(range.start);
        loop {
            let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                &bytes[pos..range.end],
                &mut buffer,
                last,
            );
            pos += read;
            self.text.extend_from_slice(&buffer[..written]);
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => {
                    if self.text.len() >= 1 << 16 {
                        let to = pos.saturating_sub(HOLD as usize).max(run);
                        self.flush(&bytes[run..to], out)?;
                        run = to;
                    }
                }
                DecoderResult::Malformed(bad, after) => {
                    // The bad bytes end `after` bytes before what was read; they may have
                    // started in an earlier window, whose last bytes `bytes` still holds.
                    let bad_end = pos - usize::from(after);
                    let bad_start = bad_end.saturating_sub(usize::from(bad)).max(run);
                    self.flush(&bytes[run..bad_start], out)?;
                    let old = &bytes[bad_start..bad_end];
                    self.bad(base + bad_start as u64, old, Kind::Malformed, out)?;
                    run = bad_end;
                }
            }
        }
        let to = if last {
            pos
        } else {
            pos.saturating_sub(HOLD as usize).max(run)
        };
        self.flush(&bytes[run..to], out)?;
        self.held = base + to as u64;
        Ok(())
    }
}

impl Windows for Transcoder {
    fn cut(&self, bytes: &[u8], _from: usize, at: usize) -> usize {
        match self.reader {
            Reader::Dialect(dialect) => crate::scan::first_boundary(dialect, bytes, at),
            // The decoder keeps its state between calls: any cut will do.
            Reader::Whatwg(_) => at.min(bytes.len()),
        }
    }

    fn feed(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        if !self.started && base + range.start as u64 == 0 {
            self.started = true;
            let starts_with_bom = self.starts_with_bom(bytes);
            if self.policy.bom == Bom::Add && !starts_with_bom {
                self.emit(0, b"", BOM, Kind::Bom, Action::Add, out)?;
            }
            if self.whatwg_bom(bytes, range.end, out)? {
                let skip = self.bom_len(bytes);
                return self.feed_rest(bytes, range.start + skip..range.end, base, last, out);
            }
        }
        self.feed_rest(bytes, range, base, last, out)
    }
}

impl Transcoder {
    fn feed_rest(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        match self.reader {
            Reader::Dialect(dialect) => self.dialect_window(dialect, bytes, range, base, out),
            Reader::Whatwg(_) => self.whatwg_window(bytes, range, base, last, out),
        }
    }

    /// The bytes of U+FEFF at the start in this encoding, if the input starts with it.
    fn bom_len(&self, bytes: &[u8]) -> usize {
        match &self.reader {
            Reader::Dialect(dialect) => {
                if bytes.is_empty() {
                    return 0;
                }
                let unit = dialect.decode_at(bytes, 0);
                match unit.kind {
                    UnitKind::Scalar(cp) if cp.value() == 0xFEFF => usize::from(unit.len),
                    _ => 0,
                }
            }
            Reader::Whatwg(encoding) => {
                // GB18030's four bytes are the only U+FEFF of these encodings.
                if *encoding == encoding_rs::GB18030 && bytes.starts_with(b"\x84\x31\x95\x33") {
                    4
                } else {
                    0
                }
            }
        }
    }

    fn starts_with_bom(&self, bytes: &[u8]) -> bool {
        self.bom_len(bytes) > 0
    }

    /// A multi-byte encoding's U+FEFF at the start, handled here (the decoder would fold
    /// it into its text): true when it was written or removed.
    fn whatwg_bom(&mut self, bytes: &[u8], end: usize, out: &mut impl Output) -> io::Result<bool> {
        if !matches!(self.reader, Reader::Whatwg(_)) {
            return Ok(false);
        }
        let len = self.bom_len(bytes);
        if len == 0 || len > end {
            return Ok(false);
        }
        if !self.bom(0, &bytes[..len], out)? {
            out.decoded(&bytes[..len], BOM)?;
        }
        self.held = len as u64;
        Ok(true)
    }
}
