//! Reading an input as another encoding: labels to dialects, the tables of single-byte
//! encodings, and a guess of the encoding an input is most likely in.
//!
//! Every encoding hexrune reads is a [`Dialect`] of the decoder:
//!
//! - the UTF-8 family and UTF-16/UTF-32 by their own names or any WHATWG label encoding_rs
//!   knows for them (`utf-16le`, `unicode`, ...), plus `UTF-32LE`/`UTF-32BE`;
//! - every single-byte encoding of encoding_rs (windows-125x, ISO-8859-x, KOI8-R/U,
//!   macintosh, x-mac-cyrillic, IBM866, ...) by any of its WHATWG labels, and IBM437 and
//!   IBM850 from oem_cp (labels `IBM437`, `cp437`, `437`, and the same for 850). Each is
//!   built once as a 256-entry [`crate::decode::ByteTable`] by decoding every byte alone,
//!   and kept for the life of the process (a few kilobytes per encoding used): [`table`],
//!   which also resolves every label ([`table::lookup`]) for the viewer, detection and the
//!   fallback reading of error bytes, so that all three read the same tables.
//!
//! The multi-byte legacy encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, gb18030,
//! Big5) by any of their WHATWG labels, as [`crate::decode::MultiByteTable`]s built once
//! from encoding_rs (`multibyte.rs`).
//!
//! The edge: reads [`crate::decode`] only (and encoding_rs, oem_cp, chardetng); the viewer and
//! the command line read it. It knows no terminal and no file.

pub mod table;

use std::fmt;

use crate::decode::Dialect;
pub use table::single_byte_table;

mod multibyte;

/// Why a label names no encoding hexrune can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodingError {
    /// Neither a dialect name nor a label encoding_rs or oem_cp knows.
    Unknown(String),
    /// encoding_rs's `replacement` encoding (labels like `iso-2022-kr`), which decodes any
    /// input to one U+FFFD and has no units to show.
    Replacement(String),
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingError::Unknown(label) => write!(
                f,
                "unknown encoding '{label}' (a dialect name like utf8 or utf16le, or a WHATWG label like windows-1252, latin2, koi8-r, or IBM437, IBM850)"
            ),
            EncodingError::Replacement(label) => write!(
                f,
                "'{label}' is not supported: hexrune reads encodings as the WHATWG Encoding Standard defines them, and it maps ISO-2022-KR, ISO-2022-CN and HZ-GB-2312 to its replacement encoding, which has no characters to read"
            ),
        }
    }
}

impl EncodingError {
    /// The error in one status line: the reason first and short, where [`fmt::Display`]
    /// (for the commands' stderr, which wraps) says how the standard comes to it.
    ///
    /// ```
    /// let e = hexrune::encoding::resolve("hz-gb-2312").unwrap_err();
    /// assert_eq!(e.brief(), "'hz-gb-2312' is not supported: WHATWG decodes it to one U+FFFD");
    /// ```
    pub fn brief(&self) -> String {
        match self {
            EncodingError::Replacement(label) => {
                format!("'{label}' is not supported: WHATWG decodes it to one U+FFFD")
            }
            EncodingError::Unknown(_) => self.to_string(),
        }
    }
}

impl std::error::Error for EncodingError {}

/// The dialect a label names: a dialect name ([`Dialect::from_name`]), `UTF-32LE`/`UTF-32BE`,
/// `IBM437`/`IBM850` (and `cp437`, `437`, ...), or any label `Encoding::for_label` knows.
/// Case and surrounding spaces are ignored.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::encoding::resolve;
/// assert_eq!(resolve("UTF-16LE"), Ok(Dialect::Utf16Le));
/// assert_eq!(resolve("utf-32be"), Ok(Dialect::Utf32Be));
/// assert_eq!(resolve("latin1").unwrap().name(), "windows-1252");
/// assert_eq!(resolve("cp437").unwrap().name(), "IBM437");
/// assert_eq!(resolve("sjis").unwrap().name(), "Shift_JIS");
/// ```
pub fn resolve(label: &str) -> Result<Dialect, EncodingError> {
    let label = label.trim();
    if let Some(d) = Dialect::from_name(label) {
        return Ok(d);
    }
    let encoding = match table::lookup(label) {
        Some(table::Label::Oem(table)) => return Ok(Dialect::SingleByte(table)),
        Some(table::Label::Web(encoding)) => encoding,
        None => return Err(EncodingError::Unknown(label.to_string())),
    };
    from_encoding(encoding).ok_or_else(|| EncodingError::Replacement(label.to_string()))
}

/// The dialect that reads what `encoding` decodes, where hexrune has one.
pub fn from_encoding(encoding: &'static encoding_rs::Encoding) -> Option<Dialect> {
    if encoding == encoding_rs::UTF_8 {
        Some(Dialect::Utf8)
    } else if encoding == encoding_rs::UTF_16LE {
        Some(Dialect::Utf16Le)
    } else if encoding == encoding_rs::UTF_16BE {
        Some(Dialect::Utf16Be)
    } else if encoding.is_single_byte() {
        Some(Dialect::SingleByte(single_byte_table(encoding)))
    } else {
        multibyte::table(encoding).map(Dialect::MultiByte)
    }
}

/// The names the viewer's chooser offers after its guess, in this order: the Unicode forms,
/// the single-byte encodings people meet most, the multi-byte legacy ones, the rest of the
/// UTF-8 family.
pub const COMMON: &[&str] = &[
    "UTF-8",
    "UTF-16LE",
    "UTF-16BE",
    "UTF-32LE",
    "UTF-32BE",
    "windows-1252",
    "ISO-8859-2",
    "windows-1250",
    "windows-1251",
    "KOI8-R",
    "ISO-8859-15",
    "ISO-8859-7",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "windows-874",
    "macintosh",
    "IBM437",
    "IBM850",
    "IBM866",
    "KOI8-U",
    "x-mac-cyrillic",
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
    "CESU-8",
    "MUTF-8",
    "WTF-8",
];

/// How many bytes from the start [`guess`] reads.
pub const GUESS_SAMPLE: usize = 64 * 1024;

/// The encoding an input most likely is, and why: a byte order mark (the longest first:
/// UTF-32LE's begins with UTF-16LE's), else chardetng's guess over the first
/// [`GUESS_SAMPLE`] bytes (UTF-8 allowed). The one function the viewer's chooser asks, so
/// a better detector replaces it here alone.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::encoding::guess;
/// assert_eq!(guess(b"\xFF\xFE\x00\x00a\x00\x00\x00").0, Dialect::Utf32Le);
/// assert_eq!(guess(b"\xFE\xFF\x00a").0, Dialect::Utf16Be);
/// assert_eq!(guess("plain text, caf\u{E9}".as_bytes()).0, Dialect::Utf8);
/// // A line of CJK longer than the sample, which cuts a character (64 KiB is no multiple
/// // of 3): still UTF-8.
/// let cjk = "天气很好，我们去公园散步吧。".repeat(4000);
/// assert_eq!(guess(cjk.as_bytes()), (Dialect::Utf8, "chardetng's guess"));
/// ```
pub fn guess(bytes: &[u8]) -> (Dialect, &'static str) {
    const BOMS: [(&[u8], Dialect); 5] = [
        (b"\xFF\xFE\x00\x00", Dialect::Utf32Le),
        (b"\x00\x00\xFE\xFF", Dialect::Utf32Be),
        (b"\xEF\xBB\xBF", Dialect::Utf8),
        (b"\xFF\xFE", Dialect::Utf16Le),
        (b"\xFE\xFF", Dialect::Utf16Be),
    ];
    if let Some((_, d)) = BOMS.iter().find(|(bom, _)| bytes.starts_with(bom)) {
        return (*d, "byte order mark");
    }
    let sample = &bytes[..bytes.len().min(GUESS_SAMPLE)];
    if let Some(d) = wide_by_zeros(sample) {
        return (d, "zero-byte pattern");
    }
    // Cut where a UTF-8 character starts: a sample cut inside one (a line of CJK longer
    // than the sample) is no UTF-8 to chardetng, which then guessed windows-1252.
    let sample = match sample.len() < bytes.len() {
        true => {
            let back = sample
                .iter()
                .rev()
                .take(3)
                .take_while(|b| (0x80..0xC0).contains(*b))
                .count();
            let lead = sample.len() - back - 1;
            match sample.get(lead) {
                Some(&b) if b >= 0xC0 => &sample[..lead],
                _ => sample,
            }
        }
        false => sample,
    };
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(sample, sample.len() == bytes.len());
    let encoding = detector.guess(None, chardetng::Utf8Detection::Allow);
    match from_encoding(encoding) {
        Some(d) => (d, "chardetng's guess"),
        None => (
            Dialect::Utf8,
            "default (the guess is a multi-byte encoding)",
        ),
    }
}

/// UTF-16 or UTF-32 without a byte order mark, by where the zero bytes are: text mostly
/// of Latin or other scripts below U+0100 has a zero byte in every other place in UTF-16
/// (odd offsets in little-endian, even in big-endian) and three of four in UTF-32. Needs
/// at least 64 bytes, zeros in at least a quarter of the places of one kind, and ten times
/// fewer in the others.
fn wide_by_zeros(sample: &[u8]) -> Option<Dialect> {
    if sample.len() < 64 {
        return None;
    }
    let mut zeros = [0usize; 4];
    for (i, b) in sample.iter().enumerate() {
        zeros[i % 4] += usize::from(*b == 0);
    }
    let quarter = sample.len() / 4;
    let many = |n: usize| n * 4 >= quarter;
    let few = |n: usize, of: usize| n * 10 <= of;
    let [z0, z1, z2, z3] = zeros;
    if many(z1)
        && many(z2)
        && many(z3)
        && few(z0, z1 + z2 + z3)
        && z1.min(z2).min(z3) * 2 >= z1.max(z2).max(z3)
    {
        return Some(Dialect::Utf32Le);
    }
    if many(z0)
        && many(z1)
        && many(z2)
        && few(z3, z0 + z1 + z2)
        && z0.min(z1).min(z2) * 2 >= z0.max(z1).max(z2)
    {
        return Some(Dialect::Utf32Be);
    }
    let (even, odd) = (z0 + z2, z1 + z3);
    if many(odd / 2) && few(even, odd) {
        return Some(Dialect::Utf16Le);
    }
    if many(even / 2) && few(odd, even) {
        return Some(Dialect::Utf16Be);
    }
    None
}

/// What the chooser lists: the guess first, then [`COMMON`] without it.
pub fn choices(bytes: &[u8]) -> Vec<Dialect> {
    choices_after(guess(bytes).0)
}

/// What the chooser lists when the likely encoding is known (from detection, say):
/// `first`, then [`COMMON`] without it.
pub fn choices_after(first: Dialect) -> Vec<Dialect> {
    let mut out = vec![first];
    for name in COMMON {
        if let Ok(d) = resolve(name) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{CodePoint, ErrorKind};

    #[test]
    fn labels() {
        assert_eq!(resolve("utf8"), Ok(Dialect::Utf8));
        assert_eq!(resolve(" UTF-8 "), Ok(Dialect::Utf8));
        assert_eq!(resolve("unicode-1-1-utf-8"), Ok(Dialect::Utf8));
        assert_eq!(resolve("utf-16"), Ok(Dialect::Utf16Le));
        assert_eq!(resolve("unicodefffe"), Ok(Dialect::Utf16Be));
        assert_eq!(resolve("UTF-32LE"), Ok(Dialect::Utf32Le));
        assert_eq!(resolve("cesu-8"), Ok(Dialect::Cesu8));
        for (label, name) in [
            ("latin1", "windows-1252"),
            ("iso-8859-1", "windows-1252"),
            ("ascii", "windows-1252"),
            ("latin2", "ISO-8859-2"),
            ("cp1251", "windows-1251"),
            ("koi8-r", "KOI8-R"),
            ("koi8-u", "KOI8-U"),
            ("mac", "macintosh"),
            ("IBM850", "IBM850"),
            ("cp437", "IBM437"),
            ("866", "IBM866"),
        ] {
            assert_eq!(resolve(label).map(|d| d.name()), Ok(name), "{label}");
        }
        assert_eq!(resolve("sjis").map(|d| d.name()), Ok("Shift_JIS"));
        assert_eq!(
            resolve("nope").unwrap_err().to_string(),
            "unknown encoding 'nope' (a dialect name like utf8 or utf16le, or a WHATWG label like windows-1252, latin2, koi8-r, or IBM437, IBM850)"
        );
        assert!(matches!(
            resolve("iso-2022-kr"),
            Err(EncodingError::Replacement(_))
        ));
        // The same table every time.
        let (Dialect::SingleByte(a), Dialect::SingleByte(b)) =
            (resolve("latin2").unwrap(), resolve("iso-8859-2").unwrap())
        else {
            panic!("single-byte")
        };
        assert!(std::ptr::eq(a, b));
    }

    /// Every single-byte table equals encoding_rs decoding every byte alone, and its units
    /// equal encoding_rs decoding a whole input (one U+FFFD per undefined byte).
    #[test]
    fn tables_equal_encoding_rs() {
        let all: Vec<u8> = (0..=255).collect();
        for label in
            COMMON
                .iter()
                .chain(&["iso-8859-3", "iso-8859-8", "x-user-defined", "windows-874"])
        {
            let d = resolve(label).unwrap();
            let Dialect::SingleByte(table) = d else {
                continue;
            };
            let Some(encoding) = encoding_rs::Encoding::for_label(label.as_bytes()) else {
                continue; // IBM437, IBM850: oem_cp, tested below
            };
            let ours: String = d
                .units(&all)
                .map(|u| match u.code_point() {
                    Some(cp) => cp.to_char().unwrap(),
                    None => '\u{FFFD}',
                })
                .collect();
            let theirs = encoding.decode_without_bom_handling(&all).0;
            assert_eq!(ours, theirs, "{label}");
            assert_eq!(table.name(), encoding.name());
        }
        let iso3 = resolve("iso-8859-3").unwrap();
        let undefined: Vec<usize> = iso3
            .units(&all)
            .filter(|u| u.error_kind() == Some(ErrorKind::UndefinedByte))
            .map(|u| u.start)
            .collect();
        assert_eq!(undefined, [0xA5, 0xAE, 0xBE, 0xC3, 0xD0, 0xE3, 0xF0]);
    }

    #[test]
    fn dos_code_pages() {
        let d = resolve("IBM437").unwrap();
        let units: Vec<Option<CodePoint>> = d
            .units(b"A\x80\xB0\xE9\xFF")
            .map(|u| u.code_point())
            .collect();
        let want = [0x41, 0xC7, 0x2591, 0x0398, 0xA0].map(|v| Some(CodePoint::new(v)));
        assert_eq!(units, want);
        let d = resolve("cp850").unwrap();
        assert_eq!(
            d.units(b"\x9B").next().unwrap().code_point(),
            Some(CodePoint::new(0xF8))
        );
    }

    #[test]
    fn utf16_and_utf32_without_a_bom() {
        let text = "Zürich, naïve café: a sentence long enough to judge by, with a few more words.";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let be32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        assert_eq!(guess(&le).0, Dialect::Utf16Le);
        assert_eq!(guess(&be).0, Dialect::Utf16Be);
        assert_eq!(guess(&le32).0, Dialect::Utf32Le);
        assert_eq!(guess(&be32).0, Dialect::Utf32Be);
        // Binary with zeros everywhere is none of them.
        let zeros = vec![0u8; 256];
        assert_eq!(wide_by_zeros(&zeros), None);
        assert_eq!(guess(text.as_bytes()).0, Dialect::Utf8);
    }

    #[test]
    fn guesses() {
        assert_eq!(guess(b"\xFF\xFEa\x00").0, Dialect::Utf16Le);
        assert_eq!(guess(b"\x00\x00\xFE\xFF").0, Dialect::Utf32Be);
        assert_eq!(guess(b"\xEF\xBB\xBFx").0, Dialect::Utf8);
        let (text, _, _) = encoding_rs::WINDOWS_1251.encode(
            "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.",
        );
        assert_eq!(guess(&text).0.name(), "windows-1251");
        let choices = choices(&text);
        assert_eq!(choices[0].name(), "windows-1251");
        assert_eq!(choices[1], Dialect::Utf8);
        assert_eq!(
            choices
                .iter()
                .filter(|d| d.name() == "windows-1251")
                .count(),
            1
        );
    }
}
