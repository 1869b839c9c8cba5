//! The transformation behind `hexrune repair`: an input's units in, the repaired bytes and
//! a record of every change out.
//!
//! A [`Repairer`] holds a [`Policy`] and is fed an input front to back, as one mapped slice
//! ([`Repairer::repair_slice`]) or from a reader in chunks ([`Repairer::repair_reader`]). It
//! pushes what it writes into an [`Output`]: runs of input bytes that stay as they are
//! ([`Output::copy`], borrowed straight from the input, so valid text costs one copy), and
//! [`Change`]s (offset, old bytes, new bytes, what the unit was and which policy changed it).
//!
//! Where things are found:
//!
//! - error units, and scalars that standard UTF-8 cannot hold or writes differently (lone
//!   surrogates, values above U+10FFFF, CESU-8 pairs, MUTF-8's `C0 80`), come from the one
//!   scan loop ([`crate::scan::scan_range`]), which skips valid stretches with SIMD;
//! - the few well-formed characters a policy cares about (U+FEFF, and U+EF80..U+EFFF under
//!   OPTU-8) are found between those units by `memchr`: a gap between reported units holds
//!   only well-formed UTF-8, so a match there is a whole character.
//!
//! The stream is cut only at unit boundaries, so no unit is ever split between two calls,
//! and every offset a [`Change`] carries is an offset in the whole input.
//!
//! This layer reads [`crate::decode`], [`crate::scan`] and [`crate::view::fallback`] (the
//! legacy readings and the escapes); it knows no terminal, no command line and no file
//! names: the command that opens files and prints the summary is `cli::repair`.

mod from;
mod policy;
pub mod write;

use std::io::{self, Read};
use std::ops::Range;

use memchr::memmem;

pub use from::Transcoder;
pub(crate) use policy::fallback_reads_units;
pub use policy::{history, Action, Bom, Chain, FromEncoding, Invalid, Kind, Policy};

use crate::decode::{Dialect, Unit, UnitKind};
use crate::detect::mojibake::Mojibake;
use crate::scan::{self, ClassCounts, Sink};
use crate::view::fallback::{Escape, Piece};

/// U+FEFF in UTF-8.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// U+FFFD in UTF-8.
const REPLACEMENT: &[u8] = b"\xEF\xBF\xBD";

/// How many bytes a window of a mapped input holds: large enough that the scan's per-call
/// cost vanishes, small enough that the units found in it stay few.
const WINDOW: usize = 1 << 20;

/// How many bytes a chunk read from a stream holds.
const CHUNK: usize = 1 << 20;

/// Bytes kept before the cut of a stream: the look-back a decoder needs (5 in the widest
/// dialect) to tell a trail surrogate alone from half a pair.
const CONTEXT: usize = 8;

/// Bytes held back at the end of a chunk that is not the last: a unit that starts before
/// them is decided (the longest unit and its look-ahead fit), one that starts among them
/// waits for the next chunk.
const MARGIN: usize = 16;

/// One change: `old` (the input's bytes at `offset`) became `new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change<'a> {
    /// Offset of `old` in the input.
    pub offset: u64,
    /// The input's bytes (empty for an insertion, as `--bom add`).
    pub old: &'a [u8],
    /// The bytes written instead (empty for a removal).
    pub new: &'a [u8],
    /// What the unit was.
    pub kind: Kind,
    /// How it was changed.
    pub action: Action,
}

/// Where a repair writes.
pub trait Output {
    /// Input bytes written unchanged.
    fn copy(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// A change: `change.new` is what to write.
    fn change(&mut self, change: &Change<'_>) -> io::Result<()>;
    /// Input bytes `old` in another encoding, decoded: `new` (their UTF-8) is what to
    /// write (`--from`). A character cut by a window edge may be counted with the bytes
    /// of the next call; over a whole input, the `old`s are the input in order.
    fn decoded(&mut self, old: &[u8], new: &[u8]) -> io::Result<()>;
}

/// A [`Change`] that owns its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedChange {
    /// Offset of `old` in the input.
    pub offset: u64,
    /// The input's bytes.
    pub old: Vec<u8>,
    /// The bytes written instead.
    pub new: Vec<u8>,
    /// What the unit was.
    pub kind: Kind,
    /// How it was changed.
    pub action: Action,
}

/// An [`Output`] into a `Vec<u8>` that also keeps the changes (tests, small inputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// The repaired bytes.
    pub bytes: Vec<u8>,
    /// Each change.
    pub changes: Vec<OwnedChange>,
}

impl Output for Collected {
    fn copy(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }
    fn change(&mut self, c: &Change<'_>) -> io::Result<()> {
        self.bytes.extend_from_slice(c.new);
        self.changes.push(OwnedChange {
            offset: c.offset,
            old: c.old.to_vec(),
            new: c.new.to_vec(),
            kind: c.kind,
            action: c.action,
        });
        Ok(())
    }
    fn decoded(&mut self, _old: &[u8], new: &[u8]) -> io::Result<()> {
        self.bytes.extend_from_slice(new);
        Ok(())
    }
}

/// How many units of each kind were changed (or kept), and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    rows: Vec<(Kind, Action, u64)>,
    /// Under `--from` a single-byte code page, how many of each byte 80..9F it leaves
    /// undefined were read as the C1 control of the same number, the character the WHATWG
    /// index fills such a hole with (`crate::encoding::table::is_filled_hole`): windows-1252
    /// reads `81` as U+0081 where Python's `cp1252` refuses it. Not a change (the decoder
    /// gives the character), but worth a note.
    filled_holes: [u64; 32],
}

impl Tally {
    /// A byte read as the C1 control that fills its hole in the code page.
    pub(crate) fn filled_hole(&mut self, byte: u8) {
        self.filled_holes[usize::from(byte - 0x80)] += 1;
    }

    /// Each byte of 80..9F read as the C1 control that fills its hole, and how many times.
    pub fn filled_holes(&self) -> Vec<(u8, u64)> {
        (0x80..=0x9Fu8)
            .zip(self.filled_holes)
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Counts the change of `old` at `offset` into `new` and hands it to `out`: every
    /// change either front end (the [`Repairer`] and `--from`'s transcoder) makes goes
    /// through here.
    pub(crate) fn change(
        &mut self,
        offset: u64,
        old: &[u8],
        new: &[u8],
        kind: Kind,
        action: Action,
        out: &mut impl Output,
    ) -> io::Result<()> {
        self.add(kind, action);
        out.change(&Change {
            offset,
            old,
            new,
            kind,
            action,
        })
    }

    fn add(&mut self, kind: Kind, action: Action) {
        match self.rows.iter_mut().find(|r| r.0 == kind && r.1 == action) {
            Some(row) => row.2 += 1,
            None => self.rows.push((kind, action, 1)),
        }
    }

    /// Each (kind, action, count), sorted by the kind's name, then the policy's, then what
    /// was done.
    pub fn rows(&self) -> Vec<(Kind, Action, u64)> {
        let mut rows = self.rows.clone();
        rows.sort_by_key(|r| (r.0.name(), r.1.why(), r.1.done()));
        rows
    }

    /// Units changed (kept ones not counted).
    pub fn changed(&self) -> u64 {
        self.rows
            .iter()
            .filter(|r| r.1 != Action::Keep)
            .map(|r| r.2)
            .sum()
    }
}

/// Repairs one input front to back; see the module documentation.
#[derive(Debug)]
pub struct Repairer {
    policy: Policy,
    tally: Tally,
    /// The units of the current window that need a decision.
    units: Vec<Unit>,
    /// New bytes of the change being written.
    scratch: Vec<u8>,
    /// Input offset before which everything is written (an unescaped sequence may reach
    /// past the window it started in).
    done: u64,
    started: bool,
    /// The mojibake regions of the current window (indices into its bytes), and the next
    /// one to write.
    regions: Vec<Mojibake>,
    next_region: usize,
    /// The longest line `--mojibake` searches whole ([`LINE_MAX`]; tests lower it).
    line_max: usize,
}

impl Repairer {
    /// A repairer for one input.
    pub fn new(policy: Policy) -> Repairer {
        Repairer {
            policy,
            tally: Tally::default(),
            units: Vec::new(),
            scratch: Vec::with_capacity(32),
            done: 0,
            started: false,
            regions: Vec::new(),
            next_region: 0,
            line_max: LINE_MAX,
        }
    }

    /// What was changed so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Repairs a whole input held in memory (a mapped file), window by window; `progress`
    /// is told how many bytes are done after each window, and may stop the work with an
    /// error.
    ///
    /// ```
    /// use hexrune::repair::{Collected, Policy, Repairer};
    /// let mut out = Collected::default();
    /// Repairer::new(Policy::default()).repair_slice(b"a\xE9b\xF0\x9F\x98", &mut out, |_| Ok(())).unwrap();
    /// assert_eq!(out.bytes, "a\u{FFFD}b\u{FFFD}".as_bytes());
    /// ```
    pub fn repair_slice(
        &mut self,
        bytes: &[u8],
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        slice_windows(self, bytes, WINDOW, out, progress)
    }

    /// Repairs an input read from `reader` in reads of up to 1 MiB: memory stays flat
    /// whatever the input's size. A unit cut by the end of a read is carried over to the
    /// next (the last 16 bytes of a read wait for the next one, or for the end); under
    /// `--mojibake`, the part of a line after the last line feed is carried over too.
    pub fn repair_reader(
        &mut self,
        reader: &mut dyn Read,
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        reader_windows(self, reader, CHUNK, out, progress)
    }

    /// [`Repairer::repair_reader`] with chunks of `chunk` bytes (tests cut small).
    #[cfg(test)]
    fn repair_chunks(
        &mut self,
        reader: &mut dyn Read,
        chunk: usize,
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        reader_windows(self, reader, chunk, out, progress)
    }

    /// Repairs the units that start in `range` of `bytes` (whose byte 0 is input offset
    /// `base`). `range.start` must be a unit boundary, and `range.end` one or the end.
    pub fn window(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut pos = range.start.max(self.done.saturating_sub(base) as usize);
        if !self.started {
            self.started = true;
            if base + range.start as u64 == 0 {
                pos = self.start(bytes, out)?;
            }
        }
        let mut units = std::mem::take(&mut self.units);
        units.clear();
        let mut collect = Collect {
            dialect: self.policy.dialect,
            units: &mut units,
        };
        scan::scan_range(self.policy.dialect, bytes, range.clone(), &mut collect);
        if self.policy.mojibake {
            self.regions = mojibake_regions(bytes, range.clone());
            // A byte order mark misread at the start of the input (`ï»¿`), after a mark
            // it has, as detect finds it.
            if base + range.start as u64 == 0 {
                let content = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    3
                } else {
                    0
                };
                if let Some(misread) =
                    crate::detect::misread_bom_at(bytes, content).filter(|m| m.end <= range.end)
                {
                    self.regions.retain(|m| m.start >= misread.end);
                    self.regions.insert(0, misread);
                }
            }
            self.next_region = 0;
        }
        let end = range.end.max(pos);
        for unit in &units {
            if unit.start < pos {
                continue; // part of a sequence already written
            }
            self.gap(bytes, pos..unit.start, base, out)?;
            pos = self.unit(bytes, unit, base, out)?;
        }
        self.units = units;
        let end = end.max(pos);
        self.gap(bytes, pos..end.min(bytes.len()), base, out)?;
        self.done = base + end as u64;
        Ok(())
    }

    /// The start of the input: `--bom strip` and `--bom add`. Returns where to go on.
    fn start(&mut self, bytes: &[u8], out: &mut impl Output) -> io::Result<usize> {
        let has = bytes.starts_with(BOM);
        let (old, new, action): (&[u8], &[u8], _) = match (self.policy.bom, has) {
            (Bom::Strip, true) => (BOM, b"", Action::Strip),
            (Bom::Add, false) => (b"", BOM, Action::Add),
            _ => return Ok(0),
        };
        self.tally.change(0, old, new, Kind::Bom, action, out)?;
        Ok(old.len())
    }

    /// Writes `bytes[range]`, a stretch of well-formed UTF-8: the mojibake regions in it
    /// (under `--mojibake`) as their repaired text, the rest by [`Repairer::plain`].
    fn gap(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<()> {
        if self.next_region >= self.regions.len() {
            return self.plain(bytes, range, base, out);
        }
        let regions = std::mem::take(&mut self.regions);
        let mut pos = range.start;
        let mut written = Ok(());
        while let Some(region) = regions.get(self.next_region) {
            if region.start >= range.end {
                break;
            }
            self.next_region += 1;
            if region.start < pos || region.end > range.end {
                continue; // not inside this stretch (never, as the regions are found)
            }
            written = self
                .plain(bytes, pos..region.start, base, out)
                .and_then(|()| {
                    let action = Action::Mojibake(Chain::new(&region.chain));
                    let old = &bytes[region.start..region.end];
                    let offset = base + region.start as u64;
                    self.tally.change(
                        offset,
                        old,
                        region.text.as_bytes(),
                        Kind::Mojibake,
                        action,
                        out,
                    )
                });
            if written.is_err() {
                break;
            }
            pos = region.end;
        }
        self.regions = regions;
        written?;
        self.plain(bytes, pos..range.end, base, out)
    }

    /// Writes `bytes[range]`, a stretch of well-formed UTF-8, changing only the characters
    /// a policy names (U+FEFF after the start; U+EF80..U+EFFF under OPTU-8).
    fn plain(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let optu8 = self.policy.invalid == Invalid::Escape(Escape::Optu8)
            || self.policy.unescape == Some(Escape::Optu8);
        let mut pos = range.start;
        let stretch = &bytes[range.clone()];
        let mut found = |at: usize, this: &mut Repairer| -> io::Result<()> {
            let at = range.start + at;
            if at < pos {
                return Ok(());
            }
            if let Some(end) = this.special(bytes, at, base, pos, out)? {
                pos = end;
            }
            Ok(())
        };
        if optu8 {
            for at in memchr::memchr2_iter(0xEE, 0xEF, stretch) {
                found(at, self)?;
            }
        } else {
            for at in memmem::find_iter(stretch, BOM) {
                found(at, self)?;
            }
        }
        if pos < range.end {
            out.copy(&bytes[pos..range.end])?;
        }
        Ok(())
    }

    /// A character of a gap at `at` that a policy may change; `bytes[from..at]` is still
    /// to be written before it. Returns where the gap goes on if it was written.
    fn special(
        &mut self,
        bytes: &[u8],
        at: usize,
        base: u64,
        from: usize,
        out: &mut impl Output,
    ) -> io::Result<Option<usize>> {
        let offset = base + at as u64;
        let old = &bytes[at..(at + 3).min(bytes.len())];
        if old == BOM {
            if offset == 0 {
                return Ok(None); // the start's BOM is `start`'s business
            }
            if self.policy.bom != Bom::Strip {
                self.tally.add(Kind::MidFileBom, Action::Keep);
                return Ok(None);
            }
            out.copy(&bytes[from..at])?;
            self.tally
                .change(offset, old, b"", Kind::MidFileBom, Action::Strip, out)?;
            return Ok(Some(at + 3));
        }
        let Some((Escape::Optu8, byte)) = Escape::at(bytes, at) else {
            return Ok(None);
        };
        out.copy(&bytes[from..at])?;
        if self.policy.unescape == Some(Escape::Optu8) {
            let kind = Kind::Escaped(Escape::Optu8);
            self.tally.change(
                offset,
                old,
                &[byte],
                kind,
                Action::Unescape(Escape::Optu8),
                out,
            )?;
        } else {
            let new = escape_bytes(Escape::Optu8, old);
            let action = Action::Escape(Escape::Optu8);
            self.tally
                .change(offset, old, &new, Kind::GenuineOptu8, action, out)?;
        }
        Ok(Some(at + 3))
    }

    /// A unit the scan reported as needing a decision. Returns where writing goes on.
    fn unit(
        &mut self,
        bytes: &[u8],
        unit: &Unit,
        base: u64,
        out: &mut impl Output,
    ) -> io::Result<usize> {
        let start = unit.start;
        let end = unit.end();
        let offset = base + start as u64;
        if let Some(scheme) = self.policy.unescape {
            if let Some((found, byte)) = Escape::at(bytes, start) {
                if found == scheme {
                    let old = &bytes[start..start + 3];
                    let action = Action::Unescape(scheme);
                    self.tally
                        .change(offset, old, &[byte], Kind::Escaped(scheme), action, out)?;
                    return Ok(start + 3);
                }
            }
        }
        let old = &bytes[start..end];
        let kind = match unit.kind {
            UnitKind::Error(k) => Kind::Error(k),
            UnitKind::Scalar(cp) if cp.is_surrogate() => {
                // RFC 2279 reads each half of a surrogate pair written as CESU-8 writes it
                // as a code point of its own; UTF-8 holds the pair as the one character it
                // stands for (beside 4-byte characters, as a MySQL utf8mb3 export joined
                // to a utf8mb4 one has them).
                if let Some((pair_end, scalar)) = self.pair_at(bytes, cp.value(), end) {
                    let old = &bytes[start..pair_end];
                    let mut utf8 = [0; 4];
                    let new = scalar.encode_utf8(&mut utf8).as_bytes();
                    let action = Action::Reencode(self.policy.dialect);
                    self.tally
                        .change(offset, old, new, Kind::DialectForm, action, out)?;
                    return Ok(pair_end);
                }
                Kind::LoneSurrogate
            }
            UnitKind::Scalar(cp) => match Dialect::Utf8.encode(cp) {
                Ok(utf8) => {
                    let action = Action::Reencode(self.policy.dialect);
                    self.scratch.clear();
                    self.scratch.extend_from_slice(utf8.as_bytes());
                    let new = std::mem::take(&mut self.scratch);
                    let written =
                        self.tally
                            .change(offset, old, &new, Kind::DialectForm, action, out);
                    self.scratch = new;
                    written?;
                    return Ok(end);
                }
                Err(_) => Kind::AboveUnicode,
            },
        };
        self.invalid(old, offset, kind, out)?;
        Ok(end)
    }

    /// The character a lead surrogate `lead` (a unit the dialect reads as a code point,
    /// ending at `end`) pairs with a trail surrogate unit right after it stands for, and
    /// where the trail ends.
    fn pair_at(&self, bytes: &[u8], lead: u32, end: usize) -> Option<(usize, char)> {
        if !(0xD800..0xDC00).contains(&lead) || end >= bytes.len() {
            return None;
        }
        let next = self.policy.dialect.decode_at(bytes, end);
        let trail = match next.kind {
            UnitKind::Scalar(cp) if (0xDC00..0xE000).contains(&cp.value()) => cp.value(),
            _ => return None,
        };
        let scalar = 0x1_0000 + ((lead - 0xD800) << 10) + (trail - 0xDC00);
        Some((end + next.len as usize, char::from_u32(scalar)?))
    }

    /// An error unit (or a unit UTF-8 cannot hold) under `--invalid`.
    fn invalid(
        &mut self,
        old: &[u8],
        offset: u64,
        kind: Kind,
        out: &mut impl Output,
    ) -> io::Result<()> {
        let mut new = std::mem::take(&mut self.scratch);
        new.clear();
        // A unit the policy writes as it was (Modified UTF-8's raw NUL: windows-1252 reads
        // it as U+0000, and no escape is made for a zero byte) is kept, not a change.
        let action = invalid_bytes(self.policy.invalid, old, &mut new).filter(|_| new != old);
        let Some(action) = action else {
            self.scratch = new;
            self.tally.add(kind, Action::Keep);
            return out.copy(old);
        };
        let written = self.tally.change(offset, old, &new, kind, action, out);
        self.scratch = new;
        written
    }
}

/// What `policy` writes for the bad unit `old`, into `new`, and how it is said; `None`
/// for `--invalid keep` (the bytes stay).
fn invalid_bytes(policy: Invalid, old: &[u8], new: &mut Vec<u8>) -> Option<Action> {
    Some(match policy {
        Invalid::Replace => {
            new.extend_from_slice(REPLACEMENT);
            Action::Replace
        }
        Invalid::Drop => Action::Drop,
        Invalid::Fallback(fallback) => {
            let mut utf8 = [0; 4];
            let (mut read, mut undefined) = (false, false);
            for piece in fallback.pieces(old) {
                match piece {
                    Piece::Char(c) => {
                        read = true;
                        new.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                    }
                    Piece::Undefined(_) => {
                        undefined = true;
                        new.extend_from_slice(REPLACEMENT);
                    }
                }
            }
            // Said as what happened: a unit counts as read only where the encoding had a
            // character for it.
            match (read, undefined) {
                (true, false) => Action::Fallback(fallback.name()),
                (true, true) => Action::FallbackPart(fallback.name()),
                (false, _) => Action::FallbackNone(fallback.name()),
            }
        }
        Invalid::Escape(scheme) => {
            new.extend_from_slice(&escape_bytes(scheme, old));
            Action::Escape(scheme)
        }
        Invalid::Keep => return None,
    })
}

/// The longest line `--mojibake` searches whole: a window ends after a line feed, unless
/// none comes within this many bytes (a longer line is searched in pieces of this many
/// bytes from its start, the last piece being what is left, wherever the input comes from).
const LINE_MAX: usize = 16 << 20;

/// The mojibake regions of `bytes[range]` (indices into `bytes`), searched in its valid
/// UTF-8 stretches as `hexrune detect` searches them.
fn mojibake_regions(bytes: &[u8], range: Range<usize>) -> Vec<Mojibake> {
    let mut out = Vec::new();
    let mut at = range.start;
    for chunk in bytes[range].utf8_chunks() {
        let valid = chunk.valid();
        for mut m in crate::detect::mojibake::find(valid) {
            m.start += at;
            m.end += at;
            out.push(m);
        }
        at += valid.len() + chunk.invalid().len();
    }
    out
}

/// A front end fed an input window by window, by [`slice_windows`] or [`reader_windows`].
trait Windows {
    /// Where a window that starts at `from` and would end at `at` ends: a boundary after
    /// `from` (of a unit, or of what the front end must see whole).
    fn cut(&self, bytes: &[u8], from: usize, at: usize) -> usize;

    /// As [`Windows::cut`] for a stream, or `None` to read more before cutting.
    fn cut_stream(&self, bytes: &[u8], from: usize, at: usize) -> Option<usize> {
        Some(self.cut(bytes, from, at))
    }

    /// Where a window that starts at `from` ends when `bytes` holds the rest of a stream:
    /// its end, or where [`Windows::cut`] would cut a whole input held in memory.
    fn cut_end(&self, bytes: &[u8], _from: usize) -> usize {
        bytes.len()
    }

    /// Repairs `bytes[range]` (byte 0 is input offset `base`; bytes before `range.start`
    /// are look-back only); `last` for the window that ends the input.
    fn feed(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        last: bool,
        out: &mut impl Output,
    ) -> io::Result<()>;
}

impl Repairer {
    /// Under `--mojibake`, where a window that starts at `from` (the start of a line, or
    /// of the piece of a long line after the last cut) ends: after a line feed, or, in a
    /// line with none within [`Repairer::line_max`] bytes of `from`, at the first unit
    /// boundary from there. `bytes[..at]` may be cut; `complete` when `bytes` holds the
    /// rest of the input. `None`: the stream must be read further to decide.
    ///
    /// The forced cuts depend on nothing but where lines start, so a mapped input and a
    /// stream, read in pieces of any size, cut a long line at the same offsets.
    fn line_cut(&self, bytes: &[u8], from: usize, at: usize, complete: bool) -> Option<usize> {
        let limit = from + self.line_max;
        if let Some(i) = memchr::memrchr(b'\n', &bytes[from..at.min(limit)]) {
            return Some(from + i + 1);
        }
        let known = if complete { bytes.len() } else { at };
        if at < known.min(limit) {
            if let Some(i) = memchr::memchr(b'\n', &bytes[at..known.min(limit)]) {
                return Some(at + i + 1);
            }
        }
        if limit < bytes.len() && (complete || limit <= at) {
            return Some(scan::first_boundary(self.policy.dialect, bytes, limit));
        }
        complete.then_some(bytes.len())
    }
}

impl Windows for Repairer {
    fn cut(&self, bytes: &[u8], from: usize, at: usize) -> usize {
        if self.policy.mojibake {
            return self.line_cut(bytes, from, at, true).unwrap_or(bytes.len());
        }
        scan::first_boundary(self.policy.dialect, bytes, at)
    }

    fn cut_stream(&self, bytes: &[u8], from: usize, at: usize) -> Option<usize> {
        if self.policy.mojibake {
            return self.line_cut(bytes, from, at, false);
        }
        Some(scan::first_boundary(self.policy.dialect, bytes, at))
    }

    fn cut_end(&self, bytes: &[u8], from: usize) -> usize {
        if self.policy.mojibake {
            return self
                .line_cut(bytes, from, bytes.len(), true)
                .unwrap_or(bytes.len());
        }
        bytes.len()
    }

    fn feed(
        &mut self,
        bytes: &[u8],
        range: Range<usize>,
        base: u64,
        _last: bool,
        out: &mut impl Output,
    ) -> io::Result<()> {
        self.window(bytes, range, base, out)
    }
}

/// Feeds a whole input held in memory window by window (about `window` bytes each).
fn slice_windows(
    front: &mut impl Windows,
    bytes: &[u8],
    window: usize,
    out: &mut impl Output,
    mut progress: impl FnMut(u64) -> io::Result<()>,
) -> io::Result<()> {
    let mut start = 0;
    loop {
        let end = if bytes.len() - start <= window {
            front.cut_end(bytes, start)
        } else {
            front.cut(bytes, start, start + window)
        };
        let last = end >= bytes.len();
        front.feed(bytes, start..end, 0, last, out)?;
        progress(end as u64)?;
        if last {
            return Ok(());
        }
        start = end;
    }
}

/// Feeds an input read from `reader` in reads of up to `chunk` bytes, carrying over what
/// the front end cannot cut yet.
fn reader_windows(
    front: &mut impl Windows,
    reader: &mut dyn Read,
    chunk: usize,
    out: &mut impl Output,
    mut progress: impl FnMut(u64) -> io::Result<()>,
) -> io::Result<()> {
    // buffer[..context] was written already and is there for look-back only.
    let mut buffer: Vec<u8> = Vec::with_capacity(chunk + MARGIN + CONTEXT);
    let mut context = 0;
    let mut base = 0u64; // input offset of buffer[0]
    let mut eof = false;
    while !eof {
        let have = buffer.len();
        buffer.resize(have + chunk, 0);
        let read = read_some(reader, &mut buffer[have..])?;
        buffer.truncate(have + read);
        eof = read == 0;
        // As many windows as the front end can cut now (at the end, all that is left).
        loop {
            let cut = if eof {
                front.cut_end(&buffer, context)
            } else if buffer.len() < context + 2 * MARGIN {
                break;
            } else {
                match front.cut_stream(&buffer, context, buffer.len() - MARGIN) {
                    Some(cut) => cut,
                    None => break,
                }
            };
            let last = eof && cut >= buffer.len();
            front.feed(&buffer, context..cut, base, last, out)?;
            progress(base + cut as u64)?;
            let keep_from = cut.saturating_sub(CONTEXT);
            buffer.drain(..keep_from);
            base += keep_from as u64;
            context = cut - keep_from;
            if last {
                break;
            }
        }
    }
    Ok(())
}

/// Either front end: the UTF-8 family's [`Repairer`] or the [`Transcoder`] of `--from`.
#[derive(Debug)]
pub enum Engine {
    /// An input of the UTF-8 family.
    Repair(Repairer),
    /// An input in another encoding.
    From(Transcoder),
}

impl Engine {
    /// The front end for `policy`, or why the policies cannot go together (one line, which
    /// names the options the user gave). `--from auto` needs the input: see
    /// [`Engine::for_slice`].
    pub fn new(policy: Policy) -> Result<Engine, String> {
        if let (Some(_), Invalid::Escape(_)) = (policy.unescape, policy.invalid) {
            return Err("--unescape and --invalid escape=... undo each other; give one".into());
        }
        if let Invalid::Fallback(fallback) = policy.invalid {
            // Refused as `--invalid` is parsed; a policy built otherwise is refused here.
            policy::fallback_reads_units(fallback)
                .map_err(|why| format!("--invalid fallback={}: {why}", fallback.name()))?;
        }
        let Some(from) = policy.from else {
            if policy.mojibake && policy.dialect != Dialect::Utf8 {
                return Err(format!(
                    "--mojibake reads UTF-8, not --dialect {}; repair with --dialect alone first, then run --mojibake on the copy",
                    policy.dialect.name()
                ));
            }
            return Ok(Engine::Repair(Repairer::new(policy)));
        };
        // `--dialect` has a default (utf8): only another value is a second answer.
        if policy.dialect != Dialect::Utf8 {
            return Err("--from and --dialect both say how to read the input; give one".into());
        }
        let FromEncoding::Dialect(dialect) = from else {
            return Err(
                "--from auto is settled by detection over the whole input before a repair starts; give the label it found"
                    .into(),
            );
        };
        let name = dialect.encoding_name();
        // Refused as `--from` is parsed; an encoding chosen otherwise is refused here.
        policy::from_reads_text(dialect).map_err(|why| format!("--from {name}: {why}"))?;
        if Dialect::UTF8_FAMILY.contains(&dialect) {
            if policy.mojibake && dialect != Dialect::Utf8 {
                return Err(format!(
                    "--mojibake reads UTF-8, not {name} (--from {}); repair with --from alone first, then run --mojibake on the copy",
                    dialect.name()
                ));
            }
            return Engine::new(Policy {
                dialect,
                from: None,
                ..policy
            });
        }
        for (given, option) in [
            (policy.unescape.is_some(), "--unescape"),
            (policy.mojibake, "--mojibake"),
        ] {
            if given {
                return Err(format!(
                    "{option} reads UTF-8, not {name}; convert with --from alone first, then run {option} on the copy"
                ));
            }
        }
        // An error of UTF-16 or UTF-32 is a code unit (a lone surrogate, a value past
        // U+10FFFF, a unit cut short): its bytes are no text in a single-byte encoding.
        let wide = matches!(dialect.code_unit_width(), Some(2 | 4));
        if policy.invalid == Invalid::Keep {
            let choices = match wide {
                true => "replace, drop or escape",
                false => "replace, drop, fallback or escape",
            };
            return Err(format!(
                "--invalid keep would write {name} bytes, and --from writes UTF-8 only; choose {choices}"
            ));
        }
        if let (Invalid::Fallback(fallback), true) = (policy.invalid, wide) {
            return Err(format!(
                "--invalid fallback={}: an error of {name} is a code unit (a lone surrogate, a unit cut short), whose bytes no single-byte encoding reads as text; choose replace, drop or escape",
                fallback.name()
            ));
        }
        Ok(Engine::From(Transcoder::dialect(policy, dialect)))
    }

    /// As [`Engine::new`], with `--from auto` resolved by detection on `bytes`, and a
    /// `--from` label overridden by the input's BOM ([`sniffed`]).
    pub fn for_slice(policy: Policy, bytes: &[u8]) -> Result<Engine, String> {
        let from = match policy.from {
            Some(FromEncoding::Auto) => Some(detected(bytes)?),
            Some(FromEncoding::Dialect(d)) => Some(FromEncoding::Dialect(sniffed(d, bytes))),
            None => None,
        };
        Engine::new(Policy { from, ..policy })
    }

    /// As [`Engine::new`] for a stream whose first bytes (up to [`SNIFF_LEN`]) are `head`:
    /// a `--from` label overridden by its BOM ([`sniffed`]), as [`Engine::for_slice`] does
    /// for an input held in memory. `--from auto` is refused (it needs the whole input).
    pub fn for_head(policy: Policy, head: &[u8]) -> Result<Engine, String> {
        let from = match policy.from {
            Some(FromEncoding::Dialect(d)) => Some(FromEncoding::Dialect(sniffed(d, head))),
            other => other,
        };
        Engine::new(Policy { from, ..policy })
    }

    /// Repairs a whole input held in memory; see [`Repairer::repair_slice`].
    pub fn repair_slice(
        &mut self,
        bytes: &[u8],
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Engine::Repair(r) => slice_windows(r, bytes, WINDOW, out, progress),
            Engine::From(t) => slice_windows(t, bytes, WINDOW, out, progress),
        }
    }

    /// Repairs an input read from `reader`; see [`Repairer::repair_reader`].
    pub fn repair_reader(
        &mut self,
        reader: &mut dyn Read,
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        self.repair_chunks(reader, CHUNK, out, progress)
    }

    /// [`Engine::repair_reader`] in reads of `chunk` bytes.
    pub fn repair_chunks(
        &mut self,
        reader: &mut dyn Read,
        chunk: usize,
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Engine::Repair(r) => reader_windows(r, reader, chunk, out, progress),
            Engine::From(t) => reader_windows(t, reader, chunk, out, progress),
        }
    }

    /// What was changed so far.
    pub fn tally(&self) -> &Tally {
        match self {
            Engine::Repair(r) => r.tally(),
            Engine::From(t) => t.tally(),
        }
    }
}

/// The encoding an input is read in under `--from dialect`, given its first bytes: a BOM
/// overrides the label wherever it names another encoding, as the WHATWG Encoding
/// Standard's decode algorithm does for UTF-8 and UTF-16, extended to UTF-32 and to every
/// label. The marks are read as [`crate::decode::Bom::detect`] reads them (the one reading
/// of them), the longest first: `FF FE 00 00` is UTF-32LE, `00 00 FE FF` UTF-32BE, `EF BB
/// BF` UTF-8, `FF FE` UTF-16LE, `FE FF` UTF-16BE. A UTF-8 BOM is the same bytes in every
/// dialect of the UTF-8 family, so it keeps a label of that family (`cesu8` stays CESU-8);
/// a UTF-16 or UTF-32 BOM overrides it (`--from utf-8` on `FF FE` reads UTF-16LE).
///
/// `FF FE 00 00` is also UTF-16LE's mark followed by U+0000: it is UTF-16LE's where what
/// follows cannot be UTF-32LE, as [`crate::decode::Bom::detect`] reads it.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::repair::sniffed;
/// assert_eq!(sniffed(Dialect::Utf16Le, b"\xFE\xFF\x00h"), Dialect::Utf16Be);
/// assert_eq!(sniffed(Dialect::Utf16Be, b"\xFF\xFEh\x00"), Dialect::Utf16Le);
/// assert_eq!(sniffed(Dialect::Utf32Be, b"\xFF\xFE\x00\x00h\x00\x00\x00"), Dialect::Utf32Le);
/// assert_eq!(sniffed(Dialect::Utf16Le, b"\xFF\xFE\x00\x00h\x00\x00\x00"), Dialect::Utf32Le);
/// assert_eq!(sniffed(Dialect::Utf16Le, b"\xFF\xFE\x00\x00h\x00i\x00"), Dialect::Utf16Le);
/// assert_eq!(sniffed(Dialect::Utf8, b"\xFF\xFE\x00\x00h\x00\x00\x00i\x00"), Dialect::Utf32Le);
/// assert_eq!(sniffed(Dialect::Utf32Be, b"\xFF\xFEh\x00"), Dialect::Utf16Le);
/// assert_eq!(sniffed(Dialect::Utf8, b"\xFF\xFEh\x00"), Dialect::Utf16Le);
/// assert_eq!(sniffed(Dialect::Cesu8, b"\xEF\xBB\xBFh"), Dialect::Cesu8);
/// assert_eq!(sniffed(Dialect::Utf16Le, b"h\x00"), Dialect::Utf16Le);
/// ```
pub fn sniffed(dialect: Dialect, head: &[u8]) -> Dialect {
    use crate::decode::Bom as Mark;
    match Mark::detect(head) {
        None => dialect,
        Some(Mark::Utf8) if Dialect::UTF8_FAMILY.contains(&dialect) => dialect,
        Some(Mark::Utf8) => Dialect::Utf8,
        Some(Mark::Utf16Le) => Dialect::Utf16Le,
        Some(Mark::Utf16Be) => Dialect::Utf16Be,
        Some(Mark::Utf32Le) => Dialect::Utf32Le,
        Some(Mark::Utf32Be) => Dialect::Utf32Be,
    }
}

/// How many bytes of an input [`sniffed`] looks at: [`crate::decode::Bom::SNIFF_LEN`].
pub const SNIFF_LEN: usize = crate::decode::Bom::SNIFF_LEN;

/// The encoding `hexrune detect` finds for `bytes`, as `--from auto` takes it.
pub fn detected(bytes: &[u8]) -> Result<FromEncoding, String> {
    detected_regions(bytes).map(|d| d.found)
}

/// The regions of one encoding that detection found: the encoding's name, and the
/// offsets (start, end) of each of its regions.
pub type Regions = (&'static str, Vec<(usize, usize)>);

/// What [`detected_regions`] finds.
#[derive(Clone, Debug)]
pub struct Detected {
    /// The encoding detection names.
    pub found: FromEncoding,
    /// The regions detection found in other encodings than `found`, which a reading of
    /// the whole input in `found` does not convert: grouped by encoding, in the order
    /// they first occur.
    pub others: Vec<Regions>,
    /// Why the guess may be wrong, where detection doubts it
    /// ([`crate::detect::Detection::doubt`]).
    pub doubt: Option<String>,
}

/// As [`detected`], with the regions of other encodings and detection's doubt.
pub fn detected_regions(bytes: &[u8]) -> Result<Detected, String> {
    let summary = crate::scan::index::Summary::build_parallel(Dialect::Utf8, bytes);
    let detection = crate::detect::detect(bytes, &summary);
    if detection.encoding == crate::detect::BINARY {
        return Err("--from auto: detection says binary, not text; give --from LABEL".into());
    }
    let found = FromEncoding::parse(detection.encoding).map_err(|e| {
        format!(
            "--from auto: detection says {}, which repair cannot read ({e})",
            detection.encoding
        )
    })?;
    let mut others: Vec<Regions> = Vec::new();
    for region in &detection.regions {
        if region.encoding == detection.encoding {
            continue;
        }
        let range = (region.start, region.end);
        match others.iter_mut().find(|o| o.0 == region.encoding) {
            Some(other) => other.1.push(range),
            None => others.push((region.encoding, vec![range])),
        }
    }
    Ok(Detected {
        found,
        others,
        doubt: detection.doubt,
    })
}

/// Each byte of `old` as `scheme` writes it: U+EF00+b in UTF-8, or U+DC00+b in WTF-8
/// (a byte below 80 is itself).
///
/// ```
/// use hexrune::repair::escape_bytes;
/// use hexrune::view::fallback::Escape;
/// assert_eq!(escape_bytes(Escape::Optu8, b"\xE9"), b"\xEE\xBF\xA9");
/// assert_eq!(escape_bytes(Escape::Pep383, b"\xE9\x41"), b"\xED\xB3\xA9\x41");
/// ```
pub fn escape_bytes(scheme: Escape, old: &[u8]) -> Vec<u8> {
    let mut new = Vec::with_capacity(3 * old.len());
    for &b in old {
        if b < 0x80 {
            new.push(b);
        } else {
            let low = match scheme {
                Escape::Pep383 => 0xB2,
                Escape::Optu8 => 0xBE,
            };
            let lead = match scheme {
                Escape::Pep383 => 0xED,
                Escape::Optu8 => 0xEE,
            };
            new.extend_from_slice(&[lead, low | (b >> 6 & 1), 0x80 | (b & 0x3F)]);
        }
    }
    new
}

/// Keeps the units of a window that need a decision: every error, and the scalars UTF-8
/// cannot hold or writes differently.
struct Collect<'a> {
    dialect: Dialect,
    units: &'a mut Vec<Unit>,
}

impl Sink for Collect<'_> {
    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        let keep = match unit.kind {
            UnitKind::Error(_) => true,
            UnitKind::Scalar(_) if self.dialect == Dialect::Utf8 => false,
            UnitKind::Scalar(cp) => {
                cp.is_surrogate()
                    || cp.value() > 0x10_FFFF
                    || cp.shortest_len() != unit.len
                    || (cp.value() == 0 && unit.len != 1)
            }
        };
        if keep {
            // The scan reports in input order; a unit seen twice would be written twice.
            if self.units.last().is_none_or(|last| last.start < unit.start) {
                self.units.push(*unit);
            }
        }
    }

    fn scalars(&mut self, _classes: &ClassCounts) {}
}

#[cfg(test)]
mod tests;

/// One read (what a pipe has now, so a slow writer's text is repaired as it comes), again
/// if a signal interrupted it; 0 at the end.
fn read_some(reader: &mut dyn Read, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}
