//! The one function from a decoded value to something safe to put on a terminal: hexrune's
//! own idea, so it is written here rather than taken from a crate.
//!
//! A [`Glyph`] is a string, its display width (1 or 2, measured by `unicode-width`) and a
//! [`GlyphClass`] that the TUI maps to a style. Nothing a file holds reaches the terminal as
//! it is: controls become Control Pictures (`␀`..`␟`, `␡`), format characters (bidi
//! controls, zero-width characters, the BOM, variation selectors, tags) become small marks,
//! combining marks are drawn on a dotted circle, and unassigned, private-use, surrogate and
//! out-of-range values get placeholders. Every glyph fits the columns its unit owns
//! ([`Glyph::fit`]). The filler drawn on the other columns of a unit, [`FILLER`], is a
//! strong left-to-right character, so right-to-left letters never stand next to each other
//! and a bidi-aware terminal has nothing to reorder.
//!
//! Categories and widths are asked of [`crate::view::unicode`], as everywhere else; text
//! that is not one unit (a file name, a message) is made safe by [`crate::view::safe`].

use crate::decode::CodePoint;
use crate::view::unicode::{self, GeneralCategory};

/// What kind of thing a glyph stands for; the TUI picks a style per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlyphClass {
    /// A printable character shown as itself.
    Plain,
    /// A space or separator shown by a visible symbol.
    Space,
    /// A C0 or C1 control, or DEL.
    Control,
    /// A format character (Cf): bidi controls, zero-width characters, BOM, tags.
    Format,
    /// A variation selector.
    Selector,
    /// A combining mark, drawn on a dotted circle.
    Mark,
    /// A code point with no character assigned (including noncharacters).
    Unassigned,
    /// A private-use code point.
    PrivateUse,
    /// A surrogate code point (valid alone in some dialects).
    Surrogate,
    /// A value above U+10FFFF (legacy UTF-8).
    NonUnicode,
    /// An error unit.
    Error,
    /// A U+FFFD REPLACEMENT CHARACTER in the input: a valid character, but the mark that
    /// something lost data before the input was written, so shown apart from an error unit
    /// (whose glyph is the same character).
    Replacement,
    /// A wide character whose unit is cut by the row edge, leaving it one column.
    Cut,
    /// A byte of an error unit shown as the code point an escaping codec writes for it
    /// (`--escape`: U+DC00+b or U+EF00+b), [`ESCAPED_GLYPH`]: one per byte, drawn apart
    /// from text and from the error glyph.
    Escaped,
}

/// A terminal-safe rendering of one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// What to draw: one character, or a dotted circle and a combining mark.
    pub text: String,
    /// Display width in cells, 1 or 2.
    pub width: u8,
    /// What the glyph stands for.
    pub class: GlyphClass,
}

/// Drawn on the columns of a unit that its glyph does not cover. U+02D1 MODIFIER LETTER
/// HALF TRIANGULAR COLON: one column wide, and of bidi class L (see the module docs).
pub const FILLER: &str = "\u{2D1}";

/// The glyph of an error unit in the text pane (the U+FFFD of "substitution of maximal
/// subparts": one per error unit).
pub const ERROR_GLYPH: &str = "\u{FFFD}";

/// The glyph of a byte 80..FF of an error unit under `--escape`, one per byte: U+02E3
/// MODIFIER LETTER SMALL X, for "a raw byte `\xE9`" (one column, bidi class L, like
/// [`FILLER`]). Which code point it stands for, the detail pane says.
pub const ESCAPED_GLYPH: &str = "\u{2E3}";

/// Drawn instead of a wide glyph that has a single column left before the row edge.
pub const CUT_GLYPH: &str = "\u{2026}";

impl Glyph {
    /// The glyph of an error unit.
    pub fn error() -> Glyph {
        InlineGlyph::error().into()
    }

    /// This glyph, or a one-column stand-in when it is wider than `columns` (at least 1).
    pub fn fit(self, columns: usize) -> Glyph {
        if (self.width as usize) <= columns.max(1) {
            self
        } else {
            InlineGlyph::cut().into()
        }
    }
}

/// A [`Glyph`] held inline, without allocating: what [`inline_glyph`] computes and
/// [`glyph`] turns into a `Glyph`. The view builds cells from this type, so a dump of a
/// huge file allocates nothing per character. Its text is at most 8 bytes of UTF-8 (the
/// longest glyph, a dotted circle and a combining mark, is 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineGlyph {
    bytes: [u8; 8],
    len: u8,
    /// Display width in cells, 1 or 2.
    pub width: u8,
    /// What the glyph stands for.
    pub class: GlyphClass,
}

impl InlineGlyph {
    fn symbol(c: char, width: u8, class: GlyphClass) -> InlineGlyph {
        let mut bytes = [0; 8];
        let len = c.encode_utf8(&mut bytes).len() as u8;
        InlineGlyph {
            bytes,
            len,
            width,
            class,
        }
    }

    /// The glyph of an error unit.
    pub fn error() -> InlineGlyph {
        InlineGlyph::symbol('\u{FFFD}', 1, GlyphClass::Error)
    }

    /// The glyph of byte `byte` of an error unit as `escape` writes it: [`ESCAPED_GLYPH`]
    /// for 80..FF, which the scheme turns into U+DC80..U+DCFF or U+EF80..U+EFFF; a smaller
    /// byte is its own code point, and gets that code point's glyph.
    pub fn escaped(escape: crate::view::fallback::Escape, byte: u8) -> InlineGlyph {
        match byte {
            0x80..=0xFF => InlineGlyph::symbol('\u{2E3}', 1, GlyphClass::Escaped),
            _ => inline_glyph(escape.code_point(byte)),
        }
    }

    fn cut() -> InlineGlyph {
        InlineGlyph::symbol('\u{2026}', 1, GlyphClass::Cut)
    }

    /// This glyph, or a one-column stand-in when it is wider than `columns` (at least 1).
    pub fn fit(self, columns: usize) -> InlineGlyph {
        if (self.width as usize) <= columns.max(1) {
            self
        } else {
            InlineGlyph::cut()
        }
    }

    /// The glyph's text in the first [`InlineGlyph::len`] of 8 bytes (the rest are zero):
    /// for printers that copy a fixed 8 bytes and keep `len` of them.
    pub fn padded(&self) -> &[u8; 8] {
        &self.bytes
    }

    /// The length of the glyph's text in bytes, 1 to 8.
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The glyph's text as UTF-8 bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The glyph's text.
    pub fn as_str(&self) -> &str {
        // Built only from `char`s, so always UTF-8; the fallback is never taken.
        std::str::from_utf8(self.as_bytes()).unwrap_or(ERROR_GLYPH)
    }
}

impl From<InlineGlyph> for Glyph {
    fn from(g: InlineGlyph) -> Glyph {
        Glyph {
            text: g.as_str().to_string(),
            width: g.width,
            class: g.class,
        }
    }
}

/// The glyph for a decoded value, before fitting it to its columns.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::glyph::{glyph, GlyphClass};
/// let g = glyph(CodePoint::new(0x1B));
/// assert_eq!((g.text.as_str(), g.width, g.class), ("\u{241B}", 1, GlyphClass::Control));
/// let g = glyph(CodePoint::new(0x4E2D));
/// assert_eq!((g.text.as_str(), g.width, g.class), ("中", 2, GlyphClass::Plain));
/// ```
pub fn glyph(cp: CodePoint) -> Glyph {
    inline_glyph(cp).into()
}

/// [`glyph`] without allocating.
pub fn inline_glyph(cp: CodePoint) -> InlineGlyph {
    let symbol = |c: char, class: GlyphClass| InlineGlyph::symbol(c, 1, class);
    let value = cp.value();
    if cp == CodePoint::ESCAPE_SEQUENCE {
        // An ISO-2022-JP escape sequence: a mode switch, no character.
        return symbol('\u{238B}', GlyphClass::Control); // ⎋
    }
    if cp > CodePoint::MAX_UNICODE {
        return symbol('\u{207A}', GlyphClass::NonUnicode); // ⁺
    }
    let Some(c) = cp.to_char() else {
        return symbol('\u{2E2}', GlyphClass::Surrogate); // ˢ
    };
    match value {
        0x00..=0x1F => return symbol(control_picture(value), GlyphClass::Control),
        // Printable ASCII is itself (all of it is one column and none is a mark or format
        // character): the common case, answered before the category tables.
        0x20..=0x7E => return symbol(c, GlyphClass::Plain),
        0x7F => return symbol('\u{2421}', GlyphClass::Control), // ␡
        0x80..=0x9F => return symbol('\u{2327}', GlyphClass::Control), // ⌧
        0xFFFD => return symbol('\u{FFFD}', GlyphClass::Replacement),
        _ if unicode::is_variation_selector(cp) => {
            return symbol('\u{1D5B}', GlyphClass::Selector); // ᵛ
        }
        _ => {}
    }
    let category = unicode::category(cp).unwrap_or(GeneralCategory::Unassigned);
    match category {
        GeneralCategory::Format => symbol(format_mark(value), GlyphClass::Format),
        // Default-ignorable letters and marks (the Hangul fillers, U+034F, U+17B4) are
        // drawn as nothing, whatever width `unicode-width` gives them (U+115F: 2).
        GeneralCategory::Unassigned => symbol('\u{2204}', GlyphClass::Unassigned), // ∄
        _ if unicode::is_default_ignorable(cp) => symbol('\u{1DA0}', GlyphClass::Format), // ᶠ
        GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark => on_dotted_circle(c),
        GeneralCategory::SpacingMark => symbol('\u{25CC}', GlyphClass::Mark),
        GeneralCategory::PrivateUse => symbol('\u{1D56}', GlyphClass::PrivateUse), // ᵖ
        GeneralCategory::Surrogate => symbol('\u{2E2}', GlyphClass::Surrogate),
        GeneralCategory::Control => symbol('\u{2327}', GlyphClass::Control),
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
            symbol('\u{23CE}', GlyphClass::Space) // ⏎
        }
        GeneralCategory::SpaceSeparator => symbol('\u{2423}', GlyphClass::Space), // ␣
        _ => match unicode::width(cp) {
            Some(w @ 1..=2) => InlineGlyph::symbol(c, w, GlyphClass::Plain),
            // Zero-width letters (the vowels and final consonants of conjoining jamo)
            // would join their neighbours: drawn as a spacing mark is, the dotted circle
            // alone, a letter that joins the one before it (not `ᶠ`, which says ignorable).
            _ => symbol('\u{25CC}', GlyphClass::Mark),
        },
    }
}

/// U+2400 + n for the C0 controls: ␀ ␁ .. ␟.
fn control_picture(value: u32) -> char {
    char::from_u32(0x2400 + value).unwrap_or('\u{2426}')
}

/// Format characters, by what a reader most needs to tell apart.
fn format_mark(value: u32) -> char {
    match value {
        // Bidi embeddings, overrides, isolates and marks.
        0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 => '\u{21C4}', // ⇄
        // Zero width space, non-joiner, joiner, word joiner, invisible operators.
        0x200B..=0x200D | 0x2060..=0x2064 => '\u{1DBB}', // ᶻ
        0xFEFF => '\u{1D2E}',                            // ᴮ
        0x00AD => '\u{207B}',                            // ⁻ (soft hyphen)
        0xE0000..=0xE007F => '\u{1D57}',                 // ᵗ (tags)
        _ => '\u{1DA0}',                                 // ᶠ
    }
}

/// A combining mark on U+25CC DOTTED CIRCLE, when the pair is exactly one column wide;
/// otherwise the circle alone.
fn on_dotted_circle(mark: char) -> InlineGlyph {
    let mut glyph = InlineGlyph::symbol('\u{25CC}', 1, GlyphClass::Mark);
    let mut pair = [0u8; 8];
    let circle = '\u{25CC}'.encode_utf8(&mut pair).len();
    let both = circle + mark.encode_utf8(&mut pair[circle..]).len();
    let text = std::str::from_utf8(&pair[..both]).unwrap_or_default();
    if unicode::width(CodePoint::new(mark as u32)) == Some(0) && unicode::text_width(text) == 1 {
        glyph.bytes = pair;
        glyph.len = both as u8;
    }
    glyph
}

/// The one sanitiser, [`crate::view::safe::sanitize`], under the name the panes know it by.
pub use crate::view::safe::sanitize;

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_general_category::get_general_category;
    use unicode_width::UnicodeWidthStr;

    fn g(v: u32) -> Glyph {
        glyph(CodePoint::new(v))
    }

    /// Every glyph is free of controls, is exactly as wide as it says, and its width is
    /// 1 or 2; every glyph but plain ones is one column.
    #[test]
    fn every_code_point_gets_a_safe_width_exact_glyph() {
        for v in (0..=0x10FFFF).chain([0x110000, 0x7FFF_FFFF]) {
            let glyph = g(v);
            assert!(matches!(glyph.width, 1 | 2), "U+{v:04X}");
            assert_eq!(glyph.text.width(), glyph.width as usize, "U+{v:04X}");
            for c in glyph.text.chars() {
                let cat = get_general_category(c);
                assert!(
                    !matches!(
                        cat,
                        GeneralCategory::Control
                            | GeneralCategory::Format
                            | GeneralCategory::LineSeparator
                            | GeneralCategory::ParagraphSeparator
                            | GeneralCategory::Unassigned
                            | GeneralCategory::PrivateUse
                    ),
                    "U+{v:04X} drawn with {c:?}"
                );
            }
            if glyph.class != GlyphClass::Plain {
                assert_eq!(glyph.width, 1, "U+{v:04X}");
            }
        }
    }

    #[test]
    fn table() {
        let cases: &[(u32, &str, GlyphClass)] = &[
            (0x00, "␀", GlyphClass::Control),
            (0x09, "␉", GlyphClass::Control),
            (0x0A, "␊", GlyphClass::Control),
            (0x1B, "␛", GlyphClass::Control),
            (0x7F, "␡", GlyphClass::Control),
            (0x85, "⌧", GlyphClass::Control),
            (0x41, "A", GlyphClass::Plain),
            (0xA0, "␣", GlyphClass::Space),
            (0xAD, "⁻", GlyphClass::Format),
            (0x0301, "◌\u{301}", GlyphClass::Mark),
            (0x200B, "ᶻ", GlyphClass::Format),
            (0x200D, "ᶻ", GlyphClass::Format),
            (0x202E, "⇄", GlyphClass::Format),
            (0x2067, "⇄", GlyphClass::Format),
            (0x2028, "⏎", GlyphClass::Space),
            (0xFE0F, "ᵛ", GlyphClass::Selector),
            // Variation_Selector's edges, and U+180E, a format character between them.
            (0x180A, "᠊", GlyphClass::Plain),
            (0x180B, "ᵛ", GlyphClass::Selector),
            (0x180D, "ᵛ", GlyphClass::Selector),
            (0x180E, "ᶠ", GlyphClass::Format),
            (0x180F, "ᵛ", GlyphClass::Selector),
            (0x1810, "᠐", GlyphClass::Plain),
            // Conjoining jamo: an initial is wide, the filler ignorable, a vowel and a
            // final letters of no width that join the letter before.
            (0x1100, "ᄀ", GlyphClass::Plain),
            (0x1160, "ᶠ", GlyphClass::Format),
            (0x1161, "◌", GlyphClass::Mark),
            (0x11A8, "◌", GlyphClass::Mark),
            (0xD7B0, "◌", GlyphClass::Mark),
            (0xD7FB, "◌", GlyphClass::Mark),
            (0xFDFF, "\u{FDFF}", GlyphClass::Plain),
            (0xFE00, "ᵛ", GlyphClass::Selector),
            (0xFE10, "︐", GlyphClass::Plain),
            (0xE00FF, "∄", GlyphClass::Unassigned),
            (0xE0100, "ᵛ", GlyphClass::Selector),
            (0xE01EF, "ᵛ", GlyphClass::Selector),
            (0xE01F0, "∄", GlyphClass::Unassigned),
            (0xFEFF, "ᴮ", GlyphClass::Format),
            (0xE000, "ᵖ", GlyphClass::PrivateUse),
            (0x0378, "∄", GlyphClass::Unassigned),
            (0xFFFF, "∄", GlyphClass::Unassigned),
            (0xD800, "ˢ", GlyphClass::Surrogate),
            (0x110000, "⁺", GlyphClass::NonUnicode),
            (0x1F600, "😀", GlyphClass::Plain),
        ];
        for &(v, text, class) in cases {
            let glyph = g(v);
            assert_eq!(
                (glyph.text.as_str(), glyph.class),
                (text, class),
                "U+{v:04X}"
            );
        }
    }

    /// No default-ignorable code point is drawn as itself (a terminal shows it as
    /// nothing, or as blank columns: U+115F): each gets a one-column mark.
    #[test]
    fn no_default_ignorable_is_drawn_raw() {
        let mut seen = 0;
        for v in 0..=0x10FFFF {
            let cp = CodePoint::new(v);
            if !unicode::is_default_ignorable(cp) {
                continue;
            }
            seen += 1;
            let glyph = g(v);
            let c = char::from_u32(v).unwrap();
            assert!(
                !glyph.text.contains(c),
                "U+{v:04X} drawn as {:?}",
                glyph.text
            );
            assert_eq!(glyph.width, 1, "U+{v:04X}");
            assert!(
                !matches!(glyph.class, GlyphClass::Plain | GlyphClass::Mark),
                "U+{v:04X} is {:?}",
                glyph.class
            );
        }
        // DerivedCoreProperties.txt (Unicode 16.0) counts 4174 code points.
        assert_eq!(seen, 4174);
        for (v, text) in [(0x115F, "ᶠ"), (0x1160, "ᶠ"), (0x3164, "ᶠ"), (0xFFA0, "ᶠ")] {
            assert_eq!((g(v).text.as_str(), g(v).width), (text, 1), "U+{v:04X}");
        }
    }

    /// The variation selectors are exactly the code points Unicode names `… VARIATION
    /// SELECTOR …` (VARIATION SELECTOR-1 to -256, MONGOLIAN FREE VARIATION SELECTOR ONE to
    /// FOUR), and each is drawn `ᵛ` as a selector; no other code point is.
    #[test]
    fn selectors_are_the_code_points_named_so() {
        let mut seen = 0;
        for v in 0..=0x10FFFF {
            let cp = CodePoint::new(v);
            let named = char::from_u32(v)
                .and_then(unicode_names2::name)
                .is_some_and(|n| n.to_string().contains("VARIATION SELECTOR"));
            assert_eq!(unicode::is_variation_selector(cp), named, "U+{v:04X}");
            let glyph = g(v);
            let drawn = glyph.class == GlyphClass::Selector && glyph.text == "ᵛ";
            assert_eq!(drawn, named, "U+{v:04X}");
            seen += usize::from(named);
        }
        // PropList.txt (Unicode 16.0): 16 + 240 + 4.
        assert_eq!(seen, 260);
    }

    #[test]
    fn fit_replaces_what_is_too_wide() {
        assert_eq!(g(0x4E2D).fit(3).text, "中");
        assert_eq!(g(0x4E2D).fit(2).text, "中");
        assert_eq!(g(0x4E2D).fit(1).class, GlyphClass::Cut);
        assert_eq!(g(0x41).fit(1).text, "A");
    }

    #[test]
    fn filler_is_narrow_and_left_to_right() {
        assert_eq!(FILLER.width(), 1);
        assert_eq!(
            get_general_category(FILLER.chars().next().unwrap()),
            GeneralCategory::ModifierLetter
        );
    }
}
