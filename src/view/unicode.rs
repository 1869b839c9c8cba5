//! The one place hexrune asks what a code point is: its name (or, where it has none, its
//! code point label), alias, general category, display width, plane and block, and
//! whether it is a control, private use, a surrogate, a noncharacter, unassigned or above
//! U+10FFFF. [`facts`] gathers all of it in one [`Facts`]; the detail pane, `explain`,
//! the JSON records and the glyphs of every pane all ask here, so they cannot disagree.
//!
//! Names come from `unicode_names2` and categories from `unicode-general-category`; both
//! are Unicode 16.0 data, so a character is named exactly when it is assigned. The one
//! gap in `unicode_names2` (Tangut ideographs, whose names are derived from the code point
//! like CJK ideographs) is filled here. Widths come from `unicode-width`, blocks from
//! `unicode-blocks` (the three surrogate blocks, which it cannot look up since a surrogate
//! is no `char`, are written here). Works on [`CodePoint`], so surrogates and values above
//! U+10FFFF (legacy RFC 2279 forms, up to U+7FFFFFFF) get an honest description too, in one
//! wording: [`NOT_UNICODE`]. No I/O, no terminal types.

use std::fmt::Write as _;

use unicode_general_category::get_general_category;
pub use unicode_general_category::GeneralCategory;
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
    let (kind, v) = (kind(cp).word(), cp.value());
    format!("<{kind}-{v:04X}>")
}

/// Whether `cp` is one of the 66 noncharacters: U+FDD0..U+FDEF and the last two code points
/// of every plane.
pub fn is_noncharacter(cp: CodePoint) -> bool {
    cp.is_noncharacter()
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

/// Whether `cp` has the Default_Ignorable_Code_Point property (Unicode 16.0,
/// DerivedCoreProperties.txt): a character a renderer draws as nothing where it cannot
/// act on it. Most are format characters (Cf) or variation selectors, but some are letters
/// or marks by category and not all are zero-width to `unicode-width`: the Hangul fillers
/// (U+115F is two columns wide to it, as a leading jamo), U+034F COMBINING GRAPHEME
/// JOINER and the Khmer inherent vowels U+17B4 and U+17B5.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::is_default_ignorable;
/// assert!(is_default_ignorable(CodePoint::new(0x115F))); // HANGUL CHOSEONG FILLER
/// assert!(is_default_ignorable(CodePoint::new(0x200B))); // ZERO WIDTH SPACE
/// assert!(!is_default_ignorable(CodePoint::new(0x1100))); // HANGUL CHOSEONG KIYEOK
/// ```
pub fn is_default_ignorable(cp: CodePoint) -> bool {
    matches!(
        cp.value(),
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1_BCA0..=0x1_BCA3
            | 0x1_D173..=0x1_D17A
            | 0xE_0000..=0xE_0FFF
    )
}

/// Whether `cp` has the Variation_Selector property (Unicode 16.0, PropList.txt):
/// U+FE00..U+FE0F, U+E0100..U+E01EF and Mongolian's free variation selectors
/// U+180B..U+180D and U+180F. U+180E MONGOLIAN VOWEL SEPARATOR, between them, is a format
/// character (Cf) and not one; every code point named `… VARIATION SELECTOR …` is one
/// (a test asks the names).
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::is_variation_selector;
/// assert!(is_variation_selector(CodePoint::new(0xFE0F)));
/// assert!(is_variation_selector(CodePoint::new(0x180F)));
/// assert!(!is_variation_selector(CodePoint::new(0x180E))); // MONGOLIAN VOWEL SEPARATOR
/// ```
pub fn is_variation_selector(cp: CodePoint) -> bool {
    matches!(
        cp.value(),
        0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE_0100..=0xE_01EF
    )
}

/// The text to show for `cp` between quotes, or `None` where showing it would be unsafe or
/// useless: controls, format characters (bidi controls, zero-width characters, the BOM),
/// line and paragraph separators, private use, surrogates, unassigned code points,
/// default-ignorable letters (the Hangul fillers) and other zero-width characters. A combining mark is shown on U+25CC DOTTED
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
        _ if is_default_ignorable(cp) || c.width() == Some(0) => None,
        _ => Some(c.to_string()),
    }
}

/// One line about a code point: `U+20AC '€' EURO SIGN (Sc: currency symbol)`, from its
/// [`Facts`]. The glyph appears only where [`glyph`] allows it.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::describe;
/// assert_eq!(describe(CodePoint::new(0x41)), "U+0041 'A' LATIN CAPITAL LETTER A (Lu: uppercase letter)");
/// assert_eq!(describe(CodePoint::new(0x0)), "U+0000 <control-0000> NULL (Cc: control)");
/// assert_eq!(describe(CodePoint::new(0x110000)), "U+110000 <not-unicode-110000> (above U+10FFFF: not a Unicode code point)");
/// ```
pub fn describe(cp: CodePoint) -> String {
    let facts = facts(cp);
    let mut out = cp.to_string();
    if let Some(g) = glyph(cp) {
        let _ = write!(out, " '{g}'");
    }
    let _ = write!(out, " {} ({})", facts.title(), facts.category_text());
    out
}

pub use crate::decode::NOT_UNICODE;

/// What a code point is, in the terms of its label (Unicode ch. 4.8, Table 4-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An assigned character other than a control: it has a name.
    Assigned,
    /// A C0 or C1 control (or DEL).
    Control,
    /// A private-use code point.
    PrivateUse,
    /// A surrogate code point (valid alone only in some dialects).
    Surrogate,
    /// One of the 66 noncharacters.
    Noncharacter,
    /// An unassigned code point that is no noncharacter.
    Reserved,
    /// A value above U+10FFFF (legacy RFC 2279 forms).
    NotUnicode,
}

impl Kind {
    /// The word of the code point label: `control`, `private-use`, ... (`assigned` for
    /// characters, which are labelled by their name).
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Assigned => "assigned",
            Kind::Control => "control",
            Kind::PrivateUse => "private-use",
            Kind::Surrogate => "surrogate",
            Kind::Noncharacter => "noncharacter",
            Kind::Reserved => "reserved",
            Kind::NotUnicode => "not-unicode",
        }
    }
}

/// What `cp` is.
pub fn kind(cp: CodePoint) -> Kind {
    use GeneralCategory::*;
    match category(cp) {
        None => Kind::NotUnicode,
        Some(Control) => Kind::Control,
        Some(PrivateUse) => Kind::PrivateUse,
        Some(Surrogate) => Kind::Surrogate,
        Some(Unassigned) if is_noncharacter(cp) => Kind::Noncharacter,
        Some(Unassigned) => Kind::Reserved,
        Some(_) => Kind::Assigned,
    }
}

/// The display width of `cp` in a terminal, as `unicode-width` measures it: 0, 1 or 2;
/// `None` for controls, surrogates and values above U+10FFFF.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::width;
/// assert_eq!(width(CodePoint::new(0x4E00)), Some(2));
/// assert_eq!(width(CodePoint::new(0x0301)), Some(0));
/// assert_eq!(width(CodePoint::new(0x1B)), None);
/// ```
pub fn width(cp: CodePoint) -> Option<u8> {
    let c = cp.to_char()?;
    if get_general_category(c) == GeneralCategory::Control {
        return None;
    }
    c.width().map(|w| w as u8)
}

/// The display width of a whole string (a glyph of several code points), as
/// `unicode-width` measures it.
pub fn text_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// The plane of `cp`, 0 to 16; `None` above U+10FFFF.
pub fn plane(cp: CodePoint) -> Option<u8> {
    (cp <= CodePoint::MAX_UNICODE).then(|| (cp.value() >> 16) as u8)
}

/// The name of plane `plane` (0 to 16), as the Unicode Standard (ch. 2.8) gives it.
pub fn plane_name(plane: u8) -> &'static str {
    match plane {
        0 => "Basic Multilingual Plane",
        1 => "Supplementary Multilingual Plane",
        2 => "Supplementary Ideographic Plane",
        3 => "Tertiary Ideographic Plane",
        14 => "Supplementary Special-purpose Plane",
        15 => "Supplementary Private Use Area-A",
        16 => "Supplementary Private Use Area-B",
        _ => "unassigned plane",
    }
}

/// The short name of plane `plane` (0 to 16): BMP, SMP, SIP, TIP, SSP, SPUA-A, SPUA-B, or
/// `unassigned` for the planes that have none.
pub fn plane_abbreviation(plane: u8) -> &'static str {
    match plane {
        0 => "BMP",
        1 => "SMP",
        2 => "SIP",
        3 => "TIP",
        14 => "SSP",
        15 => "SPUA-A",
        16 => "SPUA-B",
        _ => "unassigned",
    }
}

/// The name of the block holding `cp` (`CJK Unified Ideographs`), `None` outside every
/// block and above U+10FFFF.
pub fn block(cp: CodePoint) -> Option<&'static str> {
    match cp.value() {
        // A surrogate is no `char`, so `unicode-blocks` cannot be asked about it.
        0xD800..=0xDB7F => Some("High Surrogates"),
        0xDB80..=0xDBFF => Some("High Private Use Surrogates"),
        0xDC00..=0xDFFF => Some("Low Surrogates"),
        _ => unicode_blocks::find_unicode_block(cp.to_char()?).map(|b| b.name()),
    }
}

/// The name alias everyone knows a C0 control or DEL by (`ESCAPE`); Unicode gives these
/// controls no name, only aliases.
pub fn alias(cp: CodePoint) -> Option<&'static str> {
    const C0: [&str; 32] = [
        "NULL",
        "START OF HEADING",
        "START OF TEXT",
        "END OF TEXT",
        "END OF TRANSMISSION",
        "ENQUIRY",
        "ACKNOWLEDGE",
        "BELL",
        "BACKSPACE",
        "CHARACTER TABULATION",
        "LINE FEED",
        "LINE TABULATION",
        "FORM FEED",
        "CARRIAGE RETURN",
        "SHIFT OUT",
        "SHIFT IN",
        "DATA LINK ESCAPE",
        "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO",
        "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR",
        "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE",
        "END OF TRANSMISSION BLOCK",
        "CANCEL",
        "END OF MEDIUM",
        "SUBSTITUTE",
        "ESCAPE",
        "INFORMATION SEPARATOR FOUR",
        "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE",
    ];
    match cp.value() {
        v @ 0..=0x1F => Some(C0[v as usize]),
        0x7F => Some("DELETE"),
        _ => None,
    }
}

/// Everything hexrune says about one code point; [`facts`] builds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The code point.
    pub cp: CodePoint,
    /// What it is.
    pub kind: Kind,
    /// Its name, or its code point label where it has none ([`label`]).
    pub label: String,
    /// The alias of a C0 control or DEL ([`alias`]).
    pub alias: Option<&'static str>,
    /// Its general category; `None` above U+10FFFF.
    pub category: Option<GeneralCategory>,
    /// Its display width ([`width`]).
    pub width: Option<u8>,
    /// Its plane; `None` above U+10FFFF.
    pub plane: Option<u8>,
    /// Its block ([`block`]).
    pub block: Option<&'static str>,
}

/// Everything about `cp`, for every output path to show.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::facts;
/// let f = facts(CodePoint::new(0x17000));
/// assert_eq!(f.title(), "TANGUT IDEOGRAPH-17000");
/// assert_eq!(f.category_text(), "Lo: other letter");
/// assert_eq!(f.plane_text(), "1 Supplementary Multilingual Plane");
/// assert_eq!(f.block_text(), "Tangut");
/// let f = facts(CodePoint::new(0x110000));
/// assert_eq!(f.title(), "<not-unicode-110000>");
/// assert_eq!(f.category_text(), "above U+10FFFF: not a Unicode code point");
/// ```
pub fn facts(cp: CodePoint) -> Facts {
    Facts {
        cp,
        kind: kind(cp),
        label: label(cp),
        alias: alias(cp),
        category: category(cp),
        width: width(cp),
        plane: plane(cp),
        block: block(cp),
    }
}

impl Facts {
    /// The label and, for a C0 control or DEL, its alias: `<control-001B> ESCAPE`.
    pub fn title(&self) -> String {
        match self.alias {
            Some(alias) => format!("{} {alias}", self.label),
            None => self.label.clone(),
        }
    }

    /// `Lu: uppercase letter`, or [`NOT_UNICODE`] above U+10FFFF.
    pub fn category_text(&self) -> String {
        match self.category {
            Some(c) => format!("{}: {}", c.abbreviation(), category_name(c)),
            None => NOT_UNICODE.to_string(),
        }
    }

    /// The width as a number, or `none`.
    pub fn width_text(&self) -> String {
        self.width.map_or("none".to_string(), |w| w.to_string())
    }

    /// `0 Basic Multilingual Plane`, or `none` above U+10FFFF.
    pub fn plane_text(&self) -> String {
        self.plane
            .map_or("none".to_string(), |p| format!("{p} {}", plane_name(p)))
    }

    /// `0 BMP`: the plane by the short name the Unicode Standard uses, for narrow places
    /// (the viewer's detail pane); `none` above U+10FFFF.
    pub fn plane_short(&self) -> String {
        self.plane.map_or("none".to_string(), |p| {
            format!("{p} {}", plane_abbreviation(p))
        })
    }

    /// The block's name, or `none`.
    pub fn block_text(&self) -> &'static str {
        self.block.unwrap_or("none")
    }
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
    fn kinds_planes_and_blocks() {
        let row = |v: u32| {
            let f = facts(cp(v));
            (f.kind, f.plane_text(), f.block_text(), f.width)
        };
        assert_eq!(
            row(0x1B),
            (
                Kind::Control,
                "0 Basic Multilingual Plane".into(),
                "Basic Latin",
                None
            )
        );
        assert_eq!(
            row(0xDB80),
            (
                Kind::Surrogate,
                "0 Basic Multilingual Plane".into(),
                "High Private Use Surrogates",
                None
            )
        );
        assert_eq!(
            row(0xDFFF),
            (
                Kind::Surrogate,
                "0 Basic Multilingual Plane".into(),
                "Low Surrogates",
                None
            )
        );
        assert_eq!(
            row(0x2_0000),
            (
                Kind::Assigned,
                "2 Supplementary Ideographic Plane".into(),
                "CJK Unified Ideographs Extension B",
                Some(2)
            )
        );
        assert_eq!(
            row(0x4_0000),
            (Kind::Reserved, "4 unassigned plane".into(), "none", Some(1))
        );
        assert_eq!(
            row(0x10_FFFE),
            (
                Kind::Noncharacter,
                "16 Supplementary Private Use Area-B".into(),
                "Supplementary Private Use Area-B",
                Some(1)
            )
        );
        assert_eq!(
            row(0x20_0000),
            (Kind::NotUnicode, "none".into(), "none", None)
        );
        assert_eq!(facts(cp(0x7F)).title(), "<control-007F> DELETE");
        assert_eq!(facts(cp(0x85)).title(), "<control-0085>");
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
