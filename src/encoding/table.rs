//! The single-byte tables and the labels that name them, in one place for every layer:
//! the view's dialects ([`super::resolve`]), detection's mojibake chains and the fallback
//! reading of error bytes all read the same [`ByteTable`]s, which map both ways (a byte to
//! its code point, a code point back to its byte).
//!
//! A table is built once, the first time it is asked for, and kept for the life of the
//! process (a few kilobytes each): from encoding_rs for the WHATWG single-byte encodings
//! (each byte decoded alone, without replacement), from oem_cp for IBM437 and IBM850, and
//! here for ISO-8859-1 proper (byte b is U+00b, the C1 controls included), which the WHATWG
//! standard folds into windows-1252 and no label names.
//!
//! [`lookup`] is the one resolver of labels: oem_cp's code pages by their usual names, then
//! every label encoding_rs knows.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::decode::ByteTable;

/// What a label names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// An encoding of encoding_rs (single-byte or not).
    Web(&'static encoding_rs::Encoding),
    /// A DOS code page from oem_cp: IBM437 or IBM850.
    Oem(&'static ByteTable),
}

/// The encoding `label` names: `IBM437`/`IBM850` (also `cp437`, `437`, `oem437`, `dos437`,
/// `IBM-437`: case and punctuation ignored, and the same for 850), or any label
/// `encoding_rs::Encoding::for_label` knows (case and surrounding spaces ignored).
///
/// ```
/// use hexrune::encoding::table::{lookup, Label};
/// assert_eq!(lookup(" Latin1 "), Some(Label::Web(encoding_rs::WINDOWS_1252)));
/// assert!(matches!(lookup("cp850"), Some(Label::Oem(t)) if t.name() == "IBM850"));
/// assert_eq!(lookup("nope"), None);
/// ```
pub fn lookup(label: &str) -> Option<Label> {
    let label = label.trim();
    if let Some(table) = oem(label) {
        return Some(Label::Oem(table));
    }
    encoding_rs::Encoding::for_label(label.as_bytes()).map(Label::Web)
}

/// The table of a single-byte encoding of encoding_rs, built once: each byte decoded alone,
/// without replacement; a byte that does not decode is undefined.
pub fn single_byte_table(encoding: &'static encoding_rs::Encoding) -> &'static ByteTable {
    cached(encoding.name(), || {
        let mut values = [ByteTable::UNDEFINED; 256];
        for (b, value) in values.iter_mut().enumerate() {
            let byte = [b as u8];
            if let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(&byte)
            {
                let mut chars = text.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    *value = c as u32;
                }
            }
        }
        values
    })
}

/// IBM437 or IBM850 by one of its labels, from oem_cp's tables (which give bytes 80..FF;
/// 00..7F are ASCII).
pub fn oem(label: &str) -> Option<&'static ByteTable> {
    let folded: String = label
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match folded.as_str() {
        "ibm437" | "cp437" | "437" | "oem437" | "dos437" => Some(ibm437()),
        "ibm850" | "cp850" | "850" | "oem850" | "dos850" => Some(ibm850()),
        _ => None,
    }
}

/// IBM437, the DOS code page of the first PCs: box drawing, Greek and math above 80.
pub fn ibm437() -> &'static ByteTable {
    oem_table("IBM437", &oem_cp::code_table::DECODING_TABLE_CP437)
}

/// IBM850, the DOS code page for Western Europe: IBM437's accented letters, fewer boxes.
pub fn ibm850() -> &'static ByteTable {
    oem_table("IBM850", &oem_cp::code_table::DECODING_TABLE_CP850)
}

fn oem_table(name: &'static str, high: &'static [char; 128]) -> &'static ByteTable {
    cached(name, || {
        std::array::from_fn(|b| match b {
            0..=0x7F => b as u32,
            _ => high[b - 0x80] as u32,
        })
    })
}

/// KOI8-U as RFC 2319 defines it (and Python's `koi8_u` codec, glibc's iconv): KOI8-R with
/// Ukrainian's `є і ї ґ Є І Ї Ґ` at A4 A6 A7 AD B4 B6 B7 BD in the place of box drawing. The
/// WHATWG index named KOI8-U is KOI8-RU, which also puts Belarusian's `ў Ў` at AE and BE
/// (`╝ ╬` here): UTF-8 misread by a Unix KOI8-U locale has those two as box drawing.
pub fn koi8_u_rfc2319() -> &'static ByteTable {
    // KOI8-R's own table first: `cached` builds one table at a time.
    let koi8r = single_byte_table(encoding_rs::KOI8_R);
    cached("KOI8-U (RFC 2319)", || {
        std::array::from_fn(|b| match b {
            0xA4 => 0x454,
            0xA6 => 0x456,
            0xA7 => 0x457,
            0xAD => 0x491,
            0xB4 => 0x404,
            0xB6 => 0x406,
            0xB7 => 0x407,
            0xBD => 0x490,
            _ => koi8r
                .value(b as u8)
                .map_or(ByteTable::UNDEFINED, |c| c.value()),
        })
    })
}

/// ISO-8859-1 proper: byte b is U+00b, 80..9F the C1 controls (what a decoder that is not
/// the web's does with "latin1"; no label names it, as the web's labels mean windows-1252).
pub fn iso_8859_1() -> &'static ByteTable {
    cached("ISO-8859-1", || std::array::from_fn(|b| b as u32))
}

/// Whether byte `b` of `table` is a hole of the vendor's code page that the WHATWG index
/// fills with the C1 control of the same number (windows-1252's 81, 8D, 8F, 90 and 9D): the
/// table gives characters other than C1 controls to some of 80..9F, and this one to itself.
///
/// ```
/// use hexrune::encoding::table::{is_filled_hole, single_byte_table, iso_8859_1};
/// let w = single_byte_table(encoding_rs::WINDOWS_1252);
/// assert!(is_filled_hole(w, 0x81) && !is_filled_hole(w, 0x80));
/// assert!(!is_filled_hole(iso_8859_1(), 0x81)); // every byte of 80..9F is a C1 control
/// ```
pub fn is_filled_hole(table: &ByteTable, b: u8) -> bool {
    if !(0x80..=0x9F).contains(&b) || table.value(b).map(|c| c.value()) != Some(u32::from(b)) {
        return false;
    }
    (0x80..=0x9Fu8).any(|x| {
        table
            .value(x)
            .is_some_and(|c| !(0x80..=0x9F).contains(&c.value()))
    })
}

/// The table named `name`, built by `build` the first time it is asked for.
fn cached(name: &'static str, build: impl FnOnce() -> [u32; 256]) -> &'static ByteTable {
    static TABLES: OnceLock<Mutex<HashMap<&'static str, &'static ByteTable>>> = OnceLock::new();
    let mut tables = TABLES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    tables
        .entry(name)
        .or_insert_with(|| Box::leak(Box::new(ByteTable::new(name, build()))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::CodePoint;

    /// Both directions agree with encoding_rs's own decoder and encoder on every byte of
    /// every single-byte encoding it has.
    #[test]
    fn both_ways_equal_encoding_rs() {
        for label in [
            "windows-1250",
            "windows-1251",
            "windows-1252",
            "windows-1253",
            "windows-1254",
            "windows-1255",
            "windows-1256",
            "windows-1257",
            "windows-1258",
            "windows-874",
            "iso-8859-2",
            "iso-8859-3",
            "iso-8859-4",
            "iso-8859-5",
            "iso-8859-6",
            "iso-8859-7",
            "iso-8859-8",
            "iso-8859-10",
            "iso-8859-13",
            "iso-8859-14",
            "iso-8859-15",
            "iso-8859-16",
            "koi8-r",
            "koi8-u",
            "macintosh",
            "x-mac-cyrillic",
            "ibm866",
        ] {
            let Some(Label::Web(e)) = lookup(label) else {
                panic!("{label}")
            };
            let t = single_byte_table(e);
            for b in 0..=255u8 {
                let one = [b];
                let theirs = e.decode_without_bom_handling_and_without_replacement(&one);
                let ours = t.value(b).and_then(|c| c.to_char());
                assert_eq!(
                    ours.map(String::from).as_deref(),
                    theirs.as_deref(),
                    "{label} {b:02X}"
                );
                if let Some(c) = ours {
                    let text = String::from(c);
                    let (bytes, _, unmappable) = e.encode(&text);
                    assert!(!unmappable);
                    assert_eq!(
                        t.byte_of(CodePoint::new(c as u32)),
                        Some(bytes[0]),
                        "{label} {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn oem_and_latin1_proper() {
        let t = ibm437();
        assert_eq!(t.value(0xC9).map(|c| c.value()), Some(0x2554)); // ╔
        assert_eq!(t.byte_of(CodePoint::new(0x2310)), Some(0xA9)); // ⌐
        assert!(std::ptr::eq(t, oem("IBM-437").unwrap()));
        assert_eq!(ibm850().value(0xD5).map(|c| c.value()), Some(0x131)); // ı
        assert_eq!(oem("852"), None);
        let l = iso_8859_1();
        assert!((0..=255u8).all(|b| l.value(b).map(|c| c.value()) == Some(u32::from(b))));
        assert_eq!(l.name(), "ISO-8859-1");
        let holes: Vec<u8> = (0..=255u8)
            .filter(|b| is_filled_hole(single_byte_table(encoding_rs::WINDOWS_1252), *b))
            .collect();
        assert_eq!(holes, [0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    }
}
