//! The fallback reading of an error unit: what its bytes say in a legacy encoding the user
//! chose (`--fallback LABEL`, windows-1252 unless told otherwise), so that the stray byte
//! `E9` of a UTF-8 log is shown as `é (windows-1252)` next to its error.
//!
//! A [`Fallback`] is resolved from a label by [`Fallback::from_label`]: every WHATWG label
//! encoding_rs knows (so `latin1` and `iso-8859-1` mean windows-1252, as on the web), plus
//! `ibm437`/`cp437` and `ibm850`/`cp850` from the `oem_cp` tables, and `none` for no
//! fallback. Encodings that cannot read one error unit on its own are refused: UTF-8 (the
//! errors are UTF-8's), UTF-16 and the other encodings that are not ASCII-compatible.
//!
//! [`Fallback::read`] is the text as the encoding's decoder gives it (encoding_rs's own
//! output: U+FFFD where it finds a malformed sequence); it is what the JSON records carry.
//! [`Fallback::pieces`] says the same bytewise where a byte is *undefined*: encoding_rs
//! reports it malformed, or (in a single-byte encoding that gives characters to some of
//! 80..9F) the WHATWG index fills the hole with the C1 control of the same number, as
//! windows-1252 does for 81, 8D, 8F, 90 and 9D. [`Fallback::show`] is the text for a
//! terminal: sanitised by [`crate::view::safe::sanitize`], an undefined byte written
//! `<81?>`. What an escaping codec (PEP 383, OPTU-8) writes for an error byte is
//! [`Escape`]'s business.
//!
//! Labels are resolved and single-byte tables built by [`crate::encoding::table`], the same
//! ones the viewer reads a file with. This module knows no terminal and no command line; it
//! is the one place that names encoding_rs in the view.

use core::fmt;

use encoding_rs::{DecoderResult, Encoding};

use crate::decode::{ByteTable, CodePoint, Diagnosis, Dialect};
use crate::encoding::table::{self, Label};
use crate::view::safe::sanitize;

/// A legacy encoding that error units are also read in.
#[derive(Clone, Copy)]
pub struct Fallback {
    decoder: Decoder,
    /// The table of a single-byte encoding; `None` for a multi-byte one.
    single: Option<&'static ByteTable>,
}

#[derive(Clone, Copy)]
enum Decoder {
    Web(&'static Encoding),
    Oem(&'static ByteTable),
}

/// One piece of a fallback reading, in the order of the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A character the encoding gives the bytes.
    Char(char),
    /// A byte the encoding leaves undefined.
    Undefined(u8),
}

/// Why a label names no fallback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelError {
    /// No encoding has this label.
    Unknown(String),
    /// The encoding cannot read an error unit on its own (its name, and why).
    Unsuitable(&'static str, &'static str),
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelError::Unknown(label) => write!(
                f,
                "unknown encoding '{}' (a WHATWG label such as windows-1252, iso-8859-2, \
                 koi8-r, shift_jis; or ibm437, ibm850, none)",
                sanitize(label)
            ),
            LabelError::Unsuitable(name, why) => {
                write!(f, "{name} cannot be a fallback: {why}")
            }
        }
    }
}

impl std::error::Error for LabelError {}

impl fmt::Debug for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fallback({})", self.name())
    }
}

impl PartialEq for Fallback {
    fn eq(&self, other: &Fallback) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Fallback {}

impl Default for Fallback {
    fn default() -> Fallback {
        Fallback::windows_1252()
    }
}

impl Fallback {
    /// Whether error units of `dialect` get a fallback reading: those of the UTF-8 family,
    /// whose error units are bytes a legacy encoding may have written. In UTF-16, UTF-32 and
    /// a single-byte encoding an error is a code unit or an undefined byte, which another
    /// encoding reading it says nothing about.
    pub fn reads_errors_of(dialect: Dialect) -> bool {
        Dialect::UTF8_FAMILY.contains(&dialect)
    }

    /// The diagnosis `d` of the error bytes `bytes`, to be shown beside this fallback's
    /// reading of them: without its own reading when that is the character this reading
    /// shows (a lone `E9` is `é` in windows-1252 and in the fallback), so that `check`'s
    /// line and the detail pane say the character once, in the fallback reading.
    pub fn beside(&self, bytes: &[u8], d: &Diagnosis) -> String {
        match d.finding.reading() {
            Some(c) if self.read(bytes).chars().eq([c]) => d.finding.without_reading(),
            _ => d.to_string(),
        }
    }

    /// The default fallback, windows-1252.
    pub fn windows_1252() -> Fallback {
        Fallback::of(Decoder::Web(encoding_rs::WINDOWS_1252))
    }

    /// The fallback a label names; `Ok(None)` for `none`. Labels are matched as WHATWG
    /// matches them (case and surrounding whitespace ignored).
    ///
    /// ```
    /// use hexrune::view::fallback::Fallback;
    /// let latin1 = Fallback::from_label("Latin1").unwrap().unwrap();
    /// assert_eq!(latin1.name(), "windows-1252");
    /// assert_eq!(latin1.read(b"\xE9"), "é");
    /// assert_eq!(Fallback::from_label("cp437").unwrap().unwrap().read(b"\xE9"), "Θ");
    /// assert!(Fallback::from_label("none").unwrap().is_none());
    /// assert!(Fallback::from_label("utf-8").is_err());
    /// ```
    pub fn from_label(label: &str) -> Result<Option<Fallback>, LabelError> {
        if label.trim().eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        let encoding = match table::lookup(label) {
            Some(Label::Oem(t)) => return Ok(Some(Fallback::of(Decoder::Oem(t)))),
            Some(Label::Web(encoding)) => encoding,
            None => return Err(LabelError::Unknown(label.to_string())),
        };
        if encoding == encoding_rs::UTF_8 {
            return Err(LabelError::Unsuitable(
                "UTF-8",
                "the errors are the bytes UTF-8 cannot read",
            ));
        }
        if !encoding.is_ascii_compatible() {
            return Err(LabelError::Unsuitable(
                encoding.name(),
                "it is not ASCII-compatible, so it cannot read an error unit on its own",
            ));
        }
        Ok(Some(Fallback::of(Decoder::Web(encoding))))
    }

    fn of(decoder: Decoder) -> Fallback {
        let single = match decoder {
            Decoder::Web(e) if e.is_single_byte() => Some(table::single_byte_table(e)),
            Decoder::Web(_) => None,
            Decoder::Oem(t) => Some(t),
        };
        Fallback { decoder, single }
    }

    /// The encoding's name: encoding_rs's (`windows-1252`, `ISO-8859-2`, `Shift_JIS`), or
    /// `IBM437`, `IBM850`.
    pub fn name(&self) -> &'static str {
        match self.decoder {
            Decoder::Web(e) => e.name(),
            Decoder::Oem(t) => t.name(),
        }
    }

    /// Whether the encoding reads one byte as one character (every byte alone).
    pub fn is_single_byte(&self) -> bool {
        self.single.is_some()
    }

    /// `bytes` as the encoding's decoder reads them, without BOM handling: encoding_rs's
    /// text (U+FFFD for a malformed sequence; windows-1252's holes as C1 controls).
    pub fn read(&self, bytes: &[u8]) -> String {
        match self.decoder {
            Decoder::Web(e) => e.decode_without_bom_handling(bytes).0.into_owned(),
            Decoder::Oem(t) => bytes
                .iter()
                .map(|&b| t.value(b).and_then(|c| c.to_char()).unwrap_or('\u{FFFD}'))
                .collect(),
        }
    }

    /// The reading of one byte in a single-byte encoding: `None` if the byte is
    /// undefined there, or if the encoding is not single-byte.
    pub fn byte(&self, byte: u8) -> Option<char> {
        let t = self.single?;
        if table::is_filled_hole(t, byte) {
            return None;
        }
        t.value(byte).and_then(|c| c.to_char())
    }

    /// The reading of `bytes`, with the bytes the encoding leaves undefined said as such.
    ///
    /// ```
    /// use hexrune::view::fallback::{Fallback, Piece};
    /// let w = Fallback::windows_1252();
    /// assert_eq!(w.pieces(b"\xC3\x81"), [Piece::Char('Ã'), Piece::Undefined(0x81)]);
    /// ```
    pub fn pieces(&self, bytes: &[u8]) -> Vec<Piece> {
        if self.single.is_some() {
            return bytes
                .iter()
                .map(|&b| self.byte(b).map_or(Piece::Undefined(b), Piece::Char))
                .collect();
        }
        let Decoder::Web(encoding) = self.decoder else {
            return Vec::new(); // the OEM tables are single-byte
        };
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut pieces = Vec::new();
        let mut at = 0;
        let mut text = String::with_capacity(4 * bytes.len() + 16);
        loop {
            text.clear();
            let (result, read) =
                decoder.decode_to_string_without_replacement(&bytes[at..], &mut text, true);
            pieces.extend(text.chars().map(Piece::Char));
            let before = at;
            at += read;
            match result {
                DecoderResult::InputEmpty => return pieces,
                // Room is reserved for every byte to become a character; ask again.
                DecoderResult::OutputFull => {
                    if read == 0 {
                        text.reserve(64);
                    }
                }
                DecoderResult::Malformed(bad, after) => {
                    let end = at - after as usize;
                    let start = end.saturating_sub(bad as usize).max(before);
                    pieces.extend(bytes[start..end].iter().map(|&b| Piece::Undefined(b)));
                }
            }
        }
    }

    /// The reading of `bytes` for a terminal: the characters sanitised, each undefined
    /// byte written `<81?>`, and a space other than U+0020 (the no-break space A0 of
    /// windows-1252, say) written `\u{a0}` too, as a reading of one byte that shows
    /// nothing would say nothing.
    ///
    /// ```
    /// use hexrune::view::fallback::Fallback;
    /// let w = Fallback::windows_1252();
    /// assert_eq!(w.show(b"\xE9"), "é");
    /// assert_eq!(w.show(b"\x81"), "<81?>");
    /// let latin2 = Fallback::from_label("iso-8859-2").unwrap().unwrap();
    /// assert_eq!(latin2.show(b"\x9B"), r"\u{9b}");
    /// ```
    pub fn show(&self, bytes: &[u8]) -> String {
        let mut text = String::new();
        let mut out = String::new();
        for piece in self.pieces(bytes) {
            match piece {
                Piece::Char(c) if c.is_whitespace() && c != ' ' => {
                    out.push_str(&sanitize(&text));
                    text.clear();
                    out.push_str(&format!("\\u{{{:x}}}", c as u32));
                }
                Piece::Char(c) => text.push(c),
                Piece::Undefined(b) => {
                    out.push_str(&sanitize(&text));
                    text.clear();
                    out.push_str(&format!("<{b:02X}?>"));
                }
            }
        }
        out.push_str(&sanitize(&text));
        out
    }

    /// The bytes of `bytes` the encoding leaves undefined, in order.
    pub fn undefined(&self, bytes: &[u8]) -> Vec<u8> {
        self.pieces(bytes)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Undefined(b) => Some(b),
                Piece::Char(_) => None,
            })
            .collect()
    }

    /// A line that says what the encoding makes of `bytes`, for the detail pane and
    /// `explain`: `é (windows-1252)`, or `<81?> (81 undefined in windows-1252)`.
    pub fn describe(&self, bytes: &[u8]) -> String {
        let undefined = self.undefined(bytes);
        if undefined.is_empty() {
            return format!("{} ({})", self.show(bytes), self.name());
        }
        let list: Vec<String> = undefined.iter().map(|b| format!("{b:02X}")).collect();
        format!(
            "{} ({} undefined in {})",
            self.show(bytes),
            list.join(" "),
            self.name()
        )
    }
}

/// A scheme that writes an undecodable byte as a code point, so that text with errors can
/// be held in a string and the bytes restored: `--escape pep383|optu8`. Only bytes 80..FF
/// are ever escaped; a smaller byte is its own code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// PEP 383, Python's `surrogateescape`: byte b as U+DC00+b (U+DC80..U+DCFF, a lone
    /// trail surrogate, written ED B2 80..ED B3 BF in WTF-8).
    Pep383,
    /// OPTU-8 (MirBSD mksh): byte b as U+EF00+b (U+EF80..U+EFFF, private use, valid UTF-8
    /// EE BE 80..EE BF BF).
    Optu8,
}

impl Escape {
    /// Both schemes.
    pub const ALL: [Escape; 2] = [Escape::Pep383, Escape::Optu8];

    /// The scheme with this name (`pep383`, `surrogateescape`, `optu8`).
    pub fn from_name(name: &str) -> Option<Escape> {
        match name.trim().to_ascii_lowercase().as_str() {
            "pep383" | "surrogateescape" => Some(Escape::Pep383),
            "optu8" | "optu-8" => Some(Escape::Optu8),
            _ => None,
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Escape::Pep383 => "pep383",
            Escape::Optu8 => "optu8",
        }
    }

    /// What the codec is called in prose.
    pub fn codec(self) -> &'static str {
        match self {
            Escape::Pep383 => "Python's surrogateescape",
            Escape::Optu8 => "OPTU-8",
        }
    }

    /// The code point the scheme writes for `byte`: U+DC00+b or U+EF00+b for b in 80..FF,
    /// the byte itself below.
    ///
    /// ```
    /// use hexrune::view::fallback::Escape;
    /// assert_eq!(Escape::Pep383.code_point(0xE9).value(), 0xDCE9);
    /// assert_eq!(Escape::Optu8.code_point(0xE9).value(), 0xEFE9);
    /// assert_eq!(Escape::Optu8.code_point(0x41).value(), 0x41);
    /// ```
    pub fn code_point(self, byte: u8) -> CodePoint {
        let base = match (self, byte) {
            (_, 0..=0x7F) => 0,
            (Escape::Pep383, _) => 0xDC00,
            (Escape::Optu8, _) => 0xEF00,
        };
        CodePoint::new(base + byte as u32)
    }

    /// The byte a code point stands for in this scheme, if it is one of its escapes.
    pub fn byte_of(self, cp: CodePoint) -> Option<u8> {
        let (lo, hi) = match self {
            Escape::Pep383 => (0xDC80, 0xDCFF),
            Escape::Optu8 => (0xEF80, 0xEFFF),
        };
        let v = cp.value();
        (lo..=hi).contains(&v).then_some((v & 0xFF) as u8)
    }

    /// The scheme and byte that a code point is an escape of, if any.
    pub fn recognise(cp: CodePoint) -> Option<(Escape, u8)> {
        Escape::ALL
            .iter()
            .find_map(|e| e.byte_of(cp).map(|b| (*e, b)))
    }

    /// The escape whose 3-byte sequence (`ED B2 80`..`ED B3 BF`, U+DC80..U+DCFF in WTF-8;
    /// `EE BE 80`..`EE BF BF`, U+EF80..U+EFFF in UTF-8) starts at `at`: the scheme and
    /// the byte it stands for.
    pub fn at(bytes: &[u8], at: usize) -> Option<(Escape, u8)> {
        match *bytes.get(at..at.checked_add(3)?)? {
            [0xED, b1 @ 0xB2..=0xB3, b2 @ 0x80..=0xBF] => {
                Some((Escape::Pep383, ((b1 & 1) << 6) | (b2 & 0x3F)))
            }
            [0xEE, b1 @ 0xBE..=0xBF, b2 @ 0x80..=0xBF] => {
                Some((Escape::Optu8, ((b1 & 1) << 6) | (b2 & 0x3F)))
            }
            _ => None,
        }
        .map(|(e, low)| (e, 0x80 | low))
    }

    /// The escape sequence that covers byte `offset` of `bytes`, if any: its start, the
    /// scheme and the byte it stands for (the detail pane asks this of any cursor).
    ///
    /// ```
    /// use hexrune::view::fallback::Escape;
    /// let bytes = b"a\xED\xB3\xA9b";
    /// assert_eq!(Escape::around(bytes, 3), Some((1, Escape::Pep383, 0xE9)));
    /// assert_eq!(Escape::around(bytes, 4), None);
    /// ```
    pub fn around(bytes: &[u8], offset: usize) -> Option<(usize, Escape, u8)> {
        (0..3)
            .filter_map(|k| offset.checked_sub(k))
            .find_map(|s| Escape::at(bytes, s).map(|(e, b)| (s, e, b)))
    }

    /// A sentence on an escape: "U+DCE9 is how Python's surrogateescape writes the byte E9".
    pub fn sentence(self, byte: u8) -> String {
        format!(
            "{} is how {} writes the byte {byte:02X}",
            self.code_point(byte),
            self.codec()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn label(l: &str) -> Fallback {
        Fallback::from_label(l).unwrap().unwrap()
    }

    #[test]
    fn labels() {
        assert_eq!(label("windows-1252").name(), "windows-1252");
        assert_eq!(label(" ISO-8859-1 ").name(), "windows-1252");
        assert_eq!(label("iso-8859-2").name(), "ISO-8859-2");
        assert_eq!(label("sjis").name(), "Shift_JIS");
        assert_eq!(label("IBM437").name(), "IBM437");
        assert_eq!(label("cp850").name(), "IBM850");
        assert_eq!(label("koi8-r").name(), "KOI8-R");
        assert_eq!(Fallback::from_label("NONE"), Ok(None));
        assert_eq!(
            Fallback::from_label("klingon").unwrap_err().to_string(),
            "unknown encoding 'klingon' (a WHATWG label such as windows-1252, iso-8859-2, \
             koi8-r, shift_jis; or ibm437, ibm850, none)"
        );
        assert_eq!(
            Fallback::from_label("utf-16le").unwrap_err().to_string(),
            "UTF-16LE cannot be a fallback: it is not ASCII-compatible, so it cannot read an \
             error unit on its own"
        );
        assert_eq!(
            Fallback::from_label("utf8").unwrap_err().to_string(),
            "UTF-8 cannot be a fallback: the errors are the bytes UTF-8 cannot read"
        );
        // A hostile label is quoted safely.
        assert_eq!(
            Fallback::from_label("\u{1b}[2J").unwrap_err().to_string(),
            "unknown encoding '\\u{1b}[2J' (a WHATWG label such as windows-1252, iso-8859-2, \
             koi8-r, shift_jis; or ibm437, ibm850, none)"
        );
    }

    #[test]
    fn undefined_bytes() {
        let w = Fallback::windows_1252();
        let holes: Vec<u8> = (0..=255u8).filter(|&b| w.byte(b).is_none()).collect();
        assert_eq!(holes, [0x81, 0x8D, 0x8F, 0x90, 0x9D]);
        // encoding_rs itself gives the WHATWG index's C1 control there.
        assert_eq!(w.read(b"\x81"), "\u{81}");
        assert_eq!(w.describe(b"\x81"), "<81?> (81 undefined in windows-1252)");
        assert_eq!(w.describe(b"\xE9"), "é (windows-1252)");
        // ISO-8859-2 gives 80..9F the C1 controls on purpose: defined, and sanitised.
        let latin2 = label("iso-8859-2");
        assert_eq!(latin2.byte(0x9B), Some('\u{9B}'));
        assert_eq!(latin2.describe(b"\x9B"), r"\u{9b} (ISO-8859-2)");
        // ISO-8859-3 leaves A5 undefined: encoding_rs says U+FFFD.
        let latin3 = label("iso-8859-3");
        assert_eq!(latin3.read(b"\xA5"), "\u{FFFD}");
        assert_eq!(
            latin3.pieces(b"a\xA5"),
            [Piece::Char('a'), Piece::Undefined(0xA5)]
        );
        // A multi-byte encoding: a lead alone is malformed, a pair a character.
        let sjis = label("shift_jis");
        assert_eq!(sjis.pieces(b"\x82\xA0"), [Piece::Char('あ')]);
        assert_eq!(sjis.pieces(b"\x82"), [Piece::Undefined(0x82)]);
        assert_eq!(sjis.show(b"\xE9"), "<E9?>");
    }

    #[test]
    fn the_diagnosis_agrees_with_windows_1252() {
        // decode's hand-written table (no crate may be named there) against encoding_rs:
        // where it quotes a character, it is encoding_rs's; it quotes none where the
        // fallback says undefined.
        let w = Fallback::windows_1252();
        for b in 0x80..=0xFFu8 {
            match crate::decode::windows_1252(b) {
                Some(c) => assert_eq!(w.byte(b), Some(c), "{b:02X}"),
                None => assert!(
                    w.byte(b).is_none() || matches!(b, 0xA0 | 0xAD),
                    "{b:02X}: {:?}",
                    w.byte(b)
                ),
            }
        }
    }

    #[test]
    fn oem_tables() {
        let cp437 = label("ibm437");
        assert_eq!(cp437.read(b"\xC9\xCD\xBB"), "╔═╗");
        assert_eq!(cp437.show(b"\xFF"), r"\u{a0}"); // a space that shows nothing
        assert!((0..=255u8).all(|b| cp437.byte(b).is_some()));
        assert_eq!(label("ibm850").read(b"\xD5"), "ı");
    }

    #[test]
    fn escapes() {
        assert_eq!(
            Escape::Pep383.sentence(0xE9),
            "U+DCE9 is how Python's surrogateescape writes the byte E9"
        );
        assert_eq!(
            Escape::recognise(CodePoint::new(0xEF80)),
            Some((Escape::Optu8, 0x80))
        );
        assert_eq!(Escape::recognise(CodePoint::new(0xDC7F)), None);
        assert_eq!(Escape::recognise(CodePoint::new(0xF000)), None);
        for b in 0..=255u8 {
            for e in Escape::ALL {
                let cp = e.code_point(b);
                assert_eq!(e.byte_of(cp), (b >= 0x80).then_some(b));
            }
        }
    }

    #[test]
    fn escapes_are_recognised_exactly_in_their_ranges() {
        use crate::decode::Dialect;
        // Every 3-byte sequence with a lead ED or EE: an escape exactly where WTF-8 (for
        // ED) or UTF-8 (for EE) decodes it to a code point of the scheme's range.
        for lead in [0xED, 0xEE] {
            for b1 in 0..=255u8 {
                for b2 in 0..=255u8 {
                    let bytes = [lead, b1, b2];
                    let dialect = if lead == 0xED {
                        Dialect::Wtf8
                    } else {
                        Dialect::Utf8
                    };
                    let unit = dialect.decode_at(&bytes, 0);
                    let decoded = unit
                        .code_point()
                        .filter(|_| unit.len == 3)
                        .and_then(Escape::recognise);
                    assert_eq!(Escape::at(&bytes, 0), decoded, "{bytes:02X?}");
                }
            }
        }
        assert_eq!(Escape::at(b"\xED\xB3", 0), None);
        assert_eq!(
            Escape::around(b"\xEE\xBF\xA9", 2),
            Some((0, Escape::Optu8, 0xE9))
        );
        assert_eq!(Escape::around(b"x\xEE\xBF\xA9", 0), None);
    }

    /// Python's codecs, where python3 is installed, as the oracle of PEP 383: decoding a
    /// byte 80..FF with surrogateescape gives U+DC00+b.
    #[test]
    fn pep383_is_pythons_surrogateescape() {
        let script = "import sys\nfor b in range(256):\n    s = bytes([b]).decode('utf-8', 'surrogateescape') if b >= 0x80 else chr(b)\n    print(ord(s))";
        let Ok(out) = std::process::Command::new("python3")
            .args(["-c", script])
            .output()
        else {
            eprintln!("python3 not found: skipped");
            return;
        };
        let text = String::from_utf8(out.stdout).unwrap();
        let values: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(values.len(), 256);
        for (b, v) in values.iter().enumerate() {
            assert_eq!(Escape::Pep383.code_point(b as u8).value(), *v, "{b:02X}");
        }
    }

    proptest! {
        /// For single-byte encodings, the pieces are the decoder's own text, byte by byte.
        #[test]
        fn single_byte_pieces_are_the_decoders(bytes in proptest::collection::vec(any::<u8>(), 0..16),
                                              which in 0usize..6) {
            let name = ["windows-1252", "iso-8859-2", "koi8-r", "windows-1251", "macintosh", "iso-8859-7"][which];
            let f = label(name);
            let read: Vec<char> = f.read(&bytes).chars().collect();
            let pieces = f.pieces(&bytes);
            prop_assert_eq!(read.len(), pieces.len());
            for ((p, r), b) in pieces.iter().zip(&read).zip(&bytes) {
                match p {
                    Piece::Char(c) => prop_assert_eq!(c, r),
                    Piece::Undefined(u) => {
                        prop_assert_eq!(u, b);
                        let replaced = *r == char::REPLACEMENT_CHARACTER || *r as u32 == *b as u32;
                        prop_assert!(replaced);
                    }
                }
            }
        }

        /// For a multi-byte encoding, the characters of the pieces are the decoder's text
        /// without its replacement characters, and every byte is accounted for.
        #[test]
        fn multi_byte_pieces(bytes in proptest::collection::vec(any::<u8>(), 0..12), which in 0usize..4) {
            let name = ["shift_jis", "euc-kr", "gbk", "big5"][which];
            let f = label(name);
            let pieces = f.pieces(&bytes);
            let chars: String = pieces.iter().filter_map(|p| match p { Piece::Char(c) => Some(*c), _ => None }).collect();
            let read: String = f.read(&bytes).chars().filter(|c| *c != '\u{FFFD}').collect();
            prop_assert_eq!(chars, read);
            let undefined = pieces.iter().filter(|p| matches!(p, Piece::Undefined(_))).count();
            prop_assert!(undefined <= bytes.len());
        }
    }
}
