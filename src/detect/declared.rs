//! Declarations: what an input says of its own encoding, in the forms that formats give
//! it, and whether its bytes agree.
//!
//! Four forms are read, the first found wins:
//!
//! - an **XML declaration** at the start: `<?xml version="1.0" encoding="iso-8859-1"?>`;
//! - a **CSS `@charset`** at the start: `@charset "iso-8859-15";` (exactly so, as CSS
//!   Syntax asks);
//! - a **Python or Emacs coding cookie** on line 1 or 2 (PEP 263): `# -*- coding: latin-1
//!   -*-`, `# vim: set fileencoding=cp1252`; `coding[:=]\s*([-\w.]+)` in a line that is a `#`
//!   comment or holds Emacs's `-*-`; line 2 only after a first line that is a comment or
//!   empty, as Python reads them;
//! - an **HTML `<meta>`** in the first [`META_BYTES`] bytes: `<meta charset="…">`, or
//!   `<meta http-equiv="Content-Type" content="text/html; charset=…">`.
//!
//! A label is looked up as encoding_rs looks up the web's labels ([`Encoding::for_label`]),
//! so `iso-8859-1`, `latin1` and `ascii` are windows-1252, as browsers read them; the
//! cookie's label is Python's and is also tried with `_` as `-` and without the `-` of
//! `latin-1` (`euc_jp`, `latin-1`).
//!
//! This module finds and judges a declaration; [`super::detect`] decides what it weighs
//! against the bytes. It knows nothing of files or the command line.

use encoding_rs::{DecoderResult, Encoding};

use super::{bom::Bom, Cut, Detection, Region, BINARY};
use crate::scan::index::Summary;

/// How far into the input an HTML `<meta>` is looked for (the HTML standard's prescan
/// reads the first 1024 bytes).
pub const META_BYTES: usize = 1024;

/// The longest label a declaration may give (WHATWG's longest has 19 bytes; Python's
/// names are shorter).
const MAX_LABEL: usize = 40;

/// Where a declaration was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `<?xml … encoding="…"?>` at the start.
    Xml,
    /// `@charset "…";` at the start.
    Css,
    /// A PEP 263 / Emacs coding cookie on line 1 or 2.
    Cookie,
    /// `<meta charset>` or `<meta http-equiv="Content-Type" content>` in the first 1024 bytes.
    Meta,
}

impl Form {
    /// The form in words, as the evidence names it.
    pub fn name(self) -> &'static str {
        match self {
            Form::Xml => "XML declaration",
            Form::Css => "CSS @charset",
            Form::Cookie => "coding cookie, PEP 263",
            Form::Meta => "HTML meta",
        }
    }
}

/// A declaration of an encoding found in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The form it takes.
    pub form: Form,
    /// The declaration as written, from its keyword to the end of the label (with a
    /// closing quote): `encoding="iso-8859-1"`, `charset=Shift_JIS`, `coding: latin-1`.
    pub text: String,
    /// The label as written.
    pub label: String,
    /// The offset of the label's first byte in the input.
    pub offset: usize,
    /// The encoding encoding_rs gives the label; `None` for a label it does not know.
    pub encoding: Option<&'static Encoding>,
}

impl Declaration {
    /// `declared in the file: encoding="iso-8859-1" at offset 30 (XML declaration)`.
    pub fn said(&self) -> String {
        format!(
            "declared in the file: {} at offset {} ({})",
            self.text,
            self.offset,
            self.form.name()
        )
    }

    /// Where encoding_rs names the label otherwise than it is written (case and
    /// punctuation aside): `encoding_rs names iso-8859-1 windows-1252, as the web reads
    /// it (WHATWG)`.
    pub fn renamed(&self) -> Option<String> {
        let e = self.encoding?;
        let plain = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        (plain(&self.label) != plain(e.name())).then(|| {
            format!(
                "encoding_rs names {} {}, as the web reads it (WHATWG)",
                self.label,
                e.name()
            )
        })
    }
}

/// The declaration of `bytes` (after a byte order mark of `skip` bytes), if any: the XML
/// declaration, the CSS `@charset`, the coding cookie, the HTML `<meta>`, the first found.
///
/// ```
/// use hexrune::detect::declared::{declaration, Form};
/// let d = declaration(b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<a/>", 0).unwrap();
/// assert_eq!((d.form, d.label.as_str(), d.offset), (Form::Xml, "iso-8859-1", 30));
/// assert_eq!(d.encoding, Some(encoding_rs::WINDOWS_1252));
/// assert!(declaration(b"plain text\n", 0).is_none());
/// ```
pub fn declaration(bytes: &[u8], skip: usize) -> Option<Declaration> {
    let skip = skip.min(bytes.len());
    xml(bytes, skip)
        .or_else(|| css(bytes, skip))
        .or_else(|| cookie(bytes, skip))
        .or_else(|| meta(bytes, skip))
}

/// What the bytes say of a declared encoding: where it fails them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// Malformed sequences in it.
    Malformed {
        /// How many.
        count: usize,
        /// The offset of the first.
        first: usize,
    },
    /// A UTF-16 label in bytes that read as ASCII (the declaration itself is ASCII):
    /// browsers ignore it.
    Utf16InAscii,
    /// A label that names no encoding of text (`replacement`, `x-user-defined`).
    NoText,
}

impl Misfit {
    /// The misfit in words, after [`Declaration::said`].
    pub fn words(self, name: &str) -> String {
        match self {
            Misfit::Malformed { count: 1, first } => {
                format!("but 1 sequence is malformed in {name}, at offset {first}")
            }
            Misfit::Malformed { count, first } => format!(
                "but {count} sequences are malformed in {name}, the first at offset {first}"
            ),
            Misfit::Utf16InAscii => format!(
                "but the declaration itself is ASCII bytes, which {name} is not (browsers ignore such a label)"
            ),
            Misfit::NoText => format!("but {name} is no encoding of text"),
        }
    }
}

/// Whether `encoding` reads all of `bytes` as text: `Ok` where it decodes them without a
/// malformed sequence, else why not.
pub fn fits(encoding: &'static Encoding, bytes: &[u8]) -> Result<(), Misfit> {
    if let Some(m) = label_misfit(encoding) {
        return Err(m);
    }
    let (mut count, mut first) = (0usize, None);
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; 64 << 10];
    let mut read = 0;
    loop {
        let (result, n, _) =
            decoder.decode_to_utf8_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                count += 1;
                let at = read - usize::from(bad) - usize::from(after);
                first.get_or_insert(at);
            }
        }
    }
    match first {
        None => Ok(()),
        Some(first) => Err(Misfit::Malformed { count, first }),
    }
}

/// `d`, what [`super::detect`] found in `bytes` (whose UTF-8 scan is `summary`), weighed
/// against the input's declaration, if it has one and no byte order mark (which wins, as
/// in browsers and XML parsers):
///
/// - valid UTF-8 stays UTF-8 whatever it declares; a declaration of another encoding where
///   there is a non-ASCII byte is said to be wrong (a common bug: a UTF-8 file that
///   declares `iso-8859-1`), one of UTF-8 that it agrees;
/// - input that UTF-8 does not explain is named by the declared encoding where that one
///   decodes all of it without a malformed sequence, and is not UTF-16 (which a declaration
///   in ASCII bytes cannot be) or a label of no text; the evidence says where the
///   declaration is and what encoding_rs calls its label;
/// - input that detection reads as UTF-8 with a few errors among its multi-byte
///   characters (or with a region of another encoding beside its UTF-8), and input with a
///   region of wide text or binary, keep what detection found;
///
/// and in each case where the declaration is not followed, the evidence says why.
pub(super) fn weigh(mut d: Detection, bytes: &[u8], summary: &Summary) -> Detection {
    let wide = |e: &str| e.starts_with("UTF-16") || e.starts_with("UTF-32");
    if d.bom == Some(Bom::Utf8) {
        d.evidence.extend(against_utf8_bom(bytes));
        return d;
    }
    if d.bom.is_some() || d.encoding == BINARY || wide(d.encoding) {
        return d;
    }
    let Some(decl) = declaration(bytes, 0) else {
        return d;
    };
    let said = decl.said();
    let Some(enc) = decl.encoding else {
        d.evidence.push(format!(
            "{said}, a label encoding_rs does not know: not followed"
        ));
        return d;
    };
    let name = enc.name();
    let errors = summary.tally.error_count();
    // Valid UTF-8 is not decoded again: only the label is judged.
    let misfit = match errors {
        0 => label_misfit(enc),
        _ => fits(enc, bytes).err(),
    };
    let multibyte: u64 = summary.tally.classes[2..].iter().sum();
    let agrees = name == d.encoding;
    if errors == 0 {
        d.evidence.push(match misfit {
            _ if agrees => format!("{said}, which the bytes agree with"),
            Some(m @ (Misfit::Utf16InAscii | Misfit::NoText)) => {
                format!("{said}, {}: not followed", m.words(name))
            }
            _ if d.ascii => format!("{said}; every byte is ASCII, which {name} reads the same"),
            _ => format!(
                "{said}, but the bytes are valid UTF-8: the declaration is wrong (a UTF-8 file that declares {} is a common bug)",
                decl.label
            ),
        });
        return d;
    }
    let mixed = d
        .regions
        .iter()
        .any(|r| r.encoding == BINARY || wide(r.encoding));
    // UTF-8 with a few errors among its characters, or beside a region of another
    // encoding: a decoding of the whole in the declared encoding would garble the UTF-8.
    let utf8_text = matches!(
        d.encoding,
        "UTF-8" | "CESU-8" | "MUTF-8" | "WTF-8" | "RFC 2279"
    ) && multibyte > 0
        && (multibyte >= errors || d.regions.len() > 1);
    if let Some(m) = misfit {
        d.evidence
            .push(format!("{said}, {}: not followed", m.words(name)));
        return d;
    }
    if mixed || utf8_text {
        d.evidence.push(format!(
            "{said}, but {} valid UTF-8, against {}: not followed",
            super::counted(
                multibyte,
                "multi-byte character is",
                "multi-byte characters are"
            ),
            super::counted(errors, "error", "errors")
        ));
        return d;
    }
    let before = d.headline();
    d.encoding = name;
    d.errors = 0;
    d.ascii = false;
    d.regions = vec![Region {
        start: 0,
        end: bytes.len(),
        encoding: name,
    }];
    d.inner_boms.clear();
    d.mojibake.clear();
    d.cut = Cut::default();
    d.evidence = vec![said];
    d.evidence.extend(decl.renamed());
    // ISO-8859-1 proper has C1 controls where windows-1252 has its signs and letters.
    let c1 = bytes.iter().filter(|b| (0x80..=0x9F).contains(*b)).count();
    if enc == encoding_rs::WINDOWS_1252 && c1 > 0 {
        d.evidence.push(format!(
            "{} 80..9F, C1 controls in ISO-8859-1 proper, {} windows-1252's signs and letters",
            super::counted(c1 as u64, "byte", "bytes"),
            if c1 == 1 {
                "is read as one of"
            } else {
                "are read as"
            }
        ));
    }
    d.evidence.push(format!(
        "{name} decodes every byte{}",
        match agrees {
            true => String::new(),
            false => format!(" (without the declaration: {before})"),
        }
    ));
    d
}

/// Where the declaration after a UTF-8 byte order mark names another encoding, the
/// sentence that says so. The mark wins, as it does in browsers and XML parsers (XML 1.0,
/// 4.3.3 and Appendix F: an entity that starts with `EF BB BF` is UTF-8), so the bytes are
/// read as UTF-8 all the same; but the declaration is wrong, and a reader that checks it
/// against the mark refuses the file: .NET's XmlReader, given `encoding="utf-16"` after a
/// UTF-8 mark, stops with "There is no Unicode byte order mark. Cannot switch to Unicode".
fn against_utf8_bom(bytes: &[u8]) -> Option<String> {
    let decl = declaration(bytes, Bom::Utf8.len())?;
    let enc = decl.encoding?;
    if enc == encoding_rs::UTF_8 {
        return None;
    }
    let utf16 = enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE;
    Some(format!(
        "{}, which contradicts the UTF-8 byte order mark: the mark wins and the bytes are read as UTF-8{}",
        decl.said(),
        match (decl.form, utf16) {
            (Form::Xml, true) => " (XML 1.0, 4.3.3 and Appendix F), but the declaration is wrong: .NET's XmlReader refuses it (\"There is no Unicode byte order mark. Cannot switch to Unicode\")",
            (Form::Xml, false) => " (XML 1.0, 4.3.3 and Appendix F), but the declaration is wrong",
            _ => ", but the declaration is wrong",
        }
    ))
}

/// What is wrong with declaring `encoding` in ASCII bytes, whatever the bytes: UTF-16, or
/// no encoding of text.
fn label_misfit(encoding: &'static Encoding) -> Option<Misfit> {
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        return Some(Misfit::Utf16InAscii);
    }
    if encoding == encoding_rs::REPLACEMENT || encoding == encoding_rs::X_USER_DEFINED {
        return Some(Misfit::NoText);
    }
    None
}

/// The encoding `label` names, as the web reads labels; a coding cookie's label (Python's
/// spelling) is also tried with `_` as `-`, then without `-`.
fn lookup(label: &str, form: Form) -> Option<&'static Encoding> {
    let exact = Encoding::for_label(label.as_bytes());
    if exact.is_some() || form != Form::Cookie {
        return exact;
    }
    let dashed = label.replace('_', "-");
    Encoding::for_label(dashed.as_bytes())
        .or_else(|| Encoding::for_label(dashed.replace('-', "").as_bytes()))
}

/// A byte a label may hold: letters, digits and `-_.:` (WHATWG labels and Python's codec
/// names use no other).
fn label_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')
}

fn found(
    bytes: &[u8],
    form: Form,
    from: usize,
    label: std::ops::Range<usize>,
    end: usize,
) -> Option<Declaration> {
    // Printed as it is in the evidence: printable ASCII only (a label of anything else
    // names no encoding), and short (the longest label encoding_rs knows has 19 bytes).
    let printable = |r: std::ops::Range<usize>| {
        let b = &bytes[r];
        b.iter()
            .all(|&b| (0x20..0x7F).contains(&b))
            .then(|| String::from_utf8_lossy(b).into_owned())
    };
    let text = printable(from..end)?;
    let label_text = printable(label.clone())?;
    if label_text.is_empty() || label_text.len() > MAX_LABEL || text.len() > 2 * MAX_LABEL {
        return None;
    }
    Some(Declaration {
        form,
        encoding: lookup(&label_text, form),
        text,
        label: label_text,
        offset: label.start,
    })
}

/// The value of a quoted or bare attribute at `at` in `bytes` (up to `end`): its range
/// and where it ends with its closing quote.
fn value_at(bytes: &[u8], at: usize, end: usize) -> Option<(std::ops::Range<usize>, usize)> {
    match bytes.get(at) {
        Some(&q @ (b'"' | b'\'')) => {
            let close = memchr::memchr(q, &bytes[at + 1..end])? + at + 1;
            Some((at + 1..close, close + 1))
        }
        Some(_) => {
            let stop = bytes[at..end]
                .iter()
                .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b';' | b'"' | b'\''))
                .map_or(end, |i| at + i);
            Some((at..stop, stop))
        }
        None => None,
    }
}

fn skip_space(bytes: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// `<?xml … encoding="…" … ?>` at the start (after `skip`).
fn xml(bytes: &[u8], skip: usize) -> Option<Declaration> {
    let rest = &bytes[skip..];
    if !rest.starts_with(b"<?xml") || !rest.get(5).is_some_and(|b| b.is_ascii_whitespace()) {
        return None;
    }
    let end = skip + memchr::memmem::find(&rest[..rest.len().min(512)], b"?>")?;
    let key = skip + memchr::memmem::find(&bytes[skip..end], b"encoding")?;
    let eq = skip_space(bytes, key + 8, end);
    if bytes.get(eq) != Some(&b'=') {
        return None;
    }
    let at = skip_space(bytes, eq + 1, end);
    if !matches!(bytes.get(at), Some(b'"' | b'\'')) {
        return None;
    }
    let (label, close) = value_at(bytes, at, end)?;
    found(bytes, Form::Xml, key, label, close)
}

/// `@charset "…";` at the start (after `skip`), exactly so.
fn css(bytes: &[u8], skip: usize) -> Option<Declaration> {
    let rest = &bytes[skip..];
    if !rest.starts_with(b"@charset \"") {
        return None;
    }
    let start = skip + 10;
    let len = bytes[start..]
        .iter()
        .take_while(|b| label_byte(**b))
        .count();
    if bytes.get(start + len..start + len + 2) != Some(b"\";") {
        return None;
    }
    found(bytes, Form::Css, skip, start..start + len, start + len + 1)
}

/// A coding cookie on line 1 or 2 (after `skip`), within the first [`META_BYTES`] bytes:
/// `coding[:=]\s*([-\w.]+)` in a `#` comment or beside Emacs's `-*-`; line 2 only after
/// a comment or an empty line 1.
fn cookie(bytes: &[u8], skip: usize) -> Option<Declaration> {
    // The two lines are looked for in the first bytes only: an input of one long line is
    // not read through.
    let bytes = &bytes[..bytes.len().min(skip + META_BYTES)];
    let mut start = skip;
    for n in 0..2 {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        let trimmed = line.trim_ascii_start();
        let comment = trimmed.starts_with(b"#");
        let emacs = memchr::memmem::find(line, b"-*-").is_some();
        if comment || emacs {
            let mut from = 0;
            while let Some(i) = memchr::memmem::find(&line[from..], b"coding") {
                let key = from + i;
                from = key + 6;
                if !matches!(line.get(key + 6), Some(b':' | b'=')) {
                    continue;
                }
                let at = key + 7;
                let at = at
                    + line[at..]
                        .iter()
                        .take_while(|b| matches!(b, b' ' | b'\t'))
                        .count();
                let len = line[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                    .count();
                if len > 0 {
                    return found(
                        bytes,
                        Form::Cookie,
                        start + key,
                        start + at..start + at + len,
                        start + at + len,
                    );
                }
            }
        }
        if n == 0 && !(comment || trimmed.is_empty()) || end == bytes.len() {
            return None;
        }
        start = end + 1;
    }
    None
}

/// `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">` in
/// the first [`META_BYTES`] bytes (after `skip`), the tag whole within them.
fn meta(bytes: &[u8], skip: usize) -> Option<Declaration> {
    let end = bytes.len().min(skip + META_BYTES);
    let head = &bytes[..end];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let mut from = skip;
    while let Some(i) = memchr::memmem::find(&lower[from..], b"<meta") {
        let tag = from + i;
        from = tag + 5;
        if !lower
            .get(tag + 5)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            continue;
        }
        let close = memchr::memchr(b'>', &lower[tag..]).map(|j| tag + j)?;
        let attrs = attributes(&lower, tag + 5, close);
        let get = |name: &[u8]| attrs.iter().find(|(n, _, _)| lower[n.clone()] == *name);
        if let Some((n, v, stop)) = get(b"charset") {
            return found(bytes, Form::Meta, n.start, v.clone(), *stop);
        }
        let http_equiv =
            get(b"http-equiv").is_some_and(|(_, v, _)| lower[v.clone()] == *b"content-type");
        if let (true, Some((_, v, _))) = (http_equiv, get(b"content")) {
            if let Some(d) = charset_in_content(bytes, &lower, v.clone()) {
                return Some(d);
            }
        }
    }
    None
}

/// The attributes of a tag between `from` and `close` (its `>`): name range, value range
/// and where the value ends (after a closing quote).
fn attributes(
    lower: &[u8],
    mut at: usize,
    close: usize,
) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>, usize)> {
    let mut out = Vec::new();
    loop {
        at = skip_space(lower, at, close);
        while at < close && lower[at] == b'/' {
            at += 1;
        }
        if at >= close {
            return out;
        }
        let name_end = lower[at..close]
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b'=' | b'/'))
            .map_or(close, |i| at + i);
        let name = at..name_end;
        let eq = skip_space(lower, name_end, close);
        if lower.get(eq) != Some(&b'=') {
            at = name_end.max(at + 1);
            continue;
        }
        let v = skip_space(lower, eq + 1, close);
        let Some((value, stop)) = value_at(lower, v, close) else {
            return out;
        };
        out.push((name, value, stop));
        at = stop.max(v + 1);
    }
}

/// `charset=…` inside the `content` attribute's value `value` (as the HTML standard
/// extracts it: after `charset`, spaces, `=`, spaces, a quoted or bare label).
fn charset_in_content(
    bytes: &[u8],
    lower: &[u8],
    value: std::ops::Range<usize>,
) -> Option<Declaration> {
    let mut from = value.start;
    while let Some(i) = memchr::memmem::find(&lower[from..value.end], b"charset") {
        let key = from + i;
        from = key + 7;
        let eq = skip_space(lower, key + 7, value.end);
        if lower.get(eq) != Some(&b'=') || eq >= value.end {
            continue;
        }
        let at = skip_space(lower, eq + 1, value.end);
        let (label, stop) = value_at(lower, at, value.end)?;
        return found(bytes, Form::Meta, key, label, stop);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(bytes: &[u8]) -> Option<(Form, String, usize, String)> {
        declaration(bytes, 0).map(|d| (d.form, d.label, d.offset, d.text))
    }

    #[test]
    fn forms() {
        assert_eq!(
            label(b"<?xml version='1.0' encoding = 'Shift_JIS' ?><a/>"),
            Some((
                Form::Xml,
                "Shift_JIS".into(),
                32,
                "encoding = 'Shift_JIS'".into()
            ))
        );
        assert_eq!(
            label(b"@charset \"iso-8859-15\";\nbody {}"),
            Some((
                Form::Css,
                "iso-8859-15".into(),
                10,
                "@charset \"iso-8859-15\"".into()
            ))
        );
        assert_eq!(label(b"@charset 'x';"), None);
        assert_eq!(
            label(b"#!/usr/bin/python\n# -*- coding: latin-1 -*-\n"),
            Some((Form::Cookie, "latin-1".into(), 32, "coding: latin-1".into()))
        );
        assert_eq!(
            label(b"# vim: set fileencoding=cp1252 :\n"),
            Some((Form::Cookie, "cp1252".into(), 24, "coding=cp1252".into()))
        );
        // Line 2 only after a comment or an empty line; line 3 never.
        assert_eq!(label(b"import os\n# coding: latin-1\n"), None);
        assert_eq!(label(b"#\n\n# coding: latin-1\n"), None);
        assert_eq!(
            label(b"<html><head><META Charset=\"windows-1251\"></head>"),
            Some((
                Form::Meta,
                "windows-1251".into(),
                27,
                "Charset=\"windows-1251\"".into()
            ))
        );
        assert_eq!(
            label(b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\">"),
            Some((
                Form::Meta,
                "Shift_JIS".into(),
                60,
                "charset=Shift_JIS".into()
            ))
        );
        let far = [vec![b' '; 1020], b"<meta charset=\"koi8-r\">".to_vec()].concat();
        assert_eq!(label(&far), None);
        assert_eq!(label(b"<metadata charset=\"koi8-r\">"), None);
    }

    #[test]
    fn labels_and_fits() {
        let d = declaration(b"# coding: euc_jp\n", 0).unwrap();
        assert_eq!(d.encoding, Some(encoding_rs::EUC_JP));
        let d = declaration(b"<meta charset=\"latin1\">", 0).unwrap();
        assert_eq!(
            d.renamed().as_deref(),
            Some("encoding_rs names latin1 windows-1252, as the web reads it (WHATWG)")
        );
        let d = declaration(b"<meta charset=\"utf8\">", 0).unwrap();
        assert_eq!(d.renamed(), None);
        assert_eq!(fits(encoding_rs::SHIFT_JIS, b"\x93\xFA\x96\x7B"), Ok(()));
        assert_eq!(
            fits(encoding_rs::UTF_8, b"caf\xE9 cr\xE8me"),
            Err(Misfit::Malformed { count: 2, first: 3 })
        );
        assert_eq!(
            fits(encoding_rs::UTF_16LE, b"abc"),
            Err(Misfit::Utf16InAscii)
        );
    }
}
