//! Renderings of what the decoder and the scan found: the JSON Lines wire format (its
//! records are the types of [`crate::cli::wire`]) and the human explanations shared by every
//! command.
//!
//! # JSON Lines (`hexrune check --json`)
//!
//! One object per line. For each input, first the evidence of what was read: its size, the
//! SHA-256 of the bytes scanned (hashed in the scan's pass) and its modification time (RFC
//! 3339, UTC; `null` for standard input and what is not a regular file):
//!
//! ```text
//! {"type":"input","path":"f.txt","size":40,"sha256":"4209...ce01","mtime":"2025-01-01T00:00:00Z"}
//! ```
//!
//! Then one object for each error unit and each finding, in input order:
//!
//! ```text
//! {"type":"error","path":"f.txt","offset":12,"len":2,"bytes":"e180","kind":"truncated","expected":"80..BF","line":2,"column":5,"fallback":"á€"}
//! {"type":"finding","path":"f.txt","offset":20,"len":3,"bytes":"efbfbd","kind":"replacement-character","line":3,"column":1,"level":"warning","message":"U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written"}
//! ```
//!
//! `expected` (the byte range allowed where the sequence stopped) and `diagnosis` (what a lax
//! reading says the bytes are, e.g. `"overlong form of U+002F '/'"`) appear only where they
//! apply. `line` and `column` count from 1; the column counts units (characters, and each
//! error unit as one) from the start of the line. `fallback`, last, is the error unit's
//! bytes as the fallback encoding's decoder reads them (windows-1252 unless `--fallback`
//! names another; [`crate::view::fallback::Fallback::read`]); it is absent under
//! `--fallback none`, which leaves the records byte for byte as they were before the key.
//! Read in an encoding outside the UTF-8 family (`--encoding utf-16le`), an error record
//! ends with `encoding`, the encoding's name (`"UTF-16LE"`), as the summary does.
//! In every string, DEL and the C1 controls are JSON escapes (`\u009b`), so a record shown
//! on a terminal cannot start an escape sequence. A finding is a valid unit worth a look:
//! `replacement-character`, a U+FFFD already in the input. Then one summary per input:
//!
//! ```text
//! {"type":"summary","path":"f.txt","size":40,"valid":false,"units":{"1":30,"2":2,"3":1,"4":0},"errors":{"truncated":1},"findings":{"replacement-character":1},"hexrune_version":"0.1.0","dialect":"utf8","argv":["hexrune","check","--json","f.txt"]}
//! ```
//!
//! The summary ends with what made the report: `hexrune_version`, the `dialect` checked and
//! `argv`, the command line as JSON strings (after `encoding`, where there is one).
//!
//! `units` counts scalars per sequence-length class: always `"1"` to `"4"`, plus `"5"` and
//! `"6"` in the dialects that have such units (`"6"` in cesu8 and mutf8, both in legacy).
//! `errors` counts error units per kind and `findings` findings per kind, listing only the
//! kinds that occurred (`{}` when there are none). Offsets are byte offsets from the start
//! of the input, in decimal.
//!
//! An input that cannot be read is one record, `{"type":"io_error","path":..,"message":..}`.
//!
//! `path` is the input's name as a JSON string (`<stdin>` for standard input), exact for a
//! name that is UTF-8; a name that is not also has `path_bytes`, its bytes in base64 (the
//! standard alphabet, padded), right after `path`.
//!
//! # `hexrune at`
//!
//! One object: `{"offset":N,"len":L,"kind":"scalar","cp":C,"class":K,...}` for a scalar
//! (`cp` the code point as a number, then the fields of [`crate::cli::wire::FactsFields`]),
//! `{"offset":N,"len":L,"kind":"error","error":"<kind>"}` plus `expected` / `diagnosis`
//! where they apply for an error, and `fallback` last; `{"offset":N,"len":3,"kind":"escape"}`
//! for an ISO-2022-JP escape sequence (a mode switch, no character). `encoding` follows
//! outside the UTF-8 family.

use std::fmt::Write as _;

use crate::decode::{Dialect, Unit};
use crate::view::fallback::Fallback;

/// Lower-case hex of `bytes` without separators: `e1a0`.
pub fn hex_compact(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Lower-case hex of `bytes` separated by spaces: `e1 a0`.
pub fn hex_spaced(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    parts.join(" ")
}

/// The bytes of a unit within `bytes`.
pub fn unit_bytes<'a>(bytes: &'a [u8], unit: &Unit) -> &'a [u8] {
    &bytes[unit.start..unit.end()]
}

/// A one-line human explanation of an error unit: what the kind means, which bytes were
/// expected where it stopped, and the diagnosis. With the `fallback` the unit is also read
/// in (shown beside this line), the diagnosis leaves out a character that reading shows.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::cli::report::explain;
/// use hexrune::view::fallback::Fallback;
/// let bytes = b"\xE1\x80a";
/// let unit = Dialect::Utf8.decode_at(bytes, 0);
/// assert_eq!(
///     explain(Dialect::Utf8, bytes, &unit, None),
///     "sequence cut short by a byte that is not a continuation; expected 80..BF after e1 80"
/// );
/// let bytes = b"caf\xE9 ok";
/// let unit = Dialect::Utf8.decode_at(bytes, 3);
/// let ends = |fallback: Option<&Fallback>| {
///     let line = explain(Dialect::Utf8, bytes, &unit, fallback);
///     line.rsplit("; ").next().unwrap().to_string()
/// };
/// assert_eq!(ends(None), "lone byte E9: 'é' in Latin-1/Windows-1252?");
/// assert_eq!(ends(Some(&Fallback::windows_1252())), "lone byte E9 between ASCII bytes");
/// let koi8 = Fallback::from_label("koi8-r").unwrap().unwrap();
/// assert_eq!(ends(Some(&koi8)), "lone byte E9: 'é' in Latin-1/Windows-1252?");
/// ```
pub fn explain(dialect: Dialect, bytes: &[u8], unit: &Unit, fallback: Option<&Fallback>) -> String {
    let Some(mut out) = dialect.error_summary(bytes, unit) else {
        return String::new();
    };
    if let Some(range) = dialect.expected(bytes, unit) {
        let _ = write!(
            out,
            "; expected {range} after {}",
            hex_spaced(unit_bytes(bytes, unit))
        );
    }
    if let Some(d) = dialect.diagnose(bytes, unit) {
        let said =
            fallback.map_or_else(|| d.to_string(), |f| f.beside(unit_bytes(bytes, unit), &d));
        let _ = write!(out, "; {said}");
        let span_end = (unit.start + d.span as usize).min(bytes.len());
        if span_end > unit.end() && !d.finding.spells_its_bytes() {
            let _ = write!(out, " ({})", hex_spaced(&bytes[unit.start..span_end]));
        }
    }
    out
}

/// A name (a path, usually) made safe to print on a terminal: the crate's one sanitiser,
/// [`crate::view::safe::sanitize`], under the name this module's callers know.
pub fn safe_name(name: &str) -> String {
    crate::view::safe::sanitize(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explanations() {
        let bytes = b"\xC0\xAF";
        let u = Dialect::Utf8.decode_at(bytes, 0);
        assert_eq!(
            explain(Dialect::Utf8, bytes, &u, None),
            "byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af)"
        );
        let bytes = b"\xE0\x80\xAF";
        let u = Dialect::Utf8.decode_at(bytes, 0);
        assert_eq!(
            explain(Dialect::Utf8, bytes, &u, None),
            "lead of an overlong (non-shortest) form; expected A0..BF after e0; overlong form of U+002F '/' (e0 80 af)"
        );
    }

    #[test]
    fn names_are_made_safe() {
        assert_eq!(safe_name("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(safe_name("evil\u{202E}txt.exe"), "evil\\u{202e}txt.exe");
        assert_eq!(safe_name("café.txt"), "café.txt");
    }
}
