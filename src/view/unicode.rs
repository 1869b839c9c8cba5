//! The Unicode properties hexrune shows for a code point: its name (or, where it has none,
//! its code point label), its general category, and a glyph that is safe to print.
//!
//! Names come from `unicode_names2` and categories from `unicode-general-category`; both
//! are Unicode 16.0 data, so a character is named exactly when it is assigned. The one
//! gap in `unicode_names2` (Tangut ideographs, whose names are derived from the code point
//! like CJK ideographs) is filled here. Works on [`CodePoint`], so surrogates and values
//! above U+10FFFF get an honest description too. No I/O.

use std::fmt::Write as _;

use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_width::UnicodeWidthChar;

use crate::decode::CodePoint;

/// The Unicode Name property of `cp`, or `None` where it has none (controls, private use,
/// surrogates, noncharacters, unassigned code points, values above U+10FFFF).
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::name;
/// assert_eq!(name(CodePoint::new(0x20AC)).as_deref(), Some("EURO SIGN"));
/// assert_eq!(name(CodePoint::new(0x17000)).as_deref(), Some("TANGUT IDEOGRAPH-17000"));
/// assert_eq!(name(CodePoint::new(0x0A)), None);
/// ```
pub fn name(cp: CodePoint) -> Option<String> {
    let c = cp.to_char()?;
    if let Some(n) = unicode_names2::name(c) {
        return Some(n.to_string());
    }
    // Unicode ch. 4.8, rule NR2: names derived from the code point, which unicode_names2
    // 2.0 knows for CJK, Khitan, Nushu and Egyptian hieroglyphs but not for Tangut.
    let tangut = matches!(cp.value(), 0x1_7000..=0x1_87FF | 0x1_8D00..=0x1_8D7F);
    (tangut && get_general_category(c) == GeneralCategory::OtherLetter)
        .then(|| format!("TANGUT IDEOGRAPH-{:X}", cp.value()))
}

/// The name of `cp`, or its code point label (Unicode ch. 4.8) where it has no name:
/// `<control-000A>`, `<private-use-E000>`, `<surrogate-D800>`, `<noncharacter-FFFF>`,
/// `<reserved-0378>`; `<not-unicode-110000>` above U+10FFFF.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::label;
/// assert_eq!(label(CodePoint::new(0x0A)), "<control-000A>");
/// assert_eq!(label(CodePoint::new(0xDE00)), "<surrogate-DE00>");
/// assert_eq!(label(CodePoint::new(0xFFFF)), "<noncharacter-FFFF>");
/// ```
pub fn label(cp: CodePoint) -> String {
    if let Some(n) = name(cp) {
        return n;
    }
    let v = cp.value();
    let kind = match category(cp) {
        None => "not-unicode",
        Some(GeneralCategory::Control) => "control",
        Some(GeneralCategory::PrivateUse) => "private-use",
        Some(GeneralCategory::Surrogate) => "surrogate",
        _ if is_noncharacter(cp) => "noncharacter",
        _ => "reserved",
    };
    format!("<{kind}-{v:04X}>")
}

/// Whether `cp` is one of the 66 noncharacters: U+FDD0..U+FDEF and the last two code points
/// of every plane.
pub fn is_noncharacter(cp: CodePoint) -> bool {
    let v = cp.value();
    (0xFDD0..=0xFDEF).contains(&v) || (v <= 0x10_FFFF && v & 0xFFFE == 0xFFFE)
}

/// The general category of `cp`; `None` above U+10FFFF.
pub fn category(cp: CodePoint) -> Option<GeneralCategory> {
    if cp.is_surrogate() {
        return Some(GeneralCategory::Surrogate);
    }
    cp.to_char().map(get_general_category)
}

/// The long name of a general category, in lower case: `currency symbol`.
pub fn category_name(category: GeneralCategory) -> &'static str {
    use GeneralCategory::*;
    match category {
        UppercaseLetter => "uppercase letter",
        LowercaseLetter => "lowercase letter",
        TitlecaseLetter => "titlecase letter",
        ModifierLetter => "modifier letter",
        OtherLetter => "other letter",
        NonspacingMark => "nonspacing mark",
        SpacingMark => "spacing mark",
        EnclosingMark => "enclosing mark",
        DecimalNumber => "decimal number",
        LetterNumber => "letter number",
        OtherNumber => "other number",
        ConnectorPunctuation => "connector punctuation",
        DashPunctuation => "dash punctuation",
        OpenPunctuation => "open punctuation",
        ClosePunctuation => "close punctuation",
        InitialPunctuation => "initial punctuation",
        FinalPunctuation => "final punctuation",
        OtherPunctuation => "other punctuation",
        MathSymbol => "math symbol",
        CurrencySymbol => "currency symbol",
        ModifierSymbol => "modifier symbol",
        OtherSymbol => "other symbol",
        SpaceSeparator => "space separator",
        LineSeparator => "line separator",
        ParagraphSeparator => "paragraph separator",
        Control => "control",
        Format => "format",
        Surrogate => "surrogate",
        PrivateUse => "private use",
        Unassigned => "unassigned",
        // The enum is non-exhaustive; Unicode has not added a category since 1991.
        _ => "other",
    }
}

/// Hangul fillers: letters by category, but default-ignorable and drawn as blank space.
const FILLERS: [u32; 4] = [0x115F, 0x1160, 0x3164, 0xFFA0];

/// The text to show for `cp` between quotes, or `None` where showing it would be unsafe or
/// useless: controls, format characters (bidi controls, zero-width characters, the BOM),
/// line and paragraph separators, private use, surrogates, unassigned code points, Hangul
/// fillers and other zero-width characters. A combining mark is shown on U+25CC DOTTED
/// CIRCLE, so it has something to combine with.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::glyph;
/// assert_eq!(glyph(CodePoint::new(0x20AC)).as_deref(), Some("€"));
/// assert_eq!(glyph(CodePoint::new(0x0301)).as_deref(), Some("\u{25CC}\u{0301}"));
/// assert_eq!(glyph(CodePoint::new(0x202E)), None); // RIGHT-TO-LEFT OVERRIDE
/// ```
pub fn glyph(cp: CodePoint) -> Option<String> {
    use GeneralCategory::*;
    let c = cp.to_char()?;
    match get_general_category(c) {
        Control | Format | LineSeparator | ParagraphSeparator | PrivateUse | Surrogate
        | Unassigned => None,
        NonspacingMark | SpacingMark | EnclosingMark => Some(format!("\u{25CC}{c}")),
        _ if FILLERS.contains(&cp.value()) || c.width() == Some(0) => None,
        _ => Some(c.to_string()),
    }
}

/// One line about a code point: `U+20AC '€' EURO SIGN (Sc: currency symbol)`. The glyph
/// appears only where [`glyph`] allows it; values above U+10FFFF are marked as such.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::describe;
/// assert_eq!(describe(CodePoint::new(0x41)), "U+0041 'A' LATIN CAPITAL LETTER A (Lu: uppercase letter)");
/// assert_eq!(describe(CodePoint::new(0x0)), "U+0000 <control-0000> (Cc: control)");
/// assert_eq!(describe(CodePoint::new(0x110000)), "U+110000 (above U+10FFFF: not a Unicode code point)");
/// ```
pub fn describe(cp: CodePoint) -> String {
    let Some(category) = category(cp) else {
        return format!("{cp} (above U+10FFFF: not a Unicode code point)");
    };
    let mut out = cp.to_string();
    if let Some(g) = glyph(cp) {
        let _ = write!(out, " '{g}'");
    }
    let _ = write!(
        out,
        " {} ({}: {})",
        label(cp),
        category.abbreviation(),
        category_name(category)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(v: u32) -> CodePoint {
        CodePoint::new(v)
    }

    #[test]
    fn labels_for_code_points_without_a_name() {
        assert_eq!(label(cp(0x7F)), "<control-007F>");
        assert_eq!(label(cp(0x9F)), "<control-009F>");
        assert_eq!(label(cp(0xE000)), "<private-use-E000>");
        assert_eq!(label(cp(0x10_FFFD)), "<private-use-10FFFD>");
        assert_eq!(label(cp(0xD83D)), "<surrogate-D83D>");
        assert_eq!(label(cp(0xFDD0)), "<noncharacter-FDD0>");
        assert_eq!(label(cp(0x10_FFFF)), "<noncharacter-10FFFF>");
        assert_eq!(label(cp(0x0378)), "<reserved-0378>");
        assert_eq!(label(cp(0x11_0000)), "<not-unicode-110000>");
        assert_eq!(label(cp(0x7FFF_FFFF)), "<not-unicode-7FFFFFFF>");
    }

    #[test]
    fn derived_names() {
        assert_eq!(name(cp(0xAC00)).as_deref(), Some("HANGUL SYLLABLE GA"));
        assert_eq!(
            name(cp(0x4E00)).as_deref(),
            Some("CJK UNIFIED IDEOGRAPH-4E00")
        );
        assert_eq!(name(cp(0x187F7)).as_deref(), Some("TANGUT IDEOGRAPH-187F7"));
        assert_eq!(name(cp(0x18D08)).as_deref(), Some("TANGUT IDEOGRAPH-18D08"));
        assert_eq!(name(cp(0x18800)).as_deref(), Some("TANGUT COMPONENT-001"));
        // unassigned slots of the Tangut blocks stay nameless
        assert_eq!(label(cp(0x187F8)), "<reserved-187F8>");
        assert_eq!(label(cp(0x18D09)), "<reserved-18D09>");
    }

    /// The name and category tables must agree on which characters are assigned; a version
    /// bump of one crate without the other would break this.
    #[test]
    fn every_assigned_character_has_a_name_and_no_other_does() {
        use GeneralCategory::*;
        let mismatched: Vec<u32> = (0..=0x10_FFFFu32)
            .filter(|v| {
                let cp = cp(*v);
                let assigned = !matches!(
                    category(cp),
                    Some(Control | PrivateUse | Surrogate | Unassigned) | None
                );
                assigned != name(cp).is_some()
            })
            .take(10)
            .collect();
        assert_eq!(mismatched, Vec::<u32>::new());
    }

    #[test]
    fn glyphs_are_only_shown_when_safe() {
        let shown = |v: u32| glyph(cp(v));
        assert_eq!(shown(0x41).as_deref(), Some("A"));
        assert_eq!(shown(0x20).as_deref(), Some(" "));
        assert_eq!(shown(0x1F600).as_deref(), Some("\u{1F600}"));
        assert_eq!(shown(0x0E31).as_deref(), Some("\u{25CC}\u{0E31}")); // Thai mark
        assert_eq!(shown(0x20DD).as_deref(), Some("\u{25CC}\u{20DD}")); // enclosing circle
        for unsafe_one in [
            0x00, 0x1B, 0x7F, 0x85, 0x9B, 0xAD, 0x061C, 0x200B, 0x200D, 0x200E, 0x2028, 0x2029,
            0x202E, 0x2066, 0xFEFF, 0xE000, 0xD800, 0xFFFF, 0x0378, 0xE0001, 0x115F, 0x1160,
            0x3164, 0xFFA0, 0x11_0000,
        ] {
            assert_eq!(shown(unsafe_one), None, "U+{unsafe_one:04X}");
        }
    }

    #[test]
    fn descriptions() {
        assert_eq!(
            describe(cp(0x0301)),
            "U+0301 '\u{25CC}\u{0301}' COMBINING ACUTE ACCENT (Mn: nonspacing mark)"
        );
        assert_eq!(
            describe(cp(0xD83D)),
            "U+D83D <surrogate-D83D> (Cs: surrogate)"
        );
        assert_eq!(
            describe(cp(0x202E)),
            "U+202E RIGHT-TO-LEFT OVERRIDE (Cf: format)"
        );
        assert_eq!(
            describe(cp(0x1F600)),
            "U+1F600 '\u{1F600}' GRINNING FACE (So: other symbol)"
        );
    }
}
