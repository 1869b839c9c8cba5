//! The fallback readings at the end of a marker line: `; windows-1252: é À ¯`, the error
//! units that start on the row, each as the fallback encoding reads its bytes
//! ([`crate::view::fallback::Fallback::show`]: sanitised, an undefined byte `<81?>`), in
//! the order of their markers, separated by spaces.
//!
//! They are added after a batch of rows is formatted, to the marker lines it holds, so the
//! row printers (the reference and the fast path) stay as they are, writing only where
//! each marker line starts and the row above it ([`super::Printer`]'s `marked`), and a
//! batch without an error costs nothing more. The error units are read off the marks
//! (`X^` and `~~~` under the hex pane), not decoded again. With `--ascii`, every
//! character outside ASCII is written `\u{..}`.

use std::fmt::Write as _;
use std::ops::Range;

use super::{Buf, Format};
use crate::view::fallback::Fallback;

/// Room for the label in [`Readings::plain_row_readings`]'s line.
const LABEL_ROOM: usize = 32;

/// The line [`Readings::plain_row_readings`] writes a row's readings into: offsets are
/// masked to `PLAIN_MASK`, and a copy of 16 bytes at the last one stays in bounds.
const PLAIN_MASK: usize = 1023;
const PLAIN_ROOM: usize = PLAIN_MASK + 1;

/// What the marker lines of one printer end with: the fallback, and (for a single-byte
/// encoding) each byte's reading, made once.
pub(super) struct Readings {
    fallback: Fallback,
    ascii: bool,
    /// `; NAME:`
    label: Vec<u8>,
    /// Per byte, as shown (single-byte encodings only; empty otherwise).
    by_byte: Vec<Vec<u8>>,
    /// The same, as 16 bytes and a length, where every reading fits (empty otherwise).
    by_byte_fixed: Vec<([u8; 16], u8)>,
    /// The label in a fixed-size array, for [`Readings::plain_row_readings`].
    label_fixed: [u8; LABEL_ROOM],
    /// The batch's text being rewritten.
    text: Vec<u8>,
    /// The line [`Readings::plain_row_readings`] writes a row's readings into.
    line: Box<[u8; PLAIN_ROOM + 16]>,
}

impl Readings {
    pub(super) fn new(fallback: &Fallback, ascii: bool) -> Box<Readings> {
        let by_byte = if fallback.is_single_byte() {
            (0..=255u8)
                .map(|b| shown(fallback, &[b], ascii).into_bytes())
                .collect()
        } else {
            Vec::new()
        };
        let label = format!("; {}:", fallback.name()).into_bytes();
        let fits = by_byte.iter().all(|r| r.len() <= 16) && label.len() <= LABEL_ROOM;
        let by_byte_fixed = if fits {
            by_byte
                .iter()
                .map(|r| {
                    let mut chunk = [0u8; 16];
                    chunk[..r.len()].copy_from_slice(r);
                    (chunk, r.len() as u8)
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut label_fixed = [0u8; LABEL_ROOM];
        let n = label.len().min(LABEL_ROOM);
        label_fixed[..n].copy_from_slice(&label[..n]);
        Box::new(Readings {
            fallback: *fallback,
            ascii,
            label,
            by_byte,
            by_byte_fixed,
            label_fixed,
            text: Vec::new(),
            line: Box::new([0; PLAIN_ROOM + 16]),
        })
    }

    /// Adds the readings to the marker lines that start at the offsets of `marked` in
    /// `out` (each with the offset of its row in `bytes`, whose first byte is the input's
    /// byte `base`), printed as `format` says, `from` being where the batch began. The
    /// batch is rewritten into a second buffer, which then takes the place of the first
    /// (the old one is kept for the next batch); the rows without errors are copied in
    /// the stretches between marker lines, not looked at.
    pub(super) fn append(
        &mut self,
        out: &mut Buf,
        from: usize,
        bytes: &[u8],
        base: u64,
        format: &Format,
        marked: &[(usize, usize)],
    ) {
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        text.reserve(out.len + out.len / 4);
        let written = &out.bytes[..out.len];
        let mut copied = 0;
        for &(line_start, row) in marked {
            if line_start < from.max(copied) || line_start >= written.len() {
                continue;
            }
            let line_end = memchr::memchr(b'\n', &written[line_start..])
                .map_or(written.len(), |i| line_start + i);
            text.extend_from_slice(&written[copied..line_end]);
            copied = line_end;
            let marks = &written[line_start..line_end];
            // The marks stand after the offset's digits (8 or more) and two spaces.
            let digits = (16 - (base + row as u64).leading_zeros() as usize / 4).max(8);
            let row = row..(row + format.width.max(1)).min(bytes.len());
            if format.color {
                self.row_readings(&mut text, marks, digits + 2, bytes, format, row);
            } else {
                self.plain_row_readings(&mut text, marks, digits + 2, bytes, format, row);
            }
        }
        text.extend_from_slice(&written[copied..]);
        let len = text.len();
        // The buffer keeps room past its text, as `Buf` expects of it.
        text.resize(len + super::PUT_SLACK, 0);
        self.text = std::mem::replace(&mut out.bytes, text);
        out.len = len;
    }

    /// The readings of the error units whose heads the marker line `marks` shows (the
    /// row at `row` of `bytes`), after the label; nothing if it shows none. The units are
    /// read off the marks themselves, not decoded again: under the hex pane, `X^` at column
    /// `3 * col` is the first byte of a unit that starts at byte `col` of the row, and
    /// `~~~` each byte more; escapes (colour) take no column. Only a unit whose marks reach
    /// the row's end, which may go on into the next row, is decoded, for its length.
    fn row_readings(
        &self,
        out: &mut Vec<u8>,
        marks: &[u8],
        indent: usize,
        bytes: &[u8],
        format: &Format,
        row: Range<usize>,
    ) {
        let width = row.end - row.start;
        let hex_end = indent + 3 * format.width + 1;
        let mut first = true;
        // Bytes of escapes before `scanned`: a mark's column is its index less those.
        let (mut escaped, mut scanned) = (0, 0);
        for caret in memchr::memchr_iter(b'^', marks) {
            while let Some(e) = memchr::memchr(0x1B, &marks[scanned..caret]) {
                let e = scanned + e;
                let m = marks[e..]
                    .iter()
                    .position(|&c| c == b'm')
                    .map_or(marks.len(), |k| e + k + 1);
                escaped += m - e;
                scanned = m;
            }
            scanned = scanned.max(caret);
            let column = caret - escaped;
            if column >= hex_end || column <= indent {
                break;
            }
            let col = (column - indent - 1) / 3;
            // A span's marks are one run, with no escape inside.
            let tildes = marks[caret + 1..]
                .iter()
                .take_while(|&&c| c == b'~')
                .count();
            let len = 1 + tildes / 3;
            let start = row.start + col;
            let end = if col + len >= width {
                // It may go on past the row: its whole length.
                format.dialect.decode_at(bytes, start).end()
            } else {
                start + len
            };
            if first {
                out.extend_from_slice(&self.label);
                first = false;
            }
            out.push(b' ');
            self.read(out, &bytes[start..end.min(bytes.len())]);
        }
    }

    /// [`Readings::row_readings`] for a marker line without colour, whose marks stand at
    /// fixed columns from `indent`: byte `col`'s mark at `indent + 3 * col`, `^` after a
    /// head's letter and `~` on each byte more. The heads and the continued bytes are
    /// found as two bit sets in one pass without branches, and each byte's reading is a
    /// fixed-size copy into a line on the stack: on random bytes, every other byte is the
    /// head of an error.
    fn plain_row_readings(
        &mut self,
        out: &mut Vec<u8>,
        marks: &[u8],
        indent: usize,
        bytes: &[u8],
        format: &Format,
        row: Range<usize>,
    ) {
        let width = (row.end - row.start).min(64);
        let (mut heads, mut more) = (0u64, 0u64);
        for col in 0..width {
            let mark = |k: usize| marks.get(indent + 3 * col + k).copied().unwrap_or(b' ');
            heads |= ((mark(1) == b'^') as u64) << col;
            more |= ((mark(0) == b'~') as u64) << col;
        }
        if heads == 0 || self.by_byte_fixed.is_empty() {
            if heads != 0 {
                self.row_readings(out, marks, indent, bytes, format, row);
            }
            return;
        }
        let line: &mut [u8; PLAIN_ROOM + 16] = &mut self.line;
        line[..LABEL_ROOM].copy_from_slice(&self.label_fixed);
        let mut at = self.label.len();
        while heads != 0 {
            let col = heads.trailing_zeros() as usize;
            heads &= heads - 1;
            let len = 1 + (!(more >> (col + 1))).trailing_zeros() as usize;
            let start = row.start + col;
            let end = if col + len >= width {
                // It may go on past the row: its whole length.
                format.dialect.decode_at(bytes, start).end()
            } else {
                start + len
            };
            line[at & PLAIN_MASK] = b' ';
            at += 1;
            for &b in &bytes[start..end.min(bytes.len())] {
                let (chunk, n) = &self.by_byte_fixed[b as usize];
                line[(at & PLAIN_MASK)..(at & PLAIN_MASK) + 16].copy_from_slice(chunk);
                at += *n as usize;
            }
        }
        if at <= PLAIN_MASK {
            out.extend_from_slice(&self.line[..at]);
        } else {
            // More than a line on the stack holds (a reading longer than 16 bytes a byte
            // cannot be, but a row of 32 readings of 16 bytes can): the slow way.
            self.row_readings(out, marks, indent, bytes, format, row);
        }
    }

    /// One unit's reading.
    fn read(&self, out: &mut Vec<u8>, unit: &[u8]) {
        if self.by_byte.is_empty() {
            out.extend_from_slice(shown(&self.fallback, unit, self.ascii).as_bytes());
        } else {
            for &b in unit {
                out.extend_from_slice(&self.by_byte[b as usize]);
            }
        }
    }
}

/// `bytes` as `fallback` reads them for a terminal; with `ascii`, in ASCII only.
fn shown(fallback: &Fallback, bytes: &[u8], ascii: bool) -> String {
    let text = fallback.show(bytes);
    if !ascii {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    out
}
