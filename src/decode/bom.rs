//! Unicode's byte order marks at the start of an input, read longest first: the one
//! reading of them, for the scan's `bom` line, detection and the diagnosis of an invalid
//! byte.

/// A byte order mark at the start of the input: one of Unicode's, read longest first.
///
/// UTF-32LE's `FF FE 00 00` starts with UTF-16LE's `FF FE`, so it is taken for UTF-32LE (as
/// every detector takes it), unless what follows cannot be UTF-32LE: a UTF-16LE input that
/// starts with U+FEFF and then U+0000 is the same bytes, and its next units, read four
/// bytes at a time, are above U+10FFFF (`h` `i` is `68 00 69 00`, 0x690068).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bom {
    /// `EF BB BF`.
    Utf8,
    /// `FF FE`: the input is probably UTF-16, little-endian.
    Utf16Le,
    /// `FE FF`: the input is probably UTF-16, big-endian.
    Utf16Be,
    /// `FF FE 00 00`: the input is probably UTF-32, little-endian.
    Utf32Le,
    /// `00 00 FE FF`: the input is probably UTF-32, big-endian.
    Utf32Be,
}

impl Bom {
    /// How many bytes of the input [`Bom::detect`] reads at most: the mark, and for `FF FE
    /// 00 00` the units after it.
    pub const SNIFF_LEN: usize = 64;

    /// The mark `bytes` start with, if any, the longest first; `FF FE 00 00` is UTF-16LE's
    /// where a whole 4-byte unit after it, among the first [`Bom::SNIFF_LEN`] bytes, is
    /// above U+10FFFF (a UTF-32LE input cut short stays UTF-32LE).
    ///
    /// ```
    /// use hexrune::decode::Bom;
    /// assert_eq!(Bom::detect(b"\xFF\xFE\x00\x00a\x00\x00\x00"), Some(Bom::Utf32Le));
    /// assert_eq!(Bom::detect(b"\xFF\xFE\x00\x00a\x00b\x00"), Some(Bom::Utf16Le));
    /// assert_eq!(Bom::detect(b"\xFF\xFE\x00\x00a\x00"), Some(Bom::Utf32Le));
    /// assert_eq!(Bom::detect(b"\xFF\xFEa\x00"), Some(Bom::Utf16Le));
    /// assert_eq!(Bom::detect(b"\x00\x00\xFE\xFF"), Some(Bom::Utf32Be));
    /// assert_eq!(Bom::detect(b"\x00\xFE\xFF"), None);
    /// ```
    pub fn detect(bytes: &[u8]) -> Option<Bom> {
        match bytes {
            [0xFF, 0xFE, 0x00, 0x00, rest @ ..] if !Bom::can_be_utf32le(rest) => Some(Bom::Utf16Le),
            [0xFF, 0xFE, 0x00, 0x00, ..] => Some(Bom::Utf32Le),
            [0x00, 0x00, 0xFE, 0xFF, ..] => Some(Bom::Utf32Be),
            [0xEF, 0xBB, 0xBF, ..] => Some(Bom::Utf8),
            [0xFF, 0xFE, ..] => Some(Bom::Utf16Le),
            [0xFE, 0xFF, ..] => Some(Bom::Utf16Be),
            _ => None,
        }
    }

    /// Whether `bytes` start with UTF-8's mark `EF BB BF`, which overrides any label and is
    /// no text of the encoding after it.
    pub fn starts_utf8(bytes: &[u8]) -> bool {
        Bom::detect(bytes) == Some(Bom::Utf8)
    }

    /// Whether `rest`, what follows `FF FE 00 00`, can be UTF-32LE: each whole unit among
    /// the first [`Bom::SNIFF_LEN`] bytes of the input is at most U+10FFFF.
    fn can_be_utf32le(rest: &[u8]) -> bool {
        rest[..rest.len().min(Bom::SNIFF_LEN - 4)]
            .chunks_exact(4)
            .all(|unit| unit[3] == 0 && unit[2] <= 0x10)
    }

    /// A short human name, with the mark's bytes.
    pub fn describe(self) -> &'static str {
        match self {
            Bom::Utf8 => "UTF-8 byte order mark (EF BB BF)",
            Bom::Utf16Le => "UTF-16LE byte order mark (FF FE)",
            Bom::Utf16Be => "UTF-16BE byte order mark (FE FF)",
            Bom::Utf32Le => "UTF-32LE byte order mark (FF FE 00 00)",
            Bom::Utf32Be => "UTF-32BE byte order mark (00 00 FE FF)",
        }
    }
}
