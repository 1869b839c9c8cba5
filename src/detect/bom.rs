//! Byte order marks and other signatures at the start of an input, and U+FEFF found later
//! (the mark of files that were concatenated).
//!
//! The longest signature is tried first: UTF-32LE's `FF FE 00 00` starts with UTF-16LE's
//! `FF FE`, so `FF FE 00 00` is UTF-32LE. (A UTF-16LE file that starts with U+FEFF and then
//! U+0000 is indistinguishable; it is taken for UTF-32LE, as every detector does.)
//! Unicode's own marks are read by [`decode::Bom::detect`], the one reading of them, so
//! `check`'s `bom` line and the diagnosis of an invalid byte name the mark detection names;
//! UTF-7's and GB18030's are added here.

use crate::decode::{self, Dialect, Unit, UnitKind};

/// A signature at the start of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bom {
    /// `EF BB BF`.
    Utf8,
    /// `FF FE`.
    Utf16Le,
    /// `FE FF`.
    Utf16Be,
    /// `FF FE 00 00`.
    Utf32Le,
    /// `00 00 FE FF`.
    Utf32Be,
    /// `2B 2F 76` followed by `38`, `39`, `2B` or `2F` ("+/v8" ...).
    Utf7,
    /// `84 31 95 33`.
    Gb18030,
}

impl Bom {
    /// The signature `bytes` start with, if any.
    ///
    /// ```
    /// use hexrune::detect::bom::Bom;
    /// assert_eq!(Bom::at_start(b"\xFF\xFE\x00\x00a\x00\x00\x00"), Some(Bom::Utf32Le));
    /// assert_eq!(Bom::at_start(b"\xFF\xFEa\x00"), Some(Bom::Utf16Le));
    /// assert_eq!(Bom::at_start(b"+/v8-"), Some(Bom::Utf7));
    /// ```
    pub fn at_start(bytes: &[u8]) -> Option<Bom> {
        // Neither signature starts like one of Unicode's marks, so the order is free.
        match bytes {
            [0x84, 0x31, 0x95, 0x33, ..] => Some(Bom::Gb18030),
            [0x2B, 0x2F, 0x76, 0x38 | 0x39 | 0x2B | 0x2F, ..] => Some(Bom::Utf7),
            _ => decode::Bom::detect(bytes).map(Bom::from),
        }
    }

    /// Its bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Bom::Utf8 => &[0xEF, 0xBB, 0xBF],
            Bom::Utf16Le => &[0xFF, 0xFE],
            Bom::Utf16Be => &[0xFE, 0xFF],
            Bom::Utf32Le => &[0xFF, 0xFE, 0x00, 0x00],
            Bom::Utf32Be => &[0x00, 0x00, 0xFE, 0xFF],
            Bom::Utf7 => &[0x2B, 0x2F, 0x76],
            Bom::Gb18030 => &[0x84, 0x31, 0x95, 0x33],
        }
    }

    /// How many bytes it takes (UTF-7's fourth byte is part of the first character).
    pub fn len(self) -> usize {
        self.bytes().len()
    }

    /// Never: every signature has bytes (for clippy's `len` rule).
    pub fn is_empty(self) -> bool {
        false
    }

    /// The encoding it announces, as the JSON records name it.
    pub fn encoding(self) -> &'static str {
        match self {
            Bom::Utf8 => "UTF-8",
            Bom::Utf16Le => "UTF-16LE",
            Bom::Utf16Be => "UTF-16BE",
            Bom::Utf32Le => "UTF-32LE",
            Bom::Utf32Be => "UTF-32BE",
            Bom::Utf7 => "UTF-7",
            Bom::Gb18030 => "gb18030",
        }
    }

    /// Its bytes in hex, spaced: `EF BB BF`.
    pub fn hex(self) -> String {
        super::hex(self.bytes())
    }
}

impl From<decode::Bom> for Bom {
    fn from(mark: decode::Bom) -> Bom {
        match mark {
            decode::Bom::Utf8 => Bom::Utf8,
            decode::Bom::Utf16Le => Bom::Utf16Le,
            decode::Bom::Utf16Be => Bom::Utf16Be,
            decode::Bom::Utf32Le => Bom::Utf32Le,
            decode::Bom::Utf32Be => Bom::Utf32Be,
        }
    }
}

/// A byte order mark at the start of an input read in an encoding that is not the one the
/// mark names: UTF-16BE's `FE FF` in a UTF-16LE reading, UTF-8's `EF BB BF` in a
/// windows-1252 one. What `check` notes and the viewer's status line says, in the same
/// words ([`Contradiction::claim`], [`Contradiction::reading`]), each ending with its own
/// way out (`try -e utf-16be`, `e reads it as UTF-16BE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// The mark.
    pub bom: Bom,
    /// The encoding the input is read in.
    pub asked: Dialect,
    /// How that encoding reads the mark: its code points, noncharacters and errors named.
    read: String,
    /// Whether the mark is a whole number of the encoding's code units (else its last
    /// unit takes bytes after it).
    whole: bool,
}

impl Contradiction {
    /// The contradiction between the mark `bytes` start with and `dialect`, if the mark
    /// names another encoding. Only UTF-16, UTF-32 and the legacy encodings are asked: in
    /// the UTF-8 family a UTF-16 or UTF-32 mark is an error whose diagnosis says what it
    /// is. Only the marks of Unicode's encodings count (not UTF-7's or GB18030's).
    ///
    /// ```
    /// use hexrune::decode::Dialect;
    /// use hexrune::detect::bom::Contradiction;
    /// let c = Contradiction::of(Dialect::Utf16Le, b"\xFE\xFF\x00h").unwrap();
    /// assert_eq!(c.claim(), "the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked");
    /// assert_eq!(c.reading(), "the input was read as UTF-16LE, FE FF as U+FFFE (a noncharacter)");
    /// assert_eq!(Contradiction::of(Dialect::Utf16Be, b"\xFE\xFF\x00h"), None);
    /// ```
    pub fn of(dialect: Dialect, bytes: &[u8]) -> Option<Contradiction> {
        dialect.code_unit_width()?;
        let bom = Bom::at_start(bytes)?;
        if matches!(bom, Bom::Utf7 | Bom::Gb18030) || bom.encoding() == dialect.encoding_name() {
            return None;
        }
        let units: Vec<Unit> = dialect
            .units(bytes)
            .take_while(|u| u.start < bom.len())
            .collect();
        let read: Vec<String> = units
            .iter()
            .map(|u| match u.kind {
                UnitKind::Scalar(cp) if cp.is_noncharacter() => format!("{cp} (a noncharacter)"),
                UnitKind::Scalar(cp) => cp.to_string(),
                UnitKind::Error(kind) => format!("an error ({})", kind.name()),
            })
            .collect();
        Some(Contradiction {
            bom,
            asked: dialect,
            read: listed(&read),
            whole: units.last().is_some_and(|u| u.end() == bom.len()),
        })
    }

    /// `the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked`.
    pub fn claim(&self) -> String {
        format!(
            "the byte order mark {} says {}, but {} was asked",
            self.bom.hex(),
            self.bom.encoding(),
            self.asked.encoding_name()
        )
    }

    /// `the input was read as UTF-16LE, FE FF as U+FFFE (a noncharacter)`; a mark that is
    /// no whole number of code units is read with the bytes after it (`the code units over
    /// EF BB BF as U+BBEF and U+68BF`).
    pub fn reading(&self) -> String {
        let over = if self.whole {
            ""
        } else {
            "the code units over "
        };
        format!(
            "the input was read as {}, {over}{} as {}",
            self.asked.encoding_name(),
            self.bom.hex(),
            self.read
        )
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Offsets of every U+FEFF (`EF BB BF`) in `bytes[range]` that starts after offset 0, as
/// a UTF-8 reading sees it.
pub fn inner_utf8_boms(bytes: &[u8], range: std::ops::Range<usize>) -> Vec<usize> {
    let end = (range.end + 2).min(bytes.len());
    let start = range.start.max(1);
    if start >= end {
        return Vec::new();
    }
    memchr::memmem::find_iter(&bytes[start..end], &[0xEF, 0xBB, 0xBF])
        .map(|i| start + i)
        .filter(|at| *at < range.end)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_signature() {
        let cases: [(&[u8], Option<Bom>); 10] = [
            (b"\xEF\xBB\xBFa", Some(Bom::Utf8)),
            (b"\xFF\xFEa\x00", Some(Bom::Utf16Le)),
            (b"\xFE\xFF\x00a", Some(Bom::Utf16Be)),
            (b"\xFF\xFE\x00\x00", Some(Bom::Utf32Le)),
            (b"\x00\x00\xFE\xFF", Some(Bom::Utf32Be)),
            (b"+/v9", Some(Bom::Utf7)),
            (b"+/v+", Some(Bom::Utf7)),
            (b"+/vA", None),
            (b"\x84\x31\x95\x33", Some(Bom::Gb18030)),
            (b"\xEF\xBB", None),
        ];
        for (bytes, bom) in cases {
            assert_eq!(Bom::at_start(bytes), bom, "{bytes:02X?}");
        }
        assert_eq!(Bom::Utf32Le.hex(), "FF FE 00 00");
    }

    /// `check`'s `bom` line (the scan's mark) names the encoding and the bytes detection
    /// names, for every input of up to 4 bytes made of the marks' bytes and one other.
    #[test]
    fn the_scan_names_the_mark_detection_names() {
        const ALPHABET: [u8; 7] = [0x00, 0xFE, 0xFF, 0xEF, 0xBB, 0xBF, 0x61];
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=4u32 {
            for n in 0..ALPHABET.len().pow(len) {
                let input = (0..len)
                    .map(|i| ALPHABET[n / ALPHABET.len().pow(i) % ALPHABET.len()])
                    .collect();
                inputs.push(input);
            }
        }
        let mut named = std::collections::BTreeMap::new();
        for input in &inputs {
            let scan = decode::Bom::detect(input).map(decode::Bom::describe);
            let detected = Bom::at_start(input);
            assert_eq!(
                scan.map(str::to_string),
                detected.map(|b| format!("{} byte order mark ({})", b.encoding(), b.hex())),
                "{input:02X?}"
            );
            if let Some(b) = detected {
                *named.entry(b.encoding()).or_insert(0) += 1;
            }
        }
        // A 3-byte mark and 0 or 1 byte more (1 + 7); a 2-byte one and 0 to 2 more
        // (1 + 7 + 49), but FF FE 00 00; each 4-byte one alone.
        assert_eq!(
            named.into_iter().collect::<Vec<_>>(),
            [
                ("UTF-16BE", 57),
                ("UTF-16LE", 56),
                ("UTF-32BE", 1),
                ("UTF-32LE", 1),
                ("UTF-8", 8)
            ]
        );
        // A mark cut short is the shorter one it still is, or none.
        assert_eq!(Bom::at_start(b"\xFF\xFE\x00"), Some(Bom::Utf16Le));
        assert_eq!(Bom::at_start(b"\xFF\xFE\x00\x01"), Some(Bom::Utf16Le));
        assert_eq!(Bom::at_start(b"\x00\x00\xFE"), None);
    }

    #[test]
    fn inner_marks() {
        let bytes = b"\xEF\xBB\xBFab\xEF\xBB\xBFcd\xEF\xBB\xBF";
        assert_eq!(inner_utf8_boms(bytes, 0..bytes.len()), [5, 10]);
        assert_eq!(inner_utf8_boms(bytes, 0..6), [5]);
        assert_eq!(inner_utf8_boms(bytes, 6..bytes.len()), [10]);
    }
}
