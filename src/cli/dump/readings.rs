//! The fallback readings at the end of a marker line: `; windows-1252: é À ¯`, the error
//! units that start on the row, each as the fallback encoding reads its bytes
//! ([`crate::view::fallback::Fallback::show`]: sanitised, an undefined byte `<81?>`), in
//! the order of their markers, separated by spaces. Both printers write them as they
//! write the marker line, from the row's error spans; a single-byte fallback's reading of
//! each byte is made once ([`Readings::by_byte`]). With `--ascii`, every character outside
//! ASCII is written `\u{..}`.

use std::fmt::Write as _;

use crate::view::fallback::Fallback;

/// What the marker lines of one printer end with: the fallback, and (for a single-byte
/// encoding whose every reading takes at most 16 bytes) each byte's reading, made once.
pub(super) struct Readings {
    fallback: Fallback,
    ascii: bool,
    /// `; NAME:`, in 32 bytes and its length.
    label: ([u8; 32], usize),
    by_byte: Option<Box<[[u8; 16]; 256]>>,
    /// The length of each byte's reading in `by_byte`.
    by_byte_len: [u8; 256],
}

impl Readings {
    pub(super) fn new(fallback: &Fallback, ascii: bool) -> Readings {
        let readings: Vec<String> = (0..=255u8).map(|b| shown(fallback, &[b], ascii)).collect();
        let by_byte_len = std::array::from_fn(|b| readings[b].len().min(16) as u8);
        let label = format!("; {}:", fallback.name());
        let fits = fallback.is_single_byte()
            && readings.iter().all(|r| r.len() <= 16)
            && label.len() <= 32;
        let by_byte: Vec<[u8; 16]> = readings
            .iter()
            .map(|r| super::fixed::<16>(r.as_bytes()).0)
            .collect();
        Readings {
            fallback: *fallback,
            ascii,
            label: super::fixed(label.as_bytes()),
            by_byte: by_byte.into_boxed_slice().try_into().ok().filter(|_| fits),
            by_byte_len,
        }
    }

    /// `; NAME:`, in 32 bytes and its length.
    pub(super) fn label(&self) -> &([u8; 32], usize) {
        &self.label
    }

    /// Each byte's reading in 16 bytes, and each one's length, for a single-byte fallback.
    pub(super) fn by_byte(&self) -> Option<(&[[u8; 16]; 256], &[u8; 256])> {
        Some((self.by_byte.as_deref()?, &self.by_byte_len))
    }

    /// One unit's reading, made each time (for a fallback that reads more than a byte).
    pub(super) fn shown(&self, unit: &[u8]) -> String {
        shown(&self.fallback, unit, self.ascii)
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
