//! The single-byte legacy encodings that mojibake goes through, each a [`ByteTable`] of
//! [`crate::encoding::table`] read both ways: what a byte decodes to, and which byte a
//! character encodes back to. The tables are the same the viewer reads a file with
//! (encoding_rs's for the WHATWG encodings, oem_cp's for IBM437 and IBM850, and ISO-8859-1 proper,
//! byte b as U+00b, C1 controls included, which the WHATWG standard folds into
//! windows-1252). Bytes 00..7F are ASCII in all of them.

use std::sync::OnceLock;

use crate::decode::{ByteTable, CodePoint};
use crate::encoding::table;

/// A single-byte encoding that UTF-8 text can be misread through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Legacy {
    /// windows-1252 (Western European; the WHATWG reading of "latin1" too).
    Windows1252,
    /// ISO-8859-1 proper: bytes 80..9F are the C1 controls U+0080..U+009F.
    Iso8859_1,
    /// windows-1250 (Central European).
    Windows1250,
    /// ISO-8859-2 (Central European).
    Iso8859_2,
    /// ISO-8859-15 (Latin-9: ISO-8859-1 with `€`, `Š`, `š`, `Ž`, `ž`, `Œ`, `œ`, `Ÿ` in the
    /// place of eight signs; the `@euro` locales of Unix).
    Iso8859_15,
    /// windows-1251 (Cyrillic).
    Windows1251,
    /// windows-1253 (Greek).
    Windows1253,
    /// windows-1254 (Turkish).
    Windows1254,
    /// windows-1257 (Baltic).
    Windows1257,
    /// macintosh (Mac OS Roman).
    Macintosh,
    /// IBM437 (the DOS code page: box drawing, Greek and math above 80).
    Ibm437,
    /// IBM850 (the DOS code page of Western Europe, and its Windows console: IBM437's
    /// accented letters with more of Latin-1's in the place of Greek, maths and some box
    /// drawing).
    Ibm850,
    /// IBM866 (the DOS code page for Russian: Cyrillic letters and box drawing).
    Ibm866,
    /// KOI8-R (Russian on Unix: Cyrillic letters at C0..FF, box drawing below).
    Koi8R,
    /// KOI8-U as RFC 2319 and Unix locales have it (KOI8-R with Ukrainian's `є і ї ґ`
    /// and their capitals in the place of eight lines of box drawing;
    /// [`table::koi8_u_rfc2319`]), not the WHATWG index of that name, which is KOI8-RU.
    Koi8U,
    /// windows-1255 (Hebrew).
    Windows1255,
    /// windows-1256 (Arabic, with the letters Persian and Urdu add).
    Windows1256,
    /// windows-874 (Thai).
    Windows874,
}

impl Legacy {
    /// Every encoding, in the order a tie between them is settled (the most common first).
    pub const ALL: [Legacy; 18] = [
        Legacy::Windows1252,
        Legacy::Iso8859_1,
        Legacy::Iso8859_15,
        Legacy::Windows1250,
        Legacy::Iso8859_2,
        Legacy::Windows1251,
        Legacy::Windows1253,
        Legacy::Windows1254,
        Legacy::Windows1257,
        Legacy::Macintosh,
        Legacy::Ibm437,
        Legacy::Ibm850,
        Legacy::Ibm866,
        Legacy::Koi8R,
        Legacy::Koi8U,
        Legacy::Windows1255,
        Legacy::Windows1256,
        Legacy::Windows874,
    ];

    /// The name, as encoding_rs names it (`ISO-8859-1`, `IBM437`, `IBM850` and KOI8-U's
    /// table are hexrune's own).
    pub fn name(self) -> &'static str {
        match self {
            Legacy::Windows1252 => "windows-1252",
            Legacy::Iso8859_1 => "ISO-8859-1",
            Legacy::Windows1250 => "windows-1250",
            Legacy::Iso8859_2 => "ISO-8859-2",
            Legacy::Windows1251 => "windows-1251",
            Legacy::Windows1253 => "windows-1253",
            Legacy::Windows1254 => "windows-1254",
            Legacy::Windows1257 => "windows-1257",
            Legacy::Macintosh => "macintosh",
            Legacy::Ibm437 => "IBM437",
            Legacy::Ibm850 => "IBM850",
            Legacy::Iso8859_15 => "ISO-8859-15",
            Legacy::Ibm866 => "IBM866",
            Legacy::Koi8R => "KOI8-R",
            Legacy::Koi8U => "KOI8-U",
            Legacy::Windows1255 => "windows-1255",
            Legacy::Windows1256 => "windows-1256",
            Legacy::Windows874 => "windows-874",
        }
    }

    /// The encoding called `name` (exactly as [`Legacy::name`] spells it).
    pub fn from_name(name: &str) -> Option<Legacy> {
        Legacy::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The encoding_rs encoding, for those encoding_rs carries.
    pub fn encoding_rs(self) -> Option<&'static encoding_rs::Encoding> {
        Some(match self {
            Legacy::Windows1252 => encoding_rs::WINDOWS_1252,
            Legacy::Iso8859_1 | Legacy::Ibm437 | Legacy::Ibm850 => return None,
            Legacy::Windows1250 => encoding_rs::WINDOWS_1250,
            Legacy::Iso8859_2 => encoding_rs::ISO_8859_2,
            Legacy::Windows1251 => encoding_rs::WINDOWS_1251,
            Legacy::Windows1253 => encoding_rs::WINDOWS_1253,
            Legacy::Windows1254 => encoding_rs::WINDOWS_1254,
            Legacy::Windows1257 => encoding_rs::WINDOWS_1257,
            Legacy::Macintosh => encoding_rs::MACINTOSH,
            Legacy::Iso8859_15 => encoding_rs::ISO_8859_15,
            Legacy::Ibm866 => encoding_rs::IBM866,
            Legacy::Koi8R => encoding_rs::KOI8_R,
            Legacy::Koi8U => return None,
            Legacy::Windows1255 => encoding_rs::WINDOWS_1255,
            Legacy::Windows1256 => encoding_rs::WINDOWS_1256,
            Legacy::Windows874 => encoding_rs::WINDOWS_874,
        })
    }

    /// The position in [`Legacy::ALL`] (its bit in the masks of `mojibake`).
    pub const fn index(self) -> usize {
        let mut k = 0;
        while k < Legacy::ALL.len() {
            if Legacy::ALL[k] as u8 == self as u8 {
                return k;
            }
            k += 1;
        }
        0
    }

    /// The table, both ways.
    pub fn table(self) -> &'static ByteTable {
        static TABLES: OnceLock<Vec<&'static ByteTable>> = OnceLock::new();
        TABLES.get_or_init(|| {
            Legacy::ALL
                .iter()
                .map(|e| match (e, e.encoding_rs()) {
                    (Legacy::Iso8859_1, _) => table::iso_8859_1(),
                    (Legacy::Koi8U, _) => table::koi8_u_rfc2319(),
                    (Legacy::Ibm850, _) => table::ibm850(),
                    (_, Some(rs)) => table::single_byte_table(rs),
                    _ => table::ibm437(),
                })
                .collect()
        })[self.index()]
    }

    /// What byte `b` decodes to; `None` where the encoding leaves it undefined.
    pub fn decode_byte(self, b: u8) -> Option<char> {
        self.table().value(b).and_then(|c| c.to_char())
    }

    /// The byte `c` encodes to, if the encoding has `c`.
    #[inline]
    pub fn encode_char(self, c: char) -> Option<u8> {
        if c.is_ascii() {
            return Some(c as u8);
        }
        self.table().byte_of(CodePoint::new(c as u32))
    }

    /// `bytes` decoded; `None` if a byte is undefined.
    pub fn decode(self, bytes: &[u8]) -> Option<String> {
        bytes.iter().map(|b| self.decode_byte(*b)).collect()
    }

    /// `text` encoded; `None` if a character is not in the encoding.
    pub fn encode(self, text: &str) -> Option<Vec<u8>> {
        text.chars().map(|c| self.encode_char(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reverse table agrees with encoding_rs's own encoder on every character.
    #[test]
    fn encode_agrees_with_encoding_rs() {
        for e in Legacy::ALL {
            let Some(rs) = e.encoding_rs() else { continue };
            for b in 0x80..=0xFFu8 {
                let Some(c) = e.decode_byte(b) else { continue };
                let text = c.to_string();
                let (bytes, _, unmappable) = rs.encode(&text);
                assert!(!unmappable, "{} {c:?}", e.name());
                assert_eq!(e.encode_char(c), Some(bytes[0]), "{} {c:?}", e.name());
            }
        }
    }

    #[test]
    fn known_bytes() {
        assert_eq!(Legacy::Windows1252.decode_byte(0x80), Some('€'));
        assert_eq!(Legacy::Windows1252.decode_byte(0x81), Some('\u{81}'));
        assert_eq!(Legacy::Iso8859_1.decode_byte(0x80), Some('\u{80}'));
        assert_eq!(Legacy::Windows1253.decode_byte(0xAA), None);
        assert_eq!(Legacy::Macintosh.decode_byte(0xC3), Some('√'));
        assert_eq!(Legacy::Ibm437.decode_byte(0xC3), Some('├'));
        assert_eq!(Legacy::Ibm437.encode_char('⌐'), Some(0xA9));
        assert_eq!(Legacy::Windows1251.encode_char('Р'), Some(0xD0));
        assert_eq!(
            Legacy::Windows1250.encode("Ă©").as_deref(),
            Some(&[0xC3, 0xA9][..])
        );
        for e in Legacy::ALL {
            assert_eq!(Legacy::from_name(e.name()), Some(e));
        }
    }
}
