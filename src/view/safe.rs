//! The one sanitiser: text taken from a file or a file name (a path in an error message or
//! in `check`'s report, an argument `explain` quotes back, the TUI's status line, a typed
//! search, a message) made safe to print, by [`sanitize`]. Every output path of the crate,
//! CLI and TUI, calls it; the glyphs of single units are [`crate::view::glyph`]'s business.
//!
//! A character a terminal could act on or that would hide is written as a `\u{..}`
//! escape (lower-case hex, as Rust writes it): C0 and C1 controls and DEL, format
//! characters (bidi embeddings, overrides, isolates and marks, zero-width characters, the
//! BOM, the soft hyphen, tag characters), the line and paragraph separators, the other
//! default-ignorable code points (Hangul fillers, U+034F, U+17B4/U+17B5), private use and
//! unassigned code points (noncharacters included), a variation selector where it has
//! nothing to select (not after a visible character), and a combining mark with no visible
//! base before it. Everything else is kept as it is, so `café`, `中文` and `❤️` stay
//! readable. The result is idempotent: an escape is plain ASCII.

use std::fmt::Write as _;

use crate::decode::CodePoint;
use crate::view::unicode::{self, GeneralCategory};

/// A path's name for a terminal: its UTF-8 [`sanitize`]d, each byte that is not UTF-8 as
/// `\xff` (so that it cannot be taken for a U+FFFD in the name), and a backslash the name
/// holds as `\\`, so that no name can be taken for another: a name holding the byte FF and
/// one holding the four characters `\xff` (or U+202E and `\u{202e}`) are shown apart.
///
/// ```
/// use hexrune::view::safe::path_name;
/// use std::os::unix::ffi::OsStrExt;
/// let path = std::path::Path::new(std::ffi::OsStr::from_bytes(b"n\xFF.txt"));
/// assert_eq!(path_name(path), r"n\xff.txt");
/// assert_eq!(path_name(std::path::Path::new(r"n\xff.txt")), r"n\\xff.txt");
/// assert_eq!(path_name(std::path::Path::new("b\u{202E}.txt")), r"b\u{202e}.txt");
/// assert_eq!(path_name(std::path::Path::new(r"b\u{202e}.txt")), r"b\\u{202e}.txt");
/// ```
pub fn path_name(path: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut shown = String::new();
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        // A backslash starts every escape, so the name's own is doubled first (the
        // sanitiser keeps a backslash as it is).
        shown.push_str(&sanitize(&chunk.valid().replace('\\', "\\\\")));
        for b in chunk.invalid() {
            let _ = write!(shown, "\\x{b:02x}");
        }
    }
    shown
}

/// `text` with every risky character written as `\u{..}` (see the module docs).
///
/// ```
/// use hexrune::view::safe::sanitize;
/// assert_eq!(sanitize("a\u{1B}[31m\u{202E}b"), r"a\u{1b}[31m\u{202e}b");
/// assert_eq!(sanitize("café 中文.txt"), "café 中文.txt");
/// assert_eq!(sanitize("\u{2764}\u{FE0F} x\u{FE0F}"), "\u{2764}\u{FE0F} x\\u{fe0f}");
/// ```
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The last character kept that a mark or a selector can sit on.
    let mut base: Option<char> = None;
    // Whether that base has a variation selector already: a second one selects nothing.
    let mut selected = false;
    for c in text.chars() {
        let treatment = treatment(c);
        let keep = match treatment {
            Treatment::Keep => true,
            Treatment::Escape => false,
            Treatment::NeedsBase => base.is_some(),
            Treatment::NeedsSelectable => !selected && base.is_some_and(selectable),
        };
        if keep {
            out.push(c);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        selected = match (treatment, keep) {
            (Treatment::NeedsSelectable, true) => true,
            (Treatment::NeedsBase, true) => selected,
            _ => false,
        };
        base = match (treatment, keep) {
            (Treatment::Keep, _) => (!c.is_whitespace()).then_some(c),
            // Marks stack on the same base (Vietnamese, Hebrew points), a keycap's
            // enclosing mark follows its selector.
            (Treatment::NeedsBase | Treatment::NeedsSelectable, true) => base,
            _ => None,
        };
    }
    out
}

/// Whether [`sanitize`] escapes `c` wherever it stands (a control, a format character such
/// as a bidi control or a zero-width character, a separator, a tag, a private-use or
/// unassigned code point): what a machine-readable format escapes too, whatever comes
/// before it.
pub fn always_escaped(c: char) -> bool {
    treatment(c) == Treatment::Escape
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Treatment {
    /// Shown as itself.
    Keep,
    /// Always escaped.
    Escape,
    /// A combining mark: kept after a visible base character.
    NeedsBase,
    /// A variation selector: kept after a visible character it can select a form of.
    NeedsSelectable,
}

fn treatment(c: char) -> Treatment {
    use GeneralCategory::*;
    let v = c as u32;
    if unicode::is_variation_selector(CodePoint::new(v)) {
        return Treatment::NeedsSelectable;
    }
    // Default-ignorable code points, the letters and marks among them too (the Hangul
    // fillers, U+034F, U+17B4): drawn as nothing, so a name could hide them.
    if unicode::is_default_ignorable(CodePoint::new(v)) {
        return Treatment::Escape;
    }
    match unicode::category(CodePoint::new(v)) {
        Some(
            Control | Format | LineSeparator | ParagraphSeparator | PrivateUse | Surrogate
            | Unassigned,
        )
        | None => Treatment::Escape,
        Some(NonspacingMark | EnclosingMark) => Treatment::NeedsBase,
        Some(_) => Treatment::Keep,
    }
}

/// Whether a variation selector after `c` selects something: not after ASCII, except the
/// keycap bases (`1\u{FE0F}\u{20E3}`).
fn selectable(c: char) -> bool {
    !c.is_ascii() || c.is_ascii_digit() || c == '#' || c == '*'
}

/// The message of an encoding label that cannot be read (`-e`, `repair --from`), with the
/// label as typed through [`sanitize`] alone, so that a mark typed first does not sit on
/// the quote before it and no control or bidi character of it reaches a terminal.
pub fn encoding_error(e: crate::encoding::EncodingError) -> String {
    use crate::encoding::EncodingError::{Replacement, Unknown};
    match e {
        Unknown(label) => Unknown(sanitize(&label)),
        Replacement(label) => Replacement(sanitize(&label)),
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_risky_kind_is_escaped() {
        let cases: &[(&str, &str)] = &[
            ("\u{0}", r"\u{0}"),
            ("a\u{7}b", r"a\u{7}b"),
            ("\u{7F}", r"\u{7f}"),
            ("\u{9B}31m", r"\u{9b}31m"),
            ("\u{061C}", r"\u{61c}"),
            ("\u{200E}\u{200F}", r"\u{200e}\u{200f}"),
            ("\u{202A}\u{202E}", r"\u{202a}\u{202e}"),
            ("\u{2066}\u{2069}", r"\u{2066}\u{2069}"),
            ("a\u{2028}b\u{2029}", r"a\u{2028}b\u{2029}"),
            ("soft\u{AD}hyphen", r"soft\u{ad}hyphen"),
            ("\u{200B}\u{200C}\u{200D}", r"\u{200b}\u{200c}\u{200d}"),
            ("\u{2060}\u{2064}\u{FEFF}", r"\u{2060}\u{2064}\u{feff}"),
            (
                "\u{E0001}\u{E0041}\u{E007F}",
                r"\u{e0001}\u{e0041}\u{e007f}",
            ),
            ("\u{3164}\u{115F}\u{034F}", r"\u{3164}\u{115f}\u{34f}"),
            ("\u{E000}\u{F0000}", r"\u{e000}\u{f0000}"),
            (
                "\u{FDD0}\u{FFFE}\u{10FFFF}\u{0378}",
                r"\u{fdd0}\u{fffe}\u{10ffff}\u{378}",
            ),
            ("a\u{FE0F}", r"a\u{fe0f}"),
            ("\u{FE0F}", r"\u{fe0f}"),
            ("\u{2764}\u{FE0F}\u{FE0F}", "\u{2764}\u{FE0F}\\u{fe0f}"),
            ("\u{0301}x", r"\u{301}x"),
            (" \u{0301}", r" \u{301}"),
        ];
        for (input, expected) in cases {
            assert_eq!(sanitize(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn ordinary_text_is_kept() {
        for text in [
            "café.txt",
            "cafe\u{0301}.txt",
            "Vie\u{0323}\u{0302}t",
            "中文",
            "Ελληνικά",
            "שלום",
            "1\u{FE0F}\u{20E3}",
            "\u{845B}\u{E0100}",
            "a b",
            r"C:\path\x",
        ] {
            assert_eq!(sanitize(text), text);
        }
    }

    #[test]
    fn sanitizing_twice_changes_nothing() {
        let once = sanitize("a\u{1B}\u{202E}\u{FE0F}\u{0301}");
        assert_eq!(sanitize(&once), once);
    }
}
