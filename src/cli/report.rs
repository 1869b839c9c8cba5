//! Renderings of what the decoder and the scan found: the JSON Lines wire format and the
//! human explanations shared by every command.
//!
//! # JSON Lines (`hexrune check --json`)
//!
//! One object per line. For each error unit, in input order:
//!
//! ```text
//! {"type":"error","path":"f.txt","offset":12,"len":2,"bytes":"e1a0","kind":"truncated","expected":"80..BF"}
//! ```
//!
//! `expected` (the byte range allowed where the sequence stopped) and `diagnosis` (what a lax
//! reading says the bytes are, e.g. `"overlong form of U+002F '/'"`) appear only where they
//! apply. Then one summary per input:
//!
//! ```text
//! {"type":"summary","path":"f.txt","size":40,"valid":false,"units":{"1":30,"2":2,"3":1,"4":0},"errors":{"truncated":1}}
//! ```
//!
//! `units` counts scalars per sequence-length class: always `"1"` to `"4"`, plus `"5"` and
//! `"6"` in the dialects that have such units (`"6"` in cesu8 and mutf8, both in legacy).
//! `errors` counts error units per kind, listing only the kinds that occurred (`{}` when the
//! input is valid). Offsets are byte offsets from the start of the input, in decimal.
//!
//! # `hexrune at`
//!
//! One object: `{"offset":N,"len":L,"kind":"scalar","cp":C,"class":K,...}` for a scalar
//! (`cp` the code point as a number, then the fields of [`facts_json`]),
//! `{"offset":N,"len":L,"kind":"error","error":"<kind>"}` plus `expected` / `diagnosis`
//! where they apply for an error.

use std::fmt::Write as _;

use crate::decode::{Dialect, Unit, UnitKind};
use crate::scan::index::summary_classes;
use crate::scan::Tally;
use crate::view::unicode::{facts, Facts};

/// A JSON string literal for `text` (quotes included).
pub fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

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

/// Appends `,"expected":"..","diagnosis":".."` for an error unit, where they apply.
fn push_error_details(out: &mut String, dialect: Dialect, bytes: &[u8], unit: &Unit) {
    if let Some(range) = dialect.expected(bytes, unit) {
        let _ = write!(out, r#","expected":"{range}""#);
    }
    if let Some(d) = dialect.diagnose(bytes, unit) {
        let _ = write!(out, r#","diagnosis":{}"#, json_string(&d.to_string()));
    }
}

/// The JSON Lines object of one error unit (no trailing newline). `path_json` is the path
/// already as a JSON string literal (see [`json_string`]).
pub fn error_json(path_json: &str, dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
    let kind = unit.error_kind().map(|k| k.name()).unwrap_or("none");
    let mut out = String::with_capacity(160);
    let _ = write!(
        out,
        r#"{{"type":"error","path":{path_json},"offset":{},"len":{},"bytes":"{}","kind":"{kind}""#,
        unit.start,
        unit.len,
        hex_compact(unit_bytes(bytes, unit)),
    );
    push_error_details(&mut out, dialect, bytes, unit);
    out.push('}');
    out
}

/// The JSON Lines summary object of one input (no trailing newline).
pub fn summary_json(path_json: &str, dialect: Dialect, size: u64, tally: &Tally) -> String {
    let units: Vec<String> = summary_classes(dialect)
        .iter()
        .map(|c| format!(r#""{c}":{}"#, tally.classes[*c as usize]))
        .collect();
    let errors: Vec<String> = crate::decode::ErrorKind::ALL
        .iter()
        .filter(|k| tally.errors_of(**k) > 0)
        .map(|k| format!(r#""{}":{}"#, k.name(), tally.errors_of(*k)))
        .collect();
    format!(
        r#"{{"type":"summary","path":{path_json},"size":{size},"valid":{},"units":{{{}}},"errors":{{{}}}}}"#,
        tally.error_count() == 0,
        units.join(","),
        errors.join(","),
    )
}

/// The JSON object `hexrune at` prints for a unit (no trailing newline): for a scalar, its
/// [`facts_json`] too.
pub fn unit_json(dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
    let mut out = format!(r#"{{"offset":{},"len":{}"#, unit.start, unit.len);
    match unit.kind {
        UnitKind::Scalar(cp) => {
            let _ = write!(
                out,
                r#","kind":"scalar","cp":{},"class":{},{}"#,
                cp.value(),
                unit.len,
                facts_json(&facts(cp))
            );
        }
        UnitKind::Error(kind) => {
            let _ = write!(out, r#","kind":"error","error":"{}""#, kind.name());
            push_error_details(&mut out, dialect, bytes, unit);
        }
    }
    out.push('}');
    out
}

/// The fields every JSON record of a code point carries, from [`facts`], without braces:
/// `"name"` (the name or code point label), `"alias"` (a C0 control's, else `null`),
/// `"category"` (the abbreviation, `null` above U+10FFFF), `"width"`, `"plane"` and
/// `"block"` (`null` where there is none).
///
/// ```
/// use hexrune::cli::report::facts_json;
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::facts;
/// assert_eq!(
///     facts_json(&facts(CodePoint::new(0x4E00))),
///     r#""name":"CJK UNIFIED IDEOGRAPH-4E00","alias":null,"category":"Lo","width":2,"plane":0,"block":"CJK Unified Ideographs""#
/// );
/// ```
pub fn facts_json(facts: &Facts) -> String {
    let or_null = |v: Option<String>| v.unwrap_or_else(|| "null".to_string());
    format!(
        r#""name":{},"alias":{},"category":{},"width":{},"plane":{},"block":{}"#,
        json_string(&facts.label),
        or_null(facts.alias.map(json_string)),
        or_null(facts.category.map(|c| json_string(c.abbreviation()))),
        or_null(facts.width.map(|w| w.to_string())),
        or_null(facts.plane.map(|p| p.to_string())),
        or_null(facts.block.map(json_string)),
    )
}

/// A one-line human explanation of an error unit: what the kind means, which bytes were
/// expected where it stopped, and the diagnosis.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::cli::report::explain;
/// let bytes = b"\xE1\x80a";
/// let unit = Dialect::Utf8.decode_at(bytes, 0);
/// assert_eq!(
///     explain(Dialect::Utf8, bytes, &unit),
///     "sequence cut short by a byte that is not a continuation; expected 80..BF after e1 80"
/// );
/// ```
pub fn explain(dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
    let Some(kind) = unit.error_kind() else {
        return String::new();
    };
    let mut out = String::from(kind.summary());
    if let Some(range) = dialect.expected(bytes, unit) {
        let _ = write!(
            out,
            "; expected {range} after {}",
            hex_spaced(unit_bytes(bytes, unit))
        );
    }
    if let Some(d) = dialect.diagnose(bytes, unit) {
        let _ = write!(out, "; {d}");
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
    use crate::scan::scan;

    #[test]
    fn error_objects() {
        let bytes = b"a\xC0\xAF\xE1\x80";
        let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
        let path = json_string("f.txt");
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[1]),
            r#"{"type":"error","path":"f.txt","offset":1,"len":1,"bytes":"c0","kind":"invalid_byte","diagnosis":"overlong form of U+002F '/'"}"#
        );
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[2]),
            r#"{"type":"error","path":"f.txt","offset":2,"len":1,"bytes":"af","kind":"unexpected_continuation"}"#
        );
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[3]),
            r#"{"type":"error","path":"f.txt","offset":3,"len":2,"bytes":"e180","kind":"truncated_eof","expected":"80..BF"}"#
        );
    }

    #[test]
    fn summaries() {
        let bytes = "a\u{E9}\u{20AC}".as_bytes();
        let mut tally = Tally::default();
        scan(Dialect::Utf8, bytes, &mut tally);
        assert_eq!(
            summary_json(r#""x""#, Dialect::Utf8, 6, &tally),
            r#"{"type":"summary","path":"x","size":6,"valid":true,"units":{"1":1,"2":1,"3":1,"4":0},"errors":{}}"#
        );
        let mut tally = Tally::default();
        scan(Dialect::Legacy, b"\xF8\x88\x80\x80\x80\xFE", &mut tally);
        assert_eq!(
            summary_json(r#""x""#, Dialect::Legacy, 6, &tally),
            r#"{"type":"summary","path":"x","size":6,"valid":false,"units":{"1":0,"2":0,"3":0,"4":0,"5":1,"6":0},"errors":{"invalid_byte":1}}"#
        );
        assert_eq!(summary_classes(Dialect::Cesu8), [1, 2, 3, 4, 6]);
    }

    #[test]
    fn at_objects() {
        let bytes = "\u{20AC}".as_bytes();
        let u = Dialect::Utf8.unit_containing(bytes, 2);
        assert_eq!(
            unit_json(Dialect::Utf8, bytes, &u),
            r#"{"offset":0,"len":3,"kind":"scalar","cp":8364,"class":3,"name":"EURO SIGN","alias":null,"category":"Sc","width":1,"plane":0,"block":"Currency Symbols"}"#
        );
        let bytes = b"\xED\xA0\x80";
        let u = Dialect::Utf8.unit_containing(bytes, 0);
        assert_eq!(
            unit_json(Dialect::Utf8, bytes, &u),
            r#"{"offset":0,"len":1,"kind":"error","error":"surrogate","expected":"80..9F","diagnosis":"UTF-16 surrogate U+D800 (lead half, not a character)"}"#
        );
    }

    #[test]
    fn explanations() {
        let bytes = b"\xC0\xAF";
        let u = Dialect::Utf8.decode_at(bytes, 0);
        assert_eq!(
            explain(Dialect::Utf8, bytes, &u),
            "byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af)"
        );
        let bytes = b"\xE0\x80\xAF";
        let u = Dialect::Utf8.decode_at(bytes, 0);
        assert_eq!(
            explain(Dialect::Utf8, bytes, &u),
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
