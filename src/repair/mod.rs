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

mod policy;

use std::io::{self, Read};
use std::ops::Range;

use memchr::memmem;

pub use policy::{Action, Bom, Invalid, Kind, Policy};

use crate::decode::{Dialect, Unit, UnitKind};
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
}

/// How many units of each kind were changed (or kept), and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    rows: Vec<(Kind, Action, u64)>,
}

impl Tally {
    fn add(&mut self, kind: Kind, action: Action) {
        match self.rows.iter_mut().find(|r| r.0 == kind && r.1 == action) {
            Some(row) => row.2 += 1,
            None => self.rows.push((kind, action, 1)),
        }
    }

    /// Each (kind, action, count), sorted by the kind's name, then the policy's.
    pub fn rows(&self) -> Vec<(Kind, Action, u64)> {
        let mut rows = self.rows.clone();
        rows.sort_by_key(|r| (r.0.name(), r.1.why()));
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
        mut progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        let dialect = self.policy.dialect;
        let mut start = 0;
        loop {
            let end = if bytes.len() - start <= WINDOW {
                bytes.len()
            } else {
                scan::first_boundary(dialect, bytes, start + WINDOW)
            };
            self.window(bytes, start..end, 0, out)?;
            progress(end as u64)?;
            if end >= bytes.len() {
                return Ok(());
            }
            start = end;
        }
    }

    /// Repairs an input read from `reader` in reads of up to 1 MiB: memory stays flat
    /// whatever the input's size. A unit cut by the end of a read is carried over to the
    /// next (the last 16 bytes of a read wait for the next one, or for the end).
    pub fn repair_reader(
        &mut self,
        reader: &mut dyn Read,
        out: &mut impl Output,
        progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        self.repair_chunks(reader, CHUNK, out, progress)
    }

    /// [`Repairer::repair_reader`] with chunks of `chunk` bytes (tests cut small).
    fn repair_chunks(
        &mut self,
        reader: &mut dyn Read,
        chunk: usize,
        out: &mut impl Output,
        mut progress: impl FnMut(u64) -> io::Result<()>,
    ) -> io::Result<()> {
        let dialect = self.policy.dialect;
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
            let cut = if eof {
                buffer.len()
            } else if buffer.len() < context + 2 * MARGIN {
                continue;
            } else {
                scan::first_boundary(dialect, &buffer, buffer.len() - MARGIN)
            };
            self.window(&buffer, context..cut, base, out)?;
            progress(base + cut as u64)?;
            let keep_from = cut.saturating_sub(CONTEXT);
            buffer.drain(..keep_from);
            base += keep_from as u64;
            context = cut - keep_from;
        }
        Ok(())
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
        self.emit(0, old, new, Kind::Bom, action, out)?;
        Ok(old.len())
    }

    /// Writes `bytes[range]`, a stretch of well-formed UTF-8, changing only the characters
    /// a policy names (U+FEFF after the start; U+EF80..U+EFFF under OPTU-8).
    fn gap(
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
            self.emit(offset, old, b"", Kind::MidFileBom, Action::Strip, out)?;
            return Ok(Some(at + 3));
        }
        let Some((Escape::Optu8, byte)) = Escape::at(bytes, at) else {
            return Ok(None);
        };
        out.copy(&bytes[from..at])?;
        if self.policy.unescape == Some(Escape::Optu8) {
            let kind = Kind::Escaped(Escape::Optu8);
            self.emit(
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
            self.emit(offset, old, &new, Kind::GenuineOptu8, action, out)?;
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
                    self.emit(offset, old, &[byte], Kind::Escaped(scheme), action, out)?;
                    return Ok(start + 3);
                }
            }
        }
        let old = &bytes[start..end];
        let kind = match unit.kind {
            UnitKind::Error(k) => Kind::Error(k),
            UnitKind::Scalar(cp) if cp.is_surrogate() => Kind::LoneSurrogate,
            UnitKind::Scalar(cp) => match Dialect::Utf8.encode(cp) {
                Ok(utf8) => {
                    let action = Action::Reencode(self.policy.dialect);
                    self.scratch.clear();
                    self.scratch.extend_from_slice(utf8.as_bytes());
                    let new = std::mem::take(&mut self.scratch);
                    let written = self.emit(offset, old, &new, Kind::DialectForm, action, out);
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
        let action = match self.policy.invalid {
            Invalid::Replace => {
                new.extend_from_slice(REPLACEMENT);
                Action::Replace
            }
            Invalid::Drop => Action::Drop,
            Invalid::Fallback(fallback) => {
                let mut utf8 = [0; 4];
                for piece in fallback.pieces(old) {
                    match piece {
                        Piece::Char(c) => {
                            new.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes())
                        }
                        Piece::Undefined(_) => new.extend_from_slice(REPLACEMENT),
                    }
                }
                Action::Fallback(fallback.name())
            }
            Invalid::Escape(scheme) => {
                new.extend_from_slice(&escape_bytes(scheme, old));
                Action::Escape(scheme)
            }
            Invalid::Keep => {
                self.scratch = new;
                self.tally.add(kind, Action::Keep);
                return out.copy(old);
            }
        };
        let written = self.emit(offset, old, &new, kind, action, out);
        self.scratch = new;
        written
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
        self.tally.add(kind, action);
        out.change(&Change {
            offset,
            old,
            new,
            kind,
            action,
        })
    }
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
