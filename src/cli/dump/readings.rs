//! The fallback readings at the end of a marker line: `; windows-1252: é À ¯`, the error
//! units that start on the row, each as the fallback encoding reads its bytes
//! ([`crate::view::fallback::Fallback::show`]: sanitised, an undefined byte `<81?>`), in
//! the order of their markers, separated by spaces. Written as the marker line is built,
//! from the units its marks stand for (both printers know them). With `--ascii`, every
//! character outside ASCII is written `\u{..}`.

use std::fmt::Write as _;

use super::{Buf, Mark};
use crate::view::fallback::Fallback;

/// What the marker lines of one printer end with: the fallback, and (for a single-byte
/// encoding) each byte's reading, made once.
pub(super) struct Readings {
    fallback: Fallback,
    ascii: bool,
    /// `; NAME:`
    label: Vec<u8>,
    /// Per byte, as shown, padded to 16 bytes (single-byte encodings whose readings all
    /// fit; empty otherwise).
    by_byte: Vec<([u8; 16], usize)>,
}

impl Readings {
    pub(super) fn new(fallback: &Fallback, ascii: bool) -> Readings {
        let mut by_byte: Vec<([u8; 16], usize)> = Vec::new();
        if fallback.is_single_byte() {
            let shown = (0..=255u8).map(|b| shown(fallback, &[b], ascii).into_bytes());
            by_byte = shown.map(|r| super::fixed(&r)).collect();
            if by_byte.iter().any(|&(_, len)| len >= 16) {
                by_byte.clear();
            }
        }
        Readings {
            fallback: *fallback,
            ascii,
            label: format!("; {}:", fallback.name()).into_bytes(),
            by_byte,
        }
    }

    /// The readings of the units of `marks` that start on the row (of `bytes`), after the
    /// label; nothing if there are none.
    #[inline]
    pub(super) fn write(&self, out: &mut Buf, marks: &[Mark], bytes: &[u8]) {
        let mut heads = marks.iter().filter(|mark| mark.head).peekable();
        if heads.peek().is_none() {
            return;
        }
        out.extend(&self.label);
        for mark in heads {
            let unit = &bytes[mark.unit.0..mark.unit.1];
            out.reserve(16 * unit.len() + 1);
            out.put(b" ", 1);
            if self.by_byte.is_empty() {
                out.extend(shown(&self.fallback, unit, self.ascii).as_bytes());
            } else {
                for &b in unit {
                    let (reading, len) = &self.by_byte[b as usize];
                    out.put(reading, *len);
                }
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
