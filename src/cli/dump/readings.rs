//! The fallback readings at the end of a marker line: `; windows-1252: é À ¯`, the error
//! units that start on the row, each as the fallback encoding reads its bytes
//! ([`crate::view::fallback::Fallback::show`]: sanitised, an undefined byte `<81?>`), in
//! the order of their markers, separated by spaces.
//!
//! They are added after a batch of rows is formatted, to the marker lines it holds, so the
//! row printers (the reference and the fast path) stay as they are and a batch without an
//! error costs nothing more. A marker line is the line after a row that starts with a
//! space (a row starts with its offset, or with colour an escape); the rows of a batch
//! start every `width` bytes from the start of its window, so the `k`-th row line of the
//! batch is the row at `window.start + k * width`. With `--ascii`, every character outside
//! ASCII is written `\u{..}`.

use std::fmt::Write as _;
use std::ops::Range;

use super::{Buf, Format};
use crate::decode::Unit;
use crate::view::fallback::Fallback;

/// What the marker lines of one printer end with: the fallback, and (for a single-byte
/// encoding) each byte's reading, made once.
pub(super) struct Readings {
    fallback: Fallback,
    ascii: bool,
    /// `; NAME:`
    label: Vec<u8>,
    /// Per byte, as shown (single-byte encodings only; empty otherwise).
    by_byte: Vec<Vec<u8>>,
    /// The batch's text being rewritten.
    text: Vec<u8>,
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
        Box::new(Readings {
            fallback: *fallback,
            ascii,
            label: format!("; {}:", fallback.name()).into_bytes(),
            by_byte,
            text: Vec::new(),
        })
    }

    /// Adds the readings to every marker line in `out[from..]`, the rows of `window` of
    /// `bytes` printed as `format` says.
    pub(super) fn append(
        &mut self,
        out: &mut Buf,
        from: usize,
        bytes: &[u8],
        format: &Format,
        window: Range<u64>,
    ) {
        self.text.clear();
        self.text.extend_from_slice(&out.bytes[from..out.len]);
        out.len = from;
        let width = format.width.max(1);
        let end = (window.end as usize).min(bytes.len());
        let mut row = None::<usize>;
        let mut rest = &self.text[..];
        let mut line_bytes = Vec::new();
        while !rest.is_empty() {
            let cut = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
            let (line, after) = rest.split_at(cut);
            rest = after;
            if line.first() != Some(&b' ') {
                row = Some(row.map_or(window.start as usize, |r| r + width));
                put(out, line);
                continue;
            }
            let Some(start) = row else {
                put(out, line);
                continue;
            };
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            put(out, body);
            line_bytes.clear();
            self.row_readings(
                &mut line_bytes,
                bytes,
                format,
                start..(start + width).min(end),
            );
            put(out, &line_bytes);
            put(out, &line[body.len()..]);
        }
    }

    /// The readings of the error units that start in `row`, after the label; nothing if
    /// none does.
    fn row_readings(&self, out: &mut Vec<u8>, bytes: &[u8], format: &Format, row: Range<usize>) {
        let dialect = format.dialect;
        if row.start >= row.end {
            return;
        }
        let mut at = dialect.unit_containing(bytes, row.start).start;
        let mut first = true;
        while at < row.end {
            let unit: Unit = dialect.decode_at(bytes, at);
            if unit.is_error() && unit.start >= row.start {
                if first {
                    out.extend_from_slice(&self.label);
                    first = false;
                }
                out.push(b' ');
                let unit_bytes = &bytes[unit.start..unit.end().min(bytes.len())];
                if self.by_byte.is_empty() {
                    out.extend_from_slice(shown(&self.fallback, unit_bytes, self.ascii).as_bytes());
                } else {
                    for &b in unit_bytes {
                        out.extend_from_slice(&self.by_byte[b as usize]);
                    }
                }
            }
            at = unit.end();
        }
    }
}

fn put(out: &mut Buf, piece: &[u8]) {
    out.reserve(piece.len() + super::PUT_SLACK);
    out.bytes[out.len..out.len + piece.len()].copy_from_slice(piece);
    out.len += piece.len();
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
